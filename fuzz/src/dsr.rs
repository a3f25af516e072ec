//! Target `dsr`: the DSR codec and DSR routers.
//!
//! Per case:
//! * the codec (`sctpsim_wire::dsr::fuzz_parse_dsr`, which re-emits what parses and checks the
//!   round trip) on random bytes, on headers built from random options (round trip checked
//!   here too) and on mutations of both;
//! * 3–8 routers with random configurations on a random topology whose links go up and down;
//!   nodes originate data (also over routes from `disjoint_routes`, and over made-up routes),
//!   packets in flight are dropped, duplicated, reordered and mutated, forged DSR packets
//!   (random requests, replies, errors, source routes with addresses of the network) and
//!   random bytes are injected, link failures are reported with random packets, and timers
//!   fire at random times.
//!
//! After every input the router's invariants are checked (`Dsr::check_invariants`: cached
//! routes start at the node and are loop-free, `disjoint_routes` are node-disjoint),
//! `poll_output` must terminate, and every output must carry no tag or the tag of data a node
//! originated (packets in flight keep their tags, forged ones have none).

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use sctpsim_kernel::{Packet, Rng, SimDuration, SimTime};
use sctpsim_proto::routing::dsr::{Dsr, DsrConfig};
use sctpsim_proto::routing::{Decision, Router, RoutingOutput};
use sctpsim_wire::dsr::{
    dsr_packet, fuzz_parse_dsr, DsrOption, DsrRepr, RouteErrorKind, IP_PROTOCOL_DSR,
};
use sctpsim_wire::udp::{udp_datagram, UdpRepr};
use sctpsim_wire::Ipv4Repr;

/// What one case did, summed into the report.
#[derive(Debug, Default, Clone)]
pub(crate) struct Counts {
    cases: u64,
    codec_inputs: u64,
    codec_parsed: u64,
    inputs: u64,
    forged: u64,
    delivered: u64,
    dropped: u64,
    link_changes: u64,
    timeouts: u64,
    malformed: u64,
}

impl crate::driver::Tally for Counts {
    fn add(&mut self, o: &Counts) {
        self.cases += o.cases;
        self.codec_inputs += o.codec_inputs;
        self.codec_parsed += o.codec_parsed;
        self.inputs += o.inputs;
        self.forged += o.forged;
        self.delivered += o.delivered;
        self.dropped += o.dropped;
        self.link_changes += o.link_changes;
        self.timeouts += o.timeouts;
        self.malformed += o.malformed;
    }

    fn progress(&self) -> String {
        format!(
            "{} cases, {} router inputs, {} forged, {} codec inputs",
            self.cases, self.inputs, self.forged, self.codec_inputs
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} codec inputs ({} parsed and round-tripped), {} router inputs ({} forged or random), {} packets delivered, {} dropped, {} counted malformed, {} link changes, {} timer firings",
            self.codec_inputs, self.codec_parsed, self.inputs, self.forged, self.delivered,
            self.dropped, self.malformed, self.link_changes, self.timeouts
        )
    }
}

/// How this target damages packets (`driver::mutate`).
const MUTATION: crate::driver::Mutation = crate::driver::Mutation {
    max_extend: 20,
    overwrite_from: Some(20),
    max_overwrite: 6,
};

fn addr(i: usize) -> Ipv4Addr {
    Ipv4Addr::from(0x0A80_0001u32 + i as u32)
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

fn random_bytes(rng: &mut Rng, max: u64) -> Vec<u8> {
    let n = rng.below(max + 1) as usize;
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

fn random_addr(rng: &mut Rng, n: usize) -> Ipv4Addr {
    match rng.below(10) {
        0 => Ipv4Addr::from(rng.next_u64() as u32),
        1 => Ipv4Addr::BROADCAST,
        _ => addr(rng.below(n as u64 + 1) as usize),
    }
}

fn random_addrs(rng: &mut Rng, n: usize) -> Vec<Ipv4Addr> {
    let len = if rng.bernoulli(0.05) {
        rng.below(70)
    } else {
        rng.below(6)
    };
    (0..len).map(|_| random_addr(rng, n)).collect()
}

fn random_option(rng: &mut Rng, n: usize) -> DsrOption {
    match rng.below(9) {
        0 => DsrOption::Pad1,
        1 => DsrOption::PadN(rng.below(6) as u8),
        2 => DsrOption::RouteRequest {
            id: rng.next_u64() as u16,
            target: random_addr(rng, n),
            addresses: random_addrs(rng, n),
        },
        3 => DsrOption::RouteReply {
            last_hop_external: rng.bernoulli(0.1),
            addresses: random_addrs(rng, n),
        },
        4 => DsrOption::RouteError {
            salvage: rng.below(16) as u8,
            error_src: random_addr(rng, n),
            error_dst: random_addr(rng, n),
            kind: if rng.bernoulli(0.8) {
                RouteErrorKind::NodeUnreachable(random_addr(rng, n))
            } else {
                RouteErrorKind::Other {
                    // Type 1 (NODE_UNREACHABLE) has its own variant.
                    error_type: match rng.next_u64() as u8 {
                        1 => 2,
                        t => t,
                    },
                    info: random_bytes(rng, 8),
                }
            },
        },
        5 => DsrOption::AckRequest {
            id: rng.next_u64() as u16,
        },
        6 => DsrOption::Ack {
            id: rng.next_u64() as u16,
            src: random_addr(rng, n),
            dst: random_addr(rng, n),
        },
        7 => {
            let addresses = random_addrs(rng, n);
            DsrOption::SourceRoute {
                first_hop_external: rng.bernoulli(0.1),
                last_hop_external: rng.bernoulli(0.1),
                salvage: rng.below(16) as u8,
                segs_left: rng.below((addresses.len() as u64 + 2).min(64)) as u8,
                addresses,
            }
        }
        _ => DsrOption::Unknown {
            option_type: pick(rng, &[4, 5, 128, 129, 200, 255]),
            data: random_bytes(rng, 10),
        },
    }
}

fn random_repr(rng: &mut Rng, n: usize) -> DsrRepr {
    DsrRepr {
        next_header: {
            let any = rng.next_u64() as u8;
            pick(rng, &[59, 17, 6, 132, any])
        },
        options: (0..rng.below(4)).map(|_| random_option(rng, n)).collect(),
    }
}

/// A forged DSR packet with addresses of the network.
fn forge(rng: &mut Rng, n: usize) -> Vec<u8> {
    let repr = random_repr(rng, n);
    let ip = Ipv4Repr {
        src_addr: random_addr(rng, n),
        dst_addr: random_addr(rng, n),
        protocol: IP_PROTOCOL_DSR,
        payload_len: 0,
        ttl: pick(rng, &[0, 1, 2, 64, 255]),
        ident: rng.next_u64() as u16,
        dscp: 0,
        dont_frag: false,
    };
    let payload = if repr.next_header == 59 {
        Vec::new()
    } else {
        random_bytes(rng, 30)
    };
    dsr_packet(&ip, &repr, &payload).unwrap_or_else(|_| random_bytes(rng, 60))
}

fn codec(rng: &mut Rng, counts: &mut Counts) {
    for _ in 0..4 {
        let mut b = random_bytes(rng, 80);
        if b.len() >= 4 && rng.bernoulli(0.7) {
            b[1] &= 0x7f;
            let l = (b.len() - 4) as u16;
            b[2..4].copy_from_slice(&l.to_be_bytes());
        }
        fuzz_parse_dsr(&b);
        counts.codec_inputs += 1;
        let repr = random_repr(rng, 6);
        if let Ok(mut bytes) = repr.to_bytes() {
            let parsed = DsrRepr::parse(&bytes);
            // PadN data and reserved bits are normalised; everything else must survive.
            assert_eq!(parsed.as_ref(), Ok(&repr), "DSR round trip");
            counts.codec_parsed += 1;
            crate::driver::mutate(rng, &mut bytes, MUTATION);
            fuzz_parse_dsr(&bytes);
            counts.codec_inputs += 2;
        }
    }
}

#[derive(Debug)]
enum Action {
    Receive(Ipv4Addr, Packet),
    LinkFailure(Ipv4Addr, Packet),
    TxSuccess(Ipv4Addr),
    /// A unicast frame between two other nodes, overheard (DSR's tap).
    Overheard(Packet),
}

struct Net {
    routers: Vec<Dsr>,
    links: Vec<Vec<bool>>,
    queue: BTreeMap<(SimTime, u64), (usize, Action)>,
    seq: u64,
    now: SimTime,
    /// Tags given to originated data so far.
    tags: u64,
}

impl Net {
    fn push(&mut self, t: SimTime, node: usize, a: Action) {
        self.seq += 1;
        self.queue.insert((t, self.seq), (node, a));
    }

    /// Puts node `i`'s decision for the packet it was handed (if any) and then its outputs
    /// into the network, and checks its invariants.
    fn drain(&mut self, rng: &mut Rng, i: usize, counts: &mut Counts, decision: Option<Decision>) {
        match decision {
            Some(Decision::Forward { next_hop, packet }) => {
                crate::driver::assert_known_tag(packet.tag, self.tags);
                self.send(rng, i, next_hop, packet);
            }
            Some(Decision::Deliver(packet)) => {
                crate::driver::assert_known_tag(packet.tag, self.tags);
                counts.delivered += 1;
            }
            Some(Decision::Drop { packet, .. }) => {
                crate::driver::assert_known_tag(packet.tag, self.tags);
                counts.dropped += 1;
            }
            Some(Decision::Buffered | Decision::Consumed) | None => {}
        }
        let mut outputs = 0;
        while let Some(out) = self.routers[i].poll_output() {
            outputs += 1;
            assert!(outputs < 1_000_000, "poll_output does not terminate");
            let (RoutingOutput::Transmit { packet, .. } | RoutingOutput::Drop { packet, .. }) =
                &out;
            crate::driver::assert_known_tag(packet.tag, self.tags);
            match out {
                RoutingOutput::Transmit {
                    next_hop, packet, ..
                } => self.send(rng, i, next_hop, packet),
                RoutingOutput::Drop { .. } => counts.dropped += 1,
            }
        }
        while self.routers[i].poll_event().is_some() {}
        self.routers[i].check_invariants(self.now);
    }

    /// `packet` leaves node `i` for `next_hop`: a broadcast reaches each neighbour with
    /// probability 0.95, a unicast its neighbour (overheard by others at random) or fails
    /// after 10 ms.
    fn send(&mut self, rng: &mut Rng, i: usize, next_hop: Ipv4Addr, packet: Packet) {
        let n = self.routers.len();
        let now = self.now;
        let delay = SimDuration::from_micros(500 + rng.below(2000));
        if next_hop == Ipv4Addr::BROADCAST {
            for j in 0..n {
                if self.links[i][j] && !rng.bernoulli(0.05) {
                    self.push(now + delay, j, Action::Receive(addr(i), packet.clone()));
                }
            }
        } else {
            let j = (u32::from(next_hop).wrapping_sub(0x0A80_0001)) as usize;
            if j < n && self.links[i][j] {
                for k in 0..n {
                    if k != j && k != i && self.links[i][k] && rng.bernoulli(0.5) {
                        self.push(now + delay, k, Action::Overheard(packet.clone()));
                    }
                }
                self.push(now + delay, j, Action::Receive(addr(i), packet));
                self.push(now + delay, i, Action::TxSuccess(next_hop));
            } else {
                self.push(
                    now + SimDuration::from_millis(10),
                    i,
                    Action::LinkFailure(next_hop, packet),
                );
            }
        }
    }
}

fn random_config(rng: &mut Rng) -> DsrConfig {
    let mut cfg = DsrConfig {
        nonpropagating_first: rng.bernoulli(0.5),
        reply_from_cache: rng.bernoulli(0.7),
        broadcast_jitter: SimDuration::from_millis(pick(rng, &[0, 1, 10])),
        send_buffer_size: pick(rng, &[0, 1, 4, 64]),
        max_routes_per_dest: pick(rng, &[1, 2, 8]),
        cache_capacity: pick(rng, &[1, 3, 94]),
        max_salvage_count: pick(rng, &[0, 1, 15]),
        max_request_rexmt: pick(rng, &[0, 2, 16]),
        route_cache_timeout: SimDuration::from_millis(pick(rng, &[50, 2000, 300_000])),
        request_table_size: pick(rng, &[1, 64]),
        request_table_ids: pick(rng, &[1, 16]),
        ..DsrConfig::default()
    };
    // The ns-2 options from a copy of the stream, so that the cases drawn before they existed
    // stay the same.
    let mut side = Rng::from_seed(rng.clone().next_u64() ^ 0xd5a_0002);
    cfg.tap = side.bernoulli(0.5);
    cfg.gratuitous_replies = side.bernoulli(0.5);
    cfg.propagate_last_error = side.bernoulli(0.5);
    cfg.ns2_request_backoff = side.bernoulli(0.5);
    cfg
}

/// One case.
pub(crate) fn dsr_case(seed: u64) -> Counts {
    let mut rng = Rng::from_seed(seed);
    let mut counts = Counts {
        cases: 1,
        ..Counts::default()
    };
    codec(&mut rng, &mut counts);
    let n = 3 + rng.below(6) as usize;
    let routers = (0..n)
        .map(|i| {
            Dsr::new(
                addr(i),
                random_config(&mut rng),
                Rng::from_seed(rng.next_u64()),
            )
        })
        .collect();
    let mut links = vec![vec![false; n]; n];
    for (i, j) in (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))) {
        let up = rng.bernoulli(0.4);
        links[i][j] = up;
        links[j][i] = up;
    }
    let mut net = Net {
        routers,
        links,
        queue: BTreeMap::new(),
        seq: 0,
        now: SimTime::ZERO,
        tags: 0,
    };
    let mut ident = 0u16;
    for _step in 0..300 {
        counts.inputs += 1;
        match rng.below(20) {
            0..=3 => {
                // A node originates data, sometimes over a chosen route.
                let (s, d) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                ident = ident.wrapping_add(1);
                let udp = UdpRepr {
                    src_port: 9,
                    dst_port: 9,
                };
                let ttl = pick(&mut rng, &[1, 2, 64]);
                net.tags += 1;
                let packet = Packet {
                    bytes: udp_datagram(addr(s), addr(d), ttl, ident, &udp, &[7u8; 20]),
                    tag: crate::driver::data_tag(s, net.tags),
                };
                let now = net.now;
                let decision = match rng.below(3) {
                    0 => {
                        let routes = net.routers[s].disjoint_routes(now, addr(d), 3);
                        let route = if routes.is_empty() {
                            vec![addr(s), addr(d)]
                        } else {
                            routes[rng.below(routes.len() as u64) as usize].clone()
                        };
                        net.routers[s].handle_send_on_route(now, packet, &route)
                    }
                    1 => {
                        let route = random_addrs(&mut rng, n);
                        net.routers[s].handle_send_on_route(now, packet, &route)
                    }
                    _ => net.routers[s].handle_send(now, packet),
                };
                net.drain(&mut rng, s, &mut counts, Some(decision));
            }
            4 => {
                // Forged DSR packet or random bytes.
                let i = rng.below(n as u64) as usize;
                let bytes = Packet::untagged(if rng.bernoulli(0.8) {
                    forge(&mut rng, n)
                } else {
                    random_bytes(&mut rng, 80)
                });
                counts.forged += 1;
                let prev = random_addr(&mut rng, n);
                let now = net.now;
                let d = match rng.below(5) {
                    0 => {
                        net.routers[i].handle_link_failure(now, prev, vec![bytes]);
                        None
                    }
                    1 => Some(net.routers[i].handle_send(now, bytes)),
                    2 => {
                        net.routers[i].handle_overheard(now, &bytes);
                        None
                    }
                    _ => Some(net.routers[i].handle_receive(now, prev, bytes)),
                };
                net.drain(&mut rng, i, &mut counts, d);
            }
            5 => {
                // A link changes.
                let (i, j) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if i != j {
                    let up = !net.links[i][j];
                    net.links[i][j] = up;
                    net.links[j][i] = up;
                    counts.link_changes += 1;
                }
            }
            6 | 7 => {
                // Time passes; timers fire (sometimes early or late).
                net.now += SimDuration::from_millis(rng.below(3000));
                for i in 0..n {
                    if let Some(t) = net.routers[i].poll_timeout() {
                        if t <= net.now || rng.bernoulli(0.1) {
                            let now = net.now;
                            net.routers[i].handle_timeout(now);
                            counts.timeouts += 1;
                            net.drain(&mut rng, i, &mut counts, None);
                        }
                    }
                }
            }
            _ => {
                // The next event in flight, maybe impaired.
                let Some(((t, _), (i, action))) = net.queue.pop_first() else {
                    net.now += SimDuration::from_millis(100);
                    continue;
                };
                net.now = net.now.max(t);
                // Due timers first, as the engine would run them.
                if let Some(w) = net.routers[i].poll_timeout() {
                    if w <= net.now {
                        let now = net.now;
                        net.routers[i].handle_timeout(now);
                        net.drain(&mut rng, i, &mut counts, None);
                    }
                }
                let now = net.now;
                let mut decision = None;
                match action {
                    Action::Receive(prev, mut packet) => {
                        if rng.bernoulli(0.03) {
                            continue;
                        }
                        if rng.bernoulli(0.03) {
                            net.push(
                                now + SimDuration::from_millis(rng.below(20)),
                                i,
                                Action::Receive(prev, packet.clone()),
                            );
                        }
                        if rng.bernoulli(0.1) {
                            crate::driver::mutate(&mut rng, &mut packet.bytes, MUTATION);
                        }
                        if packet.len() > 20 {
                            fuzz_parse_dsr(&packet.bytes[20..]);
                            counts.codec_inputs += 1;
                        }
                        decision = Some(net.routers[i].handle_receive(now, prev, packet));
                    }
                    Action::LinkFailure(next, bytes) => {
                        net.routers[i].handle_link_failure(now, next, vec![bytes]);
                    }
                    Action::TxSuccess(next) => net.routers[i].handle_tx_success(now, next),
                    Action::Overheard(packet) => net.routers[i].handle_overheard(now, &packet),
                }
                net.drain(&mut rng, i, &mut counts, decision);
            }
        }
    }
    counts.malformed = net.routers.iter().map(|r| r.counters().malformed).sum();
    counts
}
