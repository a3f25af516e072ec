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
    /// Normal with mean `mean` and standard deviation `sd`, truncated at zero: negative draws
    /// are drawn again (OMNeT++'s `truncnormal(mean, sd)`, which INET's `MassMobility`
    /// examples use for `changeInterval`).
    TruncNormal {
        /// Mean of the normal before truncation (positive).
        mean: SimDuration,
        /// Its standard deviation.
        sd: SimDuration,
    },
}

/// Redraws of a negative truncated-normal draw before the mean is taken instead: with a
/// positive mean a draw is negative with probability below 1/2, so this is never reached in
/// practice; it only bounds the loop.
const TRUNC_NORMAL_MAX_DRAWS: u32 = 64;

impl DurationDist {
    /// One draw. `Constant` takes no draw from `rng`; `TruncNormal` takes one normal draw per
    /// try (two uniforms); the others take one.
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
            DurationDist::TruncNormal { mean, sd } => {
                let (m, s) = (mean.as_secs_f64(), sd.as_secs_f64());
                for _ in 0..TRUNC_NORMAL_MAX_DRAWS {
                    let x = m + s * rng.normal();
                    if x >= 0.0 {
                        return SimDuration::from_secs_f64(x);
                    }
                }
                mean
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
            // The mean before truncation: above it by sd·φ(α)/(1 − Φ(α)), α = −mean/sd, which
            // is below 0.01 % of the mean for sd ≤ mean/4 (INET's 2 s, 0.5 s).
            DurationDist::TruncNormal { mean, .. } => mean,
        }
    }

    /// Checks that durations are positive and `min ≤ max`.
    pub fn validate(&self, field: &'static str) -> Result<(), ParamError> {
        match *self {
            DurationDist::Constant(d)
            | DurationDist::Exponential { mean: d }
            | DurationDist::TruncNormal { mean: d, .. } => {
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

    #[test]
    fn truncated_normal_draws() {
        let mut rng = Rng::from_seed(11);
        let d = DurationDist::TruncNormal {
            mean: SimDuration::from_secs(2),
            sd: SimDuration::from_millis(500),
        };
        let n = 50_000;
        let (mut sum, mut sq) = (0.0, 0.0);
        for _ in 0..n {
            let x = d.sample(&mut rng).as_secs_f64();
            assert!(x >= 0.0);
            sum += x;
            sq += x * x;
        }
        let mean = sum / n as f64;
        let sd = (sq / n as f64 - mean * mean).sqrt();
        assert!((mean - 2.0).abs() < 0.01, "{mean}");
        assert!((sd - 0.5).abs() < 0.01, "{sd}");
        // Heavily truncated: every draw is still ≥ 0, and the truncated mean is above the
        // mean of the normal.
        let wide = DurationDist::TruncNormal {
            mean: SimDuration::from_secs(1),
            sd: SimDuration::from_secs(3),
        };
        let mut sum = 0.0;
        for _ in 0..n {
            sum += wide.sample(&mut rng).as_secs_f64();
        }
        assert!(sum / n as f64 > 1.5);
        assert!(wide.validate("x").is_ok());
        let zero = DurationDist::TruncNormal {
            mean: SimDuration::ZERO,
            sd: SimDuration::from_secs(1),
        };
        assert_eq!(zero.validate("x").unwrap_err().field, "x");
    }
}
