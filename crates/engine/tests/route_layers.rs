//! The route layers of a node compose, except two owners of the wireless hop
//! (`scenario/route_layers.rs`): each pair of ad hoc routing, infrastructure mode, Mobile IP
//! and access-router mobility is refused by the one rule, naming both fields.

mod common;

use common::{load_err, run_with, without_wall};

const MIP: &str = include_str!("../../../python/sctpsim/scenarios/atiquzzaman2003/mobileip.toml");
const ROAD: &str = include_str!("../../../python/sctpsim/scenarios/aydin2004/road.toml");
const HANDOFF: &str = include_str!("../../../scenarios/examples/wifi-handoff.toml");

/// The rule's error: at the second owner's field, naming the first owner's field.
fn refused(text: &str, sets: &[(&str, &str)], at: &str, other: &str) {
    let e = load_err(text, sets);
    assert!(
        e.contains(at) && e.contains(other) && e.contains("one of them"),
        "expected the route-layer rule at {at} naming {other}: {e}"
    );
}

#[test]
fn two_owners_of_the_wireless_hop_are_refused_by_one_rule() {
    // Ad hoc routing with each of the other three.
    refused(
        MIP,
        &[("routing.protocol", "\"aodv\"")],
        "node[2].mobile_ip",
        "routing.protocol",
    );
    refused(
        ROAD,
        &[("routing.protocol", "\"dsr\"")],
        "cellular",
        "routing.protocol",
    );
    refused(
        HANDOFF,
        &[("routing.protocol", "\"olsr\"")],
        "wifi.role",
        "routing.protocol",
    );
    // Mobile IP with access-router mobility, and with infrastructure mode.
    refused(
        MIP,
        &[("node[4].cellular.role", "\"mobile\"")],
        "node[4].cellular",
        "node[2].mobile_ip",
    );
    refused(
        MIP,
        &[("node[3].wifi.role", "\"ap\"")],
        "node[2].mobile_ip",
        "node[3].wifi.role",
    );
}

#[test]
fn a_mobile_ip_node_may_name_the_ad_hoc_mac_it_runs_over() {
    // `wifi.role = "adhoc"` is the MAC Mobile IP runs over: not a second owner of the hop.
    let short = ("simulation.duration", "\"20s\"");
    let named = run_with(MIP, &[("node[4].wifi.role", "\"adhoc\""), short]);
    let plain = run_with(MIP, &[short]);
    assert!(plain.summary.flows[0].bytes_delivered > 0);
    assert_eq!(without_wall(&named), without_wall(&plain));
}
