//! Stream reconfiguration (RFC 6525) in the association: negotiation, the requester's
//! sequence numbers, holding and retransmission, each request's receiver procedure, and two
//! real associations resetting and adding streams while messages flow.

use super::pair::{LinkCfg, Pair};
use super::*;
use crate::transport::sctp::ReconfigRequestKind;
use sctpsim_wire::sctp::{ReconfigChunk, ReconfigParam, ReconfigResult};

fn rc_cfg() -> SctpConfig {
    SctpConfig {
        reconfig: true,
        ..cfg()
    }
}

/// Established as the initiator against a scripted remote whose INIT ACK lists RE-CONFIG or
/// not.
fn established_rc(cfg: SctpConfig, remote_rc: bool) -> Harness {
    let on = cfg.reconfig;
    let remote: &[u8] = if remote_rc {
        &[chunk_type::RE_CONFIG]
    } else {
        &[]
    };
    established_ext(cfg, &[(chunk_type::RE_CONFIG, on)], remote)
}

fn reconfigs(h: &mut Harness) -> Vec<ReconfigParam> {
    h.all_chunks()
        .into_iter()
        .flat_map(|(_, c)| match c {
            ChunkRepr::Reconfig(r) => r.params,
            _ => vec![],
        })
        .collect()
}

fn rc(params: Vec<ReconfigParam>) -> ChunkRepr {
    ChunkRepr::Reconfig(ReconfigChunk { params })
}

fn resp(seq: u32, result: ReconfigResult) -> ReconfigParam {
    ReconfigParam::Response {
        response_seq: seq,
        result,
        next_tsns: None,
    }
}

/// The remote's first request sequence number is its Initial TSN (RFC 6525 §4.1).
fn rseq(k: u32) -> u32 {
    REMOTE_TSN.0.wrapping_add(k)
}

fn data_of(h: &mut Harness) -> Vec<(u16, u16)> {
    h.all_chunks()
        .into_iter()
        .filter_map(|(_, c)| match c {
            ChunkRepr::Data(d) => Some((d.stream_id, d.ssn.0)),
            _ => None,
        })
        .collect()
}

#[test]
fn negotiated_only_when_both_sides_list_it() {
    assert!(established_rc(rc_cfg(), true).a.reconfig_negotiated());
    assert!(!established_rc(rc_cfg(), false).a.reconfig_negotiated());
    let mut h = established_rc(cfg(), true);
    assert!(!h.a.reconfig_negotiated());
    let now = h.now;
    assert_eq!(
        h.a.reset_streams(now, &[0]),
        Err(crate::transport::sctp::ApiError::NotSupported)
    );
}

#[test]
fn outgoing_reset_holds_the_stream_until_performed() {
    let mut h = established_rc(rc_cfg(), true);
    let now = h.now;
    h.send_msg(100);
    h.send_msg(100);
    assert_eq!(data_of(&mut h), vec![(0, 0), (0, 1)]);
    h.a.reset_streams(now, &[0]).unwrap();
    let my_seq = h.a.initial_tsn().0;
    // Sent once what is in flight is acknowledged; meanwhile no new TSN on any stream.
    h.a.send(now, vec![1; 10], 1, false, None, 0).unwrap();
    assert!(reconfigs(&mut h).is_empty());
    h.inject(vec![h.sack(2, &[], 65_536)]);
    let sent = h.all_chunks();
    let request = ChunkRepr::Reconfig(ReconfigChunk {
        params: vec![ReconfigParam::OutgoingSsnReset {
            request_seq: my_seq,
            response_seq: rseq(0).wrapping_sub(1),
            last_tsn: h.ltsn(1),
            streams: vec![0],
        }],
    });
    assert!(sent.iter().any(|(_, c)| *c == request));
    // §5.1.2: nothing new on the stream before the answer; other streams go on.
    assert!(sent
        .iter()
        .any(|(_, c)| matches!(c, ChunkRepr::Data(d) if d.stream_id == 1)));
    h.send_msg(100);
    assert_eq!(data_of(&mut h), vec![]);
    h.inject(vec![
        h.sack(3, &[], 65_536),
        rc(vec![resp(my_seq, ReconfigResult::Performed)]),
    ]);
    assert_eq!(data_of(&mut h), vec![(0, 0)], "SSN 0 again after the reset");
    assert!(h.take_events().contains(&SctpEvent::ReconfigResult {
        kind: ReconfigRequestKind::ResetOutgoing,
        streams: vec![0],
        result: ReconfigResult::Performed,
    }));
    assert_eq!(h.a.stats().reconfig_performed, 1);
    // The next request takes the next sequence number.
    h.inject(vec![h.sack(4, &[], 65_536)]);
    h.a.reset_streams(h.now, &[]).unwrap();
    let p = reconfigs(&mut h);
    assert!(
        matches!(&p[..], [ReconfigParam::OutgoingSsnReset { request_seq, streams, .. }]
            if *request_seq == my_seq + 1 && streams.is_empty())
    );
    // Denied: the SSNs go on.
    h.inject(vec![rc(vec![resp(my_seq + 1, ReconfigResult::Denied)])]);
    h.send_msg(10);
    assert_eq!(data_of(&mut h), vec![(0, 1)]);
    assert_eq!(h.a.stats().reconfig_denied, 1);
}

#[test]
fn request_is_retransmitted_on_the_timer_and_only_one_is_outstanding() {
    let mut h = established_rc(rc_cfg(), true);
    let now = h.now;
    h.a.reset_streams(now, &[1]).unwrap();
    h.a.add_streams(now, 2, 0).unwrap();
    let first = reconfigs(&mut h);
    assert_eq!(first.len(), 1, "one request outstanding at a time (§5.1.1)");
    h.wait(SimDuration::from_secs(4));
    let again = reconfigs(&mut h);
    assert!(!again.is_empty() && again.iter().all(|p| *p == first[0]));
    assert!(h.a.stats().reconfig_retransmissions >= 1);
    let seq = first[0].request_seq().unwrap();
    h.inject(vec![rc(vec![resp(seq, ReconfigResult::Performed)])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![ReconfigParam::AddOutgoingStreams {
            request_seq: seq + 1,
            new_streams: 2
        }]
    );
    h.inject(vec![rc(vec![resp(seq + 1, ReconfigResult::Performed)])]);
    assert_eq!(h.a.status().outbound_streams, 12);
    h.a.send(h.now, vec![1; 10], 11, false, None, 0).unwrap();
    assert_eq!(data_of(&mut h), vec![(11, 0)]);
}

#[test]
fn peer_outgoing_reset_is_performed_or_deferred_until_its_last_tsn() {
    let mut h = established_rc(rc_cfg(), true);
    h.inject(vec![rdata(0, 2, 0, b"a")]);
    h.all();
    // Last TSN received: performed at once.
    h.inject(vec![rc(vec![ReconfigParam::OutgoingSsnReset {
        request_seq: rseq(0),
        response_seq: h.a.initial_tsn().0.wrapping_sub(1),
        last_tsn: REMOTE_TSN,
        streams: vec![2],
    }])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(0), ReconfigResult::Performed)]
    );
    h.inject(vec![rdata(1, 2, 0, b"b")]);
    h.all();
    let got: Vec<Vec<u8>> = std::iter::from_fn(|| h.a.recv()).map(|m| m.data).collect();
    assert_eq!(
        got,
        vec![b"a".to_vec(), b"b".to_vec()],
        "SSN 0 accepted again"
    );
    // Last TSN not yet received: In progress, then Performed on the retransmission.
    let req = ReconfigParam::OutgoingSsnReset {
        request_seq: rseq(1),
        response_seq: h.a.initial_tsn().0.wrapping_sub(1),
        last_tsn: REMOTE_TSN + 3,
        streams: vec![],
    };
    h.inject(vec![rc(vec![req.clone()])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(1), ReconfigResult::InProgress)]
    );
    h.inject(vec![rdata(2, 2, 1, b"c"), rdata(3, 0, 0, b"d")]);
    h.all();
    h.inject(vec![rc(vec![req])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(1), ReconfigResult::Performed)]
    );
    h.inject(vec![rdata(4, 2, 0, b"e")]);
    h.all();
    let got: Vec<Vec<u8>> = std::iter::from_fn(|| h.a.recv()).map(|m| m.data).collect();
    assert_eq!(got, vec![b"c".to_vec(), b"d".to_vec(), b"e".to_vec()]);
    // An invalid stream is "Error - Wrong SSN".
    h.inject(vec![rc(vec![ReconfigParam::OutgoingSsnReset {
        request_seq: rseq(2),
        response_seq: 0,
        last_tsn: REMOTE_TSN,
        streams: vec![500],
    }])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(2), ReconfigResult::WrongSsn)]
    );
}

#[test]
fn bad_sequence_numbers_are_answered_so() {
    let mut h = established_rc(rc_cfg(), true);
    for seq in [rseq(5), rseq(0).wrapping_sub(7)] {
        h.inject(vec![rc(vec![ReconfigParam::SsnTsnReset {
            request_seq: seq,
        }])]);
        assert_eq!(
            reconfigs(&mut h),
            vec![resp(seq, ReconfigResult::BadSequenceNumber)]
        );
    }
    assert_eq!(h.a.stats().reconfig_requests_received, 0);
}

#[test]
fn peer_incoming_reset_is_answered_with_our_outgoing_reset() {
    let mut h = established_rc(rc_cfg(), true);
    h.send_msg(10);
    h.all();
    h.inject(vec![
        h.sack(1, &[], 65_536),
        rc(vec![ReconfigParam::IncomingSsnReset {
            request_seq: rseq(0),
            streams: vec![0, 3],
        }]),
    ]);
    let my_seq = h.a.initial_tsn().0;
    assert_eq!(
        reconfigs(&mut h),
        vec![ReconfigParam::OutgoingSsnReset {
            request_seq: my_seq,
            response_seq: rseq(0),
            last_tsn: h.ltsn(0),
            streams: vec![0, 3],
        }]
    );
    // While ours is outstanding, another incoming reset is "already in progress".
    h.inject(vec![rc(vec![ReconfigParam::IncomingSsnReset {
        request_seq: rseq(1),
        streams: vec![],
    }])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(1), ReconfigResult::AlreadyInProgress)]
    );
    h.inject(vec![rc(vec![resp(my_seq, ReconfigResult::Performed)])]);
    h.send_msg(10);
    assert_eq!(data_of(&mut h), vec![(0, 0)]);
}

#[test]
fn our_incoming_reset_completes_on_the_peers_outgoing_reset() {
    let mut h = established_rc(rc_cfg(), true);
    let my_seq = h.a.initial_tsn().0;
    h.a.request_incoming_reset(h.now, &[1]).unwrap();
    assert_eq!(
        reconfigs(&mut h),
        vec![ReconfigParam::IncomingSsnReset {
            request_seq: my_seq,
            streams: vec![1]
        }]
    );
    h.inject(vec![rc(vec![ReconfigParam::OutgoingSsnReset {
        request_seq: rseq(0),
        response_seq: my_seq,
        last_tsn: REMOTE_TSN - 1,
        streams: vec![1],
    }])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(0), ReconfigResult::Performed)]
    );
    let ev = h.take_events();
    assert!(ev.contains(&SctpEvent::ReconfigResult {
        kind: ReconfigRequestKind::ResetIncoming,
        streams: vec![1],
        result: ReconfigResult::Performed,
    }));
    assert!(!h.a.reconfig_state().unwrap().is_outstanding());
}

#[test]
fn peer_add_streams_requests() {
    let mut h = established_rc(rc_cfg(), true);
    h.inject(vec![rc(vec![
        ReconfigParam::AddOutgoingStreams {
            request_seq: rseq(0),
            new_streams: 5,
        },
        ReconfigParam::AddIncomingStreams {
            request_seq: rseq(1),
            new_streams: 3,
        },
    ])]);
    let mut got = reconfigs(&mut h);
    assert_eq!(
        got.drain(..2).collect::<Vec<_>>(),
        vec![
            resp(rseq(0), ReconfigResult::Performed),
            resp(rseq(1), ReconfigResult::Performed)
        ]
    );
    // §5.2.6: our own Add Outgoing Streams Request follows.
    let my_seq = h.a.initial_tsn().0;
    assert_eq!(
        got,
        vec![ReconfigParam::AddOutgoingStreams {
            request_seq: my_seq,
            new_streams: 3
        }]
    );
    assert_eq!(h.a.status().inbound_streams, h.a.status().inbound_streams);
    h.inject(vec![rdata(0, 14, 0, b"new stream")]);
    h.all();
    assert_eq!(h.a.recv().map(|m| m.stream), Some(14));
    // Beyond 65535 streams: denied.
    h.inject(vec![rc(vec![ReconfigParam::AddOutgoingStreams {
        request_seq: rseq(2),
        new_streams: u16::MAX,
    }])]);
    assert_eq!(
        reconfigs(&mut h),
        vec![resp(rseq(2), ReconfigResult::Denied)]
    );
}

#[test]
fn ssn_tsn_reset_both_ways() {
    // As receiver: our TSN stays, the peer's restarts at cum + 1 + 2^31 (§5.2.4 G1, G2).
    let mut h = established_rc(rc_cfg(), true);
    h.inject(vec![rdata(0, 0, 0, b"x")]);
    h.all();
    h.inject(vec![rc(vec![ReconfigParam::SsnTsnReset {
        request_seq: rseq(0),
    }])]);
    let peer_next = REMOTE_TSN + 1 + (1u32 << 31);
    assert_eq!(
        reconfigs(&mut h),
        vec![ReconfigParam::Response {
            response_seq: rseq(0),
            result: ReconfigResult::Performed,
            next_tsns: Some((h.ltsn(0), peer_next)),
        }]
    );
    h.inject(vec![ChunkRepr::Data(DataChunk {
        tsn: peer_next,
        stream_id: 0,
        ssn: Ssn(0),
        ppid: 0,
        unordered: false,
        beginning: true,
        ending: true,
        immediate: false,
        user_data: b"y".to_vec(),
    })]);
    h.wait(SimDuration::from_millis(500));
    let sacks: Vec<Tsn> = h
        .all_chunks()
        .into_iter()
        .filter_map(|(_, c)| match c {
            ChunkRepr::Sack(s) => Some(s.cum_tsn_ack),
            _ => None,
        })
        .collect();
    assert_eq!(sacks, vec![peer_next]);
    let got: Vec<Vec<u8>> = std::iter::from_fn(|| h.a.recv()).map(|m| m.data).collect();
    assert_eq!(got, vec![b"x".to_vec(), b"y".to_vec()]);

    // As requester: waits for the outstanding data, then restarts at the peer's numbers.
    let mut h = established_rc(rc_cfg(), true);
    h.send_msg(10);
    h.all();
    let my_seq = h.a.initial_tsn().0;
    h.a.reset_ssn_tsn(h.now).unwrap();
    h.send_msg(10);
    assert!(reconfigs(&mut h).is_empty(), "waits for TSN 0's SACK");
    h.inject(vec![h.sack(1, &[], 65_536)]);
    assert_eq!(
        reconfigs(&mut h),
        vec![ReconfigParam::SsnTsnReset {
            request_seq: my_seq
        }]
    );
    h.inject(vec![rc(vec![ReconfigParam::Response {
        response_seq: my_seq,
        result: ReconfigResult::Performed,
        next_tsns: Some((Tsn(77), Tsn(5000))),
    }])]);
    let data: Vec<(Tsn, u16)> = h
        .all_chunks()
        .into_iter()
        .filter_map(|(_, c)| match c {
            ChunkRepr::Data(d) => Some((d.tsn, d.ssn.0)),
            _ => None,
        })
        .collect();
    assert_eq!(data, vec![(Tsn(5000), 0)]);
}

#[test]
fn two_associations_reset_and_add_streams_while_messages_flow() {
    for i_data in [false, true] {
        let cfg = SctpConfig { i_data, ..rc_cfg() };
        let mut p = Pair::simple(cfg, LinkCfg::clean(10), 3);
        p.establish();
        assert!(p.client().reconfig_negotiated());
        let now = p.now;
        for k in 0..5u8 {
            p.client_mut()
                .send(now, vec![k; 3000], 1, false, None, 0)
                .unwrap();
        }
        p.client_mut().reset_streams(now, &[1]).unwrap();
        p.client_mut().add_streams(now, 1, 1).unwrap();
        for k in 5..10u8 {
            p.client_mut()
                .send(now, vec![k; 3000], 1, false, None, 0)
                .unwrap();
        }
        let deadline = p.now + SimDuration::from_secs(30);
        p.run_until(deadline, |p| p.server_rx.len() == 10);
        let got: Vec<u8> = p.server_rx.iter().map(|m| m.data[0]).collect();
        assert_eq!(got, (0..10).collect::<Vec<u8>>(), "i_data={i_data}");
        let c = p.client().status();
        let s = p.server().unwrap().status();
        assert_eq!((c.outbound_streams, s.inbound_streams), (11, 11));
        assert_eq!((s.outbound_streams, c.inbound_streams), (11, 11));
        assert_eq!(p.client().stats().reconfig_performed, 3, "i_data={i_data}");
        // The new stream works both ways.
        let now = p.now;
        p.server_mut()
            .unwrap()
            .send(now, b"back".to_vec(), 10, false, None, 0)
            .unwrap();
        let deadline = p.now + SimDuration::from_secs(5);
        assert!(p.run_until(deadline, |p| !p.client_rx.is_empty()));
        assert_eq!(p.client_rx[0].stream, 10);
    }
}

#[test]
fn several_deferred_resets_wait_for_their_own_last_tsn() {
    // usrsctp takes "In progress" as final and sends its next request at once: both wait.
    let mut h = established_rc(rc_cfg(), true);
    let req = |k: u32, last: u32, sid: u16| {
        rc(vec![ReconfigParam::OutgoingSsnReset {
            request_seq: rseq(k),
            response_seq: h.a.initial_tsn().0.wrapping_sub(1),
            last_tsn: REMOTE_TSN + last,
            streams: vec![sid],
        }])
    };
    let (r0, r1) = (req(0, 1, 1), req(1, 2, 2));
    h.inject(vec![r0]);
    h.inject(vec![r1]);
    assert_eq!(
        reconfigs(&mut h),
        vec![
            resp(rseq(0), ReconfigResult::InProgress),
            resp(rseq(1), ReconfigResult::InProgress)
        ]
    );
    h.inject(vec![rdata(0, 1, 0, b"a"), rdata(1, 1, 1, b"b")]);
    h.all();
    let changed = |h: &mut Harness| {
        h.take_events()
            .into_iter()
            .filter_map(|e| match e {
                SctpEvent::StreamsChanged { streams, .. } => Some(streams),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(changed(&mut h), vec![vec![1]]);
    h.inject(vec![rdata(2, 2, 0, b"c")]);
    h.all();
    assert_eq!(changed(&mut h), vec![vec![2]]);
    // Stream 1 now expects SSN 0 again.
    h.inject(vec![rdata(3, 1, 0, b"d")]);
    h.all();
    let got: Vec<Vec<u8>> = std::iter::from_fn(|| h.a.recv()).map(|m| m.data).collect();
    assert_eq!(
        got,
        vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec(), b"d".to_vec()]
    );
}

#[test]
fn arbitrary_reconfig_chunks_never_panic() {
    // Random requests and responses (sequence numbers near the expected ones, any streams,
    // counts and results) against an established association with data both ways.
    let mut rng = sctpsim_kernel::Rng::from_seed(11);
    for round in 0..40 {
        let mut h = established_rc(rc_cfg(), true);
        let my = h.a.initial_tsn().0;
        let mut k = 0u32;
        for step in 0..60u32 {
            let r = rng.next_u64();
            let near = |base: u32, r: u64| base.wrapping_add((r % 5) as u32).wrapping_sub(2);
            let sids: Vec<u16> = (0..(r % 4)).map(|i| ((r >> (8 * i)) % 14) as u16).collect();
            let p = match (r >> 40) % 7 {
                0 => ReconfigParam::OutgoingSsnReset {
                    request_seq: near(rseq(k), r >> 3),
                    response_seq: near(my, r >> 5),
                    last_tsn: REMOTE_TSN + ((r >> 7) % 6) as u32,
                    streams: sids,
                },
                1 => ReconfigParam::IncomingSsnReset {
                    request_seq: near(rseq(k), r >> 3),
                    streams: sids,
                },
                2 => ReconfigParam::SsnTsnReset {
                    request_seq: near(rseq(k), r >> 3),
                },
                3 => ReconfigParam::Response {
                    response_seq: near(my, r >> 3),
                    result: ReconfigResult::from_code(((r >> 9) % 8) as u32),
                    next_tsns: (r & 1 == 0).then_some((Tsn(r as u32), Tsn((r >> 32) as u32))),
                },
                4 => ReconfigParam::AddOutgoingStreams {
                    request_seq: near(rseq(k), r >> 3),
                    new_streams: (r >> 11) as u16,
                },
                5 => ReconfigParam::AddIncomingStreams {
                    request_seq: near(rseq(k), r >> 3),
                    new_streams: (r >> 11) as u16,
                },
                _ => ReconfigParam::Unknown {
                    kind: (r >> 13) as u16,
                    value: vec![1, 2, 3],
                },
            };
            k += u32::from(r.is_multiple_of(3));
            let now = h.now;
            if h.a.state() == State::Closed {
                break;
            }
            match step % 5 {
                0 => {
                    let _ = h.a.send(now, vec![7; 300], (r % 10) as u16, false, None, 0);
                }
                1 => {
                    let _ = h.a.reset_streams(now, &[(r % 3) as u16]);
                }
                2 => {
                    let _ = h.a.add_streams(now, (r % 2) as u16, (r % 3) as u16);
                }
                _ => {}
            }
            h.inject(vec![rdata(step, (r % 12) as u16, 0, b"x"), rc(vec![p])]);
            if step.is_multiple_of(7) {
                // Acknowledge what was sent so far (the requests wait for it).
                let sent = h.all_data_tsns();
                if let Some(last) = sent.iter().max_by(|a, b| a.0.cmp(&b.0)) {
                    h.inject(vec![sack_chunk(*last, &[], 65_536)]);
                }
            }
            h.wait(SimDuration::from_millis(if round % 2 == 0 {
                10
            } else {
                700
            }));
            h.a.check_invariants();
            while h.a.recv().is_some() {}
        }
    }
}

/// RFC 6525 §3.1 with AUTH (RFC 4895): RE-CONFIG joins our CHUNKS list; an unauthenticated
/// RE-CONFIG is discarded, an authenticated one answered; a peer that lists RE-CONFIG gets
/// ours signed; without AUTH negotiated the extension is not used.
#[test]
fn reconfig_is_authenticated_when_auth_is_on() {
    use crate::transport::sctp::auth::{AuthHmac, AuthParams, AuthState};
    let cfg = SctpConfig {
        auth: true,
        ..rc_cfg()
    };
    let setup = |peer_auth: bool| {
        let (mut h, init) = cookie_wait(cfg.clone(), &[L1], &[R1]);
        let ours = AuthParams::from_params(&init.params).expect("our INIT offers AUTH");
        assert!(ours
            .chunks
            .as_ref()
            .is_some_and(|c| c.contains(&chunk_type::RE_CONFIG)));
        let offer = AuthParams::ours(
            &mut sctpsim_kernel::Rng::from_seed(5),
            vec![chunk_type::RE_CONFIG],
            AuthHmac::Sha1,
        );
        let mut ack = remote_init_ack(&[R1], b"remote-cookie", false, false);
        let mut ext = vec![chunk_type::RE_CONFIG];
        if peer_auth {
            ext.push(chunk_type::AUTH);
            ack.params.extend(offer.to_params());
        }
        ack.params.push(Parameter::SupportedExtensions(ext));
        let tag = h.a.my_vtag();
        h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
        h.next().expect("COOKIE ECHO");
        h.inject(vec![ChunkRepr::CookieAck]);
        h.all();
        h.take_events();
        let remote = AuthState::new(offer, ours);
        (h, remote)
    };
    let (mut h, remote) = setup(false);
    assert!(!h.a.reconfig_negotiated(), "RE-CONFIG only with AUTH");
    assert!(remote.is_some());
    let (mut h2, remote) = setup(true);
    assert!(h2.a.reconfig_negotiated());
    let remote = remote.expect("remote view");
    let req = rc(vec![ReconfigParam::SsnTsnReset {
        request_seq: rseq(0),
    }]);
    h2.inject(vec![req.clone()]);
    assert!(reconfigs(&mut h2).is_empty(), "unauthenticated: discarded");
    assert_eq!(h2.a.stats().auth_unauthenticated_dropped, 1);
    let mut chunks = vec![req];
    assert!(remote.sign(&mut chunks));
    h2.inject(chunks);
    let t = h2.next().expect("the answer");
    assert!(
        matches!(
            t.packet.chunks.as_slice(),
            [ChunkRepr::Auth(_), ChunkRepr::Reconfig(_)]
        ),
        "{:?}",
        t.packet.chunks
    );
    let _ = h.all();
}
