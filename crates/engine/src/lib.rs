//! sctpsim-engine: composes the sans-IO protocols of `sctpsim-proto` and the models of
//! `sctpsim-world` into a running network — nodes, interfaces, links, the driving loop,
//! metrics, captures — and turns a scenario file into a simulation.

pub mod capture;
pub mod describe;
pub mod drop;
pub mod link;
pub mod loss;
pub mod packet;
pub mod params;
pub mod results;
pub mod results_sctp;
pub mod routing_protocols;
pub mod scenario;
pub mod sim;
pub mod topology;
pub mod trace;
pub mod wireless;

pub use results::{RunResult, Summary, TimeSeries};
pub use scenario::{load, LoadedScenario, ScenarioError};
pub use sim::{run_scenario, Progress, RunOptions, SimError, Simulation};
