//! The INIT and INIT ACK chunks (RFC 9260 §3.3.2, §3.3.3).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Type = 1 / 2 |  Chunk Flags  |      Chunk Length             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                         Initiate Tag                          |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |           Advertised Receiver Window Credit (a_rwnd)          |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Number of Outbound Streams   |   Number of Inbound Streams   |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                          Initial TSN                          |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \              Optional/Variable-Length Parameters              \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use std::net::IpAddr;

use super::params::Parameter;
use crate::sctp::bytes::{Reader, Writer};
use crate::sctp::Tsn;
use crate::Result;

/// RFC 9260 §3.3.2: the fixed part of INIT / INIT ACK after the chunk header is 16 bytes
/// (an INIT is at least 20 bytes long).
pub const INIT_FIXED_LEN: usize = 16;

/// The body of an INIT or INIT ACK chunk (RFC 9260 §3.3.2, §3.3.3): both share this layout.
///
/// Parameter values are not checked against the RFC's rules here (Initiate Tag non-zero,
/// stream counts non-zero, State Cookie present in INIT ACK, ...): the association does that
/// and answers as RFC 9260 §3.3.2–3.3.3 and §5.1 require. Chunk flags are reserved and
/// ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InitChunk {
    /// Initiate Tag: the verification tag the receiver must put in every packet it sends.
    pub initiate_tag: u32,
    /// Advertised Receiver Window Credit, in bytes.
    pub a_rwnd: u32,
    /// Number of Outbound Streams the sender wants to open.
    pub outbound_streams: u16,
    /// Maximum Number of Inbound Streams the sender allows.
    pub inbound_streams: u16,
    /// Initial TSN of the sender.
    pub initial_tsn: Tsn,
    /// Optional/variable-length parameters, in order.
    pub params: Vec<Parameter>,
}

impl InitChunk {
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        Ok(InitChunk {
            initiate_tag: r.u32()?,
            a_rwnd: r.u32()?,
            outbound_streams: r.u16()?,
            inbound_streams: r.u16()?,
            initial_tsn: Tsn(r.u32()?),
            params: Parameter::parse_list(r.rest())?,
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        INIT_FIXED_LEN.saturating_add(Parameter::list_len(&self.params))
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.initiate_tag)?;
        w.u32(self.a_rwnd)?;
        w.u16(self.outbound_streams)?;
        w.u16(self.inbound_streams)?;
        w.u32(self.initial_tsn.0)?;
        Parameter::emit_list(&self.params, w)
    }

    /// The State Cookie parameter's value, if present (RFC 9260 §3.3.3: mandatory in INIT ACK).
    pub fn state_cookie(&self) -> Option<&[u8]> {
        self.params.iter().find_map(|p| match p {
            Parameter::StateCookie(cookie) => Some(&cookie[..]),
            _ => None,
        })
    }

    /// The IPv4/IPv6 address parameters, in order (RFC 9260 §3.3.2.1.1–2).
    pub fn addresses(&self) -> impl Iterator<Item = IpAddr> + '_ {
        self.params.iter().filter_map(|p| match p {
            Parameter::Address(addr) => Some(*addr),
            _ => None,
        })
    }

    /// Whether the Forward-TSN-Supported parameter is present (RFC 3758 §3.1).
    pub fn forward_tsn_supported(&self) -> bool {
        self.params
            .iter()
            .any(|p| matches!(p, Parameter::ForwardTsnSupported))
    }

    /// The chunk types listed in a Supported Extensions parameter (RFC 5061 §4.2.7); empty if
    /// there is none.
    pub fn supported_extensions(&self) -> &[u8] {
        self.params
            .iter()
            .find_map(|p| match p {
                Parameter::SupportedExtensions(types) => Some(&types[..]),
                _ => None,
            })
            .unwrap_or(&[])
    }
}
