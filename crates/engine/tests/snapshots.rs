//! Tier-4 snapshot tests (DESIGN.md §8): the run summary of every shipped example scenario,
//! compared as text with a committed snapshot, so that an engine change shows exactly which
//! numbers it moved.
//!
//! The examples are discovered by listing `scenarios/examples/`, so a new example is covered
//! (and fails until its snapshot is committed). Each one runs with its own seed; the snapshot
//! is `tests/snapshots/<example>.json`: the `Summary` as pretty JSON without `wall_time_s` (the
//! only field that differs between identical runs), keys in alphabetical order (serde_json's
//! `Value` map is sorted without its `preserve_order` feature), plus a `_snapshot` header
//! naming the example and any overrides this test applied to keep the debug build fast. Floats
//! print as the shortest text that reads back to the same bits, so any change shows; a NaN or
//! infinity prints as `null`.
//!
//! `SCTPSIM_UPDATE_SNAPSHOTS=1 cargo test -p sctpsim-engine --test snapshots` rewrites the
//! snapshots instead of failing; a changed snapshot must be explained in the commit message.

use sctpsim_engine::scenario::overrides::value_from_cli;
use sctpsim_engine::{load, run_scenario, RunOptions};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Overrides applied to an example before its run, by file stem, as `(field path, value)`
/// with values as on the command line. Only for examples too slow for `cargo test`'s debug
/// build; each override is recorded in the snapshot's `_snapshot.overrides`.
const OVERRIDES: &[(&str, &[(&str, &str)])] = &[
    // 900 s of 50-node MANET take about a minute in debug; 300 s take about 10 s and still
    // cover every source (they start within the first 180 s) for at least two minutes.
    ("manet-cbr", &[("simulation.duration", "300s")]),
];

/// The command that rewrites the snapshots, quoted in every failure message.
const UPDATE_CMD: &str = "SCTPSIM_UPDATE_SNAPSHOTS=1 cargo test -p sctpsim-engine --test snapshots";

/// At most this many changed paths are listed per example; the rest are counted.
const MAX_DIFF_LINES: usize = 60;

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/examples")
}

fn snapshots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

fn updating() -> bool {
    std::env::var_os("SCTPSIM_UPDATE_SNAPSHOTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The example files, sorted by name.
fn examples() -> Vec<PathBuf> {
    let dir = examples_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no examples in {}", dir.display());
    files
}

fn overrides_for(stem: &str) -> &'static [(&'static str, &'static str)] {
    OVERRIDES
        .iter()
        .find(|(s, _)| *s == stem)
        .map_or(&[], |(_, o)| o)
}

/// Run one example and render its snapshot text.
fn snapshot_of(path: &Path, stem: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let sets = overrides_for(stem);
    let parsed: Vec<(String, toml::Value)> = sets
        .iter()
        .map(|(p, v)| (p.to_string(), value_from_cli(v)))
        .collect();
    let scenario = load(&text, &parsed).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let result = run_scenario(scenario, None, &RunOptions::default(), &mut |_| true)
        .unwrap_or_else(|e| panic!("{stem}: run failed: {e:?}"));
    let mut value = serde_json::to_value(&result.summary).unwrap();
    let summary = value.as_object_mut().unwrap();
    summary
        .remove("wall_time_s")
        .expect("Summary has wall_time_s");
    let header = json!({
        "example": format!("scenarios/examples/{stem}.toml"),
        "overrides": sets.iter().map(|(p, v)| format!("{p}={v}")).collect::<Vec<_>>(),
    });
    summary.insert("_snapshot".to_string(), header);
    let mut out = serde_json::to_string_pretty(&value).unwrap();
    out.push('\n');
    out
}

/// One line per JSON path whose value differs between `old` and `new`, the path written like
/// an override (`flows[0].goodput_bps`) so that it can be looked up in `docs/metrics.md`.
fn diff(path: &str, old: Option<&Value>, new: Option<&Value>, out: &mut Vec<String>) {
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                diff(&sub, a.get(k), b.get(k), out);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for i in 0..a.len().max(b.len()) {
                diff(&format!("{path}[{i}]"), a.get(i), b.get(i), out);
            }
        }
        (a, b) if a == b => {}
        (a, b) => {
            let show = |v: Option<&Value>| v.map_or("(absent)".to_string(), |v| v.to_string());
            out.push(format!("  {path}: {} -> {}", show(a), show(b)));
        }
    }
}

/// Why `new` does not match the stored snapshot `old`, readable in a test failure.
fn explain(stem: &str, old: &str, new: &str) -> String {
    let mut msg =
        format!("{stem}: summary differs from tests/snapshots/{stem}.json (old -> new)\n");
    let (Ok(a), Ok(b)) = (
        serde_json::from_str::<Value>(old),
        serde_json::from_str::<Value>(new),
    ) else {
        msg.push_str("  the stored snapshot is not valid JSON\n");
        return msg;
    };
    let mut lines = Vec::new();
    diff("", Some(&a), Some(&b), &mut lines);
    if lines.is_empty() {
        msg.push_str("  same values, different text (formatting or key order)\n");
    }
    let more = lines.len().saturating_sub(MAX_DIFF_LINES);
    for line in lines.iter().take(MAX_DIFF_LINES) {
        writeln!(msg, "{line}").unwrap();
    }
    if more > 0 {
        writeln!(msg, "  ... and {more} more changed paths").unwrap();
    }
    msg
}

#[test]
fn example_summaries_match_snapshots() {
    let update = updating();
    let dir = snapshots_dir();
    let mut failures = Vec::new();
    let mut stems = Vec::new();
    let total = Instant::now();
    for path in examples() {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let started = Instant::now();
        let new = snapshot_of(&path, &stem);
        eprintln!(
            "snapshot {stem}: ran in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let file = dir.join(format!("{stem}.json"));
        stems.push(stem.clone());
        match std::fs::read_to_string(&file) {
            Ok(old) if old == new => {}
            _ if update => {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&file, &new).unwrap();
                eprintln!("snapshot {stem}: wrote {}", file.display());
            }
            Ok(old) => failures.push(explain(&stem, &old, &new)),
            Err(e) => failures.push(format!(
                "{stem}: no snapshot at {} ({e}); create it with `{UPDATE_CMD}`, check it and \
                 commit it\n",
                file.display()
            )),
        }
    }
    // A snapshot whose example was removed or renamed would otherwise linger unnoticed.
    for entry in std::fs::read_dir(&dir).into_iter().flatten() {
        let file = entry.unwrap().path();
        let Some(stem) = file.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if file.extension().is_some_and(|x| x == "json") && !stems.iter().any(|s| s == stem) {
            if update {
                std::fs::remove_file(&file).unwrap();
                eprintln!(
                    "snapshot {stem}: removed {} (no such example)",
                    file.display()
                );
            } else {
                failures.push(format!(
                    "{stem}: {} has no example scenarios/examples/{stem}.toml; delete it or run \
                     `{UPDATE_CMD}`\n",
                    file.display()
                ));
            }
        }
    }
    eprintln!(
        "snapshots: {} examples in {:.1} s",
        stems.len(),
        total.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} example snapshots differ:\n{}\nIf the change is intended, run `{UPDATE_CMD}` \
         and explain the changed numbers in the commit message.",
        failures.len(),
        stems.len(),
        failures.join("\n")
    );
}
