//! A list of timed waypoints visited in straight lines.

use super::leg::Leg;
use super::Trajectory;
use crate::error::ParamError;
use crate::geometry::Position;
use sctpsim_kernel::SimTime;

/// Where a node is at a given time.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Waypoint {
    /// When.
    pub time: SimTime,
    /// Where.
    pub position: Position,
}

impl Waypoint {
    /// At `position` at `time`.
    pub fn new(time: SimTime, position: Position) -> Self {
        Waypoint { time, position }
    }
}

impl Trajectory {
    /// Moves in straight lines at constant speed from waypoint to waypoint. Before the first
    /// waypoint the node stands at it; after the last it stays there. Two waypoints with the
    /// same time make the node jump (BonnMotion and ns-2 traces use this for teleports).
    ///
    /// Errors: an empty list, non-finite coordinates, or times that decrease (the error's
    /// message names the index).
    pub fn from_waypoints(waypoints: &[Waypoint]) -> Result<Trajectory, ParamError> {
        let Some(first) = waypoints.first() else {
            return Err(ParamError::new("waypoints", "needs at least one waypoint"));
        };
        for (i, w) in waypoints.iter().enumerate() {
            if !w.position.is_finite() {
                return Err(ParamError::new(
                    "waypoints",
                    format!("waypoint {i}: coordinates must be finite"),
                ));
            }
            if i > 0 && w.time < waypoints[i - 1].time {
                return Err(ParamError::new(
                    "waypoints",
                    format!("waypoint {i}: time goes backwards"),
                ));
            }
        }
        let mut legs = Vec::with_capacity(waypoints.len() + 1);
        if first.time > SimTime::ZERO {
            legs.push(Leg::stationary(SimTime::ZERO, first.time, first.position));
        }
        for w in waypoints.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b.time > a.time {
                legs.push(if a.position == b.position {
                    Leg::stationary(a.time, b.time, a.position)
                } else {
                    Leg::moving(a.time, b.time, a.position, b.position)
                });
            }
        }
        let last = waypoints[waypoints.len() - 1];
        legs.push(Leg::stationary(last.time, SimTime::NEVER, last.position));
        Ok(Trajectory::from_legs(legs))
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::geometry::Velocity;
    use crate::mobility::Mobility;

    fn s(x: u64) -> SimTime {
        SimTime(x * 1_000_000_000)
    }

    #[test]
    fn visits_waypoints_in_order() {
        let w = [
            Waypoint::new(s(10), Position::xy(0.0, 0.0)),
            Waypoint::new(s(20), Position::xy(100.0, 0.0)),
            Waypoint::new(s(30), Position::xy(100.0, 0.0)),
            Waypoint::new(s(30), Position::xy(0.0, 50.0)),
            Waypoint::new(s(35), Position::xy(0.0, 0.0)),
        ];
        let mut m = Trajectory::from_waypoints(&w).unwrap();
        assert_eq!(m.position(s(0)), Position::xy(0.0, 0.0));
        assert_eq!(m.velocity(s(5)), Velocity::ZERO);
        assert_eq!(m.next_change(s(5)), Some(s(10)));
        assert_eq!(m.position(s(15)), Position::xy(50.0, 0.0));
        assert_eq!(m.velocity(s(15)), Velocity::new(10.0, 0.0, 0.0));
        assert_eq!(m.position(s(25)), Position::xy(100.0, 0.0));
        // The jump at 30 s.
        assert_eq!(m.position(s(30)), Position::xy(0.0, 50.0));
        assert_eq!(m.velocity(s(31)), Velocity::new(0.0, -10.0, 0.0));
        assert_eq!(m.position(s(100)), Position::xy(0.0, 0.0));
        assert_eq!(m.next_change(s(100)), None);
        assert_eq!(m.legs().len(), 5);
    }

    #[test]
    fn rejects_bad_lists() {
        assert!(Trajectory::from_waypoints(&[]).is_err());
        let back = [
            Waypoint::new(s(2), Position::xy(0.0, 0.0)),
            Waypoint::new(s(1), Position::xy(0.0, 0.0)),
        ];
        assert!(Trajectory::from_waypoints(&back)
            .unwrap_err()
            .message
            .contains("waypoint 1"));
        let nan = [Waypoint::new(s(0), Position::xy(f64::NAN, 0.0))];
        assert!(Trajectory::from_waypoints(&nan).is_err());
        let one = [Waypoint::new(SimTime::ZERO, Position::xy(3.0, 4.0))];
        let mut m = Trajectory::from_waypoints(&one).unwrap();
        assert_eq!(m.position(s(9)), Position::xy(3.0, 4.0));
    }
}
