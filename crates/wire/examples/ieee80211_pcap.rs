//! Writes a capture of every 802.11 frame kind this crate emits (data with LLC/SNAP + IPv4 +
//! UDP in the three address layouts, RTS, CTS, ACK, beacon, probe request/response,
//! authentication, (re)association request/response, deauthentication, disassociation), each
//! with a real FCS, as LINKTYPE_IEEE802_11 (105), for checking with Wireshark/tshark:
//!
//! ```text
//! cargo run -p sctpsim-wire --example ieee80211_pcap -- /tmp/wlan.pcap
//! tshark -r /tmp/wlan.pcap -o wlan.check_fcs:TRUE -o wlan.check_checksum:TRUE \
//!        -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
//!        -Y '_ws.malformed || _ws.expert.severity >= error || wlan.fcs.status == "Bad"'
//! ```
//!
//! The filter must print nothing. `wlan.check_fcs` ("Assume packets have FCS") is needed
//! because link type 105 does not say whether the FCS is present; `wlan.check_checksum`
//! verifies it.

use std::fs::File;
use std::io::BufWriter;

use sctpsim_wire::ieee80211::{
    capability, data_frame, AckRepr, AssocReqBody, AssocRespBody, AuthBody, BeaconBody, CtsRepr,
    DataRepr, Elements, FrameRepr, MgmtBody, MgmtRepr, ReassocReqBody, RtsRepr, SeqControl,
    AUTH_OPEN_SYSTEM, ETHERTYPE_IPV4,
};
use sctpsim_wire::pcap::LINKTYPE_IEEE802_11;
use sctpsim_wire::{udp_datagram, Ipv4Addr, MacAddr, PcapWriter, UdpRepr};

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "ieee80211.pcap".to_owned());
    let ap = MacAddr::local(1, 0);
    let ap2 = MacAddr::local(2, 0);
    let sta = MacAddr::local(7, 0);
    let peer = MacAddr::local(8, 0);
    let ibss = MacAddr([0x02, 0xff, 0, 0, 0, 1]);
    let ssid: &[u8] = b"sctpsim";
    // 1, 2, 5.5, 11 Mbit/s (basic: 1 and 2), then ERP-OFDM 6..54 (Extended Supported Rates).
    let rates = [
        0x82, 0x84, 0x0b, 0x16, 0x0c, 0x12, 0x18, 0x24, 0x30, 0x48, 0x60, 0x6c,
    ];
    let elements = Elements::with_rates(Some(ssid), &rates, Some(1));
    let mut seq = 0u16;
    let mut next_seq = || {
        seq = (seq + 1) & 0x0fff;
        SeqControl { seq, frag: 0 }
    };
    let mgmt = |da, sa, bssid, seq, body| {
        FrameRepr::Mgmt(MgmtRepr {
            retry: false,
            duration: if MacAddr::is_group(&da) { 0 } else { 314 },
            da,
            sa,
            bssid,
            seq,
            body,
        })
        .to_bytes()
    };

    let mut frames: Vec<Vec<u8>> = Vec::new();
    let beacon = BeaconBody {
        timestamp: 102_400,
        interval_tu: 100,
        capability: capability::ESS | capability::SHORT_SLOT_TIME,
        elements,
    };
    frames.push(mgmt(
        MacAddr::BROADCAST,
        ap,
        ap,
        next_seq(),
        MgmtBody::Beacon(beacon),
    ));
    frames.push(mgmt(
        MacAddr::BROADCAST,
        sta,
        MacAddr::BROADCAST,
        next_seq(),
        MgmtBody::ProbeReq(elements),
    ));
    frames.push(mgmt(sta, ap, ap, next_seq(), MgmtBody::ProbeResp(beacon)));
    for (da, sa, transaction) in [(ap, sta, 1), (sta, ap, 2)] {
        frames.push(mgmt(
            da,
            sa,
            ap,
            next_seq(),
            MgmtBody::Auth(AuthBody {
                algorithm: AUTH_OPEN_SYSTEM,
                transaction,
                status: 0,
            }),
        ));
    }
    frames.push(mgmt(
        ap,
        sta,
        ap,
        next_seq(),
        MgmtBody::AssocReq(AssocReqBody {
            capability: capability::ESS,
            listen_interval: 10,
            elements: Elements {
                ds_channel: None,
                ..elements
            },
        }),
    ));
    let resp = AssocRespBody {
        capability: capability::ESS,
        status: 0,
        aid: 1,
        elements: Elements::with_rates(None, &rates, None),
    };
    frames.push(mgmt(sta, ap, ap, next_seq(), MgmtBody::AssocResp(resp)));
    frames.push(mgmt(
        ap2,
        sta,
        ap2,
        next_seq(),
        MgmtBody::ReassocReq(ReassocReqBody {
            capability: capability::ESS,
            listen_interval: 10,
            current_ap: ap,
            elements: Elements {
                ds_channel: None,
                ..elements
            },
        }),
    ));
    frames.push(mgmt(sta, ap2, ap2, next_seq(), MgmtBody::ReassocResp(resp)));

    // Data: an RTS/CTS/DATA/ACK exchange in each address layout.
    let udp = UdpRepr {
        src_port: 40000,
        dst_port: 9,
    };
    let (a, b) = (Ipv4Addr::new(10, 0, 0, 7), Ipv4Addr::new(10, 0, 0, 8));
    for (i, (to_ds, from_ds, addr1, addr2, addr3)) in [
        (false, false, peer, sta, ibss),
        (true, false, ap, sta, peer),
        (false, true, sta, ap, peer),
    ]
    .into_iter()
    .enumerate()
    {
        let payload: Vec<u8> = (0..100 + 400 * i).map(|k| (k * 13) as u8).collect();
        let ip = udp_datagram(a, b, 64, i as u16, &udp, &payload);
        frames.push(
            FrameRepr::Rts(RtsRepr {
                duration: 2_000,
                ra: addr1,
                ta: addr2,
            })
            .to_bytes(),
        );
        frames.push(
            FrameRepr::Cts(CtsRepr {
                duration: 1_600,
                ra: addr2,
            })
            .to_bytes(),
        );
        let header = DataRepr {
            null: false,
            to_ds,
            from_ds,
            retry: i == 2,
            power_mgmt: false,
            more_data: false,
            duration: 314,
            addr1,
            addr2,
            addr3,
            seq: next_seq(),
        };
        frames.push(data_frame(&header, ETHERTYPE_IPV4, &ip));
        frames.push(
            FrameRepr::Ack(AckRepr {
                duration: 0,
                ra: addr2,
            })
            .to_bytes(),
        );
    }
    // A broadcast data frame in an IBSS and a Null frame.
    let bcast = DataRepr {
        null: false,
        to_ds: false,
        from_ds: false,
        retry: false,
        power_mgmt: false,
        more_data: false,
        duration: 0,
        addr1: MacAddr::BROADCAST,
        addr2: sta,
        addr3: ibss,
        seq: next_seq(),
    };
    let ip = udp_datagram(a, Ipv4Addr::new(255, 255, 255, 255), 1, 9, &udp, b"hello");
    frames.push(data_frame(&bcast, ETHERTYPE_IPV4, &ip));
    let null = DataRepr {
        null: true,
        to_ds: true,
        addr1: ap,
        addr3: ap,
        duration: 314,
        seq: next_seq(),
        ..bcast
    };
    frames.push(FrameRepr::Data(null, &[]).to_bytes());
    frames.push(mgmt(
        sta,
        ap,
        ap,
        next_seq(),
        MgmtBody::Disassoc { reason: 8 },
    ));
    frames.push(mgmt(
        ap,
        sta,
        ap,
        next_seq(),
        MgmtBody::Deauth { reason: 3 },
    ));

    let mut writer = PcapWriter::new(BufWriter::new(File::create(&path)?), LINKTYPE_IEEE802_11)?;
    for (i, f) in frames.iter().enumerate() {
        writer.write_packet(i as u64 * 1_000_000 + 123, f)?;
    }
    writer.flush()?;
    println!("wrote {} frames to {path}", writer.packets_written());
    Ok(())
}
