//! Mobility: where a node is at any instant, evaluated lazily (DESIGN.md §1.7).
//!
//! Every model is a sequence of [`Leg`]s — straight lines at constant velocity. The engine
//! asks [`Mobility::position`] when it needs a position (a frame is sent) and
//! [`Mobility::next_change`] to know until when the current velocity holds (to schedule its
//! spatial-grid update); there are no periodic position events.
//!
//! | model | type | file |
//! |---|---|---|
//! | static | [`Trajectory::stationary`] | `static_.rs` |
//! | waypoint list | [`Trajectory::from_waypoints`] | `waypoint.rs` |
//! | constant velocity (a road) | [`Trajectory::constant_velocity`] | `constant_velocity.rs` |
//! | random waypoint | [`RandomWaypoint`] | `random_waypoint.rs` |
//! | random walk / direction with turning | [`RandomWalk`] | `random_walk.rs` |
//! | Gauss–Markov | [`GaussMarkov`] | `gauss_markov.rs` |
//! | ns-2 `setdest` import | [`parse_setdest`] | `setdest.rs` |
//! | BonnMotion import | [`parse_bonnmotion`] | `bonnmotion.rs` |
//!
//! Random models draw only from the [`sctpsim_kernel::Rng`] they are given (the caller takes it
//! from the seed tree with a stable key such as `("mobility", node)`), generate legs forward on
//! demand and keep them, so the trajectory does not depend on the order or pattern of queries.

pub mod bonnmotion;
mod border;
pub mod constant_velocity;
pub mod dist;
pub mod gauss_markov;
mod lazy;
pub mod leg;
pub mod random_walk;
pub mod random_waypoint;
pub mod setdest;
pub mod static_;
pub mod timeparse;
pub mod trajectory;
pub mod waypoint;

pub use bonnmotion::{parse_bonnmotion, Dims};
pub use dist::DurationDist;
pub use gauss_markov::{GaussMarkov, GaussMarkovParams};
pub use leg::Leg;
pub use random_walk::{ChangeTrigger, RandomWalk, RandomWalkParams, Turn};
pub use random_waypoint::{mean_leg_length_m, RandomWaypoint, RandomWaypointParams};
pub use setdest::{parse_setdest, parse_setdest_for};
pub use trajectory::Trajectory;
pub use waypoint::Waypoint;

use crate::geometry::{Position, Velocity};
use sctpsim_kernel::SimTime;

/// A node's motion. Methods take `&mut self` because random models generate legs on demand;
/// the answers depend only on `t`, never on earlier queries.
pub trait Mobility {
    /// The leg in effect at `t` (`leg.start ≤ t < leg.end`).
    fn leg_at(&mut self, t: SimTime) -> Leg;

    /// Position at `t`.
    fn position(&mut self, t: SimTime) -> Position {
        self.leg_at(t).position_at(t)
    }

    /// Velocity at `t`.
    fn velocity(&mut self, t: SimTime) -> Velocity {
        self.leg_at(t).velocity
    }

    /// End of the leg in effect at `t`: the next instant the velocity may change, or `None` if
    /// it never changes again.
    fn next_change(&mut self, t: SimTime) -> Option<SimTime> {
        let leg = self.leg_at(t);
        (!leg.is_open()).then_some(leg.end)
    }

    /// Lets the model drop legs that end at or before `t` to bound memory in long runs. Call it
    /// only with a time no later query will precede: queries before `t` afterwards return
    /// positions clamped to the first kept leg. The default keeps everything.
    fn forget_before(&mut self, _t: SimTime) {}
}

/// Any mobility model, for storage without dynamic dispatch.
#[derive(Clone, Debug)]
pub enum MobilityModel {
    /// A trajectory known in advance (static, waypoints, constant velocity, imported traces).
    Trajectory(Trajectory),
    /// Random waypoint.
    RandomWaypoint(RandomWaypoint),
    /// Random walk / random direction with turning.
    RandomWalk(RandomWalk),
    /// Gauss–Markov.
    GaussMarkov(GaussMarkov),
}

impl Mobility for MobilityModel {
    fn leg_at(&mut self, t: SimTime) -> Leg {
        match self {
            MobilityModel::Trajectory(m) => m.leg_at(t),
            MobilityModel::RandomWaypoint(m) => m.leg_at(t),
            MobilityModel::RandomWalk(m) => m.leg_at(t),
            MobilityModel::GaussMarkov(m) => m.leg_at(t),
        }
    }

    fn forget_before(&mut self, t: SimTime) {
        match self {
            MobilityModel::Trajectory(m) => m.forget_before(t),
            MobilityModel::RandomWaypoint(m) => m.forget_before(t),
            MobilityModel::RandomWalk(m) => m.forget_before(t),
            MobilityModel::GaussMarkov(m) => m.forget_before(t),
        }
    }
}

impl From<Trajectory> for MobilityModel {
    fn from(m: Trajectory) -> Self {
        MobilityModel::Trajectory(m)
    }
}

impl From<RandomWaypoint> for MobilityModel {
    fn from(m: RandomWaypoint) -> Self {
        MobilityModel::RandomWaypoint(m)
    }
}

impl From<RandomWalk> for MobilityModel {
    fn from(m: RandomWalk) -> Self {
        MobilityModel::RandomWalk(m)
    }
}

impl From<GaussMarkov> for MobilityModel {
    fn from(m: GaussMarkov) -> Self {
        MobilityModel::GaussMarkov(m)
    }
}
