//! `[[node]] wifi = { ... }`: the 802.11 role of a wireless node — a station of the ad hoc
//! network (the default), an access point or an infrastructure station
//! (`sctpsim_proto::mac::MacRole`). `docs/scenario.md` ("Infrastructure mode") documents each
//! field; `check_infra` below holds the semantic checks, `wireless::infra` the engine
//! side.

use super::error::ScenarioError;
use super::quantity::Duration;
use super::schema::Scenario;
use serde::{Deserialize, Serialize};

/// 802.11 time unit in ns (IEEE 802.11-2020 §3.1: 1 TU = 1024 µs).
pub const TU_NS: u64 = 1_024_000;

/// Longest SSID: 32 octets (IEEE 802.11-2020 §9.4.2.2).
pub const MAX_SSID_BYTES: usize = 32;

/// Which MAC role (`wifi.role`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WifiRoleKind {
    /// Member of the simulator's IBSS (unchanged behaviour of wireless nodes).
    #[default]
    Adhoc,
    /// Access point: beacons, authentication, (re)association; bridges the wireless side to
    /// its links at the IP layer.
    Ap,
    /// Infrastructure station: scans passively, associates, reassociates to a stronger AP.
    Sta,
}

/// `wifi = { ... }` of a `[[node]]`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WifiSpec {
    /// The role. Default `adhoc`.
    #[serde(default)]
    pub role: WifiRoleKind,
    /// AP: the SSID it advertises (required). STA: join only APs advertising it (default: any).
    #[serde(default)]
    pub ssid: Option<String>,
    /// AP: time between beacons, rounded to whole TU (1 TU = 1.024 ms), at least 1 TU and at
    /// most 65,535 TU. Default 102.4 ms (dot11BeaconPeriod, 100 TU, IEEE 802.11-2020 Annex C).
    #[serde(default)]
    pub beacon_interval: Option<Duration>,
    /// AP: channel advertised in the DSSS Parameter Set element, 1–14. Default 1. All radios
    /// share one medium whatever their channel.
    #[serde(default)]
    pub channel: Option<u8>,
    /// STA: reassociate when another AP's last beacon is at least this much stronger than the
    /// current AP's (dB, ≥ 0). Default 3.
    #[serde(default)]
    pub handoff_hysteresis_db: Option<f64>,
    /// STA: an AP not heard for this many of its beacon intervals is lost (≥ 1). Default 10
    /// (ns-3 `StaWifiMac::MaxMissedBeacons`).
    #[serde(default)]
    pub max_missed_beacons: Option<u32>,
}

impl WifiSpec {
    /// The beacon interval in TU (nearest whole TU), if given.
    pub fn beacon_interval_tu(&self) -> Option<u64> {
        self.beacon_interval
            .map(|d| (d.0 .0.saturating_add(TU_NS / 2)) / TU_NS)
    }
}

/// Whether any node has an infrastructure role (AP or STA).
pub fn has_infra(s: &Scenario) -> bool {
    s.node.iter().any(|n| {
        n.wifi
            .as_ref()
            .is_some_and(|w| w.role != WifiRoleKind::Adhoc)
    })
}

/// Checks the `wifi` fields of every node.
pub fn check_infra(s: &Scenario) -> Result<(), ScenarioError> {
    let mut ap_ssids = Vec::new();
    for (i, n) in s.node.iter().enumerate() {
        let Some(w) = &n.wifi else { continue };
        let p = format!("node[{i}].wifi");
        if !n.wireless {
            return Err(ScenarioError::at(
                p,
                "only for wireless nodes (add wireless = true)",
            ));
        }
        let only = |field: &str, set: bool, role: &str| {
            if set {
                Err(ScenarioError::at(
                    format!("{p}.{field}"),
                    format!("only for role = \"{role}\""),
                ))
            } else {
                Ok(())
            }
        };
        if let Some(ssid) = &w.ssid {
            if ssid.is_empty() || ssid.len() > MAX_SSID_BYTES {
                return Err(ScenarioError::at(
                    format!("{p}.ssid"),
                    format!("must be 1 to {MAX_SSID_BYTES} bytes long"),
                ));
            }
        }
        match w.role {
            WifiRoleKind::Adhoc => {
                only("ssid", w.ssid.is_some(), "ap\" or \"sta")?;
                only("beacon_interval", w.beacon_interval.is_some(), "ap")?;
                only("channel", w.channel.is_some(), "ap")?;
                only(
                    "handoff_hysteresis_db",
                    w.handoff_hysteresis_db.is_some(),
                    "sta",
                )?;
                only("max_missed_beacons", w.max_missed_beacons.is_some(), "sta")?;
            }
            WifiRoleKind::Ap => {
                only(
                    "handoff_hysteresis_db",
                    w.handoff_hysteresis_db.is_some(),
                    "sta",
                )?;
                only("max_missed_beacons", w.max_missed_beacons.is_some(), "sta")?;
                let Some(ssid) = &w.ssid else {
                    return Err(ScenarioError::at(
                        format!("{p}.ssid"),
                        "an access point needs an SSID",
                    ));
                };
                ap_ssids.push(ssid.clone());
                if let Some(tu) = w.beacon_interval_tu() {
                    if !(1..=u64::from(u16::MAX)).contains(&tu) {
                        return Err(ScenarioError::at(
                            format!("{p}.beacon_interval"),
                            "must be 1 TU (1.024ms) to 65535 TU (67.1s)",
                        ));
                    }
                }
                if let Some(c) = w.channel {
                    if !(1..=14).contains(&c) {
                        return Err(ScenarioError::at(
                            format!("{p}.channel"),
                            "must be 1 to 14 (2.4 GHz DSSS channels)",
                        ));
                    }
                }
            }
            WifiRoleKind::Sta => {
                only("beacon_interval", w.beacon_interval.is_some(), "ap")?;
                only("channel", w.channel.is_some(), "ap")?;
                if let Some(h) = w.handoff_hysteresis_db {
                    if !h.is_finite() || h < 0.0 {
                        return Err(ScenarioError::at(
                            format!("{p}.handoff_hysteresis_db"),
                            "must be a finite number ≥ 0",
                        ));
                    }
                }
                if w.max_missed_beacons == Some(0) {
                    return Err(ScenarioError::at(
                        format!("{p}.max_missed_beacons"),
                        "must be at least 1",
                    ));
                }
            }
        }
    }
    if !has_infra(s) {
        return Ok(());
    }
    if s.nodes.is_some() {
        return Err(ScenarioError::at(
            "nodes",
            "generated nodes are ad hoc: not with access points and stations",
        ));
    }
    for (i, n) in s.node.iter().enumerate() {
        let role = n.wifi.as_ref().map(|w| w.role).unwrap_or_default();
        if n.wireless && role == WifiRoleKind::Adhoc {
            return Err(ScenarioError::at(
                format!("node[{i}].wifi.role"),
                "ad hoc nodes cannot share a scenario with access points and stations (one medium, one kind of network): give every wireless node role = \"ap\" or \"sta\"",
            ));
        }
        if role == WifiRoleKind::Sta {
            if let Some(ssid) = n.wifi.as_ref().and_then(|w| w.ssid.as_ref()) {
                if !ap_ssids.contains(ssid) {
                    return Err(ScenarioError::at(
                        format!("node[{i}].wifi.ssid"),
                        format!("no access point advertises \"{ssid}\""),
                    ));
                }
            }
        }
    }
    if ap_ssids.is_empty() {
        let first = s
            .node
            .iter()
            .position(|n| n.wifi.as_ref().is_some_and(|w| w.role == WifiRoleKind::Sta))
            .unwrap_or(0);
        return Err(ScenarioError::at(
            format!("node[{first}].wifi.role"),
            "stations need at least one node with role = \"ap\"",
        ));
    }
    if s.beacons.is_some() {
        return Err(ScenarioError::at(
            "beacons",
            "[beacons] broadcasts are for ad hoc networks; infrastructure APs send 802.11 beacons",
        ));
    }
    Ok(())
}
