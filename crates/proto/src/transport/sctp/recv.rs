//! The receiver (RFC 9260 §6.2, §6.5, §6.6, §6.9): the TSN map (cumulative point plus the TSNs
//! received above it), duplicate TSNs, Gap Ack Blocks, the delayed-SACK decision, the
//! advertised receive window, reassembly of fragments and per-stream delivery (ordered by SSN,
//! unordered at once). Receiving a FORWARD TSN (RFC 3758 §3.6) also lands here
//! ([`RecvState::forward`]). I-DATA chunks (RFC 8260 §2.1) share the TSN map and window;
//! their fragments are reassembled by stream, U bit and MID in FSN order, whatever their TSNs
//! ([`RecvState::receive_i_data`]), and ordered messages are delivered in MID order.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use sctpsim_wire::sctp::{
    DataChunk, ForwardTsnStream, GapAckBlock, IDataChunk, IForwardTsnStream, Mid, SackChunk, Ssn,
    Tsn,
};

use super::api::Message;
use super::config::SctpConfig;

/// RFC 9260 §3.3.4: Gap Ack Block offsets are 16-bit, so the receiver keeps at most this many
/// TSNs above its cumulative point (a DATA chunk further ahead is dropped unacknowledged).
pub const MAX_TSN_AHEAD: u64 = 65_535;

/// Duplicate TSNs remembered between two SACKs (a bound on memory; RFC 9260 puts no limit on the
/// list, the SACK carries what fits the PMTU).
const MAX_DUPS: usize = 4096;

/// What became of one received DATA chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataVerdict {
    /// A new TSN, accepted.
    New,
    /// The TSN had been received before (reported in the next SACK).
    Duplicate,
    /// No room in the receive buffer (RFC 9260 §6.2): dropped, not acknowledged.
    NoRoom,
    /// A new TSN for a stream that does not exist (RFC 9260 §6.5): acknowledged, data
    /// discarded, an ERROR is due.
    InvalidStream,
    /// Further ahead of the cumulative point than a SACK can express: dropped.
    TooFarAhead,
}

/// One inbound stream.
#[derive(Debug, Clone, Default)]
struct InStream {
    next_ssn: Ssn,
    /// Complete ordered messages waiting for earlier SSNs, by SSN.
    pending: BTreeMap<u16, Message>,
    /// I-DATA: the MID of the next ordered message to deliver (RFC 8260 §2.1).
    next_mid: Mid,
    /// I-DATA: complete ordered messages waiting for earlier MIDs, by MID.
    pending_mid: BTreeMap<u32, Message>,
}

/// I-DATA: the fragments of one message received so far (RFC 8260 §2.1).
#[derive(Debug, Clone, Default)]
struct IReassembly {
    /// User data by FSN.
    frags: BTreeMap<u32, Vec<u8>>,
    /// The PPID, once the first fragment (B bit, FSN 0) is in.
    ppid: Option<u32>,
    /// The FSN of the last fragment (E bit), once it is in.
    last: Option<u32>,
}

/// I-DATA reassembly key: stream, U bit, MID.
type IKey = (u16, bool, u32);

/// The receiver's state.
#[derive(Debug, Clone)]
pub struct RecvState {
    peer_initial_tsn: Tsn,
    /// Every index below is received (exclusive cumulative point).
    cum_idx: u64,
    /// Indices received above the cumulative point.
    above: BTreeSet<u64>,
    /// Highest index received (exclusive), for the §6.2 drop rule.
    highest_idx: u64,
    /// Received chunks not yet assembled into messages.
    fragments: BTreeMap<u64, DataChunk>,
    /// I-DATA: messages being reassembled.
    i_reasm: BTreeMap<IKey, IReassembly>,
    streams: Vec<InStream>,
    ready: VecDeque<Message>,
    /// Bytes held: fragments, pending ordered messages, messages not yet read.
    held: usize,
    buffer: u32,
    dups: Vec<Tsn>,
    /// Packets with new DATA since the last SACK.
    unacked_packets: u32,
    /// CMT's Delayed ACK (Iyengar, Amer & Stewart 2006 §3.3): out-of-order data does not force
    /// an immediate SACK, and each SACK says whether it acknowledges one or two DATA packets.
    pub(crate) dac: bool,
    /// No SACK sent yet in this association: the first packet with DATA is acknowledged at
    /// once (Linux `asoc->peer.sack_needed`, FreeBSD `asoc->send_sack`, both start at 1).
    first_sack_owed: bool,
    /// A SACK is due with the next transmission.
    sack_now: bool,
    /// Something needs acknowledging (delayed SACK pending).
    sack_pending: bool,
    /// The a_rwnd of the last SACK sent.
    last_adv_rwnd: u32,
}

impl RecvState {
    /// A receiver expecting `peer_initial_tsn` first, with `streams` inbound streams and a
    /// receive buffer of `buffer` bytes.
    pub fn new(peer_initial_tsn: Tsn, streams: u16, buffer: u32) -> Self {
        RecvState {
            peer_initial_tsn,
            cum_idx: 0,
            above: BTreeSet::new(),
            highest_idx: 0,
            fragments: BTreeMap::new(),
            i_reasm: BTreeMap::new(),
            streams: vec![InStream::default(); usize::from(streams)],
            ready: VecDeque::new(),
            held: 0,
            buffer,
            dups: Vec::new(),
            unacked_packets: 0,
            dac: false,
            first_sack_owed: true,
            sack_now: false,
            sack_pending: false,
            last_adv_rwnd: buffer,
        }
    }

    /// The cumulative TSN: the last TSN received in sequence.
    pub fn cum_tsn(&self) -> Tsn {
        self.peer_initial_tsn + (self.cum_idx as u32).wrapping_sub(1)
    }

    /// Number of inbound streams.
    pub fn streams(&self) -> u16 {
        u16::try_from(self.streams.len()).unwrap_or(u16::MAX)
    }

    /// The receive window to advertise: buffer minus what is held (RFC 9260 §6.2).
    pub fn rwnd(&self) -> u32 {
        let held = u32::try_from(self.held).unwrap_or(u32::MAX);
        self.buffer.saturating_sub(held)
    }

    /// Whether TSNs above the cumulative point are held (the next SACK has gap blocks).
    pub fn has_gaps(&self) -> bool {
        !self.above.is_empty()
    }

    /// Whether duplicates wait to be reported.
    pub fn has_dups(&self) -> bool {
        !self.dups.is_empty()
    }

    /// Signed distance of `tsn` from the cumulative TSN.
    fn delta(&self, tsn: Tsn) -> i64 {
        i64::from(tsn.0.wrapping_sub(self.cum_tsn().0) as i32)
    }

    /// RFC 9260 §6.2: accept one DATA chunk (non-empty user data is checked by the caller).
    pub fn receive(&mut self, chunk: &DataChunk) -> DataVerdict {
        let idx = match self.admit(chunk.tsn, chunk.stream_id, chunk.user_data.len(), false) {
            Ok(idx) => idx,
            Err(verdict) => return verdict,
        };
        self.fragments.insert(idx, chunk.clone());
        self.assemble(idx);
        DataVerdict::New
    }

    /// RFC 8260 §2.1: accept one I-DATA chunk (non-empty user data is checked by the caller).
    /// The TSN is handled as for DATA; the fragment joins its message by stream, U bit and MID,
    /// at its FSN, so fragments of different messages may arrive interleaved.
    pub fn receive_i_data(&mut self, chunk: &IDataChunk) -> DataVerdict {
        let len = chunk.user_data.len();
        if let Err(verdict) = self.admit(chunk.tsn, chunk.stream_id, len, true) {
            return verdict;
        }
        let key = (chunk.stream_id, chunk.unordered, chunk.mid.0);
        let r = self.i_reasm.entry(key).or_default();
        let fsn = chunk.fsn();
        if let Some(old) = r.frags.insert(fsn, chunk.user_data.clone()) {
            // The same fragment under a second TSN: keep one copy.
            self.held = self.held.saturating_sub(old.len());
        }
        if let Some(ppid) = chunk.ppid() {
            r.ppid = Some(ppid);
        }
        if chunk.ending {
            r.last = Some(fsn);
        }
        self.assemble_i_data(key);
        DataVerdict::New
    }

    /// The TSN checks of RFC 9260 §6.2 and §6.5 for a chunk of `len` user bytes on `stream`:
    /// the index it is recorded under (already marked received and its bytes held), or the
    /// verdict when it is not kept. `next_in_sequence_fits`: I-DATA, see below.
    fn admit(
        &mut self,
        tsn: Tsn,
        stream: u16,
        len: usize,
        next_in_sequence_fits: bool,
    ) -> Result<u64, DataVerdict> {
        let delta = self.delta(tsn);
        if delta <= 0 {
            self.note_dup(tsn);
            return Err(DataVerdict::Duplicate);
        }
        if delta as u64 > MAX_TSN_AHEAD {
            return Err(DataVerdict::TooFarAhead);
        }
        let idx = self.cum_idx + delta as u64 - 1;
        if self.above.contains(&idx) {
            self.note_dup(tsn);
            return Err(DataVerdict::Duplicate);
        }
        if usize::from(stream) >= self.streams.len() {
            // §6.5: acknowledge the TSN, discard the data, report the stream.
            self.mark_received(idx);
            return Err(DataVerdict::InvalidStream);
        }
        // §6.2: "When the receiver's advertised window is 0, the receiver MUST drop any new
        // incoming DATA chunk with a TSN larger than the largest TSN received so far." A chunk
        // that fills a hole is kept (the RFC lets the receiver drop its highest held TSN
        // instead; we over-commit the buffer by that chunk), and so is any chunk when nothing
        // is held (a buffer smaller than one chunk must not deadlock).
        //
        // With I-DATA several messages can be incomplete at once (one per stream and
        // ordering), and their fragments can fill the buffer: then no message completes, the
        // window stays shut and the sender's zero window probe, a fragment of one of those
        // messages or a new one, would be dropped forever. Real stacks hand such messages up
        // in pieces (partial delivery, RFC 6458 §8.1.20); we do not model that, and instead
        // keep the next TSN in sequence, over-committing the buffer by one chunk per round
        // trip while the window is shut.
        let in_sequence = next_in_sequence_fits && idx == self.cum_idx;
        if self.held > 0
            && self.held.saturating_add(len) > self.buffer as usize
            && idx >= self.highest_idx
            && !in_sequence
        {
            return Err(DataVerdict::NoRoom);
        }
        self.mark_received(idx);
        self.held += len;
        Ok(idx)
    }

    /// RFC 8260 §2.1: if the message `key` has all its fragments (FSN 0 with the B bit up to
    /// the one with the E bit), deliver it or queue it for MID order.
    fn assemble_i_data(&mut self, key: IKey) {
        let Some(r) = self.i_reasm.get(&key) else {
            return;
        };
        let (Some(ppid), Some(last)) = (r.ppid, r.last) else {
            return;
        };
        let complete = r.frags.len() as u64 == u64::from(last) + 1
            && r.frags.keys().next_back() == Some(&last);
        if !complete {
            return;
        }
        let Some(r) = self.i_reasm.remove(&key) else {
            return;
        };
        let data: Vec<u8> = r.frags.into_values().flatten().collect();
        let (stream, unordered, mid) = key;
        let msg = Message {
            stream,
            // The low 16 bits of the MID: `Message::ssn` has no room for more.
            ssn: Ssn(mid as u16),
            ppid,
            unordered,
            data,
        };
        if unordered {
            self.ready.push_back(msg);
            return;
        }
        let Some(s) = self.streams.get_mut(usize::from(stream)) else {
            return;
        };
        if Mid(mid).is_before(s.next_mid) {
            // Behind the stream: never delivered.
            self.held = self.held.saturating_sub(msg.data.len());
            return;
        }
        s.pending_mid.insert(mid, msg);
        while let Some(m) = s.pending_mid.remove(&s.next_mid.0) {
            s.next_mid += 1;
            self.ready.push_back(m);
        }
    }

    fn note_dup(&mut self, tsn: Tsn) {
        if self.dups.len() < MAX_DUPS {
            self.dups.push(tsn);
        }
    }

    fn mark_received(&mut self, idx: u64) {
        self.highest_idx = self.highest_idx.max(idx + 1);
        if idx == self.cum_idx {
            self.cum_idx += 1;
            while self.above.remove(&self.cum_idx) {
                self.cum_idx += 1;
            }
        } else {
            self.above.insert(idx);
        }
    }

    /// RFC 9260 §6.9: if the fragment at `idx` completes a message (consecutive TSNs from a B
    /// to an E fragment of the same stream, ordering and SSN), deliver or queue it.
    fn assemble(&mut self, idx: u64) {
        let Some(probe) = self.fragments.get(&idx) else {
            return;
        };
        let same = |a: &DataChunk, b: &DataChunk| {
            a.stream_id == b.stream_id
                && a.unordered == b.unordered
                && (a.unordered || a.ssn == b.ssn)
        };
        let mut first = idx;
        let mut cur = probe;
        while !cur.beginning {
            let Some(prev) = first.checked_sub(1).and_then(|p| self.fragments.get(&p)) else {
                return;
            };
            if prev.ending || !same(prev, cur) {
                return;
            }
            first -= 1;
            cur = prev;
        }
        let mut last = idx;
        let mut cur = probe;
        while !cur.ending {
            let Some(next) = self.fragments.get(&(last + 1)) else {
                return;
            };
            if next.beginning || !same(next, cur) {
                return;
            }
            last += 1;
            cur = next;
        }
        let mut data = Vec::new();
        let mut head: Option<DataChunk> = None;
        for i in first..=last {
            if let Some(mut c) = self.fragments.remove(&i) {
                data.append(&mut c.user_data);
                head.get_or_insert(c);
            }
        }
        let Some(head) = head else {
            return;
        };
        let msg = Message {
            stream: head.stream_id,
            ssn: head.ssn,
            ppid: head.ppid,
            unordered: head.unordered,
            data,
        };
        if msg.unordered {
            self.ready.push_back(msg);
            return;
        }
        let Some(stream) = self.streams.get_mut(usize::from(msg.stream)) else {
            return;
        };
        if msg.ssn.is_before(stream.next_ssn) {
            // Behind the stream (skipped by a FORWARD TSN): never delivered.
            self.held = self.held.saturating_sub(msg.data.len());
            return;
        }
        stream.pending.insert(msg.ssn.0, msg);
        Self::deliver_in_order(stream, &mut self.ready);
    }

    fn deliver_in_order(stream: &mut InStream, ready: &mut VecDeque<Message>) {
        while let Some(msg) = stream.pending.remove(&stream.next_ssn.0) {
            stream.next_ssn = stream.next_ssn.next();
            ready.push_back(msg);
        }
    }

    /// The next deliverable message, for the application.
    pub fn pop_message(&mut self) -> Option<Message> {
        let msg = self.ready.pop_front()?;
        self.held = self.held.saturating_sub(msg.data.len());
        Some(msg)
    }

    /// Messages ready for the application.
    pub fn ready_len(&self) -> usize {
        self.ready.len()
    }

    /// RFC 9260 §6.2 delayed-SACK decision after a packet carrying DATA chunks:
    /// `new` and `dup` tell whether the packet had new and duplicate TSNs, `dropped` whether a
    /// chunk was dropped for lack of room, `had_gaps` whether TSNs were missing before it.
    /// Returns true if a delayed-SACK timer should be armed (a SACK is owed but not yet due).
    pub fn on_data_packet(
        &mut self,
        cfg: &SctpConfig,
        new: bool,
        dup: bool,
        dropped: bool,
        had_gaps: bool,
    ) -> bool {
        self.sack_pending = true;
        if self.first_sack_owed {
            // The first packet with DATA of an association is acknowledged immediately, as
            // both reference stacks do and as ETSI TS 102 369 TP A/V/9/1 ("First SACK is sent
            // immediately") expects. Linux `sctp_association_init()` (net/sctp/associola.c)
            // sets `asoc->peer.sack_needed = 1` ("After the reception of the first data chunk
            // in an association the endpoint must immediately respond with a sack ... [We
            // implement this by telling a new association that it already received one
            // packet.]"), which `sctp_gen_sack()` clears when it sends a SACK; FreeBSD
            // `sctp_init_asoc()` (sys/netinet/sctp_pcb.c) sets `asoc->send_sack = 1`, which
            // `sctp_sack_check()` honours and sending a SACK clears. RFC 9260 §6.2 permits it:
            // its delayed-ACK guideline (every second packet, within 200 ms) only bounds how
            // late a SACK may be; acknowledging sooner is allowed.
            // Later packets follow the every-second-packet / 200 ms rule again, counted from
            // that SACK (`build_sack` clears the flag and the packet count).
            self.sack_now = true;
        }
        if dup && !new {
            // "When a packet arrives with duplicate DATA chunk(s) and with no new DATA
            // chunk(s), the endpoint MUST immediately send a SACK chunk with no delay."
            self.sack_now = true;
        }
        // CMT's DAC: reordering is expected when data arrives over several paths, so a gap
        // alone does not force the SACK (ToN §3.3); the every-second-packet rule still holds.
        if dropped || (!self.dac && (had_gaps || self.has_gaps())) {
            // §6.2: a chunk dropped for lack of room needs an immediate SACK; §6.7: "If the
            // endpoint detects a gap in the received DATA chunk sequence, it SHOULD send a SACK
            // chunk with Gap Ack Blocks immediately" (also when the gap is filled).
            self.sack_now = true;
        }
        if new {
            self.unacked_packets += 1;
            // "an acknowledgement SHOULD be generated for at least every second packet".
            if !cfg.delayed_sack || self.unacked_packets >= cfg.sack_freq.max(1) {
                self.sack_now = true;
            }
        }
        !self.sack_now
    }

    /// Forces a SACK with the next transmission (delayed-SACK timer expiry, FORWARD TSN,
    /// SHUTDOWN-SENT gap report, window update).
    pub fn request_sack(&mut self) {
        self.sack_pending = true;
        self.sack_now = true;
    }

    /// Whether a SACK must go out now.
    pub fn sack_due(&self) -> bool {
        self.sack_now
    }

    /// Whether acknowledgements are owed (now or when the delayed-SACK timer fires).
    pub fn sack_pending(&self) -> bool {
        self.sack_pending
    }

    /// RFC 9260 §6.2 window update: after the application read data, a SACK is worth sending
    /// when the window, last advertised below half the buffer, is now at least half of it.
    pub fn window_update_due(&self) -> bool {
        let half = self.buffer / 2;
        self.last_adv_rwnd < half && self.rwnd() >= half
    }

    /// Builds the SACK (RFC 9260 §3.3.4): cumulative TSN, a_rwnd, every Gap Ack Block (or the
    /// lowest `max_gaps`), then the duplicates, as many as fit `budget` bytes of chunk space.
    /// Resets the SACK bookkeeping.
    pub fn build_sack(&mut self, max_gaps: Option<u16>, budget: usize) -> SackChunk {
        let room = budget.saturating_sub(16) / 4;
        let gap_cap = max_gaps
            .map_or(usize::MAX, usize::from)
            .min(room)
            .min(usize::from(u16::MAX));
        let base = self.cum_idx;
        let mut gap_blocks = Vec::new();
        let mut run: Option<(u64, u64)> = None;
        for &idx in &self.above {
            match run {
                Some((lo, hi)) if idx == hi + 1 => run = Some((lo, idx)),
                Some((lo, hi)) => {
                    if gap_blocks.len() < gap_cap {
                        gap_blocks.push(block(base, lo, hi));
                    }
                    run = Some((idx, idx));
                }
                None => run = Some((idx, idx)),
            }
        }
        if let Some((lo, hi)) = run {
            if gap_blocks.len() < gap_cap {
                gap_blocks.push(block(base, lo, hi));
            }
        }
        let dup_cap = room
            .saturating_sub(gap_blocks.len())
            .min(usize::from(u16::MAX));
        let mut duplicate_tsns = std::mem::take(&mut self.dups);
        duplicate_tsns.truncate(dup_cap);
        let a_rwnd = self.rwnd();
        self.last_adv_rwnd = a_rwnd;
        let dac_two_packets = self.dac && self.unacked_packets >= 2;
        self.unacked_packets = 0;
        self.first_sack_owed = false;
        self.sack_now = false;
        self.sack_pending = false;
        SackChunk {
            per_path: false,
            dac_two_packets,
            cum_tsn_ack: self.cum_tsn(),
            a_rwnd,
            gap_blocks,
            duplicate_tsns,
        }
    }

    /// RFC 6525 §5.2.2 (and RFC 8260 §3 for MIDs): inbound `streams` expect SSN 0 and MID 0
    /// again. Ordered messages still waiting for an earlier SSN on them can never be
    /// delivered in order any more and are dropped.
    pub fn reset_streams(&mut self, streams: &[u16]) {
        for s in streams {
            let Some(stream) = self.streams.get_mut(usize::from(*s)) else {
                continue;
            };
            let stale: usize = stream
                .pending
                .values()
                .chain(stream.pending_mid.values())
                .map(|m| m.data.len())
                .sum();
            self.held = self.held.saturating_sub(stale);
            *stream = InStream::default();
        }
    }

    /// RFC 6525 §5.2.5: `n` more inbound streams (up to 65535 in all).
    pub fn add_streams(&mut self, n: u16) {
        let total = usize::from(self.streams()).saturating_add(usize::from(n));
        self.streams
            .resize(total.min(usize::from(u16::MAX)), InStream::default());
    }

    /// RFC 6525 §5.2.4 (G1, G4, G5) and §5.1.4 (on a Performed answer): the peer's next TSN is
    /// now `next_tsn`, every inbound stream expects SSN 0 again, and whatever was received but
    /// not yet delivered in order is dropped (as a FORWARD TSN over everything would); the
    /// messages already waiting for the application stay.
    pub fn restart_tsn(&mut self, next_tsn: Tsn) {
        let ready: usize = self.ready.iter().map(|m| m.data.len()).sum();
        self.peer_initial_tsn = next_tsn;
        self.cum_idx = 0;
        self.above.clear();
        self.highest_idx = 0;
        self.fragments.clear();
        self.i_reasm.clear();
        let n = self.streams.len();
        self.streams = vec![InStream::default(); n];
        self.held = ready;
    }

    /// RFC 3758 §3.6: a FORWARD TSN moves the cumulative point to `new_cum` (if ahead), drops
    /// what lies below it, and skips the listed SSNs on ordered streams. Returns false if the
    /// chunk was out of date (at or behind the cumulative point: a SACK is due).
    pub fn forward(&mut self, new_cum: Tsn, streams: &[ForwardTsnStream]) -> bool {
        if !self.advance_cum_to(new_cum) {
            return false;
        }
        for s in streams {
            let Some(stream) = self.streams.get_mut(usize::from(s.stream_id)) else {
                continue;
            };
            // "the receiver MUST ... skip ... all messages up to and including the SSN".
            if !s.ssn.is_before(stream.next_ssn) {
                let stale: Vec<u16> = stream
                    .pending
                    .keys()
                    .copied()
                    .filter(|k| !Ssn(*k).is_after(s.ssn))
                    .collect();
                for k in stale {
                    if let Some(m) = stream.pending.remove(&k) {
                        self.held = self.held.saturating_sub(m.data.len());
                    }
                }
                stream.next_ssn = s.ssn.next();
            }
            Self::deliver_in_order(stream, &mut self.ready);
        }
        true
    }

    /// RFC 8260 §2.3.1: an I-FORWARD-TSN moves the cumulative point as a FORWARD TSN does
    /// ([`RecvState::forward`]) and skips messages by MID: for an ordered entry every message
    /// of the stream up to and including the MID (their fragments are dropped, the next
    /// expected MID moves past it and the messages waiting behind it are delivered); for an
    /// unordered one the fragments of that very message (our sender lists each abandoned
    /// unordered message: unordered messages of a stream may still arrive in any order).
    pub fn forward_i(&mut self, new_cum: Tsn, entries: &[IForwardTsnStream]) -> bool {
        if !self.advance_cum_to(new_cum) {
            return false;
        }
        for e in entries {
            let stream = e.stream_id;
            let skipped: Vec<IKey> = self
                .i_reasm
                .keys()
                .copied()
                .filter(|(s, u, m)| {
                    *s == stream
                        && *u == e.unordered
                        && if e.unordered {
                            *m == e.mid.0
                        } else {
                            !Mid(*m).is_after(e.mid)
                        }
                })
                .collect();
            for k in skipped {
                if let Some(r) = self.i_reasm.remove(&k) {
                    let bytes: usize = r.frags.values().map(Vec::len).sum();
                    self.held = self.held.saturating_sub(bytes);
                }
            }
            if e.unordered {
                continue;
            }
            let Some(s) = self.streams.get_mut(usize::from(stream)) else {
                continue;
            };
            if !e.mid.is_before(s.next_mid) {
                let stale: Vec<u32> = s
                    .pending_mid
                    .keys()
                    .copied()
                    .filter(|k| !Mid(*k).is_after(e.mid))
                    .collect();
                for k in stale {
                    if let Some(m) = s.pending_mid.remove(&k) {
                        self.held = self.held.saturating_sub(m.data.len());
                    }
                }
                s.next_mid = e.mid;
                s.next_mid += 1;
            }
            while let Some(m) = s.pending_mid.remove(&s.next_mid.0) {
                s.next_mid += 1;
                self.ready.push_back(m);
            }
        }
        true
    }

    /// The TSN part of RFC 3758 §3.6 / RFC 8260 §2.3.1: the cumulative point moves to
    /// `new_cum` (if ahead) and DATA fragments below it are dropped. False if out of date.
    fn advance_cum_to(&mut self, new_cum: Tsn) -> bool {
        let delta = self.delta(new_cum);
        if delta <= 0 {
            return false;
        }
        let delta = (delta as u64).min(MAX_TSN_AHEAD);
        let new_cum_idx = self.cum_idx + delta; // exclusive
        let below: Vec<u64> = self
            .fragments
            .range(..new_cum_idx)
            .map(|(i, _)| *i)
            .collect();
        for i in below {
            if let Some(c) = self.fragments.remove(&i) {
                self.held = self.held.saturating_sub(c.user_data.len());
            }
        }
        self.above.retain(|i| *i >= new_cum_idx);
        self.cum_idx = new_cum_idx;
        self.highest_idx = self.highest_idx.max(new_cum_idx);
        while self.above.remove(&self.cum_idx) {
            self.cum_idx += 1;
        }
        true
    }
}

/// A Gap Ack Block for indices `lo..=hi` above the exclusive cumulative index `cum_idx`: the
/// offsets count from the cumulative TSN, which is index `cum_idx - 1`.
fn block(cum_idx: u64, lo: u64, hi: u64) -> GapAckBlock {
    GapAckBlock {
        start: u16::try_from(lo + 1 - cum_idx).unwrap_or(u16::MAX),
        end: u16::try_from(hi + 1 - cum_idx).unwrap_or(u16::MAX),
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const T0: Tsn = Tsn(u32::MAX - 1);

    fn data(k: u32, stream: u16, ssn: u16, b: bool, e: bool, unordered: bool) -> DataChunk {
        DataChunk {
            tsn: T0 + k,
            stream_id: stream,
            ssn: Ssn(ssn),
            ppid: 7,
            unordered,
            beginning: b,
            ending: e,
            immediate: false,
            user_data: vec![k as u8; 10],
        }
    }

    #[test]
    fn gaps_duplicates_and_order() {
        let mut r = RecvState::new(T0, 2, 10_000);
        assert_eq!(r.cum_tsn(), T0 - 1);
        assert_eq!(
            r.receive(&data(0, 0, 0, true, true, false)),
            DataVerdict::New
        );
        assert_eq!(
            r.receive(&data(2, 0, 2, true, true, false)),
            DataVerdict::New
        );
        assert_eq!(
            r.receive(&data(4, 0, 3, true, true, false)),
            DataVerdict::New
        );
        assert_eq!(
            r.receive(&data(4, 0, 3, true, true, false)),
            DataVerdict::Duplicate
        );
        assert_eq!(
            r.receive(&data(0, 0, 0, true, true, false)),
            DataVerdict::Duplicate
        );
        let s = r.build_sack(None, 1000);
        assert_eq!(s.cum_tsn_ack, T0);
        assert_eq!(
            s.gap_blocks,
            vec![
                GapAckBlock { start: 2, end: 2 },
                GapAckBlock { start: 4, end: 4 }
            ]
        );
        assert_eq!(s.duplicate_tsns, vec![T0 + 4, T0]);
        assert_eq!(r.pop_message().unwrap().ssn, Ssn(0));
        assert!(r.pop_message().is_none());
        r.receive(&data(1, 0, 1, true, true, false));
        r.receive(&data(3, 1, 0, true, true, true));
        let order: Vec<(u16, u16)> = std::iter::from_fn(|| r.pop_message())
            .map(|m| (m.stream, m.ssn.0))
            .collect();
        assert_eq!(order, vec![(0, 1), (0, 2), (0, 3), (1, 0)]);
        assert_eq!(r.cum_tsn(), T0 + 4);
        assert_eq!(r.rwnd(), 10_000);
        // Capped gap blocks.
        r.receive(&data(6, 0, 5, true, true, false));
        r.receive(&data(8, 0, 6, true, true, false));
        assert_eq!(r.build_sack(Some(1), 1000).gap_blocks.len(), 1);
    }

    #[test]
    fn reassembly_out_of_order() {
        let mut r = RecvState::new(T0, 1, 10_000);
        r.receive(&data(2, 0, 0, false, true, false));
        r.receive(&data(0, 0, 0, true, false, false));
        assert!(r.pop_message().is_none());
        r.receive(&data(1, 0, 0, false, false, false));
        let m = r.pop_message().unwrap();
        assert_eq!(m.data.len(), 30);
        assert_eq!(&m.data[..10], &[0; 10]);
        assert_eq!(&m.data[20..], &[2; 10]);
    }

    #[test]
    fn invalid_stream_and_window() {
        let mut r = RecvState::new(T0, 1, 25);
        assert_eq!(
            r.receive(&data(0, 5, 0, true, true, false)),
            DataVerdict::InvalidStream
        );
        assert_eq!(r.cum_tsn(), T0);
        // Buffer of 25 bytes: two chunks fit (held, not read), the third beyond is refused.
        assert_eq!(
            r.receive(&data(1, 0, 0, true, true, false)),
            DataVerdict::New
        );
        assert_eq!(
            r.receive(&data(3, 0, 2, true, true, false)),
            DataVerdict::New
        );
        assert_eq!(
            r.receive(&data(4, 0, 3, true, true, false)),
            DataVerdict::NoRoom
        );
        // Filling the hole is still accepted.
        assert_eq!(
            r.receive(&data(2, 0, 1, true, true, false)),
            DataVerdict::New
        );
        assert_eq!(r.rwnd(), 0);
    }

    #[test]
    fn forward_tsn_skips() {
        let mut r = RecvState::new(T0, 1, 10_000);
        r.receive(&data(0, 0, 0, true, true, false));
        r.pop_message();
        r.receive(&data(3, 0, 3, true, true, false));
        assert!(!r.forward(T0, &[]));
        assert!(r.forward(
            T0 + 2,
            &[ForwardTsnStream {
                stream_id: 0,
                ssn: Ssn(2)
            }]
        ));
        assert_eq!(r.cum_tsn(), T0 + 3);
        assert_eq!(r.pop_message().unwrap().ssn, Ssn(3));
    }
}
