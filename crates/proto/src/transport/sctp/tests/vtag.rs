//! Verification tags: RFC 9260 §8.5 and the exceptions of §8.5.1; out-of-the-blue packets at
//! the endpoint (§8.4).

use super::*;
use crate::transport::sctp::SctpEndpoint;
use sctpsim_wire::sctp::ErrorCause;

fn ootb(vtag: u32, chunks: Vec<ChunkRepr>) -> Option<Sent> {
    let mut ep = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(3));
    ep.listen(true);
    let pkt = SctpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        verification_tag: vtag,
        chunks,
    };
    let event = ep.handle_packet(SimTime::ZERO, R1, L1, &pkt);
    let answer = sent_ep(&mut ep);
    assert_eq!(
        event,
        answer.is_some().then_some(DatagramEvent::Response),
        "an answer is announced as a Response, nothing else happens"
    );
    answer
}

#[test]
fn packets_with_a_wrong_tag_are_silently_discarded() {
    let mut h = established();
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag ^ 0x55, vec![rdata(0, 0, 0, b"x")]);
    h.inject_raw(R1, 0, vec![rdata(0, 0, 0, b"x")]);
    recv!(h, at ms(1000), nothing);
    assert_eq!(h.a.readable(), 0);
    assert_eq!(h.a.stats().packets_dropped_vtag, 2);
    // The right tag works.
    send!(h, [rdata(0, 0, 0, b"x")]);
    assert_eq!(h.a.readable(), 1);
}

#[test]
fn abort_t_bit_rules() {
    // T bit clear: our tag.
    let mut h = established();
    let peer = h.a.peer_vtag();
    h.inject_raw(
        R1,
        peer,
        vec![ChunkRepr::Abort {
            t_bit: false,
            causes: vec![],
        }],
    );
    assert_eq!(h.a.state(), State::Established);
    h.inject_raw(
        R1,
        h.a.my_vtag(),
        vec![ChunkRepr::Abort {
            t_bit: true,
            causes: vec![],
        }],
    );
    assert_eq!(h.a.state(), State::Established);
    // T bit set with the peer's tag (reflected): accepted.
    h.inject_raw(
        R1,
        peer,
        vec![ChunkRepr::Abort {
            t_bit: true,
            causes: vec![],
        }],
    );
    assert_eq!(h.a.state(), State::Closed);
    let mut h = established();
    send!(
        h,
        [ChunkRepr::Abort {
            t_bit: false,
            causes: vec![]
        }]
    );
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn shutdown_complete_t_bit_rules_and_state() {
    let mut h = established();
    h.a.shutdown(h.now);
    recv!(h, [ChunkRepr::Shutdown { .. }]);
    // SHUTDOWN COMPLETE is only processed in SHUTDOWN-ACK-SENT.
    send!(h, [ChunkRepr::ShutdownComplete { t_bit: false }]);
    assert_eq!(h.a.state(), State::ShutdownSent);
    // Peer's SHUTDOWN: simultaneous close, we go to SHUTDOWN-ACK-SENT.
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: REMOTE_TSN - 1
        }]
    );
    assert_eq!(h.a.state(), State::ShutdownAckSent);
    recv!(h, [ChunkRepr::ShutdownAck]);
    let mine = h.a.my_vtag();
    h.inject_raw(R1, mine, vec![ChunkRepr::ShutdownComplete { t_bit: true }]);
    assert_eq!(h.a.state(), State::ShutdownAckSent);
    h.inject_raw(
        R1,
        REMOTE_TAG,
        vec![ChunkRepr::ShutdownComplete { t_bit: true }],
    );
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn shutdown_ack_in_cookie_wait_is_out_of_the_blue() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    h.inject_raw(R1, 0x1234, vec![ChunkRepr::ShutdownAck]);
    let t = h.next().expect("SHUTDOWN COMPLETE");
    assert_eq!(t.packet.verification_tag, 0x1234);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::ShutdownComplete { t_bit: true }]
    );
    assert_eq!(h.a.state(), State::CookieWait);
}

#[test]
fn init_must_travel_alone_with_tag_zero() {
    let mut h = established();
    let init = InitChunk {
        initiate_tag: 9,
        a_rwnd: 10_000,
        outbound_streams: 1,
        inbound_streams: 1,
        initial_tsn: Tsn(1),
        params: vec![],
    };
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::Init(init.clone())]);
    recv!(h, nothing);
    h.inject_raw(R1, 0, vec![ChunkRepr::Init(init), ChunkRepr::CookieAck]);
    recv!(h, nothing);
    assert_eq!(h.a.stats().packets_dropped_vtag, 2);
}

#[test]
fn wrong_ports_are_dropped() {
    let mut h = established();
    let pkt = SctpRepr {
        src_port: REMOTE_PORT + 1,
        dst_port: LOCAL_PORT,
        verification_tag: h.a.my_vtag(),
        chunks: vec![rdata(0, 0, 0, b"x")],
    };
    let now = h.now;
    h.a.handle_packet(now, R1, L1, &pkt);
    assert_eq!(h.a.readable(), 0);
}

#[test]
fn out_of_the_blue_rules() {
    // Rule 2: an ABORT is never answered.
    assert!(ootb(
        7,
        vec![ChunkRepr::Abort {
            t_bit: false,
            causes: vec![]
        }]
    )
    .is_none());
    // Rule 5: SHUTDOWN ACK -> SHUTDOWN COMPLETE with the T bit, tag reflected.
    let t = ootb(7, vec![ChunkRepr::ShutdownAck]).unwrap();
    assert_eq!(t.packet.verification_tag, 7);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::ShutdownComplete { t_bit: true }]
    );
    // Rules 6 and 7: silently discarded.
    assert!(ootb(7, vec![ChunkRepr::ShutdownComplete { t_bit: false }]).is_none());
    assert!(ootb(7, vec![ChunkRepr::CookieAck]).is_none());
    assert!(ootb(
        7,
        vec![ChunkRepr::Error {
            causes: vec![ErrorCause::StaleCookie { staleness_us: 1 }]
        }]
    )
    .is_none());
    // Rule 8: anything else -> ABORT with the T bit, tag reflected.
    let t = ootb(7, vec![rdata(0, 0, 0, b"x")]).unwrap();
    assert_eq!(t.packet.verification_tag, 7);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::Abort {
            t_bit: true,
            causes: vec![]
        }]
    );
    let t = ootb(
        8,
        vec![ChunkRepr::InitAck(remote_init_ack(
            &[R1],
            b"c",
            false,
            false,
        ))],
    )
    .unwrap();
    assert!(matches!(
        t.packet.chunks[0],
        ChunkRepr::Abort { t_bit: true, .. }
    ));
}

#[test]
fn cookie_echo_tag_is_checked_against_the_cookie() {
    // Established as responder; a COOKIE ECHO with a tag that is not in its cookie is dropped.
    let mut h = established();
    let tag = h.a.my_vtag();
    h.inject_raw(
        R1,
        tag,
        vec![ChunkRepr::CookieEcho {
            cookie: vec![1, 2, 3],
        }],
    );
    recv!(h, nothing);
}
