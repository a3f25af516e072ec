//! Nothing panics on packet content: random bytes, truncations and corruptions of valid packets
//! go through every checked constructor, parser and router helper.

use proptest::prelude::*;
use sctpsim_wire::{
    decrement_ttl_in_place, fuzz_parse_ipv4_stack, icmp_error_datagram, udp_datagram, IcmpError,
    Icmpv4Packet, Icmpv4Repr, Ipv4Addr, Ipv4Packet, Ipv4Repr, UdpPacket, UdpRepr,
};

const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

/// Runs every parser of the crate on `data` as each layer.
fn parse_everything(data: &[u8]) {
    fuzz_parse_ipv4_stack(data);
    if let Ok(p) = Ipv4Packet::new_checked(data) {
        let _ = Ipv4Repr::parse(&p);
    }
    let _ = Ipv4Repr::parse(&Ipv4Packet::new_unchecked(data));
    let unchecked = Ipv4Packet::new_unchecked(data);
    let _ = (
        unchecked.payload(),
        unchecked.options(),
        unchecked.verify_checksum(),
    );
    if let Ok(p) = UdpPacket::new_checked(data) {
        let _ = UdpRepr::parse(&p, A, B);
    }
    let _ = UdpRepr::parse(&UdpPacket::new_unchecked(data), A, B);
    let unchecked = UdpPacket::new_unchecked(data);
    let _ = (unchecked.payload(), unchecked.verify_checksum(A, B));
    if let Ok(p) = Icmpv4Packet::new_checked(data) {
        let _ = Icmpv4Repr::parse(&p);
    }
    let _ = Icmpv4Repr::parse(&Icmpv4Packet::new_unchecked(data));
    let unchecked = Icmpv4Packet::new_unchecked(data);
    let _ = (unchecked.data(), unchecked.verify_checksum());
    for kind in [
        IcmpError::NetUnreachable,
        IcmpError::TtlExceeded,
        IcmpError::FragNeeded { next_hop_mtu: 1 },
    ] {
        if let Some(reply) = icmp_error_datagram(kind, A, 64, 1, data) {
            // Whatever we send must itself be a valid packet.
            let ip = Ipv4Packet::new_checked(&reply[..]).unwrap();
            Ipv4Repr::parse(&ip).unwrap();
            let icmp = Icmpv4Packet::new_checked(ip.payload()).unwrap();
            assert!(icmp.verify_checksum());
        }
    }
    let mut copy = data.to_vec();
    let _ = decrement_ttl_in_place(&mut copy);
}

/// Valid packets to corrupt: UDP, ICMP echo and ICMP errors.
fn seeds() -> Vec<Vec<u8>> {
    let udp = udp_datagram(
        A,
        B,
        1,
        7,
        &UdpRepr {
            src_port: 5000,
            dst_port: 9,
        },
        b"0123456789abcdef",
    );
    let echo_repr = Icmpv4Repr::EchoRequest {
        ident: 1,
        seq_no: 2,
        data_len: 12,
    };
    let ip = Ipv4Repr {
        src_addr: A,
        dst_addr: B,
        protocol: sctpsim_wire::IpProtocol::Icmp,
        payload_len: echo_repr.buffer_len(),
        ttl: 64,
        ident: 3,
        dscp: 0,
        dont_frag: true,
    };
    let mut echo = vec![0u8; ip.buffer_len()];
    ip.emit(&mut Ipv4Packet::new_unchecked(&mut echo[..]));
    echo_repr.emit(&mut Icmpv4Packet::new_unchecked(&mut echo[20..]), |d| {
        d.fill(0x61)
    });
    let time_exceeded = icmp_error_datagram(IcmpError::TtlExceeded, B, 64, 4, &udp).unwrap();
    let unreachable =
        icmp_error_datagram(IcmpError::FragNeeded { next_hop_mtu: 296 }, B, 64, 5, &echo).unwrap();
    vec![udp, echo, time_exceeded, unreachable]
}

#[test]
fn seeds_are_valid() {
    for seed in seeds() {
        let ip = Ipv4Packet::new_checked(&seed[..]).unwrap();
        Ipv4Repr::parse(&ip).unwrap();
        parse_everything(&seed);
    }
}

#[test]
fn every_truncation_is_an_error() {
    for seed in seeds() {
        for len in 0..seed.len() {
            assert!(Ipv4Packet::new_checked(&seed[..len]).is_err());
            parse_everything(&seed[..len]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..128)) {
        parse_everything(&data);
    }

    #[test]
    fn random_ipv4_looking_bytes_never_panic(
        ihl in 0u8..16,
        total_len in any::<u16>(),
        rest in proptest::collection::vec(any::<u8>(), 0..100),
    ) {
        // Start with a plausible version/IHL and length so parsing gets past the first checks.
        let mut data = vec![0x40 | ihl, 0];
        data.extend(total_len.to_be_bytes());
        data.extend(rest);
        parse_everything(&data);
        let mut fixed = data.clone();
        if fixed.len() >= 20 {
            Ipv4Packet::new_unchecked(&mut fixed[..]).fill_checksum();
            parse_everything(&fixed);
        }
    }

    #[test]
    fn corrupted_valid_packets_never_panic(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        cut in any::<usize>(),
        fix_ip_checksum in any::<bool>(),
    ) {
        let mut data = seeds().swap_remove(which);
        for (at, value) in edits {
            let i = at % data.len();
            data[i] = value;
        }
        let keep = data.len() - cut % 8;
        data.truncate(keep);
        if fix_ip_checksum && data.len() >= 20 {
            // Let corrupted headers pass the IPv4 checksum so inner layers get exercised.
            Ipv4Packet::new_unchecked(&mut data[..]).fill_checksum();
        }
        parse_everything(&data);
    }
}
