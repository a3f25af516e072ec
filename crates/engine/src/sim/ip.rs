//! The IP layer of every node: output (routing, the link's queue and transmitter), input
//! (verification, local delivery, forwarding, ICMP errors) and transport demultiplexing.

use super::{Event, Simulation, DEFAULT_TTL};
use crate::drop::DropReason;
use crate::link::Offer;
use crate::packet::Packet;
use crate::trace::{Layer, TraceAt, TraceEvent};
use sctpsim_kernel::{FlowId, LinkId, NodeId};
use sctpsim_proto::mac::MacAddr;
use sctpsim_wire::icmp::{icmp_error_datagram, IcmpError, Icmpv4Packet};
use sctpsim_wire::ipv4::{decrement_ttl_in_place, IpProtocol, Ipv4Packet};
use std::net::Ipv4Addr;

/// The fields of a received packet's IPv4 header that IP input and the layers above it use,
/// parsed and verified once per packet ([`Simulation::ip_input`]).
#[derive(Copy, Clone, Debug)]
pub(super) struct IpHeader {
    /// Source address.
    pub src: Ipv4Addr,
    /// Destination address.
    pub dst: Ipv4Addr,
    /// Payload protocol.
    pub proto: IpProtocol,
    /// TTL as received (before any forwarding decrement).
    pub ttl: u8,
    /// Where the payload starts (the header length with options), octets.
    header_len: usize,
    /// The total length field: where the payload ends, octets.
    total_len: usize,
}

impl IpHeader {
    /// The header of `bytes` if it is a valid IPv4 packet with a correct header checksum.
    pub(super) fn parse(bytes: &[u8]) -> Option<IpHeader> {
        let ip = Ipv4Packet::new_checked(bytes).ok()?;
        if !ip.verify_checksum() {
            return None;
        }
        Some(IpHeader {
            src: ip.src_addr(),
            dst: ip.dst_addr(),
            proto: ip.protocol(),
            ttl: ip.ttl(),
            header_len: usize::from(ip.header_len()),
            total_len: usize::from(ip.total_len()),
        })
    }

    /// The payload of `bytes`, the packet this header was parsed from.
    pub(super) fn payload<'a>(&self, bytes: &'a [u8]) -> &'a [u8] {
        bytes.get(self.header_len..self.total_len).unwrap_or(&[])
    }
}

/// Whether IP forwards packets for `dst`: not the limited broadcast (RFC 1812 §5.3.5.1), not
/// multicast (no multicast routing here), not 0.0.0.0 (RFC 1812 §5.3.7).
fn is_forwardable(dst: Ipv4Addr) -> bool {
    !(dst.is_broadcast() || dst.is_multicast() || dst.is_unspecified())
}

impl Simulation {
    /// Route a packet out of `node` (originated or forwarded): the FIB's decision (`fib.rs`).
    pub(super) fn ip_output(&mut self, node: NodeId, dst: Ipv4Addr, pkt: Packet) {
        match self.fib_for(node, dst, &pkt) {
            Ok(hop) => self.send_via(node, hop, pkt),
            Err(why) => self.no_hop(node, why, &pkt),
        }
    }

    /// Hand `pkt` to the point-to-point link of interface `iface` of `node`.
    pub(super) fn link_output(&mut self, node: NodeId, iface: u32, pkt: Packet) {
        let i = &self.nodes[node.index()].ifaces[iface as usize];
        let (link, d) = (i.link, i.tx_dir as u8);
        let at = TraceAt::iface(node, Layer::Link, iface);
        match self.links[link.index()].dirs[d as usize].offer(self.now, pkt) {
            Offer::StartNow(p) => {
                self.trace(at, TraceEvent::Enqueue, &p);
                self.start_tx(link, d, p);
            }
            Offer::Queued => self.trace_link_queued(at, link, d),
            Offer::Dropped(p, why) => self.drop_packet(at, &p, why),
        }
    }

    pub(super) fn start_tx(&mut self, link: LinkId, d: u8, pkt: Packet) {
        // The sending interface is searched for only when tracing (drops ignore `at` else).
        let at = if self.tracing() {
            self.link_tx_at(link, d)
        } else {
            TraceAt::ip(NodeId(0))
        };
        self.trace(at, TraceEvent::Dequeue, &pkt);
        let dir = &mut self.links[link.index()].dirs[d as usize];
        let sent_before = dir.counters.tx_packets;
        let (tx, lost) = dir.start_tx(self.now, &pkt);
        dir.counters.busy_ns += tx.0;
        let sent = dir.counters.tx_packets != sent_before;
        let from = dir.from;
        let delay = dir.delay;
        if let Some(c) = &mut self.capture {
            // The sending interface is the one whose link and direction match.
            let node = &self.nodes[from.index()];
            if let Some(ix) = node
                .ifaces
                .iter()
                .position(|i| i.link == link && i.tx_dir == d as usize)
            {
                c.record(from, ix as u32, self.now, &pkt.bytes);
            }
        }
        self.queue.push(self.now + tx, Event::TxDone(link, d));
        if sent {
            // Not when an outage dropped it at the head of the queue without sending.
            self.trace(at, TraceEvent::Tx, &pkt);
        }
        match lost {
            None => self
                .queue
                .push(self.now + tx + delay, Event::Arrive(link, d, Box::new(pkt))),
            Some(why) => self.drop_packet(at, &pkt, why),
        }
    }

    /// A packet ends at `at` without being delivered: trace it, count it for its flow (from its
    /// tag) and reason, and write the flow's drop rows (`dropped_seq`: for TCP the stream
    /// offset just past the segment's payload, comparable with `snd_una`, for UDP the
    /// application sequence number; `dropped_tsn`: one row per SCTP DATA chunk), with the
    /// reason as `dir`. Pure ACKs, control chunks and packets of no flow are counted but write
    /// no row.
    pub(super) fn drop_packet(&mut self, at: TraceAt, pkt: &Packet, reason: DropReason) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.record(
                self.now,
                at,
                TraceEvent::Drop,
                Some(reason),
                &pkt.bytes,
                pkt.tag,
            );
        }
        let slot = pkt.tag.flow.map_or(0, |f| f.index() + 1);
        let Some(counts) = self.drops.get_mut(slot) else {
            return;
        };
        counts.packets[reason as usize] += 1;
        let Some(f) = pkt.tag.flow else { return };
        if self.mip.is_some() {
            self.mip_count_drop();
        }
        let rows = self.drop_rows(f, &pkt.bytes, reason);
        if self.cell.is_some() {
            self.cell_count_drop(rows);
        }
        if let Some(c) = self.drops.get_mut(slot) {
            c.records[reason as usize] += rows;
        }
    }

    /// The drop rows of a packet of flow `f`; how many were written.
    fn drop_rows(&mut self, f: FlowId, bytes: &[u8], reason: DropReason) -> u64 {
        let now = self.now;
        match self.flows.get_mut(f.index()) {
            Some(d) => d.drop_rows(now, bytes, reason, &mut self.series),
            None => 0,
        }
    }

    /// Sends ICMP error `kind` about `offending` from `node` (RFC 792, RFC 1812 §4.3.2); whether
    /// one was sent (RFC 1122 §3.2.2 forbids some: `icmp_error_datagram`).
    pub(super) fn send_icmp_error(
        &mut self,
        node: NodeId,
        kind: IcmpError,
        offending: &[u8],
    ) -> bool {
        let Some(src) = self.nodes[node.index()].primary_addr() else {
            return false;
        };
        let ident = self.nodes[node.index()].next_ip_id;
        let Some(bytes) = icmp_error_datagram(kind, src, DEFAULT_TTL, ident, offending) else {
            return false;
        };
        let n = &mut self.nodes[node.index()];
        n.next_ip_id = n.next_ip_id.wrapping_add(1);
        n.ip.icmp_sent += 1;
        let dst = Ipv4Packet::new_unchecked(&bytes[..]).dst_addr();
        let pkt = self.originate(node, bytes, None);
        self.ip_output(node, dst, pkt);
        true
    }

    /// IP input: every packet any interface of `node` received — over a link, or from its
    /// 802.11 MAC (`prev`: the transmitter's MAC address; `None` over links) — enters
    /// here. The IPv4 header is parsed and verified once; the parsed header goes down to
    /// delivery or forwarding. At a node that runs an ad hoc router, packets for the node
    /// (and broadcasts) go to the router first, which consumes its control traffic and hands
    /// the rest back for delivery; packets for others are forwarded by [`Self::ip_forward`],
    /// where the router only chooses the next hop.
    pub(super) fn ip_input(&mut self, node: NodeId, prev: Option<MacAddr>, pkt: Packet) {
        let Some(hdr) = IpHeader::parse(&pkt.bytes) else {
            self.nodes[node.index()].ip.malformed_drops += 1;
            return;
        };
        let n = &self.nodes[node.index()];
        if n.router.is_some() {
            if n.owns(hdr.dst) || !is_forwardable(hdr.dst) {
                self.routing_receive(node, prev, pkt);
            } else {
                self.ip_forward(node, hdr, prev, pkt);
            }
            return;
        }
        if hdr.dst.is_broadcast() || (hdr.dst.is_multicast() && self.mip.is_some()) {
            // RFC 1812 §5.3.5.1: a limited broadcast is never forwarded.
            self.trace(TraceAt::ip(node), TraceEvent::Rx, &pkt);
            self.broadcast_receive(node, pkt);
            return;
        }
        if self.nodes[node.index()].owns(hdr.dst)
            || (self.cell.is_some() && self.cell_local(node, hdr.dst))
        {
            self.deliver(node, &hdr, pkt);
            return;
        }
        self.ip_forward(node, hdr, prev, pkt);
    }

    /// IP forwarding of a packet for another node — the one place a TTL is decremented
    /// (RFC 1812 §5.3.1, RFC 791 "Time to Live"): at zero the packet is dropped
    /// (`ttl_expired`) and its source gets ICMP Time Exceeded, code 0 "time to live exceeded
    /// in transit" (RFC 792); else the node's router chooses the next hop (it may also buffer
    /// while it discovers a route, repair, or drop), or without one the FIB.
    fn ip_forward(&mut self, node: NodeId, hdr: IpHeader, prev: Option<MacAddr>, mut pkt: Packet) {
        match decrement_ttl_in_place(&mut pkt.bytes) {
            Ok(0) => {
                let ip = &mut self.nodes[node.index()].ip;
                ip.ttl_drops += 1;
                self.drop_packet(TraceAt::ip(node), &pkt, DropReason::TtlExpired);
                // RFC 1812 §4.3.2.8 lets a router limit the rate of its ICMP errors; none is
                // applied (every node sends each error; `icmp_time_exceeded_sent` counts them).
                if self.send_icmp_error(node, IcmpError::TtlExceeded, &pkt.bytes) {
                    self.nodes[node.index()].ip.icmp_time_exceeded_sent += 1;
                }
            }
            Ok(_) if self.nodes[node.index()].router.is_some() => {
                self.routing_forward(node, prev, pkt);
            }
            Ok(_) => match self.fib(node, hdr.dst, Some(hdr.src)) {
                Ok(hop) => {
                    self.nodes[node.index()].ip.forwarded += 1;
                    self.trace(TraceAt::ip(node), TraceEvent::Forward, &pkt);
                    self.send_via(node, hop, pkt);
                }
                Err(why) => {
                    self.no_hop(node, why, &pkt);
                    // RFC 1812 §5.2.7.1: Destination Unreachable for a packet that cannot be
                    // forwarded.
                    self.send_icmp_error(node, IcmpError::NetUnreachable, &pkt.bytes);
                }
            },
            Err(_) => self.nodes[node.index()].ip.malformed_drops += 1,
        }
    }

    /// Local delivery of a verified packet (`hdr` is its parsed header): transports through
    /// the socket table, ICMP counted.
    pub(super) fn deliver(&mut self, node: NodeId, hdr: &IpHeader, pkt: Packet) {
        self.trace(TraceAt::ip(node), TraceEvent::Rx, &pkt);
        match hdr.proto {
            IpProtocol::Udp if self.mip.is_some() && self.mip_udp(node, &pkt.bytes) => {}
            IpProtocol::Udp | IpProtocol::Tcp | IpProtocol::Sctp => {
                self.transport_input(node, hdr, &pkt.bytes);
            }
            IpProtocol::IpInIp if self.mip.is_some() => self.mip_decapsulate(node, pkt),
            IpProtocol::Icmp if self.mip.is_some() && self.mip_icmp(node, &pkt.bytes) => {
                self.nodes[node.index()].ip.icmp_received += 1;
            }
            IpProtocol::Icmp => {
                let ok = Icmpv4Packet::new_checked(hdr.payload(&pkt.bytes))
                    .map(|p| p.verify_checksum())
                    .unwrap_or(false);
                let n = &mut self.nodes[node.index()].ip;
                if ok {
                    n.icmp_received += 1;
                } else {
                    n.malformed_drops += 1;
                }
            }
            _ => {
                self.nodes[node.index()].ip.malformed_drops += 1;
            }
        }
    }

    /// RFC 1122 §3.2.2.1: a datagram for a port nobody listens on gets ICMP Port Unreachable.
    /// (TCP would answer with a RST, RFC 9293 §3.10.7.1; flows here always have a listener, so
    /// this only happens to stray segments.)
    pub(super) fn port_unreachable(&mut self, node: NodeId, bytes: &[u8]) {
        self.nodes[node.index()].ip.port_unreachable += 1;
        let bytes = bytes.to_vec();
        self.send_icmp_error(node, IcmpError::PortUnreachable, &bytes);
    }
}
