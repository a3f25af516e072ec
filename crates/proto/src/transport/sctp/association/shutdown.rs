//! Graceful shutdown (RFC 9260 §9.2): SHUTDOWN-PENDING until our data is acknowledged, SHUTDOWN
//! with T2-shutdown and T5-shutdown-guard, SHUTDOWN-RECEIVED, SHUTDOWN ACK, SHUTDOWN COMPLETE,
//! and the simultaneous cases.

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{ChunkRepr, SackChunk, Tsn};

use super::super::api::{LossReason, SctpEvent};
use super::super::timers::Timer;
use super::{Flow, PacketCtx, SctpAssociation, State};

impl SctpAssociation {
    /// RFC 9260 §11.1 B SHUTDOWN: stop accepting data, send what is queued, then shut down
    /// gracefully. Before the handshake completes, COOKIE-WAIT simply closes and
    /// COOKIE-ECHOED shuts down right after reaching ESTABLISHED.
    pub fn shutdown(&mut self, now: SimTime) {
        match self.state {
            State::CookieWait => {
                self.sendq.clear();
                self.timers.stop_all();
                self.set_state(State::Closed);
                self.events.push_back(SctpEvent::ShutdownComplete);
            }
            State::CookieEchoed => self.hs.shutdown_after_setup = true,
            State::Established => {
                // §9.2: "Upon receipt of the SHUTDOWN primitive from its upper layer, the
                // endpoint enters the SHUTDOWN-PENDING state and remains there until all
                // outstanding data has been acknowledged by its peer."
                self.set_state(State::ShutdownPending);
                self.check_shutdown_progress(now);
            }
            _ => {}
        }
    }

    fn nothing_outstanding(&self) -> bool {
        self.sendq.is_empty() && self.tx.is_empty()
    }

    /// Sends SHUTDOWN or SHUTDOWN ACK once everything we sent is acknowledged (§9.2).
    pub(crate) fn check_shutdown_progress(&mut self, now: SimTime) {
        match self.state {
            State::ShutdownPending if self.nothing_outstanding() => {
                // "the endpoint MUST send a SHUTDOWN chunk to its peer containing in the
                // Cumulative TSN Ack field the last sequential TSN it has received from the
                // peer. It MUST then start the T2-shutdown timer and enter the SHUTDOWN-SENT
                // state." And "The sender of the SHUTDOWN chunk MAY also start an overall
                // guard timer T5-shutdown-guard".
                self.set_state(State::ShutdownSent);
                self.shutdown_due = true;
                self.arm_t2(now);
                let guard = self.cfg.t5_shutdown_guard();
                self.timers.set(Timer::T5ShutdownGuard, now + guard);
            }
            State::ShutdownReceived if self.nothing_outstanding() => {
                // "If there are no more outstanding DATA chunks, the SHUTDOWN receiver MUST send
                // a SHUTDOWN ACK chunk and start a T2-shutdown timer of its own, entering the
                // SHUTDOWN-ACK-SENT state."
                self.set_state(State::ShutdownAckSent);
                self.resend_shutdown_ack(now);
            }
            _ => {}
        }
    }

    fn arm_t2(&mut self, now: SimTime) {
        let rto = self
            .path(self.current)
            .map(|p| p.rto.rto())
            .unwrap_or(self.cfg.rto_initial);
        self.timers.set(Timer::T2Shutdown, now + rto);
    }

    /// Queues a SHUTDOWN ACK to the current destination and (re)starts T2-shutdown.
    pub(crate) fn resend_shutdown_ack(&mut self, now: SimTime) {
        let dest = self.data_dest(now);
        self.ctrl
            .retain(|(_, c)| !matches!(c, ChunkRepr::ShutdownAck));
        self.ctrl.push((dest, ChunkRepr::ShutdownAck));
        self.arm_t2(now);
    }

    /// The cumulative TSN ack of a SHUTDOWN acknowledges our data like a SACK without gap
    /// blocks (§9.2: "verify, by checking the Cumulative TSN Ack field of the chunk, that all
    /// its outstanding DATA chunks have been received by the SHUTDOWN sender").
    fn shutdown_cum_ack(&mut self, now: SimTime, cum: Tsn) {
        if self.tx.is_empty() {
            return;
        }
        let a_rwnd = self.peer_rwnd.saturating_add(self.tx.outstanding_bytes());
        let sack = SackChunk {
            per_path: false,
            dac_two_packets: false,
            cum_tsn_ack: cum,
            a_rwnd,
            gap_blocks: Vec::new(),
            duplicate_tsns: Vec::new(),
        };
        // A SHUTDOWN whose cumulative ack is behind (a retransmission) changes nothing.
        if self.tx.cum_index_of(cum) < self.tx.cum_idx as i64 {
            return;
        }
        self.process_ack(now, &sack, &[]);
    }

    /// RFC 9260 §9.2: a SHUTDOWN.
    pub(crate) fn on_shutdown(&mut self, now: SimTime, _ctx: &mut PacketCtx, cum: Tsn) -> Flow {
        match self.state {
            State::Established | State::ShutdownPending => {
                self.shutdown_cum_ack(now, cum);
                if self.state == State::Closed {
                    return Flow::Stop;
                }
                // "enter the SHUTDOWN-RECEIVED state, stop accepting new data from its SCTP
                // user".
                self.set_state(State::ShutdownReceived);
                self.events.push_back(SctpEvent::PeerShutdown);
                self.check_shutdown_progress(now);
            }
            State::ShutdownReceived => {
                // "should discard subsequent SHUTDOWN chunks" (their cumulative ack still
                // acknowledges data).
                self.shutdown_cum_ack(now, cum);
            }
            State::ShutdownSent => {
                // "If an endpoint is in the SHUTDOWN-SENT state and receives a SHUTDOWN chunk
                // from its peer, the endpoint shall respond immediately with a SHUTDOWN ACK to
                // its peer and move into the SHUTDOWN-ACK-SENT state, restarting its
                // T2-shutdown timer."
                self.shutdown_due = false;
                self.set_state(State::ShutdownAckSent);
                self.events.push_back(SctpEvent::PeerShutdown);
                self.resend_shutdown_ack(now);
            }
            State::ShutdownAckSent => {
                // A retransmitted SHUTDOWN: our SHUTDOWN ACK was probably lost.
                self.resend_shutdown_ack(now);
            }
            _ => self.stats.chunks_dropped += 1,
        }
        Flow::Continue
    }

    /// RFC 9260 §9.2: a SHUTDOWN ACK in SHUTDOWN-SENT (or SHUTDOWN-ACK-SENT, the simultaneous
    /// case): "stop the T2-shutdown timer, send a SHUTDOWN COMPLETE chunk to its peer, and
    /// remove all record of the association".
    pub(crate) fn on_shutdown_ack(&mut self, _now: SimTime, ctx: &mut PacketCtx) -> Flow {
        if !matches!(self.state, State::ShutdownSent | State::ShutdownAckSent) {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let t = self.reply(
            ctx,
            self.peer_vtag,
            vec![ChunkRepr::ShutdownComplete { t_bit: false }],
        );
        self.pending.push_back(t);
        self.finish_shutdown();
        Flow::Stop
    }

    /// RFC 9260 §9.2: "Upon reception of the SHUTDOWN COMPLETE chunk, the endpoint will verify
    /// that it is in the SHUTDOWN-ACK-SENT state; if it is not, the chunk should be discarded.
    /// If the endpoint is in the SHUTDOWN-ACK-SENT state, the endpoint should stop the
    /// T2-shutdown timer and remove all knowledge of the association".
    pub(crate) fn on_shutdown_complete(
        &mut self,
        _now: SimTime,
        _ctx: &mut PacketCtx,
        _t_bit: bool,
    ) -> Flow {
        if self.state == State::ShutdownAckSent {
            self.finish_shutdown();
        } else {
            self.stats.chunks_dropped += 1;
        }
        Flow::Stop
    }

    /// T2-shutdown expired: resend SHUTDOWN (with the current cumulative TSN) or SHUTDOWN ACK,
    /// possibly to an alternate destination, counting an error (§9.2: "An endpoint SHOULD
    /// limit the number of retransmissions of the SHUTDOWN chunk to the protocol parameter
    /// 'Association.Max.Retrans'").
    pub(crate) fn on_t2_shutdown(&mut self, now: SimTime) {
        let dest = self.current;
        if self.strike(now, dest) {
            return;
        }
        self.back_off_rto(dest);
        match self.state {
            State::ShutdownSent => {
                self.shutdown_due = true;
                self.arm_t2(now);
            }
            State::ShutdownAckSent => self.resend_shutdown_ack(now),
            _ => {}
        }
    }

    /// T5-shutdown-guard expired: "the sender SHOULD abort the association by sending an
    /// ABORT chunk".
    pub(crate) fn on_t5_guard(&mut self, now: SimTime) {
        if !matches!(self.state, State::ShutdownSent | State::ShutdownAckSent) {
            return;
        }
        self.queue_abort(now, Vec::new());
        self.terminate(LossReason::ShutdownGuardExpired);
    }

    /// The graceful end: CLOSED and SHUTDOWN_COMPLETE.
    pub(crate) fn finish_shutdown(&mut self) {
        self.timers.stop_all();
        self.ctrl.clear();
        self.shutdown_due = false;
        self.set_state(State::Closed);
        self.events.push_back(SctpEvent::ShutdownComplete);
    }
}
