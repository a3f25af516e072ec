//! Chunk parameters (RFC 9260 §3.2.1): the optional/variable-length parameters of INIT and INIT
//! ACK (RFC 9260 §3.3.2.1, §3.3.3.1; RFC 3758 §3.1; RFC 5061 §4.2.6–4.2.7) and the parameters of
//! ASCONF and ASCONF-ACK (RFC 5061 §4.2).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |        Parameter Type         |       Parameter Length        |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                       Parameter Value                         \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! One enum, [`Parameter`], covers every parameter type sctpsim understands, whichever chunk it
//! appears in (the IANA registry is a single type space); which ones are allowed in which chunk
//! is the protocol layer's business. Unknown types are preserved as [`Parameter::Unknown`]; the
//! upper two bits of their type tell the receiver what to do ([`UnrecognizedAction`]).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::error_cause::ErrorCause;
use crate::sctp::bytes::{pad4, tlv_list_len, Reader, Writer, TLV_HEADER_LEN};
use crate::sctp::UnrecognizedAction;
use crate::{Result, WireError};

/// Parameter types (RFC 9260 §3.3.2.1, §3.3.3.1, §3.3.5; RFC 3758; RFC 4895; RFC 5061).
pub mod param_type {
    /// RFC 9260 §3.3.5: Heartbeat Info, inside HEARTBEAT and HEARTBEAT ACK.
    pub const HEARTBEAT_INFO: u16 = 1;
    /// RFC 9260 §3.3.2.1.1: IPv4 Address.
    pub const IPV4_ADDRESS: u16 = 5;
    /// RFC 9260 §3.3.2.1.2: IPv6 Address.
    pub const IPV6_ADDRESS: u16 = 6;
    /// RFC 9260 §3.3.3.1: State Cookie.
    pub const STATE_COOKIE: u16 = 7;
    /// RFC 9260 §3.3.3.1: Unrecognized Parameter.
    pub const UNRECOGNIZED_PARAMETER: u16 = 8;
    /// RFC 9260 §3.3.2.1.3: Cookie Preservative.
    pub const COOKIE_PRESERVATIVE: u16 = 9;
    /// RFC 9260 §3.3.2.1.4: Host Name Address (deprecated; parsed, never to be sent).
    pub const HOST_NAME_ADDRESS: u16 = 11;
    /// RFC 9260 §3.3.2.1.5: Supported Address Types.
    pub const SUPPORTED_ADDRESS_TYPES: u16 = 12;
    /// RFC 9260 §3.3.2.1 (Note 2): Reserved for ECN Capable (0x8000).
    pub const ECN_CAPABLE: u16 = 0x8000;
    /// RFC 4895 §3.1: Random.
    pub const RANDOM: u16 = 0x8002;
    /// RFC 4895 §3.2: Chunk List.
    pub const CHUNK_LIST: u16 = 0x8003;
    /// RFC 4895 §3.3: Requested HMAC Algorithm.
    pub const REQUESTED_HMAC_ALGORITHM: u16 = 0x8004;
    /// RFC 4820 §4: Padding (parsed as [`super::Parameter::Unknown`]).
    pub const PADDING: u16 = 0x8005;
    /// RFC 5061 §4.2.7: Supported Extensions.
    pub const SUPPORTED_EXTENSIONS: u16 = 0x8008;
    /// RFC 3758 §3.1: Forward-TSN-Supported.
    pub const FORWARD_TSN_SUPPORTED: u16 = 0xC000;
    /// RFC 5061 §4.2.1: Add IP Address.
    pub const ADD_IP_ADDRESS: u16 = 0xC001;
    /// RFC 5061 §4.2.2: Delete IP Address.
    pub const DELETE_IP_ADDRESS: u16 = 0xC002;
    /// RFC 5061 §4.2.3: Error Cause Indication.
    pub const ERROR_CAUSE_INDICATION: u16 = 0xC003;
    /// RFC 5061 §4.2.4: Set Primary Address.
    pub const SET_PRIMARY_ADDRESS: u16 = 0xC004;
    /// RFC 5061 §4.2.5: Success Indication.
    pub const SUCCESS_INDICATION: u16 = 0xC005;
    /// RFC 5061 §4.2.6: Adaptation Layer Indication.
    pub const ADAPTATION_LAYER_INDICATION: u16 = 0xC006;
}

use param_type as kind;

/// RFC 9260 §3.3.2.1.1: the IPv4 address parameter is 8 bytes long.
pub const IPV4_ADDRESS_PARAM_LEN: usize = 8;
/// RFC 9260 §3.3.2.1.2: the IPv6 address parameter is 20 bytes long.
pub const IPV6_ADDRESS_PARAM_LEN: usize = 20;

/// Reads the value of an IPv4 (type 5) or IPv6 (type 6) address parameter. RFC 9260
/// §3.3.2.1.1–2 fixes their lengths (8 and 20): a value of any other size is
/// [`WireError::Malformed`] (FreeBSD refuses such an INIT too), not an address followed by
/// ignored bytes.
fn parse_address(param_kind: u16, value: &[u8]) -> Result<IpAddr> {
    let expected = match param_kind {
        kind::IPV4_ADDRESS => IPV4_ADDRESS_PARAM_LEN - TLV_HEADER_LEN,
        kind::IPV6_ADDRESS => IPV6_ADDRESS_PARAM_LEN - TLV_HEADER_LEN,
        _ => return Err(WireError::Malformed),
    };
    if value.len() > expected {
        return Err(WireError::Malformed);
    }
    let mut r = Reader::new(value);
    match param_kind {
        kind::IPV4_ADDRESS => {
            let mut octets = [0u8; 4];
            octets.copy_from_slice(r.take(4)?);
            Ok(IpAddr::V4(Ipv4Addr::from(octets)))
        }
        kind::IPV6_ADDRESS => {
            let mut octets = [0u8; 16];
            octets.copy_from_slice(r.take(16)?);
            Ok(IpAddr::V6(Ipv6Addr::from(octets)))
        }
        _ => Err(WireError::Malformed),
    }
}

/// Reads a complete address parameter TLV (RFC 9260 §3.3.2.1.1–2) from `r`.
pub(crate) fn read_address_tlv(r: &mut Reader<'_>) -> Result<IpAddr> {
    let (param_kind, value, _) = r.tlv()?;
    parse_address(param_kind, value)
}

/// Length of the address parameter TLV for `addr`.
pub(crate) const fn address_tlv_len(addr: &IpAddr) -> usize {
    match addr {
        IpAddr::V4(_) => IPV4_ADDRESS_PARAM_LEN,
        IpAddr::V6(_) => IPV6_ADDRESS_PARAM_LEN,
    }
}

/// Writes the address parameter TLV for `addr` (never needs padding).
pub(crate) fn write_address_tlv(w: &mut Writer<'_>, addr: &IpAddr) -> Result<()> {
    match addr {
        IpAddr::V4(a) => w.tlv(kind::IPV4_ADDRESS, &a.octets()),
        IpAddr::V6(a) => w.tlv(kind::IPV6_ADDRESS, &a.octets()),
    }
}

/// One parameter (RFC 9260 §3.2.1) that sctpsim understands, or an unknown one preserved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Parameter {
    /// RFC 9260 §3.3.2.1.1–2: an IPv4 (type 5) or IPv6 (type 6) address of the sender.
    Address(IpAddr),
    /// RFC 9260 §3.3.3.1: the State Cookie of an INIT ACK (opaque to the receiver).
    StateCookie(Vec<u8>),
    /// RFC 9260 §3.3.3.1: an INIT parameter the sender of the INIT ACK did not recognize,
    /// copied complete (type, length, value).
    UnrecognizedParameter(Vec<u8>),
    /// RFC 9260 §3.3.2.1.3: a request to lengthen the cookie's life span.
    CookiePreservative {
        /// "Suggested Cookie Life-Span Increment", in milliseconds.
        increment_ms: u32,
    },
    /// RFC 9260 §3.3.2.1.4: a host name (deprecated: "MUST NOT be sent"; parsed so that a
    /// receiver can answer with an Unresolvable Address error). The raw value: the name with
    /// at least one terminating NUL.
    HostNameAddress(Vec<u8>),
    /// RFC 9260 §3.3.2.1.5: the address types the sender supports (the parameter type numbers,
    /// 5 for IPv4, 6 for IPv6, 11 for host names).
    SupportedAddressTypes(Vec<u16>),
    /// RFC 9260 §3.3.2.1 (Note 2): Reserved for ECN Capable, no value.
    EcnCapable,
    /// RFC 3758 §3.1: the sender supports FORWARD-TSN (PR-SCTP), no value.
    ForwardTsnSupported,
    /// RFC 5061 §4.2.7: chunk types of extensions the sender supports.
    SupportedExtensions(Vec<u8>),
    /// RFC 4895 §3.1: RANDOM, the sender's random number (RFC 4895 §6.1 requires 32 bytes;
    /// the length is checked by the association, not here).
    Random(Vec<u8>),
    /// RFC 4895 §3.2: CHUNKS, the chunk types the sender wants to receive only inside an
    /// authenticated part of a packet.
    ChunkList(Vec<u8>),
    /// RFC 4895 §3.3: HMAC-ALGO, the HMAC identifiers the sender accepts, in its order of
    /// preference.
    HmacAlgo(Vec<u16>),
    /// RFC 5061 §4.2.1: ASCONF request to add an address.
    AddIpAddress {
        /// ASCONF-Request Correlation ID.
        correlation_id: u32,
        /// The address to add.
        address: IpAddr,
    },
    /// RFC 5061 §4.2.2: ASCONF request to delete an address.
    DeleteIpAddress {
        /// ASCONF-Request Correlation ID.
        correlation_id: u32,
        /// The address to delete.
        address: IpAddr,
    },
    /// RFC 5061 §4.2.4: ASCONF request to make an address the peer's primary destination.
    SetPrimaryAddress {
        /// ASCONF-Request Correlation ID.
        correlation_id: u32,
        /// The address to use as primary.
        address: IpAddr,
    },
    /// RFC 5061 §4.2.3: ASCONF-ACK response reporting that a request failed.
    ErrorCauseIndication {
        /// ASCONF-Response Correlation ID (that of the failed request).
        correlation_id: u32,
        /// Why the request failed.
        causes: Vec<ErrorCause>,
    },
    /// RFC 5061 §4.2.5: ASCONF-ACK response reporting that a request succeeded.
    SuccessIndication {
        /// ASCONF-Response Correlation ID (that of the successful request).
        correlation_id: u32,
    },
    /// RFC 5061 §4.2.6: the adaptation layer indication of the sender.
    AdaptationLayerIndication {
        /// The Adaptation Code Point.
        code_point: u32,
    },
    /// A parameter of any other type, preserved. Must not be used with a type that has its own
    /// variant (it would parse back as that variant).
    Unknown {
        /// The parameter type.
        kind: u16,
        /// The parameter value (after the 4-byte header, without padding).
        value: Vec<u8>,
    },
}

impl Parameter {
    /// The parameter type (RFC 9260 §3.2.1). For [`Parameter::Address`] it is 5 or 6 by the
    /// address family.
    pub fn kind(&self) -> u16 {
        match self {
            Parameter::Address(IpAddr::V4(_)) => kind::IPV4_ADDRESS,
            Parameter::Address(IpAddr::V6(_)) => kind::IPV6_ADDRESS,
            Parameter::StateCookie(_) => kind::STATE_COOKIE,
            Parameter::UnrecognizedParameter(_) => kind::UNRECOGNIZED_PARAMETER,
            Parameter::CookiePreservative { .. } => kind::COOKIE_PRESERVATIVE,
            Parameter::HostNameAddress(_) => kind::HOST_NAME_ADDRESS,
            Parameter::SupportedAddressTypes(_) => kind::SUPPORTED_ADDRESS_TYPES,
            Parameter::EcnCapable => kind::ECN_CAPABLE,
            Parameter::ForwardTsnSupported => kind::FORWARD_TSN_SUPPORTED,
            Parameter::SupportedExtensions(_) => kind::SUPPORTED_EXTENSIONS,
            Parameter::Random(_) => kind::RANDOM,
            Parameter::ChunkList(_) => kind::CHUNK_LIST,
            Parameter::HmacAlgo(_) => kind::REQUESTED_HMAC_ALGORITHM,
            Parameter::AddIpAddress { .. } => kind::ADD_IP_ADDRESS,
            Parameter::DeleteIpAddress { .. } => kind::DELETE_IP_ADDRESS,
            Parameter::SetPrimaryAddress { .. } => kind::SET_PRIMARY_ADDRESS,
            Parameter::ErrorCauseIndication { .. } => kind::ERROR_CAUSE_INDICATION,
            Parameter::SuccessIndication { .. } => kind::SUCCESS_INDICATION,
            Parameter::AdaptationLayerIndication { .. } => kind::ADAPTATION_LAYER_INDICATION,
            Parameter::Unknown { kind, .. } => *kind,
        }
    }

    /// RFC 9260 §3.2.1: what a receiver that does not recognize this parameter's type must do.
    pub fn unrecognized_action(&self) -> UnrecognizedAction {
        UnrecognizedAction::for_parameter_type(self.kind())
    }

    /// The value of the Parameter Length field: the 4-byte header plus the value, without
    /// padding (RFC 9260 §3.2.1).
    pub fn param_len(&self) -> usize {
        let value = match self {
            Parameter::Address(addr) => address_tlv_len(addr) - TLV_HEADER_LEN,
            Parameter::StateCookie(v)
            | Parameter::UnrecognizedParameter(v)
            | Parameter::HostNameAddress(v)
            | Parameter::SupportedExtensions(v)
            | Parameter::Random(v)
            | Parameter::ChunkList(v)
            | Parameter::Unknown { value: v, .. } => v.len(),
            Parameter::CookiePreservative { .. }
            | Parameter::SuccessIndication { .. }
            | Parameter::AdaptationLayerIndication { .. } => 4,
            Parameter::SupportedAddressTypes(types) | Parameter::HmacAlgo(types) => {
                types.len().saturating_mul(2)
            }
            Parameter::EcnCapable | Parameter::ForwardTsnSupported => 0,
            Parameter::AddIpAddress { address, .. }
            | Parameter::DeleteIpAddress { address, .. }
            | Parameter::SetPrimaryAddress { address, .. } => 4 + address_tlv_len(address),
            Parameter::ErrorCauseIndication { causes, .. } => {
                4usize.saturating_add(ErrorCause::list_len(causes))
            }
        };
        TLV_HEADER_LEN.saturating_add(value)
    }

    /// Parses the parameter of type `param_kind` with value `value` (the bytes after the 4-byte
    /// header, up to the parameter length).
    ///
    /// Fixed-size fields must be present ([`WireError::Truncated`]); bytes after them are
    /// ignored. An address inside an ASCONF parameter must be an IPv4 or IPv6 address parameter
    /// ([`WireError::Malformed`]). A Supported Address Types list of odd length is
    /// [`WireError::Malformed`].
    pub fn parse(param_kind: u16, value: &[u8]) -> Result<Parameter> {
        let mut r = Reader::new(value);
        Ok(match param_kind {
            kind::IPV4_ADDRESS | kind::IPV6_ADDRESS => {
                Parameter::Address(parse_address(param_kind, value)?)
            }
            kind::STATE_COOKIE => Parameter::StateCookie(value.to_vec()),
            kind::UNRECOGNIZED_PARAMETER => Parameter::UnrecognizedParameter(value.to_vec()),
            // RFC 9260 §3.3.2.1.3: "Length: 8".
            kind::COOKIE_PRESERVATIVE if value.len() > 4 => return Err(WireError::Malformed),
            kind::COOKIE_PRESERVATIVE => Parameter::CookiePreservative {
                increment_ms: r.u32()?,
            },
            kind::HOST_NAME_ADDRESS => Parameter::HostNameAddress(value.to_vec()),
            kind::SUPPORTED_ADDRESS_TYPES | kind::REQUESTED_HMAC_ALGORITHM => {
                if value.len() % 2 == 1 {
                    return Err(WireError::Malformed);
                }
                let mut types = Vec::with_capacity(value.len() / 2);
                while !r.is_empty() {
                    types.push(r.u16()?);
                }
                if param_kind == kind::SUPPORTED_ADDRESS_TYPES {
                    Parameter::SupportedAddressTypes(types)
                } else {
                    Parameter::HmacAlgo(types)
                }
            }
            kind::RANDOM => Parameter::Random(value.to_vec()),
            kind::CHUNK_LIST => Parameter::ChunkList(value.to_vec()),
            kind::ECN_CAPABLE => Parameter::EcnCapable,
            kind::FORWARD_TSN_SUPPORTED => Parameter::ForwardTsnSupported,
            kind::SUPPORTED_EXTENSIONS => Parameter::SupportedExtensions(value.to_vec()),
            kind::ADD_IP_ADDRESS | kind::DELETE_IP_ADDRESS | kind::SET_PRIMARY_ADDRESS => {
                let correlation_id = r.u32()?;
                let address = read_address_tlv(&mut r)?;
                match param_kind {
                    kind::ADD_IP_ADDRESS => Parameter::AddIpAddress {
                        correlation_id,
                        address,
                    },
                    kind::DELETE_IP_ADDRESS => Parameter::DeleteIpAddress {
                        correlation_id,
                        address,
                    },
                    _ => Parameter::SetPrimaryAddress {
                        correlation_id,
                        address,
                    },
                }
            }
            kind::ERROR_CAUSE_INDICATION => {
                let correlation_id = r.u32()?;
                let causes = ErrorCause::parse_list(r.rest())?;
                Parameter::ErrorCauseIndication {
                    correlation_id,
                    causes,
                }
            }
            kind::SUCCESS_INDICATION => Parameter::SuccessIndication {
                correlation_id: r.u32()?,
            },
            kind::ADAPTATION_LAYER_INDICATION => Parameter::AdaptationLayerIndication {
                code_point: r.u32()?,
            },
            other => Parameter::Unknown {
                kind: other,
                value: value.to_vec(),
            },
        })
    }

    /// Parses a sequence of padded parameters filling `bytes`.
    pub fn parse_list(bytes: &[u8]) -> Result<Vec<Parameter>> {
        let mut r = Reader::new(bytes);
        let mut params = Vec::new();
        while !r.is_empty() {
            let (param_kind, value, _) = r.tlv()?;
            params.push(Parameter::parse(param_kind, value)?);
        }
        Ok(params)
    }

    /// The type and length fields of the first parameter in `bytes` (a padded parameter list)
    /// that [`Parameter::parse_list`] rejects: a length below 4 or past the end of `bytes`
    /// (RFC 9260 §3.2.1), or a value of the wrong size for its type. `None` if the list parses;
    /// `Some((0, 0))` if fewer than 4 bytes are left where a parameter header should start.
    /// A receiver reports these fields in a Protocol Violation cause, as FreeBSD does.
    pub fn first_invalid(bytes: &[u8]) -> Option<(u16, u16)> {
        let mut rest = bytes;
        while !rest.is_empty() {
            let Some(h) = rest.get(..TLV_HEADER_LEN) else {
                return Some((0, 0));
            };
            let kind = u16::from_be_bytes([h[0], h[1]]);
            let len = u16::from_be_bytes([h[2], h[3]]);
            let n = usize::from(len);
            let Some(value) = rest.get(TLV_HEADER_LEN..n).filter(|_| n >= TLV_HEADER_LEN) else {
                return Some((kind, len));
            };
            if Parameter::parse(kind, value).is_err() {
                return Some((kind, len));
            }
            rest = rest.get(pad4(n).min(rest.len())..).unwrap_or(&[]);
        }
        None
    }

    /// Writes the parameter with its padding.
    pub(crate) fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        let start = w.pos();
        w.tlv_header(self.kind(), self.param_len())?;
        match self {
            Parameter::Address(IpAddr::V4(a)) => w.put(&a.octets())?,
            Parameter::Address(IpAddr::V6(a)) => w.put(&a.octets())?,
            Parameter::StateCookie(v)
            | Parameter::UnrecognizedParameter(v)
            | Parameter::HostNameAddress(v)
            | Parameter::SupportedExtensions(v)
            | Parameter::Random(v)
            | Parameter::ChunkList(v)
            | Parameter::Unknown { value: v, .. } => w.put(v)?,
            Parameter::CookiePreservative { increment_ms: x }
            | Parameter::SuccessIndication { correlation_id: x }
            | Parameter::AdaptationLayerIndication { code_point: x } => w.u32(*x)?,
            Parameter::SupportedAddressTypes(types) | Parameter::HmacAlgo(types) => {
                for t in types {
                    w.u16(*t)?;
                }
            }
            Parameter::EcnCapable | Parameter::ForwardTsnSupported => {}
            Parameter::AddIpAddress {
                correlation_id,
                address,
            }
            | Parameter::DeleteIpAddress {
                correlation_id,
                address,
            }
            | Parameter::SetPrimaryAddress {
                correlation_id,
                address,
            } => {
                w.u32(*correlation_id)?;
                write_address_tlv(w, address)?;
            }
            Parameter::ErrorCauseIndication {
                correlation_id,
                causes,
            } => {
                w.u32(*correlation_id)?;
                ErrorCause::emit_list(causes, w)?;
                // The last cause's padding is this parameter's padding; `pad_from` below adds
                // nothing more.
            }
        }
        w.pad_from(start)
    }

    /// The length a list of parameters occupies in an enclosing length field (all padded
    /// except the last, RFC 9260 §3.2).
    pub(crate) fn list_len(params: &[Parameter]) -> usize {
        tlv_list_len(params.iter().map(Parameter::param_len))
    }

    /// Writes each parameter, padded.
    pub(crate) fn emit_list(params: &[Parameter], w: &mut Writer<'_>) -> Result<()> {
        params.iter().try_for_each(|p| p.emit(w))
    }

    /// The parameter as bytes: header and value, without trailing padding, e.g. to copy it into
    /// an [`Parameter::UnrecognizedParameter`] or an ASCONF error cause.
    ///
    /// Errors: [`WireError::Malformed`] if it is longer than the 16-bit length field allows.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; pad4(self.param_len())];
        self.emit(&mut Writer::new(&mut out))?;
        out.truncate(self.param_len());
        Ok(out)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn asconf_parameters_need_an_address_parameter() {
        // Add IP Address whose inner TLV is a cookie preservative: malformed.
        let value = [0, 0, 0, 1, 0, 9, 0, 8, 0, 0, 0, 0];
        assert_eq!(
            Parameter::parse(kind::ADD_IP_ADDRESS, &value),
            Err(WireError::Malformed)
        );
        // A truncated IPv6 address.
        let value = [0, 0, 0, 1, 0, 6, 0, 8, 1, 2, 3, 4];
        assert_eq!(
            Parameter::parse(kind::DELETE_IP_ADDRESS, &value),
            Err(WireError::Truncated)
        );
    }

    #[test]
    fn odd_supported_address_types() {
        assert_eq!(
            Parameter::parse(kind::SUPPORTED_ADDRESS_TYPES, &[0, 5, 0]),
            Err(WireError::Malformed)
        );
    }

    #[test]
    fn auth_parameters_fixtures() {
        // RFC 4895 §3.3: HMAC-ALGO listing SHA-256 then SHA-1 (length 8).
        let p = Parameter::HmacAlgo(vec![3, 1]);
        assert_eq!(p.to_bytes().unwrap(), [0x80, 4, 0, 8, 0, 3, 0, 1]);
        assert_eq!(
            Parameter::parse_list(&[0x80, 4, 0, 8, 0, 3, 0, 1]).unwrap(),
            [p]
        );
        // An odd HMAC-ALGO length is malformed.
        assert_eq!(
            Parameter::parse(kind::REQUESTED_HMAC_ALGORITHM, &[0, 1, 0]),
            Err(WireError::Malformed)
        );
        // RFC 4895 §3.2: CHUNKS listing ASCONF and ASCONF-ACK (length 6, padded to 8).
        let p = Parameter::ChunkList(vec![0xc1, 0x80]);
        assert_eq!(p.to_bytes().unwrap(), [0x80, 3, 0, 6, 0xc1, 0x80]);
        assert_eq!(
            Parameter::parse_list(&[0x80, 3, 0, 6, 0xc1, 0x80, 0, 0]).unwrap(),
            [p]
        );
        // RFC 4895 §3.1: RANDOM with 32 bytes (length 36).
        let mut bytes = vec![0x80, 2, 0, 36];
        bytes.extend([7u8; 32]);
        assert_eq!(
            Parameter::parse_list(&bytes).unwrap(),
            [Parameter::Random(vec![7; 32])]
        );
    }

    #[test]
    fn to_bytes_has_no_padding() {
        let p = Parameter::SupportedAddressTypes(vec![5]);
        assert_eq!(p.to_bytes().unwrap(), [0, 12, 0, 6, 0, 5]);
    }
}
