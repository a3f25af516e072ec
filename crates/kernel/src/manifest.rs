//! The run manifest: what identifies a run and what it cost, written as `run.json`.

use serde::{Deserialize, Serialize};

/// Identity and cost of one run. Everything except `wall_time_s` and `events_per_s` is a pure
/// function of (scenario, seed, code version).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// `sctpsim` version that produced the run.
    pub version: String,
    /// SHA-256 (hex) of the canonical scenario after overrides.
    pub scenario_hash: String,
    /// Root seed of the run's seed tree.
    pub seed: u64,
    /// Simulated time reached, seconds.
    pub sim_time_s: f64,
    /// Events processed.
    pub events: u64,
    /// Wall-clock time of the run, seconds.
    pub wall_time_s: f64,
    /// Whether the run stopped early (Ctrl-C) instead of reaching its configured duration.
    pub interrupted: bool,
}
