//! cSCTP per-path acknowledgement state of the data receiver (Aydin & Shen §II: "ack related
//! parameters per local address", `(lastRcvdTsn, rcvdTsnBlocks)`).
//!
//! Beside the association's global receive state (what is delivered, exactly once, and what a
//! standard SACK reports), the receiver keeps, per local address k that received DATA during
//! a handoff with duplicated transfer:
//!
//! * `start_k`: the global cumulative TSN when k first received data;
//! * `cum_k`: the highest TSN such that every TSN in (start_k, cum_k] arrived on k;
//! * the TSNs above cum_k that arrived on k (the gap blocks of k), and the duplicates of k.
//!
//! A per-path SACK for k carries cum_k, k's gap blocks and duplicates (sent from k, marked
//! with the SACK's P flag). Bounding rule (ours; the paper leaves it open): a hole of k that
//! lies at or below the global cumulative TSN — the TSN arrived on another path — is closed
//! (cum_k moves over it) once [`HOLE_REPORTS`] per-path SACKs for k have reported it, so the
//! state of a path never holds more than the receive window.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use sctpsim_wire::sctp::{GapAckBlock, SackChunk, Tsn};

use super::config::SctpConfig;

/// Per-path SACKs for path k that report a hole of k below the global cumulative TSN before
/// the hole is closed. The sender counts a miss indication per per-path SACK that reports a
/// higher TSN on the path (the RFC 2960 §7.2.4 rule), so 4 reports reach the fast-retransmit
/// threshold of RFC 9260 §7.2.4 (3) and of RFC 2960 (4): the sender has declared the copy
/// lost on k before cum_k moves over it (and so never credits k for it).
pub const HOLE_REPORTS: u32 = 4;

/// The ack state of one local address.
#[derive(Debug, Clone)]
struct PathAck {
    /// start_k.
    start: Tsn,
    /// cum_k, as a distance from `start`.
    cum: u32,
    /// Distances above `cum` of TSNs that arrived on k.
    above: BTreeSet<u32>,
    /// First distance of a hole → per-path SACKs that reported it.
    reports: BTreeMap<u32, u32>,
    /// Duplicate TSNs that arrived on k since its last SACK.
    dups: Vec<Tsn>,
    /// Packets with DATA on k since its last SACK.
    unacked_packets: u32,
    /// A SACK for k must go out.
    due: bool,
    /// Where k's SACKs go: the source of the latest DATA that arrived on k.
    peer: Ipv4Addr,
}

impl PathAck {
    fn advance(&mut self) {
        while self.above.remove(&(self.cum + 1)) {
            self.cum += 1;
        }
        let cum = self.cum;
        self.reports.retain(|d, _| *d > cum);
    }
}

/// The per-path ack state of every local address (empty outside a handoff).
#[derive(Debug, Clone, Default)]
pub(crate) struct PerPathRx {
    paths: BTreeMap<Ipv4Addr, PathAck>,
}

impl PerPathRx {
    /// Forgets everything (the handoff ended).
    pub fn clear(&mut self) {
        self.paths.clear();
    }

    /// Forgets `local` (it is being deleted: no SACK may come from it any more).
    pub fn remove(&mut self, local: Ipv4Addr) {
        self.paths.remove(&local);
    }

    /// A DATA chunk with `tsn` that the receive state accepted (new or duplicate) arrived at our
    /// address `local` from `peer`; `global_cum` is the global cumulative TSN before it and
    /// `earlier` the TSNs above it that arrived at `local` before per-path state existed (they
    /// are part of what `local` received).
    pub fn on_chunk(
        &mut self,
        local: Ipv4Addr,
        peer: Ipv4Addr,
        global_cum: Tsn,
        tsn: Tsn,
        earlier: &[Tsn],
    ) {
        let p = self.paths.entry(local).or_insert_with(|| PathAck {
            start: global_cum,
            cum: 0,
            above: earlier
                .iter()
                .map(|t| t.0.wrapping_sub(global_cum.0) as i32)
                .filter(|d| *d > 0)
                .map(|d| d as u32)
                .collect(),
            reports: BTreeMap::new(),
            dups: Vec::new(),
            unacked_packets: 0,
            due: false,
            peer,
        });
        p.peer = peer;
        let d = tsn.0.wrapping_sub(p.start.0) as i32;
        if d <= p.cum as i32 || !p.above.insert(d as u32) {
            p.dups.push(tsn);
            p.due = true; // RFC 9260 §6.2: a duplicate is acknowledged at once
            return;
        }
        p.advance();
    }

    /// After a packet with DATA arrived at `local`: decides whether k's SACK is due now (gaps
    /// or duplicates on k, every second packet, no delayed SACK: RFC 9260 §6.2, §6.7, per
    /// path). Returns whether the delayed-SACK timer should run.
    pub fn on_packet(&mut self, local: Ipv4Addr, cfg: &SctpConfig) -> bool {
        let Some(p) = self.paths.get_mut(&local) else {
            return false;
        };
        p.unacked_packets += 1;
        if !p.above.is_empty() || !cfg.delayed_sack || p.unacked_packets >= cfg.sack_freq.max(1) {
            p.due = true;
        }
        self.paths.values().any(|p| p.unacked_packets > 0 && !p.due)
    }

    /// Every path with unacknowledged packets (delayed-SACK timer expiry) or every path
    /// (`all`: a window update or another reason for a SACK now) gets its SACK due.
    pub fn make_due(&mut self, all: bool) {
        for p in self.paths.values_mut() {
            if all || p.unacked_packets > 0 || !p.dups.is_empty() {
                p.due = true;
            }
        }
    }

    /// The local addresses whose SACK is due, with the peer address it goes to.
    pub fn due(&self) -> Vec<(Ipv4Addr, Ipv4Addr)> {
        self.paths
            .iter()
            .filter(|(_, p)| p.due)
            .map(|(a, p)| (*a, p.peer))
            .collect()
    }

    /// The bounding rule: holes of every path at or below `global_cum` that were reported in
    /// [`HOLE_REPORTS`] SACKs are closed.
    pub fn close_holes(&mut self, global_cum: Tsn) {
        for p in self.paths.values_mut() {
            let g = global_cum.0.wrapping_sub(p.start.0) as i32;
            loop {
                if g <= p.cum as i32 {
                    break;
                }
                let hole = p.cum + 1;
                if p.reports.get(&hole).copied().unwrap_or(0) < HOLE_REPORTS {
                    break;
                }
                let hole_end = p.above.iter().next().map_or(u32::MAX, |first| first - 1);
                p.reports.remove(&hole);
                p.cum = hole_end.min(g as u32);
                p.advance();
                if p.cum < hole_end {
                    // The rest of the hole lies above the global cumulative TSN: still
                    // missing everywhere, reported afresh.
                    break;
                }
            }
        }
    }

    /// Builds the per-path SACK of `local` (cum_k, k's gap blocks and duplicates, the global
    /// `a_rwnd`) with at most `max_gaps` blocks within `budget` bytes of chunk space, counts
    /// the holes it reports and resets k's SACK bookkeeping.
    pub fn build(
        &mut self,
        local: Ipv4Addr,
        a_rwnd: u32,
        max_gaps: Option<u16>,
        budget: usize,
    ) -> Option<SackChunk> {
        let p = self.paths.get_mut(&local)?;
        let room = budget.saturating_sub(16) / 4;
        let cap = max_gaps
            .map_or(usize::MAX, usize::from)
            .min(room)
            .min(usize::from(u16::MAX));
        let mut blocks: Vec<(u32, u32)> = Vec::new();
        for &d in &p.above {
            match blocks.last_mut() {
                Some(b) if d == b.1 + 1 => b.1 = d,
                _ => blocks.push((d, d)),
            }
        }
        let mut gap_blocks = Vec::new();
        let mut hole = p.cum + 1;
        for (lo, hi) in blocks {
            let (Ok(start), Ok(end)) = (u16::try_from(lo - p.cum), u16::try_from(hi - p.cum))
            else {
                break;
            };
            if gap_blocks.len() >= cap {
                break;
            }
            *p.reports.entry(hole).or_default() += 1;
            hole = hi + 1;
            gap_blocks.push(GapAckBlock { start, end });
        }
        let mut duplicate_tsns = std::mem::take(&mut p.dups);
        duplicate_tsns.truncate(room.saturating_sub(gap_blocks.len()));
        p.unacked_packets = 0;
        p.due = false;
        Some(SackChunk {
            per_path: true,
            dac_two_packets: false,
            cum_tsn_ack: p.start + p.cum,
            a_rwnd,
            gap_blocks,
            duplicate_tsns,
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;

    const K: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 1);
    const P: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

    #[test]
    fn per_path_cum_gaps_and_the_bounding_rule() {
        let mut rx = PerPathRx::default();
        // k starts at global cum 10; TSN 12 and 14 arrive on k (11 and 13 elsewhere).
        rx.on_chunk(K, P, Tsn(10), Tsn(12), &[]);
        rx.on_chunk(K, P, Tsn(11), Tsn(14), &[]);
        let s = rx.build(K, 1000, None, 1000).unwrap();
        assert!(s.per_path);
        assert_eq!(s.cum_tsn_ack, Tsn(10));
        assert_eq!(
            s.gap_blocks,
            vec![
                GapAckBlock { start: 2, end: 2 },
                GapAckBlock { start: 4, end: 4 }
            ]
        );
        // Global cum is 14: hole 11 and hole 13 were reported in every SACK; once both have
        // HOLE_REPORTS reports they close and cum_k reaches 14.
        for _ in 1..HOLE_REPORTS {
            rx.close_holes(Tsn(14));
            let s = rx.build(K, 1000, None, 1000).unwrap();
            assert_eq!(
                s.cum_tsn_ack,
                Tsn(10),
                "not closed before {HOLE_REPORTS} reports"
            );
        }
        rx.close_holes(Tsn(14));
        let s = rx.build(K, 1000, None, 1000).unwrap();
        assert_eq!(s.cum_tsn_ack, Tsn(14));
        assert!(s.gap_blocks.is_empty());
        // A hole above the global cumulative TSN is never closed.
        rx.on_chunk(K, P, Tsn(14), Tsn(16), &[]);
        for _ in 0..10 {
            rx.build(K, 1000, None, 1000).unwrap();
            rx.close_holes(Tsn(14));
        }
        assert_eq!(rx.build(K, 1000, None, 1000).unwrap().cum_tsn_ack, Tsn(14));
        // A TSN that arrives twice on k is a duplicate of k.
        rx.on_chunk(K, P, Tsn(14), Tsn(16), &[]);
        assert_eq!(
            rx.build(K, 1000, None, 1000).unwrap().duplicate_tsns,
            vec![Tsn(16)]
        );
    }
}
