//! The sender's TSN space (RFC 9260 §6.1–§6.3, §7.2.4): DATA chunks that have a TSN and are not
//! yet cumulatively acknowledged, with their destination, transmission count, gap-ack state,
//! miss indications and retransmission marks; SACK processing (§6.2.1), fast retransmit marking
//! (§7.2.4 with or without HTNA), T3-rtx marking (§6.3.3 E3) and the choice of destination for
//! retransmissions (§6.4) are here. PR-SCTP abandonment and the Advanced.Peer.Ack.Point are in
//! `forward_tsn.rs`.
//!
//! TSNs are kept as `u64` indices from the initial TSN (index 0 is the initial TSN), so nothing
//! wraps inside the queue; [`Tsn`]s exist on the wire only.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{ChunkRepr, DataChunk, GapAckBlock, IDataChunk, Mid, SackChunk, Tsn};

use super::api::MessageId;
use super::path::Path;
use super::stats::RtxCause;

mod early;
mod perpath;

pub use perpath::{ChunkCopy, CopyKey};

/// A retransmission mark: why, and where the retransmission goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RtxMark {
    /// Fast retransmit or T3-rtx.
    pub cause: RtxCause,
    /// Destination chosen for the retransmission (RFC 9260 §6.4).
    pub dest: Ipv4Addr,
}

/// One DATA chunk with a TSN, not yet cumulatively acknowledged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxChunk {
    /// The chunk as sent (TSN, stream, SSN, PPID, flags, user data).
    pub chunk: DataChunk,
    /// The message it belongs to.
    pub msg: MessageId,
    /// User-data length.
    pub len: u32,
    /// The destination it was last sent to (or will first go to).
    pub dest: Ipv4Addr,
    /// Transmissions so far (0: never sent).
    pub tx_count: u32,
    /// Time of the last transmission.
    pub last_sent: SimTime,
    /// Acknowledged by a Gap Ack Block (and not reneged).
    pub acked: bool,
    /// Acknowledged by an NR Gap Ack Block (NR-SACK, Natarajan et al. 2008): the receiver will
    /// not renege on it, so its data has left the send buffer. Implies `acked`.
    pub nr_acked: bool,
    /// Counted in its destination's flightsize.
    pub in_flight: bool,
    /// Marked for retransmission.
    pub rtx: Option<RtxMark>,
    /// Miss indications (RFC 9260 §7.2.4).
    pub misses: u32,
    /// Fast-retransmitted already: "ineligible for a subsequent Fast Retransmit" (§7.2.4 5).
    pub fast_retransmitted: bool,
    /// Retransmitted by the Ye et al. (2003) rule already: the paper retransmits a lost TSN
    /// "only once using this algorithm" (§5). Unlike `fast_retransmitted`, a T3 expiry does
    /// not clear it.
    pub early_retransmitted: bool,
    /// The packet of its last transmission ([`RetransmitQueue::begin_packet`]): RFC 5827 §3.2
    /// counts outstanding segments, which for SCTP are packets of bundled DATA chunks.
    pub packet: u64,
    /// Abandoned (PR-SCTP, RFC 3758 §3.5).
    pub abandoned: bool,
    /// cSCTP: a duplicate of it was sent (for the retransmission counter).
    pub had_copy: bool,
    /// End of the message's lifetime, if it has one.
    pub expires: Option<SimTime>,
    /// cSCTP duplicated transfer: the copy sent to a second destination during a handoff
    /// (`retransmit/perpath.rs`); `None` outside it.
    pub dup: Option<ChunkCopy>,
    /// I-DATA (RFC 8260 §2.1): the chunk goes out as I-DATA with this Message Identifier and
    /// Fragment Sequence Number (`chunk.ssn` is then unused); `None`: a DATA chunk.
    pub i_data: Option<(Mid, u32)>,
}

impl TxChunk {
    /// The chunk as sent: DATA, or I-DATA when it has a MID and FSN.
    pub fn wire(&self) -> ChunkRepr {
        match self.i_data {
            None => ChunkRepr::Data(self.chunk.clone()),
            Some((mid, fsn)) => {
                let d = &self.chunk;
                ChunkRepr::IData(IDataChunk {
                    tsn: d.tsn,
                    stream_id: d.stream_id,
                    mid,
                    // RFC 8260 §2.1: the PPID in the first fragment, the FSN in the others.
                    ppid_or_fsn: if d.beginning { d.ppid } else { fsn },
                    unordered: d.unordered,
                    beginning: d.beginning,
                    ending: d.ending,
                    immediate: d.immediate,
                    user_data: d.user_data.clone(),
                })
            }
        }
    }
}

/// A chunk newly acknowledged by a SACK.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acked {
    /// TSN index.
    pub idx: u64,
    /// Its last destination.
    pub dest: Ipv4Addr,
    /// User-data length.
    pub len: u32,
    /// Sent more than once (Karn: no RTT sample, RFC 9260 §6.3.1 C5).
    pub retransmitted: bool,
    /// Was counted in flight when acknowledged.
    pub was_in_flight: bool,
}

impl Acked {
    /// Chunk `idx` (`c`) acknowledged, reported with destination `dest`.
    fn of(idx: u64, c: &TxChunk, dest: Ipv4Addr, was_in_flight: bool) -> Self {
        Acked {
            idx,
            dest,
            len: c.len,
            retransmitted: c.tx_count > 1,
            was_in_flight,
        }
    }
}

/// What a SACK did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SackOutcome {
    /// The SACK was older than the cumulative ack point and was dropped (§6.2.1 D i).
    pub stale: bool,
    /// The SACK acknowledged TSNs never sent (a protocol violation).
    pub acks_unsent: bool,
    /// The cumulative TSN ack point advanced.
    pub cum_advanced: bool,
    /// Chunks newly acknowledged (cumulatively or by gap blocks).
    pub newly_acked: Vec<Acked>,
    /// Chunks newly marked for fast retransmission, by index.
    pub fast_marked: Vec<u64>,
    /// Destinations that had a previously gap-acked TSN reneged (§6.2.1 D iii: start T3).
    pub reneged_dests: BTreeSet<Ipv4Addr>,
    /// Gap Ack Blocks in the SACK (with an NR-SACK's NR Gap Ack Blocks).
    pub gap_blocks: usize,
    /// Miss indications withheld by the per-path TSN range rule (A-SCTP, see
    /// [`RetransmitQueue::process_sack`] with [`MissRule::TsnRange`]).
    pub misses_out_of_range: u64,
    /// Per-path SACK ([`SackScope::Path`]): copies on the SACK's path newly acknowledged on
    /// it; these, and only these, credit the path's cwnd and RTT (`retransmitted`: Karn's rule
    /// applies). Empty for a standard SACK, whose `newly_acked` credit their destinations.
    pub credited: Vec<Acked>,
    /// Per-path SACK: copies on the SACK's path declared lost by its miss indications.
    pub lost: u32,
    /// The SACK's cumulative TSN ack as an exclusive index (for a per-path SACK, the path's).
    pub path_cum: i64,
}

/// What a SACK describes: the rule of [`RetransmitQueue::process_sack`] that the association's
/// seam chooses for each SACK (its SACK mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SackScope {
    /// A standard SACK: the receiver's whole state (RFC 9260 §6.2.1). Its cumulative ack is
    /// the association's (an older one is stale), a gap-acked TSN it no longer reports was
    /// reneged, and every newly acknowledged chunk credits its last destination.
    #[default]
    Association,
    /// A cSCTP per-path SACK (Aydin & Shen §II): what arrived at one receiver address, for
    /// the path to peer address `k` (the SACK's source). Its cumulative ack is the path's (it
    /// may lie below the association's); it acknowledges globally what it covers but credits
    /// and blames only copies sent to `k`, a copy of an acknowledged chunk still in flight on
    /// another path stays counted there until that path's SACK or T3-rtx settles it, the
    /// association's cumulative point moves over what is acknowledged from the front, and
    /// there is no renege detection (the SACK does not describe the receiver's whole state).
    /// Miss indications are ordered by sending time on `k` (`retransmit/perpath.rs`).
    Path(Ipv4Addr),
}

/// How a SACK's gap reports become miss indications (RFC 9260 §7.2.4 and its multipath
/// variants): the SACK-mode hook of the association's multipath seam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissRule {
    /// RFC 9260 §7.2.4 (HTNA) or RFC 2960 §7.2.4, by [`SackRules::htna`].
    #[default]
    Standard,
    /// A-SCTP's per-path TSN range rule (Argyriou & Madisetti 2004 §3) on top of `Standard`.
    TsnRange,
    /// CMT's Split Fast Retransmit (Iyengar, Amer & Stewart 2006 §3.1), per destination.
    SplitFast,
}

/// The rules [`RetransmitQueue::process_sack`] counts miss indications by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SackRules {
    /// Miss indications that trigger fast retransmit (RFC 9260 §7.2.4: 3).
    pub threshold: u32,
    /// RFC 9260's HTNA counting rule (off: RFC 2960's).
    pub htna: bool,
    /// The multipath mode's rule.
    pub miss_rule: MissRule,
    /// CMT's DAC (ToN §3.3): the DATA packets the SACK reports having acknowledged (1 or 2);
    /// 0 when the SACK carries no such report or DAC is off.
    pub dac_packets: u32,
    /// What the SACK describes: the association's receive state or one path's arrivals.
    pub scope: SackScope,
}

impl SackRules {
    /// Plain SCTP: `threshold` misses, HTNA or not, no multipath rule.
    pub fn standard(threshold: u32, htna: bool) -> Self {
        SackRules {
            threshold,
            htna,
            miss_rule: MissRule::Standard,
            dac_packets: 0,
            scope: SackScope::Association,
        }
    }

    /// A cSCTP per-path SACK for the path to `k`: `threshold` misses counted on that path.
    pub fn per_path(threshold: u32, k: Ipv4Addr) -> Self {
        SackRules {
            scope: SackScope::Path(k),
            ..SackRules::standard(threshold, false)
        }
    }
}

/// Flight bookkeeping of a chunk that arrived (or went away): it and its copy on another path
/// (cSCTP duplicated transfer), if still counted, leave their paths' flightsizes.
fn leave_flight(c: &mut TxChunk, paths: &mut [Path]) {
    if c.in_flight {
        c.in_flight = false;
        flight_sub(paths, c.dest, c.len);
    }
    if let Some(d) = c.dup.take().filter(|d| d.in_flight) {
        flight_sub(paths, d.dest, c.len);
    }
}

/// Per-destination flightsize bookkeeping.
fn flight_sub(paths: &mut [Path], dest: Ipv4Addr, len: u32) {
    if let Some(p) = paths.iter_mut().find(|p| p.addr == dest) {
        p.flight_size = p.flight_size.saturating_sub(len);
    }
}

fn flight_add(paths: &mut [Path], dest: Ipv4Addr, len: u32) {
    if let Some(p) = paths.iter_mut().find(|p| p.addr == dest) {
        p.flight_size = p.flight_size.saturating_add(len);
    }
}

/// The sender's TSN space.
#[derive(Debug, Clone)]
pub struct RetransmitQueue {
    /// Our Initial TSN (index 0).
    pub initial_tsn: Tsn,
    /// Index of the next TSN to assign.
    pub next_idx: u64,
    /// Every index below this is cumulatively acknowledged (the cumulative TSN ack point is
    /// `cum_idx - 1`).
    pub cum_idx: u64,
    /// Chunks from `cum_idx` to `next_idx - 1`.
    pub chunks: BTreeMap<u64, TxChunk>,
    /// RFC 9260 §7.2.4: the Fast Recovery exit point (index), while in Fast Recovery.
    pub fast_recovery_exit: Option<u64>,
    /// RFC 3758 §3.5: Advanced.Peer.Ack.Point, as an exclusive index like `cum_idx`.
    pub adv_peer_ack: u64,
    /// Bytes sent and neither acknowledged nor abandoned (kept incrementally).
    outstanding: u32,
    /// Bytes gap-acknowledged renegably (acked, not NR-acked, not abandoned): RFC 9260 §6.2.1
    /// lets the receiver renege on them, so the sender still holds them (kept incrementally).
    renegable: u32,
    /// Chunks carrying a retransmission mark (kept incrementally).
    marked: usize,
    /// Number of the packet being filled (see [`TxChunk::packet`]).
    packet_seq: u64,
    /// cSCTP: copies still in flight of chunks that are already acknowledged (through another
    /// path), kept so that their own path's per-path SACK credits or blames them
    /// (`retransmit/perpath.rs`).
    pub acked_copies: BTreeMap<CopyKey, ChunkCopy>,
}

impl RetransmitQueue {
    /// An empty queue starting at `initial_tsn`.
    pub fn new(initial_tsn: Tsn) -> Self {
        RetransmitQueue {
            initial_tsn,
            next_idx: 0,
            cum_idx: 0,
            chunks: BTreeMap::new(),
            fast_recovery_exit: None,
            adv_peer_ack: 0,
            outstanding: 0,
            renegable: 0,
            marked: 0,
            packet_seq: 0,
            acked_copies: BTreeMap::new(),
        }
    }

    /// A new packet is being filled: the chunks sent until the next call share a packet
    /// number (for the segment count of RFC 5827 §3.2).
    pub fn begin_packet(&mut self) {
        self.packet_seq = self.packet_seq.wrapping_add(1);
    }

    /// The TSN of index `idx`.
    pub fn tsn(&self, idx: u64) -> Tsn {
        self.initial_tsn + idx as u32
    }

    /// The cumulative TSN ack point (the TSN before the first unacknowledged one).
    pub fn cum_tsn(&self) -> Tsn {
        self.tsn(self.cum_idx).prev()
    }

    /// The exclusive index that a cumulative TSN ack `tsn` stands for, relative to the current
    /// point: `None` if it is before the current point by more than the comparable window.
    pub fn cum_index_of(&self, tsn: Tsn) -> i64 {
        let base = self.cum_tsn();
        let delta = i64::from(tsn.0.wrapping_sub(base.0) as i32);
        self.cum_idx as i64 + delta
    }

    /// Whether nothing has a TSN without being acknowledged.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Number of chunks not cumulatively acknowledged.
    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    /// Bytes sent and neither acknowledged nor abandoned (RFC 9260 §6.2.1 D ii, for rwnd).
    pub fn outstanding_bytes(&self) -> u32 {
        self.outstanding
    }

    /// Bytes sent, not cumulatively acknowledged, not NR-acknowledged and not abandoned: what
    /// the sender must keep in its send buffer (RFC 9260 §6.2.1: gap-acknowledged data is
    /// renegable, "the data sender MUST NOT clear" it "until the corresponding TSN has been
    /// acknowledged by the Cumulative TSN Ack"). [`RetransmitQueue::outstanding_bytes`] plus
    /// the renegably gap-acked bytes.
    pub fn held_bytes(&self) -> u32 {
        self.outstanding.saturating_add(self.renegable)
    }

    /// Whether every chunk that was sent has been acknowledged or abandoned, and nothing waits
    /// for a first transmission.
    pub fn all_acked(&self) -> bool {
        self.chunks.values().all(|c| c.abandoned)
    }

    /// Gives the next TSN to a chunk and queues it for its first transmission.
    pub fn push(
        &mut self,
        mut chunk: DataChunk,
        msg: MessageId,
        dest: Ipv4Addr,
        expires: Option<SimTime>,
    ) -> u64 {
        let idx = self.next_idx;
        chunk.tsn = self.tsn(idx);
        let len = u32::try_from(chunk.user_data.len()).unwrap_or(u32::MAX);
        self.chunks.insert(
            idx,
            TxChunk {
                chunk,
                msg,
                len,
                dest,
                tx_count: 0,
                last_sent: SimTime::ZERO,
                acked: false,
                nr_acked: false,
                in_flight: false,
                rtx: None,
                misses: 0,
                fast_retransmitted: false,
                early_retransmitted: false,
                packet: 0,
                abandoned: false,
                had_copy: false,
                expires,
                dup: None,
                i_data: None,
            },
        );
        self.next_idx += 1;
        idx
    }

    /// Records a transmission of chunk `idx` to `dest` at `now` and adds it to the flight.
    pub fn on_sent(&mut self, idx: u64, dest: Ipv4Addr, now: SimTime, paths: &mut [Path]) {
        if let Some(c) = self.chunks.get_mut(&idx) {
            if c.tx_count == 0 && !c.acked && !c.abandoned {
                self.outstanding = self.outstanding.saturating_add(c.len);
            }
            if c.tx_count == 0 {
                // A-SCTP §3: "the lowest and highest TSN sent during the last cwnd round" of
                // the path (new data only: see `count_misses`).
                if let Some(p) = paths.iter_mut().find(|p| p.addr == dest) {
                    p.tsn_range = Some(match p.tsn_range {
                        None => (idx, idx),
                        Some((lo, hi)) => (lo.min(idx), hi.max(idx)),
                    });
                }
            }
            if c.tx_count > 0 {
                // cSCTP: a retransmission supersedes the duplicate copy (it is no longer
                // accounted in its path's flight).
                if let Some(d) = c.dup.take() {
                    if d.in_flight {
                        flight_sub(paths, d.dest, c.len);
                    }
                }
            }
            c.tx_count += 1;
            c.last_sent = now;
            c.packet = self.packet_seq;
            c.dest = dest;
            if c.rtx.take().is_some() {
                self.marked -= 1;
            }
            c.misses = 0;
            if !c.in_flight {
                c.in_flight = true;
                flight_add(paths, dest, c.len);
            }
        }
    }

    /// The lowest in-flight index per destination (RFC 9260 §6.3.2 R3 needs to know whether a
    /// SACK acknowledged "the DATA chunk with the earliest outstanding TSN for that address").
    pub fn lowest_in_flight(&self) -> BTreeMap<Ipv4Addr, u64> {
        let mut m = BTreeMap::new();
        for (idx, c) in &self.chunks {
            if c.in_flight {
                m.entry(c.dest).or_insert(*idx);
            }
        }
        m
    }

    /// Whether anything is in flight to `dest`.
    pub fn has_in_flight(&self, dest: Ipv4Addr) -> bool {
        self.chunks.values().any(|c| {
            (c.in_flight && c.dest == dest) || c.dup.is_some_and(|d| d.in_flight && d.dest == dest)
        }) || self.acked_copies.keys().any(|k| k.dest == dest)
    }

    /// RFC 9260 §6.2.1 "Processing a Received SACK" and §7.2.4 miss indications: the one SACK
    /// processor, for a standard SACK and for a cSCTP per-path SACK alike.
    ///
    /// Every SACK goes through the same steps, and [`SackRules::scope`] says what the SACK
    /// describes, which changes three rules ([`SackScope`]):
    /// 1. validity: a standard SACK older than the cumulative ack point is dropped (§6.2.1 D i);
    ///    a per-path SACK's cumulative ack is the path's and may lie below it;
    /// 2. the walk over what the SACK covers (its cumulative ack and Gap Ack Blocks,
    ///    [`Self::covered_ranges`]), acknowledging each chunk once ([`Self::ack_chunk`]) and
    ///    taking what arrived out of its path's flight; a per-path SACK credits only the copies
    ///    that went to its path and keeps other copies still in flight
    ///    (`retransmit/perpath.rs`); renege detection (§6.2.1 D iii) only for a standard SACK,
    ///    as a per-path SACK does not describe the receiver's whole state;
    /// 3. miss indications: by TSN order and the multipath seam's [`MissRule`] for a standard
    ///    SACK, by sending time on the path for a per-path one; both mark through the same
    ///    §7.2.4 step ([`Self::mark_fast`]).
    ///
    /// `fast_rtx_dest` chooses the destination of a fast retransmission from the chunk's last
    /// destination.
    pub fn process_sack(
        &mut self,
        sack: &SackChunk,
        paths: &mut [Path],
        rules: &SackRules,
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
    ) -> SackOutcome {
        self.process_sack_nr(sack, &[], paths, rules, fast_rtx_dest)
    }

    /// [`RetransmitQueue::process_sack`] for a SACK or an NR-SACK: `nr_blocks` are the NR-SACK's
    /// NR Gap Ack Blocks (empty for a SACK). A TSN in a gap block or an NR gap block is
    /// acknowledged alike for loss detection, as in FreeBSD, which walks both lists as one
    /// (`sctp_handle_segments`); a TSN in an NR gap block is also non-renegable
    /// ([`TxChunk::nr_acked`]): it leaves the send buffer ([`RetransmitQueue::held_bytes`]) and
    /// is exempt from renege detection (the receiver promised not to renege on it).
    pub fn process_sack_nr(
        &mut self,
        sack: &SackChunk,
        nr_blocks: &[GapAckBlock],
        paths: &mut [Path],
        rules: &SackRules,
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
    ) -> SackOutcome {
        let mut out = SackOutcome {
            gap_blocks: sack.gap_blocks.len() + nr_blocks.len(),
            ..SackOutcome::default()
        };
        let cum = self.cum_index_of(sack.cum_tsn_ack);
        out.path_cum = cum;
        if let SackScope::Path(k) = rules.scope {
            if cum > self.next_idx as i64 {
                out.acks_unsent = true;
                return out;
            }
            let (reported, _) = self.covered_ranges(cum, &sack.gap_blocks);
            let newest = self.ack_on_path(k, cum, &reported, paths, &mut out);
            if let Some(newest) = newest {
                self.count_misses_on_path(k, newest, paths, rules, fast_rtx_dest, &mut out);
            }
            self.advance_cum(&mut out);
            return out;
        }
        // D i: "If Cumulative TSN Ack is less than the Cumulative TSN Ack Point, then drop
        // the SACK chunk."
        if cum < self.cum_idx as i64 {
            out.stale = true;
            return out;
        }
        let new_cum = cum as u64;
        if new_cum > self.next_idx
            || self
                .chunks
                .range(..new_cum)
                .any(|(_, c)| c.tx_count == 0 && !c.abandoned)
        {
            out.acks_unsent = true;
            return out;
        }
        // Cumulative acknowledgement.
        let acked_cum: Vec<u64> = self.chunks.range(..new_cum).map(|(i, _)| *i).collect();
        for idx in acked_cum {
            if let Some(mut c) = self.chunks.remove(&idx) {
                let was_in_flight = c.in_flight;
                leave_flight(&mut c, paths);
                // A gap-acked chunk held renegable space until now (RFC 9260 §6.2.1).
                if c.acked && !c.nr_acked && !c.abandoned {
                    self.renegable = self.renegable.saturating_sub(c.len);
                }
                if Self::ack_chunk(&mut self.outstanding, &mut self.marked, &mut c) {
                    out.newly_acked
                        .push(Acked::of(idx, &c, c.dest, was_in_flight));
                } else if c.rtx.take().is_some() {
                    self.marked -= 1; // it leaves the queue: no mark may stay counted
                }
            }
        }
        out.cum_advanced = new_cum > self.cum_idx;
        self.cum_idx = new_cum;
        self.adv_peer_ack = self.adv_peer_ack.max(new_cum);

        // Gap Ack Blocks and NR Gap Ack Blocks.
        let (gap, gap_highest) = self.covered_ranges(cum, &sack.gap_blocks);
        let (nr_reported, nr_highest) = self.covered_ranges(cum, nr_blocks);
        let highest_reported = gap_highest.max(nr_highest);
        let reported = if nr_reported.is_empty() {
            gap
        } else {
            merge_ranges(gap.into_iter().chain(nr_reported.iter().copied()))
        };
        let in_reported = |idx: u64| in_ranges(&reported, idx);
        // NR gap blocks: non-renegable from now on; a TSN gap-acked before leaves the
        // renegable count, one newly acknowledged is counted below.
        for (lo, hi) in &nr_reported {
            for (_, c) in self.chunks.range_mut(*lo..=*hi) {
                if c.nr_acked || c.abandoned || c.tx_count == 0 {
                    continue;
                }
                c.nr_acked = true;
                if c.acked {
                    self.renegable = self.renegable.saturating_sub(c.len);
                }
            }
        }
        for (lo, hi) in &reported {
            for (idx, c) in self.chunks.range_mut(*lo..=*hi) {
                if c.tx_count == 0 {
                    continue;
                }
                let was_in_flight = c.in_flight;
                if Self::ack_chunk(&mut self.outstanding, &mut self.marked, c) {
                    if !c.nr_acked {
                        self.renegable = self.renegable.saturating_add(c.len);
                    }
                    leave_flight(c, paths);
                    out.newly_acked
                        .push(Acked::of(*idx, c, c.dest, was_in_flight));
                }
            }
        }
        // D iii: renege detection, a previously gap-acked TSN no longer reported.
        // An NR-acked TSN cannot be reneged on (and its data is gone from the send buffer).
        for (idx, c) in self.chunks.iter_mut() {
            if c.acked && !c.nr_acked && !in_reported(*idx) {
                c.acked = false;
                self.renegable = self.renegable.saturating_sub(c.len);
                self.outstanding = self.outstanding.saturating_add(c.len);
                c.in_flight = true;
                c.misses += 1;
                flight_add(paths, c.dest, c.len);
                out.reneged_dests.insert(c.dest);
            }
        }

        // RFC 9260 §7.2.4 miss indications.
        match rules.miss_rule {
            MissRule::Standard => self.count_misses(
                &mut out,
                &reported,
                highest_reported,
                paths,
                rules,
                false,
                fast_rtx_dest,
            ),
            MissRule::TsnRange => self.count_misses(
                &mut out,
                &reported,
                highest_reported,
                paths,
                rules,
                true,
                fast_rtx_dest,
            ),
            MissRule::SplitFast => {
                self.count_misses_split(&mut out, &reported, paths, rules, fast_rtx_dest)
            }
        }
        out
    }

    /// The walk's ranges: `blocks` (a SACK's Gap Ack Blocks, or an NR-SACK's NR Gap Ack Blocks)
    /// as inclusive index ranges, sorted and merged (blocks may overlap or come out of order on the wire), and the highest reported
    /// index. Offset 1 is the index right after the SACK's cumulative ack `cum` (exclusive,
    /// [`Self::cum_index_of`]); nonsense blocks (start 0, start after end) and blocks entirely
    /// beyond what was sent are ignored (only a cumulative ack of unsent TSNs is treated as a
    /// protocol violation).
    fn covered_ranges(&self, cum: i64, blocks: &[GapAckBlock]) -> (Vec<(u64, u64)>, Option<u64>) {
        let last = self.next_idx as i64 - 1;
        let mut reported: Vec<(u64, u64)> = Vec::with_capacity(blocks.len());
        for b in blocks {
            if b.start == 0 || b.start > b.end {
                continue;
            }
            let lo = (cum - 1 + i64::from(b.start)).max(0);
            let hi = (cum - 1 + i64::from(b.end)).min(last);
            if lo > hi {
                continue;
            }
            reported.push((lo as u64, hi as u64));
        }
        let merged = merge_ranges(reported.into_iter());
        let highest = merged.last().map(|r| r.1);
        (merged, highest)
    }

    /// The walk's acknowledgement of one chunk: if it was neither acknowledged nor abandoned,
    /// it is now, leaves the outstanding count and loses its retransmission mark. Returns
    /// whether it was newly acknowledged.
    fn ack_chunk(outstanding: &mut u32, marked: &mut usize, c: &mut TxChunk) -> bool {
        if c.acked || c.abandoned {
            return false;
        }
        c.acked = true;
        if c.tx_count > 0 {
            *outstanding = outstanding.saturating_sub(c.len);
        }
        if c.rtx.take().is_some() {
            *marked -= 1;
        }
        true
    }

    /// Miss indications by RFC 9260 §7.2.4 (HTNA) or RFC 2960 §7.2.4, with A-SCTP's per-path
    /// TSN range rule when `ranged` (Argyriou & Madisetti 2004 §3, "Overcoming packet
    /// reordering"): "the SCTP sender maintains two variables ... that keep the lowest and
    /// highest TSN sent during the last cwnd round to the receiver. When the receiver replies
    /// with a SACK containing a Gap report for TSNs that do not belong to this range, the
    /// sender does not increase the Gap Ack reports and process the SACK chunk as a normal SACK
    /// that only acknowledges any outstanding data."
    ///
    /// With the range rule, a chunk whose last transmission went to path P gets a miss
    /// indication only from TSNs the SACK reports (or newly acknowledges, with HTNA) inside P's
    /// range ([`Path::tsn_range`]: the lowest and highest TSN of new data P carried since data
    /// last moved to it); reports of TSNs outside it — data of another route, which may
    /// overtake packets still in transit on a slower one — acknowledge what they cover but
    /// count no miss. Withheld indications are counted in [`SackOutcome::misses_out_of_range`].
    #[allow(clippy::too_many_arguments)]
    fn count_misses(
        &mut self,
        out: &mut SackOutcome,
        reported: &[(u64, u64)],
        highest_reported: Option<u64>,
        paths: &mut [Path],
        rules: &SackRules,
        ranged: bool,
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
    ) {
        let htna = rules.htna;
        let highest_newly = out.newly_acked.iter().map(|a| a.idx).max();
        let limit = if htna {
            // "miss indications are incremented only for missing TSNs prior to the highest TSN
            // newly acknowledged in the SACK chunk ... If an endpoint is in Fast Recovery and a
            // SACK chunk arrives that advances the Cumulative TSN Ack Point, the miss
            // indications are incremented for all TSNs reported missing in the SACK chunk."
            if self.fast_recovery_exit.is_some() && out.cum_advanced {
                highest_reported.or(highest_newly)
            } else {
                highest_newly
            }
        } else {
            // RFC 2960 §7.2.4: every SACK that "indicates some TSN(s) missing" counts.
            highest_reported
        };
        // A-SCTP: per destination, the highest TSN index inside its range that the counting
        // rule above would use (reported TSNs too, or only the newly acknowledged ones).
        let use_reported = !htna || (self.fast_recovery_exit.is_some() && out.cum_advanced);
        let newly_idx: Vec<u64> = out.newly_acked.iter().map(|a| a.idx).collect();
        let highest_in = |(lo, hi): (u64, u64)| -> Option<u64> {
            let newly = newly_idx.iter().copied().filter(|i| (lo..=hi).contains(i));
            let rep = reported
                .iter()
                .filter(|(a, b)| *a <= hi && *b >= lo)
                .map(|(_, b)| (*b).min(hi))
                .filter(|_| use_reported);
            newly.chain(rep).max()
        };
        let mut dest_limit: BTreeMap<Ipv4Addr, Option<u64>> = BTreeMap::new();
        let Some(limit) = limit else {
            return;
        };
        for (idx, c) in self.chunks.range_mut(..limit) {
            if c.acked || c.abandoned || !c.in_flight || c.fast_retransmitted || c.rtx.is_some() {
                continue;
            }
            if ranged {
                let dest = c.dest;
                let lim = *dest_limit.entry(dest).or_insert_with(|| {
                    paths
                        .iter()
                        .find(|p| p.addr == dest)
                        .and_then(|p| p.tsn_range)
                        .and_then(highest_in)
                });
                if lim.is_none_or(|l| *idx >= l) {
                    out.misses_out_of_range += 1;
                    continue;
                }
            }
            c.misses += 1;
            if c.misses >= rules.threshold {
                Self::lost_by_sack(&mut self.marked, *idx, c, paths, out, fast_rtx_dest);
            }
        }
    }

    /// CMT's Split Fast Retransmit (Iyengar, Amer & Stewart, ToN 2006, §3.1, Algorithm 1): a
    /// chunk sent to destination d gets a miss indication only if this SACK newly acknowledges
    /// a TSN sent to d (`saw_newack`) and acknowledges a TSN sent to d higher than it
    /// (`highest_in_sack_for_dest`). With DAC (§3.3), a SACK that newly acknowledges data of
    /// one destination only, all of it above the missing chunk, counts as many indications as
    /// the DATA packets it reports having acknowledged ([`SackRules::dac_packets`]).
    fn count_misses_split(
        &mut self,
        out: &mut SackOutcome,
        reported: &[(u64, u64)],
        paths: &mut [Path],
        rules: &SackRules,
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
    ) {
        let mut saw_newack: BTreeSet<Ipv4Addr> = BTreeSet::new();
        let mut highest: BTreeMap<Ipv4Addr, u64> = BTreeMap::new();
        for a in &out.newly_acked {
            saw_newack.insert(a.dest);
            let h = highest.entry(a.dest).or_insert(a.idx);
            *h = (*h).max(a.idx);
        }
        // TSNs this SACK acknowledges that earlier SACKs had acknowledged already.
        for (lo, hi) in reported {
            for (idx, c) in self.chunks.range(*lo..=*hi) {
                if c.acked {
                    let h = highest.entry(c.dest).or_insert(*idx);
                    *h = (*h).max(*idx);
                }
            }
        }
        let mixed = saw_newack.len() > 1;
        let lowest_newly = out.newly_acked.iter().map(|a| a.idx).min();
        let Some(limit) = highest.values().copied().max() else {
            return;
        };
        for (idx, c) in self.chunks.range_mut(..limit) {
            if c.acked || c.abandoned || !c.in_flight || c.fast_retransmitted || c.rtx.is_some() {
                continue;
            }
            if !saw_newack.contains(&c.dest) || highest.get(&c.dest).is_none_or(|h| *idx >= *h) {
                continue;
            }
            let dac = rules.dac_packets > 0 && !mixed && lowest_newly.is_some_and(|l| *idx < l);
            c.misses += if dac { rules.dac_packets } else { 1 };
            if c.misses >= rules.threshold {
                Self::lost_by_sack(&mut self.marked, *idx, c, paths, out, fast_rtx_dest);
            }
        }
    }

    /// RFC 9260 §7.2.4 step 1: chunk `idx`, taken out of the flight by the caller, reached
    /// the miss threshold and is marked for fast retransmission to `to`.
    fn mark_fast(
        marked: &mut usize,
        idx: u64,
        c: &mut TxChunk,
        to: Ipv4Addr,
        out: &mut SackOutcome,
    ) {
        c.fast_retransmitted = true;
        *marked += 1;
        c.rtx = Some(RtxMark {
            cause: RtxCause::Fast,
            dest: to,
        });
        out.fast_marked.push(idx);
    }

    /// A standard SACK's miss threshold reached (§7.2.4 step 1): the chunk leaves its path's
    /// flight and is marked.
    fn lost_by_sack(
        marked: &mut usize,
        idx: u64,
        c: &mut TxChunk,
        paths: &mut [Path],
        out: &mut SackOutcome,
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
    ) {
        c.in_flight = false;
        flight_sub(paths, c.dest, c.len);
        Self::mark_fast(marked, idx, c, fast_rtx_dest(c.dest), out);
    }

    /// RFC 9260 §6.3.3 E3: marks every chunk in flight to `expired` for retransmission to
    /// `dest`. Returns the number of chunks marked.
    pub fn mark_t3(&mut self, expired: Ipv4Addr, dest: Ipv4Addr, paths: &mut [Path]) -> usize {
        let mut n = self.expire_copies(expired, dest, paths);
        for c in self.chunks.values_mut() {
            if c.dest != expired || c.acked || c.abandoned || c.tx_count == 0 {
                continue;
            }
            if c.in_flight {
                c.in_flight = false;
                flight_sub(paths, c.dest, c.len);
            }
            if c.dup.is_some_and(|d| d.in_flight) {
                // cSCTP: its copy on another path is still outstanding; that path's SACKs or
                // T3-rtx decide (`retransmit/perpath.rs`).
                continue;
            }
            if c.rtx.is_none() {
                self.marked += 1;
            }
            c.rtx = Some(RtxMark {
                cause: RtxCause::T3,
                dest,
            });
            c.misses = 0;
            c.fast_retransmitted = false;
            n += 1;
        }
        n
    }

    /// A-SCTP: every chunk in flight to `from` (a data path that just failed) is marked for
    /// retransmission to `to`, the new data path, with cause [`RtxCause::Failover`], as a
    /// T3-rtx expiry would mark it (RFC 9260 §6.3.3 E3) but without waiting for one. Returns
    /// the number of chunks marked.
    pub fn mark_failover(&mut self, from: Ipv4Addr, to: Ipv4Addr, paths: &mut [Path]) -> usize {
        let mut n = 0;
        for c in self.chunks.values_mut() {
            if c.dest != from || !c.in_flight || c.acked || c.abandoned || c.tx_count == 0 {
                continue;
            }
            c.in_flight = false;
            flight_sub(paths, from, c.len);
            if c.rtx.is_none() {
                self.marked += 1;
            }
            c.rtx = Some(RtxMark {
                cause: RtxCause::Failover,
                dest: to,
            });
            c.misses = 0;
            c.fast_retransmitted = false;
            n += 1;
        }
        n
    }

    /// Moves every retransmission mark and first transmission aimed at `from` (a deleted or
    /// inactive destination) to `to`.
    pub fn redirect(&mut self, from: Ipv4Addr, to: Ipv4Addr) {
        for c in self.chunks.values_mut() {
            if let Some(m) = &mut c.rtx {
                if m.dest == from {
                    m.dest = to;
                }
            }
            if c.tx_count == 0 && c.dest == from {
                c.dest = to;
            }
        }
    }

    /// The destination of the lowest-TSN chunk marked for retransmission.
    pub fn first_rtx_dest(&self) -> Option<Ipv4Addr> {
        if self.marked == 0 {
            return None;
        }
        self.chunks
            .values()
            .find_map(|c| c.rtx.filter(|_| !c.abandoned).map(|m| m.dest))
    }

    /// Whether any chunk is marked for retransmission.
    pub fn has_rtx(&self) -> bool {
        self.marked > 0
    }

    /// Indices of chunks marked for retransmission to `dest`, lowest TSN first.
    pub fn rtx_for(&self, dest: Ipv4Addr) -> Vec<u64> {
        if self.marked == 0 {
            return Vec::new();
        }
        self.chunks
            .iter()
            .filter(|(_, c)| !c.abandoned && c.rtx.is_some_and(|m| m.dest == dest))
            .map(|(i, _)| *i)
            .collect()
    }

    /// The lowest index that has a TSN but was never sent. Chunks are sent in TSN order, so
    /// the never-sent ones form the tail of the queue: scanned from the end.
    pub fn first_unsent(&self) -> Option<u64> {
        let mut first = None;
        for (i, c) in self.chunks.iter().rev() {
            if c.tx_count > 0 {
                break;
            }
            if !c.abandoned {
                first = Some(*i);
            }
        }
        first
    }

    /// Whether some chunk waits for its first transmission.
    pub fn has_unsent(&self) -> bool {
        self.first_unsent().is_some()
    }

    /// RFC 3758 §3.5 A3: abandons every chunk of message `msg` (taking them out of the flight
    /// and the outstanding count). Returns its stream, length and whether any part had been
    /// sent, if anything was abandoned.
    pub fn abandon(&mut self, msg: MessageId, paths: &mut [Path]) -> Option<(u16, usize, bool)> {
        let mut found: Option<(u16, usize, bool)> = None;
        for c in self.chunks.values_mut() {
            if c.msg != msg || c.abandoned {
                continue;
            }
            if c.tx_count > 0 && !c.acked {
                self.outstanding = self.outstanding.saturating_sub(c.len);
            }
            if c.acked && !c.nr_acked {
                self.renegable = self.renegable.saturating_sub(c.len);
            }
            c.abandoned = true;
            if c.rtx.take().is_some() {
                self.marked -= 1;
            }
            leave_flight(c, paths);
            let f = found.get_or_insert((c.chunk.stream_id, 0, false));
            f.1 += c.chunk.user_data.len();
            f.2 |= c.tx_count > 0;
        }
        found
    }

    /// Checks the incrementally kept counters and the flightsizes against a recount (tests).
    #[cfg(test)]
    pub(crate) fn check_invariants(&self, paths: &[Path]) {
        let outstanding: u32 = self
            .chunks
            .values()
            .filter(|c| c.tx_count > 0 && !c.acked && !c.abandoned)
            .map(|c| c.len)
            .sum();
        assert_eq!(outstanding, self.outstanding, "outstanding bytes");
        let renegable: u32 = self
            .chunks
            .values()
            .filter(|c| c.acked && !c.nr_acked && !c.abandoned)
            .map(|c| c.len)
            .sum();
        assert_eq!(renegable, self.renegable, "renegable bytes");
        assert!(self.chunks.values().all(|c| !c.nr_acked || c.acked));
        let marked = self.chunks.values().filter(|c| c.rtx.is_some()).count();
        assert_eq!(marked, self.marked, "marked chunks");
        for p in paths {
            let copies: u32 = self
                .chunks
                .values()
                .filter_map(|c| c.dup.filter(|d| d.in_flight && d.dest == p.addr))
                .chain(
                    self.acked_copies
                        .iter()
                        .filter(|(k, _)| k.dest == p.addr)
                        .map(|(_, c)| *c),
                )
                .map(|d| d.len)
                .sum();
            let flight: u32 = self
                .chunks
                .values()
                .filter(|c| c.in_flight && c.dest == p.addr)
                .map(|c| c.len)
                .sum::<u32>()
                + copies;
            assert_eq!(flight, p.flight_size, "flightsize of {}", p.addr);
        }
        for c in self.chunks.values() {
            assert!(
                !(c.in_flight && (c.acked || c.abandoned || c.rtx.is_some())),
                "{c:?}"
            );
        }
        assert!(self
            .chunks
            .keys()
            .all(|i| *i >= self.cum_idx && *i < self.next_idx));
    }

    /// Discards everything (association end or restart); returns the number of distinct
    /// messages that were still unacknowledged.
    pub fn clear(&mut self, paths: &mut [Path]) -> usize {
        let msgs: BTreeSet<MessageId> = self
            .chunks
            .values()
            .filter(|c| !c.abandoned)
            .map(|c| c.msg)
            .collect();
        self.chunks.clear();
        self.acked_copies.clear();
        self.outstanding = 0;
        self.renegable = 0;
        self.marked = 0;
        for p in paths {
            p.flight_size = 0;
        }
        self.cum_idx = self.next_idx;
        self.adv_peer_ack = self.next_idx;
        self.fast_recovery_exit = None;
        msgs.len()
    }
}

/// Sorted, merged ranges: blocks may overlap or come out of order on the wire.
fn merge_ranges(ranges: impl Iterator<Item = (u64, u64)>) -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = ranges.collect();
    all.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(all.len());
    for (lo, hi) in all {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// Whether `idx` lies in one of the sorted, merged `ranges`.
fn in_ranges(ranges: &[(u64, u64)], idx: u64) -> bool {
    let pos = ranges.partition_point(|(lo, _)| *lo <= idx);
    pos > 0 && ranges[pos - 1].1 >= idx
}

#[cfg(test)]
pub(super) mod test {
    use super::*;
    use crate::transport::sctp::config::SctpConfig;
    use sctpsim_kernel::Rng;
    use sctpsim_wire::sctp::{GapAckBlock, Ssn};

    pub(super) const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

    /// A queue with `n` chunks of 100 bytes sent to `A`, one per packet.
    pub(super) fn setup(n: u64) -> (RetransmitQueue, Vec<Path>) {
        let cfg = SctpConfig::rfc9260();
        let mut paths = vec![Path::new(
            &cfg,
            A,
            Ipv4Addr::new(10, 0, 0, 1),
            1 << 20,
            &mut Rng::from_seed(1),
        )];
        let mut q = RetransmitQueue::new(Tsn(u32::MAX - 2));
        push_sent(&mut q, &mut paths, &vec![1; n as usize]);
        (q, paths)
    }

    /// Queues and sends chunks of 100 bytes to `A`, `per_packet[k]` of them in packet `k`.
    pub(super) fn push_sent(q: &mut RetransmitQueue, paths: &mut [Path], per_packet: &[usize]) {
        for &n in per_packet {
            q.begin_packet();
            for _ in 0..n {
                let i = q.next_idx;
                let chunk = DataChunk {
                    tsn: Tsn(0),
                    stream_id: 0,
                    ssn: Ssn(i as u16),
                    ppid: 0,
                    unordered: false,
                    beginning: true,
                    ending: true,
                    immediate: false,
                    user_data: vec![0; 100],
                };
                let idx = q.push(chunk, MessageId(i), A, None);
                q.on_sent(idx, A, SimTime(0), paths);
            }
        }
    }

    pub(super) fn sack(q: &RetransmitQueue, cum_idx: u64, gaps: &[(u16, u16)]) -> SackChunk {
        SackChunk {
            per_path: false,
            dac_two_packets: false,
            cum_tsn_ack: q.tsn(cum_idx).prev(),
            a_rwnd: 100_000,
            gap_blocks: gaps
                .iter()
                .map(|&(start, end)| GapAckBlock { start, end })
                .collect(),
            duplicate_tsns: vec![],
        }
    }

    #[test]
    fn cumulative_ack_across_the_wrap() {
        let (mut q, mut paths) = setup(6);
        assert_eq!(paths[0].flight_size, 600);
        let s = sack(&q, 4, &[]);
        let out = q.process_sack(&s, &mut paths, &SackRules::standard(3, true), &|d| d);
        assert!(out.cum_advanced);
        assert_eq!(out.newly_acked.len(), 4);
        assert_eq!(q.cum_idx, 4);
        assert_eq!(paths[0].flight_size, 200);
        // An older SACK is dropped.
        let old = sack(&q, 2, &[]);
        assert!(
            q.process_sack(&old, &mut paths, &SackRules::standard(3, true), &|d| d)
                .stale
        );
    }

    #[test]
    fn htna_fast_retransmit_on_third_miss() {
        let (mut q, mut paths) = setup(8);
        // TSN index 0 lost; SACKs report 1, 1..2, 1..3 as gaps (cum = index -1).
        for (k, end) in [(1u16, 1u16), (2, 2), (3, 3)] {
            let s = sack(&q, 0, &[(2, end + 1)]);
            let out = q.process_sack(&s, &mut paths, &SackRules::standard(3, true), &|d| d);
            if k < 3 {
                assert!(out.fast_marked.is_empty(), "round {k}");
            } else {
                assert_eq!(out.fast_marked, vec![0]);
            }
        }
        assert_eq!(q.chunks[&0].rtx.map(|m| m.cause), Some(RtxCause::Fast));
        // A SACK that newly acks nothing adds no miss (HTNA).
        let (mut q2, mut p2) = setup(4);
        let s = sack(&q2, 0, &[(2, 2)]);
        q2.process_sack(&s, &mut p2, &SackRules::standard(3, true), &|d| d);
        for _ in 0..5 {
            q2.process_sack(&s, &mut p2, &SackRules::standard(3, true), &|d| d);
        }
        assert_eq!(q2.chunks[&0].misses, 1);
        // Without HTNA (RFC 2960) every SACK reporting the hole counts.
        let (mut q3, mut p3) = setup(4);
        let s = sack(&q3, 0, &[(2, 2)]);
        for _ in 0..3 {
            q3.process_sack(&s, &mut p3, &SackRules::standard(4, false), &|d| d);
        }
        assert_eq!(q3.chunks[&0].misses, 3);
        assert!(q3.chunks[&0].rtx.is_none());
        let out = q3.process_sack(&s, &mut p3, &SackRules::standard(4, false), &|d| d);
        assert_eq!(out.fast_marked, vec![0]);
    }

    #[test]
    fn renege_and_t3_marking() {
        let (mut q, mut paths) = setup(4);
        let s = sack(&q, 0, &[(2, 3)]);
        q.process_sack(&s, &mut paths, &SackRules::standard(3, true), &|d| d);
        assert_eq!(paths[0].flight_size, 200);
        let s = sack(&q, 0, &[(3, 3)]);
        let out = q.process_sack(&s, &mut paths, &SackRules::standard(3, true), &|d| d);
        assert!(out.reneged_dests.contains(&A));
        assert!(!q.chunks[&1].acked);
        let b = Ipv4Addr::new(10, 0, 1, 2);
        assert_eq!(q.mark_t3(A, b, &mut paths), 3);
        assert_eq!(q.rtx_for(b), vec![0, 1, 3]);
        assert_eq!(q.outstanding_bytes(), 300);
        assert_eq!(paths[0].flight_size, 0);
        assert_eq!(q.first_rtx_dest(), Some(b));
    }

    #[test]
    fn per_path_scope_is_never_stale_and_detects_no_renege() {
        let (mut q, mut paths) = setup(5);
        let std_rules = SackRules::standard(3, true);
        q.process_sack(&sack(&q, 2, &[]), &mut paths, &std_rules, &|d| d);
        assert_eq!(q.cum_idx, 2);
        // A per-path SACK whose (path) cumulative ack lies below the association's, reporting
        // index 3: read, not dropped as stale; 3 is acknowledged and credited to the path.
        let path_rules = SackRules::per_path(3, A);
        let s = sack(&q, 1, &[(3, 3)]);
        let out = q.process_sack(&s, &mut paths, &path_rules, &|d| d);
        assert!(!out.stale);
        assert_eq!(out.path_cum, 1);
        assert_eq!(
            out.newly_acked.iter().map(|a| a.idx).collect::<Vec<_>>(),
            [3]
        );
        assert_eq!(out.credited.iter().map(|a| a.idx).collect::<Vec<_>>(), [3]);
        assert!(q.chunks[&3].acked);
        // The same SACK as a standard one is stale.
        assert!(q.process_sack(&s, &mut paths, &std_rules, &|d| d).stale);
        // A per-path SACK that no longer reports 3 does not renege it ...
        let s = sack(&q, 2, &[]);
        let out = q.process_sack(&s, &mut paths, &path_rules, &|d| d);
        assert!(out.reneged_dests.is_empty());
        assert!(q.chunks[&3].acked);
        // ... a standard one does (RFC 9260 §6.2.1 D iii).
        let out = q.process_sack(&s, &mut paths, &std_rules, &|d| d);
        assert!(out.reneged_dests.contains(&A));
        assert!(!q.chunks[&3].acked);
        q.check_invariants(&paths);
    }

    #[test]
    fn sack_for_unsent_tsns_is_flagged() {
        let (mut q, mut paths) = setup(2);
        let s = sack(&q, 5, &[]);
        assert!(
            q.process_sack(&s, &mut paths, &SackRules::standard(3, true), &|d| d)
                .acks_unsent
        );
    }
}
