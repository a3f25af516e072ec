//! Cellular SCTP (cSCTP), after Aydin & Shen, "Evaluating Cellular SCTP over One-Hop Wireless
//! Networks" (§II): handoff signalling between a mobile node (MN) and its correspondent node
//! (CN), and the paper's proposed (unevaluated) duplicated transfer during a handoff with
//! per-path SACKs.
//!
//! * Signalling: the MN's *modified* ASCONF carries a handoff indication in its flags (wire:
//!   `sctpsim_wire::sctp::HandoffIndication`): Start with the Add IP of a newly acquired
//!   address, End with the Delete IP of an address it lost.
//! * State machines (the paper's Fig. 3, whose drawing is not in the text we have; ours,
//!   generalised to more than two addresses by counting them):
//!   - MN: Normal → Handoff when the peer acknowledges its Add IP with the Start indication;
//!     Handoff → Normal when it is left with one address (normally: the Delete IP with the End
//!     indication was acknowledged).
//!   - CN: Normal → Handoff when it accepted the Add IP of an ASCONF with the Start
//!     indication; Handoff → Normal when the peer is left with one address (normally: the
//!     Delete IP of an ASCONF with the End indication).
//!
//!   Each change is reported as [`SctpEvent::Handoff`].
//! * Duplicated transfer ([`CsctpConfig::duplicate_during_handoff`]): the CN in Handoff sends
//!   every new DATA chunk to the primary and a copy to one other confirmed peer address, if
//!   that path's cwnd has room (`retransmit/perpath.rs`); the MN in Handoff acknowledges each
//!   local address separately with per-path SACKs sent from that address (`csctp_rx.rs`).
//!   Outside a handoff, or with the option off, everything is standard SCTP.

use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{ChunkRepr, DataChunk, ErrorCause, HandoffIndication, SackChunk, Tsn};

use super::api::{ApiError, SctpEvent};
use super::association::{Flow, SctpAssociation};
use super::congestion::{AckSample, CongestionControl, Standard};
use super::csctp_rx::PerPathRx;
use super::path::RttProbe;
use super::retransmit::SackRules;
use super::stats::MetricKind;
use super::timers::Timer;

/// cSCTP options ([`super::SctpConfig::csctp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CsctpConfig {
    /// Handoff signalling and state machines (the modified ASCONF; Aydin & Shen §II). A peer
    /// without it ignores the indication (RFC 5061 §5.1 reserved flags).
    pub enabled: bool,
    /// During a handoff, duplicate new DATA to a second peer address (sender) and acknowledge
    /// per local address (receiver): the paper's proposal for which it gives no results. Needs
    /// `enabled`.
    pub duplicate_during_handoff: bool,
}

/// The handoff state of this end (Aydin & Shen Fig. 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HandoffState {
    /// One address in use at the MN.
    #[default]
    Normal,
    /// The MN has addresses in more than one access network.
    Handoff,
}

/// Which of the two cSCTP state machines an association runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandoffRole {
    /// The mobile node: it sends the handoff indications.
    MobileNode,
    /// The correspondent node: it receives them.
    Correspondent,
}

/// cSCTP state of an association.
#[derive(Debug, Clone, Default)]
pub(crate) struct CsctpState {
    state: HandoffState,
    role: Option<HandoffRole>,
    /// Receiver: per-local-address ack state (MN in Handoff with duplicated transfer).
    rx: PerPathRx,
    /// Receiver (with duplicated transfer on, in any state): the local address each TSN above
    /// the global cumulative TSN arrived at, so that a path's per-path state starts with what
    /// it already received.
    arrivals: std::collections::BTreeMap<u32, Ipv4Addr>,
    /// Sender: duplicates waiting to go out, with their destination.
    dup_out: Vec<(Ipv4Addr, u64, DataChunk)>,
    /// Sender: per path, the per-path cumulative ack last seen (exclusive index) and the
    /// per-path Fast Recovery exit point (RFC 9260 §7.2.4, applied per path).
    path_cum: std::collections::BTreeMap<Ipv4Addr, (i64, Option<u64>)>,
}

impl SctpAssociation {
    // ----------------------------------------------------------------- API

    /// cSCTP: offers our newly acquired address `addr` (RFC 5061 Add IP) in an ASCONF that
    /// signals the start of a handoff. [`SctpEvent::Handoff`] follows its acknowledgement.
    ///
    /// Errors: [`ApiError::NotSupported`] without [`CsctpConfig::enabled`] or ASCONF;
    /// [`ApiError::AddressExists`]; [`ApiError::InvalidState`] before ESTABLISHED.
    pub fn add_local_address_handoff(
        &mut self,
        now: SimTime,
        addr: Ipv4Addr,
    ) -> Result<(), ApiError> {
        if !self.cfg.csctp.enabled {
            return Err(ApiError::NotSupported);
        }
        self.queue_add_ip(now, addr, HandoffIndication::Start)
    }

    /// cSCTP: withdraws our address `addr` (RFC 5061 Delete IP) in an ASCONF that signals the
    /// end of the handoff.
    ///
    /// Errors: [`ApiError::NotSupported`], [`ApiError::UnknownAddress`],
    /// [`ApiError::LastAddress`], [`ApiError::InvalidState`].
    pub fn delete_local_address_handoff(
        &mut self,
        now: SimTime,
        addr: Ipv4Addr,
    ) -> Result<(), ApiError> {
        if !self.cfg.csctp.enabled {
            return Err(ApiError::NotSupported);
        }
        self.queue_delete_ip(now, addr, HandoffIndication::End)
    }

    /// cSCTP: this end's handoff state ([`HandoffState::Normal`] without cSCTP).
    pub fn handoff_state(&self) -> HandoffState {
        self.csctp.state
    }

    /// cSCTP: which state machine this end runs, once a handoff indication was sent and
    /// acknowledged or received.
    pub fn handoff_role(&self) -> Option<HandoffRole> {
        self.csctp.role
    }

    // ----------------------------------------------------------------- state machines

    fn csctp_set(&mut self, now: SimTime, state: HandoffState, role: HandoffRole) {
        self.csctp.role = Some(role);
        if self.csctp.state == state {
            return;
        }
        self.csctp.state = state;
        let started = state == HandoffState::Handoff;
        self.events.push_back(SctpEvent::Handoff { started, role });
        if !started {
            self.csctp_leave(now);
        }
    }

    /// Back to standard SCTP: per-path receive state and copies are forgotten; a standard
    /// SACK soon tells the sender the whole receive state.
    fn csctp_leave(&mut self, _now: SimTime) {
        if !self.cfg.csctp.duplicate_during_handoff {
            return; // signalling only: nothing to undo
        }
        let had_rx_state = !self.csctp.rx.due().is_empty();
        self.csctp.rx.clear();
        self.csctp.dup_out.clear();
        self.csctp.path_cum.clear();
        self.tx.drop_copies(&mut self.paths);
        for p in &mut self.paths {
            // A probe may be a duplicate that no standard SACK will credit.
            p.rtt_probe = None;
        }
        if had_rx_state || self.rx.sack_pending() {
            self.rx.request_sack();
        }
    }

    /// Our ASCONF with `indication` was acknowledged (`added` / `deleted`: its Add IP / Delete
    /// IP succeeded).
    pub(crate) fn csctp_own_asconf_acked(
        &mut self,
        now: SimTime,
        indication: HandoffIndication,
        added: bool,
        deleted: bool,
    ) {
        let addresses = self.local_addrs.len();
        self.csctp_step(
            now,
            (indication, added, deleted),
            addresses,
            HandoffRole::MobileNode,
        );
    }

    /// The peer's ASCONF with `indication` was processed.
    pub(crate) fn csctp_peer_asconf(
        &mut self,
        now: SimTime,
        indication: HandoffIndication,
        added: bool,
        deleted: bool,
    ) {
        let addresses = self.paths.len();
        self.csctp_step(
            now,
            (indication, added, deleted),
            addresses,
            HandoffRole::Correspondent,
        );
    }

    /// One step of the MN's or the CN's machine: an Add IP with the start indication that
    /// leaves the mobile with more than one address starts a handoff; a Delete IP (or the end
    /// indication) that leaves it with one ends it. `addresses`: the mobile's addresses as this
    /// end counts them (its own, or the paths to the peer).
    fn csctp_step(
        &mut self,
        now: SimTime,
        (indication, added, deleted): (HandoffIndication, bool, bool),
        addresses: usize,
        role: HandoffRole,
    ) {
        if !self.cfg.csctp.enabled {
            return;
        }
        if indication == HandoffIndication::Start && added && addresses > 1 {
            self.csctp_set(now, HandoffState::Handoff, role);
        } else if self.csctp.state == HandoffState::Handoff
            && (deleted || indication == HandoffIndication::End)
            && addresses <= 1
        {
            self.csctp_set(now, HandoffState::Normal, role);
        }
    }

    fn csctp_dup_on(&self) -> bool {
        self.cfg.csctp.enabled
            && self.cfg.csctp.duplicate_during_handoff
            && self.csctp.state == HandoffState::Handoff
    }

    // ----------------------------------------------------------------- receiver (MN)

    /// Whether DATA is acknowledged per local address now.
    pub(crate) fn csctp_rx_active(&self) -> bool {
        self.csctp_dup_on() && self.csctp.role == Some(HandoffRole::MobileNode)
    }

    /// A DATA chunk the receive state accepted (new or duplicate) arrived at our `local`
    /// address from `peer`; `global_cum` was the cumulative TSN before it.
    pub(crate) fn csctp_on_data(
        &mut self,
        local: Ipv4Addr,
        peer: Ipv4Addr,
        global_cum: Tsn,
        tsn: Tsn,
    ) {
        if !(self.cfg.csctp.enabled && self.cfg.csctp.duplicate_during_handoff) {
            return;
        }
        // An address being deleted no longer sends (RFC 5061 §5.2 refuses to delete the source
        // of the ASCONF; the peer may already have removed it): no per-path SACK from it.
        let usable = self.local_addrs.contains(&local) && !self.asconf.deleting(local);
        if !usable {
            self.csctp.rx.remove(local);
        }
        if self.csctp_rx_active() && usable {
            let earlier: Vec<Tsn> = self
                .csctp
                .arrivals
                .iter()
                .filter(|(_, a)| **a == local)
                .map(|(t, _)| Tsn(*t))
                .collect();
            self.csctp
                .rx
                .on_chunk(local, peer, global_cum, tsn, &earlier);
        }
        self.csctp.arrivals.insert(tsn.0, local);
        let cum = self.rx.cum_tsn();
        self.csctp
            .arrivals
            .retain(|t, _| (t.wrapping_sub(cum.0) as i32) > 0);
    }

    /// Per-path SACK scheduling after a packet with DATA at `local` (instead of the global
    /// one). Returns whether the delayed-SACK timer should run.
    pub(crate) fn csctp_after_data_packet(&mut self, local: Ipv4Addr) -> bool {
        let cum = self.rx.cum_tsn();
        self.csctp.rx.close_holes(cum);
        self.csctp.rx.on_packet(local, &self.cfg)
    }

    /// The delayed-SACK timer expired: every path with unacknowledged packets gets its SACK.
    pub(crate) fn csctp_delayed_sack(&mut self) {
        if self.csctp_rx_active() {
            self.csctp.rx.make_due(false);
        }
    }

    /// Queues the per-path SACKs that are due, each from its local address (its source
    /// address identifies the path to the sender; the path's pinned source is not used).
    /// A standard SACK that became due meanwhile (window update, FORWARD TSN, ...) is turned
    /// into per-path SACKs of every path.
    pub(crate) fn csctp_queue_sacks(&mut self, now: SimTime) {
        if !self.csctp_rx_active() || !self.state.is_established_or_closing() {
            return;
        }
        if self.rx.sack_due() {
            self.csctp.rx.make_due(true);
        }
        for (local, _) in self.csctp.rx.due() {
            if !self.local_addrs.contains(&local) || self.asconf.deleting(local) {
                self.csctp.rx.remove(local);
            }
        }
        let due = self.csctp.rx.due();
        if due.is_empty() {
            return;
        }
        // The global SACK obligations are met by the per-path SACKs.
        if self.rx.sack_pending() || self.rx.sack_due() {
            let _ = self.rx.build_sack(Some(0), 0);
        }
        self.timers.stop(Timer::DelayedSack);
        let a_rwnd = self.rx.rwnd();
        for (local, peer) in due {
            let dest = if self.path_index(peer).is_some() {
                peer
            } else {
                self.current
            };
            let budget = self
                .path(dest)
                .map(|p| p.chunk_budget())
                .unwrap_or(usize::from(self.cfg.pmtu).saturating_sub(32));
            let Some(sack) = self
                .csctp
                .rx
                .build(local, a_rwnd, self.cfg.max_gap_blocks, budget)
            else {
                continue;
            };
            self.stats.sacks_sent += 1;
            self.stats.csctp_per_path_sacks_sent += 1;
            self.stats.gap_blocks_sent += sack.gap_blocks.len() as u64;
            self.stats.duplicate_tsns_sent += sack.duplicate_tsns.len() as u64;
            self.metric(
                now,
                MetricKind::SackSent {
                    gap_blocks: sack.gap_blocks.len() as u16,
                    duplicates: sack.duplicate_tsns.len() as u16,
                },
            );
            let mut pkt = self.make_packet(dest, self.peer_vtag, vec![ChunkRepr::Sack(sack)]);
            pkt.src = local;
            self.last_sack_dest = Some(dest);
            self.pending.push_back(pkt);
        }
    }

    // ----------------------------------------------------------------- sender (CN)

    fn csctp_tx_active(&self) -> bool {
        self.csctp_dup_on() && self.csctp.role == Some(HandoffRole::Correspondent)
    }

    /// The destination of duplicates when new data goes to `dest`: the most recently added
    /// other usable (confirmed, active) peer address.
    fn csctp_secondary(&self, dest: Ipv4Addr) -> Option<Ipv4Addr> {
        self.paths
            .iter()
            .rev()
            .find(|p| p.addr != dest && p.usable())
            .map(|p| p.addr)
    }

    /// New DATA chunk `idx` was just sent to `dest`: during a handoff a copy goes to the
    /// secondary path if its cwnd has room (otherwise the chunk is not duplicated).
    pub(crate) fn csctp_duplicate(&mut self, now: SimTime, idx: u64, dest: Ipv4Addr) {
        // The copies are DATA chunks; with I-DATA they would be a protocol violation.
        if !self.csctp_tx_active() || self.i_data {
            return;
        }
        let Some(s) = self.csctp_secondary(dest) else {
            return;
        };
        let Some(c) = self.tx.chunks.get(&idx) else {
            return;
        };
        let (len, chunk) = (c.len, c.chunk.clone());
        let Some(pi) = self.path_index(s) else {
            return;
        };
        let p = &mut self.paths[pi];
        if p.flight_size.saturating_add(len) > p.cwnd {
            // The window is the limit: RFC 9260 §7.2.1 lets it grow only then.
            p.cwnd_limited = true;
            self.stats.csctp_not_duplicated += 1;
            return;
        }
        self.tx.add_copy(idx, s, now, &mut self.paths);
        self.csctp.dup_out.push((s, idx, chunk));
    }

    /// A packet of queued duplicates for one destination, if any.
    pub(crate) fn csctp_dup_packet(&mut self, now: SimTime) -> Option<super::api::OutPacket> {
        let dest = self.csctp.dup_out.first()?.0;
        let Some(pi) = self.path_index(dest) else {
            self.csctp.dup_out.retain(|(d, _, _)| *d != dest);
            return None;
        };
        let budget = self.paths[pi].chunk_budget();
        let mut used = 0;
        let mut chunks = Vec::new();
        let mut i = 0;
        while i < self.csctp.dup_out.len() {
            if self.csctp.dup_out[i].0 != dest {
                i += 1;
                continue;
            }
            let c = ChunkRepr::Data(self.csctp.dup_out[i].2.clone());
            if !chunks.is_empty() && used + c.buffer_len() > budget {
                break;
            }
            let (_, idx, d) = self.csctp.dup_out.remove(i);
            used += c.buffer_len();
            chunks.push(c);
            self.stats.csctp_duplicates_sent += 1;
            self.stats.data_chunks_sent += 1;
            self.stats.data_bytes_sent += d.user_data.len() as u64;
            let p = &mut self.paths[pi];
            p.stats.data_chunks_sent += 1;
            p.last_data_sent = Some(now);
            if p.rtt_probe.is_none() {
                p.rtt_probe = Some(RttProbe {
                    tsn: idx,
                    sent_at: now,
                });
            }
        }
        let rto = self.paths[pi].rto.rto();
        self.timers.set_if_idle(Timer::T3Rtx(dest), now + rto);
        Some(self.make_packet(dest, self.peer_vtag, chunks))
    }

    /// A per-path SACK (P flag) for the path to peer address `k` (its source): acknowledges
    /// globally what it covers, credits and blames only that path (`retransmit/perpath.rs`).
    /// The per-path counterpart of `process_ack`, which the seam's
    /// [`SctpAssociation::sack_scope`] chooses.
    pub(crate) fn process_path_ack(&mut self, now: SimTime, k: Ipv4Addr, sack: &SackChunk) -> Flow {
        if self.path_index(k).is_none() {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        self.stats.sacks_received += 1;
        self.stats.csctp_per_path_sacks_received += 1;
        self.stats.gap_blocks_received += sack.gap_blocks.len() as u64;
        let flight_before = self.path(k).map_or(0, |p| p.flight_size);
        let rtx_dest = if self.cfg.fast_rtx_to_alternate {
            self.alternate(k)
        } else {
            k
        };
        let rules = SackRules::per_path(self.cfg.fast_rtx_threshold.max(1), k);
        let out = self
            .tx
            .process_sack(sack, &mut self.paths, &rules, &|_| rtx_dest);
        if out.acks_unsent {
            let cause = ErrorCause::ProtocolViolation {
                info: b"SACK acknowledges a TSN that was not sent".to_vec(),
            };
            self.abort_with(now, cause, None);
            return Flow::Stop;
        }
        self.peer_rwnd = sack.a_rwnd.saturating_sub(self.tx.outstanding_bytes());
        let (last_cum, mut fr_exit) = self
            .csctp
            .path_cum
            .get(&k)
            .copied()
            .unwrap_or((i64::MIN, None));
        let path_cum_advanced = out.path_cum > last_cum;
        if fr_exit.is_some_and(|e| out.path_cum > e as i64) {
            fr_exit = None;
        }
        let bytes: u32 = out.credited.iter().map(|a| a.len).sum();
        for a in &out.newly_acked {
            self.stats.bytes_acked += u64::from(a.len);
        }
        if !out.credited.is_empty() || !out.newly_acked.is_empty() {
            self.error_count = 0;
        }
        let cfg = self.cfg.clone();
        let cc = Standard::new(&cfg);
        let next_idx = self.tx.next_idx;
        let mut reduced = false;
        if let Some(p) = self.paths.iter_mut().find(|p| p.addr == k) {
            p.stats.bytes_acked += u64::from(bytes);
            for a in out.credited.iter().filter(|a| !a.retransmitted) {
                if p.rtt_probe.is_some_and(|pr| pr.tsn == a.idx) {
                    let probe = p.rtt_probe.take().expect("checked");
                    let rtt = now - probe.sent_at;
                    p.rto.sample(&cfg, rtt);
                    p.note_rtt(rtt);
                    self.stats.rtt_samples += 1;
                    self.stats.rtt_sum_ns += u128::from(rtt.as_nanos());
                }
            }
            if bytes > 0 {
                let ack = AckSample {
                    bytes_acked: bytes,
                    flight_before,
                    cum_advanced: path_cum_advanced,
                    in_fast_recovery: fr_exit.is_some(),
                    cwnd_limited: p.cwnd_limited,
                    ca_increase: None,
                    ss_share: None,
                };
                cc.on_ack(now, p, &ack);
                p.cwnd_limited = false;
            }
            // §7.2.4 steps 2–3 on path k alone, once per (per-path) Fast Recovery.
            if out.lost > 0 && fr_exit.is_none() {
                cc.on_fast_retransmit(now, p);
                p.stats.fast_retransmit_reductions += 1;
                fr_exit = Some(next_idx.saturating_sub(1));
                reduced = true;
            }
        }
        if !out.credited.is_empty() {
            self.path_ok(k);
        }
        self.stats.csctp_copies_lost += u64::from(out.lost);
        if reduced || !out.fast_marked.is_empty() {
            self.stats.fast_retransmit_events += 1;
        }
        self.csctp
            .path_cum
            .insert(k, (out.path_cum.max(last_cum), fr_exit));
        for p in &mut self.paths {
            if p.addr == rtx_dest && !out.fast_marked.is_empty() {
                p.cwnd_exempt = true;
            }
            if p.rtt_probe
                .is_some_and(|pr| out.fast_marked.contains(&pr.tsn))
            {
                p.rtt_probe = None;
            }
        }
        if self.tx.all_acked() {
            for p in &mut self.paths {
                cc.on_all_acked(now, p);
            }
        }
        // §6.3.2 R2/R3 for path k.
        let rto = self.path(k).map_or(self.cfg.rto_initial, |p| p.rto.rto());
        if !self.tx.has_in_flight(k) {
            self.timers.stop(Timer::T3Rtx(k));
        } else if !out.credited.is_empty() {
            self.timers.set(Timer::T3Rtx(k), now + rto);
        }
        if out.cum_advanced {
            let tsn = self.tx.cum_tsn();
            self.metric(now, MetricKind::TsnAcked { tsn });
        }
        self.pr_sctp_after_ack(now);
        if self.state == super::association::state::State::Closed {
            return Flow::Stop;
        }
        Flow::Continue
    }
}
