//! Drop attribution end to end: every packet the network drops is counted once for its flow
//! (from the packet's tag, carried through queues, MACs, the channel and routers) and its
//! reason, and each flow's `dropped_seq` / `dropped_tsn` rows match those counts. The layers'
//! own counters (links, MACs, routers, IP) are the independent reference: per reason, the
//! drops table adds up to them exactly.

mod common;

use common::{check_drops as check, run_seeded};
use sctpsim_engine::RunResult;

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
    // 20 flows, as in the MANET studies (Argyriou & Madisetti 2004).
    let r = run_seeded(&manet("aodv", "sctp", 30, 20, 30), &[], None);
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
