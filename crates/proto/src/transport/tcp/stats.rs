//! Per-connection counters (the per-flow columns of `summary.json`).

use sctpsim_kernel::SimDuration;

/// Counters of one TCP connection. Byte counts are payload bytes (no headers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TcpStats {
    /// Segments handed to the network (every kind, retransmissions included).
    pub segments_sent: u64,
    /// Segments built but not sent because they do not fit an IPv4 packet (never expected
    /// with an MSS below 65535 − 60; a guard that replaces a panic).
    pub segments_unencodable: u64,
    /// Segments carrying data or FIN handed to the network (retransmissions included).
    pub data_segments_sent: u64,
    /// Pure ACKs (and window probes) sent.
    pub acks_sent: u64,
    /// Payload bytes sent, retransmissions included.
    pub bytes_sent: u64,
    /// Segments retransmitted (by any mechanism).
    pub retransmissions: u64,
    /// Payload bytes retransmitted.
    pub bytes_retransmitted: u64,
    /// Fast retransmits (entries into loss recovery triggered by duplicate ACKs or SACK).
    pub fast_retransmits: u64,
    /// Retransmission timeouts with data outstanding (SYN timeouts included).
    pub timeouts: u64,
    /// RTT samples taken.
    pub rtt_samples: u64,
    /// Sum of the RTT samples in ns.
    pub rtt_sum_ns: u128,
    /// Smallest RTT sample.
    pub rtt_min: Option<SimDuration>,
    /// Largest RTT sample.
    pub rtt_max: Option<SimDuration>,
    /// Duplicate ACKs received.
    pub dup_acks_received: u64,
    /// Payload bytes cumulatively acknowledged by the peer.
    pub bytes_acked: u64,
    /// Segments accepted by the codec and handed to the connection.
    pub segments_received: u64,
    /// Payload bytes delivered in order to the receive buffer.
    pub bytes_delivered: u64,
    /// Segments whose data had all been received before.
    pub duplicate_segments_received: u64,
    /// Segments that arrived above the next expected sequence number.
    pub out_of_order_segments_received: u64,
    /// Segments that failed to parse (bad checksum, truncated header, nonsense options); only
    /// counted when the bytes come in through `handle_packet`.
    pub malformed_dropped: u64,
    /// Parsed segments dropped as unacceptable for the state (wrong ports, bad ACK, PAWS,
    /// outside the window, ...).
    pub segments_dropped: u64,
    /// SACK blocks sent.
    pub sack_blocks_sent: u64,
    /// Zero-window probes sent.
    pub window_probes: u64,
}

impl TcpStats {
    /// Mean of the RTT samples in seconds (for results).
    pub fn mean_rtt_s(&self) -> Option<f64> {
        (self.rtt_samples > 0).then(|| self.rtt_sum_ns as f64 / self.rtt_samples as f64 / 1e9)
    }

    pub(crate) fn record_rtt(&mut self, rtt: SimDuration) {
        self.rtt_samples += 1;
        self.rtt_sum_ns += u128::from(rtt.as_nanos());
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
        self.rtt_max = Some(self.rtt_max.map_or(rtt, |m| m.max(rtt)));
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn rtt_summary() {
        let mut s = TcpStats::default();
        assert_eq!(s.mean_rtt_s(), None);
        s.record_rtt(SimDuration::from_millis(100));
        s.record_rtt(SimDuration::from_millis(300));
        assert_eq!(s.rtt_min, Some(SimDuration::from_millis(100)));
        assert_eq!(s.rtt_max, Some(SimDuration::from_millis(300)));
        assert!((s.mean_rtt_s().unwrap() - 0.2).abs() < 1e-12);
    }
}
