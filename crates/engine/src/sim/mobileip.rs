//! Driving Mobile IPv4 (RFC 5944; `sctpsim_proto::mobileip`, `docs/models/mobileip.md`): the
//! agents' and mobile nodes' timers and signalling, the IP layer's Mobile IP decisions and the
//! `handoffs` table.
//!
//! # Per node and network-wide
//!
//! An agent ([`MobilityAgent`]) or a mobile node ([`MobileState`]: the protocol's
//! [`MobileNode`] and what the engine keeps of its handovers) is its node's mobility agent
//! (`Node::mobility`, `mobility.rs`), with the wake slot of its timers. [`MipRt`], in the
//! `Simulation`, holds what belongs to no one node: which node has each home address (and
//! which its home agent is) and each agent's cell address, the times of drops and tunnelled
//! packets, the finished `handoffs` rows and the tunnel counters.
//!
//! # Where packets go
//!
//! * **Signalling**: advertisements are 802.11 broadcasts on the agent's cell (TTL 1);
//!   registration requests go from the mobile node to the agent's cell address, are relayed by
//!   a foreign agent to the home agent over the wired network, and the reply comes back the
//!   same way; the foreign agent hands it to the visitor on its cell (RFC 5944 §3.7.2.3).
//! * **To a mobile node** (its home address): every node routes towards the home agent over the
//!   links. The home agent sends the packet on its own cell if the node has no binding (it is
//!   at home), else encapsulates it (RFC 2003, outer source its cell address, outer destination
//!   the care-of address: RFC 5944 §4.2.3) and routes the tunnel packet to the foreign agent,
//!   which decapsulates it and delivers it to the visitor on its cell (§4.2.2).
//! * **From a mobile node**: triangle routing (§4.2.1): every packet goes to the MAC address
//!   of the agent it is attached to, which forwards it as any router; packets to an agent's
//!   own cell address go straight to that agent. A detached mobile node drops its packets
//!   (`no_agent`).
//! * **Everything else** in a Mobile IP scenario follows the links' static routes (a mobile
//!   node is never a relay between two cells).
//!
//! # The handoffs table
//!
//! A handover starts when a mobile node's attachment moves away from an agent; its row is
//! written when the first packet of a flow reaches the mobile node through the new agent (or
//! at the end of the run). `link_lost_s` is the last frame the mobile node received from the
//! old agent before it moved; `agent_heard_s` the last advertisement of the new agent before
//! the mobile node took it; then the first registration request and the accepted reply; the
//! packets of flows dropped anywhere and the packets the home agent tunnelled between
//! `link_lost_s` and the first packet through the new agent.

use super::fib::{Hop, NoHop};
use super::mobility::{agent_of, agent_of_mut, Mobility, Role};
use super::node::Node;
use super::{Event, Simulation};
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::results::HandoffResult;
use crate::scenario::schema::{
    MipMovementKind, MipProfileKind, MipRoleKind, MobileIpSpec, Scenario,
};
use crate::trace::{TraceAt, TraceEvent};
use sctpsim_kernel::{NodeId, SeedTree, SimDuration, SimTime, StreamKey};
use sctpsim_proto::mac::MacAddr;
use sctpsim_proto::mobileip::{
    Attachment, MipConfig, MipEvent, MipLink, MipTransmit, MobileNode, MobilityAgent,
    MovementDetection,
};
use sctpsim_wire::ipv4::{ipv4_datagram, IpProtocol, Ipv4Packet, Ipv4Repr};
use sctpsim_wire::mip::{ipip_decapsulate, ipip_encapsulate};
use sctpsim_wire::udp::UdpPacket;
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// The registration port (RFC 5944 §3.3, §3.4: UDP 434).
pub(super) const MIP_PORT: u16 = 434;
/// ICMP router advertisement (type 9) carries agent advertisements (RFC 5944 §2.1).
const ICMP_ADVERT: u8 = 9;
/// ICMP router solicitation (type 10) carries agent solicitations (RFC 5944 §2.2).
const ICMP_SOLICIT: u8 = 10;
/// TTL of the outer header of a tunnel packet: the default TTL (RFC 2003 §3.1 leaves it to
/// the encapsulator; RFC 5944 §4.2.3 says nothing more).
const TUNNEL_TTL: u8 = super::DEFAULT_TTL;

/// A mobile node and what the engine keeps about it for the handoffs table (a node's
/// [`Role::MipMobile`]).
#[derive(Debug)]
pub(super) struct MobileState {
    mn: MobileNode,
    /// The agent it is attached to (cell address), as last seen.
    agent: Option<Ipv4Addr>,
    /// The last agent it was attached to (the `from` of the next handover).
    last_agent: Option<Ipv4Addr>,
    /// When it last received any frame from each MAC address.
    last_heard: BTreeMap<MacAddr, SimTime>,
    /// When it last heard each agent's advertisement.
    last_ad: BTreeMap<Ipv4Addr, SimTime>,
    /// The handover under way.
    pending: Option<Pending>,
}

/// A handover under way (a `handoffs` row being filled in).
#[derive(Clone, Debug)]
struct Pending {
    from: Option<Ipv4Addr>,
    to: Option<Ipv4Addr>,
    started: SimTime,
    link_lost: Option<SimTime>,
    agent_heard: Option<SimTime>,
    request_sent: Option<SimTime>,
    retransmissions: u64,
    reply: Option<SimTime>,
}

/// Mobile IP of the whole network: what is not one node's (the agents and mobile nodes are
/// the nodes' [`Role`]s).
pub(super) struct MipRt {
    /// Home address → (mobile node, its home agent's node).
    homes: BTreeMap<Ipv4Addr, (NodeId, NodeId)>,
    /// Cell address → agent node.
    agents: BTreeMap<Ipv4Addr, NodeId>,
    /// Times packets of flows were dropped (for the handoffs table).
    drop_times: Vec<SimTime>,
    /// Times the home agents tunnelled a packet.
    tunnel_times: Vec<SimTime>,
    /// Finished handovers.
    pub(super) handoffs: Vec<HandoffResult>,
    /// Packets tunnelled by home agents.
    pub(super) tunnelled: u64,
    /// Tunnel packets decapsulated by foreign agents.
    pub(super) decapsulated: u64,
}

/// The protocol configuration of `[mobile_ip]` (profile, then the fields set).
pub fn mip_config(spec: Option<&MobileIpSpec>) -> MipConfig {
    let default = MobileIpSpec::default();
    let spec = spec.unwrap_or(&default);
    let mut cfg = match spec.profile {
        MipProfileKind::Ns2 => MipConfig::ns2(),
        MipProfileKind::Rfc => MipConfig::rfc(),
    };
    if let Some(d) = spec.advertisement_interval {
        cfg.advertisement_interval = d.0;
    }
    if let Some(d) = spec.advertisement_lifetime {
        cfg.advertisement_lifetime = d.0;
    }
    if let Some(d) = spec.registration_lifetime {
        cfg.registration_lifetime = d.0;
    }
    if let Some(d) = spec.registration_retransmit {
        cfg.registration_retransmit = d.0;
    }
    if let Some(m) = spec.movement_detection {
        cfg.movement_detection = match m {
            MipMovementKind::Lifetime => MovementDetection::Lifetime,
            MipMovementKind::LinkLayer => MovementDetection::LinkLayer,
        };
    }
    cfg
}

impl MipRt {
    /// Mobile IP of a scenario, if any node has a role; each node with a role gets it
    /// ([`Node::mobility`](super::node::Node::mobility)). `wlan_addr` gives a wireless
    /// interface's address.
    /// The first advertisement of each agent comes at a uniform phase in one advertisement
    /// interval, from the stream `("mip-advert", node)`, so that agents on one channel do not
    /// broadcast at the same instants for the whole run.
    pub(super) fn build(
        s: &Scenario,
        seeds: &SeedTree,
        nodes: &mut [Node],
        wlan_addr: impl Fn(u32) -> Ipv4Addr,
    ) -> Option<Self> {
        if !s.node.iter().any(|n| n.mobile_ip.is_some()) {
            return None;
        }
        let cfg = mip_config(s.mobile_ip.as_ref());
        let cell_addr = |nodes: &[Node], i: usize| nodes.get(i)?.wlan.map(&wlan_addr);
        let mut rt = MipRt {
            homes: BTreeMap::new(),
            agents: BTreeMap::new(),
            drop_times: Vec::new(),
            tunnel_times: Vec::new(),
            handoffs: Vec::new(),
            tunnelled: 0,
            decapsulated: 0,
        };
        for (i, node) in s.node.iter().enumerate() {
            let (Some(m), Some(addr)) = (&node.mobile_ip, cell_addr(nodes, i)) else {
                continue;
            };
            let (home, foreign) = match m.role {
                MipRoleKind::HomeAgent => (true, false),
                MipRoleKind::ForeignAgent => (false, true),
                MipRoleKind::Agent => (true, true),
                MipRoleKind::Mobile => continue,
            };
            rt.agents.insert(addr, NodeId(i as u32));
            let mut agent = MobilityAgent::new(cfg.clone(), home, foreign, addr);
            let mut rng = seeds.stream(&StreamKey::new("mip-advert").with(i as u64));
            let phase = rng.below(cfg.advertisement_interval.as_nanos().max(1));
            agent.set_first_advertisement(SimTime::ZERO + SimDuration::from_nanos(phase));
            nodes[i].mobility = Some(Mobility::new(Role::MipAgent(agent)));
        }
        for (i, node) in s.node.iter().enumerate() {
            let Some(m) = &node.mobile_ip else { continue };
            let Some(ha_name) = &m.home_agent else {
                continue;
            };
            let Some(ha) = s.node.iter().position(|x| &x.name == ha_name) else {
                continue;
            };
            let (Some(home), Some(ha_addr)) = (cell_addr(nodes, i), cell_addr(nodes, ha)) else {
                continue;
            };
            rt.homes.insert(home, (NodeId(i as u32), NodeId(ha as u32)));
            nodes[i].mobility = Some(Mobility::new(Role::MipMobile(MobileState {
                mn: MobileNode::new(cfg.clone(), home, ha_addr),
                agent: None,
                last_agent: None,
                last_heard: BTreeMap::new(),
                last_ad: BTreeMap::new(),
                pending: None,
            })));
        }
        Some(rt)
    }
}

/// The Mobile IP agent at `node`, if it is one.
fn agent(nodes: &[Node], node: NodeId) -> Option<&MobilityAgent> {
    match agent_of(nodes, node).map(|m| &m.role) {
        Some(Role::MipAgent(a)) => Some(a),
        _ => None,
    }
}

/// The Mobile IP mobile node at `node`, if it is one.
fn mobile(nodes: &mut [Node], node: NodeId) -> Option<&mut MobileState> {
    match agent_of_mut(nodes, node).map(|m| &mut m.role) {
        Some(Role::MipMobile(m)) => Some(m),
        _ => None,
    }
}

impl Simulation {
    /// Starts every agent's and mobile node's timers.
    pub(super) fn mip_start(&mut self) {
        if self.mip.is_none() {
            return;
        }
        for i in 0..self.nodes.len() {
            self.mip_pump(NodeId(i as u32));
        }
    }

    /// A Mobile IP timer of `node` may have come.
    pub(super) fn mip_timer(&mut self, node: NodeId) {
        let now = self.now;
        if self.mip.is_none() {
            return;
        }
        let Some(mob) = agent_of_mut(&mut self.nodes, node) else {
            return;
        };
        mob.wake.fired(now);
        match &mut mob.role {
            Role::MipAgent(a) => {
                if a.poll_timeout().is_some_and(|t| t <= now) {
                    a.handle_timeout(now);
                }
            }
            Role::MipMobile(m) => {
                if m.mn.poll_timeout().is_some_and(|t| t <= now) {
                    m.mn.handle_timeout(now);
                }
            }
            _ => return,
        }
        self.mip_pump(node);
    }

    /// Everything `node`'s Mobile IP state machine has to do now: packets, events, the
    /// attachment, its next timer.
    fn mip_pump(&mut self, node: NodeId) {
        let now = self.now;
        if self.mip.is_none() {
            return;
        }
        loop {
            let tx = match agent_of_mut(&mut self.nodes, node).map(|m| &mut m.role) {
                Some(Role::MipAgent(a)) => a.poll_transmit(),
                Some(Role::MipMobile(m)) => m.mn.poll_transmit(),
                _ => return,
            };
            let Some(tx) = tx else { break };
            self.mip_send(node, tx);
        }
        match agent_of_mut(&mut self.nodes, node).map(|m| &mut m.role) {
            Some(Role::MipAgent(a)) => while a.poll_event().is_some() {},
            Some(Role::MipMobile(m)) => {
                // The attachment first, so that the request sent on attaching belongs to the
                // handover it starts.
                let events: Vec<MipEvent> = std::iter::from_fn(|| m.mn.poll_event()).collect();
                let agent = match m.mn.attachment() {
                    Attachment::Home { agent } | Attachment::Foreign { agent, .. } => Some(agent),
                    Attachment::Detached => None,
                };
                if agent != m.agent {
                    self.mip_attach(node, agent);
                }
                if let Some(m) = mobile(&mut self.nodes, node) {
                    for ev in events {
                        mobile_event(m, now, ev);
                    }
                }
            }
            _ => {}
        }
        let Some(mob) = agent_of_mut(&mut self.nodes, node) else {
            return;
        };
        let t = match &mob.role {
            Role::MipAgent(a) => a.poll_timeout(),
            Role::MipMobile(m) => m.mn.poll_timeout(),
            _ => None,
        };
        if let Some(t) = t {
            let t = t.max(now);
            if mob.wake.arm(t) {
                self.queue.push(t, Event::MobilityTimer(node));
            }
        }
    }

    /// A mobile node's attachment changed to `agent`: a handover starts (or, when it had none,
    /// the one under way learns where it goes).
    fn mip_attach(&mut self, node: NodeId, agent: Option<Ipv4Addr>) {
        let now = self.now;
        let wifi = &*self.wifi;
        if self.mip.is_none() {
            return;
        }
        let Some(m) = mobile(&mut self.nodes, node) else {
            return;
        };
        let prev = std::mem::replace(&mut m.agent, agent);
        if prev.is_none() && m.pending.is_none() && m.last_agent.is_none() {
            // The first attachment is not a handover.
            m.last_agent = agent;
            return;
        }
        if prev.is_none() {
            if let Some(p) = m.pending.as_mut() {
                // Detached earlier: the handover under way now knows its new agent.
                p.to = agent;
                p.agent_heard = agent.and_then(|a| m.last_ad.get(&a).copied());
                return;
            }
        }
        let from = prev.or(m.last_agent);
        if prev.is_some() {
            m.last_agent = prev;
        }
        let link_lost = from
            .and_then(|a| wifi.addrs.resolve(a))
            .and_then(|mac| m.last_heard.get(&mac).copied());
        let p = Pending {
            from,
            to: agent,
            started: now,
            link_lost,
            agent_heard: agent.and_then(|a| m.last_ad.get(&a).copied()),
            request_sent: None,
            retransmissions: 0,
            reply: None,
        };
        if let Some(old) = m.pending.replace(p) {
            self.mip_close(node, old, None);
        }
    }

    /// Writes the handoffs row of a finished (or abandoned) handover.
    fn mip_close(&mut self, node: NodeId, p: Pending, first_packet: Option<SimTime>) {
        let name = |sim: &Simulation, a: Option<Ipv4Addr>| {
            a.and_then(|a| sim.mip.as_ref()?.agents.get(&a).copied())
                .map(|n| sim.nodes[n.index()].name.clone())
                .unwrap_or_default()
        };
        let (from, to) = (name(self, p.from), name(self, p.to));
        let row = HandoffResult::empty("mobile-ip", self.nodes[node.index()].name.clone());
        let Some(mip) = self.mip.as_mut() else { return };
        let start = p.link_lost.unwrap_or(p.started);
        let end = first_packet.unwrap_or(self.now);
        let count = |v: &[SimTime]| {
            let a = v.partition_point(|&t| t < start);
            let b = v.partition_point(|&t| t <= end);
            b.saturating_sub(a) as u64
        };
        let s = |t: Option<SimTime>| t.map_or(f64::NAN, |t| t.as_secs_f64());
        let row = HandoffResult {
            from_agent: from,
            to_agent: to,
            detected_s: p.started.as_secs_f64(),
            link_lost_s: s(p.link_lost),
            agent_heard_s: s(p.agent_heard),
            registration_sent_s: s(p.request_sent),
            reply_received_s: s(p.reply),
            first_packet_s: s(first_packet),
            registration_retransmissions: p.retransmissions,
            packets_lost: count(&mip.drop_times),
            packets_tunnelled: count(&mip.tunnel_times),
            ..row
        };
        mip.handoffs.push(row);
    }

    /// Closes the handovers still under way at the end of the run.
    pub(super) fn mip_finish(&mut self) {
        if self.mip.is_none() {
            return;
        }
        let mut open = Vec::new();
        for (i, n) in self.nodes.iter_mut().enumerate() {
            if let Some(Role::MipMobile(m)) = n.mobility.as_deref_mut().map(|m| &mut m.role) {
                if let Some(p) = m.pending.take() {
                    open.push((NodeId(i as u32), p));
                }
            }
        }
        for (n, p) in open {
            self.mip_close(n, p, None);
        }
    }

    /// Sends what a Mobile IP state machine of `node` produced.
    fn mip_send(&mut self, node: NodeId, tx: MipTransmit) {
        let ident = self.next_ip_id(node);
        let repr = Ipv4Repr {
            src_addr: tx.src,
            dst_addr: tx.dst,
            protocol: tx.protocol,
            payload_len: tx.payload.len(),
            ttl: tx.ttl,
            ident,
            dscp: 0,
            dont_frag: false,
        };
        let Ok(bytes) = ipv4_datagram(&repr, &tx.payload) else {
            return;
        };
        let pkt = self.originate(node, bytes, None);
        match tx.link {
            // Signalling goes ahead of data in a wireless interface's queue (as routing
            // control does, `wifi_output`): a registration must not wait behind a window of
            // data frames addressed to an agent the mobile node has left.
            MipLink::Routed => match self.fib(node, tx.dst, None) {
                Ok(super::fib::Hop::Wifi(w, da)) => self.wifi_output(w, da, pkt, true),
                Ok(hop) => self.send_via(node, hop, pkt),
                Err(why) => self.no_hop(node, why, &pkt),
            },
            MipLink::Cell => {
                let wifi = &*self.wifi;
                let Some(w) = self.nodes.get(node.index()).and_then(|n| n.wlan) else {
                    return;
                };
                let da = if tx.dst.is_broadcast() || tx.dst.is_multicast() {
                    Some(MacAddr::BROADCAST)
                } else {
                    wifi.addrs.resolve(tx.dst)
                };
                match da {
                    Some(da) => self.wifi_output(w, da, pkt, true),
                    None => {
                        self.nodes[node.index()].ip.no_route_drops += 1;
                        self.drop_packet(TraceAt::ip(node), &pkt, DropReason::NoRoute);
                    }
                }
            }
        }
    }

    /// The Mobile IP route layer (`fib.rs`): the next hop of a packet from `node` to `dst`
    /// when Mobile IP decides it — a mobile node's packets (through its agent), and packets to
    /// a home address (the home agent tunnels or sends on its cell; every other node sends
    /// towards the home agent). `None` for every other packet, and without Mobile IP: the next
    /// layers route it.
    pub(super) fn mip_layer(&mut self, node: NodeId, dst: Ipv4Addr) -> Option<Result<Hop, NoHop>> {
        let now = self.now;
        let mip = self.mip.as_deref()?;
        let wifi = &*self.wifi;
        let nodes = &self.nodes;
        let cell = |n: NodeId| nodes.get(n.index()).and_then(|x| x.wlan);
        let role = agent_of(nodes, node).map(|m| &m.role);
        if let Some(Role::MipMobile(m)) = role {
            let attachment = m.mn.attachment();
            let Some(w) = cell(node) else {
                return Some(Err(NoHop::NoRoute));
            };
            // An agent's own cell address: straight to it; anything else through the agent.
            let to = if mip.agents.contains_key(&dst) {
                Some(dst)
            } else {
                match attachment {
                    Attachment::Home { agent } | Attachment::Foreign { agent, .. } => Some(agent),
                    Attachment::Detached => None,
                }
            };
            return Some(match to {
                None => Err(NoHop::NoAgent),
                Some(a) => wifi
                    .addrs
                    .resolve(a)
                    .map_or(Err(NoHop::NoRoute), |mac| Ok(Hop::Wifi(w, mac))),
            });
        }
        let &(mobile, ha) = mip.homes.get(&dst)?;
        if ha == node {
            let Some(Role::MipAgent(agent)) = role else {
                return None;
            };
            if let Some(coa) = agent.care_of(now, dst) {
                return Some(Ok(Hop::Tunnel(coa)));
            }
            let (Some(w), Some(mw)) = (cell(node), cell(mobile)) else {
                return Some(Err(NoHop::NoRoute));
            };
            return Some(Ok(Hop::Wifi(w, wifi.ifaces[mw as usize].mac)));
        }
        let ha_addr = wifi.ifaces[cell(ha)? as usize].addr;
        Some(
            self.static_route(node, ha_addr)
                .map(Hop::Link)
                .ok_or(NoHop::NoRoute),
        )
    }

    /// The home agent `node` tunnels `pkt` to care-of address `coa` (RFC 2003 §3).
    pub(super) fn mip_tunnel(&mut self, node: NodeId, coa: Ipv4Addr, pkt: Packet) {
        let src = self
            .nodes
            .get(node.index())
            .and_then(|n| n.wlan)
            .map(|k| self.wifi.ifaces[k as usize].addr);
        let ident = self.next_ip_id(node);
        let outer = src.and_then(|s| ipip_encapsulate(&pkt.bytes, s, coa, TUNNEL_TTL, ident).ok());
        let Some(outer) = outer else {
            self.nodes[node.index()].ip.malformed_drops += 1;
            return;
        };
        let now = self.now;
        if let Some(m) = self.mip.as_mut() {
            m.tunnelled += 1;
            m.tunnel_times.push(now);
        }
        let pkt = Packet {
            bytes: outer,
            tag: pkt.tag,
        };
        self.trace(TraceAt::ip(node), TraceEvent::Forward, &pkt);
        self.ip_output(node, coa, pkt);
    }

    /// A tunnel packet reached its exit `node`: a foreign agent delivers the inner packet to
    /// its visitor (RFC 5944 §4.2.2); anything else is dropped.
    #[inline(never)]
    pub(super) fn mip_decapsulate(&mut self, node: NodeId, pkt: Packet) {
        let now = self.now;
        let inner = match ipip_decapsulate(&pkt.bytes) {
            Ok((_, inner)) => inner.to_vec(),
            Err(_) => {
                self.nodes[node.index()].ip.malformed_drops += 1;
                return;
            }
        };
        let dst = Ipv4Packet::new_unchecked(&inner[..]).dst_addr();
        let pkt = Packet {
            bytes: inner,
            tag: pkt.tag,
        };
        let visitor =
            self.mip.is_some() && agent(&self.nodes, node).is_some_and(|a| a.is_visitor(now, dst));
        let hop = self
            .nodes
            .get(node.index())
            .and_then(|n| n.wlan)
            .and_then(|w| Some((w, self.wifi.addrs.resolve(dst)?)));
        match (visitor, hop) {
            (true, Some((w, mac))) => {
                if let Some(m) = self.mip.as_mut() {
                    m.decapsulated += 1;
                }
                self.wifi_output(w, mac, pkt, false);
            }
            _ => self.drop_packet(TraceAt::ip(node), &pkt, DropReason::NoAgent),
        }
    }

    /// Local delivery of a UDP datagram at `node`: `true` if Mobile IP took it (port 434).
    #[inline(never)]
    pub(super) fn mip_udp(&mut self, node: NodeId, bytes: &[u8]) -> bool {
        let now = self.now;
        let Ok(ip) = Ipv4Packet::new_checked(bytes) else {
            return false;
        };
        let Ok(udp) = UdpPacket::new_checked(ip.payload()) else {
            return false;
        };
        if udp.dst_port() != MIP_PORT && udp.src_port() != MIP_PORT {
            return false;
        }
        let (src, dst) = (ip.src_addr(), ip.dst_addr());
        let len = usize::from(udp.len()).min(ip.payload().len());
        let datagram = &ip.payload()[..len];
        let Some(mip) = self.mip.as_mut() else {
            return false;
        };
        let from_cell = mip.homes.contains_key(&src);
        match agent_of_mut(&mut self.nodes, node).map(|m| &mut m.role) {
            Some(Role::MipAgent(a)) if udp.dst_port() == MIP_PORT => {
                a.handle_registration(now, src, dst, datagram, from_cell);
            }
            Some(Role::MipMobile(m)) if udp.src_port() == MIP_PORT => {
                m.mn.handle_registration_reply(now, src, datagram);
            }
            _ => return false,
        }
        self.mip_pump(node);
        true
    }

    /// An ICMP message at `node` (broadcast or unicast): agent advertisements to a mobile node,
    /// solicitations to an agent. `true` if Mobile IP took it.
    #[inline(never)]
    pub(super) fn mip_icmp(&mut self, node: NodeId, bytes: &[u8]) -> bool {
        let now = self.now;
        let Ok(ip) = Ipv4Packet::new_checked(bytes) else {
            return false;
        };
        if ip.protocol() != IpProtocol::Icmp {
            return false;
        }
        let icmp = ip.payload();
        let Some(&kind) = icmp.first() else {
            return false;
        };
        let src = ip.src_addr();
        let Some(mip) = self.mip.as_mut() else {
            return false;
        };
        match (
            agent_of_mut(&mut self.nodes, node).map(|m| &mut m.role),
            kind,
        ) {
            (Some(Role::MipMobile(m)), ICMP_ADVERT) => {
                if mip.agents.contains_key(&src) {
                    m.last_ad.insert(src, now);
                }
                m.mn.handle_advertisement(now, src, icmp);
            }
            (Some(Role::MipAgent(a)), ICMP_SOLICIT) => a.handle_solicitation(now, src),
            _ => return false,
        }
        self.mip_pump(node);
        true
    }

    /// A frame from `src` reached mobile node `node` carrying `pkt`: remembered for the
    /// handoffs table; the first flow packet through the new agent ends the handover.
    #[inline(never)]
    pub(super) fn mip_heard(&mut self, node: NodeId, src: MacAddr, pkt: &Packet) {
        let now = self.now;
        if self.mip.is_none() {
            return;
        }
        let Some(m) = mobile(&mut self.nodes, node) else {
            return;
        };
        m.last_heard.insert(src, now);
        let done = match (&m.pending, pkt.tag.flow) {
            (Some(p), Some(_)) => {
                p.to.and_then(|a| self.wifi.addrs.resolve(a))
                    .is_some_and(|mac| mac == src)
            }
            _ => false,
        };
        if done {
            let Some(m) = mobile(&mut self.nodes, node) else {
                return;
            };
            if let Some(p) = m.pending.take() {
                self.mip_close(node, p, Some(now));
            }
        }
    }

    /// The MAC of mobile node `node` gave up on a frame to `next_hop`: the layer-2 trigger.
    #[inline(never)]
    pub(super) fn mip_link_failure(&mut self, node: NodeId, next_hop: MacAddr) -> bool {
        let now = self.now;
        if self.mip.is_none() {
            return false;
        }
        let Some(m) = mobile(&mut self.nodes, node) else {
            return false;
        };
        let current = m.agent;
        let ours = current
            .and_then(|a| self.wifi.addrs.resolve(a))
            .is_some_and(|mac| mac == next_hop);
        if ours {
            let Some(m) = mobile(&mut self.nodes, node) else {
                return false;
            };
            m.mn.handle_link_change(now);
            self.mip_pump(node);
        }
        true
    }

    /// A packet of a flow was dropped (for the handoffs table's loss count).
    #[inline(never)]
    pub(super) fn mip_count_drop(&mut self) {
        let now = self.now;
        if let Some(m) = self.mip.as_mut() {
            m.drop_times.push(now);
        }
    }
}

/// A mobile node's event, into the handover under way.
fn mobile_event(m: &mut MobileState, now: SimTime, ev: MipEvent) {
    let Some(p) = m.pending.as_mut() else { return };
    match ev {
        MipEvent::RegistrationSent { retransmission, .. } => {
            if retransmission {
                p.retransmissions += 1;
            }
            if p.request_sent.is_none() {
                p.request_sent = Some(now);
            }
        }
        MipEvent::ReplyReceived { accepted: true, .. } if p.reply.is_none() => {
            p.reply = Some(now);
        }
        _ => {}
    }
}
