//! A node that never moves.

use super::leg::Leg;
use super::Trajectory;
use crate::error::ParamError;
use crate::geometry::Position;
use sctpsim_kernel::SimTime;

impl Trajectory {
    /// Standing at `at` forever.
    pub fn stationary(at: Position) -> Result<Trajectory, ParamError> {
        if !at.is_finite() {
            return Err(ParamError::new("position_m", "coordinates must be finite"));
        }
        Ok(Trajectory::from_legs(vec![Leg::stationary(
            SimTime::ZERO,
            SimTime::NEVER,
            at,
        )]))
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::geometry::Velocity;
    use crate::mobility::Mobility;

    #[test]
    fn never_moves() {
        let p = Position::new(1.0, 2.0, 3.0);
        let mut m = Trajectory::stationary(p).unwrap();
        for t in [0, 5, u64::MAX - 1] {
            assert_eq!(m.position(SimTime(t)), p);
            assert_eq!(m.velocity(SimTime(t)), Velocity::ZERO);
            assert_eq!(m.next_change(SimTime(t)), None);
        }
        assert!(Trajectory::stationary(Position::xy(f64::NAN, 0.0)).is_err());
    }
}
