//! Propagation: how much of the transmitted power reaches a receiver.
//!
//! [`PropagationModel`] gathers the four models of DESIGN.md §4 behind one enum so the engine's
//! wireless channel can hold it without dynamic dispatch:
//!
//! | variant | model | source |
//! |---|---|---|
//! | [`PropagationModel::FreeSpace`] | Friis | ns-2 `mobile/propagation.cc` `Friis()` |
//! | [`PropagationModel::TwoRayGround`] | Friis up to the cross-over distance, then `Pt·Gt·Gr·ht²·hr²/(d⁴·L)` | ns-2 `mobile/tworayground.cc` |
//! | [`PropagationModel::LogDistance`] | reference loss + `10·n·log10(d/d0)` | Rappaport §4.9; ns-3 `LogDistancePropagationLossModel` |
//! | [`PropagationModel::Shadowing`] | log-distance from Friis at `d0` plus a zero-mean normal in dB, drawn per frame | ns-2 `mobile/shadowing.cc` |
//!
//! Distances are three-dimensional between the antennas (node position plus the antenna height
//! above it), as ns-2 computes them.

pub mod free_space;
pub mod log_distance;
pub mod shadowing;
pub mod two_ray;

pub use free_space::{friis_w, FreeSpace};
pub use log_distance::LogDistance;
pub use shadowing::Shadowing;
pub use two_ray::{crossover_distance_m, two_ray_w, TwoRayGround};

use crate::error::{positive, ParamError};
use crate::geometry::Position;
use sctpsim_kernel::{Rng, SimDuration};

/// Speed of light in vacuum, m/s (SI definition); used for the wavelength and the propagation
/// delay.
pub const SPEED_OF_LIGHT_MPS: f64 = 299_792_458.0;

/// ns-2 `tcl/lib/ns-default.tcl`: `Phy/WirelessPhy set freq_ 914e+6` (Lucent WaveLAN, Hz).
pub const NS2_FREQUENCY_HZ: f64 = 914e6;
/// ns-2 `tcl/lib/ns-default.tcl`: `Phy/WirelessPhy set Pt_ 0.28183815` W (24.5 dBm).
pub const NS2_TX_POWER_W: f64 = 0.281_838_15;
/// ns-2 `tcl/lib/ns-default.tcl`: `Phy/WirelessPhy set L_ 1.0` (system loss, no loss).
pub const NS2_SYSTEM_LOSS: f64 = 1.0;
/// ns-2 `tcl/lib/ns-default.tcl`: `Antenna/OmniAntenna set Z_ 1.5` m above the node.
pub const NS2_ANTENNA_HEIGHT_M: f64 = 1.5;
/// ns-2 `tcl/lib/ns-default.tcl`: `Antenna/OmniAntenna set Gt_ 1.0` and `Gr_ 1.0`.
pub const NS2_ANTENNA_GAIN: f64 = 1.0;

/// Wavelength of a carrier, m: `λ = c / f`.
#[inline]
pub fn wavelength_m(frequency_hz: f64) -> f64 {
    SPEED_OF_LIGHT_MPS / frequency_hz
}

/// Propagation delay over `distance_m`, rounded to the nearest nanosecond (0.3 m per ns).
pub fn propagation_delay(distance_m: f64) -> SimDuration {
    SimDuration::from_secs_f64(distance_m / SPEED_OF_LIGHT_MPS)
}

/// Antennas, carrier and losses shared by the Friis-based models: what ns-2 keeps in
/// `WirelessPhy` (`freq_`, `L_`) and `Antenna/OmniAntenna` (`Gt_`, `Gr_`, `Z_`).
#[derive(Clone, Debug, PartialEq)]
pub struct RadioGeometry {
    /// Carrier frequency, Hz.
    pub frequency_hz: f64,
    /// Transmit antenna gain, linear.
    pub tx_gain: f64,
    /// Receive antenna gain, linear.
    pub rx_gain: f64,
    /// System loss `L ≥ 1`, linear.
    pub system_loss: f64,
    /// Antenna height above the node's position, m (the same for every node).
    pub antenna_height_m: f64,
}

impl RadioGeometry {
    /// ns-2's WaveLAN defaults: 914 MHz, unit gains, `L = 1`, antennas 1.5 m high.
    pub fn ns2_wavelan() -> Self {
        RadioGeometry {
            frequency_hz: NS2_FREQUENCY_HZ,
            tx_gain: NS2_ANTENNA_GAIN,
            rx_gain: NS2_ANTENNA_GAIN,
            system_loss: NS2_SYSTEM_LOSS,
            antenna_height_m: NS2_ANTENNA_HEIGHT_M,
        }
    }

    /// Checks every field is finite and positive (the height may be zero, not negative).
    pub fn validate(&self) -> Result<(), ParamError> {
        positive("frequency_hz", self.frequency_hz)?;
        positive("tx_gain", self.tx_gain)?;
        positive("rx_gain", self.rx_gain)?;
        positive("system_loss", self.system_loss)?;
        crate::error::non_negative("antenna_height_m", self.antenna_height_m)?;
        Ok(())
    }

    /// Wavelength, m.
    pub fn wavelength_m(&self) -> f64 {
        wavelength_m(self.frequency_hz)
    }
}

impl Default for RadioGeometry {
    fn default() -> Self {
        RadioGeometry::ns2_wavelan()
    }
}

/// A propagation model. All variants are deterministic except [`Shadowing`], which draws a
/// log-normal term per call of [`PropagationModel::rx_power_w`].
#[derive(Clone, Debug, PartialEq)]
pub enum PropagationModel {
    /// Friis free space.
    FreeSpace(FreeSpace),
    /// ns-2 two-ray ground reflection with the Friis/two-ray cross-over.
    TwoRayGround(TwoRayGround),
    /// Log-distance path loss.
    LogDistance(LogDistance),
    /// ns-2 log-normal shadowing.
    Shadowing(Shadowing),
}

impl PropagationModel {
    /// ns-2's default wireless channel: two-ray ground with the WaveLAN radio.
    pub fn ns2_default() -> Self {
        PropagationModel::TwoRayGround(TwoRayGround {
            radio: RadioGeometry::ns2_wavelan(),
        })
    }

    /// Received power of one frame, W. `rng` is drawn from only by [`Shadowing`] (one normal
    /// draw per call); the deterministic models leave it untouched, so switching models does
    /// not shift other draws of the same stream.
    pub fn rx_power_w(&self, pt_w: f64, tx: Position, rx: Position, rng: &mut Rng) -> f64 {
        match self {
            PropagationModel::Shadowing(m) => m.rx_power_w(pt_w, tx, rx, rng),
            _ => self.mean_rx_power_w(pt_w, tx, rx),
        }
    }

    /// Received power without the random shadowing term, W (for shadowing: the power the
    /// log-distance part predicts, i.e. the median).
    pub fn mean_rx_power_w(&self, pt_w: f64, tx: Position, rx: Position) -> f64 {
        match self {
            PropagationModel::FreeSpace(m) => m.rx_power_w(pt_w, tx, rx),
            PropagationModel::TwoRayGround(m) => m.rx_power_w(pt_w, tx, rx),
            PropagationModel::LogDistance(m) => m.rx_power_w(pt_w, tx, rx),
            PropagationModel::Shadowing(m) => m.median_rx_power_w(pt_w, tx, rx),
        }
    }

    /// Mean received power between two nodes on the ground `d_m` apart, W.
    pub fn mean_rx_power_at_w(&self, pt_w: f64, d_m: f64) -> f64 {
        self.mean_rx_power_w(pt_w, Position::xy(0.0, 0.0), Position::xy(d_m, 0.0))
    }

    /// Checks the model's parameters.
    pub fn validate(&self) -> Result<(), ParamError> {
        match self {
            PropagationModel::FreeSpace(m) => m.radio.validate(),
            PropagationModel::TwoRayGround(m) => m.validate(),
            PropagationModel::LogDistance(m) => m.validate(),
            PropagationModel::Shadowing(m) => m.validate(),
        }
    }
}

impl Default for PropagationModel {
    fn default() -> Self {
        PropagationModel::ns2_default()
    }
}

/// The largest ground distance, m, at which the model's *mean* received power is still
/// `≥ threshold_w`: the inverse of [`PropagationModel::mean_rx_power_at_w`], by bisection
/// (mean power is non-increasing in distance for every model here).
///
/// Returns 0 if even 1 mm is out of range and `f64::INFINITY` if 10⁹ m is still in range. For
/// [`Shadowing`] this is the range of the median; the spatial grid needs a margin on top of it
/// (see [`Shadowing::range_with_margin_m`]).
pub fn range_for_threshold_m(model: &PropagationModel, pt_w: f64, threshold_w: f64) -> f64 {
    let ok = |d: f64| model.mean_rx_power_at_w(pt_w, d) >= threshold_w;
    let mut lo = 1e-3;
    if !ok(lo) {
        return 0.0;
    }
    let mut hi = 1.0;
    while ok(hi) {
        lo = hi;
        hi *= 2.0;
        if hi > 1e9 {
            return f64::INFINITY;
        }
    }
    // Invariant: ok(lo), !ok(hi).
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-9 * hi {
            break;
        }
    }
    lo
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::reception::threshold::{NS2_CS_THRESH_W, NS2_RX_THRESH_W};

    #[test]
    fn wavelength_and_delay() {
        assert!((wavelength_m(914e6) - 0.328_000_501).abs() < 1e-9);
        assert_eq!(propagation_delay(299.792458), SimDuration::from_nanos(1000));
        assert_eq!(propagation_delay(250.0), SimDuration::from_nanos(834));
        assert_eq!(propagation_delay(-1.0), SimDuration::ZERO);
    }

    #[test]
    fn ns2_ranges_by_bisection() {
        let m = PropagationModel::ns2_default();
        let rx = range_for_threshold_m(&m, NS2_TX_POWER_W, NS2_RX_THRESH_W);
        let cs = range_for_threshold_m(&m, NS2_TX_POWER_W, NS2_CS_THRESH_W);
        assert!((rx - 250.0).abs() / 250.0 < 0.005, "{rx}");
        assert!((cs - 550.0).abs() / 550.0 < 0.005, "{cs}");
        // The inverse really is the boundary.
        assert!(m.mean_rx_power_at_w(NS2_TX_POWER_W, rx) >= NS2_RX_THRESH_W);
        assert!(m.mean_rx_power_at_w(NS2_TX_POWER_W, rx * (1.0 + 1e-6)) < NS2_RX_THRESH_W);
    }

    #[test]
    fn range_edge_cases() {
        let m = PropagationModel::ns2_default();
        assert_eq!(range_for_threshold_m(&m, 1.0, 10.0), 0.0);
        assert_eq!(range_for_threshold_m(&m, 1.0, 0.0), f64::INFINITY);
        let fs = PropagationModel::FreeSpace(FreeSpace {
            radio: RadioGeometry::ns2_wavelan(),
        });
        // Free space decays as d², so it reaches farther than two-ray beyond the cross-over.
        assert!(
            range_for_threshold_m(&fs, NS2_TX_POWER_W, NS2_RX_THRESH_W)
                > range_for_threshold_m(&m, NS2_TX_POWER_W, NS2_RX_THRESH_W)
        );
    }

    #[test]
    fn deterministic_models_do_not_draw() {
        let m = PropagationModel::ns2_default();
        let mut a = Rng::from_seed(3);
        let b = a.clone();
        let p = m.rx_power_w(1.0, Position::xy(0.0, 0.0), Position::xy(50.0, 0.0), &mut a);
        assert_eq!(a.next_u64(), b.clone().next_u64());
        assert!(p > 0.0);
        assert!(m.validate().is_ok());
        let mut bad = RadioGeometry::ns2_wavelan();
        bad.frequency_hz = 0.0;
        assert_eq!(bad.validate().unwrap_err().field, "frequency_hz");
    }
}
