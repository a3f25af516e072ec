//! OLSR (RFC 3626) packets: the packet header and message headers of §3.3, HELLO (§6.1), TC
//! (§9.1), MID (§5.1) and HNA (§12.1) bodies, and the mantissa/exponent time encoding of Vtime
//! and Htime (§18.3). IPv4 addresses only (the address size follows the carrying IP version,
//! §3.3; this simulator is IPv4-only).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |         Packet Length         |    Packet Sequence Number     |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Message Type |     Vtime     |         Message Size          |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      Originator Address                       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Time To Live |   Hop Count   |    Message Sequence Number    |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                            MESSAGE                            |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! :            (further message headers and bodies)               :
//! ```
//!
//! The packet length counts the 4-byte packet header (RFC 3626 §3.3.1); the message size counts
//! the 12-byte message header (§3.3.2). Parsing checks both against the buffer and against each
//! other; a body whose internal lengths disagree with its message size is rejected as a whole
//! packet ([`WireError::Malformed`]) so that a router counts it once as malformed. Unknown
//! message types are kept as raw bytes: §3.4 requires them to be forwarded unchanged.

use std::net::Ipv4Addr;

use crate::be::{read_u16, write_u16};
use crate::{Result, WireError};

/// IANA: OLSR uses UDP port 698 (RFC 3626 §3.1).
pub const UDP_PORT: u16 = 698;

/// RFC 3626 §3.3.1: the packet header is Packet Length (2) and Packet Sequence Number (2).
pub const PACKET_HEADER_LEN: usize = 4;

/// RFC 3626 §3.3.2: the IPv4 message header is type, Vtime, size (4), originator (4), TTL, hop
/// count and message sequence number (4).
pub const MESSAGE_HEADER_LEN: usize = 12;

/// RFC 3626 §18.4: HELLO_MESSAGE = 1.
pub const HELLO_MESSAGE: u8 = 1;
/// RFC 3626 §18.4: TC_MESSAGE = 2.
pub const TC_MESSAGE: u8 = 2;
/// RFC 3626 §18.4: MID_MESSAGE = 3.
pub const MID_MESSAGE: u8 = 3;
/// RFC 3626 §18.4: HNA_MESSAGE = 4.
pub const HNA_MESSAGE: u8 = 4;

/// RFC 3626 §18.5: no specific information about the link.
pub const UNSPEC_LINK: u8 = 0;
/// RFC 3626 §18.5: the link is asymmetric (heard, not confirmed).
pub const ASYM_LINK: u8 = 1;
/// RFC 3626 §18.5: the link is symmetric.
pub const SYM_LINK: u8 = 2;
/// RFC 3626 §18.5: the link has been lost.
pub const LOST_LINK: u8 = 3;

/// RFC 3626 §18.6: not (or no longer) a symmetric neighbour.
pub const NOT_NEIGH: u8 = 0;
/// RFC 3626 §18.6: a symmetric neighbour.
pub const SYM_NEIGH: u8 = 1;
/// RFC 3626 §18.6: a symmetric neighbour selected as MPR by the sender.
pub const MPR_NEIGH: u8 = 2;

/// RFC 3626 §18.3: the scaling factor C of the time encoding is 1/16 s, here in nanoseconds.
pub const C_NANOS: u64 = 62_500_000;

/// Decodes a Vtime/Htime byte (RFC 3626 §3.3.2, §18.3): the high nibble `a` is the mantissa,
/// the low nibble `b` the exponent, and the time is `C * (1 + a/16) * 2^b` seconds. Returned in
/// nanoseconds; the result is exact because C/16 = 3 906 250 ns is an integer.
pub fn decode_time_ns(code: u8) -> u64 {
    let a = u64::from(code >> 4);
    let b = u32::from(code & 0x0f);
    (C_NANOS / 16) * (16 + a) * (1u64 << b)
}

/// Encodes a time in nanoseconds as a Vtime/Htime byte (RFC 3626 §18.3): `b` is the largest
/// integer with `T/C >= 2^b`, `a = 16 * (T / (C * 2^b) - 1)` rounded *up* (so a receiver never
/// holds information for less than the sender meant), and `a == 16` carries into `b`.
///
/// Times below C encode as C (code 0x00, the smallest representable value); times beyond the
/// largest value, `C * (1 + 15/16) * 2^15` = 3968 s, saturate at 0xFF. Integer arithmetic only.
pub fn encode_time_ns(ns: u64) -> u8 {
    if ns <= C_NANOS {
        return 0;
    }
    // b: the largest exponent with C * 2^b <= T.
    let mut b = 0u32;
    while b < 15 && C_NANOS << (b + 1) <= ns {
        b += 1;
    }
    let base = u128::from(C_NANOS) << b; // C * 2^b, in ns
    let excess = u128::from(ns) - base; // T - C*2^b >= 0
                                        // a = ceil(16 * excess / base)
    let mut a = (16 * excess).div_ceil(base);
    if a >= 16 {
        a = 0;
        b += 1;
    }
    if b > 15 {
        return 0xff;
    }
    ((a as u8) << 4) | b as u8
}

/// A link code (RFC 3626 §6.1.1): link type in bits 0-1, neighbour type in bits 2-3. Codes above
/// 15 are carried as read; [`LinkCode::is_valid`] says whether a receiver may use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkCode(pub u8);

impl LinkCode {
    /// The code for a link type and a neighbour type.
    pub const fn new(link_type: u8, neighbor_type: u8) -> Self {
        LinkCode(((neighbor_type & 0x03) << 2) | (link_type & 0x03))
    }

    /// RFC 3626 §6.1.1: the link type (UNSPEC_LINK .. LOST_LINK).
    pub const fn link_type(self) -> u8 {
        self.0 & 0x03
    }

    /// RFC 3626 §6.1.1: the neighbour type (NOT_NEIGH, SYM_NEIGH, MPR_NEIGH; 3 is undefined).
    pub const fn neighbor_type(self) -> u8 {
        (self.0 >> 2) & 0x03
    }

    /// Whether a receiver may process a link message with this code: RFC 3626 §6.1.1 defines
    /// only codes up to 15, neighbour types 0-2, and rules out SYM_LINK together with
    /// NOT_NEIGH (a symmetric link implies a symmetric neighbour).
    pub const fn is_valid(self) -> bool {
        self.0 <= 15
            && self.neighbor_type() <= MPR_NEIGH
            && !(self.link_type() == SYM_LINK && self.neighbor_type() == NOT_NEIGH)
    }
}

/// One link message of a HELLO (RFC 3626 §6.1): a link code and the neighbour interface
/// addresses it applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkMessage {
    /// The link code.
    pub code: LinkCode,
    /// Neighbour interface addresses.
    pub addrs: Vec<Ipv4Addr>,
}

/// A HELLO body (RFC 3626 §6.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelloRepr {
    /// Htime: the sender's HELLO emission interval, encoded as in §18.3.
    pub htime: u8,
    /// The sender's willingness to carry traffic for others (§18.8, 0..=7).
    pub willingness: u8,
    /// Link messages.
    pub links: Vec<LinkMessage>,
}

/// A TC body (RFC 3626 §9.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TcRepr {
    /// Advertised Neighbour Sequence Number.
    pub ansn: u16,
    /// Advertised neighbour main addresses.
    pub neighbors: Vec<Ipv4Addr>,
}

/// The body of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageBody {
    /// HELLO_MESSAGE (1).
    Hello(HelloRepr),
    /// TC_MESSAGE (2).
    Tc(TcRepr),
    /// MID_MESSAGE (3, §5.1): the originator's other interface addresses.
    Mid(Vec<Ipv4Addr>),
    /// HNA_MESSAGE (4, §12.1): (network address, netmask) pairs.
    Hna(Vec<(Ipv4Addr, Ipv4Addr)>),
    /// Any other type, kept verbatim so that it can be forwarded (§3.4).
    Unknown {
        /// The message type.
        msg_type: u8,
        /// The body bytes.
        data: Vec<u8>,
    },
}

impl MessageBody {
    /// The message type number.
    pub fn msg_type(&self) -> u8 {
        match self {
            MessageBody::Hello(_) => HELLO_MESSAGE,
            MessageBody::Tc(_) => TC_MESSAGE,
            MessageBody::Mid(_) => MID_MESSAGE,
            MessageBody::Hna(_) => HNA_MESSAGE,
            MessageBody::Unknown { msg_type, .. } => *msg_type,
        }
    }

    /// Length of the body in bytes.
    pub fn len(&self) -> usize {
        match self {
            MessageBody::Hello(h) => {
                4 + h.links.iter().map(|l| 4 + 4 * l.addrs.len()).sum::<usize>()
            }
            MessageBody::Tc(tc) => 4 + 4 * tc.neighbors.len(),
            MessageBody::Mid(addrs) => 4 * addrs.len(),
            MessageBody::Hna(nets) => 8 * nets.len(),
            MessageBody::Unknown { data, .. } => data.len(),
        }
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn parse(msg_type: u8, data: &[u8]) -> Result<MessageBody> {
        match msg_type {
            HELLO_MESSAGE => parse_hello(data).map(MessageBody::Hello),
            TC_MESSAGE => {
                if data.len() < 4 {
                    return Err(WireError::Truncated);
                }
                Ok(MessageBody::Tc(TcRepr {
                    ansn: read_u16(data, 0),
                    neighbors: parse_addrs(&data[4..])?,
                }))
            }
            MID_MESSAGE => parse_addrs(data).map(MessageBody::Mid),
            HNA_MESSAGE => {
                if !data.len().is_multiple_of(8) {
                    return Err(WireError::Malformed);
                }
                Ok(MessageBody::Hna(
                    data.chunks_exact(8)
                        .map(|c| (addr_at(c, 0), addr_at(c, 4)))
                        .collect(),
                ))
            }
            other => Ok(MessageBody::Unknown {
                msg_type: other,
                data: data.to_vec(),
            }),
        }
    }

    fn emit(&self, out: &mut [u8]) {
        match self {
            MessageBody::Hello(h) => {
                out[0..2].fill(0); // reserved
                out[2] = h.htime;
                out[3] = h.willingness;
                let mut at = 4;
                for l in &h.links {
                    let size = 4 + 4 * l.addrs.len();
                    out[at] = l.code.0;
                    out[at + 1] = 0; // reserved
                    write_u16(out, at + 2, size as u16);
                    for (i, a) in l.addrs.iter().enumerate() {
                        out[at + 4 + 4 * i..at + 8 + 4 * i].copy_from_slice(&a.octets());
                    }
                    at += size;
                }
            }
            MessageBody::Tc(tc) => {
                write_u16(out, 0, tc.ansn);
                write_u16(out, 2, 0); // reserved
                for (i, a) in tc.neighbors.iter().enumerate() {
                    out[4 + 4 * i..8 + 4 * i].copy_from_slice(&a.octets());
                }
            }
            MessageBody::Mid(addrs) => {
                for (i, a) in addrs.iter().enumerate() {
                    out[4 * i..4 * i + 4].copy_from_slice(&a.octets());
                }
            }
            MessageBody::Hna(nets) => {
                for (i, (net, mask)) in nets.iter().enumerate() {
                    out[8 * i..8 * i + 4].copy_from_slice(&net.octets());
                    out[8 * i + 4..8 * i + 8].copy_from_slice(&mask.octets());
                }
            }
            MessageBody::Unknown { data, .. } => out[..data.len()].copy_from_slice(data),
        }
    }
}

fn addr_at(data: &[u8], at: usize) -> Ipv4Addr {
    Ipv4Addr::new(data[at], data[at + 1], data[at + 2], data[at + 3])
}

/// A list of IPv4 addresses filling `data` exactly.
fn parse_addrs(data: &[u8]) -> Result<Vec<Ipv4Addr>> {
    if !data.len().is_multiple_of(4) {
        return Err(WireError::Malformed);
    }
    Ok(data.chunks_exact(4).map(|c| addr_at(c, 0)).collect())
}

/// RFC 3626 §6.1: after 4 bytes (reserved, Htime, Willingness) come link messages, each with a
/// 4-byte header whose Link Message Size counts that header and runs to the next link message.
fn parse_hello(data: &[u8]) -> Result<HelloRepr> {
    if data.len() < 4 {
        return Err(WireError::Truncated);
    }
    let mut links = Vec::new();
    let mut rest = &data[4..];
    while !rest.is_empty() {
        if rest.len() < 4 {
            return Err(WireError::Truncated);
        }
        let size = usize::from(read_u16(rest, 2));
        if size < 4 {
            return Err(WireError::Malformed);
        }
        let Some(body) = rest.get(4..size) else {
            return Err(WireError::Truncated);
        };
        links.push(LinkMessage {
            code: LinkCode(rest[0]),
            addrs: parse_addrs(body)?,
        });
        rest = &rest[size..];
    }
    Ok(HelloRepr {
        htime: data[2],
        willingness: data[3],
        links,
    })
}

/// One message: the §3.3.2 header fields and the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRepr {
    /// Vtime: how long the receiver should consider the information valid (§18.3 encoding).
    pub vtime: u8,
    /// The node that generated the message (its main address).
    pub originator: Ipv4Addr,
    /// Hops the message may still travel.
    pub ttl: u8,
    /// Hops the message has travelled.
    pub hop_count: u8,
    /// Message sequence number (per originator).
    pub seq: u16,
    /// The body; its variant gives the message type.
    pub body: MessageBody,
}

impl MessageRepr {
    /// Header plus body.
    pub fn buffer_len(&self) -> usize {
        MESSAGE_HEADER_LEN + self.body.len()
    }
}

/// An OLSR packet (RFC 3626 §3.3): a sequence number and one or more messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OlsrRepr {
    /// Packet sequence number (per interface, §3.3.1).
    pub seq: u16,
    /// The messages, in order.
    pub messages: Vec<MessageRepr>,
}

impl OlsrRepr {
    /// Parses a UDP payload. The Packet Length must be at least the packet header and fit the
    /// buffer (bytes beyond it are ignored); each Message Size must cover its header and fit
    /// the packet; bodies must fill their message exactly (TC, MID: whole addresses; HNA: whole
    /// pairs; HELLO: link messages tiling the body). A packet with no message is
    /// [`WireError::Malformed`] (§3.4: "MUST silently be discarded").
    pub fn parse(data: &[u8]) -> Result<OlsrRepr> {
        if data.len() < PACKET_HEADER_LEN {
            return Err(WireError::Truncated);
        }
        let len = usize::from(read_u16(data, 0));
        if len < PACKET_HEADER_LEN {
            return Err(WireError::Malformed);
        }
        let Some(packet) = data.get(..len) else {
            return Err(WireError::Truncated);
        };
        let seq = read_u16(packet, 2);
        let mut messages = Vec::new();
        let mut rest = &packet[PACKET_HEADER_LEN..];
        while !rest.is_empty() {
            if rest.len() < MESSAGE_HEADER_LEN {
                return Err(WireError::Truncated);
            }
            let size = usize::from(read_u16(rest, 2));
            if size < MESSAGE_HEADER_LEN {
                return Err(WireError::Malformed);
            }
            let Some(msg) = rest.get(..size) else {
                return Err(WireError::Truncated);
            };
            messages.push(MessageRepr {
                vtime: msg[1],
                originator: addr_at(msg, 4),
                ttl: msg[8],
                hop_count: msg[9],
                seq: read_u16(msg, 10),
                body: MessageBody::parse(msg[0], &msg[MESSAGE_HEADER_LEN..])?,
            });
            rest = &rest[size..];
        }
        if messages.is_empty() {
            return Err(WireError::Malformed);
        }
        Ok(OlsrRepr { seq, messages })
    }

    /// Length of the encoded packet.
    pub fn buffer_len(&self) -> usize {
        PACKET_HEADER_LEN
            + self
                .messages
                .iter()
                .map(MessageRepr::buffer_len)
                .sum::<usize>()
    }

    /// Writes the packet into the start of `buf` and returns its length.
    ///
    /// Errors (nothing is written then): [`WireError::Truncated`] if `buf` is too short,
    /// [`WireError::Malformed`] if the packet, a message or a link message is longer than its
    /// 16-bit length field allows.
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize> {
        let len = self.buffer_len();
        if len > usize::from(u16::MAX) {
            return Err(WireError::Malformed);
        }
        if buf.len() < len {
            return Err(WireError::Truncated);
        }
        // The packet length bounds every inner length, so all fit their u16 fields.
        write_u16(buf, 0, len as u16);
        write_u16(buf, 2, self.seq);
        let mut at = PACKET_HEADER_LEN;
        for m in &self.messages {
            let size = m.buffer_len();
            let out = &mut buf[at..at + size];
            out[0] = m.body.msg_type();
            out[1] = m.vtime;
            write_u16(out, 2, size as u16);
            out[4..8].copy_from_slice(&m.originator.octets());
            out[8] = m.ttl;
            out[9] = m.hop_count;
            write_u16(out, 10, m.seq);
            m.body.emit(&mut out[MESSAGE_HEADER_LEN..]);
            at += size;
        }
        Ok(len)
    }

    /// The encoded packet as a new vector (see [`OlsrRepr::emit`]).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; self.buffer_len()];
        self.emit(&mut buf)?;
        Ok(buf)
    }
}

/// Entry point for a fuzz target: parses `data` as an OLSR packet and, when that works, checks
/// that emitting and re-parsing gives the same packet. Panics only on a codec bug.
pub fn fuzz_parse_olsr(data: &[u8]) {
    for code in data.iter().take(4) {
        let _ = LinkCode(*code).is_valid();
        let t = decode_time_ns(*code);
        // Decoding then encoding is the identity on codes (every code is canonical).
        assert_eq!(encode_time_ns(t), *code, "time code {code:#04x} round trip");
    }
    if let Ok(repr) = OlsrRepr::parse(data) {
        match repr.to_bytes() {
            Ok(bytes) => {
                assert_eq!(
                    OlsrRepr::parse(&bytes),
                    Ok(repr),
                    "re-parse of emitted packet"
                );
            }
            Err(e) => panic!("a parsed packet failed to emit: {e}"),
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
    const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
    const C: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 3);

    fn hello_packet() -> OlsrRepr {
        OlsrRepr {
            seq: 0x0102,
            messages: vec![MessageRepr {
                vtime: 0x86,
                originator: A,
                ttl: 1,
                hop_count: 0,
                seq: 0x0304,
                body: MessageBody::Hello(HelloRepr {
                    htime: 0x05,
                    willingness: 3,
                    links: vec![
                        LinkMessage {
                            code: LinkCode::new(SYM_LINK, MPR_NEIGH),
                            addrs: vec![B],
                        },
                        LinkMessage {
                            code: LinkCode::new(ASYM_LINK, NOT_NEIGH),
                            addrs: vec![C],
                        },
                    ],
                }),
            }],
        }
    }

    /// Hand-assembled from RFC 3626 §3.3 and §6.1: packet length 4+12+4+8+8 = 36.
    const HELLO_BYTES: [u8; 36] = [
        0x00, 0x24, 0x01, 0x02, // packet length 36, seq 0x0102
        0x01, 0x86, 0x00, 0x20, // HELLO, Vtime 6 s, size 32
        10, 0, 0, 1, // originator
        0x01, 0x00, 0x03, 0x04, // TTL 1, hops 0, msg seq 0x0304
        0x00, 0x00, 0x05, 0x03, // reserved, Htime 2 s, willingness 3
        0x0a, 0x00, 0x00, 0x08, // link code (MPR_NEIGH<<2)|SYM_LINK = 0x0a, size 8
        10, 0, 0, 2, // B
        0x01, 0x00, 0x00, 0x08, // link code ASYM_LINK, NOT_NEIGH = 0x01, size 8
        10, 0, 0, 3, // C
    ];

    #[test]
    fn hello_hand_checked_bytes() {
        assert_eq!(hello_packet().to_bytes().unwrap(), HELLO_BYTES);
        assert_eq!(OlsrRepr::parse(&HELLO_BYTES), Ok(hello_packet()));
    }

    #[test]
    fn tc_mid_hna_unknown_in_one_packet_round_trip() {
        let mk = |body| MessageRepr {
            vtime: 0xe7,
            originator: B,
            ttl: 255,
            hop_count: 0,
            seq: 7,
            body,
        };
        let p = OlsrRepr {
            seq: 65535,
            messages: vec![
                mk(MessageBody::Tc(TcRepr {
                    ansn: 9,
                    neighbors: vec![A, C],
                })),
                mk(MessageBody::Tc(TcRepr {
                    ansn: 10,
                    neighbors: vec![],
                })),
                mk(MessageBody::Mid(vec![C])),
                mk(MessageBody::Hna(vec![(
                    Ipv4Addr::new(192, 168, 1, 0),
                    Ipv4Addr::new(255, 255, 255, 0),
                )])),
                mk(MessageBody::Unknown {
                    msg_type: 200,
                    data: vec![1, 2, 3],
                }),
                hello_packet().messages[0].clone(),
            ],
        };
        let bytes = p.to_bytes().unwrap();
        assert_eq!(bytes.len(), p.buffer_len());
        // TC: type 2, vtime, size 12+4+8 = 24; ANSN 9, reserved 0.
        assert_eq!(&bytes[4..8], &[2, 0xe7, 0, 24]);
        assert_eq!(&bytes[16..20], &[0, 9, 0, 0]);
        assert_eq!(OlsrRepr::parse(&bytes), Ok(p));
    }

    /// RFC 3626 §18.3 values worked by hand: C = 0.0625 s; NEIGHB_HOLD_TIME 6 s = C·(1+8/16)·2^6
    /// → a=8, b=6 → 0x86; TOP_HOLD_TIME 15 s: 15/C = 240, b=7, a = 16·(240/128−1) = 14 → 0xE7;
    /// HELLO_INTERVAL 2 s = C·2^5 → 0x05; DUP_HOLD_TIME 30 s: 480/256 → a=14, b=8 → 0xE8.
    #[test]
    fn time_encoding_known_values() {
        let s = 1_000_000_000u64;
        assert_eq!(encode_time_ns(6 * s), 0x86);
        assert_eq!(decode_time_ns(0x86), 6 * s);
        assert_eq!(encode_time_ns(15 * s), 0xe7);
        assert_eq!(decode_time_ns(0xe7), 15 * s);
        assert_eq!(encode_time_ns(2 * s), 0x05);
        assert_eq!(encode_time_ns(5 * s), 0x46); // 80/64 = 1.25 → a=4, b=6
        assert_eq!(encode_time_ns(30 * s), 0xe8);
        assert_eq!(decode_time_ns(0x00), C_NANOS);
        assert_eq!(decode_time_ns(0xff), 3968 * s);
        // Round up: 6.01 s needs a > 8 at b=6 → a=9 → 6.375 s.
        assert_eq!(encode_time_ns(6 * s + 10_000_000), 0x96);
        // a reaching 16 carries into b: just above 7.75 s (a=15, b=6) → 8 s = 0x07.
        assert_eq!(encode_time_ns(7_750_000_001), 0x07);
        // Saturation and the floor.
        assert_eq!(encode_time_ns(u64::MAX), 0xff);
        assert_eq!(encode_time_ns(0), 0x00);
        assert_eq!(encode_time_ns(1), 0x00);
    }

    #[test]
    fn time_encoding_round_trips_every_code_and_never_undershoots() {
        for code in 0..=255u8 {
            assert_eq!(encode_time_ns(decode_time_ns(code)), code);
        }
        let mut t = C_NANOS;
        while t < 4_000_000_000_000 {
            let code = encode_time_ns(t);
            if code != 0xff {
                assert!(decode_time_ns(code) >= t, "{t} → {code:#x}");
            }
            t = t * 21 / 20 + 12_345;
        }
    }

    #[test]
    fn link_codes() {
        assert_eq!(LinkCode::new(SYM_LINK, MPR_NEIGH).0, 0x0a);
        assert_eq!(LinkCode(0x0a).link_type(), SYM_LINK);
        assert_eq!(LinkCode(0x0a).neighbor_type(), MPR_NEIGH);
        assert!(LinkCode::new(LOST_LINK, NOT_NEIGH).is_valid());
        assert!(!LinkCode::new(SYM_LINK, NOT_NEIGH).is_valid());
        assert!(!LinkCode(0x0c).is_valid()); // neighbour type 3
        assert!(!LinkCode(16).is_valid());
    }

    #[test]
    fn bad_lengths_are_rejected() {
        // Every strict prefix of the packet is truncated (or, below 4 bytes, too short).
        for len in 0..HELLO_BYTES.len() {
            assert!(
                OlsrRepr::parse(&HELLO_BYTES[..len]).is_err(),
                "prefix {len}"
            );
        }
        // Trailing bytes beyond the packet length are ignored.
        let mut b = HELLO_BYTES.to_vec();
        b.extend([0xee; 5]);
        assert_eq!(OlsrRepr::parse(&b), Ok(hello_packet()));
        // Packet length below the header, message size below its header, link size below 4.
        let mut b = HELLO_BYTES;
        b[1] = 3;
        assert_eq!(OlsrRepr::parse(&b), Err(WireError::Malformed));
        let mut b = HELLO_BYTES;
        b[7] = 11;
        assert_eq!(OlsrRepr::parse(&b), Err(WireError::Malformed));
        let mut b = HELLO_BYTES;
        b[23] = 3;
        assert_eq!(OlsrRepr::parse(&b), Err(WireError::Malformed));
        // Link size running past the message.
        let mut b = HELLO_BYTES;
        b[23] = 40;
        assert_eq!(OlsrRepr::parse(&b), Err(WireError::Truncated));
        // Message size past the packet.
        let mut b = HELLO_BYTES;
        b[7] = 36;
        assert_eq!(OlsrRepr::parse(&b), Err(WireError::Truncated));
        // Packet with only a header: no message.
        assert_eq!(OlsrRepr::parse(&[0, 4, 0, 0]), Err(WireError::Malformed));
        // Odd address list in a TC.
        let tc = [
            0, 22, 0, 0, 2, 0, 0, 18, 1, 2, 3, 4, 1, 0, 0, 1, 0, 1, 0, 0, 9, 9,
        ];
        assert_eq!(OlsrRepr::parse(&tc), Err(WireError::Malformed));
    }

    #[test]
    fn emit_refuses_short_buffers_and_oversize_packets() {
        let p = hello_packet();
        let mut short = [0u8; 35];
        assert_eq!(p.emit(&mut short), Err(WireError::Truncated));
        let huge = OlsrRepr {
            seq: 0,
            messages: vec![MessageRepr {
                vtime: 0,
                originator: A,
                ttl: 1,
                hop_count: 0,
                seq: 0,
                body: MessageBody::Mid(vec![A; 20_000]),
            }],
        };
        assert_eq!(huge.to_bytes(), Err(WireError::Malformed));
    }

    proptest::proptest! {
        #[test]
        fn random_bytes_never_panic(data in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            fuzz_parse_olsr(&data);
        }

        #[test]
        fn mutated_packets_never_panic(i in 0usize..36, v in proptest::num::u8::ANY, cut in 0usize..40) {
            let mut b = HELLO_BYTES.to_vec();
            b[i] = v;
            b.truncate(cut);
            fuzz_parse_olsr(&b);
        }
    }
}
