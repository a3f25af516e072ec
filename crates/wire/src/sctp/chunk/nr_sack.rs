//! The NR-SACK chunk (Non-Renegable Selective Acknowledgement; Natarajan, Ekiz, Yilmaz, Amer,
//! Iyengar & Stewart, ICNP 2008; draft-natarajan-tsvwg-sctp-nrsack), chunk type 0x10 as
//! FreeBSD and usrsctp assign it (`SCTP_NR_SELECTIVE_ACK`) and Wireshark dissects it.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |  Type = 0x10  |  Chunk Flags  |          Chunk Length         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      Cumulative TSN Ack                       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |          Advertised Receiver Window Credit (a_rwnd)           |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Number of Gap Ack Blocks = N  | Number of NR Gap Blocks = M   |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Number of Duplicate TSNs = X  |           Reserved            |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |    Gap Ack Block #1 Start     |     Gap Ack Block #1 End      |
//! /                              ...                              /
//! |   NR Gap Ack Block #1 Start   |   NR Gap Ack Block #1 End     |
//! /                              ...                              /
//! |                        Duplicate TSN 1                        |
//! /                              ...                              /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! The field order is FreeBSD's `struct sctp_nr_sack` (`sctp_header.h`): the three counts and a
//! reserved 16-bit word, then the Gap Ack Blocks, the NR Gap Ack Blocks and the duplicate TSNs.
//! Both kinds of block are offsets from the cumulative TSN ack, as in a SACK. In FreeBSD's
//! NR-SACK the two lists are disjoint: the Gap Ack Blocks come from the renegable map only and
//! the NR Gap Ack Blocks from the non-renegable map (`sctp_send_sack` in `sctp_output.c`), and a
//! sender treats a TSN in either as acknowledged. The flags are a SACK's ([`super::sack`]): the
//! CMT DAC flag 0x80 keeps its meaning.

use super::sack::{read_blocks, read_tsns, GapAckBlock, SackChunk};
use crate::sctp::bytes::{Reader, Writer};
use crate::sctp::Tsn;
use crate::{Result, WireError};

/// Cumulative TSN ack, a_rwnd, the three counts and the reserved word: 16 bytes after the chunk
/// header (FreeBSD `struct sctp_nr_sack`).
pub const NR_SACK_FIXED_LEN: usize = 16;

/// An NR-SACK chunk: a SACK whose second list of blocks reports TSNs the receiver will not
/// renege on, so that the sender may free them from its send buffer at once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NrSackChunk {
    /// The SACK part: flags, cumulative TSN ack, a_rwnd, the (renegable) Gap Ack Blocks and
    /// the duplicate TSNs.
    pub sack: SackChunk,
    /// NR Gap Ack Blocks: TSNs received non-renegably, offsets from the cumulative TSN ack.
    pub nr_gap_blocks: Vec<GapAckBlock>,
}

impl NrSackChunk {
    /// Parses the value; the counts must fit the chunk ([`WireError::Truncated`]), trailing
    /// bytes after the listed entries are ignored, the reserved word is ignored.
    pub(crate) fn parse_value(flags: u8, value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let cum_tsn_ack = Tsn(r.u32()?);
        let a_rwnd = r.u32()?;
        let gaps = usize::from(r.u16()?);
        let nr_gaps = usize::from(r.u16()?);
        let dups = usize::from(r.u16()?);
        let _reserved = r.u16()?;
        if (gaps + nr_gaps + dups) * 4 > r.remaining() {
            return Err(WireError::Truncated);
        }
        let gap_blocks = read_blocks(&mut r, gaps)?;
        let nr_gap_blocks = read_blocks(&mut r, nr_gaps)?;
        let duplicate_tsns = read_tsns(&mut r, dups)?;
        let sack = SackChunk::received(flags, cum_tsn_ack, a_rwnd, gap_blocks, duplicate_tsns);
        Ok(NrSackChunk {
            sack,
            nr_gap_blocks,
        })
    }

    /// The chunk flags, as for a SACK.
    pub(crate) fn flags(&self) -> u8 {
        self.sack.flags()
    }

    pub(crate) fn value_len(&self) -> usize {
        let entries = self
            .sack
            .gap_blocks
            .len()
            .saturating_add(self.nr_gap_blocks.len())
            .saturating_add(self.sack.duplicate_tsns.len());
        NR_SACK_FIXED_LEN.saturating_add(entries.saturating_mul(4))
    }

    /// [`WireError::Malformed`] if a count does not fit its 16-bit field.
    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        let count = |n: usize| u16::try_from(n).map_err(|_| WireError::Malformed);
        let gaps = count(self.sack.gap_blocks.len())?;
        let nr_gaps = count(self.nr_gap_blocks.len())?;
        let dups = count(self.sack.duplicate_tsns.len())?;
        w.u32(self.sack.cum_tsn_ack.0)?;
        w.u32(self.sack.a_rwnd)?;
        w.u16(gaps)?;
        w.u16(nr_gaps)?;
        w.u16(dups)?;
        w.u16(0)?;
        for block in self.sack.gap_blocks.iter().chain(&self.nr_gap_blocks) {
            w.u16(block.start)?;
            w.u16(block.end)?;
        }
        for tsn in &self.sack.duplicate_tsns {
            w.u32(tsn.0)?;
        }
        Ok(())
    }
}
