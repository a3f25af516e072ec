//! The wireless part of loading a scenario: expanding `[nodes]` into named nodes and
//! `src = "*"` flows into one flow per wireless node ([`expand`], before the checks), and the
//! semantic checks of `[radio]`, `[mobility]` and the wireless node fields ([`check`]).

use super::error::ScenarioError;
use super::mobility::build_motion;
use super::radio::RadioParams;
use super::schema::*;
use sctpsim_kernel::SeedTree;
use std::collections::BTreeMap;

/// Most nodes `[nodes]` may generate (memory guard; ten times the largest benchmark).
pub const MAX_GENERATED_NODES: u32 = 100_000;

/// The largest IPv4 packet a wireless interface carries: the 802.11 maximum MSDU of 2304
/// octets (IEEE 802.11-2020 §9.2.4.7, non-QoS) minus the 8-octet LLC/SNAP header.
pub const WIRELESS_MAX_IP_BYTES: u32 = 2296;

/// IPv4 + UDP headers.
const UDP_IP_OVERHEAD: u32 = 28;
/// IPv4 + TCP headers without options.
const TCP_IP_OVERHEAD: u32 = 40;

/// Adds the nodes of `[nodes]` (wireless, after the `[[node]]` entries) and replaces every flow
/// with `src = "*"` by one flow from each other wireless node to its `dst`, in node order.
pub fn expand(s: &mut Scenario) -> Result<(), ScenarioError> {
    if let Some(n) = &s.nodes {
        if n.count == 0 {
            return Err(ScenarioError::at("nodes.count", "must be at least 1"));
        }
        if n.count > MAX_GENERATED_NODES {
            return Err(ScenarioError::at(
                "nodes.count",
                format!("at most {MAX_GENERATED_NODES}"),
            ));
        }
        if n.prefix.trim().is_empty() || n.prefix == "*" {
            return Err(ScenarioError::at(
                "nodes.prefix",
                "must be a non-empty name prefix",
            ));
        }
        let existing: BTreeMap<String, usize> = s
            .node
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.clone(), i))
            .collect();
        let (count, prefix) = (n.count, n.prefix.clone());
        for i in 0..count {
            let name = format!("{prefix}{i}");
            if let Some(j) = existing.get(&name) {
                return Err(ScenarioError::at(
                    "nodes.prefix",
                    format!("generated name \"{name}\" is also node[{j}].name"),
                ));
            }
            s.node.push(NodeSpec {
                name,
                wireless: true,
                position_m: None,
                wifi: None,
                mobile_ip: None,
                cellular: None,
            });
        }
    }
    if s.flows.iter().any(|f| f.src == "*") {
        let wireless: Vec<String> = s
            .node
            .iter()
            .filter(|n| n.wireless)
            .map(|n| n.name.clone())
            .collect();
        let mut flows = Vec::with_capacity(s.flows.len());
        for (i, f) in s.flows.iter().enumerate() {
            if f.src != "*" {
                flows.push(f.clone());
                continue;
            }
            let before = flows.len();
            for name in wireless.iter().filter(|n| **n != f.dst) {
                let mut g = f.clone();
                g.src = name.clone();
                flows.push(g);
            }
            if flows.len() == before {
                return Err(ScenarioError::at(
                    format!("flows[{i}].src"),
                    "\"*\" (every wireless node but dst) matches no node",
                ));
            }
        }
        s.flows = flows;
    }
    Ok(())
}

/// Whether the scenario has wireless nodes.
pub fn has_wireless(s: &Scenario) -> bool {
    s.node.iter().any(|n| n.wireless)
}

/// Checks `[radio]`, `[mobility]`, the wireless node fields and packet sizes over wireless
/// interfaces.
pub fn check(s: &Scenario) -> Result<(), ScenarioError> {
    for (i, n) in s.node.iter().enumerate() {
        if n.position_m.is_some() && !n.wireless {
            return Err(ScenarioError::at(
                format!("node[{i}].position_m"),
                "only for wireless nodes (add wireless = true)",
            ));
        }
    }
    super::route_layers::check_route_layers(s)?;
    super::schema_infra::check_infra(s)?;
    super::schema_mobileip::check_mobile_ip(s)?;
    super::schema_cellular::check_cellular(s)?;
    if !has_wireless(s) {
        if s.simulation.trace_positions {
            return Err(ScenarioError::at(
                "simulation.trace_positions",
                "no wireless node has a position to trace",
            ));
        }
        if s.radio.is_some() {
            return Err(ScenarioError::at(
                "radio",
                "no wireless node uses it (add [nodes] or [[node]] entries with wireless = true)",
            ));
        }
        if s.mobility.is_some() {
            return Err(ScenarioError::at(
                "mobility",
                "no wireless node uses it (add [nodes] or [[node]] entries with wireless = true)",
            ));
        }
        if s.beacons.is_some() {
            return Err(ScenarioError::at(
                "beacons",
                "no wireless node sends them (add [nodes] or [[node]] entries with wireless = true)",
            ));
        }
        return Ok(());
    }
    if let Some(b) = &s.beacons {
        check_beacons(b)?;
    }
    let radio = s.radio.clone().unwrap_or_default();
    RadioParams::from_spec(&radio)?;
    let motion = build_motion(s, &SeedTree::new(s.simulation.seed))?;
    if !motion.iter().any(|(k, _)| s.node[*k].position_m.is_none()) && s.mobility.is_some() {
        return Err(ScenarioError::at(
            "mobility",
            "every wireless node has position_m: no node follows [mobility]",
        ));
    }
    for (i, f) in s.flows.iter().enumerate() {
        let p = format!("flows[{i}]");
        if f.transport.is_tcp() {
            let mss = f
                .tcp
                .as_ref()
                .and_then(|t| t.mss_bytes.map(u32::from))
                .unwrap_or(0);
            if mss + TCP_IP_OVERHEAD > WIRELESS_MAX_IP_BYTES {
                return Err(ScenarioError::at(
                    format!("{p}.tcp.mss_bytes"),
                    format!("{mss} + {TCP_IP_OVERHEAD} header bytes exceed the {WIRELESS_MAX_IP_BYTES}-byte IP packets an 802.11 frame carries"),
                ));
            }
        } else if f.transport == TransportKind::Udp
            && f.udp_packet_size() + UDP_IP_OVERHEAD > WIRELESS_MAX_IP_BYTES
        {
            return Err(ScenarioError::at(
                format!("{p}.packet_size_bytes"),
                format!(
                    "{} + {UDP_IP_OVERHEAD} header bytes exceed the {WIRELESS_MAX_IP_BYTES}-byte IP packets an 802.11 frame carries (no fragmentation)",
                    f.udp_packet_size()
                ),
            ));
        }
    }
    Ok(())
}

fn check_beacons(b: &BeaconsSpec) -> Result<(), ScenarioError> {
    if b.interval.min.0.is_zero() {
        return Err(ScenarioError::at(
            "beacons.interval.min",
            "must be positive",
        ));
    }
    if b.interval.min > b.interval.max {
        return Err(ScenarioError::at(
            "beacons.interval.max",
            format!(
                "{} is below interval.min {}",
                b.interval.max.0, b.interval.min.0
            ),
        ));
    }
    if b.payload_bytes + UDP_IP_OVERHEAD > WIRELESS_MAX_IP_BYTES {
        return Err(ScenarioError::at(
            "beacons.payload_bytes",
            format!(
                "{} + {UDP_IP_OVERHEAD} header bytes exceed the {WIRELESS_MAX_IP_BYTES}-byte IP packets an 802.11 frame carries",
                b.payload_bytes
            ),
        ));
    }
    if b.port == 0 {
        return Err(ScenarioError::at("beacons.port", "must not be 0"));
    }
    if let Some(stop) = b.stop {
        if stop <= b.start {
            return Err(ScenarioError::at(
                "beacons.stop",
                "must be after beacons.start",
            ));
        }
    }
    Ok(())
}
