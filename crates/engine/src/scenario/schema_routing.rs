//! `[routing]`: how wireless nodes find routes. Static shortest paths (computed once at t = 0)
//! or one of the ad hoc routing protocols of `sctpsim_proto::routing`, with their RFC defaults.
//! `docs/scenario.md` documents each field; the models are described in
//! `docs/models/{dsr,aodv,olsr}.md`.

use super::quantity::Duration;
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
    /// `[routing.aodv]`: AODV settings (RFC 3561 defaults otherwise).
    #[serde(default)]
    pub aodv: Option<AodvSpec>,
    /// `[routing.dsr]`: DSR settings (RFC 4728 / ns-2 defaults otherwise).
    #[serde(default)]
    pub dsr: Option<DsrSpec>,
    /// `[routing.olsr]`: OLSR settings (RFC 3626 defaults otherwise).
    #[serde(default)]
    pub olsr: Option<OlsrSpec>,
}

/// `[routing.aodv]`: every field optional; absent fields keep `AodvConfig::default()`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AodvSpec {
    /// HELLO messages (RFC 3561 §6.9). Default false: link-layer feedback only, as ns-2.
    #[serde(default)]
    pub hello: Option<bool>,
    /// HELLO_INTERVAL (§10). Default 1 s.
    #[serde(default)]
    pub hello_interval: Option<Duration>,
    /// Local repair (§6.12). Default false.
    #[serde(default)]
    pub local_repair: Option<bool>,
    /// Expanding ring search (§6.4). Default true.
    #[serde(default)]
    pub expanding_ring: Option<bool>,
    /// ACTIVE_ROUTE_TIMEOUT (§10). Default 3 s.
    #[serde(default)]
    pub active_route_timeout: Option<Duration>,
    /// Send buffer size, packets. Default 64 (ns-2 `AODV_RTQ_MAX_LEN`).
    #[serde(default)]
    pub send_buffer_packets: Option<u32>,
    /// Send buffer timeout. Default 30 s (ns-2 `AODV_RTQ_TIMEOUT`).
    #[serde(default)]
    pub send_buffer_timeout: Option<Duration>,
}

/// `[routing.dsr]`: every field optional; absent fields keep `DsrConfig::default()`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DsrSpec {
    /// Intermediate nodes reply from their route cache (RFC 4728 §3.3.2). Default true.
    #[serde(default)]
    pub reply_from_cache: Option<bool>,
    /// A non-propagating request before the flood (§3.3.3). Default true.
    #[serde(default)]
    pub nonpropagating_first: Option<bool>,
    /// RouteCacheTimeout (§9). Default 300 s.
    #[serde(default)]
    pub route_cache_timeout: Option<Duration>,
    /// Send buffer size, packets. Default 64 (ns-2).
    #[serde(default)]
    pub send_buffer_packets: Option<u32>,
    /// SendBufferTimeout (§9). Default 30 s.
    #[serde(default)]
    pub send_buffer_timeout: Option<Duration>,
}

/// `[routing.olsr]`: every field optional; absent fields keep `OlsrConfig::default()`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OlsrSpec {
    /// HELLO_INTERVAL (RFC 3626 §18.2). Default 2 s. REFRESH_INTERVAL follows it,
    /// NEIGHB_HOLD_TIME is 3 × it and MAXJITTER a quarter of it (§18.3, §18.2).
    #[serde(default)]
    pub hello_interval: Option<Duration>,
    /// TC_INTERVAL (§18.2). Default 5 s; TOP_HOLD_TIME is 3 × it (§18.3).
    #[serde(default)]
    pub tc_interval: Option<Duration>,
    /// Link-layer notification (§13): a MAC link failure marks the link lost at once.
    /// Default false (RFC: optional; ns-3 does not use it).
    #[serde(default)]
    pub link_layer_notification: Option<bool>,
    /// WILLINGNESS (§18.8), 0–7. Default 3 (WILL_DEFAULT).
    #[serde(default)]
    pub willingness: Option<u8>,
}
