//! 48-bit IEEE MAC addresses (IEEE Std 802-2014 §8.2; 802.11-2020 §9.2.4.3).

use core::fmt;

/// A 48-bit MAC address, in transmission order.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MacAddr(pub [u8; 6]);

impl MacAddr {
    /// The broadcast address `ff:ff:ff:ff:ff:ff`.
    pub const BROADCAST: MacAddr = MacAddr([0xff; 6]);

    /// The all-zero address (no station).
    pub const UNSPECIFIED: MacAddr = MacAddr([0; 6]);

    /// The address of interface `iface` of node `node` as the simulator assigns it: a locally
    /// administered unicast address (IEEE 802 §8.2.2: U/L bit set, I/G bit clear)
    /// `02:00:<iface>:<node, 3 low bytes big-endian>`, the node's high byte in the first octet's
    /// six upper bits (nodes up to 2^30 get distinct addresses; below 2^24 the first octet is
    /// 02).
    ///
    /// Why `02:00`: Wireshark's well-known-address table names `02:01:…` to `02:20:…` as
    /// Microsoft NLB servers (`wka`: `02-01-00-00-00-00/16 MS-NLB-PhysServer-01`), so a second
    /// interface at `02:<iface>:…` was dissected as "MS-NLB-PhysServer" (issue 35 item 9).
    /// `02:00:<iface>` matches no entry of its `manuf` or `wka` (Wireshark 4.0).
    pub const fn local(node: u32, iface: u8) -> MacAddr {
        let n = node.to_be_bytes();
        MacAddr([0x02 | ((n[0] & 0x3f) << 2), 0x00, iface, n[1], n[2], n[3]])
    }

    /// Reads an address from the first six bytes of `bytes`; `None` if it is shorter.
    pub fn from_slice(bytes: &[u8]) -> Option<MacAddr> {
        let b: [u8; 6] = bytes.get(..6)?.try_into().ok()?;
        Some(MacAddr(b))
    }

    /// The six bytes.
    pub const fn as_bytes(&self) -> &[u8; 6] {
        &self.0
    }

    /// Whether this is a group (multicast or broadcast) address: the I/G bit, the least
    /// significant bit of the first octet, is set.
    pub const fn is_group(&self) -> bool {
        self.0[0] & 0x01 != 0
    }

    /// Whether this is the broadcast address.
    pub fn is_broadcast(&self) -> bool {
        *self == Self::BROADCAST
    }

    /// Whether this is an individual (unicast) address.
    pub const fn is_unicast(&self) -> bool {
        !self.is_group()
    }
}

impl fmt::Display for MacAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            b[0], b[1], b[2], b[3], b[4], b[5]
        )
    }
}

impl fmt::Debug for MacAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn local_addresses() {
        let a = MacAddr::local(0x0102_0304, 1);
        assert_eq!(a.0, [0x06, 0x00, 0x01, 0x02, 0x03, 0x04]);
        assert!(a.is_unicast());
        assert!(MacAddr::BROADCAST.is_group() && MacAddr::BROADCAST.is_broadcast());
        assert_eq!(a.to_string(), "06:00:01:02:03:04");
        // Below 2^24 nodes: 02:00:<iface>:<node>, never 02:01..02:20 (Wireshark's MS-NLB).
        assert_eq!(MacAddr::local(5, 1).to_string(), "02:00:01:00:00:05");
        assert_eq!(MacAddr::local(5, 0).to_string(), "02:00:00:00:00:05");
        // Distinct up to 2^30 nodes, and always locally administered unicast.
        let hi = MacAddr::local(0x3f00_0005, 1);
        assert_ne!(hi, MacAddr::local(5, 1));
        assert!(hi.is_unicast() && hi.0[0] & 0x02 != 0);
        assert_eq!(MacAddr::from_slice(&[1, 2, 3]), None);
        assert_eq!(MacAddr::from_slice(&a.0), Some(a));
    }
}
