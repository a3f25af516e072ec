//! Transport protocols as sans-IO state machines: [`tcp`] (Reno, NewReno, SACK).

pub mod tcp;
