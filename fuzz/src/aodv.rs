//! Target `aodv`: the AODV codec and the AODV router.
//!
//! Per case:
//! * the codec (`sctpsim_wire::aodv::fuzz_parse_aodv`, which re-emits and re-parses whatever
//!   parses) on random bytes and on mutations of random valid messages;
//! * a small `TestNet` of 3–7 AODV routers with a random configuration and random links, plus
//!   one injector node that transmits forged and mutated AODV packets (and replays of real
//!   ones) to its neighbours, with random data traffic, link changes and time steps. After
//!   every step each router's next hops must be nodes it has ever been linked to, never itself,
//!   and no router may be left with a deadline at or before the current time; every packet
//!   delivered, dropped or transmitted must carry no tag or the tag of data a node originated;
//! * a standalone router fed random and mutated packets from random previous hops, link
//!   failures, sends and timer wake-ups: after every `handle_timeout(t)` its next deadline
//!   must be later than `t` (no wake-up loop), every next hop in its table must be a
//!   previous hop it was given, and every output must carry no tag or one the harness gave.
//!
//! Nothing may panic.

use std::collections::{BTreeSet, VecDeque};
use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex};

use sctpsim_kernel::{Packet, PacketTag, Rng, SimDuration, SimTime};
use sctpsim_proto::routing::aodv::{Aodv, AodvConfig};
use sctpsim_proto::routing::testnet::TestNet;
use sctpsim_proto::routing::{Decision, Router, RoutingCounters, RoutingEvent, RoutingOutput};
use sctpsim_wire::aodv::{
    fuzz_parse_aodv, AodvRepr, RerrRepr, RrepRepr, RreqRepr, Unreachable, AODV_PORT,
};
use sctpsim_wire::{udp_datagram, Ipv4Packet, UdpPacket, UdpRepr};

/// What one case did, summed into the report.
#[derive(Debug, Default, Clone)]
pub(crate) struct Counts {
    cases: u64,
    codec_inputs: u64,
    codec_parsed: u64,
    transmissions: u64,
    injected: u64,
    link_changes: u64,
    delivered: u64,
    discovered: u64,
    standalone_inputs: u64,
    timer_firings: u64,
}

impl crate::driver::Tally for Counts {
    fn add(&mut self, o: &Counts) {
        self.cases += o.cases;
        self.codec_inputs += o.codec_inputs;
        self.codec_parsed += o.codec_parsed;
        self.transmissions += o.transmissions;
        self.injected += o.injected;
        self.link_changes += o.link_changes;
        self.delivered += o.delivered;
        self.discovered += o.discovered;
        self.standalone_inputs += o.standalone_inputs;
        self.timer_firings += o.timer_firings;
    }

    fn progress(&self) -> String {
        format!(
            "{} cases, {} codec inputs, {} transmissions, {} injected",
            self.cases, self.codec_inputs, self.transmissions, self.injected
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} codec inputs ({} parsed and round-tripped), {} router transmissions in test networks, {} packets injected, {} link changes, {} packets delivered, {} routes discovered, {} inputs to standalone routers, {} timer firings checked",
            self.codec_inputs, self.codec_parsed, self.transmissions, self.injected,
            self.link_changes, self.delivered, self.discovered, self.standalone_inputs,
            self.timer_firings
        )
    }
}

/// How this target damages packets (`driver::mutate`).
const MUTATION: crate::driver::Mutation = crate::driver::Mutation {
    max_extend: 20,
    overwrite_from: Some(0),
    max_overwrite: 1,
};

fn bytes(rng: &mut Rng, max: u64) -> Vec<u8> {
    let n = rng.below(max + 1) as usize;
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// An address: mostly a node of the network, sometimes anything.
fn addr(rng: &mut Rng, nodes: usize) -> Ipv4Addr {
    match rng.below(10) {
        0 => Ipv4Addr::BROADCAST,
        1 => Ipv4Addr::UNSPECIFIED,
        2 => Ipv4Addr::from(rng.next_u64() as u32),
        3 => Ipv4Addr::new(224, 0, 0, 1),
        _ => TestNet::addr(rng.below(nodes as u64 + 2) as usize),
    }
}

/// A sequence number near the small values routers use, or anywhere (wraparound).
fn seq(rng: &mut Rng) -> u32 {
    match rng.below(4) {
        0 => rng.next_u64() as u32,
        1 => u32::MAX - rng.below(4) as u32,
        _ => rng.below(12) as u32,
    }
}

fn random_msg(rng: &mut Rng, nodes: usize) -> AodvRepr {
    match rng.below(4) {
        0 => AodvRepr::Rreq(RreqRepr {
            join: rng.bernoulli(0.1),
            repair: rng.bernoulli(0.1),
            gratuitous: rng.bernoulli(0.3),
            destination_only: rng.bernoulli(0.3),
            unknown_seq: rng.bernoulli(0.5),
            hop_count: pick(rng, &[0, 1, 2, 5, 254, 255]),
            rreq_id: rng.below(6) as u32,
            dst: addr(rng, nodes),
            dst_seq: seq(rng),
            orig: addr(rng, nodes),
            orig_seq: seq(rng),
        }),
        1 => AodvRepr::Rrep(RrepRepr {
            repair: rng.bernoulli(0.1),
            ack_required: rng.bernoulli(0.3),
            prefix_size: rng.below(40) as u8,
            hop_count: pick(rng, &[0, 0, 1, 3, 255]),
            dst: addr(rng, nodes),
            dst_seq: seq(rng),
            orig: addr(rng, nodes),
            lifetime_ms: pick(rng, &[0, 1, 100, 3000, 6000, u32::MAX]),
        }),
        2 => AodvRepr::Rerr(RerrRepr {
            no_delete: rng.bernoulli(0.3),
            unreachable: (0..1 + rng.below(4))
                .map(|_| Unreachable {
                    dst: addr(rng, nodes),
                    seq: seq(rng),
                })
                .collect(),
        }),
        _ => AodvRepr::RrepAck,
    }
}

/// An IPv4 + UDP/654 packet from `src` carrying `msg` (or, sometimes, garbage), maybe
/// mutated after the checksums were computed.
fn forged_packet(rng: &mut Rng, src: Ipv4Addr, nodes: usize) -> Vec<u8> {
    let udp = UdpRepr {
        src_port: AODV_PORT,
        dst_port: if rng.bernoulli(0.9) { AODV_PORT } else { 9 },
    };
    let mut payload = if rng.bernoulli(0.9) {
        random_msg(rng, nodes).to_bytes()
    } else {
        bytes(rng, 40)
    };
    if rng.bernoulli(0.2) {
        crate::driver::mutate(rng, &mut payload, MUTATION); // checksums stay valid: the AODV parser sees it
    }
    let dst = if rng.bernoulli(0.6) {
        Ipv4Addr::BROADCAST
    } else {
        addr(rng, nodes)
    };
    let ttl = pick(rng, &[0, 1, 2, 3, 35, 255]);
    let mut p = udp_datagram(src, dst, ttl, rng.next_u64() as u16, &udp, &payload);
    if rng.bernoulli(0.15) {
        crate::driver::mutate(rng, &mut p, MUTATION); // checksums or lengths break
    }
    p
}

fn random_config(rng: &mut Rng) -> AodvConfig {
    let mut cfg = AodvConfig {
        hello_enabled: rng.bernoulli(0.4),
        local_repair: rng.bernoulli(0.4),
        expanding_ring: rng.bernoulli(0.7),
        gratuitous_rrep: rng.bernoulli(0.3),
        destination_only: rng.bernoulli(0.2),
        rebuffer_on_link_failure: rng.bernoulli(0.7),
        send_buffer_capacity: pick(rng, &[0, 1, 4, 64]),
        ..AodvConfig::default()
    };
    // The ns-2 options from a copy of the stream, so that the cases drawn before they existed
    // stay the same.
    let mut side = Rng::from_seed(rng.clone().next_u64() ^ 0x0a5d_0002);
    cfg.ns2_local_repair = side.bernoulli(0.3);
    if side.bernoulli(0.2) {
        cfg.fixed_my_route_timeout = Some(SimDuration::from_millis(1 + side.below(20_000)));
        cfg.fixed_path_discovery_time = Some(SimDuration::from_millis(1_000 + side.below(9_000)));
    }
    if rng.bernoulli(0.3) {
        // Small but non-zero times: many expiries and retries within a case.
        cfg.active_route_timeout = SimDuration::from_millis(1 + rng.below(500));
        cfg.node_traversal_time = SimDuration::from_millis(1 + rng.below(10));
        cfg.hello_interval = SimDuration::from_millis(1 + rng.below(300));
        cfg.send_buffer_timeout = SimDuration::from_millis(1 + rng.below(2000));
        cfg.broadcast_jitter = SimDuration::from_millis(rng.below(3));
        cfg.rreq_ratelimit = pick(rng, &[0, 1, 2, 10]);
        cfg.rerr_ratelimit = pick(rng, &[0, 1, 10]);
        cfg.rreq_retries = pick(rng, &[0, 1, 2, 5]);
        cfg.net_diameter = pick(rng, &[0, 1, 3, 35, 255]);
        cfg.ttl_start = pick(rng, &[0, 1, 2, 40]);
        cfg.ttl_increment = pick(rng, &[0, 1, 2, 255]);
        cfg.ttl_threshold = pick(rng, &[0, 1, 7, 255]);
        cfg.delete_period_k = pick(rng, &[1, 5]);
        cfg.allowed_hello_loss = pick(rng, &[0, 1, 2]);
    }
    cfg
}

/// Packets (next hop, IPv4 packet) the harness hands to the injector.
type InjectQueue = Arc<Mutex<VecDeque<(Ipv4Addr, Vec<u8>)>>>;

/// A node that transmits whatever the harness queued when told to send.
#[derive(Debug)]
struct Injector {
    addr: Ipv4Addr,
    queue: InjectQueue,
    out: VecDeque<RoutingOutput>,
    counters: RoutingCounters,
}

impl Router for Injector {
    fn protocol(&self) -> &'static str {
        "injector"
    }
    fn addr(&self) -> Ipv4Addr {
        self.addr
    }
    fn handle_send(&mut self, _now: SimTime, _packet: Packet) -> Decision {
        if let Ok(mut q) = self.queue.lock() {
            for (next_hop, packet) in q.drain(..) {
                self.out.push_back(RoutingOutput::Transmit {
                    next_hop,
                    packet: Packet::untagged(packet),
                    control: true,
                });
            }
        }
        Decision::Consumed
    }
    fn handle_receive(&mut self, _now: SimTime, _prev_hop: Ipv4Addr, _packet: Packet) -> Decision {
        Decision::Consumed
    }
    fn handle_link_failure(&mut self, _now: SimTime, _next_hop: Ipv4Addr, _p: Vec<Packet>) {}
    fn handle_timeout(&mut self, _now: SimTime) {}
    fn poll_output(&mut self) -> Option<RoutingOutput> {
        self.out.pop_front()
    }
    fn poll_event(&mut self) -> Option<RoutingEvent> {
        None
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }
    fn counters(&self) -> &RoutingCounters {
        &self.counters
    }
    fn next_hop(&self, _dst: Ipv4Addr) -> Option<Ipv4Addr> {
        None
    }
}

/// Next hops are nodes the router was ever linked to; deadlines are in the future.
fn check_net(net: &TestNet, n: usize, ever: &[Vec<bool>]) {
    for i in 0..n {
        let r = &net.routers[i];
        for d in 0..n + 3 {
            let Some(nh) = r.next_hop(TestNet::addr(d)) else {
                continue;
            };
            assert_ne!(nh, TestNet::addr(i), "node {i} routes via itself");
            let j = TestNet::node_of(nh).unwrap_or(usize::MAX);
            assert!(
                j < ever.len() && ever[i][j],
                "node {i}: next hop {nh} for node {d} was never a neighbour"
            );
        }
        if let Some(t) = r.poll_timeout() {
            assert!(
                t > net.now,
                "node {i}: deadline {t} not after {} after running",
                net.now
            );
        }
    }
}

fn net_case(rng: &mut Rng, counts: &mut Counts) {
    let n = 3 + rng.below(5) as usize;
    let cfg = random_config(rng);
    let queue: InjectQueue = Arc::new(Mutex::new(VecDeque::new()));
    let mut routers: Vec<Box<dyn Router>> = (0..n)
        .map(|i| {
            let c = if rng.bernoulli(0.8) {
                cfg.clone()
            } else {
                random_config(rng)
            };
            Box::new(Aodv::new(
                TestNet::addr(i),
                c,
                Rng::from_seed(rng.next_u64()),
            )) as Box<dyn Router>
        })
        .collect();
    let inj = n;
    routers.push(Box::new(Injector {
        addr: TestNet::addr(inj),
        queue: queue.clone(),
        out: VecDeque::new(),
        counters: RoutingCounters::default(),
    }));
    let mut net = TestNet::new(routers);
    let mut ever = vec![vec![false; n + 1]; n + 1];
    let link = |net: &mut TestNet, ever: &mut Vec<Vec<bool>>, a: usize, b: usize, up| {
        net.set_link(a, b, up);
        if up {
            ever[a][b] = true;
            ever[b][a] = true;
        }
    };
    for i in 1..n {
        if rng.bernoulli(0.8) {
            link(&mut net, &mut ever, i - 1, i, true);
        }
    }
    for _ in 0..rng.below(4) {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a != b {
            link(&mut net, &mut ever, a, b, true);
        }
    }
    link(&mut net, &mut ever, inj, rng.below(n as u64) as usize, true);
    let mut ident = 0u16;
    for _ in 0..60 + rng.below(120) {
        let now = net.now;
        match rng.below(10) {
            0..=2 => {
                let src = rng.below(n as u64) as usize;
                let dst = rng.below(n as u64 + 2) as usize;
                ident = ident.wrapping_add(1);
                let mut p = TestNet::data_packet(src, dst, rng.below(200) as usize, ident);
                if rng.bernoulli(0.1) {
                    crate::driver::mutate(rng, &mut p, MUTATION);
                }
                net.send_at(now, src, p);
            }
            3 => {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if a != b {
                    let up = !net.links[a][b];
                    link(&mut net, &mut ever, a, b, up);
                    counts.link_changes += 1;
                }
            }
            4 => {
                // The injector moves next to another node.
                let b = rng.below(n as u64) as usize;
                let up = !net.links[inj][b];
                link(&mut net, &mut ever, inj, b, up);
                counts.link_changes += 1;
            }
            5 | 6 => {
                // Forged, or a replay (maybe mutated) of a real transmission.
                let src = TestNet::addr(inj);
                let packet = if rng.bernoulli(0.5) && !net.transmissions.is_empty() {
                    let k = rng.below(net.transmissions.len() as u64) as usize;
                    let mut p = net.transmissions[k].packet.clone();
                    if rng.bernoulli(0.5) {
                        crate::driver::mutate(rng, &mut p, MUTATION);
                    }
                    p
                } else {
                    forged_packet(rng, src, n)
                };
                let next_hop = if rng.bernoulli(0.5) {
                    Ipv4Addr::BROADCAST
                } else {
                    TestNet::addr(rng.below(n as u64) as usize)
                };
                if let Ok(mut q) = queue.lock() {
                    q.push_back((next_hop, packet));
                }
                // The trigger is not data: untagged.
                net.send_packet_at(now, inj, Packet::untagged(Vec::new()));
                counts.injected += 1;
            }
            _ => {}
        }
        let step = pick(rng, &[0, 1, 5, 50, 300, 3000]);
        net.run_until(now + SimDuration::from_millis(step));
        check_net(&net, n, &ever);
    }
    let issued = net
        .sent
        .iter()
        .filter(|(_, _, p)| p.tag != PacketTag::default())
        .count() as u64;
    let tags = net.delivered.iter().map(|(_, _, p)| p.tag);
    let tags = tags.chain(net.dropped.iter().map(|(_, _, _, p)| p.tag));
    for tag in tags.chain(net.transmissions.iter().map(|t| t.tag)) {
        crate::driver::assert_known_tag(tag, issued);
    }
    counts.transmissions += net.transmissions.len() as u64;
    counts.delivered += net.delivered.len() as u64;
    counts.discovered += net
        .events
        .iter()
        .filter(|(_, _, e)| matches!(e, RoutingEvent::RouteDiscovered { .. }))
        .count() as u64;
}

/// A router alone, fed anything from anyone.
fn standalone_case(rng: &mut Rng, counts: &mut Counts) {
    let me = TestNet::addr(0);
    let mut r = Aodv::new(me, random_config(rng), Rng::from_seed(rng.next_u64()));
    let mut heard: BTreeSet<Ipv4Addr> = BTreeSet::new();
    let mut now = SimTime::ZERO;
    let mut sent: Vec<Packet> = Vec::new();
    let mut tags = 0u64;
    for _ in 0..100 {
        match rng.below(8) {
            0..=3 => {
                let from = addr(rng, 5);
                let p = if rng.bernoulli(0.2) && !sent.is_empty() {
                    let mut p = sent[rng.below(sent.len() as u64) as usize].clone();
                    crate::driver::mutate(rng, &mut p.bytes, MUTATION);
                    p
                } else if rng.bernoulli(0.1) {
                    Packet::untagged(bytes(rng, 80))
                } else {
                    Packet::untagged(forged_packet(rng, from, 5))
                };
                heard.insert(from);
                let d = r.handle_receive(now, from, p);
                decided(d, &mut sent, tags);
            }
            4 => {
                let dst = rng.below(7) as usize;
                let mut p = TestNet::data_packet(0, dst, 20, rng.next_u64() as u16);
                if rng.bernoulli(0.2) {
                    crate::driver::mutate(rng, &mut p, MUTATION);
                }
                tags += 1;
                let tag = crate::driver::data_tag(0, tags);
                let d = r.handle_send(now, Packet { bytes: p, tag });
                decided(d, &mut sent, tags);
            }
            5 => {
                let nb = addr(rng, 5);
                let mut ps: Vec<Packet> = Vec::new();
                for _ in 0..rng.below(3) {
                    if !sent.is_empty() && rng.bernoulli(0.7) {
                        ps.push(sent[rng.below(sent.len() as u64) as usize].clone());
                    } else {
                        ps.push(Packet::untagged(bytes(rng, 60)));
                    }
                }
                r.handle_link_failure(now, nb, ps);
            }
            6 => r.handle_tx_success(now, addr(rng, 5)),
            _ => {
                now += SimDuration::from_millis(pick(rng, &[1, 10, 100, 1000, 10_000]));
                let mut n = 0;
                while let Some(t) = r.poll_timeout().filter(|t| *t <= now) {
                    r.handle_timeout(t);
                    counts.timer_firings += 1;
                    if let Some(u) = r.poll_timeout() {
                        assert!(u > t, "deadline {u} not after the wake-up at {t}");
                    }
                    n += 1;
                    assert!(n < 100_000, "timer loop does not end");
                    drain(&mut r, &mut sent, tags);
                }
                r.handle_timeout(now);
            }
        }
        counts.standalone_inputs += 1;
        drain(&mut r, &mut sent, tags);
        for (dst, e) in r.routes() {
            assert_ne!(dst, me, "a route to itself");
            assert!(
                heard.contains(&e.next_hop),
                "next hop {} never heard",
                e.next_hop
            );
        }
    }
}

/// Checks the router's decision for a packet handed in (a forwarded packet is kept for
/// replays like a transmission).
fn decided(d: Decision, sent: &mut Vec<Packet>, tags: u64) {
    match d {
        Decision::Forward { packet, .. } => {
            crate::driver::assert_known_tag(packet.tag, tags);
            if sent.len() < 200 {
                sent.push(packet);
            }
        }
        Decision::Deliver(packet) | Decision::Drop { packet, .. } => {
            crate::driver::assert_known_tag(packet.tag, tags);
        }
        Decision::Buffered | Decision::Consumed => {}
    }
}

/// Drains the router's outputs (keeping up to 200 transmissions, tags and all, for replays);
/// `tags` data tags were issued.
fn drain(r: &mut Aodv, sent: &mut Vec<Packet>, tags: u64) {
    for _ in 0..100_000 {
        match r.poll_output() {
            Some(RoutingOutput::Transmit { packet, .. }) => {
                crate::driver::assert_known_tag(packet.tag, tags);
                if sent.len() < 200 {
                    sent.push(packet);
                }
            }
            Some(RoutingOutput::Drop { packet, .. }) => {
                crate::driver::assert_known_tag(packet.tag, tags);
            }
            None => break,
        }
    }
    while r.poll_event().is_some() {}
}

fn codec(data: &[u8], counts: &mut Counts) {
    fuzz_parse_aodv(data);
    counts.codec_inputs += 1;
    if AodvRepr::parse(data).is_ok() {
        counts.codec_parsed += 1;
    }
    // The whole IPv4/UDP path too.
    if let Ok(ip) = Ipv4Packet::new_checked(data) {
        if let Ok(udp) = UdpPacket::new_checked(ip.payload()) {
            fuzz_parse_aodv(udp.payload());
        }
    }
}

pub(crate) fn aodv_case(seed: u64) -> Counts {
    let mut rng = Rng::from_seed(seed);
    let mut counts = Counts {
        cases: 1,
        ..Counts::default()
    };
    for _ in 0..8 {
        let b = bytes(&mut rng, 60);
        codec(&b, &mut counts);
        let msg = random_msg(&mut rng, 5);
        let mut b = msg.to_bytes();
        if let Ok(back) = AodvRepr::parse(&b) {
            // Prefix sizes above 31 do not fit the 5-bit field.
            if let (AodvRepr::Rrep(a), AodvRepr::Rrep(z)) = (&msg, &back) {
                assert_eq!(a.prefix_size & 0x1f, z.prefix_size);
            } else {
                assert_eq!(back, msg, "round trip");
            }
        }
        crate::driver::mutate(&mut rng, &mut b, MUTATION);
        codec(&b, &mut counts);
    }
    net_case(&mut rng, &mut counts);
    standalone_case(&mut rng, &mut counts);
    counts
}
