//! The IP layer's one next-hop decision (the FIB): every output path — a transport's packet, a
//! forwarded packet, an ICMP error, an infrastructure station's uplink, later a tunnel — asks
//! [`Simulation::fib`], and source-address selection reads the same table (the host routes,
//! `node::route`). Forwarding itself (TTL, ICMP Time Exceeded, drop reasons) is
//! `ip.rs::ip_forward`, for routed nodes too; the link, the wireless interface and the router
//! are only told where the packet goes.
//!
//! The decision asks the node's **route layers** in order; the first that claims the packet
//! decides, and a layer that does not manage the packet passes it on:
//! 1. **Access-router mobility** (`cellular.rs::cell_layer`): a mobile's packets go to the
//!    access router whose subnet their source address is in; packets to a mobile's cellular
//!    address go to the access router that gave it. The only layer that reads the source.
//! 2. **Mobile IP** (`mobileip.rs::mip_layer`): a mobile node sends through its agent; packets
//!    to a home address go to the home agent, which tunnels them or sends them on its cell.
//! 3. **Host routes** (`Node::addr_routes`): each address of a multi-homed SCTP end is reached
//!    over its own access network — its link, or for a wireless address the node's wireless
//!    interface (`Topology::add_wireless_host_routes`). A host route to a wireless interface
//!    goes to the node's ad hoc routing protocol if it runs one, else to the static wireless
//!    next hop (wireless hops only).
//! 4. **Infrastructure mode**: a station sends to its AP; a node on the wired side sends a
//!    station's packet towards the AP serving it (`infra.rs`).
//! 5. **Ad hoc routing protocol** (DSR, AODV, OLSR, DSDV): the router routes, buffers while it
//!    discovers, or drops. Routers forward the transit packets they receive themselves: DSR
//!    rewrites a source route in the packet and salvages, AODV repairs locally — decisions that
//!    need the packet, not only its destination (ns-3's RouteInput, which forwards by callback,
//!    is the same split). They never touch the TTL: IP forwarding decremented it before they got
//!    the packet.
//! 6. **Static routes**: shortest paths over links, and over wireless neighbours at t = 0
//!    where no layer owns the wireless hop (`wireless/routing.rs`).
//!
//! Layers 1, 2, 4 and 5 each own the wireless hop, so a scenario has at most one of them: the
//! one rule in `scenario/route_layers.rs`, which also makes static routes use the links only
//! where one of 1, 2 or 4 owns the hop. Host routes and static link routes combine with any.

use super::Simulation;
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::scenario::schema::WifiRoleKind;
use crate::trace::TraceAt;
use sctpsim_kernel::NodeId;
use sctpsim_proto::mac::{MacAddr, MacSdu};
use std::net::Ipv4Addr;

/// Where a packet leaves a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Hop {
    /// Out of point-to-point interface `iface` of the node.
    Link(u32),
    /// Out of wireless interface `w` (index in the channel) to MAC address `da`.
    Wifi(u32, MacAddr),
    /// To the node's ad hoc routing protocol.
    Router,
    /// Mobile IP: a home agent encapsulates towards this care-of address (`mobileip.rs`).
    Tunnel(Ipv4Addr),
}

/// Why a node has no next hop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum NoHop {
    /// No route.
    NoRoute,
    /// A station (or a station's AP side) with no association; counted at wireless interface
    /// `w`.
    Unassociated(u32),
    /// A Mobile IP mobile node attached to no agent, or a cellular mobile holding no address
    /// for the packet's source.
    NoAgent,
}

/// Out of wireless interface `w` to the neighbour node `next`, whose own interface holds its
/// MAC address.
fn neighbour(
    wifi: &crate::wireless::Wireless,
    nodes: &[super::node::Node],
    w: u32,
    next: u32,
) -> Result<Hop, NoHop> {
    nodes
        .get(next as usize)
        .and_then(|n| n.wlan)
        .map(|nw| Hop::Wifi(w, wifi.ifaces[nw as usize].mac))
        .ok_or(NoHop::NoRoute)
}

impl Simulation {
    /// The static route of `node` towards `dst` over links ([`super::node::route`]).
    pub(super) fn static_route(&self, node: NodeId, dst: Ipv4Addr) -> Option<u32> {
        super::node::route(&self.nodes, &self.addr_owner, node, dst)
    }

    /// The next hop of a packet from `node` with source `src` to `dst`: the route layers in
    /// order (module doc); the first that claims the packet decides.
    pub(super) fn fib(
        &mut self,
        node: NodeId,
        dst: Ipv4Addr,
        src: Option<Ipv4Addr>,
    ) -> Result<Hop, NoHop> {
        if let Some(hop) = self.cell_layer(node, src, dst) {
            return hop;
        }
        if let Some(hop) = self.mip_layer(node, dst) {
            return hop;
        }
        let n = &self.nodes[node.index()];
        if let Some(&k) = n.addr_routes.get(&dst) {
            return match n.ifaces.get(k as usize).and_then(|i| i.wireless) {
                None => Ok(Hop::Link(k)),
                Some(_) if self.routed(node) => Ok(Hop::Router),
                Some(w) => self.air_hop(node, w, dst),
            };
        }
        if let Some(hop) = self.infra_hop(node, dst) {
            return hop;
        }
        if self.routed(node) {
            return Ok(Hop::Router);
        }
        if self.wifi.is_empty() {
            return self
                .static_route(node, dst)
                .map(Hop::Link)
                .ok_or(NoHop::NoRoute);
        }
        let wifi = &mut *self.wifi;
        let owner = self.addr_owner.get(&dst).ok_or(NoHop::NoRoute)?;
        let (iface, next) = wifi
            .routes
            .lookup(&self.nodes, &self.links, node.0, owner.0)
            .ok_or(NoHop::NoRoute)?;
        match self.nodes[node.index()].ifaces[iface as usize].wireless {
            None => Ok(Hop::Link(iface)),
            Some(w) => neighbour(wifi, &self.nodes, w, next),
        }
    }

    /// [`Simulation::fib`] for packet `pkt`. Only access-router mobility chooses by source
    /// address, so the header is read only in a scenario that has it.
    pub(super) fn fib_for(
        &mut self,
        node: NodeId,
        dst: Ipv4Addr,
        pkt: &Packet,
    ) -> Result<Hop, NoHop> {
        let src = if self.cell.is_some() {
            sctpsim_wire::ipv4::Ipv4Packet::new_checked(&pkt.bytes[..])
                .ok()
                .map(|ip| ip.src_addr())
        } else {
            None
        };
        self.fib(node, dst, src)
    }

    /// The static next hop over wireless hops only, out of interface `w`.
    fn air_hop(&mut self, node: NodeId, w: u32, dst: Ipv4Addr) -> Result<Hop, NoHop> {
        let owner = *self.addr_owner.get(&dst).ok_or(NoHop::NoRoute)?;
        let wifi = &mut *self.wifi;
        let (_, next) = wifi
            .routes
            .lookup_air(&self.nodes, &self.links, node.0, owner.0)
            .ok_or(NoHop::NoRoute)?;
        neighbour(wifi, &self.nodes, w, next)
    }

    /// The next hop in an infrastructure network, or `None` when it is not an infrastructure
    /// case (neither end is a station).
    fn infra_hop(&mut self, node: NodeId, dst: Ipv4Addr) -> Option<Result<Hop, NoHop>> {
        let wifi = &mut *self.wifi;
        let infra = wifi.infra.as_ref()?;
        let owner = self.addr_owner.get(&dst).copied()?;
        if owner == node {
            return None;
        }
        let nodes = &self.nodes;
        let role_of = |n: u32| {
            let w = nodes.get(n as usize)?.wlan?;
            Some((w, infra.role(w)))
        };
        // A station: over a link if one leads there, else to its AP.
        if let Some((w, WifiRoleKind::Sta)) = role_of(node.0) {
            if let Some((iface, _)) = wifi
                .routes
                .lookup(&self.nodes, &self.links, node.0, owner.0)
            {
                return Some(Ok(Hop::Link(iface)));
            }
            let Some(bssid) = wifi.ifaces[w as usize].dcf.bssid() else {
                return Some(Err(NoHop::Unassociated(w)));
            };
            let da = wifi.addrs.resolve(dst).unwrap_or(bssid);
            return Some(Ok(Hop::Wifi(w, da)));
        }
        // For a station: to the AP serving it.
        let (sw, WifiRoleKind::Sta) = role_of(owner.0)? else {
            return None;
        };
        let Some(&ap) = infra.serving.get(&owner.0) else {
            return Some(Err(NoHop::Unassociated(sw)));
        };
        if ap == node.0 {
            let hop = match (role_of(ap).map(|x| x.0), wifi.addrs.resolve(dst)) {
                (Some(aw), Some(mac)) => Ok(Hop::Wifi(aw, mac)),
                _ => Err(NoHop::NoRoute),
            };
            return Some(hop);
        }
        Some(
            match wifi.routes.lookup(&self.nodes, &self.links, node.0, ap) {
                Some((iface, _)) => Ok(Hop::Link(iface)),
                None => Err(NoHop::NoRoute),
            },
        )
    }

    /// Sends `pkt` from `node` by `hop`.
    pub(super) fn send_via(&mut self, node: NodeId, hop: Hop, pkt: Packet) {
        match hop {
            Hop::Link(iface) => self.link_output(node, iface, pkt),
            Hop::Wifi(w, da) => self.wifi_output(w, da, pkt, false),
            Hop::Router => self.routing_send(node, pkt),
            Hop::Tunnel(coa) => self.mip_tunnel(node, coa, pkt),
        }
    }

    /// A packet `node` cannot send: counted where the reason belongs, and dropped.
    pub(super) fn no_hop(&mut self, node: NodeId, why: NoHop, pkt: &Packet) {
        match why {
            NoHop::NoRoute => {
                self.nodes[node.index()].ip.no_route_drops += 1;
                self.drop_packet(TraceAt::ip(node), pkt, DropReason::NoRoute);
            }
            NoHop::Unassociated(w) => {
                if let Some(i) = self.wifi.infra.as_mut() {
                    if let Some(c) = i.counts.get_mut(w as usize) {
                        c.unassociated_drops += 1;
                    }
                }
                self.drop_packet(TraceAt::ip(node), pkt, DropReason::Unassociated);
            }
            NoHop::NoAgent => self.drop_packet(TraceAt::ip(node), pkt, DropReason::NoAgent),
        }
    }

    /// Queues `pkt` at the MAC of wireless interface `w` for `da` (routing control ahead of
    /// data).
    pub(super) fn wifi_output(&mut self, w: u32, da: MacAddr, pkt: Packet, control: bool) {
        let now = self.now;
        if self.tracing() {
            self.trace_mac_enqueue(w, &pkt, control);
        }
        let wifi = &mut *self.wifi;
        wifi.ifaces[w as usize].dcf.enqueue(
            now,
            MacSdu {
                dst: da,
                bytes: pkt.bytes,
                is_control: control,
                tag: pkt.tag,
            },
        );
        self.wifi_pump(w);
    }
}
