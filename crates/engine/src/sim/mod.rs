//! The simulation: builds the network from a checked scenario and drives it — the only place
//! that owns the clock and the event queue. Protocols and applications are sans-IO state
//! machines polled from here (DESIGN.md §1.1).
//!
//! * `flows.rs` — building each flow's endpoints (UDP source/sink, TCP client/server).
//! * `node.rs` — the `Node`: a node's IP stack, interfaces, router and flow ends.
//! * `ip.rs` — IP output, link transmission, IP input (one per node), forwarding, ICMP,
//!   demultiplexing.
//! * `tcp.rs` — driving TCP connections: polling, timers, metric events.
//! * `sctp/` — SCTP flows: building, driving (multi-homed associations), rows and results.
//! * `finish.rs` — turning counters into results.
//! * `wireless.rs` — driving the wireless channel, radios and 802.11 MACs.
//! * `routing.rs` — driving the ad hoc routing protocols (DSR, AODV, OLSR).
//! * `beacon.rs` — `[beacons]`: broadcast beacons and IP input of limited broadcasts.
//! * `trace.rs` — the per-packet trace's hooks (`crate::trace`).

mod beacon;
mod cellular;
mod fib;
mod finish;
pub(crate) mod flows;
mod infra;
mod ip;
mod mobileip;
mod mobility;
#[cfg(test)]
mod mobility_test;
mod net_events;
pub mod node;
#[cfg(test)]
mod node_test;
pub(crate) mod routing;
pub(crate) mod sctp;
#[cfg(test)]
mod tap_test;
mod tcp;
mod trace;
mod transport;
mod udp;
mod wireless;

use crate::capture::Capture;
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::results::{RunResult, TimeSeries};
use crate::scenario::LoadedScenario;
use crate::topology::Topology;
use crate::trace::{TraceAt, TraceEvent, TraceOptions, Tracer};
use flows::build_flow;
use sctpsim_kernel::{EventQueue, FlowId, LinkId, NodeId, SeedTree, SimTime, WakeSlot};
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::time::Instant;
use transport::FlowDriver;

/// Initial TTL of originated packets: 64, the IANA-recommended default (RFC 1700, "IP TTL"),
/// also Linux's `ip_default_ttl`.
const DEFAULT_TTL: u8 = 64;

/// How often (in events) the wall clock is read to decide whether to report progress.
const PROGRESS_CHECK_EVERY: u64 = 4096;

#[derive(Debug)]
enum Event {
    /// A flow's timer slot may have come (`transport.rs`; stale wake-ups are no-ops).
    Flow(FlowId, transport::Slot),
    /// A link direction finished serialising a packet.
    TxDone(LinkId, u8),
    /// A packet reached the far end of a link direction. Boxed: the queue moves events by value
    /// while it sorts them, and an unboxed packet would make every event, wireless ones
    /// included, twice as large (BENCHMARKS.md, "Event size").
    Arrive(LinkId, u8, Box<Packet>),
    /// Record the time series.
    Sample,
    /// A frame starts arriving at a wireless interface: (interface, frame slot, power W).
    WifiRxStart(u32, u32, f64),
    /// A frame ends at a wireless interface: (interface, frame slot, power W).
    WifiRxEnd(u32, u32, f64),
    /// A wireless interface's own transmission ends.
    WifiTxEnd(u32),
    /// A wireless MAC's deadline may have come (stale wake-ups are no-ops).
    WifiTimer(u32),
    /// A node's routing protocol deadline may have come (stale wake-ups are no-ops).
    RoutingTimer(NodeId),
    /// A wireless interface sends a beacon (`[beacons]`).
    Beacon(u32),
    /// A node's mobility agent's deadline may have come (`mobility.rs`): a Mobile IP timer,
    /// an access router's beacon, a cellular mobile's acquisitions and losses (stale wake-ups
    /// are no-ops).
    MobilityTimer(NodeId),
}

/// Progress of a running simulation, for progress bars.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Simulated time reached.
    pub now: SimTime,
    /// Configured end.
    pub end: SimTime,
    /// Events processed so far.
    pub events: u64,
    /// Wall-clock seconds since the run started.
    pub wall_s: f64,
}

/// Run options that are not part of the scenario.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Directory for pcap captures (`None`: no captures).
    pub pcap_dir: Option<PathBuf>,
    /// Minimum wall-clock interval between progress reports, s (default 0.2 s).
    pub progress_interval_s: Option<f64>,
    /// Record a per-packet trace (`None`: no trace, and no cost).
    pub trace: Option<TraceOptions>,
}

/// Why a run failed (not a scenario problem: those are caught before building).
#[derive(Debug)]
pub enum SimError {
    /// Writing captures failed.
    Io(std::io::Error),
    /// The scenario could not be built (a trace file vanished after the checks).
    Build(crate::scenario::ScenarioError),
    /// A run option does not fit the scenario (`trace.nodes[0]: no node named ...`); found
    /// before anything runs, and as much bad input as a scenario error.
    Options(crate::scenario::ScenarioError),
}

impl core::fmt::Display for SimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SimError::Io(e) => write!(f, "writing captures: {e}"),
            SimError::Build(e) => write!(f, "building the scenario: {e}"),
            SimError::Options(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SimError {}

/// A built simulation, ready to run once.
pub struct Simulation {
    scenario: LoadedScenario,
    seed: u64,
    /// The nodes, in scenario order (`node.rs`): each one's IP stack, interfaces and router.
    nodes: Vec<node::Node>,
    /// The point-to-point links, in scenario order.
    links: Vec<crate::topology::Link>,
    /// Which node owns each address.
    addr_owner: std::collections::BTreeMap<Ipv4Addr, NodeId>,
    flows: Vec<Box<dyn FlowDriver>>,
    queue: EventQueue<Event>,
    now: SimTime,
    end: SimTime,
    events: u64,
    next_uid: u64,
    capture: Option<Capture>,
    series: TimeSeries,
    flow_sampled_bytes: Vec<u64>,
    /// Route lengths of each flow's delivered data packets (`transport.rs`).
    route_hops: Vec<transport::RouteHops>,
    /// The wireless channel and interfaces (empty if the scenario has no wireless node).
    wifi: Box<crate::wireless::Wireless>,
    /// The ad hoc routers, if `routing.protocol` is not `static`.
    routing: Option<routing::RoutingRt>,
    /// Dropped packets by reason: index 0 packets of no flow, `k + 1` those of flow `k`.
    drops: Vec<FlowDrops>,
    /// The wake-up queued for each flow's timer slots (`transport.rs`).
    flow_wake: Vec<[WakeSlot; transport::SLOTS]>,
    /// What a flow's poll gives to send (`transport.rs`), kept to reuse its allocation.
    flow_out: Vec<transport::Transmit>,
    /// The per-packet trace, if one was asked for (`trace.rs`).
    trace: Option<Box<Tracer>>,
    /// Mobile IP of the whole network, if any node has a role (`mobileip.rs`; the agents
    /// and mobile nodes are in their nodes, `Node::mobility`).
    mip: Option<Box<mobileip::MipRt>>,
    /// Access-router mobility of the whole network, if any node has a role (`cellular.rs`;
    /// the access routers and mobiles are in their nodes, `Node::mobility`).
    cell: Option<Box<cellular::CellRt>>,
}

/// The drops of one flow's packets (or of packets of no flow), by [`DropReason`] index.
#[derive(Clone, Debug, Default)]
struct FlowDrops {
    /// Packets dropped.
    packets: [u64; DropReason::ALL.len()],
    /// `dropped_seq` / `dropped_tsn` rows written for them.
    records: [u64; DropReason::ALL.len()],
}

impl Simulation {
    /// Build the network of a checked scenario. `seed` overrides `simulation.seed`.
    pub fn new(
        mut scenario: LoadedScenario,
        seed: Option<u64>,
        opts: &RunOptions,
    ) -> Result<Self, SimError> {
        let seed = seed.unwrap_or(scenario.spec.simulation.seed);
        crate::scenario::pairs::expand(&mut scenario.spec, seed);
        let spec = &scenario.spec;
        let seeds = SeedTree::new(seed);
        let mut topo = Topology::build(spec, &seeds);
        let wifi =
            crate::wireless::Wireless::build(spec, &mut topo, &seeds).map_err(SimError::Build)?;
        let has_wifi = wifi.is_some();
        // A wired scenario gets an empty wireless part: no interface, so none of its
        // functions is ever reached, and the packet path needs no `Option` test.
        let mut wifi = Box::new(match wifi {
            Some(w) => w,
            None => crate::wireless::Wireless::empty(&seeds).map_err(SimError::Build)?,
        });
        let routing = routing::RoutingRt::build(spec, &mut topo, &seeds);
        // The mobility agents go into their nodes (`Node::mobility`); what is network-wide
        // stays here.
        let ifaces = &wifi.ifaces;
        let wlan_addr = |w: u32| ifaces[w as usize].addr;
        let mip = has_wifi
            .then(|| mobileip::MipRt::build(spec, &seeds, &mut topo.nodes, wlan_addr))
            .flatten()
            .map(Box::new);
        let mut cell = has_wifi
            .then(|| cellular::CellRt::build(spec, &seeds, &mut topo.nodes, wlan_addr))
            .flatten();
        if let Some(c) = cell.as_mut() {
            c.init(&mut topo.nodes, &mut wifi.channel);
        }
        let end = SimTime::ZERO + spec.simulation.duration.0;
        let mtu = spec.smallest_link_mtu();
        let index = |name: &str| {
            spec.node
                .iter()
                .position(|n| n.name == name)
                .map(|i| NodeId(i as u32))
        };
        let mut flows = Vec::with_capacity(spec.flows.len());
        for (i, f) in spec.flows.iter().enumerate() {
            // References were checked; a node without interfaces has no address and its flow
            // simply sends nothing (its packets are counted as no-route drops).
            let (Some(src), Some(dst)) = (index(&f.src), index(&f.dst)) else {
                continue;
            };
            let addr = |n: NodeId| {
                topo.nodes[n.index()]
                    .primary_addr()
                    .unwrap_or(Ipv4Addr::UNSPECIFIED)
            };
            // A cellular mobile's address: the one it holds at t = 0; an SCTP end also hears of
            // every address it may hold (`cellular.rs`).
            let cell_of = |n: NodeId| {
                let c = cell.as_ref()?;
                let first = cellular::CellRt::initial_address(&topo.nodes, n)?;
                Some((first, c.addresses_of(&topo.nodes, n)))
            };
            let addr = |n: NodeId| cell_of(n).map_or_else(|| addr(n), |c| c.0);
            let (src_addr, dst_addr) = (addr(src), addr(dst));
            let id = FlowId(flows.len() as u32);
            let flow: Box<dyn FlowDriver> = if f.transport == crate::scenario::TransportKind::Sctp {
                let ends = [cell_of(src), cell_of(dst)];
                Box::new(sctp::build_sctp_flow(
                    i,
                    f,
                    (src, dst),
                    &topo,
                    mtu,
                    &seeds,
                    ends,
                ))
            } else {
                build_flow(i, f, (src, dst), (src_addr, dst_addr), end, mtu, &seeds)
            };
            for k in flow.sockets() {
                let node = if k.side == transport::End::Src {
                    src
                } else {
                    dst
                };
                let key = (u8::from(k.proto), k.local_port, k.remote, k.remote_port);
                topo.nodes[node.index()].sockets.insert(key, (id, k.side));
            }
            flows.push(flow);
        }
        let trace = match &opts.trace {
            Some(t) => {
                let ids = flows.iter().map(|f| f.ep().spec_index as u32).collect();
                Some(Box::new(
                    Tracer::new(t, &topo, ids).map_err(SimError::Options)?,
                ))
            }
            None => None,
        };
        let capture = match &opts.pcap_dir {
            Some(dir) => Some(Capture::open(dir, &topo).map_err(SimError::Io)?),
            None => None,
        };
        let ends = flows.iter().map(|f| (f.ep().src, f.ep().dst));
        for (k, at) in net_events::flows_at(topo.nodes.len(), ends)
            .into_iter()
            .enumerate()
        {
            topo.nodes[k].flows = at;
        }
        let Topology {
            nodes,
            links,
            addr_owner,
        } = topo;
        let nflows = flows.len();
        let route_hops = flows
            .iter()
            .map(|d| {
                let f = &scenario.spec.flows[d.ep().spec_index];
                transport::RouteHops {
                    file_bytes: (f.app == crate::scenario::AppKind::File)
                        .then(|| f.size_bytes.unwrap_or(0)),
                    ..Default::default()
                }
            })
            .collect();
        let mut sim = Simulation {
            scenario,
            seed,
            nodes,
            links,
            addr_owner,
            flows,
            queue: EventQueue::with_capacity(1024),
            now: SimTime::ZERO,
            end,
            events: 0,
            next_uid: 0,
            capture,
            series: TimeSeries::default(),
            flow_sampled_bytes: vec![0; nflows],
            route_hops,
            wifi,
            routing,
            drops: vec![FlowDrops::default(); nflows + 1],
            flow_wake: vec![[WakeSlot::default(); transport::SLOTS]; nflows],
            flow_out: Vec::new(),
            trace,
            mip,
            cell: cell.map(Box::new),
        };
        sim.routing_start();
        for i in 0..sim.flows.len() {
            sim.flow_arm(FlowId(i as u32));
        }
        sim.beacons_start();
        sim.infra_start();
        sim.mip_start();
        sim.cell_start();
        let first_sample = SimTime::ZERO + sim.scenario.spec.simulation.sample_interval.0;
        sim.queue.push(first_sample.min(end), Event::Sample);
        Ok(sim)
    }

    /// Run to the configured duration. `observer` is called at most every
    /// `progress_interval_s` of wall time; returning `false` stops the run early (the result is
    /// then marked interrupted and holds everything measured so far).
    pub fn run(
        mut self,
        opts: &RunOptions,
        observer: &mut dyn FnMut(Progress) -> bool,
    ) -> Result<RunResult, SimError> {
        let wall = Instant::now();
        let interval = opts.progress_interval_s.unwrap_or(0.2);
        let mut last_report = 0.0f64;
        let mut interrupted = false;
        while let Some((t, ev)) = self.queue.pop() {
            if t > self.end {
                break;
            }
            self.now = t;
            self.events += 1;
            self.dispatch(ev);
            if self.events.is_multiple_of(PROGRESS_CHECK_EVERY) {
                let w = wall.elapsed().as_secs_f64();
                if w - last_report >= interval {
                    last_report = w;
                    let p = Progress {
                        now: self.now,
                        end: self.end,
                        events: self.events,
                        wall_s: w,
                    };
                    if !observer(p) {
                        interrupted = true;
                        break;
                    }
                }
            }
        }
        if !interrupted {
            self.now = self.end;
        }
        let wall_s = wall.elapsed().as_secs_f64();
        observer(Progress {
            now: self.now,
            end: self.end,
            events: self.events,
            wall_s,
        });
        self.finish(wall_s, interrupted)
    }

    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::Flow(f, slot) => self.flow_timer(f, slot),
            Event::TxDone(l, d) => {
                if let Some(next) = self.links[l.index()].dirs[d as usize].tx_done() {
                    self.start_tx(l, d, next);
                }
            }
            Event::Arrive(l, d, pkt) => {
                let pkt = *pkt;
                let dir = &self.links[l.index()].dirs[d as usize];
                let (node, iface) = (dir.to, dir.to_iface);
                if let Some(c) = &mut self.capture {
                    c.record(node, iface, self.now, &pkt.bytes);
                }
                let at = TraceAt::iface(node, crate::trace::Layer::Link, iface);
                self.trace(at, TraceEvent::Rx, &pkt);
                self.ip_input(node, None, pkt);
            }
            Event::Sample => self.sample(),
            Event::WifiRxStart(w, f, p) => self.wifi_rx_start(w, f, p),
            Event::WifiRxEnd(w, f, p) => self.wifi_rx_end(w, f, p),
            Event::WifiTxEnd(w) => self.wifi_tx_end(w),
            Event::WifiTimer(w) => self.wifi_timer(w),
            Event::RoutingTimer(n) => self.routing_timer(n),
            Event::Beacon(w) => self.beacon_send(w),
            Event::MobilityTimer(n) => self.mobility_timer(n),
        }
    }

    fn new_packet(&mut self, bytes: Vec<u8>, flow: Option<FlowId>) -> Packet {
        Packet {
            bytes,
            tag: crate::packet::PacketTag {
                flow,
                uid: self.next_uid(),
            },
        }
    }

    /// A packet the IP layer of `node` originates (a flow's, an ICMP error, a beacon): tagged,
    /// and traced as sent by IP.
    fn originate(&mut self, node: NodeId, bytes: Vec<u8>, flow: Option<FlowId>) -> Packet {
        let pkt = self.new_packet(bytes, flow);
        self.trace(TraceAt::ip(node), TraceEvent::Tx, &pkt);
        pkt
    }

    /// The next packet uid (unique per run, from 1; 0 is never given).
    fn next_uid(&mut self) -> u64 {
        self.next_uid += 1;
        self.next_uid
    }

    /// The IPv4 Identification for the next packet `node` originates.
    fn next_ip_id(&mut self, node: NodeId) -> u16 {
        self.nodes[node.index()].next_ident()
    }

    fn sample(&mut self) {
        let interval = self.scenario.spec.simulation.sample_interval.0;
        let t = self.now.as_secs_f64();
        let dt = interval.as_secs_f64();
        for (i, f) in self.flows.iter().enumerate() {
            let bytes = f.bytes_delivered();
            let delta = bytes - self.flow_sampled_bytes[i];
            self.flow_sampled_bytes[i] = bytes;
            let id = f.ep().spec_index as u32;
            self.series
                .push(t, "flow", id, "", "goodput_bps", delta as f64 * 8.0 / dt);
            self.series
                .push(t, "flow", id, "", "bytes_delivered", bytes as f64);
            // `delivered_hops`, not `route_hops`: that name is A-SCTP's path-manager row.
            if let Some((mean, max)) = self.route_hops[i].take_interval() {
                self.series.push(t, "flow", id, "", "delivered_hops", mean);
                self.series
                    .push(t, "flow", id, "", "delivered_hops_max", f64::from(max));
            }
        }
        for (k, link) in self.links.iter_mut().enumerate() {
            for d in 0..2 {
                let dir = &mut link.dirs[d];
                let name = if d == 0 { "fwd" } else { "rev" };
                let delta = dir.counters.tx_bytes - dir.counters.sampled_tx_bytes;
                dir.counters.sampled_tx_bytes = dir.counters.tx_bytes;
                self.series.push(
                    t,
                    "link",
                    k as u32,
                    name,
                    "queue_packets",
                    dir.queue.len() as f64,
                );
                self.series.push(
                    t,
                    "link",
                    k as u32,
                    name,
                    "throughput_bps",
                    delta as f64 * 8.0 / dt,
                );
            }
        }
        self.wifi_sample(t);
        self.beacon_sample(t);
        for f in &mut self.flows {
            f.sample(t, &mut self.series);
        }
        if self.now < self.end {
            self.queue
                .push((self.now + interval).min(self.end), Event::Sample);
        }
    }
}

/// Load, build and run in one call (what the CLI and Python do).
pub fn run_scenario(
    scenario: LoadedScenario,
    seed: Option<u64>,
    opts: &RunOptions,
    observer: &mut dyn FnMut(Progress) -> bool,
) -> Result<RunResult, SimError> {
    Simulation::new(scenario, seed, opts)?.run(opts, observer)
}
