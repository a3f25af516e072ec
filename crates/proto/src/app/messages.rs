//! The message application of SCTP flows: a [`MessageSource`] that hands messages to an
//! association (backlogged `ftp`, a `file` of N bytes, or paced multi-stream `messages`) and a
//! [`MessageSink`] that checks every delivered message and measures its delay per stream.
//!
//! Both are sans-IO: the source is called with the time and the association whenever the
//! application may act (the association's buffer freed, a paced message fell due) and says when
//! it wants to be called again; the sink is given each message the association delivers.
//!
//! Every message starts with a [`SeqTsHeader`] (message sequence number, time the application
//! handed it over); the remaining bytes are a pattern derived from the sequence number, so the
//! sink detects corrupted, duplicated, lost-then-reordered and misrouted messages without
//! keeping copies. Message `k` goes to stream `k mod streams`.

use std::collections::BTreeMap;

use sctpsim_kernel::{BitRate, SimDuration, SimTime};

use super::header::SeqTsHeader;
use crate::transport::sctp::{Message, SctpAssociation, SendError};

/// Payload protocol identifier of the messages: 0, "reserved by SCTP" / unspecified
/// (RFC 9260 §3.3.1, IANA "SCTP Payload Protocol Identifiers").
pub const PPID: u32 = 0;

/// The filler byte at offset `i` (≥ 12) of message `seq`.
#[inline]
fn pattern(seq: u32, i: usize) -> u8 {
    ((seq as usize).wrapping_mul(7).wrapping_add(i) % 251) as u8
}

/// `pattern(seq, i)` for `i = from, from + 1, …`: one division for the first byte, then a
/// counter that wraps at 251 (the per-byte `%` was a tenth of a backlogged SCTP run).
fn patterns(seq: u32, from: usize) -> impl Iterator<Item = u8> {
    let mut v = pattern(seq, from);
    std::iter::repeat_with(move || {
        let b = v;
        v = if v == 250 { 0 } else { v + 1 };
        b
    })
}

/// Message `seq` of `len` bytes (at least the header) handed over at `sent_at`: what the
/// source sends and the sink expects.
pub fn make_message(seq: u32, sent_at: SimTime, len: usize) -> Vec<u8> {
    let len = len.max(SeqTsHeader::LEN);
    let mut v = vec![0u8; len];
    SeqTsHeader { seq, sent_at }.emit(&mut v);
    for (b, p) in v[SeqTsHeader::LEN..]
        .iter_mut()
        .zip(patterns(seq, SeqTsHeader::LEN))
    {
        *b = p;
    }
    v
}

/// What a [`MessageSource`] sends.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageSourceConfig {
    /// Bytes per message (at least the 12-byte header; the last message of a file may differ).
    pub message_bytes: usize,
    /// Streams, round-robin.
    pub streams: u16,
    /// U bit on every message.
    pub unordered: bool,
    /// PR-SCTP lifetime of every message.
    pub lifetime: Option<SimDuration>,
    /// Paced at this payload rate; `None`: backlogged (as much as the send buffer takes).
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
pub struct MessageSource {
    cfg: MessageSourceConfig,
    /// Index of the next message.
    next: u64,
    /// Payload bytes handed to the association.
    offered: u64,
    /// A paced message the send buffer refused, with its stream.
    held: Option<(Vec<u8>, u16)>,
    /// Messages handed over per stream.
    sent_per_stream: Vec<u64>,
    /// Messages abandoned per stream (PR-SCTP, `SendFailed`).
    abandoned_per_stream: Vec<u64>,
    /// Nothing more will be handed over.
    finished: bool,
}

impl MessageSource {
    /// A source that has sent nothing yet.
    pub fn new(cfg: MessageSourceConfig) -> Self {
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

    /// The configuration.
    pub fn config(&self) -> &MessageSourceConfig {
        &self.cfg
    }

    /// Whether the source will hand over nothing more (its budget is spent, it passed `stop`,
    /// or the association refused a message for good).
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Messages handed over, per stream.
    pub fn sent_per_stream(&self) -> &[u64] {
        &self.sent_per_stream
    }

    /// Messages abandoned (reported by [`MessageSource::abandoned`]), per stream.
    pub fn abandoned_per_stream(&self) -> &[u64] {
        &self.abandoned_per_stream
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
    /// next paced message still to come (call again then); `None` when the next call should
    /// follow the association (its buffer freed) or the source is finished.
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

    /// A message of `stream` was abandoned (RFC 3758; the association's `SendFailed`).
    pub fn abandoned(&mut self, stream: u16) {
        if let Some(c) = self.abandoned_per_stream.get_mut(usize::from(stream)) {
            *c += 1;
        }
    }
}

/// Delivery figures of one stream.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamRx {
    /// Messages delivered.
    pub messages: u64,
    /// Payload bytes delivered.
    pub bytes: u64,
    /// Delay (delivery − hand-over) of every delivered message, ns.
    pub delays: Vec<u64>,
    /// Sum of the delays of messages delivered since the last
    /// [`MessageSink::take_intervals`], and their number.
    interval: (u128, u64),
}

/// Totals of a [`MessageSink`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageSinkStats {
    /// Payload bytes delivered.
    pub bytes: u64,
    /// Messages delivered.
    pub messages: u64,
    /// Messages delivered after one with a higher sequence number.
    pub reordered: u64,
    /// Messages that were corrupted, duplicated, on the wrong stream or out of order on an
    /// ordered stream (0 for a correct transport).
    pub errors: u64,
    /// Messages lost to the application: sequence numbers of an ordered stream below the
    /// highest one delivered on it that were never delivered. Counted per stream because on
    /// another stream a lower sequence number may still be in flight; on an ordered stream
    /// it cannot come any more. 0 for a correct transport without PR-SCTP abandonment.
    pub missing: u64,
}

/// The receiving application: checks and measures every message.
#[derive(Clone, Debug)]
pub struct MessageSink {
    streams: u16,
    /// Per stream.
    rx: BTreeMap<u16, StreamRx>,
    /// Highest sequence number delivered per ordered stream.
    last_ordered: BTreeMap<u16, u32>,
    /// Sequence numbers delivered (bit set).
    seen: Vec<u64>,
    max_seq: Option<u32>,
    /// Per stream (`seq % streams`, the stream a sequence number belongs to): the highest
    /// sequence number delivered ordered and the number of distinct ones delivered ordered,
    /// from which [`MessageSinkStats::missing`] follows.
    ordered_span: BTreeMap<u16, (u32, u64)>,
    stats: MessageSinkStats,
}

impl MessageSink {
    /// A sink for messages sent round-robin over `streams` streams.
    pub fn new(streams: u16) -> Self {
        MessageSink {
            streams: streams.max(1),
            rx: BTreeMap::new(),
            last_ordered: BTreeMap::new(),
            seen: Vec::new(),
            max_seq: None,
            ordered_span: BTreeMap::new(),
            stats: MessageSinkStats::default(),
        }
    }

    /// The totals.
    pub fn stats(&self) -> &MessageSinkStats {
        &self.stats
    }

    /// The figures of every stream that delivered something, by stream.
    pub fn streams(&self) -> &BTreeMap<u16, StreamRx> {
        &self.rx
    }

    /// A message delivered by the association at `now`.
    pub fn deliver(&mut self, now: SimTime, m: &Message) {
        self.stats.messages += 1;
        self.stats.bytes += m.data.len() as u64;
        let rx = self.rx.entry(m.stream).or_default();
        rx.messages += 1;
        rx.bytes += m.data.len() as u64;
        let Some(h) = SeqTsHeader::parse(&m.data) else {
            self.stats.errors += 1;
            return;
        };
        let delay = now.saturating_since(h.sent_at).as_nanos();
        rx.delays.push(delay);
        rx.interval.0 += u128::from(delay);
        rx.interval.1 += 1;
        let intact = m
            .data
            .get(SeqTsHeader::LEN..)
            .unwrap_or(&[])
            .iter()
            .zip(patterns(h.seq, SeqTsHeader::LEN))
            .all(|(b, p)| *b == p);
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
            self.stats.errors += 1;
        }
        if !m.unordered && !duplicate {
            self.count_missing(h.seq);
        }
        match self.max_seq {
            Some(max) if h.seq < max => self.stats.reordered += 1,
            _ => self.max_seq = Some(h.seq),
        }
    }

    /// Updates [`MessageSinkStats::missing`] for a new sequence number delivered ordered. The
    /// sequence numbers of stream `k` are `k, k + streams, ...`, so up to its highest one `h`
    /// there are `h / streams + 1`; those not among the distinct ones delivered are missing.
    fn count_missing(&mut self, seq: u32) {
        let streams = u32::from(self.streams);
        let home = (seq % streams) as u16;
        let expected = |max: u32| u64::from(max / streams) + 1;
        let (max, distinct) = self.ordered_span.entry(home).or_insert((seq, 0));
        // A stream's first delivery has nothing missing before it is counted.
        let before = if *distinct == 0 {
            0
        } else {
            expected(*max).saturating_sub(*distinct)
        };
        *max = (*max).max(seq);
        *distinct += 1;
        let after = expected(*max).saturating_sub(*distinct);
        self.stats.missing = (self.stats.missing + after).saturating_sub(before);
    }

    /// Per stream, the sum of the delays (ns) of the messages delivered since the previous call
    /// and their number, resetting both: the means of a sampling interval. Streams that
    /// delivered nothing since give `(stream, 0, 0)`.
    pub fn take_intervals(&mut self) -> impl Iterator<Item = (u16, u128, u64)> + '_ {
        self.rx.iter_mut().map(|(stream, rx)| {
            let (sum, n) = std::mem::take(&mut rx.interval);
            (*stream, sum, n)
        })
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

#[cfg(test)]
mod test {

    #[test]
    fn running_pattern_equals_the_formula() {
        for seq in [0u32, 1, 35, 250, 251, 70_000, u32::MAX] {
            let run: Vec<u8> = patterns(seq, 12).take(1_000).collect();
            let direct: Vec<u8> = (12..1_012).map(|i| pattern(seq, i)).collect();
            assert_eq!(run, direct, "seq {seq}");
        }
    }

    use std::net::Ipv4Addr;

    use super::*;
    use crate::transport::sctp::{SctpConfig, SctpEndpoint, State};
    use sctpsim_kernel::Rng;
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

    fn backlogged(total_bytes: Option<u64>) -> MessageSourceConfig {
        MessageSourceConfig {
            message_bytes: 100,
            streams: 1,
            unordered: false,
            lifetime: None,
            rate: None,
            start: SimTime::ZERO,
            stop: None,
            total_bytes,
            count: None,
        }
    }

    /// A new association of `ep`, in COOKIE-WAIT: it already queues user data (RFC 9260 §5.1).
    fn association(ep: &mut SctpEndpoint) -> crate::transport::sctp::AssocHandle {
        ep.connect(SimTime::ZERO, &[Ipv4Addr::new(10, 0, 0, 2)], 80)
    }

    /// An endpoint whose associations have a send buffer of `send_buffer` bytes and `streams`
    /// outbound streams.
    fn endpoint(send_buffer: usize, streams: u16) -> SctpEndpoint {
        let cfg = SctpConfig {
            send_buffer,
            outbound_streams: streams,
            ..SctpConfig::rfc9260()
        };
        SctpEndpoint::new(
            cfg,
            5000,
            vec![Ipv4Addr::new(10, 0, 0, 1)],
            Rng::from_seed(1),
        )
    }

    #[test]
    fn sink_accepts_good_messages_and_flags_bad_ones() {
        let mut s = MessageSink::new(2);
        let t0 = SimTime(1_000);
        s.deliver(SimTime(5_000), &msg(0, false, make_message(0, t0, 100)));
        s.deliver(SimTime(6_000), &msg(1, false, make_message(1, t0, 100)));
        s.deliver(SimTime(7_000), &msg(0, false, make_message(2, t0, 100)));
        let st = s.stats();
        assert_eq!((st.messages, st.errors, st.reordered), (3, 0, 0));
        // Duplicate, wrong stream, corrupted, out of order on an ordered stream.
        s.deliver(SimTime(8_000), &msg(0, false, make_message(2, t0, 100)));
        s.deliver(SimTime(8_000), &msg(0, false, make_message(3, t0, 100)));
        let mut bad = make_message(5, t0, 100);
        bad[50] ^= 1;
        s.deliver(SimTime(8_000), &msg(1, false, bad));
        s.deliver(SimTime(8_000), &msg(1, false, make_message(1, t0, 100)));
        assert_eq!(s.stats().errors, 4);
        assert_eq!(s.streams()[&0].delays[0], 4_000);
        // A message too short for the header is an error with no delay.
        s.deliver(SimTime(9_000), &msg(0, false, vec![1, 2, 3]));
        assert_eq!(s.stats().errors, 5);
        assert_eq!(s.stats().messages, 8);
        // Unordered messages may arrive in any order.
        let mut u = MessageSink::new(1);
        u.deliver(t0, &msg(0, true, make_message(4, t0, 20)));
        u.deliver(t0, &msg(0, true, make_message(3, t0, 20)));
        assert_eq!((u.stats().errors, u.stats().reordered), (0, 1));
    }

    #[test]
    fn missing_counts_holes_below_the_highest_ordered_sequence_number_per_stream() {
        let t0 = SimTime(1_000);
        let mut s = MessageSink::new(2);
        // Stream 0 carries 0, 2, 4, ...; stream 1 carries 1, 3, 5, ...
        for seq in [0, 1, 2, 3] {
            s.deliver(t0, &msg((seq % 2) as u16, false, make_message(seq, t0, 40)));
        }
        assert_eq!(s.stats().missing, 0);
        // Stream 0 jumps from 2 to 8: 4 and 6 are lost. Stream 1 has not gone past 3, so 5
        // and 7 may still come (they are not missing).
        s.deliver(t0, &msg(0, false, make_message(8, t0, 40)));
        assert_eq!(s.stats().missing, 2);
        // A late 4 (an ordering error) fills one hole; a duplicate of 8 changes nothing.
        s.deliver(t0, &msg(0, false, make_message(4, t0, 40)));
        s.deliver(t0, &msg(0, false, make_message(8, t0, 40)));
        assert_eq!(s.stats().missing, 1);
        // Stream 1 skips 5: one more.
        s.deliver(t0, &msg(1, false, make_message(7, t0, 40)));
        assert_eq!(s.stats().missing, 2);
        // Sequence number 0 never delivered on a single stream: one missing below 1.
        let mut one = MessageSink::new(1);
        one.deliver(t0, &msg(0, false, make_message(1, t0, 40)));
        assert_eq!(one.stats().missing, 1);
        // Unordered messages are not counted: a lower one may still arrive.
        let mut u = MessageSink::new(1);
        u.deliver(t0, &msg(0, true, make_message(5, t0, 40)));
        assert_eq!(u.stats().missing, 0);
    }

    #[test]
    fn intervals_are_taken_and_reset() {
        let mut s = MessageSink::new(2);
        s.deliver(SimTime(10), &msg(0, false, make_message(0, SimTime(0), 20)));
        s.deliver(SimTime(30), &msg(0, false, make_message(2, SimTime(0), 20)));
        s.deliver(SimTime(7), &msg(1, false, make_message(1, SimTime(0), 20)));
        let first: Vec<_> = s.take_intervals().collect();
        assert_eq!(first, vec![(0, 40, 2), (1, 7, 1)]);
        let second: Vec<_> = s.take_intervals().collect();
        assert_eq!(second, vec![(0, 0, 0), (1, 0, 0)]);
        assert_eq!(s.mean_delay_s(), Some(47.0 / 3.0 / 1e9));
    }

    #[test]
    fn file_tail_joins_the_last_message() {
        let mut src = MessageSource::new(MessageSourceConfig {
            total_bytes: Some(205),
            ..backlogged(None)
        });
        assert_eq!(src.next_size(), Some(100));
        src.offered = 100;
        assert_eq!(src.next_size(), Some(105));
        src.offered = 205;
        assert_eq!(src.next_size(), None);
    }

    #[test]
    fn a_file_fills_the_send_buffer_then_finishes() {
        let mut ep = endpoint(1000, 1);
        let h = association(&mut ep);
        let a = ep.assoc_mut(h).expect("in the table");
        assert_eq!(a.state(), State::CookieWait);
        let mut src = MessageSource::new(backlogged(Some(1050)));
        // Ten 100-byte messages fill the 1000-byte buffer; the source waits for the
        // association, not for a time.
        assert_eq!(src.fill(SimTime::ZERO, a), None);
        assert_eq!(src.sent_per_stream(), &[10]);
        assert!(!src.is_finished());
        assert_eq!(a.send_buffer_space(), 0);
        // Nothing fits: nothing changes.
        assert_eq!(src.fill(SimTime::ZERO, a), None);
        assert_eq!(src.sent_per_stream(), &[10]);
        // The association closes: the tail is refused and the source stops.
        a.abort(SimTime::ZERO, b"");
        assert_eq!(src.fill(SimTime::ZERO, a), None);
        assert!(src.is_finished());
        assert_eq!(src.sent_per_stream(), &[10]);
    }

    #[test]
    fn paced_messages_fall_due_on_time_round_robin() {
        let mut ep = endpoint(1 << 20, 3);
        let h = association(&mut ep);
        let a = ep.assoc_mut(h).expect("in the table");
        // 100 bytes at 8 kbit/s: one message every 100 ms from t = 1 s, until t = 1.45 s.
        let mut src = MessageSource::new(MessageSourceConfig {
            streams: 3,
            rate: Some(BitRate(8_000)),
            start: SimTime::ZERO + SimDuration::from_secs(1),
            stop: Some(SimTime::ZERO + SimDuration::from_millis(1450)),
            ..backlogged(None)
        });
        let ms = |v: u64| SimTime::ZERO + SimDuration::from_millis(v);
        assert_eq!(src.fill(SimTime::ZERO, a), Some(ms(1000)));
        assert_eq!(src.fill(ms(1000), a), Some(ms(1100)));
        // Late: the messages due by now go at once (with their due time as hand-over time).
        assert_eq!(src.fill(ms(1250), a), Some(ms(1300)));
        assert_eq!(src.sent_per_stream(), &[1, 1, 1]);
        assert_eq!(src.fill(ms(1450), a), None);
        assert!(src.is_finished());
        assert_eq!(src.sent_per_stream(), &[2, 2, 1]);
        src.abandoned(1);
        src.abandoned(7); // no such stream: ignored
        assert_eq!(src.abandoned_per_stream(), &[0, 1, 0]);
    }
}
