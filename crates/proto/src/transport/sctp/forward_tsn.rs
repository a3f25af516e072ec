//! PR-SCTP timed reliability (RFC 3758): the sender abandons messages whose lifetime expired
//! before they could be (re)transmitted (§3.5 A1–A3, C1), advances the
//! Advanced.Peer.Ack.Point over abandoned TSNs and sends FORWARD TSN (§3.5 C2–C5, A5); the
//! receiver moves its cumulative TSN and skips stream sequence numbers (§3.6, in
//! [`super::recv::RecvState::forward`]). With I-DATA the same procedures use I-FORWARD-TSN,
//! which skips messages by MID (RFC 8260 §2.3.1). Lifetimes of messages still queued (RFC 9260 §11.1 E)
//! share the timer.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{
    ForwardTsnChunk, ForwardTsnStream, IForwardTsnChunk, IForwardTsnStream, Mid, Ssn,
};

use super::api::{MessageId, SctpEvent};
use super::association::{Flow, PacketCtx, SctpAssociation};
use super::timers::Timer;

impl SctpAssociation {
    /// RFC 3758 §3.5 A3: "When a TSN is 'abandoned', if it is part of a fragmented message,
    /// all other TSNs within that fragmented message MUST be abandoned at the same time."
    /// Abandoned chunks leave the flight; the user gets a SendFailed notification.
    pub(crate) fn abandon_message(&mut self, _now: SimTime, msg: MessageId) {
        if let Some((stream, len, sent)) = self.tx.abandon(msg, &mut self.paths) {
            self.stats.messages_abandoned += 1;
            self.events.push_back(SctpEvent::SendFailed {
                id: msg,
                stream,
                len,
                unsent: !sent,
            });
            self.try_advance_ack_point();
        }
    }

    /// RFC 3758 §3.5 C2–C4: moves the Advanced.Peer.Ack.Point over consecutive abandoned TSNs
    /// and schedules a FORWARD TSN if it is ahead of the cumulative TSN ack.
    pub(crate) fn try_advance_ack_point(&mut self) {
        if !self.pr_sctp {
            return;
        }
        let tx = &mut self.tx;
        tx.adv_peer_ack = tx.adv_peer_ack.max(tx.cum_idx);
        while tx.chunks.get(&tx.adv_peer_ack).is_some_and(|c| c.abandoned) {
            tx.adv_peer_ack += 1;
        }
        if tx.adv_peer_ack > tx.cum_idx {
            self.forward_tsn_due = true;
        }
    }

    /// RFC 3758 §3.5 C1 (after a SACK): abandon expired chunks that wait for a
    /// (re)transmission, then C2–C5.
    pub(crate) fn pr_sctp_after_ack(&mut self, now: SimTime) {
        if !self.pr_sctp {
            return;
        }
        self.abandon_expired(now);
        self.try_advance_ack_point();
    }

    /// RFC 3758 §3.5 A5: "Any time the T3-rtx timer expires, on any destination, the sender
    /// SHOULD try to advance the 'Advanced.Peer.Ack.Point'".
    pub(crate) fn pr_sctp_after_t3(&mut self, now: SimTime) {
        self.pr_sctp_after_ack(now);
    }

    /// A T3-rtx timer expired with nothing in flight while the peer has not acknowledged our
    /// Advanced.Peer.Ack.Point: the timer ran only for a FORWARD TSN (§3.5 C5, "the sender
    /// MUST assure that at least one T3-rtx timer is running"), and the FORWARD TSN or the
    /// SACK answering it was lost. A5 ("Any time the T3-rtx timer expires ... the sender
    /// SHOULD try to advance the Advanced.Peer.Ack.Point") sends it again; without this the
    /// association waits for ever, with the peer holding back the messages after the abandoned
    /// ones and a SHUTDOWN never due (found against usrsctp: 3 of 8,000 lossy runs). As for data,
    /// the RTO backs off (RFC 9260 §6.3.3 E2) and the expiry counts as an error (§8.1, §8.2),
    /// so a peer that never answers ends the association.
    pub(crate) fn on_forward_tsn_timeout(&mut self, now: SimTime, addr: Ipv4Addr) {
        self.stats.t3_timeouts += 1;
        {
            let cfg = self.cfg.clone();
            let Some(p) = self.path_mut(addr) else {
                return;
            };
            p.stats.t3_timeouts += 1;
            p.rto.back_off(&cfg);
            p.rtt_probe = None;
        }
        if self.strike(now, addr) {
            return;
        }
        self.pr_sctp_after_t3(now);
        // try_advance_ack_point schedules the FORWARD TSN (the ack point is still ahead);
        // sending it arms the timer again (C5).
        self.forward_tsn_due = true;
    }

    /// Abandons the messages of chunks whose lifetime ended and that are waiting for a first
    /// transmission or a retransmission (chunks in flight are judged when marked).
    fn abandon_expired(&mut self, now: SimTime) {
        let expired: Vec<MessageId> = self
            .tx
            .chunks
            .values()
            .filter(|c| !c.abandoned && (c.tx_count == 0 || c.rtx.is_some()))
            .filter(|c| c.expires.is_some_and(|t| t <= now))
            .map(|c| c.msg)
            .collect();
        for m in expired {
            self.abandon_message(now, m);
        }
    }

    /// The FORWARD TSN for the current Advanced.Peer.Ack.Point (RFC 3758 §3.2, §3.5 C4: the
    /// largest skipped SSN of each ordered stream).
    pub(crate) fn build_forward_tsn(&self) -> Option<ForwardTsnChunk> {
        let tx = &self.tx;
        if tx.adv_peer_ack <= tx.cum_idx {
            return None;
        }
        let mut streams: BTreeMap<u16, Ssn> = BTreeMap::new();
        for (_, c) in tx.chunks.range(tx.cum_idx..tx.adv_peer_ack) {
            if !c.chunk.unordered {
                streams.insert(c.chunk.stream_id, c.chunk.ssn);
            }
        }
        Some(ForwardTsnChunk {
            new_cum_tsn: tx.tsn(tx.adv_peer_ack).prev(),
            streams: streams
                .into_iter()
                .map(|(stream_id, ssn)| ForwardTsnStream { stream_id, ssn })
                .collect(),
        })
    }

    /// RFC 8260 §2.3.1: the I-FORWARD-TSN for the current Advanced.Peer.Ack.Point, when I-DATA
    /// is in use: per stream the largest MID of the skipped ordered messages, and every skipped
    /// unordered message by its MID (see [`super::recv::RecvState::forward_i`]).
    pub(crate) fn build_i_forward_tsn(&self) -> Option<IForwardTsnChunk> {
        let tx = &self.tx;
        if tx.adv_peer_ack <= tx.cum_idx {
            return None;
        }
        let mut ordered: BTreeMap<u16, Mid> = BTreeMap::new();
        let mut unordered: Vec<(u16, Mid)> = Vec::new();
        for (_, c) in tx.chunks.range(tx.cum_idx..tx.adv_peer_ack) {
            let Some((mid, _)) = c.i_data else {
                continue;
            };
            let s = c.chunk.stream_id;
            if c.chunk.unordered {
                if !unordered.contains(&(s, mid)) {
                    unordered.push((s, mid));
                }
            } else {
                ordered.insert(s, mid);
            }
        }
        let mut streams: Vec<IForwardTsnStream> = ordered
            .into_iter()
            .map(|(stream_id, mid)| IForwardTsnStream {
                stream_id,
                unordered: false,
                mid,
            })
            .collect();
        streams.extend(
            unordered
                .into_iter()
                .map(|(stream_id, mid)| IForwardTsnStream {
                    stream_id,
                    unordered: true,
                    mid,
                }),
        );
        Some(IForwardTsnChunk {
            new_cum_tsn: tx.tsn(tx.adv_peer_ack).prev(),
            streams,
        })
    }

    /// RFC 8260 §2.3.1: an I-FORWARD-TSN from the peer (PR-SCTP with I-DATA), handled as a
    /// FORWARD TSN is (RFC 3758 §3.6) with messages skipped by MID.
    pub(crate) fn on_i_forward_tsn(
        &mut self,
        _now: SimTime,
        ctx: &mut PacketCtx,
        f: &IForwardTsnChunk,
    ) -> Flow {
        if !self.state.is_established_or_closing() {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let before = self.rx.ready_len();
        let _moved = self.rx.forward_i(f.new_cum_tsn, &f.streams);
        self.after_forward(ctx, before);
        Flow::Continue
    }

    /// After a FORWARD TSN or I-FORWARD-TSN: a SACK goes back to its source, and the
    /// application hears of messages the skip made deliverable.
    fn after_forward(&mut self, ctx: &PacketCtx, ready_before: usize) {
        // Either way a SACK goes back: an out-of-date FORWARD TSN "may indicate the previous
        // SACK was lost in the network", a valid one moved the cumulative TSN.
        self.rx.request_sack();
        let src = ctx.src.unwrap_or(self.current);
        self.sack_dest = Some(if self.path_index(src).is_some() {
            src
        } else {
            self.current
        });
        if self.rx.ready_len() > ready_before {
            self.events.push_back(SctpEvent::Readable);
        }
    }

    /// RFC 3758 §3.6: a FORWARD TSN from the peer.
    pub(crate) fn on_forward_tsn(
        &mut self,
        _now: SimTime,
        ctx: &mut PacketCtx,
        f: &ForwardTsnChunk,
    ) -> Flow {
        if !self.state.is_established_or_closing() {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let before = self.rx.ready_len();
        let _moved = self.rx.forward(f.new_cum_tsn, &f.streams);
        self.after_forward(ctx, before);
        Flow::Continue
    }

    /// The lifetime timer: drop expired queued messages, abandon expired chunks.
    pub(crate) fn on_lifetime_timer(&mut self, now: SimTime) {
        self.expire_unsent(now);
        if self.pr_sctp {
            self.abandon_expired(now);
            self.try_advance_ack_point();
        }
    }

    /// Arms the lifetime timer at the earliest expiry that matters.
    pub(crate) fn arm_lifetime_timer(&mut self) {
        let mut next = self.sendq.earliest_expiry();
        if self.pr_sctp {
            let t = self
                .tx
                .chunks
                .values()
                .filter(|c| !c.abandoned && (c.tx_count == 0 || c.rtx.is_some()))
                .filter_map(|c| c.expires)
                .min();
            next = match (next, t) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        match next {
            Some(t) => self.timers.set(Timer::PrSctpExpiry, t),
            None => self.timers.stop(Timer::PrSctpExpiry),
        }
    }
}
