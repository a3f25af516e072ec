//! DSR, the Dynamic Source Routing protocol (RFC 4728), as a sans-IO [`Router`].
//!
//! * Route discovery (§3.1, §8.2): a node without a route buffers the packet
//!   ([`buffer`]) and floods a Route Request (IP destination 255.255.255.255) that collects a
//!   route record; optionally a non-propagating request (TTL 1) goes first (§3.3.3). Nodes
//!   suppress duplicates by (initiator, identification, target). The target answers *every*
//!   copy it receives (as ns-2 does), so the initiator learns several routes; an intermediate
//!   node with a cached route answers from its cache (§3.3.1) when the concatenated route has
//!   no loop. Requests are retransmitted with exponential backoff (§8.2.1).
//! * The route cache ([`cache`]) is a path cache with timeouts that learns from requests,
//!   replies and the source routes of forwarded packets (§8.1.4, links assumed bidirectional).
//! * Data packets carry a DSR Options header with a Source Route option (§6.7, §8.1.3): the
//!   IPv4 protocol becomes 48, Next Header holds the original protocol, the IP destination
//!   stays the final destination. A packet for a one-hop neighbour is sent unchanged, without
//!   the DSR header (§8.1.3 allows omitting the option; it saves 4 + 2 bytes per packet and
//!   keeps one-hop packets byte-identical to the transport's).
//! * Route maintenance ([`maintenance`]) is driven by the MAC's link-layer feedback
//!   ([`Router::handle_link_failure`], §8.3.1): the link leaves the cache, a Route Error goes
//!   back to each affected packet's source (§8.3.4), and packets are salvaged over another
//!   cached route while their salvage count allows (§8.3.6).
//! * [`Dsr::disjoint_routes`] and [`Dsr::handle_send_on_route`] ([`disjoint`]) expose the
//!   cache's node-disjoint routes to a transport that spreads traffic or heartbeats over them
//!   (A-SCTP, Argyriou & Madisetti).
//!
//! Every data packet keeps its [`sctpsim_kernel::PacketTag`] through the source-route header's
//! insertion at the source, its rewriting at each hop and its removal at the destination, and
//! through salvaging and the send buffer: the bytes change, the tag stays (see the
//! [module docs](super)).
//!
//! Segments Left convention (§6.7, "the number of explicitly listed intermediate nodes still
//! to be visited"): the originator sends to Address\[1] with Segments Left = n; a node that
//! receives the packet finds itself at Address\[n − SL + 1], decrements SL and sends to the
//! next listed address, or to the IP destination when SL reaches 0.

mod cache;
mod discovery;
mod disjoint;
mod maintenance;
mod snoop;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_ns2;

use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

use sctpsim_kernel::{Packet, PacketTag, Rng, SimDuration, SimTime};
use sctpsim_wire::dsr::{dsr_packet, DsrOption, DsrRepr, IP_PROTOCOL_DSR, NO_NEXT_HEADER};
use sctpsim_wire::{IpProtocol, Ipv4Packet, Ipv4Repr, WireError};

use super::send_buffer::{BufferPolicy, Expiry, Overflow, SendBuffer};
use super::timers::TimerTable;
use super::{
    Decision, Outputs, RouteDropReason, Router, RoutingCounters, RoutingEvent, RoutingOutput,
};
use cache::PathCache;

pub use cache::MAX_PATH_NODES;

/// DSR parameters. Defaults are RFC 4728 §9's unless noted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DsrConfig {
    /// IP TTL of a propagating Route Request (§9 DiscoveryHopLimit: 255 hops).
    pub discovery_hop_limit: u8,
    /// Largest random delay before sending a Route Request, originated or rebroadcast (§9
    /// BroadcastJitter: 10 ms, which RFC 4728 applies to rebroadcasts; ns-2 `dsragent.cc`
    /// `RREQ_JITTER` 10 ms to every request); it keeps nodes that send requests at the same
    /// time from colliding.
    pub broadcast_jitter: SimDuration,
    /// A cached path not learned or used for this long is removed (§9 RouteCacheTimeout:
    /// 300 s).
    pub route_cache_timeout: SimDuration,
    /// A packet waits at most this long for a route (§9 SendBufferTimeout: 30 s; ns-2
    /// `dsr/dsragent.cc` SEND_TIMEOUT 30 s).
    pub send_buffer_timeout: SimDuration,
    /// Packets the send buffer holds (ns-2 `dsr/dsragent.cc` SEND_BUF_SIZE 64; RFC 4728 sets
    /// no number).
    pub send_buffer_size: usize,
    /// Initiators remembered for duplicate suppression (§9 RequestTableSize: 64 nodes).
    pub request_table_size: usize,
    /// Request identifiers remembered per initiator (§9 RequestTableIds: 16).
    pub request_table_ids: usize,
    /// Retransmissions of a propagating Route Request before the discovery gives up and the
    /// waiting packets are dropped (§9 MaxRequestRexmt: 16).
    pub max_request_rexmt: u32,
    /// Cap of the exponential backoff between requests (§9 MaxRequestPeriod: 10 s).
    pub max_request_period: SimDuration,
    /// Wait after the first propagating request; doubled for every retransmission (§9
    /// RequestPeriod: 500 ms, §8.2.1).
    pub request_period: SimDuration,
    /// Wait for a reply to the non-propagating request (§9 NonpropRequestTimeout: 30 ms).
    pub nonprop_request_timeout: SimDuration,
    /// Packets awaiting a network-layer acknowledgement (§9 RexmtBufferSize: 50). Unused:
    /// this model relies on link-layer feedback (§8.3.1) and sends no Acknowledgement
    /// Requests; kept so a scenario that sets it is not rejected.
    pub rexmt_buffer_size: usize,
    /// Retransmissions awaiting a network-layer acknowledgement (§9 MaxMaintRexmt: 2).
    /// Unused, as [`DsrConfig::rexmt_buffer_size`].
    pub max_maint_rexmt: u32,
    /// A packet salvaged this often is not salvaged again (§9 MAX_SALVAGE_COUNT: 15, the
    /// largest value of the 4-bit field).
    pub max_salvage_count: u8,
    /// Send a non-propagating request (TTL 1) before flooding (§3.3.3; ns-2 does this too).
    pub nonpropagating_first: bool,
    /// Intermediate nodes answer requests from their cache (§3.3.1; ns-2 default on).
    pub reply_from_cache: bool,
    /// Cached paths kept per final destination (ours: 8; enough for the handful of disjoint
    /// routes a transport uses). The least recently used goes first.
    pub max_routes_per_dest: usize,
    /// Cached paths kept in all (ns-2 `dsr/mobicache.cc`: primary cache 30 + secondary
    /// cache 64 paths = 94).
    pub cache_capacity: usize,
    /// Promiscuous tap (ns-2 `dsr/dsragent.cc` `dsragent_use_tap` and
    /// `dsragent_snoop_source_routes`, both true): the node learns routes from the source
    /// routes of unicast DSR packets it overhears ([`Router::handle_overheard`]) and removes
    /// the links named in overheard Route Errors. Default off (RFC 4728 §3.4.2 leaves it
    /// optional). The engine switches the MAC to promiscuous reception when it is on.
    pub tap: bool,
    /// Gratuitous Route Replies for route shortening (ns-2 `dsragent_send_grat_replies`,
    /// true; RFC 4728 §3.4.3): a node that overhears a data packet whose source route lists
    /// it after the packet's next hop tells the packet's source the shortened route. Needs
    /// [`DsrConfig::tap`]. Default off.
    pub gratuitous_replies: bool,
    /// At most one gratuitous reply per (source, shortened route) in this time (ns-2
    /// `grat_hold_down_time` 1 s; RFC 4728 §9 GratReplyHoldoff 1 s).
    pub grat_hold_down: SimDuration,
    /// Piggyback the last Route Error this node received on its next Route Requests (ns-2
    /// `dsragent_propagate_last_error`, true; RFC 4728 §8.2.1), so that nodes answering from
    /// their caches do not return the broken link. Default off.
    pub propagate_last_error: bool,
    /// A received Route Error is piggybacked only on requests sent within this time of its
    /// arrival (ns-2 `max_err_hold` 1 s).
    pub max_err_hold: SimDuration,
    /// ns-2's request schedule (`dsr/dsragent.cc` `BackOffTest`, `getRouteForPacket`):
    /// every retry cycle starts with a non-propagating request (when
    /// [`DsrConfig::nonpropagating_first`]) followed by a propagating one after
    /// [`DsrConfig::nonprop_request_timeout`], and cycle k+1 starts RequestPeriod · 4^k after
    /// cycle k (capped at MaxRequestPeriod: 0.5 s, 2 s, 8 s, 10 s, ...). Off: RFC 4728
    /// §8.2.1, one non-propagating request, then propagating ones RequestPeriod · 2^k apart.
    pub ns2_request_backoff: bool,
    /// Packets the MAC gave up on are kept: the source's own go back to another cached route
    /// or the send buffer and a new discovery, a relay's are salvaged over another cached
    /// route (RFC 4728 §8.3.6; ns-2 does both). Off: each is dropped where it failed
    /// (`link_broken`), a relay still sending the Route Error — the behaviour Ye, Saadawi & Lee
    /// (MILCOM 2003) §4 describe of OPNET's DSR: "link failure is reported to the DSR layer
    /// whenever a SCTP data chunk is discarded ... The DSR then initiates route discovery ...
    /// the source cannot retransmit the lost data chunk in advance". Default on.
    pub salvage: bool,
}

impl Default for DsrConfig {
    fn default() -> Self {
        DsrConfig {
            discovery_hop_limit: 255,
            broadcast_jitter: SimDuration::from_millis(10),
            route_cache_timeout: SimDuration::from_secs(300),
            send_buffer_timeout: SimDuration::from_secs(30),
            send_buffer_size: 64,
            request_table_size: 64,
            request_table_ids: 16,
            max_request_rexmt: 16,
            max_request_period: SimDuration::from_secs(10),
            request_period: SimDuration::from_millis(500),
            nonprop_request_timeout: SimDuration::from_millis(30),
            rexmt_buffer_size: 50,
            max_maint_rexmt: 2,
            max_salvage_count: 15,
            nonpropagating_first: true,
            reply_from_cache: true,
            max_routes_per_dest: 8,
            cache_capacity: 94,
            tap: false,
            gratuitous_replies: false,
            grat_hold_down: SimDuration::from_secs(1),
            propagate_last_error: false,
            max_err_hold: SimDuration::from_secs(1),
            ns2_request_backoff: false,
            salvage: true,
        }
    }
}

impl DsrConfig {
    /// ns-2.35's DSR (`dsr/dsragent.cc`, `dsr/mobicache.cc`, CMU Monarch), the DSR of the
    /// MANET studies of its era: the RFC defaults where ns-2 has the same value, and
    /// * the tap, gratuitous replies and error propagation on (`dsragent_use_tap`,
    ///   `dsragent_snoop_source_routes`, `dsragent_send_grat_replies`,
    ///   `dsragent_propagate_last_error`, all `true`);
    /// * ns-2's request schedule ([`DsrConfig::ns2_request_backoff`]);
    /// * no route expiry (`mobicache.cc` keeps a path until it is evicted or a link on it
    ///   breaks): a timeout longer than any run;
    /// * no per-destination bound (`mobicache.cc` bounds only the primary (30) and secondary
    ///   (64) caches): [`DsrConfig::max_routes_per_dest`] = the cache capacity, 94.
    pub fn ns2() -> DsrConfig {
        let d = DsrConfig::default();
        DsrConfig {
            tap: true,
            gratuitous_replies: true,
            propagate_last_error: true,
            ns2_request_backoff: true,
            route_cache_timeout: NS2_NO_EXPIRY,
            max_routes_per_dest: d.cache_capacity,
            ..d
        }
    }
}

/// The route cache timeout of [`DsrConfig::ns2`]: 10^6 s (11.6 days), longer than any run;
/// ns-2's `mobicache.cc` has no timeout.
pub const NS2_NO_EXPIRY: SimDuration = SimDuration::from_secs(1_000_000);

/// A route discovery in progress (§8.2.1).
#[derive(Clone, Debug)]
struct Discovery {
    started: SimTime,
    /// Propagating requests sent so far (the non-propagating one not counted).
    propagating: u32,
    /// [`DsrConfig::ns2_request_backoff`]: retry cycles started (the first included), when
    /// the current one started, and whether its non-propagating request is the one out.
    cycles: u32,
    cycle_start: SimTime,
    ring0: bool,
}

/// What a DSR router wakes up for (keys of its [`TimerTable`]; due ones fire in this order
/// within each step of a wake-up).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum DsrTimer {
    /// A Route Request waiting for its jitter (due, sequence): in due order, ties in the order
    /// they were scheduled; the packet waits in `Dsr::pending`.
    Rebroadcast(SimTime, u64),
    /// The wait of the discovery for the target ends (§8.2.1: retry with backoff, or give
    /// up).
    Discovery(Ipv4Addr),
}

/// A DSR instance at one node.
#[derive(Debug)]
pub struct Dsr {
    addr: Ipv4Addr,
    cfg: DsrConfig,
    rng: Rng,
    cache: PathCache,
    buffer: SendBuffer,
    discoveries: BTreeMap<Ipv4Addr, Discovery>,
    /// Request table (§4.3): per initiator, the last use and its recent (id, target) pairs.
    seen: BTreeMap<Ipv4Addr, (SimTime, VecDeque<(u16, Ipv4Addr)>)>,
    next_request_id: u16,
    next_ident: u16,
    /// Route Requests (originated or rebroadcast) waiting for their jitter, by sequence
    /// number (due: [`DsrTimer::Rebroadcast`]).
    pending: BTreeMap<u64, Vec<u8>>,
    pending_seq: u64,
    /// Jittered requests and discovery waits.
    timers: TimerTable<DsrTimer>,
    outputs: Outputs,
    events: VecDeque<RoutingEvent>,
    counters: RoutingCounters,
    /// The time of the latest input, for the queries that take no `now`.
    last_now: SimTime,
    /// [`DsrConfig::propagate_last_error`]: the broken link (from, to) of the last Route
    /// Error addressed to this node, and when it arrived.
    held_error: Option<(Ipv4Addr, Ipv4Addr, SimTime)>,
    /// [`DsrConfig::gratuitous_replies`]: when a gratuitous reply last went out for each
    /// shortened route (`[source, ..., destination]`).
    grat_sent: BTreeMap<Vec<Ipv4Addr>, SimTime>,
}

/// An IPv4 packet split for DSR processing.
#[derive(Clone, Debug)]
struct Parsed {
    ip: Ipv4Repr,
    /// Offset of the IPv4 payload.
    ip_header_len: usize,
    /// The DSR header and its length, if the protocol is 48.
    dsr: Option<(DsrRepr, usize)>,
}

impl Parsed {
    /// Parses an IPv4 packet and, for protocol 48, its DSR header.
    fn parse(bytes: &[u8]) -> Result<Parsed, WireError> {
        let packet = Ipv4Packet::new_checked(bytes)?;
        let ip = Ipv4Repr::parse(&packet)?;
        let ip_header_len = usize::from(packet.header_len());
        let dsr = if ip.protocol == IP_PROTOCOL_DSR {
            let payload = packet.payload();
            let repr = DsrRepr::parse(payload)?;
            // parse() consumed exactly the Payload Length announced in bytes 2..4.
            let len = 4 + usize::from(u16::from_be_bytes([payload[2], payload[3]]));
            Some((repr, len))
        } else {
            None
        };
        Ok(Parsed {
            ip,
            ip_header_len,
            dsr,
        })
    }

    /// The bytes after the IP and DSR headers (the upper-layer payload).
    fn upper<'a>(&self, bytes: &'a [u8]) -> &'a [u8] {
        let dsr_len = self.dsr.as_ref().map_or(0, |(_, l)| *l);
        let start = self.ip_header_len + dsr_len;
        let end = self.ip_header_len + self.ip.payload_len;
        bytes.get(start..end).unwrap_or(&[])
    }
}

/// A data packet routed along a source route ([`Dsr::route_data`]).
enum Routed {
    /// To this next hop, as these bytes (a Source Route option added beyond one hop).
    Send(Ipv4Addr, Packet),
    /// The header could not be built: dropped (no route).
    Fail(Packet),
    /// A route without a next hop, or an unparsable packet (counted malformed).
    Lost,
}

/// The message type a DSR header counts under: a packet with several options counts once,
/// under its main one (request, then reply, then error). `None`: not routing control.
fn main_kind(dsr: &DsrRepr) -> Option<&'static str> {
    let has = |f: fn(&DsrOption) -> bool| dsr.options.iter().any(f);
    if has(|o| matches!(o, DsrOption::RouteRequest { .. })) {
        Some("rreq")
    } else if has(|o| matches!(o, DsrOption::RouteReply { .. })) {
        Some("rrep")
    } else if has(|o| matches!(o, DsrOption::RouteError { .. })) {
        Some("rerr")
    } else {
        None
    }
}

/// The Source Route option of a header: (salvage, segments left, addresses).
fn source_route(dsr: &DsrRepr) -> Option<(u8, u8, &[Ipv4Addr])> {
    dsr.options.iter().find_map(|o| match o {
        DsrOption::SourceRoute {
            salvage,
            segs_left,
            addresses,
            ..
        } => Some((*salvage, *segs_left, addresses.as_slice())),
        _ => None,
    })
}

/// A Source Route option for the route `[from, a1, ..., an, to]`.
fn source_route_option(route: &[Ipv4Addr], salvage: u8) -> DsrOption {
    let addresses = route
        .get(1..route.len().saturating_sub(1))
        .unwrap_or(&[])
        .to_vec();
    DsrOption::SourceRoute {
        first_hop_external: false,
        last_hop_external: false,
        salvage,
        segs_left: addresses.len() as u8,
        addresses,
    }
}

impl Dsr {
    /// A DSR router for the node `addr`; all its randomness (broadcast jitter, the first
    /// request identifier) comes from `rng`.
    pub fn new(addr: Ipv4Addr, cfg: DsrConfig, mut rng: Rng) -> Dsr {
        let cache = PathCache::new(
            addr,
            cfg.route_cache_timeout,
            cfg.cache_capacity,
            cfg.max_routes_per_dest,
        );
        // ns-2 `dsragent.cc`: a full buffer drops its oldest packet; a packet of age ≥ the
        // timeout is dropped.
        let buffer = SendBuffer::new(BufferPolicy {
            capacity: cfg.send_buffer_size,
            timeout: cfg.send_buffer_timeout,
            overflow: Overflow::DropOldest,
            expiry: Expiry::AtTimeout,
        });
        let next_request_id = rng.next_u64() as u16;
        Dsr {
            addr,
            cfg,
            rng,
            cache,
            buffer,
            discoveries: BTreeMap::new(),
            seen: BTreeMap::new(),
            next_request_id,
            next_ident: 0,
            pending: BTreeMap::new(),
            pending_seq: 0,
            timers: TimerTable::new(),
            outputs: Outputs::default(),
            events: VecDeque::new(),
            counters: RoutingCounters::default(),
            last_now: SimTime::ZERO,
            held_error: None,
            grat_sent: BTreeMap::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &DsrConfig {
        &self.cfg
    }

    /// Every path in the route cache (`[self, ..., last]`), in cache order: for tests, traces
    /// and invariant checks.
    pub fn cached_paths(&self) -> Vec<Vec<Ipv4Addr>> {
        self.cache.paths.iter().map(|p| p.nodes.clone()).collect()
    }

    /// Packets waiting in the send buffer.
    pub fn send_buffer_len(&self) -> usize {
        self.buffer.len()
    }

    /// Whether a route discovery for `dst` is in progress.
    pub fn discovering(&self, dst: Ipv4Addr) -> bool {
        self.discoveries.contains_key(&dst)
    }

    fn begin(&mut self, now: SimTime) {
        self.last_now = self.last_now.max(now);
        self.cache.expire(now);
    }

    fn ident(&mut self) -> u16 {
        self.next_ident = self.next_ident.wrapping_add(1);
        self.next_ident
    }

    /// Hands a packet to the interface; counts it if it is routing control.
    fn transmit(&mut self, next_hop: Ipv4Addr, packet: Packet, kind: Option<&'static str>) {
        if let Some(k) = kind {
            self.counters.count_tx(k, packet.len());
        }
        self.outputs.push_back(RoutingOutput::Transmit {
            next_hop,
            packet,
            control: kind.is_some(),
        });
    }

    fn drop_packet(&mut self, packet: Packet, reason: RouteDropReason) {
        self.counters.count_drop(reason);
        self.outputs
            .push_back(RoutingOutput::Drop { packet, reason });
    }

    /// Drops the packet handed in (the decision; counted like any drop).
    fn drop_decision(&mut self, packet: Packet, reason: RouteDropReason) -> Decision {
        self.counters.count_drop(reason);
        self.outputs.decide(Decision::Drop { packet, reason })
    }

    /// What became of a packet routed by [`Dsr::route_data`]: the decision for the packet
    /// handed in (`handed_in`), or an output for one the router held (buffered, salvaged).
    fn settle(&mut self, routed: Routed, handed_in: bool) -> Decision {
        match (routed, handed_in) {
            (Routed::Send(next_hop, packet), true) => {
                self.outputs.decide(Decision::Forward { next_hop, packet })
            }
            (Routed::Send(next_hop, packet), false) => {
                self.transmit(next_hop, packet, None);
                Decision::Consumed
            }
            (Routed::Fail(packet), true) => self.drop_decision(packet, RouteDropReason::NoRoute),
            (Routed::Fail(packet), false) => {
                self.drop_packet(packet, RouteDropReason::NoRoute);
                Decision::Consumed
            }
            (Routed::Lost, _) => Decision::Consumed,
        }
    }

    /// Builds and sends a control packet from this node to `dst` along `route`
    /// (`[self, ..., dst]`), with `options` followed by a Source Route option when the route
    /// has intermediate nodes.
    fn send_control(&mut self, dst: Ipv4Addr, route: &[Ipv4Addr], mut options: Vec<DsrOption>) {
        let Some(&next_hop) = route.get(1) else {
            return;
        };
        if route.len() > 2 {
            options.push(source_route_option(route, 0));
        }
        let kind = main_kind(&DsrRepr {
            next_header: NO_NEXT_HEADER,
            options: options.clone(),
        });
        let ip = Ipv4Repr {
            src_addr: self.addr,
            dst_addr: dst,
            protocol: IP_PROTOCOL_DSR,
            payload_len: 0,
            ttl: self.cfg.discovery_hop_limit,
            ident: self.ident(),
            dscp: 0,
            dont_frag: false,
        };
        let dsr = DsrRepr {
            next_header: NO_NEXT_HEADER,
            options,
        };
        if let Ok(packet) = dsr_packet(&ip, &dsr, &[]) {
            self.transmit(next_hop, Packet::untagged(packet), kind);
        }
    }

    /// Routes a packet this node originated (a plain IPv4 packet, not DSR) along `route`
    /// (`[self, ..., dst]`): unchanged to a neighbour, else with a Source Route option (new
    /// bytes, the same tag).
    fn route_data(&mut self, now: SimTime, packet: Packet, route: &[Ipv4Addr]) -> Routed {
        self.cache.touch(now, route);
        let Some(&next_hop) = route.get(1) else {
            return Routed::Lost;
        };
        if route.len() == 2 {
            return Routed::Send(next_hop, packet);
        }
        let Ok(parsed) = Parsed::parse(&packet.bytes) else {
            self.counters.malformed += 1;
            return Routed::Lost;
        };
        let dsr = DsrRepr {
            next_header: u8::from(parsed.ip.protocol),
            options: vec![source_route_option(route, 0)],
        };
        match dsr_packet(&parsed.ip, &dsr, parsed.upper(&packet.bytes)) {
            Ok(bytes) => Routed::Send(
                next_hop,
                Packet {
                    bytes,
                    tag: packet.tag,
                },
            ),
            Err(_) => Routed::Fail(packet),
        }
    }

    /// Sends a packet this node originated and held (buffered) along `route`.
    fn send_data(&mut self, now: SimTime, packet: Packet, route: &[Ipv4Addr]) {
        let routed = self.route_data(now, packet, route);
        self.settle(routed, false);
    }

    /// Routes a packet this node originated, or buffers it and discovers a route.
    /// `handed_in`: the packet is the one the current call decides for (else one the router
    /// held, whose fate is an output).
    fn route_or_buffer(
        &mut self,
        now: SimTime,
        packet: Packet,
        dst: Ipv4Addr,
        handed_in: bool,
    ) -> Decision {
        if let Some(route) = self.cache.find(now, dst) {
            let routed = self.route_data(now, packet, &route);
            return self.settle(routed, handed_in);
        }
        let decision = self.buffer.offer(now, dst, packet).settle(
            handed_in,
            &mut self.counters,
            &mut self.outputs,
        );
        self.discover(now, dst);
        decision
    }

    /// Sends every buffered packet whose destination now has a route.
    fn flush_buffer(&mut self, now: SimTime) {
        let cache = &self.cache;
        let ready = self.buffer.take_where(|d| cache.find(now, d).is_some());
        for (dst, packet) in ready {
            match self.cache.find(now, dst) {
                Some(route) => self.send_data(now, packet, &route),
                // Cannot happen (the same query just found a route), but a packet is never
                // lost silently.
                None => self.drop_packet(packet, RouteDropReason::NoRoute),
            }
        }
    }

    /// Learns the routes a packet's full path `[n0, ..., nk]` implies at this node: the
    /// part after this node, and (links being bidirectional) the part before it, reversed.
    fn learn_path(&mut self, now: SimTime, path: &[Ipv4Addr]) {
        if !cache::loop_free(path) {
            return;
        }
        if let Some(i) = path.iter().position(|a| *a == self.addr) {
            self.cache.add(now, &path[i..]);
            let mut back: Vec<Ipv4Addr> = path[..=i].to_vec();
            back.reverse();
            self.cache.add(now, &back);
        }
    }

    /// A DSR packet (protocol 48) arrived: the decision for it.
    fn receive_dsr(
        &mut self,
        now: SimTime,
        packet: Packet,
        parsed: Parsed,
        dsr: DsrRepr,
    ) -> Decision {
        let me = self.addr;
        let ip = parsed.ip;
        if let Some(kind) = main_kind(&dsr) {
            self.counters.count_rx(kind, packet.len());
        }
        // §8.3.5: every node that receives a Route Error removes the link, the nodes that
        // only forward it included (what ns-2 calls `dsragent_snoop_forwarded_errors`), and
        // so does every node that receives a Route Request carrying one (§8.2.1,
        // `propagate_last_error`).
        let is_request = main_kind(&dsr) == Some("rreq");
        for o in &dsr.options {
            if let DsrOption::RouteError {
                error_src,
                error_dst,
                kind: sctpsim_wire::dsr::RouteErrorKind::NodeUnreachable(unreachable),
                ..
            } = o
            {
                self.remove_link(*error_src, *unreachable);
                if self.cfg.propagate_last_error && !is_request && *error_dst == me {
                    // ns-2 `processBrokenRouteError`: kept for the next Route Request.
                    self.held_error = Some((*error_src, *unreachable, now));
                }
            }
        }
        if let Some(DsrOption::RouteRequest {
            id,
            target,
            addresses,
        }) = dsr
            .options
            .iter()
            .find(|o| matches!(o, DsrOption::RouteRequest { .. }))
        {
            let (id, target, record) = (*id, *target, addresses.clone());
            // A Route Error riding on the request travels on with it.
            let errors: Vec<DsrOption> = dsr
                .options
                .iter()
                .filter(|o| matches!(o, DsrOption::RouteError { .. }))
                .cloned()
                .collect();
            self.handle_request(now, &ip, id, target, record, errors);
            return Decision::Consumed;
        }
        // Learn from the source route (§8.1.4) and from a reply's route.
        let sr = source_route(&dsr).map(|(s, l, a)| (s, l, a.to_vec()));
        if let Some((salvage, _, addresses)) = &sr {
            let mut path = Vec::with_capacity(addresses.len() + 2);
            if *salvage == 0 {
                path.push(ip.src_addr);
            }
            path.extend_from_slice(addresses);
            path.push(ip.dst_addr);
            if *salvage == 0 {
                self.learn_path(now, &path);
            } else if let Some(i) = path.iter().position(|a| *a == me) {
                self.cache.add(now, &path[i..]);
            }
        }
        let reply = dsr.options.iter().find_map(|o| match o {
            DsrOption::RouteReply { addresses, .. } => Some(addresses.clone()),
            _ => None,
        });
        if let Some(addresses) = &reply {
            let mut path = vec![ip.dst_addr];
            path.extend_from_slice(addresses);
            self.learn_path(now, &path);
        }
        if ip.dst_addr == me {
            if reply.is_some() {
                self.complete_discoveries(now);
            }
            let mut decision = Decision::Consumed;
            if dsr.next_header != NO_NEXT_HEADER {
                // The DSR header comes off: new bytes, the tag the packet was sent with.
                let upper = parsed.upper(&packet.bytes);
                let repr = Ipv4Repr {
                    protocol: IpProtocol::from(dsr.next_header),
                    payload_len: upper.len(),
                    ..ip
                };
                let mut out = vec![0u8; repr.buffer_len()];
                repr.emit(&mut Ipv4Packet::new_unchecked(&mut out[..]));
                out[Ipv4Repr::HEADER_LEN..].copy_from_slice(upper);
                decision = self.outputs.decide(Decision::Deliver(Packet {
                    bytes: out,
                    tag: packet.tag,
                }));
            }
            // The buffered packets this packet's route made routable follow the delivery.
            self.flush_buffer(now);
            return decision;
        }
        if ip.dst_addr.is_broadcast() {
            return Decision::Consumed;
        }
        // The buffered packets this packet's route made routable go ahead of it.
        self.flush_buffer(now);
        let Some((_, segs_left, addresses)) = sr else {
            // A unicast DSR packet for someone else without a source route: nothing to
            // follow.
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        self.forward(packet, &parsed, &dsr, segs_left, &addresses)
    }

    /// Forwards a packet along its Source Route option (§8.1.5): `segs_left` and `addresses`
    /// are that option's. Data is the decision ([`Decision::Forward`]); a control packet
    /// (reply, error) is relayed as this router's own control output and consumed.
    fn forward(
        &mut self,
        packet: Packet,
        parsed: &Parsed,
        dsr: &DsrRepr,
        segs_left: u8,
        addresses: &[Ipv4Addr],
    ) -> Decision {
        let n = addresses.len();
        let sl = usize::from(segs_left);
        if sl == 0 || sl > n || addresses[n - sl] != self.addr {
            // Not our turn on this route (or a bad Segments Left): RFC 4728 §8.1.5 would send
            // an ICMP Parameter Problem; we count and drop.
            self.counters.malformed += 1;
            return Decision::Consumed;
        }
        let control = main_kind(dsr);
        let new_sl = sl - 1;
        let next_hop = if new_sl == 0 {
            parsed.ip.dst_addr
        } else {
            addresses[n - new_sl]
        };
        let mut new_dsr = dsr.clone();
        for o in &mut new_dsr.options {
            if let DsrOption::SourceRoute { segs_left, .. } = o {
                *segs_left = new_sl as u8;
                break;
            }
        }
        // The TTL is IP forwarding's: it was decremented (and checked) before the packet came
        // here (Router contract); only the Source Route option changes.
        let Ok(bytes) = dsr_packet(&parsed.ip, &new_dsr, parsed.upper(&packet.bytes)) else {
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        // Rewritten header, the same tag (control packets relayed here are untagged
        // already).
        let packet = Packet {
            bytes,
            tag: packet.tag,
        };
        if control.is_some() {
            self.transmit(next_hop, packet, control);
            return Decision::Consumed;
        }
        self.counters.data_forwarded += 1;
        self.outputs.decide(Decision::Forward { next_hop, packet })
    }

    /// Removes the link `from — to` from the cache and reports the routes that broke.
    fn remove_link(&mut self, from: Ipv4Addr, to: Ipv4Addr) {
        for dst in self.cache.remove_link(from, to) {
            self.events.push_back(RoutingEvent::RouteBroken { dst });
        }
    }
}

impl Router for Dsr {
    fn protocol(&self) -> &'static str {
        "dsr"
    }

    fn addr(&self) -> Ipv4Addr {
        self.addr
    }

    fn handle_send(&mut self, now: SimTime, packet: Packet) -> Decision {
        self.begin(now);
        let Ok(parsed) = Parsed::parse(&packet.bytes) else {
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        let dst = parsed.ip.dst_addr;
        if dst.is_broadcast() {
            self.outputs.decide(Decision::Forward {
                next_hop: Ipv4Addr::BROADCAST,
                packet,
            })
        } else if dst == self.addr {
            self.outputs.decide(Decision::Deliver(packet))
        } else {
            self.route_or_buffer(now, packet, dst, true)
        }
    }

    fn handle_receive(&mut self, now: SimTime, _prev_hop: Ipv4Addr, packet: Packet) -> Decision {
        self.begin(now);
        let parsed = match Parsed::parse(&packet.bytes) {
            Ok(p) => p,
            Err(_) => {
                self.counters.malformed += 1;
                return Decision::Consumed;
            }
        };
        match parsed.dsr.clone() {
            Some((dsr, _)) => self.receive_dsr(now, packet, parsed, dsr),
            None => {
                let dst = parsed.ip.dst_addr;
                if dst == self.addr || dst.is_broadcast() {
                    self.outputs.decide(Decision::Deliver(packet))
                } else {
                    // A plain packet for another node reached us: DSR forwards only along
                    // source routes.
                    self.drop_decision(packet, RouteDropReason::NoRoute)
                }
            }
        }
    }

    fn outputs_before_decision(&self) -> usize {
        self.outputs.before_decision()
    }

    fn handle_link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>) {
        self.begin(now);
        self.link_failure(now, next_hop, packets);
    }

    fn handle_overheard(&mut self, now: SimTime, packet: &Packet) {
        if !self.cfg.tap {
            return;
        }
        self.begin(now);
        self.tap(now, packet);
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.begin(now);
        // Jittered rebroadcasts, in due order (ties: the order they were scheduled).
        let due = self
            .timers
            .expired_if(now, |k| matches!(k, DsrTimer::Rebroadcast(..)));
        for k in due {
            let DsrTimer::Rebroadcast(_, seq) = k else {
                continue;
            };
            if let Some(packet) = self.pending.remove(&seq) {
                self.transmit(Ipv4Addr::BROADCAST, Packet::untagged(packet), Some("rreq"));
            }
        }
        for packet in self.buffer.expire(now) {
            self.drop_packet(packet, RouteDropReason::SendBufferTimeout);
        }
        self.discovery_timeouts(now);
    }

    fn poll_output(&mut self) -> Option<RoutingOutput> {
        self.outputs.pop_front()
    }

    fn poll_event(&mut self) -> Option<RoutingEvent> {
        self.events.pop_front()
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        [
            self.timers.next(),
            self.buffer.next_deadline(),
            self.cache.next_expiry(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn counters(&self) -> &RoutingCounters {
        &self.counters
    }

    fn next_hop(&self, dst: Ipv4Addr) -> Option<Ipv4Addr> {
        self.cache
            .find(self.last_now, dst)
            .and_then(|r| r.get(1).copied())
    }

    fn buffered_tags(&self) -> Vec<PacketTag> {
        self.buffer.tags()
    }

    // The trait's multipath hook, for callers holding a `Box<dyn Router>` (the engine); the
    // inherent methods (disjoint.rs) take precedence in these paths.
    fn disjoint_routes(&self, now: SimTime, dst: Ipv4Addr, k: usize) -> Vec<Vec<Ipv4Addr>> {
        Dsr::disjoint_routes(self, now, dst, k)
    }

    fn handle_send_on_route(
        &mut self,
        now: SimTime,
        packet: Packet,
        route: &[Ipv4Addr],
    ) -> Decision {
        Dsr::handle_send_on_route(self, now, packet, route)
    }

    fn has_route(&self, now: SimTime, route: &[Ipv4Addr]) -> bool {
        Dsr::has_route(self, now, route)
    }
}
