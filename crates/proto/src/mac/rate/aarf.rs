//! AARF, Adaptive ARF: M. Lacage, M. H. Manshaei and T. Turletti, "IEEE 802.11 rate
//! adaptation: a practical approach", ACM MSWiM 2004.
//!
//! ARF ([`super::arf`]) whose success threshold adapts: when the probe after a rate increase
//! fails, the threshold is multiplied by [`AarfParams::success_k`] (2) up to
//! [`AarfParams::max_success_threshold`] (60), and the timer threshold becomes
//! max([`AarfParams::min_timer_threshold`], success threshold × [`AarfParams::timer_k`]); a
//! fallback after [`AarfParams::failure_threshold`] consecutive failures resets both to their
//! minimum (10 and 15). A stable channel thus costs fewer failed probes.
//!
//! ns-3's `AarfWifiManager` sets the timer threshold to max(10, `TimerK` × the old timer
//! threshold) instead; `docs/models/mac80211.md` lists this among the readings that differ.
//!
//! Defaults: ns-3 3.44 `AarfWifiManager` attributes (`SuccessK` 2, `TimerK` 2,
//! `MaxSuccessThreshold` 60, `MinTimerThreshold` 15, `MinSuccessThreshold` 10), the paper's
//! values.

/// AARF's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct AarfParams {
    /// Success threshold after a fallback, and at the start (10).
    pub min_success_threshold: u32,
    /// Largest success threshold (60).
    pub max_success_threshold: u32,
    /// Timer threshold after a fallback, and at the start (15).
    pub min_timer_threshold: u32,
    /// Factor of the success threshold after a failed probe (2).
    pub success_k: f64,
    /// Timer threshold = success threshold × this, at least the minimum (2).
    pub timer_k: f64,
    /// Consecutive failures before a rate decrease (2, as ARF).
    pub failure_threshold: u32,
}

impl Default for AarfParams {
    fn default() -> Self {
        AarfParams {
            min_success_threshold: 10,
            max_success_threshold: 60,
            min_timer_threshold: 15,
            success_k: 2.0,
            timer_k: 2.0,
            failure_threshold: 2,
        }
    }
}

impl AarfParams {
    /// The probe after an increase failed: the success threshold grows.
    pub(super) fn probe_failed(&self, success: &mut u32, timer: &mut u32) {
        let grown = (f64::from(*success) * self.success_k).min(f64::from(u32::MAX));
        *success = (grown as u32)
            .min(self.max_success_threshold)
            .max(self.min_success_threshold)
            .max(1);
        let t = (f64::from(*success) * self.timer_k).min(f64::from(u32::MAX));
        *timer = (t as u32).max(self.min_timer_threshold).max(1);
    }

    /// A fallback after consecutive failures: both thresholds back to their minimum.
    pub(super) fn fell_back(&self, success: &mut u32, timer: &mut u32) {
        *success = self.min_success_threshold.max(1);
        *timer = self.min_timer_threshold.max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::super::arf::ArfState;
    use super::*;

    fn up(s: &mut ArfState) {
        let r = s.rate;
        while s.rate == r {
            s.acked();
        }
    }

    #[test]
    fn threshold_doubles_on_failed_probes_up_to_60() {
        let mut s = ArfState::aarf(&AarfParams::default(), 8);
        assert_eq!(s.success_threshold(), 10);
        let mut seen = vec![];
        for _ in 0..5 {
            up(&mut s);
            s.failed(); // the probe fails
            seen.push(s.success_threshold());
        }
        assert_eq!(seen, vec![20, 40, 60, 60, 60]);
        assert_eq!(s.timer_threshold(), 120);
        assert_eq!(s.rate, 0);
    }

    #[test]
    fn reset_on_fallback_after_two_failures() {
        let mut s = ArfState::aarf(&AarfParams::default(), 8);
        up(&mut s);
        s.failed();
        assert_eq!(s.success_threshold(), 20);
        // 20 successes to go up; the probe succeeds; then two failures.
        up(&mut s);
        assert_eq!(s.rate, 1);
        s.acked();
        s.failed();
        s.failed();
        assert_eq!(s.rate, 0);
        assert_eq!(s.success_threshold(), 10);
        assert_eq!(s.timer_threshold(), 15);
    }
}
