//! A-SCTP (Argyriou & Madisetti 2004 §3, `association/asctp.rs`): route paths to one peer
//! address, data on the best one, heartbeats every RTO, inactive after two failed heartbeats,
//! the immediate switch on the routing protocol's notice, and the per-path TSN range rule.
//!
//! The association under test reaches R1 over two routes: the base path (key R1, 2 hops) and
//! an alias path K (key 0.0.0.1, 3 hops). Both send to R1 on the wire; `Sent::path` tells the
//! route apart, as the engine's path manager does.

use super::multihoming::two_paths;
use super::*;
use crate::transport::sctp::{
    ApiError, AsctpRules, MetricKind, Multipath, PathRoute, PathState, RtxCause, SwitchCause,
};

const K: Ipv4Addr = Ipv4Addr::new(0, 0, 0, 1);

fn acfg() -> SctpConfig {
    SctpConfig {
        multipath: Multipath::Asctp,
        ..cfg()
    }
}

/// Answers the HEARTBEATs sent so far on path `key` (everything sent is taken).
fn answer_on(h: &mut Harness, key: Ipv4Addr) -> usize {
    let pkts = h.all();
    answer_in(h, &pkts, key)
}

/// Answers the HEARTBEATs in `pkts` sent on path `key`.
fn answer_in(h: &mut Harness, pkts: &[Sent], key: Ipv4Addr) -> usize {
    let hbs: Vec<Vec<u8>> = pkts
        .iter()
        .filter(|&t| t.path == Some(key))
        .cloned()
        .flat_map(|t| t.packet.chunks)
        .filter_map(|c| match c {
            ChunkRepr::Heartbeat { info } => Some(info),
            _ => None,
        })
        .collect();
    for info in &hbs {
        h.inject_from(R1, vec![ChunkRepr::HeartbeatAck { info: info.clone() }]);
    }
    hbs.len()
}

/// Established with A-SCTP: R1 over a 2-hop route (the primary) and K over a 3-hop one,
/// confirmed by its first heartbeat.
fn two_routes() -> Harness {
    two_routes_with(acfg())
}

/// [`two_routes`] with configuration `c`.
fn two_routes_with(c: SctpConfig) -> Harness {
    let mut h = established_with(c, &[L1], &[R1]);
    let now = h.now;
    h.a.set_route(now, R1, Some(2)).unwrap();
    assert_eq!(h.a.add_route_path(now, R1, 3), Ok(K));
    assert_eq!(h.a.path_status(K).unwrap().state, PathState::Unconfirmed);
    let t = h.next().expect("a HEARTBEAT on the new route at once");
    assert_eq!(
        (t.path, t.dst),
        (Some(K), R1),
        "an alias path's packets go to R1"
    );
    assert!(matches!(t.packet.chunks[0], ChunkRepr::Heartbeat { .. }));
    h.out.push_front((now, t));
    assert_eq!(answer_on(&mut h, K), 1);
    let k = h.a.path_status(K).unwrap();
    assert_eq!(
        (k.state, k.wire, k.route),
        (PathState::Active, R1, PathRoute::Route { hops: 3 })
    );
    h.take_events();
    h
}

/// The path keys of the packets carrying DATA sent so far.
fn data_paths(h: &mut Harness) -> Vec<Option<Ipv4Addr>> {
    h.all()
        .into_iter()
        .filter(|t| !data_chunks(&t.packet.chunks).is_empty())
        .map(|t| t.path)
        .collect()
}

fn switches(h: &mut SctpAssociation) -> Vec<(Ipv4Addr, Ipv4Addr, SwitchCause)> {
    std::iter::from_fn(|| h.poll_metric())
        .filter_map(|m| match m.kind {
            MetricKind::PathSwitch { from, to, cause } => Some((from, to, cause)),
            _ => None,
        })
        .collect()
}

#[test]
fn route_paths_need_asctp_and_a_peer_address() {
    let mut plain = established();
    let now = plain.now;
    assert_eq!(
        plain.a.add_route_path(now, R1, 2),
        Err(ApiError::NotSupported)
    );
    assert_eq!(
        plain.a.set_route(now, R1, None),
        Err(ApiError::NotSupported)
    );
    let mut h = established_with(acfg(), &[L1], &[R1]);
    assert_eq!(
        h.a.add_route_path(now, R2, 2),
        Err(ApiError::UnknownAddress)
    );
    assert_eq!(
        h.a.set_route(now, K, Some(2)),
        Err(ApiError::UnknownAddress)
    );
    assert_eq!(h.a.add_route_path(now, R1, 2), Ok(K));
    assert_eq!(
        h.a.add_route_path(now, R1, 4),
        Ok(Ipv4Addr::new(0, 0, 0, 2))
    );
    // Demultiplexing still knows only the peer's real address.
    assert!(h.a.owns(R1, REMOTE_PORT, LOCAL_PORT));
    assert!(!h.a.owns(K, REMOTE_PORT, LOCAL_PORT));
}

#[test]
fn data_goes_on_the_best_route_only_while_it_is_active() {
    // New data: the primary (2 hops), never K.
    let mut h = loaded_two_routes(acfg());
    // R1 is broken from now on (nothing acknowledged, heartbeats unanswered); K works. At
    // 1 s the T3-rtx expiry is R1's first failure: it stays active and the retransmission
    // stays on R1 (RFC 9260 §6.4 would send it to the alternate). The expiry doubled R1's
    // RTO, so its heartbeat (sent at 1 s) and the restarted T3-rtx both expire at 3 s: the
    // second failure (the timer first), R1 is inactive, data moves to K.
    let start = h.now;
    let (mut on_r1, mut on_k) = (Vec::new(), Vec::new());
    let mut t = start;
    while t < start + SimDuration::from_secs(4) {
        t += SimDuration::from_millis(10);
        h.at(t);
        let pkts = h.all();
        answer_in(&mut h, &pkts, K);
        let active = h.a.path_status(R1).unwrap().state == PathState::Active;
        let paths: Vec<Option<Ipv4Addr>> = pkts
            .iter()
            .filter(|t| !data_chunks(&t.packet.chunks).is_empty())
            .map(|t| t.path)
            .collect();
        if active {
            assert!(paths.iter().all(|p| *p == Some(R1)), "at {t:?}: {paths:?}");
            on_r1.extend(paths);
        } else if !paths.is_empty() {
            // K delivers: everything is acknowledged.
            on_k.extend(paths);
            let ack = h.sack(3, &[], 65_536);
            h.inject(vec![ack]);
        }
        h.all();
    }
    assert_eq!(
        on_r1.len(),
        1,
        "the T3 retransmission (one packet in cwnd = 1 MTU), on R1"
    );
    assert_eq!(h.a.stats().t3_timeouts, 2);
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Inactive);
    assert_eq!(h.a.primary(), K);
    assert_eq!(on_k, vec![Some(K); 3], "the three chunks, one per packet");
    let sw = switches(&mut h.a);
    assert_eq!(sw, vec![(R1, K, SwitchCause::Timeout)]);
}

#[test]
fn an_idle_data_path_is_given_up_after_two_failed_heartbeats() {
    let mut h = two_routes();
    // R1's heartbeats go unanswered from now on (sent at 1 s and 2 s), K's are answered.
    let start = h.now;
    let mut t = start;
    let mut switched = None;
    while t < start + SimDuration::from_secs(4) && switched.is_none() {
        t += SimDuration::from_millis(10);
        h.at(t);
        answer_on(&mut h, K);
        if h.a.primary() == K {
            switched = Some(t);
        }
    }
    assert_eq!(switched, Some(start + SimDuration::from_secs(3)));
    assert_eq!(switches(&mut h.a), vec![(R1, K, SwitchCause::Heartbeat)]);
    assert_eq!(
        h.a.path_status(R1).unwrap().rto,
        SimDuration::from_secs(1),
        "no back-off"
    );
    h.send_msg(100);
    assert_eq!(data_paths(&mut h), vec![Some(K)]);
}

/// The HEARTBEATs sent over `span` (time, path), every one answered on both routes, in
/// 100 ms steps.
fn heartbeat_times(h: &mut Harness, span: SimDuration) -> Vec<(SimTime, Option<Ipv4Addr>)> {
    let start = h.now;
    let mut times = Vec::new();
    let mut t = start;
    while t < start + span {
        t += SimDuration::from_millis(100);
        h.at(t);
        h.drain();
        for (at, s) in h.out.iter() {
            if s.packet
                .chunks
                .iter()
                .any(|c| matches!(c, ChunkRepr::Heartbeat { .. }))
            {
                times.push((*at, s.path));
            }
        }
        answer_on(h, K);
        answer_on(h, R1);
    }
    times
}

#[test]
fn heartbeats_go_every_rto_on_every_route() {
    let mut h = two_routes();
    let times = heartbeat_times(&mut h, SimDuration::from_secs(5));
    for key in [R1, K] {
        let rto = h.a.path_status(key).unwrap().rto;
        assert_eq!(
            rto,
            SimDuration::from_secs(1),
            "RTO.Min with instant answers"
        );
        let at: Vec<SimTime> = times
            .iter()
            .filter(|(_, p)| *p == Some(key))
            .map(|(t, _)| *t)
            .collect();
        assert!(at.len() >= 4, "{key}: {at:?}");
        // Every RTO, not RTO + HB.interval (30 s) ± 50 % as RFC 9260 §8.3.
        for w in at.windows(2) {
            assert_eq!(w[1] - w[0], rto, "{key}: {at:?}");
        }
    }
}

#[test]
fn a_route_is_inactive_after_two_failed_heartbeats() {
    let mut h = two_routes();
    // K's heartbeats go unanswered from now on; R1's are answered.
    let start = h.now;
    let mut down_at = None;
    let mut t = start;
    while t < start + SimDuration::from_secs(6) && down_at.is_none() {
        t += SimDuration::from_millis(10);
        h.at(t);
        answer_on(&mut h, R1);
        h.all();
        if h.a.path_status(K).unwrap().state == PathState::Inactive {
            down_at = Some(t);
        }
    }
    // HEARTBEATs at start + 1 s (unanswered at + 2 s: one failure) and + 2 s (unanswered at
    // + 3 s: the second). RFC 9260 would need Path.Max.Retrans + 1 = 6 failures and back the
    // RTO off after each.
    assert_eq!(
        down_at,
        Some(start + SimDuration::from_secs(3)),
        "two failures, 2·RTO after the first unanswered heartbeat"
    );
    assert!(h.take_events().contains(&SctpEvent::PathDown { addr: K }));
    assert_eq!(h.a.path_status(K).unwrap().rto, SimDuration::from_secs(1));
    assert_eq!(
        h.a.error_count, 0,
        "a secondary route's failures are not the peer's"
    );
    assert_eq!(h.a.primary(), R1);
    // The plain association needs six failures for the same.
    let p = two_paths(cfg());
    assert_eq!(p.a.path_status(R2).unwrap().error_count, 0);
    assert_eq!(p.a.paths[1].path_max_retrans, 5);
    assert_eq!(h.a.paths[1].path_max_retrans, 1);
}

#[test]
fn the_routing_protocols_notice_switches_at_once() {
    let mut h = two_routes();
    for _ in 0..3 {
        h.send_msg(1000);
    }
    let tsns: Vec<Tsn> = h.all_data_tsns();
    assert_eq!(tsns.len(), 3);
    h.at(h.now + SimDuration::from_millis(50));
    h.all();
    // DSR reports that the route of R1 broke.
    let now = h.now;
    h.a.set_route(now, R1, None).unwrap();
    let out = h.all();
    let rtx: Vec<(Option<Ipv4Addr>, Tsn)> = out
        .iter()
        .flat_map(|t| {
            data_chunks(&t.packet.chunks)
                .into_iter()
                .map(move |d| (t.path, d.tsn))
        })
        .collect();
    assert_eq!(
        rtx,
        tsns.iter().map(|t| (Some(K), *t)).collect::<Vec<_>>(),
        "the window in flight on the broken route goes out on K at once"
    );
    assert!(out.iter().all(|t| t.dst == R1));
    let s = h.a.stats();
    assert_eq!((s.failover_retransmissions, s.t3_timeouts), (3, 0));
    assert_eq!(h.a.primary(), K);
    let r1 = h.a.path_status(R1).unwrap();
    assert_eq!((r1.state, r1.route), (PathState::Inactive, PathRoute::Lost));
    assert!(h.take_events().contains(&SctpEvent::PathDown { addr: R1 }));
    let m: Vec<MetricKind> = std::iter::from_fn(|| h.a.poll_metric())
        .map(|m| m.kind)
        .collect();
    assert!(m.contains(&MetricKind::PathSwitch {
        from: R1,
        to: K,
        cause: SwitchCause::RouteBroken
    }));
    assert!(m.iter().any(|k| matches!(
        k,
        MetricKind::TsnSent {
            path,
            retransmission: Some(RtxCause::Failover),
            ..
        } if *path == K
    )));
    // New data follows on K; nothing is heartbeated on the lost route any more.
    h.send_msg(1000);
    assert_eq!(data_paths(&mut h), vec![Some(K)]);
    let ack = h.sack(4, &[], 65_536);
    h.inject(vec![ack]);
    h.at(h.now + SimDuration::from_secs(3));
    assert!(h.all().iter().all(|t| t.path != Some(R1)));
    // A retransmission timer that was running on R1 found nothing: no timeout.
    assert_eq!(h.a.stats().t3_timeouts, 0);
}

#[test]
fn a_broken_route_without_alternative_keeps_the_data_path() {
    let mut h = established_with(acfg(), &[L1], &[R1]);
    let now = h.now;
    h.a.set_route(now, R1, Some(2)).unwrap();
    h.send_msg(1000);
    assert_eq!(data_paths(&mut h), vec![Some(R1)]);
    h.a.set_route(now, R1, None).unwrap();
    // Nothing else to go to: data stays, over the routing protocol's own choice.
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Active);
    h.send_msg(1000);
    assert_eq!(data_paths(&mut h), vec![Some(R1)]);
    // A new route later: the data path keeps its state (it is still the one data uses).
    let cwnd = h.a.path_status(R1).unwrap().cwnd;
    h.a.set_route(now, R1, Some(4)).unwrap();
    let r1 = h.a.path_status(R1).unwrap();
    assert_eq!((r1.cwnd, r1.state), (cwnd, PathState::Active));
    assert_eq!(r1.route, PathRoute::Route { hops: 4 });
}

#[test]
fn a_new_route_is_a_new_path() {
    let mut h = two_routes();
    let now = h.now;
    h.a.set_route(now, K, None).unwrap();
    assert_eq!(h.a.path_status(K).unwrap().state, PathState::Inactive);
    h.at(now + SimDuration::from_secs(3));
    assert!(
        h.all().iter().all(|t| t.path != Some(K)),
        "no heartbeats without a route"
    );
    let now = h.now;
    h.a.set_route(now, K, Some(5)).unwrap();
    let k = h.a.path_status(K).unwrap();
    assert_eq!(k.state, PathState::Unconfirmed);
    assert_eq!(k.error_count, 0);
    assert_eq!(k.srtt, None, "fresh RTO state for the new route");
    let t = h.next().expect("probed at once");
    assert_eq!(t.path, Some(K));
    h.out.push_front((now, t));
    answer_on(&mut h, K);
    assert_eq!(h.a.path_status(K).unwrap().state, PathState::Active);
}

/// Runs the association to `at` and returns what it sent on path `key` (everything sent is
/// taken).
fn sent_on(h: &mut Harness, key: Ipv4Addr, at: SimTime) -> Vec<Sent> {
    h.at(at);
    h.all()
        .into_iter()
        .filter(|t| t.path == Some(key))
        .collect()
}

#[test]
fn a_heartbeat_over_the_old_route_says_nothing_of_the_new_one() {
    let mut h = two_routes();
    let now = h.now;
    // A heartbeat on K's 3-hop route, still unanswered when the route breaks.
    let old = sent_on(&mut h, K, now + SimDuration::from_secs(1));
    assert_eq!(old.len(), 1, "one heartbeat on K: {old:?}");
    let now = h.now;
    h.a.set_route(now, K, None).unwrap();
    h.at(now + SimDuration::from_secs(2));
    let now = h.now;
    h.a.set_route(now, K, Some(4)).unwrap();
    h.all();
    // Its ACK comes only now (it waited for a route): the new route stays unconfirmed and
    // without an RTT estimate; the heartbeat drew a new nonce for the new route.
    assert_eq!(answer_in(&mut h, &old, K), 1);
    let k = h.a.path_status(K).unwrap();
    assert_eq!((k.state, k.srtt), (PathState::Unconfirmed, None));
    assert_eq!(
        h.a.stats().heartbeat_acks_received,
        1,
        "only two_routes' own"
    );
}

#[test]
fn a_heartbeat_answered_after_it_failed_is_late_but_sampled() {
    let mut h = two_routes();
    let start = h.now;
    // K's heartbeat at start + 1 s goes unanswered past its timer (one failure at + 2 s).
    let first = sent_on(&mut h, K, start + SimDuration::from_secs(1));
    assert_eq!(first.len(), 1);
    h.at(start + SimDuration::from_millis(2500));
    h.all();
    let before = h.a.stats().rtt_samples;
    assert_eq!(answer_in(&mut h, &first, K), 1);
    let s = h.a.stats();
    assert_eq!(s.late_heartbeat_acks, 1);
    // ns-2 (`ProcessHeartbeatAckChunk` → `RttUpdate`) samples it all the same: 1.5 s.
    assert_eq!(s.rtt_samples, before + 1);
    let srtt = h.a.path_status(K).unwrap().srtt.unwrap();
    assert!(srtt > SimDuration::from_millis(100), "{srtt:?}");
}

/// Four chunks in flight on the old data path, four on the new one, and SACKs that report
/// the new path's chunks first (they overtook the old path's packets in transit). Returns
/// the (path, TSN) of the retransmissions that followed.
fn overtaken(h: &mut Harness, new: Ipv4Addr) -> Vec<(Ipv4Addr, Tsn)> {
    for _ in 0..4 {
        h.send_msg(1000);
    }
    h.all();
    h.a.set_primary(new).unwrap();
    for _ in 0..4 {
        h.send_msg(1000);
    }
    let dests: Vec<Ipv4Addr> = h
        .all()
        .into_iter()
        .filter(|t| !data_chunks(&t.packet.chunks).is_empty())
        .map(|t| t.path.unwrap_or(t.dst))
        .collect();
    assert_eq!(dests, vec![new; 4]);
    // TSN 4 (gap offset 5) is missing on the new path; 5, 6, 7 arrive, one per SACK.
    for end in 6..=8u16 {
        let s = h.sack(0, &[(6, end)], 65_536);
        h.inject(vec![s]);
    }
    h.all()
        .into_iter()
        .flat_map(|t| {
            let p = t.path.unwrap_or(t.dst);
            data_chunks(&t.packet.chunks)
                .into_iter()
                .map(move |d| (p, d.tsn))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn gap_reports_outside_the_paths_tsn_range_count_no_miss() {
    let mut h = two_routes();
    let rtx = overtaken(&mut h, K);
    assert_eq!(rtx, vec![(K, h.ltsn(4))], "only TSN 4, on K");
    let s = h.a.stats().clone();
    // Only TSN 4, sent on K and overtaken by K's own later chunks, is fast retransmitted;
    // R1's four chunks (TSNs 0-3) saw only reports of K's TSNs: no miss indication.
    assert_eq!(s.fast_retransmissions, 1);
    assert_eq!(s.misses_out_of_range, 12, "4 chunks × 3 SACKs");
    let queue = &h.a.tx;
    for k in 0..4u64 {
        assert_eq!(queue.chunks[&k].misses, 0);
        assert!(queue.chunks[&k].in_flight);
    }
    // The SACKs still acknowledged what they reported.
    assert!((5..8u64).all(|k| queue.chunks[&k].acked));
    h.a.check_invariants();

    // Plain SCTP over two addresses: the same reports mark all four for fast retransmit.
    let mut p = two_paths(cfg());
    let rtx = overtaken(&mut p, R2);
    assert_eq!(rtx.len(), 5, "{rtx:?}");
    let s = p.a.stats();
    assert_eq!(s.fast_retransmissions, 5);
    assert_eq!(s.misses_out_of_range, 0);
}

/// What the scripted network does to a route in [`exactly_once_over_breaking_routes`].
#[derive(Debug, Clone, Copy)]
enum RouteAction {
    /// The route (network) stops carrying the client's packets.
    Break(u8),
    /// DSR's notice reaches the client: the path of that network lost its route.
    Notice(u8),
    /// The route works again and the path manager hands it back as a new route.
    Repair(u8),
}

/// One tier-3 run: an A-SCTP client reaches the server over two routes — network 0 (the
/// path keyed S1) and network 1 (an alias path), with different latencies, so a switch
/// reorders — under random loss, duplication and reordering. Three times the data route
/// breaks in the client's direction; DSR's notice follows after up to 100 ms, or (one time in
/// three) never comes and heartbeats find the break; 1–8 s later the route is back as a new
/// route. Returns (path switches, failover retransmissions).
fn exactly_once_over_breaking_routes(seed: u64) -> (u64, u64) {
    use super::pair::{check_delivery, LinkCfg, Pair, Workload, S1};
    let mut r = Rng::from_seed(seed ^ 0xa5c7);
    let mut link = |base: u64| LinkCfg {
        latency: SimDuration::from_millis(base + r.below(30)),
        rate_bps: [0, 1_000_000][r.below(2) as usize],
        loss: r.uniform() * 0.05,
        duplicate: r.uniform() * 0.02,
        reorder: r.uniform() * 0.05,
        reorder_delay: SimDuration::from_millis(r.below(20)),
    };
    let links = [link(1), link(40)];
    let profile = if r.bernoulli(0.5) {
        SctpConfig::rfc9260()
    } else {
        SctpConfig::rfc2960()
    };
    let server_cfg = SctpConfig {
        outbound_streams: 4,
        send_buffer: 64 * 1024,
        ..profile
    };
    let client_cfg = SctpConfig {
        multipath: Multipath::Asctp,
        ..server_cfg.clone()
    };
    let mut p = Pair::new(
        client_cfg,
        server_cfg,
        &[super::pair::C1],
        &[S1],
        &[S1],
        &links,
        seed,
    );
    p.establish();
    let now = p.now;
    p.client_mut().set_route(now, S1, Some(2)).unwrap();
    let k = p.client_mut().add_route_path(now, S1, 3).unwrap();
    p.route_nets.insert(k, 1);
    let keys = [S1, k];
    // Breaks alternate between the routes, starting with the data route (network 0).
    let mut plan: Vec<(SimTime, RouteAction)> = Vec::new();
    let mut t = now + SimDuration::from_millis(100 + r.below(500));
    for i in 0..3u8 {
        let n = i % 2;
        plan.push((t, RouteAction::Break(n)));
        if r.below(3) > 0 {
            let d = SimDuration::from_millis(r.below(100));
            plan.push((t + d, RouteAction::Notice(n)));
        }
        let back = t + SimDuration::from_millis(1000 + r.below(7000));
        plan.push((back, RouteAction::Repair(n)));
        t = back + SimDuration::from_millis(200 + r.below(1000));
    }
    plan.sort_by_key(|(t, _)| *t);
    let mut next = 0;
    let (n_up, n_down) = (300 + r.below(300) as usize, r.below(20) as usize);
    let mut up = Workload::random(&mut r, n_up, 4);
    let mut down = Workload::random(&mut r, n_down, 4);
    let mut shut = false;
    let finished = p.run_until(ms(3_600_000), |p| {
        let now = p.now;
        while let Some(&(at, action)) = plan.get(next).filter(|(at, _)| *at <= now) {
            let _ = at;
            next += 1;
            match action {
                RouteAction::Break(n) => p.set_link(n, true, false),
                RouteAction::Notice(n) => {
                    let _ = p.client_mut().set_route(now, keys[n as usize], None);
                }
                RouteAction::Repair(n) => {
                    p.set_link(n, true, true);
                    let key = keys[n as usize];
                    // The path manager tells a lost route's path that it has one again (a
                    // route it never heard was broken is still the path's route).
                    let _ = p.client_mut().set_route(now, key, None);
                    let _ = p.client_mut().set_route(now, key, Some(2 + u32::from(n)));
                }
            }
        }
        up.pump(0, p.client_mut(), now);
        if let Some(s) = p.server_mut() {
            if !s.is_closed() && s.state() == State::Established {
                down.pump(1, s, now);
            }
        }
        if up.done() && down.done() && !shut {
            shut = true;
            p.client_mut().shutdown(now);
        }
        p.client().is_closed() && p.server().is_some_and(|s| s.is_closed())
    });
    assert!(
        finished,
        "seed {seed}: did not finish, client {:?} {:?}",
        p.client().state(),
        p.client().status()
    );
    assert!(
        p.client_events
            .iter()
            .any(|(_, e)| *e == SctpEvent::ShutdownComplete),
        "seed {seed}: no clean shutdown"
    );
    check_delivery(0, &up, &p.server_rx);
    check_delivery(1, &down, &p.client_rx);
    let s = p.client().stats();
    (s.path_switches, s.failover_retransmissions)
}

/// Tier 3 (DESIGN.md §8): A-SCTP delivers every message exactly once and in order across
/// route breaks, with and without DSR's notice, under loss, duplication and reordering.
#[test]
fn exactly_once_across_route_breaks() {
    let mut failover = 0;
    for seed in 0..24 {
        let (s, f) = exactly_once_over_breaking_routes(seed);
        // The property is exercised: data moved between the routes in every run.
        assert!(s >= 1, "seed {seed}: no switch");
        failover += f;
    }
    assert!(
        failover > 100,
        "windows were in flight at the switches: {failover}"
    );
}

// ----- Ablation switches (`AsctpRules`): each rule off gives plain SCTP's behaviour -----

/// A-SCTP with the rules `off` switches off (the others on).
fn ablated(off: impl FnOnce(&mut AsctpRules)) -> SctpConfig {
    let mut c = acfg();
    off(&mut c.asctp_rules);
    c
}

/// [`two_routes_with`] `c`, three 1000-byte messages sent, all on the data path R1.
fn loaded_two_routes(c: SctpConfig) -> Harness {
    let mut h = two_routes_with(c);
    for _ in 0..3 {
        h.send_msg(1000);
    }
    assert_eq!(data_paths(&mut h), vec![Some(R1); 3]);
    h
}

/// (path, TSN) of every DATA chunk in `pkts`.
fn data_on(pkts: &[Sent]) -> Vec<(Option<Ipv4Addr>, Tsn)> {
    pkts.iter()
        .flat_map(|t| {
            data_chunks(&t.packet.chunks)
                .into_iter()
                .map(move |d| (t.path, d.tsn))
        })
        .collect()
}

#[test]
fn rule_1_off_retransmits_on_the_alternate_route() {
    let mut h = loaded_two_routes(ablated(|r| r.retransmit_on_data_path = false));
    // R1 broken (nothing acknowledged), K's heartbeats answered. The T3-rtx expiry at 1 s
    // is R1's first failure; RFC 9260 §6.4 (`t3_rtx_to_alternate`) retransmits on K, where
    // rule 1 keeps it on R1 (`data_goes_on_the_best_route_only_while_it_is_active`).
    let start = h.now;
    let mut sent = Vec::new();
    let mut t = start;
    while t < start + SimDuration::from_millis(1500) {
        t += SimDuration::from_millis(10);
        h.at(t);
        let pkts = h.all();
        answer_in(&mut h, &pkts, K);
        sent.extend(data_on(&pkts));
    }
    assert_eq!(h.a.stats().t3_timeouts, 1);
    assert_eq!(sent.first(), Some(&(Some(K), h.ltsn(0))), "{sent:?}");
    assert!(sent.iter().all(|(p, _)| *p == Some(K)), "{sent:?}");
    assert!(h.a.stats().retransmissions_to_alternate > 0);
    // R1 is still the data path (one failure of two): new data goes there.
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Active);
    assert_eq!(h.a.primary(), R1);
    h.send_msg(1000);
    let new: Vec<_> = data_on(&h.all())
        .into_iter()
        .filter(|(_, tsn)| *tsn == h.ltsn(3))
        .collect();
    assert_eq!(new, vec![(Some(R1), h.ltsn(3))]);
}

#[test]
fn rule_2_off_heartbeats_as_rfc9260() {
    let c = SctpConfig {
        heartbeats: true,
        ..ablated(|r| r.heartbeat_every_rto = false)
    };
    let mut h = two_routes_with(c);
    let start = h.now;
    let times = heartbeat_times(&mut h, SimDuration::from_secs(60));
    // RFC 9260 §8.3: RTO (1 s) ± 50 % + HB.interval (30 s) between heartbeats, not every RTO
    // (`heartbeats_go_every_rto_on_every_route`: at least 4 in 5 s).
    let hb = SctpConfig::rfc9260().hb_interval;
    for key in [R1, K] {
        let at: Vec<SimTime> = times
            .iter()
            .filter(|(_, p)| *p == Some(key))
            .map(|(t, _)| *t)
            .collect();
        assert!(
            at.iter().all(|t| *t >= start + hb),
            "{key}: none within HB.interval: {at:?}"
        );
        assert!((1..=2).contains(&at.len()), "{key}: {at:?}");
        for w in at.windows(2) {
            assert!(w[1] - w[0] >= hb, "{key}: {at:?}");
        }
    }
}

#[test]
fn rule_2_off_the_data_path_is_not_heartbeated_while_data_flows() {
    let c = SctpConfig {
        heartbeats: true,
        ..ablated(|r| r.heartbeat_every_rto = false)
    };
    let mut h = two_routes_with(c);
    let start = h.now;
    let mut on_r1 = 0;
    let mut t = start;
    let mut k = 0u32;
    while t < start + SimDuration::from_secs(70) {
        t += SimDuration::from_millis(500);
        h.at(t);
        // A message every 0.5 s, acknowledged at once.
        h.send_msg(100);
        let pkts = h.all();
        on_r1 += pkts
            .iter()
            .filter(|s| s.path == Some(R1))
            .flat_map(|s| s.packet.chunks.iter())
            .filter(|c| matches!(c, ChunkRepr::Heartbeat { .. }))
            .count();
        answer_in(&mut h, &pkts, K);
        let ack = h.sack(k + 1, &[], 65_536);
        h.inject(vec![ack]);
        k += 1;
        h.all();
    }
    assert_eq!(on_r1, 0, "RFC 9260 §8.3: only idle destinations are probed");
    assert!(h.a.path_status(K).unwrap().state == PathState::Active);
    assert!(h.a.paths[1].stats.heartbeats_sent >= 2, "K is idle: probed");
}

#[test]
fn rule_3_off_two_failed_heartbeats_leave_a_route_active() {
    let mut h = two_routes_with(ablated(|r| r.two_heartbeat_failures = false));
    assert_eq!(h.a.paths[1].path_max_retrans, cfg().path_max_retrans);
    // K's heartbeats go unanswered (as in `a_route_is_inactive_after_two_failed_heartbeats`,
    // where K is inactive at start + 3 s with its RTO at 1 s).
    let start = h.now;
    let mut t = start;
    while t < start + SimDuration::from_millis(4500) {
        t += SimDuration::from_millis(10);
        h.at(t);
        answer_on(&mut h, R1);
        h.all();
        if t == start + SimDuration::from_millis(3000) {
            let k = h.a.path_status(K).unwrap();
            assert_eq!((k.state, k.error_count), (PathState::Active, 1));
            assert_eq!(k.rto, SimDuration::from_secs(2), "backed off (§8.3)");
        }
    }
    // Heartbeats at + 1 s (failed at + 2 s) and + 2 s (failed at + 2 s + 2 s).
    let k = h.a.path_status(K).unwrap();
    assert_eq!((k.state, k.error_count), (PathState::Active, 2));
    assert_eq!(k.rto, SimDuration::from_secs(4), "backed off twice");
    // Six failures (Path.Max.Retrans 5 + 1) make it inactive: after 4, 8, 16 and 32 s more.
    h.at(start + SimDuration::from_secs(70));
    answer_on(&mut h, R1);
    assert_eq!(h.a.path_status(K).unwrap().state, PathState::Inactive);
    assert!(h.take_events().contains(&SctpEvent::PathDown { addr: K }));
}

#[test]
fn rule_4_off_the_notice_does_not_move_data() {
    let mut h = loaded_two_routes(ablated(|r| r.route_notice = false));
    let now = h.now;
    h.a.set_route(now, R1, None).unwrap();
    // Noted, but no switch, no failover retransmission: R1 is still the data path.
    let r1 = h.a.path_status(R1).unwrap();
    assert_eq!((r1.state, r1.route), (PathState::Active, PathRoute::Lost));
    assert_eq!(h.a.primary(), R1);
    assert!(data_on(&h.all()).is_empty());
    assert_eq!(h.a.stats().failover_retransmissions, 0);
    assert!(switches(&mut h.a).is_empty());
    h.send_msg(1000);
    assert_eq!(data_paths(&mut h), vec![Some(R1)]);
    // R1's own failures (T3-rtx at 1 s, then heartbeat and T3-rtx at 3 s) still move data.
    let start = h.now;
    let mut t = start;
    while t < start + SimDuration::from_secs(4) && h.a.primary() == R1 {
        t += SimDuration::from_millis(10);
        h.at(t);
        answer_on(&mut h, K);
    }
    assert_eq!(h.a.primary(), K);
    let sw = switches(&mut h.a);
    assert_eq!(sw.len(), 1);
    assert_ne!(sw[0].2, SwitchCause::RouteBroken, "{sw:?}");
    // A secondary path still takes the notice: inactive at once.
    let mut h = two_routes_with(ablated(|r| r.route_notice = false));
    let now = h.now;
    h.a.set_route(now, K, None).unwrap();
    assert_eq!(h.a.path_status(K).unwrap().state, PathState::Inactive);
}

#[test]
fn rule_5_off_the_window_waits_for_its_t3_rtx() {
    let mut h = two_routes_with(ablated(|r| r.failover_retransmit = false));
    for _ in 0..3 {
        h.send_msg(1000);
    }
    let tsns = h.all_data_tsns();
    assert_eq!(tsns.len(), 3);
    h.at(h.now + SimDuration::from_millis(50));
    h.all();
    let now = h.now;
    h.a.set_route(now, R1, None).unwrap();
    // The switch happens (rule 4), but nothing is sent again at once
    // (`the_routing_protocols_notice_switches_at_once`: all three on K).
    assert_eq!(h.a.primary(), K);
    assert!(data_on(&h.all()).is_empty());
    assert_eq!(h.a.stats().failover_retransmissions, 0);
    // The T3-rtx timer of R1 (started at the first send) expires at 1 s: then on K.
    let start = h.now;
    let mut sent = Vec::new();
    let mut t = start;
    while t < start + SimDuration::from_secs(1) {
        t += SimDuration::from_millis(10);
        h.at(t);
        let pkts = h.all();
        answer_in(&mut h, &pkts, K);
        sent.extend(data_on(&pkts));
    }
    assert_eq!(h.a.stats().t3_timeouts, 1);
    assert_eq!(sent.first(), Some(&(Some(K), tsns[0])), "{sent:?}");
    assert!(sent.iter().all(|(p, _)| *p == Some(K)));
    assert_eq!(h.a.stats().failover_retransmissions, 0);
}

#[test]
fn rule_6_off_gap_reports_of_the_other_route_count_misses() {
    let mut h = two_routes_with(ablated(|r| r.tsn_range = false));
    let rtx = overtaken(&mut h, K);
    // As plain SCTP (`gap_reports_outside_the_paths_tsn_range_count_no_miss`): R1's four
    // chunks are spuriously fast retransmitted too, on the data path K (rule 1).
    assert_eq!(rtx.len(), 5, "{rtx:?}");
    assert!(rtx.iter().all(|(p, _)| *p == K), "{rtx:?}");
    let s = h.a.stats();
    assert_eq!(s.fast_retransmissions, 5);
    assert_eq!(s.misses_out_of_range, 0);
}

#[test]
fn rule_7_off_a_new_route_keeps_the_paths_state() {
    let mut h = two_routes_with(ablated(|r| r.fresh_path_state = false));
    let before = h.a.path_status(K).unwrap();
    assert!(
        before.srtt.is_some(),
        "two_routes' heartbeat gave K an RTT sample"
    );
    h.a.paths[1].cwnd = 12_345;
    h.a.paths[1].ssthresh = 23_456;
    let now = h.now;
    h.a.set_route(now, K, None).unwrap();
    h.at(now + SimDuration::from_secs(3));
    h.all();
    let now = h.now;
    h.a.set_route(now, K, Some(5)).unwrap();
    let k = h.a.path_status(K).unwrap();
    // `a_new_route_is_a_new_path` (rule on): srtt None, RTO.Initial, the initial cwnd.
    assert_eq!((k.cwnd, k.ssthresh), (12_345, 23_456));
    assert_eq!((k.srtt, k.rto), (before.srtt, before.rto));
    // Still probed over the new route before it carries data.
    assert_eq!((k.state, k.error_count), (PathState::Unconfirmed, 0));
    let t = h.next().expect("probed at once");
    assert_eq!(t.path, Some(K));
    h.out.push_front((now, t));
    answer_on(&mut h, K);
    assert_eq!(h.a.path_status(K).unwrap().state, PathState::Active);
}

#[test]
fn every_rule_on_is_the_default() {
    assert_eq!(SctpConfig::default().asctp_rules, AsctpRules::ALL);
    assert_eq!(acfg().asctp_rules, AsctpRules::default());
}
