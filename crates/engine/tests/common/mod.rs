//! Helpers shared by the engine's scenario-level tests: run a scenario text with `--set`-style
//! overrides, compare summaries without the wall time, read time-series rows.
#![allow(dead_code)] // each test binary uses its own subset

use sctpsim_engine::scenario::overrides::value_from_cli;
use sctpsim_engine::{load, run_scenario, RunOptions, RunResult};
use std::collections::BTreeMap;

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

/// Per reason: packets in the drops table (all flows and none).
pub fn drop_table(r: &RunResult) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for d in &r.summary.drops {
        *m.entry(d.reason.clone()).or_default() += d.packets;
    }
    m
}

/// Checks the drops table against the layers' counters and the rows against the table.
pub fn check_drops(r: &RunResult, routed: bool) {
    let t = drop_table(r);
    let get = |k: &str| t.get(k).copied().unwrap_or(0);
    let n = &r.summary.network;
    assert_eq!(get("queue"), n.queue_drops, "queue: {t:?}");
    let mac = if routed { 0 } else { n.mac_drops };
    assert_eq!(get("mac_retry_limit"), mac, "MAC retry limit: {t:?}");
    assert_eq!(get("no_route"), n.no_route_drops, "no route: {t:?}");
    assert_eq!(get("ttl_expired"), n.ttl_drops, "TTL: {t:?}");
    assert_eq!(
        get("link_broken"),
        n.link_broken_drops,
        "link broken: {t:?}"
    );
    assert_eq!(
        get("send_buffer_full") + get("send_buffer_timeout"),
        n.send_buffer_drops,
        "send buffer: {t:?}"
    );
    assert_eq!(get("loss"), n.loss_drops);
    assert_eq!(get("outage"), n.outage_drops);
    // Rows: one per data packet (TCP, UDP) or DATA chunk (SCTP), `dir` = the reason.
    let ts = &r.timeseries;
    let mut rows: BTreeMap<(u32, String), u64> = BTreeMap::new();
    for i in 0..ts.len() {
        if ts.metric[i] == "dropped_seq" || ts.metric[i] == "dropped_tsn" {
            *rows.entry((ts.id[i], ts.dir[i].to_string())).or_default() += 1;
        }
    }
    let mut expected: BTreeMap<(u32, String), u64> = BTreeMap::new();
    for d in &r.summary.drops {
        if let (Some(f), true) = (d.flow, d.records > 0) {
            expected.insert((f, d.reason.clone()), d.records);
        }
    }
    assert_eq!(rows, expected, "drop rows per flow and reason");
}
