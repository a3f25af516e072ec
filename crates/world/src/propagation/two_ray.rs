//! Two-ray ground reflection with ns-2's cross-over distance.

use super::{friis_w, RadioGeometry};
use crate::error::{positive, ParamError};
use crate::geometry::Position;

/// The cross-over distance `dc = 4π·ht·hr / λ`, m, at which the two-ray formula and Friis give
/// the same power (ns-2 `mobile/tworayground.cc`, `crossover_dist`).
pub fn crossover_distance_m(ht_m: f64, hr_m: f64, lambda_m: f64) -> f64 {
    4.0 * core::f64::consts::PI * ht_m * hr_m / lambda_m
}

/// The two-ray ground formula `Pr = Pt·Gt·Gr·ht²·hr² / (d⁴·L)`, W (ns-2 `TwoRay()`).
pub fn two_ray_w(
    pt_w: f64,
    gt: f64,
    gr: f64,
    ht_m: f64,
    hr_m: f64,
    system_loss: f64,
    d_m: f64,
) -> f64 {
    let d2 = d_m * d_m;
    pt_w * gt * gr * (ht_m * ht_m * hr_m * hr_m) / (d2 * d2 * system_loss)
}

/// ns-2's `Propagation/TwoRayGround`: Friis up to the cross-over distance, the two-ray ground
/// formula beyond. Antenna heights are the node heights (`z_m`) plus `antenna_height_m`.
///
/// With the WaveLAN defaults (914 MHz, 1.5 m antennas) `dc ≈ 86.2 m`, and the received power is
/// exactly ns-2's RXThresh 3.652·10⁻¹⁰ W at 250 m and CSThresh 1.559·10⁻¹¹ W at 550 m — ns-2's
/// `indep-utils/propagation/threshold.cc` derived those thresholds from this model.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoRayGround {
    /// Antennas, carrier and system loss.
    pub radio: RadioGeometry,
}

impl TwoRayGround {
    /// Received power, W.
    pub fn rx_power_w(&self, pt_w: f64, tx: Position, rx: Position) -> f64 {
        let r = &self.radio;
        let ht = tx.z_m + r.antenna_height_m;
        let hr = rx.z_m + r.antenna_height_m;
        let d = tx.distance_to(rx);
        let lambda = r.wavelength_m();
        if d <= crossover_distance_m(ht, hr, lambda) {
            friis_w(pt_w, r.tx_gain, r.rx_gain, lambda, r.system_loss, d)
        } else {
            two_ray_w(pt_w, r.tx_gain, r.rx_gain, ht, hr, r.system_loss, d)
        }
    }

    /// Checks the radio parameters; the antenna height must be > 0 (with zero height the
    /// ground reflection cancels the direct ray completely).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.radio.validate()?;
        positive("antenna_height_m", self.radio.antenna_height_m)?;
        Ok(())
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::propagation::NS2_TX_POWER_W;
    use crate::reception::threshold::{NS2_CS_THRESH_W, NS2_RX_THRESH_W};

    fn wavelan() -> TwoRayGround {
        TwoRayGround {
            radio: RadioGeometry::ns2_wavelan(),
        }
    }

    fn at(d: f64) -> f64 {
        wavelan().rx_power_w(NS2_TX_POWER_W, Position::xy(0.0, 0.0), Position::xy(d, 0.0))
    }

    #[test]
    fn ns2_thresholds_are_two_ray_powers_at_250_and_550_m() {
        let p250 = at(250.0);
        let p550 = at(550.0);
        assert!(
            ((p250 - NS2_RX_THRESH_W) / NS2_RX_THRESH_W).abs() < 0.005,
            "{p250}"
        );
        assert!(
            ((p550 - NS2_CS_THRESH_W) / NS2_CS_THRESH_W).abs() < 0.005,
            "{p550}"
        );
        // Python: 0.28183815 * 1.5**4 / 250**4 = 3.652622424e-10.
        assert!((p250 - 3.652_622_424e-10).abs() < 1e-18, "{p250}");
    }

    #[test]
    fn crossover_is_continuous() {
        let lambda = RadioGeometry::ns2_wavelan().wavelength_m();
        let dc = crossover_distance_m(1.5, 1.5, lambda);
        // 4π·2.25/0.3280005 = 86.20 m.
        assert!((dc - 86.201).abs() < 0.01, "{dc}");
        let below = at(dc * (1.0 - 1e-12));
        let above = at(dc * (1.0 + 1e-12));
        assert!(((below - above) / below).abs() < 1e-9);
        // Friis regime: inverse square; two-ray regime: inverse fourth power.
        assert!((at(20.0) / at(40.0) - 4.0).abs() < 1e-9);
        assert!((at(200.0) / at(400.0) - 16.0).abs() < 1e-9);
    }

    #[test]
    fn node_height_raises_the_antenna() {
        let m = wavelan();
        let low = m.rx_power_w(
            1.0,
            Position::new(0.0, 0.0, 0.0),
            Position::new(500.0, 0.0, 0.0),
        );
        let high = m.rx_power_w(
            1.0,
            Position::new(0.0, 0.0, 1.5),
            Position::new(500.0, 0.0, 0.0),
        );
        // ht doubles from 1.5 to 3 m: four times the power (the small change in d aside).
        assert!((high / low - 4.0).abs() < 0.001, "{}", high / low);
        let mut zero = wavelan();
        zero.radio.antenna_height_m = 0.0;
        assert!(zero.validate().is_err());
        assert!(wavelan().validate().is_ok());
    }
}
