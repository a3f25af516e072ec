//! Random walk with turning (random direction with speed changes), reflecting at the borders.
//!
//! A node moves in a straight line at a constant speed; every `change` (a time interval or a
//! travelled distance) it draws a new speed uniformly in `[speed_min, speed_max]` and turns:
//! either to a uniformly random heading ([`Turn::Any`]: the classic random walk / random
//! direction of Camp, Boleng & Davies, "A survey of mobility models for ad hoc network
//! research", WCMC 2(5), 2002; ns-3 `RandomWalk2dMobilityModel`), or by an angle
//! uniform in `[−max, +max]` relative to its heading ([`Turn::UpTo`]: "random walk with
//! turning"), or by a normally distributed angle ([`Turn::Normal`]: INET's `MassMobility`,
//! whose examples set `changeAngleBy = normal(0deg, 30deg)` and `changeInterval =
//! truncnormal(2s, 0.5s)`, [`DurationDist::TruncNormal`]; the model after Perkins & Wang,
//! "Optimized smooth handoffs in Mobile IP", ISCC 1999). At the area's edges it reflects like
//! a billiard ball, keeping its speed; the interval keeps running across a reflection.
//!
//! The OMNeT++ study (`shared/papers/omnetpp-tcp-vs-sctp-olsr.txt` §2.2–2.3.1) moves 10 nodes
//! in 500 m × 500 m by "Random Walk, change of direction with different turning speeds" at 5,
//! 10, 20, 30 and 70 km/h, with infantry and jeeps "fast turning" and tanks "medium turning";
//! it does not give the intervals or angles, so those are scenario parameters.

use super::border::step_with_reflection;
use super::dist::DurationDist;
use super::lazy::{Lazy, LegSource};
use super::leg::Leg;
use super::Mobility;
use crate::error::{finite, non_negative, positive, ParamError};
use crate::geometry::{Area, Position, Velocity};
use sctpsim_kernel::{Rng, SimDuration, SimTime};

/// How the heading changes at each change point.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Turn {
    /// A new heading uniform in [0, 2π).
    Any,
    /// The heading changes by an angle uniform in `[−max_rad, max_rad]`.
    UpTo {
        /// Largest turn, radians (with π every new heading is equally likely, as with
        /// [`Turn::Any`]).
        max_rad: f64,
    },
    /// The heading changes by a normally distributed angle with mean 0 and standard deviation
    /// `sigma_rad` (INET `MassMobility`'s `changeAngleBy = normal(0deg, σ)`).
    Normal {
        /// Standard deviation of the turn, radians.
        sigma_rad: f64,
    },
}

/// When speed and heading change.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ChangeTrigger {
    /// After a (random) time interval.
    Interval(DurationDist),
    /// After travelling this distance, m (needs `speed_min > 0`).
    Distance {
        /// Distance between changes, m.
        distance_m: f64,
    },
}

/// Random walk parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomWalkParams {
    /// The area; nodes reflect off its edges.
    pub area: Area,
    /// Slowest speed, m/s.
    pub speed_min_mps: f64,
    /// Fastest speed, m/s.
    pub speed_max_mps: f64,
    /// When to change speed and heading.
    pub change: ChangeTrigger,
    /// How to turn.
    pub turn: Turn,
    /// Height of the node, m.
    pub z_m: f64,
    /// Start here instead of at a uniform point.
    pub initial_position: Option<Position>,
}

impl RandomWalkParams {
    /// Any-direction walk changing every `interval`, uniform start, at ground level.
    pub fn new(area: Area, speed_min_mps: f64, speed_max_mps: f64, interval: SimDuration) -> Self {
        RandomWalkParams {
            area,
            speed_min_mps,
            speed_max_mps,
            change: ChangeTrigger::Interval(DurationDist::Constant(interval)),
            turn: Turn::Any,
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
        match self.change {
            ChangeTrigger::Interval(d) => d.validate("change_interval")?,
            ChangeTrigger::Distance { distance_m } => {
                positive("change_distance_m", distance_m)?;
                if self.speed_min_mps <= 0.0 {
                    return Err(ParamError::new(
                        "speed_mps.min",
                        "must be > 0 when changes are triggered by distance",
                    ));
                }
            }
        }
        match self.turn {
            Turn::UpTo { max_rad } => {
                non_negative("max_turn_rad", max_rad)?;
            }
            Turn::Normal { sigma_rad } => {
                non_negative("turn_sd_rad", sigma_rad)?;
            }
            Turn::Any => {}
        }
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

#[derive(Clone, Debug)]
struct Source {
    p: RandomWalkParams,
    rng: Rng,
    pos: Position,
    heading: f64,
    velocity: Velocity,
    remaining_ns: u64,
}

impl Source {
    fn change(&mut self) {
        let speed = self
            .rng
            .uniform_range(self.p.speed_min_mps, self.p.speed_max_mps);
        self.heading = match self.p.turn {
            Turn::Any => self.rng.uniform() * core::f64::consts::TAU,
            Turn::UpTo { max_rad } => self.heading + self.rng.uniform_range(-max_rad, max_rad),
            Turn::Normal { sigma_rad } => {
                (self.heading + sigma_rad * self.rng.normal()).rem_euclid(core::f64::consts::TAU)
            }
        };
        self.remaining_ns = match self.p.change {
            ChangeTrigger::Interval(d) => d.sample(&mut self.rng).as_nanos(),
            ChangeTrigger::Distance { distance_m } => {
                SimDuration::from_secs_f64(distance_m / speed).as_nanos()
            }
        };
        self.velocity = Velocity::from_heading(speed, self.heading);
    }
}

impl LegSource for Source {
    fn next_leg(&mut self, start: SimTime) -> Leg {
        loop {
            if self.remaining_ns == 0 {
                self.change();
                continue;
            }
            let step =
                step_with_reflection(&self.p.area, self.pos, self.velocity, self.remaining_ns);
            let (from, v) = (self.pos, self.velocity);
            self.remaining_ns -= step.dur_ns;
            self.pos = step.end;
            if step.velocity_after != v {
                self.velocity = step.velocity_after;
                self.heading = self.velocity.y_mps.atan2(self.velocity.x_mps);
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

/// A random-walk node, generated lazily from its own random stream.
#[derive(Clone, Debug)]
pub struct RandomWalk {
    lazy: Lazy<Source>,
}

impl RandomWalk {
    /// A node walking with `params`, drawing from `rng` (its own stream).
    pub fn new(params: RandomWalkParams, mut rng: Rng) -> Result<Self, ParamError> {
        params.validate()?;
        let pos = match params.initial_position {
            Some(p) => Position {
                z_m: params.z_m,
                ..p
            },
            None => params.area.uniform_point(&mut rng, params.z_m),
        };
        // The first change draws a uniform heading whatever the turn rule.
        let heading = rng.uniform() * core::f64::consts::TAU;
        let src = Source {
            p: params,
            rng,
            pos,
            heading,
            velocity: Velocity::ZERO,
            remaining_ns: 0,
        };
        Ok(RandomWalk {
            lazy: Lazy::new(src),
        })
    }

    /// The legs generated so far.
    pub fn legs(&self) -> &[Leg] {
        self.lazy.legs()
    }
}

impl Mobility for RandomWalk {
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

    fn kmh(x: f64) -> f64 {
        x / 3.6
    }

    #[test]
    fn turns_are_bounded() {
        let mut p = RandomWalkParams::new(
            Area::new(5000.0, 5000.0).unwrap(),
            kmh(5.0),
            kmh(30.0),
            SimDuration::from_secs(2),
        );
        p.turn = Turn::UpTo { max_rad: 0.3 };
        p.initial_position = Some(Position::xy(2500.0, 2500.0));
        let mut m = RandomWalk::new(p, Rng::from_seed(3)).unwrap();
        m.position(s(100));
        let legs = m.legs();
        // Far from the borders: one leg per interval (the 51st covers t = 100 s), speed in
        // range, turn ≤ 0.3 rad.
        assert_eq!(legs.len(), 51);
        for w in legs.windows(2) {
            let h0 = w[0].velocity.y_mps.atan2(w[0].velocity.x_mps);
            let h1 = w[1].velocity.y_mps.atan2(w[1].velocity.x_mps);
            let mut d = h1 - h0;
            while d > core::f64::consts::PI {
                d -= core::f64::consts::TAU;
            }
            while d < -core::f64::consts::PI {
                d += core::f64::consts::TAU;
            }
            assert!(d.abs() <= 0.3 + 1e-9, "{d}");
            assert_eq!(w[0].end - w[0].start, SimDuration::from_secs(2));
            let v = w[1].velocity.speed_mps();
            assert!(v >= kmh(5.0) - 1e-9 && v <= kmh(30.0) + 1e-9);
        }
    }

    #[test]
    fn reflects_and_keeps_interval_timing() {
        let mut p = RandomWalkParams::new(
            Area::new(50.0, 50.0).unwrap(),
            10.0,
            10.0,
            SimDuration::from_secs(10),
        );
        p.initial_position = Some(Position::xy(25.0, 25.0));
        let mut m = RandomWalk::new(p, Rng::from_seed(8)).unwrap();
        m.position(s(100));
        let legs = m.legs();
        // 10 m/s for 10 s in a 50 m box: every interval has at least one reflection.
        assert!(legs.len() > 10);
        let mut boundary = 0;
        for l in legs {
            assert!((l.velocity.speed_mps() - 10.0).abs() < 1e-9);
            if l.end.0 % 10_000_000_000 == 0 {
                boundary += 1;
            }
        }
        assert!(boundary >= 10);
    }

    #[test]
    fn distance_trigger() {
        let mut p = RandomWalkParams::new(
            Area::new(1e5, 1e5).unwrap(),
            2.0,
            4.0,
            SimDuration::from_secs(1),
        );
        p.change = ChangeTrigger::Distance { distance_m: 100.0 };
        p.initial_position = Some(Position::xy(5e4, 5e4));
        let mut m = RandomWalk::new(p.clone(), Rng::from_seed(2)).unwrap();
        m.position(s(1000));
        for l in m.legs().iter().take(5) {
            let d = l.from.distance_to(l.to);
            assert!((d - 100.0).abs() < 1e-6, "{d}");
        }
        p.speed_min_mps = 0.0;
        assert_eq!(p.validate().unwrap_err().field, "speed_mps.min");
    }

    /// Signed heading change from `a` to `b`, in (−π, π].
    fn turn(a: f64, b: f64) -> f64 {
        let mut d = b - a;
        while d > core::f64::consts::PI {
            d -= core::f64::consts::TAU;
        }
        while d <= -core::f64::consts::PI {
            d += core::f64::consts::TAU;
        }
        d
    }

    /// INET `MassMobility` as its examples configure it: 20 m/s, turns normal(0°, 30°),
    /// intervals truncnormal(2 s, 0.5 s).
    fn mass(area_m: f64) -> RandomWalkParams {
        let mut p = RandomWalkParams::new(
            Area::new(area_m, area_m).unwrap(),
            20.0,
            20.0,
            SimDuration::from_secs(2),
        );
        p.turn = Turn::Normal {
            sigma_rad: 30f64.to_radians(),
        };
        p.change = ChangeTrigger::Interval(DurationDist::TruncNormal {
            mean: SimDuration::from_secs(2),
            sd: SimDuration::from_millis(500),
        });
        p
    }

    #[test]
    fn normal_turns_have_mean_zero_and_the_given_sd() {
        // An area so large that no reflection changes a heading: every leg is one interval.
        let mut p = mass(1e9);
        p.initial_position = Some(Position::xy(5e8, 5e8));
        let mut m = RandomWalk::new(p, Rng::from_seed(5)).unwrap();
        m.position(s(40_000));
        let legs = m.legs();
        assert!(legs.len() > 15_000, "{}", legs.len());
        let turns: Vec<f64> = legs
            .windows(2)
            .map(|w| {
                let h = |l: &Leg| l.velocity.y_mps.atan2(l.velocity.x_mps);
                turn(h(&w[0]), h(&w[1]))
            })
            .collect();
        let n = turns.len() as f64;
        let mean = turns.iter().sum::<f64>() / n;
        let sd = (turns.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / n).sqrt();
        let sigma = 30f64.to_radians();
        assert!(mean.abs() < 0.02, "mean turn {mean} rad");
        assert!((sd - sigma).abs() < 0.03 * sigma, "sd {sd} rad, σ {sigma}");
        // Intervals: truncnormal(2 s, 0.5 s), constant speed.
        let durs: Vec<f64> = legs[..legs.len() - 1]
            .iter()
            .map(|l| (l.end - l.start).as_secs_f64())
            .collect();
        let mean_d = durs.iter().sum::<f64>() / durs.len() as f64;
        assert!((mean_d - 2.0).abs() < 0.02, "{mean_d}");
        for l in legs {
            assert!((l.velocity.speed_mps() - 20.0).abs() < 1e-9);
        }
    }

    #[test]
    fn normal_turns_reflect_inside_the_area_and_repeat_per_seed() {
        let run = |seed| {
            let mut m = RandomWalk::new(mass(500.0), Rng::from_seed(seed)).unwrap();
            m.position(s(3600));
            m.legs().to_vec()
        };
        let legs = run(9);
        assert!(legs.len() > 1000);
        for l in &legs {
            for q in [l.from, l.to] {
                assert!(
                    (-1e-6..=500.0 + 1e-6).contains(&q.x_m)
                        && (-1e-6..=500.0 + 1e-6).contains(&q.y_m),
                    "{q:?}"
                );
            }
        }
        assert_eq!(legs, run(9));
        assert_ne!(legs, run(10));
        let mut bad = mass(500.0);
        bad.turn = Turn::Normal { sigma_rad: -1.0 };
        assert_eq!(bad.validate().unwrap_err().field, "turn_sd_rad");
    }
}
