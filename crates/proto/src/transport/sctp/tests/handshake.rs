//! Association setup: RFC 9260 §5.1 (INIT, INIT ACK, COOKIE ECHO, COOKIE ACK), T1 timers,
//! the stateless listening endpoint and the State Cookie checks of §5.1.5.

use super::*;
use crate::transport::sctp::{LossReason, SctpEndpoint};
use sctpsim_wire::sctp::{cause_code, ErrorCause};

fn server_ep(cfg: SctpConfig) -> SctpEndpoint {
    let mut ep = SctpEndpoint::new(cfg, LOCAL_PORT, vec![L1], Rng::from_seed(11));
    ep.listen(true);
    ep
}

fn remote_init(tag: u32) -> InitChunk {
    InitChunk {
        initiate_tag: tag,
        a_rwnd: 50_000,
        outbound_streams: 5,
        inbound_streams: 7,
        initial_tsn: REMOTE_TSN,
        params: vec![],
    }
}

fn pkt(vtag: u32, chunks: Vec<ChunkRepr>) -> SctpRepr {
    SctpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        verification_tag: vtag,
        chunks,
    }
}

/// Sends an INIT to the endpoint and returns its INIT ACK (and the cookie).
fn init_ack_from(ep: &mut SctpEndpoint, now: SimTime, init: InitChunk) -> (InitChunk, Vec<u8>) {
    assert_eq!(
        ep.handle_packet(now, R1, L1, &pkt(0, vec![ChunkRepr::Init(init.clone())])),
        Some(DatagramEvent::Response)
    );
    let t = sent_ep(ep).expect("INIT ACK");
    assert_eq!(t.packet.verification_tag, init.initiate_tag);
    assert_eq!((t.src, t.dst), (L1, R1));
    let ChunkRepr::InitAck(ack) = t.packet.chunks[0].clone() else {
        panic!("{:?}", t.packet.chunks)
    };
    let cookie = ack.state_cookie().expect("cookie").to_vec();
    (ack, cookie)
}

#[test]
fn init_has_zero_tag_and_t1_runs() {
    let (h, init) = cookie_wait(cfg(), &[L1], &[R1]);
    assert_ne!(init.initiate_tag, 0);
    assert_eq!(init.initiate_tag, h.a.my_vtag());
    assert_eq!(init.initial_tsn, h.a.initial_tsn());
    assert_eq!(init.outbound_streams, 10);
    // Single-homed: no address parameter, the receiver uses the packet's source (§5.1.2).
    assert_eq!(init.addresses().count(), 0);
    assert!(init.forward_tsn_supported());
    assert_eq!(h.a.state(), State::CookieWait);
    // RFC 9260 §16: RTO.Initial = 1 s.
    assert_eq!(h.a.poll_timeout(), Some(ms(1000)));
}

#[test]
fn t1_init_backs_off_and_gives_up_after_max_init_retransmits() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    let mut times = vec![];
    for _ in 0..8 {
        let d = h.a.poll_timeout().unwrap();
        h.at(d);
        let t = h.next().expect("INIT retransmission");
        assert!(matches!(t.packet.chunks[0], ChunkRepr::Init(_)));
        times.push(d);
    }
    // 1, 1+2, 3+4, 7+8, 15+16, 31+32, 63+60 (RTO.Max), ...
    assert_eq!(&times[..4], &[ms(1000), ms(3000), ms(7000), ms(15_000)]);
    let d = h.a.poll_timeout().unwrap();
    h.at(d);
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().iter().any(|e| matches!(
        e,
        SctpEvent::CommLost {
            reason: LossReason::InitFailed,
            ..
        }
    )));
}

#[test]
fn init_retransmissions_rotate_over_the_peer_addresses() {
    // sctp_connectx with two peer addresses (ETSI AS/I/1/15, which packetdrill cannot check).
    let mut ep = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(7));
    let mut a = connect_assoc(&mut ep, SimTime::ZERO, &[R1, R2], REMOTE_PORT);
    assert_eq!(a.poll_transmit(SimTime::ZERO).expect("INIT").dst, R1);
    a.handle_timeout(ms(1000));
    let t = sent(a.poll_transmit(ms(1000)).expect("INIT retransmission"));
    assert!(matches!(t.packet.chunks[0], ChunkRepr::Init(_)));
    assert_eq!(t.dst, R2);
}

#[test]
fn rfc2960_profile_starts_t1_at_three_seconds() {
    let c = SctpConfig {
        heartbeats: false,
        ..SctpConfig::rfc2960()
    };
    let (h, init) = cookie_wait(c, &[L1], &[R1]);
    assert_eq!(h.a.poll_timeout(), Some(ms(3000)));
    // RFC 2960 knows neither PR-SCTP nor ASCONF.
    assert!(!init.forward_tsn_supported());
    assert!(init.supported_extensions().is_empty());
}

#[test]
fn client_reaches_established_and_bundles_queued_data_with_cookie_echo() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    h.send_msg(100);
    let ack = remote_init_ack(&[R1], b"cookie!", true, true);
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    assert_eq!(h.a.state(), State::CookieEchoed);
    assert_eq!(h.a.peer_vtag(), REMOTE_TAG);
    recv!(h, [ChunkRepr::CookieEcho { cookie }, ChunkRepr::Data(d)] => {
        assert_eq!(cookie, b"cookie!");
        assert_eq!(d.tsn, h.a.initial_tsn());
    });
    send!(h, [ChunkRepr::CookieAck]);
    assert_eq!(h.a.state(), State::Established);
    assert!(matches!(
        h.take_events()[0],
        SctpEvent::CommUp {
            outbound_streams: 10,
            inbound_streams: 10
        }
    ));
    assert!(h.a.pr_sctp_negotiated() && h.a.asconf_negotiated());
}

#[test]
fn t1_cookie_retransmits_the_cookie_echo() {
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
    recv!(h, [ChunkRepr::CookieEcho { .. }]);
    recv!(h, at ms(999), nothing);
    recv!(h, at ms(1000), [ChunkRepr::CookieEcho { .. }]);
    recv!(h, at ms(3000), [ChunkRepr::CookieEcho { .. }]);
    assert_eq!(h.a.state(), State::CookieEchoed);
}

#[test]
fn init_ack_without_cookie_aborts() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    let mut ack = remote_init_ack(&[R1], b"x", false, false);
    ack.params
        .retain(|p| !matches!(p, Parameter::StateCookie(_)));
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    recv!(h, [ChunkRepr::Abort { t_bit: false, causes }] => {
        assert_eq!(causes[0], ErrorCause::MissingMandatoryParameter { missing: vec![7] });
    });
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn init_ack_with_zero_initiate_tag_destroys_the_association() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    let mut ack = remote_init_ack(&[R1], b"x", false, false);
    ack.initiate_tag = 0;
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    // §3.3.3 "MAY send an ABORT": our own tag reflected, T bit set (ETSI AS/I/1/14/2).
    let t = h.next().expect("ABORT");
    assert_eq!(t.packet.verification_tag, tag);
    assert!(matches!(
        &t.packet.chunks[..],
        [ChunkRepr::Abort { t_bit: true, causes }]
            if causes == &vec![ErrorCause::InvalidMandatoryParameter]
    ));
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn t1_cookie_gives_up_with_an_abort() {
    let c = SctpConfig {
        max_init_retransmits: 2,
        ..cfg()
    };
    let (mut h, _) = cookie_wait(c, &[L1], &[R1]);
    let tag = h.a.my_vtag();
    let ack = remote_init_ack(&[R1], b"c", false, false);
    let peer_tag = ack.initiate_tag;
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    recv!(h, [ChunkRepr::CookieEcho { .. }]);
    recv!(h, at ms(1000), [ChunkRepr::CookieEcho { .. }]);
    recv!(h, at ms(3000), [ChunkRepr::CookieEcho { .. }]);
    h.at(ms(7000));
    let t = h.next().expect("ABORT");
    assert_eq!(t.packet.verification_tag, peer_tag);
    assert!(matches!(
        &t.packet.chunks[..],
        [ChunkRepr::Abort { t_bit: false, causes }] if causes.is_empty()
    ));
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn init_ack_lists_no_supported_address_types_and_puts_the_cookie_last() {
    let mut ep = server_ep(cfg());
    let mut init = remote_init(REMOTE_TAG);
    init.params = vec![Parameter::Unknown {
        kind: 0xC0CC,
        value: vec![1, 1, 1, 1],
    }];
    let (ack, _) = init_ack_from(&mut ep, SimTime::ZERO, init);
    assert!(!ack
        .params
        .iter()
        .any(|p| matches!(p, Parameter::SupportedAddressTypes(_))));
    // Single-homed: no address parameter.
    assert_eq!(ack.addresses().count(), 0);
    assert!(matches!(ack.params.last(), Some(Parameter::StateCookie(_))));
    // Multi-homed: every address is listed.
    let mut ep2 = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1, L2], Rng::from_seed(11));
    ep2.listen(true);
    let (ack2, _) = init_ack_from(&mut ep2, SimTime::ZERO, remote_init(REMOTE_TAG));
    let addrs: Vec<IpAddr> = ack2.addresses().collect();
    assert_eq!(addrs, vec![IpAddr::V4(L1), IpAddr::V4(L2)]);
}

#[test]
fn endpoint_answers_init_without_state_and_accepts_the_cookie() {
    let mut ep = server_ep(cfg());
    let (ack, cookie) = init_ack_from(&mut ep, SimTime::ZERO, remote_init(REMOTE_TAG));
    assert_ne!(ack.initiate_tag, 0);
    // Negotiated streams: min(our OS 10, their MIS 7) outbound, min(our MIS, their OS 5) in.
    let echo = pkt(
        ack.initiate_tag,
        vec![ChunkRepr::CookieEcho { cookie }, rdata(0, 0, 0, b"early")],
    );
    let mut a = accept(&mut ep, ms(10), R1, L1, &echo).expect("association");
    assert_eq!(a.state(), State::Established);
    assert_eq!(a.my_vtag(), ack.initiate_tag);
    assert_eq!(a.peer_vtag(), REMOTE_TAG);
    let t = sent(a.poll_transmit(ms(10)).expect("COOKIE ACK"));
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    assert!(matches!(t.packet.chunks[0], ChunkRepr::CookieAck));
    assert!(matches!(
        a.poll_event(),
        Some(SctpEvent::CommUp {
            outbound_streams: 7,
            inbound_streams: 5
        })
    ));
    assert_eq!(a.recv().unwrap().data, b"early");
    assert_eq!(ep.stats().associations_accepted, 1);
}

#[test]
fn cookie_with_a_bad_mac_is_silently_discarded() {
    let mut ep = server_ep(cfg());
    let (ack, mut cookie) = init_ack_from(&mut ep, SimTime::ZERO, remote_init(REMOTE_TAG));
    cookie[5] ^= 1;
    let echo = pkt(ack.initiate_tag, vec![ChunkRepr::CookieEcho { cookie }]);
    assert!(ep.handle_packet(ms(10), R1, L1, &echo).is_none());
    assert!(ep.poll_transmit().is_none());
    assert_eq!(ep.stats().cookies_rejected, 1);
    // A cookie from another endpoint (another secret) too.
    let mut other = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(12));
    other.listen(true);
    let (ack2, cookie2) = init_ack_from(&mut other, SimTime::ZERO, remote_init(REMOTE_TAG));
    let echo = pkt(
        ack2.initiate_tag,
        vec![ChunkRepr::CookieEcho { cookie: cookie2 }],
    );
    assert!(ep.handle_packet(ms(10), R1, L1, &echo).is_none());
}

#[test]
fn cookie_with_the_wrong_verification_tag_is_discarded() {
    let mut ep = server_ep(cfg());
    let (ack, cookie) = init_ack_from(&mut ep, SimTime::ZERO, remote_init(REMOTE_TAG));
    let echo = pkt(ack.initiate_tag ^ 1, vec![ChunkRepr::CookieEcho { cookie }]);
    assert!(ep.handle_packet(ms(10), R1, L1, &echo).is_none());
}

#[test]
fn stale_cookie_gets_a_stale_cookie_error() {
    let mut ep = server_ep(cfg());
    let (ack, cookie) = init_ack_from(&mut ep, SimTime::ZERO, remote_init(REMOTE_TAG));
    let echo = pkt(ack.initiate_tag, vec![ChunkRepr::CookieEcho { cookie }]);
    // Valid.Cookie.Life = 60 s; 500 ms late.
    assert_eq!(
        ep.handle_packet(ms(60_500), R1, L1, &echo),
        Some(DatagramEvent::Response)
    );
    let t = sent_ep(&mut ep).expect("ERROR");
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::Error {
            causes: vec![ErrorCause::StaleCookie {
                staleness_us: 500_000
            }]
        }]
    );
}

#[test]
fn cookie_preservative_extends_the_lifespan() {
    let mut ep = server_ep(cfg());
    let mut init = remote_init(REMOTE_TAG);
    init.params
        .push(Parameter::CookiePreservative { increment_ms: 2000 });
    let (ack, cookie) = init_ack_from(&mut ep, SimTime::ZERO, init);
    let echo = pkt(ack.initiate_tag, vec![ChunkRepr::CookieEcho { cookie }]);
    assert!(matches!(
        ep.handle_packet(ms(61_000), R1, L1, &echo),
        Some(DatagramEvent::NewAssociation(_))
    ));
}

#[test]
fn stale_cookie_error_restarts_with_a_cookie_preservative() {
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
    recv!(h, [ChunkRepr::CookieEcho { .. }]);
    send!(h, at ms(50), [ChunkRepr::Error { causes: vec![ErrorCause::StaleCookie { staleness_us: 3000 }] }]);
    assert_eq!(h.a.state(), State::CookieWait);
    recv!(h, [ChunkRepr::Init(init)] => {
        assert!(init.params.contains(&Parameter::CookiePreservative { increment_ms: 1003 }));
    });
}

#[test]
fn endpoint_refuses_bad_inits() {
    let mut ep = server_ep(cfg());
    // Zero Initiate Tag: silently discarded.
    assert!(ep
        .handle_packet(
            SimTime::ZERO,
            R1,
            L1,
            &pkt(0, vec![ChunkRepr::Init(remote_init(0))])
        )
        .is_none());
    assert!(ep.poll_transmit().is_none());
    // Zero outbound streams: ABORT with the INIT's tag, T bit clear.
    let mut init = remote_init(77);
    init.outbound_streams = 0;
    ep.handle_packet(SimTime::ZERO, R1, L1, &pkt(0, vec![ChunkRepr::Init(init)]));
    let t = sent_ep(&mut ep).unwrap();
    assert_eq!(t.packet.verification_tag, 77);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::Abort {
            t_bit: false,
            causes: vec![ErrorCause::InvalidMandatoryParameter]
        }]
    );
    // A host name address: Unresolvable Address.
    let mut init = remote_init(78);
    init.params
        .push(Parameter::HostNameAddress(b"peer.example\0\0\0\0".to_vec()));
    ep.handle_packet(SimTime::ZERO, R1, L1, &pkt(0, vec![ChunkRepr::Init(init)]));
    let t = sent_ep(&mut ep).unwrap();
    let ChunkRepr::Abort { causes, .. } = &t.packet.chunks[0] else {
        panic!()
    };
    assert_eq!(causes[0].code(), cause_code::UNRESOLVABLE_ADDRESS);
    // INIT with a non-zero tag in the common header: discarded.
    assert!(ep
        .handle_packet(
            SimTime::ZERO,
            R1,
            L1,
            &pkt(5, vec![ChunkRepr::Init(remote_init(79))])
        )
        .is_none());
    assert!(ep.poll_transmit().is_none());
}

#[test]
fn endpoint_not_listening_aborts_inits() {
    let mut ep = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(1));
    ep.handle_packet(
        SimTime::ZERO,
        R1,
        L1,
        &pkt(0, vec![ChunkRepr::Init(remote_init(42))]),
    );
    let t = sent_ep(&mut ep).unwrap();
    assert_eq!(t.packet.verification_tag, 42);
    assert!(matches!(
        t.packet.chunks[0],
        ChunkRepr::Abort { t_bit: false, .. }
    ));
}

#[test]
fn unrecognized_init_parameters_are_reported_in_the_init_ack() {
    let mut ep = server_ep(cfg());
    let mut init = remote_init(REMOTE_TAG);
    init.params = vec![
        Parameter::Unknown {
            kind: 0xC123,
            value: vec![1, 2, 3, 4],
        }, // 11: skip, report
        Parameter::Unknown {
            kind: 0x8123,
            value: vec![5],
        }, // 10: skip
        Parameter::Address(IpAddr::V4(R2)),
        Parameter::Unknown {
            kind: 0x4123,
            value: vec![],
        }, // 01: stop, report
        Parameter::Address(IpAddr::V4(Ipv4Addr::new(10, 9, 9, 9))), // not processed
    ];
    let (ack, cookie) = init_ack_from(&mut ep, SimTime::ZERO, init);
    let unrec: Vec<&Vec<u8>> = ack
        .params
        .iter()
        .filter_map(|p| match p {
            Parameter::UnrecognizedParameter(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(
        unrec,
        vec![&vec![0xC1, 0x23, 0, 8, 1, 2, 3, 4], &vec![0x41, 0x23, 0, 4]]
    );
    let echo = pkt(ack.initiate_tag, vec![ChunkRepr::CookieEcho { cookie }]);
    let a = accept(&mut ep, ms(1), R1, L1, &echo).unwrap();
    assert_eq!(a.peer_addrs(), vec![R1, R2]);
}

#[test]
fn unrecognized_init_ack_parameters_are_reported_with_the_cookie_echo() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    let mut ack = remote_init_ack(&[R1], b"c", false, false);
    ack.params.push(Parameter::Unknown {
        kind: 0xC0FE,
        value: vec![9, 9],
    });
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    recv!(h, [ChunkRepr::CookieEcho { .. }, ChunkRepr::Error { causes }] => {
        assert_eq!(causes[0].code(), cause_code::UNRECOGNIZED_PARAMETERS);
    });
}

#[test]
fn shutdown_before_setup_closes_or_waits() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    h.a.shutdown(SimTime::ZERO);
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.a.poll_timeout().is_none());
    // In COOKIE-ECHOED the shutdown starts once established.
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
    h.a.shutdown(h.now);
    assert!(h.a.send(h.now, vec![1], 0, false, None, 0).is_err());
    send!(h, [ChunkRepr::CookieAck]);
    assert_eq!(h.a.state(), State::ShutdownSent);
    recv!(h, [ChunkRepr::Shutdown { .. }]);
}

/// Found in the argyriou2004 study (a flow whose COOKIE ECHO went stale): DATA bundled with the
/// first COOKIE ECHO keeps its TSN and SSN through the new INIT of RFC 9260 §5.2.6, so the next
/// message must take the next SSN. Giving it SSN 0 again made the receiver take it for the
/// message already delivered and drop it: one message missing on an ordered stream.
#[test]
fn ssns_survive_a_new_init_after_a_stale_cookie() {
    let (mut h, _) = cookie_wait(cfg(), &[L1], &[R1]);
    h.send_msg(100);
    let tag = h.a.my_vtag();
    h.inject_raw(
        R1,
        tag,
        vec![ChunkRepr::InitAck(remote_init_ack(
            &[R1],
            b"c1",
            false,
            false,
        ))],
    );
    recv!(h, [ChunkRepr::CookieEcho { .. }, ChunkRepr::Data(d)] => {
        assert_eq!(d.ssn, Ssn(0));
    });
    send!(h, at ms(50), [ChunkRepr::Error { causes: vec![ErrorCause::StaleCookie { staleness_us: 3000 }] }]);
    assert_eq!(h.a.state(), State::CookieWait);
    recv!(h, [ChunkRepr::Init(_)]);
    h.send_msg(100);
    h.inject_raw(
        R1,
        tag,
        vec![ChunkRepr::InitAck(remote_init_ack(
            &[R1],
            b"c2",
            false,
            false,
        ))],
    );
    send!(h, at ms(100), [ChunkRepr::CookieAck]);
    h.at(ms(5000));
    let ssns: Vec<(Tsn, Ssn)> = h
        .all()
        .iter()
        .flat_map(|t| {
            data_chunks(&t.packet.chunks)
                .into_iter()
                .map(|d| (d.tsn, d.ssn))
                .collect::<Vec<_>>()
        })
        .collect();
    // The first message under its first TSN and SSN 0 (possibly sent again), the second under
    // the next TSN and SSN 1.
    assert!(
        ssns.iter()
            .all(|&(tsn, ssn)| (tsn == h.ltsn(0)) == (ssn == Ssn(0))),
        "{ssns:?}"
    );
    assert!(ssns.contains(&(h.ltsn(1), Ssn(1))), "{ssns:?}");
}
