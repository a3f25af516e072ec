//! A node's mobility agent (issue 37: "a node that owns ... optionally, a router and a
//! mobility agent"): the node's role in Mobile IP or in access-router mobility, and the
//! wake-up of it already queued.
//!
//! A node has at most one role: the Mobile IP agents and mobile nodes (`mobileip.rs`) and the
//! access routers and cellular mobiles (`cellular.rs`) each own the wireless hop, and
//! `scenario/route_layers.rs` allows one owner per scenario. The role's state is defined with
//! its protocol; what is network-wide (configuration, address → node maps, the `handoffs`
//! rows, counters) stays in `Simulation`'s `mip` and `cell`.
//!
//! [`Node::mobility`](super::node::Node::mobility) is one pointer (`None` for every node
//! without a role): `Node` is read for every packet, and the roles are large (an agent's
//! binding and visitor lists, a mobile's views of its access routers).
//!
//! The protocols' entry points on the packet path (`mip_heard`, `mip_icmp`, `mip_udp`,
//! `mip_decapsulate`, `mip_link_failure`, `mip_count_drop`, `cell_heard`, `cell_local`,
//! `cell_count_drop`) are `#[inline(never)]`: every scenario without the protocol skips them
//! behind an `Option` test, and inlined into `ip_input` and its neighbours they made those too
//! large for the IPv4 header parse to be inlined (cachegrind, manet-cbr with 20 pairs: 1,400.5 M
//! instructions with them inlined, 1,399.2 M without; 1,400.0 M before `Node::mobility`).

use super::cellular;
use super::mobileip::MobileState;
use super::node::Node;
use super::Simulation;
use sctpsim_kernel::{NodeId, WakeSlot};
use sctpsim_proto::mobileip::MobilityAgent;

/// A node's mobility agent: its role and its wake-up slot.
#[derive(Debug)]
pub(super) struct Mobility {
    /// What the node is to the mobility protocol.
    pub(super) role: Role,
    /// The role's earliest wake-up already queued (`Event::MobilityTimer`).
    pub(super) wake: WakeSlot,
}

/// The role of a node in the mobility protocol of its scenario.
///
/// The variants differ in size (a Mobile IP mobile node is the largest); the enum lives only
/// in the one `Box<Mobility>` of a node that has a role, so boxing a variant as well would
/// add a second allocation and indirection for no memory a run would notice.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(super) enum Role {
    /// A Mobile IP home and/or foreign agent (RFC 5944 §3.8).
    MipAgent(MobilityAgent),
    /// A Mobile IP mobile node, with what the engine keeps for the handoffs table.
    MipMobile(MobileState),
    /// An access router (Aydin & Shen 2005 §II.A).
    AccessRouter(cellular::Router),
    /// A mobile of access-router mobility.
    CellMobile(cellular::Mobile),
}

impl Mobility {
    /// A role with no wake-up queued yet.
    pub(super) fn new(role: Role) -> Box<Mobility> {
        Box::new(Mobility {
            role,
            wake: WakeSlot::default(),
        })
    }
}

/// The mobility agent of `node`, if it has one.
pub(super) fn agent_of(nodes: &[Node], node: NodeId) -> Option<&Mobility> {
    nodes.get(node.index())?.mobility.as_deref()
}

/// The mobility agent of `node`, if it has one, to change.
pub(super) fn agent_of_mut(nodes: &mut [Node], node: NodeId) -> Option<&mut Mobility> {
    nodes.get_mut(node.index())?.mobility.as_deref_mut()
}

impl Simulation {
    /// A mobility wake-up of `node` may have come: its role's protocol handles it.
    pub(super) fn mobility_timer(&mut self, node: NodeId) {
        match agent_of(&self.nodes, node).map(|m| &m.role) {
            Some(Role::MipAgent(_) | Role::MipMobile(_)) => self.mip_timer(node),
            Some(Role::AccessRouter(_) | Role::CellMobile(_)) => self.cell_timer(node),
            None => {}
        }
    }
}
