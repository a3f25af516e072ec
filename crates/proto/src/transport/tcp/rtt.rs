//! The retransmission timer's value: RFC 6298 SRTT/RTTVAR estimation in integer nanoseconds,
//! exponential back-off, and the bounds of [`super::TcpConfig`].

use sctpsim_kernel::SimDuration;

/// RFC 6298 §2.3: K = 4 in `RTO = SRTT + max(G, K·RTTVAR)`.
const K: u64 = 4;

/// RFC 6298 §5.7: "the RTO MUST be re-initialized to 3 seconds when data transmission begins"
/// after a SYN timed out.
pub const RTO_AFTER_SYN_TIMEOUT: SimDuration = SimDuration::from_secs(3);

/// Largest back-off shift kept (2^16 times the RTO is far beyond any maximum RTO).
const MAX_BACKOFF: u32 = 16;

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
}

impl RttEstimator {
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
        }
    }

    /// Takes a measurement `r` (RFC 6298 §2.2 for the first, §2.3 after) and clears the
    /// back-off: a valid sample comes from a segment that was not retransmitted (Karn's
    /// algorithm, RFC 6298 §3 and §5).
    pub fn sample(&mut self, r: SimDuration) {
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

    /// RFC 6298 §5.5: "The host MUST set RTO <- RTO * 2 ("back off the timer")", bounded by
    /// the maximum RTO.
    pub fn back_off(&mut self) {
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
        self.base_rto
            .max(self.min_rto)
            .saturating_mul(1u64 << self.backoff)
            .min(self.max_rto)
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
