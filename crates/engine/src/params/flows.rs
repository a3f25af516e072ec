//! The flow rows of `sctpsim show`: endpoints, application, ports, and per transport the
//! configuration the flow's ends are built with (`tcp_config`, `sctp_config`: the profile,
//! then the flow's fields).

use super::{name, opt, opt_secs, secs, Rows, SOURCE_DEFAULT};
use crate::describe::transport::{SCTP_CMT_PARAMS, SCTP_EXTENSION_PARAMS, SCTP_PATH_FIELDS};
use crate::describe::{resolve, resolve_table};
use crate::scenario::{
    AppKind, FlowSpec, MessagesSpec, Scenario, SctpSpec, TcpSpec, TransportKind,
    DEFAULT_PACKET_SIZE,
};
use crate::sim::flows::{tcp_config, DEFAULT_TCP_PORT, DEFAULT_UDP_PORT, EPHEMERAL_BASE};
use crate::sim::sctp::{sctp_config, DEFAULT_SCTP_PORT};
use serde_json::Value;

/// The rows of the `written` flows (`[[flows]]` as in the file) of the loaded scenario `s`.
pub(super) fn rows(rows: &mut Rows<'_>, s: &Scenario, written: &[FlowSpec]) {
    let mtu = s.smallest_link_mtu();
    // A `pairs = k` flow becomes k flows where it stands, and a `src = "*"` flow one per other
    // wireless node, so later flows' run-time indices (and with them their default source
    // ports) move.
    let mut index = 0usize;
    for (i, f) in written.iter().enumerate() {
        let copies = match f.pairs {
            Some(k) => k as usize,
            None if f.src == "*" => s
                .node
                .iter()
                .filter(|n| n.wireless && n.name != f.dst)
                .count(),
            None => 1,
        }
        .max(1);
        flow(rows, i, f, index, copies, mtu);
        index += copies;
    }
}

fn flow(rows: &mut Rows<'_>, i: usize, f: &FlowSpec, index: usize, copies: usize, mtu: usize) {
    let d = SOURCE_DEFAULT;
    let p = format!("flows[{i}]");
    match f.pairs {
        None => {
            rows.add(format!("{p}.src"), f.src.clone(), Value::Null, "", d);
            rows.add(format!("{p}.dst"), f.dst.clone(), Value::Null, "", d);
        }
        Some(k) => {
            rows.add(format!("{p}.pairs"), k, Value::Null, "", d);
            rows.add(
                format!("{p}.start_spread"),
                f.start_spread.map_or(0.0, |s| s.0.as_secs_f64()),
                0.0,
                "s",
                d,
            );
        }
    }
    rows.add(format!("{p}.transport"), name(&f.transport), "udp", "", d);
    rows.add(format!("{p}.app"), name(&f.app), Value::Null, "", d);
    rows.add(format!("{p}.start"), secs(f.start.0), 0.0, "s", d);
    rows.add(format!("{p}.stop"), opt_secs(f.stop), Value::Null, "s", d);
    // Ports as `sim::flows::build_flow` and `sim::sctp::build_sctp_flow` pick them.
    let ports: Vec<u16> = (index..index + copies)
        .map(|k| EPHEMERAL_BASE.wrapping_add(k as u16))
        .collect();
    let auto_src = if copies == 1 {
        Value::from(ports[0])
    } else {
        Value::from(ports)
    };
    rows.add(
        format!("{p}.src_port"),
        f.src_port.map_or(auto_src.clone(), Value::from),
        auto_src,
        "",
        d,
    );
    let dst_port = match f.transport {
        TransportKind::Sctp => DEFAULT_SCTP_PORT,
        t if t.is_tcp() => DEFAULT_TCP_PORT,
        _ => DEFAULT_UDP_PORT,
    };
    rows.add(
        format!("{p}.dst_port"),
        f.dst_port.unwrap_or(dst_port),
        dst_port,
        "",
        d,
    );
    match f.transport {
        TransportKind::Udp => {
            rows.add(
                format!("{p}.rate"),
                opt(f.rate.map(|r| r.0.bps())),
                Value::Null,
                "bit/s",
                d,
            );
            rows.add(
                format!("{p}.packet_size_bytes"),
                f.udp_packet_size(),
                DEFAULT_PACKET_SIZE,
                "bytes",
                d,
            );
        }
        TransportKind::Sctp => sctp(rows, &p, f, mtu),
        _ => tcp(rows, &p, f),
    }
    if f.app == AppKind::File {
        rows.add(
            format!("{p}.size_bytes"),
            opt(f.size_bytes),
            Value::Null,
            "bytes",
            d,
        );
    }
    if f.app == AppKind::Messages {
        messages(rows, &p, &f.messages.clone().unwrap_or_default());
    }
}

/// `[flows.tcp]` after its profile; `default` is the profile's value for this transport.
fn tcp(rows: &mut Rows<'_>, p: &str, f: &FlowSpec) {
    let spec = f.tcp.clone().unwrap_or_default();
    let c = tcp_config(f);
    let b = tcp_config(&FlowSpec {
        tcp: Some(TcpSpec {
            profile: spec.profile,
            ..TcpSpec::default()
        }),
        ..f.clone()
    });
    let prof = format!("profile {}", name(&spec.profile).as_str().unwrap_or("?"));
    let p = format!("{p}.tcp");
    rows.add(
        format!("{p}.profile"),
        name(&spec.profile),
        name(&TcpSpec::default().profile),
        "",
        SOURCE_DEFAULT,
    );
    for r in resolve(&c, &b) {
        rows.add(
            format!("{p}.{}", r.field),
            r.value,
            r.default,
            r.unit,
            &prof,
        );
    }
}

/// `[flows.sctp]` after its profile. The path MTU defaults to the smallest link MTU and the
/// chunk size to what it allows; the initial cwnd is the profile's formula on that MTU.
fn sctp(rows: &mut Rows<'_>, p: &str, f: &FlowSpec, mtu: usize) {
    let spec = f.sctp.clone().unwrap_or_default();
    let c = sctp_config(f, mtu);
    let b = sctp_config(
        &FlowSpec {
            sctp: Some(SctpSpec {
                profile: spec.profile,
                ..SctpSpec::default()
            }),
            ..f.clone()
        },
        mtu,
    );
    let prof = format!("profile {}", spec.profile.name());
    let p = format!("{p}.sctp");
    let d = SOURCE_DEFAULT;
    rows.add(
        format!("{p}.profile"),
        spec.profile.name(),
        SctpSpec::default().profile.name(),
        "",
        d,
    );
    let addrs = |a: &Option<Vec<std::net::Ipv4Addr>>| {
        opt(a
            .as_ref()
            .map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>()))
    };
    rows.add(
        format!("{p}.local_addresses"),
        addrs(&spec.local_addresses),
        Value::Null,
        "",
        d,
    );
    rows.add(
        format!("{p}.peer_addresses"),
        addrs(&spec.peer_addresses),
        Value::Null,
        "",
        d,
    );
    for r in resolve(&c, &b) {
        let fallback = if SCTP_PATH_FIELDS.contains(&r.field) {
            d
        } else {
            prof.as_str()
        };
        rows.add(
            format!("{p}.{}", r.field),
            r.value,
            r.default,
            r.unit,
            fallback,
        );
    }
    if c.multipath == sctpsim_proto::transport::sctp::Multipath::Cmt {
        // CMT's switches, coupled congestion control and retransmission policy (the profile's
        // `CmtConfig::RECOMMENDED` by default).
        for r in resolve_table(SCTP_CMT_PARAMS, &c, &b) {
            let path = format!("{p}.{}", r.field);
            if r.field == "cmt_cc" && spec.cmt_cc.is_none() && spec.cmt_coupled.is_some() {
                // Set through its older form, `cmt_coupled`: that field's source.
                let given_as = format!("{p}.cmt_coupled");
                rows.add_given_as(path, &given_as, r.value, r.default, r.unit, d);
            } else {
                rows.add(path, r.value, r.default, r.unit, d);
            }
        }
    }
    if c.multipath == sctpsim_proto::transport::sctp::Multipath::Asctp {
        let dflt = crate::sim::sctp::ASCTP_DEFAULT_ROUTES;
        rows.add(
            format!("{p}.asctp_max_routes"),
            spec.asctp_max_routes.unwrap_or(dflt),
            dflt,
            "",
            d,
        );
        // The ablation switches (`AsctpRules`): default true, every rule on.
        for ((field, given), (rule, value)) in spec
            .asctp_switches()
            .into_iter()
            .zip(c.asctp_rules.switches())
        {
            debug_assert_eq!(field.strip_prefix("asctp_"), Some(rule));
            debug_assert!(given.is_none_or(|g| g == value));
            rows.add(format!("{p}.{field}"), value, true, "", d);
        }
    }
    rows.add(
        format!("{p}.pr_sctp"),
        c.pr_sctp,
        b.pr_sctp,
        "",
        prof.as_str(),
    );
    rows.add(format!("{p}.auth"), c.auth, b.auth, "", d);
    rows.add(
        format!("{p}.auth_hmac"),
        c.auth_hmac.name(),
        b.auth_hmac.name(),
        "",
        d,
    );
    rows.add(format!("{p}.i_data"), c.i_data, b.i_data, "", d);
    rows.add(
        format!("{p}.scheduler"),
        c.scheduler.kind.name(),
        b.scheduler.kind.name(),
        "",
        d,
    );
    {
        use sctpsim_proto::transport::sctp::SchedulerKind;
        let streams = usize::from(c.outbound_streams);
        let list =
            |f: &dyn Fn(u16) -> u16| -> Vec<u16> { (0..streams).map(|s| f(s as u16)).collect() };
        if c.scheduler.kind == SchedulerKind::Priority {
            let prio = list(&|s| c.scheduler.priority(s));
            let dflt = vec![sctpsim_proto::transport::sctp::scheduler::DEFAULT_PRIORITY; streams];
            rows.add(format!("{p}.stream_priorities"), prio, dflt, "", d);
        }
        if c.scheduler.kind == SchedulerKind::WeightedFair {
            let w = list(&|s| c.scheduler.weight(s));
            let dflt = vec![sctpsim_proto::transport::sctp::scheduler::DEFAULT_WEIGHT; streams];
            rows.add(format!("{p}.stream_weights"), w, dflt, "", d);
        }
    }
    let asconf: Vec<Value> = spec
        .asconf
        .iter()
        .map(|a| {
            serde_json::json!({
                "at": a.at.0.as_secs_f64(),
                "action": name(&a.action),
                "address": a.address.to_string(),
                "side": name(&a.side),
            })
        })
        .collect();
    rows.add(format!("{p}.asconf"), asconf, Vec::<Value>::new(), "", d);
    for r in resolve_table(SCTP_EXTENSION_PARAMS, &c, &b) {
        rows.add(format!("{p}.{}", r.field), r.value, r.default, r.unit, d);
    }
    let reconfig: Vec<Value> = spec
        .reconfig_actions
        .iter()
        .map(|a| {
            serde_json::json!({
                "at": a.at.0.as_secs_f64(),
                "action": name(&a.action),
                "streams": a.streams,
                "count": a.count,
                "side": name(&a.side),
            })
        })
        .collect();
    rows.add(
        format!("{p}.reconfig_actions"),
        reconfig,
        Vec::<Value>::new(),
        "",
        d,
    );
}

/// `[flows.messages]` with the schema's defaults.
fn messages(rows: &mut Rows<'_>, p: &str, m: &MessagesSpec) {
    let b = MessagesSpec::default();
    let d = SOURCE_DEFAULT;
    let p = format!("{p}.messages");
    rows.add(format!("{p}.streams"), m.streams, b.streams, "", d);
    rows.add(
        format!("{p}.message_bytes"),
        m.message_bytes,
        b.message_bytes,
        "bytes",
        d,
    );
    rows.add(
        format!("{p}.rate"),
        opt(m.rate.map(|r| r.0.bps())),
        Value::Null,
        "bit/s",
        d,
    );
    rows.add(format!("{p}.unordered"), m.unordered, b.unordered, "", d);
    rows.add(
        format!("{p}.lifetime"),
        opt_secs(m.lifetime),
        Value::Null,
        "s",
        d,
    );
    rows.add(format!("{p}.count"), opt(m.count), Value::Null, "", d);
}
