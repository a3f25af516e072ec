//! `[routing]`: how wireless nodes find routes. Static shortest paths (computed once at t = 0)
//! or one of the ad hoc routing protocols of `sctpsim_proto::routing`, with their RFC defaults.
//! `docs/scenario.md` documents each field; the models are described in
//! `docs/models/{dsr,aodv,olsr}.md`.

use serde::{Deserialize, Serialize};

/// The routing protocol (`routing.protocol`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RoutingKind {
    /// Shortest paths over links and wireless neighbours at t = 0; they do not follow motion.
    #[default]
    Static,
    /// Dynamic Source Routing, RFC 4728.
    Dsr,
    /// Ad hoc On-Demand Distance Vector routing, RFC 3561.
    Aodv,
    /// Optimized Link State Routing, RFC 3626.
    Olsr,
}

impl RoutingKind {
    /// The name used in scenarios and results.
    pub fn name(self) -> &'static str {
        match self {
            RoutingKind::Static => "static",
            RoutingKind::Dsr => "dsr",
            RoutingKind::Aodv => "aodv",
            RoutingKind::Olsr => "olsr",
        }
    }
}

/// `[routing]`
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingSpec {
    /// The protocol. Default `static`.
    #[serde(default)]
    pub protocol: RoutingKind,
}
