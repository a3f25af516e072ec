//! Property tests: `parse(emit(repr)) == repr` for every codec, and the router helpers agree
//! with a from-scratch computation.

use proptest::prelude::*;
use sctpsim_wire::checksum::internet_checksum;
use sctpsim_wire::icmp::DstUnreachable;
use sctpsim_wire::{
    decrement_ttl_in_place, udp_datagram, Icmpv4Packet, Icmpv4Repr, IpProtocol, Ipv4Addr,
    Ipv4Packet, Ipv4Repr, UdpPacket, UdpRepr,
};

fn addr() -> impl Strategy<Value = Ipv4Addr> {
    any::<u32>().prop_map(Ipv4Addr::from)
}

fn payload_len() -> impl Strategy<Value = usize> {
    prop_oneof![
        8 => 0usize..2000,
        1 => 0usize..=Ipv4Repr::MAX_PAYLOAD_LEN,
        1 => Just(Ipv4Repr::MAX_PAYLOAD_LEN),
    ]
}

fn ipv4_repr() -> impl Strategy<Value = Ipv4Repr> {
    (
        addr(),
        addr(),
        any::<u8>(),
        payload_len(),
        any::<u8>(),
        any::<u16>(),
        0u8..64,
        any::<bool>(),
    )
        .prop_map(
            |(src_addr, dst_addr, protocol, payload_len, ttl, ident, dscp, dont_frag)| Ipv4Repr {
                src_addr,
                dst_addr,
                protocol: IpProtocol::from(protocol),
                payload_len,
                ttl,
                ident,
                dscp,
                dont_frag,
            },
        )
}

fn dst_unreachable() -> impl Strategy<Value = DstUnreachable> {
    prop_oneof![
        Just(DstUnreachable::NetUnreachable),
        Just(DstUnreachable::HostUnreachable),
        Just(DstUnreachable::ProtoUnreachable),
        Just(DstUnreachable::PortUnreachable),
        any::<u16>().prop_map(|next_hop_mtu| DstUnreachable::FragRequired { next_hop_mtu }),
        Just(DstUnreachable::SrcRouteFailed),
    ]
}

fn icmp_repr() -> impl Strategy<Value = Icmpv4Repr> {
    prop_oneof![
        (any::<u16>(), any::<u16>(), 0usize..1500).prop_map(|(ident, seq_no, data_len)| {
            Icmpv4Repr::EchoRequest {
                ident,
                seq_no,
                data_len,
            }
        }),
        (any::<u16>(), any::<u16>(), 0usize..1500).prop_map(|(ident, seq_no, data_len)| {
            Icmpv4Repr::EchoReply {
                ident,
                seq_no,
                data_len,
            }
        }),
        (dst_unreachable(), ipv4_repr(), 0usize..=64).prop_map(|(reason, header, data_len)| {
            Icmpv4Repr::DstUnreachable {
                reason,
                header,
                data_len,
            }
        }),
        (ipv4_repr(), 0usize..=64)
            .prop_map(|(header, data_len)| Icmpv4Repr::TimeExceeded { header, data_len }),
    ]
}

proptest! {
    #[test]
    fn ipv4_round_trip(repr in ipv4_repr(), fill in any::<u8>()) {
        let mut buf = vec![fill; repr.buffer_len()];
        repr.emit(&mut Ipv4Packet::new_unchecked(&mut buf[..]));
        let packet = Ipv4Packet::new_checked(&buf[..]).unwrap();
        prop_assert!(packet.verify_checksum());
        prop_assert_eq!(usize::from(packet.total_len()), repr.buffer_len());
        prop_assert_eq!(packet.payload().len(), repr.payload_len);
        prop_assert_eq!(Ipv4Repr::parse(&packet), Ok(repr));
        prop_assert_eq!(internet_checksum(&buf[..20]), 0);
    }

    #[test]
    fn ipv4_header_bit_flips_are_always_detected(repr in ipv4_repr(), bit in 0usize..160) {
        let len = repr.header_len() + repr.payload_len.min(64);
        let mut buf = vec![0u8; len];
        let mut packet = Ipv4Packet::new_unchecked(&mut buf[..]);
        repr.emit(&mut packet);
        packet.set_total_len(len as u16);
        Ipv4Packet::new_unchecked(&mut buf[..]).fill_checksum();
        buf[bit / 8] ^= 1 << (bit % 8);
        let parsed = Ipv4Packet::new_checked(&buf[..]).and_then(|p| Ipv4Repr::parse(&p));
        prop_assert!(parsed.is_err());
    }

    #[test]
    fn udp_round_trip(
        src in addr(),
        dst in addr(),
        src_port in any::<u16>(),
        dst_port in any::<u16>(),
        payload in proptest::collection::vec(any::<u8>(), 0..1500),
    ) {
        let repr = UdpRepr { src_port, dst_port };
        let mut buf = vec![0u8; repr.buffer_len(payload.len())];
        repr.emit(&mut UdpPacket::new_unchecked(&mut buf[..]), src, dst, payload.len(), |d| {
            d.copy_from_slice(&payload)
        });
        let packet = UdpPacket::new_checked(&buf[..]).unwrap();
        prop_assert_ne!(packet.checksum(), 0);
        prop_assert!(packet.verify_checksum(src, dst));
        prop_assert_eq!(packet.payload(), &payload[..]);
        prop_assert_eq!(UdpRepr::parse(&packet, src, dst), Ok(repr));
    }

    #[test]
    fn udp_datagram_is_fully_valid(
        src in addr(),
        dst in addr(),
        ttl in any::<u8>(),
        ident in any::<u16>(),
        ports in any::<(u16, u16)>(),
        payload in proptest::collection::vec(any::<u8>(), 0..1500),
    ) {
        let udp = UdpRepr { src_port: ports.0, dst_port: ports.1 };
        let bytes = udp_datagram(src, dst, ttl, ident, &udp, &payload);
        let ip = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        let ip_repr = Ipv4Repr::parse(&ip).unwrap();
        prop_assert_eq!(ip_repr.protocol, IpProtocol::Udp);
        prop_assert_eq!(ip_repr.ttl, ttl);
        prop_assert_eq!(ip_repr.ident, ident);
        prop_assert_eq!(ip_repr.payload_len, 8 + payload.len());
        let packet = UdpPacket::new_checked(ip.payload()).unwrap();
        prop_assert_eq!(UdpRepr::parse(&packet, src, dst), Ok(udp));
        prop_assert_eq!(packet.payload(), &payload[..]);
    }

    #[test]
    fn icmp_round_trip(repr in icmp_repr(), data_byte in any::<u8>()) {
        let mut buf = vec![0u8; repr.buffer_len()];
        repr.emit(&mut Icmpv4Packet::new_unchecked(&mut buf[..]), |d| d.fill(data_byte));
        let packet = Icmpv4Packet::new_checked(&buf[..]).unwrap();
        prop_assert!(packet.verify_checksum());
        prop_assert_eq!(Icmpv4Repr::parse(&packet), Ok(repr));
    }

    #[test]
    fn ttl_decrement_matches_recomputation(
        repr in ipv4_repr(),
        options in proptest::collection::vec(any::<u8>(), 0..=10usize).prop_map(|mut o| {
            o.truncate(o.len() / 4 * 4);
            o
        }),
    ) {
        let header_len = 20 + options.len();
        let len = header_len + 4;
        let mut buf = vec![0u8; len];
        let mut packet = Ipv4Packet::new_unchecked(&mut buf[..]);
        repr.emit(&mut packet);
        packet.set_header_len(header_len as u8);
        packet.set_total_len(len as u16);
        buf[20..header_len].copy_from_slice(&options);
        Ipv4Packet::new_unchecked(&mut buf[..]).fill_checksum();

        let result = decrement_ttl_in_place(&mut buf);
        let expected_ttl = repr.ttl.saturating_sub(1);
        prop_assert_eq!(result, Ok(expected_ttl));
        let mut recomputed = buf.clone();
        Ipv4Packet::new_unchecked(&mut recomputed[..]).fill_checksum();
        prop_assert_eq!(&buf, &recomputed);
        prop_assert!(Ipv4Packet::new_checked(&buf[..]).unwrap().verify_checksum());
    }
}
