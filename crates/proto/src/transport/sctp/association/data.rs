//! Data transfer (RFC 9260 §6): receiving DATA (§6.2, §6.5) and deciding on SACKs, processing
//! SACKs (§6.2.1) with RTT measurement (§6.3.1), window growth (§7.2.1–7.2.2) and fast
//! retransmit / Fast Recovery (§7.2.4) with the early retransmit options
//! ([`super::super::EarlyRetransmit`]), the T3-rtx timer (§6.3.2–6.3.3), and message lifetimes
//! of data not yet sent.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{DataChunk, ErrorCause, GapAckBlock, IDataChunk, SackChunk, Tsn};

use super::super::api::SctpEvent;
use super::super::config::EarlyRetransmit;
use super::super::congestion::{AckSample, CongestionControl, Standard};
use super::super::recv::{DataVerdict, RecvState};
use super::super::retransmit::{SackRules, SackScope};
use super::super::stats::MetricKind;
use super::super::timers::Timer;
use super::{Flow, PacketCtx, SctpAssociation, State};

impl SctpAssociation {
    /// RFC 9260 §6.2: one DATA chunk.
    pub(crate) fn on_data(&mut self, now: SimTime, ctx: &mut PacketCtx, d: &DataChunk) -> Flow {
        let empty = d.user_data.is_empty();
        self.on_user_data(now, ctx, d.tsn, d.stream_id, empty, |rx| rx.receive(d))
    }

    /// RFC 8260 §2.1: one I-DATA chunk; TSN handling as for DATA (RFC 9260 §6.2), reassembly
    /// by stream, U bit, MID and FSN ([`RecvState::receive_i_data`]).
    pub(crate) fn on_i_data(&mut self, now: SimTime, ctx: &mut PacketCtx, d: &IDataChunk) -> Flow {
        let empty = d.user_data.is_empty();
        self.on_user_data(now, ctx, d.tsn, d.stream_id, empty, |rx| {
            rx.receive_i_data(d)
        })
    }

    /// DATA or I-DATA (`accept` hands the chunk to the receiver).
    fn on_user_data(
        &mut self,
        now: SimTime,
        ctx: &mut PacketCtx,
        tsn: Tsn,
        stream_id: u16,
        empty: bool,
        accept: impl FnOnce(&mut RecvState) -> DataVerdict,
    ) -> Flow {
        if !self.state.receives_data() {
            // Before ESTABLISHED there is nothing to deliver to. After the peer's SHUTDOWN
            // (SHUTDOWN-RECEIVED, SHUTDOWN-ACK-SENT) the peer has no data outstanding: it
            // sends SHUTDOWN only once all its data is acknowledged (§9.2), so a DATA chunk
            // now is a stale duplicate or a protocol violation, and is discarded without a
            // SACK (FreeBSD and Linux do the same; ETSI TS 102 369 AT/I/2/9).
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        ctx.data_seen = true;
        if empty {
            // §6.2: "If an endpoint receives a DATA chunk with no user data (i.e., the Length
            // field is set to 16), it MUST send an ABORT with error cause set to 'No User
            // Data'." (The same for an I-DATA chunk of length 20.)
            self.abort_with(now, ErrorCause::NoUserData { tsn }, None);
            return Flow::Stop;
        }
        let cum_before = self.rx.cum_tsn();
        let verdict = accept(&mut self.rx);
        if matches!(
            verdict,
            DataVerdict::New | DataVerdict::Duplicate | DataVerdict::InvalidStream
        ) {
            self.on_data_arrival(ctx.dst(), ctx.src(), cum_before, tsn);
        }
        match verdict {
            DataVerdict::New => {
                ctx.data_new = true;
                self.stats.data_chunks_received += 1;
            }
            DataVerdict::Duplicate => {
                ctx.data_dup = true;
                self.stats.duplicate_data_received += 1;
            }
            DataVerdict::NoRoom => {
                ctx.data_dropped = true;
                self.stats.data_chunks_dropped_rwnd += 1;
            }
            DataVerdict::InvalidStream => {
                // §6.5: acknowledge the TSN, "immediately send an ERROR chunk with cause set to
                // 'Invalid Stream Identifier'", discard the data.
                ctx.data_new = true;
                ctx.report
                    .push(ErrorCause::InvalidStreamIdentifier { stream_id });
            }
            DataVerdict::TooFarAhead => {
                self.stats.chunks_dropped += 1;
            }
        }
        Flow::Continue
    }

    /// After a packet with DATA: SACK scheduling (§6.2), the SHUTDOWN-SENT rule (§9.2), and
    /// the Readable notification.
    pub(crate) fn after_data_packet(&mut self, now: SimTime, ctx: &PacketCtx) {
        let src = ctx.src();
        let mut dest = if self.path_index(src).is_some() {
            src
        } else {
            self.current
        };
        // §6.4: "When a receiver of a duplicate DATA chunk sends a SACK to a multi-homed
        // endpoint, it MAY be beneficial to vary the destination address and not use the
        // source address of the DATA chunk. The reason is that receiving a duplicate from a
        // multi-homed endpoint might indicate that the return path ... for the SACK is
        // broken." The broken return path is the one our last SACK took: vary only if the
        // duplicate came from that very address.
        if ctx.data_dup
            && !ctx.data_new
            && self.paths.len() > 1
            && self.last_sack_dest == Some(dest)
        {
            dest = self.alternate(dest);
        }
        self.sack_dest = Some(dest);
        if self.state == State::ShutdownSent {
            // §9.2: "the SHUTDOWN sender MUST immediately respond to each received packet
            // containing one or more DATA chunks with a SHUTDOWN chunk and restart the
            // T2-shutdown timer. If a SHUTDOWN chunk by itself cannot acknowledge all of the
            // received DATA chunks ... or if duplicate TSNs have been received, then a SACK
            // chunk MUST also be sent."
            self.shutdown_due = true;
            if self.rx.has_gaps() || self.rx.has_dups() {
                self.rx.request_sack();
            }
            let rto = self
                .path(self.current)
                .map(|p| p.rto.rto())
                .unwrap_or(self.cfg.rto_initial);
            self.timers.set(Timer::T2Shutdown, now + rto);
        } else if let Some(arm) = self.mode_acknowledges(ctx.dst()) {
            // The mode acknowledges this packet itself (cSCTP: per local address).
            if arm {
                let delay = self.cfg.effective_sack_delay();
                self.timers.set_if_idle(Timer::DelayedSack, now + delay);
            }
        } else {
            let arm = self.rx.on_data_packet(
                &self.cfg,
                ctx.data_new,
                ctx.data_dup,
                ctx.data_dropped,
                ctx.had_gaps,
            );
            if arm {
                let delay = self.cfg.effective_sack_delay();
                self.timers.set_if_idle(Timer::DelayedSack, now + delay);
            }
        }
        if ctx.data_new && self.rx.ready_len() > 0 {
            self.events.push_back(SctpEvent::Readable);
        }
    }

    /// RFC 9260 §6.2.1: a SACK.
    /// A SACK, or an NR-SACK with its NR Gap Ack Blocks `nr_blocks` (empty for a SACK).
    pub(crate) fn on_sack(
        &mut self,
        now: SimTime,
        ctx: &mut PacketCtx,
        sack: &SackChunk,
        nr_blocks: &[GapAckBlock],
    ) -> Flow {
        if !self.state.is_established_or_closing() {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        if let SackScope::Path(k) = self.sack_scope(ctx, sack) {
            // A SACK for the path of its source address only (cSCTP, `csctp.rs`).
            return self.process_path_ack(now, k, sack);
        }
        self.stats.sacks_received += 1;
        self.stats.gap_blocks_received += (sack.gap_blocks.len() + nr_blocks.len()) as u64;
        self.process_ack(now, sack, nr_blocks);
        if self.state == State::Closed {
            return Flow::Stop;
        }
        Flow::Continue
    }

    /// The SACK machinery, shared with the cumulative TSN ack of a SHUTDOWN (§9.2).
    pub(crate) fn process_ack(
        &mut self,
        now: SimTime,
        sack: &SackChunk,
        nr_blocks: &[GapAckBlock],
    ) {
        let flights: BTreeMap<Ipv4Addr, u32> =
            self.paths.iter().map(|p| (p.addr, p.flight_size)).collect();
        let lowest = self.tx.lowest_in_flight();
        let fast_dest: BTreeMap<Ipv4Addr, Ipv4Addr> = self
            .paths
            .iter()
            .map(|p| {
                // A-SCTP rule 1 (`asctp.rs`): retransmissions too go to the data path.
                let to = if self.fast_rtx_elsewhere() {
                    self.alternate(p.addr)
                } else {
                    p.addr
                };
                (p.addr, to)
            })
            .collect();
        // The multipath mode's miss rule (A-SCTP rule 6, CMT's SFR) and CMT's DAC count.
        let rules = SackRules {
            threshold: self.cfg.fast_rtx_threshold.max(1),
            htna: self.cfg.htna,
            miss_rule: self.miss_rule(),
            dac_packets: match (self.cmt() && self.cfg.cmt.dac, sack.dac_two_packets) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            },
            scope: SackScope::Association,
        };
        let out = self
            .tx
            .process_sack_nr(sack, nr_blocks, &mut self.paths, &rules, &|d| {
                fast_dest.get(&d).copied().unwrap_or(d)
            });
        self.stats.misses_out_of_range += out.misses_out_of_range;
        if out.stale {
            return;
        }
        if out.acks_unsent {
            let cause = ErrorCause::ProtocolViolation {
                info: b"SACK acknowledges a TSN that was not sent".to_vec(),
            };
            self.abort_with(now, cause, None);
            return;
        }
        // §6.2.1 D ii: "Set rwnd equal to the newly received a_rwnd minus the number of bytes
        // still outstanding after processing the Cumulative TSN Ack and the Gap Ack Blocks."
        self.peer_rwnd = sack.a_rwnd.saturating_sub(self.tx.outstanding_bytes());

        let mut per_path: BTreeMap<Ipv4Addr, u32> = BTreeMap::new();
        let mut acked_idx = BTreeSet::new();
        for a in &out.newly_acked {
            *per_path.entry(a.dest).or_default() += a.len;
            acked_idx.insert(a.idx);
            self.stats.bytes_acked += u64::from(a.len);
            // §6.3.1 C4/C5: one RTT sample per round trip, never from a retransmitted chunk.
            let cfg = &self.cfg;
            if let Some(p) = self.paths.iter_mut().find(|p| p.addr == a.dest) {
                p.stats.bytes_acked += u64::from(a.len);
                if p.rtt_probe.is_some_and(|probe| probe.tsn == a.idx) {
                    let probe = p.rtt_probe.take().expect("checked");
                    if !a.retransmitted {
                        let rtt = now - probe.sent_at;
                        p.rto.sample(cfg, rtt);
                        p.note_rtt(rtt);
                        let rto = p.rto.rto();
                        self.stats.rtt_samples += 1;
                        self.stats.rtt_sum_ns += u128::from(rtt.as_nanos());
                        if self.cfg.metrics {
                            self.metrics.push_back(super::super::stats::MetricEvent {
                                time: now,
                                kind: MetricKind::Rtt {
                                    path: a.dest,
                                    rtt,
                                    rto,
                                },
                            });
                        }
                    }
                }
            }
        }
        if !out.newly_acked.is_empty() {
            // §8.1: "The counter MUST be reset each time a DATA chunk sent to that peer
            // endpoint is acknowledged"; §8.2 likewise per destination. A chunk already marked
            // for retransmission (after a T3-rtx timeout or a fast retransmit decision) and
            // acknowledged before going out again says nothing about its old destination now
            // — its first transmission may have arrived before that path failed — so, as in
            // Linux (`sctp_check_transmitted` on the retransmit queue), it clears no path
            // counter; otherwise a dead primary could be revived by its own old chunks.
            self.error_count = 0;
            let live: BTreeSet<Ipv4Addr> = out
                .newly_acked
                .iter()
                .filter(|a| a.was_in_flight)
                .map(|a| a.dest)
                .collect();
            for d in live {
                self.path_ok(d);
            }
        }
        // §7.2.4: "When a SACK chunk acknowledges all TSNs up to and including this exit
        // point, Fast Recovery is exited."
        if let Some(exit) = self.tx.fast_recovery_exit {
            if self.tx.cum_idx > exit {
                self.tx.fast_recovery_exit = None;
            }
        }
        let in_fr = self.tx.fast_recovery_exit.is_some();
        // CMT's CUC (ToN §3.2): each destination's own Fast Recovery, and its pseudo-cumulative
        // ack (the lowest TSN in flight to it before this SACK) advancing stands for the
        // cumulative ack.
        let per_dest = self.per_destination_recovery();
        let coupled = self.coupled_increases();
        if per_dest {
            self.cmt_exit_fast_recovery();
        }
        {
            let cc = Standard::new(&self.cfg);
            for p in &mut self.paths {
                let bytes = per_path.get(&p.addr).copied().unwrap_or(0);
                if bytes == 0 {
                    continue;
                }
                let (cum_advanced, in_fast_recovery) = if per_dest {
                    let pseudo = lowest.get(&p.addr).is_some_and(|i| acked_idx.contains(i));
                    (pseudo, p.fr_exit.is_some())
                } else {
                    (out.cum_advanced, in_fr)
                };
                let inc = coupled
                    .as_ref()
                    .and_then(|c| c.iter().find(|(a, _)| *a == p.addr))
                    .map(|(_, inc)| *inc);
                let ack = AckSample {
                    bytes_acked: bytes,
                    flight_before: flights.get(&p.addr).copied().unwrap_or(0),
                    cum_advanced,
                    in_fast_recovery,
                    cwnd_limited: p.cwnd_limited,
                    ca_increase: inc.and_then(|i| i.ca_step),
                    ss_share: inc.and_then(|i| i.ss_share),
                };
                cc.on_ack(now, p, &ack);
                p.cwnd_limited = false;
            }
            if self.tx.all_acked() {
                for p in &mut self.paths {
                    cc.on_all_acked(now, p);
                }
            }
        }
        // Early retransmission (after the miss indications of this SACK are counted).
        let mut early_marked = Vec::new();
        match self.cfg.early_retransmit {
            EarlyRetransmit::Off => {}
            EarlyRetransmit::Ye2003 => {
                // §5: "we suggest retransmit a lost TSN during the 'idle period'", the time in
                // which the sender's view of the window lets nothing new out (Fig. 5). Without
                // this condition the rule also fired while new data still flowed, and 134.9 of
                // its 136 retransmissions per 3-hop ye2003 run were chunks that were late, not
                // lost (issue 32).
                if !self.new_data_can_go_out() {
                    if let Some(idx) = self.tx.mark_ye2003(&mut self.paths) {
                        self.on_ye2003_retransmit(idx);
                    }
                }
            }
            EarlyRetransmit::Rfc5827 => {
                // (3.b) "There is either no unsent data ready for transmission at the sender,
                // or the advertised receive window does not permit new segments to be
                // transmitted."
                if !self.new_data_can_go_out() {
                    early_marked = self.tx.mark_rfc5827(
                        self.cfg.fast_rtx_threshold.max(1),
                        &mut self.paths,
                        &|d| fast_dest.get(&d).copied().unwrap_or(d),
                    );
                }
            }
        }
        if !out.fast_marked.is_empty() || !early_marked.is_empty() {
            if !out.fast_marked.is_empty() {
                self.stats.fast_retransmit_events += 1;
            }
            if !early_marked.is_empty() {
                self.stats.early_retransmit_events += 1;
            }
            let mut marked = out.fast_marked.clone();
            marked.extend_from_slice(&early_marked);
            self.on_fast_retransmit(now, &marked);
        }
        // §6.3.2 R2, R3, and §6.2.1 D iii.
        for p in &self.paths {
            let addr = p.addr;
            let rto = p.rto.rto();
            if !self.tx.has_in_flight(addr) {
                self.timers.stop(Timer::T3Rtx(addr));
            } else if lowest.get(&addr).is_some_and(|i| acked_idx.contains(i)) {
                self.timers.set(Timer::T3Rtx(addr), now + rto);
            } else if out.reneged_dests.contains(&addr) {
                self.timers.set_if_idle(Timer::T3Rtx(addr), now + rto);
            }
        }
        if out.cum_advanced {
            let tsn = self.tx.cum_tsn();
            self.metric(now, MetricKind::TsnAcked { tsn });
        }
        self.pr_sctp_after_ack(now);
    }

    /// RFC 9260 §7.2.4 steps 2–3 for chunks just marked: reduce the windows of their
    /// destinations (once per Fast Recovery with RFC 9260, at every event with RFC 2960) and
    /// let the first retransmission packet ignore cwnd.
    ///
    /// The caller counts the event (`fast_retransmit_events` or, for a threshold that RFC 5827
    /// lowered, `early_retransmit_events`): the procedure is the same for both.
    fn on_fast_retransmit(&mut self, now: SimTime, marked: &[u64]) {
        let mut last_dests = BTreeSet::new();
        let mut rtx_dests: BTreeSet<Ipv4Addr> = BTreeSet::new();
        for idx in marked {
            if let Some(c) = self.tx.chunks.get(idx) {
                last_dests.insert(c.dest);
                if let Some(m) = c.rtx {
                    rtx_dests.insert(m.dest);
                }
            }
        }
        // CMT with CUC: each destination enters its own Fast Recovery (and reduces there).
        let per_dest = self.per_destination_recovery();
        if per_dest {
            self.cmt_enter_fast_recovery(now, &last_dests);
        }
        let reduce = if per_dest {
            false
        } else if self.cfg.fast_recovery {
            if self.tx.fast_recovery_exit.is_none() {
                // "If not in Fast Recovery, enter Fast Recovery and mark the highest
                // outstanding TSN as the Fast Recovery exit point."
                self.tx.fast_recovery_exit = Some(self.tx.next_idx.saturating_sub(1));
                true
            } else {
                // "While in Fast Recovery, the ssthresh and cwnd SHOULD NOT change for any
                // destinations due to a subsequent Fast Recovery event".
                false
            }
        } else {
            true
        };
        if reduce {
            let cc = Standard::new(&self.cfg);
            let loss = self.coupled_loss_ssthresh();
            for p in &mut self.paths {
                if last_dests.contains(&p.addr) {
                    cc.on_fast_retransmit(now, p);
                    Self::coupled_fast_retransmit(loss.as_deref(), p);
                    p.stats.fast_retransmit_reductions += 1;
                }
            }
        }
        // CMT's retransmission policy, now that the windows reflect the loss.
        if self.cmt() {
            self.retarget_retransmissions(marked);
            rtx_dests = marked
                .iter()
                .filter_map(|i| self.tx.chunks.get(i).and_then(|c| c.rtx))
                .map(|m| m.dest)
                .collect();
        }
        for p in &mut self.paths {
            if rtx_dests.contains(&p.addr) {
                // Step 3: "the sender SHOULD ignore the value of cwnd and SHOULD NOT delay
                // retransmission for this single packet."
                p.cwnd_exempt = true;
            }
            // Karn: a chunk being retransmitted is no longer a valid RTT probe.
            if p.rtt_probe.is_some_and(|pr| marked.contains(&pr.tsn)) {
                p.rtt_probe = None;
            }
        }
    }

    /// After the Ye et al. (2003) rule marked chunk `idx`. No window reduction: the paper's
    /// assumption (2) puts the loss on the MAC, not on congestion, and the paper reduces
    /// nothing. The packet carrying it ignores cwnd, like the first packet of a fast
    /// retransmit (RFC 9260 §7.2.4 3), so that it goes out in the idle period at once; it is a
    /// retransmission, so the peer's rwnd does not hold it back either (§6.1 A limits new
    /// data; the chunk is still counted in the outstanding bytes). The T3-rtx timer is
    /// restarted when it is sent, as for a fast retransmission of the first outstanding chunk
    /// (§7.2.4 4, §6.3.2 R1; see `fill_data`).
    fn on_ye2003_retransmit(&mut self, idx: u64) {
        self.stats.early_retransmit_events += 1;
        let Some(dest) = self.tx.chunks.get(&idx).and_then(|c| c.rtx).map(|m| m.dest) else {
            return;
        };
        for p in &mut self.paths {
            if p.addr == dest {
                p.cwnd_exempt = true;
            }
            // Karn: a chunk being retransmitted is no longer a valid RTT probe.
            if p.rtt_probe.is_some_and(|pr| pr.tsn == idx) {
                p.rtt_probe = None;
            }
        }
    }

    /// Whether a packet of new data could leave now: data waiting, the peer's rwnd admits its
    /// first chunk (§6.1 A, with the zero-window probe exception) and the data destination's
    /// cwnd is open (§6.1 B). RFC 5827 (3.b) names only the receive window because TCP's
    /// Limited Transmit (RFC 3042) may send beyond cwnd; SCTP has no Limited Transmit, so a
    /// full cwnd also keeps new data (and the miss indications it would cause) back.
    fn new_data_can_go_out(&self) -> bool {
        let first_len = match self.tx.first_unsent() {
            Some(i) => self.tx.chunks.get(&i).map(|c| c.len),
            None => self
                .sendq
                .peek_len()
                .map(|l| u32::try_from(l.min(self.max_fragment())).unwrap_or(u32::MAX)),
        };
        let Some(len) = first_len else {
            return false;
        };
        if len > self.peer_rwnd && self.tx.outstanding_bytes() > 0 {
            return false;
        }
        // The destination new data would take (without switching to it: that is the
        // output's decision); with CMT, any that may carry it.
        self.some_carrier_window_open()
    }

    /// RFC 9260 §6.3.3: the T3-rtx timer of `addr` expired.
    pub(crate) fn on_t3_rtx(&mut self, now: SimTime, addr: Ipv4Addr) {
        if !self.tx.has_in_flight(addr) {
            if self.pr_sctp && self.tx.adv_peer_ack > self.tx.cum_idx {
                self.on_forward_tsn_timeout(now, addr);
            }
            return; // otherwise stale: nothing outstanding there any more
        }
        self.stats.t3_timeouts += 1;
        {
            let cfg = self.cfg.clone();
            let cc = Standard::new(&cfg);
            let loss = self.coupled_loss_ssthresh();
            let Some(p) = self.path_mut(addr) else {
                return;
            };
            p.stats.t3_timeouts += 1;
            // E1: ssthresh and cwnd per §7.2.3 (CMT/RP: ssthresh as its decrease says).
            cc.on_timeout(now, p);
            Self::coupled_timeout(loss.as_deref(), p);
            // E2: "RTO <- RTO * 2".
            p.rto.back_off(&cfg);
            p.rtt_probe = None;
        }
        // Leaving Fast Recovery on a timeout (as Linux does): the timeout starts over from
        // slow start.
        self.tx.fast_recovery_exit = None;
        // §8.1, §8.2: the timeout counts as an error on the path and the association.
        if self.strike(now, addr) {
            return;
        }
        if self.cmt() {
            self.cmt_on_t3(now, addr);
        }
        // E3 with §6.4: mark the chunks and send them, as far as one packet takes, to an
        // alternate active destination if there is one (CMT: its retransmission policy).
        let dest = if self.cmt() {
            self.cmt_rtx_dest(addr)
        } else if self.cfg.t3_rtx_to_alternate {
            self.alternate(addr)
        } else {
            addr
        };
        self.tx.mark_t3(addr, dest, &mut self.paths);
        if let Some(p) = self.path_mut(dest) {
            p.cwnd_exempt = true;
        }
        // RFC 3758 §3.5 A5: try to advance the Advanced.Peer.Ack.Point.
        self.pr_sctp_after_t3(now);
    }

    /// RFC 9260 §11.1 E "life time": messages that expired before getting TSNs are dropped
    /// and reported.
    pub(crate) fn expire_unsent(&mut self, now: SimTime) {
        if self.sendq.earliest_expiry().is_none_or(|t| t > now) {
            return;
        }
        for m in self.sendq.drop_expired(now) {
            self.stats.messages_abandoned += 1;
            self.events.push_back(SctpEvent::SendFailed {
                id: m.id,
                stream: m.stream,
                len: m.data.len(),
                unsent: true,
            });
        }
    }
}
