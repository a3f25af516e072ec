//! ABORT (RFC 9260 §9.1, §3.3.7), ERROR chunks and their causes (§3.3.10, §5.2.6 stale cookie),
//! unrecognized chunk types (§3.2), and the end of an association.

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{chunk_type, ChunkRepr, ErrorCause, Parameter, UnrecognizedAction};

use super::super::api::{LossReason, SctpEvent};
use super::super::timers::Timer;
use super::{Flow, PacketCtx, SctpAssociation, State};

impl SctpAssociation {
    /// RFC 9260 §9.1: "Upon receipt of the ABORT chunk, the receiving endpoint MUST delete the
    /// TCB and report the termination to the upper layer" (the tag was checked by the §8.5.1 B
    /// rule).
    pub(crate) fn on_abort(
        &mut self,
        _now: SimTime,
        _ctx: &mut PacketCtx,
        _t_bit: bool,
        causes: &[ErrorCause],
    ) -> Flow {
        self.terminate(LossReason::PeerAbort {
            causes: causes.to_vec(),
        });
        Flow::Stop
    }

    /// RFC 9260 §3.3.10: an ERROR chunk. A Stale Cookie in COOKIE-ECHOED restarts the
    /// handshake with a Cookie Preservative (§5.2.6); an Unrecognized Chunk Type naming an
    /// extension chunk turns that extension off; every ERROR is reported to the user.
    pub(crate) fn on_error(&mut self, now: SimTime, causes: &[ErrorCause]) -> Flow {
        self.stats.errors_received += 1;
        for cause in causes {
            match cause {
                ErrorCause::StaleCookie { staleness_us } if self.state == State::CookieEchoed => {
                    self.on_stale_cookie(now, *staleness_us);
                    return Flow::Stop;
                }
                ErrorCause::UnrecognizedChunkType { chunk } => match chunk.first().copied() {
                    Some(chunk_type::ASCONF) | Some(chunk_type::ASCONF_ACK) => {
                        self.asconf_ok = false;
                        self.timers.stop(Timer::T4Asconf);
                    }
                    Some(chunk_type::FORWARD_TSN) => self.pr_sctp = false,
                    _ => {}
                },
                _ => {}
            }
        }
        self.events.push_back(SctpEvent::RemoteError {
            causes: causes.to_vec(),
        });
        Flow::Continue
    }

    /// RFC 9260 §5.2.6: "an endpoint MAY ... send a new INIT chunk to the peer with a Cookie
    /// Preservative parameter requesting an extension to the life time of the State Cookie.
    /// When calculating the time extension, an implementation SHOULD use the RTT information
    /// measured based on the previous COOKIE ECHO / ERROR exchange, and SHOULD add no more than
    /// 1 second beyond the measured RTT"; it counts against Max.Init.Retransmits.
    fn on_stale_cookie(&mut self, now: SimTime, staleness_us: u32) {
        self.hs.retransmits += 1;
        if self.hs.retransmits > self.cfg.max_init_retransmits {
            self.terminate(LossReason::InitFailed);
            return;
        }
        self.timers.stop(Timer::T1Cookie);
        self.ctrl
            .retain(|(_, c)| !matches!(c, ChunkRepr::CookieEcho { .. }));
        self.hs.cookie = None;
        let increment_ms = (staleness_us / 1000).saturating_add(1000);
        if let Some(init) = &mut self.hs.init {
            init.params
                .retain(|p| !matches!(p, Parameter::CookiePreservative { .. }));
            init.params
                .push(Parameter::CookiePreservative { increment_ms });
        }
        self.peer_vtag = 0;
        self.set_state(State::CookieWait);
        self.start_init_again(now);
    }

    fn start_init_again(&mut self, now: SimTime) {
        let Some(init) = self.hs.init.clone() else {
            return;
        };
        let dest = self.primary;
        let t = self.make_packet(dest, 0, vec![ChunkRepr::Init(init)]);
        self.pending.push_back(t);
        let rto = self
            .path(dest)
            .map(|p| p.rto.rto())
            .unwrap_or(self.cfg.rto_initial);
        self.timers.set(Timer::T1Init, now + rto);
    }

    /// RFC 9260 §3.2: a chunk type this association does not process (unknown, or an
    /// extension that was not negotiated), handled by the two upper bits of its type.
    pub(crate) fn on_unrecognized(&mut self, ctx: &mut PacketCtx, chunk: &ChunkRepr) -> Flow {
        self.stats.unknown_chunks += 1;
        let action = UnrecognizedAction::for_chunk_type(chunk.kind());
        if action.reports() {
            let mut bytes = chunk.to_bytes().unwrap_or_default();
            bytes.truncate(chunk.chunk_len());
            ctx.report
                .push(ErrorCause::UnrecognizedChunkType { chunk: bytes });
        }
        if action.stops() {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }

    /// Queues an ABORT with `causes` to the current destination, with the peer's tag
    /// (RFC 9260 §8.5.1 B: "the endpoint MUST fill in the Verification Tag field of the
    /// outbound packet with the destination endpoint's tag value, if it is known").
    pub(crate) fn queue_abort(&mut self, _now: SimTime, causes: Vec<ErrorCause>) {
        if self.peer_vtag == 0 {
            return;
        }
        let dest = self.current;
        let t = self.make_packet(
            dest,
            self.peer_vtag,
            vec![ChunkRepr::Abort {
                t_bit: false,
                causes,
            }],
        );
        self.pending.push_back(t);
    }

    /// Aborts because of a protocol error: an ABORT with `cause` (with `vtag` instead of the
    /// peer's tag when given, e.g. an INIT ACK's Initiate Tag; a given tag of 0 makes it our own
    /// tag reflected with the T bit), then CLOSED.
    pub(crate) fn abort_with(&mut self, now: SimTime, cause: ErrorCause, vtag: Option<u32>) {
        match vtag {
            Some(tag) if tag != 0 => {
                let dest = self.current;
                let t = self.make_packet(
                    dest,
                    tag,
                    vec![ChunkRepr::Abort {
                        t_bit: false,
                        causes: vec![cause.clone()],
                    }],
                );
                self.pending.push_back(t);
            }
            // No tag of the peer to use (an INIT ACK with Initiate Tag 0, §3.3.3: "MAY send
            // an ABORT for debugging purpose"): reflect our own tag with the T bit set
            // (§3.3.7, §8.5.1 B), as FreeBSD does (ETSI TS 102 369 AS/I/1/14/2, note 14).
            Some(_) => {
                let dest = self.current;
                let t = self.make_packet(
                    dest,
                    self.my_vtag,
                    vec![ChunkRepr::Abort {
                        t_bit: true,
                        causes: vec![cause.clone()],
                    }],
                );
                self.pending.push_back(t);
            }
            None => self.queue_abort(now, vec![cause.clone()]),
        }
        self.terminate(LossReason::ProtocolViolation { cause });
    }

    /// Ends the association without a graceful shutdown: CLOSED, timers off, data discarded,
    /// CommLost reported. Packets already queued (a final ABORT) still go out.
    pub(crate) fn terminate(&mut self, reason: LossReason) {
        if self.state == State::Closed {
            return;
        }
        let undelivered = self.tx.clear(&mut self.paths) + self.sendq.clear();
        self.stats.messages_abandoned += undelivered as u64;
        self.timers.stop_all();
        self.ctrl.clear();
        self.forward_tsn_due = false;
        self.shutdown_due = false;
        self.set_state(State::Closed);
        self.events.push_back(SctpEvent::CommLost {
            reason,
            undelivered_messages: undelivered as u64,
        });
    }
}
