//! The SACK chunk (RFC 9260 §3.3.4).
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |   Type = 3    |  Chunk Flags  |          Chunk Length         |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                      Cumulative TSN Ack                       |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |          Advertised Receiver Window Credit (a_rwnd)           |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! | Number of Gap Ack Blocks = N  |  Number of Duplicate TSNs = M |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |    Gap Ack Block #1 Start     |     Gap Ack Block #1 End      |
//! /                              ...                              /
//! |                        Duplicate TSN 1                        |
//! /                              ...                              /
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```

use crate::sctp::bytes::{Reader, Writer};
use crate::sctp::Tsn;
use crate::{Result, WireError};

/// RFC 9260 §3.3.4: cumulative TSN ack, a_rwnd and the two counts take 12 bytes after the chunk
/// header.
pub const SACK_FIXED_LEN: usize = 12;

/// One Gap Ack Block (RFC 9260 §3.3.4): TSNs `cum_tsn_ack + start ..= cum_tsn_ack + end` were
/// received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GapAckBlock {
    /// Gap Ack Block Start, an offset from the cumulative TSN ack.
    pub start: u16,
    /// Gap Ack Block End, an offset from the cumulative TSN ack.
    pub end: u16,
}

impl GapAckBlock {
    /// The first TSN this block acknowledges.
    pub fn first_tsn(&self, cum_tsn_ack: Tsn) -> Tsn {
        cum_tsn_ack + u32::from(self.start)
    }

    /// The last TSN this block acknowledges.
    pub fn last_tsn(&self, cum_tsn_ack: Tsn) -> Tsn {
        cum_tsn_ack + u32::from(self.end)
    }
}

/// SACK flag "P" (sctpsim's cSCTP extension, after Aydin & Shen §II "ack related parameters
/// per local address"): this SACK acknowledges only the DATA copies that arrived on the
/// receiver's address the SACK is sent from (a *per-path* SACK used during a duplicated transfer
/// in a handoff), not the association's global receive state. RFC 9260 §3.3.4 reserves the SACK
/// flags (0 on transmit, ignored on receipt). Bit 0x01 is avoided because Wireshark dissects it
/// as the nonce sum of the expired ECN-nonce draft (draft-ladha-sctp-nonce).
pub const FLAG_PER_PATH: u8 = 0x02;

/// SACK flag of CMT's Delayed ACK (Iyengar, Amer & Stewart 2006 §3.3): set, the SACK
/// acknowledges two DATA packets received since the previous SACK; clear, one. The value is
/// FreeBSD's and usrsctp's `SCTP_SACK_CMT_DAC` (`sctp.h`), so captures of either read alike.
pub const FLAG_CMT_DAC: u8 = 0x80;

/// A SACK chunk (RFC 9260 §3.3.4). All gap ack blocks and duplicate TSNs are kept, in order and
/// unvalidated (blocks may overlap or be out of order on the wire). The flags carry the
/// [`FLAG_PER_PATH`] and [`FLAG_CMT_DAC`] marks; the other bits are reserved and ignored.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SackChunk {
    /// [`FLAG_PER_PATH`]: a cSCTP per-path SACK (false for a standard SACK).
    pub per_path: bool,
    /// [`FLAG_CMT_DAC`]: the SACK acknowledges two DATA packets (CMT's DAC); false: one, or the
    /// receiver does not use DAC.
    pub dac_two_packets: bool,
    /// Cumulative TSN Ack: the last TSN received in sequence.
    pub cum_tsn_ack: Tsn,
    /// Advertised Receiver Window Credit, in bytes.
    pub a_rwnd: u32,
    /// Gap Ack Blocks, at most 65535.
    pub gap_blocks: Vec<GapAckBlock>,
    /// Duplicate TSNs received since the last SACK, at most 65535.
    pub duplicate_tsns: Vec<Tsn>,
}

impl SackChunk {
    /// Parses the value; the counts must fit the chunk ([`WireError::Truncated`]), trailing
    /// bytes after the listed entries are ignored.
    pub(crate) fn parse_value(flags: u8, value: &[u8]) -> Result<Self> {
        let mut r = Reader::new(value);
        let cum_tsn_ack = Tsn(r.u32()?);
        let a_rwnd = r.u32()?;
        let gaps = usize::from(r.u16()?);
        let dups = usize::from(r.u16()?);
        if (gaps + dups) * 4 > r.remaining() {
            return Err(WireError::Truncated);
        }
        let gap_blocks = read_blocks(&mut r, gaps)?;
        let duplicate_tsns = read_tsns(&mut r, dups)?;
        Ok(SackChunk::received(
            flags,
            cum_tsn_ack,
            a_rwnd,
            gap_blocks,
            duplicate_tsns,
        ))
    }

    /// A received SACK (or an NR-SACK's SACK part) with its flags byte decoded.
    pub(crate) fn received(
        flags: u8,
        cum_tsn_ack: Tsn,
        a_rwnd: u32,
        gap_blocks: Vec<GapAckBlock>,
        duplicate_tsns: Vec<Tsn>,
    ) -> SackChunk {
        let mut sack = SackChunk {
            per_path: false,
            dac_two_packets: false,
            cum_tsn_ack,
            a_rwnd,
            gap_blocks,
            duplicate_tsns,
        };
        sack.set_flags(flags);
        sack
    }

    /// Sets [`SackChunk::per_path`] and [`SackChunk::dac_two_packets`] from a received flags
    /// byte (the NR-SACK carries the same flags).
    fn set_flags(&mut self, flags: u8) {
        self.per_path = flags & FLAG_PER_PATH != 0;
        self.dac_two_packets = flags & FLAG_CMT_DAC != 0;
    }

    /// The chunk flags: [`FLAG_PER_PATH`] and [`FLAG_CMT_DAC`] as set.
    pub(crate) fn flags(&self) -> u8 {
        let mut f = 0;
        if self.per_path {
            f |= FLAG_PER_PATH;
        }
        if self.dac_two_packets {
            f |= FLAG_CMT_DAC;
        }
        f
    }

    pub(crate) fn value_len(&self) -> usize {
        let entries = self
            .gap_blocks
            .len()
            .saturating_add(self.duplicate_tsns.len());
        SACK_FIXED_LEN.saturating_add(entries.saturating_mul(4))
    }

    /// [`WireError::Malformed`] if a count does not fit its 16-bit field.
    pub(crate) fn emit_value(&self, w: &mut Writer<'_>) -> Result<()> {
        let gaps = u16::try_from(self.gap_blocks.len()).map_err(|_| WireError::Malformed)?;
        let dups = u16::try_from(self.duplicate_tsns.len()).map_err(|_| WireError::Malformed)?;
        w.u32(self.cum_tsn_ack.0)?;
        w.u32(self.a_rwnd)?;
        w.u16(gaps)?;
        w.u16(dups)?;
        for block in &self.gap_blocks {
            w.u16(block.start)?;
            w.u16(block.end)?;
        }
        for tsn in &self.duplicate_tsns {
            w.u32(tsn.0)?;
        }
        Ok(())
    }
}

/// `n` Gap Ack Blocks (start, end offsets), as a SACK or an NR-SACK lists them.
pub(crate) fn read_blocks(r: &mut Reader<'_>, n: usize) -> Result<Vec<GapAckBlock>> {
    let mut blocks = Vec::with_capacity(n);
    for _ in 0..n {
        blocks.push(GapAckBlock {
            start: r.u16()?,
            end: r.u16()?,
        });
    }
    Ok(blocks)
}

/// `n` TSNs (a SACK's duplicate TSNs).
pub(crate) fn read_tsns(r: &mut Reader<'_>, n: usize) -> Result<Vec<Tsn>> {
    let mut tsns = Vec::with_capacity(n);
    for _ in 0..n {
        tsns.push(Tsn(r.u32()?));
    }
    Ok(tsns)
}
