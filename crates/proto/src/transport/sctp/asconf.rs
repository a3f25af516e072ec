//! Dynamic address reconfiguration (RFC 5061): Add IP Address, Delete IP Address and Set
//! Primary Address requests with ASCONF serial numbers, one ASCONF outstanding at a time with
//! T4-RTO (§5.1), the receiver's serial-number rules and parameter checks (§5.2, §5.2.1–5.2.3
//! error causes: deleting the last address, deleting the packet's source address, unknown
//! addresses, resource shortage), and ASCONF-ACK processing (§5.3).
//!
//! RFC 5061 §4.1.1 requires ASCONF to be authenticated with AUTH (RFC 4895). With
//! [`super::SctpConfig::auth`] on, ASCONF is used only if AUTH is negotiated and unauthenticated
//! ASCONF chunks are discarded (`auth.rs`); with it off (every profile's default, so that the
//! studies' packets keep their sizes) ASCONF is offered and accepted without AUTH, a documented
//! deviation (`docs/models/sctp.md`, "AUTH").

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr};

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{
    AsconfAckChunk, AsconfChunk, ChunkRepr, ErrorCause, HandoffIndication, Parameter,
    UnrecognizedAction,
};

use super::api::{ApiError, AsconfRequestKind, SctpEvent};
use super::association::{Flow, PacketCtx, SctpAssociation};
use super::timers::Timer;

/// One request of an ASCONF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsconfRequest {
    /// What is asked.
    pub kind: AsconfRequestKind,
    /// For which of our addresses.
    pub addr: Ipv4Addr,
    /// ASCONF-Request Correlation ID.
    pub correlation_id: u32,
}

/// The ASCONF in flight.
#[derive(Debug, Clone)]
struct Outstanding {
    chunk: AsconfChunk,
    dest: Ipv4Addr,
    requests: Vec<AsconfRequest>,
}

/// ASCONF state of an association (RFC 5061 §5.1–5.3).
#[derive(Debug, Clone)]
pub struct AsconfState {
    /// Serial number of our next ASCONF (RFC 5061 §5.1: initialized to our Initial TSN).
    next_serial: u32,
    outstanding: Option<Outstanding>,
    /// Requests waiting for the next ASCONF, with the cSCTP handoff indication the ASCONF
    /// carrying them must have.
    queue: VecDeque<(AsconfRequestKind, Ipv4Addr, HandoffIndication)>,
    /// The last serial number processed from the peer (initialized to the peer's Initial TSN
    /// minus one, so the first expected is its Initial TSN).
    peer_serial: u32,
    /// The ASCONF-ACK last sent, for retransmitted ASCONFs (RFC 5061 §5.2 "the ASCONF-ACK
    /// ... MUST be retransmitted").
    last_ack: Option<AsconfAckChunk>,
    next_correlation: u32,
    /// The source address of our ASCONFs, if set ([`SctpAssociation::set_asconf_source`]).
    source: Option<Ipv4Addr>,
}

impl AsconfState {
    /// A fresh state: our first serial is `my_initial_tsn`, the last seen peer serial
    /// `peer_last`.
    pub fn new(my_initial_tsn: u32, peer_last: u32) -> Self {
        AsconfState {
            next_serial: my_initial_tsn,
            outstanding: None,
            queue: VecDeque::new(),
            peer_serial: peer_last,
            last_ack: None,
            next_correlation: 1,
            source: None,
        }
    }

    /// Whether an ASCONF awaits its ASCONF-ACK.
    pub fn is_outstanding(&self) -> bool {
        self.outstanding.is_some()
    }

    /// Whether our address `addr` is being deleted (a Delete IP for it is queued or awaits its
    /// ASCONF-ACK): it is no longer used as a source.
    pub fn deleting(&self, addr: Ipv4Addr) -> bool {
        let del = AsconfRequestKind::DeleteIp;
        self.queue.iter().any(|q| q.0 == del && q.1 == addr)
            || self
                .outstanding
                .as_ref()
                .is_some_and(|o| o.requests.iter().any(|r| r.kind == del && r.addr == addr))
    }
}

fn addr_param(a: Ipv4Addr) -> Parameter {
    Parameter::Address(IpAddr::V4(a))
}

impl SctpAssociation {
    pub(crate) fn queue_asconf(
        &mut self,
        now: SimTime,
        kind: AsconfRequestKind,
        addr: Ipv4Addr,
        handoff: HandoffIndication,
    ) -> Result<(), ApiError> {
        if !self.asconf_ok {
            return Err(ApiError::NotSupported);
        }
        if !self.state.is_established_or_closing() {
            return Err(ApiError::InvalidState);
        }
        self.asconf.queue.push_back((kind, addr, handoff));
        self.send_next_asconf(now);
        Ok(())
    }

    /// RFC 5061 §4.2.1 Add IP Address: offers our new address `addr` to the peer. The address
    /// becomes usable as a source once the peer acknowledges it
    /// ([`SctpEvent::AsconfResult`]).
    pub fn add_local_address(&mut self, now: SimTime, addr: Ipv4Addr) -> Result<(), ApiError> {
        self.queue_add_ip(now, addr, HandoffIndication::None)
    }

    /// Add IP of `addr` with `handoff` in the ASCONF's flags (plain or cSCTP).
    pub(crate) fn queue_add_ip(
        &mut self,
        now: SimTime,
        addr: Ipv4Addr,
        handoff: HandoffIndication,
    ) -> Result<(), ApiError> {
        if self.local_addrs.contains(&addr) {
            return Err(ApiError::AddressExists);
        }
        self.queue_asconf(now, AsconfRequestKind::AddIp, addr, handoff)
    }

    /// RFC 5061 §4.2.2 Delete IP Address: withdraws our address `addr`.
    pub fn delete_local_address(&mut self, now: SimTime, addr: Ipv4Addr) -> Result<(), ApiError> {
        self.queue_delete_ip(now, addr, HandoffIndication::None)
    }

    /// Delete IP of `addr` with `handoff` in the ASCONF's flags (plain or cSCTP).
    pub(crate) fn queue_delete_ip(
        &mut self,
        now: SimTime,
        addr: Ipv4Addr,
        handoff: HandoffIndication,
    ) -> Result<(), ApiError> {
        if !self.local_addrs.contains(&addr) {
            return Err(ApiError::UnknownAddress);
        }
        if self.local_addrs.len() < 2 {
            return Err(ApiError::LastAddress);
        }
        self.queue_asconf(now, AsconfRequestKind::DeleteIp, addr, handoff)
    }

    /// RFC 5061 §4.2.4 Set Primary Address: asks the peer to send to our address `addr`.
    pub fn request_peer_primary(&mut self, now: SimTime, addr: Ipv4Addr) -> Result<(), ApiError> {
        self.queue_asconf(
            now,
            AsconfRequestKind::SetPrimary,
            addr,
            HandoffIndication::None,
        )
    }

    /// RFC 5061 §5.1 A1–A5: if no ASCONF is outstanding, bundle the queued requests into one
    /// with the next serial number, send it and start T4-RTO. A request with a cSCTP handoff
    /// indication goes alone in its ASCONF (the flag is per chunk, so it must not be bundled
    /// with requests that do not belong to the handoff).
    fn send_next_asconf(&mut self, now: SimTime) {
        if self.asconf.outstanding.is_some() || self.asconf.queue.is_empty() {
            return;
        }
        let mut requests = Vec::new();
        let mut params = Vec::new();
        let handoff = self
            .asconf
            .queue
            .front()
            .map_or(HandoffIndication::None, |q| q.2);
        while let Some(&(kind, addr, h)) = self.asconf.queue.front() {
            if !requests.is_empty() && (h != HandoffIndication::None || handoff != h) {
                break;
            }
            self.asconf.queue.pop_front();
            let correlation_id = self.asconf.next_correlation;
            self.asconf.next_correlation = self.asconf.next_correlation.wrapping_add(1);
            let address = IpAddr::V4(addr);
            params.push(match kind {
                AsconfRequestKind::AddIp => Parameter::AddIpAddress {
                    correlation_id,
                    address,
                },
                AsconfRequestKind::DeleteIp => Parameter::DeleteIpAddress {
                    correlation_id,
                    address,
                },
                AsconfRequestKind::SetPrimary => Parameter::SetPrimaryAddress {
                    correlation_id,
                    address,
                },
            });
            requests.push(AsconfRequest {
                kind,
                addr,
                correlation_id,
            });
        }
        let dest = self.data_dest(now);
        // §5.1: the Address Parameter is an address of the sender already in the association
        // (not one being added or deleted).
        let changing: Vec<Ipv4Addr> = requests
            .iter()
            .filter(|r| r.kind != AsconfRequestKind::SetPrimary)
            .map(|r| r.addr)
            .collect();
        let source = self
            .path(dest)
            .map(|p| p.source)
            .unwrap_or(Ipv4Addr::UNSPECIFIED);
        let address = if !changing.contains(&source) {
            source
        } else {
            self.local_addrs
                .iter()
                .copied()
                .find(|a| !changing.contains(a))
                .unwrap_or(source)
        };
        // An address being deleted is no longer used as a source (RFC 5061 §5.2 refuses a
        // request to delete the ASCONF's own source address): the paths that used it send from
        // the ASCONF's Address Parameter from now on, this ASCONF included.
        if !changing.contains(&address) {
            for r in requests
                .iter()
                .filter(|r| r.kind == AsconfRequestKind::DeleteIp)
            {
                for p in &mut self.paths {
                    if p.source == r.addr {
                        p.source = address;
                        p.source_pinned = false;
                    }
                }
            }
        }
        let chunk = AsconfChunk {
            handoff,
            sequence_number: self.asconf.next_serial,
            address: IpAddr::V4(address),
            params,
        };
        self.asconf.next_serial = self.asconf.next_serial.wrapping_add(1);
        self.asconf.outstanding = Some(Outstanding {
            chunk: chunk.clone(),
            dest,
            requests,
        });
        self.transmit_asconf(now, dest, chunk);
    }

    fn transmit_asconf(&mut self, now: SimTime, dest: Ipv4Addr, chunk: AsconfChunk) {
        self.stats.asconfs_sent += 1;
        self.ctrl.push((dest, ChunkRepr::Asconf(chunk)));
        let rto = self
            .path(dest)
            .map(|p| p.rto.rto())
            .unwrap_or(self.cfg.rto_initial);
        self.timers.set(Timer::T4Asconf, now + rto);
    }

    /// RFC 5061 §5.1 B1–B5: T4-RTO expired: count the error on the destination and the
    /// association, back off its RTO, and retransmit the same ASCONF (to an alternate
    /// destination if there is one).
    pub(crate) fn on_t4_asconf(&mut self, now: SimTime) {
        let Some(out) = self.asconf.outstanding.clone() else {
            return;
        };
        if self.strike(now, out.dest) {
            return;
        }
        self.back_off_rto(out.dest);
        let dest = self.alternate(out.dest);
        if let Some(o) = &mut self.asconf.outstanding {
            o.dest = dest;
        }
        self.transmit_asconf(now, dest, out.chunk);
    }

    /// RFC 5061 §5.2: an ASCONF from the peer.
    pub(crate) fn on_asconf(&mut self, now: SimTime, ctx: &mut PacketCtx, a: &AsconfChunk) -> Flow {
        if !self.state.is_established_or_closing() {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let expected = self.asconf.peer_serial.wrapping_add(1);
        if a.sequence_number == self.asconf.peer_serial {
            // §5.2 (C2): a retransmission of the last ASCONF: resend the same ASCONF-ACK.
            if let Some(ack) = self.asconf.last_ack.clone() {
                let t = self.reply(ctx, self.peer_vtag, vec![ChunkRepr::AsconfAck(ack)]);
                self.pending.push_back(t);
            }
            return Flow::Continue;
        }
        if a.sequence_number != expected {
            // Anything else is silently discarded.
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        self.asconf.peer_serial = expected;
        let src = ctx.src.unwrap_or(Ipv4Addr::UNSPECIFIED);
        let mut responses: Vec<(u32, Option<ErrorCause>)> = Vec::new();
        let (mut added, mut deleted) = (false, false);
        for p in &a.params {
            let (corr, result) = match p {
                Parameter::AddIpAddress {
                    correlation_id,
                    address,
                } => (*correlation_id, self.asconf_add(now, p, *address, src)),
                Parameter::DeleteIpAddress {
                    correlation_id,
                    address,
                } => (*correlation_id, self.asconf_delete(now, p, *address, src)),
                Parameter::SetPrimaryAddress {
                    correlation_id,
                    address,
                } => (*correlation_id, self.asconf_set_primary(p, *address, src)),
                Parameter::Unknown { kind, .. } => {
                    // RFC 9260 §3.2.1 bits, reported in an Error Cause Indication.
                    let action = UnrecognizedAction::for_parameter_type(*kind);
                    if action.reports() {
                        let parameters = p.to_bytes().unwrap_or_default();
                        responses
                            .push((0, Some(ErrorCause::UnrecognizedParameters { parameters })));
                    }
                    if action.stops() {
                        break;
                    }
                    continue;
                }
                _ => continue,
            };
            match p {
                Parameter::AddIpAddress { .. } => added |= result.is_ok(),
                Parameter::DeleteIpAddress { .. } => deleted |= result.is_ok(),
                _ => {}
            }
            responses.push((corr, result.err()));
        }
        self.on_peer_asconf_done(now, a.handoff, added, deleted);
        // Responses: every error; a success only once an error came before it (RFC 5061 §5.3:
        // requests without a response before the first error count as successful).
        let mut params = Vec::new();
        let mut seen_error = false;
        for (correlation_id, r) in responses {
            match r {
                Some(cause) => {
                    seen_error = true;
                    params.push(Parameter::ErrorCauseIndication {
                        correlation_id,
                        causes: vec![cause],
                    });
                }
                None if seen_error => params.push(Parameter::SuccessIndication { correlation_id }),
                None => {}
            }
        }
        let ack = AsconfAckChunk {
            sequence_number: a.sequence_number,
            params,
        };
        self.asconf.last_ack = Some(ack.clone());
        let t = self.reply(ctx, self.peer_vtag, vec![ChunkRepr::AsconfAck(ack)]);
        self.pending.push_back(t);
        Flow::Continue
    }

    fn asconf_add(
        &mut self,
        now: SimTime,
        p: &Parameter,
        address: IpAddr,
        src: Ipv4Addr,
    ) -> Result<(), ErrorCause> {
        let IpAddr::V4(mut a) = address else {
            return Err(ErrorCause::UnresolvableAddress {
                address: p.to_bytes().unwrap_or_default(),
            });
        };
        // RFC 5061 §4.2.1: the wildcard address stands for the packet's source address.
        if a.is_unspecified() {
            a = src;
        }
        if self.path_index(a).is_some() {
            return Ok(());
        }
        if !self.add_path(a, false) {
            return Err(ErrorCause::OperationRefusedResourceShortage {
                request: p.to_bytes().unwrap_or_default(),
            });
        }
        self.events.push_back(SctpEvent::PathAdded { addr: a });
        // §5.4 of RFC 9260 via RFC 5061 §5.2: the new address is confirmed with a heartbeat.
        self.timers.set(Timer::Heartbeat(a), now);
        Ok(())
    }

    fn asconf_delete(
        &mut self,
        now: SimTime,
        p: &Parameter,
        address: IpAddr,
        src: Ipv4Addr,
    ) -> Result<(), ErrorCause> {
        let request = || p.to_bytes().unwrap_or_default();
        let IpAddr::V4(a) = address else {
            return Err(ErrorCause::UnresolvableAddress { address: request() });
        };
        // RFC 5061 §5.2: "If the request is to delete the source address of the packet, the
        // receiver MUST reject it with 'Request to Delete Source IP Address'".
        if a == src {
            return Err(ErrorCause::DeleteSourceAddress { request: request() });
        }
        let Some(i) = self.path_index(a) else {
            return Err(ErrorCause::UnresolvableAddress {
                address: addr_param(a).to_bytes().unwrap_or_default(),
            });
        };
        // "... 'Request to Delete Last Remaining IP Address'".
        if self.paths.len() == 1 {
            return Err(ErrorCause::DeleteLastRemainingAddress { request: request() });
        }
        // Data in flight to the deleted address is retransmitted elsewhere; new data goes to
        // the source of the ASCONF if the primary goes away.
        let to = if self.path_index(src).is_some() {
            src
        } else {
            self.alternate(a)
        };
        self.tx.mark_t3(a, to, &mut self.paths);
        self.tx.redirect(a, to);
        self.paths.remove(i);
        self.timers.stop_path(a);
        if self.primary == a {
            self.primary = to;
            self.events
                .push_back(SctpEvent::PrimaryChanged { addr: to });
        }
        if self.current == a {
            self.current = to;
        }
        if self.sack_dest == Some(a) {
            self.sack_dest = Some(to);
        }
        self.ctrl
            .iter_mut()
            .filter(|(d, _)| *d == a)
            .for_each(|(d, _)| *d = to);
        self.events.push_back(SctpEvent::PathRemoved { addr: a });
        let _ = now;
        Ok(())
    }

    fn asconf_set_primary(
        &mut self,
        p: &Parameter,
        address: IpAddr,
        src: Ipv4Addr,
    ) -> Result<(), ErrorCause> {
        let IpAddr::V4(mut a) = address else {
            return Err(ErrorCause::UnresolvableAddress {
                address: p.to_bytes().unwrap_or_default(),
            });
        };
        if a.is_unspecified() {
            a = src;
        }
        if self.path_index(a).is_none() {
            return Err(ErrorCause::UnresolvableAddress {
                address: addr_param(a).to_bytes().unwrap_or_default(),
            });
        }
        if self.primary != a {
            self.primary = a;
            self.switch_cause = Some(super::stats::SwitchCause::Primary);
            self.events.push_back(SctpEvent::PrimaryChanged { addr: a });
        }
        Ok(())
    }

    /// RFC 5061 §5.3: an ASCONF-ACK.
    pub(crate) fn on_asconf_ack(
        &mut self,
        now: SimTime,
        _ctx: &mut PacketCtx,
        ack: &AsconfAckChunk,
    ) -> Flow {
        let Some(out) = self.asconf.outstanding.clone() else {
            // A duplicate of an ASCONF-ACK already processed.
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        };
        if ack.sequence_number != out.chunk.sequence_number {
            if ack.sequence_number == out.chunk.sequence_number.wrapping_sub(1) {
                self.stats.chunks_dropped += 1;
                return Flow::Continue;
            }
            // RFC 5061 §5.3: an ASCONF-ACK for an ASCONF never sent aborts the association
            // with "Association Aborted due to Illegal ASCONF-ACK".
            self.abort_with(now, ErrorCause::IllegalAsconfAck, None);
            return Flow::Stop;
        }
        self.timers.stop(Timer::T4Asconf);
        self.asconf.outstanding = None;
        self.error_count = 0;
        self.path_ok(out.dest);
        // A request before the first error without a response succeeded; after an error, only
        // an explicit Success Indication counts.
        let mut failed_from = None;
        for (pos, r) in out.requests.iter().enumerate() {
            let error = ack.params.iter().any(|p| {
                matches!(p, Parameter::ErrorCauseIndication { correlation_id, .. } if *correlation_id == r.correlation_id)
            });
            if error && failed_from.is_none() {
                failed_from = Some(pos);
            }
        }
        let (mut added, mut deleted) = (false, false);
        for (pos, r) in out.requests.iter().enumerate() {
            let error = ack.params.iter().any(|p| {
                matches!(p, Parameter::ErrorCauseIndication { correlation_id, .. } if *correlation_id == r.correlation_id)
            });
            let success_ind = ack.params.iter().any(|p| {
                matches!(p, Parameter::SuccessIndication { correlation_id } if *correlation_id == r.correlation_id)
            });
            let success = !error && (failed_from.is_none_or(|f| pos < f) || success_ind);
            if success {
                self.apply_asconf_success(now, r);
                added |= r.kind == AsconfRequestKind::AddIp;
                deleted |= r.kind == AsconfRequestKind::DeleteIp;
            }
            self.events.push_back(SctpEvent::AsconfResult {
                kind: r.kind,
                addr: r.addr,
                success,
            });
        }
        self.on_own_asconf_acked(now, out.chunk.handoff, added, deleted);
        self.send_next_asconf(now);
        Flow::Continue
    }

    fn apply_asconf_success(&mut self, _now: SimTime, r: &AsconfRequest) {
        match r.kind {
            AsconfRequestKind::AddIp => {
                if !self.local_addrs.contains(&r.addr) {
                    self.local_addrs.push(r.addr);
                }
            }
            AsconfRequestKind::DeleteIp => {
                self.local_addrs.retain(|a| *a != r.addr);
                let fallback = self
                    .local_addrs
                    .first()
                    .copied()
                    .unwrap_or(Ipv4Addr::UNSPECIFIED);
                for p in &mut self.paths {
                    if p.source == r.addr {
                        p.source = fallback;
                        p.source_pinned = false;
                    }
                }
            }
            AsconfRequestKind::SetPrimary => {}
        }
    }
}

impl SctpAssociation {
    /// Send our ASCONFs from `addr` (`None`: from the source of the path they go to, the
    /// default). `addr` may be an address not yet part of the association — a new address
    /// whose add-ip the ASCONF carries, when the old ones no longer reach the peer: the peer
    /// finds the association by the ASCONF's Address Parameter (RFC 5061 §5.1, §5.2; FreeBSD's
    /// `sctp_findassociation_ep_asconf`, [`super::SctpEndpoint::handle_packet`]) and answers
    /// to the packet's source (§5.2 "the ASCONF-ACK ... to the source address"). Cellular
    /// SCTP's mobile sends its ASCONFs from its strongest address (Aydin & Shen 2005 §III).
    pub fn set_asconf_source(&mut self, addr: Option<Ipv4Addr>) {
        self.asconf.source = addr;
    }

    /// The source address set for ASCONFs, if any.
    pub(crate) fn asconf_source(&self) -> Option<Ipv4Addr> {
        self.asconf.source
    }
}
