//! Property tests: nothing panics on garbage, truncations or corruptions; data frames and
//! management frames round-trip.

use proptest::prelude::*;

use super::*;

fn addr() -> impl Strategy<Value = MacAddr> {
    any::<[u8; 6]>().prop_map(MacAddr)
}

prop_compose! {
    fn data_repr()(to_ds in any::<bool>(), from_ds in any::<bool>(), retry in any::<bool>(),
                   duration in 0u16..0x8000, a1 in addr(), a2 in addr(), a3 in addr(),
                   seq in 0u16..4096) -> DataRepr {
        DataRepr {
            null: false,
            to_ds,
            from_ds: from_ds && !to_ds,
            retry,
            power_mgmt: false,
            more_data: false,
            duration,
            addr1: a1,
            addr2: a2,
            addr3: a3,
            seq: SeqControl { seq, frag: 0 },
        }
    }
}

proptest! {
    #[test]
    fn garbage_never_panics(data in proptest::collection::vec(any::<u8>(), 0..200)) {
        fuzz_parse_ieee80211(&data);
        // With a correct FCS the parsers get past the checksum.
        let mut fixed = data.clone();
        if fixed.len() >= FCS_LEN {
            Ieee80211Frame::new_unchecked(&mut fixed[..]).fill_fcs();
        }
        fuzz_parse_ieee80211(&fixed);
        let _ = Elements::parse(&data);
        let _ = LlcSnapPacket::new_checked(&data[..]).map(|p| LlcSnapRepr::parse(&p));
        for kind in 0..16u8 {
            let _ = MgmtBody::parse(FrameKind::from_type_subtype(0, kind), &data);
        }
    }

    #[test]
    fn data_frames_round_trip(h in data_repr(), payload in proptest::collection::vec(any::<u8>(), 0..300)) {
        let bytes = data_frame(&h, ETHERTYPE_IPV4, &payload);
        prop_assert_eq!(bytes.len(), DATA_OVERHEAD + payload.len());
        let FrameRepr::Data(parsed, body) = FrameRepr::parse_bytes(&bytes).unwrap() else {
            panic!("not a data frame");
        };
        prop_assert_eq!(parsed, h);
        let llc = LlcSnapPacket::new_checked(body).unwrap();
        prop_assert_eq!(LlcSnapRepr::parse(&llc).unwrap().ethertype, ETHERTYPE_IPV4);
        prop_assert_eq!(llc.payload(), &payload[..]);
        prop_assert_eq!(FrameRepr::Data(parsed, body).to_bytes(), bytes);
    }

    #[test]
    fn corruptions_are_detected_or_harmless(h in data_repr(), payload in proptest::collection::vec(any::<u8>(), 0..100),
                                            cut in 0usize..200, flip in 0usize..1600) {
        let bytes = data_frame(&h, ETHERTYPE_IPV4, &payload);
        let cut = cut.min(bytes.len());
        fuzz_parse_ieee80211(&bytes[..cut]);
        let mut flipped = bytes.clone();
        let bit = flip % (flipped.len() * 8);
        flipped[bit / 8] ^= 1 << (bit % 8);
        // CRC-32 detects every single-bit error.
        prop_assert!(FrameRepr::parse_bytes(&flipped).is_err());
        fuzz_parse_ieee80211(&flipped);
    }

    #[test]
    fn beacons_round_trip(ts in any::<u64>(), interval in any::<u16>(), cap in any::<u16>(),
                          ssid in proptest::collection::vec(any::<u8>(), 0..33),
                          rates in proptest::collection::vec(any::<u8>(), 0..20),
                          channel in proptest::option::of(any::<u8>()), sa in addr()) {
        let repr = FrameRepr::Mgmt(MgmtRepr {
            retry: false,
            duration: 0,
            da: MacAddr::BROADCAST,
            sa,
            bssid: sa,
            seq: SeqControl { seq: 1, frag: 0 },
            body: MgmtBody::Beacon(BeaconBody {
                timestamp: ts,
                interval_tu: interval,
                capability: cap,
                elements: Elements::with_rates(Some(&ssid), &rates, channel),
            }),
        });
        let bytes = repr.to_bytes();
        prop_assert_eq!(FrameRepr::parse_bytes(&bytes).unwrap(), repr);
    }
}

/// One frame of every kind this module emits (FCS included).
fn sample_frames() -> Vec<Vec<u8>> {
    let ap = MacAddr::local(1, 0);
    let sta = MacAddr::local(7, 0);
    let rates = [
        0x82, 0x84, 0x0b, 0x16, 0x0c, 0x12, 0x18, 0x24, 0x30, 0x48, 0x60, 0x6c,
    ];
    let elements = Elements::with_rates(Some(b"sim"), &rates, Some(6));
    let mgmt = |da: MacAddr, sa: MacAddr, body: MgmtBody| {
        FrameRepr::Mgmt(MgmtRepr {
            retry: false,
            duration: if da.is_group() { 0 } else { 314 },
            da,
            sa,
            bssid: ap,
            seq: SeqControl { seq: 9, frag: 0 },
            body,
        })
        .to_bytes()
    };
    let beacon = BeaconBody {
        timestamp: 1_234_567,
        interval_tu: 100,
        capability: capability::ESS,
        elements,
    };
    let resp = AssocRespBody {
        capability: capability::ESS,
        status: status::SUCCESS,
        aid: 3,
        elements: Elements::with_rates(None, &rates, None),
    };
    let no_ds = Elements {
        ds_channel: None,
        ..elements
    };
    let data = DataRepr {
        null: false,
        to_ds: true,
        from_ds: false,
        retry: true,
        power_mgmt: false,
        more_data: false,
        duration: 314,
        addr1: ap,
        addr2: sta,
        addr3: MacAddr::BROADCAST,
        seq: SeqControl { seq: 4095, frag: 0 },
    };
    // A minimal valid IPv4 header (checksum computed below) carrying nothing.
    let mut ip = vec![
        0x45, 0, 0, 20, 0, 1, 0x40, 0, 64, 253, 0, 0, 10, 0, 0, 7, 10, 0, 0, 1,
    ];
    let sum: u32 = ip
        .chunks(2)
        .map(|c| u32::from(u16::from_be_bytes([c[0], c[1]])))
        .sum();
    let folded = !(((sum & 0xffff) + (sum >> 16)) as u16);
    ip[10..12].copy_from_slice(&folded.to_be_bytes());
    vec![
        mgmt(MacAddr::BROADCAST, ap, MgmtBody::Beacon(beacon)),
        mgmt(MacAddr::BROADCAST, sta, MgmtBody::ProbeReq(elements)),
        mgmt(sta, ap, MgmtBody::ProbeResp(beacon)),
        mgmt(
            ap,
            sta,
            MgmtBody::Auth(AuthBody {
                algorithm: AUTH_OPEN_SYSTEM,
                transaction: 1,
                status: 0,
            }),
        ),
        mgmt(
            ap,
            sta,
            MgmtBody::AssocReq(AssocReqBody {
                capability: 0,
                listen_interval: 1,
                elements: no_ds,
            }),
        ),
        mgmt(sta, ap, MgmtBody::AssocResp(resp)),
        mgmt(
            ap,
            sta,
            MgmtBody::ReassocReq(ReassocReqBody {
                capability: 0,
                listen_interval: 1,
                current_ap: MacAddr::local(2, 0),
                elements: no_ds,
            }),
        ),
        mgmt(sta, ap, MgmtBody::ReassocResp(resp)),
        mgmt(
            sta,
            ap,
            MgmtBody::Deauth {
                reason: reason::CLASS3_FROM_NONASSOC,
            },
        ),
        mgmt(
            ap,
            sta,
            MgmtBody::Disassoc {
                reason: reason::DISASSOC_LEAVING,
            },
        ),
        FrameRepr::Rts(RtsRepr {
            duration: 1_000,
            ra: ap,
            ta: sta,
        })
        .to_bytes(),
        FrameRepr::Cts(CtsRepr {
            duration: 600,
            ra: sta,
        })
        .to_bytes(),
        data_frame(&data, ETHERTYPE_IPV4, &ip),
        FrameRepr::Ack(AckRepr {
            duration: 0,
            ra: sta,
        })
        .to_bytes(),
        FrameRepr::Data(DataRepr { null: true, ..data }, &[]).to_bytes(),
    ]
}

#[test]
fn sample_frames_parse_back() {
    for f in sample_frames() {
        let repr = FrameRepr::parse_bytes(&f).unwrap();
        assert_eq!(repr.to_bytes(), f);
    }
}

/// Wireshark's 802.11 dissector, told that frames end in an FCS and to validate it, finds no
/// malformed frame, no expert error and a good FCS in each sample frame. Skipped (with a note
/// on stderr) when tshark is not installed.
#[test]
fn tshark_dissects_every_frame_kind_with_a_good_fcs() {
    use std::process::Command;
    if !Command::new("tshark")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("tshark not installed: skipping the Wireshark cross-check");
        return;
    }
    let frames = sample_frames();
    let path = std::env::temp_dir().join(format!("sctpsim-ieee80211-{}.pcap", std::process::id()));
    let mut w = crate::PcapWriter::new(Vec::new(), crate::pcap::LINKTYPE_IEEE802_11).unwrap();
    for (i, f) in frames.iter().enumerate() {
        w.write_packet(i as u64 * 1_000, f).unwrap();
    }
    std::fs::write(&path, w.into_inner()).unwrap();
    let prefs = [
        "-o",
        "wlan.check_fcs:TRUE",
        "-o",
        "wlan.check_checksum:TRUE",
    ];
    let bad = Command::new("tshark")
        .arg("-r")
        .arg(&path)
        .args(prefs)
        .args(["-Y", "_ws.malformed || _ws.expert.severity >= error"])
        .output()
        .unwrap();
    let status = Command::new("tshark")
        .arg("-r")
        .arg(&path)
        .args(prefs)
        .args(["-T", "fields", "-e", "wlan.fcs.status"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(bad.status.success());
    assert_eq!(String::from_utf8_lossy(&bad.stdout), "");
    // wlan.fcs.status: 1 = Good.
    let statuses = String::from_utf8_lossy(&status.stdout).to_string();
    assert_eq!(
        statuses.lines().collect::<Vec<_>>(),
        vec!["1"; frames.len()]
    );
}
