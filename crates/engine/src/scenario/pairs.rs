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

use super::{FlowSpec, Scenario, ScenarioError};
use sctpsim_kernel::{SeedTree, SimDuration, StreamKey};

/// Checks a `pairs` flow (`p` is its field path): at least one pair, no more than the nodes
/// can source, no `src`/`dst` beside it.
pub fn check(p: &str, f: &FlowSpec, nodes: usize) -> Result<(), ScenarioError> {
    let Some(k) = f.pairs else {
        if f.start_spread.is_some() {
            return Err(ScenarioError::at(
                format!("{p}.start_spread"),
                "only used with pairs",
            ));
        }
        return Ok(());
    };
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
    if k as usize > nodes {
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
        // Partial Fisher–Yates: the first k entries become the sources.
        let mut order: Vec<u64> = (0..n).collect();
        for j in 0..(k as u64).min(n) {
            let r = j + rng.below(n - j);
            order.swap(j as usize, r as usize);
        }
        let spread = f.start_spread.map_or(0, |d| d.0 .0);
        for &src in order.iter().take(k as usize) {
            // Uniform among the n - 1 other nodes.
            let mut dst = rng.below(n.saturating_sub(1).max(1));
            if dst >= src {
                dst += 1;
            }
            let offset = if spread > 0 { rng.below(spread) } else { 0 };
            let mut g = f.clone();
            g.pairs = None;
            g.start_spread = None;
            g.src = names[src as usize].clone();
            g.dst = names[dst.min(n - 1) as usize].clone();
            g.start.0 = g.start.0 + SimDuration(offset);
            out.push(g);
        }
    }
    s.flows = out;
}
