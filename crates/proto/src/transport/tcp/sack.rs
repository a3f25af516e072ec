//! Selective acknowledgment.
//!
//! * Sender side, [`Scoreboard`]: the retransmission queue with per-segment SACK state and the
//!   RFC 6675 §4 routines IsLost, SetPipe and NextSeg (rules 1, 3 and 4; rule 2, new data, is
//!   the connection's). Without SACK it is simply the retransmission queue.
//! * Receiver side, [`SackBlockList`]: which blocks an ACK reports, per RFC 2018 §4 — the block
//!   holding the most recently received segment first, then the most recently reported ones.
//!
//! Sequence space here is the connection's stream offsets (`u64`, 0 = the SYN), so nothing
//! wraps.

use std::collections::VecDeque;

use sctpsim_kernel::SimTime;

/// One transmitted segment still awaiting its cumulative acknowledgment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentSegment {
    /// Offset of the first octet.
    pub start: u64,
    /// Offset past the last octet (the FIN counts as one octet).
    pub end: u64,
    /// Whether the segment carries the FIN.
    pub fin: bool,
    /// RFC 2018: covered by a SACK block.
    pub sacked: bool,
    /// Retransmitted at least once.
    pub retransmitted: bool,
    /// When it was last sent.
    pub last_sent: SimTime,
}

impl SentSegment {
    /// Octets of sequence space (data plus FIN).
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// Whether the segment covers no sequence space (never true for a queued segment).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// Payload bytes (without the FIN).
    pub fn data_len(&self) -> u64 {
        self.len() - u64::from(self.fin)
    }
}

/// The sender's retransmission queue and SACK scoreboard.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoreboard {
    segs: VecDeque<SentSegment>,
    /// IsLost() per segment, valid after [`Scoreboard::mark_losses`].
    lost: VecDeque<bool>,
    sacked_bytes: u64,
}

/// What [`Scoreboard::ack`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Acked {
    /// Payload bytes newly acknowledged.
    pub data_bytes: u64,
    /// Whether the acknowledged range included the FIN.
    pub fin: bool,
}

impl Scoreboard {
    /// Appends a newly transmitted segment. Segments are contiguous: `seg.start` must equal the
    /// end of the last one (the caller's invariant).
    pub fn push(&mut self, seg: SentSegment) {
        debug_assert!(self.segs.back().is_none_or(|s| s.end == seg.start));
        self.segs.push_back(seg);
        self.lost.push_back(false);
    }

    /// Number of segments held.
    pub fn len(&self) -> usize {
        self.segs.len()
    }

    /// Whether nothing is outstanding.
    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// The segment at `idx`.
    pub fn get(&self, idx: usize) -> Option<&SentSegment> {
        self.segs.get(idx)
    }

    /// The segment at `idx`, mutably.
    pub fn get_mut(&mut self, idx: usize) -> Option<&mut SentSegment> {
        self.segs.get_mut(idx)
    }

    /// Iterates from the oldest segment.
    pub fn iter(&self) -> impl Iterator<Item = &SentSegment> {
        self.segs.iter()
    }

    /// Index of the segment containing `offset`.
    pub fn find(&self, offset: u64) -> Option<usize> {
        let idx = self.segs.partition_point(|s| s.end <= offset);
        self.segs
            .get(idx)
            .filter(|s| s.start <= offset)
            .map(|_| idx)
    }

    /// Splits the segment at `idx` so that a new one starts at `at` (strictly inside it). The
    /// FIN stays with the second part. Returns false if `at` is not inside.
    pub fn split(&mut self, idx: usize, at: u64) -> bool {
        let Some(seg) = self.segs.get_mut(idx) else {
            return false;
        };
        if at <= seg.start || at >= seg.end {
            return false;
        }
        let mut tail = seg.clone();
        seg.end = at;
        seg.fin = false;
        tail.start = at;
        let lost = self.lost.get(idx).copied().unwrap_or(false);
        self.segs.insert(idx + 1, tail);
        self.lost.insert(idx + 1, lost);
        true
    }

    /// Removes everything below `upto` (a cumulative ACK). A segment acknowledged in part is
    /// trimmed.
    pub fn ack(&mut self, upto: u64) -> Acked {
        let mut acked = Acked::default();
        while let Some(front) = self.segs.front_mut() {
            if front.end <= upto {
                acked.data_bytes += front.data_len();
                acked.fin |= front.fin;
                if front.sacked {
                    self.sacked_bytes -= front.len();
                }
                self.segs.pop_front();
                self.lost.pop_front();
            } else {
                if front.start < upto {
                    // Never reaches the FIN, which is the last octet of `end`.
                    let cut = upto - front.start;
                    acked.data_bytes += cut;
                    if front.sacked {
                        self.sacked_bytes -= cut;
                    }
                    front.start = upto;
                }
                break;
            }
        }
        acked
    }

    /// RFC 6675 §4 Update(): marks as SACKed every segment entirely inside one of `blocks`
    /// (offsets, clipped to the outstanding range). Blocks outside the outstanding data are
    /// ignored (RFC 2018 §8 allows any garbage to arrive). Returns the newly SACKed octets.
    pub fn update(&mut self, blocks: &[(u64, u64)]) -> u64 {
        let mut newly = 0;
        for &(left, right) in blocks {
            if left >= right {
                continue;
            }
            let mut idx = self.segs.partition_point(|s| s.start < left);
            while let Some(seg) = self.segs.get_mut(idx) {
                if seg.end > right {
                    break;
                }
                if !seg.sacked {
                    seg.sacked = true;
                    newly += seg.len();
                }
                idx += 1;
            }
        }
        self.sacked_bytes += newly;
        newly
    }

    /// Forgets all SACK information (RFC 2018 §8 after a reneging suspicion).
    pub fn clear_sacks(&mut self) {
        for seg in &mut self.segs {
            seg.sacked = false;
        }
        self.sacked_bytes = 0;
        self.lost.iter_mut().for_each(|l| *l = false);
    }

    /// SACKed octets outstanding.
    pub fn sacked_bytes(&self) -> u64 {
        self.sacked_bytes
    }

    /// The end of the highest SACKed segment.
    pub fn highest_sacked_end(&self) -> Option<u64> {
        if self.sacked_bytes == 0 {
            return None;
        }
        self.segs.iter().rev().find(|s| s.sacked).map(|s| s.end)
    }

    /// SACKed octets below `offset`.
    pub fn sacked_below(&self, offset: u64) -> u64 {
        if self.sacked_bytes == 0 {
            return 0;
        }
        self.segs
            .iter()
            .take_while(|s| s.end <= offset)
            .filter(|s| s.sacked)
            .map(SentSegment::len)
            .sum()
    }

    /// RFC 6675 §4 IsLost() for every segment: a segment is lost when `dupthresh`
    /// discontiguous SACKed segments lie above it, or more than `(dupthresh - 1)·smss` SACKed
    /// octets.
    pub fn mark_losses(&mut self, dupthresh: u32, smss: u32) {
        let byte_limit = u64::from(dupthresh.saturating_sub(1)) * u64::from(smss);
        let (mut count, mut bytes) = (0u32, 0u64);
        for (seg, lost) in self.segs.iter().zip(self.lost.iter_mut()).rev() {
            if seg.sacked {
                *lost = false;
                count = count.saturating_add(1);
                bytes += seg.len();
            } else {
                *lost = count >= dupthresh || bytes > byte_limit;
            }
        }
    }

    /// IsLost() of the segment at `idx`, as of the last [`Scoreboard::mark_losses`].
    pub fn is_lost(&self, idx: usize) -> bool {
        self.lost.get(idx).copied().unwrap_or(false)
    }

    /// RFC 6675 §4 SetPipe(): octets believed in the network. An unSACKed octet counts once if
    /// not lost and once more if it was retransmitted in this recovery (below `high_rxt`).
    pub fn pipe(&self, high_rxt: u64) -> u64 {
        self.segs
            .iter()
            .zip(&self.lost)
            .filter(|(seg, _)| !seg.sacked)
            .map(|(seg, &lost)| {
                let mut n = 0;
                if !lost {
                    n += seg.len();
                }
                if seg.start < high_rxt {
                    n += seg.len();
                }
                n
            })
            .sum()
    }

    /// RFC 6675 §4 NextSeg() rule 1 (`lost_only`) or rule 3: the first unSACKed segment at or
    /// above `high_rxt` with SACKed data above it that IsLost() (rule 1) or that merely has
    /// SACKed data above it (rule 3).
    pub fn next_hole(&self, high_rxt: u64, lost_only: bool) -> Option<usize> {
        let top = self.highest_sacked_end()?;
        self.segs
            .iter()
            .enumerate()
            .skip_while(|(_, s)| s.start < high_rxt)
            .take_while(|(_, s)| s.end <= top)
            .find(|(idx, s)| !s.sacked && (!lost_only || self.is_lost(*idx)))
            .map(|(idx, _)| idx)
    }

    /// RFC 6675 §4 NextSeg() rule 4: the segment holding the highest outstanding unSACKed
    /// octet.
    pub fn rescue_candidate(&self) -> Option<usize> {
        self.segs.iter().rposition(|s| !s.sacked)
    }
}

/// The receiver's memory of reported SACK blocks, most recent first (RFC 2018 §4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SackBlockList {
    recent: Vec<(u64, u64)>,
}

/// How many reported blocks are remembered (more than fit in one ACK).
const REMEMBERED_BLOCKS: usize = 8;

impl SackBlockList {
    /// A segment arrived out of order and now lies in the out-of-order block `block`: that
    /// block becomes the first one reported (RFC 2018 §4: "The first SACK block ... MUST
    /// specify the contiguous block of data containing the segment which triggered this
    /// ACK").
    pub fn on_out_of_order(&mut self, block: (u64, u64)) {
        self.recent.retain(|&(l, r)| r <= block.0 || l >= block.1);
        self.recent.insert(0, block);
        self.recent.truncate(REMEMBERED_BLOCKS);
    }

    /// The blocks to report, at most `cap`: the remembered blocks refreshed to the current
    /// extent of the out-of-order data (`block_at(offset)` returns the block containing
    /// `offset`), dropping those that were delivered (below `rcv_nxt`) and duplicates
    /// (RFC 2018 §4: "not subsets of a SACK block already included").
    pub fn blocks(
        &mut self,
        rcv_nxt: u64,
        cap: usize,
        block_at: impl Fn(u64) -> Option<(u64, u64)>,
    ) -> Vec<(u64, u64)> {
        let mut fresh: Vec<(u64, u64)> = Vec::with_capacity(self.recent.len());
        for &(left, _) in &self.recent {
            if let Some(block) = block_at(left) {
                if block.0 >= rcv_nxt && !fresh.contains(&block) {
                    fresh.push(block);
                }
            }
        }
        self.recent = fresh;
        self.recent.iter().take(cap).copied().collect()
    }

    /// Forgets everything (all out-of-order data was delivered).
    pub fn clear(&mut self) {
        self.recent.clear();
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn seg(start: u64, end: u64) -> SentSegment {
        SentSegment {
            start,
            end,
            fin: false,
            sacked: false,
            retransmitted: false,
            last_sent: SimTime(0),
        }
    }

    /// Ten 100-byte segments from offset 1.
    fn board() -> Scoreboard {
        let mut b = Scoreboard::default();
        for i in 0..10 {
            b.push(seg(1 + 100 * i, 101 + 100 * i));
        }
        b
    }

    #[test]
    fn update_marks_whole_segments_only() {
        let mut b = board();
        // [450, 601) covers only segment [501, 601); [900, 2000) covers [901, 1001).
        assert_eq!(
            b.update(&[(201, 401), (450, 601), (900, 2000)]),
            200 + 100 + 100
        );
        assert!(b.get(2).unwrap().sacked && b.get(3).unwrap().sacked);
        assert!(!b.get(4).unwrap().sacked);
        assert!(b.get(5).unwrap().sacked);
        // Repeats and garbage add nothing.
        assert_eq!(b.update(&[(201, 401), (5000, 1), (0, 0)]), 0);
        assert_eq!(b.sacked_bytes(), 400);
        assert_eq!(b.highest_sacked_end(), Some(1001));
        assert_eq!(b.sacked_below(601), 300);
    }

    #[test]
    fn is_lost_by_count_and_bytes() {
        let mut b = board();
        // SACK segments 2, 4, 6: segment 0, 1 have three SACKed segments above.
        b.update(&[(201, 301), (401, 501), (601, 701)]);
        b.mark_losses(3, 100);
        assert!(b.is_lost(0) && b.is_lost(1));
        // Segment 3 has two SACKed segments (200 bytes) above: not more than 2·SMSS.
        assert!(!b.is_lost(3));
        assert!(!b.is_lost(5));
        b.mark_losses(3, 50);
        // With SMSS 50, 200 SACKed bytes above segment 3 exceed 2·50.
        assert!(b.is_lost(3));
    }

    #[test]
    fn pipe_and_next_seg_rules() {
        let mut b = board();
        b.update(&[(201, 301), (401, 501), (601, 701)]);
        b.mark_losses(3, 100);
        // Outstanding unSACKed: 0,1,3,5,7,8,9; lost: 0,1. pipe = 5 segments.
        assert_eq!(b.pipe(1), 500);
        assert_eq!(b.next_hole(1, true), Some(0));
        // After retransmitting segment 0 (HighRxt = 101) it counts once more.
        assert_eq!(b.pipe(101), 600);
        assert_eq!(b.next_hole(101, true), Some(1));
        assert_eq!(b.next_hole(201, true), None);
        // Rule 3: segment 3 has SACKed data above it.
        assert_eq!(b.next_hole(201, false), Some(3));
        assert_eq!(b.next_hole(701, false), None);
        assert_eq!(b.rescue_candidate(), Some(9));
    }

    #[test]
    fn ack_trims_and_split() {
        let mut b = board();
        b.update(&[(101, 201)]);
        let acked = b.ack(151);
        assert_eq!(acked.data_bytes, 150);
        assert_eq!(b.get(0).unwrap().start, 151);
        assert_eq!(b.sacked_bytes(), 50);
        assert_eq!(b.find(250), Some(1));
        assert_eq!(b.find(5000), None);
        assert!(b.split(1, 230));
        assert_eq!((b.get(1).unwrap().end, b.get(2).unwrap().start), (230, 230));
        assert!(!b.split(1, 201));
        let acked = b.ack(10_000);
        assert_eq!(b.len(), 0);
        // [151, 201) + [201, 230) + [230, 301) + seven segments of 100.
        assert_eq!(acked.data_bytes, 50 + 29 + 71 + 700);
        assert_eq!(b.sacked_bytes(), 0);
    }

    #[test]
    fn fin_stays_with_the_tail() {
        let mut b = Scoreboard::default();
        b.push(SentSegment {
            fin: true,
            ..seg(1, 102)
        });
        assert_eq!(b.get(0).unwrap().data_len(), 100);
        assert!(!b.split(0, 102));
        assert!(b.split(0, 50));
        assert!(!b.get(0).unwrap().fin && b.get(1).unwrap().fin);
        let acked = b.ack(102);
        assert!(acked.fin);
        assert_eq!(acked.data_bytes, 100);
    }

    #[test]
    fn receiver_blocks_most_recent_first() {
        let mut list = SackBlockList::default();
        let ooo = [(200u64, 300u64), (400, 500), (600, 700), (800, 900)];
        let at = |o: u64| ooo.iter().copied().find(|&(l, r)| l <= o && o < r);
        list.on_out_of_order((200, 300));
        list.on_out_of_order((400, 500));
        list.on_out_of_order((600, 700));
        list.on_out_of_order((800, 900));
        assert_eq!(
            list.blocks(100, 3, at),
            vec![(800, 900), (600, 700), (400, 500)]
        );
        // A new arrival in an older block moves it to the front.
        list.on_out_of_order((200, 300));
        assert_eq!(list.blocks(100, 2, at), vec![(200, 300), (800, 900)]);
        // Delivered blocks disappear.
        assert_eq!(list.blocks(450, 4, at), vec![(800, 900), (600, 700)]);
    }
}
