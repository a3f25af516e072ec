//! Ad hoc routing through the engine: the MANET example's traffic placement, the routing
//! section's checks, and (per protocol) delivery over multi-hop wireless paths.

mod common;

use common::{load_err, run_seeded, run_with};
use std::collections::BTreeSet;

const MANET: &str = include_str!("../../../scenarios/examples/manet-cbr.toml");

/// `flows.pairs` draws distinct sources, destinations other than the source, from the run's
/// seed: same seed, same pairs; another seed, other pairs.
#[test]
fn pairs_are_distinct_sources_drawn_from_the_seed() {
    let short = [
        ("simulation.duration", "5s"),
        ("routing.protocol", "static"),
        ("flows[0].pairs", "20"),
    ];
    let pairs = |seed| {
        let r = run_seeded(MANET, &short, Some(seed));
        r.summary
            .flows
            .iter()
            .map(|f| (f.src.clone(), f.dst.clone()))
            .collect::<Vec<_>>()
    };
    let a = pairs(1);
    assert_eq!(a.len(), 20);
    let sources: BTreeSet<_> = a.iter().map(|(s, _)| s).collect();
    assert_eq!(sources.len(), 20, "sources are distinct");
    assert!(a.iter().all(|(s, d)| s != d));
    assert_eq!(a, pairs(1));
    assert_ne!(a, pairs(2));
}

#[test]
fn pairs_and_routing_errors_name_the_field() {
    let e = load_err(MANET, &[("flows[0].pairs", "51")]);
    assert!(e.starts_with("flows[0].pairs"), "{e}");
    let e = load_err(MANET, &[("flows[0].pairs", "0")]);
    assert!(e.starts_with("flows[0].pairs"), "{e}");
    let e = load_err(MANET, &[("flows[0].src", "n1")]);
    assert!(e.starts_with("flows[0].src"), "{e}");
    let e = load_err(MANET, &[("routing.protocol", "babel")]);
    assert!(e.starts_with("routing.protocol"), "{e}");
}

/// Static routes are fixed at t = 0: the scenario runs and reports no routing traffic.
#[test]
fn static_routing_sends_no_control_traffic() {
    let r = run_with(
        MANET,
        &[
            ("simulation.duration", "20s"),
            ("routing.protocol", "static"),
        ],
    );
    assert_eq!(r.summary.network.routing_packets, 0);
    assert!(r.summary.routing.is_empty());
}
