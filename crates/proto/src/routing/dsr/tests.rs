//! DSR tests on the synchronous [`TestNet`] (1 ms per hop, 10 ms to detect a failed link).
//!
//! The routers sit behind a shared handle so that a test can both let the [`TestNet`] drive
//! them and call DSR-specific methods ([`Dsr::disjoint_routes`], [`Dsr::cached_paths`]).

use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex, MutexGuard};

use proptest::prelude::*;
use sctpsim_kernel::{FlowId, Packet, PacketTag, Rng, SimDuration, SimTime};
use sctpsim_wire::dsr::{dsr_packet, DsrOption, DsrRepr, IP_PROTOCOL_DSR};
use sctpsim_wire::{Ipv4Packet, Ipv4Repr};

use super::{Dsr, DsrConfig};
use crate::routing::testnet::TestNet;
use crate::routing::{
    Decision, RouteDropReason, Router, RoutingCounters, RoutingEvent, RoutingOutput,
};

/// A [`Dsr`] shared between the [`TestNet`] and the test.
#[derive(Debug, Clone)]
struct Handle {
    dsr: Arc<Mutex<Dsr>>,
    counters: RoutingCounters,
}

impl Handle {
    fn lock(&self) -> MutexGuard<'_, Dsr> {
        self.dsr.lock().expect("test router lock")
    }

    fn sync(&mut self) {
        let c = self.lock().counters().clone();
        self.counters = c;
    }
}

impl Router for Handle {
    fn protocol(&self) -> &'static str {
        "dsr"
    }
    fn addr(&self) -> Ipv4Addr {
        self.lock().addr()
    }
    fn handle_send(&mut self, now: SimTime, packet: Packet) -> Decision {
        let d = self.lock().handle_send(now, packet);
        self.sync();
        d
    }
    fn handle_receive(&mut self, now: SimTime, prev_hop: Ipv4Addr, packet: Packet) -> Decision {
        let d = self.lock().handle_receive(now, prev_hop, packet);
        self.sync();
        d
    }
    fn outputs_before_decision(&self) -> usize {
        self.lock().outputs_before_decision()
    }
    fn handle_link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>) {
        self.lock().handle_link_failure(now, next_hop, packets);
        self.sync();
    }
    fn handle_timeout(&mut self, now: SimTime) {
        self.lock().handle_timeout(now);
        self.sync();
    }
    fn poll_output(&mut self) -> Option<RoutingOutput> {
        self.lock().poll_output()
    }
    fn poll_event(&mut self) -> Option<RoutingEvent> {
        self.lock().poll_event()
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.lock().poll_timeout()
    }
    fn counters(&self) -> &RoutingCounters {
        &self.counters
    }
    fn next_hop(&self, dst: Ipv4Addr) -> Option<Ipv4Addr> {
        self.lock().next_hop(dst)
    }
    fn buffered_tags(&self) -> Vec<PacketTag> {
        self.lock().buffered_tags()
    }
    fn disjoint_routes(&self, now: SimTime, dst: Ipv4Addr, k: usize) -> Vec<Vec<Ipv4Addr>> {
        Router::disjoint_routes(&*self.lock(), now, dst, k)
    }
    fn handle_send_on_route(
        &mut self,
        now: SimTime,
        packet: Packet,
        route: &[Ipv4Addr],
    ) -> Decision {
        Router::handle_send_on_route(&mut *self.lock(), now, packet, route)
    }
    fn has_route(&self, now: SimTime, route: &[Ipv4Addr]) -> bool {
        Router::has_route(&*self.lock(), now, route)
    }
}

fn network(n: usize, cfg: &DsrConfig, seed: u64) -> (TestNet, Vec<Handle>) {
    let handles: Vec<Handle> = (0..n)
        .map(|i| Handle {
            dsr: Arc::new(Mutex::new(Dsr::new(
                TestNet::addr(i),
                cfg.clone(),
                Rng::from_seed(seed.wrapping_mul(1000).wrapping_add(i as u64)),
            ))),
            counters: RoutingCounters::default(),
        })
        .collect();
    let routers: Vec<Box<dyn Router>> = handles
        .iter()
        .map(|h| Box::new(h.clone()) as Box<dyn Router>)
        .collect();
    (TestNet::new(routers), handles)
}

fn ms(x: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(x)
}

fn total_tx(net: &TestNet, kind: &str) -> u64 {
    net.routers
        .iter()
        .map(|r| r.counters().tx.get(kind).map_or(0, |c| c.packets))
        .sum()
}

/// `packet` with its TTL lowered by `hops` and the checksum recomputed: what arrives after
/// `hops` forwarders.
fn aged(packet: &[u8], hops: u8) -> Vec<u8> {
    let mut p = packet.to_vec();
    for _ in 0..hops {
        sctpsim_wire::decrement_ttl_in_place(&mut p).expect("valid packet");
    }
    p
}

fn path(nodes: &[usize]) -> Vec<Ipv4Addr> {
    nodes.iter().map(|&i| TestNet::addr(i)).collect()
}

/// RREQ transmissions for one discovery along a line of h hops (nodes 0..=h, source 0,
/// target h), with the non-propagating request first:
///
/// * h = 1: the non-propagating request reaches the target, which answers: **1**.
/// * h ≥ 2: the non-propagating request (1) goes unanswered (the neighbour's cache is empty);
///   after NonpropRequestTimeout the source floods (1) and every node except the source and
///   the target rebroadcasts exactly once (h − 1): **h + 1**.
///
/// In general a flood costs one transmission per node that receives it, except the target
/// (duplicate suppression), i.e. N − 1 in a connected network of N nodes.
fn expected_rreq_line(h: u64) -> u64 {
    if h == 1 {
        1
    } else {
        h + 1
    }
}

#[test]
fn line_discovery_and_delivery() {
    for h in 1..=8usize {
        let (mut net, handles) = network(h + 1, &DsrConfig::default(), h as u64);
        net.line();
        let packet = TestNet::data_packet(0, h, 100, 7);
        let tag = net.send_at(SimTime::ZERO, 0, packet.clone());
        net.run_until(ms(2000));
        // The route and its record.
        let want: Vec<usize> = (0..=h).collect();
        assert_eq!(
            handles[0]
                .lock()
                .disjoint_routes(net.now, TestNet::addr(h), 4),
            vec![path(&want)],
            "h = {h}"
        );
        // The data arrived, byte for byte the original but for the TTL.
        assert_eq!(net.delivered.len(), 1, "h = {h}");
        let (node, _, got) = &net.delivered[0];
        assert_eq!(*node, h);
        assert_eq!(got.bytes, aged(&packet, (h - 1) as u8), "h = {h}");
        // The source-route header came and went; the tag stayed.
        assert_eq!(got.tag, tag, "h = {h}");
        // The discovery and its requests.
        assert_eq!(
            total_tx(&net, "rreq"),
            expected_rreq_line(h as u64),
            "h = {h}"
        );
        let c = net.routers[0].counters();
        assert_eq!(c.discoveries, 1);
        assert_eq!(c.discoveries_succeeded, 1);
        assert_eq!(c.requests_originated, if h == 1 { 1 } else { 2 });
        assert!(net.events.iter().any(|(n, _, e)| *n == 0
            && matches!(e, RoutingEvent::RouteDiscovered { dst, .. } if *dst == TestNet::addr(h))));
        let forwarded: u64 = net
            .routers
            .iter()
            .map(|r| r.counters().data_forwarded)
            .sum();
        assert_eq!(forwarded, (h - 1) as u64);
        // Data packets with a source route are not control traffic.
        assert!(net
            .transmissions
            .iter()
            .filter(|t| !t.control)
            .all(|t| t.packet.len() >= packet.len()));
    }
}

#[test]
fn flooding_without_nonpropagating_request() {
    let cfg = DsrConfig {
        nonpropagating_first: false,
        ..DsrConfig::default()
    };
    for h in 1..=6usize {
        let (mut net, _) = network(h + 1, &cfg, 3);
        net.line();
        net.send_at(SimTime::ZERO, 0, TestNet::data_packet(0, h, 10, 1));
        net.run_until(ms(2000));
        assert_eq!(total_tx(&net, "rreq"), h as u64, "h = {h}");
        assert_eq!(net.delivered.len(), 1);
    }
}

/// 0-1-2-3-4 with a detour 2-5-6-4. Data 0→4 every 50 ms. The link 2-3 breaks at 1 s: node 2
/// salvages over 2-5-6-4 and tells node 0, which switches to its second route. The link 5-6
/// breaks at 3 s (and 2-3 is back): node 5 cannot salvage, node 0 hears the error and
/// discovers 0-1-2-3-4 anew.
fn link_break_run() -> (TestNet, Vec<Handle>) {
    let (mut net, handles) = network(7, &DsrConfig::default(), 11);
    net.line();
    net.set_link(4, 5, false);
    net.set_link(5, 6, true);
    net.set_link(2, 5, true);
    net.set_link(6, 4, true);
    for k in 0..100u64 {
        net.send_at(ms(50 * k), 0, TestNet::data_packet(0, 4, 200, k as u16));
    }
    net.run_until(ms(1000));
    net.set_link(2, 3, false);
    net.run_until(ms(3000));
    net.set_link(5, 6, false);
    net.set_link(2, 3, true);
    net.run_until(ms(6000));
    (net, handles)
}

#[test]
fn link_break_salvage_route_error_and_rediscovery() {
    let (net, handles) = link_break_run();
    let a = TestNet::addr;
    // Before the break the shortest route was used; node 2 knew the detour.
    // Node 2 detected the break, salvaged, and sent a Route Error to 0.
    let c2 = net.routers[2].counters();
    assert!(c2.link_breaks >= 1);
    assert!(c2.route_errors_sent >= 1);
    assert!(c2.salvaged >= 1, "node 2 salvages over 2-5-6-4");
    assert!(net.events.iter().any(|(n, t, e)| *n == 0
        && *t > ms(1000)
        && *t < ms(1100)
        && *e == RoutingEvent::RouteBroken { dst: a(4) }));
    // Node 5 could not salvage; 0 rediscovered.
    let c5 = net.routers[5].counters();
    assert!(c5.route_errors_sent >= 1);
    assert!(
        c5.drops
            .get(&RouteDropReason::LinkBroken)
            .copied()
            .unwrap_or(0)
            >= 1
    );
    let c0 = net.routers[0].counters();
    assert!(
        c0.discoveries >= 2,
        "a new discovery after the second break"
    );
    // The cache has neither broken link.
    for p in handles[0].lock().cached_paths() {
        for w in p.windows(2) {
            assert!(!(w.contains(&a(5)) && w.contains(&a(6))), "{p:?}");
        }
    }
    // Nearly everything arrives: at most the packets in flight on the broken hop are lost.
    let delivered = net.delivered.iter().filter(|(n, _, _)| *n == 4).count();
    assert!(delivered >= 95, "delivered {delivered} of 100");
    // Repair times: the longest gap between deliveries after each break.
    let times: Vec<SimTime> = net.delivered.iter().map(|(_, t, _)| *t).collect();
    let gap_after = |t0: SimTime| {
        let before = times
            .iter()
            .filter(|t| **t <= t0)
            .max()
            .copied()
            .unwrap_or(t0);
        let after = times
            .iter()
            .filter(|t| **t > t0)
            .min()
            .copied()
            .unwrap_or(t0);
        after.saturating_since(before)
    };
    let g1 = gap_after(ms(1000));
    let g2 = gap_after(ms(3000));
    println!("repair: salvage gap {g1}, rediscovery gap {g2}");
    assert!(g1 < SimDuration::from_millis(100));
    assert!(g2 < SimDuration::from_millis(200));
}

/// Tag conservation across link breaks (see [`TestNet::check_conservation`]): data both ways
/// along the line 0-1-2-3-4-5 (with or without a detour 2-6-4), with distinct tags and IP
/// identifications; the link 2-3 breaks at 1 s and comes back at 2.5 s, then the link 4-5
/// next to node 5 (a source) breaks at 6 s and the run stops at 6.7 s with packets still in
/// the send buffers and in flight.
/// Every packet sent must end exactly once — delivered at its destination, dropped, buffered,
/// or in flight — carrying the tag it was sent with, through the source-route header's
/// insertion, rewriting and removal, salvaging, re-routing of the source's own packets, and
/// the send buffer's overflow, timeout and failed discoveries.
#[test]
fn tags_are_conserved_across_link_breaks() {
    let configs = [
        ("default", DsrConfig::default()),
        ("ns2", DsrConfig::ns2()),
        (
            "short buffer, few requests",
            DsrConfig {
                send_buffer_size: 16,
                send_buffer_timeout: SimDuration::from_millis(200),
                max_request_rexmt: 1,
                nonpropagating_first: false,
                ..DsrConfig::default()
            },
        ),
    ];
    for (name, cfg) in configs {
        for detour in [false, true] {
            let name = format!("{name}, detour {detour}");
            let (mut net, _handles) = network(7, &cfg, 3);
            net.line();
            net.set_link(5, 6, false);
            if detour {
                net.set_link(2, 6, true);
                net.set_link(6, 4, true);
            }
            let c = net
                .run_break_plan(
                    (350, SimDuration::from_millis(20)),
                    (230, SimDuration::from_millis(30)),
                    [ms(1000), ms(2500), ms(6000), ms(6700)],
                )
                .unwrap_or_else(|e| panic!("{name}: tags not conserved:\n{e}"));
            eprintln!("DSR tag conservation, {name}: {c:?}");
            assert_eq!(c.sent, 580, "{name}");
            assert!(c.delivered > 0, "{name}: {c:?}");
            assert!(c.in_flight > 0, "{name}: {c:?}");
            if !detour {
                assert!(c.dropped_total() > 0, "{name}: {c:?}");
                assert!(c.buffered > 0, "{name}: {c:?}");
            }
            let salvaged: u64 = net.routers.iter().map(|r| r.counters().salvaged).sum();
            if detour {
                assert!(salvaged > 0, "{name}: nothing salvaged");
            }
        }
    }
}

#[test]
fn send_buffer_overflow_timeout_and_request_backoff() {
    let (mut net, _) = network(2, &DsrConfig::default(), 5);
    for k in 0..70u16 {
        net.send_at(SimTime::ZERO, 0, TestNet::data_packet(0, 1, 10, k));
    }
    net.run_until(ms(29_999));
    let c = net.routers[0].counters().clone();
    assert_eq!(c.drops.get(&RouteDropReason::SendBufferFull), Some(&6));
    // The oldest were dropped.
    let idents: Vec<u16> = net
        .dropped
        .iter()
        .map(|(_, _, _, p)| {
            Ipv4Packet::new_checked(&p.bytes[..])
                .map(|p| p.ident())
                .unwrap_or(0)
        })
        .collect();
    assert_eq!(idents, vec![0, 1, 2, 3, 4, 5]);
    net.run_until(ms(40_000));
    let c = net.routers[0].counters().clone();
    assert_eq!(c.drops.get(&RouteDropReason::SendBufferTimeout), Some(&64));
    // Requests: non-propagating at 0, propagating at 0.03, 0.53, 1.53, 3.53, 7.53, 15.53,
    // 25.53 s (500 ms doubling, capped at 10 s; the schedule runs from the deadlines, not from
    // the jittered sends); at 35.53 s nothing waits any more. Each goes out within
    // BroadcastJitter (10 ms) of its scheduled time, not at it (ns-2 RREQ_JITTER).
    let times: Vec<SimTime> = net.transmissions.iter().map(|t| t.time).collect();
    let want: Vec<SimTime> = [0, 30, 530, 1530, 3530, 7530, 15_530, 25_530]
        .into_iter()
        .map(ms)
        .collect();
    assert_eq!(times.len(), want.len(), "{times:?}");
    for (t, w) in times.iter().zip(&want) {
        assert!(
            *t >= *w && *t < *w + SimDuration::from_millis(10),
            "{t:?} vs {w:?}"
        );
    }
    assert!(
        times.iter().zip(&want).any(|(t, w)| t != w),
        "no jitter: {times:?}"
    );
    assert_eq!(c.requests_originated, 8);
    assert_eq!(c.discoveries, 1);
    assert_eq!(c.discoveries_succeeded, 0);
    assert_eq!(net.routers[0].poll_timeout(), None);
}

fn request_packet(
    initiator: Ipv4Addr,
    id: u16,
    target: Ipv4Addr,
    record: Vec<Ipv4Addr>,
    ttl: u8,
) -> Vec<u8> {
    let ip = Ipv4Repr {
        src_addr: initiator,
        dst_addr: Ipv4Addr::BROADCAST,
        protocol: IP_PROTOCOL_DSR,
        payload_len: 0,
        ttl,
        ident: 1,
        dscp: 0,
        dont_frag: false,
    };
    let dsr = DsrRepr {
        next_header: 59,
        options: vec![DsrOption::RouteRequest {
            id,
            target,
            addresses: record,
        }],
    };
    dsr_packet(&ip, &dsr, &[]).expect("request encodes")
}

fn drain(d: &mut Dsr) -> Vec<RoutingOutput> {
    std::iter::from_fn(|| d.poll_output()).collect()
}

#[test]
fn duplicate_requests_are_suppressed() {
    let a = TestNet::addr;
    let mut d = Dsr::new(a(1), DsrConfig::default(), Rng::from_seed(1));
    let req = request_packet(a(0), 77, a(9), vec![], 255);
    let consumed = Decision::Consumed;
    assert_eq!(
        d.handle_receive(ms(0), a(0), Packet::untagged(req.clone())),
        consumed
    );
    // The same request via another neighbour (different record) is a duplicate too.
    let dup = request_packet(a(0), 77, a(9), vec![a(2)], 254);
    assert_eq!(
        d.handle_receive(ms(1), a(2), Packet::untagged(dup)),
        consumed
    );
    assert_eq!(
        d.handle_receive(ms(2), a(0), Packet::untagged(req.clone())),
        consumed
    );
    d.handle_timeout(ms(50));
    let out = drain(&mut d);
    assert_eq!(out.len(), 1, "{out:?}");
    // A new identification is a new request.
    let new_id = request_packet(a(0), 78, a(9), vec![], 255);
    assert_eq!(
        d.handle_receive(ms(60), a(0), Packet::untagged(new_id)),
        consumed
    );
    d.handle_timeout(ms(100));
    assert_eq!(drain(&mut d).len(), 1);
    assert_eq!(d.counters().rx.get("rreq").map(|c| c.packets), Some(4));
    // The target answers every copy.
    let mut t = Dsr::new(a(9), DsrConfig::default(), Rng::from_seed(2));
    for via in [3, 4] {
        let req = request_packet(a(0), 5, a(9), vec![a(via)], 250);
        assert_eq!(
            t.handle_receive(ms(0), a(via), Packet::untagged(req)),
            consumed
        );
    }
    let replies = drain(&mut t);
    assert_eq!(replies.len(), 2);
    assert_eq!(t.counters().tx.get("rrep").map(|c| c.packets), Some(2));
}

#[test]
fn cache_timeout() {
    let (mut net, handles) = network(3, &DsrConfig::default(), 2);
    net.line();
    net.send_at(SimTime::ZERO, 0, TestNet::data_packet(0, 2, 10, 1));
    net.run_until(ms(1000));
    assert_eq!(
        net.routers[0].next_hop(TestNet::addr(2)),
        Some(TestNet::addr(1))
    );
    // The cache wakes the router when its entries expire (300 s after the last use).
    net.run_until(ms(300_000));
    assert_eq!(
        net.routers[0].next_hop(TestNet::addr(2)),
        Some(TestNet::addr(1))
    );
    net.run_until(ms(302_000));
    assert_eq!(net.routers[0].next_hop(TestNet::addr(2)), None);
    assert!(handles[0].lock().cached_paths().is_empty());
}

#[test]
fn forwarding_leaves_the_ttl_to_ip() {
    let a = TestNet::addr;
    let mut d = Dsr::new(a(1), DsrConfig::default(), Rng::from_seed(1));
    let plain = TestNet::data_packet(0, 2, 20, 3);
    let parsed = Ipv4Repr::parse(&Ipv4Packet::new_checked(&plain[..]).expect("ok")).expect("ok");
    let dsr = DsrRepr {
        next_header: 17,
        options: vec![DsrOption::SourceRoute {
            first_hop_external: false,
            last_hop_external: false,
            salvage: 0,
            segs_left: 1,
            addresses: vec![a(1)],
        }],
    };
    // IP forwarding decremented the TTL (and dropped at zero) before the router got the
    // packet: the router forwards whatever TTL it finds, unchanged.
    for ttl in [2u8, 1] {
        let ip = Ipv4Repr { ttl, ..parsed };
        let bytes = dsr_packet(&ip, &dsr, &plain[20..]).expect("ok");
        let tag = PacketTag {
            flow: Some(FlowId(3)),
            uid: u64::from(ttl),
        };
        let decision = d.handle_receive(ms(0), a(0), Packet { bytes, tag });
        assert!(
            drain(&mut d).is_empty(),
            "the forwarded packet is the decision"
        );
        match &decision {
            Decision::Forward { next_hop, packet } => {
                assert_eq!(*next_hop, a(2));
                assert_eq!(packet.tag, tag, "the rewritten packet keeps its tag");
                let p = Ipv4Packet::new_checked(&packet.bytes[..]).expect("ok");
                assert_eq!(p.ttl(), ttl, "the router never touches the TTL");
                assert!(p.verify_checksum());
                let sr = DsrRepr::parse(p.payload()).expect("ok");
                assert!(matches!(
                    sr.options[0],
                    DsrOption::SourceRoute { segs_left: 0, .. }
                ));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(d.counters().drops.get(&RouteDropReason::TtlExpired), None);
    assert_eq!(d.counters().data_forwarded, 2);
}

/// The multipath hook reaches DSR through `Box<dyn Router>` (how the engine holds routers):
/// in a diamond 0-{1,2}-3 the source learns both routes to 3 (equal length: in cache order),
/// and a packet sent on the second one leaves through its first hop.
#[test]
fn disjoint_routes_through_the_router_trait() {
    let (mut net, _handles) = network(4, &DsrConfig::default(), 7);
    for (i, j) in [(0, 1), (1, 3), (0, 2), (2, 3)] {
        net.set_link(i, j, true);
    }
    net.send_at(ms(0), 0, TestNet::data_packet(0, 3, 10, 1));
    net.run_until(ms(2000));
    let now = net.now;
    let routes = net.routers[0].disjoint_routes(now, TestNet::addr(3), 4);
    let mut sorted = routes.clone();
    sorted.sort();
    assert_eq!(sorted, vec![path(&[0, 1, 3]), path(&[0, 2, 3])]);
    // `has_route` tells a path manager which of its routes is still known.
    assert!(routes.iter().all(|r| net.routers[0].has_route(now, r)));
    assert!(
        !net.routers[0].has_route(now, &path(&[0, 3])),
        "no such link"
    );
    assert!(
        !net.routers[0].has_route(now, &path(&[1, 3])),
        "not from here"
    );
    assert!(!net.routers[0].has_route(now, &[]));
    let before = net.transmissions.len();
    let tag = PacketTag {
        flow: Some(FlowId(0)),
        uid: 99,
    };
    let bytes = TestNet::data_packet(0, 3, 10, 2);
    let decision = net.routers[0].handle_send_on_route(now, Packet { bytes, tag }, &routes[1]);
    match decision {
        Decision::Forward { next_hop, packet } => {
            assert_eq!(next_hop, routes[1][1]);
            assert_eq!(packet.tag, tag, "the pinned route keeps the tag");
        }
        other => panic!("expected a data packet forwarded, got {other:?}"),
    }
    assert!(net.routers[0].poll_output().is_none());
    assert_eq!(net.transmissions.len(), before);
}

/// Random geometric graph: `n` nodes in the unit square, linked within `radius`.
fn geometric(n: usize, radius: f64, seed: u64) -> Vec<Vec<bool>> {
    let mut rng = Rng::from_seed(seed);
    let pts: Vec<(f64, f64)> = (0..n).map(|_| (rng.uniform(), rng.uniform())).collect();
    let mut links = vec![vec![false; n]; n];
    for i in 0..n {
        for j in 0..n {
            let (dx, dy) = (pts[i].0 - pts[j].0, pts[i].1 - pts[j].1);
            links[i][j] = i != j && dx * dx + dy * dy <= radius * radius;
        }
    }
    links
}

fn connected(links: &[Vec<bool>]) -> bool {
    let n = links.len();
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if links[i][j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|s| *s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// After discoveries in a random connected geometric graph, `disjoint_routes` returns valid,
    /// pairwise node-disjoint paths, more than one whenever the cache holds two disjoint ones;
    /// a link failure reports `RouteBroken` for the routes it cuts in the same call. Every data
    /// packet of the run ends exactly once with its own tag
    /// ([`TestNet::check_conservation`]).
    #[test]
    fn disjoint_routes_in_random_graphs(n in 10usize..=30, seed in any::<u64>(), radius in 0.3f64..0.5) {
        let links = geometric(n, radius, seed);
        prop_assume!(connected(&links));
        let (mut net, handles) = network(n, &DsrConfig::default(), seed);
        net.links = links.clone();
        let dsts: Vec<usize> = (1..n).step_by(n / 4).collect();
        for (k, &d) in dsts.iter().enumerate() {
            net.send_at(ms(10 * k as u64), 0, TestNet::data_packet(0, d, 10, k as u16));
        }
        net.run_until(ms(3000));
        if let Err(e) = net.check_conservation() {
            return Err(TestCaseError::fail(format!("tags not conserved:\n{e}")));
        }
        let now = net.now;
        let me = TestNet::addr(0);
        let src = handles[0].lock();
        for &d in &dsts {
            let dst = TestNet::addr(d);
            let routes = src.disjoint_routes(now, dst, 8);
            prop_assert!(!routes.is_empty(), "no route to {}", d);
            let mut used = std::collections::BTreeSet::new();
            for r in &routes {
                prop_assert_eq!(r[0], me);
                prop_assert_eq!(*r.last().expect("non-empty"), dst);
                for w in r.windows(2) {
                    let (i, j) = (TestNet::node_of(w[0]).expect("node"), TestNet::node_of(w[1]).expect("node"));
                    prop_assert!(links[i][j], "{:?} is not a path", r);
                }
                for x in &r[1..r.len() - 1] {
                    prop_assert!(used.insert(*x), "shared node {} in {:?}", x, routes);
                }
            }
            prop_assert!(routes.windows(2).all(|w| w[0].len() <= w[1].len()));
            // Two disjoint cached routes exist ⇒ more than one returned.
            let mut all: Vec<Vec<Ipv4Addr>> = Vec::new();
            for p in src.cached_paths() {
                if let Some(i) = p.iter().position(|a| *a == dst) {
                    let r = p[..=i].to_vec();
                    if !all.contains(&r) {
                        all.push(r);
                    }
                }
            }
            let disjoint_pair = all.iter().enumerate().any(|(i, x)| all[i + 1..].iter().any(|y| {
                x[1..x.len() - 1].iter().all(|a| !y[1..y.len() - 1].contains(a))
            }));
            if disjoint_pair {
                prop_assert!(routes.len() >= 2, "cache has disjoint routes {:?}, got {:?}", all, routes);
            }
        }
        src.check_invariants(now);
        drop(src);
        // Break the first hop of the shortest route to the first destination: RouteBroken for
        // it in the same call.
        let dst = TestNet::addr(dsts[0]);
        let mut d0 = handles[0].lock();
        let first = d0.disjoint_routes(now, dst, 1);
        let hop = first[0][1];
        let behind: std::collections::BTreeSet<Ipv4Addr> = d0
            .cached_paths()
            .iter()
            .filter(|p| p[1] == hop)
            .flat_map(|p| p[1..].to_vec())
            .collect();
        d0.handle_link_failure(now, hop, Vec::new());
        let events: Vec<RoutingEvent> = std::iter::from_fn(|| d0.poll_event()).collect();
        let link_broken = RoutingEvent::LinkBroken { next_hop: hop };
        prop_assert!(events.contains(&link_broken));
        for b in behind {
            let broken = RoutingEvent::RouteBroken { dst: b };
            prop_assert!(events.contains(&broken), "{} missing in {:?}", b, events);
        }
        prop_assert!(d0.cached_paths().iter().all(|p| p[1] != hop));
        // The path manager's question: the broken route is gone, the others stay.
        prop_assert!(!d0.has_route(now, &first[0]));
        for r in d0.disjoint_routes(now, dst, 8) {
            prop_assert!(d0.has_route(now, &r));
        }
        d0.check_invariants(now);
    }

    /// Random bytes (and random bytes behind a valid IPv4 header with protocol 48) never make
    /// a router panic; what does not parse is counted as malformed.
    #[test]
    fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..120), wrap in any::<bool>()) {
        let a = TestNet::addr;
        let mut d = Dsr::new(a(1), DsrConfig::default(), Rng::from_seed(9));
        let input = if wrap {
            let ip = Ipv4Repr {
                src_addr: a(0),
                dst_addr: if bytes.first().is_some_and(|b| b & 1 == 0) { a(1) } else { a(2) },
                protocol: IP_PROTOCOL_DSR,
                payload_len: bytes.len(),
                ttl: 9,
                ident: 1,
                dscp: 0,
                dont_frag: false,
            };
            let mut out = vec![0u8; ip.buffer_len()];
            ip.emit(&mut Ipv4Packet::new_unchecked(&mut out[..]));
            out[20..].copy_from_slice(&bytes);
            out
        } else {
            bytes.clone()
        };
        // Whatever the decisions are, none may panic (what they are is tested elsewhere).
        let _ = d.handle_receive(ms(0), a(0), Packet::untagged(input.clone()));
        d.handle_link_failure(ms(1), a(2), vec![Packet::untagged(input.clone())]);
        let _ = d.handle_send(ms(2), Packet::untagged(input));
        d.handle_timeout(ms(100_000));
        while d.poll_output().is_some() {}
        while d.poll_event().is_some() {}
        if !wrap && Ipv4Packet::new_checked(&bytes[..]).is_err() {
            prop_assert!(d.counters().malformed >= 1);
        }
        d.check_invariants(ms(100_000));
    }
}

/// The run of [`link_break_run`] as a pcap (LINKTYPE_RAW); tshark must find nothing
/// malformed. Skipped when tshark is not installed.
#[test]
fn tshark_dissects_a_dsr_capture() {
    let (net, _) = link_break_run();
    // SCTPSIM_DSR_PCAP=/some/file keeps the capture for inspection.
    let keep = std::env::var_os("SCTPSIM_DSR_PCAP");
    let path = keep
        .clone()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("sctpsim-dsr-{}.pcap", std::process::id()))
        });
    {
        let file = std::fs::File::create(&path).expect("create pcap");
        let mut w = sctpsim_wire::PcapWriter::new(
            std::io::BufWriter::new(file),
            sctpsim_wire::pcap::LINKTYPE_RAW,
        )
        .expect("pcap header");
        for t in &net.transmissions {
            w.write_packet(t.time.as_nanos(), &t.packet)
                .expect("pcap record");
        }
    }
    let run = |args: &[&str]| {
        std::process::Command::new("tshark")
            .arg("-r")
            .arg(&path)
            .args(args)
            .output()
    };
    let Ok(out) = run(&["-Y", "_ws.malformed || _ws.expert.severity >= error"]) else {
        eprintln!("tshark not found; skipped");
        let _ = std::fs::remove_file(&path);
        return;
    };
    let malformed = String::from_utf8_lossy(&out.stdout).to_string();
    if let Ok(summary) = run(&["-q", "-z", "io,phs"]) {
        println!("{}", String::from_utf8_lossy(&summary.stdout));
    }
    if let Ok(sample) = run(&["-V", "-c", "3"]) {
        println!("{}", String::from_utf8_lossy(&sample.stdout));
    }
    if keep.is_none() {
        let _ = std::fs::remove_file(&path);
    }
    assert!(
        out.status.success(),
        "tshark failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        malformed.trim().is_empty(),
        "tshark flags packets:\n{malformed}"
    );
}

fn control_packet(src: Ipv4Addr, dst: Ipv4Addr, options: Vec<DsrOption>) -> Vec<u8> {
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IP_PROTOCOL_DSR,
        payload_len: 0,
        ttl: 64,
        ident: 1,
        dscp: 0,
        dont_frag: false,
    };
    let dsr = DsrRepr {
        next_header: 59,
        options,
    };
    dsr_packet(&ip, &dsr, &[]).expect("encodes")
}

/// A Route Error received for a cached route: the link leaves the cache and `RouteBroken`
/// comes out of the same `handle_receive` call.
#[test]
fn route_error_reception_breaks_routes_in_same_call() {
    let a = TestNet::addr;
    let mut d = Dsr::new(a(0), DsrConfig::default(), Rng::from_seed(4));
    let sr = |addresses: Vec<Ipv4Addr>| DsrOption::SourceRoute {
        first_hop_external: false,
        last_hop_external: false,
        salvage: 0,
        segs_left: 0,
        addresses,
    };
    let reply = DsrOption::RouteReply {
        last_hop_external: false,
        addresses: vec![a(1), a(2), a(3)],
    };
    let d0 = d.handle_receive(
        ms(0),
        a(1),
        Packet::untagged(control_packet(
            a(3),
            a(0),
            vec![reply, sr(vec![a(2), a(1)])],
        )),
    );
    assert_eq!(d0, Decision::Consumed, "a reply for this node is control");
    assert_eq!(d.cached_paths(), vec![path(&[0, 1, 2, 3])]);
    assert!(std::iter::from_fn(|| d.poll_event()).next().is_none());
    let error = DsrOption::RouteError {
        salvage: 0,
        error_src: a(2),
        error_dst: a(0),
        kind: sctpsim_wire::dsr::RouteErrorKind::NodeUnreachable(a(3)),
    };
    let d5 = d.handle_receive(
        ms(5),
        a(1),
        Packet::untagged(control_packet(a(2), a(0), vec![error, sr(vec![a(1)])])),
    );
    assert_eq!(d5, Decision::Consumed, "an error for this node is control");
    let events: Vec<RoutingEvent> = std::iter::from_fn(|| d.poll_event()).collect();
    assert_eq!(events, vec![RoutingEvent::RouteBroken { dst: a(3) }]);
    assert_eq!(d.cached_paths(), vec![path(&[0, 1, 2])]);
    assert_eq!(d.counters().rx.get("rerr").map(|c| c.packets), Some(1));
    assert_eq!(d.counters().rx.get("rrep").map(|c| c.packets), Some(1));
}

/// `salvage = false` (OPNET's DSR as Ye et al. 2003 §4 describe it): node 2 does not salvage
/// over the detour but still tells node 0, and the packets the MAC gave up on are lost where
/// they failed; with salvaging (the default) node 2 salvages them.
#[test]
fn without_salvaging_packets_are_dropped_where_the_mac_gave_up() {
    let cfg = DsrConfig {
        salvage: false,
        ..DsrConfig::default()
    };
    let (mut net, _) = network(7, &cfg, 11);
    net.line();
    net.set_link(4, 5, false);
    net.set_link(5, 6, true);
    net.set_link(2, 5, true);
    net.set_link(6, 4, true);
    for k in 0..100u64 {
        net.send_at(ms(50 * k), 0, TestNet::data_packet(0, 4, 200, k as u16));
    }
    net.run_until(ms(1000));
    net.set_link(2, 3, false);
    net.run_until(ms(6000));
    let c2 = net.routers[2].counters();
    assert!(c2.link_breaks >= 1 && c2.route_errors_sent >= 1, "{c2:?}");
    assert_eq!(c2.salvaged, 0);
    let lost = c2
        .drops
        .get(&RouteDropReason::LinkBroken)
        .copied()
        .unwrap_or(0);
    assert!(lost >= 1, "{c2:?}");
    // Node 0 heard the error and moved on: most packets still arrive.
    let delivered = net.delivered.iter().filter(|(n, _, _)| *n == 4).count();
    assert!(
        delivered >= 90 && delivered <= 100 - lost as usize,
        "delivered {delivered}"
    );
}

/// The source's own packet that its MAC gave up on: re-routed by default, dropped without
/// salvaging (the line 0-1-2-3 breaks at its first link).
#[test]
fn without_salvaging_the_sources_own_packet_is_dropped() {
    for salvage in [true, false] {
        let cfg = DsrConfig {
            salvage,
            ..DsrConfig::default()
        };
        let (mut net, _) = network(4, &cfg, 5);
        net.line();
        for k in 0..40u64 {
            net.send_at(ms(50 * k), 0, TestNet::data_packet(0, 3, 200, k as u16));
        }
        net.run_until(ms(1000));
        net.set_link(0, 1, false);
        net.run_until(ms(3000));
        let c0 = net.routers[0].counters();
        let broken = c0
            .drops
            .get(&RouteDropReason::LinkBroken)
            .copied()
            .unwrap_or(0);
        if salvage {
            assert_eq!(broken, 0, "{c0:?}");
        } else {
            assert!(broken >= 1, "{c0:?}");
        }
    }
}
