//! OLSR (RFC 3626), the proactive link-state protocol with multipoint relays, as a sans-IO
//! [`Router`].
//!
//! One interface per node, whose address is the main address. Every HELLO_INTERVAL (minus a
//! jitter) a node broadcasts a HELLO listing its links and their state (§6); from the HELLOs it
//! hears it keeps the link set (§7), neighbour set, 2-hop set and the MPR selector set (§8),
//! and recomputes its MPR set with the §8.3.1 heuristic. A node with MPR selectors floods a TC
//! every TC_INTERVAL (§9) advertising them; TCs (and MID, HNA and unknown messages) are
//! retransmitted only by the MPRs of the node they were received from (§3.4.1), with the
//! duplicate set suppressing repeats. The routing table (§10) is recomputed whenever a
//! repository changes in content (not when a time is merely refreshed).
//!
//! Control packets are IPv4 + UDP (port 698 both ways) broadcasts to 255.255.255.255 with IP
//! TTL 1; whenever a message is due, every message waiting for its forwarding jitter goes in the
//! same packet (§3.4, RFC 5148 §5.3). Data packets are
//! routed hop by hop from the table: no route means [`RouteDropReason::NoRoute`] at once (a
//! proactive protocol has nothing to wait for), so [`RoutingEvent::RouteDiscovered`] is never
//! emitted.
//!
//! Counting: the overhead (`tx_total`, [`RoutingCounters::tx_packets`]) counts IPv4 packets;
//! `tx`/`rx` count *messages* by type ("hello", "tc", "mid", "hna", "unknown"); the bytes of a
//! packet (whole IPv4 packet) are split so that the first message carries the IPv4, UDP and
//! OLSR packet headers and every message its own size — the byte sums are exactly the IPv4
//! bytes sent or received. Transmissions count every hop, forwarded TCs included.

mod mpr;
mod repo;
mod table;
#[cfg(test)]
mod tests;
mod vecmap;

pub use mpr::{select as select_mprs, WILL_ALWAYS, WILL_DEFAULT, WILL_HIGH, WILL_LOW, WILL_NEVER};
pub use table::Route;

use super::timers::TimerTable;
use super::{
    Decision, Outputs, RouteDropReason, Router, RoutingCounters, RoutingEvent, RoutingOutput,
};
use repo::{valid, DupTuple, Repositories};
use sctpsim_kernel::{Packet, Rng, SimDuration, SimTime};
use sctpsim_wire::olsr::{
    decode_time_ns, encode_time_ns, HelloRepr, LinkCode, LinkMessage, MessageBody, MessageRepr,
    OlsrRepr, TcRepr, MPR_NEIGH, NOT_NEIGH, SYM_NEIGH, UDP_PORT,
};
use sctpsim_wire::{udp_datagram, Ipv4Packet, Ipv4Repr, UdpRepr};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::net::Ipv4Addr;

/// IPv4 (20) + UDP (8) headers in front of every OLSR packet.
const IP_UDP_HEADERS: usize = 28;

/// Largest OLSR packet built here: a 1500-byte IP MTU minus IPv4 and UDP headers, so control
/// packets are never fragmented.
const MAX_OLSR_PACKET: usize = 1500 - IP_UDP_HEADERS;

/// RFC 3626 §3.3.2: a TC (and every flooded message) starts with TTL 255 — the whole network.
const FLOOD_TTL: u8 = 255;

/// OLSR parameters. Defaults are RFC 3626 §18 values (also ns-3's `ns3::olsr::RoutingProtocol`
/// defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OlsrConfig {
    /// HELLO emission interval: 2 s (§18.2 HELLO_INTERVAL).
    pub hello_interval: SimDuration,
    /// Interval within which every neighbour is advertised at least once: 2 s (§18.2
    /// REFRESH_INTERVAL). Only the hold time below depends on it (one interface, so every HELLO
    /// lists every neighbour).
    pub refresh_interval: SimDuration,
    /// TC emission interval: 5 s (§18.2 TC_INTERVAL).
    pub tc_interval: SimDuration,
    /// MID emission interval: 5 s (§18.2 MID_INTERVAL = TC_INTERVAL). No MID is generated (one
    /// interface); kept for the hold time of received MIDs.
    pub mid_interval: SimDuration,
    /// HNA emission interval: 5 s (§18.2 HNA_INTERVAL = TC_INTERVAL). No HNA is generated.
    pub hna_interval: SimDuration,
    /// Validity advertised in HELLOs: 6 s (§18.3 NEIGHB_HOLD_TIME = 3 × REFRESH_INTERVAL).
    pub neighb_hold_time: SimDuration,
    /// Validity advertised in TCs: 15 s (§18.3 TOP_HOLD_TIME = 3 × TC_INTERVAL).
    pub top_hold_time: SimDuration,
    /// Validity of received MIDs is theirs; this is what a MID from here would carry: 15 s
    /// (§18.3 MID_HOLD_TIME = 3 × MID_INTERVAL).
    pub mid_hold_time: SimDuration,
    /// Lifetime of duplicate tuples: 30 s (§18.3 DUP_HOLD_TIME).
    pub dup_hold_time: SimDuration,
    /// Largest jitter subtracted from each periodic emission interval and added before each
    /// forwarded message: 0.5 s (§18.9 MAXJITTER = HELLO_INTERVAL / 4).
    pub max_jitter: SimDuration,
    /// This node's willingness to forward for others: 3 (§18.8 WILL_DEFAULT).
    pub willingness: u8,
    /// §13: use MAC link-failure notifications. When true, [`Router::handle_link_failure`]
    /// marks the link lost at once; when false (the RFC's base protocol and ns-3), a broken
    /// link is noticed only when HELLOs stop (after up to NEIGHB_HOLD_TIME).
    pub link_layer_notification: bool,
}

impl Default for OlsrConfig {
    fn default() -> Self {
        let hello = SimDuration::from_secs(2);
        let refresh = SimDuration::from_secs(2);
        let tc = SimDuration::from_secs(5);
        OlsrConfig {
            hello_interval: hello,
            refresh_interval: refresh,
            tc_interval: tc,
            mid_interval: tc,
            hna_interval: tc,
            neighb_hold_time: refresh.saturating_mul(3),
            top_hold_time: tc.saturating_mul(3),
            mid_hold_time: tc.saturating_mul(3),
            dup_hold_time: SimDuration::from_secs(30),
            max_jitter: SimDuration::from_nanos(hello.as_nanos() / 4),
            willingness: WILL_DEFAULT,
            link_layer_notification: false,
        }
    }
}

/// An OLSR router at one node.
#[derive(Debug)]
pub struct Olsr {
    addr: Ipv4Addr,
    cfg: OlsrConfig,
    rng: Rng,
    repo: Repositories,
    mprs: BTreeSet<Ipv4Addr>,
    /// The routing table, sorted by destination.
    routes: table::Table,
    /// The previous table, kept as the buffer of the next computation.
    routes_prev: table::Table,
    table_scratch: table::Scratch,
    mpr_scratch: mpr::Scratch,
    /// Routing table computations (see [`Olsr::recomputations`]).
    recomputations: u64,
    /// The time of the last update: the table must equal a computation from the repositories
    /// at that time ([`Olsr::check_invariants`]).
    last_update: SimTime,
    /// Symmetric neighbours at the last update, to notice losses.
    sym: BTreeSet<Ipv4Addr>,
    /// Symmetric links (interface, main address) at the last update: the routing table's
    /// first hops. A link can change (expire, or be re-attributed to another originator) while
    /// its neighbour stays symmetric through another link, so this is tracked on its own.
    sym_links: BTreeSet<(Ipv4Addr, Ipv4Addr)>,
    /// The advertised neighbour set of the last update (§9.2: the MPR selectors).
    advertised: BTreeSet<Ipv4Addr>,
    /// Scratch buffer for the symmetric neighbours of an update (kept to avoid reallocating on
    /// every packet).
    sym_buf: Vec<(Ipv4Addr, u8)>,
    /// The symmetric neighbours (with willingness) the MPR set was last selected from.
    mpr_input: Vec<(Ipv4Addr, u8)>,
    ansn: u16,
    packet_seq: u16,
    msg_seq: u16,
    ip_ident: u16,
    /// The HELLO and TC timers, the earliest forwarding jitter and the repositories' next
    /// expiry.
    timers: TimerTable<OlsrTimer>,
    /// §9.3: after the advertised set empties, empty TCs go out until then.
    tc_empty_until: SimTime,
    /// Messages waiting for their forwarding jitter (the earliest is [`OlsrTimer::Forward`]).
    forward_queue: Vec<MessageRepr>,
    outputs: Outputs,
    events: VecDeque<RoutingEvent>,
    counters: RoutingCounters,
}

/// What an OLSR router wakes up for (fields of [`TimerTable`]; the order is that of a
/// wake-up's steps).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum OlsrTimer {
    /// The earliest time a tuple of the repositories expires (not the duplicate set, which
    /// expires through its own queue); recomputed when a repository was written.
    Expiry,
    /// The next HELLO (RFC 3626 §6.2, jittered as RFC 5148 §5.4).
    Hello,
    /// The next TC (§9.3, jittered).
    Tc,
    /// The earliest forwarding jitter of a queued message (§3.4, RFC 5148 §5.3).
    Forward,
}

/// The counter key of a message type.
fn kind(msg_type: u8) -> &'static str {
    match msg_type {
        sctpsim_wire::olsr::HELLO_MESSAGE => "hello",
        sctpsim_wire::olsr::TC_MESSAGE => "tc",
        sctpsim_wire::olsr::MID_MESSAGE => "mid",
        sctpsim_wire::olsr::HNA_MESSAGE => "hna",
        _ => "unknown",
    }
}

impl Olsr {
    /// A router for the node with (main and only interface) address `addr`; `rng` draws the
    /// jitter. The first HELLO and TC timers fire within MAXJITTER of time zero (or of the
    /// first wake-up, if the node starts later).
    pub fn new(addr: Ipv4Addr, cfg: OlsrConfig, rng: Rng) -> Olsr {
        let mut olsr = Olsr {
            addr,
            cfg,
            rng,
            repo: Repositories::default(),
            mprs: BTreeSet::new(),
            routes: table::Table::default(),
            routes_prev: table::Table::default(),
            table_scratch: table::Scratch::default(),
            mpr_scratch: mpr::Scratch::default(),
            recomputations: 0,
            last_update: SimTime::ZERO,
            sym: BTreeSet::new(),
            sym_links: BTreeSet::new(),
            advertised: BTreeSet::new(),
            sym_buf: Vec::new(),
            mpr_input: Vec::new(),
            ansn: 0,
            packet_seq: 0,
            msg_seq: 0,
            ip_ident: 0,
            timers: TimerTable::new(),
            tc_empty_until: SimTime::ZERO,
            forward_queue: Vec::new(),
            outputs: Outputs::default(),
            events: VecDeque::new(),
            counters: RoutingCounters::default(),
        };
        let hello = SimTime::ZERO + olsr.jitter();
        olsr.timers.set(OlsrTimer::Hello, hello);
        let tc = SimTime::ZERO + olsr.jitter();
        olsr.timers.set(OlsrTimer::Tc, tc);
        olsr
    }

    /// The configuration.
    pub fn config(&self) -> &OlsrConfig {
        &self.cfg
    }

    /// The current MPR set (main addresses).
    pub fn mpr_set(&self) -> &BTreeSet<Ipv4Addr> {
        &self.mprs
    }

    /// The current MPR selector set (main addresses).
    pub fn mpr_selectors(&self) -> Vec<Ipv4Addr> {
        self.repo.selectors.keys().copied().collect()
    }

    /// The symmetric neighbours (main addresses) as of the last update.
    pub fn symmetric_neighbors(&self) -> &BTreeSet<Ipv4Addr> {
        &self.sym
    }

    /// The 2-hop neighbour set as (neighbour, 2-hop node) pairs.
    pub fn two_hop_neighbors(&self) -> Vec<(Ipv4Addr, Ipv4Addr)> {
        self.repo.two_hop.keys().copied().collect()
    }

    /// The topology set as (destination, last hop) pairs, sorted.
    pub fn topology(&self) -> Vec<(Ipv4Addr, Ipv4Addr)> {
        let mut t: Vec<(Ipv4Addr, Ipv4Addr)> = self
            .repo
            .topology
            .keys()
            .map(|(last, dest)| (*dest, *last))
            .collect();
        t.sort_unstable();
        t
    }

    /// The routing table as (destination, route), sorted by destination.
    pub fn routes(&self) -> &[(Ipv4Addr, Route)] {
        &self.routes.routes
    }

    /// How many times the routing table (§10) was computed: once per input that changed
    /// something the table can depend on, never for refreshed validity times (for tests and
    /// cost metrics).
    pub fn recomputations(&self) -> u64 {
        self.recomputations
    }

    fn route(&self, dst: Ipv4Addr) -> Option<Route> {
        table::lookup(&self.routes.routes, dst)
    }

    /// The last Advertised Neighbour Sequence Number (§9.3).
    pub fn ansn(&self) -> u16 {
        self.ansn
    }

    /// Checks the router's invariants (for tests and the fuzz target); panics with a message
    /// naming the broken one.
    pub fn check_invariants(&self) {
        assert!(self.route(self.addr).is_none(), "route to self");
        assert!(
            self.routes.routes.windows(2).all(|w| w[0].0 < w[1].0),
            "routing table not sorted"
        );
        for (dst, r) in &self.routes.routes {
            assert!(r.dist >= 1, "route to {dst} of length 0");
            let l = self.repo.links.get(&r.next_hop);
            assert!(
                l.is_some_and(|l| self.sym.contains(&l.main)
                    && self.sym_links.contains(&(r.next_hop, l.main))),
                "{}: route to {dst} via {} which is not a symmetric neighbour (link {l:?}, \
                 symmetric {:?})",
                self.addr,
                r.next_hop,
                self.sym
            );
        }
        // A skipped recomputation must have been no change: the table is what a computation
        // from the repositories gives.
        let mut fresh = table::Table::default();
        table::compute_into(
            self.addr,
            &self.repo,
            self.last_update,
            &mut fresh,
            &mut table::Scratch::default(),
        );
        assert_eq!(
            self.routes.routes, fresh.routes,
            "{}: routing table differs from a fresh computation",
            self.addr
        );
        // Likewise a skipped MPR selection.
        let mut fresh_mprs = BTreeSet::new();
        mpr::select_into(
            self.addr,
            &self.mpr_input,
            self.repo.two_hop.keys().copied(),
            &mut mpr::Scratch::default(),
            &mut fresh_mprs,
        );
        assert_eq!(self.mpr_input, self.sym_buf, "MPR input out of date");
        assert_eq!(self.mprs, fresh_mprs, "{}: MPR set out of date", self.addr);
        for m in &self.mprs {
            assert!(self.sym.contains(m), "MPR {m} is not a symmetric neighbour");
        }
        for n in self.repo.selectors.keys() {
            assert!(self.sym.contains(n), "MPR selector {n} is not symmetric");
        }
        for (n, _) in self.repo.two_hop.keys() {
            assert!(self.sym.contains(n), "2-hop tuple via non-symmetric {n}");
        }
        assert!(self.forward_queue.len() < 100_000, "forward queue runaway");
    }

    fn jitter(&mut self) -> SimDuration {
        SimDuration::from_nanos(
            self.rng
                .below(self.cfg.max_jitter.as_nanos().saturating_add(1)),
        )
    }

    fn next_msg_seq(&mut self) -> u16 {
        self.msg_seq = self.msg_seq.wrapping_add(1);
        self.msg_seq
    }

    /// §6.2: one link message per link code, listing every link tuple still held.
    fn make_hello(&mut self, now: SimTime) -> MessageRepr {
        let mut by_code: BTreeMap<u8, Vec<Ipv4Addr>> = BTreeMap::new();
        for (iface, l) in &self.repo.links {
            if !valid(l.time, now) {
                continue;
            }
            let neigh = if self.mprs.contains(&l.main) {
                MPR_NEIGH
            } else if self.sym.contains(&l.main) {
                SYM_NEIGH
            } else {
                NOT_NEIGH
            };
            let code = LinkCode::new(l.link_type(now), neigh);
            by_code.entry(code.0).or_default().push(*iface);
        }
        MessageRepr {
            vtime: encode_time_ns(self.cfg.neighb_hold_time.as_nanos()),
            originator: self.addr,
            ttl: 1,
            hop_count: 0,
            seq: self.next_msg_seq(),
            body: MessageBody::Hello(HelloRepr {
                htime: encode_time_ns(self.cfg.hello_interval.as_nanos()),
                willingness: self.cfg.willingness,
                links: by_code
                    .into_iter()
                    .map(|(code, addrs)| LinkMessage {
                        code: LinkCode(code),
                        addrs,
                    })
                    .collect(),
            }),
        }
    }

    /// §9.3: the advertised neighbour set (MPR selectors) with the current ANSN.
    fn make_tc(&mut self) -> MessageRepr {
        MessageRepr {
            vtime: encode_time_ns(self.cfg.top_hold_time.as_nanos()),
            originator: self.addr,
            ttl: FLOOD_TTL,
            hop_count: 0,
            seq: self.next_msg_seq(),
            body: MessageBody::Tc(TcRepr {
                ansn: self.ansn,
                neighbors: self.advertised.iter().copied().collect(),
            }),
        }
    }

    /// Sends `msgs` in as few packets as fit the MTU.
    fn send_messages(&mut self, msgs: Vec<MessageRepr>) {
        let mut batch: Vec<MessageRepr> = Vec::new();
        let mut size = sctpsim_wire::olsr::PACKET_HEADER_LEN;
        for m in msgs {
            let len = m.buffer_len();
            if !batch.is_empty() && size + len > MAX_OLSR_PACKET {
                self.send_packet(std::mem::take(&mut batch));
                size = sctpsim_wire::olsr::PACKET_HEADER_LEN;
            }
            size += len;
            batch.push(m);
        }
        if !batch.is_empty() {
            self.send_packet(batch);
        }
    }

    fn send_packet(&mut self, messages: Vec<MessageRepr>) {
        self.packet_seq = self.packet_seq.wrapping_add(1);
        let repr = OlsrRepr {
            seq: self.packet_seq,
            messages,
        };
        // Our own messages are small and forwarded ones were parsed from packets that fit, but
        // a message that cannot be encoded is dropped rather than allowed to panic.
        let Ok(payload) = repr.to_bytes() else {
            return;
        };
        if payload.len() > Ipv4Repr::MAX_PAYLOAD_LEN - sctpsim_wire::udp::HEADER_LEN {
            return;
        }
        self.ip_ident = self.ip_ident.wrapping_add(1);
        let udp = UdpRepr {
            src_port: UDP_PORT,
            dst_port: UDP_PORT,
        };
        let packet = udp_datagram(
            self.addr,
            Ipv4Addr::BROADCAST,
            1,
            self.ip_ident,
            &udp,
            &payload,
        );
        self.counters.count_tx_packet(packet.len());
        for (i, m) in repr.messages.iter().enumerate() {
            let extra = if i == 0 {
                IP_UDP_HEADERS + sctpsim_wire::olsr::PACKET_HEADER_LEN
            } else {
                0
            };
            self.counters
                .count_tx_message(kind(m.body.msg_type()), m.buffer_len() + extra);
        }
        self.outputs.push_back(RoutingOutput::Transmit {
            next_hop: Ipv4Addr::BROADCAST,
            packet: Packet::untagged(packet),
            control: true,
        });
    }

    /// Brings every derived structure up to date at `now`: expires tuples, notices lost
    /// symmetric neighbours (LinkBroken), recomputes the MPR set, the advertised set (ANSN) and
    /// the routing table (RouteBroken for lost destinations). `changed` says whether a caller
    /// already altered a repository's content.
    fn update(&mut self, now: SimTime, changed: bool) {
        let changed = self.refresh(now, changed);
        self.recompute(now, changed);
        self.last_update = now;
        // Times only move when a repository was written (or purged); a packet of duplicates
        // leaves the deadline as it was.
        if self.repo.touched {
            match self.repo.next_expiry(now) {
                Some(t) => self.timers.set(OlsrTimer::Expiry, t),
                None => self.timers.cancel(OlsrTimer::Expiry),
            }
            self.repo.touched = false;
        }
    }

    /// The cheap part of [`Olsr::update`]: purges expired tuples, brings the symmetric
    /// neighbour and link sets up to date (LinkBroken, §8.5 clean-up) and returns whether
    /// the routing table must be recomputed whatever the logged 2-hop and topology changes
    /// (`changed`, or an expiry or a symmetric link or neighbour change found here).
    fn refresh(&mut self, now: SimTime, mut changed: bool) -> bool {
        // Every time in the repositories that lies ahead was at least `next_expiry` when it was
        // last computed (at the end of the previous update; every repository change is
        // followed by an update at the same instant before time moves on), so before then a
        // purge would remove nothing and can be skipped. The duplicate set is not part of
        // `next_expiry`; it expires through its own queue.
        if self
            .timers
            .get(OlsrTimer::Expiry)
            .is_some_and(|t| !valid(t, now))
        {
            changed |= self.repo.purge(now);
        } else {
            self.repo.purge_dups(now);
        }
        let mut sym_now = std::mem::take(&mut self.sym_buf);
        self.repo.sym_neighbors_into(now, &mut sym_now);
        if !sym_now.iter().map(|(n, _)| n).eq(self.sym.iter()) {
            changed = true;
            let sym_set: BTreeSet<Ipv4Addr> = sym_now.iter().map(|(n, _)| *n).collect();
            for lost in self.sym.difference(&sym_set) {
                self.counters.link_breaks += 1;
                self.events
                    .push_back(RoutingEvent::LinkBroken { next_hop: *lost });
            }
            self.sym = sym_set;
            // §8.5: purge (again) drops 2-hop and selector tuples of neighbours gone asymmetric.
            self.repo.purge(now);
        }
        // Links are keyed by interface, so this iterates in (interface, main) order, the
        // order of the set: compared without building a new one.
        let sym_links = self
            .repo
            .links
            .iter()
            .filter(|(_, l)| l.is_sym(now))
            .map(|(iface, l)| (*iface, l.main));
        if !sym_links.clone().eq(self.sym_links.iter().copied()) {
            changed = true;
            self.sym_links = sym_links.collect();
        }
        self.sym_buf = sym_now;
        changed
    }

    /// Recomputes what the repositories feed: the MPR set (§8.3.1, only when its inputs
    /// changed), the advertised set and ANSN (§9.3) and the routing table (§10, when `full`
    /// or when a logged 2-hop or topology change can alter it), with a RouteBroken event for
    /// every destination that left the table.
    fn recompute(&mut self, now: SimTime, full: bool) {
        let me = self.addr;
        // The MPR set is a function of the symmetric neighbours (with willingness) and of the
        // 2-hop tuples whose 2-hop node is neither us nor a symmetric neighbour (N2) only: a
        // TC or MID changes neither, nor does a 2-hop tuple to a node we hear directly.
        let sym = &self.sym_buf;
        let n2_changed = self.repo.two_hop_log.iter().any(|(_, _, two)| {
            *two != me
                && sym
                    .binary_search_by_key(&u32::from(*two), |(n, _)| u32::from(*n))
                    .is_err()
        });
        if self.repo.two_hop_changed || n2_changed || self.sym_buf != self.mpr_input {
            mpr::select_into(
                self.addr,
                &self.sym_buf,
                self.repo.two_hop.keys().copied(),
                &mut self.mpr_scratch,
                &mut self.mprs,
            );
            self.repo.two_hop_changed = false;
            self.mpr_input.clone_from(&self.sym_buf);
        }
        if !self.repo.selectors.keys().eq(self.advertised.iter()) {
            // §9.3: a new advertised set gets a new ANSN; an emptied one is still sent
            // (empty) for the validity of the last TC, to withdraw it.
            self.ansn = self.ansn.wrapping_add(1);
            if self.repo.selectors.is_empty() {
                self.tc_empty_until = now + self.cfg.top_hold_time;
            }
            self.advertised = self.repo.selectors.keys().copied().collect();
        }
        // The table is a function of the symmetric links, the willingness of neighbours and
        // the 2-hop, topology and MID sets. Unless `full` (an expiry, a link, neighbour or MID
        // change), only 2-hop and topology tuples were created or removed: each is tested
        // against the current table, and if none can change it, together they cannot either
        // (see docs/models/olsr.md, *What is computed when*).
        let repo = &self.repo;
        let routes = &self.routes;
        let needed =
            full || repo.two_hop_log.iter().any(|&(added, n, two)| {
                if added {
                    let willing = repo
                        .neighbors
                        .get(&n)
                        .is_some_and(|w| *w != mpr::WILL_NEVER);
                    routes.two_hop_added_matters(me, n, two, willing)
                } else {
                    routes.two_hop_removed_matters(n, two)
                }
            }) || repo.topology_log.iter().any(|&(added, last, dest)| {
                if added {
                    routes.topology_added_matters(me, last, dest)
                } else {
                    routes.topology_removed_matters(last, dest)
                }
            });
        self.repo.two_hop_log.clear();
        self.repo.topology_log.clear();
        if !needed {
            return;
        }
        self.recomputations += 1;
        std::mem::swap(&mut self.routes, &mut self.routes_prev);
        table::compute_into(
            self.addr,
            &self.repo,
            now,
            &mut self.routes,
            &mut self.table_scratch,
        );
        // Both tables are sorted: destinations of the old one missing from the new one, in
        // address order.
        let mut new = self.routes.routes.iter().map(|(d, _)| *d).peekable();
        for (dst, _) in &self.routes_prev.routes {
            while new.next_if(|d| d < dst).is_some() {}
            if new.next_if_eq(dst).is_none() {
                self.events
                    .push_back(RoutingEvent::RouteBroken { dst: *dst });
            }
        }
    }

    /// Processes one OLSR packet received from interface `src` (§3.4).
    fn receive_olsr(&mut self, now: SimTime, src: Ipv4Addr, repr: OlsrRepr, ip_len: usize) {
        // Purge first so that processing sees only valid tuples.
        self.update(now, false);
        // Whether a message of this packet changed a repository: the MPR set and the routing
        // table are recomputed once, after the last message (nothing in message processing
        // reads them).
        let mut changed = false;
        let msg_bytes: usize = repr.messages.iter().map(MessageRepr::buffer_len).sum();
        let overhead = ip_len.saturating_sub(msg_bytes);
        for (i, msg) in repr.messages.into_iter().enumerate() {
            let extra = if i == 0 { overhead } else { 0 };
            self.counters
                .count_rx(kind(msg.body.msg_type()), msg.buffer_len() + extra);
            // §3.4 step 2: expired or our own.
            if msg.ttl == 0 || msg.originator == self.addr {
                continue;
            }
            let key = (msg.originator, msg.seq);
            let dup = self
                .repo
                .dups
                .get(&key)
                .copied()
                .filter(|d| valid(d.time, now));
            let validity = SimDuration::from_nanos(decode_time_ns(msg.vtime));
            // §3.4 step 3: process once.
            if let MessageBody::Hello(h) = &msg.body {
                // HELLOs are never forwarded (§6) and need no duplicate tuple.
                changed |= self.repo.process_hello(
                    now,
                    self.addr,
                    src,
                    msg.originator,
                    h,
                    validity,
                    self.cfg.neighb_hold_time,
                );
                // A HELLO may make the link symmetric (or not) without creating a tuple: bring
                // the symmetric sets (and the §8.5 clean-up) up to date before the packet's
                // later messages; the recomputation waits for the end of the packet.
                changed = self.refresh(now, changed);
                continue;
            }
            if dup.is_none() && self.repo.is_sym_iface(src, now) {
                match &msg.body {
                    MessageBody::Tc(tc) => {
                        // Created and removed tuples are logged for `recompute` to judge.
                        self.repo.process_tc(now, msg.originator, tc, validity);
                    }
                    MessageBody::Mid(addrs) => {
                        changed |=
                            self.repo
                                .process_mid(now, self.addr, msg.originator, addrs, validity);
                    }
                    // HNA is forwarded but not processed (no gateway routes in this model).
                    _ => {}
                }
            }
            // §3.4 step 4 and the default forwarding algorithm (§3.4.1).
            self.consider_forwarding(now, src, msg, dup);
        }
        self.update(now, changed);
    }

    /// §3.4.1: retransmit if the sender is a symmetric neighbour that selected us as MPR, the
    /// message was not seen on this interface before and its TTL allows another hop.
    fn consider_forwarding(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        mut msg: MessageRepr,
        dup: Option<DupTuple>,
    ) {
        // Step 1.
        if !self.repo.is_sym_iface(src, now) {
            return;
        }
        // Step 2: with one interface, an existing tuple means "already considered here".
        if dup.is_some() {
            return;
        }
        // Step 4.
        let sender_main = self.repo.main_of(src);
        let retransmit = self
            .repo
            .selectors
            .get(&sender_main)
            .is_some_and(|t| valid(*t, now))
            && msg.ttl > 1;
        // Step 5.
        self.repo.insert_dup(
            (msg.originator, msg.seq),
            DupTuple {
                time: now + self.cfg.dup_hold_time,
                retransmitted: retransmit,
            },
        );
        // Steps 6-8.
        if retransmit {
            msg.ttl -= 1;
            msg.hop_count = msg.hop_count.saturating_add(1);
            let due = now + self.jitter();
            self.timers.set_earlier(OlsrTimer::Forward, due);
            self.forward_queue.push(msg);
        }
    }

    /// Decides for a data packet (tag and all): to the next hop toward `dst`, or dropped
    /// (OLSR has no send buffer).
    fn route_data(&mut self, packet: Packet, dst: Ipv4Addr) -> Decision {
        let d = match self.route(dst) {
            Some(r) => Decision::Forward {
                next_hop: r.next_hop,
                packet,
            },
            None => {
                self.counters.count_drop(RouteDropReason::NoRoute);
                Decision::Drop {
                    packet,
                    reason: RouteDropReason::NoRoute,
                }
            }
        };
        self.outputs.decide(d)
    }
}

/// An IPv4 packet classified on receipt.
enum Incoming {
    /// An OLSR packet (UDP port 698 to us or broadcast), parsed, with its source.
    Olsr(Ipv4Addr, OlsrRepr),
    /// Any other packet, with its destination.
    Data(Ipv4Addr),
}

/// Parses an incoming packet; `Err` means malformed (bad lengths or checksums).
fn classify(me: Ipv4Addr, packet: &[u8]) -> Result<Incoming, sctpsim_wire::WireError> {
    Ok(match super::classify_udp(me, packet, UDP_PORT)? {
        super::UdpIncoming::Control(src, payload) => Incoming::Olsr(src, OlsrRepr::parse(payload)?),
        super::UdpIncoming::Data(dst) => Incoming::Data(dst),
    })
}

impl Router for Olsr {
    fn protocol(&self) -> &'static str {
        "olsr"
    }

    fn addr(&self) -> Ipv4Addr {
        self.addr
    }

    fn handle_send(&mut self, _now: SimTime, packet: Packet) -> Decision {
        let Some(dst) = Ipv4Packet::new_checked(&packet.bytes[..])
            .ok()
            .map(|p| p.dst_addr())
        else {
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        if dst == self.addr {
            self.outputs.decide(Decision::Deliver(packet))
        } else if dst == Ipv4Addr::BROADCAST {
            self.outputs.decide(Decision::Forward {
                next_hop: Ipv4Addr::BROADCAST,
                packet,
            })
        } else {
            self.route_data(packet, dst)
        }
    }

    fn handle_receive(&mut self, now: SimTime, _prev_hop: Ipv4Addr, packet: Packet) -> Decision {
        match classify(self.addr, &packet.bytes) {
            Err(_) => {
                self.counters.malformed += 1;
                Decision::Consumed
            }
            Ok(Incoming::Olsr(src, repr)) => {
                if src != self.addr {
                    self.receive_olsr(now, src, repr, packet.len());
                }
                Decision::Consumed
            }
            Ok(Incoming::Data(dst)) => {
                if dst == self.addr || dst == Ipv4Addr::BROADCAST {
                    return self.outputs.decide(Decision::Deliver(packet));
                }
                // IP forwarding has already decremented the TTL (Router contract).
                if self.route(dst).is_some() {
                    self.counters.data_forwarded += 1;
                }
                self.route_data(packet, dst)
            }
        }
    }

    fn outputs_before_decision(&self) -> usize {
        self.outputs.before_decision()
    }

    fn handle_link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>) {
        if self.cfg.link_layer_notification
            && self
                .repo
                .link_lost(now, next_hop, self.cfg.neighb_hold_time)
        {
            self.update(now, true);
        }
        // Re-route what the MAC gave back if the table now offers another next hop (only with
        // link-layer notification can it have changed); otherwise the packets are lost.
        for packet in packets {
            let dst = Ipv4Packet::new_checked(&packet.bytes[..])
                .ok()
                .map(|p| p.dst_addr());
            match dst.and_then(|d| self.route(d).map(|r| (d, r.next_hop))) {
                Some((_, hop)) if hop != next_hop => {
                    self.counters.salvaged += 1;
                    self.outputs.push_back(RoutingOutput::Transmit {
                        next_hop: hop,
                        packet,
                        control: false,
                    });
                }
                _ => {
                    self.counters.count_drop(RouteDropReason::LinkBroken);
                    self.outputs.push_back(RoutingOutput::Drop {
                        packet,
                        reason: RouteDropReason::LinkBroken,
                    });
                }
            }
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.update(now, false);
        let mut msgs = Vec::new();
        if self.timers.is_due(OlsrTimer::Hello, now) {
            msgs.push(self.make_hello(now));
            let j = self.jitter();
            let next = now
                + SimDuration::from_nanos(
                    self.cfg
                        .hello_interval
                        .as_nanos()
                        .saturating_sub(j.as_nanos())
                        .max(1),
                );
            self.timers.set(OlsrTimer::Hello, next);
        }
        if self.timers.is_due(OlsrTimer::Tc, now) {
            if !self.advertised.is_empty() || valid(self.tc_empty_until, now) {
                msgs.push(self.make_tc());
            }
            let j = self.jitter();
            let next = now
                + SimDuration::from_nanos(
                    self.cfg
                        .tc_interval
                        .as_nanos()
                        .saturating_sub(j.as_nanos())
                        .max(1),
                );
            self.timers.set(OlsrTimer::Tc, next);
        }
        // Piggybacking (RFC 3626 §3.4: a packet carries several messages; RFC 5148 §5.3: a
        // message held for its forwarding jitter may leave earlier with another packet): when
        // anything is due, every message still waiting goes in the same packet. ns-3 bundles
        // likewise (everything queued within one jitter window), so both count IP packets of
        // similar fill.
        if !msgs.is_empty() || self.timers.is_due(OlsrTimer::Forward, now) {
            self.timers.cancel(OlsrTimer::Forward);
            for m in self.forward_queue.drain(..) {
                *self
                    .counters
                    .relayed
                    .entry(kind(m.body.msg_type()))
                    .or_default() += 1;
                msgs.push(m);
            }
            self.send_messages(msgs);
        }
    }

    fn poll_output(&mut self) -> Option<RoutingOutput> {
        self.outputs.pop_front()
    }

    fn poll_event(&mut self) -> Option<RoutingEvent> {
        self.events.pop_front()
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.timers.next()
    }

    fn counters(&self) -> &RoutingCounters {
        &self.counters
    }

    fn next_hop(&self, dst: Ipv4Addr) -> Option<Ipv4Addr> {
        self.route(dst).map(|r| r.next_hop)
    }
}
