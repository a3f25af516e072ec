//! SCTP rows of `summary.json`: one per association (`sctp`), per destination of each side
//! (`paths`, also `paths.parquet`) and per stream (`streams`, also `streams.parquet`). Units:
//! bytes, packets, seconds. Documented in `docs/metrics.md`.

use serde::Serialize;

/// One SCTP association (flow): counters of both sides.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SctpResult {
    /// Flow index in the scenario.
    pub id: u32,
    /// `rfc9260` or `rfc2960`.
    pub profile: String,
    /// The sender's state at the end (RFC names: `ESTABLISHED`, `CLOSED`, ...; `none` if it
    /// never started).
    pub state: String,
    /// The sender's local addresses.
    pub local_addresses: Vec<String>,
    /// The destinations, primary first.
    pub peer_addresses: Vec<String>,
    /// The destination new data went to at the end.
    pub current_path: Option<String>,
    /// DATA chunks sent by the sender (retransmissions included).
    pub data_chunks_sent: u64,
    /// Chunks retransmitted by fast retransmit (RFC 9260 §7.2.4).
    pub fast_retransmissions: u64,
    /// Chunks retransmitted after a T3-rtx timeout (§6.3.3).
    pub t3_retransmissions: u64,
    /// Chunks retransmitted by an early retransmit rule (`flows.sctp.early_retransmit`:
    /// Ye et al. 2003 §5 or RFC 5827); not in `fast_retransmissions`.
    pub early_retransmissions: u64,
    /// Retransmissions sent to a destination other than the previous one (§6.4).
    pub retransmissions_to_alternate: u64,
    /// SACKs that triggered fast retransmit.
    pub fast_retransmit_events: u64,
    /// T3-rtx expiries with data outstanding.
    pub t3_timeouts: u64,
    /// Changes of the destination of new data (failover and return).
    pub path_switches: u64,
    /// SACKs the receiver sent.
    pub sacks_sent: u64,
    /// Gap Ack Blocks in them.
    pub gap_blocks_sent: u64,
    /// Gap Ack Blocks the sender received.
    pub gap_blocks_received: u64,
    /// Duplicate TSNs the receiver reported.
    pub duplicate_tsns: u64,
    /// DATA chunks the receiver dropped for lack of buffer.
    pub rwnd_drops: u64,
    /// HEARTBEATs sent by both sides.
    pub heartbeats_sent: u64,
    /// Messages the application handed over.
    pub messages_sent: u64,
    /// Messages delivered to the receiving application.
    pub messages_delivered: u64,
    /// Messages abandoned (PR-SCTP lifetime).
    pub messages_abandoned: u64,
    /// FORWARD TSN chunks sent.
    pub forward_tsns_sent: u64,
    /// Delivered messages that were corrupted, duplicated, on the wrong stream or out of order
    /// on an ordered stream (0 for a correct transport).
    pub delivery_errors: u64,
    /// Messages lost to the receiving application: on an ordered stream, sequence numbers
    /// below the highest delivered one that never arrived (0 for a correct transport without
    /// PR-SCTP abandonment).
    pub messages_missing: u64,
    /// Packets for the association that failed the SCTP checks (CRC32c, structure).
    pub malformed_packets: u64,
    /// Associations of the flow lost (RFC 9260 §8.1 too many retransmissions, or an ABORT
    /// received) at either end: 0 for a flow that kept its association.
    pub associations_lost: u64,
    /// `asctp` for an A-SCTP flow, `cmt` for a CMT-SCTP one (`flows.sctp.multipath`); absent
    /// otherwise, with the A-SCTP and CMT counters below (so that runs without them keep their
    /// columns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multipath: Option<String>,
    /// A-SCTP: chunks in flight on a failed data path sent again on the new one at the switch
    /// (not in `t3_retransmissions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failover_retransmissions: Option<u64>,
    /// A-SCTP: miss indications withheld by the per-path TSN range rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misses_out_of_range: Option<u64>,
    /// A-SCTP: HEARTBEAT ACKs that came after their heartbeat was given up (counted as failed,
    /// or its route lost); their RTT samples span the route's outage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late_heartbeat_acks: Option<u64>,
    /// CMT-PF: times a destination of the sender became potentially failed (a T3-rtx expiry
    /// on an active destination, `cmt_pf`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cmt_pf_entries: Option<u64>,
    /// Stream reconfiguration (RFC 6525, `sctp.reconfig = true` only): RE-CONFIG requests
    /// both ends sent (retransmissions included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconfig_requests_sent: Option<u64>,
    /// ... requests of either end the peer answered "Performed" (or "Nothing to do").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconfig_performed: Option<u64>,
    /// ... requests of either end the peer answered "Denied" or with an error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconfig_denied: Option<u64>,
    /// NR-SACK (`sctp.nr_sack = true` only): NR-SACK chunks the receiver sent (they are
    /// counted in `sacks_sent` too; 0 if the peer did not negotiate NR-SACK).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nr_sacks_sent: Option<u64>,
    /// ... NR-SACK chunks the sender received and processed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nr_sacks_received: Option<u64>,
}

/// One destination of one side of an association.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PathResult {
    /// Flow index.
    pub flow: u32,
    /// `sender` (the flow's `src`) or `receiver`.
    pub side: String,
    /// Destination address.
    pub addr: String,
    /// Source address used towards it.
    pub source: String,
    /// Whether it was the primary path at the end.
    pub primary: bool,
    /// `active`, `inactive` or `unconfirmed` at the end.
    pub state: String,
    /// Congestion window at the end, bytes.
    pub cwnd_bytes: u32,
    /// Slow-start threshold at the end, bytes.
    pub ssthresh_bytes: u32,
    /// Smoothed RTT at the end, s (null before a measurement).
    pub srtt_s: Option<f64>,
    /// RTO at the end, s.
    pub rto_s: f64,
    /// Error counter at the end.
    pub error_count: u32,
    /// Packets sent to it.
    pub packets_sent: u64,
    /// DATA chunks sent to it (retransmissions included).
    pub data_chunks_sent: u64,
    /// DATA chunks retransmitted to it.
    pub retransmissions: u64,
    /// T3-rtx expiries on it.
    pub t3_timeouts: u64,
    /// Fast-retransmit reductions of its cwnd.
    pub fast_retransmit_reductions: u64,
    /// Payload bytes acknowledged that were last sent to it.
    pub bytes_acked: u64,
    /// Times it was marked inactive.
    pub times_down: u64,
    /// HEARTBEATs sent to it.
    pub heartbeats_sent: u64,
    /// Smallest RTT sample, s.
    pub rtt_min_s: Option<f64>,
    /// Largest RTT sample, s.
    pub rtt_max_s: Option<f64>,
    /// A-SCTP route paths (sender): the path's slot (0 is the path keyed by the peer
    /// address); absent for other paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route_slot: Option<u32>,
    /// A-SCTP route paths: the route at the end, node addresses joined by `>` (empty when the
    /// path had no route at the end); absent for other paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
}

/// One stream of an association (the sender's outbound stream, the receiver's inbound one).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StreamResult {
    /// Flow index.
    pub flow: u32,
    /// Stream identifier.
    pub stream: u16,
    /// Messages handed over on it.
    pub messages_sent: u64,
    /// Messages delivered from it.
    pub messages_delivered: u64,
    /// Messages abandoned on it (PR-SCTP).
    pub messages_abandoned: u64,
    /// Payload bytes delivered from it.
    pub bytes_delivered: u64,
    /// Mean delivery delay (delivery to the receiving application − hand-over by the
    /// sending one), s.
    pub mean_delay_s: Option<f64>,
    /// Median delivery delay, s.
    pub p50_delay_s: Option<f64>,
    /// 95th percentile of the delivery delay, s.
    pub p95_delay_s: Option<f64>,
    /// Largest delivery delay, s.
    pub max_delay_s: Option<f64>,
}
