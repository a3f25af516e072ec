//! The FORWARD TSN chunk (RFC 3758 §3.2, PR-SCTP).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Type = 192  |  Flags = 0x00 |        Length = Variable      |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      New Cumulative TSN                       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |         Stream-1              |       Stream Sequence-1       |
//! /                              ...                              /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use crate::sctp::bytes::{Reader, Writer};
use crate::sctp::{Ssn, Tsn};
use crate::Result;

/// One stream entry of a FORWARD TSN chunk (RFC 3758 §3.2): the largest SSN skipped on an
/// ordered stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ForwardTsnStream {
    /// Stream identifier.
    pub stream_id: u16,
    /// The largest stream sequence number being skipped on that stream.
    pub ssn: Ssn,
}

/// A FORWARD TSN chunk (RFC 3758 §3.2). Flags are reserved and ignored; trailing bytes that do
/// not form a whole stream entry are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ForwardTsnChunk {
    /// New Cumulative TSN: the receiver should treat every TSN up to it as received.
    pub new_cum_tsn: Tsn,
    /// Stream / stream sequence pairs, in order.
    pub streams: Vec<ForwardTsnStream>,
}

impl ForwardTsnChunk {
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let new_cum_tsn = Tsn(r.u32()?);
        let mut streams = Vec::with_capacity(r.remaining() / 4);
        while r.remaining() >= 4 {
            streams.push(ForwardTsnStream {
                stream_id: r.u16()?,
                ssn: Ssn(r.u16()?),
            });
        }
        Ok(ForwardTsnChunk {
            new_cum_tsn,
            streams,
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        4usize.saturating_add(self.streams.len().saturating_mul(4))
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.new_cum_tsn.0)?;
        for s in &self.streams {
            w.u16(s.stream_id)?;
            w.u16(s.ssn.0)?;
        }
        Ok(())
    }
}
