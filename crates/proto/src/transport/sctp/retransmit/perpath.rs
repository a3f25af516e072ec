//! cSCTP duplicated transfer, sender side (Aydin & Shen, "Evaluating Cellular SCTP over One-Hop
//! Wireless Networks", §II): during a handoff a new DATA chunk goes to the primary and a copy
//! to a second peer address. Each copy is accounted on its own path: flightsize, and (through
//! [`super::SackOutcome::credited`]) cwnd, RTT and miss indications are updated only by a
//! *per-path* SACK from the receiver address that copy was sent to. This solves the paper's
//! "SACK ambiguity" (Fig. 2): a SACK for path k never credits path k for a TSN that arrived on
//! another path.
//!
//! A per-path SACK goes through the one SACK processor, [`RetransmitQueue::process_sack`], with
//! [`super::SackScope::Path`]; this file holds that scope's walk, miss indications and
//! cumulative rule, and the copies' bookkeeping outside SACKs (sending, T3-rtx, handoff end).
//!
//! The chunk itself is acknowledged globally by any per-path SACK that covers it (it arrived
//! somewhere): it leaves the retransmission queue once the global cumulative point passes it.
//! A copy still in flight on another path at that moment is kept in
//! [`RetransmitQueue::acked_copies`] until its own path's SACK acknowledges it or declares it
//! lost, or its path's T3-rtx expires, so that the path's flightsize stays true.

use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;

use super::{flight_add, flight_sub, Acked, RetransmitQueue, RtxMark, SackOutcome, SackRules};
use crate::transport::sctp::path::Path;
use crate::transport::sctp::stats::RtxCause;

/// One copy of a DATA chunk sent to a destination other than the chunk's primary copy
/// ([`super::TxChunk::dest`]), or a copy still in flight of an acknowledged chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkCopy {
    /// The destination the copy went to.
    pub dest: Ipv4Addr,
    /// User-data length (what the copy adds to `dest`'s flightsize).
    pub len: u32,
    /// Counted in `dest`'s flightsize.
    pub in_flight: bool,
    /// Miss indications from per-path SACKs of `dest` (RFC 9260 §7.2.4, per path).
    pub misses: u32,
    /// When it was (last) sent.
    pub sent_at: SimTime,
    /// The chunk had been sent to this destination more than once (Karn: which transmission
    /// arrived is unknown, so its sending time orders nothing).
    pub retransmitted: bool,
}

/// Key of [`RetransmitQueue::acked_copies`]: TSN index and destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CopyKey {
    /// TSN index of the chunk.
    pub idx: u64,
    /// Destination of the copy.
    pub dest: Ipv4Addr,
}

impl RetransmitQueue {
    /// Records a duplicate of chunk `idx` (just sent to its primary destination) sent to
    /// `dest` at `now`, and adds it to `dest`'s flightsize.
    pub fn add_copy(&mut self, idx: u64, dest: Ipv4Addr, now: SimTime, paths: &mut [Path]) {
        if let Some(c) = self.chunks.get_mut(&idx) {
            if c.dest == dest || c.dup.is_some() {
                return;
            }
            c.had_copy = true;
            c.dup = Some(ChunkCopy {
                dest,
                len: c.len,
                in_flight: true,
                misses: 0,
                sent_at: now,
                retransmitted: false,
            });
            flight_add(paths, dest, c.len);
        }
    }

    /// The handoff ended (per-path SACKs stop): copies of acknowledged chunks leave the
    /// flight; a duplicate still in flight becomes the chunk's only copy if the chunk's own
    /// copy is no longer outstanding (so standard SACKs and T3-rtx cover it), and is dropped
    /// from the flight otherwise.
    pub fn drop_copies(&mut self, paths: &mut [Path]) {
        for c in self.chunks.values_mut() {
            if let Some(d) = c.dup.take() {
                if !d.in_flight {
                    continue;
                }
                if !c.in_flight && !c.acked && !c.abandoned && c.rtx.is_none() {
                    c.dest = d.dest;
                    c.in_flight = true;
                    c.misses = 0;
                } else {
                    flight_sub(paths, d.dest, d.len);
                }
            }
        }
        for (k, c) in std::mem::take(&mut self.acked_copies) {
            flight_sub(paths, k.dest, c.len);
        }
    }

    /// T3-rtx of `expired` (RFC 9260 §6.3.3, per path): its duplicate and acknowledged copies
    /// leave the flight; a chunk of which no copy is left outstanding and which is not
    /// acknowledged is marked for retransmission to `dest`. Returns the number marked.
    pub(super) fn expire_copies(
        &mut self,
        expired: Ipv4Addr,
        dest: Ipv4Addr,
        paths: &mut [Path],
    ) -> usize {
        let mut n = 0;
        for c in self.chunks.values_mut() {
            let Some(d) = c.dup.filter(|d| d.dest == expired) else {
                continue;
            };
            c.dup = None;
            if d.in_flight {
                flight_sub(paths, expired, d.len);
            }
            if c.dest != expired && !c.acked && !c.abandoned && !c.in_flight && c.rtx.is_none() {
                self.marked += 1;
                c.rtx = Some(RtxMark {
                    cause: RtxCause::T3,
                    dest,
                });
                n += 1;
            }
        }
        let keys: Vec<CopyKey> = self
            .acked_copies
            .keys()
            .filter(|k| k.dest == expired)
            .copied()
            .collect();
        for k in keys {
            if let Some(c) = self.acked_copies.remove(&k) {
                flight_sub(paths, expired, c.len);
            }
        }
        n
    }

    /// The walk of [`RetransmitQueue::process_sack`] for a per-path SACK for path `k` (the
    /// peer address it came from): its cumulative TSN ack `cum` (exclusive index) and gap
    /// ranges `reported` say which TSNs arrived on `k` (plus, below the per-path starting
    /// point, TSNs the receiver had before `k` got data, all acknowledged already or now).
    ///
    /// Every covered chunk is acknowledged globally. Path `k` is credited only for its own
    /// copies that were in flight (not declared lost). A chunk never sent ends the walk.
    /// Returns the sending time of the newest copy credited that was not a retransmission
    /// (what orders miss indications on `k`), if any.
    pub(super) fn ack_on_path(
        &mut self,
        k: Ipv4Addr,
        cum: i64,
        reported: &[(u64, u64)],
        paths: &mut [Path],
        out: &mut SackOutcome,
    ) -> Option<SimTime> {
        let covered = |idx: u64| {
            let pos = reported.partition_point(|(lo, _)| *lo <= idx);
            (idx as i64) < cum || (pos > 0 && reported[pos - 1].1 >= idx)
        };
        // Copies on k of chunks acknowledged before, that the SACK covers.
        let keys: Vec<CopyKey> = self
            .acked_copies
            .keys()
            .filter(|key| key.dest == k && covered(key.idx))
            .copied()
            .collect();
        let mut newest: Option<SimTime> = None;
        for key in keys {
            let Some(c) = self.acked_copies.remove(&key) else {
                continue;
            };
            flight_sub(paths, k, c.len);
            if !c.retransmitted {
                newest = newest.max(Some(c.sent_at));
            }
            out.credited.push(Acked {
                idx: key.idx,
                dest: k,
                len: c.len,
                retransmitted: c.retransmitted,
                was_in_flight: true,
            });
        }
        let end = self
            .chunks
            .iter()
            .find(|(_, c)| c.tx_count == 0)
            .map_or(u64::MAX, |(i, _)| *i);
        let below = (cum > 0).then(|| (0, (cum - 1) as u64));
        for (lo, hi) in below.into_iter().chain(reported.iter().copied()) {
            if lo >= end {
                break;
            }
            for (&idx, c) in self.chunks.range_mut(lo..=hi.min(end - 1)) {
                let original = c.dest == k && c.in_flight;
                let dup = c.dup.is_some_and(|d| d.dest == k && d.in_flight);
                if original {
                    c.in_flight = false;
                    flight_sub(paths, k, c.len);
                    if c.tx_count == 1 {
                        newest = newest.max(Some(c.last_sent));
                    }
                } else if let Some(d) = c.dup.as_mut().filter(|_| dup) {
                    d.in_flight = false;
                    flight_sub(paths, k, c.len);
                    newest = newest.max(Some(d.sent_at));
                }
                if original || dup {
                    out.credited.push(Acked {
                        idx,
                        dest: k,
                        len: c.len,
                        retransmitted: original && c.tx_count > 1,
                        was_in_flight: true,
                    });
                }
                if Self::ack_chunk(&mut self.outstanding, &mut self.marked, c) {
                    // Gap-acknowledged only: renegable until the cumulative ack covers it.
                    self.renegable = self.renegable.saturating_add(c.len);
                    out.newly_acked.push(Acked::of(idx, c, k, original || dup));
                }
                // Another copy still in flight elsewhere is now a copy of an acknowledged
                // chunk: its own path will account for it.
                if c.in_flight {
                    c.in_flight = false;
                    self.acked_copies.insert(
                        CopyKey { idx, dest: c.dest },
                        ChunkCopy {
                            dest: c.dest,
                            len: c.len,
                            in_flight: true,
                            misses: c.misses,
                            sent_at: c.last_sent,
                            retransmitted: c.tx_count > 1,
                        },
                    );
                }
                if let Some(d) = c.dup.take() {
                    if d.in_flight {
                        self.acked_copies.insert(CopyKey { idx, dest: d.dest }, d);
                    }
                }
            }
        }
        newest
    }

    /// Miss indications of a per-path SACK for `k` (RFC 9260 §7.2.4 per path, in the spirit
    /// of HTNA): a copy on `k` not covered gets one only if the SACK newly acknowledged on `k`
    /// a copy sent after it (`newest`; not a retransmitted one: Karn). Sending time, not TSN,
    /// orders copies on a path: a retransmission has an old TSN but must not be blamed for
    /// SACKs that left before it arrived. Every per-path SACK reporting a newer arrival on `k`
    /// counts one (the RFC 2960 rule: the receiver reports a hole a bounded number of times,
    /// see `csctp_rx.rs`). A copy reaching the threshold is lost on `k`; the chunk is marked
    /// for fast retransmission only if it is not acknowledged and no other copy of it is
    /// still outstanding.
    pub(super) fn count_misses_on_path(
        &mut self,
        k: Ipv4Addr,
        newest: SimTime,
        paths: &mut [Path],
        rules: &SackRules,
        fast_rtx_dest: &dyn Fn(Ipv4Addr) -> Ipv4Addr,
        out: &mut SackOutcome,
    ) {
        let threshold = rules.threshold;
        let keys: Vec<CopyKey> = self
            .acked_copies
            .iter()
            .filter(|(key, c)| key.dest == k && c.sent_at < newest)
            .map(|(key, _)| *key)
            .collect();
        for key in keys {
            let Some(c) = self.acked_copies.get_mut(&key) else {
                continue;
            };
            c.misses += 1;
            if c.misses >= threshold {
                let len = c.len;
                self.acked_copies.remove(&key);
                flight_sub(paths, k, len);
                out.lost += 1;
            }
        }
        let to = fast_rtx_dest(k);
        for (&idx, c) in self.chunks.iter_mut() {
            if c.tx_count == 0 {
                break;
            }
            if c.acked || c.abandoned {
                continue;
            }
            let original = c.dest == k && c.in_flight && c.last_sent < newest;
            let dup = c
                .dup
                .is_some_and(|d| d.dest == k && d.in_flight && d.sent_at < newest);
            let misses = if original {
                c.misses += 1;
                c.misses
            } else if let Some(d) = c.dup.as_mut().filter(|_| dup) {
                d.misses += 1;
                d.misses
            } else {
                continue;
            };
            if misses < threshold {
                continue;
            }
            // Lost on k.
            out.lost += 1;
            flight_sub(paths, k, c.len);
            if original {
                c.in_flight = false;
            } else {
                c.dup = None;
            }
            let elsewhere = c.in_flight || c.dup.is_some_and(|d| d.in_flight);
            if !elsewhere && c.rtx.is_none() {
                Self::mark_fast(&mut self.marked, idx, c, to, out);
            }
        }
    }

    /// A per-path SACK's cumulative rule: the association's cumulative point moves over every
    /// acknowledged chunk at the front.
    pub(super) fn advance_cum(&mut self, out: &mut SackOutcome) {
        let old = self.cum_idx;
        while let Some(c) = self.chunks.get(&self.cum_idx) {
            if !c.acked {
                break;
            }
            if !c.nr_acked && !c.abandoned {
                self.renegable = self.renegable.saturating_sub(c.len);
            }
            self.chunks.remove(&self.cum_idx);
            self.cum_idx += 1;
        }
        out.cum_advanced = self.cum_idx > old;
        self.adv_peer_ack = self.adv_peer_ack.max(self.cum_idx);
    }
}
