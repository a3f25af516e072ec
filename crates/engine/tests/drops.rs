//! Drop attribution end to end: every packet the network drops is counted once for its flow
//! (from the packet's tag, carried through queues, MACs, the channel and routers) and its
//! reason, and each flow's `dropped_seq` / `dropped_tsn` rows match those counts. The layers'
//! own counters (links, MACs, routers, IP) are the independent reference: per reason, the
//! drops table adds up to them exactly.

mod common;

use common::run_seeded;
use sctpsim_engine::RunResult;
use std::collections::BTreeMap;

/// A small random-waypoint MANET: `nodes` nodes in `area` m², `pairs` flows of `transport`
/// under `protocol`.
fn manet(protocol: &str, transport: &str, nodes: u32, pairs: u32, secs: u32) -> String {
    let app = if transport == "udp" {
        "app = \"cbr\"\nrate = \"32kbps\"\npacket_size_bytes = 512"
    } else {
        "app = \"ftp\""
    };
    let transport = if transport == "udp" {
        String::new()
    } else {
        format!("transport = \"{transport}\"")
    };
    format!(
        r#"
[simulation]
duration = "{secs}s"
seed = 3
[radio]
profile = "ns2-wavelan"
[nodes]
count = {nodes}
[mobility]
model = "random-waypoint"
area_m = [600, 600]
speed_mps = {{ min = 0.0, max = 20.0 }}
pause = "0s"
[routing]
protocol = "{protocol}"
[[flows]]
pairs = {pairs}
{transport}
{app}
"#
    )
}

/// Per reason: packets in the drops table (all flows and none).
fn table(r: &RunResult) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for d in &r.summary.drops {
        *m.entry(d.reason.clone()).or_default() += d.packets;
    }
    m
}

/// Checks the drops table against the layers' counters and the rows against the table.
fn check(r: &RunResult, routed: bool) {
    let t = table(r);
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

/// Drops of the flows' own packets (not routing control).
fn flow_drops(r: &RunResult) -> u64 {
    r.summary
        .drops
        .iter()
        .filter(|d| d.flow.is_some())
        .map(|d| d.packets)
        .sum()
}

#[test]
fn sctp_over_aodv_manet_attributes_every_drop() {
    let r = run_seeded(&manet("aodv", "sctp", 30, 6, 40), &[], None);
    check(&r, true);
    assert!(flow_drops(&r) > 0, "{:?}", r.summary.drops);
    assert!(r
        .summary
        .drops
        .iter()
        .any(|d| d.flow.is_some() && d.records > 0));
}

#[test]
fn tcp_over_dsr_manet_attributes_every_drop() {
    let r = run_seeded(&manet("dsr", "tcp-newreno", 30, 6, 40), &[], None);
    check(&r, true);
    assert!(flow_drops(&r) > 0, "{:?}", r.summary.drops);
}

#[test]
fn udp_over_olsr_manet_attributes_every_drop() {
    let r = run_seeded(&manet("olsr", "udp", 30, 6, 40), &[], None);
    check(&r, true);
    assert!(flow_drops(&r) > 0, "{:?}", r.summary.drops);
}

#[test]
fn wired_drops_are_attributed_on_every_example_link_case() {
    for name in ["tcp-six-losses", "wired-cbr", "sctp-failover"] {
        let text = std::fs::read_to_string(format!(
            "{}/../../scenarios/examples/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("example");
        let r = run_seeded(&text, &[], None);
        check(&r, false);
        let d = &r.summary.drops;
        assert!(
            !d.is_empty() && d.iter().all(|x| x.flow.is_some()),
            "{name}: {d:?}"
        );
    }
}
