//! Stream schedulers (RFC 8260 §3): which outbound stream the next DATA chunk (a whole user
//! message) or, with I-DATA, the next I-DATA chunk (one fragment) comes from. The choice is
//! made by [`super::send_queue::SendQueue`]; this module holds the configuration.
//!
//! | kind | RFC 8260 | rule here |
//! |---|---|---|
//! | [`SchedulerKind::Fcfs`] | §3.1 | the oldest message first, whatever its stream |
//! | [`SchedulerKind::RoundRobin`] | §3.2 | the next backlogged stream after the one served last (the default: sctpsim served streams this way before RFC 8260 was modelled) |
//! | [`SchedulerKind::RoundRobinPacket`] | §3.3 | one stream per packet: the next backlogged stream when a packet is started, and only its chunks in that packet |
//! | [`SchedulerKind::Priority`] | §3.4 | the backlogged stream with the lowest priority value; round robin among equals |
//! | [`SchedulerKind::FairCapacity`] | §3.5 | the stream that has been given the fewest bytes (start-time fair queueing, equal weights) |
//! | [`SchedulerKind::WeightedFair`] | §3.6 | the same with per-stream weights: a stream of weight n gets n times the bytes of a stream of weight 1 |
//!
//! Without I-DATA a stream is served a whole message at a time (its fragments take
//! consecutive TSNs, RFC 9260 §6.9); with I-DATA one fragment at a time, so a large message
//! does not hold back a small one on another stream (RFC 8260 §1).

/// The stream scheduling policy (RFC 8260 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SchedulerKind {
    /// RFC 8260 §3.1: first come, first served across streams.
    Fcfs,
    /// RFC 8260 §3.2: round robin over the backlogged streams (sctpsim's behaviour before
    /// RFC 8260 was modelled, hence the default).
    #[default]
    RoundRobin,
    /// RFC 8260 §3.3: round robin, switching stream only between packets, one stream per
    /// packet.
    RoundRobinPacket,
    /// RFC 8260 §3.4: strict priority per stream (lower value first).
    Priority,
    /// RFC 8260 §3.5: equal capacity per stream, by bytes.
    FairCapacity,
    /// RFC 8260 §3.6: capacity per stream in proportion to its weight.
    WeightedFair,
}

impl SchedulerKind {
    /// The scenario name (`flows[].sctp.scheduler`).
    pub fn name(self) -> &'static str {
        match self {
            SchedulerKind::Fcfs => "fcfs",
            SchedulerKind::RoundRobin => "rr",
            SchedulerKind::RoundRobinPacket => "rr-packet",
            SchedulerKind::Priority => "priority",
            SchedulerKind::FairCapacity => "fc",
            SchedulerKind::WeightedFair => "wfq",
        }
    }

    /// Parses a scenario name (the inverse of [`SchedulerKind::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        [
            SchedulerKind::Fcfs,
            SchedulerKind::RoundRobin,
            SchedulerKind::RoundRobinPacket,
            SchedulerKind::Priority,
            SchedulerKind::FairCapacity,
            SchedulerKind::WeightedFair,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// A stream's priority when [`StreamScheduler::priorities`] does not list it (RFC 8260 §3.4
/// leaves the values to the implementation; every stream equal by default).
pub const DEFAULT_PRIORITY: u16 = 0;

/// A stream's weight when [`StreamScheduler::weights`] does not list it (RFC 8260 §3.6).
pub const DEFAULT_WEIGHT: u16 = 1;

/// The stream scheduler and its per-stream parameters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StreamScheduler {
    /// The policy.
    pub kind: SchedulerKind,
    /// Priority of stream i at index i ([`SchedulerKind::Priority`]; lower is served first;
    /// unlisted streams get [`DEFAULT_PRIORITY`]).
    pub priorities: Vec<u16>,
    /// Weight of stream i at index i ([`SchedulerKind::WeightedFair`]; at least 1; unlisted
    /// streams get [`DEFAULT_WEIGHT`]).
    pub weights: Vec<u16>,
}

impl StreamScheduler {
    /// Stream `s`'s priority.
    pub fn priority(&self, s: u16) -> u16 {
        self.priorities
            .get(usize::from(s))
            .copied()
            .unwrap_or(DEFAULT_PRIORITY)
    }

    /// Stream `s`'s weight (at least 1; 1 for every stream unless the kind is
    /// [`SchedulerKind::WeightedFair`]).
    pub fn weight(&self, s: u16) -> u16 {
        if self.kind != SchedulerKind::WeightedFair {
            return 1;
        }
        self.weights
            .get(usize::from(s))
            .copied()
            .unwrap_or(DEFAULT_WEIGHT)
            .max(1)
    }
}
