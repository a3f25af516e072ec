//! Infrastructure mode in the engine: each wireless node's 802.11 role (`[[node]] wifi`), the
//! MAC roles built from it, where each station is served (the distribution system's view) and
//! the per-interface association counters. The driving code is `crate::sim::infra`.
//!
//! # Routing choice
//!
//! An access point is an IP router between its wireless side and its links (not a layer-2
//! bridge: the simulator has no Ethernet). Static routes in an infrastructure scenario use the
//! links only (no wireless neighbour relations); the wireless hop is the association:
//! * a station sends every packet to the AP it is associated with (Address 1 = BSSID,
//!   Address 3 = the destination's MAC address if it is a wireless interface, else the AP's
//!   — the IP next hop, as a host addresses its default gateway);
//! * a packet for a station goes, over links, to the AP that *last* associated it
//!   ([`Infra::serving`], updated when an AP reports `StaAssociated` — the reassociation
//!   informs the distribution system, IEEE 802.11-2020 §4.5.3.2/§4.5.3.3 — and cleared when
//!   that AP reports `StaDisassociated`), which sends it to the station;
//! * while a station is not associated (or no AP serves it), packets from or to it are dropped
//!   and counted (`unassociated_drops` of the station's interface). Packets already in a
//!   station's MAC queue wait there (the MAC sends no data while unassociated) and go to the
//!   next AP it associates with. When a station reassociates with another AP, the packets
//!   still queued for it at the old AP are dropped and counted there (no buffered-frame
//!   forwarding between APs: no IAPP, no 802.11r).

use crate::scenario::schema::{Scenario, WifiRoleKind, WifiSpec};
use sctpsim_proto::mac::{ApConfig, MacAddr, MacRole, StaConfig};
use std::collections::BTreeMap;

/// Association figures of one wireless interface (`macs.parquet`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct InfraCounts {
    /// STA: associations completed without reassociation. AP: stations associated so.
    pub associations: u64,
    /// STA: reassociations (handoffs) completed. AP: stations that reassociated to it.
    pub reassociations: u64,
    /// STA: times it lost its association. AP: stations that left (deauthentication,
    /// disassociation, or reassociation to another AP reported by the station).
    pub disassociations: u64,
    /// STA: APs it lost for missing beacons.
    pub beacons_lost: u64,
    /// STA: packets from or to it dropped because it was not associated. AP: packets queued
    /// for a station that reassociated with another AP, dropped.
    pub unassociated_drops: u64,
}

/// Infrastructure state of the wireless part.
#[derive(Clone, Debug, Default)]
pub struct Infra {
    /// Per wireless interface: its role.
    pub role: Vec<WifiRoleKind>,
    /// Per wireless interface: its counters.
    pub counts: Vec<InfraCounts>,
    /// Station node → the AP node that serves it.
    pub serving: BTreeMap<u32, u32>,
    /// MAC address → node index of every wireless interface.
    pub node_of_mac: BTreeMap<MacAddr, u32>,
}

impl Infra {
    /// The role of wireless interface `w`.
    pub fn role(&self, w: u32) -> WifiRoleKind {
        self.role.get(w as usize).copied().unwrap_or_default()
    }
}

/// The MAC role of node `k` (`None`: ad hoc).
pub fn mac_role(s: &Scenario, k: usize) -> Option<MacRole> {
    let w: &WifiSpec = s.node.get(k)?.wifi.as_ref()?;
    match w.role {
        WifiRoleKind::Adhoc => None,
        WifiRoleKind::Ap => {
            let mut ap = ApConfig::new(w.ssid.as_deref().unwrap_or("").as_bytes());
            if let Some(tu) = w.beacon_interval_tu() {
                ap.beacon_interval_tu = tu.clamp(1, u64::from(u16::MAX)) as u16;
            }
            if let Some(c) = w.channel {
                ap.channel = c;
            }
            Some(MacRole::Ap(ap))
        }
        WifiRoleKind::Sta => {
            let mut sta = StaConfig {
                ssid: w.ssid.as_ref().map(|x| x.as_bytes().to_vec()),
                ..StaConfig::default()
            };
            if let Some(h) = w.handoff_hysteresis_db {
                sta.handoff_hysteresis_db = h;
            }
            if let Some(m) = w.max_missed_beacons {
                sta.max_missed_beacons = m;
            }
            Some(MacRole::Sta(sta))
        }
    }
}
