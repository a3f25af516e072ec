//! DSR (RFC 4728 §6): the DSR Options header that follows the IPv4 header (IP protocol 48) and
//! its options — Route Request, Route Reply, Route Error, Acknowledgement Request,
//! Acknowledgement, DSR Source Route, Pad1 and PadN.
//!
//! ```text
//! DSR Options header, fixed portion (RFC 4728 §6.1):
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Next Header  |F|   Reserved  |        Payload Length         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! .                            Options                            .
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! Payload Length counts the option bytes after the 4-byte fixed portion; the upper-layer
//! payload (the original transport segment, protocol = Next Header) follows the options. Every
//! option is Type, Opt Data Len (bytes after these two), data — except Pad1, a single byte.
//!
//! The representation is [`DsrRepr`] (the header) holding [`DsrOption`]s.
//! [`DsrRepr::parse`] checks every length against the buffer and against the option's format
//! and never panics; [`DsrRepr::emit`] writes the header back. Unknown option types are kept
//! as [`DsrOption::Unknown`] so that a packet can be forwarded without losing them.

use std::net::Ipv4Addr;

use crate::ipv4::{IpProtocol, Ipv4Packet, Ipv4Repr};
use crate::{Result, WireError};

/// IANA protocol number of the DSR header in the IPv4 Protocol field (RFC 4728 §6.1: "the
/// value 48").
pub const IP_PROTOCOL: u8 = 48;

/// [`IP_PROTOCOL`] as the IPv4 codec spells it (48 has no named variant in [`IpProtocol`]).
pub const IP_PROTOCOL_DSR: IpProtocol = IpProtocol::Unknown(IP_PROTOCOL);

/// "No Next Header" (IANA protocol number 59, RFC 8200 §4.7): RFC 4728 §6.1 uses it in DSR
/// packets that carry only options (route requests, replies, errors).
pub const NO_NEXT_HEADER: u8 = 59;

/// Length of the fixed portion of the DSR Options header (RFC 4728 §6.1).
pub const FIXED_HEADER_LEN: usize = 4;

/// Option type numbers (RFC 4728 §6.2–§6.9).
pub mod option_type {
    /// §6.2 Route Request.
    pub const ROUTE_REQUEST: u8 = 1;
    /// §6.3 Route Reply.
    pub const ROUTE_REPLY: u8 = 2;
    /// §6.4 Route Error.
    pub const ROUTE_ERROR: u8 = 3;
    /// §6.5 Acknowledgement Request.
    pub const ACK_REQUEST: u8 = 160;
    /// §6.6 Acknowledgement.
    pub const ACK: u8 = 32;
    /// §6.7 DSR Source Route.
    pub const SOURCE_ROUTE: u8 = 96;
    /// §6.8 Pad1 (a single byte, no length field).
    pub const PAD1: u8 = 224;
    /// §6.9 PadN.
    pub const PADN: u8 = 0;
}

/// Route Error types (RFC 4728 §6.4).
pub mod error_type {
    /// §6.4.1: the link to the Unreachable Node Address is broken.
    pub const NODE_UNREACHABLE: u8 = 1;
    /// §6.4.2: flow state not supported.
    pub const FLOW_STATE_NOT_SUPPORTED: u8 = 2;
    /// §6.4.3: option not supported.
    pub const OPTION_NOT_SUPPORTED: u8 = 3;
}

/// Largest Salvage value: the field is 4 bits (RFC 4728 §6.4, §6.7).
pub const MAX_SALVAGE_FIELD: u8 = 15;

/// Largest Segments Left value: the field is 6 bits (RFC 4728 §6.7).
pub const MAX_SEGS_LEFT: u8 = 63;

/// Most addresses a Route Request can hold: Opt Data Len = 6 + 4n must fit 8 bits.
pub const MAX_REQUEST_ADDRS: usize = (255 - 6) / 4;

/// Most addresses a Route Reply can hold: Opt Data Len = 1 + 4n.
pub const MAX_REPLY_ADDRS: usize = (255 - 1) / 4;

/// Most addresses a Source Route can hold: Opt Data Len = 2 + 4n, and Segments Left (6 bits)
/// must be able to count them all.
pub const MAX_SOURCE_ROUTE_ADDRS: usize = 63;

/// The type-specific part of a Route Error (RFC 4728 §6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteErrorKind {
    /// §6.4.1 NODE_UNREACHABLE: the Unreachable Node Address.
    NodeUnreachable(Ipv4Addr),
    /// Any other error type, with its type-specific bytes.
    Other {
        /// Error Type.
        error_type: u8,
        /// Type-Specific Information.
        info: Vec<u8>,
    },
}

/// One DSR option (RFC 4728 §6.2–§6.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DsrOption {
    /// §6.8: one byte of padding.
    Pad1,
    /// §6.9: padding of `2 + len` bytes (`len` zero bytes of data).
    PadN(u8),
    /// §6.2 Route Request.
    RouteRequest {
        /// Identification (unique per initiator among its recent requests).
        id: u16,
        /// Target Address: the node sought.
        target: Ipv4Addr,
        /// The route record: the nodes the request has passed, initiator excluded.
        addresses: Vec<Ipv4Addr>,
    },
    /// §6.3 Route Reply.
    RouteReply {
        /// L: the last hop is external.
        last_hop_external: bool,
        /// The route from the reply's IP destination (excluded) to the target (included).
        addresses: Vec<Ipv4Addr>,
    },
    /// §6.4 Route Error.
    RouteError {
        /// Salvage: copied from the packet that suffered the error.
        salvage: u8,
        /// Error Source Address: the node that detected the error.
        error_src: Ipv4Addr,
        /// Error Destination Address: the node to tell.
        error_dst: Ipv4Addr,
        /// Error type and its information.
        kind: RouteErrorKind,
    },
    /// §6.5 Acknowledgement Request.
    AckRequest {
        /// Identification.
        id: u16,
    },
    /// §6.6 Acknowledgement.
    Ack {
        /// Identification (from the request).
        id: u16,
        /// ACK Source Address.
        src: Ipv4Addr,
        /// ACK Destination Address.
        dst: Ipv4Addr,
    },
    /// §6.7 DSR Source Route.
    SourceRoute {
        /// F: the first hop is external.
        first_hop_external: bool,
        /// L: the last hop is external.
        last_hop_external: bool,
        /// Salvage: how often the packet was salvaged (4 bits).
        salvage: u8,
        /// Segments Left: listed nodes still to be visited (6 bits).
        segs_left: u8,
        /// The intermediate nodes between the IP source (or the salvaging node) and the IP
        /// destination, both excluded.
        addresses: Vec<Ipv4Addr>,
    },
    /// An option type this codec does not model, kept verbatim.
    Unknown {
        /// Option Type.
        option_type: u8,
        /// Option data.
        data: Vec<u8>,
    },
}

fn addr_at(data: &[u8], at: usize) -> Ipv4Addr {
    Ipv4Addr::new(data[at], data[at + 1], data[at + 2], data[at + 3])
}

fn addrs(data: &[u8]) -> Vec<Ipv4Addr> {
    data.chunks_exact(4)
        .map(|c| Ipv4Addr::new(c[0], c[1], c[2], c[3]))
        .collect()
}

fn u16_at(data: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([data[at], data[at + 1]])
}

impl DsrOption {
    /// Bytes of option data (what Opt Data Len says) for a value of this option, or `None` if
    /// it does not fit the 8-bit field.
    fn data_len(&self) -> Option<usize> {
        let len = match self {
            DsrOption::Pad1 => return Some(0),
            DsrOption::PadN(n) => usize::from(*n),
            DsrOption::RouteRequest { addresses, .. } => 6 + 4 * addresses.len(),
            DsrOption::RouteReply { addresses, .. } => 1 + 4 * addresses.len(),
            DsrOption::RouteError { kind, .. } => match kind {
                RouteErrorKind::NodeUnreachable(_) => 14,
                RouteErrorKind::Other { info, .. } => 10 + info.len(),
            },
            DsrOption::AckRequest { .. } => 2,
            DsrOption::Ack { .. } => 10,
            DsrOption::SourceRoute { addresses, .. } => 2 + 4 * addresses.len(),
            DsrOption::Unknown { data, .. } => data.len(),
        };
        (len <= 255).then_some(len)
    }

    /// Encoded length of the option (type and length bytes included), or `None` if it is too
    /// long for its 8-bit length field.
    pub fn buffer_len(&self) -> Option<usize> {
        match self {
            DsrOption::Pad1 => Some(1),
            _ => self.data_len().map(|l| l + 2),
        }
    }

    /// The option type number.
    pub fn option_type(&self) -> u8 {
        match self {
            DsrOption::Pad1 => option_type::PAD1,
            DsrOption::PadN(_) => option_type::PADN,
            DsrOption::RouteRequest { .. } => option_type::ROUTE_REQUEST,
            DsrOption::RouteReply { .. } => option_type::ROUTE_REPLY,
            DsrOption::RouteError { .. } => option_type::ROUTE_ERROR,
            DsrOption::AckRequest { .. } => option_type::ACK_REQUEST,
            DsrOption::Ack { .. } => option_type::ACK,
            DsrOption::SourceRoute { .. } => option_type::SOURCE_ROUTE,
            DsrOption::Unknown { option_type, .. } => *option_type,
        }
    }

    /// Parses one option of type `ty` from its data bytes (Opt Data Len already checked to be
    /// inside the buffer).
    fn parse_data(ty: u8, data: &[u8]) -> Result<DsrOption> {
        let len = data.len();
        Ok(match ty {
            option_type::PADN => {
                // RFC 4728 §6.9: the data "MUST be 0"; we accept and re-emit zeros.
                DsrOption::PadN(len as u8)
            }
            option_type::ROUTE_REQUEST => {
                // §6.2: Opt Data Len = 6 + 4n.
                if len < 6 || (len - 6) & 3 != 0 {
                    return Err(WireError::Malformed);
                }
                DsrOption::RouteRequest {
                    id: u16_at(data, 0),
                    target: addr_at(data, 2),
                    addresses: addrs(&data[6..]),
                }
            }
            option_type::ROUTE_REPLY => {
                // §6.3: Opt Data Len = 1 + 4n.
                if len < 1 || (len - 1) & 3 != 0 {
                    return Err(WireError::Malformed);
                }
                DsrOption::RouteReply {
                    last_hop_external: data[0] & 0x80 != 0,
                    addresses: addrs(&data[1..]),
                }
            }
            option_type::ROUTE_ERROR => {
                // §6.4: Error Type, Reservd|Salvage, two addresses, type-specific data.
                if len < 10 {
                    return Err(WireError::Malformed);
                }
                let error_type = data[0];
                let kind = if error_type == error_type::NODE_UNREACHABLE {
                    // §6.4.1: the type-specific information is one address.
                    if len != 14 {
                        return Err(WireError::Malformed);
                    }
                    RouteErrorKind::NodeUnreachable(addr_at(data, 10))
                } else {
                    RouteErrorKind::Other {
                        error_type,
                        info: data[10..].to_vec(),
                    }
                };
                DsrOption::RouteError {
                    salvage: data[1] & 0x0f,
                    error_src: addr_at(data, 2),
                    error_dst: addr_at(data, 6),
                    kind,
                }
            }
            option_type::ACK_REQUEST => {
                // §6.5: Opt Data Len = 2.
                if len != 2 {
                    return Err(WireError::Malformed);
                }
                DsrOption::AckRequest {
                    id: u16_at(data, 0),
                }
            }
            option_type::ACK => {
                // §6.6: Opt Data Len = 10.
                if len != 10 {
                    return Err(WireError::Malformed);
                }
                DsrOption::Ack {
                    id: u16_at(data, 0),
                    src: addr_at(data, 2),
                    dst: addr_at(data, 6),
                }
            }
            option_type::SOURCE_ROUTE => {
                // §6.7: Opt Data Len = 2 + 4n; F|L|Reservd(4)|Salvage(4)|Segs Left(6).
                if len < 2 || (len - 2) & 3 != 0 {
                    return Err(WireError::Malformed);
                }
                let word = u16_at(data, 0);
                DsrOption::SourceRoute {
                    first_hop_external: word & 0x8000 != 0,
                    last_hop_external: word & 0x4000 != 0,
                    salvage: ((word >> 6) & 0x0f) as u8,
                    segs_left: (word & 0x3f) as u8,
                    addresses: addrs(&data[2..]),
                }
            }
            other => DsrOption::Unknown {
                option_type: other,
                data: data.to_vec(),
            },
        })
    }

    /// Writes the option at the start of `out`, which must hold [`DsrOption::buffer_len`]
    /// bytes. Returns the bytes written, or `None` (nothing meaningful written) if the option
    /// is too long or `out` too short.
    fn emit(&self, out: &mut [u8]) -> Option<usize> {
        let total = self.buffer_len()?;
        let out = out.get_mut(..total)?;
        out[0] = self.option_type();
        if let DsrOption::Pad1 = self {
            return Some(1);
        }
        out[1] = (total - 2) as u8;
        let data = &mut out[2..];
        let put_addrs = |data: &mut [u8], list: &[Ipv4Addr]| {
            for (chunk, a) in data.chunks_exact_mut(4).zip(list) {
                chunk.copy_from_slice(&a.octets());
            }
        };
        match self {
            DsrOption::Pad1 => {}
            DsrOption::PadN(_) => data.fill(0),
            DsrOption::RouteRequest {
                id,
                target,
                addresses,
            } => {
                data[0..2].copy_from_slice(&id.to_be_bytes());
                data[2..6].copy_from_slice(&target.octets());
                put_addrs(&mut data[6..], addresses);
            }
            DsrOption::RouteReply {
                last_hop_external,
                addresses,
            } => {
                data[0] = if *last_hop_external { 0x80 } else { 0 };
                put_addrs(&mut data[1..], addresses);
            }
            DsrOption::RouteError {
                salvage,
                error_src,
                error_dst,
                kind,
            } => {
                data[1] = salvage & 0x0f;
                data[2..6].copy_from_slice(&error_src.octets());
                data[6..10].copy_from_slice(&error_dst.octets());
                match kind {
                    RouteErrorKind::NodeUnreachable(a) => {
                        data[0] = error_type::NODE_UNREACHABLE;
                        data[10..14].copy_from_slice(&a.octets());
                    }
                    RouteErrorKind::Other { error_type, info } => {
                        data[0] = *error_type;
                        data[10..].copy_from_slice(info);
                    }
                }
            }
            DsrOption::AckRequest { id } => data[0..2].copy_from_slice(&id.to_be_bytes()),
            DsrOption::Ack { id, src, dst } => {
                data[0..2].copy_from_slice(&id.to_be_bytes());
                data[2..6].copy_from_slice(&src.octets());
                data[6..10].copy_from_slice(&dst.octets());
            }
            DsrOption::SourceRoute {
                first_hop_external,
                last_hop_external,
                salvage,
                segs_left,
                addresses,
            } => {
                let word = (u16::from(*first_hop_external) << 15)
                    | (u16::from(*last_hop_external) << 14)
                    | (u16::from(salvage & 0x0f) << 6)
                    | u16::from(segs_left & 0x3f);
                data[0..2].copy_from_slice(&word.to_be_bytes());
                put_addrs(&mut data[2..], addresses);
            }
            DsrOption::Unknown { data: d, .. } => data.copy_from_slice(d),
        }
        Some(total)
    }
}

/// A DSR Options header (RFC 4728 §6.1): the fixed portion and its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DsrRepr {
    /// Next Header: the IP protocol of the payload after the options ([`NO_NEXT_HEADER`] if
    /// none).
    pub next_header: u8,
    /// The options, in order.
    pub options: Vec<DsrOption>,
}

impl DsrRepr {
    /// Parses the DSR Options header at the start of `data` (an IPv4 payload). The payload
    /// after the header starts at [`DsrRepr::header_len`] of the result.
    ///
    /// Errors: [`WireError::Truncated`] if the fixed portion or the options announced by
    /// Payload Length do not fit in `data`, or an option's length runs past Payload Length;
    /// [`WireError::Malformed`] if an option's length does not match its format;
    /// [`WireError::Unsupported`] if the F flag is set (a DSR Flow State header, RFC 4728
    /// §6.1, which this codec does not model).
    pub fn parse(data: &[u8]) -> Result<DsrRepr> {
        if data.len() < FIXED_HEADER_LEN {
            return Err(WireError::Truncated);
        }
        if data[1] & 0x80 != 0 {
            return Err(WireError::Unsupported);
        }
        let payload_len = usize::from(u16_at(data, 2));
        let Some(mut rest) = data.get(FIXED_HEADER_LEN..FIXED_HEADER_LEN + payload_len) else {
            return Err(WireError::Truncated);
        };
        let mut options = Vec::new();
        while let Some((&ty, after)) = rest.split_first() {
            if ty == option_type::PAD1 {
                options.push(DsrOption::Pad1);
                rest = after;
                continue;
            }
            let Some((&len, after)) = after.split_first() else {
                return Err(WireError::Truncated);
            };
            let len = usize::from(len);
            let Some(body) = after.get(..len) else {
                return Err(WireError::Truncated);
            };
            options.push(DsrOption::parse_data(ty, body)?);
            rest = &after[len..];
        }
        Ok(DsrRepr {
            next_header: data[0],
            options,
        })
    }

    /// Length of the options (the Payload Length field), or `None` if an option is too long
    /// for its length field or the sum exceeds 16 bits.
    pub fn options_len(&self) -> Option<usize> {
        let mut sum = 0usize;
        for o in &self.options {
            sum += o.buffer_len()?;
        }
        (sum <= usize::from(u16::MAX)).then_some(sum)
    }

    /// Length of the whole header (fixed portion and options), or `None` as for
    /// [`DsrRepr::options_len`].
    pub fn header_len(&self) -> Option<usize> {
        self.options_len().map(|l| l + FIXED_HEADER_LEN)
    }

    /// Writes the header at the start of `out` (F flag and reserved bits zero). Returns the
    /// bytes written, or [`WireError::Malformed`] if an option cannot be encoded (too long) or
    /// [`WireError::Truncated`] if `out` is shorter than [`DsrRepr::header_len`].
    pub fn emit(&self, out: &mut [u8]) -> Result<usize> {
        let options_len = self.options_len().ok_or(WireError::Malformed)?;
        let total = options_len + FIXED_HEADER_LEN;
        let out = out.get_mut(..total).ok_or(WireError::Truncated)?;
        out[0] = self.next_header;
        out[1] = 0;
        out[2..4].copy_from_slice(&(options_len as u16).to_be_bytes());
        let mut at = FIXED_HEADER_LEN;
        for o in &self.options {
            at += o.emit(&mut out[at..]).ok_or(WireError::Malformed)?;
        }
        Ok(total)
    }

    /// The header as bytes (see [`DsrRepr::emit`]).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.header_len().ok_or(WireError::Malformed)?];
        self.emit(&mut out)?;
        Ok(out)
    }
}

/// Builds a complete IPv4 packet carrying a DSR Options header: `ip` supplies addresses, TTL,
/// identification, DSCP and DF (its protocol and payload length are replaced: protocol 48,
/// payload = header + `payload`). Errors as [`DsrRepr::emit`], and [`WireError::Malformed`] if
/// the packet would exceed 65535 bytes.
pub fn dsr_packet(ip: &Ipv4Repr, dsr: &DsrRepr, payload: &[u8]) -> Result<Vec<u8>> {
    let header = dsr.to_bytes()?;
    let payload_len = header.len() + payload.len();
    if payload_len > Ipv4Repr::MAX_PAYLOAD_LEN {
        return Err(WireError::Malformed);
    }
    let repr = Ipv4Repr {
        protocol: IP_PROTOCOL_DSR,
        payload_len,
        ..*ip
    };
    let mut out = vec![0u8; repr.buffer_len()];
    repr.emit(&mut Ipv4Packet::new_unchecked(&mut out[..]));
    out[Ipv4Repr::HEADER_LEN..Ipv4Repr::HEADER_LEN + header.len()].copy_from_slice(&header);
    out[Ipv4Repr::HEADER_LEN + header.len()..].copy_from_slice(payload);
    Ok(out)
}

/// Entry point for a fuzz target: parses `data` as a DSR Options header and, if that works,
/// re-emits it and checks that the result parses to the same value. Panics only if the codec
/// is inconsistent (which is what a fuzzer should find).
pub fn fuzz_parse_dsr(data: &[u8]) {
    if let Ok(repr) = DsrRepr::parse(data) {
        let bytes = repr
            .to_bytes()
            .expect("a parsed DSR header is always encodable");
        let again = DsrRepr::parse(&bytes).expect("an emitted DSR header parses");
        assert_eq!(again, repr, "DSR header round trip");
        assert_eq!(repr.header_len(), Some(bytes.len()));
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
    const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
    const C: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 3);

    fn round_trip(repr: &DsrRepr) -> Vec<u8> {
        let bytes = repr.to_bytes().unwrap();
        assert_eq!(DsrRepr::parse(&bytes).as_ref(), Ok(repr));
        assert_eq!(repr.header_len(), Some(bytes.len()));
        bytes
    }

    #[test]
    fn route_request_bytes() {
        let repr = DsrRepr {
            next_header: NO_NEXT_HEADER,
            options: vec![DsrOption::RouteRequest {
                id: 0x1234,
                target: C,
                addresses: vec![A, B],
            }],
        };
        let bytes = round_trip(&repr);
        #[rustfmt::skip]
        let expected = [
            59, 0, 0, 16,           // next header 59, F=0, payload length 16
            1, 14,                  // Route Request, Opt Data Len 6 + 2*4
            0x12, 0x34,             // identification
            10, 0, 0, 3,            // target
            10, 0, 0, 1, 10, 0, 0, 2,
        ];
        assert_eq!(bytes, expected);
    }

    #[test]
    fn route_reply_and_source_route_bytes() {
        let repr = DsrRepr {
            next_header: NO_NEXT_HEADER,
            options: vec![
                DsrOption::RouteReply {
                    last_hop_external: false,
                    addresses: vec![B, C],
                },
                DsrOption::SourceRoute {
                    first_hop_external: false,
                    last_hop_external: true,
                    salvage: 5,
                    segs_left: 1,
                    addresses: vec![B],
                },
            ],
        };
        let bytes = round_trip(&repr);
        #[rustfmt::skip]
        let expected = [
            59, 0, 0, 19,
            2, 9, 0x00, 10, 0, 0, 2, 10, 0, 0, 3,       // RREP, 1 + 2*4
            96, 6,                                      // Source Route, 2 + 4
            0b0100_0001, 0b0100_0001,                   // L=1, salvage 5, segs left 1
            10, 0, 0, 2,
        ];
        assert_eq!(bytes, expected);
    }

    #[test]
    fn route_error_bytes() {
        let repr = DsrRepr {
            next_header: NO_NEXT_HEADER,
            options: vec![DsrOption::RouteError {
                salvage: 2,
                error_src: B,
                error_dst: A,
                kind: RouteErrorKind::NodeUnreachable(C),
            }],
        };
        let bytes = round_trip(&repr);
        #[rustfmt::skip]
        let expected = [
            59, 0, 0, 16,
            3, 14, 1, 2,            // RERR, len 14, NODE_UNREACHABLE, salvage 2
            10, 0, 0, 2, 10, 0, 0, 1, 10, 0, 0, 3,
        ];
        assert_eq!(bytes, expected);
    }

    #[test]
    fn all_options_round_trip() {
        let repr = DsrRepr {
            next_header: 17,
            options: vec![
                DsrOption::Pad1,
                DsrOption::PadN(3),
                DsrOption::AckRequest { id: 7 },
                DsrOption::Ack {
                    id: 7,
                    src: A,
                    dst: B,
                },
                DsrOption::RouteError {
                    salvage: 15,
                    error_src: A,
                    error_dst: B,
                    kind: RouteErrorKind::Other {
                        error_type: 3,
                        info: vec![1, 2, 3],
                    },
                },
                DsrOption::Unknown {
                    option_type: 129,
                    data: vec![9; 6],
                },
                DsrOption::SourceRoute {
                    first_hop_external: true,
                    last_hop_external: false,
                    salvage: 0,
                    segs_left: 63,
                    addresses: vec![],
                },
            ],
        };
        let bytes = round_trip(&repr);
        assert_eq!(&bytes[4..10], &[224, 0, 3, 0, 0, 0]);
        assert_eq!(&bytes[10..14], &[160, 2, 0, 7]);
    }

    #[test]
    fn packet_builder() {
        let ip = Ipv4Repr {
            src_addr: A,
            dst_addr: C,
            protocol: IpProtocol::Udp,
            payload_len: 0,
            ttl: 64,
            ident: 9,
            dscp: 0,
            dont_frag: false,
        };
        let dsr = DsrRepr {
            next_header: 17,
            options: vec![DsrOption::SourceRoute {
                first_hop_external: false,
                last_hop_external: false,
                salvage: 0,
                segs_left: 1,
                addresses: vec![B],
            }],
        };
        let bytes = dsr_packet(&ip, &dsr, b"abc").unwrap();
        let packet = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        let parsed = Ipv4Repr::parse(&packet).unwrap();
        assert_eq!(parsed.protocol, IP_PROTOCOL_DSR);
        assert_eq!(parsed.payload_len, 4 + 8 + 3);
        let repr = DsrRepr::parse(packet.payload()).unwrap();
        assert_eq!(repr, dsr);
        assert_eq!(&packet.payload()[12..], b"abc");
    }

    #[test]
    fn bad_lengths_are_rejected() {
        // Fixed portion truncated.
        for n in 0..4 {
            assert_eq!(
                DsrRepr::parse(&[59, 0, 0, 0][..n]),
                Err(WireError::Truncated)
            );
        }
        // Payload length beyond the buffer.
        assert_eq!(DsrRepr::parse(&[59, 0, 0, 1]), Err(WireError::Truncated));
        // F flag.
        assert_eq!(
            DsrRepr::parse(&[59, 0x80, 0, 0]),
            Err(WireError::Unsupported)
        );
        // Option length runs past payload length (extra buffer bytes do not count).
        assert_eq!(
            DsrRepr::parse(&[59, 0, 0, 2, 0, 1, 0]),
            Err(WireError::Truncated)
        );
        // Type without length byte.
        assert_eq!(DsrRepr::parse(&[59, 0, 0, 1, 1]), Err(WireError::Truncated));
        // Wrong per-type lengths.
        for (ty, len) in [
            (1u8, 5u8),
            (1, 7),
            (2, 0),
            (2, 2),
            (3, 9),
            (3, 13),
            (160, 3),
            (32, 9),
            (96, 1),
            (96, 3),
        ] {
            let mut b = vec![59, 0, 0, 2 + len, ty, len];
            b.resize(b.len() + usize::from(len), 1u8);
            assert_eq!(
                DsrRepr::parse(&b),
                Err(WireError::Malformed),
                "type {ty} len {len}"
            );
        }
        // Empty header is fine.
        assert_eq!(
            DsrRepr::parse(&[6, 0, 0, 0, 1, 2, 3]),
            Ok(DsrRepr {
                next_header: 6,
                options: vec![]
            })
        );
    }

    #[test]
    fn oversized_options_do_not_emit() {
        let repr = DsrRepr {
            next_header: 59,
            options: vec![DsrOption::RouteRequest {
                id: 1,
                target: A,
                addresses: vec![B; MAX_REQUEST_ADDRS + 1],
            }],
        };
        assert_eq!(repr.header_len(), None);
        assert_eq!(repr.to_bytes(), Err(WireError::Malformed));
        let ok = DsrRepr {
            next_header: 59,
            options: vec![DsrOption::RouteRequest {
                id: 1,
                target: A,
                addresses: vec![B; MAX_REQUEST_ADDRS],
            }],
        };
        round_trip(&ok);
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = sctpsim_kernel_free_rng(1);
        for _ in 0..20_000 {
            let n = (rng() % 80) as usize;
            let mut b: Vec<u8> = (0..n).map(|_| rng() as u8).collect();
            if b.len() >= 4 && rng() & 1 == 0 {
                let l = (b.len() - 4) as u16;
                b[1] &= 0x7f;
                b[2..4].copy_from_slice(&l.to_be_bytes());
            }
            fuzz_parse_dsr(&b);
        }
    }

    /// A tiny xorshift so this crate's tests need no dependency.
    fn sctpsim_kernel_free_rng(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }
}
