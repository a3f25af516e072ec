//! SCTP chunks (RFC 9260 §3.2–3.3; RFC 5061 §5; RFC 3758 §3.2; RFC 8260 §2; RFC 6525 §3;
//! NR-SACK): [`ChunkRepr`], an
//! owned representation of every chunk type sctpsim speaks, with `parse` and `emit`.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Chunk Type  | Chunk  Flags  |        Chunk Length           |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                          Chunk Value                          \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! The chunk length counts the header and the value but not the padding to a multiple of 4
//! bytes (RFC 9260 §3.2). Chunk types sctpsim does not model (PAD, anything
//! unassigned) parse as [`ChunkRepr::Unknown`] with their type, flags and
//! value, so they can be reported or skipped as the upper two bits of the type demand
//! ([`UnrecognizedAction`]).
//!
//! Parsing is structural: lengths, counts and fixed fields are checked, values are not (a zero
//! Initiate Tag or a DATA chunk without user data parse fine; the association answers them as
//! the RFC says). Bytes after the fixed fields of a fixed-size chunk are ignored, as real stacks
//! do. Flags that RFC 9260 reserves are ignored on parse and sent as zero.

pub mod asconf;
pub mod auth;
pub mod data;
pub mod error_cause;
pub mod forward_tsn;
pub mod i_data;
pub mod init;
pub mod nr_sack;
pub mod params;
pub mod reconfig;
pub mod sack;

use crate::sctp::bytes::{pad4, Reader, Writer};
use crate::sctp::packet::RawChunk;
use crate::sctp::{Tsn, UnrecognizedAction};
use crate::{Result, WireError};

use asconf::{AsconfAckChunk, AsconfChunk};
use auth::AuthChunk;
use data::DataChunk;
use error_cause::ErrorCause;
use forward_tsn::ForwardTsnChunk;
use i_data::{IDataChunk, IForwardTsnChunk};
use init::InitChunk;
use nr_sack::NrSackChunk;
use params::param_type;
use reconfig::ReconfigChunk;
use sack::SackChunk;

/// Chunk types (RFC 9260 §3.2 and the IANA "Chunk Types" registry).
pub mod chunk_type {
    /// RFC 9260 §3.3.1: Payload Data.
    pub const DATA: u8 = 0;
    /// RFC 9260 §3.3.2: Initiation.
    pub const INIT: u8 = 1;
    /// RFC 9260 §3.3.3: Initiation Acknowledgement.
    pub const INIT_ACK: u8 = 2;
    /// RFC 9260 §3.3.4: Selective Acknowledgement.
    pub const SACK: u8 = 3;
    /// RFC 9260 §3.3.5: Heartbeat Request.
    pub const HEARTBEAT: u8 = 4;
    /// RFC 9260 §3.3.6: Heartbeat Acknowledgement.
    pub const HEARTBEAT_ACK: u8 = 5;
    /// RFC 9260 §3.3.7: Abort.
    pub const ABORT: u8 = 6;
    /// RFC 9260 §3.3.8: Shutdown.
    pub const SHUTDOWN: u8 = 7;
    /// RFC 9260 §3.3.9: Shutdown Acknowledgement.
    pub const SHUTDOWN_ACK: u8 = 8;
    /// RFC 9260 §3.3.10: Operation Error.
    pub const ERROR: u8 = 9;
    /// RFC 9260 §3.3.11: State Cookie.
    pub const COOKIE_ECHO: u8 = 10;
    /// RFC 9260 §3.3.12: Cookie Acknowledgement.
    pub const COOKIE_ACK: u8 = 11;
    /// RFC 9260 §3.2: Reserved for Explicit Congestion Notification Echo (ECNE).
    pub const ECNE: u8 = 12;
    /// RFC 9260 §3.2: Reserved for Congestion Window Reduced (CWR).
    pub const CWR: u8 = 13;
    /// RFC 9260 §3.3.13: Shutdown Complete.
    pub const SHUTDOWN_COMPLETE: u8 = 14;
    /// RFC 4895 §4.2: Authentication.
    pub const AUTH: u8 = 15;
    /// NR-SACK (Natarajan et al., ICNP 2008; draft-natarajan-tsvwg-sctp-nrsack): the value
    /// FreeBSD, usrsctp and Wireshark use (`SCTP_NR_SELECTIVE_ACK`, 0x10).
    pub const NR_SACK: u8 = 0x10;
    /// RFC 8260 §2.1: I-DATA (user message interleaving).
    pub const I_DATA: u8 = 64;
    /// RFC 5061 §5.2: Address Configuration Acknowledgement (0x80).
    pub const ASCONF_ACK: u8 = 0x80;
    /// RFC 6525 §3.1: RE-CONFIG (stream reconfiguration, 0x82).
    pub const RE_CONFIG: u8 = 0x82;
    /// RFC 4820 §3: PAD (not modelled; parsed as [`super::ChunkRepr::Unknown`]).
    pub const PAD: u8 = 0x84;
    /// RFC 3758 §3.2: Forward Cumulative TSN (0xC0).
    pub const FORWARD_TSN: u8 = 0xC0;
    /// RFC 5061 §5.1: Address Configuration Change (0xC1).
    pub const ASCONF: u8 = 0xC1;
    /// RFC 8260 §2.3: I-FORWARD-TSN (0xC2).
    pub const I_FORWARD_TSN: u8 = 0xC2;
}

/// RFC 9260 §3.2: the chunk header (type, flags, length) is 4 bytes.
pub const CHUNK_HEADER_LEN: usize = 4;

/// RFC 9260 §3.3.7 (ABORT) and §3.3.13 (SHUTDOWN COMPLETE): the T bit, set when the sender
/// reflected the receiver's own verification tag instead of the peer's.
pub const FLAG_T: u8 = 0x01;

/// A chunk whose type sctpsim does not model, preserved whole.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnknownChunk {
    /// The chunk type. Must not be a type that has its own [`ChunkRepr`] variant (it would
    /// parse back as that variant).
    pub kind: u8,
    /// The chunk flags, as received.
    pub flags: u8,
    /// The chunk value (after the 4-byte header, without padding).
    pub value: Vec<u8>,
}

impl UnknownChunk {
    /// RFC 9260 §3.2: what the receiver must do with this chunk, from the upper two bits of its
    /// type.
    pub fn action(&self) -> UnrecognizedAction {
        UnrecognizedAction::for_chunk_type(self.kind)
    }
}

/// An SCTP chunk (RFC 9260 §3.3; RFC 5061 §5; RFC 3758 §3.2), owned.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChunkRepr {
    /// RFC 9260 §3.3.1: DATA.
    Data(DataChunk),
    /// RFC 9260 §3.3.2: INIT.
    Init(InitChunk),
    /// RFC 9260 §3.3.3: INIT ACK.
    InitAck(InitChunk),
    /// RFC 9260 §3.3.4: SACK.
    Sack(SackChunk),
    /// RFC 9260 §3.3.5: HEARTBEAT.
    Heartbeat {
        /// The sender-specific value of the Heartbeat Info parameter (type 1), which the peer
        /// echoes unchanged.
        info: Vec<u8>,
    },
    /// RFC 9260 §3.3.6: HEARTBEAT ACK.
    HeartbeatAck {
        /// The Heartbeat Info value copied from the HEARTBEAT.
        info: Vec<u8>,
    },
    /// RFC 9260 §3.3.7: ABORT.
    Abort {
        /// The T bit: the verification tag is reflected.
        t_bit: bool,
        /// Zero or more error causes.
        causes: Vec<ErrorCause>,
    },
    /// RFC 9260 §3.3.8: SHUTDOWN.
    Shutdown {
        /// Cumulative TSN Ack: the last TSN received in sequence.
        cum_tsn_ack: Tsn,
    },
    /// RFC 9260 §3.3.9: SHUTDOWN ACK.
    ShutdownAck,
    /// RFC 9260 §3.3.10: ERROR.
    Error {
        /// One or more error causes.
        causes: Vec<ErrorCause>,
    },
    /// RFC 9260 §3.3.11: COOKIE ECHO.
    CookieEcho {
        /// The State Cookie copied from the INIT ACK.
        cookie: Vec<u8>,
    },
    /// RFC 9260 §3.3.12: COOKIE ACK.
    CookieAck,
    /// ECN Echo (type 12, reserved for ECN by RFC 9260 §3.2; the layout of
    /// draft-stewart-tsvwg-sctpecn §3.1, as Wireshark dissects it: a 32-bit lowest TSN).
    Ecne {
        /// The lowest TSN of the packets that arrived with the CE mark.
        lowest_tsn: Tsn,
    },
    /// Congestion Window Reduced (type 13, reserved for ECN by RFC 9260 §3.2; the layout of
    /// draft-stewart-tsvwg-sctpecn §3.2: a 32-bit lowest TSN).
    Cwr {
        /// The lowest TSN of the ECNE this CWR answers.
        lowest_tsn: Tsn,
    },
    /// RFC 9260 §3.3.13: SHUTDOWN COMPLETE.
    ShutdownComplete {
        /// The T bit: the verification tag is reflected.
        t_bit: bool,
    },
    /// RFC 5061 §5.1: ASCONF.
    Asconf(AsconfChunk),
    /// RFC 5061 §5.2: ASCONF-ACK.
    AsconfAck(AsconfAckChunk),
    /// RFC 3758 §3.2: FORWARD TSN.
    ForwardTsn(ForwardTsnChunk),
    /// RFC 4895 §4.2: AUTH.
    Auth(AuthChunk),
    /// NR-SACK (Natarajan et al., ICNP 2008): a SACK with non-renegable gap blocks.
    NrSack(NrSackChunk),
    /// RFC 8260 §2.1: I-DATA.
    IData(IDataChunk),
    /// RFC 8260 §2.3: I-FORWARD-TSN.
    IForwardTsn(IForwardTsnChunk),
    /// RFC 6525 §3.1: RE-CONFIG.
    Reconfig(ReconfigChunk),
    /// Any other chunk type, preserved.
    Unknown(UnknownChunk),
}

impl ChunkRepr {
    /// The chunk type (RFC 9260 §3.2).
    pub fn kind(&self) -> u8 {
        use chunk_type as t;
        match self {
            ChunkRepr::Data(_) => t::DATA,
            ChunkRepr::Init(_) => t::INIT,
            ChunkRepr::InitAck(_) => t::INIT_ACK,
            ChunkRepr::Sack(_) => t::SACK,
            ChunkRepr::Heartbeat { .. } => t::HEARTBEAT,
            ChunkRepr::HeartbeatAck { .. } => t::HEARTBEAT_ACK,
            ChunkRepr::Abort { .. } => t::ABORT,
            ChunkRepr::Shutdown { .. } => t::SHUTDOWN,
            ChunkRepr::ShutdownAck => t::SHUTDOWN_ACK,
            ChunkRepr::Error { .. } => t::ERROR,
            ChunkRepr::CookieEcho { .. } => t::COOKIE_ECHO,
            ChunkRepr::CookieAck => t::COOKIE_ACK,
            ChunkRepr::Ecne { .. } => t::ECNE,
            ChunkRepr::Cwr { .. } => t::CWR,
            ChunkRepr::ShutdownComplete { .. } => t::SHUTDOWN_COMPLETE,
            ChunkRepr::Asconf(_) => t::ASCONF,
            ChunkRepr::AsconfAck(_) => t::ASCONF_ACK,
            ChunkRepr::ForwardTsn(_) => t::FORWARD_TSN,
            ChunkRepr::Auth(_) => t::AUTH,
            ChunkRepr::NrSack(_) => t::NR_SACK,
            ChunkRepr::IData(_) => t::I_DATA,
            ChunkRepr::IForwardTsn(_) => t::I_FORWARD_TSN,
            ChunkRepr::Reconfig(_) => t::RE_CONFIG,
            ChunkRepr::Unknown(u) => u.kind,
        }
    }

    /// The chunk flags byte as emitted.
    pub fn flags(&self) -> u8 {
        match self {
            ChunkRepr::Data(d) => d.flags(),
            ChunkRepr::IData(d) => d.flags(),
            ChunkRepr::Abort { t_bit: true, .. } | ChunkRepr::ShutdownComplete { t_bit: true } => {
                FLAG_T
            }
            ChunkRepr::Asconf(a) => a.handoff.flags(),
            ChunkRepr::Sack(s) => s.flags(),
            ChunkRepr::NrSack(s) => s.flags(),
            ChunkRepr::Unknown(u) => u.flags,
            _ => 0,
        }
    }

    /// Parses a chunk delimited by [`crate::sctp::SctpPacket::chunks`] or
    /// [`RawChunk::new_checked`].
    ///
    /// Errors: [`WireError::Truncated`] if a fixed field, a count or a nested TLV runs past the
    /// chunk length; [`WireError::Malformed`] for impossible nested values (a TLV length below
    /// 4, a HEARTBEAT whose parameter is not Heartbeat Info, an ASCONF without an address
    /// parameter, ...).
    pub fn parse(chunk: &RawChunk<'_>) -> Result<ChunkRepr> {
        use chunk_type as t;
        let value = chunk.value();
        let flags = chunk.flags();
        let mut r = Reader::new(value);
        Ok(match chunk.kind() {
            t::DATA => ChunkRepr::Data(DataChunk::parse_value(flags, value)?),
            t::INIT => ChunkRepr::Init(InitChunk::parse_value(value)?),
            t::INIT_ACK => ChunkRepr::InitAck(InitChunk::parse_value(value)?),
            t::SACK => ChunkRepr::Sack(SackChunk::parse_value(flags, value)?),
            t::HEARTBEAT => ChunkRepr::Heartbeat {
                info: parse_heartbeat_info(value)?,
            },
            t::HEARTBEAT_ACK => ChunkRepr::HeartbeatAck {
                info: parse_heartbeat_info(value)?,
            },
            t::ABORT => ChunkRepr::Abort {
                t_bit: flags & FLAG_T != 0,
                causes: ErrorCause::parse_list_prefix(value),
            },
            t::SHUTDOWN => ChunkRepr::Shutdown {
                cum_tsn_ack: Tsn(r.u32()?),
            },
            t::SHUTDOWN_ACK => ChunkRepr::ShutdownAck,
            t::ERROR => ChunkRepr::Error {
                causes: ErrorCause::parse_list_prefix(value),
            },
            t::COOKIE_ECHO => ChunkRepr::CookieEcho {
                cookie: value.to_vec(),
            },
            t::COOKIE_ACK => ChunkRepr::CookieAck,
            t::ECNE => ChunkRepr::Ecne {
                lowest_tsn: Tsn(r.u32()?),
            },
            t::CWR => ChunkRepr::Cwr {
                lowest_tsn: Tsn(r.u32()?),
            },
            t::SHUTDOWN_COMPLETE => ChunkRepr::ShutdownComplete {
                t_bit: flags & FLAG_T != 0,
            },
            t::ASCONF => ChunkRepr::Asconf(AsconfChunk::parse_value(flags, value)?),
            t::ASCONF_ACK => ChunkRepr::AsconfAck(AsconfAckChunk::parse_value(value)?),
            t::FORWARD_TSN => ChunkRepr::ForwardTsn(ForwardTsnChunk::parse_value(value)?),
            t::AUTH => ChunkRepr::Auth(AuthChunk::parse_value(value)?),
            t::NR_SACK => ChunkRepr::NrSack(NrSackChunk::parse_value(flags, value)?),
            t::I_DATA => ChunkRepr::IData(IDataChunk::parse_value(flags, value)?),
            t::I_FORWARD_TSN => ChunkRepr::IForwardTsn(IForwardTsnChunk::parse_value(value)?),
            t::RE_CONFIG => ChunkRepr::Reconfig(ReconfigChunk::parse_value(value)?),
            kind => ChunkRepr::Unknown(UnknownChunk {
                kind,
                flags,
                value: value.to_vec(),
            }),
        })
    }

    /// Length of the chunk value as counted by the Chunk Length field (header excluded).
    fn value_len(&self) -> usize {
        match self {
            ChunkRepr::Data(d) => d.value_len(),
            ChunkRepr::Init(i) | ChunkRepr::InitAck(i) => i.value_len(),
            ChunkRepr::Sack(s) => s.value_len(),
            ChunkRepr::Heartbeat { info } | ChunkRepr::HeartbeatAck { info } => {
                4usize.saturating_add(info.len())
            }
            ChunkRepr::Abort { causes, .. } | ChunkRepr::Error { causes } => {
                ErrorCause::list_len(causes)
            }
            ChunkRepr::Shutdown { .. } | ChunkRepr::Ecne { .. } | ChunkRepr::Cwr { .. } => 4,
            ChunkRepr::ShutdownAck | ChunkRepr::CookieAck | ChunkRepr::ShutdownComplete { .. } => 0,
            ChunkRepr::CookieEcho { cookie } => cookie.len(),
            ChunkRepr::Asconf(a) => a.value_len(),
            ChunkRepr::AsconfAck(a) => a.value_len(),
            ChunkRepr::ForwardTsn(f) => f.value_len(),
            ChunkRepr::Auth(a) => a.value_len(),
            ChunkRepr::NrSack(s) => s.value_len(),
            ChunkRepr::IData(d) => d.value_len(),
            ChunkRepr::IForwardTsn(f) => f.value_len(),
            ChunkRepr::Reconfig(r) => r.value_len(),
            ChunkRepr::Unknown(u) => u.value.len(),
        }
    }

    /// The value of the Chunk Length field: header plus value, without padding (RFC 9260 §3.2).
    pub fn chunk_len(&self) -> usize {
        CHUNK_HEADER_LEN.saturating_add(self.value_len())
    }

    /// Bytes the chunk occupies in a packet: [`ChunkRepr::chunk_len`] padded to a multiple of
    /// 4 (RFC 9260 §3.2). Use it to decide what fits in a packet when bundling.
    pub fn buffer_len(&self) -> usize {
        pad4(self.chunk_len())
    }

    /// Writes the chunk, padded, at the start of `buf` and returns the bytes written
    /// ([`ChunkRepr::buffer_len`]).
    ///
    /// Errors: [`WireError::Truncated`] if `buf` is shorter than [`ChunkRepr::buffer_len`],
    /// [`WireError::Malformed`] if a length or count does not fit its field (a chunk longer
    /// than 65535 bytes, more than 65535 gap blocks, ...). Bytes already written are then
    /// unspecified.
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize> {
        let mut w = Writer::new(buf);
        self.emit_into(&mut w)?;
        Ok(w.pos())
    }

    pub(crate) fn emit_into(&self, w: &mut Writer<'_>) -> Result<()> {
        let start = w.pos();
        let len = u16::try_from(self.chunk_len()).map_err(|_| WireError::Malformed)?;
        w.u8(self.kind())?;
        w.u8(self.flags())?;
        w.u16(len)?;
        match self {
            ChunkRepr::Data(d) => d.emit_value(w)?,
            ChunkRepr::Init(i) | ChunkRepr::InitAck(i) => i.emit_value(w)?,
            ChunkRepr::Sack(s) => s.emit_value(w)?,
            ChunkRepr::Heartbeat { info } | ChunkRepr::HeartbeatAck { info } => {
                w.tlv(param_type::HEARTBEAT_INFO, info)?
            }
            ChunkRepr::Abort { causes, .. } | ChunkRepr::Error { causes } => {
                ErrorCause::emit_list(causes, w)?
            }
            ChunkRepr::Shutdown { cum_tsn_ack: tsn }
            | ChunkRepr::Ecne { lowest_tsn: tsn }
            | ChunkRepr::Cwr { lowest_tsn: tsn } => w.u32(tsn.0)?,
            ChunkRepr::ShutdownAck | ChunkRepr::CookieAck | ChunkRepr::ShutdownComplete { .. } => {}
            ChunkRepr::CookieEcho { cookie } => w.put(cookie)?,
            ChunkRepr::Asconf(a) => a.emit_value(w)?,
            ChunkRepr::AsconfAck(a) => a.emit_value(w)?,
            ChunkRepr::ForwardTsn(f) => f.emit_value(w)?,
            ChunkRepr::Auth(a) => a.emit_value(w)?,
            ChunkRepr::NrSack(s) => s.emit_value(w)?,
            ChunkRepr::IData(d) => d.emit_value(w)?,
            ChunkRepr::IForwardTsn(f) => f.emit_value(w)?,
            ChunkRepr::Reconfig(r) => r.emit_value(w)?,
            ChunkRepr::Unknown(u) => w.put(&u.value)?,
        }
        // A trailing TLV already wrote its padding; this adds whatever is still missing.
        w.pad_from(start)?;
        debug_assert_eq!(w.pos() - start, self.buffer_len());
        Ok(())
    }

    /// The chunk as bytes, padded ([`ChunkRepr::buffer_len`] long).
    ///
    /// Errors: [`WireError::Malformed`] as for [`ChunkRepr::emit`].
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.buffer_len()];
        self.emit(&mut out)?;
        Ok(out)
    }
}

/// RFC 9260 §3.3.5: the HEARTBEAT value is one Heartbeat Info parameter (type 1); returns its
/// sender-specific information. Bytes after that parameter are ignored.
fn parse_heartbeat_info(value: &[u8]) -> Result<Vec<u8>> {
    let (kind, info, _) = Reader::new(value).tlv()?;
    if kind != param_type::HEARTBEAT_INFO {
        return Err(WireError::Malformed);
    }
    Ok(info.to_vec())
}
