//! A-SCTP (Argyriou & Madisetti 2004, §3): the association's side of several routes to one
//! peer address. The path manager (the engine, which asks DSR) adds a route path per
//! node-disjoint route ([`SctpAssociation::add_route_path`]) and reports what happens to each
//! route ([`SctpAssociation::set_route`]); the association keeps the paper's rules:
//!
//! 1. **Data on the best route only** — "The modified SCTP assigns the best path to the main
//!    data flow, while, only Heartbeat messages are sent to the secondary paths." New data,
//!    fast and T3 retransmissions all go to the data path (the primary); the primary is the
//!    best usable path when the previous one fails ([`PathRoute::rank`]: fewest hops, then
//!    the order the paths were added — DSR's order, shortest first). No switch to another
//!    path while the primary works, even if that one's route is shorter: a switch reorders
//!    packets (§3, "Overcoming packet reordering"). (The engine's path manager moves the data
//!    path itself to a shorter route when DSR learns one: [`SctpAssociation::set_route`] with
//!    new hops on a path that has a route keeps its state.)
//! 2. **Heartbeats every RTO** on every path with a route — "Each endpoint ... sends Heartbeat
//!    messages (every RTO)" — the data path included, without RFC 9260 §8.3's HB.interval,
//!    jitter and idle condition (`paths.rs`, `arm_heartbeat`).
//! 3. **Inactive after two failed heartbeats** — "after two Heartbeat retransmissions fail, we
//!    mark a specific path inactive" ([`super::super::asctp::ASCTP_FAILURES_TO_INACTIVE`],
//!    `Path::new`), without backing the RTO off in between, so the data path is given up
//!    "after the 2RTO Heartbeat timer expires" (§3, §4). Heartbeat failures on paths other
//!    than the data path count only against that path, not against the association's error
//!    counter (RFC 9260 §8.1): a broken secondary route says nothing about the peer.
//! 4. **Immediate switch on the routing protocol's notice** — "DSR notifies SCTP when the
//!    primary route fails, so that SCTP switches to a new path" ([`SctpAssociation::set_route`]
//!    with `None`).
//! 5. **At a switch away from a failed data path**, the chunks in flight on it are sent again
//!    on the new data path at once ([`super::super::RtxCause::Failover`]) instead of after
//!    its T3-rtx timeout: the paper leaves this open; DSR drops what it cannot salvage, and
//!    "we are sure that the time of sender idleness is minimum" (§3) needs the lost window
//!    back without an RTO. Chunks that arrive anyway become duplicates the receiver reports.
//! 6. **The per-path TSN range rule** for miss indications (`retransmit.rs`, `process_sack`
//!    with `MissRule::TsnRange`); a switch starts a new range on the new data path.
//! 7. **A new route is a new path** — "with SCTP we maintain congestion control parameters
//!    for every path, allowing thus the maintenance of a distinct state": a path that gets a
//!    route after having none starts with fresh state ([`Path::renew_route`]).
//! 8. (The engine's path manager, not the association:) the data path follows a shorter route
//!    DSR learns.
//!
//! Each rule has a switch in [`AsctpRules`] (`SctpConfig::asctp_rules`, all on by default) for
//! ablation studies; with one off, that rule gives way to plain SCTP's behaviour:
//! `retransmit_on_data_path` (1, retransmissions; `alternate` as RFC 9260 §6.4),
//! `heartbeat_every_rto` (2; §8.3 heartbeats), `two_heartbeat_failures` (3; the configured
//! Path.Max.Retrans and §8.3's back-off), `route_notice` (4; only for the data path),
//! `failover_retransmit` (5; the window waits for its T3-rtx), `tsn_range` (6),
//! `fresh_path_state` (7; the state is kept) and `follow_shorter_route` (8).

use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;

use super::super::api::{ApiError, SctpEvent};
use super::super::asctp::{alias_key, AsctpRules, Multipath, PathRoute};
use super::super::path::Path;
use super::super::stats::SwitchCause;
use super::super::timers::Timer;
use super::{SctpAssociation, State};

impl SctpAssociation {
    /// Whether A-SCTP is on.
    pub(crate) fn asctp(&self) -> bool {
        self.cfg.multipath == Multipath::Asctp
    }

    /// Whether A-SCTP is on with the rule `rule` picks switched on ([`AsctpRules`]).
    pub(crate) fn asctp_rule(&self, rule: fn(&AsctpRules) -> bool) -> bool {
        self.asctp() && rule(&self.cfg.asctp_rules)
    }

    /// A-SCTP: adds a path over a further route of `hops` hops to the peer address `wire`
    /// (which must be a destination of the association) and returns its key. The path starts
    /// unconfirmed and is probed with a HEARTBEAT at once (RFC 9260 §5.4); it carries data
    /// only once it is the best usable path and the data path failed.
    ///
    /// Errors: `NotSupported` without A-SCTP, `InvalidState` outside ESTABLISHED (and the
    /// shutdown states that still send data), `UnknownAddress` if `wire` is not a peer
    /// address, `InvalidValue` if the association holds [`super::super::SctpConfig::max_paths`]
    /// paths already.
    pub fn add_route_path(
        &mut self,
        now: SimTime,
        wire: Ipv4Addr,
        hops: u32,
    ) -> Result<Ipv4Addr, ApiError> {
        if !self.asctp() {
            return Err(ApiError::NotSupported);
        }
        if !self.state.may_send_data() || self.state == State::CookieEchoed {
            return Err(ApiError::InvalidState);
        }
        let Some(base) = self.path(wire).filter(|p| p.wire == wire) else {
            return Err(ApiError::UnknownAddress);
        };
        if self.paths.len() >= self.cfg.max_paths.max(1) {
            return Err(ApiError::InvalidValue);
        }
        let (source, pinned, pmtu) = (base.source, base.source_pinned, base.pmtu);
        let key = (1u32..)
            .map(alias_key)
            .find(|k| self.path_index(*k).is_none())
            .unwrap_or(alias_key(u32::MAX));
        let mut p = Path::new(&self.cfg, key, source, self.peer_rwnd, &mut self.rng);
        p.wire = wire;
        p.source_pinned = pinned;
        p.pmtu = pmtu;
        p.route = PathRoute::Route { hops };
        p.confirmed = false;
        self.paths.push(p);
        self.send_heartbeat(now, key);
        self.arm_heartbeat(now, key);
        Ok(key)
    }

    /// A-SCTP: what the path manager knows of the route of path `key` now.
    ///
    /// * `Some(hops)` — the path has a route of `hops` hops. A path that had none (lost, or
    ///   never told) gets fresh state for its new route ([`Path::renew_route`]) and a HEARTBEAT
    ///   at once — unless it is the data path and still usable: data kept flowing to it over
    ///   the routing protocol's own choice, which is the route it now gets.
    /// * `None` — the route is gone (the routing protocol reported it broken). A secondary
    ///   path becomes inactive and is no longer heartbeated; the data path is given up at once
    ///   for the best usable path, if there is one (rule 4); otherwise it stays the data path
    ///   and its packets follow the routing protocol's own choice, as plain SCTP's do.
    ///
    /// Errors: `NotSupported` without A-SCTP, `UnknownAddress` for an unknown key.
    pub fn set_route(
        &mut self,
        now: SimTime,
        key: Ipv4Addr,
        hops: Option<u32>,
    ) -> Result<(), ApiError> {
        if !self.asctp() {
            return Err(ApiError::NotSupported);
        }
        let Some(i) = self.path_index(key) else {
            return Err(ApiError::UnknownAddress);
        };
        match hops {
            Some(hops) => {
                let had_route = matches!(self.paths[i].route, PathRoute::Route { .. });
                self.paths[i].route = PathRoute::Route { hops };
                let keeps_data = key == self.current && self.paths[i].usable();
                if had_route || keeps_data {
                    return Ok(());
                }
                let rwnd = self.peer_rwnd;
                let fresh = self.cfg.asctp_rules.fresh_path_state;
                self.paths[i].renew_route(&self.cfg, rwnd, fresh, &mut self.rng);
                if self.state.is_established_or_closing() {
                    self.send_heartbeat(now, key);
                    self.arm_heartbeat(now, key);
                }
            }
            None => self.route_lost(now, key),
        }
        Ok(())
    }

    /// Rule 4: the route of path `key` is gone.
    fn route_lost(&mut self, now: SimTime, key: Ipv4Addr) {
        let Some(p) = self.path_mut(key) else {
            return;
        };
        if p.route == PathRoute::Lost {
            return;
        }
        p.route = PathRoute::Lost;
        let is_data = key == self.current || key == self.primary;
        if is_data && !self.cfg.asctp_rules.route_notice {
            // Rule 4 off: plain SCTP hears nothing from the routing protocol; the data path
            // stays until its own failures make it inactive (`strike_for`).
            return;
        }
        let Some(p) = self.path_mut(key) else {
            return;
        };
        // A heartbeat in flight on the old route says nothing about a new one.
        p.hb_outstanding = false;
        p.hb_given_up_at = now;
        if is_data && self.best_usable(Some(key)).is_none() {
            // Nowhere else to go: stay, over whatever route the routing protocol finds.
            return;
        }
        self.timers.stop(Timer::Heartbeat(key));
        let mut down = false;
        if let Some(p) = self.path_mut(key) {
            if p.active {
                p.active = false;
                p.stats.times_down += 1;
                down = true;
            }
        }
        if down {
            self.events.push_back(SctpEvent::PathDown { addr: key });
        }
        if is_data {
            self.asctp_switch_from(now, key, SwitchCause::RouteBroken);
        }
    }

    /// Moves data off the failed data path `from` to the best usable path, if there is one
    /// (rules 1, 4, 5; the marking of rule 5 is done by `data_dest`).
    pub(crate) fn asctp_switch_from(&mut self, now: SimTime, from: Ipv4Addr, cause: SwitchCause) {
        let Some(to) = self.best_usable(Some(from)) else {
            return;
        };
        self.primary = to;
        self.switch_cause = Some(cause);
        self.data_dest(now);
    }

    /// Rule 1: the best usable path other than `exclude` (fewest hops, then the earliest
    /// added), if any.
    pub(crate) fn best_usable(&self, exclude: Option<Ipv4Addr>) -> Option<Ipv4Addr> {
        self.paths
            .iter()
            .enumerate()
            .filter(|(_, p)| Some(p.addr) != exclude && p.usable() && p.route != PathRoute::Lost)
            .min_by_key(|(i, p)| (p.route.rank(), *i))
            .map(|(_, p)| p.addr)
    }

    /// Rule 1: where data goes with A-SCTP: the primary while it is usable, else the best
    /// usable path, else the primary anyway (nothing better to try).
    pub(crate) fn asctp_data_dest(&self) -> Ipv4Addr {
        if self.path(self.primary).is_some_and(|p| p.usable()) {
            return self.primary;
        }
        self.best_usable(None).unwrap_or(self.primary)
    }

    /// Rule 5, at a switch from `from` to `to` made by `data_dest`: if `from` is no longer
    /// usable, the chunks in flight on it go to `to` now.
    pub(crate) fn asctp_on_switch(&mut self, from: Ipv4Addr, to: Ipv4Addr) {
        self.primary = to;
        if let Some(p) = self.path_mut(to) {
            // Rule 6: a new round of TSNs on the new data path.
            p.tsn_range = None;
        }
        if self.path(from).is_some_and(|p| p.usable()) {
            return;
        }
        if !self.cfg.asctp_rules.failover_retransmit {
            // Rule 5 off: as plain SCTP at a failover (`strike_for`), only the marks aimed at
            // the failed path follow; its window waits for its T3-rtx timer.
            self.tx.redirect(from, to);
            return;
        }
        let n = self.tx.mark_failover(from, to, &mut self.paths);
        self.tx.redirect(from, to);
        if n > 0 {
            if let Some(p) = self.path_mut(from) {
                // Karn: its timed chunk is being retransmitted.
                p.rtt_probe = None;
            }
        }
    }
}
