//! AODV control messages (RFC 3561 §5): Route Request (type 1), Route Reply (type 2), Route
//! Error (type 3) and Route Reply Acknowledgment (type 4), carried in UDP to port 654
//! ([`AODV_PORT`]).
//!
//! Unlike the header codecs of this crate there is no zero-copy `Packet` view: AODV messages
//! are small fixed layouts, so [`AodvRepr::parse`] reads the whole message at once and
//! [`AodvRepr::emit`] writes it back. Every length is checked before it is read: a message
//! shorter than its type's fixed part is [`WireError::Truncated`], a Route Error whose
//! DestCount is zero or does not fit is [`WireError::Malformed`] or [`WireError::Truncated`],
//! an unknown type is [`WireError::Unsupported`].
//!
//! RFC 3561 §5.1 allows extensions (type, length, data) after the fixed part of a message.
//! sctpsim emits none; the parser accepts trailing bytes only if they form a well-formed
//! sequence of extensions and ignores their content (they carry nothing this model uses).
//!
//! ```
//! use sctpsim_wire::aodv::{AodvRepr, RreqRepr};
//! use std::net::Ipv4Addr;
//!
//! let rreq = AodvRepr::Rreq(RreqRepr {
//!     join: false,
//!     repair: false,
//!     gratuitous: false,
//!     destination_only: false,
//!     unknown_seq: true,
//!     hop_count: 0,
//!     rreq_id: 7,
//!     dst: Ipv4Addr::new(10, 0, 0, 9),
//!     dst_seq: 0,
//!     orig: Ipv4Addr::new(10, 0, 0, 1),
//!     orig_seq: 1,
//! });
//! let bytes = rreq.to_bytes();
//! assert_eq!(bytes.len(), 24);
//! assert_eq!(AodvRepr::parse(&bytes)?, rreq);
//! # Ok::<(), sctpsim_wire::WireError>(())
//! ```

use crate::{Result, WireError};
use std::net::Ipv4Addr;

/// RFC 3561 §10: AODV uses UDP port 654 (source and destination).
pub const AODV_PORT: u16 = 654;

/// RFC 3561 §5.1: a Route Request is 24 bytes.
pub const RREQ_LEN: usize = 24;
/// RFC 3561 §5.2: a Route Reply is 20 bytes.
pub const RREP_LEN: usize = 20;
/// RFC 3561 §5.3: a Route Error has a 4-byte fixed part ...
pub const RERR_FIXED_LEN: usize = 4;
/// ... followed by DestCount (address, sequence number) pairs of 8 bytes.
pub const RERR_ENTRY_LEN: usize = 8;
/// RFC 3561 §5.4: a Route Reply Acknowledgment is 2 bytes.
pub const RREP_ACK_LEN: usize = 2;

/// Message type numbers (RFC 3561 §5.1–§5.4).
pub mod msg_type {
    /// Route Request.
    pub const RREQ: u8 = 1;
    /// Route Reply.
    pub const RREP: u8 = 2;
    /// Route Error.
    pub const RERR: u8 = 3;
    /// Route Reply Acknowledgment.
    pub const RREP_ACK: u8 = 4;
}

/// A Route Request (RFC 3561 §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RreqRepr {
    /// J: join flag (reserved for multicast).
    pub join: bool,
    /// R: repair flag (reserved for multicast).
    pub repair: bool,
    /// G: gratuitous RREP flag — an intermediate node that replies also sends a RREP to the
    /// destination.
    pub gratuitous: bool,
    /// D: destination only — only the destination may reply.
    pub destination_only: bool,
    /// U: unknown sequence number — the destination sequence number field is meaningless.
    pub unknown_seq: bool,
    /// Hops from the originator to the node handling the request.
    pub hop_count: u8,
    /// With `orig`, identifies the request.
    pub rreq_id: u32,
    /// The destination a route is wanted for.
    pub dst: Ipv4Addr,
    /// The latest sequence number the originator knew for the destination.
    pub dst_seq: u32,
    /// The originator of the request.
    pub orig: Ipv4Addr,
    /// The originator's sequence number (for the reverse route).
    pub orig_seq: u32,
}

/// A Route Reply (RFC 3561 §5.2); a HELLO (§6.9) is a Route Reply too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RrepRepr {
    /// R: repair flag (multicast).
    pub repair: bool,
    /// A: acknowledgment required (answer with a RREP-ACK).
    pub ack_required: bool,
    /// Prefix size (5 bits): the next hop may be used for any node with the same routing
    /// prefix as the destination. Values above 31 are emitted masked to 5 bits.
    pub prefix_size: u8,
    /// Hops from the originator of the reply to the destination.
    pub hop_count: u8,
    /// The destination the route is for.
    pub dst: Ipv4Addr,
    /// The destination's sequence number.
    pub dst_seq: u32,
    /// The originator of the route request this answers.
    pub orig: Ipv4Addr,
    /// How long the route stays valid, in milliseconds.
    pub lifetime_ms: u32,
}

/// One unreachable destination in a Route Error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unreachable {
    /// The destination.
    pub dst: Ipv4Addr,
    /// Its sequence number as the sender of the error knows it.
    pub seq: u32,
}

/// A Route Error (RFC 3561 §5.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RerrRepr {
    /// N: no delete — a node is repairing the link locally; do not delete the route.
    pub no_delete: bool,
    /// The unreachable destinations (at least one; at most 255 fit the DestCount field).
    pub unreachable: Vec<Unreachable>,
}

/// An AODV message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AodvRepr {
    /// Route Request.
    Rreq(RreqRepr),
    /// Route Reply (or HELLO).
    Rrep(RrepRepr),
    /// Route Error.
    Rerr(RerrRepr),
    /// Route Reply Acknowledgment.
    RrepAck,
}

fn addr(data: &[u8], at: usize) -> Ipv4Addr {
    Ipv4Addr::new(data[at], data[at + 1], data[at + 2], data[at + 3])
}

fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
}

/// Checks that `rest` is a sequence of RFC 3561 §5.1-style extensions: type (1 byte), length
/// (1 byte), `length` bytes of data.
fn check_extensions(mut rest: &[u8]) -> Result<()> {
    while !rest.is_empty() {
        if rest.len() < 2 {
            return Err(WireError::Truncated);
        }
        let len = 2 + usize::from(rest[1]);
        if rest.len() < len {
            return Err(WireError::Truncated);
        }
        rest = &rest[len..];
    }
    Ok(())
}

impl AodvRepr {
    /// Parses one message (the UDP payload).
    pub fn parse(data: &[u8]) -> Result<AodvRepr> {
        let Some(&kind) = data.first() else {
            return Err(WireError::Truncated);
        };
        let fixed = match kind {
            msg_type::RREQ => RREQ_LEN,
            msg_type::RREP => RREP_LEN,
            msg_type::RERR => {
                if data.len() < RERR_FIXED_LEN {
                    return Err(WireError::Truncated);
                }
                let count = usize::from(data[3]);
                if count == 0 {
                    // RFC 3561 §5.3: DestCount "MUST be at least 1".
                    return Err(WireError::Malformed);
                }
                RERR_FIXED_LEN + count * RERR_ENTRY_LEN
            }
            msg_type::RREP_ACK => RREP_ACK_LEN,
            _ => return Err(WireError::Unsupported),
        };
        if data.len() < fixed {
            return Err(WireError::Truncated);
        }
        check_extensions(&data[fixed..])?;
        let flags = data[1];
        Ok(match kind {
            msg_type::RREQ => AodvRepr::Rreq(RreqRepr {
                join: flags & 0x80 != 0,
                repair: flags & 0x40 != 0,
                gratuitous: flags & 0x20 != 0,
                destination_only: flags & 0x10 != 0,
                unknown_seq: flags & 0x08 != 0,
                hop_count: data[3],
                rreq_id: u32_at(data, 4),
                dst: addr(data, 8),
                dst_seq: u32_at(data, 12),
                orig: addr(data, 16),
                orig_seq: u32_at(data, 20),
            }),
            msg_type::RREP => AodvRepr::Rrep(RrepRepr {
                repair: flags & 0x80 != 0,
                ack_required: flags & 0x40 != 0,
                prefix_size: data[2] & 0x1f,
                hop_count: data[3],
                dst: addr(data, 4),
                dst_seq: u32_at(data, 8),
                orig: addr(data, 12),
                lifetime_ms: u32_at(data, 16),
            }),
            msg_type::RERR => AodvRepr::Rerr(RerrRepr {
                no_delete: flags & 0x80 != 0,
                unreachable: data[RERR_FIXED_LEN..fixed]
                    .chunks_exact(RERR_ENTRY_LEN)
                    .map(|e| Unreachable {
                        dst: addr(e, 0),
                        seq: u32_at(e, 4),
                    })
                    .collect(),
            }),
            _ => AodvRepr::RrepAck,
        })
    }

    /// Message type number.
    pub fn msg_type(&self) -> u8 {
        match self {
            AodvRepr::Rreq(_) => msg_type::RREQ,
            AodvRepr::Rrep(_) => msg_type::RREP,
            AodvRepr::Rerr(_) => msg_type::RERR,
            AodvRepr::RrepAck => msg_type::RREP_ACK,
        }
    }

    /// Length of the emitted message. A Route Error carries at most 255 destinations (the
    /// DestCount field); further entries are not emitted.
    pub fn buffer_len(&self) -> usize {
        match self {
            AodvRepr::Rreq(_) => RREQ_LEN,
            AodvRepr::Rrep(_) => RREP_LEN,
            AodvRepr::Rerr(e) => RERR_FIXED_LEN + e.unreachable.len().min(255) * RERR_ENTRY_LEN,
            AodvRepr::RrepAck => RREP_ACK_LEN,
        }
    }

    /// Writes the message into the first [`AodvRepr::buffer_len`] bytes of `buf`; reserved
    /// bits are zero.
    ///
    /// # Panics
    /// If `buf` is shorter than [`AodvRepr::buffer_len`] (a caller bug, not packet content).
    pub fn emit(&self, buf: &mut [u8]) {
        let len = self.buffer_len();
        let buf = &mut buf[..len];
        buf.fill(0);
        buf[0] = self.msg_type();
        match self {
            AodvRepr::Rreq(r) => {
                buf[1] = u8::from(r.join) << 7
                    | u8::from(r.repair) << 6
                    | u8::from(r.gratuitous) << 5
                    | u8::from(r.destination_only) << 4
                    | u8::from(r.unknown_seq) << 3;
                buf[3] = r.hop_count;
                buf[4..8].copy_from_slice(&r.rreq_id.to_be_bytes());
                buf[8..12].copy_from_slice(&r.dst.octets());
                buf[12..16].copy_from_slice(&r.dst_seq.to_be_bytes());
                buf[16..20].copy_from_slice(&r.orig.octets());
                buf[20..24].copy_from_slice(&r.orig_seq.to_be_bytes());
            }
            AodvRepr::Rrep(r) => {
                buf[1] = u8::from(r.repair) << 7 | u8::from(r.ack_required) << 6;
                buf[2] = r.prefix_size & 0x1f;
                buf[3] = r.hop_count;
                buf[4..8].copy_from_slice(&r.dst.octets());
                buf[8..12].copy_from_slice(&r.dst_seq.to_be_bytes());
                buf[12..16].copy_from_slice(&r.orig.octets());
                buf[16..20].copy_from_slice(&r.lifetime_ms.to_be_bytes());
            }
            AodvRepr::Rerr(e) => {
                buf[1] = u8::from(e.no_delete) << 7;
                let n = e.unreachable.len().min(255);
                buf[3] = n as u8;
                for (slot, u) in buf[RERR_FIXED_LEN..]
                    .chunks_exact_mut(RERR_ENTRY_LEN)
                    .zip(&e.unreachable[..n])
                {
                    slot[..4].copy_from_slice(&u.dst.octets());
                    slot[4..].copy_from_slice(&u.seq.to_be_bytes());
                }
            }
            AodvRepr::RrepAck => {}
        }
    }

    /// The emitted message as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0u8; self.buffer_len()];
        self.emit(&mut buf);
        buf
    }
}

/// Entry point for a fuzz target: parses `data` as an AODV message and, if it parses, checks
/// that emitting and re-parsing gives the same message. Panics only on a codec bug.
pub fn fuzz_parse_aodv(data: &[u8]) {
    if let Ok(repr) = AodvRepr::parse(data) {
        let bytes = repr.to_bytes();
        assert_eq!(bytes.len(), repr.buffer_len());
        let again = AodvRepr::parse(&bytes);
        assert_eq!(again.as_ref(), Ok(&repr), "AODV re-emit round trip");
        // The fixed part of the input is what was emitted, except reserved bits.
        assert!(bytes.len() <= data.len());
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use proptest::prelude::*;

    const A: Ipv4Addr = Ipv4Addr::new(10, 128, 0, 1);
    const B: Ipv4Addr = Ipv4Addr::new(10, 128, 0, 9);

    /// RREQ with G and U set, hop count 3, RREQ ID 0x01020304, destination 10.128.0.9 seq 0,
    /// originator 10.128.0.1 seq 0x11223344, written out field by field from RFC 3561 §5.1.
    const RREQ_BYTES: [u8; 24] = [
        0x01, 0x28, 0x00, 0x03, // type 1, flags G (0x20) | U (0x08), reserved, hop count
        0x01, 0x02, 0x03, 0x04, // RREQ ID
        10, 128, 0, 9, // destination
        0x00, 0x00, 0x00, 0x00, // destination sequence number
        10, 128, 0, 1, // originator
        0x11, 0x22, 0x33, 0x44, // originator sequence number
    ];

    fn rreq() -> RreqRepr {
        RreqRepr {
            join: false,
            repair: false,
            gratuitous: true,
            destination_only: false,
            unknown_seq: true,
            hop_count: 3,
            rreq_id: 0x0102_0304,
            dst: B,
            dst_seq: 0,
            orig: A,
            orig_seq: 0x1122_3344,
        }
    }

    /// RREP with A set, prefix size 0, hop count 2, destination 10.128.0.9 seq 7, originator
    /// 10.128.0.1, lifetime 6000 ms (0x1770), from RFC 3561 §5.2.
    const RREP_BYTES: [u8; 20] = [
        0x02, 0x40, 0x00, 0x02, // type 2, flags A (0x40), prefix size 0, hop count
        10, 128, 0, 9, // destination
        0x00, 0x00, 0x00, 0x07, // destination sequence number
        10, 128, 0, 1, // originator
        0x00, 0x00, 0x17, 0x70, // lifetime
    ];

    fn rrep() -> RrepRepr {
        RrepRepr {
            repair: false,
            ack_required: true,
            prefix_size: 0,
            hop_count: 2,
            dst: B,
            dst_seq: 7,
            orig: A,
            lifetime_ms: 6000,
        }
    }

    /// RERR with N set and two destinations, RFC 3561 §5.3.
    const RERR_BYTES: [u8; 20] = [
        0x03, 0x80, 0x00, 0x02, // type 3, N flag, reserved, DestCount 2
        10, 128, 0, 9, 0x00, 0x00, 0x00, 0x08, // 10.128.0.9 seq 8
        10, 128, 0, 1, 0xff, 0xff, 0xff, 0xff, // 10.128.0.1 seq 2^32-1
    ];

    fn rerr() -> RerrRepr {
        RerrRepr {
            no_delete: true,
            unreachable: vec![
                Unreachable { dst: B, seq: 8 },
                Unreachable {
                    dst: A,
                    seq: u32::MAX,
                },
            ],
        }
    }

    #[test]
    fn rreq_bytes() {
        assert_eq!(AodvRepr::Rreq(rreq()).to_bytes(), RREQ_BYTES);
        assert_eq!(AodvRepr::parse(&RREQ_BYTES), Ok(AodvRepr::Rreq(rreq())));
    }

    #[test]
    fn rreq_all_flags() {
        let r = RreqRepr {
            join: true,
            repair: true,
            gratuitous: true,
            destination_only: true,
            unknown_seq: true,
            ..rreq()
        };
        let bytes = AodvRepr::Rreq(r).to_bytes();
        assert_eq!(bytes[1], 0xf8);
        assert_eq!(AodvRepr::parse(&bytes), Ok(AodvRepr::Rreq(r)));
    }

    #[test]
    fn rrep_bytes() {
        assert_eq!(AodvRepr::Rrep(rrep()).to_bytes(), RREP_BYTES);
        assert_eq!(AodvRepr::parse(&RREP_BYTES), Ok(AodvRepr::Rrep(rrep())));
        let prefixed = RrepRepr {
            repair: true,
            prefix_size: 24,
            ..rrep()
        };
        let bytes = AodvRepr::Rrep(prefixed).to_bytes();
        assert_eq!(&bytes[1..3], &[0xc0, 24]);
        assert_eq!(AodvRepr::parse(&bytes), Ok(AodvRepr::Rrep(prefixed)));
    }

    #[test]
    fn rerr_bytes() {
        assert_eq!(AodvRepr::Rerr(rerr()).to_bytes(), RERR_BYTES);
        assert_eq!(AodvRepr::parse(&RERR_BYTES), Ok(AodvRepr::Rerr(rerr())));
    }

    #[test]
    fn rrep_ack_bytes() {
        assert_eq!(AodvRepr::RrepAck.to_bytes(), [4, 0]);
        assert_eq!(AodvRepr::parse(&[4, 0]), Ok(AodvRepr::RrepAck));
    }

    #[test]
    fn length_errors() {
        assert_eq!(AodvRepr::parse(&[]), Err(WireError::Truncated));
        assert_eq!(
            AodvRepr::parse(&RREQ_BYTES[..23]),
            Err(WireError::Truncated)
        );
        assert_eq!(
            AodvRepr::parse(&RREP_BYTES[..19]),
            Err(WireError::Truncated)
        );
        assert_eq!(AodvRepr::parse(&RERR_BYTES[..3]), Err(WireError::Truncated));
        assert_eq!(
            AodvRepr::parse(&RERR_BYTES[..19]),
            Err(WireError::Truncated)
        );
        assert_eq!(AodvRepr::parse(&[4]), Err(WireError::Truncated));
        // DestCount 0.
        assert_eq!(AodvRepr::parse(&[3, 0, 0, 0]), Err(WireError::Malformed));
        // DestCount 3 with two entries.
        let mut three = RERR_BYTES;
        three[3] = 3;
        assert_eq!(AodvRepr::parse(&three), Err(WireError::Truncated));
        // Unknown types.
        assert_eq!(AodvRepr::parse(&[0, 0]), Err(WireError::Unsupported));
        assert_eq!(AodvRepr::parse(&[5, 0]), Err(WireError::Unsupported));
    }

    #[test]
    fn extensions() {
        // A well-formed extension (type 64, length 2) after a RREP-ACK is accepted and ignored.
        assert_eq!(AodvRepr::parse(&[4, 0, 64, 2, 1, 2]), Ok(AodvRepr::RrepAck));
        assert_eq!(AodvRepr::parse(&[4, 0, 64, 0]), Ok(AodvRepr::RrepAck));
        // A dangling byte or a length that runs past the end is not.
        assert_eq!(AodvRepr::parse(&[4, 0, 64]), Err(WireError::Truncated));
        assert_eq!(
            AodvRepr::parse(&[4, 0, 64, 3, 1]),
            Err(WireError::Truncated)
        );
        // A RERR whose DestCount is 1 but carries two entries: the second one is read as an
        // extension of type 10, length 128, which runs past the end.
        let mut one = RERR_BYTES;
        one[3] = 1;
        assert_eq!(AodvRepr::parse(&one), Err(WireError::Truncated));
    }

    #[test]
    fn rerr_caps_at_255() {
        let big = RerrRepr {
            no_delete: false,
            unreachable: (0..300u32)
                .map(|i| Unreachable {
                    dst: Ipv4Addr::from(i),
                    seq: i,
                })
                .collect(),
        };
        let bytes = AodvRepr::Rerr(big.clone()).to_bytes();
        assert_eq!(bytes.len(), 4 + 255 * 8);
        assert_eq!(bytes[3], 255);
        let Ok(AodvRepr::Rerr(parsed)) = AodvRepr::parse(&bytes) else {
            panic!("parse failed");
        };
        assert_eq!(parsed.unreachable[..], big.unreachable[..255]);
    }

    fn arb_addr() -> impl Strategy<Value = Ipv4Addr> {
        any::<u32>().prop_map(Ipv4Addr::from)
    }

    fn arb_repr() -> impl Strategy<Value = AodvRepr> {
        prop_oneof![
            (
                any::<[bool; 5]>(),
                any::<u8>(),
                any::<u32>(),
                arb_addr(),
                any::<u32>(),
                arb_addr(),
                any::<u32>()
            )
                .prop_map(|(f, hop_count, rreq_id, dst, dst_seq, orig, orig_seq)| {
                    AodvRepr::Rreq(RreqRepr {
                        join: f[0],
                        repair: f[1],
                        gratuitous: f[2],
                        destination_only: f[3],
                        unknown_seq: f[4],
                        hop_count,
                        rreq_id,
                        dst,
                        dst_seq,
                        orig,
                        orig_seq,
                    })
                }),
            (
                any::<[bool; 2]>(),
                0u8..32,
                any::<u8>(),
                arb_addr(),
                any::<u32>(),
                arb_addr(),
                any::<u32>()
            )
                .prop_map(
                    |(f, prefix_size, hop_count, dst, dst_seq, orig, lifetime_ms)| {
                        AodvRepr::Rrep(RrepRepr {
                            repair: f[0],
                            ack_required: f[1],
                            prefix_size,
                            hop_count,
                            dst,
                            dst_seq,
                            orig,
                            lifetime_ms,
                        })
                    }
                ),
            (
                any::<bool>(),
                prop::collection::vec((arb_addr(), any::<u32>()), 1..40)
            )
                .prop_map(|(no_delete, v)| AodvRepr::Rerr(RerrRepr {
                    no_delete,
                    unreachable: v
                        .into_iter()
                        .map(|(dst, seq)| Unreachable { dst, seq })
                        .collect(),
                })),
            Just(AodvRepr::RrepAck),
        ]
    }

    proptest! {
        #[test]
        fn round_trip(repr in arb_repr()) {
            let bytes = repr.to_bytes();
            prop_assert_eq!(bytes.len(), repr.buffer_len());
            prop_assert_eq!(AodvRepr::parse(&bytes), Ok(repr));
        }

        #[test]
        fn random_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..80)) {
            fuzz_parse_aodv(&data);
        }

        #[test]
        fn truncations_never_panic(repr in arb_repr(), cut in 0usize..400) {
            let bytes = repr.to_bytes();
            let cut = cut.min(bytes.len());
            fuzz_parse_aodv(&bytes[..cut]);
            if cut < bytes.len() {
                prop_assert!(AodvRepr::parse(&bytes[..cut]).is_err());
            }
        }
    }
}
