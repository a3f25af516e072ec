//! A datagram sink: what arrived, when, and how late.

use super::header::SeqTsHeader;
use sctpsim_kernel::SimTime;

/// Counters of one sink.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SinkStats {
    /// Payload bytes received (duplicates included).
    pub bytes: u64,
    /// Datagrams received (duplicates included).
    pub packets: u64,
    /// Sum of one-way delays, ns.
    pub delay_sum_ns: u128,
    /// Datagrams that arrived with a sequence number below the highest seen.
    pub reordered: u64,
    /// Datagrams without a readable header (counted, not used for delay).
    pub malformed: u64,
    /// Time of the first and the last arrival.
    pub first_rx: Option<SimTime>,
    /// Time of the last arrival.
    pub last_rx: Option<SimTime>,
}

/// Receives datagrams of one flow.
#[derive(Clone, Debug, Default)]
pub struct DatagramSink {
    stats: SinkStats,
    highest_seq: Option<u32>,
}

impl DatagramSink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Account for one datagram payload that arrived at `now`.
    pub fn handle_datagram(&mut self, now: SimTime, payload: &[u8]) {
        let s = &mut self.stats;
        s.bytes += payload.len() as u64;
        s.packets += 1;
        s.first_rx.get_or_insert(now);
        s.last_rx = Some(now);
        match SeqTsHeader::parse(payload) {
            Some(h) => {
                s.delay_sum_ns += now.saturating_since(h.sent_at).0 as u128;
                match self.highest_seq {
                    Some(hi) if h.seq < hi => s.reordered += 1,
                    _ => self.highest_seq = Some(h.seq),
                }
            }
            None => s.malformed += 1,
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> &SinkStats {
        &self.stats
    }

    /// Mean one-way delay in seconds, if anything with a header arrived.
    pub fn mean_delay_s(&self) -> Option<f64> {
        let n = self.stats.packets - self.stats.malformed;
        (n > 0).then(|| self.stats.delay_sum_ns as f64 / n as f64 / 1e9)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn delay_and_reordering() {
        let mut sink = DatagramSink::new();
        let mut p = vec![0u8; 100];
        for (seq, sent, now) in [(0u32, 0u64, 10u64), (2, 20, 40), (1, 10, 50)] {
            SeqTsHeader {
                seq,
                sent_at: SimTime(sent),
            }
            .emit(&mut p);
            sink.handle_datagram(SimTime(now), &p);
        }
        sink.handle_datagram(SimTime(60), &[1, 2, 3]);
        let s = sink.stats();
        assert_eq!(s.packets, 4);
        assert_eq!(s.bytes, 303);
        assert_eq!(s.reordered, 1);
        assert_eq!(s.malformed, 1);
        assert_eq!(s.delay_sum_ns, 10 + 20 + 40);
        assert!((sink.mean_delay_s().unwrap() - 70e-9 / 3.0).abs() < 1e-15);
    }
}
