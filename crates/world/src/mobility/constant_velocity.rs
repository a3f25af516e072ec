//! Constant-velocity motion: a vehicle on a straight road.

use super::leg::Leg;
use super::Trajectory;
use crate::error::ParamError;
use crate::geometry::{Position, Velocity};
use sctpsim_kernel::SimTime;

impl Trajectory {
    /// Stands at `start_position` until `start`, then moves with `velocity` until `stop` (if
    /// any) and stays where it is after that. The Aydin & Shen handoff scenario (a mobile node
    /// crossing two overlapping cells at 5–80 km/h) is this model.
    pub fn constant_velocity(
        start_position: Position,
        velocity: Velocity,
        start: SimTime,
        stop: Option<SimTime>,
    ) -> Result<Trajectory, ParamError> {
        if !start_position.is_finite() {
            return Err(ParamError::new("position_m", "coordinates must be finite"));
        }
        if !(velocity.x_mps.is_finite() && velocity.y_mps.is_finite() && velocity.z_mps.is_finite())
        {
            return Err(ParamError::new("velocity_mps", "components must be finite"));
        }
        if stop.is_some_and(|s| s < start) {
            return Err(ParamError::new("stop", "must not be before start"));
        }
        let mut legs = Vec::with_capacity(3);
        if start > SimTime::ZERO {
            legs.push(Leg::stationary(SimTime::ZERO, start, start_position));
        }
        match stop {
            Some(stop) if stop == start => {
                legs.push(Leg::stationary(start, SimTime::NEVER, start_position));
            }
            Some(stop) => {
                let moving = Leg::open(start, start_position, velocity);
                let end = moving.position_at(stop);
                legs.push(Leg {
                    end: stop,
                    to: end,
                    ..moving
                });
                legs.push(Leg::stationary(stop, SimTime::NEVER, end));
            }
            None => legs.push(Leg::open(start, start_position, velocity)),
        }
        Ok(Trajectory::from_legs(legs))
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::mobility::Mobility;

    fn s(x: u64) -> SimTime {
        SimTime(x * 1_000_000_000)
    }

    #[test]
    fn drives_along_a_road() {
        // 72 km/h = 20 m/s east, starting at 10 s.
        let v = Velocity::new(20.0, 0.0, 0.0);
        let mut m = Trajectory::constant_velocity(Position::xy(0.0, 5.0), v, s(10), None).unwrap();
        assert_eq!(m.position(s(5)), Position::xy(0.0, 5.0));
        assert_eq!(m.next_change(s(5)), Some(s(10)));
        assert_eq!(m.position(s(20)), Position::xy(200.0, 5.0));
        assert_eq!(m.position(SimTime(10_500_000_000)), Position::xy(10.0, 5.0));
        assert_eq!(m.velocity(s(20)), v);
        assert_eq!(m.next_change(s(20)), None);

        let mut stop =
            Trajectory::constant_velocity(Position::xy(0.0, 0.0), v, s(0), Some(s(30))).unwrap();
        assert_eq!(stop.position(s(30)), Position::xy(600.0, 0.0));
        assert_eq!(stop.position(s(99)), Position::xy(600.0, 0.0));
        assert_eq!(stop.next_change(s(1)), Some(s(30)));
        assert_eq!(stop.velocity(s(31)), Velocity::ZERO);

        assert!(
            Trajectory::constant_velocity(Position::xy(0.0, 0.0), v, s(5), Some(s(4))).is_err()
        );
        let mut same =
            Trajectory::constant_velocity(Position::xy(1.0, 0.0), v, s(5), Some(s(5))).unwrap();
        assert_eq!(same.position(s(50)), Position::xy(1.0, 0.0));
        let nan = Velocity::new(f64::NAN, 0.0, 0.0);
        assert!(Trajectory::constant_velocity(Position::xy(0.0, 0.0), nan, s(0), None).is_err());
    }
}
