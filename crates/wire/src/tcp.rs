//! TCP (RFC 9293 §3.1): the packet view [`TcpPacket`], sequence numbers with wrap-around
//! comparison [`TcpSeqNumber`], options ([`TcpOption`], RFC 9293 §3.2, RFC 2018, RFC 7323), the
//! header representation [`TcpRepr`] and [`tcp_segment`], which builds a complete IPv4 + TCP
//! packet.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |          Source Port          |       Destination Port        |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                        Sequence Number                        |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                    Acknowledgment Number                      |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Data |       |C|E|U|A|P|R|S|F|                               |
//! | Offset| Rsrvd |W|C|R|C|S|S|Y|I|            Window             |
//! |       |       |R|E|G|K|H|T|N|N|                               |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |           Checksum            |         Urgent Pointer        |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                           [Options]                           |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                             data ...
//! ```
//!
//! TCP has no length field: a segment is the whole IPv4 payload, so a [`TcpPacket`] must wrap
//! exactly that slice (`Ipv4Packet::payload`).

use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, BitOr, BitOrAssign, Sub};
use std::net::Ipv4Addr;

use crate::be::{read_u16, write_u16};
use crate::checksum::{combine, fold, pseudo_header_sum, sum_bytes};
use crate::ipv4::{IpProtocol, Ipv4Packet, Ipv4Repr};
use crate::{Result, WireError};

/// RFC 9293 §3.1: "Data Offset: 4 bits ... the number of 32-bit words in the TCP header"; a
/// header without options is 5 words (20 bytes).
pub const MIN_HEADER_LEN: usize = 20;

/// RFC 9293 §3.1: the 4-bit data offset allows at most 15 words, i.e. 60 bytes of header and 40
/// bytes of options.
pub const MAX_HEADER_LEN: usize = 60;

/// RFC 9293 §3.1: at most 40 bytes of options follow the fixed header.
pub const MAX_OPTIONS_LEN: usize = MAX_HEADER_LEN - MIN_HEADER_LEN;

/// RFC 2018 §3: a SACK option of n blocks is 8·n + 2 bytes, so at most 4 blocks fit in the 40
/// option bytes.
pub const MAX_SACK_BLOCKS: usize = 4;

/// RFC 7323 §2.3: "the maximum scale exponent is limited to 14".
pub const MAX_WINDOW_SCALE: u8 = 14;

/// Byte ranges of the fixed header (RFC 9293 §3.1).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const SRC_PORT: Field = 0..2;
    pub(crate) const DST_PORT: Field = 2..4;
    pub(crate) const SEQ_NUM: Field = 4..8;
    pub(crate) const ACK_NUM: Field = 8..12;
    pub(crate) const DATA_OFFSET: usize = 12;
    pub(crate) const FLAGS: usize = 13;
    pub(crate) const WINDOW: Field = 14..16;
    pub(crate) const CHECKSUM: Field = 16..18;
    pub(crate) const URGENT: Field = 18..20;
}

/// Option kinds (IANA "TCP Option Kind Numbers").
mod kind {
    /// RFC 9293 §3.2: End of Option List.
    pub(crate) const END: u8 = 0;
    /// RFC 9293 §3.2: No-Operation.
    pub(crate) const NOP: u8 = 1;
    /// RFC 9293 §3.2: Maximum Segment Size, length 4.
    pub(crate) const MSS: u8 = 2;
    /// RFC 7323 §2.2: Window Scale, length 3.
    pub(crate) const WINDOW_SCALE: u8 = 3;
    /// RFC 2018 §2: SACK-Permitted, length 2.
    pub(crate) const SACK_PERMITTED: u8 = 4;
    /// RFC 2018 §3: SACK, length 8·n + 2.
    pub(crate) const SACK: u8 = 5;
    /// RFC 7323 §3.2: Timestamps, length 10.
    pub(crate) const TIMESTAMPS: u8 = 8;
}

/// A TCP sequence number: 32-bit arithmetic modulo 2^32 with the wrap-around comparison of
/// RFC 9293 §3.4 ("a < b" means b lies less than 2^31 ahead of a, as in RFC 1982 serial
/// numbers).
///
/// Only [`PartialOrd`] is implemented: two numbers exactly 2^31 apart are not comparable
/// (RFC 1982 §3.2 leaves that case undefined) and the order is not transitive over the whole
/// circle, so there is no `Ord`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TcpSeqNumber(pub u32);

impl TcpSeqNumber {
    /// The signed distance `self - other`: positive if `self` is ahead of `other`.
    #[inline]
    pub const fn diff(self, other: TcpSeqNumber) -> i32 {
        self.0.wrapping_sub(other.0) as i32
    }

    /// `self + n` modulo 2^32.
    #[inline]
    pub const fn wrapping_add(self, n: u32) -> TcpSeqNumber {
        TcpSeqNumber(self.0.wrapping_add(n))
    }

    /// `self - n` modulo 2^32.
    #[inline]
    pub const fn wrapping_sub(self, n: u32) -> TcpSeqNumber {
        TcpSeqNumber(self.0.wrapping_sub(n))
    }

    /// The later of two numbers (wrap-around order); `self` if they are not comparable.
    pub fn max(self, other: TcpSeqNumber) -> TcpSeqNumber {
        if other > self {
            other
        } else {
            self
        }
    }

    /// The earlier of two numbers (wrap-around order); `self` if they are not comparable.
    pub fn min(self, other: TcpSeqNumber) -> TcpSeqNumber {
        if other < self {
            other
        } else {
            self
        }
    }
}

impl PartialOrd for TcpSeqNumber {
    fn partial_cmp(&self, other: &TcpSeqNumber) -> Option<Ordering> {
        match self.diff(*other) {
            i32::MIN => None,
            d => Some(d.cmp(&0)),
        }
    }
}

impl Add<u32> for TcpSeqNumber {
    type Output = TcpSeqNumber;
    fn add(self, rhs: u32) -> TcpSeqNumber {
        self.wrapping_add(rhs)
    }
}

impl Sub<u32> for TcpSeqNumber {
    type Output = TcpSeqNumber;
    fn sub(self, rhs: u32) -> TcpSeqNumber {
        self.wrapping_sub(rhs)
    }
}

impl Sub for TcpSeqNumber {
    type Output = i32;
    /// The signed distance, as [`TcpSeqNumber::diff`].
    fn sub(self, rhs: TcpSeqNumber) -> i32 {
        self.diff(rhs)
    }
}

impl fmt::Debug for TcpSeqNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for TcpSeqNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The control bits of byte 13 of the header (RFC 9293 §3.1, RFC 3168 §6.1 for ECE/CWR).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TcpFlags(u8);

impl TcpFlags {
    /// RFC 9293 §3.1: "FIN: No more data from sender".
    pub const FIN: TcpFlags = TcpFlags(0x01);
    /// RFC 9293 §3.1: "SYN: Synchronize sequence numbers".
    pub const SYN: TcpFlags = TcpFlags(0x02);
    /// RFC 9293 §3.1: "RST: Reset the connection".
    pub const RST: TcpFlags = TcpFlags(0x04);
    /// RFC 9293 §3.1: "PSH: Push function".
    pub const PSH: TcpFlags = TcpFlags(0x08);
    /// RFC 9293 §3.1: "ACK: Acknowledgment field is significant". In a [`TcpRepr`] this bit is
    /// carried by `ack_number.is_some()` instead.
    pub const ACK: TcpFlags = TcpFlags(0x10);
    /// RFC 9293 §3.1: "URG: Urgent pointer field is significant".
    pub const URG: TcpFlags = TcpFlags(0x20);
    /// RFC 3168 §6.1: "ECE: ECN-Echo".
    pub const ECE: TcpFlags = TcpFlags(0x40);
    /// RFC 3168 §6.1: "CWR: Congestion Window Reduced".
    pub const CWR: TcpFlags = TcpFlags(0x80);

    /// No bit set.
    pub const fn empty() -> TcpFlags {
        TcpFlags(0)
    }

    /// From the raw byte.
    pub const fn from_bits(bits: u8) -> TcpFlags {
        TcpFlags(bits)
    }

    /// The raw byte.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether every bit of `other` is set in `self`.
    pub const fn contains(self, other: TcpFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no bit is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `self` without the bits of `other`.
    pub const fn without(self, other: TcpFlags) -> TcpFlags {
        TcpFlags(self.0 & !other.0)
    }
}

impl BitOr for TcpFlags {
    type Output = TcpFlags;
    fn bitor(self, rhs: TcpFlags) -> TcpFlags {
        TcpFlags(self.0 | rhs.0)
    }
}

impl BitOrAssign for TcpFlags {
    fn bitor_assign(&mut self, rhs: TcpFlags) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for TcpFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [(TcpFlags, &str); 8] = [
            (TcpFlags::SYN, "SYN"),
            (TcpFlags::ACK, "ACK"),
            (TcpFlags::FIN, "FIN"),
            (TcpFlags::RST, "RST"),
            (TcpFlags::PSH, "PSH"),
            (TcpFlags::URG, "URG"),
            (TcpFlags::ECE, "ECE"),
            (TcpFlags::CWR, "CWR"),
        ];
        if self.is_empty() {
            return f.write_str("-");
        }
        let mut first = true;
        for (flag, name) in NAMES {
            if self.contains(flag) {
                if !first {
                    f.write_str("|")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// RFC 7323 §3.2: the two fields of the Timestamps option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TcpTimestamp {
    /// Timestamp Value (TSval): the sender's timestamp clock.
    pub tsval: u32,
    /// Timestamp Echo Reply (TSecr): the most recent TSval received (TS.Recent), valid when the
    /// ACK bit is set.
    pub tsecr: u32,
}

/// One TCP option as read from a header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TcpOption<'a> {
    /// RFC 9293 §3.2: End of Option List (kind 0); the iterator stops after it.
    EndOfList,
    /// RFC 9293 §3.2: No-Operation (kind 1), used for alignment.
    NoOperation,
    /// RFC 9293 §3.2: Maximum Segment Size (kind 2).
    MaxSegmentSize(u16),
    /// RFC 7323 §2.2: Window Scale shift count (kind 3), as received (not clamped to 14).
    WindowScale(u8),
    /// RFC 2018 §2: SACK-Permitted (kind 4).
    SackPermitted,
    /// RFC 2018 §3: SACK (kind 5) with 1–4 blocks of (left edge, right edge).
    SackRange([Option<(u32, u32)>; MAX_SACK_BLOCKS]),
    /// RFC 7323 §3.2: Timestamps (kind 8).
    Timestamps(TcpTimestamp),
    /// Any other kind with a well-formed length (RFC 9293 §3.2: "a TCP implementation MUST be
    /// able to receive a TCP Option in any segment" and ignore those it does not implement).
    Unknown {
        /// The option kind.
        kind: u8,
        /// The option data (without kind and length bytes).
        data: &'a [u8],
    },
}

/// Iterator over the options of a header. It yields `Err(WireError::Malformed)` once for a
/// nonsense option (length below 2, running past the header, or a known kind with the wrong
/// length) and then stops; it never panics.
#[derive(Debug, Clone)]
pub struct TcpOptions<'a> {
    data: &'a [u8],
    done: bool,
}

impl<'a> TcpOptions<'a> {
    /// Iterates over raw option bytes (the bytes between the fixed header and the data).
    pub fn new(data: &'a [u8]) -> Self {
        TcpOptions { data, done: false }
    }

    fn fail(&mut self) -> Option<Result<TcpOption<'a>>> {
        self.done = true;
        Some(Err(WireError::Malformed))
    }
}

impl<'a> Iterator for TcpOptions<'a> {
    type Item = Result<TcpOption<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let (&kind, rest) = self.data.split_first()?;
        match kind {
            kind::END => {
                // RFC 9293 §3.2: the remaining bytes are padding.
                self.done = true;
                return Some(Ok(TcpOption::EndOfList));
            }
            kind::NOP => {
                self.data = rest;
                return Some(Ok(TcpOption::NoOperation));
            }
            _ => {}
        }
        let Some(&len) = rest.first() else {
            return self.fail();
        };
        let len = usize::from(len);
        if len < 2 {
            return self.fail();
        }
        let Some(option) = self.data.get(..len) else {
            return self.fail();
        };
        self.data = &self.data[len..];
        let body = &option[2..];
        let parsed = match (kind, body.len()) {
            (kind::MSS, 2) => TcpOption::MaxSegmentSize(u16::from_be_bytes([body[0], body[1]])),
            (kind::WINDOW_SCALE, 1) => TcpOption::WindowScale(body[0]),
            (kind::SACK_PERMITTED, 0) => TcpOption::SackPermitted,
            (kind::SACK, n) if n > 0 && n % 8 == 0 && n / 8 <= MAX_SACK_BLOCKS => {
                let mut blocks = [None; MAX_SACK_BLOCKS];
                for (slot, chunk) in blocks.iter_mut().zip(body.chunks_exact(8)) {
                    let left = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                    let right = u32::from_be_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
                    *slot = Some((left, right));
                }
                TcpOption::SackRange(blocks)
            }
            (kind::TIMESTAMPS, 8) => TcpOption::Timestamps(TcpTimestamp {
                tsval: u32::from_be_bytes([body[0], body[1], body[2], body[3]]),
                tsecr: u32::from_be_bytes([body[4], body[5], body[6], body[7]]),
            }),
            (kind::MSS | kind::WINDOW_SCALE | kind::SACK_PERMITTED | kind::SACK, _)
            | (kind::TIMESTAMPS, _) => return self.fail(),
            (kind, _) => TcpOption::Unknown { kind, data: body },
        };
        Some(Ok(parsed))
    }
}

/// A read/write view of a TCP segment (header, options and data) in a buffer holding exactly the
/// segment.
///
/// Build it with [`TcpPacket::new_checked`] for bytes from the wire: afterwards every accessor is
/// safe. With [`TcpPacket::new_unchecked`] the fixed-field accessors panic if the buffer is
/// shorter than 20 bytes (option and payload accessors never panic; they return empty slices).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TcpPacket<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> TcpPacket<T> {
    /// Wraps a buffer without checking it; see [`TcpPacket::check_len`].
    pub const fn new_unchecked(buffer: T) -> Self {
        TcpPacket { buffer }
    }

    /// Wraps a buffer after [`TcpPacket::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let packet = Self::new_unchecked(buffer);
        packet.check_len()?;
        Ok(packet)
    }

    /// Checks that the fixed header fits ([`WireError::Truncated`]), that the data offset is at
    /// least 5 words ([`WireError::Malformed`]) and that the header with its options fits in the
    /// buffer ([`WireError::Truncated`]). Options and checksum are not checked here.
    pub fn check_len(&self) -> Result<()> {
        let len = self.buffer.as_ref().len();
        if len < MIN_HEADER_LEN {
            return Err(WireError::Truncated);
        }
        let header_len = usize::from(self.header_len());
        if header_len < MIN_HEADER_LEN {
            return Err(WireError::Malformed);
        }
        if header_len > len {
            return Err(WireError::Truncated);
        }
        Ok(())
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    fn read_u32(&self, at: usize) -> u32 {
        let d = self.buffer.as_ref();
        u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
    }

    /// RFC 9293 §3.1: the source port.
    pub fn src_port(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::SRC_PORT.start)
    }

    /// RFC 9293 §3.1: the destination port.
    pub fn dst_port(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::DST_PORT.start)
    }

    /// RFC 9293 §3.1: the sequence number of the first data octet (or of the SYN).
    pub fn seq_number(&self) -> TcpSeqNumber {
        TcpSeqNumber(self.read_u32(field::SEQ_NUM.start))
    }

    /// RFC 9293 §3.1: the acknowledgment number field as stored (meaningful only with ACK).
    pub fn ack_number(&self) -> TcpSeqNumber {
        TcpSeqNumber(self.read_u32(field::ACK_NUM.start))
    }

    /// RFC 9293 §3.1: the header length in bytes (data offset × 4), options included.
    pub fn header_len(&self) -> u8 {
        (self.buffer.as_ref()[field::DATA_OFFSET] >> 4) * 4
    }

    /// RFC 9293 §3.1: the control bits.
    pub fn flags(&self) -> TcpFlags {
        TcpFlags(self.buffer.as_ref()[field::FLAGS])
    }

    /// RFC 9293 §3.1: the (unscaled) window field.
    pub fn window_len(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::WINDOW.start)
    }

    /// RFC 9293 §3.1: the checksum field as stored.
    pub fn checksum(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::CHECKSUM.start)
    }

    /// RFC 9293 §3.1: the urgent pointer field.
    pub fn urgent_at(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::URGENT.start)
    }

    /// The header length read without panicking, if the buffer holds the data offset byte.
    fn header_len_checked(&self) -> Option<usize> {
        let offset = self.buffer.as_ref().get(field::DATA_OFFSET)?;
        Some(usize::from(offset >> 4) * 4)
    }

    /// The raw option bytes (empty if the data offset is inconsistent with the buffer; never
    /// panics).
    pub fn options(&self) -> &[u8] {
        let header_len = self.header_len_checked().unwrap_or(0);
        self.buffer
            .as_ref()
            .get(MIN_HEADER_LEN..header_len)
            .unwrap_or(&[])
    }

    /// An iterator over the options; see [`TcpOptions`].
    pub fn option_iter(&self) -> TcpOptions<'_> {
        TcpOptions::new(self.options())
    }

    /// The data after the header (empty if the data offset is inconsistent with the buffer;
    /// never panics).
    pub fn payload(&self) -> &[u8] {
        match self.header_len_checked() {
            Some(h) if h >= MIN_HEADER_LEN => self.buffer.as_ref().get(h..).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// RFC 9293 §3.1: whether the checksum over the IPv4 pseudo-header, header and data
    /// verifies. False if the segment does not fit a 16-bit length or is shorter than a header
    /// (never panics).
    pub fn verify_checksum(&self, src: Ipv4Addr, dst: Ipv4Addr) -> bool {
        let data = self.buffer.as_ref();
        let Ok(length) = u16::try_from(data.len()) else {
            return false;
        };
        if data.len() < MIN_HEADER_LEN {
            return false;
        }
        let pseudo = pseudo_header_sum(src, dst, IpProtocol::Tcp.into(), length);
        fold(combine(pseudo, sum_bytes(data))) == 0xffff
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> TcpPacket<T> {
    fn write_u32(&mut self, at: usize, value: u32) {
        self.buffer.as_mut()[at..at + 4].copy_from_slice(&value.to_be_bytes());
    }

    /// Sets the source port.
    pub fn set_src_port(&mut self, port: u16) {
        write_u16(self.buffer.as_mut(), field::SRC_PORT.start, port);
    }

    /// Sets the destination port.
    pub fn set_dst_port(&mut self, port: u16) {
        write_u16(self.buffer.as_mut(), field::DST_PORT.start, port);
    }

    /// Sets the sequence number.
    pub fn set_seq_number(&mut self, seq: TcpSeqNumber) {
        self.write_u32(field::SEQ_NUM.start, seq.0);
    }

    /// Sets the acknowledgment number field.
    pub fn set_ack_number(&mut self, ack: TcpSeqNumber) {
        self.write_u32(field::ACK_NUM.start, ack.0);
    }

    /// Sets the header length in bytes (a multiple of 4 between 20 and 60); the reserved bits
    /// are cleared.
    pub fn set_header_len(&mut self, len: u8) {
        self.buffer.as_mut()[field::DATA_OFFSET] = ((len / 4) & 0x0f) << 4;
    }

    /// Sets the control bits.
    pub fn set_flags(&mut self, flags: TcpFlags) {
        self.buffer.as_mut()[field::FLAGS] = flags.bits();
    }

    /// Sets the window field.
    pub fn set_window_len(&mut self, window: u16) {
        write_u16(self.buffer.as_mut(), field::WINDOW.start, window);
    }

    /// Sets the checksum field to a raw value.
    pub fn set_checksum(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::CHECKSUM.start, value);
    }

    /// Sets the urgent pointer.
    pub fn set_urgent_at(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::URGENT.start, value);
    }

    /// Computes and stores the checksum over the IPv4 pseudo-header, header and data
    /// (RFC 9293 §3.1). The whole buffer is the segment.
    ///
    /// # Panics
    /// If the buffer is longer than 65535 bytes (a caller bug).
    pub fn fill_checksum(&mut self, src: Ipv4Addr, dst: Ipv4Addr) {
        self.set_checksum(0);
        let data = self.buffer.as_ref();
        let Ok(length) = u16::try_from(data.len()) else {
            panic!("TCP segment of {} bytes exceeds 65535", data.len());
        };
        let pseudo = pseudo_header_sum(src, dst, IpProtocol::Tcp.into(), length);
        let value = !fold(combine(pseudo, sum_bytes(data)));
        self.set_checksum(value);
    }

    /// The option bytes, mutably (empty if inconsistent; never panics).
    pub fn options_mut(&mut self) -> &mut [u8] {
        let header_len = self.header_len_checked().unwrap_or(0);
        match self.buffer.as_mut().get_mut(MIN_HEADER_LEN..header_len) {
            Some(options) => options,
            None => &mut [],
        }
    }

    /// The data after the header, mutably (empty if inconsistent; never panics).
    pub fn payload_mut(&mut self) -> &mut [u8] {
        let header_len = match self.header_len_checked() {
            Some(h) if h >= MIN_HEADER_LEN => h,
            _ => return &mut [],
        };
        match self.buffer.as_mut().get_mut(header_len..) {
            Some(payload) => payload,
            None => &mut [],
        }
    }
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for TcpPacket<T> {
    fn as_ref(&self) -> &[u8] {
        self.buffer.as_ref()
    }
}

/// The fields of a TCP header that sctpsim models.
///
/// The ACK control bit is not part of `flags`: it is set exactly when `ack_number` is `Some`
/// (parsing moves it there, emitting derives it). The urgent pointer is neither parsed nor
/// emitted (always 0), as URG is not modelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TcpRepr {
    /// Source port.
    pub src_port: u16,
    /// Destination port.
    pub dst_port: u16,
    /// Sequence number of the first octet (the SYN's own number on a SYN).
    pub seq_number: TcpSeqNumber,
    /// Acknowledgment number; `Some` iff the ACK bit is set.
    pub ack_number: Option<TcpSeqNumber>,
    /// Control bits other than ACK (SYN, FIN, RST, PSH, URG, ECE, CWR).
    pub flags: TcpFlags,
    /// The window field as sent (unscaled).
    pub window_len: u16,
    /// RFC 7323 §2.2: Window Scale option (only meaningful on a SYN).
    pub window_scale: Option<u8>,
    /// RFC 9293 §3.7.1: Maximum Segment Size option (only meaningful on a SYN).
    pub max_seg_size: Option<u16>,
    /// RFC 2018 §2: SACK-Permitted option (only meaningful on a SYN).
    pub sack_permitted: bool,
    /// RFC 2018 §3: SACK blocks as (left edge, right edge) sequence numbers, first block first.
    /// Emitted in order up to the first `None`, as many as fit in the option space.
    pub sack_ranges: [Option<(u32, u32)>; MAX_SACK_BLOCKS],
    /// RFC 7323 §3.2: Timestamps option.
    pub timestamp: Option<TcpTimestamp>,
    /// Length of the data after the header.
    pub payload_len: usize,
}

impl Default for TcpRepr {
    fn default() -> Self {
        TcpRepr {
            src_port: 0,
            dst_port: 0,
            seq_number: TcpSeqNumber(0),
            ack_number: None,
            flags: TcpFlags::empty(),
            window_len: 0,
            window_scale: None,
            max_seg_size: None,
            sack_permitted: false,
            sack_ranges: [None; MAX_SACK_BLOCKS],
            timestamp: None,
            payload_len: 0,
        }
    }
}

/// Bytes taken by each emitted option group (with its alignment NOPs).
const MSS_LEN: usize = 4;
const WINDOW_SCALE_LEN: usize = 4; // NOP + 3
const SACK_PERMITTED_LEN: usize = 4; // NOP NOP + 2, or shared with timestamps
const TIMESTAMPS_LEN: usize = 12; // NOP NOP + 10, or SACK-Permitted + 10
const SACK_HEADER_LEN: usize = 4; // NOP NOP kind len
const SACK_BLOCK_LEN: usize = 8;

impl TcpRepr {
    /// Parses a segment carried from `src` to `dst`.
    ///
    /// Errors: [`WireError::Truncated`] / [`WireError::Malformed`] as in
    /// [`TcpPacket::check_len`]; [`WireError::BadChecksum`] if the checksum over the IPv4
    /// pseudo-header fails; [`WireError::Malformed`] for a nonsense option (see
    /// [`TcpOptions`]). Unknown options with a valid length are skipped.
    pub fn parse<T: AsRef<[u8]> + ?Sized>(
        packet: &TcpPacket<&T>,
        src: Ipv4Addr,
        dst: Ipv4Addr,
    ) -> Result<TcpRepr> {
        packet.check_len()?;
        if !packet.verify_checksum(src, dst) {
            return Err(WireError::BadChecksum);
        }
        let raw_flags = packet.flags();
        let mut repr = TcpRepr {
            src_port: packet.src_port(),
            dst_port: packet.dst_port(),
            seq_number: packet.seq_number(),
            ack_number: raw_flags
                .contains(TcpFlags::ACK)
                .then(|| packet.ack_number()),
            flags: raw_flags.without(TcpFlags::ACK),
            window_len: packet.window_len(),
            payload_len: packet.payload().len(),
            ..TcpRepr::default()
        };
        for option in packet.option_iter() {
            match option? {
                TcpOption::EndOfList | TcpOption::NoOperation | TcpOption::Unknown { .. } => {}
                TcpOption::MaxSegmentSize(mss) => repr.max_seg_size = Some(mss),
                TcpOption::WindowScale(shift) => repr.window_scale = Some(shift),
                TcpOption::SackPermitted => repr.sack_permitted = true,
                TcpOption::SackRange(blocks) => repr.sack_ranges = blocks,
                TcpOption::Timestamps(ts) => repr.timestamp = Some(ts),
            }
        }
        Ok(repr)
    }

    /// How many of `sack_ranges` are emitted: the leading `Some` blocks that fit in the option
    /// space left by the other options.
    pub fn sack_blocks_emitted(&self) -> usize {
        let wanted = self.sack_ranges.iter().take_while(|b| b.is_some()).count();
        if wanted == 0 {
            return 0;
        }
        let room = MAX_OPTIONS_LEN.saturating_sub(self.fixed_options_len() + SACK_HEADER_LEN);
        wanted.min(room / SACK_BLOCK_LEN)
    }

    /// Length of the options other than SACK blocks.
    fn fixed_options_len(&self) -> usize {
        let mut len = 0;
        if self.max_seg_size.is_some() {
            len += MSS_LEN;
        }
        if self.window_scale.is_some() {
            len += WINDOW_SCALE_LEN;
        }
        match (self.sack_permitted, self.timestamp.is_some()) {
            (true, true) | (false, true) => len += TIMESTAMPS_LEN,
            (true, false) => len += SACK_PERMITTED_LEN,
            (false, false) => {}
        }
        len
    }

    /// Length of the emitted options (already a multiple of 4, at most 40).
    pub fn options_len(&self) -> usize {
        let blocks = self.sack_blocks_emitted();
        let sack = if blocks > 0 {
            SACK_HEADER_LEN + SACK_BLOCK_LEN * blocks
        } else {
            0
        };
        self.fixed_options_len() + sack
    }

    /// Length of the emitted header, options included (a multiple of 4, at most 60).
    pub fn header_len(&self) -> usize {
        MIN_HEADER_LEN + self.options_len()
    }

    /// Length of header plus data.
    pub fn buffer_len(&self) -> usize {
        self.header_len() + self.payload_len
    }

    /// The length in sequence space: data plus one for each of SYN and FIN (RFC 9293 §3.4).
    pub fn segment_len(&self) -> usize {
        self.payload_len
            + usize::from(self.flags.contains(TcpFlags::SYN))
            + usize::from(self.flags.contains(TcpFlags::FIN))
    }

    /// The SACK blocks present, in order.
    pub fn sack_blocks(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.sack_ranges.iter().map_while(|b| *b)
    }

    /// Writes the header and options, lets `fill_payload` write the `payload_len` data bytes,
    /// then writes the real checksum over the pseudo-header for `src` → `dst`.
    ///
    /// # Panics
    /// If the buffer is shorter than [`TcpRepr::buffer_len`] or longer than 65535 bytes (caller
    /// bugs, not packet content).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(
        &self,
        packet: &mut TcpPacket<T>,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        fill_payload: impl FnOnce(&mut [u8]),
    ) {
        let header_len = self.header_len();
        let total = header_len + self.payload_len;
        packet.set_src_port(self.src_port);
        packet.set_dst_port(self.dst_port);
        packet.set_seq_number(self.seq_number);
        packet.set_ack_number(self.ack_number.unwrap_or_default());
        // `header_len` is at most 60 (see `sack_blocks_emitted`).
        packet.set_header_len(header_len as u8);
        let mut flags = self.flags.without(TcpFlags::ACK);
        if self.ack_number.is_some() {
            flags |= TcpFlags::ACK;
        }
        packet.set_flags(flags);
        packet.set_window_len(self.window_len);
        packet.set_checksum(0);
        packet.set_urgent_at(0);
        self.emit_options(&mut packet.buffer.as_mut()[MIN_HEADER_LEN..header_len]);
        fill_payload(&mut packet.buffer.as_mut()[header_len..total]);
        packet.fill_checksum_range(src, dst, total);
    }

    fn emit_options(&self, out: &mut [u8]) {
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            out[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
        };
        if let Some(mss) = self.max_seg_size {
            let [hi, lo] = mss.to_be_bytes();
            put(&[kind::MSS, 4, hi, lo]);
        }
        if let Some(shift) = self.window_scale {
            put(&[kind::NOP, kind::WINDOW_SCALE, 3, shift]);
        }
        match (self.sack_permitted, self.timestamp) {
            (sack_permitted, Some(ts)) => {
                if sack_permitted {
                    put(&[kind::SACK_PERMITTED, 2]);
                } else {
                    put(&[kind::NOP, kind::NOP]);
                }
                put(&[kind::TIMESTAMPS, 10]);
                put(&ts.tsval.to_be_bytes());
                put(&ts.tsecr.to_be_bytes());
            }
            (true, None) => put(&[kind::NOP, kind::NOP, kind::SACK_PERMITTED, 2]),
            (false, None) => {}
        }
        let blocks = self.sack_blocks_emitted();
        if blocks > 0 {
            // `blocks` ≤ 4, so the length is at most 34.
            put(&[
                kind::NOP,
                kind::NOP,
                kind::SACK,
                (2 + SACK_BLOCK_LEN * blocks) as u8,
            ]);
            for (left, right) in self.sack_blocks().take(blocks) {
                put(&left.to_be_bytes());
                put(&right.to_be_bytes());
            }
        }
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> TcpPacket<T> {
    /// Like [`TcpPacket::fill_checksum`] over the first `len` bytes only.
    fn fill_checksum_range(&mut self, src: Ipv4Addr, dst: Ipv4Addr, len: usize) {
        self.set_checksum(0);
        let data = &self.buffer.as_ref()[..len];
        let Ok(length) = u16::try_from(len) else {
            panic!("TCP segment of {len} bytes exceeds 65535");
        };
        let pseudo = pseudo_header_sum(src, dst, IpProtocol::Tcp.into(), length);
        let value = !fold(combine(pseudo, sum_bytes(data)));
        self.set_checksum(value);
    }
}

/// Builds a complete IPv4 + TCP packet from `src` to `dst` carrying `payload`, with a real IPv4
/// header checksum and a real TCP checksum. `repr.payload_len` is ignored: the payload's length
/// is used. The IPv4 header has no options, DSCP 0 and DF set (TCP relies on path MTU
/// discovery, RFC 9293 §3.7.2).
///
/// # Panics
/// If the segment does not fit in one IPv4 packet.
pub fn tcp_segment(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    ttl: u8,
    ident: u16,
    repr: &TcpRepr,
    payload: &[u8],
) -> Vec<u8> {
    let repr = TcpRepr {
        payload_len: payload.len(),
        ..*repr
    };
    let tcp_len = repr.buffer_len();
    assert!(
        tcp_len <= Ipv4Repr::MAX_PAYLOAD_LEN,
        "TCP segment of {tcp_len} bytes does not fit in an IPv4 packet"
    );
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IpProtocol::Tcp,
        payload_len: tcp_len,
        ttl,
        ident,
        dscp: 0,
        dont_frag: true,
    };
    let mut buf = vec![0u8; ip.buffer_len()];
    let mut ip_packet = Ipv4Packet::new_unchecked(&mut buf[..]);
    ip.emit(&mut ip_packet);
    let mut tcp_packet = TcpPacket::new_unchecked(ip_packet.payload_mut());
    repr.emit(&mut tcp_packet, src, dst, |data| {
        data.copy_from_slice(payload)
    });
    buf
}

/// Entry point for a fuzz target: parses `data` as a TCP segment (with fixed pseudo-header
/// addresses) exercising every accessor and the options iterator, re-emits what parsed and
/// checks it parses back identically, then parses `data` as an IPv4 packet carrying TCP. The
/// only failure a fuzzer can find here is a panic (or a failed round trip).
pub fn fuzz_parse_tcp(data: &[u8]) {
    let (a, b) = (Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 0, 2));
    let unchecked = TcpPacket::new_unchecked(data);
    let _ = (
        unchecked.options(),
        unchecked.payload(),
        unchecked.verify_checksum(a, b),
    );
    for option in unchecked.option_iter() {
        let _ = option;
    }
    if let Ok(packet) = TcpPacket::new_checked(data) {
        let _ = (
            packet.src_port(),
            packet.dst_port(),
            packet.seq_number(),
            packet.ack_number(),
            packet.header_len(),
            packet.flags(),
            packet.window_len(),
            packet.checksum(),
            packet.urgent_at(),
        );
        // Let the checksum pass so that option parsing is reached.
        let mut fixed = data.to_vec();
        if fixed.len() <= usize::from(u16::MAX) {
            TcpPacket::new_unchecked(&mut fixed[..]).fill_checksum(a, b);
        }
        for bytes in [data, &fixed[..]] {
            let packet = TcpPacket::new_unchecked(bytes);
            if let Ok(repr) = TcpRepr::parse(&packet, a, b) {
                let rebuilt = tcp_segment(a, b, 64, 0, &repr, packet.payload());
                let ip = Ipv4Packet::new_checked(&rebuilt[..]).expect("emitted IPv4 is valid");
                let again = TcpRepr::parse(&TcpPacket::new_unchecked(ip.payload()), a, b)
                    .expect("emitted TCP is valid");
                // Options the emitter does not write (unknown kinds, blocks past the space)
                // may differ; the fixed fields must not.
                assert_eq!(
                    (again.src_port, again.dst_port, again.seq_number),
                    (repr.src_port, repr.dst_port, repr.seq_number)
                );
                assert_eq!(
                    (again.ack_number, again.flags, again.window_len),
                    (repr.ack_number, repr.flags, repr.window_len)
                );
                assert_eq!(again.payload_len, repr.payload_len);
            }
        }
    }
    if let Ok(ip) = Ipv4Packet::new_checked(data) {
        if ip.protocol() == IpProtocol::Tcp {
            let (src, dst) = (ip.src_addr(), ip.dst_addr());
            if let Ok(packet) = TcpPacket::new_checked(ip.payload()) {
                let _ = TcpRepr::parse(&packet, src, dst);
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const SRC: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
    const DST: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

    /// A SYN from 10.0.0.1:40000 to 10.0.0.2:80, seq 0x01020304, window 65535, with MSS 1460,
    /// window scale 7, SACK-permitted and timestamps (tsval 0x11223344, tsecr 0). The checksum
    /// 0x4f01 was computed independently with a few lines of Python (pseudo-header + header,
    /// RFC 1071 sum, complement).
    const SYN: [u8; 40] = [
        0x9c, 0x40, 0x00, 0x50, // ports 40000 → 80
        0x01, 0x02, 0x03, 0x04, // seq
        0x00, 0x00, 0x00, 0x00, // ack
        0xa0, 0x02, 0xff, 0xff, // offset 10 words, SYN, window
        0x4f, 0x01, 0x00, 0x00, // checksum, urgent
        0x02, 0x04, 0x05, 0xb4, // MSS 1460
        0x01, 0x03, 0x03, 0x07, // NOP, WS 7
        0x04, 0x02, 0x08, 0x0a, // SACK-permitted, TS
        0x11, 0x22, 0x33, 0x44, // tsval
        0x00, 0x00, 0x00, 0x00, // tsecr
    ];

    fn syn_repr() -> TcpRepr {
        TcpRepr {
            src_port: 40000,
            dst_port: 80,
            seq_number: TcpSeqNumber(0x0102_0304),
            ack_number: None,
            flags: TcpFlags::SYN,
            window_len: 65535,
            window_scale: Some(7),
            max_seg_size: Some(1460),
            sack_permitted: true,
            sack_ranges: [None; 4],
            timestamp: Some(TcpTimestamp {
                tsval: 0x1122_3344,
                tsecr: 0,
            }),
            payload_len: 0,
        }
    }

    /// An ACK from 10.0.0.2:80 to 10.0.0.1:40000 with 3 bytes of data ("abc"), seq 1000, ack
    /// 0x01020305, PSH, window 1024 and two SACK blocks [2000, 3000) and [4000, 5000). Checksum
    /// 0xa20d computed independently with Python.
    const DATA_SACK: [u8; 43] = [
        0x00, 0x50, 0x9c, 0x40, // ports 80 → 40000
        0x00, 0x00, 0x03, 0xe8, // seq 1000
        0x01, 0x02, 0x03, 0x05, // ack
        0xa0, 0x18, 0x04, 0x00, // offset 10 words, ACK|PSH, window 1024
        0xa2, 0x0d, 0x00, 0x00, // checksum, urgent
        0x01, 0x01, 0x05, 0x12, // NOP NOP SACK len 18
        0x00, 0x00, 0x07, 0xd0, 0x00, 0x00, 0x0b, 0xb8, // [2000, 3000)
        0x00, 0x00, 0x0f, 0xa0, 0x00, 0x00, 0x13, 0x88, // [4000, 5000)
        b'a', b'b', b'c',
    ];

    fn data_repr() -> TcpRepr {
        TcpRepr {
            src_port: 80,
            dst_port: 40000,
            seq_number: TcpSeqNumber(1000),
            ack_number: Some(TcpSeqNumber(0x0102_0305)),
            flags: TcpFlags::PSH,
            window_len: 1024,
            sack_ranges: [Some((2000, 3000)), Some((4000, 5000)), None, None],
            payload_len: 3,
            ..TcpRepr::default()
        }
    }

    #[test]
    fn seq_number_wraps() {
        let a = TcpSeqNumber(u32::MAX - 1);
        let b = a + 5;
        assert_eq!(b, TcpSeqNumber(3));
        assert!(b > a);
        assert!(a < b);
        assert_eq!(b - a, 5);
        assert_eq!(a - b, -5);
        assert_eq!(b - 5, a);
        assert_eq!(a.max(b), b);
        assert_eq!(a.min(b), a);
        let half = TcpSeqNumber(0) + (1 << 31);
        assert_eq!(TcpSeqNumber(0).partial_cmp(&half), None);
        assert!(TcpSeqNumber(0) < half - 1);
        assert!(TcpSeqNumber(0) > half + 1);
    }

    #[test]
    fn flags_debug() {
        assert_eq!(format!("{:?}", TcpFlags::SYN | TcpFlags::ACK), "SYN|ACK");
        assert_eq!(format!("{:?}", TcpFlags::empty()), "-");
    }

    #[test]
    fn deconstruct_syn() {
        let packet = TcpPacket::new_checked(&SYN[..]).unwrap();
        assert_eq!(packet.src_port(), 40000);
        assert_eq!(packet.dst_port(), 80);
        assert_eq!(packet.seq_number(), TcpSeqNumber(0x0102_0304));
        assert_eq!(packet.header_len(), 40);
        assert_eq!(packet.flags(), TcpFlags::SYN);
        assert_eq!(packet.window_len(), 65535);
        assert_eq!(packet.checksum(), 0x4f01);
        assert!(packet.verify_checksum(SRC, DST));
        assert!(!packet.verify_checksum(SRC, Ipv4Addr::new(10, 0, 0, 3)));
        let options: Vec<_> = packet.option_iter().map(|o| o.unwrap()).collect();
        assert_eq!(
            options,
            vec![
                TcpOption::MaxSegmentSize(1460),
                TcpOption::NoOperation,
                TcpOption::WindowScale(7),
                TcpOption::SackPermitted,
                TcpOption::Timestamps(TcpTimestamp {
                    tsval: 0x1122_3344,
                    tsecr: 0
                }),
            ]
        );
        assert!(packet.payload().is_empty());
    }

    #[test]
    fn parse_and_emit_syn() {
        let packet = TcpPacket::new_checked(&SYN[..]).unwrap();
        assert_eq!(TcpRepr::parse(&packet, SRC, DST), Ok(syn_repr()));
        let repr = syn_repr();
        assert_eq!(repr.header_len(), 40);
        assert_eq!(repr.segment_len(), 1);
        let mut bytes = [0xa5u8; 40];
        repr.emit(
            &mut TcpPacket::new_unchecked(&mut bytes[..]),
            SRC,
            DST,
            |_| {},
        );
        assert_eq!(bytes, SYN);
    }

    #[test]
    fn parse_and_emit_data_with_sack() {
        let packet = TcpPacket::new_checked(&DATA_SACK[..]).unwrap();
        assert_eq!(packet.payload(), b"abc");
        assert_eq!(TcpRepr::parse(&packet, DST, SRC), Ok(data_repr()));
        assert_eq!(
            TcpRepr::parse(&packet, DST, Ipv4Addr::new(10, 0, 0, 3)),
            Err(WireError::BadChecksum)
        );
        let repr = data_repr();
        assert_eq!(repr.buffer_len(), 43);
        let mut bytes = [0u8; 43];
        repr.emit(
            &mut TcpPacket::new_unchecked(&mut bytes[..]),
            DST,
            SRC,
            |d| d.copy_from_slice(b"abc"),
        );
        assert_eq!(bytes, DATA_SACK);
    }

    #[test]
    fn construct_by_fields() {
        let mut bytes = [0u8; 43];
        let mut packet = TcpPacket::new_unchecked(&mut bytes[..]);
        packet.set_src_port(80);
        packet.set_dst_port(40000);
        packet.set_seq_number(TcpSeqNumber(1000));
        packet.set_ack_number(TcpSeqNumber(0x0102_0305));
        packet.set_header_len(40);
        packet.set_flags(TcpFlags::ACK | TcpFlags::PSH);
        packet.set_window_len(1024);
        packet.set_urgent_at(0);
        packet.options_mut().copy_from_slice(&DATA_SACK[20..40]);
        packet.payload_mut().copy_from_slice(b"abc");
        packet.fill_checksum(DST, SRC);
        assert_eq!(bytes, DATA_SACK);
    }

    #[test]
    fn truncated_and_malformed_headers() {
        for len in 0..40 {
            assert_eq!(
                TcpPacket::new_checked(&SYN[..len]).map(|_| ()),
                Err(WireError::Truncated),
                "prefix of {len} bytes"
            );
        }
        let mut bytes = SYN;
        bytes[12] = 0x40; // data offset 4 words
        assert_eq!(
            TcpPacket::new_checked(&bytes[..]).map(|_| ()),
            Err(WireError::Malformed)
        );
        let unchecked = TcpPacket::new_unchecked(&bytes[..]);
        assert!(unchecked.options().is_empty());
        assert!(unchecked.payload().is_empty());
        assert_eq!(
            TcpRepr::parse(&unchecked, SRC, DST),
            Err(WireError::Malformed)
        );
    }

    /// Replaces the options of the SYN fixture by `options` (padded with EOL) and fixes the
    /// checksum, so that parse errors come from the options alone.
    fn with_options(options: &[u8]) -> Vec<u8> {
        let padded = options.len().div_ceil(4) * 4;
        let mut bytes = SYN[..20].to_vec();
        bytes.extend_from_slice(options);
        bytes.resize(20 + padded, 0);
        let mut packet = TcpPacket::new_unchecked(&mut bytes[..]);
        packet.set_header_len((20 + padded) as u8);
        packet.fill_checksum(SRC, DST);
        bytes
    }

    #[test]
    fn nonsense_options_are_errors() {
        let cases: [&[u8]; 10] = [
            &[1, 1, 1, 30, 10],  // an option running past the header
            &[2, 3, 5, 0],       // MSS with length 3
            &[3, 2, 1, 1],       // window scale with length 2
            &[4, 3, 0, 1],       // SACK-permitted with length 3
            &[5, 2, 1, 1],       // SACK without blocks
            &[5, 6, 0, 0, 0, 0], // SACK with a partial block
            &[8, 6, 0, 0, 0, 0], // timestamps too short
            &[30, 0, 1, 1],      // length 0
            &[30, 1, 1, 1],      // length 1
            &[1, 1, 1, 99],      // unknown kind without a length byte
        ];
        for options in cases {
            let bytes = with_options(options);
            let packet = TcpPacket::new_checked(&bytes[..]).unwrap();
            assert_eq!(
                TcpRepr::parse(&packet, SRC, DST),
                Err(WireError::Malformed),
                "options {options:?}"
            );
            // The iterator reports the error once and stops.
            let items: Vec<_> = packet.option_iter().collect();
            assert_eq!(items.iter().filter(|o| o.is_err()).count(), 1);
            assert!(items.last().unwrap().is_err());
        }
    }

    #[test]
    fn unknown_options_and_padding_are_skipped() {
        let bytes = with_options(&[30, 4, 0xde, 0xad, 2, 4, 0x02, 0x18, 0, 77, 77]);
        let packet = TcpPacket::new_checked(&bytes[..]).unwrap();
        let repr = TcpRepr::parse(&packet, SRC, DST).unwrap();
        assert_eq!(repr.max_seg_size, Some(536));
        assert_eq!(
            packet.option_iter().next(),
            Some(Ok(TcpOption::Unknown {
                kind: 30,
                data: &[0xde, 0xad]
            }))
        );
    }

    #[test]
    fn sack_blocks_are_limited_by_option_space() {
        let blocks = [Some((1, 2)), Some((3, 4)), Some((5, 6)), Some((7, 8))];
        let mut repr = TcpRepr {
            ack_number: Some(TcpSeqNumber(1)),
            sack_ranges: blocks,
            ..TcpRepr::default()
        };
        assert_eq!(repr.sack_blocks_emitted(), 4);
        assert_eq!(repr.header_len(), 20 + 36);
        repr.timestamp = Some(TcpTimestamp::default());
        // RFC 2018 §3: with timestamps at most 3 blocks fit.
        assert_eq!(repr.sack_blocks_emitted(), 3);
        assert_eq!(repr.header_len(), 20 + 12 + 28);
        repr.max_seg_size = Some(1000);
        repr.window_scale = Some(2);
        repr.sack_permitted = true;
        assert_eq!(repr.sack_blocks_emitted(), 2);
        assert!(repr.header_len() <= MAX_HEADER_LEN);
        let bytes = tcp_segment(SRC, DST, 64, 1, &repr, b"");
        let ip = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        let parsed = TcpRepr::parse(&TcpPacket::new_checked(ip.payload()).unwrap(), SRC, DST);
        assert_eq!(
            parsed.unwrap().sack_ranges,
            [Some((1, 2)), Some((3, 4)), None, None]
        );
    }

    #[test]
    fn full_segment() {
        let bytes = tcp_segment(DST, SRC, 64, 0x1234, &data_repr(), b"abc");
        assert_eq!(bytes.len(), 20 + 43);
        let ip = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        let ip_repr = Ipv4Repr::parse(&ip).unwrap();
        assert_eq!(ip_repr.protocol, IpProtocol::Tcp);
        assert!(ip_repr.dont_frag);
        assert_eq!(ip.payload(), &DATA_SACK);
    }

    #[test]
    fn bad_checksum_detected() {
        let mut bytes = SYN;
        bytes[5] ^= 0x10;
        let packet = TcpPacket::new_checked(&bytes[..]).unwrap();
        assert_eq!(
            TcpRepr::parse(&packet, SRC, DST),
            Err(WireError::BadChecksum)
        );
    }

    #[test]
    fn fuzz_entry_accepts_fixtures() {
        fuzz_parse_tcp(&SYN);
        fuzz_parse_tcp(&DATA_SACK);
        fuzz_parse_tcp(&tcp_segment(SRC, DST, 1, 1, &syn_repr(), b"xyz"));
        fuzz_parse_tcp(&[]);
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn addr() -> impl Strategy<Value = Ipv4Addr> {
        any::<u32>().prop_map(Ipv4Addr::from)
    }

    /// Reprs that emit exactly what they hold: no ACK in `flags`, SACK blocks leading and
    /// fitting in the option space.
    fn repr() -> impl Strategy<Value = TcpRepr> {
        (
            (
                any::<u16>(),
                any::<u16>(),
                any::<u32>(),
                any::<Option<u32>>(),
            ),
            (any::<u8>(), any::<u16>()),
            (
                any::<Option<u8>>(),
                any::<Option<u16>>(),
                any::<bool>(),
                any::<Option<(u32, u32)>>(),
            ),
            proptest::collection::vec(any::<(u32, u32)>(), 0..=4),
            0usize..1500,
        )
            .prop_map(
                |((sp, dp, seq, ack), (flags, win), (ws, mss, sp_ok, ts), blocks, len)| {
                    let mut repr = TcpRepr {
                        src_port: sp,
                        dst_port: dp,
                        seq_number: TcpSeqNumber(seq),
                        ack_number: ack.map(TcpSeqNumber),
                        flags: TcpFlags::from_bits(flags).without(TcpFlags::ACK),
                        window_len: win,
                        window_scale: ws,
                        max_seg_size: mss,
                        sack_permitted: sp_ok,
                        sack_ranges: [None; MAX_SACK_BLOCKS],
                        timestamp: ts.map(|(tsval, tsecr)| TcpTimestamp { tsval, tsecr }),
                        payload_len: len,
                    };
                    for (slot, block) in repr.sack_ranges.iter_mut().zip(blocks) {
                        *slot = Some(block);
                    }
                    let fit = repr.sack_blocks_emitted();
                    for slot in &mut repr.sack_ranges[fit..] {
                        *slot = None;
                    }
                    repr
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn round_trip(repr in repr(), src in addr(), dst in addr(), fill in any::<u8>()) {
            let payload = vec![fill; repr.payload_len];
            let bytes = tcp_segment(src, dst, 64, 9, &repr, &payload);
            let ip = Ipv4Packet::new_checked(&bytes[..]).unwrap();
            prop_assert_eq!(Ipv4Repr::parse(&ip).unwrap().payload_len, repr.buffer_len());
            let packet = TcpPacket::new_checked(ip.payload()).unwrap();
            prop_assert!(packet.header_len() as usize <= MAX_HEADER_LEN);
            prop_assert_eq!(packet.header_len() as usize % 4, 0);
            prop_assert_eq!(TcpRepr::parse(&packet, src, dst), Ok(repr));
            prop_assert_eq!(packet.payload(), &payload[..]);
        }

        #[test]
        fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..100)) {
            fuzz_parse_tcp(&data);
        }

        #[test]
        fn random_options_never_panic(
            offset in 5u8..16,
            options in proptest::collection::vec(any::<u8>(), 0..40),
            tail in proptest::collection::vec(any::<u8>(), 0..8),
        ) {
            let mut data = vec![0u8; 20];
            data[12] = offset << 4;
            data.extend(options);
            data.extend(tail);
            fuzz_parse_tcp(&data);
            if data.len() >= usize::from(offset) * 4 {
                let mut fixed = data.clone();
                TcpPacket::new_unchecked(&mut fixed[..]).fill_checksum(
                    Ipv4Addr::new(10, 0, 0, 1),
                    Ipv4Addr::new(10, 0, 0, 2),
                );
                // Whatever the options, parse returns a value or an error.
                let _ = TcpRepr::parse(
                    &TcpPacket::new_unchecked(&fixed[..]),
                    Ipv4Addr::new(10, 0, 0, 1),
                    Ipv4Addr::new(10, 0, 0, 2),
                );
            }
        }

        #[test]
        fn corrupted_segments_never_panic(
            repr in repr(),
            edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
            cut in 0usize..64,
        ) {
            let payload = vec![0x5a; repr.payload_len.min(64)];
            let mut bytes = tcp_segment(
                Ipv4Addr::new(10, 0, 0, 1),
                Ipv4Addr::new(10, 0, 0, 2),
                64,
                1,
                &repr,
                &payload,
            );
            for (at, value) in edits {
                let i = at % bytes.len();
                bytes[i] = value;
            }
            let keep = bytes.len().saturating_sub(cut);
            bytes.truncate(keep);
            fuzz_parse_tcp(&bytes);
            if bytes.len() > 20 {
                fuzz_parse_tcp(&bytes[20..]);
            }
        }
    }
}
