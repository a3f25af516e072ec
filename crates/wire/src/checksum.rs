//! The Internet checksum (RFC 1071): the 16-bit one's complement of the one's complement sum of
//! the data taken as big-endian 16-bit words.
//!
//! Partial sums are carried as `u32` values that have not been folded to 16 bits yet; add them
//! with [`combine`], fold them with [`fold`] and complement the result to get the field value.

use std::net::Ipv4Addr;

/// One's complement sum of `data` taken as big-endian 16-bit words (RFC 1071 §4.1); an odd
/// trailing byte is padded with a zero byte on the right.
///
/// The result is an unfolded partial sum: it is congruent to the true sum modulo `0xFFFF` and is
/// zero only if every byte is zero. Fold it with [`fold`].
///
/// Summed four octets at a time: a big-endian 32-bit word `hi·2^16 + lo` is congruent to
/// `hi + lo` modulo `0xFFFF` (2^16 ≡ 1), so the partial sum stays valid and [`fold`] gives the
/// same value, with half the loop iterations (every IPv4 header verified at every hop, every
/// UDP and TCP checksum).
pub fn sum_bytes(data: &[u8]) -> u32 {
    let mut acc: u64 = 0;
    let mut quads = data.chunks_exact(4);
    for q in &mut quads {
        acc += u64::from(u32::from_be_bytes([q[0], q[1], q[2], q[3]]));
    }
    let mut words = quads.remainder().chunks_exact(2);
    for word in &mut words {
        acc += u64::from(u16::from_be_bytes([word[0], word[1]]));
    }
    if let [last] = words.remainder() {
        acc += u64::from(*last) << 8;
    }
    // 2^32 ≡ 1 (mod 0xFFFF): an end-around carry at 32 bits keeps the one's complement value.
    while acc > u64::from(u32::MAX) {
        acc = (acc & u64::from(u32::MAX)) + (acc >> 32);
    }
    acc as u32
}

/// Adds two unfolded partial sums with an end-around carry, so the result is again a valid
/// partial sum (RFC 1071 §2 (B): the sum is commutative and associative).
pub fn combine(a: u32, b: u32) -> u32 {
    let (sum, carry) = a.overflowing_add(b);
    // When a carry happened, `sum` <= u32::MAX - 1, so adding it back cannot overflow.
    sum + u32::from(carry)
}

/// Folds a partial sum to 16 bits by adding the carries back in (RFC 1071 §4.1, "Fold 32-bit sum
/// to 16 bits"). The result is the one's complement sum, *not* yet complemented.
pub fn fold(sum: u32) -> u16 {
    let mut sum = sum;
    while sum > 0xFFFF {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    sum as u16
}

/// The Internet checksum of `data` (RFC 1071): the value to write into a checksum field, i.e. the
/// complement of the folded one's complement sum.
///
/// Computed over a header whose checksum field is already correct, it returns 0.
pub fn internet_checksum(data: &[u8]) -> u16 {
    !fold(sum_bytes(data))
}

/// Unfolded partial sum of the IPv4 pseudo-header used by UDP and TCP checksums (RFC 768,
/// RFC 9293 §3.1): source address, destination address, a zero byte, the protocol number and
/// the upper-layer length.
pub fn pseudo_header_sum(src: Ipv4Addr, dst: Ipv4Addr, protocol: u8, length: u16) -> u32 {
    let [s0, s1, s2, s3] = src.octets();
    let [d0, d1, d2, d3] = dst.octets();
    [
        u16::from_be_bytes([s0, s1]),
        u16::from_be_bytes([s2, s3]),
        u16::from_be_bytes([d0, d1]),
        u16::from_be_bytes([d2, d3]),
        u16::from(protocol),
        length,
    ]
    .iter()
    .map(|&w| u32::from(w))
    .sum()
}

#[cfg(test)]
mod test {
    use super::*;

    /// RFC 1071 §3: bytes 00 01 f2 03 f4 f5 f6 f7 sum to ddf2 (the worked example).
    const RFC1071_EXAMPLE: [u8; 8] = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];

    #[test]
    fn rfc1071_worked_example() {
        assert_eq!(fold(sum_bytes(&RFC1071_EXAMPLE)), 0xddf2);
        assert_eq!(internet_checksum(&RFC1071_EXAMPLE), !0xddf2);
        assert_eq!(internet_checksum(&RFC1071_EXAMPLE), 0x220d);
    }

    #[test]
    fn byte_order_independence_of_the_example() {
        // RFC 1071 §2 (B): swapping bytes of every word swaps the bytes of the sum.
        let swapped: Vec<u8> = RFC1071_EXAMPLE
            .chunks(2)
            .flat_map(|w| [w[1], w[0]])
            .collect();
        assert_eq!(fold(sum_bytes(&swapped)), 0xf2dd);
    }

    #[test]
    fn odd_length_pads_with_zero() {
        assert_eq!(sum_bytes(&[0x12, 0x34, 0x56]), 0x1234 + 0x5600);
        assert_eq!(sum_bytes(&[0xab]), 0xab00);
        assert_eq!(sum_bytes(&[]), 0);
        assert_eq!(internet_checksum(&[]), 0xffff);
    }

    #[test]
    fn fold_adds_carries_repeatedly() {
        assert_eq!(fold(0x0001_ffff), 0x0001);
        assert_eq!(fold(0xffff_ffff), 0xffff);
        assert_eq!(fold(0x0000_ffff), 0xffff);
        assert_eq!(fold(0), 0);
    }

    #[test]
    fn combine_keeps_end_around_carry() {
        assert_eq!(combine(0xffff_ffff, 1), 1);
        assert_eq!(combine(0x8000_0000, 0x8000_0000), 1);
        assert_eq!(fold(combine(0xffff, 0xffff)), fold(0xffff + 0xffff));
    }

    #[test]
    fn large_buffers_do_not_overflow() {
        let data = vec![0xffu8; 1 << 20];
        assert_eq!(fold(sum_bytes(&data)), 0xffff);
        assert_eq!(internet_checksum(&data), 0);
    }

    #[test]
    fn pseudo_header() {
        let sum = pseudo_header_sum(
            Ipv4Addr::new(192, 168, 0, 1),
            Ipv4Addr::new(10, 0, 0, 2),
            17,
            30,
        );
        assert_eq!(sum, 0xc0a8 + 0x0001 + 0x0a00 + 0x0002 + 17 + 30);
    }

    /// The one's complement sum of `data` word by word, folded: RFC 1071 §4.1 as written.
    fn reference_sum(data: &[u8]) -> u16 {
        let mut sum: u32 = 0;
        for w in data.chunks(2) {
            let word = u32::from(w[0]) << 8 | u32::from(w.get(1).copied().unwrap_or(0));
            sum += word;
            sum = (sum & 0xffff) + (sum >> 16);
        }
        sum as u16
    }

    proptest::proptest! {
        #[test]
        fn four_octet_sums_fold_like_two_octet_sums(
            data in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
        ) {
            proptest::prop_assert_eq!(fold(sum_bytes(&data)), reference_sum(&data));
        }
    }

    #[test]
    fn split_sums_combine_to_the_whole() {
        let data: Vec<u8> = (0..=255u8).cycle().take(1001).collect();
        let whole = fold(sum_bytes(&data));
        let parts = fold(combine(sum_bytes(&data[..500]), sum_bytes(&data[500..])));
        assert_eq!(whole, parts);
    }
}
