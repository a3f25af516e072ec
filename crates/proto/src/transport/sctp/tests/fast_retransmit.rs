//! Fast retransmit and Fast Recovery: RFC 9260 §7.2.4 (third miss indication, HTNA, one cwnd
//! reduction per recovery, the first retransmission ignores cwnd, once per TSN) and the RFC 2960
//! profile (fourth miss indication, every SACK counts, no Fast Recovery).

use super::*;

/// Established with a large initial cwnd (no Max.Burst limit) and `n` full chunks in flight.
fn in_flight(mut c: SctpConfig, n: usize, cwnd: u32) -> Harness {
    c.initial_cwnd_bytes = Some(cwnd);
    c.max_burst = 0;
    let mut h = established_with(c, &[L1], &[R1]);
    for _ in 0..n {
        h.send_msg(1452);
    }
    let sent: usize = h
        .all()
        .iter()
        .map(|t| data_chunks(&t.packet.chunks).len())
        .sum();
    assert_eq!(sent, n);
    h
}

#[test]
fn third_miss_indication_triggers_fast_retransmit() {
    let mut h = in_flight(cfg(), 10, 30_000);
    send!(h, [h.sack(0, &[(2, 2)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 3)], 65_536)]);
    assert!(h.all_data_tsns().is_empty());
    send!(h, [h.sack(0, &[(2, 4)], 65_536)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    let p = &h.a.status().paths[0];
    // ssthresh = max(cwnd/2, 4·MTU) = 15000; cwnd = ssthresh.
    assert_eq!((p.ssthresh, p.cwnd), (15_000, 15_000));
    let s = h.a.stats();
    assert_eq!((s.fast_retransmissions, s.fast_retransmit_events), (1, 1));
}

#[test]
fn htna_sacks_that_ack_nothing_new_do_not_count() {
    let mut h = in_flight(cfg(), 10, 30_000);
    for _ in 0..5 {
        send!(h, [h.sack(0, &[(2, 2)], 65_536)]);
    }
    assert!(h.all_data_tsns().is_empty());
    assert_eq!(h.a.stats().fast_retransmissions, 0);
}

#[test]
fn fast_recovery_reduces_cwnd_once_and_exits_at_the_exit_point() {
    let mut h = in_flight(cfg(), 10, 30_000);
    // TSNs 0 and 5 are lost.
    send!(h, [h.sack(0, &[(2, 2)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 3)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 4)], 65_536)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    assert_eq!(h.a.status().paths[0].cwnd, 15_000);
    send!(h, [h.sack(0, &[(2, 5), (7, 7)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 5), (7, 8)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 5), (7, 9)], 65_536)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(5)]);
    // In Fast Recovery: no second reduction, no growth.
    assert_eq!(h.a.status().paths[0].cwnd, 15_000);
    assert!(h.a.tx.fast_recovery_exit.is_some());
    send!(h, [h.sack(5, &[(2, 5)], 65_536)]);
    assert!(h.a.tx.fast_recovery_exit.is_some());
    send!(h, [h.sack(10, &[], 65_536)]);
    assert!(
        h.a.tx.fast_recovery_exit.is_none(),
        "exit point acknowledged"
    );
}

#[test]
fn a_tsn_is_fast_retransmitted_once() {
    let mut h = in_flight(cfg(), 10, 30_000);
    for k in 2..=9 {
        send!(h, [h.sack(0, &[(2, k)], 65_536)]);
    }
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    assert_eq!(h.a.stats().fast_retransmissions, 1);
}

#[test]
fn the_first_fast_retransmission_ignores_cwnd() {
    // cwnd 15000 (no growth from the gap-only SACKs: slow start needs the cumulative ack to
    // advance) -> 7500 after the reduction, while the flightsize is 6·1452 = 8712.
    let mut h = in_flight(cfg(), 10, 15_000);
    send!(h, [h.sack(0, &[(2, 2)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 3)], 65_536)]);
    send!(h, [h.sack(0, &[(2, 4)], 65_536)]);
    let p = &h.a.status().paths[0];
    assert_eq!(p.cwnd, 7500);
    assert!(p.flight_size + 1452 > p.cwnd);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
}

#[test]
fn rfc2960_retransmits_on_the_fourth_miss_and_counts_every_sack() {
    let c = SctpConfig {
        heartbeats: false,
        ..SctpConfig::rfc2960()
    };
    let mut h = in_flight(c, 10, 30_000);
    for _ in 0..3 {
        // Without HTNA even SACKs that acknowledge nothing new count.
        send!(h, [h.sack(0, &[(2, 2)], 65_536)]);
    }
    assert!(h.all_data_tsns().is_empty());
    send!(h, [h.sack(0, &[(2, 2)], 65_536)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    // ssthresh = max(cwnd/2, 2·MTU).
    let p = &h.a.status().paths[0];
    assert_eq!((p.ssthresh, p.cwnd), (15_000, 15_000));
}

#[test]
fn rfc2960_reduces_cwnd_at_every_fast_retransmit_event() {
    let c = SctpConfig {
        heartbeats: false,
        ..SctpConfig::rfc2960()
    };
    let mut h = in_flight(c, 10, 30_000);
    for k in 2..=5 {
        send!(h, [h.sack(0, &[(2, k)], 65_536)]);
    }
    assert_eq!(h.a.status().paths[0].cwnd, 15_000);
    // TSN 5 lost as well: four more reports.
    for k in 7..=10 {
        send!(h, [h.sack(0, &[(2, 5), (7, k)], 65_536)]);
    }
    assert_eq!(h.a.status().paths[0].cwnd, 7500);
}

#[test]
fn rfc9260_fast_retransmissions_stay_on_the_path_rfc2960_goes_to_an_alternate() {
    for (c, alt) in [
        (cfg(), false),
        (
            SctpConfig {
                heartbeats: false,
                ..SctpConfig::rfc2960()
            },
            true,
        ),
    ] {
        let mut c = c;
        c.initial_cwnd_bytes = Some(30_000);
        c.max_burst = 0;
        let mut h = super::multihoming::two_paths(c);
        for _ in 0..10 {
            h.send_msg(1452);
        }
        h.all();
        for k in 2..=5 {
            send!(h, [h.sack(0, &[(2, k)], 65_536)]);
        }
        let t = h
            .all()
            .into_iter()
            .find(|t| !data_chunks(&t.packet.chunks).is_empty())
            .unwrap();
        assert_eq!(t.dst == R2, alt);
        assert_eq!(h.a.stats().retransmissions_to_alternate, u64::from(alt));
    }
}
