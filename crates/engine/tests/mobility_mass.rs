//! `mobility.model = "mass"` (INET `MassMobility`) and the normal turns and intervals of
//! `random-walk`: runs, stays in its area, repeats per seed, and bad input names its field.

mod common;

use common::{load_err, run_seeded, without_wall};
use sctpsim_engine::RunResult;

/// Ten nodes in the OMNeT++ study's 500 m × 500 m, OLSR-free (static routes are enough to
/// move), positions sampled every second.
const MASS: &str = r#"
[simulation]
duration = "60s"
sample_interval = "1s"
trace_positions = true
[nodes]
count = 10
[mobility]
model = "mass"
area_m = [500, 500]
speed_mps = { min = 20.0, max = 20.0 }
[[flows]]
src = "n1"
dst = "n0"
app = "cbr"
rate = "50kbps"
"#;

/// Every sampled position `(x, y)`.
fn positions(r: &RunResult) -> Vec<(f64, f64)> {
    let ts = &r.timeseries;
    let xs: Vec<usize> = (0..ts.len())
        .filter(|&i| ts.scope[i] == "node" && ts.metric[i] == "x_m")
        .collect();
    let ys: Vec<usize> = (0..ts.len())
        .filter(|&i| ts.scope[i] == "node" && ts.metric[i] == "y_m")
        .collect();
    assert_eq!(xs.len(), ys.len());
    xs.iter()
        .zip(&ys)
        .map(|(&i, &j)| (ts.value[i], ts.value[j]))
        .collect()
}

#[test]
fn mass_nodes_move_inside_the_area_and_repeat_per_seed() {
    let r = run_seeded(MASS, &[], Some(3));
    let pos = positions(&r);
    assert!(pos.len() >= 10 * 60, "{}", pos.len());
    for &(x, y) in &pos {
        assert!((-1e-6..=500.0 + 1e-6).contains(&x), "x {x}");
        assert!((-1e-6..=500.0 + 1e-6).contains(&y), "y {y}");
    }
    // They move: a node's samples are not all equal.
    let first: Vec<_> = pos.iter().step_by(10).take(60).collect();
    assert!(first.windows(2).any(|w| w[0] != w[1]));
    assert!(r.summary.flows[0].data_packets_sent > 0);
    let again = run_seeded(MASS, &[], Some(3));
    assert_eq!(without_wall(&r), without_wall(&again));
    assert_eq!(pos, positions(&again));
    let other = run_seeded(MASS, &[], Some(4));
    assert_ne!(pos, positions(&other));
}

#[test]
fn mass_options_and_normal_turns_of_the_random_walk() {
    let sets = [
        ("mobility.change_interval", "\"5s\""),
        ("mobility.change_interval_sd", "\"100ms\""),
        ("mobility.turn_sd_deg", "45"),
    ];
    let r = run_seeded(MASS, &sets, Some(1));
    assert!(positions(&r).len() >= 600);
    let walk = [
        ("mobility.model", "\"random-walk\""),
        ("mobility.change_interval", "\"2s\""),
        ("mobility.change_interval_sd", "\"500ms\""),
        ("mobility.turn_sd_deg", "30"),
    ];
    let r = run_seeded(MASS, &walk, Some(1));
    for (x, y) in positions(&r) {
        assert!((-1e-6..=500.0 + 1e-6).contains(&x) && (-1e-6..=500.0 + 1e-6).contains(&y));
    }
    // `mass` is the random walk with INET's example values as defaults.
    let mass = run_seeded(MASS, &[], Some(1));
    assert_eq!(positions(&mass), positions(&r));
}

#[test]
fn bad_mass_input_names_the_field() {
    let e = load_err(MASS, &[("mobility.turn_sd_deg", "-3")]);
    assert!(e.starts_with("mobility.turn_sd_deg:"), "{e}");
    let e = load_err(MASS, &[("mobility.max_turn_deg", "10")]);
    assert!(e.starts_with("mobility.max_turn_deg:"), "{e}");
    let e = load_err(MASS, &[("mobility.change_interval", "\"0s\"")]);
    assert!(e.starts_with("mobility.change_interval:"), "{e}");
    let e = load_err(MASS, &[("mobility.change_interval_sd", "\"-1s\"")]);
    assert!(e.starts_with("mobility.change_interval_sd"), "{e}");
    let e = load_err(MASS, &[("mobility.pause", "\"1s\"")]);
    assert!(e.starts_with("mobility.pause:"), "{e}");
    let e = load_err(MASS, &[("mobility.speed_mps", "{ min = 5.0, max = 1.0 }")]);
    assert!(e.starts_with("mobility.speed_mps.min:"), "{e}");
    let walk = |extra: (&'static str, &'static str)| {
        load_err(
            MASS,
            &[
                ("mobility.model", "\"random-walk\""),
                ("mobility.turn_sd_deg", "30"),
                extra,
            ],
        )
    };
    let e = walk(("mobility.max_turn_deg", "10"));
    assert!(e.starts_with("mobility.turn_sd_deg:"), "{e}");
    let e = load_err(
        MASS,
        &[
            ("mobility.model", "\"random-walk\""),
            ("mobility.change_distance_m", "50"),
            ("mobility.change_interval_sd", "\"1s\""),
        ],
    );
    assert!(e.starts_with("mobility.change_interval_sd:"), "{e}");
    let e = load_err(MASS, &[("mobility.turn_sd", "30")]);
    assert!(e.contains("turn_sd"), "{e}");
}
