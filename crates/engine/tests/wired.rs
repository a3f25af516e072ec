//! Scenario-level tests of the wired network: timing, queues, scripted drops, routing,
//! determinism.

mod common;

use common::{run_seeded as run_with, without_wall as summary_without_wall};
use sctpsim_engine::{load, run_scenario, RunOptions};

const LINE: &str = r#"
[simulation]
duration = "10s"
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
stop = "9s"
"#;

#[test]
fn lossless_path_delivers_everything_with_exact_delay() {
    let r = run_with(LINE, &[], None);
    let f = &r.summary.flows[0];
    // 400 kbit/s of 472-byte payloads from 0 to 9 s: one per 9.44 ms → 954 packets.
    assert_eq!(f.packets_sent, 954);
    assert_eq!(f.packets_delivered, 954);
    // 500-byte IP packets: 0.4 ms at 10 Mbit/s + 5 ms, then 4 ms at 1 Mbit/s + 20 ms; the
    // bottleneck is never queued (packet every 9.44 ms, service 4 ms).
    let expect = 0.0004 + 0.005 + 0.004 + 0.020;
    assert!(
        (f.mean_delay_s.unwrap() - expect).abs() < 1e-9,
        "{:?}",
        f.mean_delay_s
    );
    assert_eq!(r.summary.network.queue_drops, 0);
}

#[test]
fn scripted_drops_remove_exactly_the_named_packets() {
    let r = run_with(
        LINE,
        &[(
            "link[1].drops",
            "[{ flow = 0, packets = [3, 5, 100], from = \"r\" }]",
        )],
        None,
    );
    let f = &r.summary.flows[0];
    assert_eq!(f.packets_delivered, f.packets_sent - 3);
    assert_eq!(r.summary.network.scripted_drops, 3);
    // The reverse direction carries nothing of flow 0, so `from = "b"` drops nothing.
    let r = run_with(
        LINE,
        &[(
            "link[1].drops",
            "[{ flow = 0, packets = [3], from = \"b\" }]",
        )],
        None,
    );
    assert_eq!(r.summary.network.scripted_drops, 0);
}

#[test]
fn overload_fills_the_drop_tail_queue_and_the_link_runs_at_capacity() {
    let r = run_with(
        LINE,
        &[
            ("flows[0].rate", "2Mbps"),
            ("link[1].queue_limit_packets", "10"),
        ],
        None,
    );
    let n = &r.summary.network;
    assert!(n.queue_drops > 0);
    let bottleneck = r
        .summary
        .links
        .iter()
        .find(|l| l.id == 1 && l.dir == "fwd")
        .unwrap();
    assert!(bottleneck.utilization > 0.89, "{}", bottleneck.utilization);
    // Offered 2 Mbit/s of payload into 1 Mbit/s: about half is delivered.
    let f = &r.summary.flows[0];
    let frac = f.delivered_fraction;
    assert!((0.45..0.50).contains(&frac), "{frac}");
    // Queueing delay is bounded by the queue: 10 packets × 4 ms.
    assert!(f.mean_delay_s.unwrap() < 0.0294 + 0.041);
}

#[test]
fn same_seed_same_summary_different_seed_differs() {
    let lossy = [("link[1].loss", "{ model = \"bernoulli\", p = 0.1 }")];
    let a = run_with(LINE, &lossy, Some(5));
    let b = run_with(LINE, &lossy, Some(5));
    let c = run_with(LINE, &lossy, Some(6));
    assert_eq!(summary_without_wall(&a), summary_without_wall(&b));
    assert_eq!(a.timeseries, b.timeseries);
    assert_ne!(summary_without_wall(&a), summary_without_wall(&c));
}

#[test]
fn adding_a_flow_does_not_change_another_links_loss_pattern() {
    // Keyed streams: the loss draws of link 1 depend on (seed, link, direction) only.
    let lossy = [(
        "link[1].loss",
        "{ model = \"bernoulli\", p = 0.1, from = \"r\" }",
    )];
    let one = run_with(LINE, &lossy, Some(3));
    let text2 =
        format!("{LINE}\n[[flows]]\nsrc = \"b\"\ndst = \"a\"\napp = \"cbr\"\nrate = \"10kbps\"\n");
    let two = run_with(&text2, &lossy, Some(3));
    assert_eq!(
        one.summary.flows[0].packets_delivered,
        two.summary.flows[0].packets_delivered
    );
}

#[test]
fn shortest_path_routing_prefers_fewer_hops() {
    // A square with a diagonal: a-b-c-d-a plus a-c. a→c goes over the diagonal.
    let text = r#"
[simulation]
duration = "2s"
[[node]]
name = "a"
[[node]]
name = "b"
[[node]]
name = "c"
[[node]]
name = "d"
[[link]]
between = ["a", "b"]
bandwidth = "1Mbps"
delay = "1ms"
[[link]]
between = ["b", "c"]
bandwidth = "1Mbps"
delay = "1ms"
[[link]]
between = ["c", "d"]
bandwidth = "1Mbps"
delay = "1ms"
[[link]]
between = ["d", "a"]
bandwidth = "1Mbps"
delay = "1ms"
[[link]]
between = ["a", "c"]
bandwidth = "1Mbps"
delay = "50ms"
[[flows]]
src = "a"
dst = "c"
app = "cbr"
rate = "10kbps"
stop = "1s"
"#;
    let r = run_with(text, &[], None);
    let diag = r
        .summary
        .links
        .iter()
        .find(|l| l.id == 4 && l.dir == "fwd")
        .unwrap();
    assert_eq!(diag.tx_packets, r.summary.flows[0].packets_sent);
    assert!(r.summary.flows[0].mean_delay_s.unwrap() > 0.05);
}

#[test]
fn unreachable_destination_counts_no_route_drops() {
    let text = format!("{LINE}\n[[node]]\nname = \"island\"\n");
    let text = text.replace("dst = \"b\"", "dst = \"island\"");
    let r = run_with(&text, &[], None);
    assert_eq!(r.summary.flows[0].packets_delivered, 0);
    assert_eq!(
        r.summary.network.no_route_drops,
        r.summary.flows[0].packets_sent
    );
}

#[test]
fn time_series_has_one_sample_per_interval() {
    let r = run_with(LINE, &[("simulation.sample_interval", "1s")], None);
    let ts = &r.timeseries;
    let flow_goodput: Vec<f64> = (0..ts.len())
        .filter(|&i| ts.scope[i] == "flow" && ts.metric[i] == "goodput_bps")
        .map(|i| ts.time_s[i])
        .collect();
    assert_eq!(flow_goodput, (1..=10).map(|s| s as f64).collect::<Vec<_>>());
}

#[test]
fn observer_can_stop_a_run_and_the_result_says_so() {
    let sc = load(
        &LINE
            .replace("duration = \"10s\"", "duration = \"2000s\"")
            .replace("stop = \"9s\"", ""),
        &[],
    )
    .unwrap();
    let opts = RunOptions {
        pcap_dir: None,
        progress_interval_s: Some(0.0),
        trace: None,
    };
    let mut calls = 0;
    let r = run_scenario(sc, None, &opts, &mut |_| {
        calls += 1;
        calls < 2
    })
    .unwrap();
    assert!(r.summary.interrupted);
    assert!(r.summary.sim_time_s < 2000.0);
    assert!(r.summary.flows[0].packets_sent > 0);
}
