//! Infrastructure mode in the engine: association at the start, reassociation to the second
//! AP as the station moves, the beacons' signal strength, delivery through the new AP,
//! determinism, and the scenario checks of `[[node]] wifi`.

mod common;

use common::{load_err, run_seeded, run_with, series, without_wall};
use sctpsim_engine::RunResult;

const HANDOFF: &str = include_str!("../../../scenarios/examples/wifi-handoff.toml");
/// Node index of STA in the example.
const STA: u32 = 4;
/// Node indices of AP1 and AP2.
const AP1: u32 = 2;
const AP2: u32 = 3;

/// `(time, value)` rows of a per-node metric.
fn node_rows(r: &RunResult, metric: &str, id: u32, dir: &str) -> Vec<(f64, f64)> {
    let ts = &r.timeseries;
    (0..ts.len())
        .filter(|&i| {
            ts.scope[i] == "node" && ts.metric[i] == metric && ts.id[i] == id && ts.dir[i] == dir
        })
        .map(|i| (ts.time_s[i], ts.value[i]))
        .collect()
}

fn mean(rows: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let v: Vec<f64> = rows
        .iter()
        .filter(|(t, _)| (from..to).contains(t))
        .map(|r| r.1)
        .collect();
    assert!(!v.is_empty(), "no rows in [{from}, {to})");
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn station_associates_then_hands_off_and_data_resumes() {
    let r = run_with(HANDOFF, &[]);
    let assoc = node_rows(&r, "assoc", STA, "");
    // First association with AP1, before the flow starts; later with AP2.
    let first = assoc.first().expect("an association");
    assert_eq!(first.1, f64::from(AP1), "{assoc:?}");
    assert!(first.0 < 1.0, "{assoc:?}");
    let to_ap2 = assoc
        .iter()
        .find(|(_, v)| *v == f64::from(AP2))
        .unwrap_or_else(|| panic!("no association with AP2: {assoc:?}"));
    assert!(to_ap2.0 > 5.0 && to_ap2.0 < 35.0, "{assoc:?}");
    assert_eq!(assoc.last().map(|x| x.1), Some(f64::from(AP2)));

    let mac = |name: &str| {
        r.summary
            .macs
            .iter()
            .find(|m| m.node == name)
            .unwrap_or_else(|| panic!("no MAC row for {name}"))
            .clone()
    };
    let (sta, ap1, ap2) = (mac("STA"), mac("AP1"), mac("AP2"));
    assert_eq!(sta.associations, 1, "{sta:?}");
    assert!(sta.reassociations >= 1, "{sta:?}");
    assert_eq!(ap1.associations, 1);
    assert!(ap2.reassociations >= 1, "{ap2:?}");

    // AP1's beacons fade, AP2's grow.
    let rssi1 = node_rows(&r, "beacon_rssi_dbm", STA, "AP1");
    let rssi2 = node_rows(&r, "beacon_rssi_dbm", STA, "AP2");
    assert!(mean(&rssi1, 0.0, 5.0) > mean(&rssi1, to_ap2.0 - 3.0, to_ap2.0) + 6.0);
    // AP2 is out of range at the start; compare its first beacons heard with later ones.
    let heard = rssi2.first().expect("AP2 heard").0;
    assert!(heard < to_ap2.0);
    assert!(mean(&rssi2, to_ap2.0 + 3.0, to_ap2.0 + 8.0) > mean(&rssi2, heard, heard + 2.0) + 6.0);
    eprintln!(
        "associated with AP1 at {:.4} s, AP2 first heard at {heard:.3} s, reassociated with AP2 at {:.4} s; assoc rows {assoc:?}",
        first.0, to_ap2.0
    );

    // Data reaches the station before and well after the handoff.
    let bytes = series(&r, "bytes_delivered");
    let at = |t: f64| {
        bytes
            .iter()
            .rev()
            .find(|(s, _)| *s <= t)
            .map_or(0.0, |x| x.1)
    };
    assert!(at(to_ap2.0) > 0.0);
    assert!(
        at(39.0) > at(to_ap2.0 + 1.0),
        "no delivery after the handoff"
    );
    assert!(at(to_ap2.0 + 1.0) > at(to_ap2.0), "no delivery right after");
    let gap = bytes
        .windows(2)
        .filter(|w| w[1].1 == w[0].1 && w[0].0 > 2.0)
        .count();
    eprintln!("50 ms samples without delivery after 2 s: {gap}; mac rows STA {sta:?}");
    let flow = &r.summary.flows[0];
    assert!(
        flow.packets_delivered * 10 > flow.packets_sent * 9,
        "{flow:?}"
    );
}

#[test]
fn handoff_is_deterministic() {
    let a = run_seeded(HANDOFF, &[], Some(7));
    let b = run_seeded(HANDOFF, &[], Some(7));
    assert_eq!(without_wall(&a), without_wall(&b));
    assert_eq!(a.timeseries.value, b.timeseries.value);
}

#[test]
fn wifi_fields_are_checked() {
    let e = load_err(HANDOFF, &[("node[2].wifi.ssid", "\"\"")]);
    assert!(e.contains("node[2].wifi.ssid"), "{e}");
    let e = load_err(HANDOFF, &[("node[2].wifi.beacon_interval", "\"0.3ms\"")]);
    assert!(e.contains("node[2].wifi.beacon_interval"), "{e}");
    let e = load_err(HANDOFF, &[("node[4].wifi.channel", "3")]);
    assert!(e.contains("node[4].wifi.channel"), "{e}");
    let e = load_err(HANDOFF, &[("node[0].wifi.role", "\"ap\"")]);
    assert!(e.contains("node[0].wifi"), "{e}");
    let e = load_err(HANDOFF, &[("node[3].wifi.role", "\"adhoc\"")]);
    assert!(e.contains("node[3].wifi"), "{e}");
    let e = load_err(HANDOFF, &[("node[4].wifi.ssid", "\"other\"")]);
    assert!(e.contains("node[4].wifi.ssid"), "{e}");
    let e = load_err(HANDOFF, &[("node[4].wifi.max_missed_beacons", "0")]);
    assert!(e.contains("node[4].wifi.max_missed_beacons"), "{e}");
    let e = load_err(HANDOFF, &[("routing.protocol", "\"aodv\"")]);
    assert!(e.contains("routing.protocol"), "{e}");
}
