//! A node: one object holding everything that is per node — its IPv4 stack (interfaces, the
//! FIB's static and host routes, the socket table, the IP counters and Identification), which
//! 802.11 interface it has, its ad hoc router and the router's wake-up slot, its mobility agent
//! (a Mobile IP or access-router role and its wake-up slot, `mobility.rs`), and the flow ends
//! it holds (issue 37: "a node is one object").
//!
//! The [`super::Simulation`] keeps the world (event queue, channel, links) and `nodes:
//! Vec<Node>`; the per-node vectors it used to keep beside the topology (the routers and their
//! wake slots, `by_node`, `flows_at`, the Mobile IP roles and the access routers and mobiles
//! with their wake slots) live here, so that a node's state is found in one place and a wired
//! node visibly has no router, no wireless interface and no mobility agent (`None`), not a
//! missing entry in some other vector. What a mobility protocol knows of the whole network
//! (address maps, handoffs rows, counters) stays in `Simulation`'s `mip` and `cell`.
//!
//! # A node's stack
//!
//! ```text
//!   link iface (Arrive)   802.11 iface (MAC Delivered)
//!            \                 /
//!             `--> ip_input <-'      parse the IPv4 header once (`ip.rs`)
//!                   |     \
//!        for us /bcast     not for us
//!                   |          \
//!      [router: control?]    ip_forward: TTL - 1 (the only place); 0 -> drop + ICMP Time
//!                   |          \            Exceeded; else FIB / router chooses next hop
//!                 deliver       send_via -> link / MAC / router
//!                   |
//!            sockets / ICMP / mobility agent (`Node::mobility`: Mobile IP agent or mobile
//!                                             node, access router or cellular mobile)
//! ```

use super::mobility::Mobility;
use super::transport::End;
use crate::topology::{Iface, SocketKey};
use sctpsim_kernel::{FlowId, NodeId, WakeSlot};
use sctpsim_proto::routing::Router;
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// Counters of a node's IP layer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IpCounters {
    /// Packets forwarded.
    pub forwarded: u64,
    /// Packets dropped because the TTL ran out.
    pub ttl_drops: u64,
    /// Packets dropped for lack of a route.
    pub no_route_drops: u64,
    /// Packets dropped because a header or checksum was bad.
    pub malformed_drops: u64,
    /// Datagrams for a port nobody listens on.
    pub port_unreachable: u64,
    /// ICMP messages sent.
    pub icmp_sent: u64,
    /// ICMP Time Exceeded messages sent (RFC 792; also counted in `icmp_sent`).
    pub icmp_time_exceeded_sent: u64,
    /// ICMP messages received.
    pub icmp_received: u64,
}

/// A node: its IPv4 stack, its interfaces, its router, its flow ends.
#[derive(Debug)]
pub struct Node {
    /// Scenario name.
    pub name: String,
    /// Interfaces in link order, then the wireless one.
    pub ifaces: Vec<Iface>,
    /// Outgoing interface towards each node (`routes[dst]`), `None` if unreachable or self.
    pub routes: Vec<Option<u32>>,
    /// Host routes: the outgoing interface towards each address of another node, over the
    /// link that address belongs to (see [`route`]); consulted before `routes`.
    pub addr_routes: BTreeMap<Ipv4Addr, u32>,
    /// IPv4 Identification of the next packet this node originates (RFC 6864: per source).
    pub next_ip_id: u16,
    /// The socket table: (IP protocol number, local port, remote address, remote port) →
    /// (flow, end: 0 the flow's source, 1 its destination). A multi-homed SCTP end has one
    /// entry per address of its peer.
    pub sockets: BTreeMap<SocketKey, (FlowId, End)>,
    /// IP-layer counters.
    pub ip: IpCounters,
    /// Its 802.11 interface: the index in the wireless channel (`None`: no wireless
    /// interface).
    pub wlan: Option<u32>,
    /// Its ad hoc routing protocol (`None`: static routing, or no wireless interface).
    pub router: Option<Box<dyn Router>>,
    /// The router's earliest wake-up already queued.
    pub router_wake: WakeSlot,
    /// Its mobility agent (`mobility.rs`): its Mobile IP or access-router role and that
    /// role's wake-up slot (`None`: no role). One pointer, so that the nodes without a role
    /// (every node of most scenarios) pay eight bytes on the packet path.
    pub(super) mobility: Option<Box<Mobility>>,
    /// The flow ends at this node: (flow, end) (`net_events.rs`).
    pub flows: Vec<(FlowId, End)>,
}

impl Node {
    /// A node named `name` with no interface yet.
    pub fn new(name: String) -> Node {
        Node {
            name,
            ifaces: Vec::new(),
            routes: Vec::new(),
            addr_routes: BTreeMap::new(),
            next_ip_id: 0,
            sockets: BTreeMap::new(),
            ip: IpCounters::default(),
            wlan: None,
            router: None,
            router_wake: WakeSlot::default(),
            mobility: None,
            flows: Vec::new(),
        }
    }

    /// The node's primary address (its first interface), the address flows use.
    pub fn primary_addr(&self) -> Option<Ipv4Addr> {
        self.ifaces.first().map(|i| i.addr)
    }

    /// The IPv4 Identification of the next packet this node originates (RFC 6864: unique per
    /// source; wraps).
    pub fn next_ident(&mut self) -> u16 {
        let id = self.next_ip_id;
        self.next_ip_id = self.next_ip_id.wrapping_add(1);
        id
    }

    /// Whether `addr` is one of this node's addresses.
    pub fn owns(&self, addr: Ipv4Addr) -> bool {
        self.ifaces.iter().any(|i| i.addr == addr)
    }
}

/// The outgoing interface of `node` towards `dst`: its host route if it has one (over the
/// link `dst` belongs to), else its route towards the owner of `dst`.
pub fn route(
    nodes: &[Node],
    addr_owner: &BTreeMap<Ipv4Addr, NodeId>,
    node: NodeId,
    dst: Ipv4Addr,
) -> Option<u32> {
    let n = nodes.get(node.index())?;
    if let Some(&k) = n.addr_routes.get(&dst) {
        return Some(k);
    }
    let owner = addr_owner.get(&dst)?;
    n.routes.get(owner.index()).copied().flatten()
}
