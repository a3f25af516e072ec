//! Infrastructure mode: beacons, association, data through the AP, signal strength events,
//! reassociation to a stronger AP, beacon loss, class-3 frames from strangers.

use sctpsim_kernel::{SimDuration, SimTime};

use super::harness::{addr, mac, Net};
use crate::mac::infra::TU;
use crate::mac::{ApConfig, FrameKind, MacConfig, MacEvent, MacRole, RadioProfile, StaConfig};

fn cfg() -> MacConfig {
    let mut c = RadioProfile::Ns2Wavelan.mac_config();
    c.rts_threshold = 65_535;
    c
}

fn ap_role(first_tbtt: SimDuration) -> MacRole {
    MacRole::Ap(ApConfig {
        first_tbtt: Some(first_tbtt),
        ..ApConfig::new(b"sim")
    })
}

fn sta_role() -> MacRole {
    MacRole::Sta(StaConfig {
        ssid: Some(b"sim".to_vec()),
        max_missed_beacons: 3,
        ..StaConfig::default()
    })
}

#[test]
fn ap_beacons_at_every_tbtt() {
    let c = cfg();
    let mut net = Net::new(vec![mac(0, &c, ap_role(SimDuration::ZERO), 1)]);
    net.run_until(SimTime::ZERO + SimDuration::from_secs(1));
    let beacons = net.tx_of(0);
    assert_eq!(beacons.len(), 10);
    // 100 TU = 102.4 ms. The first TBTT is at 0, when the medium has not yet been idle for
    // DIFS; every later beacon finds the medium idle and no backoff pending.
    assert_eq!(beacons[0].start, SimTime::ZERO + c.difs());
    for (k, b) in beacons.iter().enumerate().skip(1) {
        assert_eq!(b.kind, FrameKind::Beacon);
        assert_eq!(b.start, SimTime::ZERO + TU.saturating_mul(100 * k as u64));
        assert_eq!(b.mode, crate::mac::PhyMode::Dsss1);
        assert_eq!(b.duration_field(), 0);
    }
    // Timestamp = TSF µs when the first timestamp bit leaves: start + 192 + 24 octets.
    let b = &beacons[1];
    let ts = u64::from_le_bytes(b.bytes[24..32].try_into().unwrap());
    assert_eq!(ts, b.start.0 / 1_000 + 192 + 192);
    // A random first TBTT comes from the MAC's stream.
    let random = mac(0, &c, MacRole::Ap(ApConfig::new(b"sim")), 1);
    assert!(random.poll_timeout().unwrap() < SimTime::ZERO + TU.saturating_mul(100));
}

#[test]
fn station_associates_and_data_flows_both_ways() {
    let c = cfg();
    let mut net = Net::new(vec![
        mac(0, &c, ap_role(SimDuration::from_millis(10)), 1),
        mac(1, &c, sta_role(), 1),
    ]);
    net.rssi[1][0] = -63.5;
    // Data queued before association waits.
    net.send(1, Some(0), 300);
    net.run_until(SimTime::ZERO + SimDuration::from_millis(100));
    let kinds: Vec<(usize, FrameKind)> = net.log.iter().map(|t| (t.src, t.kind)).collect();
    assert_eq!(
        &kinds[..9],
        &[
            (0, FrameKind::Beacon),
            (1, FrameKind::Auth),
            (0, FrameKind::Ack),
            (0, FrameKind::Auth),
            (1, FrameKind::Ack),
            (1, FrameKind::AssocReq),
            (0, FrameKind::Ack),
            (0, FrameKind::AssocResp),
            (1, FrameKind::Ack),
        ]
    );
    // Then the queued packet, to the AP with ToDS.
    assert_eq!(kinds[9], (1, FrameKind::Data));
    assert_eq!(net.log[9].bytes[1] & 0x03, 0x01);
    let sta_events: Vec<&MacEvent> = net.events_of(1).iter().map(|e| &e.2).collect();
    assert!(sta_events.contains(&&MacEvent::BeaconRssi {
        ap: addr(0),
        rssi_dbm: -63.5
    }));
    assert!(sta_events.contains(&&MacEvent::AssocChanged {
        bssid: Some(addr(0)),
        reassociation: false
    }));
    assert!(net.events_of(0).iter().any(|e| e.2
        == MacEvent::StaAssociated {
            sta: addr(1),
            aid: 1,
            reassociation: false
        }));
    assert!(net.events_of(0).iter().any(|e| matches!(
        &e.2,
        MacEvent::Delivered { src, dst, bytes, .. } if *src == addr(1) && *dst == addr(0) && bytes.len() == 300
    )));
    assert_eq!(net.macs[1].bssid(), Some(addr(0)));
    assert_eq!(net.macs[0].associated_stations(), vec![(addr(1), 1)]);
    // AP → STA with FromDS.
    net.send(0, Some(1), 200);
    net.run_for(SimDuration::from_millis(20));
    assert!(net.events_of(1).iter().any(|e| matches!(
        &e.2,
        MacEvent::Delivered { src, bytes, .. } if *src == addr(0) && bytes.len() == 200
    )));
    // One signal strength event per beacon.
    net.run_until(SimTime::ZERO + SimDuration::from_secs(1));
    let beacons = net
        .tx_of(0)
        .iter()
        .filter(|t| t.kind == FrameKind::Beacon)
        .count();
    let rssi = net
        .events_of(1)
        .iter()
        .filter(|e| matches!(e.2, MacEvent::BeaconRssi { .. }))
        .count();
    assert_eq!(beacons, rssi);
}

#[test]
fn reassociation_to_a_stronger_ap_and_beacon_loss() {
    let c = cfg();
    let mut net = Net::new(vec![
        mac(0, &c, ap_role(SimDuration::from_millis(10)), 1),
        mac(1, &c, ap_role(SimDuration::from_millis(60)), 1),
        mac(2, &c, sta_role(), 1),
    ]);
    net.rssi[2][0] = -60.0;
    net.rssi[2][1] = -80.0;
    net.run_until(SimTime::ZERO + SimDuration::from_millis(500));
    assert_eq!(net.macs[2].bssid(), Some(addr(0)));
    // The station moves: AP 1 gets stronger, but within the hysteresis nothing happens...
    net.rssi[2][0] = -70.0;
    net.rssi[2][1] = -68.0;
    net.run_until(SimTime::ZERO + SimDuration::from_millis(1_000));
    assert_eq!(net.macs[2].bssid(), Some(addr(0)));
    // ... beyond it, the station reassociates.
    net.rssi[2][1] = -60.0;
    net.run_until(SimTime::ZERO + SimDuration::from_millis(1_500));
    assert_eq!(net.macs[2].bssid(), Some(addr(1)));
    let reassoc = net
        .log
        .iter()
        .find(|t| t.kind == FrameKind::ReassocReq)
        .expect("reassociation request");
    // Current AP address field (§9.3.3.8): AP 0.
    assert_eq!(&reassoc.bytes[24 + 4..24 + 10], &addr(0).0);
    assert!(net.events_of(2).iter().any(|e| e.2
        == MacEvent::AssocChanged {
            bssid: Some(addr(1)),
            reassociation: true
        }));
    assert!(net.events_of(1).iter().any(|e| matches!(
        e.2,
        MacEvent::StaAssociated {
            reassociation: true,
            ..
        }
    )));
    // AP 1 goes silent for the station: after 3 missed beacons it is lost, and the station
    // falls back to AP 0.
    net.hears[2][1] = false;
    let silence = net.now;
    net.run_until(silence + SimDuration::from_millis(800));
    let lost = net
        .events_of(2)
        .iter()
        .find(|e| e.2 == MacEvent::BeaconLost { ap: addr(1) })
        .map(|e| e.0)
        .expect("beacon loss");
    assert!(lost > silence && lost <= silence + TU.saturating_mul(300));
    assert!(net.events_of(2).iter().any(|e| e.0 == lost
        && e.2
            == MacEvent::AssocChanged {
                bssid: None,
                reassociation: false
            }));
    assert_eq!(net.macs[2].bssid(), Some(addr(0)));
}

#[test]
fn ap_deauthenticates_data_from_unassociated_stations() {
    let c = cfg();
    // Station 1 is configured ad hoc with the AP's address as BSSID and sends ToDS frames
    // anyway: here, a station that believes it is associated after an AP restart.
    let mut net = Net::new(vec![
        mac(0, &c, ap_role(SimDuration::from_secs(5)), 1),
        mac(1, &c, sta_role(), 1),
    ]);
    let frame = sctpsim_wire::ieee80211::data_frame(
        &sctpsim_wire::ieee80211::DataRepr {
            null: false,
            to_ds: true,
            from_ds: false,
            retry: false,
            power_mgmt: false,
            more_data: false,
            duration: 314,
            addr1: addr(0),
            addr2: addr(1),
            addr3: addr(9),
            seq: Default::default(),
        },
        0x0800,
        &[0x45; 20],
    );
    let now = net.now;
    net.macs[0].handle_rx_frame(
        now,
        &frame,
        crate::mac::RxInfo::ok(crate::mac::PhyMode::Dsss2, -50.0),
    );
    net.run_for(SimDuration::from_millis(20));
    let kinds: Vec<FrameKind> = net.tx_of(0).iter().map(|t| t.kind).collect();
    assert_eq!(kinds, vec![FrameKind::Ack, FrameKind::Deauth]);
    assert_eq!(
        u16::from_le_bytes([net.tx_of(0)[1].bytes[24], net.tx_of(0)[1].bytes[25]]),
        7
    );
    assert!(!net
        .events_of(0)
        .iter()
        .any(|e| matches!(e.2, MacEvent::Delivered { .. })));
}
