//! Wire formats of sctpsim: zero-copy packet views and owned representations of the headers that
//! cross a simulated link, plus a pcap writer for captures.
//!
//! Every codec follows the same pattern (DESIGN.md §1.4):
//!
//! * a `*Packet<T: AsRef<[u8]>>` wrapper that reads and writes fields in place. Build it with
//!   `new_checked` for untrusted bytes (it validates every length the accessors rely on) or
//!   `new_unchecked` for a buffer you are about to fill;
//! * a `*Repr` value type with `parse` (which verifies checksums) and `emit` (which writes a
//!   complete header with a real checksum), and `header_len` / `buffer_len` for sizing buffers.
//!
//! Nothing in this crate panics on packet content: parsers return [`WireError`].
//!
//! ```
//! use sctpsim_wire::{
//!     decrement_ttl_in_place, icmp_error_datagram, udp_datagram, IcmpError, Icmpv4Message,
//!     Icmpv4Packet, Ipv4Addr, Ipv4Packet, Ipv4Repr, UdpPacket, UdpRepr,
//! };
//!
//! let (a, b) = (Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 1, 2));
//! let udp = UdpRepr { src_port: 40000, dst_port: 9 };
//! let mut bytes = udp_datagram(a, b, 2, 7, &udp, b"hello");
//!
//! // A receiver parses layer by layer; both checksums are real.
//! let ip = Ipv4Packet::new_checked(&bytes[..])?;
//! let ip_repr = Ipv4Repr::parse(&ip)?;
//! let datagram = UdpPacket::new_checked(ip.payload())?;
//! assert_eq!(UdpRepr::parse(&datagram, ip_repr.src_addr, ip_repr.dst_addr)?, udp);
//! assert_eq!(datagram.payload(), b"hello");
//!
//! // Two routers forward it; the second one finds the TTL exhausted.
//! assert_eq!(decrement_ttl_in_place(&mut bytes)?, 1);
//! assert_eq!(decrement_ttl_in_place(&mut bytes)?, 0);
//! let router = Ipv4Addr::new(10, 0, 0, 254);
//! let error = icmp_error_datagram(IcmpError::TtlExceeded, router, 64, 1, &bytes).unwrap();
//! let ip = Ipv4Packet::new_checked(&error[..])?;
//! assert_eq!(ip.dst_addr(), a);
//! let icmp = Icmpv4Packet::new_checked(ip.payload())?;
//! assert_eq!(icmp.msg_type(), Icmpv4Message::TimeExceeded);
//! # Ok::<(), sctpsim_wire::WireError>(())
//! ```

pub mod aodv;
pub mod checksum;
pub mod crc32;
pub mod dsdv;
pub mod dsr;
mod error;
pub mod icmp;
pub mod ieee80211;
pub mod ipv4;
pub mod mip;
pub mod olsr;
pub mod pcap;
pub mod sctp;
pub mod tcp;
pub mod udp;

pub use error::WireError;
pub use icmp::{
    icmp_error_datagram, DstUnreachable, IcmpError, Icmpv4Message, Icmpv4Packet, Icmpv4Repr,
};
pub use ieee80211::MacAddr;
pub use ipv4::{decrement_ttl_in_place, ipv4_datagram, IpProtocol, Ipv4Packet, Ipv4Repr};
pub use pcap::PcapWriter;
pub use sctp::{sctp_packet, ChunkRepr, SctpPacket, SctpRepr};
pub use std::net::Ipv4Addr;
pub use tcp::{tcp_segment, TcpFlags, TcpOption, TcpPacket, TcpRepr, TcpSeqNumber, TcpTimestamp};
pub use udp::{udp_datagram, UdpPacket, UdpRepr};

/// Result of a parse: the value or the [`WireError`] explaining why the bytes were rejected.
pub type Result<T> = core::result::Result<T, WireError>;

/// Big-endian field access. Callers check lengths first; these index directly.
mod be {
    pub(crate) fn read_u16(data: &[u8], at: usize) -> u16 {
        u16::from_be_bytes([data[at], data[at + 1]])
    }

    pub(crate) fn write_u16(data: &mut [u8], at: usize, value: u16) {
        data[at..at + 2].copy_from_slice(&value.to_be_bytes());
    }
}

/// Entry point for a fuzz target: parses `data` as an IPv4 packet and, inside it, a UDP or ICMP
/// message, exercising every accessor and the router helpers. Errors are ignored; the only
/// failure a fuzzer can find here is a panic.
pub fn fuzz_parse_ipv4_stack(data: &[u8]) {
    // Router helpers work on whole buffers.
    let mut copy = data.to_vec();
    let _ = decrement_ttl_in_place(&mut copy);
    let _ = icmp_error_datagram(
        IcmpError::TtlExceeded,
        Ipv4Addr::new(10, 0, 0, 1),
        64,
        1,
        data,
    );

    let Ok(packet) = Ipv4Packet::new_checked(data) else {
        return;
    };
    let _ = (
        packet.version(),
        packet.header_len(),
        packet.dscp(),
        packet.ecn(),
        packet.total_len(),
        packet.ident(),
        packet.dont_frag(),
        packet.more_frags(),
        packet.frag_offset(),
        packet.ttl(),
        packet.checksum(),
        packet.src_addr(),
        packet.dst_addr(),
        packet.options(),
        packet.verify_checksum(),
    );
    let repr = Ipv4Repr::parse(&packet);
    let (src, dst) = (packet.src_addr(), packet.dst_addr());
    let payload = packet.payload();
    match packet.protocol() {
        IpProtocol::Udp => {
            if let Ok(udp) = UdpPacket::new_checked(payload) {
                let _ = (udp.src_port(), udp.dst_port(), udp.len(), udp.checksum());
                let _ = udp.payload();
                let _ = udp.verify_checksum(src, dst);
                if let Ok(udp_repr) = UdpRepr::parse(&udp, src, dst) {
                    let _ = udp_repr.buffer_len(udp.payload().len());
                }
            }
        }
        IpProtocol::Icmp => {
            if let Ok(icmp) = Icmpv4Packet::new_checked(payload) {
                let _ = (icmp.msg_type(), icmp.code(), icmp.checksum());
                let _ = (icmp.echo_ident(), icmp.echo_seq_no(), icmp.next_hop_mtu());
                let _ = icmp.data();
                let _ = icmp.verify_checksum();
                if let Ok(icmp_repr) = Icmpv4Repr::parse(&icmp) {
                    let _ = icmp_repr.buffer_len();
                }
            }
        }
        _ => {}
    }
    if let Ok(repr) = repr {
        let _ = repr.buffer_len();
    }
}
