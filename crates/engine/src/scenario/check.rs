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

    let duration = s.simulation.duration.0;
    for (i, f) in s.flows.iter().enumerate() {
        let p = format!("flows[{i}]");
        let src = node_ref(format!("{p}.src"), &f.src)?;
        let dst = node_ref(format!("{p}.dst"), &f.dst)?;
        if src == dst {
            return Err(ScenarioError::at(
                format!("{p}.dst"),
                "must differ from src",
            ));
        }
        let rate = f.rate.ok_or_else(|| {
            ScenarioError::at(format!("{p}.rate"), "required for UDP applications")
        })?;
        if rate.0.bps() == 0 {
            return Err(ScenarioError::at(format!("{p}.rate"), "must be positive"));
        }
        if f.packet_size_bytes < 12 || f.packet_size_bytes > 65_507 {
            return Err(ScenarioError::at(
                format!("{p}.packet_size_bytes"),
                "must be between 12 (the sequence/timestamp header) and 65507 (largest UDP payload)",
            ));
        }
        match f.app {
            AppKind::File => match f.size_bytes {
                None => {
                    return Err(ScenarioError::at(
                        format!("{p}.size_bytes"),
                        "required for app \"file\"",
                    ))
                }
                Some(0) => {
                    return Err(ScenarioError::at(
                        format!("{p}.size_bytes"),
                        "must be positive",
                    ))
                }
                Some(_) => {}
            },
            AppKind::Cbr => {
                if f.size_bytes.is_some() {
                    return Err(ScenarioError::at(
                        format!("{p}.size_bytes"),
                        "only used by app \"file\"",
                    ));
                }
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
        // No fragmentation: every link must carry the whole datagram. Links not on the path are
        // checked too, which is stricter than needed but keeps the rule simple to state.
        let ip_len = f.packet_size_bytes + UDP_IP_OVERHEAD;
        if let Some((j, l)) = s
            .link
            .iter()
            .enumerate()
            .find(|(_, l)| l.mtu_bytes < ip_len)
        {
            return Err(ScenarioError::at(
                format!("{p}.packet_size_bytes"),
                format!("{} + {UDP_IP_OVERHEAD} header bytes exceed the MTU {} of link[{j}] (no fragmentation)", f.packet_size_bytes, l.mtu_bytes),
            ));
        }
    }
    Ok(())
}
