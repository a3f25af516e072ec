//! Exact parsing of decimal seconds (`"12.345678901234"`) into integer nanoseconds, for the
//! trace importers: times never pass through `f64` unless written with an exponent.

use sctpsim_kernel::{SimDuration, SimTime};

/// Parses non-negative decimal seconds into a [`SimTime`], rounding to the nearest nanosecond
/// (halves up). Accepts `"7"`, `"7."`, `".5"`, `"+1.25"` and, through `f64`, exponents
/// (`"1e-3"`). Errors are short human-readable messages.
pub fn parse_seconds(s: &str) -> Result<SimTime, String> {
    let s = s.trim();
    let body = s.strip_prefix('+').unwrap_or(s);
    if body.starts_with('-') {
        return Err(format!("negative time `{s}`"));
    }
    if body.contains(['e', 'E']) {
        let x: f64 = body.parse().map_err(|_| format!("not a number: `{s}`"))?;
        if !x.is_finite() || x < 0.0 {
            return Err(format!("not a valid time: `{s}`"));
        }
        if x * 1e9 >= u64::MAX as f64 {
            return Err(format!("time too large: `{s}`"));
        }
        return Ok(SimTime::ZERO + SimDuration::from_secs_f64(x));
    }
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!("not a number: `{s}`"));
    }
    let too_large = || format!("time too large: `{s}`");
    let mut secs: u64 = 0;
    for b in int.bytes() {
        secs = secs
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
            .ok_or_else(too_large)?;
    }
    let digits = frac.as_bytes();
    let mut nanos: u64 = 0;
    for i in 0..9 {
        nanos = nanos * 10 + digits.get(i).map_or(0, |b| u64::from(b - b'0'));
    }
    if digits.get(9).is_some_and(|&b| b >= b'5') {
        nanos += 1;
    }
    secs.checked_mul(1_000_000_000)
        .and_then(|v| v.checked_add(nanos))
        .map(SimTime)
        .ok_or_else(too_large)
}

/// Parses a finite `f64` coordinate or speed.
pub(crate) fn parse_number(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("not a finite number: `{s}`")),
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn exact_decimal_seconds() {
        assert_eq!(parse_seconds("0"), Ok(SimTime(0)));
        assert_eq!(parse_seconds("12.5"), Ok(SimTime(12_500_000_000)));
        assert_eq!(parse_seconds("0.000000001"), Ok(SimTime(1)));
        assert_eq!(parse_seconds("0.0000000015"), Ok(SimTime(2)));
        assert_eq!(parse_seconds("0.0000000014999"), Ok(SimTime(1)));
        assert_eq!(parse_seconds("0.9999999999"), Ok(SimTime(1_000_000_000)));
        assert_eq!(
            parse_seconds("30.123456789012"),
            Ok(SimTime(30_123_456_789))
        );
        assert_eq!(parse_seconds(".5"), Ok(SimTime(500_000_000)));
        assert_eq!(parse_seconds("7."), Ok(SimTime(7_000_000_000)));
        assert_eq!(parse_seconds("+1"), Ok(SimTime(1_000_000_000)));
        assert_eq!(parse_seconds("1e-3"), Ok(SimTime(1_000_000)));
    }

    #[test]
    fn garbage_is_an_error() {
        for bad in [
            "",
            ".",
            "-1",
            "1.2.3",
            "abc",
            "1,5",
            "nan",
            "1e999",
            "99999999999999999999",
            "1e30",
            " 1 2",
        ] {
            assert!(parse_seconds(bad).is_err(), "{bad:?}");
        }
        assert!(parse_number("inf").is_err());
        assert_eq!(parse_number(" 2.5"), Ok(2.5));
    }
}
