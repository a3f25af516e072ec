//! Per-destination state (RFC 9260 §6.3, §7.2, §8.2, §8.3): the RTO estimator, congestion
//! variables, error counter and reachability, heartbeat bookkeeping and the local source
//! address used towards the destination.

use std::net::Ipv4Addr;

use sctpsim_kernel::{Rng, SimDuration, SimTime};

use super::api::{PathState, PathStatus};
use super::asctp::{Multipath, PathRoute, ASCTP_FAILURES_TO_INACTIVE};
use super::config::SctpConfig;
use super::stats::PathStats;

/// RFC 9260 §6.3.1: the retransmission timeout of one destination, from SRTT and RTTVAR, in
/// integer nanoseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RtoEstimator {
    srtt: Option<u64>,
    rttvar: u64,
    rto: SimDuration,
}

impl RtoEstimator {
    /// C1: "Until an RTT measurement has been made ... the sender MUST set RTO to the protocol
    /// parameter 'RTO.Initial'."
    pub fn new(cfg: &SctpConfig) -> Self {
        RtoEstimator {
            srtt: None,
            rttvar: 0,
            rto: cfg.rto_initial.max(RTO_FLOOR),
        }
    }

    /// The current RTO (backed off by [`RtoEstimator::back_off`] until the next sample).
    pub fn rto(&self) -> SimDuration {
        self.rto
    }

    /// SRTT, once measured.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt.map(SimDuration)
    }

    /// RTTVAR (zero before the first sample).
    pub fn rttvar(&self) -> SimDuration {
        SimDuration(self.rttvar)
    }

    /// A new RTT measurement `r` (C2, C3), then the bounds of C6 and C7.
    pub fn sample(&mut self, cfg: &SctpConfig, r: SimDuration) {
        let r = r.as_nanos();
        match self.srtt {
            None => {
                // C2: SRTT <- R, RTTVAR <- R/2, RTO <- SRTT + 4 * RTTVAR.
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(srtt) => {
                // C3: RTTVAR <- (1 - RTO.Beta) * RTTVAR + RTO.Beta * |SRTT - R'|,
                //     SRTT <- (1 - RTO.Alpha) * SRTT + RTO.Alpha * R'.
                let diff = srtt.abs_diff(r);
                let rttvar = self.rttvar - cfg.rto_beta.of(self.rttvar) + cfg.rto_beta.of(diff);
                let srtt = srtt - cfg.rto_alpha.of(srtt) + cfg.rto_alpha.of(r);
                self.rttvar = rttvar;
                self.srtt = Some(srtt);
            }
        }
        // C3: "Whenever RTTVAR is computed, if RTTVAR == 0, then adjust RTTVAR <- G."
        if self.rttvar == 0 {
            self.rttvar = cfg.clock_granularity.as_nanos();
        }
        let srtt = self.srtt.unwrap_or(r);
        let rto = SimDuration(srtt.saturating_add(self.rttvar.saturating_mul(4)));
        self.rto = clamp(cfg, rto);
    }

    /// RFC 9260 §6.3.3 E2: "RTO <- RTO * 2 ('back off the timer')", bounded by RTO.Max (C7).
    pub fn back_off(&mut self, cfg: &SctpConfig) {
        self.rto = clamp(cfg, self.rto.saturating_mul(2)).min(cfg.rto_max);
    }

    /// Resets to RTO.Initial (association restart, RFC 9260 §5.2.4 A).
    pub fn reset(&mut self, cfg: &SctpConfig) {
        *self = RtoEstimator::new(cfg);
    }

    /// Re-applies the bounds after the user changed RTO.Min / RTO.Max.
    pub fn reclamp(&mut self, cfg: &SctpConfig) {
        self.rto = clamp(cfg, self.rto);
    }
}

/// C6: "If RTO is less than RTO.Min seconds, then it MUST be rounded up to RTO.Min"; C7: "A
/// maximum value may be placed on RTO provided it is at least RTO.Max seconds." Never below
/// [`RTO_FLOOR`], whatever RTO.Min is set to, so that no timer can fire in a zero-time loop.
fn clamp(cfg: &SctpConfig, rto: SimDuration) -> SimDuration {
    rto.max(cfg.rto_min)
        .min(cfg.rto_max.max(cfg.rto_min))
        .max(RTO_FLOOR)
}

/// The smallest RTO used even if RTO.Min is configured lower (1 ms).
pub const RTO_FLOOR: SimDuration = SimDuration::from_millis(1);

/// Where an RTT sample comes from on this path (§6.3.1 C4, C5: one measurement per round
/// trip, never from a retransmitted chunk).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RttProbe {
    /// TSN index of the timed chunk.
    pub tsn: u64,
    /// When it was sent.
    pub sent_at: SimTime,
}

/// One destination transport address of the peer and everything kept per destination.
/// With A-SCTP a path is one route to a peer address: several paths then share
/// [`Path::wire`] and differ in [`Path::addr`], the key (`asctp.rs`).
#[derive(Debug, Clone)]
pub struct Path {
    /// The path's key: the peer's address, or an A-SCTP alias key
    /// ([`super::asctp::alias_key`]) for a further route to [`Path::wire`].
    pub addr: Ipv4Addr,
    /// The peer address its packets go to (equal to `addr` except for A-SCTP alias paths).
    pub wire: Ipv4Addr,
    /// A-SCTP: the route of this path as the path manager last reported it.
    pub route: PathRoute,
    /// A-SCTP (Argyriou & Madisetti 2004 §3): the lowest and highest TSN index of new data sent
    /// on this path in its current round, the time since data last moved to it; `None` before
    /// its first new data of the round. Kept for every path, used only with A-SCTP.
    pub tsn_range: Option<(u64, u64)>,
    /// Our source address towards it.
    pub source: Ipv4Addr,
    /// The source address was set explicitly and is not re-derived.
    pub source_pinned: bool,
    /// Path MTU, IP header included.
    pub pmtu: u16,
    /// RFC 9260 §7.2: congestion window, bytes.
    pub cwnd: u32,
    /// RFC 9260 §7.2: slow-start threshold, bytes.
    pub ssthresh: u32,
    /// RFC 9260 §7.2.2: partial_bytes_acked.
    pub partial_bytes_acked: u32,
    /// User-data bytes sent to this destination and neither acknowledged nor marked for
    /// retransmission (RFC 9260 §6.1 "flightsize").
    pub flight_size: u32,
    /// The RTO estimator (§6.3.1).
    pub rto: RtoEstimator,
    /// RFC 9260 §8.2: the consecutive-error counter of this destination.
    pub error_count: u32,
    /// Path.Max.Retrans of this destination.
    pub path_max_retrans: u32,
    /// Reachable (false once the error counter exceeded Path.Max.Retrans).
    pub active: bool,
    /// Confirmed by a HEARTBEAT ACK or used by the handshake (RFC 9260 §5.4).
    pub confirmed: bool,
    /// HB.interval of this destination.
    pub hb_interval: SimDuration,
    /// Jitter the heartbeat period by ±50 % of the RTO (`SctpConfig::hb_jitter`).
    pub hb_jitter: bool,
    /// Heartbeats enabled on this destination.
    pub hb_enabled: bool,
    /// The nonce carried in our heartbeats to it (RFC 9260 §8.3: "a random nonce").
    pub hb_nonce: u64,
    /// A heartbeat was sent and not yet acknowledged.
    pub hb_outstanding: bool,
    /// A-SCTP: when a heartbeat to it was last given up (counted as failed, or its route
    /// lost). An ACK of a heartbeat sent before this is late: its RTT sample spans the time
    /// the route was down (the ACK waited for a route discovery). It is still taken, as ns-2
    /// takes it, and counted (`late_heartbeat_acks`) so that its effect on the RTO shows.
    pub hb_given_up_at: SimTime,
    /// Last time a chunk usable for an RTT measurement (new DATA, HEARTBEAT) went to it.
    pub last_probe_sent: Option<SimTime>,
    /// Last time new or retransmitted DATA went to it (for the idle cwnd decay).
    pub last_data_sent: Option<SimTime>,
    /// The chunk timed for an RTT sample.
    pub rtt_probe: Option<RttProbe>,
    /// Packets of new data still allowed in the current transmission opportunity by
    /// Max.Burst (RFC 9260 §6.1 D); `None` until the first new data after an input.
    pub burst_cap: Option<u32>,
    /// The next packet to this destination may ignore cwnd (fast retransmit §7.2.4 step 3,
    /// T3-rtx §6.3.3 E3: one packet of the earliest marked chunks).
    pub cwnd_exempt: bool,
    /// Since the last SACK that acknowledged data sent here, the sender had a chunk for this
    /// destination (new or marked for retransmission) that cwnd held back: the window was
    /// in full use even if the whole chunks in flight add up to a little less than cwnd.
    pub cwnd_limited: bool,
    /// CMT with CUC (Iyengar, Amer & Stewart 2006 §3.2): this destination's own Fast Recovery
    /// exit point, the highest TSN index sent to it when it entered; `None` outside.
    pub fr_exit: Option<u64>,
    /// CMT-PF (Natarajan et al. 2008): potentially failed, no data until a HEARTBEAT sent to
    /// it is answered.
    pub pf: bool,
    /// Counters.
    pub stats: PathStats,
}

impl Path {
    /// A destination as created during setup: RTO.Initial, the initial cwnd, ssthresh from
    /// the configuration or the peer's a_rwnd.
    pub fn new(
        cfg: &SctpConfig,
        addr: Ipv4Addr,
        source: Ipv4Addr,
        peer_rwnd: u32,
        rng: &mut Rng,
    ) -> Self {
        let pmtu = cfg.pmtu.max(MIN_PMTU);
        // A-SCTP §3: "after two Heartbeat retransmissions fail, we mark a specific path
        // inactive": the error counter may reach 1 and no more (RFC 9260 §8.2 counts up to
        // Path.Max.Retrans, then one more failure makes the path inactive).
        // Rule 3 off (`AsctpRules::two_heartbeat_failures`): the configured value.
        let path_max_retrans = match cfg.multipath {
            Multipath::Asctp if cfg.asctp_rules.two_heartbeat_failures => {
                ASCTP_FAILURES_TO_INACTIVE - 1
            }
            _ => cfg.path_max_retrans,
        };
        Path {
            addr,
            wire: addr,
            route: PathRoute::Unmanaged,
            tsn_range: None,
            source,
            source_pinned: false,
            pmtu,
            cwnd: cfg.initial_cwnd(u32::from(pmtu)),
            ssthresh: cfg.initial_ssthresh.unwrap_or(peer_rwnd).max(1),
            partial_bytes_acked: 0,
            flight_size: 0,
            rto: RtoEstimator::new(cfg),
            error_count: 0,
            path_max_retrans,
            active: true,
            confirmed: true,
            hb_interval: cfg.hb_interval,
            hb_jitter: cfg.hb_jitter,
            hb_enabled: cfg.heartbeats,
            hb_nonce: rng.next_u64(),
            hb_outstanding: false,
            hb_given_up_at: SimTime::ZERO,
            last_probe_sent: None,
            last_data_sent: None,
            rtt_probe: None,
            burst_cap: None,
            cwnd_exempt: false,
            cwnd_limited: false,
            fr_exit: None,
            pf: false,
            stats: PathStats::default(),
        }
    }

    /// RFC 9260 §7.2.1 / §7.2.3: resets the congestion state to the initial values
    /// (association restart, §5.2.4 A).
    pub fn reset_congestion(&mut self, cfg: &SctpConfig, peer_rwnd: u32) {
        self.cwnd = cfg.initial_cwnd(u32::from(self.pmtu));
        self.ssthresh = cfg.initial_ssthresh.unwrap_or(peer_rwnd).max(1);
        self.partial_bytes_acked = 0;
        self.flight_size = 0;
        self.rto.reset(cfg);
        self.rtt_probe = None;
        self.burst_cap = None;
        self.cwnd_exempt = false;
    }

    /// A-SCTP: the path got a new route. "The saved state does not correspond to the new
    /// path" (Argyriou & Madisetti 2004 §3), so the congestion state, the RTO, the error
    /// counter and the TSN range start afresh, and the path is unconfirmed until a HEARTBEAT
    /// ACK comes back over the new route (RFC 9260 §5.4: no DATA to an unconfirmed path).
    /// Data still in flight to it stays counted in its flightsize. The heartbeat nonce is
    /// drawn anew, so that a heartbeat sent over the old route neither confirms the new one
    /// nor gives it an RTT sample.
    ///
    /// `fresh` false (`AsctpRules::fresh_path_state` off, an ablation): the congestion state
    /// (cwnd, ssthresh, partial_bytes_acked, whether the window was in full use, the time of
    /// the last data for the idle decay) and the RTO estimator are kept, as plain SCTP keeps
    /// them for a destination whose route changes underneath; the rest is renewed as above,
    /// so the path is still probed before it carries data.
    pub fn renew_route(&mut self, cfg: &SctpConfig, peer_rwnd: u32, fresh: bool, rng: &mut Rng) {
        if fresh {
            self.cwnd = cfg.initial_cwnd(u32::from(self.pmtu));
            self.ssthresh = cfg.initial_ssthresh.unwrap_or(peer_rwnd).max(1);
            self.partial_bytes_acked = 0;
            self.rto.reset(cfg);
            self.cwnd_limited = false;
            self.last_data_sent = None;
        }
        self.rtt_probe = None;
        self.burst_cap = None;
        self.cwnd_exempt = false;
        self.error_count = 0;
        self.active = true;
        self.confirmed = false;
        self.hb_outstanding = false;
        self.hb_nonce = rng.next_u64();
        self.last_probe_sent = None;
        self.tsn_range = None;
    }

    /// The MTU as a byte count for the congestion arithmetic.
    pub fn mtu(&self) -> u32 {
        u32::from(self.pmtu)
    }

    /// Bytes of chunks (with their padding) a packet to this destination can carry: PMTU minus
    /// the IPv4 header and the SCTP common header.
    pub fn chunk_budget(&self) -> usize {
        usize::from(self.pmtu).saturating_sub(IP_SCTP_OVERHEAD)
    }

    /// The reachability state as reported to the user.
    pub fn state(&self) -> PathState {
        if !self.confirmed {
            PathState::Unconfirmed
        } else if self.active {
            PathState::Active
        } else {
            PathState::Inactive
        }
    }

    /// Usable for data: active and confirmed (RFC 9260 §5.4: no DATA to unconfirmed
    /// addresses).
    pub fn usable(&self) -> bool {
        self.active && self.confirmed
    }

    /// RFC 9260 §8.3: the time until the next heartbeat of an idle destination: "RTO of that
    /// destination address plus the protocol parameter 'HB.interval', with jittering of +/- 50%
    /// of the RTO value". An unconfirmed destination is probed once per RTO (§5.4).
    pub fn heartbeat_period(&self, rng: &mut Rng) -> SimDuration {
        let rto = self.rto.rto().as_nanos();
        if !self.confirmed {
            return SimDuration(rto);
        }
        if !self.hb_jitter {
            return SimDuration(rto) + self.hb_interval;
        }
        // Uniform in [rto/2, 3·rto/2), then plus HB.interval.
        let jittered = rto / 2 + rng.below(rto.max(1));
        SimDuration(jittered) + self.hb_interval
    }

    /// A snapshot for the user.
    pub fn status(&self) -> PathStatus {
        PathStatus {
            addr: self.addr,
            wire: self.wire,
            route: self.route,
            source: self.source,
            state: self.state(),
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
            partial_bytes_acked: self.partial_bytes_acked,
            flight_size: self.flight_size,
            srtt: self.rto.srtt(),
            rto: self.rto.rto(),
            error_count: self.error_count,
            pmtu: self.pmtu,
        }
    }

    /// Records an RTT sample in the per-path counters.
    pub fn note_rtt(&mut self, rtt: SimDuration) {
        let s = &mut self.stats;
        s.rtt_min = Some(s.rtt_min.map_or(rtt, |m| m.min(rtt)));
        s.rtt_max = Some(s.rtt_max.map_or(rtt, |m| m.max(rtt)));
    }
}

/// The smallest PMTU accepted: RFC 9260 §6.9 / RFC 791 (an IPv4 host must accept 576-byte
/// datagrams; we allow down to 128 bytes for the small-MTU experiments, which still leaves room
/// for a DATA chunk header and some data).
pub const MIN_PMTU: u16 = 128;

/// IPv4 header (20) plus SCTP common header (12).
pub const IP_SCTP_OVERHEAD: usize = 32;

/// RFC 9260 §3.3.1: a DATA chunk header is 16 bytes.
pub const DATA_CHUNK_HEADER: usize = 16;

#[cfg(test)]
mod test {
    use super::*;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    #[test]
    fn rto_follows_rfc9260_6_3_1() {
        let cfg = SctpConfig {
            rto_min: ms(100),
            ..SctpConfig::rfc9260()
        };
        let mut e = RtoEstimator::new(&cfg);
        assert_eq!(e.rto(), ms(1000));
        e.sample(&cfg, ms(200));
        // SRTT 200, RTTVAR 100, RTO 600.
        assert_eq!(e.srtt(), Some(ms(200)));
        assert_eq!(e.rto(), ms(600));
        e.sample(&cfg, ms(200));
        // RTTVAR = 3/4·100 + 1/4·0 = 75; SRTT = 200; RTO = 500.
        assert_eq!(e.rttvar(), ms(75));
        assert_eq!(e.rto(), ms(500));
        e.back_off(&cfg);
        assert_eq!(e.rto(), ms(1000));
        for _ in 0..10 {
            e.back_off(&cfg);
        }
        assert_eq!(e.rto(), cfg.rto_max);
        // RTO.Min applies.
        e.sample(&cfg, ms(1));
        assert!(e.rto() >= cfg.rto_min);
    }

    #[test]
    fn heartbeat_jitter_is_within_half_rto() {
        let cfg = SctpConfig::rfc9260();
        let mut rng = Rng::from_seed(3);
        let p = Path::new(
            &cfg,
            Ipv4Addr::new(10, 0, 0, 2),
            Ipv4Addr::new(10, 0, 0, 1),
            65_536,
            &mut rng,
        );
        for _ in 0..1000 {
            let d = p.heartbeat_period(&mut rng);
            assert!(d >= ms(500) + cfg.hb_interval && d < ms(1500) + cfg.hb_interval);
        }
        // ns-2.27's module: RTO + HB.interval exactly, every time.
        let old = SctpConfig::ns2_2003();
        let q = Path::new(&old, p.addr, p.source, 65_536, &mut rng);
        let d = q.heartbeat_period(&mut rng);
        assert_eq!(d, q.rto.rto() + old.hb_interval);
        assert_eq!(q.heartbeat_period(&mut rng), d);
    }
}
