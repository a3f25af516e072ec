//! The application header every generated datagram starts with: a sequence number and the send
//! time, so that the sink measures loss, reordering and one-way delay from packet content alone
//! (the role of ns-3's `SeqTsHeader`; the layout is our own).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                        sequence number                        |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                  send time, ns (64 bits, big endian)          |
//! +                                                               +
//! |                                                               |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use sctpsim_kernel::SimTime;

/// Sequence number and send time at the start of an application payload.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeqTsHeader {
    /// Per-flow sequence number, starting at 0.
    pub seq: u32,
    /// When the source handed the payload to the transport.
    pub sent_at: SimTime,
}

impl SeqTsHeader {
    /// Encoded length in bytes.
    pub const LEN: usize = 12;

    /// Write into the first [`Self::LEN`] bytes of `buf`. Returns `false` (and writes nothing) if
    /// `buf` is too short.
    pub fn emit(&self, buf: &mut [u8]) -> bool {
        let Some(head) = buf.get_mut(..Self::LEN) else {
            return false;
        };
        head[..4].copy_from_slice(&self.seq.to_be_bytes());
        head[4..12].copy_from_slice(&self.sent_at.0.to_be_bytes());
        true
    }

    /// Read from the start of `buf`; `None` if it is too short.
    pub fn parse(buf: &[u8]) -> Option<Self> {
        let head = buf.get(..Self::LEN)?;
        let seq = u32::from_be_bytes(head[..4].try_into().ok()?);
        let ts = u64::from_be_bytes(head[4..12].try_into().ok()?);
        Some(SeqTsHeader {
            seq,
            sent_at: SimTime(ts),
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn round_trip_and_short_buffers() {
        let h = SeqTsHeader {
            seq: 0xDEAD_BEEF,
            sent_at: SimTime(123_456_789_012),
        };
        let mut buf = [0u8; 20];
        assert!(h.emit(&mut buf));
        assert_eq!(SeqTsHeader::parse(&buf), Some(h));
        assert_eq!(&buf[..4], &[0xDE, 0xAD, 0xBE, 0xEF]);
        assert!(!h.emit(&mut [0u8; 11]));
        assert_eq!(SeqTsHeader::parse(&buf[..11]), None);
    }
}
