//! Duplicate detection (§10.3.2.14.3) and group-addressed delivery.

use sctpsim_kernel::SimDuration;

use super::harness::{addr, at_us, mac, Net, IBSS};
use crate::mac::{FrameKind, MacConfig, MacEvent, MacRole, PhyMode, RadioProfile, RxInfo};
use sctpsim_wire::ieee80211::{data_frame, DataRepr, SeqControl, ETHERTYPE_IPV4};

fn basic() -> MacConfig {
    let mut c = RadioProfile::Ns2Wavelan.mac_config();
    c.rts_threshold = 65_535;
    c
}

fn delivered(net: &Net, i: usize) -> usize {
    net.events_of(i)
        .iter()
        .filter(|e| matches!(e.2, MacEvent::Delivered { .. }))
        .count()
}

#[test]
fn lost_ack_retransmission_is_acked_but_delivered_once() {
    let cfg = basic();
    let mut net = Net::adhoc(2, &cfg, 1);
    let mut acks = 0;
    net.lose = Some(Box::new(move |t| {
        if t.kind == FrameKind::Ack {
            acks += 1;
            return acks == 1;
        }
        false
    }));
    net.send(0, Some(1), 400);
    net.run_for(SimDuration::from_millis(50));
    let kinds: Vec<FrameKind> = net.log.iter().map(|t| t.kind).collect();
    assert_eq!(
        kinds,
        vec![
            FrameKind::Data,
            FrameKind::Ack,
            FrameKind::Data,
            FrameKind::Ack
        ]
    );
    assert!(net.log[2].retry());
    assert_eq!(net.macs[1].counters().rx_duplicates, 1);
    assert_eq!(net.macs[1].counters().tx_ack, 2);
    assert_eq!(delivered(&net, 1), 1);
    assert_eq!(net.macs[0].counters().tx_success, 1);
}

#[test]
fn same_sequence_without_retry_bit_is_new() {
    let cfg = basic();
    let mut m = mac(1, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
    let frame = |retry: bool, seq: u16| {
        data_frame(
            &DataRepr {
                null: false,
                to_ds: false,
                from_ds: false,
                retry,
                power_mgmt: false,
                more_data: false,
                duration: 314,
                addr1: addr(1),
                addr2: addr(0),
                addr3: IBSS,
                seq: SeqControl { seq, frag: 0 },
            },
            ETHERTYPE_IPV4,
            &[0x45, 0, 0, 0],
        )
    };
    let rx = RxInfo::ok(PhyMode::Dsss2, -60.0);
    let mut count = 0;
    for (t, retry, seq) in [
        (1, false, 7),
        (2, true, 7),
        (3, false, 7),
        (4, true, 8),
        (5, true, 8),
    ] {
        m.handle_rx_frame(at_us(t * 10_000), &frame(retry, seq), rx);
        while let Some(e) = m.poll_event() {
            if matches!(e, MacEvent::Delivered { .. }) {
                count += 1;
            }
        }
        // Every one is Acked.
        let ack = m.poll_transmit(at_us(t * 10_000 + 10)).expect("ack");
        assert_eq!(ack.kind, FrameKind::Ack);
        m.handle_tx_end(at_us(t * 10_000 + 10) + ack.duration);
    }
    // seq 7 new, 7+retry dup, 7 without retry new, 8+retry new (cache differs), 8+retry dup.
    assert_eq!(count, 3);
    assert_eq!(m.counters().rx_duplicates, 2);
    // Another transmitter with the same sequence number is not a duplicate.
    let mut other = frame(true, 8);
    other[10..16].copy_from_slice(&addr(5).0);
    sctpsim_wire::ieee80211::Ieee80211Frame::new_unchecked(&mut other[..]).fill_fcs();
    m.handle_rx_frame(at_us(90_000), &other, rx);
    assert!(std::iter::from_fn(|| m.poll_event()).any(|e| matches!(e, MacEvent::Delivered { .. })));
}

#[test]
fn group_frames_reach_everyone_and_unicast_only_its_receiver() {
    let cfg = basic();
    let mut net = Net::adhoc(4, &cfg, 2);
    net.send(0, None, 64);
    net.run_for(SimDuration::from_millis(10));
    net.send(0, Some(2), 64);
    net.run_for(SimDuration::from_millis(10));
    assert_eq!(delivered(&net, 1), 1);
    assert_eq!(delivered(&net, 2), 2);
    assert_eq!(delivered(&net, 3), 1);
    let srcs: Vec<_> = net
        .events_of(2)
        .iter()
        .filter_map(|e| match &e.2 {
            MacEvent::Delivered {
                src, dst, bytes, ..
            } => Some((*src, *dst, bytes.len())),
            _ => None,
        })
        .collect();
    assert_eq!(
        srcs,
        vec![
            (addr(0), crate::mac::MacAddr::BROADCAST, 64),
            (addr(0), addr(2), 64)
        ]
    );
}

#[test]
fn promiscuous_mode_reports_overheard_unicast() {
    let mut cfg = basic();
    cfg.promiscuous = true;
    let mut net = Net::adhoc(3, &cfg, 3);
    net.send(0, Some(1), 80);
    net.run_for(SimDuration::from_millis(10));
    assert!(net.events_of(2).iter().any(|e| matches!(
        &e.2,
        MacEvent::Overheard { src, dst, bytes, .. } if *src == addr(0) && *dst == addr(1) && bytes.len() == 80
    )));
    assert_eq!(delivered(&net, 2), 0);
}

#[test]
fn frames_of_another_ibss_are_not_delivered() {
    let cfg = basic();
    let mut m = mac(1, &cfg, MacRole::AdHoc { bssid: IBSS }, 1);
    let f = data_frame(
        &DataRepr {
            null: false,
            to_ds: false,
            from_ds: false,
            retry: false,
            power_mgmt: false,
            more_data: false,
            duration: 0,
            addr1: crate::mac::MacAddr::BROADCAST,
            addr2: addr(0),
            addr3: crate::mac::MacAddr([2, 0xee, 0, 0, 0, 1]),
            seq: SeqControl::default(),
        },
        ETHERTYPE_IPV4,
        &[0x45],
    );
    m.handle_rx_frame(at_us(10), &f, RxInfo::ok(PhyMode::Dsss1, -50.0));
    assert_eq!(m.poll_event(), None);
}

#[test]
fn packet_tags_travel_with_delivered_overheard_and_failed_packets() {
    use sctpsim_kernel::{FlowId, PacketTag};
    let mut cfg = basic();
    cfg.promiscuous = true;
    let mut net = Net::adhoc(3, &cfg, 4);
    let tag = |uid| PacketTag {
        flow: Some(FlowId(7)),
        uid,
    };
    net.send_tagged(0, Some(1), 80, tag(11));
    net.run_for(SimDuration::from_millis(10));
    let tag_of = |net: &Net, i: usize| {
        net.events_of(i).iter().find_map(|e| match &e.2 {
            MacEvent::Delivered { tag, .. } | MacEvent::Overheard { tag, .. } => Some(*tag),
            _ => None,
        })
    };
    assert_eq!(tag_of(&net, 1), Some(tag(11)));
    assert_eq!(tag_of(&net, 2), Some(tag(11)));
    // Station 2 stops hearing anyone: a unicast to it fails at the retry limit with its tag.
    for i in 0..3 {
        net.hears[2][i] = false;
        net.hears[i][2] = false;
    }
    net.send_tagged(0, Some(2), 80, tag(12));
    net.run_for(SimDuration::from_millis(500));
    let failed = net.events_of(0).iter().find_map(|e| match &e.2 {
        MacEvent::TxFailed { sdu, .. } => Some(sdu.tag),
        _ => None,
    });
    assert_eq!(failed, Some(tag(12)));
}
