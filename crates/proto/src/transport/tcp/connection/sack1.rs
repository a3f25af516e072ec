//! ns-2's `Agent/TCP/Sack1` loss recovery ([`TcpVariant::Sack1`]), after `tcp/tcp-sack1.cc`
//! and `tcp/scoreboard.cc` of ns-2 (Fall & Floyd, "Simulation-based Comparisons of Tahoe,
//! Reno, and SACK TCP", CCR 1996). Written from a reading of that code, not translated.
//!
//! The sender keeps a packet counter `pipe_` instead of deriving the pipe from the scoreboard
//! (RFC 6675 SetPipe):
//!
//! * Outside recovery, an ACK of new data clears the scoreboard (its SACK blocks are not
//!   used); a duplicate ACK counts only if its SACK blocks mark new data (`CheckUpdate`), and
//!   the `dupthresh`-th enters recovery, subject to `bugFix_` (`recover_`).
//! * Entering recovery: `pipe_ = maxseq_ − highest_ack_ − numdupacks_` (outstanding minus the
//!   packets the duplicates reported), ssthresh = cwnd = half the window in whole packets,
//!   the first unacknowledged packet is retransmitted (not counted in `pipe_`) and the timer
//!   restarted without back-off.
//! * Every ACK during recovery: `--pipe_`. A partial ACK: `--pipe_` once more, the timer
//!   restarts, its back-off is cleared, no RTT sample, no window change. An ACK at or beyond
//!   `recover_` ends recovery with cwnd = ssthresh and `recover_ = 0`.
//! * While `pipe_ < cwnd_`: retransmit the first hole of the scoreboard not yet retransmitted
//!   (`GetNextRetran`: any unSACKed packet below the highest SACK, without RFC 6675's IsLost
//!   test), else new data within `window_`; each transmission `++pipe_`. A retransmission
//!   lost again is not resent before a timeout.
//! * A timeout clears the scoreboard and ignores duplicate ACKs (`timeout_`) until an ACK of
//!   new data; go-back-N resends SACKed packets too.
//!
//! `pipe_` counts packets; here it counts bytes, one SMSS per packet.

use sctpsim_kernel::SimTime;
use sctpsim_wire::tcp::TcpRepr;

#[cfg(doc)]
use super::super::config::TcpVariant;
use super::super::congestion::{CongestionControl, RecoveryStyle};
use super::super::event::TcpMetric;
use super::{Recovery, TcpConnection};

/// The Sack1 sender's own state beside the shared recovery fields.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Sack1State {
    /// ns-2 `pipe_` in bytes (one SMSS per packet); it may go negative.
    pub(crate) pipe: i64,
    /// ns-2 `timeout_`: set by a retransmission timeout, cleared by the next ACK of new data;
    /// while set, duplicate ACKs are ignored (neither counted nor read for SACK blocks).
    pub(crate) after_timeout: bool,
}

impl TcpConnection {
    /// Whether ACKs go through the Sack1 recovery (the variant, with SACK negotiated).
    pub(crate) fn uses_sack1(&self) -> bool {
        self.cfg.variant == super::super::config::TcpVariant::Sack1 && self.sack_ok
    }

    /// `Sack1TcpAgent::recv` for an acceptable ACK reaching `ack_off` (`acked` new octets),
    /// with its SACK blocks as send offsets. The window update is done by the caller.
    pub(crate) fn sack1_ack(
        &mut self,
        now: SimTime,
        repr: &TcpRepr,
        ack_off: u64,
        acked: u64,
        blocks: &[(u64, u64)],
    ) {
        let smss = i64::from(self.smss);
        let Some(point) = self.recovery.as_ref().map(|r| r.point) else {
            if acked > 0 {
                // "regular ACK not in fast recovery": newack and window growth, then
                // `timeout_ = FALSE` and `ClearScoreBoard()`.
                self.sack1_sample_rtt(now, repr, ack_off);
                self.on_new_ack(now, ack_off, acked);
                self.sack1.after_timeout = false;
                self.scoreboard.clear_sacks();
            } else if !self.sack1.after_timeout && self.scoreboard.update(blocks) > 0 {
                // "Check that the SACK block actually acknowledges new data."
                self.stats.dup_acks_received += 1;
                self.dup_acks = self.dup_acks.saturating_add(1);
                if self.dup_acks == self.cfg.dupthresh {
                    self.sack1_dupack_action(now);
                }
                // Below the threshold, `singledup_` (limited transmit) is `send_window`'s.
            }
            return;
        };
        // "we are in fast recovery": `--pipe_` for every ACK.
        self.sack1.pipe -= smss;
        if ack_off >= point {
            // "ACK indicates fast recovery is over": `recover_ = 0`, newack (no window
            // growth: cwnd stays at ssthresh), `timeout_ = FALSE`, `ClearScoreBoard()`.
            self.sack1_sample_rtt(now, repr, ack_off);
            self.on_new_ack(now, ack_off, acked);
            self.recover = 0;
            self.sack1.after_timeout = false;
            self.scoreboard.clear_sacks();
        } else if acked > 0 {
            // A partial ACK (`partial_ack_ false`, the default): "decrement pipe_ again, so
            // that we never do worse than slow-start", `newtimer()` then `t_backoff_ = 1`.
            // ns-2 updates neither the RTT estimate nor the window here.
            self.on_new_ack(now, ack_off, acked);
            self.scoreboard.update(blocks);
            self.sack1.pipe -= smss;
            self.rtt.clear_backoff();
        } else if self.scoreboard.update(blocks) > 0 {
            // "got another dup ack".
            self.stats.dup_acks_received += 1;
        }
    }

    /// An RTT sample where ns-2's `newack` takes one.
    fn sack1_sample_rtt(&mut self, now: SimTime, repr: &TcpRepr, ack_off: u64) {
        if let Some((rtt, sent)) = self.take_rtt_sample(now, repr, ack_off) {
            self.rtt_sample(now, rtt, sent);
        }
    }

    /// `Sack1TcpAgent::dupack_action` (the `sack_action` label).
    fn sack1_dupack_action(&mut self, now: SimTime) {
        // `bugFix_`: "avoids problems with multiple fast retransmits in one window of data":
        // no recovery unless `highest_ack_ > recover_`.
        if self.cfg.reno_recover_guard && self.snd_una <= self.recover {
            return;
        }
        let smss = u64::from(self.smss);
        let outstanding = self.snd_max - self.snd_una;
        // `pipe_ = maxseq_ - highest_ack_ - numdupacks(cwnd_)`.
        self.sack1.pipe = i64::try_from(outstanding).unwrap_or(i64::MAX)
            - i64::from(self.cfg.dupthresh) * i64::from(self.smss);
        // `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`: ssthresh = cwnd = int(window() / 2)
        // packets, window() = min(cwnd_, window_), at least two packets. Passing twice the
        // halved packet count as the "flight" makes the controller's FlightSize / 2 land on
        // whole packets.
        let window = u64::from(self.cc.cwnd()).min(self.window_cap());
        let half_packets = window / smss / 2;
        let flight = super::clamp_u32(half_packets * 2 * smss);
        self.cc.on_enter_recovery(
            now,
            flight,
            self.smss,
            self.cfg.dupthresh,
            RecoveryStyle::Pipe,
        );
        // `recover_ = maxseq_`; `reset_rtx_timer(1, 0)`: restart, no back-off, stop timing.
        self.recover = self.snd_max;
        self.restart_rtx_timer(now);
        self.timed = None;
        let front_end = self
            .scoreboard
            .get(0)
            .map_or(self.snd_una, |s| s.end.min(s.start + smss));
        // `MarkRetran(highest_ack_ + 1)` and `output(last_ack_ + 1)`.
        self.recovery = Some(Recovery {
            point: self.snd_max,
            high_rxt: front_end,
            rescue_rxt: None,
            style: RecoveryStyle::Pipe,
            partial_acks: 0,
        });
        self.rtx_now = true;
        self.limited_bytes = 0;
        self.stats.fast_retransmits += 1;
        self.push_metric(TcpMetric::FastRetransmit {
            snd_una: self.snd_una,
        });
    }

    /// `Sack1TcpAgent::send_much` during fast recovery: while `pipe_ < cwnd_`, the next hole
    /// not yet retransmitted (`GetNextRetran`), else new data within `window_`.
    pub(crate) fn sack1_recovery_segment(
        &mut self,
        now: SimTime,
        mss: u64,
    ) -> Option<(TcpRepr, Vec<u8>)> {
        if self.sack1.pipe >= i64::from(self.cc.cwnd()) {
            return None;
        }
        let smss = i64::from(self.smss);
        let high_rxt = self.recovery.as_ref()?.high_rxt;
        // Holes are retransmitted in order, so "not yet retransmitted" is "at or above
        // HighRxt" (ns-2 marks each with `MarkRetran`).
        if let Some(idx) = self.scoreboard.next_hole(high_rxt, false) {
            let (seg, _, end) = self.retransmit(now, idx, mss);
            if let Some(rec) = self.recovery.as_mut() {
                rec.high_rxt = end;
            }
            self.sack1.pipe += smss;
            return Some(seg);
        }
        // "t_seqno_ <= highest_ack_ + int(wnd_)": new data within window_ (and the peer's
        // window, which ns-2 does not have).
        let rwnd = u64::from(self.snd_wnd).min(self.window_cap());
        let seg = self.new_data_segment(now, mss, rwnd)?;
        self.sack1.pipe += smss;
        Some(seg)
    }

    /// `Sack1TcpAgent::timeout`: `ClearScoreBoard()` and `timeout_ = TRUE`; the rest is the
    /// common timeout.
    pub(crate) fn sack1_on_timeout(&mut self) {
        self.scoreboard.clear_sacks();
        self.sack1.after_timeout = true;
        self.sack1.pipe = 0;
    }
}
