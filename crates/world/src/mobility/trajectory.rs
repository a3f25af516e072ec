//! A trajectory known in advance: static nodes, waypoint lists, constant velocity and the
//! imported traces (ns-2 `setdest`, BonnMotion) all become one.

use super::leg::{Leg, LegLog};
use super::Mobility;
use sctpsim_kernel::SimTime;

/// A fully known trajectory: contiguous legs from time zero, the last one open-ended.
#[derive(Clone, Debug)]
pub struct Trajectory {
    log: LegLog,
}

impl Trajectory {
    /// A trajectory from contiguous legs. The caller guarantees `legs` is non-empty, starts at
    /// zero, is contiguous and ends with an open leg (the constructors in this module do).
    pub(crate) fn from_legs(legs: Vec<Leg>) -> Self {
        debug_assert!(!legs.is_empty());
        debug_assert!(legs.last().is_some_and(|l| l.is_open()));
        debug_assert!(legs.windows(2).all(|w| w[0].end == w[1].start));
        Trajectory {
            log: LegLog::new(legs),
        }
    }

    /// The legs, in time order.
    pub fn legs(&self) -> &[Leg] {
        self.log.legs()
    }
}

impl Mobility for Trajectory {
    fn leg_at(&mut self, t: SimTime) -> Leg {
        match self.log.find(t) {
            Some(l) => l,
            // Unreachable for a well-formed trajectory (the last leg is open); stay put.
            None => {
                let p = self
                    .log
                    .last()
                    .map(|l| l.position_at(t))
                    .unwrap_or_default();
                Leg::stationary(t, SimTime::NEVER, p)
            }
        }
    }
}
