//! Random waypoint (Johnson & Maltz 1996; ns-2 `setdest`, BonnMotion `RandomWaypoint`).
//!
//! A node picks a destination uniformly in the area and a speed uniformly in
//! `[speed_min, speed_max]`, travels there in a straight line, pauses for `pause`, and
//! repeats. Every node starts with a pause at its initial position, as in ns-2's `setdest`,
//! Broch et al. (MobiCom 1998: "each node begins the simulation by remaining stationary for
//! pause time seconds") and ns-3's `RandomWaypointMobilityModel` ("each object starts by
//! pausing at time zero") — so a pause as long as the run means a static network, the right
//! end of the classic pause-time axis.
//!
//! Starting every node at a uniform position with a fresh leg is not the model's stationary
//! state: nodes drift towards the centre and slow down over the first hundreds of seconds
//! (Yoon, Liu & Noble, "Random waypoint considered harmful", INFOCOM 2003). With
//! `steady_state` the initial state is drawn from the stationary distribution instead,
//! following Navidi & Camp, "Stationary distributions for the random waypoint mobility
//! model", IEEE Trans. Mobile Computing 3(1), 2004 (the same construction as Le Boudec &
//! Vojnović's perfect simulation, INFOCOM 2005):
//!
//! * the node is paused with probability `P / (P + E[L]·E[1/V])`, where `E[L]` is the mean
//!   distance between two uniform points of the rectangle ([`mean_leg_length_m`]) and
//!   `E[1/V] = ln(vmax/vmin)/(vmax − vmin)`; a paused node stands at a uniform point for a
//!   residual pause uniform in `[0, P]` (P is constant here);
//! * otherwise its current leg `(A, B)` is drawn with density proportional to its length
//!   (rejection sampling of uniform pairs), its position uniformly along the leg, and its speed
//!   from the time-stationary density `∝ 1/v` on `[vmin, vmax]`, `v = vmin·(vmax/vmin)^U`.
//!
//! The stationary state needs `speed_min > 0` (with `vmin = 0` the mean trip time is infinite
//! and the model has no stationary regime).

use super::lazy::{Lazy, LegSource};
use super::leg::Leg;
use super::Mobility;
use crate::error::{finite, non_negative, positive, ParamError};
use crate::geometry::{Area, Position};
use sctpsim_kernel::{Rng, SimDuration, SimTime};

/// Random waypoint parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomWaypointParams {
    /// The area destinations are drawn from.
    pub area: Area,
    /// Slowest speed, m/s (≥ 0; ns-2 `setdest` v1 uses 0).
    pub speed_min_mps: f64,
    /// Fastest speed, m/s.
    pub speed_max_mps: f64,
    /// Pause at each destination.
    pub pause: SimDuration,
    /// Draw the initial state from the stationary distribution (Navidi & Camp 2004).
    pub steady_state: bool,
    /// Height of the node, m.
    pub z_m: f64,
    /// Start here instead of at a uniform point (not with `steady_state`).
    pub initial_position: Option<Position>,
}

impl RandomWaypointParams {
    /// Parameters with uniform start, no pause, at ground level.
    pub fn new(area: Area, speed_min_mps: f64, speed_max_mps: f64) -> Self {
        RandomWaypointParams {
            area,
            speed_min_mps,
            speed_max_mps,
            pause: SimDuration::ZERO,
            steady_state: false,
            z_m: 0.0,
            initial_position: None,
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.area.validate()?;
        non_negative("speed_mps.min", self.speed_min_mps)?;
        positive("speed_mps.max", self.speed_max_mps)?;
        if self.speed_min_mps > self.speed_max_mps {
            return Err(ParamError::new(
                "speed_mps.min",
                "must not exceed speed_mps.max",
            ));
        }
        finite("z_m", self.z_m)?;
        if self.steady_state && self.speed_min_mps <= 0.0 {
            return Err(ParamError::new(
                "speed_mps.min",
                "must be > 0 for a steady-state start (with 0 the model has no stationary regime)",
            ));
        }
        if let Some(p) = self.initial_position {
            if self.steady_state {
                return Err(ParamError::new(
                    "initial_position",
                    "cannot be combined with steady_state",
                ));
            }
            if !p.is_finite() || !self.area.contains(p) {
                return Err(ParamError::new(
                    "initial_position",
                    "must lie inside the area",
                ));
            }
        }
        Ok(())
    }

    /// `E[1/V]` for V uniform on `[min, max]`, s/m.
    fn mean_inverse_speed(&self) -> f64 {
        let (a, b) = (self.speed_min_mps, self.speed_max_mps);
        if b - a <= 1e-12 * b {
            1.0 / b
        } else {
            (b / a).ln() / (b - a)
        }
    }

    /// Probability that a node is paused in the stationary regime.
    pub fn stationary_pause_probability(&self) -> f64 {
        let p = self.pause.as_secs_f64();
        if p == 0.0 {
            return 0.0;
        }
        p / (p + mean_leg_length_m(&self.area) * self.mean_inverse_speed())
    }
}

/// Mean distance between two points drawn uniformly from the rectangle, m (Ghosh, "Random
/// distances within a rectangle and between two rectangles", Bull. Calcutta Math. Soc. 43,
/// 1951): with sides `a`, `b` and diagonal `d`,
/// `E[L] = (a³/b² + b³/a² + d·(3 − a²/b² − b²/a²))/15 + (b²/a·ln((a + d)/b) + a²/b·ln((b + d)/a))/6`.
/// 0.5214·a for a square.
pub fn mean_leg_length_m(area: &Area) -> f64 {
    let a = area.width_m();
    let b = area.height_m();
    let d = a.hypot(b);
    let (a2, b2) = (a * a, b * b);
    (a2 * a / b2 + b2 * b / a2 + d * (3.0 - a2 / b2 - b2 / a2)) / 15.0
        + (b2 / a * ((a + d) / b).ln() + a2 / b * ((b + d) / a).ln()) / 6.0
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Phase {
    Move,
    Pause,
}

#[derive(Clone, Debug)]
struct Source {
    p: RandomWaypointParams,
    rng: Rng,
    pos: Position,
    next: Phase,
    first: Option<Leg>,
}

impl Source {
    fn travel(&mut self, start: SimTime, to: Position, speed: f64) -> Leg {
        let from = self.pos;
        self.pos = to;
        self.next = Phase::Pause;
        if speed.is_nan() || speed <= 0.0 {
            // Speed 0 (possible when speed_min = 0): stuck forever, as in ns-2.
            self.pos = from;
            return Leg::stationary(start, SimTime::NEVER, from);
        }
        let dur = SimDuration::from_secs_f64(from.distance_to(to) / speed);
        Leg::moving(start, start + dur, from, to)
    }

    /// The first leg of a steady-state start (Navidi & Camp 2004).
    fn stationary_start(&mut self) -> Leg {
        let p = self.p.clone();
        let area = p.area;
        if self.rng.uniform() < p.stationary_pause_probability() {
            self.pos = area.uniform_point(&mut self.rng, p.z_m);
            let residual = (p.pause.as_nanos() as f64 * self.rng.uniform()) as u64;
            self.next = Phase::Move;
            return Leg::stationary(SimTime::ZERO, SimTime(residual), self.pos);
        }
        let diag = area.diagonal_m();
        let (mut a, mut b) = (area.centre(p.z_m), area.centre(p.z_m));
        for _ in 0..100_000 {
            a = area.uniform_point(&mut self.rng, p.z_m);
            b = area.uniform_point(&mut self.rng, p.z_m);
            if self.rng.uniform() * diag < a.distance_to(b) {
                break;
            }
        }
        self.pos = a.lerp(b, self.rng.uniform());
        let ratio = p.speed_max_mps / p.speed_min_mps;
        let v = p.speed_min_mps * ratio.powf(self.rng.uniform());
        self.travel(SimTime::ZERO, b, v)
    }
}

impl LegSource for Source {
    fn next_leg(&mut self, start: SimTime) -> Leg {
        if let Some(first) = self.first.take() {
            return first;
        }
        match self.next {
            Phase::Move => {
                let to = self.p.area.uniform_point(&mut self.rng, self.p.z_m);
                let v = self
                    .rng
                    .uniform_range(self.p.speed_min_mps, self.p.speed_max_mps);
                self.travel(start, to, v)
            }
            Phase::Pause => {
                self.next = Phase::Move;
                Leg::stationary(start, start + self.p.pause, self.pos)
            }
        }
    }
}

/// A random-waypoint node, generated lazily from its own random stream.
#[derive(Clone, Debug)]
pub struct RandomWaypoint {
    lazy: Lazy<Source>,
}

impl RandomWaypoint {
    /// A node moving with `params`, drawing from `rng` (give each node its own stream, e.g.
    /// `seeds.stream(&StreamKey::new("mobility").with(node))`).
    pub fn new(params: RandomWaypointParams, rng: Rng) -> Result<Self, ParamError> {
        params.validate()?;
        // The initial pause (module docs); a zero pause would be an empty leg.
        let next = if params.pause > SimDuration::ZERO {
            Phase::Pause
        } else {
            Phase::Move
        };
        let mut src = Source {
            pos: params.area.centre(params.z_m),
            next,
            first: None,
            p: params,
            rng,
        };
        if src.p.steady_state {
            let first = src.stationary_start();
            src.first = Some(first);
        } else {
            src.pos = match src.p.initial_position {
                Some(p) => Position {
                    z_m: src.p.z_m,
                    ..p
                },
                None => src.p.area.uniform_point(&mut src.rng, src.p.z_m),
            };
        }
        Ok(RandomWaypoint {
            lazy: Lazy::new(src),
        })
    }

    /// The legs generated so far.
    pub fn legs(&self) -> &[Leg] {
        self.lazy.legs()
    }
}

impl Mobility for RandomWaypoint {
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

    #[test]
    fn mean_leg_length_values() {
        // Unit square: 0.521405433 (Ghosh 1951); 600 x 600: 312.84 m.
        let sq = Area::new(1.0, 1.0).unwrap();
        assert!((mean_leg_length_m(&sq) - 0.521_405_433).abs() < 1e-8);
        let a = Area::new(600.0, 600.0).unwrap();
        assert!((mean_leg_length_m(&a) - 312.843_26).abs() < 1e-3);
        // 1500 x 300 (the Broch et al. field): 524.64 m; a Python Monte Carlo of 400,000
        // pairs gives 525.4 ± 0.5.
        let r = Area::new(1500.0, 300.0).unwrap();
        assert!(
            (mean_leg_length_m(&r) - 524.639_22).abs() < 1e-3,
            "{}",
            mean_leg_length_m(&r)
        );
    }

    #[test]
    fn alternates_moves_and_pauses() {
        let mut p = RandomWaypointParams::new(Area::new(600.0, 600.0).unwrap(), 1.0, 20.0);
        p.pause = SimDuration::from_secs(30);
        let mut m = RandomWaypoint::new(p.clone(), Rng::from_seed(1)).unwrap();
        m.position(s(2000));
        let legs = m.legs();
        assert!(legs.len() > 10);
        for (i, l) in legs.iter().enumerate() {
            // Pause first (ns-2, ns-3), then move, pause, ...
            if i % 2 == 0 {
                assert_eq!(l.end - l.start, p.pause);
                assert_eq!(l.from, l.to);
            } else {
                let v = l.velocity.speed_mps();
                assert!((1.0 - 1e-6..=20.0 + 1e-6).contains(&v), "{v}");
            }
            if i > 0 {
                assert_eq!(l.start, legs[i - 1].end);
                assert_eq!(l.from, legs[i - 1].to);
            }
        }
    }

    #[test]
    fn parameter_errors() {
        let a = Area::new(100.0, 100.0).unwrap();
        let bad = RandomWaypointParams::new(a, 5.0, 1.0);
        assert_eq!(bad.validate().unwrap_err().field, "speed_mps.min");
        let mut ss = RandomWaypointParams::new(a, 0.0, 1.0);
        ss.steady_state = true;
        assert_eq!(ss.validate().unwrap_err().field, "speed_mps.min");
        let mut out = RandomWaypointParams::new(a, 1.0, 2.0);
        out.initial_position = Some(Position::xy(200.0, 0.0));
        assert_eq!(out.validate().unwrap_err().field, "initial_position");
        assert!(RandomWaypoint::new(out, Rng::from_seed(1)).is_err());
        let zero = RandomWaypointParams::new(a, 0.0, 0.0);
        assert_eq!(zero.validate().unwrap_err().field, "speed_mps.max");
    }

    #[test]
    fn stationary_pause_probability() {
        let mut p = RandomWaypointParams::new(Area::new(600.0, 600.0).unwrap(), 1.0, 20.0);
        assert_eq!(p.stationary_pause_probability(), 0.0);
        p.pause = SimDuration::from_secs(60);
        // 60 / (60 + 312.84 · ln(20)/19) = 0.548817.
        assert!((p.stationary_pause_probability() - 0.548_817).abs() < 1e-5);
    }
}
