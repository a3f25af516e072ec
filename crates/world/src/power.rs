//! Power units and thermal noise.
//!
//! Powers are linear watts (`f64`) inside the simulator, as in ns-2's `WirelessPhy`; dB and dBm
//! are for parameters and results.

/// Boltzmann's constant, J/K (SI 2019 exact value).
pub const BOLTZMANN_J_PER_K: f64 = 1.380_649e-23;

/// Reference noise temperature T0 = 290 K (IEEE / ITU convention; `k·T0` = −173.98 dBm/Hz, the
/// "−174 dBm/Hz" of link budgets; ns-3 `InterferenceHelper` uses the same `k·T0`).
pub const NOISE_TEMPERATURE_K: f64 = 290.0;

/// Default receiver noise figure, dB: ns-3 `WifiPhy::RxNoiseFigure` default 7 dB.
pub const DEFAULT_NOISE_FIGURE_DB: f64 = 7.0;

/// dBm to watts.
#[inline]
pub fn dbm_to_w(dbm: f64) -> f64 {
    10f64.powf((dbm - 30.0) / 10.0)
}

/// Watts to dBm (−∞ for zero power).
#[inline]
pub fn w_to_dbm(w: f64) -> f64 {
    10.0 * w.log10() + 30.0
}

/// A ratio in dB to a linear ratio.
#[inline]
pub fn db_to_ratio(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

/// A linear ratio to dB.
#[inline]
pub fn ratio_to_db(ratio: f64) -> f64 {
    10.0 * ratio.log10()
}

/// Thermal noise power at the receiver input, W: `k·T0·B·F`, i.e. −174 dBm/Hz + 10·log10(B) +
/// NF. Bandwidths: 22 MHz for 802.11b DSSS, 20 MHz for 802.11a/g OFDM
/// ([`crate::WifiMode::bandwidth_hz`]).
pub fn thermal_noise_w(bandwidth_hz: f64, noise_figure_db: f64) -> f64 {
    BOLTZMANN_J_PER_K * NOISE_TEMPERATURE_K * bandwidth_hz * db_to_ratio(noise_figure_db)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn conversions_round_trip() {
        assert!((dbm_to_w(0.0) - 1e-3).abs() < 1e-18);
        assert!((dbm_to_w(30.0) - 1.0).abs() < 1e-12);
        assert!(
            (w_to_dbm(0.28183815) - 24.5).abs() < 1e-5,
            "ns-2 Pt = 24.5 dBm"
        );
        assert!((db_to_ratio(10.0) - 10.0).abs() < 1e-12);
        assert!((ratio_to_db(100.0) - 20.0).abs() < 1e-12);
        assert_eq!(w_to_dbm(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn thermal_noise_matches_link_budget() {
        // -174 dBm/Hz + 10 log10(20e6) + 7 = -93.99 dBm (exactly -93.965 with k·290 K).
        let n = w_to_dbm(thermal_noise_w(20e6, 7.0));
        assert!((n - (-93.965)).abs() < 0.001, "{n}");
        let n22 = w_to_dbm(thermal_noise_w(22e6, 7.0));
        assert!((n22 - n - ratio_to_db(22.0 / 20.0)).abs() < 1e-9);
        assert!((w_to_dbm(BOLTZMANN_J_PER_K * NOISE_TEMPERATURE_K) - (-173.975)).abs() < 0.001);
    }
}
