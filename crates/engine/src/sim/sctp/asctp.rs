//! A-SCTP's path manager (Argyriou & Madisetti 2004 §3: "we ensure that paths given to SCTP
//! by DSR are disjoint"): at the sending end of an A-SCTP flow it asks DSR, through the
//! engine's [`NetView`], for node-disjoint routes to the peer's address, gives each route an
//! SCTP path of the client association (slot 0 is the peer address itself, further slots are
//! the association's alias paths) and pins each packet of a path to its route
//! (`Transmit::route`). The rules themselves are the association's
//! (`sctpsim_proto::transport::sctp`, `association/asctp.rs`); this file only tells it which
//! routes exist.
//!
//! When: when the association comes up, on every route event at the sending node
//! (`RouteFound`, `RouteBroken`, `LinkBroken`: DSR reports a break in the same call that
//! removes the route, so the data path's loss is seen at once), and every [`ROUTE_CHECK`]
//! (routes DSR learns without an event: the further replies of a discovery, routes overheard
//! in forwarded packets).
//!
//! What:
//! 1. A slot whose route DSR no longer has ([`NetView::has_route`]) loses it
//!    (`SctpAssociation::set_route(key, None)`: the data path's loss switches data at once).
//! 2. The data path stays on the best route (§3: "assigns the best path to the main data
//!    flow"): when DSR knows a route to the peer with fewer hops than the data path's, the
//!    data path is pinned to it and keeps its state — its route improved, it did not fail, and
//!    plain SCTP over DSR would see the same change. Other slots whose routes share a node
//!    with the new one give them up (the paths stay node-disjoint). Skipped when the
//!    ablation switch `asctp_follow_shorter_route` is off (`AsctpRules::follow_shorter_route`):
//!    the data path then keeps its route until DSR no longer has it.
//! 3. Routes DSR offers ([`NetView::disjoint_routes`], shortest first) that share no
//!    intermediate node with the routes the slots hold fill the slots without a route —
//!    the data path first if it has none, then in slot order — and then new slots up to
//!    `asctp_max_routes`. A secondary slot's route does not change while DSR still has it;
//!    a slot that lost its route gets the next new one with fresh path state
//!    (`set_route(key, Some(hops))`: a new route is a new path).

use crate::sim::transport::NetView;
use sctpsim_kernel::{NodeId, SimDuration, SimTime};
use sctpsim_proto::transport::sctp::{SctpAssociation, State};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

/// How often the path manager looks at DSR's routes besides route events: 1 s. Ours: the
/// paper does not say when DSR hands routes to SCTP; at 1 s a route learned without an event
/// joins within a second, at the cost of one cache lookup per flow and second.
pub(super) const ROUTE_CHECK: SimDuration = SimDuration::from_secs(1);

/// Routes asked of DSR per look (its path cache keeps at most 8 per destination).
const CANDIDATES: usize = 8;

/// One path of the association and the route it is pinned to.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    /// The path's key in the association.
    pub key: Ipv4Addr,
    /// `[sender, ..., peer]`, or `None`: no route (DSR decides where the path's packets go).
    pub route: Option<Vec<Ipv4Addr>>,
}

/// A route change to report as a `route_hops` row: (time, path key, hops or `None`).
pub(super) type RouteRow = (SimTime, Ipv4Addr, Option<u32>);

/// The path manager of one A-SCTP flow (its sending end).
#[derive(Clone, Debug)]
pub(super) struct AsctpPaths {
    /// Most routes (slots).
    pub max_routes: usize,
    /// Step 2 of the module documentation is on (`AsctpRules::follow_shorter_route`, an
    /// ablation switch): off, the data path keeps its route until DSR no longer has it.
    pub follow_shorter: bool,
    /// The peer address every route leads to (the association's primary destination).
    pub peer: Ipv4Addr,
    /// Slot 0 is the path keyed by `peer`; the others are alias paths, in creation order.
    pub slots: Vec<Slot>,
    /// The next periodic look at the routes (while the association is up).
    pub next_check: Option<SimTime>,
    /// The association may have packets to send after a route change made outside a pump
    /// (a network event): wake the sending end at this time.
    pub pump_due: Option<SimTime>,
    /// Route changes not yet written as rows.
    pub rows: Vec<RouteRow>,
}

/// Hops of a route `[sender, ..., peer]`.
fn hops(route: &[Ipv4Addr]) -> u32 {
    u32::try_from(route.len().saturating_sub(1)).unwrap_or(u32::MAX)
}

impl AsctpPaths {
    /// The manager of a flow to `peer` with at most `max_routes` routes; `follow_shorter`:
    /// step 2 (module documentation) on.
    pub fn new(peer: Ipv4Addr, max_routes: usize, follow_shorter: bool) -> Self {
        AsctpPaths {
            max_routes: max_routes.max(1),
            follow_shorter,
            peer,
            slots: vec![Slot {
                key: peer,
                route: None,
            }],
            next_check: None,
            pump_due: None,
            rows: Vec::new(),
        }
    }

    /// The slot of path `key`.
    pub fn slot_of(&self, key: Ipv4Addr) -> Option<usize> {
        self.slots.iter().position(|s| s.key == key)
    }

    /// The route packets of path `key` are pinned to, if it has one.
    pub fn route_of(&self, key: Ipv4Addr) -> Option<&[Ipv4Addr]> {
        self.slots
            .iter()
            .find(|s| s.key == key)
            .and_then(|s| s.route.as_deref())
    }

    /// The name of path `key` in results: `<peer>#<slot>` (`None` for a path that is not one
    /// of the routes, e.g. another address of a multi-homed peer).
    pub fn label(&self, key: Ipv4Addr) -> Option<String> {
        self.slot_of(key).map(|k| format!("{}#{k}", self.peer))
    }

    /// The association came up: look at the routes now.
    pub fn start(&mut self, now: SimTime) {
        self.next_check = Some(now);
    }

    /// When the sending end wants the manager (and a pump): the periodic look or a pump due.
    pub fn deadline(&self) -> Option<SimTime> {
        match (self.next_check, self.pump_due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The periodic look, if due.
    pub fn check_if_due(
        &mut self,
        now: SimTime,
        node: NodeId,
        assoc: &mut SctpAssociation,
        net: &dyn NetView,
    ) {
        if self.next_check.is_some_and(|t| t <= now) {
            self.refresh(now, node, assoc, net);
        }
    }

    /// Looks at DSR's routes from `node` to the peer and updates the slots (module
    /// documentation). Only while the association can send data.
    pub fn refresh(
        &mut self,
        now: SimTime,
        node: NodeId,
        assoc: &mut SctpAssociation,
        net: &dyn NetView,
    ) {
        if !matches!(
            assoc.state(),
            State::Established | State::ShutdownPending | State::ShutdownReceived
        ) {
            self.next_check = None;
            return;
        }
        self.next_check = Some(now + ROUTE_CHECK);
        let mut changed = false;
        // 1. Routes DSR no longer has.
        for slot in &mut self.slots {
            if slot.route.as_ref().is_some_and(|r| !net.has_route(node, r)) {
                slot.route = None;
                // Cannot fail: A-SCTP is on and the key is the association's.
                let _ = assoc.set_route(now, slot.key, None);
                self.rows.push((now, slot.key, None));
                changed = true;
            }
        }
        // 2. The data path follows the best route (unless that choice is switched off).
        if self.follow_shorter {
            changed |= self.follow_best(now, node, assoc, net);
        }
        // 3. New routes, node-disjoint from the held ones.
        let mut used: BTreeSet<Ipv4Addr> = BTreeSet::new();
        for r in self.slots.iter().filter_map(|s| s.route.as_ref()) {
            used.extend(r.iter().skip(1).take(r.len().saturating_sub(2)).copied());
        }
        for r in net.disjoint_routes(node, self.peer, CANDIDATES) {
            if r.len() < 2 || self.slots.iter().any(|s| s.route.as_ref() == Some(&r)) {
                continue;
            }
            let inner = &r[1..r.len() - 1];
            if inner.iter().any(|a| used.contains(a)) {
                continue;
            }
            let h = hops(&r);
            let data = assoc.primary();
            let free = self
                .slots
                .iter()
                .position(|s| s.route.is_none() && s.key == data)
                .or_else(|| self.slots.iter().position(|s| s.route.is_none()));
            let slot = match free {
                Some(k) => {
                    let _ = assoc.set_route(now, self.slots[k].key, Some(h));
                    k
                }
                None if self.slots.len() < self.max_routes => {
                    let Ok(key) = assoc.add_route_path(now, self.peer, h) else {
                        break;
                    };
                    self.slots.push(Slot { key, route: None });
                    self.slots.len() - 1
                }
                None => break,
            };
            used.extend(inner.iter().copied());
            self.rows.push((now, self.slots[slot].key, Some(h)));
            self.slots[slot].route = Some(r);
            changed = true;
        }
        if changed {
            self.pump_due = Some(now);
        }
    }

    /// Step 2: re-pins the data path to DSR's shortest route to the peer if it has fewer hops
    /// than the data path's (the path keeps its state); routes of other slots that share a
    /// node with it are given up. Returns whether anything changed.
    fn follow_best(
        &mut self,
        now: SimTime,
        node: NodeId,
        assoc: &mut SctpAssociation,
        net: &dyn NetView,
    ) -> bool {
        let data = assoc.primary();
        let Some(d) = self.slots.iter().position(|s| s.key == data) else {
            return false;
        };
        let Some(current) = self.slots[d].route.as_ref() else {
            return false;
        };
        let Some(best) = net.disjoint_routes(node, self.peer, 1).into_iter().next() else {
            return false;
        };
        if hops(&best) >= hops(current) {
            return false;
        }
        let inner: BTreeSet<Ipv4Addr> = best
            .iter()
            .skip(1)
            .take(best.len().saturating_sub(2))
            .copied()
            .collect();
        for (k, slot) in self.slots.iter_mut().enumerate() {
            let overlaps = slot.route.as_ref().is_some_and(|r| {
                r.iter()
                    .skip(1)
                    .take(r.len().saturating_sub(2))
                    .any(|a| inner.contains(a))
                    || *r == best
            });
            if k != d && overlaps {
                slot.route = None;
                let _ = assoc.set_route(now, slot.key, None);
                self.rows.push((now, slot.key, None));
            }
        }
        let h = hops(&best);
        let _ = assoc.set_route(now, data, Some(h));
        self.rows.push((now, data, Some(h)));
        self.slots[d].route = Some(best);
        true
    }
}
