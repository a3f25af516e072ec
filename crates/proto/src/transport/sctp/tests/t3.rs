//! The T3-rtx timer and the RTO: RFC 9260 §6.3.1 (RTT measurement, Karn), §6.3.2 (R1–R4),
//! §6.3.3 (E1–E3), §7.2.3 (cwnd after a timeout), §8.1 (Association.Max.Retrans).

use super::*;
use crate::transport::sctp::{LossReason, RtxCause};

#[test]
fn t3_expiry_retransmits_one_packet_and_collapses_cwnd() {
    let mut h = established();
    for _ in 0..3 {
        h.send_msg(400);
    }
    recv!(
        h,
        [ChunkRepr::Data(_), ChunkRepr::Data(_), ChunkRepr::Data(_)]
    );
    recv!(h, at ms(999), nothing);
    recv!(h, at ms(1000), [ChunkRepr::Data(a), ChunkRepr::Data(b), ChunkRepr::Data(c)] => {
        assert_eq!((a.tsn, b.tsn, c.tsn), (h.ltsn(0), h.ltsn(1), h.ltsn(2)));
    });
    let p = &h.a.status().paths[0];
    // ssthresh = max(4380/2, 4·1500), cwnd = 1 MTU; RTO doubled.
    assert_eq!((p.cwnd, p.ssthresh), (1500, 6000));
    assert_eq!(p.rto, SimDuration::from_secs(2));
    assert_eq!(h.a.poll_timeout(), Some(ms(3000)));
    let s = h.a.stats();
    assert_eq!((s.t3_timeouts, s.t3_retransmissions), (1, 3));
}

#[test]
fn after_a_timeout_retransmissions_are_limited_by_cwnd() {
    let mut h = established();
    for _ in 0..4 {
        h.send_msg(1452);
    }
    assert_eq!(h.all().len(), 4);
    h.at(ms(1000));
    // One MTU: only the first chunk goes out until a SACK comes back.
    let all = h.all();
    assert_eq!(all.len(), 1);
    assert_eq!(data_chunks(&all[0].packet.chunks)[0].tsn, h.ltsn(0));
    send!(h, at ms(1100), [h.sack(1, &[], 65_536)]);
    // The flightsize before the SACK (1452) was below cwnd (1500), but marked chunks were
    // waiting for room in the window: it was in full use, so cwnd grows by one MTU in slow
    // start and two more go out. (Without waiting data it would not grow: ETSI D/V/8/9.)
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(1), h.ltsn(2)]);
    assert_eq!(h.a.status().paths[0].cwnd, 2952);
}

#[test]
fn t3_restarts_when_the_earliest_outstanding_tsn_is_acked_and_stops_when_all_are() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    h.at(ms(500));
    h.send_msg(100);
    h.all();
    assert_eq!(
        h.a.poll_timeout(),
        Some(ms(1000)),
        "R1: not restarted by the second chunk"
    );
    send!(h, at ms(600), [h.sack(1, &[], 65_536)]);
    // R3: restarted with the current RTO (updated by the 600 ms sample: 600 + 4·300 = 1800).
    assert_eq!(
        h.a.poll_timeout(),
        Some(ms(600) + SimDuration::from_millis(1800))
    );
    send!(h, at ms(700), [h.sack(2, &[], 65_536)]);
    assert_eq!(h.a.poll_timeout(), None, "R2");
}

#[test]
fn rtt_samples_follow_rfc9260_6_3_1_and_karn() {
    let mut h = established();
    h.a.set_rto(
        SimDuration::from_secs(1),
        SimDuration::from_millis(100),
        SimDuration::from_secs(60),
    )
    .unwrap();
    h.send_msg(100);
    h.all();
    send!(h, at ms(200), [h.sack(1, &[], 65_536)]);
    let p = &h.a.status().paths[0];
    assert_eq!(p.srtt, Some(SimDuration::from_millis(200)));
    assert_eq!(p.rto, SimDuration::from_millis(600));
    // A retransmitted chunk gives no sample.
    h.send_msg(100);
    h.all();
    h.at(ms(800));
    assert_eq!(h.all().len(), 1, "retransmission");
    send!(h, at ms(2000), [h.sack(2, &[], 65_536)]);
    assert_eq!(
        h.a.status().paths[0].srtt,
        Some(SimDuration::from_millis(200))
    );
    assert_eq!(h.a.stats().rtt_samples, 1);
}

#[test]
fn association_max_retrans_aborts_and_path_max_retrans_marks_inactive() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    let mut expiries = 0;
    while h.a.state() != State::Closed {
        let t = h.a.poll_timeout().expect("T3 armed");
        h.at(t);
        expiries += 1;
        assert!(expiries < 20);
    }
    // 11 timeouts: the counter exceeds Association.Max.Retrans = 10.
    assert_eq!(expiries, 11);
    let ev = h.take_events();
    assert!(
        ev.contains(&SctpEvent::PathDown { addr: R1 }),
        "Path.Max.Retrans = 5 exceeded"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        SctpEvent::CommLost {
            reason: LossReason::MaxRetransmissions,
            undelivered_messages: 1
        }
    )));
    let last = h.all().pop().unwrap();
    assert!(matches!(last.packet.chunks[0], ChunkRepr::Abort { .. }));
    // RTO backed off to RTO.Max: 1+2+4+8+16+32+60·5 = 363 s.
    assert_eq!(h.now, ms(363_000));
}

#[test]
fn an_acknowledgement_resets_the_error_counters() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    h.at(ms(1000));
    h.at(ms(3000));
    assert_eq!(h.a.status().paths[0].error_count, 2);
    send!(h, at ms(3100), [h.sack(1, &[], 65_536)]);
    assert_eq!(h.a.status().paths[0].error_count, 0);
    assert_eq!(h.a.error_count, 0);
}

#[test]
fn metric_stream_marks_t3_retransmissions() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    h.at(ms(1000));
    use crate::transport::sctp::MetricKind;
    let m: Vec<_> = std::iter::from_fn(|| h.a.poll_metric()).collect();
    assert!(m.iter().any(|e| e.time == ms(1000)
        && matches!(
            e.kind,
            MetricKind::TsnSent {
                retransmission: Some(RtxCause::T3),
                ..
            }
        )));
}
