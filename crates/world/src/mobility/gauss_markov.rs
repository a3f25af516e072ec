//! Gauss–Markov mobility (Liang & Haas, "Predictive distance-based mobility management for
//! PCS networks", INFOCOM 1999; as described by Camp, Boleng & Davies, WCMC 2(5), 2002).
//!
//! Speed and direction are first-order autoregressive processes updated every
//! `update_interval`:
//!
//! ```text
//! s_n = α·s_{n−1} + (1 − α)·s̄ + sqrt(1 − α²)·σ_s·N(0,1)
//! d_n = α·d_{n−1} + (1 − α)·d̄ + sqrt(1 − α²)·σ_d·N(0,1)
//! ```
//!
//! α = 0 gives memoryless (random-walk-like) motion, α = 1 straight lines. Between updates the
//! node moves in a straight line with `(s_n, d_n)`, so legs stay linear. Speeds are clamped to
//! `[0, max_speed]`; the mean direction is unwrapped to within π of the current direction
//! before averaging.
//!
//! Borders: within `edge_margin_m` of an edge the mean direction of the update points to the
//! area's centre (Camp et al.'s rule of steering away from edges, generalised to corners); a
//! node that still reaches an edge reflects off it, and its current and mean directions are
//! mirrored with it (ns-3's `GaussMarkovMobilityModel` likewise turns both around at a
//! boundary), so nodes stay in the
//! area without piling up at the edges.

use super::border::step_with_reflection;
use super::lazy::{Lazy, LegSource};
use super::leg::Leg;
use super::Mobility;
use crate::error::{finite, non_negative, ParamError};
use crate::geometry::{Area, Position, Velocity};
use sctpsim_kernel::{Rng, SimDuration, SimTime};

use core::f64::consts::{PI, TAU};

/// Gauss–Markov parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct GaussMarkovParams {
    /// The area; nodes reflect off its edges.
    pub area: Area,
    /// Memory α ∈ [0, 1].
    pub alpha: f64,
    /// Mean speed s̄, m/s (also the initial speed).
    pub mean_speed_mps: f64,
    /// Standard deviation σ_s of the speed's random term, m/s.
    pub speed_std_mps: f64,
    /// Largest speed, m/s (`f64::INFINITY`: no cap).
    pub max_speed_mps: f64,
    /// Mean direction d̄, radians (0 = east); `None`: drawn uniformly per node.
    pub mean_direction_rad: Option<f64>,
    /// Standard deviation σ_d of the direction's random term, radians.
    pub direction_std_rad: f64,
    /// Time between updates.
    pub update_interval: SimDuration,
    /// Distance from an edge within which the mean direction points to the centre, m (0: off).
    pub edge_margin_m: f64,
    /// Height of the node, m.
    pub z_m: f64,
    /// Start here instead of at a uniform point.
    pub initial_position: Option<Position>,
}

impl GaussMarkovParams {
    /// Parameters with a random mean direction per node, no speed cap, no edge margin,
    /// uniform start at ground level.
    pub fn new(
        area: Area,
        alpha: f64,
        mean_speed_mps: f64,
        speed_std_mps: f64,
        direction_std_rad: f64,
        update_interval: SimDuration,
    ) -> Self {
        GaussMarkovParams {
            area,
            alpha,
            mean_speed_mps,
            speed_std_mps,
            max_speed_mps: f64::INFINITY,
            mean_direction_rad: None,
            direction_std_rad,
            update_interval,
            edge_margin_m: 0.0,
            z_m: 0.0,
            initial_position: None,
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.area.validate()?;
        if !(0.0..=1.0).contains(&self.alpha) {
            return Err(ParamError::new(
                "alpha",
                format!("must be in [0, 1], got {}", self.alpha),
            ));
        }
        non_negative("mean_speed_mps", self.mean_speed_mps)?;
        non_negative("speed_std_mps", self.speed_std_mps)?;
        if self.max_speed_mps.is_nan() || self.max_speed_mps < self.mean_speed_mps {
            return Err(ParamError::new(
                "max_speed_mps",
                "must be >= mean_speed_mps",
            ));
        }
        if let Some(d) = self.mean_direction_rad {
            finite("mean_direction_rad", d)?;
        }
        non_negative("direction_std_rad", self.direction_std_rad)?;
        if self.update_interval.is_zero() {
            return Err(ParamError::new("update_interval", "must be > 0"));
        }
        non_negative("edge_margin_m", self.edge_margin_m)?;
        finite("z_m", self.z_m)?;
        if let Some(p) = self.initial_position {
            if !p.is_finite() || !self.area.contains(p) {
                return Err(ParamError::new(
                    "initial_position",
                    "must lie inside the area",
                ));
            }
        }
        Ok(())
    }
}

/// `x` wrapped into (−π, π].
fn wrap(mut x: f64) -> f64 {
    x %= TAU;
    if x > PI {
        x -= TAU;
    } else if x <= -PI {
        x += TAU;
    }
    x
}

#[derive(Clone, Debug)]
struct Source {
    p: GaussMarkovParams,
    rng: Rng,
    pos: Position,
    speed: f64,
    direction: f64,
    mean_direction: f64,
    velocity: Velocity,
    remaining_ns: u64,
    started: bool,
}

impl Source {
    fn near_edge(&self) -> bool {
        let a = &self.p.area;
        let m = self.p.edge_margin_m;
        m > 0.0
            && (self.pos.x_m - a.x_min_m < m
                || a.x_max_m - self.pos.x_m < m
                || self.pos.y_m - a.y_min_m < m
                || a.y_max_m - self.pos.y_m < m)
    }

    fn update(&mut self) {
        if self.started {
            let a = self.p.alpha;
            let k = (1.0 - a * a).max(0.0).sqrt();
            let target = if self.near_edge() {
                let c = self.p.area.centre(self.p.z_m);
                (c.y_m - self.pos.y_m).atan2(c.x_m - self.pos.x_m)
            } else {
                self.mean_direction
            };
            // Average angles on the circle: bring the target within π of the direction.
            let target = self.direction + wrap(target - self.direction);
            let ns = self.rng.normal();
            let nd = self.rng.normal();
            self.speed = (a * self.speed
                + (1.0 - a) * self.p.mean_speed_mps
                + k * self.p.speed_std_mps * ns)
                .clamp(0.0, self.p.max_speed_mps);
            self.direction =
                wrap(a * self.direction + (1.0 - a) * target + k * self.p.direction_std_rad * nd);
        }
        self.started = true;
        self.remaining_ns = self.p.update_interval.as_nanos();
        self.velocity = Velocity::from_heading(self.speed, self.direction);
    }
}

impl LegSource for Source {
    fn next_leg(&mut self, start: SimTime) -> Leg {
        loop {
            if self.remaining_ns == 0 {
                self.update();
            }
            let step =
                step_with_reflection(&self.p.area, self.pos, self.velocity, self.remaining_ns);
            let (from, v) = (self.pos, self.velocity);
            self.remaining_ns -= step.dur_ns;
            self.pos = step.end;
            let after = step.velocity_after;
            if after != v {
                // Mirror the current and the mean direction in the edge that was hit.
                let (mut mx, mut my) = (self.mean_direction.cos(), self.mean_direction.sin());
                if after.x_mps != v.x_mps {
                    mx = -mx;
                }
                if after.y_mps != v.y_mps {
                    my = -my;
                }
                self.mean_direction = my.atan2(mx);
                self.direction = after.y_mps.atan2(after.x_mps);
                self.velocity = after;
            }
            if step.dur_ns > 0 {
                return Leg {
                    start,
                    end: start + SimDuration::from_nanos(step.dur_ns),
                    from,
                    to: step.end,
                    velocity: v,
                };
            }
        }
    }
}

/// A Gauss–Markov node, generated lazily from its own random stream.
#[derive(Clone, Debug)]
pub struct GaussMarkov {
    lazy: Lazy<Source>,
}

impl GaussMarkov {
    /// A node moving with `params`, drawing from `rng` (its own stream).
    pub fn new(params: GaussMarkovParams, mut rng: Rng) -> Result<Self, ParamError> {
        params.validate()?;
        let pos = match params.initial_position {
            Some(p) => Position {
                z_m: params.z_m,
                ..p
            },
            None => params.area.uniform_point(&mut rng, params.z_m),
        };
        let mean_direction = match params.mean_direction_rad {
            Some(d) => wrap(d),
            None => rng.uniform() * TAU - PI,
        };
        let src = Source {
            speed: params.mean_speed_mps,
            direction: mean_direction,
            mean_direction,
            p: params,
            rng,
            pos,
            velocity: Velocity::ZERO,
            remaining_ns: 0,
            started: false,
        };
        Ok(GaussMarkov {
            lazy: Lazy::new(src),
        })
    }

    /// The legs generated so far.
    pub fn legs(&self) -> &[Leg] {
        self.lazy.legs()
    }
}

impl Mobility for GaussMarkov {
    fn leg_at(&mut self, t: SimTime) -> Leg {
        self.lazy.leg_at(t)
    }

    fn forget_before(&mut self, t: SimTime) {
        self.lazy.forget_before(t);
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn s(x: u64) -> SimTime {
        SimTime(x * 1_000_000_000)
    }

    fn params(alpha: f64) -> GaussMarkovParams {
        let mut p = GaussMarkovParams::new(
            Area::new(1e6, 1e6).unwrap(),
            alpha,
            10.0,
            2.0,
            0.4,
            SimDuration::from_secs(1),
        );
        p.initial_position = Some(Position::xy(5e5, 5e5));
        p.mean_direction_rad = Some(0.0);
        p
    }

    #[test]
    fn alpha_one_is_a_straight_line() {
        let mut m = GaussMarkov::new(params(1.0), Rng::from_seed(1)).unwrap();
        let p = m.position(s(100));
        assert!(
            (p.x_m - (5e5 + 1000.0)).abs() < 1e-6 && (p.y_m - 5e5).abs() < 1e-6,
            "{p:?}"
        );
    }

    #[test]
    fn speed_reverts_to_the_mean() {
        let mut m = GaussMarkov::new(params(0.5), Rng::from_seed(5)).unwrap();
        m.position(s(20_000));
        let legs = m.legs();
        let n = legs.len() as f64;
        let mean = legs.iter().map(|l| l.velocity.speed_mps()).sum::<f64>() / n;
        // Stationary variance of the speed: σ² (the √(1−α²) factor makes it so).
        let var = legs
            .iter()
            .map(|l| (l.velocity.speed_mps() - mean).powi(2))
            .sum::<f64>()
            / n;
        assert!((mean - 10.0).abs() < 0.1, "{mean}");
        assert!((var.sqrt() - 2.0).abs() < 0.1, "{}", var.sqrt());
        // The mean direction 0 (east) dominates: net drift eastwards.
        assert!(m.position(s(20_000)).x_m > 5e5 + 1e5);
    }

    #[test]
    fn validation_and_wrap() {
        let mut p = params(1.5);
        assert_eq!(p.validate().unwrap_err().field, "alpha");
        p.alpha = 0.5;
        p.max_speed_mps = 1.0;
        assert_eq!(p.validate().unwrap_err().field, "max_speed_mps");
        p.max_speed_mps = f64::INFINITY;
        p.update_interval = SimDuration::ZERO;
        assert_eq!(p.validate().unwrap_err().field, "update_interval");
        assert!((wrap(3.0 * PI) - PI).abs() < 1e-12);
        assert!((wrap(-3.0 * PI / 2.0) - PI / 2.0).abs() < 1e-12);
        assert_eq!(wrap(0.5), 0.5);
    }
}
