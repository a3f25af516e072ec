//! RFC 9260 §5.1.3 / §5.1.5: a listening endpoint answers INIT statelessly. A flood of INIT
//! chunks from spoofed source addresses and ports creates no association and no per-endpoint
//! state (every INIT gets an INIT ACK with a State Cookie, nothing else changes); a valid
//! COOKIE ECHO for one of them then creates exactly one association, while COOKIE ECHOs with a
//! tampered MAC, a tampered lifespan or an expired lifespan create none.

use std::net::Ipv4Addr;
use std::time::Instant;

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_proto::transport::sctp::{
    DatagramEvent, EndpointStats, SctpConfig, SctpEndpoint, State, Transmit,
};
use sctpsim_wire::sctp::{ChunkRepr, ErrorCause, InitChunk, SctpPacket, SctpRepr, Tsn};

const SERVER: Ipv4Addr = Ipv4Addr::new(192, 0, 2, 1);
const SERVER_PORT: u16 = 80;
const FLOOD: u64 = 100_000;

/// A unicast source address (the endpoint silently drops non-unicast sources, §8.4 rule 1,
/// which would not exercise the INIT path).
fn spoofed_addr(rng: &mut Rng) -> Ipv4Addr {
    loop {
        let a = Ipv4Addr::from(rng.next_u64() as u32);
        if !(a.is_unspecified() || a.is_broadcast() || a.is_multicast() || a == SERVER) {
            return a;
        }
    }
}

fn init_packet(rng: &mut Rng, src_port: u16) -> (SctpRepr, u32) {
    let tag = (rng.next_u64() as u32).max(1);
    let init = InitChunk {
        initiate_tag: tag,
        a_rwnd: 1500 + rng.below(1 << 20) as u32,
        outbound_streams: 1 + rng.below(100) as u16,
        inbound_streams: 1 + rng.below(100) as u16,
        initial_tsn: Tsn(rng.next_u64() as u32),
        params: Vec::new(),
    };
    let pkt = SctpRepr {
        src_port,
        dst_port: SERVER_PORT,
        verification_tag: 0,
        chunks: vec![ChunkRepr::Init(init)],
    };
    (pkt, tag)
}

/// Through the real codec (CRC32c included) and back, as a network would deliver it.
fn over_the_wire(pkt: &SctpRepr) -> SctpRepr {
    let mut buf = vec![0u8; pkt.buffer_len()];
    pkt.emit(&mut buf).expect("emit");
    SctpRepr::parse(&SctpPacket::new_checked(&buf[..]).expect("header")).expect("parse")
}

/// The SCTP packet a `Transmit` carries, parsed as the peer would.
fn parsed(t: &Transmit) -> SctpRepr {
    SctpRepr::parse(&SctpPacket::new_checked(&t.payload[..]).expect("header")).expect("parse")
}

fn cookie_echo(src_port: u16, vtag: u32, cookie: Vec<u8>) -> SctpRepr {
    SctpRepr {
        src_port,
        dst_port: SERVER_PORT,
        verification_tag: vtag,
        chunks: vec![ChunkRepr::CookieEcho { cookie }],
    }
}

/// The endpoint's state apart from its random-number generator (whose printed width varies):
/// the Debug output with digits removed, so it compares equal as long as no structure grows.
fn shape(ep: &SctpEndpoint) -> String {
    format!("{ep:?}")
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect()
}

#[test]
fn spoofed_init_flood_creates_no_state() {
    let started = Instant::now();
    let cfg = SctpConfig::default();
    let life = cfg.valid_cookie_life;
    let mut ep = SctpEndpoint::new(cfg, SERVER_PORT, vec![SERVER], Rng::from_seed(7));
    ep.listen(true);
    let mut rng = Rng::from_seed(0xf100d);
    let initial_shape = shape(&ep);

    // The INIT whose (spoofed) sender later completes the handshake.
    let chosen = 31_337;
    let mut kept: Option<(Ipv4Addr, u16, u32, Vec<u8>)> = None;

    let mut now = SimTime::ZERO;
    for i in 0..FLOOD {
        now += SimDuration::from_micros(1);
        let src = spoofed_addr(&mut rng);
        let src_port = rng.next_u64() as u16;
        let (mut pkt, tag) = init_packet(&mut rng, src_port);
        if i % 100 == 0 {
            pkt = over_the_wire(&pkt);
        }
        assert_eq!(
            ep.handle_packet(now, src, SERVER, &pkt),
            Some(DatagramEvent::Response),
            "INIT {i} was not answered by the endpoint alone"
        );
        let Some(answer) = ep.poll_transmit() else {
            panic!("INIT {i} was not answered");
        };
        let (from, dst, packet) = (answer.src, answer.dst, parsed(&answer));
        assert!(
            ep.poll_transmit().is_none(),
            "INIT {i}: more than one reply"
        );
        assert_eq!((from, dst), (SERVER, src));
        assert_eq!(packet.src_port, SERVER_PORT);
        assert_eq!(packet.dst_port, src_port);
        assert_eq!(
            packet.verification_tag, tag,
            "INIT ACK carries the INIT's tag"
        );
        let [ChunkRepr::InitAck(ack)] = &packet.chunks[..] else {
            panic!("INIT {i}: reply is not a lone INIT ACK: {packet:?}");
        };
        let cookie = ack.state_cookie().expect("INIT ACK carries a State Cookie");
        assert!(!cookie.is_empty());
        if i == chosen {
            kept = Some((src, src_port, ack.initiate_tag, cookie.to_vec()));
        }
        if i % 10_000 == 0 {
            assert_eq!(
                shape(&ep),
                initial_shape,
                "endpoint state grew after INIT {i}"
            );
        }
    }
    assert_eq!(shape(&ep), initial_shape, "endpoint state grew");
    assert_eq!(
        *ep.stats(),
        EndpointStats {
            init_acks_sent: FLOOD,
            ..EndpointStats::default()
        }
    );
    let flood_time = started.elapsed();

    let (src, src_port, vtag, cookie) = kept.expect("chosen INIT answered");
    let before = ep.stats().clone();

    // A tampered MAC: the last byte of the cookie.
    let mut bad_mac = cookie.clone();
    *bad_mac.last_mut().unwrap() ^= 0x01;
    // A tampered body: the lifespan field (bytes 9..17) pushed to the maximum, MAC unchanged.
    let mut longer_life = cookie.clone();
    longer_life[9..17].copy_from_slice(&u64::MAX.to_be_bytes());
    // A truncated cookie.
    let truncated = cookie[..cookie.len() - 3].to_vec();
    for (what, c) in [
        ("bad MAC", bad_mac),
        ("tampered lifespan", longer_life),
        ("truncated", truncated),
    ] {
        let pkt = over_the_wire(&cookie_echo(src_port, vtag, c));
        assert!(
            ep.handle_packet(now, src, SERVER, &pkt).is_none(),
            "{what} cookie created an association"
        );
        assert!(ep.poll_transmit().is_none(), "{what}: silently discarded");
    }
    assert_eq!(ep.stats().cookies_rejected, before.cookies_rejected + 3);
    assert_eq!(ep.stats().associations_accepted, 0);

    // The genuine cookie after its lifespan: a Stale Cookie ERROR, no association.
    let created = SimTime::ZERO + SimDuration::from_micros(chosen + 1);
    let late = created + life + SimDuration::from_millis(1);
    let pkt = over_the_wire(&cookie_echo(src_port, vtag, cookie.clone()));
    assert_eq!(
        ep.handle_packet(late, src, SERVER, &pkt),
        Some(DatagramEvent::Response)
    );
    let err = ep.poll_transmit().expect("Stale Cookie error");
    assert_eq!(err.dst, src);
    assert!(
        matches!(
            &parsed(&err).chunks[..],
            [ChunkRepr::Error { causes }]
                if matches!(causes[..], [ErrorCause::StaleCookie { .. }])
        ),
        "{err:?}"
    );
    assert!(ep.poll_transmit().is_none());
    assert_eq!(ep.stats().stale_cookies, 1);
    assert_eq!(ep.stats().associations_accepted, 0);

    // The genuine cookie with the wrong verification tag: discarded.
    let pkt = cookie_echo(src_port, vtag.wrapping_add(1), cookie.clone());
    assert!(ep.handle_packet(now, src, SERVER, &pkt).is_none());
    assert_eq!(ep.stats().associations_accepted, 0);

    // The genuine cookie, just inside its lifespan: exactly one association.
    let in_time = created + life;
    let pkt = over_the_wire(&cookie_echo(src_port, vtag, cookie));
    let Some(DatagramEvent::NewAssociation(h)) = ep.handle_packet(in_time, src, SERVER, &pkt)
    else {
        panic!("a valid COOKIE ECHO creates the association");
    };
    assert_eq!(ep.stats().associations_accepted, 1);
    assert!(ep.poll_transmit().is_none());
    assert_eq!(ep.associations().count(), 1);
    let assoc = ep.assoc_mut(h).expect("in the table");
    assert_eq!(assoc.state(), State::Established);
    assert_eq!(assoc.peer_port(), src_port);
    assert_eq!(assoc.my_vtag(), vtag);
    assert!(assoc.owns(src, src_port, SERVER_PORT));
    let ack = assoc.poll_transmit(in_time).expect("COOKIE ACK");
    assert!(parsed(&ack)
        .chunks
        .iter()
        .any(|c| matches!(c, ChunkRepr::CookieAck)));
    assert_eq!(ack.dst, src);

    let total = started.elapsed();
    eprintln!(
        "{FLOOD} spoofed INITs in {:.2} s, whole test {:.2} s",
        flood_time.as_secs_f64(),
        total.as_secs_f64()
    );
}
