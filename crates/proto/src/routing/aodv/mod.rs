//! AODV, Ad hoc On-Demand Distance Vector routing (RFC 3561), as a sans-IO [`Router`].
//!
//! A node that needs a route buffers the packet and floods a Route Request (RREQ) with an
//! expanding ring of IP TTLs (§6.4); every node that rebroadcasts it sets up a reverse route to
//! the originator; the destination, or an intermediate node with a fresh enough route, unicasts
//! a Route Reply (RREP) back along the reverse route, setting up the forward route hop by hop
//! (§6.5–§6.7). Destination sequence numbers (§6.1) keep routes loop-free. A broken link (MAC
//! feedback through [`Router::handle_link_failure`] by default, optionally lost HELLOs, §6.9)
//! invalidates the routes through that neighbour and sends a Route Error (RERR) to the
//! precursors that use them (§6.11); a node that still needs the route discovers it again.
//!
//! Control messages are real IPv4 + UDP packets on port 654 ([`AODV_PORT`]): RREQs and
//! relayed RERRs go to 255.255.255.255, RREPs and RREP-ACKs are unicast to the next hop (each
//! hop processes and re-originates them). Everything is deterministic: ordered maps, and the
//! only randomness (broadcast jitter, HELLO phase) comes from the `Rng` given to
//! [`Aodv::new`].
//!
//! `docs/models/aodv.md` lists what is implemented, every default with its source and the
//! deviations from RFC 3561, ns-2 and ns-3.

mod discovery;
mod handlers;
mod table;
#[cfg(test)]
mod tests;

pub use table::{seq_max, seq_newer, RouteEntry};

use self::table::RouteTable;
use super::send_buffer::{BufferPolicy, Expiry, Overflow, SendBuffer};
use super::timers::TimerTable;
use super::{
    Decision, Outputs, RouteDropReason, Router, RoutingCounters, RoutingEvent, RoutingOutput,
};
use sctpsim_kernel::{Packet, PacketTag, Rng, SimDuration, SimTime};
use sctpsim_wire::aodv::{AodvRepr, RerrRepr, RrepRepr, Unreachable, AODV_PORT};
use sctpsim_wire::{udp_datagram, IpProtocol, Ipv4Packet, Ipv4Repr, UdpPacket, UdpRepr};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::net::Ipv4Addr;

/// AODV parameters. Field defaults are RFC 3561 §10's unless noted; the derived times
/// (NET_TRAVERSAL_TIME, PATH_DISCOVERY_TIME, MY_ROUTE_TIMEOUT, DELETE_PERIOD,
/// RING_TRAVERSAL_TIME, MAX_REPAIR_TTL) are methods computed from them with §10's formulas,
/// so changing NODE_TRAVERSAL_TIME or NET_DIAMETER changes them consistently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AodvConfig {
    /// ACTIVE_ROUTE_TIMEOUT, 3000 ms (§10): lifetime of a route after its last use.
    pub active_route_timeout: SimDuration,
    /// ALLOWED_HELLO_LOSS, 2 (§10): HELLO intervals without a packet before a neighbour is lost.
    pub allowed_hello_loss: u32,
    /// HELLO_INTERVAL, 1000 ms (§10).
    pub hello_interval: SimDuration,
    /// LOCAL_ADD_TTL, 2 (§10): added to the TTL of a local-repair request (§6.12).
    pub local_add_ttl: u8,
    /// NET_DIAMETER, 35 hops (§10): the TTL of a network-wide request.
    pub net_diameter: u8,
    /// NODE_TRAVERSAL_TIME, 40 ms (§10): a conservative one-hop traversal time.
    pub node_traversal_time: SimDuration,
    /// RREQ_RETRIES, 2 (§10): network-wide requests after the first before giving up.
    pub rreq_retries: u32,
    /// RREQ_RATELIMIT, 10 per second (§10, §6.3).
    pub rreq_ratelimit: u32,
    /// RERR_RATELIMIT, 10 per second (§10, §6.11).
    pub rerr_ratelimit: u32,
    /// TTL_START, 1 (§10, §6.4).
    pub ttl_start: u8,
    /// TTL_INCREMENT, 2 (§10, §6.4).
    pub ttl_increment: u8,
    /// TTL_THRESHOLD, 7 (§10, §6.4): rings beyond it become network-wide.
    pub ttl_threshold: u8,
    /// TIMEOUT_BUFFER, 2 (§10): slack hops in RING_TRAVERSAL_TIME.
    pub timeout_buffer: u8,
    /// K, 5 (§10): DELETE_PERIOD = K × max(ACTIVE_ROUTE_TIMEOUT, HELLO_INTERVAL).
    pub delete_period_k: u32,
    /// Send HELLOs (§6.9) and detect lost neighbours by them (§6.10). Default off: the MAC's
    /// link-failure feedback detects breaks, as ns-2 runs AODV (ns-3 enables HELLOs).
    pub hello_enabled: bool,
    /// Repair a broken link locally (§6.12) instead of reporting it. Default off (the RFC's
    /// MAY; stock ns-2.35 defines `AODV_LOCAL_REPAIR`, so an ns-2 comparison turns it on).
    pub local_repair: bool,
    /// Expanding ring search (§6.4). Off: every request is network-wide (TTL NET_DIAMETER).
    pub expanding_ring: bool,
    /// Set the G flag in requests this node originates (§6.6.3). Default off.
    pub gratuitous_rrep: bool,
    /// Set the D flag in requests this node originates (only the destination replies).
    /// Default off.
    pub destination_only: bool,
    /// Packets the send buffer holds: 64 (ns-2 `aodv_rqueue.h`, `AODV_RTQ_MAX_LEN`).
    pub send_buffer_capacity: usize,
    /// Longest wait in the send buffer: 30 s (ns-2 `aodv_rqueue.h`, `AODV_RTQ_TIMEOUT`).
    pub send_buffer_timeout: SimDuration,
    /// Broadcasts other than a node's own RREQs wait a uniform 0 .. this before going out,
    /// so that neighbours that heard the same flood do not all transmit at once: 10 ms (ns-2
    /// `aodv.cc`, `AODV::forward`: `0.01 * Random::uniform()` for AODV broadcasts).
    pub broadcast_jitter: SimDuration,
    /// Data packets this node originated that come back from the MAC with a link failure go
    /// back to the send buffer and a new discovery starts (instead of being dropped as ns-2
    /// does). Default on.
    pub rebuffer_on_link_failure: bool,
    /// MY_ROUTE_TIMEOUT as a value of its own instead of 2 × ACTIVE_ROUTE_TIMEOUT (§10).
    /// Default none; ns-2 `aodv/aodv.h` `MY_ROUTE_TIMEOUT` 10 s.
    pub fixed_my_route_timeout: Option<SimDuration>,
    /// How long an (originator, RREQ ID) pair is remembered, as a value of its own instead of
    /// PATH_DISCOVERY_TIME (§10). Default none; ns-2 `aodv/aodv.h` `BCAST_ID_SAVE` 6 s.
    pub fixed_path_discovery_time: Option<SimDuration>,
    /// ns-2's local repair (`aodv/aodv.cc` `AODV::rt_ll_failed`, `local_rt_repair`,
    /// `sendRequest`) instead of §6.12's, with [`AodvConfig::local_repair`]: a node repairs
    /// a broken route only when the packet has come further than it has left to go (hops
    /// from its source > hops to its destination), whatever MAX_REPAIR_TTL; the repair
    /// request's TTL is the old hop count + TTL_INCREMENT (NET_DIAMETER from TTL_THRESHOLD
    /// on) and its wait 2 × TTL × NODE_TRAVERSAL_TIME. Default off.
    pub ns2_local_repair: bool,
}

impl Default for AodvConfig {
    fn default() -> Self {
        AodvConfig {
            active_route_timeout: SimDuration::from_millis(3000),
            allowed_hello_loss: 2,
            hello_interval: SimDuration::from_millis(1000),
            local_add_ttl: 2,
            net_diameter: 35,
            node_traversal_time: SimDuration::from_millis(40),
            rreq_retries: 2,
            rreq_ratelimit: 10,
            rerr_ratelimit: 10,
            ttl_start: 1,
            ttl_increment: 2,
            ttl_threshold: 7,
            timeout_buffer: 2,
            delete_period_k: 5,
            hello_enabled: false,
            local_repair: false,
            expanding_ring: true,
            gratuitous_rrep: false,
            destination_only: false,
            send_buffer_capacity: 64,
            send_buffer_timeout: SimDuration::from_secs(30),
            broadcast_jitter: SimDuration::from_millis(10),
            rebuffer_on_link_failure: true,
            fixed_my_route_timeout: None,
            fixed_path_discovery_time: None,
            ns2_local_repair: false,
        }
    }
}

impl AodvConfig {
    /// ns-2.35's AODV (`aodv/aodv.h`, `aodv/aodv.cc`, `aodv/aodv_rqueue.h`), the AODV of the
    /// MANET studies of its era. From `aodv.h`: `ACTIVE_ROUTE_TIMEOUT` 10 s,
    /// `MY_ROUTE_TIMEOUT` 10 s, `BCAST_ID_SAVE` 6 s, `RREQ_RETRIES` 3, `TTL_START` 5,
    /// `TTL_INCREMENT` 2, `TTL_THRESHOLD` 7, `NODE_TRAVERSAL_TIME` 30 ms,
    /// `NETWORK_DIAMETER` 30, `ALLOWED_HELLO_LOSS` 3; `AODV_LOCAL_REPAIR` defined (local
    /// repair on, ns-2's rule), `AODV_LINK_LAYER_DETECTION` defined (no HELLOs: MAC
    /// feedback), and `rt_ll_failed` drops the packets of a broken link that it does not
    /// repair, the source's own included (no re-buffering).
    pub fn ns2() -> AodvConfig {
        AodvConfig {
            active_route_timeout: SimDuration::from_secs(10),
            fixed_my_route_timeout: Some(SimDuration::from_secs(10)),
            fixed_path_discovery_time: Some(SimDuration::from_secs(6)),
            rreq_retries: 3,
            ttl_start: 5,
            ttl_increment: 2,
            ttl_threshold: 7,
            node_traversal_time: SimDuration::from_millis(30),
            net_diameter: 30,
            allowed_hello_loss: 3,
            hello_enabled: false,
            local_repair: true,
            ns2_local_repair: true,
            rebuffer_on_link_failure: false,
            ..AodvConfig::default()
        }
    }

    /// NET_TRAVERSAL_TIME = 2 × NODE_TRAVERSAL_TIME × NET_DIAMETER (§10): 2.8 s by default.
    pub fn net_traversal_time(&self) -> SimDuration {
        self.node_traversal_time
            .saturating_mul(2 * u64::from(self.net_diameter))
    }

    /// PATH_DISCOVERY_TIME = 2 × NET_TRAVERSAL_TIME (§10): 5.6 s; how long a (originator,
    /// RREQ ID) pair is remembered.
    pub fn path_discovery_time(&self) -> SimDuration {
        self.fixed_path_discovery_time
            .unwrap_or_else(|| self.net_traversal_time().saturating_mul(2))
    }

    /// MY_ROUTE_TIMEOUT = 2 × ACTIVE_ROUTE_TIMEOUT (§10): 6 s; the lifetime a destination
    /// puts in its RREPs.
    pub fn my_route_timeout(&self) -> SimDuration {
        self.fixed_my_route_timeout
            .unwrap_or_else(|| self.active_route_timeout.saturating_mul(2))
    }

    /// DELETE_PERIOD = K × max(ACTIVE_ROUTE_TIMEOUT, HELLO_INTERVAL) (§10): 15 s.
    pub fn delete_period(&self) -> SimDuration {
        self.active_route_timeout
            .max(self.hello_interval)
            .saturating_mul(u64::from(self.delete_period_k))
    }

    /// RING_TRAVERSAL_TIME = 2 × NODE_TRAVERSAL_TIME × (TTL + TIMEOUT_BUFFER) (§10): how long
    /// to wait for a reply to a ring of `ttl`.
    pub fn ring_traversal_time(&self, ttl: u8) -> SimDuration {
        self.node_traversal_time
            .saturating_mul(2 * (u64::from(ttl) + u64::from(self.timeout_buffer)))
    }

    /// MAX_REPAIR_TTL = 0.3 × NET_DIAMETER (§10): 10 hops (rounded down).
    pub fn max_repair_ttl(&self) -> u8 {
        (u16::from(self.net_diameter) * 3 / 10) as u8
    }

    /// The neighbour-loss window: ALLOWED_HELLO_LOSS × HELLO_INTERVAL (§6.10).
    fn hello_loss_window(&self) -> SimDuration {
        self.hello_interval
            .saturating_mul(u64::from(self.allowed_hello_loss))
    }
}

/// A route discovery this node runs.
#[derive(Clone, Debug)]
struct Discovery {
    /// When the first request went out (or was held back by the rate limit).
    started: SimTime,
    /// TTL of the last request sent; 0 before the first.
    ttl: u8,
    /// Network-wide requests sent.
    wide_tries: u32,
    /// The next request is held back by RREQ_RATELIMIT (§6.3) until the discovery's timer
    /// ([`AodvTimer::Discovery`], also the end of the current wait).
    rate_limited: bool,
    /// A local repair (§6.12): hop count of the broken route and the precursors to tell if
    /// the repair fails.
    repair: Option<(u8, BTreeSet<Ipv4Addr>)>,
}

/// What an AODV router wakes up for (keys of its [`TimerTable`], due ones handled in this
/// order within each step of a wake-up).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum AodvTimer {
    /// A jittered broadcast (due, sequence): the packet waits in `Aodv::delayed`.
    Broadcast(SimTime, u64),
    /// The wait of the discovery for the destination ends (its next ring, retry or failure,
    /// or the end of a rate-limit hold-back).
    Discovery(Ipv4Addr),
    /// The next HELLO check (§6.9).
    Hello,
    /// The neighbour counts as lost unless heard before (§6.10).
    NeighbourLost(Ipv4Addr),
}

/// A broadcast waiting for its jitter.
#[derive(Clone, Debug)]
struct Delayed {
    kind: &'static str,
    packet: Vec<u8>,
}

/// Route `dst` in a control message: not this node, not broadcast, multicast or 0.0.0.0.
fn usable(a: Ipv4Addr) -> bool {
    !(a.is_broadcast() || a.is_multicast() || a.is_unspecified())
}

fn millis(d: SimDuration) -> u32 {
    u32::try_from(d.as_nanos() / 1_000_000).unwrap_or(u32::MAX)
}

/// An AODV router at one node.
#[derive(Debug)]
pub struct Aodv {
    addr: Ipv4Addr,
    cfg: AodvConfig,
    rng: Rng,
    /// This node's sequence number (§6.1).
    seq: u32,
    /// The last RREQ ID this node used (§6.3).
    rreq_id: u32,
    /// IP identification of the next control packet.
    ident: u16,
    table: RouteTable,
    buffer: SendBuffer,
    discoveries: BTreeMap<Ipv4Addr, Discovery>,
    /// (originator, RREQ ID) → when the entry is forgotten (PATH_DISCOVERY_TIME, §6.3, §6.5).
    seen: BTreeMap<(Ipv4Addr, u32), SimTime>,
    /// Times of the RREQs originated in the last second (RREQ_RATELIMIT).
    rreq_times: VecDeque<SimTime>,
    /// Times of the RERRs sent in the last second (RERR_RATELIMIT).
    rerr_times: VecDeque<SimTime>,
    /// Jittered broadcasts by sequence number (due: [`AodvTimer::Broadcast`]).
    delayed: BTreeMap<u64, Delayed>,
    delayed_seq: u64,
    /// Jittered broadcasts, discoveries, the HELLO check (§6.9, when HELLOs are enabled) and
    /// the neighbours heard by HELLO with when each counts as lost (§6.10).
    timers: TimerTable<AodvTimer>,
    /// When this node last broadcast anything (a HELLO is needed only if it has not for a
    /// HELLO_INTERVAL).
    last_broadcast: Option<SimTime>,
    out: Outputs,
    events: VecDeque<RoutingEvent>,
    counters: RoutingCounters,
}

impl Aodv {
    /// A router for the node with address `addr`; `rng` is its own random stream (broadcast
    /// jitter, HELLO phase).
    ///
    /// Zero values that would make a timer fire again at the instant it fired (times,
    /// NET_DIAMETER, K, ALLOWED_HELLO_LOSS) or forbid every request (RREQ_RATELIMIT) are raised
    /// to the smallest meaningful value: 1 ns, 1 hop, 1.
    pub fn new(addr: Ipv4Addr, mut cfg: AodvConfig, mut rng: Rng) -> Aodv {
        let tick = SimDuration(1);
        for d in [
            &mut cfg.active_route_timeout,
            &mut cfg.hello_interval,
            &mut cfg.node_traversal_time,
            &mut cfg.send_buffer_timeout,
        ] {
            *d = (*d).max(tick);
        }
        cfg.net_diameter = cfg.net_diameter.max(1);
        cfg.delete_period_k = cfg.delete_period_k.max(1);
        cfg.allowed_hello_loss = cfg.allowed_hello_loss.max(1);
        cfg.rreq_ratelimit = cfg.rreq_ratelimit.max(1);
        let hello_at = cfg.hello_enabled.then(|| {
            // A random phase, so that nodes started together do not send HELLOs together.
            SimTime::ZERO + SimDuration(rng.below(cfg.hello_interval.as_nanos().max(1)))
        });
        let mut timers = TimerTable::new();
        if let Some(at) = hello_at {
            timers.set(AodvTimer::Hello, at);
        }
        // ns-2 `aodv_rqueue::enque`: a full buffer drops its oldest packet; `deque` drops
        // packets of age ≥ `AODV_RTQ_TIMEOUT`.
        let buffer = SendBuffer::new(BufferPolicy {
            capacity: cfg.send_buffer_capacity,
            timeout: cfg.send_buffer_timeout,
            overflow: Overflow::DropOldest,
            expiry: Expiry::AtTimeout,
        });
        Aodv {
            addr,
            cfg,
            rng,
            seq: 0,
            rreq_id: 0,
            ident: 0,
            table: RouteTable::default(),
            buffer,
            discoveries: BTreeMap::new(),
            seen: BTreeMap::new(),
            rreq_times: VecDeque::new(),
            rerr_times: VecDeque::new(),
            delayed: BTreeMap::new(),
            delayed_seq: 0,
            timers,
            last_broadcast: None,
            out: Outputs::default(),
            events: VecDeque::new(),
            counters: RoutingCounters::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &AodvConfig {
        &self.cfg
    }

    /// This node's own sequence number.
    pub fn own_seq(&self) -> u32 {
        self.seq
    }

    /// The route table entry for `dst`, valid or invalid.
    pub fn route(&self, dst: Ipv4Addr) -> Option<&RouteEntry> {
        self.table.get(dst)
    }

    /// Every route table entry, by destination.
    pub fn routes(&self) -> impl Iterator<Item = (Ipv4Addr, &RouteEntry)> {
        self.table.iter().map(|(d, r)| (*d, r))
    }

    /// Data packets waiting in the send buffer.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Whether a route discovery for `dst` is under way.
    pub fn discovering(&self, dst: Ipv4Addr) -> bool {
        self.discoveries.contains_key(&dst)
    }

    // ----- output helpers -----

    fn control_packet(&mut self, ip_dst: Ipv4Addr, ttl: u8, msg: &AodvRepr) -> Vec<u8> {
        self.ident = self.ident.wrapping_add(1);
        let udp = UdpRepr {
            src_port: AODV_PORT,
            dst_port: AODV_PORT,
        };
        udp_datagram(
            self.addr,
            ip_dst,
            ttl.max(1),
            self.ident,
            &udp,
            &msg.to_bytes(),
        )
    }

    /// Unicasts a control message to a neighbour (IP destination = the neighbour, TTL 1: every
    /// hop processes AODV messages and builds a new packet).
    fn unicast(&mut self, next_hop: Ipv4Addr, kind: &'static str, msg: &AodvRepr) {
        let packet = self.control_packet(next_hop, 1, msg);
        self.counters.count_tx(kind, packet.len());
        self.out.push_back(RoutingOutput::Transmit {
            next_hop,
            packet: Packet::untagged(packet),
            control: true,
        });
    }

    /// Broadcasts a control message with IP TTL `ttl`, after the jitter unless `immediate`.
    fn broadcast(
        &mut self,
        now: SimTime,
        ttl: u8,
        kind: &'static str,
        msg: &AodvRepr,
        immediate: bool,
    ) {
        let packet = self.control_packet(Ipv4Addr::BROADCAST, ttl, msg);
        // §6.9 asks whether the node "has sent a broadcast within the last HELLO_INTERVAL";
        // the decision to send counts, so the jitter of a HELLO cannot make the next one
        // look redundant.
        self.last_broadcast = Some(now);
        let max = self.cfg.broadcast_jitter.as_nanos();
        let jitter = if immediate { 0 } else { self.rng.below(max) };
        if jitter == 0 {
            self.emit_broadcast(kind, packet);
        } else {
            let due = now + SimDuration(jitter);
            self.delayed_seq += 1;
            let k = self.delayed_seq;
            self.delayed.insert(k, Delayed { kind, packet });
            self.timers.set(AodvTimer::Broadcast(due, k), due);
        }
    }

    fn emit_broadcast(&mut self, kind: &'static str, packet: Vec<u8>) {
        self.counters.count_tx(kind, packet.len());
        self.out.push_back(RoutingOutput::Transmit {
            next_hop: Ipv4Addr::BROADCAST,
            packet: Packet::untagged(packet),
            control: true,
        });
    }

    fn drop_packet(&mut self, packet: Packet, reason: RouteDropReason) {
        self.counters.count_drop(reason);
        self.out.push_back(RoutingOutput::Drop { packet, reason });
    }

    /// Drops the packet handed in (the decision; counted like any drop).
    pub(super) fn drop_decision(&mut self, packet: Packet, reason: RouteDropReason) -> Decision {
        self.counters.count_drop(reason);
        self.out.decide(Decision::Drop { packet, reason })
    }

    /// The next hop of a data packet from `src` to `dst` on a valid route, extending the
    /// lifetimes of the routes it uses (§6.2: destination, next hop, and the source's and
    /// previous hop's reverse routes). Without a valid route nothing changes.
    fn use_route(&mut self, now: SimTime, dst: Ipv4Addr, src: Ipv4Addr) -> Option<Ipv4Addr> {
        let next_hop = self.table.valid(dst).map(|r| r.next_hop)?;
        let until = now + self.cfg.active_route_timeout;
        for a in [dst, next_hop, src] {
            self.table.refresh(a, until);
        }
        Some(next_hop)
    }

    /// Sends a data packet the router held (buffered, or handed back by the MAC) on a valid
    /// route ([`Aodv::use_route`]). Without one the packet comes back (tag and all) for the
    /// caller to buffer or drop.
    fn send_data(
        &mut self,
        now: SimTime,
        packet: Packet,
        dst: Ipv4Addr,
        src: Ipv4Addr,
    ) -> Result<(), Packet> {
        let Some(next_hop) = self.use_route(now, dst, src) else {
            return Err(packet);
        };
        self.out.push_back(RoutingOutput::Transmit {
            next_hop,
            packet,
            control: false,
        });
        Ok(())
    }

    // ----- route table updates -----

    /// §6.5, §6.7: a control packet from `nb` makes it a one-hop neighbour. The entry keeps
    /// its sequence number (if any): the packet says nothing about it.
    fn neighbour_route(&mut self, now: SimTime, nb: Ipv4Addr) {
        let until = now + self.cfg.active_route_timeout;
        match self.table.get_mut(nb) {
            Some(r) => {
                if !r.valid || r.lifetime < until {
                    r.lifetime = until;
                }
                r.valid = true;
                r.hops = 1;
                r.next_hop = nb;
            }
            None => self.table.insert(
                nb,
                RouteEntry {
                    seq: 0,
                    valid_seq: false,
                    valid: true,
                    hops: 1,
                    next_hop: nb,
                    precursors: BTreeSet::new(),
                    lifetime: until,
                },
            ),
        }
    }

    /// Creates or updates the route to `dst` with information carrying sequence number `seq`
    /// when §6.2's rule allows: no entry, an invalid entry or one without a valid sequence
    /// number, a fresher `seq`, or the same `seq` with fewer hops. Returns whether it did; the
    /// lifetime becomes `lifetime`, or stays later if `keep_later` (reverse routes, §6.5).
    fn update_route(
        &mut self,
        dst: Ipv4Addr,
        seq: u32,
        hops: u8,
        next_hop: Ipv4Addr,
        lifetime: SimTime,
        keep_later: bool,
    ) -> bool {
        let fresh = match self.table.get(dst) {
            None => true,
            Some(r) => {
                !r.valid || !r.valid_seq || seq_newer(seq, r.seq) || (seq == r.seq && hops < r.hops)
            }
        };
        if !fresh {
            if keep_later {
                self.table.refresh(dst, lifetime);
            }
            return false;
        }
        let precursors = self
            .table
            .get_mut(dst)
            .map(|r| std::mem::take(&mut r.precursors))
            .unwrap_or_default();
        let old_life = self
            .table
            .get(dst)
            .filter(|r| r.valid && keep_later)
            .map(|r| r.lifetime);
        self.table.insert(
            dst,
            RouteEntry {
                seq,
                valid_seq: true,
                valid: true,
                hops,
                next_hop,
                precursors,
                lifetime: old_life.map_or(lifetime, |l| l.max(lifetime)),
            },
        );
        true
    }

    /// Completes discoveries whose destination now has a valid route and sends the buffered
    /// packets that have one.
    fn flush_ready(&mut self, now: SimTime) {
        let ready: Vec<Ipv4Addr> = self
            .discoveries
            .keys()
            .copied()
            .filter(|d| self.table.valid(*d).is_some())
            .collect();
        for dst in ready {
            if let Some(d) = self.discoveries.remove(&dst) {
                self.timers.cancel(AodvTimer::Discovery(dst));
                match d.repair {
                    None => {
                        self.counters.discoveries_succeeded += 1;
                        self.events.push_back(RoutingEvent::RouteDiscovered {
                            dst,
                            latency: now.saturating_since(d.started),
                        });
                    }
                    Some((old_hops, precursors)) => {
                        // §6.12: a repaired route that got longer is reported with the N flag
                        // so that sources may look for a better one.
                        let Some(r) = self.table.valid(dst) else {
                            continue;
                        };
                        if r.hops > old_hops {
                            let u = Unreachable { dst, seq: r.seq };
                            self.send_rerr(now, vec![u], precursors, true, false);
                        }
                    }
                }
            }
        }
        let mut dsts: Vec<Ipv4Addr> = Vec::new();
        if !self.buffer.is_empty() {
            let routed: Vec<Ipv4Addr> = self
                .table
                .iter()
                .filter(|(_, r)| r.valid)
                .map(|(d, _)| *d)
                .collect();
            dsts.extend(routed.into_iter().filter(|d| self.buffer.has(*d)));
        }
        for dst in dsts {
            for packet in self.buffer.take(dst) {
                let src = Ipv4Packet::new_checked(&packet.bytes[..])
                    .map(|p| p.src_addr())
                    .unwrap_or(self.addr);
                if src != self.addr {
                    self.counters.data_forwarded += 1;
                }
                if let Err(packet) = self.send_data(now, packet, dst, src) {
                    self.drop_packet(packet, RouteDropReason::NoRoute);
                }
            }
        }
    }

    // ----- route errors -----

    /// Sends a RERR for `unreachable` to `precursors` (§6.11): unicast if there is one,
    /// broadcast if there are several, nothing if none (unless `broadcast_if_none`, used for
    /// data that arrived without a route, where the sender is not known as a precursor).
    /// `originated` counts it in `route_errors_sent`. Subject to RERR_RATELIMIT.
    fn send_rerr(
        &mut self,
        now: SimTime,
        unreachable: Vec<Unreachable>,
        precursors: BTreeSet<Ipv4Addr>,
        no_delete: bool,
        originated: bool,
    ) {
        self.send_rerr_to(now, unreachable, precursors, no_delete, originated, false);
    }

    fn send_rerr_to(
        &mut self,
        now: SimTime,
        unreachable: Vec<Unreachable>,
        precursors: BTreeSet<Ipv4Addr>,
        no_delete: bool,
        originated: bool,
        broadcast_if_none: bool,
    ) {
        if unreachable.is_empty() || (precursors.is_empty() && !broadcast_if_none) {
            return;
        }
        let second = SimDuration::from_secs(1);
        while self.rerr_times.front().is_some_and(|t| *t + second <= now) {
            self.rerr_times.pop_front();
        }
        for chunk in unreachable.chunks(255) {
            if self.rerr_times.len() >= self.cfg.rerr_ratelimit as usize {
                return;
            }
            self.rerr_times.push_back(now);
            if originated {
                self.counters.route_errors_sent += 1;
            }
            let msg = AodvRepr::Rerr(RerrRepr {
                no_delete,
                unreachable: chunk.to_vec(),
            });
            match (precursors.len(), precursors.first()) {
                (1, Some(&nb)) => self.unicast(nb, "rerr", &msg),
                _ => self.broadcast(now, 1, "rerr", &msg, false),
            }
        }
    }

    /// The link to `nb` broke (MAC feedback or lost HELLOs): §6.11 case (i). `packets` are the
    /// packets the MAC could not deliver.
    fn link_broke(&mut self, now: SimTime, nb: Ipv4Addr, packets: Vec<Packet>) {
        self.timers.cancel(AodvTimer::NeighbourLost(nb));
        // Sources of the failed data packets by destination (for the repair TTL).
        let mut failed: Vec<(Ipv4Addr, Ipv4Addr, Packet)> = Vec::new();
        for p in packets {
            let Ok(ip) = Ipv4Packet::new_checked(&p.bytes[..]) else {
                continue;
            };
            if is_aodv(&ip) {
                continue; // a control packet: AODV re-originates control messages as needed
            }
            failed.push((ip.src_addr(), ip.dst_addr(), p));
        }
        let delete_until = now + self.cfg.delete_period();
        let max_repair = self.cfg.max_repair_ttl();
        let mut unreachable = Vec::new();
        let mut precursors = BTreeSet::new();
        let mut repairs = Vec::new();
        // ns-2's rule needs the distance back to each forwarded packet's source.
        let src_hops: BTreeMap<Ipv4Addr, u8> = failed
            .iter()
            .filter_map(|(s, _, _)| self.table.valid(*s).map(|r| (*s, r.hops)))
            .collect();
        for dst in self.table.via(nb) {
            let Some(r) = self.table.get_mut(dst) else {
                continue;
            };
            r.valid = false;
            // §6.11: the sequence number of a broken route is incremented (cases i and ii).
            if r.valid_seq {
                r.seq = r.seq.wrapping_add(1);
            }
            r.lifetime = delete_until;
            self.events.push_back(RoutingEvent::RouteBroken { dst });
            let forwarding = failed
                .iter()
                .find(|(s, d, _)| *d == dst && *s != self.addr)
                .map(|(s, _, _)| *s);
            let eligible = if self.cfg.ns2_local_repair {
                // ns-2 `rt_ll_failed`: `ch->num_forwards() > rt->rt_hops`.
                forwarding
                    .and_then(|s| src_hops.get(&s))
                    .is_some_and(|&h| h > r.hops)
            } else {
                r.hops <= max_repair
            };
            if self.cfg.local_repair
                && eligible
                && forwarding.is_some()
                && !self.discoveries.contains_key(&dst)
            {
                // The route keeps its precursors: a successful repair still serves them.
                repairs.push((dst, r.hops, forwarding, r.precursors.clone()));
            } else {
                unreachable.push(Unreachable { dst, seq: r.seq });
                precursors.append(&mut r.precursors);
            }
        }
        if !unreachable.is_empty() && !precursors.is_empty() {
            self.send_rerr(now, unreachable, precursors, false, true);
        }
        for (dst, hops, src, pre) in repairs {
            let src_hops = src.and_then(|s| self.table.valid(s)).map_or(0, |r| r.hops);
            self.start_repair(now, dst, hops, src_hops, pre);
        }
        for (src, dst, p) in failed {
            if self
                .discoveries
                .get(&dst)
                .is_some_and(|d| d.repair.is_some())
            {
                self.buffer_and_discover(now, dst, p, false);
            } else if src == self.addr && self.cfg.rebuffer_on_link_failure {
                self.counters.salvaged += 1;
                if let Err(p) = self.send_data(now, p, dst, src) {
                    self.buffer_and_discover(now, dst, p, false);
                }
            } else {
                self.drop_packet(p, RouteDropReason::LinkBroken);
            }
        }
        self.flush_ready(now);
    }

    // ----- timers -----

    fn next_deadline(&self) -> Option<SimTime> {
        [
            self.timers.next(),
            self.table.next_deadline(),
            self.buffer.next_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn hello_due(&mut self, now: SimTime) {
        let Some(at) = self.timers.get(AodvTimer::Hello).filter(|t| *t <= now) else {
            return;
        };
        let interval = self.cfg.hello_interval.max(SimDuration(1));
        self.timers.set(AodvTimer::Hello, at.max(now) + interval);
        // §6.9: only nodes on an active route send HELLOs, and only if nothing else was
        // broadcast within the last HELLO_INTERVAL.
        let active = self.table.iter().any(|(_, r)| r.valid);
        let quiet = self.last_broadcast.is_none_or(|t| t + interval <= now);
        if active && quiet {
            let hello = RrepRepr {
                repair: false,
                ack_required: false,
                prefix_size: 0,
                hop_count: 0,
                dst: self.addr,
                dst_seq: self.seq,
                orig: self.addr,
                lifetime_ms: millis(self.cfg.hello_loss_window()),
            };
            self.broadcast(now, 1, "hello", &AodvRepr::Rrep(hello), false);
        }
    }
}

/// Whether `ip` carries an AODV message (UDP to port 654).
fn is_aodv<T: AsRef<[u8]>>(ip: &Ipv4Packet<T>) -> bool {
    ip.protocol() == IpProtocol::Udp
        && UdpPacket::new_checked(ip.payload()).is_ok_and(|u| u.dst_port() == AODV_PORT)
}

impl Router for Aodv {
    fn protocol(&self) -> &'static str {
        "aodv"
    }

    fn addr(&self) -> Ipv4Addr {
        self.addr
    }

    fn handle_send(&mut self, now: SimTime, packet: Packet) -> Decision {
        let Ok(ip) = Ipv4Packet::new_checked(&packet.bytes[..]).and_then(|p| Ipv4Repr::parse(&p))
        else {
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        let dst = ip.dst_addr;
        if dst == self.addr {
            self.out.decide(Decision::Deliver(packet))
        } else if !usable(dst) {
            // Broadcast and multicast data go out as one MAC broadcast; AODV does not route
            // them (RFC 3561 covers unicast).
            self.out.decide(Decision::Forward {
                next_hop: Ipv4Addr::BROADCAST,
                packet,
            })
        } else if let Some(next_hop) = self.use_route(now, dst, self.addr) {
            self.out.decide(Decision::Forward { next_hop, packet })
        } else {
            // No valid route (use_route changed nothing): wait for one.
            self.buffer_and_discover(now, dst, packet, true)
        }
    }

    fn handle_receive(&mut self, now: SimTime, prev_hop: Ipv4Addr, packet: Packet) -> Decision {
        let Ok(ip) = Ipv4Packet::new_checked(&packet.bytes[..]).and_then(|p| Ipv4Repr::parse(&p))
        else {
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        // §6.10: any packet from a neighbour shows the link is alive.
        let lost = AodvTimer::NeighbourLost(prev_hop);
        if self.timers.get(lost).is_some() {
            self.timers.set(lost, now + self.cfg.hello_loss_window());
        }
        let view = Ipv4Packet::new_unchecked(&packet.bytes[..]);
        if is_aodv(&view) {
            let parsed = UdpPacket::new_checked(view.payload()).and_then(|u| {
                UdpRepr::parse(&u, ip.src_addr, ip.dst_addr)?;
                AodvRepr::parse(u.payload())
            });
            let Ok(msg) = parsed else {
                self.counters.malformed += 1;
                return Decision::Consumed;
            };
            if prev_hop == self.addr || !usable(prev_hop) {
                self.counters.malformed += 1;
                return Decision::Consumed;
            }
            let len = packet.len();
            match msg {
                AodvRepr::Rreq(q) => {
                    self.counters.count_rx("rreq", len);
                    self.on_rreq(now, prev_hop, ip.ttl, q);
                }
                AodvRepr::Rrep(p)
                    if p.hop_count == 0 && p.dst == prev_hop && ip.dst_addr.is_broadcast() =>
                {
                    self.counters.count_rx("hello", len);
                    self.on_hello(now, prev_hop, p);
                }
                AodvRepr::Rrep(p) => {
                    self.counters.count_rx("rrep", len);
                    self.on_rrep(now, prev_hop, p);
                }
                AodvRepr::Rerr(e) => {
                    self.counters.count_rx("rerr", len);
                    self.on_rerr(now, prev_hop, e);
                }
                AodvRepr::RrepAck => self.counters.count_rx("rrep_ack", len),
            }
            return Decision::Consumed;
        }
        let dst = ip.dst_addr;
        if dst == self.addr || !usable(dst) {
            return self.out.decide(Decision::Deliver(packet));
        }
        // Forwarding: IP forwarding has already decremented the TTL and dropped the packet
        // if it reached zero (Router contract); the router only chooses the next hop.
        self.table
            .refresh(prev_hop, now + self.cfg.active_route_timeout);
        if self.table.valid(dst).is_some() {
            self.counters.data_forwarded += 1;
            match self.use_route(now, dst, ip.src_addr) {
                Some(next_hop) => self.out.decide(Decision::Forward { next_hop, packet }),
                // Cannot happen (the route was just checked), but a packet is never lost
                // silently.
                None => self.drop_decision(packet, RouteDropReason::NoRoute),
            }
        } else if self
            .discoveries
            .get(&dst)
            .is_some_and(|d| d.repair.is_some())
        {
            // A local repair is under way: wait for it with the other packets.
            self.buffer_and_discover(now, dst, packet, true)
        } else {
            // §6.11 case (ii): data for a destination without an active route.
            let seq = match self.table.get_mut(dst) {
                Some(r) if r.valid_seq => {
                    r.seq = r.seq.wrapping_add(1);
                    r.seq
                }
                Some(r) => r.seq,
                None => 0,
            };
            let precursors = self
                .table
                .get_mut(dst)
                .map(|r| std::mem::take(&mut r.precursors))
                .unwrap_or_default();
            let decision = self.drop_decision(packet, RouteDropReason::NoRoute);
            self.send_rerr_to(
                now,
                vec![Unreachable { dst, seq }],
                precursors,
                false,
                true,
                true,
            );
            decision
        }
    }

    fn outputs_before_decision(&self) -> usize {
        self.out.before_decision()
    }

    fn handle_link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>) {
        self.counters.link_breaks += 1;
        self.events.push_back(RoutingEvent::LinkBroken { next_hop });
        self.link_broke(now, next_hop, packets);
    }

    fn handle_timeout(&mut self, now: SimTime) {
        // Jittered broadcasts that are due.
        let due = self
            .timers
            .expired_if(now, |k| matches!(k, AodvTimer::Broadcast(..)));
        for k in due {
            if let AodvTimer::Broadcast(_, seq) = k {
                if let Some(d) = self.delayed.remove(&seq) {
                    self.emit_broadcast(d.kind, d.packet);
                }
            }
        }
        self.table.expire(now, now + self.cfg.delete_period());
        for packet in self.buffer.expire(now) {
            self.drop_packet(packet, RouteDropReason::SendBufferTimeout);
        }
        // In destination order. A request held back by the rate limit did not advance the
        // ring, so the same call sends it now.
        let due = self
            .timers
            .expired_if(now, |k| matches!(k, AodvTimer::Discovery(_)));
        for k in due {
            if let AodvTimer::Discovery(dst) = k {
                self.next_request(now, dst);
            }
        }
        // A discovery whose packets all timed out has nobody waiting for it; it still runs to
        // its end (the RFC ties discovery to the need, the buffer here only to the packets).
        self.hello_due(now);
        // In address order.
        let lost = self
            .timers
            .expired_if(now, |k| matches!(k, AodvTimer::NeighbourLost(_)));
        for nb in lost.into_iter().filter_map(|k| match k {
            AodvTimer::NeighbourLost(nb) => Some(nb),
            _ => None,
        }) {
            self.counters.link_breaks += 1;
            self.events
                .push_back(RoutingEvent::LinkBroken { next_hop: nb });
            self.link_broke(now, nb, Vec::new());
        }
        self.seen.retain(|_, t| *t > now);
    }

    fn poll_output(&mut self) -> Option<RoutingOutput> {
        self.out.pop_front()
    }

    fn poll_event(&mut self) -> Option<RoutingEvent> {
        self.events.pop_front()
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.next_deadline()
    }

    fn counters(&self) -> &RoutingCounters {
        &self.counters
    }

    fn next_hop(&self, dst: Ipv4Addr) -> Option<Ipv4Addr> {
        if dst == self.addr {
            return None;
        }
        self.table.valid(dst).map(|r| r.next_hop)
    }

    fn buffered_tags(&self) -> Vec<PacketTag> {
        self.buffer.tags()
    }
}
