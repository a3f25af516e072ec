//! Error causes (RFC 9260 §3.3.10), carried in ABORT and ERROR chunks and, inside an Error Cause
//! Indication parameter, in ASCONF-ACK chunks (RFC 5061 §4.2.3).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |           Cause Code          |          Cause Length         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                    Cause-Specific Information                 \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! The cause length counts the 4-byte header and the information, not the padding to 4 bytes.

use crate::sctp::bytes::{tlv_list_len, Reader, Writer, TLV_HEADER_LEN};
use crate::sctp::Tsn;
use crate::{Result, WireError};

/// Cause codes (RFC 9260 §3.3.10 and the IANA "Error Cause Codes" registry).
pub mod cause_code {
    /// RFC 9260 §3.3.10.1: Invalid Stream Identifier.
    pub const INVALID_STREAM_IDENTIFIER: u16 = 1;
    /// RFC 9260 §3.3.10.2: Missing Mandatory Parameter.
    pub const MISSING_MANDATORY_PARAMETER: u16 = 2;
    /// RFC 9260 §3.3.10.3: Stale Cookie Error.
    pub const STALE_COOKIE: u16 = 3;
    /// RFC 9260 §3.3.10.4: Out of Resource.
    pub const OUT_OF_RESOURCE: u16 = 4;
    /// RFC 9260 §3.3.10.5: Unresolvable Address.
    pub const UNRESOLVABLE_ADDRESS: u16 = 5;
    /// RFC 9260 §3.3.10.6: Unrecognized Chunk Type.
    pub const UNRECOGNIZED_CHUNK_TYPE: u16 = 6;
    /// RFC 9260 §3.3.10.7: Invalid Mandatory Parameter.
    pub const INVALID_MANDATORY_PARAMETER: u16 = 7;
    /// RFC 9260 §3.3.10.8: Unrecognized Parameters.
    pub const UNRECOGNIZED_PARAMETERS: u16 = 8;
    /// RFC 9260 §3.3.10.9: No User Data.
    pub const NO_USER_DATA: u16 = 9;
    /// RFC 9260 §3.3.10.10: Cookie Received While Shutting Down.
    pub const COOKIE_RECEIVED_WHILE_SHUTTING_DOWN: u16 = 10;
    /// RFC 9260 §3.3.10.11: Restart of an Association with New Addresses.
    pub const RESTART_WITH_NEW_ADDRESSES: u16 = 11;
    /// RFC 9260 §3.3.10.12: User-Initiated Abort.
    pub const USER_INITIATED_ABORT: u16 = 12;
    /// RFC 9260 §3.3.10.13: Protocol Violation.
    pub const PROTOCOL_VIOLATION: u16 = 13;
    /// RFC 4895 §4.1: Unsupported HMAC Identifier (0x0105).
    pub const UNSUPPORTED_HMAC_IDENTIFIER: u16 = 0x0105;
    /// RFC 5061 §4.3.1: Request to Delete Last Remaining IP Address.
    pub const DELETE_LAST_REMAINING_ADDRESS: u16 = 0x00A0;
    /// RFC 5061 §4.3.2: Operation Refused Due to Resource Shortage.
    pub const RESOURCE_SHORTAGE: u16 = 0x00A1;
    /// RFC 5061 §4.3.3: Request to Delete Source IP Address.
    pub const DELETE_SOURCE_ADDRESS: u16 = 0x00A2;
    /// RFC 5061 §4.3.4: Association Aborted Due to Illegal ASCONF-ACK.
    pub const ILLEGAL_ASCONF_ACK: u16 = 0x00A3;
    /// RFC 5061 §4.3.5: Request Refused - No Authorization.
    pub const REQUEST_REFUSED_NO_AUTHORIZATION: u16 = 0x00A4;
}

use cause_code as code;

/// One error cause (RFC 9260 §3.3.10; RFC 5061 §4.3).
///
/// Variable-length information that is itself a copy of other wire data (a chunk, parameters,
/// addresses) is kept as raw bytes exactly as received; the protocol layer builds it from the
/// offending TLV or chunk (see [`crate::sctp::RawChunk::bytes`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ErrorCause {
    /// RFC 9260 §3.3.10.1: DATA (or I-DATA) sent to a stream that does not exist.
    InvalidStreamIdentifier {
        /// The invalid stream identifier.
        stream_id: u16,
    },
    /// RFC 9260 §3.3.10.2: mandatory parameters missing from an INIT or INIT ACK.
    MissingMandatoryParameter {
        /// The types of the missing parameters.
        missing: Vec<u16>,
    },
    /// RFC 9260 §3.3.10.3: a valid but expired State Cookie.
    StaleCookie {
        /// "Measure of Staleness": how late the cookie arrived, in microseconds.
        staleness_us: u32,
    },
    /// RFC 9260 §3.3.10.4: the sender is out of resources.
    OutOfResource,
    /// RFC 9260 §3.3.10.5: an address the sender cannot resolve.
    UnresolvableAddress {
        /// The complete address parameter (type, length, value).
        address: Vec<u8>,
    },
    /// RFC 9260 §3.3.10.6: a chunk whose type the sender does not understand.
    UnrecognizedChunkType {
        /// The unrecognized chunk, with its type, flags and length.
        chunk: Vec<u8>,
    },
    /// RFC 9260 §3.3.10.7: a mandatory parameter is set to an invalid value.
    InvalidMandatoryParameter,
    /// RFC 9260 §3.3.10.8: parameters the sender does not understand (in an ERROR chunk sent
    /// with a COOKIE ECHO or COOKIE ACK).
    UnrecognizedParameters {
        /// The unrecognized parameters, complete TLVs.
        parameters: Vec<u8>,
    },
    /// RFC 9260 §3.3.10.9: a DATA chunk without user data.
    NoUserData {
        /// The TSN of that DATA chunk.
        tsn: Tsn,
    },
    /// RFC 9260 §3.3.10.10: a COOKIE ECHO received in SHUTDOWN-ACK-SENT.
    CookieReceivedWhileShuttingDown,
    /// RFC 9260 §3.3.10.11: a restart that adds new addresses.
    RestartWithNewAddresses {
        /// The new address parameters, complete TLVs.
        addresses: Vec<u8>,
    },
    /// RFC 9260 §3.3.10.12: the upper layer aborted the association.
    UserInitiatedAbort {
        /// "Upper Layer Abort Reason", opaque.
        reason: Vec<u8>,
    },
    /// RFC 9260 §3.3.10.13: the peer violated the protocol.
    ProtocolViolation {
        /// "Additional Information", opaque.
        info: Vec<u8>,
    },
    /// RFC 5061 §4.3.1: an ASCONF asked to delete the last remaining address.
    DeleteLastRemainingAddress {
        /// The offending ASCONF parameter, complete TLV.
        request: Vec<u8>,
    },
    /// RFC 5061 §4.3.2: an ASCONF request refused for lack of resources.
    OperationRefusedResourceShortage {
        /// The refused ASCONF parameter, complete TLV.
        request: Vec<u8>,
    },
    /// RFC 5061 §4.3.3: an ASCONF asked to delete the packet's source address.
    DeleteSourceAddress {
        /// The offending ASCONF parameter, complete TLV.
        request: Vec<u8>,
    },
    /// RFC 5061 §4.3.4: association aborted because of an illegal ASCONF-ACK.
    IllegalAsconfAck,
    /// RFC 5061 §4.3.5: an ASCONF request refused for lack of authorization.
    RequestRefusedNoAuthorization {
        /// The refused ASCONF parameter, complete TLV.
        request: Vec<u8>,
    },
    /// RFC 4895 §4.1: an AUTH chunk arrived with an HMAC Identifier the receiver does not
    /// support (cause length 6, then 2 bytes of padding).
    UnsupportedHmacIdentifier {
        /// The unsupported HMAC Identifier.
        hmac_id: u16,
    },
    /// Any other cause code, preserved with its information. Must not be used with a code that
    /// has its own variant (it would parse back as that variant).
    Unknown {
        /// The cause code.
        code: u16,
        /// The cause-specific information.
        info: Vec<u8>,
    },
}

impl ErrorCause {
    /// The cause code (RFC 9260 §3.3.10).
    pub fn code(&self) -> u16 {
        match self {
            ErrorCause::InvalidStreamIdentifier { .. } => code::INVALID_STREAM_IDENTIFIER,
            ErrorCause::MissingMandatoryParameter { .. } => code::MISSING_MANDATORY_PARAMETER,
            ErrorCause::StaleCookie { .. } => code::STALE_COOKIE,
            ErrorCause::OutOfResource => code::OUT_OF_RESOURCE,
            ErrorCause::UnresolvableAddress { .. } => code::UNRESOLVABLE_ADDRESS,
            ErrorCause::UnrecognizedChunkType { .. } => code::UNRECOGNIZED_CHUNK_TYPE,
            ErrorCause::InvalidMandatoryParameter => code::INVALID_MANDATORY_PARAMETER,
            ErrorCause::UnrecognizedParameters { .. } => code::UNRECOGNIZED_PARAMETERS,
            ErrorCause::NoUserData { .. } => code::NO_USER_DATA,
            ErrorCause::CookieReceivedWhileShuttingDown => {
                code::COOKIE_RECEIVED_WHILE_SHUTTING_DOWN
            }
            ErrorCause::RestartWithNewAddresses { .. } => code::RESTART_WITH_NEW_ADDRESSES,
            ErrorCause::UserInitiatedAbort { .. } => code::USER_INITIATED_ABORT,
            ErrorCause::ProtocolViolation { .. } => code::PROTOCOL_VIOLATION,
            ErrorCause::DeleteLastRemainingAddress { .. } => code::DELETE_LAST_REMAINING_ADDRESS,
            ErrorCause::OperationRefusedResourceShortage { .. } => code::RESOURCE_SHORTAGE,
            ErrorCause::DeleteSourceAddress { .. } => code::DELETE_SOURCE_ADDRESS,
            ErrorCause::IllegalAsconfAck => code::ILLEGAL_ASCONF_ACK,
            ErrorCause::RequestRefusedNoAuthorization { .. } => {
                code::REQUEST_REFUSED_NO_AUTHORIZATION
            }
            ErrorCause::UnsupportedHmacIdentifier { .. } => code::UNSUPPORTED_HMAC_IDENTIFIER,
            ErrorCause::Unknown { code, .. } => *code,
        }
    }

    /// The variable-length information of the variants that carry opaque bytes.
    fn opaque(&self) -> Option<&[u8]> {
        match self {
            ErrorCause::UnresolvableAddress { address: b }
            | ErrorCause::UnrecognizedChunkType { chunk: b }
            | ErrorCause::UnrecognizedParameters { parameters: b }
            | ErrorCause::RestartWithNewAddresses { addresses: b }
            | ErrorCause::UserInitiatedAbort { reason: b }
            | ErrorCause::ProtocolViolation { info: b }
            | ErrorCause::DeleteLastRemainingAddress { request: b }
            | ErrorCause::OperationRefusedResourceShortage { request: b }
            | ErrorCause::DeleteSourceAddress { request: b }
            | ErrorCause::RequestRefusedNoAuthorization { request: b }
            | ErrorCause::Unknown { info: b, .. } => Some(b),
            _ => None,
        }
    }

    /// The value of the Cause Length field: 4 header bytes plus the information, without the
    /// padding (RFC 9260 §3.3.10).
    pub fn cause_len(&self) -> usize {
        let info = match self {
            ErrorCause::InvalidStreamIdentifier { .. } => 4,
            ErrorCause::MissingMandatoryParameter { missing } => {
                4usize.saturating_add(missing.len().saturating_mul(2))
            }
            ErrorCause::StaleCookie { .. } | ErrorCause::NoUserData { .. } => 4,
            ErrorCause::UnsupportedHmacIdentifier { .. } => 2,
            ErrorCause::OutOfResource
            | ErrorCause::InvalidMandatoryParameter
            | ErrorCause::CookieReceivedWhileShuttingDown
            | ErrorCause::IllegalAsconfAck => 0,
            _ => self.opaque().map_or(0, <[u8]>::len),
        };
        TLV_HEADER_LEN.saturating_add(info)
    }

    /// Parses the cause with code `code` and cause-specific information `info` (the bytes after
    /// the 4-byte header, up to the cause length).
    ///
    /// Fixed-size fields must be present ([`WireError::Truncated`]); bytes after them are
    /// ignored. A Missing Mandatory Parameter cause whose count does not match its length is
    /// [`WireError::Malformed`].
    pub fn parse(code: u16, info: &[u8]) -> Result<ErrorCause> {
        let mut r = Reader::new(info);
        let owned = || info.to_vec();
        Ok(match code {
            code::INVALID_STREAM_IDENTIFIER => {
                let stream_id = r.u16()?;
                let _reserved = r.u16()?;
                ErrorCause::InvalidStreamIdentifier { stream_id }
            }
            code::MISSING_MANDATORY_PARAMETER => {
                let count = r.u32()?;
                let count = usize::try_from(count).map_err(|_| WireError::Malformed)?;
                if count.checked_mul(2) != Some(r.remaining()) {
                    return Err(WireError::Malformed);
                }
                let mut missing = Vec::with_capacity(count);
                for _ in 0..count {
                    missing.push(r.u16()?);
                }
                ErrorCause::MissingMandatoryParameter { missing }
            }
            code::STALE_COOKIE => ErrorCause::StaleCookie {
                staleness_us: r.u32()?,
            },
            code::OUT_OF_RESOURCE => ErrorCause::OutOfResource,
            code::UNRESOLVABLE_ADDRESS => ErrorCause::UnresolvableAddress { address: owned() },
            code::UNRECOGNIZED_CHUNK_TYPE => ErrorCause::UnrecognizedChunkType { chunk: owned() },
            code::INVALID_MANDATORY_PARAMETER => ErrorCause::InvalidMandatoryParameter,
            code::UNRECOGNIZED_PARAMETERS => ErrorCause::UnrecognizedParameters {
                parameters: owned(),
            },
            code::NO_USER_DATA => ErrorCause::NoUserData { tsn: Tsn(r.u32()?) },
            code::COOKIE_RECEIVED_WHILE_SHUTTING_DOWN => {
                ErrorCause::CookieReceivedWhileShuttingDown
            }
            code::RESTART_WITH_NEW_ADDRESSES => {
                ErrorCause::RestartWithNewAddresses { addresses: owned() }
            }
            code::USER_INITIATED_ABORT => ErrorCause::UserInitiatedAbort { reason: owned() },
            code::PROTOCOL_VIOLATION => ErrorCause::ProtocolViolation { info: owned() },
            code::DELETE_LAST_REMAINING_ADDRESS => {
                ErrorCause::DeleteLastRemainingAddress { request: owned() }
            }
            code::RESOURCE_SHORTAGE => {
                ErrorCause::OperationRefusedResourceShortage { request: owned() }
            }
            code::DELETE_SOURCE_ADDRESS => ErrorCause::DeleteSourceAddress { request: owned() },
            code::ILLEGAL_ASCONF_ACK => ErrorCause::IllegalAsconfAck,
            code::REQUEST_REFUSED_NO_AUTHORIZATION => {
                ErrorCause::RequestRefusedNoAuthorization { request: owned() }
            }
            code::UNSUPPORTED_HMAC_IDENTIFIER => {
                ErrorCause::UnsupportedHmacIdentifier { hmac_id: r.u16()? }
            }
            code => ErrorCause::Unknown {
                code,
                info: owned(),
            },
        })
    }

    /// The causes of `bytes` up to the first that cannot be parsed (a length below 4, past the
    /// end, or a fixed field missing). An ABORT or ERROR chunk is parsed this way: the chunk
    /// itself is well delimited, and an ABORT must end the association whatever its causes say
    /// (RFC 9260 §9.1; FreeBSD's `sctp_handle_abort` only checks the chunk header too).
    pub fn parse_list_prefix(bytes: &[u8]) -> Vec<ErrorCause> {
        let mut r = Reader::new(bytes);
        let mut causes = Vec::new();
        while !r.is_empty() {
            match r
                .tlv()
                .and_then(|(code, info, _)| ErrorCause::parse(code, info))
            {
                Ok(c) => causes.push(c),
                Err(_) => break,
            }
        }
        causes
    }

    /// Parses a sequence of padded error causes filling `bytes` (the value of an ABORT or ERROR
    /// chunk, or the tail of an Error Cause Indication parameter).
    pub fn parse_list(bytes: &[u8]) -> Result<Vec<ErrorCause>> {
        let mut r = Reader::new(bytes);
        let mut causes = Vec::new();
        while !r.is_empty() {
            let (code, info, _) = r.tlv()?;
            causes.push(ErrorCause::parse(code, info)?);
        }
        Ok(causes)
    }

    /// Writes the cause with its padding.
    pub(crate) fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        let start = w.pos();
        w.tlv_header(self.code(), self.cause_len())?;
        match self {
            ErrorCause::InvalidStreamIdentifier { stream_id } => {
                w.u16(*stream_id)?;
                w.u16(0)?; // RFC 9260 §3.3.10.1: reserved, "set to all 0s"
            }
            ErrorCause::MissingMandatoryParameter { missing } => {
                let count = u32::try_from(missing.len()).map_err(|_| WireError::Malformed)?;
                w.u32(count)?;
                for kind in missing {
                    w.u16(*kind)?;
                }
            }
            ErrorCause::StaleCookie { staleness_us } => w.u32(*staleness_us)?,
            ErrorCause::NoUserData { tsn } => w.u32(tsn.0)?,
            ErrorCause::UnsupportedHmacIdentifier { hmac_id } => w.u16(*hmac_id)?,
            _ => w.put(self.opaque().unwrap_or(&[]))?,
        }
        w.pad_from(start)
    }

    /// The length a list of causes occupies in an enclosing length field (all padded except the
    /// last, RFC 9260 §3.2).
    pub(crate) fn list_len(causes: &[ErrorCause]) -> usize {
        tlv_list_len(causes.iter().map(ErrorCause::cause_len))
    }

    /// Writes each cause, padded.
    pub(crate) fn emit_list(causes: &[ErrorCause], w: &mut Writer<'_>) -> Result<()> {
        causes.iter().try_for_each(|c| c.emit(w))
    }

    /// The cause as bytes: header and information, without trailing padding (what a copy of
    /// this cause inside another TLV would hold).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; crate::sctp::bytes::pad4(self.cause_len())];
        self.emit(&mut Writer::new(&mut out))?;
        out.truncate(self.cause_len());
        Ok(out)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn fixed_fields_are_required_and_extra_bytes_ignored() {
        assert_eq!(
            ErrorCause::parse(code::STALE_COOKIE, &[0, 0, 1]),
            Err(WireError::Truncated)
        );
        assert_eq!(
            ErrorCause::parse(code::STALE_COOKIE, &[0, 0, 1, 0, 9]),
            Ok(ErrorCause::StaleCookie { staleness_us: 256 })
        );
        assert_eq!(
            ErrorCause::parse(code::MISSING_MANDATORY_PARAMETER, &[0, 0, 0, 2, 0, 7]),
            Err(WireError::Malformed)
        );
        assert_eq!(
            ErrorCause::parse(code::MISSING_MANDATORY_PARAMETER, &[0xff; 4]),
            Err(WireError::Malformed)
        );
    }

    #[test]
    fn unsupported_hmac_identifier_fixture() {
        // RFC 4895 §4.1: code 0x0105, length 6, the identifier, 2 bytes of padding.
        let cause = ErrorCause::UnsupportedHmacIdentifier { hmac_id: 2 };
        assert_eq!(cause.to_bytes().unwrap(), [1, 5, 0, 6, 0, 2]);
        assert_eq!(
            ErrorCause::parse(code::UNSUPPORTED_HMAC_IDENTIFIER, &[0, 2]),
            Ok(cause)
        );
        assert_eq!(
            ErrorCause::parse(code::UNSUPPORTED_HMAC_IDENTIFIER, &[0]),
            Err(WireError::Truncated)
        );
    }

    #[test]
    fn to_bytes_has_no_padding() {
        let cause = ErrorCause::UserInitiatedAbort {
            reason: b"bye".to_vec(),
        };
        assert_eq!(cause.to_bytes().unwrap(), [0, 12, 0, 7, b'b', b'y', b'e']);
    }
}
