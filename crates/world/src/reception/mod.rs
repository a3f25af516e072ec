//! Reception: whether a radio hears, decodes or loses a frame.
//!
//! * [`threshold`]: ns-2's power thresholds (RXThresh, CSThresh, CPThresh) — a pure decision
//!   on received powers.
//! * [`mod@sinr`]: SINR with cumulative interference, chunk by chunk, using the 802.11 error-rate
//!   models of [`error_models`] ([`dsss`] for 802.11/802.11b, [`ofdm`] for 802.11a/g).

pub mod dsss;
pub mod error_models;
pub mod mode;
pub mod ofdm;
pub mod sinr;
pub mod threshold;

pub use error_models::{
    bit_error_rate, chunk_success_rate, chunk_success_rate_bits, min_snr_for_success,
};
pub use mode::{CodeRate, Modulation, WifiMode};
pub use sinr::{sinr, Interferer, Segment, SinrReception};
pub use threshold::{Detection, Overlap, ThresholdReception};
