//! SCTP-AUTH (RFC 4895): negotiation in INIT / INIT ACK and through the cookie, AUTH chunks
//! before the chunks the peer listed, and the receiver's checks of §6.3 (bad HMAC, missing
//! AUTH, unsupported HMAC identifier, unknown key), against a scripted peer that signs with
//! its own [`AuthState`] and between two real endpoints.

use super::pair::{check_delivery, LinkCfg, Pair, Workload, C1, C2, S1, S2};
use super::*;
use crate::transport::sctp::auth::{AuthHmac, AuthParams, AuthState};
use crate::transport::sctp::AsconfRequestKind;
use sctpsim_wire::sctp::{hmac_id, AsconfChunk, AuthChunk, ErrorCause};

fn auth_cfg() -> SctpConfig {
    SctpConfig {
        auth: true,
        ..cfg()
    }
}

/// The scripted remote's AUTH offer: it wants ASCONF and ASCONF-ACK authenticated.
fn remote_offer(hmac: AuthHmac) -> AuthParams {
    AuthParams::ours(
        &mut Rng::from_seed(99),
        vec![chunk_type::ASCONF, chunk_type::ASCONF_ACK],
        hmac,
    )
}

/// Established as the initiator against a scripted remote that offers AUTH (`offer`); returns
/// the harness and the remote's view of AUTH, to sign what it sends.
fn established_auth(cfg: SctpConfig, offer: AuthParams) -> (Harness, AuthState) {
    let (mut h, init) = cookie_wait(cfg, &[L1, L2], &[R1]);
    let ours = AuthParams::from_params(&init.params).expect("our INIT offers AUTH");
    let mut ack = remote_init_ack(&[R1], b"remote-cookie", false, true);
    for p in &mut ack.params {
        if let Parameter::SupportedExtensions(e) = p {
            e.push(chunk_type::AUTH);
        }
    }
    ack.params.extend(offer.to_params());
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    recv!(h, [ChunkRepr::CookieEcho { .. }]);
    h.inject(vec![ChunkRepr::CookieAck]);
    assert_eq!(h.a.state(), State::Established);
    h.all();
    h.take_events();
    let remote = AuthState::new(offer, ours).expect("remote view");
    (h, remote)
}

fn set_primary_asconf(seq: u32) -> ChunkRepr {
    ChunkRepr::Asconf(AsconfChunk {
        handoff: sctpsim_wire::sctp::HandoffIndication::None,
        sequence_number: seq,
        address: IpAddr::V4(R1),
        params: vec![Parameter::SetPrimaryAddress {
            correlation_id: 7,
            address: IpAddr::V4(R1),
        }],
    })
}

/// The remote's first ASCONF serial number is its Initial TSN (RFC 5061 §5.1).
fn first_seq() -> u32 {
    REMOTE_TSN.0
}

#[test]
fn init_offers_auth_and_lists_asconf() {
    let (_h, init) = cookie_wait(auth_cfg(), &[L1], &[R1]);
    let offer = AuthParams::from_params(&init.params).unwrap();
    assert_eq!(offer.random.len(), 32);
    // RFC 5061 §4.1.1: ASCONF and ASCONF-ACK always authenticated when ASCONF is on.
    assert_eq!(
        offer.chunks.as_deref(),
        Some(&[chunk_type::ASCONF, chunk_type::ASCONF_ACK][..])
    );
    assert_eq!(offer.hmacs, [hmac_id::SHA1]);
    assert!(init.supported_extensions().contains(&chunk_type::AUTH));
    // Off (the default): the INIT has none of it.
    let (_h, plain) = cookie_wait(cfg(), &[L1], &[R1]);
    assert!(AuthParams::from_params(&plain.params).is_none());
    assert!(!plain.supported_extensions().contains(&chunk_type::AUTH));
}

#[test]
fn random_comes_from_the_association_stream() {
    let (_h1, a) = cookie_wait(auth_cfg(), &[L1], &[R1]);
    let (_h2, b) = cookie_wait(auth_cfg(), &[L1], &[R1]);
    assert_eq!(a, b, "same seed, same INIT");
    // And the tag and TSN did not move: they are drawn before the RANDOM.
    let (_h3, plain) = cookie_wait(cfg(), &[L1], &[R1]);
    assert_eq!(a.initiate_tag, plain.initiate_tag);
    assert_eq!(a.initial_tsn, plain.initial_tsn);
}

#[test]
fn authenticated_asconf_is_accepted_and_answered_with_auth() {
    let (mut h, remote) = established_auth(auth_cfg(), remote_offer(AuthHmac::Sha1));
    assert!(h.a.auth_negotiated().is_some());
    assert!(h.a.asconf_negotiated());
    let mut chunks = vec![set_primary_asconf(first_seq())];
    assert!(remote.sign(&mut chunks));
    assert!(matches!(chunks[0], ChunkRepr::Auth(_)));
    h.inject(chunks.clone());
    // The ASCONF-ACK is in the remote's CHUNKS list: it comes after an AUTH chunk that the
    // remote can verify.
    let t = h.next().expect("ASCONF-ACK");
    assert!(
        matches!(
            t.packet.chunks.as_slice(),
            [ChunkRepr::Auth(_), ChunkRepr::AsconfAck(_)]
        ),
        "{:?}",
        t.packet.chunks
    );
    let local_view = h.a.auth_negotiated().unwrap().clone();
    assert_eq!(
        remote.verify(&t.packet.chunks, 0, None),
        crate::transport::sctp::auth::Verdict::Good
    );
    assert_eq!(local_view.send_hmac, hmac_id::SHA1);
    assert_eq!(h.a.stats().auth_failures, 0);
}

#[test]
fn sha256_is_used_when_the_peer_prefers_it() {
    let (mut h, remote) = established_auth(auth_cfg(), remote_offer(AuthHmac::Sha256));
    assert_eq!(h.a.auth_negotiated().unwrap().send_hmac, hmac_id::SHA256);
    // We listed SHA-1 only: the remote must send with SHA-1.
    assert_eq!(remote.send_hmac, hmac_id::SHA1);
    let mut chunks = vec![set_primary_asconf(first_seq())];
    remote.sign(&mut chunks);
    h.inject(chunks);
    recv!(h, [ChunkRepr::Auth(a), ChunkRepr::AsconfAck(_)] => {
        assert_eq!(a.hmac_id, hmac_id::SHA256);
        assert_eq!(a.hmac.len(), 32);
    });
}

#[test]
fn tampered_hmac_discards_the_chunks_after_it() {
    let (mut h, remote) = established_auth(auth_cfg(), remote_offer(AuthHmac::Sha1));
    let mut chunks = vec![set_primary_asconf(first_seq())];
    remote.sign(&mut chunks);
    if let ChunkRepr::Auth(a) = &mut chunks[0] {
        a.hmac[3] ^= 0x10;
    }
    h.inject(chunks);
    recv!(h, nothing);
    assert_eq!(h.a.stats().auth_failures, 1);
    // A changed chunk under a correct-looking AUTH fails the same way.
    let mut chunks = vec![set_primary_asconf(first_seq())];
    remote.sign(&mut chunks);
    if let ChunkRepr::Asconf(a) = &mut chunks[1] {
        a.sequence_number ^= 1;
    }
    h.inject(chunks);
    recv!(h, nothing);
    assert_eq!(h.a.stats().auth_failures, 2);
    // An unknown shared key identifier: silently discarded too (RFC 4895 §6.3).
    let mut chunks = vec![set_primary_asconf(first_seq())];
    remote.sign(&mut chunks);
    if let ChunkRepr::Auth(a) = &mut chunks[0] {
        a.shared_key_id = 1;
    }
    h.inject(chunks);
    recv!(h, nothing);
    assert_eq!(h.a.stats().auth_failures, 3);
}

#[test]
fn unauthenticated_asconf_is_discarded() {
    let (mut h, _remote) = established_auth(auth_cfg(), remote_offer(AuthHmac::Sha1));
    h.inject(vec![set_primary_asconf(first_seq())]);
    recv!(h, nothing);
    assert_eq!(h.a.stats().auth_unauthenticated_dropped, 1);
    // Chunks not in our list still go through: a HEARTBEAT is answered.
    h.inject(vec![ChunkRepr::Heartbeat {
        info: b"hb".to_vec(),
    }]);
    recv!(h, [ChunkRepr::HeartbeatAck { .. }]);
}

#[test]
fn unsupported_hmac_identifier_is_reported() {
    let (mut h, _remote) = established_auth(auth_cfg(), remote_offer(AuthHmac::Sha1));
    let auth = ChunkRepr::Auth(AuthChunk {
        shared_key_id: 0,
        hmac_id: 2,
        hmac: vec![0; 20],
    });
    h.inject(vec![auth, set_primary_asconf(first_seq())]);
    recv!(h, [ChunkRepr::Error { causes }] => {
        assert_eq!(causes, &vec![ErrorCause::UnsupportedHmacIdentifier { hmac_id: 2 }]);
    });
    recv!(h, nothing);
    assert_eq!(h.a.stats().auth_failures, 1);
}

#[test]
fn a_short_random_aborts_the_setup() {
    let (mut h, _init) = cookie_wait(auth_cfg(), &[L1], &[R1]);
    let mut offer = remote_offer(AuthHmac::Sha1);
    offer.random.truncate(31);
    let mut ack = remote_init_ack(&[R1], b"remote-cookie", false, true);
    ack.params.extend(offer.to_params());
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    recv!(h, [ChunkRepr::Abort { causes, .. }] => {
        assert!(matches!(causes[0], ErrorCause::ProtocolViolation { .. }));
    });
    assert!(h.a.is_closed());
}

#[test]
fn asconf_needs_auth_when_auth_is_on() {
    // The remote offers ASCONF but not AUTH: RFC 5061 §4.1.1 forbids ASCONF without AUTH, so
    // it is not used (the association still comes up).
    let h = established_with(auth_cfg(), &[L1], &[R1]);
    assert!(h.a.auth_negotiated().is_none());
    assert!(!h.a.asconf_negotiated());
    // Without AUTH configured the old behaviour stays.
    let h = established_with(cfg(), &[L1], &[R1]);
    assert!(h.a.asconf_negotiated());
}

/// Two real endpoints: AUTH negotiated on both sides (the server from its cookie), data in
/// both directions authenticated (each side lists DATA and SACK), and a Set Primary ASCONF.
#[test]
fn pair_with_auth_transfers_data_and_asconf() {
    let c = SctpConfig {
        auth_chunks: vec![chunk_type::DATA, chunk_type::SACK],
        ..auth_cfg()
    };
    let s = SctpConfig {
        auth_hmac: AuthHmac::Sha256,
        ..c.clone()
    };
    let links = [LinkCfg::clean(10), LinkCfg::clean(10)];
    let mut p = Pair::new(c, s, &[C1, C2], &[S1, S2], &[S1], &links, 5);
    // Data queued before the handshake rides with the COOKIE ECHO, after an AUTH chunk.
    let mut rng = Rng::from_seed(3);
    let mut wl = Workload::random(&mut rng, 40, 2);
    p.run_until(ms(1), |_| true);
    p.establish();
    let client_auth = p.client().auth_negotiated().expect("client AUTH").clone();
    let server_auth = p.server().unwrap().auth_negotiated().expect("server AUTH");
    assert_eq!(client_auth.local, server_auth.peer);
    assert_eq!(client_auth.peer, server_auth.local);
    // The server asked for SHA-256 first; the client asked for SHA-1 only.
    assert_eq!(client_auth.send_hmac, hmac_id::SHA256);
    assert_eq!(server_auth.send_hmac, hmac_id::SHA1);
    let now = p.now;
    wl.pump(0, p.client_mut(), now);
    let done = p.run_until(ms(30_000), |p| {
        let now = p.now;
        let c = p.client_mut();
        wl.pump(0, c, now);
        wl.done() && p.client().status().unacked_chunks == 0
    });
    assert!(done, "transfer did not finish");
    check_delivery(0, &wl, &p.server_rx);
    // Every DATA the client sent came after an AUTH chunk.
    for (_, s) in &p.client_log {
        let chunks = &s.packet.chunks;
        if let Some(i) = chunks.iter().position(|c| matches!(c, ChunkRepr::Data(_))) {
            assert!(
                chunks[..i].iter().any(|c| matches!(c, ChunkRepr::Auth(_))),
                "{chunks:?}"
            );
        }
    }
    // ASCONF Set Primary: authenticated, accepted.
    let now = p.now;
    p.client_mut().request_peer_primary(now, C2).unwrap();
    p.run_until(ms(40_000), |p| {
        p.client_events
            .iter()
            .any(|(_, e)| matches!(e, SctpEvent::AsconfResult { .. }))
    });
    assert!(p.client_events.iter().any(|(_, e)| *e
        == SctpEvent::AsconfResult {
            kind: AsconfRequestKind::SetPrimary,
            addr: C2,
            success: true
        }));
    assert!(p.client_log.iter().any(|(_, s)| matches!(
        s.packet.chunks.as_slice(),
        [ChunkRepr::Auth(_), ChunkRepr::Asconf(_), ..]
    )));
    assert_eq!(p.client().stats().auth_failures, 0);
    assert_eq!(p.server().unwrap().stats().auth_failures, 0);
    assert_eq!(p.server().unwrap().stats().auth_unauthenticated_dropped, 0);
    assert!(p.client().stats().auth_sent > 0);
}

/// RFC 4895 §6.3's special case: the server lists COOKIE ECHO in its CHUNKS, so the client's
/// COOKIE ECHO comes after an AUTH chunk, which the server can only check with the key from the
/// cookie the COOKIE ECHO carries: it builds the association from the cookie first, then checks
/// the AUTH chunk. The association comes up and the bundled data arrives.
#[test]
fn auth_before_cookie_echo() {
    let c = auth_cfg();
    let s = SctpConfig {
        auth_chunks: vec![chunk_type::COOKIE_ECHO, chunk_type::DATA],
        ..auth_cfg()
    };
    let mut p = Pair::new(c, s, &[C1], &[S1], &[S1], &[LinkCfg::clean(10)], 9);
    let now = p.now;
    p.client_mut()
        .send(now, vec![7; 100], 0, false, None, 0)
        .unwrap();
    p.establish();
    p.run_until(ms(5_000), |p| !p.server_rx.is_empty());
    let first = &p.client_log[1].1.packet.chunks;
    assert!(
        matches!(
            first.as_slice(),
            [
                ChunkRepr::Auth(_),
                ChunkRepr::CookieEcho { .. },
                ChunkRepr::Data(_),
                ..
            ]
        ),
        "{first:?}"
    );
    assert_eq!(p.server_rx.len(), 1);
    assert_eq!(p.server().unwrap().stats().auth_failures, 0);
}

/// The same server refuses a COOKIE ECHO that arrives without the AUTH chunk it asked for, or
/// with a bad one (§6.3: a listed chunk without a valid AUTH before it is discarded): no
/// association, no COOKIE ACK.
#[test]
fn cookie_echo_without_required_auth_is_discarded() {
    let s = SctpConfig {
        auth_chunks: vec![chunk_type::COOKIE_ECHO],
        ..auth_cfg()
    };
    let mut server = SctpEndpoint::new(s, REMOTE_PORT, vec![R1], Rng::from_seed(4));
    server.listen(true);
    let mut client = SctpEndpoint::new(auth_cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(5));
    let h = client.connect(SimTime::ZERO, &[R1], REMOTE_PORT);
    let init = client
        .assoc_mut(h)
        .unwrap()
        .poll_transmit(SimTime::ZERO)
        .unwrap();
    server
        .handle_datagram(SimTime::ZERO, L1, R1, &init.payload)
        .unwrap();
    let ack = server.poll_transmit().unwrap();
    client
        .handle_datagram(SimTime::ZERO, R1, L1, &ack.payload)
        .unwrap();
    let echo = client
        .assoc_mut(h)
        .unwrap()
        .poll_transmit(SimTime::ZERO)
        .unwrap();
    let signed = reparse(&echo.payload);
    assert!(matches!(signed.chunks[0], ChunkRepr::Auth(_)));
    // Without the AUTH chunk.
    let bare = SctpRepr {
        chunks: signed.chunks[1..].to_vec(),
        ..signed.clone()
    };
    assert!(accept(&mut server, SimTime::ZERO, L1, R1, &bare).is_none());
    // With a wrong HMAC.
    let mut bad = signed.clone();
    if let ChunkRepr::Auth(a) = &mut bad.chunks[0] {
        a.hmac[0] ^= 1;
    }
    assert!(accept(&mut server, SimTime::ZERO, L1, R1, &bad).is_none());
    assert!(server.poll_transmit().is_none(), "nothing answers them");
    // The genuine one.
    assert!(accept(&mut server, SimTime::ZERO, L1, R1, &signed).is_some());
}

/// Random packets to an association with AUTH: AUTH chunks with any key, identifier and HMAC
/// length, in any position, signed correctly or not, around ASCONF, DATA, SACK and HEARTBEAT
/// chunks. Nothing panics (DESIGN.md §1.5), the association's invariants hold, and a wrong
/// AUTH chunk never lets an ASCONF through.
#[test]
fn random_auth_packets_never_panic() {
    let (mut total_acked, mut total_failures) = (0, 0);
    for seed in 0..150u64 {
        let mut rng = Rng::from_seed(seed);
        let (mut h, remote) = established_auth(auth_cfg(), remote_offer(AuthHmac::Sha1));
        let mut serial = first_seq();
        for _ in 0..30 {
            let n = 1 + rng.below(3) as usize;
            let mut chunks: Vec<ChunkRepr> = (0..n)
                .map(|i| match rng.below(6) {
                    0 => set_primary_asconf(serial.wrapping_add(rng.below(2) as u32)),
                    1 => rdata(i as u32 + rng.below(8) as u32, 0, 0, b"x"),
                    2 => sack_chunk(h.ltsn(0), &[], 65_536),
                    3 => ChunkRepr::Heartbeat {
                        info: vec![1; rng.below(20) as usize],
                    },
                    _ => ChunkRepr::Auth(AuthChunk {
                        shared_key_id: rng.below(2) as u16,
                        hmac_id: [0, 1, 2, 3, 0xffff][rng.below(5) as usize],
                        hmac: vec![0xa5; rng.below(40) as usize],
                    }),
                })
                .collect();
            let signed = rng.bernoulli(0.5) && remote.sign(&mut chunks);
            let before = h.a.stats().clone();
            h.inject(chunks.clone());
            h.wait(SimDuration::from_millis(rng.below(500)));
            let acked: usize = h
                .all_chunks()
                .iter()
                .filter(|(_, c)| matches!(c, ChunkRepr::AsconfAck(_)))
                .count();
            // An ASCONF-ACK answers only an ASCONF that followed a good AUTH chunk, so only
            // after a signed packet (or a retransmitted ASCONF answered from the cache, which
            // also needs a good AUTH chunk).
            if acked > 0 {
                assert!(signed, "seed {seed}: ASCONF-ACK for {chunks:?}");
                serial = serial.wrapping_add(1);
                total_acked += acked;
            }
            assert!(h.a.stats().auth_failures >= before.auth_failures);
            h.a.check_invariants();
            if h.a.is_closed() {
                break;
            }
        }
        total_failures += h.a.stats().auth_failures;
    }
    // Both outcomes happened: the test is not vacuous.
    assert!(
        total_acked > 20 && total_failures > 20,
        "{total_acked} {total_failures}"
    );
}

/// RFC 4895 §6.2: the HMAC covers the packet as sent. Through `handle_datagram` it is checked
/// over the received bytes: a reserved flag bit set on the wire in an authenticated DATA
/// chunk (which the codec ignores, so the parsed chunk is unchanged) fails the check; the
/// untouched packet passes.
#[test]
fn the_hmac_is_checked_over_the_received_bytes() {
    let s = SctpConfig {
        auth_chunks: vec![chunk_type::DATA],
        ..auth_cfg()
    };
    let mut server = SctpEndpoint::new(s, REMOTE_PORT, vec![R1], Rng::from_seed(4));
    server.listen(true);
    let mut client = SctpEndpoint::new(auth_cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(5));
    let h = client.connect(SimTime::ZERO, &[R1], REMOTE_PORT);
    let c = |client: &mut SctpEndpoint| client.assoc_mut(h).unwrap().poll_transmit(SimTime::ZERO);
    let init = c(&mut client).unwrap();
    server
        .handle_datagram(SimTime::ZERO, L1, R1, &init.payload)
        .unwrap();
    let ack = server.poll_transmit().unwrap();
    client
        .handle_datagram(SimTime::ZERO, R1, L1, &ack.payload)
        .unwrap();
    let echo = c(&mut client).unwrap();
    let Some(DatagramEvent::NewAssociation(sh)) = server
        .handle_datagram(SimTime::ZERO, L1, R1, &echo.payload)
        .unwrap()
    else {
        panic!("no association")
    };
    let cookie_ack = server
        .assoc_mut(sh)
        .unwrap()
        .poll_transmit(SimTime::ZERO)
        .unwrap();
    client
        .handle_datagram(SimTime::ZERO, R1, L1, &cookie_ack.payload)
        .unwrap();
    client
        .assoc_mut(h)
        .unwrap()
        .send(SimTime::ZERO, vec![9; 40], 0, false, None, 0)
        .unwrap();
    let data = c(&mut client).unwrap();
    let parsed = reparse(&data.payload);
    let at = parsed
        .chunks
        .iter()
        .position(|x| matches!(x, ChunkRepr::Data(_)))
        .expect("DATA");
    assert!(matches!(parsed.chunks[at - 1], ChunkRepr::Auth(_)));
    // Chunk offsets: 12-byte common header, then each chunk padded.
    let offset = 12
        + parsed.chunks[..at]
            .iter()
            .map(ChunkRepr::buffer_len)
            .sum::<usize>();
    let mut bent = data.payload.clone();
    bent[offset + 1] |= 0x10; // a reserved DATA flag bit (RFC 9260 §3.3.1)
    let mut p = sctpsim_wire::sctp::SctpPacket::new_unchecked(&mut bent[..]);
    p.fill_checksum();
    assert_eq!(reparse(&bent), parsed, "the codec ignores the bit");
    let sa = |server: &mut SctpEndpoint| server.assoc(sh).unwrap().stats().clone();
    server.handle_datagram(ms(1), L1, R1, &bent).unwrap();
    assert_eq!(sa(&mut server).auth_failures, 1);
    assert_eq!(server.assoc_mut(sh).unwrap().readable(), 0);
    server
        .handle_datagram(ms(2), L1, R1, &data.payload)
        .unwrap();
    assert_eq!(sa(&mut server).auth_failures, 1);
    assert_eq!(server.assoc_mut(sh).unwrap().readable(), 1);
}
