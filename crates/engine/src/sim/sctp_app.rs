//! The applications of SCTP flows: a message source at the flow's `src` (backlogged `ftp`, a
//! `file` of N bytes, or the paced multi-stream `messages` source) and a message sink at `dst`
//! that checks every delivered message and measures its delay per stream.
//!
//! Every message starts with a [`SeqTsHeader`] (message sequence number, time the application
//! handed it over); the remaining bytes are a pattern derived from the sequence number, so the
//! sink detects corrupted, duplicated, lost-then-reordered and misrouted messages without
//! keeping copies. Message `k` goes to stream `k mod streams`.

use sctpsim_kernel::{BitRate, SimDuration, SimTime};
use sctpsim_proto::app::SeqTsHeader;
use sctpsim_proto::transport::sctp::{Message, SctpAssociation, SendError};
use std::collections::BTreeMap;

/// Payload protocol identifier of the messages: 0, "reserved by SCTP" / unspecified
/// (RFC 9260 §3.3.1, IANA "SCTP Payload Protocol Identifiers").
const PPID: u32 = 0;

/// The filler byte at offset `i` (≥ 12) of message `seq`.
#[inline]
fn pattern(seq: u32, i: usize) -> u8 {
    ((seq as usize).wrapping_mul(7).wrapping_add(i) % 251) as u8
}

/// Message `seq` of `len` bytes (at least the header) handed over at `sent_at`.
fn make_message(seq: u32, sent_at: SimTime, len: usize) -> Vec<u8> {
    let len = len.max(SeqTsHeader::LEN);
    let mut v = vec![0u8; len];
    SeqTsHeader { seq, sent_at }.emit(&mut v);
    for (i, b) in v.iter_mut().enumerate().skip(SeqTsHeader::LEN) {
        *b = pattern(seq, i);
    }
    v
}

/// What a source is configured to send.
#[derive(Clone, Debug)]
pub(super) struct SourceConfig {
    /// Bytes per message (the last message of a file may differ).
    pub message_bytes: usize,
    /// Streams, round-robin.
    pub streams: u16,
    /// U bit on every message.
    pub unordered: bool,
    /// PR-SCTP lifetime of every message.
    pub lifetime: Option<SimDuration>,
    /// Paced at this payload rate; `None`: backlogged.
    pub rate: Option<BitRate>,
    /// First message.
    pub start: SimTime,
    /// No message at or after this time.
    pub stop: Option<SimTime>,
    /// Total payload (`file`).
    pub total_bytes: Option<u64>,
    /// Total messages.
    pub count: Option<u64>,
}

/// The sending application.
#[derive(Clone, Debug)]
pub(super) struct MessageSource {
    pub cfg: SourceConfig,
    /// Index of the next message.
    next: u64,
    /// Payload bytes handed to the association.
    offered: u64,
    /// A paced message the send buffer refused, with its stream.
    held: Option<(Vec<u8>, u16)>,
    /// Messages handed over per stream.
    pub sent_per_stream: Vec<u64>,
    /// Messages abandoned per stream (PR-SCTP, `SendFailed`).
    pub abandoned_per_stream: Vec<u64>,
    /// Nothing more will be handed over.
    pub finished: bool,
}

impl MessageSource {
    pub fn new(cfg: SourceConfig) -> Self {
        let n = usize::from(cfg.streams.max(1));
        MessageSource {
            cfg,
            next: 0,
            offered: 0,
            held: None,
            sent_per_stream: vec![0; n],
            abandoned_per_stream: vec![0; n],
            finished: false,
        }
    }

    /// When message `k` is due (paced sources; exact in integer ns from `k`).
    fn due(&self, k: u64) -> SimTime {
        match self.cfg.rate {
            Some(rate) => {
                let bits = u128::from(k) * self.cfg.message_bytes as u128 * 8 * 1_000_000_000;
                let ns = bits / u128::from(rate.bps().max(1));
                SimTime(
                    self.cfg
                        .start
                        .0
                        .saturating_add(u64::try_from(ns).unwrap_or(u64::MAX)),
                )
            }
            None => self.cfg.start,
        }
    }

    /// Size of the next message, or `None` when the budget is spent. A file's tail shorter
    /// than the header joins the message before it (which the association then fragments).
    fn next_size(&self) -> Option<usize> {
        if self.cfg.count.is_some_and(|c| self.next >= c) {
            return None;
        }
        let m = self.cfg.message_bytes.max(SeqTsHeader::LEN);
        match self.cfg.total_bytes {
            None => Some(m),
            Some(total) => {
                let left = total.saturating_sub(self.offered);
                if left == 0 {
                    return None;
                }
                let left = usize::try_from(left).unwrap_or(usize::MAX);
                if left <= m || left - m < SeqTsHeader::LEN {
                    Some(left)
                } else {
                    Some(m)
                }
            }
        }
    }

    fn stream_of(&self, k: u64) -> u16 {
        (k % u64::from(self.cfg.streams.max(1))) as u16
    }

    /// Hands every message that is due at `now` and fits to `assoc`. Returns the time of the
    /// next paced message still to come (the engine wakes the application then).
    pub fn fill(&mut self, now: SimTime, assoc: &mut SctpAssociation) -> Option<SimTime> {
        if self.finished || now < self.cfg.start {
            return (!self.finished).then_some(self.cfg.start);
        }
        loop {
            let (data, stream) = match self.held.take() {
                Some(h) => h,
                None => {
                    let Some(size) = self.next_size() else {
                        self.finished = true;
                        return None;
                    };
                    let due = self.due(self.next);
                    if self.cfg.stop.is_some_and(|s| due >= s) {
                        self.finished = true;
                        return None;
                    }
                    if due > now {
                        return Some(due);
                    }
                    let space = assoc.send_buffer_space();
                    if self.cfg.rate.is_none() && space < size && space < assoc.config().send_buffer
                    {
                        // Backlogged: wait until acknowledgements free the buffer.
                        return None;
                    }
                    let sent_at = if self.cfg.rate.is_some() { due } else { now };
                    let seq = self.next as u32;
                    (make_message(seq, sent_at, size), self.stream_of(self.next))
                }
            };
            let len = data.len();
            // `send` refuses a message that does not fit a non-empty buffer; check first so
            // the message can be kept for later without a copy.
            let space = assoc.send_buffer_space();
            if space < len && space < assoc.config().send_buffer {
                self.held = Some((data, stream));
                return None;
            }
            match assoc.send(
                now,
                data,
                stream,
                self.cfg.unordered,
                self.cfg.lifetime,
                PPID,
            ) {
                Ok(_) => {
                    self.next += 1;
                    self.offered += len as u64;
                    if let Some(c) = self.sent_per_stream.get_mut(usize::from(stream)) {
                        *c += 1;
                    }
                }
                Err(SendError::BufferFull) => {
                    // Not reached (checked above); the message is dropped and retried as new.
                    return None;
                }
                Err(_) => {
                    // Closed or shutting down: the application stops.
                    self.finished = true;
                    return None;
                }
            }
        }
    }

    /// A message of `stream` was abandoned (RFC 3758).
    pub fn abandoned(&mut self, stream: u16) {
        if let Some(c) = self.abandoned_per_stream.get_mut(usize::from(stream)) {
            *c += 1;
        }
    }
}

/// Delivery figures of one stream.
#[derive(Clone, Debug, Default)]
pub(super) struct StreamRx {
    /// Messages delivered.
    pub messages: u64,
    /// Payload bytes delivered.
    pub bytes: u64,
    /// Delay (delivery − hand-over) of every delivered message, ns.
    pub delays: Vec<u64>,
    /// Sum of the delays of messages delivered since the last sample, and their number.
    pub interval: (u128, u64),
}

/// The receiving application: checks and measures every message.
#[derive(Clone, Debug)]
pub(super) struct MessageSink {
    streams: u16,
    /// Per stream.
    pub rx: BTreeMap<u16, StreamRx>,
    /// Highest sequence number delivered per ordered stream.
    last_ordered: BTreeMap<u16, u32>,
    /// Sequence numbers delivered (bit set).
    seen: Vec<u64>,
    max_seq: Option<u32>,
    /// Payload bytes delivered.
    pub bytes: u64,
    /// Messages delivered.
    pub messages: u64,
    /// Messages delivered after one with a higher sequence number.
    pub reordered: u64,
    /// Messages that were corrupted, duplicated, on the wrong stream or out of order on an
    /// ordered stream (0 for a correct transport).
    pub errors: u64,
}

impl MessageSink {
    pub fn new(streams: u16) -> Self {
        MessageSink {
            streams: streams.max(1),
            rx: BTreeMap::new(),
            last_ordered: BTreeMap::new(),
            seen: Vec::new(),
            max_seq: None,
            bytes: 0,
            messages: 0,
            reordered: 0,
            errors: 0,
        }
    }

    /// A message delivered by the association at `now`.
    pub fn deliver(&mut self, now: SimTime, m: &Message) {
        self.messages += 1;
        self.bytes += m.data.len() as u64;
        let rx = self.rx.entry(m.stream).or_default();
        rx.messages += 1;
        rx.bytes += m.data.len() as u64;
        let Some(h) = SeqTsHeader::parse(&m.data) else {
            self.errors += 1;
            return;
        };
        let delay = now.saturating_since(h.sent_at).as_nanos();
        rx.delays.push(delay);
        rx.interval.0 += u128::from(delay);
        rx.interval.1 += 1;
        let intact = m
            .data
            .iter()
            .enumerate()
            .skip(SeqTsHeader::LEN)
            .all(|(i, b)| *b == pattern(h.seq, i));
        let right_stream = u64::from(h.seq) % u64::from(self.streams) == u64::from(m.stream);
        let (word, bit) = (h.seq as usize / 64, h.seq % 64);
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        let duplicate = self.seen[word] & (1 << bit) != 0;
        self.seen[word] |= 1 << bit;
        let in_order = m.unordered
            || match self.last_ordered.insert(m.stream, h.seq) {
                Some(prev) => h.seq > prev,
                None => true,
            };
        if !(intact && right_stream && !duplicate && in_order) {
            self.errors += 1;
        }
        match self.max_seq {
            Some(max) if h.seq < max => self.reordered += 1,
            _ => self.max_seq = Some(h.seq),
        }
    }

    /// Mean delay over all delivered messages, s.
    pub fn mean_delay_s(&self) -> Option<f64> {
        let (sum, n) = self.rx.values().fold((0u128, 0u64), |(s, n), r| {
            (
                s + r.delays.iter().map(|&d| u128::from(d)).sum::<u128>(),
                n + r.delays.len() as u64,
            )
        });
        (n > 0).then(|| sum as f64 / n as f64 / 1e9)
    }
}

/// The `q`-quantile (0–1, nearest rank) of `v`, in seconds.
pub(super) fn quantile_s(v: &[u64], q: f64) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    Some(s[rank - 1] as f64 / 1e9)
}

#[cfg(test)]
mod test {
    use super::*;
    use sctpsim_wire::sctp::Ssn;

    fn msg(stream: u16, unordered: bool, data: Vec<u8>) -> Message {
        Message {
            stream,
            ssn: Ssn(0),
            ppid: PPID,
            unordered,
            data,
        }
    }

    #[test]
    fn sink_accepts_good_messages_and_flags_bad_ones() {
        let mut s = MessageSink::new(2);
        let t0 = SimTime(1_000);
        s.deliver(SimTime(5_000), &msg(0, false, make_message(0, t0, 100)));
        s.deliver(SimTime(6_000), &msg(1, false, make_message(1, t0, 100)));
        s.deliver(SimTime(7_000), &msg(0, false, make_message(2, t0, 100)));
        assert_eq!((s.messages, s.errors, s.reordered), (3, 0, 0));
        // Duplicate, wrong stream, corrupted, out of order on an ordered stream.
        s.deliver(SimTime(8_000), &msg(0, false, make_message(2, t0, 100)));
        s.deliver(SimTime(8_000), &msg(0, false, make_message(3, t0, 100)));
        let mut bad = make_message(5, t0, 100);
        bad[50] ^= 1;
        s.deliver(SimTime(8_000), &msg(1, false, bad));
        s.deliver(SimTime(8_000), &msg(1, false, make_message(1, t0, 100)));
        assert_eq!(s.errors, 4);
        assert_eq!(s.rx[&0].delays[0], 4_000);
        // Unordered messages may arrive in any order.
        let mut u = MessageSink::new(1);
        u.deliver(t0, &msg(0, true, make_message(4, t0, 20)));
        u.deliver(t0, &msg(0, true, make_message(3, t0, 20)));
        assert_eq!((u.errors, u.reordered), (0, 1));
    }

    #[test]
    fn file_tail_joins_the_last_message_and_quantiles() {
        let mut src = MessageSource::new(SourceConfig {
            message_bytes: 100,
            streams: 1,
            unordered: false,
            lifetime: None,
            rate: None,
            start: SimTime::ZERO,
            stop: None,
            total_bytes: Some(205),
            count: None,
        });
        assert_eq!(src.next_size(), Some(100));
        src.offered = 100;
        assert_eq!(src.next_size(), Some(105));
        src.offered = 205;
        assert_eq!(src.next_size(), None);
        assert_eq!(quantile_s(&[3, 1, 2, 4], 0.5), Some(2e-9));
        assert_eq!(quantile_s(&[], 0.5), None);
    }
}
