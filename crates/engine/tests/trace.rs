//! The per-packet trace (`--trace`, `crate::trace`): rows in the order a packet's path takes
//! them, at the nodes and interfaces it passes, drop rows that add up to the drops table,
//! filters that keep exactly the matching rows, a bound that truncates and says so, options
//! refused before the run, and a run whose results do not change when traced.

mod common;

use common::without_wall;
use sctpsim_engine::scenario::overrides::value_from_cli;
use sctpsim_engine::trace::{Layer, PacketTrace, TraceEvent, TraceOptions};
use sctpsim_engine::{load, run_scenario, RunOptions, RunResult, SimError};
use std::collections::BTreeMap;

/// Two links, a → r → b, 0.4 ms + 5 ms then 4 ms + 20 ms for a 500-byte packet; a CBR flow
/// that never queues at the bottleneck (one packet every 9.44 ms).
const LINE: &str = r#"
[simulation]
duration = "2s"
[[node]]
name = "a"
[[node]]
name = "r"
[[node]]
name = "b"
[[link]]
between = ["a", "r"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["r", "b"]
bandwidth = "1Mbps"
delay = "20ms"
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "400kbps"
packet_size_bytes = 472
stop = "1s"
"#;

/// A small random-waypoint MANET with `pairs` flows of `transport` routed by `protocol`.
fn manet(protocol: &str, transport: &str, pairs: u32) -> String {
    let app = if transport == "udp" {
        "app = \"cbr\"\nrate = \"32kbps\"\npacket_size_bytes = 512".to_string()
    } else {
        format!("transport = \"{transport}\"\napp = \"ftp\"")
    };
    format!(
        r#"
[simulation]
duration = "20s"
seed = 3
[radio]
profile = "ns2-wavelan"
[nodes]
count = 25
[mobility]
model = "random-waypoint"
area_m = [600, 600]
speed_mps = {{ min = 0.0, max = 20.0 }}
pause = "0s"
[routing]
protocol = "{protocol}"
[[flows]]
pairs = {pairs}
{app}
"#
    )
}

fn run_opts(text: &str, sets: &[(&str, &str)], trace: Option<TraceOptions>) -> RunResult {
    try_run(text, sets, trace).unwrap_or_else(|e| panic!("{e}"))
}

fn try_run(
    text: &str,
    sets: &[(&str, &str)],
    trace: Option<TraceOptions>,
) -> Result<RunResult, SimError> {
    let ov: Vec<_> = sets
        .iter()
        .map(|(p, v)| (p.to_string(), value_from_cli(v)))
        .collect();
    let sc = load(text, &ov).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        trace,
        ..RunOptions::default()
    };
    run_scenario(sc, None, &opts, &mut |_| true)
}

fn traced(text: &str, sets: &[(&str, &str)]) -> RunResult {
    run_opts(text, sets, Some(TraceOptions::default()))
}

/// One trace row with its codes turned back into names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    time_ns: u64,
    node: String,
    iface: String,
    layer: &'static str,
    event: &'static str,
    reason: &'static str,
    flow: i32,
    uid: u64,
    size: u32,
}

fn rows(t: &PacketTrace) -> Vec<Row> {
    let reasons = PacketTrace::reason_names();
    (0..t.len())
        .map(|i| {
            let node = t.node[i] as usize;
            Row {
                time_ns: t.time_ns[i],
                node: t.node_names[node].clone(),
                iface: match t.iface[i] {
                    -1 => String::new(),
                    k => t.iface_names[node][k as usize].clone(),
                },
                layer: Layer::ALL[t.layer[i] as usize].name(),
                event: TraceEvent::ALL[t.event[i] as usize].name(),
                reason: reasons[t.reason[i] as usize],
                flow: t.flow[i],
                uid: t.uid[i],
                size: t.size_bytes[i],
            }
        })
        .collect()
}

fn trace_of(r: &RunResult) -> &PacketTrace {
    r.trace.as_ref().expect("the run was traced")
}

/// `(node, layer, event)` of every row of packet `uid`, in order.
fn path_of(rows: &[Row], uid: u64) -> Vec<(String, &'static str, &'static str)> {
    rows.iter()
        .filter(|r| r.uid == uid)
        .map(|r| (r.node.clone(), r.layer, r.event))
        .collect()
}

#[test]
fn every_data_packet_takes_its_rows_in_path_order_at_the_right_nodes() {
    let r = traced(LINE, &[]);
    let t = trace_of(&r);
    let rows = rows(t);
    assert!(!t.truncated);
    assert!(rows.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
    let uids: std::collections::BTreeSet<u64> = rows.iter().map(|r| r.uid).collect();
    assert_eq!(uids.len() as u64, r.summary.flows[0].packets_sent);
    let s = |x: &str| x.to_string();
    let expected = vec![
        (s("a"), "ip", "tx"),
        (s("a"), "link", "enqueue"),
        (s("a"), "link", "dequeue"),
        (s("a"), "link", "tx"),
        (s("r"), "link", "rx"),
        (s("r"), "ip", "forward"),
        (s("r"), "link", "enqueue"),
        (s("r"), "link", "dequeue"),
        (s("r"), "link", "tx"),
        (s("b"), "link", "rx"),
        (s("b"), "ip", "rx"),
    ];
    for &uid in &uids {
        assert_eq!(path_of(&rows, uid), expected, "packet {uid}");
        let p: Vec<&Row> = rows.iter().filter(|r| r.uid == uid).collect();
        // Timing: 0.4 ms serialisation + 5 ms to r, then 4 ms + 20 ms to b.
        assert_eq!(p[4].time_ns - p[3].time_ns, 5_400_000);
        assert_eq!(p[9].time_ns - p[8].time_ns, 24_000_000);
        assert!(p
            .iter()
            .all(|x| x.flow == 0 && x.size == 500 && x.reason.is_empty()));
        assert_eq!((p[3].iface.as_str(), p[4].iface.as_str()), ("eth0", "eth0"));
        assert_eq!((p[8].iface.as_str(), p[9].iface.as_str()), ("eth1", "eth0"));
        assert_eq!(p[10].iface, "");
    }
    let summary = r.summary.trace.as_ref().expect("trace summary");
    assert_eq!(summary.rows, rows.len() as u64);
    assert!(!summary.truncated);
}

#[test]
fn tracing_changes_no_result() {
    for (text, sets) in [
        (LINE.to_string(), vec![]),
        (manet("dsr", "tcp-newreno", 4), vec![]),
        (
            manet("aodv", "udp", 6),
            vec![("beacons.interval", "{ min = \"1s\", max = \"2s\" }")],
        ),
    ] {
        let plain = run_opts(&text, &sets, None);
        let mut t = traced(&text, &sets);
        assert!(plain.summary.trace.is_none() && plain.trace.is_none());
        assert!(t.summary.trace.is_some());
        t.summary.trace = None;
        assert_eq!(without_wall(&plain), without_wall(&t));
        assert_eq!(plain.timeseries, t.timeseries);
    }
}

/// Drop rows per (flow, reason) against the drops table.
fn check_drop_rows(r: &RunResult) {
    let t = trace_of(r);
    assert!(!t.truncated);
    let mut from_trace: BTreeMap<(i32, String), u64> = BTreeMap::new();
    for row in rows(t).iter().filter(|x| x.event == "drop") {
        assert!(!row.reason.is_empty());
        *from_trace
            .entry((row.flow, row.reason.to_string()))
            .or_default() += 1;
    }
    let table: BTreeMap<(i32, String), u64> = r
        .summary
        .drops
        .iter()
        .map(|d| {
            (
                (d.flow.map_or(-1, |f| f as i32), d.reason.clone()),
                d.packets,
            )
        })
        .collect();
    assert_eq!(from_trace, table);
}

#[test]
fn drop_rows_equal_the_drops_table_wired_and_manet() {
    // Queue and loss drops on the example's bottleneck; its queue overflows with 2 Mbit/s
    // offered.
    let wired = std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/wired-cbr.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let r = traced(
        &wired,
        &[("flows[0].rate", "3Mbps"), ("simulation.duration", "5s")],
    );
    let reasons: Vec<&str> = r.summary.drops.iter().map(|d| d.reason.as_str()).collect();
    assert!(
        reasons.contains(&"queue") && reasons.contains(&"loss"),
        "{reasons:?}"
    );
    check_drop_rows(&r);
    for (protocol, transport) in [("aodv", "sctp"), ("dsr", "tcp-newreno"), ("olsr", "udp")] {
        let r = traced(&manet(protocol, transport, 8), &[]);
        assert!(
            r.summary.drops.iter().any(|d| d.flow.is_some()),
            "{protocol}: {:?}",
            r.summary.drops
        );
        check_drop_rows(&r);
    }
}

#[test]
fn every_example_traces_its_drops() {
    let dir = format!("{}/../../scenarios/examples", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 10);
    for path in names {
        let text = std::fs::read_to_string(&path).expect("example");
        // manet-cbr runs 900 s; its first minute has flows, routing and drops enough.
        let short: &[(&str, &str)] = if path.ends_with("manet-cbr.toml") {
            &[("simulation.duration", "60s")]
        } else {
            &[]
        };
        let r = traced(&text, short);
        assert!(!trace_of(&r).is_empty(), "{path:?}");
        check_drop_rows(&r);
    }
}

#[test]
fn mac_rows_follow_queue_order_and_every_reception_was_sent() {
    let r = traced(&manet("aodv", "udp", 6), &[]);
    let rows = rows(trace_of(&r));
    let mac: Vec<&Row> = rows.iter().filter(|x| x.layer == "mac").collect();
    assert!(mac.iter().any(|x| x.event == "dequeue"));
    // Per (node, uid): every tx follows a dequeue, every dequeue an enqueue, and no packet
    // is dequeued more often than it was enqueued.
    let mut seen: BTreeMap<(String, u64), (u64, u64)> = BTreeMap::new();
    let mut sent: BTreeMap<u64, u64> = BTreeMap::new();
    for x in &mac {
        let e = seen.entry((x.node.clone(), x.uid)).or_default();
        match x.event {
            "enqueue" => e.0 += 1,
            "dequeue" => {
                e.1 += 1;
                assert!(e.1 <= e.0, "dequeued before enqueued: {x:?}");
            }
            "tx" => {
                assert!(e.1 >= 1, "sent before dequeued: {x:?}");
                sent.entry(x.uid).or_insert(x.time_ns);
            }
            "rx" => {
                let t = sent.get(&x.uid).copied();
                assert!(t.is_some_and(|t| t < x.time_ns), "received unsent: {x:?}");
            }
            _ => {}
        }
    }
    // Every packet delivered to the far end's IP was received by its MAC first.
    for x in rows
        .iter()
        .filter(|x| x.layer == "ip" && x.event == "rx" && x.flow >= 0)
    {
        assert!(
            rows.iter()
                .any(|y| y.uid == x.uid && y.node == x.node && y.layer == "mac" && y.event == "rx"),
            "{x:?}"
        );
    }
    // AODV's own messages are traced too, with uids of their own.
    assert!(rows
        .iter()
        .any(|x| x.flow == -1 && x.event == "tx" && x.uid > 0));
}

#[test]
fn filters_keep_exactly_the_matching_rows() {
    let text = manet("dsr", "udp", 6);
    let all = rows(trace_of(&traced(&text, &[])));
    let opts = TraceOptions {
        nodes: vec!["n3".into(), "n7".into()],
        flows: vec![0, 2],
        layers: vec!["mac".into(), "ip".into()],
        max_rows: None,
    };
    let some = rows(trace_of(&run_opts(&text, &[], Some(opts))));
    let expect: Vec<Row> = all
        .iter()
        .filter(|x| {
            ["n3", "n7"].contains(&x.node.as_str())
                && [0, 2].contains(&x.flow)
                && ["mac", "ip"].contains(&x.layer)
        })
        .cloned()
        .collect();
    assert!(!expect.is_empty(), "the filter should match something");
    assert!(expect.len() < all.len());
    assert_eq!(some, expect);
}

#[test]
fn the_row_bound_truncates_and_says_so() {
    let full = traced(LINE, &[]);
    let opts = TraceOptions {
        max_rows: Some(100),
        ..TraceOptions::default()
    };
    let r = run_opts(LINE, &[], Some(opts));
    let t = trace_of(&r);
    assert_eq!(t.len(), 100);
    assert!(t.truncated);
    let s = r.summary.trace.as_ref().expect("summary");
    assert_eq!((s.rows, s.max_rows, s.truncated), (100, 100, true));
    assert_eq!(rows(t), rows(trace_of(&full))[..100].to_vec());
    // A bound the run does not reach is not a truncation.
    let n = trace_of(&full).len() as i64;
    let opts = TraceOptions {
        max_rows: Some(n),
        ..TraceOptions::default()
    };
    assert!(!trace_of(&run_opts(LINE, &[], Some(opts))).truncated);
}

#[test]
fn bad_options_are_refused_before_the_run_naming_the_option() {
    let cases: [(TraceOptions, &str); 6] = [
        (
            TraceOptions {
                nodes: vec!["a".into(), "zz".into()],
                ..Default::default()
            },
            "trace.nodes[1]: no node named \"zz\"",
        ),
        (
            TraceOptions {
                flows: vec![1],
                ..Default::default()
            },
            "trace.flows[0]: no flow 1",
        ),
        (
            TraceOptions {
                flows: vec![-1],
                ..Default::default()
            },
            "trace.flows[0]: no flow -1",
        ),
        (
            TraceOptions {
                layers: vec!["mac".into(), "foo".into()],
                ..Default::default()
            },
            "trace.layers[1]: unknown layer \"foo\"",
        ),
        (
            TraceOptions {
                max_rows: Some(0),
                ..Default::default()
            },
            "trace.max_rows: 0 is outside 1 to 50000000",
        ),
        (
            TraceOptions {
                max_rows: Some(1 << 40),
                ..Default::default()
            },
            "trace.max_rows: 1099511627776 is outside",
        ),
    ];
    for (opts, msg) in cases {
        match try_run(LINE, &[], Some(opts)) {
            Err(SimError::Options(e)) => {
                assert!(e.to_string().starts_with(msg), "{e}");
            }
            Err(e) => panic!("wrong error kind: {e}"),
            Ok(_) => panic!("accepted: {msg}"),
        }
    }
}

#[test]
fn hidden_terminal_collisions_leave_phy_rows_at_the_receiver() {
    // A and C cannot hear each other; without RTS/CTS their data frames collide at B.
    let text = std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/wifi-hidden-terminal.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let r = traced(
        &text,
        &[
            ("radio.rts_threshold_bytes", "65535"),
            ("simulation.duration", "5s"),
        ],
    );
    let all = rows(trace_of(&r));
    let phy: Vec<&Row> = all.iter().filter(|x| x.layer == "phy").collect();
    assert!(phy.iter().all(|x| x.event == "rx_error"), "{phy:?}");
    let at_b = |reason: &str| {
        phy.iter()
            .filter(|x| x.node == "B" && x.reason == reason)
            .count() as u64
    };
    let b = r
        .summary
        .macs
        .iter()
        .find(|m| m.node == "B")
        .expect("B's MAC");
    assert!(at_b("collision") > 10, "{}", at_b("collision"));
    // Only data frames give rows; the radio's counters also count lost Acks.
    assert!(at_b("collision") <= b.phy_collisions);
    assert!(phy.iter().filter(|x| x.node == "B").count() as u64 <= b.rx_errors);
    // Every lost frame was sent before by its MAC, and carries a flow's packet.
    for x in &phy {
        assert!(
            all.iter().any(|y| y.uid == x.uid
                && y.layer == "mac"
                && y.event == "tx"
                && y.time_ns < x.time_ns
                && y.node != x.node),
            "{x:?}"
        );
        assert!(x.flow >= 0 && x.iface == "wlan0", "{x:?}");
    }
    // The layer filter keeps them out.
    let mac_only = run_opts(
        &text,
        &[
            ("radio.rts_threshold_bytes", "65535"),
            ("simulation.duration", "5s"),
        ],
        Some(TraceOptions {
            layers: vec!["mac".into()],
            ..TraceOptions::default()
        }),
    );
    assert!(rows(trace_of(&mac_only)).iter().all(|x| x.layer == "mac"));
}
