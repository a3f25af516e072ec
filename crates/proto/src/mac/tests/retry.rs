//! Retransmissions: retry limits (short 7, long 4), the link-failure event naming the next
//! hop, the Retry bit, retransmission timing; the interface queue.

use sctpsim_kernel::SimDuration;

use super::harness::{addr, Net};
use crate::mac::{
    DropReason, FrameKind, MacConfig, MacEvent, MacSdu, PhyMode, RadioProfile, RetryAccounting,
};

fn basic() -> MacConfig {
    let mut c = RadioProfile::Ns2Wavelan.mac_config();
    c.rts_threshold = 65_535;
    c
}

fn failures(net: &Net, i: usize) -> Vec<(MacAddr, DropReason, usize)> {
    net.events_of(i)
        .iter()
        .filter_map(|e| match &e.2 {
            MacEvent::TxFailed {
                next_hop,
                sdu,
                reason,
            } => Some((*next_hop, *reason, sdu.bytes.len())),
            _ => None,
        })
        .collect()
}

use crate::mac::MacAddr;

#[test]
fn short_retry_limit_then_link_failure_naming_the_next_hop() {
    let cfg = basic();
    let mut net = Net::adhoc(3, &cfg, 1);
    net.hears[1][0] = false; // the next hop is gone
    net.send(0, Some(1), 300);
    net.run_for(SimDuration::from_secs(1));
    let data = net.tx_of(0);
    assert_eq!(data.len(), 7, "dot11ShortRetryLimit = 7 attempts");
    assert!(!data[0].retry());
    assert!(data[1..].iter().all(|t| t.retry()));
    // Same sequence number on every attempt.
    assert!(data
        .iter()
        .all(|t| t.bytes[22..24] == data[0].bytes[22..24]));
    assert_eq!(
        failures(&net, 0),
        vec![(addr(1), DropReason::ShortRetryLimit, 300)]
    );
    let c = net.macs[0].counters();
    assert_eq!(
        (c.ack_timeouts, c.tx_data_retries, c.drops_short_retry),
        (7, 6, 1)
    );
    // The bystander saw 7 good frames, none for it.
    assert_eq!(net.macs[2].counters().rx_frames, 7);
    assert_eq!(net.macs[2].counters().delivered, 0);
}

#[test]
fn retransmission_timing_after_ack_timeout() {
    let cfg = basic();
    let mut net = Net::adhoc(2, &cfg, 6);
    net.hears[1][0] = false;
    net.run_until(super::harness::at_us(1_000));
    net.send(0, Some(1), 300);
    // After the first attempt ends, the Ack timeout runs SIFS + slot + aRxPHYStartDelay; the
    // retransmission then waits DIFS and a backoff drawn from CW = 63.
    let first_end = net.log[0].end;
    let timeout = first_end + cfg.response_timeout();
    net.run_until(timeout);
    assert_eq!(net.macs[0].counters().ack_timeouts, 1);
    assert_eq!(net.macs[0].contention_window(), 63);
    let b = net.macs[0].backoff_slots(timeout);
    net.run_for(SimDuration::from_millis(100));
    assert_eq!(
        net.log[1].start,
        timeout + cfg.difs() + SimDuration(u64::from(b) * cfg.slot.0)
    );
}

#[test]
fn long_retry_limit_for_frames_above_the_rts_threshold() {
    let mut cfg = basic();
    cfg.rts_threshold = 500;
    let mut net = Net::adhoc(2, &cfg, 2);
    // Every DATA frame is lost; RTS/CTS go through.
    net.lose = Some(Box::new(|t| t.kind == FrameKind::Data));
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    let c = net.macs[0].counters();
    assert_eq!(c.tx_data, 4, "dot11LongRetryLimit = 4 attempts");
    assert_eq!(c.tx_rts, 4);
    assert_eq!((c.ack_timeouts, c.cts_timeouts), (4, 0));
    assert_eq!(
        failures(&net, 0),
        vec![(addr(1), DropReason::LongRetryLimit, 1000)]
    );
    // The receiver saw 4 corrupted DATA frames.
    assert_eq!(net.macs[1].counters().rx_errors, 4);
}

#[test]
fn cts_resets_the_short_count_of_the_frame() {
    // RTS failures and DATA failures are counted separately: alternate lost CTS and lost DATA.
    let mut cfg = basic();
    cfg.rts_threshold = 500;
    let mut net = Net::adhoc(2, &cfg, 3);
    let mut k = 0;
    net.lose = Some(Box::new(move |t| match t.kind {
        FrameKind::Cts | FrameKind::Data => {
            k += 1;
            k <= 6
        }
        _ => false,
    }));
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    let c = net.macs[0].counters();
    // CTS lost, CTS ok + DATA lost, ... the short count never exceeds 1 at a time.
    assert!(c.tx_success == 1 || c.drops_long_retry == 1, "{c:?}");
    assert_eq!(c.drops_short_retry, 0);
}

#[test]
fn broadcast_is_sent_once_without_ack() {
    let cfg = basic();
    let mut net = Net::adhoc(4, &cfg, 4);
    net.send(0, None, 200);
    net.run_for(SimDuration::from_millis(20));
    assert_eq!(net.log.len(), 1);
    assert_eq!(net.log[0].duration_field(), 0);
    assert_eq!(
        net.log[0].mode,
        PhyMode::Dsss2,
        "ns-2 sends broadcast at the data rate"
    );
    for j in 1..4 {
        assert_eq!(net.macs[j].counters().delivered, 1);
        assert_eq!(net.macs[j].counters().tx_ack, 0);
    }
    assert!(net
        .events_of(0)
        .iter()
        .any(|e| matches!(e.2, MacEvent::TxSuccess { retries: 0, dst } if dst.is_broadcast())));
    // Even if nobody hears it, it is not retransmitted.
    let mut lonely = Net::adhoc(1, &cfg, 4);
    lonely.send(0, None, 200);
    lonely.run_for(SimDuration::from_millis(20));
    assert_eq!(lonely.log.len(), 1);
}

#[test]
fn interface_queue_of_fifty_with_control_first() {
    let cfg = basic();
    let mut net = Net::adhoc(2, &cfg, 5);
    net.hears[0][1] = false;
    net.hears[1][0] = false;
    // The first packet goes into service; 50 wait; the 52nd is dropped.
    for _ in 0..52 {
        net.send(0, Some(1), 100);
    }
    assert_eq!(net.macs[0].queue_len(), 50);
    assert_eq!(net.macs[0].counters().queue_drops, 1);
    // A control packet displaces the last data packet and is served next.
    let ctl = MacSdu {
        dst: addr(1),
        bytes: vec![0x45, 0xcc, 0, 0],
        is_control: true,
        tag: Default::default(),
    };
    let now = net.now;
    net.macs[0].enqueue(now, ctl);
    assert_eq!(net.macs[0].queue_len(), 50);
    match net.macs[0].poll_event() {
        Some(MacEvent::QueueDrop { sdu }) => assert_eq!(sdu.bytes.len(), 100),
        other => panic!("{other:?}"),
    }
    // Link failure of the packet in service; then the control packet is next on the air.
    net.hears[1][0] = false;
    net.run_for(SimDuration::from_secs(1));
    let second_packet = net
        .tx_of(0)
        .into_iter()
        .find(|t| !t.retry() && t.start > net.log[0].start)
        .expect("next packet");
    assert_eq!(second_packet.bytes[24 + 8 + 1], 0xcc);
    // Routing removes what is queued for the broken next hop.
    let salvaged = net.macs[0].remove_queued_for(addr(1));
    assert!(!salvaged.is_empty());
    assert_eq!(net.macs[0].queue_len(), 0);
}

/// Counters of a 1000-byte frame above a 500-byte RTS threshold when every other CTS (the
/// 1st, 3rd, ...) and every DATA frame is lost, with `accounting`.
fn alternating_failures(accounting: RetryAccounting) -> crate::mac::MacCounters {
    let mut cfg = basic();
    cfg.rts_threshold = 500;
    cfg.retry_accounting = accounting;
    let mut net = Net::adhoc(2, &cfg, 3);
    let mut cts = 0;
    net.lose = Some(Box::new(move |t| match t.kind {
        FrameKind::Cts => {
            cts += 1;
            cts % 2 == 1
        }
        FrameKind::Data => true,
        _ => false,
    }));
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    net.macs[0].counters().clone()
}

#[test]
fn per_frame_accounting_counts_cts_and_ack_failures_together() {
    // CTS lost, then CTS ok and DATA lost, and so on. The standard counts the two kinds
    // separately (and a CTS resets the short count): the frame goes after 4 lost DATA
    // frames, 8 RTS. With the paper's per-frame rule every failure counts against the long
    // limit: dropped after 4 attempts — 4 RTS, 2 CTS timeouts, 2 Ack timeouts.
    let std = alternating_failures(RetryAccounting::Standard);
    assert_eq!((std.tx_rts, std.tx_data), (8, 4), "{std:?}");
    assert_eq!((std.cts_timeouts, std.ack_timeouts), (4, 4), "{std:?}");
    assert_eq!((std.drops_long_retry, std.drops_short_retry), (1, 0));
    let per = alternating_failures(RetryAccounting::PerFrame);
    assert_eq!((per.tx_rts, per.tx_data), (4, 2), "{per:?}");
    assert_eq!((per.cts_timeouts, per.ack_timeouts), (2, 2), "{per:?}");
    assert_eq!((per.drops_long_retry, per.drops_short_retry), (1, 0));
    assert_eq!(per.tx_success, 0);
}

#[test]
fn per_frame_accounting_leaves_short_frames_alone() {
    // A frame at or below the RTS threshold counts every Ack timeout against the short limit
    // under both rules: the same 7 attempts and the same drop.
    for accounting in [RetryAccounting::Standard, RetryAccounting::PerFrame] {
        let mut cfg = basic();
        cfg.rts_threshold = 500;
        cfg.retry_accounting = accounting;
        let mut net = Net::adhoc(2, &cfg, 1);
        net.hears[1][0] = false;
        net.send(0, Some(1), 300);
        net.run_for(SimDuration::from_secs(1));
        let c = net.macs[0].counters();
        assert_eq!(
            (c.tx_data, c.tx_rts, c.ack_timeouts, c.drops_short_retry),
            (7, 0, 7, 1),
            "{accounting:?}"
        );
        assert_eq!(
            failures(&net, 0),
            vec![(addr(1), DropReason::ShortRetryLimit, 300)]
        );
    }
}

#[test]
fn ns2_226_accounting_gives_an_unacked_frame_one_attempt_more() {
    // ns-2.26 `RetransmitDATA` discards when the count exceeds the limit (`*rcount > *thresh`):
    // 8 attempts of a frame below the RTS threshold where the standard makes 7.
    let mut cfg = basic();
    cfg.retry_accounting = RetryAccounting::Ns2_226;
    let mut net = Net::adhoc(2, &cfg, 1);
    net.hears[1][0] = false;
    net.send(0, Some(1), 300);
    net.run_for(SimDuration::from_secs(1));
    assert_eq!(net.tx_of(0).len(), 8);
    assert_eq!(
        failures(&net, 0),
        vec![(addr(1), DropReason::ShortRetryLimit, 300)]
    );
}
