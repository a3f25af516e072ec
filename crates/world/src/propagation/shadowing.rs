//! ns-2 log-normal shadowing.

use super::{friis_w, RadioGeometry};
use crate::error::{non_negative, positive, ParamError};
use crate::geometry::Position;
use sctpsim_kernel::Rng;

/// ns-2 `tcl/lib/ns-default.tcl`: `Propagation/Shadowing set pathlossExp_ 2.0`.
pub const NS2_SHADOWING_EXPONENT: f64 = 2.0;
/// ns-2 `tcl/lib/ns-default.tcl`: `Propagation/Shadowing set std_db_ 4.0` dB.
pub const NS2_SHADOWING_STD_DB: f64 = 4.0;
/// ns-2 `tcl/lib/ns-default.tcl`: `Propagation/Shadowing set dist0_ 1.0` m.
pub const NS2_SHADOWING_REFERENCE_M: f64 = 1.0;

/// ns-2's `Propagation/Shadowing` (`mobile/shadowing.cc`; ns Manual, "Radio Propagation
/// Models"):
///
/// ```text
/// Pr0 = Friis(Pt, Gt, Gr, λ, L, d0)
/// [Pr(d)/Pr0]dB = −10·β·log10(d/d0) + X_dB,   X_dB ~ N(0, σ_dB²)   (first term 0 for d ≤ d0)
/// ```
///
/// `X_dB` is drawn independently for every frame and every receiver, as in ns-2 (no spatial or
/// temporal correlation).
#[derive(Clone, Debug, PartialEq)]
pub struct Shadowing {
    /// Antennas, carrier and system loss (used for the Friis reference power).
    pub radio: RadioGeometry,
    /// Path-loss exponent β.
    pub path_loss_exponent: f64,
    /// Standard deviation σ of the shadowing term, dB.
    pub std_db: f64,
    /// Reference distance d0, m.
    pub reference_distance_m: f64,
}

impl Shadowing {
    /// ns-2 defaults (β = 2, σ = 4 dB, d0 = 1 m) on the WaveLAN radio.
    pub fn ns2_default() -> Self {
        Shadowing {
            radio: RadioGeometry::ns2_wavelan(),
            path_loss_exponent: NS2_SHADOWING_EXPONENT,
            std_db: NS2_SHADOWING_STD_DB,
            reference_distance_m: NS2_SHADOWING_REFERENCE_M,
        }
    }

    fn median_at_w(&self, pt_w: f64, d_m: f64) -> f64 {
        let r = &self.radio;
        let pr0 = friis_w(
            pt_w,
            r.tx_gain,
            r.rx_gain,
            r.wavelength_m(),
            r.system_loss,
            self.reference_distance_m,
        );
        let avg_db = if d_m > self.reference_distance_m {
            -10.0 * self.path_loss_exponent * (d_m / self.reference_distance_m).log10()
        } else {
            0.0
        };
        pr0 * 10f64.powf(avg_db / 10.0)
    }

    /// Received power without the shadowing term (its median), W.
    pub fn median_rx_power_w(&self, pt_w: f64, tx: Position, rx: Position) -> f64 {
        self.median_at_w(pt_w, tx.distance_to(rx))
    }

    /// Received power of one frame, W: the median times `10^(σ·N(0,1)/10)`. Always takes
    /// exactly one normal draw from `rng` (also when σ = 0), so the stream's use does not
    /// depend on the parameters.
    pub fn rx_power_w(&self, pt_w: f64, tx: Position, rx: Position, rng: &mut Rng) -> f64 {
        let x_db = self.std_db * rng.normal();
        self.median_rx_power_w(pt_w, tx, rx) * 10f64.powf(x_db / 10.0)
    }

    /// Ground distance, m, beyond which the power stays below `threshold_w` unless the
    /// shadowing term exceeds `sigmas` standard deviations (e.g. 3σ: probability 0.13 % per
    /// frame). The engine's spatial grid uses this as the cut-off for delivering a frame.
    pub fn range_with_margin_m(&self, pt_w: f64, threshold_w: f64, sigmas: f64) -> f64 {
        let boosted = threshold_w / 10f64.powf(sigmas * self.std_db / 10.0);
        super::range_for_threshold_m(
            &super::PropagationModel::Shadowing(self.clone()),
            pt_w,
            boosted,
        )
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.radio.validate()?;
        positive("path_loss_exponent", self.path_loss_exponent)?;
        non_negative("std_db", self.std_db)?;
        positive("reference_distance_m", self.reference_distance_m)?;
        Ok(())
    }
}

impl Default for Shadowing {
    fn default() -> Self {
        Shadowing::ns2_default()
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::propagation::wavelength_m;

    #[test]
    fn median_is_log_distance_from_friis_at_d0() {
        let m = Shadowing::ns2_default();
        assert!(m.validate().is_ok());
        let o = Position::xy(0.0, 0.0);
        let lambda = wavelength_m(914e6);
        // β = 2 and d0 = 1 m: the median is Friis.
        let p = m.median_rx_power_w(1.0, o, Position::xy(100.0, 0.0));
        let f = friis_w(1.0, 1.0, 1.0, lambda, 1.0, 100.0);
        assert!(((p - f) / f).abs() < 1e-12);
        let m3 = Shadowing {
            path_loss_exponent: 3.0,
            ..Shadowing::ns2_default()
        };
        let a = m3.median_rx_power_w(1.0, o, Position::xy(10.0, 0.0));
        let b = m3.median_rx_power_w(1.0, o, Position::xy(100.0, 0.0));
        assert!((a / b - 1000.0).abs() < 1e-6);
        // Inside d0 the power is the reference power.
        let c = m3.median_rx_power_w(1.0, o, Position::xy(0.5, 0.0));
        let d = m3.median_rx_power_w(1.0, o, Position::xy(1.0, 0.0));
        assert_eq!(c, d);
    }

    #[test]
    fn shadowing_term_is_normal_in_db() {
        let m = Shadowing::ns2_default();
        let o = Position::xy(0.0, 0.0);
        let r = Position::xy(200.0, 0.0);
        let med = m.median_rx_power_w(1.0, o, r);
        let mut rng = Rng::from_seed(11);
        let n = 100_000;
        let xs: Vec<f64> = (0..n)
            .map(|_| 10.0 * (m.rx_power_w(1.0, o, r, &mut rng) / med).log10())
            .collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        assert!(mean.abs() < 0.05, "{mean}");
        assert!((var.sqrt() - 4.0).abs() < 0.05, "{}", var.sqrt());
        // Same seed, same draws.
        let mut r1 = Rng::from_seed(5);
        let mut r2 = Rng::from_seed(5);
        assert_eq!(
            m.rx_power_w(1.0, o, r, &mut r1),
            m.rx_power_w(1.0, o, r, &mut r2)
        );
    }

    #[test]
    fn margin_extends_range() {
        let m = Shadowing::ns2_default();
        let thr = 3.652e-10;
        let r0 = m.range_with_margin_m(0.28183815, thr, 0.0);
        let r3 = m.range_with_margin_m(0.28183815, thr, 3.0);
        // β = 2: +12 dB of margin is a factor 10^(12/20) = 3.98 in distance.
        assert!((r3 / r0 - 10f64.powf(0.6)).abs() < 1e-6, "{}", r3 / r0);
        let bad = Shadowing {
            std_db: -1.0,
            ..Shadowing::ns2_default()
        };
        assert_eq!(bad.validate().unwrap_err().field, "std_db");
    }
}
