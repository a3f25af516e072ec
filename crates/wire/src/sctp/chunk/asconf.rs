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
//! ASCONF chunk flags are reserved by RFC 5061 §5.1 ("set to 0 on transmit, ignored on
//! receipt"). Cellular SCTP (Aydin & Shen, "Evaluating Cellular SCTP over One-Hop Wireless
//! Networks", §II) needs a *modified* ASCONF that signals the start of a handoff (with the Add IP
//! of the new address) and its end (with the Delete IP of the old one); the paper does not give
//! an encoding, so sctpsim carries it in two of those reserved flag bits ([`FLAG_HANDOFF_START`],
//! [`FLAG_HANDOFF_END`]). A plain RFC 5061 peer ignores them and processes the chunk as usual.
//!
//! Request parameters are [`Parameter::AddIpAddress`], [`Parameter::DeleteIpAddress`] and
//! [`Parameter::SetPrimaryAddress`]; responses are [`Parameter::SuccessIndication`] and
//! [`Parameter::ErrorCauseIndication`]. Other parameters are parsed and kept in order.

use std::net::IpAddr;

use super::params::{address_tlv_len, read_address_tlv, write_address_tlv, Parameter};
use crate::sctp::bytes::{Reader, Writer};
use crate::Result;

/// ASCONF flag "H": this ASCONF starts a cSCTP handoff (Aydin & Shen §II: the modified
/// ASCONF(add-ip)). A reserved bit of RFC 5061 §5.1, so plain peers ignore it.
pub const FLAG_HANDOFF_START: u8 = 0x01;
/// ASCONF flag "E": this ASCONF ends a cSCTP handoff (Aydin & Shen §II: the modified
/// ASCONF(delete-ip)). A reserved bit of RFC 5061 §5.1, so plain peers ignore it.
pub const FLAG_HANDOFF_END: u8 = 0x02;

/// The cSCTP handoff indication an ASCONF carries in its flags (Aydin & Shen §II).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HandoffIndication {
    /// No flag: a plain RFC 5061 ASCONF.
    #[default]
    None,
    /// [`FLAG_HANDOFF_START`]: the mobile node starts a handoff (sent with the Add IP of the new
    /// address).
    Start,
    /// [`FLAG_HANDOFF_END`]: the mobile node ends a handoff (sent with the Delete IP of the old
    /// address).
    End,
}

impl HandoffIndication {
    /// Reads the indication from the ASCONF flags byte. Both bits together contradict each
    /// other and are read as [`HandoffIndication::None`] (the chunk is then treated as a plain
    /// RFC 5061 ASCONF, which is what a peer without cSCTP does anyway); other bits are ignored
    /// as RFC 5061 §5.1 requires.
    pub fn from_flags(flags: u8) -> Self {
        match flags & (FLAG_HANDOFF_START | FLAG_HANDOFF_END) {
            FLAG_HANDOFF_START => HandoffIndication::Start,
            FLAG_HANDOFF_END => HandoffIndication::End,
            _ => HandoffIndication::None,
        }
    }

    /// The flags byte that carries this indication.
    pub fn flags(self) -> u8 {
        match self {
            HandoffIndication::None => 0,
            HandoffIndication::Start => FLAG_HANDOFF_START,
            HandoffIndication::End => FLAG_HANDOFF_END,
        }
    }
}

/// An ASCONF chunk (RFC 5061 §5.1). The flags carry the cSCTP handoff indication (see the module
/// documentation); every other flag bit is reserved and ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AsconfChunk {
    /// cSCTP handoff indication carried in the flags ([`HandoffIndication::None`] for a plain
    /// RFC 5061 ASCONF).
    pub handoff: HandoffIndication,
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
    pub(crate) fn parse_value(flags: u8, value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let sequence_number = r.u32()?;
        let address = read_address_tlv(&mut r)?;
        Ok(AsconfChunk {
            handoff: HandoffIndication::from_flags(flags),
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
