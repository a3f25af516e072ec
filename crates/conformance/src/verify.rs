//! Outbound packets: the bytes the system under test sent, compared field by field with the
//! script (after mapping live tags and TSNs to script values), as packetdrill's `verify_sctp`
//! does; and a renderer that prints a packet in script syntax for failure messages and traces.
//!
//! The comparison works on the encoded packet (checksum, chunk lengths and parameter layout as
//! they are on the wire), not on the codec's parsed form. Chunks, parameters and causes must
//! match in number and order unless the script says `...`.

use std::fmt::Write as _;
use std::net::{Ipv4Addr, Ipv6Addr};

use sctpsim_wire::sctp::{RawChunk, SctpPacket};

use crate::ast::{
    CauseList, CauseSpec, ChunkSpec, InitSpec, PacketBody, PacketSpec, ParamList, ParamSpec,
};
use crate::encode::{cause_to_repr, chunk_to_repr, param_to_repr, InboundCtx, Mapping};

fn be16(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at + 2)?;
    Some(u16::from_be_bytes([s[0], s[1]]))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 4)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

fn pad4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// A type-length-value item inside a chunk (a parameter or an error cause).
#[derive(Debug, Clone, Copy)]
struct Tlv<'a> {
    kind: u16,
    len: u16,
    value: &'a [u8],
}

fn tlvs(b: &[u8]) -> Result<Vec<Tlv<'_>>, String> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < b.len() {
        let (Some(kind), Some(len)) = (be16(b, pos), be16(b, pos + 2)) else {
            return Err("truncated parameter or cause header".into());
        };
        if len < 4 {
            return Err(format!("parameter or cause with length {len} < 4"));
        }
        let end = pos + usize::from(len);
        let Some(value) = b.get(pos + 4..end) else {
            return Err(format!(
                "parameter or cause of length {len} runs past the end of its chunk"
            ));
        };
        out.push(Tlv { kind, len, value });
        pos = (pos + pad4(usize::from(len))).min(b.len());
    }
    Ok(out)
}

/// What a script parameter or cause pins down: `None` parts are not checked.
#[derive(Debug, Clone, Default)]
struct TlvExpect {
    kind: Option<u16>,
    len: Option<u16>,
    value: Option<Vec<u8>>,
}

impl TlvExpect {
    fn full(kind: u16, value: Vec<u8>) -> Self {
        TlvExpect {
            kind: Some(kind),
            len: u16::try_from(value.len() + 4).ok(),
            value: Some(value),
        }
    }

    fn kind_only(kind: u16) -> Self {
        TlvExpect {
            kind: Some(kind),
            ..TlvExpect::default()
        }
    }

    /// The TLV's bytes (header and value, optionally padded) if everything is pinned down.
    fn bytes(&self, padded: bool) -> Option<Vec<u8>> {
        let (kind, len, value) = (self.kind?, self.len?, self.value.as_ref()?);
        let mut b = Vec::with_capacity(4 + value.len());
        b.extend_from_slice(&kind.to_be_bytes());
        b.extend_from_slice(&len.to_be_bytes());
        b.extend_from_slice(value);
        if padded {
            b.resize(pad4(b.len()), 0);
        }
        Some(b)
    }
}

fn codec_value(bytes: Result<Vec<u8>, sctpsim_wire::WireError>) -> Result<Vec<u8>, String> {
    let b = bytes.map_err(|e| format!("unsupported: cannot encode the expected value: {e}"))?;
    Ok(b.get(4..).unwrap_or(&[]).to_vec())
}

/// A list of nested parameters (each padded, as packetdrill lays them out).
fn nested(list: &Option<Vec<ParamSpec>>, kind: u16) -> Result<TlvExpect, String> {
    let Some(list) = list else {
        return Ok(TlvExpect::kind_only(kind));
    };
    let mut len = Some(4usize);
    let mut value = Some(Vec::new());
    for p in list {
        let e = param_expect(p)?;
        len = match (len, e.len) {
            (Some(l), Some(x)) => Some(l + pad4(usize::from(x))),
            _ => None,
        };
        value = match (value, e.bytes(true)) {
            (Some(mut v), Some(b)) => {
                v.extend(b);
                Some(v)
            }
            _ => None,
        };
    }
    Ok(TlvExpect {
        kind: Some(kind),
        len: len.and_then(|l| u16::try_from(l).ok()),
        value,
    })
}

fn padded_value(val: &Option<Vec<u8>>, len: Option<u16>) -> Option<Vec<u8>> {
    let mut v = val.clone()?;
    if let Some(l) = len {
        let want = usize::from(l).saturating_sub(4);
        if v.len() < want {
            v.resize(want, 0);
        }
    }
    Some(v)
}

fn param_expect(p: &ParamSpec) -> Result<TlvExpect, String> {
    Ok(match p {
        ParamSpec::Generic { kind, len, val } => TlvExpect {
            kind: *kind,
            len: *len,
            value: padded_value(val, *len),
        },
        ParamSpec::HeartbeatInfo { len, val } => TlvExpect {
            kind: Some(1),
            len: *len,
            value: val.clone(),
        },
        ParamSpec::Ipv4Address(a) => TlvExpect {
            kind: Some(5),
            len: Some(8),
            value: a.map(|a| a.octets().to_vec()),
        },
        ParamSpec::Ipv6Address(a) => TlvExpect {
            kind: Some(6),
            len: Some(20),
            value: a.map(|a| a.octets().to_vec()),
        },
        ParamSpec::StateCookie { len } => TlvExpect {
            kind: Some(7),
            len: *len,
            value: None,
        },
        ParamSpec::UnrecognizedParameter(list) => nested(list, 8)?,
        ParamSpec::CookiePreservative(None) => TlvExpect {
            kind: Some(9),
            len: Some(8),
            value: None,
        },
        ParamSpec::HostnameAddress(None) => TlvExpect::kind_only(11),
        ParamSpec::SupportedAddressTypes(None) => TlvExpect::kind_only(12),
        ParamSpec::SupportedExtensions(None) => TlvExpect::kind_only(0x8008),
        ParamSpec::AdaptationIndication(None) => TlvExpect {
            kind: Some(0xC006),
            len: Some(8),
            value: None,
        },
        ParamSpec::Pad { len } => TlvExpect {
            kind: Some(0x8005),
            len: *len,
            value: None,
        },
        ParamSpec::ZeroChecksumAcceptable(edmid) => TlvExpect {
            kind: Some(0x8001),
            len: Some(8),
            value: edmid.map(|e| e.to_be_bytes().to_vec()),
        },
        ParamSpec::Unsupported { name } => {
            return Err(format!("unsupported: {name} parameters"));
        }
        concrete => {
            let repr = param_to_repr(concrete)?;
            TlvExpect::full(repr.kind(), codec_value(repr.to_bytes())?)
        }
    })
}

/// The bytes of a chunk written in a cause, if the script pins all of them down.
fn chunk_bytes(c: &ChunkSpec) -> Result<(Option<u16>, Option<Vec<u8>>), String> {
    if let ChunkSpec::Generic {
        kind,
        flags,
        len,
        val,
    } = c
    {
        let bytes = match (kind, flags, len) {
            (Some(k), Some(f), Some(l)) if val.is_some() || *l == 4 => {
                let mut b = vec![*k, *f];
                b.extend_from_slice(&l.to_be_bytes());
                b.extend(padded_value(val, Some(*l)).unwrap_or_default());
                Some(b)
            }
            _ => None,
        };
        return Ok((*len, bytes));
    }
    if !chunk_is_concrete(c) {
        return Ok((None, None));
    }
    let repr = chunk_to_repr(c, &InboundCtx::default())?;
    let mut b = repr
        .to_bytes()
        .map_err(|e| format!("unsupported: cannot encode the expected chunk: {e}"))?;
    b.truncate(repr.chunk_len());
    Ok((u16::try_from(b.len()).ok(), Some(b)))
}

fn chunk_is_concrete(c: &ChunkSpec) -> bool {
    match c {
        ChunkSpec::Data {
            flags,
            len,
            tsn,
            sid,
            ssn,
            ppid,
        } => {
            flags.is_some()
                && len.is_some()
                && tsn.is_some()
                && sid.is_some()
                && ssn.is_some()
                && ppid.is_some()
        }
        ChunkSpec::Init(s) | ChunkSpec::InitAck(s) => {
            s.flags.is_some()
                && s.tag.is_some()
                && s.a_rwnd.is_some()
                && s.os.is_some()
                && s.is.is_some()
                && s.tsn.is_some()
                && matches!(s.params, ParamList::List(_))
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
            flags.is_some()
                && cum_tsn.is_some()
                && a_rwnd.is_some()
                && gaps.is_some()
                && (!nr || nr_gaps.is_some())
                && dups.is_some()
        }
        ChunkSpec::Shutdown { flags, cum_tsn } => flags.is_some() && cum_tsn.is_some(),
        ChunkSpec::ShutdownAck { flags }
        | ChunkSpec::CookieAck { flags }
        | ChunkSpec::ShutdownComplete { flags } => flags.is_some(),
        ChunkSpec::CookieEcho { flags, val, .. } => flags.is_some() && val.is_some(),
        ChunkSpec::Ecne { flags, tsn } | ChunkSpec::Cwr { flags, tsn } => {
            flags.is_some() && tsn.is_some()
        }
        _ => false,
    }
}

fn cause_expect(c: &CauseSpec) -> Result<TlvExpect, String> {
    Ok(match c {
        CauseSpec::Generic { code, len, info } => TlvExpect {
            kind: *code,
            len: *len,
            value: padded_value(info, *len),
        },
        CauseSpec::InvalidStreamIdentifier(None) => TlvExpect {
            kind: Some(1),
            len: Some(8),
            value: None,
        },
        CauseSpec::MissingMandatoryParameter(None) => TlvExpect::kind_only(2),
        CauseSpec::StaleCookie(None) => TlvExpect {
            kind: Some(3),
            len: Some(8),
            value: None,
        },
        CauseSpec::UnresolvableAddress(p) => match p {
            None => TlvExpect::kind_only(5),
            Some(p) => {
                let e = param_expect(p)?;
                TlvExpect {
                    kind: Some(5),
                    len: e.len.and_then(|l| l.checked_add(4)),
                    value: e.bytes(false),
                }
            }
        },
        CauseSpec::UnrecognizedChunkType(c) => match c {
            None => TlvExpect::kind_only(6),
            Some(c) => {
                let (len, bytes) = chunk_bytes(c)?;
                TlvExpect {
                    kind: Some(6),
                    len: len.and_then(|l| l.checked_add(4)),
                    value: bytes,
                }
            }
        },
        CauseSpec::UnrecognizedParameters(list) => nested(list, 8)?,
        CauseSpec::NoUserData(None) => TlvExpect {
            kind: Some(9),
            len: Some(8),
            value: None,
        },
        CauseSpec::RestartWithNewAddresses(list) => nested(list, 11)?,
        CauseSpec::UserInitiatedAbort(None) => TlvExpect::kind_only(12),
        CauseSpec::ProtocolViolation(None) => TlvExpect::kind_only(13),
        concrete => {
            let repr = cause_to_repr(concrete, &InboundCtx::default())?;
            TlvExpect::full(repr.code(), codec_value(repr.to_bytes())?)
        }
    })
}

fn hex(b: &[u8]) -> String {
    let items: Vec<String> = b.iter().map(|x| format!("{x:#04x}")).collect();
    format!("[{}]", items.join(", "))
}

fn check_tlvs(what: &str, expect: &[TlvExpect], actual: &[Tlv<'_>]) -> Result<(), String> {
    if expect.len() != actual.len() {
        return Err(format!(
            "the live chunk has {} {what}s, the script expects {}",
            actual.len(),
            expect.len()
        ));
    }
    for (i, (e, a)) in expect.iter().zip(actual).enumerate() {
        let n = i + 1;
        if let Some(k) = e.kind {
            if k != a.kind {
                return Err(format!(
                    "{what} {n}: type: expected {k:#06x}, actual {:#06x}",
                    a.kind
                ));
            }
        }
        if let Some(l) = e.len {
            if l != a.len {
                return Err(format!(
                    "{what} {n} (type {:#06x}): length: expected {l}, actual {}",
                    a.kind, a.len
                ));
            }
        }
        if let Some(v) = &e.value {
            if v.as_slice() != a.value {
                return Err(format!(
                    "{what} {n} (type {:#06x}): value: expected {}, actual {}",
                    a.kind,
                    hex(v),
                    hex(a.value)
                ));
            }
        }
    }
    Ok(())
}

fn field<T: PartialEq + std::fmt::Display>(
    name: &str,
    expected: Option<T>,
    actual: T,
) -> Result<(), String> {
    match expected {
        Some(e) if e != actual => Err(format!("{name}: expected {e}, actual {actual}")),
        _ => Ok(()),
    }
}

fn flags_field(expected: Option<u8>, actual: u8) -> Result<(), String> {
    match expected {
        Some(e) if e != actual => Err(format!("flags: expected {e:#04x}, actual {actual:#04x}")),
        _ => Ok(()),
    }
}

fn truncated(name: &str) -> String {
    format!("truncated {name} chunk")
}

/// Checks one outbound packet (the SCTP common header and chunks) against the script.
pub fn verify_packet(spec: &PacketSpec, sctp: &[u8], m: &Mapping) -> Result<(), String> {
    let pkt = SctpPacket::new_checked(sctp).map_err(|e| format!("not an SCTP packet: {e}"))?;
    if !pkt.verify_checksum() {
        return Err("bad CRC32c checksum".into());
    }
    if let Some(tag) = spec.tag {
        if tag != pkt.verification_tag() {
            return Err(format!(
                "verification tag: expected {tag}, actual {}",
                pkt.verification_tag()
            ));
        }
    }
    let specs = match &spec.chunks {
        PacketBody::Bytes(b) => {
            if b.as_slice() != pkt.chunk_bytes() {
                return Err(format!(
                    "packet bytes: expected {}, actual {}",
                    hex(b),
                    hex(pkt.chunk_bytes())
                ));
            }
            return Ok(());
        }
        PacketBody::Chunks(c) => c,
    };
    let mut raws = Vec::new();
    for raw in pkt.chunks() {
        raws.push(raw.map_err(|e| format!("malformed chunk in the live packet: {e}"))?);
    }
    if raws.len() != specs.len() {
        return Err(format!(
            "the live packet has {} chunks, the script expects {}",
            raws.len(),
            specs.len()
        ));
    }
    for (i, (s, raw)) in specs.iter().zip(&raws).enumerate() {
        verify_chunk(s, raw, m).map_err(|e| format!("chunk {} ({}): {e}", i + 1, spec_name(s)))?;
    }
    Ok(())
}

fn spec_name(s: &ChunkSpec) -> String {
    match s {
        ChunkSpec::Data { .. } => "DATA".into(),
        ChunkSpec::IData { .. } => "I_DATA".into(),
        ChunkSpec::Init(_) => "INIT".into(),
        ChunkSpec::InitAck(_) => "INIT_ACK".into(),
        ChunkSpec::Sack { nr: true, .. } => "NR_SACK".into(),
        ChunkSpec::Sack { .. } => "SACK".into(),
        ChunkSpec::Heartbeat { .. } => "HEARTBEAT".into(),
        ChunkSpec::HeartbeatAck { .. } => "HEARTBEAT_ACK".into(),
        ChunkSpec::Abort { .. } => "ABORT".into(),
        ChunkSpec::Shutdown { .. } => "SHUTDOWN".into(),
        ChunkSpec::ShutdownAck { .. } => "SHUTDOWN_ACK".into(),
        ChunkSpec::Error { .. } => "ERROR".into(),
        ChunkSpec::CookieEcho { .. } => "COOKIE_ECHO".into(),
        ChunkSpec::CookieAck { .. } => "COOKIE_ACK".into(),
        ChunkSpec::Ecne { .. } => "ECNE".into(),
        ChunkSpec::Cwr { .. } => "CWR".into(),
        ChunkSpec::ShutdownComplete { .. } => "SHUTDOWN_COMPLETE".into(),
        ChunkSpec::Generic { .. } => "CHUNK".into(),
        ChunkSpec::Pad { .. } => "PAD".into(),
        ChunkSpec::Reconfig { .. } => "RECONFIG".into(),
        ChunkSpec::Unsupported { name } => name.clone(),
    }
}

fn expected_kind(s: &ChunkSpec) -> Option<u8> {
    Some(match s {
        ChunkSpec::Data { .. } => 0,
        ChunkSpec::IData { .. } => 64,
        ChunkSpec::Init(_) => 1,
        ChunkSpec::InitAck(_) => 2,
        ChunkSpec::Sack { nr: true, .. } => 16,
        ChunkSpec::Sack { .. } => 3,
        ChunkSpec::Heartbeat { .. } => 4,
        ChunkSpec::HeartbeatAck { .. } => 5,
        ChunkSpec::Abort { .. } => 6,
        ChunkSpec::Shutdown { .. } => 7,
        ChunkSpec::ShutdownAck { .. } => 8,
        ChunkSpec::Error { .. } => 9,
        ChunkSpec::CookieEcho { .. } => 10,
        ChunkSpec::CookieAck { .. } => 11,
        ChunkSpec::Ecne { .. } => 12,
        ChunkSpec::Cwr { .. } => 13,
        ChunkSpec::ShutdownComplete { .. } => 14,
        ChunkSpec::Generic { kind, .. } => return *kind,
        ChunkSpec::Pad { .. } => 0x84,
        ChunkSpec::Reconfig { .. } => 0x82,
        ChunkSpec::Unsupported { .. } => return None,
    })
}

fn verify_chunk(s: &ChunkSpec, raw: &RawChunk<'_>, m: &Mapping) -> Result<(), String> {
    if let ChunkSpec::Unsupported { name } = s {
        return Err(format!("unsupported: {name} chunks"));
    }
    if let Some(k) = expected_kind(s) {
        if k != raw.kind() {
            return Err(format!(
                "chunk type: expected {k} ({}), actual {} ({})",
                chunk_name(k),
                raw.kind(),
                chunk_name(raw.kind())
            ));
        }
    }
    let v = raw.value();
    let len = raw.length();
    match s {
        ChunkSpec::Data {
            flags,
            len: elen,
            tsn,
            sid,
            ssn,
            ppid,
        } => {
            flags_field(*flags, raw.flags())?;
            field("length", elen.map(usize::from), len)?;
            let (Some(t), Some(si), Some(ss), Some(pp)) =
                (be32(v, 0), be16(v, 4), be16(v, 6), be32(v, 8))
            else {
                return Err(truncated("DATA"));
            };
            field("tsn", *tsn, m.local_tsn_to_script(t))?;
            field("sid", *sid, si)?;
            field("ssn", *ssn, ss)?;
            field("ppid", *ppid, pp)?;
        }
        ChunkSpec::IData {
            flags,
            len: elen,
            tsn,
            sid,
            mid,
            ppid_or_fsn,
        } => {
            flags_field(*flags, raw.flags())?;
            field("length", elen.map(usize::from), len)?;
            let (Some(t), Some(si), Some(mi), Some(pf)) =
                (be32(v, 0), be16(v, 4), be32(v, 8), be32(v, 12))
            else {
                return Err(truncated("I_DATA"));
            };
            field("tsn", *tsn, m.local_tsn_to_script(t))?;
            field("sid", *sid, si)?;
            field("mid", *mid, mi)?;
            let name = if raw.flags() & 0x02 != 0 {
                "ppid"
            } else {
                "fsn"
            };
            field(name, *ppid_or_fsn, pf)?;
        }
        ChunkSpec::Init(e) | ChunkSpec::InitAck(e) => verify_init(e, raw, m)?,
        ChunkSpec::Sack {
            nr,
            nr_gaps,
            flags,
            cum_tsn,
            a_rwnd,
            gaps,
            dups,
        } => {
            flags_field(*flags, raw.flags())?;
            let (Some(cum), Some(rwnd), Some(ng)) = (be32(v, 0), be32(v, 4), be16(v, 8)) else {
                return Err(truncated("SACK"));
            };
            // NR-SACK (FreeBSD's `struct sctp_nr_sack`): NR gap count, duplicate count and a
            // reserved word, then gap blocks, NR gap blocks, duplicates.
            let (nnr, nd, fixed) = if *nr {
                let (Some(nnr), Some(nd)) = (be16(v, 10), be16(v, 12)) else {
                    return Err(truncated("NR_SACK"));
                };
                (usize::from(nnr), nd, 16)
            } else {
                let Some(nd) = be16(v, 10) else {
                    return Err(truncated("SACK"));
                };
                (0, nd, 12)
            };
            field("cum_tsn", *cum_tsn, cum)?;
            field("a_rwnd", *a_rwnd, rwnd)?;
            let mut actual_gaps = Vec::new();
            let mut actual_nr_gaps = Vec::new();
            for i in 0..usize::from(ng) + nnr {
                let (Some(a), Some(b)) = (be16(v, fixed + 4 * i), be16(v, fixed + 2 + 4 * i))
                else {
                    return Err(truncated("SACK"));
                };
                if i < usize::from(ng) {
                    actual_gaps.push((a, b));
                } else {
                    actual_nr_gaps.push((a, b));
                }
            }
            if let Some(g) = nr_gaps {
                if *g != actual_nr_gaps {
                    return Err(format!(
                        "nr_gaps: expected {}, actual {}",
                        gap_list(g),
                        gap_list(&actual_nr_gaps)
                    ));
                }
            }
            let base = fixed + 4 * (usize::from(ng) + nnr);
            let mut actual_dups = Vec::new();
            for i in 0..usize::from(nd) {
                let Some(t) = be32(v, base + 4 * i) else {
                    return Err(truncated("SACK"));
                };
                actual_dups.push(t);
            }
            if let Some(g) = gaps {
                if *g != actual_gaps {
                    return Err(format!(
                        "gaps: expected {}, actual {}",
                        gap_list(g),
                        gap_list(&actual_gaps)
                    ));
                }
            }
            if let Some(d) = dups {
                if *d != actual_dups {
                    return Err(format!("dups: expected {d:?}, actual {actual_dups:?}"));
                }
            }
        }
        ChunkSpec::Heartbeat { flags, info } | ChunkSpec::HeartbeatAck { flags, info } => {
            flags_field(*flags, raw.flags())?;
            let actual = tlvs(v)?;
            let expect = match info {
                Some(p) => vec![param_expect(p)?],
                None => Vec::new(),
            };
            if info.is_some() || !actual.is_empty() {
                check_tlvs("parameter", &expect, &actual)?;
            }
        }
        ChunkSpec::Abort { flags, causes } | ChunkSpec::Error { flags, causes } => {
            flags_field(*flags, raw.flags())?;
            if let CauseList::List(list) = causes {
                let expect = list
                    .iter()
                    .map(cause_expect)
                    .collect::<Result<Vec<_>, _>>()?;
                check_tlvs("cause", &expect, &tlvs(v)?)?;
            }
        }
        ChunkSpec::Shutdown { flags, cum_tsn } => {
            flags_field(*flags, raw.flags())?;
            field("length", Some(8), len)?;
            let Some(cum) = be32(v, 0) else {
                return Err(truncated("SHUTDOWN"));
            };
            field("cum_tsn", *cum_tsn, cum)?;
        }
        ChunkSpec::ShutdownAck { flags }
        | ChunkSpec::CookieAck { flags }
        | ChunkSpec::ShutdownComplete { flags } => {
            flags_field(*flags, raw.flags())?;
            field("length", Some(4), len)?;
        }
        ChunkSpec::CookieEcho {
            flags,
            len: elen,
            val,
        } => {
            flags_field(*flags, raw.flags())?;
            field("length", elen.map(usize::from), len)?;
            if let Some(c) = val {
                if c.as_slice() != v {
                    return Err(format!("cookie: expected {}, actual {}", hex(c), hex(v)));
                }
            }
        }
        ChunkSpec::Ecne { flags, tsn } | ChunkSpec::Cwr { flags, tsn } => {
            flags_field(*flags, raw.flags())?;
            let Some(t) = be32(v, 0) else {
                return Err(truncated("ECNE/CWR"));
            };
            field("tsn", *tsn, t)?;
        }
        ChunkSpec::Generic {
            flags,
            len: elen,
            val,
            ..
        } => {
            flags_field(*flags, raw.flags())?;
            field("length", elen.map(usize::from), len)?;
            if let Some(e) = val {
                if v.get(..e.len()) != Some(e.as_slice()) {
                    return Err(format!("value: expected {}, actual {}", hex(e), hex(v)));
                }
            }
        }
        ChunkSpec::Reconfig { flags, params } => {
            flags_field(*flags, raw.flags())?;
            crate::reconfig::verify(params.as_deref(), raw, m)?;
        }
        ChunkSpec::Pad { flags, len: elen } => {
            // RFC 4820 §3: the padding's content is not checked.
            flags_field(*flags, raw.flags())?;
            field("length", elen.map(usize::from), len)?;
        }
        ChunkSpec::Unsupported { .. } => {}
    }
    Ok(())
}

fn verify_init(e: &InitSpec, raw: &RawChunk<'_>, m: &Mapping) -> Result<(), String> {
    flags_field(e.flags, raw.flags())?;
    let v = raw.value();
    let (Some(tag), Some(rwnd), Some(os), Some(is), Some(tsn)) =
        (be32(v, 0), be32(v, 4), be16(v, 8), be16(v, 10), be32(v, 12))
    else {
        return Err(truncated("INIT"));
    };
    field("tag", e.tag, m.local_tag_to_script(tag))?;
    field("a_rwnd", e.a_rwnd, rwnd)?;
    field("os", e.os, os)?;
    field("is", e.is, is)?;
    field("tsn", e.tsn, m.local_tsn_to_script(tsn))?;
    if let ParamList::List(list) = &e.params {
        let expect = list
            .iter()
            .map(param_expect)
            .collect::<Result<Vec<_>, _>>()?;
        check_tlvs("parameter", &expect, &tlvs(v.get(16..).unwrap_or(&[]))?)?;
    }
    Ok(())
}

fn gap_list(g: &[(u16, u16)]) -> String {
    let items: Vec<String> = g.iter().map(|(a, b)| format!("{a}:{b}")).collect();
    format!("[{}]", items.join(", "))
}

/// The packetdrill name of a chunk type.
pub fn chunk_name(kind: u8) -> &'static str {
    match kind {
        0 => "DATA",
        1 => "INIT",
        2 => "INIT_ACK",
        3 => "SACK",
        4 => "HEARTBEAT",
        5 => "HEARTBEAT_ACK",
        6 => "ABORT",
        7 => "SHUTDOWN",
        8 => "SHUTDOWN_ACK",
        9 => "ERROR",
        10 => "COOKIE_ECHO",
        11 => "COOKIE_ACK",
        12 => "ECNE",
        13 => "CWR",
        14 => "SHUTDOWN_COMPLETE",
        15 => "AUTH",
        16 => "NR_SACK",
        64 => "I_DATA",
        0x80 => "ASCONF_ACK",
        0x82 => "RECONFIG",
        0x84 => "PAD",
        0xC0 => "FORWARD_TSN",
        0xC1 => "ASCONF",
        0xC2 => "I_FORWARD_TSN",
        _ => "CHUNK",
    }
}

// ------------------------------------------------------------------ rendering

/// How a rendered packet shows local tags and TSNs.
#[derive(Debug, Clone, Copy)]
pub enum View<'a> {
    /// As the script writes them (outbound packets).
    Script(&'a Mapping),
    /// As they are on the wire.
    Live,
}

impl View<'_> {
    fn tsn(&self, t: u32) -> u32 {
        match self {
            View::Script(m) => m.local_tsn_to_script(t),
            View::Live => t,
        }
    }

    fn tag(&self, t: u32) -> u32 {
        match self {
            View::Script(m) => m.local_tag_to_script(t),
            View::Live => t,
        }
    }
}

/// A packet (SCTP common header and chunks) in script syntax, e.g.
/// `sctp: DATA[flgs=BE, len=1016, tsn=1, sid=0, ssn=0, ppid=0]`; local TSNs of outbound chunks
/// are shown as script values with `View::Script`.
pub fn render_packet(sctp: &[u8], view: View<'_>, outbound: bool) -> String {
    let Ok(pkt) = SctpPacket::new_checked(sctp) else {
        return "sctp: (truncated)".into();
    };
    let mut parts = Vec::new();
    for raw in pkt.chunks() {
        match raw {
            Ok(c) => parts.push(render_chunk(&c, view, outbound)),
            Err(e) => {
                parts.push(format!("(malformed: {e})"));
                break;
            }
        }
    }
    format!("sctp: {}", parts.join("; "))
}

fn data_flags(f: u8) -> String {
    let mut s = String::new();
    for (c, bit) in [('I', 8u8), ('U', 4), ('B', 2), ('E', 1)] {
        if f & bit != 0 {
            s.push(c);
        }
    }
    if f & 0xF0 != 0 || s.is_empty() {
        return format!("{f:#04x}");
    }
    s
}

fn t_flag(f: u8) -> String {
    match f {
        0 => "0".into(),
        1 => "T".into(),
        x => format!("{x:#04x}"),
    }
}

fn render_chunk(c: &RawChunk<'_>, view: View<'_>, outbound: bool) -> String {
    let v = c.value();
    let f = c.flags();
    let plain = |f: u8| {
        if f == 0 {
            "0".to_string()
        } else {
            format!("{f:#04x}")
        }
    };
    let fallback = || {
        format!(
            "CHUNK[type={:#04x}, flgs={}, len={}, val={}]",
            c.kind(),
            plain(f),
            c.length(),
            hex(v)
        )
    };
    // Local TSNs appear in what the system under test sends (DATA, INIT, INIT ACK) and in
    // what the peer sends about them (SACK, SHUTDOWN, ECNE, CWR).
    let own = |t: u32| if outbound { view.tsn(t) } else { t };
    let peer = |t: u32| if outbound { t } else { view.tsn(t) };
    match c.kind() {
        0x82 => crate::reconfig::render(c, &own, &peer).unwrap_or_else(fallback),
        0 => match (be32(v, 0), be16(v, 4), be16(v, 6), be32(v, 8)) {
            (Some(t), Some(sid), Some(ssn), Some(ppid)) => format!(
                "DATA[flgs={}, len={}, tsn={}, sid={sid}, ssn={ssn}, ppid={ppid}]",
                data_flags(f),
                c.length(),
                own(t)
            ),
            _ => fallback(),
        },
        k @ (1 | 2) => match (be32(v, 0), be32(v, 4), be16(v, 8), be16(v, 10), be32(v, 12)) {
            (Some(tag), Some(rwnd), Some(os), Some(is), Some(tsn)) => {
                let (tag, tsn) = if outbound {
                    (view.tag(tag), view.tsn(tsn))
                } else {
                    (tag, tsn)
                };
                let mut s = format!(
                    "{}[flgs={}, tag={tag}, a_rwnd={rwnd}, os={os}, is={is}, tsn={tsn}",
                    chunk_name(k),
                    plain(f)
                );
                for p in render_tlvs(v.get(16..).unwrap_or(&[]), render_param) {
                    let _ = write!(s, ", {p}");
                }
                s.push(']');
                s
            }
            _ => fallback(),
        },
        16 => match (be32(v, 0), be32(v, 4), be16(v, 8), be16(v, 10), be16(v, 12)) {
            (Some(cum), Some(rwnd), Some(ng), Some(nnr), Some(nd)) => {
                let block = |i: usize| Some((be16(v, 16 + 4 * i)?, be16(v, 18 + 4 * i)?));
                let (ng, nnr) = (usize::from(ng), usize::from(nnr));
                let gaps: Vec<(u16, u16)> = (0..ng).filter_map(block).collect();
                let nr_gaps: Vec<(u16, u16)> = (ng..ng + nnr).filter_map(block).collect();
                let base = 16 + 4 * (ng + nnr);
                let dups: Vec<String> = (0..usize::from(nd))
                    .filter_map(|i| be32(v, base + 4 * i))
                    .map(|t| peer(t).to_string())
                    .collect();
                format!(
                    "NR_SACK[flgs={}, cum_tsn={}, a_rwnd={rwnd}, gaps={}, nr_gaps={}, dups=[{}]]",
                    plain(f),
                    peer(cum),
                    gap_list(&gaps),
                    gap_list(&nr_gaps),
                    dups.join(", ")
                )
            }
            _ => fallback(),
        },
        3 => match (be32(v, 0), be32(v, 4), be16(v, 8), be16(v, 10)) {
            (Some(cum), Some(rwnd), Some(ng), Some(nd)) => {
                let gaps: Vec<(u16, u16)> = (0..usize::from(ng))
                    .filter_map(|i| Some((be16(v, 12 + 4 * i)?, be16(v, 14 + 4 * i)?)))
                    .collect();
                let base = 12 + 4 * usize::from(ng);
                let dups: Vec<String> = (0..usize::from(nd))
                    .filter_map(|i| be32(v, base + 4 * i))
                    .map(|t| peer(t).to_string())
                    .collect();
                format!(
                    "SACK[flgs={}, cum_tsn={}, a_rwnd={rwnd}, gaps={}, dups=[{}]]",
                    plain(f),
                    peer(cum),
                    gap_list(&gaps),
                    dups.join(", ")
                )
            }
            _ => fallback(),
        },
        k @ (4 | 5) => {
            let params = render_tlvs(v, render_param);
            format!(
                "{}[flgs={}, {}]",
                chunk_name(k),
                plain(f),
                params.join(", ")
            )
        }
        k @ (6 | 9) => {
            let mut s = format!(
                "{}[flgs={}",
                chunk_name(k),
                if k == 6 { t_flag(f) } else { plain(f) }
            );
            for cause in render_tlvs(v, render_cause) {
                let _ = write!(s, ", {cause}");
            }
            s.push(']');
            s
        }
        7 => match be32(v, 0) {
            Some(cum) => format!("SHUTDOWN[flgs={}, cum_tsn={}]", plain(f), peer(cum)),
            None => fallback(),
        },
        k @ (8 | 11) => format!("{}[flgs={}]", chunk_name(k), plain(f)),
        10 => format!(
            "COOKIE_ECHO[flgs={}, len={}, val=...]",
            plain(f),
            c.length()
        ),
        k @ (12 | 13) => match be32(v, 0) {
            Some(t) => format!("{}[flgs={}, tsn={}]", chunk_name(k), plain(f), peer(t)),
            None => fallback(),
        },
        14 => format!("SHUTDOWN_COMPLETE[flgs={}]", t_flag(f)),
        _ => fallback(),
    }
}

fn render_tlvs(b: &[u8], f: fn(&Tlv<'_>) -> String) -> Vec<String> {
    match tlvs(b) {
        Ok(list) => list.iter().map(f).collect(),
        Err(e) => vec![format!("(malformed: {e})")],
    }
}

fn render_param(p: &Tlv<'_>) -> String {
    let v = p.value;
    let generic = || {
        format!(
            "PARAMETER[type={:#06x}, len={}, val={}]",
            p.kind,
            p.len,
            if v.len() > 32 { "...".into() } else { hex(v) }
        )
    };
    match p.kind {
        1 => format!("HEARTBEAT_INFORMATION[len={}, val=...]", p.len),
        5 if v.len() == 4 => format!(
            "IPV4_ADDRESS[addr={}]",
            Ipv4Addr::new(v[0], v[1], v[2], v[3])
        ),
        6 if v.len() == 16 => {
            let mut o = [0u8; 16];
            o.copy_from_slice(v);
            format!("IPV6_ADDRESS[addr={}]", Ipv6Addr::from(o))
        }
        7 => format!("STATE_COOKIE[len={}, val=...]", p.len),
        8 => format!(
            "UNRECOGNIZED_PARAMETER[params=[{}]]",
            render_tlvs(v, render_param).join(", ")
        ),
        9 => match be32(v, 0) {
            Some(x) => format!("COOKIE_PRESERVATIVE[incr={x}]"),
            None => generic(),
        },
        11 => {
            let name: String = v
                .iter()
                .take_while(|b| **b != 0)
                .map(|b| char::from(*b))
                .collect();
            format!("HOSTNAME_ADDRESS[addr={name:?}]")
        }
        12 => {
            let types: Vec<String> = v
                .chunks_exact(2)
                .map(|t| match u16::from_be_bytes([t[0], t[1]]) {
                    5 => "IPv4".to_string(),
                    6 => "IPv6".to_string(),
                    11 => "HOSTNAME".to_string(),
                    x => x.to_string(),
                })
                .collect();
            format!("SUPPORTED_ADDRESS_TYPES[types=[{}]]", types.join(", "))
        }
        0x8000 => "ECN_CAPABLE[]".into(),
        0xC000 => "FORWARD_TSN_SUPPORTED[]".into(),
        0x8008 => {
            let types: Vec<String> = v.iter().map(|t| chunk_name(*t).to_string()).collect();
            format!("SUPPORTED_EXTENSIONS[types=[{}]]", types.join(", "))
        }
        0xC006 => match be32(v, 0) {
            Some(x) => format!("ADAPTATION_INDICATION[adaptation_code_point={x}]"),
            None => generic(),
        },
        _ => generic(),
    }
}

fn text_or_bytes(v: &[u8]) -> String {
    if v.iter()
        .all(|b| (0x20..0x7f).contains(b) && *b != b'"' && *b != b'\\')
    {
        format!("\"{}\"", String::from_utf8_lossy(v))
    } else {
        hex(v)
    }
}

fn render_cause(c: &Tlv<'_>) -> String {
    let v = c.value;
    let generic = || {
        format!(
            "CAUSE[cause_code={}, len={}, info={}]",
            c.kind,
            c.len,
            hex(v)
        )
    };
    match c.kind {
        1 => match be16(v, 0) {
            Some(s) => format!("INVALID_STREAM_IDENTIFIER[sid={s}]"),
            None => generic(),
        },
        2 => {
            let types: Vec<String> = v
                .get(4..)
                .unwrap_or(&[])
                .chunks_exact(2)
                .map(|t| u16::from_be_bytes([t[0], t[1]]).to_string())
                .collect();
            format!("MISSING_MANDATORY_PARAMETER[types=[{}]]", types.join(", "))
        }
        3 => match be32(v, 0) {
            Some(s) => format!("STALE_COOKIE_ERROR[staleness={s}]"),
            None => generic(),
        },
        4 => "OUT_OF_RESOURCE[]".into(),
        5 => format!(
            "UNRESOLVABLE_ADDRESS[param={}]",
            render_tlvs(v, render_param).join(", ")
        ),
        6 => match RawChunk::new_checked(v) {
            Ok(ch) => format!(
                "UNRECOGNIZED_CHUNK_TYPE[chk={}]",
                render_chunk(&ch, View::Live, false)
            ),
            Err(_) => generic(),
        },
        7 => "INVALID_MANDATORY_PARAMETER[]".into(),
        8 => format!(
            "UNRECOGNIZED_PARAMETERS[params=[{}]]",
            render_tlvs(v, render_param).join(", ")
        ),
        9 => match be32(v, 0) {
            Some(t) => format!("NO_USER_DATA[tsn={t}]"),
            None => generic(),
        },
        10 => "COOKIE_RECEIVED_WHILE_SHUTDOWN[]".into(),
        11 => format!(
            "RESTART_WITH_NEW_ADDRESSES[params=[{}]]",
            render_tlvs(v, render_param).join(", ")
        ),
        12 => format!("USER_INITIATED_ABORT[info={}]", text_or_bytes(v)),
        13 => format!("PROTOCOL_VIOLATION[info={}]", text_or_bytes(v)),
        _ => generic(),
    }
}
