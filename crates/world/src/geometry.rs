//! Points, velocities and rectangular areas in metres.
//!
//! Space is `f64` metres (DESIGN.md §1.2 restricts only *time* to integers). Distances are
//! Euclidean in three dimensions, as ns-2's propagation models compute them.

use crate::error::{finite, positive, ParamError};
use sctpsim_kernel::Rng;

/// A point in space, metres.
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct Position {
    /// East coordinate, m.
    pub x_m: f64,
    /// North coordinate, m.
    pub y_m: f64,
    /// Height of the node above the ground, m (antenna heights are added by the propagation
    /// model).
    pub z_m: f64,
}

impl Position {
    /// The point `(x, y, z)` in metres.
    pub const fn new(x_m: f64, y_m: f64, z_m: f64) -> Self {
        Position { x_m, y_m, z_m }
    }

    /// The point `(x, y)` on the ground (`z = 0`).
    pub const fn xy(x_m: f64, y_m: f64) -> Self {
        Position { x_m, y_m, z_m: 0.0 }
    }

    /// Euclidean distance in three dimensions, m.
    #[inline]
    pub fn distance_to(self, other: Position) -> f64 {
        let dx = self.x_m - other.x_m;
        let dy = self.y_m - other.y_m;
        let dz = self.z_m - other.z_m;
        (dx * dx + dy * dy + dz * dz).sqrt()
    }

    /// Distance in the horizontal plane, m.
    #[inline]
    pub fn distance_2d(self, other: Position) -> f64 {
        (self.x_m - other.x_m).hypot(self.y_m - other.y_m)
    }

    /// The point reached after moving at `v` for `secs` seconds.
    #[inline]
    pub fn advanced(self, v: Velocity, secs: f64) -> Position {
        Position {
            x_m: self.x_m + v.x_mps * secs,
            y_m: self.y_m + v.y_mps * secs,
            z_m: self.z_m + v.z_mps * secs,
        }
    }

    /// The point a fraction `f` of the way from `self` to `to` (`f = 0` gives `self`, `f = 1`
    /// gives exactly `to`).
    #[inline]
    pub fn lerp(self, to: Position, f: f64) -> Position {
        if f >= 1.0 {
            return to;
        }
        Position {
            x_m: self.x_m + (to.x_m - self.x_m) * f,
            y_m: self.y_m + (to.y_m - self.y_m) * f,
            z_m: self.z_m + (to.z_m - self.z_m) * f,
        }
    }

    /// Whether every coordinate is finite.
    pub fn is_finite(self) -> bool {
        self.x_m.is_finite() && self.y_m.is_finite() && self.z_m.is_finite()
    }
}

/// A velocity, metres per second.
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct Velocity {
    /// East component, m/s.
    pub x_mps: f64,
    /// North component, m/s.
    pub y_mps: f64,
    /// Vertical component, m/s.
    pub z_mps: f64,
}

impl Velocity {
    /// Standing still.
    pub const ZERO: Velocity = Velocity {
        x_mps: 0.0,
        y_mps: 0.0,
        z_mps: 0.0,
    };

    /// The velocity `(vx, vy, vz)` in m/s.
    pub const fn new(x_mps: f64, y_mps: f64, z_mps: f64) -> Self {
        Velocity {
            x_mps,
            y_mps,
            z_mps,
        }
    }

    /// Horizontal velocity of `speed` m/s towards `heading_rad` (0 = east, π/2 = north).
    pub fn from_heading(speed_mps: f64, heading_rad: f64) -> Self {
        Velocity {
            x_mps: speed_mps * heading_rad.cos(),
            y_mps: speed_mps * heading_rad.sin(),
            z_mps: 0.0,
        }
    }

    /// The velocity that covers `from → to` in `secs` seconds (zero if `secs` is not > 0).
    pub fn between(from: Position, to: Position, secs: f64) -> Self {
        if secs > 0.0 {
            Velocity {
                x_mps: (to.x_m - from.x_m) / secs,
                y_mps: (to.y_m - from.y_m) / secs,
                z_mps: (to.z_m - from.z_m) / secs,
            }
        } else {
            Velocity::ZERO
        }
    }

    /// Speed, m/s.
    #[inline]
    pub fn speed_mps(self) -> f64 {
        (self.x_mps * self.x_mps + self.y_mps * self.y_mps + self.z_mps * self.z_mps).sqrt()
    }
}

/// An axis-aligned rectangle on the ground in which mobile nodes move, metres.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Area {
    /// West edge, m.
    pub x_min_m: f64,
    /// South edge, m.
    pub y_min_m: f64,
    /// East edge, m.
    pub x_max_m: f64,
    /// North edge, m.
    pub y_max_m: f64,
}

impl Area {
    /// The rectangle `[0, width] × [0, height]`, as ns-2's topography (`set-topography`) and
    /// the scenario's `area_m = [width, height]` describe it.
    pub fn new(width_m: f64, height_m: f64) -> Result<Self, ParamError> {
        positive("area_m[0]", width_m)?;
        positive("area_m[1]", height_m)?;
        Ok(Area {
            x_min_m: 0.0,
            y_min_m: 0.0,
            x_max_m: width_m,
            y_max_m: height_m,
        })
    }

    /// Checks that the edges are finite and the rectangle is not empty.
    pub fn validate(&self) -> Result<(), ParamError> {
        finite("area.x_min_m", self.x_min_m)?;
        finite("area.y_min_m", self.y_min_m)?;
        finite("area.x_max_m", self.x_max_m)?;
        finite("area.y_max_m", self.y_max_m)?;
        if self.x_max_m <= self.x_min_m || self.y_max_m <= self.y_min_m {
            return Err(ParamError::new(
                "area",
                "the rectangle is empty (max must exceed min)",
            ));
        }
        Ok(())
    }

    /// East–west extent, m.
    pub fn width_m(&self) -> f64 {
        self.x_max_m - self.x_min_m
    }

    /// North–south extent, m.
    pub fn height_m(&self) -> f64 {
        self.y_max_m - self.y_min_m
    }

    /// Length of the diagonal, m: the longest possible straight trip.
    pub fn diagonal_m(&self) -> f64 {
        self.width_m().hypot(self.height_m())
    }

    /// The centre of the rectangle at height `z_m`.
    pub fn centre(&self, z_m: f64) -> Position {
        Position::new(
            0.5 * (self.x_min_m + self.x_max_m),
            0.5 * (self.y_min_m + self.y_max_m),
            z_m,
        )
    }

    /// Whether `p` lies inside or on the edge (the vertical coordinate is not checked).
    pub fn contains(&self, p: Position) -> bool {
        p.x_m >= self.x_min_m
            && p.x_m <= self.x_max_m
            && p.y_m >= self.y_min_m
            && p.y_m <= self.y_max_m
    }

    /// `p` moved to the nearest point of the rectangle (vertical coordinate unchanged).
    pub fn clamp(&self, p: Position) -> Position {
        Position {
            x_m: p.x_m.clamp(self.x_min_m, self.x_max_m),
            y_m: p.y_m.clamp(self.y_min_m, self.y_max_m),
            z_m: p.z_m,
        }
    }

    /// A point drawn uniformly from the rectangle at height `z_m` (two draws from `rng`).
    pub fn uniform_point(&self, rng: &mut Rng, z_m: f64) -> Position {
        let x = rng.uniform_range(self.x_min_m, self.x_max_m);
        let y = rng.uniform_range(self.y_min_m, self.y_max_m);
        Position::new(x, y, z_m)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn distances() {
        let a = Position::new(0.0, 0.0, 0.0);
        let b = Position::new(3.0, 4.0, 12.0);
        assert_eq!(a.distance_to(b), 13.0);
        assert_eq!(a.distance_2d(b), 5.0);
        assert_eq!(b.distance_to(a), 13.0);
    }

    #[test]
    fn lerp_hits_endpoints_exactly() {
        let a = Position::new(0.1, 0.2, 0.3);
        let b = Position::new(123.456, -7.0, 1.5);
        assert_eq!(a.lerp(b, 0.0), a);
        assert_eq!(a.lerp(b, 1.0), b);
        let m = a.lerp(b, 0.5);
        assert!((m.x_m - 61.778).abs() < 1e-12);
    }

    #[test]
    fn velocity_helpers() {
        let v = Velocity::from_heading(2.0, core::f64::consts::FRAC_PI_2);
        assert!(v.x_mps.abs() < 1e-12 && (v.y_mps - 2.0).abs() < 1e-12);
        let w = Velocity::between(Position::xy(0.0, 0.0), Position::xy(10.0, 0.0), 5.0);
        assert_eq!(w, Velocity::new(2.0, 0.0, 0.0));
        assert_eq!(w.speed_mps(), 2.0);
        assert_eq!(
            Position::xy(1.0, 1.0).advanced(w, 2.0),
            Position::xy(5.0, 1.0)
        );
        assert_eq!(
            Velocity::between(Position::xy(0.0, 0.0), Position::xy(1.0, 0.0), 0.0),
            Velocity::ZERO
        );
    }

    #[test]
    fn area_checks() {
        assert!(Area::new(0.0, 10.0).is_err());
        assert!(Area::new(10.0, f64::NAN).is_err());
        let a = Area::new(600.0, 300.0).unwrap();
        assert!(a.validate().is_ok());
        assert!(a.contains(Position::xy(600.0, 0.0)));
        assert!(!a.contains(Position::xy(600.1, 0.0)));
        assert_eq!(a.clamp(Position::xy(-5.0, 400.0)), Position::xy(0.0, 300.0));
        assert_eq!(a.centre(1.0), Position::new(300.0, 150.0, 1.0));
        let mut rng = Rng::from_seed(1);
        for _ in 0..1000 {
            assert!(a.contains(a.uniform_point(&mut rng, 0.0)));
        }
        let bad = Area {
            x_min_m: 5.0,
            y_min_m: 0.0,
            x_max_m: 5.0,
            y_max_m: 1.0,
        };
        assert!(bad.validate().is_err());
    }
}
