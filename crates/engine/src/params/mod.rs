//! `sctpsim show`: every parameter a run uses, after the profiles (`radio.profile`,
//! `flows[i].tcp.profile`, `flows[i].sctp.profile`), the scenario file and the overrides
//! (ns-3's `--PrintAttributes`, OMNeT++'s recorded parameters).
//!
//! The values come from the functions that build the simulation — `RadioParams::from_spec`,
//! `tcp_config`, `sctp_config`, the routing configurations, `mac_role`, `LossProcess::from_spec`
//! — so what is shown is what runs, and a new default in a model shows up here without a
//! second copy of it. One [`ParamRow`] per parameter:
//!
//! * `path`: the field path (`radio.data_rate`, `flows[0].tcp.min_rto`), the one `--set` takes;
//! * `value`: the effective value in `unit` (durations in s, rates in bit/s, powers in W);
//!   `null` where the model decides at run time (an initial TCP window by RFC 5681's formula,
//!   "every address", "the end of the run"), as `docs/scenario.md` describes for the field;
//! * `default`: the value when the scenario does not set this field — the profile's value for
//!   profiled fields (with the scenario's profile and model choices), else the schema's default
//!   (`null` for a required field);
//! * `source`: where the value came from — `default`, `profile <name>` (a radio, TCP or SCTP
//!   profile), `scenario` (the file), `--set` (an override: `--set`, `--vary`,
//!   `Scenario.with_`), `--seed` (`simulation.seed` replaced by the run's seed).
//!
//! Only the parameters that apply are listed: the fields of the chosen models (a log-distance
//! exponent only with log-distance propagation, TCP knobs only on TCP flows), the wireless
//! sections only with wireless nodes, `[[node]]` entries as written (the nodes of `[nodes]`
//! are `nodes.count` and `nodes.prefix`).

mod flows;
mod wireless;

#[cfg(test)]
mod test;

use crate::loss::LossProcess;
use crate::scenario::{
    self, overrides, FlowSpec, LoadedScenario, LossSpec, Scenario, ScenarioError,
};
use sctpsim_kernel::Rng;
use serde::Serialize;
use serde_json::Value;
use toml::Table;

/// Source of a value the schema or a model supplies.
pub const SOURCE_DEFAULT: &str = "default";
/// Source of a value written in the scenario file.
pub const SOURCE_SCENARIO: &str = "scenario";
/// Source of a value set by an override (`--set`, `--vary`, `Scenario.with_`).
pub const SOURCE_SET: &str = "--set";
/// Source of `simulation.seed` when the run's seed replaces it.
pub const SOURCE_SEED: &str = "--seed";

/// One effective parameter (module documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamRow {
    /// Field path, as `--set` takes it.
    pub path: String,
    /// Effective value in `unit`; `null` where the model decides at run time.
    pub value: Value,
    /// Unit of `value` and `default` (`s`, `bit/s`, `W`, `bytes`, ...; empty for none).
    pub unit: &'static str,
    /// The value when the scenario does not set this field.
    pub default: Value,
    /// Where `value` came from.
    pub source: String,
}

/// The effective parameters of scenario `text` after `overrides` (in order), with the run's
/// `seed` if it replaces `simulation.seed`. Errors are the scenario's (the same as `load`).
pub fn resolved_parameters(
    text: &str,
    overrides: &[(String, toml::Value)],
    seed: Option<u64>,
) -> Result<Vec<ParamRow>, ScenarioError> {
    let loaded = scenario::load(text, overrides)?;
    let paths: Vec<&str> = overrides.iter().map(|(p, _)| p.as_str()).collect();
    Ok(parameters_of(&loaded, &paths, seed))
}

/// [`resolved_parameters`] of a loaded scenario; `overridden` are the override paths.
pub fn parameters_of(
    loaded: &LoadedScenario,
    overridden: &[&str],
    seed: Option<u64>,
) -> Vec<ParamRow> {
    let mut rows = Rows {
        table: &loaded.table,
        overridden,
        out: Vec::new(),
    };
    let s = &loaded.spec;
    simulation(&mut rows, s, seed);
    nodes(&mut rows, s);
    links(&mut rows, s);
    wireless::rows(&mut rows, s);
    flows::rows(&mut rows, s, &written_flows(loaded));
    rows.out
}

/// The `[[flows]]` entries as written: loading replaces a `src = "*"` flow by one flow per
/// wireless node (`check_wireless::expand`), and its rows are those of the entry.
fn written_flows(loaded: &LoadedScenario) -> Vec<FlowSpec> {
    match loaded.table.get("flows") {
        Some(v) => v
            .clone()
            .try_into()
            .unwrap_or_else(|_| loaded.spec.flows.clone()),
        None => Vec::new(),
    }
}

/// Collects rows and decides their sources.
pub(crate) struct Rows<'a> {
    /// The scenario tree after overrides: a field present in it was set by the file or an
    /// override.
    table: &'a Table,
    /// Override paths; a field inside one of them came from the override.
    overridden: &'a [&'a str],
    out: Vec<ParamRow>,
}

impl Rows<'_> {
    /// Where the value at `path` came from: `fallback` (`default` or `profile <name>`) unless
    /// the scenario tree has the field.
    fn source(&self, path: &str, fallback: &str) -> String {
        if overrides::lookup(self.table, path).is_none() {
            return fallback.to_string();
        }
        if self
            .overridden
            .iter()
            .any(|o| overrides::path_within(o, path))
        {
            SOURCE_SET.to_string()
        } else {
            SOURCE_SCENARIO.to_string()
        }
    }

    /// Adds the row of `path` whose value the scenario gives through the field at `given_as`
    /// (an older name of the same setting): its source is that field's.
    pub(crate) fn add_given_as(
        &mut self,
        path: impl Into<String>,
        given_as: &str,
        value: impl Into<Value>,
        default: impl Into<Value>,
        unit: &'static str,
        fallback: &str,
    ) {
        let source = self.source(given_as, fallback);
        self.push(path.into(), source, value.into(), default.into(), unit);
    }

    /// Adds the row of `path`; its source is `fallback` unless the scenario sets the field.
    pub(crate) fn add(
        &mut self,
        path: impl Into<String>,
        value: impl Into<Value>,
        default: impl Into<Value>,
        unit: &'static str,
        fallback: &str,
    ) {
        let path = path.into();
        let source = self.source(&path, fallback);
        self.push(path, source, value.into(), default.into(), unit);
    }

    fn push(
        &mut self,
        path: String,
        source: String,
        value: Value,
        default: Value,
        unit: &'static str,
    ) {
        self.out.push(ParamRow {
            path,
            value,
            unit,
            default,
            source,
        });
    }
}

pub(crate) use crate::describe::{opt, secs};

/// An optional duration in seconds (`null` when absent).
pub(crate) fn opt_secs(d: Option<scenario::Duration>) -> Value {
    d.map_or(Value::Null, |d| secs(d.0))
}

/// The scenario name of an enum value (its serde name), or a debug rendering if it has none.
pub(crate) fn name<T: Serialize + std::fmt::Debug>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or_else(|_| Value::from(format!("{v:?}")))
}

fn simulation(rows: &mut Rows<'_>, s: &Scenario, seed: Option<u64>) {
    let sim = &s.simulation;
    let d = SOURCE_DEFAULT;
    rows.add(
        "simulation.duration",
        secs(sim.duration.0),
        Value::Null,
        "s",
        d,
    );
    rows.add(
        "simulation.seed",
        seed.unwrap_or(sim.seed),
        scenario::schema::default_seed(),
        "",
        d,
    );
    if seed.is_some() {
        if let Some(last) = rows.out.last_mut() {
            last.source = SOURCE_SEED.to_string();
        }
    }
    rows.add(
        "simulation.sample_interval",
        secs(sim.sample_interval.0),
        secs(scenario::schema::default_sample_interval().0),
        "s",
        d,
    );
    rows.add(
        "simulation.trace_positions",
        sim.trace_positions,
        false,
        "",
        d,
    );
    rows.add("simulation.name", opt(sim.name.clone()), Value::Null, "", d);
    rows.add(
        "simulation.description",
        opt(sim.description.clone()),
        Value::Null,
        "",
        d,
    );
}

/// The `[[node]]` entries as written (`check_wireless::expand` appends the nodes of `[nodes]`
/// after them).
fn named_nodes(s: &Scenario) -> usize {
    let generated = s.nodes.as_ref().map_or(0, |n| n.count as usize);
    s.node.len().saturating_sub(generated)
}

fn nodes(rows: &mut Rows<'_>, s: &Scenario) {
    let d = SOURCE_DEFAULT;
    for (i, n) in s.node.iter().take(named_nodes(s)).enumerate() {
        let p = format!("node[{i}]");
        rows.add(format!("{p}.name"), n.name.clone(), Value::Null, "", d);
        rows.add(format!("{p}.wireless"), n.wireless, false, "", d);
        if n.wireless {
            wireless::node_rows(rows, s, i, &p);
        }
    }
}

fn links(rows: &mut Rows<'_>, s: &Scenario) {
    let d = SOURCE_DEFAULT;
    for (k, l) in s.link.iter().enumerate() {
        let p = format!("link[{k}]");
        rows.add(
            format!("{p}.between"),
            Value::from(l.between.to_vec()),
            Value::Null,
            "",
            d,
        );
        rows.add(
            format!("{p}.bandwidth"),
            l.bandwidth.0.bps(),
            Value::Null,
            "bit/s",
            d,
        );
        rows.add(format!("{p}.delay"), secs(l.delay.0), Value::Null, "s", d);
        rows.add(
            format!("{p}.queue_limit_packets"),
            l.queue_limit_packets,
            scenario::schema::default_queue_limit(),
            "packets",
            d,
        );
        rows.add(
            format!("{p}.mtu_bytes"),
            l.mtu_bytes,
            scenario::schema::default_mtu(),
            "bytes",
            d,
        );
        let default_addrs: Vec<String> = (0..2)
            .map(|end| scenario::addresses::link_default_addr(k, end).to_string())
            .collect();
        let addrs = l.addresses.map_or_else(
            || default_addrs.clone(),
            |a| a.iter().map(|x| x.to_string()).collect(),
        );
        rows.add(format!("{p}.addresses"), addrs, default_addrs, "", d);
        loss_rows(rows, &p, l.loss.as_ref());
        for (j, drop) in l.drops.iter().enumerate() {
            let q = format!("{p}.drops[{j}]");
            rows.add(format!("{q}.flow"), drop.flow, Value::Null, "", d);
            rows.add(
                format!("{q}.packets"),
                drop.packets.clone(),
                Value::Null,
                "",
                d,
            );
            rows.add(
                format!("{q}.from"),
                opt(drop.from.clone()),
                Value::Null,
                "",
                d,
            );
        }
        for (j, o) in l.outages.iter().enumerate() {
            let q = format!("{p}.outages[{j}]");
            rows.add(format!("{q}.start"), secs(o.start.0), Value::Null, "s", d);
            rows.add(format!("{q}.end"), secs(o.end.0), Value::Null, "s", d);
            rows.add(format!("{q}.from"), opt(o.from.clone()), Value::Null, "", d);
        }
    }
}

/// `link[k].loss`: the model and the parameters the engine's loss process uses.
fn loss_rows(rows: &mut Rows<'_>, p: &str, loss: Option<&LossSpec>) {
    let d = SOURCE_DEFAULT;
    let Some(spec) = loss else {
        rows.add(format!("{p}.loss.model"), "none", "none", "", d);
        return;
    };
    rows.add(format!("{p}.loss.model"), name(&spec.model), "none", "", d);
    match LossProcess::from_spec(spec, Rng::from_seed(0)) {
        LossProcess::None => {}
        LossProcess::Bernoulli { p: prob, .. } => {
            rows.add(format!("{p}.loss.p"), prob, Value::Null, "", d);
        }
        LossProcess::GilbertElliott {
            p_gb,
            p_bg,
            loss_good,
            loss_bad,
            ..
        } => {
            // What an absent field turns into (only the two state losses may be absent).
            let dflt = match LossProcess::from_spec(
                &LossSpec {
                    loss_good: None,
                    loss_bad: None,
                    ..spec.clone()
                },
                Rng::from_seed(0),
            ) {
                LossProcess::GilbertElliott {
                    loss_good,
                    loss_bad,
                    ..
                } => (Value::from(loss_good), Value::from(loss_bad)),
                _ => (Value::Null, Value::Null),
            };
            rows.add(format!("{p}.loss.p_good_to_bad"), p_gb, Value::Null, "", d);
            rows.add(format!("{p}.loss.p_bad_to_good"), p_bg, Value::Null, "", d);
            rows.add(format!("{p}.loss.loss_good"), loss_good, dflt.0, "", d);
            rows.add(format!("{p}.loss.loss_bad"), loss_bad, dflt.1, "", d);
        }
    }
    rows.add(
        format!("{p}.loss.from"),
        opt(spec.from.clone()),
        Value::Null,
        "",
        d,
    );
}
