//! Congestion control per destination (RFC 9260 §7.2, and the RFC 2960 §7.2 variant the
//! profile selects): slow start, congestion avoidance with partial_bytes_acked, the reductions
//! of §7.2.3, the idle decay, and the send rules B (cwnd) and Max.Burst of §6.1.
//!
//! The arithmetic sits behind the narrow [`CongestionControl`] trait with `now` in every hook
//! (smoltcp's `congestion.rs` pattern); [`Standard`] implements RFC 9260 and, through the
//! configuration fields, RFC 2960. Loss detection (miss indications, Fast Recovery entry and
//! exit) lives in the retransmission code, which calls these hooks.

use sctpsim_kernel::SimTime;

use super::config::SctpConfig;
use super::coupled::Share;
use super::path::Path;

/// What one SACK did for one destination, as the window arithmetic needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AckSample {
    /// User-data bytes newly acknowledged (cumulative ack and gap blocks) that were last sent
    /// to this destination.
    pub bytes_acked: u32,
    /// The destination's flightsize before the SACK was processed.
    pub flight_before: u32,
    /// The SACK advanced the cumulative TSN ack point.
    pub cum_advanced: bool,
    /// The association is in Fast Recovery (RFC 9260 §7.2.4).
    pub in_fast_recovery: bool,
    /// cwnd held back a chunk for this destination since the previous such SACK
    /// ([`super::path::Path::cwnd_limited`]).
    pub cwnd_limited: bool,
    /// The congestion-avoidance step when partial_bytes_acked reaches cwnd; `None`: one MTU
    /// (RFC 9260 §7.2.2). CMT's coupled congestion control sets it (`association/cmt.rs`).
    pub ca_increase: Option<u32>,
    /// The share of the slow-start increase min(acked, MTU) this destination takes; `None`:
    /// all of it (RFC 9260 §7.2.1). CMT/RP's coupled slow start sets it (`coupled.rs`).
    pub ss_share: Option<Share>,
}

/// The window hooks of one destination.
pub trait CongestionControl {
    /// A SACK acknowledged data last sent to `path` (RFC 9260 §7.2.1, §7.2.2).
    fn on_ack(&self, now: SimTime, path: &mut Path, ack: &AckSample);
    /// A fast retransmit reduces the window of `path` (RFC 9260 §7.2.3 first formula).
    fn on_fast_retransmit(&self, now: SimTime, path: &mut Path);
    /// The T3-rtx timer of `path` expired (RFC 9260 §7.2.3 second formula).
    fn on_timeout(&self, now: SimTime, path: &mut Path);
    /// New data is about to go to `path`; decay cwnd if it has been idle (RFC 9260 §7.2.1).
    fn on_send(&self, now: SimTime, path: &mut Path);
    /// Everything sent has been acknowledged (RFC 9260 §7.2.2 last bullet).
    fn on_all_acked(&self, now: SimTime, path: &mut Path);
}

/// RFC 9260 §7.2 (or RFC 2960 §7.2, by configuration).
#[derive(Debug, Clone, Copy)]
pub struct Standard<'a> {
    cfg: &'a SctpConfig,
}

impl<'a> Standard<'a> {
    /// The algorithms as `cfg` selects them.
    pub fn new(cfg: &'a SctpConfig) -> Self {
        Standard { cfg }
    }

    fn ssthresh_after_loss(&self, path: &Path) -> u32 {
        // RFC 9260 §7.2.3: ssthresh = max(cwnd/2, 4*MTU); RFC 2960 §7.2.3: max(cwnd/2, 2*MTU).
        (path.cwnd / 2).max(self.cfg.ssthresh_floor_mtus.saturating_mul(path.mtu()))
    }
}

impl CongestionControl for Standard<'_> {
    fn on_ack(&self, _now: SimTime, path: &mut Path, ack: &AckSample) {
        if ack.bytes_acked == 0 {
            return;
        }
        let mtu = path.mtu();
        // "Fully utilized": the flightsize before the SACK had reached cwnd (as Linux,
        // `sctp_transport_raise_cwnd`, and FreeBSD, `flight_size + net_ack >= cwnd`, test it),
        // or cwnd held back a chunk since the last SACK (retransmissions must fit cwnd whole,
        // so whole chunks may stop a little short of it). A window that was not filled for
        // lack of data does not grow (ETSI TS 102 369 D/V/8/9).
        let fully_used = ack.flight_before >= path.cwnd || ack.cwnd_limited;
        if path.cwnd <= path.ssthresh {
            // RFC 9260 §7.2.1: "When cwnd is less than or equal to ssthresh, an SCTP endpoint
            // MUST use the slow-start algorithm to increase cwnd only if the current congestion
            // window is being fully utilized and the data sender is not in Fast Recovery. ...
            // cwnd MUST be increased by, at most, the lesser of (1) the total size of the
            // previously outstanding DATA chunk(s) acknowledged and (2) the destination's path
            // MTU." RFC 2960 §7.2.1 also requires that the SACK advances the Cumulative TSN Ack
            // Point.
            if !fully_used || ack.in_fast_recovery {
                return;
            }
            if self.cfg.ss_requires_cum_advance && !ack.cum_advanced {
                return;
            }
            let increase = ack.bytes_acked.min(mtu);
            let increase = ack.ss_share.map_or(increase, |s| s.of(increase));
            path.cwnd = path.cwnd.saturating_add(increase);
        } else {
            // RFC 9260 §7.2.2: "upon each SACK chunk arrival, increase partial_bytes_acked by
            // the total number of bytes of all new DATA chunks acknowledged in that SACK
            // chunk, including chunks acknowledged by the new Cumulative TSN Ack and by Gap Ack
            // Blocks" (RFC 2960 §7.2.2: only on SACKs that advance the Cumulative TSN Ack
            // Point).
            if self.cfg.ca_requires_cum_advance && !ack.cum_advanced {
                return;
            }
            let mut pba = path.partial_bytes_acked.saturating_add(ack.bytes_acked);
            // "When partial_bytes_acked is greater than cwnd and before the arrival of the SACK
            // chunk the sender had less than cwnd bytes of data outstanding ..., reset
            // partial_bytes_acked to cwnd." (RFC 8540 §3.26, in RFC 9260.)
            if self.cfg.pba_cap && pba > path.cwnd && !fully_used {
                pba = path.cwnd;
            }
            // "When partial_bytes_acked is equal to or greater than cwnd and before the
            // arrival of the SACK chunk the sender had cwnd or more bytes of data outstanding
            // ..., partial_bytes_acked is reset to (partial_bytes_acked - cwnd). Next, cwnd is
            // increased by MTU."
            if pba >= path.cwnd && fully_used {
                pba -= path.cwnd;
                path.cwnd = path
                    .cwnd
                    .saturating_add(ack.ca_increase.unwrap_or(mtu).max(1));
            }
            path.partial_bytes_acked = pba;
        }
    }

    fn on_fast_retransmit(&self, _now: SimTime, path: &mut Path) {
        // RFC 9260 §7.2.3: "ssthresh = max(cwnd/2, 4*MTU), cwnd = ssthresh,
        // partial_bytes_acked = 0".
        path.ssthresh = self.ssthresh_after_loss(path);
        path.cwnd = path.ssthresh;
        path.partial_bytes_acked = 0;
    }

    fn on_timeout(&self, _now: SimTime, path: &mut Path) {
        // RFC 9260 §7.2.3: "ssthresh = max(cwnd/2, 4*MTU), cwnd = 1*MTU,
        // partial_bytes_acked = 0".
        path.ssthresh = self.ssthresh_after_loss(path);
        path.cwnd = path.mtu();
        path.partial_bytes_acked = 0;
    }

    fn on_send(&self, now: SimTime, path: &mut Path) {
        // RFC 9260 §7.2.1: "When the endpoint does not transmit data on a given transport
        // address, the cwnd of the transport address SHOULD be adjusted to max(cwnd/2, 4*MTU)
        // per RTO." Applied lazily, when data goes out again after an idle period.
        if !self.cfg.cwnd_idle_decay || path.flight_size > 0 {
            return;
        }
        let Some(last) = path.last_data_sent else {
            return;
        };
        let rto = path.rto.rto().as_nanos().max(1);
        let idle_rtos = now.saturating_since(last).as_nanos() / rto;
        let floor = self.cfg.ssthresh_floor_mtus.saturating_mul(path.mtu());
        for _ in 0..idle_rtos.min(32) {
            if path.cwnd <= floor {
                break;
            }
            path.cwnd = (path.cwnd / 2).max(floor);
        }
    }

    fn on_all_acked(&self, _now: SimTime, path: &mut Path) {
        // RFC 9260 §7.2.2: "When all of the data transmitted by the data sender has been
        // acknowledged by the receiver, partial_bytes_acked is initialized to 0."
        path.partial_bytes_acked = 0;
    }
}

/// RFC 9260 §6.1 B: "At any given time, the sender MUST NOT transmit new data to a given
/// transport address if it has cwnd + (PMTU - 1) or more bytes of data outstanding": a packet
/// may start while the flightsize is below cwnd and then fill up to one PMTU.
pub fn window_open(path: &Path) -> bool {
    path.flight_size < path.cwnd
}

/// RFC 9260 §6.1 D: "the protocol parameter Max.Burst SHOULD be used to limit the number of
/// packets sent. ... it MAY be applied by strictly limiting the number of packets emitted by
/// the output routine." Opens the budget of the current transmission opportunity (an input:
/// a SACK, a timer, a send call) at Max.Burst packets of new data; cwnd itself is not changed
/// ("cwnd SHOULD NOT be changed permanently").
pub fn open_burst(cfg: &SctpConfig, path: &mut Path) {
    if path.burst_cap.is_none() {
        path.burst_cap = Some(if cfg.max_burst == 0 {
            u32::MAX
        } else {
            cfg.max_burst
        });
    }
}

/// Whether the Max.Burst budget of the current opportunity allows another packet of new data.
pub fn burst_allows(path: &Path) -> bool {
    path.burst_cap != Some(0)
}

/// Counts one packet of new data against the Max.Burst budget.
pub fn burst_used(path: &mut Path) {
    if let Some(n) = &mut path.burst_cap {
        *n = n.saturating_sub(1);
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use sctpsim_kernel::Rng;
    use std::net::Ipv4Addr;

    fn path(cfg: &SctpConfig) -> Path {
        Path::new(
            cfg,
            Ipv4Addr::new(10, 0, 0, 2),
            Ipv4Addr::new(10, 0, 0, 1),
            100_000,
            &mut Rng::from_seed(1),
        )
    }

    #[test]
    fn slow_start_needs_full_window_and_no_fast_recovery() {
        let cfg = SctpConfig::rfc9260();
        let cc = Standard::new(&cfg);
        let mut p = path(&cfg);
        assert_eq!(p.cwnd, 4380);
        let ack = AckSample {
            bytes_acked: 3000,
            flight_before: 4380,
            cum_advanced: true,
            in_fast_recovery: false,
            cwnd_limited: false,
            ca_increase: None,
            ss_share: None,
        };
        cc.on_ack(SimTime::ZERO, &mut p, &ack);
        assert_eq!(p.cwnd, 4380 + 1500);
        cc.on_ack(
            SimTime::ZERO,
            &mut p,
            &AckSample {
                flight_before: 100,
                ..ack
            },
        );
        assert_eq!(p.cwnd, 5880);
        cc.on_ack(
            SimTime::ZERO,
            &mut p,
            &AckSample {
                in_fast_recovery: true,
                flight_before: 9000,
                ..ack
            },
        );
        assert_eq!(p.cwnd, 5880);
        // Whole chunks a little short of cwnd, but cwnd held the next one back: fully used.
        cc.on_ack(
            SimTime::ZERO,
            &mut p,
            &AckSample {
                flight_before: 5808,
                cwnd_limited: true,
                ca_increase: None,
                ..ack
            },
        );
        assert_eq!(p.cwnd, 7380);
        // Short of cwnd for lack of data: no growth.
        cc.on_ack(
            SimTime::ZERO,
            &mut p,
            &AckSample {
                flight_before: 5808,
                ..ack
            },
        );
        assert_eq!(p.cwnd, 7380);
    }

    #[test]
    fn congestion_avoidance_one_mtu_per_window() {
        let cfg = SctpConfig::rfc9260();
        let cc = Standard::new(&cfg);
        let mut p = path(&cfg);
        p.cwnd = 10_000;
        p.ssthresh = 5_000;
        let mut ack = AckSample {
            bytes_acked: 4000,
            flight_before: 10_000,
            cum_advanced: true,
            in_fast_recovery: false,
            cwnd_limited: false,
            ca_increase: None,
            ss_share: None,
        };
        cc.on_ack(SimTime::ZERO, &mut p, &ack);
        cc.on_ack(SimTime::ZERO, &mut p, &ack);
        assert_eq!((p.cwnd, p.partial_bytes_acked), (10_000, 8000));
        cc.on_ack(SimTime::ZERO, &mut p, &ack);
        assert_eq!((p.cwnd, p.partial_bytes_acked), (11_500, 2000));
        // Window not fully used: pba capped at cwnd, no growth.
        ack.flight_before = 100;
        ack.bytes_acked = 20_000;
        cc.on_ack(SimTime::ZERO, &mut p, &ack);
        assert_eq!((p.cwnd, p.partial_bytes_acked), (11_500, 11_500));
    }

    #[test]
    fn reductions_and_profiles() {
        let cfg = SctpConfig::rfc9260();
        let cc = Standard::new(&cfg);
        let mut p = path(&cfg);
        p.cwnd = 20_000;
        cc.on_fast_retransmit(SimTime::ZERO, &mut p);
        assert_eq!((p.ssthresh, p.cwnd), (10_000, 10_000));
        cc.on_timeout(SimTime::ZERO, &mut p);
        assert_eq!((p.ssthresh, p.cwnd), (6000, 1500));
        let old = SctpConfig::rfc2960();
        let cc2 = Standard::new(&old);
        let mut q = path(&old);
        assert_eq!(q.cwnd, 3000);
        cc2.on_timeout(SimTime::ZERO, &mut q);
        assert_eq!((q.ssthresh, q.cwnd), (3000, 1500));
        // RFC 2960 slow start needs the cumulative ack to advance.
        q.cwnd = 1500;
        cc2.on_ack(
            SimTime::ZERO,
            &mut q,
            &AckSample {
                bytes_acked: 1500,
                flight_before: 1500,
                cum_advanced: false,
                in_fast_recovery: false,
                cwnd_limited: false,
                ca_increase: None,
                ss_share: None,
            },
        );
        assert_eq!(q.cwnd, 1500);
    }

    #[test]
    fn max_burst_counts_packets() {
        let cfg = SctpConfig::rfc9260();
        let mut p = path(&cfg);
        open_burst(&cfg, &mut p);
        for _ in 0..4 {
            assert!(burst_allows(&p));
            burst_used(&mut p);
        }
        assert!(!burst_allows(&p));
        open_burst(&cfg, &mut p);
        assert!(!burst_allows(&p), "one budget per opportunity");
        p.burst_cap = None;
        open_burst(&cfg, &mut p);
        assert!(burst_allows(&p));
    }
}
