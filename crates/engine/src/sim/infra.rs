//! Driving infrastructure mode (`crate::wireless::infra`): the access points' and stations'
//! MAC timers from t = 0, IP output to and from stations (the association is the wireless
//! hop; links carry the rest), and the MAC's association events → time series and counters.
//!
//! Time-series rows (scope `node`, id = the node's index): `assoc` at every association change
//! of a station (value: the AP's node index, −1 when not associated), and `beacon_rssi_dbm`
//! per beacon a station receives from an AP advertising its SSID (`dir` = the AP's node name).
//! The latter is one row per station per audible AP per beacon interval — about 10 rows/s per
//! pair with the default 102.4 ms — meant for small handoff scenarios.

use super::net_events::NetEvent;
use super::Simulation;
use crate::drop::DropReason;
use crate::wireless::infra::InfraCounts;
use sctpsim_kernel::NodeId;
use sctpsim_proto::mac::MacEvent;

impl Simulation {
    /// Arms the MAC timers of every AP and station (first beacon, scan deadlines).
    pub(super) fn infra_start(&mut self) {
        if self.wifi.infra.is_none() {
            return;
        }
        let n = self.wifi.ifaces.len() as u32;
        for w in 0..n {
            self.wifi_pump(w);
        }
    }

    /// An association event of MAC `w` (other events are ignored).
    pub(super) fn infra_event(&mut self, w: u32, ev: MacEvent) {
        let t = self.now.as_secs_f64();
        let wifi = &mut *self.wifi;
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
                let ev = NetEvent::Association {
                    ap: ap.map(NodeId),
                    reassociation,
                };
                self.notify(NodeId(node), &ev);
            }
            MacEvent::BeaconRssi { ap, rssi_dbm } => {
                let Some(&k) = infra.node_of_mac.get(&ap) else {
                    return;
                };
                let name = self.nodes[k as usize].name.clone();
                self.series
                    .push_owned(t, "node", node, name, "beacon_rssi_dbm", rssi_dbm);
                let ev = NetEvent::BeaconRssi {
                    ap: NodeId(k),
                    rssi_dbm,
                };
                self.notify(NodeId(node), &ev);
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
        let wifi = &mut *self.wifi;
        let Some(w) = self.nodes.get(old as usize).and_then(|n| n.wlan) else {
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
            let at = self.mac_at(w);
            self.drop_packet(at, &sdu.into_packet(), DropReason::Unassociated);
        }
    }

    /// The association counters of wireless interface `w` (zero in ad hoc networks).
    pub(super) fn infra_counts(&self, w: usize) -> InfraCounts {
        self.wifi
            .infra
            .as_ref()
            .and_then(|i| i.counts.get(w).copied())
            .unwrap_or_default()
    }
}
