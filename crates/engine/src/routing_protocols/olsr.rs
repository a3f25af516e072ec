//! OLSR (RFC 3626; `sctpsim_proto::routing::olsr`): `[routing.olsr]`.

use super::{positive, RoutingProtocol, SectionParams, TraceMatch};
use crate::describe::{resolve, secs, Describe, Param};
use crate::scenario::{OlsrSpec, RoutingKind, RoutingSpec, ScenarioError};
use sctpsim_kernel::SimDuration;
use sctpsim_proto::routing::olsr::{Olsr, OlsrConfig};

/// OLSR's descriptor.
pub(super) const PROTOCOL: RoutingProtocol = RoutingProtocol {
    kind: RoutingKind::Olsr,
    name: "olsr",
    trace: TraceMatch::UdpPort(sctpsim_wire::olsr::UDP_PORT),
    build: |spec, addr, rng| Box::new(Olsr::new(addr, olsr_config(spec.olsr.as_ref()), rng)),
    promiscuous: |_| false,
    given: |spec| spec.olsr.is_some(),
    check,
    params,
};

/// The OLSR configuration of `[routing.olsr]`: `OlsrConfig::default()` with the fields given
/// (the hold times and the jitter follow their intervals, RFC 3626 §18.3, §18.2).
pub fn olsr_config(spec: Option<&OlsrSpec>) -> OlsrConfig {
    let mut c = OlsrConfig::default();
    if let Some(s) = spec {
        if let Some(h) = s.hello_interval {
            c.hello_interval = h.0;
            c.refresh_interval = h.0;
            c.neighb_hold_time = h.0.saturating_mul(3);
            c.max_jitter = SimDuration(h.0 .0 / 4);
        }
        if let Some(t) = s.tc_interval {
            c.tc_interval = t.0;
            c.top_hold_time = t.0.saturating_mul(3);
        }
        c.link_layer_notification = s
            .link_layer_notification
            .unwrap_or(c.link_layer_notification);
        c.willingness = s.willingness.unwrap_or(c.willingness);
    }
    c
}

fn check(spec: &RoutingSpec) -> Result<(), ScenarioError> {
    let Some(o) = &spec.olsr else { return Ok(()) };
    positive("routing.olsr.hello_interval", o.hello_interval)?;
    positive("routing.olsr.tc_interval", o.tc_interval)?;
    if o.willingness.is_some_and(|w| w > 7) {
        return Err(ScenarioError::at(
            "routing.olsr.willingness",
            "must be 0-7 (RFC 3626 §18.8)",
        ));
    }
    Ok(())
}

fn params(spec: &RoutingSpec) -> SectionParams {
    SectionParams {
        profile: None,
        params: resolve(&olsr_config(spec.olsr.as_ref()), &olsr_config(None)),
    }
}

impl Describe for OlsrConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "hello_interval",
            unit: "s",
            get: |c| secs(c.hello_interval),
            doc: "HELLO_INTERVAL (RFC 3626 §18.2), 2 s; REFRESH_INTERVAL follows it, \
                  NEIGHB_HOLD_TIME is 3 × it and MAXJITTER a quarter of it (§18.3, §18.2)",
        },
        Param {
            field: "tc_interval",
            unit: "s",
            get: |c| secs(c.tc_interval),
            doc: "TC_INTERVAL (RFC 3626 §18.2), 5 s; TOP_HOLD_TIME is 3 × it (§18.3)",
        },
        Param {
            field: "link_layer_notification",
            unit: "",
            get: |c| c.link_layer_notification.into(),
            doc: "link-layer notification (RFC 3626 §13); optional in the RFC, ns-3 does not \
                  use it",
        },
        Param {
            field: "willingness",
            unit: "",
            get: |c| c.willingness.into(),
            doc: "WILLINGNESS (RFC 3626 §18.8), 0–7, WILL_DEFAULT 3",
        },
    ];
}
