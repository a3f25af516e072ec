//! Outbound user messages waiting for TSNs (RFC 9260 §6.1, §6.6, §6.9): one FIFO per stream,
//! served round-robin across streams; stream sequence numbers are assigned when a message
//! leaves its queue, and the message is then fragmented to fit a DATA chunk (§6.9).
//! Lifetimes (RFC 9260 §11.1 E "life time"; RFC 3758) drop messages that expire in the queue.

use std::collections::{BTreeMap, VecDeque};

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::Ssn;

use super::api::MessageId;

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

/// Per-stream queues of outbound messages.
#[derive(Debug, Clone, Default)]
pub struct SendQueue {
    /// Non-empty queues only, by stream.
    queues: BTreeMap<u16, VecDeque<PendingMessage>>,
    /// The next SSN of each outbound stream (RFC 9260 §6.6: starting at 0).
    next_ssn: Vec<Ssn>,
    /// Round-robin position: the stream served last.
    cursor: Option<u16>,
    bytes: usize,
    messages: usize,
    /// Queued messages with a lifetime: without any, [`SendQueue::earliest_expiry`] need not
    /// scan the queues (it is asked after every packet, and a backlogged sender's queue is long).
    with_lifetime: usize,
}

impl SendQueue {
    /// A queue for `streams` outbound streams.
    pub fn new(streams: u16) -> Self {
        SendQueue {
            next_ssn: vec![Ssn(0); usize::from(streams)],
            ..SendQueue::default()
        }
    }

    /// Changes the number of outbound streams after negotiation. Streams that existed keep
    /// their next SSN; new ones start at 0. A second negotiation in one association (a new INIT
    /// after a Stale Cookie error, RFC 9260 §5.2.6) must not hand out an SSN again: DATA
    /// bundled with the first COOKIE ECHO already used it and stays outstanding under its TSN,
    /// and the receiver would take a second message with that SSN for an old one and drop it.
    pub fn set_streams(&mut self, streams: u16) {
        self.next_ssn.resize(usize::from(streams), Ssn(0));
    }

    /// Every outbound stream's next SSN back to 0: the peer restarted (RFC 9260 §5.2.4) and its
    /// new TCB expects SSN 0 on every stream.
    pub fn restart_ssns(&mut self) {
        self.next_ssn.fill(Ssn(0));
    }

    /// Number of outbound streams.
    pub fn streams(&self) -> u16 {
        u16::try_from(self.next_ssn.len()).unwrap_or(u16::MAX)
    }

    /// User bytes queued.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Messages queued.
    pub fn len(&self) -> usize {
        self.messages
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.messages == 0
    }

    /// Appends a message to its stream's queue.
    pub fn push(&mut self, msg: PendingMessage) {
        self.bytes += msg.data.len();
        self.messages += 1;
        self.with_lifetime += usize::from(msg.expires.is_some());
        self.queues.entry(msg.stream).or_default().push_back(msg);
    }

    /// The stream the next [`SendQueue::pop`] serves (round-robin after the last one served).
    fn next_stream(&self) -> Option<u16> {
        match self.cursor {
            Some(c) => self
                .queues
                .range(c.saturating_add(1)..)
                .next()
                .filter(|_| c < u16::MAX)
                .or_else(|| self.queues.iter().next())
                .map(|(s, _)| *s),
            None => self.queues.keys().next().copied(),
        }
    }

    /// The length of the message [`SendQueue::pop`] would return.
    pub fn peek_len(&self) -> Option<usize> {
        let stream = self.next_stream()?;
        self.queues.get(&stream)?.front().map(|m| m.data.len())
    }

    /// Takes the next message, round-robin over the streams, and gives an ordered message the
    /// stream's next SSN (unordered messages get SSN 0 and do not consume one, RFC 9260
    /// §3.3.1: the SSN "is ignored" when the U bit is set).
    pub fn pop(&mut self) -> Option<(PendingMessage, Ssn)> {
        let stream = self.next_stream()?;
        let queue = self.queues.get_mut(&stream)?;
        let msg = queue.pop_front()?;
        if queue.is_empty() {
            self.queues.remove(&stream);
        }
        self.cursor = Some(stream);
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

    /// Removes and returns the messages whose lifetime ended at or before `now`.
    pub fn drop_expired(&mut self, now: SimTime) -> Vec<PendingMessage> {
        let mut dropped = Vec::new();
        for queue in self.queues.values_mut() {
            queue.retain(|m| {
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
            .flat_map(|q| q.iter().filter_map(|m| m.expires))
            .min()
    }

    /// Removes everything; returns the number of messages discarded.
    pub fn clear(&mut self) -> usize {
        let n = self.messages;
        self.queues.clear();
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
}
