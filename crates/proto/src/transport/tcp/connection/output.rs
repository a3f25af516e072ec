//! The send path: which segment goes out next (handshake, fast retransmit, RFC 6675 NextSeg,
//! go-back-N after a timeout, new data under the windows, FIN), pure ACKs with SACK blocks
//! and timestamps, zero-window probes.

use sctpsim_kernel::SimTime;
use sctpsim_wire::tcp::{TcpFlags, TcpPacket, TcpRepr, TcpTimestamp, MAX_SACK_BLOCKS};
use sctpsim_wire::Ipv4Repr;

use super::super::congestion::{CongestionControl, RecoveryStyle};
use super::super::sack::SentSegment;
use super::super::state::State;
use super::super::timers::Timer;
use super::{AckState, TcpConnection};
use crate::transport::Transmit;

/// RFC 2018 §3: SACK blocks that fit next to a Timestamps option.
const SACK_BLOCKS_WITH_TIMESTAMPS: usize = 3;

/// Largest persist back-off shift.
const MAX_PERSIST_BACKOFF: u32 = 16;

impl TcpConnection {
    /// The next segment to send at `now`, encoded (header, options, payload and checksum)
    /// from our address to the peer's: the payload of an IPv4 packet (the engine wraps it with
    /// `sctpsim_wire::ipv4_datagram`, DF set). It carries at most `max_payload` bytes of data,
    /// and at most the negotiated MSS. Call until it returns `None`.
    pub fn poll_transmit(&mut self, now: SimTime, max_payload: usize) -> Option<Transmit> {
        loop {
            let (repr, payload) = self.poll_segment(now, max_payload)?;
            match self.encode(&repr, &payload) {
                Some(t) => return Some(t),
                // Not reached with an MSS below 65535 − 60; counted, not sent.
                None => self.stats.segments_unencodable += 1,
            }
        }
    }

    /// The segment `repr` with `payload` on the wire, or `None` if it does not fit an IPv4
    /// packet.
    fn encode(&self, repr: &TcpRepr, payload: &[u8]) -> Option<Transmit> {
        let repr = TcpRepr {
            payload_len: payload.len(),
            ..*repr
        };
        if repr.buffer_len() > Ipv4Repr::MAX_PAYLOAD_LEN {
            return None;
        }
        let mut buf = vec![0u8; repr.buffer_len()];
        let mut packet = TcpPacket::new_unchecked(&mut buf[..]);
        repr.emit(&mut packet, self.local_addr, self.remote_addr, |data| {
            data.copy_from_slice(payload)
        });
        Some(Transmit {
            src: self.local_addr,
            dst: self.remote_addr,
            payload: buf,
        })
    }

    /// [`TcpConnection::poll_transmit`] before encoding: the next segment as a header and its
    /// payload, for tests and tools that script segments (the counterpart of
    /// [`TcpConnection::handle_segment`]).
    pub fn poll_segment(&mut self, now: SimTime, max_payload: usize) -> Option<(TcpRepr, Vec<u8>)> {
        let out = self.next_transmit(now, max_payload);
        if out.is_none() {
            self.update_persist(now);
        }
        self.report_metrics();
        out
    }

    fn next_transmit(&mut self, now: SimTime, max_payload: usize) -> Option<(TcpRepr, Vec<u8>)> {
        if let Some(rst) = self.pending_rst.take() {
            self.stats.segments_sent += 1;
            return Some((rst, Vec::new()));
        }
        match self.state {
            State::Closed | State::Listen => None,
            State::SynSent | State::SynReceived => {
                if self.syn_due {
                    Some(self.syn_segment(now))
                } else {
                    None
                }
            }
            _ => {
                if let Some(seg) = self.data_segment(now, max_payload) {
                    return Some(seg);
                }
                if self.probe_due {
                    self.probe_due = false;
                    return Some(self.probe_segment(now));
                }
                if self.ack_state == AckState::Now {
                    return Some(self.ack_segment(now));
                }
                None
            }
        }
    }

    /// RFC 9293 §3.10.1 / §3.10.7.2: the SYN (SYN-SENT) or SYN-ACK (SYN-RECEIVED), with our
    /// options.
    fn syn_segment(&mut self, now: SimTime) -> (TcpRepr, Vec<u8>) {
        self.syn_due = false;
        let passive = self.state == State::SynReceived && self.snd_una == 0;
        let synack = self.state == State::SynReceived;
        let retransmission = self.snd_max >= 1;
        let window = self.rcv.window().min(u32::from(u16::MAX));
        let ts_clock = Self::ts_clock(now);
        let repr = TcpRepr {
            src_port: self.local_port,
            dst_port: self.remote_port,
            seq_number: self.iss,
            ack_number: synack.then(|| self.rseq_of(self.rcv_nxt_off())),
            flags: TcpFlags::SYN,
            // RFC 7323 §2.2: "The window field in a segment where the SYN bit is set ... MUST
            // NOT be scaled".
            window_len: window as u16,
            // RFC 7323 §2.2: a SYN-ACK carries the option only if the SYN did.
            window_scale: if passive || synack {
                self.cfg.window_scale.filter(|_| self.ws_ok)
            } else {
                self.cfg.window_scale
            },
            max_seg_size: Some(self.cfg.mss),
            sack_permitted: if synack {
                self.sack_ok
            } else {
                self.cfg.sack_permitted && self.cfg.variant.uses_sack()
            },
            timestamp: if synack {
                self.ts_ok.then_some(TcpTimestamp {
                    tsval: ts_clock,
                    tsecr: self.ts_recent,
                })
            } else {
                self.cfg.timestamps.then_some(TcpTimestamp {
                    tsval: ts_clock,
                    tsecr: 0,
                })
            },
            ..TcpRepr::default()
        };
        self.snd_nxt = 1;
        self.snd_max = self.snd_max.max(1);
        if retransmission {
            self.stats.retransmissions += 1;
        } else {
            // RFC 6298 §3 (Karn): only a SYN sent once can be timed.
            self.timed = Some((1, now));
        }
        // RFC 6298 §5.1.
        if !self.timers.is_armed(Timer::Retransmit) {
            self.restart_rtx_timer(now);
        }
        self.stats.segments_sent += 1;
        self.last_adv_wnd = window;
        if synack {
            self.last_ack_sent = self.rcv_nxt_off();
        }
        (repr, Vec::new())
    }

    /// The next data (or FIN) segment, if any may be sent now.
    fn data_segment(&mut self, now: SimTime, max_payload: usize) -> Option<(TcpRepr, Vec<u8>)> {
        if !matches!(
            self.state,
            State::Established
                | State::CloseWait
                | State::FinWait1
                | State::Closing
                | State::LastAck
        ) {
            return None;
        }
        let mss = (self.smss as usize).min(max_payload).max(1) as u64;

        // Fast retransmit (RFC 5681 §3.2 step 3) or a NewReno partial ACK (RFC 6582 §3.2
        // step 5): the first unacknowledged segment goes now, whatever the window.
        if self.rtx_now {
            self.rtx_now = false;
            if let Some(idx) = self.scoreboard.find(self.snd_una) {
                let (seg, _, _) = self.retransmit(now, idx, mss);
                return Some(seg);
            }
        }

        // ns-2 Sack1: its own pipe_ counter and GetNextRetran.
        if self.recovery.is_some() && self.uses_sack1() {
            return self.sack1_recovery_segment(now, mss);
        }

        // RFC 6675 §5 (C): SACK-based recovery is governed by pipe and NextSeg.
        if self
            .recovery
            .as_ref()
            .is_some_and(|r| r.style == RecoveryStyle::Pipe)
        {
            return self.sack_recovery_segment(now, mss);
        }

        // Go back N after a timeout: resend from SND.NXT what the window allows, skipping
        // SACKed segments.
        while self.snd_nxt < self.snd_max {
            let Some(mut idx) = self.scoreboard.find(self.snd_nxt) else {
                self.snd_nxt = self.snd_max;
                break;
            };
            let Some(seg) = self.scoreboard.get(idx) else {
                break;
            };
            if seg.sacked {
                self.snd_nxt = seg.end;
                continue;
            }
            if seg.start < self.snd_nxt && self.scoreboard.split(idx, self.snd_nxt) {
                idx += 1;
            }
            let len = self
                .scoreboard
                .get(idx)
                .map_or(0, |s| s.data_len().min(mss));
            // SACKed segments skipped over are not in flight (RFC 6675 §5.1 leaves the
            // post-timeout algorithm open; this is the straightforward one).
            let window = self.send_window();
            let in_flight =
                self.snd_nxt - self.snd_una - self.scoreboard.sacked_below(self.snd_nxt);
            if self.snd_nxt > self.snd_una && in_flight + len > window {
                return None;
            }
            let (seg, _, end) = self.retransmit(now, idx, mss);
            self.snd_nxt = end;
            return Some(seg);
        }

        let window = self.send_window();
        self.new_data_segment(now, mss, window)
    }

    /// RFC 6675 §5 (C.1)–(C.5) with NextSeg() (§4).
    fn sack_recovery_segment(&mut self, now: SimTime, mss: u64) -> Option<(TcpRepr, Vec<u8>)> {
        // (C): "If cwnd - pipe >= 1 SMSS, the sender SHOULD transmit one or more segments".
        if self.pipe + u64::from(self.smss) > u64::from(self.cc.cwnd()) {
            return None;
        }
        let (high_rxt, rescue_rxt, point) = {
            let rec = self.recovery.as_ref()?;
            (rec.high_rxt, rec.rescue_rxt, rec.point)
        };
        // Rule 1: the first lost unSACKed segment above HighRxt.
        if let Some(idx) = self.scoreboard.next_hole(high_rxt, true) {
            let (seg, len, end) = self.retransmit(now, idx, mss);
            if let Some(rec) = self.recovery.as_mut() {
                // (C.2) HighRxt is the highest retransmitted sequence number.
                rec.high_rxt = end;
            }
            self.pipe += len; // (C.4)
            return Some(seg);
        }
        // Rule 2: new data, if the receiver's window allows.
        let rwnd = u64::from(self.snd_wnd).min(self.window_cap());
        if let Some(seg) = self.new_data_segment(now, mss, rwnd) {
            self.pipe += seg.1.len().max(1) as u64;
            return Some(seg);
        }
        // Rule 3: the first unSACKed segment above HighRxt with SACKed data above it.
        if let Some(idx) = self.scoreboard.next_hole(high_rxt, false) {
            let (seg, len, end) = self.retransmit(now, idx, mss);
            if let Some(rec) = self.recovery.as_mut() {
                rec.high_rxt = end;
            }
            self.pipe += len;
            return Some(seg);
        }
        // Rule 4: one rescue retransmission per recovery, of the highest unSACKed segment;
        // HighRxt is not updated.
        if rescue_rxt.is_none_or(|r| self.snd_una > r) {
            if let Some(idx) = self.scoreboard.rescue_candidate() {
                let (seg, len, _) = self.retransmit(now, idx, mss);
                if let Some(rec) = self.recovery.as_mut() {
                    rec.rescue_rxt = Some(point);
                }
                self.pipe += len;
                return Some(seg);
            }
        }
        None
    }

    /// The send window outside SACK recovery: min(cwnd, rwnd, cap), plus RFC 3042 limited
    /// transmit's allowance of up to two segments on the first duplicate ACKs.
    pub(crate) fn send_window(&self) -> u64 {
        let mut window = u64::from(self.cc.cwnd());
        if self.cfg.limited_transmit
            && self.recovery.is_none()
            && self.dup_acks > 0
            && self.dup_acks < self.cfg.dupthresh
        {
            // RFC 3042 §2: send new data "if the receiver's advertised window allows" and
            // "the amount of outstanding data would remain less than or equal to the
            // congestion window plus 2 segments".
            window += u64::from(self.dup_acks.min(2)) * u64::from(self.smss);
        }
        window.min(u64::from(self.snd_wnd)).min(self.window_cap())
    }

    /// The configured cap on the send window (ns-2 `window_`).
    pub(super) fn window_cap(&self) -> u64 {
        self.cfg.max_send_window.map_or(u64::MAX, u64::from)
    }

    /// A segment of new data (and the FIN after the last byte) within `window` counted from
    /// SND.UNA, with sender SWS avoidance and Nagle (RFC 9293 §3.8.6.2.1, §3.7.4).
    pub(super) fn new_data_segment(
        &mut self,
        now: SimTime,
        mss: u64,
        window: u64,
    ) -> Option<(TcpRepr, Vec<u8>)> {
        if self.snd_nxt < self.snd_max
            || !matches!(
                self.state,
                State::Established | State::CloseWait | State::FinWait1 | State::LastAck
            )
        {
            return None;
        }
        let data_end = self.data_end();
        let available = data_end.saturating_sub(self.snd_nxt);
        let usable = (self.snd_una + window).saturating_sub(self.snd_nxt);
        let len = available.min(mss).min(usable);
        let fin = self.fin_queued && !self.fin_sent() && self.snd_nxt + len == data_end;
        if len == 0 && !fin {
            return None;
        }
        if len < mss && !fin {
            let in_flight = self.snd_max > self.snd_una;
            // Sender SWS avoidance: more data waits than the window allows; wait for the
            // window to open rather than send a small segment.
            if len < available && in_flight {
                return None;
            }
            // Nagle: "if there is unacknowledged data, hold small segments".
            if self.cfg.nagle && in_flight {
                return None;
            }
        }
        let start = self.snd_nxt;
        let end = start + len + u64::from(fin);
        self.scoreboard.push(SentSegment {
            start,
            end,
            fin,
            sacked: false,
            retransmitted: false,
            last_sent: now,
        });
        if self.recovery.is_none()
            && self.dup_acks > 0
            && end - self.snd_una > u64::from(self.cc.cwnd())
        {
            self.limited_bytes += len;
        }
        self.snd_nxt = end;
        self.snd_max = self.snd_max.max(end);
        if self.timed.is_none() {
            self.timed = Some((end, now));
        }
        // RFC 6298 §5.1: "Every time a packet containing data is sent (including a
        // retransmission), if the timer is not running, start it running".
        if !self.timers.is_armed(Timer::Retransmit) {
            self.restart_rtx_timer(now);
        }
        self.timers.stop(Timer::Persist);
        Some(self.build_segment(now, start, len, fin))
    }

    /// Retransmits the segment at `idx` (split to `mss` first); returns the segment, its length
    /// in sequence space and its end offset.
    pub(super) fn retransmit(
        &mut self,
        now: SimTime,
        idx: usize,
        mss: u64,
    ) -> ((TcpRepr, Vec<u8>), u64, u64) {
        if let Some(seg) = self.scoreboard.get(idx) {
            if seg.data_len() > mss {
                let at = seg.start + mss;
                self.scoreboard.split(idx, at);
            }
        }
        let (start, end, fin, data_len) = match self.scoreboard.get_mut(idx) {
            Some(seg) => {
                seg.retransmitted = true;
                seg.last_sent = now;
                (seg.start, seg.end, seg.fin, seg.data_len())
            }
            None => (self.snd_una, self.snd_una, false, 0),
        };
        self.stats.retransmissions += 1;
        self.stats.bytes_retransmitted += data_len;
        // Karn (RFC 6298 §3): no RTT sample may come from a retransmitted segment; like BSD,
        // stop timing altogether.
        self.timed = None;
        if !self.timers.is_armed(Timer::Retransmit) {
            self.restart_rtx_timer(now);
        }
        let seg = self.build_segment(now, start, data_len, fin);
        (seg, end - start, end)
    }

    /// A data/FIN segment for send offsets `[start, start + len)`.
    fn build_segment(
        &mut self,
        now: SimTime,
        start: u64,
        len: u64,
        fin: bool,
    ) -> (TcpRepr, Vec<u8>) {
        let mut payload = Vec::new();
        if len > 0 {
            self.send_buf
                .copy_to(start.saturating_sub(1), len as usize, &mut payload);
        }
        let mut repr = self.header(now);
        repr.seq_number = self.seq_of(start);
        if fin {
            repr.flags |= TcpFlags::FIN;
        }
        // RFC 9293 §3.9.1.2: push the last segment of what the application queued.
        if len > 0 && start + len == self.data_end() {
            repr.flags |= TcpFlags::PSH;
        }
        repr.payload_len = payload.len();
        self.stats.segments_sent += 1;
        self.stats.data_segments_sent += 1;
        self.stats.bytes_sent += payload.len() as u64;
        (repr, payload)
    }

    /// A pure ACK: `<SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK>` (SND.NXT here is the highest sequence
    /// sent, so that a go-back-N restart never makes our ACKs look old).
    fn ack_segment(&mut self, now: SimTime) -> (TcpRepr, Vec<u8>) {
        let mut repr = self.header(now);
        repr.seq_number = self.seq_of(self.snd_max);
        self.stats.segments_sent += 1;
        self.stats.acks_sent += 1;
        (repr, Vec::new())
    }

    /// RFC 9293 §3.8.6.1 zero-window probe: an ACK with an old sequence number, which the
    /// receiver must answer with an ACK carrying its current window.
    fn probe_segment(&mut self, now: SimTime) -> (TcpRepr, Vec<u8>) {
        let mut repr = self.header(now);
        repr.seq_number = self.seq_of(self.snd_una.saturating_sub(1));
        self.stats.segments_sent += 1;
        self.stats.window_probes += 1;
        let interval = self.persist_interval();
        self.timers.set(Timer::Persist, now + interval);
        (repr, Vec::new())
    }

    /// Arms or stops the persist timer: armed while the peer's window is zero with data
    /// waiting and nothing in flight.
    fn update_persist(&mut self, now: SimTime) {
        let waiting = matches!(
            self.state,
            State::Established | State::CloseWait | State::FinWait1 | State::LastAck
        ) && self.snd_wnd == 0
            && self.snd_una == self.snd_max
            && self.snd_nxt < self.data_end();
        if waiting {
            if !self.timers.is_armed(Timer::Persist) {
                let interval = self.persist_interval();
                self.timers.set(Timer::Persist, now + interval);
            }
        } else if self.timers.is_armed(Timer::Persist) || self.persist_backoff > 0 {
            self.timers.stop(Timer::Persist);
            self.persist_backoff = 0;
        }
    }

    fn persist_interval(&self) -> sctpsim_kernel::SimDuration {
        self.rtt
            .rto()
            .saturating_mul(1u64 << self.persist_backoff.min(MAX_PERSIST_BACKOFF))
            .min(self.cfg.max_rto)
    }

    /// The fields every segment after the handshake carries: ports, ACK, window, timestamps,
    /// SACK blocks. Sending it acknowledges everything received.
    fn header(&mut self, now: SimTime) -> TcpRepr {
        let rcv_nxt = self.rcv_nxt_off();
        // RFC 7323 §2.3: the window field is the window shifted right by our scale.
        let window = self.rcv.window();
        let field = (window >> self.rcv_wscale).min(u32::from(u16::MAX));
        self.last_adv_wnd = field << self.rcv_wscale;
        let mut sack_ranges = [None; MAX_SACK_BLOCKS];
        if self.sack_ok && self.rcv.has_out_of_order() {
            let fit = if self.ts_ok {
                SACK_BLOCKS_WITH_TIMESTAMPS
            } else {
                MAX_SACK_BLOCKS
            };
            let cap = self
                .cfg
                .max_sack_blocks
                .map_or(fit, |n| usize::from(n).min(fit));
            let rcv = &self.rcv;
            let blocks = self
                .sack_list
                .blocks(rcv.rcv_nxt(), cap, |o| rcv.block_at(o));
            for (slot, (left, right)) in sack_ranges.iter_mut().zip(blocks) {
                *slot = Some((self.rseq_of(left).0, self.rseq_of(right).0));
                self.stats.sack_blocks_sent += 1;
            }
        }
        let repr = TcpRepr {
            src_port: self.local_port,
            dst_port: self.remote_port,
            seq_number: self.seq_of(self.snd_nxt),
            ack_number: Some(self.rseq_of(rcv_nxt)),
            flags: TcpFlags::empty(),
            window_len: field as u16,
            sack_ranges,
            // RFC 7323 §3.2: "TSopt MUST be sent in every non-<RST> segment".
            timestamp: self.ts_ok.then(|| TcpTimestamp {
                tsval: Self::ts_clock(now),
                tsecr: self.ts_recent,
            }),
            ..TcpRepr::default()
        };
        // Every segment carries the ACK.
        self.ack_state = AckState::Idle;
        self.unacked_segments = 0;
        self.timers.stop(Timer::DelayedAck);
        self.last_ack_sent = rcv_nxt;
        repr
    }
}
