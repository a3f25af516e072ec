//! RFC 6582 NewReno: Reno's window arithmetic, but partial ACKs keep the sender in fast
//! recovery with partial window deflation, and a full ACK deflates to
//! `min(ssthresh, max(FlightSize, SMSS) + SMSS)`.

use super::reno::Reno;
use super::{CongestionControl, PartialAck, RecoveryStyle};
use sctpsim_kernel::SimTime;

/// RFC 6582 congestion control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReno {
    reno: Reno,
}

impl NewReno {
    /// A controller starting with the given initial window and threshold (bytes).
    pub fn new(initial_window: u32, initial_ssthresh: u32) -> Self {
        NewReno {
            reno: Reno::new(initial_window, initial_ssthresh),
        }
    }
}

impl CongestionControl for NewReno {
    fn name(&self) -> &'static str {
        "newreno"
    }

    fn cwnd(&self) -> u32 {
        self.reno.cwnd
    }

    fn ssthresh(&self) -> u32 {
        self.reno.ssthresh
    }

    fn on_ack(&mut self, now: SimTime, acked: u32, smss: u32) {
        self.reno.on_ack(now, acked, smss);
    }

    fn on_enter_recovery(
        &mut self,
        now: SimTime,
        flight_size: u32,
        smss: u32,
        dupthresh: u32,
        style: RecoveryStyle,
    ) {
        // RFC 6582 §3.2 steps 2–3 are RFC 5681's.
        self.reno
            .on_enter_recovery(now, flight_size, smss, dupthresh, style);
    }

    fn on_recovery_dup_ack(&mut self, now: SimTime, smss: u32, style: RecoveryStyle) {
        // RFC 6582 §3.2 step 4: as RFC 5681 step 4.
        self.reno.on_recovery_dup_ack(now, smss, style);
    }

    fn on_partial_ack(
        &mut self,
        _now: SimTime,
        acked: u32,
        smss: u32,
        style: RecoveryStyle,
    ) -> PartialAck {
        if style == RecoveryStyle::Inflation {
            // RFC 6582 §3.2 step 5: "Deflate the congestion window by the amount of new data
            // acknowledged by the cumulative acknowledgment field. If the partial ACK
            // acknowledges at least one SMSS of new data, then add back SMSS bytes".
            let mut cwnd = self.reno.cwnd.saturating_sub(acked);
            if acked >= smss {
                cwnd = cwnd.saturating_add(smss);
            }
            self.reno.cwnd = cwnd.max(smss);
        }
        PartialAck::RetransmitAndStay
    }

    fn on_exit_recovery(
        &mut self,
        _now: SimTime,
        flight_size: u32,
        smss: u32,
        style: RecoveryStyle,
    ) {
        self.reno.cwnd = match style {
            // RFC 6582 §3.2 step 6, option (1): "Set cwnd to min(ssthresh, max(FlightSize,
            // SMSS) + SMSS)", which avoids a burst.
            RecoveryStyle::Inflation => self
                .reno
                .ssthresh
                .min(flight_size.max(smss).saturating_add(smss)),
            // RFC 6675: cwnd already equals ssthresh-governed pipe; keep ssthresh.
            RecoveryStyle::Pipe => self.reno.ssthresh,
        };
    }

    fn on_retransmission_timeout(
        &mut self,
        now: SimTime,
        flight_size: u32,
        smss: u32,
        first: bool,
    ) {
        self.reno
            .on_retransmission_timeout(now, flight_size, smss, first);
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const NOW: SimTime = SimTime(0);

    #[test]
    fn partial_acks_deflate_and_stay() {
        let mut c = NewReno::new(20_000, u32::MAX);
        c.on_enter_recovery(NOW, 20_000, 1000, 3, RecoveryStyle::Inflation);
        for _ in 0..10 {
            c.on_recovery_dup_ack(NOW, 1000, RecoveryStyle::Inflation);
        }
        assert_eq!(c.cwnd(), 23_000);
        assert_eq!(
            c.on_partial_ack(NOW, 3000, 1000, RecoveryStyle::Inflation),
            PartialAck::RetransmitAndStay
        );
        assert_eq!(c.cwnd(), 21_000);
        c.on_exit_recovery(NOW, 4000, 1000, RecoveryStyle::Inflation);
        assert_eq!(c.cwnd(), 5000);
        assert_eq!(c.ssthresh(), 10_000);
    }

    #[test]
    fn full_ack_never_exceeds_ssthresh() {
        let mut c = NewReno::new(20_000, u32::MAX);
        c.on_enter_recovery(NOW, 20_000, 1000, 3, RecoveryStyle::Inflation);
        c.on_exit_recovery(NOW, 50_000, 1000, RecoveryStyle::Inflation);
        assert_eq!(c.cwnd(), 10_000);
    }
}
