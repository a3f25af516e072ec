//! Mobile IPv4 (RFC 5944) and IP in IP (RFC 2003): known-answer tests on bytes built by hand from
//! the RFC layouts, and `parse(emit(repr)) == repr` for every message.

use proptest::prelude::*;
use sctpsim_wire::mip::advert::{next_sequence_number, SEQUENCE_WRAP_TO};
use sctpsim_wire::mip::{
    ipip_decapsulate, ipip_encapsulate, AdvertExtension, AgentAdvertisementPacket,
    AgentAdvertisementRepr, AgentFlags, AgentSolicitationRepr, Extension, MobilityAgentExtension,
    RegistrationFlags, RegistrationMessage, RegistrationReplyPacket, RegistrationReplyRepr,
    RegistrationRequestPacket, RegistrationRequestRepr, ReplyCode, RouterEntry, REGISTRATION_PORT,
};
use sctpsim_wire::{
    udp_datagram, Icmpv4Packet, IpProtocol, Ipv4Addr, Ipv4Packet, Ipv4Repr, UdpRepr, WireError,
};

/// The Internet checksum written out independently of the crate: sum big-endian words, fold the
/// carries, complement.
fn ones_complement_checksum(bytes: &[u8]) -> u16 {
    let mut sum: u32 = 0;
    for pair in bytes.chunks(2) {
        let word = u32::from(pair[0]) << 8 | u32::from(*pair.get(1).unwrap_or(&0));
        sum += word;
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

#[test]
fn registration_request_known_answer() {
    #[rustfmt::skip]
    let expected: Vec<u8> = vec![
        1,                      // Type: Registration Request (§3.3)
        0b1000_0010,            // Flags S B D M G r T x: S and T set
        0x01, 0x2c,             // Lifetime: 300 s
        192, 0, 2, 10,          // Home Address 192.0.2.10
        192, 0, 2, 1,           // Home Agent 192.0.2.1
        198, 51, 100, 7,        // Care-of Address 198.51.100.7
        0x01, 0x23, 0x45, 0x67, // Identification, high 32 bits
        0x89, 0xab, 0xcd, 0xef, // Identification, low 32 bits
        32,                     // Extension type: Mobile-Home Authentication (§3.5.2)
        20,                     // Length: 4 (SPI) + 16 (authenticator)
        0x00, 0x00, 0x10, 0x01, // SPI 0x1001
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, // authenticator
        200,                    // an unknown skippable extension type (§1.9)
        2,                      // Length 2
        0xbe, 0xef,             // its data, kept verbatim
    ];
    let repr = RegistrationRequestRepr {
        flags: RegistrationFlags {
            simultaneous_bindings: true,
            reverse_tunneling: true,
            ..RegistrationFlags::default()
        },
        lifetime_s: 300,
        home_address: Ipv4Addr::new(192, 0, 2, 10),
        home_agent: Ipv4Addr::new(192, 0, 2, 1),
        care_of_address: Ipv4Addr::new(198, 51, 100, 7),
        identification: 0x0123_4567_89ab_cdef,
        extensions: vec![
            Extension::mobile_home_auth(0x1001, &(0..16).collect::<Vec<u8>>()),
            Extension {
                kind: 200,
                data: vec![0xbe, 0xef],
            },
        ],
    };
    assert_eq!(repr.buffer_len(), expected.len());
    assert_eq!(repr.to_bytes(), expected);

    let packet = RegistrationRequestPacket::new_checked(&expected[..]).unwrap();
    assert_eq!(packet.msg_type(), 1);
    assert_eq!(packet.flags(), 0x82);
    assert_eq!(packet.lifetime_s(), 300);
    assert_eq!(packet.care_of_address(), Ipv4Addr::new(198, 51, 100, 7));
    assert_eq!(packet.identification(), 0x0123_4567_89ab_cdef);
    let parsed = RegistrationRequestRepr::parse(&packet).unwrap();
    assert_eq!(parsed, repr);
    let auth = parsed.mobile_home_auth().unwrap();
    assert_eq!(auth.spi(), Some(0x1001));
    assert_eq!(auth.authenticator(), Some(&expected[30..46]));
    assert!(!auth.is_skippable());
    assert!(parsed.extensions[1].is_skippable());
    assert_eq!(parsed.extensions[1].spi(), None);
    assert_eq!(
        RegistrationMessage::parse(&expected),
        Ok(RegistrationMessage::Request(repr))
    );
}

#[test]
fn registration_reply_known_answer() {
    #[rustfmt::skip]
    let expected: Vec<u8> = vec![
        3,                      // Type: Registration Reply (§3.4)
        133,                    // Code: identification mismatch (home agent denial)
        0x00, 0x00,             // Lifetime 0
        192, 0, 2, 10,          // Home Address
        192, 0, 2, 1,           // Home Agent
        0xde, 0xad, 0xbe, 0xef, // Identification, high 32 bits
        0x00, 0x00, 0x00, 0x01, // Identification, low 32 bits
        32, 4,                  // Mobile-Home Authentication, SPI only
        0xff, 0xff, 0xff, 0xff, // SPI
    ];
    let repr = RegistrationReplyRepr {
        code: ReplyCode::HaIdentificationMismatch,
        lifetime_s: 0,
        home_address: Ipv4Addr::new(192, 0, 2, 10),
        home_agent: Ipv4Addr::new(192, 0, 2, 1),
        identification: 0xdead_beef_0000_0001,
        extensions: vec![Extension::mobile_home_auth(u32::MAX, &[])],
    };
    assert_eq!(repr.to_bytes(), expected);
    let packet = RegistrationReplyPacket::new_checked(&expected[..]).unwrap();
    assert_eq!(packet.code(), ReplyCode::HaIdentificationMismatch);
    assert!(packet.code().is_home_agent_denial());
    assert_eq!(RegistrationReplyRepr::parse(&packet), Ok(repr.clone()));
    assert_eq!(
        RegistrationMessage::parse(&expected),
        Ok(RegistrationMessage::Reply(repr))
    );
}

#[test]
fn agent_advertisement_known_answer() {
    #[rustfmt::skip]
    let mut expected: Vec<u8> = vec![
        9,                      // ICMP type: Router Advertisement (RFC 1256)
        16,                     // Code 16: does not route common traffic (RFC 5944 §2.1)
        0, 0,                   // Checksum, filled in below
        1,                      // Num Addrs
        2,                      // Addr Entry Size (words)
        0x07, 0x08,             // Lifetime 1800 s
        10, 2, 0, 1,            // Router Address
        0xff, 0xff, 0xff, 0xfe, // Preference -2
        16,                     // Mobility Agent Advertisement Extension (§2.1.1)
        14,                     // Length: 6 + 2 care-of addresses
        0x01, 0x00,             // Sequence Number 256
        0x02, 0x58,             // Registration Lifetime 600 s
        0b0001_1000,            // R B H F M G r T: F and M
        0b0100_0000,            // U X I reserved: X
        10, 2, 0, 1,            // Care-of Address
        10, 2, 0, 2,            // Care-of Address
        19, 1, 24,              // Prefix-Lengths Extension (§2.1.2): one prefix, /24
        0,                      // Pad (§2.1.3)
    ];
    let sum = ones_complement_checksum(&expected);
    expected[2..4].copy_from_slice(&sum.to_be_bytes());

    let repr = AgentAdvertisementRepr {
        mobility_only: true,
        lifetime_s: 1800,
        routers: vec![RouterEntry {
            address: Ipv4Addr::new(10, 2, 0, 1),
            preference: -2,
        }],
        mobility: MobilityAgentExtension {
            sequence_number: 256,
            registration_lifetime_s: 600,
            flags: AgentFlags {
                foreign_agent: true,
                minimal_encapsulation: true,
                revocation: true,
                ..AgentFlags::default()
            },
            care_of_addresses: vec![Ipv4Addr::new(10, 2, 0, 1), Ipv4Addr::new(10, 2, 0, 2)],
        },
        extensions: vec![
            AdvertExtension::PrefixLengths(vec![24]),
            AdvertExtension::Pad,
        ],
    };
    assert_eq!(repr.to_bytes(), expected);
    let packet = AgentAdvertisementPacket::new_checked(&expected[..]).unwrap();
    assert!(packet.verify_checksum());
    assert_eq!(packet.num_addrs(), 1);
    assert_eq!(packet.lifetime_s(), 1800);
    let parsed = AgentAdvertisementRepr::parse(&packet).unwrap();
    assert_eq!(parsed, repr);
    assert_eq!(parsed.prefix_lengths(), Some(&[24u8][..]));
    // The generic ICMP view agrees on the checksum.
    assert!(Icmpv4Packet::new_checked(&expected[..])
        .unwrap()
        .verify_checksum());
}

#[test]
fn agent_solicitation_known_answer() {
    // Type 10, code 0, checksum !0x0a00 = 0xf5ff, reserved word.
    let expected = vec![10, 0, 0xf5, 0xff, 0, 0, 0, 0];
    assert_eq!(AgentSolicitationRepr.to_bytes(), expected);
    let packet = Icmpv4Packet::new_checked(&expected[..]).unwrap();
    assert_eq!(
        AgentSolicitationRepr::parse(&packet),
        Ok(AgentSolicitationRepr)
    );
    let mut bad = expected.clone();
    bad[1] = 1;
    bad[3] = 0xfe;
    assert_eq!(
        AgentSolicitationRepr::parse(&Icmpv4Packet::new_checked(&bad[..]).unwrap()),
        Err(WireError::Malformed)
    );
}

#[test]
fn ipip_known_answer() {
    let inner = udp_datagram(
        Ipv4Addr::new(10, 9, 9, 9),
        Ipv4Addr::new(10, 1, 0, 50),
        63,
        77,
        &UdpRepr {
            src_port: 5000,
            dst_port: 9,
        },
        b"hi",
    );
    // Link padding after the datagram is not carried.
    let mut padded = inner.clone();
    padded.extend([0, 0]);
    let outer = ipip_encapsulate(
        &padded,
        Ipv4Addr::new(10, 1, 0, 1),
        Ipv4Addr::new(10, 2, 0, 1),
        64,
        5,
    )
    .unwrap();
    #[rustfmt::skip]
    let mut header: Vec<u8> = vec![
        0x45, 0x00,             // version 4, IHL 5, TOS copied from the inner header (0)
        0x00, 50,               // total length: 20 + 30
        0x00, 0x05,             // identification
        0x00, 0x00,             // flags: DF copied from the inner header (clear)
        64,                     // TTL
        4,                      // protocol: IP in IP (RFC 2003 §3.1)
        0, 0,                   // header checksum, filled in below
        10, 1, 0, 1,            // tunnel entry
        10, 2, 0, 1,            // tunnel exit
    ];
    let sum = ones_complement_checksum(&header);
    header[10..12].copy_from_slice(&sum.to_be_bytes());
    assert_eq!(&outer[..20], &header[..]);
    assert_eq!(&outer[20..], &inner[..]);

    let (repr, got) = ipip_decapsulate(&outer).unwrap();
    assert_eq!(got, &inner[..]);
    assert_eq!(repr.protocol, IpProtocol::IpInIp);
    assert_eq!(repr.src_addr, Ipv4Addr::new(10, 1, 0, 1));
}

#[test]
fn ipip_copies_dscp_and_df() {
    let ip = Ipv4Repr {
        src_addr: Ipv4Addr::new(1, 2, 3, 4),
        dst_addr: Ipv4Addr::new(5, 6, 7, 8),
        protocol: IpProtocol::Tcp,
        payload_len: 0,
        ttl: 9,
        ident: 1,
        dscp: 46,
        dont_frag: true,
    };
    let inner = sctpsim_wire::ipv4_datagram(&ip, &[1, 2, 3]).unwrap();
    let outer = ipip_encapsulate(&inner, ip.dst_addr, ip.src_addr, 30, 2).unwrap();
    let packet = Ipv4Packet::new_checked(&outer[..]).unwrap();
    assert_eq!(packet.dscp(), 46);
    assert!(packet.dont_frag());
    assert_eq!(packet.ttl(), 30);
    // The inner header is untouched, TTL included.
    assert_eq!(ipip_decapsulate(&outer).unwrap().1, &inner[..]);
}

#[test]
fn reply_codes_and_sequence_numbers() {
    for n in 0..=255u8 {
        let code = ReplyCode::from(n);
        assert_eq!(u8::from(code), n);
        assert_eq!(code.is_accepted(), n < 64);
        assert_eq!(code.is_foreign_agent_denial(), (64..128).contains(&n));
        assert_eq!(code.is_home_agent_denial(), (128..192).contains(&n));
    }
    assert_eq!(ReplyCode::from(0), ReplyCode::Accepted);
    assert_eq!(ReplyCode::from(66), ReplyCode::FaInsufficientResources);
    assert_eq!(ReplyCode::from(136), ReplyCode::HaUnknownHomeAgentAddress);
    assert_eq!(ReplyCode::from(194), ReplyCode::Other(194));
    assert_eq!(next_sequence_number(0), 1);
    assert_eq!(next_sequence_number(0xffff), SEQUENCE_WRAP_TO);
    assert_eq!(REGISTRATION_PORT, 434);
}

#[test]
fn flag_bits() {
    for bits in 0..=255u8 {
        let flags = RegistrationFlags::from_bits(bits);
        // r (0x04) and x (0x01) are dropped, every other bit survives.
        assert_eq!(flags.bits(), bits & !0x05);
    }
    for bits in 0..=0xffffu16 {
        // r (0x0200) and the five reserved bits are dropped.
        assert_eq!(AgentFlags::from_bits(bits).bits(), bits & 0xfde0);
    }
}

fn addr() -> impl Strategy<Value = Ipv4Addr> {
    any::<u32>().prop_map(Ipv4Addr::from)
}

fn extension() -> impl Strategy<Value = Extension> {
    prop_oneof![
        (
            any::<u32>(),
            proptest::collection::vec(any::<u8>(), 0..=251)
        )
            .prop_map(|(spi, auth)| Extension::mobile_home_auth(spi, &auth)),
        (
            any::<u8>().prop_filter("not MHAE", |k| *k != 32),
            proptest::collection::vec(any::<u8>(), 0..=255)
        )
            .prop_map(|(kind, data)| Extension { kind, data }),
    ]
}

fn agent_flags() -> impl Strategy<Value = AgentFlags> {
    any::<u16>().prop_map(AgentFlags::from_bits)
}

fn advertisement() -> impl Strategy<Value = AgentAdvertisementRepr> {
    (
        any::<bool>(),
        any::<u16>(),
        proptest::collection::vec((addr(), any::<i32>()), 0..8),
        (
            any::<u16>(),
            any::<u16>(),
            agent_flags(),
            proptest::collection::vec(addr(), 0..8),
        ),
        any::<bool>(),
        proptest::collection::vec(
            prop_oneof![
                Just(AdvertExtension::Pad),
                ((20u8..=255), proptest::collection::vec(any::<u8>(), 0..40))
                    .prop_map(|(kind, data)| AdvertExtension::Unknown { kind, data }),
            ],
            0..4,
        ),
    )
        .prop_map(
            |(mobility_only, lifetime_s, routers, (seq, life, flags, coas), prefixes, more)| {
                let routers: Vec<RouterEntry> = routers
                    .into_iter()
                    .map(|(address, preference)| RouterEntry {
                        address,
                        preference,
                    })
                    .collect();
                let mut extensions = Vec::new();
                if prefixes {
                    extensions.push(AdvertExtension::PrefixLengths(
                        (0..routers.len() as u8).collect(),
                    ));
                }
                extensions.extend(more);
                AgentAdvertisementRepr {
                    mobility_only,
                    lifetime_s,
                    routers,
                    mobility: MobilityAgentExtension {
                        sequence_number: seq,
                        registration_lifetime_s: life,
                        flags,
                        care_of_addresses: coas,
                    },
                    extensions,
                }
            },
        )
}

proptest! {
    #[test]
    fn request_round_trip(
        flags in any::<u8>(),
        lifetime_s in any::<u16>(),
        (home_address, home_agent, care_of_address) in (addr(), addr(), addr()),
        identification in any::<u64>(),
        extensions in proptest::collection::vec(extension(), 0..4),
    ) {
        let repr = RegistrationRequestRepr {
            flags: RegistrationFlags::from_bits(flags),
            lifetime_s,
            home_address,
            home_agent,
            care_of_address,
            identification,
            extensions,
        };
        let bytes = repr.to_bytes();
        prop_assert_eq!(bytes.len(), repr.buffer_len());
        let parsed = RegistrationRequestRepr::parse(
            &RegistrationRequestPacket::new_checked(&bytes[..]).unwrap());
        prop_assert_eq!(parsed, Ok(repr));
    }

    #[test]
    fn reply_round_trip(
        code in any::<u8>(),
        lifetime_s in any::<u16>(),
        (home_address, home_agent) in (addr(), addr()),
        identification in any::<u64>(),
        extensions in proptest::collection::vec(extension(), 0..4),
    ) {
        let repr = RegistrationReplyRepr {
            code: ReplyCode::from(code),
            lifetime_s,
            home_address,
            home_agent,
            identification,
            extensions,
        };
        let bytes = repr.to_bytes();
        prop_assert_eq!(bytes.len(), repr.buffer_len());
        prop_assert_eq!(
            RegistrationMessage::parse(&bytes),
            Ok(RegistrationMessage::Reply(repr))
        );
    }

    #[test]
    fn advertisement_round_trip(repr in advertisement()) {
        let bytes = repr.to_bytes();
        prop_assert_eq!(bytes.len(), repr.buffer_len());
        let packet = AgentAdvertisementPacket::new_checked(&bytes[..]).unwrap();
        prop_assert!(packet.verify_checksum());
        prop_assert_eq!(AgentAdvertisementRepr::parse(&packet), Ok(repr));
    }

    #[test]
    fn ipip_round_trip(
        payload in proptest::collection::vec(any::<u8>(), 0..600),
        (src, dst, entry, exit) in (addr(), addr(), addr(), addr()),
        dscp in 0u8..64,
        dont_frag in any::<bool>(),
        (ttl, ident) in (any::<u8>(), any::<u16>()),
    ) {
        let inner_repr = Ipv4Repr {
            src_addr: src,
            dst_addr: dst,
            protocol: IpProtocol::Udp,
            payload_len: 0,
            ttl: 17,
            ident: 3,
            dscp,
            dont_frag,
        };
        let inner = sctpsim_wire::ipv4_datagram(&inner_repr, &payload).unwrap();
        let outer = ipip_encapsulate(&inner, entry, exit, ttl, ident).unwrap();
        let (repr, got) = ipip_decapsulate(&outer).unwrap();
        prop_assert_eq!(got, &inner[..]);
        prop_assert_eq!(repr, Ipv4Repr {
            src_addr: entry,
            dst_addr: exit,
            protocol: IpProtocol::IpInIp,
            payload_len: inner.len(),
            ttl,
            ident,
            dscp,
            dont_frag,
        });
    }
}
