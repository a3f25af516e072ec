//! RTS/CTS above the threshold: the exchange, its Duration fields and timing, the CTS
//! rules, CTS timeouts.

use sctpsim_kernel::SimDuration;

use super::harness::{addr, at_us, Net, TxLog};
use crate::mac::{
    tx_duration, FrameKind, MacConfig, MacEvent, MacTiming, PhyMode, RadioProfile, RetryAccounting,
};
use sctpsim_wire::ieee80211::{DATA_OVERHEAD, RTS_LEN};

fn wavelan() -> MacConfig {
    // ns-2 defaults: RTS threshold 0, 2 Mbit/s data, 1 Mbit/s basic.
    RadioProfile::Ns2Wavelan.mac_config()
}

/// The log holds exactly one RTS/CTS/DATA/Ack exchange from station 0 to station 1.
fn assert_one_exchange(l: &[TxLog]) {
    let kinds: Vec<(usize, FrameKind)> = l.iter().map(|t| (t.src, t.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            (0, FrameKind::Rts),
            (1, FrameKind::Cts),
            (0, FrameKind::Data),
            (1, FrameKind::Ack)
        ]
    );
}

#[test]
fn rts_cts_data_ack_exchange_is_exact() {
    let cfg = wavelan();
    let mut net = Net::adhoc(2, &cfg, 1);
    let t0 = at_us(1_000);
    net.run_until(t0);
    net.send(0, Some(1), 512);
    net.run_for(SimDuration::from_millis(20));
    let l = &net.log;
    assert_one_exchange(l);
    let rts = tx_duration(PhyMode::Dsss1, RTS_LEN, cfg.preamble);
    let cts = tx_duration(PhyMode::Dsss1, 14, cfg.preamble);
    let data = tx_duration(PhyMode::Dsss2, 512 + DATA_OVERHEAD, cfg.preamble);
    let ack = cts;
    assert_eq!(rts, SimDuration::from_micros(352));
    assert_eq!(data, SimDuration::from_micros(192 + 4 * 548));
    assert_eq!(l[0].start, t0);
    assert_eq!(l[1].start, t0 + rts + cfg.sifs);
    assert_eq!(l[2].start, l[1].end + cfg.sifs);
    assert_eq!(l[3].start, l[2].end + cfg.sifs);
    assert_eq!(
        l[3].end,
        t0 + rts + cts + data + ack + cfg.sifs.saturating_mul(3)
    );
    assert_eq!(
        (l[0].mode, l[1].mode, l[2].mode, l[3].mode),
        (
            PhyMode::Dsss1,
            PhyMode::Dsss1,
            PhyMode::Dsss2,
            PhyMode::Dsss1
        )
    );
    // Duration fields (§9.2.5.2): RTS = 3·SIFS + CTS + DATA + Ack, CTS = RTS − SIFS − CTS,
    // DATA = SIFS + Ack, Ack = 0.
    let micros = |d: SimDuration| d.0 / 1_000;
    assert_eq!(
        l[0].duration_field(),
        micros(cfg.sifs.saturating_mul(3) + cts + data + ack)
    );
    assert_eq!(
        l[1].duration_field(),
        l[0].duration_field() - micros(cfg.sifs + cts)
    );
    assert_eq!(l[2].duration_field(), micros(cfg.sifs + ack));
    assert_eq!(l[3].duration_field(), 0);
    // The RTS Duration covers exactly to the end of the Ack.
    assert_eq!(
        l[0].end + SimDuration::from_micros(l[0].duration_field()),
        l[3].end
    );
    assert!(net
        .events_of(0)
        .iter()
        .any(|e| e.0 == l[3].end && matches!(e.2, MacEvent::TxSuccess { retries: 0, .. })));
}

#[test]
fn threshold_compares_the_mpdu_length() {
    let mut cfg = wavelan();
    // A 100-byte packet is a 136-octet MPDU.
    for (threshold, rts) in [(135, true), (136, false), (2_000, false)] {
        cfg.rts_threshold = threshold;
        let mut net = Net::adhoc(2, &cfg, 1);
        net.send(0, Some(1), 100);
        net.run_for(SimDuration::from_millis(10));
        assert_eq!(
            net.log[0].kind == FrameKind::Rts,
            rts,
            "threshold {threshold}"
        );
    }
    // Broadcast frames never use RTS.
    cfg.rts_threshold = 0;
    let mut net = Net::adhoc(2, &cfg, 1);
    net.send(0, None, 100);
    net.run_for(SimDuration::from_millis(10));
    assert_eq!(net.log.len(), 1);
    assert_eq!(net.log[0].kind, FrameKind::Data);
}

#[test]
fn overhearing_stations_set_their_nav_and_defer() {
    let cfg = wavelan();
    // 0 → 1; station 2 hears only 0 (the RTS), station 3 hears only 1 (the CTS).
    let mut net = Net::adhoc(4, &cfg, 2);
    for (a, b) in [(2, 1), (1, 2), (3, 0), (0, 3), (2, 3), (3, 2)] {
        net.hears[a][b] = false;
    }
    net.run_until(at_us(1_000));
    net.send(0, Some(1), 1000);
    let rts_end = net.log[0].end;
    net.run_until(rts_end);
    let exchange_end = rts_end + SimDuration::from_micros(net.log[0].duration_field());
    assert_eq!(net.macs[2].nav_until(), exchange_end);
    assert_eq!(net.macs[1].nav_until(), sctpsim_kernel::SimTime::ZERO);
    net.run_until(rts_end + cfg.sifs);
    let cts_end = net.log[1].end;
    net.run_until(cts_end);
    assert_eq!(
        net.macs[3].nav_until(),
        cts_end + SimDuration::from_micros(net.log[1].duration_field())
    );
    assert_eq!(net.macs[3].nav_until(), exchange_end);
    // Station 3 (hidden from 0) gets a packet for 2 in the middle of the DATA: the medium is
    // physically idle for it but the NAV defers it to the end of the exchange.
    net.run_until(cts_end + SimDuration::from_micros(500));
    net.send(3, Some(2), 100);
    net.run_for(SimDuration::from_millis(50));
    let first = net.tx_of(3)[0];
    assert!(
        first.start >= exchange_end + cfg.difs(),
        "{:?} vs {exchange_end}",
        first.start
    );
    // The exchange 0 → 1 was not disturbed.
    assert_eq!(net.macs[0].counters().tx_success, 1);
    assert_eq!(net.macs[0].counters().collisions(), 0);
}

#[test]
fn no_cts_while_the_nav_is_set() {
    let cfg = wavelan();
    // 0 → 3 exchange. Station 1 hears only 3 (so its NAV comes from 3's CTS) and 2; station
    // 2 hears only 1 and sends it an RTS during 0's DATA.
    let mut net = Net::adhoc(4, &cfg, 3);
    for (a, b) in [(1, 0), (0, 1), (2, 0), (0, 2), (2, 3), (3, 2)] {
        net.hears[a][b] = false;
    }
    net.run_until(at_us(1_000));
    net.send(0, Some(3), 1000);
    let rts_end = net.log[0].end;
    net.run_until(rts_end + cfg.sifs);
    let cts_end = net.log[1].end;
    net.run_until(cts_end + SimDuration::from_micros(400));
    assert!(net.macs[1].nav_until() > net.now);
    net.send(2, Some(1), 100);
    net.run_for(SimDuration::from_millis(2));
    assert!(net.macs[1].counters().cts_suppressed >= 1);
    assert_eq!(net.tx_of(1).len(), 0);
}

#[test]
fn cts_timeouts_use_the_short_retry_limit() {
    let cfg = wavelan();
    let mut net = Net::adhoc(2, &cfg, 4);
    net.hears[1][0] = false;
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    let c = net.macs[0].counters();
    assert_eq!(c.tx_rts, 7);
    assert_eq!(c.cts_timeouts, 7);
    assert_eq!(c.tx_data, 0);
    assert_eq!(c.drops_short_retry, 1);
    let failed: Vec<_> = net
        .events_of(0)
        .iter()
        .filter_map(|e| match &e.2 {
            MacEvent::TxFailed {
                next_hop, reason, ..
            } => Some((*next_hop, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        failed,
        vec![(addr(1), crate::mac::DropReason::ShortRetryLimit)]
    );
    // Each RTS attempt: CTSTimeout = SIFS + slot + aRxPHYStartDelay after its end, then DIFS
    // and a backoff from the doubled window.
    let rts = net.tx_of(0);
    for w in rts.windows(2) {
        let gap = w[1].start - w[0].end;
        assert!(gap >= cfg.response_timeout() + cfg.difs(), "{gap}");
        assert_eq!(
            (gap.0 - cfg.response_timeout().0 - cfg.difs().0) % cfg.slot.0,
            0
        );
    }
}

/// The RTS attempts and the counters of a frame whose RTS is never answered (the CTS never
/// reaches the sender), with `accounting`.
fn unanswered_rts(accounting: RetryAccounting) -> crate::mac::MacCounters {
    let mut cfg = wavelan();
    cfg.retry_accounting = accounting;
    let mut net = Net::adhoc(2, &cfg, 4);
    net.hears[1][0] = false;
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    net.macs[0].counters().clone()
}

#[test]
fn per_frame_accounting_gives_up_an_unanswered_rts_at_the_long_limit() {
    // Ye, Saadawi & Lee (2003, §4): a frame above the RTS threshold gets 4 attempts of any
    // kind; the standard (§10.3.4.4) gives its RTS 7.
    let std = unanswered_rts(RetryAccounting::Standard);
    assert_eq!((std.tx_rts, std.cts_timeouts), (7, 7));
    assert_eq!((std.drops_short_retry, std.drops_long_retry), (1, 0));
    let per = unanswered_rts(RetryAccounting::PerFrame);
    assert_eq!((per.tx_rts, per.cts_timeouts), (4, 4));
    assert_eq!((per.drops_short_retry, per.drops_long_retry), (0, 1));
    assert_eq!(per.tx_data, 0);
}

#[test]
fn per_frame_accounting_with_other_limits() {
    // The limits are the configured ones, not the defaults.
    let mut cfg = wavelan();
    cfg.retry_accounting = RetryAccounting::PerFrame;
    cfg.long_retry_limit = 2;
    cfg.short_retry_limit = 9;
    let mut net = Net::adhoc(2, &cfg, 5);
    net.hears[1][0] = false;
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    let c = net.macs[0].counters();
    assert_eq!((c.tx_rts, c.drops_long_retry), (2, 1));
    let failed: Vec<_> = net
        .events_of(0)
        .iter()
        .filter_map(|e| match &e.2 {
            MacEvent::TxFailed { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect();
    assert_eq!(failed, vec![crate::mac::DropReason::LongRetryLimit]);
}

/// RTS attempts of a second frame after a first one needed `first` RTS failures before its CTS
/// came, with `accounting`.
fn rts_of_second_frame(accounting: RetryAccounting, first: u64) -> (u64, u64) {
    let mut cfg = wavelan();
    cfg.retry_accounting = accounting;
    let mut net = Net::adhoc(2, &cfg, 6);
    net.hears[1][0] = false;
    net.send(0, Some(1), 1000);
    while net.macs[0].counters().cts_timeouts < first {
        net.run_for(SimDuration::from_micros(50));
    }
    net.hears[1][0] = true;
    net.run_for(SimDuration::from_millis(100));
    let c = net.macs[0].counters().clone();
    assert_eq!(
        (c.tx_success, c.drops_short_retry),
        (1, 0),
        "the first frame got through"
    );
    net.hears[1][0] = false;
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(1));
    let d = net.macs[0].counters();
    (d.tx_rts - c.tx_rts, d.drops_short_retry)
}

#[test]
fn ns2_226_accounting_adds_rts_failures_up_across_frames() {
    // The standard (and ns-2.27 on): a CTS resets the short retry count, so the second frame
    // gets its own 7 RTS attempts.
    assert_eq!(rts_of_second_frame(RetryAccounting::Standard, 3), (7, 1));
    // ns-2.26: the station's count stays at 3 after the first frame's CTS and Ack, so the
    // second frame is dropped at the 4th RTS failure (3 + 4 = 7).
    assert_eq!(rts_of_second_frame(RetryAccounting::Ns2_226, 3), (4, 1));
}

/// ns-2.1b8's set-up at 150 kbit/s: every frame at the link rate, with its timing.
fn ns2_21b8_150k() -> MacConfig {
    let m = PhyMode::DsssAnyRate { bps: 150_000 };
    let mut cfg = wavelan();
    cfg.data_mode = m;
    cfg.basic_modes = vec![m];
    cfg.broadcast_mode = Some(m);
    cfg.timing = MacTiming::Ns2_21b8;
    cfg.nav_reset_after_rts = false;
    cfg.validate().unwrap();
    cfg
}

#[test]
fn ns2_21b8_exchange_at_150_kbps_is_exact() {
    let cfg = ns2_21b8_150k();
    let mut net = Net::adhoc(2, &cfg, 1);
    let t0 = at_us(1_000);
    net.run_until(t0);
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_millis(200));
    let l = &net.log;
    assert_one_exchange(l);
    // By hand from ns-2.1b8's `8 * len / bandwidth_` with the 24 PLCP octets in `len`
    // (mac-802_11.h:118-142): RTS 8·44/150 000 s, CTS = Ack 8·38/150 000 s, DATA of a
    // 1000-byte IP packet 8·(1000 + 52)/150 000 s, each rounded up to the nanosecond.
    let (rts, cts, data) = (
        SimDuration(2_346_667),
        SimDuration(2_026_667),
        SimDuration(56_106_667),
    );
    let durations: Vec<SimDuration> = l.iter().map(|t| t.end - t.start).collect();
    assert_eq!(durations, vec![rts, cts, data, cts]);
    assert!(l.iter().all(|t| t.mode == cfg.data_mode));
    assert_eq!(l[0].start, t0);
    assert_eq!(l[1].start, l[0].end + cfg.sifs);
    assert_eq!(l[2].start, l[1].end + cfg.sifs);
    assert_eq!(l[3].start, l[2].end + cfg.sifs);
    // The standard timing of the same exchange: 192 µs PLCP at 1 Mbit/s, LLC/SNAP counted.
    let mut std = cfg.clone();
    std.timing = MacTiming::Standard;
    let std_total = std.tx_time(cfg.data_mode, RTS_LEN)
        + std.ack_time(cfg.data_mode).saturating_mul(2)
        + std.tx_time(cfg.data_mode, 1000 + DATA_OVERHEAD);
    // 1 258 667 + 2 · 938 667 + 55 445 334 ns; ns-2.1b8's frames: 62 506 668 ns.
    assert_eq!(std_total, SimDuration(58_581_335));
    assert_eq!(rts + cts + data + cts, SimDuration(62_506_668));
    assert_eq!(
        l[3].end - t0,
        rts + cts + data + cts + cfg.sifs.saturating_mul(3)
    );
    assert!(net
        .events_of(0)
        .iter()
        .any(|e| e.0 == l[3].end && matches!(e.2, MacEvent::TxSuccess { retries: 0, .. })));
}

/// The gaps from the end of `after` (a frame of station 0 or 1) to the start of the next RTS
/// of station 0, for every such RTS.
fn gaps_to_next_rts(net: &Net, after: FrameKind) -> Vec<SimDuration> {
    let l = &net.log;
    l.iter()
        .enumerate()
        .filter(|(_, t)| t.kind == after)
        .filter_map(|(i, t)| {
            l[i + 1..]
                .iter()
                .find(|n| n.src == 0 && n.kind == FrameKind::Rts)
                .map(|n| n.start - t.end)
        })
        .collect()
}

#[test]
fn ns2_21b8_timeouts_and_eifs_at_150_kbps() {
    let cfg = ns2_21b8_150k();
    let slot = cfg.slot.0;
    // No CTS: ns-2.1b8's CTSTimeout = RTS + CTS + 2·SIFS from the RTS start
    // (mac-802_11.h:159), i.e. 2 026 667 + 20 000 ns after its end; then DIFS and backoff
    // slots (standard: 222 µs).
    let mut net = Net::adhoc(2, &cfg, 4);
    net.hears[1][0] = false;
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(2));
    assert_eq!(net.macs[0].counters().cts_timeouts, 7);
    let to = SimDuration(2_046_667) + cfg.difs();
    let gaps = gaps_to_next_rts(&net, FrameKind::Rts);
    assert_eq!(gaps.len(), 6);
    for g in gaps {
        assert!(g >= to && (g.0 - to.0).is_multiple_of(slot), "{g} vs {to}");
    }

    // DATA lost: ACKTimeout(len) = DATA + Ack + SIFS + DIFS from the DATA start
    // (mac-802_11.h:160), i.e. 2 026 667 + 60 000 ns after its end.
    let mut net = Net::adhoc(2, &cfg, 5);
    let mut lost = 0;
    net.lose = Some(Box::new(move |t| {
        if t.kind == FrameKind::Data && lost < 2 {
            lost += 1;
            return true;
        }
        false
    }));
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(2));
    assert_eq!(net.macs[0].counters().ack_timeouts, 2);
    let to = SimDuration(2_086_667) + cfg.difs();
    let gaps = gaps_to_next_rts(&net, FrameKind::Data);
    assert_eq!(gaps.len(), 2, "{:?}", net.log);
    for g in gaps {
        assert!(g >= to && (g.0 - to.0).is_multiple_of(slot), "{g} vs {to}");
    }

    // Ack corrupted: the sender's NAV of usec(eifs_) = ⌈10 + 50 µs + 8·62/150 000 s⌉ =
    // 3367 µs (mac-802_11.cc:169-170, 1104), then DIFS before the backoff resumes
    // (mac-802_11.cc:485-489): slot counting 3417 µs after the Ack ends (standard: 364 µs).
    let mut net = Net::adhoc(2, &cfg, 6);
    let mut lost = 0;
    net.lose = Some(Box::new(move |t| {
        if t.kind == FrameKind::Ack && lost < 1 {
            lost += 1;
            return true;
        }
        false
    }));
    net.send(0, Some(1), 1000);
    net.run_for(SimDuration::from_secs(2));
    let eifs = SimDuration::from_micros(3_417);
    assert_eq!(cfg.eifs(), eifs);
    let gaps = gaps_to_next_rts(&net, FrameKind::Ack);
    assert!(!gaps.is_empty(), "{:?}", net.log);
    let g = gaps[0];
    assert!(
        g >= eifs && (g.0 - eifs.0).is_multiple_of(slot),
        "{g} vs {eifs}"
    );
}
