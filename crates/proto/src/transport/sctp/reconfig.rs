//! Stream reconfiguration (RFC 6525): resetting outgoing and incoming streams, resetting SSNs
//! and TSNs, adding streams.
//!
//! Negotiated like the other extensions: both sides list RE-CONFIG (130) in the Supported
//! Extensions of INIT / INIT ACK ([`super::SctpConfig::reconfig`]); with AUTH on, RE-CONFIG is
//! in our CHUNKS list and the extension is used only when AUTH was negotiated too (§3.1).
//!
//! Requester side (§5.1): requests carry sequence numbers starting at our Initial TSN (§4.1);
//! one request is outstanding at a time (§5.1.1), retransmitted on the Re-configuration timer
//! (one RTO of its destination, backed off, to an alternate destination, counting against the
//! path and association error counters as T3-rtx does). The operations wait in a queue until
//! they may go:
//! * an Outgoing SSN Reset holds its streams' queued messages until the answer (no new SSN
//!   may be assigned on them, §5.1.2). It is sent once everything in flight is acknowledged
//!   (meanwhile no stream gets new TSNs, about one round trip), so that its Sender's Last
//!   Assigned TSN is already at the peer's cumulative TSN and the peer performs it at once
//!   instead of deferring it (§5.2.2). Deferred resets are where stacks differ: usrsctp 0.9.5
//!   answers "In progress" and, when the last TSN arrives as the fill of a gap, never sends
//!   "Performed" and keeps answering retransmissions "In progress" (seen in the interop
//!   harness, `crates/interop`). Waiting also keeps a message half-sent in I-DATA fragments
//!   out of the reset (its MID must not change under the receiver, RFC 8260 §3);
//! * an SSN/TSN Reset holds every stream at once and is sent when nothing is outstanding
//!   (§5.1.4), so that the TSN space can restart cleanly.
//!
//! Receiver side (§5.2): the request sequence number is checked (the expected one is
//! processed; the two before it are answered again with their stored results; anything else
//! gets "Error - Bad Sequence Number", §5.2.1); then
//! * Outgoing SSN Reset (§5.2.2): performed at once when the Sender's Last Assigned TSN is
//!   acknowledged, otherwise answered "In progress" and performed when the cumulative TSN
//!   reaches it (deferred reset; a retransmission of the request then gets "Performed"); several
//!   can wait at once, each performed when its own last TSN arrives. Data
//!   beyond that TSN on the reset streams is not held back: a peer that respects §5.1.2
//!   (ours, usrsctp, Linux) sends none before the answer;
//! * Incoming SSN Reset (§5.2.3): answered by an Outgoing SSN Reset Request of our own whose
//!   Response Sequence Number names it (the implicit answer), or by "Error - Request already in
//!   progress" while a request of ours is outstanding;
//! * SSN/TSN Reset (§5.2.4): performed when nothing of ours is outstanding ("In progress"
//!   otherwise): the peer's next TSN becomes our cumulative TSN + 1 + 2^31 (G1), ours stays
//!   (G2), every SSN and MID starts at 0 (G5);
//! * Add Outgoing Streams (§5.2.5): our inbound streams grow (denied beyond 65535);
//! * Add Incoming Streams (§5.2.6): "Performed", then an Add Outgoing Streams Request of ours.
//!
//! Invalid stream numbers are answered "Error - Wrong SSN": RFC 6525 §4.4 defines the code but not
//! when it applies; Linux (`sctp_process_strreset_outreq`/`_inreq`, net/sctp/stream.c) uses it
//! for any stream number at or above the stream count, and so do we. Results reach the
//! application as [`SctpEvent::ReconfigResult`] (our requests) and
//! [`SctpEvent::StreamsChanged`] (the peer's).

use std::collections::VecDeque;
use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{ChunkRepr, ReconfigChunk, ReconfigParam, ReconfigResult, Tsn};

use super::api::{ApiError, ReconfigRequestKind, SctpEvent};
use super::association::{Flow, PacketCtx, SctpAssociation};
use super::retransmit::RetransmitQueue;
use super::timers::Timer;

/// RFC 6525 §5.2.4 G1: the receiver's next TSN is "the smallest TSN not acknowledged by the
/// receiver of the request plus 2^31".
const TSN_RESET_OFFSET: u32 = 1 << 31;

/// One operation waiting to be requested.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Op {
    /// §5.1.2; `response_seq`: the peer's Incoming SSN Reset Request this answers (§5.2.3).
    ResetOutgoing {
        streams: Vec<u16>,
        response_seq: Option<u32>,
    },
    /// §5.1.3.
    ResetIncoming { streams: Vec<u16> },
    /// §5.1.4.
    ResetSsnTsn,
    /// §5.1.5.
    AddOutgoing(u16),
    /// §5.1.6.
    AddIncoming(u16),
}

impl Op {
    fn kind(&self) -> ReconfigRequestKind {
        match self {
            Op::ResetOutgoing { .. } => ReconfigRequestKind::ResetOutgoing,
            Op::ResetIncoming { .. } => ReconfigRequestKind::ResetIncoming,
            Op::ResetSsnTsn => ReconfigRequestKind::ResetSsnTsn,
            Op::AddOutgoing(_) => ReconfigRequestKind::AddOutgoing,
            Op::AddIncoming(_) => ReconfigRequestKind::AddIncoming,
        }
    }

    fn streams(&self) -> Vec<u16> {
        match self {
            Op::ResetOutgoing { streams, .. } | Op::ResetIncoming { streams } => streams.clone(),
            _ => Vec::new(),
        }
    }
}

/// The request in flight.
#[derive(Debug, Clone)]
struct Outstanding {
    seq: u32,
    op: Op,
    /// The streams held for it (outgoing reset: its streams; SSN/TSN reset: all).
    held: Vec<u16>,
    chunk: ReconfigChunk,
    dest: Ipv4Addr,
}

/// A peer's Outgoing SSN Reset waiting for its last TSN (§5.2.2 deferred reset processing).
#[derive(Debug, Clone)]
struct Deferred {
    seq: u32,
    last_tsn: Tsn,
    streams: Vec<u16>,
}

/// Stream reconfiguration state of an association (RFC 6525 §5).
#[derive(Debug, Clone)]
pub struct ReconfigState {
    /// Our next Re-configuration Request Sequence Number (§4.1: starts at our Initial TSN).
    next_seq: u32,
    outstanding: Option<Outstanding>,
    queue: VecDeque<Op>,
    /// The peer's next expected request sequence number (its Initial TSN first).
    peer_next: u32,
    /// The answers to the peer's last two requests, newest first (§5.2.1: a retransmitted
    /// request is answered again). `None` in the answer: answered implicitly.
    answers: [Option<(u32, Option<ReconfigResult>)>; 2],
    /// The peer's deferred resets, in arrival order (usrsctp keeps a list too).
    deferred: Vec<Deferred>,
}

impl ReconfigState {
    /// A fresh state: our first request is numbered `my_initial_tsn`, the peer's first
    /// expected is `peer_initial_tsn` (RFC 6525 §4.1).
    pub fn new(my_initial_tsn: u32, peer_initial_tsn: u32) -> Self {
        ReconfigState {
            next_seq: my_initial_tsn,
            outstanding: None,
            queue: VecDeque::new(),
            peer_next: peer_initial_tsn,
            answers: [None, None],
            deferred: Vec::new(),
        }
    }

    /// Whether a request of ours awaits its answer.
    pub fn is_outstanding(&self) -> bool {
        self.outstanding.is_some()
    }

    /// Requests queued behind the outstanding one.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    fn record(&mut self, seq: u32, answer: Option<ReconfigResult>) {
        self.answers[1] = self.answers[0].take();
        self.answers[0] = Some((seq, answer));
    }

    fn update(&mut self, seq: u32, result: ReconfigResult) {
        for (s, a) in self.answers.iter_mut().flatten() {
            if *s == seq {
                *a = Some(result);
            }
        }
    }
}

fn response(seq: u32, result: ReconfigResult) -> ReconfigParam {
    ReconfigParam::Response {
        response_seq: seq,
        result,
        next_tsns: None,
    }
}

impl SctpAssociation {
    /// Whether stream reconfiguration (RFC 6525) was negotiated.
    pub fn reconfig_negotiated(&self) -> bool {
        self.reconfig.is_some()
    }

    /// The reconfiguration state, if negotiated.
    pub fn reconfig_state(&self) -> Option<&ReconfigState> {
        self.reconfig.as_ref()
    }

    fn queue_reconfig(&mut self, now: SimTime, op: Op) -> Result<(), ApiError> {
        let Some(rc) = self.reconfig.as_mut() else {
            return Err(ApiError::NotSupported);
        };
        if !self.state.is_established_or_closing() {
            return Err(ApiError::InvalidState);
        }
        rc.queue.push_back(op);
        self.send_next_reconfig(now);
        Ok(())
    }

    /// RFC 6525 §5.1.2: resets our outgoing `streams` (empty: all): once the peer answers
    /// "Performed", their next SSN (and MIDs) start at 0 again. Messages queued on them wait
    /// for the answer.
    pub fn reset_streams(&mut self, now: SimTime, streams: &[u16]) -> Result<(), ApiError> {
        if streams.iter().any(|s| *s >= self.outbound_streams) {
            return Err(ApiError::InvalidValue);
        }
        self.queue_reconfig(
            now,
            Op::ResetOutgoing {
                streams: streams.to_vec(),
                response_seq: None,
            },
        )
    }

    /// RFC 6525 §5.1.3: asks the peer to reset its outgoing streams that are our incoming
    /// `streams` (empty: all).
    pub fn request_incoming_reset(
        &mut self,
        now: SimTime,
        streams: &[u16],
    ) -> Result<(), ApiError> {
        if streams.iter().any(|s| *s >= self.inbound_streams) {
            return Err(ApiError::InvalidValue);
        }
        self.queue_reconfig(
            now,
            Op::ResetIncoming {
                streams: streams.to_vec(),
            },
        )
    }

    /// RFC 6525 §5.1.4: resets every SSN and both TSN spaces. New data waits from now on
    /// until the answer; the request leaves once everything sent is acknowledged.
    pub fn reset_ssn_tsn(&mut self, now: SimTime) -> Result<(), ApiError> {
        self.queue_reconfig(now, Op::ResetSsnTsn)
    }

    /// RFC 6525 §5.1.5 and §5.1.6: adds `outgoing` streams of ours and asks the peer to add
    /// `incoming` ones (its outgoing); a zero count asks nothing. Either total must stay
    /// within 65535.
    pub fn add_streams(
        &mut self,
        now: SimTime,
        outgoing: u16,
        incoming: u16,
    ) -> Result<(), ApiError> {
        let fits = |have: u16, more: u16| u32::from(have) + u32::from(more) <= u32::from(u16::MAX);
        if (outgoing == 0 && incoming == 0)
            || !fits(self.outbound_streams, outgoing)
            || !fits(self.inbound_streams, incoming)
        {
            return Err(ApiError::InvalidValue);
        }
        if outgoing > 0 {
            self.queue_reconfig(now, Op::AddOutgoing(outgoing))?;
        }
        if incoming > 0 {
            self.queue_reconfig(now, Op::AddIncoming(incoming))?;
        }
        Ok(())
    }

    fn all_outbound(&self) -> Vec<u16> {
        (0..self.outbound_streams).collect()
    }

    fn all_inbound(&self) -> Vec<u16> {
        (0..self.inbound_streams).collect()
    }

    /// RFC 6525 §5.1.1: if no request is outstanding and the first queued one may go, send it
    /// with the next sequence number and start the Re-configuration timer.
    fn send_next_reconfig(&mut self, now: SimTime) {
        let Some(rc) = self.reconfig.as_ref() else {
            return;
        };
        if rc.outstanding.is_some() {
            return;
        }
        let Some(op) = rc.queue.front().cloned() else {
            return;
        };
        let (seq, peer_last) = (rc.next_seq, rc.peer_next.wrapping_sub(1));
        let (param, held) = match &op {
            Op::ResetOutgoing {
                streams,
                response_seq,
            } => {
                let all = self.all_outbound();
                let list = if streams.is_empty() {
                    all.clone()
                } else {
                    streams.clone()
                };
                if !self.tx.is_empty() || self.sendq.fragmenting(&list) {
                    // Drain first: no new TSN until everything sent is acknowledged, so that
                    // the peer can perform the reset at once (see the module documentation).
                    self.sendq.hold(&all);
                    return;
                }
                self.sendq.hold(&list);
                let others: Vec<u16> = all.into_iter().filter(|s| !list.contains(s)).collect();
                self.sendq.release(&others);
                let last_tsn = self.tx.tsn(self.tx.next_idx) - 1;
                let param = ReconfigParam::OutgoingSsnReset {
                    request_seq: seq,
                    // §4.1: the request this one answers, else "the next expected
                    // Re-configuration Request Sequence Number minus 1".
                    response_seq: response_seq.unwrap_or(peer_last),
                    last_tsn,
                    streams: streams.clone(),
                };
                (param, list)
            }
            Op::ResetSsnTsn => {
                let all = self.all_outbound();
                self.sendq.hold(&all);
                if !self.tx.is_empty() || self.sendq.fragmenting(&all) {
                    return;
                }
                (ReconfigParam::SsnTsnReset { request_seq: seq }, all)
            }
            Op::ResetIncoming { streams } => (
                ReconfigParam::IncomingSsnReset {
                    request_seq: seq,
                    streams: streams.clone(),
                },
                Vec::new(),
            ),
            Op::AddOutgoing(n) => (
                ReconfigParam::AddOutgoingStreams {
                    request_seq: seq,
                    new_streams: *n,
                },
                Vec::new(),
            ),
            Op::AddIncoming(n) => (
                ReconfigParam::AddIncomingStreams {
                    request_seq: seq,
                    new_streams: *n,
                },
                Vec::new(),
            ),
        };
        let dest = self.data_dest(now);
        let chunk = ReconfigChunk {
            params: vec![param],
        };
        if let Some(rc) = self.reconfig.as_mut() {
            rc.queue.pop_front();
            rc.next_seq = seq.wrapping_add(1);
            rc.outstanding = Some(Outstanding {
                seq,
                op,
                held,
                chunk: chunk.clone(),
                dest,
            });
        }
        self.transmit_reconfig(now, dest, chunk);
    }

    fn transmit_reconfig(&mut self, now: SimTime, dest: Ipv4Addr, chunk: ReconfigChunk) {
        self.stats.reconfig_requests_sent += 1;
        self.ctrl.push((dest, ChunkRepr::Reconfig(chunk)));
        let rto = self
            .path(dest)
            .map(|p| p.rto.rto())
            .unwrap_or(self.cfg.rto_initial);
        self.timers.set(Timer::Reconfig, now + rto);
    }

    /// RFC 6525 §5.1.1: the Re-configuration timer expired: count the error on the destination
    /// and the association (RFC 9260 §8.1, §8.2), back off its RTO and retransmit the same
    /// request, to an alternate destination if there is one.
    pub(crate) fn on_reconfig_timer(&mut self, now: SimTime) {
        let Some(out) = self.reconfig.as_ref().and_then(|r| r.outstanding.clone()) else {
            return;
        };
        if self.strike(now, out.dest) {
            return;
        }
        self.back_off_rto(out.dest);
        let dest = self.alternate(out.dest);
        if let Some(o) = self.reconfig.as_mut().and_then(|r| r.outstanding.as_mut()) {
            o.dest = dest;
        }
        self.stats.reconfig_retransmissions += 1;
        self.transmit_reconfig(now, dest, out.chunk);
    }

    /// After every input: a deferred reset of the peer whose last TSN has arrived is
    /// performed (§5.2.2), and a queued request that was waiting may now go.
    pub(crate) fn reconfig_progress(&mut self, now: SimTime) {
        let Some(rc) = self.reconfig.as_mut() else {
            return;
        };
        let cum = self.rx.cum_tsn();
        let (due, waiting): (Vec<Deferred>, Vec<Deferred>) = std::mem::take(&mut rc.deferred)
            .into_iter()
            .partition(|d| !d.last_tsn.is_after(cum));
        rc.deferred = waiting;
        for d in &due {
            rc.update(d.seq, ReconfigResult::Performed);
        }
        for d in due {
            self.perform_inbound_reset(&d.streams);
        }
        self.send_next_reconfig(now);
    }

    fn perform_inbound_reset(&mut self, streams: &[u16]) {
        let list = if streams.is_empty() {
            self.all_inbound()
        } else {
            streams.to_vec()
        };
        self.rx.reset_streams(&list);
        self.events.push_back(SctpEvent::StreamsChanged {
            kind: ReconfigRequestKind::ResetOutgoing,
            streams: streams.to_vec(),
            inbound_streams: self.inbound_streams,
            outbound_streams: self.outbound_streams,
        });
    }

    /// RFC 6525 §5.2: a RE-CONFIG chunk from the peer: its requests are answered in one
    /// RE-CONFIG back to the packet's source, its responses complete our request.
    pub(crate) fn on_reconfig(
        &mut self,
        now: SimTime,
        ctx: &mut PacketCtx,
        chunk: &ReconfigChunk,
    ) -> Flow {
        if !self.state.is_established_or_closing() {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let mut answers = Vec::new();
        for p in &chunk.params {
            match p {
                ReconfigParam::Response {
                    response_seq,
                    result,
                    next_tsns,
                } => self.on_reconfig_response(now, *response_seq, *result, *next_tsns),
                ReconfigParam::Unknown { .. } => {}
                req => {
                    if let ReconfigParam::OutgoingSsnReset { response_seq, .. } = req {
                        // §5.2.2: an Outgoing SSN Reset Request answers our Incoming SSN
                        // Reset Request implicitly.
                        let implicit = self.reconfig.as_ref().is_some_and(|r| {
                            r.outstanding.as_ref().is_some_and(|o| {
                                o.seq == *response_seq && matches!(o.op, Op::ResetIncoming { .. })
                            })
                        });
                        if implicit {
                            self.on_reconfig_response(
                                now,
                                *response_seq,
                                ReconfigResult::Performed,
                                None,
                            );
                        }
                    }
                    if let Some(a) = self.on_reconfig_request(req) {
                        answers.push(a);
                    }
                }
            }
        }
        if !answers.is_empty() {
            let t = self.reply(
                ctx,
                self.peer_vtag,
                vec![ChunkRepr::Reconfig(ReconfigChunk { params: answers })],
            );
            self.pending.push_back(t);
        }
        self.send_next_reconfig(now);
        Flow::Continue
    }

    /// §5.2.1: the sequence number check, then the request itself. Returns the response
    /// parameter to send, if any.
    fn on_reconfig_request(&mut self, req: &ReconfigParam) -> Option<ReconfigParam> {
        let seq = req.request_seq()?;
        let rc = self.reconfig.as_mut()?;
        if seq != rc.peer_next {
            // A retransmission of one of the last two requests gets the same answer.
            if let Some((_, answer)) = rc.answers.iter().flatten().find(|(s, _)| *s == seq) {
                return answer.map(|r| response(seq, r));
            }
            return Some(response(seq, ReconfigResult::BadSequenceNumber));
        }
        rc.peer_next = seq.wrapping_add(1);
        self.stats.reconfig_requests_received += 1;
        let (answer, next_tsns) = self.process_request(seq, req);
        if let Some(rc) = self.reconfig.as_mut() {
            rc.record(seq, answer);
        }
        answer.map(|result| ReconfigParam::Response {
            response_seq: seq,
            result,
            next_tsns,
        })
    }

    /// A new request of the peer (§5.2.2–5.2.6). `None`: answered implicitly by a request of
    /// ours.
    fn process_request(
        &mut self,
        seq: u32,
        req: &ReconfigParam,
    ) -> (Option<ReconfigResult>, Option<(Tsn, Tsn)>) {
        let busy = self
            .reconfig
            .as_ref()
            .is_some_and(|r| r.outstanding.is_some() || !r.queue.is_empty());
        let deferred = self
            .reconfig
            .as_ref()
            .is_some_and(|r| !r.deferred.is_empty());
        let result = match req {
            ReconfigParam::OutgoingSsnReset {
                last_tsn, streams, ..
            } => {
                if streams.iter().any(|s| *s >= self.inbound_streams) {
                    ReconfigResult::WrongSsn
                } else if !last_tsn.is_after(self.rx.cum_tsn()) {
                    self.perform_inbound_reset(streams);
                    ReconfigResult::Performed
                } else {
                    if let Some(rc) = self.reconfig.as_mut() {
                        // Several may wait: usrsctp treats "In progress" as final and goes on
                        // with its next request (seen in the interop harness).
                        rc.deferred.push(Deferred {
                            seq,
                            last_tsn: *last_tsn,
                            streams: streams.clone(),
                        });
                    }
                    ReconfigResult::InProgress
                }
            }
            ReconfigParam::IncomingSsnReset { streams, .. } => {
                if streams.iter().any(|s| *s >= self.outbound_streams) {
                    ReconfigResult::WrongSsn
                } else if busy {
                    ReconfigResult::AlreadyInProgress
                } else {
                    if let Some(rc) = self.reconfig.as_mut() {
                        rc.queue.push_front(Op::ResetOutgoing {
                            streams: streams.clone(),
                            response_seq: Some(seq),
                        });
                    }
                    return (None, None);
                }
            }
            ReconfigParam::SsnTsnReset { .. } => {
                if busy || deferred {
                    ReconfigResult::AlreadyInProgress
                } else if !self.tx.is_empty() {
                    ReconfigResult::InProgress
                } else {
                    return (
                        Some(ReconfigResult::Performed),
                        Some(self.perform_ssn_tsn_reset()),
                    );
                }
            }
            ReconfigParam::AddOutgoingStreams { new_streams, .. } => {
                let total = u32::from(self.inbound_streams) + u32::from(*new_streams);
                if *new_streams == 0 {
                    ReconfigResult::NothingToDo
                } else if total > u32::from(u16::MAX) {
                    ReconfigResult::Denied
                } else {
                    self.rx.add_streams(*new_streams);
                    self.inbound_streams = self.rx.streams();
                    self.events.push_back(SctpEvent::StreamsChanged {
                        kind: ReconfigRequestKind::AddOutgoing,
                        streams: Vec::new(),
                        inbound_streams: self.inbound_streams,
                        outbound_streams: self.outbound_streams,
                    });
                    ReconfigResult::Performed
                }
            }
            ReconfigParam::AddIncomingStreams { new_streams, .. } => {
                let total = u32::from(self.outbound_streams) + u32::from(*new_streams);
                if *new_streams == 0 {
                    ReconfigResult::NothingToDo
                } else if total > u32::from(u16::MAX) {
                    ReconfigResult::Denied
                } else {
                    if let Some(rc) = self.reconfig.as_mut() {
                        rc.queue.push_back(Op::AddOutgoing(*new_streams));
                    }
                    ReconfigResult::Performed
                }
            }
            ReconfigParam::Response { .. } | ReconfigParam::Unknown { .. } => return (None, None),
        };
        (Some(result), None)
    }

    /// §5.2.4 G1–G5 on the receiver of an SSN/TSN Reset Request (nothing of ours
    /// outstanding). Returns (Sender's Next TSN, Receiver's Next TSN) for the response.
    fn perform_ssn_tsn_reset(&mut self) -> (Tsn, Tsn) {
        let receiver_next = self.rx.cum_tsn() + 1 + TSN_RESET_OFFSET;
        self.rx.restart_tsn(receiver_next);
        let sender_next = self.tx.tsn(self.tx.next_idx);
        let all = self.all_outbound();
        self.sendq.reset_ssns(&all);
        self.events.push_back(SctpEvent::StreamsChanged {
            kind: ReconfigRequestKind::ResetSsnTsn,
            streams: Vec::new(),
            inbound_streams: self.inbound_streams,
            outbound_streams: self.outbound_streams,
        });
        (sender_next, receiver_next)
    }

    /// §5.1: the peer answered request `seq`.
    fn on_reconfig_response(
        &mut self,
        now: SimTime,
        seq: u32,
        result: ReconfigResult,
        next_tsns: Option<(Tsn, Tsn)>,
    ) {
        let Some(rc) = self.reconfig.as_mut() else {
            return;
        };
        if rc.outstanding.as_ref().is_none_or(|o| o.seq != seq) {
            // A late answer to a request already completed, or nonsense.
            return;
        }
        if result == ReconfigResult::InProgress {
            // Not final: the request stays outstanding and is asked again when the timer
            // expires (§5.2.2: the peer answers "Performed" once the reset is done).
            return;
        }
        let Some(out) = rc.outstanding.take() else {
            return;
        };
        self.timers.stop(Timer::Reconfig);
        let ok = matches!(
            result,
            ReconfigResult::Performed | ReconfigResult::NothingToDo
        );
        match &out.op {
            Op::ResetOutgoing { .. } if ok => self.sendq.reset_ssns(&out.held),
            Op::ResetSsnTsn if ok => {
                if let Some((sender_next, receiver_next)) = next_tsns {
                    // §5.1.4 / §5.2.4: the peer's next TSN and ours, as it chose them.
                    self.rx.restart_tsn(sender_next);
                    if self.tx.is_empty() {
                        self.tx = RetransmitQueue::new(receiver_next);
                    }
                    self.sendq.reset_ssns(&out.held);
                }
            }
            Op::AddOutgoing(n) if ok => {
                let total = self.outbound_streams.saturating_add(*n);
                self.outbound_streams = total;
                self.sendq.set_streams(total);
            }
            _ => {}
        }
        self.sendq.release(&out.held);
        if ok {
            self.stats.reconfig_performed += 1;
        } else {
            self.stats.reconfig_denied += 1;
        }
        self.events.push_back(SctpEvent::ReconfigResult {
            kind: out.op.kind(),
            streams: out.op.streams(),
            result,
        });
        self.send_next_reconfig(now);
    }
}
