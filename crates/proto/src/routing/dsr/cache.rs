//! The route cache: a *path cache* (RFC 4728 §4.1 allows a path or a link cache; ns-2's
//! `mobicache` used by the studies is a path cache).
//!
//! Every entry is a loop-free path that starts at this node: `[self, n1, ..., nk]`. A path
//! serves every node on it (its prefixes are routes too), as in ns-2. Entries expire
//! [`super::DsrConfig::route_cache_timeout`] after they were last learned or used (RFC 4728
//! §4.1 / §9 RouteCacheTimeout). Capacity is bounded in total and per final destination; the
//! least recently used entry goes first. Iteration order is the insertion order of a `Vec`,
//! so every decision is deterministic.

use sctpsim_kernel::{SimDuration, SimTime};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

/// Longest path kept (nodes, this node included): a Source Route option lists at most 63
/// intermediate nodes (6-bit Segments Left, RFC 4728 §6.7), plus the two ends.
pub const MAX_PATH_NODES: usize = sctpsim_wire::dsr::MAX_SOURCE_ROUTE_ADDRS + 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CachedPath {
    pub(crate) nodes: Vec<Ipv4Addr>,
    pub(crate) last_used: SimTime,
}

/// The path cache of one node.
#[derive(Clone, Debug)]
pub(crate) struct PathCache {
    me: Ipv4Addr,
    pub(crate) paths: Vec<CachedPath>,
    timeout: SimDuration,
    capacity: usize,
    per_dest: usize,
}

/// Whether `nodes` holds no address twice.
pub(crate) fn loop_free(nodes: &[Ipv4Addr]) -> bool {
    let mut seen = BTreeSet::new();
    nodes.iter().all(|a| seen.insert(*a))
}

/// Whether `a` is an address a route may contain (not broadcast, multicast or unspecified).
fn routable(a: &Ipv4Addr) -> bool {
    !(a.is_broadcast() || a.is_multicast() || a.is_unspecified())
}

impl PathCache {
    pub(crate) fn new(
        me: Ipv4Addr,
        timeout: SimDuration,
        capacity: usize,
        per_dest: usize,
    ) -> Self {
        PathCache {
            me,
            paths: Vec::new(),
            timeout,
            capacity: capacity.max(1),
            per_dest: per_dest.max(1),
        }
    }

    /// Drops entries not learned or used within the timeout.
    pub(crate) fn expire(&mut self, now: SimTime) {
        let timeout = self.timeout;
        self.paths
            .retain(|p| now.saturating_since(p.last_used) < timeout);
    }

    /// The earliest time an entry expires.
    pub(crate) fn next_expiry(&self) -> Option<SimTime> {
        self.paths.iter().map(|p| p.last_used + self.timeout).min()
    }

    /// Adds a path `[self, ...]`. Rejected (false) if it is shorter than one hop, longer than
    /// [`MAX_PATH_NODES`], has a loop, does not start here, or holds a non-unicast address.
    /// A path already covered by an entry (equal or a prefix) refreshes that entry; an entry
    /// that is a prefix of the new path is replaced by it.
    pub(crate) fn add(&mut self, now: SimTime, nodes: &[Ipv4Addr]) -> bool {
        if nodes.len() < 2
            || nodes.len() > MAX_PATH_NODES
            || nodes[0] != self.me
            || !loop_free(nodes)
            || !nodes.iter().all(routable)
        {
            return false;
        }
        if let Some(p) = self.paths.iter_mut().find(|p| p.nodes.starts_with(nodes)) {
            p.last_used = now;
            return true;
        }
        self.paths.retain(|p| !nodes.starts_with(&p.nodes));
        let dst = nodes[nodes.len() - 1];
        // Per-destination bound: evict the least recently used path ending at dst.
        let ending: Vec<usize> = (0..self.paths.len())
            .filter(|&i| self.paths[i].nodes.last() == Some(&dst))
            .collect();
        if ending.len() >= self.per_dest {
            if let Some(&i) = ending.iter().min_by_key(|&&i| self.paths[i].last_used) {
                // The bound is on routes to `dst`: the evicted path keeps serving the nodes
                // before `dst` unless another entry covers them.
                let mut p = self.paths.remove(i);
                p.nodes.pop();
                if p.nodes.len() >= 2 && !self.paths.iter().any(|q| q.nodes.starts_with(&p.nodes)) {
                    self.paths.push(p);
                }
            }
        }
        if self.paths.len() >= self.capacity {
            if let Some(i) = (0..self.paths.len()).min_by_key(|&i| self.paths[i].last_used) {
                self.paths.remove(i);
            }
        }
        self.paths.push(CachedPath {
            nodes: nodes.to_vec(),
            last_used: now,
        });
        true
    }

    /// Every distinct route `[self, ..., dst]` the cache holds at `now` (prefixes of longer
    /// paths included; expired entries skipped even before [`PathCache::expire`] removes
    /// them), shortest first, ties in cache order.
    pub(crate) fn routes_to(&self, now: SimTime, dst: Ipv4Addr) -> Vec<Vec<Ipv4Addr>> {
        let mut out: Vec<Vec<Ipv4Addr>> = Vec::new();
        for p in &self.paths {
            if now.saturating_since(p.last_used) >= self.timeout {
                continue;
            }
            if let Some(i) = p.nodes.iter().position(|a| *a == dst) {
                if i == 0 {
                    continue;
                }
                let r = &p.nodes[..=i];
                if !out.iter().any(|o| o.as_slice() == r) {
                    out.push(r.to_vec());
                }
            }
        }
        out.sort_by_key(|r| r.len());
        out
    }

    /// The shortest route to `dst`, if any.
    pub(crate) fn find(&self, now: SimTime, dst: Ipv4Addr) -> Option<Vec<Ipv4Addr>> {
        self.routes_to(now, dst).into_iter().next()
    }

    /// Whether `route` (`[self, ..., dst]`) is in the cache (as an entry or a prefix).
    pub(crate) fn contains(&self, route: &[Ipv4Addr]) -> bool {
        route.len() >= 2 && self.paths.iter().any(|p| p.nodes.starts_with(route))
    }

    /// Marks the entries that contain `route` as used now (RFC 4728 §4.1: the timeout counts
    /// from the last use).
    pub(crate) fn touch(&mut self, now: SimTime, route: &[Ipv4Addr]) {
        for p in &mut self.paths {
            if p.nodes.starts_with(route) {
                p.last_used = now;
            }
        }
    }

    /// Removes the link `from → to` (and, since 802.11 links are used in both directions,
    /// `to → from`): every path through it is cut just before the link (RFC 4728 §8.3.5).
    /// Returns the nodes behind the link on the paths that were cut, sorted: every
    /// destination that lost a cached route (some may still have another).
    pub(crate) fn remove_link(&mut self, from: Ipv4Addr, to: Ipv4Addr) -> Vec<Ipv4Addr> {
        let mut broken = BTreeSet::new();
        let mut kept: Vec<CachedPath> = Vec::with_capacity(self.paths.len());
        for mut p in std::mem::take(&mut self.paths) {
            let cut = p
                .nodes
                .windows(2)
                .position(|w| (w[0] == from && w[1] == to) || (w[0] == to && w[1] == from));
            if let Some(i) = cut {
                // Every node behind the link lost this route.
                broken.extend(p.nodes[i + 1..].iter().copied());
                p.nodes.truncate(i + 1);
            }
            if p.nodes.len() >= 2 && !kept.iter().any(|k| k.nodes.starts_with(&p.nodes)) {
                kept.retain(|k| !p.nodes.starts_with(&k.nodes));
                kept.push(p);
            }
        }
        self.paths = kept;
        broken.into_iter().collect()
    }

    /// Number of entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.paths.len()
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn a(i: u8) -> Ipv4Addr {
        Ipv4Addr::new(10, 0, 0, i)
    }

    #[test]
    fn prefixes_links_and_timeouts() {
        let mut c = PathCache::new(a(1), SimDuration::from_secs(300), 10, 3);
        let t = SimTime::ZERO;
        assert!(c.add(t, &[a(1), a(2), a(3), a(4)]));
        assert!(!c.add(t, &[a(1), a(2), a(1)]), "loop");
        assert!(!c.add(t, &[a(2), a(3)]), "not from here");
        assert!(c.add(t, &[a(1), a(2)]), "prefix refreshes");
        assert_eq!(c.len(), 1);
        assert_eq!(c.find(t, a(3)), Some(vec![a(1), a(2), a(3)]));
        assert!(c.add(t, &[a(1), a(5), a(4)]));
        assert_eq!(c.routes_to(SimTime::ZERO, a(4)).len(), 2);
        assert_eq!(c.find(t, a(4)), Some(vec![a(1), a(5), a(4)]));
        let broken = c.remove_link(a(3), a(2));
        assert_eq!(broken, vec![a(3), a(4)]);
        assert_eq!(c.find(t, a(3)), None);
        assert_eq!(c.find(t, a(2)), Some(vec![a(1), a(2)]));
        c.expire(SimTime::ZERO + SimDuration::from_secs(299));
        assert_eq!(c.len(), 2);
        c.expire(SimTime::ZERO + SimDuration::from_secs(300));
        assert_eq!(c.len(), 0);
    }

    #[test]
    fn per_destination_bound() {
        let mut c = PathCache::new(a(1), SimDuration::from_secs(300), 10, 2);
        for (k, mid) in [10u8, 11, 12].into_iter().enumerate() {
            let t = SimTime::ZERO + SimDuration::from_secs(k as u64);
            assert!(c.add(t, &[a(1), a(mid), a(9)]));
        }
        let r = c.routes_to(SimTime::ZERO + SimDuration::from_secs(2), a(9));
        assert_eq!(r, vec![vec![a(1), a(11), a(9)], vec![a(1), a(12), a(9)]]);
    }
}
