//! The information repositories of RFC 3626 §4: link set (§4.2.1), neighbour set (§4.3.1),
//! 2-hop neighbour set (§4.3.2), MPR selector set (§4.3.4), topology set (§4.4), duplicate set
//! (§3.4) and interface association set (§4.1), with the HELLO (§7.1.1, §8.1.1, §8.2.1,
//! §8.4.1), TC (§9.5) and MID (§5.4) processing that fills them.
//!
//! Every map is sorted (`BTreeMap`, or a `VecMap` — a sorted vector — for the sets read on every packet) so that iteration — and therefore MPR selection, routing-table tie
//! breaks and HELLO contents — is deterministic (DESIGN.md §1.3). A tuple's time `t` is valid
//! while `t > now`: it expires *at* `t`, which is where the router's wake-up lands (RFC 3626
//! writes "t >= current time"; the one-nanosecond difference is immaterial and keeps wake-ups
//! exact).

use super::vecmap::VecMap;
use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::olsr::{
    HelloRepr, TcRepr, ASYM_LINK, LOST_LINK, MPR_NEIGH, NOT_NEIGH, SYM_LINK, SYM_NEIGH,
};
use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

/// Whether a tuple time is still valid at `now`.
pub(super) fn valid(t: SimTime, now: SimTime) -> bool {
    t > now
}

/// RFC 3626 §19: sequence numbers compare with wrap-around; `a` is newer than `b` if it is
/// ahead by less than half the space.
pub(super) fn seq_newer(a: u16, b: u16) -> bool {
    (a > b && a - b <= 32768) || (b > a && b - a > 32768)
}

/// A link tuple (§4.2.1); single interface, so the local address is implicit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LinkTuple {
    /// The neighbour's main address (the HELLO originator that created the tuple).
    pub main: Ipv4Addr,
    /// L_SYM_time: the link is symmetric until then.
    pub sym_time: SimTime,
    /// L_ASYM_time: the neighbour is heard until then.
    pub asym_time: SimTime,
    /// L_time: the tuple is kept (and advertised, possibly as LOST_LINK) until then.
    pub time: SimTime,
    /// L_LOST_LINK_time (§13, §14): a link-layer notification declared the link lost until
    /// then; it is advertised as LOST_LINK and not used, whatever HELLOs say.
    pub lost_until: SimTime,
}

impl LinkTuple {
    /// Whether the link is symmetric now (§7.1: L_SYM_time not expired; §13: not declared lost).
    pub fn is_sym(&self, now: SimTime) -> bool {
        valid(self.sym_time, now) && !valid(self.lost_until, now)
    }

    /// The link type to advertise (§6.2).
    pub fn link_type(&self, now: SimTime) -> u8 {
        if valid(self.lost_until, now) {
            LOST_LINK
        } else if valid(self.sym_time, now) {
            SYM_LINK
        } else if valid(self.asym_time, now) {
            ASYM_LINK
        } else {
            LOST_LINK
        }
    }
}

/// A duplicate tuple (§3.4); single interface, so D_iface_list is implicit in its existence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DupTuple {
    /// D_time.
    pub time: SimTime,
    /// D_retransmitted.
    pub retransmitted: bool,
}

/// The earliest time held in one (large) set, kept up to date as tuples are written so that
/// [`Repositories::next_expiry`] need not scan the set after every packet. It is exact unless
/// the tuple holding the minimum was refreshed to a later time or removed; then it is marked
/// stale and the next query rescans the set.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct MinTime {
    min: Option<SimTime>,
    stale: bool,
}

impl MinTime {
    /// A tuple time went from `old` (`None`: a new tuple) to `new`.
    pub fn wrote(&mut self, old: Option<SimTime>, new: SimTime) {
        if old.is_some() && old == self.min && old.is_some_and(|o| new > o) {
            self.stale = true;
        }
        if self.min.is_none_or(|m| new < m) {
            self.min = Some(new);
        }
    }

    /// A tuple with time `old` was removed.
    pub fn removed(&mut self, old: SimTime) {
        if self.min == Some(old) {
            self.stale = true;
        }
    }

    /// Anything may have changed (bulk removal).
    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    /// The earliest time among `times` still valid at `now`, rescanning only when needed.
    pub fn get(&mut self, now: SimTime, times: impl Iterator<Item = SimTime>) -> Option<SimTime> {
        if self.stale || self.min.is_some_and(|m| !valid(m, now)) {
            self.min = times.filter(|t| valid(*t, now)).min();
            self.stale = false;
        }
        self.min
    }
}

/// All repositories of one node.
#[derive(Clone, Debug, Default)]
pub(super) struct Repositories {
    /// Link set, by neighbour interface address.
    pub links: VecMap<Ipv4Addr, LinkTuple>,
    /// Neighbour set: main address → N_willingness. A neighbour exists while a link to it does
    /// (§8.1); its N_status is derived from its links ([`Repositories::sym_neighbors_into`]).
    pub neighbors: VecMap<Ipv4Addr, u8>,
    /// 2-hop neighbour set: (N_neighbor_main_addr, N_2hop_addr) → N_time.
    pub two_hop: VecMap<(Ipv4Addr, Ipv4Addr), SimTime>,
    /// MPR selector set: MS_main_addr → MS_time.
    pub selectors: VecMap<Ipv4Addr, SimTime>,
    /// Topology set: (T_last_addr, T_dest_addr) → (T_seq, T_time). Keyed by last hop first,
    /// so that one originator's tuples (§9.5) and the tuples the §10 expansion follows from a
    /// node are each one range of the map.
    pub topology: VecMap<(Ipv4Addr, Ipv4Addr), (u16, SimTime)>,
    /// The earliest T_time of the topology set (see [`MinTime`]).
    pub topology_min: MinTime,
    /// The earliest N_time of the 2-hop set (see [`MinTime`]).
    pub two_hop_min: MinTime,
    /// Duplicate set: (D_addr, D_seq_num) → tuple. Written only through
    /// [`Repositories::insert_dup`], which keeps `dup_queue` in step.
    pub dups: BTreeMap<(Ipv4Addr, u16), DupTuple>,
    /// Every duplicate tuple's key with the D_time it was given, in insertion order. D_time is
    /// always `now + DUP_HOLD_TIME`, so with a monotone clock the queue is time-ordered and
    /// expiry pops its front instead of scanning the whole (large: 30 s of floods) set.
    dup_queue: VecDeque<(SimTime, (Ipv4Addr, u16))>,
    /// Set whenever a tuple time may have been written (HELLO, TC, MID processing, link-layer
    /// loss, purge); the router clears it once it recomputed [`Repositories::next_expiry`].
    /// Most packets carry only duplicates and touch nothing, so the scan is skipped for them.
    pub touched: bool,
    /// Set when 2-hop tuples were removed in bulk (purge; an input of MPR selection); the
    /// router clears it when it reselects. Single creations and removals go to `two_hop_log`.
    pub two_hop_changed: bool,
    /// 2-hop tuples created (`true`) or removed (`false`) by message processing since the
    /// router last looked: (added, neighbour, 2-hop node). The router tests each against the
    /// MPR selection's inputs and the routing table and clears the log.
    pub two_hop_log: Vec<(bool, Ipv4Addr, Ipv4Addr)>,
    /// Topology tuples created (`true`) or removed (`false`) by TC processing since the router
    /// last looked: (added, last hop, destination). A tuple replaced under a new ANSN with the
    /// same destination is neither.
    pub topology_log: Vec<(bool, Ipv4Addr, Ipv4Addr)>,
    /// Interface association set (§4.1, from MID): I_iface_addr → (I_main_addr, I_time).
    pub ifaces: BTreeMap<Ipv4Addr, (Ipv4Addr, SimTime)>,
}

impl Repositories {
    /// The main address of an interface address (§5.4; itself if no MID said otherwise).
    pub fn main_of(&self, iface: Ipv4Addr) -> Ipv4Addr {
        self.ifaces.get(&iface).map_or(iface, |(main, _)| *main)
    }

    /// Whether the interface address `iface` has a symmetric link to us (§3.4.1 step 1 and §9.5
    /// step 1: "the sender interface ... is in the symmetric 1-hop neighborhood").
    pub fn is_sym_iface(&self, iface: Ipv4Addr, now: SimTime) -> bool {
        self.links.get(&iface).is_some_and(|l| l.is_sym(now))
    }

    /// The symmetric neighbours (N_status = SYM, §8.1: a symmetric link exists) with their
    /// willingness, into a reused buffer, sorted by address: one pass over the (few) links, as
    /// the router does this on every packet.
    pub fn sym_neighbors_into(&self, now: SimTime, out: &mut Vec<(Ipv4Addr, u8)>) {
        out.clear();
        for l in self.links.values().filter(|l| l.is_sym(now)) {
            // Every link's main address has a neighbour tuple (created with the link); the
            // lookup keeps this exactly "neighbours with a symmetric link" all the same.
            if let Some(w) = self.neighbors.get(&l.main) {
                out.push((l.main, *w));
            }
        }
        // Links are keyed by interface and a neighbour's main address is normally that
        // interface, so the list is usually sorted already.
        if !out.is_sorted_by_key(|(n, w)| (u32::from(*n), *w)) {
            out.sort_unstable_by_key(|(n, w)| (u32::from(*n), *w));
        }
        out.dedup_by_key(|(n, w)| (u32::from(*n), *w));
    }

    /// Link sensing and neighbour detection for one HELLO (§7.1.1, §8.1.1, §8.2.1, §8.4.1):
    /// `src` is the sender interface (IP source), `me` our address, `validity` the decoded
    /// Vtime. Returns whether a neighbour's willingness changed (an input of the routing table
    /// the router cannot judge from the logs); 2-hop tuples created or removed go to
    /// `two_hop_log`; new link, neighbour and selector tuples are told by the router's own
    /// comparisons (symmetric links, symmetric neighbours, advertised set). Refreshed times
    /// are no change.
    #[allow(clippy::too_many_arguments)]
    pub fn process_hello(
        &mut self,
        now: SimTime,
        me: Ipv4Addr,
        src: Ipv4Addr,
        originator: Ipv4Addr,
        hello: &HelloRepr,
        validity: SimDuration,
        neighb_hold_time: SimDuration,
    ) -> bool {
        self.touched = true;
        let mut changed = false;
        let vt = now + validity;
        // §7.1.1 step 1: a new link tuple starts with L_SYM_time expired.
        // A new link starts asymmetric: the router notices it when it becomes symmetric.
        let link = self.links.get_or_insert_with(src, || LinkTuple {
            main: originator,
            sym_time: SimTime::ZERO,
            asym_time: SimTime::ZERO,
            time: vt,
            lost_until: SimTime::ZERO,
        });
        link.main = originator;
        // §7.1.1 step 2: L_ASYM_time refreshed; our own address in a link message decides
        // L_SYM_time.
        link.asym_time = vt;
        let mine = hello
            .links
            .iter()
            .filter(|l| l.code.is_valid() && l.addrs.contains(&me))
            .map(|l| l.code)
            .next();
        if let Some(code) = mine {
            match code.link_type() {
                LOST_LINK => link.sym_time = SimTime::ZERO,
                SYM_LINK | ASYM_LINK => {
                    link.sym_time = vt;
                    link.time = vt + neighb_hold_time;
                }
                _ => {}
            }
        }
        link.time = link.time.max(link.asym_time);
        let sym = link.is_sym(now);
        // §8.1.1: the neighbour tuple carries the advertised willingness (an input of MPR
        // selection and of the routing table, so a new value counts as a change). A new
        // neighbour has no symmetric link yet unless this HELLO gave it one, which the router
        // notices as a new symmetric neighbour.
        if self
            .neighbors
            .insert(originator, hello.willingness)
            .is_some_and(|w| w != hello.willingness)
        {
            changed = true;
        }
        // §8.2.1: 2-hop information only from symmetric links.
        if sym {
            for l in hello.links.iter().filter(|l| l.code.is_valid()) {
                match l.code.neighbor_type() {
                    SYM_NEIGH | MPR_NEIGH => {
                        for &a in &l.addrs {
                            let two = self.main_of(a);
                            if two == me {
                                continue;
                            }
                            let old = self.two_hop.insert((originator, two), vt);
                            self.two_hop_min.wrote(old, vt);
                            if old.is_none() {
                                self.two_hop_log.push((true, originator, two));
                            }
                        }
                    }
                    NOT_NEIGH => {
                        for &a in &l.addrs {
                            let two = self.main_of(a);
                            if let Some(old) = self.two_hop.remove(&(originator, two)) {
                                self.two_hop_min.removed(old);
                                self.two_hop_log.push((false, originator, two));
                            }
                        }
                    }
                    _ => {}
                }
            }
            // §8.4.1: being listed as MPR_NEIGH makes the originator an MPR selector.
            let selected = hello.links.iter().any(|l| {
                l.code.is_valid() && l.code.neighbor_type() == MPR_NEIGH && l.addrs.contains(&me)
            });
            if selected {
                self.selectors.insert(originator, vt);
            }
        }
        changed
    }

    /// TC processing (§9.5) for a TC from a symmetric neighbour (the caller checks step 1).
    /// Returns whether the topology set changed in content; the tuples created and removed go
    /// to `topology_log`.
    pub fn process_tc(
        &mut self,
        now: SimTime,
        originator: Ipv4Addr,
        tc: &TcRepr,
        validity: SimDuration,
    ) -> bool {
        let range = (originator, Ipv4Addr::UNSPECIFIED)..=(originator, Ipv4Addr::BROADCAST);
        // One pass over this originator's tuples (one range of the map): step 2's staleness
        // test, step 3's removals and what the routing table reads of them (their
        // destinations) before the update.
        let mut before: Vec<Ipv4Addr> = Vec::new();
        let mut older = false;
        for ((_, dest), (seq, _)) in self.topology.range(range.clone()) {
            // Step 2: a newer ANSN already recorded from this originator makes the TC stale.
            if seq_newer(*seq, tc.ansn) {
                return false;
            }
            before.push(*dest);
            older |= seq_newer(tc.ansn, *seq);
        }
        self.touched = true;
        // Step 3: older information from this originator goes.
        if older {
            let stale: Vec<(Ipv4Addr, SimTime)> = self
                .topology
                .range(range.clone())
                .filter(|(_, (seq, _))| seq_newer(tc.ansn, *seq))
                .map(|((_, dest), (_, t))| (*dest, *t))
                .collect();
            for (dest, t) in stale {
                self.topology.remove(&(originator, dest));
                self.topology_min.removed(t);
            }
        }
        // Step 4: refresh or record each advertised neighbour.
        let vt = now + validity;
        for &dest in &tc.neighbors {
            let dest = self.main_of(dest);
            match self.topology.get_mut(&(originator, dest)) {
                Some(t) => {
                    self.topology_min.wrote(Some(t.1), vt);
                    t.1 = vt;
                }
                None => {
                    self.topology.insert((originator, dest), (tc.ansn, vt));
                    self.topology_min.wrote(None, vt);
                }
            }
        }
        // A new ANSN that re-advertises the same neighbours replaces tuples without changing
        // what the table reads, so it is not a change. Both lists are sorted: merge them.
        let log_len = self.topology_log.len();
        let mut after = self
            .topology
            .range(range)
            .map(|((_, dest), _)| *dest)
            .peekable();
        for &b in &before {
            while let Some(a) = after.next_if(|a| *a < b) {
                self.topology_log.push((true, originator, a));
            }
            if after.next_if_eq(&b).is_none() {
                self.topology_log.push((false, originator, b));
            }
        }
        for a in after {
            self.topology_log.push((true, originator, a));
        }
        self.topology_log.len() != log_len
    }

    /// MID processing (§5.4) for a MID from a symmetric neighbour. Returns whether an
    /// association was created or moved.
    pub fn process_mid(
        &mut self,
        now: SimTime,
        me: Ipv4Addr,
        originator: Ipv4Addr,
        addrs: &[Ipv4Addr],
        validity: SimDuration,
    ) -> bool {
        self.touched = true;
        let mut changed = false;
        for &a in addrs {
            // Our own address, or an interface claimed as its own main address, would only
            // create self-routes or loops in the association; ignore those.
            if a == me || a == originator {
                continue;
            }
            let prev = self.ifaces.insert(a, (originator, now + validity));
            changed |= prev.is_none_or(|(m, _)| m != originator);
        }
        changed
    }

    /// Records (or refreshes) a duplicate tuple.
    pub fn insert_dup(&mut self, key: (Ipv4Addr, u16), tuple: DupTuple) {
        self.dups.insert(key, tuple);
        self.dup_queue.push_back((tuple.time, key));
    }

    /// Drops the duplicate tuples that expired by `now`, oldest first. A queue entry whose tuple
    /// was refreshed since (a later D_time) leaves the tuple alone: its later entry removes it.
    /// If the clock ever went backwards the queue is only roughly ordered; stale tuples then
    /// linger a little longer, which is harmless (lookups check D_time).
    pub fn purge_dups(&mut self, now: SimTime) {
        while let Some(&(t, key)) = self.dup_queue.front() {
            if valid(t, now) {
                break;
            }
            self.dup_queue.pop_front();
            if self.dups.get(&key).is_some_and(|d| !valid(d.time, now)) {
                self.dups.remove(&key);
            }
        }
    }

    /// §13: the link layer reported the link to `iface` lost: L_SYM_time expires now and the
    /// link stays LOST for NEIGHB_HOLD_TIME. Returns whether a link tuple existed.
    pub fn link_lost(&mut self, now: SimTime, iface: Ipv4Addr, hold: SimDuration) -> bool {
        match self.links.get_mut(&iface) {
            Some(l) => {
                self.touched = true;
                l.sym_time = SimTime::ZERO;
                l.lost_until = now + hold;
                l.time = l.time.max(now + hold);
                true
            }
            None => false,
        }
    }

    /// Removes every tuple whose time has passed, neighbours without links, and (§8.5) 2-hop
    /// and MPR selector tuples of neighbours that are no longer symmetric. Returns whether
    /// anything that MPR selection or routing reads was removed.
    pub fn purge(&mut self, now: SimTime) -> bool {
        self.touched = true;
        let sizes = (
            self.links.len(),
            self.neighbors.len(),
            self.two_hop.len(),
            self.selectors.len(),
            self.topology.len(),
            self.ifaces.len(),
        );
        self.links.retain(|_, l| valid(l.time, now));
        let links = &self.links;
        self.neighbors
            .retain(|n, _| links.values().any(|l| l.main == *n));
        self.two_hop.retain(|_, t| valid(*t, now));
        self.two_hop_min.invalidate();
        self.topology_min.invalidate();
        self.selectors.retain(|_, t| valid(*t, now));
        self.topology.retain(|_, (_, t)| valid(*t, now));
        self.ifaces.retain(|_, (_, t)| valid(*t, now));
        self.purge_dups(now);
        // §8.5: a neighbour that lost its symmetric link takes its 2-hop and selector tuples.
        let mut sym: Vec<Ipv4Addr> = self
            .links
            .values()
            .filter(|l| l.is_sym(now))
            .map(|l| l.main)
            .collect();
        sym.sort_unstable();
        sym.dedup();
        self.two_hop
            .retain(|(n, _), _| sym.binary_search(n).is_ok());
        self.selectors.retain(|n, _| sym.binary_search(n).is_ok());
        if self.two_hop.len() != sizes.2 {
            self.two_hop_changed = true;
        }
        sizes
            != (
                self.links.len(),
                self.neighbors.len(),
                self.two_hop.len(),
                self.selectors.len(),
                self.topology.len(),
                self.ifaces.len(),
            )
    }

    /// The earliest future instant at which some tuple expires or a link changes state (the
    /// duplicate set is excluded: stale duplicates are harmless and purged on the way).
    pub fn next_expiry(&mut self, now: SimTime) -> Option<SimTime> {
        let link_times = self
            .links
            .values()
            .flat_map(|l| [l.sym_time, l.asym_time, l.time, l.lost_until]);
        let small = link_times
            .chain(self.selectors.values().copied())
            .chain(self.ifaces.values().map(|(_, t)| *t))
            .filter(|t| valid(*t, now))
            .min();
        // The two large sets keep their minimum as they are written.
        let two_hop = self.two_hop_min.get(now, self.two_hop.values().copied());
        let topology = self
            .topology_min
            .get(now, self.topology.values().map(|(_, t)| *t));
        [small, two_hop, topology].into_iter().flatten().min()
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn sequence_numbers_wrap() {
        assert!(seq_newer(1, 0));
        assert!(!seq_newer(0, 1));
        assert!(seq_newer(0, 65535));
        assert!(!seq_newer(65535, 0));
        assert!(!seq_newer(5, 5));
        assert!(seq_newer(32768, 0));
        assert!(!seq_newer(32769, 0));
    }

    /// §9.5: a TC older than what is recorded from its originator is ignored; a newer one
    /// replaces the originator's tuples; the same ANSN refreshes and adds.
    #[test]
    fn tc_ansn_rules() {
        let a = |i| Ipv4Addr::new(10, 0, 0, i);
        let t = |s| SimTime::ZERO + SimDuration::from_secs(s);
        let v = SimDuration::from_secs(15);
        let mut r = Repositories::default();
        let tc = |ansn, n: &[u8]| TcRepr {
            ansn,
            neighbors: n.iter().map(|i| a(*i)).collect(),
        };
        assert!(r.process_tc(t(1), a(1), &tc(5, &[2, 3]), v));
        assert!(!r.process_tc(t(2), a(1), &tc(4, &[9]), v), "stale ANSN");
        assert!(!r.topology.contains_key(&(a(1), a(9))));
        assert!(r.process_tc(t(3), a(1), &tc(5, &[4]), v), "same ANSN adds");
        assert_eq!(r.topology.len(), 3);
        assert!(
            r.process_tc(t(4), a(1), &tc(6, &[2]), v),
            "newer ANSN replaces"
        );
        assert_eq!(
            r.topology.keys().copied().collect::<Vec<_>>(),
            vec![(a(1), a(2))]
        );
        assert_eq!(r.topology[&(a(1), a(2))], (6, t(4) + v));
        // Wrap-around: 0 is newer than 65535.
        assert!(r.process_tc(t(5), a(7), &tc(65535, &[2]), v));
        assert!(r.process_tc(t(6), a(7), &tc(0, &[3]), v));
        assert!(!r.topology.contains_key(&(a(7), a(2))));
        assert!(r.purge(t(30)));
        assert!(r.topology.is_empty());
    }
}
