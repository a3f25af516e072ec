//! ICMP for IPv4 (RFC 792): the packet view [`Icmpv4Packet`], the message representation
//! [`Icmpv4Repr`] (echo request/reply, destination unreachable, time exceeded) and
//! [`icmp_error_datagram`], which builds the complete IPv4 + ICMP error a router or host sends.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |     Type      |     Code      |          Checksum             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Identifier / unused         | Sequence Number / unused / MTU|
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Data (echo) or Internet Header + 64 bits of Original Data    |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use core::fmt;
use std::net::Ipv4Addr;

use crate::be::{read_u16, write_u16};
use crate::checksum;
use crate::ipv4::{IpProtocol, Ipv4Packet, Ipv4Repr};
use crate::{Result, WireError};

/// RFC 792: every message starts with type, code, checksum and a 4-byte type-specific word.
pub const HEADER_LEN: usize = 8;

/// RFC 792 (Destination Unreachable, Time Exceeded): the error quotes "the internet header plus
/// the first 64 bits of the original datagram's data".
pub const QUOTED_DATA_LEN: usize = 8;

/// RFC 1812 §4.3.2.5: ICMP errors "SHOULD have their IP Precedence field set to 6
/// (INTERNETWORK CONTROL)"; as a DSCP that is CS6 = 48 (RFC 2474 §4.2.2.2).
pub const ERROR_DSCP: u8 = 48;

/// Byte ranges of the header (RFC 792).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const TYPE: usize = 0;
    pub(crate) const CODE: usize = 1;
    pub(crate) const CHECKSUM: Field = 2..4;
    pub(crate) const UNUSED: Field = 4..8;
    pub(crate) const ECHO_IDENT: Field = 4..6;
    pub(crate) const ECHO_SEQNO: Field = 6..8;
    /// RFC 1191 §4: "Next-Hop MTU" in the low-order 16 bits of the unused word.
    pub(crate) const MTU: Field = 6..8;
}

/// An ICMP message type (RFC 792, RFC 1256, RFC 5944).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Icmpv4Message {
    /// RFC 792: Echo Reply, type 0.
    EchoReply,
    /// RFC 792: Destination Unreachable, type 3.
    DstUnreachable,
    /// RFC 792: Source Quench, type 4 (deprecated by RFC 6633).
    SourceQuench,
    /// RFC 792: Redirect, type 5.
    Redirect,
    /// RFC 792: Echo Request, type 8.
    EchoRequest,
    /// RFC 1256: Router Advertisement, type 9 (Mobile IP agent advertisements, RFC 5944 §2.1).
    RouterAdvert,
    /// RFC 1256: Router Solicitation, type 10 (Mobile IP agent solicitations, RFC 5944 §2.2).
    RouterSolicit,
    /// RFC 792: Time Exceeded, type 11.
    TimeExceeded,
    /// RFC 792: Parameter Problem, type 12.
    ParamProblem,
    /// RFC 792: Timestamp, type 13.
    Timestamp,
    /// RFC 792: Timestamp Reply, type 14.
    TimestampReply,
    /// Any other type.
    Unknown(u8),
}

impl Icmpv4Message {
    /// Whether this type is an ICMP error message (RFC 1122 §3.2.2: Destination Unreachable,
    /// Source Quench, Redirect, Time Exceeded, Parameter Problem), which must never be answered
    /// with another ICMP error.
    pub fn is_error(self) -> bool {
        matches!(
            self,
            Icmpv4Message::DstUnreachable
                | Icmpv4Message::SourceQuench
                | Icmpv4Message::Redirect
                | Icmpv4Message::TimeExceeded
                | Icmpv4Message::ParamProblem
        )
    }
}

impl From<u8> for Icmpv4Message {
    fn from(value: u8) -> Self {
        match value {
            0 => Icmpv4Message::EchoReply,
            3 => Icmpv4Message::DstUnreachable,
            4 => Icmpv4Message::SourceQuench,
            5 => Icmpv4Message::Redirect,
            8 => Icmpv4Message::EchoRequest,
            9 => Icmpv4Message::RouterAdvert,
            10 => Icmpv4Message::RouterSolicit,
            11 => Icmpv4Message::TimeExceeded,
            12 => Icmpv4Message::ParamProblem,
            13 => Icmpv4Message::Timestamp,
            14 => Icmpv4Message::TimestampReply,
            other => Icmpv4Message::Unknown(other),
        }
    }
}

impl From<Icmpv4Message> for u8 {
    fn from(value: Icmpv4Message) -> Self {
        match value {
            Icmpv4Message::EchoReply => 0,
            Icmpv4Message::DstUnreachable => 3,
            Icmpv4Message::SourceQuench => 4,
            Icmpv4Message::Redirect => 5,
            Icmpv4Message::EchoRequest => 8,
            Icmpv4Message::RouterAdvert => 9,
            Icmpv4Message::RouterSolicit => 10,
            Icmpv4Message::TimeExceeded => 11,
            Icmpv4Message::ParamProblem => 12,
            Icmpv4Message::Timestamp => 13,
            Icmpv4Message::TimestampReply => 14,
            Icmpv4Message::Unknown(other) => other,
        }
    }
}

impl fmt::Display for Icmpv4Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Icmpv4Message::EchoReply => f.write_str("echo reply"),
            Icmpv4Message::DstUnreachable => f.write_str("destination unreachable"),
            Icmpv4Message::SourceQuench => f.write_str("source quench"),
            Icmpv4Message::Redirect => f.write_str("redirect"),
            Icmpv4Message::EchoRequest => f.write_str("echo request"),
            Icmpv4Message::RouterAdvert => f.write_str("router advertisement"),
            Icmpv4Message::RouterSolicit => f.write_str("router solicitation"),
            Icmpv4Message::TimeExceeded => f.write_str("time exceeded"),
            Icmpv4Message::ParamProblem => f.write_str("parameter problem"),
            Icmpv4Message::Timestamp => f.write_str("timestamp"),
            Icmpv4Message::TimestampReply => f.write_str("timestamp reply"),
            Icmpv4Message::Unknown(n) => write!(f, "type {n}"),
        }
    }
}

/// The code of a Destination Unreachable message (RFC 792; RFC 1191 §4 for the MTU).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DstUnreachable {
    /// RFC 792: code 0, net unreachable.
    NetUnreachable,
    /// RFC 792: code 1, host unreachable.
    HostUnreachable,
    /// RFC 792: code 2, protocol unreachable.
    ProtoUnreachable,
    /// RFC 792: code 3, port unreachable.
    PortUnreachable,
    /// RFC 792: code 4, fragmentation needed and DF set; RFC 1191 §4 adds the next-hop MTU
    /// (0 from routers that predate RFC 1191).
    FragRequired {
        /// RFC 1191 §4: the MTU of the next-hop network.
        next_hop_mtu: u16,
    },
    /// RFC 792: code 5, source route failed.
    SrcRouteFailed,
}

impl DstUnreachable {
    /// The ICMP code of this reason.
    pub fn code(self) -> u8 {
        match self {
            DstUnreachable::NetUnreachable => 0,
            DstUnreachable::HostUnreachable => 1,
            DstUnreachable::ProtoUnreachable => 2,
            DstUnreachable::PortUnreachable => 3,
            DstUnreachable::FragRequired { .. } => 4,
            DstUnreachable::SrcRouteFailed => 5,
        }
    }

    /// The low 16 bits of the "unused" word: the next-hop MTU for code 4, else 0.
    fn mtu_word(self) -> u16 {
        match self {
            DstUnreachable::FragRequired { next_hop_mtu } => next_hop_mtu,
            _ => 0,
        }
    }

    fn from_code(code: u8, next_hop_mtu: u16) -> Option<Self> {
        Some(match code {
            0 => DstUnreachable::NetUnreachable,
            1 => DstUnreachable::HostUnreachable,
            2 => DstUnreachable::ProtoUnreachable,
            3 => DstUnreachable::PortUnreachable,
            4 => DstUnreachable::FragRequired { next_hop_mtu },
            5 => DstUnreachable::SrcRouteFailed,
            _ => return None,
        })
    }
}

/// RFC 792 (Time Exceeded): code 0, "time to live exceeded in transit".
const TTL_EXCEEDED_IN_TRANSIT: u8 = 0;

/// A read/write view of an ICMP message (header and data) in a buffer. The message is the whole
/// buffer: pass exactly the IPv4 payload.
///
/// Build it with [`Icmpv4Packet::new_checked`] for bytes from the wire: afterwards every accessor
/// is safe. With [`Icmpv4Packet::new_unchecked`] the field accessors panic if the buffer is
/// shorter than the field they touch (`data` never panics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Icmpv4Packet<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Icmpv4Packet<T> {
    /// Wraps a buffer without checking it; see [`Icmpv4Packet::check_len`].
    pub const fn new_unchecked(buffer: T) -> Self {
        Icmpv4Packet { buffer }
    }

    /// Wraps a buffer after [`Icmpv4Packet::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let packet = Self::new_unchecked(buffer);
        packet.check_len()?;
        Ok(packet)
    }

    /// Checks that the 8-byte header fits ([`WireError::Truncated`] otherwise).
    pub fn check_len(&self) -> Result<()> {
        if self.buffer.as_ref().len() < HEADER_LEN {
            Err(WireError::Truncated)
        } else {
            Ok(())
        }
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// RFC 792: the message type.
    pub fn msg_type(&self) -> Icmpv4Message {
        Icmpv4Message::from(self.buffer.as_ref()[field::TYPE])
    }

    /// RFC 792: the message code.
    pub fn code(&self) -> u8 {
        self.buffer.as_ref()[field::CODE]
    }

    /// RFC 792: the checksum field as stored.
    pub fn checksum(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::CHECKSUM.start)
    }

    /// RFC 792 (Echo): the identifier.
    pub fn echo_ident(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::ECHO_IDENT.start)
    }

    /// RFC 792 (Echo): the sequence number.
    pub fn echo_seq_no(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::ECHO_SEQNO.start)
    }

    /// RFC 1191 §4 (Destination Unreachable, code 4): the next-hop MTU.
    pub fn next_hop_mtu(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::MTU.start)
    }

    /// Everything after the 8-byte header: echo data, or the quoted datagram of an error.
    /// Empty if the buffer is shorter than the header (never panics).
    pub fn data(&self) -> &[u8] {
        self.buffer.as_ref().get(HEADER_LEN..).unwrap_or(&[])
    }

    /// RFC 792: whether the checksum over the whole message verifies. False for a buffer
    /// shorter than the header (never panics).
    pub fn verify_checksum(&self) -> bool {
        let data = self.buffer.as_ref();
        data.len() >= HEADER_LEN && checksum::internet_checksum(data) == 0
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Icmpv4Packet<T> {
    /// Sets the message type.
    pub fn set_msg_type(&mut self, msg_type: Icmpv4Message) {
        self.buffer.as_mut()[field::TYPE] = msg_type.into();
    }

    /// Sets the message code.
    pub fn set_code(&mut self, code: u8) {
        self.buffer.as_mut()[field::CODE] = code;
    }

    /// Sets the checksum field to a raw value.
    pub fn set_checksum(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::CHECKSUM.start, value);
    }

    /// Sets the echo identifier.
    pub fn set_echo_ident(&mut self, ident: u16) {
        write_u16(self.buffer.as_mut(), field::ECHO_IDENT.start, ident);
    }

    /// Sets the echo sequence number.
    pub fn set_echo_seq_no(&mut self, seq_no: u16) {
        write_u16(self.buffer.as_mut(), field::ECHO_SEQNO.start, seq_no);
    }

    /// Zeroes the 4-byte type-specific word ("unused" in error messages).
    pub fn clear_unused(&mut self) {
        self.buffer.as_mut()[field::UNUSED].fill(0);
    }

    /// Sets the next-hop MTU (RFC 1191 §4).
    pub fn set_next_hop_mtu(&mut self, mtu: u16) {
        write_u16(self.buffer.as_mut(), field::MTU.start, mtu);
    }

    /// Everything after the 8-byte header, mutably. Empty if the buffer is shorter than the
    /// header (never panics).
    pub fn data_mut(&mut self) -> &mut [u8] {
        match self.buffer.as_mut().get_mut(HEADER_LEN..) {
            Some(data) => data,
            None => &mut [],
        }
    }

    /// Computes and stores the checksum over the whole buffer (RFC 792).
    pub fn fill_checksum(&mut self) {
        self.set_checksum(0);
        let value = checksum::internet_checksum(self.buffer.as_ref());
        self.set_checksum(value);
    }
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for Icmpv4Packet<T> {
    fn as_ref(&self) -> &[u8] {
        self.buffer.as_ref()
    }
}

/// An ICMP message that sctpsim models. Data bytes are not held: `data_len` counts them and
/// `emit` asks the caller to fill them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Icmpv4Repr {
    /// RFC 792: Echo Request (type 8, code 0) with `data_len` bytes of data.
    EchoRequest {
        /// Identifier.
        ident: u16,
        /// Sequence number.
        seq_no: u16,
        /// Bytes of echo data after the header.
        data_len: usize,
    },
    /// RFC 792: Echo Reply (type 0, code 0) with `data_len` bytes of data.
    EchoReply {
        /// Identifier.
        ident: u16,
        /// Sequence number.
        seq_no: u16,
        /// Bytes of echo data after the header.
        data_len: usize,
    },
    /// RFC 792: Destination Unreachable (type 3) quoting a datagram.
    DstUnreachable {
        /// The code (and, for code 4, the next-hop MTU).
        reason: DstUnreachable,
        /// The quoted IPv4 header (its `payload_len` is the original datagram's).
        header: Ipv4Repr,
        /// Bytes of the original payload quoted after the header (normally 8).
        data_len: usize,
    },
    /// RFC 792: Time Exceeded (type 11), code 0 "time to live exceeded in transit".
    TimeExceeded {
        /// The quoted IPv4 header (its `payload_len` is the original datagram's).
        header: Ipv4Repr,
        /// Bytes of the original payload quoted after the header (normally 8).
        data_len: usize,
    },
}

impl Icmpv4Repr {
    /// Parses a message, verifying its checksum ([`WireError::BadChecksum`]).
    ///
    /// Errors: [`WireError::Truncated`] if the header (or a quoted IPv4 header) does not fit,
    /// [`WireError::Malformed`] for a non-zero echo code or a quoted header that is not IPv4,
    /// [`WireError::Unsupported`] for other types and codes. The quoted header's checksum is
    /// not verified and its fragment fields are ignored; its options are skipped.
    pub fn parse<T: AsRef<[u8]> + ?Sized>(packet: &Icmpv4Packet<&T>) -> Result<Icmpv4Repr> {
        packet.check_len()?;
        if !packet.verify_checksum() {
            return Err(WireError::BadChecksum);
        }
        let code = packet.code();
        match packet.msg_type() {
            msg @ (Icmpv4Message::EchoRequest | Icmpv4Message::EchoReply) => {
                if code != 0 {
                    return Err(WireError::Malformed);
                }
                let (ident, seq_no) = (packet.echo_ident(), packet.echo_seq_no());
                let data_len = packet.data().len();
                Ok(if msg == Icmpv4Message::EchoRequest {
                    Icmpv4Repr::EchoRequest {
                        ident,
                        seq_no,
                        data_len,
                    }
                } else {
                    Icmpv4Repr::EchoReply {
                        ident,
                        seq_no,
                        data_len,
                    }
                })
            }
            Icmpv4Message::DstUnreachable => {
                let reason = DstUnreachable::from_code(code, packet.next_hop_mtu())
                    .ok_or(WireError::Unsupported)?;
                let (header, header_len) = Ipv4Repr::parse_quoted(packet.data())?;
                Ok(Icmpv4Repr::DstUnreachable {
                    reason,
                    header,
                    data_len: packet.data().len() - header_len,
                })
            }
            Icmpv4Message::TimeExceeded => {
                if code != TTL_EXCEEDED_IN_TRANSIT {
                    return Err(WireError::Unsupported);
                }
                let (header, header_len) = Ipv4Repr::parse_quoted(packet.data())?;
                Ok(Icmpv4Repr::TimeExceeded {
                    header,
                    data_len: packet.data().len() - header_len,
                })
            }
            _ => Err(WireError::Unsupported),
        }
    }

    /// Length of the message after the 8-byte header: echo data, or the quoted 20-byte header
    /// plus quoted payload bytes.
    fn data_len(&self) -> usize {
        match *self {
            Icmpv4Repr::EchoRequest { data_len, .. } | Icmpv4Repr::EchoReply { data_len, .. } => {
                data_len
            }
            Icmpv4Repr::DstUnreachable { data_len, .. }
            | Icmpv4Repr::TimeExceeded { data_len, .. } => Ipv4Repr::HEADER_LEN + data_len,
        }
    }

    /// Length of the 8-byte ICMP header.
    pub const fn header_len(&self) -> usize {
        HEADER_LEN
    }

    /// Length of the whole emitted message.
    pub fn buffer_len(&self) -> usize {
        HEADER_LEN + self.data_len()
    }

    /// Writes the message into `packet`, which should be exactly [`Icmpv4Repr::buffer_len`]
    /// bytes long (the checksum covers the whole buffer). `fill_data` writes the `data_len`
    /// bytes: the echo data, or the quoted bytes of the original payload (the quoted header is
    /// emitted from `header`, 20 bytes with a real checksum). Then the checksum is filled in.
    ///
    /// # Panics
    /// If the buffer is shorter than [`Icmpv4Repr::buffer_len`] (a caller bug).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(
        &self,
        packet: &mut Icmpv4Packet<T>,
        fill_data: impl FnOnce(&mut [u8]),
    ) {
        packet.set_checksum(0);
        packet.clear_unused();
        match *self {
            Icmpv4Repr::EchoRequest {
                ident,
                seq_no,
                data_len,
            }
            | Icmpv4Repr::EchoReply {
                ident,
                seq_no,
                data_len,
            } => {
                let msg = if matches!(self, Icmpv4Repr::EchoRequest { .. }) {
                    Icmpv4Message::EchoRequest
                } else {
                    Icmpv4Message::EchoReply
                };
                packet.set_msg_type(msg);
                packet.set_code(0);
                packet.set_echo_ident(ident);
                packet.set_echo_seq_no(seq_no);
                fill_data(&mut packet.data_mut()[..data_len]);
            }
            Icmpv4Repr::DstUnreachable {
                reason,
                header,
                data_len,
            } => {
                packet.set_msg_type(Icmpv4Message::DstUnreachable);
                packet.set_code(reason.code());
                packet.set_next_hop_mtu(reason.mtu_word());
                emit_quote(packet.data_mut(), &header, data_len, fill_data);
            }
            Icmpv4Repr::TimeExceeded { header, data_len } => {
                packet.set_msg_type(Icmpv4Message::TimeExceeded);
                packet.set_code(TTL_EXCEEDED_IN_TRANSIT);
                emit_quote(packet.data_mut(), &header, data_len, fill_data);
            }
        }
        packet.fill_checksum();
    }
}

/// Writes a quoted header and lets `fill_data` write the quoted payload bytes after it.
fn emit_quote(
    data: &mut [u8],
    header: &Ipv4Repr,
    data_len: usize,
    fill_data: impl FnOnce(&mut [u8]),
) {
    let (quoted_header, rest) = data.split_at_mut(Ipv4Repr::HEADER_LEN);
    header.emit(&mut Ipv4Packet::new_unchecked(quoted_header));
    fill_data(&mut rest[..data_len]);
}

/// Which ICMP error [`icmp_error_datagram`] sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IcmpError {
    /// Destination Unreachable, code 0: no route to the destination network (RFC 792).
    NetUnreachable,
    /// Destination Unreachable, code 1: the destination host cannot be reached (RFC 792).
    HostUnreachable,
    /// Destination Unreachable, code 2: no handler for the IP protocol (RFC 792).
    ProtocolUnreachable,
    /// Destination Unreachable, code 3: no listener on the UDP port (RFC 792, RFC 1122 §4.1.3.1).
    PortUnreachable,
    /// Destination Unreachable, code 4: DF set but the next hop's MTU is too small (RFC 792,
    /// RFC 1191 §4).
    FragNeeded {
        /// RFC 1191 §4: the MTU of the next-hop network.
        next_hop_mtu: u16,
    },
    /// Time Exceeded, code 0: TTL reached zero in transit (RFC 792, RFC 1812 §5.3.1).
    TtlExceeded,
}

impl IcmpError {
    /// The ICMP type, code and low 16 bits of the "unused" word of this error.
    fn type_code_word(self) -> (Icmpv4Message, u8, u16) {
        let unreachable = |reason: DstUnreachable| {
            (
                Icmpv4Message::DstUnreachable,
                reason.code(),
                reason.mtu_word(),
            )
        };
        match self {
            IcmpError::NetUnreachable => unreachable(DstUnreachable::NetUnreachable),
            IcmpError::HostUnreachable => unreachable(DstUnreachable::HostUnreachable),
            IcmpError::ProtocolUnreachable => unreachable(DstUnreachable::ProtoUnreachable),
            IcmpError::PortUnreachable => unreachable(DstUnreachable::PortUnreachable),
            IcmpError::FragNeeded { next_hop_mtu } => {
                unreachable(DstUnreachable::FragRequired { next_hop_mtu })
            }
            IcmpError::TtlExceeded => (Icmpv4Message::TimeExceeded, TTL_EXCEEDED_IN_TRANSIT, 0),
        }
    }
}

/// RFC 1122 §3.2.2: whether `addr` "defines a single host" (not zero, loopback, limited
/// broadcast, multicast or class E).
fn is_single_host(addr: Ipv4Addr) -> bool {
    !(addr.is_unspecified()
        || addr.is_loopback()
        || addr.is_broadcast()
        || addr.is_multicast()
        || addr.octets()[0] >= 240)
}

/// Builds the complete IPv4 + ICMP error that the node at `src` sends about the datagram
/// `offending`: addressed to the offending datagram's source, quoting its IP header (options
/// included, verbatim) and the first 8 bytes of its payload (RFC 792), with real IPv4 and ICMP
/// checksums. The IPv4 header has the given TTL and identification, DSCP CS6
/// ([`ERROR_DSCP`], RFC 1812 §4.3.2.5) and DF clear.
///
/// Returns `None`, sending nothing, when RFC 1122 §3.2.2 forbids an error or there is nothing
/// sane to quote: `offending` is not a valid IPv4 packet (lengths or header checksum); it is an
/// ICMP error message itself (or an ICMP message too short to tell); it is a non-initial
/// fragment; its destination is a broadcast or multicast address; or its source does not define
/// a single host (zero, loopback, broadcast, multicast, class E).
pub fn icmp_error_datagram(
    kind: IcmpError,
    src: Ipv4Addr,
    ttl: u8,
    ident: u16,
    offending: &[u8],
) -> Option<Vec<u8>> {
    let original = Ipv4Packet::new_checked(offending).ok()?;
    if !original.verify_checksum() || original.frag_offset() != 0 {
        return None;
    }
    let (orig_src, orig_dst) = (original.src_addr(), original.dst_addr());
    if !is_single_host(orig_src) || orig_dst.is_broadcast() || orig_dst.is_multicast() {
        return None;
    }
    if original.protocol() == IpProtocol::Icmp {
        let msg_type = Icmpv4Message::from(*original.payload().first()?);
        if msg_type.is_error() {
            return None;
        }
    }
    let header_len = usize::from(original.header_len());
    let quote_len = header_len + original.payload().len().min(QUOTED_DATA_LEN);
    // new_checked guarantees header_len + payload length <= total length <= buffer length.
    let quote = offending.get(..quote_len)?;

    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: orig_src,
        protocol: IpProtocol::Icmp,
        payload_len: HEADER_LEN + quote_len,
        ttl,
        ident,
        dscp: ERROR_DSCP,
        dont_frag: false,
    };
    let mut buf = vec![0u8; ip.buffer_len()];
    let mut ip_packet = Ipv4Packet::new_unchecked(&mut buf[..]);
    ip.emit(&mut ip_packet);
    let mut icmp = Icmpv4Packet::new_unchecked(ip_packet.payload_mut());
    let (msg_type, code, word) = kind.type_code_word();
    icmp.set_msg_type(msg_type);
    icmp.set_code(code);
    icmp.clear_unused();
    icmp.set_next_hop_mtu(word);
    icmp.data_mut().copy_from_slice(quote);
    icmp.fill_checksum();
    Some(buf)
}

#[cfg(test)]
mod test {
    use super::*;

    /// Parses a hex string (fixtures were produced independently with Python's `struct`).
    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// Echo request, ident 0x1234, seq 1, data "abcdefgh"; checksum 0x5435.
    const ECHO: &str = "08005435123400016162636465666768";

    /// UDP 10.0.0.1:5000 → 10.0.0.2:9 "hello sctpsim", TTL 1, ident 0x1234.
    const OFFENDING: &str =
        "45000029123400000111938e0a0000010a000002138800090015cc0068656c6c6f207363747073696d";

    /// Time Exceeded from 10.0.0.254 (TTL 64, ident 7, TOS 0xc0) about `OFFENDING`.
    const TIME_EXCEEDED: &str = "45c0003800070000400165000a0000fe0a0000010b0015590000000045000029\
                                 123400000111938e0a0000010a000002138800090015cc00";

    const ROUTER: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 254);

    #[test]
    fn echo_deconstruct_parse_emit() {
        let bytes = hex(ECHO);
        let packet = Icmpv4Packet::new_checked(&bytes[..]).unwrap();
        assert_eq!(packet.msg_type(), Icmpv4Message::EchoRequest);
        assert_eq!(packet.code(), 0);
        assert_eq!(packet.checksum(), 0x5435);
        assert_eq!(packet.echo_ident(), 0x1234);
        assert_eq!(packet.echo_seq_no(), 1);
        assert_eq!(packet.data(), b"abcdefgh");
        assert!(packet.verify_checksum());
        let repr = Icmpv4Repr::parse(&packet).unwrap();
        assert_eq!(
            repr,
            Icmpv4Repr::EchoRequest {
                ident: 0x1234,
                seq_no: 1,
                data_len: 8
            }
        );
        let mut out = vec![0xeeu8; repr.buffer_len()];
        repr.emit(&mut Icmpv4Packet::new_unchecked(&mut out[..]), |d| {
            d.copy_from_slice(b"abcdefgh")
        });
        assert_eq!(out, bytes);
    }

    #[test]
    fn echo_reply_round_trip() {
        let repr = Icmpv4Repr::EchoReply {
            ident: 7,
            seq_no: 9,
            data_len: 3,
        };
        let mut out = vec![0u8; repr.buffer_len()];
        repr.emit(&mut Icmpv4Packet::new_unchecked(&mut out[..]), |d| {
            d.copy_from_slice(b"xyz")
        });
        assert_eq!(out[0], 0);
        let packet = Icmpv4Packet::new_checked(&out[..]).unwrap();
        assert_eq!(Icmpv4Repr::parse(&packet), Ok(repr));
    }

    #[test]
    fn bad_checksum_and_truncation() {
        let mut bytes = hex(ECHO);
        bytes[9] ^= 0x10;
        let packet = Icmpv4Packet::new_checked(&bytes[..]).unwrap();
        assert_eq!(Icmpv4Repr::parse(&packet), Err(WireError::BadChecksum));
        for len in 0..HEADER_LEN {
            assert_eq!(
                Icmpv4Packet::new_checked(&bytes[..len]).map(|_| ()),
                Err(WireError::Truncated)
            );
            let unchecked = Icmpv4Packet::new_unchecked(&bytes[..len]);
            assert!(unchecked.data().is_empty());
            assert!(!unchecked.verify_checksum());
            assert_eq!(Icmpv4Repr::parse(&unchecked), Err(WireError::Truncated));
        }
    }

    #[test]
    fn time_exceeded_datagram_matches_fixture() {
        let offending = hex(OFFENDING);
        let out = icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 7, &offending).unwrap();
        assert_eq!(out, hex(TIME_EXCEEDED));

        let ip = Ipv4Packet::new_checked(&out[..]).unwrap();
        let ip_repr = Ipv4Repr::parse(&ip).unwrap();
        assert_eq!(ip_repr.src_addr, ROUTER);
        assert_eq!(ip_repr.dst_addr, Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(ip_repr.protocol, IpProtocol::Icmp);
        assert_eq!(ip_repr.dscp, ERROR_DSCP);
        let icmp = Icmpv4Packet::new_checked(ip.payload()).unwrap();
        assert_eq!(icmp.msg_type(), Icmpv4Message::TimeExceeded);
        assert_eq!(icmp.data(), &offending[..28]);
        let quoted = Ipv4Repr::parse(&Ipv4Packet::new_checked(&offending[..]).unwrap()).unwrap();
        assert_eq!(
            Icmpv4Repr::parse(&icmp),
            Ok(Icmpv4Repr::TimeExceeded {
                header: quoted,
                data_len: 8
            })
        );
    }

    #[test]
    fn destination_unreachable_codes() {
        let offending = hex(OFFENDING);
        let quoted = Ipv4Repr::parse(&Ipv4Packet::new_checked(&offending[..]).unwrap()).unwrap();
        for (kind, reason) in [
            (IcmpError::NetUnreachable, DstUnreachable::NetUnreachable),
            (IcmpError::HostUnreachable, DstUnreachable::HostUnreachable),
            (
                IcmpError::ProtocolUnreachable,
                DstUnreachable::ProtoUnreachable,
            ),
            (IcmpError::PortUnreachable, DstUnreachable::PortUnreachable),
            (
                IcmpError::FragNeeded { next_hop_mtu: 576 },
                DstUnreachable::FragRequired { next_hop_mtu: 576 },
            ),
        ] {
            let out = icmp_error_datagram(kind, ROUTER, 255, 1, &offending).unwrap();
            let ip = Ipv4Packet::new_checked(&out[..]).unwrap();
            assert!(ip.verify_checksum());
            let icmp = Icmpv4Packet::new_checked(ip.payload()).unwrap();
            assert_eq!(icmp.msg_type(), Icmpv4Message::DstUnreachable);
            assert_eq!(icmp.code(), reason.code());
            let repr = Icmpv4Repr::parse(&icmp).unwrap();
            assert_eq!(
                repr,
                Icmpv4Repr::DstUnreachable {
                    reason,
                    header: quoted,
                    data_len: 8
                }
            );
            // Emitting the parsed representation reproduces the message (the quoted header
            // had no options, so it is re-emitted identically).
            let mut again = vec![0u8; repr.buffer_len()];
            repr.emit(&mut Icmpv4Packet::new_unchecked(&mut again[..]), |d| {
                d.copy_from_slice(&offending[20..28])
            });
            assert_eq!(again, ip.payload());
        }
    }

    #[test]
    fn short_payload_is_quoted_whole() {
        let mut offending = hex(OFFENDING);
        // Shrink to a 3-byte payload.
        offending.truncate(23);
        let mut packet = Ipv4Packet::new_unchecked(&mut offending[..]);
        packet.set_total_len(23);
        packet.fill_checksum();
        let out =
            icmp_error_datagram(IcmpError::HostUnreachable, ROUTER, 64, 1, &offending).unwrap();
        let ip = Ipv4Packet::new_checked(&out[..]).unwrap();
        let icmp = Icmpv4Packet::new_checked(ip.payload()).unwrap();
        assert_eq!(icmp.data(), &offending[..]);
        assert!(matches!(
            Icmpv4Repr::parse(&icmp),
            Ok(Icmpv4Repr::DstUnreachable { data_len: 3, .. })
        ));
    }

    #[test]
    fn never_answer_an_icmp_error() {
        let offending = hex(OFFENDING);
        let error = icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 7, &offending).unwrap();
        // Pretend the error itself then runs out of TTL: no error about an error.
        assert_eq!(
            icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 8, &error),
            None
        );
        // But an echo request does get an error.
        let echo = hex(ECHO);
        let ip = Ipv4Repr {
            src_addr: Ipv4Addr::new(10, 0, 0, 1),
            dst_addr: Ipv4Addr::new(10, 0, 0, 9),
            protocol: IpProtocol::Icmp,
            payload_len: echo.len(),
            ttl: 1,
            ident: 3,
            dscp: 0,
            dont_frag: false,
        };
        let mut bytes = vec![0u8; ip.buffer_len()];
        ip.emit(&mut Ipv4Packet::new_unchecked(&mut bytes[..]));
        bytes[20..].copy_from_slice(&echo);
        assert!(icmp_error_datagram(IcmpError::HostUnreachable, ROUTER, 64, 1, &bytes).is_some());
        // An ICMP datagram with no ICMP byte at all: nothing sane to say.
        let mut empty_icmp = bytes[..20].to_vec();
        let mut packet = Ipv4Packet::new_unchecked(&mut empty_icmp[..]);
        packet.set_total_len(20);
        packet.fill_checksum();
        assert_eq!(
            icmp_error_datagram(IcmpError::HostUnreachable, ROUTER, 64, 1, &empty_icmp),
            None
        );
    }

    #[test]
    fn rfc1122_suppressions() {
        let base = hex(OFFENDING);
        let with = |f: &dyn Fn(&mut Ipv4Packet<&mut [u8]>)| {
            let mut bytes = base.clone();
            let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
            f(&mut packet);
            packet.fill_checksum();
            icmp_error_datagram(IcmpError::PortUnreachable, ROUTER, 64, 1, &bytes)
        };
        assert!(with(&|_| {}).is_some());
        assert!(with(&|p| p.set_frag_offset(8)).is_none());
        assert!(with(&|p| p.set_more_frags(true)).is_some()); // first fragment is fine
        assert!(with(&|p| p.set_dst_addr(Ipv4Addr::BROADCAST)).is_none());
        assert!(with(&|p| p.set_dst_addr(Ipv4Addr::new(224, 0, 0, 5))).is_none());
        assert!(with(&|p| p.set_src_addr(Ipv4Addr::UNSPECIFIED)).is_none());
        assert!(with(&|p| p.set_src_addr(Ipv4Addr::new(127, 0, 0, 1))).is_none());
        assert!(with(&|p| p.set_src_addr(Ipv4Addr::new(239, 1, 1, 1))).is_none());
        assert!(with(&|p| p.set_src_addr(Ipv4Addr::new(250, 1, 1, 1))).is_none());
        // Bad header checksum or garbage: nothing to answer.
        let mut bad = base.clone();
        bad[10] ^= 1;
        assert!(icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 1, &bad).is_none());
        assert!(icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 1, &base[..10]).is_none());
        assert!(icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 1, &[]).is_none());
    }

    #[test]
    fn options_are_quoted_verbatim() {
        let base = hex(OFFENDING);
        // Insert a 4-byte option (NOP NOP NOP EOL): IHL 6.
        let mut bytes = base[..20].to_vec();
        bytes.extend([1, 1, 1, 0]);
        bytes.extend(&base[20..]);
        let mut packet = Ipv4Packet::new_unchecked(&mut bytes[..]);
        packet.set_header_len(24);
        packet.set_total_len(45);
        packet.fill_checksum();
        let out = icmp_error_datagram(IcmpError::TtlExceeded, ROUTER, 64, 1, &bytes).unwrap();
        let ip = Ipv4Packet::new_checked(&out[..]).unwrap();
        let icmp = Icmpv4Packet::new_checked(ip.payload()).unwrap();
        assert!(icmp.verify_checksum());
        assert_eq!(icmp.data(), &bytes[..32]);
        match Icmpv4Repr::parse(&icmp).unwrap() {
            Icmpv4Repr::TimeExceeded { header, data_len } => {
                assert_eq!(header.payload_len, 21);
                assert_eq!(data_len, 8);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn unsupported_and_malformed_messages() {
        let checksummed = |mut bytes: Vec<u8>| {
            let mut packet = Icmpv4Packet::new_unchecked(&mut bytes[..]);
            packet.fill_checksum();
            bytes
        };
        let parse = |bytes: &[u8]| Icmpv4Repr::parse(&Icmpv4Packet::new_checked(bytes).unwrap());
        // Redirect: well formed, not modelled.
        let redirect = checksummed(vec![5, 0, 0, 0, 10, 0, 0, 1]);
        assert_eq!(parse(&redirect), Err(WireError::Unsupported));
        // Echo with a non-zero code.
        let echo = checksummed(vec![8, 1, 0, 0, 0, 1, 0, 1]);
        assert_eq!(parse(&echo), Err(WireError::Malformed));
        // Destination unreachable code 13 (administratively prohibited, RFC 1812).
        let mut unreachable = vec![3, 13, 0, 0, 0, 0, 0, 0];
        unreachable.extend(&hex(OFFENDING)[..28]);
        assert_eq!(
            parse(&checksummed(unreachable)),
            Err(WireError::Unsupported)
        );
        // Time exceeded with a truncated quote.
        let mut short = vec![11, 0, 0, 0, 0, 0, 0, 0];
        short.extend(&hex(OFFENDING)[..12]);
        assert_eq!(parse(&checksummed(short)), Err(WireError::Truncated));
        // Time exceeded quoting something that is not IPv4.
        let mut not_ip = vec![11, 0, 0, 0, 0, 0, 0, 0];
        not_ip.extend([0x60; 28]);
        assert_eq!(parse(&checksummed(not_ip)), Err(WireError::Malformed));
        // Fragment reassembly time exceeded (code 1) is not modelled.
        let mut reassembly = vec![11, 1, 0, 0, 0, 0, 0, 0];
        reassembly.extend(&hex(OFFENDING)[..28]);
        assert_eq!(parse(&checksummed(reassembly)), Err(WireError::Unsupported));
    }

    #[test]
    fn message_types() {
        for n in 0..=255u8 {
            assert_eq!(u8::from(Icmpv4Message::from(n)), n);
        }
        let errors: Vec<u8> = (0..=255u8)
            .filter(|&n| Icmpv4Message::from(n).is_error())
            .collect();
        assert_eq!(errors, [3, 4, 5, 11, 12]);
    }
}
