//! The per-packet trace's hooks (`crate::trace`): which point of a packet's path (the diagram
//! in `docs/architecture.md`) gives which row.
//!
//! What each row means for a user is in `docs/metrics.md` ("trace.parquet"); here, where
//! each comes from:
//!
//! * `ip`: `tx` from `originate` (a flow's packet in `flow_pump`, an ICMP error, a beacon) and
//!   [`Simulation::routing_out`] (a router's own message); `rx` in `deliver` and for limited
//!   broadcasts in `ip_input`; `forward` in `ip_forward` and `routing_out`.
//! * `link`: `enqueue` in `link_output` (at once, or [`Simulation::trace_link_queued`] for a
//!   queued packet); `dequeue` and `tx` in `start_tx`; `rx` at the `Arrive` event.
//! * `mac`: `enqueue` in `wifi_output` ([`Simulation::trace_mac_enqueue`]); `dequeue` at the
//!   start of every `wifi_pump` ([`Simulation::trace_mac_dequeue`], from `Dcf::in_service`);
//!   `tx` in `wifi_transmit` for data frames ([`mac_tx`]); `rx` in `wifi_deliver`.
//! * `phy`: `rx_error` in `wifi_rx_end` when the radio reports a locked data frame lost
//!   ([`phy_rx_loss`]; the cause from `Radio::rx_end`).
//!
//! Every drop goes through `drop_packet`, which records its row: the trace's drop rows per
//! flow and reason are the drops table's counts (as long as the trace is neither filtered nor
//! truncated).

use super::wireless::DATA_PREFIX;
use super::Simulation;
use crate::packet::Packet;
use crate::trace::{Layer, RxLoss, TraceAt, TraceEvent, Tracer};
use sctpsim_kernel::{LinkId, NodeId, PacketTag, SimTime};
use sctpsim_wire::ieee80211::{DATA_OVERHEAD, FCS_LEN};

impl Simulation {
    /// Whether a trace is being recorded (hooks that must look something up first ask).
    #[inline]
    pub(super) fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    /// One row for `pkt` at `at` (nothing when not tracing).
    #[inline]
    pub(super) fn trace(&mut self, at: TraceAt, event: TraceEvent, pkt: &Packet) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.record(self.now, at, event, None, &pkt.bytes, pkt.tag);
        }
    }

    /// The sending interface of direction `d` of `link`. Only looked up for the trace, so
    /// a search of the sender's interfaces, as the capture does.
    pub(super) fn link_tx_at(&self, link: LinkId, d: u8) -> TraceAt {
        let from = self.links[link.index()].dirs[d as usize].from;
        let iface = self.nodes[from.index()]
            .ifaces
            .iter()
            .position(|i| i.wireless.is_none() && i.link == link && i.tx_dir == d as usize);
        TraceAt {
            node: from,
            layer: Layer::Link,
            iface: iface.map(|i| i as u32),
        }
    }

    /// Wireless interface `w` (index in the channel) as a place in a node.
    pub(super) fn mac_at(&self, w: u32) -> TraceAt {
        match self.wifi.ifaces.get(w as usize) {
            Some(f) => TraceAt::iface(f.node, Layer::Mac, f.iface),
            None => TraceAt::ip(NodeId(0)),
        }
    }

    /// The `enqueue` row of the packet a link direction just put at the tail of its queue.
    pub(super) fn trace_link_queued(&mut self, at: TraceAt, link: LinkId, d: u8) {
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        if let Some(p) = self.links[link.index()].dirs[d as usize].queue.back() {
            t.record(self.now, at, TraceEvent::Enqueue, None, &p.bytes, p.tag);
        }
    }

    /// The `enqueue` row of a packet about to be offered to the MAC of `w`, unless the full
    /// interface queue will refuse it (a data packet; a control packet is always taken and
    /// evicts the tail instead, which then has a `drop` row).
    pub(super) fn trace_mac_enqueue(&mut self, w: u32, pkt: &Packet, control: bool) {
        let Some(f) = self.wifi.ifaces.get(w as usize) else {
            return;
        };
        if !control && f.dcf.queue_len() >= f.dcf.config().queue_limit {
            return;
        }
        let at = TraceAt::iface(f.node, Layer::Mac, f.iface);
        self.trace(at, TraceEvent::Enqueue, pkt);
    }

    /// The `dequeue` row of the packet the MAC of `w` took into service since it was last
    /// asked (called at the start of every pump, which follows every input to a MAC).
    pub(super) fn trace_mac_dequeue(&mut self, w: u32) {
        let wifi = &*self.wifi;
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        let Some(f) = wifi.ifaces.get(w as usize) else {
            return;
        };
        let serving = f.dcf.in_service();
        if t.mac_dequeued(w, serving.map(|(sdu, seq)| (sdu.tag.uid, seq))) {
            if let Some((sdu, _)) = serving {
                let at = TraceAt::iface(f.node, Layer::Mac, f.iface);
                t.record(self.now, at, TraceEvent::Dequeue, None, &sdu.bytes, sdu.tag);
            }
        }
    }

    /// A packet a router hands to the interface: one it built itself (no uid yet: routing
    /// control, a DSR route request it rebroadcasts) gets a uid, so that its rows can be told
    /// apart; its `ip` row is `tx` if the node is its IP source, else `forward`. A packet the
    /// router got with a uid is `forward` when in transit; one the node originated has had
    /// its `tx` row already (when IP sent it, before any route discovery).
    pub(super) fn routing_out(&mut self, node: NodeId, pkt: &mut Packet) {
        let built_here = pkt.tag.uid == 0;
        if built_here {
            pkt.tag.uid = self.next_uid();
        }
        if !self.tracing() {
            return;
        }
        let own = sctpsim_wire::ipv4::Ipv4Packet::new_checked(&pkt.bytes[..])
            .map(|ip| self.nodes[node.index()].owns(ip.src_addr()))
            .unwrap_or(true);
        let event = match (built_here, own) {
            (true, true) => TraceEvent::Tx,
            (_, false) => TraceEvent::Forward,
            (false, true) => return,
        };
        self.trace(TraceAt::ip(node), event, pkt);
    }
}

/// The `tx` row of a data frame the MAC of interface `iface` of `node` puts on the air: the
/// IP packet inside it.
pub(super) fn mac_tx(
    t: &mut Tracer,
    now: SimTime,
    node: NodeId,
    iface: u32,
    frame: &[u8],
    tag: PacketTag,
) {
    if frame.len() < DATA_OVERHEAD {
        return;
    }
    let ip = &frame[DATA_PREFIX..frame.len() - FCS_LEN];
    let at = TraceAt::iface(node, Layer::Mac, iface);
    t.record(now, at, TraceEvent::Tx, None, ip, tag);
}

/// The `phy` `rx_error` row of a data frame a radio locked on to and lost (`wifi_rx_end`).
/// Control frames (RTS, CTS, Ack) and management frames carry no packet and give no row.
pub(super) fn phy_rx_loss(
    t: &mut Tracer,
    now: SimTime,
    node: NodeId,
    iface: u32,
    loss: RxLoss,
    frame: &[u8],
    tag: PacketTag,
) {
    // IEEE 802.11-2016 §9.2.4.1.3: frame control type bits (b2, b3) = 10 for data frames.
    let is_data = frame.first().is_some_and(|b| b & 0x0c == 0x08);
    if !is_data || frame.len() < DATA_OVERHEAD {
        return;
    }
    let ip = &frame[DATA_PREFIX..frame.len() - FCS_LEN];
    t.record_rx_loss(now, node, iface, loss, ip, tag);
}
