//! Multi-homing: RFC 9260 §5.4 (path confirmation), §6.4 (primary path, retransmission to an
//! alternate, SACK to the source of the DATA, source address per path), §8.2 (Path.Max.Retrans,
//! inactive), §8.3 (heartbeats) and the failover / return-to-primary behaviour.

use super::*;
use crate::transport::sctp::{ApiError, PathState};

/// Answers every HEARTBEAT sent so far (HEARTBEAT ACK from its destination) and returns how
/// many there were.
pub(super) fn answer_heartbeats(h: &mut Harness) -> usize {
    let hbs: Vec<(Ipv4Addr, Vec<u8>)> = h
        .all_chunks()
        .into_iter()
        .filter_map(|(d, c)| match c {
            ChunkRepr::Heartbeat { info } => Some((d, info)),
            _ => None,
        })
        .collect();
    for (d, info) in &hbs {
        h.inject_from(*d, vec![ChunkRepr::HeartbeatAck { info: info.clone() }]);
    }
    hbs.len()
}

/// Established with two paths (R1 primary, R2 confirmed by a heartbeat).
pub(super) fn two_paths(c: SctpConfig) -> Harness {
    let mut h = established_with(c, &[L1, L2], &[R1, R2]);
    assert_eq!(h.a.path_status(R2).unwrap().state, PathState::Unconfirmed);
    let now = h.now;
    h.at(now);
    assert_eq!(answer_heartbeats(&mut h), 1);
    assert_eq!(h.a.path_status(R2).unwrap().state, PathState::Active);
    h.all();
    h.take_events();
    h
}

fn data_dests(h: &mut Harness) -> Vec<Ipv4Addr> {
    h.all()
        .into_iter()
        .filter(|t| !data_chunks(&t.packet.chunks).is_empty())
        .map(|t| t.dst)
        .collect()
}

#[test]
fn addresses_from_the_init_ack_are_confirmed_by_heartbeats() {
    let mut h = established_with(cfg(), &[L1, L2], &[R1, R2]);
    assert_eq!(h.a.peer_addrs(), vec![R1, R2]);
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Active);
    assert_eq!(h.a.path_status(R2).unwrap().state, PathState::Unconfirmed);
    // No data to an unconfirmed address: the alternate for R1 is R1 itself for now.
    assert_eq!(h.a.alternate(R1), R1);
    let now = h.now;
    h.at(now);
    let t = h.next().expect("HEARTBEAT");
    assert_eq!((t.src, t.dst), (L2, R2), "source address per path");
    let ChunkRepr::Heartbeat { info } = &t.packet.chunks[0] else {
        panic!()
    };
    h.at(ms(30));
    h.inject_from(R2, vec![ChunkRepr::HeartbeatAck { info: info.clone() }]);
    let st = h.a.path_status(R2).unwrap();
    assert_eq!(st.state, PathState::Active);
    assert_eq!(st.srtt, Some(SimDuration::from_millis(30)));
    assert!(h.take_events().contains(&SctpEvent::PathUp { addr: R2 }));
    // A HEARTBEAT ACK with a wrong nonce is ignored.
    let mut bad = info.clone();
    bad[19] ^= 1;
    h.inject_from(R2, vec![ChunkRepr::HeartbeatAck { info: bad }]);
    assert_eq!(h.a.stats().heartbeat_acks_received, 1);
}

#[test]
fn heartbeats_are_answered() {
    let mut h = established();
    send!(
        h,
        [ChunkRepr::Heartbeat {
            info: vec![1, 2, 3]
        }]
    );
    recv!(h, [ChunkRepr::HeartbeatAck { info }] => { assert_eq!(info, &vec![1, 2, 3]); });
}

#[test]
fn timed_out_data_is_retransmitted_to_the_alternate() {
    let mut h = two_paths(cfg());
    h.send_msg(100);
    assert_eq!(data_dests(&mut h), vec![R1]);
    h.at(ms(1000));
    let t = h.next().unwrap();
    assert_eq!((t.src, t.dst), (L2, R2));
    assert_eq!(h.a.stats().retransmissions_to_alternate, 1);
    // New data still goes to the primary (it is not inactive yet).
    h.send_msg(100);
    assert_eq!(data_dests(&mut h), vec![R1]);
}

#[test]
fn failover_after_path_max_retrans_and_return_after_heartbeat() {
    let mut h = two_paths(cfg());
    let mut k = 0;
    // R1 is broken: data sent there is never acknowledged; the retransmissions that go to R2
    // are.
    for round in 0..6 {
        h.send_msg(100);
        h.all();
        let t = h.a.poll_timeout().unwrap();
        h.at(t);
        let rtx: Vec<Sent> = h.all();
        assert!(rtx.iter().all(|t| t.dst == R2), "round {round}: {rtx:?}");
        k += 1;
        send!(h, [h.sack(k, &[], 65_536)]);
    }
    let ev = h.take_events();
    assert!(ev.contains(&SctpEvent::PathDown { addr: R1 }), "{ev:?}");
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Inactive);
    assert_eq!(h.a.path_status(R1).unwrap().error_count, 6);
    // Failover: new data goes to R2.
    h.send_msg(100);
    assert_eq!(data_dests(&mut h), vec![R2]);
    assert_eq!(h.a.status().current_path, R2);
    assert_eq!(h.a.stats().path_switches, 1);
    send!(h, [h.sack(k + 1, &[], 65_536)]);
    // Heartbeats probe the inactive path; an answer brings it back and data returns to it.
    h.a.set_path_params(
        h.now,
        Some(R1),
        Some(SimDuration::from_secs(1)),
        None,
        Some(true),
    )
    .unwrap();
    let until = h.now + SimDuration::from_secs(200);
    h.at(until);
    assert!(answer_heartbeats(&mut h) >= 1);
    assert!(h.take_events().contains(&SctpEvent::PathUp { addr: R1 }));
    h.send_msg(100);
    assert_eq!(data_dests(&mut h), vec![R1]);
    assert_eq!(h.a.stats().path_switches, 2);
}

#[test]
fn without_return_to_primary_the_alternate_is_kept() {
    let mut c = cfg();
    c.return_to_primary = false;
    let mut h = two_paths(c);
    for k in 1..=6 {
        h.send_msg(100);
        h.all();
        let t = h.a.poll_timeout().unwrap();
        h.at(t);
        h.all();
        send!(h, [h.sack(k, &[], 65_536)]);
    }
    assert_eq!(h.a.status().current_path, R2);
    // R1 comes back...
    h.a.request_heartbeat(h.now, R1).unwrap();
    answer_heartbeats(&mut h);
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Active);
    // ...but data stays on R2.
    h.send_msg(100);
    assert_eq!(data_dests(&mut h), vec![R2]);
}

#[test]
fn set_primary_moves_new_data() {
    let mut h = two_paths(cfg());
    assert_eq!(
        h.a.set_primary(Ipv4Addr::new(1, 1, 1, 1)),
        Err(ApiError::UnknownAddress)
    );
    h.a.set_primary(R2).unwrap();
    assert!(h
        .take_events()
        .contains(&SctpEvent::PrimaryChanged { addr: R2 }));
    h.send_msg(10);
    assert_eq!(data_dests(&mut h), vec![R2]);
}

#[test]
fn sack_goes_to_the_source_of_the_data() {
    let mut h = two_paths(cfg());
    h.inject_from(R2, vec![rdata(0, 0, 0, b"a"), rdata(1, 0, 1, b"b")]);
    h.inject_from(R2, vec![rdata(2, 0, 2, b"c")]);
    let t = h.next().unwrap();
    assert!(matches!(t.packet.chunks[0], ChunkRepr::Sack(_)));
    assert_eq!((t.src, t.dst), (L2, R2));
}

#[test]
fn source_address_per_path_can_be_set() {
    let mut h = two_paths(cfg());
    assert_eq!(
        h.a.set_source_address(R1, Ipv4Addr::new(9, 9, 9, 9)),
        Err(ApiError::UnknownAddress)
    );
    h.a.set_source_address(R1, L2).unwrap();
    h.send_msg(10);
    let t = h.next().unwrap();
    assert_eq!((t.src, t.dst), (L2, R1));
}

#[test]
fn idle_paths_are_heartbeated_and_unanswered_heartbeats_mark_them_inactive() {
    let mut c = cfg();
    c.heartbeats = true;
    c.hb_interval = SimDuration::from_secs(5);
    let mut h = two_paths(c);
    // Heartbeat period: RTO (1 s) ± 50 % plus HB.interval.
    let mut times = vec![];
    let mut downs = 0;
    for _ in 0..40 {
        let t = h.a.poll_timeout().unwrap();
        h.at(t);
        for tr in h.all() {
            if tr.dst == R2 && matches!(tr.packet.chunks[0], ChunkRepr::Heartbeat { .. }) {
                times.push(h.now);
            } else if tr.dst == R1 {
                // R1 answers.
                if let ChunkRepr::Heartbeat { info } = &tr.packet.chunks[0] {
                    h.inject_from(R1, vec![ChunkRepr::HeartbeatAck { info: info.clone() }]);
                }
            }
        }
        downs += h
            .take_events()
            .iter()
            .filter(|e| **e == SctpEvent::PathDown { addr: R2 })
            .count();
        if downs > 0 {
            break;
        }
    }
    assert_eq!(downs, 1);
    // Path.Max.Retrans = 5: when the sixth heartbeat is found unanswered (at the seventh
    // timer expiry, which sends the seventh heartbeat) R2 goes down.
    assert_eq!(times.len(), 7);
    let first_gap = times[1] - times[0];
    assert!(
        first_gap >= SimDuration::from_millis(5500) && first_gap <= SimDuration::from_millis(7500),
        "{first_gap:?}"
    );
    assert_eq!(h.a.path_status(R1).unwrap().state, PathState::Active);
    assert_eq!(
        h.a.state(),
        State::Established,
        "R1's answers keep the association alive"
    );
}
