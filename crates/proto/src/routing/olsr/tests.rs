//! OLSR behaviour on [`TestNet`] topologies: convergence on lines, MPR selection and MPR
//! flooding, link breaks with and without link-layer notification, malformed input.
//!
//! Measured numbers are printed (`cargo test -p sctpsim-proto olsr -- --nocapture`) and
//! bounded by assertions; the exact values are deterministic for the seeds used here.

use super::*;
use crate::routing::testnet::TestNet;
use sctpsim_wire::olsr::{MessageBody, OlsrRepr, MPR_NEIGH};
use sctpsim_wire::pcap::{PcapWriter, LINKTYPE_RAW};
use std::collections::{BTreeMap, BTreeSet};

/// Hands `r` a control packet (or malformed input) from `prev_hop`: consumed.
fn take_control(r: &mut Olsr, now: SimTime, prev_hop: Ipv4Addr, packet: Packet) {
    assert_eq!(r.handle_receive(now, prev_hop, packet), Decision::Consumed);
}

fn secs(s: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_secs(s)
}

fn router(i: usize, cfg: &OlsrConfig) -> Box<dyn Router> {
    Box::new(Olsr::new(
        TestNet::addr(i),
        cfg.clone(),
        Rng::from_seed(0x0015 + i as u64),
    ))
}

fn network(n: usize, cfg: &OlsrConfig) -> TestNet {
    TestNet::new((0..n).map(|i| router(i, cfg)).collect())
}

fn network_with(cfgs: Vec<OlsrConfig>) -> TestNet {
    TestNet::new(cfgs.iter().enumerate().map(|(i, c)| router(i, c)).collect())
}

/// Parses an OLSR control transmission.
fn olsr_of(packet: &[u8]) -> Option<OlsrRepr> {
    let ip = Ipv4Packet::new_checked(packet).ok()?;
    let udp = sctpsim_wire::UdpPacket::new_checked(ip.payload()).ok()?;
    OlsrRepr::parse(udp.payload()).ok()
}

/// The MPR set node `i` advertised in its last HELLO before `until` (§6.2: MPR_NEIGH links).
fn advertised_mprs(net: &TestNet, i: usize, until: SimTime) -> BTreeSet<Ipv4Addr> {
    let mut last = BTreeSet::new();
    for t in net
        .transmissions
        .iter()
        .filter(|t| t.node == i && t.time <= until)
    {
        let Some(p) = olsr_of(&t.packet) else {
            continue;
        };
        for m in p.messages {
            if let MessageBody::Hello(h) = m.body {
                last = h
                    .links
                    .iter()
                    .filter(|l| l.code.neighbor_type() == MPR_NEIGH)
                    .flat_map(|l| l.addrs.iter().copied())
                    .collect();
            }
        }
    }
    last
}

/// Whether every node of a line of `n` routes to every other node along the line.
fn line_converged(net: &TestNet, n: usize) -> bool {
    (0..n).all(|i| {
        (0..n).filter(|j| *j != i).all(|j| {
            let expect = if j > i { i + 1 } else { i - 1 };
            net.routers[i].next_hop(TestNet::addr(j)) == Some(TestNet::addr(expect))
        })
    })
}

/// Runs in 100 ms steps until `done` or `limit`; returns the first time `done` held.
fn run_until_true(
    net: &mut TestNet,
    limit: SimTime,
    mut done: impl FnMut(&TestNet) -> bool,
) -> Option<SimTime> {
    while net.now < limit {
        let t = net.now + SimDuration::from_millis(100);
        net.run_until(t);
        if done(net) {
            return Some(net.now);
        }
    }
    None
}

fn ident_of(packet: &[u8]) -> u16 {
    Ipv4Packet::new_checked(packet).map_or(0, |p| p.ident())
}

#[test]
fn line_of_up_to_eight_hops_converges_and_carries_data() {
    let cfg = OlsrConfig::default();
    for hops in 1..=8 {
        let n = hops + 1;
        let mut net = network(n, &cfg);
        net.line();
        let t = run_until_true(&mut net, secs(60), |net| line_converged(net, n))
            .unwrap_or_else(|| panic!("line of {n} nodes did not converge in 60 s"));
        eprintln!("olsr line of {n} nodes ({hops} hops): converged at {t}");
        // Data over all hops, TTL decremented once per forwarding node.
        let at = net.now;
        net.send_at(at, 0, TestNet::data_packet(0, hops, 100, 7));
        net.run_until(at + SimDuration::from_secs(1));
        let got: Vec<_> = net.delivered.iter().filter(|d| d.0 == hops).collect();
        assert_eq!(got.len(), 1, "{hops} hops: delivered {got:?}");
        let ip = Ipv4Packet::new_checked(&got[0].2.bytes[..]).unwrap();
        assert_eq!(usize::from(ip.ttl()), 64 - (hops - 1));
        assert_eq!(
            net.routers[1.min(hops)].counters().data_forwarded,
            u64::from(hops > 1)
        );
        // Distances in the table of node 0 are the hop counts.
        assert!(net.routers.iter().all(|r| r.counters().malformed == 0));
    }
}

#[test]
fn no_route_drops_at_once_and_unknown_destinations_are_not_buffered() {
    let mut net = network(2, &OlsrConfig::default());
    net.send_at(SimTime::ZERO, 0, TestNet::data_packet(0, 1, 10, 1));
    net.run_until(SimTime::ZERO);
    assert_eq!(net.dropped.len(), 1);
    assert_eq!(net.dropped[0].2, RouteDropReason::NoRoute);
    assert_eq!(
        net.routers[0]
            .counters()
            .drops
            .get(&RouteDropReason::NoRoute),
        Some(&1)
    );
}

/// The star of `mpr::tests::star_of_two_hop_neighbours` as a network: node 0 with neighbours
/// 1–4; 2-hop nodes 5 (via 1), 6 (via 1), 7 (via 1 and 2), 8 (via 2 and 3), 9 (via 4 alone).
/// Expected MPRs of node 0: 1 and 4 (sole providers), then 2 (same reachability as 3, larger
/// degree).
#[test]
fn mpr_selection_on_a_star_matches_the_heuristic() {
    let mut net = network(10, &OlsrConfig::default());
    for j in 1..=4 {
        net.set_link(0, j, true);
    }
    for (a, b) in [(1, 5), (1, 6), (1, 7), (2, 7), (2, 8), (3, 8), (4, 9)] {
        net.set_link(a, b, true);
    }
    net.run_until(secs(20));
    let expect: BTreeSet<_> = [1, 2, 4].iter().map(|i| TestNet::addr(*i)).collect();
    assert_eq!(advertised_mprs(&net, 0, secs(20)), expect);
}

/// Node 0 reaches node 3 through 1 (WILL_LOW) or 2 (WILL_HIGH): 2 is chosen although 1 has the
/// lower address; with 2 at WILL_NEVER, 1 is chosen and 0's route to 3 avoids 2.
#[test]
fn willingness_decides_the_mpr() {
    for (w1, w2, mpr, via) in [
        (WILL_LOW, WILL_HIGH, 2, 2),
        (WILL_DEFAULT, WILL_NEVER, 1, 1),
    ] {
        let mut cfgs = vec![OlsrConfig::default(); 4];
        cfgs[1].willingness = w1;
        cfgs[2].willingness = w2;
        let mut net = network_with(cfgs);
        for (a, b) in [(0, 1), (0, 2), (1, 3), (2, 3)] {
            net.set_link(a, b, true);
        }
        net.run_until(secs(20));
        assert_eq!(
            advertised_mprs(&net, 0, secs(20)),
            BTreeSet::from([TestNet::addr(mpr)])
        );
        // Step 3 of §10 takes the first 2-hop tuple in address order whose neighbour is
        // willing: WILL_NEVER neighbours are never used as relays.
        if w2 == WILL_NEVER {
            assert_eq!(
                net.routers[0].next_hop(TestNet::addr(3)),
                Some(TestNet::addr(via))
            );
        }
    }
}

/// A 5×5 grid (4-neighbour links): every TC forwarding is done by an MPR of a node that
/// transmitted the same message before, and MPR flooding sends fewer copies than pure
/// flooding (one transmission per node per message).
#[test]
fn tcs_are_retransmitted_only_by_mprs() {
    let side = 5;
    let n = side * side;
    let mut net = network(n, &OlsrConfig::default());
    for r in 0..side {
        for c in 0..side {
            let i = r * side + c;
            if c + 1 < side {
                net.set_link(i, i + 1, true);
            }
            if r + 1 < side {
                net.set_link(i, i + side, true);
            }
        }
    }
    net.run_until(secs(60));
    // HELLO-advertised MPR sets per node, replayed in time order: a forwarder's MPR selector
    // tuple for a sender lives NEIGHB_HOLD_TIME after the sender's last HELLO that selected it.
    let hold = OlsrConfig::default().neighb_hold_time;
    let mut mprs: BTreeMap<usize, Vec<(SimTime, BTreeSet<Ipv4Addr>)>> = BTreeMap::new();
    // (originator, seq) → nodes that transmitted it so far.
    let mut sent: BTreeMap<(Ipv4Addr, u16), Vec<usize>> = BTreeMap::new();
    let (mut originated, mut forwarded) = (0usize, 0usize);
    let start = secs(30); // steady state
    for t in &net.transmissions {
        let Some(p) = olsr_of(&t.packet) else {
            continue;
        };
        for m in p.messages {
            match &m.body {
                MessageBody::Hello(h) => {
                    mprs.entry(t.node).or_default().push((
                        t.time,
                        h.links
                            .iter()
                            .filter(|l| l.code.neighbor_type() == MPR_NEIGH)
                            .flat_map(|l| l.addrs.iter().copied())
                            .collect(),
                    ));
                }
                MessageBody::Tc(_) => {
                    let me = TestNet::addr(t.node);
                    let senders = sent.entry((m.originator, m.seq)).or_default();
                    if m.originator != me {
                        // Some earlier transmitter of this message, a neighbour of ours, had
                        // us in its MPR set.
                        assert!(
                            senders.iter().any(|s| net.links[*s][t.node]
                                && mprs.get(s).is_some_and(|hellos| hellos
                                    .iter()
                                    .any(|(at, set)| *at + hold > t.time && set.contains(&me)))),
                            "node {} forwarded a TC of {} without being an MPR of a sender",
                            t.node,
                            m.originator
                        );
                        assert!(!senders.contains(&t.node), "forwarded twice");
                    }
                    senders.push(t.node);
                    if t.time >= start {
                        if m.originator == me {
                            originated += 1;
                        } else {
                            forwarded += 1;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mpr_total = originated + forwarded;
    let pure_total = originated * n;
    eprintln!(
        "olsr 5x5 grid, 30-60 s: {originated} TCs originated, {mpr_total} TC transmissions with \
         MPR flooding vs {pure_total} with pure flooding"
    );
    assert!(originated > 0);
    assert!(mpr_total < pure_total);
    // Every TC reaches every node: the topology tables route everyone to everyone.
    for i in 0..n {
        for j in 0..n {
            if i != j {
                assert!(
                    net.routers[i].next_hop(TestNet::addr(j)).is_some(),
                    "{i}→{j}"
                );
            }
        }
    }
}

/// Diamond 0–1–3, 0–2–3 plus a data flow 0 → 3 every 50 ms: route via 1 (lowest address);
/// at 30 s the link 1–3 breaks. Returns the repair time (break until the first packet sent
/// after it that is delivered) and the router events.
fn link_break_repair(lln: bool) -> (SimDuration, Vec<(usize, SimTime, RoutingEvent)>) {
    let cfg = OlsrConfig {
        link_layer_notification: lln,
        ..OlsrConfig::default()
    };
    let mut net = network(4, &cfg);
    for (a, b) in [(0, 1), (0, 2), (1, 3), (2, 3)] {
        net.set_link(a, b, true);
    }
    net.run_until(secs(25));
    assert_eq!(
        net.routers[0].next_hop(TestNet::addr(3)),
        Some(TestNet::addr(1))
    );
    let break_at = secs(30);
    for k in 0..600u16 {
        let t = secs(25) + SimDuration::from_millis(50 * u64::from(k));
        net.send_at(t, 0, TestNet::data_packet(0, 3, 100, k));
    }
    net.run_until(break_at);
    net.set_link(1, 3, false);
    net.run_until(secs(60));
    let first_after = net
        .delivered
        .iter()
        .filter(|d| d.0 == 3)
        .map(|d| ident_of(&d.2.bytes))
        .filter(|k| secs(25) + SimDuration::from_millis(50 * u64::from(*k)) >= break_at)
        .min()
        .expect("no delivery after the break");
    let sent = secs(25) + SimDuration::from_millis(50 * u64::from(first_after));
    assert_eq!(
        net.routers[0].next_hop(TestNet::addr(3)),
        Some(TestNet::addr(2))
    );
    (sent - break_at, net.events.clone())
}

#[test]
fn link_break_is_repaired_through_the_other_path() {
    let (hold, events) = link_break_repair(false);
    let (notified, events_lln) = link_break_repair(true);
    eprintln!("olsr diamond link break: repair {hold} by HELLO timeout, {notified} with link-layer notification");
    // Without notification node 1 notices after at most NEIGHB_HOLD_TIME (6 s) of silence.
    assert!(hold <= SimDuration::from_secs(9), "{hold}");
    assert!(notified < hold);
    assert!(notified <= SimDuration::from_secs(3), "{notified}");
    for ev in [&events, &events_lln] {
        assert!(ev.iter().any(|(n, _, e)| *n == 1
            && *e
                == RoutingEvent::LinkBroken {
                    next_hop: TestNet::addr(3)
                }));
        assert!(ev.iter().any(|(n, _, e)| *n == 3
            && *e
                == RoutingEvent::LinkBroken {
                    next_hop: TestNet::addr(1)
                }));
    }
    assert!(!events
        .iter()
        .any(|(_, _, e)| matches!(e, RoutingEvent::RouteDiscovered { .. })));
}

/// Tag conservation across link breaks (see [`TestNet::check_conservation`]): data both ways
/// along the line 0-1-2-3-4-5 (with or without a detour 2-6-4) from the start (before the
/// routes exist), with distinct tags and IP identifications; the link 2-3 breaks at 20 s and comes back at 28 s, then the link
/// 4-5 next to node 5 (a source) breaks at 36 s and the run stops half a second later with
/// packets in flight. Every packet sent must end exactly once — delivered at its destination,
/// dropped, or in flight (OLSR buffers nothing) — carrying the tag it was sent with, through
/// forwarding, re-routing after a link failure and the drops for want of a route.
#[test]
fn tags_are_conserved_across_link_breaks() {
    for (lln, detour) in [(false, false), (true, false), (false, true), (true, true)] {
        let cfg = OlsrConfig {
            link_layer_notification: lln,
            ..OlsrConfig::default()
        };
        let mut net = network(7, &cfg);
        net.line();
        net.set_link(5, 6, false);
        if detour {
            net.set_link(2, 6, true);
            net.set_link(6, 4, true);
        }
        let c = net
            .run_break_plan(
                (800, SimDuration::from_millis(50)),
                (560, SimDuration::from_millis(70)),
                [
                    secs(20),
                    secs(28),
                    secs(36),
                    secs(36) + SimDuration::from_millis(500),
                ],
            )
            .unwrap_or_else(|e| panic!("lln {lln}, detour {detour}: tags not conserved:\n{e}"));
        let salvaged: u64 = net.routers.iter().map(|r| r.counters().salvaged).sum();
        eprintln!(
            "OLSR tag conservation, link-layer notification {lln}, detour {detour}: {c:?}, \
             {salvaged} re-routed"
        );
        assert_eq!(c.sent, 1360);
        assert_eq!(c.buffered, 0);
        assert!(c.delivered > 0, "{c:?}");
        assert!(c.in_flight > 0, "{c:?}");
        for reason in [RouteDropReason::NoRoute, RouteDropReason::LinkBroken] {
            assert!(c.dropped.get(&reason).is_some_and(|n| *n > 0), "{c:?}");
        }
        if lln && detour {
            assert!(salvaged > 0, "nothing re-routed around the break");
        }
    }
}

#[test]
fn lost_destination_reports_route_broken() {
    let mut net = network(3, &OlsrConfig::default());
    net.line();
    net.run_until(secs(20));
    assert!(net.routers[0].next_hop(TestNet::addr(2)).is_some());
    net.set_link(1, 2, false);
    net.run_until(secs(40));
    assert_eq!(net.routers[0].next_hop(TestNet::addr(2)), None);
    assert!(net.events.iter().any(|(n, _, e)| *n == 0
        && *e
            == RoutingEvent::RouteBroken {
                dst: TestNet::addr(2)
            }));
    assert_eq!(net.routers[1].counters().link_breaks, 1);
}

#[test]
fn ttl_expires_in_ip_forwarding_not_in_the_router() {
    let mut net = network(3, &OlsrConfig::default());
    net.line();
    net.run_until(secs(20));
    let mut p = TestNet::data_packet(0, 2, 10, 1);
    let mut ip = Ipv4Packet::new_unchecked(&mut p[..]);
    ip.set_ttl(1);
    ip.fill_checksum();
    net.send_at(secs(20), 0, p);
    net.run_until(secs(21));
    assert!(net.delivered.iter().all(|d| d.0 != 2));
    // IP forwarding drops it at node 1 (the test network plays the engine); the router never
    // sees it, so never counts it.
    let d: Vec<_> = net.dropped.iter().map(|d| (d.0, d.2)).collect();
    assert_eq!(d, [(1, RouteDropReason::TtlExpired)]);
    assert_eq!(
        net.routers[1]
            .counters()
            .drops
            .get(&RouteDropReason::TtlExpired),
        None
    );
}

/// The routing overhead counts IP packets (as ns-2 and ns-3 do); the per-type table counts
/// messages, and a packet may bundle a HELLO with TCs (its own and forwarded ones).
#[test]
fn overhead_counts_packets_and_the_type_table_counts_messages() {
    let mut net = network(5, &OlsrConfig::default());
    net.line();
    net.run_until(secs(120));
    let mut bundled = 0;
    for (i, r) in net.routers.iter().enumerate() {
        let c = r.counters();
        let sent: Vec<_> = net.transmissions.iter().filter(|t| t.node == i).collect();
        assert_eq!(c.tx_packets(), sent.len() as u64, "node {i}");
        assert_eq!(
            c.tx_bytes(),
            sent.iter().map(|t| t.packet.len() as u64).sum::<u64>()
        );
        let messages: u64 = c.tx.values().map(|t| t.packets).sum();
        assert!(messages >= c.tx_packets());
        // Only TCs are relayed (HELLOs never leave the neighbourhood), and only by nodes with
        // MPR selectors: here the inner nodes of the line.
        let relayed = c.relayed.get("tc").copied().unwrap_or(0);
        assert!(relayed <= c.tx.get("tc").map_or(0, |t| t.packets));
        assert!(!c.relayed.contains_key("hello"));
        assert_eq!(relayed > 0, (1..=3).contains(&i), "node {i}: {relayed}");
        bundled += messages - c.tx_packets();
    }
    assert!(bundled > 0, "no packet carried two messages");
}

#[test]
fn counters_and_timer_contract() {
    let mut net = network(2, &OlsrConfig::default());
    net.line();
    net.run_until(secs(30));
    let c = net.routers[0].counters();
    let hello = c.tx["hello"];
    // 30 s of HELLOs every 2 s minus up to 0.5 s jitter: 15..=21 of them.
    assert!((15..=21).contains(&hello.packets), "{hello:?}");
    // HELLO with one neighbour: 20 IP + 8 UDP + 4 packet + 12 message + 4 + 8 = 56 bytes.
    assert_eq!(hello.bytes, hello.packets * 56);
    assert_eq!(
        c.tx_bytes(),
        net.transmissions
            .iter()
            .filter(|t| t.node == 0)
            .map(|t| t.packet.len() as u64)
            .sum::<u64>()
    );
    // Two nodes: no 2-hop neighbours, no MPR, no TC.
    assert!(!c.tx.contains_key("tc"));
    // A wake-up at any time is harmless.
    let mut r = Olsr::new(TestNet::addr(0), OlsrConfig::default(), Rng::from_seed(1));
    // The first HELLO goes out within MAXJITTER of time zero (the TC timer may fire first,
    // with nothing to advertise).
    let mut sent_at = None;
    while sent_at.is_none() {
        let t = r.poll_timeout().unwrap();
        assert!(t <= SimTime::ZERO + SimDuration::from_millis(500));
        r.handle_timeout(t);
        if let Some(out) = r.poll_output() {
            assert!(matches!(out, RoutingOutput::Transmit { control: true, .. }));
            sent_at = Some(t);
        }
    }
    let first = sent_at.unwrap();
    while r.poll_output().is_some() {}
    r.handle_timeout(first);
    assert!(r.poll_output().is_none());
    assert!(r.poll_timeout().unwrap() > first);
    r.check_invariants();
}

#[test]
fn malformed_control_packets_are_counted() {
    let mut net = network(2, &OlsrConfig::default());
    net.line();
    net.run_until(secs(5));
    let hello = net.transmissions[0].packet.clone();
    let mut r = Olsr::new(TestNet::addr(5), OlsrConfig::default(), Rng::from_seed(2));
    // Bad UDP checksum.
    let mut bad = hello.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    take_control(&mut r, secs(5), TestNet::addr(0), Packet::untagged(bad));
    // Bad IP checksum.
    let mut bad = hello.clone();
    bad[8] ^= 1;
    take_control(&mut r, secs(5), TestNet::addr(0), Packet::untagged(bad));
    // Truncated.
    take_control(
        &mut r,
        secs(5),
        TestNet::addr(0),
        Packet::untagged(hello[..hello.len() - 3].to_vec()),
    );
    assert_eq!(r.counters().malformed, 3);
    take_control(&mut r, secs(5), TestNet::addr(0), Packet::untagged(hello));
    assert_eq!(r.counters().malformed, 3);
    assert_eq!(r.counters().rx["hello"].packets, 1);
}

proptest::proptest! {
    #[test]
    fn random_and_mutated_input_never_panics(
        data in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
        flips in proptest::collection::vec((0usize..200, proptest::num::u8::ANY), 0..6),
    ) {
        let mut r = Olsr::new(TestNet::addr(0), OlsrConfig::default(), Rng::from_seed(3));
        // Whatever the decision is, it may not panic.
        let _ = r.handle_receive(secs(1), TestNet::addr(1), Packet::untagged(data.clone()));
        // A valid OLSR packet with mutated bytes and repaired checksums, so that the OLSR
        // parser and the repositories see the damage.
        let repr = OlsrRepr {
            seq: 1,
            messages: vec![MessageRepr {
                vtime: 0x86,
                originator: TestNet::addr(1),
                ttl: 255,
                hop_count: 0,
                seq: 9,
                body: MessageBody::Tc(TcRepr { ansn: 3, neighbors: vec![TestNet::addr(0), TestNet::addr(2)] }),
            }],
        };
        let mut payload = repr.to_bytes().unwrap();
        payload.extend_from_slice(&data);
        for (i, v) in flips {
            if let Some(b) = payload.get_mut(i) {
                *b = v;
            }
        }
        let udp = UdpRepr { src_port: UDP_PORT, dst_port: UDP_PORT };
        let p = udp_datagram(TestNet::addr(1), Ipv4Addr::BROADCAST, 1, 1, &udp, &payload);
        take_control(&mut r, secs(1), TestNet::addr(1), Packet::untagged(p));
        r.handle_timeout(secs(3));
        while r.poll_output().is_some() {}
        r.check_invariants();
    }
}

/// Writes the control traffic of a 6-node line run to /tmp/olsr-testnet.pcap (LINKTYPE_RAW)
/// for a manual tshark check; not part of the normal run.
#[test]
#[ignore]
fn write_pcap_for_tshark() {
    let mut net = network(6, &OlsrConfig::default());
    net.line();
    net.run_until(secs(30));
    let file = std::fs::File::create("/tmp/olsr-testnet.pcap").unwrap();
    let mut w = PcapWriter::new(std::io::BufWriter::new(file), LINKTYPE_RAW).unwrap();
    for t in &net.transmissions {
        w.write_packet(t.time.as_nanos(), &t.packet).unwrap();
    }
    eprintln!("{} packets written", net.transmissions.len());
}

/// §9.3: when its MPR selector set empties, a node keeps sending empty TCs (with a new ANSN)
/// for TOP_HOLD_TIME to withdraw its last advertisement, then stops.
#[test]
fn emptied_advertised_set_is_withdrawn_by_empty_tcs() {
    let mut net = network(3, &OlsrConfig::default());
    net.line();
    net.run_until(secs(20));
    net.set_link(1, 2, false);
    net.run_until(secs(80));
    let tcs: Vec<(SimTime, TcRepr)> = net
        .transmissions
        .iter()
        .filter(|t| t.node == 1)
        .filter_map(|t| olsr_of(&t.packet).map(|p| (t.time, p)))
        .flat_map(|(time, p)| {
            p.messages.into_iter().filter_map(move |m| match m.body {
                MessageBody::Tc(tc) if m.originator == TestNet::addr(1) => Some((time, tc)),
                _ => None,
            })
        })
        .collect();
    let first_empty = tcs
        .iter()
        .position(|(_, tc)| tc.neighbors.is_empty())
        .expect("no empty TC");
    let (t_empty, empty) = &tcs[first_empty];
    assert!(*t_empty > secs(20));
    assert!(crate::routing::olsr::repo::seq_newer(
        empty.ansn,
        tcs[first_empty - 1].1.ansn
    ));
    let last = tcs.last().unwrap();
    assert!(last.1.neighbors.is_empty());
    // Empty TCs only within TOP_HOLD_TIME (15 s) of the set emptying.
    assert!(
        last.0 <= *t_empty + SimDuration::from_secs(15),
        "{}",
        last.0
    );
    assert!(tcs[first_empty..].len() >= 2);
}

/// An OLSR packet from `src` carrying `messages`, as it arrives off the air.
fn control_packet(src: Ipv4Addr, seq: u16, messages: Vec<MessageRepr>) -> Packet {
    let payload = OlsrRepr { seq, messages }.to_bytes().unwrap();
    let udp = UdpRepr {
        src_port: UDP_PORT,
        dst_port: UDP_PORT,
    };
    Packet::untagged(udp_datagram(
        src,
        Ipv4Addr::BROADCAST,
        1,
        seq,
        &udp,
        &payload,
    ))
}

/// A HELLO from `from` listing `links` as (link type, neighbour type, addresses).
fn hello_from(from: Ipv4Addr, seq: u16, links: &[(u8, u8, &[Ipv4Addr])]) -> MessageRepr {
    MessageRepr {
        vtime: encode_time_ns(SimDuration::from_secs(6).as_nanos()),
        originator: from,
        ttl: 1,
        hop_count: 0,
        seq,
        body: MessageBody::Hello(HelloRepr {
            htime: encode_time_ns(SimDuration::from_secs(2).as_nanos()),
            willingness: WILL_DEFAULT,
            links: links
                .iter()
                .map(|(lt, nt, addrs)| LinkMessage {
                    code: LinkCode::new(*lt, *nt),
                    addrs: addrs.to_vec(),
                })
                .collect(),
        }),
    }
}

/// A TC originated by `from` advertising `neighbors`.
fn tc_from(from: Ipv4Addr, seq: u16, ansn: u16, neighbors: &[Ipv4Addr]) -> MessageRepr {
    MessageRepr {
        vtime: encode_time_ns(SimDuration::from_secs(15).as_nanos()),
        originator: from,
        ttl: 255,
        hop_count: 0,
        seq,
        body: MessageBody::Tc(TcRepr {
            ansn,
            neighbors: neighbors.to_vec(),
        }),
    }
}

/// The routing table is recomputed once per received packet, after its last message, and a
/// route lookup right after the packet sees what its HELLO and TCs brought: a HELLO from 1
/// that lists us (the link becomes symmetric) and 2 as a symmetric neighbour (2-hop set),
/// then TCs by 1 (advertising 3) and by 3 (advertising 4), all in one packet.
#[test]
fn one_recomputation_per_packet_and_lookups_see_it() {
    let a = TestNet::addr;
    let mut r = Olsr::new(a(0), OlsrConfig::default(), Rng::from_seed(7));
    let now = secs(1);
    assert_eq!(r.recomputations(), 0);
    let hello = hello_from(
        a(1),
        1,
        &[
            (sctpsim_wire::olsr::ASYM_LINK, NOT_NEIGH, &[a(0)]),
            (sctpsim_wire::olsr::SYM_LINK, SYM_NEIGH, &[a(2)]),
        ],
    );
    let packet = control_packet(
        a(1),
        1,
        vec![
            hello,
            tc_from(a(1), 2, 1, &[a(3)]),
            tc_from(a(3), 1, 1, &[a(4)]),
        ],
    );
    take_control(&mut r, now, a(1), packet);
    assert_eq!(
        r.recomputations(),
        1,
        "three changing messages, one recomputation"
    );
    assert_eq!(r.next_hop(a(1)), Some(a(1)));
    assert_eq!(r.next_hop(a(2)), Some(a(1)), "2-hop route from the HELLO");
    assert_eq!(r.next_hop(a(3)), Some(a(1)), "from 1's TC");
    assert_eq!(
        r.next_hop(a(4)),
        Some(a(1)),
        "from 3's TC, two hops further"
    );
    let dists: Vec<(Ipv4Addr, u32)> = r.routes().iter().map(|(d, x)| (*d, x.dist)).collect();
    assert_eq!(dists, vec![(a(1), 1), (a(2), 2), (a(3), 2), (a(4), 3)]);
    assert_eq!(r.mpr_set().iter().copied().collect::<Vec<_>>(), vec![a(1)]);
    r.check_invariants();
    // A data packet sent now goes out at once on the new route.
    match r.handle_send(now, Packet::untagged(TestNet::data_packet(0, 2, 64, 1))) {
        Decision::Forward { next_hop, .. } => assert_eq!(next_hop, a(1)),
        other => panic!("expected the packet forwarded, got {other:?}"),
    }
    assert!(
        r.poll_output().is_none(),
        "the packet is the decision, not an output"
    );
    // A packet of duplicates changes nothing and recomputes nothing.
    let again = control_packet(a(1), 2, vec![tc_from(a(3), 1, 1, &[a(4)])]);
    take_control(&mut r, now, a(1), again);
    assert_eq!(r.recomputations(), 1);
    // The HELLO that withdraws 2 (NOT_NEIGH) changes the 2-hop set: one recomputation, and
    // the route to 2 is gone (RouteBroken) as soon as the packet has been processed.
    let hello = hello_from(
        a(1),
        3,
        &[
            (sctpsim_wire::olsr::SYM_LINK, SYM_NEIGH, &[a(0)]),
            (sctpsim_wire::olsr::LOST_LINK, NOT_NEIGH, &[a(2)]),
        ],
    );
    while r.poll_event().is_some() {}
    take_control(&mut r, now, a(1), control_packet(a(1), 3, vec![hello]));
    assert_eq!(r.recomputations(), 2);
    assert_eq!(r.next_hop(a(2)), None);
    assert_eq!(
        r.poll_event(),
        Some(RoutingEvent::RouteBroken { dst: a(2) })
    );
    r.check_invariants();
}

/// Node 0 hears 1 (symmetric), which reports 2 and 3 as its symmetric neighbours (2-hop
/// routes through 1); 1's TC advertises 2 and 3, 3's TC advertises 4 (3 hops, last hop 3).
/// Returns the router after that packet (one recomputation).
fn refreshed_router() -> Olsr {
    let a = TestNet::addr;
    let mut r = Olsr::new(a(0), OlsrConfig::default(), Rng::from_seed(7));
    let hello = hello_from(
        a(1),
        1,
        &[(sctpsim_wire::olsr::SYM_LINK, SYM_NEIGH, &[a(0), a(2), a(3)])],
    );
    let packet = control_packet(
        a(1),
        1,
        vec![
            hello,
            tc_from(a(1), 2, 1, &[a(2), a(3)]),
            tc_from(a(3), 1, 1, &[a(4)]),
        ],
    );
    take_control(&mut r, secs(1), a(1), packet);
    assert_eq!(r.recomputations(), 1);
    assert_eq!(r.next_hop(a(4)), Some(a(1)));
    r.check_invariants();
    r
}

/// Refreshes are not changes (RFC 3626 §8.3.1, §10: recompute "when a change is detected"):
/// the same HELLO again, the same TC again with a new sequence number, the same advertised set
/// under a new ANSN, and new tuples that cannot alter the table (a 2-hop tuple to a node
/// already one hop away, a longer path to a known destination) recompute nothing, and the
/// table stays what a fresh computation gives.
#[test]
fn refreshed_tuples_do_not_recompute() {
    let a = TestNet::addr;
    let mut r = refreshed_router();
    let routes = r.routes().to_vec();
    let mprs = r.mpr_set().clone();
    let hello = hello_from(
        a(1),
        5,
        &[(sctpsim_wire::olsr::SYM_LINK, SYM_NEIGH, &[a(0), a(2), a(3)])],
    );
    // Two seconds later: same HELLO (validity times refreshed), same TCs with new sequence
    // numbers, 3's advertised set under a new ANSN.
    let packet = control_packet(
        a(1),
        2,
        vec![
            hello,
            tc_from(a(1), 6, 1, &[a(2), a(3)]),
            tc_from(a(3), 7, 2, &[a(4)]),
        ],
    );
    take_control(&mut r, secs(3), a(1), packet);
    assert_eq!(r.recomputations(), 1, "refreshes only: no recomputation");
    assert_eq!(r.routes(), &routes[..]);
    assert_eq!(r.mpr_set(), &mprs);
    r.check_invariants();
    // 4 (three hops) advertises 2 and 3 (two hops): longer paths to known destinations,
    // which cannot change anything.
    let packet = control_packet(a(1), 3, vec![tc_from(a(4), 1, 1, &[a(2), a(3)])]);
    take_control(&mut r, secs(4), a(1), packet);
    assert_eq!(r.recomputations(), 1, "a longer path is no change");
    assert_eq!(r.routes(), &routes[..]);
    assert_eq!(
        r.topology().len(),
        5,
        "the tuples are recorded all the same"
    );
    r.check_invariants();
}

/// A real change recomputes at once, and a lookup right after sees it: a new 2-hop node, a
/// TC that moves a destination closer, a TC withdrawing the tuple a route was found through
/// (RouteBroken in the same call), and the expiry of topology tuples.
#[test]
fn real_changes_still_recompute() {
    let a = TestNet::addr;
    let mut r = refreshed_router();
    // 1 now also lists 5: a new 2-hop node.
    let hello = hello_from(
        a(1),
        5,
        &[(
            sctpsim_wire::olsr::SYM_LINK,
            SYM_NEIGH,
            &[a(0), a(2), a(3), a(5)],
        )],
    );
    take_control(&mut r, secs(2), a(1), control_packet(a(1), 2, vec![hello]));
    assert_eq!(r.recomputations(), 2);
    assert_eq!(
        r.routes()
            .iter()
            .find(|(d, _)| *d == a(5))
            .map(|(_, x)| x.dist),
        Some(2)
    );
    r.check_invariants();
    // 2 advertises 4: the same length as through 3, but 2 < 3 wins the tie, so the route's
    // last hop changes (the next hop stays 1): recomputed.
    take_control(
        &mut r,
        secs(3),
        a(1),
        control_packet(a(1), 3, vec![tc_from(a(2), 1, 1, &[a(4)])]),
    );
    assert_eq!(r.recomputations(), 3);
    r.check_invariants();
    // 3 withdraws 4 under a new ANSN: the route to 4 was found through 2 since the last
    // change, so nothing to recompute; then 2 withdraws it too, which removes the route.
    take_control(
        &mut r,
        secs(4),
        a(1),
        control_packet(a(1), 4, vec![tc_from(a(3), 2, 2, &[])]),
    );
    assert_eq!(
        r.recomputations(),
        3,
        "3 → 4 was not the tuple the route used"
    );
    assert_eq!(r.next_hop(a(4)), Some(a(1)));
    r.check_invariants();
    while r.poll_event().is_some() {}
    take_control(
        &mut r,
        secs(5),
        a(1),
        control_packet(a(1), 5, vec![tc_from(a(2), 2, 2, &[])]),
    );
    assert_eq!(r.recomputations(), 4, "2 → 4 was");
    assert_eq!(r.next_hop(a(4)), None, "the lookup right after sees it");
    assert_eq!(
        r.poll_event(),
        Some(RoutingEvent::RouteBroken { dst: a(4) })
    );
    r.check_invariants();
    // Expiry: keep the link up with HELLOs and let 1's TC (15 s from t = 1 s) expire.
    assert!(r.next_hop(a(3)).is_some());
    let before = r.recomputations();
    for t in [7, 11, 15] {
        let hello = hello_from(
            a(1),
            t as u16 + 10,
            &[(sctpsim_wire::olsr::SYM_LINK, SYM_NEIGH, &[a(0), a(2), a(5)])],
        );
        take_control(
            &mut r,
            secs(t),
            a(1),
            control_packet(a(1), t as u16 + 10, vec![hello]),
        );
    }
    r.handle_timeout(secs(17));
    assert!(r.recomputations() > before, "expiry recomputes");
    assert_eq!(
        r.next_hop(a(3)),
        None,
        "1's TC and 1's 2-hop tuple to 3 expired"
    );
    r.check_invariants();
}
