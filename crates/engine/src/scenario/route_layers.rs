//! Which layer owns the wireless hop, and the one rule that keeps layers apart.
//!
//! A node's IP layer asks its route layers in order (`sim/fib.rs`): access-router mobility
//! and Mobile IP (each claims only the packets it manages: a mobile's own, and those to a
//! mobile's addresses), host routes, infrastructure mode, the ad hoc routing protocol, and
//! static routes. Most of them compose — a multi-homed host's link host routes with Mobile IP,
//! static link routes with any of them. What cannot compose is two owners of the same wireless
//! hop: all wireless interfaces of a scenario share one medium, and each of these layers
//! decides, alone, who talks to whom over it:
//! - an ad hoc routing protocol (DSR, AODV, OLSR, DSDV) chooses multi-hop routes through
//!   neighbours;
//! - infrastructure mode associates stations with access points (`schema_infra.rs`);
//! - Mobile IP attaches mobile nodes to agents' cells (`schema_mobileip.rs`);
//! - access-router mobility gives mobiles addresses from the access routers they hear
//!   (`schema_cellular.rs`).
//!
//! [`check_route_layers`] is the one rule: at most one owner of the wireless hop per scenario.
//! [`wireless_hop_managed`] is what follows for static routing: where a layer other than an
//! ad hoc routing protocol owns the wireless hop, static routes use the links only (there are
//! no static wireless neighbours and no host routes over the air; the layer routes its cells).

use super::error::ScenarioError;
use super::schema::{RoutingKind, Scenario, WifiRoleKind};

/// A layer that can own the wireless hop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HopOwner {
    /// An ad hoc routing protocol (`routing.protocol` other than `static`).
    AdHocRouting,
    /// Infrastructure mode: a node with `wifi.role` = `ap` or `sta`.
    Infrastructure,
    /// Mobile IP: a node with a `mobile_ip` role.
    MobileIp,
    /// Access-router mobility: a node with a `cellular` role.
    AccessRouter,
}

impl HopOwner {
    fn describe(self) -> &'static str {
        match self {
            HopOwner::AdHocRouting => "an ad hoc routing protocol",
            HopOwner::Infrastructure => "infrastructure mode (access points and stations)",
            HopOwner::MobileIp => "Mobile IP",
            HopOwner::AccessRouter => "access-router mobility",
        }
    }
}

/// The owners of the wireless hop a scenario asks for, each with the first field that asks
/// for it, in the order of [`HopOwner`].
pub fn hop_owners(s: &Scenario) -> Vec<(HopOwner, String)> {
    let mut out = Vec::new();
    if s.routing
        .as_ref()
        .is_some_and(|r| r.protocol != RoutingKind::Static)
    {
        out.push((HopOwner::AdHocRouting, "routing.protocol".to_string()));
    }
    let first = |f: &dyn Fn(&super::schema::NodeSpec) -> bool, field: &str| {
        s.node
            .iter()
            .position(f)
            .map(|i| format!("node[{i}].{field}"))
    };
    let infra = |n: &super::schema::NodeSpec| {
        n.wifi
            .as_ref()
            .is_some_and(|w| w.role != WifiRoleKind::Adhoc)
    };
    if let Some(f) = first(&infra, "wifi.role") {
        out.push((HopOwner::Infrastructure, f));
    }
    if let Some(f) = first(&|n| n.mobile_ip.is_some(), "mobile_ip") {
        out.push((HopOwner::MobileIp, f));
    }
    if let Some(f) = first(&|n| n.cellular.is_some(), "cellular") {
        out.push((HopOwner::AccessRouter, f));
    }
    out
}

/// The one rule: at most one layer owns the wireless hop. The error names the field of the
/// second owner and the first owner's field.
pub fn check_route_layers(s: &Scenario) -> Result<(), ScenarioError> {
    let owners = hop_owners(s);
    if let [(a, field_a), (b, field_b), ..] = owners.as_slice() {
        return Err(ScenarioError::at(
            field_b.clone(),
            format!(
                "{} and {} ({field_a}) would both decide who talks to whom over the one \
                 wireless medium; a scenario uses one of them (static routes over links \
                 combine with either)",
                capitalise(b.describe()),
                a.describe(),
            ),
        ));
    }
    Ok(())
}

/// Whether a layer other than an ad hoc routing protocol owns the wireless hop, so that
/// static routes use the links only (module doc).
pub fn wireless_hop_managed(s: &Scenario) -> bool {
    hop_owners(s)
        .iter()
        .any(|(o, _)| *o != HopOwner::AdHocRouting)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
