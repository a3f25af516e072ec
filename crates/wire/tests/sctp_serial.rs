//! RFC 1982 properties of the SCTP serial-number types [`Tsn`] (32 bits) and [`Ssn`] (16 bits).

use core::cmp::Ordering;

use proptest::prelude::*;
use sctpsim_wire::sctp::{Mid, Ssn, Tsn};

const HALF32: u32 = 1 << 31;
const HALF16: u16 = 1 << 15;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// RFC 1982 §3.1/§3.2: for 0 < n < 2^(SERIAL_BITS-1), s + n > s and s < s + n.
    #[test]
    fn adding_moves_forward(s in any::<u32>(), n in 1u32..HALF32) {
        let (a, b) = (Tsn(s), Tsn(s) + n);
        prop_assert!(b > a);
        prop_assert!(a < b);
        prop_assert!(b.is_after(a) && a.is_before(b));
        prop_assert_eq!(b.distance_from(a), n);
        prop_assert_eq!(b - n, a);
    }

    /// RFC 1982 §3.1: s + 0 = s.
    #[test]
    fn adding_zero_is_identity(s in any::<u32>()) {
        prop_assert_eq!(Tsn(s) + 0, Tsn(s));
        prop_assert_eq!(Tsn(s).serial_cmp(Tsn(s)), Some(Ordering::Equal));
    }

    /// RFC 1982 §3.2: exactly one of <, =, > holds unless the distance is exactly 2^31, where
    /// none does; and a < b iff b > a.
    #[test]
    fn trichotomy_and_antisymmetry(a in any::<u32>(), b in any::<u32>()) {
        let (x, y) = (Tsn(a), Tsn(b));
        let relations = [x < y, x == y, x > y].iter().filter(|&&r| r).count();
        if b.wrapping_sub(a) == HALF32 {
            prop_assert_eq!(relations, 0);
            prop_assert_eq!(x.partial_cmp(&y), None);
        } else {
            prop_assert_eq!(relations, 1);
        }
        prop_assert_eq!(x < y, y > x);
        prop_assert_eq!(x.serial_cmp(y).map(Ordering::reverse), y.serial_cmp(x));
    }

    /// RFC 1982 §3.2 definition, checked literally.
    #[test]
    fn matches_the_rfc_definition(i1 in any::<u32>(), i2 in any::<u32>()) {
        let less = (i1 < i2 && i2 - i1 < HALF32) || (i1 > i2 && i1 - i2 > HALF32);
        let greater = (i1 < i2 && i2 - i1 > HALF32) || (i1 > i2 && i1 - i2 < HALF32);
        prop_assert_eq!(Tsn(i1) < Tsn(i2), less);
        prop_assert_eq!(Tsn(i1) > Tsn(i2), greater);
        prop_assert_eq!(Mid(i1) < Mid(i2), less);
    }

    /// The same for 16-bit SSNs.
    #[test]
    fn ssn_matches_the_rfc_definition(i1 in any::<u16>(), i2 in any::<u16>()) {
        let less = (i1 < i2 && i2 - i1 < HALF16) || (i1 > i2 && i1 - i2 > HALF16);
        let greater = (i1 < i2 && i2 - i1 > HALF16) || (i1 > i2 && i1 - i2 < HALF16);
        prop_assert_eq!(Ssn(i1) < Ssn(i2), less);
        prop_assert_eq!(Ssn(i1) > Ssn(i2), greater);
    }

    /// Within any window shorter than half the space, serial order is the order of distances
    /// from the window's base: it is transitive there, so sorting by distance is consistent.
    #[test]
    fn consistent_inside_a_window(base in any::<u32>(), d1 in 0u32..HALF32, d2 in 0u32..HALF32) {
        let (a, b) = (Tsn(base) + d1, Tsn(base) + d2);
        prop_assert_eq!(a.partial_cmp(&b), Some(d1.cmp(&d2)));
        prop_assert_eq!(a.later(b), Tsn(base) + d1.max(d2));
        prop_assert_eq!(a.earlier(b), Tsn(base) + d1.min(d2));
    }

    /// 16-bit wrap-around of SSN increments (RFC 9260 §6.5: "wraps back to 0").
    #[test]
    fn ssn_increments_wrap(s in any::<u16>()) {
        prop_assert_eq!(Ssn(s).next(), Ssn(s.wrapping_add(1)));
        prop_assert!(Ssn(s).next() > Ssn(s));
        prop_assert_eq!(Ssn(s).next().prev(), Ssn(s));
    }
}
