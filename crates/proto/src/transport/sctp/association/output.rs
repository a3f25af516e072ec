//! Packet assembly (RFC 9260 §6.1, §6.10): one packet per call, to one destination, bundling
//! control chunks first, then SHUTDOWN / SACK / FORWARD TSN, then DATA: retransmissions before
//! new data (§6.1 C), within cwnd (rule B, with the fast-retransmit and T3 exemptions of
//! §7.2.4 step 3 and §6.3.3 E3), the peer's rwnd (rule A, with the zero-window probe) and
//! Max.Burst (§6.1 D).

use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::chunk::nr_sack::NR_SACK_FIXED_LEN;
use sctpsim_wire::sctp::chunk::sack::SACK_FIXED_LEN;
use sctpsim_wire::sctp::{ChunkRepr, DataChunk, NrSackChunk, SackChunk};

use super::super::api::OutPacket;
use super::super::congestion::{
    burst_allows, burst_used, open_burst, window_open, CongestionControl, Standard,
};
use super::super::path::RttProbe;
use super::super::send_queue::SendQueue;
use super::super::stats::{MetricKind, RtxCause};
use super::super::timers::Timer;
use super::{SctpAssociation, State};

impl SctpAssociation {
    /// The next packet, or `None` when there is nothing (allowed) to send.
    pub(crate) fn next_packet(&mut self, now: SimTime) -> Option<OutPacket> {
        self.queue_mode_sacks(now);
        if let Some(t) = self.pending.pop_front() {
            self.count_packet(&t);
            return Some(t);
        }
        if self.state == State::Closed {
            return None;
        }
        if let Some(t) = self.interleaved_packet(now) {
            self.count_packet(&t);
            return Some(t);
        }
        let live = self.state.is_established_or_closing();
        let sack_due = live && self.rx.sack_due();
        let data_ok = self.state.may_send_data();
        let dest = if let Some((d, _)) = self.ctrl.first() {
            *d
        } else if sack_due {
            self.sack_dest.unwrap_or(self.current)
        } else if live && (self.shutdown_due || self.forward_tsn_due) {
            self.data_dest(now)
        } else if data_ok && self.state != State::CookieEchoed {
            if let Some(d) = self.tx.first_rtx_dest() {
                d
            } else if self.tx.has_unsent() || !self.sendq.is_empty() {
                self.new_data_dest(now)
            } else {
                return None;
            }
        } else {
            return None;
        };
        let budget = self
            .path(dest)
            .map(|p| p.chunk_budget())
            .unwrap_or(usize::from(self.cfg.pmtu).saturating_sub(32));
        // RFC 4895 §6.2: room for the AUTH chunk `sign_packet` may add.
        let budget = budget.saturating_sub(self.auth_reserve());
        let mut chunks: Vec<ChunkRepr> = Vec::new();
        let mut used = 0usize;

        // Control chunks for this destination, in the order they were queued.
        let mut i = 0;
        while i < self.ctrl.len() {
            if self.ctrl[i].0 != dest {
                i += 1;
                continue;
            }
            let len = self.ctrl[i].1.buffer_len();
            if !chunks.is_empty() && used + len > budget {
                break;
            }
            let (_, c) = self.ctrl.remove(i);
            used += len;
            chunks.push(c);
        }
        let carries_cookie = chunks
            .first()
            .is_some_and(|c| matches!(c, ChunkRepr::CookieEcho { .. }));

        if live {
            // §9.2: SHUTDOWN (with the current cumulative TSN) when due.
            if self.shutdown_due && self.state == State::ShutdownSent {
                let c = ChunkRepr::Shutdown {
                    cum_tsn_ack: self.rx.cum_tsn(),
                };
                used += c.buffer_len();
                chunks.push(c);
                self.shutdown_due = false;
            }
            // SACK: due now, or piggybacked on a packet to the SACK destination.
            let sack_here = self.sack_dest.unwrap_or(self.current) == dest;
            if (sack_due || self.rx.sack_pending()) && sack_here {
                // An NR-SACK's fixed part is 4 bytes longer than a SACK's.
                let extra = if self.nr_sack {
                    NR_SACK_FIXED_LEN - SACK_FIXED_LEN
                } else {
                    0
                };
                let sack = self.rx.build_sack(
                    self.cfg.max_gap_blocks,
                    budget.saturating_sub(used).saturating_sub(extra),
                );
                self.stats.sacks_sent += 1;
                self.last_sack_dest = Some(dest);
                self.stats.gap_blocks_sent += sack.gap_blocks.len() as u64;
                self.stats.duplicate_tsns_sent += sack.duplicate_tsns.len() as u64;
                let (g, d) = (
                    sack.gap_blocks.len() as u16,
                    sack.duplicate_tsns.len() as u16,
                );
                self.metric(
                    now,
                    MetricKind::SackSent {
                        gap_blocks: g,
                        duplicates: d,
                    },
                );
                let c = if self.nr_sack {
                    self.stats.nr_sacks_sent += 1;
                    nr_sack_of(sack)
                } else {
                    ChunkRepr::Sack(sack)
                };
                used += c.buffer_len();
                // RFC 9260 §6.5 lets the ERROR reporting an Invalid Stream Identifier share the
                // SACK's packet "as long as the ERROR follows the SACK"; FreeBSD queues the
                // ERROR first and sends it ahead of the SACK, and the ETSI suite (TS 102 369,
                // E/I/6/3; M/I/10/1 for unrecognized chunks) expects that order, so we keep it:
                // the ERROR, already queued, then the SACK.
                chunks.push(c);
                self.timers.stop(Timer::DelayedSack);
            }
            // RFC 3758 §3.5 C3: FORWARD TSN, before any DATA.
            if self.forward_tsn_due && self.pr_sctp {
                // RFC 8260 §2.3.1: with I-DATA, I-FORWARD-TSN instead.
                let built = if self.i_data {
                    self.build_i_forward_tsn().map(ChunkRepr::IForwardTsn)
                } else {
                    self.build_forward_tsn().map(ChunkRepr::ForwardTsn)
                };
                if let Some(c) = built {
                    if chunks.is_empty() || used + c.buffer_len() <= budget {
                        used += c.buffer_len();
                        chunks.push(c);
                        self.forward_tsn_due = false;
                        self.stats.forward_tsns_sent += 1;
                        // C5: "the sender MUST assure that at least one T3-rtx timer is
                        // running".
                        if !self
                            .timers
                            .iter()
                            .any(|(t, _)| matches!(t, Timer::T3Rtx(_)))
                        {
                            let rto = self
                                .path(dest)
                                .map(|p| p.rto.rto())
                                .unwrap_or(self.cfg.rto_initial);
                            self.timers.set(Timer::T3Rtx(dest), now + rto);
                        }
                    }
                } else {
                    self.forward_tsn_due = false;
                }
            }
        }

        // DATA: in COOKIE-ECHOED only together with the COOKIE ECHO (§5.1 C).
        if data_ok && (self.state != State::CookieEchoed || carries_cookie) {
            self.fill_data(now, dest, budget, &mut used, &mut chunks);
        }
        if chunks.is_empty() {
            return None;
        }
        let mut t = self.make_packet(dest, self.peer_vtag, chunks);
        if let Some(s) = self.asconf_source() {
            if t.packet
                .chunks
                .iter()
                .any(|c| matches!(c, ChunkRepr::Asconf(_)))
            {
                t.src = s;
            }
        }
        self.count_packet(&t);
        Some(t)
    }

    fn count_packet(&mut self, t: &OutPacket) {
        self.stats.packets_sent += 1;
        if let Some(p) = self.path_mut(t.path.unwrap_or(t.dst)) {
            p.stats.packets_sent += 1;
        }
    }

    /// Adds retransmissions and new DATA chunks for `dest` to the packet.
    fn fill_data(
        &mut self,
        now: SimTime,
        dest: Ipv4Addr,
        budget: usize,
        used: &mut usize,
        chunks: &mut Vec<ChunkRepr>,
    ) {
        let Some(pi) = self.path_index(dest) else {
            return;
        };
        self.tx.begin_packet();
        let exempt = self.paths[pi].cwnd_exempt;
        let mut sent_any = false;

        // §6.1 C: retransmissions first ("limited by the current cwnd"; the first packet after
        // a fast retransmit or T3 expiry ignores it).
        for idx in self.tx.rtx_for(dest) {
            // RFC 3758 §3.5 C1 / A2: an expired PR-SCTP chunk is abandoned, not retransmitted.
            if self.pr_sctp
                && self
                    .tx
                    .chunks
                    .get(&idx)
                    .and_then(|c| c.expires)
                    .is_some_and(|t| t <= now)
            {
                if let Some(msg) = self.tx.chunks.get(&idx).map(|c| c.msg) {
                    self.abandon_message(now, msg);
                }
                continue;
            }
            let Some(c) = self.tx.chunks.get(&idx) else {
                continue;
            };
            // "limited by the current cwnd": the chunk must fit in the window.
            let p = &self.paths[pi];
            if !exempt && p.flight_size.saturating_add(c.len) > p.cwnd {
                self.paths[pi].cwnd_limited = true;
                break;
            }
            let chunk = c.wire();
            let len = chunk.buffer_len();
            if !chunks.is_empty() && *used + len > budget {
                break;
            }
            let cause = c.rtx.map(|m| m.cause).unwrap_or(RtxCause::T3);
            let last_dest = c.dest;
            let tsn = c.chunk.tsn;
            let data_len = c.len;
            *used += len;
            chunks.push(chunk);
            self.tx.on_sent(idx, dest, now, &mut self.paths);
            sent_any = true;
            let p = &mut self.paths[pi];
            p.stats.data_chunks_sent += 1;
            p.stats.retransmissions += 1;
            p.last_data_sent = Some(now);
            if p.rtt_probe.is_some_and(|pr| pr.tsn == idx) {
                p.rtt_probe = None;
            }
            self.stats.data_chunks_sent += 1;
            self.stats.data_bytes_sent += u64::from(data_len);
            self.on_chunk_retransmitted(idx);
            match cause {
                RtxCause::Fast => self.stats.fast_retransmissions += 1,
                RtxCause::T3 => self.stats.t3_retransmissions += 1,
                RtxCause::Early => self.stats.early_retransmissions += 1,
                RtxCause::Failover => self.stats.failover_retransmissions += 1,
            }
            if last_dest != dest {
                self.stats.retransmissions_to_alternate += 1;
            }
            self.metric(
                now,
                MetricKind::TsnSent {
                    tsn,
                    path: dest,
                    retransmission: Some(cause),
                },
            );
            // §7.2.4 step 4: restart T3 when "retransmitting the first outstanding DATA chunk
            // sent to that address"; otherwise R1 (start it if not running). An early
            // retransmission is a fast retransmission (RFC 5827) or treated as one (Ye et al.).
            let rto = self.paths[pi].rto.rto();
            if matches!(cause, RtxCause::Fast | RtxCause::Early) && idx == self.tx.cum_idx {
                self.timers.set(Timer::T3Rtx(dest), now + rto);
            } else {
                self.timers.set_if_idle(Timer::T3Rtx(dest), now + rto);
            }
        }
        self.paths[pi].cwnd_exempt = false;

        // New data only when nothing waits for retransmission (§6.1 C), to the data path.
        if self.tx.has_rtx() || self.state == State::ShutdownSent {
            return;
        }
        if !matches!(
            self.state,
            State::CookieEchoed
                | State::Established
                | State::ShutdownPending
                | State::ShutdownReceived
        ) {
            return;
        }
        if !self.carries_new_data(now, dest) {
            return;
        }
        if !self.tx.has_unsent() && self.sendq.is_empty() {
            return;
        }
        {
            let cfg = self.cfg.clone();
            let p = &mut self.paths[pi];
            if p.burst_cap.is_none() {
                Standard::new(&cfg).on_send(now, p);
            }
            open_burst(&cfg, p);
            if !burst_allows(p) {
                return;
            }
        }
        let max_frag = self.max_fragment();
        let mut new_data = false;
        // RFC 8260 §3.3: round robin per packet picks this packet's stream now.
        self.sendq.begin_packet();
        loop {
            if !window_open(&self.paths[pi]) {
                if self.tx.has_unsent() || !self.sendq.is_empty() {
                    self.paths[pi].cwnd_limited = true;
                }
                break;
            }
            if budget.saturating_sub(*used) < 20 {
                break;
            }
            let idx = match self.tx.first_unsent() {
                Some(i) => i,
                None if self.i_data => {
                    // RFC 8260 §2.1: one I-DATA fragment at a time, from the stream the
                    // scheduler picks, so messages of different streams interleave.
                    let Some(len) = self.sendq.peek_fragment_len(max_frag) else {
                        break;
                    };
                    if len as u32 > self.peer_rwnd && self.tx.outstanding_bytes() > 0 {
                        break;
                    }
                    let Some(f) = self.sendq.pop_fragment(max_frag) else {
                        break;
                    };
                    let chunk = DataChunk {
                        tsn: sctpsim_wire::sctp::Tsn(0),
                        stream_id: f.stream,
                        ssn: sctpsim_wire::sctp::Ssn(0),
                        ppid: f.ppid,
                        unordered: f.unordered,
                        beginning: f.beginning,
                        ending: f.ending,
                        immediate: false,
                        user_data: f.data,
                    };
                    let i = self.tx.push(chunk, f.id, dest, f.expires);
                    if let Some(c) = self.tx.chunks.get_mut(&i) {
                        c.i_data = Some((f.mid, f.fsn));
                    }
                    i
                }
                None => {
                    // Give TSNs only to data that can go out now (rule A), so that a message
                    // waiting for the peer's window can still expire unsent.
                    let Some(len) = self.sendq.peek_len() else {
                        break;
                    };
                    let first = len.min(max_frag) as u32;
                    if first > self.peer_rwnd && self.tx.outstanding_bytes() > 0 {
                        break;
                    }
                    match self.sendq.pop() {
                        Some((msg, ssn)) => {
                            let frags = SendQueue::fragment(msg.data, max_frag);
                            let mut first = None;
                            for f in frags {
                                let chunk = DataChunk {
                                    tsn: sctpsim_wire::sctp::Tsn(0),
                                    stream_id: msg.stream,
                                    ssn,
                                    ppid: msg.ppid,
                                    unordered: msg.unordered,
                                    beginning: f.beginning,
                                    ending: f.ending,
                                    immediate: false,
                                    user_data: f.data,
                                };
                                let i = self.tx.push(chunk, msg.id, dest, msg.expires);
                                first.get_or_insert(i);
                            }
                            match first {
                                Some(i) => i,
                                None => break,
                            }
                        }
                        None => break,
                    }
                }
            };
            let Some(c) = self.tx.chunks.get(&idx) else {
                break;
            };
            // §6.1 A: no new data beyond the peer's rwnd, except one chunk when nothing is
            // outstanding (the zero window probe).
            let outstanding = self.tx.outstanding_bytes();
            if c.len > self.peer_rwnd && outstanding > 0 {
                break;
            }
            let chunk = c.wire();
            let len = chunk.buffer_len();
            if !chunks.is_empty() && *used + len > budget {
                break;
            }
            self.sendq.note_packet_stream(c.chunk.stream_id);
            let tsn = c.chunk.tsn;
            let data_len = c.len;
            *used += len;
            chunks.push(chunk);
            self.tx.on_sent(idx, dest, now, &mut self.paths);
            self.on_new_chunk_sent(now, idx, dest);
            sent_any = true;
            new_data = true;
            self.peer_rwnd = self.peer_rwnd.saturating_sub(data_len);
            let p = &mut self.paths[pi];
            p.stats.data_chunks_sent += 1;
            p.last_data_sent = Some(now);
            p.last_probe_sent = Some(now);
            if p.rtt_probe.is_none() {
                p.rtt_probe = Some(RttProbe {
                    tsn: idx,
                    sent_at: now,
                });
            }
            self.stats.data_chunks_sent += 1;
            self.stats.data_bytes_sent += u64::from(data_len);
            self.metric(
                now,
                MetricKind::TsnSent {
                    tsn,
                    path: dest,
                    retransmission: None,
                },
            );
        }
        if new_data {
            burst_used(&mut self.paths[pi]);
            self.on_new_data_packet(dest);
        }
        if sent_any {
            // §6.3.2 R1: "if the T3-rtx timer of that address is not running, start it".
            let rto = self.paths[pi].rto.rto();
            self.timers.set_if_idle(Timer::T3Rtx(dest), now + rto);
        }
    }
}

/// The NR-SACK for a built SACK. Our receiver never reneges, so every TSN received out of order
/// is non-renegable on arrival: FreeBSD's rule when it is configured not to renege
/// (`sctp_do_drain` off), where an arriving DATA chunk is marked in the non-renegable map at
/// once (`sctp_process_a_data_chunk`, `sctp_indata.c`) and the NR-SACK's Gap Ack Blocks,
/// built from the renegable map only (`sctp_send_sack`, `sctp_output.c`), are then empty. All
/// blocks therefore go out as NR Gap Ack Blocks; the cumulative TSN ack, a_rwnd, duplicates and
/// flags (the CMT DAC flag among them) are the SACK's.
fn nr_sack_of(mut sack: SackChunk) -> ChunkRepr {
    let nr_gap_blocks = std::mem::take(&mut sack.gap_blocks);
    ChunkRepr::NrSack(NrSackChunk {
        sack,
        nr_gap_blocks,
    })
}
