//! Virtual carrier sense: the NAV from Duration fields (§10.3.2.4).

use sctpsim_kernel::{SimDuration, SimTime};

use super::harness::{addr, at_us, mac, Net, IBSS};
use crate::mac::{FrameKind, MacConfig, MacRole, MacSdu, PhyMode, RadioProfile, RxInfo};
use sctpsim_wire::ieee80211::{AckRepr, CtsRepr, FrameRepr, RtsRepr};

fn basic() -> MacConfig {
    let mut c = RadioProfile::Ns2Wavelan.mac_config();
    c.rts_threshold = 65_535;
    c
}

#[test]
fn data_duration_sets_the_nav_of_third_parties() {
    let cfg = basic();
    let mut net = Net::adhoc(3, &cfg, 1);
    net.run_until(at_us(1_000));
    net.send(0, Some(1), 500);
    let data = net.log[0].clone();
    net.run_until(data.end);
    // NAV = end of DATA + SIFS + Ack.
    let expect = data.end + SimDuration::from_micros(data.duration_field());
    assert_eq!(net.macs[2].nav_until(), expect);
    net.run_for(SimDuration::from_millis(5));
    assert_eq!(net.log[1].kind, FrameKind::Ack);
    assert_eq!(net.log[1].end, expect);
    // The receiver's own NAV is untouched by a frame addressed to it.
    assert_eq!(net.macs[1].nav_until(), SimTime::ZERO);
}

#[test]
fn nav_defers_access_beyond_physical_idle() {
    let cfg = basic();
    let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
    // A CTS for another station, received at 400 µs, reserves 5 ms.
    m.handle_medium_busy(at_us(96));
    let cts = FrameRepr::Cts(CtsRepr {
        duration: 5_000,
        ra: addr(7),
    })
    .to_bytes();
    m.handle_rx_frame(at_us(400), &cts, RxInfo::ok(PhyMode::Dsss1, -70.0));
    m.handle_medium_idle(at_us(400));
    assert_eq!(m.nav_until(), at_us(5_400));
    m.enqueue(
        at_us(500),
        MacSdu {
            dst: addr(1),
            bytes: vec![0x45; 100],
            is_control: false,
            tag: Default::default(),
        },
    );
    // The medium is busy by virtual carrier sense: a backoff is drawn and counts after NAV +
    // DIFS.
    let b = m.backoff_slots(at_us(500));
    let due = at_us(5_450) + SimDuration(u64::from(b) * cfg.slot.0);
    assert_eq!(m.poll_timeout(), Some(due));
    assert!(m.poll_transmit(super::harness::before(due)).is_none());
    assert!(m.poll_transmit(due).is_some());
}

#[test]
fn nav_only_grows_and_ignores_frames_for_this_station() {
    let cfg = basic();
    let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
    let frame = |d, ra| FrameRepr::Ack(AckRepr { duration: d, ra }).to_bytes();
    let rx = RxInfo::ok(PhyMode::Dsss1, -70.0);
    m.handle_rx_frame(at_us(100), &frame(1_000, addr(5)), rx);
    assert_eq!(m.nav_until(), at_us(1_100));
    m.handle_rx_frame(at_us(200), &frame(100, addr(5)), rx);
    assert_eq!(
        m.nav_until(),
        at_us(1_100),
        "a smaller NAV does not shorten it"
    );
    m.handle_rx_frame(at_us(300), &frame(30_000, addr(0)), rx);
    assert_eq!(
        m.nav_until(),
        at_us(1_100),
        "frames for this station do not set it"
    );
    m.handle_rx_frame(at_us(400), &frame(0x8001, addr(5)), rx);
    assert_eq!(m.nav_until(), at_us(1_100), "an AID is not a duration");
    // A corrupted frame sets no NAV.
    m.handle_rx_frame(
        at_us(500),
        &frame(9_000, addr(5)),
        RxInfo::corrupted(PhyMode::Dsss1, -90.0),
    );
    assert_eq!(m.nav_until(), at_us(1_100));
}

#[test]
fn nav_set_by_an_unanswered_rts_is_reset() {
    let cfg = RadioProfile::Ns2Wavelan.mac_config();
    let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
    let rts = FrameRepr::Rts(RtsRepr {
        duration: 20_000,
        ra: addr(8),
        ta: addr(9),
    })
    .to_bytes();
    m.handle_medium_busy(at_us(0));
    m.handle_rx_frame(at_us(352), &rts, RxInfo::ok(PhyMode::Dsss1, -70.0));
    m.handle_medium_idle(at_us(352));
    assert_eq!(m.nav_until(), at_us(20_352));
    // §10.3.2.4: 2·SIFS + CTS_Time (at the RTS rate) + aRxPHYStartDelay + 2·slot.
    let check = at_us(352 + 20 + 304 + 192 + 40);
    assert_eq!(m.poll_timeout(), Some(check));
    m.handle_timeout(check);
    assert_eq!(m.nav_until(), check);
    // With a reception after the RTS, the NAV stands.
    let mut m = mac(0, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
    m.handle_medium_busy(at_us(0));
    m.handle_rx_frame(at_us(352), &rts, RxInfo::ok(PhyMode::Dsss1, -70.0));
    m.handle_medium_idle(at_us(352));
    m.handle_medium_busy(at_us(362));
    m.handle_medium_idle(at_us(666));
    m.handle_timeout(check);
    assert_eq!(m.nav_until(), at_us(20_352));
}

#[test]
fn rts_to_an_absent_station_frees_the_medium_for_bystanders() {
    // Station 0 sends an RTS to station 1, which is gone; bystander 2 resets its NAV and
    // can use the medium long before the RTS's Duration expires.
    let cfg = RadioProfile::Ns2Wavelan.mac_config();
    let mut net = Net::adhoc(3, &cfg, 4);
    net.hears[1][0] = false;
    net.hears[0][1] = false;
    net.hears[1][2] = false;
    net.hears[2][1] = false;
    net.run_until(at_us(1_000));
    net.send(0, Some(1), 1_000);
    let rts_end = net.log[0].end;
    net.run_until(rts_end + SimDuration::from_micros(10));
    let nav = net.macs[2].nav_until();
    assert!(nav > rts_end + SimDuration::from_millis(4));
    net.send(2, Some(0), 100);
    net.run_for(SimDuration::from_millis(3));
    let first = net.tx_of(2)[0].start;
    assert!(first < nav, "{first} vs {nav}");
}
