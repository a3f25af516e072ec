//! Semantic checks the schema cannot express: references between sections, positive rates and
//! durations, probabilities in [0, 1], fields that a chosen model does not use.

use super::error::ScenarioError;
use super::schema::*;
use std::collections::BTreeMap;

/// IPv4 (20) + UDP (8) header bytes in front of a UDP payload.
const UDP_IP_OVERHEAD: u32 = 28;

fn prob(path: String, v: Option<f64>, required_by: &str) -> Result<f64, ScenarioError> {
    let v =
        v.ok_or_else(|| ScenarioError::at(&path, format!("required by model \"{required_by}\"")))?;
    if !(0.0..=1.0).contains(&v) || v.is_nan() {
        return Err(ScenarioError::at(
            path,
            format!("must be a probability in [0, 1], got {v}"),
        ));
    }
    Ok(v)
}

fn unused(path: String, v: Option<f64>, model: &str) -> Result<(), ScenarioError> {
    match v {
        Some(_) => Err(ScenarioError::at(
            path,
            format!("not used by model \"{model}\"; remove it"),
        )),
        None => Ok(()),
    }
}

/// Shortest `simulation.sample_interval` accepted, ns (1 µs).
///
/// Why a floor on top of [`MAX_SERIES_ROWS`]: a sample is an event that walks every flow,
/// link and MAC, so sub-microsecond sampling makes sampling, not packets, the bulk of the
/// run's work; and it measures nothing — a 1500-byte frame takes 1.2 µs on the wire even at
/// 10 Gb/s, so goodput over a shorter interval is 0 or one packet's worth. The row bound alone
/// would still admit `"1ns"` for a run of a few milliseconds; the floor gives that mistake a
/// clearer message.
pub const MIN_SAMPLE_INTERVAL_NS: u64 = 1_000;

/// Most time-series rows a run may be expected to produce (10 million).
///
/// The series is held in memory until the run ends (`results::TimeSeries`, one row per
/// (time, scope, id, dir, metric), one column `Vec` per field). A row takes 8 bytes of time,
/// 16 of scope (`&str`), 4 of id, 24 of dir (`Cow<str>`), 16 of metric (`&str`) and 8 of
/// value: 76 bytes, and up to twice that while a column `Vec` doubles. 10 million rows is
/// therefore 0.8–1.5 GiB — the most a run on a laptop should ask for without being told.
/// The shipped examples take at most 800 samples (40 s at 50 ms; `manet-cbr`, 900 s at 10 s,
/// takes 90), so they would need over 12,000 rows a sample to reach it.
pub const MAX_SERIES_ROWS: u64 = 10_000_000;

/// Time-series rows every sample is sure to add (a lower bound: TCP and SCTP flows add
/// per-path and per-stream rows on top), from the counts in `Simulation::sample`: 2 per flow
/// (`goodput_bps`, `bytes_delivered`), 4 per link (two directions × `queue_packets`,
/// `throughput_bps`), 5 network MAC totals with wireless nodes, 2 beacon counts with
/// `[beacons]`, and 2 per wireless node with `trace_positions`. At least 1, so a run with
/// nothing sampled still pays for its sample count.
fn rows_per_sample(s: &Scenario) -> u64 {
    let wireless = s.node.iter().filter(|n| n.wireless).count() as u64;
    let mut rows = 2 * s.flows.len() as u64 + 4 * s.link.len() as u64;
    if wireless > 0 {
        rows += 5;
        if s.beacons.is_some() {
            rows += 2;
        }
        if s.simulation.trace_positions {
            rows += 2 * wireless;
        }
    }
    rows.max(1)
}

/// Refuses, before anything runs, a sampling that would hold more than [`MAX_SERIES_ROWS`]
/// rows in memory (`"1ns"` for minutes grew past 4 GiB in seconds), and intervals below
/// [`MIN_SAMPLE_INTERVAL_NS`].
fn check_sample_budget(s: &Scenario) -> Result<(), ScenarioError> {
    let path = "simulation.sample_interval";
    let interval = s.simulation.sample_interval.0;
    if interval.as_nanos() < MIN_SAMPLE_INTERVAL_NS {
        return Err(ScenarioError::at(
            path,
            format!("{interval} is below the shortest accepted interval, 1us"),
        ));
    }
    let duration = s.simulation.duration.0;
    // One sample every interval, the last at the end of the run.
    let samples = duration.as_nanos().div_ceil(interval.as_nanos());
    let per = rows_per_sample(s);
    let rows = samples.saturating_mul(per);
    if rows > MAX_SERIES_ROWS {
        return Err(ScenarioError::at(
            path,
            format!(
                "{interval} over a duration of {duration} is {samples} samples × at least {per} \
                 rows = {rows} time-series rows, above the limit of {MAX_SERIES_ROWS}; \
                 use a longer interval"
            ),
        ));
    }
    Ok(())
}

/// Run every check; the first failure is returned.
pub fn check(s: &Scenario) -> Result<(), ScenarioError> {
    if s.simulation.duration.0.is_zero() {
        return Err(ScenarioError::at("simulation.duration", "must be positive"));
    }
    if s.simulation.sample_interval.0.is_zero() {
        return Err(ScenarioError::at(
            "simulation.sample_interval",
            "must be positive",
        ));
    }
    check_sample_budget(s)?;

    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, n) in s.node.iter().enumerate() {
        if n.name.trim().is_empty() {
            return Err(ScenarioError::at(
                format!("node[{i}].name"),
                "must not be empty",
            ));
        }
        if let Some(j) = names.insert(n.name.as_str(), i) {
            return Err(ScenarioError::at(
                format!("node[{i}].name"),
                format!("duplicate name \"{}\" (also node[{j}])", n.name),
            ));
        }
    }
    let node_ref = |path: String, name: &str| -> Result<usize, ScenarioError> {
        names
            .get(name)
            .copied()
            .ok_or_else(|| ScenarioError::at(path, format!("no node named \"{name}\"")))
    };

    let mut addrs = BTreeMap::new();
    for (i, l) in s.link.iter().enumerate() {
        let p = format!("link[{i}]");
        let a = node_ref(format!("{p}.between[0]"), &l.between[0])?;
        let b = node_ref(format!("{p}.between[1]"), &l.between[1])?;
        if a == b {
            return Err(ScenarioError::at(
                format!("{p}.between"),
                "a link needs two different nodes",
            ));
        }
        if l.bandwidth.0.bps() == 0 {
            return Err(ScenarioError::at(
                format!("{p}.bandwidth"),
                "must be positive",
            ));
        }
        if l.queue_limit_packets == 0 {
            return Err(ScenarioError::at(
                format!("{p}.queue_limit_packets"),
                "must be at least 1",
            ));
        }
        if l.mtu_bytes < 68 {
            return Err(ScenarioError::at(
                format!("{p}.mtu_bytes"),
                "must be at least 68 (RFC 791)",
            ));
        }
        if let Some(pair) = &l.addresses {
            for (k, addr) in pair.iter().enumerate() {
                if addr.is_unspecified() || addr.is_broadcast() || addr.is_multicast() {
                    return Err(ScenarioError::at(
                        format!("{p}.addresses[{k}]"),
                        "must be a unicast address",
                    ));
                }
                if let Some(prev) = addrs.insert(*addr, format!("{p}.addresses[{k}]")) {
                    return Err(ScenarioError::at(
                        format!("{p}.addresses[{k}]"),
                        format!("{addr} is also {prev}"),
                    ));
                }
            }
        }
        if let Some(loss) = &l.loss {
            let lp = format!("{p}.loss");
            match loss.model {
                LossModelKind::None => {
                    for (f, v) in [
                        ("p", loss.p),
                        ("p_good_to_bad", loss.p_good_to_bad),
                        ("p_bad_to_good", loss.p_bad_to_good),
                        ("loss_good", loss.loss_good),
                        ("loss_bad", loss.loss_bad),
                    ] {
                        unused(format!("{lp}.{f}"), v, "none")?;
                    }
                }
                LossModelKind::Bernoulli => {
                    prob(format!("{lp}.p"), loss.p, "bernoulli")?;
                    for (f, v) in [
                        ("p_good_to_bad", loss.p_good_to_bad),
                        ("p_bad_to_good", loss.p_bad_to_good),
                        ("loss_good", loss.loss_good),
                        ("loss_bad", loss.loss_bad),
                    ] {
                        unused(format!("{lp}.{f}"), v, "bernoulli")?;
                    }
                }
                LossModelKind::GilbertElliott => {
                    unused(format!("{lp}.p"), loss.p, "gilbert-elliott")?;
                    prob(
                        format!("{lp}.p_good_to_bad"),
                        loss.p_good_to_bad,
                        "gilbert-elliott",
                    )?;
                    prob(
                        format!("{lp}.p_bad_to_good"),
                        loss.p_bad_to_good,
                        "gilbert-elliott",
                    )?;
                    prob(
                        format!("{lp}.loss_good"),
                        Some(loss.loss_good.unwrap_or(0.0)),
                        "gilbert-elliott",
                    )?;
                    prob(
                        format!("{lp}.loss_bad"),
                        Some(loss.loss_bad.unwrap_or(1.0)),
                        "gilbert-elliott",
                    )?;
                }
            }
            if let Some(from) = &loss.from {
                if from != &l.between[0] && from != &l.between[1] {
                    return Err(ScenarioError::at(
                        format!("{lp}.from"),
                        format!("\"{from}\" is not an end of this link"),
                    ));
                }
            }
        }
        for (d, drop) in l.drops.iter().enumerate() {
            let dp = format!("{p}.drops[{d}]");
            if drop.flow as usize >= s.flows.len() {
                return Err(ScenarioError::at(
                    format!("{dp}.flow"),
                    format!(
                        "no flow with index {} (there are {})",
                        drop.flow,
                        s.flows.len()
                    ),
                ));
            }
            if let Some(k) = drop.packets.iter().position(|&k| k == 0) {
                return Err(ScenarioError::at(
                    format!("{dp}.packets[{k}]"),
                    "packet ordinals start at 1",
                ));
            }
            if let Some(from) = &drop.from {
                if from != &l.between[0] && from != &l.between[1] {
                    return Err(ScenarioError::at(
                        format!("{dp}.from"),
                        format!("\"{from}\" is not an end of this link"),
                    ));
                }
            }
        }
    }

    // A wireless node's radio address is assigned, not written
    // (`addresses::wireless_default_addr` of its node index); a link address equal to it
    // gives two interfaces one address, and packets to it are delivered locally (a SYN to
    // itself, 0 goodput) instead of failing.
    for (i, n) in s.node.iter().enumerate().filter(|(_, n)| n.wireless) {
        let auto = super::addresses::wireless_default_addr(i);
        if let Some(field) = addrs.get(&auto) {
            return Err(ScenarioError::at(
                field.clone(),
                format!(
                    "{auto} is also the automatic wireless address of node[{i}] (\"{}\", \
                     node[{i}].wireless = true); choose another address",
                    n.name
                ),
            ));
        }
    }

    super::check_sctp::check_outages(s)?;

    let duration = s.simulation.duration.0;
    let min_mtu = s.link.iter().enumerate().min_by_key(|(_, l)| l.mtu_bytes);
    for (i, f) in s.flows.iter().enumerate() {
        let p = format!("flows[{i}]");
        super::pairs::check(&p, f, s.node.len())?;
        if f.pairs.is_none() {
            if f.src.is_empty() {
                return Err(ScenarioError::at(
                    format!("{p}.src"),
                    "required (or set pairs)",
                ));
            }
            if f.dst.is_empty() {
                return Err(ScenarioError::at(
                    format!("{p}.dst"),
                    "required (or set pairs)",
                ));
            }
            let src = node_ref(format!("{p}.src"), &f.src)?;
            let dst = node_ref(format!("{p}.dst"), &f.dst)?;
            if src == dst {
                return Err(ScenarioError::at(
                    format!("{p}.dst"),
                    "must differ from src",
                ));
            }
        }
        if f.transport == TransportKind::Sctp {
            super::check_sctp::check_sctp_flow(&p, f, s, min_mtu)?;
        } else {
            super::check_sctp::check_not_sctp(&p, f)?;
            if f.transport.is_tcp() {
                check_tcp_flow(&p, f, min_mtu)?;
            } else {
                check_udp_flow(&p, f, min_mtu)?;
            }
        }
        if f.start.0 >= duration {
            return Err(ScenarioError::at(
                format!("{p}.start"),
                "must be before simulation.duration",
            ));
        }
        if let Some(stop) = f.stop {
            if stop.0 <= f.start.0 {
                return Err(ScenarioError::at(
                    format!("{p}.stop"),
                    "must be after start",
                ));
            }
        }
    }
    super::check_wireless::check(s)?;
    check_routing(s)?;
    Ok(())
}

/// Checks the `[routing.*]` settings. Settings of a protocol other than `routing.protocol` are
/// allowed and checked but unused, so that one scenario can sweep `routing.protocol` with each
/// protocol's own settings (the argyriou2004 study sweeps DSR and AODV with their ns-2
/// profiles); with static routing they are refused, since nothing could use them.
fn check_routing(s: &Scenario) -> Result<(), ScenarioError> {
    let Some(r) = &s.routing else {
        return Ok(());
    };
    use crate::routing_protocols::AD_HOC;
    if r.protocol == RoutingKind::Static {
        if let Some(p) = AD_HOC.iter().find(|p| (p.given)(r)) {
            return Err(ScenarioError::at(
                format!("routing.{}", p.name),
                "not used with protocol = \"static\"; set routing.protocol",
            ));
        }
    }
    for p in &AD_HOC {
        (p.check)(r)?;
    }
    if r.protocol == RoutingKind::Static {
        return Ok(());
    }
    if let Some(l) = s.link.first() {
        return Err(ScenarioError::at(
            "routing.protocol",
            format!(
                "\"{}\" runs on wireless-only networks; remove the links (first: {} - {})",
                r.protocol.name(),
                l.between[0],
                l.between[1]
            ),
        ));
    }
    if !super::check_wireless::has_wireless(s) {
        return Err(ScenarioError::at(
            "routing.protocol",
            format!("\"{}\" needs wireless nodes", r.protocol.name()),
        ));
    }
    Ok(())
}

fn check_file_size(p: &str, f: &FlowSpec) -> Result<(), ScenarioError> {
    match (f.app, f.size_bytes) {
        (AppKind::File, None) => Err(ScenarioError::at(
            format!("{p}.size_bytes"),
            "required for app \"file\"",
        )),
        (AppKind::File, Some(0)) => Err(ScenarioError::at(
            format!("{p}.size_bytes"),
            "must be positive",
        )),
        (AppKind::Cbr | AppKind::Ftp, Some(_)) => Err(ScenarioError::at(
            format!("{p}.size_bytes"),
            "only used by app \"file\"",
        )),
        _ => Ok(()),
    }
}

fn check_udp_flow(
    p: &str,
    f: &FlowSpec,
    min_mtu: Option<(usize, &LinkSpec)>,
) -> Result<(), ScenarioError> {
    if f.app == AppKind::Ftp {
        return Err(ScenarioError::at(
            format!("{p}.app"),
            "\"ftp\" needs a reliable transport (tcp-tahoe, tcp-reno, tcp-newreno, tcp-sack, tcp-sack1, sctp); use \"cbr\" or \"file\" over UDP",
        ));
    }
    if f.tcp.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.tcp"),
            "only used by TCP transports",
        ));
    }
    let rate = f
        .rate
        .ok_or_else(|| ScenarioError::at(format!("{p}.rate"), "required for UDP applications"))?;
    if rate.0.bps() == 0 {
        return Err(ScenarioError::at(format!("{p}.rate"), "must be positive"));
    }
    let size = f.udp_packet_size();
    if !(12..=65_507).contains(&size) {
        return Err(ScenarioError::at(
            format!("{p}.packet_size_bytes"),
            "must be between 12 (the sequence/timestamp header) and 65507 (largest UDP payload)",
        ));
    }
    check_file_size(p, f)?;
    // No fragmentation: every link must carry the whole datagram. Links not on the path are
    // checked too, which is stricter than needed but keeps the rule simple to state.
    if let Some((j, l)) = min_mtu {
        if l.mtu_bytes < size + UDP_IP_OVERHEAD {
            return Err(ScenarioError::at(
                format!("{p}.packet_size_bytes"),
                format!("{size} + {UDP_IP_OVERHEAD} header bytes exceed the MTU {} of link[{j}] (no fragmentation)", l.mtu_bytes),
            ));
        }
    }
    Ok(())
}

/// IPv4 (20) + TCP (20) header bytes without options; the connection makes room for its
/// options inside the MSS (RFC 6691 §2).
const TCP_IP_OVERHEAD: u32 = 40;

fn check_tcp_flow(
    p: &str,
    f: &FlowSpec,
    min_mtu: Option<(usize, &LinkSpec)>,
) -> Result<(), ScenarioError> {
    if f.app == AppKind::Cbr {
        return Err(ScenarioError::at(
            format!("{p}.app"),
            "\"cbr\" is a UDP application; over TCP use \"ftp\" (backlogged) or \"file\"",
        ));
    }
    if f.rate.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.rate"),
            "not used by TCP (congestion control sets the rate); remove it",
        ));
    }
    if f.packet_size_bytes.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.packet_size_bytes"),
            "not used by TCP; set tcp.mss_bytes instead",
        ));
    }
    if f.stop.is_some() {
        return Err(ScenarioError::at(
            format!("{p}.stop"),
            "not supported for TCP flows yet: an ftp flow runs to the end, a file flow until its last byte",
        ));
    }
    check_file_size(p, f)?;
    let tcp = f.tcp.clone().unwrap_or_default();
    let tp = format!("{p}.tcp");
    let mss = tcp.mss_bytes.map(u32::from).unwrap_or(match tcp.profile {
        TcpProfileKind::Rfc => 1460,
        TcpProfileKind::Ns2 | TcpProfileKind::Ns2_2003 | TcpProfileKind::Ns2_2001 => 1000,
    });
    if mss < 64 {
        return Err(ScenarioError::at(
            format!("{tp}.mss_bytes"),
            "must be at least 64 (room for options)",
        ));
    }
    if let Some((j, l)) = min_mtu {
        if l.mtu_bytes < mss + TCP_IP_OVERHEAD {
            return Err(ScenarioError::at(
                format!("{tp}.mss_bytes"),
                format!(
                    "{mss} + {TCP_IP_OVERHEAD} header bytes exceed the MTU {} of link[{j}]",
                    l.mtu_bytes
                ),
            ));
        }
    }
    for (field, v) in [
        ("initial_window_segments", tcp.initial_window_segments),
        ("dupthresh", tcp.dupthresh),
    ] {
        if v == Some(0) {
            return Err(ScenarioError::at(
                format!("{tp}.{field}"),
                "must be at least 1",
            ));
        }
    }
    if let Some(b) = tcp.max_sack_blocks {
        if !(1..=4).contains(&b) {
            return Err(ScenarioError::at(
                format!("{tp}.max_sack_blocks"),
                "must be 1–4 (RFC 2018 §3: at most 4 fit in the option space)",
            ));
        }
        if !matches!(
            f.transport,
            TransportKind::TcpSack | TransportKind::TcpSack1
        ) {
            return Err(ScenarioError::at(
                format!("{tp}.max_sack_blocks"),
                "only used by transports \"tcp-sack\" and \"tcp-sack1\"",
            ));
        }
    }
    for (field, v) in [
        ("max_window_bytes", tcp.max_window_bytes),
        ("recv_buffer_bytes", tcp.recv_buffer_bytes),
        ("initial_ssthresh_bytes", tcp.initial_ssthresh_bytes),
    ] {
        if let Some(v) = v {
            if v < mss {
                return Err(ScenarioError::at(
                    format!("{tp}.{field}"),
                    format!("must be at least one segment ({mss} bytes)"),
                ));
            }
        }
    }
    for (field, v) in [
        ("initial_rto", tcp.initial_rto),
        ("min_rto", tcp.min_rto),
        ("max_rto", tcp.max_rto),
        ("delayed_ack_timeout", tcp.delayed_ack_timeout),
    ] {
        if let Some(d) = v {
            if d.0.is_zero() {
                return Err(ScenarioError::at(
                    format!("{tp}.{field}"),
                    "must be positive",
                ));
            }
        }
    }
    if let (Some(lo), Some(hi)) = (tcp.min_rto, tcp.max_rto) {
        if lo.0 > hi.0 {
            return Err(ScenarioError::at(
                format!("{tp}.max_rto"),
                "must not be below min_rto",
            ));
        }
    }
    Ok(())
}
