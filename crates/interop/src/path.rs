//! The impaired in-memory path between the two stacks: per direction a one-way delay, seeded
//! loss, duplication and reordering (a reordered copy is held back by an extra delay so that
//! later packets overtake it). Packets are opaque bytes; the harness maps them to and from
//! addresses. Every decision comes from a keyed [`Rng`] stream, so a seed reproduces a run.

use std::collections::BTreeMap;

use sctpsim_kernel::{Rng, SimDuration, SimTime};

/// Impairments of one direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impairment {
    /// One-way delay.
    pub delay: SimDuration,
    /// Probability a packet is lost, 0..=1.
    pub loss: f64,
    /// Probability a delivered packet is delivered twice, 0..=1.
    pub duplicate: f64,
    /// Probability a delivered packet is held back by `reorder_delay` (overtaken by later ones).
    pub reorder: f64,
    /// Extra delay of a reordered packet.
    pub reorder_delay: SimDuration,
}

impl Impairment {
    /// No loss, duplication or reordering.
    pub fn clean(delay: SimDuration) -> Self {
        Impairment {
            delay,
            loss: 0.0,
            duplicate: 0.0,
            reorder: 0.0,
            reorder_delay: SimDuration::ZERO,
        }
    }

    /// Draws the impairments of one direction for a seed: loss uniform in `0..=max_loss`,
    /// duplication and reordering each uniform in `0..=max_loss / 2`, delay 5–50 ms, a reordered
    /// packet held back 1–3 one-way delays.
    pub fn draw(rng: &mut Rng, max_loss: f64) -> Self {
        let delay_ms = 5 + rng.below(46);
        let delay = SimDuration::from_millis(delay_ms);
        Impairment {
            delay,
            loss: rng.uniform_range(0.0, max_loss.max(0.0)),
            duplicate: rng.uniform_range(0.0, max_loss.max(0.0) / 2.0),
            reorder: rng.uniform_range(0.0, max_loss.max(0.0) / 2.0),
            reorder_delay: SimDuration::from_millis(delay_ms * (1 + rng.below(3))),
        }
    }
}

/// What happened to packets on one direction (for the run's report).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PathCounters {
    /// Packets handed to the path.
    pub sent: u64,
    /// Packets dropped.
    pub lost: u64,
    /// Extra copies delivered.
    pub duplicated: u64,
    /// Packets held back.
    pub reordered: u64,
}

/// One direction of the path: packets in flight by arrival time.
#[derive(Debug)]
pub struct Direction {
    imp: Impairment,
    rng: Rng,
    in_flight: BTreeMap<(SimTime, u64), Vec<u8>>,
    seq: u64,
    /// Counters.
    pub counters: PathCounters,
}

impl Direction {
    /// A direction with impairments `imp`, decisions drawn from `rng`.
    pub fn new(imp: Impairment, rng: Rng) -> Self {
        Direction {
            imp,
            rng,
            in_flight: BTreeMap::new(),
            seq: 0,
            counters: PathCounters::default(),
        }
    }

    /// The impairments.
    pub fn impairment(&self) -> Impairment {
        self.imp
    }

    /// Hands a packet to the path at `now`; whether at least one copy will arrive.
    pub fn send(&mut self, now: SimTime, packet: Vec<u8>) -> bool {
        self.counters.sent += 1;
        if self.rng.bernoulli(self.imp.loss) {
            self.counters.lost += 1;
            return false;
        }
        let copies = if self.rng.bernoulli(self.imp.duplicate) {
            self.counters.duplicated += 1;
            2
        } else {
            1
        };
        for _ in 0..copies {
            let mut at = now + self.imp.delay;
            if self.rng.bernoulli(self.imp.reorder) {
                self.counters.reordered += 1;
                at += self.imp.reorder_delay;
            }
            self.in_flight.insert((at, self.seq), packet.clone());
            self.seq += 1;
        }
        true
    }

    /// When the next packet arrives.
    pub fn next_arrival(&self) -> Option<SimTime> {
        self.in_flight.keys().next().map(|(t, _)| *t)
    }

    /// The next packet arriving at or before `now`.
    pub fn pop_due(&mut self, now: SimTime) -> Option<Vec<u8>> {
        let (&(t, seq), _) = self.in_flight.iter().next()?;
        if t > now {
            return None;
        }
        self.in_flight.remove(&(t, seq))
    }

    /// Packets in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Drops everything in flight (after a run, so nothing leaks into the next).
    pub fn clear(&mut self) {
        self.in_flight.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_path_delivers_in_order_after_delay() {
        let mut d = Direction::new(
            Impairment::clean(SimDuration::from_millis(10)),
            Rng::from_seed(1),
        );
        d.send(SimTime::ZERO, vec![1]);
        d.send(SimTime::ZERO + SimDuration::from_millis(1), vec![2]);
        assert_eq!(d.pop_due(SimTime::ZERO + SimDuration::from_millis(9)), None);
        let t = SimTime::ZERO + SimDuration::from_millis(11);
        assert_eq!(d.pop_due(t), Some(vec![1]));
        assert_eq!(d.pop_due(t), Some(vec![2]));
        assert_eq!(d.pop_due(t), None);
    }

    #[test]
    fn impairments_are_counted_and_seeded() {
        let imp = Impairment {
            delay: SimDuration::from_millis(10),
            loss: 0.1,
            duplicate: 0.05,
            reorder: 0.05,
            reorder_delay: SimDuration::from_millis(20),
        };
        let run = |seed| {
            let mut d = Direction::new(imp, Rng::from_seed(seed));
            for i in 0..10_000u32 {
                d.send(SimTime::ZERO, i.to_be_bytes().to_vec());
            }
            d.counters
        };
        let c = run(7);
        assert_eq!(c, run(7));
        assert!(c.lost > 800 && c.lost < 1200, "{c:?}");
        assert!(c.duplicated > 300 && c.duplicated < 650, "{c:?}");
        assert!(c.reordered > 300 && c.reordered < 700, "{c:?}");
    }
}
