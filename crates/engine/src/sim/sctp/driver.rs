//! An SCTP flow behind the transport driver interface (`sim/transport.rs`): the client
//! connects at the flow's `start` and ASCONF actions fall due on the application slot,
//! packets go to the side's endpoint, what the associations and endpoints send becomes IPv4
//! packets, wake-ups reach the association, and the source address of every path is pinned to
//! the interface the FIB's host route to that destination leaves by.

use super::rows::{asconf_metric, PumpCtx};
use super::CsctpLog;
use super::{SctpFlow, SctpSide, CLIENT, SERVER};
use crate::drop::DropReason;
use crate::results::{FlowResult, TimeSeries};
use crate::scenario::{AsconfActionKind, FlowSide};
use crate::sim::flows::Endpoints;
use crate::sim::net_events::NetEvent;
use crate::sim::transport::{
    End, Ends, FlowDriver, IpIdent, NetView, Received, Slot, Socket, Transmit, TransportTables,
};
use sctpsim_kernel::SimTime;
use sctpsim_proto::transport::sctp::{AsconfRequestKind, DatagramEvent, SctpEvent, State};
use sctpsim_wire::ipv4::IpProtocol;
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

impl SctpFlow {
    /// The next ASCONF or stream reconfiguration action still to apply, if any.
    fn next_asconf(&self) -> Option<SimTime> {
        let a = self
            .asconf
            .get(self.asconf_next)
            .map(|a| SimTime::ZERO + a.at.0);
        let r = self
            .reconfig
            .get(self.reconfig_next)
            .map(|a| SimTime::ZERO + a.at.0);
        match (a, r) {
            (Some(a), Some(r)) => Some(a.min(r)),
            (a, r) => a.or(r),
        }
    }

    /// Apply the stream reconfiguration actions that are due (RFC 6525 §5.1): the side's
    /// association is asked to reset or add streams. A request the association refuses at
    /// once (not negotiated, not established, a stream that does not exist) gives a 0 row of
    /// the action's metric, like a request the peer refuses. Returns which sides acted.
    fn reconfig_due(&mut self, now: SimTime, series: &mut TimeSeries) -> Ends<bool> {
        use crate::scenario::ReconfigActionKind as K;
        let mut touched = Ends([false; 2]);
        if !self.started {
            return touched;
        }
        let id = self.ep.spec_index as u32;
        while let Some(act) = self.reconfig.get(self.reconfig_next).cloned() {
            if SimTime::ZERO + act.at.0 > now {
                break;
            }
            self.reconfig_next += 1;
            let side = match act.side {
                FlowSide::Src => CLIENT,
                FlowSide::Dst => SERVER,
            };
            let n = act.count.unwrap_or(0);
            let ok = self.sides[side].assoc_mut().is_some_and(|a| {
                match act.action {
                    K::ResetOutgoing => a.reset_streams(now, &act.streams),
                    K::ResetIncoming => a.request_incoming_reset(now, &act.streams),
                    K::ResetSsnTsn => a.reset_ssn_tsn(now),
                    K::AddOutgoing => a.add_streams(now, n, 0),
                    K::AddIncoming => a.add_streams(now, 0, n),
                }
                .is_ok()
            });
            if !ok {
                let t = now.as_secs_f64();
                let metric = super::rows::reconfig_metric(reconfig_kind(act.action));
                series.push_owned(t, "flow", id, side_name(side).into(), metric, 0.0);
            }
            touched[side] = true;
        }
        touched
    }

    /// At `start` the client connects (and pins its sources).
    fn start_if_due(&mut self, now: SimTime) {
        if self.started || now < self.source.config().start {
            return;
        }
        self.started = true;
        if self.local_addrs.is_empty() || self.peer_addrs.is_empty() {
            // A node without addresses cannot take part (its flow sends nothing).
            return;
        }
        let peer = self.peer_addrs.clone();
        let port = self.ep.dst_port;
        let client = &mut self.sides[CLIENT];
        let h = client.endpoint.connect(now, &peer, port);
        client.adopt(h);
        self.pin_sources(CLIENT);
    }

    /// Apply the ASCONF actions that are due: the side's association is asked to add or
    /// delete an address or to request the peer's primary (RFC 5061 §4.2). A request the
    /// association refuses at once (not established, unknown or last address) gives a 0 row
    /// of the action's metric, like a request the peer refuses. Returns which sides acted.
    fn asconf_due(&mut self, now: SimTime, series: &mut TimeSeries) -> Ends<bool> {
        let mut touched = Ends([false; 2]);
        if !self.started {
            return touched;
        }
        let id = self.ep.spec_index as u32;
        while let Some(act) = self.asconf.get(self.asconf_next).cloned() {
            if SimTime::ZERO + act.at.0 > now {
                break;
            }
            self.asconf_next += 1;
            let side = match act.side {
                FlowSide::Src => CLIENT,
                FlowSide::Dst => SERVER,
            };
            let kind = match act.action {
                AsconfActionKind::AddIp => AsconfRequestKind::AddIp,
                AsconfActionKind::DeleteIp => AsconfRequestKind::DeleteIp,
                AsconfActionKind::SetPrimary => AsconfRequestKind::SetPrimary,
            };
            let res = self.sides[side].assoc_mut().is_some_and(|a| match kind {
                AsconfRequestKind::AddIp => a.add_local_address(now, act.address).is_ok(),
                AsconfRequestKind::DeleteIp => a.delete_local_address(now, act.address).is_ok(),
                AsconfRequestKind::SetPrimary => a.request_peer_primary(now, act.address).is_ok(),
            });
            if !res {
                let t = now.as_secs_f64();
                let dir = act.address.to_string();
                series.push_owned(t, "flow", id, dir, asconf_metric(kind), 0.0);
            }
            touched[side] = true;
        }
        touched
    }

    /// Pin the source address of every destination of side `side` to the address of the
    /// interface its route leaves by (`SctpFlow::sources`, from the FIB's host routes).
    fn pin_sources(&mut self, side: End) {
        if self.csctp_sets_sources(side) {
            return;
        }
        let SctpSide {
            endpoint, handle, ..
        } = &mut self.sides[side];
        let sources = &self.sources[side];
        let Some(a) = handle.and_then(|h| endpoint.assoc_mut(h)) else {
            return;
        };
        for p in a.peer_addrs() {
            if let Some(&local) = sources.get(&p) {
                if a.local_addrs().contains(&local) {
                    // Cannot fail: both addresses belong to the association.
                    let _ = a.set_source_address(p, local);
                }
            }
        }
    }

    /// Run the applications at side `side`, take everything it sends, turn its notifications
    /// and metric samples into rows.
    fn pump_side(
        &mut self,
        now: SimTime,
        side: End,
        out: &mut Vec<(sctpsim_proto::transport::Transmit, Option<Vec<Ipv4Addr>>)>,
        series: &mut TimeSeries,
    ) {
        let mut pin = false;
        let initial = self.initial_tsn();
        let SctpFlow {
            ep,
            sides,
            peer_addrs,
            asconf,
            source,
            sink,
            shutdown_when_done,
            shutdown_sent,
            app_next,
            data_packets_sent,
            asctp,
            csctp,
            associations_lost,
            ..
        } = self;
        let mut csctp = csctp.as_mut().filter(|c| c.side == side);
        // The path manager works for the client only.
        let mut paths = asctp.as_mut().filter(|_| side == CLIENT);
        let SctpSide {
            endpoint, handle, ..
        } = &mut sides[side];
        if let Some(a) = handle.and_then(|h| endpoint.assoc_mut(h)) {
            let mut route_rows = Vec::new();
            if let Some(m) = paths.as_deref_mut() {
                m.pump_due = None;
                route_rows = std::mem::take(&mut m.rows);
            }
            let ctx = PumpCtx {
                id: ep.spec_index as u32,
                side,
                now,
                initial,
                peer_addrs,
                asconf,
                asctp: paths.as_deref(),
            };
            ctx.route_rows(series, &route_rows);
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
                    if app_next.is_none_or(|w| t < w) {
                        *app_next = Some(t);
                    }
                }
            }
            if let Some(c) = csctp.as_deref_mut() {
                c.pump_due = None;
                c.apply(now, a);
            }
            while let Some(m) = a.recv() {
                if side == SERVER {
                    sink.deliver(now, &m);
                }
            }
            while let Some((t, path)) = a.poll_transmit_on_path(now) {
                if side == CLIENT && carries_data(&t.payload) {
                    *data_packets_sent += 1;
                }
                let route = ctx
                    .asctp
                    .zip(path)
                    .and_then(|(m, k)| m.route_of(k))
                    .map(<[Ipv4Addr]>::to_vec);
                out.push((t, route));
            }
            let mut up = false;
            let mut again = false;
            while let Some(ev) = a.poll_event() {
                up |= matches!(ev, SctpEvent::CommUp { .. });
                if matches!(ev, SctpEvent::CommLost { .. }) {
                    *associations_lost += 1;
                }
                if let Some(c) = csctp.as_deref_mut() {
                    again |= c.on_event(now, &ev);
                }
                pin |= ctx.event(series, source, ev);
            }
            // cSCTP: an address confirmed (or the association up) may make requests due.
            if let Some(c) = csctp.filter(|_| again) {
                if c.apply(now, a) {
                    while let Some((t, _)) = a.poll_transmit_on_path(now) {
                        out.push((t, None));
                    }
                }
            }
            while let Some(m) = a.poll_metric() {
                ctx.metric(series, m.time, m.kind);
            }
            if let Some(m) = paths.filter(|_| up) {
                // Look at DSR's routes at once (the next wake-up of this end).
                m.start(now);
            }
        }
        // The endpoint's own answers (INIT ACK, ABORT, ...).
        while let Some(t) = endpoint.poll_transmit() {
            out.push((t, None));
        }
        if pin {
            self.pin_sources(side);
        }
    }
}

impl FlowDriver for SctpFlow {
    fn ep(&self) -> &Endpoints {
        &self.ep
    }

    fn sockets(&self) -> Vec<Socket> {
        // One entry per address of the other side (multi-homing); addresses added by ASCONF
        // during the run count too.
        let ep = &self.ep;
        let sock = |side, local_port, remote, remote_port| Socket {
            side,
            proto: IpProtocol::Sctp,
            local_port,
            remote,
            remote_port,
        };
        // A cellular mobile's every possible address too (`sim/cellular.rs`).
        let added = |side| self.asconf_added(side);
        let to_server = self.peer_addrs.iter().copied().chain(added(FlowSide::Dst));
        let to_server = to_server.chain(self.cell_addresses(SERVER));
        let to_client = self.local_addrs.iter().copied().chain(added(FlowSide::Src));
        let to_client = to_client.chain(self.cell_addresses(CLIENT));
        to_server
            .map(|p| sock(End::Src, ep.src_port, p, ep.dst_port))
            .chain(to_client.map(|l| sock(End::Dst, ep.dst_port, l, ep.src_port)))
            .collect()
    }

    fn handle_datagram(
        &mut self,
        now: SimTime,
        side: End,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        payload: &[u8],
    ) -> Result<Received, ()> {
        let sd = &mut self.sides[side];
        // Counted before the endpoint's checks, as every DATA chunk that reached the address.
        let addr_arrival = sd.cell.as_mut().and_then(|c| c.arrival(dst, payload));
        let Ok(event) = sd.endpoint.handle_datagram(now, src, dst, payload) else {
            // RFC 9260 §6.8: a packet with a bad CRC32c is silently discarded (counted with
            // the association's rows, not as an IP-layer malformed packet).
            sd.malformed += 1;
            return Ok(Received {
                data: false,
                addr_arrival,
            });
        };
        let created = match event {
            Some(DatagramEvent::NewAssociation(h)) => {
                sd.adopt(h);
                true
            }
            _ => false,
        };
        let data = side == SERVER && carries_data(payload);
        if data {
            self.data_packets_received += 1;
        }
        if created {
            self.pin_sources(side);
        }
        Ok(Received { data, addr_arrival })
    }

    fn handle_timeout(&mut self, now: SimTime, slot: Slot) {
        if slot == Slot::End(End::Src) {
            if let Some(m) = self.asctp.as_mut() {
                if m.pump_due.is_some_and(|t| t <= now) {
                    m.pump_due = None;
                }
            }
        }
        if let Some(c) = self.csctp.as_mut() {
            if slot == Slot::End(c.side) && c.pump_due.is_some_and(|t| t <= now) {
                c.pump_due = None;
            }
        }
        if slot == Slot::App {
            if self.app_next.is_some_and(|t| t <= now) {
                self.app_next = None;
            }
            self.start_if_due(now);
            return;
        }
        if let Some(a) = self.sides[slot.end()].assoc_mut() {
            a.handle_timeout(now);
        }
    }

    fn poll(
        &mut self,
        now: SimTime,
        slot: Slot,
        ident: &mut dyn IpIdent,
        out: &mut Vec<Transmit>,
        series: &mut TimeSeries,
    ) {
        // The sides to pump, in order: a due ASCONF action of the server's first (its
        // request leaves before the client's data), then the client.
        let (first, then) = if slot == Slot::App {
            let server = self.asconf_due(now, series)[SERVER];
            let server = self.reconfig_due(now, series)[SERVER] || server;
            (server.then_some(SERVER), CLIENT)
        } else {
            (None, slot.end())
        };
        let mut list = std::mem::take(&mut self.scratch);
        for side in first.into_iter().chain([then]) {
            self.pump_side(now, side, &mut list, series);
            let node = self.sides[side].node;
            // DF clear, as `sctpsim_wire::sctp::sctp_packet` builds it (the model has no path
            // MTU discovery).
            for (t, route) in list.drain(..) {
                if let Some(mut tx) = Transmit::ipv4(node, t, IpProtocol::Sctp, false, ident) {
                    tx.route = route;
                    out.push(tx);
                }
            }
        }
        self.scratch = list;
    }

    fn poll_timeout(&self, slot: Slot) -> Option<SimTime> {
        if slot == Slot::App {
            if !self.started {
                return Some(self.source.config().start);
            }
            return match (self.app_next, self.next_asconf()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        let assoc = self.sides[slot.end()]
            .assoc()
            .and_then(|a| a.poll_timeout());
        // cSCTP's mobile end, pumped at once after an address event.
        let cell = self
            .csctp
            .as_ref()
            .filter(|c| slot == Slot::End(c.side))
            .and_then(|c| c.pump_due);
        let assoc = match (assoc, cell) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // The path manager only while the client's association lives (it is what it acts
        // on: a deadline it could not clear would wake the flow forever).
        let live = self.sides[CLIENT].assoc().is_some_and(|a| !a.is_closed());
        let paths = self
            .asctp
            .as_ref()
            .filter(|_| slot == Slot::End(End::Src) && live)
            .and_then(|m| m.deadline());
        match (assoc, paths) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn handle_net_event(&mut self, now: SimTime, side: End, ev: &NetEvent, net: &dyn NetView) {
        // cSCTP: the mobile's address events; its end is pumped at once.
        let s = side;
        if let Some(c) = self.csctp.as_mut().filter(|c| c.side == s) {
            if c.hear(ev) {
                c.pump_due = Some(now);
            }
        }
        if side != End::Src {
            return;
        }
        let node = self.sides[CLIENT].node;
        let SctpFlow { sides, asctp, .. } = self;
        let (Some(m), Some(a)) = (asctp.as_mut(), sides[CLIENT].assoc_mut()) else {
            return;
        };
        let relevant = match ev {
            NetEvent::RouteFound { dst } | NetEvent::RouteBroken { dst } => *dst == m.peer,
            NetEvent::LinkBroken { .. } => true,
            _ => false,
        };
        if relevant {
            // Argyriou & Madisetti 2004 §3: "DSR notifies SCTP when the primary route fails".
            m.refresh(now, node, a, net);
        }
    }

    fn refresh_routes(&mut self, now: SimTime, net: &dyn NetView) {
        let node = self.sides[CLIENT].node;
        let SctpFlow { sides, asctp, .. } = self;
        if let (Some(m), Some(a)) = (asctp.as_mut(), sides[CLIENT].assoc_mut()) {
            m.check_if_due(now, node, a, net);
        }
    }

    fn drop_rows(
        &mut self,
        now: SimTime,
        bytes: &[u8],
        reason: DropReason,
        series: &mut TimeSeries,
    ) -> u64 {
        self.drop_rows_of(now, bytes, reason, series)
    }

    fn sample(&mut self, t: f64, series: &mut TimeSeries) {
        self.sample_rows(t, series);
    }

    fn bytes_delivered(&self) -> u64 {
        self.sink.stats().bytes
    }

    fn result(&self, base: FlowResult, end: SimTime) -> (FlowResult, SimTime) {
        (self.flow_result(base), self.active_end(end))
    }

    fn malformed(&self) -> u64 {
        self.sides.iter().map(|sd| sd.malformed).sum()
    }

    fn result_rows(&self, tables: &mut TransportTables) {
        self.sctp_rows(tables);
    }

    fn handoff_log(&self) -> Option<&CsctpLog> {
        self.csctp_log()
    }
}

/// The association's request kind of a scenario action.
fn reconfig_kind(
    k: crate::scenario::ReconfigActionKind,
) -> sctpsim_proto::transport::sctp::ReconfigRequestKind {
    use crate::scenario::ReconfigActionKind as K;
    use sctpsim_proto::transport::sctp::ReconfigRequestKind as R;
    match k {
        K::ResetOutgoing => R::ResetOutgoing,
        K::ResetIncoming => R::ResetIncoming,
        K::ResetSsnTsn => R::ResetSsnTsn,
        K::AddOutgoing => R::AddOutgoing,
        K::AddIncoming => R::AddIncoming,
    }
}

/// The `dir` of a side's rows.
pub(super) fn side_name(side: End) -> &'static str {
    if side == SERVER {
        "dst"
    } else {
        "src"
    }
}
