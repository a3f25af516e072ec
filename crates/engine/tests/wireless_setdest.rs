//! An ns-2 setdest file (comments, `$god_` lines, a `setdest` issued while the node is still
//! moving) drives the nodes of a scenario; the positions sampled with
//! `simulation.trace_positions` match an independent piecewise-linear reading of the file
//! within 1 mm.

mod common;

use common::{load_err, run_with};
use std::collections::BTreeMap;

const FIXTURE: &str = "tests/data/setdest-moving.tcl";

/// One straight movement: from `from` at `t0` towards `to` at `speed` m/s, then standing.
#[derive(Copy, Clone, Debug)]
struct Move {
    t0: f64,
    from: (f64, f64),
    to: (f64, f64),
    speed: f64,
}

impl Move {
    fn at(&self, t: f64) -> (f64, f64) {
        let (dx, dy) = (self.to.0 - self.from.0, self.to.1 - self.from.1);
        let dist = (dx * dx + dy * dy).sqrt();
        let travelled = self.speed * (t - self.t0).max(0.0);
        if self.speed <= 0.0 || dist == 0.0 {
            return if self.speed <= 0.0 {
                self.from
            } else {
                self.to
            };
        }
        if travelled >= dist {
            return self.to;
        }
        let f = travelled / dist;
        (self.from.0 + f * dx, self.from.1 + f * dy)
    }
}

/// The expected motion of each node, read from the file with a deliberately simple parser:
/// `set X_`/`set Y_` give the start, each `setdest` starts a new straight movement from
/// wherever the node is at that time (ns-2 `MobileNode::set_destination`).
fn expected(text: &str) -> BTreeMap<u32, Vec<Move>> {
    let mut start: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
    let mut cmds: BTreeMap<u32, Vec<(f64, f64, f64, f64)>> = BTreeMap::new();
    let node = |s: &str| -> u32 {
        let a = s.find('(').unwrap() + 1;
        let b = s.find(')').unwrap();
        s[a..b].parse().unwrap()
    };
    for line in text.lines().map(str::trim) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with("$node_") && w[1] == "set" {
            let e = start.entry(node(w[0])).or_insert((0.0, 0.0));
            let v: f64 = w[3].parse().unwrap();
            match w[2] {
                "X_" => e.0 = v,
                "Y_" => e.1 = v,
                _ => {}
            }
        } else if line.starts_with("$ns_ at") && line.contains("setdest") {
            let t: f64 = w[2].parse().unwrap();
            let q = |s: &str| s.trim_matches('"').parse::<f64>().unwrap();
            let n = node(w[3]);
            cmds.entry(n)
                .or_default()
                .push((t, q(w[5]), q(w[6]), q(w[7])));
        }
    }
    let mut out = BTreeMap::new();
    for (n, p) in start {
        let mut moves = vec![Move {
            t0: 0.0,
            from: p,
            to: p,
            speed: 0.0,
        }];
        let mut list = cmds.remove(&n).unwrap_or_default();
        list.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (t, x, y, speed) in list {
            let here = moves.last().unwrap().at(t);
            moves.push(Move {
                t0: t,
                from: here,
                to: (x, y),
                speed,
            });
        }
        out.insert(n, moves);
    }
    out
}

fn position(moves: &[Move], t: f64) -> (f64, f64) {
    let m = moves.iter().rev().find(|m| m.t0 <= t).unwrap_or(&moves[0]);
    m.at(t)
}

fn scenario(extra: &str) -> String {
    format!(
        r#"
[simulation]
duration = "60s"
sample_interval = "250ms"
trace_positions = true
{extra}
[nodes]
count = 3
[mobility]
model = "setdest"
file = "{FIXTURE}"
[[flows]]
src = "n0"
dst = "n2"
app = "cbr"
rate = "20kbps"
"#
    )
}

#[test]
fn sampled_positions_follow_the_setdest_file_within_1_mm() {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let want = expected(&text);
    assert_eq!(want.len(), 3);
    let r = run_with(&scenario(""), &[]);
    let ts = &r.timeseries;
    let mut rows: BTreeMap<(u64, u32), [f64; 2]> = BTreeMap::new();
    for i in 0..ts.len() {
        if ts.scope[i] != "node" {
            continue;
        }
        let k = ((ts.time_s[i] * 1e3).round() as u64, ts.id[i]);
        let e = rows.entry(k).or_insert([f64::NAN; 2]);
        match ts.metric[i] {
            "x_m" => e[0] = ts.value[i],
            "y_m" => e[1] = ts.value[i],
            m => panic!("unexpected node metric {m}"),
        }
    }
    // 240 samples (0.25 s … 60 s) × 3 nodes.
    assert_eq!(rows.len(), 240 * 3);
    let mut worst = 0.0f64;
    let mut moved = 0;
    for ((ms, node), [x, y]) in &rows {
        let t = *ms as f64 / 1e3;
        let (ex, ey) = position(&want[node], t);
        let err = ((x - ex).powi(2) + (y - ey).powi(2)).sqrt();
        worst = worst.max(err);
        assert!(
            err <= 1e-3,
            "n{node} at {t} s: ({x}, {y}) vs ({ex}, {ey}), {err} m"
        );
        if position(&want[node], t - 0.25) != (ex, ey) {
            moved += 1;
        }
    }
    // Most samples are taken while a node moves (the check is not vacuous).
    assert!(moved > 200, "{moved}");
    // The redirected movements: node 0 at 5.5 s is at (55, 20), 45 m along its first leg, and
    // turns towards (110, 220); node 1 at 15 s is 42.9675 m along its first leg.
    let p0 = position(&want[&0], 5.5);
    assert!((p0.0 - 55.0).abs() < 1e-9 && (p0.1 - 20.0).abs() < 1e-9);
    let p1 = position(&want[&1], 15.0);
    assert!((p1.0 - (300.5 - 3.37 * 12.75)).abs() < 1e-9, "{p1:?}");
    eprintln!("largest deviation: {worst:e} m");
}

#[test]
fn trace_positions_needs_wireless_nodes() {
    let wired = r#"
[simulation]
duration = "1s"
trace_positions = true
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
between = ["a", "b"]
bandwidth = "1Mbps"
delay = "1ms"
"#;
    let e = load_err(wired, &[]);
    assert!(e.starts_with("simulation.trace_positions:"), "{e}");
    // Off by default: no node rows.
    let r = run_with(&scenario(""), &[("simulation.trace_positions", "false")]);
    assert!(r.timeseries.scope.iter().all(|s| *s != "node"));
}

#[test]
fn a_device_or_directory_as_trace_file_is_refused_before_reading() {
    // `/dev/zero` used to be read with `read_to_string` until memory ran out.
    #[cfg(target_os = "linux")]
    {
        let e = load_err(
            &scenario("").replace(FIXTURE, "/dev/zero"),
            &[("simulation.trace_positions", "false")],
        );
        assert!(e.starts_with("mobility.file:"), "{e}");
        assert!(e.contains("not a regular file"), "{e}");
    }
    let e = load_err(&scenario("").replace(FIXTURE, "tests/data"), &[]);
    assert!(e.starts_with("mobility.file:"), "{e}");
    assert!(e.contains("not a regular file"), "{e}");
}

/// `scenario()` with the trace `text` in a file of its own (removed afterwards).
fn load_err_with_trace_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("sctpsim-{}-{name}.tcl", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let e = load_err(&scenario("").replace(FIXTURE, path.to_str().unwrap()), &[]);
    let _ = std::fs::remove_file(&path);
    e
}

#[test]
fn a_trace_naming_a_node_outside_the_run_is_refused_with_its_line() {
    // The run has 3 nodes; this trace drove none of them (all stood at (0, 0)).
    let e = load_err_with_trace_file(
        "node99",
        "# one node\n$node_(99) set X_ 10.0\n$node_(99) set Y_ 20.0\n",
    );
    assert!(e.starts_with("mobility.file: line 2:"), "{e}");
    assert!(
        e.contains("`$node_(99)`") && e.contains("3 mobile nodes"),
        "{e}"
    );
    let e = load_err_with_trace_file(
        "node3",
        "$node_(0) set X_ 1\n$node_(1) set X_ 2\n$node_(2) set X_ 3\n\
         $ns_ at 1.0 \"$node_(3) setdest 1 2 3\"\n",
    );
    assert!(e.starts_with("mobility.file: line 4:"), "{e}");
}

#[test]
fn a_node_of_the_run_the_trace_never_names_is_refused() {
    let e = load_err_with_trace_file(
        "missing",
        "$node_(0) set X_ 1\n$ns_ at 1.0 \"$node_(2) setdest 1 2 3\"\n",
    );
    assert!(e.starts_with("mobility.file:"), "{e}");
    assert!(e.contains("never names `$node_(1)`"), "{e}");
    // Named only by a `setdest` line is enough (it starts at (0, 0, 0), as in ns-2).
    let ok = scenario("").replace(
        &format!("file = \"{FIXTURE}\""),
        "text = '''\n$node_(0) set X_ 1\n$node_(1) set X_ 2\n$ns_ at 1.0 \"$node_(2) setdest 1 2 3\"\n'''",
    );
    run_with(&ok, &[("simulation.duration", "2s")]);
}

#[test]
fn a_bonnmotion_trace_with_more_nodes_than_the_run_is_refused() {
    let text = scenario("")
        .replace("model = \"setdest\"", "model = \"bonnmotion\"")
        .replace(
            &format!("file = \"{FIXTURE}\""),
            "text = '''\n# header\n0 1 1\n0 2 2\n0 3 3\n0 4 4\n'''",
        );
    let e = load_err(&text, &[]);
    assert!(e.starts_with("mobility.text: line 5:"), "{e}");
    assert!(e.contains("4 nodes, the scenario 3"), "{e}");
}

#[test]
fn the_sample_budget_counts_position_rows_of_generated_nodes() {
    // 1 s at 1 µs is 1,000,000 samples. Rows a sample: 2 (flow) + 5 (MAC totals) = 7 M rows,
    // within the limit; with `trace_positions` 2 more per node of `[nodes]` (3): 13 M, over.
    let sets = [
        ("simulation.duration", "1s"),
        ("simulation.sample_interval", "1us"),
    ];
    let e = load_err(&scenario(""), &sets);
    assert!(e.starts_with("simulation.sample_interval:"), "{e}");
    assert!(e.contains("at least 13 rows"), "{e}");
    let text = scenario("").replace("trace_positions = true", "");
    let sets: Vec<_> = sets
        .iter()
        .map(|(p, v)| {
            let v = sctpsim_engine::scenario::overrides::value_from_cli(v);
            (p.to_string(), v)
        })
        .collect();
    sctpsim_engine::load(&text, &sets).unwrap();
}
