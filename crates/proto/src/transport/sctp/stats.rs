//! Per-association and per-path counters, and the metric stream (TSNs sent and acknowledged over
//! time for TSN-vs-time plots, cwnd changes, path switches) that
//! [`super::SctpAssociation::poll_metric`] yields when [`super::SctpConfig::metrics`] is on.

use std::net::Ipv4Addr;

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::sctp::Tsn;

/// Why a DATA chunk was retransmitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RtxCause {
    /// Fast retransmit on miss indications (RFC 9260 §7.2.4).
    Fast,
    /// T3-rtx timeout (RFC 9260 §6.3.3).
    T3,
    /// Early retransmission ([`super::EarlyRetransmit`]): Ye, Saadawi & Lee (2003) §5, or a
    /// fast retransmit at the threshold RFC 5827 §3.2 lowers. Kept apart from `Fast` so that
    /// the counters say which rule repaired a loss.
    Early,
    /// A-SCTP (Argyriou & Madisetti 2004 §3): in flight on a data path that failed (its route
    /// broke, or it became inactive) and sent again on the path data switched to, at the
    /// switch instead of after a T3-rtx timeout (`association/asctp.rs`).
    Failover,
}

/// Why new data moved to another destination (the `PathSwitch` metric).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SwitchCause {
    /// A-SCTP: the routing protocol reported that the data path's route broke (Argyriou &
    /// Madisetti 2004 §3: "DSR notifies SCTP when the primary route fails").
    RouteBroken,
    /// The data path became inactive; the failure that made it so was an unanswered
    /// HEARTBEAT (RFC 9260 §8.3; A-SCTP: the second one, §3 of the paper).
    Heartbeat,
    /// The data path became inactive; the failure that made it so was a retransmission timer
    /// (T3-rtx, §6.3.3; or T2/T4 during shutdown or ASCONF).
    Timeout,
    /// Back to the primary once it is active again (RFC 9260 §6.4).
    Return,
    /// The user or the peer (ASCONF Set Primary) changed the primary.
    Primary,
    /// The data path was not usable for another reason when data was next sent (deleted,
    /// unconfirmed; A-SCTP: a path became usable while every other one was down).
    Failover,
}

impl SwitchCause {
    /// Name in results: `route_broken`, `heartbeat`, `timeout`, `return`, `primary`,
    /// `failover`.
    pub fn name(self) -> &'static str {
        match self {
            SwitchCause::RouteBroken => "route_broken",
            SwitchCause::Heartbeat => "heartbeat",
            SwitchCause::Timeout => "timeout",
            SwitchCause::Return => "return",
            SwitchCause::Primary => "primary",
            SwitchCause::Failover => "failover",
        }
    }
}

/// Counters of one association. Byte counts are user-data bytes unless stated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SctpStats {
    /// SCTP packets handed to the network.
    pub packets_sent: u64,
    /// SCTP packets received and accepted for processing (after the verification tag check).
    pub packets_received: u64,
    /// Packets dropped for a verification tag or port mismatch (RFC 9260 §8.5).
    pub packets_dropped_vtag: u64,
    /// Packets built but not sent because a chunk could not be encoded (never expected; a
    /// guard that replaces a panic).
    pub packets_unencodable: u64,
    /// Chunks dropped as unexpected in the current state or malformed in content.
    pub chunks_dropped: u64,
    /// Unrecognized chunk types received (RFC 9260 §3.2).
    pub unknown_chunks: u64,
    /// RFC 4895 §6.3: AUTH chunks whose HMAC did not verify (wrong HMAC, unknown key
    /// identifier, HMAC of the wrong length, unsupported HMAC identifier); the chunks after
    /// each were discarded.
    pub auth_failures: u64,
    /// RFC 4895 §6.3: chunks of a type in our CHUNKS list that arrived without a valid AUTH
    /// chunk before them, silently discarded.
    pub auth_unauthenticated_dropped: u64,
    /// AUTH chunks sent (RFC 4895 §6.2).
    pub auth_sent: u64,
    /// Chunks that could not be parsed (a length below 4 or past the end of the packet, a
    /// value too short for its type, a malformed parameter; RFC 9260 §3.2, §3.2.1): the chunk
    /// and the rest of its packet were dropped, or the association aborted (a DATA chunk
    /// shorter than its header, an INIT ACK with a malformed parameter).
    pub malformed_chunks: u64,
    /// DATA chunks sent, retransmissions included.
    pub data_chunks_sent: u64,
    /// User bytes in DATA chunks sent, retransmissions included.
    pub data_bytes_sent: u64,
    /// DATA chunks retransmitted by fast retransmit.
    pub fast_retransmissions: u64,
    /// DATA chunks retransmitted after a T3-rtx timeout.
    pub t3_retransmissions: u64,
    /// DATA chunks retransmitted by an early retransmit rule ([`super::EarlyRetransmit`]);
    /// not counted in `fast_retransmissions`.
    pub early_retransmissions: u64,
    /// A-SCTP: DATA chunks retransmitted on the new data path at a switch away from a failed
    /// one ([`RtxCause::Failover`]).
    pub failover_retransmissions: u64,
    /// A-SCTP: miss indications not counted because the SACK reported the chunk's successors
    /// only with TSNs outside the TSN range of the chunk's path (Argyriou & Madisetti 2004
    /// §3, "Overcoming packet reordering").
    pub misses_out_of_range: u64,
    /// cSCTP duplicated transfer (Aydin & Shen §II): DATA chunks sent a second time, as a
    /// copy to the secondary peer address during a handoff.
    pub csctp_duplicates_sent: u64,
    /// cSCTP: new DATA chunks sent during a handoff without a copy because the secondary
    /// path's cwnd had no room.
    pub csctp_not_duplicated: u64,
    /// cSCTP: per-path SACKs sent (receiver in handoff with duplicated transfer).
    pub csctp_per_path_sacks_sent: u64,
    /// cSCTP: per-path SACKs received and processed per path.
    pub csctp_per_path_sacks_received: u64,
    /// cSCTP: retransmissions of chunks that had a duplicate (both copies were lost, or were
    /// believed lost).
    pub csctp_retransmissions_of_duplicated: u64,
    /// cSCTP: copies of DATA chunks declared lost on their path by per-path miss indications
    /// (each reduces only that path's cwnd).
    pub csctp_copies_lost: u64,
    /// Retransmissions (either cause) sent to a destination other than the last one used.
    pub retransmissions_to_alternate: u64,
    /// Fast retransmit events (a SACK that triggered at least one fast retransmission at the
    /// full threshold).
    pub fast_retransmit_events: u64,
    /// Early retransmit events (a SACK on which an early retransmit rule marked at least one
    /// chunk); not counted in `fast_retransmit_events`.
    pub early_retransmit_events: u64,
    /// T3-rtx expiries with data outstanding.
    pub t3_timeouts: u64,
    /// CMT-PF: destinations that became potentially failed (a T3-rtx expiry on an active one).
    pub cmt_pf_entries: u64,
    /// Changes of the destination that new data goes to.
    pub path_switches: u64,
    /// SACK chunks sent.
    pub sacks_sent: u64,
    /// SACK chunks received.
    pub sacks_received: u64,
    /// NR-SACK chunks sent (counted in `sacks_sent` too).
    pub nr_sacks_sent: u64,
    /// NR-SACK chunks received (counted in `sacks_received` too).
    pub nr_sacks_received: u64,
    /// Gap Ack Blocks sent in SACKs (total; an NR-SACK's NR Gap Ack Blocks included).
    pub gap_blocks_sent: u64,
    /// Gap Ack Blocks received in SACKs (total; an NR-SACK's NR Gap Ack Blocks included).
    pub gap_blocks_received: u64,
    /// Duplicate TSNs reported in SACKs sent.
    pub duplicate_tsns_sent: u64,
    /// DATA chunks received whose TSN had already been received.
    pub duplicate_data_received: u64,
    /// DATA chunks received and accepted (new TSNs).
    pub data_chunks_received: u64,
    /// DATA chunks dropped for lack of receive buffer (RFC 9260 §6.2).
    pub data_chunks_dropped_rwnd: u64,
    /// Messages accepted by `send`.
    pub messages_sent: u64,
    /// Messages delivered to `recv`.
    pub messages_delivered: u64,
    /// User bytes delivered to `recv`.
    pub bytes_delivered: u64,
    /// User bytes cumulatively acknowledged by the peer.
    pub bytes_acked: u64,
    /// Messages abandoned (PR-SCTP lifetime or local discard).
    pub messages_abandoned: u64,
    /// FORWARD TSN chunks sent.
    pub forward_tsns_sent: u64,
    /// HEARTBEAT chunks sent.
    pub heartbeats_sent: u64,
    /// HEARTBEAT ACK chunks received and matched.
    pub heartbeat_acks_received: u64,
    /// A-SCTP: of those, ACKs of heartbeats already given up (counted as failed, or their
    /// route lost); their RTT samples span the route's outage.
    pub late_heartbeat_acks: u64,
    /// RTT samples taken (DATA and HEARTBEAT).
    pub rtt_samples: u64,
    /// Sum of the RTT samples in ns.
    pub rtt_sum_ns: u128,
    /// ASCONF chunks sent (retransmissions included).
    pub asconfs_sent: u64,
    /// RFC 6525: RE-CONFIG requests sent (retransmissions included).
    pub reconfig_requests_sent: u64,
    /// RFC 6525: RE-CONFIG requests of ours retransmitted on the Re-configuration timer.
    pub reconfig_retransmissions: u64,
    /// RFC 6525: our requests answered Performed (or Nothing to do).
    pub reconfig_performed: u64,
    /// RFC 6525: our requests answered Denied or with an error result.
    pub reconfig_denied: u64,
    /// RFC 6525: requests of the peer processed (retransmissions excluded).
    pub reconfig_requests_received: u64,
    /// ERROR chunks sent.
    pub errors_sent: u64,
    /// ERROR chunks received.
    pub errors_received: u64,
}

/// Counters of one destination.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathStats {
    /// Packets sent to this destination.
    pub packets_sent: u64,
    /// DATA chunks sent to it (retransmissions included).
    pub data_chunks_sent: u64,
    /// DATA chunks retransmitted to it.
    pub retransmissions: u64,
    /// T3-rtx expiries on it.
    pub t3_timeouts: u64,
    /// Fast retransmit reductions of its cwnd.
    pub fast_retransmit_reductions: u64,
    /// User bytes acknowledged that were last sent to it.
    pub bytes_acked: u64,
    /// Times it was marked inactive.
    pub times_down: u64,
    /// HEARTBEATs sent to it.
    pub heartbeats_sent: u64,
    /// Smallest RTT sample.
    pub rtt_min: Option<SimDuration>,
    /// Largest RTT sample.
    pub rtt_max: Option<SimDuration>,
}

/// One metric sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricEvent {
    /// When.
    pub time: SimTime,
    /// What.
    pub kind: MetricKind,
}

/// The kinds of metric samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricKind {
    /// A DATA chunk was sent (a point of the TSN-vs-time plot).
    TsnSent {
        /// Its TSN.
        tsn: Tsn,
        /// The destination.
        path: Ipv4Addr,
        /// `None` for a first transmission.
        retransmission: Option<RtxCause>,
    },
    /// The cumulative TSN ack point advanced to `tsn`.
    TsnAcked {
        /// The new cumulative TSN ack.
        tsn: Tsn,
    },
    /// A destination's cwnd or ssthresh changed.
    Cwnd {
        /// The destination.
        path: Ipv4Addr,
        /// Congestion window, bytes.
        cwnd: u32,
        /// Slow-start threshold, bytes.
        ssthresh: u32,
    },
    /// An RTT sample was taken.
    Rtt {
        /// The destination.
        path: Ipv4Addr,
        /// The sample.
        rtt: SimDuration,
        /// RTO after it.
        rto: SimDuration,
    },
    /// New data moved from one destination to another.
    PathSwitch {
        /// Previous destination.
        from: Ipv4Addr,
        /// New destination.
        to: Ipv4Addr,
        /// Why.
        cause: SwitchCause,
    },
    /// A SACK was sent with this many Gap Ack Blocks.
    SackSent {
        /// Gap Ack Blocks in it.
        gap_blocks: u16,
        /// Duplicate TSNs in it.
        duplicates: u16,
    },
}
