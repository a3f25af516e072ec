//! cSCTP (Aydin & Shen §II): the handoff indication on the wire, the MN and CN state machines,
//! and the duplicated transfer with per-path SACKs (the paper's Fig. 2 ambiguity, a lossy
//! handoff end to end, and the option off).

use super::multihoming::answer_heartbeats;
use super::pair::{LinkCfg, Pair, C1, C2, S1};
use super::*;
use crate::transport::sctp::{ApiError, CsctpConfig, HandoffRole, HandoffState, PathState};
use sctpsim_wire::sctp::{AsconfChunk, GapAckBlock, HandoffIndication, SackChunk};

fn ccfg(dup: bool) -> SctpConfig {
    SctpConfig {
        csctp: CsctpConfig {
            enabled: true,
            duplicate_during_handoff: dup,
        },
        ..cfg()
    }
}

fn asconf(seq: u32, handoff: HandoffIndication, params: Vec<Parameter>) -> ChunkRepr {
    ChunkRepr::Asconf(AsconfChunk {
        handoff,
        sequence_number: seq,
        address: IpAddr::V4(R1),
        params,
    })
}

fn handoff_events(events: &[SctpEvent]) -> Vec<(bool, HandoffRole)> {
    events
        .iter()
        .filter_map(|e| match e {
            SctpEvent::Handoff { started, role } => Some((*started, *role)),
            _ => None,
        })
        .collect()
}

fn per_path_sack(cum: Tsn, gaps: &[(u16, u16)]) -> ChunkRepr {
    ChunkRepr::Sack(SackChunk {
        per_path: true,
        dac_two_packets: false,
        cum_tsn_ack: cum,
        a_rwnd: 100_000,
        gap_blocks: gaps
            .iter()
            .map(|&(start, end)| GapAckBlock { start, end })
            .collect(),
        duplicate_tsns: vec![],
    })
}

#[test]
fn mn_signals_start_and_end_and_changes_state_on_the_acks() {
    let mut h = established_with(ccfg(false), &[L1], &[R1]);
    // Without cSCTP the calls are refused.
    let mut plain = established_with(cfg(), &[L1], &[R1]);
    assert_eq!(
        plain.a.add_local_address_handoff(plain.now, L2),
        Err(ApiError::NotSupported)
    );
    h.a.add_local_address_handoff(h.now, L2).unwrap();
    let t = h.next().unwrap();
    let ChunkRepr::Asconf(a) = &t.packet.chunks[0] else {
        panic!("{t:?}")
    };
    assert_eq!(a.handoff, HandoffIndication::Start);
    assert!(matches!(a.params[..], [Parameter::AddIpAddress { .. }]));
    assert_eq!(
        h.a.handoff_state(),
        HandoffState::Normal,
        "not before the ack"
    );
    let seq = a.sequence_number;
    send!(
        h,
        [ChunkRepr::AsconfAck(sctpsim_wire::sctp::AsconfAckChunk {
            sequence_number: seq,
            params: vec![]
        })]
    );
    assert_eq!(h.a.handoff_state(), HandoffState::Handoff);
    assert_eq!(
        handoff_events(&h.take_events()),
        vec![(true, HandoffRole::MobileNode)]
    );
    // Set primary is a plain ASCONF; the end indication rides with the Delete IP.
    h.a.request_peer_primary(h.now, L2).unwrap();
    h.a.delete_local_address_handoff(h.now, L1).unwrap();
    let t = h.next().unwrap();
    let ChunkRepr::Asconf(b) = &t.packet.chunks[0] else {
        panic!()
    };
    assert_eq!(b.handoff, HandoffIndication::None);
    assert_eq!(b.params.len(), 1, "an indicated request is not bundled");
    send!(
        h,
        [ChunkRepr::AsconfAck(sctpsim_wire::sctp::AsconfAckChunk {
            sequence_number: b.sequence_number,
            params: vec![]
        })]
    );
    let t = h.next().unwrap();
    let ChunkRepr::Asconf(c) = &t.packet.chunks[0] else {
        panic!()
    };
    assert_eq!(c.handoff, HandoffIndication::End);
    assert!(matches!(c.params[..], [Parameter::DeleteIpAddress { .. }]));
    assert_eq!(h.a.handoff_state(), HandoffState::Handoff);
    send!(
        h,
        [ChunkRepr::AsconfAck(sctpsim_wire::sctp::AsconfAckChunk {
            sequence_number: c.sequence_number,
            params: vec![]
        })]
    );
    assert_eq!(h.a.handoff_state(), HandoffState::Normal);
    assert_eq!(
        handoff_events(&h.take_events()),
        vec![(false, HandoffRole::MobileNode)]
    );
    assert_eq!(h.a.handoff_role(), Some(HandoffRole::MobileNode));
}

#[test]
fn cn_follows_the_indications_and_a_plain_peer_ignores_them() {
    for enabled in [true, false] {
        let c = if enabled { ccfg(false) } else { cfg() };
        let mut h = established_with(c, &[L1], &[R1]);
        let seq = REMOTE_TSN.0;
        let add = Parameter::AddIpAddress {
            correlation_id: 1,
            address: IpAddr::V4(R2),
        };
        send!(h, [asconf(seq, HandoffIndication::Start, vec![add])]);
        assert!(
            h.a.peer_addrs().contains(&R2),
            "processed as RFC 5061 anyway"
        );
        let want = if enabled {
            HandoffState::Handoff
        } else {
            HandoffState::Normal
        };
        assert_eq!(h.a.handoff_state(), want);
        let del = Parameter::DeleteIpAddress {
            correlation_id: 2,
            address: IpAddr::V4(R1),
        };
        // The packet comes from R2 (a request to delete the source address is refused).
        h.inject_from(
            R2,
            vec![asconf(
                seq.wrapping_add(1),
                HandoffIndication::End,
                vec![del],
            )],
        );
        assert_eq!(h.a.peer_addrs(), vec![R2]);
        assert_eq!(h.a.handoff_state(), HandoffState::Normal);
        let ev = handoff_events(&h.take_events());
        if enabled {
            assert_eq!(
                ev,
                vec![
                    (true, HandoffRole::Correspondent),
                    (false, HandoffRole::Correspondent)
                ]
            );
        } else {
            assert!(ev.is_empty());
        }
    }
}

/// The CN in Handoff with duplicated transfer, R2 confirmed, two chunks sent to R1 with copies
/// to R2.
fn cn_duplicating() -> Harness {
    let mut h = established_with(ccfg(true), &[L1], &[R1]);
    let add = Parameter::AddIpAddress {
        correlation_id: 1,
        address: IpAddr::V4(R2),
    };
    send!(
        h,
        [asconf(REMOTE_TSN.0, HandoffIndication::Start, vec![add])]
    );
    h.all();
    let now = h.now;
    h.a.request_heartbeat(now, R2).unwrap();
    assert!(answer_heartbeats(&mut h) >= 1);
    assert!(h.a.path_status(R2).unwrap().state == PathState::Active);
    assert_eq!(h.a.handoff_state(), HandoffState::Handoff);
    h.take_events();
    h.send_msg(100);
    h.send_msg(100);
    let sent = h.all();
    let to = |d: Ipv4Addr| -> Vec<Tsn> {
        sent.iter()
            .filter(|t| t.dst == d)
            .flat_map(|t| data_chunks(&t.packet.chunks).into_iter().map(|c| c.tsn))
            .collect()
    };
    assert_eq!(to(R1), vec![h.ltsn(0), h.ltsn(1)]);
    assert_eq!(
        to(R2),
        vec![h.ltsn(0), h.ltsn(1)],
        "copies to the second address"
    );
    assert_eq!(h.a.stats().csctp_duplicates_sent, 2);
    h
}

/// Aydin & Shen Fig. 2: TSN 1 arrives on ip1 only, TSN 2 on ip2 only. Each per-path SACK
/// credits its own path for its own copy only, and together they acknowledge both TSNs.
#[test]
fn fig2_each_path_is_credited_only_for_its_own_copies() {
    let mut h = cn_duplicating();
    assert_eq!(h.a.path_status(R1).unwrap().flight_size, 200);
    assert_eq!(h.a.path_status(R2).unwrap().flight_size, 200);
    // SACK for ip1: cum = TSN 1 (the first). TSN 2 lost on ip1.
    let s1 = per_path_sack(h.ltsn(0), &[]);
    h.inject_from(R1, vec![s1]);
    assert_eq!(h.a.path_stats(R1).unwrap().bytes_acked, 100);
    assert_eq!(h.a.path_stats(R2).unwrap().bytes_acked, 0);
    assert_eq!(h.a.path_status(R1).unwrap().flight_size, 100);
    assert_eq!(h.a.path_status(R2).unwrap().flight_size, 200);
    assert_eq!(h.a.status().unacked_chunks, 1);
    // SACK for ip2: per-path cum is before TSN 1 (lost on ip2), gap block = TSN 2.
    let s2 = per_path_sack(h.ltsn(0).prev(), &[(2, 2)]);
    h.inject_from(R2, vec![s2]);
    assert_eq!(
        h.a.path_stats(R1).unwrap().bytes_acked,
        100,
        "ip1 not credited for TSN 2"
    );
    assert_eq!(
        h.a.path_stats(R2).unwrap().bytes_acked,
        100,
        "ip2 only for TSN 2"
    );
    assert_eq!(h.a.status().unacked_chunks, 0, "both acknowledged globally");
    // Still in flight: TSN 2's copy on ip1, TSN 1's copy on ip2, each its own path's.
    assert_eq!(h.a.path_status(R1).unwrap().flight_size, 100);
    assert_eq!(h.a.path_status(R2).unwrap().flight_size, 100);
    assert_eq!(h.a.stats().csctp_per_path_sacks_received, 2);
    // Their paths report them missing while later copies arrive: lost there, each path's
    // window reduced, nothing retransmitted (both chunks arrived).
    for i in 0..3u16 {
        h.wait(SimDuration::from_millis(1));
        h.send_msg(100);
        h.all();
        h.inject_from(R1, vec![per_path_sack(h.ltsn(0), &[(2, 2 + i)])]);
        h.inject_from(R2, vec![per_path_sack(h.ltsn(0).prev(), &[(2, 3 + i)])]);
    }
    assert_eq!(h.a.stats().csctp_copies_lost, 2);
    assert_eq!(h.a.path_status(R1).unwrap().flight_size, 0);
    assert_eq!(h.a.path_status(R2).unwrap().flight_size, 0);
    assert_eq!(h.a.path_stats(R1).unwrap().fast_retransmit_reductions, 1);
    assert_eq!(h.a.path_stats(R2).unwrap().fast_retransmit_reductions, 1);
    assert_eq!(h.a.stats().fast_retransmissions, 0);
    h.a.check_invariants();
}

/// A copy lost on its path is retransmitted only when no copy of the chunk is outstanding.
#[test]
fn chunk_lost_on_both_paths_is_retransmitted_once() {
    let mut h = cn_duplicating();
    // TSN 0 is lost on both paths; TSN 1 and the later ones arrive on both.
    for i in 0..3u16 {
        h.wait(SimDuration::from_millis(1));
        h.send_msg(100);
        h.all();
        h.inject_from(R1, vec![per_path_sack(h.ltsn(0).prev(), &[(2, 3 + i)])]);
        if i < 2 {
            h.inject_from(R2, vec![per_path_sack(h.ltsn(0).prev(), &[(2, 3 + i)])]);
        }
    }
    assert_eq!(h.a.stats().csctp_copies_lost, 1);
    assert!(
        h.all_data_tsns().is_empty(),
        "the copy on R2 is still outstanding"
    );
    h.inject_from(R2, vec![per_path_sack(h.ltsn(0).prev(), &[(2, 5)])]);
    assert_eq!(h.a.stats().csctp_copies_lost, 2);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)], "retransmitted once");
    assert_eq!(h.a.stats().csctp_retransmissions_of_duplicated, 1);
    h.a.check_invariants();
}

// ----------------------------------------------------------------- end to end

/// How the MN hands off in [`handoff_run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Plain RFC 5061 ASCONFs, cSCTP off at both ends.
    Rfc5061,
    /// cSCTP signalling, no duplicated transfer.
    Signal,
    /// cSCTP with duplicated transfer and per-path SACKs.
    Duplicate,
}

/// What happened in one pair run of a handoff.
struct Run {
    p: Pair,
    cwnd_new_before_primary: u32,
    initial_cwnd: u32,
    rtx_during_handoff: u64,
    not_duplicated_during_handoff: u64,
}

/// MN (client, C1) receives a bulk transfer from the CN (server, S1, single-homed). At 1 s the
/// old network (0) starts losing 30 % of the CN's packets to the MN; the MN acquires C2
/// (network 1, loss-free) and starts a handoff; 2 s later it asks for C2 as primary; 1 s after
/// that it deletes C1.
fn handoff_run(mode: Mode, seed: u64) -> Run {
    let dup = mode == Mode::Duplicate;
    let mut c = SctpConfig {
        heartbeats: true,
        ..ccfg(dup)
    };
    c.csctp.enabled = mode != Mode::Rfc5061;
    let signal = c.csctp.enabled;
    let link = LinkCfg {
        rate_bps: 4_000_000,
        ..LinkCfg::clean(20)
    };
    let mut p = Pair::new(
        c.clone(),
        c,
        &[C1],
        &[S1],
        &[S1],
        &[link.clone(), link],
        seed,
    );
    p.establish();
    // The CN keeps its send buffer full until the MN deletes its old address.
    let mut sent = 0u32;
    let mut phase = 0;
    let mut mark = SimTime::ZERO;
    let (mut cwnd_new_before_primary, mut initial_cwnd) = (0, 0);
    let (mut rtx0, mut rtx_during_handoff) = (0, 0);
    let (mut nodup0, mut not_duplicated_during_handoff) = (0, 0);
    let ok = p.run_until(ms(120_000), |p| {
        let now = p.now;
        // Until the send buffer is full.
        if phase < 4 {
            loop {
                let mut data = vec![0u8; 400];
                data[..4].copy_from_slice(&sent.to_be_bytes());
                let server = p.server_mut().unwrap();
                if server.send(now, data, 0, false, None, 0).is_err() {
                    break;
                }
                sent += 1;
            }
        }
        let rtx = |p: &Pair| {
            let s = p.server().unwrap().stats();
            s.fast_retransmissions + s.t3_retransmissions
        };
        match phase {
            0 if now >= ms(1_000) => {
                p.set_loss(0, false, 0.3);
                let mn = p.client_mut();
                if signal {
                    mn.add_local_address_handoff(now, C2).unwrap();
                } else {
                    mn.add_local_address(now, C2).unwrap();
                }
                phase = 1;
            }
            // Both ends in Handoff (the MN only once the ASCONF-ACK crossed the lossy
            // network) and the new address confirmed.
            // (Without the indication: the same instants, read from the addresses.)
            1 if p.client().local_addrs().contains(&C2)
                && p.server().unwrap().path_status(C2).map(|s| s.state)
                    == Some(PathState::Active)
                && (!signal
                    || (p.server().unwrap().handoff_state() == HandoffState::Handoff
                        && p.client().handoff_state() == HandoffState::Handoff)) =>
            {
                rtx0 = rtx(p);
                nodup0 = p.server().unwrap().stats().csctp_not_duplicated;
                initial_cwnd = p.server().unwrap().path_status(C2).unwrap().cwnd;
                mark = now;
                phase = 2;
            }
            2 if now >= mark + SimDuration::from_millis(2_000) => {
                cwnd_new_before_primary = p.server().unwrap().path_status(C2).unwrap().cwnd;
                p.client_mut().request_peer_primary(now, C2).unwrap();
                mark = now;
                phase = 3;
            }
            3 if now >= mark + SimDuration::from_millis(1_000) => {
                rtx_during_handoff = rtx(p) - rtx0;
                not_duplicated_during_handoff =
                    p.server().unwrap().stats().csctp_not_duplicated - nodup0;
                let mn = p.client_mut();
                if signal {
                    mn.delete_local_address_handoff(now, C1).unwrap();
                } else {
                    mn.delete_local_address(now, C1).unwrap();
                }
                phase = 4;
            }
            _ => {}
        }
        phase == 4
            && p.client_rx.len() == sent as usize
            && p.client().local_addrs() == [C2]
            && p.server().unwrap().peer_addrs() == vec![C2]
            && p.client().handoff_state() == HandoffState::Normal
            && p.server().unwrap().handoff_state() == HandoffState::Normal
    });
    assert!(
        ok,
        "{mode:?} seed {seed}: phase {phase}, {} of {sent} delivered; server {:?} {:?}; client {:?}",
        p.client_rx.len(),
        p.server().unwrap().stats(),
        p.server_events,
        p.client_events,
    );
    // Every message exactly once, in order.
    for (i, m) in p.client_rx.iter().enumerate() {
        assert_eq!(
            m.data[..4],
            (i as u32).to_be_bytes(),
            "dup={dup}: message {i}"
        );
    }
    Run {
        p,
        cwnd_new_before_primary,
        initial_cwnd,
        rtx_during_handoff,
        not_duplicated_during_handoff,
    }
}

#[test]
fn duplicated_transfer_builds_the_new_path_and_delivers_exactly_once() {
    for seed in 1..=10 {
        let r = handoff_run(Mode::Duplicate, seed);
        let (mn, cn) = (r.p.client(), r.p.server().unwrap());
        for (events, role) in [
            (&r.p.client_events, HandoffRole::MobileNode),
            (&r.p.server_events, HandoffRole::Correspondent),
        ] {
            let ev: Vec<_> = events.iter().map(|(_, e)| e.clone()).collect();
            assert_eq!(handoff_events(&ev), vec![(true, role), (false, role)]);
        }
        assert!(cn.stats().csctp_duplicates_sent > 100, "{:?}", cn.stats());
        assert!(mn.stats().csctp_per_path_sacks_sent > 0);
        assert!(cn.stats().csctp_per_path_sacks_received > 0);
        // Seed 3: the old path collapsed (one MTU of cwnd, RTO backed off to 4 s by T3-rtx)
        // before the new address was confirmed, so almost no new data, hence no duplicate,
        // went out in the window: duplicates only follow new data to the primary.
        assert!(
            seed == 3 || r.cwnd_new_before_primary > r.initial_cwnd,
            "seed {seed}: new path cwnd {} grew before set-primary (initial {}); {:?} {:?}",
            r.cwnd_new_before_primary,
            r.initial_cwnd,
            cn.stats(),
            cn.path_stats(C2)
        );
        // Every chunk that had a copy on the loss-free path arrived there: none is
        // retransmitted (only chunks sent without a copy can need it).
        assert_eq!(
            cn.stats().csctp_retransmissions_of_duplicated,
            0,
            "seed {seed}: {} retransmissions during the handoff, {} chunks without copy",
            r.rtx_during_handoff,
            r.not_duplicated_during_handoff
        );
        assert_eq!(cn.peer_addrs(), vec![C2]);
    }
}

#[test]
fn without_duplication_it_is_plain_csctp() {
    let r = handoff_run(Mode::Signal, 1);
    let (mn, cn) = (r.p.client(), r.p.server().unwrap());
    assert_eq!(cn.stats().csctp_duplicates_sent, 0);
    assert_eq!(cn.stats().csctp_not_duplicated, 0);
    assert_eq!(mn.stats().csctp_per_path_sacks_sent, 0);
    assert_eq!(cn.stats().csctp_per_path_sacks_received, 0);
    assert!(
        r.rtx_during_handoff > 0,
        "the old path's losses are repaired by retransmission"
    );
    // The indication changes nothing else: the same run with plain RFC 5061 ASCONFs sends and
    // receives exactly the same.
    let plain = handoff_run(Mode::Rfc5061, 1);
    assert_eq!(plain.p.server().unwrap().stats(), cn.stats());
    assert_eq!(plain.p.client().stats(), mn.stats());
    assert_eq!(plain.p.client_rx, r.p.client_rx);
}
