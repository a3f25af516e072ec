//! Scenario quantities with units: `"200ms"`, `"2Mbps"`. They deserialize from strings only, so
//! a bare number (unit forgotten) or a wrong unit is an error that names the field.

use core::fmt;
use sctpsim_kernel::units::{parse_duration, parse_rate};
use sctpsim_kernel::{BitRate, SimDuration};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// A duration written with a unit (`"200ms"`, `"1.5s"`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Duration(pub SimDuration);

/// A bit rate written with a unit (`"2Mbps"`, `"28.8kbps"`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Rate(pub BitRate);

struct UnitVisitor<F> {
    what: &'static str,
    example: &'static str,
    parse: F,
}

impl<'de, T, F: Fn(&str) -> Result<T, String>> Visitor<'de> for UnitVisitor<F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} with a unit, like \"{}\"", self.what, self.example)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.parse)(v).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Err(E::custom(format!(
            "{v} has no unit; write a {} as a string like \"{}\"",
            self.what, self.example
        )))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.visit_i64(v as i64)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Err(E::custom(format!(
            "{v} has no unit; write a {} as a string like \"{}\"",
            self.what, self.example
        )))
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UnitVisitor {
            what: "duration",
            example: "200ms",
            parse: |s: &str| parse_duration(s).map(Duration).map_err(|e| e.0),
        })
    }
}

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UnitVisitor {
            what: "rate",
            example: "2Mbps",
            parse: |s: &str| parse_rate(s).map(Rate).map_err(|e| e.0),
        })
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl Serialize for Rate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl Duration {
    /// From milliseconds (for defaults).
    pub const fn millis(ms: u64) -> Self {
        Duration(SimDuration::from_millis(ms))
    }
}
