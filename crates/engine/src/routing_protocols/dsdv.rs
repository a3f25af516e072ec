//! DSDV (Perkins & Bhagwat 1994 as ns-3 3.44's `dsdv` module;
//! `sctpsim_proto::routing::dsdv`): `[routing.dsdv]`.

use super::{at_least_one, positive, RoutingProtocol, SectionParams, TraceMatch};
use crate::describe::{resolve, secs, Describe, Param};
use crate::scenario::{DsdvSpec, Duration, RoutingKind, RoutingSpec, ScenarioError};
use sctpsim_proto::routing::dsdv::{Dsdv, DsdvConfig};

/// DSDV's descriptor.
pub(super) const PROTOCOL: RoutingProtocol = RoutingProtocol {
    kind: RoutingKind::Dsdv,
    name: "dsdv",
    trace: TraceMatch::UdpPort(sctpsim_wire::dsdv::UDP_PORT),
    build: |spec, addr, rng| Box::new(Dsdv::new(addr, dsdv_config(spec.dsdv.as_ref()), rng)),
    promiscuous: |_| false,
    given: |spec| spec.dsdv.is_some(),
    check,
    params,
};

/// The DSDV configuration of `[routing.dsdv]`: `DsdvConfig::default()` (ns-3 3.44's
/// attributes) with the fields given.
pub fn dsdv_config(spec: Option<&DsdvSpec>) -> DsdvConfig {
    let mut c = DsdvConfig::default();
    let d = |x: Duration| x.0;
    if let Some(s) = spec {
        c.periodic_update_interval = s
            .periodic_update_interval
            .map_or(c.periodic_update_interval, d);
        c.settling_time = s.settling_time.map_or(c.settling_time, d);
        c.holdtimes = s.holdtimes.unwrap_or(c.holdtimes);
        c.weighted_factor = s.weighted_factor.unwrap_or(c.weighted_factor);
        c.weighted_settling = s.weighted_settling.unwrap_or(c.weighted_settling);
        c.buffering = s.buffering.unwrap_or(c.buffering);
        c.send_buffer_packets = s
            .send_buffer_packets
            .map_or(c.send_buffer_packets, |v| v as usize);
        c.send_buffer_packets_per_dst = s
            .send_buffer_packets_per_dst
            .map_or(c.send_buffer_packets_per_dst, |v| v as usize);
        c.send_buffer_timeout = s.send_buffer_timeout.map_or(c.send_buffer_timeout, d);
        c.route_aggregation = s.route_aggregation.unwrap_or(c.route_aggregation);
        c.route_aggregation_time = s.route_aggregation_time.map_or(c.route_aggregation_time, d);
        c.link_layer_feedback = s.link_layer_feedback.unwrap_or(c.link_layer_feedback);
    }
    c
}

fn check(spec: &RoutingSpec) -> Result<(), ScenarioError> {
    let Some(v) = &spec.dsdv else { return Ok(()) };
    positive(
        "routing.dsdv.periodic_update_interval",
        v.periodic_update_interval,
    )?;
    positive("routing.dsdv.send_buffer_timeout", v.send_buffer_timeout)?;
    positive(
        "routing.dsdv.route_aggregation_time",
        v.route_aggregation_time,
    )?;
    at_least_one("routing.dsdv.holdtimes", v.holdtimes)?;
    at_least_one("routing.dsdv.send_buffer_packets", v.send_buffer_packets)?;
    at_least_one(
        "routing.dsdv.send_buffer_packets_per_dst",
        v.send_buffer_packets_per_dst,
    )?;
    if let Some(w) = v.weighted_factor {
        if !(0.0..=1.0).contains(&w) {
            return Err(ScenarioError::at(
                "routing.dsdv.weighted_factor",
                "must be between 0 and 1 (ns-3 WeightedFactor)",
            ));
        }
    }
    Ok(())
}

fn params(spec: &RoutingSpec) -> SectionParams {
    SectionParams {
        profile: None,
        params: resolve(&dsdv_config(spec.dsdv.as_ref()), &dsdv_config(None)),
    }
}

impl Describe for DsdvConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "periodic_update_interval",
            unit: "s",
            get: |c| secs(c.periodic_update_interval),
            doc: "between full dumps (ns-3 PeriodicUpdateInterval), 15 s",
        },
        Param {
            field: "settling_time",
            unit: "s",
            get: |c| secs(c.settling_time),
            doc: "settling time of a new route (ns-3 SettlingTime), 5 s",
        },
        Param {
            field: "send_buffer_timeout",
            unit: "s",
            get: |c| secs(c.send_buffer_timeout),
            doc: "longest wait in the send buffer (ns-3 MaxQueueTime), 30 s",
        },
        Param {
            field: "route_aggregation_time",
            unit: "s",
            get: |c| secs(c.route_aggregation_time),
            doc: "delay of aggregated triggered updates (ns-3 RouteAggregationTime), 1 s",
        },
        Param {
            field: "holdtimes",
            unit: "intervals",
            get: |c| c.holdtimes.into(),
            doc: "routes silent for this many periodic intervals are purged (ns-3 Holdtimes), 3",
        },
        Param {
            field: "weighted_factor",
            unit: "",
            get: |c| c.weighted_factor.into(),
            doc: "weight of the last settling time in the weighted settling time (ns-3 \
                  WeightedFactor), 0.875",
        },
        Param {
            field: "weighted_settling",
            unit: "",
            get: |c| c.weighted_settling.into(),
            doc: "weighted settling time (ns-3 EnableWST)",
        },
        Param {
            field: "buffering",
            unit: "",
            get: |c| c.buffering.into(),
            doc: "buffer originated packets while there is no route (ns-3 EnableBuffering)",
        },
        Param {
            field: "route_aggregation",
            unit: "",
            get: |c| c.route_aggregation.into(),
            doc: "route aggregation (ns-3 EnableRouteAggregation)",
        },
        Param {
            field: "link_layer_feedback",
            unit: "",
            get: |c| c.link_layer_feedback.into(),
            doc: "MAC link failures break the routes through the neighbour at once, as the \
                  paper does (ns-3: off)",
        },
        Param {
            field: "send_buffer_packets",
            unit: "packets",
            get: |c| c.send_buffer_packets.into(),
            doc: "send buffer size (ns-3 MaxQueueLen), 500",
        },
        Param {
            field: "send_buffer_packets_per_dst",
            unit: "packets",
            get: |c| c.send_buffer_packets_per_dst.into(),
            doc: "send buffer share of one destination (ns-3 MaxQueuedPacketsPerDst), 5",
        },
    ];
}
