//! Inbound packets: script chunks to the codec's [`ChunkRepr`], with packetdrill's mapping of
//! the script's tags and TSNs to the live ones.
//!
//! packetdrill lets a script pick the tags and TSNs of both sides. The remote side (the script's
//! peer) uses exactly what the script says. The local side (the system under test) picks its own
//! Initiate Tag and Initial TSN; the first INIT (active open) or INIT ACK (passive open) it sends
//! binds the script's values to the live ones, and from then on every local TSN in the script
//! (SACK and SHUTDOWN cumulative TSNs, duplicate TSNs, ECNE/CWR) is shifted by the difference,
//! and the verification tag of an inbound packet is the live tag of the side it addresses.
//! A field written `...` is sent as zero, except the cookie of a COOKIE ECHO and the
//! information of a HEARTBEAT ACK, which are copied from the last INIT ACK and HEARTBEAT the
//! system under test sent.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use sctpsim_wire::sctp::{
    ChunkRepr, DataChunk, ErrorCause, GapAckBlock, IDataChunk, InitChunk, Mid, NrSackChunk,
    Parameter, RawChunk, SackChunk, Ssn, Tsn, UnknownChunk,
};

use crate::ast::{CauseList, CauseSpec, ChunkSpec, InitSpec, ParamList, ParamSpec};

/// The correspondence between the script's and the live tags and TSNs (packetdrill's
/// `socket->script` and `socket->live`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mapping {
    /// The Initiate Tag the script gave the system under test.
    pub script_local_tag: u32,
    /// The Initiate Tag the system under test actually chose.
    pub live_local_tag: u32,
    /// The Initial TSN the script gave the system under test.
    pub script_local_tsn: u32,
    /// The Initial TSN the system under test actually chose.
    pub live_local_tsn: u32,
    /// The peer's Initiate Tag (script and live are the same).
    pub remote_tag: u32,
    /// The peer's Initial TSN (script and live are the same).
    pub remote_tsn: u32,
}

impl Mapping {
    /// A local TSN of the script as the live value.
    pub fn local_tsn_to_live(&self, tsn: u32) -> u32 {
        tsn.wrapping_add(self.live_local_tsn.wrapping_sub(self.script_local_tsn))
    }

    /// A live local TSN as the script would write it.
    pub fn local_tsn_to_script(&self, tsn: u32) -> u32 {
        tsn.wrapping_add(self.script_local_tsn.wrapping_sub(self.live_local_tsn))
    }

    /// A live local Initiate Tag as the script would write it.
    pub fn local_tag_to_script(&self, tag: u32) -> u32 {
        if tag == self.live_local_tag {
            self.script_local_tag
        } else {
            tag
        }
    }
}

/// What an inbound packet is built from besides the script.
#[derive(Debug, Clone, Default)]
pub struct InboundCtx {
    /// The tag and TSN mapping.
    pub map: Mapping,
    /// The State Cookie of the last INIT ACK the system under test sent.
    pub cookie: Option<Vec<u8>>,
    /// The Heartbeat Info of the last HEARTBEAT the system under test sent.
    pub heartbeat_info: Option<Vec<u8>>,
}

/// Why a script construct cannot be sent.
pub type Unsupported = String;

fn zero_padded(val: Option<&[u8]>, len: Option<u16>, header: usize) -> Vec<u8> {
    let want = len.map_or(0, |l| usize::from(l).saturating_sub(header));
    let mut v = val.map(<[u8]>::to_vec).unwrap_or_default();
    if v.len() < want {
        v.resize(want, 0);
    }
    v
}

fn pad4(mut v: Vec<u8>) -> Vec<u8> {
    v.resize(v.len().div_ceil(4) * 4, 0);
    v
}

/// A script chunk as the codec's chunk, for sending; local TSNs are mapped to live values.
pub fn chunk_to_repr(c: &ChunkSpec, ctx: &InboundCtx) -> Result<ChunkRepr, Unsupported> {
    let m = &ctx.map;
    let no_flags = |name: &str, flags: Option<u8>| -> Result<(), Unsupported> {
        match flags {
            Some(f) if f != 0 => Err(format!(
                "unsupported: {name} with flags {f:#04x} (the codec sends reserved flags as zero)"
            )),
            _ => Ok(()),
        }
    };
    Ok(match c {
        ChunkSpec::Data {
            flags,
            len,
            tsn,
            sid,
            ssn,
            ppid,
        } => {
            let f = flags.unwrap_or(0);
            if f & 0xF0 != 0 {
                return Err(format!(
                    "unsupported: DATA flags {f:#04x} (reserved bits cannot be encoded)"
                ));
            }
            ChunkRepr::Data(DataChunk {
                tsn: Tsn(tsn.unwrap_or(0)),
                stream_id: sid.unwrap_or(0),
                ssn: Ssn(ssn.unwrap_or(0)),
                ppid: ppid.unwrap_or(0),
                unordered: f & 0x04 != 0,
                beginning: f & 0x02 != 0,
                ending: f & 0x01 != 0,
                immediate: f & 0x08 != 0,
                user_data: vec![0; usize::from(len.unwrap_or(16)).saturating_sub(16)],
            })
        }
        ChunkSpec::IData {
            flags,
            len,
            tsn,
            sid,
            mid,
            ppid_or_fsn,
        } => {
            let f = flags.unwrap_or(0);
            if f & 0xF0 != 0 {
                return Err(format!(
                    "unsupported: I_DATA flags {f:#04x} (reserved bits cannot be encoded)"
                ));
            }
            ChunkRepr::IData(IDataChunk {
                tsn: Tsn(tsn.unwrap_or(0)),
                stream_id: sid.unwrap_or(0),
                mid: Mid(mid.unwrap_or(0)),
                ppid_or_fsn: ppid_or_fsn.unwrap_or(0),
                unordered: f & 0x04 != 0,
                beginning: f & 0x02 != 0,
                ending: f & 0x01 != 0,
                immediate: f & 0x08 != 0,
                user_data: vec![0; usize::from(len.unwrap_or(20)).saturating_sub(20)],
            })
        }
        ChunkSpec::Init(s) => {
            no_flags("INIT", s.flags)?;
            ChunkRepr::Init(init_to_repr(s)?)
        }
        ChunkSpec::InitAck(s) => {
            no_flags("INIT_ACK", s.flags)?;
            ChunkRepr::InitAck(init_to_repr(s)?)
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
            no_flags(if *nr { "NR_SACK" } else { "SACK" }, *flags)?;
            let sack = SackChunk {
                per_path: false,
                dac_two_packets: false,
                cum_tsn_ack: Tsn(m.local_tsn_to_live(cum_tsn.unwrap_or(0))),
                a_rwnd: a_rwnd.unwrap_or(0),
                gap_blocks: gaps
                    .iter()
                    .flatten()
                    .map(|&(start, end)| GapAckBlock { start, end })
                    .collect(),
                duplicate_tsns: dups
                    .iter()
                    .flatten()
                    .map(|&t| Tsn(m.local_tsn_to_live(t)))
                    .collect(),
            };
            if *nr {
                ChunkRepr::NrSack(NrSackChunk {
                    sack,
                    nr_gap_blocks: nr_gaps
                        .iter()
                        .flatten()
                        .map(|&(start, end)| GapAckBlock { start, end })
                        .collect(),
                })
            } else {
                ChunkRepr::Sack(sack)
            }
        }
        ChunkSpec::Heartbeat { flags, info } => {
            no_flags("HEARTBEAT", *flags)?;
            ChunkRepr::Heartbeat {
                info: heartbeat_info(info.as_ref(), None)?,
            }
        }
        ChunkSpec::HeartbeatAck { flags, info } => {
            no_flags("HEARTBEAT_ACK", *flags)?;
            ChunkRepr::HeartbeatAck {
                info: heartbeat_info(info.as_ref(), ctx.heartbeat_info.as_deref())?,
            }
        }
        ChunkSpec::Abort { flags, causes } => {
            let f = flags.unwrap_or(0);
            if f & !0x01 != 0 {
                return Err(format!(
                    "unsupported: ABORT flags {f:#04x} (only the T bit can be encoded)"
                ));
            }
            ChunkRepr::Abort {
                t_bit: f & 0x01 != 0,
                causes: causes_to_repr(causes, ctx)?,
            }
        }
        ChunkSpec::Shutdown { flags, cum_tsn } => {
            no_flags("SHUTDOWN", *flags)?;
            ChunkRepr::Shutdown {
                cum_tsn_ack: Tsn(m.local_tsn_to_live(cum_tsn.unwrap_or(0))),
            }
        }
        ChunkSpec::ShutdownAck { flags } => {
            no_flags("SHUTDOWN_ACK", *flags)?;
            ChunkRepr::ShutdownAck
        }
        ChunkSpec::Error { flags, causes } => {
            no_flags("ERROR", *flags)?;
            ChunkRepr::Error {
                causes: causes_to_repr(causes, ctx)?,
            }
        }
        ChunkSpec::CookieEcho { flags, len, val } => {
            no_flags("COOKIE_ECHO", *flags)?;
            let cookie = match (val, &ctx.cookie) {
                (Some(v), _) => zero_padded(Some(v), *len, 4),
                (None, Some(prepared)) => prepared.clone(),
                (None, None) => zero_padded(None, *len, 4),
            };
            ChunkRepr::CookieEcho { cookie }
        }
        ChunkSpec::CookieAck { flags } => {
            no_flags("COOKIE_ACK", *flags)?;
            ChunkRepr::CookieAck
        }
        ChunkSpec::Ecne { flags, tsn } => {
            no_flags("ECNE", *flags)?;
            ChunkRepr::Ecne {
                lowest_tsn: Tsn(m.local_tsn_to_live(tsn.unwrap_or(0))),
            }
        }
        ChunkSpec::Cwr { flags, tsn } => {
            no_flags("CWR", *flags)?;
            ChunkRepr::Cwr {
                lowest_tsn: Tsn(m.local_tsn_to_live(tsn.unwrap_or(0))),
            }
        }
        ChunkSpec::ShutdownComplete { flags } => {
            let f = flags.unwrap_or(0);
            if f & !0x01 != 0 {
                return Err(format!(
                    "unsupported: SHUTDOWN_COMPLETE flags {f:#04x} (only the T bit can be encoded)"
                ));
            }
            ChunkRepr::ShutdownComplete {
                t_bit: f & 0x01 != 0,
            }
        }
        ChunkSpec::Generic {
            kind,
            flags,
            len,
            val,
        } => {
            let Some(kind) = *kind else {
                return Err("unsupported: inbound CHUNK with type=...".into());
            };
            let value = zero_padded(val.as_deref(), *len, 4);
            generic_chunk(kind, flags.unwrap_or(0), value)?
        }
        ChunkSpec::Pad { .. } => {
            return Err("unsupported: PAD chunks in the codec (sent byte by byte)".into());
        }
        ChunkSpec::Reconfig { flags, params } => {
            no_flags("RECONFIG", *flags)?;
            let Some(params) = params else {
                return Err("unsupported: RECONFIG[...] without parameters".into());
            };
            ChunkRepr::Reconfig(crate::reconfig::inbound(params, m))
        }
        ChunkSpec::Unsupported { name } => {
            return Err(format!("unsupported: {name} chunks"));
        }
    })
}

/// A chunk given byte by byte. Types the codec models must survive a parse and emit unchanged.
fn generic_chunk(kind: u8, flags: u8, value: Vec<u8>) -> Result<ChunkRepr, Unsupported> {
    let unknown = ChunkRepr::Unknown(UnknownChunk {
        kind,
        flags,
        value: value.clone(),
    });
    let raw = unknown
        .to_bytes()
        .map_err(|e| format!("unsupported: CHUNK: {e}"))?;
    let Ok(parsed) = RawChunk::new_checked(&raw).and_then(|c| c.parse()) else {
        return Err(format!(
            "unsupported: CHUNK of type {kind:#04x} that the codec cannot parse"
        ));
    };
    if matches!(parsed, ChunkRepr::Unknown(_)) {
        return Ok(parsed);
    }
    let again = parsed
        .to_bytes()
        .map_err(|e| format!("unsupported: CHUNK: {e}"))?;
    if again != raw {
        return Err(format!(
            "unsupported: CHUNK of type {kind:#04x} with bytes the codec does not reproduce exactly"
        ));
    }
    Ok(parsed)
}

fn heartbeat_info(
    info: Option<&ParamSpec>,
    prepared: Option<&[u8]>,
) -> Result<Vec<u8>, Unsupported> {
    match info {
        None => Ok(prepared.map(<[u8]>::to_vec).unwrap_or_default()),
        Some(ParamSpec::HeartbeatInfo { len, val }) => Ok(match (val, prepared) {
            (Some(v), _) => v.clone(),
            (None, Some(p)) => p.to_vec(),
            (None, None) => zero_padded(None, *len, 4),
        }),
        Some(ParamSpec::Generic {
            kind: Some(1),
            len,
            val,
        }) => Ok(zero_padded(val.as_deref(), *len, 4)),
        Some(_) => Err(
            "unsupported: a HEARTBEAT parameter other than Heartbeat Info (the codec writes type 1)"
                .into(),
        ),
    }
}

fn init_to_repr(s: &InitSpec) -> Result<InitChunk, Unsupported> {
    let params = match &s.params {
        ParamList::Any => Vec::new(),
        ParamList::List(list) => list
            .iter()
            .map(param_to_repr)
            .collect::<Result<Vec<_>, _>>()?,
    };
    Ok(InitChunk {
        initiate_tag: s.tag.unwrap_or(0),
        a_rwnd: s.a_rwnd.unwrap_or(0),
        outbound_streams: s.os.unwrap_or(0),
        inbound_streams: s.is.unwrap_or(0),
        initial_tsn: Tsn(s.tsn.unwrap_or(0)),
        params,
    })
}

/// A script parameter as the codec's parameter.
pub fn param_to_repr(p: &ParamSpec) -> Result<Parameter, Unsupported> {
    Ok(match p {
        ParamSpec::Generic { kind, len, val } => {
            let Some(kind) = *kind else {
                return Err("unsupported: inbound PARAMETER with type=...".into());
            };
            let value = zero_padded(val.as_deref(), *len, 4);
            Parameter::parse(kind, &value).map_err(|_| {
                format!("unsupported: PARAMETER of type {kind:#06x} whose value the codec rejects")
            })?
        }
        ParamSpec::HeartbeatInfo { len, val } => Parameter::Unknown {
            kind: 1,
            value: zero_padded(val.as_deref(), *len, 4),
        },
        ParamSpec::Ipv4Address(a) => {
            Parameter::Address(IpAddr::V4(a.unwrap_or(Ipv4Addr::UNSPECIFIED)))
        }
        ParamSpec::Ipv6Address(a) => {
            Parameter::Address(IpAddr::V6(a.unwrap_or(Ipv6Addr::UNSPECIFIED)))
        }
        ParamSpec::StateCookie { len } => Parameter::StateCookie(zero_padded(None, *len, 4)),
        ParamSpec::UnrecognizedParameter(list) => {
            Parameter::UnrecognizedParameter(nested_params(list.as_deref())?)
        }
        ParamSpec::CookiePreservative(incr) => Parameter::CookiePreservative {
            increment_ms: incr.unwrap_or(0),
        },
        ParamSpec::HostnameAddress(name) => {
            let mut v = name.clone().unwrap_or_default().into_bytes();
            v.push(0);
            Parameter::HostNameAddress(v)
        }
        ParamSpec::SupportedAddressTypes(t) => {
            Parameter::SupportedAddressTypes(t.clone().unwrap_or_default())
        }
        ParamSpec::EcnCapable => Parameter::EcnCapable,
        ParamSpec::ForwardTsnSupported => Parameter::ForwardTsnSupported,
        ParamSpec::SupportedExtensions(t) => {
            Parameter::SupportedExtensions(t.clone().unwrap_or_default())
        }
        ParamSpec::AdaptationIndication(c) => Parameter::AdaptationLayerIndication {
            code_point: c.unwrap_or(0),
        },
        ParamSpec::Pad { .. } | ParamSpec::ZeroChecksumAcceptable(_) => {
            return Err("unsupported: PAD and ZERO_CHECKSUM_ACCEPTABLE in the codec".into())
        }
        ParamSpec::Unsupported { name } => return Err(format!("unsupported: {name} parameters")),
    })
}

/// Parameters copied into another TLV: each with its padding (packetdrill's layout).
fn nested_params(list: Option<&[ParamSpec]>) -> Result<Vec<u8>, Unsupported> {
    let mut out = Vec::new();
    for p in list.unwrap_or(&[]) {
        let bytes = param_to_repr(p)?
            .to_bytes()
            .map_err(|e| format!("unsupported: nested parameter: {e}"))?;
        out.extend(pad4(bytes));
    }
    Ok(out)
}

fn causes_to_repr(list: &CauseList, ctx: &InboundCtx) -> Result<Vec<ErrorCause>, Unsupported> {
    match list {
        CauseList::Any => Ok(Vec::new()),
        CauseList::List(causes) => causes.iter().map(|c| cause_to_repr(c, ctx)).collect(),
    }
}

/// A script error cause as the codec's cause.
pub fn cause_to_repr(c: &CauseSpec, ctx: &InboundCtx) -> Result<ErrorCause, Unsupported> {
    Ok(match c {
        CauseSpec::Generic { code, len, info } => {
            let Some(code) = *code else {
                return Err("unsupported: inbound CAUSE with cause_code=...".into());
            };
            let info = zero_padded(info.as_deref(), *len, 4);
            ErrorCause::parse(code, &info).map_err(|_| {
                format!("unsupported: CAUSE of code {code} whose information the codec rejects")
            })?
        }
        CauseSpec::InvalidStreamIdentifier(sid) => ErrorCause::InvalidStreamIdentifier {
            stream_id: sid.unwrap_or(0),
        },
        CauseSpec::MissingMandatoryParameter(t) => ErrorCause::MissingMandatoryParameter {
            missing: t.clone().unwrap_or_default(),
        },
        CauseSpec::StaleCookie(s) => ErrorCause::StaleCookie {
            staleness_us: s.unwrap_or(0),
        },
        CauseSpec::OutOfResource => ErrorCause::OutOfResource,
        CauseSpec::UnresolvableAddress(p) => ErrorCause::UnresolvableAddress {
            address: match p {
                Some(p) => param_to_repr(p)?
                    .to_bytes()
                    .map_err(|e| format!("unsupported: {e}"))?,
                None => Vec::new(),
            },
        },
        CauseSpec::UnrecognizedChunkType(chunk) => ErrorCause::UnrecognizedChunkType {
            chunk: match chunk {
                Some(c) => {
                    let repr = chunk_to_repr(c, ctx)?;
                    let mut b = repr.to_bytes().map_err(|e| format!("unsupported: {e}"))?;
                    b.truncate(repr.chunk_len());
                    b
                }
                None => Vec::new(),
            },
        },
        CauseSpec::InvalidMandatoryParameter => ErrorCause::InvalidMandatoryParameter,
        CauseSpec::UnrecognizedParameters(list) => ErrorCause::UnrecognizedParameters {
            parameters: nested_params(list.as_deref())?,
        },
        CauseSpec::NoUserData(tsn) => ErrorCause::NoUserData {
            tsn: Tsn(tsn.unwrap_or(0)),
        },
        CauseSpec::CookieReceivedWhileShutdown => ErrorCause::CookieReceivedWhileShuttingDown,
        CauseSpec::RestartWithNewAddresses(list) => ErrorCause::RestartWithNewAddresses {
            addresses: nested_params(list.as_deref())?,
        },
        CauseSpec::UserInitiatedAbort(s) => ErrorCause::UserInitiatedAbort {
            reason: s.clone().unwrap_or_default().into_bytes(),
        },
        CauseSpec::ProtocolViolation(s) => ErrorCause::ProtocolViolation {
            info: s.clone().unwrap_or_default().into_bytes(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_shifts_local_tsns() {
        let m = Mapping {
            script_local_tsn: 1,
            live_local_tsn: 0xffff_fffe,
            script_local_tag: 2,
            live_local_tag: 77,
            ..Mapping::default()
        };
        assert_eq!(m.local_tsn_to_live(0), 0xffff_fffd);
        assert_eq!(m.local_tsn_to_live(3), 0);
        assert_eq!(m.local_tsn_to_script(0), 3);
        assert_eq!(m.local_tag_to_script(77), 2);
        assert_eq!(m.local_tag_to_script(5), 5);
    }

    #[test]
    fn chunks_encode() {
        let ctx = InboundCtx {
            cookie: Some(vec![9, 9]),
            ..InboundCtx::default()
        };
        let data = ChunkSpec::Data {
            flags: Some(3),
            len: Some(116),
            tsn: Some(1),
            sid: Some(0),
            ssn: Some(0),
            ppid: Some(0),
        };
        let ChunkRepr::Data(d) = chunk_to_repr(&data, &ctx).unwrap() else {
            panic!()
        };
        assert_eq!(d.user_data.len(), 100);
        assert!(d.beginning && d.ending);
        let echo = ChunkSpec::CookieEcho {
            flags: Some(0),
            len: None,
            val: None,
        };
        assert_eq!(
            chunk_to_repr(&echo, &ctx).unwrap(),
            ChunkRepr::CookieEcho { cookie: vec![9, 9] }
        );
        let generic = ChunkSpec::Generic {
            kind: Some(0xEF),
            flags: Some(0),
            len: Some(5),
            val: Some(vec![1]),
        };
        let c = chunk_to_repr(&generic, &ctx).unwrap();
        assert_eq!(c.chunk_len(), 5);
        let bad = ChunkSpec::ShutdownAck { flags: Some(2) };
        assert!(chunk_to_repr(&bad, &ctx)
            .unwrap_err()
            .starts_with("unsupported"));
        let as_data = ChunkSpec::Generic {
            kind: Some(0),
            flags: Some(3),
            len: Some(17),
            val: Some(vec![0; 13]),
        };
        assert!(matches!(
            chunk_to_repr(&as_data, &ctx),
            Ok(ChunkRepr::Data(_))
        ));
        let short_data = ChunkSpec::Generic {
            kind: Some(0),
            flags: Some(3),
            len: Some(8),
            val: None,
        };
        assert!(chunk_to_repr(&short_data, &ctx).is_err());
    }

    #[test]
    fn hostname_is_nul_terminated() {
        let p = param_to_repr(&ParamSpec::HostnameAddress(Some("a.b".into()))).unwrap();
        assert_eq!(p.to_bytes().unwrap(), [0, 11, 0, 8, b'a', b'.', b'b', 0]);
    }
}
