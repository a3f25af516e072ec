//! Cross-check with Wireshark's ICMP, Mobile IP and IP dissectors: the capture of
//! `examples/mip_pcap.rs` (agent advertisement, agent solicitation, registration request and
//! reply on UDP 434, an IP in IP tunnelled UDP datagram) must dissect without a malformed packet
//! or an expert error with IPv4 and UDP checksum validation on (tshark always validates ICMP
//! checksums), and the field values tshark shows must equal those our own parsers read back.
//!
//! Skipped (with a note on stderr) when `tshark` is not installed.

#[allow(dead_code)]
#[path = "../examples/mip_pcap.rs"]
mod sample;
mod tshark_common;

use std::collections::BTreeMap;

use sctpsim_wire::mip::advert::AgentAdvertisementPacket;
use sctpsim_wire::mip::{
    ipip_decapsulate, AdvertExtension, AgentAdvertisementRepr, Extension, RegistrationMessage,
};
use sctpsim_wire::{IpProtocol, Ipv4Packet, Ipv4Repr, UdpPacket};

fn packets() -> Vec<Vec<u8>> {
    sample::sample_packets()
        .into_iter()
        .map(|(_, p)| p)
        .collect()
}

/// The preferences every run uses: checksum validation on.
const PREFS: &[&str] = &["ip.check_checksum:TRUE", "udp.check_checksum:TRUE"];

fn tshark(path: &std::path::Path, args: &[&str]) -> String {
    tshark_common::run(path, PREFS, args)
}

const FLAGGED: &str = "_ws.malformed || _ws.expert.severity >= error";

#[test]
fn tshark_reports_no_error() {
    if !tshark_common::available() {
        eprintln!("tshark not installed: skipping the Wireshark cross-check");
        return;
    }
    let path = tshark_common::write_pcap("mip-clean", &packets());
    let flagged = tshark(&path, &["-V", "-Y", FLAGGED]);
    assert_eq!(flagged, "", "tshark flagged packets");
    // Every checksum present was verified good (1); the tunnel frame has two IPv4 headers.
    let status = tshark(
        &path,
        &[
            "-T",
            "fields",
            "-E",
            "separator=|",
            "-e",
            "ip.checksum.status",
            "-e",
            "udp.checksum.status",
            "-e",
            "icmp.checksum.status",
        ],
    );
    assert_eq!(
        status.lines().collect::<Vec<_>>(),
        ["1||1", "1||1", "1|1|", "1|1|", "1,1|1|"],
        "{status}"
    );

    // The same filter catches a damaged registration request (UDP checksum). tshark rates a
    // bad ICMP checksum only a warning, so a damaged advertisement is caught by its status.
    let mut bad = packets();
    let last = bad[2].len() - 1;
    bad[2][last] ^= 0x01;
    bad[0][30] ^= 0x01;
    let path_bad = tshark_common::write_pcap("mip-damaged", &bad);
    let flagged = tshark(&path_bad, &["-Y", FLAGGED]);
    assert_eq!(flagged.lines().count(), 1, "{flagged}");
    assert!(flagged.contains("Reg Request"), "{flagged}");
    let bad_icmp = tshark(&path_bad, &["-Y", "icmp.checksum.status == 0"]);
    assert_eq!(bad_icmp.lines().count(), 1, "{bad_icmp}");
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(path_bad);
}

/// Field name → occurrences, in dissection order.
#[derive(Default)]
struct Fields(BTreeMap<&'static str, Vec<String>>);

impl Fields {
    fn push(&mut self, field: &'static str, value: impl ToString) {
        self.0.entry(field).or_default().push(value.to_string());
    }

    fn extension(&mut self, e: &Extension) {
        self.push("mip.ext.type", e.kind);
        self.push("mip.ext.len", e.data.len());
        if let (Some(spi), Some(auth)) = (e.spi(), e.authenticator()) {
            self.push("mip.auth.spi", format!("0x{spi:08x}"));
            self.push("mip.auth.auth", hex(auth));
        }
    }

    fn advertisement(&mut self, a: &AgentAdvertisementRepr) {
        self.push("icmp.type", 9);
        self.push("icmp.code", if a.mobility_only { 16 } else { 0 });
        self.push("icmp.num_addrs", a.routers.len());
        self.push("icmp.addr_entry_size", 2);
        self.push("icmp.lifetime", a.lifetime_s);
        for r in &a.routers {
            self.push("icmp.router_address", r.address);
            self.push("icmp.pref_level", r.preference);
        }
        let m = &a.mobility;
        self.push("icmp.mip.type", 16);
        self.push("icmp.mip.length", 6 + 4 * m.care_of_addresses.len());
        self.push("icmp.mip.seq", m.sequence_number);
        self.push("icmp.mip.life", m.registration_lifetime_s);
        self.push("icmp.mip.flags", format!("0x{:04x}", m.flags.bits()));
        self.push("icmp.mip.f", u8::from(m.flags.foreign_agent));
        self.push("icmp.mip.h", u8::from(m.flags.home_agent));
        self.push("icmp.mip.r", u8::from(m.flags.registration_required));
        self.push("icmp.mip.rt", u8::from(m.flags.reverse_tunneling));
        self.push("icmp.mip.g", u8::from(m.flags.gre_encapsulation));
        for coa in &m.care_of_addresses {
            self.push("icmp.mip.coa", coa);
        }
        for e in &a.extensions {
            if let AdvertExtension::PrefixLengths(p) = e {
                self.push("icmp.mip.type", 19);
                self.push("icmp.mip.length", p.len());
                for len in p {
                    self.push("icmp.mip.prefixlength", len);
                }
            }
        }
    }

    fn registration(&mut self, m: &RegistrationMessage) {
        match m {
            RegistrationMessage::Request(r) => {
                self.push("mip.type", 1);
                self.push("mip.flags", format!("0x{:02x}", r.flags.bits()));
                self.push("mip.t", u8::from(r.flags.reverse_tunneling));
                self.push("mip.life", r.lifetime_s);
                self.push("mip.homeaddr", r.home_address);
                self.push("mip.haaddr", r.home_agent);
                self.push("mip.coa", r.care_of_address);
                r.extensions.iter().for_each(|e| self.extension(e));
            }
            RegistrationMessage::Reply(r) => {
                self.push("mip.type", 3);
                self.push("mip.code", u8::from(r.code));
                self.push("mip.life", r.lifetime_s);
                self.push("mip.homeaddr", r.home_address);
                self.push("mip.haaddr", r.home_agent);
                r.extensions.iter().for_each(|e| self.extension(e));
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every field the expectation below can mention.
const FIELDS: &[&str] = &[
    "ip.src",
    "ip.dst",
    "ip.proto",
    "ip.ttl",
    "udp.srcport",
    "udp.dstport",
    "udp.payload",
    "icmp.type",
    "icmp.code",
    "icmp.num_addrs",
    "icmp.addr_entry_size",
    "icmp.lifetime",
    "icmp.router_address",
    "icmp.pref_level",
    "icmp.mip.type",
    "icmp.mip.length",
    "icmp.mip.seq",
    "icmp.mip.life",
    "icmp.mip.flags",
    "icmp.mip.f",
    "icmp.mip.h",
    "icmp.mip.r",
    "icmp.mip.rt",
    "icmp.mip.g",
    "icmp.mip.coa",
    "icmp.mip.prefixlength",
    "mip.type",
    "mip.flags",
    "mip.t",
    "mip.code",
    "mip.life",
    "mip.homeaddr",
    "mip.haaddr",
    "mip.coa",
    "mip.ext.type",
    "mip.ext.len",
    "mip.auth.spi",
    "mip.auth.auth",
];

/// What our parsers read from one IPv4 packet, in tshark's spelling.
fn expected(packet: &[u8]) -> Fields {
    let mut expect = Fields::default();
    let mut bytes = packet;
    loop {
        let ip = Ipv4Packet::new_checked(bytes).unwrap();
        let repr = Ipv4Repr::parse(&ip).unwrap();
        expect.push("ip.src", repr.src_addr);
        expect.push("ip.dst", repr.dst_addr);
        expect.push("ip.proto", u8::from(repr.protocol));
        expect.push("ip.ttl", repr.ttl);
        match repr.protocol {
            IpProtocol::IpInIp => {
                bytes = ipip_decapsulate(bytes).unwrap().1;
            }
            IpProtocol::Icmp => {
                if ip.payload()[0] == 10 {
                    expect.push("icmp.type", 10);
                    expect.push("icmp.code", 0);
                } else {
                    let advert = AgentAdvertisementPacket::new_checked(ip.payload()).unwrap();
                    expect.advertisement(&AgentAdvertisementRepr::parse(&advert).unwrap());
                }
                return expect;
            }
            IpProtocol::Udp => {
                let udp = UdpPacket::new_checked(ip.payload()).unwrap();
                expect.push("udp.srcport", udp.src_port());
                expect.push("udp.dstport", udp.dst_port());
                expect.push("udp.payload", hex(udp.payload()));
                if let Ok(m) = RegistrationMessage::parse(udp.payload()) {
                    expect.registration(&m);
                }
                return expect;
            }
            other => panic!("unexpected protocol {other}"),
        }
    }
}

#[test]
fn tshark_fields_match_our_parser() {
    if !tshark_common::available() {
        eprintln!("tshark not installed: skipping the Wireshark cross-check");
        return;
    }
    let packets = packets();
    let path = tshark_common::write_pcap("mip-fields", &packets);
    let mut args = vec!["-T", "fields", "-E", "separator=|", "-E", "aggregator=,"];
    args.extend(["-E", "occurrence=a"]);
    for f in FIELDS {
        args.extend(["-e", f]);
    }
    let out = tshark(&path, &args);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), packets.len());

    for (frame, (packet, line)) in packets.iter().zip(lines).enumerate() {
        let expect = expected(packet);
        let got: Vec<&str> = line.split('|').collect();
        assert_eq!(got.len(), FIELDS.len());
        for (field, value) in FIELDS.iter().zip(got) {
            let want = expect.0.get(field).map(|v| v.join(",")).unwrap_or_default();
            assert_eq!(value, want, "frame {} field {field}", frame + 1);
        }
        for field in expect.0.keys() {
            assert!(FIELDS.contains(field), "unlisted field {field}");
        }
    }

    // The identification is shown as an NTP timestamp; PDML has its raw bytes.
    let pdml = tshark(&path, &["-T", "pdml"]);
    let idents: Vec<&str> = pdml
        .lines()
        .filter(|l| l.contains("name=\"mip.ident\""))
        .filter_map(|l| l.split("value=\"").nth(1)?.split('"').next())
        .collect();
    let want = format!("{:016x}", sample::IDENTIFICATION);
    assert_eq!(idents, [want.as_str(), want.as_str()], "{idents:?}");
    let _ = std::fs::remove_file(&path);

    // Spot-check the values the sample was built with, so the test does not only compare our
    // parser with itself.
    let dump = out.replace('|', " ");
    for needle in ["10.1.0.50", "10.1.0.1", "10.2.0.1", "257", "600", "0x9500"] {
        assert!(dump.contains(needle), "{needle} missing from {dump}");
    }
}
