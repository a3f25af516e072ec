//! DSDV's two tables (Perkins & Bhagwat 1994, §"Route advertisements" and §"Damping
//! fluctuations"; ns-3 `dsdv-rtable.{h,cc}`):
//!
//! * the **forwarding table**, one route per destination, used for every lookup and sent whole
//!   in each periodic update (the paper's *full dump*);
//! * the **advertising table**: routes whose change has not been advertised yet. A change is
//!   sent in the next triggered update (the paper's *incremental* dump) unless its destination
//!   is *settling* — a new metric waits for the weighted settling time, hoping a better route
//!   with the same sequence number arrives meanwhile (the paper's damping, ns-3's
//!   `EnableWST`).
//!
//! Routes are kept in address order (`BTreeMap`), so every walk over them — and so every
//! update's content — is deterministic.

use sctpsim_kernel::{SimDuration, SimTime};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// One route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The neighbour packets for the destination go to.
    pub next_hop: Ipv4Addr,
    /// Hops to the destination as the neighbour advertised it (its metric + 1).
    pub hops: u32,
    /// The destination's sequence number (even: from the destination; odd: broken).
    pub seq: u32,
    /// When the route was last installed or refreshed by its next hop (ns-3 `m_lifeTime`,
    /// read as an age by `GetLifeTime`): the holddown and the weighted settling time count
    /// from here.
    pub updated: SimTime,
    /// The settling time last computed for this destination (ns-3 `m_settlingTime`; a new
    /// route starts with `SettlingTime`).
    pub settling: SimDuration,
    /// A change not yet advertised (ns-3 `m_entriesChanged`).
    pub changed: bool,
}

/// The forwarding and advertising tables, and the per-destination settling deadlines.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// The forwarding table (never holds this node's own address).
    pub main: BTreeMap<Ipv4Addr, Route>,
    /// Changes waiting to be advertised.
    pub adv: BTreeMap<Ipv4Addr, Route>,
}

impl Tables {
    /// The next hop to use for `dst`: the route's next hop, provided the table also holds a
    /// route to that neighbour (ns-3 `RouteOutput`/`RouteInput` look up both and send to the
    /// neighbour entry's gateway). Returns `(gateway, route to dst)`.
    pub fn lookup(&self, dst: Ipv4Addr) -> Option<(Ipv4Addr, &Route)> {
        let r = self.main.get(&dst)?;
        if r.hops == 1 {
            return Some((r.next_hop, r));
        }
        let n = self.main.get(&r.next_hop)?;
        Some((n.next_hop, r))
    }

    /// Replaces the forwarding-table route of `dst` with `r` if there is one (ns-3
    /// `RoutingTable::Update` changes existing entries only).
    pub fn update_main(&mut self, dst: Ipv4Addr, r: &Route) {
        if let Some(m) = self.main.get_mut(&dst) {
            *m = r.clone();
        }
    }

    /// Removes the routes whose last refresh is older than `holddown` (ns-3
    /// `RoutingTable::Purge`: age strictly greater, hop count above 0), together with every
    /// route through one of them as next hop (a destination reached via a neighbour that has
    /// gone silent). Returns the removed routes, in address order.
    pub fn purge(&mut self, now: SimTime, holddown: SimDuration) -> Vec<(Ipv4Addr, Route)> {
        let expired: Vec<(Ipv4Addr, u32)> = self
            .main
            .iter()
            .filter(|(_, r)| r.hops > 0 && now.saturating_since(r.updated) > holddown)
            .map(|(d, r)| (*d, r.hops))
            .collect();
        if expired.is_empty() {
            return Vec::new();
        }
        let gone: Vec<Ipv4Addr> = self
            .main
            .iter()
            .filter(|(d, r)| {
                expired
                    .iter()
                    .any(|(e, hops)| *d == e || (r.next_hop == *e && r.hops != *hops))
            })
            .map(|(d, _)| *d)
            .collect();
        gone.into_iter()
            .filter_map(|d| self.main.remove(&d).map(|r| (d, r)))
            .collect()
    }

    /// The forwarding-table routes whose next hop is `via`.
    pub fn routes_via(&self, via: Ipv4Addr) -> Vec<(Ipv4Addr, Route)> {
        self.main
            .iter()
            .filter(|(_, r)| r.next_hop == via)
            .map(|(d, r)| (*d, r.clone()))
            .collect()
    }
}

/// The weighted settling time (ns-3 `RoutingProtocol::GetSettlingTime`): with weighting on,
/// `w · settling + (1 − w) · age`, where `settling` is the destination's last settling time
/// and `age` the time since its route was last refreshed; 0 stays 0. Off, the last settling
/// time as is. `w` is given in millionths so that the result is exact integer nanoseconds.
pub fn weighted_settling(route: &Route, now: SimTime, weighted: bool, w_ppm: u64) -> SimDuration {
    if !weighted || route.settling.is_zero() {
        return route.settling;
    }
    let w = u128::from(w_ppm.min(1_000_000));
    let s = u128::from(route.settling.as_nanos());
    let age = u128::from(now.saturating_since(route.updated).as_nanos());
    let ns = (w * s + (1_000_000 - w) * age) / 1_000_000;
    SimDuration::from_nanos(u64::try_from(ns).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(i: u8) -> Ipv4Addr {
        Ipv4Addr::new(10, 0, 0, i)
    }

    fn route(next: u8, hops: u32, seq: u32, updated_s: u64) -> Route {
        Route {
            next_hop: a(next),
            hops,
            seq,
            updated: SimTime::ZERO + SimDuration::from_secs(updated_s),
            settling: SimDuration::from_secs(5),
            changed: false,
        }
    }

    #[test]
    fn weighted_settling_time_is_the_ns3_average() {
        let r = route(1, 1, 2, 10);
        let now = SimTime::ZERO + SimDuration::from_secs(18);
        // 0.875 * 5 s + 0.125 * 8 s = 5.375 s
        assert_eq!(
            weighted_settling(&r, now, true, 875_000),
            SimDuration::from_millis(5_375)
        );
        assert_eq!(
            weighted_settling(&r, now, false, 875_000),
            SimDuration::from_secs(5)
        );
        let mut z = r.clone();
        z.settling = SimDuration::ZERO;
        assert_eq!(weighted_settling(&z, now, true, 875_000), SimDuration::ZERO);
    }

    #[test]
    fn purge_removes_silent_routes_and_routes_through_them() {
        let mut t = Tables::default();
        t.main.insert(a(1), route(1, 1, 2, 0)); // neighbour, silent since 0 s
        t.main.insert(a(2), route(1, 2, 4, 40)); // via 1, refreshed at 40 s
        t.main.insert(a(3), route(3, 1, 6, 40)); // another neighbour
        let hold = SimDuration::from_secs(45);
        assert!(
            t.purge(SimTime::ZERO + hold, hold).is_empty(),
            "age = holddown stays"
        );
        let gone = t.purge(SimTime::ZERO + SimDuration::from_secs(46), hold);
        let dsts: Vec<_> = gone.iter().map(|(d, _)| *d).collect();
        assert_eq!(dsts, vec![a(1), a(2)]);
        assert_eq!(t.main.keys().copied().collect::<Vec<_>>(), vec![a(3)]);
    }

    #[test]
    fn lookup_needs_a_route_to_the_next_hop() {
        let mut t = Tables::default();
        t.main.insert(a(2), route(1, 2, 4, 0));
        assert!(t.lookup(a(2)).is_none());
        t.main.insert(a(1), route(1, 1, 2, 0));
        assert_eq!(t.lookup(a(2)).map(|(g, _)| g), Some(a(1)));
        assert_eq!(t.lookup(a(1)).map(|(g, _)| g), Some(a(1)));
    }
}
