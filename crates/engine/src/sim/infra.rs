//! Driving infrastructure mode (`crate::wireless::infra`): the access points' and stations'
//! MAC timers from t = 0, IP output to and from stations (the association is the wireless
//! hop; links carry the rest), and the MAC's association events → time series and counters.
//!
//! Time-series rows (scope `node`, id = the node's index): `assoc` at every association change
//! of a station (value: the AP's node index, −1 when not associated), and `beacon_rssi_dbm`
//! per beacon a station receives from an AP advertising its SSID (`dir` = the AP's node name).
//! The latter is one row per station per audible AP per beacon interval — about 10 rows/s per
//! pair with the default 102.4 ms — meant for small handoff scenarios.

use super::Simulation;
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::scenario::schema::WifiRoleKind;
use crate::wireless::infra::InfraCounts;
use sctpsim_kernel::NodeId;
use sctpsim_proto::mac::{MacEvent, MacSdu};
use std::net::Ipv4Addr;

/// Where a packet goes next in an infrastructure network.
enum InfraHop {
    /// Not an infrastructure case: the ordinary routes decide.
    Ordinary,
    /// Out of wireless interface `w` to MAC DA `da` (a station uplink or an AP downlink).
    Wireless(u32, sctpsim_proto::mac::MacAddr),
    /// Out of link interface `iface` of the node.
    Link(u32),
    /// Dropped: the station is not associated (counted at wireless interface `w`).
    Unassociated(u32),
    /// No route.
    NoRoute,
}

impl Simulation {
    /// Arms the MAC timers of every AP and station (first beacon, scan deadlines).
    pub(super) fn infra_start(&mut self) {
        let n = match self.wifi.as_ref() {
            Some(w) if w.infra.is_some() => w.ifaces.len() as u32,
            _ => return,
        };
        for w in 0..n {
            self.wifi_pump(w);
        }
    }

    /// The next hop of a packet from `node` to `dst` in an infrastructure network.
    fn infra_hop(&mut self, node: NodeId, dst: Ipv4Addr) -> InfraHop {
        let Some(wifi) = self.wifi.as_mut() else {
            return InfraHop::Ordinary;
        };
        let Some(infra) = wifi.infra.as_ref() else {
            return InfraHop::Ordinary;
        };
        let Some(owner) = self.topo.addr_owner.get(&dst).copied() else {
            return InfraHop::Ordinary;
        };
        let role_of = |n: u32| {
            wifi.by_node
                .get(n as usize)
                .copied()
                .flatten()
                .map(|w| (w, infra.role(w)))
        };
        if owner == node {
            return InfraHop::Ordinary;
        }
        // A station: over a link if one leads there, else to its AP.
        if let Some((w, WifiRoleKind::Sta)) = role_of(node.0) {
            if let Some((iface, _)) = wifi.routes.lookup(&self.topo, node.0, owner.0) {
                return InfraHop::Link(iface);
            }
            let f = &wifi.ifaces[w as usize];
            let Some(bssid) = f.dcf.bssid() else {
                return InfraHop::Unassociated(w);
            };
            let da = wifi.addrs.resolve(dst).unwrap_or(bssid);
            return InfraHop::Wireless(w, da);
        }
        // For a station: to the AP serving it.
        if let Some((sw, WifiRoleKind::Sta)) = role_of(owner.0) {
            let Some(&ap) = infra.serving.get(&owner.0) else {
                return InfraHop::Unassociated(sw);
            };
            if ap == node.0 {
                let (Some(aw), Some(mac)) = (role_of(ap).map(|x| x.0), wifi.addrs.resolve(dst))
                else {
                    return InfraHop::NoRoute;
                };
                return InfraHop::Wireless(aw, mac);
            }
            return match wifi.routes.lookup(&self.topo, node.0, ap) {
                Some((iface, _)) => InfraHop::Link(iface),
                None => InfraHop::NoRoute,
            };
        }
        InfraHop::Ordinary
    }

    /// IP output in an infrastructure network. Gives the packet back when the ordinary routes
    /// decide.
    pub(super) fn infra_ip_output(
        &mut self,
        node: NodeId,
        dst: Ipv4Addr,
        pkt: Packet,
    ) -> Option<Packet> {
        match self.infra_hop(node, dst) {
            InfraHop::Ordinary => Some(pkt),
            InfraHop::Link(iface) => {
                self.link_output(node, iface, pkt);
                None
            }
            InfraHop::Wireless(w, da) => {
                let now = self.now;
                if let Some(wifi) = self.wifi.as_mut() {
                    wifi.ifaces[w as usize].dcf.enqueue(
                        now,
                        MacSdu {
                            dst: da,
                            bytes: pkt.bytes,
                            is_control: false,
                            tag: pkt.tag,
                        },
                    );
                    self.wifi_pump(w);
                }
                None
            }
            InfraHop::Unassociated(w) => {
                if let Some(i) = self.wifi.as_mut().and_then(|x| x.infra.as_mut()) {
                    if let Some(c) = i.counts.get_mut(w as usize) {
                        c.unassociated_drops += 1;
                    }
                }
                self.drop_packet(&pkt, DropReason::Unassociated);
                None
            }
            InfraHop::NoRoute => {
                self.topo.nodes[node.index()].ip.no_route_drops += 1;
                self.drop_packet(&pkt, DropReason::NoRoute);
                None
            }
        }
    }

    /// Whether `node` can send to `dst` now in an infrastructure network (`None`: the
    /// ordinary routes decide).
    pub(super) fn infra_has_route(&mut self, node: NodeId, dst: Ipv4Addr) -> Option<bool> {
        match self.infra_hop(node, dst) {
            InfraHop::Ordinary => None,
            InfraHop::Link(_) | InfraHop::Wireless(..) => Some(true),
            InfraHop::Unassociated(_) | InfraHop::NoRoute => Some(false),
        }
    }

    /// An association event of MAC `w` (other events are ignored).
    pub(super) fn infra_event(&mut self, w: u32, ev: MacEvent) {
        let t = self.now.as_secs_f64();
        let Some(wifi) = self.wifi.as_mut() else {
            return;
        };
        let node = wifi.ifaces[w as usize].node.0;
        let Some(infra) = wifi.infra.as_mut() else {
            return;
        };
        let Some(c) = infra.counts.get_mut(w as usize) else {
            return;
        };
        match ev {
            MacEvent::AssocChanged {
                bssid,
                reassociation,
            } => {
                let ap = bssid.and_then(|b| infra.node_of_mac.get(&b).copied());
                match (bssid, reassociation) {
                    (Some(_), false) => c.associations += 1,
                    (Some(_), true) => c.reassociations += 1,
                    (None, _) => c.disassociations += 1,
                }
                let v = ap.map_or(-1.0, f64::from);
                self.series.push(t, "node", node, "", "assoc", v);
            }
            MacEvent::BeaconRssi { ap, rssi_dbm } => {
                let Some(&k) = infra.node_of_mac.get(&ap) else {
                    return;
                };
                let name = self.topo.nodes[k as usize].name.clone();
                self.series
                    .push_owned(t, "node", node, name, "beacon_rssi_dbm", rssi_dbm);
            }
            MacEvent::BeaconLost { .. } => c.beacons_lost += 1,
            MacEvent::StaAssociated {
                sta, reassociation, ..
            } => {
                if reassociation {
                    c.reassociations += 1;
                } else {
                    c.associations += 1;
                }
                let moved = infra
                    .node_of_mac
                    .get(&sta)
                    .and_then(|&s| infra.serving.insert(s, node))
                    .filter(|&old| old != node);
                if let Some(old) = moved {
                    self.infra_flush_old_ap(old, sta);
                }
            }
            MacEvent::StaDisassociated { sta } => {
                c.disassociations += 1;
                if let Some(&s) = infra.node_of_mac.get(&sta) {
                    if infra.serving.get(&s) == Some(&node) {
                        infra.serving.remove(&s);
                    }
                }
            }
            _ => {}
        }
    }

    /// A station reassociated away from AP node `old`: the packets still waiting in that AP's
    /// queue for it are dropped and counted there (`unassociated_drops`) — the station would
    /// acknowledge and discard them, as frames of another BSS. The frame in service is left to
    /// its fate. No buffered-frame forwarding between APs is modelled (no IAPP, 802.11r).
    fn infra_flush_old_ap(&mut self, old: u32, sta: sctpsim_proto::mac::MacAddr) {
        let Some(wifi) = self.wifi.as_mut() else {
            return;
        };
        let Some(w) = wifi.by_node.get(old as usize).copied().flatten() else {
            return;
        };
        let sdus = wifi.ifaces[w as usize].dcf.remove_queued_for(sta);
        if let Some(c) = wifi
            .infra
            .as_mut()
            .and_then(|i| i.counts.get_mut(w as usize))
        {
            c.unassociated_drops += sdus.len() as u64;
        }
        for sdu in sdus {
            let pkt = Packet {
                bytes: sdu.bytes,
                tag: sdu.tag,
            };
            self.drop_packet(&pkt, DropReason::Unassociated);
        }
    }

    /// The association counters of wireless interface `w` (zero in ad hoc networks).
    pub(super) fn infra_counts(&self, w: usize) -> InfraCounts {
        self.wifi
            .as_ref()
            .and_then(|x| x.infra.as_ref())
            .and_then(|i| i.counts.get(w).copied())
            .unwrap_or_default()
    }
}
