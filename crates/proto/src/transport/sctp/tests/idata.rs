//! I-DATA (RFC 8260 §2) and the stream schedulers (RFC 8260 §3) in the association:
//! negotiation through Supported Extensions, interleaved fragments on the wire, reassembly by
//! stream, U bit and MID, the Protocol Violation of §2.2, and exactly-once in-order delivery
//! between two real associations under loss, duplication and reordering.

use super::pair::{check_delivery, LinkCfg, Pair, Workload};
use super::*;
use crate::transport::sctp::{SchedulerKind, StreamScheduler};
use sctpsim_wire::sctp::{ErrorCause, IDataChunk, Mid};

fn idata_cfg() -> SctpConfig {
    SctpConfig {
        i_data: true,
        ..cfg()
    }
}

/// Established as the initiator against a scripted remote whose INIT ACK lists I-DATA or not.
fn established_idata(cfg: SctpConfig, remote_i_data: bool) -> Harness {
    established_idata_ext(cfg, remote_i_data, false)
}

/// [`established_idata`], the remote also listing I-FORWARD-TSN when `remote_i_fwd`.
fn established_idata_ext(cfg: SctpConfig, remote_i_data: bool, remote_i_fwd: bool) -> Harness {
    let ours = [
        (chunk_type::I_DATA, cfg.i_data),
        (chunk_type::I_FORWARD_TSN, cfg.i_data && cfg.pr_sctp),
    ];
    let remote: Vec<u8> = [
        (remote_i_data, chunk_type::I_DATA),
        (remote_i_fwd, chunk_type::I_FORWARD_TSN),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, t)| *t)
    .collect();
    established_ext(cfg, &ours, &remote)
}

/// An I-DATA fragment from the remote with TSN `REMOTE_TSN + k`.
fn ridata(k: u32, stream: u16, mid: u32, fsn: u32, b: bool, e: bool, payload: &[u8]) -> ChunkRepr {
    ChunkRepr::IData(IDataChunk {
        tsn: REMOTE_TSN + k,
        stream_id: stream,
        mid: Mid(mid),
        ppid_or_fsn: if b { 77 } else { fsn },
        unordered: false,
        beginning: b,
        ending: e,
        immediate: false,
        user_data: payload.to_vec(),
    })
}

fn abort_causes(h: &mut Harness) -> Vec<ErrorCause> {
    h.all()
        .into_iter()
        .flat_map(|t| t.packet.chunks)
        .flat_map(|c| match c {
            ChunkRepr::Abort { causes, .. } => causes,
            _ => vec![],
        })
        .collect()
}

#[test]
fn negotiated_only_when_both_sides_list_it() {
    let h = established_idata(idata_cfg(), true);
    assert!(h.a.i_data_negotiated());
    // RFC 8260 §2.3.1: PR-SCTP with I-DATA needs I-FORWARD-TSN on both sides; this remote
    // does not list it.
    assert!(!h.a.pr_sctp_negotiated());
    let h = established_idata(idata_cfg(), false);
    assert!(!h.a.i_data_negotiated());
    assert!(h.a.pr_sctp_negotiated());
    let h = established_idata(cfg(), true);
    assert!(!h.a.i_data_negotiated());
}

/// RFC 8260 §2.3.1 with RFC 3758: a lost I-DATA message whose lifetime ended is abandoned and
/// skipped by an I-FORWARD-TSN naming its stream and MID; a FORWARD TSN is never sent.
#[test]
fn pr_sctp_with_i_data_abandons_by_i_forward_tsn() {
    // First come, first served: the TSNs follow the order of the sends.
    let mut cfg = idata_cfg();
    cfg.scheduler.kind = SchedulerKind::Fcfs;
    let mut h = established_idata_ext(cfg, true, true);
    assert!(h.a.i_data_negotiated() && h.a.pr_sctp_negotiated());
    let life = Some(SimDuration::from_millis(800));
    let now = h.now;
    h.a.send(now, vec![1; 2000], 1, false, life, 0).unwrap();
    h.a.send(now, vec![3; 100], 2, true, life, 0).unwrap();
    h.a.send(now, vec![2; 100], 1, false, None, 0).unwrap();
    h.all();
    // The peer got only the last message (TSN 3): the first (TSNs 0, 1) and the unordered one
    // on stream 2 (TSN 2) are lost.
    send!(h, at ms(100), [h.sack(0, &[(4, 4)], 65_536)]);
    h.at(ms(1000));
    let chunks: Vec<ChunkRepr> = h.all().into_iter().flat_map(|t| t.packet.chunks).collect();
    assert!(!chunks.iter().any(|c| matches!(c, ChunkRepr::ForwardTsn(_))));
    let fwd = chunks
        .iter()
        .find_map(|c| match c {
            ChunkRepr::IForwardTsn(f) => Some(f.clone()),
            _ => None,
        })
        .expect("an I-FORWARD-TSN");
    assert_eq!(fwd.new_cum_tsn, h.ltsn(2));
    assert_eq!(
        fwd.streams,
        vec![
            sctpsim_wire::sctp::IForwardTsnStream {
                stream_id: 1,
                unordered: false,
                mid: Mid(0),
            },
            sctpsim_wire::sctp::IForwardTsnStream {
                stream_id: 2,
                unordered: true,
                mid: Mid(0),
            },
        ]
    );
    assert_eq!(h.a.stats().messages_abandoned, 2);
}

/// The receiving side: an I-FORWARD-TSN past a lost ordered message (MID 0) delivers the one
/// waiting behind it (MID 1), and drops the fragment held of the skipped one.
#[test]
fn receiver_skips_by_mid_on_i_forward_tsn() {
    let mut h = established_idata_ext(idata_cfg(), true, true);
    // MID 0 in two fragments (TSNs 0, 1), of which only the second arrives; MID 1 (TSN 2).
    send!(h, [ridata(1, 1, 0, 1, false, true, b"tail")]);
    send!(h, [ridata(2, 1, 1, 0, true, true, b"next")]);
    assert!(h.a.recv().is_none(), "MID 1 waits for MID 0");
    send!(
        h,
        [ChunkRepr::IForwardTsn(
            sctpsim_wire::sctp::IForwardTsnChunk {
                new_cum_tsn: REMOTE_TSN + 1,
                streams: vec![sctpsim_wire::sctp::IForwardTsnStream {
                    stream_id: 1,
                    unordered: false,
                    mid: Mid(0),
                }],
            }
        )]
    );
    let m = h.a.recv().expect("MID 1 delivered");
    assert_eq!(m.data, b"next");
    assert!(h.a.recv().is_none());
    // Everything up to TSN 2 is acknowledged.
    let sack = h
        .all_chunks()
        .into_iter()
        .filter_map(|(_, c)| match c {
            ChunkRepr::Sack(s) => Some(s),
            _ => None,
        })
        .next_back()
        .expect("a SACK");
    assert_eq!(sack.cum_tsn_ack, REMOTE_TSN + 2);
}

/// Two real endpoints with I-DATA and PR-SCTP on a lossy link, messages with short lifetimes:
/// every message arrives at most once, each ordered stream in MID order, the abandoned ones
/// are skipped by I-FORWARD-TSN (never FORWARD TSN), and the association shuts down cleanly.
#[test]
fn property_i_data_with_pr_sctp_never_stalls() {
    for seed in 0..30u64 {
        let mut r = Rng::from_seed(seed ^ 0xf0f0);
        let link = LinkCfg {
            latency: SimDuration::from_millis(5 + r.below(40)),
            rate_bps: 2_000_000,
            loss: 0.02 + r.uniform() * 0.1,
            duplicate: 0.0,
            reorder: r.uniform() * 0.05,
            reorder_delay: SimDuration::from_millis(r.below(20)),
        };
        let mut cfg = SctpConfig::rfc9260();
        cfg.i_data = true;
        cfg.outbound_streams = 3;
        let mut p = Pair::simple(cfg, link.clone(), seed);
        p.establish();
        assert!(p.client().i_data_negotiated() && p.client().pr_sctp_negotiated());
        let n = 200usize;
        let mut sent = 0usize;
        let mut shut = false;
        let finished = p.run_until(ms(3_600_000), |p| {
            let now = p.now;
            while sent < n {
                let stream = (sent % 3) as u16;
                let life = Some(SimDuration::from_millis(100 + r.below(400)));
                let len = 200 + r.below(3000) as usize;
                let mut data = vec![0u8; len];
                data[..4].copy_from_slice(&(sent as u32).to_be_bytes());
                match p
                    .client_mut()
                    .send(now, data, stream, sent.is_multiple_of(7), life, 0)
                {
                    Ok(_) => sent += 1,
                    Err(_) => break,
                }
            }
            if sent == n && !shut && p.client().status().unacked_chunks == 0 {
                shut = true;
                p.client_mut().shutdown(now);
            }
            p.client().is_closed() && p.server().is_some_and(|s| s.is_closed())
        });
        assert!(
            finished,
            "seed {seed}: did not finish ({link:?}): sent {sent}, delivered {}, client {:?} {:?}, server {:?}",
            p.server_rx.len(),
            p.client().status(),
            p.client().stats(),
            p.server().map(|s| s.status())
        );
        let ids: Vec<(u16, bool, u32)> = p
            .server_rx
            .iter()
            .map(|m| {
                let id = u32::from_be_bytes([m.data[0], m.data[1], m.data[2], m.data[3]]);
                (m.stream, m.unordered, id)
            })
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for (_, _, id) in &ids {
            assert!(seen.insert(*id), "seed {seed}: message {id} twice");
        }
        for s in 0..3u16 {
            let ordered: Vec<u32> = ids
                .iter()
                .filter(|(st, u, _)| *st == s && !*u)
                .map(|(_, _, id)| *id)
                .collect();
            assert!(
                ordered.windows(2).all(|w| w[0] < w[1]),
                "seed {seed}: stream {s} {ordered:?}"
            );
        }
        let st = p.client().stats();
        assert_eq!(
            st.messages_abandoned + p.server_rx.len() as u64,
            n as u64,
            "seed {seed}: every message delivered or abandoned"
        );
        let chunks = p
            .client_log
            .iter()
            .flat_map(|(_, s)| s.packet.chunks.iter());
        let (mut ifwd, mut fwd) = (0, 0);
        for c in chunks {
            match c {
                ChunkRepr::IForwardTsn(_) => ifwd += 1,
                ChunkRepr::ForwardTsn(_) => fwd += 1,
                _ => {}
            }
        }
        assert_eq!(fwd, 0);
        // Messages abandoned after they got TSNs need a skip; those that expired in the queue
        // do not.
        let abandoned_sent = p
            .client_events
            .iter()
            .filter(|(_, e)| matches!(e, SctpEvent::SendFailed { unsent: false, .. }))
            .count();
        if abandoned_sent > 0 {
            assert!(
                ifwd > 0,
                "seed {seed}: {abandoned_sent} abandoned after sending"
            );
        }
    }
}

#[test]
fn the_responder_learns_the_initiators_offer_through_the_cookie() {
    for (client, server, expect) in [
        (true, true, true),
        (true, false, false),
        (false, true, false),
    ] {
        let c = SctpConfig {
            i_data: client,
            ..SctpConfig::rfc9260()
        };
        let s = SctpConfig {
            i_data: server,
            ..SctpConfig::rfc9260()
        };
        let mut p = Pair::new(
            c,
            s,
            &[pair::C1],
            &[pair::S1],
            &[pair::S1],
            &[LinkCfg::clean(5)],
            1,
        );
        p.establish();
        assert_eq!(p.client().i_data_negotiated(), expect);
        assert_eq!(p.server().unwrap().i_data_negotiated(), expect);
    }
}

#[test]
fn sends_i_data_with_mid_and_fsn_and_no_data() {
    let mut h = established_idata(idata_cfg(), true);
    let now = h.now;
    h.a.send(now, vec![1; 3000], 1, false, None, 42).unwrap();
    h.a.send(now, vec![2; 10], 1, false, None, 43).unwrap();
    h.a.send(now, vec![3; 10], 1, true, None, 44).unwrap();
    let chunks: Vec<ChunkRepr> = h.all_chunks().into_iter().map(|(_, c)| c).collect();
    assert!(chunks.iter().all(|c| !matches!(c, ChunkRepr::Data(_))));
    let idata: Vec<&IDataChunk> = chunks
        .iter()
        .filter_map(|c| match c {
            ChunkRepr::IData(d) => Some(d),
            _ => None,
        })
        .collect();
    let got: Vec<(u32, u32, Option<u32>, bool, bool, bool)> = idata
        .iter()
        .map(|d| {
            (
                d.mid.0,
                d.fsn(),
                d.ppid(),
                d.unordered,
                d.beginning,
                d.ending,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 0, Some(42), false, true, false),
            (0, 1, None, false, false, false),
            (0, 2, None, false, false, true),
            (1, 0, Some(43), false, true, true),
            (0, 0, Some(44), true, true, true),
        ]
    );
    // TSNs stay consecutive (SACK and retransmission are TSN-based as before).
    for (i, d) in idata.iter().enumerate() {
        assert_eq!(d.tsn, h.ltsn(i as u32));
    }
    // The I-DATA header is 4 bytes longer: full fragments are 4 bytes shorter than DATA's.
    let mut plain = established();
    plain.send_msg(3000);
    let data = plain.all_chunks();
    let ChunkRepr::Data(d) = &data[0].1 else {
        panic!("DATA expected")
    };
    assert_eq!(idata[0].user_data.len() + 4, d.user_data.len());
}

#[test]
fn interleaved_fragments_are_reassembled_by_mid_and_fsn() {
    let mut h = established_idata(idata_cfg(), true);
    // Stream 0 message MID 0 in three fragments, stream 1 messages MID 0 and 1 (each whole),
    // interleaved on the wire and partly out of order.
    send!(
        h,
        [
            ridata(0, 0, 0, 0, true, false, b"aa"),
            ridata(1, 1, 0, 0, true, true, b"x"),
            ridata(3, 0, 0, 2, false, true, b"cc"),
        ]
    );
    // Stream 1's message is delivered although stream 0's is incomplete.
    let m = h.a.recv().expect("stream 1's message");
    assert_eq!((m.stream, m.ppid, &m.data[..]), (1, 77, &b"x"[..]));
    assert!(h.a.recv().is_none());
    // Stream 1 MID 2 before MID 1: held for order.
    send!(h, [ridata(4, 1, 2, 0, true, true, b"z")]);
    assert!(h.a.recv().is_none());
    send!(
        h,
        [
            ridata(2, 0, 0, 1, false, false, b"bb"),
            ridata(5, 1, 1, 0, true, true, b"y")
        ]
    );
    let got: Vec<(u16, Vec<u8>)> = std::iter::from_fn(|| h.a.recv())
        .map(|m| (m.stream, m.data))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, b"aabbcc".to_vec()),
            (1, b"y".to_vec()),
            (1, b"z".to_vec())
        ]
    );
    // All six TSNs acknowledged cumulatively.
    h.wait(SimDuration::from_millis(500));
    let sacks: Vec<Tsn> = h
        .all_chunks()
        .into_iter()
        .filter_map(|(_, c)| match c {
            ChunkRepr::Sack(s) => Some(s.cum_tsn_ack),
            _ => None,
        })
        .collect();
    assert_eq!(sacks.last(), Some(&(REMOTE_TSN + 5)));
}

#[test]
fn data_on_an_i_data_association_is_a_protocol_violation() {
    // RFC 8260 §2.2.
    let mut h = established_idata(idata_cfg(), true);
    send!(h, [rdata(0, 0, 0, b"plain")]);
    assert_eq!(h.a.state(), State::Closed);
    let causes = abort_causes(&mut h);
    assert!(
        matches!(&causes[..], [ErrorCause::ProtocolViolation { info }] if info.starts_with(b"DATA")),
        "{causes:?}"
    );
}

#[test]
fn i_data_without_negotiation_is_a_protocol_violation_for_an_i_data_endpoint() {
    let mut h = established_idata(idata_cfg(), false);
    send!(h, [ridata(0, 0, 0, 0, true, true, b"x")]);
    assert_eq!(h.a.state(), State::Closed);
    let causes = abort_causes(&mut h);
    assert!(
        matches!(&causes[..], [ErrorCause::ProtocolViolation { info }] if info.starts_with(b"I-DATA")),
        "{causes:?}"
    );
    // An endpoint without I-DATA support treats it as an unrecognized chunk (upper bits 01:
    // stop processing and report), as before.
    let mut h = established_idata(cfg(), true);
    send!(
        h,
        [ridata(0, 0, 0, 0, true, true, b"x"), rdata(0, 0, 0, b"y")]
    );
    assert_eq!(h.a.state(), State::Established);
    assert_eq!(h.a.readable(), 0);
}

#[test]
fn round_robin_with_i_data_removes_head_of_line_blocking() {
    // A 30 000-byte message on stream 0, then a 100-byte message on stream 1, over a 1 Mbit/s
    // path: with I-DATA the small message goes second on the wire and arrives long before the
    // large one; with DATA it waits for all of the large one.
    let mut arrival = Vec::new();
    for i_data in [false, true] {
        let cfg = SctpConfig {
            i_data,
            ..SctpConfig::rfc9260()
        };
        let link = LinkCfg {
            rate_bps: 1_000_000,
            ..LinkCfg::clean(10)
        };
        let mut p = Pair::simple(cfg, link, 3);
        p.establish();
        let now = p.now;
        p.client_mut()
            .send(now, vec![1; 30_000], 0, false, None, 0)
            .unwrap();
        p.client_mut()
            .send(now, vec![2; 100], 1, false, None, 0)
            .unwrap();
        let start = p.now;
        let mut at = [None, None];
        let done = p.run_until(ms(60_000), |p| {
            for m in &p.server_rx {
                let slot = &mut at[usize::from(m.stream)];
                slot.get_or_insert(p.now);
            }
            at.iter().all(|t| t.is_some())
        });
        assert!(done);
        let small = at[1].unwrap() - start;
        let large = at[0].unwrap() - start;
        arrival.push((small, large));
        let order: Vec<u16> = p.server_rx.iter().map(|m| m.stream).collect();
        if i_data {
            assert_eq!(order, vec![1, 0]);
            let wire: Vec<u16> = p
                .client_log
                .iter()
                .flat_map(|(_, s)| s.packet.chunks.iter())
                .filter_map(|c| match c {
                    ChunkRepr::IData(d) => Some(d.stream_id),
                    ChunkRepr::Data(_) => panic!("DATA on an I-DATA association"),
                    _ => None,
                })
                .collect();
            assert_eq!(wire[..2], [0, 1], "stream 1 goes second on the wire");
        } else {
            assert_eq!(order, vec![0, 1]);
        }
    }
    let (data_small, data_large) = arrival[0];
    let (idata_small, idata_large) = arrival[1];
    assert!(
        idata_small.as_secs_f64() * 5.0 < data_small.as_secs_f64(),
        "small message: {idata_small:?} with I-DATA, {data_small:?} with DATA"
    );
    assert!(
        data_small >= data_large,
        "DATA: the small message waits for the large one"
    );
    assert!(idata_large.as_secs_f64() < data_large.as_secs_f64() * 1.1);
}

/// Two real associations with I-DATA and a random scheduler, random impairments, random
/// messages both ways on 4 streams: every message exactly once, in order per ordered stream,
/// and no DATA chunk on the wire.
#[test]
fn property_i_data_delivers_exactly_once_in_order() {
    let kinds = [
        SchedulerKind::Fcfs,
        SchedulerKind::RoundRobin,
        SchedulerKind::RoundRobinPacket,
        SchedulerKind::Priority,
        SchedulerKind::FairCapacity,
        SchedulerKind::WeightedFair,
    ];
    for seed in 0..60u64 {
        let mut r = Rng::from_seed(seed ^ 0x1da7a);
        let link = LinkCfg {
            latency: SimDuration::from_millis(1 + r.below(50)),
            rate_bps: [0, 1_000_000, 10_000_000][r.below(3) as usize],
            loss: r.uniform() * 0.1,
            duplicate: r.uniform() * 0.05,
            reorder: r.uniform() * 0.1,
            reorder_delay: SimDuration::from_millis(r.below(30)),
        };
        let mut cfg = SctpConfig::rfc9260();
        cfg.i_data = true;
        cfg.outbound_streams = 4;
        cfg.send_buffer = 64 * 1024;
        cfg.recv_buffer = [16 * 1024, 64 * 1024][r.below(2) as usize];
        cfg.scheduler = StreamScheduler {
            kind: kinds[(seed % 6) as usize],
            priorities: vec![3, 0, 1, 0],
            weights: vec![1, 4, 2, 1],
        };
        let mut p = Pair::simple(cfg, link.clone(), seed);
        p.establish();
        assert!(p.client().i_data_negotiated());
        let (n_up, n_down) = (20 + r.below(60) as usize, r.below(30) as usize);
        let mut up = Workload::random(&mut r, n_up, 4);
        let mut down = Workload::random(&mut r, n_down, 4);
        let mut shut = false;
        let finished = p.run_until(ms(3_600_000), |p| {
            let now = p.now;
            up.pump(0, p.client_mut(), now);
            if let Some(s) = p.server_mut() {
                if s.state() == State::Established {
                    down.pump(1, s, now);
                }
            }
            if up.done() && down.done() && !shut {
                shut = true;
                p.client_mut().shutdown(now);
            }
            p.client().is_closed() && p.server().is_some_and(|s| s.is_closed())
        });
        assert!(finished, "seed {seed}: did not finish ({link:?})");
        assert!(
            p.client_events
                .iter()
                .any(|(_, e)| *e == SctpEvent::ShutdownComplete),
            "seed {seed} ({:?}): client {:?}, server {:?}",
            kinds[(seed % 6) as usize],
            p.client_events,
            p.server_events
        );
        check_delivery(0, &up, &p.server_rx);
        check_delivery(1, &down, &p.client_rx);
        assert!(p
            .client_log
            .iter()
            .flat_map(|(_, s)| s.packet.chunks.iter())
            .all(|c| !matches!(c, ChunkRepr::Data(_))));
    }
}

#[test]
fn a_truncated_i_data_chunk_is_answered_by_support() {
    use super::invalid::{inject_bytes, raw_chunk};
    let tsn = REMOTE_TSN.0.to_be_bytes();
    // Length 16: TSN, stream, reserved, MID, no PPID/FSN.
    let short = raw_chunk(
        64,
        3,
        16,
        &[tsn[0], tsn[1], tsn[2], tsn[3], 0, 0, 0, 0, 0, 0, 0, 0],
    );
    // With I-DATA in use: a Protocol Violation, as for a short DATA chunk.
    let mut h = established_idata(idata_cfg(), true);
    inject_bytes(&mut h, &short);
    assert_eq!(h.a.state(), State::Closed);
    let causes = abort_causes(&mut h);
    assert_eq!(
        causes,
        vec![ErrorCause::ProtocolViolation {
            info: b"I-DATA chunk of length 16".to_vec()
        }]
    );
    // Without I-DATA support: an unrecognized chunk type, reported (upper bits 01).
    let mut h = established();
    inject_bytes(&mut h, &short);
    assert_eq!(h.a.state(), State::Established);
    let reported: Vec<ErrorCause> = h
        .all()
        .into_iter()
        .flat_map(|t| t.packet.chunks)
        .flat_map(|c| match c {
            ChunkRepr::Error { causes } => causes,
            _ => vec![],
        })
        .collect();
    assert!(
        matches!(&reported[..], [ErrorCause::UnrecognizedChunkType { chunk }] if chunk[0] == 64),
        "{reported:?}"
    );
}
