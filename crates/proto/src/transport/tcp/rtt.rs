//! The retransmission timer's value: RFC 6298 SRTT/RTTVAR estimation in integer nanoseconds,
//! or ns-2's tick-based estimator ([`RtoModel::Ns2`]), exponential back-off, and the bounds of
//! [`super::TcpConfig`].

use sctpsim_kernel::{SimDuration, SimTime};

use super::config::RtoModel;

/// RFC 6298 §2.3: K = 4 in `RTO = SRTT + max(G, K·RTTVAR)`.
const K: u64 = 4;

/// RFC 6298 §5.7: "the RTO MUST be re-initialized to 3 seconds when data transmission begins"
/// after a SYN timed out.
pub const RTO_AFTER_SYN_TIMEOUT: SimDuration = SimDuration::from_secs(3);

/// Largest back-off shift kept (2^16 times the RTO is far beyond any maximum RTO).
const MAX_BACKOFF: u32 = 16;

/// ns-2 `rtt_backoff`: "if (t_backoff_ < 64) t_backoff_ <<= 1", so six doublings at most
/// (without `rfc2988_`).
const NS2_MAX_BACKOFF: u32 = 6;

/// ns-2 `rtt_backoff`: "if (t_backoff_ > 8)" the SRTT is folded into RTTVAR and forgotten.
const NS2_CLOBBER_BACKOFF: u32 = 3;

/// ns-2 `T_SRTT_BITS 3` and `T_RTTVAR_BITS 2`: fraction bits of SRTT and RTTVAR (in ticks);
/// `rttvar_exp_ 2`: RTO = SRTT + 2^2·RTTVAR.
const NS2_SRTT_BITS: u32 = 3;
const NS2_RTTVAR_BITS: u32 = 2;
const NS2_RTTVAR_EXP: u32 = 2;

/// ns-2 `TcpAgent` timer state (`tcp/tcp.cc`): `t_srtt_` and `t_rttvar_` in scaled ticks.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ns2Timer {
    /// `tcpTick_` in nanoseconds (at least 1).
    tick: u64,
    rfc2988: bool,
    /// `t_srtt_`: 8·SRTT in ticks (0: no estimate).
    srtt8: i64,
    /// `t_rttvar_`: 4·RTTVAR in ticks.
    rttvar4: i64,
}

/// RFC 6298 round-trip time estimator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RttEstimator {
    srtt: Option<SimDuration>,
    rttvar: SimDuration,
    /// RTO before back-off and before clamping.
    base_rto: SimDuration,
    backoff: u32,
    min_rto: SimDuration,
    max_rto: SimDuration,
    granularity: SimDuration,
    /// `Some` with [`RtoModel::Ns2`].
    ns2: Option<Ns2Timer>,
}

impl RttEstimator {
    /// An estimator of the given model without samples (see [`RttEstimator::new`]).
    pub fn with_model(
        model: RtoModel,
        initial: SimDuration,
        min_rto: SimDuration,
        max_rto: SimDuration,
        granularity: SimDuration,
    ) -> Self {
        let mut e = Self::new(initial, min_rto, max_rto, granularity);
        if let RtoModel::Ns2 { tick, rfc2988 } = model {
            // `rtt_init`: t_srtt_ = srtt_init_ (0), t_rtxcur_ = rtxcur_init_ (our `initial`);
            // the first sample replaces t_rttvar_, so rttvar_init_ never matters.
            e.ns2 = Some(Ns2Timer {
                tick: tick.as_nanos().max(1),
                rfc2988,
                srtt8: 0,
                rttvar4: 0,
            });
        }
        e
    }

    /// An estimator without samples: RFC 6298 §2.1, RTO = `initial`.
    pub fn new(
        initial: SimDuration,
        min_rto: SimDuration,
        max_rto: SimDuration,
        granularity: SimDuration,
    ) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: SimDuration::ZERO,
            base_rto: initial,
            backoff: 0,
            min_rto,
            max_rto: max_rto.max(min_rto),
            granularity,
            ns2: None,
        }
    }

    /// A measurement of a segment sent at `sent` and acknowledged at `now`: as
    /// [`RttEstimator::sample`], except that the ns-2 model counts the clock ticks between
    /// the two instants as BSD does (`rtt_update` without timestamps: `(tao + tickoff) /
    /// tcp_tick_` with the tick phase `boot_time_` taken as 0).
    pub fn sample_between(&mut self, sent: SimTime, now: SimTime) {
        match self.ns2.as_ref().map(|n| n.tick) {
            Some(tick) => {
                let ticks = now.as_nanos() / tick - sent.as_nanos() / tick;
                self.ns2_update(ticks);
            }
            None => self.sample(now.saturating_since(sent)),
        }
    }

    /// Takes a measurement `r` (RFC 6298 §2.2 for the first, §2.3 after) and clears the
    /// back-off: a valid sample comes from a segment that was not retransmitted (Karn's
    /// algorithm, RFC 6298 §3 and §5). The ns-2 model rounds `r` to whole ticks (its
    /// timestamp formula, `int(tao / tcp_tick_ + 0.5)`).
    pub fn sample(&mut self, r: SimDuration) {
        if let Some(tick) = self.ns2.as_ref().map(|n| n.tick) {
            self.ns2_update((r.as_nanos() + tick / 2) / tick);
            return;
        }
        let r = r.as_nanos();
        match self.srtt {
            None => {
                // RFC 6298 §2.2: SRTT <- R, RTTVAR <- R/2.
                self.srtt = Some(SimDuration(r));
                self.rttvar = SimDuration(r / 2);
            }
            Some(srtt) => {
                // RFC 6298 §2.3: RTTVAR <- 3/4·RTTVAR + 1/4·|SRTT - R'| (beta = 1/4), then
                // SRTT <- 7/8·SRTT + 1/8·R' (alpha = 1/8), in that order.
                let srtt = srtt.as_nanos();
                let err = srtt.abs_diff(r);
                self.rttvar =
                    SimDuration((self.rttvar.as_nanos().saturating_mul(3)).saturating_add(err) / 4);
                self.srtt = Some(SimDuration(srtt.saturating_mul(7).saturating_add(r) / 8));
            }
        }
        let srtt = self.srtt.unwrap_or_default().as_nanos();
        let var = self
            .granularity
            .as_nanos()
            .max(K.saturating_mul(self.rttvar.as_nanos()));
        self.base_rto = SimDuration(srtt.saturating_add(var));
        self.backoff = 0;
    }

    /// ns-2 `rtt_update` for a sample of `ticks` ticks: Jacobson's fixed-point SRTT (gain
    /// 1/8) and RTTVAR (gain 1/4) in ticks, `t_rtxcur_ = (SRTT + 4·RTTVAR)` truncated to
    /// ticks.
    fn ns2_update(&mut self, ticks: u64) {
        let Some(n) = self.ns2.as_mut() else {
            return;
        };
        // "if (t_rtt_ < 1) t_rtt_ = 1".
        let m = i64::try_from(ticks).unwrap_or(i64::MAX / 64).max(1);
        if n.srtt8 != 0 {
            let mut delta = m - (n.srtt8 >> NS2_SRTT_BITS);
            n.srtt8 += delta;
            if n.srtt8 <= 0 {
                n.srtt8 = 1;
            }
            delta = delta.abs() - (n.rttvar4 >> NS2_RTTVAR_BITS);
            n.rttvar4 += delta;
            if n.rttvar4 <= 0 {
                n.rttvar4 = 1;
            }
        } else {
            // "srtt = rtt", "rttvar = rtt / 2".
            n.srtt8 = m << NS2_SRTT_BITS;
            n.rttvar4 = m << (NS2_RTTVAR_BITS - 1);
        }
        let shift = NS2_RTTVAR_EXP + NS2_SRTT_BITS - NS2_RTTVAR_BITS;
        let rtxcur = ((n.rttvar4 << shift) + n.srtt8) >> NS2_SRTT_BITS;
        self.base_rto = SimDuration((rtxcur.max(0) as u64).saturating_mul(n.tick));
        self.srtt = Some(SimDuration(
            (n.srtt8.max(0) as u64).saturating_mul(n.tick) >> NS2_SRTT_BITS,
        ));
        self.rttvar =
            SimDuration((n.rttvar4.max(0) as u64).saturating_mul(n.tick) >> NS2_RTTVAR_BITS);
        self.backoff = 0;
    }

    /// RFC 6298 §5.5: "The host MUST set RTO <- RTO * 2 ("back off the timer")", bounded by
    /// the maximum RTO.
    pub fn back_off(&mut self) {
        if let Some(n) = &self.ns2 {
            // ns-2 `rtt_backoff`: "if (t_backoff_ < 64 || (rfc2988_ && rtt_timeout() <
            // maxrto_)) t_backoff_ <<= 1".
            let room = if n.rfc2988 {
                self.rto() < self.max_rto
            } else {
                self.backoff < NS2_MAX_BACKOFF
            };
            if room && self.backoff < MAX_BACKOFF {
                self.backoff += 1;
            }
            // "If backed off this far, clobber the srtt value, storing it in the mean
            // deviation instead": the next sample starts the estimate afresh.
            if self.backoff > NS2_CLOBBER_BACKOFF {
                if let Some(n) = self.ns2.as_mut() {
                    n.rttvar4 += n.srtt8 >> NS2_SRTT_BITS;
                    n.srtt8 = 0;
                }
            }
            return;
        }
        if self.backoff < MAX_BACKOFF {
            self.backoff += 1;
        }
    }

    /// Forgets the back-off without a new sample.
    pub fn clear_backoff(&mut self) {
        self.backoff = 0;
    }

    /// RFC 6298 §5.7: after a SYN timed out and no sample exists, data transmission starts with
    /// an RTO of at least 3 s.
    pub fn after_syn_timeout(&mut self) {
        self.backoff = 0;
        if self.srtt.is_none() {
            self.base_rto = self.base_rto.max(RTO_AFTER_SYN_TIMEOUT);
        }
    }

    /// The current RTO: the computed value raised to the minimum (RFC 6298 §2.4), doubled per
    /// back-off (§5.5: "RTO <- RTO * 2"), capped at the maximum (§2.5).
    pub fn rto(&self) -> SimDuration {
        if let Some(n) = &self.ns2 {
            return self.ns2_rto(n);
        }
        self.base_rto
            .max(self.min_rto)
            .saturating_mul(1u64 << self.backoff)
            .min(self.max_rto)
    }

    /// ns-2 `rtt_timeout`: `t_rtxcur_` times the back-off, the minimum applied after it
    /// (without `rfc2988_`) or to `t_rtxcur_` before it (with), capped at the maximum, and at
    /// least two ticks.
    fn ns2_rto(&self, n: &Ns2Timer) -> SimDuration {
        let mult = 1u64 << self.backoff;
        let mut t = if n.rfc2988 && self.base_rto < self.min_rto {
            self.min_rto.saturating_mul(mult)
        } else {
            self.base_rto.saturating_mul(mult)
        };
        if !n.rfc2988 {
            t = t.max(self.min_rto);
        }
        t.min(self.max_rto)
            .max(SimDuration(n.tick.saturating_mul(2)))
    }

    /// The smoothed RTT, once a sample was taken.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }

    /// The RTT variation.
    pub fn rttvar(&self) -> SimDuration {
        self.rttvar
    }

    /// How many times the timer has been backed off since the last sample.
    pub fn backoff(&self) -> u32 {
        self.backoff
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    fn estimator() -> RttEstimator {
        RttEstimator::new(ms(1000), ms(200), ms(60_000), ms(10))
    }

    #[test]
    fn first_and_later_samples_follow_rfc6298() {
        let mut e = estimator();
        assert_eq!(e.rto(), ms(1000));
        e.sample(ms(100));
        assert_eq!(e.srtt(), Some(ms(100)));
        assert_eq!(e.rttvar(), ms(50));
        // RTO = 100 + max(10, 4·50) = 300 ms.
        assert_eq!(e.rto(), ms(300));
        e.sample(ms(200));
        // RTTVAR = 3/4·50 + 1/4·100 = 62.5; SRTT = 7/8·100 + 1/8·200 = 112.5.
        assert_eq!(e.rttvar(), SimDuration(62_500_000));
        assert_eq!(e.srtt(), Some(SimDuration(112_500_000)));
        assert_eq!(e.rto(), SimDuration(112_500_000 + 250_000_000));
    }

    #[test]
    fn bounds_and_backoff() {
        let mut e = estimator();
        e.sample(ms(1));
        // 1 + max(10, 2) = 11 ms, raised to the 200 ms minimum.
        assert_eq!(e.rto(), ms(200));
        e.back_off();
        e.back_off();
        assert_eq!(e.backoff(), 2);
        // The clamped 200 ms is what doubles.
        assert_eq!(e.rto(), ms(800));
        for _ in 0..40 {
            e.back_off();
        }
        assert_eq!(e.rto(), ms(60_000));
        e.sample(ms(50));
        assert_eq!(e.backoff(), 0);
    }

    fn ns2_2001() -> RttEstimator {
        RttEstimator::with_model(
            RtoModel::Ns2 {
                tick: ms(100),
                rfc2988: false,
            },
            ms(6000),
            ms(1000),
            ms(100_000_000),
            ms(100),
        )
    }

    #[test]
    fn ns2_counts_ticks_and_truncates_the_rto() {
        let mut e = ns2_2001();
        assert_eq!(e.rto(), ms(6000));
        // Sent at 0.95 s, ACKed at 1.32 s: 370 ms cross four tick boundaries (1.0 ... 1.3).
        e.sample_between(SimTime(950_000_000), SimTime(1_320_000_000));
        assert_eq!(e.srtt(), Some(ms(400)));
        // RTTVAR = 2 ticks; RTO = 4 + 4·2 = 12 ticks.
        assert_eq!(e.rttvar(), ms(200));
        assert_eq!(e.base_rto, ms(1200));
        assert_eq!(e.rto(), ms(1200));
        // A sample within one tick counts as one.
        e.sample_between(SimTime(1_310_000_000), SimTime(1_320_000_000));
        // delta = 1 - 4 = -3: t_srtt_ = 32 - 3 = 29; |d| - 2 = 1: t_rttvar_ = 9;
        // RTO = (9·8 + 29) >> 3 = 12 ticks.
        assert_eq!(e.base_rto, ms(1200));
        assert_eq!(e.srtt(), Some(SimDuration(362_500_000)));
    }

    #[test]
    fn ns2_without_rfc2988_applies_the_minimum_after_backoff() {
        let mut e = ns2_2001();
        for _ in 0..20 {
            e.sample_between(SimTime(0), SimTime(100_000_000));
        }
        // Converged to one tick: RTO = 1 + 4·0 → at least the 1 s minimum.
        let base = e.base_rto;
        assert!(base < ms(1000), "{base:?}");
        assert_eq!(e.rto(), ms(1000));
        e.back_off();
        // ns-2 rfc2988_ false: max(base·2, 1 s), not 2 s as RFC 6298 would have it.
        assert_eq!(e.rto(), base.saturating_mul(2).max(ms(1000)));
        for _ in 0..10 {
            e.back_off();
        }
        // t_backoff_ stops at 64.
        assert_eq!(e.backoff(), NS2_MAX_BACKOFF);
        // Backed off beyond 8, the SRTT was clobbered: the next sample is a first one.
        e.sample_between(SimTime(0), SimTime(500_000_000));
        assert_eq!(e.srtt(), Some(ms(500)));
        assert_eq!(e.backoff(), 0);
    }

    #[test]
    fn ns2_rfc2988_and_two_tick_floor() {
        let mut e = RttEstimator::with_model(
            RtoModel::Ns2 {
                tick: ms(10),
                rfc2988: true,
            },
            ms(3000),
            ms(200),
            ms(60_000),
            ms(10),
        );
        e.sample(ms(1));
        // 1 ms rounds to 0 ticks, raised to 1: RTO 1 + 4·0.5 → 3 ticks, below the minimum.
        assert_eq!(e.rto(), ms(200));
        e.back_off();
        assert_eq!(e.rto(), ms(400));
        let mut floor = RttEstimator::with_model(
            RtoModel::Ns2 {
                tick: ms(100),
                rfc2988: true,
            },
            ms(3000),
            SimDuration::ZERO,
            ms(60_000),
            ms(100),
        );
        floor.sample(ms(100));
        // SRTT 1 tick + 4·RTTVAR (0.5 tick) = 3 ticks, above the two-tick floor.
        assert_eq!(floor.rto(), ms(300));
    }

    #[test]
    fn syn_timeout_raises_initial_rto() {
        let mut e = estimator();
        e.back_off();
        e.after_syn_timeout();
        assert_eq!(e.rto(), RTO_AFTER_SYN_TIMEOUT);
        let mut sampled = estimator();
        sampled.sample(ms(100));
        sampled.after_syn_timeout();
        assert_eq!(sampled.rto(), ms(300));
    }
}
