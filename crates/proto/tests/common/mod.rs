//! Shared test support.

pub mod tcp_pair;
