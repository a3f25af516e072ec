//! `[routing]`: how wireless nodes find routes. Static shortest paths (computed once at t = 0)
//! or one of the ad hoc routing protocols of `sctpsim_proto::routing`, with their RFC defaults.
//! `docs/scenario.md` documents each field; the models are described in
//! `docs/models/{dsr,aodv,olsr,dsdv}.md`.

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
    /// Destination-Sequenced Distance-Vector routing (Perkins & Bhagwat 1994), as ns-3's
    /// `dsdv` module.
    Dsdv,
}

impl RoutingKind {
    /// The name used in scenarios and results (an ad hoc protocol's is its descriptor's,
    /// `crate::routing_protocols`).
    pub fn name(self) -> &'static str {
        crate::routing_protocols::protocol(self).map_or("static", |p| p.name)
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
    /// `[routing.dsdv]`: DSDV settings (ns-3 3.44 defaults otherwise).
    #[serde(default)]
    pub dsdv: Option<DsdvSpec>,
}

/// `routing.dsr.profile`: which DSR the defaults follow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DsrProfileKind {
    /// RFC 4728 (`DsrConfig::default()`).
    #[default]
    Rfc4728,
    /// ns-2.35's `dsr/dsragent.cc` (`DsrConfig::ns2()`): tap, gratuitous replies, route
    /// error propagation, ns-2's request schedule, no cache expiry.
    Ns2,
}

impl DsrProfileKind {
    /// The name used in scenarios and results.
    pub fn name(self) -> &'static str {
        match self {
            DsrProfileKind::Rfc4728 => "rfc4728",
            DsrProfileKind::Ns2 => "ns2",
        }
    }
}

/// `routing.aodv.profile`: which AODV the defaults follow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AodvProfileKind {
    /// RFC 3561 (`AodvConfig::default()`).
    #[default]
    Rfc3561,
    /// ns-2.35's `aodv/aodv.h` (`AodvConfig::ns2()`): its timeouts and rings, local repair
    /// by ns-2's rule, no re-buffering after a link failure.
    Ns2,
}

impl AodvProfileKind {
    /// The name used in scenarios and results.
    pub fn name(self) -> &'static str {
        match self {
            AodvProfileKind::Rfc3561 => "rfc3561",
            AodvProfileKind::Ns2 => "ns2",
        }
    }
}

/// `[routing.aodv]`: every field optional; absent fields keep the profile's value
/// (`AodvConfig::default()` or `AodvConfig::ns2()`).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AodvSpec {
    /// Defaults to start from. Default `rfc3561`.
    #[serde(default)]
    pub profile: AodvProfileKind,
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
    /// MY_ROUTE_TIMEOUT (§10). Default 2 × active_route_timeout (ns2: 10 s).
    #[serde(default)]
    pub my_route_timeout: Option<Duration>,
    /// How long a (originator, RREQ ID) pair is remembered. Default PATH_DISCOVERY_TIME
    /// (§10, 5.6 s; ns2: `BCAST_ID_SAVE` 6 s).
    #[serde(default)]
    pub rreq_id_hold: Option<Duration>,
    /// RREQ_RETRIES (§10). Default 2 (ns2: 3).
    #[serde(default)]
    pub rreq_retries: Option<u32>,
    /// TTL_START (§10), hops. Default 1 (ns2: 5).
    #[serde(default)]
    pub ttl_start: Option<u8>,
    /// NET_DIAMETER (§10), hops. Default 35 (ns2: 30).
    #[serde(default)]
    pub net_diameter: Option<u8>,
    /// NODE_TRAVERSAL_TIME (§10). Default 40 ms (ns2: 30 ms).
    #[serde(default)]
    pub node_traversal_time: Option<Duration>,
    /// ns-2's local repair rule (repair only past halfway). Default false (ns2: true).
    #[serde(default)]
    pub ns2_local_repair: Option<bool>,
    /// Re-buffer the source's own packets after a link failure. Default true (ns2: false).
    #[serde(default)]
    pub rebuffer_on_link_failure: Option<bool>,
}

/// `[routing.dsr]`: every field optional; absent fields keep the profile's value
/// (`DsrConfig::default()` or `DsrConfig::ns2()`).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DsrSpec {
    /// Defaults to start from. Default `rfc4728`.
    #[serde(default)]
    pub profile: DsrProfileKind,
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
    /// Cached routes kept per destination. Default 8 (ns2: 94, no per-destination bound).
    #[serde(default)]
    pub max_routes_per_dest: Option<u32>,
    /// Promiscuous tap: learn routes from overheard packets (ns-2 `dsragent_use_tap`).
    /// Default false (ns2: true). Turns the MAC's promiscuous reception on.
    #[serde(default)]
    pub tap: Option<bool>,
    /// Gratuitous Route Replies for route shortening (ns-2 `dsragent_send_grat_replies`);
    /// needs `tap`. Default false (ns2: true).
    #[serde(default)]
    pub gratuitous_replies: Option<bool>,
    /// Hold-down per shortened route between gratuitous replies (ns-2
    /// `grat_hold_down_time`). Default 1 s.
    #[serde(default)]
    pub grat_hold_down: Option<Duration>,
    /// Piggyback the last Route Error received on the next Route Requests (ns-2
    /// `dsragent_propagate_last_error`). Default false (ns2: true).
    #[serde(default)]
    pub propagate_last_error: Option<bool>,
    /// How long a received Route Error may ride on requests (ns-2 `max_err_hold`).
    /// Default 1 s.
    #[serde(default)]
    pub max_err_hold: Option<Duration>,
    /// ns-2's request schedule (`BackOffTest`): every retry cycle a non-propagating then a
    /// propagating request, cycles 0.5 s · 4^k apart, capped at 10 s. Default false (ns2:
    /// true).
    #[serde(default)]
    pub ns2_request_backoff: Option<bool>,
    /// Keep packets the MAC gave up on (the source's own re-routed or re-buffered, a relay's
    /// salvaged, RFC 4728 §8.3.6). Default true; false drops each where it failed, as Ye et
    /// al. (2003) §4 describe OPNET's DSR.
    #[serde(default)]
    pub salvage: Option<bool>,
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

/// `[routing.dsdv]`: every field optional; absent fields keep `DsdvConfig::default()` (ns-3
/// 3.44's `ns3::dsdv::RoutingProtocol` attributes).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DsdvSpec {
    /// Between full dumps (ns-3 `PeriodicUpdateInterval`). Default 15 s.
    #[serde(default)]
    pub periodic_update_interval: Option<Duration>,
    /// Settling time of a new route (ns-3 `SettlingTime`). Default 5 s.
    #[serde(default)]
    pub settling_time: Option<Duration>,
    /// Routes silent for this many periodic intervals are purged (ns-3 `Holdtimes`).
    /// Default 3.
    #[serde(default)]
    pub holdtimes: Option<u32>,
    /// Weight of the last settling time in the weighted settling time, 0–1 (ns-3
    /// `WeightedFactor`). Default 0.875.
    #[serde(default)]
    pub weighted_factor: Option<f64>,
    /// Weighted settling time (ns-3 `EnableWST`). Default true.
    #[serde(default)]
    pub weighted_settling: Option<bool>,
    /// Buffer originated packets while there is no route (ns-3 `EnableBuffering`).
    /// Default true.
    #[serde(default)]
    pub buffering: Option<bool>,
    /// Send buffer size, packets (ns-3 `MaxQueueLen`). Default 500.
    #[serde(default)]
    pub send_buffer_packets: Option<u32>,
    /// Send buffer share of one destination, packets (ns-3 `MaxQueuedPacketsPerDst`).
    /// Default 5.
    #[serde(default)]
    pub send_buffer_packets_per_dst: Option<u32>,
    /// Longest wait in the send buffer (ns-3 `MaxQueueTime`). Default 30 s.
    #[serde(default)]
    pub send_buffer_timeout: Option<Duration>,
    /// Route aggregation (ns-3 `EnableRouteAggregation`). Default false.
    #[serde(default)]
    pub route_aggregation: Option<bool>,
    /// Delay of aggregated triggered updates (ns-3 `RouteAggregationTime`). Default 1 s.
    #[serde(default)]
    pub route_aggregation_time: Option<Duration>,
    /// React to MAC link failures as the paper does (routes through the neighbour broken
    /// at once). Default false, as ns-3.
    #[serde(default)]
    pub link_layer_feedback: Option<bool>,
}
