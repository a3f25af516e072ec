//! Access-router mobility (Aydin & Shen 2005 §II.A, §III; `docs/models/cellular.md`): access
//! routers (ARs) with their own subnets send layer-3 beacons; a mobile holds one address per
//! AR it hears, acquired after a delay and released when the AR is lost; its transports hear of
//! each address added, removed or becoming the strongest (`NetEvent::AddrAdded`,
//! `AddrRemoved`, `AddrPreferred`), and cSCTP turns them into ASCONFs (`sim/sctp/csctp.rs`).
//!
//! # One radio, several access routers
//!
//! The ARs and the mobiles share one 802.11 channel in ad hoc mode (no 802.11 association), so
//! a mobile's single radio receives the beacons and frames of every AR in range at once, and
//! addresses a frame to any of them by its MAC address. Which AR a packet leaves by is chosen
//! by its source address: a packet from the mobile's address in AR k's subnet goes to AR k's
//! MAC address (the paper's policy of one path per address). Frames of ARs in range of each
//! other contend and collide as any frames on one channel do.
//!
//! # Addresses
//!
//! AR k (the k-th node with `cellular.role = "access-router"`) owns the subnet
//! 172.(16 + k / 256).(k mod 256).0/24; mobile m (the m-th mobile) gets host 10 + m in it. The
//! wired nodes route a subnet towards its AR over the links' static routes; the AR sends a
//! packet for one of its addresses straight to the mobile holding it, and drops it (`no_route`)
//! when nobody holds it (released, or not yet acquired).
//!
//! # Beacons and strength
//!
//! A beacon is an ICMP Router Advertisement (RFC 1256 §3, type 9) broadcast on the AR's cell
//! with TTL 1, its router entry the AR's address and its lifetime `lost_after`. The first
//! beacon of each AR comes at a uniform phase within one interval (stream `("ar-beacon", k)`).
//! A mobile takes a beacon's strength as the mean received power of the AR's radio at its own
//! position when the beacon arrives (the propagation model's value, in dBm).
//!
//! # Life of an address
//!
//! A beacon from a new AR starts its acquisition (`acquisition_delay`, fixed or drawn from the
//! stream `("ar-acquire", mobile)`); when the delay has run and the AR is not lost meanwhile,
//! the address is held (`AddrAdded`). The preferred address is the held address of the
//! strongest AR; another held address takes over only when its AR is stronger by
//! `hysteresis_db` (`AddrPreferred`, sent before any removal, so that a transport moves its
//! traffic before it withdraws the address). An AR not heard for `lost_after` is lost: a held
//! address is released (`AddrRemoved`), an acquisition under way cancelled. At t = 0 a mobile
//! holds the address of the strongest AR at its position (it was there before the run began).
//!
//! # Per node and network-wide
//!
//! An access router ([`Router`]: its beacon schedule) or a mobile ([`Mobile`]: its views of
//! the ARs, its preferred AR, its acquisition stream and the history the handoffs rows read)
//! is its node's mobility agent (`Node::mobility`, `mobility.rs`), with the wake slot of its
//! beacons or of its acquisitions and losses. [`CellRt`], in the `Simulation`, holds what
//! belongs to no one node: the configuration, the nodes of AR k and of mobile m (the
//! addressing, [`cell_address`]), AR address → k, the handovers open and closed, the drop
//! times, the `handoffs` rows and the counters.

use super::fib::{Hop, NoHop};
use super::mobility::{agent_of, agent_of_mut, Mobility, Role};
use super::net_events::NetEvent;
use super::node::Node;
use super::transport::AddrArrival;
use super::{Event, Simulation};
use crate::results::HandoffResult;
use crate::scenario::schema::{
    AcquisitionDistKind, CellRoleKind, CellularSpec, Scenario, DEFAULT_ACQUISITION_NS,
    DEFAULT_BEACON_INTERVAL_NS, DEFAULT_LOST_AFTER_NS,
};
use sctpsim_kernel::{NodeId, Rng, SeedTree, SimDuration, SimTime, StreamKey};
use sctpsim_proto::mac::MacAddr;
use sctpsim_wire::checksum;
use sctpsim_wire::ipv4::{ipv4_datagram, IpProtocol, Ipv4Packet, Ipv4Repr};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

/// ICMP Router Advertisement (RFC 1256 §3).
const ICMP_ROUTER_ADVERTISEMENT: u8 = 9;
/// Router entry size in 32-bit words (RFC 1256 §3: "Addr Entry Size ... 2").
const ADDR_ENTRY_WORDS: u8 = 2;

/// The effective `[cellular]` parameters.
#[derive(Clone, Debug)]
pub struct CellConfig {
    /// Time between an AR's beacons.
    pub beacon_interval: SimDuration,
    /// An AR not heard for this long is lost.
    pub lost_after: SimDuration,
    /// Mean (or fixed) address-acquisition delay.
    pub acquisition_delay: SimDuration,
    /// How the delay is drawn.
    pub acquisition_distribution: AcquisitionDistKind,
    /// Hysteresis of the preferred address, dB.
    pub hysteresis_db: f64,
}

impl CellConfig {
    /// `[cellular]` with its defaults (Aydin & Shen 2005 §III).
    pub fn from_spec(spec: Option<&CellularSpec>) -> Self {
        let d = CellularSpec::default();
        let s = spec.unwrap_or(&d);
        CellConfig {
            beacon_interval: s
                .beacon_interval
                .map_or(SimDuration::from_nanos(DEFAULT_BEACON_INTERVAL_NS), |x| x.0),
            lost_after: s
                .lost_after
                .map_or(SimDuration::from_nanos(DEFAULT_LOST_AFTER_NS), |x| x.0),
            acquisition_delay: s
                .acquisition_delay
                .map_or(SimDuration::from_nanos(DEFAULT_ACQUISITION_NS), |x| x.0),
            acquisition_distribution: s.acquisition_distribution.unwrap_or_default(),
            hysteresis_db: s.hysteresis_db.unwrap_or(0.0),
        }
    }
}

/// The address mobile `m` gets from AR `k`.
pub fn cell_address(k: u32, m: u32) -> Ipv4Addr {
    Ipv4Addr::new(172, 16 + (k / 256) as u8, (k % 256) as u8, 10 + m as u8)
}

/// An access router: a node's [`Role::AccessRouter`].
#[derive(Debug)]
pub(super) struct Router {
    /// Its index among the access routers (its subnet, [`cell_address`]).
    k: u32,
    /// Its wireless interface (radio) index.
    w: u32,
    /// Its cell address (the wireless interface's).
    addr: Ipv4Addr,
    next_beacon: SimTime,
}

/// What a mobile knows of one AR.
#[derive(Clone, Debug)]
struct View {
    last_heard: SimTime,
    rssi_dbm: f64,
    /// `Some(t)`: acquisition under way, done at t; `None`: the address is held.
    acquiring: Option<SimTime>,
}

/// One event in a mobile's history (for the handoffs table).
#[derive(Clone, Copy, Debug)]
enum Mark {
    Detected(u32, SimTime),
    Acquired(u32, SimTime),
}

/// A mobile: a node's [`Role::CellMobile`].
#[derive(Debug)]
pub(super) struct Mobile {
    /// Its index among the mobiles (its host number, [`cell_address`]).
    m: u32,
    /// Its wireless interface (radio) index.
    w: u32,
    views: BTreeMap<u32, View>,
    preferred: Option<u32>,
    rng: Rng,
    marks: Vec<Mark>,
    /// Times of duplicate data units received (each flow end's own count, `Received`).
    dup_times: Vec<SimTime>,
    /// Per AR: the first data received on its address since it was last acquired, and the
    /// last DATA received on it (kept after the address is released).
    data: BTreeMap<u32, (Option<SimTime>, Option<SimTime>)>,
    /// Per AR: the last beacon heard (kept after the AR is lost).
    last_beacon: BTreeMap<u32, SimTime>,
}

impl Mobile {
    /// Whether the mobile holds its address at AR `k` (acquired and not released).
    fn holds(&self, k: u32) -> bool {
        self.views.get(&k).is_some_and(|v| v.acquiring.is_none())
    }

    /// Its index m among the mobiles.
    #[cfg(test)]
    pub(super) fn index(&self) -> u32 {
        self.m
    }
}

#[cfg(test)]
impl Router {
    /// Its index k among the access routers.
    pub(super) fn index(&self) -> u32 {
        self.k
    }
}

/// Access-router mobility of the whole network: what is not one node's (the access routers
/// and the mobiles are the nodes' [`Role`]s).
pub(super) struct CellRt {
    pub(super) cfg: CellConfig,
    /// The node of each access router, by index k (the subnet of [`cell_address`]).
    ars: Vec<NodeId>,
    /// The node of each mobile, by index m (the host number of [`cell_address`]).
    mobiles: Vec<NodeId>,
    /// AR cell address → its index k.
    router_addr: BTreeMap<Ipv4Addr, u32>,
    /// Times DATA chunks of flows were dropped, with how many.
    drop_times: Vec<(SimTime, u64)>,
    /// Handovers closed (the old address released).
    pub(super) handoffs: Vec<HandoffResult>,
    /// Beacons sent / received by mobiles.
    pub(super) beacons_sent: u64,
    pub(super) beacons_heard: u64,
    /// Addresses acquired / released.
    pub(super) acquired: u64,
    pub(super) released: u64,
    /// Handovers under way at each mobile: (old AR, new AR).
    open: Vec<Vec<(u32, u32)>>,
    /// Handovers ended (the old address released), their rows written at the end of the run
    /// (the ASCONFs a release causes come after it).
    closed: Vec<Closed>,
}

/// A handover that ended, with what of it may change later (a mobile may come back).
#[derive(Clone, Copy, Debug)]
pub(super) struct Closed {
    m: u32,
    old: u32,
    new: u32,
    released: SimTime,
    first_new: Option<SimTime>,
    last_old: Option<SimTime>,
}

/// The access router at `node`, if it is one.
fn router(nodes: &[Node], node: NodeId) -> Option<&Router> {
    match agent_of(nodes, node).map(|m| &m.role) {
        Some(Role::AccessRouter(r)) => Some(r),
        _ => None,
    }
}

/// The cellular mobile at `node`, if it is one.
fn mobile(nodes: &[Node], node: NodeId) -> Option<&Mobile> {
    match agent_of(nodes, node).map(|m| &m.role) {
        Some(Role::CellMobile(m)) => Some(m),
        _ => None,
    }
}

/// The cellular mobile at `node`, if it is one, to change.
fn mobile_mut(nodes: &mut [Node], node: NodeId) -> Option<&mut Mobile> {
    match agent_of_mut(nodes, node).map(|m| &mut m.role) {
        Some(Role::CellMobile(m)) => Some(m),
        _ => None,
    }
}

impl CellRt {
    /// The runtime of a scenario with cellular roles; each node with a role gets it
    /// ([`Node::mobility`](super::node::Node::mobility)). `wlan_addr` gives a wireless
    /// interface's address.
    pub(super) fn build(
        s: &Scenario,
        seeds: &SeedTree,
        nodes: &mut [Node],
        wlan_addr: impl Fn(u32) -> Ipv4Addr,
    ) -> Option<Self> {
        if !s.node.iter().any(|n| n.cellular.is_some()) {
            return None;
        }
        let cfg = CellConfig::from_spec(s.cellular.as_ref());
        let mut rt = CellRt {
            cfg: cfg.clone(),
            ars: Vec::new(),
            mobiles: Vec::new(),
            router_addr: BTreeMap::new(),
            drop_times: Vec::new(),
            handoffs: Vec::new(),
            beacons_sent: 0,
            beacons_heard: 0,
            acquired: 0,
            released: 0,
            open: Vec::new(),
            closed: Vec::new(),
        };
        for (i, node) in s.node.iter().enumerate() {
            let w = nodes.get(i).and_then(|n| n.wlan);
            let (Some(c), Some(w)) = (&node.cellular, w) else {
                continue;
            };
            let role = match c.role {
                CellRoleKind::AccessRouter => {
                    let k = rt.ars.len() as u32;
                    let mut rng = seeds.stream(&StreamKey::new("ar-beacon").with(u64::from(k)));
                    let phase = rng.below(cfg.beacon_interval.as_nanos().max(1));
                    let addr = wlan_addr(w);
                    rt.ars.push(NodeId(i as u32));
                    rt.router_addr.insert(addr, k);
                    Role::AccessRouter(Router {
                        k,
                        w,
                        addr,
                        next_beacon: SimTime::ZERO + SimDuration::from_nanos(phase),
                    })
                }
                CellRoleKind::Mobile => {
                    let m = rt.mobiles.len() as u32;
                    rt.mobiles.push(NodeId(i as u32));
                    rt.open.push(Vec::new());
                    Role::CellMobile(Mobile {
                        m,
                        w,
                        views: BTreeMap::new(),
                        preferred: None,
                        rng: seeds.stream(&StreamKey::new("ar-acquire").with(u64::from(m))),
                        marks: Vec::new(),
                        dup_times: Vec::new(),
                        data: BTreeMap::new(),
                        last_beacon: BTreeMap::new(),
                    })
                }
            };
            nodes[i].mobility = Some(Mobility::new(role));
        }
        Some(rt)
    }

    /// The nodes of the access routers by k and of the mobiles by m.
    #[cfg(test)]
    pub(super) fn nodes_by_index(&self) -> (&[NodeId], &[NodeId]) {
        (&self.ars, &self.mobiles)
    }

    /// The AR and mobile an address belongs to, if it is one of the cellular addresses.
    fn owner(&self, a: Ipv4Addr) -> Option<(u32, u32)> {
        let o = a.octets();
        if o[0] != 172 || !(16..32).contains(&o[1]) || o[3] < 10 {
            return None;
        }
        let k = u32::from(o[1] - 16) * 256 + u32::from(o[2]);
        let m = u32::from(o[3] - 10);
        ((k as usize) < self.ars.len() && (m as usize) < self.mobiles.len()).then_some((k, m))
    }

    /// Every cellular address of the mobile at `node` (held or not), for socket tables.
    pub(super) fn addresses_of(&self, nodes: &[Node], node: NodeId) -> Vec<Ipv4Addr> {
        match mobile(nodes, node) {
            Some(mob) => (0..self.ars.len() as u32)
                .map(|k| cell_address(k, mob.m))
                .collect(),
            None => Vec::new(),
        }
    }

    /// Gives each mobile the address of the strongest access router at its position at
    /// t = 0 (it was there before the run began).
    pub(super) fn init(
        &mut self,
        nodes: &mut [Node],
        channel: &mut crate::wireless::channel::Channel,
    ) {
        let now = SimTime::ZERO;
        // Each AR's radio by k (every AR node has its role: `build` gave it).
        let ar_w: Vec<Option<u32>> = self
            .ars
            .iter()
            .map(|&n| router(nodes, n).map(|r| r.w))
            .collect();
        for &n in &self.mobiles {
            let Some(mob) = mobile_mut(nodes, n) else {
                continue;
            };
            let best = ar_w
                .iter()
                .enumerate()
                .filter_map(|(k, rw)| Some((k, (*rw)?)))
                .map(|(k, rw)| {
                    let p = channel.mean_power(rw, mob.w, now);
                    (k as u32, sctpsim_world::power::w_to_dbm(p))
                })
                .filter(|(_, dbm)| dbm.is_finite())
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((k, rssi_dbm)) = best {
                mob.views.insert(
                    k,
                    View {
                        last_heard: now,
                        rssi_dbm,
                        acquiring: None,
                    },
                );
                mob.last_beacon.insert(k, now);
                mob.data.insert(k, (None, None));
                mob.preferred = Some(k);
                self.acquired += 1;
            }
        }
    }

    /// The address mobile `node` holds at t = 0 (after [`CellRt::init`]).
    pub(super) fn initial_address(nodes: &[Node], node: NodeId) -> Option<Ipv4Addr> {
        let mob = mobile(nodes, node)?;
        Some(cell_address(mob.preferred?, mob.m))
    }

    /// A delay drawn for one acquisition.
    fn draw_delay(cfg: &CellConfig, rng: &mut Rng) -> SimDuration {
        let mean = cfg.acquisition_delay.as_nanos() as f64;
        let ns = match cfg.acquisition_distribution {
            AcquisitionDistKind::Fixed => mean,
            AcquisitionDistKind::Uniform => rng.uniform() * 2.0 * mean,
            AcquisitionDistKind::Exponential => -mean * rng.uniform_open0().ln(),
        };
        SimDuration::from_nanos(ns.max(0.0).min(u64::MAX as f64 / 2.0) as u64)
    }
}

/// The RFC 1256 §3 Router Advertisement of an AR: one router entry (its address, preference
/// 0) and a lifetime of `lifetime_s`.
fn router_advertisement(addr: Ipv4Addr, lifetime_s: u16) -> Vec<u8> {
    let mut b = vec![0u8; 16];
    b[0] = ICMP_ROUTER_ADVERTISEMENT;
    b[4] = 1;
    b[5] = ADDR_ENTRY_WORDS;
    b[6..8].copy_from_slice(&lifetime_s.to_be_bytes());
    b[8..12].copy_from_slice(&addr.octets());
    let c = checksum::internet_checksum(&b);
    b[2..4].copy_from_slice(&c.to_be_bytes());
    b
}

impl Simulation {
    /// Starts the access routers' beacons and the mobiles' timers.
    pub(super) fn cell_start(&mut self) {
        let Some(cell) = self.cell.as_ref() else {
            return;
        };
        // The access routers in order, then the mobiles.
        let nodes: Vec<NodeId> = cell.ars.iter().chain(&cell.mobiles).copied().collect();
        for n in nodes {
            self.cell_arm(n);
        }
    }

    /// Queue `node`'s next cellular wake-up.
    fn cell_arm(&mut self, node: NodeId) {
        let Some(cell) = self.cell.as_ref() else {
            return;
        };
        let lost = cell.cfg.lost_after;
        let Some(agent) = agent_of_mut(&mut self.nodes, node) else {
            return;
        };
        let t = match &agent.role {
            Role::AccessRouter(r) => Some(r.next_beacon),
            Role::CellMobile(mob) => mob
                .views
                .values()
                .map(|v| match v.acquiring {
                    Some(t) => t.min(v.last_heard + lost),
                    None => v.last_heard + lost,
                })
                .min(),
            _ => None,
        };
        if let Some(t) = t {
            let t = t.max(self.now);
            if agent.wake.arm(t) {
                self.queue.push(t, Event::MobilityTimer(node));
            }
        }
    }

    /// A cellular wake-up of `node`: an AR's beacon, a mobile's acquisitions and losses.
    pub(super) fn cell_timer(&mut self, node: NodeId) {
        let now = self.now;
        let Some(cell) = self.cell.as_mut() else {
            return;
        };
        let Some(agent) = agent_of_mut(&mut self.nodes, node) else {
            return;
        };
        agent.wake.fired(now);
        match &mut agent.role {
            Role::AccessRouter(r) => {
                if r.next_beacon <= now {
                    r.next_beacon = now + cell.cfg.beacon_interval;
                    let (addr, lifetime) = (r.addr, cell.cfg.lost_after.as_nanos() / 1_000_000_000);
                    cell.beacons_sent += 1;
                    self.cell_beacon(node, addr, lifetime.min(u64::from(u16::MAX)) as u16);
                }
            }
            Role::CellMobile(_) => self.cell_update(node),
            _ => return,
        }
        self.cell_arm(node);
    }

    /// Broadcast AR `node`'s beacon on its cell (ahead of data, as control).
    fn cell_beacon(&mut self, node: NodeId, addr: Ipv4Addr, lifetime_s: u16) {
        let payload = router_advertisement(addr, lifetime_s);
        let ident = self.next_ip_id(node);
        let repr = Ipv4Repr {
            src_addr: addr,
            dst_addr: Ipv4Addr::BROADCAST,
            protocol: IpProtocol::Icmp,
            payload_len: payload.len(),
            ttl: 1,
            ident,
            dscp: 0,
            dont_frag: false,
        };
        let Ok(bytes) = ipv4_datagram(&repr, &payload) else {
            return;
        };
        let Some(w) = self.nodes.get(node.index()).and_then(|n| n.wlan) else {
            return;
        };
        let pkt = self.originate(node, bytes, None);
        self.wifi_output(w, MacAddr::BROADCAST, pkt, true);
    }

    /// A broadcast ICMP packet reached `node`: an AR beacon if `node` is a mobile. Returns
    /// whether it was one.
    #[inline(never)]
    pub(super) fn cell_heard(&mut self, node: NodeId, bytes: &[u8]) -> bool {
        let now = self.now;
        let wifi = &mut *self.wifi;
        let Some(cell) = self.cell.as_mut() else {
            return false;
        };
        if mobile(&self.nodes, node).is_none() {
            return false;
        }
        let Ok(ip) = Ipv4Packet::new_checked(bytes) else {
            return false;
        };
        let icmp = ip.payload();
        if icmp.len() < 16
            || icmp[0] != ICMP_ROUTER_ADVERTISEMENT
            || checksum::internet_checksum(icmp) != 0
        {
            return false;
        }
        let Some(&k) = cell.router_addr.get(&ip.src_addr()) else {
            return false;
        };
        cell.beacons_heard += 1;
        let Some(rw) = cell
            .ars
            .get(k as usize)
            .and_then(|&n| router(&self.nodes, n))
            .map(|r| r.w)
        else {
            return false;
        };
        let Some(mob) = mobile_mut(&mut self.nodes, node) else {
            return false;
        };
        let rssi_dbm = sctpsim_world::power::w_to_dbm(wifi.channel.mean_power(rw, mob.w, now));
        let t = now.as_secs_f64();
        self.series.push_owned(
            t,
            "node",
            node.0,
            k.to_string(),
            "ar_beacon_rssi_dbm",
            rssi_dbm,
        );
        let cfg = cell.cfg.clone();
        mob.last_beacon.insert(k, now);
        match mob.views.get_mut(&k) {
            Some(v) => {
                v.last_heard = now;
                v.rssi_dbm = rssi_dbm;
            }
            None => {
                let delay = CellRt::draw_delay(&cfg, &mut mob.rng);
                mob.views.insert(
                    k,
                    View {
                        last_heard: now,
                        rssi_dbm,
                        acquiring: Some(now + delay),
                    },
                );
                mob.marks.push(Mark::Detected(k, now));
            }
        }
        self.cell_update(node);
        self.cell_arm(node);
        true
    }

    /// A mobile's acquisitions that are done, ARs lost, and its preferred address; the
    /// transports at the node hear each change.
    fn cell_update(&mut self, node: NodeId) {
        let now = self.now;
        let Some(cell) = self.cell.as_mut() else {
            return;
        };
        let lost_after = cell.cfg.lost_after;
        let hyst = cell.cfg.hysteresis_db;
        let Some(mob) = mobile_mut(&mut self.nodes, node) else {
            return;
        };
        let m = mob.m;
        let mut added = Vec::new();
        let mut removed = Vec::new();
        mob.views.retain(|&k, v| {
            if v.last_heard + lost_after <= now {
                if v.acquiring.is_none() {
                    removed.push(k);
                }
                return false;
            }
            if v.acquiring.is_some_and(|t| t <= now) {
                v.acquiring = None;
                added.push(k);
            }
            true
        });
        for &k in &added {
            mob.marks.push(Mark::Acquired(k, now));
            mob.data.insert(k, (None, None));
        }
        // The strongest held AR; the current one keeps its place within the hysteresis.
        let held = |k: &u32| mob.views.get(k).is_some_and(|v| v.acquiring.is_none());
        let best = mob
            .views
            .iter()
            .filter(|(_, v)| v.acquiring.is_none())
            .max_by(|a, b| a.1.rssi_dbm.total_cmp(&b.1.rssi_dbm))
            .map(|(k, v)| (*k, v.rssi_dbm));
        let preferred = match (mob.preferred.filter(held), best) {
            (Some(p), Some((b, rssi))) if b != p && rssi > mob.views[&p].rssi_dbm + hyst => Some(b),
            (Some(p), _) => Some(p),
            (None, b) => b.map(|x| x.0),
        };
        let changed = preferred != mob.preferred && preferred.is_some();
        mob.preferred = preferred;
        cell.acquired += added.len() as u64;
        cell.released += removed.len() as u64;
        // Handovers: a new address while another is held opens one; the release of the old
        // one closes it.
        for &k in &added {
            let olds: Vec<u32> = mob
                .views
                .iter()
                .filter(|(&j, v)| j != k && v.acquiring.is_none())
                .map(|(&j, _)| j)
                .collect();
            for j in olds {
                cell.open[m as usize].push((j, k));
            }
        }
        let t = now.as_secs_f64();
        for &k in &added {
            let a = cell_address(k, m);
            self.series
                .push_owned(t, "node", node.0, a.to_string(), "ar_address", 1.0);
            self.notify(node, &NetEvent::AddrAdded { addr: a });
        }
        if changed {
            if let Some(p) = preferred {
                let a = cell_address(p, m);
                self.series
                    .push_owned(t, "node", node.0, a.to_string(), "ar_preferred", 1.0);
                self.notify(node, &NetEvent::AddrPreferred { addr: a });
            }
        }
        for &k in &removed {
            let a = cell_address(k, m);
            self.series
                .push_owned(t, "node", node.0, a.to_string(), "ar_address", 0.0);
            self.notify(node, &NetEvent::AddrRemoved { addr: a });
            self.cell_close(node, k, now);
        }
    }

    /// The access-router mobility route layer (`fib.rs`): the next hop of a packet from
    /// `node` with source `src` to `dst` when access-router mobility decides it — a mobile's
    /// packets (to the access router whose subnet the source address is in, else the
    /// preferred one), and packets to a mobile's cellular address (the access router sends on
    /// its cell; every other node sends towards that access router). `None` for every other
    /// packet, and without access-router mobility: the next layers route it.
    pub(super) fn cell_layer(
        &mut self,
        node: NodeId,
        src: Option<Ipv4Addr>,
        dst: Ipv4Addr,
    ) -> Option<Result<Hop, NoHop>> {
        let cell = self.cell.as_deref()?;
        let wifi = &*self.wifi;
        let nodes = &self.nodes;
        // The MAC address of AR k's radio.
        let ar_mac = |k: u32| {
            let r = router(nodes, *cell.ars.get(k as usize)?)?;
            Some(wifi.ifaces[r.w as usize].mac)
        };
        match agent_of(nodes, node).map(|a| &a.role) {
            Some(Role::CellMobile(mob)) => {
                // An AR's own address: straight to it if heard.
                if let Some(&k) = cell.router_addr.get(&dst) {
                    return Some(match ar_mac(k) {
                        Some(mac) if mob.views.contains_key(&k) => Ok(Hop::Wifi(mob.w, mac)),
                        _ => Err(NoHop::NoRoute),
                    });
                }
                // By source address: the AR whose subnet it is in, if held; else the preferred.
                let k = match src.and_then(|s| cell.owner(s)) {
                    Some((k, mm)) if mm == mob.m => Some(k).filter(|k| mob.holds(*k)),
                    _ => mob.preferred,
                };
                return Some(match k.map(ar_mac) {
                    Some(Some(mac)) => Ok(Hop::Wifi(mob.w, mac)),
                    Some(None) => Err(NoHop::NoRoute),
                    None => Err(NoHop::NoAgent),
                });
            }
            Some(Role::AccessRouter(r)) => {
                let (k, m) = cell.owner(dst)?;
                if r.k == k {
                    let mob = mobile(nodes, cell.mobiles[m as usize]).filter(|x| x.holds(k));
                    return Some(match mob {
                        Some(mob) => Ok(Hop::Wifi(r.w, wifi.ifaces[mob.w as usize].mac)),
                        None => Err(NoHop::NoRoute),
                    });
                }
            }
            _ => {}
        }
        let (k, _) = cell.owner(dst)?;
        let addr = router(nodes, cell.ars[k as usize])?.addr;
        Some(
            self.static_route(node, addr)
                .map(Hop::Link)
                .ok_or(NoHop::NoRoute),
        )
    }

    /// Whether `dst` is a cellular address of mobile `node` (held or not: an AR forwards only
    /// to a holder, so a packet that arrives was sent while it was held).
    #[inline(never)]
    pub(super) fn cell_local(&self, node: NodeId, dst: Ipv4Addr) -> bool {
        self.cell.as_ref().is_some_and(|cell| {
            mobile(&self.nodes, node)
                .is_some_and(|mob| cell.owner(dst).is_some_and(|(_, m)| m == mob.m))
        })
    }

    /// A flow end at mobile `node` received data on its cellular address `dst`
    /// ([`super::transport::Received::addr_arrival`]): when data first and last arrived on
    /// that address, and the duplicates, for the handoffs table.
    pub(super) fn cell_addr_arrival(&mut self, node: NodeId, dst: Ipv4Addr, data: AddrArrival) {
        let now = self.now;
        let Some(cell) = self.cell.as_mut() else {
            return;
        };
        let (Some(mob), Some((k, m))) = (mobile_mut(&mut self.nodes, node), cell.owner(dst)) else {
            return;
        };
        if m != mob.m {
            return;
        }
        for _ in 0..data.duplicates {
            mob.dup_times.push(now);
        }
        let d = mob.data.entry(k).or_default();
        d.0.get_or_insert(now);
        d.1 = Some(now);
    }

    /// `rows` DATA chunks of a flow were dropped now.
    #[inline(never)]
    pub(super) fn cell_count_drop(&mut self, rows: u64) {
        let now = self.now;
        if let Some(c) = self.cell.as_mut() {
            if rows > 0 {
                c.drop_times.push((now, rows));
            }
        }
    }

    /// The handovers of the mobile at `node` away from AR `k` end: its address there was
    /// released.
    fn cell_close(&mut self, node: NodeId, k: u32, now: SimTime) {
        let Some(cell) = self.cell.as_mut() else {
            return;
        };
        let Some(mob) = mobile(&self.nodes, node) else {
            return;
        };
        let m = mob.m;
        let open = std::mem::take(&mut cell.open[m as usize]);
        let (closing, rest): (Vec<_>, Vec<_>) = open.into_iter().partition(|&(old, _)| old == k);
        cell.open[m as usize] = rest;
        for (old, new) in closing {
            let data = &mob.data;
            cell.closed.push(Closed {
                m,
                old,
                new,
                released: now,
                first_new: data.get(&new).and_then(|d| d.0),
                last_old: data.get(&old).and_then(|d| d.1),
            });
        }
    }

    /// Rows of the handovers still open at the end of the run.
    pub(super) fn cell_finish(&mut self) {
        let Some(cell) = self.cell.as_mut() else {
            return;
        };
        let open: Vec<(u32, Vec<(u32, u32)>)> = cell
            .open
            .iter_mut()
            .enumerate()
            .map(|(m, v)| (m as u32, std::mem::take(v)))
            .collect();
        let mut ended = std::mem::take(&mut cell.closed);
        for (m, list) in open {
            let Some(mob) = mobile(&self.nodes, cell.mobiles[m as usize]) else {
                continue;
            };
            for (old, new) in list {
                let data = &mob.data;
                ended.push(Closed {
                    m,
                    old,
                    new,
                    released: SimTime::NEVER,
                    first_new: data.get(&new).and_then(|d| d.0),
                    last_old: data.get(&old).and_then(|d| d.1),
                });
            }
        }
        for c in ended {
            let row = self.cell_row(&c);
            if let Some(cell) = self.cell.as_mut() {
                cell.handoffs.push(row);
            }
        }
    }
}

mod rows;
