//! Writes a capture file to a temporary directory and checks its bytes.

use std::fs;
use std::io::BufWriter;

use sctpsim_wire::pcap::{LINKTYPE_RAW, MAGIC_NANOS};
use sctpsim_wire::{udp_datagram, Ipv4Addr, PcapWriter, UdpRepr};

#[test]
fn capture_file_on_disk() {
    let dir = std::env::temp_dir().join(format!("sctpsim-wire-pcap-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("udp.pcap");

    let udp = UdpRepr {
        src_port: 40000,
        dst_port: 9,
    };
    let packets: Vec<Vec<u8>> = (0..3u16)
        .map(|i| {
            udp_datagram(
                Ipv4Addr::new(10, 0, 0, 1),
                Ipv4Addr::new(10, 0, 1, 2),
                64,
                i,
                &udp,
                &vec![i as u8; 10 + usize::from(i)],
            )
        })
        .collect();
    {
        let file = fs::File::create(&path).unwrap();
        let mut writer = PcapWriter::new(BufWriter::new(file), LINKTYPE_RAW).unwrap();
        for (i, p) in packets.iter().enumerate() {
            writer
                .write_packet(1_500_000_000 * i as u64 + 42, p)
                .unwrap();
        }
        writer.flush().unwrap();
        assert_eq!(writer.packets_written(), 3);
    }

    let bytes = fs::read(&path).unwrap();
    fs::remove_dir_all(&dir).unwrap();

    assert_eq!(&bytes[0..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
    assert_eq!(
        u32::from_le_bytes(bytes[0..4].try_into().unwrap()),
        MAGIC_NANOS
    );
    assert_eq!(&bytes[4..8], &[2, 0, 4, 0]);
    assert_eq!(&bytes[8..16], &[0; 8]);
    assert_eq!(&bytes[16..20], &65_535u32.to_le_bytes());
    assert_eq!(&bytes[20..24], &101u32.to_le_bytes());

    // Walk the records.
    let mut at = 24;
    for (i, p) in packets.iter().enumerate() {
        let word =
            |k: usize| u32::from_le_bytes(bytes[at + 4 * k..at + 4 * k + 4].try_into().unwrap());
        let t = 1_500_000_000 * i as u64 + 42;
        assert_eq!(u64::from(word(0)), t / 1_000_000_000);
        assert_eq!(u64::from(word(1)), t % 1_000_000_000);
        assert_eq!(word(2) as usize, p.len());
        assert_eq!(word(3) as usize, p.len());
        assert_eq!(&bytes[at + 16..at + 16 + p.len()], &p[..]);
        at += 16 + p.len();
    }
    assert_eq!(at, bytes.len());
}
