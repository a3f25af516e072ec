//! Tests of the ns-2 behaviours ([`DsrConfig::ns2`]): the promiscuous tap, gratuitous Route
//! Replies, Route Error propagation on requests, errors snooped by forwarders and ns-2's
//! request schedule. Each drives single routers with hand-built packets, and each checks
//! that the behaviour is absent with its option off.

use std::net::Ipv4Addr;

use sctpsim_kernel::{FlowId, Packet, PacketTag, Rng, SimDuration, SimTime};
use sctpsim_wire::dsr::{dsr_packet, DsrOption, DsrRepr, RouteErrorKind, IP_PROTOCOL_DSR};
use sctpsim_wire::{Ipv4Packet, Ipv4Repr};

use super::{Dsr, DsrConfig, Parsed};
use crate::routing::testnet::TestNet;
use crate::routing::{Decision, Router, RoutingOutput};

/// Hands `d` a control packet from `prev_hop`: a router consumes control traffic.
fn feed(d: &mut Dsr, now: SimTime, prev_hop: Ipv4Addr, packet: Packet) {
    assert_eq!(d.handle_receive(now, prev_hop, packet), Decision::Consumed);
}

/// `d` originates `packet` for a destination it has no route to: it waits in the buffer.
fn buffer(d: &mut Dsr, now: SimTime, packet: Packet) {
    assert_eq!(d.handle_send(now, packet), Decision::Buffered);
}

fn a(i: usize) -> Ipv4Addr {
    TestNet::addr(i)
}

fn path(nodes: &[usize]) -> Vec<Ipv4Addr> {
    nodes.iter().map(|&i| a(i)).collect()
}

fn ms(x: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(x)
}

fn drain(d: &mut Dsr) -> Vec<RoutingOutput> {
    std::iter::from_fn(|| d.poll_output()).collect()
}

fn tagged(bytes: Vec<u8>) -> Packet {
    Packet {
        bytes,
        tag: PacketTag {
            flow: Some(FlowId(7)),
            uid: 42,
        },
    }
}

/// A UDP data packet from `route[0]` to its last node, source-routed over the nodes between,
/// as it is on the air from `route[hop]` to `route[hop + 1]`.
fn data_on_route(route: &[usize], hop: usize) -> Vec<u8> {
    let (src, dst) = (route[0], route[route.len() - 1]);
    let plain = TestNet::data_packet(src, dst, 40, 9);
    let ip = Ipv4Repr::parse(&Ipv4Packet::new_checked(&plain[..]).expect("ok")).expect("ok");
    let addresses = path(&route[1..route.len() - 1]);
    let n = addresses.len();
    let dsr = DsrRepr {
        next_header: 17,
        options: vec![DsrOption::SourceRoute {
            first_hop_external: false,
            last_hop_external: false,
            salvage: 0,
            segs_left: (n - hop) as u8,
            addresses,
        }],
    };
    dsr_packet(&ip, &dsr, &plain[20..]).expect("encodes")
}

fn control_packet(src: Ipv4Addr, dst: Ipv4Addr, ttl: u8, options: Vec<DsrOption>) -> Vec<u8> {
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IP_PROTOCOL_DSR,
        payload_len: 0,
        ttl,
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

/// The DSR options of an output packet.
fn options(p: &Packet) -> Vec<DsrOption> {
    Parsed::parse(&p.bytes)
        .ok()
        .and_then(|x| x.dsr)
        .map(|(d, _)| d.options)
        .unwrap_or_default()
}

fn replies(out: &[RoutingOutput]) -> Vec<(Ipv4Addr, Vec<Ipv4Addr>)> {
    out.iter()
        .filter_map(|o| match o {
            RoutingOutput::Transmit {
                next_hop, packet, ..
            } => options(packet).into_iter().find_map(|o| match o {
                DsrOption::RouteReply { addresses, .. } => Some((*next_hop, addresses)),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

fn tap_cfg(on: bool) -> DsrConfig {
    DsrConfig {
        tap: on,
        ..DsrConfig::default()
    }
}

/// A node off the route overhears 1 → 2 of 0 → 3 over [1, 2]: with the tap it assumes a link
/// to the transmitter and learns [9, 1, 2, 3]; without it, nothing. Either way the
/// overheard packet never comes out of the router.
#[test]
fn tap_learns_overheard_source_route() {
    for on in [false, true] {
        let mut d = Dsr::new(a(9), tap_cfg(on), Rng::from_seed(1));
        d.handle_overheard(ms(1), &tagged(data_on_route(&[0, 1, 2, 3], 1)));
        let expect: Vec<Vec<Ipv4Addr>> = if on {
            vec![path(&[9, 1, 2, 3])]
        } else {
            Vec::new()
        };
        assert_eq!(d.cached_paths(), expect, "tap {on}");
        assert!(
            drain(&mut d).is_empty(),
            "nothing delivered, forwarded or dropped"
        );
        assert_eq!(d.counters().data_forwarded, 0);
        if on {
            assert_eq!(d.next_hop(a(3)), Some(a(1)));
        }
    }
}

/// A node listed on the route, overhearing the packet before its turn, learns the route from
/// itself on (forward only, as ns-2's `noticeRouteUsed`).
#[test]
fn tap_on_route_learns_the_rest_of_it() {
    let mut d = Dsr::new(a(2), tap_cfg(true), Rng::from_seed(1));
    // 1 → 3 of 0 → 4 over [1, 3, 2]: node 2 comes after 3.
    d.handle_overheard(ms(1), &tagged(data_on_route(&[0, 1, 3, 2, 4], 1)));
    assert_eq!(d.cached_paths(), vec![path(&[2, 4])]);
}

/// A packet without a DSR header goes straight from its source to a neighbour: the tap learns
/// [me, source, destination]. Its own packets and packets for itself teach nothing here.
#[test]
fn tap_one_hop_packets_and_own_packets() {
    let mut d = Dsr::new(a(5), tap_cfg(true), Rng::from_seed(1));
    d.handle_overheard(ms(1), &tagged(TestNet::data_packet(0, 1, 30, 1)));
    assert_eq!(d.cached_paths(), vec![path(&[5, 0, 1])]);
    let mut d = Dsr::new(a(0), tap_cfg(true), Rng::from_seed(1));
    d.handle_overheard(ms(1), &tagged(data_on_route(&[0, 1, 2, 3], 1)));
    assert!(d.cached_paths().is_empty());
}

/// An overheard Route Error removes the link with the tap on.
#[test]
fn tap_snoops_route_errors() {
    for on in [false, true] {
        let mut d = Dsr::new(a(7), tap_cfg(on), Rng::from_seed(1));
        // Learn [7, 2, 3] from a reply addressed to us.
        let reply = DsrOption::RouteReply {
            last_hop_external: false,
            addresses: vec![a(2), a(3)],
        };
        feed(
            &mut d,
            ms(0),
            a(2),
            Packet::untagged(control_packet(a(3), a(7), 64, vec![reply])),
        );
        drain(&mut d);
        assert_eq!(d.cached_paths(), vec![path(&[7, 2, 3])]);
        // Overheard: 2 tells 0 (over [1]) that 2 → 3 broke; the frame goes 2 → 1.
        let error = DsrOption::RouteError {
            salvage: 0,
            error_src: a(2),
            error_dst: a(0),
            kind: RouteErrorKind::NodeUnreachable(a(3)),
        };
        let sr = DsrOption::SourceRoute {
            first_hop_external: false,
            last_hop_external: false,
            salvage: 0,
            segs_left: 1,
            addresses: vec![a(1)],
        };
        d.handle_overheard(
            ms(1),
            &Packet::untagged(control_packet(a(2), a(0), 64, vec![error, sr])),
        );
        let has_link = d.cached_paths().iter().any(|p| p.contains(&a(3)));
        assert_eq!(has_link, !on, "tap {on}");
    }
}

/// Node 3 on [0, 1, 2, 3, 4] overhears 0 → 1: nodes 1 and 2 can be skipped. With gratuitous
/// replies it sends 0 (directly: the way back is [3, 0]) a Route Reply with [3, 4]; once per
/// hold-down time. The source that receives it then routes to 4 via 3.
#[test]
fn gratuitous_reply_shortens_the_route_at_the_source() {
    for on in [false, true] {
        let cfg = DsrConfig {
            tap: true,
            gratuitous_replies: on,
            ..DsrConfig::default()
        };
        let mut n3 = Dsr::new(a(3), cfg.clone(), Rng::from_seed(3));
        let heard = tagged(data_on_route(&[0, 1, 2, 3, 4], 0));
        n3.handle_overheard(ms(10), &heard);
        let out = drain(&mut n3);
        if !on {
            assert!(replies(&out).is_empty());
            continue;
        }
        assert_eq!(replies(&out), vec![(a(0), path(&[3, 4]))]);
        assert_eq!(n3.counters().tx.get("rrep").map(|c| c.packets), Some(1));
        // Hold-down: not again within 1 s, again after.
        n3.handle_overheard(ms(500), &heard);
        assert!(replies(&drain(&mut n3)).is_empty());
        n3.handle_overheard(ms(1011), &heard);
        assert_eq!(replies(&drain(&mut n3)).len(), 1);
        // The source, which used [0, 1, 2, 3, 4], receives the reply.
        let mut n0 = Dsr::new(a(0), cfg, Rng::from_seed(4));
        let reply = out
            .into_iter()
            .find_map(|o| match o {
                RoutingOutput::Transmit { packet, .. } => Some(packet),
                _ => None,
            })
            .expect("a reply");
        let long = DsrOption::RouteReply {
            last_hop_external: false,
            addresses: path(&[1, 2, 3, 4]),
        };
        feed(
            &mut n0,
            ms(0),
            a(1),
            Packet::untagged(control_packet(a(4), a(0), 64, vec![long])),
        );
        assert_eq!(n0.next_hop(a(4)), Some(a(1)));
        feed(&mut n0, ms(11), a(3), reply);
        assert_eq!(n0.next_hop(a(4)), Some(a(3)));
    }
}

/// No gratuitous reply for control packets or for a node listed before the receiver.
#[test]
fn no_gratuitous_reply_for_control_or_earlier_nodes() {
    let cfg = DsrConfig::ns2();
    let mut n1 = Dsr::new(a(1), cfg, Rng::from_seed(3));
    // 2 → 3 of [0, 1, 2, 3, 4]: node 1 is behind.
    n1.handle_overheard(ms(10), &tagged(data_on_route(&[0, 1, 2, 3, 4], 2)));
    assert!(replies(&drain(&mut n1)).is_empty());
    assert_eq!(n1.cached_paths(), vec![path(&[1, 2, 3, 4])]);
}

/// The source 0 hears that 1 → 2 broke; a node 5 caches [5, 1, 2, 3]. With error propagation
/// 0's next request carries the error and 5, removing the link, does not answer from its
/// cache; without, 5 replies with the broken link. After max_err_hold nothing rides along.
#[test]
fn propagated_error_stops_stale_cache_replies() {
    for on in [false, true] {
        let cfg = DsrConfig {
            propagate_last_error: on,
            nonpropagating_first: false,
            ..DsrConfig::default()
        };
        let mut src = Dsr::new(a(0), cfg.clone(), Rng::from_seed(1));
        let error = DsrOption::RouteError {
            salvage: 0,
            error_src: a(1),
            error_dst: a(0),
            kind: RouteErrorKind::NodeUnreachable(a(2)),
        };
        feed(
            &mut src,
            ms(0),
            a(1),
            Packet::untagged(control_packet(a(1), a(0), 64, vec![error])),
        );
        buffer(&mut src, ms(100), tagged(TestNet::data_packet(0, 3, 30, 1)));
        src.handle_timeout(ms(120));
        let request = drain(&mut src)
            .into_iter()
            .find_map(|o| match o {
                RoutingOutput::Transmit { packet, .. } => Some(packet),
                _ => None,
            })
            .expect("a request");
        let carried = options(&request)
            .iter()
            .any(|o| matches!(o, DsrOption::RouteError { .. }));
        assert_eq!(carried, on);

        let mut cache_node = Dsr::new(a(5), cfg.clone(), Rng::from_seed(2));
        let reply = DsrOption::RouteReply {
            last_hop_external: false,
            addresses: path(&[1, 2, 3]),
        };
        feed(
            &mut cache_node,
            ms(0),
            a(1),
            Packet::untagged(control_packet(a(3), a(5), 64, vec![reply])),
        );
        drain(&mut cache_node);
        assert_eq!(cache_node.cached_paths(), vec![path(&[5, 1, 2, 3])]);
        feed(&mut cache_node, ms(121), a(0), request);
        cache_node.handle_timeout(ms(200));
        let out = drain(&mut cache_node);
        let stale = replies(&out)
            .iter()
            .any(|(_, r)| r.windows(2).any(|w| w == [a(1), a(2)]));
        assert_eq!(stale, !on, "propagation {on}");
        if on {
            // The rebroadcast request carries the error on.
            assert!(out
                .iter()
                .any(|o| matches!(o, RoutingOutput::Transmit { packet, .. }
                if options(packet).iter().any(|x| matches!(x, DsrOption::RouteError { .. })))));
        }

        // Held for max_err_hold (1 s) only.
        let mut late = Dsr::new(a(0), cfg, Rng::from_seed(1));
        feed(
            &mut late,
            ms(0),
            a(1),
            Packet::untagged(control_packet(
                a(1),
                a(0),
                64,
                vec![DsrOption::RouteError {
                    salvage: 0,
                    error_src: a(1),
                    error_dst: a(0),
                    kind: RouteErrorKind::NodeUnreachable(a(2)),
                }],
            )),
        );
        buffer(
            &mut late,
            ms(1000),
            tagged(TestNet::data_packet(0, 3, 30, 1)),
        );
        late.handle_timeout(ms(1020));
        assert!(drain(&mut late).iter().all(|o| match o {
            RoutingOutput::Transmit { packet, .. } => !options(packet)
                .iter()
                .any(|x| matches!(x, DsrOption::RouteError { .. })),
            _ => true,
        }));
    }
}

/// ns-2's `dsragent_snoop_forwarded_errors` is our behaviour without an option: a node that
/// only forwards a Route Error removes the link too.
#[test]
fn forwarders_of_route_errors_remove_the_link() {
    let mut n1 = Dsr::new(a(1), DsrConfig::default(), Rng::from_seed(1));
    let reply = DsrOption::RouteReply {
        last_hop_external: false,
        addresses: path(&[2, 3]),
    };
    feed(
        &mut n1,
        ms(0),
        a(2),
        Packet::untagged(control_packet(a(3), a(1), 64, vec![reply])),
    );
    drain(&mut n1);
    assert_eq!(n1.cached_paths(), vec![path(&[1, 2, 3])]);
    // 2 tells 0 over [2, 1, 0] that 2 → 3 broke; node 1 forwards it.
    let error = DsrOption::RouteError {
        salvage: 0,
        error_src: a(2),
        error_dst: a(0),
        kind: RouteErrorKind::NodeUnreachable(a(3)),
    };
    let sr = DsrOption::SourceRoute {
        first_hop_external: false,
        last_hop_external: false,
        salvage: 0,
        segs_left: 1,
        addresses: vec![a(1)],
    };
    feed(
        &mut n1,
        ms(1),
        a(2),
        Packet::untagged(control_packet(a(2), a(0), 64, vec![error, sr])),
    );
    let out = drain(&mut n1);
    assert!(matches!(&out[..], [RoutingOutput::Transmit { next_hop, .. }] if *next_hop == a(0)));
    assert!(!n1.cached_paths().iter().any(|p| p.contains(&a(3))));
}

/// The request schedule of an unanswered discovery: (time in ms rounded down to 10 ms, TTL)
/// of each request, jitter being < 10 ms.
fn schedule(cfg: DsrConfig, until_ms: u64) -> Vec<(u64, u8)> {
    let mut d = Dsr::new(a(0), cfg, Rng::from_seed(5));
    buffer(&mut d, ms(0), tagged(TestNet::data_packet(0, 3, 30, 1)));
    let mut out = Vec::new();
    let mut now = ms(0);
    while let Some(t) = d.poll_timeout() {
        if t > ms(until_ms) {
            break;
        }
        now = now.max(t);
        d.handle_timeout(now);
        for o in drain(&mut d) {
            if let RoutingOutput::Transmit { packet, .. } = o {
                let ttl = packet.bytes[8];
                let at = now.saturating_since(SimTime::ZERO).as_nanos() / 10_000_000 * 10;
                out.push((at, ttl));
            }
        }
    }
    out
}

/// RFC 4728: one non-propagating request, then propagating ones 0.5, 1, 2, 4 s apart. ns-2:
/// every cycle a non-propagating request and 30 ms later a propagating one, cycles 2, 8,
/// 10 s apart.
#[test]
fn ns2_request_schedule() {
    let rfc = schedule(DsrConfig::default(), 12_000);
    assert_eq!(
        rfc,
        vec![
            (0, 1),
            (30, 255),
            (530, 255),
            (1530, 255),
            (3530, 255),
            (7530, 255)
        ]
    );
    let ns2 = schedule(
        DsrConfig {
            ns2_request_backoff: true,
            ..DsrConfig::default()
        },
        21_000,
    );
    assert_eq!(
        ns2,
        vec![
            (0, 1),
            (30, 255),
            (2000, 1),
            (2030, 255),
            (10000, 1),
            (10030, 255),
            (20000, 1),
            (20030, 255)
        ]
    );
}

/// The profile: every ns-2 behaviour on, the RFC values where ns-2 has the same.
#[test]
fn ns2_profile_values() {
    let c = DsrConfig::ns2();
    assert!(c.tap && c.gratuitous_replies && c.propagate_last_error && c.ns2_request_backoff);
    assert_eq!(c.grat_hold_down, SimDuration::from_secs(1));
    assert_eq!(c.max_err_hold, SimDuration::from_secs(1));
    assert_eq!(c.nonprop_request_timeout, SimDuration::from_millis(30));
    assert_eq!(c.request_period, SimDuration::from_millis(500));
    assert_eq!(c.max_request_period, SimDuration::from_secs(10));
    assert_eq!(c.send_buffer_timeout, SimDuration::from_secs(30));
    assert_eq!(c.cache_capacity, 94);
    assert_eq!(c.max_routes_per_dest, 94);
    assert!(c.nonpropagating_first && c.reply_from_cache);
    let d = DsrConfig::default();
    assert!(!d.tap && !d.gratuitous_replies && !d.propagate_last_error);
}
