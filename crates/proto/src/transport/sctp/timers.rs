//! The association's timers as a table of deadlines (quinn-proto's `timer.rs` idea): arming a
//! timer overwrites its deadline, stopping it clears it, the owner only needs the earliest
//! deadline, and a wake-up when nothing is due does nothing. Per-destination timers are keyed
//! by the destination address, so a deleted path simply leaves no deadline behind.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;

/// One of the association's timers (RFC 9260 §5.1, §6.2, §6.3, §8.3, §9.2; RFC 5061 §5.1;
/// RFC 3758 §3.5). The derived order is the order in which timers due at the same instant are
/// handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timer {
    /// RFC 9260 §5.1 A: T1-init, retransmits INIT in COOKIE-WAIT.
    T1Init,
    /// RFC 9260 §5.1 C: T1-cookie, retransmits COOKIE ECHO in COOKIE-ECHOED.
    T1Cookie,
    /// RFC 9260 §9.2: T2-shutdown, retransmits SHUTDOWN or SHUTDOWN ACK.
    T2Shutdown,
    /// RFC 9260 §6.3.2: T3-rtx of one destination.
    T3Rtx(Ipv4Addr),
    /// RFC 5061 §5.1: T4-RTO, retransmits the outstanding ASCONF.
    T4Asconf,
    /// RFC 9260 §9.2: T5-shutdown-guard, bounds the whole shutdown.
    T5ShutdownGuard,
    /// RFC 9260 §6.2: the delayed-SACK timer.
    DelayedSack,
    /// RFC 9260 §8.3: the heartbeat timer of one destination.
    Heartbeat(Ipv4Addr),
    /// RFC 3758 §3.5 / RFC 9260 §11.1 E (lifetime): the earliest expiry of a queued or
    /// to-be-retransmitted message with a lifetime.
    PrSctpExpiry,
    /// RFC 6525 §5.1.1: the Re-configuration timer, retransmits the outstanding RE-CONFIG
    /// request.
    Reconfig,
}

/// Deadlines of every armed [`Timer`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimerTable {
    deadlines: BTreeMap<Timer, SimTime>,
}

impl TimerTable {
    /// Arms `timer` for `at` (replacing any earlier deadline).
    pub fn set(&mut self, timer: Timer, at: SimTime) {
        self.deadlines.insert(timer, at);
    }

    /// Arms `timer` for `at` unless it is already armed (RFC 9260 §6.3.2 R1: "if the T3-rtx
    /// timer of that address is not running, start it").
    pub fn set_if_idle(&mut self, timer: Timer, at: SimTime) {
        self.deadlines.entry(timer).or_insert(at);
    }

    /// Disarms `timer`.
    pub fn stop(&mut self, timer: Timer) {
        self.deadlines.remove(&timer);
    }

    /// Disarms every timer.
    pub fn stop_all(&mut self) {
        self.deadlines.clear();
    }

    /// Disarms every per-destination timer of `addr`.
    pub fn stop_path(&mut self, addr: Ipv4Addr) {
        self.stop(Timer::T3Rtx(addr));
        self.stop(Timer::Heartbeat(addr));
    }

    /// The deadline of `timer`, if armed.
    pub fn get(&self, timer: Timer) -> Option<SimTime> {
        self.deadlines.get(&timer).copied()
    }

    /// Whether `timer` is armed.
    pub fn is_armed(&self, timer: Timer) -> bool {
        self.deadlines.contains_key(&timer)
    }

    /// The earliest deadline of all armed timers.
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.deadlines.values().min().copied()
    }

    /// Disarms and returns the first timer (in [`Timer`] order) whose deadline is at or before
    /// `now`.
    pub fn pop_expired(&mut self, now: SimTime) -> Option<Timer> {
        let timer = self
            .deadlines
            .iter()
            .find(|(_, at)| **at <= now)
            .map(|(t, _)| *t)?;
        self.deadlines.remove(&timer);
        Some(timer)
    }

    /// Armed timers and their deadlines, in [`Timer`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Timer, SimTime)> + '_ {
        self.deadlines.iter().map(|(t, at)| (*t, *at))
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn earliest_deadline_and_expiry_order() {
        let a = Ipv4Addr::new(10, 0, 0, 1);
        let mut t = TimerTable::default();
        assert_eq!(t.next_deadline(), None);
        t.set(Timer::DelayedSack, SimTime(50));
        t.set(Timer::T3Rtx(a), SimTime(70));
        t.set(Timer::Heartbeat(a), SimTime(40));
        t.set_if_idle(Timer::T3Rtx(a), SimTime(10));
        assert_eq!(t.get(Timer::T3Rtx(a)), Some(SimTime(70)));
        assert_eq!(t.next_deadline(), Some(SimTime(40)));
        assert_eq!(t.pop_expired(SimTime(10)), None);
        assert_eq!(t.pop_expired(SimTime(60)), Some(Timer::DelayedSack));
        assert_eq!(t.pop_expired(SimTime(60)), Some(Timer::Heartbeat(a)));
        assert_eq!(t.pop_expired(SimTime(60)), None);
        t.stop_path(a);
        assert_eq!(t.next_deadline(), None);
    }
}
