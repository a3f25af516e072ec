//! IP in IP encapsulation (RFC 2003), the tunnel a home agent uses to deliver a mobile node's
//! datagrams to its care-of address (RFC 5944 §4.1), and the reverse tunnel of RFC 3024.
//!
//! The inner datagram travels unchanged behind a fresh 20-byte outer header with protocol 4.

use std::net::Ipv4Addr;

use crate::ipv4::{ipv4_datagram, IpProtocol, Ipv4Packet, Ipv4Repr};
use crate::{Result, WireError};

/// RFC 2003 §3.1 asks for an outer TTL "large enough to deliver the encapsulated datagram to the
/// tunnel exit point"; with no route length known, the IP default TTL of the IANA registry
/// (64, RFC 1700 "IP TTL") is the usual choice.
pub const DEFAULT_OUTER_TTL: u8 = 64;

/// Encapsulates the complete IPv4 datagram `inner` in an outer header from `tunnel_src` (the
/// entry point, e.g. the home agent) to `tunnel_dst` (the exit point, e.g. the care-of address).
///
/// The outer header follows RFC 2003 §3.1: protocol 4, the DSCP (the old TOS) copied from the
/// inner header, DF set if and only if the inner header has it (§3.1 requires it when set and
/// lets it be set otherwise; copying keeps path MTU discovery working end to end), TTL `ttl`
/// (see [`DEFAULT_OUTER_TTL`]), identification `ident`, a real header checksum. The inner header
/// is not touched: a router that tunnels while forwarding decrements the inner TTL first
/// (§3.1), e.g. with [`crate::decrement_ttl_in_place`].
///
/// Bytes of `inner` beyond its total length (link padding) are not carried.
///
/// Errors: those of [`Ipv4Packet::new_checked`] and [`WireError::BadChecksum`] for an invalid
/// inner datagram (a tunnel entry must not launder a corrupt header); [`WireError::Malformed`]
/// if the result would exceed 65535 bytes (§5.1 would then need fragmentation, which sctpsim
/// does not model).
pub fn ipip_encapsulate(
    inner: &[u8],
    tunnel_src: Ipv4Addr,
    tunnel_dst: Ipv4Addr,
    ttl: u8,
    ident: u16,
) -> Result<Vec<u8>> {
    let packet = Ipv4Packet::new_checked(inner)?;
    if !packet.verify_checksum() {
        return Err(WireError::BadChecksum);
    }
    let inner = &inner[..usize::from(packet.total_len())];
    let outer = Ipv4Repr {
        src_addr: tunnel_src,
        dst_addr: tunnel_dst,
        protocol: IpProtocol::IpInIp,
        payload_len: inner.len(),
        ttl,
        ident,
        dscp: packet.dscp(),
        dont_frag: packet.dont_frag(),
    };
    ipv4_datagram(&outer, inner)
}

/// Checks the outer header of a tunnelled datagram and returns it with the inner datagram (a
/// slice of `outer`, exactly its total length), as the tunnel exit point does (RFC 2003 §3).
///
/// Errors: those of [`Ipv4Repr::parse`] for the outer header; [`WireError::Unsupported`] if the
/// outer protocol is not 4; for the inner datagram, those of [`Ipv4Packet::new_checked`],
/// [`WireError::BadChecksum`], and [`WireError::Malformed`] if its total length is not exactly
/// the outer payload.
pub fn ipip_decapsulate(outer: &[u8]) -> Result<(Ipv4Repr, &[u8])> {
    let packet = Ipv4Packet::new_checked(outer)?;
    let repr = Ipv4Repr::parse(&packet)?;
    if repr.protocol != IpProtocol::IpInIp {
        return Err(WireError::Unsupported);
    }
    let start = usize::from(packet.header_len());
    let inner = &outer[start..start + repr.payload_len];
    let inner_packet = Ipv4Packet::new_checked(inner)?;
    if !inner_packet.verify_checksum() {
        return Err(WireError::BadChecksum);
    }
    if usize::from(inner_packet.total_len()) != inner.len() {
        return Err(WireError::Malformed);
    }
    Ok((repr, inner))
}
