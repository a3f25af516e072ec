//! Collisions and restarts: RFC 9260 §5.2.1 (INIT in COOKIE-WAIT / COOKIE-ECHOED), §5.2.2
//! (unexpected INIT), §5.2.3 (unexpected INIT ACK), §5.2.4 (COOKIE ECHO with an existing TCB:
//! actions A–D), §5.2.5 (duplicate COOKIE ACK).

use super::*;
use crate::transport::sctp::cookie::StateCookie;
use crate::transport::sctp::SctpEndpoint;
use sctpsim_wire::sctp::ErrorCause;

fn remote_init(tag: u32, addrs: &[Ipv4Addr]) -> InitChunk {
    InitChunk {
        initiate_tag: tag,
        a_rwnd: 65_536,
        outbound_streams: 10,
        inbound_streams: 10,
        initial_tsn: Tsn(5000),
        params: addrs
            .iter()
            .map(|a| Parameter::Address(IpAddr::V4(*a)))
            .collect(),
    }
}

fn forged_cookie(h: &Harness, my: u32, peer: u32, ties: (u32, u32)) -> Vec<u8> {
    StateCookie {
        created: h.now,
        lifetime: SimDuration::from_secs(60),
        my_vtag: my,
        peer_vtag: peer,
        local_tie_tag: ties.0,
        peer_tie_tag: ties.1,
        my_initial_tsn: Tsn(1),
        peer_initial_tsn: Tsn(5000),
        peer_rwnd: 65_536,
        outbound_streams: 10,
        inbound_streams: 10,
        local_port: LOCAL_PORT,
        peer_port: REMOTE_PORT,
        peer_pr_sctp: false,
        peer_asconf: false,
        peer_i_data: false,
        peer_i_forward_tsn: false,
        peer_reconfig: false,
        peer_nr_sack: false,
        peer_addrs: vec![R1],
        local_addrs: vec![L1],
        auth: None,
    }
    .encode(&h.a.key)
}

#[test]
fn init_in_cookie_wait_is_answered_with_the_original_tag() {
    let (mut h, init) = cookie_wait(cfg(), &[L1], &[R1]);
    h.at(ms(300));
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(remote_init(0x7777, &[]))]);
    let t = h.next().expect("INIT ACK");
    assert_eq!(t.packet.verification_tag, 0x7777);
    let ChunkRepr::InitAck(ack) = &t.packet.chunks[0] else {
        panic!()
    };
    assert_eq!(ack.initiate_tag, init.initiate_tag);
    assert_eq!(ack.initial_tsn, init.initial_tsn);
    // State and T1-init unchanged.
    assert_eq!(h.a.state(), State::CookieWait);
    assert_eq!(h.a.poll_timeout(), Some(ms(1000)));
}

#[test]
fn init_in_cookie_echoed_with_a_new_address_is_aborted() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    let tag = h.a.my_vtag();
    h.inject_raw(
        R1,
        tag,
        vec![ChunkRepr::InitAck(remote_init_ack(
            &[R1],
            b"c",
            false,
            false,
        ))],
    );
    h.all();
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(remote_init(0x8888, &[R2]))]);
    recv!(h, [ChunkRepr::Abort { t_bit: false, causes }] => {
        assert!(matches!(causes[0], ErrorCause::RestartWithNewAddresses { .. }));
    });
    assert_eq!(h.a.state(), State::CookieEchoed);
}

#[test]
fn simultaneous_open_ends_in_one_association() {
    let mut ep_a = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(21));
    let mut ep_b = SctpEndpoint::new(cfg(), REMOTE_PORT, vec![R1], Rng::from_seed(22));
    ep_a.listen(true);
    ep_b.listen(true);
    let mut a = connect_assoc(&mut ep_a, SimTime::ZERO, &[R1], REMOTE_PORT);
    let mut b = connect_assoc(&mut ep_b, SimTime::ZERO, &[L1], LOCAL_PORT);
    for _ in 0..10 {
        let now = SimTime::ZERO;
        let from_a: Vec<Sent> = std::iter::from_fn(|| a.poll_transmit(now).map(sent)).collect();
        let from_b: Vec<Sent> = std::iter::from_fn(|| b.poll_transmit(now).map(sent)).collect();
        for t in from_a {
            b.handle_packet(now, t.src, t.dst, &t.packet);
        }
        for t in from_b {
            a.handle_packet(now, t.src, t.dst, &t.packet);
        }
    }
    assert_eq!(a.state(), State::Established);
    assert_eq!(b.state(), State::Established);
    assert_eq!(a.my_vtag(), b.peer_vtag());
    assert_eq!(b.my_vtag(), a.peer_vtag());
    // Data flows.
    a.send(SimTime::ZERO, b"x".to_vec(), 0, false, None, 0)
        .unwrap();
    let t = sent(a.poll_transmit(SimTime::ZERO).unwrap());
    b.handle_packet(SimTime::ZERO, t.src, t.dst, &t.packet);
    assert_eq!(b.recv().unwrap().data, b"x");
}

#[test]
fn unexpected_init_then_cookie_echo_restarts_the_association() {
    let mut h = established();
    let old_tag = h.a.my_vtag();
    send!(h, [rdata(0, 0, 0, b"before")]);
    h.send_msg(10);
    h.all();
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(remote_init(0x9999, &[R1]))]);
    let t = h.next().expect("INIT ACK");
    assert_eq!(t.packet.verification_tag, 0x9999);
    let ChunkRepr::InitAck(ack) = &t.packet.chunks[0] else {
        panic!()
    };
    assert_ne!(ack.initiate_tag, old_tag, "a new Initiate Tag");
    let cookie = ack.state_cookie().unwrap().to_vec();
    assert_eq!(h.a.state(), State::Established);
    // The peer restarted: its COOKIE ECHO carries the new tags, tie-tags match ours.
    h.inject_raw(
        R1,
        ack.initiate_tag,
        vec![ChunkRepr::CookieEcho { cookie }, rdata_at(5000, b"after")],
    );
    assert_eq!(h.a.my_vtag(), ack.initiate_tag);
    assert_eq!(h.a.peer_vtag(), 0x9999);
    let ev = h.take_events();
    assert!(ev.contains(&SctpEvent::Restart), "{ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, SctpEvent::CommUp { .. })));
    recv!(h, [ChunkRepr::CookieAck, ..]);
    // Data after the restart is delivered with the new TSN space.
    let msgs: Vec<Vec<u8>> = std::iter::from_fn(|| h.a.recv()).map(|m| m.data).collect();
    assert!(msgs.contains(&b"after".to_vec()));
}

fn rdata_at(tsn: u32, payload: &[u8]) -> ChunkRepr {
    ChunkRepr::Data(sctpsim_wire::sctp::DataChunk {
        tsn: Tsn(tsn),
        stream_id: 0,
        ssn: Ssn(0),
        ppid: 0,
        unordered: false,
        beginning: true,
        ending: true,
        immediate: false,
        user_data: payload.to_vec(),
    })
}

#[test]
fn unexpected_init_adding_addresses_is_aborted() {
    let mut h = established();
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(remote_init(0x4242, &[R1, R2]))]);
    let t = h.next().unwrap();
    assert_eq!(t.packet.verification_tag, 0x4242);
    let ChunkRepr::Abort {
        t_bit: false,
        causes,
    } = &t.packet.chunks[0]
    else {
        panic!()
    };
    assert!(matches!(
        causes[0],
        ErrorCause::RestartWithNewAddresses { .. }
    ));
    assert_eq!(h.a.state(), State::Established);
}

#[test]
fn cookie_echo_actions_b_c_d() {
    // D: both tags match (a retransmitted COOKIE ECHO): answered with COOKIE ACK, no change.
    let mut h = established();
    let (my, peer) = (h.a.my_vtag(), h.a.peer_vtag());
    let c = forged_cookie(&h, my, peer, (0, 0));
    h.inject_raw(R1, my, vec![ChunkRepr::CookieEcho { cookie: c }]);
    recv!(h, [ChunkRepr::CookieAck]);
    assert_eq!(h.a.state(), State::Established);
    // C: our tag differs, peer's matches, no tie-tags: a late cookie, silently discarded.
    let c = forged_cookie(&h, my ^ 1, peer, (0, 0));
    h.inject_raw(R1, my ^ 1, vec![ChunkRepr::CookieEcho { cookie: c }]);
    recv!(h, nothing);
    assert_eq!(h.a.my_vtag(), my);
    // B: our tag matches, the peer's is new: update the peer's tag, COOKIE ACK.
    let c = forged_cookie(&h, my, 0xfeed, (0, 0));
    h.inject_raw(R1, my, vec![ChunkRepr::CookieEcho { cookie: c }]);
    recv!(h, [ChunkRepr::CookieAck] => {});
    assert_eq!(h.a.peer_vtag(), 0xfeed);
    // Anything else (neither tag matches, no tie-tags): discarded.
    let c = forged_cookie(&h, 1, 2, (0, 0));
    h.inject_raw(R1, 1, vec![ChunkRepr::CookieEcho { cookie: c }]);
    recv!(h, nothing);
}

#[test]
fn cookie_echo_in_cookie_wait_completes_the_setup() {
    // Action B from COOKIE-WAIT: our INIT ACK (to the peer's INIT) came back as a cookie.
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(remote_init(0x5151, &[]))]);
    let t = h.next().unwrap();
    let ChunkRepr::InitAck(ack) = &t.packet.chunks[0] else {
        panic!()
    };
    let cookie = ack.state_cookie().unwrap().to_vec();
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::CookieEcho { cookie }]);
    assert_eq!(h.a.state(), State::Established);
    assert_eq!(h.a.peer_vtag(), 0x5151);
    recv!(h, [ChunkRepr::CookieAck]);
    assert!(h.a.poll_timeout().is_none(), "T1-init stopped");
}

#[test]
fn unexpected_init_ack_and_cookie_ack_are_discarded() {
    let mut h = established();
    let tag = h.a.my_vtag();
    h.inject_raw(
        R1,
        tag,
        vec![ChunkRepr::InitAck(remote_init_ack(
            &[R1],
            b"x",
            false,
            false,
        ))],
    );
    send!(h, [ChunkRepr::CookieAck]);
    recv!(h, nothing);
    assert_eq!(h.a.state(), State::Established);
    assert!(h.take_events().is_empty());
}

#[test]
fn restart_during_shutdown_ack_sent_resends_shutdown_ack_with_error() {
    let mut h = established();
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0).prev()
        }]
    );
    assert_eq!(h.a.state(), State::ShutdownAckSent);
    recv!(h, [ChunkRepr::ShutdownAck]);
    let (my, peer) = (h.a.my_vtag(), h.a.peer_vtag());
    let c = forged_cookie(&h, 0x1010, 0x2020, (my, peer));
    h.inject_raw(R1, 0x1010, vec![ChunkRepr::CookieEcho { cookie: c }]);
    recv!(h, [ChunkRepr::ShutdownAck, ChunkRepr::Error { causes }] => {
        assert_eq!(causes, &vec![ErrorCause::CookieReceivedWhileShuttingDown]);
    });
    assert_eq!(h.a.state(), State::ShutdownAckSent);
    assert_eq!(h.a.my_vtag(), my);
}

#[test]
fn init_in_shutdown_ack_sent_resends_the_shutdown_ack() {
    let mut h = established();
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0).prev()
        }]
    );
    recv!(h, [ChunkRepr::ShutdownAck]);
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(remote_init(0x3131, &[R1]))]);
    recv!(h, [ChunkRepr::ShutdownAck]);
}
