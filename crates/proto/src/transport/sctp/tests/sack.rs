//! SACK generation (RFC 9260 §6.2: delayed SACK, every second packet, immediate on gaps and
//! duplicates; §3.3.4: every gap block, duplicate TSNs, the optional cap) and SACK processing
//! (§6.2.1).

use super::*;
use sctpsim_wire::sctp::ErrorCause;

fn sack_of(t: &Sent) -> SackChunk {
    t.packet
        .chunks
        .iter()
        .find_map(|c| match c {
            ChunkRepr::Sack(s) => Some(s.clone()),
            _ => None,
        })
        .expect("a SACK")
}

#[test]
fn delayed_sack_every_second_packet() {
    let mut h = established();
    // The association's first DATA is acknowledged at once (see the test below); the count
    // of packets starts from that SACK.
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    send!(h, [rdata(1, 0, 1, b"b")]);
    recv!(h, nothing);
    send!(h, [rdata(2, 0, 2, b"c")]);
    recv!(h, [ChunkRepr::Sack(s)] => {
        assert_eq!(s.cum_tsn_ack, REMOTE_TSN + 2);
        assert!(s.gap_blocks.is_empty() && s.duplicate_tsns.is_empty());
    });
    // Several chunks in one packet still count as one packet.
    send!(h, [rdata(3, 0, 3, b"d"), rdata(4, 0, 4, b"e")]);
    recv!(h, nothing);
}

#[test]
fn first_data_is_acknowledged_at_once_then_sacks_are_delayed_again() {
    // Linux (`asoc->peer.sack_needed = 1` at association init) and FreeBSD
    // (`asoc->send_sack = 1`) SACK the first packet of DATA of an association immediately;
    // ETSI TS 102 369 TP A/V/9/1 "First SACK is sent immediately".
    let mut h = established();
    send!(h, at ms(10), [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(s)] => {
        assert_eq!(s.cum_tsn_ack, REMOTE_TSN);
    });
    assert_eq!(
        h.now,
        ms(10),
        "sent without waiting for the delayed-SACK timer"
    );
    // The second packet waits for the timer (or for a third packet) again.
    send!(h, at ms(20), [rdata(1, 0, 1, b"b")]);
    recv!(h, nothing);
    recv!(h, at ms(219), nothing);
    recv!(h, at ms(220), [ChunkRepr::Sack(s)] => {
        assert_eq!(s.cum_tsn_ack, REMOTE_TSN + 1);
    });
    // So does the next packet after that SACK: the rule applies once per association.
    send!(h, at ms(300), [rdata(2, 0, 2, b"c")]);
    recv!(h, nothing);
    recv!(h, at ms(500), [ChunkRepr::Sack(_)]);
}

#[test]
fn delayed_sack_timer_is_200ms_by_default_and_configurable() {
    // The first DATA of each association is acknowledged at once; the delay applies from the
    // second packet on.
    let mut h = established();
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    send!(h, at ms(10), [rdata(1, 0, 1, b"b")]);
    recv!(h, at ms(209), nothing);
    recv!(h, at ms(210), [ChunkRepr::Sack(_)]);
    let mut c = cfg();
    c.sack_delay = SimDuration::from_millis(40);
    let mut h = established_with(c, &[L1], &[R1]);
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    send!(h, [rdata(1, 0, 1, b"b")]);
    recv!(h, at ms(39), nothing);
    recv!(h, at ms(40), [ChunkRepr::Sack(_)]);
    // Switched off: every packet is acknowledged at once.
    let mut h = established();
    h.a.set_delayed_sack(None, 1);
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    send!(h, [rdata(1, 0, 1, b"b")]);
    recv!(h, [ChunkRepr::Sack(_)]);
}

#[test]
fn gaps_are_acknowledged_immediately_with_every_gap_block() {
    let mut h = established();
    send!(h, [rdata(0, 0, 0, b"a")]);
    // The association's first DATA is acknowledged at once.
    recv!(h, [ChunkRepr::Sack(_)]);
    // TSNs 2, 4..5, 7, 9 arrive (1, 3, 6, 8 missing).
    for k in [2, 4, 5, 7, 9] {
        send!(h, [rdata(k, 1, k as u16, b"x")]);
    }
    let all = h.all();
    let last = sack_of(all.last().unwrap());
    assert_eq!(last.cum_tsn_ack, REMOTE_TSN);
    let blocks: Vec<(u16, u16)> = last.gap_blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(blocks, vec![(2, 2), (4, 5), (7, 7), (9, 9)]);
    assert_eq!(all.len(), 5, "one SACK per out-of-order packet");
    // Filling the first hole is acknowledged at once too.
    send!(h, [rdata(1, 1, 1, b"x")]);
    let s = sack_of(&h.next().unwrap());
    assert_eq!(s.cum_tsn_ack, REMOTE_TSN + 2);
    assert_eq!(s.gap_blocks[0].start, 2);
}

#[test]
fn many_gap_blocks_all_reported_unless_capped() {
    let mut h = established();
    for k in (1..200).step_by(2) {
        send!(h, [rdata(k, 0, k as u16, b"x")]);
    }
    let s = sack_of(h.all().last().unwrap());
    assert_eq!(s.gap_blocks.len(), 100);
    let mut c = cfg();
    c.max_gap_blocks = Some(3);
    let mut h = established_with(c, &[L1], &[R1]);
    for k in (1..20).step_by(2) {
        send!(h, [rdata(k, 0, k as u16, b"x")]);
    }
    let s = sack_of(h.all().last().unwrap());
    assert_eq!(s.gap_blocks.len(), 3);
    assert_eq!(s.gap_blocks[0].start, 2);
}

#[test]
fn duplicates_are_reported_and_acknowledged_at_once() {
    let mut h = established();
    send!(h, [rdata(0, 0, 0, b"a"), rdata(1, 0, 1, b"b")]);
    h.wait(SimDuration::from_millis(300));
    h.all();
    send!(h, [rdata(0, 0, 0, b"a")]);
    let s = sack_of(&h.next().unwrap());
    assert_eq!(s.duplicate_tsns, vec![REMOTE_TSN]);
    send!(h, [rdata(1, 0, 1, b"b"), rdata(0, 0, 0, b"a")]);
    let s = sack_of(&h.next().unwrap());
    assert_eq!(s.duplicate_tsns, vec![REMOTE_TSN + 1, REMOTE_TSN]);
    assert_eq!(h.a.stats().duplicate_data_received, 3);
    // Reported once only.
    send!(h, [rdata(2, 0, 2, b"c"), rdata(3, 0, 3, b"d")]);
    h.wait(SimDuration::from_millis(300));
    let s = sack_of(&h.next().unwrap());
    assert!(s.duplicate_tsns.is_empty());
}

#[test]
fn sack_processing_frees_data_and_tracks_the_peer_window() {
    let mut h = established();
    for _ in 0..3 {
        h.send_msg(1000);
    }
    h.all();
    assert_eq!(h.a.status().unacked_chunks, 3);
    send!(h, [h.sack(2, &[], 10_000)]);
    let st = h.a.status();
    assert_eq!(st.unacked_chunks, 1);
    assert_eq!(
        st.peer_rwnd, 9000,
        "a_rwnd minus the 1000 bytes outstanding"
    );
    assert_eq!(h.a.stats().bytes_acked, 2000);
    // An older SACK is ignored (§6.2.1 D i).
    send!(h, [h.sack(1, &[], 50_000)]);
    assert_eq!(h.a.status().peer_rwnd, 9000);
    // A gap-acked chunk leaves the flight but stays in the queue until cumulatively acked.
    send!(h, [h.sack(3, &[], 10_000)]);
    assert_eq!(h.a.status().unacked_chunks, 0);
    assert_eq!(
        h.a.poll_timeout(),
        None,
        "T3-rtx stopped when all is acknowledged"
    );
}

#[test]
fn a_sack_for_tsns_never_sent_aborts() {
    let mut h = established();
    h.send_msg(10);
    h.all();
    send!(h, [h.sack(5, &[], 10_000)]);
    recv!(h, [ChunkRepr::Abort { causes, .. }] => {
        assert!(matches!(causes[0], ErrorCause::ProtocolViolation { .. }));
    });
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn sack_is_piggybacked_on_data() {
    let mut h = established();
    // The association's first DATA is acknowledged at once; the second one's SACK is delayed
    // and rides on our DATA.
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    send!(h, [rdata(1, 0, 1, b"b")]);
    h.send_msg(100);
    recv!(h, [ChunkRepr::Sack(s), ChunkRepr::Data(_)] => {
        assert_eq!(s.cum_tsn_ack, REMOTE_TSN + 1);
    });
    recv!(h, at ms(1), nothing);
    assert!(
        h.a.poll_timeout().is_some_and(|t| t > ms(500)),
        "delayed-SACK timer stopped"
    );
}

#[test]
fn metrics_record_sacks_and_tsns() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    send!(h, at ms(50), [h.sack(1, &[], 65_536)]);
    send!(h, [rdata(1, 0, 1, b"x")]);
    let m: Vec<_> = std::iter::from_fn(|| h.a.poll_metric()).collect();
    use crate::transport::sctp::MetricKind;
    assert!(m.iter().any(|e| matches!(
        e.kind,
        MetricKind::TsnSent {
            retransmission: None,
            ..
        }
    )));
    assert!(m
        .iter()
        .any(|e| e.time == ms(50) && matches!(e.kind, MetricKind::TsnAcked { .. })));
    assert!(m.iter().any(|e| matches!(e.kind, MetricKind::Rtt { .. })));
    assert!(m
        .iter()
        .any(|e| matches!(e.kind, MetricKind::SackSent { gap_blocks: 1, .. })));
    assert!(m.iter().any(|e| matches!(e.kind, MetricKind::Cwnd { .. })));
}
