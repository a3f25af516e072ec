//! How transports hear the network: one typed hook, [`NetEvent`], by which the layers below a
//! transport (routing protocols, the IP layer's addresses, the 802.11 association and its
//! beacons) tell every flow end at a node what changed, in the same engine event in which the
//! layer reported it. Transports that follow the network (A-SCTP on DSR's routes, cSCTP's
//! ASCONF on address and beacon changes, Mobile IP's movement detection) act on it; the others
//! ignore it. Each delivery also writes a `net_event` time-series row at the flow's scope
//! (`dir` = the event's name, value = the side: 0 the flow's source, 1 its destination), except
//! beacon strengths, which `infra.rs` already records per station and beacon.
//!
//! `Node::flows` (built once by `flows_at`) lists the flow ends at each node, so a
//! notification costs the number of flow ends at the node, not the number of flows.

use super::transport::{End, NetView, Slot};
use super::Simulation;
use crate::packet::Packet;
use sctpsim_kernel::{FlowId, NodeId, SimTime};
use std::net::Ipv4Addr;

/// What a transport can hear of the network.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NetEvent {
    /// The node's routing protocol found a route to `dst` (a discovery ended).
    RouteFound {
        /// The destination.
        dst: Ipv4Addr,
    },
    /// The node's route to `dst` broke (detected here or heard in a route error).
    RouteBroken {
        /// The destination.
        dst: Ipv4Addr,
    },
    /// The node's link to the neighbour `next_hop` broke (MAC feedback, lost HELLOs).
    LinkBroken {
        /// The neighbour.
        next_hop: Ipv4Addr,
    },
    /// An address was added to one of the node's interfaces (access-router mobility: an
    /// address acquired from a new access router, `cellular.rs`).
    AddrAdded {
        /// The address.
        addr: Ipv4Addr,
    },
    /// An address was removed from one of the node's interfaces (its access router lost).
    AddrRemoved {
        /// The address.
        addr: Ipv4Addr,
    },
    /// Another held address became the preferred one: its access router's beacons are now the
    /// strongest (by the hysteresis). Sent before the removal of the old address.
    AddrPreferred {
        /// The address.
        addr: Ipv4Addr,
    },
    /// A station associated with the AP at node `ap` (`reassociation`: a handoff), or lost its
    /// association (`ap: None`).
    Association {
        /// The AP's node, if associated.
        ap: Option<NodeId>,
        /// Reached by reassociation from another AP.
        reassociation: bool,
    },
    /// A station heard a beacon of the AP at node `ap`.
    BeaconRssi {
        /// The AP's node.
        ap: NodeId,
        /// Received power, dBm.
        rssi_dbm: f64,
    },
}

impl NetEvent {
    /// Name in results (`dir` of `net_event` rows).
    pub fn name(&self) -> &'static str {
        match self {
            NetEvent::RouteFound { .. } => "route_found",
            NetEvent::RouteBroken { .. } => "route_broken",
            NetEvent::LinkBroken { .. } => "link_broken",
            NetEvent::AddrAdded { .. } => "addr_added",
            NetEvent::AddrRemoved { .. } => "addr_removed",
            NetEvent::AddrPreferred { .. } => "addr_preferred",
            NetEvent::Association { ap: Some(_), .. } => "associated",
            NetEvent::Association { ap: None, .. } => "disassociated",
            NetEvent::BeaconRssi { .. } => "beacon_rssi",
        }
    }
}

/// The flow ends at each node: `(flow, end)`.
pub(super) fn flows_at(
    nodes: usize,
    ends: impl Iterator<Item = (NodeId, NodeId)>,
) -> Vec<Vec<(FlowId, End)>> {
    let mut at = vec![Vec::new(); nodes];
    for (k, (src, dst)) in ends.enumerate() {
        let f = FlowId(k as u32);
        if let Some(v) = at.get_mut(src.index()) {
            v.push((f, End::Src));
        }
        if let Some(v) = at.get_mut(dst.index()) {
            v.push((f, End::Dst));
        }
    }
    at
}

/// The routers as a flow's path manager sees them.
pub(super) struct Routes<'a> {
    nodes: &'a [super::node::Node],
    now: SimTime,
}

impl<'a> Routes<'a> {
    /// The view of the routers of `nodes` at `now`.
    pub(super) fn new(nodes: &'a [super::node::Node], now: SimTime) -> Self {
        Routes { nodes, now }
    }
}

impl NetView for Routes<'_> {
    fn disjoint_routes(&self, node: NodeId, dst: Ipv4Addr, k: usize) -> Vec<Vec<Ipv4Addr>> {
        self.nodes
            .get(node.index())
            .map(|n| super::routing::disjoint_routes(n, self.now, dst, k))
            .unwrap_or_default()
    }

    fn has_route(&self, node: NodeId, route: &[Ipv4Addr]) -> bool {
        self.nodes
            .get(node.index())
            .is_some_and(|n| super::routing::has_route(n, self.now, route))
    }
}

impl Simulation {
    /// Sends a flow's packet from `node` over `route` (one [`NetView::disjoint_routes`] gave):
    /// DSR pins it to the route; any other protocol, or a route no longer usable, routes it
    /// as usual. Without a routing protocol the FIB decides.
    pub(super) fn send_on_route(&mut self, node: NodeId, pkt: Packet, route: &[Ipv4Addr]) {
        if self.routed(node) {
            self.routing_send_on_route(node, pkt, route);
        } else {
            let dst = route.last().copied().unwrap_or(Ipv4Addr::UNSPECIFIED);
            self.ip_output(node, dst, pkt);
        }
    }

    /// Tells every flow end at `node` about `ev`.
    pub(crate) fn notify(&mut self, node: NodeId, ev: &NetEvent) {
        let Some(ends) = self.nodes.get(node.index()).map(|n| &n.flows) else {
            return;
        };
        if ends.is_empty() {
            return;
        }
        let t = self.now.as_secs_f64();
        let view = Routes {
            nodes: &self.nodes,
            now: self.now,
        };
        let mut wake = Vec::new();
        for &(f, side) in ends {
            let Some(flow) = self.flows.get_mut(f.index()) else {
                continue;
            };
            flow.handle_net_event(self.now, side, ev, &view);
            // What the event changed (an A-SCTP switch) may want a wake-up; queued only if
            // earlier than the one already queued, so this costs nothing otherwise.
            if flow
                .poll_timeout(Slot::End(side))
                .is_some_and(|t| t <= self.now)
            {
                wake.push(f);
            }
            let id = flow.ep().spec_index as u32;
            if !matches!(ev, NetEvent::BeaconRssi { .. }) {
                self.series
                    .push(t, "flow", id, ev.name(), "net_event", side.index() as f64);
            }
            // The source's route to the flow's destination: a broken one is the
            // `route_broken` row plots and studies read; found or broken, what a path manager
            // sees then is how many node-disjoint routes (up to 2, A-SCTP's primary and
            // alternate) the source knows.
            let dst = match ev {
                NetEvent::RouteFound { dst } | NetEvent::RouteBroken { dst } => *dst,
                _ => continue,
            };
            if side != End::Src || flow.ep().dst_addr != dst {
                continue;
            }
            if matches!(ev, NetEvent::RouteBroken { .. }) {
                self.series.push(t, "flow", id, "", "route_broken", 1.0);
            }
            let n = view.disjoint_routes(node, dst, 2).len();
            if n > 0 {
                self.series
                    .push(t, "flow", id, "", "disjoint_routes", n as f64);
            }
        }
        for f in wake {
            self.flow_arm(f);
        }
    }
}
