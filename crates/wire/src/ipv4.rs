//! IPv4 (RFC 791 §3.1): the packet view [`Ipv4Packet`], the header representation
//! [`Ipv4Repr`], protocol numbers [`IpProtocol`] and the router helper
//! [`decrement_ttl_in_place`].
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |Version|  IHL  |    DSCP   |ECN|          Total Length         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |         Identification        |Flags|      Fragment Offset    |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Time to Live |    Protocol   |         Header Checksum       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                       Source Address                          |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                    Destination Address                        |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                    Options                    |    Padding    |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use core::fmt;
use std::net::Ipv4Addr;

use crate::be::{read_u16, write_u16};
use crate::checksum;
use crate::{Result, WireError};

/// RFC 791 §3.1: "Version: 4 bits ... this document describes version 4".
pub const VERSION: u8 = 4;

/// RFC 791 §3.1: "the minimum value for a correct header is 5" 32-bit words, i.e. 20 bytes.
pub const MIN_HEADER_LEN: usize = 20;

/// RFC 791 §3.1: IHL is 4 bits of 32-bit words, so a header is at most 60 bytes.
pub const MAX_HEADER_LEN: usize = 60;

/// RFC 791 §3.1: "Total Length is the length of the datagram ... is 16 bits", so at most 65535.
pub const MAX_PACKET_LEN: usize = 65_535;

/// RFC 791 §3.1: flag bit 1, "DF: 0 = May Fragment, 1 = Don't Fragment" (mask on the 16-bit
/// flags/fragment-offset word).
const FLAG_DF: u16 = 0x4000;
/// RFC 791 §3.1: flag bit 2, "MF: 0 = Last Fragment, 1 = More Fragments".
const FLAG_MF: u16 = 0x2000;
/// RFC 791 §3.1: the fragment offset is the low 13 bits, in units of 8 octets.
const FRAG_OFFSET_MASK: u16 = 0x1fff;

/// Byte ranges of the fixed header (RFC 791 §3.1).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const VER_IHL: usize = 0;
    pub(crate) const DSCP_ECN: usize = 1;
    pub(crate) const LENGTH: Field = 2..4;
    pub(crate) const IDENT: Field = 4..6;
    pub(crate) const FLG_OFF: Field = 6..8;
    pub(crate) const TTL: usize = 8;
    pub(crate) const PROTOCOL: usize = 9;
    pub(crate) const CHECKSUM: Field = 10..12;
    pub(crate) const SRC_ADDR: Field = 12..16;
    pub(crate) const DST_ADDR: Field = 16..20;
}

/// An IP protocol number (the IPv4 "Protocol" field), as assigned by IANA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IpProtocol {
    /// RFC 792: Internet Control Message Protocol, number 1.
    Icmp,
    /// RFC 9293: Transmission Control Protocol, number 6.
    Tcp,
    /// RFC 768: User Datagram Protocol, number 17.
    Udp,
    /// RFC 9260: Stream Control Transmission Protocol, number 132.
    Sctp,
    /// RFC 2003: IP in IP encapsulation (used by Mobile IP tunnels), number 4.
    IpInIp,
    /// Any other protocol number.
    Unknown(u8),
}

impl From<u8> for IpProtocol {
    fn from(value: u8) -> Self {
        match value {
            1 => IpProtocol::Icmp,
            4 => IpProtocol::IpInIp,
            6 => IpProtocol::Tcp,
            17 => IpProtocol::Udp,
            132 => IpProtocol::Sctp,
            other => IpProtocol::Unknown(other),
        }
    }
}

impl From<IpProtocol> for u8 {
    fn from(value: IpProtocol) -> Self {
        match value {
            IpProtocol::Icmp => 1,
            IpProtocol::IpInIp => 4,
            IpProtocol::Tcp => 6,
            IpProtocol::Udp => 17,
            IpProtocol::Sctp => 132,
            IpProtocol::Unknown(other) => other,
        }
    }
}

impl fmt::Display for IpProtocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IpProtocol::Icmp => f.write_str("ICMP"),
            IpProtocol::Tcp => f.write_str("TCP"),
            IpProtocol::Udp => f.write_str("UDP"),
            IpProtocol::Sctp => f.write_str("SCTP"),
            IpProtocol::IpInIp => f.write_str("IP-in-IP"),
            IpProtocol::Unknown(n) => write!(f, "protocol {n}"),
        }
    }
}

/// A read/write view of an IPv4 packet in a buffer.
///
/// Build it with [`Ipv4Packet::new_checked`] for bytes from the wire: afterwards every accessor
/// is safe. With [`Ipv4Packet::new_unchecked`] the field accessors panic if the buffer is shorter
/// than the field they touch (payload accessors never panic; they return an empty slice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ipv4Packet<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Ipv4Packet<T> {
    /// Wraps a buffer without checking it; see [`Ipv4Packet::check_len`].
    pub const fn new_unchecked(buffer: T) -> Self {
        Ipv4Packet { buffer }
    }

    /// Wraps a buffer after [`Ipv4Packet::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let packet = Self::new_unchecked(buffer);
        packet.check_len()?;
        Ok(packet)
    }

    /// Checks that every accessor can run on this buffer: the fixed header fits, the version is
    /// 4, IHL is at least 5 and the header fits, and the total length covers the header and fits
    /// in the buffer (trailing bytes beyond the total length, e.g. link padding, are allowed).
    ///
    /// Returns [`WireError::Truncated`] when bytes are missing and [`WireError::Malformed`] for
    /// impossible field values. The checksum is not checked here.
    pub fn check_len(&self) -> Result<()> {
        let len = self.buffer.as_ref().len();
        if len < MIN_HEADER_LEN {
            return Err(WireError::Truncated);
        }
        if self.version() != VERSION {
            return Err(WireError::Malformed);
        }
        let header_len = usize::from(self.header_len());
        if header_len < MIN_HEADER_LEN {
            return Err(WireError::Malformed);
        }
        if header_len > len {
            return Err(WireError::Truncated);
        }
        let total_len = usize::from(self.total_len());
        if total_len < header_len {
            return Err(WireError::Malformed);
        }
        if total_len > len {
            return Err(WireError::Truncated);
        }
        Ok(())
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// RFC 791 §3.1: the version field (4 for IPv4).
    pub fn version(&self) -> u8 {
        self.buffer.as_ref()[field::VER_IHL] >> 4
    }

    /// RFC 791 §3.1: the header length in bytes (IHL × 4), options included.
    pub fn header_len(&self) -> u8 {
        (self.buffer.as_ref()[field::VER_IHL] & 0x0f) * 4
    }

    /// RFC 2474 §3: the Differentiated Services Code Point (upper 6 bits of the former TOS).
    pub fn dscp(&self) -> u8 {
        self.buffer.as_ref()[field::DSCP_ECN] >> 2
    }

    /// RFC 3168 §5: the ECN field (lower 2 bits of the former TOS).
    pub fn ecn(&self) -> u8 {
        self.buffer.as_ref()[field::DSCP_ECN] & 0x03
    }

    /// RFC 791 §3.1: the total length of the datagram in bytes, header included.
    pub fn total_len(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::LENGTH.start)
    }

    /// RFC 791 §3.1: the identification field.
    pub fn ident(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::IDENT.start)
    }

    fn flags_offset(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::FLG_OFF.start)
    }

    /// RFC 791 §3.1: the Don't Fragment flag.
    pub fn dont_frag(&self) -> bool {
        self.flags_offset() & FLAG_DF != 0
    }

    /// RFC 791 §3.1: the More Fragments flag.
    pub fn more_frags(&self) -> bool {
        self.flags_offset() & FLAG_MF != 0
    }

    /// RFC 791 §3.1: the fragment offset, converted to bytes.
    pub fn frag_offset(&self) -> u16 {
        (self.flags_offset() & FRAG_OFFSET_MASK) << 3
    }

    /// RFC 791 §3.1: the time to live.
    pub fn ttl(&self) -> u8 {
        self.buffer.as_ref()[field::TTL]
    }

    /// RFC 791 §3.1: the protocol of the payload.
    pub fn protocol(&self) -> IpProtocol {
        IpProtocol::from(self.buffer.as_ref()[field::PROTOCOL])
    }

    /// RFC 791 §3.1: the header checksum field as stored.
    pub fn checksum(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::CHECKSUM.start)
    }

    /// RFC 791 §3.1: the source address.
    pub fn src_addr(&self) -> Ipv4Addr {
        let d = self.buffer.as_ref();
        Ipv4Addr::new(d[12], d[13], d[14], d[15])
    }

    /// RFC 791 §3.1: the destination address.
    pub fn dst_addr(&self) -> Ipv4Addr {
        let d = self.buffer.as_ref();
        Ipv4Addr::new(d[16], d[17], d[18], d[19])
    }

    /// Header length and total length read without panicking, or `None` if the buffer is too
    /// short to hold those fields.
    fn lengths(&self) -> Option<(usize, usize)> {
        let data = self.buffer.as_ref();
        let header_len = usize::from(data.first()? & 0x0f) * 4;
        let total_len = data.get(field::LENGTH)?;
        Some((
            header_len,
            usize::from(u16::from_be_bytes([total_len[0], total_len[1]])),
        ))
    }

    /// The option bytes between the fixed header and the payload (empty if the header length is
    /// inconsistent with the buffer; never panics).
    pub fn options(&self) -> &[u8] {
        let header_len = self.lengths().map_or(0, |(h, _)| h);
        self.buffer
            .as_ref()
            .get(MIN_HEADER_LEN..header_len)
            .unwrap_or(&[])
    }

    /// RFC 791 §3.1: whether the header checksum is valid, i.e. the one's complement sum of the
    /// header (options included) is all ones. False if the header does not fit in the buffer
    /// (never panics).
    pub fn verify_checksum(&self) -> bool {
        let Some((header_len, _)) = self.lengths() else {
            return false;
        };
        match self.buffer.as_ref().get(..header_len) {
            Some(header) if header_len >= MIN_HEADER_LEN => {
                checksum::internet_checksum(header) == 0
            }
            _ => false,
        }
    }

    /// The payload: the bytes between the header and the total length. Empty if the header or
    /// total length are inconsistent with the buffer (never panics).
    pub fn payload(&self) -> &[u8] {
        let (header_len, total_len) = self.lengths().unwrap_or((0, 0));
        self.buffer
            .as_ref()
            .get(header_len..total_len)
            .unwrap_or(&[])
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Ipv4Packet<T> {
    /// Sets the version field.
    pub fn set_version(&mut self, version: u8) {
        let b = &mut self.buffer.as_mut()[field::VER_IHL];
        *b = (*b & 0x0f) | (version << 4);
    }

    /// Sets the header length in bytes (must be a multiple of 4, at most 60).
    pub fn set_header_len(&mut self, len: u8) {
        let b = &mut self.buffer.as_mut()[field::VER_IHL];
        *b = (*b & 0xf0) | ((len / 4) & 0x0f);
    }

    /// Sets the DSCP (6 bits; higher bits are dropped).
    pub fn set_dscp(&mut self, dscp: u8) {
        let b = &mut self.buffer.as_mut()[field::DSCP_ECN];
        *b = (*b & 0x03) | (dscp << 2);
    }

    /// Sets the ECN field (2 bits; higher bits are dropped).
    pub fn set_ecn(&mut self, ecn: u8) {
        let b = &mut self.buffer.as_mut()[field::DSCP_ECN];
        *b = (*b & 0xfc) | (ecn & 0x03);
    }

    /// Sets the total length.
    pub fn set_total_len(&mut self, len: u16) {
        write_u16(self.buffer.as_mut(), field::LENGTH.start, len);
    }

    /// Sets the identification field.
    pub fn set_ident(&mut self, ident: u16) {
        write_u16(self.buffer.as_mut(), field::IDENT.start, ident);
    }

    fn set_flags_offset(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::FLG_OFF.start, value);
    }

    /// Clears the flags and the fragment offset.
    pub fn clear_flags(&mut self) {
        self.set_flags_offset(0);
    }

    /// Sets or clears the Don't Fragment flag.
    pub fn set_dont_frag(&mut self, value: bool) {
        let raw = self.flags_offset() & !FLAG_DF;
        self.set_flags_offset(if value { raw | FLAG_DF } else { raw });
    }

    /// Sets or clears the More Fragments flag.
    pub fn set_more_frags(&mut self, value: bool) {
        let raw = self.flags_offset() & !FLAG_MF;
        self.set_flags_offset(if value { raw | FLAG_MF } else { raw });
    }

    /// Sets the fragment offset in bytes (a multiple of 8).
    pub fn set_frag_offset(&mut self, offset: u16) {
        let raw = self.flags_offset() & !FRAG_OFFSET_MASK;
        self.set_flags_offset(raw | ((offset >> 3) & FRAG_OFFSET_MASK));
    }

    /// Sets the time to live. The checksum is not updated; see [`decrement_ttl_in_place`].
    pub fn set_ttl(&mut self, ttl: u8) {
        self.buffer.as_mut()[field::TTL] = ttl;
    }

    /// Sets the protocol field.
    pub fn set_protocol(&mut self, protocol: IpProtocol) {
        self.buffer.as_mut()[field::PROTOCOL] = protocol.into();
    }

    /// Sets the header checksum field to a raw value.
    pub fn set_checksum(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::CHECKSUM.start, value);
    }

    /// Sets the source address.
    pub fn set_src_addr(&mut self, addr: Ipv4Addr) {
        self.buffer.as_mut()[field::SRC_ADDR].copy_from_slice(&addr.octets());
    }

    /// Sets the destination address.
    pub fn set_dst_addr(&mut self, addr: Ipv4Addr) {
        self.buffer.as_mut()[field::DST_ADDR].copy_from_slice(&addr.octets());
    }

    /// Computes and stores the header checksum (RFC 791 §3.1) over the header length given by
    /// IHL (clamped to the buffer).
    pub fn fill_checksum(&mut self) {
        self.set_checksum(0);
        let header_len = usize::from(self.header_len());
        let buffer = self.buffer.as_ref();
        let header = &buffer[..header_len.min(buffer.len())];
        let value = checksum::internet_checksum(header);
        self.set_checksum(value);
    }

    /// The payload, mutably: the bytes between the header and the total length. Empty if the
    /// header or total length are inconsistent with the buffer (never panics).
    pub fn payload_mut(&mut self) -> &mut [u8] {
        let (header_len, total_len) = self.lengths().unwrap_or((0, 0));
        match self.buffer.as_mut().get_mut(header_len..total_len) {
            Some(payload) => payload,
            None => &mut [],
        }
    }
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for Ipv4Packet<T> {
    fn as_ref(&self) -> &[u8] {
        self.buffer.as_ref()
    }
}

/// The fields of an IPv4 header that sctpsim models.
///
/// Emitted headers carry no options, ECN 0, fragment offset 0 and MF clear; parsing skips options
/// and rejects fragments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ipv4Repr {
    /// Source address.
    pub src_addr: Ipv4Addr,
    /// Destination address.
    pub dst_addr: Ipv4Addr,
    /// Protocol of the payload.
    pub protocol: IpProtocol,
    /// Length of the payload in bytes (total length minus header length); at most
    /// [`Ipv4Repr::MAX_PAYLOAD_LEN`].
    pub payload_len: usize,
    /// Time to live.
    pub ttl: u8,
    /// Identification field.
    pub ident: u16,
    /// Differentiated Services Code Point, 0..=63 (RFC 2474 §3).
    pub dscp: u8,
    /// The Don't Fragment flag.
    pub dont_frag: bool,
}

impl Ipv4Repr {
    /// RFC 791 §3.1: length of a header without options (IHL = 5).
    pub const HEADER_LEN: usize = MIN_HEADER_LEN;

    /// RFC 791 §3.1: the largest payload that fits the 16-bit total length behind a 20-byte
    /// header.
    pub const MAX_PAYLOAD_LEN: usize = MAX_PACKET_LEN - MIN_HEADER_LEN;

    /// Parses a checked packet.
    ///
    /// Errors: [`WireError::Malformed`] if the version is not 4 (for packets built with
    /// `new_unchecked`, lengths are re-checked as in [`Ipv4Packet::check_len`]),
    /// [`WireError::BadChecksum`] if the header checksum fails, [`WireError::Unsupported`] for
    /// fragments (MF set or a non-zero offset). Options are accepted and skipped.
    pub fn parse<T: AsRef<[u8]>>(packet: &Ipv4Packet<T>) -> Result<Ipv4Repr> {
        packet.check_len()?;
        if !packet.verify_checksum() {
            return Err(WireError::BadChecksum);
        }
        if packet.more_frags() || packet.frag_offset() != 0 {
            return Err(WireError::Unsupported);
        }
        Ok(Ipv4Repr {
            src_addr: packet.src_addr(),
            dst_addr: packet.dst_addr(),
            protocol: packet.protocol(),
            payload_len: usize::from(packet.total_len()) - usize::from(packet.header_len()),
            ttl: packet.ttl(),
            ident: packet.ident(),
            dscp: packet.dscp(),
            dont_frag: packet.dont_frag(),
        })
    }

    /// Parses a header quoted inside an ICMP error (RFC 792): the quote holds the header and
    /// only the start of the payload, so the total length may exceed the buffer, fragment fields
    /// are ignored and the checksum is not verified (routers may have changed the TTL).
    pub(crate) fn parse_quoted(quote: &[u8]) -> Result<(Ipv4Repr, usize)> {
        if quote.len() < MIN_HEADER_LEN {
            return Err(WireError::Truncated);
        }
        let packet = Ipv4Packet::new_unchecked(quote);
        if packet.version() != VERSION {
            return Err(WireError::Malformed);
        }
        let header_len = usize::from(packet.header_len());
        if header_len < MIN_HEADER_LEN {
            return Err(WireError::Malformed);
        }
        if header_len > quote.len() {
            return Err(WireError::Truncated);
        }
        let total_len = usize::from(packet.total_len());
        if total_len < header_len {
            return Err(WireError::Malformed);
        }
        let repr = Ipv4Repr {
            src_addr: packet.src_addr(),
            dst_addr: packet.dst_addr(),
            protocol: packet.protocol(),
            payload_len: total_len - header_len,
            ttl: packet.ttl(),
            ident: packet.ident(),
            dscp: packet.dscp(),
            dont_frag: packet.dont_frag(),
        };
        Ok((repr, header_len))
    }

    /// Length of the emitted header: always [`Ipv4Repr::HEADER_LEN`] (no options).
    pub const fn header_len(&self) -> usize {
        Self::HEADER_LEN
    }

    /// Length of the whole emitted packet: header plus payload.
    pub const fn buffer_len(&self) -> usize {
        Self::HEADER_LEN + self.payload_len
    }

    /// Writes a complete 20-byte header into `packet`: version 4, IHL 5, DSCP, ECN 0, total
    /// length, identification, flags (DF as set, MF clear), fragment offset 0, TTL, protocol,
    /// addresses and a real header checksum. The payload is not touched.
    ///
    /// # Panics
    /// If the buffer is shorter than [`Ipv4Repr::HEADER_LEN`]. `payload_len` above
    /// [`Ipv4Repr::MAX_PAYLOAD_LEN`] is a caller bug: the total length saturates at 65535.
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(&self, packet: &mut Ipv4Packet<T>) {
        let total_len = u16::try_from(self.buffer_len()).unwrap_or(u16::MAX);
        packet.set_version(VERSION);
        packet.set_header_len(MIN_HEADER_LEN as u8);
        packet.set_dscp(self.dscp);
        packet.set_ecn(0);
        packet.set_total_len(total_len);
        packet.set_ident(self.ident);
        packet.clear_flags();
        packet.set_dont_frag(self.dont_frag);
        packet.set_ttl(self.ttl);
        packet.set_protocol(self.protocol);
        packet.set_src_addr(self.src_addr);
        packet.set_dst_addr(self.dst_addr);
        packet.fill_checksum();
    }
}

/// A complete IPv4 packet: the header of `repr` (its `payload_len` replaced by the length of
/// `payload`, so it cannot disagree) in front of `payload`, with a real header checksum. This is
/// how an engine sends what a transport built (a TCP segment with its checksum, an SCTP packet
/// with its CRC32c): the transport never sees the IP header.
///
/// Errors: [`WireError::Malformed`] if the payload exceeds [`Ipv4Repr::MAX_PAYLOAD_LEN`].
pub fn ipv4_datagram(repr: &Ipv4Repr, payload: &[u8]) -> Result<Vec<u8>> {
    if payload.len() > Ipv4Repr::MAX_PAYLOAD_LEN {
        return Err(WireError::Malformed);
    }
    let repr = Ipv4Repr {
        payload_len: payload.len(),
        ..*repr
    };
    let mut buf = vec![0u8; repr.buffer_len()];
    let mut packet = Ipv4Packet::new_unchecked(&mut buf[..]);
    repr.emit(&mut packet);
    packet.payload_mut().copy_from_slice(payload);
    Ok(buf)
}

impl fmt::Display for Ipv4Repr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "IPv4 src={} dst={} proto={} len={} ttl={}",
            self.src_addr, self.dst_addr, self.protocol, self.payload_len, self.ttl
        )
    }
}

/// Decrements the TTL of the IPv4 packet at the start of `buf` and updates the header checksum
/// incrementally (RFC 1624 eqn. 3: `HC' = ~(~HC + ~m + m')`), as a router does before forwarding
/// (RFC 1812 §5.3.1). Returns the new TTL.
///
/// A TTL that is already 0 is left unchanged and 0 is returned, so a caller treats "returned 0"
/// as "do not forward; answer with ICMP Time Exceeded" (RFC 1812 §5.3.1).
///
/// Errors: those of [`Ipv4Packet::new_checked`], and [`WireError::BadChecksum`] if the header
/// checksum does not verify (RFC 1812 §5.2.2: a router must verify it); `buf` is then unchanged.
pub fn decrement_ttl_in_place(buf: &mut [u8]) -> Result<u8> {
    let mut packet = Ipv4Packet::new_checked(buf)?;
    if !packet.verify_checksum() {
        return Err(WireError::BadChecksum);
    }
    let ttl = packet.ttl();
    if ttl == 0 {
        return Ok(0);
    }
    let new_ttl = ttl - 1;
    let protocol = u8::from(packet.protocol());
    // The TTL shares a 16-bit word with the protocol field.
    let old_word = u16::from_be_bytes([ttl, protocol]);
    let new_word = u16::from_be_bytes([new_ttl, protocol]);
    let sum = u32::from(!packet.checksum()) + u32::from(!old_word) + u32::from(new_word);
    packet.set_ttl(new_ttl);
    packet.set_checksum(!checksum::fold(sum));
    Ok(new_ttl)
}

#[cfg(test)]
mod test {
    use super::*;

    /// A classic hand-verifiable header: 192.168.0.1 → 192.168.0.199, UDP, total length 0x73,
    /// DF, TTL 64; checksum 0xb861 (sum of the other words is 0x1479d → 0x479e → !0x479e).
    const HEADER_BYTES: [u8; 20] = [
        0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8, 0x00,
        0x01, 0xc0, 0xa8, 0x00, 0xc7,
    ];

    fn packet_bytes() -> Vec<u8> {
        let mut bytes = HEADER_BYTES.to_vec();
        bytes.extend((0..0x73 - 20).map(|i| i as u8));
        bytes
    }

    fn repr() -> Ipv4Repr {
        Ipv4Repr {
            src_addr: Ipv4Addr::new(192, 168, 0, 1),
            dst_addr: Ipv4Addr::new(192, 168, 0, 199),
            protocol: IpProtocol::Udp,
            payload_len: 0x73 - 20,
            ttl: 64,
            ident: 0,
            dscp: 0,
            dont_frag: true,
        }
    }

    #[test]
    fn deconstruct() {
        let bytes = packet_bytes();
        let packet = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        assert_eq!(packet.version(), 4);
        assert_eq!(packet.header_len(), 20);
        assert_eq!(packet.dscp(), 0);
        assert_eq!(packet.ecn(), 0);
        assert_eq!(packet.total_len(), 0x73);
        assert_eq!(packet.ident(), 0);
        assert!(packet.dont_frag());
        assert!(!packet.more_frags());
        assert_eq!(packet.frag_offset(), 0);
        assert_eq!(packet.ttl(), 64);
        assert_eq!(packet.protocol(), IpProtocol::Udp);
        assert_eq!(packet.checksum(), 0xb861);
        assert_eq!(packet.src_addr(), Ipv4Addr::new(192, 168, 0, 1));
        assert_eq!(packet.dst_addr(), Ipv4Addr::new(192, 168, 0, 199));
        assert!(packet.options().is_empty());
        assert!(packet.verify_checksum());
        assert_eq!(packet.payload(), &bytes[20..]);
    }

    #[test]
    fn construct() {
        let mut bytes = [0xa5u8; 0x73];
        let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
        packet.set_version(4);
        packet.set_header_len(20);
        packet.set_dscp(0);
        packet.set_ecn(0);
        packet.set_total_len(0x73);
        packet.set_ident(0);
        packet.clear_flags();
        packet.set_dont_frag(true);
        packet.set_ttl(64);
        packet.set_protocol(IpProtocol::Udp);
        packet.set_src_addr(Ipv4Addr::new(192, 168, 0, 1));
        packet.set_dst_addr(Ipv4Addr::new(192, 168, 0, 199));
        packet.fill_checksum();
        assert_eq!(&bytes[..20], &HEADER_BYTES);
    }

    #[test]
    fn parse_and_emit() {
        let bytes = packet_bytes();
        let packet = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        assert_eq!(Ipv4Repr::parse(&packet), Ok(repr()));

        let mut out = vec![0xff; repr().buffer_len()];
        repr().emit(&mut Ipv4Packet::new_unchecked(&mut out[..]));
        assert_eq!(&out[..20], &HEADER_BYTES);
    }

    #[test]
    fn bad_checksum() {
        let mut bytes = packet_bytes();
        bytes[11] ^= 1;
        let packet = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        assert!(!packet.verify_checksum());
        assert_eq!(Ipv4Repr::parse(&packet), Err(WireError::BadChecksum));
    }

    #[test]
    fn truncated_prefixes_are_rejected() {
        let bytes = packet_bytes();
        for len in 0..bytes.len() {
            assert_eq!(
                Ipv4Packet::new_checked(&bytes[..len]).map(|_| ()),
                Err(WireError::Truncated),
                "prefix of {len} bytes"
            );
        }
    }

    #[test]
    fn trailing_padding_is_ignored() {
        let mut bytes = packet_bytes();
        bytes.extend([0u8; 6]);
        let packet = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        assert_eq!(packet.payload().len(), 0x73 - 20);
        assert_eq!(Ipv4Repr::parse(&packet), Ok(repr()));
    }

    #[test]
    fn malformed_headers() {
        let mut bytes = packet_bytes();
        bytes[0] = 0x65; // version 6
        assert_eq!(
            Ipv4Packet::new_checked(&bytes[..]).map(|_| ()),
            Err(WireError::Malformed)
        );
        let mut bytes = packet_bytes();
        bytes[0] = 0x44; // IHL 4
        assert_eq!(
            Ipv4Packet::new_checked(&bytes[..]).map(|_| ()),
            Err(WireError::Malformed)
        );
        let mut bytes = packet_bytes();
        bytes[2..4].copy_from_slice(&19u16.to_be_bytes()); // total length < header
        assert_eq!(
            Ipv4Packet::new_checked(&bytes[..]).map(|_| ()),
            Err(WireError::Malformed)
        );
        let mut bytes = packet_bytes();
        bytes[0] = 0x4f; // IHL 15 = 60 bytes, fits; total length 0x73 still fine
        assert!(Ipv4Packet::new_checked(&bytes[..]).is_ok());
        bytes.truncate(40);
        bytes[2..4].copy_from_slice(&40u16.to_be_bytes());
        assert_eq!(
            Ipv4Packet::new_checked(&bytes[..]).map(|_| ()),
            Err(WireError::Truncated)
        );
    }

    #[test]
    fn fragments_are_unsupported() {
        for (mf, offset) in [(true, 0), (false, 8), (true, 1480)] {
            let mut bytes = packet_bytes();
            let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
            packet.set_more_frags(mf);
            packet.set_frag_offset(offset);
            packet.fill_checksum();
            assert_eq!(packet.more_frags(), mf);
            assert_eq!(packet.frag_offset(), offset);
            assert!(packet.dont_frag());
            assert_eq!(Ipv4Repr::parse(&packet), Err(WireError::Unsupported));
        }
    }

    #[test]
    fn options_are_skipped() {
        // Header with one 4-byte option (NOP NOP NOP EOL), IHL 6.
        let payload = [1u8, 2, 3, 4, 5];
        let mut bytes = vec![0u8; 24 + payload.len()];
        let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
        repr().emit(&mut packet);
        packet.set_header_len(24);
        packet.set_total_len(29);
        bytes[20..24].copy_from_slice(&[1, 1, 1, 0]);
        bytes[24..].copy_from_slice(&payload);
        let mut packet = Ipv4Packet::new_checked(&mut bytes[..]).unwrap();
        packet.fill_checksum();
        assert_eq!(packet.options(), &[1, 1, 1, 0]);
        assert_eq!(packet.payload(), &payload);
        let parsed = Ipv4Repr::parse(&packet).unwrap();
        assert_eq!(parsed.payload_len, 5);
    }

    #[test]
    fn protocol_numbers() {
        for (n, p) in [
            (1u8, IpProtocol::Icmp),
            (4, IpProtocol::IpInIp),
            (6, IpProtocol::Tcp),
            (17, IpProtocol::Udp),
            (132, IpProtocol::Sctp),
            (99, IpProtocol::Unknown(99)),
        ] {
            assert_eq!(IpProtocol::from(n), p);
            assert_eq!(u8::from(p), n);
        }
        for n in 0..=255u8 {
            assert_eq!(u8::from(IpProtocol::from(n)), n);
        }
    }

    #[test]
    fn ttl_decrement() {
        let mut bytes = packet_bytes();
        assert_eq!(decrement_ttl_in_place(&mut bytes), Ok(63));
        let packet = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        assert_eq!(packet.ttl(), 63);
        assert!(packet.verify_checksum());
        // Independently: 0xb861 + 0x0100 (one's complement) = 0xb961.
        assert_eq!(packet.checksum(), 0xb961);
    }

    #[test]
    fn ttl_decrement_to_zero_and_beyond() {
        let mut bytes = packet_bytes();
        let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
        packet.set_ttl(1);
        packet.fill_checksum();
        assert_eq!(decrement_ttl_in_place(&mut bytes), Ok(0));
        let before = bytes.clone();
        assert_eq!(decrement_ttl_in_place(&mut bytes), Ok(0));
        assert_eq!(bytes, before);
        assert!(Ipv4Packet::new_checked(&bytes[..])
            .unwrap()
            .verify_checksum());
    }

    #[test]
    fn ttl_decrement_rejects_bad_input() {
        let mut short = HEADER_BYTES[..10].to_vec();
        assert_eq!(
            decrement_ttl_in_place(&mut short),
            Err(WireError::Truncated)
        );
        let mut bytes = packet_bytes();
        bytes[10] ^= 0x80;
        let before = bytes.clone();
        assert_eq!(
            decrement_ttl_in_place(&mut bytes),
            Err(WireError::BadChecksum)
        );
        assert_eq!(bytes, before);
    }

    #[test]
    fn unchecked_payload_accessors_do_not_panic() {
        let mut bytes = HEADER_BYTES.to_vec(); // total length says 0x73, buffer has 20
        let packet = Ipv4Packet::new_unchecked(&bytes[..]);
        assert!(packet.payload().is_empty());
        let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
        assert!(packet.payload_mut().is_empty());
        assert!(Ipv4Repr::parse(&packet).is_err());
        let empty: [u8; 0] = [];
        assert!(!Ipv4Packet::new_unchecked(&empty[..]).verify_checksum());
        assert!(Ipv4Repr::parse(&Ipv4Packet::new_unchecked(&empty[..])).is_err());
    }

    #[test]
    fn datagram_is_the_header_in_front_of_the_payload() {
        let bytes = packet_bytes();
        // `payload_len` of the repr is ignored: the payload's length counts.
        let r = Ipv4Repr {
            payload_len: 7,
            ..repr()
        };
        assert_eq!(ipv4_datagram(&r, &bytes[20..]), Ok(bytes.clone()));
        // As the SCTP builder does it.
        let chunks = [crate::sctp::ChunkRepr::CookieAck];
        let (a, b) = (Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 0, 2));
        let sctp = crate::sctp::try_sctp_packet(a, b, 64, 9, 1, 2, 3, &chunks).unwrap();
        let r = Ipv4Repr {
            src_addr: a,
            dst_addr: b,
            protocol: IpProtocol::Sctp,
            payload_len: 0,
            ttl: 64,
            ident: 9,
            dscp: 0,
            dont_frag: false,
        };
        assert_eq!(ipv4_datagram(&r, &sctp[20..]), Ok(sctp));
        let huge = vec![0u8; Ipv4Repr::MAX_PAYLOAD_LEN + 1];
        assert_eq!(ipv4_datagram(&r, &huge), Err(WireError::Malformed));
    }
}
