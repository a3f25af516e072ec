//! Target `olsr`: the OLSR codec and OLSR routers.
//!
//! Per case:
//! * the codec (`sctpsim_wire::olsr::fuzz_parse_olsr`: parse, and when that works emit and
//!   re-parse to the same value) on random bytes, on forged packets of random messages, and on
//!   mutations of packets the routers really sent;
//! * 2–7 routers with random willingness, link-layer notification on or off and random
//!   (sometimes very short) intervals, in a small network whose links flip at random. The
//!   network lives here rather than in `TestNet` because the invariant checks need the concrete
//!   `Olsr` (TestNet holds `Box<dyn Router>`). Control packets in flight are dropped,
//!   duplicated, reordered or mutated; forged OLSR packets (random HELLO link codes and
//!   addresses, TCs with random ANSNs, MID, HNA, unknown types, random TTLs and Vtimes) with
//!   repaired checksums, raw random bytes and data packets are injected; time jumps wake the
//!   timers.
//!
//! After every input each router's invariants are checked (`Olsr::check_invariants`: no route
//! to itself, every next hop a symmetric neighbour, MPRs, MPR selectors and 2-hop tuples only
//! through symmetric neighbours), output draining must terminate, and every output must carry
//! no tag or the tag of data a node originated.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use sctpsim_kernel::{Packet, Rng, SimDuration, SimTime};
use sctpsim_proto::routing::olsr::{Olsr, OlsrConfig};
use sctpsim_proto::routing::{Decision, Router, RoutingOutput};
use sctpsim_wire::olsr::{
    fuzz_parse_olsr, HelloRepr, LinkCode, LinkMessage, MessageBody, MessageRepr, OlsrRepr, TcRepr,
    UDP_PORT,
};
use sctpsim_wire::{udp_datagram, Ipv4Packet, UdpPacket, UdpRepr};

/// What one case did, summed into the report.
#[derive(Debug, Default, Clone)]
pub(crate) struct Counts {
    cases: u64,
    codec_inputs: u64,
    codec_parsed: u64,
    delivered: u64,
    forged: u64,
    link_flips: u64,
    malformed: u64,
    routes: u64,
    data_sent: u64,
}

impl crate::driver::Tally for Counts {
    fn add(&mut self, o: &Counts) {
        self.cases += o.cases;
        self.codec_inputs += o.codec_inputs;
        self.codec_parsed += o.codec_parsed;
        self.delivered += o.delivered;
        self.forged += o.forged;
        self.link_flips += o.link_flips;
        self.malformed += o.malformed;
        self.routes += o.routes;
        self.data_sent += o.data_sent;
    }

    fn progress(&self) -> String {
        format!(
            "{} cases, {} packets delivered, {} forged, {} codec inputs",
            self.cases, self.delivered, self.forged, self.codec_inputs
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} codec inputs ({} parsed and round-tripped), {} packets delivered to routers, {} forged packets, {} link flips, {} data packets sent, {} counted malformed, {} routes held at case ends",
            self.codec_inputs, self.codec_parsed, self.delivered, self.forged, self.link_flips,
            self.data_sent, self.malformed, self.routes
        )
    }
}

/// How this target damages packets (`driver::mutate`).
const MUTATION: crate::driver::Mutation = crate::driver::Mutation {
    max_extend: 20,
    overwrite_from: None,
    max_overwrite: 0,
};

fn addr(i: usize) -> Ipv4Addr {
    Ipv4Addr::new(10, 128, 0, i as u8 + 1)
}

/// An address from the network, a few outsiders, or anything.
fn some_addr(rng: &mut Rng, n: usize) -> Ipv4Addr {
    match rng.below(10) {
        0 => Ipv4Addr::from(rng.next_u64() as u32),
        1 => Ipv4Addr::BROADCAST,
        2 => addr(n + rng.below(3) as usize),
        _ => addr(rng.below(n as u64) as usize),
    }
}

fn random_config(rng: &mut Rng) -> OlsrConfig {
    let mut cfg = OlsrConfig::default();
    if rng.bernoulli(0.5) {
        let scale = 1 + rng.below(20);
        let ms = |x: u64| SimDuration::from_millis(x);
        cfg.hello_interval = ms(100 * scale);
        cfg.tc_interval = ms(250 * scale);
        cfg.neighb_hold_time = ms(300 * scale);
        cfg.top_hold_time = ms(750 * scale);
        cfg.dup_hold_time = ms(rng.below(5000));
        cfg.max_jitter = ms(rng.below(30 * scale));
    }
    cfg.willingness = rng.below(8) as u8;
    cfg.link_layer_notification = rng.bernoulli(0.5);
    cfg
}

fn forge_message(rng: &mut Rng, n: usize) -> MessageRepr {
    let body = match rng.below(6) {
        0 | 1 => MessageBody::Hello(HelloRepr {
            htime: rng.next_u64() as u8,
            willingness: rng.below(9) as u8,
            links: (0..rng.below(4))
                .map(|_| LinkMessage {
                    code: LinkCode(if rng.bernoulli(0.8) {
                        rng.below(16) as u8
                    } else {
                        rng.next_u64() as u8
                    }),
                    addrs: (0..rng.below(5)).map(|_| some_addr(rng, n)).collect(),
                })
                .collect(),
        }),
        2 | 3 => MessageBody::Tc(TcRepr {
            ansn: rng.next_u64() as u16,
            neighbors: (0..rng.below(6)).map(|_| some_addr(rng, n)).collect(),
        }),
        4 => MessageBody::Mid((0..rng.below(4)).map(|_| some_addr(rng, n)).collect()),
        _ => {
            if rng.bernoulli(0.5) {
                MessageBody::Hna(
                    (0..rng.below(3))
                        .map(|_| (some_addr(rng, n), some_addr(rng, n)))
                        .collect(),
                )
            } else {
                MessageBody::Unknown {
                    msg_type: 5 + rng.below(250) as u8,
                    data: (0..rng.below(12)).map(|_| rng.next_u64() as u8).collect(),
                }
            }
        }
    };
    MessageRepr {
        vtime: rng.next_u64() as u8,
        originator: some_addr(rng, n),
        ttl: [0, 1, 2, 255, rng.next_u64() as u8][rng.below(5) as usize],
        hop_count: rng.next_u64() as u8,
        seq: if rng.bernoulli(0.5) {
            rng.below(8) as u16
        } else {
            rng.next_u64() as u16
        },
        body,
    }
}

/// A forged OLSR packet from `src` with valid checksums.
fn forge_packet(rng: &mut Rng, n: usize, src: Ipv4Addr) -> Vec<u8> {
    let repr = OlsrRepr {
        seq: rng.next_u64() as u16,
        messages: (0..1 + rng.below(3))
            .map(|_| forge_message(rng, n))
            .collect(),
    };
    let payload = repr.to_bytes().unwrap_or_default();
    let udp = UdpRepr {
        src_port: UDP_PORT,
        dst_port: UDP_PORT,
    };
    udp_datagram(src, Ipv4Addr::BROADCAST, 1, 0, &udp, &payload)
}

/// Re-computes the UDP and IPv4 checksums of a (mutated) packet so that the damage reaches the
/// OLSR parser and the repositories rather than stopping at a checksum.
fn repair_checksums(bytes: &mut [u8]) {
    let Ok(mut ip) = Ipv4Packet::new_checked(&mut *bytes) else {
        return;
    };
    ip.fill_checksum();
    let (src, dst) = (ip.src_addr(), ip.dst_addr());
    let payload = ip.payload_mut();
    if let Ok(mut udp) = UdpPacket::new_checked(payload) {
        udp.fill_checksum(src, dst);
    }
}

#[derive(Debug)]
enum Action {
    Receive(Ipv4Addr, Packet),
    LinkFailure(Ipv4Addr, Packet),
}

struct Net {
    routers: Vec<Olsr>,
    links: Vec<Vec<bool>>,
    queue: BTreeMap<(SimTime, u64), (usize, Action)>,
    seq: u64,
    sent: Vec<Vec<u8>>,
    /// Tags given to originated data so far.
    tags: u64,
}

impl Net {
    fn push(&mut self, t: SimTime, node: usize, a: Action) {
        self.seq += 1;
        self.queue.insert((t, self.seq), (node, a));
    }

    /// Puts into effect the router's decision for the packet it was handed (if any: a
    /// forwarded packet goes on its hop first), then its outputs.
    fn drain(&mut self, rng: &mut Rng, node: usize, now: SimTime, decision: Option<Decision>) {
        match decision {
            Some(Decision::Forward { next_hop, packet }) => {
                crate::driver::assert_known_tag(packet.tag, self.tags);
                self.send(rng, node, now, next_hop, packet);
            }
            Some(Decision::Deliver(packet) | Decision::Drop { packet, .. }) => {
                crate::driver::assert_known_tag(packet.tag, self.tags);
            }
            Some(Decision::Buffered | Decision::Consumed) | None => {}
        }
        let mut n = 0;
        while let Some(out) = self.routers[node].poll_output() {
            n += 1;
            assert!(n < 100_000, "poll_output does not terminate");
            let (RoutingOutput::Transmit { packet, .. } | RoutingOutput::Drop { packet, .. }) =
                &out;
            crate::driver::assert_known_tag(packet.tag, self.tags);
            if let RoutingOutput::Transmit {
                next_hop, packet, ..
            } = out
            {
                self.send(rng, node, now, next_hop, packet);
            }
        }
        while self.routers[node].poll_event().is_some() {}
        self.routers[node].check_invariants();
    }

    /// `packet` leaves `node` for `next_hop` (broadcast: every neighbour, each copy lost
    /// with probability 0.05; a non-neighbour: a link failure after 10 ms).
    fn send(
        &mut self,
        rng: &mut Rng,
        node: usize,
        now: SimTime,
        next_hop: Ipv4Addr,
        packet: Packet,
    ) {
        if self.sent.len() < 64 {
            self.sent.push(packet.bytes.clone());
        }
        let me = addr(node);
        let delay = SimDuration::from_micros(100 + rng.below(5000));
        if next_hop == Ipv4Addr::BROADCAST {
            for j in 0..self.routers.len() {
                if self.links[node][j] && !rng.bernoulli(0.05) {
                    self.push(now + delay, j, Action::Receive(me, packet.clone()));
                }
            }
        } else {
            match (0..self.routers.len()).find(|j| addr(*j) == next_hop) {
                Some(j) if self.links[node][j] => {
                    self.push(now + delay, j, Action::Receive(me, packet));
                }
                _ => self.push(
                    now + SimDuration::from_millis(10),
                    node,
                    Action::LinkFailure(next_hop, packet),
                ),
            }
        }
    }
}

/// One case.
pub(crate) fn olsr_case(seed: u64) -> Counts {
    let mut rng = Rng::from_seed(seed);
    let mut counts = Counts {
        cases: 1,
        ..Counts::default()
    };
    let codec = |bytes: &[u8], counts: &mut Counts| {
        counts.codec_inputs += 1;
        if OlsrRepr::parse(bytes).is_ok() {
            counts.codec_parsed += 1;
        }
        fuzz_parse_olsr(bytes);
    };
    for _ in 0..4 {
        let len = rng.below(100) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        codec(&bytes, &mut counts);
    }
    let n = 2 + rng.below(6) as usize;
    let mut net = Net {
        routers: (0..n)
            .map(|i| {
                Olsr::new(
                    addr(i),
                    random_config(&mut rng),
                    Rng::from_seed(rng.next_u64()),
                )
            })
            .collect(),
        links: vec![vec![false; n]; n],
        queue: BTreeMap::new(),
        seq: 0,
        sent: Vec::new(),
        tags: 0,
    };
    let density = rng.uniform();
    for i in 0..n {
        for j in i + 1..n {
            let up = rng.bernoulli(density);
            net.links[i][j] = up;
            net.links[j][i] = up;
        }
    }
    let mut now = SimTime::ZERO;
    for _step in 0..400 {
        match rng.below(20) {
            0 => {
                // A link flips.
                let (i, j) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if i != j {
                    let up = !net.links[i][j];
                    net.links[i][j] = up;
                    net.links[j][i] = up;
                    counts.link_flips += 1;
                }
            }
            1 => {
                // A forged OLSR packet, or a mutated real one, or random bytes.
                let node = rng.below(n as u64) as usize;
                let src = some_addr(&mut rng, n);
                let mut p = match rng.below(3) {
                    0 => forge_packet(&mut rng, n, src),
                    1 if !net.sent.is_empty() => {
                        let mut p = net.sent[rng.below(net.sent.len() as u64) as usize].clone();
                        crate::driver::mutate(&mut rng, &mut p, MUTATION);
                        if rng.bernoulli(0.7) {
                            repair_checksums(&mut p);
                        }
                        p
                    }
                    _ => (0..rng.below(80)).map(|_| rng.next_u64() as u8).collect(),
                };
                if let Ok(ip) = Ipv4Packet::new_checked(&p[..]) {
                    if let Ok(udp) = UdpPacket::new_checked(ip.payload()) {
                        let payload = udp.payload().to_vec();
                        codec(&payload, &mut counts);
                    }
                }
                if rng.bernoulli(0.1) {
                    crate::driver::mutate(&mut rng, &mut p, MUTATION);
                }
                let d = net.routers[node].handle_receive(now, src, Packet::untagged(p));
                counts.forged += 1;
                net.drain(&mut rng, node, now, Some(d));
            }
            2 => {
                // Data between two nodes (maybe to outsiders or itself).
                let src = rng.below(n as u64) as usize;
                let dst = some_addr(&mut rng, n);
                let udp = UdpRepr {
                    src_port: 9,
                    dst_port: if rng.bernoulli(0.1) { UDP_PORT } else { 9 },
                };
                let ttl = [0, 1, 2, 64][rng.below(4) as usize];
                net.tags += 1;
                let p = Packet {
                    bytes: udp_datagram(addr(src), dst, ttl, 1, &udp, &[0u8; 20]),
                    tag: crate::driver::data_tag(src, net.tags),
                };
                let d = net.routers[src].handle_send(now, p);
                counts.data_sent += 1;
                net.drain(&mut rng, src, now, Some(d));
            }
            3 | 4 => {
                // Time passes; every router's due timers run, plus a stale wake-up.
                now += SimDuration::from_millis(rng.below(3000));
                for i in 0..n {
                    while let Some(t) = net.routers[i].poll_timeout().filter(|t| *t <= now) {
                        net.routers[i].handle_timeout(t);
                        net.drain(&mut rng, i, t, None);
                    }
                    net.routers[i].handle_timeout(now);
                    net.drain(&mut rng, i, now, None);
                }
            }
            _ => {
                // Deliver the earliest event (sometimes a random one: reordering), maybe
                // mutated or duplicated; timers due before it run first.
                let key = if rng.bernoulli(0.1) && !net.queue.is_empty() {
                    let k = rng.below(net.queue.len() as u64) as usize;
                    net.queue.keys().nth(k).copied()
                } else {
                    net.queue.keys().next().copied()
                };
                let Some(key) = key else {
                    now += SimDuration::from_millis(100);
                    continue;
                };
                let Some((node, action)) = net.queue.remove(&key) else {
                    continue;
                };
                let t = key.0.max(now);
                for i in 0..n {
                    while let Some(w) = net.routers[i].poll_timeout().filter(|w| *w <= t) {
                        net.routers[i].handle_timeout(w.max(now));
                        net.drain(&mut rng, i, w.max(now), None);
                    }
                }
                now = t;
                let mut decision = None;
                match action {
                    Action::Receive(prev, mut p) => {
                        if rng.bernoulli(0.05) {
                            net.push(
                                now + SimDuration::from_millis(1),
                                node,
                                Action::Receive(prev, p.clone()),
                            );
                        }
                        if rng.bernoulli(0.05) {
                            crate::driver::mutate(&mut rng, &mut p.bytes, MUTATION);
                            if rng.bernoulli(0.5) {
                                repair_checksums(&mut p.bytes);
                            }
                        }
                        let d = net.routers[node].handle_receive(now, prev, p);
                        counts.delivered += 1;
                        decision = Some(d);
                    }
                    Action::LinkFailure(next, p) => {
                        net.routers[node].handle_link_failure(now, next, vec![p]);
                    }
                }
                net.drain(&mut rng, node, now, decision);
            }
        }
    }
    for p in net.sent.clone() {
        let mut p = p;
        crate::driver::mutate(&mut rng, &mut p, MUTATION);
        let payload = p.get(28..).unwrap_or(&[]).to_vec();
        codec(&payload, &mut counts);
    }
    for r in &net.routers {
        counts.malformed += r.counters().malformed;
        counts.routes += r.routes().len() as u64;
    }
    counts
}
