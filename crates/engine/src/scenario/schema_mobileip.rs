//! Mobile IPv4 in a scenario (RFC 5944; `docs/models/mobileip.md`): a node's role
//! (`[[node]] mobile_ip = { role = ... }`) and the protocol's timers (`[mobile_ip]`). The engine
//! side is `sim::mobileip`, the state machines `sctpsim_proto::mobileip`.

use super::error::ScenarioError;
use super::quantity::Duration;
use super::schema::Scenario;
use serde::{Deserialize, Serialize};

/// `mobile_ip.role` of a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MipRoleKind {
    /// A home agent: advertises on its cell, keeps the bindings of its mobile nodes and tunnels
    /// their packets to the care-of address (RFC 5944 §3.8, RFC 2003).
    HomeAgent,
    /// A foreign agent: advertises its care-of address, relays registrations, decapsulates and
    /// delivers to its visitors (RFC 5944 §3.7).
    ForeignAgent,
    /// Both at once (RFC 5944 §2.1: an agent may offer both services).
    Agent,
    /// A mobile node: keeps its home address wherever it is (RFC 5944 §3.6).
    Mobile,
}

/// `mobile_ip = { ... }` of a `[[node]]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MipNodeSpec {
    /// The node's Mobile IP role.
    pub role: MipRoleKind,
    /// Mobile nodes: the name of the home agent's node (required for `mobile`, only for it).
    #[serde(default)]
    pub home_agent: Option<String>,
}

/// `mobile_ip.profile`: where the defaults of `[mobile_ip]` come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MipProfileKind {
    /// ns-2's `Agent/MIPBS` and `Agent/MIPMH` (the Mobile IP study's simulator).
    #[default]
    Ns2,
    /// RFC 5944's values.
    Rfc,
}

/// How a mobile node decides it has moved (`mobile_ip.movement_detection`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MipMovementKind {
    /// RFC 5944 §2.4.2.1: the current agent's advertisement lifetime runs out.
    #[default]
    Lifetime,
    /// A layer-2 trigger: the MAC gives up on a frame to the current agent (retry limit).
    LinkLayer,
}

/// `[mobile_ip]`: the protocol's timers; absent fields keep the profile's value.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MobileIpSpec {
    /// The preset. Default `ns2`.
    #[serde(default)]
    pub profile: MipProfileKind,
    /// Time between an agent's advertisements.
    #[serde(default)]
    pub advertisement_interval: Option<Duration>,
    /// Lifetime carried in each advertisement (whole seconds on the wire).
    #[serde(default)]
    pub advertisement_lifetime: Option<Duration>,
    /// Registration lifetime a mobile node asks for (whole seconds on the wire).
    #[serde(default)]
    pub registration_lifetime: Option<Duration>,
    /// A mobile node resends an unanswered registration request after this.
    #[serde(default)]
    pub registration_retransmit: Option<Duration>,
    /// Movement detection. Default `lifetime`.
    #[serde(default)]
    pub movement_detection: Option<MipMovementKind>,
}

/// Checks the `mobile_ip` fields of the nodes and `[mobile_ip]`.
pub fn check_mobile_ip(s: &Scenario) -> Result<(), ScenarioError> {
    let mut any = false;
    for (i, n) in s.node.iter().enumerate() {
        let Some(m) = &n.mobile_ip else { continue };
        any = true;
        let p = format!("node[{i}].mobile_ip");
        if !n.wireless {
            return Err(ScenarioError::at(
                p,
                "Mobile IP nodes need a wireless interface (add wireless = true)",
            ));
        }
        match (m.role, &m.home_agent) {
            (MipRoleKind::Mobile, None) => {
                return Err(ScenarioError::at(
                    format!("{p}.home_agent"),
                    "a mobile node needs its home agent's node name",
                ))
            }
            (MipRoleKind::Mobile, Some(ha)) => {
                let agent = s.node.iter().find(|x| &x.name == ha);
                let ok = agent
                    .and_then(|x| x.mobile_ip.as_ref())
                    .is_some_and(|x| matches!(x.role, MipRoleKind::HomeAgent | MipRoleKind::Agent));
                if !ok {
                    return Err(ScenarioError::at(
                        format!("{p}.home_agent"),
                        format!("no home agent named \"{ha}\" (a node with mobile_ip.role = \"home-agent\" or \"agent\")"),
                    ));
                }
            }
            (_, Some(_)) => {
                return Err(ScenarioError::at(
                    format!("{p}.home_agent"),
                    "only for role = \"mobile\"",
                ))
            }
            (_, None) => {}
        }
    }
    if let Some(spec) = &s.mobile_ip {
        if !any {
            return Err(ScenarioError::at(
                "mobile_ip",
                "no node has a mobile_ip role",
            ));
        }
        let fields = [
            ("advertisement_interval", spec.advertisement_interval),
            ("advertisement_lifetime", spec.advertisement_lifetime),
            ("registration_lifetime", spec.registration_lifetime),
            ("registration_retransmit", spec.registration_retransmit),
        ];
        for (name, d) in fields {
            if d.is_some_and(|d| d.0.as_nanos() == 0) {
                return Err(ScenarioError::at(
                    format!("mobile_ip.{name}"),
                    "must be positive",
                ));
            }
        }
        for (name, d) in [
            ("advertisement_lifetime", spec.advertisement_lifetime),
            ("registration_lifetime", spec.registration_lifetime),
        ] {
            // RFC 5944 §2.1.1 / §3.3: 16-bit seconds on the wire.
            if d.is_some_and(|d| d.0.as_nanos() > 65_535 * 1_000_000_000) {
                return Err(ScenarioError::at(
                    format!("mobile_ip.{name}"),
                    "at most 65535 s (a 16-bit count of seconds on the wire)",
                ));
            }
        }
    }
    Ok(())
}
