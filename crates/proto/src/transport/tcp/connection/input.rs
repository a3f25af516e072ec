//! The receive path: RFC 9293 §3.10.7 "SEGMENT ARRIVES", state by state, with the ACK
//! processing of RFC 5681 (fast retransmit / fast recovery), RFC 6582 (partial ACKs),
//! RFC 6675 (SACK scoreboard), RFC 6298 (RTT samples, timer restarts) and RFC 7323 (PAWS,
//! TS.Recent, window scaling).

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::tcp::{TcpFlags, TcpRepr, MAX_WINDOW_SCALE};

use super::super::config::{PartialAckTimer, TcpVariant};
use super::super::congestion::{CongestionControl, PartialAck, RecoveryStyle};
use super::super::event::{TcpEvent, TcpMetric};
use super::super::recv::RecvBuffer;
use super::super::state::State;
use super::super::timers::Timer;
use super::{clamp_u32, AckState, Recovery, TcpConnection};

impl TcpConnection {
    /// Handles one parsed segment that arrived at `now` with `payload` (RFC 9293 §3.10.7).
    /// `repr.payload_len` is ignored in favour of `payload.len()`. Nothing here panics on
    /// segment content: unacceptable segments are counted in
    /// [`super::super::TcpStats::segments_dropped`] and answered as the RFC says.
    pub fn handle_segment(&mut self, now: SimTime, repr: &TcpRepr, payload: &[u8]) {
        self.stats.segments_received += 1;
        let ports_match = repr.dst_port == self.local_port
            && match self.state {
                State::Closed | State::Listen => true,
                _ => repr.src_port == self.remote_port,
            };
        if !ports_match {
            self.stats.segments_dropped += 1;
            return;
        }
        match self.state {
            State::Closed => self.input_closed(repr, payload.len()),
            State::Listen => self.input_listen(repr),
            State::SynSent => self.input_syn_sent(now, repr),
            _ => self.input_synchronized(now, repr, payload),
        }
        self.report_metrics();
    }

    /// RFC 9293 §3.10.7.1: "An incoming segment not containing a RST causes a RST to be sent
    /// in response."
    fn input_closed(&mut self, repr: &TcpRepr, payload_len: usize) {
        self.stats.segments_dropped += 1;
        self.reply_rst(repr, payload_len);
    }

    /// Queues the RST answering `repr` (RFC 9293 §3.10.7.1): `<SEQ=SEG.ACK><CTL=RST>` if the
    /// segment had an ACK, else `<SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>`.
    fn reply_rst(&mut self, repr: &TcpRepr, payload_len: usize) {
        if repr.flags.contains(TcpFlags::RST) {
            return;
        }
        let base = TcpRepr {
            src_port: self.local_port,
            dst_port: repr.src_port,
            flags: TcpFlags::RST,
            ..TcpRepr::default()
        };
        let seg_len = payload_len
            + usize::from(repr.flags.contains(TcpFlags::SYN))
            + usize::from(repr.flags.contains(TcpFlags::FIN));
        self.pending_rst = Some(match repr.ack_number {
            Some(ack) => TcpRepr {
                seq_number: ack,
                ..base
            },
            None => TcpRepr {
                ack_number: Some(repr.seq_number.wrapping_add(seg_len as u32)),
                ..base
            },
        });
    }

    /// RFC 9293 §3.10.7.2, LISTEN.
    fn input_listen(&mut self, repr: &TcpRepr) {
        // "first, check for a RST: An incoming RST should be ignored."
        if repr.flags.contains(TcpFlags::RST) {
            self.stats.segments_dropped += 1;
            return;
        }
        // "second, check for an ACK: Any acknowledgment is bad if it arrives on a connection
        // still in the LISTEN state. An acceptable reset segment should be formed".
        if repr.ack_number.is_some() {
            self.stats.segments_dropped += 1;
            self.reply_rst(repr, 0);
            return;
        }
        // "third, check for a SYN".
        if !repr.flags.contains(TcpFlags::SYN) {
            // "fourth, other data or control: ... drop the segment and return."
            self.stats.segments_dropped += 1;
            return;
        }
        // "Set RCV.NXT to SEG.SEQ+1, IRS is set to SEG.SEQ ... ISS should be selected and a
        // SYN segment sent ... SND.NXT is set to ISS+1 and SND.UNA to ISS. The connection
        // state should be changed to SYN-RECEIVED." Data on the SYN is not accepted (it is
        // not acknowledged, so the peer resends it).
        self.remote_port = repr.src_port;
        self.irs = repr.seq_number;
        self.rcv = RecvBuffer::new(self.cfg.recv_buffer, 1);
        self.negotiate(repr, false);
        self.snd_wnd = u32::from(repr.window_len);
        self.snd_wl1 = 0;
        self.snd_wl2 = 0;
        self.set_state(State::SynReceived);
        self.syn_due = true;
    }

    /// Applies the options of the peer's SYN (`active`: we sent the first SYN).
    fn negotiate(&mut self, repr: &TcpRepr, active: bool) {
        let offered_sack = !active || (self.cfg.sack_permitted && self.cfg.variant.uses_sack());
        // RFC 2018 §2: SACK only if both SYNs carried SACK-Permitted.
        self.sack_ok = self.cfg.sack_permitted && offered_sack && repr.sack_permitted;
        // RFC 7323 §3.2: timestamps only if both SYNs carried TSopt.
        self.ts_ok = self.cfg.timestamps && repr.timestamp.is_some();
        if let (true, Some(ts)) = (self.ts_ok, repr.timestamp) {
            self.ts_recent = ts.tsval;
        }
        // RFC 7323 §2.2: scaling only if both SYNs carried a Window Scale option; §2.3: "If a
        // Window Scale option is received with a shift.cnt value larger than 14, the TCP
        // SHOULD log the error but MUST use 14 instead of the specified value."
        match (self.cfg.window_scale, repr.window_scale) {
            (Some(ours), Some(theirs)) => {
                self.ws_ok = true;
                self.rcv_wscale = ours.min(MAX_WINDOW_SCALE);
                self.snd_wscale = theirs.min(MAX_WINDOW_SCALE);
            }
            _ => {
                self.ws_ok = false;
                self.rcv_wscale = 0;
                self.snd_wscale = 0;
            }
        }
        self.set_send_mss(repr.max_seg_size);
    }

    /// RFC 9293 §3.10.7.3, SYN-SENT.
    fn input_syn_sent(&mut self, now: SimTime, repr: &TcpRepr) {
        let rst = repr.flags.contains(TcpFlags::RST);
        // "first, check the ACK bit: If SEG.ACK =< ISS or SEG.ACK > SND.NXT, send a reset
        // (unless the RST bit is set, if so drop the segment and return)".
        let mut ack_off = None;
        if let Some(ack) = repr.ack_number {
            let off = self.soff_of(ack);
            if off <= 0 || off > self.snd_max as i64 {
                self.stats.segments_dropped += 1;
                self.reply_rst(repr, 0);
                return;
            }
            ack_off = Some(off as u64);
        }
        // "second, check the RST bit: If the ACK was acceptable, then signal to the user
        // 'error: connection reset', drop the segment, enter CLOSED state ... Otherwise (no
        // ACK), drop the segment and return."
        if rst {
            if ack_off.is_some() {
                self.enter_closed(TcpEvent::Reset);
            } else {
                self.stats.segments_dropped += 1;
            }
            return;
        }
        // "fourth, check the SYN bit".
        if !repr.flags.contains(TcpFlags::SYN) {
            // "fifth, if neither of the SYN or RST bits is set, then drop the segment".
            self.stats.segments_dropped += 1;
            return;
        }
        self.irs = repr.seq_number;
        self.rcv = RecvBuffer::new(self.cfg.recv_buffer, 1);
        self.negotiate(repr, true);
        // The window of a SYN is never scaled (RFC 7323 §2.2).
        self.snd_wnd = u32::from(repr.window_len);
        self.snd_wl1 = 0;
        match ack_off {
            Some(off) => {
                // "If SND.UNA > ISS (our SYN has been ACKed), change the connection state to
                // ESTABLISHED, form an ACK segment <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK> and
                // send it."
                self.snd_una = off;
                self.snd_wl2 = off;
                self.handshake_rtt(now, repr);
                self.timers.stop(Timer::Retransmit);
                self.set_state(State::Established);
                self.events.push_back(TcpEvent::Connected);
                if self.fin_queued {
                    self.set_state(State::FinWait1);
                }
                self.ack_state = AckState::Now;
            }
            None => {
                // "Otherwise, enter SYN-RECEIVED, form a SYN,ACK segment ... and send it."
                // (simultaneous open)
                self.set_state(State::SynReceived);
                self.syn_due = true;
            }
        }
    }

    /// RTT sample from the handshake and RFC 6298 §5.7 after a SYN timeout.
    fn handshake_rtt(&mut self, now: SimTime, repr: &TcpRepr) {
        if let Some((rtt, sent)) = self.take_rtt_sample(now, repr, 1) {
            self.rtt_sample(now, rtt, sent);
        }
        if self.syn_retransmitted {
            self.rtt.after_syn_timeout();
        }
        self.consecutive_timeouts = 0;
    }

    /// An RTT measurement from the timestamp echo (RFC 7323 §4) or from the timed segment
    /// (RFC 6298 §3, Karn), for an ACK reaching `ack_off`, with the timed segment's send time.
    pub(crate) fn take_rtt_sample(
        &mut self,
        now: SimTime,
        repr: &TcpRepr,
        ack_off: u64,
    ) -> Option<(SimDuration, Option<SimTime>)> {
        if self.ts_ok {
            let ts = repr.timestamp?;
            let ticks = Self::ts_clock(now).wrapping_sub(ts.tsecr);
            let rtt = SimDuration::from_millis(u64::from(ticks));
            // A garbage echo would give an absurd sample; ignore anything beyond the maximum
            // RTO.
            return (ticks < 1 << 31 && rtt <= self.cfg.max_rto).then_some((rtt, None));
        }
        match self.timed {
            Some((end, sent)) if ack_off >= end => {
                self.timed = None;
                Some((now.saturating_since(sent), Some(sent)))
            }
            _ => None,
        }
    }

    /// RFC 9293 §3.10.7.4: SYN-RECEIVED and every later state.
    fn input_synchronized(&mut self, now: SimTime, repr: &TcpRepr, payload: &[u8]) {
        let syn = repr.flags.contains(TcpFlags::SYN);
        let fin = repr.flags.contains(TcpFlags::FIN);
        let rst = repr.flags.contains(TcpFlags::RST);

        // A retransmitted SYN while in SYN-RECEIVED: our SYN-ACK was lost; send it again.
        if self.state == State::SynReceived && syn && !rst && repr.seq_number == self.irs {
            self.syn_due = true;
            return;
        }

        let seg_off = self.roff_of(repr.seq_number);
        let seg_len = payload.len() as i64 + i64::from(syn) + i64::from(fin);

        // RFC 7323 §5.3 PAWS, R1: "If there is a Timestamps option in the arriving segment,
        // SEG.TSval < TS.Recent, TS.Recent is valid ... then treat the arriving segment as not
        // acceptable: Send an acknowledgment in reply ... and drop the segment." §3.2: "If a
        // non-<RST> segment is received without a TSopt, a TCP SHOULD silently drop the
        // segment."
        if self.ts_ok && !rst {
            match repr.timestamp {
                None => {
                    self.stats.segments_dropped += 1;
                    return;
                }
                Some(ts) if (ts.tsval.wrapping_sub(self.ts_recent) as i32) < 0 => {
                    self.stats.segments_dropped += 1;
                    self.ack_now();
                    return;
                }
                Some(_) => {}
            }
        }

        // "first, check sequence number" (the four acceptability cases).
        let rcv_nxt = self.rcv_nxt_off() as i64;
        let wnd = i64::from(self.rcv.window());
        let acceptable = if seg_len == 0 {
            if wnd == 0 {
                seg_off == rcv_nxt
            } else {
                // The right edge itself is accepted for zero-length segments (as Linux does):
                // an ACK from a peer that filled our window exactly stays valid.
                rcv_nxt <= seg_off && seg_off <= rcv_nxt + wnd
            }
        } else if wnd == 0 {
            false
        } else {
            let end = seg_off + seg_len - 1;
            (rcv_nxt <= seg_off && seg_off < rcv_nxt + wnd)
                || (rcv_nxt <= end && end < rcv_nxt + wnd)
        };
        if !acceptable {
            self.stats.segments_dropped += 1;
            if rst {
                return;
            }
            if !payload.is_empty() && seg_off + seg_len <= rcv_nxt {
                self.stats.duplicate_segments_received += 1;
            }
            // "If the RCV.WND is zero, no segments will be acceptable, but special allowance
            // should be made to accept valid ACKs".
            if wnd == 0 && seg_off == rcv_nxt && repr.ack_number.is_some() && !syn {
                if !self.process_ack(now, repr, 0, seg_off) {
                    return;
                }
                self.after_ack_state_changes(now);
            }
            // TIME-WAIT: "The only thing that can arrive in this state is a retransmission of
            // the remote FIN. Acknowledge it, and restart the 2 MSL timeout."
            if self.state == State::TimeWait && fin {
                self.enter_time_wait(now);
            }
            // "an acknowledgment should be sent in reply".
            if self.state != State::Closed {
                self.ack_now();
            }
            return;
        }

        // RFC 7323 §4.3: "If SEG.TSval >= TS.Recent and SEG.SEQ <= Last.ACK.sent, then
        // TS.Recent = SEG.TSval" (PAWS already rejected older values).
        if let (true, Some(ts)) = (self.ts_ok, repr.timestamp) {
            if seg_off <= self.last_ack_sent as i64 {
                self.ts_recent = ts.tsval;
            }
        }

        // "second, check the RST bit": RFC 5961 §3.2, reset only on an exact match, else send
        // a challenge ACK.
        if rst {
            if seg_off != rcv_nxt {
                self.ack_now();
                return;
            }
            let event = match self.state {
                // "enter the CLOSED state, delete the TCB, and return".
                State::Closing | State::LastAck | State::TimeWait => TcpEvent::Closed,
                // "any outstanding RECEIVEs and SEND should receive 'reset' responses".
                _ => TcpEvent::Reset,
            };
            self.enter_closed(event);
            return;
        }

        // "fourth, check the SYN bit": RFC 5961 §4, a SYN in a synchronized state gets a
        // challenge ACK and is dropped.
        if syn {
            self.stats.segments_dropped += 1;
            self.ack_now();
            return;
        }

        // "fifth, check the ACK field: if the ACK bit is off drop the segment and return".
        let Some(ack) = repr.ack_number else {
            self.stats.segments_dropped += 1;
            return;
        };
        if self.state == State::SynReceived {
            // "If SND.UNA < SEG.ACK =< SND.NXT, then enter ESTABLISHED state and continue
            // processing ... If the segment acknowledgment is not acceptable, form a reset
            // segment <SEQ=SEG.ACK><CTL=RST> and send it."
            let off = self.soff_of(ack);
            if off <= self.snd_una as i64 || off > self.snd_max as i64 {
                self.stats.segments_dropped += 1;
                self.reply_rst(repr, payload.len());
                return;
            }
            let off = off as u64;
            self.snd_una = off;
            self.snd_nxt = self.snd_nxt.max(off);
            self.snd_wnd = u32::from(repr.window_len) << self.snd_wscale;
            self.snd_wl1 = seg_off.max(0) as u64;
            self.snd_wl2 = off;
            self.handshake_rtt(now, repr);
            self.timers.stop(Timer::Retransmit);
            self.set_state(State::Established);
            self.events.push_back(TcpEvent::Connected);
            if self.fin_queued {
                self.set_state(State::FinWait1);
            }
        } else {
            if !self.process_ack(now, repr, payload.len(), seg_off) {
                return;
            }
            if self.after_ack_state_changes(now) {
                return;
            }
        }

        // "seventh, process the segment text".
        if !payload.is_empty() {
            self.receive_text(now, seg_off, payload);
        }

        // "eighth, check the FIN bit".
        // A FIN is taken only if its segment fit in the window and no data was received
        // beyond it (a peer cannot send data after its FIN; such a FIN is nonsense).
        if fin {
            let fin_off = seg_off + payload.len() as i64;
            let whole = fin_off <= rcv_nxt + wnd;
            if self.peer_fin.is_none()
                && whole
                && fin_off >= rcv_nxt
                && fin_off as u64 >= self.rcv.highest_end()
            {
                self.peer_fin = Some(fin_off as u64);
            }
        }
        self.try_consume_fin(now);
    }

    /// State changes driven by the acknowledgment of our FIN (RFC 9293 §3.10.7.4, fifth).
    /// Returns true if the connection closed.
    fn after_ack_state_changes(&mut self, now: SimTime) -> bool {
        if !self.fin_acked() {
            return false;
        }
        match self.state {
            // "In addition to the processing for the ESTABLISHED state, if the FIN segment is
            // now acknowledged, then enter FIN-WAIT-2 and continue processing".
            State::FinWait1 => self.set_state(State::FinWait2),
            // "if the ACK acknowledges our FIN, then enter the TIME-WAIT state".
            State::Closing => self.enter_time_wait(now),
            // "If our FIN is now acknowledged, delete the TCB, enter the CLOSED state".
            State::LastAck => {
                self.enter_closed(TcpEvent::Closed);
                return true;
            }
            _ => {}
        }
        false
    }

    /// RFC 9293 §3.10.7.4, fifth, for ESTABLISHED and later: updates SND.UNA, the window,
    /// RTT estimate, congestion control and loss recovery. Returns false if the segment must
    /// be dropped.
    fn process_ack(
        &mut self,
        now: SimTime,
        repr: &TcpRepr,
        payload_len: usize,
        seg_off: i64,
    ) -> bool {
        let Some(ack) = repr.ack_number else {
            return false;
        };
        let ack_off = self.soff_of(ack);
        // "If the ACK acks something not yet sent (SEG.ACK > SND.NXT), then send an ACK, drop
        // the segment, and return."
        if ack_off > self.snd_max as i64 {
            self.stats.segments_dropped += 1;
            self.ack_now();
            return false;
        }
        // "If the ACK is a duplicate (SEG.ACK < SND.UNA), it can be ignored."
        if ack_off < self.snd_una as i64 {
            return true;
        }
        let ack_off = ack_off as u64;
        let acked = ack_off - self.snd_una;
        let style = self.recovery_style();

        // RFC 6675 §5: "Upon the receipt of any ACK containing SACK information, the
        // scoreboard MUST be updated via the Update () routine." Blocks outside the
        // outstanding data are ignored.
        let mut blocks = [(0u64, 0u64); 4];
        let mut n = 0;
        if self.sack_ok && style == RecoveryStyle::Pipe {
            for (left, right) in repr.sack_blocks() {
                let lo = self.soff_of(sctpsim_wire::TcpSeqNumber(left));
                let hi = self.soff_of(sctpsim_wire::TcpSeqNumber(right));
                if lo >= ack_off as i64 && lo < hi && hi <= self.snd_max as i64 && n < blocks.len()
                {
                    blocks[n] = (lo as u64, hi as u64);
                    n += 1;
                }
            }
        }
        let sack1 = self.uses_sack1();
        let mut newly_sacked = 0;
        if !sack1 {
            newly_sacked = self.scoreboard.update(&blocks[..n]);
        }

        // "If SND.UNA =< SEG.ACK =< SND.NXT, the send window should be updated. If (SND.WL1 <
        // SEG.SEQ or (SND.WL1 = SEG.SEQ and SND.WL2 =< SEG.ACK)), set SND.WND <- SEG.WND, set
        // SND.WL1 <- SEG.SEQ, and set SND.WL2 <- SEG.ACK." (RFC 7323 §2.3: scaled.)
        let wnd = u32::from(repr.window_len) << self.snd_wscale;
        let window_changed = wnd != self.snd_wnd;
        let seg_pos = seg_off.max(0) as u64;
        if self.snd_wl1 < seg_pos || (self.snd_wl1 == seg_pos && self.snd_wl2 <= ack_off) {
            self.snd_wnd = wnd;
            self.snd_wl1 = seg_pos;
            self.snd_wl2 = ack_off;
        }

        // ns-2 `Agent/TCP/Sack1` reads SACK blocks and counts duplicates its own way.
        if sack1 {
            self.sack1_ack(now, repr, ack_off, acked, &blocks[..n]);
            return true;
        }

        if acked > 0 {
            if let Some((rtt, sent)) = self.take_rtt_sample(now, repr, ack_off) {
                self.rtt_sample(now, rtt, sent);
            }
            self.on_new_ack(now, ack_off, acked);
        }

        // Duplicate ACKs: RFC 5681 §2 (no data, no SYN/FIN, SND.UNA unchanged, data
        // outstanding, same window) or, with SACK, RFC 6675 §2 (the ACK SACKs new data).
        let is_dup = match style {
            RecoveryStyle::Pipe => newly_sacked > 0,
            RecoveryStyle::Inflation => {
                acked == 0
                    && payload_len == 0
                    && !repr.flags.contains(TcpFlags::FIN)
                    && self.snd_una < self.snd_max
                    && !window_changed
            }
        };
        if is_dup {
            self.on_dup_ack(now, style);
        }
        if style == RecoveryStyle::Pipe && self.recovery.is_some() {
            // RFC 6675 §5 (B.2): "Use SetPipe () to re-calculate the number of octets still
            // in the network."
            self.scoreboard.mark_losses(self.cfg.dupthresh, self.smss);
            let high_rxt = self.recovery.as_ref().map_or(0, |r| r.high_rxt);
            self.pipe = self.scoreboard.pipe(high_rxt);
        }
        true
    }

    /// An ACK advanced SND.UNA to `ack_off` by `acked` octets.
    pub(super) fn on_new_ack(&mut self, now: SimTime, ack_off: u64, acked: u64) {
        let removed = self.scoreboard.ack(ack_off);
        self.stats.bytes_acked += removed.data_bytes;
        self.send_buf
            .release(ack_off.saturating_sub(1).min(self.send_buf.end()));
        self.snd_una = ack_off;
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        self.consecutive_timeouts = 0;
        let acked32 = clamp_u32(acked);
        let mut restart_timer = true;
        match self.recovery.take() {
            Some(mut rec) => {
                if self.snd_una >= rec.point {
                    // RFC 6582 §3.2 step 6 / RFC 6675 §5 (A): a full acknowledgment ends
                    // recovery.
                    let flight = clamp_u32(self.snd_max - self.snd_una);
                    self.cc.on_exit_recovery(now, flight, self.smss, rec.style);
                    self.dup_acks = 0;
                    self.push_metric(TcpMetric::RecoveryEnded);
                } else {
                    rec.partial_acks += 1;
                    match rec.style {
                        // RFC 6675 §5 (B): stay in recovery; the scoreboard decides.
                        RecoveryStyle::Pipe => self.recovery = Some(rec),
                        RecoveryStyle::Inflation => {
                            match self.cc.on_partial_ack(now, acked32, self.smss, rec.style) {
                                // RFC 5681 §3.2 step 6 (Reno): recovery ends.
                                PartialAck::ExitRecovery => {
                                    self.dup_acks = 0;
                                    self.push_metric(TcpMetric::RecoveryEnded);
                                }
                                // RFC 6582 §3.2 step 5: "Retransmit the first unacknowledged
                                // segment ... For the first partial ACK that arrives during
                                // fast recovery, also reset the retransmit timer."
                                PartialAck::RetransmitAndStay => {
                                    self.rtx_now = true;
                                    restart_timer = rec.partial_acks == 1
                                        || self.cfg.partial_ack_timer
                                            == PartialAckTimer::SlowButSteady;
                                    self.recovery = Some(rec);
                                }
                            }
                        }
                    }
                }
            }
            None => {
                // RFC 5681 §3.1: slow start / congestion avoidance. RFC 6675 §5: "If the
                // incoming ACK is a cumulative acknowledgment, the TCP MUST reset DupAcks to
                // zero."
                self.cc.on_ack(now, acked32, self.smss);
                self.dup_acks = 0;
                self.limited_bytes = 0;
            }
        }
        // RFC 6298 §5.2: "When all outstanding data has been acknowledged, turn off the
        // retransmission timer." §5.3: "When an ACK is received that acknowledges new data,
        // restart the retransmission timer".
        if self.snd_una >= self.snd_max {
            self.timers.stop(Timer::Retransmit);
        } else if restart_timer {
            self.restart_rtx_timer(now);
        }
    }

    /// A duplicate ACK: count it and start loss recovery at the threshold.
    fn on_dup_ack(&mut self, now: SimTime, style: RecoveryStyle) {
        self.stats.dup_acks_received += 1;
        if self.recovery.is_some() {
            // RFC 5681 §3.2 step 4: inflate (Reno/NewReno); with SACK the pipe accounts.
            self.cc.on_recovery_dup_ack(now, self.smss, style);
            return;
        }
        self.dup_acks = self.dup_acks.saturating_add(1);
        // RFC 6675 §5 steps (1)–(2): DupAcks >= DupThresh, or IsLost(HighACK + 1).
        let lost_front = style == RecoveryStyle::Pipe && {
            self.scoreboard.mark_losses(self.cfg.dupthresh, self.smss);
            self.scoreboard.is_lost(0)
        };
        if (self.dup_acks >= self.cfg.dupthresh || lost_front) && self.recover_guard_allows() {
            if self.cfg.variant == TcpVariant::Tahoe {
                self.fast_retransmit_tahoe(now);
            } else {
                self.enter_recovery(now, style);
            }
        }
        // Otherwise RFC 3042 limited transmit may send new data (see `send_window`), and
        // RFC 6582 §3.2 step 1: below `recover` no fast retransmit happens.
    }

    /// Tahoe's fast retransmit (ns-2 `TcpAgent::dupack_action`, `tahoe_action`): ssthresh =
    /// half the flight (at least two segments), cwnd = one segment, `recover` = the highest
    /// sequence sent, and go back to SND.UNA in slow start. The retransmission timer restarts
    /// without back-off (`reset_rtx_timer(0, 0)`), and no recovery state is kept: the next
    /// new ACK grows the window as in slow start.
    fn fast_retransmit_tahoe(&mut self, now: SimTime) {
        let outstanding = self.snd_max - self.snd_una;
        let flight = clamp_u32(outstanding.saturating_sub(self.limited_bytes));
        // The same arithmetic as a first timeout: RFC 5681 §3.1 equation (4) and LW = 1 SMSS.
        self.cc
            .on_retransmission_timeout(now, flight, self.smss, true);
        self.recover = self.snd_max;
        self.dup_acks = 0;
        self.limited_bytes = 0;
        self.snd_nxt = self.snd_una;
        // Karn (RFC 6298 §3): what is in flight was sent before the go-back.
        self.timed = None;
        self.restart_rtx_timer(now);
        self.stats.fast_retransmits += 1;
        self.push_metric(TcpMetric::FastRetransmit {
            snd_una: self.snd_una,
        });
    }

    /// RFC 5681 §3.2 steps 2–3 / RFC 6582 §3.2 step 2 / RFC 6675 §5 step (4).
    fn enter_recovery(&mut self, now: SimTime, style: RecoveryStyle) {
        // RFC 5681 §3.2: segments sent by limited transmit are not part of FlightSize.
        let outstanding = self.snd_max - self.snd_una;
        let flight = clamp_u32(outstanding.saturating_sub(self.limited_bytes));
        self.cc
            .on_enter_recovery(now, flight, self.smss, self.cfg.dupthresh, style);
        self.recover = self.snd_max;
        let front_end = self
            .scoreboard
            .get(0)
            .map_or(self.snd_una, |s| s.end.min(s.start + u64::from(self.smss)));
        // RFC 6675 (4.3): "set both HighRxt and RescueRxt to the highest sequence number in
        // the retransmitted segment."
        self.recovery = Some(Recovery {
            point: self.snd_max,
            high_rxt: front_end,
            rescue_rxt: Some(front_end),
            style,
            partial_acks: 0,
        });
        self.rtx_now = true;
        self.limited_bytes = 0;
        self.stats.fast_retransmits += 1;
        self.push_metric(TcpMetric::FastRetransmit {
            snd_una: self.snd_una,
        });
        if style == RecoveryStyle::Pipe {
            // RFC 6675 (4.4): "Run SetPipe ()".
            self.scoreboard.mark_losses(self.cfg.dupthresh, self.smss);
            self.pipe = self.scoreboard.pipe(front_end);
        }
    }

    /// RFC 9293 §3.10.7.4, seventh: queue the data, choose when to ACK (RFC 5681 §4.2,
    /// RFC 2018 §4).
    fn receive_text(&mut self, now: SimTime, seg_off: i64, payload: &[u8]) {
        if !self.state.can_receive() {
            // CLOSE-WAIT and later: "This should not occur since a FIN has been received from
            // the remote side. Ignore the segment text."
            return;
        }
        // Data at or beyond a FIN already seen is nonsense; keep only what precedes it.
        let mut data = payload;
        let mut start = seg_off;
        if start < 0 {
            let skip = usize::try_from(-start)
                .unwrap_or(usize::MAX)
                .min(data.len());
            data = &data[skip..];
            start = 0;
        }
        let start = start as u64;
        if let Some(fin) = self.peer_fin {
            let keep = fin.saturating_sub(start).min(data.len() as u64) as usize;
            data = &data[..keep];
        }
        let ins = self.rcv.insert(start, data);
        self.stats.bytes_delivered += ins.delivered;
        if let Some(block) = ins.block {
            self.sack_list.on_out_of_order(block);
        }
        if !self.rcv.has_out_of_order() {
            self.sack_list.clear();
        }
        if ins.duplicate {
            self.stats.duplicate_segments_received += 1;
        }
        if ins.out_of_order {
            self.stats.out_of_order_segments_received += 1;
        }
        // RFC 5681 §4.2: "an immediate ACK" for out-of-order segments and for segments that
        // fill a gap; duplicates and data cut at the window are answered at once too.
        if ins.out_of_order
            || ins.filled_gap
            || ins.duplicate
            || ins.truncated
            || ins.delivered == 0
        {
            self.ack_now();
        } else {
            self.unacked_segments = self.unacked_segments.saturating_add(1);
            // RFC 5681 §4.2: "an ACK SHOULD be generated for at least every second full-sized
            // segment".
            if !self.cfg.delayed_ack || self.unacked_segments >= 2 {
                self.ack_now();
            } else {
                self.ack_delayed(now);
            }
        }
    }

    /// RFC 9293 §3.10.7.4, eighth: consume the peer's FIN once all data before it arrived.
    fn try_consume_fin(&mut self, now: SimTime) {
        if self.fin_received || self.peer_fin != Some(self.rcv.rcv_nxt()) {
            return;
        }
        // "advance RCV.NXT over the FIN, and send an acknowledgment for the FIN".
        self.fin_received = true;
        self.ack_now();
        self.events.push_back(TcpEvent::PeerClosed);
        match self.state {
            // "Enter the CLOSE-WAIT state."
            State::SynReceived | State::Established => self.set_state(State::CloseWait),
            // "If our FIN has been ACKed (perhaps in this segment), then enter TIME-WAIT,
            // start the time-wait timer, turn off the other timers; otherwise, enter the
            // CLOSING state."
            State::FinWait1 => {
                if self.fin_acked() {
                    self.enter_time_wait(now);
                } else {
                    self.set_state(State::Closing);
                }
            }
            // "Enter the TIME-WAIT state. Start the time-wait timer, turn off the other
            // timers."
            State::FinWait2 => self.enter_time_wait(now),
            _ => {}
        }
    }

    /// Enters (or restarts) TIME-WAIT: 2·MSL, every other timer off.
    pub(crate) fn enter_time_wait(&mut self, now: SimTime) {
        self.set_state(State::TimeWait);
        self.timers.stop_all();
        self.rtx_now = false;
        self.probe_due = false;
        self.timers
            .set(Timer::TimeWait, now + self.cfg.msl.saturating_mul(2));
    }

    /// Sends an ACK with the next `poll_transmit`.
    pub(crate) fn ack_now(&mut self) {
        self.ack_state = AckState::Now;
    }

    /// Delays the ACK (RFC 5681 §4.2), arming the delayed-ACK timer.
    fn ack_delayed(&mut self, now: SimTime) {
        if self.ack_state == AckState::Idle {
            self.ack_state = AckState::Delayed;
        }
        if !self.timers.is_armed(Timer::DelayedAck) {
            self.timers
                .set(Timer::DelayedAck, now + self.cfg.delayed_ack_timeout);
        }
    }
}
