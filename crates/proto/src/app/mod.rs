//! Traffic sources and sinks.
//!
//! * [`CbrSource`]: constant bit rate (ns-2 `Application/Traffic/CBR`, ns-3 `OnOffApplication`
//!   with an always-on period).
//! * [`FileSource`]: a file of N bytes sent in packets at a fixed rate (over UDP it has no
//!   feedback; over TCP/SCTP the transport paces it).
//! * [`DatagramSink`]: counts what arrives, one-way delay from the [`SeqTsHeader`], losses and
//!   reordering from the sequence numbers.
//! * [`MessageSource`] and [`MessageSink`]: the message application of SCTP flows (`ftp`,
//!   `file`, paced multi-stream `messages`), the sink checking every message and measuring its
//!   delay per stream.
//! * [`TcpApplication`]: the backlogged FTP and N-byte file sources of TCP flows.

mod cbr;
mod header;
mod messages;
mod sink;
mod tcp;

pub use cbr::{CbrConfig, CbrSource, FileSource};
pub use header::SeqTsHeader;
pub use messages::{
    make_message, MessageSink, MessageSinkStats, MessageSource, MessageSourceConfig, StreamRx, PPID,
};
pub use sink::{DatagramSink, SinkStats};
pub use tcp::TcpApplication;
