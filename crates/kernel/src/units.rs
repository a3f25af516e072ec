//! Quantities with units, parsed at the edges only (scenario files, command line).
//!
//! Values are written as a decimal number immediately followed by a unit: `"200ms"`, `"1.5s"`,
//! `"2Mbps"`. The decimal is parsed exactly (no `f64` on the way), so `"0.1s"` is exactly
//! 100,000,000 ns. Rates use SI prefixes (1 kbit/s = 1000 bit/s), as ns-2, ns-3 and every
//! link-layer standard do.

use crate::time::SimDuration;
use core::fmt;

/// Why a quantity could not be parsed. The message is meant for users; the caller adds the field
/// path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitError(pub String);

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnitError {}

/// A bit rate in bit/s.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BitRate(pub u64);

impl BitRate {
    /// Bits per second.
    #[inline]
    pub const fn bps(self) -> u64 {
        self.0
    }

    /// Time to serialise `bytes` at this rate, rounded up to the next nanosecond so that
    /// back-to-back packets never exceed the rate. Zero rate gives zero (callers reject it).
    pub fn tx_time(self, bytes: usize) -> SimDuration {
        if self.0 == 0 {
            return SimDuration::ZERO;
        }
        let bits = bytes as u128 * 8 * 1_000_000_000;
        let ns = bits.div_ceil(self.0 as u128);
        SimDuration(u64::try_from(ns).unwrap_or(u64::MAX))
    }
}

impl fmt::Display for BitRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v >= 1_000_000_000 && v.is_multiple_of(1_000_000) {
            write!(f, "{}Gbps", trim(v as f64 / 1e9))
        } else if v >= 1_000_000 && v.is_multiple_of(1_000) {
            write!(f, "{}Mbps", trim(v as f64 / 1e6))
        } else if v >= 1_000 {
            write!(f, "{}kbps", trim(v as f64 / 1e3))
        } else {
            write!(f, "{v}bps")
        }
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Duration units accepted, with their length in nanoseconds.
const DURATION_UNITS: &[(&str, u64)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("min", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Rate units accepted, with their value in bit/s (SI prefixes).
const RATE_UNITS: &[(&str, u64)] = &[
    ("bps", 1),
    ("kbps", 1_000),
    ("Kbps", 1_000),
    ("Mbps", 1_000_000),
    ("Gbps", 1_000_000_000),
    ("bit/s", 1),
    ("kbit/s", 1_000),
    ("Mbit/s", 1_000_000),
    ("Gbit/s", 1_000_000_000),
];

/// Split `"1.5ms"` into the number and the unit; the number must be a plain non-negative decimal.
fn split_number(s: &str) -> Result<(&str, &str), UnitError> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '-' || *c == '+'))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(end);
    if num.is_empty() {
        return Err(UnitError(format!(
            "expected a number followed by a unit, got {s:?}"
        )));
    }
    if num.starts_with('-') {
        return Err(UnitError(format!("must not be negative, got {s:?}")));
    }
    Ok((num.trim_start_matches('+'), unit.trim()))
}

/// Multiply the exact decimal `num` by the integer `scale`, rounding to the nearest integer.
fn scale_decimal(num: &str, scale: u64, original: &str) -> Result<u64, UnitError> {
    let bad = || UnitError(format!("malformed number in {original:?}"));
    let (int_part, frac_part) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(bad());
    }
    if !int_part.chars().all(|c| c.is_ascii_digit())
        || !frac_part.chars().all(|c| c.is_ascii_digit())
    {
        return Err(bad());
    }
    if frac_part.len() > 18 {
        return Err(UnitError(format!(
            "too many decimal places in {original:?}"
        )));
    }
    let too_big = || UnitError(format!("{original:?} is too large"));
    let int: u128 = if int_part.is_empty() {
        0
    } else {
        int_part.parse().map_err(|_| too_big())?
    };
    let frac: u128 = if frac_part.is_empty() {
        0
    } else {
        frac_part.parse().map_err(|_| bad())?
    };
    let denom = 10u128.pow(frac_part.len() as u32);
    let whole = int.checked_mul(scale as u128).ok_or_else(too_big)?;
    let part = (frac * scale as u128 + denom / 2) / denom;
    let total = whole.checked_add(part).ok_or_else(too_big)?;
    u64::try_from(total).map_err(|_| too_big())
}

fn lookup(unit: &str, table: &[(&str, u64)]) -> Option<u64> {
    table.iter().find(|(u, _)| *u == unit).map(|(_, v)| *v)
}

fn unit_list(table: &[(&str, u64)]) -> String {
    table.iter().map(|(u, _)| *u).collect::<Vec<_>>().join(", ")
}

/// Parse a duration such as `"200ms"`, `"1.5s"`, `"30us"`. A bare number is rejected: a duration
/// without a unit is the most common scenario mistake.
pub fn parse_duration(s: &str) -> Result<SimDuration, UnitError> {
    let (num, unit) = split_number(s)?;
    if unit.is_empty() {
        return Err(UnitError(format!(
            "missing unit in {s:?}; write e.g. \"{num}s\" or \"{num}ms\""
        )));
    }
    let scale = lookup(unit, DURATION_UNITS).ok_or_else(|| {
        UnitError(format!(
            "unknown duration unit {unit:?} in {s:?}; expected one of {}",
            unit_list(DURATION_UNITS)
        ))
    })?;
    Ok(SimDuration(scale_decimal(num, scale, s)?))
}

/// Parse a bit rate such as `"2Mbps"`, `"28.8kbps"`, `"11Mbit/s"`.
pub fn parse_rate(s: &str) -> Result<BitRate, UnitError> {
    let (num, unit) = split_number(s)?;
    if unit.is_empty() {
        return Err(UnitError(format!(
            "missing unit in {s:?}; write e.g. \"{num}Mbps\" or \"{num}kbps\""
        )));
    }
    let scale = lookup(unit, RATE_UNITS).ok_or_else(|| {
        UnitError(format!(
            "unknown rate unit {unit:?} in {s:?}; expected one of {}",
            unit_list(RATE_UNITS)
        ))
    })?;
    Ok(BitRate(scale_decimal(num, scale, s)?))
}

/// Format a duration with the largest unit that keeps it exact (`"200ms"`, `"1.5s"`).
pub fn format_duration(d: SimDuration, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let ns = d.0;
    if ns == 0 {
        return f.write_str("0s");
    }
    for (unit, scale) in [("s", 1_000_000_000u64), ("ms", 1_000_000), ("us", 1_000)] {
        if ns >= scale {
            let whole = ns / scale;
            let rem = ns % scale;
            if rem == 0 {
                return write!(f, "{whole}{unit}");
            }
            let digits = scale.ilog10() as usize;
            let frac = format!("{rem:0digits$}");
            return write!(f, "{whole}.{}{unit}", frac.trim_end_matches('0'));
        }
    }
    write!(f, "{ns}ns")
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("200ms").unwrap(), SimDuration(200_000_000));
        assert_eq!(parse_duration("1.5s").unwrap(), SimDuration(1_500_000_000));
        assert_eq!(parse_duration("0.1s").unwrap(), SimDuration(100_000_000));
        assert_eq!(parse_duration(".5ms").unwrap(), SimDuration(500_000));
        assert_eq!(parse_duration("20us").unwrap(), SimDuration(20_000));
        assert_eq!(parse_duration("6min").unwrap(), SimDuration::from_secs(360));
        assert_eq!(parse_duration("0s").unwrap(), SimDuration::ZERO);
    }

    #[test]
    fn duration_errors_say_why() {
        assert!(parse_duration("200")
            .unwrap_err()
            .0
            .contains("missing unit"));
        assert!(parse_duration("2Mbps")
            .unwrap_err()
            .0
            .contains("unknown duration unit"));
        assert!(parse_duration("-1s").unwrap_err().0.contains("negative"));
        assert!(parse_duration("1.2.3s").is_err());
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("99999999999999999999s").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("2Mbps").unwrap(), BitRate(2_000_000));
        assert_eq!(parse_rate("28.8kbps").unwrap(), BitRate(28_800));
        assert_eq!(parse_rate("11Mbit/s").unwrap(), BitRate(11_000_000));
        assert!(parse_rate("-2Mbps").is_err());
        assert!(parse_rate("2MB").is_err());
        assert!(parse_rate("2ms")
            .unwrap_err()
            .0
            .contains("unknown rate unit"));
    }

    #[test]
    fn tx_time_rounds_up() {
        // 1000 bytes at 1 Mbit/s = 8 ms exactly.
        assert_eq!(BitRate(1_000_000).tx_time(1000), SimDuration(8_000_000));
        // 1 byte at 3 bit/s = 2.666..s, rounded up.
        assert_eq!(BitRate(3).tx_time(1), SimDuration(2_666_666_667));
    }

    #[test]
    fn display_round_trips() {
        for s in ["200ms", "1.5s", "20us", "7ns", "3s"] {
            let d = parse_duration(s).unwrap();
            assert_eq!(d.to_string(), s);
        }
        assert_eq!(BitRate(2_000_000).to_string(), "2Mbps");
        assert_eq!(BitRate(28_800).to_string(), "28.8kbps");
    }
}
