//! PR-SCTP timed reliability (RFC 3758): lifetimes, abandonment of whole messages,
//! Advanced.Peer.Ack.Point and FORWARD TSN (sender, §3.5), FORWARD TSN (receiver, §3.6), and
//! lifetimes without PR-SCTP (RFC 9260 §11.1 E: only unsent data expires).

use super::*;
use sctpsim_wire::sctp::{ForwardTsnChunk, ForwardTsnStream};

fn lifetime(ms: u64) -> Option<SimDuration> {
    Some(SimDuration::from_millis(ms))
}

#[test]
fn a_message_that_expires_in_the_queue_is_never_sent() {
    let mut h = established();
    // Fill the window (peer rwnd 0 after the first chunk is outstanding).
    send!(h, [h.sack(0, &[], 100)]);
    h.send_msg(100);
    h.all();
    let id =
        h.a.send(h.now, vec![1; 50], 0, false, lifetime(500), 0)
            .unwrap();
    recv!(h, nothing);
    h.at(ms(500));
    let ev = h.take_events();
    assert!(
        ev.contains(&SctpEvent::SendFailed {
            id,
            stream: 0,
            len: 50,
            unsent: true
        }),
        "{ev:?}"
    );
    send!(h, at ms(600), [h.sack(1, &[], 65_536)]);
    recv!(h, nothing);
}

#[test]
fn lost_chunks_whose_lifetime_ended_are_abandoned_with_forward_tsn() {
    let mut h = established();
    // Two fragments of one message on stream 1, then a second ordered message.
    let id =
        h.a.send(h.now, vec![1; 2000], 1, false, lifetime(800), 0)
            .unwrap();
    h.a.send(h.now, vec![2; 100], 1, false, None, 0).unwrap();
    let sent: usize = h
        .all()
        .iter()
        .map(|t| data_chunks(&t.packet.chunks).len())
        .sum();
    assert_eq!(sent, 3);
    // The peer got only TSN 2 (the second message).
    send!(h, at ms(100), [h.sack(0, &[(3, 3)], 65_536)]);
    // T3 at 1 s: the expired message is abandoned instead of retransmitted.
    h.at(ms(1000));
    let chunks: Vec<ChunkRepr> = h.all().into_iter().flat_map(|t| t.packet.chunks).collect();
    assert!(data_chunks(&chunks).is_empty(), "{chunks:?}");
    let fwd = chunks.iter().find_map(|c| match c {
        ChunkRepr::ForwardTsn(f) => Some(f.clone()),
        _ => None,
    });
    assert_eq!(
        fwd,
        Some(ForwardTsnChunk {
            new_cum_tsn: h.ltsn(1),
            streams: vec![ForwardTsnStream {
                stream_id: 1,
                ssn: Ssn(0)
            }]
        })
    );
    assert!(h.take_events().contains(&SctpEvent::SendFailed {
        id,
        stream: 1,
        len: 2000,
        unsent: false
    }));
    // The peer moves its cumulative TSN: everything is acknowledged.
    send!(h, [h.sack(3, &[], 65_536)]);
    assert_eq!(h.a.status().unacked_chunks, 0);
    assert_eq!(h.a.stats().messages_abandoned, 1);
}

#[test]
fn forward_tsn_is_resent_until_acknowledged() {
    let mut h = established();
    h.a.send(h.now, vec![1; 100], 0, false, lifetime(10), 0)
        .unwrap();
    h.all();
    h.at(ms(1000));
    let n = h
        .all_chunks()
        .iter()
        .filter(|(_, c)| matches!(c, ChunkRepr::ForwardTsn(_)))
        .count();
    assert_eq!(n, 1);
    // A SACK that does not reach the Advanced.Peer.Ack.Point triggers another.
    send!(h, [h.sack(0, &[], 65_536)]);
    let n = h
        .all_chunks()
        .iter()
        .filter(|(_, c)| matches!(c, ChunkRepr::ForwardTsn(_)))
        .count();
    assert_eq!(n, 1);
    send!(h, [h.sack(1, &[], 65_536)]);
    assert!(h.all_chunks().is_empty());
}

#[test]
fn forward_tsn_is_resent_when_its_sack_is_lost_with_nothing_in_flight() {
    // Found against usrsctp (seed 552): an expired message is abandoned while everything after
    // it is gap-acknowledged, so nothing is in flight; the FORWARD TSN goes out (C5 arms a
    // T3-rtx for it) and the SACK answering it is lost. The timer must send the FORWARD TSN
    // again (A5) rather than be taken for a stale one, or the peer never moves its cumulative
    // TSN and a SHUTDOWN is never due.
    let mut h = established();
    let id =
        h.a.send(h.now, vec![1; 100], 0, false, lifetime(500), 0)
            .unwrap();
    h.a.send(h.now, vec![2; 100], 1, false, None, 0).unwrap();
    assert_eq!(
        h.all()
            .iter()
            .map(|t| data_chunks(&t.packet.chunks).len())
            .sum::<usize>(),
        2
    );
    // TSN 0 lost, TSN 1 gap-acknowledged: nothing in flight, TSN 0 waits for its T3.
    send!(h, at ms(100), [h.sack(0, &[(2, 2)], 65_536)]);
    // T3 at 1 s: TSN 0 expired, abandoned; a FORWARD TSN to TSN 0.
    h.at(ms(1100));
    let forwards = |h: &mut Harness| {
        h.all_chunks()
            .iter()
            .filter(|(_, c)| matches!(c, ChunkRepr::ForwardTsn(_)))
            .count()
    };
    assert_eq!(forwards(&mut h), 1);
    assert!(h
        .take_events()
        .iter()
        .any(|e| matches!(e, SctpEvent::SendFailed { id: i, .. } if *i == id)));
    // The user shuts down; the peer's SACK for the FORWARD TSN is lost (nothing arrives).
    h.a.shutdown(h.now);
    assert_eq!(h.a.state(), State::ShutdownPending);
    h.at(ms(10_000));
    assert!(forwards(&mut h) >= 1, "the FORWARD TSN was not sent again");
    assert!(h.a.stats().t3_timeouts >= 1);
    // Its SACK arrives this time: everything is acknowledged and the SHUTDOWN goes.
    send!(h, [h.sack(2, &[], 65_536)]);
    assert_eq!(h.a.state(), State::ShutdownSent);
}

#[test]
fn receiver_skips_on_forward_tsn() {
    let mut h = established();
    send!(h, [rdata(0, 0, 0, b"a")]);
    assert_eq!(h.a.recv().unwrap().data, b"a");
    // TSNs 1 and 2 (stream 0, SSN 1) abandoned by the peer; TSN 3 (SSN 2) arrived.
    send!(h, [rdata(3, 0, 2, b"d")]);
    assert!(h.a.recv().is_none());
    h.all();
    send!(
        h,
        [ChunkRepr::ForwardTsn(ForwardTsnChunk {
            new_cum_tsn: REMOTE_TSN + 2,
            streams: vec![ForwardTsnStream {
                stream_id: 0,
                ssn: Ssn(1)
            }]
        })]
    );
    assert_eq!(h.a.recv().unwrap().data, b"d");
    recv!(h, [ChunkRepr::Sack(s)] => { assert_eq!(s.cum_tsn_ack, REMOTE_TSN + 3); });
    // An out-of-date FORWARD TSN is answered with a SACK.
    send!(
        h,
        [ChunkRepr::ForwardTsn(ForwardTsnChunk {
            new_cum_tsn: REMOTE_TSN,
            streams: vec![]
        })]
    );
    recv!(h, [ChunkRepr::Sack(_)]);
}

#[test]
fn without_pr_sctp_only_unsent_data_expires() {
    let c = SctpConfig {
        pr_sctp: false,
        ..cfg()
    };
    let mut h = established_with(c, &[L1], &[R1]);
    assert!(!h.a.pr_sctp_negotiated());
    h.a.send(h.now, vec![1; 100], 0, false, lifetime(10), 0)
        .unwrap();
    h.all();
    // Lost and expired: still retransmitted (no FORWARD TSN without PR-SCTP).
    recv!(h, at ms(1000), [ChunkRepr::Data(_)]);
}
