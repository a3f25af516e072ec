//! AODV (RFC 3561; `sctpsim_proto::routing::aodv`): `[routing.aodv]`, with the RFC's or
//! ns-2's defaults (`profile`).

use super::{at_least_one, positive, ProfileChoice, RoutingProtocol, SectionParams, TraceMatch};
use crate::describe::{resolve, secs, Describe, Param};
use crate::scenario::{
    AodvProfileKind, AodvSpec, Duration, RoutingKind, RoutingSpec, ScenarioError,
};
use sctpsim_proto::routing::aodv::{Aodv, AodvConfig};

/// AODV's descriptor.
pub(super) const PROTOCOL: RoutingProtocol = RoutingProtocol {
    kind: RoutingKind::Aodv,
    name: "aodv",
    trace: TraceMatch::UdpPort(sctpsim_wire::aodv::AODV_PORT),
    build: |spec, addr, rng| Box::new(Aodv::new(addr, aodv_config(spec.aodv.as_ref()), rng)),
    promiscuous: |_| false,
    given: |spec| spec.aodv.is_some(),
    check,
    params,
};

/// The AODV configuration of `[routing.aodv]`: the profile's (`AodvConfig::default()` or
/// `AodvConfig::ns2()`) with the fields given.
pub fn aodv_config(spec: Option<&AodvSpec>) -> AodvConfig {
    let d = |x: Duration| x.0;
    let mut c = match spec.map(|s| s.profile).unwrap_or_default() {
        AodvProfileKind::Rfc3561 => AodvConfig::default(),
        AodvProfileKind::Ns2 => AodvConfig::ns2(),
    };
    if let Some(s) = spec {
        c.hello_enabled = s.hello.unwrap_or(c.hello_enabled);
        c.hello_interval = s.hello_interval.map_or(c.hello_interval, d);
        c.local_repair = s.local_repair.unwrap_or(c.local_repair);
        c.expanding_ring = s.expanding_ring.unwrap_or(c.expanding_ring);
        c.active_route_timeout = s.active_route_timeout.map_or(c.active_route_timeout, d);
        c.send_buffer_capacity = s
            .send_buffer_packets
            .map_or(c.send_buffer_capacity, |v| v as usize);
        c.send_buffer_timeout = s.send_buffer_timeout.map_or(c.send_buffer_timeout, d);
        if let Some(t) = s.my_route_timeout {
            c.fixed_my_route_timeout = Some(t.0);
        }
        if let Some(t) = s.rreq_id_hold {
            c.fixed_path_discovery_time = Some(t.0);
        }
        c.rreq_retries = s.rreq_retries.unwrap_or(c.rreq_retries);
        c.ttl_start = s.ttl_start.unwrap_or(c.ttl_start);
        c.net_diameter = s.net_diameter.unwrap_or(c.net_diameter);
        c.node_traversal_time = s.node_traversal_time.map_or(c.node_traversal_time, d);
        c.ns2_local_repair = s.ns2_local_repair.unwrap_or(c.ns2_local_repair);
        c.rebuffer_on_link_failure = s
            .rebuffer_on_link_failure
            .unwrap_or(c.rebuffer_on_link_failure);
    }
    c
}

fn check(spec: &RoutingSpec) -> Result<(), ScenarioError> {
    let Some(a) = &spec.aodv else { return Ok(()) };
    positive("routing.aodv.hello_interval", a.hello_interval)?;
    positive("routing.aodv.active_route_timeout", a.active_route_timeout)?;
    positive("routing.aodv.send_buffer_timeout", a.send_buffer_timeout)?;
    at_least_one("routing.aodv.send_buffer_packets", a.send_buffer_packets)?;
    positive("routing.aodv.my_route_timeout", a.my_route_timeout)?;
    positive("routing.aodv.rreq_id_hold", a.rreq_id_hold)?;
    positive("routing.aodv.node_traversal_time", a.node_traversal_time)?;
    at_least_one("routing.aodv.ttl_start", a.ttl_start.map(u32::from))?;
    at_least_one("routing.aodv.net_diameter", a.net_diameter.map(u32::from))?;
    Ok(())
}

/// The configuration and, as defaults, the profile's values.
fn params(spec: &RoutingSpec) -> SectionParams {
    let profile = spec.aodv.as_ref().map(|x| x.profile).unwrap_or_default();
    let only_profile = AodvSpec {
        profile,
        ..Default::default()
    };
    SectionParams {
        profile: Some(ProfileChoice {
            name: profile.name(),
            default: AodvProfileKind::default().name(),
        }),
        params: resolve(
            &aodv_config(spec.aodv.as_ref()),
            &aodv_config(Some(&only_profile)),
        ),
    }
}

impl Describe for AodvConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "hello",
            unit: "",
            get: |c| c.hello_enabled.into(),
            doc: "HELLO messages (RFC 3561 §6.9); off: link-layer feedback only, as ns-2",
        },
        Param {
            field: "hello_interval",
            unit: "s",
            get: |c| secs(c.hello_interval),
            doc: "HELLO_INTERVAL (RFC 3561 §10), 1 s",
        },
        Param {
            field: "local_repair",
            unit: "",
            get: |c| c.local_repair.into(),
            doc: "local repair (RFC 3561 §6.12)",
        },
        Param {
            field: "expanding_ring",
            unit: "",
            get: |c| c.expanding_ring.into(),
            doc: "expanding ring search (RFC 3561 §6.4)",
        },
        Param {
            field: "active_route_timeout",
            unit: "s",
            get: |c| secs(c.active_route_timeout),
            doc: "ACTIVE_ROUTE_TIMEOUT (RFC 3561 §10), 3 s",
        },
        Param {
            field: "send_buffer_packets",
            unit: "packets",
            get: |c| c.send_buffer_capacity.into(),
            doc: "send buffer size, 64 (ns-2 AODV_RTQ_MAX_LEN)",
        },
        Param {
            field: "send_buffer_timeout",
            unit: "s",
            get: |c| secs(c.send_buffer_timeout),
            doc: "send buffer timeout, 30 s (ns-2 AODV_RTQ_TIMEOUT)",
        },
        Param {
            field: "my_route_timeout",
            unit: "s",
            get: |c| secs(c.my_route_timeout()),
            doc: "MY_ROUTE_TIMEOUT (RFC 3561 §10), 2 × ACTIVE_ROUTE_TIMEOUT (ns-2: 10 s)",
        },
        Param {
            field: "rreq_id_hold",
            unit: "s",
            get: |c| secs(c.path_discovery_time()),
            doc: "how long an (originator, RREQ ID) pair is remembered: PATH_DISCOVERY_TIME \
                  (RFC 3561 §10, 5.6 s; ns-2 BCAST_ID_SAVE 6 s)",
        },
        Param {
            field: "rreq_retries",
            unit: "",
            get: |c| c.rreq_retries.into(),
            doc: "RREQ_RETRIES (RFC 3561 §10), 2 (ns-2: 3)",
        },
        Param {
            field: "ttl_start",
            unit: "hops",
            get: |c| c.ttl_start.into(),
            doc: "TTL_START (RFC 3561 §10), 1 (ns-2: 5)",
        },
        Param {
            field: "net_diameter",
            unit: "hops",
            get: |c| c.net_diameter.into(),
            doc: "NET_DIAMETER (RFC 3561 §10), 35 (ns-2: 30)",
        },
        Param {
            field: "node_traversal_time",
            unit: "s",
            get: |c| secs(c.node_traversal_time),
            doc: "NODE_TRAVERSAL_TIME (RFC 3561 §10), 40 ms (ns-2: 30 ms)",
        },
        Param {
            field: "ns2_local_repair",
            unit: "",
            get: |c| c.ns2_local_repair.into(),
            doc: "ns-2's local repair rule (repair only past halfway)",
        },
        Param {
            field: "rebuffer_on_link_failure",
            unit: "",
            get: |c| c.rebuffer_on_link_failure.into(),
            doc: "re-buffer the source's own packets after a link failure (ns-2: no)",
        },
    ];
}
