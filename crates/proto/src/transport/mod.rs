//! Transport protocols as sans-IO state machines: [`tcp`] (Reno, NewReno, SACK) and [`sctp`]
//! (RFC 9260 associations with multi-homing, ASCONF, PR-SCTP).

pub mod sctp;
pub mod tcp;
