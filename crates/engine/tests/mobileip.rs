//! Mobile IP in the engine, on the Atiquzzaman & Fu study's network: the mobile host registers
//! through the foreign agent, the home agent tunnels the correspondent's packets to it, every
//! transport delivers every byte once and in order across the handovers, the mobile host is
//! back home without a binding, and the runs are deterministic.

mod common;

use common::{drop_table, load_err, run_seeded, run_with, without_wall};

const STUDY: &str = include_str!("../../../python/sctpsim/scenarios/atiquzzaman2003/mobileip.toml");

#[test]
fn packets_reach_the_visitor_through_the_tunnel_and_every_byte_arrives_once() {
    // 35 s: leaving home at once (10 m/s from 50 m), out of the home agent's range at 250 m
    // (20 s), at 300 m in the foreign agent's cell only at the end.
    let r = run_with(STUDY, &[("simulation.duration", "35s")]);
    let s = &r.summary;
    assert!(s.network.mip_tunnelled > 100, "{:?}", s.network);
    // Every tunnel packet that reached the foreign agent while the host was its visitor was
    // handed on; the others are counted as no_agent drops.
    let no_agent = drop_table(&r).get("no_agent").copied().unwrap_or(0);
    assert!(s.network.mip_decapsulated + no_agent <= s.network.mip_tunnelled);
    assert!(s.network.mip_decapsulated > 0);
    let last = s.handoffs.last().expect("a handover");
    assert_eq!(
        (last.from_agent.as_str(), last.to_agent.as_str()),
        ("HA", "FA")
    );
    assert!(last.reply_received_s.is_finite() && last.first_packet_s.is_finite());
    let f = &s.flows[0];
    assert_eq!(f.delivery_errors, 0);
    assert!(f.bytes_delivered > 200_000, "{f:?}");
}

#[test]
fn sctp_also_delivers_every_message_once_across_handovers() {
    let r = run_with(
        STUDY,
        &[
            ("flows[0].transport", "sctp"),
            ("flows[0].sctp.chunk_bytes", "1000"),
        ],
    );
    let a = &r.summary.sctp[0];
    assert_eq!((a.delivery_errors, a.messages_missing), (0, 0), "{a:?}");
    assert!(a.messages_delivered > 1000, "{a:?}");
    // Six trips across the overlap (50 m <-> 350 m without a pause): at least three
    // handovers, back home in between.
    let h = &r.summary.handoffs;
    assert!(
        h.iter().filter(|x| x.to_agent == "HA").count() >= 1,
        "{h:?}"
    );
    assert!(
        h.iter().filter(|x| x.to_agent == "FA").count() >= 2,
        "{h:?}"
    );
}

#[test]
fn a_seed_gives_one_run_and_another_seed_another() {
    let sets = [("simulation.duration", "50s")];
    let a = run_seeded(STUDY, &sets, Some(7));
    let b = run_seeded(STUDY, &sets, Some(7));
    let c = run_seeded(STUDY, &sets, Some(8));
    assert_eq!(without_wall(&a), without_wall(&b));
    assert_ne!(without_wall(&a), without_wall(&c));
}

#[test]
fn mobile_ip_fields_are_checked() {
    let e = load_err(STUDY, &[("node[4].mobile_ip.home_agent", "\"CN\"")]);
    assert!(e.contains("node[4].mobile_ip.home_agent"), "{e}");
    let e = load_err(STUDY, &[("routing.protocol", "\"aodv\"")]);
    assert!(e.contains("routing.protocol"), "{e}");
    let e = load_err(STUDY, &[("mobile_ip.registration_lifetime", "\"70000s\"")]);
    assert!(e.contains("mobile_ip.registration_lifetime"), "{e}");
}
