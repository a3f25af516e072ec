//! RE-CONFIG (RFC 6525) in scripts: the inbound chunk through the codec, the outbound check,
//! and the socket options of RFC 6525 §6.3 (Linux numbering).
//!
//! Sequence numbers and TSNs of the system under test are written relative to the Initial TSN
//! the script named for it (its request sequence numbers start at its Initial TSN, RFC 6525
//! §4.1), the peer's as they are:
//!
//! | field | in a parameter the peer sends | in one the system under test sends |
//! |---|---|---|
//! | `req_sn` | the peer's | ours (mapped) |
//! | `resp_sn` | ours (mapped) | the peer's |
//! | `last_tsn` | the peer's TSN | ours (mapped) |
//! | `sender_next_tsn` | the peer's TSN | ours (mapped) |
//! | `receiver_next_tsn` | ours (mapped) | the peer's TSN |

use sctpsim_wire::sctp::{ChunkRepr, RawChunk, ReconfigChunk, ReconfigParam, ReconfigResult, Tsn};

use crate::ast::{Expr, ReconfigSpec};
use crate::encode::{Mapping, Unsupported};
use crate::executor::{slot_assoc, Executor};
use crate::syscalls::{check_fields, errno, eval, fail, field_value, ok, struct_fields, Ret};

/// Linux `SCTP_ENABLE_STREAM_RESET` (RFC 6525 §6.3.1).
pub(crate) const SCTP_ENABLE_STREAM_RESET: i64 = 118;
/// Linux `SCTP_RESET_STREAMS` (RFC 6525 §6.3.2).
pub(crate) const SCTP_RESET_STREAMS: i64 = 119;
/// Linux `SCTP_RESET_ASSOC` (RFC 6525 §6.3.3).
pub(crate) const SCTP_RESET_ASSOC: i64 = 120;
/// Linux `SCTP_ADD_STREAMS` (RFC 6525 §6.3.4).
pub(crate) const SCTP_ADD_STREAMS: i64 = 121;
/// `srs_flags`: reset the incoming streams (ask the peer).
const SCTP_STREAM_RESET_INCOMING: i64 = 1;
/// `srs_flags`: reset the outgoing streams.
const SCTP_STREAM_RESET_OUTGOING: i64 = 2;

/// The symbols of this module's options and flags.
pub(crate) fn symbol(name: &str) -> Option<i64> {
    Some(match name {
        "SCTP_ENABLE_STREAM_RESET" => SCTP_ENABLE_STREAM_RESET,
        "SCTP_RESET_STREAMS" => SCTP_RESET_STREAMS,
        "SCTP_RESET_ASSOC" => SCTP_RESET_ASSOC,
        "SCTP_ADD_STREAMS" => SCTP_ADD_STREAMS,
        "SCTP_ENABLE_RESET_STREAM_REQ" => 1,
        "SCTP_ENABLE_RESET_ASSOC_REQ" => 2,
        "SCTP_ENABLE_CHANGE_ASSOC_REQ" => 4,
        "SCTP_STREAM_RESET_INCOMING" => SCTP_STREAM_RESET_INCOMING,
        "SCTP_STREAM_RESET_OUTGOING" => SCTP_STREAM_RESET_OUTGOING,
        _ => return None,
    })
}

/// The peer's RECONFIG as the codec's chunk (wildcards as 0, our numbers mapped to live).
pub(crate) fn inbound(params: &[ReconfigSpec], m: &Mapping) -> ReconfigChunk {
    let ours = |v: Option<u32>| m.local_tsn_to_live(v.unwrap_or(0));
    let theirs = |v: Option<u32>| v.unwrap_or(0);
    let params = params
        .iter()
        .map(|p| match p {
            ReconfigSpec::OutgoingSsnReset {
                req_sn,
                resp_sn,
                last_tsn,
                sids,
            } => ReconfigParam::OutgoingSsnReset {
                request_seq: theirs(*req_sn),
                response_seq: ours(*resp_sn),
                last_tsn: Tsn(theirs(*last_tsn)),
                streams: sids.clone().unwrap_or_default(),
            },
            ReconfigSpec::IncomingSsnReset { req_sn, sids } => ReconfigParam::IncomingSsnReset {
                request_seq: theirs(*req_sn),
                streams: sids.clone().unwrap_or_default(),
            },
            ReconfigSpec::SsnTsnReset { req_sn } => ReconfigParam::SsnTsnReset {
                request_seq: theirs(*req_sn),
            },
            ReconfigSpec::Response {
                resp_sn,
                result,
                sender_next_tsn,
                receiver_next_tsn,
            } => ReconfigParam::Response {
                response_seq: ours(*resp_sn),
                result: ReconfigResult::from_code(result.unwrap_or(0)),
                next_tsns: match (sender_next_tsn, receiver_next_tsn) {
                    (None, None) => None,
                    (s, r) => Some((Tsn(theirs(*s)), Tsn(ours(*r)))),
                },
            },
            ReconfigSpec::AddOutgoingStreams {
                req_sn,
                number_of_new_streams,
            } => ReconfigParam::AddOutgoingStreams {
                request_seq: theirs(*req_sn),
                new_streams: number_of_new_streams.unwrap_or(0),
            },
            ReconfigSpec::AddIncomingStreams {
                req_sn,
                number_of_new_streams,
            } => ReconfigParam::AddIncomingStreams {
                request_seq: theirs(*req_sn),
                new_streams: number_of_new_streams.unwrap_or(0),
            },
        })
        .collect();
    ReconfigChunk { params }
}

/// The peer's RECONFIG as bytes (padded), with the script's flags.
pub(crate) fn inbound_bytes(
    flags: Option<u8>,
    params: Option<&[ReconfigSpec]>,
    m: &Mapping,
) -> Result<Vec<u8>, Unsupported> {
    let Some(params) = params.filter(|p| !p.is_empty()) else {
        return Err(
            "unsupported: RECONFIG without parameters in an inbound packet (write it with CHUNK[type=0x82, ...])"
                .into(),
        );
    };
    let mut b = ChunkRepr::Reconfig(inbound(params, m))
        .to_bytes()
        .map_err(|e| format!("unsupported: RECONFIG: {e}"))?;
    if let Some(f) = b.get_mut(1) {
        *f = flags.unwrap_or(0);
    }
    Ok(b)
}

fn field(name: &str, expected: Option<u32>, actual: u32) -> Result<(), String> {
    match expected {
        Some(e) if e != actual => Err(format!("{name}: expected {e}, actual {actual}")),
        _ => Ok(()),
    }
}

/// Checks the RECONFIG the system under test sent.
pub(crate) fn verify(
    params: Option<&[ReconfigSpec]>,
    raw: &RawChunk<'_>,
    m: &Mapping,
) -> Result<(), String> {
    let Ok(ChunkRepr::Reconfig(live)) = ChunkRepr::parse(raw) else {
        return Err("malformed RECONFIG chunk".into());
    };
    let Some(specs) = params else {
        return Ok(());
    };
    if specs.len() != live.params.len() {
        return Err(format!(
            "the live RECONFIG has {} parameters, the script expects {}",
            live.params.len(),
            specs.len()
        ));
    }
    let ours = |v: u32| m.local_tsn_to_script(v);
    for (i, (s, p)) in specs.iter().zip(&live.params).enumerate() {
        let r = match (s, p) {
            (
                ReconfigSpec::OutgoingSsnReset {
                    req_sn,
                    resp_sn,
                    last_tsn,
                    sids,
                },
                ReconfigParam::OutgoingSsnReset {
                    request_seq,
                    response_seq,
                    last_tsn: lt,
                    streams,
                },
            ) => field("req_sn", *req_sn, ours(*request_seq))
                .and(field("resp_sn", *resp_sn, *response_seq))
                .and(field("last_tsn", *last_tsn, ours(lt.0)))
                .and(sids_field(sids.as_deref(), streams)),
            (
                ReconfigSpec::IncomingSsnReset { req_sn, sids },
                ReconfigParam::IncomingSsnReset {
                    request_seq,
                    streams,
                },
            ) => field("req_sn", *req_sn, ours(*request_seq))
                .and(sids_field(sids.as_deref(), streams)),
            (ReconfigSpec::SsnTsnReset { req_sn }, ReconfigParam::SsnTsnReset { request_seq }) => {
                field("req_sn", *req_sn, ours(*request_seq))
            }
            (
                ReconfigSpec::Response {
                    resp_sn,
                    result,
                    sender_next_tsn,
                    receiver_next_tsn,
                },
                ReconfigParam::Response {
                    response_seq,
                    result: res,
                    next_tsns,
                },
            ) => {
                let tsns = match (sender_next_tsn.or(*receiver_next_tsn), next_tsns) {
                    (None, _) => Ok(()),
                    (Some(_), None) => {
                        Err("sender_next_tsn/receiver_next_tsn: absent in the live packet".into())
                    }
                    (Some(_), Some((s, r))) => field(
                        "sender_next_tsn",
                        *sender_next_tsn,
                        ours(s.0),
                    )
                    .and(field("receiver_next_tsn", *receiver_next_tsn, r.0)),
                };
                field("resp_sn", *resp_sn, *response_seq)
                    .and(field("result", *result, res.code()))
                    .and(tsns)
            }
            (
                ReconfigSpec::AddOutgoingStreams {
                    req_sn,
                    number_of_new_streams: n,
                },
                ReconfigParam::AddOutgoingStreams {
                    request_seq,
                    new_streams,
                },
            )
            | (
                ReconfigSpec::AddIncomingStreams {
                    req_sn,
                    number_of_new_streams: n,
                },
                ReconfigParam::AddIncomingStreams {
                    request_seq,
                    new_streams,
                },
            ) => field("req_sn", *req_sn, ours(*request_seq)).and(field(
                "number_of_new_streams",
                n.map(u32::from),
                u32::from(*new_streams),
            )),
            (s, p) => Err(format!(
                "parameter type: expected {}, actual {}",
                spec_kind(s),
                p.kind()
            )),
        };
        r.map_err(|e| format!("parameter {}: {e}", i + 1))?;
    }
    Ok(())
}

/// A RECONFIG in script syntax, for the trace and mismatch reports: `own` maps the sender's
/// numbers (request sequence numbers, its TSNs), `peer` the receiver's. `None` if the codec
/// cannot parse it.
pub(crate) fn render(
    raw: &RawChunk<'_>,
    own: &dyn Fn(u32) -> u32,
    peer: &dyn Fn(u32) -> u32,
) -> Option<String> {
    let Ok(ChunkRepr::Reconfig(r)) = ChunkRepr::parse(raw) else {
        return None;
    };
    let sids = |s: &[u16]| s.iter().map(u16::to_string).collect::<Vec<_>>().join(", ");
    let params: Vec<String> = r
        .params
        .iter()
        .map(|p| match p {
            ReconfigParam::OutgoingSsnReset {
                request_seq,
                response_seq,
                last_tsn,
                streams,
            } => format!(
                "OUTGOING_SSN_RESET[req_sn={}, resp_sn={}, last_tsn={}, sids=[{}]]",
                own(*request_seq),
                peer(*response_seq),
                own(last_tsn.0),
                sids(streams)
            ),
            ReconfigParam::IncomingSsnReset {
                request_seq,
                streams,
            } => format!(
                "INCOMING_SSN_RESET[req_sn={}, sids=[{}]]",
                own(*request_seq),
                sids(streams)
            ),
            ReconfigParam::SsnTsnReset { request_seq } => {
                format!("SSN_TSN_RESET[req_sn={}]", own(*request_seq))
            }
            ReconfigParam::Response {
                response_seq,
                result,
                next_tsns,
            } => {
                let tsns = next_tsns.map_or(String::new(), |(s, r)| {
                    format!(
                        ", sender_next_tsn={}, receiver_next_tsn={}",
                        own(s.0),
                        peer(r.0)
                    )
                });
                format!(
                    "RECONFIG_RESPONSE[resp_sn={}, result={}{tsns}]",
                    peer(*response_seq),
                    result.code()
                )
            }
            ReconfigParam::AddOutgoingStreams {
                request_seq,
                new_streams,
            } => format!(
                "ADD_OUTGOING_STREAMS[req_sn={}, number_of_new_streams={new_streams}]",
                own(*request_seq)
            ),
            ReconfigParam::AddIncomingStreams {
                request_seq,
                new_streams,
            } => format!(
                "ADD_INCOMING_STREAMS[req_sn={}, number_of_new_streams={new_streams}]",
                own(*request_seq)
            ),
            ReconfigParam::Unknown { kind, value } => {
                format!("PARAMETER[type={kind}, len={}, val=...]", value.len() + 4)
            }
        })
        .collect();
    Some(format!(
        "RECONFIG[flgs={}, {}]",
        raw.flags(),
        params.join(", ")
    ))
}

fn spec_kind(s: &ReconfigSpec) -> u16 {
    match s {
        ReconfigSpec::OutgoingSsnReset { .. } => 13,
        ReconfigSpec::IncomingSsnReset { .. } => 14,
        ReconfigSpec::SsnTsnReset { .. } => 15,
        ReconfigSpec::Response { .. } => 16,
        ReconfigSpec::AddOutgoingStreams { .. } => 17,
        ReconfigSpec::AddIncomingStreams { .. } => 18,
    }
}

fn sids_field(expected: Option<&[u16]>, actual: &[u16]) -> Result<(), String> {
    match expected {
        Some(e) if e != actual => Err(format!("sids: expected {e:?}, actual {actual:?}")),
        _ => Ok(()),
    }
}

fn api_errno(e: sctpsim_proto::transport::sctp::ApiError) -> i32 {
    use sctpsim_proto::transport::sctp::ApiError;
    match e {
        ApiError::NotSupported => errno::EOPNOTSUPP,
        ApiError::InvalidValue => errno::EINVAL,
        _ => errno::EINVAL,
    }
}

impl Executor {
    /// `setsockopt` of RFC 6525 §6.3's options; `None` if `opt` is not one of them.
    pub(crate) fn set_reconfig(
        &mut self,
        opt: i64,
        value: &Expr,
        idx: Option<usize>,
    ) -> Option<Result<Ret, String>> {
        Some(match opt {
            SCTP_ENABLE_STREAM_RESET => self.enable_stream_reset(value),
            SCTP_RESET_STREAMS => self.reset_streams_opt(value, idx),
            SCTP_RESET_ASSOC => self.assoc_call(idx, |a, now| a.reset_ssn_tsn(now)),
            SCTP_ADD_STREAMS => self.add_streams_opt(value, idx),
            _ => return None,
        })
    }

    /// §6.3.1: which requests of the peer are accepted. The model accepts every request type
    /// once RE-CONFIG is negotiated; a non-zero value also turns the extension on for
    /// associations set up later (as `net.sctp.reconf_enable=1` does), zero is unsupported.
    fn enable_stream_reset(&mut self, value: &Expr) -> Result<Ret, String> {
        let v = match value {
            Expr::Struct(f) => {
                check_fields(f, &["assoc_id", "assoc_value"], "SCTP_ENABLE_STREAM_RESET")?;
                field_value(f, "assoc_value")?
            }
            other => eval(other)?,
        };
        match v {
            Some(v) if v != 0 => {
                self.endpoint.config_mut().reconfig = true;
                ok(0)
            }
            _ => Err("unsupported: SCTP_ENABLE_STREAM_RESET 0 (the model accepts every request type once RE-CONFIG is negotiated)".into()),
        }
    }

    fn assoc_call(
        &mut self,
        idx: Option<usize>,
        f: impl FnOnce(
            &mut sctpsim_proto::transport::sctp::SctpAssociation,
            sctpsim_kernel::SimTime,
        ) -> Result<(), sctpsim_proto::transport::sctp::ApiError>,
    ) -> Result<Ret, String> {
        let Some(i) = idx else {
            return fail(errno::EINVAL);
        };
        let now = self.now;
        let a = slot_assoc(&mut self.endpoint, &self.slots[i])?;
        let r = f(a, now);
        // The request may leave at once.
        self.drain();
        match r {
            Ok(()) => ok(0),
            Err(e) => fail(api_errno(e)),
        }
    }

    /// §6.3.2: `{srs_assoc_id, srs_flags, srs_number_streams, srs_stream_list=[...]}`.
    fn reset_streams_opt(&mut self, value: &Expr, idx: Option<usize>) -> Result<Ret, String> {
        let f = struct_fields(value, "SCTP_RESET_STREAMS")?;
        check_fields(
            f,
            &[
                "srs_assoc_id",
                "srs_flags",
                "srs_number_streams",
                "srs_stream_list",
            ],
            "SCTP_RESET_STREAMS",
        )?;
        let flags = field_value(f, "srs_flags")?.unwrap_or(0);
        let n = field_value(f, "srs_number_streams")?.unwrap_or(0);
        let list: Vec<u16> = match f.iter().find(|(k, _)| k == "srs_stream_list") {
            Some((_, Expr::Array(items))) => items
                .iter()
                .map(|e| {
                    eval(e)?.and_then(|v| u16::try_from(v).ok()).ok_or_else(|| {
                        "SCTP_RESET_STREAMS: a stream number out of range".to_string()
                    })
                })
                .collect::<Result<_, _>>()?,
            _ => Vec::new(),
        };
        if usize::try_from(n).ok() != Some(list.len()) {
            return fail(errno::EINVAL);
        }
        if flags & (SCTP_STREAM_RESET_INCOMING | SCTP_STREAM_RESET_OUTGOING) == 0 {
            return fail(errno::EINVAL);
        }
        let l2 = list.clone();
        if flags & SCTP_STREAM_RESET_OUTGOING != 0 {
            let r = self.assoc_call(idx, |a, now| a.reset_streams(now, &list))?;
            if r.value != 0 {
                return Ok(r);
            }
        }
        if flags & SCTP_STREAM_RESET_INCOMING != 0 {
            return self.assoc_call(idx, |a, now| a.request_incoming_reset(now, &l2));
        }
        ok(0)
    }

    /// §6.3.4: `{sas_assoc_id, sas_instrms, sas_outstrms}`.
    fn add_streams_opt(&mut self, value: &Expr, idx: Option<usize>) -> Result<Ret, String> {
        let f = struct_fields(value, "SCTP_ADD_STREAMS")?;
        check_fields(
            f,
            &["sas_assoc_id", "sas_instrms", "sas_outstrms"],
            "SCTP_ADD_STREAMS",
        )?;
        let get = |n: &str| -> Result<u16, String> {
            Ok(field_value(f, n)?
                .and_then(|v| u16::try_from(v).ok())
                .unwrap_or(0))
        };
        let (inc, out) = (get("sas_instrms")?, get("sas_outstrms")?);
        self.assoc_call(idx, |a, now| a.add_streams(now, out, inc))
    }
}
