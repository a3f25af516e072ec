//! The one interface between the engine and a transport flow: [`FlowDriver`]. A flow is the
//! two ends of one transport conversation (and its applications) as sans-IO state; the engine
//! hands it datagrams, timeouts and network events, and drains what it wants sent, its metric
//! rows and its next deadlines. UDP (`udp.rs`), TCP (`tcp.rs`) and SCTP (`sctp/driver.rs`) sit
//! behind it; a new transport is one engine file implementing it plus its scenario schema.
//!
//! Timers: a flow has [`SLOTS`] deadlines — one per end ([`Slot::End`] of [`End::Src`],
//! [`End::Dst`]) and one for its applications ([`Slot::App`]) — each with one [`WakeSlot`] in the engine and one event kind,
//! `Event::Flow(flow, slot)`. Sockets: one table per node keyed by (IP protocol, local port,
//! remote address, remote port), filled from [`FlowDriver::sockets`]; the ports are the first
//! four bytes of every transport header the engine carries (UDP, TCP, SCTP), so the engine
//! demultiplexes without parsing the transport.
//!
//! [`WakeSlot`]: sctpsim_kernel::WakeSlot

use super::flows::Endpoints;
use super::ip::IpHeader;
use super::net_events::NetEvent;
use super::sctp::CsctpLog;
use super::{Event, Simulation};
use crate::drop::DropReason;
use crate::results::{FlowResult, PathResult, SctpResult, StreamResult, TimeSeries};
use sctpsim_kernel::{FlowId, NodeId, SimTime};
use sctpsim_wire::ipv4::{IpProtocol, Ipv4Packet};
use std::net::Ipv4Addr;

/// One end of a flow — the one numbering of flow ends: socket entries, network events, timer
/// slots and each transport's per-end state ([`Ends`]; SCTP's client and server, TCP's
/// connections) all name an end by it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    /// At the flow's `src` node: the sender (UDP source, TCP client, SCTP client).
    Src,
    /// At the flow's `dst` node: the receiver.
    Dst,
}

impl End {
    /// The position of the end in an [`Ends`].
    pub(super) const fn index(self) -> usize {
        match self {
            End::Src => 0,
            End::Dst => 1,
        }
    }
}

/// One value per flow end, indexed by [`End`].
#[derive(Clone, Debug, Default)]
pub(super) struct Ends<T>(pub [T; 2]);

impl<T> std::ops::Index<End> for Ends<T> {
    type Output = T;
    fn index(&self, e: End) -> &T {
        &self.0[e.index()]
    }
}

impl<T> std::ops::IndexMut<End> for Ends<T> {
    fn index_mut(&mut self, e: End) -> &mut T {
        &mut self.0[e.index()]
    }
}

impl<T> Ends<T> {
    /// The values, source end first.
    pub(super) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

/// A flow's timer slot: one per end and one for its applications (start, pacing), whose
/// packets leave from the source end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// The deadlines of one end.
    End(End),
    /// The applications' deadlines.
    App,
}

/// Timer slots per flow.
pub(super) const SLOTS: usize = 3;

impl Slot {
    /// Every slot, in the order a flow's wake-ups are armed.
    pub(super) const ALL: [Slot; SLOTS] = [Slot::End(End::Src), Slot::End(End::Dst), Slot::App];

    /// The slot's wake slot among the flow's [`SLOTS`].
    pub(super) const fn index(self) -> usize {
        match self {
            Slot::End(e) => e.index(),
            Slot::App => 2,
        }
    }

    /// The end whose state the slot drives (the applications act at the source end).
    pub(super) const fn end(self) -> End {
        match self {
            Slot::End(e) => e,
            Slot::App => End::Src,
        }
    }
}

/// One entry of a node's socket table: packets of `proto` for `local_port` from
/// (`remote`, `remote_port`) go to end `side` of the flow.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Socket {
    /// The flow end; its node is the flow's `src` or `dst`.
    pub side: End,
    /// The transport protocol.
    pub proto: IpProtocol,
    /// Local port.
    pub local_port: u16,
    /// Remote address.
    pub remote: Ipv4Addr,
    /// Remote port.
    pub remote_port: u16,
}

/// A transport packet a flow wants sent, as a complete IPv4 packet.
#[derive(Clone, Debug)]
pub(super) struct Transmit {
    /// The node it leaves from.
    pub node: NodeId,
    /// Its destination address.
    pub dst: Ipv4Addr,
    /// The IPv4 packet (the engine tags it with the flow and routes it).
    pub bytes: Vec<u8>,
    /// A source route the packet must follow, `[this node, ..., destination]`, one of those
    /// [`NetView::disjoint_routes`] gave (A-SCTP's paths over DSR); `None`: the FIB decides.
    pub route: Option<Vec<Ipv4Addr>>,
}

/// What a flow may ask of the network below it while it handles a [`NetEvent`]: the path
/// manager's view (DSR's node-disjoint routes for A-SCTP).
pub(super) trait NetView {
    /// Up to `k` pairwise node-disjoint routes from `node` to `dst` that its routing protocol
    /// knows now, shortest first, each `[node, ..., dst]`; empty for protocols without
    /// multipath (only source routing can pin a packet to a route: DSR). Starts no discovery.
    fn disjoint_routes(&self, node: NodeId, dst: Ipv4Addr, k: usize) -> Vec<Vec<Ipv4Addr>>;

    /// Whether `node`'s routing protocol still has `route` (one `disjoint_routes` gave), so
    /// that a packet sent on it follows it; false for protocols without multipath.
    fn has_route(&self, node: NodeId, route: &[Ipv4Addr]) -> bool;
}

impl Transmit {
    /// A transport's packet (`sctpsim_proto::transport::Transmit`: addresses and the encoded
    /// transport packet) as an IPv4 packet leaving `node`: TTL 64, the node's next
    /// Identification, DF as the transport wants it (`None`: a packet above 65,515 bytes,
    /// which no transport builds).
    pub(super) fn ipv4(
        node: NodeId,
        tx: sctpsim_proto::transport::Transmit,
        protocol: IpProtocol,
        dont_frag: bool,
        ident: &mut dyn IpIdent,
    ) -> Option<Transmit> {
        let ip = sctpsim_wire::ipv4::Ipv4Repr {
            src_addr: tx.src,
            dst_addr: tx.dst,
            protocol,
            payload_len: tx.payload.len(),
            ttl: super::DEFAULT_TTL,
            ident: ident.next_ident(node),
            dscp: 0,
            dont_frag,
        };
        let bytes = sctpsim_wire::ipv4::ipv4_datagram(&ip, &tx.payload).ok()?;
        Some(Transmit {
            node,
            dst: tx.dst,
            bytes,
            route: None,
        })
    }
}

/// What the engine lends a flow while it builds packets: the per-node IPv4 Identification
/// counters (RFC 6864: unique per source).
pub(super) trait IpIdent {
    /// The Identification of the next packet `node` originates.
    fn next_ident(&mut self, node: NodeId) -> u16;
}

/// A transport flow as the engine drives it.
pub(super) trait FlowDriver: Send {
    /// Where the flow runs.
    fn ep(&self) -> &Endpoints;

    /// The socket-table entries of both ends.
    fn sockets(&self) -> Vec<Socket>;

    /// A transport packet (`payload`: from the transport header on) arrived at end `side`,
    /// from `src` to `dst`. `Err` if it is malformed (counted by the node's IP layer); else
    /// what the end made of it ([`Received`]).
    fn handle_datagram(
        &mut self,
        now: SimTime,
        side: End,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        payload: &[u8],
    ) -> Result<Received, ()>;

    /// Timer `slot`'s deadline came (or an earlier time: then a no-op).
    fn handle_timeout(&mut self, now: SimTime, slot: Slot);

    /// Everything the end(s) that timer `slot` belongs to have to do now (the application
    /// slot's packets leave from the source end): the packets to send, in order, into `out`;
    /// the metric rows into `series`.
    fn poll(
        &mut self,
        now: SimTime,
        slot: Slot,
        ident: &mut dyn IpIdent,
        out: &mut Vec<Transmit>,
        series: &mut TimeSeries,
    );

    /// Timer `slot`'s next deadline.
    fn poll_timeout(&self, slot: Slot) -> Option<SimTime>;

    /// A packet of the flow was dropped for `reason`: its `dropped_seq` / `dropped_tsn`
    /// rows (`bytes` is the IPv4 packet); how many.
    fn drop_rows(
        &mut self,
        now: SimTime,
        bytes: &[u8],
        reason: DropReason,
        series: &mut TimeSeries,
    ) -> u64;

    /// A change in the network below end `side` (`net_events.rs`); `net` answers the path
    /// manager's questions (disjoint routes).
    fn handle_net_event(&mut self, _now: SimTime, _side: End, _ev: &NetEvent, _net: &dyn NetView) {}

    /// Before a wake-up of one of its timer slots, a flow whose path manager follows the
    /// routes (A-SCTP) may look at them: `net` as in [`FlowDriver::handle_net_event`].
    fn refresh_routes(&mut self, _now: SimTime, _net: &dyn NetView) {}

    /// Rows sampled every `simulation.sample_interval` beyond goodput (at time `t`, s).
    fn sample(&mut self, _t: f64, _series: &mut TimeSeries) {}

    /// Application payload bytes delivered so far.
    fn bytes_delivered(&self) -> u64;

    /// The flow's result row from `base` (identity filled in), and the end of its active
    /// period for goodput (`end`: the end of the run).
    fn result(&self, base: FlowResult, end: SimTime) -> (FlowResult, SimTime);

    /// Malformed transport packets the ends counted and dropped.
    fn malformed(&self) -> u64 {
        0
    }

    /// Appends the flow's rows of the transport-specific result tables (SCTP's association,
    /// path and stream rows) to `tables`, which the engine collects over every flow: the flow
    /// owns what its rows say, the engine only where they go.
    fn result_rows(&self, _tables: &mut TransportTables) {}

    /// The address-change requests the flow's end at a cellular mobile sent (cSCTP's ASCONFs),
    /// for the handoffs table (`cellular/rows.rs`); `None` for a flow without one.
    fn handoff_log(&self) -> Option<&CsctpLog> {
        None
    }
}

/// What a flow end made of a packet ([`FlowDriver::handle_datagram`]): what the engine counts
/// below the transport learns it from here, not by parsing the transport.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Received {
    /// A data packet at the receiving end (counted in the flow's `data_packets_received`),
    /// whose route length the engine records ([`RouteHops`]).
    pub data: bool,
    /// For a packet with data that arrived on one of a cellular mobile's addresses
    /// (`sim/cellular.rs`): the handoffs table's record of that arrival. `None` elsewhere and
    /// for other packets.
    pub addr_arrival: Option<AddrArrival>,
}

/// The handoffs table's record of one packet with data arriving on one of a cellular mobile's
/// addresses ([`Received::addr_arrival`]): nothing but what `sim/cellular.rs` counts per
/// address (when data first and last arrived there, and the duplicates), told by the flow end
/// so that the network layer parses no transport header.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct AddrArrival {
    /// Data units the packet carried (at least one).
    pub units: u32,
    /// Of those, how many had arrived at the end before.
    pub duplicates: u32,
}

impl Received {
    /// A packet that is (`data`) or is not a data packet at the receiving end, and no data
    /// arriving on a cellular mobile's address.
    pub(super) fn data(data: bool) -> Received {
        Received {
            data,
            addr_arrival: None,
        }
    }
}

/// The result tables of transports with rows of their own, filled by
/// [`FlowDriver::result_rows`] in flow order.
#[derive(Debug, Default)]
pub(crate) struct TransportTables {
    /// `sctp.parquet`: one row per association.
    pub sctp: Vec<SctpResult>,
    /// `paths.parquet`: one row per path of each end.
    pub paths: Vec<PathResult>,
    /// `streams.parquet`: one row per stream.
    pub streams: Vec<StreamResult>,
}

/// The IPv4 packet `bytes` if it carries `proto` (what a flow's drop rows are made from).
pub(super) fn carrying(bytes: &[u8], proto: IpProtocol) -> Option<Ipv4Packet<&[u8]>> {
    Ipv4Packet::new_checked(bytes)
        .ok()
        .filter(|ip| ip.protocol() == proto)
}

/// The IP protocol's ports, which every transport the engine carries puts first: (source
/// port, destination port), or `None` for a packet too short to hold them.
pub(super) fn ports(payload: &[u8]) -> Option<(u16, u16)> {
    let p = payload.get(..4)?;
    Some((
        u16::from_be_bytes([p[0], p[1]]),
        u16::from_be_bytes([p[2], p[3]]),
    ))
}

/// The number of links a packet that left its source with TTL [`super::DEFAULT_TTL`] (every
/// transport's packets do) crossed, from its TTL on arrival: every node that forwards it —
/// the IP layer (`ip.rs`) or an ad hoc router (DSR, AODV, OLSR) — lowers the TTL by one
/// (RFC 1812 §5.3.1), so a direct neighbour receives TTL 64 (1 hop), a packet relayed once
/// TTL 63 (2 hops). Not exact across a Mobile IP tunnel: the inner packet's TTL does not see
/// the links inside the tunnel.
pub(super) fn hops_from_ttl(ttl: u8) -> u32 {
    u32::from(super::DEFAULT_TTL.saturating_sub(ttl)) + 1
}

/// The route lengths of one flow's data packets that reached the receiving transport: over
/// the run (`mean_route_hops`, `relayed_fraction` of `flows.parquet`) and since the last
/// sample (`delivered_hops`, `delivered_hops_max` rows).
#[derive(Clone, Debug, Default)]
pub(super) struct RouteHops {
    /// Packets over the run.
    pub packets: u64,
    /// Sum of their hops.
    pub hops_sum: u64,
    /// Those with 2 hops or more.
    pub relayed: u64,
    /// Packets since the last sample.
    pub interval_packets: u64,
    /// Sum of their hops.
    pub interval_sum: u64,
    /// The most hops among them.
    pub interval_max: u32,
    /// When the first data packet arrived (`first_data_received_s`).
    pub first: Option<SimTime>,
    /// `app = "file"`: its `size_bytes`; `None` for the other applications.
    pub file_bytes: Option<u64>,
    /// When the receiving application held all `file_bytes` (`completion_time_s`).
    pub completed: Option<SimTime>,
}

impl RouteHops {
    /// A data packet that crossed `hops` links arrived at `now`.
    pub fn record(&mut self, now: SimTime, hops: u32) {
        self.first.get_or_insert(now);
        self.packets += 1;
        self.hops_sum += u64::from(hops);
        self.relayed += u64::from(hops >= 2);
        self.interval_packets += 1;
        self.interval_sum += u64::from(hops);
        self.interval_max = self.interval_max.max(hops);
    }

    /// Mean hops over the run (`None` if no data packet arrived).
    pub fn mean(&self) -> Option<f64> {
        (self.packets > 0).then(|| self.hops_sum as f64 / self.packets as f64)
    }

    /// Fraction of the packets relayed at least once (`None` if none arrived).
    pub fn relayed_fraction(&self) -> Option<f64> {
        (self.packets > 0).then(|| self.relayed as f64 / self.packets as f64)
    }

    /// The interval's mean and maximum, if a data packet arrived in it; starts a new interval.
    pub fn take_interval(&mut self) -> Option<(f64, u32)> {
        let n = std::mem::take(&mut self.interval_packets);
        let sum = std::mem::take(&mut self.interval_sum);
        let max = std::mem::take(&mut self.interval_max);
        (n > 0).then(|| (sum as f64 / n as f64, max))
    }
}

/// The engine's IPv4 Identification counters, lent to a flow while it builds packets.
struct Idents<'a>(&'a mut [super::node::Node]);

impl IpIdent for Idents<'_> {
    fn next_ident(&mut self, node: NodeId) -> u16 {
        self.0.get_mut(node.index()).map_or(0, |n| n.next_ident())
    }
}

impl Simulation {
    /// Queues the wake-ups flow `f`'s timer slots ask for (only those earlier than one already
    /// queued).
    pub(super) fn flow_arm(&mut self, f: FlowId) {
        let now = self.now;
        let Some(d) = self.flows.get(f.index()) else {
            return;
        };
        for slot in Slot::ALL {
            if let Some(t) = d.poll_timeout(slot) {
                let t = t.max(now);
                if self.flow_wake[f.index()][slot.index()].arm(t) {
                    self.queue.push(t, Event::Flow(f, slot));
                }
            }
        }
    }

    /// A wake-up of flow `f`'s timer `slot`.
    pub(super) fn flow_timer(&mut self, f: FlowId, slot: Slot) {
        let now = self.now;
        if let Some(w) = self.flow_wake.get_mut(f.index()) {
            w[slot.index()].fired(now);
        }
        if let Some(d) = self.flows.get_mut(f.index()) {
            d.refresh_routes(now, &super::net_events::Routes::new(&self.nodes, now));
            d.handle_timeout(now, slot);
        }
        self.flow_pump(f, slot);
    }

    /// Lets the end(s) of `slot` act: records their metric rows, sends what they made and
    /// queues the flow's next wake-ups.
    pub(super) fn flow_pump(&mut self, f: FlowId, slot: Slot) {
        let now = self.now;
        let Some(d) = self.flows.get_mut(f.index()) else {
            return;
        };
        // The buffer is reused across pumps (one per packet); taken, so a pump that sending
        // leads back into (a packet delivered at its own node) gets a fresh one.
        let mut out = std::mem::take(&mut self.flow_out);
        let mut ident = Idents(&mut self.nodes);
        d.poll(now, slot, &mut ident, &mut out, &mut self.series);
        for tx in out.drain(..) {
            let pkt = self.originate(tx.node, tx.bytes, Some(f));
            match tx.route {
                Some(route) => self.send_on_route(tx.node, pkt, &route),
                None => self.ip_output(tx.node, tx.dst, pkt),
            }
        }
        self.flow_out = out;
        self.flow_arm(f);
    }

    /// A transport packet for `node` (`bytes`: the IPv4 packet, `hdr` its header as IP input
    /// parsed it): to the socket that owns it,
    /// or ICMP Port Unreachable.
    pub(super) fn transport_input(&mut self, node: NodeId, hdr: &IpHeader, bytes: &[u8]) {
        let now = self.now;
        let (src, dst, proto) = (hdr.src, hdr.dst, hdr.proto);
        let payload = hdr.payload(bytes);
        let Some((sport, dport)) = ports(payload) else {
            self.nodes[node.index()].ip.malformed_drops += 1;
            return;
        };
        let key = (u8::from(proto), dport, src, sport);
        let Some((f, side)) = self.nodes[node.index()].sockets.get(&key).copied() else {
            self.port_unreachable(node, bytes);
            return;
        };
        let ttl = hdr.ttl;
        let Some(d) = self.flows.get_mut(f.index()) else {
            return;
        };
        let Ok(got) = d.handle_datagram(now, side, src, dst, payload) else {
            self.nodes[node.index()].ip.malformed_drops += 1;
            return;
        };
        if got.data {
            if let Some(h) = self.route_hops.get_mut(f.index()) {
                h.record(now, hops_from_ttl(ttl));
            }
        }
        if let Some(a) = got.addr_arrival {
            self.cell_addr_arrival(node, dst, a);
        }
        self.flow_pump(f, Slot::End(side));
        // The receiving application reads while the flow is pumped; a file completes on the
        // packet after which it holds every byte (checked until it does).
        if let Some(h) = self.route_hops.get_mut(f.index()) {
            if let (Some(size), None) = (h.file_bytes, h.completed) {
                if self.flows[f.index()].bytes_delivered() >= size {
                    h.completed = Some(now);
                }
            }
        }
    }
}
