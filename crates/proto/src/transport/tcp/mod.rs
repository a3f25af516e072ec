//! TCP (RFC 9293) as a sans-IO state machine, with the loss recovery variants the studies
//! compare: Reno (RFC 5681), NewReno (RFC 6582), SACK (RFC 2018 + RFC 6675) and ns-2's
//! `Agent/TCP/Sack1` recovery, timestamps
//! (RFC 7323), delayed ACKs, RFC 6298 retransmission timers, limited transmit (RFC 3042) and
//! every knob in [`TcpConfig`], with `ns2` profiles (ns-2.35, 2003, 2001).
//!
//! * [`TcpConnection`]: one endpoint; see its documentation for the call order.
//! * [`TcpConfig`]: every parameter with its source; [`TcpConfig::rfc`] and
//!   [`TcpConfig::ns2`].
//! * [`TcpEvent`]: connection outcomes; [`TcpMetric`]: measurements; [`TcpStats`]: per-flow
//!   counters.
//! * [`TcpApplication`]: the backlogged FTP and N-byte file sources.
//! * [`congestion`]: the window arithmetic behind a narrow trait; [`sack`]: the scoreboard.
//!
//! The model's scope, deviations and validation are in `docs/models/tcp.md`.

mod config;
pub mod congestion;
mod connection;
mod event;
mod recv;
pub mod rtt;
pub mod sack;
mod send;
mod state;
mod stats;
pub mod timers;

#[cfg(test)]
mod tests;

pub use crate::app::TcpApplication;
pub use config::{PartialAckTimer, RtoModel, TcpConfig, TcpVariant};
#[doc(hidden)]
pub use connection::fuzz_check_invariants;
pub use connection::{TcpConnection, DEFAULT_PEER_MSS, MIN_PEER_MSS, TIMESTAMP_OPTION_LEN};
pub use event::{TcpEvent, TcpMetric};
pub use send::backlog_byte;
pub use state::State;
pub use stats::TcpStats;
