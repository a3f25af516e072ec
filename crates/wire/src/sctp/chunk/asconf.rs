//! The ASCONF and ASCONF-ACK chunks (RFC 5061 §5.1, §5.2): dynamic address reconfiguration.
//!
//! ```text
//!  ASCONF (RFC 5061 §5.1)
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Type = 0xC1   |  Chunk Flags  |      Chunk Length             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                       Sequence Number                         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                    Address Parameter                          |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                     ASCONF Parameter #1                       |
//! /                             ....                              /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//!
//!  ASCONF-ACK (RFC 5061 §5.2)
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Type = 0x80   |  Chunk Flags  |      Chunk Length             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                       Sequence Number                         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                 ASCONF Parameter Response #1                  |
//! /                             ....                              /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! Request parameters are [`Parameter::AddIpAddress`], [`Parameter::DeleteIpAddress`] and
//! [`Parameter::SetPrimaryAddress`]; responses are [`Parameter::SuccessIndication`] and
//! [`Parameter::ErrorCauseIndication`]. Other parameters are parsed and kept in order.

use std::net::IpAddr;

use super::params::{address_tlv_len, read_address_tlv, write_address_tlv, Parameter};
use crate::sctp::bytes::{Reader, Writer};
use crate::Result;

/// An ASCONF chunk (RFC 5061 §5.1). Flags are reserved and ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AsconfChunk {
    /// Sequence Number of this ASCONF (serial arithmetic, RFC 5061 §5.1).
    pub sequence_number: u32,
    /// The mandatory Address Parameter: an address of the sender, used by the receiver to find
    /// the association (RFC 5061 §5.1).
    pub address: IpAddr,
    /// The ASCONF parameters, in order.
    pub params: Vec<Parameter>,
}

impl AsconfChunk {
    /// The first TLV must be an IPv4 or IPv6 address parameter ([`crate::WireError::Malformed`]
    /// otherwise).
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let sequence_number = r.u32()?;
        let address = read_address_tlv(&mut r)?;
        Ok(AsconfChunk {
            sequence_number,
            address,
            params: Parameter::parse_list(r.rest())?,
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        (4 + address_tlv_len(&self.address)).saturating_add(Parameter::list_len(&self.params))
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.sequence_number)?;
        write_address_tlv(w, &self.address)?;
        Parameter::emit_list(&self.params, w)
    }
}

/// An ASCONF-ACK chunk (RFC 5061 §5.2). Flags are reserved and ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AsconfAckChunk {
    /// Sequence Number of the ASCONF being acknowledged.
    pub sequence_number: u32,
    /// The responses, in order.
    pub params: Vec<Parameter>,
}

impl AsconfAckChunk {
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        Ok(AsconfAckChunk {
            sequence_number: r.u32()?,
            params: Parameter::parse_list(r.rest())?,
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        4usize.saturating_add(Parameter::list_len(&self.params))
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.sequence_number)?;
        Parameter::emit_list(&self.params, w)
    }
}
