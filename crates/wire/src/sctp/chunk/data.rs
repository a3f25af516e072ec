//! The DATA chunk (RFC 9260 §3.3.1; the I bit from RFC 7053 §3).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Type = 0    |  Res  |I|U|B|E|            Length             |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                              TSN                              |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |      Stream Identifier S      |   Stream Sequence Number n    |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                  Payload Protocol Identifier                  |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                 User Data (seq n of Stream S)                 \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use crate::sctp::bytes::{Reader, Writer};
use crate::sctp::{Ssn, Tsn};
use crate::Result;

/// RFC 7053 §3: the I (SACK-IMMEDIATELY) flag.
pub const FLAG_I: u8 = 0x08;
/// RFC 9260 §3.3.1: the U (unordered) flag.
pub const FLAG_U: u8 = 0x04;
/// RFC 9260 §3.3.1: the B (beginning fragment) flag.
pub const FLAG_B: u8 = 0x02;
/// RFC 9260 §3.3.1: the E (ending fragment) flag.
pub const FLAG_E: u8 = 0x01;

/// RFC 9260 §3.3.1: TSN, stream identifier, stream sequence number and payload protocol
/// identifier take 12 bytes after the chunk header (a DATA chunk is at least 16 bytes long).
pub const DATA_FIXED_LEN: usize = 12;

/// A DATA chunk (RFC 9260 §3.3.1).
///
/// A chunk without user data parses (the receiver must answer it with an ABORT carrying a
/// No User Data cause, RFC 9260 §6.2); the reserved flag bits are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DataChunk {
    /// Transmission Sequence Number.
    pub tsn: Tsn,
    /// Stream Identifier S.
    pub stream_id: u16,
    /// Stream Sequence Number n (meaningless when `unordered`).
    pub ssn: Ssn,
    /// Payload Protocol Identifier, opaque to SCTP.
    pub ppid: u32,
    /// U bit: an unordered message.
    pub unordered: bool,
    /// B bit: the first fragment of a user message.
    pub beginning: bool,
    /// E bit: the last fragment of a user message.
    pub ending: bool,
    /// I bit (RFC 7053): the receiver should SACK this chunk without delay.
    pub immediate: bool,
    /// The user data.
    pub user_data: Vec<u8>,
}

/// The flags byte of a DATA or I-DATA chunk (RFC 9260 §3.3.1, RFC 8260 §2.1: the same bits).
pub(crate) fn data_flags(immediate: bool, unordered: bool, beginning: bool, ending: bool) -> u8 {
    let mut flags = 0;
    for (set, bit) in [
        (immediate, FLAG_I),
        (unordered, FLAG_U),
        (beginning, FLAG_B),
        (ending, FLAG_E),
    ] {
        if set {
            flags |= bit;
        }
    }
    flags
}

impl DataChunk {
    /// The chunk flags byte.
    pub fn flags(&self) -> u8 {
        data_flags(self.immediate, self.unordered, self.beginning, self.ending)
    }

    pub(crate) fn parse_value(flags: u8, value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        Ok(DataChunk {
            tsn: Tsn(r.u32()?),
            stream_id: r.u16()?,
            ssn: Ssn(r.u16()?),
            ppid: r.u32()?,
            unordered: flags & FLAG_U != 0,
            beginning: flags & FLAG_B != 0,
            ending: flags & FLAG_E != 0,
            immediate: flags & FLAG_I != 0,
            user_data: r.rest().to_vec(),
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        DATA_FIXED_LEN.saturating_add(self.user_data.len())
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.tsn.0)?;
        w.u16(self.stream_id)?;
        w.u16(self.ssn.0)?;
        w.u32(self.ppid)?;
        w.put(&self.user_data)
    }
}
