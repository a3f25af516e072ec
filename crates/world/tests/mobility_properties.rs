//! Property tests of the random mobility models: they stay in their area, they are
//! independent of the query pattern, and their statistics match theory.

use proptest::prelude::*;
use sctpsim_kernel::{Rng, SeedTree, SimDuration, SimTime, StreamKey};
use sctpsim_world::mobility::{
    ChangeTrigger, DurationDist, GaussMarkov, GaussMarkovParams, Mobility, MobilityModel,
    RandomWalk, RandomWalkParams, RandomWaypoint, RandomWaypointParams, Turn,
};
use sctpsim_world::{Area, Position};

const SEC: u64 = 1_000_000_000;

fn area() -> Area {
    Area::new(500.0, 300.0).unwrap()
}

fn rng(seed: u64, node: u64) -> Rng {
    SeedTree::new(seed).stream(&StreamKey::new("mobility").with(node))
}

/// Inside the area up to floating-point rounding of the interpolation.
fn inside(a: &Area, p: Position) -> bool {
    const EPS: f64 = 1e-9;
    p.is_finite()
        && p.x_m >= a.x_min_m - EPS
        && p.x_m <= a.x_max_m + EPS
        && p.y_m >= a.y_min_m - EPS
        && p.y_m <= a.y_max_m + EPS
}

fn model(kind: u8, seed: u64) -> MobilityModel {
    let a = area();
    match kind % 5 {
        0 => {
            let mut p = RandomWaypointParams::new(a, 0.5, 20.0);
            p.pause = SimDuration::from_secs(seed % 7);
            RandomWaypoint::new(p, rng(seed, 0)).unwrap().into()
        }
        1 => {
            let mut p = RandomWaypointParams::new(a, 1.0, 20.0);
            p.pause = SimDuration::from_secs(5);
            p.steady_state = true;
            RandomWaypoint::new(p, rng(seed, 1)).unwrap().into()
        }
        2 => {
            // The OMNeT++ study's speeds: 5-70 km/h, fast turning.
            let mut p = RandomWalkParams::new(a, 5.0 / 3.6, 70.0 / 3.6, SimDuration::from_secs(1));
            p.turn = Turn::UpTo { max_rad: 1.0 };
            p.change = ChangeTrigger::Interval(DurationDist::Exponential {
                mean: SimDuration::from_secs(3),
            });
            RandomWalk::new(p, rng(seed, 2)).unwrap().into()
        }
        3 => {
            let mut p = RandomWalkParams::new(a, 1.0, 30.0, SimDuration::from_secs(1));
            p.change = ChangeTrigger::Distance { distance_m: 80.0 };
            RandomWalk::new(p, rng(seed, 3)).unwrap().into()
        }
        _ => {
            let mut p = GaussMarkovParams::new(a, 0.75, 15.0, 5.0, 0.6, SimDuration::from_secs(1));
            p.edge_margin_m = if seed.is_multiple_of(2) { 0.0 } else { 40.0 };
            GaussMarkov::new(p, rng(seed, 4)).unwrap().into()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn positions_stay_inside_the_area(kind in 0u8..5, seed in any::<u64>(),
                                      times in prop::collection::vec(0u64..2_000 * SEC, 1..60)) {
        let a = area();
        let mut m = model(kind, seed);
        for &t in &times {
            let p = m.position(SimTime(t));
            prop_assert!(inside(&a, p), "kind {kind} seed {seed} t {t}: {p:?}");
            prop_assert_eq!(p.z_m, 0.0);
        }
        // Dense scan of every leg end point too.
        let mut t = SimTime::ZERO;
        while let Some(next) = m.next_change(t) {
            prop_assert!(next > t);
            prop_assert!(inside(&a, m.position(next)));
            if next > SimTime(600 * SEC) {
                break;
            }
            t = next;
        }
    }

    #[test]
    fn trajectories_do_not_depend_on_the_query_order(kind in 0u8..5, seed in any::<u64>(),
                                                     mut times in prop::collection::vec(0u64..3_000 * SEC, 1..40)) {
        let mut shuffled = model(kind, seed);
        let mut sorted = model(kind, seed);
        let answers: Vec<_> = times
            .iter()
            .map(|&t| {
                let t = SimTime(t);
                (t, shuffled.position(t), shuffled.velocity(t), shuffled.next_change(t))
            })
            .collect();
        times.sort_unstable();
        for &t in &times {
            sorted.position(SimTime(t));
        }
        for (t, p, v, n) in answers {
            // Each query against a fresh model that only ever sees this one time, too.
            let mut single = model(kind, seed);
            for m in [&mut sorted, &mut single] {
                prop_assert_eq!(m.position(t), p);
                prop_assert_eq!(m.velocity(t), v);
                prop_assert_eq!(m.next_change(t), n);
            }
        }
    }

    #[test]
    fn forgetting_old_legs_does_not_change_the_future(kind in 0u8..5, seed in any::<u64>()) {
        let mut a = model(kind, seed);
        let mut b = model(kind, seed);
        for k in 0..200u64 {
            let t = SimTime(k * 5 * SEC);
            a.forget_before(t);
            prop_assert_eq!(a.position(t), b.position(t));
        }
    }
}

#[test]
fn legs_are_contiguous_and_velocity_is_consistent() {
    let p = RandomWaypointParams::new(area(), 1.0, 20.0);
    let mut m = RandomWaypoint::new(p, rng(1, 0)).unwrap();
    m.position(SimTime(5_000 * SEC));
    for w in m.legs().windows(2) {
        assert_eq!(w[0].end, w[1].start);
        assert_eq!(w[0].to, w[1].from);
        let dt = (w[0].end - w[0].start).as_secs_f64();
        let moved = w[0].from.advanced(w[0].velocity, dt);
        assert!(moved.distance_to(w[0].to) < 1e-6);
    }
}

#[test]
fn random_waypoint_speeds() {
    // Pause 0, speeds U[1, 20] m/s. The leg speeds average (1+20)/2 = 10.5 m/s; the
    // time-average speed is lower, (vmax − vmin)/ln(vmax/vmin) = 6.342 m/s, because slow
    // legs last longer (Yoon, Liu & Noble 2003).
    let a = Area::new(600.0, 600.0).unwrap();
    let (vmin, vmax) = (1.0, 20.0);
    let mut leg_speed_sum = 0.0;
    let mut legs = 0.0;
    let mut dist = 0.0;
    let mut time = 0.0;
    for node in 0..40 {
        let mut m =
            RandomWaypoint::new(RandomWaypointParams::new(a, vmin, vmax), rng(7, node)).unwrap();
        let horizon = SimTime(50_000 * SEC);
        m.position(horizon);
        for l in m.legs().iter().filter(|l| l.end <= horizon) {
            let v = l.velocity.speed_mps();
            assert!((vmin - 1e-9..=vmax + 1e-9).contains(&v), "{v}");
            leg_speed_sum += v;
            legs += 1.0;
            dist += l.from.distance_to(l.to);
            time += (l.end - l.start).as_secs_f64();
        }
    }
    let leg_mean = leg_speed_sum / legs;
    let time_mean = dist / time;
    assert!(time_mean > vmin && time_mean < vmax);
    assert!((leg_mean - 10.5).abs() < 0.2, "{leg_mean}");
    let theory = (vmax - vmin) / (vmax / vmin).ln();
    assert!(
        (time_mean - theory).abs() / theory < 0.03,
        "{time_mean} vs {theory}"
    );
}

/// Fraction of nodes within 150 m of the centre, fraction paused, and mean speed of the
/// moving ones, at time `t`, over `n` independent nodes.
fn snapshot(steady: bool, t: SimTime, n: u64) -> (f64, f64, f64) {
    let a = Area::new(600.0, 600.0).unwrap();
    let c = a.centre(0.0);
    let (mut central, mut paused, mut speed, mut moving) = (0.0, 0.0, 0.0, 0.0);
    for node in 0..n {
        let mut p = RandomWaypointParams::new(a, 1.0, 20.0);
        p.pause = SimDuration::from_secs(20);
        p.steady_state = steady;
        let mut m = RandomWaypoint::new(p, rng(11 + steady as u64, node)).unwrap();
        if m.position(t).distance_2d(c) < 150.0 {
            central += 1.0;
        }
        let v = m.velocity(t).speed_mps();
        if v == 0.0 {
            paused += 1.0;
        } else {
            speed += v;
            moving += 1.0;
        }
    }
    (central / n as f64, paused / n as f64, speed / moving)
}

#[test]
fn steady_state_start_matches_the_long_run_distribution() {
    let n = 4000;
    let (c0, p0, v0) = snapshot(true, SimTime::ZERO, n);
    let (c_late, p_late, v_late) = snapshot(false, SimTime(3_000 * SEC), n);
    let (c_cold, p_cold, v_cold) = snapshot(false, SimTime::ZERO, n);
    // Standard error of a fraction near 0.3 with 4000 nodes: 0.007; tolerance 4 SE.
    assert!((c0 - c_late).abs() < 0.03, "central {c0} vs {c_late}");
    assert!((p0 - p_late).abs() < 0.03, "paused {p0} vs {p_late}");
    assert!((v0 - v_late).abs() < 0.6, "speed {v0} vs {v_late}");
    // ...whereas a cold start is visibly different: uniform positions, everybody in the
    // initial pause, then (just after it) speeds averaging 10.5 m/s.
    assert!(c_late - c_cold > 0.05, "{c_late} vs {c_cold}");
    assert_eq!(p_cold, 1.0);
    assert!(v_cold.is_nan(), "nobody moves at t = 0");
    let (_, _, v_go) = snapshot(false, SimTime(21 * SEC), n);
    assert!(v_go - v_late > 2.0, "{v_go} vs {v_late}");
}
