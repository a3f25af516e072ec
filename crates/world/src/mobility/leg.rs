//! Legs — stretches of straight-line motion at constant velocity — and the log that stores a
//! trajectory's legs in time order.

use crate::geometry::{Position, Velocity};
use sctpsim_kernel::SimTime;

/// Straight-line motion at constant velocity during `[start, end)`. `end` is
/// [`SimTime::NEVER`] for the last leg of a trajectory that never changes again.
///
/// Within a bounded leg the position is interpolated between `from` and `to` by elapsed
/// integer nanoseconds, so the end point is reached exactly; an open leg extrapolates with
/// `velocity`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Leg {
    /// First instant of the leg.
    pub start: SimTime,
    /// First instant after the leg ([`SimTime::NEVER`]: open-ended).
    pub end: SimTime,
    /// Position at `start`.
    pub from: Position,
    /// Position at `end` (equal to `from` for an open leg).
    pub to: Position,
    /// Velocity during the leg.
    pub velocity: Velocity,
}

impl Leg {
    /// Standing at `at` during `[start, end)`.
    pub fn stationary(start: SimTime, end: SimTime, at: Position) -> Leg {
        Leg {
            start,
            end,
            from: at,
            to: at,
            velocity: Velocity::ZERO,
        }
    }

    /// Moving in a straight line from `from` at `start` to `to` at `end` (`end > start`,
    /// finite).
    pub fn moving(start: SimTime, end: SimTime, from: Position, to: Position) -> Leg {
        let secs = (end - start).as_secs_f64();
        Leg {
            start,
            end,
            from,
            to,
            velocity: Velocity::between(from, to, secs),
        }
    }

    /// Moving with `velocity` from `from` at `start`, forever.
    pub fn open(start: SimTime, from: Position, velocity: Velocity) -> Leg {
        Leg {
            start,
            end: SimTime::NEVER,
            from,
            to: from,
            velocity,
        }
    }

    /// Whether `t` falls in `[start, end)`.
    pub fn contains(&self, t: SimTime) -> bool {
        self.start <= t && t < self.end
    }

    /// Whether the leg never ends.
    pub fn is_open(&self) -> bool {
        self.end == SimTime::NEVER
    }

    /// Position at `t`: clamped to `from` before the leg and to `to` after a bounded leg.
    pub fn position_at(&self, t: SimTime) -> Position {
        if t <= self.start {
            return self.from;
        }
        if self.is_open() {
            return self
                .from
                .advanced(self.velocity, (t - self.start).as_secs_f64());
        }
        if t >= self.end {
            return self.to;
        }
        let f = (t - self.start).as_nanos() as f64 / (self.end - self.start).as_nanos() as f64;
        self.from.lerp(self.to, f)
    }

    /// The leg cut short at `t` (`start < t < end`): it now ends at `t`, where it is.
    pub fn truncated(&self, t: SimTime) -> Leg {
        Leg {
            end: t,
            to: self.position_at(t),
            ..*self
        }
    }
}

/// Legs in time order, contiguous (`legs[i].end == legs[i + 1].start`), with a cursor that
/// makes the usual monotone queries O(1).
#[derive(Clone, Debug, Default)]
pub(crate) struct LegLog {
    legs: Vec<Leg>,
    cursor: usize,
}

impl LegLog {
    /// A log holding `legs` (must be contiguous and non-empty for lookups to succeed).
    pub(crate) fn new(legs: Vec<Leg>) -> Self {
        LegLog { legs, cursor: 0 }
    }

    /// All legs held.
    pub(crate) fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// End of the last leg (the time up to which the log is known); `ZERO` if empty.
    pub(crate) fn known_until(&self) -> SimTime {
        self.legs.last().map_or(SimTime::ZERO, |l| l.end)
    }

    /// The last leg.
    pub(crate) fn last(&self) -> Option<&Leg> {
        self.legs.last()
    }

    /// Appends a leg starting where the log ends.
    pub(crate) fn push(&mut self, leg: Leg) {
        self.legs.push(leg);
    }

    /// The leg covering `t`, or `None` if `t` is at or beyond [`LegLog::known_until`]. Times
    /// before the first leg map to the first leg.
    pub(crate) fn find(&mut self, t: SimTime) -> Option<Leg> {
        let last = self.legs.last()?;
        if t >= last.end {
            return None;
        }
        let mut i = self.cursor.min(self.legs.len() - 1);
        if self.legs[i].contains(t) {
            return Some(self.legs[i]);
        }
        if t >= self.legs[i].end {
            // Forward: usually the next leg.
            let stop = (i + 4).min(self.legs.len());
            while i + 1 < stop && t >= self.legs[i].end {
                i += 1;
            }
            if !self.legs[i].contains(t) {
                i = self.legs.partition_point(|l| l.end <= t);
            }
        } else {
            i = self.legs.partition_point(|l| l.end <= t);
        }
        let i = i.min(self.legs.len() - 1);
        self.cursor = i;
        Some(self.legs[i])
    }

    /// Drops the legs that end at or before `t`, keeping at least the last one.
    pub(crate) fn forget_before(&mut self, t: SimTime) {
        let n = self.legs.partition_point(|l| l.end <= t);
        let n = n.min(self.legs.len().saturating_sub(1));
        if n > 0 {
            self.legs.drain(..n);
            self.cursor = self.cursor.saturating_sub(n);
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn s(x: u64) -> SimTime {
        SimTime(x * 1_000_000_000)
    }

    #[test]
    fn positions_along_legs() {
        let a = Position::xy(0.0, 0.0);
        let b = Position::xy(10.0, 20.0);
        let l = Leg::moving(s(10), s(20), a, b);
        assert_eq!(l.position_at(s(0)), a);
        assert_eq!(l.position_at(s(10)), a);
        assert_eq!(l.position_at(s(15)), Position::xy(5.0, 10.0));
        assert_eq!(l.position_at(s(20)), b);
        assert_eq!(l.position_at(s(30)), b);
        assert_eq!(l.velocity, Velocity::new(1.0, 2.0, 0.0));
        let o = Leg::open(s(1), a, Velocity::new(3.0, 0.0, 0.0));
        assert_eq!(o.position_at(s(3)), Position::xy(6.0, 0.0));
        assert!(o.is_open() && o.contains(s(1000)) && !o.contains(s(0)));
        let t = l.truncated(s(12));
        assert_eq!(t.end, s(12));
        assert_eq!(t.to, Position::xy(2.0, 4.0));
        assert_eq!(t.position_at(s(11)), l.position_at(s(11)));
    }

    #[test]
    fn log_lookup_in_any_order() {
        let p = Position::xy(0.0, 0.0);
        let legs: Vec<Leg> = (0..100)
            .map(|i| Leg::stationary(s(i), s(i + 1), Position::xy(i as f64, 0.0)))
            .collect();
        let mut log = LegLog::new(legs);
        assert_eq!(log.known_until(), s(100));
        for t in [5u64, 6, 7, 99, 0, 50, 49, 51, 3] {
            assert_eq!(
                log.find(SimTime(t * 1_000_000_000 + 7)).unwrap().from.x_m,
                t as f64
            );
        }
        assert!(log.find(s(100)).is_none());
        log.forget_before(s(50));
        assert_eq!(log.legs().len(), 50);
        assert_eq!(
            log.find(s(10)).unwrap().start,
            s(50),
            "clamped to the first kept leg"
        );
        log.forget_before(SimTime::NEVER);
        assert_eq!(log.legs().len(), 1);
        let mut empty = LegLog::default();
        assert!(empty.find(SimTime::ZERO).is_none());
        empty.push(Leg::stationary(SimTime::ZERO, SimTime::NEVER, p));
        assert_eq!(empty.last().unwrap().from, p);
        assert!(empty.find(s(1)).is_some());
    }
}
