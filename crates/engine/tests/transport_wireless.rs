//! TCP (each variant) and SCTP over 802.11: a 1–3 hop string with static routes, and a route
//! that breaks under AODV and DSR (`manet-link-break`: the relay walks away, another node
//! arrives). Every file arrives exactly (SCTP's checking sink: no message lost, duplicated or
//! out of order), every drop is attributed by reason, and the route events reach the flow.

mod common;

use common::{check_drops, run_with};
use sctpsim_engine::RunResult;

const TRANSPORTS: [&str; 4] = ["tcp-reno", "tcp-newreno", "tcp-sack", "sctp"];

/// `hops + 1` nodes 200 m apart on a line (each hears only its neighbours), a file of `bytes`
/// from the first to the last.
fn string(hops: usize, transport: &str, bytes: u64) -> String {
    let mut s =
        String::from("[simulation]\nduration = \"60s\"\n[radio]\nprofile = \"ns2-wavelan\"\n");
    for k in 0..=hops {
        s += &format!(
            "[[node]]\nname = \"n{k}\"\nwireless = true\nposition_m = [{}, 0]\n",
            200 * k
        );
    }
    s += &format!(
        "[[flows]]\nsrc = \"n0\"\ndst = \"n{hops}\"\ntransport = \"{transport}\"\napp = \"file\"\nsize_bytes = {bytes}\n"
    );
    s
}

/// The file arrived whole, once and in order.
fn delivered_exactly(r: &RunResult, bytes: u64, what: &str) {
    let f = &r.summary.flows[0];
    assert_eq!(f.bytes_delivered, bytes, "{what}: {f:?}");
    if let Some(s) = r.summary.sctp.first() {
        assert_eq!(s.delivery_errors, 0, "{what}");
        assert_eq!(s.messages_delivered, s.messages_sent, "{what}");
    }
}

#[test]
fn files_cross_a_one_to_three_hop_string_exactly() {
    const BYTES: u64 = 300_000;
    for hops in 1..=3 {
        for t in TRANSPORTS {
            let r = run_with(&string(hops, t, BYTES), &[]);
            let what = format!("{t} over {hops} hops");
            delivered_exactly(&r, BYTES, &what);
            check_drops(&r, false);
        }
    }
}

/// The `manet-link-break` example with its CBR flow's rate and size left out (a backlogged
/// transport sets its own rate).
fn link_break() -> String {
    let text = std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/manet-link-break.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    text.lines()
        .filter(|l| !l.starts_with("rate =") && !l.starts_with("packet_size_bytes ="))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Flow 0's rows of `metric` after `t0` s.
fn rows_after(r: &RunResult, metric: &str, t0: f64) -> Vec<(f64, String, f64)> {
    let ts = &r.timeseries;
    (0..ts.len())
        .filter(|&i| ts.metric[i] == metric && ts.id[i] == 0 && ts.time_s[i] >= t0)
        .map(|i| (ts.time_s[i], ts.dir[i].to_string(), ts.value[i]))
        .collect()
}

#[test]
fn transports_survive_a_route_break_under_aodv_and_dsr() {
    // The relay B walks away at 20-24 s; D, arrived at 15 s, offers the new route.
    for protocol in ["aodv", "dsr"] {
        for t in TRANSPORTS {
            let sets = [
                ("routing.protocol", protocol),
                ("flows[0].transport", t),
                ("flows[0].app", "ftp"),
            ];
            let r = run_with(&link_break(), &sets);
            let what = format!("{t} over {protocol}");
            check_drops(&r, true);
            let broken = rows_after(&r, "net_event", 0.0);
            assert!(
                broken.iter().any(|(_, d, _)| d == "route_broken"),
                "{what}: the break reached an end of the flow: {broken:?}"
            );
            let after = rows_after(&r, "goodput_bps", 30.0);
            assert!(
                after.iter().any(|(_, _, v)| *v > 0.0),
                "{what}: data flows again after the break"
            );
            if let Some(s) = r.summary.sctp.first() {
                assert_eq!(s.delivery_errors, 0, "{what}");
            }
        }
    }
}
