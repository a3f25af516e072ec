//! The connection's timers as a table of deadlines (quinn-proto's `timer.rs` idea): arming a
//! timer overwrites its deadline, stopping it clears it, and the engine only ever needs the
//! earliest deadline. A wake-up when nothing is due does nothing.

use sctpsim_kernel::SimTime;

/// One of the connection's timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timer {
    /// RFC 6298: the retransmission timer (also the SYN / SYN-ACK timer).
    Retransmit,
    /// RFC 9293 §3.8.6.1: the persist timer probing a zero window.
    Persist,
    /// RFC 5681 §4.2: the delayed-ACK timer.
    DelayedAck,
    /// RFC 9293 §3.10.8: the 2·MSL TIME-WAIT timer.
    TimeWait,
}

impl Timer {
    /// Every timer, in the order expired timers are handled.
    pub const ALL: [Timer; 4] = [
        Timer::Retransmit,
        Timer::Persist,
        Timer::DelayedAck,
        Timer::TimeWait,
    ];

    fn index(self) -> usize {
        match self {
            Timer::Retransmit => 0,
            Timer::Persist => 1,
            Timer::DelayedAck => 2,
            Timer::TimeWait => 3,
        }
    }
}

/// Deadlines of every [`Timer`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimerTable {
    deadlines: [Option<SimTime>; 4],
}

impl TimerTable {
    /// Arms `timer` for `at` (replacing any earlier deadline).
    pub fn set(&mut self, timer: Timer, at: SimTime) {
        self.deadlines[timer.index()] = Some(at);
    }

    /// Disarms `timer`.
    pub fn stop(&mut self, timer: Timer) {
        self.deadlines[timer.index()] = None;
    }

    /// Disarms every timer.
    pub fn stop_all(&mut self) {
        self.deadlines = [None; 4];
    }

    /// The deadline of `timer`, if armed.
    pub fn get(&self, timer: Timer) -> Option<SimTime> {
        self.deadlines[timer.index()]
    }

    /// Whether `timer` is armed.
    pub fn is_armed(&self, timer: Timer) -> bool {
        self.get(timer).is_some()
    }

    /// The earliest deadline of all armed timers.
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.deadlines.iter().flatten().min().copied()
    }

    /// Disarms and returns the first timer (in [`Timer::ALL`] order) whose deadline is at or
    /// before `now`.
    pub fn pop_expired(&mut self, now: SimTime) -> Option<Timer> {
        let timer = Timer::ALL
            .into_iter()
            .find(|t| self.get(*t).is_some_and(|at| at <= now))?;
        self.stop(timer);
        Some(timer)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn earliest_deadline_and_expiry_order() {
        let mut t = TimerTable::default();
        assert_eq!(t.next_deadline(), None);
        t.set(Timer::DelayedAck, SimTime(50));
        t.set(Timer::Retransmit, SimTime(70));
        t.set(Timer::TimeWait, SimTime(40));
        assert_eq!(t.next_deadline(), Some(SimTime(40)));
        assert_eq!(t.pop_expired(SimTime(10)), None);
        assert_eq!(t.pop_expired(SimTime(60)), Some(Timer::DelayedAck));
        assert_eq!(t.pop_expired(SimTime(60)), Some(Timer::TimeWait));
        assert_eq!(t.pop_expired(SimTime(60)), None);
        assert!(t.is_armed(Timer::Retransmit));
        t.stop_all();
        assert_eq!(t.next_deadline(), None);
    }
}
