//! Driving SCTP associations (sans-IO, `sctpsim_proto::transport::sctp`): build both ends of a
//! flow, start the association, feed received packets and timer wake-ups, send what the
//! association produces, run the applications (`sctp_app.rs`), and turn the association's
//! notifications and metric stream into time-series rows and result rows.
//!
//! Each side of a flow is an [`SctpEndpoint`], which holds the side's association (the
//! client's from `connect`, the server's from the COOKIE ECHO) and decides whether a packet is
//! the association's or its own to answer. Packets reach the side by (local port, remote
//! address, remote port) — one entry per address of the multi-homed peer — and go to
//! [`SctpEndpoint::handle_datagram`] as bytes.
//!
//! Multi-homing: an association lists every address of its node (or `sctp.local_addresses`)
//! and sends to every address of the peer (or `sctp.peer_addresses`, the first being the
//! primary). The source address of each destination is pinned to the address of the interface
//! the static route to that destination leaves by, so a packet's source always belongs to the
//! link it leaves on and the peer's replies come back over the same path.
//!
//! Timers: as for TCP, each side remembers its earliest queued wake-up; stale wake-ups are
//! no-ops (DESIGN.md §1.1).

use super::flows::{Endpoints, FlowRt};
use super::sctp_app::{quantile_s, source_config};
use super::{Event, Simulation, DEFAULT_TTL};
use crate::drop::DropReason;
use crate::results::{FlowResult, PathResult, SctpResult, StreamResult, TimeSeries};
use crate::scenario::{
    AppKind, AsconfActionKind, AsconfActionSpec, FlowSide, FlowSpec, SctpProfileKind,
};
use crate::topology::Topology;
use sctpsim_kernel::{FlowId, NodeId, SeedTree, SimTime, StreamKey};
use sctpsim_proto::app::{MessageSink, MessageSource};
use sctpsim_proto::transport::sctp::{
    AsconfRequestKind, AssocHandle, DatagramEvent, MetricKind, PathState, RtxCause,
    SctpAssociation, SctpConfig, SctpEndpoint, SctpEvent, SctpStats, State,
};
use sctpsim_wire::sctp::{chunk_type, ChunkRepr, SctpPacket, SctpRepr};
use std::net::Ipv4Addr;

/// Default SCTP destination port: 5001, iperf's (which also uses it for SCTP), so captures
/// dissect the payload as plain data.
pub(super) const DEFAULT_SCTP_PORT: u16 = 5001;
/// Side index of the sending client (at the flow's `src`).
const CLIENT: usize = 0;
/// Side index of the receiving server (at the flow's `dst`).
const SERVER: usize = 1;

/// One end of an SCTP flow.
pub(super) struct SctpSide {
    /// The node it runs on.
    pub node: NodeId,
    /// The endpoint: it holds the association and answers INITs and out-of-the-blue packets.
    pub endpoint: SctpEndpoint,
    /// The side's association in `endpoint`, once connected (client) or accepted (server).
    /// A newer one (a second COOKIE ECHO after the first association closed) replaces it and
    /// the old one is removed from the endpoint, so the endpoint holds at most this one.
    pub handle: Option<AssocHandle>,
    /// Earliest wake-up queued for it.
    pub wake: Option<SimTime>,
    /// Packets for it that failed the SCTP checks (CRC32c, structure).
    pub malformed: u64,
}

impl SctpSide {
    /// The side's association, once it exists.
    pub fn assoc(&self) -> Option<&SctpAssociation> {
        self.handle.and_then(|h| self.endpoint.assoc(h))
    }

    /// The side's association, for commands and polling.
    pub fn assoc_mut(&mut self) -> Option<&mut SctpAssociation> {
        self.handle.and_then(|h| self.endpoint.assoc_mut(h))
    }

    /// Makes `h` the side's association, forgetting the one it replaces.
    fn adopt(&mut self, h: AssocHandle) {
        if let Some(old) = self.handle.replace(h) {
            self.endpoint.remove(old);
        }
    }
}

/// An SCTP flow: the client association at `src` (side 0) with the sending application, the
/// server at `dst` (side 1) with the sink.
pub(super) struct SctpFlow {
    pub ep: Endpoints,
    pub profile: SctpProfileKind,
    pub sides: [SctpSide; 2],
    /// The client's addresses (the route source towards the primary first).
    pub local_addrs: Vec<Ipv4Addr>,
    /// The server's addresses, primary first.
    pub peer_addrs: Vec<Ipv4Addr>,
    pub source: MessageSource,
    pub sink: MessageSink,
    /// `file`: shut the association down once the whole file is handed over.
    pub shutdown_when_done: bool,
    pub shutdown_sent: bool,
    pub started: bool,
    /// Earliest application wake-up queued (paced messages).
    pub app_wake: Option<SimTime>,
    /// Packets with DATA chunks the client sent (retransmissions included).
    pub data_packets_sent: u64,
    /// Packets with DATA chunks that reached the server (duplicates included).
    pub data_packets_received: u64,
    /// `sctp.asconf`: the ASCONF actions, in time order.
    pub asconf: Vec<AsconfActionSpec>,
    /// The first action not yet applied.
    pub asconf_next: usize,
}

impl SctpFlow {
    /// When the application starts.
    pub fn first_wake(&self) -> SimTime {
        self.source.config().start
    }

    /// Payload bytes delivered to the sink.
    pub fn bytes_delivered(&self) -> u64 {
        self.sink.stats().bytes
    }

    /// End of the active period for goodput: `stop` (messages) or the end of the run.
    pub fn active_end(&self, end: SimTime) -> SimTime {
        self.source.config().stop.unwrap_or(end).min(end)
    }

    /// The addresses side `side` may add during the run (`add-ip` actions): packets from them
    /// must reach the flow too.
    pub fn asconf_added(&self, side: FlowSide) -> impl Iterator<Item = Ipv4Addr> + '_ {
        self.asconf
            .iter()
            .filter(move |a| a.side == side && a.action == AsconfActionKind::AddIp)
            .map(|a| a.address)
    }

    /// The client's Initial TSN (for TSN rows relative to the first DATA chunk).
    fn initial_tsn(&self) -> u32 {
        self.sides[CLIENT].assoc().map_or(0, |a| a.initial_tsn().0)
    }
}

/// The SCTP configuration a flow asks for: its profile, then its overrides. `link_mtu` is the
/// smallest link MTU (the default path MTU).
pub(super) fn sctp_config(f: &FlowSpec, link_mtu: usize) -> SctpConfig {
    let spec = f.sctp.clone().unwrap_or_default();
    let mut c = match spec.profile {
        SctpProfileKind::Rfc9260 => SctpConfig::rfc9260(),
        SctpProfileKind::Rfc2960 => SctpConfig::rfc2960(),
    };
    if let Some(v) = spec.initial_rto {
        c.rto_initial = v.0;
    }
    if let Some(v) = spec.min_rto {
        c.rto_min = v.0;
    }
    if let Some(v) = spec.max_rto {
        c.rto_max = v.0;
    }
    if let Some(v) = spec.hb_interval {
        c.hb_interval = v.0;
    }
    if let Some(v) = spec.heartbeats {
        c.heartbeats = v;
    }
    if let Some(v) = spec.path_max_retrans {
        c.path_max_retrans = v;
    }
    if let Some(v) = spec.association_max_retrans {
        c.association_max_retrans = v;
    }
    if let Some(v) = spec.delayed_sack {
        c.delayed_sack = v;
    }
    if let Some(v) = spec.delayed_sack_timeout {
        c.sack_delay = v.0;
    }
    if let Some(v) = spec.sack_frequency {
        c.sack_freq = v;
    }
    if let Some(v) = spec.max_burst {
        c.max_burst = v;
    }
    if let Some(v) = spec.max_gap_blocks {
        c.max_gap_blocks = Some(v);
    }
    if let Some(v) = spec.fast_rtx_threshold {
        c.fast_rtx_threshold = v;
    }
    if let Some(v) = spec.initial_cwnd_bytes {
        c.initial_cwnd_bytes = Some(v);
    }
    if let Some(v) = spec.initial_ssthresh_bytes {
        c.initial_ssthresh = Some(v);
    }
    let app_streams = match (f.app, &f.messages) {
        (AppKind::Messages, Some(m)) => m.streams,
        _ => 1,
    };
    c.outbound_streams = spec.streams.unwrap_or(c.outbound_streams.max(app_streams));
    if let Some(v) = spec.return_to_primary {
        c.return_to_primary = v;
    }
    c.pmtu = spec
        .mtu_bytes
        .unwrap_or(u16::try_from(link_mtu).unwrap_or(u16::MAX));
    if let Some(v) = spec.chunk_bytes {
        c.max_fragment = Some(v);
    }
    if let Some(v) = spec.recv_buffer_bytes {
        c.recv_buffer = v;
    }
    if let Some(v) = spec.send_buffer_bytes {
        c.send_buffer = v as usize;
    }
    if let Some(v) = spec.pr_sctp {
        c.pr_sctp = v;
    }
    c.metrics = true;
    c
}

/// The addresses of `node` a flow uses: `wanted` (those the node owns, in order) or all of
/// them in interface order.
fn addresses(topo: &Topology, node: NodeId, wanted: Option<&Vec<Ipv4Addr>>) -> Vec<Ipv4Addr> {
    let n = &topo.nodes[node.index()];
    let mut out: Vec<Ipv4Addr> = match wanted {
        Some(list) => list.iter().copied().filter(|a| n.owns(*a)).collect(),
        None => n.ifaces.iter().map(|i| i.addr).collect(),
    };
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|a| seen.insert(*a));
    out
}

/// The source address `node` uses towards `dst`: the address of the interface its route
/// leaves by.
fn route_source(topo: &Topology, node: NodeId, dst: Ipv4Addr) -> Option<Ipv4Addr> {
    let k = topo.route(node, dst)?;
    topo.nodes[node.index()]
        .ifaces
        .get(k as usize)
        .map(|i| i.addr)
}

/// Build SCTP flow `i`. `mtu` is the smallest link MTU.
pub(super) fn build_sctp_flow(
    i: usize,
    f: &FlowSpec,
    ep_nodes: (NodeId, NodeId),
    topo: &Topology,
    mtu: usize,
    seeds: &SeedTree,
) -> SctpFlow {
    let (src, dst) = ep_nodes;
    let spec = f.sctp.clone().unwrap_or_default();
    let mut local = addresses(topo, src, spec.local_addresses.as_ref());
    let peer = addresses(topo, dst, spec.peer_addresses.as_ref());
    // The INIT leaves from the first local address towards the primary: make that the address
    // of the interface the route to the primary uses.
    if let Some(s) = peer.first().and_then(|p| route_source(topo, src, *p)) {
        if let Some(k) = local.iter().position(|a| *a == s) {
            local[..=k].rotate_right(1);
        }
    }
    let ep = Endpoints {
        spec_index: i,
        src,
        dst,
        src_addr: local.first().copied().unwrap_or(Ipv4Addr::UNSPECIFIED),
        dst_addr: peer.first().copied().unwrap_or(Ipv4Addr::UNSPECIFIED),
        src_port: f
            .src_port
            .unwrap_or(super::flows::EPHEMERAL_BASE.wrapping_add(i as u16)),
        dst_port: f.dst_port.unwrap_or(DEFAULT_SCTP_PORT),
    };
    let cfg = sctp_config(f, mtu);
    let rng = |side: u64| seeds.stream(&StreamKey::new("sctp-endpoint").with(i as u64).with(side));
    let client = SctpEndpoint::new(cfg.clone(), ep.src_port, local.clone(), rng(0));
    let mut server = SctpEndpoint::new(cfg.clone(), ep.dst_port, peer.clone(), rng(1));
    server.listen(true);
    let source_cfg = source_config(f, &cfg);
    let sink_streams = source_cfg.streams;
    let side = |node: NodeId, endpoint: SctpEndpoint| SctpSide {
        node,
        endpoint,
        handle: None,
        wake: None,
        malformed: 0,
    };
    SctpFlow {
        ep,
        profile: spec.profile,
        sides: [side(src, client), side(dst, server)],
        local_addrs: local,
        peer_addrs: peer,
        source: MessageSource::new(source_cfg),
        sink: MessageSink::new(sink_streams),
        shutdown_when_done: f.app == AppKind::File,
        shutdown_sent: false,
        started: false,
        app_wake: None,
        data_packets_sent: 0,
        data_packets_received: 0,
        asconf: spec.asconf.clone(),
        asconf_next: 0,
    }
}

/// Whether a packet with these chunks carries user data.
fn has_data(chunks: &[ChunkRepr]) -> bool {
    chunks.iter().any(|c| matches!(c, ChunkRepr::Data(_)))
}

/// Whether the SCTP packet `sctp` (already accepted by the endpoint) carries user data: a look
/// at the chunk headers, without parsing the chunks again.
fn carries_data(sctp: &[u8]) -> bool {
    SctpPacket::new_checked(sctp).is_ok_and(|p| {
        p.chunks()
            .any(|c| c.is_ok_and(|c| c.kind() == chunk_type::DATA))
    })
}

/// `tsn` as an ordinal: 1 is the first DATA chunk (Initial TSN).
fn rel_tsn(tsn: u32, initial: u32) -> f64 {
    f64::from(tsn.wrapping_sub(initial)) + 1.0
}

/// The time-series metric of an ASCONF request's outcome.
fn asconf_metric(kind: AsconfRequestKind) -> &'static str {
    match kind {
        AsconfRequestKind::AddIp => "asconf_add_ip",
        AsconfRequestKind::DeleteIp => "asconf_delete_ip",
        AsconfRequestKind::SetPrimary => "asconf_set_primary",
    }
}

/// What the rows of one pump need to know.
struct PumpCtx<'a> {
    id: u32,
    side: usize,
    now: SimTime,
    initial: u32,
    peer_addrs: &'a [Ipv4Addr],
    asconf: &'a [AsconfActionSpec],
}

impl PumpCtx<'_> {
    /// A notification: path state rows, abandoned messages, ASCONF outcomes. Returns whether
    /// the association learned a new peer address or confirmed a new address of its own
    /// (sources must be pinned again).
    fn event(&self, series: &mut TimeSeries, source: &mut MessageSource, ev: SctpEvent) -> bool {
        let (t, id) = (self.now.as_secs_f64(), self.id);
        match ev {
            SctpEvent::PathDown { addr } if self.side == CLIENT => {
                series.push_owned(t, "flow", id, addr.to_string(), "path_active", 0.0);
            }
            SctpEvent::PathUp { addr } if self.side == CLIENT => {
                series.push_owned(t, "flow", id, addr.to_string(), "path_active", 1.0);
            }
            SctpEvent::SendFailed { stream, .. } if self.side == CLIENT => {
                source.abandoned(stream);
            }
            SctpEvent::PathAdded { .. } => return true,
            SctpEvent::AsconfResult {
                kind,
                addr,
                success,
            } => {
                let v = if success { 1.0 } else { 0.0 };
                series.push_owned(t, "flow", id, addr.to_string(), asconf_metric(kind), v);
                // A confirmed new address of ours can now be a source: pin again.
                return success && kind == AsconfRequestKind::AddIp;
            }
            _ => {}
        }
        false
    }

    /// A metric sample: TSN-vs-time, per-path cwnd/ssthresh/RTT, path switches (sender);
    /// SACKs with gap blocks (receiver).
    fn metric(&self, series: &mut TimeSeries, time: SimTime, kind: MetricKind) {
        let (t, id) = (time.as_secs_f64(), self.id);
        match (self.side, kind) {
            (
                CLIENT,
                MetricKind::TsnSent {
                    tsn,
                    path,
                    retransmission,
                },
            ) => {
                let metric = match retransmission {
                    None => "tsn_sent",
                    Some(RtxCause::Fast) => "tsn_fast_rtx",
                    Some(RtxCause::T3) => "tsn_t3_rtx",
                };
                let v = rel_tsn(tsn.0, self.initial);
                series.push_owned(t, "flow", id, path.to_string(), metric, v);
            }
            (CLIENT, MetricKind::TsnAcked { tsn }) => {
                series.push(t, "flow", id, "", "tsn_acked", rel_tsn(tsn.0, self.initial));
            }
            (
                CLIENT,
                MetricKind::Cwnd {
                    path,
                    cwnd,
                    ssthresh,
                },
            ) => {
                let p = path.to_string();
                series.push_owned(t, "flow", id, p.clone(), "cwnd_bytes", cwnd.into());
                series.push_owned(t, "flow", id, p, "ssthresh_bytes", ssthresh.into());
            }
            (CLIENT, MetricKind::Rtt { path, rtt, rto }) => {
                let p = path.to_string();
                series.push_owned(t, "flow", id, p.clone(), "rtt_s", rtt.as_secs_f64());
                series.push_owned(t, "flow", id, p, "rto_s", rto.as_secs_f64());
            }
            (CLIENT, MetricKind::PathSwitch { to, .. }) => {
                // Addresses the server adds by ASCONF follow `peer_addresses`.
                let added = self
                    .asconf
                    .iter()
                    .filter(|a| a.side == FlowSide::Dst && a.action == AsconfActionKind::AddIp);
                let k = self
                    .peer_addrs
                    .iter()
                    .copied()
                    .chain(added.map(|a| a.address))
                    .position(|p| p == to)
                    .unwrap_or(0);
                series.push_owned(t, "flow", id, to.to_string(), "path_switch", k as f64);
            }
            (SERVER, MetricKind::SackSent { gap_blocks, .. }) if gap_blocks > 0 => {
                series.push(t, "flow", id, "", "sack_gap_blocks", gap_blocks.into());
            }
            _ => {}
        }
    }
}

impl Simulation {
    /// The application's wake-up: at `start` the client connects; paced messages fall due.
    pub(super) fn sctp_app(&mut self, f: FlowId) {
        let now = self.now;
        let FlowRt::Sctp(s) = &mut self.flows[f.index()] else {
            return;
        };
        if s.app_wake == Some(now) {
            s.app_wake = None;
        }
        if !s.started {
            if now < s.source.config().start {
                return;
            }
            s.started = true;
            if s.local_addrs.is_empty() || s.peer_addrs.is_empty() {
                // A node without addresses cannot take part (its flow sends nothing).
                return;
            }
            let peer = s.peer_addrs.clone();
            let port = s.ep.dst_port;
            let client = &mut s.sides[CLIENT];
            let h = client.endpoint.connect(now, &peer, port);
            client.adopt(h);
            // Wake-ups for the ASCONF actions (a stale or early wake-up is a no-op).
            for a in &s.asconf {
                self.queue.push(SimTime::ZERO + a.at.0, Event::App(f));
            }
            self.sctp_pin_sources(f, CLIENT);
        }
        self.sctp_asconf_due(f);
        self.sctp_pump(f, CLIENT);
    }

    /// Apply the ASCONF actions that are due: the side's association is asked to add or
    /// delete an address or to request the peer's primary (RFC 5061 §4.2). A request the
    /// association refuses at once (not established, unknown or last address) gives a 0 row
    /// of the action's metric, like a request the peer refuses.
    fn sctp_asconf_due(&mut self, f: FlowId) {
        let now = self.now;
        let mut touched = [false; 2];
        if let FlowRt::Sctp(s) = &mut self.flows[f.index()] {
            let id = s.ep.spec_index as u32;
            while let Some(act) = s.asconf.get(s.asconf_next).cloned() {
                if SimTime::ZERO + act.at.0 > now {
                    break;
                }
                s.asconf_next += 1;
                let side = match act.side {
                    FlowSide::Src => CLIENT,
                    FlowSide::Dst => SERVER,
                };
                let (kind, res) = match s.sides[side].assoc_mut() {
                    Some(a) => match act.action {
                        AsconfActionKind::AddIp => (
                            AsconfRequestKind::AddIp,
                            a.add_local_address(now, act.address).is_ok(),
                        ),
                        AsconfActionKind::DeleteIp => (
                            AsconfRequestKind::DeleteIp,
                            a.delete_local_address(now, act.address).is_ok(),
                        ),
                        AsconfActionKind::SetPrimary => (
                            AsconfRequestKind::SetPrimary,
                            a.request_peer_primary(now, act.address).is_ok(),
                        ),
                    },
                    None => (
                        match act.action {
                            AsconfActionKind::AddIp => AsconfRequestKind::AddIp,
                            AsconfActionKind::DeleteIp => AsconfRequestKind::DeleteIp,
                            AsconfActionKind::SetPrimary => AsconfRequestKind::SetPrimary,
                        },
                        false,
                    ),
                };
                if !res {
                    let t = now.as_secs_f64();
                    let dir = act.address.to_string();
                    self.series
                        .push_owned(t, "flow", id, dir, asconf_metric(kind), 0.0);
                }
                touched[side] = true;
            }
        }
        if touched[SERVER] {
            self.sctp_pump(f, SERVER);
        }
    }

    /// An SCTP packet (`bytes`: the IP payload) for side `side` of flow `f`.
    pub(super) fn sctp_input(
        &mut self,
        f: FlowId,
        side: usize,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        bytes: &[u8],
    ) {
        let now = self.now;
        let FlowRt::Sctp(s) = &mut self.flows[f.index()] else {
            return;
        };
        let sd = &mut s.sides[side];
        let Ok(event) = sd.endpoint.handle_datagram(now, src, dst, bytes) else {
            // RFC 9260 §6.8: a packet with a bad CRC32c is silently discarded.
            sd.malformed += 1;
            return;
        };
        let created = match event {
            Some(DatagramEvent::NewAssociation(h)) => {
                sd.adopt(h);
                true
            }
            _ => false,
        };
        if side == SERVER && carries_data(bytes) {
            s.data_packets_received += 1;
        }
        if created {
            self.sctp_pin_sources(f, side);
        }
        self.sctp_pump(f, side);
    }

    /// A wake-up for side `side` of flow `f`.
    pub(super) fn sctp_timer(&mut self, f: FlowId, side: usize) {
        let now = self.now;
        let FlowRt::Sctp(s) = &mut self.flows[f.index()] else {
            return;
        };
        let sd = &mut s.sides[side];
        if sd.wake == Some(now) {
            sd.wake = None;
        }
        if let Some(a) = sd.assoc_mut() {
            a.handle_timeout(now);
        }
        self.sctp_pump(f, side);
    }

    /// Pin the source address of every destination of side `side` to the address of the
    /// interface the route to that destination leaves by.
    fn sctp_pin_sources(&mut self, f: FlowId, side: usize) {
        let topo = &self.topo;
        let FlowRt::Sctp(s) = &mut self.flows[f.index()] else {
            return;
        };
        let sd = &mut s.sides[side];
        let node = sd.node;
        let Some(a) = sd.assoc_mut() else {
            return;
        };
        for p in a.peer_addrs() {
            if let Some(local) = route_source(topo, node, p) {
                if a.local_addrs().contains(&local) {
                    // Cannot fail: both addresses belong to the association.
                    let _ = a.set_source_address(p, local);
                }
            }
        }
    }

    /// Run the applications, send everything side `side` has, turn its notifications and
    /// metric samples into rows and queue its next wake-up.
    fn sctp_pump(&mut self, f: FlowId, side: usize) {
        let now = self.now;
        let mut out = Vec::new();
        let mut pin = false;
        if let FlowRt::Sctp(s) = &mut self.flows[f.index()] {
            let initial = s.initial_tsn();
            let SctpFlow {
                ep,
                sides,
                peer_addrs,
                asconf,
                source,
                sink,
                shutdown_when_done,
                shutdown_sent,
                app_wake,
                data_packets_sent,
                ..
            } = &mut **s;
            let SctpSide {
                endpoint,
                handle,
                wake,
                ..
            } = &mut sides[side];
            if let Some(a) = handle.and_then(|h| endpoint.assoc_mut(h)) {
                let ctx = PumpCtx {
                    id: ep.spec_index as u32,
                    side,
                    now,
                    initial,
                    peer_addrs,
                    asconf,
                };
                if side == CLIENT {
                    let next = source.fill(now, a);
                    if source.is_finished()
                        && *shutdown_when_done
                        && !*shutdown_sent
                        && a.state() == State::Established
                    {
                        a.shutdown(now);
                        *shutdown_sent = true;
                    }
                    if let Some(t) = next.filter(|t| *t > now) {
                        if app_wake.is_none_or(|w| t < w) {
                            *app_wake = Some(t);
                            self.queue.push(t, Event::App(f));
                        }
                    }
                }
                while let Some(m) = a.recv() {
                    if side == SERVER {
                        sink.deliver(now, &m);
                    }
                }
                while let Some(t) = a.poll_transmit(now) {
                    if side == CLIENT && has_data(&t.packet.chunks) {
                        *data_packets_sent += 1;
                    }
                    out.push(t);
                }
                while let Some(ev) = a.poll_event() {
                    pin |= ctx.event(&mut self.series, source, ev);
                }
                while let Some(m) = a.poll_metric() {
                    ctx.metric(&mut self.series, m.time, m.kind);
                }
                if let Some(deadline) = a.poll_timeout() {
                    let deadline = deadline.max(now);
                    if wake.is_none_or(|w| deadline < w) {
                        *wake = Some(deadline);
                        self.queue.push(deadline, Event::SctpTimer(f, side as u8));
                    }
                }
            }
            // The endpoint's own answers (INIT ACK, ABORT, ...).
            while let Some(t) = endpoint.poll_transmit() {
                out.push(t);
            }
        }
        if pin {
            self.sctp_pin_sources(f, side);
        }
        self.sctp_send(f, side, out);
    }

    /// Put packets of side `side` of flow `f` on the network.
    fn sctp_send(
        &mut self,
        f: FlowId,
        side: usize,
        out: Vec<sctpsim_proto::transport::sctp::Transmit>,
    ) {
        let FlowRt::Sctp(s) = &self.flows[f.index()] else {
            return;
        };
        let node = s.sides[side].node;
        for t in out {
            let ident = self.next_ip_id(node);
            // Packets built by the association always encode (`Transmit::to_bytes`).
            let Ok(bytes) = t.to_bytes(DEFAULT_TTL, ident) else {
                continue;
            };
            let pkt = self.new_packet(bytes, Some(f));
            self.ip_output(node, t.dst, pkt);
        }
    }

    /// A lost packet of an SCTP flow: a `dropped_tsn` row (dir: the drop reason) for every
    /// DATA chunk the client had put in it; how many rows.
    pub(super) fn sctp_note_drop(
        &mut self,
        f: FlowId,
        src: Ipv4Addr,
        reason: DropReason,
        bytes: &[u8],
    ) -> u64 {
        let FlowRt::Sctp(s) = &self.flows[f.index()] else {
            return 0;
        };
        if !s.local_addrs.contains(&src) && !s.asconf_added(FlowSide::Src).any(|a| a == src) {
            return 0;
        }
        let Ok(pkt) = SctpPacket::new_checked(bytes).and_then(|p| SctpRepr::parse(&p)) else {
            return 0;
        };
        let (id, initial) = (s.ep.spec_index as u32, s.initial_tsn());
        let t = self.now.as_secs_f64();
        let mut rows = 0;
        for c in &pkt.chunks {
            if let ChunkRepr::Data(d) = c {
                let v = rel_tsn(d.tsn.0, initial);
                self.series
                    .push(t, "flow", id, reason.name(), "dropped_tsn", v);
                rows += 1;
            }
        }
        rows
    }

    /// Per-stream delivery delay rows of the interval that ends now (`message_delay_s`, dir
    /// `stream<k>`), for streams that delivered something in it.
    pub(super) fn sctp_sample(&mut self, t: f64) {
        for flow in &mut self.flows {
            let FlowRt::Sctp(s) = flow else { continue };
            let id = s.ep.spec_index as u32;
            for (stream, sum, n) in s.sink.take_intervals() {
                if n > 0 {
                    let mean = sum as f64 / n as f64 / 1e9;
                    self.series.push_owned(
                        t,
                        "flow",
                        id,
                        format!("stream{stream}"),
                        "message_delay_s",
                        mean,
                    );
                }
            }
        }
    }

    /// The flow row of an SCTP flow (`base` carries the common fields).
    pub(super) fn sctp_flow_result(s: &SctpFlow, base: FlowResult) -> FlowResult {
        let empty = SctpStats::default();
        let cs = s.sides[CLIENT].assoc().map_or(&empty, |a| a.stats());
        FlowResult {
            bytes_sent: cs.data_bytes_sent,
            bytes_delivered: s.sink.stats().bytes,
            packets_sent: s.data_packets_sent,
            packets_delivered: s.data_packets_received,
            retransmissions: cs.fast_retransmissions + cs.t3_retransmissions,
            fast_retransmits: cs.fast_retransmit_events,
            timeouts: cs.t3_timeouts,
            mean_rtt_s: (cs.rtt_samples > 0)
                .then(|| cs.rtt_sum_ns as f64 / cs.rtt_samples as f64 / 1e9),
            mean_delay_s: s.sink.mean_delay_s(),
            reordered: s.sink.stats().reordered,
            ..base
        }
    }

    /// The `sctp`, `paths` and `streams` rows of every SCTP flow; adds malformed packets to
    /// `malformed`.
    pub(super) fn sctp_results(
        &self,
        malformed: &mut u64,
    ) -> (Vec<SctpResult>, Vec<PathResult>, Vec<StreamResult>) {
        let (mut assocs, mut paths, mut streams) = (Vec::new(), Vec::new(), Vec::new());
        for flow in &self.flows {
            let FlowRt::Sctp(s) = flow else { continue };
            let id = s.ep.spec_index as u32;
            *malformed += s.sides.iter().map(|sd| sd.malformed).sum::<u64>();
            let empty = SctpStats::default();
            let stats = |k: usize| s.sides[k].assoc().map_or(&empty, |a| a.stats());
            let (cs, ss) = (stats(CLIENT), stats(SERVER));
            let client = s.sides[CLIENT].assoc();
            assocs.push(SctpResult {
                id,
                profile: s.profile.name().into(),
                state: client.map_or("none".into(), |a| a.state().name().into()),
                local_addresses: s.local_addrs.iter().map(|a| a.to_string()).collect(),
                peer_addresses: s.peer_addrs.iter().map(|a| a.to_string()).collect(),
                current_path: client.map(|a| a.status().current_path.to_string()),
                data_chunks_sent: cs.data_chunks_sent,
                fast_retransmissions: cs.fast_retransmissions,
                t3_retransmissions: cs.t3_retransmissions,
                retransmissions_to_alternate: cs.retransmissions_to_alternate,
                fast_retransmit_events: cs.fast_retransmit_events,
                t3_timeouts: cs.t3_timeouts,
                path_switches: cs.path_switches,
                sacks_sent: ss.sacks_sent,
                gap_blocks_sent: ss.gap_blocks_sent,
                gap_blocks_received: cs.gap_blocks_received,
                duplicate_tsns: ss.duplicate_tsns_sent,
                rwnd_drops: ss.data_chunks_dropped_rwnd,
                heartbeats_sent: cs.heartbeats_sent + ss.heartbeats_sent,
                messages_sent: cs.messages_sent,
                messages_delivered: s.sink.stats().messages,
                messages_abandoned: cs.messages_abandoned,
                forward_tsns_sent: cs.forward_tsns_sent,
                delivery_errors: s.sink.stats().errors,
                malformed_packets: s.sides.iter().map(|sd| sd.malformed).sum(),
            });
            for (k, side_name) in [(CLIENT, "sender"), (SERVER, "receiver")] {
                let Some(a) = s.sides[k].assoc() else {
                    continue;
                };
                let status = a.status();
                for p in &status.paths {
                    let ps = a.path_stats(p.addr).cloned().unwrap_or_default();
                    paths.push(PathResult {
                        flow: id,
                        side: side_name.into(),
                        addr: p.addr.to_string(),
                        source: p.source.to_string(),
                        primary: p.addr == status.primary,
                        state: match p.state {
                            PathState::Active => "active",
                            PathState::Inactive => "inactive",
                            PathState::Unconfirmed => "unconfirmed",
                        }
                        .into(),
                        cwnd_bytes: p.cwnd,
                        ssthresh_bytes: p.ssthresh,
                        srtt_s: p.srtt.map(|d| d.as_secs_f64()),
                        rto_s: p.rto.as_secs_f64(),
                        error_count: p.error_count,
                        packets_sent: ps.packets_sent,
                        data_chunks_sent: ps.data_chunks_sent,
                        retransmissions: ps.retransmissions,
                        t3_timeouts: ps.t3_timeouts,
                        fast_retransmit_reductions: ps.fast_retransmit_reductions,
                        bytes_acked: ps.bytes_acked,
                        times_down: ps.times_down,
                        heartbeats_sent: ps.heartbeats_sent,
                        rtt_min_s: ps.rtt_min.map(|d| d.as_secs_f64()),
                        rtt_max_s: ps.rtt_max.map(|d| d.as_secs_f64()),
                    });
                }
            }
            for (k, &sent) in s.source.sent_per_stream().iter().enumerate() {
                let stream = k as u16;
                let rx = s.sink.streams().get(&stream);
                let delays: &[u64] = rx.map_or(&[], |r| r.delays.as_slice());
                let mean = (!delays.is_empty()).then(|| {
                    delays.iter().map(|&d| d as f64).sum::<f64>() / delays.len() as f64 / 1e9
                });
                streams.push(StreamResult {
                    flow: id,
                    stream,
                    messages_sent: sent,
                    messages_delivered: rx.map_or(0, |r| r.messages),
                    messages_abandoned: s
                        .source
                        .abandoned_per_stream()
                        .get(k)
                        .copied()
                        .unwrap_or(0),
                    bytes_delivered: rx.map_or(0, |r| r.bytes),
                    mean_delay_s: mean,
                    p50_delay_s: quantile_s(delays, 0.5),
                    p95_delay_s: quantile_s(delays, 0.95),
                    max_delay_s: delays.iter().max().map(|&d| d as f64 / 1e9),
                });
            }
        }
        (assocs, paths, streams)
    }
}
