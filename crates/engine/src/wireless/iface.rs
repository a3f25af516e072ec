//! A wireless interface: an 802.11 MAC ([`Dcf`]), its radio ([`Radio`]) and the mapping from
//! IP next hops to MAC addresses.
//!
//! Ad hoc only in this version: every interface is a station of one IBSS ([`ADHOC_BSSID`]).
//! MAC addresses are `MacAddr::local(node, iface)` (locally administered, unique per
//! interface) and the IP → MAC mapping is static, from the interfaces' addresses: there is no
//! ARP, as in ns-2's wireless nodes with `ARPTable` pre-filled and in ns-3's static neighbour
//! caches. Broadcast IP destinations map to the broadcast MAC address.

use crate::wireless::radio::Radio;
use sctpsim_kernel::NodeId;
use sctpsim_proto::mac::{Dcf, MacAddr};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// The BSSID of the simulator's ad hoc network (a locally administered individual address,
/// IEEE 802 §8.2.2; the IBSS BSSID is normally random, §11.1.4: a fixed one keeps captures
/// reproducible).
pub const ADHOC_BSSID: MacAddr = MacAddr([0x02, 0xff, 0x00, 0x00, 0x00, 0x01]);

/// One wireless interface.
///
/// Laid out in declaration order (`repr(C)`) so that the fields every frame arrival touches
/// are contiguous: the radio's hot fields (last in [`Radio`]), then this interface's own, then
/// the MAC's hot fields (first in [`Dcf`]). With 10,000 interfaces (over 10 MB) visited in
/// the order in which neighbours hear each other, the number of cache lines an arrival
/// touches is what its cost follows. Aligned to a cache line so that the hot fields always
/// fall on the same lines.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct WifiIface {
    /// Reception state.
    pub radio: Radio,
    /// The node it belongs to.
    pub node: NodeId,
    /// Its index among the node's interfaces.
    pub iface: u32,
    /// Its IPv4 address.
    pub addr: Ipv4Addr,
    /// Its MAC address.
    pub mac: MacAddr,
    /// Earliest MAC wake-up already queued (stale wake-ups are no-ops). Right before the
    /// `Dcf`, on the cache line of its phase and carrier sense (bytes 320–335), which every
    /// pump of the MAC reads anyway.
    pub wake: sctpsim_kernel::WakeSlot,
    /// The 802.11 MAC.
    pub dcf: Dcf,
}

/// The static IP → MAC mapping of the wireless interfaces.
#[derive(Clone, Debug, Default)]
pub struct AddrMap {
    map: BTreeMap<Ipv4Addr, MacAddr>,
    /// Keyed by [`mac_key`]: looked up for every packet a routed node receives (its previous
    /// hop), and an integer key compares in one instruction where six bytes did not.
    rev: BTreeMap<u64, Ipv4Addr>,
}

/// A MAC address as an integer (big-endian, so the order is the addresses' own).
fn mac_key(mac: MacAddr) -> u64 {
    let [a, b, c, d, e, f] = mac.0;
    u64::from_be_bytes([0, 0, a, b, c, d, e, f])
}

impl AddrMap {
    /// Adds an interface.
    pub fn insert(&mut self, ip: Ipv4Addr, mac: MacAddr) {
        self.map.insert(ip, mac);
        self.rev.insert(mac_key(mac), ip);
    }

    /// The IPv4 address of the interface with MAC address `mac` (the previous hop of a
    /// received frame, for routing).
    pub fn ip_of(&self, mac: MacAddr) -> Option<Ipv4Addr> {
        self.rev.get(&mac_key(mac)).copied()
    }

    /// The MAC address of next hop `ip`: the interface that owns it, or broadcast for the
    /// limited broadcast address.
    pub fn resolve(&self, ip: Ipv4Addr) -> Option<MacAddr> {
        if ip.is_broadcast() {
            return Some(MacAddr::BROADCAST);
        }
        self.map.get(&ip).copied()
    }
}

pub use crate::scenario::addresses::wireless_default_addr as default_addr;

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(default_addr(0), Ipv4Addr::new(10, 128, 0, 1));
        assert_eq!(default_addr(255), Ipv4Addr::new(10, 128, 1, 0));
        assert_eq!(default_addr(70_000), Ipv4Addr::new(10, 129, 17, 113));
        let mut m = AddrMap::default();
        m.insert(default_addr(0), MacAddr::local(0, 0));
        assert_eq!(m.resolve(default_addr(0)), Some(MacAddr::local(0, 0)));
        assert_eq!(m.resolve(Ipv4Addr::BROADCAST), Some(MacAddr::BROADCAST));
        assert_eq!(m.resolve(default_addr(1)), None);
        m.insert(default_addr(1), MacAddr::local(1, 0));
        assert_eq!(m.ip_of(MacAddr::local(1, 0)), Some(default_addr(1)));
        assert_eq!(m.ip_of(MacAddr::local(0, 0)), Some(default_addr(0)));
        assert_eq!(m.ip_of(MacAddr::local(0, 1)), None);
    }
}
