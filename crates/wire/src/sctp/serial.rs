//! Serial-number arithmetic (RFC 1982) for SCTP sequence spaces: [`Tsn`] (RFC 9260 §1.6: "TSNs
//! and SSNs ... use serial number arithmetic"), [`Ssn`] and the 32-bit message identifier
//! [`Mid`] of I-DATA (RFC 8260 §2.1).
//!
//! RFC 1982 §3.1: adding `n` is defined for `0 <= n <= 2^(SERIAL_BITS-1) - 1` and wraps.
//! §3.2: `s1 < s2` iff `(i1 < i2 and i2 - i1 < 2^(SERIAL_BITS-1))` or
//! `(i1 > i2 and i1 - i2 > 2^(SERIAL_BITS-1))`. Two numbers exactly half the space apart are
//! *not comparable*: neither is less than the other. [`Tsn::serial_cmp`] returns `None` then, and
//! the [`PartialOrd`] implementations follow it, so `a < b`, `a > b` are the RFC's relations.
//!
//! The relation is not transitive over distances of half the space or more (that is the nature
//! of serial numbers), so these types deliberately do not implement [`Ord`]: to sort or key a map,
//! use the distance from a base number ([`Tsn::distance_from`]), e.g. the cumulative TSN ack.
//!
//! ```
//! use sctpsim_wire::sctp::Tsn;
//!
//! let last = Tsn(u32::MAX);
//! let next = last + 1;
//! assert_eq!(next, Tsn(0));
//! assert!(last < next);                      // across the wrap
//! assert_eq!(next.distance_from(last), 1);
//! assert_eq!(Tsn(0).serial_cmp(Tsn(1 << 31)), None); // half the space apart: undefined
//! ```

use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, AddAssign, Sub};

macro_rules! serial_number {
    (
        $(#[$doc:meta])*
        $name:ident($int:ty), $bits:expr
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub $int);

        impl $name {
            /// RFC 1982 §2: SERIAL_BITS of this sequence space.
            pub const SERIAL_BITS: u32 = $bits;

            /// RFC 1982 §3.1: the largest distance that may be added,
            /// `2^(SERIAL_BITS-1) - 1`; also the largest distance at which two numbers compare.
            pub const MAX_ADD: $int = <$int>::MAX >> 1;

            /// The raw value.
            pub const fn get(self) -> $int {
                self.0
            }

            /// The successor, `self + 1` (wrapping).
            pub const fn next(self) -> Self {
                $name(self.0.wrapping_add(1))
            }

            /// The predecessor, `self - 1` (wrapping).
            pub const fn prev(self) -> Self {
                $name(self.0.wrapping_sub(1))
            }

            /// How many steps forward from `base` reach `self`, modulo 2^SERIAL_BITS: for
            /// `base <= self` within the comparable window this is the distance; it is the
            /// natural key when ordering numbers above a base.
            pub const fn distance_from(self, base: Self) -> $int {
                self.0.wrapping_sub(base.0)
            }

            /// RFC 1982 §3.2 comparison: `Some(Less)` if `self < other`, `Some(Greater)` if
            /// `self > other`, `Some(Equal)` if equal, and `None` if they are exactly
            /// 2^(SERIAL_BITS-1) apart (undefined by RFC 1982).
            pub fn serial_cmp(self, other: Self) -> Option<Ordering> {
                let forward = other.0.wrapping_sub(self.0);
                if forward == 0 {
                    Some(Ordering::Equal)
                } else if forward <= Self::MAX_ADD {
                    Some(Ordering::Less)
                } else if forward == Self::MAX_ADD + 1 {
                    None
                } else {
                    Some(Ordering::Greater)
                }
            }

            /// RFC 1982 §3.2: `self < other`.
            pub fn is_before(self, other: Self) -> bool {
                self.serial_cmp(other) == Some(Ordering::Less)
            }

            /// RFC 1982 §3.2: `self > other`.
            pub fn is_after(self, other: Self) -> bool {
                self.serial_cmp(other) == Some(Ordering::Greater)
            }

            /// The later of two numbers by [`Self::serial_cmp`]; `self` if they are equal or not
            /// comparable.
            pub fn later(self, other: Self) -> Self {
                if other.is_after(self) {
                    other
                } else {
                    self
                }
            }

            /// The earlier of two numbers by [`Self::serial_cmp`]; `self` if they are equal or
            /// not comparable.
            pub fn earlier(self, other: Self) -> Self {
                if other.is_before(self) {
                    other
                } else {
                    self
                }
            }
        }

        impl PartialOrd for $name {
            /// RFC 1982 §3.2; see [`Self::serial_cmp`].
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                self.serial_cmp(*other)
            }
        }

        impl Add<$int> for $name {
            type Output = $name;

            /// RFC 1982 §3.1: serial addition, `(s + n) mod 2^SERIAL_BITS`. Defined by the RFC
            /// for `n <= MAX_ADD`; larger `n` wraps the same way.
            fn add(self, n: $int) -> $name {
                $name(self.0.wrapping_add(n))
            }
        }

        impl AddAssign<$int> for $name {
            fn add_assign(&mut self, n: $int) {
                self.0 = self.0.wrapping_add(n);
            }
        }

        impl Sub<$int> for $name {
            type Output = $name;

            /// `(s - n) mod 2^SERIAL_BITS`: the number `n` steps before `self`.
            fn sub(self, n: $int) -> $name {
                $name(self.0.wrapping_sub(n))
            }
        }

        impl From<$int> for $name {
            fn from(value: $int) -> Self {
                $name(value)
            }
        }

        impl From<$name> for $int {
            fn from(value: $name) -> Self {
                value.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

serial_number! {
    /// An SCTP Transmission Sequence Number (RFC 9260 §3.3.1), a 32-bit serial number
    /// (RFC 9260 §1.6, RFC 1982).
    Tsn(u32), 32
}

serial_number! {
    /// An SCTP Stream Sequence Number (RFC 9260 §3.3.1), a 16-bit serial number per stream
    /// (RFC 9260 §1.6, RFC 1982).
    Ssn(u16), 16
}

serial_number! {
    /// An I-DATA Message Identifier (RFC 8260 §2.1), a 32-bit serial number per stream and
    /// ordering.
    Mid(u32), 32
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn rfc1982_section_5_1_examples() {
        // RFC 1982 §5.1 (SERIAL_BITS = 2): 0 < 1, 1 < 2, 2 < 3, 3 < 0; 0 vs 2 undefined.
        // The same pattern holds scaled to 16 bits.
        let q = 1u16 << 14;
        let s = |k: u16| Ssn(k.wrapping_mul(q));
        for k in 0..4 {
            assert!(s(k) < s(k + 1), "{k}");
            assert!(s(k + 1) > s(k), "{k}");
            assert_eq!(s(k).partial_cmp(&s(k + 2)), None);
            assert!(!s(k).is_before(s(k + 2)) && !s(k).is_after(s(k + 2)));
        }
    }

    #[test]
    fn wrap_around() {
        assert!(Tsn(u32::MAX) < Tsn(0));
        assert!(Tsn(0xffff_fff0) < Tsn(5));
        assert!(Tsn(5).is_after(Tsn(0xffff_fff0)));
        assert_eq!(Tsn(5).distance_from(Tsn(0xffff_fff0)), 21);
        assert_eq!(Tsn(u32::MAX).next(), Tsn(0));
        assert_eq!(Tsn(0).prev(), Tsn(u32::MAX));
        assert_eq!(Ssn(u16::MAX) + 2, Ssn(1));
        assert_eq!(Ssn(1) - 2, Ssn(u16::MAX));
        assert_eq!(Tsn(3).later(Tsn(u32::MAX)), Tsn(3));
        assert_eq!(Tsn(3).earlier(Tsn(u32::MAX)), Tsn(u32::MAX));
        let mut m = Mid(u32::MAX);
        m += 1;
        assert_eq!(m, Mid(0));
        assert_eq!(format!("{}", Tsn(42)), "42");
    }

    #[test]
    fn half_space_is_incomparable() {
        assert_eq!(Tsn(0).serial_cmp(Tsn(1 << 31)), None);
        assert_eq!(Tsn(1 << 31).serial_cmp(Tsn(0)), None);
        assert_eq!(Tsn(0).serial_cmp(Tsn((1 << 31) - 1)), Some(Ordering::Less));
        assert_eq!(
            Tsn(0).serial_cmp(Tsn((1 << 31) + 1)),
            Some(Ordering::Greater)
        );
        assert_eq!(Tsn::MAX_ADD, (1 << 31) - 1);
        assert_eq!(Ssn::MAX_ADD, (1 << 15) - 1);
    }
}
