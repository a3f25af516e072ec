//! CMT-SCTP, concurrent multipath transfer (Iyengar, Amer & Stewart, "Concurrent Multipath
//! Transfer Using SCTP Multihoming Over Independent End-to-End Paths", IEEE/ACM ToN 14(5),
//! 2006; cited below as "ToN §n"): new data goes to every destination whose cwnd has room, not
//! only to the primary. The options live here; the rules are in `association/cmt.rs`, the
//! split fast retransmit miss rule in `retransmit.rs` ([`super::retransmit::MissRule`]).
//!
//! CMT is the third [`super::asctp::Multipath`] mode of the association's multipath seam
//! (destination of new data, miss-indication rule, retransmission target, window growth
//! signal): `Multipath::Cmt` switches it on, [`CmtConfig`] selects its algorithms, each of which
//! can be turned off to show the problem it solves (ToN §3).

/// Where a retransmission goes under CMT (ToN §4, "Retransmission policies"). The choice is
/// made when the chunk is marked, after the window reductions the loss caused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RtxPolicy {
    /// RTX-SAME: to the destination of the chunk's last transmission.
    Same,
    /// RTX-ASAP: to a destination whose cwnd has room now (the one with the most room), else
    /// to the last destination.
    Asap,
    /// RTX-CWND: to the active destination with the largest cwnd.
    Cwnd,
    /// RTX-SSTHRESH: to the active destination with the largest ssthresh; ToN §4 finds it (with
    /// RTX-LOSSRATE) the best of the five, so it is the default.
    #[default]
    Ssthresh,
    /// RTX-LOSSRATE: to the active destination with the lowest loss rate, estimated here as
    /// (T3 timeouts + fast-retransmit reductions) per DATA chunk sent to it.
    LossRate,
}

impl RtxPolicy {
    /// Every policy, in the order of ToN §4.
    pub const ALL: [RtxPolicy; 5] = [
        RtxPolicy::Same,
        RtxPolicy::Asap,
        RtxPolicy::Cwnd,
        RtxPolicy::Ssthresh,
        RtxPolicy::LossRate,
    ];

    /// The scenario name: `same`, `asap`, `cwnd`, `ssthresh`, `lossrate`.
    pub fn name(self) -> &'static str {
        match self {
            RtxPolicy::Same => "same",
            RtxPolicy::Asap => "asap",
            RtxPolicy::Cwnd => "cwnd",
            RtxPolicy::Ssthresh => "ssthresh",
            RtxPolicy::LossRate => "lossrate",
        }
    }

    /// The policy of a scenario name, `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// CMT's coupled congestion control: which algorithm couples the windows of the destinations
/// (formulas and sources in `coupled.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CoupledCc {
    /// Uncoupled: every destination runs RFC 9260 §7.2 on its own (ToN).
    #[default]
    Off,
    /// RFC 6356 §3, the Linked Increases Algorithm (FreeBSD's "MPTCP-like" CMT mode):
    /// congestion avoidance coupled; slow start and the decreases stay per destination.
    Lia,
    /// CMT/RPv1 (Dreibholz, Becke, Pulinthanath & Rathgeb, "Applying TCP-Friendly Congestion
    /// Control to Concurrent Multipath Transfer", IEEE AINA 2010): increases in proportion to
    /// the destination's share of the summed ssthresh, decreases by half the summed cwnd.
    Rpv1,
    /// CMT/RPv2 (Dreibholz, Becke, Adhari & Rathgeb, "On the Impact of Congestion Control
    /// for Concurrent Multipath Transfer on the Transport Layer", ConTEL 2011): increases in
    /// proportion to the destination's share of the summed bandwidth cwnd/srtt, decreases by
    /// half the summed bandwidth times its srtt (never less than half its own cwnd).
    Rpv2,
}

impl CoupledCc {
    /// Every algorithm, uncoupled first.
    pub const ALL: [CoupledCc; 4] = [
        CoupledCc::Off,
        CoupledCc::Lia,
        CoupledCc::Rpv1,
        CoupledCc::Rpv2,
    ];

    /// The scenario name: `off`, `lia`, `rpv1`, `rpv2`.
    pub fn name(self) -> &'static str {
        match self {
            CoupledCc::Off => "off",
            CoupledCc::Lia => "lia",
            CoupledCc::Rpv1 => "rpv1",
            CoupledCc::Rpv2 => "rpv2",
        }
    }

    /// The algorithm of a scenario name, `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// CMT/RP (either version): the resource-pooling algorithms, which also split the initial
    /// window and couple slow start and the decreases.
    pub fn resource_pooling(self) -> bool {
        matches!(self, CoupledCc::Rpv1 | CoupledCc::Rpv2)
    }
}

/// The CMT algorithms (ToN §3), used with [`super::asctp::Multipath::Cmt`]. The default has all
/// three on and RTX-SSTHRESH, CMT as the paper recommends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CmtConfig {
    /// Split Fast Retransmit (ToN §3.1): a missing chunk gets a miss indication only from a SACK
    /// that newly acknowledges data sent to the same destination, and only if a TSN sent to
    /// that destination after it is acknowledged. Off: every SACK reporting a higher TSN
    /// counts, and the reordering that sending over paths of different delays causes triggers
    /// spurious fast retransmissions.
    pub sfr: bool,
    /// Cwnd Update for CMT (ToN §3.2): a destination's window grows when its own
    /// pseudo-cumulative ack (its lowest outstanding TSN) advances, and Fast Recovery is kept
    /// per destination. Off: growth needs the association's cumulative ack to advance (the
    /// profile's rule) and one Fast Recovery holds every destination's window.
    pub cuc: bool,
    /// Delayed ACK for CMT (ToN §3.3): the receiver keeps delaying SACKs when data arrives out
    /// of order, and reports in the SACK flags how many DATA packets (1 or 2) the SACK
    /// acknowledges; the sender counts that many miss indications where the SACK allows it.
    /// Off: the receiver acknowledges every out-of-order packet at once (RFC 9260 §6.7), and
    /// the sender counts one.
    pub dac: bool,
    /// Where retransmissions go ([`RtxPolicy`]).
    pub rtx_policy: RtxPolicy,
    /// CMT-PF (Natarajan, Ekiz, Amer, Iyengar & Stewart, "Concurrent multipath transfer using
    /// transport layer multihoming: introducing the potentially-failed destination state",
    /// IFIP Networking 2008): a destination whose T3-rtx expires becomes potentially failed,
    /// carries no data until a HEARTBEAT (sent at once) is answered, and restarts from a cwnd
    /// of one MTU. Off: it keeps carrying data, as in RFC 9260, until Path.Max.Retrans
    /// failures mark it inactive.
    pub pf: bool,
    /// Coupled congestion control ([`CoupledCc`]): how much of the association's window
    /// growth each destination gets, so that CMT is fair to single-path flows at a shared
    /// bottleneck. Off (the default, as in ToN): every destination grows as a separate
    /// association.
    pub coupled: CoupledCc,
}

impl CmtConfig {
    /// CMT as ToN recommends it: SFR, CUC and DAC on, RTX-SSTHRESH, CMT-PF on, uncoupled.
    pub const RECOMMENDED: CmtConfig = CmtConfig {
        sfr: true,
        cuc: true,
        dac: true,
        rtx_policy: RtxPolicy::Ssthresh,
        pf: true,
        coupled: CoupledCc::Off,
    };
}

impl Default for CmtConfig {
    fn default() -> Self {
        CmtConfig::RECOMMENDED
    }
}
