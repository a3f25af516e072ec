//! Lazily generated trajectories: a random model produces legs from its own random stream
//! only when a query reaches past the legs generated so far.
//!
//! The legs generated are kept, and generation only ever extends the log forward, so the
//! trajectory is a function of the random stream alone: querying t = 5 s and then t = 3 s gives
//! the same positions as querying only t = 3 s (DESIGN.md §1.7 "lazy mobility").

use super::leg::{Leg, LegLog};
use sctpsim_kernel::SimTime;

/// A generator of consecutive legs.
pub(crate) trait LegSource {
    /// The leg that starts at `start` (where the previous one ended). It should last at least
    /// one nanosecond; empty legs are dropped.
    fn next_leg(&mut self, start: SimTime) -> Leg;
}

/// Consecutive empty legs after which a source is considered stuck (degenerate parameters)
/// and the node is frozen where it is, rather than looping forever.
const MAX_EMPTY_LEGS: u32 = 100_000;

/// A trajectory generated on demand by a [`LegSource`].
#[derive(Clone, Debug)]
pub(crate) struct Lazy<S> {
    log: LegLog,
    source: S,
}

impl<S: LegSource> Lazy<S> {
    pub(crate) fn new(source: S) -> Self {
        Lazy {
            log: LegLog::default(),
            source,
        }
    }

    /// The leg covering `t`, generating legs up to `t` first if needed.
    pub(crate) fn leg_at(&mut self, t: SimTime) -> Leg {
        let mut empty = 0;
        loop {
            if let Some(l) = self.log.find(t) {
                return l;
            }
            let start = self.log.known_until();
            let leg = self.source.next_leg(start);
            if leg.end > leg.start {
                self.log.push(Leg { start, ..leg });
                empty = 0;
            } else {
                empty += 1;
                if empty >= MAX_EMPTY_LEGS {
                    self.log
                        .push(Leg::stationary(start, SimTime::NEVER, leg.to));
                }
            }
        }
    }

    /// Drops legs that end at or before `t` (queries before `t` then see the first kept leg).
    pub(crate) fn forget_before(&mut self, t: SimTime) {
        self.log.forget_before(t);
    }

    /// The legs generated so far.
    pub(crate) fn legs(&self) -> &[Leg] {
        self.log.legs()
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::geometry::Position;

    struct Steps(u32);
    impl LegSource for Steps {
        fn next_leg(&mut self, start: SimTime) -> Leg {
            self.0 += 1;
            let x = f64::from(self.0);
            if self.0.is_multiple_of(2) {
                // Every other leg is empty and must be dropped.
                return Leg::stationary(start, start, Position::xy(x, 0.0));
            }
            Leg::stationary(start, SimTime(start.0 + 10), Position::xy(x, 0.0))
        }
    }

    struct Stuck;
    impl LegSource for Stuck {
        fn next_leg(&mut self, start: SimTime) -> Leg {
            Leg::stationary(start, start, Position::xy(1.0, 2.0))
        }
    }

    #[test]
    fn generates_on_demand_and_drops_empty_legs() {
        let mut l = Lazy::new(Steps(0));
        assert_eq!(l.leg_at(SimTime(25)).from.x_m, 5.0);
        assert_eq!(l.legs().len(), 3);
        assert_eq!(l.leg_at(SimTime(3)).from.x_m, 1.0);
        assert_eq!(l.legs().len(), 3);
        l.forget_before(SimTime(20));
        assert_eq!(l.legs().len(), 1);
    }

    #[test]
    fn a_stuck_source_freezes_the_node() {
        let mut l = Lazy::new(Stuck);
        let leg = l.leg_at(SimTime(5));
        assert!(leg.is_open());
        assert_eq!(leg.from, Position::xy(1.0, 2.0));
    }
}
