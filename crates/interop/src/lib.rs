//! Interoperation of sctpsim's SCTP with usrsctp (the FreeBSD SCTP stack in user space, used by
//! browsers for WebRTC data channels), deterministic and in virtual time.
//!
//! usrsctp can run without threads, driven by its caller's clock (`usrsctp_init_nothreads`,
//! `usrsctp_handle_timers`), with packets handed over in memory (`AF_CONN`). The harness
//! ([`harness::run`]) joins an sctpsim endpoint and a usrsctp socket through an impaired path
//! ([`path`]: loss, duplication, reordering, delay, from a seed), both as client and as server,
//! sends messages both ways on several streams, ordered, unordered and PR-SCTP ([`plan`]), ends
//! with a graceful shutdown or an abort, and checks every packet with the other side's parser.
//!
//! The library-independent parts ([`path`], [`plan`]) always build; the harness and the
//! bindings need the `usrsctp` feature and the system library (Debian `libusrsctp-dev`).
//! Run: `cargo run --release -p sctpsim-interop --features usrsctp --bin
//! sctpsim-usrsctp-interop -- --seeds 1000`, or `sctpsim verify usrsctp`. Results and the
//! behaviour differences: `docs/models/sctp.md`, "Interoperation with usrsctp".

pub mod path;
pub mod plan;

#[cfg(feature = "usrsctp")]
pub mod ffi;
#[cfg(feature = "usrsctp")]
pub mod harness;
pub mod known;
#[cfg(feature = "usrsctp")]
pub mod usrsctp;
#[cfg(feature = "usrsctp")]
pub mod virtual_env;
