//! sctpsim-proto: protocols as sans-IO state machines (DESIGN.md §1.1).
//!
//! Nothing in this crate reads a clock, schedules on a simulator or touches another node. Each
//! state machine is driven from outside: `handle_*(now, input)`, then `poll_transmit(now)` and
//! `poll_timeout()`. A wake-up at a time when nothing is due is a harmless no-op, so the engine
//! never cancels queued events.

pub mod app;
pub mod mac;
pub mod mobileip;
pub mod routing;
pub mod transport;
