//! Routing table calculation (RFC 3626 §10): a breadth-first expansion from the symmetric
//! neighbours over the 2-hop set and then the topology set, as a pure function of the
//! repositories. Shortest paths in hops; among equal-length paths the first found in address
//! order is kept (the RFC leaves the choice open), so the table is deterministic.

use super::mpr::WILL_NEVER;
use super::repo::Repositories;
use sctpsim_kernel::SimTime;
use std::collections::BTreeMap;
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

/// Computes the table of `me` at `now` from `repo`.
pub(super) fn compute(
    me: Ipv4Addr,
    repo: &Repositories,
    now: SimTime,
) -> BTreeMap<Ipv4Addr, Route> {
    let mut table: BTreeMap<Ipv4Addr, Route> = BTreeMap::new();
    // Step 2: every symmetric link gives a 1-hop route to the neighbour interface and to the
    // neighbour's main address.
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
                table.entry(dest).or_insert(r);
            }
        }
    }
    // Step 3: 2-hop neighbours through a neighbour that is willing to forward.
    for (n, two) in repo.two_hop.keys() {
        if *two == me || table.contains_key(two) {
            continue;
        }
        if repo.neighbors.get(n).copied().unwrap_or(WILL_NEVER) == WILL_NEVER {
            continue;
        }
        let Some(via) = table.get(n).filter(|r| r.dist == 1).copied() else {
            continue;
        };
        table.insert(
            *two,
            Route {
                next_hop: via.next_hop,
                dist: 2,
            },
        );
    }
    // Step 3 (continued): topology tuples extend the table one hop at a time. The RFC starts
    // from the 2-hop entries (h = 2); starting at h = 1 also uses a TC from a neighbour whose
    // HELLO has not yet told us about the advertised node (the 2-hop set lags), and gives the
    // same table otherwise.
    let mut h = 1;
    // Stop once no entry is h hops away: nothing further can be reached through one.
    while table.values().any(|r| r.dist == h) {
        let mut added = Vec::new();
        for (dest, last) in repo.topology.keys() {
            if *dest == me || table.contains_key(dest) {
                continue;
            }
            if let Some(r) = table.get(last).filter(|r| r.dist == h) {
                added.push((
                    *dest,
                    Route {
                        next_hop: r.next_hop,
                        dist: h + 1,
                    },
                ));
            }
        }
        for (dest, r) in added {
            table.entry(dest).or_insert(r);
        }
        h += 1;
    }
    // Step 5: other interfaces of known nodes (MID).
    for (iface, (main, _)) in &repo.ifaces {
        if *iface == me || table.contains_key(iface) {
            continue;
        }
        if let Some(r) = table.get(main).copied() {
            table.insert(*iface, r);
        }
    }
    table
}
