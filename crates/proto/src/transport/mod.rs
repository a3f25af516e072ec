//! Transport protocols as sans-IO state machines: [`tcp`] (Reno, NewReno, SACK) and [`sctp`]
//! (RFC 9260 associations with multi-homing, ASCONF, PR-SCTP).
//!
//! Both have the same shape towards an engine: bytes in (`handle_packet` of a TCP connection,
//! `handle_datagram` of an SCTP endpoint, with the addresses from the IP header), [`Transmit`]s
//! out (`poll_transmit`), a deadline (`poll_timeout`), outcomes (`poll_event`) and measurements
//! (`poll_metric`). The engine only wraps a [`Transmit`] in IPv4 and routes it.

use std::net::Ipv4Addr;

pub mod sctp;
pub mod tcp;

/// A packet a transport wants sent: the protocol chose both addresses (SCTP picks the path and
/// its source address, RFC 9260 §6.4), and `payload` is the complete transport packet — a TCP
/// segment with its header and checksum, or an SCTP packet with its CRC32c — ready to be the
/// payload of an IPv4 packet from `src` to `dst`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmit {
    /// Source IPv4 address.
    pub src: Ipv4Addr,
    /// Destination IPv4 address.
    pub dst: Ipv4Addr,
    /// The transport packet, as on the wire.
    pub payload: Vec<u8>,
}
