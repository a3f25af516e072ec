//! The AUTH chunk (RFC 4895 §4.2) and the HMAC identifiers of RFC 4895 §3.3.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Type = 0x0F   |   Flags=0     |             Length            |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |     Shared Key Identifier     |   HMAC Identifier             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                             HMAC                              /
//! /                                                               \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! The codec is structural: the HMAC is whatever bytes follow the two identifiers (its length
//! is the chunk length minus 8). Whether that length fits the HMAC identifier, and whether the
//! HMAC is right, is for the association to decide (RFC 4895 §6.3).

use crate::sctp::bytes::{Reader, Writer};
use crate::Result;

/// HMAC identifiers (RFC 4895 §3.3 and the IANA "HMAC Identifiers" registry).
pub mod hmac_id {
    /// RFC 4895 §3.3: HMAC-SHA-1, 20-byte MAC; "MUST be supported" by every AUTH endpoint.
    pub const SHA1: u16 = 1;
    /// RFC 4895 §3.3: HMAC-SHA-256, 32-byte MAC.
    pub const SHA256: u16 = 3;

    /// The MAC length of a known identifier (RFC 4895 §3.3: 20 for SHA-1, 32 for SHA-256).
    pub const fn mac_len(id: u16) -> Option<usize> {
        match id {
            SHA1 => Some(20),
            SHA256 => Some(32),
            _ => None,
        }
    }
}

/// RFC 4895 §4.2: the fixed part of the AUTH value (Shared Key Identifier, HMAC Identifier).
pub const AUTH_FIXED_LEN: usize = 4;

/// An AUTH chunk (RFC 4895 §4.2). Flags are reserved: "set to zero on transmit and ignored on
/// receipt".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AuthChunk {
    /// Shared Key Identifier: which endpoint-pair shared key the association key was built
    /// from (RFC 4895 §4.2; 0 is the default empty key of §6.1).
    pub shared_key_id: u16,
    /// HMAC Identifier: the algorithm of [`AuthChunk::hmac`] ([`hmac_id`]).
    pub hmac_id: u16,
    /// The HMAC (RFC 4895 §6.2: computed with this field set to zero).
    pub hmac: Vec<u8>,
}

impl AuthChunk {
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        Ok(AuthChunk {
            shared_key_id: r.u16()?,
            hmac_id: r.u16()?,
            hmac: r.rest().to_vec(),
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        AUTH_FIXED_LEN.saturating_add(self.hmac.len())
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u16(self.shared_key_id)?;
        w.u16(self.hmac_id)?;
        w.put(&self.hmac)
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::sctp::packet::RawChunk;
    use crate::sctp::ChunkRepr;
    use crate::WireError;

    #[test]
    fn fixture_round_trip() {
        // Type 0x0F, flags 0, length 28: key id 0, HMAC id 1 (SHA-1), 20 HMAC bytes.
        let mut bytes = vec![0x0f, 0, 0, 28, 0, 0, 0, 1];
        bytes.extend(1..=20u8);
        let raw = RawChunk::new_checked(&bytes).unwrap();
        let repr = raw.parse().unwrap();
        let expected = ChunkRepr::Auth(AuthChunk {
            shared_key_id: 0,
            hmac_id: hmac_id::SHA1,
            hmac: (1..=20).collect(),
        });
        assert_eq!(repr, expected);
        assert_eq!(repr.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn short_value_is_truncated() {
        let bytes = [0x0f, 0, 0, 6, 0, 1];
        let raw = RawChunk::new_checked(&bytes[..]).unwrap();
        assert_eq!(raw.parse(), Err(WireError::Truncated));
    }

    #[test]
    fn mac_lengths() {
        assert_eq!(hmac_id::mac_len(hmac_id::SHA1), Some(20));
        assert_eq!(hmac_id::mac_len(hmac_id::SHA256), Some(32));
        assert_eq!(hmac_id::mac_len(2), None);
    }
}
