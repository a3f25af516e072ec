//! What a run produces: the summary (`summary.json`), per-flow rows (`flows.parquet`), per-link
//! rows, the time series (`timeseries.parquet`) and the manifest (`run.json`). Column names and
//! units are documented in `docs/metrics.md`.

use sctpsim_kernel::RunManifest;
use serde::Serialize;

/// One flow's results. Units: bytes, packets, bit/s, seconds; fractions in [0, 1].
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowResult {
    /// Flow index in the scenario.
    pub id: u32,
    /// Transport (`udp`, ...).
    pub transport: String,
    /// Application (`cbr`, `file`).
    pub app: String,
    /// Source node name.
    pub src: String,
    /// Destination node name.
    pub dst: String,
    /// Application payload bytes handed to the transport.
    pub bytes_sent: u64,
    /// Application payload bytes delivered to the sink.
    pub bytes_delivered: u64,
    /// `bytes_delivered · 8 / active time`, where the active time runs from the flow's start to
    /// its stop (or the end of the run).
    pub goodput_bps: f64,
    /// Packets handed to the transport.
    pub packets_sent: u64,
    /// Packets delivered to the sink.
    pub packets_delivered: u64,
    /// `packets_delivered / packets_sent` (0 if nothing was sent).
    pub delivered_fraction: f64,
    /// Transport retransmissions (0 for UDP).
    pub retransmissions: u64,
    /// Fast retransmissions (0 for UDP).
    pub fast_retransmits: u64,
    /// Retransmission timeouts (0 for UDP).
    pub timeouts: u64,
    /// Mean transport RTT sample, s (`null` for UDP: no RTT is measured).
    pub mean_rtt_s: Option<f64>,
    /// Mean one-way delay of delivered packets, s (`null` if none arrived).
    pub mean_delay_s: Option<f64>,
    /// Packets that arrived after a higher sequence number.
    pub reordered: u64,
}

/// One direction of a link.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkResult {
    /// Link index in the scenario.
    pub id: u32,
    /// `fwd` (`between[0]` → `between[1]`) or `rev`.
    pub dir: String,
    /// Sending node.
    pub from: String,
    /// Receiving node.
    pub to: String,
    /// Packets transmitted.
    pub tx_packets: u64,
    /// Bytes transmitted (IP packets).
    pub tx_bytes: u64,
    /// Packets refused by the full drop-tail queue.
    pub queue_drops: u64,
    /// Packets lost by the loss model.
    pub loss_drops: u64,
    /// Packets removed by scripted drops.
    pub scripted_drops: u64,
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
}

/// Network-wide figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NetworkResult {
    /// Packet delivery fraction over all flows.
    pub pdf: f64,
    /// Routing control packets sent (0 with static routing).
    pub routing_packets: u64,
    /// Routing control bytes sent (0 with static routing).
    pub routing_bytes: u64,
    /// MAC-layer drops (0 on point-to-point links).
    pub mac_drops: u64,
    /// Drop-tail queue drops on all links.
    pub queue_drops: u64,
    /// Loss-model drops on all links.
    pub loss_drops: u64,
    /// Scripted drops on all links.
    pub scripted_drops: u64,
    /// Packets dropped because the TTL expired.
    pub ttl_drops: u64,
    /// Packets dropped for lack of a route.
    pub no_route_drops: u64,
    /// Packets dropped with a bad header or checksum.
    pub malformed_drops: u64,
    /// ICMP messages sent.
    pub icmp_sent: u64,
}

/// `summary.json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Scenario name, if it has one.
    pub name: Option<String>,
    /// Root seed.
    pub seed: u64,
    /// Simulated time reached, s.
    pub sim_time_s: f64,
    /// Wall-clock time, s (the only field that differs between identical runs).
    pub wall_time_s: f64,
    /// Events processed.
    pub events: u64,
    /// Whether the run was stopped early.
    pub interrupted: bool,
    /// Per-flow results.
    pub flows: Vec<FlowResult>,
    /// Per-link-direction results.
    pub links: Vec<LinkResult>,
    /// Network-wide results.
    pub network: NetworkResult,
}

/// The time series in long ("tidy") form: one row per (time, scope, id, dir, metric).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeSeries {
    /// Sample time, s.
    pub time_s: Vec<f64>,
    /// `flow` or `link`.
    pub scope: Vec<&'static str>,
    /// Flow or link index.
    pub id: Vec<u32>,
    /// Link direction (`fwd`/`rev`), empty for flows.
    pub dir: Vec<&'static str>,
    /// Metric name (`goodput_bps`, `bytes_delivered`, `queue_packets`, `throughput_bps`).
    pub metric: Vec<&'static str>,
    /// Value in the metric's unit.
    pub value: Vec<f64>,
}

impl TimeSeries {
    /// Append one row.
    pub fn push(
        &mut self,
        t: f64,
        scope: &'static str,
        id: u32,
        dir: &'static str,
        metric: &'static str,
        value: f64,
    ) {
        self.time_s.push(t);
        self.scope.push(scope);
        self.id.push(id);
        self.dir.push(dir);
        self.metric.push(metric);
        self.value.push(value);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.time_s.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.time_s.is_empty()
    }
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// `summary.json`.
    pub summary: Summary,
    /// `timeseries.parquet`.
    pub timeseries: TimeSeries,
    /// `run.json`.
    pub manifest: RunManifest,
    /// Capture files written.
    pub pcap_files: Vec<std::path::PathBuf>,
}
