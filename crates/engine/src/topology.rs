//! From a checked scenario to nodes, interfaces, addresses, links and static routes.

use crate::link::{LinkCounters, LinkDir, ScriptedDrops};
use crate::loss::LossProcess;
use crate::scenario::{Scenario, TransportKind};
use sctpsim_kernel::{FlowId, LinkId, NodeId, SeedTree, SimTime, StreamKey};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::net::Ipv4Addr;

pub use crate::sim::node::{IpCounters, Node};

/// A socket-table key: (IP protocol number, local port, remote address, remote port).
pub type SocketKey = (u8, u16, Ipv4Addr, u16);

/// An interface of a node on a point-to-point link.
#[derive(Clone, Debug)]
pub struct Iface {
    /// Interface name in captures and traces (`eth0`, `eth1`, ... in link order).
    pub name: String,
    /// IPv4 address.
    pub addr: Ipv4Addr,
    /// The link.
    pub link: LinkId,
    /// The direction of that link this interface transmits on (0 forward, 1 reverse).
    pub tx_dir: usize,
    /// A wireless interface: its index in the simulation's wireless channel (`link` and
    /// `tx_dir` are then meaningless). `None`: a point-to-point link interface.
    pub wireless: Option<u32>,
}

/// A full-duplex link: direction 0 is `between[0]` → `between[1]`.
#[derive(Clone, Debug)]
pub struct Link {
    /// The two directions.
    pub dirs: [LinkDir; 2],
}

/// The built network.
#[derive(Debug)]
pub struct Topology {
    /// Nodes in scenario order.
    pub nodes: Vec<Node>,
    /// Links in scenario order.
    pub links: Vec<Link>,
    /// Which node owns each address.
    pub addr_owner: BTreeMap<Ipv4Addr, NodeId>,
}

/// The nodes at either end of an SCTP flow (they get host routes per address).
pub(crate) fn sctp_hosts(s: &Scenario) -> BTreeSet<usize> {
    s.flows
        .iter()
        .filter(|f| f.transport == TransportKind::Sctp)
        .flat_map(|f| [f.src.as_str(), f.dst.as_str()])
        .filter_map(|name| s.node.iter().position(|n| n.name == name))
        .collect()
}

pub(crate) use crate::scenario::addresses::link_default_addr as default_addr;

impl Topology {
    /// Build the network of a checked scenario. Node names and references are known to be valid.
    pub fn build(s: &Scenario, seeds: &SeedTree) -> Topology {
        let index: BTreeMap<&str, usize> = s
            .node
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect();
        let mut nodes: Vec<Node> = s.node.iter().map(|n| Node::new(n.name.clone())).collect();
        let mut links = Vec::with_capacity(s.link.len());
        let mut addr_owner = BTreeMap::new();
        for (k, l) in s.link.iter().enumerate() {
            let ends = [index[l.between[0].as_str()], index[l.between[1].as_str()]];
            let mut iface_idx = [0u32; 2];
            for end in 0..2 {
                let node = &mut nodes[ends[end]];
                let addr = l
                    .addresses
                    .map(|a| a[end])
                    .unwrap_or_else(|| default_addr(k, end));
                iface_idx[end] = node.ifaces.len() as u32;
                node.ifaces.push(Iface {
                    name: format!("eth{}", node.ifaces.len()),
                    addr,
                    link: LinkId(k as u32),
                    tx_dir: end,
                    wireless: None,
                });
                addr_owner.insert(addr, NodeId(ends[end] as u32));
            }
            let make_dir = |d: usize| {
                let from_name = &l.between[d];
                let applies = |from: &Option<String>| from.as_ref().is_none_or(|f| f == from_name);
                let loss = match &l.loss {
                    Some(spec) if applies(&spec.from) => {
                        let key = StreamKey::new("link-loss").with(k as u64).with(d as u64);
                        LossProcess::from_spec(spec, seeds.stream(&key))
                    }
                    _ => LossProcess::None,
                };
                let mut scripted: BTreeMap<FlowId, ScriptedDrops> = BTreeMap::new();
                for drop in l.drops.iter().filter(|x| applies(&x.from)) {
                    scripted
                        .entry(FlowId(drop.flow))
                        .or_default()
                        .ordinals
                        .extend(drop.packets.iter().copied());
                }
                LinkDir {
                    from: NodeId(ends[d] as u32),
                    to: NodeId(ends[1 - d] as u32),
                    to_iface: iface_idx[1 - d],
                    rate: l.bandwidth.0,
                    delay: l.delay.0,
                    limit: l.queue_limit_packets as usize,
                    queue: VecDeque::new(),
                    busy: false,
                    loss,
                    scripted,
                    outages: l
                        .outages
                        .iter()
                        .filter(|o| applies(&o.from))
                        .map(|o| (SimTime::ZERO + o.start.0, SimTime::ZERO + o.end.0))
                        .collect(),
                    counters: LinkCounters::default(),
                }
            };
            links.push(Link {
                dirs: [make_dir(0), make_dir(1)],
            });
        }
        let mut topo = Topology {
            nodes,
            links,
            addr_owner,
        };
        topo.compute_routes();
        // Host routes for the addresses of SCTP endpoints (multi-homing, `compute_addr_routes`).
        topo.compute_addr_routes(&sctp_hosts(s));
        topo
    }

    /// Host routes to the wireless addresses of the `hosts` (ends of SCTP flows), added once
    /// the wireless interfaces exist: every other node with an ad hoc wireless interface sends
    /// a packet for such an address out of that interface (the wireless hop, or its routing
    /// protocol, takes it from there), so that a host with a wired and a wireless address is
    /// reached on each over its own access network. Nodes without a wireless interface keep
    /// their route to the host.
    pub(crate) fn add_wireless_host_routes(&mut self, hosts: &BTreeSet<usize>) {
        let targets: Vec<Ipv4Addr> = hosts
            .iter()
            .filter_map(|&h| self.nodes.get(h))
            .flat_map(|n| n.ifaces.iter().filter(|i| i.wireless.is_some()))
            .map(|i| i.addr)
            .collect();
        if targets.is_empty() {
            return;
        }
        for node in &mut self.nodes {
            let Some(k) = node.ifaces.iter().position(|i| i.wireless.is_some()) else {
                continue;
            };
            for &a in &targets {
                if !node.ifaces.iter().any(|i| i.addr == a) {
                    node.addr_routes.insert(a, k as u32);
                }
            }
        }
    }

    /// Static shortest-path (hop count) routes by breadth-first search from every node. Ties go
    /// to the interface listed first, so routes are a pure function of the scenario.
    fn compute_routes(&mut self) {
        let n = self.nodes.len();
        for src in 0..n {
            // A node without links (a wireless-only node) has no link routes; skipping it keeps
            // large wireless networks from building an n × n table.
            if self.nodes[src].ifaces.is_empty() {
                continue;
            }
            let mut first_hop: Vec<Option<u32>> = vec![None; n];
            let mut seen = vec![false; n];
            seen[src] = true;
            let mut frontier = VecDeque::new();
            for (i, iface) in self.nodes[src].ifaces.iter().enumerate() {
                let peer = self.links[iface.link.index()].dirs[iface.tx_dir].to.index();
                if !seen[peer] {
                    seen[peer] = true;
                    first_hop[peer] = Some(i as u32);
                    frontier.push_back(peer);
                }
            }
            while let Some(u) = frontier.pop_front() {
                for iface in &self.nodes[u].ifaces {
                    let v = self.links[iface.link.index()].dirs[iface.tx_dir].to.index();
                    if !seen[v] {
                        seen[v] = true;
                        first_hop[v] = first_hop[u];
                        frontier.push_back(v);
                    }
                }
            }
            self.nodes[src].routes = first_hop;
        }
    }

    /// Host routes for the addresses of the `hosts` (the ends of SCTP flows). A packet for
    /// address `a` of host `O`, on link `L` whose other end is `P`, reaches `O` over `L`, so
    /// that each address of a multi-homed host is reached over its own access path (as each
    /// address of a real multi-homed host lies in its own provider's subnet). `P` sends it
    /// over `L`; every other node `n` sends it along a shortest path (hops) to `P` that avoids
    /// `O` — the first interface in order whose neighbour is one hop closer to `P`, the same
    /// tie rule as [`Self::compute_routes`]. A node that cannot reach `P` without crossing `O`
    /// keeps its route to the node. For a host with one link this changes nothing (every path
    /// to it ends with that link); the addresses of other nodes (routers) keep node routes.
    fn compute_addr_routes(&mut self, hosts: &BTreeSet<usize>) {
        let n = self.nodes.len();
        // Neighbours over point-to-point links: (node, interface index, neighbour, link).
        let neighbours = |topo: &Topology, u: usize| -> Vec<(u32, usize, LinkId)> {
            topo.nodes[u]
                .ifaces
                .iter()
                .enumerate()
                .filter(|(_, i)| i.wireless.is_none())
                .filter_map(|(k, i)| {
                    let dir = topo.links.get(i.link.index())?.dirs.get(i.tx_dir)?;
                    Some((k as u32, dir.to.index(), i.link))
                })
                .collect()
        };
        let adjacency: Vec<Vec<(u32, usize, LinkId)>> =
            (0..n).map(|u| neighbours(self, u)).collect();
        let mut found: Vec<(usize, Ipv4Addr, u32)> = Vec::new();
        for (owner, adj) in adjacency.iter().enumerate() {
            if !hosts.contains(&owner) {
                continue;
            }
            let wired = self.nodes[owner].ifaces.iter();
            for iface in wired.filter(|i| i.wireless.is_none()) {
                let Some(&(_, peer, _)) = adj.iter().find(|(_, _, l)| *l == iface.link) else {
                    continue;
                };
                // Breadth-first distances to `peer` in the graph without `owner`.
                let mut dist: Vec<Option<u32>> = vec![None; n];
                dist[peer] = Some(0);
                let mut frontier = VecDeque::from([peer]);
                while let Some(u) = frontier.pop_front() {
                    let du = dist[u].unwrap_or(0);
                    for &(_, v, _) in &adjacency[u] {
                        if v != owner && dist[v].is_none() {
                            dist[v] = Some(du + 1);
                            frontier.push_back(v);
                        }
                    }
                }
                for (u, du) in dist.iter().enumerate() {
                    let Some(du) = *du else { continue };
                    let hop = if u == peer {
                        adjacency[u].iter().find(|(_, _, l)| *l == iface.link)
                    } else {
                        adjacency[u]
                            .iter()
                            .find(|(_, v, _)| *v != owner && dist[*v] == Some(du.wrapping_sub(1)))
                    };
                    if let Some(&(k, _, _)) = hop {
                        found.push((u, iface.addr, k));
                    }
                }
            }
        }
        for (u, addr, k) in found {
            self.nodes[u].addr_routes.insert(addr, k);
        }
    }

    /// The outgoing interface of `node` towards `dst` ([`crate::sim::node::route`]).
    pub fn route(&self, node: NodeId, dst: Ipv4Addr) -> Option<u32> {
        crate::sim::node::route(&self.nodes, &self.addr_owner, node, dst)
    }
}
