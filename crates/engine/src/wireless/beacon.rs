//! Beacon state (`[beacons]`): when each wireless interface sends its next beacon and how many
//! were sent and heard. The driving code (events, the datagram, reception) is
//! `crate::sim::beacon`.
//!
//! Intervals are drawn per beacon, uniformly in `[min, max]` at nanosecond resolution, from
//! the stream `("beacon", node)`; the first beacon of a node comes uniformly in
//! `[start, start + max)` so that the nodes do not start in lockstep.

use crate::scenario::BeaconsSpec;
use sctpsim_kernel::{Rng, SeedTree, SimDuration, SimTime, StreamKey};

/// Beacons of every wireless interface.
#[derive(Clone, Debug)]
pub struct Beacons {
    min_ns: u64,
    max_ns: u64,
    start: SimTime,
    /// No beacon at or after this instant.
    stop: SimTime,
    /// UDP payload length.
    pub payload_bytes: usize,
    /// UDP port (source and destination).
    pub port: u16,
    rng: Vec<Rng>,
    /// Beacons handed to the MACs.
    pub sent: u64,
    /// Beacons delivered to a node's beacon listener (one per neighbour that decoded it).
    pub received: u64,
}

impl Beacons {
    /// Beacon state for interfaces whose nodes are `node_of[w]`, for a run ending at `end`.
    pub fn new(spec: &BeaconsSpec, node_of: &[u32], seeds: &SeedTree, end: SimTime) -> Self {
        let stop = spec.stop.map_or(end, |d| SimTime::ZERO + d.0).min(end);
        Beacons {
            min_ns: spec.interval.min.0.as_nanos(),
            max_ns: spec
                .interval
                .max
                .0
                .as_nanos()
                .max(spec.interval.min.0.as_nanos()),
            start: SimTime::ZERO + spec.start.0,
            stop,
            payload_bytes: spec.payload_bytes as usize,
            port: spec.port,
            rng: node_of
                .iter()
                .map(|&n| seeds.stream(&StreamKey::new("beacon").with(u64::from(n))))
                .collect(),
            sent: 0,
            received: 0,
        }
    }

    /// Number of interfaces.
    pub fn len(&self) -> usize {
        self.rng.len()
    }

    /// Whether there are no interfaces.
    pub fn is_empty(&self) -> bool {
        self.rng.is_empty()
    }

    fn due(&self, t: SimTime) -> Option<SimTime> {
        (t < self.stop).then_some(t)
    }

    /// When interface `w` sends its first beacon.
    pub fn first(&mut self, w: u32) -> Option<SimTime> {
        let rng = self.rng.get_mut(w as usize)?;
        let off = rng.below(self.max_ns.max(1));
        self.due(self.start + SimDuration(off))
    }

    /// When interface `w`, which sent a beacon at `now`, sends the next one.
    pub fn next(&mut self, w: u32, now: SimTime) -> Option<SimTime> {
        let rng = self.rng.get_mut(w as usize)?;
        let span = self.max_ns - self.min_ns;
        let off = self.min_ns + if span > 0 { rng.below(span + 1) } else { 0 };
        self.due(now + SimDuration(off))
    }
}
