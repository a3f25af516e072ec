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

/// A routing table: (destination, route) sorted by destination.
pub(super) type Table = Vec<(Ipv4Addr, Route)>;

/// The route to `dst` in `table`, if any.
pub(super) fn lookup(table: &[(Ipv4Addr, Route)], dst: Ipv4Addr) -> Option<Route> {
    let key = u32::from(dst);
    table
        .binary_search_by_key(&key, |(d, _)| u32::from(*d))
        .ok()
        .map(|i| table[i].1)
}

/// Inserts `r` for `dest` unless `dest` already has a route; returns whether it was inserted.
fn insert_new(table: &mut Table, dest: Ipv4Addr, r: Route) -> bool {
    // Compared as integers (the same order as `Ipv4Addr`'s).
    let key = u32::from(dest);
    match table.binary_search_by_key(&key, |(d, _)| u32::from(*d)) {
        Ok(_) => false,
        Err(i) => {
            table.insert(i, (dest, r));
            true
        }
    }
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
                insert_new(table, dest, r);
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
                let via = lookup(table, *n).filter(|r| willing && r.dist == 1);
                current = Some((*n, via));
                via
            }
        };
        let Some(via) = via else {
            continue;
        };
        insert_new(
            table,
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
    //
    // Done as a breadth-first search over the topology set, which is keyed by last hop (the
    // tuples leaving one node are one range), and gives the same table as the RFC's "for h =
    // 1, 2, ...: scan every topology tuple" loop: at each h, a destination not yet in the
    // table takes the route through the lowest-addressed last hop at distance h (the scan met
    // the tuples in (destination, last hop) order and kept the first).
    let Scratch { frontier, added } = scratch;
    let mut h = 1;
    frontier.clear();
    frontier.extend(table.iter().filter(|(_, r)| r.dist == h).copied());
    while !frontier.is_empty() {
        added.clear();
        // `frontier` is in address order, so the first route offered to a destination comes
        // from its lowest-addressed last hop.
        for (last, r) in frontier.iter() {
            let range = (*last, Ipv4Addr::UNSPECIFIED)..=(*last, Ipv4Addr::BROADCAST);
            for ((_, dest), _) in repo.topology.range(range) {
                if *dest != me && lookup(table, *dest).is_none() {
                    insert_new(
                        added,
                        *dest,
                        Route {
                            next_hop: r.next_hop,
                            dist: h + 1,
                        },
                    );
                }
            }
        }
        for (dest, r) in added.iter() {
            insert_new(table, *dest, *r);
        }
        h += 1;
        // Everything h hops away: what was just added and (at h = 2) the 2-hop entries.
        frontier.clear();
        frontier.extend(table.iter().filter(|(_, r)| r.dist == h).copied());
    }
    // Step 5: other interfaces of known nodes (MID).
    for (iface, (main, _)) in &repo.ifaces {
        if *iface == me || lookup(table, *iface).is_some() {
            continue;
        }
        if let Some(r) = lookup(table, *main) {
            insert_new(table, *iface, r);
        }
    }
}
