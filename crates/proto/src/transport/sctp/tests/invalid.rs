//! Invalid messages (RFC 9260 §3.2, §3.3, §6.10, §8.4, §8.5, §11): chunks and parameters the
//! codec cannot parse, illegal bundling, out-of-the-blue packets. The table in
//! `docs/models/sctp.md` ("Invalid messages") names each test here with its rule.
//!
//! Packets with malformed chunks cannot be built from `ChunkRepr` (which always encodes
//! well-formed chunks), so these tests write raw chunk bytes, parse them as a receiver does
//! (`SctpRepr::parse_lenient`) and hand the result to the association or the endpoint.

use super::*;
use crate::transport::sctp::EndpointStats;
use sctpsim_wire::sctp::{cause_code, ChunkFault, ErrorCause, SctpPacket, UnknownChunk};

/// A chunk with an arbitrary Chunk Length field, padded to 4 bytes.
pub(super) fn raw_chunk(kind: u8, flags: u8, length: u16, value: &[u8]) -> Vec<u8> {
    let mut b = vec![kind, flags];
    b.extend_from_slice(&length.to_be_bytes());
    b.extend_from_slice(value);
    while b.len() % 4 != 0 {
        b.push(0);
    }
    b
}

/// A chunk whose length field is right.
fn chunk(kind: u8, flags: u8, value: &[u8]) -> Vec<u8> {
    let len = u16::try_from(4 + value.len()).expect("small");
    raw_chunk(kind, flags, len, value)
}

/// A well-formed chunk's bytes.
fn bytes_of(c: &ChunkRepr) -> Vec<u8> {
    c.to_bytes().expect("encodable")
}

/// An SCTP packet from the remote's port to ours with `vtag` and the raw `chunks`.
fn datagram(vtag: u32, chunks: &[u8]) -> Vec<u8> {
    let mut b = Vec::with_capacity(12 + chunks.len());
    b.extend_from_slice(&REMOTE_PORT.to_be_bytes());
    b.extend_from_slice(&LOCAL_PORT.to_be_bytes());
    b.extend_from_slice(&vtag.to_be_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(chunks);
    SctpPacket::new_unchecked(&mut b[..]).fill_checksum();
    b
}

fn parse(bytes: &[u8]) -> (SctpRepr, Option<ChunkFault>) {
    let p = SctpPacket::new_checked(bytes).expect("header");
    SctpRepr::parse_lenient(&p).expect("checksum")
}

/// Raw chunks from the remote's first address to the association under test, with our tag.
pub(super) fn inject_bytes(h: &mut Harness, chunks: &[u8]) {
    let vtag = h.a.my_vtag();
    inject_bytes_tagged(h, vtag, chunks);
}

fn inject_bytes_tagged(h: &mut Harness, vtag: u32, chunks: &[u8]) {
    h.drain();
    let (pkt, fault) = parse(&datagram(vtag, chunks));
    let (src, dst, now) = (h.remote[0], h.local[0], h.now);
    match fault {
        Some(f) => h.a.handle_packet_with_fault(now, src, dst, &pkt, &f),
        None => h.a.handle_packet(now, src, dst, &pkt),
    }
    h.drain();
}

/// A listening endpoint at L1 (no association).
fn listener() -> SctpEndpoint {
    let mut ep = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(11));
    ep.listen(true);
    ep
}

/// The 16-byte fixed part of an INIT / INIT ACK.
fn init_fixed(tag: u32, a_rwnd: u32, os: u16, mis: u16) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&tag.to_be_bytes());
    v.extend_from_slice(&a_rwnd.to_be_bytes());
    v.extend_from_slice(&os.to_be_bytes());
    v.extend_from_slice(&mis.to_be_bytes());
    v.extend_from_slice(&1u32.to_be_bytes());
    v
}

fn only_abort(t: &Sent) -> (bool, Vec<ErrorCause>) {
    match t.packet.chunks.as_slice() {
        [ChunkRepr::Abort { t_bit, causes }] => (*t_bit, causes.clone()),
        other => panic!("expected a lone ABORT, got {other:?}"),
    }
}

fn protocol_violation(kind: u16, len: u16) -> ErrorCause {
    let mut info = kind.to_be_bytes().to_vec();
    info.extend_from_slice(&len.to_be_bytes());
    ErrorCause::ProtocolViolation { info }
}

// ------------------------------------------------------------------ §3.2 chunk lengths

#[test]
fn partial_chunk_is_dropped_after_the_chunks_before_it() {
    let mut h = established();
    // DATA, then a HEARTBEAT whose length (40) runs past the end of the packet.
    let b = [
        bytes_of(&rdata(0, 0, 0, b"x")),
        raw_chunk(4, 0, 40, &[0, 1, 0, 8]),
    ]
    .concat();
    inject_bytes(&mut h, &b);
    assert_eq!(
        h.a.readable(),
        1,
        "the DATA before the partial chunk is delivered"
    );
    assert_eq!(h.a.stats().malformed_chunks, 1);
    h.wait(SimDuration::from_millis(250));
    let chunks: Vec<ChunkRepr> = h.all().into_iter().flat_map(|t| t.packet.chunks).collect();
    assert!(chunks.iter().any(|c| matches!(c, ChunkRepr::Sack(_))));
    assert!(!chunks
        .iter()
        .any(|c| matches!(c, ChunkRepr::HeartbeatAck { .. })));
    assert_eq!(h.a.state(), State::Established);
}

#[test]
fn chunk_length_below_4_ends_the_packet() {
    let mut h = established();
    // DATA, a chunk with length 2, then another DATA that cannot be delimited any more.
    let b = [
        bytes_of(&rdata(0, 0, 0, b"x")),
        raw_chunk(0xbf, 0, 2, &[]),
        bytes_of(&rdata(1, 0, 1, b"y")),
    ]
    .concat();
    inject_bytes(&mut h, &b);
    assert_eq!(h.a.readable(), 1);
    assert_eq!(h.a.stats().malformed_chunks, 1);
    assert_eq!(h.a.stats().data_chunks_received, 1);
}

// ------------------------------------------------------------------ §6.2 DATA

#[test]
fn data_chunk_shorter_than_its_header_aborts_with_protocol_violation() {
    let mut h = established();
    // Length 12: TSN, stream and SSN, no PPID.
    let tsn = (REMOTE_TSN + 0).0.to_be_bytes();
    inject_bytes(
        &mut h,
        &raw_chunk(0, 3, 12, &[tsn[0], tsn[1], tsn[2], tsn[3], 0, 0, 0, 0]),
    );
    let t = h.next().expect("ABORT");
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    let (t_bit, causes) = only_abort(&t);
    assert!(!t_bit);
    assert_eq!(
        causes,
        vec![ErrorCause::ProtocolViolation {
            info: b"DATA chunk of length 12".to_vec()
        }]
    );
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn data_chunk_of_exactly_16_bytes_aborts_with_no_user_data() {
    let mut h = established();
    let tsn = REMOTE_TSN.0.to_be_bytes();
    let mut v = tsn.to_vec();
    v.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]);
    inject_bytes(&mut h, &chunk(0, 3, &v));
    let (_, causes) = only_abort(&h.next().expect("ABORT"));
    assert_eq!(causes, vec![ErrorCause::NoUserData { tsn: REMOTE_TSN }]);
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn invalid_stream_is_acknowledged_and_reported_before_the_sack_as_freebsd() {
    let mut h = established();
    // Two DATA chunks in one packet so the SACK goes out at once (§6.2 every second packet
    // does not apply; the ERROR is "immediately" sent, §6.5).
    send!(h, [rdata(0, 500, 0, b"x"), rdata(1, 0, 0, b"y")]);
    h.wait(SimDuration::from_millis(250));
    let chunks: Vec<ChunkRepr> = h.all().into_iter().flat_map(|t| t.packet.chunks).collect();
    let sack = chunks
        .iter()
        .position(|c| matches!(c, ChunkRepr::Sack(s) if s.cum_tsn_ack == REMOTE_TSN + 1))
        .expect("both TSNs acknowledged");
    let error = chunks
        .iter()
        .position(|c| {
            matches!(c, ChunkRepr::Error { causes }
                if causes == &vec![ErrorCause::InvalidStreamIdentifier { stream_id: 500 }])
        })
        .expect("Invalid Stream Identifier");
    // FreeBSD's order, which ETSI TS 102 369 E/I/6/3 expects (RFC 9260 §6.5 would put the
    // ERROR after the SACK; `association/output.rs`).
    assert!(error < sack, "the ERROR precedes the SACK: {chunks:?}");
    assert_eq!(
        h.a.readable(),
        1,
        "only the valid stream's message is delivered"
    );
}

// ------------------------------------------------------------------ §3.2 unrecognized chunks

#[test]
fn unrecognized_chunks_are_reported_in_one_error_even_when_processing_stops() {
    let mut h = established();
    let unknown = |kind: u8| {
        ChunkRepr::Unknown(UnknownChunk {
            kind,
            flags: 0,
            value: vec![9],
        })
    };
    // 11 (skip, report), DATA, 01 (stop, report), DATA that is never processed.
    send!(
        h,
        [
            unknown(0xfe),
            rdata(0, 0, 0, b"x"),
            unknown(0x7e),
            rdata(1, 0, 1, b"y")
        ]
    );
    assert_eq!(h.a.readable(), 1);
    h.wait(SimDuration::from_millis(250));
    let errors: Vec<Vec<ErrorCause>> = h
        .all()
        .into_iter()
        .flat_map(|t| t.packet.chunks)
        .filter_map(|c| match c {
            ChunkRepr::Error { causes } => Some(causes),
            _ => None,
        })
        .collect();
    assert_eq!(
        errors.len(),
        1,
        "one ERROR chunk for the packet: {errors:?}"
    );
    assert_eq!(errors[0].len(), 2);
    assert!(errors[0]
        .iter()
        .all(|c| c.code() == cause_code::UNRECOGNIZED_CHUNK_TYPE));
}

// ------------------------------------------------------------------ §3.2.1, §3.3.2 INIT

#[test]
fn init_with_a_parameter_of_bad_length_is_refused_with_protocol_violation() {
    let mut ep = listener();
    // An IPv4 Address parameter whose length says 12 (RFC 9260 §3.3.2.1.1: 8).
    let mut v = init_fixed(0x1234_5678, 65_536, 10, 10);
    v.extend_from_slice(&[0, 5, 0, 12, 10, 0, 0, 9, 0, 0, 0, 0]);
    let bytes = datagram(0, &chunk(1, 0, &v));
    assert_eq!(
        ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes),
        Ok(Some(DatagramEvent::Response))
    );
    let t = sent_ep(&mut ep).expect("ABORT");
    assert_eq!(t.packet.verification_tag, 0x1234_5678);
    let (t_bit, causes) = only_abort(&t);
    assert!(!t_bit, "§8.4 rule 3: the Initiate Tag, T bit clear");
    assert_eq!(causes, vec![protocol_violation(5, 12)]);
    assert_eq!(ep.associations().count(), 0);
}

#[test]
fn init_with_a_parameter_running_past_the_chunk_is_refused() {
    let mut ep = listener();
    let mut v = init_fixed(0x1234_5678, 65_536, 10, 10);
    // Unknown parameter 0x8008 whose length (40) runs past the chunk.
    v.extend_from_slice(&[0x80, 8, 0, 40, 1, 2, 3, 4]);
    let bytes = datagram(0, &chunk(1, 0, &v));
    ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes).unwrap();
    let (_, causes) = only_abort(&sent_ep(&mut ep).expect("ABORT"));
    assert_eq!(causes, vec![protocol_violation(0x8008, 40)]);
}

#[test]
fn malformed_init_with_tag_zero_or_short_fixed_part_is_discarded() {
    let mut ep = listener();
    let mut v = init_fixed(0, 65_536, 10, 10);
    v.extend_from_slice(&[0, 5, 0, 2]);
    assert!(ep
        .handle_datagram(SimTime::ZERO, R1, L1, &datagram(0, &chunk(1, 0, &v)))
        .is_err());
    // An INIT of 12 bytes: no room for its fixed part.
    assert!(ep
        .handle_datagram(SimTime::ZERO, R1, L1, &datagram(0, &chunk(1, 0, &[0; 8])))
        .is_err());
    assert!(sent_ep(&mut ep).is_none());
    assert_eq!(ep.stats().malformed_packets, 2);
}

#[test]
fn init_with_zero_streams_is_aborted_with_invalid_mandatory_parameter() {
    for (os, mis) in [(0, 10), (10, 0)] {
        let mut ep = listener();
        let bytes = datagram(0, &chunk(1, 0, &init_fixed(0x99, 65_536, os, mis)));
        ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes).unwrap();
        let t = sent_ep(&mut ep).expect("ABORT");
        assert_eq!(t.packet.verification_tag, 0x99);
        let (t_bit, causes) = only_abort(&t);
        assert!(!t_bit);
        assert_eq!(causes, vec![ErrorCause::InvalidMandatoryParameter]);
    }
}

#[test]
fn init_with_zero_initiate_tag_is_silently_discarded() {
    let mut ep = listener();
    let bytes = datagram(0, &chunk(1, 0, &init_fixed(0, 65_536, 10, 10)));
    assert_eq!(ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes), Ok(None));
    assert!(sent_ep(&mut ep).is_none());
}

#[test]
fn init_unrecognized_parameters_by_upper_bits() {
    // 0xb001: skip, no report; 0xf00x: skip, report; 0x3001: stop; 0x7001: stop and report.
    // Every case is still answered with an INIT ACK (§3.2.1).
    let unrec = |kinds: &[u16]| {
        let mut ep = listener();
        let mut v = init_fixed(0x77, 65_536, 10, 10);
        for k in kinds {
            v.extend_from_slice(&k.to_be_bytes());
            v.extend_from_slice(&[0, 5, 1, 0, 0, 0]);
        }
        ep.handle_datagram(SimTime::ZERO, R1, L1, &datagram(0, &chunk(1, 0, &v)))
            .unwrap();
        let t = sent_ep(&mut ep).expect("INIT ACK");
        let ChunkRepr::InitAck(ack) = &t.packet.chunks[0] else {
            panic!("INIT ACK expected, got {:?}", t.packet.chunks)
        };
        ack.params
            .iter()
            .filter_map(|p| match p {
                Parameter::UnrecognizedParameter(u) => Some(u16::from_be_bytes([u[0], u[1]])),
                _ => None,
            })
            .collect::<Vec<u16>>()
    };
    assert_eq!(unrec(&[0xb001]), Vec::<u16>::new());
    assert_eq!(unrec(&[0xf001, 0xf002]), vec![0xf001, 0xf002]);
    assert_eq!(unrec(&[0x3001, 0xf001]), Vec::<u16>::new());
    assert_eq!(unrec(&[0xf002, 0x7001, 0xf001]), vec![0xf002, 0x7001]);
}

// ------------------------------------------------------------------ §3.3.3 INIT ACK

#[test]
fn init_ack_with_a_malformed_parameter_aborts_the_setup() {
    let (mut h, _init) = cookie_wait(cfg(), &[L1], &[R1]);
    let mut v = init_fixed(REMOTE_TAG, 65_536, 10, 10);
    // A Cookie Preservative (type 9) of length 12 (RFC 9260 §3.3.2.1.3: 8).
    v.extend_from_slice(&[0, 9, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0]);
    let tag = h.a.my_vtag();
    inject_bytes_tagged(&mut h, tag, &chunk(2, 0, &v));
    let t = h.next().expect("ABORT");
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    let (t_bit, causes) = only_abort(&t);
    assert!(!t_bit);
    assert_eq!(causes, vec![protocol_violation(9, 12)]);
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn init_ack_without_state_cookie_aborts_with_missing_mandatory_parameter() {
    let (mut h, _init) = cookie_wait(cfg(), &[L1], &[R1]);
    let tag = h.a.my_vtag();
    inject_bytes_tagged(
        &mut h,
        tag,
        &chunk(2, 0, &init_fixed(REMOTE_TAG, 65_536, 10, 10)),
    );
    let t = h.next().expect("ABORT");
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    let (_, causes) = only_abort(&t);
    assert_eq!(
        causes,
        vec![ErrorCause::MissingMandatoryParameter { missing: vec![7] }]
    );
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn init_ack_unrecognized_parameters_are_reported_with_the_cookie_echo() {
    let (mut h, _init) = cookie_wait(cfg(), &[L1], &[R1]);
    let mut ack = remote_init_ack(&[R1], b"c", false, false);
    ack.params.push(Parameter::Unknown {
        kind: 0xc123,
        value: vec![1, 2, 3],
    });
    ack.params.push(Parameter::Unknown {
        kind: 0x8123,
        value: vec![4],
    });
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    let t = h.next().expect("COOKIE ECHO");
    match t.packet.chunks.as_slice() {
        [ChunkRepr::CookieEcho { .. }, ChunkRepr::Error { causes }] => {
            assert_eq!(
                causes,
                &vec![ErrorCause::UnrecognizedParameters {
                    parameters: vec![0xc1, 0x23, 0, 7, 1, 2, 3, 0]
                }]
            );
        }
        other => panic!("COOKIE ECHO then ERROR expected, got {other:?}"),
    }
}

// ------------------------------------------------------------------ §6.10 bundling

#[test]
fn init_bundled_with_anything_is_discarded() {
    let mut ep = listener();
    let init = bytes_of(&ChunkRepr::Init(remote_init_ack(&[R1], b"", false, false)));
    // INIT + COOKIE ACK, and INIT followed by a chunk the codec cannot parse.
    for tail in [chunk(11, 0, &[]), raw_chunk(3, 0, 2, &[])] {
        let bytes = datagram(0, &[init.clone(), tail].concat());
        let _ = ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes);
        assert!(sent_ep(&mut ep).is_none());
    }
    // And to an association (an INIT collision bundled with DATA).
    let mut h = established();
    let b = [init, bytes_of(&rdata(0, 0, 0, b"x"))].concat();
    inject_bytes_tagged(&mut h, 0, &b);
    assert_eq!(h.a.readable(), 0);
    assert!(h.all().is_empty());
}

#[test]
fn shutdown_complete_bundled_is_discarded() {
    let mut h = established();
    send!(
        h,
        [
            rdata(0, 0, 0, b"x"),
            ChunkRepr::ShutdownComplete { t_bit: false }
        ]
    );
    assert_eq!(h.a.readable(), 0);
    assert_eq!(h.a.state(), State::Established);
}

#[test]
fn init_with_nonzero_verification_tag_is_discarded() {
    let mut ep = listener();
    let init = bytes_of(&ChunkRepr::Init(remote_init_ack(&[R1], b"", false, false)));
    assert_eq!(
        ep.handle_datagram(SimTime::ZERO, R1, L1, &datagram(5, &init)),
        Ok(None)
    );
    assert!(sent_ep(&mut ep).is_none());
}

// ------------------------------------------------------------------ §8.4 out of the blue

#[test]
fn ootb_malformed_chunk_is_answered_by_its_type() {
    let mut ep = listener();
    // A SACK whose gap count does not fit its length: rule 8, ABORT with the T bit and the
    // packet's tag.
    let mut sack = vec![0, 0, 0, 1, 0, 1, 0, 0, 0, 5, 0, 0];
    sack.extend_from_slice(&[0, 1, 0, 2]);
    let bytes = datagram(0x4444, &chunk(3, 0, &sack));
    assert_eq!(
        ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes),
        Ok(Some(DatagramEvent::Response))
    );
    let t = sent_ep(&mut ep).expect("ABORT");
    assert_eq!(t.packet.verification_tag, 0x4444);
    assert!(only_abort(&t).0, "T bit set");
    // A partial chunk (length past the end or below 4, a header cut short) is still an OOTB
    // packet (§8.4: it passed the CRC32c check): rule 8 too, as FreeBSD's `sctp_handle_ootb`.
    for c in [
        raw_chunk(3, 0, 64, &[0; 8]),
        raw_chunk(0, 0, 2, &[]),
        vec![3, 0],
    ] {
        let bytes = datagram(0x4444, &c);
        assert_eq!(
            ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes),
            Ok(Some(DatagramEvent::Response))
        );
        assert!(only_abort(&sent_ep(&mut ep).expect("ABORT")).0);
    }
    // A malformed SHUTDOWN COMPLETE, ABORT or ERROR: nothing (rules 2, 6, 7).
    for c in [
        raw_chunk(14, 0, 3, &[]),
        raw_chunk(6, 0, 40, &[]),
        raw_chunk(9, 0, 1, &[]),
    ] {
        assert!(ep
            .handle_datagram(SimTime::ZERO, R1, L1, &datagram(0x4444, &c))
            .is_err());
        assert!(sent_ep(&mut ep).is_none());
    }
}

#[test]
fn ootb_rules() {
    let mut ep = listener();
    let now = SimTime::ZERO;
    let pkt = |vtag: u32, chunks: Vec<ChunkRepr>| SctpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        verification_tag: vtag,
        chunks,
    };
    // Rule 1: non-unicast source or destination.
    for (src, dst) in [
        (Ipv4Addr::BROADCAST, L1),
        (Ipv4Addr::new(224, 0, 0, 5), L1),
        (R1, Ipv4Addr::new(224, 0, 0, 5)),
        (Ipv4Addr::UNSPECIFIED, L1),
    ] {
        assert_eq!(
            ep.handle_packet(now, src, dst, &pkt(1, vec![ChunkRepr::CookieAck])),
            None
        );
        let init = ChunkRepr::Init(remote_init_ack(&[R1], b"", false, false));
        assert_eq!(ep.handle_packet(now, src, dst, &pkt(0, vec![init])), None);
    }
    // Rule 2: an ABORT anywhere in the packet, never answered.
    let abort = ChunkRepr::Abort {
        t_bit: false,
        causes: vec![],
    };
    assert_eq!(
        ep.handle_packet(now, R1, L1, &pkt(1, vec![rdata(0, 0, 0, b"x"), abort])),
        None
    );
    // Rule 5: SHUTDOWN ACK → SHUTDOWN COMPLETE, T bit, the packet's tag.
    ep.handle_packet(now, R1, L1, &pkt(0x55, vec![ChunkRepr::ShutdownAck]));
    let t = sent_ep(&mut ep).expect("SHUTDOWN COMPLETE");
    assert_eq!(t.packet.verification_tag, 0x55);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::ShutdownComplete { t_bit: true }]
    );
    // Rules 6 and 7: SHUTDOWN COMPLETE, COOKIE ACK, Stale Cookie ERROR: discarded.
    for c in [
        ChunkRepr::ShutdownComplete { t_bit: true },
        ChunkRepr::CookieAck,
        ChunkRepr::Error {
            causes: vec![ErrorCause::StaleCookie { staleness_us: 1 }],
        },
    ] {
        assert_eq!(ep.handle_packet(now, R1, L1, &pkt(0x55, vec![c])), None);
    }
    // Rule 8: anything else (an INIT ACK, a DATA) → ABORT with the T bit and the tag.
    for c in [
        ChunkRepr::InitAck(remote_init_ack(&[R1], b"x", false, false)),
        rdata(0, 0, 0, b"x"),
    ] {
        ep.handle_packet(now, R1, L1, &pkt(0x66, vec![c]));
        let t = sent_ep(&mut ep).expect("ABORT");
        assert_eq!(t.packet.verification_tag, 0x66);
        assert!(only_abort(&t).0);
    }
    assert!(sent_ep(&mut ep).is_none());
}

// ------------------------------------------------------------------ COOKIE ECHO

#[test]
fn bad_or_truncated_cookies_are_silently_discarded() {
    let mut ep = listener();
    let mut client = SctpEndpoint::new(cfg(), REMOTE_PORT, vec![R1], Rng::from_seed(12));
    let c = client.connect(SimTime::ZERO, &[L1], LOCAL_PORT);
    let init = client
        .assoc_mut(c)
        .and_then(|a| a.poll_transmit(SimTime::ZERO))
        .expect("INIT");
    ep.handle_datagram(SimTime::ZERO, R1, L1, &init.payload)
        .unwrap();
    let ack = sent_ep(&mut ep).expect("INIT ACK");
    let ChunkRepr::InitAck(ack) = &ack.packet.chunks[0] else {
        panic!()
    };
    let cookie = ack.state_cookie().expect("cookie").to_vec();
    let tag = client.assoc(c).expect("a").my_vtag();
    let _ = tag;
    let echo = |cookie: Vec<u8>| ChunkRepr::CookieEcho { cookie };
    let mut flipped = cookie.clone();
    flipped[3] ^= 1;
    let truncated = cookie[..cookie.len() / 2].to_vec();
    for bad in [flipped, truncated, Vec::new()] {
        let pkt = SctpRepr {
            src_port: REMOTE_PORT,
            dst_port: LOCAL_PORT,
            verification_tag: ack.initiate_tag,
            chunks: vec![echo(bad), rdata(0, 0, 0, b"x")],
        };
        assert_eq!(ep.handle_packet(SimTime::ZERO, R1, L1, &pkt), None);
        assert!(sent_ep(&mut ep).is_none());
    }
    assert_eq!(ep.associations().count(), 0);
    assert_eq!(ep.stats().cookies_rejected, 3);
    // The good cookie still works.
    let pkt = SctpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        verification_tag: ack.initiate_tag,
        chunks: vec![echo(cookie)],
    };
    assert!(matches!(
        ep.handle_packet(SimTime::ZERO, R1, L1, &pkt),
        Some(DatagramEvent::NewAssociation(_))
    ));
}

#[test]
fn cookie_echo_bundled_with_a_malformed_chunk_creates_the_association_then_drops_it() {
    let mut ep = listener();
    let mut client = SctpEndpoint::new(cfg(), REMOTE_PORT, vec![R1], Rng::from_seed(13));
    let c = client.connect(SimTime::ZERO, &[L1], LOCAL_PORT);
    let init = client
        .assoc_mut(c)
        .and_then(|a| a.poll_transmit(SimTime::ZERO))
        .expect("INIT");
    ep.handle_datagram(SimTime::ZERO, R1, L1, &init.payload)
        .unwrap();
    let ack = sent_ep(&mut ep).expect("INIT ACK");
    let ChunkRepr::InitAck(ack) = &ack.packet.chunks[0] else {
        panic!()
    };
    let echo = ChunkRepr::CookieEcho {
        cookie: ack.state_cookie().expect("cookie").to_vec(),
    };
    // COOKIE ECHO, DATA, then a DATA chunk of length 8.
    let b = [
        bytes_of(&echo),
        bytes_of(&rdata(0, 0, 0, b"x")),
        raw_chunk(0, 3, 8, &[0, 0, 0, 0]),
    ]
    .concat();
    let bytes = datagram(ack.initiate_tag, &b);
    let Ok(Some(DatagramEvent::NewAssociation(s))) =
        ep.handle_datagram(SimTime::ZERO, R1, L1, &bytes)
    else {
        panic!("the COOKIE ECHO creates the association")
    };
    let a = ep.assoc(s).expect("association");
    // The short DATA chunk is a protocol violation: the new association aborts.
    assert_eq!(a.state(), State::Closed);
    assert_eq!(a.stats().malformed_chunks, 1);
    assert_eq!(ep.stats().malformed_chunks, 1);
    assert_eq!(
        *ep.stats(),
        EndpointStats {
            init_acks_sent: 1,
            associations_accepted: 1,
            malformed_chunks: 1,
            ..EndpointStats::default()
        }
    );
}

// ------------------------------------------------------------------ §8.5.1 tags

#[test]
fn abort_with_malformed_causes_still_aborts_by_the_t_bit_rule() {
    // Our tag, T clear: accepted even though its second cause has length 2.
    let mut h = established();
    let tag = h.a.my_vtag();
    inject_bytes_tagged(&mut h, tag, &chunk(6, 0, &[0, 4, 0, 4, 0, 1, 0, 2]));
    assert_eq!(h.a.state(), State::Closed);
    // The peer's tag with T clear: discarded.
    let mut h = established();
    inject_bytes_tagged(&mut h, REMOTE_TAG, &chunk(6, 0, &[0, 4, 0, 4]));
    assert_eq!(h.a.state(), State::Established);
    // The peer's tag with T set: accepted.
    inject_bytes_tagged(&mut h, REMOTE_TAG, &chunk(6, 1, &[]));
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn malformed_chunk_with_a_wrong_tag_is_discarded_before_anything() {
    let mut h = established();
    inject_bytes_tagged(&mut h, REMOTE_TAG, &raw_chunk(0, 3, 12, &[0; 8]));
    assert_eq!(h.a.state(), State::Established);
    assert_eq!(h.a.stats().malformed_chunks, 0);
    assert_eq!(h.a.stats().packets_dropped_vtag, 1);
}

// ------------------------------------------------------------------ §6.10 control after DATA

#[test]
fn control_chunk_after_data_aborts_with_protocol_violation() {
    let mut h = established();
    let hb = ChunkRepr::Heartbeat { info: vec![1, 2] };
    send!(h, [rdata(0, 0, 0, b"x"), hb]);
    let t = h.next().expect("ABORT");
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    let (_, causes) = only_abort(&t);
    assert_eq!(
        causes,
        vec![ErrorCause::ProtocolViolation {
            info: b"DATA chunk followed by chunk of type 04".to_vec()
        }]
    );
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn unknown_chunk_after_data_keeps_the_upper_bit_rules() {
    let mut h = established();
    let skip = ChunkRepr::Unknown(UnknownChunk {
        kind: 0xbe,
        flags: 0,
        value: vec![],
    });
    send!(h, [rdata(0, 0, 0, b"x"), skip, rdata(1, 0, 1, b"y")]);
    assert_eq!(h.a.readable(), 2);
    assert_eq!(h.a.state(), State::Established);
}

// ------------------------------------------------------------------ SACK, I-DATA, rule 4

#[test]
fn sack_gap_blocks_out_of_range_are_ignored() {
    let mut h = established();
    for _ in 0..3 {
        h.send_msg(10);
    }
    h.all();
    // Cumulative ack of TSN 0; blocks: start 0, start > end, one beyond what was sent, and a
    // valid one for TSN 2.
    send!(h, [h.sack(1, &[(0, 1), (3, 2), (40, 50), (2, 2)], 10_000)]);
    assert_eq!(h.a.state(), State::Established);
    let st = h.a.status();
    assert_eq!(
        st.unacked_chunks, 2,
        "TSNs 1 and 2 stay queued (2 only gap-acked)"
    );
    // §6.2.1 D ii: rwnd = a_rwnd - outstanding bytes, and only TSN 1's 10 bytes are.
    assert_eq!(
        st.peer_rwnd,
        10_000 - 10,
        "the valid block for TSN 2 counted"
    );
}

#[test]
fn i_data_is_an_unrecognized_chunk_that_stops_and_reports() {
    let mut h = established();
    // Without `SctpConfig::i_data` the endpoint does not support I-DATA (RFC 8260 §2.2 does
    // not apply): the chunk is unrecognized.
    let idata = ChunkRepr::IData(sctpsim_wire::sctp::IDataChunk {
        tsn: REMOTE_TSN,
        stream_id: 0,
        mid: sctpsim_wire::sctp::Mid(0),
        ppid_or_fsn: 0,
        unordered: false,
        beginning: true,
        ending: true,
        immediate: false,
        user_data: vec![0; 4],
    });
    send!(h, [idata, rdata(0, 0, 0, b"x")]);
    assert_eq!(h.a.readable(), 0, "processing stopped (upper bits 01)");
    let causes: Vec<ErrorCause> = h
        .all()
        .into_iter()
        .flat_map(|t| t.packet.chunks)
        .flat_map(|c| match c {
            ChunkRepr::Error { causes } => causes,
            _ => vec![],
        })
        .collect();
    assert!(matches!(&causes[..], [ErrorCause::UnrecognizedChunkType { chunk }] if chunk[0] == 64));
}

#[test]
fn ootb_cookie_echo_without_listener_is_aborted() {
    let mut ep = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(14));
    let pkt = SctpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        verification_tag: 0x1357,
        chunks: vec![ChunkRepr::CookieEcho {
            cookie: vec![1; 40],
        }],
    };
    ep.handle_packet(SimTime::ZERO, R1, L1, &pkt);
    let t = sent_ep(&mut ep).expect("ABORT");
    assert_eq!(t.packet.verification_tag, 0x1357);
    assert!(only_abort(&t).0);
    assert_eq!(ep.associations().count(), 0);
}
