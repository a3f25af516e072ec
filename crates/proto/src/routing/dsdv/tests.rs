//! DSDV behaviour: the table update rules on hand-made updates (one router, packets fed in),
//! settling, broken routes with odd sequence numbers, the holddown, the send buffer, and
//! convergence and delivery on [`TestNet`] lines.

use super::*;
use crate::routing::testnet::TestNet;
use sctpsim_kernel::PacketTag;

fn secs(s: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_secs(s)
}

fn ms(m: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(m)
}

fn a(i: u8) -> Ipv4Addr {
    Ipv4Addr::new(10, 0, 0, i)
}

fn me() -> Ipv4Addr {
    a(100)
}

fn router(cfg: DsdvConfig) -> Dsdv {
    Dsdv::new(me(), cfg, Rng::from_seed(7))
}

fn entry(dst: Ipv4Addr, hop_count: u32, seq_no: u32) -> DsdvEntry {
    DsdvEntry {
        dst,
        hop_count,
        seq_no,
    }
}

/// An update from `src` carrying `entries`, as a complete IPv4 packet.
fn update(src: Ipv4Addr, entries: Vec<DsdvEntry>) -> Packet {
    let payload = DsdvRepr { entries }.to_bytes();
    let udp = UdpRepr {
        src_port: UDP_PORT,
        dst_port: UDP_PORT,
    };
    Packet::untagged(udp_datagram(src, Ipv4Addr::BROADCAST, 1, 1, &udp, &payload))
}

/// A UDP data packet from `src` to `dst` (TTL 64).
fn data(src: Ipv4Addr, dst: Ipv4Addr, ident: u16) -> Packet {
    let udp = UdpRepr {
        src_port: 9,
        dst_port: 9,
    };
    Packet::untagged(udp_datagram(src, dst, 64, ident, &udp, &[0u8; 10]))
}

fn feed(r: &mut Dsdv, now: SimTime, src: Ipv4Addr, entries: Vec<DsdvEntry>) {
    let d = r.handle_receive(now, src, update(src, entries));
    assert_eq!(d, Decision::Consumed, "an update is control traffic");
}

/// Runs the router's timers up to `until`; returns the updates it sent, with their times.
fn run(r: &mut Dsdv, until: SimTime) -> Vec<(SimTime, Vec<DsdvEntry>)> {
    let mut sent = Vec::new();
    loop {
        collect(r, &mut sent, None);
        match r.poll_timeout() {
            Some(t) if t <= until => {
                r.handle_timeout(t);
                collect(r, &mut sent, Some(t));
            }
            _ => break,
        }
    }
    sent
}

fn collect(r: &mut Dsdv, sent: &mut Vec<(SimTime, Vec<DsdvEntry>)>, at: Option<SimTime>) {
    while let Some(o) = r.poll_output() {
        if let RoutingOutput::Transmit {
            packet,
            control: true,
            ..
        } = o
        {
            let ip = Ipv4Packet::new_checked(&packet.bytes[..]).unwrap();
            let udp = sctpsim_wire::UdpPacket::new_checked(ip.payload()).unwrap();
            let repr = DsdvRepr::parse(udp.payload()).unwrap();
            sent.push((at.unwrap_or(SimTime::ZERO), repr.entries));
        }
    }
}

fn advertised(sent: &[(SimTime, Vec<DsdvEntry>)], dst: Ipv4Addr) -> Vec<(SimTime, DsdvEntry)> {
    sent.iter()
        .flat_map(|(t, es)| es.iter().filter(|e| e.dst == dst).map(move |e| (*t, *e)))
        .collect()
}

/// A router that knows a(1) as a neighbour (seq 2) and a(9) 3 hops away via a(1) (seq 10),
/// with the initial triggered update sent; time is 1 s.
fn settled_router(cfg: DsdvConfig) -> Dsdv {
    let mut r = router(cfg);
    assert_eq!(run(&mut r, ms(500)).len(), 1, "the first periodic update");
    feed(
        &mut r,
        secs(1),
        a(1),
        vec![entry(a(1), 1, 2), entry(a(9), 3, 10)],
    );
    let sent = run(&mut r, secs(1) + SimDuration::from_millis(2));
    assert_eq!(sent.len(), 1, "one triggered update: {sent:?}");
    r
}

#[test]
fn first_periodic_update_within_one_ms_with_own_seqno_two() {
    let mut r = router(DsdvConfig::default());
    let t = r.poll_timeout().unwrap();
    assert!(t <= SimTime::ZERO + SimDuration::from_micros(1000));
    let sent = run(&mut r, secs(16));
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(sent[0].1, vec![entry(me(), 1, 2)]);
    assert_eq!(sent[1].1, vec![entry(me(), 1, 4)]);
    let gap = sent[1].0.saturating_since(sent[0].0);
    assert!(gap >= SimDuration::from_secs(15) && gap <= SimDuration::from_millis(15_025));
}

#[test]
fn new_routes_are_taken_and_advertised_at_once() {
    let mut r = router(DsdvConfig::default());
    run(&mut r, ms(500));
    feed(
        &mut r,
        secs(1),
        a(1),
        vec![entry(a(1), 1, 2), entry(a(9), 3, 10)],
    );
    assert_eq!(r.next_hop(a(1)), Some(a(1)));
    assert_eq!(r.next_hop(a(9)), Some(a(1)));
    assert_eq!(r.route(a(9)).unwrap().hops, 3);
    let sent = run(&mut r, secs(2));
    let trig: Vec<_> = sent.iter().filter(|(t, _)| *t >= secs(1)).collect();
    assert_eq!(trig.len(), 1);
    // Own entry first, then the changes with one more hop.
    assert_eq!(
        trig[0].1,
        vec![entry(me(), 1, 2), entry(a(1), 2, 2), entry(a(9), 4, 10)]
    );
    assert!(trig[0].0 <= secs(1) + SimDuration::from_micros(1000));
    assert!(r.pending_changes().is_empty());
}

#[test]
fn own_entry_echoed_and_unknown_broken_routes_are_ignored() {
    let mut r = router(DsdvConfig::default());
    feed(
        &mut r,
        secs(1),
        a(1),
        vec![entry(me(), 2, 2), entry(a(5), 2, 7)],
    );
    assert_eq!(r.routes().count(), 0);
    assert_eq!(r.counters().rx["update"].packets, 1);
}

#[test]
fn newer_seqno_same_metric_replaces_via_the_advertisement() {
    let mut r = settled_router(DsdvConfig::default());
    // a(2) offers a(9) with a newer sequence number and the same hop count.
    feed(
        &mut r,
        secs(3),
        a(2),
        vec![entry(a(2), 1, 2), entry(a(9), 3, 12)],
    );
    // ns-3: the forwarding table takes it when the triggered update carries it.
    assert_eq!(r.route(a(9)).unwrap().seq, 10);
    let sent = run(&mut r, secs(4));
    assert_eq!(r.route(a(9)).unwrap().seq, 12);
    assert_eq!(r.route(a(9)).unwrap().next_hop, a(2));
    assert!(advertised(&sent, a(9)).contains(&(advertised(&sent, a(9))[0].0, entry(a(9), 4, 12))));
}

#[test]
fn newer_seqno_changed_metric_used_at_once_advertised_after_settling() {
    let mut r = settled_router(DsdvConfig::default());
    // At 9 s: a(9) 2 hops via a(2), newer seqno. Route age 8 s, last settling 5 s:
    // weighted settling = 0.875 * 5 + 0.125 * 8 = 5.375 s.
    feed(
        &mut r,
        secs(9),
        a(2),
        vec![entry(a(2), 1, 2), entry(a(9), 2, 12)],
    );
    assert_eq!(r.next_hop(a(9)), Some(a(2)));
    assert_eq!(r.route(a(9)).unwrap().hops, 2);
    let until = secs(9) + SimDuration::from_millis(5_375);
    assert_eq!(r.settling_until(a(9), secs(9)), Some(until));
    let sent = run(&mut r, secs(15));
    let adv9 = advertised(&sent, a(9));
    assert_eq!(adv9, vec![(until, entry(a(9), 3, 12))], "{sent:?}");
    // The neighbour a(2) itself was new: advertised within 1 ms.
    let adv2 = advertised(&sent, a(2));
    assert_eq!(adv2.len(), 1);
    assert!(adv2[0].0 <= secs(9) + SimDuration::from_micros(1000));
}

#[test]
fn same_seqno_fewer_hops_settles_and_worse_is_ignored() {
    let mut r = settled_router(DsdvConfig::default());
    // Same seqno, more hops: ignored.
    feed(
        &mut r,
        secs(2),
        a(3),
        vec![entry(a(3), 1, 2), entry(a(9), 5, 10)],
    );
    assert_eq!(r.route(a(9)).unwrap().next_hop, a(1));
    // Same seqno, fewer hops: taken at once, settles.
    feed(
        &mut r,
        secs(3),
        a(2),
        vec![entry(a(2), 1, 2), entry(a(9), 2, 10)],
    );
    assert_eq!(r.next_hop(a(9)), Some(a(2)));
    assert!(r.settling_until(a(9), secs(3)).is_some());
    // Older seqno: ignored.
    feed(&mut r, secs(4), a(3), vec![entry(a(9), 1, 8)]);
    assert_eq!(r.next_hop(a(9)), Some(a(2)));
    assert_eq!(r.route(a(9)).unwrap().hops, 2);
}

#[test]
fn a_better_seqno_cancels_settling() {
    let mut r = settled_router(DsdvConfig::default());
    feed(
        &mut r,
        secs(3),
        a(2),
        vec![entry(a(2), 1, 2), entry(a(9), 2, 10)],
    );
    assert!(r.settling_until(a(9), secs(3)).is_some());
    // A newer sequence number with the same metric as the pending change: settling cancelled,
    // advertised in the next triggered update.
    feed(&mut r, secs(4), a(2), vec![entry(a(9), 2, 12)]);
    assert!(r.settling_until(a(9), secs(4)).is_none());
    let sent = run(&mut r, secs(5));
    let adv9 = advertised(&sent, a(9));
    assert_eq!(adv9.len(), 1);
    assert_eq!(adv9[0].1, entry(a(9), 3, 12));
    assert!(adv9[0].0 < secs(4) + SimDuration::from_millis(2));
}

#[test]
fn odd_seqno_from_next_hop_breaks_route_and_routes_through_it() {
    let mut r = settled_router(DsdvConfig::default());
    // a(5) reached through a(9)? Make a(9) a neighbour route for something: a(7) via a(9).
    feed(
        &mut r,
        secs(2),
        a(9),
        vec![entry(a(9), 1, 10), entry(a(7), 2, 20)],
    );
    run(&mut r, secs(2) + SimDuration::from_millis(2));
    // a(9) now a neighbour (same seqno 10, fewer hops 1 < 3): next hop a(9).
    assert_eq!(r.route(a(9)).unwrap().hops, 1);
    assert_eq!(r.next_hop(a(7)), Some(a(9)));
    // A broken a(9) from a non-next-hop: ignored.
    feed(&mut r, secs(3), a(1), vec![entry(a(9), 2, 11)]);
    assert!(r.route(a(9)).is_some());
    // From the next hop itself (a(9) advertising... its own route broken is impossible; use
    // the route to a(7) via a(9)): a(9) says a(7) is broken.
    feed(&mut r, secs(4), a(9), vec![entry(a(7), 2, 21)]);
    assert!(r.route(a(7)).is_none());
    let sent = run(&mut r, secs(5));
    let adv7 = advertised(&sent, a(7));
    assert_eq!(adv7.last().unwrap().1, entry(a(7), 3, 21), "{sent:?}");
    let broken: Vec<_> = std::iter::from_fn(|| r.poll_event()).collect();
    assert!(broken.contains(&RoutingEvent::RouteBroken { dst: a(7) }));
    // The destination's next even seqno restores it.
    feed(&mut r, secs(6), a(9), vec![entry(a(7), 2, 22)]);
    assert_eq!(r.next_hop(a(7)), Some(a(9)));
}

#[test]
fn broken_neighbour_takes_its_dependents() {
    let mut r = settled_router(DsdvConfig::default());
    // a(1) reports itself... a neighbour's own entry is never odd; a(1)'s neighbour a(1) is
    // reported broken by a(1)'s own next hop (itself) when it relays a break of a(1)?
    // ns-3 handles the case through GetListOfDestinationWithNextHop(dst): routes whose next
    // hop is the broken destination. a(9) is via a(1).
    feed(&mut r, secs(2), a(1), vec![entry(a(1), 1, 3)]);
    assert!(r.route(a(1)).is_none());
    assert!(r.route(a(9)).is_none(), "a(9) went through a(1)");
    let sent = run(&mut r, secs(3));
    let last = &sent.last().unwrap().1;
    assert!(last.contains(&entry(a(1), 2, 3)), "{last:?}");
    assert!(last.contains(&entry(a(9), 4, 11)), "{last:?}");
}

#[test]
fn silent_routes_are_purged_after_holddown_and_advertised_broken() {
    let mut r = settled_router(DsdvConfig::default());
    // No refresh from a(1): routes updated at 1 s are older than 45 s after 46 s. The
    // periodic update after that carries them with seqno + 1.
    let sent = run(&mut r, secs(80));
    assert!(r.route(a(1)).is_none() && r.route(a(9)).is_none());
    let adv1 = advertised(&sent, a(1));
    let (t, e) = adv1.last().unwrap();
    assert_eq!(*e, entry(a(1), 2, 3));
    assert!(*t > secs(46) && *t < secs(62), "purged at {t}");
    assert_eq!(
        advertised(&sent, a(9)).last().unwrap().1,
        entry(a(9), 4, 11)
    );
}

#[test]
fn refresh_from_next_hop_keeps_route_alive() {
    let mut r = settled_router(DsdvConfig::default());
    for k in 1..6 {
        // a(1) repeats the same seqno every 15 s: only a refresh.
        feed(&mut r, secs(1 + 15 * k), a(1), vec![entry(a(1), 1, 2)]);
        run(&mut r, secs(1 + 15 * k) + SimDuration::from_millis(2));
    }
    assert!(r.route(a(1)).is_some(), "refreshed by its next hop");
    assert!(r.route(a(9)).is_none(), "a(9) not refreshed: purged");
}

#[test]
fn originated_packets_wait_in_the_buffer_five_per_destination() {
    let mut r = router(DsdvConfig::default());
    let mut tags = Vec::new();
    let mut drops = Vec::new();
    for k in 0..7u16 {
        let mut p = data(me(), a(9), k);
        p.tag = PacketTag {
            flow: None,
            uid: 100 + u64::from(k),
        };
        tags.push(p.tag);
        // The buffer refuses the sixth and seventh: the decision for them is the drop.
        match r.handle_send(ms(100 * u64::from(k)), p) {
            Decision::Buffered => {}
            Decision::Drop { reason, packet } => drops.push((reason, packet.tag)),
            d => panic!("packet {k}: {d:?}"),
        }
    }
    assert_eq!(r.buffered(), 5);
    assert_eq!(r.buffered_tags(), tags[..5].to_vec());
    assert_eq!(
        drops,
        vec![
            (RouteDropReason::SendBufferFull, tags[5]),
            (RouteDropReason::SendBufferFull, tags[6])
        ]
    );
    // A route appears; the triggered update it causes releases one packet, the rest follow
    // U{0..100} ms apart.
    feed(
        &mut r,
        secs(2),
        a(1),
        vec![entry(a(1), 1, 2), entry(a(9), 2, 4)],
    );
    let mut out = Vec::new();
    let mut t = secs(2);
    while let Some(next) = r.poll_timeout().filter(|n| *n < secs(3)) {
        t = next;
        r.handle_timeout(t);
        while let Some(o) = r.poll_output() {
            if let RoutingOutput::Transmit {
                next_hop,
                packet,
                control: false,
            } = o
            {
                out.push((t, next_hop, packet.tag));
            }
        }
    }
    assert_eq!(out.len(), 5, "{out:?}");
    assert!(out.iter().all(|(_, nh, _)| *nh == a(1)));
    assert_eq!(
        out.iter().map(|(_, _, tag)| *tag).collect::<Vec<_>>(),
        tags[..5].to_vec()
    );
    assert!(t <= secs(2) + SimDuration::from_millis(401));
    assert_eq!(r.buffered(), 0);
}

#[test]
fn buffered_packets_expire_after_thirty_seconds() {
    let mut r = router(DsdvConfig::default());
    let p = data(me(), a(9), 1);
    assert_eq!(r.handle_send(secs(1), p), Decision::Buffered);
    assert_eq!(r.buffered(), 1);
    run(&mut r, secs(31));
    assert_eq!(r.buffered(), 1, "exactly 30 s is not older");
    r.handle_timeout(secs(32));
    assert_eq!(r.buffered(), 0);
    assert_eq!(r.counters().drops[&RouteDropReason::SendBufferTimeout], 1);
}

#[test]
fn without_buffering_no_route_drops() {
    let mut r = router(DsdvConfig {
        buffering: false,
        ..DsdvConfig::default()
    });
    let p = data(me(), a(9), 1);
    let d = r.handle_send(secs(1), p.clone());
    assert_eq!(
        d,
        Decision::Drop {
            packet: p,
            reason: RouteDropReason::NoRoute
        }
    );
    assert_eq!(r.buffered(), 0);
    assert_eq!(r.counters().drops[&RouteDropReason::NoRoute], 1);
}

#[test]
fn link_layer_feedback_marks_routes_broken_at_once() {
    let cfg = DsdvConfig {
        link_layer_feedback: true,
        ..DsdvConfig::default()
    };
    let mut r = settled_router(cfg);
    let p = data(a(5), a(6), 1);
    r.handle_link_failure(secs(3), a(1), vec![p]);
    assert!(r.route(a(1)).is_none() && r.route(a(9)).is_none());
    let sent = run(&mut r, secs(3) + SimDuration::from_millis(1));
    let (t, es) = sent.last().unwrap();
    assert_eq!(*t, secs(3));
    assert!(es.contains(&entry(a(1), 2, 3)) && es.contains(&entry(a(9), 4, 11)));
    assert_eq!(r.counters().link_breaks, 1);
    // Without feedback (ns-3), the failure changes nothing and the packet is lost.
    let mut r = settled_router(DsdvConfig::default());
    let p = data(a(5), a(6), 1);
    r.handle_link_failure(secs(3), a(1), vec![p]);
    assert!(r.route(a(9)).is_some());
    assert_eq!(r.counters().drops[&RouteDropReason::LinkBroken], 1);
}

#[test]
fn malformed_input_is_counted_never_panics() {
    let mut r = settled_router(DsdvConfig::default());
    let mut p = update(a(1), vec![entry(a(3), 1, 2)]);
    // Truncate the UDP payload by one byte, fixing neither length: malformed.
    let n = p.bytes.len();
    p.bytes.truncate(n - 1);
    assert_eq!(r.handle_receive(secs(2), a(1), p), Decision::Consumed);
    // Corrupt the UDP checksum.
    let mut p = update(a(1), vec![entry(a(3), 1, 2)]);
    let n = p.bytes.len();
    p.bytes[n - 1] ^= 0xFF;
    assert_eq!(r.handle_receive(secs(2), a(1), p), Decision::Consumed);
    for len in 0..40 {
        let d = r.handle_receive(secs(2), a(1), Packet::untagged(vec![0x45; len]));
        assert_eq!(d, Decision::Consumed);
    }
    assert!(r.counters().malformed >= 42);
    assert!(r.route(a(3)).is_none());
}

// --- TestNet ----------------------------------------------------------------------------------

fn net(n: usize, cfg: &DsdvConfig) -> TestNet {
    TestNet::new(
        (0..n)
            .map(|i| {
                Box::new(Dsdv::new(
                    TestNet::addr(i),
                    cfg.clone(),
                    Rng::from_seed(0xD5D0 + i as u64),
                )) as Box<dyn Router>
            })
            .collect(),
    )
}

#[test]
fn line_converges_and_delivers_over_every_hop() {
    for n in 2..=6 {
        let mut net = net(n, &DsdvConfig::default());
        net.line();
        net.run_until(secs(1));
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let next = if j > i { i + 1 } else { i - 1 };
                assert_eq!(
                    net.routers[i].next_hop(TestNet::addr(j)),
                    Some(TestNet::addr(next)),
                    "{n} nodes: {i} -> {j}"
                );
            }
        }
        let tag = net.send_at(secs(2), 0, TestNet::data_packet(0, n - 1, 100, 1));
        net.run_until(secs(3));
        let got: Vec<_> = net
            .delivered
            .iter()
            .filter(|(node, _, p)| *node == n - 1 && p.tag == tag)
            .collect();
        assert_eq!(got.len(), 1, "{n} nodes");
        let ttl = Ipv4Packet::new_checked(&got[0].2.bytes[..]).unwrap().ttl();
        assert_eq!(
            usize::from(64 - ttl),
            n - 2,
            "TTL decremented per forwarder"
        );
        net.check_conservation().unwrap();
    }
}

#[test]
fn line_break_is_repaired_by_holddown_and_periodic_updates() {
    // 0 - 1 - 2 - 3 and 0 - 4 - 3 (longer? same length: 0-4-3 is 2 hops, 0-1-2-3 is 3).
    // Start without node 4's links; add them later, cut 1-2: traffic moves to 4.
    let mut net = net(5, &DsdvConfig::default());
    net.set_link(0, 1, true);
    net.set_link(1, 2, true);
    net.set_link(2, 3, true);
    net.run_until(secs(1));
    assert_eq!(
        net.routers[0].next_hop(TestNet::addr(3)),
        Some(TestNet::addr(1))
    );
    net.set_link(1, 2, false);
    net.set_link(0, 4, true);
    net.set_link(4, 3, true);
    // Data every 0.5 s from 0 to 3.
    for k in 0..240u16 {
        net.send_at(
            ms(2000 + 500 * u64::from(k)),
            0,
            TestNet::data_packet(0, 3, 64, k),
        );
    }
    net.run_until(secs(125));
    let arrived: Vec<SimTime> = net
        .delivered
        .iter()
        .filter(|(node, _, _)| *node == 3)
        .map(|(_, t, _)| *t)
        .collect();
    assert!(!arrived.is_empty());
    let first = arrived[0];
    println!(
        "first packet over the new path at {first}, {} of 240 delivered",
        arrived.len()
    );
    // Node 4's first periodic update already offers the 2-hop route with a newer seqno from
    // node 3, at most one periodic interval after the links appear.
    assert!(first < secs(20), "{first}");
    assert_eq!(
        net.routers[0].next_hop(TestNet::addr(3)),
        Some(TestNet::addr(4))
    );
    net.check_conservation().unwrap();
}

/// ns-3's `RouteOutput` sends the packets queued for destinations that now have a route
/// before the new packet it routes: they are outputs queued ahead of the decision, and the
/// router says so, so that the interface queue holds them first.
#[test]
fn queued_packets_leave_ahead_of_the_new_one() {
    let mut r = router(DsdvConfig::default());
    let mut old = data(me(), a(9), 1);
    old.tag = PacketTag { flow: None, uid: 1 };
    assert_eq!(r.handle_send(secs(1), old), Decision::Buffered);
    feed(
        &mut r,
        secs(2),
        a(1),
        vec![entry(a(1), 1, 2), entry(a(9), 2, 4)],
    );
    while r.poll_output().is_some() {}
    let mut new = data(me(), a(9), 2);
    new.tag = PacketTag { flow: None, uid: 2 };
    match r.handle_send(secs(2), new) {
        Decision::Forward { next_hop, packet } => {
            assert_eq!(next_hop, a(1));
            assert_eq!(packet.tag.uid, 2);
        }
        d => panic!("expected the new packet forwarded, got {d:?}"),
    }
    assert_eq!(
        r.outputs_before_decision(),
        1,
        "the released packet goes first"
    );
    match r.poll_output() {
        Some(RoutingOutput::Transmit {
            next_hop,
            packet,
            control: false,
        }) => {
            assert_eq!(next_hop, a(1));
            assert_eq!(packet.tag.uid, 1);
        }
        o => panic!("expected the queued packet released, got {o:?}"),
    }
    assert!(r.poll_output().is_none());
}
