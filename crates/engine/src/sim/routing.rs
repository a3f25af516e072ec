//! Driving the ad hoc routing protocols (`sctpsim_proto::routing`): one [`Router`] per wireless
//! node when `routing.protocol` is `dsr`, `aodv`, `olsr` or `dsdv`.
//!
//! The glue is the contract of `sctpsim_proto::routing` (its module doc):
//! * a packet a node originates ([`Simulation::ip_output`]) goes to its router
//!   (`handle_send`), which routes, buffers or drops it;
//! * every packet the node's MAC delivers enters IP input (`ip.rs::ip_input`) like any other;
//!   packets for the node and broadcasts go to the router (`handle_receive`) with the
//!   transmitter's address, which consumes control traffic or hands them back for delivery;
//!   packets for other nodes go through IP forwarding first (TTL decrement, drop at zero with
//!   ICMP Time Exceeded), then to the router, which only chooses the next hop;
//! * the MAC's link-failure event (`TxFailed` at a retry limit) goes to the router with the
//!   failed packet and every packet still queued for that next hop (taken out of the interface
//!   queue, as ns-2's `Mac802_11` → `PriQueue::filter` hands them to DSR and AODV);
//! * acknowledged unicasts go to `handle_tx_success`;
//! * unicast frames for other stations that the MAC overheard (promiscuous reception, on
//!   only when DSR's tap is) go to `handle_overheard`, and nowhere else;
//! * router outputs: `Transmit` → the interface queue (control traffic ahead of data),
//!   `Deliver` → the transport, `Drop` → the flow's drop record;
//! * the router's deadline is a `RoutingTimer` event (stale wake-ups are no-ops).
//!
//! Random streams: `("routing", node)` for each router (jitter, identifiers).

use super::net_events::NetEvent;
use super::{Event, Simulation};
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::results::{RoutingResult, TypeCountResult};
use crate::scenario::{
    AodvProfileKind, AodvSpec, DsdvSpec, DsrProfileKind, DsrSpec, Duration, OlsrSpec, RoutingKind,
    RoutingSpec, Scenario,
};
use crate::topology::{Node, Topology};
use crate::trace::TraceAt;
use sctpsim_kernel::{NodeId, SeedTree, SimDuration, SimTime, StreamKey};
use sctpsim_proto::mac::{MacAddr, MacSdu};
use sctpsim_proto::routing::{RouteDropReason, Router, RoutingEvent, RoutingOutput};
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

/// A router of the protocol `spec` names at address `addr`, or `None` for static routing.
/// Settings `spec` does not give keep the protocol's defaults (RFC values, ns-2 buffers).
fn make_router(
    spec: &RoutingSpec,
    addr: Ipv4Addr,
    rng: sctpsim_kernel::Rng,
) -> Option<Box<dyn Router>> {
    use sctpsim_proto::routing::{aodv, dsdv, dsr, olsr};
    match spec.protocol {
        RoutingKind::Static => None,
        RoutingKind::Dsr => Some(Box::new(dsr::Dsr::new(
            addr,
            dsr_config(spec.dsr.as_ref()),
            rng,
        ))),
        RoutingKind::Aodv => Some(Box::new(aodv::Aodv::new(
            addr,
            aodv_config(spec.aodv.as_ref()),
            rng,
        ))),
        RoutingKind::Olsr => Some(Box::new(olsr::Olsr::new(
            addr,
            olsr_config(spec.olsr.as_ref()),
            rng,
        ))),
        RoutingKind::Dsdv => Some(Box::new(dsdv::Dsdv::new(
            addr,
            dsdv_config(spec.dsdv.as_ref()),
            rng,
        ))),
    }
}

/// The DSR configuration of `[routing.dsr]`: `DsrConfig::default()` with the fields given.
/// Also what `sctpsim show` reports (`crate::params`).
pub(crate) fn dsr_config(spec: Option<&DsrSpec>) -> sctpsim_proto::routing::dsr::DsrConfig {
    use sctpsim_proto::routing::dsr::DsrConfig;
    let d = |x: Duration| x.0;
    let mut c = match spec.map(|s| s.profile).unwrap_or_default() {
        DsrProfileKind::Rfc4728 => DsrConfig::default(),
        DsrProfileKind::Ns2 => DsrConfig::ns2(),
    };
    if let Some(s) = spec {
        c.reply_from_cache = s.reply_from_cache.unwrap_or(c.reply_from_cache);
        c.nonpropagating_first = s.nonpropagating_first.unwrap_or(c.nonpropagating_first);
        c.route_cache_timeout = s.route_cache_timeout.map_or(c.route_cache_timeout, d);
        c.send_buffer_size = s
            .send_buffer_packets
            .map_or(c.send_buffer_size, |v| v as usize);
        c.send_buffer_timeout = s.send_buffer_timeout.map_or(c.send_buffer_timeout, d);
        c.max_routes_per_dest = s
            .max_routes_per_dest
            .map_or(c.max_routes_per_dest, |v| v as usize);
        c.tap = s.tap.unwrap_or(c.tap);
        c.gratuitous_replies = s.gratuitous_replies.unwrap_or(c.gratuitous_replies);
        c.grat_hold_down = s.grat_hold_down.map_or(c.grat_hold_down, d);
        c.propagate_last_error = s.propagate_last_error.unwrap_or(c.propagate_last_error);
        c.max_err_hold = s.max_err_hold.map_or(c.max_err_hold, d);
        c.ns2_request_backoff = s.ns2_request_backoff.unwrap_or(c.ns2_request_backoff);
        c.salvage = s.salvage.unwrap_or(c.salvage);
        if !c.tap && s.gratuitous_replies.is_none() {
            // Gratuitous replies come from overheard packets: a profile's replies go with
            // its tap (`profile = "ns2"` with `tap = false` sends none).
            c.gratuitous_replies = false;
        }
    }
    c
}

/// The AODV configuration of `[routing.aodv]`: `AodvConfig::default()` with the fields given.
pub(crate) fn aodv_config(spec: Option<&AodvSpec>) -> sctpsim_proto::routing::aodv::AodvConfig {
    use sctpsim_proto::routing::aodv::AodvConfig;
    let d = |x: Duration| x.0;
    let mut c = match spec.map(|s| s.profile).unwrap_or_default() {
        AodvProfileKind::Rfc3561 => AodvConfig::default(),
        AodvProfileKind::Ns2 => AodvConfig::ns2(),
    };
    if let Some(s) = spec {
        c.hello_enabled = s.hello.unwrap_or(c.hello_enabled);
        c.hello_interval = s.hello_interval.map_or(c.hello_interval, d);
        c.local_repair = s.local_repair.unwrap_or(c.local_repair);
        c.expanding_ring = s.expanding_ring.unwrap_or(c.expanding_ring);
        c.active_route_timeout = s.active_route_timeout.map_or(c.active_route_timeout, d);
        c.send_buffer_capacity = s
            .send_buffer_packets
            .map_or(c.send_buffer_capacity, |v| v as usize);
        c.send_buffer_timeout = s.send_buffer_timeout.map_or(c.send_buffer_timeout, d);
        if let Some(t) = s.my_route_timeout {
            c.fixed_my_route_timeout = Some(t.0);
        }
        if let Some(t) = s.rreq_id_hold {
            c.fixed_path_discovery_time = Some(t.0);
        }
        c.rreq_retries = s.rreq_retries.unwrap_or(c.rreq_retries);
        c.ttl_start = s.ttl_start.unwrap_or(c.ttl_start);
        c.net_diameter = s.net_diameter.unwrap_or(c.net_diameter);
        c.node_traversal_time = s.node_traversal_time.map_or(c.node_traversal_time, d);
        c.ns2_local_repair = s.ns2_local_repair.unwrap_or(c.ns2_local_repair);
        c.rebuffer_on_link_failure = s
            .rebuffer_on_link_failure
            .unwrap_or(c.rebuffer_on_link_failure);
    }
    c
}

/// Whether the routers of scenario `s` listen promiscuously: DSR with its tap on (the MAC
/// then reports overheard unicast frames, which go to [`Router::handle_overheard`]).
pub(crate) fn wants_promiscuous(s: &Scenario) -> bool {
    s.routing
        .as_ref()
        .is_some_and(|r| r.protocol == RoutingKind::Dsr && dsr_config(r.dsr.as_ref()).tap)
}

/// The OLSR configuration of `[routing.olsr]`: `OlsrConfig::default()` with the fields given
/// (the hold times and the jitter follow their intervals, RFC 3626 §18.3, §18.2).
pub(crate) fn olsr_config(spec: Option<&OlsrSpec>) -> sctpsim_proto::routing::olsr::OlsrConfig {
    let mut c = sctpsim_proto::routing::olsr::OlsrConfig::default();
    if let Some(s) = spec {
        if let Some(h) = s.hello_interval {
            c.hello_interval = h.0;
            c.refresh_interval = h.0;
            c.neighb_hold_time = h.0.saturating_mul(3);
            c.max_jitter = SimDuration(h.0 .0 / 4);
        }
        if let Some(t) = s.tc_interval {
            c.tc_interval = t.0;
            c.top_hold_time = t.0.saturating_mul(3);
        }
        c.link_layer_notification = s
            .link_layer_notification
            .unwrap_or(c.link_layer_notification);
        c.willingness = s.willingness.unwrap_or(c.willingness);
    }
    c
}

/// The DSDV configuration of `[routing.dsdv]`: `DsdvConfig::default()` (ns-3 3.44's
/// attributes) with the fields given.
pub(crate) fn dsdv_config(spec: Option<&DsdvSpec>) -> sctpsim_proto::routing::dsdv::DsdvConfig {
    let mut c = sctpsim_proto::routing::dsdv::DsdvConfig::default();
    let d = |x: Duration| x.0;
    if let Some(s) = spec {
        c.periodic_update_interval = s
            .periodic_update_interval
            .map_or(c.periodic_update_interval, d);
        c.settling_time = s.settling_time.map_or(c.settling_time, d);
        c.holdtimes = s.holdtimes.unwrap_or(c.holdtimes);
        c.weighted_factor = s.weighted_factor.unwrap_or(c.weighted_factor);
        c.weighted_settling = s.weighted_settling.unwrap_or(c.weighted_settling);
        c.buffering = s.buffering.unwrap_or(c.buffering);
        c.send_buffer_packets = s
            .send_buffer_packets
            .map_or(c.send_buffer_packets, |v| v as usize);
        c.send_buffer_packets_per_dst = s
            .send_buffer_packets_per_dst
            .map_or(c.send_buffer_packets_per_dst, |v| v as usize);
        c.send_buffer_timeout = s.send_buffer_timeout.map_or(c.send_buffer_timeout, d);
        c.route_aggregation = s.route_aggregation.unwrap_or(c.route_aggregation);
        c.route_aggregation_time = s.route_aggregation_time.map_or(c.route_aggregation_time, d);
        c.link_layer_feedback = s.link_layer_feedback.unwrap_or(c.link_layer_feedback);
    }
    c
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

    /// A packet `node` originates.
    pub(super) fn routing_send(&mut self, node: NodeId, pkt: Packet) {
        let now = self.now;
        if let Some(r) = self.router(node) {
            r.handle_send(now, pkt);
        }
        self.routing_drain(node);
    }

    /// A packet for `node` (or a broadcast) that IP input hands to its router, sent by MAC
    /// `src`: the router consumes its control traffic and hands the rest back to deliver.
    pub(super) fn routing_receive(&mut self, node: NodeId, src: Option<MacAddr>, pkt: Packet) {
        let now = self.now;
        let prev = self.prev_hop_ip(src);
        if let Some(r) = self.router(node) {
            r.handle_receive(now, prev, pkt);
        }
        self.routing_drain(node);
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
            if outputs.is_empty() && events.is_empty() {
                break;
            }
            for e in events {
                self.routing_event(node, e);
            }
            for o in outputs {
                match o {
                    RoutingOutput::Transmit {
                        next_hop,
                        mut packet,
                        control,
                    } => {
                        self.routing_out(node, &mut packet);
                        self.routing_transmit(node, next_hop, packet, control);
                    }
                    RoutingOutput::Deliver { packet } => self.routing_deliver(node, packet),
                    RoutingOutput::Drop { packet, reason } => {
                        self.drop_packet(TraceAt::ip(node), &packet, reason.into());
                    }
                }
            }
        }
        self.routing_schedule(node);
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
