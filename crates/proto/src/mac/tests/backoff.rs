//! Binary exponential backoff: draws, freezing, resumption, CW doubling and reset,
//! post-backoff, simultaneous expiry.

use sctpsim_kernel::{Rng, SeedTree, SimDuration, StreamKey};

use super::harness::{addr, at_us, mac, us, Net, IBSS};
use crate::mac::{FrameKind, MacConfig, MacEvent, MacRole, MacSdu, PhyMode, RadioProfile};

fn dsss1_basic() -> MacConfig {
    let mut c = RadioProfile::Ns2Wavelan.mac_config();
    c.data_mode = PhyMode::Dsss1;
    c.broadcast_mode = None;
    c.rts_threshold = 65_535;
    c
}

fn sdu(dst: usize, len: usize) -> MacSdu {
    MacSdu {
        dst: addr(dst),
        bytes: vec![0x45; len],
        is_control: false,
        tag: Default::default(),
    }
}

/// The stream station `i` of seed `seed` draws from.
fn stream(i: usize, seed: u64) -> Rng {
    SeedTree::new(seed).stream(&StreamKey::new("dcf-backoff").with(i as u64).with(0))
}

#[test]
fn frame_arriving_on_busy_medium_draws_from_the_macs_own_stream() {
    let cfg = dsss1_basic();
    for seed in 0..20 {
        let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, seed);
        m.handle_medium_busy(at_us(10));
        m.enqueue(at_us(20), sdu(1, 100));
        let expected = stream(0, seed).below(u64::from(cfg.cw_min) + 1) as u32;
        assert_eq!(m.backoff_slots(at_us(20)), expected);
        m.handle_medium_idle(at_us(1_000));
        let due = at_us(1_000) + cfg.difs() + SimDuration(u64::from(expected) * cfg.slot.0);
        assert_eq!(m.poll_timeout(), Some(due), "seed {seed}");
        assert!(m.poll_transmit(super::harness::before(due)).is_none());
        assert_eq!(m.poll_transmit(due).unwrap().kind, FrameKind::Data);
    }
}

#[test]
fn backoff_freezes_while_busy_and_resumes_with_the_remaining_count() {
    let cfg = dsss1_basic();
    // A seed whose first draw is at least 6 slots.
    let seed = (0..)
        .find(|s| stream(0, *s).below(32) >= 6)
        .expect("some seed");
    let b = stream(0, seed).below(32) as u32;
    let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, seed);
    m.handle_medium_busy(at_us(0));
    m.enqueue(at_us(5), sdu(1, 100));
    m.handle_medium_idle(at_us(100));
    // Idle from 100 µs: slots count from 150 µs. Busy again at 150 + 3.5 slots: 3 slots done,
    // the interrupted one does not count.
    m.handle_medium_busy(at_us(150 + 70));
    assert_eq!(m.backoff_slots(at_us(220)), b - 3);
    assert_eq!(m.poll_timeout(), None);
    m.handle_medium_idle(at_us(2_000));
    let due = at_us(2_000 + 50) + SimDuration(u64::from(b - 3) * 20_000);
    assert_eq!(m.poll_timeout(), Some(due));
    // Busy exactly at a slot boundary: the slot that just ended counts.
    m.handle_medium_busy(at_us(2_050 + 40));
    assert_eq!(m.backoff_slots(at_us(2_090)), b - 5);
    m.handle_medium_idle(at_us(3_000));
    let due = at_us(3_050) + SimDuration(u64::from(b - 5) * 20_000);
    assert_eq!(m.poll_transmit(due).unwrap().kind, FrameKind::Data);
}

#[test]
fn a_station_freezes_during_anothers_exchange_in_the_shared_medium() {
    let cfg = dsss1_basic();
    let mut net = Net::adhoc(3, &cfg, 11);
    // Station 0 sends a long frame to 1 at once; station 2's packet arrives during it (busy:
    // it draws a backoff), and it may only count down after 0's exchange (DATA + SIFS + Ack)
    // plus DIFS.
    net.send(0, Some(1), 1500);
    net.run_until(at_us(1_000));
    net.send(2, Some(1), 100);
    let b2 = net.macs[2].backoff_slots(at_us(1_000));
    net.run_for(SimDuration::from_millis(100));
    let ex_end = net.log[1].end;
    assert_eq!(net.log[1].kind, FrameKind::Ack);
    let t2 = net.tx_of(2)[0].start;
    // Station 0 has nothing more to send: its post-backoff does not occupy the medium, so
    // station 2 goes DIFS + b2 slots after the Ack.
    assert_eq!(
        t2,
        ex_end + cfg.difs() + SimDuration(u64::from(b2) * cfg.slot.0)
    );
}

#[test]
fn contention_window_doubles_to_cwmax_and_resets_after_a_drop() {
    let mut cfg = dsss1_basic();
    cfg.short_retry_limit = 8;
    let mut net = Net::adhoc(2, &cfg, 5);
    net.hears[1][0] = false; // station 1 never hears station 0: every attempt times out
    net.send(0, Some(1), 200);
    let mut seen = vec![net.macs[0].contention_window()];
    for _ in 0..8 {
        let before = net.macs[0].counters().ack_timeouts;
        while net.macs[0].counters().ack_timeouts == before {
            net.run_for(us(100));
        }
        seen.push(net.macs[0].contention_window());
    }
    // 31 → 63 → ... → 1023 (capped), then reset to 31 when the 8th attempt fails.
    assert_eq!(seen, vec![31, 63, 127, 255, 511, 1023, 1023, 1023, 31]);
    assert!(net
        .events_of(0)
        .iter()
        .any(|e| matches!(e.2, MacEvent::TxFailed { .. })));
}

#[test]
fn contention_window_resets_after_success() {
    let cfg = dsss1_basic();
    let mut net = Net::adhoc(2, &cfg, 5);
    let mut lost = 0;
    net.lose = Some(Box::new(move |t| {
        // The first two DATA frames are lost.
        if t.kind == FrameKind::Data && lost < 2 {
            lost += 1;
            return true;
        }
        false
    }));
    net.send(0, Some(1), 200);
    net.run_for(SimDuration::from_millis(30));
    assert_eq!(net.macs[0].counters().ack_timeouts, 2);
    assert_eq!(net.macs[0].counters().tx_success, 1);
    assert_eq!(net.macs[0].contention_window(), 31);
    assert!(net
        .events_of(0)
        .iter()
        .any(|e| matches!(e.2, MacEvent::TxSuccess { retries: 2, .. })));
}

#[test]
fn post_backoff_then_immediate_access() {
    let cfg = dsss1_basic();
    let mut net = Net::adhoc(2, &cfg, 8);
    net.send(0, Some(1), 100);
    net.run_until(at_us(100_000));
    // The post-backoff finished long ago while the medium was idle: a new packet goes at once.
    assert_eq!(net.macs[0].backoff_slots(net.now), 0);
    net.send(0, Some(1), 100);
    assert_eq!(net.log[2].start, at_us(100_000));
}

#[test]
fn backoffs_ending_in_the_same_slot_collide() {
    let cfg = dsss1_basic();
    // Two stations receive a packet at the same instant on an idle medium: both access at
    // once (no backoff pending) and collide; both time out and retry.
    let mut net = Net::adhoc(3, &cfg, 21);
    net.run_until(at_us(1_000));
    for i in [0, 1] {
        net.macs[i].enqueue(net.now, sdu(2, 300));
    }
    net.run_until(at_us(1_000));
    assert_eq!(net.log.len(), 2);
    assert_eq!(net.log[0].start, net.log[1].start);
    net.run_for(SimDuration::from_millis(200));
    assert_eq!(net.macs[0].counters().ack_timeouts, 1);
    assert_eq!(net.macs[1].counters().ack_timeouts, 1);
    // The receiver got two corrupted frames.
    assert_eq!(net.macs[2].counters().rx_errors, 2);
    // In the end both packets get through, unless the redraws tie again (then more retries).
    assert_eq!(net.macs[2].counters().delivered, 2);
}

#[test]
fn equal_deadlines_through_tie_rule_in_either_order() {
    // A station whose backoff ends at the instant another's transmission starts still
    // transmits, whichever of the two inputs the engine delivers first.
    let cfg = dsss1_basic();
    for busy_first in [true, false] {
        let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
        m.enqueue(at_us(0), sdu(1, 100));
        let due = m.poll_timeout().unwrap();
        assert_eq!(due, at_us(50));
        if busy_first {
            m.handle_medium_busy(due);
            m.handle_timeout(due);
        } else {
            m.handle_timeout(due);
        }
        assert!(m.poll_transmit(due).is_some(), "busy_first {busy_first}");
    }
}

#[test]
fn draws_are_uniform_over_zero_to_cw() {
    // Post-backoff draws after successes: uniform on [0, 31].
    let cfg = dsss1_basic();
    let mut counts = [0u32; 32];
    let mut rng = stream(0, 77);
    for _ in 0..32_000 {
        counts[rng.below(32) as usize] += 1;
    }
    assert!(
        counts.iter().all(|&c| (850..1150).contains(&c)),
        "{counts:?}"
    );
    // The MAC uses exactly those draws: 200 packets, each post-backoff equals the stream.
    let mut net = Net::adhoc(2, &cfg, 77);
    let mut expect = stream(0, 77);
    for k in 0..200 {
        net.send(0, Some(1), 50);
        let done = net.macs[0].counters().tx_success;
        while net.macs[0].counters().tx_success == done {
            net.run_for(us(10));
        }
        // The Ack just ended: the post-backoff was drawn now.
        let now = net.now;
        assert_eq!(
            net.macs[0].backoff_slots(now) as u64,
            expect.below(32),
            "packet {k}"
        );
        net.run_for(SimDuration::from_millis(2));
    }
}
