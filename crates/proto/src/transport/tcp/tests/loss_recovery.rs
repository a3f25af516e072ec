//! Loss detection and recovery: fast retransmit / fast recovery (RFC 5681 §3.2), NewReno
//! partial ACKs (RFC 6582), SACK recovery (RFC 6675), retransmission timeouts (RFC 6298 §5,
//! RFC 5681 §3.1), limited transmit (RFC 3042).

use super::*;

/// Ten segments in flight; returns the connection.
fn flight(variant: TcpVariant) -> TcpConnection {
    established_with_flight(cfg(variant), 10)
}

/// `n` duplicate ACKs of offset `ack`.
fn dup_acks(conn: &mut TcpConnection, now: SimTime, ack: u64, n: usize) {
    for _ in 0..n {
        input(conn, now, &seg(1, Some(ack)), &[]);
    }
}

#[test]
fn third_duplicate_ack_triggers_fast_retransmit() {
    for variant in [TcpVariant::Reno, TcpVariant::NewReno] {
        let mut conn = flight(variant);
        dup_acks(&mut conn, ms(200), 1, 2);
        expect_nothing(&mut conn, ms(200));
        dup_acks(&mut conn, ms(200), 1, 1);
        let out = output(&mut conn, ms(200));
        assert_eq!(data_offsets(&out), vec![off(0)], "{variant:?}");
        assert!(conn.in_recovery());
        // RFC 5681 §3.2: ssthresh = FlightSize / 2, cwnd = ssthresh + 3·SMSS.
        assert_eq!(conn.ssthresh(), 5000);
        assert_eq!(conn.cwnd(), 8000);
        assert_eq!(conn.stats().fast_retransmits, 1);
        assert_eq!(conn.stats().dup_acks_received, 3);
        // Each further duplicate inflates by one SMSS; new data flows once the inflated
        // window exceeds the flight (10 segments).
        dup_acks(&mut conn, ms(201), 1, 3);
        assert_eq!(conn.cwnd(), 11_000);
        let out = output(&mut conn, ms(201));
        assert_eq!(data_offsets(&out), vec![off(10)], "{variant:?}");
    }
}

#[test]
fn duplicate_ack_definition_excludes_data_window_updates_and_no_flight() {
    let mut conn = flight(TcpVariant::NewReno);
    // Carrying data: not a duplicate.
    for i in 0..3u64 {
        input(&mut conn, ms(200), &seg(1 + i, Some(1)), b"x");
    }
    // A window change: not a duplicate.
    for w in [1000u16, 2000, 3000] {
        input(
            &mut conn,
            ms(200),
            &TcpRepr {
                window_len: w,
                ..seg(4, Some(1))
            },
            &[],
        );
    }
    assert!(!conn.in_recovery());
    assert_eq!(conn.stats().dup_acks_received, 0);
}

#[test]
fn reno_exits_on_the_first_partial_ack() {
    let mut conn = flight(TcpVariant::Reno);
    dup_acks(&mut conn, ms(200), 1, 3);
    output(&mut conn, ms(200));
    // Segments 0 and 5 were lost: the retransmission of 0 brings an ACK up to 5.
    input(&mut conn, ms(300), &seg(1, Some(off(5))), &[]);
    assert!(!conn.in_recovery());
    // RFC 5681 §3.2 step 6: cwnd = ssthresh.
    assert_eq!(conn.cwnd(), 5000);
    let out = output(&mut conn, ms(300));
    // No retransmission of segment 5: only new data within cwnd (5 in flight → nothing).
    assert!(!data_offsets(&out).contains(&off(5)));
}

#[test]
fn newreno_retransmits_on_partial_acks_until_the_recovery_point() {
    let mut conn = flight(TcpVariant::NewReno);
    dup_acks(&mut conn, ms(200), 1, 3);
    output(&mut conn, ms(200));
    let rto_deadline = conn.poll_timeout().unwrap();
    // Partial ACK up to segment 5: retransmit it at once, deflate the window.
    input(&mut conn, ms(300), &seg(1, Some(off(5))), &[]);
    assert!(conn.in_recovery());
    let out = output(&mut conn, ms(300));
    assert_eq!(data_offsets(&out)[0], off(5));
    // RFC 6582 §3.2 step 5: cwnd = 8000 - 5000 + 1000.
    assert_eq!(conn.cwnd(), 4000);
    // Impatient (RFC 6582 §4): the first partial ACK restarts the timer ...
    let after_first = conn.poll_timeout().unwrap();
    assert!(after_first > rto_deadline);
    // ... the second does not.
    input(&mut conn, ms(400), &seg(1, Some(off(7))), &[]);
    let out = output(&mut conn, ms(400));
    assert_eq!(data_offsets(&out)[0], off(7));
    assert_eq!(conn.poll_timeout(), Some(after_first));
    // The full ACK ends recovery: cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
    input(&mut conn, ms(500), &seg(1, Some(off(10))), &[]);
    assert!(!conn.in_recovery());
    assert_eq!(conn.ssthresh(), 5000);
    assert!(conn.cwnd() <= 5000);
    assert_eq!(conn.stats().fast_retransmits, 1);
    assert_eq!(conn.stats().retransmissions, 3);
}

#[test]
fn slow_but_steady_restarts_the_timer_on_every_partial_ack() {
    let mut conn = established_with_flight(
        TcpConfig {
            partial_ack_timer: crate::transport::tcp::PartialAckTimer::SlowButSteady,
            ..cfg(TcpVariant::NewReno)
        },
        10,
    );
    dup_acks(&mut conn, ms(200), 1, 3);
    output(&mut conn, ms(200));
    input(&mut conn, ms(300), &seg(1, Some(off(5))), &[]);
    output(&mut conn, ms(300));
    input(&mut conn, ms(400), &seg(1, Some(off(7))), &[]);
    output(&mut conn, ms(400));
    assert_eq!(conn.poll_timeout(), Some(ms(1400)));
}

#[test]
fn newreno_ignores_duplicate_acks_below_recover() {
    let mut conn = flight(TcpVariant::NewReno);
    // A timeout sets recover to the highest offset sent.
    conn.handle_timeout(conn.poll_timeout().unwrap());
    assert_eq!(conn.stats().timeouts, 1);
    output(&mut conn, ms(1100));
    // Duplicate ACKs that do not cover `recover` start no fast retransmit (RFC 6582 §3.2
    // step 1) ...
    input(&mut conn, ms(1200), &seg(1, Some(off(4))), &[]);
    dup_acks(&mut conn, ms(1200), off(4), 3);
    assert!(!conn.in_recovery());
    // ... and neither do ACKs exactly at it (duplicates caused by going back N).
    input(&mut conn, ms(1300), &seg(1, Some(off(10))), &[]);
    conn.send_backlogged(None);
    output(&mut conn, ms(1300));
    dup_acks(&mut conn, ms(1300), off(10), 3);
    assert!(!conn.in_recovery());
    assert_eq!(conn.stats().fast_retransmits, 0);
}

#[test]
fn reno_without_guard_fast_retransmits_again() {
    let mut conn = flight(TcpVariant::Reno);
    dup_acks(&mut conn, ms(200), 1, 3);
    output(&mut conn, ms(200));
    input(&mut conn, ms(300), &seg(1, Some(off(5))), &[]);
    dup_acks(&mut conn, ms(310), off(5), 3);
    assert_eq!(conn.stats().fast_retransmits, 2);
    // With ns-2's bugFix_ the second one is suppressed.
    let mut guarded = established_with_flight(
        TcpConfig {
            reno_recover_guard: true,
            ..cfg(TcpVariant::Reno)
        },
        10,
    );
    dup_acks(&mut guarded, ms(200), 1, 3);
    output(&mut guarded, ms(200));
    input(&mut guarded, ms(300), &seg(1, Some(off(5))), &[]);
    dup_acks(&mut guarded, ms(310), off(5), 3);
    assert_eq!(guarded.stats().fast_retransmits, 1);
}

#[test]
fn sack_recovery_retransmits_every_hole_in_one_round() {
    let mut conn = flight(TcpVariant::Sack);
    assert!(conn.sack_enabled());
    // Segments 0, 2 and 4 are lost; 1, 3, 5..9 arrive.
    input(
        &mut conn,
        ms(200),
        &ack_with_sack(1, &[(off(1), off(2))]),
        &[],
    );
    input(
        &mut conn,
        ms(201),
        &ack_with_sack(1, &[(off(3), off(4)), (off(1), off(2))]),
        &[],
    );
    assert!(!conn.in_recovery());
    // The third SACK: three segments SACKed above segment 0, IsLost(HighACK + 1).
    input(
        &mut conn,
        ms(202),
        &ack_with_sack(1, &[(off(5), off(6)), (off(3), off(4)), (off(1), off(2))]),
        &[],
    );
    assert!(conn.in_recovery());
    // RFC 6675 §5 (4.2): cwnd = ssthresh = FlightSize / 2.
    assert_eq!((conn.cwnd(), conn.ssthresh()), (5000, 5000));
    let out = output(&mut conn, ms(202));
    assert_eq!(data_offsets(&out)[0], off(0));
    // More SACKs: segments 6..9 arrive; pipe falls and NextSeg picks holes 2 and 4 (rule 1)
    // before new data.
    input(
        &mut conn,
        ms(210),
        &ack_with_sack(1, &[(off(5), off(10)), (off(3), off(4)), (off(1), off(2))]),
        &[],
    );
    let sent = data_offsets(&output(&mut conn, ms(210)));
    assert_eq!(&sent[..2], &[off(2), off(4)]);
    // The holes are filled: the cumulative ACK covers everything and recovery ends.
    input(&mut conn, ms(300), &seg(1, Some(off(10))), &[]);
    assert!(!conn.in_recovery());
    assert_eq!(conn.stats().fast_retransmits, 1);
}

#[test]
fn sack_blocks_outside_the_flight_are_ignored() {
    let mut conn = flight(TcpVariant::Sack);
    let garbage = ack_with_sack(1, &[(off(20), off(30)), (0, 5), (off(3), off(2))]);
    for _ in 0..5 {
        input(&mut conn, ms(200), &garbage, &[]);
    }
    assert!(!conn.in_recovery());
    assert_eq!(conn.stats().dup_acks_received, 0);
}

#[test]
fn retransmission_timeout_collapses_the_window_and_goes_back_n() {
    let mut conn = flight(TcpVariant::NewReno);
    assert_eq!(conn.poll_timeout(), Some(ms(1100)));
    conn.handle_timeout(ms(1100));
    // RFC 5681 §3.1: ssthresh = FlightSize / 2, cwnd = 1 SMSS; RFC 6298 §5.5: RTO doubles.
    assert_eq!((conn.ssthresh(), conn.cwnd()), (5000, 1000));
    assert_eq!(conn.rto(), SimDuration::from_secs(2));
    assert_eq!(conn.poll_timeout(), Some(ms(3100)));
    let out = output(&mut conn, ms(1100));
    assert_eq!(data_offsets(&out), vec![off(0)]);
    // A second timeout of the same segment does not halve ssthresh again (RFC 5681 §3.1).
    conn.handle_timeout(ms(3100));
    assert_eq!(conn.ssthresh(), 5000);
    assert_eq!(conn.rto(), SimDuration::from_secs(4));
    assert_eq!(conn.stats().timeouts, 2);
    assert_eq!(data_offsets(&output(&mut conn, ms(3100))), vec![off(0)]);
    // Karn: the ACK of the retransmission gives no RTT sample, and keeps the back-off.
    input(&mut conn, ms(3200), &seg(1, Some(off(1))), &[]);
    assert_eq!(conn.stats().rtt_samples, 1);
    assert_eq!(conn.rto(), SimDuration::from_secs(4));
    // Slow start resends the next two segments.
    let out = output(&mut conn, ms(3200));
    assert_eq!(data_offsets(&out), vec![off(1), off(2)]);
    // New data sent after the go-back-N phase is timed again; its sample clears the
    // back-off (RFC 6298 §5.7 / Karn).
    input(&mut conn, ms(3300), &seg(1, Some(off(10))), &[]);
    let out = output(&mut conn, ms(3300));
    assert!(data_offsets(&out).contains(&off(10)));
    input(&mut conn, ms(3350), &seg(1, Some(off(11))), &[]);
    assert_eq!(conn.stats().rtt_samples, 2);
    assert_eq!(conn.rto(), SimDuration::from_secs(1));
}

#[test]
fn timeout_during_sack_recovery_skips_sacked_segments() {
    let mut conn = flight(TcpVariant::Sack);
    for n in 1..=3u64 {
        let blocks: Vec<(u64, u64)> = (0..n).map(|i| (off(2 * i + 1), off(2 * i + 2))).collect();
        input(&mut conn, ms(200), &ack_with_sack(1, &blocks), &[]);
    }
    assert!(conn.in_recovery());
    output(&mut conn, ms(200));
    conn.handle_timeout(conn.poll_timeout().unwrap());
    assert!(!conn.in_recovery());
    // cwnd = 1 SMSS: the first segment; then, with more window, 2 and 4, never 1 or 3.
    let out = output(&mut conn, ms(1300));
    assert_eq!(data_offsets(&out), vec![off(0)]);
    input(
        &mut conn,
        ms(1400),
        &ack_with_sack(off(2), &[(off(3), off(4)), (off(5), off(6))]),
        &[],
    );
    let out = output(&mut conn, ms(1400));
    assert_eq!(data_offsets(&out), vec![off(2), off(4)]);
}

#[test]
fn gives_up_after_max_retransmissions() {
    let mut conn = established_with_flight(
        TcpConfig {
            max_retransmissions: Some(3),
            ..cfg(TcpVariant::NewReno)
        },
        2,
    );
    for _ in 0..4 {
        let t = conn.poll_timeout().unwrap();
        conn.handle_timeout(t);
        output(&mut conn, t);
    }
    assert_eq!(conn.state(), State::Closed);
    assert!(conn_events(&mut conn).contains(&TcpEvent::TimedOut));
}

#[test]
fn limited_transmit_sends_new_data_on_the_first_two_duplicates() {
    let mut conn = established_with_flight(
        TcpConfig {
            limited_transmit: true,
            ..cfg(TcpVariant::NewReno)
        },
        4,
    );
    dup_acks(&mut conn, ms(200), 1, 1);
    assert_eq!(data_offsets(&output(&mut conn, ms(200))), vec![off(4)]);
    dup_acks(&mut conn, ms(201), 1, 1);
    assert_eq!(data_offsets(&output(&mut conn, ms(201))), vec![off(5)]);
    // cwnd is unchanged by limited transmit (RFC 3042 §2).
    assert_eq!(conn.cwnd(), 4000);
    dup_acks(&mut conn, ms(202), 1, 1);
    assert!(conn.in_recovery());
    // The two limited-transmit segments are not part of FlightSize: 4 segments / 2.
    assert_eq!(conn.ssthresh(), 2000);
}

#[test]
fn rtt_samples_follow_karn() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.send(&[0u8; 3000]);
    output(&mut conn, ms(100));
    // One segment timed at a time: the ACK of all three gives one 50 ms sample.
    input(&mut conn, ms(150), &seg(1, Some(off(3))), &[]);
    assert_eq!(conn.stats().rtt_samples, 2);
    assert_eq!(conn.stats().rtt_min, Some(SimDuration::from_millis(50)));
}

#[test]
fn tahoe_goes_back_to_snd_una_in_slow_start_on_the_third_duplicate() {
    let mut conn = flight(TcpVariant::Tahoe);
    let rto_before = conn.rto();
    dup_acks(&mut conn, ms(200), 1, 3);
    // ns-2 `tahoe_action`: ssthresh = half the flight, cwnd = one segment, no fast recovery.
    assert!(!conn.in_recovery());
    assert_eq!(conn.ssthresh(), 5000);
    assert_eq!(conn.cwnd(), 1000);
    assert_eq!(conn.stats().fast_retransmits, 1);
    assert_eq!(conn.stats().timeouts, 0);
    // The timer restarts without back-off.
    assert_eq!(conn.rto(), rto_before);
    let out = output(&mut conn, ms(200));
    assert_eq!(data_offsets(&out), vec![off(0)]);
    // Further duplicates (below `recover`) neither retransmit nor inflate.
    dup_acks(&mut conn, ms(201), 1, 5);
    assert!(data_offsets(&output(&mut conn, ms(201))).is_empty());
    assert_eq!(conn.stats().fast_retransmits, 1);
    // The retransmission fills the hole up to 5: slow start sends the next two segments
    // from 5 (go-back-N resends segments the receiver may already hold).
    input(&mut conn, ms(300), &seg(1, Some(off(5))), &[]);
    assert_eq!(conn.cwnd(), 2000);
    assert_eq!(
        data_offsets(&output(&mut conn, ms(300))),
        vec![off(5), off(6)]
    );
}

// ------------------------------------------------------------------ ns-2 Agent/TCP/Sack1

/// Ten segments in flight for `Sack1` with ns-2's arithmetic checked by hand: SACK blocks
/// report segments 1, 2, 3 (segment 0 lost).
#[test]
fn sack1_pipe_counts_acks_from_outstanding_minus_dupthresh() {
    let mut conn = flight(TcpVariant::Sack1);
    assert!(conn.sack_enabled());
    for i in 1..=3u64 {
        input(
            &mut conn,
            ms(200),
            &ack_with_sack(1, &[(off(1), off(i + 1))]),
            &[],
        );
    }
    assert!(conn.in_recovery());
    // slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF): 10 packets / 2.
    assert_eq!((conn.cwnd(), conn.ssthresh()), (5000, 5000));
    // Only the fast retransmission: pipe_ = 10 − 3 = 7 ≥ cwnd_ 5.
    assert_eq!(data_offsets(&output(&mut conn, ms(200))), vec![off(0)]);
    // Each further ACK takes one packet off pipe_: 6, 5, then 4 < 5 lets one packet out.
    for i in 4..=5u64 {
        input(
            &mut conn,
            ms(201),
            &ack_with_sack(1, &[(off(1), off(i + 1))]),
            &[],
        );
        expect_nothing(&mut conn, ms(201));
    }
    input(
        &mut conn,
        ms(202),
        &ack_with_sack(1, &[(off(1), off(7))]),
        &[],
    );
    // No hole below the highest SACK is left: new data (window_ allows it).
    assert_eq!(data_offsets(&output(&mut conn, ms(202))), vec![off(10)]);
    // The cumulative ACK of everything sent before recovery ends it at cwnd = ssthresh.
    input(&mut conn, ms(300), &seg(1, Some(off(10))), &[]);
    assert!(!conn.in_recovery());
    assert_eq!(conn.cwnd(), 5000);
}

#[test]
fn sack1_retransmits_a_hole_with_one_sack_above_it() {
    // RFC 6675 would wait for IsLost (three SACKed segments above); ns-2's GetNextRetran
    // takes any unSACKed packet below the highest SACK.
    let mut conn = flight(TcpVariant::Sack1);
    // Segments 0 and 8 lost: 1..7 and 9 arrive.
    for i in 1..=7u64 {
        input(
            &mut conn,
            ms(200),
            &ack_with_sack(1, &[(off(1), off(i + 1))]),
            &[],
        );
    }
    output(&mut conn, ms(200));
    input(
        &mut conn,
        ms(201),
        &ack_with_sack(1, &[(off(9), off(10)), (off(1), off(8))]),
        &[],
    );
    // pipe_ = 10 − 3 − 5 = 2 < 5: segment 8 at once, then new data.
    let sent = data_offsets(&output(&mut conn, ms(201)));
    assert_eq!(sent[0], off(8));
    assert_eq!(conn.stats().retransmissions, 2);
}

#[test]
fn sack1_partial_ack_restarts_the_timer_and_clears_the_backoff() {
    let mut conn = flight(TcpVariant::Sack1);
    for i in 1..=3u64 {
        // Segments 0 and 5 lost.
        input(
            &mut conn,
            ms(200),
            &ack_with_sack(1, &[(off(1), off(i + 1))]),
            &[],
        );
    }
    output(&mut conn, ms(200));
    let before = conn.poll_timeout().unwrap();
    // Partial ACK up to segment 5 at 300 ms.
    input(
        &mut conn,
        ms(300),
        &ack_with_sack(off(5), &[(off(6), off(7))]),
        &[],
    );
    assert!(conn.in_recovery());
    assert!(conn.poll_timeout().unwrap() > before);
    // No RTT sample and no window change on a partial ACK.
    assert_eq!(conn.stats().rtt_samples, 1);
    assert_eq!(conn.cwnd(), 5000);
}

#[test]
fn sack1_timeout_forgets_sacks_and_ignores_duplicates() {
    let mut conn = flight(TcpVariant::Sack1);
    for i in 1..=3u64 {
        input(
            &mut conn,
            ms(200),
            &ack_with_sack(1, &[(off(1), off(i + 1))]),
            &[],
        );
    }
    output(&mut conn, ms(200));
    conn.handle_timeout(conn.poll_timeout().unwrap());
    assert!(!conn.in_recovery());
    let t = ms(1300);
    assert_eq!(data_offsets(&output(&mut conn, t)), vec![off(0)]);
    // Duplicate ACKs with new SACK information are ignored until new data is ACKed.
    for i in 4..=8u64 {
        input(
            &mut conn,
            t,
            &ack_with_sack(1, &[(off(1), off(i + 1))]),
            &[],
        );
    }
    assert!(!conn.in_recovery());
    assert_eq!(conn.stats().fast_retransmits, 1);
    // The ACK of segment 0 opens the window to two: go-back-N resends 1 and 2 although they
    // were SACKed (the scoreboard was cleared; RFC 6675 recovery would skip them).
    input(&mut conn, ms(1400), &seg(1, Some(off(1))), &[]);
    assert_eq!(
        data_offsets(&output(&mut conn, ms(1400))),
        vec![off(1), off(2)]
    );
}

/// A receiver reporting at most `max_blocks` SACK blocks per ACK in RFC 2018 §4 order, in
/// whole segments (`off(i)`), for the scripted six-loss runs below.
struct Sink {
    next: u64,
    got: std::collections::BTreeSet<u64>,
    /// Reported blocks, most recent first, as segment index ranges `[a, b)`.
    recent: Vec<(u64, u64)>,
    max_blocks: usize,
}

impl Sink {
    fn new(max_blocks: usize) -> Self {
        Sink {
            next: 0,
            got: Default::default(),
            recent: Vec::new(),
            max_blocks,
        }
    }

    /// The block of received segments around `i` (at or above `next`).
    fn block(&self, i: u64) -> Option<(u64, u64)> {
        if i < self.next || !self.got.contains(&i) {
            return None;
        }
        let mut a = i;
        while a > self.next && self.got.contains(&(a - 1)) {
            a -= 1;
        }
        let mut b = i + 1;
        while self.got.contains(&b) {
            b += 1;
        }
        Some((a, b))
    }

    /// Segment `i` arrives; the ACK it triggers.
    fn receive(&mut self, i: u64) -> TcpRepr {
        self.got.insert(i);
        while self.got.contains(&self.next) {
            self.next += 1;
        }
        if let Some(b) = self.block(i) {
            self.recent.retain(|&(l, r)| r <= b.0 || l >= b.1);
            self.recent.insert(0, b);
        }
        let mut fresh: Vec<(u64, u64)> = Vec::new();
        for &(l, _) in &self.recent {
            if let Some(b) = self.block(l) {
                if !fresh.contains(&b) {
                    fresh.push(b);
                }
            }
        }
        self.recent = fresh;
        let blocks: Vec<(u64, u64)> = self
            .recent
            .iter()
            .take(self.max_blocks)
            .map(|&(a, b)| (off(a), off(b)))
            .collect();
        ack_with_sack(off(self.next), &blocks)
    }
}

/// Outcome of a scripted run.
#[derive(Debug)]
struct Run {
    timeouts: u64,
    fast_retransmits: u64,
    retransmissions: u64,
    /// From the first drop to the ACK covering the last dropped segment.
    recovery: SimDuration,
}

/// An ns-2.1b8 sender (`TcpConfig::ns2_2001`) sends 60 segments over a path with 50 ms
/// one-way delay (no serialisation); the first transmissions of `drops` are lost, and the
/// ACKs triggered by the first arrivals of `ack_drops`.
fn scripted(variant: TcpVariant, max_blocks: usize, drops: &[u64], ack_drops: &[u64]) -> Run {
    use std::collections::{BTreeMap, BTreeSet};
    enum Ev {
        Data(u64),
        Ack(TcpRepr),
    }
    let mut conn = established(TcpConfig::ns2_2001().with_variant(variant));
    conn.send_backlogged(Some(60 * MSS as u64));
    let mut sink = Sink::new(max_blocks);
    let delay = SimDuration::from_millis(50);
    let (mut queue, mut seq) = (BTreeMap::new(), 0u64);
    let (mut sent_once, mut acked_once) = (BTreeSet::new(), BTreeSet::new());
    let mut now = ms(100);
    let (mut first_drop, mut recovered) = (None, None);
    let last = *drops.iter().max().unwrap();
    while conn.snd_una() < off(60) && now < ms(120_000) {
        for (repr, payload) in output(&mut conn, now) {
            if payload.is_empty() {
                continue;
            }
            let i = u64::from(repr.seq_number.0.wrapping_sub(LOCAL_ISS.0) - 1) / MSS as u64;
            if sent_once.insert(i) && drops.contains(&i) {
                first_drop.get_or_insert(now);
                continue;
            }
            seq += 1;
            queue.insert((now + delay, seq), Ev::Data(i));
        }
        let timer = conn.poll_timeout();
        let next = queue.keys().next().copied();
        match (next, timer) {
            (Some((t, _)), Some(d)) if d < t => {
                now = d;
                conn.handle_timeout(d);
            }
            (Some(key), _) => {
                now = key.0;
                match queue.remove(&key).unwrap() {
                    Ev::Data(i) => {
                        let ack = sink.receive(i);
                        if !(acked_once.insert(i) && ack_drops.contains(&i)) {
                            seq += 1;
                            queue.insert((now + delay, seq), Ev::Ack(ack));
                        }
                    }
                    Ev::Ack(ack) => input(&mut conn, now, &ack, &[]),
                }
            }
            (None, Some(d)) => {
                now = d;
                conn.handle_timeout(d);
            }
            (None, None) => break,
        }
        if recovered.is_none() && conn.snd_una() > off(last) {
            recovered = Some(now);
        }
    }
    assert_eq!(conn.snd_una(), off(60), "the transfer completes");
    let s = conn.stats();
    Run {
        timeouts: s.timeouts,
        fast_retransmits: s.fast_retransmits,
        retransmissions: s.retransmissions,
        recovery: recovered.unwrap() - first_drop.unwrap(),
    }
}

/// Six non-consecutive losses in one window of 20 (the Mobile IP study's pattern).
const SIX: [u64; 6] = [30, 32, 34, 36, 38, 40];

#[test]
fn six_losses_reno_times_out_sack1_does_not() {
    let reno = scripted(TcpVariant::Reno, 3, &SIX, &[]);
    assert!(reno.timeouts >= 1, "{reno:?}");
    let sack1 = scripted(TcpVariant::Sack1, 3, &SIX, &[]);
    assert_eq!(sack1.timeouts, 0, "{sack1:?}");
    assert_eq!(sack1.fast_retransmits, 1, "{sack1:?}");
    // Exactly the six lost segments are resent.
    assert_eq!(sack1.retransmissions, 6, "{sack1:?}");
    assert!(sack1.recovery < reno.recovery, "{sack1:?} vs {reno:?}");
}

#[test]
fn six_losses_sack1_with_three_blocks_resends_what_lost_acks_hid() {
    // The ACKs of segments 33, 35 and 37 are lost. The ACK of 39 carries the most recent
    // blocks 39, 37, 35 (and 33 with a fourth block): a three-block receiver never tells
    // the sender that 33 arrived, and ns-2's GetNextRetran resends every packet the
    // scoreboard does not show as SACKed, so 33 goes twice. (31 is hidden from neither: its
    // ACK arrived, and the partial ACK of 30 covers it.)
    let ack_drops = [33, 35, 37];
    let three = scripted(TcpVariant::Sack1, 3, &SIX, &ack_drops);
    let four = scripted(TcpVariant::Sack1, 4, &SIX, &ack_drops);
    let many = scripted(TcpVariant::Sack1, 8, &SIX, &ack_drops);
    assert_eq!(three.timeouts + four.timeouts + many.timeouts, 0);
    assert_eq!(three.retransmissions, 7, "{three:?}");
    assert_eq!(four.retransmissions, 6, "{four:?}");
    assert_eq!(many.retransmissions, 6, "{many:?}");
}
