//! DSR (RFC 4728; `sctpsim_proto::routing::dsr`): `[routing.dsr]`, with the RFC's or ns-2's
//! defaults (`profile`).

use super::{at_least_one, positive, ProfileChoice, RoutingProtocol, SectionParams, TraceMatch};
use crate::describe::{resolve, secs, Describe, Param};
use crate::scenario::{DsrProfileKind, DsrSpec, Duration, RoutingKind, RoutingSpec, ScenarioError};
use sctpsim_proto::routing::dsr::{Dsr, DsrConfig};

/// DSR's descriptor.
pub(super) const PROTOCOL: RoutingProtocol = RoutingProtocol {
    kind: RoutingKind::Dsr,
    name: "dsr",
    trace: TraceMatch::IpProtocol(sctpsim_wire::dsr::IP_PROTOCOL),
    build: |spec, addr, rng| Box::new(Dsr::new(addr, dsr_config(spec.dsr.as_ref()), rng)),
    promiscuous: |spec| dsr_config(spec.dsr.as_ref()).tap,
    given: |spec| spec.dsr.is_some(),
    check,
    params,
};

/// The DSR configuration of `[routing.dsr]`: the profile's (`DsrConfig::default()` or
/// `DsrConfig::ns2()`) with the fields given. Also what `sctpsim show` reports.
pub fn dsr_config(spec: Option<&DsrSpec>) -> DsrConfig {
    let d = |x: Duration| x.0;
    let mut c = match spec.map(|s| s.profile).unwrap_or_default() {
        DsrProfileKind::Rfc4728 => DsrConfig::default(),
        DsrProfileKind::Ns2 => DsrConfig::ns2(),
    };
    if let Some(s) = spec {
        c.reply_from_cache = s.reply_from_cache.unwrap_or(c.reply_from_cache);
        c.nonpropagating_first = s.nonpropagating_first.unwrap_or(c.nonpropagating_first);
        c.route_cache_timeout = s.route_cache_timeout.map_or(c.route_cache_timeout, d);
        c.send_buffer_size = s
            .send_buffer_packets
            .map_or(c.send_buffer_size, |v| v as usize);
        c.send_buffer_timeout = s.send_buffer_timeout.map_or(c.send_buffer_timeout, d);
        c.max_routes_per_dest = s
            .max_routes_per_dest
            .map_or(c.max_routes_per_dest, |v| v as usize);
        c.tap = s.tap.unwrap_or(c.tap);
        c.gratuitous_replies = s.gratuitous_replies.unwrap_or(c.gratuitous_replies);
        c.grat_hold_down = s.grat_hold_down.map_or(c.grat_hold_down, d);
        c.propagate_last_error = s.propagate_last_error.unwrap_or(c.propagate_last_error);
        c.max_err_hold = s.max_err_hold.map_or(c.max_err_hold, d);
        c.ns2_request_backoff = s.ns2_request_backoff.unwrap_or(c.ns2_request_backoff);
        c.salvage = s.salvage.unwrap_or(c.salvage);
        if !c.tap && s.gratuitous_replies.is_none() {
            // Gratuitous replies come from overheard packets: a profile's replies go with
            // its tap (`profile = "ns2"` with `tap = false` sends none).
            c.gratuitous_replies = false;
        }
    }
    c
}

fn check(spec: &RoutingSpec) -> Result<(), ScenarioError> {
    let Some(d) = &spec.dsr else { return Ok(()) };
    positive("routing.dsr.route_cache_timeout", d.route_cache_timeout)?;
    positive("routing.dsr.send_buffer_timeout", d.send_buffer_timeout)?;
    at_least_one("routing.dsr.send_buffer_packets", d.send_buffer_packets)?;
    at_least_one("routing.dsr.max_routes_per_dest", d.max_routes_per_dest)?;
    if d.gratuitous_replies == Some(true) && !dsr_config(Some(d)).tap {
        return Err(ScenarioError::at(
            "routing.dsr.gratuitous_replies",
            "needs routing.dsr.tap = true (replies come from overheard packets)",
        ));
    }
    Ok(())
}

/// The configuration and, as defaults, the profile's values.
fn params(spec: &RoutingSpec) -> SectionParams {
    let profile = spec.dsr.as_ref().map(|x| x.profile).unwrap_or_default();
    let only_profile = DsrSpec {
        profile,
        ..Default::default()
    };
    SectionParams {
        profile: Some(ProfileChoice {
            name: profile.name(),
            default: DsrProfileKind::default().name(),
        }),
        params: resolve(
            &dsr_config(spec.dsr.as_ref()),
            &dsr_config(Some(&only_profile)),
        ),
    }
}

impl Describe for DsrConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "reply_from_cache",
            unit: "",
            get: |c| c.reply_from_cache.into(),
            doc: "intermediate nodes reply from their route cache (RFC 4728 §3.3.2)",
        },
        Param {
            field: "nonpropagating_first",
            unit: "",
            get: |c| c.nonpropagating_first.into(),
            doc: "a non-propagating request before the flood (RFC 4728 §3.3.3)",
        },
        Param {
            field: "route_cache_timeout",
            unit: "s",
            get: |c| secs(c.route_cache_timeout),
            doc: "RouteCacheTimeout (RFC 4728 §9), 300 s; ns-2 none",
        },
        Param {
            field: "send_buffer_packets",
            unit: "packets",
            get: |c| c.send_buffer_size.into(),
            doc: "send buffer size, 64 (ns-2)",
        },
        Param {
            field: "send_buffer_timeout",
            unit: "s",
            get: |c| secs(c.send_buffer_timeout),
            doc: "SendBufferTimeout (RFC 4728 §9), 30 s",
        },
        Param {
            field: "max_routes_per_dest",
            unit: "routes",
            get: |c| c.max_routes_per_dest.into(),
            doc: "cached routes kept per destination, 8 (ns-2: 94, no per-destination bound)",
        },
        Param {
            field: "tap",
            unit: "",
            get: |c| c.tap.into(),
            doc: "learn routes from overheard packets (ns-2 dsragent_use_tap)",
        },
        Param {
            field: "gratuitous_replies",
            unit: "",
            get: |c| c.gratuitous_replies.into(),
            doc: "gratuitous Route Replies for route shortening (ns-2 \
                  dsragent_send_grat_replies); needs tap",
        },
        Param {
            field: "grat_hold_down",
            unit: "s",
            get: |c| secs(c.grat_hold_down),
            doc: "hold-down per shortened route between gratuitous replies (ns-2 \
                  grat_hold_down_time), 1 s",
        },
        Param {
            field: "propagate_last_error",
            unit: "",
            get: |c| c.propagate_last_error.into(),
            doc: "piggyback the last Route Error on the next requests (ns-2 \
                  dsragent_propagate_last_error)",
        },
        Param {
            field: "max_err_hold",
            unit: "s",
            get: |c| secs(c.max_err_hold),
            doc: "how long a received Route Error may ride on requests (ns-2 max_err_hold), 1 s",
        },
        Param {
            field: "ns2_request_backoff",
            unit: "",
            get: |c| c.ns2_request_backoff.into(),
            doc: "ns-2's request schedule (BackOffTest): cycles 0.5 s · 4^k apart, capped at 10 s",
        },
        Param {
            field: "salvage",
            unit: "",
            get: |c| c.salvage.into(),
            doc: "keep packets the MAC gave up on (RFC 4728 §8.3.6); false drops them as \
                  OPNET's DSR (Ye et al. 2003 §4)",
        },
    ];
}
