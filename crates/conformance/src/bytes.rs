//! Inbound packets byte by byte: the script's chunks, parameters and error causes written
//! exactly as the script gives them, in packetdrill's layout, without going through the
//! codec's typed chunks.
//!
//! Why not the codec: the invalid-message tests of RFC 9260 (§3.2, §3.3, §6.10, §8.4, §11) and
//! of ETSI TS 102 369 (IMH group) send what a correct encoder would refuse to produce — reserved
//! flag bits, a length field larger than the value that follows, an INIT whose fixed fields are
//! cut short, a parameter of an unknown type, a chunk list given as raw bytes. The receiver must
//! see those bytes unchanged, so this module writes them itself and only the CRC32c (unless
//! `bad_crc32c`) is computed.
//!
//! Layout rules (packetdrill's `sctp_packet.c`, re-stated here):
//! * a chunk, parameter or cause is its header, then its value, then zero padding to a multiple
//!   of 4 bytes (RFC 9260 §3.2, §3.2.1); the length field excludes the padding;
//! * an explicit `len=` is written as given. With `val=[...]` the value is exactly those bytes
//!   (the length field may then claim more than follows — on purpose); without a value the
//!   value is `len − header` zero bytes (`'P'` bytes for PAD, as packetdrill does);
//! * parameters inside INIT / INIT ACK, and those nested in UNRECOGNIZED_PARAMETER or an error
//!   cause, follow one another each padded; the chunk length excludes the last one's padding.
//!
//! Local TSNs and tags are mapped to live values as in [`crate::encode`].

use sctpsim_wire::sctp::SctpPacket;

use crate::ast::{CauseList, CauseSpec, ChunkSpec, InitSpec, ParamList, ParamSpec};
use crate::encode::{InboundCtx, Unsupported};

/// Rounds a byte count up to a multiple of 4 (RFC 9260 §3.2: chunks are padded to 4 bytes).
fn pad4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// A 16-bit length field from a byte count; values above 65535 are a script error, reported
/// instead of wrapping.
fn len16(n: usize, what: &str) -> Result<u16, Unsupported> {
    u16::try_from(n).map_err(|_| format!("{what} of {n} bytes does not fit a 16-bit length"))
}

/// A TLV (parameter or error cause): type, length (`len` or header + value), value, padding.
fn tlv(kind: u16, len: Option<u16>, value: &[u8], what: &str) -> Result<Vec<u8>, Unsupported> {
    let length = match len {
        Some(l) => l,
        None => len16(4 + value.len(), what)?,
    };
    let mut b = Vec::with_capacity(pad4(4 + value.len()));
    b.extend_from_slice(&kind.to_be_bytes());
    b.extend_from_slice(&length.to_be_bytes());
    b.extend_from_slice(value);
    b.resize(pad4(b.len()), 0);
    Ok(b)
}

/// A chunk: type, flags, length (`len` or header + value), value, padding — a TLV whose
/// 16-bit type field holds the chunk type and flags (RFC 9260 §3.2).
fn chunk(
    kind: u8,
    flags: u8,
    len: Option<u16>,
    value: &[u8],
    what: &str,
) -> Result<Vec<u8>, Unsupported> {
    tlv(u16::from_be_bytes([kind, flags]), len, value, what)
}

/// The value of a TLV given by `len` and `val`: the bytes if given, else `len − header` times
/// `fill`.
fn value_of(val: Option<&[u8]>, len: Option<u16>, header: usize, fill: u8) -> Vec<u8> {
    match val {
        Some(v) => v.to_vec(),
        None => vec![fill; len.map_or(0, |l| usize::from(l).saturating_sub(header))],
    }
}

/// Drops the padding after the last item of a list, so that the enclosing length excludes it
/// (RFC 9260 §3.2.1: "the sender MUST NOT pad with more than 3 bytes" and the length of the
/// last parameter excludes its padding).
fn unpadded_len(items: &[Vec<u8>], last_unpadded: usize) -> usize {
    let total: usize = items.iter().map(Vec::len).sum();
    match items.last() {
        Some(last) => total - last.len() + last_unpadded,
        None => 0,
    }
}

/// The length a TLV's header claims, or its actual unpadded size when shorter: the part of
/// the last item that counts in the enclosing length.
fn claimed_unpadded(item: &[u8]) -> usize {
    let claimed = item
        .get(2..4)
        .map_or(0, |b| usize::from(u16::from_be_bytes([b[0], b[1]])));
    claimed.min(item.len())
}

/// Parameters one after the other, each padded; the total counts the last one unpadded.
fn param_list(list: &[ParamSpec]) -> Result<(Vec<u8>, usize), Unsupported> {
    let items = list
        .iter()
        .map(param_bytes)
        .collect::<Result<Vec<_>, _>>()?;
    let len = unpadded_len(&items, items.last().map_or(0, |l| claimed_unpadded(l)));
    Ok((items.concat(), len))
}

/// A parameter as bytes (padded).
pub fn param_bytes(p: &ParamSpec) -> Result<Vec<u8>, Unsupported> {
    match p {
        ParamSpec::Generic { kind, len, val } => {
            // packetdrill sends `type=...` as 0.
            let kind = kind.unwrap_or(0);
            tlv(
                kind,
                *len,
                &value_of(val.as_deref(), *len, 4, 0),
                "PARAMETER",
            )
        }
        ParamSpec::HeartbeatInfo { len, val } => tlv(
            1,
            *len,
            &value_of(val.as_deref(), *len, 4, 0),
            "HEARTBEAT_INFORMATION",
        ),
        ParamSpec::Ipv4Address(a) => {
            tlv(5, None, &a.map_or([0; 4], |a| a.octets()), "IPV4_ADDRESS")
        }
        ParamSpec::Ipv6Address(a) => {
            tlv(6, None, &a.map_or([0; 16], |a| a.octets()), "IPV6_ADDRESS")
        }
        ParamSpec::StateCookie { len } => tlv(7, *len, &value_of(None, *len, 4, 0), "STATE_COOKIE"),
        ParamSpec::UnrecognizedParameter(list) => {
            let (nested, _) = param_list(list.as_deref().unwrap_or(&[]))?;
            tlv(8, None, &nested, "UNRECOGNIZED_PARAMETER")
        }
        ParamSpec::CookiePreservative(incr) => tlv(
            9,
            None,
            &incr.unwrap_or(0).to_be_bytes(),
            "COOKIE_PRESERVATIVE",
        ),
        ParamSpec::HostnameAddress(name) => {
            // RFC 9260 §3.3.2.1: the host name ends with at least one NUL.
            let mut v = name.clone().unwrap_or_default().into_bytes();
            v.push(0);
            tlv(11, None, &v, "HOSTNAME_ADDRESS")
        }
        ParamSpec::SupportedAddressTypes(types) => {
            let v: Vec<u8> = types
                .iter()
                .flatten()
                .flat_map(|t| t.to_be_bytes())
                .collect();
            tlv(12, None, &v, "SUPPORTED_ADDRESS_TYPES")
        }
        ParamSpec::EcnCapable => tlv(0x8000, None, &[], "ECN_CAPABLE"),
        ParamSpec::ForwardTsnSupported => tlv(0xC000, None, &[], "FORWARD_TSN_SUPPORTED"),
        ParamSpec::SupportedExtensions(types) => tlv(
            0x8008,
            None,
            types.as_deref().unwrap_or(&[]),
            "SUPPORTED_EXTENSIONS",
        ),
        ParamSpec::AdaptationIndication(code) => tlv(
            0xC006,
            None,
            &code.unwrap_or(0).to_be_bytes(),
            "ADAPTATION_INDICATION",
        ),
        ParamSpec::ZeroChecksumAcceptable(edmid) => tlv(
            0x8001,
            None,
            &edmid.unwrap_or(0).to_be_bytes(),
            "ZERO_CHECKSUM_ACCEPTABLE",
        ),
        ParamSpec::Pad { len } => tlv(0x8005, *len, &value_of(None, *len, 4, b'P'), "PAD"),
        ParamSpec::Unsupported { name } => Err(format!("unsupported: {name} parameters")),
    }
}

/// An error cause as bytes (padded).
pub fn cause_bytes(c: &CauseSpec, ctx: &InboundCtx) -> Result<Vec<u8>, Unsupported> {
    let nested = |list: &Option<Vec<ParamSpec>>| -> Result<Vec<u8>, Unsupported> {
        Ok(param_list(list.as_deref().unwrap_or(&[]))?.0)
    };
    match c {
        CauseSpec::Generic { code, len, info } => tlv(
            code.unwrap_or(0),
            *len,
            &value_of(info.as_deref(), *len, 4, 0),
            "CAUSE",
        ),
        CauseSpec::InvalidStreamIdentifier(sid) => {
            let mut v = sid.unwrap_or(0).to_be_bytes().to_vec();
            v.extend_from_slice(&[0, 0]);
            tlv(1, None, &v, "INVALID_STREAM_IDENTIFIER")
        }
        CauseSpec::MissingMandatoryParameter(types) => {
            let types = types.as_deref().unwrap_or(&[]);
            let count = u32::try_from(types.len()).unwrap_or(u32::MAX);
            let mut v = count.to_be_bytes().to_vec();
            v.extend(types.iter().flat_map(|t| t.to_be_bytes()));
            tlv(2, None, &v, "MISSING_MANDATORY_PARAMETER")
        }
        CauseSpec::StaleCookie(us) => tlv(
            3,
            None,
            &us.unwrap_or(0).to_be_bytes(),
            "STALE_COOKIE_ERROR",
        ),
        CauseSpec::OutOfResource => tlv(4, None, &[], "OUT_OF_RESOURCE"),
        CauseSpec::UnresolvableAddress(p) => {
            let v = match p {
                Some(p) => unpadded(param_bytes(p)?),
                None => Vec::new(),
            };
            tlv(5, None, &v, "UNRESOLVABLE_ADDRESS")
        }
        CauseSpec::UnrecognizedChunkType(ch) => {
            let v = match ch {
                Some(ch) => unpadded(chunk_bytes(ch, ctx)?),
                None => Vec::new(),
            };
            tlv(6, None, &v, "UNRECOGNIZED_CHUNK_TYPE")
        }
        CauseSpec::InvalidMandatoryParameter => tlv(7, None, &[], "INVALID_MANDATORY_PARAMETER"),
        CauseSpec::UnrecognizedParameters(list) => {
            tlv(8, None, &nested(list)?, "UNRECOGNIZED_PARAMETERS")
        }
        CauseSpec::NoUserData(tsn) => tlv(9, None, &tsn.unwrap_or(0).to_be_bytes(), "NO_USER_DATA"),
        CauseSpec::CookieReceivedWhileShutdown => {
            tlv(10, None, &[], "COOKIE_RECEIVED_WHILE_SHUTDOWN")
        }
        CauseSpec::RestartWithNewAddresses(list) => {
            tlv(11, None, &nested(list)?, "RESTART_WITH_NEW_ADDRESSES")
        }
        CauseSpec::UserInitiatedAbort(s) => tlv(
            12,
            None,
            s.as_deref().unwrap_or("").as_bytes(),
            "USER_INITIATED_ABORT",
        ),
        CauseSpec::ProtocolViolation(s) => tlv(
            13,
            None,
            s.as_deref().unwrap_or("").as_bytes(),
            "PROTOCOL_VIOLATION",
        ),
    }
}

/// A TLV or chunk without its trailing padding: as long as its length field says, or all of
/// it when the field claims more than there is.
fn unpadded(mut b: Vec<u8>) -> Vec<u8> {
    let n = claimed_unpadded(&b).max(4.min(b.len()));
    b.truncate(n);
    b
}

fn causes(list: &CauseList, ctx: &InboundCtx) -> Result<(Vec<u8>, usize), Unsupported> {
    let CauseList::List(list) = list else {
        return Ok((Vec::new(), 0));
    };
    let items = list
        .iter()
        .map(|c| cause_bytes(c, ctx))
        .collect::<Result<Vec<_>, _>>()?;
    let len = unpadded_len(&items, items.last().map_or(0, |l| claimed_unpadded(l)));
    Ok((items.concat(), len))
}

fn init_value(s: &InitSpec) -> Result<(Vec<u8>, usize), Unsupported> {
    let mut v = Vec::with_capacity(16);
    v.extend_from_slice(&s.tag.unwrap_or(0).to_be_bytes());
    v.extend_from_slice(&s.a_rwnd.unwrap_or(0).to_be_bytes());
    v.extend_from_slice(&s.os.unwrap_or(0).to_be_bytes());
    v.extend_from_slice(&s.is.unwrap_or(0).to_be_bytes());
    v.extend_from_slice(&s.tsn.unwrap_or(0).to_be_bytes());
    let (params, plen) = match &s.params {
        ParamList::Any => (Vec::new(), 0),
        ParamList::List(list) => param_list(list)?,
    };
    v.extend_from_slice(&params);
    Ok((v, 16 + plen))
}

/// A chunk whose value is a list (INIT, ABORT, ERROR): the length counts the last item
/// unpadded.
fn list_chunk(
    kind: u8,
    flags: u8,
    value: &[u8],
    counted: usize,
    what: &str,
) -> Result<Vec<u8>, Unsupported> {
    let length = len16(4 + counted, what)?;
    chunk(kind, flags, Some(length), value, what)
}

/// A chunk as bytes (padded to 4). Local TSNs are mapped to live values; a COOKIE ECHO or
/// HEARTBEAT ACK without a value echoes what the system under test sent.
pub fn chunk_bytes(c: &ChunkSpec, ctx: &InboundCtx) -> Result<Vec<u8>, Unsupported> {
    let m = &ctx.map;
    let f = |flags: &Option<u8>| flags.unwrap_or(0);
    match c {
        ChunkSpec::Data {
            flags,
            len,
            tsn,
            sid,
            ssn,
            ppid,
        } => {
            // packetdrill: without `len` a DATA chunk has no user data (length 16).
            let length = len.unwrap_or(16);
            let mut v = Vec::with_capacity(usize::from(length).saturating_sub(4));
            v.extend_from_slice(&tsn.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&sid.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&ssn.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&ppid.unwrap_or(0).to_be_bytes());
            v.resize(usize::from(length).saturating_sub(4).max(12), 0);
            chunk(0, f(flags), Some(length), &v, "DATA")
        }
        ChunkSpec::IData {
            flags,
            len,
            tsn,
            sid,
            mid,
            ppid_or_fsn,
        } => {
            // As DATA: without `len` no user data (length 20, RFC 8260 §2.1).
            let length = len.unwrap_or(20);
            let mut v = Vec::with_capacity(usize::from(length).saturating_sub(4));
            v.extend_from_slice(&tsn.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&sid.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&[0, 0]);
            v.extend_from_slice(&mid.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&ppid_or_fsn.unwrap_or(0).to_be_bytes());
            v.resize(usize::from(length).saturating_sub(4).max(16), 0);
            chunk(64, f(flags), Some(length), &v, "I_DATA")
        }
        ChunkSpec::Init(s) => {
            let (v, counted) = init_value(s)?;
            list_chunk(1, f(&s.flags), &v, counted, "INIT")
        }
        ChunkSpec::InitAck(s) => {
            let (v, counted) = init_value(s)?;
            list_chunk(2, f(&s.flags), &v, counted, "INIT_ACK")
        }
        ChunkSpec::Sack {
            nr,
            nr_gaps,
            flags,
            cum_tsn,
            a_rwnd,
            gaps,
            dups,
        } => {
            let gaps = gaps.as_deref().unwrap_or(&[]);
            let nr_gaps = nr_gaps.as_deref().unwrap_or(&[]);
            let dups = dups.as_deref().unwrap_or(&[]);
            let mut v = Vec::new();
            v.extend_from_slice(&m.local_tsn_to_live(cum_tsn.unwrap_or(0)).to_be_bytes());
            v.extend_from_slice(&a_rwnd.unwrap_or(0).to_be_bytes());
            v.extend_from_slice(&len16(gaps.len(), "SACK gap list")?.to_be_bytes());
            if *nr {
                // FreeBSD's `struct sctp_nr_sack`: NR gap count, duplicate count, reserved.
                v.extend_from_slice(&len16(nr_gaps.len(), "NR gap list")?.to_be_bytes());
                v.extend_from_slice(&len16(dups.len(), "SACK duplicate list")?.to_be_bytes());
                v.extend_from_slice(&[0, 0]);
            } else {
                v.extend_from_slice(&len16(dups.len(), "SACK duplicate list")?.to_be_bytes());
            }
            for (start, end) in gaps.iter().chain(nr_gaps) {
                v.extend_from_slice(&start.to_be_bytes());
                v.extend_from_slice(&end.to_be_bytes());
            }
            for d in dups {
                v.extend_from_slice(&m.local_tsn_to_live(*d).to_be_bytes());
            }
            if *nr {
                chunk(16, f(flags), None, &v, "NR_SACK")
            } else {
                chunk(3, f(flags), None, &v, "SACK")
            }
        }
        ChunkSpec::Heartbeat { flags, info } => {
            let p = heartbeat_param(info.as_ref(), None)?;
            list_chunk(4, f(flags), &p, claimed_unpadded(&p), "HEARTBEAT")
        }
        ChunkSpec::HeartbeatAck { flags, info } => {
            let p = heartbeat_param(info.as_ref(), ctx.heartbeat_info.as_deref())?;
            list_chunk(5, f(flags), &p, claimed_unpadded(&p), "HEARTBEAT_ACK")
        }
        ChunkSpec::Abort { flags, causes: cl } => {
            let (v, counted) = causes(cl, ctx)?;
            list_chunk(6, f(flags), &v, counted, "ABORT")
        }
        ChunkSpec::Shutdown { flags, cum_tsn } => chunk(
            7,
            f(flags),
            None,
            &m.local_tsn_to_live(cum_tsn.unwrap_or(0)).to_be_bytes(),
            "SHUTDOWN",
        ),
        ChunkSpec::ShutdownAck { flags } => chunk(8, f(flags), None, &[], "SHUTDOWN_ACK"),
        ChunkSpec::Error { flags, causes: cl } => {
            let (v, counted) = causes(cl, ctx)?;
            list_chunk(9, f(flags), &v, counted, "ERROR")
        }
        ChunkSpec::CookieEcho { flags, len, val } => {
            let cookie = match (val, &ctx.cookie) {
                (Some(v), _) => v.clone(),
                (None, Some(prepared)) => prepared.clone(),
                (None, None) => value_of(None, *len, 4, 0),
            };
            // An explicit length is written as given only with an explicit value; with the
            // echoed cookie the length follows the cookie (packetdrill fills both in).
            let len = if val.is_some() { *len } else { None };
            chunk(10, f(flags), len, &cookie, "COOKIE_ECHO")
        }
        ChunkSpec::CookieAck { flags } => chunk(11, f(flags), None, &[], "COOKIE_ACK"),
        ChunkSpec::Ecne { flags, tsn } => chunk(
            12,
            f(flags),
            None,
            &m.local_tsn_to_live(tsn.unwrap_or(0)).to_be_bytes(),
            "ECNE",
        ),
        ChunkSpec::Cwr { flags, tsn } => chunk(
            13,
            f(flags),
            None,
            &m.local_tsn_to_live(tsn.unwrap_or(0)).to_be_bytes(),
            "CWR",
        ),
        ChunkSpec::ShutdownComplete { flags } => {
            chunk(14, f(flags), None, &[], "SHUTDOWN_COMPLETE")
        }
        ChunkSpec::Generic {
            kind,
            flags,
            len,
            val,
        } => chunk(
            kind.unwrap_or(0),
            f(flags),
            Some(len.unwrap_or(4)),
            &value_of(val.as_deref(), *len, 4, 0),
            "CHUNK",
        ),
        ChunkSpec::Reconfig { flags, params } => {
            crate::reconfig::inbound_bytes(*flags, params.as_deref(), m)
        }
        ChunkSpec::Pad { flags, len } => chunk(
            0x84,
            f(flags),
            Some(len.unwrap_or(4)),
            &value_of(None, *len, 4, b'P'),
            "PAD",
        ),
        ChunkSpec::Unsupported { name } => Err(format!("unsupported: {name} chunks")),
    }
}

/// The Heartbeat Info parameter of a HEARTBEAT (ACK): as written, or the one to echo.
fn heartbeat_param(
    info: Option<&ParamSpec>,
    prepared: Option<&[u8]>,
) -> Result<Vec<u8>, Unsupported> {
    match (info, prepared) {
        (None, Some(p)) => tlv(1, None, p, "HEARTBEAT_INFORMATION"),
        (Some(ParamSpec::HeartbeatInfo { len, val: None }), Some(p)) => {
            // `len=...` or a length that matches: echo; an explicit other length is kept.
            tlv(
                1,
                len.filter(|l| usize::from(*l) != 4 + p.len()),
                p,
                "HEARTBEAT_INFORMATION",
            )
        }
        (None, None) => tlv(1, None, &[], "HEARTBEAT_INFORMATION"),
        (Some(p), _) => param_bytes(p),
    }
}

/// The first chunk's type and flags in a chunk list given as bytes (for the choice of the
/// verification tag: 0 with INIT, the reflected tag with a T bit).
pub fn first_chunk_header(bytes: &[u8]) -> Option<(u8, u8)> {
    Some((*bytes.first()?, *bytes.get(1)?))
}

/// An SCTP packet: the common header (RFC 9260 §3.1) and the chunk bytes, with the CRC32c of
/// Appendix A computed over the whole packet, or deliberately wrong with `bad_crc32c`.
pub fn sctp_packet(
    src_port: u16,
    dst_port: u16,
    vtag: u32,
    chunks: &[u8],
    bad_crc32c: bool,
) -> Vec<u8> {
    let mut p = Vec::with_capacity(12 + chunks.len());
    p.extend_from_slice(&src_port.to_be_bytes());
    p.extend_from_slice(&dst_port.to_be_bytes());
    p.extend_from_slice(&vtag.to_be_bytes());
    p.extend_from_slice(&[0; 4]);
    p.extend_from_slice(chunks);
    // The wire crate's own checksum routine (RFC 9260 §6.8, Appendix A), so that the byte
    // order is the one every receiver in the simulator checks.
    if let Ok(mut pkt) = SctpPacket::new_checked(&mut p[..]) {
        pkt.fill_checksum();
        if bad_crc32c {
            let crc = pkt.checksum();
            pkt.set_checksum(!crc);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Mapping;

    fn ctx() -> InboundCtx {
        InboundCtx::default()
    }

    #[test]
    fn generic_chunk_keeps_a_wrong_length() {
        // len=8 claims four value bytes, but only two follow (packetdrill's "partial" chunk).
        let c = ChunkSpec::Generic {
            kind: Some(0x01),
            flags: Some(0xff),
            len: Some(8),
            val: Some(vec![0xaa, 0xbb]),
        };
        assert_eq!(
            chunk_bytes(&c, &ctx()).unwrap(),
            [0x01, 0xff, 0, 8, 0xaa, 0xbb, 0, 0]
        );
        // Without a value: len − 4 zero bytes, then padding.
        let c = ChunkSpec::Generic {
            kind: Some(0x4f),
            flags: None,
            len: Some(5),
            val: None,
        };
        assert_eq!(
            chunk_bytes(&c, &ctx()).unwrap(),
            [0x4f, 0, 0, 5, 0, 0, 0, 0]
        );
    }

    #[test]
    fn data_with_reserved_flags_and_odd_length() {
        let c = ChunkSpec::Data {
            flags: Some(0xf3),
            len: Some(17),
            tsn: Some(7),
            sid: Some(1),
            ssn: Some(2),
            ppid: Some(3),
        };
        let b = chunk_bytes(&c, &ctx()).unwrap();
        assert_eq!(
            b,
            [0, 0xf3, 0, 17, 0, 0, 0, 7, 0, 1, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0]
        );
        // No len: no user data (RFC 9260 §6.2 "No User Data" test).
        let c = ChunkSpec::Data {
            flags: Some(3),
            len: None,
            tsn: Some(1),
            sid: None,
            ssn: None,
            ppid: None,
        };
        assert_eq!(chunk_bytes(&c, &ctx()).unwrap().len(), 16);
    }

    #[test]
    fn init_with_params_counts_last_unpadded() {
        let s = InitSpec {
            flags: Some(0),
            tag: Some(1),
            a_rwnd: Some(1500),
            os: Some(1),
            is: Some(1),
            tsn: Some(1),
            params: ParamList::List(vec![
                ParamSpec::Generic {
                    kind: Some(0x8007),
                    len: Some(5),
                    val: Some(vec![0x11]),
                },
                ParamSpec::SupportedAddressTypes(Some(vec![5])),
            ]),
        };
        let b = chunk_bytes(&ChunkSpec::Init(s), &ctx()).unwrap();
        // 20 fixed + 8 (5 padded) + 6 (last, unpadded) = 34; 36 bytes on the wire.
        assert_eq!(&b[..4], [1, 0, 0, 34]);
        assert_eq!(b.len(), 36);
        assert_eq!(&b[20..28], [0x80, 0x07, 0, 5, 0x11, 0, 0, 0]);
        assert_eq!(&b[28..36], [0, 12, 0, 6, 0, 5, 0, 0]);
    }

    #[test]
    fn causes_field_by_field() {
        let c = ChunkSpec::Abort {
            flags: Some(1),
            causes: CauseList::List(vec![
                CauseSpec::InvalidStreamIdentifier(Some(9)),
                CauseSpec::MissingMandatoryParameter(Some(vec![7])),
                CauseSpec::NoUserData(Some(3)),
                CauseSpec::Generic {
                    code: Some(0x99),
                    len: Some(6),
                    info: Some(vec![1, 2]),
                },
            ]),
        };
        let b = chunk_bytes(&c, &ctx()).unwrap();
        let expect: Vec<u8> = [
            &[6u8, 1, 0, 38][..],
            &[0, 1, 0, 8, 0, 9, 0, 0],
            &[0, 2, 0, 10, 0, 0, 0, 1, 0, 7, 0, 0],
            &[0, 9, 0, 8, 0, 0, 0, 3],
            &[0, 0x99, 0, 6, 1, 2, 0, 0],
        ]
        .concat();
        assert_eq!(b, expect);
        let e = ChunkSpec::Error {
            flags: None,
            causes: CauseList::List(vec![CauseSpec::UnrecognizedChunkType(Some(Box::new(
                ChunkSpec::Generic {
                    kind: Some(0xc9),
                    flags: Some(0),
                    len: Some(5),
                    val: Some(vec![0xee]),
                },
            )))]),
        };
        assert_eq!(
            chunk_bytes(&e, &ctx()).unwrap(),
            [9, 0, 0, 13, 0, 6, 0, 9, 0xc9, 0, 0, 5, 0xee, 0, 0, 0]
        );
    }

    #[test]
    fn pad_and_named_params() {
        assert_eq!(
            param_bytes(&ParamSpec::Pad { len: Some(6) }).unwrap(),
            [0x80, 0x05, 0, 6, b'P', b'P', 0, 0]
        );
        assert_eq!(
            param_bytes(&ParamSpec::CookiePreservative(Some(0x0102))).unwrap(),
            [0, 9, 0, 8, 0, 0, 1, 2]
        );
        assert_eq!(
            param_bytes(&ParamSpec::UnrecognizedParameter(Some(vec![
                ParamSpec::EcnCapable
            ])))
            .unwrap(),
            [0, 8, 0, 8, 0x80, 0, 0, 4]
        );
        assert_eq!(
            chunk_bytes(
                &ChunkSpec::Pad {
                    flags: None,
                    len: Some(5)
                },
                &ctx()
            )
            .unwrap(),
            [0x84, 0, 0, 5, b'P', 0, 0, 0]
        );
    }

    #[test]
    fn local_tsns_map_and_cookie_echoes() {
        let c = InboundCtx {
            map: Mapping {
                script_local_tsn: 1,
                live_local_tsn: 100,
                ..Mapping::default()
            },
            cookie: Some(vec![1, 2, 3]),
            heartbeat_info: Some(vec![4]),
        };
        let s = ChunkSpec::Shutdown {
            flags: None,
            cum_tsn: Some(2),
        };
        assert_eq!(chunk_bytes(&s, &c).unwrap(), [7, 0, 0, 8, 0, 0, 0, 101]);
        let e = ChunkSpec::CookieEcho {
            flags: Some(0),
            len: None,
            val: None,
        };
        assert_eq!(chunk_bytes(&e, &c).unwrap(), [10, 0, 0, 7, 1, 2, 3, 0]);
        let h = ChunkSpec::HeartbeatAck {
            flags: Some(0),
            info: None,
        };
        assert_eq!(
            chunk_bytes(&h, &c).unwrap(),
            [5, 0, 0, 9, 0, 1, 0, 5, 4, 0, 0, 0]
        );
    }

    #[test]
    fn packet_checksum_and_bad_checksum() {
        let chunks = [11u8, 0, 0, 4];
        let p = sctp_packet(1, 2, 3, &chunks, false);
        let parsed = sctpsim_wire::sctp::SctpPacket::new_checked(&p[..]).unwrap();
        assert!(parsed.verify_checksum());
        let bad = sctp_packet(1, 2, 3, &chunks, true);
        let parsed = sctpsim_wire::sctp::SctpPacket::new_checked(&bad[..]).unwrap();
        assert!(!parsed.verify_checksum());
    }

    /// Script text → parser → byte encoder, against byte fixtures (RFC 9260 §3.3 layouts), and
    /// the verifier accepting what the encoder wrote (outbound and inbound views agree).
    #[test]
    fn every_form_round_trips_through_parser_encoder_and_verifier() {
        use crate::ast::{Action, PacketBody};
        let cases: &[(&str, &[u8])] = &[
            ("ERROR[flgs=0, STALE_COOKIE_ERROR[staleness=258]]", &[9, 0, 0, 12, 0, 3, 0, 8, 0, 0, 1, 2]),
            ("ERROR[flgs=0, OUT_OF_RESOURCE[]]", &[9, 0, 0, 8, 0, 4, 0, 4]),
            (
                "ERROR[flgs=0, UNRESOLVABLE_ADDRESS[param=IPV4_ADDRESS[addr=1.2.3.4]]]",
                &[9, 0, 0, 16, 0, 5, 0, 12, 0, 5, 0, 8, 1, 2, 3, 4],
            ),
            ("ABORT[flgs=0, INVALID_MANDATORY_PARAMETER[]]", &[6, 0, 0, 8, 0, 7, 0, 4]),
            (
                "ERROR[flgs=0, UNRECOGNIZED_PARAMETERS[params=[ECN_CAPABLE[]]]]",
                &[9, 0, 0, 12, 0, 8, 0, 8, 0x80, 0, 0, 4],
            ),
            ("ERROR[flgs=0, COOKIE_RECEIVED_WHILE_SHUTDOWN[]]", &[9, 0, 0, 8, 0, 10, 0, 4]),
            (
                "ABORT[flgs=T, RESTART_WITH_NEW_ADDRESSES[params=[IPV4_ADDRESS[addr=10.0.0.1]]]]",
                &[6, 1, 0, 16, 0, 11, 0, 12, 0, 5, 0, 8, 10, 0, 0, 1],
            ),
            ("ABORT[flgs=0, USER_INITIATED_ABORT[info=\"ab\"]]", &[6, 0, 0, 10, 0, 12, 0, 6, b'a', b'b', 0, 0]),
            ("ABORT[flgs=0, PROTOCOL_VIOLATION[info=\"x\"]]", &[6, 0, 0, 9, 0, 13, 0, 5, b'x', 0, 0, 0]),
            (
                "INIT[flgs=0, tag=1, a_rwnd=2, os=3, is=4, tsn=5, IPV6_ADDRESS[addr=::1], HOSTNAME_ADDRESS[addr=\"h\"]]",
                &[
                    1, 0, 0, 46, 0, 0, 0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 0, 0, 5, 0, 6, 0, 20, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 11, 0, 6, b'h', 0, 0, 0,
                ],
            ),
            (
                "INIT_ACK[flgs=0, tag=1, a_rwnd=2, os=3, is=4, tsn=5, STATE_COOKIE[len=6, val=...], FORWARD_TSN_SUPPORTED[], SUPPORTED_EXTENSIONS[types=[FORWARD_TSN, 0x82]], ADAPTATION_INDICATION[adaptation_code_point=7], ZERO_CHECKSUM_ACCEPTABLE[edmid=1], COOKIE_PRESERVATIVE[incr=9]]",
                &[
                    2, 0, 0, 64, 0, 0, 0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 0, 0, 5, 0, 7, 0, 6, 0, 0,
                    0, 0, 0xc0, 0, 0, 4, 0x80, 8, 0, 6, 0xc0, 0x82, 0, 0, 0xc0, 6, 0, 8, 0, 0, 0, 7,
                    0x80, 1, 0, 8, 0, 0, 0, 1, 0, 9, 0, 8, 0, 0, 0, 9,
                ],
            ),
            (
                "INIT[flgs=0, tag=1, a_rwnd=2, os=3, is=4, tsn=5, SUPPORTED_ADDRESS_TYPES[types=[IPv4, IPv6, HOSTNAME]], UNRECOGNIZED_PARAMETER[params=[PARAMETER[type=0xc001, len=5, val=[0xaa]]]]]",
                &[
                    1, 0, 0, 44, 0, 0, 0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 0, 0, 5, 0, 12, 0, 10, 0, 5,
                    0, 6, 0, 11, 0, 0, 0, 8, 0, 12, 0xc0, 1, 0, 5, 0xaa, 0, 0, 0,
                ],
            ),
            (
                "HEARTBEAT[flgs=0, HEARTBEAT_INFORMATION[len=6, val=[1, 2]]]",
                &[4, 0, 0, 10, 0, 1, 0, 6, 1, 2, 0, 0],
            ),
            (
                "SACK[flgs=0, cum_tsn=9, a_rwnd=10, gaps=[2:3], dups=[7]]",
                &[3, 0, 0, 24, 0, 0, 0, 9, 0, 0, 0, 10, 0, 1, 0, 1, 0, 2, 0, 3, 0, 0, 0, 7],
            ),
            ("ECNE[flgs=0, tsn=3]", &[12, 0, 0, 8, 0, 0, 0, 3]),
            ("CWR[flgs=0, tsn=3]", &[13, 0, 0, 8, 0, 0, 0, 3]),
            ("SHUTDOWN_COMPLETE[flgs=T]", &[14, 1, 0, 4]),
            ("CHUNK[type=INIT_ACK, flgs=0x00, len=8, val=[1, 2, 3, 4]]", &[2, 0, 0, 8, 1, 2, 3, 4]),
            ("PAD[flgs=0, len=4, val=...]", &[0x84, 0, 0, 4]),
        ];
        for (text, want) in cases {
            let script = crate::parse_script(&format!("+0.0 < sctp: {text}\n"), &[])
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            let Action::Packet(p) = &script.events[0].action else {
                panic!("{text}")
            };
            let PacketBody::Chunks(chunks) = &p.chunks else {
                panic!("{text}")
            };
            let got = chunk_bytes(&chunks[0], &ctx()).unwrap();
            assert_eq!(&got, want, "{text}");
            // The verifier accepts the bytes for the same text given as an outbound packet.
            let mut out = p.clone();
            out.direction = crate::ast::Direction::Outbound;
            let pkt = sctp_packet(8080, 49152, 1, &got, false);
            crate::verify::verify_packet(&out, &pkt, &Mapping::default())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }
}
