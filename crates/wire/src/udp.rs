//! UDP (RFC 768): the packet view [`UdpPacket`], the header representation [`UdpRepr`] and
//! [`udp_datagram`], which builds a complete IPv4 + UDP packet.
//!
//! ```text
//!  0      7 8     15 16    23 24    31
//! +--------+--------+--------+--------+
//! |     Source      |   Destination   |
//! |      Port       |      Port       |
//! +--------+--------+--------+--------+
//! |     Length      |    Checksum     |
//! +--------+--------+--------+--------+
//! |          data octets ...
//! ```

use std::net::Ipv4Addr;

use crate::be::{read_u16, write_u16};
use crate::checksum::{combine, fold, pseudo_header_sum, sum_bytes};
use crate::ipv4::{IpProtocol, Ipv4Packet, Ipv4Repr};
use crate::{Result, WireError};

/// RFC 768: the header is 8 bytes (source port, destination port, length, checksum).
pub const HEADER_LEN: usize = 8;

/// RFC 768: "If the computed checksum is zero, it is transmitted as all ones"; a transmitted
/// zero means "no checksum".
const NO_CHECKSUM: u16 = 0;

/// Byte ranges of the header (RFC 768).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const SRC_PORT: Field = 0..2;
    pub(crate) const DST_PORT: Field = 2..4;
    pub(crate) const LENGTH: Field = 4..6;
    pub(crate) const CHECKSUM: Field = 6..8;
}

/// A read/write view of a UDP datagram (header and payload) in a buffer.
///
/// Build it with [`UdpPacket::new_checked`] for bytes from the wire: afterwards every accessor is
/// safe. With [`UdpPacket::new_unchecked`] the field accessors panic if the buffer is shorter
/// than the field they touch (payload accessors never panic; they return an empty slice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UdpPacket<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> UdpPacket<T> {
    /// Wraps a buffer without checking it; see [`UdpPacket::check_len`].
    pub const fn new_unchecked(buffer: T) -> Self {
        UdpPacket { buffer }
    }

    /// Wraps a buffer after [`UdpPacket::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let packet = Self::new_unchecked(buffer);
        packet.check_len()?;
        Ok(packet)
    }

    /// Checks that the header fits ([`WireError::Truncated`]), that the length field covers the
    /// header ([`WireError::Malformed`]) and that it fits in the buffer
    /// ([`WireError::Truncated`]). Bytes beyond the length field are allowed and ignored.
    pub fn check_len(&self) -> Result<()> {
        let len = self.buffer.as_ref().len();
        if len < HEADER_LEN {
            return Err(WireError::Truncated);
        }
        let field_len = usize::from(self.len());
        if field_len < HEADER_LEN {
            return Err(WireError::Malformed);
        }
        if field_len > len {
            return Err(WireError::Truncated);
        }
        Ok(())
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// RFC 768: the source port (0 if unused).
    pub fn src_port(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::SRC_PORT.start)
    }

    /// RFC 768: the destination port.
    pub fn dst_port(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::DST_PORT.start)
    }

    /// RFC 768: the length in bytes of header plus data.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::LENGTH.start)
    }

    /// RFC 768: the checksum field as stored (0 means "not computed").
    pub fn checksum(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::CHECKSUM.start)
    }

    /// The datagram (header and data) as delimited by the length field, or `None` if the
    /// buffer does not hold it.
    fn datagram(&self) -> Option<&[u8]> {
        let data = self.buffer.as_ref();
        let len = data.get(field::LENGTH)?;
        let len = usize::from(u16::from_be_bytes([len[0], len[1]]));
        if len < HEADER_LEN {
            return None;
        }
        data.get(..len)
    }

    /// RFC 768: whether the checksum over the IPv4 pseudo-header, header and data verifies.
    /// A zero checksum field means the sender computed none and is accepted. False if the
    /// buffer does not hold the datagram (never panics).
    pub fn verify_checksum(&self, src: Ipv4Addr, dst: Ipv4Addr) -> bool {
        let Some(datagram) = self.datagram() else {
            return false;
        };
        if read_u16(datagram, field::CHECKSUM.start) == NO_CHECKSUM {
            return true;
        }
        // `datagram()` bounds the length by the u16 length field.
        let length = datagram.len() as u16;
        let pseudo = pseudo_header_sum(src, dst, IpProtocol::Udp.into(), length);
        fold(combine(pseudo, sum_bytes(datagram))) == 0xffff
    }

    /// The data after the header, up to the length field. Empty if the length field is
    /// inconsistent with the buffer (never panics).
    pub fn payload(&self) -> &[u8] {
        self.datagram()
            .and_then(|d| d.get(HEADER_LEN..))
            .unwrap_or(&[])
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> UdpPacket<T> {
    /// Sets the source port.
    pub fn set_src_port(&mut self, port: u16) {
        write_u16(self.buffer.as_mut(), field::SRC_PORT.start, port);
    }

    /// Sets the destination port.
    pub fn set_dst_port(&mut self, port: u16) {
        write_u16(self.buffer.as_mut(), field::DST_PORT.start, port);
    }

    /// Sets the length field (header plus data).
    pub fn set_len(&mut self, len: u16) {
        write_u16(self.buffer.as_mut(), field::LENGTH.start, len);
    }

    /// Sets the checksum field to a raw value.
    pub fn set_checksum(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::CHECKSUM.start, value);
    }

    /// Computes and stores the checksum over the IPv4 pseudo-header, header and data
    /// (RFC 768); a computed zero is stored as `0xFFFF`. Uses the length field, clamped to the
    /// buffer.
    pub fn fill_checksum(&mut self, src: Ipv4Addr, dst: Ipv4Addr) {
        self.set_checksum(0);
        let data = self.buffer.as_ref();
        let len = usize::from(self.len()).min(data.len());
        let datagram = &data[..len];
        let pseudo = pseudo_header_sum(src, dst, IpProtocol::Udp.into(), self.len());
        let value = match !fold(combine(pseudo, sum_bytes(datagram))) {
            // RFC 768: "If the computed checksum is zero, it is transmitted as all ones".
            0 => 0xffff,
            value => value,
        };
        self.set_checksum(value);
    }

    /// The data after the header, mutably, up to the length field. Empty if the length field
    /// is inconsistent with the buffer (never panics).
    pub fn payload_mut(&mut self) -> &mut [u8] {
        let data = self.buffer.as_mut();
        let len = match data.get(field::LENGTH) {
            Some(len) => usize::from(u16::from_be_bytes([len[0], len[1]])),
            None => 0,
        };
        match data.get_mut(HEADER_LEN..len) {
            Some(payload) => payload,
            None => &mut [],
        }
    }
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for UdpPacket<T> {
    fn as_ref(&self) -> &[u8] {
        self.buffer.as_ref()
    }
}

/// The fields of a UDP header that are not derived from the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UdpRepr {
    /// Source port.
    pub src_port: u16,
    /// Destination port.
    pub dst_port: u16,
}

impl UdpRepr {
    /// RFC 768: the header is 8 bytes.
    pub const HEADER_LEN: usize = HEADER_LEN;

    /// Parses a datagram carried from `src` to `dst`, verifying the checksum with the IPv4
    /// pseudo-header ([`WireError::BadChecksum`]); a zero checksum means "none" and is accepted.
    /// Lengths are (re-)checked as in [`UdpPacket::check_len`].
    pub fn parse<T: AsRef<[u8]> + ?Sized>(
        packet: &UdpPacket<&T>,
        src: Ipv4Addr,
        dst: Ipv4Addr,
    ) -> Result<UdpRepr> {
        packet.check_len()?;
        if !packet.verify_checksum(src, dst) {
            return Err(WireError::BadChecksum);
        }
        Ok(UdpRepr {
            src_port: packet.src_port(),
            dst_port: packet.dst_port(),
        })
    }

    /// Length of the header: [`UdpRepr::HEADER_LEN`].
    pub const fn header_len(&self) -> usize {
        HEADER_LEN
    }

    /// Length of header plus `payload_len` bytes of data.
    pub const fn buffer_len(&self, payload_len: usize) -> usize {
        HEADER_LEN + payload_len
    }

    /// Writes ports and length, lets `fill_payload` write the `payload_len` data bytes, then
    /// writes the real checksum over the pseudo-header for `src` → `dst` (a computed zero is
    /// sent as `0xFFFF`, RFC 768).
    ///
    /// # Panics
    /// If the buffer is shorter than `8 + payload_len`, or `8 + payload_len` exceeds 65535
    /// (caller bugs, not packet content).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(
        &self,
        packet: &mut UdpPacket<T>,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        payload_len: usize,
        fill_payload: impl FnOnce(&mut [u8]),
    ) {
        let len = self.buffer_len(payload_len);
        let Ok(len_field) = u16::try_from(len) else {
            panic!("UDP datagram of {len} bytes exceeds the 16-bit length field");
        };
        packet.set_src_port(self.src_port);
        packet.set_dst_port(self.dst_port);
        packet.set_len(len_field);
        packet.set_checksum(0);
        fill_payload(&mut packet.buffer.as_mut()[HEADER_LEN..len]);
        packet.fill_checksum(src, dst);
    }
}

/// Builds a complete IPv4 + UDP packet from `src` to `dst` carrying `payload`, with a real IPv4
/// header checksum and a real UDP checksum. The IPv4 header has no options, DSCP 0 and DF clear.
///
/// # Panics
/// If the payload does not fit in one IPv4 packet (more than 65507 bytes).
pub fn udp_datagram(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    ttl: u8,
    ident: u16,
    udp: &UdpRepr,
    payload: &[u8],
) -> Vec<u8> {
    let udp_len = udp.buffer_len(payload.len());
    assert!(
        udp_len <= Ipv4Repr::MAX_PAYLOAD_LEN,
        "UDP payload of {} bytes does not fit in an IPv4 packet",
        payload.len()
    );
    let ip = Ipv4Repr {
        src_addr: src,
        dst_addr: dst,
        protocol: IpProtocol::Udp,
        payload_len: udp_len,
        ttl,
        ident,
        dscp: 0,
        dont_frag: false,
    };
    let mut buf = vec![0u8; ip.buffer_len()];
    let mut ip_packet = Ipv4Packet::new_unchecked(&mut buf[..]);
    ip.emit(&mut ip_packet);
    let mut udp_packet = UdpPacket::new_unchecked(ip_packet.payload_mut());
    udp.emit(&mut udp_packet, src, dst, payload.len(), |data| {
        data.copy_from_slice(payload)
    });
    buf
}

#[cfg(test)]
mod test {
    use super::*;

    const SRC: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
    const DST: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

    /// 10.0.0.1:5000 → 10.0.0.2:9, data "hello sctpsim" (13 bytes, odd). The checksum 0xcc00
    /// was computed independently with a few lines of Python (pseudo-header + header + data,
    /// RFC 1071 sum, complement).
    const DATAGRAM: [u8; 21] = [
        0x13, 0x88, 0x00, 0x09, 0x00, 0x15, 0xcc, 0x00, b'h', b'e', b'l', b'l', b'o', b' ', b's',
        b'c', b't', b'p', b's', b'i', b'm',
    ];

    const REPR: UdpRepr = UdpRepr {
        src_port: 5000,
        dst_port: 9,
    };

    #[test]
    fn deconstruct() {
        let packet = UdpPacket::new_checked(&DATAGRAM[..]).unwrap();
        assert_eq!(packet.src_port(), 5000);
        assert_eq!(packet.dst_port(), 9);
        assert_eq!(packet.len(), 21);
        assert_eq!(packet.checksum(), 0xcc00);
        assert_eq!(packet.payload(), b"hello sctpsim");
        assert!(packet.verify_checksum(SRC, DST));
        assert!(!packet.verify_checksum(DST, Ipv4Addr::new(10, 0, 0, 3)));
    }

    #[test]
    fn construct() {
        let mut bytes = [0xa5u8; 21];
        let mut packet = UdpPacket::new_unchecked(&mut bytes[..]);
        packet.set_src_port(5000);
        packet.set_dst_port(9);
        packet.set_len(21);
        packet.payload_mut().copy_from_slice(b"hello sctpsim");
        packet.fill_checksum(SRC, DST);
        assert_eq!(bytes, DATAGRAM);
    }

    #[test]
    fn parse_and_emit() {
        let packet = UdpPacket::new_checked(&DATAGRAM[..]).unwrap();
        assert_eq!(UdpRepr::parse(&packet, SRC, DST), Ok(REPR));
        let mut bytes = [0u8; 21];
        REPR.emit(
            &mut UdpPacket::new_unchecked(&mut bytes[..]),
            SRC,
            DST,
            13,
            |d| d.copy_from_slice(b"hello sctpsim"),
        );
        assert_eq!(bytes, DATAGRAM);
    }

    #[test]
    fn bad_checksum_and_zero_checksum() {
        let mut bytes = DATAGRAM;
        bytes[10] ^= 0x01;
        let packet = UdpPacket::new_checked(&bytes[..]).unwrap();
        assert_eq!(
            UdpRepr::parse(&packet, SRC, DST),
            Err(WireError::BadChecksum)
        );
        bytes[6] = 0;
        bytes[7] = 0;
        let packet = UdpPacket::new_checked(&bytes[..]).unwrap();
        assert_eq!(UdpRepr::parse(&packet, SRC, DST), Ok(REPR));
    }

    #[test]
    fn computed_zero_is_sent_as_all_ones() {
        // Choose the source port so that the one's complement sum is 0xffff: the checksum would
        // be 0 and must be sent as 0xffff.
        let mut bytes = [0u8; 8];
        let mut packet = UdpPacket::new_unchecked(&mut bytes[..]);
        packet.set_src_port(0);
        packet.set_dst_port(0);
        packet.set_len(8);
        let pseudo = pseudo_header_sum(SRC, DST, 17, 8);
        let partial = fold(combine(pseudo, sum_bytes(packet.as_ref())));
        packet.set_src_port(0xffff - partial);
        packet.fill_checksum(SRC, DST);
        assert_eq!(packet.checksum(), 0xffff);
        assert!(packet.verify_checksum(SRC, DST));
    }

    #[test]
    fn truncated_and_malformed() {
        for len in 0..DATAGRAM.len() {
            assert_eq!(
                UdpPacket::new_checked(&DATAGRAM[..len]).map(|_| ()),
                Err(WireError::Truncated),
                "prefix of {len} bytes"
            );
        }
        let mut bytes = DATAGRAM;
        bytes[4..6].copy_from_slice(&7u16.to_be_bytes());
        assert_eq!(
            UdpPacket::new_checked(&bytes[..]).map(|_| ()),
            Err(WireError::Malformed)
        );
        let unchecked = UdpPacket::new_unchecked(&bytes[..]);
        assert!(unchecked.payload().is_empty());
        assert!(!unchecked.verify_checksum(SRC, DST));
        assert_eq!(
            UdpRepr::parse(&unchecked, SRC, DST),
            Err(WireError::Malformed)
        );
    }

    #[test]
    fn trailing_bytes_are_ignored() {
        let mut bytes = DATAGRAM.to_vec();
        bytes.extend([0xee; 3]);
        let packet = UdpPacket::new_checked(&bytes[..]).unwrap();
        assert_eq!(packet.payload(), b"hello sctpsim");
        assert_eq!(UdpRepr::parse(&packet, SRC, DST), Ok(REPR));
    }

    #[test]
    fn full_datagram() {
        let bytes = udp_datagram(SRC, DST, 64, 0x1234, &REPR, b"hello sctpsim");
        assert_eq!(bytes.len(), 20 + 21);
        let ip = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        let ip_repr = Ipv4Repr::parse(&ip).unwrap();
        assert_eq!(
            ip_repr,
            Ipv4Repr {
                src_addr: SRC,
                dst_addr: DST,
                protocol: IpProtocol::Udp,
                payload_len: 21,
                ttl: 64,
                ident: 0x1234,
                dscp: 0,
                dont_frag: false,
            }
        );
        assert_eq!(ip.payload(), &DATAGRAM);
    }
}
