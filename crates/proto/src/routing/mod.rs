//! Ad hoc routing protocols (DSR, AODV, OLSR) as sans-IO state machines behind one interface,
//! [`Router`].
//!
//! # What the engine does
//!
//! One router per wireless node, built from the node's IPv4 address, the protocol's
//! configuration and the random stream `seeds.stream(("routing", node))` (jitter, RREQ IDs). A
//! router never reads a clock and never schedules anything: time enters as `now`, and the
//! engine wakes it at [`Router::poll_timeout`] (a wake-up that finds nothing due is a no-op).
//!
//! # IP forwards, the router decides
//!
//! For every packet handed to it — one this node originates, or one the wireless interface
//! delivered — the router returns a [`Decision`]: [`Decision::Deliver`] (for this node),
//! [`Decision::Forward`] (to a next hop, the packet maybe rewritten: DSR's source route),
//! [`Decision::Buffered`] (waiting for a route, or for AODV's local repair),
//! [`Decision::Consumed`] (routing control, or malformed input) or [`Decision::Drop`] with a
//! [`RouteDropReason`]. The router never hands the packet it was just given to the interface
//! or the transport itself: the engine's IP layer acts on the decision, as a kernel's
//! forwarding path acts on the route its routing table returned.
//!
//! Everything else a router does is its own doing and comes out of [`Router::poll_output`]:
//! the control packets it builds or relays ([`RoutingOutput::Transmit`] with `control`), the
//! data packets it held and now releases (a buffered packet sent once its route is known, a
//! packet salvaged or re-routed after a link failure: a later `Transmit` with `control` off,
//! not a decision, since no packet is being handed in then), and the drops of packets it held
//! ([`RoutingOutput::Drop`]: buffer overflow or timeout, broken link). Within one call the
//! order of these outputs and the decision matters (they share the interface queue): a router
//! may release buffered packets ahead of the one it decides for (DSDV's queued packets before
//! a new one on the same route, as ns-3 does; DSR's buffered packets that a forwarded packet's
//! source route made routable) and queue control traffic after it (AODV's route error after
//! the drop it reports); [`Router::outputs_before_decision`] says where the decision falls
//! and the engine acts in that order.
//!
//! Inputs:
//! * [`Router::handle_send`]: an IPv4 packet this node originates (transport or application),
//!   with its IP header complete (source = this node, TTL set). The router decides: forward
//!   it, buffer it while it discovers a route, or drop it.
//! * [`Router::handle_receive`]: every IPv4 packet the wireless interface delivered to this node
//!   (unicast to its MAC or broadcast), with the transmitter's IP address (`prev_hop`). Routing
//!   control packets are [`Decision::Consumed`]; packets for this node are
//!   [`Decision::Deliver`]ed; others are forwarded, buffered or dropped. A packet for another
//!   node reaches the router only through the engine's IP forwarding, which has already
//!   decremented its TTL, dropped it at zero and answered with ICMP Time Exceeded (RFC 1812
//!   §5.3.1): the router only chooses the next hop and never touches the TTL of a packet it
//!   forwards (the TTL of the route requests it floods itself — AODV's expanding ring, DSR's
//!   hop limit — is the protocol's own scope, RFC 3561 §6.5, RFC 4728 §3.3.3). No routing
//!   loop survives.
//! * [`Router::handle_link_failure`]: the MAC gave up on `next_hop` (retry limit) — the failed
//!   packet and every packet the engine took out of the interface queue for the same next hop.
//!   Routing reports the broken link (route error) and may salvage or re-buffer the packets.
//! * [`Router::handle_tx_success`]: a unicast frame to `next_hop` was acknowledged (optional
//!   use: link-layer feedback that the neighbour is alive).
//! * [`Router::handle_overheard`]: a unicast packet for another node that the MAC overheard
//!   in promiscuous mode (only for routers that ask for it, DSR with its tap on). It is
//!   borrowed: the router may learn from it and send control packets of its own, but the
//!   packet itself is never delivered, forwarded or dropped here.
//! * [`Router::handle_timeout`]: the deadline from [`Router::poll_timeout`].
//!
//! # Packet tags
//!
//! Packets come in and go out as [`Packet`]s: the IPv4 bytes plus the simulator's
//! [`PacketTag`] (flow and uid), which never goes on the wire. Routers never read the tag; they
//! carry it, unchanged, with the data packet it came with through everything they do to it —
//! the send buffer, forwarding, DSR's source-route header (added at the source,
//! rewritten at every hop, removed at the destination: the bytes change, the tag stays),
//! salvaging, re-routing after a link failure, AODV's local repair — so that the packet's end,
//! a delivery or a drop, is attributed to its flow without guessing the flow back from the
//! headers (the role of ns-3's packet tags). A data packet given to a router is, exactly once,
//! delivered or dropped (decision or output), forwarded to the next hop ([`Decision::Forward`]
//! or a later [`RoutingOutput::Transmit`]), or still waiting in a buffer
//! ([`Router::buffered_tags`]); the exception is malformed input (below), which is only
//! counted. Control packets a router builds itself are [`Packet::untagged`] (no flow, uid 0).
//!
//! Outputs, drained after every input:
//! * the [`Decision`] returned by `handle_send` / `handle_receive` /
//!   [`Router::handle_send_on_route`], for the packet handed in;
//! * [`Router::poll_output`]: the router's own packets to transmit, and held packets it gave
//!   up on;
//! * [`Router::poll_event`]: route discovered (with its latency), route errors, route changes
//!   for transports (A-SCTP);
//! * [`Router::poll_timeout`]: when to call [`Router::handle_timeout`]. Every router keeps its
//!   deadlines in one [`timers::TimerTable`] keyed by its own timer enum (due keys fire in key
//!   order) and reports its `next()`, with the expiries of its data structures (route
//!   lifetimes, send-buffer ages, DSR's path cache).
//!
//! Addresses are IPv4; the engine maps a next hop's IP address to its MAC address and
//! [`Ipv4Addr::BROADCAST`] to the MAC broadcast address. Control packets are complete IPv4
//! packets built here (AODV: UDP port 654, OLSR: UDP port 698, DSR: IP protocol 48) so captures
//! dissect as real traffic.
//!
//! Malformed input (truncated, bad lengths, bad checksums) is counted in
//! [`RoutingCounters::malformed`] and dropped; no input makes a router panic.

use sctpsim_kernel::{Packet, PacketTag, SimDuration, SimTime};
use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

pub mod aodv;
pub mod dsdv;
pub mod dsr;
pub mod olsr;
pub mod send_buffer;
pub mod testnet;
pub mod timers;

/// What a router decided for the packet it was just handed ([`Router::handle_send`],
/// [`Router::handle_receive`], [`Router::handle_send_on_route`]). The router only decides; the
/// engine's IP layer puts the decision into effect (hands a [`Decision::Forward`] to the
/// interface, a [`Decision::Deliver`] to the transport, records a [`Decision::Drop`]), as a
/// kernel's forwarding path acts on the route its routing table returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// For this node: up to the transport, routing headers removed (DSR takes its header
    /// off: other bytes, the same tag).
    Deliver(Packet),
    /// Send it on the wireless interface to `next_hop` ([`Ipv4Addr::BROADCAST`]: a MAC
    /// broadcast). The packet may be rewritten (DSR adds its source route at the source and
    /// updates Segments Left at every hop); the tag stays.
    Forward {
        /// The neighbour (or broadcast).
        next_hop: Ipv4Addr,
        /// The IPv4 packet as it leaves, with the tag it came with.
        packet: Packet,
    },
    /// Waiting in the router (send buffer while a route is discovered, AODV's local repair);
    /// it leaves later as a [`RoutingOutput::Transmit`] or ends as a [`RoutingOutput::Drop`],
    /// and until then it is among [`Router::buffered_tags`].
    Buffered,
    /// Taken in by the router: a routing control packet (which the router may relay as its
    /// own control output — DSR's source-routed replies and errors, AODV's and OLSR's
    /// rebroadcasts — counted as control), or malformed input, which is only counted
    /// ([`RoutingCounters::malformed`]).
    Consumed,
    /// Given up on.
    Drop {
        /// The IPv4 packet (as the router last held it), with its tag, so that the drop is
        /// attributed to its flow.
        packet: Packet,
        /// Why.
        reason: RouteDropReason,
    },
}

/// What a router does on its own, outside the decision for a packet handed in: its control
/// traffic, the packets it releases from its send buffer or salvages, and the buffered
/// packets it gives up on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoutingOutput {
    /// Send `packet` (a complete IPv4 packet) on the wireless interface to `next_hop`
    /// ([`Ipv4Addr::BROADCAST`]: a MAC broadcast): a control packet built here or relayed, or
    /// a data packet that waited in the router (released from the send buffer, salvaged or
    /// re-routed after a link failure).
    Transmit {
        /// The neighbour (or broadcast).
        next_hop: Ipv4Addr,
        /// The IPv4 packet, with the tag it came with (data) or untagged (control built here).
        packet: Packet,
        /// Routing control traffic (queued ahead of data, like ns-2's PriQueue).
        control: bool,
    },
    /// A data packet the router gave up on after holding it (send buffer full or timed out,
    /// link broken).
    Drop {
        /// The IPv4 packet (as the router last held it), with the tag it was sent with, so
        /// that the drop is attributed to its flow.
        packet: Packet,
        /// Why.
        reason: RouteDropReason,
    },
}

/// A router's queue of [`RoutingOutput`]s, and where the decision of the call being handled
/// falls among the outputs that call queued ([`Router::outputs_before_decision`]).
#[derive(Debug, Default)]
pub(crate) struct Outputs {
    queue: VecDeque<RoutingOutput>,
    before_decision: usize,
}

impl Outputs {
    /// Queues `o` after everything queued so far.
    pub(crate) fn push_back(&mut self, o: RoutingOutput) {
        self.queue.push_back(o);
    }

    /// The oldest output.
    pub(crate) fn pop_front(&mut self) -> Option<RoutingOutput> {
        self.queue.pop_front()
    }

    /// `d` is the decision for the packet handed in: it takes effect after the outputs
    /// queued so far in this call and before those queued after it.
    pub(crate) fn decide(&mut self, d: Decision) -> Decision {
        self.before_decision = self.queue.len();
        d
    }

    /// How many queued outputs come before the last decision.
    pub(crate) fn before_decision(&self) -> usize {
        self.before_decision
    }
}

/// Why a router dropped a data packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RouteDropReason {
    /// No route and the protocol does not discover one (OLSR), or discovery failed.
    NoRoute,
    /// The send buffer was full.
    SendBufferFull,
    /// The packet waited in the send buffer longer than its timeout.
    SendBufferTimeout,
    /// The TTL reached zero while forwarding.
    TtlExpired,
    /// The link to the next hop broke and the packet could not be salvaged.
    LinkBroken,
}

impl RouteDropReason {
    /// Name in results and docs.
    pub fn name(self) -> &'static str {
        match self {
            RouteDropReason::NoRoute => "no_route",
            RouteDropReason::SendBufferFull => "send_buffer_full",
            RouteDropReason::SendBufferTimeout => "send_buffer_timeout",
            RouteDropReason::TtlExpired => "ttl_expired",
            RouteDropReason::LinkBroken => "link_broken",
        }
    }
}

/// What a router reports (for metrics and for transports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoutingEvent {
    /// A route discovery this node started ended with a route to `dst`.
    RouteDiscovered {
        /// The destination.
        dst: Ipv4Addr,
        /// From the first request of the discovery to the route's arrival.
        latency: SimDuration,
    },
    /// This node detected (MAC feedback, missed HELLOs) that its link to `next_hop` broke.
    LinkBroken {
        /// The neighbour.
        next_hop: Ipv4Addr,
    },
    /// A route (or the last of several routes) this node used to reach `dst` broke, whether it
    /// detected the break or heard of it in a route error. Transports that track routes
    /// (A-SCTP over DSR) hear of it in the same engine event.
    RouteBroken {
        /// The destination.
        dst: Ipv4Addr,
    },
}

/// Packets and bytes of one kind of routing message.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeCount {
    /// Packets.
    pub packets: u64,
    /// Bytes (whole IPv4 packets).
    pub bytes: u64,
}

/// What a router counted. Transmissions count every hop (a RREQ rebroadcast by 10 nodes
/// counts 10 times), as routing overhead does in the MANET literature (Broch et al. 1998).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoutingCounters {
    /// Control IPv4 packets transmitted, whatever they carry: the routing overhead figure.
    /// An OLSR packet bundling a HELLO and a TC counts once here (as ns-3 and ns-2 count IP
    /// packets) and once under each message type in [`RoutingCounters::tx`].
    pub tx_total: TypeCount,
    /// Control messages transmitted, by message type ("rreq", "rrep", "rerr", "hello", "tc",
    /// ...). For DSR and AODV a message is a packet; an OLSR packet may carry several, and
    /// the bytes of its IP, UDP and OLSR packet headers are counted with its first message.
    pub tx: BTreeMap<&'static str, TypeCount>,
    /// Control packets received, by message type.
    pub rx: BTreeMap<&'static str, TypeCount>,
    /// Messages among `tx` that this node retransmitted on behalf of their originator, by
    /// type. Only OLSR relays messages unchanged (MPR flooding, RFC 3626 §3.4.1); DSR and AODV
    /// build a new control packet at every hop and leave this empty.
    pub relayed: BTreeMap<&'static str, u64>,
    /// Route discoveries started (the first request for a destination, not its retries).
    pub discoveries: u64,
    /// Route requests this node originated (first tries and retries).
    pub requests_originated: u64,
    /// Route discoveries that ended with a route.
    pub discoveries_succeeded: u64,
    /// Route errors originated here (link breaks detected by this node).
    pub route_errors_sent: u64,
    /// Link breaks detected here (MAC feedback or lost HELLOs).
    pub link_breaks: u64,
    /// Data packets this node forwarded.
    pub data_forwarded: u64,
    /// Data packets salvaged (DSR) or re-routed after a link failure.
    pub salvaged: u64,
    /// Data packets dropped, by reason.
    pub drops: BTreeMap<RouteDropReason, u64>,
    /// Malformed routing packets (or IPv4 packets) counted and dropped.
    pub malformed: u64,
}

impl RoutingCounters {
    /// Counts one transmitted control packet of `bytes` bytes that carries one message of
    /// `kind` (DSR, AODV).
    pub fn count_tx(&mut self, kind: &'static str, bytes: usize) {
        self.count_tx_packet(bytes);
        self.count_tx_message(kind, bytes);
    }

    /// Counts one transmitted control packet in the total only (its messages are counted
    /// with [`RoutingCounters::count_tx_message`]).
    pub fn count_tx_packet(&mut self, bytes: usize) {
        self.tx_total.packets += 1;
        self.tx_total.bytes += bytes as u64;
    }

    /// Counts one transmitted message of `kind`, `bytes` of the packet attributed to it, in
    /// the per-type table only.
    pub fn count_tx_message(&mut self, kind: &'static str, bytes: usize) {
        let c = self.tx.entry(kind).or_default();
        c.packets += 1;
        c.bytes += bytes as u64;
    }

    /// Counts one received control packet.
    pub fn count_rx(&mut self, kind: &'static str, bytes: usize) {
        let c = self.rx.entry(kind).or_default();
        c.packets += 1;
        c.bytes += bytes as u64;
    }

    /// Counts one dropped data packet.
    pub fn count_drop(&mut self, reason: RouteDropReason) {
        *self.drops.entry(reason).or_default() += 1;
    }

    /// Control packets transmitted, all types.
    pub fn tx_packets(&self) -> u64 {
        self.tx_total.packets
    }

    /// Control bytes transmitted, all types.
    pub fn tx_bytes(&self) -> u64 {
        self.tx_total.bytes
    }
}

/// A routing protocol instance at one node.
pub trait Router: std::fmt::Debug + Send {
    /// Protocol name ("dsr", "aodv", "olsr").
    fn protocol(&self) -> &'static str;
    /// This node's address.
    fn addr(&self) -> Ipv4Addr;
    /// An IPv4 packet this node originates: the router decides (forward to a next hop,
    /// buffer while it discovers a route, deliver if it is for this node, drop); the tag
    /// stays with the packet in the decision or in whatever output ends it later.
    #[must_use = "the decision takes effect only if the caller acts on it"]
    fn handle_send(&mut self, now: SimTime, packet: Packet) -> Decision;
    /// An IPv4 packet the wireless interface delivered, sent by `prev_hop`, with the tag the
    /// MAC carried: control traffic is [`Decision::Consumed`], a packet for this node
    /// [`Decision::Deliver`]ed, a packet for another node (TTL already decremented by IP
    /// forwarding) forwarded, buffered (local repair) or dropped.
    #[must_use = "the decision takes effect only if the caller acts on it"]
    fn handle_receive(&mut self, now: SimTime, prev_hop: Ipv4Addr, packet: Packet) -> Decision;
    /// How many of the outputs the last [`Router::handle_send`], [`Router::handle_receive`]
    /// or [`Router::handle_send_on_route`] queued come before its decision; the engine puts
    /// the decision into effect at that place, so that the interface queue holds packets in
    /// the router's order. A router may release packets ahead of the one it was handed (DSDV
    /// sends the packets queued for a route before a new one on it, as ns-3's
    /// `LookForQueuedPackets` does; DSR first sends the buffered packets a forwarded packet's
    /// source route made routable) and queue control traffic after it (AODV's route error
    /// after a drop, DSR's buffered packets after a delivery). Default 0: the decision first.
    fn outputs_before_decision(&self) -> usize {
        0
    }
    /// The MAC gave up on `next_hop`: the failed packet first, then the packets taken out of
    /// the interface queue for the same next hop, each with its tag (a salvaged or dropped
    /// packet keeps it).
    fn handle_link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>);
    /// A unicast frame to `next_hop` was acknowledged.
    fn handle_tx_success(&mut self, _now: SimTime, _next_hop: Ipv4Addr) {}
    /// An IPv4 packet the MAC overheard (promiscuous reception) on its way between two other
    /// nodes. Only for learning (DSR's tap): the packet is not this node's to deliver,
    /// forward or drop, so no output ever carries it; control packets the router builds in
    /// response (a gratuitous Route Reply) are its own. Default: ignored.
    fn handle_overheard(&mut self, _now: SimTime, _packet: &Packet) {}
    /// The deadline from [`Router::poll_timeout`] (or any earlier time: a no-op then).
    fn handle_timeout(&mut self, now: SimTime);
    /// The next output of the router's own (control traffic, released or salvaged data,
    /// drops of packets it held).
    fn poll_output(&mut self) -> Option<RoutingOutput>;
    /// The next event.
    fn poll_event(&mut self) -> Option<RoutingEvent>;
    /// When the router next wants [`Router::handle_timeout`].
    fn poll_timeout(&self) -> Option<SimTime>;
    /// The counters.
    fn counters(&self) -> &RoutingCounters;
    /// The next hop this node would use for `dst` now, if it has a route (for tests and
    /// traces; no discovery is started).
    fn next_hop(&self, dst: Ipv4Addr) -> Option<Ipv4Addr>;

    /// The tags of the data packets waiting in this router (send buffer, local repair), oldest
    /// first: together with the outputs, every data packet handed in is accounted for, so the
    /// engine (and tests) can attribute the packets a run ends with to their flows instead of
    /// losing them silently. A router without buffers (OLSR) holds none.
    fn buffered_tags(&self) -> Vec<PacketTag> {
        Vec::new()
    }

    /// Multipath for transports (A-SCTP): up to `k` pairwise node-disjoint routes to `dst`
    /// known now, each `[this node, ..., dst]`, shortest first. Only source routing can pin a
    /// packet to a route, so only DSR answers ([`dsr::Dsr::disjoint_routes`]); the others
    /// have none to offer. Starts no discovery.
    fn disjoint_routes(&self, _now: SimTime, _dst: Ipv4Addr, _k: usize) -> Vec<Vec<Ipv4Addr>> {
        Vec::new()
    }

    /// Whether `route` (`[this node, ..., dst]`, one [`Router::disjoint_routes`] gave) is still
    /// known now, so that [`Router::handle_send_on_route`] would follow it. A transport's path
    /// manager (A-SCTP) asks it to learn which of its routes broke. Protocols without
    /// multipath know none.
    fn has_route(&self, _now: SimTime, _route: &[Ipv4Addr]) -> bool {
        false
    }

    /// Sends an originated `packet` over one of the routes [`Router::disjoint_routes`] gave.
    /// A protocol without multipath (or a route that is no longer usable) routes it as
    /// [`Router::handle_send`] does.
    #[must_use = "the decision takes effect only if the caller acts on it"]
    fn handle_send_on_route(
        &mut self,
        now: SimTime,
        packet: Packet,
        _route: &[Ipv4Addr],
    ) -> Decision {
        self.handle_send(now, packet)
    }
}

/// An IPv4 packet as a router whose control messages travel in UDP sees it on receipt.
pub(crate) enum UdpIncoming<'a> {
    /// A checked UDP datagram to the protocol's port, addressed to this node or broadcast:
    /// its source and its payload.
    Control(Ipv4Addr, &'a [u8]),
    /// Any other packet, with its destination.
    Data(Ipv4Addr),
}

/// Parses an incoming packet for a UDP-based router (OLSR on 698, DSDV on 269) at `me`;
/// `Err` means malformed (bad lengths or checksums).
pub(crate) fn classify_udp(
    me: Ipv4Addr,
    packet: &[u8],
    port: u16,
) -> Result<UdpIncoming<'_>, sctpsim_wire::WireError> {
    use sctpsim_wire::{IpProtocol, Ipv4Packet, Ipv4Repr, UdpPacket, UdpRepr};
    let ip = Ipv4Packet::new_checked(packet)?;
    let ip_repr = Ipv4Repr::parse(&ip)?;
    let to_us = ip_repr.dst_addr == me || ip_repr.dst_addr == Ipv4Addr::BROADCAST;
    if to_us && ip_repr.protocol == IpProtocol::Udp {
        let udp = UdpPacket::new_checked(ip.payload())?;
        if udp.dst_port() == port {
            UdpRepr::parse(&udp, ip_repr.src_addr, ip_repr.dst_addr)?;
            // The payload as a slice of `packet` itself (the views borrow only locally).
            let payload = udp.payload();
            let start = payload.as_ptr() as usize - packet.as_ptr() as usize;
            let body = packet.get(start..start + payload.len()).unwrap_or_default();
            return Ok(UdpIncoming::Control(ip_repr.src_addr, body));
        }
    }
    Ok(UdpIncoming::Data(ip_repr.dst_addr))
}
