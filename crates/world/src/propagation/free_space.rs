//! Free-space propagation: the Friis transmission equation.

use super::{wavelength_m, RadioGeometry};
use crate::geometry::Position;

/// Friis free-space received power, W, in ns-2's form (`mobile/propagation.cc`,
/// `Propagation::Friis(Pt, Gt, Gr, lambda, L, d)`):
///
/// ```text
///        Pt · Gt · Gr · λ²
/// Pr = ---------------------
///         (4π d)² · L
/// ```
///
/// Below the distance where the formula would return more than `Pt·Gt·Gr/L` (the near field,
/// `d < λ/4π`) the result is capped at that value; ns-2 returns `Pt` only at `d = 0`, which
/// is the same value for unit gains and loss.
pub fn friis_w(pt_w: f64, gt: f64, gr: f64, lambda_m: f64, system_loss: f64, d_m: f64) -> f64 {
    let cap = pt_w * gt * gr / system_loss;
    if d_m.is_nan() || d_m <= 0.0 {
        return cap;
    }
    let m = lambda_m / (4.0 * core::f64::consts::PI * d_m);
    (pt_w * gt * gr * m * m / system_loss).min(cap)
}

/// The free-space model: Friis at the distance between the two antennas.
#[derive(Clone, Debug, PartialEq)]
pub struct FreeSpace {
    /// Antennas, carrier and system loss.
    pub radio: RadioGeometry,
}

impl FreeSpace {
    /// Mean received power, W.
    pub fn rx_power_w(&self, pt_w: f64, tx: Position, rx: Position) -> f64 {
        let r = &self.radio;
        // Both antennas are `antenna_height_m` above their node: the heights cancel.
        let d = tx.distance_to(rx);
        friis_w(
            pt_w,
            r.tx_gain,
            r.rx_gain,
            wavelength_m(r.frequency_hz),
            r.system_loss,
            d,
        )
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn friis_inverse_square() {
        let lambda = 0.125;
        let p100 = friis_w(1.0, 1.0, 1.0, lambda, 1.0, 100.0);
        let p200 = friis_w(1.0, 1.0, 1.0, lambda, 1.0, 200.0);
        assert!((p100 / p200 - 4.0).abs() < 1e-12);
        // (0.125 / (4π·100))² = 9.894646840e-9 (Python: (0.125/(4*math.pi*100))**2).
        assert!((p100 - 9.894_646_84e-9).abs() / p100 < 1e-6, "{p100}");
        assert!((friis_w(1.0, 2.0, 3.0, lambda, 2.0, 100.0) / p100 - 3.0).abs() < 1e-12);
    }

    #[test]
    fn friis_is_capped_in_the_near_field() {
        assert_eq!(friis_w(0.5, 1.0, 1.0, 0.3, 1.0, 0.0), 0.5);
        assert_eq!(friis_w(0.5, 1.0, 1.0, 0.3, 1.0, 1e-6), 0.5);
        assert_eq!(friis_w(0.5, 1.0, 1.0, 0.3, 1.0, f64::NAN), 0.5);
    }

    #[test]
    fn model_uses_antenna_positions() {
        let m = FreeSpace {
            radio: RadioGeometry::ns2_wavelan(),
        };
        let a = m.rx_power_w(1.0, Position::xy(0.0, 0.0), Position::xy(100.0, 0.0));
        let b = m.rx_power_w(1.0, Position::xy(0.0, 0.0), Position::xy(0.0, 100.0));
        assert_eq!(a, b);
        let lambda = wavelength_m(914e6);
        assert!((a - friis_w(1.0, 1.0, 1.0, lambda, 1.0, 100.0)).abs() < 1e-20);
    }
}
