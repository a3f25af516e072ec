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
    // The 2-hop set is ordered by neighbour, so the neighbour's usability is looked up once
    // per run of its tuples rather than once per tuple.
    let mut current: Option<(Ipv4Addr, Option<Route>)> = None;
    for (n, two) in repo.two_hop.keys() {
        if *two == me || table.contains_key(two) {
            continue;
        }
        let via = match current {
            Some((m, via)) if m == *n => via,
            _ => {
                let willing = repo.neighbors.get(n).copied().unwrap_or(WILL_NEVER) != WILL_NEVER;
                let via = table.get(n).filter(|r| willing && r.dist == 1).copied();
                current = Some((*n, via));
                via
            }
        };
        let Some(via) = via else {
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
    //
    // Done as a breadth-first search over the topology set indexed by last hop, which gives
    // the same table as the RFC's "for h = 1, 2, ...: scan every topology tuple" loop: at each
    // h, a destination not yet in the table takes the route through the lowest-addressed last
    // hop at distance h (the scan met the tuples in (destination, last hop) order and kept the
    // first).
    let mut by_last: Vec<(Ipv4Addr, Ipv4Addr)> = repo
        .topology
        .keys()
        .filter(|(dest, _)| *dest != me)
        .map(|(dest, last)| (*last, *dest))
        .collect();
    by_last.sort_unstable();
    let mut h = 1;
    let mut frontier: Vec<(Ipv4Addr, Route)> = table
        .iter()
        .filter(|(_, r)| r.dist == h)
        .map(|(d, r)| (*d, *r))
        .collect();
    let mut added: BTreeMap<Ipv4Addr, Route> = BTreeMap::new();
    while !frontier.is_empty() {
        // `frontier` is in address order (from a BTreeMap), so the first route offered to a
        // destination comes from its lowest-addressed last hop.
        for (last, r) in &frontier {
            let start = by_last.partition_point(|(l, _)| l < last);
            for (_, dest) in by_last[start..].iter().take_while(|(l, _)| l == last) {
                if !table.contains_key(dest) {
                    added.entry(*dest).or_insert(Route {
                        next_hop: r.next_hop,
                        dist: h + 1,
                    });
                }
            }
        }
        for (dest, r) in std::mem::take(&mut added) {
            table.insert(dest, r);
        }
        h += 1;
        // Everything h hops away: what was just added and (at h = 2) the 2-hop entries.
        frontier.clear();
        frontier.extend(
            table
                .iter()
                .filter(|(_, r)| r.dist == h)
                .map(|(d, r)| (*d, *r)),
        );
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
