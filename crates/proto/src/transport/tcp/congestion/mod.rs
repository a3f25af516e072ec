//! Congestion window arithmetic behind a narrow trait (smoltcp's `congestion.rs` idea), with
//! `now` in every hook so that time-based controllers fit the same interface.
//!
//! The controller only does arithmetic on `cwnd` and `ssthresh`; the connection decides *when*
//! a loss is detected, what is retransmitted and when recovery ends (the SACK scoreboard feeds
//! that decision, it is not a controller of its own — DESIGN.md §9). [`Reno`] and [`NewReno`]
//! differ in one hook: whether a partial ACK ends fast recovery.

mod newreno;
mod reno;

pub use newreno::NewReno;
pub use reno::Reno;

use sctpsim_kernel::SimTime;

/// What the sender does after a partial ACK (an ACK of new data below the recovery point)
/// during fast recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartialAck {
    /// Leave fast recovery (RFC 5681 §3.2 step 6, Reno).
    ExitRecovery,
    /// Stay in fast recovery and retransmit the first unacknowledged segment (RFC 6582 §3.2
    /// step 5, NewReno).
    RetransmitAndStay,
}

/// How the window is managed during recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveryStyle {
    /// RFC 5681 §3.2: inflate cwnd by one SMSS per duplicate ACK and deflate on exit.
    Inflation,
    /// RFC 6675 §5: `cwnd = ssthresh`, transmissions governed by the `pipe` estimate.
    Pipe,
}

/// Congestion window arithmetic. All sizes are bytes; `smss` is the sender's maximum segment
/// size.
pub trait CongestionControl {
    /// A stable name (`reno`, `newreno`).
    fn name(&self) -> &'static str;

    /// The congestion window.
    fn cwnd(&self) -> u32;

    /// The slow-start threshold.
    fn ssthresh(&self) -> u32;

    /// New data was cumulatively acknowledged outside loss recovery: slow start or congestion
    /// avoidance (RFC 5681 §3.1).
    fn on_ack(&mut self, now: SimTime, acked: u32, smss: u32);

    /// Loss detected by duplicate ACKs or the SACK scoreboard: reduce (RFC 5681 §3.2 steps
    /// 2–3, RFC 6675 §5 step 4.2). `dupthresh` is the number of duplicate ACKs that left the
    /// network, used for inflation.
    fn on_enter_recovery(
        &mut self,
        now: SimTime,
        flight_size: u32,
        smss: u32,
        dupthresh: u32,
        style: RecoveryStyle,
    );

    /// A further duplicate ACK during fast recovery (RFC 5681 §3.2 step 4: inflate when
    /// [`RecoveryStyle::Inflation`]).
    fn on_recovery_dup_ack(&mut self, now: SimTime, smss: u32, style: RecoveryStyle);

    /// An ACK of `acked` new bytes during fast recovery that does not reach the recovery point.
    fn on_partial_ack(
        &mut self,
        now: SimTime,
        acked: u32,
        smss: u32,
        style: RecoveryStyle,
    ) -> PartialAck;

    /// Fast recovery ends (a full ACK, or [`PartialAck::ExitRecovery`]); `flight_size` is what
    /// remains outstanding after the ACK.
    fn on_exit_recovery(&mut self, now: SimTime, flight_size: u32, smss: u32, style: RecoveryStyle);

    /// The retransmission timer expired (RFC 5681 §3.1 equation (4) and the loss window).
    /// `first` is false for a repeated timeout of the same segment, which must not reduce
    /// ssthresh again.
    fn on_retransmission_timeout(&mut self, now: SimTime, flight_size: u32, smss: u32, first: bool);
}

/// RFC 5681 §3.1 equation (4): `ssthresh = max(FlightSize / 2, 2·SMSS)`.
pub(crate) fn half_flight(flight_size: u32, smss: u32) -> u32 {
    (flight_size / 2).max(smss.saturating_mul(2))
}

/// RFC 5681 §3.1 growth: slow start adds `min(N, SMSS)` per ACK (equation (2)); congestion
/// avoidance adds `SMSS·SMSS / cwnd` per ACK (equation (3)), at least one byte.
pub(crate) fn grow(cwnd: u32, ssthresh: u32, acked: u32, smss: u32) -> u32 {
    if cwnd < ssthresh {
        cwnd.saturating_add(acked.min(smss))
    } else {
        let inc = (u64::from(smss) * u64::from(smss) / u64::from(cwnd.max(1))).max(1);
        cwnd.saturating_add(u32::try_from(inc).unwrap_or(u32::MAX))
    }
}

/// The controller a connection uses, chosen by [`super::TcpVariant`]. An enum rather than a
/// boxed trait object so that connections stay `Clone` and allocation-free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Controller {
    /// RFC 5681.
    Reno(Reno),
    /// RFC 6582.
    NewReno(NewReno),
}

impl Controller {
    fn inner(&self) -> &dyn CongestionControl {
        match self {
            Controller::Reno(c) => c,
            Controller::NewReno(c) => c,
        }
    }

    fn inner_mut(&mut self) -> &mut dyn CongestionControl {
        match self {
            Controller::Reno(c) => c,
            Controller::NewReno(c) => c,
        }
    }
}

impl CongestionControl for Controller {
    fn name(&self) -> &'static str {
        self.inner().name()
    }
    fn cwnd(&self) -> u32 {
        self.inner().cwnd()
    }
    fn ssthresh(&self) -> u32 {
        self.inner().ssthresh()
    }
    fn on_ack(&mut self, now: SimTime, acked: u32, smss: u32) {
        self.inner_mut().on_ack(now, acked, smss)
    }
    fn on_enter_recovery(
        &mut self,
        now: SimTime,
        flight_size: u32,
        smss: u32,
        dupthresh: u32,
        style: RecoveryStyle,
    ) {
        self.inner_mut()
            .on_enter_recovery(now, flight_size, smss, dupthresh, style)
    }
    fn on_recovery_dup_ack(&mut self, now: SimTime, smss: u32, style: RecoveryStyle) {
        self.inner_mut().on_recovery_dup_ack(now, smss, style)
    }
    fn on_partial_ack(
        &mut self,
        now: SimTime,
        acked: u32,
        smss: u32,
        style: RecoveryStyle,
    ) -> PartialAck {
        self.inner_mut().on_partial_ack(now, acked, smss, style)
    }
    fn on_exit_recovery(
        &mut self,
        now: SimTime,
        flight_size: u32,
        smss: u32,
        style: RecoveryStyle,
    ) {
        self.inner_mut()
            .on_exit_recovery(now, flight_size, smss, style)
    }
    fn on_retransmission_timeout(
        &mut self,
        now: SimTime,
        flight_size: u32,
        smss: u32,
        first: bool,
    ) {
        self.inner_mut()
            .on_retransmission_timeout(now, flight_size, smss, first)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn growth_rules() {
        // Slow start: at most one SMSS per ACK.
        assert_eq!(grow(1000, 10_000, 2000, 1000), 2000);
        assert_eq!(grow(1000, 10_000, 500, 1000), 1500);
        // Congestion avoidance: SMSS²/cwnd.
        assert_eq!(grow(10_000, 10_000, 1000, 1000), 10_100);
        assert_eq!(grow(u32::MAX, 1, 1000, 1000), u32::MAX);
        assert_eq!(half_flight(10_000, 1000), 5000);
        assert_eq!(half_flight(1000, 1000), 2000);
    }
}
