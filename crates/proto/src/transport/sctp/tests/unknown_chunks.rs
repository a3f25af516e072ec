//! Unrecognized chunk and parameter types, handled by their upper two bits (RFC 9260 §3.2,
//! §3.2.1), and robustness: nothing panics on any sequence of chunks.

use super::*;
use sctpsim_wire::sctp::{cause_code, ErrorCause, UnknownChunk};

fn unknown(kind: u8) -> ChunkRepr {
    ChunkRepr::Unknown(UnknownChunk {
        kind,
        flags: 0x5a,
        value: vec![1, 2, 3],
    })
}

fn error_causes(h: &mut Harness) -> Vec<ErrorCause> {
    h.all_chunks()
        .into_iter()
        .flat_map(|(_, c)| match c {
            ChunkRepr::Error { causes } => causes,
            _ => vec![],
        })
        .collect()
}

#[test]
fn upper_bits_00_stop_silently() {
    let mut h = established();
    send!(h, [unknown(0x3e), rdata(0, 0, 0, b"x")]);
    assert_eq!(h.a.readable(), 0);
    assert!(error_causes(&mut h).is_empty());
    assert_eq!(h.a.stats().unknown_chunks, 1);
}

#[test]
fn upper_bits_01_stop_and_report() {
    let mut h = established();
    send!(h, [unknown(0x7e), rdata(0, 0, 0, b"x")]);
    assert_eq!(h.a.readable(), 0);
    assert_eq!(
        error_causes(&mut h),
        vec![ErrorCause::UnrecognizedChunkType {
            chunk: vec![0x7e, 0x5a, 0, 7, 1, 2, 3]
        }]
    );
}

#[test]
fn upper_bits_10_skip() {
    let mut h = established();
    send!(h, [unknown(0xbe), rdata(0, 0, 0, b"x")]);
    assert_eq!(h.a.readable(), 1);
    assert!(error_causes(&mut h).is_empty());
}

#[test]
fn upper_bits_11_skip_and_report() {
    let mut h = established();
    send!(h, [unknown(0xfe), rdata(0, 0, 0, b"x"), unknown(0xfd)]);
    assert_eq!(h.a.readable(), 1);
    let causes = error_causes(&mut h);
    assert_eq!(causes.len(), 2);
    assert!(causes
        .iter()
        .all(|c| c.code() == cause_code::UNRECOGNIZED_CHUNK_TYPE));
}

#[test]
fn extensions_not_negotiated_are_unrecognized() {
    let c = SctpConfig {
        heartbeats: false,
        ..SctpConfig::rfc2960()
    };
    let mut h = established_with(c, &[L1], &[R1]);
    assert!(!h.a.pr_sctp_negotiated());
    let fwd = ChunkRepr::ForwardTsn(sctpsim_wire::sctp::ForwardTsnChunk {
        new_cum_tsn: REMOTE_TSN + 5,
        streams: vec![],
    });
    send!(h, [fwd, rdata(0, 0, 0, b"x")]);
    // 0xC0: skip and report.
    assert_eq!(h.a.readable(), 1);
    let causes = error_causes(&mut h);
    assert!(matches!(&causes[0], ErrorCause::UnrecognizedChunkType { chunk } if chunk[0] == 0xc0));
}

#[test]
fn peer_reporting_our_extension_chunk_turns_it_off() {
    let mut h = established();
    assert!(h.a.asconf_negotiated());
    send!(
        h,
        [ChunkRepr::Error {
            causes: vec![ErrorCause::UnrecognizedChunkType {
                chunk: vec![0xc1, 0, 0, 8, 0, 0, 0, 0]
            }]
        }]
    );
    assert!(!h.a.asconf_negotiated());
}

/// A random chunk of any kind, with small random fields.
fn random_chunk(rng: &mut Rng, h: &Harness) -> ChunkRepr {
    let tsn = REMOTE_TSN + rng.below(12) as u32;
    let ltsn = h.ltsn(rng.below(6) as u32);
    match rng.below(20) {
        0..=2 => rfrag(
            rng.below(12) as u32,
            rng.below(3) as u16,
            rng.below(4) as u16,
            rng.bernoulli(0.7),
            rng.bernoulli(0.7),
            rng.bernoulli(0.2),
            &vec![7; rng.below(40) as usize],
        ),
        3 | 4 => sack_chunk(
            ltsn,
            &[(rng.below(5) as u16, rng.below(5) as u16)],
            rng.below(100_000) as u32,
        ),
        5 => ChunkRepr::Heartbeat {
            info: vec![1; rng.below(30) as usize],
        },
        6 => ChunkRepr::HeartbeatAck {
            info: vec![0; rng.below(30) as usize],
        },
        7 => ChunkRepr::Shutdown { cum_tsn_ack: ltsn },
        8 => ChunkRepr::ShutdownAck,
        9 => ChunkRepr::Error {
            causes: vec![ErrorCause::StaleCookie { staleness_us: 5 }],
        },
        10 => ChunkRepr::CookieEcho {
            cookie: vec![3; rng.below(50) as usize],
        },
        11 => ChunkRepr::CookieAck,
        12 => ChunkRepr::ForwardTsn(sctpsim_wire::sctp::ForwardTsnChunk {
            new_cum_tsn: tsn,
            streams: vec![sctpsim_wire::sctp::ForwardTsnStream {
                stream_id: rng.below(3) as u16,
                ssn: Ssn(rng.below(5) as u16),
            }],
        }),
        13 => ChunkRepr::Asconf(sctpsim_wire::sctp::AsconfChunk {
            handoff: sctpsim_wire::sctp::HandoffIndication::None,
            sequence_number: REMOTE_TSN.0.wrapping_add(rng.below(3) as u32),
            address: IpAddr::V4(R1),
            params: vec![
                Parameter::AddIpAddress {
                    correlation_id: 1,
                    address: IpAddr::V4(Ipv4Addr::new(10, 0, 9, rng.below(3) as u8)),
                },
                Parameter::DeleteIpAddress {
                    correlation_id: 2,
                    address: IpAddr::V4(R1),
                },
            ],
        }),
        14 => ChunkRepr::AsconfAck(sctpsim_wire::sctp::AsconfAckChunk {
            sequence_number: rng.below(1 << 31) as u32,
            params: vec![],
        }),
        15 => unknown(
            [0x3f, 0x7f, 0xbf, 0xff, 0x21, 0x44, 0x85, 0xc5, 0x3e, 0x41][rng.below(10) as usize],
        ),
        16 => ChunkRepr::Ecne { lowest_tsn: tsn },
        17 => ChunkRepr::Init(InitChunk {
            initiate_tag: rng.below(3) as u32,
            a_rwnd: 1000,
            outbound_streams: rng.below(3) as u16,
            inbound_streams: 1,
            initial_tsn: Tsn(9),
            params: vec![],
        }),
        18 => ChunkRepr::InitAck(remote_init_ack(&[R1], b"c", false, false)),
        _ => ChunkRepr::Abort {
            t_bit: rng.bernoulli(0.5),
            causes: vec![],
        },
    }
}

#[test]
fn random_chunk_sequences_never_panic() {
    for seed in 0..300u64 {
        let mut rng = Rng::from_seed(seed);
        let mut h = if seed % 3 == 0 {
            super::multihoming::two_paths(cfg())
        } else {
            established()
        };
        for step in 0..40 {
            if rng.bernoulli(0.3) {
                let _ = h.a.send(
                    h.now,
                    vec![1; 1 + rng.below(3000) as usize],
                    0,
                    rng.bernoulli(0.3),
                    None,
                    0,
                );
            }
            let n = 1 + rng.below(3) as usize;
            let chunks: Vec<ChunkRepr> = (0..n).map(|_| random_chunk(&mut rng, &h)).collect();
            let vtag = match rng.below(10) {
                0 => 0,
                1 => REMOTE_TAG,
                _ => h.a.my_vtag(),
            };
            let src = if rng.bernoulli(0.8) { R1 } else { R2 };
            h.inject_raw(src, vtag, chunks);
            if rng.bernoulli(0.3) {
                h.wait(SimDuration::from_millis(rng.below(3000)));
            }
            while h.a.recv().is_some() {}
            h.a.check_invariants();
            h.all();
            assert!(step < 1000);
        }
        h.wait(SimDuration::from_secs(1000));
    }
}

#[test]
fn random_packets_to_a_listening_endpoint_never_panic() {
    let h = established();
    let mut ep =
        crate::transport::sctp::SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(5));
    ep.listen(true);
    let mut rng = Rng::from_seed(99);
    let mut created = 0;
    for _ in 0..5000 {
        let n = 1 + rng.below(3) as usize;
        let chunks: Vec<ChunkRepr> = (0..n).map(|_| random_chunk(&mut rng, &h)).collect();
        let pkt = SctpRepr {
            src_port: REMOTE_PORT,
            dst_port: LOCAL_PORT,
            verification_tag: rng.below(3) as u32,
            chunks,
        };
        let src = [R1, R2, Ipv4Addr::BROADCAST, Ipv4Addr::UNSPECIFIED][rng.below(4) as usize];
        if matches!(
            ep.handle_packet(SimTime::ZERO, src, L1, &pkt),
            Some(DatagramEvent::NewAssociation(_))
        ) {
            created += 1;
        }
        while let Some(t) = sent_ep(&mut ep) {
            // Every answer is a single chunk with a tag taken from the packet (and it parsed
            // back: `sent_ep`).
            assert_eq!(t.packet.chunks.len(), 1);
        }
    }
    assert_eq!(created, 0, "random cookies never pass the MAC");
}
