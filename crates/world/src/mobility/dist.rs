//! Random durations for mobility parameters (intervals between turns, pauses).

use crate::error::{positive, ParamError};
use sctpsim_kernel::{Rng, SimDuration};

/// A distribution of durations. Draws are converted to integer nanoseconds at once.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum DurationDist {
    /// Always the same duration.
    Constant(SimDuration),
    /// Uniform over `[min, max]` nanoseconds.
    Uniform {
        /// Shortest.
        min: SimDuration,
        /// Longest.
        max: SimDuration,
    },
    /// Exponential with the given mean.
    Exponential {
        /// Mean.
        mean: SimDuration,
    },
}

impl DurationDist {
    /// One draw. `Constant` takes no draw from `rng`; the others take one.
    pub fn sample(&self, rng: &mut Rng) -> SimDuration {
        match *self {
            DurationDist::Constant(d) => d,
            DurationDist::Uniform { min, max } => {
                let span = max.as_nanos().saturating_sub(min.as_nanos());
                SimDuration::from_nanos(min.as_nanos() + rng.below(span.saturating_add(1)))
            }
            DurationDist::Exponential { mean } => {
                SimDuration::from_secs_f64(rng.exp(mean.as_secs_f64()))
            }
        }
    }

    /// The mean duration.
    pub fn mean(&self) -> SimDuration {
        match *self {
            DurationDist::Constant(d) => d,
            DurationDist::Uniform { min, max } => {
                SimDuration::from_nanos(min.as_nanos() / 2 + max.as_nanos() / 2)
            }
            DurationDist::Exponential { mean } => mean,
        }
    }

    /// Checks that durations are positive and `min ≤ max`.
    pub fn validate(&self, field: &'static str) -> Result<(), ParamError> {
        match *self {
            DurationDist::Constant(d) | DurationDist::Exponential { mean: d } => {
                positive(field, d.as_nanos() as f64).map(|_| ())
            }
            DurationDist::Uniform { min, max } => {
                positive(field, min.as_nanos() as f64)?;
                if max < min {
                    return Err(ParamError::new(field, "max must not be below min"));
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn draws() {
        let mut rng = Rng::from_seed(4);
        let c = DurationDist::Constant(SimDuration::from_secs(2));
        assert_eq!(c.sample(&mut rng), SimDuration::from_secs(2));
        let u = DurationDist::Uniform {
            min: SimDuration::from_secs(1),
            max: SimDuration::from_secs(3),
        };
        let e = DurationDist::Exponential {
            mean: SimDuration::from_secs(2),
        };
        let n = 50_000;
        let mut su = 0.0;
        let mut se = 0.0;
        for _ in 0..n {
            let d = u.sample(&mut rng);
            assert!(d >= SimDuration::from_secs(1) && d <= SimDuration::from_secs(3));
            su += d.as_secs_f64();
            se += e.sample(&mut rng).as_secs_f64();
        }
        assert!((su / n as f64 - 2.0).abs() < 0.02);
        assert!((se / n as f64 - 2.0).abs() < 0.05);
        assert_eq!(u.mean(), SimDuration::from_secs(2));
        assert!(u.validate("x").is_ok());
        assert!(DurationDist::Constant(SimDuration::ZERO)
            .validate("x")
            .is_err());
        let bad = DurationDist::Uniform {
            min: SimDuration::from_secs(3),
            max: SimDuration::from_secs(1),
        };
        assert!(bad.validate("x").is_err());
    }
}
