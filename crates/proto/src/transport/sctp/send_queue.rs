//! Outbound user messages waiting for TSNs (RFC 9260 §6.1, §6.6, §6.9): one FIFO per stream,
//! served by a stream scheduler (RFC 8260 §3, [`super::scheduler`]; round robin by default);
//! stream sequence numbers are assigned when a message leaves its queue, and the message is
//! then fragmented to fit a DATA chunk (§6.9). With I-DATA (RFC 8260 §2) the queue hands out
//! one fragment at a time ([`SendQueue::pop_fragment`]) with its MID and FSN, so fragments of
//! messages on different streams interleave.
//! Lifetimes (RFC 9260 §11.1 E "life time"; RFC 3758) drop messages that expire in the queue.

use std::collections::{BTreeMap, VecDeque};

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{Mid, Ssn};

use super::api::MessageId;
use super::scheduler::{SchedulerKind, StreamScheduler};

/// A message accepted by `send` and not yet given TSNs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingMessage {
    /// Its identifier.
    pub id: MessageId,
    /// Stream identifier.
    pub stream: u16,
    /// Unordered delivery (U bit).
    pub unordered: bool,
    /// Payload protocol identifier.
    pub ppid: u32,
    /// The user data.
    pub data: Vec<u8>,
    /// When its lifetime ends, if it has one.
    pub expires: Option<SimTime>,
}

/// One fragment of a message (RFC 9260 §6.9): its user data and the B and E flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    /// The bytes of this fragment.
    pub data: Vec<u8>,
    /// First fragment (B bit).
    pub beginning: bool,
    /// Last fragment (E bit).
    pub ending: bool,
}

/// One I-DATA fragment taken from the queue (RFC 8260 §2.1): the message's identity, its MID,
/// the fragment's FSN and flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IFragment {
    /// The message it belongs to.
    pub id: MessageId,
    /// Stream identifier.
    pub stream: u16,
    /// Unordered (U bit).
    pub unordered: bool,
    /// Message Identifier.
    pub mid: Mid,
    /// Fragment Sequence Number (0 for the first fragment).
    pub fsn: u32,
    /// Payload protocol identifier of the message (sent in the first fragment only).
    pub ppid: u32,
    /// The fragment's bytes.
    pub data: Vec<u8>,
    /// First fragment (B bit).
    pub beginning: bool,
    /// Last fragment (E bit).
    pub ending: bool,
    /// When the message's lifetime ends, if it has one.
    pub expires: Option<SimTime>,
}

/// A message being cut into I-DATA fragments. RFC 8260 §2.2.1: a sender "MUST NOT fragment
/// more than one user message in any given stream at any time", so there is at most one per
/// stream.
#[derive(Debug, Clone)]
struct Partial {
    msg: PendingMessage,
    /// Arrival order (FCFS).
    seq: u64,
    mid: Mid,
    /// Bytes already given out.
    offset: usize,
    /// FSN of the next fragment.
    fsn: u32,
}

/// Scale of the fair-queueing virtual time: a stream's tag advances by
/// `bytes * VTIME_SCALE / weight`.
const VTIME_SCALE: u64 = 1 << 16;

/// Per-stream queues of outbound messages.
#[derive(Debug, Clone, Default)]
pub struct SendQueue {
    /// Non-empty queues only, by stream; each message with its arrival number.
    queues: BTreeMap<u16, VecDeque<(u64, PendingMessage)>>,
    /// I-DATA: the message each stream is fragmenting.
    partial: BTreeMap<u16, Partial>,
    /// The next SSN of each outbound stream (RFC 9260 §6.6: starting at 0).
    next_ssn: Vec<Ssn>,
    /// I-DATA: the next MID of each outbound stream, ordered `[0]` and unordered `[1]`
    /// (RFC 8260 §2.1: separate sequences, starting at 0).
    next_mid: Vec<[Mid; 2]>,
    /// Round-robin position: the stream served last.
    cursor: Option<u16>,
    bytes: usize,
    messages: usize,
    /// Queued messages with a lifetime: without any, [`SendQueue::earliest_expiry`] need not
    /// scan the queues (it is asked after every packet, and a backlogged sender's queue is long).
    with_lifetime: usize,
    /// The stream scheduler (RFC 8260 §3).
    sched: StreamScheduler,
    /// Messages pushed so far (arrival numbers for FCFS).
    arrivals: u64,
    /// Round robin per packet: the stream of the packet being filled, once chosen.
    packet_stream: Option<u16>,
    /// Fair queueing: each stream's virtual time tag.
    vtag: Vec<u64>,
    /// Fair queueing: the virtual clock (the tag of the stream served last, before service).
    vclock: u64,
    /// RFC 6525 §5.1.2: streams whose outgoing reset is in flight, with the messages queued on
    /// them meanwhile (kept out of the scheduler's sight until the reset is answered).
    held: BTreeMap<u16, VecDeque<(u64, PendingMessage)>>,
}

impl SendQueue {
    /// A queue for `streams` outbound streams.
    pub fn new(streams: u16) -> Self {
        let mut q = SendQueue::default();
        q.set_streams(streams);
        q
    }

    /// A queue for `streams` outbound streams served by `sched` (RFC 8260 §3).
    pub fn with_scheduler(streams: u16, sched: StreamScheduler) -> Self {
        let mut q = SendQueue::new(streams);
        q.sched = sched;
        q
    }

    /// Changes the number of outbound streams after negotiation. Streams that existed keep
    /// their next SSN; new ones start at 0. A second negotiation in one association (a new INIT
    /// after a Stale Cookie error, RFC 9260 §5.2.6) must not hand out an SSN again: DATA
    /// bundled with the first COOKIE ECHO already used it and stays outstanding under its TSN,
    /// and the receiver would take a second message with that SSN for an old one and drop it.
    /// The same holds for I-DATA MIDs.
    pub fn set_streams(&mut self, streams: u16) {
        let n = usize::from(streams);
        self.next_ssn.resize(n, Ssn(0));
        self.next_mid.resize(n, [Mid(0); 2]);
        self.vtag.resize(n, 0);
    }

    /// Every outbound stream's next SSN (and MID) back to 0: the peer restarted (RFC 9260
    /// §5.2.4) and its new TCB expects SSN 0 on every stream.
    pub fn restart_ssns(&mut self) {
        self.next_ssn.fill(Ssn(0));
        self.next_mid.fill([Mid(0); 2]);
    }

    /// Number of outbound streams.
    pub fn streams(&self) -> u16 {
        u16::try_from(self.next_ssn.len()).unwrap_or(u16::MAX)
    }

    /// User bytes queued (not yet given TSNs).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Messages queued (a message partly fragmented into I-DATA counts until its last
    /// fragment leaves).
    pub fn len(&self) -> usize {
        self.messages
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.messages == 0
    }

    /// The scheduler in use.
    pub fn scheduler(&self) -> &StreamScheduler {
        &self.sched
    }

    fn backlogged(&self, s: u16) -> bool {
        self.queues.contains_key(&s) || self.partial.contains_key(&s)
    }

    /// Appends a message to its stream's queue.
    pub fn push(&mut self, msg: PendingMessage) {
        let s = msg.stream;
        if matches!(
            self.sched.kind,
            SchedulerKind::FairCapacity | SchedulerKind::WeightedFair
        ) && !self.backlogged(s)
        {
            // Start-time fair queueing: a stream that was idle starts at the virtual clock, so
            // it cannot claim the capacity it did not use.
            if let Some(t) = self.vtag.get_mut(usize::from(s)) {
                *t = (*t).max(self.vclock);
            }
        }
        self.bytes += msg.data.len();
        self.messages += 1;
        self.with_lifetime += usize::from(msg.expires.is_some());
        let seq = self.arrivals;
        self.arrivals += 1;
        if let Some(q) = self.held.get_mut(&s) {
            q.push_back((seq, msg));
            return;
        }
        self.queues.entry(s).or_default().push_back((seq, msg));
    }

    /// RFC 6525 §5.1.2: no new message leaves on `streams` until [`SendQueue::release`]: their
    /// queued messages, and those queued later, are held aside. A message being fragmented
    /// (I-DATA) is not held; the caller waits for it ([`SendQueue::fragmenting`]).
    pub fn hold(&mut self, streams: &[u16]) {
        for &s in streams {
            let q = self.queues.remove(&s).unwrap_or_default();
            self.held.entry(s).or_default().extend(q);
        }
    }

    /// Ends [`SendQueue::hold`] for `streams`: their messages rejoin the scheduler.
    pub fn release(&mut self, streams: &[u16]) {
        for s in streams {
            if let Some(q) = self.held.remove(s) {
                if !q.is_empty() {
                    self.queues.entry(*s).or_default().extend(q);
                }
            }
        }
    }

    /// Whether one of `streams` has a message partly sent in I-DATA fragments.
    pub fn fragmenting(&self, streams: &[u16]) -> bool {
        streams.iter().any(|s| self.partial.contains_key(s))
    }

    /// Whether messages are queued and none of them may leave now (every one is held).
    pub fn only_held(&self) -> bool {
        self.queues.is_empty() && self.partial.is_empty() && self.messages > 0
    }

    /// RFC 6525 §5.1.2 (and RFC 8260 §3 for MIDs): the next SSN and both MIDs of `streams`
    /// back to 0 after their outgoing reset was performed.
    pub fn reset_ssns(&mut self, streams: &[u16]) {
        for s in streams {
            if let Some(n) = self.next_ssn.get_mut(usize::from(*s)) {
                *n = Ssn(0);
            }
            if let Some(m) = self.next_mid.get_mut(usize::from(*s)) {
                *m = [Mid(0); 2];
            }
        }
    }

    /// The first backlogged stream after `after` (round robin), wrapping around.
    fn rr_after(&self, after: Option<u16>) -> Option<u16> {
        let first = |from: u16| {
            let q = self.queues.range(from..).next().map(|(s, _)| *s);
            let p = self.partial.range(from..).next().map(|(s, _)| *s);
            match (q, p) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        };
        match after {
            Some(c) => (c < u16::MAX)
                .then(|| first(c + 1))
                .flatten()
                .or_else(|| first(0)),
            None => first(0),
        }
    }

    /// The backlogged streams in round-robin order, starting after the cursor.
    fn rr_order(&self) -> Vec<u16> {
        let mut all: Vec<u16> = self
            .queues
            .keys()
            .chain(self.partial.keys())
            .copied()
            .collect();
        all.sort_unstable();
        all.dedup();
        let split = match self.cursor {
            Some(c) => all.partition_point(|s| *s <= c),
            None => 0,
        };
        all.rotate_left(split);
        all
    }

    /// The stream the next pop serves.
    fn next_stream(&self) -> Option<u16> {
        match self.sched.kind {
            SchedulerKind::RoundRobin => self.rr_after(self.cursor),
            SchedulerKind::RoundRobinPacket => match self.packet_stream {
                Some(s) => self.backlogged(s).then_some(s),
                None => self.rr_after(self.cursor),
            },
            SchedulerKind::Fcfs => self
                .rr_order()
                .into_iter()
                .filter_map(|s| self.head_seq(s).map(|q| (q, s)))
                .min()
                .map(|(_, s)| s),
            SchedulerKind::Priority => self
                .rr_order()
                .into_iter()
                .min_by_key(|s| self.sched.priority(*s)),
            SchedulerKind::FairCapacity | SchedulerKind::WeightedFair => self
                .rr_order()
                .into_iter()
                .min_by_key(|s| self.vtag.get(usize::from(*s)).copied().unwrap_or(0)),
        }
    }

    /// Arrival number of the message stream `s` serves next.
    fn head_seq(&self, s: u16) -> Option<u64> {
        match self.partial.get(&s) {
            Some(p) => Some(p.seq),
            None => self.queues.get(&s)?.front().map(|(q, _)| *q),
        }
    }

    /// Bookkeeping after serving `len` bytes of stream `s`.
    fn served(&mut self, s: u16, len: usize) {
        self.cursor = Some(s);
        if self.sched.kind == SchedulerKind::RoundRobinPacket {
            self.packet_stream = Some(s);
        }
        if matches!(
            self.sched.kind,
            SchedulerKind::FairCapacity | SchedulerKind::WeightedFair
        ) {
            let weight = u64::from(self.sched.weight(s));
            if let Some(t) = self.vtag.get_mut(usize::from(s)) {
                self.vclock = self.vclock.max(*t);
                *t = t.saturating_add((len as u64).saturating_mul(VTIME_SCALE) / weight);
            }
        }
    }

    /// A new packet is being filled (RFC 8260 §3.3: the round-robin-per-packet scheduler picks
    /// the next stream now). Does nothing for the other schedulers.
    pub fn begin_packet(&mut self) {
        self.packet_stream = None;
    }

    /// The packet being filled already carries a DATA chunk of `stream` (the rest of a message
    /// that got its TSNs earlier): with round robin per packet, only that stream may follow.
    pub fn note_packet_stream(&mut self, stream: u16) {
        if self.sched.kind == SchedulerKind::RoundRobinPacket && self.packet_stream.is_none() {
            self.packet_stream = Some(stream);
        }
    }

    /// The length of the message [`SendQueue::pop`] would return.
    pub fn peek_len(&self) -> Option<usize> {
        let stream = self.next_stream()?;
        self.queues.get(&stream)?.front().map(|(_, m)| m.data.len())
    }

    /// Takes the next whole message (for DATA chunks), from the stream the scheduler picks,
    /// and gives an ordered message the stream's next SSN (unordered messages get SSN 0 and
    /// do not consume one, RFC 9260 §3.3.1: the SSN "is ignored" when the U bit is set).
    pub fn pop(&mut self) -> Option<(PendingMessage, Ssn)> {
        let stream = self.next_stream()?;
        let queue = self.queues.get_mut(&stream)?;
        let (_, msg) = queue.pop_front()?;
        if queue.is_empty() {
            self.queues.remove(&stream);
        }
        self.served(stream, msg.data.len());
        self.bytes -= msg.data.len();
        self.messages -= 1;
        self.with_lifetime -= usize::from(msg.expires.is_some());
        let ssn = if msg.unordered {
            Ssn(0)
        } else {
            match self.next_ssn.get_mut(usize::from(stream)) {
                Some(next) => {
                    let ssn = *next;
                    *next = next.next();
                    ssn
                }
                None => Ssn(0),
            }
        };
        Some((msg, ssn))
    }

    /// The length of the fragment [`SendQueue::pop_fragment`] would return with the same
    /// `max`.
    pub fn peek_fragment_len(&self, max: usize) -> Option<usize> {
        let stream = self.next_stream()?;
        let rest = match self.partial.get(&stream) {
            Some(p) => p.msg.data.len() - p.offset,
            None => self.queues.get(&stream)?.front()?.1.data.len(),
        };
        Some(rest.min(max.max(1)))
    }

    /// I-DATA (RFC 8260 §2.1): the next fragment of at most `max` bytes (at least 1), from the
    /// stream the scheduler picks. A stream's message gets its MID when its first fragment
    /// leaves (ordered and unordered messages count separately); the FSN starts at 0.
    pub fn pop_fragment(&mut self, max: usize) -> Option<IFragment> {
        let stream = self.next_stream()?;
        if !self.partial.contains_key(&stream) {
            let queue = self.queues.get_mut(&stream)?;
            let (seq, msg) = queue.pop_front()?;
            if queue.is_empty() {
                self.queues.remove(&stream);
            }
            self.with_lifetime -= usize::from(msg.expires.is_some());
            let mid = match self.next_mid.get_mut(usize::from(stream)) {
                Some(next) => {
                    let slot = &mut next[usize::from(msg.unordered)];
                    let mid = *slot;
                    *slot += 1;
                    mid
                }
                None => Mid(0),
            };
            self.partial.insert(
                stream,
                Partial {
                    msg,
                    seq,
                    mid,
                    offset: 0,
                    fsn: 0,
                },
            );
        }
        let p = self.partial.get_mut(&stream)?;
        let total = p.msg.data.len();
        let end = p.offset.saturating_add(max.max(1)).min(total);
        let frag = IFragment {
            id: p.msg.id,
            stream,
            unordered: p.msg.unordered,
            mid: p.mid,
            fsn: p.fsn,
            ppid: p.msg.ppid,
            data: p.msg.data[p.offset..end].to_vec(),
            beginning: p.offset == 0,
            ending: end == total,
            expires: p.msg.expires,
        };
        p.offset = end;
        p.fsn = p.fsn.wrapping_add(1);
        if frag.ending {
            self.partial.remove(&stream);
            self.messages -= 1;
        }
        self.bytes -= frag.data.len();
        self.served(stream, frag.data.len());
        Some(frag)
    }

    /// Removes and returns the messages whose lifetime ended at or before `now`.
    pub fn drop_expired(&mut self, now: SimTime) -> Vec<PendingMessage> {
        let mut dropped = Vec::new();
        for queue in self.queues.values_mut() {
            queue.retain(|(_, m)| {
                if m.expires.is_some_and(|t| t <= now) {
                    dropped.push(m.clone());
                    false
                } else {
                    true
                }
            });
        }
        self.queues.retain(|_, q| !q.is_empty());
        for m in &dropped {
            self.bytes -= m.data.len();
            self.messages -= 1;
            self.with_lifetime -= 1;
        }
        dropped
    }

    /// The earliest lifetime end among queued messages.
    pub fn earliest_expiry(&self) -> Option<SimTime> {
        if self.with_lifetime == 0 {
            return None;
        }
        self.queues
            .values()
            .flat_map(|q| q.iter().filter_map(|(_, m)| m.expires))
            .min()
    }

    /// Removes everything; returns the number of messages discarded.
    pub fn clear(&mut self) -> usize {
        let n = self.messages;
        self.queues.clear();
        self.held.clear();
        self.partial.clear();
        self.packet_stream = None;
        self.bytes = 0;
        self.messages = 0;
        self.with_lifetime = 0;
        n
    }

    /// RFC 9260 §6.9: splits `data` into fragments of at most `max` bytes (at least 1).
    pub fn fragment(data: Vec<u8>, max: usize) -> Vec<Fragment> {
        let max = max.max(1);
        if data.len() <= max {
            return vec![Fragment {
                data,
                beginning: true,
                ending: true,
            }];
        }
        let count = data.len().div_ceil(max);
        data.chunks(max)
            .enumerate()
            .map(|(i, part)| Fragment {
                data: part.to_vec(),
                beginning: i == 0,
                ending: i + 1 == count,
            })
            .collect()
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn msg(id: u64, stream: u16, unordered: bool, len: usize) -> PendingMessage {
        PendingMessage {
            id: MessageId(id),
            stream,
            unordered,
            ppid: 0,
            data: vec![id as u8; len],
            expires: None,
        }
    }

    #[test]
    fn round_robin_and_ssns() {
        let mut q = SendQueue::new(3);
        q.push(msg(1, 0, false, 10));
        q.push(msg(2, 0, false, 10));
        q.push(msg(3, 2, false, 10));
        q.push(msg(4, 2, true, 10));
        q.push(msg(5, 2, false, 10));
        assert_eq!(q.len(), 5);
        let order: Vec<(u64, u16)> = std::iter::from_fn(|| q.pop())
            .map(|(m, s)| (m.id.0, s.0))
            .collect();
        assert_eq!(order, vec![(1, 0), (3, 0), (2, 1), (4, 0), (5, 1)]);
        assert!(q.is_empty());
        assert_eq!(q.bytes(), 0);
    }

    #[test]
    fn fragments_and_expiry() {
        let f = SendQueue::fragment(vec![7; 10], 4);
        assert_eq!(f.len(), 3);
        assert!(f[0].beginning && !f[0].ending);
        assert!(!f[1].beginning && !f[1].ending);
        assert!(!f[2].beginning && f[2].ending && f[2].data.len() == 2);
        assert_eq!(SendQueue::fragment(vec![1; 4], 4).len(), 1);
        let mut q = SendQueue::new(1);
        let mut m = msg(1, 0, false, 5);
        m.expires = Some(SimTime(10));
        q.push(m);
        q.push(msg(2, 0, false, 5));
        assert_eq!(q.earliest_expiry(), Some(SimTime(10)));
        assert!(q.drop_expired(SimTime(9)).is_empty());
        assert_eq!(q.drop_expired(SimTime(10)).len(), 1);
        assert_eq!((q.len(), q.bytes()), (1, 5));
        // The dropped message consumed no SSN.
        assert_eq!(q.pop().unwrap().1, Ssn(0));
    }

    fn sched(kind: SchedulerKind) -> StreamScheduler {
        StreamScheduler {
            kind,
            ..StreamScheduler::default()
        }
    }

    /// Streams of the messages (DATA: whole messages) in the order `pop` hands them out.
    fn message_order(mut q: SendQueue) -> Vec<(u16, u64)> {
        std::iter::from_fn(|| q.pop())
            .map(|(m, _)| (m.stream, m.id.0))
            .collect()
    }

    /// The backlog of the scheduler tests: stream 0 gets messages 1–3 (300, 300, 300 bytes),
    /// then stream 1 messages 4–5 (100 bytes each), then stream 2 message 6 (600 bytes).
    fn backlog(s: StreamScheduler) -> SendQueue {
        let mut q = SendQueue::with_scheduler(3, s);
        for (id, stream, len) in [
            (1, 0, 300),
            (2, 0, 300),
            (3, 0, 300),
            (4, 1, 100),
            (5, 1, 100),
            (6, 2, 600),
        ] {
            q.push(msg(id, stream, false, len));
        }
        q
    }

    #[test]
    fn fcfs_keeps_arrival_order_across_streams() {
        // RFC 8260 §3.1: "passes through the messages in the order in which they have been
        // delivered by the application".
        let mut q = SendQueue::with_scheduler(3, sched(SchedulerKind::Fcfs));
        for (id, stream) in [(1, 2), (2, 0), (3, 2), (4, 1), (5, 0)] {
            q.push(msg(id, stream, false, 10));
        }
        let ids: Vec<u64> = message_order(q).into_iter().map(|(_, id)| id).collect();
        assert_eq!(ids, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn round_robin_serves_one_message_per_stream_in_turn() {
        let order = message_order(backlog(sched(SchedulerKind::RoundRobin)));
        assert_eq!(order, vec![(0, 1), (1, 4), (2, 6), (0, 2), (1, 5), (0, 3)]);
    }

    #[test]
    fn priority_serves_the_lowest_value_first_and_rotates_among_equals() {
        let s = StreamScheduler {
            kind: SchedulerKind::Priority,
            priorities: vec![5, 1, 1],
            weights: vec![],
        };
        let order = message_order(backlog(s));
        assert_eq!(order, vec![(1, 4), (2, 6), (1, 5), (0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn fair_capacity_balances_bytes_not_messages() {
        // Stream 2's single 600-byte message costs as much as two of stream 0's 300-byte ones.
        let order = message_order(backlog(sched(SchedulerKind::FairCapacity)));
        assert_eq!(order, vec![(0, 1), (1, 4), (2, 6), (1, 5), (0, 2), (0, 3)]);
    }

    #[test]
    fn weighted_fair_queueing_gives_bytes_in_proportion_to_weights() {
        // Two streams with 100-byte messages, weights 3 and 1: three of stream 0's for one of
        // stream 1's while both are backlogged.
        let s = StreamScheduler {
            kind: SchedulerKind::WeightedFair,
            priorities: vec![],
            weights: vec![3, 1],
        };
        let mut q = SendQueue::with_scheduler(2, s);
        for id in 0..12 {
            q.push(msg(id, (id % 2) as u16, false, 100));
        }
        let streams: Vec<u16> = message_order(q)
            .into_iter()
            .map(|(s, _)| s)
            .take(8)
            .collect();
        assert_eq!(streams, vec![0, 1, 0, 0, 0, 1, 0, 0]);
        // An idle stream starts at the virtual clock: it gets no credit for the idle time.
        let mut q = SendQueue::with_scheduler(2, sched(SchedulerKind::FairCapacity));
        for id in 0..4 {
            q.push(msg(id, 0, false, 100));
        }
        assert_eq!(q.pop().map(|(m, _)| m.id.0), Some(0));
        assert_eq!(q.pop().map(|(m, _)| m.id.0), Some(1));
        q.push(msg(10, 1, false, 100));
        q.push(msg(11, 1, false, 100));
        q.push(msg(12, 1, false, 100));
        let ids: Vec<u64> = message_order(q).into_iter().map(|(_, id)| id).collect();
        assert_eq!(ids, vec![10, 2, 11, 3, 12]);
    }

    #[test]
    fn round_robin_per_packet_keeps_one_stream_per_packet() {
        // RFC 8260 §3.3: the stream changes only when a new packet is started.
        let mut q = backlog(sched(SchedulerKind::RoundRobinPacket));
        let mut packets = Vec::new();
        while !q.is_empty() {
            q.begin_packet();
            let mut p = Vec::new();
            while let Some((m, _)) = q.pop() {
                p.push(m.id.0);
                if p.len() == 2 {
                    break; // the packet is full
                }
            }
            packets.push(p);
        }
        assert_eq!(packets, vec![vec![1, 2], vec![4, 5], vec![6], vec![3]]);
    }

    #[test]
    fn i_data_fragments_interleave_under_round_robin() {
        // A 1000-byte message on stream 0, then a 100-byte one on stream 1: with 400-byte
        // fragments, stream 1's message goes second instead of after the whole 1000 bytes
        // (the head-of-line blocking of RFC 8260 §1).
        let mut q = SendQueue::new(2);
        q.push(msg(1, 0, false, 1000));
        q.push(msg(2, 1, false, 100));
        q.push(msg(3, 0, true, 10));
        q.push(msg(4, 0, false, 10));
        assert_eq!(q.peek_fragment_len(400), Some(400));
        let frags: Vec<(u16, u64, u32, u32, bool, bool, usize)> =
            std::iter::from_fn(|| q.pop_fragment(400))
                .map(|f| {
                    (
                        f.stream,
                        f.id.0,
                        f.mid.0,
                        f.fsn,
                        f.beginning,
                        f.ending,
                        f.data.len(),
                    )
                })
                .collect();
        assert_eq!(
            frags,
            vec![
                (0, 1, 0, 0, true, false, 400),
                (1, 2, 0, 0, true, true, 100),
                // RFC 8260 §2.2.1: stream 0 finishes its message before starting the next.
                (0, 1, 0, 1, false, false, 400),
                (0, 1, 0, 2, false, true, 200),
                // Unordered messages have their own MID sequence (RFC 8260 §2.1).
                (0, 3, 0, 0, true, true, 10),
                (0, 4, 1, 0, true, true, 10),
            ]
        );
        assert!(q.is_empty());
        assert_eq!(q.bytes(), 0);
    }

    #[test]
    fn i_data_priority_preempts_between_fragments() {
        let s = StreamScheduler {
            kind: SchedulerKind::Priority,
            priorities: vec![1, 0],
            weights: vec![],
        };
        let mut q = SendQueue::with_scheduler(2, s);
        q.push(msg(1, 0, false, 1000));
        let first = q.pop_fragment(400).unwrap();
        assert_eq!((first.stream, first.fsn), (0, 0));
        // A message on the higher-priority stream arrives while stream 0's is half sent.
        q.push(msg(2, 1, false, 500));
        let order: Vec<(u16, u32)> = std::iter::from_fn(|| q.pop_fragment(400))
            .map(|f| (f.stream, f.fsn))
            .collect();
        assert_eq!(order, vec![(1, 0), (1, 1), (0, 1), (0, 2)]);
    }
}
