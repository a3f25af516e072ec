//! The RE-CONFIG chunk and its parameters (RFC 6525 §3.1, §4): stream reconfiguration.
//!
//! ```text
//!  RE-CONFIG (RFC 6525 §3.1)
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Type = 130    |  Chunk Flags  |      Chunk Length             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                  Re-configuration Parameter                   /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \             Re-configuration Parameter (optional)             /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//!
//!  Outgoing SSN Reset Request (type 13, RFC 6525 §4.1)
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |     Parameter Type = 13       | Parameter Length = 16 + 2 * N |
//! |           Re-configuration Request Sequence Number            |
//! |           Re-configuration Response Sequence Number           |
//! |                Sender's Last Assigned TSN                     |
//! |  Stream Number 1 (optional)   |    Stream Number 2 (optional) |
//! /                            ......                             /
//!
//!  Incoming SSN Reset Request (type 14, §4.2): request seq, stream numbers.
//!  SSN/TSN Reset Request (type 15, §4.3): request seq.
//!  Re-configuration Response (type 16, §4.4): response seq, result, and optionally the
//!      Sender's Next TSN and Receiver's Next TSN (answers to an SSN/TSN Reset Request).
//!  Add Outgoing Streams Request (type 17, §4.5) and Add Incoming Streams Request (type 18,
//!      §4.6): request seq, number of new streams (16 bits), reserved (16 bits).
//! ```
//!
//! RFC 6525 §3.1: the chunk carries one or two parameters; chunk flags are "set to 0 on
//! transmit and ignored on receipt". Parsing is structural: any number of parameters parse, a
//! parameter of another type is kept as [`ReconfigParam::Unknown`], and which combinations are
//! allowed is for the association to judge. A Stream Number list with an odd trailing byte
//! ignores that byte; a Response with only one of the two optional TSNs ignores it.

use crate::sctp::bytes::{tlv_list_len, Reader, Writer};
use crate::sctp::Tsn;
use crate::{Result, WireError};

/// Re-configuration parameter types (RFC 6525 §4, IANA "Chunk Parameter Types").
pub mod reconfig_param_type {
    /// RFC 6525 §4.1: Outgoing SSN Reset Request.
    pub const OUTGOING_SSN_RESET: u16 = 13;
    /// RFC 6525 §4.2: Incoming SSN Reset Request.
    pub const INCOMING_SSN_RESET: u16 = 14;
    /// RFC 6525 §4.3: SSN/TSN Reset Request.
    pub const SSN_TSN_RESET: u16 = 15;
    /// RFC 6525 §4.4: Re-configuration Response.
    pub const RESPONSE: u16 = 16;
    /// RFC 6525 §4.5: Add Outgoing Streams Request.
    pub const ADD_OUTGOING_STREAMS: u16 = 17;
    /// RFC 6525 §4.6: Add Incoming Streams Request.
    pub const ADD_INCOMING_STREAMS: u16 = 18;
}

/// The Result field of a Re-configuration Response (RFC 6525 §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReconfigResult {
    /// 0: Success - Nothing to do.
    NothingToDo,
    /// 1: Success - Performed.
    Performed,
    /// 2: Denied.
    Denied,
    /// 3: Error - Wrong SSN.
    WrongSsn,
    /// 4: Error - Request already in progress.
    AlreadyInProgress,
    /// 5: Error - Bad Sequence Number.
    BadSequenceNumber,
    /// 6: In progress.
    InProgress,
    /// Any other value, kept.
    Other(u32),
}

impl ReconfigResult {
    /// The wire value (RFC 6525 §4.4).
    pub fn code(self) -> u32 {
        match self {
            ReconfigResult::NothingToDo => 0,
            ReconfigResult::Performed => 1,
            ReconfigResult::Denied => 2,
            ReconfigResult::WrongSsn => 3,
            ReconfigResult::AlreadyInProgress => 4,
            ReconfigResult::BadSequenceNumber => 5,
            ReconfigResult::InProgress => 6,
            ReconfigResult::Other(c) => c,
        }
    }

    /// The result for a wire value.
    pub fn from_code(code: u32) -> Self {
        match code {
            0 => ReconfigResult::NothingToDo,
            1 => ReconfigResult::Performed,
            2 => ReconfigResult::Denied,
            3 => ReconfigResult::WrongSsn,
            4 => ReconfigResult::AlreadyInProgress,
            5 => ReconfigResult::BadSequenceNumber,
            6 => ReconfigResult::InProgress,
            c => ReconfigResult::Other(c),
        }
    }

    /// A short name (as in the results and the docs).
    pub fn name(self) -> &'static str {
        match self {
            ReconfigResult::NothingToDo => "nothing-to-do",
            ReconfigResult::Performed => "performed",
            ReconfigResult::Denied => "denied",
            ReconfigResult::WrongSsn => "wrong-ssn",
            ReconfigResult::AlreadyInProgress => "already-in-progress",
            ReconfigResult::BadSequenceNumber => "bad-sequence-number",
            ReconfigResult::InProgress => "in-progress",
            ReconfigResult::Other(_) => "other",
        }
    }
}

/// One re-configuration parameter (RFC 6525 §4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReconfigParam {
    /// §4.1: the sender resets its outgoing streams (empty list: all of them).
    OutgoingSsnReset {
        /// Re-configuration Request Sequence Number.
        request_seq: u32,
        /// Re-configuration Response Sequence Number: the request this one answers
        /// implicitly (an Incoming SSN Reset Request), else the next expected minus one.
        response_seq: u32,
        /// Sender's Last Assigned TSN.
        last_tsn: Tsn,
        /// The streams; empty means all.
        streams: Vec<u16>,
    },
    /// §4.2: the sender asks the receiver to reset its outgoing streams (empty: all).
    IncomingSsnReset {
        /// Re-configuration Request Sequence Number.
        request_seq: u32,
        /// The streams; empty means all.
        streams: Vec<u16>,
    },
    /// §4.3: reset every SSN and the TSNs in both directions.
    SsnTsnReset {
        /// Re-configuration Request Sequence Number.
        request_seq: u32,
    },
    /// §4.4: the answer to a request.
    Response {
        /// The Request Sequence Number this answers.
        response_seq: u32,
        /// The result.
        result: ReconfigResult,
        /// Sender's Next TSN and Receiver's Next TSN (both or neither; an answer to an
        /// SSN/TSN Reset Request that was performed).
        next_tsns: Option<(Tsn, Tsn)>,
    },
    /// §4.5: the sender adds outgoing streams.
    AddOutgoingStreams {
        /// Re-configuration Request Sequence Number.
        request_seq: u32,
        /// Number of new streams.
        new_streams: u16,
    },
    /// §4.6: the sender asks the receiver to add outgoing streams (its own incoming).
    AddIncomingStreams {
        /// Re-configuration Request Sequence Number.
        request_seq: u32,
        /// Number of new streams.
        new_streams: u16,
    },
    /// Any other parameter type, preserved.
    Unknown {
        /// The parameter type.
        kind: u16,
        /// The value (after the 4-byte header, without padding).
        value: Vec<u8>,
    },
}

impl ReconfigParam {
    /// The parameter type.
    pub fn kind(&self) -> u16 {
        use reconfig_param_type as t;
        match self {
            ReconfigParam::OutgoingSsnReset { .. } => t::OUTGOING_SSN_RESET,
            ReconfigParam::IncomingSsnReset { .. } => t::INCOMING_SSN_RESET,
            ReconfigParam::SsnTsnReset { .. } => t::SSN_TSN_RESET,
            ReconfigParam::Response { .. } => t::RESPONSE,
            ReconfigParam::AddOutgoingStreams { .. } => t::ADD_OUTGOING_STREAMS,
            ReconfigParam::AddIncomingStreams { .. } => t::ADD_INCOMING_STREAMS,
            ReconfigParam::Unknown { kind, .. } => *kind,
        }
    }

    /// The request sequence number of a request parameter (`None` for a response or an
    /// unknown parameter).
    pub fn request_seq(&self) -> Option<u32> {
        match self {
            ReconfigParam::OutgoingSsnReset { request_seq, .. }
            | ReconfigParam::IncomingSsnReset { request_seq, .. }
            | ReconfigParam::SsnTsnReset { request_seq }
            | ReconfigParam::AddOutgoingStreams { request_seq, .. }
            | ReconfigParam::AddIncomingStreams { request_seq, .. } => Some(*request_seq),
            ReconfigParam::Response { .. } | ReconfigParam::Unknown { .. } => None,
        }
    }

    /// The Parameter Length field: header and value, without padding.
    pub fn param_len(&self) -> usize {
        let value = match self {
            ReconfigParam::OutgoingSsnReset { streams, .. } => {
                12usize.saturating_add(streams.len().saturating_mul(2))
            }
            ReconfigParam::IncomingSsnReset { streams, .. } => {
                4usize.saturating_add(streams.len().saturating_mul(2))
            }
            ReconfigParam::SsnTsnReset { .. } => 4,
            ReconfigParam::Response { next_tsns, .. } => {
                if next_tsns.is_some() {
                    16
                } else {
                    8
                }
            }
            ReconfigParam::AddOutgoingStreams { .. } | ReconfigParam::AddIncomingStreams { .. } => {
                8
            }
            ReconfigParam::Unknown { value, .. } => value.len(),
        };
        4usize.saturating_add(value)
    }

    fn parse(kind: u16, value: &[u8]) -> Result<Self> {
        use reconfig_param_type as t;
        let mut r = Reader::new(value);
        let streams = |r: &mut Reader<'_>| -> Vec<u16> {
            let mut out = Vec::new();
            while let Ok(s) = r.u16() {
                out.push(s);
            }
            out
        };
        Ok(match kind {
            t::OUTGOING_SSN_RESET => {
                let request_seq = r.u32()?;
                let response_seq = r.u32()?;
                let last_tsn = Tsn(r.u32()?);
                ReconfigParam::OutgoingSsnReset {
                    request_seq,
                    response_seq,
                    last_tsn,
                    streams: streams(&mut r),
                }
            }
            t::INCOMING_SSN_RESET => {
                let request_seq = r.u32()?;
                ReconfigParam::IncomingSsnReset {
                    request_seq,
                    streams: streams(&mut r),
                }
            }
            t::SSN_TSN_RESET => ReconfigParam::SsnTsnReset {
                request_seq: r.u32()?,
            },
            t::RESPONSE => {
                let response_seq = r.u32()?;
                let result = ReconfigResult::from_code(r.u32()?);
                let next_tsns = match (r.u32(), r.u32()) {
                    (Ok(s), Ok(rcv)) => Some((Tsn(s), Tsn(rcv))),
                    _ => None,
                };
                ReconfigParam::Response {
                    response_seq,
                    result,
                    next_tsns,
                }
            }
            t::ADD_OUTGOING_STREAMS | t::ADD_INCOMING_STREAMS => {
                let request_seq = r.u32()?;
                let new_streams = r.u16()?;
                // Reserved: "MUST be set to 0 ... ignored on receipt"; may be absent.
                if kind == t::ADD_OUTGOING_STREAMS {
                    ReconfigParam::AddOutgoingStreams {
                        request_seq,
                        new_streams,
                    }
                } else {
                    ReconfigParam::AddIncomingStreams {
                        request_seq,
                        new_streams,
                    }
                }
            }
            kind => ReconfigParam::Unknown {
                kind,
                value: value.to_vec(),
            },
        })
    }

    fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        let start = w.pos();
        w.tlv_header(self.kind(), self.param_len())?;
        match self {
            ReconfigParam::OutgoingSsnReset {
                request_seq,
                response_seq,
                last_tsn,
                streams,
            } => {
                w.u32(*request_seq)?;
                w.u32(*response_seq)?;
                w.u32(last_tsn.0)?;
                for s in streams {
                    w.u16(*s)?;
                }
            }
            ReconfigParam::IncomingSsnReset {
                request_seq,
                streams,
            } => {
                w.u32(*request_seq)?;
                for s in streams {
                    w.u16(*s)?;
                }
            }
            ReconfigParam::SsnTsnReset { request_seq } => w.u32(*request_seq)?,
            ReconfigParam::Response {
                response_seq,
                result,
                next_tsns,
            } => {
                w.u32(*response_seq)?;
                w.u32(result.code())?;
                if let Some((s, r)) = next_tsns {
                    w.u32(s.0)?;
                    w.u32(r.0)?;
                }
            }
            ReconfigParam::AddOutgoingStreams {
                request_seq,
                new_streams,
            }
            | ReconfigParam::AddIncomingStreams {
                request_seq,
                new_streams,
            } => {
                w.u32(*request_seq)?;
                w.u16(*new_streams)?;
                w.u16(0)?;
            }
            ReconfigParam::Unknown { value, .. } => w.put(value)?,
        }
        w.pad_from(start)
    }
}

/// A RE-CONFIG chunk (RFC 6525 §3.1). Flags are reserved: ignored on parse, sent as zero.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReconfigChunk {
    /// The parameters, in order (one or two in a valid chunk).
    pub params: Vec<ReconfigParam>,
}

impl ReconfigChunk {
    /// Errors: [`WireError::Truncated`] when a parameter runs past the chunk or misses a
    /// fixed field; [`WireError::Malformed`] for a parameter length below 4; an empty chunk
    /// ([`WireError::Truncated`]: §3.1 requires at least one parameter).
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let mut params = Vec::new();
        while !r.is_empty() {
            let (kind, v, _) = r.tlv()?;
            params.push(ReconfigParam::parse(kind, v)?);
        }
        if params.is_empty() {
            return Err(WireError::Truncated);
        }
        Ok(ReconfigChunk { params })
    }

    pub(crate) fn value_len(&self) -> usize {
        tlv_list_len(self.params.iter().map(ReconfigParam::param_len))
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        // Every parameter is written padded; the last one's padding is the chunk's own (not
        // counted by the chunk length, RFC 9260 §3.2).
        self.params.iter().try_for_each(|p| p.emit(w))
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::sctp::packet::RawChunk;
    use crate::sctp::ChunkRepr;

    fn round_trip(chunk: &ReconfigChunk, bytes: &[u8]) {
        let repr = ChunkRepr::Reconfig(chunk.clone());
        assert_eq!(repr.to_bytes().unwrap(), bytes);
        let raw = RawChunk::new_checked(bytes).unwrap();
        assert_eq!(ChunkRepr::parse(&raw).unwrap(), repr);
    }

    #[test]
    fn outgoing_reset_with_odd_stream_count_is_padded() {
        let chunk = ReconfigChunk {
            params: vec![ReconfigParam::OutgoingSsnReset {
                request_seq: 0x0102_0304,
                response_seq: 0x0a0b_0c0d,
                last_tsn: Tsn(99),
                streams: vec![1, 7, 0x1234],
            }],
        };
        let bytes = [
            0x82, 0, 0, 26, // type, flags, length 4 + 22
            0, 13, 0, 22, // param type 13, length 16 + 6
            1, 2, 3, 4, // request seq
            0x0a, 0x0b, 0x0c, 0x0d, // response seq
            0, 0, 0, 99, // last TSN
            0, 1, 0, 7, 0x12, 0x34, 0, 0, // streams, padding
        ];
        round_trip(&chunk, &bytes);
    }

    #[test]
    fn incoming_and_add_streams_bundle() {
        let chunk = ReconfigChunk {
            params: vec![
                ReconfigParam::IncomingSsnReset {
                    request_seq: 5,
                    streams: vec![3],
                },
                ReconfigParam::AddIncomingStreams {
                    request_seq: 6,
                    new_streams: 2,
                },
            ],
        };
        let bytes = [
            0x82, 0, 0, 28, // length 4 + 10 + 2 (padding of the first) + 12
            0, 14, 0, 10, 0, 0, 0, 5, 0, 3, 0, 0, // incoming reset of stream 3, padding
            0, 18, 0, 12, 0, 0, 0, 6, 0, 2, 0, 0, // add 2 incoming streams
        ];
        round_trip(&chunk, &bytes);
        // Add Outgoing Streams: the same layout with type 17; reserved ignored on parse.
        let mut out = [0x82u8, 0, 0, 16, 0, 17, 0, 12, 0, 0, 0, 9, 0, 4, 0xff, 0xff];
        let raw = RawChunk::new_checked(&out[..]).unwrap();
        assert_eq!(
            ChunkRepr::parse(&raw).unwrap(),
            ChunkRepr::Reconfig(ReconfigChunk {
                params: vec![ReconfigParam::AddOutgoingStreams {
                    request_seq: 9,
                    new_streams: 4
                }]
            })
        );
        out[14] = 0;
        out[15] = 0;
        round_trip(
            &ReconfigChunk {
                params: vec![ReconfigParam::AddOutgoingStreams {
                    request_seq: 9,
                    new_streams: 4,
                }],
            },
            &out,
        );
    }

    #[test]
    fn ssn_tsn_reset_and_responses() {
        round_trip(
            &ReconfigChunk {
                params: vec![ReconfigParam::SsnTsnReset { request_seq: 42 }],
            },
            &[0x82, 0, 0, 12, 0, 15, 0, 8, 0, 0, 0, 42],
        );
        round_trip(
            &ReconfigChunk {
                params: vec![ReconfigParam::Response {
                    response_seq: 42,
                    result: ReconfigResult::Performed,
                    next_tsns: Some((Tsn(0x8000_0001), Tsn(7))),
                }],
            },
            &[
                0x82, 0, 0, 24, 0, 16, 0, 20, 0, 0, 0, 42, 0, 0, 0, 1, 0x80, 0, 0, 1, 0, 0, 0, 7,
            ],
        );
        for (code, result) in [
            (0, ReconfigResult::NothingToDo),
            (2, ReconfigResult::Denied),
            (3, ReconfigResult::WrongSsn),
            (4, ReconfigResult::AlreadyInProgress),
            (5, ReconfigResult::BadSequenceNumber),
            (6, ReconfigResult::InProgress),
            (77, ReconfigResult::Other(77)),
        ] {
            round_trip(
                &ReconfigChunk {
                    params: vec![ReconfigParam::Response {
                        response_seq: 1,
                        result,
                        next_tsns: None,
                    }],
                },
                &[0x82, 0, 0, 16, 0, 16, 0, 12, 0, 0, 0, 1, 0, 0, 0, code],
            );
        }
    }

    #[test]
    fn truncated_and_empty_are_errors() {
        // No parameter at all.
        let raw = RawChunk::new_checked(&[0x82u8, 0, 0, 4][..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw), Err(WireError::Truncated));
        // An Outgoing SSN Reset without its Last Assigned TSN.
        let short = [0x82u8, 0, 0, 16, 0, 13, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0];
        let raw = RawChunk::new_checked(&short[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw), Err(WireError::Truncated));
        // A parameter length below 4.
        let bad = [0x82u8, 0, 0, 8, 0, 15, 0, 2];
        let raw = RawChunk::new_checked(&bad[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw), Err(WireError::Malformed));
        // An unknown parameter is kept.
        let unknown = [0x82u8, 0, 0, 12, 0, 99, 0, 8, 1, 2, 3, 4];
        let raw = RawChunk::new_checked(&unknown[..]).unwrap();
        assert_eq!(
            ChunkRepr::parse(&raw).unwrap(),
            ChunkRepr::Reconfig(ReconfigChunk {
                params: vec![ReconfigParam::Unknown {
                    kind: 99,
                    value: vec![1, 2, 3, 4]
                }]
            })
        );
    }
}
