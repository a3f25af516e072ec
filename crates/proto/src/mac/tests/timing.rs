//! Exact timing of frame exchanges and interframe spaces.

use sctpsim_kernel::{SimDuration, SimTime};

use super::harness::{at_us, mac, us, Net, IBSS};
use crate::mac::{
    tx_duration, FrameKind, MacConfig, MacEvent, MacRole, MacSdu, PhyMode, PhyStandard, Preamble,
    RadioProfile, RxInfo,
};
use sctpsim_wire::ieee80211::{DataRepr, SeqControl, DATA_OVERHEAD};

/// Every preset with RTS/CTS off.
fn basic_access_presets() -> Vec<(&'static str, MacConfig)> {
    RadioProfile::ALL
        .into_iter()
        .map(|p| {
            let mut c = p.mac_config();
            c.rts_threshold = 65_535;
            (p.name(), c)
        })
        .collect()
}

#[test]
fn single_unicast_cycle_is_exact_for_every_preset() {
    for (name, cfg) in basic_access_presets() {
        let mut net = Net::adhoc(2, &cfg, 1);
        let t0 = at_us(1_000);
        net.run_until(t0);
        // Two packets: the first finds the medium idle for longer than DIFS and no backoff
        // pending, so it goes at once (§10.3.4.2); the second waits for the post-backoff.
        net.send(0, Some(1), 1000);
        net.send(0, Some(1), 1000);
        let data = tx_duration(cfg.data_mode, 1000 + DATA_OVERHEAD, cfg.preamble);
        let ack_mode = cfg.control_mode(cfg.data_mode);
        let ack = tx_duration(ack_mode, 14, cfg.preamble);
        let first_end = t0 + data + cfg.sifs + ack;
        net.run_until(first_end);
        let b = net.macs[0].backoff_slots(first_end);
        assert!(b <= cfg.cw_min, "{name}: post-backoff {b} > CWmin");
        net.run_for(SimDuration::from_millis(50));

        let log = &net.log;
        assert_eq!(log.len(), 4, "{name}: {log:?}");
        assert_eq!(
            (log[0].src, log[0].kind, log[0].start),
            (0, FrameKind::Data, t0)
        );
        assert_eq!(log[0].end, t0 + data, "{name}");
        assert_eq!(log[0].mode, cfg.data_mode);
        // Duration field: SIFS + Ack (§9.2.5.2), in µs.
        assert_eq!(
            log[0].duration_field() * 1_000,
            (cfg.sifs + ack).0,
            "{name}"
        );
        assert_eq!((log[1].src, log[1].kind), (1, FrameKind::Ack));
        assert_eq!(log[1].start, t0 + data + cfg.sifs, "{name}");
        assert_eq!(log[1].end, first_end);
        assert_eq!(log[1].mode, ack_mode);
        // The second DATA: DIFS + backoff·slot after the Ack, then DATA + SIFS + ACK.
        let second = first_end + cfg.difs() + SimDuration(u64::from(b) * cfg.slot.0);
        assert_eq!(log[2].start, second, "{name}: b = {b}");
        assert_eq!(log[3].end, second + data + cfg.sifs + ack, "{name}");
        let ok: Vec<SimTime> = net
            .events_of(0)
            .iter()
            .filter(|e| matches!(e.2, MacEvent::TxSuccess { .. }))
            .map(|e| e.0)
            .collect();
        assert_eq!(
            ok,
            vec![first_end, second + data + cfg.sifs + ack],
            "{name}"
        );
        let delivered = net
            .events_of(1)
            .iter()
            .filter(|e| matches!(&e.2, MacEvent::Delivered { bytes, .. } if bytes.len() == 1000))
            .count();
        assert_eq!(delivered, 2, "{name}");
    }
}

#[test]
fn dsss_one_mbps_cycle_in_microseconds() {
    // The no-contention cycle of the validation (1500 B IP packet, 1 Mbit/s, basic access):
    // DIFS 50 + backoff + DATA 192 + 8·1536 = 12480 + SIFS 10 + ACK 304.
    let mut cfg = RadioProfile::Ns2Wavelan.mac_config();
    cfg.data_mode = PhyMode::Dsss1;
    cfg.rts_threshold = 65_535;
    assert_eq!(cfg.difs(), us(50));
    assert_eq!(cfg.eifs(), us(364));
    assert_eq!(cfg.response_timeout(), us(222));
    assert_eq!(
        cfg.tx_time(PhyMode::Dsss1, 1500 + DATA_OVERHEAD),
        us(12_480)
    );
    let mut net = Net::adhoc(2, &cfg, 9);
    net.send(0, Some(1), 1500);
    net.run_for(SimDuration::from_millis(20));
    // Sent at DIFS (the medium has been idle since time zero only for 0 µs).
    assert_eq!(net.log[0].start, at_us(50));
    assert_eq!(net.log[1].end, at_us(50 + 12_480 + 10 + 304));
}

#[test]
fn eifs_after_a_corrupted_frame_and_difs_after_a_good_one() {
    let cfg = RadioProfile::Ns2Wavelan.mac_config();
    for idle_first in [false, true] {
        for corrupted in [true, false] {
            let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 3);
            let t1 = at_us(5_000);
            m.handle_medium_busy(at_us(4_000));
            // Some other station's data frame (not for us) ends at t1.
            let other = sctpsim_wire::ieee80211::data_frame(
                &DataRepr {
                    null: false,
                    to_ds: false,
                    from_ds: false,
                    retry: false,
                    power_mgmt: false,
                    more_data: false,
                    duration: 0,
                    addr1: super::harness::addr(8),
                    addr2: super::harness::addr(9),
                    addr3: IBSS,
                    seq: SeqControl::default(),
                },
                0x0800,
                &[0x45; 20],
            );
            let rx = if corrupted {
                RxInfo::corrupted(PhyMode::Dsss2, -80.0)
            } else {
                RxInfo::ok(PhyMode::Dsss2, -80.0)
            };
            if idle_first {
                m.handle_medium_idle(t1);
                m.handle_rx_frame(t1, &other, rx);
            } else {
                m.handle_rx_frame(t1, &other, rx);
                m.handle_medium_idle(t1);
            }
            // A frame queued now finds the medium idle and no backoff pending: it goes after
            // EIFS (corrupted) or DIFS.
            m.enqueue(
                t1,
                MacSdu {
                    dst: super::harness::addr(1),
                    bytes: vec![0x45; 100],
                    is_control: false,
                    tag: Default::default(),
                },
            );
            let ifs = if corrupted { cfg.eifs() } else { cfg.difs() };
            assert_eq!(m.poll_timeout(), Some(t1 + ifs), "{idle_first} {corrupted}");
            assert!(m.poll_transmit(super::harness::before(t1 + ifs)).is_none());
            let tx = m.poll_transmit(t1 + ifs).expect("due");
            assert_eq!(tx.kind, FrameKind::Rts);
        }
    }
}

#[test]
fn correct_frame_ends_eifs() {
    let cfg = RadioProfile::Ns2Wavelan.mac_config();
    let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 3);
    m.handle_medium_busy(at_us(100));
    m.handle_rx_frame(
        at_us(200),
        &[1, 2, 3],
        RxInfo::corrupted(PhyMode::Dsss1, -90.0),
    );
    m.handle_medium_idle(at_us(200));
    // An Ack for someone else, correctly received, inside the EIFS.
    m.handle_medium_busy(at_us(210));
    let ack = sctpsim_wire::ieee80211::FrameRepr::Ack(sctpsim_wire::ieee80211::AckRepr {
        duration: 0,
        ra: super::harness::addr(5),
    })
    .to_bytes();
    m.handle_rx_frame(at_us(514), &ack, RxInfo::ok(PhyMode::Dsss1, -70.0));
    m.handle_medium_idle(at_us(514));
    m.enqueue(
        at_us(514),
        MacSdu {
            dst: super::harness::addr(1),
            bytes: vec![0x45; 10],
            is_control: false,
            tag: Default::default(),
        },
    );
    // Busy when the frame arrived? No: idle since 514 µs, so DIFS from there (no backoff).
    assert_eq!(m.poll_timeout(), Some(at_us(564)));
}

#[test]
fn ofdm_and_erp_timing_constants() {
    let a = RadioProfile::Ieee80211a.mac_config();
    assert_eq!(
        (a.slot, a.sifs, a.difs(), a.eifs()),
        (us(9), us(16), us(34), us(94))
    );
    assert_eq!(a.response_timeout(), us(45));
    let g = RadioProfile::Ieee80211g.mac_config();
    assert_eq!((g.slot, g.sifs, g.difs()), (us(9), us(10), us(28)));
    assert_eq!(g.eifs(), us(10 + 304 + 28));
    let b = RadioProfile::Ieee80211b.mac_config();
    assert_eq!(
        (b.slot, b.sifs, b.difs(), b.eifs()),
        (us(20), us(10), us(50), us(364))
    );
    let mut short = MacConfig::from_standard(
        PhyStandard::HrDsss,
        PhyMode::Cck11,
        vec![PhyMode::Dsss1, PhyMode::Dsss2],
        Preamble::Short,
    );
    assert_eq!(short.response_timeout(), us(126));
    short.sifs = us(12);
    assert_eq!(short.difs(), us(52));
}

/// The log of a short saturated run of `n` stations (RTS/CTS when `rts`).
fn saturated_log(
    n: usize,
    rts: bool,
    idle_first: bool,
    spurious: Option<SimDuration>,
) -> Vec<(usize, u64, FrameKind)> {
    let mut cfg = RadioProfile::Ns2Wavelan.mac_config();
    if !rts {
        cfg.rts_threshold = 65_535;
    }
    let mut net = Net::adhoc(n, &cfg, 42);
    net.idle_first = idle_first;
    net.spurious = spurious;
    net.saturated = (0..n).map(|i| (i, (i + 1) % n, 700)).collect();
    net.run_until(SimTime::ZERO + SimDuration::from_secs(2));
    net.log.iter().map(|t| (t.src, t.start.0, t.kind)).collect()
}

fn same(a: &[(usize, u64, FrameKind)], b: &[(usize, u64, FrameKind)], what: &str) {
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
        let lo = i.saturating_sub(4);
        panic!(
            "{what}: first difference at {i}: {:?} vs {:?}",
            &a[lo..(i + 2).min(a.len())],
            &b[lo..(i + 2).min(b.len())]
        );
    }
    assert_eq!(a.len(), b.len(), "{what}");
}

#[test]
fn order_of_simultaneous_inputs_and_stale_wakeups_change_nothing() {
    for (n, rts) in [(4, false), (4, true)] {
        let reference = saturated_log(n, rts, false, None);
        assert!(reference.len() > 300);
        same(
            &saturated_log(n, rts, true, None),
            &reference,
            "idle before rx",
        );
        // Stale handle_timeout calls every 3 µs (not a divisor of any slot or IFS).
        same(
            &saturated_log(n, rts, false, Some(us(3))),
            &reference,
            "spurious wake-ups",
        );
    }
}

#[test]
fn nothing_panics_on_random_or_mutated_frames() {
    use crate::mac::{ApConfig, StaConfig};
    use sctpsim_kernel::Rng;
    use sctpsim_wire::ieee80211::Ieee80211Frame;

    // Valid frames of every kind the MAC sends, captured from a small infrastructure run
    // with data and RTS/CTS.
    let cfg = RadioProfile::Ns2Wavelan.mac_config();
    let mut net = Net::new(vec![
        mac(
            0,
            &cfg,
            MacRole::Ap(ApConfig {
                first_tbtt: Some(SimDuration::ZERO),
                ..ApConfig::new(b"x")
            }),
            1,
        ),
        mac(1, &cfg, MacRole::Sta(StaConfig::default()), 1),
    ]);
    net.run_until(at_us(200_000));
    net.send(1, Some(0), 300);
    net.send(0, Some(1), 300);
    net.run_until(at_us(400_000));
    let samples: Vec<Vec<u8>> = net.log.iter().map(|t| t.bytes.clone()).collect();
    assert!(samples.len() > 10);

    let mut rng = Rng::from_seed(7);
    let roles = [
        MacRole::AdHoc { bssid: IBSS },
        MacRole::Ap(ApConfig::new(b"x")),
        MacRole::Sta(StaConfig::default()),
    ];
    for role in roles {
        let mut m = mac(0, &cfg, role, 3);
        let mut t = 0u64;
        for k in 0..20_000u32 {
            t += 1 + rng.below(400);
            let now = at_us(t);
            let mut frame = if k % 3 == 0 {
                let len = rng.below(120) as usize;
                (0..len).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>()
            } else {
                samples[rng.below(samples.len() as u64) as usize].clone()
            };
            // Mutate a few bytes, and usually repair the FCS so the MAC parses deeper.
            for _ in 0..rng.below(4) {
                if !frame.is_empty() {
                    let i = rng.below(frame.len() as u64) as usize;
                    frame[i] = rng.next_u64() as u8;
                }
            }
            if rng.bernoulli(0.8) && frame.len() >= 4 {
                Ieee80211Frame::new_unchecked(&mut frame[..]).fill_fcs();
            }
            match rng.below(6) {
                0 => m.handle_medium_busy(now),
                1 => m.handle_medium_idle(now),
                2 => m.handle_timeout(now),
                3 => m.handle_tx_end(now),
                _ => {}
            }
            let rx = if rng.bernoulli(0.9) {
                RxInfo::ok(PhyMode::Dsss1, -70.0)
            } else {
                RxInfo::corrupted(PhyMode::Dsss2, -90.0)
            };
            m.handle_rx_frame(now, &frame, rx);
            if rng.bernoulli(0.05) {
                m.enqueue(
                    now,
                    MacSdu {
                        dst: super::harness::addr(rng.below(3) as usize),
                        bytes: vec![0x45; rng.below(1500) as usize],
                        is_control: rng.bernoulli(0.2),
                        tag: Default::default(),
                    },
                );
            }
            while m.poll_transmit(now).is_some() {}
            while m.poll_event().is_some() {}
            if let Some(d) = m.poll_timeout() {
                assert!(d >= SimTime::ZERO);
            }
        }
    }
}
