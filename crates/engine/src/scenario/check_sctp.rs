//! Semantic checks of the SCTP fields (`schema_sctp.rs`): SCTP flows and their knobs, the
//! message source, multi-homing address lists, and link outages. Every error names the field
//! path.

use super::addresses::link_default_addr as default_addr;
use super::error::ScenarioError;
use super::schema::*;
use super::Duration;
use sctpsim_proto::transport::sctp::{CoupledCc, EarlyRetransmit, Multipath, RtxPolicy};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

/// RFC 9260 §6.2: the delayed-SACK timer "MUST NOT" exceed 500 ms.
const SACK_DELAY_MAX_NS: u64 = 500_000_000;
/// The smallest path MTU the association accepts (`sctpsim_proto` `path::MIN_PMTU`).
const MIN_PMTU: u32 = sctpsim_proto::transport::sctp::path::MIN_PMTU as u32;
/// IPv4 (20) + SCTP common header (12) + DATA chunk header (16) in front of user data
/// (`sctpsim_proto` `path::IP_SCTP_OVERHEAD + path::DATA_CHUNK_HEADER`).
const DATA_OVERHEAD: u32 = (sctpsim_proto::transport::sctp::path::IP_SCTP_OVERHEAD
    + sctpsim_proto::transport::sctp::path::DATA_CHUNK_HEADER) as u32;
/// The 12-byte sequence number and send time at the start of every message
/// (`sctpsim_proto::app::SeqTsHeader`).
const MESSAGE_HEADER: u32 = 12;

/// `[[link.outages]]` of every link: a positive interval, `from` an end of the link.
pub(super) fn check_outages(s: &Scenario) -> Result<(), ScenarioError> {
    for (i, l) in s.link.iter().enumerate() {
        for (k, o) in l.outages.iter().enumerate() {
            let op = format!("link[{i}].outages[{k}]");
            if o.end.0 <= o.start.0 {
                return Err(ScenarioError::at(
                    format!("{op}.end"),
                    "must be after start",
                ));
            }
            if let Some(from) = &o.from {
                if from != &l.between[0] && from != &l.between[1] {
                    return Err(ScenarioError::at(
                        format!("{op}.from"),
                        format!("\"{from}\" is not an end of this link"),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A flow of another transport must not carry SCTP-only fields.
pub(super) fn check_not_sctp(p: &str, f: &FlowSpec) -> Result<(), ScenarioError> {
    if f.sctp.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.sctp"),
            "only used by transport \"sctp\"",
        ));
    }
    if f.app == AppKind::Messages {
        return Err(ScenarioError::at(
            format!("{p}.app"),
            "\"messages\" (multi-stream message source) needs transport \"sctp\"",
        ));
    }
    if f.messages.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.messages"),
            "only used by app \"messages\"",
        ));
    }
    Ok(())
}

/// The interface addresses of node `name` on point-to-point links, as `Topology::build`
/// assigns them.
fn link_addresses(s: &Scenario, name: &str) -> Vec<Ipv4Addr> {
    let mut out = Vec::new();
    for (k, l) in s.link.iter().enumerate() {
        for end in 0..2 {
            if l.between[end] == name {
                out.push(l.addresses.map(|a| a[end]).unwrap_or(default_addr(k, end)));
            }
        }
    }
    out
}

/// An address list: non-empty, no duplicates, each an address of `node` (a wireless node's
/// radio address is assigned by the wireless layer, so any address passes for it).
fn check_address_list(
    path: String,
    list: &[Ipv4Addr],
    s: &Scenario,
    node: &str,
) -> Result<(), ScenarioError> {
    if list.is_empty() {
        return Err(ScenarioError::at(
            path,
            "must list at least one address (or be left out: every address of the node)",
        ));
    }
    let owned = link_addresses(s, node);
    let wireless = s.node.iter().any(|n| n.name == node && n.wireless);
    let mut seen = BTreeSet::new();
    for (k, a) in list.iter().enumerate() {
        if !seen.insert(*a) {
            return Err(ScenarioError::at(
                format!("{path}[{k}]"),
                format!("{a} is listed twice"),
            ));
        }
        if !owned.contains(a) && !wireless {
            let have: Vec<String> = owned.iter().map(|a| a.to_string()).collect();
            return Err(ScenarioError::at(
                format!("{path}[{k}]"),
                format!(
                    "{a} is not an address of node \"{node}\" (it has {})",
                    if have.is_empty() {
                        "none".to_string()
                    } else {
                        have.join(", ")
                    }
                ),
            ));
        }
    }
    Ok(())
}

fn positive(path: String, d: Option<Duration>) -> Result<(), ScenarioError> {
    match d {
        Some(d) if d.0.is_zero() => Err(ScenarioError::at(path, "must be positive")),
        _ => Ok(()),
    }
}

fn at_least_one<T: Into<u64> + Copy>(path: String, v: Option<T>) -> Result<(), ScenarioError> {
    match v {
        Some(x) if x.into() == 0 => Err(ScenarioError::at(path, "must be at least 1")),
        _ => Ok(()),
    }
}

/// An SCTP flow: applications, fields other transports use, the message source, the knobs.
pub(super) fn check_sctp_flow(
    p: &str,
    f: &FlowSpec,
    s: &Scenario,
    min_mtu: Option<(usize, &LinkSpec)>,
) -> Result<(), ScenarioError> {
    if f.app == AppKind::Cbr {
        return Err(ScenarioError::at(
            format!("{p}.app"),
            "\"cbr\" is a UDP application; over SCTP use \"ftp\" (backlogged), \"file\" or \"messages\"",
        ));
    }
    if f.rate.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.rate"),
            "not used by SCTP; a paced source is app \"messages\" with messages.rate",
        ));
    }
    if f.packet_size_bytes.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.packet_size_bytes"),
            "not used by SCTP; set sctp.chunk_bytes or messages.message_bytes",
        ));
    }
    if f.tcp.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.tcp"),
            "only used by TCP transports (SCTP knobs go in sctp)",
        ));
    }
    if f.stop.is_some() && f.app != AppKind::Messages {
        return Err(ScenarioError::at(
            format!("{p}.stop"),
            "only supported for app \"messages\" over SCTP: an ftp flow runs to the end, a file flow until its last byte",
        ));
    }
    match (f.app, f.size_bytes) {
        (AppKind::File, None) => {
            return Err(ScenarioError::at(
                format!("{p}.size_bytes"),
                "required for app \"file\"",
            ))
        }
        (AppKind::File, Some(0)) => {
            return Err(ScenarioError::at(
                format!("{p}.size_bytes"),
                "must be positive",
            ))
        }
        (AppKind::File, Some(_)) => {}
        (_, Some(_)) => {
            return Err(ScenarioError::at(
                format!("{p}.size_bytes"),
                "only used by app \"file\"",
            ))
        }
        (_, None) => {}
    }
    if f.messages.is_some() && f.app != AppKind::Messages {
        return Err(ScenarioError::at(
            format!("{p}.messages"),
            "only used by app \"messages\"",
        ));
    }
    let sc = f.sctp.clone().unwrap_or_default();
    let sp = format!("{p}.sctp");
    if f.app == AppKind::Messages {
        let m = f.messages.clone().unwrap_or_default();
        let mp = format!("{p}.messages");
        if m.streams == 0 {
            return Err(ScenarioError::at(
                format!("{mp}.streams"),
                "must be at least 1",
            ));
        }
        if let Some(os) = sc.streams {
            if m.streams > os {
                return Err(ScenarioError::at(
                    format!("{mp}.streams"),
                    format!(
                        "{} streams do not fit the {os} outbound streams of sctp.streams",
                        m.streams
                    ),
                ));
            }
        }
        if m.message_bytes < MESSAGE_HEADER {
            return Err(ScenarioError::at(
                format!("{mp}.message_bytes"),
                "must be at least 12 (the sequence number and send time each message carries)",
            ));
        }
        if let Some(r) = m.rate {
            if r.0.bps() == 0 {
                return Err(ScenarioError::at(format!("{mp}.rate"), "must be positive"));
            }
        }
        positive(format!("{mp}.lifetime"), m.lifetime)?;
        at_least_one(format!("{mp}.count"), m.count)?;
        if let Some(buf) = sc.send_buffer_bytes {
            if buf < m.message_bytes {
                return Err(ScenarioError::at(
                    format!("{sp}.send_buffer_bytes"),
                    format!("must hold at least one message ({} bytes)", m.message_bytes),
                ));
            }
        }
    }
    if let Some(list) = &sc.local_addresses {
        check_address_list(format!("{sp}.local_addresses"), list, s, &f.src)?;
    }
    if let Some(list) = &sc.peer_addresses {
        check_address_list(format!("{sp}.peer_addresses"), list, s, &f.dst)?;
    }
    for (field, v) in [
        ("initial_rto", sc.initial_rto),
        ("min_rto", sc.min_rto),
        ("max_rto", sc.max_rto),
    ] {
        positive(format!("{sp}.{field}"), v)?;
    }
    if let (Some(lo), Some(hi)) = (sc.min_rto, sc.max_rto) {
        if lo.0 > hi.0 {
            return Err(ScenarioError::at(
                format!("{sp}.max_rto"),
                "must not be below min_rto",
            ));
        }
    }
    if let Some(d) = sc.delayed_sack_timeout {
        if d.0.is_zero() || d.0.as_nanos() > SACK_DELAY_MAX_NS {
            return Err(ScenarioError::at(
                format!("{sp}.delayed_sack_timeout"),
                "must be positive and at most 500ms (RFC 9260 §6.2)",
            ));
        }
    }
    at_least_one(format!("{sp}.sack_frequency"), sc.sack_frequency)?;
    at_least_one(format!("{sp}.max_gap_blocks"), sc.max_gap_blocks)?;
    at_least_one(format!("{sp}.fast_rtx_threshold"), sc.fast_rtx_threshold)?;
    if let Some(v) = &sc.early_retransmit {
        if EarlyRetransmit::from_name(v).is_none() {
            return Err(ScenarioError::at(
                format!("{sp}.early_retransmit"),
                format!("unknown value {v:?}: expected \"off\", \"ye2003\" or \"rfc5827\""),
            ));
        }
    }
    check_multipath(&sp, &sc, s)?;
    check_csctp(&sp, &sc, f, s)?;
    check_scheduler(&sp, &sc, f)?;
    at_least_one(format!("{sp}.initial_cwnd_bytes"), sc.initial_cwnd_bytes)?;
    at_least_one(
        format!("{sp}.initial_ssthresh_bytes"),
        sc.initial_ssthresh_bytes,
    )?;
    at_least_one(format!("{sp}.streams"), sc.streams)?;
    at_least_one(format!("{sp}.chunk_bytes"), sc.chunk_bytes)?;
    at_least_one(format!("{sp}.recv_buffer_bytes"), sc.recv_buffer_bytes)?;
    at_least_one(format!("{sp}.send_buffer_bytes"), sc.send_buffer_bytes)?;
    let link_mtu = min_mtu.map(|(j, l)| (j, l.mtu_bytes));
    let mtu = match (sc.mtu_bytes, link_mtu) {
        (Some(m), Some((j, lm))) if u32::from(m) > lm => {
            return Err(ScenarioError::at(
                format!("{sp}.mtu_bytes"),
                format!("{m} exceeds the MTU {lm} of link[{j}] (no fragmentation)"),
            ));
        }
        (Some(m), _) => u32::from(m),
        (None, Some((_, lm))) => lm.min(u32::from(u16::MAX)),
        (None, None) => 1500,
    };
    if mtu < MIN_PMTU {
        return Err(ScenarioError::at(
            format!("{sp}.mtu_bytes"),
            format!(
                "{mtu} is below the smallest path MTU SCTP accepts here ({MIN_PMTU}); {}",
                if sc.mtu_bytes.is_some() {
                    "raise it"
                } else {
                    "the smallest link MTU sets the default"
                }
            ),
        ));
    }
    if let Some(c) = sc.chunk_bytes {
        if c > mtu - DATA_OVERHEAD {
            return Err(ScenarioError::at(
                format!("{sp}.chunk_bytes"),
                format!("{c} + {DATA_OVERHEAD} header bytes exceed the path MTU {mtu}"),
            ));
        }
    }
    check_asconf(&sp, f, &sc, s)?;
    check_reconfig(&sp, f, &sc)?;
    check_nr_sack(&sp, &sc)
}

/// `[flows.sctp] nr_sack`: not with cSCTP, whose per-path SACKs acknowledge one path's copies
/// of a duplicated transfer and have no non-renegable counterpart (the NR-SACK draft and
/// FreeBSD know no per-path NR-SACK).
fn check_nr_sack(sp: &str, sc: &SctpSpec) -> Result<(), ScenarioError> {
    let csctp = sc.csctp.as_deref().is_some_and(|c| c != "off");
    if sc.nr_sack == Some(true) && csctp {
        return Err(ScenarioError::at(
            format!("{sp}.nr_sack"),
            "NR-SACK and csctp exclude each other (cSCTP's per-path SACKs have no \
             non-renegable form)",
        ));
    }
    Ok(())
}

/// `[flows.sctp] reconfig_actions` (RFC 6525): only with `reconfig = true`, times after the
/// flow's start and in order, `streams` only for resets (each below 65535), `count` (1 or
/// more) for adds and only for them.
fn check_reconfig(sp: &str, f: &FlowSpec, sc: &SctpSpec) -> Result<(), ScenarioError> {
    if sc.reconfig_actions.is_empty() {
        return Ok(());
    }
    if sc.reconfig != Some(true) {
        return Err(ScenarioError::at(
            format!("{sp}.reconfig_actions"),
            "needs reconfig = true (stream reconfiguration, RFC 6525, is off by default)",
        ));
    }
    check_action_times(
        &format!("{sp}.reconfig_actions"),
        f.start.0,
        sc.reconfig_actions.iter().map(|a| a.at.0),
    )?;
    for (k, a) in sc.reconfig_actions.iter().enumerate() {
        let ap = format!("{sp}.reconfig_actions[{k}]");
        let adds = matches!(
            a.action,
            ReconfigActionKind::AddOutgoing | ReconfigActionKind::AddIncoming
        );
        let resets_streams = matches!(
            a.action,
            ReconfigActionKind::ResetOutgoing | ReconfigActionKind::ResetIncoming
        );
        if !resets_streams && !a.streams.is_empty() {
            return Err(ScenarioError::at(
                format!("{ap}.streams"),
                "only reset-outgoing and reset-incoming name streams",
            ));
        }
        match (adds, a.count) {
            (true, None) | (true, Some(0)) => {
                return Err(ScenarioError::at(
                    format!("{ap}.count"),
                    "add-outgoing and add-incoming need count = 1 or more",
                ))
            }
            (false, Some(_)) => {
                return Err(ScenarioError::at(
                    format!("{ap}.count"),
                    "only add-outgoing and add-incoming take a count",
                ))
            }
            _ => {}
        }
        if let Some(s) = a.streams.iter().find(|s| **s == u16::MAX) {
            return Err(ScenarioError::at(
                format!("{ap}.streams"),
                format!("stream {s} does not exist (stream identifiers go up to 65534)"),
            ));
        }
    }
    Ok(())
}

/// `scheduler`, `stream_priorities` and `stream_weights` (RFC 8260 §3): a known scheduler; the
/// lists only with the scheduler that uses them, no longer than the outbound streams, weights
/// at least 1.
fn check_scheduler(sp: &str, sc: &SctpSpec, f: &FlowSpec) -> Result<(), ScenarioError> {
    use sctpsim_proto::transport::sctp::SchedulerKind;
    let kind = match &sc.scheduler {
        Some(name) => SchedulerKind::from_name(name).ok_or_else(|| {
            ScenarioError::at(
                format!("{sp}.scheduler"),
                format!(
                    "unknown value {name:?}: expected \"fcfs\", \"rr\", \"rr-packet\", \"priority\", \"fc\" or \"wfq\""
                ),
            )
        })?,
        None => SchedulerKind::default(),
    };
    // The outbound streams the association asks for (as `sim/sctp/build.rs` computes them;
    // every profile requests 10 unless told otherwise).
    let app_streams = match (f.app, &f.messages) {
        (AppKind::Messages, Some(m)) => m.streams,
        _ => 1,
    };
    let streams = sc.streams.unwrap_or(app_streams.max(10));
    for (field, list, wanted) in [
        (
            "stream_priorities",
            &sc.stream_priorities,
            SchedulerKind::Priority,
        ),
        (
            "stream_weights",
            &sc.stream_weights,
            SchedulerKind::WeightedFair,
        ),
    ] {
        let Some(list) = list else {
            continue;
        };
        if kind != wanted {
            return Err(ScenarioError::at(
                format!("{sp}.{field}"),
                format!("only used with scheduler = \"{}\"", wanted.name()),
            ));
        }
        if list.len() > usize::from(streams) {
            return Err(ScenarioError::at(
                format!("{sp}.{field}"),
                format!("{} entries for {streams} outbound streams", list.len()),
            ));
        }
        if field == "stream_weights" {
            if let Some(i) = list.iter().position(|w| *w == 0) {
                return Err(ScenarioError::at(
                    format!("{sp}.{field}[{i}]"),
                    "must be at least 1",
                ));
            }
        }
    }
    Ok(())
}

/// The most routes `asctp_max_routes` may ask for: DSR keeps at most 8 routes per destination
/// (`DsrConfig::max_routes_per_dest`), and every route is a path of the association.
pub const ASCTP_MAX_ROUTES: u32 = 8;

/// `[flows.sctp] multipath`, `asctp_max_routes` and the `asctp_<rule>` switches: a known name; A-SCTP only over DSR (the
/// only protocol that can pin a packet to a route), with heartbeats (its failure detection)
/// and without ASCONF actions (addresses stay fixed; the routes change instead).
fn check_multipath(sp: &str, sc: &SctpSpec, s: &Scenario) -> Result<(), ScenarioError> {
    let mode = match sc.multipath.as_deref() {
        None => Multipath::Off,
        Some(v) => Multipath::from_name(v).ok_or_else(|| {
            ScenarioError::at(
                format!("{sp}.multipath"),
                format!("unknown value {v:?}: expected \"off\", \"asctp\" or \"cmt\""),
            )
        })?,
    };
    check_cmt(sp, sc, mode)?;
    if mode != Multipath::Asctp {
        if sc.asctp_max_routes.is_some() {
            return Err(ScenarioError::at(
                format!("{sp}.asctp_max_routes"),
                "only used with multipath = \"asctp\"",
            ));
        }
        // The ablation switches change nothing without A-SCTP: refused rather than ignored,
        // so that an ablation run cannot silently measure plain SCTP.
        if let Some((field, _)) = sc.asctp_switches().into_iter().find(|(_, v)| v.is_some()) {
            return Err(ScenarioError::at(
                format!("{sp}.{field}"),
                "only used with multipath = \"asctp\" (an A-SCTP ablation switch)",
            ));
        }
        return Ok(());
    }
    let protocol = s.routing.as_ref().map(|r| r.protocol).unwrap_or_default();
    if protocol != RoutingKind::Dsr {
        return Err(ScenarioError::at(
            format!("{sp}.multipath"),
            format!(
                "\"asctp\" needs routing.protocol = \"dsr\" (node-disjoint source routes), not \"{}\"",
                protocol.name()
            ),
        ));
    }
    if let Some(n) = sc.asctp_max_routes {
        if !(1..=ASCTP_MAX_ROUTES).contains(&n) {
            return Err(ScenarioError::at(
                format!("{sp}.asctp_max_routes"),
                format!(
                    "must be 1 to {ASCTP_MAX_ROUTES} (DSR keeps at most 8 routes per destination)"
                ),
            ));
        }
    }
    if sc.heartbeats == Some(false) {
        return Err(ScenarioError::at(
            format!("{sp}.heartbeats"),
            "A-SCTP (multipath = \"asctp\") watches its routes with heartbeats: leave them on",
        ));
    }
    if !sc.asconf.is_empty() {
        return Err(ScenarioError::at(
            format!("{sp}.asconf"),
            "not with multipath = \"asctp\" (its paths are routes to one fixed address)",
        ));
    }
    Ok(())
}

/// `[flows.sctp] cmt_*`: only with `multipath = "cmt"` (refused rather than ignored, so that a
/// CMT ablation cannot silently measure plain SCTP), a known retransmission policy, and not
/// with cSCTP (whose duplicated transfer has its own use of the second path).
fn check_cmt(sp: &str, sc: &SctpSpec, mode: Multipath) -> Result<(), ScenarioError> {
    if mode != Multipath::Cmt {
        let given = sc.cmt_switches().into_iter().find(|(_, v)| v.is_some());
        let policy = sc.cmt_rtx_policy.as_ref().map(|_| "cmt_rtx_policy");
        let cc = sc.cmt_cc.as_ref().map(|_| "cmt_cc");
        if let Some(field) = given.map(|(f, _)| f).or(policy).or(cc) {
            return Err(ScenarioError::at(
                format!("{sp}.{field}"),
                "only used with multipath = \"cmt\"",
            ));
        }
        return Ok(());
    }
    if let Some(v) = sc.cmt_rtx_policy.as_deref() {
        if RtxPolicy::from_name(v).is_none() {
            let names = RtxPolicy::ALL.iter().map(|p| p.name());
            return Err(unknown_name(format!("{sp}.cmt_rtx_policy"), v, names));
        }
    }
    if let Some(v) = sc.cmt_cc.as_deref() {
        if CoupledCc::from_name(v).is_none() {
            let names = CoupledCc::ALL.iter().map(|c| c.name());
            return Err(unknown_name(format!("{sp}.cmt_cc"), v, names));
        }
        // `cmt_coupled` is the older form of the same choice: both given must agree.
        if let Some(c) = sc.cmt_coupled {
            let alias = if c { "lia" } else { "off" };
            if v != alias {
                return Err(ScenarioError::at(
                    format!("{sp}.cmt_cc"),
                    format!(
                        "{v:?} disagrees with cmt_coupled = {c} (the same as cmt_cc = \"{alias}\"); give one of them"
                    ),
                ));
            }
        }
    }
    if sc.csctp.as_deref().is_some_and(|c| c != "off") {
        return Err(ScenarioError::at(
            format!("{sp}.csctp"),
            "not with multipath = \"cmt\" (cSCTP's duplicated transfer uses the second path its own way)",
        ));
    }
    Ok(())
}

/// `[flows.sctp] asconf`: the rfc9260 profile (which offers ASCONF), times after the flow's
/// start and in order, each address an interface address of the side's node.
fn check_asconf(sp: &str, f: &FlowSpec, sc: &SctpSpec, s: &Scenario) -> Result<(), ScenarioError> {
    if sc.asconf.is_empty() {
        return Ok(());
    }
    if sc.profile != SctpProfileKind::Rfc9260 {
        return Err(ScenarioError::at(
            format!("{sp}.asconf"),
            "ASCONF (RFC 5061) is offered only by the rfc9260 profile",
        ));
    }
    check_action_times(
        &format!("{sp}.asconf"),
        f.start.0,
        sc.asconf.iter().map(|a| a.at.0),
    )?;
    for (k, a) in sc.asconf.iter().enumerate() {
        let ap = format!("{sp}.asconf[{k}]");
        let node = match a.side {
            FlowSide::Src => &f.src,
            FlowSide::Dst => &f.dst,
        };
        let wireless = s.node.iter().any(|n| &n.name == node && n.wireless);
        if !wireless && !link_addresses(s, node).contains(&a.address) {
            return Err(ScenarioError::at(
                format!("{ap}.address"),
                format!("{} is not an address of node \"{node}\"", a.address),
            ));
        }
    }
    Ok(())
}

/// `[flows.sctp] csctp`: a known name, and one end a cellular mobile (whose address events
/// drive it) without scripted ASCONF actions (the addresses are the access routers').
fn check_csctp(
    sp: &str,
    sc: &SctpSpec,
    f: &super::schema::FlowSpec,
    s: &Scenario,
) -> Result<(), ScenarioError> {
    let Some(v) = sc.csctp.as_deref() else {
        return Ok(());
    };
    if !matches!(v, "off" | "single-primary" | "duplicated") {
        return Err(ScenarioError::at(
            format!("{sp}.csctp"),
            format!("unknown value {v:?}: expected \"off\", \"single-primary\" or \"duplicated\""),
        ));
    }
    if v == "off" {
        return Ok(());
    }
    let mobile = |name: &str| {
        s.node.iter().any(|n| {
            n.name == name
                && n.cellular
                    .as_ref()
                    .is_some_and(|c| c.role == super::schema::CellRoleKind::Mobile)
        })
    };
    if !mobile(&f.src) && !mobile(&f.dst) {
        return Err(ScenarioError::at(
            format!("{sp}.csctp"),
            "needs src or dst to be a node with cellular.role = \"mobile\"",
        ));
    }
    if !sc.asconf.is_empty() {
        return Err(ScenarioError::at(
            format!("{sp}.asconf"),
            "scripted ASCONF actions and csctp exclude each other (cSCTP's ASCONFs follow the \
             mobile's addresses)",
        ));
    }
    Ok(())
}

/// The times of a flow's scheduled actions (`list` = the field's path, e.g.
/// `flows[0].sctp.asconf`): each after the flow's start (the association must exist) and in
/// time order; the error names the action's `at`.
fn check_action_times(
    list: &str,
    start: sctpsim_kernel::SimDuration,
    times: impl Iterator<Item = sctpsim_kernel::SimDuration>,
) -> Result<(), ScenarioError> {
    let mut last = start;
    for (k, at) in times.enumerate() {
        if at <= start {
            return Err(ScenarioError::at(
                format!("{list}[{k}].at"),
                "must be after the flow's start (the association must exist)",
            ));
        }
        if at < last {
            return Err(ScenarioError::at(
                format!("{list}[{k}].at"),
                "actions must be listed in time order",
            ));
        }
        last = at;
    }
    Ok(())
}

/// The error for a name that is not one of `names` at `path`.
fn unknown_name<'a>(path: String, v: &str, names: impl Iterator<Item = &'a str>) -> ScenarioError {
    let names: Vec<&str> = names.collect();
    ScenarioError::at(
        path,
        format!("unknown value {v:?}: expected one of {}", names.join(", ")),
    )
}
