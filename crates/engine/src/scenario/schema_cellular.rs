//! Access-router mobility in a scenario (the cellular SCTP study, Aydin & Shen 2005;
//! `docs/models/cellular.md`): a node's role (`[[node]] cellular = { role = ... }`) and the
//! movement-detection and address-acquisition parameters (`[cellular]`). The engine side is
//! `sim::cellular`; what an SCTP association does with the addresses is
//! `flows.sctp.csctp` (`schema_sctp.rs`).

use super::error::ScenarioError;
use super::quantity::Duration;
use super::schema::Scenario;
use serde::{Deserialize, Serialize};

/// `cellular.role` of a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellRoleKind {
    /// An access router: its own subnet behind its wired link, layer-3 beacons on its cell
    /// (Aydin & Shen §II.A "ARs broadcast periodical beacon messages").
    AccessRouter,
    /// A mobile station: one address per access router it hears.
    Mobile,
}

/// `cellular = { ... }` of a `[[node]]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CellNodeSpec {
    /// The node's role.
    pub role: CellRoleKind,
}

/// How the address-acquisition delay is drawn (`cellular.acquisition_distribution`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AcquisitionDistKind {
    /// Always `acquisition_delay` (the paper's fixed values).
    #[default]
    Fixed,
    /// Uniform on [0, 2 × `acquisition_delay`] (mean `acquisition_delay`).
    Uniform,
    /// Exponential with mean `acquisition_delay`.
    Exponential,
}

/// `[cellular]`: movement detection and address acquisition; absent fields keep their
/// defaults (Aydin & Shen 2005 §III).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CellularSpec {
    /// Time between an access router's beacons. Default 1 s ("Each AR sends beacon message
    /// in every 1 second", §III).
    #[serde(default)]
    pub beacon_interval: Option<Duration>,
    /// An access router not heard for this long is lost and its address released. Default 3 s
    /// ("If MN does not hear any beacon message from an AR up to 3 seconds", §III).
    #[serde(default)]
    pub lost_after: Option<Duration>,
    /// Time from the first beacon of a new access router to holding an address in its subnet
    /// (DHCP or stateless autoconfiguration; the paper's footnote 2). Default 1 s, one of the
    /// paper's values (250 ms, 500 ms, 1 s, 3 s).
    #[serde(default)]
    pub acquisition_delay: Option<Duration>,
    /// How the delay is drawn. Default `fixed`.
    #[serde(default)]
    pub acquisition_distribution: Option<AcquisitionDistKind>,
    /// A held address becomes the preferred one when its access router's beacons are this
    /// much stronger than the current preferred one's, dB. Default 0 (the paper: "the CN
    /// always uses the best path").
    #[serde(default)]
    pub hysteresis_db: Option<f64>,
}

/// Defaults of `[cellular]` (Aydin & Shen 2005 §III).
pub const DEFAULT_BEACON_INTERVAL_NS: u64 = 1_000_000_000;
/// See [`CellularSpec::lost_after`].
pub const DEFAULT_LOST_AFTER_NS: u64 = 3_000_000_000;
/// See [`CellularSpec::acquisition_delay`].
pub const DEFAULT_ACQUISITION_NS: u64 = 1_000_000_000;

/// Checks the `cellular` fields of the nodes and `[cellular]`.
pub fn check_cellular(s: &Scenario) -> Result<(), ScenarioError> {
    let mut routers = 0usize;
    let mut mobiles = 0usize;
    for (i, n) in s.node.iter().enumerate() {
        let Some(c) = &n.cellular else { continue };
        let p = format!("node[{i}].cellular");
        if !n.wireless {
            return Err(ScenarioError::at(
                p,
                "access-router mobility needs a wireless interface (add wireless = true)",
            ));
        }
        match c.role {
            CellRoleKind::AccessRouter => routers += 1,
            CellRoleKind::Mobile => mobiles += 1,
        }
    }
    if routers > 4096 {
        return Err(ScenarioError::at(
            "node",
            "at most 4096 access routers (one /24 each in 172.16.0.0/12)",
        ));
    }
    if mobiles > 240 {
        return Err(ScenarioError::at(
            "node",
            "at most 240 cellular mobiles (host numbers 10-249 of each access router's /24)",
        ));
    }
    if routers + mobiles > 0 && (routers == 0 || mobiles == 0) {
        return Err(ScenarioError::at(
            "node",
            "access-router mobility needs at least one node with cellular.role = \
             \"access-router\" and one with \"mobile\"",
        ));
    }
    if let Some(spec) = &s.cellular {
        if routers == 0 {
            return Err(ScenarioError::at("cellular", "no node has a cellular role"));
        }
        for (name, d) in [
            ("beacon_interval", spec.beacon_interval),
            ("lost_after", spec.lost_after),
        ] {
            if d.is_some_and(|d| d.0.as_nanos() == 0) {
                return Err(ScenarioError::at(
                    format!("cellular.{name}"),
                    "must be positive",
                ));
            }
        }
        if let Some(h) = spec.hysteresis_db {
            if !h.is_finite() || h < 0.0 {
                return Err(ScenarioError::at(
                    "cellular.hysteresis_db",
                    "must be a finite number of dB ≥ 0",
                ));
            }
        }
    }
    Ok(())
}
