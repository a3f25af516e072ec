//! The per-packet trace (`--trace`, `trace.parquet`): one row each time a packet is enqueued,
//! dequeued, transmitted, received, forwarded or dropped, at a node and a layer — what ns-2's
//! and ns-3's ASCII traces and OMNeT++'s eventlog give, as a table (`docs/metrics.md`,
//! "trace.parquet").
//!
//! The simulation calls [`Tracer::record`] at each of those points (`sim/trace.rs` says which
//! point gives which row); with no trace asked for the simulation holds no `Tracer` and every
//! hook is one `Option` test. Rows are kept in one column `Vec` per field, in memory until the
//! run ends, like the time series: 44 bytes a row ([`BYTES_PER_ROW`]), up to twice that while a
//! column grows. Rows stop at a bound ([`TraceOptions::max_rows`], default
//! [`DEFAULT_MAX_ROWS`]); past it nothing more is kept and the trace is marked truncated. A
//! bound above [`MAX_ROWS_LIMIT`] is refused before the run is built, like a sampling interval
//! that would overflow the time series (`scenario/check.rs`, `MAX_SERIES_ROWS`).

use crate::drop::DropReason;
use crate::routing_protocols::{TraceMatch, AD_HOC};
use crate::scenario::ScenarioError;
use crate::topology::Topology;
use sctpsim_kernel::{NodeId, PacketTag, SimTime};
use sctpsim_wire::ipv4::{IpProtocol, Ipv4Packet};
use serde::Serialize;

/// Rows kept when `max_rows` is not given: 10 million, 440 MB of columns in the core (the
/// time series' bound, `MAX_SERIES_ROWS`, is the same number for the same reason: the most a
/// run on a laptop should hold without being told).
pub const DEFAULT_MAX_ROWS: u64 = 10_000_000;

/// Largest `max_rows` accepted: 50 million rows are 2.2 GB of columns in the core, up to
/// twice that while a column `Vec` doubles, and the process's peak grows by about as much
/// again while Python turns them into a DataFrame and writes the Parquet file (measured: 88
/// bytes a row, 5 million rows). A larger bound is refused before the run starts rather than
/// found out by the operating system's OOM killer.
pub const MAX_ROWS_LIMIT: u64 = 50_000_000;

/// Bytes a row takes in the core: time 8, node 4, interface 4, layer, event, reason and
/// protocol 1 each, flow 4, source and destination address 4 each, size 4, uid 8.
pub const BYTES_PER_ROW: u64 = 44;

/// Where in a node a row is recorded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// A point-to-point link interface: its drop-tail queue, transmitter and receiver.
    Link,
    /// An 802.11 interface: its interface queue, the frames it sends and the packets it
    /// delivers up.
    Mac,
    /// The node's IP layer (and its ad hoc routing protocol): packets it originates, delivers
    /// locally, forwards, or drops for want of a route.
    Ip,
    /// An 802.11 radio: data frames it locked on to and lost (collision, weak signal, frame
    /// error) — what a viewer draws as a collision at a receiver; the MAC never sees these
    /// frames as packets, so no other layer has a row for them.
    Phy,
}

impl Layer {
    /// Every layer, in code order (the `layer` column's categories).
    pub const ALL: [Layer; 4] = [Layer::Link, Layer::Mac, Layer::Ip, Layer::Phy];

    /// Name in `trace.parquet` and in the `layers` filter.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Link => "link",
            Layer::Mac => "mac",
            Layer::Ip => "ip",
            Layer::Phy => "phy",
        }
    }

    fn from_name(s: &str) -> Option<Layer> {
        Layer::ALL.into_iter().find(|l| l.name() == s)
    }
}

/// What happened to the packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TraceEvent {
    /// Entered a queue (a link's drop-tail queue, an 802.11 interface queue).
    Enqueue,
    /// Left the queue: a link starts serialising it, a MAC takes it into service (contention).
    Dequeue,
    /// On the wire: a link starts serialising it; a MAC puts a data frame carrying it on the
    /// air (every attempt, retransmissions included); IP originates it.
    Tx,
    /// Arrived: the last bit at a link's far end, a MAC delivering it up, IP delivering it to
    /// the node itself.
    Rx,
    /// IP (or the node's ad hoc router) sends a packet in transit on towards its next hop.
    Forward,
    /// Ended without being delivered; the `reason` column says why.
    Drop,
    /// A radio locked on to a data frame carrying the packet and lost it; the `reason` column
    /// says why ([`RxLoss`]). Not a drop: the sender's MAC retries (or the frame was only
    /// overheard), so these rows are not in `drops.parquet`.
    RxError,
}

/// Why a radio lost a frame it had locked on to (the `reason` of a `phy` `rx_error` row).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RxLoss {
    /// Another frame overlapped it: the threshold model's collision (neither CPThresh
    /// stronger), or a SINR-model failure with at least one interferer.
    Collision,
    /// Too weak on its own: below RXThresh under the threshold model, a SINR-model failure
    /// against noise alone.
    WeakSignal,
    /// Passed by the reception model, lost by the distance-dependent frame error model
    /// (`radio.frame_error`).
    FrameError,
}

impl RxLoss {
    /// Every cause, in code order.
    pub const ALL: [RxLoss; 3] = [RxLoss::Collision, RxLoss::WeakSignal, RxLoss::FrameError];

    /// Name in the `reason` column.
    pub fn name(self) -> &'static str {
        match self {
            RxLoss::Collision => "collision",
            RxLoss::WeakSignal => "weak_signal",
            RxLoss::FrameError => "frame_error",
        }
    }

    /// Code in [`PacketTrace::reason`]: after the drop reasons.
    fn code(self) -> u8 {
        (1 + DropReason::ALL.len() + self as usize) as u8
    }
}

impl TraceEvent {
    /// Every event, in code order (the `event` column's categories).
    pub const ALL: [TraceEvent; 7] = [
        TraceEvent::Enqueue,
        TraceEvent::Dequeue,
        TraceEvent::Tx,
        TraceEvent::Rx,
        TraceEvent::Forward,
        TraceEvent::Drop,
        TraceEvent::RxError,
    ];

    /// Name in `trace.parquet`.
    pub fn name(self) -> &'static str {
        match self {
            TraceEvent::Enqueue => "enqueue",
            TraceEvent::Dequeue => "dequeue",
            TraceEvent::Tx => "tx",
            TraceEvent::Rx => "rx",
            TraceEvent::Forward => "forward",
            TraceEvent::Drop => "drop",
            TraceEvent::RxError => "rx_error",
        }
    }
}

/// The `protocol` column's categories that are not routing protocols, in code order.
const BASE_PROTOCOL_NAMES: [&str; 5] = ["ip", "udp", "tcp", "sctp", "icmp"];

/// The `protocol` column's categories, in code order: the flow's transport for a flow's
/// packets, else what the headers say (DSR's own packets carry no upper-layer payload; AODV,
/// OLSR and DSDV are UDP to their ports); `ip` for anything else. The ad hoc routing
/// protocols follow the base names in the order of their descriptors
/// (`routing_protocols::AD_HOC`, which says how each is recognised). New names go at the end,
/// so that the codes of existing traces keep their meaning.
pub const PROTOCOL_NAMES: [&str; BASE_PROTOCOL_NAMES.len() + AD_HOC.len()] = {
    let mut names = [""; BASE_PROTOCOL_NAMES.len() + AD_HOC.len()];
    let mut i = 0;
    while i < BASE_PROTOCOL_NAMES.len() {
        names[i] = BASE_PROTOCOL_NAMES[i];
        i += 1;
    }
    let mut j = 0;
    while j < AD_HOC.len() {
        names[i + j] = AD_HOC[j].name;
        j += 1;
    }
    names
};

/// The code of the first routing protocol (`AD_HOC[0]`).
const CODE_ROUTING: u8 = BASE_PROTOCOL_NAMES.len() as u8;

/// The code of `name` in [`PROTOCOL_NAMES`], found at compile time (a name not in the list
/// stops the build), so that no code is written as a bare number.
const fn code_of(name: &str) -> u8 {
    let mut i = 0;
    while i < PROTOCOL_NAMES.len() {
        let a = PROTOCOL_NAMES[i].as_bytes();
        let b = name.as_bytes();
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i as u8;
            }
        }
        i += 1;
    }
    panic!("not in PROTOCOL_NAMES")
}

const CODE_IP: u8 = code_of("ip");
const CODE_UDP: u8 = code_of("udp");
const CODE_TCP: u8 = code_of("tcp");
const CODE_SCTP: u8 = code_of("sctp");
const CODE_ICMP: u8 = code_of("icmp");

/// Options of a packet trace (`sctpsim run --trace`, `sctpsim.run(trace=...)`). Empty
/// filters keep everything; filters of different kinds must all match (a row at node `a`,
/// layer `mac`, of flow 0 passes `nodes = ["a"], layers = ["mac"], flows = [0]`), entries of
/// one kind are alternatives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceOptions {
    /// Only rows at these nodes (names).
    pub nodes: Vec<String>,
    /// Only rows of these flows (their `id` in `flows.parquet`); routing control, ICMP and
    /// beacons, which belong to no flow, are then left out.
    pub flows: Vec<i64>,
    /// Only rows of these layers (`link`, `mac`, `ip`).
    pub layers: Vec<String>,
    /// Most rows kept (`None`: [`DEFAULT_MAX_ROWS`]); 1 to [`MAX_ROWS_LIMIT`].
    pub max_rows: Option<i64>,
}

/// Where a row is recorded: the node, the layer and, below IP, the node's interface index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TraceAt {
    /// The node.
    pub node: NodeId,
    /// The layer.
    pub layer: Layer,
    /// Index in the node's interfaces (`None` at the IP layer).
    pub iface: Option<u32>,
}

impl TraceAt {
    /// At the IP layer of `node`.
    pub fn ip(node: NodeId) -> TraceAt {
        TraceAt {
            node,
            layer: Layer::Ip,
            iface: None,
        }
    }

    /// At interface `iface` of `node`, on layer `layer`.
    pub fn iface(node: NodeId, layer: Layer, iface: u32) -> TraceAt {
        TraceAt {
            node,
            layer,
            iface: Some(iface),
        }
    }
}

/// The trace of a finished run: one `Vec` per column, all of the same length, with the names
/// the integer columns stand for (what `trace.parquet` is built from; `docs/metrics.md`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PacketTrace {
    /// Simulated time, ns.
    pub time_ns: Vec<u64>,
    /// Node index (into [`PacketTrace::node_names`]).
    pub node: Vec<u32>,
    /// Interface index at the node (into [`PacketTrace::iface_names`]), −1 at the IP layer.
    pub iface: Vec<i32>,
    /// [`Layer`] as `u8` (index into [`Layer::ALL`]).
    pub layer: Vec<u8>,
    /// [`TraceEvent`] as `u8` (index into [`TraceEvent::ALL`]).
    pub event: Vec<u8>,
    /// 0 unless a drop or an `rx_error`; a drop: 1 + the [`DropReason`] index (into
    /// [`DropReason::ALL`]); an `rx_error`: after those, by [`RxLoss`] index
    /// ([`PacketTrace::reason_names`] gives the names by code).
    pub reason: Vec<u8>,
    /// The flow's id (`flows.parquet` `id`), −1 for packets of no flow.
    pub flow: Vec<i32>,
    /// Index into [`PROTOCOL_NAMES`].
    pub protocol: Vec<u8>,
    /// IPv4 source address (`u32::from(Ipv4Addr)`; 0 if the packet has no valid header).
    pub src: Vec<u32>,
    /// IPv4 destination address, as `src`.
    pub dst: Vec<u32>,
    /// Size of the IP packet, bytes (header included).
    pub size_bytes: Vec<u32>,
    /// The packet's unique id (`PacketTag::uid`).
    pub uid: Vec<u64>,
    /// Node names, by node index.
    pub node_names: Vec<String>,
    /// Interface names (`eth0`, `wlan0`), by node index and interface index.
    pub iface_names: Vec<Vec<String>>,
    /// The bound on rows.
    pub max_rows: u64,
    /// Rows stopped at the bound: the trace misses what came after.
    pub truncated: bool,
}

impl PacketTrace {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.time_ns.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.time_ns.is_empty()
    }

    /// The `reason` column's names, by code (`""` for code 0: neither a drop nor an
    /// `rx_error`).
    pub fn reason_names() -> Vec<&'static str> {
        std::iter::once("")
            .chain(DropReason::ALL.iter().map(|r| r.name()))
            .chain(RxLoss::ALL.iter().map(|r| r.name()))
            .collect()
    }
}

/// `summary.json` `trace`: present when the run was traced.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TraceSummary {
    /// Rows recorded (`trace.parquet` holds exactly these).
    pub rows: u64,
    /// The bound on rows.
    pub max_rows: u64,
    /// Whether recording stopped at the bound (later packets are missing from the trace).
    pub truncated: bool,
}

/// The recorder: filters, the bound, and the columns being filled.
#[derive(Debug)]
pub struct Tracer {
    /// Bit `1 << layer` set: the layer is kept.
    layers: u8,
    /// Per node index: kept (`None`: every node).
    nodes: Option<Vec<bool>>,
    /// Per engine flow index: kept (`None`: every packet, of a flow or not).
    flows: Option<Vec<bool>>,
    /// Per engine flow index: its id in results.
    flow_ids: Vec<u32>,
    /// Per wireless interface: the (uid, 802.11 sequence number) of the packet last seen in
    /// service, to tell when the next one is dequeued (`Dcf::in_service`).
    mac_in_service: Vec<Option<(u64, u16)>>,
    out: PacketTrace,
}

impl Tracer {
    /// A recorder for `opts` in the network `topo`, whose flows (engine order) have the ids
    /// `flow_ids`. Errors name the option (`trace.nodes[1]`, `trace.max_rows`) and are found
    /// before anything runs.
    pub fn new(
        opts: &TraceOptions,
        topo: &Topology,
        flow_ids: Vec<u32>,
    ) -> Result<Tracer, ScenarioError> {
        let max_rows = match opts.max_rows {
            None => DEFAULT_MAX_ROWS,
            Some(n) if n >= 1 && n as u64 <= MAX_ROWS_LIMIT => n as u64,
            Some(n) => {
                return Err(ScenarioError::at(
                    "trace.max_rows",
                    format!(
                        "{n} is outside 1 to {MAX_ROWS_LIMIT} ({BYTES_PER_ROW} bytes a row in \
                         memory until the run ends); trace fewer nodes, flows or layers instead"
                    ),
                ))
            }
        };
        let mut layers = 0u8;
        for (i, name) in opts.layers.iter().enumerate() {
            let Some(l) = Layer::from_name(name) else {
                return Err(ScenarioError::at(
                    format!("trace.layers[{i}]"),
                    format!("unknown layer \"{name}\"; expected link, mac, ip or phy"),
                ));
            };
            layers |= 1 << l as u8;
        }
        if opts.layers.is_empty() {
            layers = u8::MAX;
        }
        let nodes = if opts.nodes.is_empty() {
            None
        } else {
            let mut keep = vec![false; topo.nodes.len()];
            for (i, name) in opts.nodes.iter().enumerate() {
                let Some(k) = topo.nodes.iter().position(|n| &n.name == name) else {
                    return Err(ScenarioError::at(
                        format!("trace.nodes[{i}]"),
                        format!("no node named \"{name}\""),
                    ));
                };
                keep[k] = true;
            }
            Some(keep)
        };
        let flows = if opts.flows.is_empty() {
            None
        } else {
            let mut keep = vec![false; flow_ids.len()];
            for (i, &id) in opts.flows.iter().enumerate() {
                let Some(k) = flow_ids.iter().position(|&f| i64::from(f) == id) else {
                    return Err(ScenarioError::at(
                        format!("trace.flows[{i}]"),
                        format!(
                            "no flow {id}; the run has {} flows, ids 0 to {}",
                            flow_ids.len(),
                            flow_ids.len().saturating_sub(1)
                        ),
                    ));
                };
                keep[k] = true;
            }
            Some(keep)
        };
        Ok(Tracer {
            layers,
            nodes,
            flows,
            flow_ids,
            mac_in_service: Vec::new(),
            out: PacketTrace {
                node_names: topo.nodes.iter().map(|n| n.name.clone()).collect(),
                iface_names: topo
                    .nodes
                    .iter()
                    .map(|n| n.ifaces.iter().map(|i| i.name.clone()).collect())
                    .collect(),
                max_rows,
                ..PacketTrace::default()
            },
        })
    }

    /// Records one row for the IPv4 packet `bytes` with tag `tag`, unless the filters leave
    /// it out or the bound is reached. `reason` is given for drops.
    pub fn record(
        &mut self,
        now: SimTime,
        at: TraceAt,
        event: TraceEvent,
        reason: Option<DropReason>,
        bytes: &[u8],
        tag: PacketTag,
    ) {
        let code = reason.map_or(0, |r| r as u8 + 1);
        self.record_code(now, at, event, code, bytes, tag);
    }

    /// The `phy` `rx_error` row of a data frame's packet (`bytes`: the IPv4 packet in it)
    /// that the radio of `node`'s interface `iface` lost for `cause`.
    pub fn record_rx_loss(
        &mut self,
        now: SimTime,
        node: NodeId,
        iface: u32,
        cause: RxLoss,
        bytes: &[u8],
        tag: PacketTag,
    ) {
        let at = TraceAt::iface(node, Layer::Phy, iface);
        self.record_code(now, at, TraceEvent::RxError, cause.code(), bytes, tag);
    }

    fn record_code(
        &mut self,
        now: SimTime,
        at: TraceAt,
        event: TraceEvent,
        code: u8,
        bytes: &[u8],
        tag: PacketTag,
    ) {
        if self.layers & (1 << at.layer as u8) == 0 {
            return;
        }
        if let Some(n) = &self.nodes {
            if !n.get(at.node.index()).copied().unwrap_or(false) {
                return;
            }
        }
        if let Some(f) = &self.flows {
            let kept = tag.flow.map(|f| f.index());
            if !kept.is_some_and(|k| f.get(k).copied().unwrap_or(false)) {
                return;
            }
        }
        let o = &mut self.out;
        if o.time_ns.len() as u64 >= o.max_rows {
            o.truncated = true;
            return;
        }
        let flow = tag
            .flow
            .and_then(|f| self.flow_ids.get(f.index()))
            .map_or(-1, |&id| id as i32);
        let (src, dst, protocol) = match Ipv4Packet::new_checked(bytes) {
            Ok(ip) => (
                u32::from(ip.src_addr()),
                u32::from(ip.dst_addr()),
                protocol_code(&ip, tag.flow.is_some()),
            ),
            Err(_) => (0, 0, 0),
        };
        o.time_ns.push(now.0);
        o.node.push(at.node.0);
        o.iface.push(at.iface.map_or(-1, |i| i as i32));
        o.layer.push(at.layer as u8);
        o.event.push(event as u8);
        o.reason.push(code);
        o.flow.push(flow);
        o.protocol.push(protocol);
        o.src.push(src);
        o.dst.push(dst);
        o.size_bytes.push(bytes.len() as u32);
        o.uid.push(tag.uid);
    }

    /// Whether wireless interface `w` took a new packet (`in_service`: uid and 802.11 sequence
    /// number of the packet its MAC is serving) into service since it was last asked.
    pub fn mac_dequeued(&mut self, w: u32, in_service: Option<(u64, u16)>) -> bool {
        let w = w as usize;
        if self.mac_in_service.len() <= w {
            self.mac_in_service.resize(w + 1, None);
        }
        match in_service {
            Some(s) if self.mac_in_service[w] != Some(s) => {
                self.mac_in_service[w] = Some(s);
                true
            }
            _ => false,
        }
    }

    /// The rows recorded so far.
    pub fn rows(&self) -> u64 {
        self.out.time_ns.len() as u64
    }

    /// What goes into `summary.json`.
    pub fn summary(&self) -> TraceSummary {
        TraceSummary {
            rows: self.rows(),
            max_rows: self.out.max_rows,
            truncated: self.out.truncated,
        }
    }

    /// The finished trace.
    pub fn finish(self) -> PacketTrace {
        self.out
    }
}

/// The `protocol` code of a packet (index into [`PROTOCOL_NAMES`]). A flow's packet is named
/// by its transport even inside a DSR header; the rest by their headers.
fn protocol_code(ip: &Ipv4Packet<&[u8]>, of_flow: bool) -> u8 {
    let payload = ip.payload();
    let mut proto = ip.protocol();
    for (k, p) in AD_HOC.iter().enumerate() {
        if let TraceMatch::IpProtocol(n) = p.trace {
            if proto == IpProtocol::from(n) {
                // RFC 4728 §6.1: Next Header is the first octet; 59 (none) for DSR's own
                // packets.
                match payload.first() {
                    Some(&sctpsim_wire::dsr::NO_NEXT_HEADER) | None => {
                        return CODE_ROUTING + k as u8
                    }
                    Some(&n) => proto = IpProtocol::from(n),
                }
                break;
            }
        }
    }
    match proto {
        IpProtocol::Udp if !of_flow => {
            let port = |at: usize| {
                payload
                    .get(at..at + 2)
                    .map(|b| u16::from_be_bytes([b[0], b[1]]))
            };
            let ports = [port(0), port(2)];
            AD_HOC
                .iter()
                .position(|p| matches!(p.trace, TraceMatch::UdpPort(q) if ports.contains(&Some(q))))
                .map_or(CODE_UDP, |k| CODE_ROUTING + k as u8)
        }
        IpProtocol::Udp => CODE_UDP,
        IpProtocol::Tcp => CODE_TCP,
        IpProtocol::Sctp => CODE_SCTP,
        IpProtocol::Icmp => CODE_ICMP,
        _ => CODE_IP,
    }
}
