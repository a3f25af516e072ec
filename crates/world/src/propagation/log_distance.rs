//! Log-distance path loss.

use super::{friis_w, RadioGeometry};
use crate::error::{finite, positive, ParamError};
use crate::geometry::Position;

/// ns-3 `LogDistancePropagationLossModel::Exponent` default: 3.
pub const NS3_LOG_DISTANCE_EXPONENT: f64 = 3.0;
/// ns-3 `LogDistancePropagationLossModel::ReferenceDistance` default: 1 m.
pub const NS3_LOG_DISTANCE_REFERENCE_M: f64 = 1.0;
/// ns-3 `LogDistancePropagationLossModel::ReferenceLoss` default: 46.6777 dB (Friis loss at
/// 1 m for 5.15 GHz).
pub const NS3_LOG_DISTANCE_REFERENCE_LOSS_DB: f64 = 46.6777;

/// Log-distance path loss (Rappaport, *Wireless Communications*, 2nd ed., §4.9.1):
///
/// ```text
/// PL(d) = PL(d0) + 10·n·log10(d / d0)   for d > d0,   PL(d0) for d ≤ d0
/// Pr    = Pt / 10^(PL(d)/10)
/// ```
///
/// The reference loss includes antenna gains and system loss; build it from Friis with
/// [`LogDistance::with_friis_reference`]. `Default` is ns-3's model (n = 3, d0 = 1 m,
/// PL(d0) = 46.6777 dB).
#[derive(Clone, Debug, PartialEq)]
pub struct LogDistance {
    /// Path-loss exponent `n` (2 in free space, 2.7–5 in built-up areas).
    pub exponent: f64,
    /// Reference distance `d0`, m.
    pub reference_distance_m: f64,
    /// Path loss at the reference distance, dB.
    pub reference_loss_db: f64,
}

impl LogDistance {
    /// A model whose reference loss is the Friis loss of `radio` at `reference_distance_m`.
    pub fn with_friis_reference(
        radio: &RadioGeometry,
        exponent: f64,
        reference_distance_m: f64,
    ) -> Self {
        let p = friis_w(
            1.0,
            radio.tx_gain,
            radio.rx_gain,
            radio.wavelength_m(),
            radio.system_loss,
            reference_distance_m,
        );
        LogDistance {
            exponent,
            reference_distance_m,
            reference_loss_db: -10.0 * p.log10(),
        }
    }

    /// Path loss at `d_m`, dB.
    pub fn path_loss_db(&self, d_m: f64) -> f64 {
        if d_m > self.reference_distance_m {
            self.reference_loss_db
                + 10.0 * self.exponent * (d_m / self.reference_distance_m).log10()
        } else {
            self.reference_loss_db
        }
    }

    /// Received power, W.
    pub fn rx_power_w(&self, pt_w: f64, tx: Position, rx: Position) -> f64 {
        pt_w * 10f64.powf(-self.path_loss_db(tx.distance_to(rx)) / 10.0)
    }

    /// Checks the parameters: exponent and reference distance > 0, finite reference loss.
    pub fn validate(&self) -> Result<(), ParamError> {
        positive("exponent", self.exponent)?;
        positive("reference_distance_m", self.reference_distance_m)?;
        finite("reference_loss_db", self.reference_loss_db)?;
        Ok(())
    }
}

impl Default for LogDistance {
    fn default() -> Self {
        LogDistance {
            exponent: NS3_LOG_DISTANCE_EXPONENT,
            reference_distance_m: NS3_LOG_DISTANCE_REFERENCE_M,
            reference_loss_db: NS3_LOG_DISTANCE_REFERENCE_LOSS_DB,
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn ten_n_db_per_decade() {
        let m = LogDistance::default();
        assert!(m.validate().is_ok());
        assert_eq!(m.path_loss_db(0.5), 46.6777);
        assert!((m.path_loss_db(10.0) - 76.6777).abs() < 1e-9);
        assert!((m.path_loss_db(100.0) - 106.6777).abs() < 1e-9);
        let a = m.rx_power_w(1.0, Position::xy(0.0, 0.0), Position::xy(10.0, 0.0));
        let b = m.rx_power_w(1.0, Position::xy(0.0, 0.0), Position::xy(100.0, 0.0));
        assert!((a / b - 1000.0).abs() < 1e-6);
    }

    #[test]
    fn friis_reference_reproduces_ns3_default_at_5_15_ghz() {
        let mut r = RadioGeometry::ns2_wavelan();
        r.frequency_hz = 5.15e9;
        let m = LogDistance::with_friis_reference(&r, 3.0, 1.0);
        // ns-3's 46.6777 dB is 20·log10(4π·1 m / λ) at 5.15 GHz with c = 3·10⁸ m/s; with the
        // exact c it is 46.6839 dB (Python: 20*log10(4*pi/(299792458/5.15e9))).
        assert!(
            (m.reference_loss_db - 46.683_93).abs() < 1e-4,
            "{}",
            m.reference_loss_db
        );
        assert!((m.reference_loss_db - NS3_LOG_DISTANCE_REFERENCE_LOSS_DB).abs() < 0.01);
        // With exponent 2 it is Friis everywhere beyond d0.
        let fs = LogDistance::with_friis_reference(&r, 2.0, 1.0);
        let p = fs.rx_power_w(1.0, Position::xy(0.0, 0.0), Position::xy(321.0, 0.0));
        let f = friis_w(1.0, 1.0, 1.0, r.wavelength_m(), 1.0, 321.0);
        assert!(((p - f) / f).abs() < 1e-9);
        let bad = LogDistance {
            exponent: 0.0,
            ..LogDistance::default()
        };
        assert_eq!(bad.validate().unwrap_err().field, "exponent");
    }
}
