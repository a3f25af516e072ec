//! Constant-bit-rate and fixed-size-file sources (sans-IO).
//!
//! The k-th packet is due at `start + k · size · 8 / rate`, computed exactly in integer
//! nanoseconds from k rather than by adding a rounded interval, so a long run does not drift
//! from the configured rate.

use super::header::SeqTsHeader;
use sctpsim_kernel::{BitRate, SimTime};

/// Configuration shared by the CBR and file sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CbrConfig {
    /// Application payload rate (the rate counts payload bytes, as ns-2's CBR and ns-3's
    /// OnOffApplication do).
    pub rate: BitRate,
    /// Payload bytes per packet (at least [`SeqTsHeader::LEN`]).
    pub packet_size: usize,
    /// When the first packet is sent.
    pub start: SimTime,
    /// No packet is sent at or after this time.
    pub stop: SimTime,
    /// Total payload bytes to send (`None`: unlimited). The last packet may be shorter, but never
    /// shorter than the header.
    pub total_bytes: Option<u64>,
}

/// A constant-bit-rate source.
#[derive(Clone, Debug)]
pub struct CbrSource {
    cfg: CbrConfig,
    next_seq: u32,
    bytes_sent: u64,
}

/// A file of `total_bytes` sent at a constant rate: a [`CbrSource`] with a byte budget.
pub type FileSource = CbrSource;

impl CbrSource {
    /// A source that has sent nothing yet.
    pub fn new(cfg: CbrConfig) -> Self {
        CbrSource {
            cfg,
            next_seq: 0,
            bytes_sent: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &CbrConfig {
        &self.cfg
    }

    /// Payload bytes handed out so far.
    pub fn bytes_sent(&self) -> u64 {
        self.bytes_sent
    }

    /// Packets handed out so far.
    pub fn packets_sent(&self) -> u64 {
        self.next_seq as u64
    }

    fn due(&self, k: u64) -> SimTime {
        let bits = k as u128 * self.cfg.packet_size as u128 * 8 * 1_000_000_000;
        let ns = bits / (self.cfg.rate.bps().max(1) as u128);
        SimTime(
            self.cfg
                .start
                .0
                .saturating_add(u64::try_from(ns).unwrap_or(u64::MAX)),
        )
    }

    fn finished(&self) -> bool {
        match self.cfg.total_bytes {
            Some(total) => self.bytes_sent >= total,
            None => false,
        }
    }

    /// When the next packet is due; `None` once the source has finished.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        if self.finished() || self.next_seq == u32::MAX {
            return None;
        }
        let t = self.due(self.next_seq as u64);
        (t < self.cfg.stop).then_some(t)
    }

    /// The next payload if one is due at `now`. Call repeatedly until `None`.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Vec<u8>> {
        let due = self.poll_timeout()?;
        if due > now {
            return None;
        }
        let mut len = self.cfg.packet_size;
        if let Some(total) = self.cfg.total_bytes {
            let left = total.saturating_sub(self.bytes_sent);
            len = len
                .min(usize::try_from(left).unwrap_or(usize::MAX))
                .max(SeqTsHeader::LEN);
        }
        let mut payload = vec![0u8; len.max(SeqTsHeader::LEN)];
        SeqTsHeader {
            seq: self.next_seq,
            sent_at: now,
        }
        .emit(&mut payload);
        self.next_seq += 1;
        self.bytes_sent += payload.len() as u64;
        Some(payload)
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use sctpsim_kernel::SimDuration;

    fn cfg(total: Option<u64>) -> CbrConfig {
        CbrConfig {
            rate: BitRate(1_000_000),
            packet_size: 1000,
            start: SimTime(0) + SimDuration::from_millis(10),
            stop: SimTime(0) + SimDuration::from_secs(1),
            total_bytes: total,
        }
    }

    fn drain(src: &mut CbrSource) -> Vec<(SimTime, usize)> {
        let mut out = Vec::new();
        while let Some(t) = src.poll_timeout() {
            // A wake-up before the deadline is a no-op.
            assert!(src.poll_transmit(SimTime(t.0 - 1)).is_none() || t.0 == 0);
            while let Some(p) = src.poll_transmit(t) {
                out.push((t, p.len()));
            }
        }
        out
    }

    #[test]
    fn cbr_rate_is_exact_and_stops() {
        let mut src = CbrSource::new(cfg(None));
        let sent = drain(&mut src);
        // 1 Mbit/s of 1000-byte packets = one per 8 ms, from 10 ms to before 1 s: 124 packets.
        assert_eq!(sent.len(), 124);
        assert_eq!(sent[1].0 .0 - sent[0].0 .0, 8_000_000);
        assert!(sent.last().unwrap().0 < SimTime(1_000_000_000));
    }

    #[test]
    fn file_source_sends_exactly_its_size() {
        let mut src = CbrSource::new(cfg(Some(2_500)));
        let sent = drain(&mut src);
        assert_eq!(sent.iter().map(|(_, n)| n).sum::<usize>(), 2_500);
        assert_eq!(sent.len(), 3);
        assert_eq!(src.poll_timeout(), None);
    }
}
