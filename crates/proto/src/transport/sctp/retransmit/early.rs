//! Early retransmission for windows too small to reach the fast-retransmit threshold
//! ([`super::super::EarlyRetransmit`]): the marking rules, run on the TSN space right after
//! [`RetransmitQueue::process_sack`]. The association decides whether a rule applies (the
//! configuration, whether new data could go out) and what follows a mark (window reduction or
//! none, the T3-rtx timer, counters); see `association/data.rs`.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::{flight_sub, RetransmitQueue, RtxCause, RtxMark};
use crate::transport::sctp::path::Path;

impl RetransmitQueue {
    /// Ye, Saadawi & Lee (2003) §5: "when the source node receives a SACK and the gap block
    /// acknowledges the outstanding data chunk with highest TSN, then we can conclude that the
    /// outstanding data chunk with lowest TSN must be lost" — under their assumptions (1)
    /// link-level reliability and in-order arrival over one route and (2) MAC losses, not
    /// congestion. Call after `process_sack`: if the highest TSN sent (and not abandoned) is
    /// gap-acknowledged, marks the lowest outstanding TSN (sent, neither cumulatively nor gap
    /// acknowledged, not abandoned) for retransmission to its last destination (one route) and
    /// returns its index.
    ///
    /// Nothing is marked if that TSN already carries a mark (fast retransmit or T3-rtx will send
    /// it anyway), is not in flight, or was retransmitted by this rule before: the paper
    /// retransmits a lost TSN "only once using this algorithm". Its miss indications and
    /// fast-retransmit eligibility stay as they are, so a later fast retransmit or T3 expiry of
    /// the same TSN works as without the rule.
    pub fn mark_ye2003(&mut self, paths: &mut [Path]) -> Option<u64> {
        let highest_acked = self
            .chunks
            .values()
            .rev()
            .find(|c| c.tx_count > 0 && !c.abandoned)
            .is_some_and(|c| c.acked);
        if !highest_acked {
            return None;
        }
        let (idx, c) = self
            .chunks
            .iter_mut()
            .find(|(_, c)| c.tx_count > 0 && !c.abandoned && !c.acked)?;
        if c.early_retransmitted || !c.in_flight || c.rtx.is_some() {
            return None;
        }
        c.in_flight = false;
        flight_sub(paths, c.dest, c.len);
        c.early_retransmitted = true;
        c.rtx = Some(RtxMark {
            cause: RtxCause::Early,
            dest: c.dest,
        });
        self.marked += 1;
        Some(*idx)
    }

    /// RFC 5827 §3.2 segment-based Early Retransmit, SCTP form. The caller has checked (3.b),
    /// that no new data can be sent. Call after `process_sack` with the configured fast
    /// retransmit `threshold`:
    ///
    /// - (3.a) "The number of outstanding segments (oseg) -- segments sent but not yet
    ///   acknowledged -- is less than four." For SCTP a segment is a packet, whose DATA
    ///   chunks may be SACKed separately; oseg counts the packets (of their last transmission)
    ///   that still hold a chunk above the cumulative TSN ack, gap-acknowledged or not. "Four"
    ///   is RFC 5681's threshold of 3 plus one, generalised to `threshold + 1` (the rfc2960
    ///   profile waits for 4 miss indications, so oseg ≤ 4 there).
    /// - The threshold becomes ER_thresh = oseg − 1 (oseg ≥ 2: one packet cannot be reported
    ///   missing by another).
    /// - "When conditions (3.a) and (3.b) hold and ... SCTP is in use, Early Retransmit MUST be
    ///   used only when 'oseg - 1' segments have been SACKed. A segment is considered to be
    ///   SACKed when all of its ... data chunks (SCTP) have been indicated as arrived by the
    ///   receiver."
    ///
    /// When all hold, every chunk in flight with at least ER_thresh miss indications that was
    /// not fast-retransmitted before is marked as a fast retransmission would be (cause
    /// `Early`, to `fast_rtx_dest` of its destination, ineligible for another fast
    /// retransmit, §7.2.4 5). Returns the indices marked; the caller then runs the fast
    /// retransmit procedure with its cwnd reduction (RFC 9260 §7.2.4 2, §7.2.3).
    pub fn mark_rfc5827(
        &mut self,
        threshold: u32,
        paths: &mut [Path],
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
    ) -> Vec<u64> {
        // Packet number -> whether every chunk of it still above the cumulative ack is SACKed.
        let mut segments: BTreeMap<u64, bool> = BTreeMap::new();
        for c in self.chunks.values() {
            if c.tx_count == 0 || c.abandoned {
                continue;
            }
            let all = segments.entry(c.packet).or_insert(true);
            *all &= c.acked;
        }
        let oseg = segments.len() as u64;
        // oseg < threshold + 1, i.e. oseg ≤ threshold.
        if oseg < 2 || oseg > u64::from(threshold) {
            return Vec::new();
        }
        let er_thresh = oseg - 1;
        let sacked = segments.values().filter(|all| **all).count() as u64;
        if sacked < er_thresh {
            return Vec::new();
        }
        let mut marked = Vec::new();
        for (idx, c) in self.chunks.iter_mut() {
            if c.acked
                || c.abandoned
                || !c.in_flight
                || c.fast_retransmitted
                || c.rtx.is_some()
                || u64::from(c.misses) < er_thresh
            {
                continue;
            }
            c.in_flight = false;
            flight_sub(paths, c.dest, c.len);
            c.fast_retransmitted = true;
            c.rtx = Some(RtxMark {
                cause: RtxCause::Early,
                dest: fast_rtx_dest(c.dest),
            });
            self.marked += 1;
            marked.push(*idx);
        }
        marked
    }
}

#[cfg(test)]
mod test {
    use super::super::test::{sack, setup, A};
    use super::*;

    #[test]
    fn ye2003_marks_the_lowest_once_when_the_highest_is_gap_acked() {
        let (mut q, mut paths) = setup(4);
        // Index 0 lost; 1 and 2 gap-acked: the highest (3) is not yet, nothing happens.
        let s = sack(&q, 0, &[(2, 3)]);
        q.process_sack(
            &s,
            &mut paths,
            &super::super::SackRules::standard(4, false),
            &|d| d,
        );
        assert_eq!(q.mark_ye2003(&mut paths), None);
        let s = sack(&q, 0, &[(2, 4)]);
        q.process_sack(
            &s,
            &mut paths,
            &super::super::SackRules::standard(4, false),
            &|d| d,
        );
        assert_eq!(q.mark_ye2003(&mut paths), Some(0));
        assert_eq!(q.chunks[&0].rtx.map(|m| m.cause), Some(RtxCause::Early));
        assert!(!q.chunks[&0].fast_retransmitted);
        assert_eq!(paths[0].flight_size, 0);
        q.check_invariants(&paths);
        // Sent again: the rule does not fire a second time for it.
        q.begin_packet();
        q.on_sent(0, A, sctpsim_kernel::SimTime(5), &mut paths);
        q.process_sack(
            &s,
            &mut paths,
            &super::super::SackRules::standard(4, false),
            &|d| d,
        );
        assert_eq!(q.mark_ye2003(&mut paths), None);
        q.check_invariants(&paths);
    }

    #[test]
    fn rfc5827_counts_packets_and_needs_oseg_minus_one_sacked() {
        // Five chunks in five packets with threshold 4: oseg = 5 is not below 4 + 1.
        let (mut q, mut paths) = setup(5);
        for k in 2..=5u16 {
            let s = sack(&q, 0, &[(2, k)]);
            q.process_sack(
                &s,
                &mut paths,
                &super::super::SackRules::standard(5, false),
                &|d| d,
            );
        }
        assert!(q.mark_rfc5827(4, &mut paths, &|d| d).is_empty());
        // Four chunks: ER_thresh 3, reached with the third SACK (3 packets SACKed).
        let (mut q, mut paths) = setup(4);
        for k in 2..=3u16 {
            let s = sack(&q, 0, &[(2, k)]);
            q.process_sack(
                &s,
                &mut paths,
                &super::super::SackRules::standard(4, false),
                &|d| d,
            );
            assert!(q.mark_rfc5827(4, &mut paths, &|d| d).is_empty(), "{k}");
        }
        let s = sack(&q, 0, &[(2, 4)]);
        q.process_sack(
            &s,
            &mut paths,
            &super::super::SackRules::standard(4, false),
            &|d| d,
        );
        assert_eq!(q.mark_rfc5827(4, &mut paths, &|d| d), vec![0]);
        assert!(q.chunks[&0].fast_retransmitted);
        q.check_invariants(&paths);
    }

    #[test]
    fn rfc5827_a_packet_is_sacked_only_when_all_its_chunks_are() {
        // Chunks 0+1 in one packet, 2 and 3 in one packet each: oseg = 3, ER_thresh = 2.
        let (mut q, mut paths) = setup(0);
        super::super::test::push_sent(&mut q, &mut paths, &[2, 1, 1]);
        // 0 lost, 1..3 arrive: packets 2 and 3 SACKed (2 = oseg − 1), 0 has 2 misses.
        let s = sack(&q, 0, &[(2, 2)]);
        q.process_sack(
            &s,
            &mut paths,
            &super::super::SackRules::standard(4, false),
            &|d| d,
        );
        let s = sack(&q, 0, &[(2, 4)]);
        q.process_sack(
            &s,
            &mut paths,
            &super::super::SackRules::standard(4, false),
            &|d| d,
        );
        assert_eq!(q.mark_rfc5827(4, &mut paths, &|d| d), vec![0]);
        // Same, but chunk 1 (packet of 0) and 3 arrive, 2 does not: only one SACKed packet.
        let (mut q, mut paths) = setup(0);
        super::super::test::push_sent(&mut q, &mut paths, &[2, 1, 1]);
        for _ in 0..2 {
            let s = sack(&q, 0, &[(2, 2), (4, 4)]);
            q.process_sack(
                &s,
                &mut paths,
                &super::super::SackRules::standard(4, false),
                &|d| d,
            );
        }
        assert!(q.chunks[&0].misses >= 2);
        assert!(q.mark_rfc5827(4, &mut paths, &|d| d).is_empty());
        q.check_invariants(&paths);
    }
}
