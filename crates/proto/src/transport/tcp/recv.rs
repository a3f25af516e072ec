//! The receive buffer: in-order bytes waiting for the application and out-of-order blocks
//! waiting for the gap before them (RFC 9293 §3.10.7.4, seventh).
//!
//! Offsets are the connection's receive stream offsets (0 = the peer's SYN, data from 1). The
//! window is what is free of the buffer after the unread in-order bytes, so the right edge
//! `read offset + capacity` never moves left (RFC 9293 §3.8.6.2.2: the window SHOULD NOT
//! shrink); out-of-order data lives inside that window.

use std::collections::{BTreeMap, VecDeque};

/// Receive buffer with reassembly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecvBuffer {
    ready: VecDeque<u8>,
    /// Out-of-order blocks by start offset: non-empty, non-overlapping, non-adjacent, all above
    /// `rcv_nxt`.
    ooo: BTreeMap<u64, Vec<u8>>,
    rcv_nxt: u64,
    capacity: u32,
}

/// What [`RecvBuffer::insert`] did with a segment's data.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inserted {
    /// Bytes that became deliverable in order (including out-of-order blocks joined).
    pub delivered: u64,
    /// The data lay above `rcv_nxt` and was queued.
    pub out_of_order: bool,
    /// Nothing in the segment was new.
    pub duplicate: bool,
    /// In-order data reached an out-of-order block (a gap was filled, in part or fully).
    pub filled_gap: bool,
    /// The out-of-order block now holding the data, if it was queued.
    pub block: Option<(u64, u64)>,
    /// The data was cut at the right edge of the window.
    pub truncated: bool,
}

impl RecvBuffer {
    /// An empty buffer expecting `rcv_nxt` next.
    pub fn new(capacity: u32, rcv_nxt: u64) -> Self {
        RecvBuffer {
            ready: VecDeque::new(),
            ooo: BTreeMap::new(),
            rcv_nxt,
            capacity,
        }
    }

    /// The next expected data offset.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// The receive window: buffer space after the unread in-order bytes.
    pub fn window(&self) -> u32 {
        let used = u32::try_from(self.ready.len()).unwrap_or(u32::MAX);
        self.capacity.saturating_sub(used)
    }

    /// Bytes the application can read.
    pub fn available(&self) -> usize {
        self.ready.len()
    }

    /// Whether out-of-order data is queued.
    pub fn has_out_of_order(&self) -> bool {
        !self.ooo.is_empty()
    }

    /// One past the highest offset received (in order or not).
    pub fn highest_end(&self) -> u64 {
        self.ooo
            .last_key_value()
            .map_or(self.rcv_nxt, |(&s, d)| s + d.len() as u64)
            .max(self.rcv_nxt)
    }

    /// The out-of-order block containing `offset`.
    pub fn block_at(&self, offset: u64) -> Option<(u64, u64)> {
        let (&start, data) = self.ooo.range(..=offset).next_back()?;
        let end = start + data.len() as u64;
        (offset < end).then_some((start, end))
    }

    /// Accepts `data` starting at `start`, keeping only what lies inside the window.
    pub fn insert(&mut self, start: u64, data: &[u8]) -> Inserted {
        let mut out = Inserted::default();
        let end = start.saturating_add(data.len() as u64);
        let right_edge = self.rcv_nxt + u64::from(self.window());
        let lo = start.max(self.rcv_nxt);
        let hi = end.min(right_edge);
        out.truncated = end > right_edge;
        if lo >= hi {
            out.duplicate = !data.is_empty() && end <= self.rcv_nxt;
            return out;
        }
        // `lo - start` and `hi - start` are within `data` by construction.
        let piece = &data[(lo - start) as usize..(hi - start) as usize];
        if lo == self.rcv_nxt {
            self.ready.extend(piece);
            self.rcv_nxt = hi;
            out.delivered = hi - lo;
            // Join the out-of-order blocks now reached.
            while let Some(entry) = self.ooo.first_entry() {
                let block_start = *entry.key();
                if block_start > self.rcv_nxt {
                    break;
                }
                let block = entry.remove();
                let block_end = block_start + block.len() as u64;
                out.filled_gap = true;
                if block_end > self.rcv_nxt {
                    let skip = (self.rcv_nxt - block_start) as usize;
                    self.ready.extend(&block[skip..]);
                    out.delivered += block_end - self.rcv_nxt;
                    self.rcv_nxt = block_end;
                }
            }
        } else {
            out.out_of_order = true;
            let covered = self
                .block_at(lo)
                .is_some_and(|(_, block_end)| block_end >= hi);
            out.duplicate = covered;
            out.block = Some(self.merge(lo, piece));
        }
        out
    }

    /// Inserts an out-of-order piece, merging it with overlapping or adjacent blocks; returns
    /// the resulting block.
    fn merge(&mut self, lo: u64, piece: &[u8]) -> (u64, u64) {
        let hi = lo + piece.len() as u64;
        let mut start = lo;
        let mut end = hi;
        // Blocks starting at or before `hi` that end at or after `lo` touch the piece.
        let touching: Vec<u64> = self
            .ooo
            .range(..=hi)
            .rev()
            .take_while(|(&s, d)| s + d.len() as u64 >= lo)
            .map(|(&s, _)| s)
            .collect();
        for &s in &touching {
            if let Some(d) = self.ooo.get(&s) {
                start = start.min(s);
                end = end.max(s + d.len() as u64);
            }
        }
        let mut merged = vec![0u8; (end - start) as usize];
        for s in touching {
            if let Some(d) = self.ooo.remove(&s) {
                let at = (s - start) as usize;
                merged[at..at + d.len()].copy_from_slice(&d);
            }
        }
        let at = (lo - start) as usize;
        merged[at..at + piece.len()].copy_from_slice(piece);
        self.ooo.insert(start, merged);
        (start, end)
    }

    /// Moves up to `buf.len()` in-order bytes to `buf`.
    pub fn read(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len().min(self.ready.len());
        for (dst, src) in buf.iter_mut().zip(self.ready.drain(..n)) {
            *dst = src;
        }
        n
    }

    /// Drops every in-order byte like [`RecvBuffer::discard`], checking each against
    /// `expected(index)`, where `first` is the stream index of the first in-order byte; returns
    /// how many bytes were dropped and how many of them differed (a checking sink: a
    /// duplicated, lost-and-skipped or misplaced segment shows as differing bytes).
    pub fn discard_checked(&mut self, first: u64, expected: impl Fn(u64) -> u8) -> (usize, u64) {
        let bad = self
            .ready
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b != expected(first + i as u64))
            .count() as u64;
        (self.discard(), bad)
    }

    /// Drops every in-order byte (a sink that only counts); returns how many.
    pub fn discard(&mut self) -> usize {
        let n = self.ready.len();
        self.ready.clear();
        n
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn the_checking_discard_counts_bytes_that_are_not_the_pattern() {
        let pattern = |i: u64| (i % 251) as u8;
        let mut b = RecvBuffer::new(1000, 1);
        let good: Vec<u8> = (0..10).map(pattern).collect();
        b.insert(1, &good);
        assert_eq!(b.discard_checked(0, pattern), (10, 0));
        // The same ten bytes again at the next offset: a duplicated segment, misplaced.
        b.insert(11, &good);
        assert_eq!(b.discard_checked(10, pattern), (10, 10));
        assert_eq!(b.discard_checked(20, pattern), (0, 0));
    }

    #[test]
    fn in_order_out_of_order_and_gap_filling() {
        let mut b = RecvBuffer::new(100, 1);
        let r = b.insert(1, b"abc");
        assert_eq!((r.delivered, r.out_of_order), (3, false));
        let r = b.insert(7, b"ghi");
        assert!(r.out_of_order && !r.duplicate);
        assert_eq!(r.block, Some((7, 10)));
        let r = b.insert(12, b"lm");
        assert_eq!(r.block, Some((12, 14)));
        // Adjacent block merges.
        let r = b.insert(10, b"jk");
        assert_eq!(r.block, Some((7, 14)));
        assert_eq!(b.block_at(13), Some((7, 14)));
        assert_eq!(b.block_at(14), None);
        let r = b.insert(4, b"def");
        assert!(r.filled_gap);
        assert_eq!(r.delivered, 3 + 7);
        assert_eq!(b.rcv_nxt(), 14);
        assert!(!b.has_out_of_order());
        let mut out = [0u8; 20];
        let n = b.read(&mut out);
        assert_eq!(&out[..n], b"abcdefghijklm");
    }

    #[test]
    fn duplicates_overlaps_and_window() {
        let mut b = RecvBuffer::new(10, 1);
        b.insert(1, b"abcd");
        assert!(b.insert(1, b"ab").duplicate);
        // Overlap delivers only the new part.
        let r = b.insert(3, b"cdef");
        assert_eq!(r.delivered, 2);
        assert_eq!(b.window(), 4);
        // Beyond the window is cut.
        let r = b.insert(7, b"ghijklmn");
        assert!(r.truncated);
        assert_eq!(r.delivered, 4);
        assert_eq!(b.window(), 0);
        assert!(b.insert(11, b"x").truncated);
        assert_eq!(b.discard(), 10);
        assert_eq!(b.window(), 10);
        // Out-of-order duplicate of a queued block.
        b.insert(15, b"xyz");
        let r = b.insert(16, b"y");
        assert!(r.out_of_order && r.duplicate);
        // Overlapping several blocks.
        b.insert(19, b"q");
        let r = b.insert(14, b"123456");
        assert_eq!(r.block, Some((14, 20)));
    }
}
