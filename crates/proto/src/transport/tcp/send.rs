//! The send buffer: bytes the application wrote that are not yet acknowledged, optionally
//! followed by an endless (or N-byte) synthetic stream for backlogged sources, which costs no
//! memory.
//!
//! Indices here are data indices (0 = the first data byte, stream offset 1).

use std::collections::VecDeque;

/// The byte at data index `index` of a backlogged stream: `index mod 251` (a prime, so the
/// pattern does not line up with segment sizes and a receiver can check every byte).
pub fn backlog_byte(index: u64) -> u8 {
    (index % 251) as u8
}

/// "Unlimited" end of a backlogged stream: far beyond any simulated transfer, and small enough
/// that offset arithmetic never overflows.
const UNLIMITED: u64 = 1 << 62;

/// Send buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendBuffer {
    /// Data index of `data[0]`.
    base: u64,
    data: VecDeque<u8>,
    /// Data index where the synthetic stream starts, and where it ends.
    synthetic: Option<(u64, u64)>,
    capacity: usize,
}

impl SendBuffer {
    /// An empty buffer accepting `capacity` unacknowledged bytes.
    pub fn new(capacity: usize) -> Self {
        SendBuffer {
            base: 0,
            data: VecDeque::new(),
            synthetic: None,
            capacity,
        }
    }

    /// Data index one past the last byte the application has provided.
    pub fn end(&self) -> u64 {
        match self.synthetic {
            Some((_, end)) => end,
            None => self.base + self.data.len() as u64,
        }
    }

    /// Copies up to the free capacity of `bytes`; returns how many. Nothing is accepted once
    /// the stream is backlogged.
    pub fn write(&mut self, bytes: &[u8]) -> usize {
        if self.synthetic.is_some() {
            return 0;
        }
        let n = bytes
            .len()
            .min(self.capacity.saturating_sub(self.data.len()));
        self.data.extend(&bytes[..n]);
        n
    }

    /// From now on the application always has data: `total` more bytes, or without end.
    pub fn set_backlog(&mut self, total: Option<u64>) {
        if self.synthetic.is_some() {
            return;
        }
        let from = self.end();
        let end = match total {
            Some(n) => from.saturating_add(n).min(UNLIMITED),
            None => UNLIMITED,
        };
        self.synthetic = Some((from, end));
    }

    /// Appends the bytes at data indices `[from, from + len)` to `out`. Indices below the
    /// acknowledged point or beyond the end are a caller bug and are skipped.
    pub fn copy_to(&self, from: u64, len: usize, out: &mut Vec<u8>) {
        out.reserve(len);
        for index in from..from.saturating_add(len as u64).min(self.end()) {
            match self.synthetic {
                Some((start, _)) if index >= start => out.push(backlog_byte(index)),
                _ => {
                    if let Some(&b) = index
                        .checked_sub(self.base)
                        .and_then(|i| self.data.get(i as usize))
                    {
                        out.push(b);
                    }
                }
            }
        }
    }

    /// Drops everything below data index `upto` (acknowledged).
    pub fn release(&mut self, upto: u64) {
        if upto <= self.base {
            return;
        }
        let n = ((upto - self.base) as usize).min(self.data.len());
        self.data.drain(..n);
        self.base = upto;
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn buffered_then_backlogged() {
        let mut b = SendBuffer::new(4);
        assert_eq!(b.write(b"abcdef"), 4);
        assert_eq!(b.end(), 4);
        let mut out = Vec::new();
        b.copy_to(1, 2, &mut out);
        assert_eq!(out, b"bc");
        b.release(2);
        assert_eq!(b.write(b"xyz"), 2);
        b.set_backlog(Some(10));
        assert_eq!(b.end(), 16);
        assert_eq!(b.write(b"no"), 0);
        out.clear();
        b.copy_to(4, 4, &mut out);
        assert_eq!(out, vec![b'x', b'y', backlog_byte(6), backlog_byte(7)]);
        out.clear();
        b.copy_to(14, 10, &mut out);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn unlimited_backlog() {
        let mut b = SendBuffer::new(0);
        b.set_backlog(None);
        assert!(b.end() > 1 << 40);
        let mut out = Vec::new();
        b.copy_to(1000, 3, &mut out);
        assert_eq!(
            out,
            vec![backlog_byte(1000), backlog_byte(1001), backlog_byte(1002)]
        );
        assert_eq!(backlog_byte(251), 0);
    }
}
