//! `flows[i].pairs`: flows between random node pairs, expanded when a run is built (the pairs
//! depend on the run's seed, so the replications of a sweep place their sources differently,
//! as the MANET studies' traffic files do).
//!
//! For a flow spec with `pairs = k`, the random stream `("flow-pairs", i)` draws `k` distinct
//! sources uniformly among the scenario's nodes (in `[[node]]` order: generated nodes come
//! after named ones), then for each a destination uniformly among the other nodes, then a start
//! offset uniform in `[0, start_spread)`. The expanded flows replace the spec in place, in that
//! order, each a copy of the spec with `src`, `dst` and `start` set and `pairs` cleared, so
//! results list them as ordinary flows.
//!
//! `pairs_rule = "cbrgen"` draws them as ns-2's traffic generator did (`indep-utils/cmu-scen-gen/
//! cbrgen.tcl`, unchanged from 1999 to ns-2.35, the generator behind most MANET studies' "random
//! source-destination pairs"): for each node i in order it draws x uniform in [0, 100); x < 50:
//! no flow; otherwise a flow i → i+1, and if x ≥ 75 a second flow i → i+2; it stops at `k`
//! flows. Sources are not distinct (a quarter of the nodes scanned source two flows) and a
//! destination is the next node in order. cbrgen numbers destinations modulo nn + 1, so the
//! last nodes can name node nn, which does not exist; that flow is left out here (ns-2 would
//! fail on it). Each flow then draws its start offset in `[0, start_spread)`, as cbrgen draws
//! `stime` in [0, 180) s.

use super::{FlowSpec, Scenario, ScenarioError};
use sctpsim_kernel::{SeedTree, SimDuration, StreamKey};

/// Checks a `pairs` flow (`p` is its field path): at least one pair, no more than the nodes
/// can source, no `src`/`dst` beside it.
pub fn check(p: &str, f: &FlowSpec, nodes: usize) -> Result<(), ScenarioError> {
    let Some(k) = f.pairs else {
        for (set, field) in [
            (f.start_spread.is_some(), "start_spread"),
            (f.pairs_rule.is_some(), "pairs_rule"),
        ] {
            if set {
                return Err(ScenarioError::at(
                    format!("{p}.{field}"),
                    "only used with pairs",
                ));
            }
        }
        return Ok(());
    };
    let rule = rule_of(p, f)?;
    if !f.src.is_empty() || !f.dst.is_empty() {
        let field = if f.src.is_empty() { "dst" } else { "src" };
        return Err(ScenarioError::at(
            format!("{p}.{field}"),
            "not allowed with pairs (the pairs are drawn at random)",
        ));
    }
    if k == 0 {
        return Err(ScenarioError::at(
            format!("{p}.pairs"),
            "must be at least 1",
        ));
    }
    // Two conditions, two messages: a pair needs a source and another node as destination
    // (so at least two nodes whatever `k`), and the `k` sources are distinct (so at most one
    // pair per node).
    if nodes < 2 {
        let has = if nodes == 0 {
            "no nodes"
        } else {
            "only 1 node"
        };
        return Err(ScenarioError::at(
            format!("{p}.pairs"),
            format!(
                "a pair needs two nodes (a source and a destination), and the scenario has {has}"
            ),
        ));
    }
    if rule == PairsRule::DistinctSources && k as usize > nodes {
        // Here k > nodes >= 2: both plural.
        return Err(ScenarioError::at(
            format!("{p}.pairs"),
            format!(
                "{k} pairs need {k} distinct sources, and there are only {nodes} nodes \
                 (at most {nodes} pairs)"
            ),
        ));
    }
    Ok(())
}

/// How `pairs` are drawn (`flows[i].pairs_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairsRule {
    /// `k` distinct sources, each with a destination among the other nodes.
    DistinctSources,
    /// ns-2's `cbrgen.tcl` (module documentation).
    Cbrgen,
}

/// The rule of flow spec `f` (field path `p`); an unknown name is an error naming the field.
fn rule_of(p: &str, f: &FlowSpec) -> Result<PairsRule, ScenarioError> {
    match f.pairs_rule.as_deref() {
        None | Some("distinct-sources") => Ok(PairsRule::DistinctSources),
        Some("cbrgen") => Ok(PairsRule::Cbrgen),
        Some(other) => Err(ScenarioError::at(
            format!("{p}.pairs_rule"),
            format!("unknown rule {other:?}: expected \"distinct-sources\" or \"cbrgen\""),
        )),
    }
}

/// ns-2 `cbrgen.tcl`'s pairs over `n` nodes (indices), at most `k`: (source, destination).
fn cbrgen_pairs(rng: &mut sctpsim_kernel::Rng, n: u64, k: u32) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for i in 0..n {
        if out.len() >= k as usize {
            break;
        }
        // `set x [$u value]` uniform in [0, 100): the thresholds 50 and 75 split it in
        // quarters, so a draw of one quarter decides the same.
        let quarter = rng.below(4);
        if quarter < 2 {
            continue;
        }
        for step in 1..=if quarter == 3 { 2 } else { 1 } {
            if out.len() >= k as usize {
                break;
            }
            // `($i+step) % ($opt(nn) + 1)`: node nn does not exist (left out, see above).
            let dst = (i + step) % (n + 1);
            if dst < n {
                out.push((i, dst));
            }
        }
    }
    out
}

/// Replaces every `pairs` flow of `s` by its expansion under root seed `seed`.
pub fn expand(s: &mut Scenario, seed: u64) {
    if s.flows.iter().all(|f| f.pairs.is_none()) {
        return;
    }
    let seeds = SeedTree::new(seed);
    let names: Vec<String> = s.node.iter().map(|n| n.name.clone()).collect();
    let n = names.len() as u64;
    let mut out = Vec::with_capacity(s.flows.len());
    for (i, f) in s.flows.iter().enumerate() {
        let Some(k) = f.pairs else {
            out.push(f.clone());
            continue;
        };
        let mut rng = seeds.stream(&StreamKey::new("flow-pairs").with(i as u64));
        let spread = f.start_spread.map_or(0, |d| d.0 .0);
        // `check` has refused an unknown rule; one that slipped through draws as the default.
        let rule = rule_of("", f).unwrap_or(PairsRule::DistinctSources);
        let pairs: Vec<(u64, Option<u64>)> = if rule == PairsRule::Cbrgen {
            cbrgen_pairs(&mut rng, n, k)
                .into_iter()
                .map(|(s, d)| (s, Some(d)))
                .collect()
        } else {
            // Partial Fisher–Yates: the first k entries become the sources.
            let mut order: Vec<u64> = (0..n).collect();
            for j in 0..(k as u64).min(n) {
                let r = j + rng.below(n - j);
                order.swap(j as usize, r as usize);
            }
            order.iter().take(k as usize).map(|&s| (s, None)).collect()
        };
        for (src, dst) in pairs {
            // Uniform among the n - 1 other nodes (distinct-sources: drawn here, after the
            // sources, in the order the stream always drew them).
            let dst = dst.unwrap_or_else(|| {
                let mut dst = rng.below(n.saturating_sub(1).max(1));
                if dst >= src {
                    dst += 1;
                }
                dst
            });
            let offset = if spread > 0 { rng.below(spread) } else { 0 };
            let mut g = f.clone();
            g.pairs = None;
            g.pairs_rule = None;
            g.start_spread = None;
            g.src = names[src as usize].clone();
            g.dst = names[dst.min(n - 1) as usize].clone();
            g.start.0 = g.start.0 + SimDuration(offset);
            out.push(g);
        }
    }
    s.flows = out;
}
