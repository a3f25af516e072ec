//! SCTP wire format (RFC 9260; RFC 5061 ASCONF; RFC 3758 FORWARD TSN; RFC 4895 AUTH; RFC 8260
//! I-DATA): the common header and
//! packet view [`SctpPacket`], the owned packet [`SctpRepr`], every chunk as [`ChunkRepr`], the
//! CRC32c checksum ([`crc32c`]), serial-number types ([`Tsn`], [`Ssn`], [`Mid`]) and the builder
//! [`sctp_packet`].
//!
//! ```
//! use sctpsim_wire::sctp::{
//!     sctp_packet, ChunkRepr, DataChunk, SctpPacket, SctpRepr, Ssn, Tsn,
//! };
//! use sctpsim_wire::{Ipv4Addr, Ipv4Packet, Ipv4Repr, IpProtocol};
//!
//! let data = ChunkRepr::Data(DataChunk {
//!     tsn: Tsn(1000),
//!     stream_id: 0,
//!     ssn: Ssn(0),
//!     ppid: 0,
//!     unordered: false,
//!     beginning: true,
//!     ending: true,
//!     immediate: false,
//!     user_data: b"hello".to_vec(),
//! });
//! let (a, b) = (Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 1, 2));
//! let bytes = sctp_packet(a, b, 64, 1, 5000, 80, 0xfeed_beef, &[data.clone()]);
//!
//! let ip = Ipv4Packet::new_checked(&bytes[..])?;
//! assert_eq!(Ipv4Repr::parse(&ip)?.protocol, IpProtocol::Sctp);
//! let sctp = SctpPacket::new_checked(ip.payload())?;
//! assert!(sctp.verify_checksum());
//! let repr = SctpRepr::parse(&sctp)?;
//! assert_eq!(repr.verification_tag, 0xfeed_beef);
//! assert_eq!(repr.chunks, vec![data]);
//! # Ok::<(), sctpsim_wire::WireError>(())
//! ```
//!
//! What is parsed, what is kept opaque and how it was validated: `docs/models/sctp-wire.md`.

pub(crate) mod bytes;
pub mod chunk;
pub mod crc32c;
pub mod packet;
pub mod serial;

pub use chunk::asconf::{AsconfAckChunk, AsconfChunk, HandoffIndication};
pub use chunk::auth::{hmac_id, AuthChunk};
pub use chunk::data::DataChunk;
pub use chunk::error_cause::{cause_code, ErrorCause};
pub use chunk::forward_tsn::{ForwardTsnChunk, ForwardTsnStream};
pub use chunk::i_data::{IDataChunk, IForwardTsnChunk, IForwardTsnStream};
pub use chunk::init::InitChunk;
pub use chunk::nr_sack::NrSackChunk;
pub use chunk::params::{param_type, Parameter};
pub use chunk::reconfig::{reconfig_param_type, ReconfigChunk, ReconfigParam, ReconfigResult};
pub use chunk::sack::{GapAckBlock, SackChunk};
pub use chunk::{chunk_type, ChunkRepr, UnknownChunk};
pub use packet::{
    emit_packet, packet_len, sctp_packet, try_sctp_packet, ChunkFault, Chunks, RawChunk,
    SctpPacket, SctpRepr,
};
pub use serial::{Mid, Ssn, Tsn};

use crate::ipv4::{IpProtocol, Ipv4Packet};

/// What a receiver must do with a chunk or parameter whose type it does not recognize, encoded
/// in the upper two bits of the type (RFC 9260 §3.2 for chunks, §3.2.1 for parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnrecognizedAction {
    /// `00`: chunk: "Stop processing this SCTP packet; discard the unrecognized chunk and all
    /// further chunks." Parameter: "Stop processing this parameter and do not process any
    /// further parameters within this chunk."
    Stop,
    /// `01`: as [`UnrecognizedAction::Stop`], and report it (chunk: in an ERROR chunk with an
    /// Unrecognized Chunk Type cause; parameter: as RFC 9260 §3.2.2 describes).
    StopAndReport,
    /// `10`: "Skip this chunk/parameter and continue processing."
    Skip,
    /// `11`: skip it and continue processing, but report it.
    SkipAndReport,
}

impl UnrecognizedAction {
    /// RFC 9260 §3.2: the action for an unrecognized chunk type (its two highest bits).
    pub const fn for_chunk_type(kind: u8) -> Self {
        Self::from_bits(kind >> 6)
    }

    /// RFC 9260 §3.2.1: the action for an unrecognized parameter type (its two highest bits).
    pub const fn for_parameter_type(kind: u16) -> Self {
        Self::from_bits((kind >> 14) as u8)
    }

    const fn from_bits(bits: u8) -> Self {
        match bits & 0b11 {
            0b00 => UnrecognizedAction::Stop,
            0b01 => UnrecognizedAction::StopAndReport,
            0b10 => UnrecognizedAction::Skip,
            _ => UnrecognizedAction::SkipAndReport,
        }
    }

    /// Whether processing stops (the packet for chunks, the chunk's parameters for
    /// parameters).
    pub const fn stops(self) -> bool {
        matches!(
            self,
            UnrecognizedAction::Stop | UnrecognizedAction::StopAndReport
        )
    }

    /// Whether the receiver must report the unrecognized item to the sender.
    pub const fn reports(self) -> bool {
        matches!(
            self,
            UnrecognizedAction::StopAndReport | UnrecognizedAction::SkipAndReport
        )
    }
}

/// Entry point for a fuzz target: treats `data` both as an IPv4 packet carrying SCTP and as a
/// bare SCTP packet, and exercises every accessor, the chunk iterator and every parser. Each
/// chunk that parses is emitted again and must parse back to the same value; a packet whose
/// checksum is repaired must then parse as a whole. The only failures a fuzzer can find are
/// panics (including those round-trip assertions).
pub fn fuzz_parse_sctp(data: &[u8]) {
    if let Ok(ip) = Ipv4Packet::new_checked(data) {
        if ip.protocol() == IpProtocol::Sctp {
            fuzz_sctp_layer(ip.payload());
        }
    }
    fuzz_sctp_layer(data);
}

fn fuzz_sctp_layer(data: &[u8]) {
    let unchecked = SctpPacket::new_unchecked(data);
    let _ = (
        unchecked.chunk_bytes(),
        unchecked.compute_checksum(),
        unchecked.verify_checksum(),
    );
    let _ = unchecked.chunks().count();
    let Ok(packet) = SctpPacket::new_checked(data) else {
        return;
    };
    let _ = (
        packet.src_port(),
        packet.dst_port(),
        packet.verification_tag(),
        packet.checksum(),
    );
    for raw in packet.chunks() {
        let Ok(raw) = raw else { break };
        let _ = (
            raw.kind(),
            raw.flags(),
            raw.length(),
            raw.value(),
            raw.bytes(),
        );
        if let Ok(repr) = raw.parse() {
            let bytes = repr.to_bytes().expect("a parsed chunk must be emittable");
            assert_eq!(bytes.len(), repr.buffer_len());
            let again = RawChunk::new_checked(&bytes)
                .and_then(|c| c.parse())
                .expect("an emitted chunk must parse");
            assert_eq!(again, repr, "chunk round trip");
            if let ChunkRepr::Unknown(u) = &repr {
                let _ = u.action();
            }
        }
    }
    // The lenient parse agrees with the strict one on good packets and, on bad ones, stops at
    // a fault after a prefix that is itself a valid packet.
    let strict = SctpRepr::parse(&packet);
    if let Ok((prefix, fault)) = SctpRepr::parse_lenient(&packet) {
        match (&strict, &fault) {
            (Ok(all), None) => assert_eq!(all, &prefix, "lenient parse of a good packet"),
            (Err(_), Some(f)) => {
                assert_eq!(f.index, prefix.chunks.len(), "fault index");
                let mut out = vec![0u8; prefix.buffer_len()];
                prefix
                    .emit(&mut out)
                    .expect("a parsed prefix must be emittable");
            }
            _ => panic!("strict and lenient parses disagree: {strict:?} / {fault:?}"),
        }
    }
    let mut fixed = data.to_vec();
    let mut fixed_packet = SctpPacket::new_unchecked(&mut fixed[..]);
    fixed_packet.fill_checksum();
    if let Ok(repr) = SctpRepr::parse(&SctpPacket::new_unchecked(&fixed[..])) {
        let mut out = vec![0u8; repr.buffer_len()];
        let len = repr
            .emit(&mut out)
            .expect("a parsed packet must be emittable");
        assert_eq!(len, out.len());
        let again = SctpRepr::parse(&SctpPacket::new_unchecked(&out[..]))
            .expect("an emitted packet must parse");
        assert_eq!(again, repr, "packet round trip");
    }
}
