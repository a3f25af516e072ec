//! Driving the ad hoc routing protocols (`sctpsim_proto::routing`): one [`Router`] per wireless
//! node when `routing.protocol` is `dsr`, `aodv`, `olsr` or `dsdv`.
//!
//! The glue is the contract of `sctpsim_proto::routing` (its module doc):
//! * a packet a node originates ([`Simulation::ip_output`]) goes to its router
//!   (`handle_send`), which decides: forward, buffer or drop it;
//! * every packet the node's MAC delivers enters IP input (`ip.rs::ip_input`) like any other;
//!   packets for the node and broadcasts go to the router (`handle_receive`) with the
//!   transmitter's address, which consumes control traffic or decides to deliver;
//!   packets for other nodes go through IP forwarding first (TTL decrement, drop at zero with
//!   ICMP Time Exceeded), then to the router, which only chooses the next hop;
//! * the MAC's link-failure event (`TxFailed` at a retry limit) goes to the router with the
//!   failed packet and every packet still queued for that next hop (taken out of the interface
//!   queue, as ns-2's `Mac802_11` → `PriQueue::filter` hands them to DSR and AODV);
//! * acknowledged unicasts go to `handle_tx_success`;
//! * unicast frames for other stations that the MAC overheard (promiscuous reception, on
//!   only when DSR's tap is) go to `handle_overheard`, and nowhere else;
//! * `handle_send` and `handle_receive` return the router's decision for the packet handed
//!   in, which IP acts on here (`routing_decision`): `Forward` → the interface queue,
//!   `Deliver` → the transport, `Drop` → the flow's drop record, `Buffered`/`Consumed` →
//!   nothing more; it takes effect at its place among the outputs the call queued
//!   (`Router::outputs_before_decision`), so the interface queue keeps the router's order;
//! * router outputs, the router's own doing (control traffic, packets released from its
//!   send buffer or salvaged, drops of packets it held): `Transmit` → the interface queue
//!   (control traffic ahead of data), `Drop` → the flow's drop record;
//! * the router's deadline is a `RoutingTimer` event (stale wake-ups are no-ops).
//!
//! Random streams: `("routing", node)` for each router (jitter, identifiers).

use super::net_events::NetEvent;
use super::{Event, Simulation};
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::results::{RoutingResult, TypeCountResult};
use crate::routing_protocols::make_router;
use crate::scenario::{RoutingKind, Scenario};
use crate::topology::{Node, Topology};
use crate::trace::TraceAt;
use sctpsim_kernel::{NodeId, SeedTree, SimTime, StreamKey};
use sctpsim_proto::mac::{MacAddr, MacSdu};
use sctpsim_proto::routing::{Decision, RouteDropReason, Router, RoutingEvent, RoutingOutput};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// What a simulation keeps of its ad hoc routing beside the routers, which are the nodes'
/// (`Node::router`): the protocol and network-wide figures.
#[derive(Debug)]
pub(crate) struct RoutingRt {
    /// The protocol.
    pub kind: RoutingKind,
    /// Sum of the latencies of the successful route discoveries, s, and their number (for
    /// the mean).
    discovery_latency_sum_s: f64,
    discoveries_timed: u64,
    /// `RouteBroken` events (for transports that follow routes).
    pub routes_broken: u64,
    /// Overheard frames handed to routers (DSR's tap).
    pub overheard: u64,
}

impl RoutingRt {
    /// The routers of scenario `s` (`None` with static routing), one per node with a wireless
    /// interface, installed in the nodes.
    pub fn build(s: &Scenario, topo: &mut Topology, seeds: &SeedTree) -> Option<RoutingRt> {
        let spec = s.routing.as_ref()?;
        let kind = spec.protocol;
        if kind == RoutingKind::Static {
            return None;
        }
        for (k, node) in topo.nodes.iter_mut().enumerate() {
            let addr = node
                .ifaces
                .iter()
                .find(|i| i.wireless.is_some())
                .map(|i| i.addr);
            node.router = addr.and_then(|a| {
                let rng = seeds.stream(&StreamKey::new("routing").with(k as u64));
                make_router(spec, a, rng)
            });
        }
        Some(RoutingRt {
            kind,
            discovery_latency_sum_s: 0.0,
            discoveries_timed: 0,
            routes_broken: 0,
            overheard: 0,
        })
    }
}

/// Up to `k` node-disjoint routes from `node` to `dst` its router knows at `now` (DSR
/// answers; the others have none).
pub(super) fn disjoint_routes(
    node: &Node,
    now: SimTime,
    dst: Ipv4Addr,
    k: usize,
) -> Vec<Vec<Ipv4Addr>> {
    match &node.router {
        Some(r) => r.disjoint_routes(now, dst, k),
        None => Vec::new(),
    }
}

/// Whether `node`'s router still knows `route` at `now` (DSR; the others know none).
pub(super) fn has_route(node: &Node, now: SimTime, route: &[Ipv4Addr]) -> bool {
    node.router
        .as_ref()
        .is_some_and(|r| r.has_route(now, route))
}

impl Simulation {
    /// Whether packets of `node` go through an ad hoc routing protocol.
    pub(super) fn routed(&self, node: NodeId) -> bool {
        self.nodes
            .get(node.index())
            .is_some_and(|n| n.router.is_some())
    }

    /// The router of `node`, if it runs one.
    fn router(&mut self, node: NodeId) -> Option<&mut Box<dyn Router>> {
        self.nodes.get_mut(node.index())?.router.as_mut()
    }

    /// Starts every router: their first deadlines (OLSR's first HELLO, ...).
    pub(super) fn routing_start(&mut self) {
        let n = self.nodes.len();
        for k in 0..n {
            self.routing_schedule(NodeId(k as u32));
        }
    }

    /// A packet `node` originates: its router decides (forward, buffer, deliver, drop), IP
    /// acts on the decision.
    pub(super) fn routing_send(&mut self, node: NodeId, pkt: Packet) {
        let now = self.now;
        let decided = self.router(node).map(|r| {
            let d = r.handle_send(now, pkt);
            (r.outputs_before_decision(), d)
        });
        self.routing_drain_decided(node, decided);
    }

    /// A flow's packet `node` originates, to be sent over `route` (one the router's
    /// `disjoint_routes` gave; DSR pins it, the others route it as usual).
    pub(super) fn routing_send_on_route(&mut self, node: NodeId, pkt: Packet, route: &[Ipv4Addr]) {
        let now = self.now;
        let decided = self.router(node).map(|r| {
            let d = r.handle_send_on_route(now, pkt, route);
            (r.outputs_before_decision(), d)
        });
        self.routing_drain_decided(node, decided);
    }

    /// A packet for `node` (or a broadcast) that IP input hands to its router, sent by MAC
    /// `src`: the router consumes its control traffic and decides for the rest (deliver;
    /// forward, buffer or drop a transit packet), which IP then acts on.
    pub(super) fn routing_receive(&mut self, node: NodeId, src: Option<MacAddr>, pkt: Packet) {
        let now = self.now;
        let prev = self.prev_hop_ip(src);
        let decided = self.router(node).map(|r| {
            let d = r.handle_receive(now, prev, pkt);
            (r.outputs_before_decision(), d)
        });
        self.routing_drain_decided(node, decided);
    }

    /// A packet for another node that IP forwarding has passed (its TTL decremented, not
    /// zero): the router of `node` chooses its next hop (or buffers, repairs, drops).
    pub(super) fn routing_forward(&mut self, node: NodeId, src: Option<MacAddr>, pkt: Packet) {
        // The router's one receive entry tells transit from local packets by the address.
        self.routing_receive(node, src, pkt);
    }

    /// The IP address of the 802.11 transmitter `src` (unspecified if unknown or over a link).
    fn prev_hop_ip(&self, src: Option<MacAddr>) -> Ipv4Addr {
        src.and_then(|m| self.wifi.addrs.ip_of(m))
            .unwrap_or(Ipv4Addr::UNSPECIFIED)
    }

    /// The MAC of interface `w` overheard `pkt` (a unicast frame for another station, sent
    /// by `src`). Only the node's router sees it, to learn from (DSR's tap): it is not
    /// delivered, captured, traced or counted, and it ends here (the frame's addressee has
    /// its own copy). The router's outputs (a gratuitous reply) are its own packets.
    pub(super) fn routing_overheard(&mut self, w: u32, _src: MacAddr, pkt: Packet) {
        let now = self.now;
        let node = self.wifi.ifaces[w as usize].node;
        let Some(rt) = self.routing.as_mut() else {
            return;
        };
        rt.overheard += 1;
        let Some(r) = self.router(node) else {
            return;
        };
        r.handle_overheard(now, &pkt);
        self.routing_drain(node);
    }

    /// The MAC of interface `w` gave up on `next_hop` with `sdu`.
    pub(super) fn routing_link_failure(&mut self, w: u32, next_hop: MacAddr, sdu: MacSdu) {
        let now = self.now;
        let wifi = &mut *self.wifi;
        let failed = sdu.into_packet();
        // Resolve first: packets taken out of the queue must reach the router.
        let Some(ip) = wifi.addrs.ip_of(next_hop) else {
            let at = self.mac_at(w);
            self.drop_packet(at, &failed, DropReason::MacRetryLimit);
            return;
        };
        let f = &mut wifi.ifaces[w as usize];
        let node = f.node;
        let mut packets = vec![failed];
        packets.extend(
            f.dcf
                .remove_queued_for(next_hop)
                .into_iter()
                .map(MacSdu::into_packet),
        );
        if let Some(r) = self.router(node) {
            r.handle_link_failure(now, ip, packets);
        }
        self.routing_drain(node);
    }

    /// The MAC of interface `w` delivered a unicast frame to `next_hop`.
    pub(super) fn routing_tx_success(&mut self, w: u32, next_hop: MacAddr) {
        let now = self.now;
        let wifi = &*self.wifi;
        let node = wifi.ifaces[w as usize].node;
        let Some(ip) = wifi.addrs.ip_of(next_hop) else {
            return;
        };
        if let Some(r) = self.router(node) {
            r.handle_tx_success(now, ip);
        }
        self.routing_drain(node);
    }

    /// A router's wake-up.
    pub(super) fn routing_timer(&mut self, node: NodeId) {
        let now = self.now;
        let Some(n) = self.nodes.get_mut(node.index()) else {
            return;
        };
        n.router_wake.fired(now);
        if let Some(r) = n.router.as_mut() {
            r.handle_timeout(now);
        }
        self.routing_drain(node);
    }

    /// Puts everything the router of `node` has to do now into effect.
    pub(super) fn routing_drain(&mut self, node: NodeId) {
        self.routing_drain_decided(node, None);
    }

    /// Puts into effect what the router of `node` did: its events, then its outputs in order
    /// with `decided` — the decision for the packet it was just handed, and how many of the
    /// outputs come before it ([`Router::outputs_before_decision`]) — in its place among
    /// them, then whatever those caused.
    fn routing_drain_decided(&mut self, node: NodeId, mut decided: Option<(usize, Decision)>) {
        loop {
            let Some(r) = self.router(node) else {
                return;
            };
            let mut outputs = Vec::new();
            while let Some(o) = r.poll_output() {
                outputs.push(o);
            }
            let mut events = Vec::new();
            while let Some(e) = r.poll_event() {
                events.push(e);
            }
            if outputs.is_empty() && events.is_empty() && decided.is_none() {
                break;
            }
            for e in events {
                self.routing_event(node, e);
            }
            // The decision in its place among the outputs, without splitting the vector.
            let before = decided.as_ref().map_or(0, |(k, _)| *k);
            for (i, o) in outputs.into_iter().enumerate() {
                if i == before {
                    if let Some((_, d)) = decided.take() {
                        self.routing_decision(node, d);
                    }
                }
                self.routing_output(node, o);
            }
            if let Some((_, d)) = decided.take() {
                self.routing_decision(node, d);
            }
        }
        self.routing_schedule(node);
    }

    /// IP acts on a router's decision for the packet it was handed: a packet to forward goes
    /// to the wireless interface, one for this node to the transport, a drop to the flow's
    /// drop record.
    fn routing_decision(&mut self, node: NodeId, d: Decision) {
        match d {
            Decision::Forward {
                next_hop,
                mut packet,
            } => {
                self.routing_out(node, &mut packet);
                self.routing_transmit(node, next_hop, packet, false);
            }
            Decision::Deliver(packet) => self.routing_deliver(node, packet),
            Decision::Drop { packet, reason } => {
                self.drop_packet(TraceAt::ip(node), &packet, reason.into());
            }
            Decision::Buffered | Decision::Consumed => {}
        }
    }

    /// One of a router's own outputs.
    fn routing_output(&mut self, node: NodeId, o: RoutingOutput) {
        match o {
            RoutingOutput::Transmit {
                next_hop,
                mut packet,
                control,
            } => {
                self.routing_out(node, &mut packet);
                self.routing_transmit(node, next_hop, packet, control);
            }
            RoutingOutput::Drop { packet, reason } => {
                self.drop_packet(TraceAt::ip(node), &packet, reason.into());
            }
        }
    }

    /// A router's event: counted, and told to the transports at `node` (`net_events.rs`) in
    /// the same engine event.
    fn routing_event(&mut self, node: NodeId, e: RoutingEvent) {
        let Some(rt) = self.routing.as_mut() else {
            return;
        };
        let ev = match e {
            RoutingEvent::RouteDiscovered { latency, dst } => {
                rt.discovery_latency_sum_s += latency.as_secs_f64();
                rt.discoveries_timed += 1;
                NetEvent::RouteFound { dst }
            }
            RoutingEvent::RouteBroken { dst } => {
                rt.routes_broken += 1;
                NetEvent::RouteBroken { dst }
            }
            RoutingEvent::LinkBroken { next_hop } => NetEvent::LinkBroken { next_hop },
        };
        self.notify(node, &ev);
    }

    fn routing_schedule(&mut self, node: NodeId) {
        let now = self.now;
        let Some(n) = self.nodes.get_mut(node.index()) else {
            return;
        };
        let Some(t) = n.router.as_mut().and_then(|r| r.poll_timeout()) else {
            return;
        };
        let t = t.max(now);
        if n.router_wake.arm(t) {
            self.queue.push(t, Event::RoutingTimer(node));
        }
    }

    /// Hands a router's packet to the wireless interface of `node`.
    fn routing_transmit(&mut self, node: NodeId, next_hop: Ipv4Addr, pkt: Packet, control: bool) {
        let Some(w) = self.nodes[node.index()].wlan else {
            return;
        };
        let wifi = &*self.wifi;
        let Some(mac) = wifi.addrs.resolve(next_hop) else {
            self.nodes[node.index()].ip.no_route_drops += 1;
            self.drop_packet(TraceAt::ip(node), &pkt, DropReason::NoRoute);
            return;
        };
        self.wifi_output(w, mac, pkt, control);
    }

    /// A packet a router handed up: to the transport of `node`.
    fn routing_deliver(&mut self, node: NodeId, pkt: Packet) {
        // Parsed again: a router may hand back other bytes than it got (DSR removes its
        // header).
        let Some(hdr) = super::ip::IpHeader::parse(&pkt.bytes) else {
            self.nodes[node.index()].ip.malformed_drops += 1;
            return;
        };
        self.deliver(node, &hdr, pkt);
    }

    /// One row per node and routing message type; adds the totals to `net`.
    pub(super) fn routing_results(
        &self,
        net: &mut crate::results::NetworkResult,
    ) -> Vec<RoutingResult> {
        let Some(rt) = self.routing.as_ref() else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for node in &self.nodes {
            let Some(r) = &node.router else { continue };
            let c = r.counters();
            net.routing_packets += c.tx_packets();
            net.routing_bytes += c.tx_bytes();
            net.route_discoveries += c.discoveries;
            net.route_discoveries_succeeded += c.discoveries_succeeded;
            net.route_requests += c.requests_originated;
            net.route_errors += c.route_errors_sent;
            net.link_breaks += c.link_breaks;
            net.salvaged += c.salvaged;
            net.routing_malformed += c.malformed;
            let drop = |reason| c.drops.get(&reason).copied().unwrap_or(0);
            net.ttl_drops += drop(RouteDropReason::TtlExpired);
            net.no_route_drops += drop(RouteDropReason::NoRoute);
            net.send_buffer_drops +=
                drop(RouteDropReason::SendBufferFull) + drop(RouteDropReason::SendBufferTimeout);
            net.link_broken_drops += drop(RouteDropReason::LinkBroken);
            let mut types: BTreeMap<&str, (TypeCountResult, TypeCountResult)> = BTreeMap::new();
            for (t, n) in &c.tx {
                types.entry(t).or_default().0 = TypeCountResult::from(*n);
            }
            for (t, n) in &c.rx {
                types.entry(t).or_default().1 = TypeCountResult::from(*n);
            }
            let name = &node.name;
            for (t, (tx, rx)) in types {
                rows.push(RoutingResult {
                    node: name.clone(),
                    protocol: rt.kind.name().to_string(),
                    message: t.to_string(),
                    tx_packets: tx.packets,
                    tx_bytes: tx.bytes,
                    tx_relayed: c.relayed.get(t).copied().unwrap_or(0),
                    rx_packets: rx.packets,
                    rx_bytes: rx.bytes,
                });
            }
        }
        net.routes_broken = rt.routes_broken;
        net.mean_discovery_latency_s = if rt.discoveries_timed == 0 {
            0.0
        } else {
            rt.discovery_latency_sum_s / rt.discoveries_timed as f64
        };
        rows
    }
}
