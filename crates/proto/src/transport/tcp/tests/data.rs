//! ESTABLISHED data transfer: segmentation, windows, ACK generation (RFC 5681 §4.2), SACK
//! blocks (RFC 2018 §4), timestamps (RFC 7323 §4), zero windows (RFC 9293 §3.8.6).

use super::*;
use crate::transport::tcp::backlog_byte;

#[test]
fn sends_full_segments_within_the_initial_window() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    assert_eq!(conn.cwnd(), 4000);
    assert_eq!(conn.send(&[7u8; 10_000]), 10_000);
    let out = output(&mut conn, ms(100));
    assert_eq!(data_offsets(&out), vec![off(0), off(1), off(2), off(3)]);
    assert!(out
        .iter()
        .all(|(r, p)| p.len() == MSS && r.ack_number == Some(rseq(1))));
    // RFC 6298 §5.1: the timer runs.
    assert_eq!(conn.poll_timeout(), Some(ms(1100)));
    // An ACK of two segments: slow start grows cwnd by min(N, SMSS) = 1000 (RFC 5681 eq. 2).
    input(&mut conn, ms(150), &seg(1, Some(off(2))), &[]);
    assert_eq!(conn.cwnd(), 5000);
    let out = output(&mut conn, ms(150));
    assert_eq!(data_offsets(&out), vec![off(4), off(5), off(6)]);
    assert_eq!(conn.poll_timeout(), Some(ms(1150)));
    assert_eq!(conn.bytes_acked(), 2000);
}

#[test]
fn receiver_window_limits_the_sender() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(
        &mut conn,
        ms(100),
        &TcpRepr {
            window_len: 2500,
            ..seg(1, Some(1))
        },
        &[],
    );
    conn.send(&[1u8; 10_000]);
    let out = output(&mut conn, ms(100));
    // Two full segments; the 500-byte rest waits (sender SWS avoidance).
    assert_eq!(data_offsets(&out), vec![off(0), off(1)]);
}

#[test]
fn nagle_holds_small_segments_while_data_is_unacknowledged() {
    let mut conn = established(TcpConfig {
        nagle: true,
        ..cfg(TcpVariant::NewReno)
    });
    conn.send(b"a");
    assert_eq!(output(&mut conn, ms(100)).len(), 1);
    conn.send(b"bc");
    expect_nothing(&mut conn, ms(101));
    input(&mut conn, ms(150), &seg(1, Some(2)), &[]);
    let out = output(&mut conn, ms(150));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].1, b"bc");
}

#[test]
fn backlogged_source_sends_pattern_bytes() {
    let mut conn = established(cfg(TcpVariant::Reno));
    conn.send_backlogged(None);
    assert_eq!(conn.send(b"ignored"), 0);
    let out = output(&mut conn, ms(100));
    assert_eq!(out.len(), 4);
    let expected: Vec<u8> = (1000..2000).map(backlog_byte).collect();
    assert_eq!(out[1].1, expected);
}

#[test]
fn in_order_data_is_delivered_and_acked() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(&mut conn, ms(200), &seg(1, Some(1)), b"hello ");
    expect_ack(&mut conn, ms(200), 7);
    // The remote sequence numbers wrap inside this segment (they start at 2^32 - 100).
    let big = vec![b'x'; 150];
    input(&mut conn, ms(210), &seg(7, Some(1)), &big);
    expect_ack(&mut conn, ms(210), 157);
    assert!(rseq(157).0 < rseq(7).0, "the test crosses the wrap");
    let mut buf = [0u8; 300];
    assert_eq!(conn.recv_available(), 156);
    assert_eq!(conn.recv(&mut buf), 156);
    assert_eq!(&buf[..6], b"hello ");
    assert_eq!(conn.bytes_received(), 156);
}

#[test]
fn delayed_ack_every_second_segment_or_timer() {
    let mut conn = established(TcpConfig {
        delayed_ack: true,
        ..cfg(TcpVariant::NewReno)
    });
    input(&mut conn, ms(200), &seg(1, Some(1)), &[1u8; MSS]);
    expect_nothing(&mut conn, ms(200));
    // RFC 5681 §4.2: the second full segment is acknowledged at once.
    input(&mut conn, ms(210), &seg(off(1), Some(1)), &[1u8; MSS]);
    expect_ack(&mut conn, ms(210), off(2));
    // A single segment waits for the 200 ms timer.
    input(&mut conn, ms(300), &seg(off(2), Some(1)), &[1u8; MSS]);
    expect_nothing(&mut conn, ms(300));
    assert_eq!(conn.poll_timeout(), Some(ms(500)));
    conn.handle_timeout(ms(499));
    expect_nothing(&mut conn, ms(499));
    conn.handle_timeout(ms(500));
    expect_ack(&mut conn, ms(500), off(3));
    assert_eq!(conn.poll_timeout(), None);
}

#[test]
fn out_of_order_data_is_acked_at_once_with_sack_blocks_most_recent_first() {
    let mut conn = established(TcpConfig {
        delayed_ack: true,
        ..cfg(TcpVariant::Sack)
    });
    assert!(conn.sack_enabled());
    // Segments 1, 3, 5 and 7 arrive; 0, 2, 4, 6 are missing.
    let mut last = None;
    for i in [1u64, 3, 5, 7] {
        input(&mut conn, ms(200 + i), &seg(off(i), Some(1)), &[0u8; MSS]);
        last = Some(expect_ack(&mut conn, ms(200 + i), 1));
    }
    let blocks: Vec<(u32, u32)> = last.unwrap().sack_blocks().collect();
    let block = |i: u64| (rseq(off(i)).0, rseq(off(i + 1)).0);
    // Without timestamps 4 blocks fit; the most recent first (RFC 2018 §4).
    assert_eq!(blocks, vec![block(7), block(5), block(3), block(1)]);
    // A new arrival next to an old block moves the grown block first.
    input(&mut conn, ms(300), &seg(off(2), Some(1)), &[0u8; MSS]);
    let ack = expect_ack(&mut conn, ms(300), 1);
    let first = ack.sack_blocks().next().unwrap();
    assert_eq!(first, (rseq(off(1)).0, rseq(off(4)).0));
    // Filling the first gap acknowledges up to the next hole at once.
    input(&mut conn, ms(310), &seg(1, Some(1)), &[0u8; MSS]);
    let ack = expect_ack(&mut conn, ms(310), off(4));
    assert_eq!(ack.sack_blocks().count(), 2);
    assert_eq!(conn.stats().out_of_order_segments_received, 5);
}

#[test]
fn sack_block_cap_is_configurable() {
    let mut conn = established(TcpConfig {
        max_sack_blocks: Some(2),
        ..cfg(TcpVariant::Sack)
    });
    for i in [1u64, 3, 5] {
        input(&mut conn, ms(200), &seg(off(i), Some(1)), &[0u8; MSS]);
    }
    let ack = expect_ack(&mut conn, ms(200), 1);
    assert_eq!(ack.sack_blocks().count(), 2);
}

#[test]
fn duplicate_data_is_acked_and_counted() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(&mut conn, ms(200), &seg(1, Some(1)), b"abc");
    expect_ack(&mut conn, ms(200), 4);
    input(&mut conn, ms(210), &seg(1, Some(1)), b"abc");
    expect_ack(&mut conn, ms(210), 4);
    assert_eq!(conn.stats().duplicate_segments_received, 1);
    assert_eq!(conn.recv_available(), 3);
}

#[test]
fn timestamps_echo_and_rtt_samples() {
    let mut conn = established(TcpConfig {
        timestamps: true,
        ..cfg(TcpVariant::NewReno)
    });
    assert!(conn.timestamps_enabled());
    conn.send(&[0u8; 100]);
    let out = output(&mut conn, ms(1000));
    let ts = out[0].0.timestamp.unwrap();
    assert_eq!(ts.tsval, 1000);
    // TS.Recent is the peer's tsval of the handshake ACK.
    assert_eq!(ts.tsecr, 2);
    // The ACK echoes our 1000 at 1070: a 70 ms sample.
    let ack = TcpRepr {
        timestamp: Some(TcpTimestamp {
            tsval: 50,
            tsecr: 1000,
        }),
        ..seg(1, Some(101))
    };
    input(&mut conn, ms(1070), &ack, &[]);
    assert_eq!(conn.stats().rtt_samples, 2);
    assert_eq!(conn.stats().rtt_max, Some(SimDuration::from_millis(100)));
    assert_eq!(conn.stats().rtt_min, Some(SimDuration::from_millis(70)));
    // PAWS (RFC 7323 §5.3): an older tsval is answered with an ACK and dropped.
    let old = TcpRepr {
        timestamp: Some(TcpTimestamp {
            tsval: 40,
            tsecr: 1000,
        }),
        ..seg(1, Some(101))
    };
    input(&mut conn, ms(1080), &old, b"zz");
    let ack = expect_ack(&mut conn, ms(1080), 1);
    assert_eq!(ack.timestamp.unwrap().tsecr, 50);
    assert_eq!(conn.recv_available(), 0);
    // A segment without timestamps is dropped silently (RFC 7323 §3.2).
    input(&mut conn, ms(1090), &seg(1, Some(101)), b"zz");
    expect_nothing(&mut conn, ms(1090));
}

#[test]
fn receive_window_closes_and_reopens() {
    let mut conn = established(TcpConfig {
        recv_buffer: 3000,
        ..cfg(TcpVariant::NewReno)
    });
    for i in 0..3 {
        input(&mut conn, ms(200), &seg(off(i), Some(1)), &[1u8; MSS]);
    }
    let ack = expect_ack(&mut conn, ms(200), off(3));
    assert_eq!(ack.window_len, 0);
    // Data beyond a zero window is not accepted.
    input(&mut conn, ms(210), &seg(off(3), Some(1)), &[1u8; MSS]);
    expect_ack(&mut conn, ms(210), off(3));
    // Reading opens the window and announces it (RFC 9293 §3.8.6.2.2).
    let mut buf = [0u8; 2000];
    assert_eq!(conn.recv(&mut buf), 2000);
    let ack = expect_ack(&mut conn, ms(220), off(3));
    assert_eq!(ack.window_len, 2000);
    assert_eq!(conn.discard_received(), 1000);
}

#[test]
fn zero_window_is_probed_by_the_persist_timer() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(
        &mut conn,
        ms(100),
        &TcpRepr {
            window_len: 0,
            ..seg(1, Some(1))
        },
        &[],
    );
    conn.send(b"waiting");
    expect_nothing(&mut conn, ms(100));
    // RTO is 1 s after the 100 ms handshake sample.
    assert_eq!(conn.poll_timeout(), Some(ms(1100)));
    conn.handle_timeout(ms(1100));
    let out = output(&mut conn, ms(1100));
    assert_eq!(out.len(), 1);
    let (probe, payload) = &out[0];
    assert!(payload.is_empty());
    assert_eq!(probe.seq_number, lseq(0), "an old sequence number");
    assert_eq!(conn.stats().window_probes, 1);
    // Backed off: the next probe after 2 s.
    assert_eq!(conn.poll_timeout(), Some(ms(3100)));
    // The window opens: data flows, persist stops.
    input(&mut conn, ms(1200), &seg(1, Some(1)), &[]);
    let out = output(&mut conn, ms(1200));
    assert_eq!(out[0].1, b"waiting");
    assert_eq!(conn.poll_timeout(), Some(ms(2200)));
}

#[test]
fn metric_events_report_changes() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.send(&[0u8; 2000]);
    output(&mut conn, ms(100));
    input(&mut conn, ms(200), &seg(1, Some(off(2))), &[]);
    let evs = metrics(&mut conn);
    assert!(evs.contains(&TcpMetric::SeqChanged {
        snd_una: 1,
        snd_nxt: off(2)
    }));
    assert!(evs.contains(&TcpMetric::CwndChanged {
        cwnd: 5000,
        ssthresh: u32::MAX
    }));
    assert!(evs.iter().any(
        |e| matches!(e, TcpMetric::RttSample { rtt, .. } if *rtt == SimDuration::from_millis(100))
    ));
    let mut quiet = established(TcpConfig {
        metric_events: false,
        ..cfg(TcpVariant::NewReno)
    });
    quiet.send(&[0u8; 2000]);
    output(&mut quiet, ms(100));
    input(&mut quiet, ms(200), &seg(1, Some(off(2))), &[]);
    assert!(metrics(&mut quiet).is_empty());
    assert!(events(&mut quiet).is_empty());
}
