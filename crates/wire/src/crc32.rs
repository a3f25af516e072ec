//! The IEEE 802.3 CRC-32, as used for the IEEE 802.11 frame check sequence (FCS).
//!
//! IEEE Std 802.11-2020 §9.2.4.8 (FCS field): the FCS is the 32-bit CRC of IEEE 802.3 with the
//! generator polynomial
//! `G(x) = x^32 + x^26 + x^23 + x^22 + x^16 + x^12 + x^11 + x^10 + x^8 + x^7 + x^5 + x^4 + x^2 + x + 1`,
//! initial remainder all ones, the ones-complement of the remainder transmitted. Bits are
//! processed least significant first, so the implementation below is the usual *reflected*
//! form (polynomial `0xEDB8_8320`), and the four FCS octets are the little-endian bytes of
//! [`crc32`] (this is how Wireshark reads them).
//!
//! Check value (the standard test vector of the CRC catalogue): `crc32(b"123456789") ==
//! 0xCBF4_3926`.

/// The reflected generator polynomial of IEEE 802.3 (`0x04C1_1DB7` bit-reversed).
pub const POLY_REFLECTED: u32 = 0xEDB8_8320;

/// Byte-at-a-time lookup table, computed at compile time from [`POLY_REFLECTED`].
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ POLY_REFLECTED
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// An incremental CRC-32 computation (for data that arrives in pieces).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Crc32 {
    state: u32,
}

impl Default for Crc32 {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc32 {
    /// A computation over no data yet (remainder preset to all ones).
    pub const fn new() -> Self {
        Crc32 { state: 0xFFFF_FFFF }
    }

    /// Absorbs `data`.
    pub fn update(&mut self, data: &[u8]) {
        let mut crc = self.state;
        for &byte in data {
            crc = (crc >> 8) ^ TABLE[((crc ^ u32::from(byte)) & 0xFF) as usize];
        }
        self.state = crc;
    }

    /// The CRC of everything absorbed so far (the complemented remainder).
    pub const fn finish(&self) -> u32 {
        !self.state
    }
}

/// The IEEE CRC-32 of `data`.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = Crc32::new();
    crc.update(data);
    crc.finish()
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn incremental_equals_one_shot() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 31 + 7) as u8).collect();
        let mut c = Crc32::new();
        for chunk in data.chunks(37) {
            c.update(chunk);
        }
        assert_eq!(c.finish(), crc32(&data));
    }

    #[test]
    fn residue_of_data_plus_fcs() {
        // Appending the little-endian CRC gives the fixed IEEE 802.3 residue 0x2144DF1C
        // (complemented form of the "magic number" 0xDEBB20E3).
        let mut data = b"sctpsim".to_vec();
        let fcs = crc32(&data);
        data.extend_from_slice(&fcs.to_le_bytes());
        assert_eq!(crc32(&data), 0x2144_DF1C);
    }
}
