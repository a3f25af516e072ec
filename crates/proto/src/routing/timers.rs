//! The one timer table of the routers: a deadline per key (quinn-proto's `timer.rs` idea, as the
//! transports' tables in `transport/tcp/timers.rs` and `transport/sctp/timers.rs`), generic
//! over the router's own key type. Arming a key overwrites its deadline, cancelling clears it,
//! [`TimerTable::next`] is what [`super::Router::poll_timeout`] reports, and
//! [`TimerTable::expired`] hands back — and disarms — the keys that are due.
//!
//! Keys name what is due: a single timer (OLSR's HELLO, DSDV's periodic update), one per
//! destination (a discovery, a settling route), or one per scheduled event with a sequence
//! number (a jittered broadcast, a queued packet's release), so that several may be pending at
//! once. Expiries of the routers' data structures (route lifetimes, send-buffer ages, DSR's
//! path cache, OLSR's repositories) stay with those structures; a router's deadline is the
//! earlier of theirs and [`TimerTable::next`].
//!
//! Firing order: the keys due at a wake-up fire in key order (the derived `Ord` of the key
//! enum: its variants in declaration order, then their fields), so that timers due together
//! fire in an order the protocol fixes, never by insertion into a hash or by chance. A key
//! that should fire in time order among its kind carries its deadline first (a jittered
//! broadcast `(due, sequence)`); one that should fire in scheduling order carries a sequence
//! number.
//!
//! (The transports' tables are the same idea: SCTP's `BTreeMap<Timer, SimTime>` with expiry
//! in key order is this table with its `Timer` as the key, and TCP's array of four deadlines
//! expiring in `Timer::ALL` order could be one too; they are left as they are.)

use sctpsim_kernel::SimTime;
use std::collections::BTreeMap;

/// Deadlines by key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerTable<K: Copy + Ord> {
    deadlines: BTreeMap<K, SimTime>,
}

impl<K: Copy + Ord> Default for TimerTable<K> {
    fn default() -> Self {
        TimerTable {
            deadlines: BTreeMap::new(),
        }
    }
}

impl<K: Copy + Ord> TimerTable<K> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Arms `key` for `at`, replacing any deadline it had.
    pub fn set(&mut self, key: K, at: SimTime) {
        self.deadlines.insert(key, at);
    }

    /// Arms `key` for `at` unless it is armed for an earlier time (a key that stands for the
    /// earliest of several pending things).
    pub fn set_earlier(&mut self, key: K, at: SimTime) {
        let e = self.deadlines.entry(key).or_insert(at);
        if at < *e {
            *e = at;
        }
    }

    /// Disarms `key`.
    pub fn cancel(&mut self, key: K) {
        self.deadlines.remove(&key);
    }

    /// The deadline of `key`, if armed.
    pub fn get(&self, key: K) -> Option<SimTime> {
        self.deadlines.get(&key).copied()
    }

    /// Whether `key` is armed and due at `now`.
    pub fn is_due(&self, key: K, now: SimTime) -> bool {
        self.get(key).is_some_and(|t| t <= now)
    }

    /// Whether any key `which` accepts is armed.
    pub fn any(&self, which: impl Fn(&K) -> bool) -> bool {
        self.deadlines.keys().any(which)
    }

    /// The earliest deadline.
    pub fn next(&self) -> Option<SimTime> {
        self.deadlines.values().copied().min()
    }

    /// Disarms and returns the keys due at `now`, in key order.
    pub fn expired(&mut self, now: SimTime) -> Vec<K> {
        self.expired_if(now, |_| true)
    }

    /// As [`TimerTable::expired`], for the keys `which` accepts only (a router handles its
    /// kinds of timers at different steps of a wake-up).
    pub fn expired_if(&mut self, now: SimTime, which: impl Fn(&K) -> bool) -> Vec<K> {
        let due: Vec<K> = self
            .deadlines
            .iter()
            .filter(|(k, t)| **t <= now && which(k))
            .map(|(k, _)| *k)
            .collect();
        for k in &due {
            self.deadlines.remove(k);
        }
        due
    }

    /// Armed keys.
    pub fn len(&self) -> usize {
        self.deadlines.len()
    }

    /// Whether nothing is armed.
    pub fn is_empty(&self) -> bool {
        self.deadlines.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sctpsim_kernel::SimDuration;

    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        Hello,
        Release(u64),
    }

    fn at(ms: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(ms)
    }

    #[test]
    fn due_keys_fire_in_key_order() {
        let mut t = TimerTable::new();
        assert_eq!(t.next(), None);
        t.set(Key::Release(2), at(5));
        t.set(Key::Release(1), at(7));
        t.set(Key::Hello, at(5));
        t.set(Key::Release(3), at(9));
        assert_eq!(t.next(), Some(at(5)));
        assert!(t.expired(at(4)).is_empty());
        assert_eq!(
            t.expired(at(7)),
            vec![Key::Hello, Key::Release(1), Key::Release(2)]
        );
        assert_eq!(t.next(), Some(at(9)));
        assert_eq!(t.len(), 1);
        t.cancel(Key::Release(3));
        assert!(t.is_empty() && t.next().is_none());
    }

    #[test]
    fn set_replaces_set_earlier_keeps_the_earlier_and_filters_apply() {
        let mut t = TimerTable::new();
        t.set(Key::Hello, at(10));
        t.set(Key::Hello, at(20));
        assert_eq!(t.get(Key::Hello), Some(at(20)));
        t.set_earlier(Key::Hello, at(30));
        assert_eq!(t.get(Key::Hello), Some(at(20)));
        t.set_earlier(Key::Hello, at(15));
        assert!(t.is_due(Key::Hello, at(15)) && !t.is_due(Key::Hello, at(14)));
        t.set(Key::Release(1), at(1));
        let releases = t.expired_if(at(100), |k| matches!(k, Key::Release(_)));
        assert_eq!(releases, vec![Key::Release(1)]);
        assert!(t.any(|k| *k == Key::Hello));
        assert!(!t.any(|k| matches!(k, Key::Release(_))));
    }
}
