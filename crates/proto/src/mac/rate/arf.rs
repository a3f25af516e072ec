//! ARF, Auto Rate Fallback: A. Kamerman and L. Monteban, "WaveLAN-II: a high-performance
//! wireless LAN for the unlicensed band", Bell Labs Technical Journal 2(3), 1997, pp. 118–133.
//!
//! The sender keeps, per destination, the rate in use and counts Acked and failed data
//! attempts:
//! * after [`ArfParams::success_threshold`] consecutive Acked attempts, or when the timer
//!   expires — [`ArfParams::timer_threshold`] attempts since the last change, Acked or not,
//!   as ns-3 counts it — it moves one rate up; the first attempt at the new rate is a probe;
//! * if the probe fails it falls back at once; otherwise it moves one rate down after
//!   [`ArfParams::failure_threshold`] consecutive failures (each fallback restarts the count
//!   and the timer).
//!
//! Defaults are ns-3 3.44 `ArfWifiManager`'s (`TimerThreshold` 15, `SuccessThreshold` 10)
//! and the paper's two consecutive failures. The state machine also carries AARF's adaptive
//! thresholds ([`super::aarf`]), which only change when it is built with [`ArfState::aarf`].
//!
//! One reading differs from ns-3's `ArfWifiManager`, which keeps its "recovery" flag after a
//! failed probe until the next Ack (only the probe's own failure falls back, later failures of
//! the same run do not): here the probe decides once, and the failures after it count towards
//! the usual two. The comparison with ns-3 is in `docs/models/mac80211.md`.

use super::aarf::AarfParams;

/// ARF's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArfParams {
    /// Consecutive Acked attempts before a rate increase (ns-3 `SuccessThreshold` 10).
    pub success_threshold: u32,
    /// Attempts since the last rate change after which the rate goes up anyway (the
    /// "timer"; ns-3 `TimerThreshold` 15).
    pub timer_threshold: u32,
    /// Consecutive failures before a rate decrease (2: Kamerman & Monteban).
    pub failure_threshold: u32,
}

impl Default for ArfParams {
    fn default() -> Self {
        ArfParams {
            success_threshold: 10,
            timer_threshold: 15,
            failure_threshold: 2,
        }
    }
}

/// ARF's (and AARF's) state for one destination.
#[derive(Clone, Debug)]
pub struct ArfState {
    /// Index of the rate in use in the controller's rate list.
    pub rate: usize,
    /// The highest index.
    max: usize,
    /// Consecutive Acked attempts.
    successes: u32,
    /// Consecutive failed attempts.
    failures: u32,
    /// Attempts since the last rate change.
    timer: u32,
    /// The next outcome is the probe's: the first attempt after a rate increase.
    probing: bool,
    /// Current thresholds (fixed for ARF, adapted for AARF).
    success_threshold: u32,
    timer_threshold: u32,
    failure_threshold: u32,
    /// AARF's parameters, if this is AARF.
    aarf: Option<AarfParams>,
    /// The rate last counted as the destination's rate (for rate-change statistics).
    pub(super) last_reported: usize,
}

impl ArfState {
    /// ARF with `p` over `n` rates, starting at the lowest.
    pub fn arf(p: &ArfParams, n: usize) -> Self {
        ArfState {
            rate: 0,
            max: n.saturating_sub(1),
            successes: 0,
            failures: 0,
            timer: 0,
            probing: false,
            success_threshold: p.success_threshold.max(1),
            timer_threshold: p.timer_threshold.max(1),
            failure_threshold: p.failure_threshold.max(1),
            aarf: None,
            last_reported: 0,
        }
    }

    /// AARF with `p` over `n` rates, starting at the lowest.
    pub fn aarf(p: &AarfParams, n: usize) -> Self {
        let mut s = ArfState::arf(
            &ArfParams {
                success_threshold: p.min_success_threshold,
                timer_threshold: p.min_timer_threshold,
                failure_threshold: p.failure_threshold,
            },
            n,
        );
        s.aarf = Some(p.clone());
        s
    }

    /// The current success threshold (AARF changes it).
    pub fn success_threshold(&self) -> u32 {
        self.success_threshold
    }

    /// The current timer threshold (AARF changes it).
    pub fn timer_threshold(&self) -> u32 {
        self.timer_threshold
    }

    /// A data attempt was Acked.
    pub fn acked(&mut self) {
        self.successes += 1;
        self.failures = 0;
        self.timer += 1;
        self.probing = false;
        if (self.successes >= self.success_threshold || self.timer >= self.timer_threshold)
            && self.rate < self.max
        {
            self.rate += 1;
            self.successes = 0;
            self.timer = 0;
            self.probing = true;
        }
    }

    /// A data attempt got no Ack.
    pub fn failed(&mut self) {
        self.successes = 0;
        self.failures += 1;
        self.timer += 1;
        if self.probing {
            // The probe after an increase failed: back at once.
            self.probing = false;
            self.rate = self.rate.saturating_sub(1);
            self.failures = 0;
            self.timer = 0;
            if let Some(p) = &self.aarf {
                p.probe_failed(&mut self.success_threshold, &mut self.timer_threshold);
            }
        } else if self.failures >= self.failure_threshold {
            self.rate = self.rate.saturating_sub(1);
            self.failures = 0;
            self.timer = 0;
            if let Some(p) = &self.aarf {
                p.fell_back(&mut self.success_threshold, &mut self.timer_threshold);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_after_ten_successes_down_after_two_failures() {
        let mut s = ArfState::arf(&ArfParams::default(), 8);
        for _ in 0..9 {
            s.acked();
        }
        assert_eq!(s.rate, 0);
        s.acked();
        assert_eq!(s.rate, 1);
        // The probe succeeds: no fallback; then two failures fall back.
        s.acked();
        s.failed();
        assert_eq!(s.rate, 1);
        s.failed();
        assert_eq!(s.rate, 0);
        // At the lowest rate failures do nothing more.
        s.failed();
        s.failed();
        assert_eq!(s.rate, 0);
    }

    #[test]
    fn failed_probe_falls_back_at_once() {
        let mut s = ArfState::arf(&ArfParams::default(), 8);
        for _ in 0..10 {
            s.acked();
        }
        assert_eq!(s.rate, 1);
        s.failed();
        assert_eq!(s.rate, 0);
        // The next failure is an ordinary one: one more is needed (already at 0 anyway).
        assert_eq!(s.failures, 0);
    }

    #[test]
    fn timer_moves_up_despite_isolated_failures() {
        let mut s = ArfState::arf(&ArfParams::default(), 8);
        // S S S S F repeated: never 10 successes in a row, but 15 attempts since a change.
        let mut n = 0;
        while s.rate == 0 {
            if n % 5 == 4 {
                s.failed();
            } else {
                s.acked();
            }
            n += 1;
        }
        // The 15th attempt (a failure) reaches the timer; the next Ack moves up (the timer is
        // looked at with Acks, as in ns-3).
        assert_eq!(n, 16);
    }

    #[test]
    fn stays_at_the_top() {
        let mut s = ArfState::arf(&ArfParams::default(), 2);
        for _ in 0..100 {
            s.acked();
        }
        assert_eq!(s.rate, 1);
    }
}
