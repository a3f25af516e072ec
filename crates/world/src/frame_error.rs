//! A frame error probability that grows with the distance from the access point.
//!
//! The Mobile IP study (Atiquzzaman & Fu, "Improving end-to-end throughput of Mobile IP using
//! SCTP", `shared/papers/atiquzzaman-fu-mobile-ip-sctp.txt`, slide "Simulation setup") states
//! only that the "wireless error depends on distance between MH and HA/FA", with the MH–HA/FA
//! link's delay "vary by distance" (slide "Simulation topology and parameters"), and motivates
//! it by "signal fading at the edge of the cell" (slide "Problem statement"). The published
//! material gives no formula, so the shape is a parameter: a piecewise-linear table or an
//! exponential growth capped at a maximum. A frame's fate is one Bernoulli draw per frame.
//!
//! What one probability of the table applies to is [`FrameErrorUnit`]: every frame alike
//! (ns-2's `ErrorModel` with `unit_ pkt`, its default), a frame of a reference length (ns-2's
//! `unit_ byte`: longer frames fail more often, whatever the rate), or a frame of a reference
//! airtime (the same error per unit of time on the air: slower rates fail more often; ns-2.1b8's
//! uniform `ErrorModel` had no such unit, `ErrorModel::CorruptTime` only warns).

use crate::error::{non_negative, positive, ParamError};
use sctpsim_kernel::Rng;

/// Frame error probability as a function of the distance from the agent (HA/FA), m.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum FrameErrorVsDistance {
    /// No distance-dependent errors.
    #[default]
    None,
    /// Linear interpolation between `(distance_m, probability)` points sorted by distance;
    /// constant beyond the first and last points.
    PiecewiseLinear(Vec<(f64, f64)>),
    /// `p(d) = min(p0 · exp(d / d0), max_p)`: `p0` at the agent, multiplied by e every `d0`.
    Exponential {
        /// Error probability at distance 0.
        p0: f64,
        /// Distance over which the probability grows e-fold, m.
        d0_m: f64,
        /// Cap, ≤ 1.
        max_p: f64,
    },
}

/// What one probability of a [`FrameErrorVsDistance`] applies to: a frame of `k` reference
/// units is lost with `1 − (1 − p)^k` (independent errors in each unit; `k = 1` for
/// [`FrameErrorUnit::Frame`]).
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub enum FrameErrorUnit {
    /// Every frame, whatever its length and rate (ns-2 `ErrorModel` `unit_ pkt`, the default:
    /// ns-2.1b8 `queue/errmodel.cc`, `ErrorModel::ErrorModel() ... unit_(EU_PKT)`).
    #[default]
    Frame,
    /// A frame of `reference_bytes` (MPDU with FCS): ns-2's `unit_ byte`, whose per-byte rate
    /// gives `1 − (1 − rate)^bytes` per frame (`ErrorModel::CorruptByte`).
    Bytes {
        /// The frame length the table's probabilities are for, bytes (> 0).
        reference_bytes: f64,
    },
    /// A frame on the air for `reference_ns` (preamble included).
    Airtime {
        /// The airtime the table's probabilities are for, ns (> 0).
        reference_ns: f64,
    },
}

impl FrameErrorUnit {
    /// How many reference units a frame of `bytes` on the air for `airtime_ns` is.
    pub fn exposure(&self, bytes: usize, airtime_ns: u64) -> f64 {
        match *self {
            FrameErrorUnit::Frame => 1.0,
            FrameErrorUnit::Bytes { reference_bytes } => bytes as f64 / reference_bytes,
            FrameErrorUnit::Airtime { reference_ns } => airtime_ns as f64 / reference_ns,
        }
    }

    /// Checks the reference is positive and finite.
    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            FrameErrorUnit::Frame => Ok(()),
            FrameErrorUnit::Bytes { reference_bytes } => {
                positive("reference_bytes", reference_bytes).map(drop)
            }
            FrameErrorUnit::Airtime { reference_ns } => {
                positive("reference_airtime", reference_ns).map(drop)
            }
        }
    }
}

impl FrameErrorVsDistance {
    /// Error probability at `distance_m`, in [0, 1].
    pub fn error_probability(&self, distance_m: f64) -> f64 {
        let d = if distance_m.is_nan() {
            0.0
        } else {
            distance_m.max(0.0)
        };
        let p = match self {
            FrameErrorVsDistance::None => 0.0,
            FrameErrorVsDistance::PiecewiseLinear(points) => interpolate(points, d),
            FrameErrorVsDistance::Exponential { p0, d0_m, max_p } => {
                (p0 * (d / d0_m).exp()).min(*max_p)
            }
        };
        if p.is_nan() {
            0.0
        } else {
            p.clamp(0.0, 1.0)
        }
    }

    /// Draws a frame's fate: `true` if the frame is lost. Always takes exactly one draw from
    /// `rng` (also for [`FrameErrorVsDistance::None`]), so the stream's use does not depend on
    /// the distance or the model.
    pub fn frame_lost(&self, distance_m: f64, rng: &mut Rng) -> bool {
        self.frame_lost_scaled(distance_m, 1.0, rng)
    }

    /// [`FrameErrorVsDistance::frame_lost`] for a frame of `exposure` reference units
    /// ([`FrameErrorUnit::exposure`]): lost with `1 − (1 − p(d))^exposure`. One draw, always.
    pub fn frame_lost_scaled(&self, distance_m: f64, exposure: f64, rng: &mut Rng) -> bool {
        let u = rng.uniform();
        u < scaled(self.error_probability(distance_m), exposure)
    }

    /// Checks the parameters: probabilities in [0, 1], distances ≥ 0 and strictly increasing,
    /// `d0 > 0`.
    pub fn validate(&self) -> Result<(), ParamError> {
        let prob = |field, p: f64| {
            if (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(ParamError::new(
                    field,
                    format!("must be a probability in [0, 1], got {p}"),
                ))
            }
        };
        match self {
            FrameErrorVsDistance::None => Ok(()),
            FrameErrorVsDistance::PiecewiseLinear(points) => {
                if points.is_empty() {
                    return Err(ParamError::new(
                        "points",
                        "needs at least one (distance, p) point",
                    ));
                }
                let mut last = f64::NEG_INFINITY;
                for &(d, p) in points {
                    non_negative("points.distance_m", d)?;
                    prob("points.p", p)?;
                    if d <= last {
                        return Err(ParamError::new(
                            "points.distance_m",
                            "distances must be strictly increasing",
                        ));
                    }
                    last = d;
                }
                Ok(())
            }
            FrameErrorVsDistance::Exponential { p0, d0_m, max_p } => {
                prob("p0", *p0)?;
                positive("d0_m", *d0_m)?;
                prob("max_p", *max_p)
            }
        }
    }
}

/// `1 − (1 − p)^k`: the probability that at least one of `k` units with error probability `p`
/// fails (`p` itself for `k = 1`, exactly, so the frame unit draws as before).
fn scaled(p: f64, k: f64) -> f64 {
    if k == 1.0 || p <= 0.0 || p >= 1.0 {
        return p;
    }
    if k.is_nan() || k <= 0.0 {
        return 0.0;
    }
    -(k * (-p).ln_1p()).exp_m1()
}

fn interpolate(points: &[(f64, f64)], d: f64) -> f64 {
    let Some(&(d_first, p_first)) = points.first() else {
        return 0.0;
    };
    if d <= d_first {
        return p_first;
    }
    for w in points.windows(2) {
        let ((d0, p0), (d1, p1)) = (w[0], w[1]);
        if d <= d1 {
            let f = if d1 > d0 { (d - d0) / (d1 - d0) } else { 1.0 };
            return p0 + (p1 - p0) * f;
        }
    }
    points.last().map_or(0.0, |&(_, p)| p)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn piecewise_linear() {
        let m =
            FrameErrorVsDistance::PiecewiseLinear(vec![(50.0, 0.0), (150.0, 0.1), (250.0, 0.5)]);
        assert!(m.validate().is_ok());
        assert_eq!(m.error_probability(0.0), 0.0);
        assert_eq!(m.error_probability(50.0), 0.0);
        assert!((m.error_probability(100.0) - 0.05).abs() < 1e-12);
        assert!((m.error_probability(200.0) - 0.3).abs() < 1e-12);
        assert_eq!(m.error_probability(1000.0), 0.5);
        assert_eq!(m.error_probability(f64::NAN), 0.0);
    }

    #[test]
    fn exponential_is_capped() {
        let m = FrameErrorVsDistance::Exponential {
            p0: 0.001,
            d0_m: 50.0,
            max_p: 0.8,
        };
        assert!(m.validate().is_ok());
        assert!((m.error_probability(0.0) - 0.001).abs() < 1e-15);
        assert!((m.error_probability(50.0) - 0.001 * std::f64::consts::E).abs() < 1e-12);
        assert_eq!(m.error_probability(1e4), 0.8);
        let mut last = 0.0;
        for d in 0..400 {
            let p = m.error_probability(d as f64);
            assert!(p >= last);
            last = p;
        }
    }

    #[test]
    fn draws_follow_the_probability() {
        let m = FrameErrorVsDistance::PiecewiseLinear(vec![(0.0, 0.2)]);
        let mut rng = Rng::from_seed(9);
        let n = 100_000;
        let lost = (0..n).filter(|_| m.frame_lost(10.0, &mut rng)).count() as f64 / n as f64;
        assert!((lost - 0.2).abs() < 0.004, "{lost}");
        // One draw per frame whatever the model.
        let mut a = Rng::from_seed(1);
        let mut b = Rng::from_seed(1);
        assert!(!FrameErrorVsDistance::None.frame_lost(5.0, &mut a));
        m.frame_lost(5.0, &mut b);
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn a_unit_scales_the_probability_per_reference() {
        let m = FrameErrorVsDistance::PiecewiseLinear(vec![(0.0, 0.2)]);
        // Two reference units fail with 1 − 0.8², half of one with 1 − 0.8^½.
        let bytes = FrameErrorUnit::Bytes {
            reference_bytes: 500.0,
        };
        assert_eq!(bytes.exposure(1000, 7), 2.0);
        let air = FrameErrorUnit::Airtime {
            reference_ns: 4_000_000.0,
        };
        assert_eq!(air.exposure(1000, 2_000_000), 0.5);
        assert_eq!(FrameErrorUnit::Frame.exposure(1000, 2_000_000), 1.0);
        let p = m.error_probability(10.0);
        assert!((scaled(p, 2.0) - 0.36).abs() < 1e-12);
        assert!((scaled(p, 0.5) - (1.0 - 0.8f64.sqrt())).abs() < 1e-12);
        assert_eq!(scaled(p, 1.0), 0.2);
        assert_eq!(scaled(1.0, 0.01), 1.0);
        assert_eq!(scaled(0.3, 0.0), 0.0);
        let mut rng = Rng::from_seed(3);
        let n = 100_000;
        let lost = (0..n)
            .filter(|_| m.frame_lost_scaled(10.0, 2.0, &mut rng))
            .count() as f64
            / n as f64;
        assert!((lost - 0.36).abs() < 0.005, "{lost}");
        assert_eq!(
            FrameErrorUnit::Bytes {
                reference_bytes: 0.0
            }
            .validate()
            .unwrap_err()
            .field,
            "reference_bytes"
        );
    }

    #[test]
    fn validation_names_the_field() {
        let bad = FrameErrorVsDistance::PiecewiseLinear(vec![(10.0, 0.1), (10.0, 0.2)]);
        assert_eq!(bad.validate().unwrap_err().field, "points.distance_m");
        let bad = FrameErrorVsDistance::PiecewiseLinear(vec![(10.0, 1.5)]);
        assert_eq!(bad.validate().unwrap_err().field, "points.p");
        assert!(FrameErrorVsDistance::PiecewiseLinear(vec![])
            .validate()
            .is_err());
        let bad = FrameErrorVsDistance::Exponential {
            p0: 0.1,
            d0_m: 0.0,
            max_p: 1.0,
        };
        assert_eq!(bad.validate().unwrap_err().field, "d0_m");
    }
}
