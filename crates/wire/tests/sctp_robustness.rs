//! Nothing in the SCTP codec panics on packet content: random bytes, random chunk-shaped
//! bytes, truncations and corruptions of valid packets (with the CRC repaired so the chunk
//! parsers run) all go through `fuzz_parse_sctp`, which also asserts that whatever parses
//! re-emits to the same value.

#[allow(dead_code)]
#[path = "../examples/sctp_pcap.rs"]
mod sample;

use proptest::collection::vec;
use proptest::prelude::*;
use sctpsim_wire::sctp::{fuzz_parse_sctp, Chunks, SctpPacket, SctpRepr};
use sctpsim_wire::{Ipv4Packet, WireError};

/// SCTP packets (without the IPv4 header) of every chunk type.
fn seeds() -> Vec<Vec<u8>> {
    sample::sample_packets()
        .into_iter()
        .map(|(_, ip)| Ipv4Packet::new_checked(&ip[..]).unwrap().payload().to_vec())
        .collect()
}

fn repair(data: &mut [u8]) {
    if data.len() >= 12 {
        SctpPacket::new_unchecked(&mut data[..]).fill_checksum();
    }
}

#[test]
fn seeds_are_valid() {
    for (label, ip) in sample::sample_packets() {
        fuzz_parse_sctp(&ip);
        let sctp = Ipv4Packet::new_checked(&ip[..]).unwrap();
        let packet = SctpPacket::new_checked(sctp.payload()).unwrap();
        assert!(SctpRepr::parse(&packet).is_ok(), "{label}");
    }
}

#[test]
fn every_truncation_is_handled() {
    for seed in seeds() {
        for len in 0..seed.len() {
            let mut cut = seed[..len].to_vec();
            fuzz_parse_sctp(&cut);
            repair(&mut cut);
            fuzz_parse_sctp(&cut);
            if len < 12 {
                assert_eq!(
                    SctpPacket::new_checked(&cut[..]).map(|_| ()),
                    Err(WireError::Truncated)
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_bytes_never_panic(data in vec(any::<u8>(), 0..200)) {
        fuzz_parse_sctp(&data);
        let mut fixed = data.clone();
        repair(&mut fixed);
        fuzz_parse_sctp(&fixed);
        // The iterator always terminates within one item per 4 bytes (plus an error).
        prop_assert!(Chunks::new(&data).count() <= data.len() / 4 + 1);
    }

    #[test]
    fn chunk_shaped_bytes_never_panic(
        chunks in vec(
            (
                prop_oneof![0u8..=15, Just(0x80u8), Just(0xc0u8), Just(0xc1u8), any::<u8>()],
                any::<u8>(),
                0u16..80,
                vec(any::<u8>(), 0..80),
            ),
            0..5,
        ),
    ) {
        // Plausible chunk headers with arbitrary lengths and bodies, behind a valid header.
        let mut data = vec![0x13, 0x89, 0x00, 0x09, 0, 0, 0, 1, 0, 0, 0, 0];
        for (kind, flags, len, body) in chunks {
            data.extend([kind, flags]);
            data.extend(len.to_be_bytes());
            data.extend(body);
        }
        repair(&mut data);
        fuzz_parse_sctp(&data);
    }

    #[test]
    fn tlv_shaped_bytes_never_panic(
        kind in prop_oneof![Just(1u8), Just(2u8), Just(6u8), Just(9u8), Just(0x80u8), Just(0xc1u8)],
        tlvs in vec(
            (
                prop_oneof![
                    0u16..16, 0x8000u16..0x8009, 0xc000u16..0xc007, 0xa0u16..0xa5, any::<u16>()
                ],
                0u16..40,
                vec(any::<u8>(), 0..40),
            ),
            0..6,
        ),
    ) {
        // A chunk whose value is a list of parameter/cause-shaped TLVs, with the fixed fields
        // of INIT (16 bytes) or ASCONF / ASCONF-ACK (4 bytes) in front.
        let fixed = match kind {
            1 | 2 => 16,
            0x80 | 0xc1 => 4,
            _ => 0,
        };
        let mut value = vec![0u8; fixed];
        for (t, len, body) in tlvs {
            value.extend(t.to_be_bytes());
            value.extend(len.to_be_bytes());
            value.extend(body);
        }
        let mut data = vec![0x13, 0x89, 0x00, 0x09, 0, 0, 0, 1, 0, 0, 0, 0, kind, 0];
        data.extend(((4 + value.len()) as u16).to_be_bytes());
        data.extend(value);
        repair(&mut data);
        fuzz_parse_sctp(&data);
    }

    #[test]
    fn corrupted_valid_packets_never_panic(
        which in any::<prop::sample::Index>(),
        edits in vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in 0usize..8,
        fix_crc in any::<bool>(),
    ) {
        let seeds = seeds();
        let mut data = seeds[which.index(seeds.len())].clone();
        for (at, value) in edits {
            let i = at.index(data.len());
            data[i] = value;
        }
        let keep = data.len().saturating_sub(cut);
        data.truncate(keep);
        if fix_crc {
            repair(&mut data);
        }
        fuzz_parse_sctp(&data);
    }
}
