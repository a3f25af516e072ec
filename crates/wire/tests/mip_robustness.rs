//! Nothing in the Mobile IPv4 and IP in IP codecs panics on packet content, and truncations and
//! bad length fields come back as [`WireError`]s.

#[allow(dead_code)]
#[path = "../examples/mip_pcap.rs"]
mod sample;

use proptest::prelude::*;
use sctpsim_wire::checksum::internet_checksum;
use sctpsim_wire::mip::registration::{REPLY_LEN, REQUEST_LEN};
use sctpsim_wire::mip::{
    ipip_decapsulate, ipip_encapsulate, AgentAdvertisementPacket, AgentAdvertisementRepr,
    AgentSolicitationRepr, Extension, RegistrationMessage, RegistrationReplyPacket,
    RegistrationReplyRepr, RegistrationRequestPacket, RegistrationRequestRepr,
};
use sctpsim_wire::{Icmpv4Packet, Ipv4Addr, Ipv4Packet, WireError};

const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);

/// Runs every Mobile IP parser and accessor on `data`.
fn parse_everything(data: &[u8]) {
    let _ = RegistrationMessage::parse(data);
    let _ = Extension::parse_all(data);
    if let Ok(p) = RegistrationRequestPacket::new_checked(data) {
        let _ = (p.msg_type(), p.flags(), p.lifetime_s(), p.home_address());
        let _ = (p.home_agent(), p.care_of_address(), p.identification());
        let _ = RegistrationRequestRepr::parse(&p);
    }
    let _ = RegistrationRequestRepr::parse(&RegistrationRequestPacket::new_unchecked(data));
    let _ = RegistrationRequestPacket::new_unchecked(data).extensions();
    if let Ok(p) = RegistrationReplyPacket::new_checked(data) {
        let _ = (p.code(), p.lifetime_s(), p.identification());
        let _ = RegistrationReplyRepr::parse(&p);
    }
    let _ = RegistrationReplyRepr::parse(&RegistrationReplyPacket::new_unchecked(data));
    let _ = RegistrationReplyPacket::new_unchecked(data).extensions();
    if let Ok(p) = AgentAdvertisementPacket::new_checked(data) {
        let _ = (p.msg_type(), p.code(), p.checksum(), p.num_addrs());
        let _ = (p.addr_entry_size(), p.lifetime_s(), p.routers().count());
        let _ = AgentAdvertisementRepr::parse(&p);
    }
    let unchecked = AgentAdvertisementPacket::new_unchecked(data);
    let _ = (unchecked.extensions(), unchecked.verify_checksum());
    let _ = AgentAdvertisementRepr::parse(&unchecked);
    let _ = AgentSolicitationRepr::parse(&Icmpv4Packet::new_unchecked(data));
    if let Ok((_, inner)) = ipip_decapsulate(data) {
        assert!(Ipv4Packet::new_checked(inner).is_ok());
    }
    if let Ok(outer) = ipip_encapsulate(data, A, A, 64, 1) {
        // Whatever we tunnel must come out again.
        assert!(ipip_decapsulate(&outer).is_ok());
    }
}

/// Valid messages: the IPv4 packets of the sample capture and their payloads (the ICMP and UDP
/// payloads the Mobile IP parsers see).
fn seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (_, packet) in sample::sample_packets() {
        let ip = Ipv4Packet::new_checked(&packet[..]).unwrap();
        seeds.push(ip.payload().to_vec());
        if ip.payload().len() > 8 && packet[9] == 17 {
            seeds.push(ip.payload()[8..].to_vec());
        }
        seeds.push(packet.clone());
    }
    seeds
}

#[test]
fn seeds_are_valid() {
    for seed in seeds() {
        parse_everything(&seed);
    }
    assert!(RegistrationMessage::parse(&sample::request().to_bytes()).is_ok());
}

/// Rewrites the ICMP checksum so that a length error, not the checksum, is what parsing hits.
fn fix_icmp_checksum(bytes: &mut [u8]) {
    if bytes.len() >= 4 {
        bytes[2..4].fill(0);
        let sum = internet_checksum(bytes);
        bytes[2..4].copy_from_slice(&sum.to_be_bytes());
    }
}

#[test]
fn truncated_registration_messages_are_errors() {
    let request = sample::request().to_bytes();
    for len in 0..request.len() {
        let got = RegistrationMessage::parse(&request[..len]);
        if len == REQUEST_LEN {
            // Cut exactly between fixed part and extensions: a valid request without them.
            assert!(got.is_ok());
        } else {
            assert_eq!(got, Err(WireError::Truncated), "cut at {len}");
        }
        parse_everything(&request[..len]);
    }
    let reply = sample::reply().to_bytes();
    for len in 0..reply.len() {
        let got = RegistrationMessage::parse(&reply[..len]);
        assert_eq!(got.is_ok(), len == REPLY_LEN, "cut at {len}");
        if len != REPLY_LEN {
            assert_eq!(got, Err(WireError::Truncated), "cut at {len}");
        }
        parse_everything(&reply[..len]);
    }
}

#[test]
fn bad_registration_lengths_and_types() {
    let mut request = sample::request().to_bytes();
    // An extension length that runs past the end.
    request[REQUEST_LEN + 1] = 200;
    assert_eq!(
        RegistrationMessage::parse(&request),
        Err(WireError::Truncated)
    );
    // A Mobile-Home Authentication Extension with no room for its SPI.
    let mut short = sample::request().to_bytes();
    short.truncate(REQUEST_LEN + 5);
    short[REQUEST_LEN + 1] = 3;
    assert_eq!(
        RegistrationMessage::parse(&short),
        Err(WireError::Malformed)
    );
    // A reply read as a request and vice versa.
    let reply = sample::reply().to_bytes();
    let as_request = RegistrationRequestPacket::new_checked(&reply[..]).unwrap();
    assert_eq!(
        RegistrationRequestRepr::parse(&as_request),
        Err(WireError::Malformed)
    );
    let request = sample::request().to_bytes();
    let as_reply = RegistrationReplyPacket::new_checked(&request[..]).unwrap();
    assert_eq!(
        RegistrationReplyRepr::parse(&as_reply),
        Err(WireError::Malformed)
    );
    // Other message types on port 434 (e.g. RFC 3543 revocation, type 7).
    assert_eq!(
        RegistrationMessage::parse(&[7, 0, 0, 0]),
        Err(WireError::Unsupported)
    );
    assert_eq!(RegistrationMessage::parse(&[]), Err(WireError::Truncated));
}

#[test]
fn truncated_advertisements_are_errors() {
    let advert = sample::advertisement().to_bytes();
    let with_all =
        AgentAdvertisementRepr::parse(&AgentAdvertisementPacket::new_checked(&advert[..]).unwrap())
            .unwrap();
    for len in 0..advert.len() {
        let mut cut = advert[..len].to_vec();
        // Without fixing the checksum, every cut past the header fails it.
        let unfixed = AgentAdvertisementPacket::new_checked(&cut[..])
            .and_then(|p| AgentAdvertisementRepr::parse(&p));
        assert!(unfixed.is_err(), "cut at {len}");
        fix_icmp_checksum(&mut cut);
        let got = AgentAdvertisementPacket::new_checked(&cut[..])
            .and_then(|p| AgentAdvertisementRepr::parse(&p));
        match got {
            // Only a cut between two extensions leaves a valid advertisement, with fewer of
            // them.
            Ok(repr) => {
                assert_eq!(repr.mobility, with_all.mobility, "cut at {len}");
                assert!(repr.extensions.len() < with_all.extensions.len());
            }
            Err(e) => assert!(
                matches!(
                    e,
                    WireError::Truncated | WireError::Malformed | WireError::Unsupported
                ),
                "cut at {len}: {e:?}"
            ),
        }
        parse_everything(&cut);
    }
}

#[test]
fn bad_advertisement_fields() {
    let parse = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = sample::advertisement().to_bytes();
        edit(&mut bytes);
        fix_icmp_checksum(&mut bytes);
        AgentAdvertisementPacket::new_checked(&bytes[..])
            .and_then(|p| AgentAdvertisementRepr::parse(&p))
    };
    assert!(parse(&|_| {}).is_ok());
    // More router entries than bytes.
    assert_eq!(parse(&|b| b[4] = 9), Err(WireError::Truncated));
    // RFC 1256 entry size below two words.
    assert_eq!(parse(&|b| b[5] = 1), Err(WireError::Malformed));
    // Larger entries are readable by the view but not what RFC 5944 sends.
    assert_eq!(parse(&|b| b[5] = 3), Err(WireError::Malformed));
    // A code other than 0 and 16.
    assert_eq!(parse(&|b| b[1] = 1), Err(WireError::Unsupported));
    // Not a router advertisement.
    assert_eq!(parse(&|b| b[0] = 10), Err(WireError::Malformed));
    // Mobility extension length not 6 + 4n (it is at offset 16).
    assert_eq!(parse(&|b| b[17] = 9), Err(WireError::Malformed));
    // Mobility extension length running past the end.
    assert_eq!(parse(&|b| b[17] = 250), Err(WireError::Truncated));
    // Prefix-Lengths Extension with two prefixes for one router.
    assert_eq!(
        parse(&|b| {
            let n = b.len();
            b[n - 2] = 2;
            b.push(16);
        }),
        Err(WireError::Malformed)
    );
    // Two mobility extensions.
    assert_eq!(
        parse(&|b| {
            let ext = b[16..16 + 12].to_vec();
            b.extend(ext);
        }),
        Err(WireError::Malformed)
    );
    // A plain router advertisement: no mobility extension.
    assert_eq!(parse(&|b| b.truncate(16)), Err(WireError::Unsupported));
    // Corrupt checksum.
    let mut bytes = sample::advertisement().to_bytes();
    bytes[7] ^= 1;
    assert_eq!(
        AgentAdvertisementRepr::parse(&AgentAdvertisementPacket::new_checked(&bytes[..]).unwrap()),
        Err(WireError::BadChecksum)
    );
    // Solicitations: truncated and corrupt.
    let solicitation = AgentSolicitationRepr.to_bytes();
    for len in 0..solicitation.len() {
        assert_eq!(
            AgentSolicitationRepr::parse(&Icmpv4Packet::new_unchecked(&solicitation[..len])),
            Err(WireError::Truncated)
        );
    }
    let mut bad = solicitation.clone();
    bad[5] = 1;
    assert_eq!(
        AgentSolicitationRepr::parse(&Icmpv4Packet::new_unchecked(&bad[..])),
        Err(WireError::BadChecksum)
    );
}

#[test]
fn bad_tunnels() {
    let inner = sample::inner_datagram();
    let outer = ipip_encapsulate(&inner, A, A, 64, 1).unwrap();
    for len in 0..outer.len() {
        assert!(ipip_decapsulate(&outer[..len]).is_err(), "cut at {len}");
    }
    for len in 0..inner.len() {
        assert!(ipip_encapsulate(&inner[..len], A, A, 64, 1).is_err());
    }
    // Not protocol 4.
    assert_eq!(ipip_decapsulate(&inner), Err(WireError::Unsupported));
    // A corrupt inner header.
    let mut bad = outer.clone();
    bad[20 + 8] ^= 1;
    assert_eq!(ipip_decapsulate(&bad), Err(WireError::BadChecksum));
    let mut bad_inner = inner.clone();
    bad_inner[8] ^= 1;
    assert_eq!(
        ipip_encapsulate(&bad_inner, A, A, 64, 1),
        Err(WireError::BadChecksum)
    );
    // Inner total length shorter than the outer payload says.
    let mut short = inner.clone();
    let mut p = Ipv4Packet::new_unchecked(&mut short[..]);
    p.set_total_len(p.total_len() - 1);
    p.fill_checksum();
    let mut outer = ipip_encapsulate(&inner, A, A, 64, 1).unwrap();
    outer[20..].copy_from_slice(&short);
    assert_eq!(ipip_decapsulate(&outer), Err(WireError::Malformed));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..128)) {
        parse_everything(&data);
    }

    #[test]
    fn random_headers_never_panic(
        first in prop_oneof![Just(1u8), Just(3), Just(9), Just(10), Just(0x45), any::<u8>()],
        rest in proptest::collection::vec(any::<u8>(), 0..100),
        fix in any::<bool>(),
    ) {
        let mut data = vec![first];
        data.extend(rest);
        if fix {
            fix_icmp_checksum(&mut data);
        }
        parse_everything(&data);
    }

    #[test]
    fn corrupted_valid_messages_never_panic(
        which in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        cut in any::<usize>(),
        fix in any::<bool>(),
    ) {
        let seeds = seeds();
        let mut data = seeds[which.index(seeds.len())].clone();
        for (at, value) in edits {
            let i = at % data.len();
            data[i] = value;
        }
        data.truncate(cut % (data.len() + 1));
        if fix {
            fix_icmp_checksum(&mut data);
        }
        parse_everything(&data);
    }
}
