//! Scenario-level tests of the wireless channel with the 802.11 MAC: one-hop delivery, half
//! duplex, the range cut-off, hidden terminals with and without RTS/CTS, determinism and lazy
//! positions.

mod common;

use common::{load_err, run_seeded as run_with, without_wall};
use sctpsim_engine::RunResult;

/// Two static nodes `distance` apart, a CBR flow a → b.
fn pair(distance: f64, rate: &str) -> String {
    format!(
        r#"
[simulation]
duration = "5s"
[[node]]
name = "a"
wireless = true
position_m = [0, 0]
[[node]]
name = "b"
wireless = true
position_m = [{distance}, 0]
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "{rate}"
packet_size_bytes = 512
stop = "4s"
"#
    )
}

#[test]
fn one_hop_delivers_everything_below_capacity() {
    // ns2-wavelan: 2 Mbit/s, RTS/CTS before every frame; 200 kbit/s is far below capacity.
    let r = run_with(&pair(100.0, "200kbps"), &[], None);
    let f = &r.summary.flows[0];
    assert!(f.packets_sent > 190, "{f:?}");
    assert_eq!(f.packets_delivered, f.packets_sent);
    // One exchange RTS + CTS + DATA + Ack at 1/1/2/1 Mbit/s plus DIFS and backoff: a few ms.
    let d = f.mean_delay_s.unwrap();
    assert!(d > 0.003 && d < 0.01, "{d}");
    let a = &r.summary.macs[0];
    assert_eq!(a.node, "a");
    assert_eq!(a.tx_rts, f.packets_sent);
    assert_eq!(a.collisions, 0);
    assert_eq!(r.summary.network.mac_drops, 0);
    assert_eq!(r.summary.network.pdf, 1.0);
}

#[test]
fn range_cut_off_at_250_m_for_the_ns2_radio() {
    // Static routes need a neighbour at t = 0: within RXThresh (250 m) there is one ...
    let near = run_with(&pair(249.0, "100kbps"), &[], None);
    assert_eq!(
        near.summary.flows[0].packets_delivered,
        near.summary.flows[0].packets_sent
    );
    // ... beyond it there is none.
    let far = run_with(&pair(251.0, "100kbps"), &[], None);
    assert_eq!(far.summary.flows[0].packets_delivered, 0);
    assert!(far.summary.network.no_route_drops > 0);
}

/// n0 stands at the origin; n1 moves from 240 m to 260 m along x between 0 and 20 s.
const WALK_AWAY: &str = r#"
[simulation]
duration = "20s"
sample_interval = "100ms"
[nodes]
count = 2
[mobility]
model = "waypoints"
[[mobility.waypoints]]
node = "n0"
times = ["0s"]
positions_m = [[0, 0]]
[[mobility.waypoints]]
node = "n1"
times = ["0s", "20s"]
positions_m = [[240, 0], [260, 0]]
[[flows]]
src = "n0"
dst = "n1"
app = "cbr"
rate = "40kbps"
packet_size_bytes = 500
"#;

#[test]
fn frames_stop_arriving_when_the_receiver_moves_past_250_m() {
    let r = run_with(WALK_AWAY, &[], None);
    // The last packet delivered is sent before n1 crosses 250 m at t = 10 s.
    let ts = &r.timeseries;
    let mut last_growth = 0.0;
    let mut prev = 0.0;
    for i in 0..ts.len() {
        if ts.scope[i] == "flow" && ts.metric[i] == "bytes_delivered" {
            if ts.value[i] > prev {
                last_growth = ts.time_s[i];
            }
            prev = ts.value[i];
        }
    }
    assert!(
        (9.8..=10.1).contains(&last_growth),
        "deliveries stopped at {last_growth} s"
    );
    // Afterwards n0 keeps trying: RTS frames go unanswered and packets are dropped at the
    // retry limit (link failures).
    assert!(r.summary.network.mac_drops > 0);
    let n1 = &r.summary.macs[1];
    assert!(n1.phy_below_rx_thresh > 0, "{n1:?}");
}

#[test]
fn half_duplex_makes_simultaneous_senders_collide() {
    // Two saturated stations sending to each other (basic access): when both backoffs end in
    // the same slot neither hears the other (each is transmitting), so both frames are lost.
    // Without half duplex each would receive the other's frame and p would be 0. Bianchi's p
    // for n = 2 is 0.059.
    let text = r#"
[simulation]
duration = "20s"
[radio]
profile = "80211b"
rts_threshold_bytes = 65535
reception = "threshold"
[[node]]
name = "a"
wireless = true
position_m = [0, 0]
[[node]]
name = "b"
wireless = true
position_m = [5, 0]
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "8Mbps"
packet_size_bytes = 1472
[[flows]]
src = "b"
dst = "a"
app = "cbr"
rate = "8Mbps"
packet_size_bytes = 1472
"#;
    let r = run_with(text, &[], None);
    let (att, col, hd): (u64, u64, u64) = r.summary.macs.iter().fold((0, 0, 0), |s, m| {
        (
            s.0 + m.unicast_attempts,
            s.1 + m.collisions,
            s.2 + m.phy_half_duplex,
        )
    });
    let p = col as f64 / att as f64;
    assert!((0.035..0.085).contains(&p), "p = {p}");
    assert!(hd > 0);
}

const HIDDEN: &str = include_str!("../../../scenarios/examples/wifi-hidden-terminal.toml");

#[test]
fn hidden_terminals_collide_without_rts_cts() {
    let rts = run_with(HIDDEN, &[("simulation.duration", "10s")], None);
    let basic = run_with(
        HIDDEN,
        &[
            ("simulation.duration", "10s"),
            ("radio.rts_threshold_bytes", "65535"),
        ],
        None,
    );
    let goodput = |r: &RunResult| r.summary.flows.iter().map(|f| f.goodput_bps).sum::<f64>();
    let p = |r: &RunResult| {
        let (a, c) = r.summary.macs.iter().fold((0u64, 0u64), |s, m| {
            (s.0 + m.unicast_attempts, s.1 + m.collisions)
        });
        c as f64 / a as f64
    };
    // The receiver B sees many collisions without RTS/CTS.
    let b_basic = &basic.summary.macs[1];
    let b_rts = &rts.summary.macs[1];
    println!(
        "basic: goodput {:.0} bit/s, p {:.3}, B collisions {}; rts: goodput {:.0}, p {:.3}, B collisions {}",
        goodput(&basic),
        p(&basic),
        b_basic.phy_collisions,
        goodput(&rts),
        p(&rts),
        b_rts.phy_collisions
    );
    assert!(goodput(&rts) > 1.5 * goodput(&basic));
    assert!(p(&basic) > 2.0 * p(&rts));
    assert!(b_basic.phy_collisions > 2 * b_rts.phy_collisions);
    // Both senders get through with RTS/CTS.
    assert!(rts.summary.flows.iter().all(|f| f.goodput_bps > 200_000.0));
    // Which frames fail: with RTS/CTS the hidden senders lose RTS frames (CTS timeouts), not
    // DATA; without it, DATA frames (Ack timeouts). Every acknowledged frame is in one bucket
    // of its failed attempts, and the buckets' failures are at most the timeouts.
    for (r, rts_on) in [(&rts, true), (&basic, false)] {
        for m in &r.summary.macs {
            assert_eq!(m.collisions, m.cts_timeouts + m.ack_timeouts, "{m:?}");
            let acked = [
                m.acked_first_try,
                m.acked_after_1_retry,
                m.acked_after_2_retries,
                m.acked_after_3plus_retries,
            ];
            assert_eq!(acked.iter().sum::<u64>(), m.tx_success, "{m:?}");
            let least_failures = acked[1] + 2 * acked[2] + 3 * acked[3];
            assert!(least_failures <= m.collisions, "{m:?}");
        }
        let a = &r.summary.macs[0];
        if rts_on {
            assert!(a.cts_timeouts > 10 * a.ack_timeouts.max(1), "{a:?}");
        } else {
            assert_eq!(a.cts_timeouts, 0, "{a:?}");
            assert!(a.ack_timeouts > 0 && a.acked_after_1_retry > 0, "{a:?}");
        }
    }
}

const SATURATION: &str = include_str!("../../../scenarios/examples/wifi-saturation.toml");

#[test]
fn same_seed_same_summary_other_seed_other_summary() {
    let sets = [("simulation.duration", "3s"), ("nodes.count", "6")];
    let a = run_with(SATURATION, &sets, Some(3));
    let b = run_with(SATURATION, &sets, Some(3));
    let c = run_with(SATURATION, &sets, Some(4));
    assert_eq!(without_wall(&a), without_wall(&b));
    assert_eq!(a.timeseries, b.timeseries);
    assert_ne!(without_wall(&a), without_wall(&c));
}

/// 30 nodes moving (random waypoint) in 800 × 800 m, 6 one-hop-at-start flows.
const MOBILE: &str = r#"
[simulation]
duration = "30s"
sample_interval = "100ms"
[nodes]
count = 30
[mobility]
model = "random-waypoint"
area_m = [800, 800]
speed_mps = { min = 1.0, max = 20.0 }
pause = "2s"
[[flows]]
src = "n1"
dst = "n0"
app = "cbr"
rate = "100kbps"
[[flows]]
src = "n3"
dst = "n2"
app = "cbr"
rate = "100kbps"
[[flows]]
src = "n5"
dst = "n4"
app = "cbr"
rate = "100kbps"
"#;

#[test]
fn lazy_positions_do_not_depend_on_the_sample_interval() {
    let sets = |iv: &'static str| vec![("simulation.sample_interval", iv)];
    let a = run_with(MOBILE, &sets("100ms"), Some(2));
    let b = run_with(MOBILE, &sets("7s"), Some(2));
    let c = run_with(MOBILE, &sets("1s"), Some(2));
    let key = |r: &RunResult| {
        serde_json::to_string(&(&r.summary.flows, &r.summary.macs, &r.summary.network)).unwrap()
    };
    assert_eq!(key(&a), key(&b));
    assert_eq!(key(&a), key(&c));
    assert!(a.summary.macs.iter().map(|m| m.tx_data).sum::<u64>() > 100);
}

#[test]
fn wireless_errors_name_the_field() {
    let base = pair(100.0, "100kbps");
    let e = load_err(&base, &[("radio.data_rate", "0Mbps")]);
    assert!(e.starts_with("radio.data_rate:"), "{e}");
    let e = load_err(
        &base,
        &[
            ("radio.profile", "\"80211b\""),
            ("radio.data_rate", "3Mbps"),
        ],
    );
    assert!(e.starts_with("radio.data_rate:"), "{e}");
    let e = load_err(&base, &[("radio.tx_power", "2")]);
    assert!(e.starts_with("radio.tx_power:"), "{e}");
    let e = load_err(
        &base,
        &[(
            "radio.propagation",
            "{ model = \"two-ray-ground\", std_db = 4.0 }",
        )],
    );
    assert!(e.starts_with("radio.propagation.std_db:"), "{e}");
    let e = load_err(
        &base,
        &[
            ("radio.reception", "\"sinr\""),
            ("radio.cp_thresh_db", "10"),
        ],
    );
    assert!(e.starts_with("radio.cp_thresh_db:"), "{e}");
    let e = load_err(SATURATION, &[("mobility.placement", "\"line\"")]);
    assert!(e.starts_with("mobility.spacing_m:"), "{e}");
    let e = load_err(SATURATION, &[("mobility.pause", "\"2s\"")]);
    assert!(e.starts_with("mobility.pause:"), "{e}");
    let e = load_err(SATURATION, &[("nodes.count", "0")]);
    assert!(e.starts_with("nodes.count:"), "{e}");
    let e = load_err(SATURATION, &[("flows[0].dst", "\"n99\"")]);
    assert!(e.contains("n99"), "{e}");
    let e = load_err(
        MOBILE,
        &[("mobility.speed_mps", "{ min = 5.0, max = 1.0 }")],
    );
    assert!(e.starts_with("mobility.speed_mps.min:"), "{e}");
}

#[test]
fn every_mobility_model_runs() {
    let head = |model: &str| {
        format!(
            r#"
[simulation]
duration = "5s"
[nodes]
count = 4
[[flows]]
src = "n1"
dst = "n0"
app = "cbr"
rate = "50kbps"
[mobility]
model = "{model}"
"#
        )
    };
    let cases = [
        head("static") + "placement = \"line\"\nspacing_m = 50\n",
        head("static") + "placement = \"grid\"\nspacing_m = 60\ncolumns = 2\n",
        head("static") + "placement = \"ring\"\nradius_m = 30\n",
        head("static") + "placement = \"positions\"\npositions_m = [[0, 0], [10, 0], [0, 10], [10, 10, 2]]\n",
        head("static") + "area_m = [150, 150]\n",
        head("constant-velocity")
            + "placement = \"line\"\nspacing_m = 20\nvelocity_mps = [3.0, 1.0]\nstart = \"1s\"\nstop = \"4s\"\n",
        head("random-waypoint")
            + "area_m = [150, 150]\nspeed_mps = { min = 1.0, max = 10.0 }\npause = \"1s\"\nsteady_state = true\n",
        head("random-walk")
            + "area_m = [150, 150]\nspeed_mps = { min = 1.0, max = 10.0 }\nchange_interval = \"500ms\"\nmax_turn_deg = 45\n",
        head("random-walk") + "area_m = [150, 150]\nspeed_mps = { min = 1.0, max = 10.0 }\nchange_distance_m = 20\n",
        head("gauss-markov")
            + "area_m = [150, 150]\nalpha = 0.75\nmean_speed_mps = 5\nspeed_std_mps = 1\ndirection_std_deg = 20\nupdate_interval = \"500ms\"\nedge_margin_m = 10\n",
        head("setdest")
            + "text = '''\n$node_(0) set X_ 10.0\n$node_(0) set Y_ 10.0\n$node_(1) set X_ 60.0\n$node_(1) set Y_ 10.0\n$node_(2) set X_ 0.0\n$node_(3) set X_ 0.0\n$ns_ at 1.0 \"$node_(1) setdest 120.0 10.0 5.0\"\n'''\n",
        head("bonnmotion")
            + "text = '''\n0 10 10\n0 60 10 2 80 10\n0 10 60\n0 60 60\n'''\n",
        head("waypoints")
            + "placement = \"line\"\nspacing_m = 40\n[[mobility.waypoints]]\nnode = \"n1\"\ntimes = [\"0s\", \"5s\"]\npositions_m = [[40, 0], [100, 0]]\n",
    ];
    for text in &cases {
        let r = run_with(text, &[], Some(1));
        let f = &r.summary.flows[0];
        assert!(
            f.packets_delivered > 0 && f.packets_delivered + 2 >= f.packets_sent,
            "{text}\n{f:?}"
        );
    }
    // A missing trace file is an error naming the field.
    let e = load_err(&(head("setdest") + "file = \"/no/such/file.tcl\"\n"), &[]);
    assert!(e.starts_with("mobility.file:"), "{e}");
    let e = load_err(&(head("bonnmotion") + "text = '''\n0 1 1\n'''\n"), &[]);
    assert!(e.starts_with("mobility.text:"), "{e}");
}
