//! The scenario schema: the one source of truth for what a scenario file may contain
//! (DESIGN.md §1.8). Every struct denies unknown fields; defaults sit next to their field with
//! their source. `docs/scenario.md` documents each field; keep the two in step.

use super::quantity::{Duration, Rate};
pub use super::schema_cellular::*;
pub use super::schema_infra::*;
pub use super::schema_mobileip::*;
pub use super::schema_routing::*;
pub use super::schema_sctp::*;
pub use super::schema_wireless::*;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;

/// A whole scenario file.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Run control: duration, seed, sampling.
    pub simulation: SimulationSpec,
    /// Named nodes (wired and mixed topologies).
    #[serde(default)]
    pub node: Vec<NodeSpec>,
    /// Point-to-point links between named nodes.
    #[serde(default)]
    pub link: Vec<LinkSpec>,
    /// Traffic flows.
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    /// `[radio]`: the radio of every wireless interface (`schema_wireless.rs`).
    #[serde(default)]
    pub radio: Option<RadioSpec>,
    /// `[nodes]`: generated wireless nodes.
    #[serde(default)]
    pub nodes: Option<NodesSpec>,
    /// `[mobility]`: placement and movement of the wireless nodes without `position_m`.
    #[serde(default)]
    pub mobility: Option<MobilitySpec>,
    /// `[routing]`: static routes or an ad hoc routing protocol (`schema_routing.rs`).
    #[serde(default)]
    pub routing: Option<RoutingSpec>,
    /// `[beacons]`: periodic broadcast beacons from every wireless node.
    #[serde(default)]
    pub beacons: Option<BeaconsSpec>,
    /// `[mobile_ip]`: Mobile IPv4 timers (`schema_mobileip.rs`).
    #[serde(default)]
    pub mobile_ip: Option<MobileIpSpec>,
    /// `[cellular]`: access-router mobility (`schema_cellular.rs`).
    #[serde(default)]
    pub cellular: Option<CellularSpec>,
}

impl Scenario {
    /// The path MTU transports assume unless told otherwise: the smallest link MTU, or 1500
    /// (Ethernet, and the largest IP packet over the 802.11 interfaces) without links.
    pub fn smallest_link_mtu(&self) -> usize {
        self.link
            .iter()
            .map(|l| l.mtu_bytes as usize)
            .min()
            .unwrap_or(1500)
    }
}

/// `[simulation]`
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    /// Simulated time to run. Required; must be positive.
    pub duration: Duration,
    /// Root seed of the run's seed tree. Default 1 (ns-2 and ns-3 both default to a fixed seed).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Interval of the time series in `timeseries.parquet`. Default 100 ms.
    #[serde(default = "default_sample_interval")]
    pub sample_interval: Duration,
    /// Record every wireless node's position (`x_m`, `y_m`, scope `node`) in the time series
    /// at each sample. Default false (10,000 nodes would add 20,000 rows per sample).
    #[serde(default)]
    pub trace_positions: bool,
    /// Free text, copied to the results.
    #[serde(default)]
    pub name: Option<String>,
    /// Free text, copied to the results.
    #[serde(default)]
    pub description: Option<String>,
}

pub(crate) fn default_seed() -> u64 {
    1
}

pub(crate) fn default_sample_interval() -> Duration {
    Duration::millis(100)
}

/// `[[node]]`
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Unique name; links and flows refer to nodes by it.
    pub name: String,
    /// The node has a wireless interface (`wlan0`, after its link interfaces). Default false.
    #[serde(default)]
    pub wireless: bool,
    /// Where a wireless node stands, `[x, y]` or `[x, y, z]` m; absent: it follows
    /// `[mobility]`.
    #[serde(default)]
    pub position_m: Option<Vec<f64>>,
    /// The 802.11 role of a wireless node (`wifi = { role = "ap", ... }`,
    /// `schema_infra.rs`). Default: ad hoc.
    #[serde(default)]
    pub wifi: Option<WifiSpec>,
    /// The node's Mobile IP role (`mobile_ip = { role = "mobile", home_agent = "HA" }`,
    /// `schema_mobileip.rs`). Default: none.
    #[serde(default)]
    pub mobile_ip: Option<MipNodeSpec>,
    /// The node's access-router mobility role (`cellular = { role = "access-router" }` or
    /// `{ role = "mobile" }`, `schema_cellular.rs`). Default: none.
    #[serde(default)]
    pub cellular: Option<CellNodeSpec>,
}

/// `[[link]]`: a full-duplex point-to-point link.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two node names. "Forward" is `between[0]` → `between[1]`.
    pub between: [String; 2],
    /// Bandwidth of each direction. Must be positive.
    pub bandwidth: Rate,
    /// One-way propagation delay.
    pub delay: Duration,
    /// Drop-tail queue limit per direction in packets, not counting the packet being
    /// transmitted. Default 50: ns-2 `Queue/DropTail` `limit_`.
    #[serde(default = "default_queue_limit")]
    pub queue_limit_packets: u32,
    /// Largest IP packet the link carries. Default 1500 (Ethernet).
    #[serde(default = "default_mtu")]
    pub mtu_bytes: u32,
    /// Interface addresses of `between[0]` and `between[1]`. Default: link k gets
    /// 10.(k/256).(k%256).1 and .2.
    #[serde(default)]
    pub addresses: Option<[Ipv4Addr; 2]>,
    /// Random loss applied after transmission (the packet uses the link, then is lost).
    #[serde(default)]
    pub loss: Option<LossSpec>,
    /// Scripted drops of chosen packets of a flow.
    #[serde(default)]
    pub drops: Vec<DropSpec>,
    /// Scheduled failures (`[[link.outages]]`, `schema_sctp.rs`).
    #[serde(default)]
    pub outages: Vec<OutageSpec>,
}

pub(crate) fn default_queue_limit() -> u32 {
    50
}

pub(crate) fn default_mtu() -> u32 {
    1500
}

/// Which loss process a link applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LossModelKind {
    /// No random loss.
    None,
    /// Each packet lost independently with probability `p`.
    Bernoulli,
    /// Two-state Markov chain (Gilbert 1960, Elliott 1963).
    GilbertElliott,
}

/// `[link.loss]`: one table for all models; the fields a model does not use must be absent.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LossSpec {
    /// The loss process.
    pub model: LossModelKind,
    /// Bernoulli: loss probability per packet, in [0, 1].
    #[serde(default)]
    pub p: Option<f64>,
    /// Gilbert–Elliott: probability per packet of moving from the good to the bad state.
    #[serde(default)]
    pub p_good_to_bad: Option<f64>,
    /// Gilbert–Elliott: probability per packet of moving from the bad to the good state.
    #[serde(default)]
    pub p_bad_to_good: Option<f64>,
    /// Gilbert–Elliott: loss probability in the good state. Default 0 (Gilbert's model).
    #[serde(default)]
    pub loss_good: Option<f64>,
    /// Gilbert–Elliott: loss probability in the bad state. Default 1 (Gilbert's model).
    #[serde(default)]
    pub loss_bad: Option<f64>,
    /// Apply only to packets leaving this node (one direction). Default: both directions, each
    /// with its own independent process.
    #[serde(default)]
    pub from: Option<String>,
}

/// `[[link.drops]]`: drop the k-th, m-th, ... packet of a flow crossing this link.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DropSpec {
    /// Index of the flow in `[[flows]]` (0-based).
    pub flow: u32,
    /// Ordinals (1-based) of that flow's packets on this link, counted per direction.
    pub packets: Vec<u64>,
    /// Count and drop only packets leaving this node. Default: both directions.
    #[serde(default)]
    pub from: Option<String>,
}

/// Transport protocol of a flow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TransportKind {
    /// UDP (RFC 768).
    Udp,
    /// TCP Tahoe: fast retransmit, no fast recovery (ns-2's base `Agent/TCP`).
    TcpTahoe,
    /// TCP with Reno loss recovery (RFC 5681).
    TcpReno,
    /// TCP with NewReno loss recovery (RFC 6582).
    TcpNewreno,
    /// TCP with SACK (RFC 2018) and RFC 6675 loss recovery.
    TcpSack,
    /// TCP with SACK (RFC 2018) and ns-2's `Agent/TCP/Sack1` loss recovery (`pipe_`).
    TcpSack1,
    /// SCTP (RFC 9260), multi-homed when the ends have several addresses.
    Sctp,
}

impl TransportKind {
    /// Whether this is one of the TCP variants.
    pub fn is_tcp(self) -> bool {
        matches!(
            self,
            TransportKind::TcpTahoe
                | TransportKind::TcpReno
                | TransportKind::TcpNewreno
                | TransportKind::TcpSack
                | TransportKind::TcpSack1
        )
    }

    /// The name used in scenarios and results.
    pub fn name(self) -> &'static str {
        match self {
            TransportKind::Udp => "udp",
            TransportKind::TcpTahoe => "tcp-tahoe",
            TransportKind::TcpReno => "tcp-reno",
            TransportKind::TcpNewreno => "tcp-newreno",
            TransportKind::TcpSack => "tcp-sack",
            TransportKind::TcpSack1 => "tcp-sack1",
            TransportKind::Sctp => "sctp",
        }
    }
}

/// Application of a flow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AppKind {
    /// Constant bit rate until `stop` (UDP).
    Cbr,
    /// `size_bytes` of payload: at `rate` over UDP, as fast as the transport allows over TCP.
    File,
    /// Backlogged bulk transfer: always has data (ns-2 `Application/FTP`); TCP and SCTP.
    Ftp,
    /// Multi-stream message source (`[flows.messages]`); SCTP only.
    Messages,
}

impl AppKind {
    /// The name used in scenarios and results.
    pub fn name(self) -> &'static str {
        match self {
            AppKind::Cbr => "cbr",
            AppKind::File => "file",
            AppKind::Ftp => "ftp",
            AppKind::Messages => "messages",
        }
    }
}

/// Which set of TCP defaults a flow starts from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TcpProfileKind {
    /// The IETF specifications' values (`docs/models/tcp.md`).
    #[default]
    Rfc,
    /// ns-2's `Agent/TCP` defaults as the studies used them.
    Ns2,
    /// ns-2's `Agent/TCP` defaults of early 2003 (ns-2.26): the timers before ns-2 changed
    /// them (minimum RTO 1 s, maximum 100,000 s, initial 6 s).
    #[serde(rename = "ns2-2003")]
    Ns2_2003,
    /// ns-2.1b8's `Agent/TCP` defaults (2001): 100 ms timer ticks, minimum RTO 1 s, initial
    /// RTO 6 s, no limited transmit.
    #[serde(rename = "ns2-2001")]
    Ns2_2001,
}

/// RFC 6582 §4 timer behaviour on NewReno partial ACKs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartialAckTimerKind {
    /// Only the first partial ACK restarts the retransmission timer.
    Impatient,
    /// Every partial ACK restarts it.
    SlowButSteady,
}

/// `[flows.tcp]`: TCP knobs. Every field is optional; an absent field keeps the profile's
/// value (see `docs/models/tcp.md` for both profiles and their sources).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    /// Defaults to start from. Default `rfc`.
    #[serde(default)]
    pub profile: TcpProfileKind,
    /// Largest segment payload (and advertised MSS).
    #[serde(default)]
    pub mss_bytes: Option<u16>,
    /// Initial congestion window in segments (absent: the profile's).
    #[serde(default)]
    pub initial_window_segments: Option<u32>,
    /// Initial slow-start threshold.
    #[serde(default)]
    pub initial_ssthresh_bytes: Option<u32>,
    /// Cap on the send window (ns-2 `window_`).
    #[serde(default)]
    pub max_window_bytes: Option<u32>,
    /// Receive buffer: the largest window the receiver advertises.
    #[serde(default)]
    pub recv_buffer_bytes: Option<u32>,
    /// RFC 7323 timestamps.
    #[serde(default)]
    pub timestamps: Option<bool>,
    /// Most SACK blocks per ACK (1–4).
    #[serde(default)]
    pub max_sack_blocks: Option<u8>,
    /// Duplicate ACKs that trigger fast retransmit.
    #[serde(default)]
    pub dupthresh: Option<u32>,
    /// RFC 3042 limited transmit.
    #[serde(default)]
    pub limited_transmit: Option<bool>,
    /// Delayed ACKs (every second segment or the timer).
    #[serde(default)]
    pub delayed_ack: Option<bool>,
    /// The delayed-ACK timer.
    #[serde(default)]
    pub delayed_ack_timeout: Option<Duration>,
    /// RTO before the first RTT sample.
    #[serde(default)]
    pub initial_rto: Option<Duration>,
    /// Lower bound of the RTO.
    #[serde(default)]
    pub min_rto: Option<Duration>,
    /// Upper bound of the RTO.
    #[serde(default)]
    pub max_rto: Option<Duration>,
    /// NewReno partial-ACK timer behaviour.
    #[serde(default)]
    pub partial_ack_timer: Option<PartialAckTimerKind>,
    /// Nagle's algorithm.
    #[serde(default)]
    pub nagle: Option<bool>,
}

/// `[[flows]]`
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Source node name (required unless `pairs` is set).
    #[serde(default)]
    pub src: String,
    /// Destination node name (required unless `pairs` is set).
    #[serde(default)]
    pub dst: String,
    /// Instead of `src`/`dst`: this many flows between random node pairs, with distinct
    /// sources, drawn from the run's seed (`scenario/pairs.rs`), as the MANET studies place
    /// their CBR sources.
    #[serde(default)]
    pub pairs: Option<u32>,
    /// With `pairs`: how the pairs are drawn: `distinct-sources` (default; `k` distinct
    /// sources, each with a random destination) or `cbrgen` (ns-2's traffic generator
    /// `indep-utils/cmu-scen-gen/cbrgen.tcl`: node i sources no flow, one flow to node i+1 or
    /// two flows to nodes i+1 and i+2, with probabilities 1/2, 1/4, 1/4, in node order until
    /// `k` flows). A name, checked in `pairs.rs`.
    #[serde(default)]
    pub pairs_rule: Option<String>,
    /// With `pairs`: each flow starts at `start` plus a uniform random offset in
    /// `[0, start_spread)`, so sources do not start in lock step. Default 0 s.
    #[serde(default)]
    pub start_spread: Option<Duration>,
    /// Transport protocol. Default `udp`.
    #[serde(default = "default_transport")]
    pub transport: TransportKind,
    /// Application.
    pub app: AppKind,
    /// Payload rate (UDP applications only).
    #[serde(default)]
    pub rate: Option<Rate>,
    /// Payload bytes per packet (UDP only; TCP uses `tcp.mss_bytes`). Default 512: ns-3
    /// `OnOffApplication::PacketSize`.
    #[serde(default)]
    pub packet_size_bytes: Option<u32>,
    /// Total payload bytes (`app = "file"`).
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// When the application starts. Default 0 s.
    #[serde(default)]
    pub start: Duration,
    /// When the application stops sending. Default: the end of the run.
    #[serde(default)]
    pub stop: Option<Duration>,
    /// Destination port. Default 9 (discard, RFC 863) for UDP, 5001 for TCP (iperf's, so
    /// captures dissect as plain TCP).
    #[serde(default)]
    pub dst_port: Option<u16>,
    /// Source port. Default 49152 + flow index (IANA dynamic range, RFC 6335).
    #[serde(default)]
    pub src_port: Option<u16>,
    /// TCP knobs (TCP transports only).
    #[serde(default)]
    pub tcp: Option<TcpSpec>,
    /// SCTP knobs (transport `sctp` only, `schema_sctp.rs`).
    #[serde(default)]
    pub sctp: Option<SctpSpec>,
    /// The message source (`app = "messages"` only, `schema_sctp.rs`).
    #[serde(default)]
    pub messages: Option<MessagesSpec>,
}

impl FlowSpec {
    /// UDP payload bytes per packet, with its default applied.
    pub fn udp_packet_size(&self) -> u32 {
        self.packet_size_bytes.unwrap_or(DEFAULT_PACKET_SIZE)
    }
}

/// ns-3 `OnOffApplication::PacketSize` default.
pub const DEFAULT_PACKET_SIZE: u32 = 512;

fn default_transport() -> TransportKind {
    TransportKind::Udp
}
