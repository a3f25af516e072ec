//! Writes a capture of one Mobile IPv4 registration as a foreign agent sees it (RFC 5944): an
//! Agent Advertisement, an Agent Solicitation, a Registration Request and Reply on UDP port 434,
//! and a datagram the home agent tunnels to the care-of address with IP in IP (RFC 2003), to the
//! path given as the first argument, for checking with Wireshark/tshark:
//!
//! ```text
//! cargo run -p sctpsim-wire --example mip_pcap -- /tmp/mip.pcap
//! tshark -r /tmp/mip.pcap -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -V \
//!        -Y '_ws.malformed || _ws.expert.severity >= error'
//! ```
//!
//! The last command must print nothing. `tests/mip_tshark.rs` runs the same check and compares
//! field values.

use std::fs::File;
use std::io::BufWriter;

use sctpsim_wire::mip::advert::DISCOVERY_TTL;
use sctpsim_wire::mip::{
    ipip_encapsulate, AdvertExtension, AgentAdvertisementRepr, AgentFlags, AgentSolicitationRepr,
    Extension, MobilityAgentExtension, RegistrationFlags, RegistrationReplyRepr,
    RegistrationRequestRepr, ReplyCode, RouterEntry, REGISTRATION_PORT,
};
use sctpsim_wire::pcap::LINKTYPE_RAW;
use sctpsim_wire::{
    ipv4_datagram, udp_datagram, IpProtocol, Ipv4Addr, Ipv4Repr, PcapWriter, UdpRepr,
};

/// The mobile node's home address.
pub const HOME_ADDRESS: Ipv4Addr = Ipv4Addr::new(10, 1, 0, 50);
/// The home agent.
pub const HOME_AGENT: Ipv4Addr = Ipv4Addr::new(10, 1, 0, 1);
/// The foreign agent, which is also the care-of address it advertises.
pub const FOREIGN_AGENT: Ipv4Addr = Ipv4Addr::new(10, 2, 0, 1);
/// A correspondent node that sends to the mobile node's home address.
pub const CORRESPONDENT: Ipv4Addr = Ipv4Addr::new(10, 9, 9, 9);
/// RFC 1256 §3.1: all-systems multicast, where advertisements go.
pub const ALL_SYSTEMS: Ipv4Addr = Ipv4Addr::new(224, 0, 0, 1);
/// RFC 1256 §3.2: all-routers multicast, where solicitations go.
pub const ALL_ROUTERS: Ipv4Addr = Ipv4Addr::new(224, 0, 0, 2);
/// The mobile node's source port for registration.
pub const MN_PORT: u16 = 49_152;
/// Registration identification: an NTP-format timestamp, as RFC 5944 §5.7.1 suggests.
pub const IDENTIFICATION: u64 = 0xe8f0_1234_8000_0000;
/// The security parameter index of the mobile-home security association.
pub const SPI: u32 = 0x0000_0100;

/// The advertisement the foreign agent sends.
pub fn advertisement() -> AgentAdvertisementRepr {
    AgentAdvertisementRepr {
        mobility_only: false,
        lifetime_s: 1800,
        routers: vec![RouterEntry {
            address: FOREIGN_AGENT,
            preference: 0,
        }],
        mobility: MobilityAgentExtension {
            sequence_number: 257,
            registration_lifetime_s: 600,
            flags: AgentFlags {
                registration_required: true,
                foreign_agent: true,
                gre_encapsulation: true,
                reverse_tunneling: true,
                ..AgentFlags::default()
            },
            care_of_addresses: vec![FOREIGN_AGENT],
        },
        extensions: vec![AdvertExtension::PrefixLengths(vec![24])],
    }
}

/// The request the mobile node sends to the foreign agent.
pub fn request() -> RegistrationRequestRepr {
    RegistrationRequestRepr {
        flags: RegistrationFlags {
            reverse_tunneling: true,
            ..RegistrationFlags::default()
        },
        lifetime_s: 600,
        home_address: HOME_ADDRESS,
        home_agent: HOME_AGENT,
        care_of_address: FOREIGN_AGENT,
        identification: IDENTIFICATION,
        extensions: vec![Extension::mobile_home_auth(SPI, &[0xa5; 16])],
    }
}

/// The reply the foreign agent relays back to the mobile node.
pub fn reply() -> RegistrationReplyRepr {
    RegistrationReplyRepr {
        code: ReplyCode::Accepted,
        lifetime_s: 600,
        home_address: HOME_ADDRESS,
        home_agent: HOME_AGENT,
        identification: IDENTIFICATION,
        extensions: vec![Extension::mobile_home_auth(SPI, &[0x5a; 16])],
    }
}

/// The datagram the correspondent sends to the home address, before tunnelling.
pub fn inner_datagram() -> Vec<u8> {
    udp_datagram(
        CORRESPONDENT,
        HOME_ADDRESS,
        63,
        77,
        &UdpRepr {
            src_port: 5000,
            dst_port: 9,
        },
        b"hello mobile node",
    )
}

fn icmp(src: Ipv4Addr, dst: Ipv4Addr, ident: u16, message: &[u8]) -> Vec<u8> {
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IpProtocol::Icmp,
        payload_len: message.len(),
        ttl: DISCOVERY_TTL,
        ident,
        dscp: 0,
        dont_frag: false,
    };
    ipv4_datagram(&ip, message).expect("small message")
}

/// The capture, one (description, IPv4 packet) per frame.
pub fn sample_packets() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "agent advertisement",
            icmp(FOREIGN_AGENT, ALL_SYSTEMS, 1, &advertisement().to_bytes()),
        ),
        (
            "agent solicitation",
            icmp(
                HOME_ADDRESS,
                ALL_ROUTERS,
                2,
                &AgentSolicitationRepr.to_bytes(),
            ),
        ),
        (
            "registration request",
            udp_datagram(
                HOME_ADDRESS,
                FOREIGN_AGENT,
                64,
                3,
                &UdpRepr {
                    src_port: MN_PORT,
                    dst_port: REGISTRATION_PORT,
                },
                &request().to_bytes(),
            ),
        ),
        (
            "registration reply",
            udp_datagram(
                FOREIGN_AGENT,
                HOME_ADDRESS,
                64,
                4,
                &UdpRepr {
                    src_port: REGISTRATION_PORT,
                    dst_port: MN_PORT,
                },
                &reply().to_bytes(),
            ),
        ),
        (
            "IP in IP",
            ipip_encapsulate(&inner_datagram(), HOME_AGENT, FOREIGN_AGENT, 64, 5)
                .expect("valid inner datagram"),
        ),
    ]
}

#[allow(dead_code)]
fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "mip.pcap".to_owned());
    let mut writer = PcapWriter::new(BufWriter::new(File::create(&path)?), LINKTYPE_RAW)?;
    let packets = sample_packets();
    for (i, (_, p)) in packets.iter().enumerate() {
        writer.write_packet(i as u64 * 10_000_000, p)?;
    }
    writer.flush()?;
    println!("wrote {} packets to {path}", writer.packets_written());
    Ok(())
}
