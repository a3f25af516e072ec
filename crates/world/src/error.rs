//! Error types of the world crate. Nothing in this crate panics on user input: parameters are
//! validated into [`ParamError`], imported files into [`ImportError`].

use core::fmt;

/// A model parameter is out of range. `field` is the parameter's name as the scenario spells
/// it (the engine prefixes the section path: `mobility.speed_mps.min: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The offending parameter.
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl ParamError {
    /// An error for `field`.
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        ParamError {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ParamError {}

/// An imported trace file (ns-2 `setdest`, BonnMotion) could not be read. `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// 1-based line number of the offending line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl ImportError {
    /// An error at 1-based `line`.
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        ImportError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ImportError {}

/// `Err` unless `x` is finite.
pub(crate) fn finite(field: &'static str, x: f64) -> Result<f64, ParamError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(ParamError::new(
            field,
            format!("must be a finite number, got {x}"),
        ))
    }
}

/// `Err` unless `x` is finite and > 0.
pub(crate) fn positive(field: &'static str, x: f64) -> Result<f64, ParamError> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(ParamError::new(field, format!("must be > 0, got {x}")))
    }
}

/// `Err` unless `x` is finite and >= 0.
pub(crate) fn non_negative(field: &'static str, x: f64) -> Result<f64, ParamError> {
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(ParamError::new(field, format!("must be >= 0, got {x}")))
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn messages_name_field_and_line() {
        assert_eq!(
            ParamError::new("speed_mps.max", "must be > 0").to_string(),
            "speed_mps.max: must be > 0"
        );
        assert_eq!(
            ImportError::new(12, "bad number").to_string(),
            "line 12: bad number"
        );
        assert!(positive("x", 0.0).is_err());
        assert!(positive("x", f64::NAN).is_err());
        assert!(non_negative("x", 0.0).is_ok());
        assert!(finite("x", f64::INFINITY).is_err());
    }
}
