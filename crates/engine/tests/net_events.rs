//! The cross-layer hook: route events reach the flow ends at the node that reported them, in
//! the same engine event (`net_event` rows), and a flow's path manager sees DSR's node-disjoint
//! routes (`disjoint_routes` rows); association changes reach the flows of a station.

mod common;

use common::run_with;
use sctpsim_engine::RunResult;

/// A diamond: A reaches D through B or C (A–D and B–C out of range), CBR A → D.
fn diamond(protocol: &str) -> String {
    format!(
        r#"
[simulation]
duration = "10s"
[radio]
profile = "ns2-wavelan"
[routing]
protocol = "{protocol}"
[[node]]
name = "A"
wireless = true
position_m = [0, 0]
[[node]]
name = "B"
wireless = true
position_m = [150, 130]
[[node]]
name = "C"
wireless = true
position_m = [150, -130]
[[node]]
name = "D"
wireless = true
position_m = [300, 0]
[[flows]]
src = "A"
dst = "D"
app = "cbr"
rate = "16kbps"
packet_size_bytes = 512
start = "1s"
"#
    )
}

/// `(dir, value)` of flow 0's rows of `metric`.
fn rows(r: &RunResult, metric: &str) -> Vec<(String, f64)> {
    let ts = &r.timeseries;
    (0..ts.len())
        .filter(|&i| ts.metric[i] == metric && ts.scope[i] == "flow" && ts.id[i] == 0)
        .map(|i| (ts.dir[i].to_string(), ts.value[i]))
        .collect()
}

#[test]
fn route_discovery_reaches_the_source_end_of_the_flow() {
    for protocol in ["dsr", "aodv"] {
        let r = run_with(&diamond(protocol), &[]);
        let ev = rows(&r, "net_event");
        assert!(
            ev.iter()
                .any(|(d, side)| d == "route_found" && *side == 0.0),
            "{protocol}: {ev:?}"
        );
        assert!(r.summary.flows[0].packets_delivered > 0, "{protocol}");
    }
}

#[test]
fn the_path_manager_sees_dsr_disjoint_routes_only() {
    let dsr = rows(&run_with(&diamond("dsr"), &[]), "disjoint_routes");
    assert!(!dsr.is_empty(), "DSR offers its cached routes");
    assert!(dsr.iter().all(|(_, n)| *n >= 1.0 && *n <= 2.0), "{dsr:?}");
    let aodv = rows(&run_with(&diamond("aodv"), &[]), "disjoint_routes");
    assert!(aodv.is_empty(), "AODV has no multipath to offer: {aodv:?}");
}

#[test]
fn association_and_handoff_reach_the_stations_flows() {
    let text = std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/wifi-handoff.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let r = run_with(&text, &[]);
    let ev = rows(&r, "net_event");
    let assoc = ev.iter().filter(|(d, _)| d == "associated").count();
    // The first association and the reassociation to the second AP (a handoff).
    assert!(assoc >= 2, "{ev:?}");
}
