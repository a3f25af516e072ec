//! sctpsim-world: the physical world around the radios — where nodes are, how much power
//! reaches a receiver, and whether a frame survives. Everything here is a pure function of
//! position, time and power (plus an explicitly passed random stream): no engine, no events.
//!
//! * [`geometry`]: [`Position`], [`Velocity`], [`Area`] (f64 metres; time stays integer ns).
//! * [`propagation`]: free space (Friis), two-ray ground with ns-2's cross-over distance,
//!   log-distance and log-normal shadowing ([`PropagationModel`]), the inverse
//!   [`range_for_threshold_m`] and the propagation delay.
//! * [`reception`]: ns-2's threshold reception (RXThresh/CSThresh/CPThresh) and SINR reception
//!   with 802.11b DSSS/CCK and 802.11a/g OFDM error-rate models.
//! * [`frame_error`]: the distance-dependent frame error model of the Mobile IP study.
//! * [`mobility`]: lazily evaluated mobility models and the ns-2 `setdest` / BonnMotion importers.
//!
//! Documentation of every model, with formulas, sources and validation: `docs/models/phy.md`
//! and `docs/models/mobility.md`.

pub mod error;
pub mod frame_error;
pub mod geometry;
pub mod math;
pub mod mobility;
pub mod power;
pub mod propagation;
pub mod reception;

pub use error::{ImportError, ParamError};
pub use frame_error::{FrameErrorUnit, FrameErrorVsDistance};
pub use geometry::{Area, Position, Velocity};
pub use mobility::{Leg, Mobility, MobilityModel, Trajectory};
pub use propagation::{range_for_threshold_m, PropagationModel};
pub use reception::{chunk_success_rate, WifiMode};
