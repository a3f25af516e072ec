//! The event queue: a radix heap ordered by `(time, insertion sequence)`.
//!
//! Ties in time are broken by insertion order, which makes a run a pure function of its inputs
//! (DESIGN.md §1.3). The key is `time << 64 | seq` as one `u128`, so all keys are distinct and
//! a comparison is one integer compare; it is stored as two `u64` words ([`Key`]).
//!
//! Why a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan 1990) and not a binary heap: a discrete-event
//! simulator is a *monotone* priority queue — nothing is ever scheduled before the event being
//! processed — and a radix heap exploits that. Keys live in 129 buckets by the highest bit in
//! which they differ from the last key popped; a pop scans one bucket sequentially and moves its
//! entries to lower buckets. Every entry moves at most 128 times and in practice a handful, and
//! all access is sequential within a `Vec`, which is what keeps it fast at 10^5–10^6 pending
//! events where a binary heap's cache misses dominate (see `BENCHMARKS.md`,
//! `sctpsim bench kernel`).
//!
//! Events are never cancelled: protocols are sans-IO and treat a stale wake-up as a no-op
//! (DESIGN.md §1.1), so the queue needs no decrease-key or removal.

use crate::time::SimTime;

/// Number of buckets: bucket 0 holds the key equal to the last popped one, bucket `b` (1..=128)
/// the keys whose highest bit differing from it is bit `b - 1`.
const BUCKETS: usize = 129;

/// A priority queue of events of type `T`, popped in `(time, insertion sequence)` order.
///
/// It is monotone: an event pushed with a time earlier than the last popped event is scheduled at
/// the time of the last popped event instead (a simulator cannot go back in time; the engine
/// never does this).
#[derive(Clone, Debug)]
pub struct EventQueue<T> {
    /// A fixed-size array, not a `Vec`: [`bucket_of`] is at most 128, so with the length in
    /// the type the compiler drops the bounds check on every bucket access of a push and of
    /// the redistribution in [`EventQueue::settle`] (one per entry moved).
    buckets: Box<[Vec<(Key, T)>; BUCKETS]>,
    /// An empty vector that the bucket being redistributed is swapped with: the bucket gets
    /// an empty one without a `take` and a drop of what is put back (~10 instructions a
    /// pop), and the allocations stay in use, passed from bucket to bucket.
    spare: Vec<(Key, T)>,
    /// Bit `b` set ⇔ `buckets[b]` is non-empty.
    occupied: [u64; 3],
    last: u128,
    len: usize,
    next_seq: u64,
}

impl<T> Default for EventQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A key as stored beside its event: `time << 64 | seq` in two 8-byte words. A `u128` is
/// 16-byte aligned, which pads the engine's `(key, event)` entry (24-byte event) from 40 to 48
/// bytes; every push and every redistribution moves entries by value, so the padding was a
/// sixth of the queue's memory traffic (BENCHMARKS.md, "Queue key").
#[derive(Clone, Copy, Debug)]
struct Key {
    hi: u64,
    lo: u64,
}

impl Key {
    #[inline(always)]
    fn get(self) -> u128 {
        (u128::from(self.hi) << 64) | u128::from(self.lo)
    }
}

#[inline]
fn bucket_of(key: u128, last: u128) -> usize {
    (128 - (key ^ last).leading_zeros()) as usize
}

impl<T> EventQueue<T> {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue {
            buckets: Box::new(core::array::from_fn(|_| Vec::new())),
            spare: Vec::new(),
            occupied: [0; 3],
            last: 0,
            len: 0,
            next_seq: 0,
        }
    }

    /// An empty queue. (Capacity is a hint only; buckets grow as needed.)
    pub fn with_capacity(_n: usize) -> Self {
        Self::new()
    }

    /// Number of pending events.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no event is pending.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of events ever pushed (the next insertion sequence number).
    #[inline]
    pub fn pushed(&self) -> u64 {
        self.next_seq
    }

    /// The time of the earliest pending event.
    pub fn peek_time(&mut self) -> Option<SimTime> {
        if self.len == 0 {
            return None;
        }
        let b = self.settle();
        if b != 0 {
            // The minimum stays queued: it goes where its key (now `last`) belongs, bucket 0.
            if let Some(entry) = self.buckets[b].pop() {
                self.occupied[b >> 6] &= !(1 << (b & 63));
                self.buckets[0].push(entry);
                self.occupied[0] |= 1;
            }
        }
        Some(SimTime((self.last >> 64) as u64))
    }

    /// Schedule `item` at `time`. Events at equal times pop in the order they were pushed.
    #[inline]
    pub fn push(&mut self, time: SimTime, item: T) {
        let floor = (self.last >> 64) as u64;
        let t = time.0.max(floor);
        let key = Key {
            hi: t,
            lo: self.next_seq,
        };
        self.next_seq += 1;
        let b = bucket_of(key.get(), self.last);
        self.buckets[b].push((key, item));
        self.occupied[b >> 6] |= 1 << (b & 63);
        self.len += 1;
    }

    /// Remove and return the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, T)> {
        if self.len == 0 {
            return None;
        }
        let b = self.settle();
        let (key, item) = self.buckets[b].pop()?;
        self.occupied[b >> 6] &= !(1 << (b & 63));
        self.len -= 1;
        Some((SimTime(key.hi), item))
    }

    /// Find the minimum, make it the new `last` and return the bucket that holds it alone:
    /// bucket 0 if that is occupied; else the first non-empty bucket if it holds one entry
    /// (common in the engine's queue: popped from there, it needs no move at all); else that
    /// bucket redistributed (all its entries land in lower buckets, the minimum in bucket 0).
    /// A minimum left in a bucket other than 0 breaks the buckets' rule (its key equals
    /// `last`): the caller takes it out, or moves it to bucket 0, before anything else.
    ///
    /// Keys are distinct, so bucket 0 holds at most the one minimum and this does real work on
    /// nearly every pop. Inlined into `pop` (and so into the engine's event loop): left to the
    /// compiler it became a call of its own once the loop grew, which cost ~20 instructions
    /// per event in saved registers and moves (cachegrind, BENCHMARKS.md "Against 8f75f88").
    #[inline(always)]
    fn settle(&mut self) -> usize {
        if self.occupied[0] & 1 != 0 {
            return 0;
        }
        let Some(b) = self.first_occupied() else {
            return 0;
        };
        if let [(key, _)] = self.buckets[b][..] {
            self.last = key.get();
            return b;
        }
        core::mem::swap(&mut self.spare, &mut self.buckets[b]);
        self.occupied[b >> 6] &= !(1 << (b & 63));
        let min = self
            .spare
            .iter()
            .map(|(k, _)| k.get())
            .min()
            .unwrap_or(self.last);
        self.last = min;
        // Every entry lands in a bucket below `b`, so never in the one just emptied. Taken from
        // the end (keys are distinct, so the order within a bucket changes nothing): `pop`
        // compiles to less than `drain(..)`, whose drop stopped being inlined once the event
        // loop grew (+16 M instructions on manet-cbr, BENCHMARKS.md).
        while let Some((key, item)) = self.spare.pop() {
            let nb = bucket_of(key.get(), min);
            self.buckets[nb].push((key, item));
            self.occupied[nb >> 6] |= 1 << (nb & 63);
        }
        0
    }

    fn first_occupied(&self) -> Option<usize> {
        for (w, bits) in self.occupied.iter().enumerate() {
            if *bits != 0 {
                return Some(w * 64 + bits.trailing_zeros() as usize);
            }
        }
        None
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_pop_in_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..10 {
            q.push(SimTime(5), i);
        }
        q.push(SimTime(1), 100);
        assert_eq!(q.pop(), Some((SimTime(1), 100)));
        for i in 0..10 {
            assert_eq!(q.pop(), Some((SimTime(5), i)));
        }
        assert_eq!(q.pop(), None);
    }

    proptest! {
        #[test]
        fn pops_sorted_by_time_then_sequence(times in proptest::collection::vec(0u64..50, 0..300)) {
            let mut q = EventQueue::new();
            for (i, t) in times.iter().enumerate() {
                q.push(SimTime(*t), i);
            }
            let mut expected: Vec<(u64, usize)> = times.iter().copied().zip(0..).collect();
            expected.sort();
            let mut got = Vec::new();
            while let Some((t, i)) = q.pop() {
                got.push((t.0, i));
            }
            prop_assert_eq!(got, expected);
        }

        /// `peek_time` between pushes and pops: the minimum it finds stays queued, in order.
        #[test]
        fn peeks_interleaved_with_push_pop_match_model(ops in proptest::collection::vec((0u8..3, 0u64..20), 0..400)) {
            let mut q = EventQueue::new();
            let mut model: std::collections::BTreeSet<(u64, u64)> = Default::default();
            let mut seq = 0u64;
            let mut now = 0u64;
            for (op, dt) in ops {
                match op {
                    0 => {
                        q.push(SimTime(now + dt), seq);
                        model.insert((now + dt, seq));
                        seq += 1;
                    }
                    1 => {
                        // A peek, like a pop, makes the minimum the queue's floor.
                        let m = model.first().map(|(t, _)| *t);
                        prop_assert_eq!(q.peek_time(), m.map(SimTime));
                        if let Some(t) = m { now = t; }
                    }
                    _ => {
                        let m = model.pop_first();
                        let g = q.pop().map(|(t, s)| (t.0, s));
                        prop_assert_eq!(g, m);
                        if let Some((t, _)) = m { now = t; }
                    }
                }
                prop_assert_eq!(q.len(), model.len());
            }
        }

        #[test]
        fn interleaved_push_pop_matches_model(ops in proptest::collection::vec((any::<bool>(), 0u64..20), 0..400)) {
            let mut q = EventQueue::new();
            let mut model: std::collections::BTreeSet<(u64, u64)> = Default::default();
            let mut seq = 0u64;
            let mut now = 0u64;
            for (is_push, dt) in ops {
                if is_push {
                    q.push(SimTime(now + dt), seq);
                    model.insert((now + dt, seq));
                    seq += 1;
                } else {
                    let m = model.pop_first();
                    let g = q.pop().map(|(t, s)| (t.0, s));
                    prop_assert_eq!(g, m);
                    if let Some((t, _)) = m { now = t; }
                }
            }
        }
    }
}

/// The earliest wake-up already queued for one owner of a deadline (a MAC, a router, a
/// transport end). Sans-IO state machines are polled for their next deadline after every input
/// (DESIGN.md §1.1); the engine queues a wake-up only if it is earlier than the one already
/// queued, and a wake-up that finds nothing due is a no-op, so nothing is ever cancelled. This
/// is that rule, written once.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct WakeSlot(Option<SimTime>);

impl WakeSlot {
    /// Whether a wake-up at `t` must be queued: none is queued or the queued one is later.
    /// Remembers `t` when it says yes.
    #[inline]
    pub fn arm(&mut self, t: SimTime) -> bool {
        if self.0.is_none_or(|w| t < w) {
            self.0 = Some(t);
            true
        } else {
            false
        }
    }

    /// A wake-up at `now` fired: if it was the one remembered, none is queued any more.
    #[inline]
    pub fn fired(&mut self, now: SimTime) {
        if self.0 == Some(now) {
            self.0 = None;
        }
    }

    /// The queued wake-up, if any.
    #[inline]
    pub fn get(self) -> Option<SimTime> {
        self.0
    }
}

#[cfg(test)]
mod wake_test {
    use super::*;

    #[test]
    fn arms_only_earlier_wakeups_and_forgets_the_fired_one() {
        let mut w = WakeSlot::default();
        assert!(w.arm(SimTime(10)));
        assert!(
            !w.arm(SimTime(20)),
            "a later wake-up is covered by the queued one"
        );
        assert!(!w.arm(SimTime(10)));
        assert!(w.arm(SimTime(5)));
        w.fired(SimTime(10)); // the stale one: the queued wake-up is still 5
        assert_eq!(w.get(), Some(SimTime(5)));
        w.fired(SimTime(5));
        assert_eq!(w.get(), None);
        assert!(w.arm(SimTime(20)));
    }
}
