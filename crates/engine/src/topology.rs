//! From a checked scenario to nodes, interfaces, addresses, links and static routes.

use crate::link::{LinkCounters, LinkDir, ScriptedDrops};
use crate::loss::LossProcess;
use crate::scenario::Scenario;
use sctpsim_kernel::{FlowId, LinkId, NodeId, SeedTree, StreamKey};
use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

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
}

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
    /// ICMP messages received.
    pub icmp_received: u64,
}

/// A node: interfaces, a static routing table and UDP demultiplexing.
#[derive(Clone, Debug)]
pub struct Node {
    /// Scenario name.
    pub name: String,
    /// Interfaces in link order.
    pub ifaces: Vec<Iface>,
    /// Outgoing interface towards each node (`routes[dst]`), `None` if unreachable or self.
    pub routes: Vec<Option<u32>>,
    /// IPv4 Identification of the next packet this node originates (RFC 6864: per source).
    pub next_ip_id: u16,
    /// Connected UDP sockets: (local port, remote address, remote port) → flow.
    pub udp_sockets: BTreeMap<(u16, Ipv4Addr, u16), FlowId>,
    /// TCP connections: (local port, remote address, remote port) → (flow, side: 0 client,
    /// 1 server).
    pub tcp_sockets: BTreeMap<(u16, Ipv4Addr, u16), (FlowId, u8)>,
    /// IP-layer counters.
    pub ip: IpCounters,
}

impl Node {
    /// The node's primary address (its first interface), the address flows use.
    pub fn primary_addr(&self) -> Option<Ipv4Addr> {
        self.ifaces.first().map(|i| i.addr)
    }

    /// Whether `addr` is one of this node's addresses.
    pub fn owns(&self, addr: Ipv4Addr) -> bool {
        self.ifaces.iter().any(|i| i.addr == addr)
    }
}

/// A full-duplex link: direction 0 is `between[0]` → `between[1]`.
#[derive(Clone, Debug)]
pub struct Link {
    /// The two directions.
    pub dirs: [LinkDir; 2],
}

/// The built network.
#[derive(Clone, Debug)]
pub struct Topology {
    /// Nodes in scenario order.
    pub nodes: Vec<Node>,
    /// Links in scenario order.
    pub links: Vec<Link>,
    /// Which node owns each address.
    pub addr_owner: BTreeMap<Ipv4Addr, NodeId>,
}

/// The default address of end `end` (0 or 1) of link `k`: 10.(k/256).(k%256).(end+1).
fn default_addr(k: usize, end: usize) -> Ipv4Addr {
    Ipv4Addr::new(10, ((k >> 8) & 0xFF) as u8, (k & 0xFF) as u8, end as u8 + 1)
}

impl Topology {
    /// Build the network of a checked scenario. Node names and references are known to be valid.
    pub fn build(s: &Scenario, seeds: &SeedTree) -> Topology {
        let index: BTreeMap<&str, usize> = s
            .node
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect();
        let mut nodes: Vec<Node> = s
            .node
            .iter()
            .map(|n| Node {
                name: n.name.clone(),
                ifaces: Vec::new(),
                routes: Vec::new(),
                next_ip_id: 0,
                udp_sockets: BTreeMap::new(),
                tcp_sockets: BTreeMap::new(),
                ip: IpCounters::default(),
            })
            .collect();
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
        topo
    }

    /// Static shortest-path (hop count) routes by breadth-first search from every node. Ties go
    /// to the interface listed first, so routes are a pure function of the scenario.
    fn compute_routes(&mut self) {
        let n = self.nodes.len();
        for src in 0..n {
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

    /// The outgoing interface of `node` towards the owner of `dst`.
    pub fn route(&self, node: NodeId, dst: Ipv4Addr) -> Option<u32> {
        let owner = self.addr_owner.get(&dst)?;
        self.nodes[node.index()]
            .routes
            .get(owner.index())
            .copied()
            .flatten()
    }
}
