//! Routing table calculation (RFC 3626 §10): a breadth-first expansion from the symmetric
//! neighbours over the 2-hop set and then the topology set, as a pure function of the
//! repositories. Shortest paths in hops; among equal-length paths the first found in address
//! order is kept (the RFC leaves the choice open), so the table is deterministic.

use super::mpr::WILL_NEVER;
use super::repo::Repositories;
use sctpsim_kernel::SimTime;
use std::net::Ipv4Addr;

/// One routing table entry (§10: R_dest_addr → R_next_addr, R_dist; R_iface_addr is the single
/// interface).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The neighbour interface to send to.
    pub next_hop: Ipv4Addr,
    /// Hops to the destination.
    pub dist: u32,
}

/// How a route was found: what the relevance tests of [`Table`] compare a repository change
/// against to tell whether it can alter the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Via {
    /// Step 2: a symmetric link (1 hop).
    Link,
    /// Step 3: a 2-hop tuple through this neighbour (the lowest-addressed usable one).
    TwoHop(Ipv4Addr),
    /// Step 3 (continued): a topology tuple from this last hop (the lowest-addressed one at
    /// the distance before).
    Topology(Ipv4Addr),
    /// Step 5: another interface of a known node (MID).
    Mid,
}

/// A routing table: (destination, route) sorted by destination, and how each route was found
/// (same index).
#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    /// (destination, route), sorted by destination.
    pub routes: Vec<(Ipv4Addr, Route)>,
    /// `via[i]` tells how `routes[i]` was found.
    pub via: Vec<Via>,
}

impl Table {
    fn clear(&mut self) {
        self.routes.clear();
        self.via.clear();
    }

    /// The route to `dst` and how it was found.
    pub fn entry(&self, dst: Ipv4Addr) -> Option<(Route, Via)> {
        let key = u32::from(dst);
        self.routes
            .binary_search_by_key(&key, |(d, _)| u32::from(*d))
            .ok()
            .map(|i| (self.routes[i].1, self.via[i]))
    }

    /// Inserts `r` for `dest` unless `dest` already has a route.
    fn insert_new(&mut self, dest: Ipv4Addr, r: Route, via: Via) {
        // Compared as integers (the same order as `Ipv4Addr`'s).
        let key = u32::from(dest);
        if let Err(i) = self
            .routes
            .binary_search_by_key(&key, |(d, _)| u32::from(*d))
        {
            self.routes.insert(i, (dest, r));
            self.via.insert(i, via);
        }
    }

    /// Whether adding the topology tuple (`last`, `dest`) to the repositories this table was
    /// computed from can change it. It cannot when `dest` is us, when `last` has no route
    /// (the expansion never reaches it), when `dest` already has a shorter route, or one of
    /// the same length found first (through a 2-hop tuple, or a lower-addressed last hop).
    pub fn topology_added_matters(&self, me: Ipv4Addr, last: Ipv4Addr, dest: Ipv4Addr) -> bool {
        if dest == me {
            return false;
        }
        let Some((rl, vl)) = self.entry(last) else {
            return false;
        };
        if vl == Via::Mid {
            return true; // not expanded from; kept conservative
        }
        // A MID route is added after the expansion, so it does not stop it: conservative.
        let Some((rd, vd)) = self.entry(dest).filter(|(_, v)| *v != Via::Mid) else {
            return true;
        };
        let offered = rl.dist + 1;
        match offered.cmp(&rd.dist) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match vd {
                Via::Link | Via::TwoHop(_) => false,
                Via::Topology(p) => u32::from(last) < u32::from(p),
                Via::Mid => true,
            },
        }
    }

    /// Whether removing the topology tuple (`last`, `dest`) can change the table: only if the
    /// route to `dest` was found through it (every other route keeps its path, and nothing
    /// shorter appears when a tuple goes).
    pub fn topology_removed_matters(&self, last: Ipv4Addr, dest: Ipv4Addr) -> bool {
        match self.entry(dest) {
            Some((_, Via::Topology(p))) => p == last,
            Some((_, Via::Mid)) => true,
            _ => false,
        }
    }

    /// Whether adding the 2-hop tuple (`n`, `two`) can change the table. It cannot when `two`
    /// is us, when `n` cannot be a first hop (no 1-hop route, or WILL_NEVER: `willing`), or when
    /// `two` already has a route of 1 hop or of 2 through a lower-addressed neighbour.
    pub fn two_hop_added_matters(
        &self,
        me: Ipv4Addr,
        n: Ipv4Addr,
        two: Ipv4Addr,
        willing: bool,
    ) -> bool {
        if two == me || !willing || self.entry(n).is_none_or(|(r, _)| r.dist != 1) {
            return false;
        }
        match self.entry(two) {
            // A MID route is added after step 3, so it does not stop it: conservative.
            None | Some((_, Via::Mid)) => true,
            Some((r, _)) if r.dist == 1 => false,
            Some((r, Via::TwoHop(p))) if r.dist == 2 => u32::from(n) < u32::from(p),
            Some(_) => true,
        }
    }

    /// Whether removing the 2-hop tuple (`n`, `two`) can change the table: only if the route
    /// to `two` was found through it.
    pub fn two_hop_removed_matters(&self, n: Ipv4Addr, two: Ipv4Addr) -> bool {
        match self.entry(two) {
            Some((_, Via::TwoHop(p))) => p == n,
            Some((_, Via::Mid)) => true,
            _ => false,
        }
    }
}

/// The route to `dst` in `table`, if any.
pub(super) fn lookup(table: &[(Ipv4Addr, Route)], dst: Ipv4Addr) -> Option<Route> {
    let key = u32::from(dst);
    table
        .binary_search_by_key(&key, |(d, _)| u32::from(*d))
        .ok()
        .map(|i| table[i].1)
}

/// Buffers reused from one computation to the next (no allocation once they have grown).
#[derive(Debug, Default)]
pub(super) struct Scratch {
    frontier: Vec<(Ipv4Addr, Route)>,
    added: Table,
}

/// Computes the table of `me` at `now` from `repo` into `table` (cleared first).
pub(super) fn compute_into(
    me: Ipv4Addr,
    repo: &Repositories,
    now: SimTime,
    table: &mut Table,
    scratch: &mut Scratch,
) {
    table.clear();
    // Step 2: every symmetric link gives a 1-hop route to the neighbour interface and to the
    // neighbour's main address (the first link in interface order wins).
    for (iface, l) in &repo.links {
        if !l.is_sym(now) {
            continue;
        }
        let r = Route {
            next_hop: *iface,
            dist: 1,
        };
        for dest in [*iface, l.main] {
            if dest != me {
                table.insert_new(dest, r, Via::Link);
            }
        }
    }
    // Step 3: 2-hop neighbours through a neighbour that is willing to forward.
    // The 2-hop set is ordered by neighbour, so the neighbour's usability is looked up once
    // per run of its tuples rather than once per tuple.
    let mut current: Option<(Ipv4Addr, Option<Route>)> = None;
    for (n, two) in repo.two_hop.keys() {
        if *two == me {
            continue;
        }
        let via = match current {
            Some((m, via)) if m == *n => via,
            _ => {
                let willing = repo.neighbors.get(n).copied().unwrap_or(WILL_NEVER) != WILL_NEVER;
                let via = lookup(&table.routes, *n).filter(|r| willing && r.dist == 1);
                current = Some((*n, via));
                via
            }
        };
        let Some(via) = via else {
            continue;
        };
        table.insert_new(
            *two,
            Route {
                next_hop: via.next_hop,
                dist: 2,
            },
            Via::TwoHop(*n),
        );
    }
    // Step 3 (continued): topology tuples extend the table one hop at a time. The RFC starts
    // from the 2-hop entries (h = 2); starting at h = 1 also uses a TC from a neighbour whose
    // HELLO has not yet told us about the advertised node (the 2-hop set lags), and gives the
    // same table otherwise.
    //
    // Done as a breadth-first search over the topology set, which is keyed by last hop (the
    // tuples leaving one node are one range), and gives the same table as the RFC's "for h =
    // 1, 2, ...: scan every topology tuple" loop: at each h, a destination not yet in the
    // table takes the route through the lowest-addressed last hop at distance h (the scan met
    // the tuples in (destination, last hop) order and kept the first).
    let Scratch { frontier, added } = scratch;
    let mut h = 1;
    frontier.clear();
    frontier.extend(table.routes.iter().filter(|(_, r)| r.dist == h).copied());
    while !frontier.is_empty() {
        added.clear();
        // `frontier` is in address order, so the first route offered to a destination comes
        // from its lowest-addressed last hop.
        for (last, r) in frontier.iter() {
            let range = (*last, Ipv4Addr::UNSPECIFIED)..=(*last, Ipv4Addr::BROADCAST);
            for ((_, dest), _) in repo.topology.range(range) {
                if *dest != me && lookup(&table.routes, *dest).is_none() {
                    added.insert_new(
                        *dest,
                        Route {
                            next_hop: r.next_hop,
                            dist: h + 1,
                        },
                        Via::Topology(*last),
                    );
                }
            }
        }
        for ((dest, r), via) in added.routes.iter().zip(&added.via) {
            table.insert_new(*dest, *r, *via);
        }
        h += 1;
        // Everything h hops away: what was just added and (at h = 2) the 2-hop entries.
        frontier.clear();
        frontier.extend(table.routes.iter().filter(|(_, r)| r.dist == h).copied());
    }
    // Step 5: other interfaces of known nodes (MID).
    for (iface, (main, _)) in &repo.ifaces {
        if *iface == me || lookup(&table.routes, *iface).is_some() {
            continue;
        }
        if let Some(r) = lookup(&table.routes, *main) {
            table.insert_new(*iface, r, Via::Mid);
        }
    }
}
