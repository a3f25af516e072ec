//! Mobile IPv4 wire formats: agent discovery (RFC 5944 §2, carried in ICMP router discovery
//! messages of RFC 1256), registration (RFC 5944 §3, carried in UDP to port 434) and the IP in IP
//! tunnel of RFC 2003 that a home agent uses to deliver datagrams to a care-of address.
//!
//! Only the formats live here; the agents themselves are protocol logic for another crate.
//!
//! * [`advert`]: [`AgentAdvertisementPacket`] / [`AgentAdvertisementRepr`] (ICMP type 9 with the
//!   Mobility Agent Advertisement and Prefix-Lengths extensions) and [`AgentSolicitationRepr`]
//!   (ICMP type 10);
//! * [`registration`]: [`RegistrationRequestPacket`] / [`RegistrationRequestRepr`],
//!   [`RegistrationReplyPacket`] / [`RegistrationReplyRepr`], [`ReplyCode`] and the registration
//!   [`Extension`]s (Mobile-Home Authentication and any unknown ones, kept verbatim);
//! * [`ipip`]: [`ipip_encapsulate`] and [`ipip_decapsulate`].

pub mod advert;
pub mod ipip;
pub mod registration;

pub use advert::{
    AdvertExtension, AgentAdvertisementPacket, AgentAdvertisementRepr, AgentFlags,
    AgentSolicitationRepr, MobilityAgentExtension, RouterEntry,
};
pub use ipip::{ipip_decapsulate, ipip_encapsulate};
pub use registration::{
    Extension, RegistrationFlags, RegistrationMessage, RegistrationReplyPacket,
    RegistrationReplyRepr, RegistrationRequestPacket, RegistrationRequestRepr, ReplyCode,
};

/// RFC 5944 §3.1: registration messages go to this well-known UDP port, so that a foreign or home
/// agent finds them without any prior configuration of the mobile node's port.
pub const REGISTRATION_PORT: u16 = 434;

/// Reads the TLV extensions common to agent advertisements and registration messages (RFC 5944
/// §1.9: one byte of type, one byte of length counting only the data), and the one-byte Pad
/// extension of agent advertisements (RFC 5944 §2.1.3) when `pad_allowed`. Each item is
/// `(type, data)`; a Pad is returned as `(0, [])`.
pub(crate) struct TlvIter<'a> {
    rest: &'a [u8],
    pad_allowed: bool,
}

impl<'a> TlvIter<'a> {
    pub(crate) fn new(bytes: &'a [u8], pad_allowed: bool) -> Self {
        TlvIter {
            rest: bytes,
            pad_allowed,
        }
    }
}

impl<'a> Iterator for TlvIter<'a> {
    type Item = crate::Result<(u8, &'a [u8])>;

    fn next(&mut self) -> Option<Self::Item> {
        let (&kind, after_type) = self.rest.split_first()?;
        if self.pad_allowed && kind == advert::PAD_EXTENSION_TYPE {
            self.rest = after_type;
            return Some(Ok((kind, &[])));
        }
        let Some((&len, after_len)) = after_type.split_first() else {
            self.rest = &[];
            return Some(Err(crate::WireError::Truncated));
        };
        let Some(data) = after_len.get(..usize::from(len)) else {
            self.rest = &[];
            return Some(Err(crate::WireError::Truncated));
        };
        self.rest = &after_len[usize::from(len)..];
        Some(Ok((kind, data)))
    }
}

/// Writes one TLV at the start of `out` and returns its length. Data longer than the 8-bit
/// length field allows (255 bytes) is cut to 255 bytes, matching [`tlv_len`].
pub(crate) fn emit_tlv(out: &mut [u8], kind: u8, data: &[u8]) -> usize {
    let data = &data[..data.len().min(usize::from(u8::MAX))];
    out[0] = kind;
    out[1] = data.len() as u8;
    out[2..2 + data.len()].copy_from_slice(data);
    2 + data.len()
}

/// Emitted length of a TLV with `data_len` bytes of data (see [`emit_tlv`]).
pub(crate) fn tlv_len(data_len: usize) -> usize {
    2 + data_len.min(usize::from(u8::MAX))
}

pub(crate) fn read_addr(data: &[u8], at: usize) -> std::net::Ipv4Addr {
    std::net::Ipv4Addr::new(data[at], data[at + 1], data[at + 2], data[at + 3])
}

pub(crate) fn write_addr(data: &mut [u8], at: usize, addr: std::net::Ipv4Addr) {
    data[at..at + 4].copy_from_slice(&addr.octets());
}
