//! Straight-line motion inside a rectangle, reflecting off its edges like a billiard ball.

use crate::geometry::{Area, Position, Velocity};

/// One straight piece of motion of at most `max_ns`, ended early by hitting an edge.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Step {
    /// Duration of the piece, ns (0 if the node sits on an edge moving outwards: then only
    /// the velocity is reflected).
    pub dur_ns: u64,
    /// Where the piece ends (inside the area).
    pub end: Position,
    /// Velocity after the piece (reflected if an edge was hit).
    pub velocity_after: Velocity,
}

/// Moves from `pos` with `vel` for up to `max_ns`, stopping at the first edge crossing. On a
/// crossing the velocity component normal to the edge (both, in a corner) is reversed.
pub(crate) fn step_with_reflection(area: &Area, pos: Position, vel: Velocity, max_ns: u64) -> Step {
    let time_to = |p: f64, v: f64, lo: f64, hi: f64| -> f64 {
        if v > 0.0 {
            ((hi - p) / v).max(0.0)
        } else if v < 0.0 {
            ((lo - p) / v).max(0.0)
        } else {
            f64::INFINITY
        }
    };
    let tx = time_to(pos.x_m, vel.x_mps, area.x_min_m, area.x_max_m);
    let ty = time_to(pos.y_m, vel.y_mps, area.y_min_m, area.y_max_m);
    let t_hit = tx.min(ty);
    let max_secs = max_ns as f64 * 1e-9;
    if t_hit.is_nan() || t_hit >= max_secs {
        let end = area.clamp(pos.advanced(vel, max_secs));
        return Step {
            dur_ns: max_ns,
            end,
            velocity_after: vel,
        };
    }
    let dur_ns = ((t_hit * 1e9).round() as u64).min(max_ns);
    let mut end = area.clamp(pos.advanced(vel, t_hit));
    let mut after = vel;
    // Both components when the corner is hit (within a picosecond).
    if tx <= t_hit + 1e-12 {
        end.x_m = if vel.x_mps > 0.0 {
            area.x_max_m
        } else {
            area.x_min_m
        };
        after.x_mps = -vel.x_mps;
    }
    if ty <= t_hit + 1e-12 {
        end.y_m = if vel.y_mps > 0.0 {
            area.y_max_m
        } else {
            area.y_min_m
        };
        after.y_mps = -vel.y_mps;
    }
    Step {
        dur_ns,
        end,
        velocity_after: after,
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn free_motion_and_reflection() {
        let a = Area::new(100.0, 100.0).unwrap();
        let s = step_with_reflection(
            &a,
            Position::xy(50.0, 50.0),
            Velocity::new(1.0, 0.0, 0.0),
            10_000_000_000,
        );
        assert_eq!(s.dur_ns, 10_000_000_000);
        assert_eq!(s.end, Position::xy(60.0, 50.0));
        assert_eq!(s.velocity_after, Velocity::new(1.0, 0.0, 0.0));

        let s = step_with_reflection(
            &a,
            Position::xy(90.0, 50.0),
            Velocity::new(2.0, 1.0, 0.0),
            60_000_000_000,
        );
        assert_eq!(s.dur_ns, 5_000_000_000);
        assert_eq!(s.end, Position::xy(100.0, 55.0));
        assert_eq!(s.velocity_after, Velocity::new(-2.0, 1.0, 0.0));

        // Corner.
        let s = step_with_reflection(
            &a,
            Position::xy(90.0, 90.0),
            Velocity::new(1.0, 1.0, 0.0),
            60_000_000_000,
        );
        assert_eq!(s.end, Position::xy(100.0, 100.0));
        assert_eq!(s.velocity_after, Velocity::new(-1.0, -1.0, 0.0));

        // On the edge moving out: zero-length step, velocity reflected.
        let s = step_with_reflection(
            &a,
            Position::xy(100.0, 10.0),
            Velocity::new(1.0, 0.0, 0.0),
            1_000,
        );
        assert_eq!(s.dur_ns, 0);
        assert_eq!(s.velocity_after, Velocity::new(-1.0, 0.0, 0.0));

        // Standing still.
        let s = step_with_reflection(&a, Position::xy(1.0, 1.0), Velocity::ZERO, 77);
        assert_eq!((s.dur_ns, s.end), (77, Position::xy(1.0, 1.0)));
    }
}
