//! The AODV route table (RFC 3561 §6.2) and the sequence-number arithmetic it depends on
//! (§6.1).

use sctpsim_kernel::SimTime;
use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

/// RFC 3561 §6.1: `a` is fresher than `b` if `a - b`, taken as a signed 32-bit integer, is
/// positive, so that the comparison survives the wraparound of the unsigned counter.
pub fn seq_newer(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// The fresher of two sequence numbers (§6.1 comparison).
pub fn seq_max(a: u32, b: u32) -> u32 {
    if seq_newer(b, a) {
        b
    } else {
        a
    }
}

/// One route table entry (RFC 3561 §6.2). Invalid entries are kept until their lifetime ends
/// (DELETE_PERIOD after they became invalid) because their sequence number and hop count
/// still matter: the next request for the destination carries the sequence number and starts
/// its expanding ring at the last hop count (§6.3, §6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteEntry {
    /// Destination sequence number.
    pub seq: u32,
    /// Whether `seq` is known (routes to neighbours learned from their packets have none).
    pub valid_seq: bool,
    /// Valid (usable for forwarding) or invalid.
    pub valid: bool,
    /// Hops to the destination.
    pub hops: u8,
    /// Next hop (always a neighbour this node heard a packet from).
    pub next_hop: Ipv4Addr,
    /// Neighbours that use this node to reach the destination (they hear the route errors).
    pub precursors: BTreeSet<Ipv4Addr>,
    /// Valid: when the route expires. Invalid: when the entry is deleted.
    pub lifetime: SimTime,
}

/// The table: destination → entry, ordered so iteration is deterministic.
#[derive(Clone, Debug, Default)]
pub struct RouteTable {
    routes: BTreeMap<Ipv4Addr, RouteEntry>,
}

impl RouteTable {
    /// The entry for `dst`, valid or not.
    pub fn get(&self, dst: Ipv4Addr) -> Option<&RouteEntry> {
        self.routes.get(&dst)
    }

    /// The entry for `dst`, mutable.
    pub fn get_mut(&mut self, dst: Ipv4Addr) -> Option<&mut RouteEntry> {
        self.routes.get_mut(&dst)
    }

    /// The entry for `dst` if it is valid.
    pub fn valid(&self, dst: Ipv4Addr) -> Option<&RouteEntry> {
        self.routes.get(&dst).filter(|r| r.valid)
    }

    /// Inserts or replaces the entry for `dst`.
    pub fn insert(&mut self, dst: Ipv4Addr, entry: RouteEntry) {
        self.routes.insert(dst, entry);
    }

    /// All entries, by destination.
    pub fn iter(&self) -> impl Iterator<Item = (&Ipv4Addr, &RouteEntry)> {
        self.routes.iter()
    }

    /// The earliest lifetime in the table (expiry of a valid route or deletion of an invalid
    /// one).
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.routes.values().map(|r| r.lifetime).min()
    }

    /// Extends a valid route's lifetime to at least `until` (§6.2: lifetimes only grow when a
    /// route is used or confirmed).
    pub fn refresh(&mut self, dst: Ipv4Addr, until: SimTime) {
        if let Some(r) = self.routes.get_mut(&dst) {
            if r.valid && r.lifetime < until {
                r.lifetime = until;
            }
        }
    }

    /// Valid routes whose next hop is `neighbour` (their destinations, in order).
    pub fn via(&self, neighbour: Ipv4Addr) -> Vec<Ipv4Addr> {
        self.routes
            .iter()
            .filter(|(_, r)| r.valid && r.next_hop == neighbour)
            .map(|(d, _)| *d)
            .collect()
    }

    /// Handles every lifetime that ended at or before `now`: a valid route becomes invalid
    /// until `now + delete_period` (§6.11: "an expired routing table entry SHOULD NOT be
    /// expunged before (current_time + DELETE_PERIOD)"); an invalid one is deleted.
    pub fn expire(&mut self, now: SimTime, delete_until: SimTime) {
        self.routes.retain(|_, r| r.valid || r.lifetime > now);
        for r in self.routes.values_mut() {
            if r.valid && r.lifetime <= now {
                r.valid = false;
                r.lifetime = delete_until;
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn sequence_comparison_wraps() {
        assert!(seq_newer(2, 1));
        assert!(!seq_newer(1, 2));
        assert!(!seq_newer(5, 5));
        // 0 follows 0xffff_ffff.
        assert!(seq_newer(0, u32::MAX));
        assert!(seq_newer(3, u32::MAX - 3));
        assert!(!seq_newer(u32::MAX, 0));
        assert_eq!(seq_max(u32::MAX, 1), 1);
        assert_eq!(seq_max(7, 6), 7);
    }
}
