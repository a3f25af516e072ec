//! The multi-route interface for transports (A-SCTP over DSR, Argyriou & Madisetti): the
//! transport asks for node-disjoint routes to a peer, sends over a chosen one, and hears
//! [`crate::routing::RoutingEvent::RouteBroken`] in the same input call that breaks a route.
//!
//! Routes are full node lists `[this node, ..., dst]`. Node-disjoint means that no
//! intermediate node is shared, so one node moving away breaks at most one of them — the
//! property the paper relies on when it watches secondary paths with heartbeats.

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

use sctpsim_kernel::{Packet, SimTime};
use sctpsim_wire::Ipv4Packet;

use super::{cache, Dsr};
use crate::routing::{Decision, Router};

impl Dsr {
    /// Up to `k` cached routes to `dst` that are pairwise node-disjoint, shortest first.
    ///
    /// Candidates are every cached route to `dst` (prefixes of longer paths included),
    /// shortest first, ties in cache order. For each candidate as the first pick, a greedy
    /// pass adds every later candidate that shares no intermediate node with the picks so far;
    /// the largest selection wins (ties: the earliest first pick, so the shortest route is kept
    /// whenever that does not cost a route). Trying every first pick guarantees two routes
    /// whenever the cache holds any two disjoint ones; a maximum disjoint set in general is a
    /// set-packing problem, which this does not solve exactly. Starts no discovery; expired
    /// entries are skipped.
    pub fn disjoint_routes(&self, now: SimTime, dst: Ipv4Addr, k: usize) -> Vec<Vec<Ipv4Addr>> {
        if k == 0 || dst == self.addr {
            return Vec::new();
        }
        let candidates = self.cache.routes_to(now, dst);
        let mut best: Vec<usize> = Vec::new();
        for first in 0..candidates.len() {
            let mut used: BTreeSet<Ipv4Addr> = BTreeSet::new();
            let mut picks = Vec::new();
            for i in std::iter::once(first).chain(first + 1..candidates.len()) {
                let r = &candidates[i];
                let inner = &r[1..r.len() - 1];
                if inner.iter().any(|a| used.contains(a)) {
                    continue;
                }
                used.extend(inner.iter().copied());
                picks.push(i);
                if picks.len() == k {
                    break;
                }
            }
            if picks.len() > best.len() {
                best = picks;
            }
            if best.len() == k.min(candidates.len()) {
                break;
            }
        }
        best.sort_unstable();
        best.into_iter().map(|i| candidates[i].clone()).collect()
    }

    /// Sends `packet` (an IPv4 packet this node originates) over `route` (`[this node, ...,
    /// the packet's destination]`, as [`Dsr::disjoint_routes`] returns). If the route is not
    /// (or no longer) in the cache, or does not match the packet, the packet is routed as by
    /// [`Router::handle_send`]. The packet's tag stays with it either way.
    #[must_use = "the decision takes effect only if the caller acts on it"]
    pub fn handle_send_on_route(
        &mut self,
        now: SimTime,
        packet: Packet,
        route: &[Ipv4Addr],
    ) -> Decision {
        self.begin(now);
        let dst = Ipv4Packet::new_checked(&packet.bytes[..])
            .map(|p| p.dst_addr())
            .ok();
        let usable = route.last().copied() == dst && self.has_route(now, route);
        if usable {
            let routed = self.route_data(now, packet, route);
            self.settle(routed, true)
        } else {
            self.handle_send(now, packet)
        }
    }

    /// Whether `route` (`[this node, ..., dst]`) is a loop-free route the cache holds at `now`
    /// (as an entry or a prefix, not expired): what [`Dsr::handle_send_on_route`] needs to
    /// follow it. A path manager asks it after a `RouteBroken` to learn which of its routes
    /// the break took.
    pub fn has_route(&self, now: SimTime, route: &[Ipv4Addr]) -> bool {
        let Some(&dst) = route.last() else {
            return false;
        };
        route.first() == Some(&self.addr)
            && cache::loop_free(route)
            && self.cache.contains(route)
            && self.cache.routes_to(now, dst).iter().any(|r| r == route)
    }

    /// Checks the invariants a fuzzer or test relies on; panics (with the broken rule) if one
    /// fails: every cached path starts here, has no loop and at least one hop; the routes
    /// [`Dsr::disjoint_routes`] returns end at their destination and share no intermediate
    /// node.
    pub fn check_invariants(&self, now: SimTime) {
        let mut dsts = BTreeSet::new();
        for p in self.cached_paths() {
            assert!(p.len() >= 2, "cached path shorter than one hop: {p:?}");
            assert_eq!(p[0], self.addr, "cached path does not start here: {p:?}");
            assert!(cache::loop_free(&p), "cached path has a loop: {p:?}");
            dsts.extend(p[1..].iter().copied());
        }
        for dst in dsts {
            let routes = self.disjoint_routes(now, dst, usize::MAX);
            let mut used = BTreeSet::new();
            for r in &routes {
                assert_eq!(r.first(), Some(&self.addr));
                assert_eq!(r.last(), Some(&dst));
                for a in &r[1..r.len() - 1] {
                    assert!(used.insert(*a), "disjoint routes share {a}: {routes:?}");
                }
            }
        }
    }
}
