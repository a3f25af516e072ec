//! Helpers shared by the engine's scenario-level tests: run a scenario text with `--set`-style
//! overrides, compare summaries without the wall time, read time-series rows.
#![allow(dead_code)] // each test binary uses its own subset

use sctpsim_engine::scenario::overrides::value_from_cli;
use sctpsim_engine::{load, run_scenario, RunOptions, RunResult};

fn overrides(sets: &[(&str, &str)]) -> Vec<(String, toml::Value)> {
    sets.iter()
        .map(|(p, v)| (p.to_string(), value_from_cli(v)))
        .collect()
}

/// Load `text` with `path = value` overrides (values as on the command line) and run it with
/// `seed` (or the scenario's own). Panics with the scenario error if it does not load.
pub fn run_seeded(text: &str, sets: &[(&str, &str)], seed: Option<u64>) -> RunResult {
    let sc = load(text, &overrides(sets)).unwrap_or_else(|e| panic!("{e}"));
    run_scenario(sc, seed, &RunOptions::default(), &mut |_| true).expect("run")
}

/// [`run_seeded`] with the scenario's own seed.
pub fn run_with(text: &str, sets: &[(&str, &str)]) -> RunResult {
    run_seeded(text, sets, None)
}

/// The error a scenario with these overrides is rejected with, as displayed.
pub fn load_err(text: &str, sets: &[(&str, &str)]) -> String {
    match load(text, &overrides(sets)) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

/// `summary.json` without the one field that differs between identical runs.
pub fn without_wall(r: &RunResult) -> String {
    let mut s = r.summary.clone();
    s.wall_time_s = 0.0;
    serde_json::to_string(&s).expect("summary serialises")
}

/// `(time, value)` rows of `metric` for flow 0.
pub fn series(r: &RunResult, metric: &str) -> Vec<(f64, f64)> {
    let ts = &r.timeseries;
    (0..ts.len())
        .filter(|&i| ts.metric[i] == metric && ts.id[i] == 0)
        .map(|i| (ts.time_s[i], ts.value[i]))
        .collect()
}
