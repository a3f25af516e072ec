//! The wireless part of the engine: the shared medium, radios, 802.11 interfaces and the radio
//! presets. `docs/models/phy.md` ("The engine's channel") describes the model; the driving
//! code (events, IP glue, results) is `crate::sim::wireless`.
//!
//! * [`channel`] — positions (lazy mobility), the spatial grid, received power and propagation
//!   delay of each transmission at each radio in range, the frames on the air.
//! * [`radio`] — per-radio reception: threshold (ns-2) or SINR (cumulative interference), CCA
//!   edges, half duplex.
//! * [`iface`] — a wireless interface: `Dcf` + radio + IP → MAC mapping (ad hoc, no ARP).
//! * [`profiles`] — `[radio]` presets → MAC configuration, power, propagation, reception.
//! * [`mobility`] — `[mobility]` and node positions → one motion per wireless node.
//! * [`routing`] — static shortest-path routes over links and wireless neighbours at t = 0.
//! * [`infra`] — `[[node]] wifi` roles (access points, stations), who serves each station.
//! * [`beacon`] — `[beacons]`: when each interface broadcasts its next beacon, counters.
//!
//! Random streams (stable keys, DESIGN.md §1.3; `node` is the index in the scenario's node
//! list, `iface` the interface index at the node): `("dcf-backoff", node, iface)` for the MAC,
//! `("sinr-rx", node, iface)` for SINR reception draws, `("frame-error", node, iface)` for the
//! distance-dependent frame errors, `("shadowing", tx node, rx node)` for
//! log-normal shadowing, `("placement", node)` and `("mobility", node)` for positions, `("beacon", node)` for beacon
//! intervals.

pub mod beacon;
pub mod channel;
pub mod iface;
pub mod infra;
pub mod radio;
pub mod routing;
// The scenario → model resolution of `[radio]` and `[mobility]` lives with the scenario
// (`scenario::radio`, `scenario::mobility`, which its checks use); these are their old paths.
pub use crate::scenario::mobility;
pub use crate::scenario::radio as profiles;
pub use crate::scenario::trace_file;

use crate::scenario::{check_wireless::has_wireless, Scenario, ScenarioError};
use crate::topology::{Iface, Topology};
use channel::{Channel, FrameSlab, Motion};
use iface::{default_addr, AddrMap, WifiIface, ADHOC_BSSID};
use profiles::RadioParams;
use radio::Radio;
use routing::Routes;
use sctpsim_kernel::{LinkId, NodeId, SeedTree, SimTime, StreamKey};
use sctpsim_proto::mac::{Dcf, MacAddr, MacRole};

/// Name of the wireless interface in captures (`<node>-wlan0.pcap`).
pub const IFACE_NAME: &str = "wlan0";

/// The whole wireless state of a simulation.
#[derive(Clone, Debug)]
pub struct Wireless {
    /// The resolved radio configuration.
    pub params: RadioParams,
    /// The medium.
    pub channel: Channel,
    /// Frames on the air.
    pub frames: FrameSlab,
    /// The interfaces; index = radio index in the channel.
    pub ifaces: Vec<WifiIface>,
    /// IP → MAC of every wireless interface.
    pub addrs: AddrMap,
    /// Static routes.
    pub routes: Routes,
    /// Beacons (`[beacons]`), if configured.
    pub beacons: Option<beacon::Beacons>,
    /// Infrastructure mode (`[[node]] wifi` roles), if any node is an AP or a station.
    pub infra: Option<infra::Infra>,
}

impl Wireless {
    /// The wireless part of a scenario without wireless nodes: no interface, an empty
    /// channel (nothing is ever transmitted on it).
    pub fn empty(seeds: &SeedTree) -> Result<Wireless, ScenarioError> {
        let params = RadioParams::from_spec(&crate::scenario::RadioSpec::default())?;
        let channel = Channel::new(&params, Vec::new(), Vec::new(), None, seeds);
        Ok(Wireless {
            params,
            channel,
            frames: FrameSlab::default(),
            ifaces: Vec::new(),
            addrs: AddrMap::default(),
            routes: Routes::new(Vec::new()),
            beacons: None,
            infra: None,
        })
    }

    /// Whether there is no wireless interface (a wired scenario).
    pub fn is_empty(&self) -> bool {
        self.ifaces.is_empty()
    }

    /// Builds the wireless part of scenario `s`: a `wlan0` interface (after its link
    /// interfaces) with address `10.128.0.0 + (k + 1)` on every wireless node `k`, its MAC and
    /// radio, the channel and the static routes. `None` if the scenario has no wireless node.
    pub fn build(
        s: &Scenario,
        topo: &mut Topology,
        seeds: &SeedTree,
    ) -> Result<Option<Wireless>, ScenarioError> {
        if !has_wireless(s) {
            return Ok(None);
        }
        let params = RadioParams::from_spec(&s.radio.clone().unwrap_or_default())?;
        let motion = mobility::build_motion(s, seeds)?;
        let mut ifaces = Vec::with_capacity(motion.len());
        let mut addrs = AddrMap::default();
        let mut motions: Vec<Motion> = Vec::with_capacity(motion.len());
        let mut node_of = Vec::with_capacity(motion.len());
        let infra_mode = crate::scenario::schema::has_infra(s);
        let mut infra = infra::Infra::default();
        // One configuration shared by every MAC (read on every frame, never changed). DSR's
        // tap needs the overheard frames: promiscuous reception (the setting is the same for
        // every node, `[routing.dsr]` being network-wide).
        let mut mac = params.mac.clone();
        mac.promiscuous |= crate::routing_protocols::wants_promiscuous(s);
        let mac_cfg = std::sync::Arc::new(mac);
        for (k, m) in motion {
            let w = ifaces.len() as u32;
            let node = &mut topo.nodes[k];
            let index = node.ifaces.len() as u32;
            let addr = default_addr(k);
            let mac = MacAddr::local(k as u32, index.min(255) as u8);
            node.wlan = Some(w);
            node.ifaces.push(Iface {
                name: IFACE_NAME.to_string(),
                addr,
                link: LinkId(u32::MAX),
                tx_dir: 0,
                wireless: Some(w),
            });
            topo.addr_owner.insert(addr, NodeId(k as u32));
            addrs.insert(addr, mac);
            let key = |purpose: &str| {
                StreamKey::new(purpose)
                    .with(k as u64)
                    .with(u64::from(index))
            };
            let mut dcf = Dcf::new(
                mac,
                mac_cfg.clone(),
                infra::mac_role(s, k).unwrap_or(MacRole::AdHoc { bssid: ADHOC_BSSID }),
                seeds.stream(&key("dcf-backoff")),
            );
            if mac_cfg.rate_control.is_adaptive() {
                // Minstrel's sampling stream (ARF and AARF draw nothing).
                dcf.set_rate_control_stream(seeds.stream(&key("minstrel")));
            }
            let radio = Radio::new(params.reception.clone(), seeds.stream(&key("sinr-rx")))
                .with_frame_error(
                    params.frame_error.clone(),
                    params.frame_error_unit,
                    seeds.stream(&key("frame-error")),
                );
            ifaces.push(WifiIface {
                node: NodeId(k as u32),
                iface: index,
                addr,
                mac,
                dcf,
                radio,
                wake: Default::default(),
            });
            motions.push(m);
            node_of.push(k as u32);
            if infra_mode {
                infra
                    .role
                    .push(s.node[k].wifi.as_ref().map(|w| w.role).unwrap_or_default());
                infra.counts.push(infra::InfraCounts::default());
                infra.node_of_mac.insert(mac, k as u32);
            }
        }
        let end = SimTime::ZERO + s.simulation.duration.0;
        let beacons = s
            .beacons
            .as_ref()
            .map(|b| beacon::Beacons::new(b, &node_of, seeds, end));
        let area = s.mobility.as_ref().and_then(|m| m.area_m);
        let mut channel = Channel::new(&params, motions, node_of.clone(), area, seeds);
        let need = params.neighbour_power_w();
        let radio_neighbours = channel.neighbours(SimTime::ZERO, need);
        let mut neighbours = vec![Vec::new(); topo.nodes.len()];
        // Infrastructure mode, Mobile IP and access-router mobility: static routes use the
        // links only; the wireless hop is the layer's (`scenario/route_layers.rs`).
        let managed = crate::scenario::route_layers::wireless_hop_managed(s);
        let radio_neighbours = if managed {
            Vec::new()
        } else {
            radio_neighbours
        };
        if !managed {
            topo.add_wireless_host_routes(&crate::topology::sctp_hosts(s));
        }
        for (r, list) in radio_neighbours.into_iter().enumerate() {
            let mut nodes: Vec<u32> = list.into_iter().map(|x| node_of[x as usize]).collect();
            nodes.sort_unstable();
            neighbours[node_of[r] as usize] = nodes;
        }
        Ok(Some(Wireless {
            params,
            channel,
            frames: FrameSlab::default(),
            ifaces,
            addrs,
            routes: Routes::new(neighbours),
            beacons,
            infra: infra_mode.then_some(infra),
        }))
    }
}
