//! Traffic sources and sinks.
//!
//! * [`CbrSource`]: constant bit rate (ns-2 `Application/Traffic/CBR`, ns-3 `OnOffApplication`
//!   with an always-on period).
//! * [`FileSource`]: a file of N bytes sent in packets at a fixed rate (over UDP it has no
//!   feedback; over TCP/SCTP the transport paces it).
//! * [`DatagramSink`]: counts what arrives, one-way delay from the [`SeqTsHeader`], losses and
//!   reordering from the sequence numbers.

mod cbr;
mod header;
mod sink;

pub use cbr::{CbrConfig, CbrSource, FileSource};
pub use header::SeqTsHeader;
pub use sink::{DatagramSink, SinkStats};
