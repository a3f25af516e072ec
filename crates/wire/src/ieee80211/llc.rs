//! IEEE 802.2 LLC with a SNAP header (RFC 1042): how an IPv4 packet rides inside an 802.11
//! data frame.
//!
//! ```text
//! +------+------+---------+-------------------+-----------+
//! | DSAP | SSAP | Control | OUI               | EtherType |
//! | 0xAA | 0xAA | 0x03    | 0x00 0x00 0x00    | 2 octets  |
//! +------+------+---------+-------------------+-----------+
//! ```
//!
//! RFC 1042 ("A Standard for the Transmission of IP Datagrams over IEEE 802 Networks"): SNAP
//! SAP 0xAA, unnumbered information (UI, control 3), organization code 0, then the EtherType
//! (big-endian; 0x0800 for IPv4).

use crate::be::{read_u16, write_u16};
use crate::{Result, WireError};

/// Length of the LLC/SNAP header: 8 octets.
pub const HEADER_LEN: usize = 8;

/// The EtherType of IPv4 (IEEE 802 numbers; RFC 894/1042): 0x0800.
pub const ETHERTYPE_IPV4: u16 = 0x0800;

/// RFC 1042: DSAP, SSAP (both the SNAP SAP 0xAA), control 0x03 (UI) and the zero OUI.
const SNAP_PREFIX: [u8; 6] = [0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00];

/// A read/write view of an LLC/SNAP header and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlcSnapPacket<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> LlcSnapPacket<T> {
    /// Wraps a buffer without checking it.
    pub const fn new_unchecked(buffer: T) -> Self {
        LlcSnapPacket { buffer }
    }

    /// Wraps a buffer that holds at least the 8-octet header ([`WireError::Truncated`]
    /// otherwise).
    pub fn new_checked(buffer: T) -> Result<Self> {
        if buffer.as_ref().len() < HEADER_LEN {
            return Err(WireError::Truncated);
        }
        Ok(LlcSnapPacket { buffer })
    }

    /// Whether DSAP, SSAP, control and OUI are the RFC 1042 values.
    pub fn is_rfc1042(&self) -> bool {
        self.buffer.as_ref().get(..6) == Some(&SNAP_PREFIX[..])
    }

    /// The EtherType.
    pub fn ethertype(&self) -> u16 {
        read_u16(self.buffer.as_ref(), 6)
    }

    /// What follows the header (empty if the buffer is shorter; never panics).
    pub fn payload(&self) -> &[u8] {
        self.buffer.as_ref().get(HEADER_LEN..).unwrap_or(&[])
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> LlcSnapPacket<T> {
    /// What follows the header, mutably (empty if the buffer is shorter).
    pub fn payload_mut(&mut self) -> &mut [u8] {
        match self.buffer.as_mut().get_mut(HEADER_LEN..) {
            Some(p) => p,
            None => &mut [],
        }
    }
}

/// An RFC 1042 LLC/SNAP header.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LlcSnapRepr {
    /// The EtherType of the payload.
    pub ethertype: u16,
}

impl LlcSnapRepr {
    /// Reads the header; anything but the RFC 1042 prefix is [`WireError::Unsupported`].
    pub fn parse<T: AsRef<[u8]>>(packet: &LlcSnapPacket<T>) -> Result<Self> {
        if packet.buffer.as_ref().len() < HEADER_LEN {
            return Err(WireError::Truncated);
        }
        if !packet.is_rfc1042() {
            return Err(WireError::Unsupported);
        }
        Ok(LlcSnapRepr {
            ethertype: packet.ethertype(),
        })
    }

    /// Octets of the header: 8.
    pub const fn header_len(&self) -> usize {
        HEADER_LEN
    }

    /// Writes the header into the first 8 octets of `buf` (which must hold them).
    pub fn emit(&self, buf: &mut [u8]) {
        buf[..6].copy_from_slice(&SNAP_PREFIX);
        write_u16(buf, 6, self.ethertype);
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn bytes() {
        let mut buf = [0u8; 10];
        LlcSnapRepr {
            ethertype: ETHERTYPE_IPV4,
        }
        .emit(&mut buf);
        assert_eq!(buf[..8], [0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00]);
        let p = LlcSnapPacket::new_checked(&buf[..]).unwrap();
        assert_eq!(LlcSnapRepr::parse(&p).unwrap().ethertype, 0x0800);
        assert_eq!(p.payload().len(), 2);
        assert_eq!(
            LlcSnapPacket::new_checked(&buf[..7]).unwrap_err(),
            WireError::Truncated
        );
        let mut other = buf;
        other[0] = 0x42;
        let p = LlcSnapPacket::new_checked(&other[..]).unwrap();
        assert_eq!(LlcSnapRepr::parse(&p).unwrap_err(), WireError::Unsupported);
    }
}
