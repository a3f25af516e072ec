//! The SCTP common header and packet (RFC 9260 §3.1): the packet view [`SctpPacket`], the chunk
//! iterator [`Chunks`] with its items [`RawChunk`], the owned representation [`SctpRepr`] and the
//! builder [`sctp_packet`] of a complete IPv4 + SCTP packet.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |     Source Port Number        |     Destination Port Number   |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      Verification Tag                         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                           Checksum                            |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                     Chunk #1 ... Chunk #n                     |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! SCTP has no length field: the packet is the whole IP payload.

use core::iter::FusedIterator;
use std::net::Ipv4Addr;

use super::bytes::{pad4, Writer};
use super::chunk::{ChunkRepr, CHUNK_HEADER_LEN};
use super::crc32c::sctp_checksum;
use crate::be::{read_u16, write_u16};
use crate::ipv4::{IpProtocol, Ipv4Packet, Ipv4Repr};
use crate::{Result, WireError};

/// RFC 9260 §3.1: the common header is 12 bytes.
pub const HEADER_LEN: usize = 12;

/// Byte ranges of the common header (RFC 9260 §3.1).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const SRC_PORT: Field = 0..2;
    pub(crate) const DST_PORT: Field = 2..4;
    pub(crate) const VERIFICATION_TAG: Field = 4..8;
    pub(crate) const CHECKSUM: Field = 8..12;
}

/// A read/write view of an SCTP packet (common header and chunks) in a buffer.
///
/// Build it with [`SctpPacket::new_checked`] for bytes from the wire: afterwards every accessor
/// is safe. With [`SctpPacket::new_unchecked`] the header accessors panic if the buffer is
/// shorter than 12 bytes (the chunk accessors and checksum functions never panic).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SctpPacket<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> SctpPacket<T> {
    /// Wraps a buffer without checking it; see [`SctpPacket::check_len`].
    pub const fn new_unchecked(buffer: T) -> Self {
        SctpPacket { buffer }
    }

    /// Wraps a buffer after [`SctpPacket::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let packet = Self::new_unchecked(buffer);
        packet.check_len()?;
        Ok(packet)
    }

    /// Checks that the common header fits ([`WireError::Truncated`] otherwise). Chunks are
    /// checked one by one as [`SctpPacket::chunks`] walks them.
    pub fn check_len(&self) -> Result<()> {
        if self.buffer.as_ref().len() < HEADER_LEN {
            return Err(WireError::Truncated);
        }
        Ok(())
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// RFC 9260 §3.1: the source port.
    pub fn src_port(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::SRC_PORT.start)
    }

    /// RFC 9260 §3.1: the destination port.
    pub fn dst_port(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::DST_PORT.start)
    }

    /// RFC 9260 §3.1: the verification tag.
    pub fn verification_tag(&self) -> u32 {
        let mut tag = [0u8; 4];
        tag.copy_from_slice(&self.buffer.as_ref()[field::VERIFICATION_TAG]);
        u32::from_be_bytes(tag)
    }

    /// RFC 9260 §3.1 and Appendix A: the CRC32c as stored. The field holds the CRC least
    /// significant byte first, so this reads it little-endian and the value compares directly
    /// with [`SctpPacket::compute_checksum`].
    pub fn checksum(&self) -> u32 {
        let mut crc = [0u8; 4];
        crc.copy_from_slice(&self.buffer.as_ref()[field::CHECKSUM]);
        u32::from_le_bytes(crc)
    }

    /// The CRC32c of the packet computed with the checksum field taken as zero (RFC 9260 §6.8).
    /// Never panics.
    pub fn compute_checksum(&self) -> u32 {
        sctp_checksum(self.buffer.as_ref())
    }

    /// RFC 9260 §6.8: whether the stored checksum matches the packet. False for a buffer
    /// shorter than the common header (never panics).
    pub fn verify_checksum(&self) -> bool {
        let data = self.buffer.as_ref();
        match data.get(field::CHECKSUM) {
            Some(stored) => {
                let mut crc = [0u8; 4];
                crc.copy_from_slice(stored);
                u32::from_le_bytes(crc) == sctp_checksum(data)
            }
            None => false,
        }
    }

    /// The bytes after the common header: the chunks. Empty if the buffer is shorter than the
    /// header (never panics).
    pub fn chunk_bytes(&self) -> &[u8] {
        self.buffer.as_ref().get(HEADER_LEN..).unwrap_or(&[])
    }

    /// Walks the chunks (RFC 9260 §3.2). Each item is a chunk delimited by its length field, or
    /// the error that ends the walk; see [`Chunks`]. Never panics.
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks::new(self.chunk_bytes())
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> SctpPacket<T> {
    /// Sets the source port.
    pub fn set_src_port(&mut self, port: u16) {
        write_u16(self.buffer.as_mut(), field::SRC_PORT.start, port);
    }

    /// Sets the destination port.
    pub fn set_dst_port(&mut self, port: u16) {
        write_u16(self.buffer.as_mut(), field::DST_PORT.start, port);
    }

    /// Sets the verification tag.
    pub fn set_verification_tag(&mut self, tag: u32) {
        self.buffer.as_mut()[field::VERIFICATION_TAG].copy_from_slice(&tag.to_be_bytes());
    }

    /// Stores a raw CRC32c value (least significant byte first, RFC 9260 Appendix A).
    pub fn set_checksum(&mut self, crc: u32) {
        self.buffer.as_mut()[field::CHECKSUM].copy_from_slice(&crc.to_le_bytes());
    }

    /// Computes the CRC32c over the whole buffer and stores it (RFC 9260 §6.8: computed with
    /// the field zero, placed as RFC 9260 Appendix A specifies).
    pub fn fill_checksum(&mut self) {
        let crc = self.compute_checksum();
        self.set_checksum(crc);
    }

    /// The bytes after the common header, mutably. Empty if the buffer is shorter than the
    /// header (never panics).
    pub fn chunk_bytes_mut(&mut self) -> &mut [u8] {
        match self.buffer.as_mut().get_mut(HEADER_LEN..) {
            Some(chunks) => chunks,
            None => &mut [],
        }
    }
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for SctpPacket<T> {
    fn as_ref(&self) -> &[u8] {
        self.buffer.as_ref()
    }
}

/// One chunk as found in a packet: type, flags and the bytes its length field delimits
/// (RFC 9260 §3.2). Padding is not included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawChunk<'a> {
    kind: u8,
    flags: u8,
    /// Exactly `length` bytes: header and value.
    bytes: &'a [u8],
}

impl<'a> RawChunk<'a> {
    /// Reads the chunk at the start of `data` (bytes after its length are ignored).
    ///
    /// Errors: [`WireError::Truncated`] if the 4-byte header does not fit or the length runs
    /// past the end of `data`, [`WireError::Malformed`] if the length is below 4 (RFC 9260
    /// §3.2: the length counts the header).
    pub fn new_checked(data: &'a [u8]) -> Result<RawChunk<'a>> {
        let header = data.get(..CHUNK_HEADER_LEN).ok_or(WireError::Truncated)?;
        let (kind, flags) = (header[0], header[1]);
        let length = usize::from(u16::from_be_bytes([header[2], header[3]]));
        if length < CHUNK_HEADER_LEN {
            return Err(WireError::Malformed);
        }
        let bytes = data.get(..length).ok_or(WireError::Truncated)?;
        Ok(RawChunk { kind, flags, bytes })
    }

    /// RFC 9260 §3.2: the chunk type.
    pub fn kind(&self) -> u8 {
        self.kind
    }

    /// RFC 9260 §3.2: the chunk flags.
    pub fn flags(&self) -> u8 {
        self.flags
    }

    /// RFC 9260 §3.2: the chunk length (header and value, no padding).
    pub fn length(&self) -> usize {
        self.bytes.len()
    }

    /// The chunk value (after the 4-byte header, no padding).
    pub fn value(&self) -> &'a [u8] {
        self.bytes.get(CHUNK_HEADER_LEN..).unwrap_or(&[])
    }

    /// The whole chunk, header and value, without padding: what an Unrecognized Chunk Type
    /// error cause copies (RFC 9260 §3.3.10.6).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Parses this chunk; see [`ChunkRepr::parse`].
    pub fn parse(&self) -> Result<ChunkRepr> {
        ChunkRepr::parse(self)
    }
}

/// Iterator over the chunks of a packet (RFC 9260 §3.2), from [`SctpPacket::chunks`].
///
/// Yields `Ok(chunk)` for each chunk and steps over its padding (up to 3 bytes, not checked:
/// "the receiver MUST ignore the padding"; a missing pad after the last chunk is tolerated). A
/// chunk header that does not fit ([`WireError::Truncated`]), a length below 4
/// ([`WireError::Malformed`]) or past the end ([`WireError::Truncated`]) yields one `Err` and
/// ends the iteration: nothing after it can be delimited.
#[derive(Debug, Clone)]
pub struct Chunks<'a> {
    rest: &'a [u8],
}

impl<'a> Chunks<'a> {
    /// Walks the chunks in `data` (the bytes after the common header).
    pub fn new(data: &'a [u8]) -> Self {
        Chunks { rest: data }
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<RawChunk<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        match RawChunk::new_checked(self.rest) {
            Ok(chunk) => {
                let step = pad4(chunk.length()).min(self.rest.len());
                self.rest = self.rest.get(step..).unwrap_or(&[]);
                Some(Ok(chunk))
            }
            Err(e) => {
                self.rest = &[];
                Some(Err(e))
            }
        }
    }
}

impl FusedIterator for Chunks<'_> {}

/// An SCTP packet, owned: the common header fields and the chunks (RFC 9260 §3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SctpRepr {
    /// Source port.
    pub src_port: u16,
    /// Destination port.
    pub dst_port: u16,
    /// Verification tag.
    pub verification_tag: u32,
    /// The chunks, in order.
    pub chunks: Vec<ChunkRepr>,
}

impl SctpRepr {
    /// RFC 9260 §3.1: the common header is 12 bytes.
    pub const HEADER_LEN: usize = HEADER_LEN;

    /// Parses a packet: verifies the CRC32c ([`WireError::BadChecksum`], RFC 9260 §6.8: "the
    /// receiver ... MUST silently discard" a packet whose checksum fails), then every chunk
    /// ([`ChunkRepr::parse`]). The first chunk that cannot be parsed fails the whole packet;
    /// use [`SctpPacket::chunks`] to process chunk by chunk instead.
    pub fn parse<T: AsRef<[u8]>>(packet: &SctpPacket<T>) -> Result<SctpRepr> {
        match SctpRepr::parse_lenient(packet)? {
            (repr, None) => Ok(repr),
            (_, Some(fault)) => Err(fault.error),
        }
    }

    /// Parses a packet chunk by chunk, as a receiver processes it (RFC 9260 §3.2: "If the
    /// receiver detects a partial chunk, it MUST drop the chunk"): the CRC32c and the common
    /// header must be valid (errors as [`SctpRepr::parse`]), then the chunks are parsed in
    /// order up to the first that cannot be — a header that does not fit, a length below 4 or
    /// past the end of the packet, or a value [`ChunkRepr::parse`] rejects. That chunk is
    /// returned as a [`ChunkFault`] and nothing after it is parsed: after a bad length nothing
    /// can be delimited, and after a malformed value the sender's framing is not to be
    /// trusted. The receiver decides what the fault means (a DATA chunk shorter than its
    /// header aborts the association, an INIT with a bad parameter is refused, anything else
    /// ends the processing of the packet).
    pub fn parse_lenient<T: AsRef<[u8]>>(
        packet: &SctpPacket<T>,
    ) -> Result<(SctpRepr, Option<ChunkFault>)> {
        packet.check_len()?;
        if !packet.verify_checksum() {
            return Err(WireError::BadChecksum);
        }
        let mut chunks = Vec::new();
        let mut fault = None;
        let mut walk = packet.chunks();
        loop {
            let at = walk.rest;
            let Some(raw) = walk.next() else {
                break;
            };
            match raw.and_then(|c| ChunkRepr::parse(&c)) {
                Ok(chunk) => chunks.push(chunk),
                Err(error) => {
                    fault = Some(ChunkFault::new(chunks.len(), at, error));
                    break;
                }
            }
        }
        Ok((
            SctpRepr {
                src_port: packet.src_port(),
                dst_port: packet.dst_port(),
                verification_tag: packet.verification_tag(),
                chunks,
            },
            fault,
        ))
    }

    /// Length of the emitted packet: the header plus every chunk padded.
    pub fn buffer_len(&self) -> usize {
        packet_len(&self.chunks)
    }

    /// Writes the packet at the start of `buf` with a real CRC32c and returns its length
    /// ([`SctpRepr::buffer_len`]).
    ///
    /// Errors: [`WireError::Truncated`] if `buf` is too short, [`WireError::Malformed`] if a
    /// chunk cannot be encoded (see [`ChunkRepr::emit`]).
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize> {
        emit_packet(
            self.src_port,
            self.dst_port,
            self.verification_tag,
            &self.chunks,
            buf,
        )
    }
}

/// A chunk that [`SctpRepr::parse_lenient`] could not parse, and where it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkFault {
    /// Its position in the packet: the number of chunks parsed before it.
    pub index: usize,
    /// The chunk type, if at least one byte of the chunk was there.
    pub kind: Option<u8>,
    /// The chunk flags (0 if absent).
    pub flags: u8,
    /// The Chunk Length field (0 if the header did not fit).
    pub length: u16,
    /// The chunk's value bytes that were in the packet: after the 4-byte header, up to the
    /// Chunk Length or the end of the packet, whichever comes first.
    pub value: Vec<u8>,
    /// Why it could not be parsed: [`WireError::Truncated`] (header, length or a field past
    /// the end) or [`WireError::Malformed`] (a length below 4, an impossible value).
    pub error: WireError,
}

impl ChunkFault {
    fn new(index: usize, rest: &[u8], error: WireError) -> Self {
        let byte = |i: usize| rest.get(i).copied();
        let length = match (byte(2), byte(3)) {
            (Some(hi), Some(lo)) => u16::from_be_bytes([hi, lo]),
            _ => 0,
        };
        let end = usize::from(length).clamp(CHUNK_HEADER_LEN, rest.len().max(CHUNK_HEADER_LEN));
        ChunkFault {
            index,
            kind: byte(0),
            flags: byte(1).unwrap_or(0),
            length,
            value: rest.get(CHUNK_HEADER_LEN..end).unwrap_or(&[]).to_vec(),
            error,
        }
    }

    /// Whether the Chunk Length delimits the chunk inside the packet (the fault is in its
    /// value), as opposed to a header that does not fit or a length below 4 or past the end
    /// (RFC 9260 §3.2: a partial chunk).
    pub fn is_delimited(&self) -> bool {
        usize::from(self.length) >= CHUNK_HEADER_LEN
            && self.value.len() == usize::from(self.length) - CHUNK_HEADER_LEN
    }
}

/// Length of an SCTP packet carrying `chunks`: 12 + the padded length of each chunk.
pub fn packet_len(chunks: &[ChunkRepr]) -> usize {
    chunks
        .iter()
        .fold(HEADER_LEN, |len, c| len.saturating_add(c.buffer_len()))
}

/// Writes an SCTP packet (common header, `chunks`, CRC32c) at the start of `buf`; returns its
/// length ([`packet_len`]). Errors as for [`SctpRepr::emit`].
pub fn emit_packet(
    src_port: u16,
    dst_port: u16,
    verification_tag: u32,
    chunks: &[ChunkRepr],
    buf: &mut [u8],
) -> Result<usize> {
    let mut w = Writer::new(buf);
    w.u16(src_port)?;
    w.u16(dst_port)?;
    w.u32(verification_tag)?;
    w.u32(0)?;
    for chunk in chunks {
        chunk.emit_into(&mut w)?;
    }
    let len = w.pos();
    let mut packet = SctpPacket::new_unchecked(buf.get_mut(..len).ok_or(WireError::Truncated)?);
    packet.fill_checksum();
    Ok(len)
}

/// Builds a complete IPv4 + SCTP packet (protocol 132) from `src` to `dst`, with a real IPv4
/// header checksum and a real CRC32c. The IPv4 header has no options, DSCP 0 and DF clear.
///
/// Errors: [`WireError::Malformed`] if a chunk cannot be encoded (see [`ChunkRepr::emit`]) or
/// the packet exceeds the 65535-byte IPv4 total length.
#[allow(clippy::too_many_arguments)]
pub fn try_sctp_packet(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    ttl: u8,
    ident: u16,
    src_port: u16,
    dst_port: u16,
    vtag: u32,
    chunks: &[ChunkRepr],
) -> Result<Vec<u8>> {
    let sctp_len = packet_len(chunks);
    if sctp_len > Ipv4Repr::MAX_PAYLOAD_LEN {
        return Err(WireError::Malformed);
    }
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IpProtocol::Sctp,
        payload_len: sctp_len,
        ttl,
        ident,
        dscp: 0,
        dont_frag: false,
    };
    let mut buf = vec![0u8; ip.buffer_len()];
    let mut ip_packet = Ipv4Packet::new_unchecked(&mut buf[..]);
    ip.emit(&mut ip_packet);
    emit_packet(src_port, dst_port, vtag, chunks, ip_packet.payload_mut())?;
    Ok(buf)
}

/// Builds a complete IPv4 + SCTP packet (protocol 132) from `src` to `dst` carrying `chunks`,
/// with a real IPv4 header checksum and a real CRC32c; see [`try_sctp_packet`].
///
/// # Panics
/// If a chunk cannot be encoded or the packet does not fit in one IPv4 packet (caller bugs, not
/// packet content); [`try_sctp_packet`] returns an error instead.
#[allow(clippy::too_many_arguments)]
pub fn sctp_packet(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    ttl: u8,
    ident: u16,
    src_port: u16,
    dst_port: u16,
    vtag: u32,
    chunks: &[ChunkRepr],
) -> Vec<u8> {
    match try_sctp_packet(src, dst, ttl, ident, src_port, dst_port, vtag, chunks) {
        Ok(packet) => packet,
        Err(e) => panic!(
            "cannot build an SCTP packet of {} chunks: {e}",
            chunks.len()
        ),
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::sctp::chunk::params::Parameter;
    use crate::sctp::ErrorCause;

    /// A packet with our test header and `chunks` (raw bytes), CRC32c filled in.
    fn packet(chunks: &[u8]) -> Vec<u8> {
        let mut b = vec![0, 80, 19, 136, 0, 0, 0, 7, 0, 0, 0, 0];
        b.extend_from_slice(chunks);
        SctpPacket::new_unchecked(&mut b[..]).fill_checksum();
        b
    }

    fn lenient(b: &[u8]) -> (SctpRepr, Option<ChunkFault>) {
        SctpRepr::parse_lenient(&SctpPacket::new_checked(b).unwrap()).unwrap()
    }

    const COOKIE_ACK: [u8; 4] = [11, 0, 0, 4];

    #[test]
    fn lenient_parse_keeps_the_chunks_before_a_partial_chunk() {
        // COOKIE ACK, then a SHUTDOWN ACK whose length (12) runs past the end.
        let b = packet(&[&COOKIE_ACK[..], &[8, 0, 0, 12, 1, 2]].concat());
        assert!(SctpRepr::parse(&SctpPacket::new_checked(&b[..]).unwrap()).is_err());
        let (repr, fault) = lenient(&b);
        assert_eq!(repr.chunks, vec![ChunkRepr::CookieAck]);
        let f = fault.unwrap();
        assert_eq!((f.index, f.kind, f.length), (1, Some(8), 12));
        assert_eq!(f.value, vec![1, 2]);
        assert_eq!(f.error, WireError::Truncated);
        assert!(!f.is_delimited());
    }

    #[test]
    fn lenient_parse_reports_lengths_below_4_and_short_headers() {
        let (repr, f) = lenient(&packet(&[&COOKIE_ACK[..], &[14, 0, 0, 2]].concat()));
        assert_eq!(repr.chunks.len(), 1);
        let f = f.unwrap();
        assert_eq!(
            (f.kind, f.length, f.error),
            (Some(14), 2, WireError::Malformed)
        );
        assert!(!f.is_delimited());
        let (_, f) = lenient(&packet(&[&COOKIE_ACK[..], &[14, 0]].concat()));
        let f = f.unwrap();
        assert_eq!(
            (f.kind, f.length, f.error),
            (Some(14), 0, WireError::Truncated)
        );
    }

    #[test]
    fn a_data_chunk_shorter_than_its_header_is_a_delimited_fault() {
        // DATA with length 12: TSN, stream and SSN but no PPID.
        let (repr, f) = lenient(&packet(&[0, 3, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0]));
        assert!(repr.chunks.is_empty());
        let f = f.unwrap();
        assert_eq!((f.index, f.kind, f.flags), (0, Some(0), 3));
        assert!(f.is_delimited());
    }

    #[test]
    fn a_well_formed_packet_has_no_fault() {
        let b = packet(&[&COOKIE_ACK[..], &COOKIE_ACK[..]].concat());
        let (repr, f) = lenient(&b);
        assert_eq!(repr.chunks.len(), 2);
        assert_eq!(f, None);
    }

    #[test]
    fn abort_causes_are_kept_up_to_the_first_bad_one() {
        // ABORT: Out of Resource (code 4, length 4), then a cause whose length is 2.
        let b = packet(&[6, 0, 0, 12, 0, 4, 0, 4, 0, 1, 0, 2]);
        let (repr, f) = lenient(&b);
        assert_eq!(f, None);
        assert_eq!(
            repr.chunks,
            vec![ChunkRepr::Abort {
                t_bit: false,
                causes: vec![ErrorCause::OutOfResource]
            }]
        );
    }

    #[test]
    fn first_invalid_parameter() {
        // A good Forward-TSN-Supported, then an IPv4 address parameter of length 12.
        let good = [0xc0, 0, 0, 4];
        let bad_addr = [0, 5, 0, 12, 10, 0, 0, 1, 0, 0, 0, 0];
        assert_eq!(Parameter::first_invalid(&good), None);
        let list = [&good[..], &bad_addr[..]].concat();
        assert_eq!(Parameter::first_invalid(&list), Some((5, 12)));
        assert!(Parameter::parse_list(&list).is_err());
        // Length below 4, length past the end, a header cut short.
        assert_eq!(
            Parameter::first_invalid(&[0x80, 8, 0, 2]),
            Some((0x8008, 2))
        );
        assert_eq!(
            Parameter::first_invalid(&[0x80, 8, 0, 9, 0]),
            Some((0x8008, 9))
        );
        assert_eq!(Parameter::first_invalid(&[0x80, 8]), Some((0, 0)));
        // The last parameter may lack its padding.
        assert_eq!(Parameter::first_invalid(&[0x80, 8, 0, 5, 1]), None);
    }
}
