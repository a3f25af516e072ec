//! The simulation: builds the network from a checked scenario and drives it — the only place
//! that owns the clock and the event queue. Protocols and applications are sans-IO state
//! machines polled from here (DESIGN.md §1.1).

use crate::capture::Capture;
use crate::link::Offer;
use crate::packet::Packet;
use crate::results::{FlowResult, LinkResult, NetworkResult, RunResult, Summary, TimeSeries};
use crate::scenario::{AppKind, LoadedScenario, TransportKind};
use crate::topology::Topology;
use sctpsim_kernel::{EventQueue, FlowId, LinkId, NodeId, RunManifest, SeedTree, SimTime};
use sctpsim_proto::app::{CbrConfig, CbrSource, DatagramSink};
use sctpsim_wire::icmp::{icmp_error_datagram, IcmpError, Icmpv4Packet};
use sctpsim_wire::ipv4::{decrement_ttl_in_place, IpProtocol, Ipv4Packet};
use sctpsim_wire::udp::{udp_datagram, UdpPacket, UdpRepr};
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::time::Instant;

/// Initial TTL of originated packets: 64, the IANA-recommended default (RFC 1700, "IP TTL"),
/// also Linux's `ip_default_ttl`.
const DEFAULT_TTL: u8 = 64;

/// How often (in events) the wall clock is read to decide whether to report progress.
const PROGRESS_CHECK_EVERY: u64 = 4096;

#[derive(Debug)]
enum Event {
    /// An application may have something to send.
    App(FlowId),
    /// A link direction finished serialising a packet.
    TxDone(LinkId, u8),
    /// A packet reached the far end of a link direction.
    Arrive(LinkId, u8, Packet),
    /// Record the time series.
    Sample,
}

/// A flow at run time.
struct FlowRt {
    spec_index: usize,
    src: NodeId,
    dst: NodeId,
    src_addr: Ipv4Addr,
    dst_addr: Ipv4Addr,
    udp: UdpRepr,
    source: CbrSource,
    sink: DatagramSink,
    sampled_bytes: u64,
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
}

/// Why a run failed (not a scenario problem: those are caught before building).
#[derive(Debug)]
pub enum SimError {
    /// Writing captures failed.
    Io(std::io::Error),
}

impl core::fmt::Display for SimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SimError::Io(e) => write!(f, "writing captures: {e}"),
        }
    }
}

impl std::error::Error for SimError {}

/// A built simulation, ready to run once.
pub struct Simulation {
    scenario: LoadedScenario,
    seed: u64,
    topo: Topology,
    flows: Vec<FlowRt>,
    queue: EventQueue<Event>,
    now: SimTime,
    end: SimTime,
    events: u64,
    next_uid: u64,
    capture: Option<Capture>,
    series: TimeSeries,
    link_sampled_bytes: Vec<[u64; 2]>,
    /// Time each link direction has been busy so far (for utilisation), ns.
    link_busy_ns: Vec<[u64; 2]>,
}

impl Simulation {
    /// Build the network of a checked scenario. `seed` overrides `simulation.seed`.
    pub fn new(
        scenario: LoadedScenario,
        seed: Option<u64>,
        opts: &RunOptions,
    ) -> Result<Self, SimError> {
        let spec = &scenario.spec;
        let seed = seed.unwrap_or(spec.simulation.seed);
        let seeds = SeedTree::new(seed);
        let mut topo = Topology::build(spec, &seeds);
        let end = SimTime::ZERO + spec.simulation.duration.0;
        let mut flows = Vec::with_capacity(spec.flows.len());
        let index = |name: &str| {
            spec.node
                .iter()
                .position(|n| n.name == name)
                .map(|i| NodeId(i as u32))
        };
        for (i, f) in spec.flows.iter().enumerate() {
            // References were checked; a node without interfaces has no address and its flow
            // simply sends nothing (its packets are counted as no-route drops).
            let (Some(src), Some(dst)) = (index(&f.src), index(&f.dst)) else {
                continue;
            };
            let src_addr = topo.nodes[src.index()]
                .primary_addr()
                .unwrap_or(Ipv4Addr::UNSPECIFIED);
            let dst_addr = topo.nodes[dst.index()]
                .primary_addr()
                .unwrap_or(Ipv4Addr::UNSPECIFIED);
            let udp = UdpRepr {
                src_port: f.src_port.unwrap_or(49152u16.wrapping_add(i as u16)),
                dst_port: f.dst_port,
            };
            let stop = f.stop.map(|d| SimTime::ZERO + d.0).unwrap_or(end).min(end);
            let cfg = CbrConfig {
                rate: f.rate.map(|r| r.0).unwrap_or_default(),
                packet_size: f.packet_size_bytes as usize,
                start: SimTime::ZERO + f.start.0,
                stop,
                total_bytes: match f.app {
                    AppKind::File => f.size_bytes,
                    AppKind::Cbr => None,
                },
            };
            topo.nodes[dst.index()]
                .udp_sockets
                .insert((udp.dst_port, src_addr, udp.src_port), FlowId(i as u32));
            flows.push(FlowRt {
                spec_index: i,
                src,
                dst,
                src_addr,
                dst_addr,
                udp,
                source: CbrSource::new(cfg),
                sink: DatagramSink::new(),
                sampled_bytes: 0,
            });
        }
        let capture = match &opts.pcap_dir {
            Some(dir) => Some(Capture::open(dir, &topo).map_err(SimError::Io)?),
            None => None,
        };
        let nlinks = topo.links.len();
        let mut sim = Simulation {
            scenario,
            seed,
            topo,
            flows,
            queue: EventQueue::with_capacity(1024),
            now: SimTime::ZERO,
            end,
            events: 0,
            next_uid: 0,
            capture,
            series: TimeSeries::default(),
            link_sampled_bytes: vec![[0; 2]; nlinks],
            link_busy_ns: vec![[0; 2]; nlinks],
        };
        for i in 0..sim.flows.len() {
            if let Some(t) = sim.flows[i].source.poll_timeout() {
                sim.queue.push(t, Event::App(FlowId(i as u32)));
            }
        }
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
            Event::App(f) => self.wake_app(f),
            Event::TxDone(l, d) => {
                if let Some(next) = self.topo.links[l.index()].dirs[d as usize].tx_done() {
                    self.start_tx(l, d, next);
                }
            }
            Event::Arrive(l, d, pkt) => {
                let dir = &self.topo.links[l.index()].dirs[d as usize];
                let (node, iface) = (dir.to, dir.to_iface);
                if let Some(c) = &mut self.capture {
                    c.record(node, iface, self.now, &pkt.bytes);
                }
                self.ip_receive(node, pkt);
            }
            Event::Sample => self.sample(),
        }
    }

    fn wake_app(&mut self, f: FlowId) {
        let now = self.now;
        while let Some(payload) = self.flows[f.index()].source.poll_transmit(now) {
            let fl = &self.flows[f.index()];
            let src = fl.src;
            let node = &mut self.topo.nodes[src.index()];
            let ident = node.next_ip_id;
            node.next_ip_id = node.next_ip_id.wrapping_add(1);
            let bytes = udp_datagram(
                fl.src_addr,
                fl.dst_addr,
                DEFAULT_TTL,
                ident,
                &fl.udp,
                &payload,
            );
            let pkt = Packet {
                bytes,
                flow: Some(f),
                uid: self.next_uid,
            };
            self.next_uid += 1;
            let dst = fl.dst_addr;
            self.ip_output(src, dst, pkt);
        }
        if let Some(t) = self.flows[f.index()].source.poll_timeout() {
            self.queue.push(t, Event::App(f));
        }
    }

    /// Route a packet out of `node` (originated or forwarded).
    fn ip_output(&mut self, node: NodeId, dst: Ipv4Addr, pkt: Packet) {
        let Some(iface) = self.topo.route(node, dst) else {
            self.topo.nodes[node.index()].ip.no_route_drops += 1;
            return;
        };
        let i = &self.topo.nodes[node.index()].ifaces[iface as usize];
        let (link, d) = (i.link, i.tx_dir as u8);
        match self.topo.links[link.index()].dirs[d as usize].offer(pkt) {
            Offer::StartNow(p) => self.start_tx(link, d, p),
            Offer::Queued | Offer::Dropped => {}
        }
    }

    fn start_tx(&mut self, link: LinkId, d: u8, pkt: Packet) {
        let dir = &mut self.topo.links[link.index()].dirs[d as usize];
        let (tx, arrives) = dir.start_tx(&pkt);
        let from = dir.from;
        let delay = dir.delay;
        self.link_busy_ns[link.index()][d as usize] += tx.0;
        if let Some(c) = &mut self.capture {
            // The sending interface is the one whose link and direction match.
            let node = &self.topo.nodes[from.index()];
            if let Some(ix) = node
                .ifaces
                .iter()
                .position(|i| i.link == link && i.tx_dir == d as usize)
            {
                c.record(from, ix as u32, self.now, &pkt.bytes);
            }
        }
        self.queue.push(self.now + tx, Event::TxDone(link, d));
        if arrives {
            self.queue
                .push(self.now + tx + delay, Event::Arrive(link, d, pkt));
        }
    }

    fn send_icmp_error(&mut self, node: NodeId, kind: IcmpError, offending: &[u8]) {
        let n = &mut self.topo.nodes[node.index()];
        let Some(src) = n.primary_addr() else { return };
        let ident = n.next_ip_id;
        let Some(bytes) = icmp_error_datagram(kind, src, DEFAULT_TTL, ident, offending) else {
            return;
        };
        n.next_ip_id = n.next_ip_id.wrapping_add(1);
        n.ip.icmp_sent += 1;
        let dst = Ipv4Packet::new_unchecked(&bytes[..]).dst_addr();
        let pkt = Packet {
            bytes,
            flow: None,
            uid: self.next_uid,
        };
        self.next_uid += 1;
        self.ip_output(node, dst, pkt);
    }

    /// IP input: verify, then deliver locally or forward.
    fn ip_receive(&mut self, node: NodeId, mut pkt: Packet) {
        let (dst, src, proto) = match Ipv4Packet::new_checked(&pkt.bytes[..]) {
            Ok(ip) if ip.verify_checksum() => (ip.dst_addr(), ip.src_addr(), ip.protocol()),
            _ => {
                self.topo.nodes[node.index()].ip.malformed_drops += 1;
                return;
            }
        };
        if self.topo.nodes[node.index()].owns(dst) {
            self.deliver(node, src, dst, proto, pkt);
            return;
        }
        // RFC 1812 §5.3.1: decrement the TTL; if it reaches zero, discard and send Time
        // Exceeded.
        match decrement_ttl_in_place(&mut pkt.bytes) {
            Ok(0) => {
                self.topo.nodes[node.index()].ip.ttl_drops += 1;
                self.send_icmp_error(node, IcmpError::TtlExceeded, &pkt.bytes);
            }
            Ok(_) => {
                if self.topo.route(node, dst).is_none() {
                    self.topo.nodes[node.index()].ip.no_route_drops += 1;
                    self.send_icmp_error(node, IcmpError::NetUnreachable, &pkt.bytes);
                } else {
                    self.topo.nodes[node.index()].ip.forwarded += 1;
                    self.ip_output(node, dst, pkt);
                }
            }
            Err(_) => self.topo.nodes[node.index()].ip.malformed_drops += 1,
        }
    }

    fn deliver(
        &mut self,
        node: NodeId,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        proto: IpProtocol,
        pkt: Packet,
    ) {
        let now = self.now;
        let Ok(ip) = Ipv4Packet::new_checked(&pkt.bytes[..]) else {
            return;
        };
        match proto {
            IpProtocol::Udp => {
                let Ok(udp) = UdpPacket::new_checked(ip.payload()) else {
                    self.topo.nodes[node.index()].ip.malformed_drops += 1;
                    return;
                };
                let Ok(repr) = UdpRepr::parse(&udp, src, dst) else {
                    self.topo.nodes[node.index()].ip.malformed_drops += 1;
                    return;
                };
                let key = (repr.dst_port, src, repr.src_port);
                match self.topo.nodes[node.index()].udp_sockets.get(&key) {
                    Some(f) => self.flows[f.index()]
                        .sink
                        .handle_datagram(now, udp.payload()),
                    None => {
                        self.topo.nodes[node.index()].ip.port_unreachable += 1;
                        let bytes = pkt.bytes.clone();
                        self.send_icmp_error(node, IcmpError::PortUnreachable, &bytes);
                    }
                }
            }
            IpProtocol::Icmp => {
                let ok = Icmpv4Packet::new_checked(ip.payload())
                    .map(|p| p.verify_checksum())
                    .unwrap_or(false);
                let n = &mut self.topo.nodes[node.index()].ip;
                if ok {
                    n.icmp_received += 1;
                } else {
                    n.malformed_drops += 1;
                }
            }
            _ => {
                self.topo.nodes[node.index()].ip.malformed_drops += 1;
            }
        }
    }

    fn sample(&mut self) {
        let interval = self.scenario.spec.simulation.sample_interval.0;
        let t = self.now.as_secs_f64();
        let dt = interval.as_secs_f64();
        for (i, f) in self.flows.iter_mut().enumerate() {
            let bytes = f.sink.stats().bytes;
            let delta = bytes - f.sampled_bytes;
            f.sampled_bytes = bytes;
            self.series.push(
                t,
                "flow",
                i as u32,
                "",
                "goodput_bps",
                delta as f64 * 8.0 / dt,
            );
            self.series
                .push(t, "flow", i as u32, "", "bytes_delivered", bytes as f64);
        }
        for (k, link) in self.topo.links.iter().enumerate() {
            for d in 0..2 {
                let dir = &link.dirs[d];
                let name = if d == 0 { "fwd" } else { "rev" };
                let delta = dir.counters.tx_bytes - self.link_sampled_bytes[k][d];
                self.link_sampled_bytes[k][d] = dir.counters.tx_bytes;
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
        if self.now < self.end {
            self.queue
                .push((self.now + interval).min(self.end), Event::Sample);
        }
    }

    fn finish(self, wall_s: f64, interrupted: bool) -> Result<RunResult, SimError> {
        let spec = &self.scenario.spec;
        let end_s = self.now.as_secs_f64();
        let mut flows = Vec::new();
        let (mut sent_total, mut delivered_total) = (0u64, 0u64);
        for f in &self.flows {
            let fs = &spec.flows[f.spec_index];
            let st = f.sink.stats();
            let cfg = f.source.config();
            let active = cfg
                .stop
                .min(self.now)
                .saturating_since(cfg.start)
                .as_secs_f64();
            let sent = f.source.packets_sent();
            sent_total += sent;
            delivered_total += st.packets;
            flows.push(FlowResult {
                id: f.spec_index as u32,
                transport: match fs.transport {
                    TransportKind::Udp => "udp".into(),
                },
                app: match fs.app {
                    AppKind::Cbr => "cbr".into(),
                    AppKind::File => "file".into(),
                },
                src: self.topo.nodes[f.src.index()].name.clone(),
                dst: self.topo.nodes[f.dst.index()].name.clone(),
                bytes_sent: f.source.bytes_sent(),
                bytes_delivered: st.bytes,
                goodput_bps: if active > 0.0 {
                    st.bytes as f64 * 8.0 / active
                } else {
                    0.0
                },
                packets_sent: sent,
                packets_delivered: st.packets,
                delivered_fraction: if sent > 0 {
                    st.packets as f64 / sent as f64
                } else {
                    0.0
                },
                retransmissions: 0,
                fast_retransmits: 0,
                timeouts: 0,
                mean_rtt_s: None,
                mean_delay_s: f.sink.mean_delay_s(),
                reordered: st.reordered,
            });
        }
        let mut links = Vec::new();
        let mut net = NetworkResult {
            pdf: if sent_total > 0 {
                delivered_total as f64 / sent_total as f64
            } else {
                0.0
            },
            routing_packets: 0,
            routing_bytes: 0,
            mac_drops: 0,
            queue_drops: 0,
            loss_drops: 0,
            scripted_drops: 0,
            ttl_drops: 0,
            no_route_drops: 0,
            malformed_drops: 0,
            icmp_sent: 0,
        };
        for (k, link) in self.topo.links.iter().enumerate() {
            for (d, dir) in link.dirs.iter().enumerate() {
                let c = &dir.counters;
                net.queue_drops += c.queue_drops;
                net.loss_drops += c.loss_drops;
                net.scripted_drops += c.scripted_drops;
                let busy = self.link_busy_ns[k][d] as f64 / 1e9;
                links.push(LinkResult {
                    id: k as u32,
                    dir: if d == 0 { "fwd".into() } else { "rev".into() },
                    from: self.topo.nodes[dir.from.index()].name.clone(),
                    to: self.topo.nodes[dir.to.index()].name.clone(),
                    tx_packets: c.tx_packets,
                    tx_bytes: c.tx_bytes,
                    queue_drops: c.queue_drops,
                    loss_drops: c.loss_drops,
                    scripted_drops: c.scripted_drops,
                    utilization: if end_s > 0.0 {
                        (busy / end_s).min(1.0)
                    } else {
                        0.0
                    },
                });
            }
        }
        for n in &self.topo.nodes {
            net.ttl_drops += n.ip.ttl_drops;
            net.no_route_drops += n.ip.no_route_drops;
            net.malformed_drops += n.ip.malformed_drops;
            net.icmp_sent += n.ip.icmp_sent;
        }
        let summary = Summary {
            name: spec.simulation.name.clone(),
            seed: self.seed,
            sim_time_s: end_s,
            wall_time_s: wall_s,
            events: self.events,
            interrupted,
            flows,
            links,
            network: net,
        };
        let manifest = RunManifest {
            version: env!("CARGO_PKG_VERSION").to_string(),
            scenario_hash: self.scenario.hash(),
            seed: self.seed,
            sim_time_s: end_s,
            events: self.events,
            wall_time_s: wall_s,
            interrupted,
        };
        let pcap_files = match self.capture {
            Some(c) => c.finish().map_err(SimError::Io)?,
            None => Vec::new(),
        };
        Ok(RunResult {
            summary,
            timeseries: self.series,
            manifest,
            pcap_files,
        })
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
