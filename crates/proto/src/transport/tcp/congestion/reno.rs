//! RFC 5681 Reno: slow start, congestion avoidance, fast retransmit and fast recovery with
//! window inflation; the first ACK of new data ends recovery.

use super::{grow, half_flight, CongestionControl, PartialAck, RecoveryStyle};
use sctpsim_kernel::SimTime;

/// RFC 5681 congestion control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reno {
    pub(super) cwnd: u32,
    pub(super) ssthresh: u32,
}

impl Reno {
    /// A controller starting with the given initial window and threshold (bytes).
    pub fn new(initial_window: u32, initial_ssthresh: u32) -> Self {
        Reno {
            cwnd: initial_window,
            ssthresh: initial_ssthresh,
        }
    }
}

impl CongestionControl for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn cwnd(&self) -> u32 {
        self.cwnd
    }

    fn ssthresh(&self) -> u32 {
        self.ssthresh
    }

    fn on_ack(&mut self, _now: SimTime, acked: u32, smss: u32) {
        self.cwnd = grow(self.cwnd, self.ssthresh, acked, smss);
    }

    fn on_enter_recovery(
        &mut self,
        _now: SimTime,
        flight_size: u32,
        smss: u32,
        dupthresh: u32,
        style: RecoveryStyle,
    ) {
        // RFC 5681 §3.2 step 2: ssthresh = max(FlightSize / 2, 2·SMSS).
        self.ssthresh = half_flight(flight_size, smss);
        self.cwnd = match style {
            // RFC 5681 §3.2 step 3: "cwnd = ssthresh + 3*SMSS", inflating by the segments
            // that left the network.
            RecoveryStyle::Inflation => {
                self.ssthresh.saturating_add(dupthresh.saturating_mul(smss))
            }
            // RFC 6675 §5 step 4.2: "cwnd = ssthresh".
            RecoveryStyle::Pipe => self.ssthresh,
        };
    }

    fn on_recovery_dup_ack(&mut self, _now: SimTime, smss: u32, style: RecoveryStyle) {
        // RFC 5681 §3.2 step 4: "increment cwnd by SMSS" for each additional duplicate ACK.
        if style == RecoveryStyle::Inflation {
            self.cwnd = self.cwnd.saturating_add(smss);
        }
    }

    fn on_partial_ack(
        &mut self,
        now: SimTime,
        _acked: u32,
        smss: u32,
        style: RecoveryStyle,
    ) -> PartialAck {
        // RFC 5681 §3.2 step 6: "When the next ACK arrives that acknowledges previously
        // unacknowledged data, a TCP MUST set cwnd to ssthresh".
        self.on_exit_recovery(now, 0, smss, style);
        PartialAck::ExitRecovery
    }

    fn on_exit_recovery(
        &mut self,
        _now: SimTime,
        _flight_size: u32,
        _smss: u32,
        _style: RecoveryStyle,
    ) {
        // RFC 5681 §3.2 step 6: deflate the window.
        self.cwnd = self.ssthresh;
    }

    fn on_retransmission_timeout(
        &mut self,
        _now: SimTime,
        flight_size: u32,
        smss: u32,
        first: bool,
    ) {
        // RFC 5681 §3.1 equation (4), only when "the given segment has not yet been resent by
        // way of the retransmission timer".
        if first {
            self.ssthresh = half_flight(flight_size, smss);
        }
        // RFC 5681 §3.1: "cwnd MUST be set to no more than the loss window, LW, which equals
        // 1 full-sized segment".
        self.cwnd = smss;
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const NOW: SimTime = SimTime(0);

    #[test]
    fn fast_recovery_inflates_and_first_new_ack_exits() {
        let mut r = Reno::new(20_000, u32::MAX);
        r.on_enter_recovery(NOW, 20_000, 1000, 3, RecoveryStyle::Inflation);
        assert_eq!((r.ssthresh, r.cwnd), (10_000, 13_000));
        r.on_recovery_dup_ack(NOW, 1000, RecoveryStyle::Inflation);
        assert_eq!(r.cwnd, 14_000);
        assert_eq!(
            r.on_partial_ack(NOW, 1000, 1000, RecoveryStyle::Inflation),
            PartialAck::ExitRecovery
        );
        assert_eq!(r.cwnd, 10_000);
    }

    #[test]
    fn timeout_sets_loss_window_and_halves_once() {
        let mut r = Reno::new(20_000, u32::MAX);
        r.on_retransmission_timeout(NOW, 20_000, 1000, true);
        assert_eq!((r.ssthresh, r.cwnd), (10_000, 1000));
        r.on_retransmission_timeout(NOW, 1000, 1000, false);
        assert_eq!((r.ssthresh, r.cwnd), (10_000, 1000));
        r.on_ack(NOW, 1000, 1000);
        assert_eq!(r.cwnd, 2000);
    }

    #[test]
    fn pipe_style_does_not_inflate() {
        let mut r = Reno::new(20_000, u32::MAX);
        r.on_enter_recovery(NOW, 20_000, 1000, 3, RecoveryStyle::Pipe);
        assert_eq!((r.ssthresh, r.cwnd), (10_000, 10_000));
        r.on_recovery_dup_ack(NOW, 1000, RecoveryStyle::Pipe);
        assert_eq!(r.cwnd, 10_000);
    }
}
