//! DSR's promiscuous tap through the engine: overheard frames reach the routers only when
//! the tap is on (the MAC listens promiscuously only then), and nothing overheard reaches a
//! transport.

use super::Simulation;
use crate::scenario::load;
use crate::RunOptions;

/// A static line of 6 nodes 120 m apart (250 m range: every node decodes its neighbours one
/// and two places away) and a CBR flow n0 → n5.
const LINE: &str =
    "[simulation]\nduration = \"8s\"\nseed = 2\n[radio]\nprofile = \"ns2-wavelan\"\n\
    [routing]\nprotocol = \"dsr\"\n[nodes]\ncount = 6\n[mobility]\nmodel = \"static\"\n\
    placement = \"line\"\nspacing_m = 120\n[[flows]]\nsrc = \"n0\"\ndst = \"n5\"\napp = \"cbr\"\n\
    rate = \"16384bps\"\npacket_size_bytes = 256\nstart = \"1s\"\n";

/// Runs the line with `sets`; returns the frames handed to routers as overheard, the MACs'
/// promiscuous setting, and the flow's packets sent and delivered.
fn run(sets: &[(&str, &str)]) -> (u64, bool, u64, u64) {
    let overrides: Vec<(String, toml::Value)> = sets
        .iter()
        .map(|(p, v)| (p.to_string(), crate::scenario::overrides::value_from_cli(v)))
        .collect();
    let sc = load(LINE, &overrides).expect("scenario loads");
    let mut sim = Simulation::new(sc, None, &RunOptions::default()).expect("builds");
    while let Some((t, ev)) = sim.queue.pop() {
        if t > sim.end {
            break;
        }
        sim.now = t;
        sim.events += 1;
        sim.dispatch(ev);
    }
    let overheard = sim.routing.as_ref().map_or(0, |r| r.overheard);
    let promiscuous =
        !sim.wifi.is_empty() && sim.wifi.ifaces.iter().all(|f| f.dcf.config().promiscuous);
    let r = sim.run(&RunOptions::default(), &mut |_| true).expect("run");
    let f = &r.summary.flows[0];
    (overheard, promiscuous, f.packets_sent, f.packets_delivered)
}

#[test]
fn overheard_frames_reach_the_router_only_with_the_tap() {
    let (off, prom_off, sent_off, recv_off) = run(&[]);
    assert_eq!(off, 0);
    assert!(!prom_off);
    assert!(recv_off <= sent_off && recv_off > 0);
    for sets in [
        vec![("routing.dsr.tap", "true")],
        vec![("routing.dsr.profile", "ns2")],
    ] {
        let (on, prom_on, sent, recv) = run(&sets);
        assert!(prom_on, "{sets:?}");
        assert!(on > 0, "{sets:?}: the MAC overheard frames for the router");
        // Nothing overheard was delivered: no flow receives more than was sent (n5 hears
        // frames for n3 and n4 carrying its own packets).
        assert!(recv <= sent && recv > 0, "{sets:?}: {recv} of {sent}");
    }
    // The profile's tap can be switched off by the explicit field.
    let (off, prom, _, _) = run(&[("routing.dsr.profile", "ns2"), ("routing.dsr.tap", "false")]);
    assert_eq!(off, 0);
    assert!(!prom);
}
