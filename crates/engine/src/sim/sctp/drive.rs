//! Running an SCTP flow: the client connects at the flow's `start`, ASCONF actions fall due,
//! packets go to the side's endpoint and what the associations and endpoints send goes to IP,
//! wake-ups reach the association, and the source address of every path is pinned to the
//! interface its route leaves by.

use super::build::route_source;
use super::rows::{asconf_metric, PumpCtx};
use super::{SctpFlow, SctpSide, CLIENT, SERVER};
use crate::scenario::{AsconfActionKind, FlowSide};
use crate::sim::flows::FlowRt;
use crate::sim::{Event, Simulation, DEFAULT_TTL};
use sctpsim_kernel::{FlowId, SimTime};
use sctpsim_proto::transport::sctp::{AsconfRequestKind, DatagramEvent, State, Transmit};
use sctpsim_wire::ipv4::{ipv4_datagram, IpProtocol, Ipv4Repr};
use sctpsim_wire::sctp::{chunk_type, SctpPacket};
use std::net::Ipv4Addr;

/// Whether the SCTP packet `sctp` (one the endpoint accepted, or one an association built)
/// carries user data: a look at the chunk headers, without parsing the chunks.
fn carries_data(sctp: &[u8]) -> bool {
    SctpPacket::new_checked(sctp).is_ok_and(|p| {
        p.chunks()
            .any(|c| c.is_ok_and(|c| c.kind() == chunk_type::DATA))
    })
}

impl Simulation {
    /// The application's wake-up: at `start` the client connects; paced messages fall due.
    pub(in crate::sim) fn sctp_app(&mut self, f: FlowId) {
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
    pub(in crate::sim) fn sctp_input(
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
    pub(in crate::sim) fn sctp_timer(&mut self, f: FlowId, side: usize) {
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
                    if side == CLIENT && carries_data(&t.payload) {
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
    fn sctp_send(&mut self, f: FlowId, side: usize, out: Vec<Transmit>) {
        let FlowRt::Sctp(s) = &self.flows[f.index()] else {
            return;
        };
        let node = s.sides[side].node;
        for t in out {
            let ident = self.next_ip_id(node);
            let ip = Ipv4Repr {
                src_addr: t.src,
                dst_addr: t.dst,
                protocol: IpProtocol::Sctp,
                payload_len: t.payload.len(),
                ttl: DEFAULT_TTL,
                ident,
                dscp: 0,
                // DF clear, as `sctpsim_wire::sctp::sctp_packet` builds it (the model has no
                // path MTU discovery).
                dont_frag: false,
            };
            // Only a packet above 65515 bytes fails; the association never builds one.
            let Ok(bytes) = ipv4_datagram(&ip, &t.payload) else {
                continue;
            };
            let pkt = self.new_packet(bytes, Some(f));
            self.ip_output(node, t.dst, pkt);
        }
    }
}
