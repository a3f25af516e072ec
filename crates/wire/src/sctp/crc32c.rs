//! CRC32c (Castagnoli), the checksum of the SCTP common header (RFC 9260 §6.8, Appendix A).
//!
//! The CRC uses the reflected polynomial `0x82F63B78` (the bit-reversal of `0x1EDC6F41`), an
//! initial value of all ones and a final complement, exactly as iSCSI (RFC 3720 §12.1, test
//! vectors in RFC 3720 Appendix B.4). The implementation here is table-driven, slicing-by-8: eight
//! 256-entry tables built at compile time let the inner loop consume 8 bytes per step.
//!
//! **Placement in the packet** (RFC 9260 Appendix A): the checksum is computed over the whole
//! SCTP packet with the checksum field set to zero, and the 32-bit result is transmitted with
//! its *least* significant byte first. That is the reflected CRC's natural bit order on the wire
//! and what the sample code of RFC 9260 Appendix A does: the field bytes are
//! `crc.to_le_bytes()` (Wireshark's CRC-32C check agrees; see `docs/models/sctp-wire.md`). [`sctp_checksum`] computes the value and
//! [`crate::sctp::SctpPacket::fill_checksum`] stores it.
//!
//! ```
//! use sctpsim_wire::sctp::crc32c::{crc32c, Crc32c};
//!
//! assert_eq!(crc32c(b"123456789"), 0xE306_9283);
//! let mut crc = Crc32c::new();
//! crc.update(b"1234");
//! crc.update(b"56789");
//! assert_eq!(crc.finish(), 0xE306_9283);
//! ```

/// RFC 9260 Appendix A: the CRC32c generator polynomial `0x1EDC6F41` in reflected (LSB-first)
/// form, as the table-driven algorithm uses it.
pub const POLYNOMIAL_REFLECTED: u32 = 0x82F6_3B78;

/// RFC 9260 Appendix A / RFC 3720 §12.1: the register starts as all ones and the result is
/// complemented.
const INITIAL: u32 = 0xFFFF_FFFF;

/// Slicing-by-8 tables: `TABLES[0]` is the classic byte-at-a-time table; `TABLES[k][b]` is the CRC
/// of byte `b` followed by `k` zero bytes.
static TABLES: [[u32; 256]; 8] = build_tables();

const fn build_tables() -> [[u32; 256]; 8] {
    let mut tables = [[0u32; 256]; 8];
    let mut byte = 0;
    while byte < 256 {
        let mut crc = byte as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ POLYNOMIAL_REFLECTED
            } else {
                crc >> 1
            };
            bit += 1;
        }
        tables[0][byte] = crc;
        byte += 1;
    }
    let mut byte = 0;
    while byte < 256 {
        let mut k = 1;
        while k < 8 {
            let prev = tables[k - 1][byte];
            tables[k][byte] = (prev >> 8) ^ tables[0][(prev & 0xff) as usize];
            k += 1;
        }
        byte += 1;
    }
    tables
}

/// Index of the byte of `word` at bit offset `shift` (always < 256).
#[inline(always)]
fn lane(word: u32, shift: u32) -> usize {
    ((word >> shift) & 0xff) as usize
}

/// An incremental CRC32c computation: feed bytes with [`Crc32c::update`], read the checksum with
/// [`Crc32c::finish`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crc32c {
    state: u32,
}

impl Default for Crc32c {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc32c {
    /// A computation over zero bytes so far.
    pub const fn new() -> Self {
        Crc32c { state: INITIAL }
    }

    /// Feeds `data`.
    pub fn update(&mut self, data: &[u8]) {
        let t = &TABLES;
        let mut crc = self.state;
        let mut blocks = data.chunks_exact(8);
        for block in &mut blocks {
            let mut lo = [0u8; 4];
            let mut hi = [0u8; 4];
            lo.copy_from_slice(&block[..4]);
            hi.copy_from_slice(&block[4..]);
            let lo = u32::from_le_bytes(lo) ^ crc;
            let hi = u32::from_le_bytes(hi);
            crc = t[7][lane(lo, 0)]
                ^ t[6][lane(lo, 8)]
                ^ t[5][lane(lo, 16)]
                ^ t[4][lane(lo, 24)]
                ^ t[3][lane(hi, 0)]
                ^ t[2][lane(hi, 8)]
                ^ t[1][lane(hi, 16)]
                ^ t[0][lane(hi, 24)];
        }
        for &byte in blocks.remainder() {
            crc = (crc >> 8) ^ t[0][lane(crc ^ u32::from(byte), 0)];
        }
        self.state = crc;
    }

    /// The CRC32c of everything fed so far (the computation can continue afterwards).
    pub const fn finish(&self) -> u32 {
        !self.state
    }
}

/// The CRC32c of `data`.
pub fn crc32c(data: &[u8]) -> u32 {
    let mut crc = Crc32c::new();
    crc.update(data);
    crc.finish()
}

/// RFC 9260 §3.1: the checksum field occupies bytes 8..12 of the common header.
const CHECKSUM_FIELD: core::ops::Range<usize> = 8..12;

/// The SCTP checksum of a whole SCTP packet (common header and chunks, no IP header): the
/// CRC32c computed as if the checksum field (bytes 8..12) were zero, whatever it holds
/// (RFC 9260 §6.8 and Appendix A). Store it as `value.to_le_bytes()` in bytes 8..12.
///
/// A buffer shorter than the 12-byte common header is checksummed as given (it cannot be a
/// valid packet; the function still does not panic).
pub fn sctp_checksum(packet: &[u8]) -> u32 {
    let mut crc = Crc32c::new();
    match (
        packet.get(..CHECKSUM_FIELD.start),
        packet.get(CHECKSUM_FIELD.end..),
    ) {
        (Some(head), Some(tail)) => {
            crc.update(head);
            crc.update(&[0u8; 4]);
            crc.update(tail);
        }
        _ => crc.update(packet),
    }
    crc.finish()
}

#[cfg(test)]
mod test {
    use super::*;

    /// Bit-at-a-time reference: the definition, independent of the tables.
    fn bitwise(data: &[u8]) -> u32 {
        let mut crc = INITIAL;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ POLYNOMIAL_REFLECTED
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn check_value() {
        // The "check" value of CRC-32C in the Rocksoft/Williams catalogue.
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
    }

    /// RFC 3720 Appendix B.4 (iSCSI), whose CRC byte strings are listed in transmission order,
    /// i.e. little-endian: "32 bytes of zeroes: ... CRC: aa 36 91 8a".
    #[test]
    fn rfc3720_vectors() {
        assert_eq!(crc32c(&[0u8; 32]).to_le_bytes(), [0xaa, 0x36, 0x91, 0x8a]);
        assert_eq!(
            crc32c(&[0xffu8; 32]).to_le_bytes(),
            [0x43, 0xab, 0xa8, 0x62]
        );
        let up: Vec<u8> = (0u8..32).collect();
        assert_eq!(crc32c(&up).to_le_bytes(), [0x4e, 0x79, 0xdd, 0x46]);
        let down: Vec<u8> = (0u8..32).rev().collect();
        assert_eq!(crc32c(&down).to_le_bytes(), [0x5c, 0xdb, 0x3f, 0x11]);
        // An iSCSI SCSI Read (10) command PDU.
        let pdu: [u8; 48] = [
            0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14,
            0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ];
        assert_eq!(crc32c(&pdu).to_le_bytes(), [0x56, 0x3a, 0x96, 0xd9]);
    }

    #[test]
    fn tables_agree_with_the_bitwise_definition() {
        let data: Vec<u8> = (0u32..1000).map(|i| (i * 31 + 7) as u8).collect();
        for start in 0..9 {
            for end in [start, start + 1, start + 7, start + 8, start + 9, 500, 1000] {
                let slice = &data[start..end];
                assert_eq!(crc32c(slice), bitwise(slice), "{start}..{end}");
            }
        }
    }

    #[test]
    fn incremental_equals_one_shot() {
        let data: Vec<u8> = (0u32..300).map(|i| (i * 13) as u8).collect();
        for split in [0, 1, 3, 8, 9, 150, 299, 300] {
            let mut crc = Crc32c::default();
            crc.update(&data[..split]);
            crc.update(&data[split..]);
            assert_eq!(crc.finish(), crc32c(&data));
        }
    }

    #[test]
    fn checksum_field_counts_as_zero() {
        let mut packet: Vec<u8> = (0u8..40).collect();
        let a = sctp_checksum(&packet);
        packet[8..12].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
        assert_eq!(sctp_checksum(&packet), a);
        packet[8..12].fill(0);
        assert_eq!(crc32c(&packet), a);
        // Short buffers do not panic.
        for len in 0..12 {
            let _ = sctp_checksum(&packet[..len]);
        }
    }
}
