//! Rate adaptation in the DCF: each data attempt asks the controller, each outcome is reported,
//! RTS and Acks follow the data rate, broadcast keeps its rate, and `constant` changes nothing.

use sctpsim_kernel::SimDuration;

use super::harness::{addr, Net};
use crate::mac::rate::RateControlConfig;
use crate::mac::{FrameKind, MacConfig, OfdmRate, PhyMode, RadioProfile};

fn ofdm(r: OfdmRate) -> PhyMode {
    PhyMode::Ofdm(r)
}

fn cfg(algo: &str) -> MacConfig {
    let mut c = RadioProfile::Ieee80211a.mac_config();
    c.rate_control = RateControlConfig::from_name(algo).unwrap();
    c
}

fn data_modes(net: &Net, i: usize) -> Vec<PhyMode> {
    net.tx_of(i)
        .iter()
        .filter(|t| t.kind == FrameKind::Data)
        .map(|t| t.mode)
        .collect()
}

#[test]
fn arf_climbs_on_a_clean_link_and_acks_follow() {
    let mut net = Net::adhoc(2, &cfg("arf"), 1);
    // Two batches: the interface queue holds 50.
    for _ in 0..2 {
        for _ in 0..40 {
            net.send(0, Some(1), 1000);
        }
        net.run_for(SimDuration::from_secs(1));
    }
    let modes = data_modes(&net, 0);
    assert_eq!(modes.len(), 80);
    // 10 frames at each rate, then 54 Mbit/s.
    assert!(modes[..10].iter().all(|m| *m == ofdm(OfdmRate::R6)));
    assert_eq!(modes[10], ofdm(OfdmRate::R9));
    assert!(modes[70..].iter().all(|m| *m == ofdm(OfdmRate::R54)));
    // The Acks at the control rate of each data frame; the Duration field for that Ack.
    let acks: Vec<PhyMode> = net
        .tx_of(1)
        .iter()
        .filter(|t| t.kind == FrameKind::Ack)
        .map(|t| t.mode)
        .collect();
    let c = net.macs[0].config().clone();
    for (d, a) in modes.iter().zip(&acks) {
        assert_eq!(*a, c.control_mode(*d));
    }
    let last = net
        .tx_of(0)
        .into_iter()
        .rfind(|t| t.kind == FrameKind::Data)
        .unwrap();
    let want = (c.sifs + c.ack_time(ofdm(OfdmRate::R54))).0.div_ceil(1000);
    assert_eq!(last.duration_field(), want);
    let rc = net.macs[0].rate_controller().unwrap();
    assert_eq!(rc.rate_changes(), 7);
    assert_eq!(rc.current(addr(1)), Some(ofdm(OfdmRate::R54)));
    let counters = net.macs[0].counters();
    assert_eq!(counters.tx_unicast_data, 80);
    // 10 frames at each of the eight rates.
    assert_eq!(counters.mean_data_rate_bps(), 207e6 / 8.0);
}

#[test]
fn failures_move_arf_down_and_retries_use_the_new_rate() {
    let mut net = Net::adhoc(2, &cfg("arf"), 1);
    for _ in 0..45 {
        net.send(0, Some(1), 1000);
    }
    // Every data frame faster than 12 Mbit/s is lost.
    net.lose = Some(Box::new(|t| {
        t.kind == FrameKind::Data && t.mode.rate_bps() > 12_000_000
    }));
    net.run_for(SimDuration::from_secs(1));
    let modes = data_modes(&net, 0);
    assert!(modes.iter().all(|m| m.rate_bps() <= 18_000_000));
    // The probes at 18 Mbit/s fail and the retransmission goes at 12.
    let i = modes
        .iter()
        .position(|m| *m == ofdm(OfdmRate::R18))
        .unwrap();
    assert_eq!(modes[i + 1], ofdm(OfdmRate::R12));
    assert_eq!(net.macs[0].counters().retry_drops(), 0);
    assert_eq!(net.macs[1].counters().delivered, 45);
}

#[test]
fn rts_and_broadcast_rates() {
    let mut c = cfg("aarf");
    c.rts_threshold = 0;
    let mut net = Net::adhoc(2, &c, 1);
    for _ in 0..25 {
        net.send(0, Some(1), 1000);
    }
    net.send(0, None, 500);
    net.run_for(SimDuration::from_secs(1));
    let log = net.tx_of(0);
    // Each unicast DATA follows an RTS at the control rate of the DATA's rate.
    let mut rts = None;
    let mut n = 0;
    for t in &log {
        if t.kind == FrameKind::Rts {
            rts = Some(t.mode);
        } else if t.kind == FrameKind::Data {
            if t.bytes[4] & 1 == 1 {
                // Broadcast: the lowest basic rate, no RTS.
                assert_eq!(t.mode, c.group_mode());
            } else {
                assert_eq!(rts, Some(c.control_mode(t.mode)));
                n += 1;
            }
        }
    }
    assert_eq!(n, 25);
}

#[test]
fn constant_builds_no_controller() {
    let c = RadioProfile::Ieee80211a.mac_config();
    let mut net = Net::adhoc(2, &c, 1);
    for _ in 0..5 {
        net.send(0, Some(1), 1000);
    }
    net.run_for(SimDuration::from_millis(100));
    assert!(net.macs[0].rate_controller().is_none());
    assert!(data_modes(&net, 0).iter().all(|m| *m == c.data_mode));
    assert_eq!(net.macs[0].counters().mean_data_rate_bps(), 54e6);
}
