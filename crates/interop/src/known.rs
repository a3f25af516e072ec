//! Two ways a graceful run can end without both sides reporting SHUTDOWN COMPLETE that are not
//! a fault of sctpsim, recognised by their exact signature on the path and counted apart
//! (`Known` rows and `known=` in the RESULT line), never silently passed.
//!
//! - [`Known::ShutdownCompleteRace`]: sctpsim completed the shutdown, its SHUTDOWN COMPLETE was
//!   lost, and a late copy of an earlier usrsctp packet (duplicated or held back by the path)
//!   reached sctpsim after it had closed. RFC 9260 §8.4 rule 8 answers such an out-of-the-blue
//!   packet with an ABORT (T bit), which usrsctp, still in SHUTDOWN-ACK-SENT, rightly accepts
//!   (§8.5.1 B) and reports as a lost association. Every message was delivered both ways. Any
//!   SCTP pair does this under loss plus reordering; the run checks nothing more after it.
//! - [`Known::ForwardTsnNotResent`]: usrsctp abandoned data, the one FORWARD TSN (or
//!   I-FORWARD-TSN) that moved sctpsim's cumulative ack past it was lost, and usrsctp never sent
//!   it again, nor any DATA, although every SACK and SHUTDOWN of sctpsim reported a cumulative
//!   TSN below its new cumulative TSN (RFC 3758 §3.5 C3 and A5 ask for a new FORWARD TSN). With
//!   nothing else outstanding usrsctp 0.9.5 runs no T3 timer and answers neither a SHUTDOWN nor
//!   a SACK with the same cumulative ack (bundling a SACK with each retransmitted SHUTDOWN was
//!   tried on seed 402 and changed nothing), so sctpsim's T5-shutdown-guard ends the
//!   association (§9.2).

use sctpsim_wire::sctp::{ChunkRepr, SctpRepr, Tsn};

/// A recognised ending (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// sctpsim's SHUTDOWN COMPLETE lost, then its §8.4 ABORT (T) to a late usrsctp packet.
    ShutdownCompleteRace,
    /// usrsctp never resent a lost FORWARD TSN (or I-FORWARD-TSN).
    ForwardTsnNotResent,
}

/// What the harness saw on the path that the signatures need.
#[derive(Debug, Default)]
pub struct Watch {
    /// The new cumulative TSN of usrsctp's latest FORWARD TSN, if the path lost that packet and
    /// usrsctp sent no DATA or FORWARD TSN after it.
    lost_forward: Option<Tsn>,
    /// The highest cumulative TSN sctpsim reported (SACK or SHUTDOWN).
    our_cum: Option<Tsn>,
    /// sctpsim's endpoint sent an ABORT with the T bit after its association completed the
    /// shutdown.
    abort_after_complete: bool,
}

impl Watch {
    /// A usrsctp packet handed to the path; `delivered`: at least one copy will arrive.
    pub fn usrsctp_sent(&mut self, pkt: &SctpRepr, delivered: bool) {
        for c in &pkt.chunks {
            match c {
                ChunkRepr::ForwardTsn(f) => {
                    self.lost_forward = (!delivered).then_some(f.new_cum_tsn);
                }
                ChunkRepr::IForwardTsn(f) => {
                    self.lost_forward = (!delivered).then_some(f.new_cum_tsn);
                }
                ChunkRepr::Data(_) | ChunkRepr::IData(_) => self.lost_forward = None,
                _ => {}
            }
        }
    }

    /// An sctpsim packet handed to the path; `complete`: sctpsim's association had completed
    /// its shutdown before this packet.
    pub fn sctpsim_sent(&mut self, pkt: &SctpRepr, complete: bool) {
        for c in &pkt.chunks {
            let cum = match c {
                ChunkRepr::Sack(s) => s.cum_tsn_ack,
                ChunkRepr::Shutdown { cum_tsn_ack } => *cum_tsn_ack,
                ChunkRepr::Abort { t_bit: true, .. } if complete => {
                    self.abort_after_complete = true;
                    continue;
                }
                _ => continue,
            };
            self.our_cum = Some(self.our_cum.map_or(cum, |c| c.later(cum)));
        }
    }

    /// The recognised ending of a graceful run whose only failures are `failures`, if its
    /// signature matches exactly; `None` otherwise (the failures stand).
    pub fn classify(&self, failures: &[String], end: &End) -> Option<Known> {
        let only_unfinished = !failures.is_empty()
            && failures
                .iter()
                .all(|f| f.starts_with("not finished") || f.starts_with("an association was lost"));
        if !only_unfinished || !end.all_reliable_delivered {
            return None;
        }
        if end.ours_complete && !end.ours_lost && end.theirs_lost && self.abort_after_complete {
            return Some(Known::ShutdownCompleteRace);
        }
        let behind = match (self.lost_forward, self.our_cum) {
            (Some(fwd), Some(cum)) => fwd.is_after(cum),
            _ => false,
        };
        if behind && !end.ours_complete && end.ours_lost {
            return Some(Known::ForwardTsnNotResent);
        }
        None
    }
}

/// How a graceful run ended, as the harness knows it.
#[derive(Debug, Clone, Copy)]
pub struct End {
    /// sctpsim reported SHUTDOWN COMPLETE.
    pub ours_complete: bool,
    /// sctpsim reported its association lost.
    pub ours_lost: bool,
    /// usrsctp reported its association lost.
    pub theirs_lost: bool,
    /// Every reliable message arrived, both ways.
    pub all_reliable_delivered: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use sctpsim_wire::sctp::{ForwardTsnChunk, SackChunk};

    fn pkt(chunks: Vec<ChunkRepr>) -> SctpRepr {
        SctpRepr {
            src_port: 1,
            dst_port: 2,
            verification_tag: 3,
            chunks,
        }
    }

    fn fwd(tsn: u32) -> ChunkRepr {
        ChunkRepr::ForwardTsn(ForwardTsnChunk {
            new_cum_tsn: Tsn(tsn),
            streams: Vec::new(),
        })
    }

    fn sack(cum: u32) -> ChunkRepr {
        ChunkRepr::Sack(SackChunk {
            per_path: false,
            dac_two_packets: false,
            cum_tsn_ack: Tsn(cum),
            a_rwnd: 1000,
            gap_blocks: Vec::new(),
            duplicate_tsns: Vec::new(),
        })
    }

    const STALL: [&str; 2] = [
        "not finished after 900 s",
        "an association was lost in a graceful run",
    ];

    fn stall() -> Vec<String> {
        STALL.iter().map(|s| s.to_string()).collect()
    }

    fn lost_by_guard() -> End {
        End {
            ours_complete: false,
            ours_lost: true,
            theirs_lost: true,
            all_reliable_delivered: true,
        }
    }

    #[test]
    fn a_lost_forward_tsn_never_resent_is_recognised_only_while_our_ack_is_behind_it() {
        let mut w = Watch::default();
        w.sctpsim_sent(&pkt(vec![sack(321)]), false);
        w.usrsctp_sent(&pkt(vec![fwd(322)]), false);
        assert_eq!(
            w.classify(&stall(), &lost_by_guard()),
            Some(Known::ForwardTsnNotResent)
        );
        // Delivered, or our ack already past it: not this signature.
        let mut delivered = Watch::default();
        delivered.sctpsim_sent(&pkt(vec![sack(321)]), false);
        delivered.usrsctp_sent(&pkt(vec![fwd(322)]), true);
        assert_eq!(delivered.classify(&stall(), &lost_by_guard()), None);
        w.sctpsim_sent(&pkt(vec![sack(322)]), false);
        assert_eq!(w.classify(&stall(), &lost_by_guard()), None);
    }

    #[test]
    fn any_other_failure_or_a_missing_message_keeps_the_run_failed() {
        let mut w = Watch::default();
        w.sctpsim_sent(&pkt(vec![sack(10)]), false);
        w.usrsctp_sent(&pkt(vec![fwd(12)]), false);
        let mut f = stall();
        f.push("sctpsim received: a corrupt message".into());
        assert_eq!(w.classify(&f, &lost_by_guard()), None);
        let missing = End {
            all_reliable_delivered: false,
            ..lost_by_guard()
        };
        assert_eq!(w.classify(&stall(), &missing), None);
    }

    #[test]
    fn the_shutdown_complete_race_needs_our_abort_after_completion() {
        let end = End {
            ours_complete: true,
            ours_lost: false,
            theirs_lost: true,
            all_reliable_delivered: true,
        };
        let mut w = Watch::default();
        let abort = || ChunkRepr::Abort {
            t_bit: true,
            causes: Vec::new(),
        };
        w.sctpsim_sent(&pkt(vec![abort()]), false);
        assert_eq!(
            w.classify(&stall(), &end),
            None,
            "an ABORT before completion"
        );
        w.sctpsim_sent(&pkt(vec![abort()]), true);
        assert_eq!(
            w.classify(&stall(), &end),
            Some(Known::ShutdownCompleteRace)
        );
    }
}
