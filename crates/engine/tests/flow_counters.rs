//! The per-flow packet counters (`acks_sent`, `data_packets_sent`, `data_packets_received`) and
//! route lengths (`mean_route_hops`, `relayed_fraction`, the `delivered_hops` rows) of
//! `flows.parquet` and `timeseries.parquet`, on a string of 802.11 nodes where each hears only
//! its neighbours, under static routing and each ad hoc routing protocol.

mod common;

use common::{run_with, series};
use sctpsim_engine::RunResult;

/// `hops + 1` nodes 200 m apart on a line (ns-2 WaveLAN: 250 m range, so each hears only its
/// neighbours), one flow from the first to the last.
fn string(hops: usize, routing: &str, transport: &str) -> String {
    let mut s = format!(
        "[simulation]\nduration = \"30s\"\n[radio]\nprofile = \"ns2-wavelan\"\n\
         [routing]\nprotocol = \"{routing}\"\n"
    );
    for k in 0..=hops {
        s += &format!(
            "[[node]]\nname = \"n{k}\"\nwireless = true\nposition_m = [{}, 0]\n",
            200 * k
        );
    }
    let app = if transport == "udp" {
        "app = \"cbr\"\nrate = \"80kbps\"\npacket_size_bytes = 500\n"
    } else {
        "app = \"file\"\nsize_bytes = 200000\n"
    };
    s += &format!(
        "[[flows]]\nsrc = \"n0\"\ndst = \"n{hops}\"\ntransport = \"{transport}\"\n\
         start = \"5s\"\n{app}"
    );
    s
}

fn check_hops(r: &RunResult, hops: usize, what: &str) {
    let f = &r.summary.flows[0];
    assert!(f.data_packets_received > 0, "{what}: {f:?}");
    assert_eq!(f.mean_route_hops, Some(hops as f64), "{what}: {f:?}");
    let relayed = if hops > 1 { 1.0 } else { 0.0 };
    assert_eq!(f.relayed_fraction, Some(relayed), "{what}: {f:?}");
    // The flows start at 5 s; the first data packet arrives after the set-up, within seconds.
    let first = f.first_data_received_s.expect("first data packet time");
    assert!(
        (5.0..30.0).contains(&first),
        "{what}: first data at {first} s"
    );
    let rows = series(r, "delivered_hops");
    assert!(!rows.is_empty(), "{what}: delivered_hops rows");
    assert!(
        rows.iter().all(|&(_, v)| v == hops as f64),
        "{what}: {rows:?}"
    );
    let max = series(r, "delivered_hops_max");
    assert_eq!(max.len(), rows.len(), "{what}");
    assert!(
        max.iter().all(|&(_, v)| v == hops as f64),
        "{what}: {max:?}"
    );
}

#[test]
fn route_length_counts_the_links_crossed_under_every_routing_protocol() {
    for routing in ["static", "aodv", "dsr", "olsr"] {
        for hops in [1, 2, 3] {
            for t in ["udp", "tcp-newreno", "sctp"] {
                let r = run_with(&string(hops, routing, t), &[]);
                check_hops(&r, hops, &format!("{t} over {hops} hops, {routing}"));
            }
        }
    }
}

#[test]
fn a_flow_with_nothing_delivered_has_no_route_length() {
    // The far end is out of reach of everyone: nothing arrives.
    let text = string(1, "static", "udp").replace("position_m = [200, 0]", "position_m = [900, 0]");
    let r = run_with(&text, &[]);
    let f = &r.summary.flows[0];
    assert_eq!(f.data_packets_received, 0, "{f:?}");
    assert!(f.data_packets_sent > 0, "{f:?}");
    assert_eq!(f.mean_route_hops, None);
    assert_eq!(f.relayed_fraction, None);
    assert_eq!(f.first_data_received_s, None);
    assert!(series(&r, "delivered_hops").is_empty());
}

#[test]
fn tcp_counts_pure_acks_and_data_segments() {
    for hops in [1, 2] {
        let r = run_with(&string(hops, "static", "tcp-newreno"), &[]);
        let f = &r.summary.flows[0];
        assert_eq!(f.bytes_delivered, 200_000, "{f:?}");
        // 200 kB in segments of at most 1460 bytes: at least 137 with payload.
        assert!(f.data_packets_sent >= 137, "{f:?}");
        assert!(f.data_packets_received <= f.data_packets_sent, "{f:?}");
        assert!(f.data_packets_received >= 137, "{f:?}");
        // Every data segment counted is one with payload: a FIN without data is in
        // `packets_sent` only.
        assert!(f.data_packets_sent <= f.packets_sent, "{f:?}");
        // Delayed ACK (RFC 5681 §4.2): about one ACK per two segments.
        let ratio = f.acks_sent as f64 / f.data_packets_received as f64;
        assert!((0.4..=0.75).contains(&ratio), "ACK ratio {ratio}: {f:?}");
        let r = run_with(
            &string(hops, "static", "tcp-newreno"),
            &[("flows[0].tcp.delayed_ack", "false")],
        );
        let f = &r.summary.flows[0];
        let ratio = f.acks_sent as f64 / f.data_packets_received as f64;
        assert!((0.9..=1.1).contains(&ratio), "ACK ratio {ratio}: {f:?}");
    }
}

#[test]
fn sctp_acks_are_the_receivers_sacks() {
    for hops in [1, 2] {
        let r = run_with(&string(hops, "static", "sctp"), &[]);
        let f = &r.summary.flows[0];
        let a = &r.summary.sctp[0];
        assert_eq!(f.acks_sent, a.sacks_sent, "{f:?} {a:?}");
        assert!(f.acks_sent > 0);
        assert_eq!(f.data_packets_sent, f.packets_sent, "{f:?}");
        assert_eq!(f.data_packets_received, f.packets_delivered, "{f:?}");
        assert!(f.data_packets_received <= f.data_packets_sent, "{f:?}");
        // Delayed SACK (RFC 9260 §6.2): at most one SACK per packet, about one per two.
        let ratio = f.acks_sent as f64 / f.data_packets_received as f64;
        assert!((0.4..=1.0).contains(&ratio), "SACK ratio {ratio}: {f:?}");
    }
}

#[test]
fn udp_sends_no_acks() {
    let r = run_with(&string(2, "static", "udp"), &[]);
    let f = &r.summary.flows[0];
    assert_eq!(f.acks_sent, 0);
    assert_eq!(f.data_packets_sent, f.packets_sent, "{f:?}");
    assert_eq!(f.data_packets_received, f.packets_delivered, "{f:?}");
    assert!(f.data_packets_received > 0);
}

/// A file's completion time is when the receiving application held all of it, from the flow's
/// start; its goodput is over that time, not over the rest of the run (issue 35 item 7). A
/// file that cannot complete, and a CBR flow, have none.
#[test]
fn a_completed_file_has_its_completion_time_and_goodput_over_it() {
    for t in ["tcp-newreno", "sctp", "udp-file"] {
        let text = if t == "udp-file" {
            string(1, "static", "udp").replace(
                "app = \"cbr\"\nrate = \"80kbps\"\n",
                "app = \"file\"\nsize_bytes = 50000\nrate = \"80kbps\"\n",
            )
        } else {
            string(1, "static", t)
        };
        let r = run_with(&text, &[]);
        let f = &r.summary.flows[0];
        let size = if t == "udp-file" { 50_000 } else { 200_000 };
        assert_eq!(f.bytes_delivered, size, "{t}: {f:?}");
        let done = f.completion_time_s.expect("completed");
        let first = f.first_data_received_s.unwrap() - 5.0;
        assert!(done > first && done < 25.0, "{t}: {done} s");
        let want = size as f64 * 8.0 / done;
        assert!((f.goodput_bps - want).abs() < 1e-6 * want, "{t}: {f:?}");
    }
    // 200 kB in the 1 s after the start cannot complete at 2 Mbit/s.
    let short =
        string(1, "static", "tcp-newreno").replace("duration = \"30s\"", "duration = \"6s\"");
    let f = &run_with(&short, &[]).summary.flows[0];
    assert!(f.bytes_delivered < 200_000);
    assert_eq!(f.completion_time_s, None);
    let cbr = run_with(&string(1, "static", "udp"), &[]);
    assert_eq!(cbr.summary.flows[0].completion_time_s, None);
}
