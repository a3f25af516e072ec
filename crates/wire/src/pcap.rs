//! A writer for the classic libpcap capture file format, nanosecond-resolution variant, which
//! Wireshark and tshark read.
//!
//! File layout (all fields little-endian as written here; readers detect the byte order from
//! the magic number):
//!
//! ```text
//! global header (24 bytes): magic 0xA1B23C4D, version 2.4, thiszone 0, sigfigs 0,
//!                           snaplen, linktype
//! per record (16 bytes + data): ts_sec, ts_nsec, incl_len, orig_len, data[incl_len]
//! ```

use std::io::{self, Write};

/// Magic number of a pcap file whose timestamps are in nanoseconds (the microsecond variant is
/// 0xA1B2C3D4); libpcap `pcap/pcap.h`, "NSEC_TCPDUMP_MAGIC".
pub const MAGIC_NANOS: u32 = 0xA1B2_3C4D;

/// Major version of the file format: 2 (libpcap `PCAP_VERSION_MAJOR`).
pub const VERSION_MAJOR: u16 = 2;

/// Minor version of the file format: 4 (libpcap `PCAP_VERSION_MINOR`).
pub const VERSION_MINOR: u16 = 4;

/// Largest number of bytes stored per packet; longer packets are truncated in the file and
/// keep their original length in `orig_len`.
pub const SNAPLEN: u32 = 65_535;

/// Link type for raw IPv4/IPv6 packets without a link-layer header (tcpdump.org link-layer
/// header types: LINKTYPE_RAW = 101).
pub const LINKTYPE_RAW: u32 = 101;

/// Link type for IEEE 802.11 frames without a radio header (tcpdump.org link-layer header
/// types: LINKTYPE_IEEE802_11 = 105).
pub const LINKTYPE_IEEE802_11: u32 = 105;

/// Link type for IEEE 802.11 frames preceded by a radiotap header (tcpdump.org link-layer
/// header types: LINKTYPE_IEEE802_11_RADIOTAP = 127). The MAC-level captures use it, because
/// only the radiotap Flags field can tell a reader that the frames end in their FCS.
pub const LINKTYPE_IEEE802_11_RADIOTAP: u32 = 127;

/// Radiotap Flags bit: short (DSSS/HR-DSSS) preamble (radiotap.org, "Flags").
pub const RADIOTAP_FLAG_SHORT_PREAMBLE: u8 = 0x02;

/// Radiotap Flags bit: the frame includes its FCS (radiotap.org, "Flags").
pub const RADIOTAP_FLAG_FCS: u8 = 0x10;

/// Radiotap `it_present` bits of the fields [`Radiotap`] writes (radiotap.org, defined
/// fields): Flags (1), Rate (2), dBm antenna signal (5).
const RADIOTAP_PRESENT_FLAGS: u32 = 1 << 1;
const RADIOTAP_PRESENT_RATE: u32 = 1 << 2;
const RADIOTAP_PRESENT_DBM_ANTSIGNAL: u32 = 1 << 5;

/// Length of the radiotap header proper (version, pad, length, `it_present`).
const RADIOTAP_FIXED_LEN: usize = 8;

/// A minimal radiotap header (radiotap.org): the Flags field, always present (it carries
/// [`RADIOTAP_FLAG_FCS`] when the frame ends in its FCS), the data rate, and the received
/// signal power for received frames.
///
/// All three fields are one byte wide, so none needs alignment padding:
///
/// ```text
/// version 0 | pad 0 | it_len (u16 LE) | it_present (u32 LE) | flags | rate | [dBm signal]
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Radiotap {
    /// Radiotap Flags ([`RADIOTAP_FLAG_FCS`], [`RADIOTAP_FLAG_SHORT_PREAMBLE`]).
    pub flags: u8,
    /// TX/RX data rate in units of 500 kbit/s.
    pub rate_500kbps: u8,
    /// Received signal power at the antenna, dBm (received frames only).
    pub antenna_signal_dbm: Option<i8>,
}

impl Radiotap {
    /// Length of the header as [`Radiotap::emit`] writes it.
    pub fn header_len(&self) -> usize {
        RADIOTAP_FIXED_LEN + 2 + usize::from(self.antenna_signal_dbm.is_some())
    }

    /// Appends the header to `buf`.
    pub fn emit(&self, buf: &mut Vec<u8>) {
        let len = self.header_len() as u16;
        let mut present = RADIOTAP_PRESENT_FLAGS | RADIOTAP_PRESENT_RATE;
        if self.antenna_signal_dbm.is_some() {
            present |= RADIOTAP_PRESENT_DBM_ANTSIGNAL;
        }
        buf.push(0); // it_version
        buf.push(0); // it_pad
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&present.to_le_bytes());
        buf.push(self.flags);
        buf.push(self.rate_500kbps);
        if let Some(dbm) = self.antenna_signal_dbm {
            buf.extend_from_slice(&dbm.to_le_bytes());
        }
    }
}

const NANOS_PER_SEC: u64 = 1_000_000_000;

/// Writes a pcap file: the global header on creation, then one record per packet.
///
/// The writer does no buffering of its own; wrap a file in [`std::io::BufWriter`].
#[derive(Debug)]
pub struct PcapWriter<W: Write> {
    writer: W,
    packets: u64,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the global header (nanosecond magic, version 2.4, thiszone 0, sigfigs 0,
    /// snaplen [`SNAPLEN`], the given link type) and returns the writer.
    pub fn new(writer: W, linktype: u32) -> io::Result<Self> {
        let mut writer = writer;
        let mut header = [0u8; 24];
        header[0..4].copy_from_slice(&MAGIC_NANOS.to_le_bytes());
        header[4..6].copy_from_slice(&VERSION_MAJOR.to_le_bytes());
        header[6..8].copy_from_slice(&VERSION_MINOR.to_le_bytes());
        header[8..12].copy_from_slice(&0i32.to_le_bytes()); // thiszone: UTC
        header[12..16].copy_from_slice(&0u32.to_le_bytes()); // sigfigs
        header[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
        header[20..24].copy_from_slice(&linktype.to_le_bytes());
        writer.write_all(&header)?;
        Ok(PcapWriter { writer, packets: 0 })
    }

    /// Writes one record: the timestamp `time_ns` (nanoseconds since the start of the
    /// simulation, stored as seconds and nanoseconds), the stored length `min(len, SNAPLEN)`,
    /// the original length and the stored bytes.
    ///
    /// Fails with [`io::ErrorKind::InvalidInput`] if the time does not fit the 32-bit seconds
    /// field (after year 2106 of simulated time) or the packet is longer than `u32::MAX`.
    pub fn write_packet(&mut self, time_ns: u64, data: &[u8]) -> io::Result<()> {
        let secs = u32::try_from(time_ns / NANOS_PER_SEC).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidInput, "pcap timestamp beyond 2^32 s")
        })?;
        let nanos = (time_ns % NANOS_PER_SEC) as u32;
        let orig_len = u32::try_from(data.len()).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidInput, "packet longer than 2^32 bytes")
        })?;
        let incl_len = orig_len.min(SNAPLEN);
        let mut record = [0u8; 16];
        record[0..4].copy_from_slice(&secs.to_le_bytes());
        record[4..8].copy_from_slice(&nanos.to_le_bytes());
        record[8..12].copy_from_slice(&incl_len.to_le_bytes());
        record[12..16].copy_from_slice(&orig_len.to_le_bytes());
        self.writer.write_all(&record)?;
        // incl_len <= data.len() by construction.
        self.writer.write_all(&data[..incl_len as usize])?;
        self.packets += 1;
        Ok(())
    }

    /// Number of records written so far.
    pub fn packets_written(&self) -> u64 {
        self.packets
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }

    /// A reference to the underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// Returns the underlying writer (without flushing it; call [`PcapWriter::flush`] first if
    /// it buffers).
    pub fn into_inner(self) -> W {
        self.writer
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn global_header_bytes() {
        let writer = PcapWriter::new(Vec::new(), LINKTYPE_RAW).unwrap();
        assert_eq!(
            writer.into_inner(),
            [
                0x4d, 0x3c, 0xb2, 0xa1, // magic, little-endian
                0x02, 0x00, 0x04, 0x00, // version 2.4
                0x00, 0x00, 0x00, 0x00, // thiszone
                0x00, 0x00, 0x00, 0x00, // sigfigs
                0xff, 0xff, 0x00, 0x00, // snaplen 65535
                0x65, 0x00, 0x00, 0x00, // linktype 101
            ]
        );
    }

    #[test]
    fn record_bytes() {
        let mut writer = PcapWriter::new(Vec::new(), LINKTYPE_IEEE802_11).unwrap();
        writer.write_packet(3_000_000_123, &[1, 2, 3]).unwrap();
        assert_eq!(writer.packets_written(), 1);
        let bytes = writer.into_inner();
        assert_eq!(&bytes[20..24], &105u32.to_le_bytes());
        assert_eq!(
            &bytes[24..],
            &[
                3, 0, 0, 0, // ts_sec
                123, 0, 0, 0, // ts_nsec
                3, 0, 0, 0, // incl_len
                3, 0, 0, 0, // orig_len
                1, 2, 3,
            ]
        );
    }

    #[test]
    fn radiotap_header_bytes() {
        let mut buf = Vec::new();
        Radiotap {
            flags: RADIOTAP_FLAG_FCS,
            rate_500kbps: 108,
            antenna_signal_dbm: None,
        }
        .emit(&mut buf);
        assert_eq!(
            buf,
            [
                0x00, 0x00, // version 0, pad
                0x0a, 0x00, // it_len 10
                0x06, 0x00, 0x00, 0x00, // it_present: Flags, Rate
                0x10, // Flags: frame includes FCS
                0x6c, // Rate: 54 Mbit/s
            ]
        );
        let rx = Radiotap {
            flags: RADIOTAP_FLAG_FCS | RADIOTAP_FLAG_SHORT_PREAMBLE,
            rate_500kbps: 11,
            antenna_signal_dbm: Some(-67),
        };
        let mut buf = vec![0xee]; // emit appends
        rx.emit(&mut buf);
        assert_eq!(rx.header_len(), 11);
        assert_eq!(
            buf,
            [
                0xee, // what was there
                0x00, 0x00, // version 0, pad
                0x0b, 0x00, // it_len 11
                0x26, 0x00, 0x00, 0x00, // it_present: Flags, Rate, dBm antenna signal
                0x12, // Flags: FCS, short preamble
                0x0b, // Rate: 5.5 Mbit/s
                0xbd, // -67 dBm
            ]
        );
    }

    #[test]
    fn long_packets_are_truncated_to_snaplen() {
        let mut writer = PcapWriter::new(Vec::new(), LINKTYPE_RAW).unwrap();
        let data = vec![0xabu8; 70_000];
        writer.write_packet(0, &data).unwrap();
        let bytes = writer.into_inner();
        assert_eq!(&bytes[32..36], &65_535u32.to_le_bytes());
        assert_eq!(&bytes[36..40], &70_000u32.to_le_bytes());
        assert_eq!(bytes.len(), 24 + 16 + 65_535);
    }

    #[test]
    fn timestamps_beyond_u32_seconds_are_rejected() {
        let mut writer = PcapWriter::new(Vec::new(), LINKTYPE_RAW).unwrap();
        let err = writer.write_packet(u64::MAX, &[0]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(writer.packets_written(), 0);
        assert_eq!(writer.get_ref().len(), 24);
    }
}
