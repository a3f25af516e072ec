//! Writes a small capture of packets built by this crate (UDP datagrams, ICMP echo and ICMP
//! errors) to the path given as the first argument, for checking with Wireshark/tshark:
//!
//! ```text
//! cargo run -p sctpsim-wire --example wire_pcap -- /tmp/wire.pcap
//! tshark -r /tmp/wire.pcap -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
//!        -Y '_ws.malformed || _ws.expert.severity >= error'
//! ```

use std::fs::File;
use std::io::BufWriter;

use sctpsim_wire::pcap::LINKTYPE_RAW;
use sctpsim_wire::{
    icmp_error_datagram, udp_datagram, IcmpError, Icmpv4Packet, Icmpv4Repr, IpProtocol, Ipv4Addr,
    Ipv4Packet, Ipv4Repr, PcapWriter, UdpRepr,
};

fn echo(src: Ipv4Addr, dst: Ipv4Addr, repr: Icmpv4Repr) -> Vec<u8> {
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IpProtocol::Icmp,
        payload_len: repr.buffer_len(),
        ttl: 64,
        ident: 99,
        dscp: 0,
        dont_frag: true,
    };
    let mut buf = vec![0u8; ip.buffer_len()];
    let mut packet = Ipv4Packet::new_unchecked(&mut buf[..]);
    ip.emit(&mut packet);
    repr.emit(
        &mut Icmpv4Packet::new_unchecked(packet.payload_mut()),
        |d| {
            for (i, b) in d.iter_mut().enumerate() {
                *b = i as u8;
            }
        },
    );
    buf
}

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "wire.pcap".to_owned());
    let a = Ipv4Addr::new(10, 0, 0, 1);
    let b = Ipv4Addr::new(10, 0, 1, 2);
    let router = Ipv4Addr::new(10, 0, 0, 254);

    let mut packets = Vec::new();
    for (i, len) in [0usize, 1, 13, 512, 1472].into_iter().enumerate() {
        let udp = UdpRepr {
            src_port: 40000 + i as u16,
            dst_port: 9, // discard (RFC 863): no application dissector
        };
        let payload: Vec<u8> = (0..len).map(|k| (k * 7 + i) as u8).collect();
        packets.push(udp_datagram(a, b, 1, i as u16, &udp, &payload));
    }
    let offending = packets[2].clone();
    packets.push(echo(
        a,
        b,
        Icmpv4Repr::EchoRequest {
            ident: 0x4242,
            seq_no: 1,
            data_len: 56,
        },
    ));
    packets.push(echo(
        b,
        a,
        Icmpv4Repr::EchoReply {
            ident: 0x4242,
            seq_no: 1,
            data_len: 56,
        },
    ));
    for kind in [
        IcmpError::TtlExceeded,
        IcmpError::NetUnreachable,
        IcmpError::HostUnreachable,
        IcmpError::ProtocolUnreachable,
        IcmpError::PortUnreachable,
        IcmpError::FragNeeded { next_hop_mtu: 576 },
    ] {
        packets.extend(icmp_error_datagram(kind, router, 255, 7, &offending));
    }

    let mut writer = PcapWriter::new(BufWriter::new(File::create(&path)?), LINKTYPE_RAW)?;
    for (i, p) in packets.iter().enumerate() {
        writer.write_packet(i as u64 * 1_250_000_001, p)?;
    }
    writer.flush()?;
    println!("wrote {} packets to {path}", writer.packets_written());
    Ok(())
}
