//! The I-DATA and I-FORWARD-TSN chunks (RFC 8260 §2.1, §2.3): user message interleaving.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Type = 64   |  Res  |I|U|B|E|       Length = Variable       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                              TSN                              |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |        Stream Identifier      |           Reserved            |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      Message Identifier                       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |    Payload Protocol Identifier / Fragment Sequence Number     |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! \                           User Data                           \
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! The flags are those of DATA ([`super::data::FLAG_I`] and friends). The I-FORWARD-TSN chunk
//! (type 194) replaces FORWARD TSN when I-DATA is in use; its entries name a message by stream,
//! U bit and Message Identifier:
//!
//! ```text
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Type = 194  |  Flags = 0x00 |        Length = Variable      |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      New Cumulative TSN                       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |       Stream Identifier       |          Reserved           |U|
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                       Message Identifier                      |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! /                              ...                              /
//! ```

use crate::sctp::bytes::{Reader, Writer};
use crate::sctp::chunk::data::{data_flags, FLAG_B, FLAG_E, FLAG_I, FLAG_U};
use crate::sctp::{Mid, Tsn};
use crate::Result;

/// RFC 8260 §2.1: TSN, stream identifier, reserved, MID and PPID/FSN take 16 bytes after the
/// chunk header (an I-DATA chunk is at least 20 bytes long, 4 more than DATA).
pub const I_DATA_FIXED_LEN: usize = 16;

/// RFC 8260 §2.3.1: one I-FORWARD-TSN entry is 8 bytes (stream, reserved + U, MID).
pub const I_FORWARD_TSN_ENTRY_LEN: usize = 8;

/// RFC 8260 §2.3.1: the U bit, the lowest bit of the 16-bit word after the stream identifier.
const ENTRY_FLAG_U: u16 = 0x0001;

/// An I-DATA chunk (RFC 8260 §2.1).
///
/// The fourth word is the Payload Protocol Identifier in the first fragment of a message (B bit
/// set) and the Fragment Sequence Number in every other fragment; it is kept as one field,
/// [`IDataChunk::ppid_or_fsn`], so that every chunk round-trips, and read through
/// [`IDataChunk::ppid`] and [`IDataChunk::fsn`]. The Reserved field is ignored on parse and
/// sent as zero; a chunk without user data parses (the receiver answers it as RFC 9260 §6.2
/// says for DATA).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IDataChunk {
    /// Transmission Sequence Number.
    pub tsn: Tsn,
    /// Stream Identifier.
    pub stream_id: u16,
    /// Message Identifier (MID): the same in every fragment of a message; ordered and
    /// unordered messages of a stream are numbered separately (RFC 8260 §2.1).
    pub mid: Mid,
    /// PPID if `beginning`, FSN otherwise (RFC 8260 §2.1).
    pub ppid_or_fsn: u32,
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

impl IDataChunk {
    /// The Payload Protocol Identifier: only the first fragment (B bit) carries it.
    pub fn ppid(&self) -> Option<u32> {
        self.beginning.then_some(self.ppid_or_fsn)
    }

    /// The Fragment Sequence Number: 0 for the first fragment (RFC 8260 §2.1: "the FSN of the
    /// first fragment ... is 0", and the field carries the PPID there), the field otherwise.
    pub fn fsn(&self) -> u32 {
        if self.beginning {
            0
        } else {
            self.ppid_or_fsn
        }
    }

    /// The chunk flags byte.
    pub fn flags(&self) -> u8 {
        data_flags(self.immediate, self.unordered, self.beginning, self.ending)
    }

    pub(crate) fn parse_value(flags: u8, value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let tsn = Tsn(r.u32()?);
        let stream_id = r.u16()?;
        let _reserved = r.u16()?;
        Ok(IDataChunk {
            tsn,
            stream_id,
            mid: Mid(r.u32()?),
            ppid_or_fsn: r.u32()?,
            unordered: flags & FLAG_U != 0,
            beginning: flags & FLAG_B != 0,
            ending: flags & FLAG_E != 0,
            immediate: flags & FLAG_I != 0,
            user_data: r.rest().to_vec(),
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        I_DATA_FIXED_LEN.saturating_add(self.user_data.len())
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.tsn.0)?;
        w.u16(self.stream_id)?;
        w.u16(0)?;
        w.u32(self.mid.0)?;
        w.u32(self.ppid_or_fsn)?;
        w.put(&self.user_data)
    }
}

/// One entry of an I-FORWARD-TSN chunk (RFC 8260 §2.3.1): the largest MID skipped on one
/// stream, for ordered or (U bit) unordered messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IForwardTsnStream {
    /// Stream identifier.
    pub stream_id: u16,
    /// U bit: the entry is about unordered messages.
    pub unordered: bool,
    /// The largest Message Identifier skipped.
    pub mid: Mid,
}

/// An I-FORWARD-TSN chunk (RFC 8260 §2.3.1). Flags and the reserved bits of each entry are
/// ignored on parse and sent as zero; trailing bytes that do not form a whole entry are
/// ignored, as for FORWARD TSN.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IForwardTsnChunk {
    /// New Cumulative TSN.
    pub new_cum_tsn: Tsn,
    /// The skipped messages, in order.
    pub streams: Vec<IForwardTsnStream>,
}

impl IForwardTsnChunk {
    pub(crate) fn parse_value(value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let new_cum_tsn = Tsn(r.u32()?);
        let mut streams = Vec::with_capacity(r.remaining() / I_FORWARD_TSN_ENTRY_LEN);
        while r.remaining() >= I_FORWARD_TSN_ENTRY_LEN {
            let stream_id = r.u16()?;
            let flags = r.u16()?;
            streams.push(IForwardTsnStream {
                stream_id,
                unordered: flags & ENTRY_FLAG_U != 0,
                mid: Mid(r.u32()?),
            });
        }
        Ok(IForwardTsnChunk {
            new_cum_tsn,
            streams,
        })
    }

    pub(crate) fn value_len(&self) -> usize {
        4usize.saturating_add(self.streams.len().saturating_mul(I_FORWARD_TSN_ENTRY_LEN))
    }

    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        w.u32(self.new_cum_tsn.0)?;
        for s in &self.streams {
            w.u16(s.stream_id)?;
            w.u16(if s.unordered { ENTRY_FLAG_U } else { 0 })?;
            w.u32(s.mid.0)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::sctp::packet::RawChunk;
    use crate::sctp::ChunkRepr;
    use crate::WireError;

    fn fixture() -> (IDataChunk, Vec<u8>) {
        let chunk = IDataChunk {
            tsn: Tsn(0x0102_0304),
            stream_id: 7,
            mid: Mid(0x0a0b_0c0d),
            ppid_or_fsn: 3,
            unordered: true,
            beginning: false,
            ending: true,
            immediate: false,
            user_data: b"abcde".to_vec(),
        };
        let bytes = vec![
            64, 0x05, 0, 25, // type, flags U|E, length 20 + 5
            1, 2, 3, 4, // TSN
            0, 7, 0, 0, // stream, reserved
            0x0a, 0x0b, 0x0c, 0x0d, // MID
            0, 0, 0, 3, // FSN
            b'a', b'b', b'c', b'd', b'e', 0, 0, 0, // data, padding
        ];
        (chunk, bytes)
    }

    #[test]
    fn i_data_bytes() {
        let (chunk, bytes) = fixture();
        let repr = ChunkRepr::IData(chunk.clone());
        assert_eq!(repr.to_bytes().unwrap(), bytes);
        let raw = RawChunk::new_checked(&bytes[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw).unwrap(), repr);
        assert_eq!((chunk.fsn(), chunk.ppid()), (3, None));
        let first = IDataChunk {
            beginning: true,
            ..chunk
        };
        assert_eq!((first.fsn(), first.ppid()), (0, Some(3)));
    }

    #[test]
    fn i_data_reserved_ignored_and_short_is_an_error() {
        let (chunk, mut bytes) = fixture();
        bytes[10] = 0xff;
        bytes[11] = 0xff;
        let raw = RawChunk::new_checked(&bytes[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw).unwrap(), ChunkRepr::IData(chunk));
        // 15 bytes of value: one short of the fixed fields.
        let short = [
            64u8, 0, 0, 19, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let raw = RawChunk::new_checked(&short[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw), Err(WireError::Truncated));
        // No user data parses (the association answers it).
        let empty = [
            64u8, 3, 0, 20, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 4,
        ];
        let raw = RawChunk::new_checked(&empty[..]).unwrap();
        let Ok(ChunkRepr::IData(d)) = ChunkRepr::parse(&raw) else {
            panic!("I-DATA expected");
        };
        assert!(d.user_data.is_empty() && d.beginning && d.ending);
        assert_eq!((d.mid, d.ppid()), (Mid(9), Some(4)));
    }

    #[test]
    fn i_forward_tsn_bytes() {
        let chunk = ChunkRepr::IForwardTsn(IForwardTsnChunk {
            new_cum_tsn: Tsn(100),
            streams: vec![
                IForwardTsnStream {
                    stream_id: 1,
                    unordered: false,
                    mid: Mid(5),
                },
                IForwardTsnStream {
                    stream_id: 2,
                    unordered: true,
                    mid: Mid(0x1_0000),
                },
            ],
        });
        let bytes = vec![
            0xc2, 0, 0, 24, 0, 0, 0, 100, // header, new cumulative TSN
            0, 1, 0, 0, 0, 0, 0, 5, // stream 1, ordered, MID 5
            0, 2, 0, 1, 0, 1, 0, 0, // stream 2, U, MID 65536
        ];
        assert_eq!(chunk.to_bytes().unwrap(), bytes);
        let raw = RawChunk::new_checked(&bytes[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw).unwrap(), chunk);
        // Reserved bits ignored, a partial trailing entry ignored, no cumulative TSN an error.
        let odd = [0xc2u8, 0, 0, 16, 0, 0, 0, 1, 0, 3, 0xff, 0xfe, 0, 0, 0, 2];
        let raw = RawChunk::new_checked(&odd[..]).unwrap();
        let Ok(ChunkRepr::IForwardTsn(f)) = ChunkRepr::parse(&raw) else {
            panic!("I-FORWARD-TSN expected");
        };
        assert_eq!(
            f.streams,
            vec![IForwardTsnStream {
                stream_id: 3,
                unordered: false,
                mid: Mid(2)
            }]
        );
        let cut = [0xc2u8, 0, 0, 12, 0, 0, 0, 1, 0, 3, 0, 0];
        let raw = RawChunk::new_checked(&cut[..]).unwrap();
        assert!(
            matches!(ChunkRepr::parse(&raw), Ok(ChunkRepr::IForwardTsn(f)) if f.streams.is_empty())
        );
        let none = [0xc2u8, 0, 0, 4];
        let raw = RawChunk::new_checked(&none[..]).unwrap();
        assert_eq!(ChunkRepr::parse(&raw), Err(WireError::Truncated));
    }
}
