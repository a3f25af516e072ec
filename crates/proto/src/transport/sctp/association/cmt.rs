//! The association's seam, and CMT-SCTP on it (Iyengar, Amer & Stewart, IEEE/ACM ToN 14(5),
//! 2006, "ToN §n" below; options in `../cmt.rs`).
//!
//! The seam is the decisions the core asks its mode for, by name: the core (`mod.rs`,
//! `output.rs`, `data.rs`, `paths.rs`, ...) calls no mode's own functions. The multipath mode
//! ([`Multipath`]: plain SCTP, A-SCTP, CMT) answers:
//! - which destinations may carry new data now ([`SctpAssociation::new_data_dest`],
//!   [`SctpAssociation::carries_new_data`], and [`SctpAssociation::mode_data_path`]: A-SCTP's
//!   best route): plain SCTP and A-SCTP one data path, CMT every destination whose cwnd has
//!   room;
//! - how a SACK's gap reports become miss indications ([`SctpAssociation::miss_rule`]);
//! - where a retransmission goes ([`SctpAssociation::retarget_retransmissions`],
//!   [`SctpAssociation::mode_retransmission_path`], [`SctpAssociation::fast_rtx_elsewhere`]);
//! - what signals window growth and Fast Recovery: the association's cumulative ack and one
//!   Fast Recovery, or (CMT with CUC) each destination's pseudo-cumulative ack and its own Fast
//!   Recovery ([`SctpAssociation::per_destination_recovery`]);
//! - a destination's heartbeat rules ([`SctpAssociation::heartbeat_rules`]), and what a path
//!   going down or a switch of the data path does ([`SctpAssociation::mode_path_down`],
//!   [`SctpAssociation::on_data_path_switch`], [`SctpAssociation::default_switch_cause`]):
//!   A-SCTP's rules 1–3 and 5–6 (`asctp.rs`).
//!
//! cSCTP's duplicated transfer (`../csctp.rs`), orthogonal to the multipath mode, answers:
//! - the SACK mode: what a received SACK describes ([`SctpAssociation::sack_scope`]: the
//!   association, or one path for a per-path SACK, which `RetransmitQueue::process_sack`, the
//!   one SACK processor, takes as its [`super::super::retransmit::SackScope`]), and whether the
//!   receiver acknowledges a packet itself ([`SctpAssociation::mode_acknowledges`],
//!   [`SctpAssociation::on_data_arrival`], [`SctpAssociation::queue_mode_sacks`],
//!   [`SctpAssociation::on_delayed_sack_timer`]: per local address during a handoff);
//! - output interleaving: packets sent before the core's ([`SctpAssociation::interleaved_packet`]:
//!   the copies of new data) and what follows a new chunk's transmission
//!   ([`SctpAssociation::on_new_chunk_sent`]: its copy);
//! - the handoff state machines, stepped by ASCONFs with a handoff indication
//!   ([`SctpAssociation::on_peer_asconf_done`], [`SctpAssociation::on_own_asconf_acked`]).

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{HandoffIndication, SackChunk, Tsn};

use super::super::api::OutPacket;
use super::super::asctp::{Multipath, PathRoute};
use super::super::cmt::RtxPolicy;
use super::super::congestion::{window_open, CongestionControl, Standard};
use super::super::coupled::{
    lia_ca_steps, rp_initial_cwnd, rp_share, rp_ssthresh_after_loss, CoupledCc, CoupledPath, Share,
};
use super::super::path::Path;
use super::super::retransmit::{MissRule, SackScope};
use super::{PacketCtx, SctpAssociation};

impl SctpAssociation {
    /// CMT-SCTP is on.
    pub(crate) fn cmt(&self) -> bool {
        self.cfg.multipath == Multipath::Cmt
    }

    /// CMT's DAC on the receiving side (ToN §3.3): this endpoint delays SACKs for out-of-order
    /// data and reports one or two packets in each.
    pub(crate) fn cmt_dac_receiver(&self) -> bool {
        self.cmt() && self.cfg.cmt.dac
    }

    /// Seam: the rule a SACK's gap reports count miss indications by.
    pub(crate) fn miss_rule(&self) -> MissRule {
        match self.cfg.multipath {
            Multipath::Asctp if self.cfg.asctp_rules.tsn_range => MissRule::TsnRange,
            Multipath::Cmt if self.cfg.cmt.sfr => MissRule::SplitFast,
            _ => MissRule::Standard,
        }
    }

    /// Seam: window growth and Fast Recovery per destination (CMT with CUC, ToN §3.2).
    pub(crate) fn per_destination_recovery(&self) -> bool {
        self.cmt() && self.cfg.cmt.cuc
    }

    /// CMT: whether `p` may carry new data (usable and, with CMT-PF, not potentially failed).
    fn cmt_carrier(&self, p: &Path) -> bool {
        p.usable() && !(self.cfg.cmt.pf && p.pf)
    }

    /// Seam: the destination for the next packet of new data. CMT (ToN §2): the next
    /// destination in turn, after the one that got the last packet, whose cwnd has room; if none
    /// has, the data path of plain SCTP (the packet then carries no new data).
    pub(crate) fn new_data_dest(&mut self, now: SimTime) -> Ipv4Addr {
        if !self.cmt() {
            return self.data_dest(now);
        }
        let n = self.paths.len();
        for k in 0..n {
            let p = &self.paths[(self.cmt_next + k) % n];
            if self.cmt_carrier(p) && window_open(p) {
                return p.addr;
            }
        }
        self.choose_data_dest()
    }

    /// Seam: whether new data may go to `dest` in the packet being built. Plain SCTP and
    /// A-SCTP: only to the data path (recording a switch of it); CMT: to any carrier.
    pub(crate) fn carries_new_data(&mut self, now: SimTime, dest: Ipv4Addr) -> bool {
        if self.cmt() {
            return self.path(dest).is_some_and(|p| self.cmt_carrier(p));
        }
        dest == self.data_dest(now)
    }

    /// CMT: new data just went to `dest`; the next packet of new data starts the search after
    /// it.
    pub(crate) fn cmt_sent_new_data(&mut self, dest: Ipv4Addr) {
        if let Some(i) = self.path_index(dest) {
            self.cmt_next = (i + 1) % self.paths.len().max(1);
        }
    }

    /// Seam: whether some destination that may carry new data has room in its cwnd (RFC 5827
    /// (3.b) and the Ye et al. rule ask this).
    pub(crate) fn some_carrier_window_open(&self) -> bool {
        if !self.cmt() {
            let dest = self.choose_data_dest();
            return self.path(dest).is_some_and(window_open);
        }
        self.paths
            .iter()
            .any(|p| self.cmt_carrier(p) && window_open(p))
    }

    /// CMT's retransmission policy (ToN §4) for a chunk last sent to `last`, among the
    /// destinations that may carry data; ties go to the first in path order. `last` when no
    /// destination qualifies.
    pub(crate) fn cmt_rtx_dest(&self, last: Ipv4Addr) -> Ipv4Addr {
        let carriers: Vec<&Path> = self.paths.iter().filter(|p| self.cmt_carrier(p)).collect();
        if carriers.is_empty() {
            return last;
        }
        let best_by = |key: &dyn Fn(&Path) -> u64| -> Ipv4Addr {
            let mut best: Option<(&Path, u64)> = None;
            for p in &carriers {
                let k = key(p);
                if best.is_none_or(|(_, b)| k > b) {
                    best = Some((p, k));
                }
            }
            best.map_or(last, |(p, _)| p.addr)
        };
        match self.cfg.cmt.rtx_policy {
            RtxPolicy::Same => {
                if carriers.iter().any(|p| p.addr == last) {
                    last
                } else {
                    best_by(&|p| u64::from(p.ssthresh))
                }
            }
            RtxPolicy::Asap => {
                let room = |p: &Path| u64::from(p.cwnd.saturating_sub(p.flight_size));
                if carriers.iter().any(|p| room(p) > 0) {
                    best_by(&room)
                } else {
                    last
                }
            }
            RtxPolicy::Cwnd => best_by(&|p| u64::from(p.cwnd)),
            RtxPolicy::Ssthresh => best_by(&|p| u64::from(p.ssthresh)),
            RtxPolicy::LossRate => {
                // Lowest loss rate = highest (1 - rate); in parts per million to stay integral.
                best_by(&|p| {
                    let losses = p.stats.t3_timeouts + p.stats.fast_retransmit_reductions;
                    let sent = p.stats.data_chunks_sent.max(1);
                    1_000_000u64.saturating_sub(losses.saturating_mul(1_000_000) / sent)
                })
            }
        }
    }

    /// Seam: CMT sends the chunks just marked (`marked`, after the window reductions their loss
    /// caused) where its retransmission policy says. Other modes keep the destination chosen
    /// when they were marked (RFC 9260 §6.4 and the profile's alternate rules).
    pub(crate) fn retarget_retransmissions(&mut self, marked: &[u64]) {
        if !self.cmt() {
            return;
        }
        for idx in marked {
            let Some(last) = self.tx.chunks.get(idx).map(|c| c.dest) else {
                continue;
            };
            let to = self.cmt_rtx_dest(last);
            if let Some(m) = self.tx.chunks.get_mut(idx).and_then(|c| c.rtx.as_mut()) {
                m.dest = to;
            }
        }
    }

    /// CMT with CUC (ToN §3.2): a Fast Recovery per destination. Every destination in `dests`
    /// (the last destinations of chunks just marked) that is not in Fast Recovery enters it,
    /// with the highest TSN sent to it as its exit point, and its window is reduced (RFC 9260
    /// §7.2.3); one in Fast Recovery keeps its window (§7.2.4 step 2, per destination).
    pub(crate) fn cmt_enter_fast_recovery(&mut self, now: SimTime, dests: &BTreeSet<Ipv4Addr>) {
        let cc = Standard::new(&self.cfg);
        let loss = self.coupled_loss_ssthresh();
        for p in &mut self.paths {
            if !dests.contains(&p.addr) || p.fr_exit.is_some() {
                continue;
            }
            let exit = self
                .tx
                .chunks
                .iter()
                .rev()
                .find(|(_, c)| c.dest == p.addr && c.tx_count > 0)
                .map(|(i, _)| *i);
            p.fr_exit = Some(exit.unwrap_or(0));
            cc.on_fast_retransmit(now, p);
            Self::coupled_fast_retransmit(loss.as_deref(), p);
            p.stats.fast_retransmit_reductions += 1;
        }
    }

    /// CMT with CUC: a destination leaves its Fast Recovery once nothing sent to it up to its
    /// exit point is left unacknowledged.
    pub(crate) fn cmt_exit_fast_recovery(&mut self) {
        for i in 0..self.paths.len() {
            let Some(exit) = self.paths[i].fr_exit else {
                continue;
            };
            let addr = self.paths[i].addr;
            let open = self
                .tx
                .chunks
                .range(..=exit)
                .any(|(_, c)| !c.acked && !c.abandoned && c.dest == addr);
            if !open {
                self.paths[i].fr_exit = None;
            }
        }
    }

    /// CMT with coupled congestion control (`../coupled.rs`): the destinations the formulas
    /// sum over, as they are now. LIA: the destinations that may carry data (RFC 6356's
    /// subflows); CMT/RP: every destination of the association, as INET's and FreeBSD's
    /// totals run over all of them.
    fn coupled_paths(&self) -> Vec<(Ipv4Addr, CoupledPath)> {
        let lia = self.cfg.cmt.coupled == CoupledCc::Lia;
        self.paths
            .iter()
            .filter(|p| !lia || self.cmt_carrier(p))
            .map(|p| {
                let c = CoupledPath {
                    cwnd: p.cwnd,
                    ssthresh: p.ssthresh,
                    srtt: p.rto.srtt(),
                    mtu: p.mtu(),
                };
                (p.addr, c)
            })
            .collect()
    }

    /// The coupled algorithm in use, `Off` without CMT.
    pub(crate) fn coupled_cc(&self) -> CoupledCc {
        if self.cmt() {
            self.cfg.cmt.coupled
        } else {
            CoupledCc::Off
        }
    }

    /// CMT with coupled congestion control: each destination's increases for the SACK being
    /// processed, from the windows before it. LIA: the congestion-avoidance step (RFC 6356 §3;
    /// none, one MTU, while a carrier has no RTT); CMT/RP: the share that scales both slow
    /// start and the congestion-avoidance step of one MTU. `None` when uncoupled.
    pub(crate) fn coupled_increases(&self) -> Option<Vec<(Ipv4Addr, CoupledIncrease)>> {
        let cc = self.coupled_cc();
        if cc == CoupledCc::Off {
            return None;
        }
        let snap = self.coupled_paths();
        let paths: Vec<CoupledPath> = snap.iter().map(|(_, c)| *c).collect();
        if cc == CoupledCc::Lia {
            let steps = lia_ca_steps(&paths)?;
            return Some(
                snap.iter()
                    .zip(steps)
                    .map(|((a, _), step)| {
                        let inc = CoupledIncrease {
                            ca_step: Some(step),
                            ss_share: None,
                        };
                        (*a, inc)
                    })
                    .collect(),
            );
        }
        Some(
            snap.iter()
                .enumerate()
                .map(|(i, (a, c))| {
                    let share = rp_share(cc, &paths, i);
                    let inc = CoupledIncrease {
                        ca_step: share.map(|s| s.of(c.mtu)),
                        ss_share: share,
                    };
                    (*a, inc)
                })
                .collect(),
        )
    }

    /// CMT/RP: the ssthresh each destination takes if a loss (fast retransmit or T3-rtx
    /// timeout) is detected on it now, from the windows before the event. `None` for the
    /// algorithms that keep RFC 9260 §7.2.3's reduction (off, LIA).
    pub(crate) fn coupled_loss_ssthresh(&self) -> Option<Vec<(Ipv4Addr, u32)>> {
        let cc = self.coupled_cc();
        if !cc.resource_pooling() {
            return None;
        }
        let snap = self.coupled_paths();
        let paths: Vec<CoupledPath> = snap.iter().map(|(_, c)| *c).collect();
        Some(
            snap.iter()
                .enumerate()
                .filter_map(|(i, (a, _))| Some((*a, rp_ssthresh_after_loss(cc, &paths, i)?)))
                .collect(),
        )
    }

    /// CMT/RP after a fast-retransmit reduction of `p` (RFC 9260 §7.2.3 already applied):
    /// ssthresh and cwnd as the coupled decrease says (`loss`: from
    /// [`Self::coupled_loss_ssthresh`]).
    pub(crate) fn coupled_fast_retransmit(loss: Option<&[(Ipv4Addr, u32)]>, p: &mut Path) {
        if let Some(s) = coupled_ssthresh_of(loss, p.addr) {
            p.ssthresh = s;
            p.cwnd = s;
        }
    }

    /// CMT/RP after a timeout reduction of `p` (cwnd is one MTU already): ssthresh as the
    /// coupled decrease says.
    pub(crate) fn coupled_timeout(loss: Option<&[(Ipv4Addr, u32)]>, p: &mut Path) {
        if let Some(s) = coupled_ssthresh_of(loss, p.addr) {
            p.ssthresh = s;
        }
    }

    /// CMT/RP on entering ESTABLISHED: the initial window split among the destinations known
    /// then (a destination added later by ASCONF starts with the whole initial window).
    pub(crate) fn coupled_initial_windows(&mut self) {
        if !self.coupled_cc().resource_pooling() {
            return;
        }
        let n = self.paths.len();
        for p in &mut self.paths {
            let initial = self.cfg.initial_cwnd(u32::from(p.pmtu));
            if p.cwnd == initial {
                p.cwnd = rp_initial_cwnd(initial, p.mtu(), n);
            }
        }
    }

    /// CMT-PF (Natarajan et al. 2008): the T3-rtx timer of `addr` expired; the destination is
    /// potentially failed until a HEARTBEAT, sent now, is answered. It leaves its Fast
    /// Recovery as a timeout starts it over from slow start.
    pub(crate) fn cmt_on_t3(&mut self, now: SimTime, addr: Ipv4Addr) {
        let pf = self.cfg.cmt.pf;
        let Some(p) = self.path_mut(addr) else {
            return;
        };
        p.fr_exit = None;
        if pf && !p.pf {
            p.pf = true;
            self.stats.cmt_pf_entries += 1;
            self.send_heartbeat(now, addr);
        }
    }
}

/// A destination's coupled increases for one SACK ([`SctpAssociation::coupled_increases`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CoupledIncrease {
    /// The congestion-avoidance step ([`super::super::congestion::AckSample::ca_increase`]).
    pub ca_step: Option<u32>,
    /// The slow-start share ([`super::super::congestion::AckSample::ss_share`]).
    pub ss_share: Option<Share>,
}

fn coupled_ssthresh_of(loss: Option<&[(Ipv4Addr, u32)]>, addr: Ipv4Addr) -> Option<u32> {
    loss?.iter().find(|(a, _)| *a == addr).map(|(_, s)| *s)
}

/// The heartbeat rules for one destination (RFC 9260 §8.3, or A-SCTP rules 2 and 3 in
/// `asctp.rs`): the seam's answer to [`SctpAssociation::heartbeat_rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeartbeatRules {
    /// Nothing to probe: no heartbeat (A-SCTP: the path's route is lost and data does not go
    /// there).
    pub no_route: bool,
    /// A heartbeat every RTO, without §8.3's period, jitter and idle condition (A-SCTP rule 2).
    pub every_rto: bool,
    /// An unanswered heartbeat backs the RTO off (§8.3; not with A-SCTP rule 3).
    pub back_off: bool,
    /// An unanswered heartbeat counts against the association's error counter too (§8.1;
    /// A-SCTP: only on the data path, rule 3).
    pub count_association: bool,
    /// Record when the path's heartbeat went unanswered (A-SCTP: an answer to a heartbeat sent
    /// before then is late and does not bring the path back).
    pub note_given_up: bool,
}

impl SctpAssociation {
    // ------------------------------------------------------------ seam: destinations

    /// Seam: the heartbeat rules of destination `addr`.
    pub(crate) fn heartbeat_rules(&self, addr: Ipv4Addr) -> HeartbeatRules {
        let asctp = self.asctp();
        let route_lost = self.path(addr).is_some_and(|p| p.route == PathRoute::Lost);
        HeartbeatRules {
            no_route: asctp && route_lost && addr != self.current,
            every_rto: self.asctp_rule(|r| r.heartbeat_every_rto),
            back_off: !self.asctp_rule(|r| r.two_heartbeat_failures),
            count_association: !asctp || addr == self.current,
            note_given_up: asctp,
        }
    }

    /// Seam: the data path when the mode chooses it itself (A-SCTP rule 1, `asctp.rs`: the
    /// primary while usable, else the best usable route); `None`: RFC 9260 §6.4 / §8.2.
    pub(crate) fn mode_data_path(&self) -> Option<Ipv4Addr> {
        self.asctp().then(|| self.asctp_data_dest())
    }

    /// Seam: where a retransmission that RFC 9260 §6.4 sends to an alternate goes instead
    /// (A-SCTP rule 1: every DATA chunk on the data path); `None`: the alternate.
    pub(crate) fn mode_retransmission_path(&self) -> Option<Ipv4Addr> {
        self.asctp_rule(|r| r.retransmit_on_data_path)
            .then(|| self.asctp_data_dest())
    }

    /// Seam: a fast retransmission goes to an alternate destination (the profile's
    /// `fast_rtx_to_alternate`, or the mode: A-SCTP rule 1).
    pub(crate) fn fast_rtx_elsewhere(&self) -> bool {
        self.cfg.fast_rtx_to_alternate || self.mode_retransmission_path().is_some()
    }

    /// Seam: the cause of a switch of the data path back to the primary when nothing else
    /// named one: a return (RFC 9260 §6.4), except with A-SCTP, whose primary moves with the
    /// data path so that a switch to it is always a failover.
    pub(crate) fn default_switch_cause(&self, to: Ipv4Addr) -> super::super::stats::SwitchCause {
        use super::super::stats::SwitchCause;
        if to == self.primary && !self.asctp() {
            SwitchCause::Return
        } else {
            SwitchCause::Failover
        }
    }

    /// Seam: the data path just moved from `from` to `to` (A-SCTP rules 5 and 6).
    pub(crate) fn on_data_path_switch(&mut self, from: Ipv4Addr, to: Ipv4Addr) {
        if self.asctp() {
            self.asctp_on_switch(from, to);
        }
    }

    /// Seam: destination `addr` went down (RFC 9260 §8.2). Returns whether the mode moved the
    /// data itself (A-SCTP: off a failed data path or primary to the best route, rules 1 and
    /// 5); otherwise the core fails over as §6.4 says.
    pub(crate) fn mode_path_down(
        &mut self,
        now: SimTime,
        addr: Ipv4Addr,
        cause: super::super::stats::SwitchCause,
    ) -> bool {
        if !self.asctp() {
            return false;
        }
        if addr == self.current || addr == self.primary {
            // A-SCTP: "SCTP will also [switch] ... after the 2RTO Heartbeat timer expires on
            // the primary path" (§3).
            self.asctp_switch_from(now, addr, cause);
        }
        true
    }

    // ------------------------------------------------------------ seam: address changes

    /// Seam: the peer's ASCONF with handoff indication `indication` was processed (`added` /
    /// `deleted`: an Add IP / Delete IP in it succeeded); cSCTP's correspondent node steps its
    /// handoff state machine (Aydin & Shen Fig. 3).
    pub(crate) fn on_peer_asconf_done(
        &mut self,
        now: SimTime,
        indication: HandoffIndication,
        added: bool,
        deleted: bool,
    ) {
        self.csctp_peer_asconf(now, indication, added, deleted);
    }

    /// Seam: our ASCONF with handoff indication `indication` was acknowledged; cSCTP's mobile
    /// node steps its handoff state machine.
    pub(crate) fn on_own_asconf_acked(
        &mut self,
        now: SimTime,
        indication: HandoffIndication,
        added: bool,
        deleted: bool,
    ) {
        self.csctp_own_asconf_acked(now, indication, added, deleted);
    }

    // ------------------------------------------------------------ seam: output

    /// Seam (output interleaving): a packet the mode sends before the core's next one, if
    /// any: cSCTP's copies of new data during a handoff (`csctp.rs`).
    pub(crate) fn interleaved_packet(&mut self, now: SimTime) -> Option<OutPacket> {
        self.csctp_dup_packet(now)
    }

    /// Seam: new DATA chunk `idx` just went to `dest` in the packet being built (cSCTP: its
    /// copy to a second destination during a handoff).
    pub(crate) fn on_new_chunk_sent(&mut self, now: SimTime, idx: u64, dest: Ipv4Addr) {
        self.csctp_duplicate(now, idx, dest);
    }

    /// Seam: the packet just built carried new data to `dest` (CMT: the next packet of new
    /// data starts its search after `dest`).
    pub(crate) fn on_new_data_packet(&mut self, dest: Ipv4Addr) {
        if self.cmt() {
            self.cmt_sent_new_data(dest);
        }
    }

    /// Seam: chunk `idx` is being retransmitted (cSCTP counts the retransmissions of chunks
    /// that had a copy, which duplicated transfer was meant to spare).
    pub(crate) fn on_chunk_retransmitted(&mut self, idx: u64) {
        if self.tx.chunks.get(&idx).is_some_and(|c| c.had_copy) {
            self.stats.csctp_retransmissions_of_duplicated += 1;
        }
    }

    // ------------------------------------------------------------ seam: SACK mode

    /// Seam (SACK mode, receiver): a DATA chunk the receive state accepted (new or duplicate)
    /// arrived at our `local` address from `peer`; `cum_before` was the cumulative TSN before
    /// it (cSCTP records which address each TSN arrived at).
    pub(crate) fn on_data_arrival(
        &mut self,
        local: Ipv4Addr,
        peer: Ipv4Addr,
        cum_before: Tsn,
        tsn: Tsn,
    ) {
        self.csctp_on_data(local, peer, cum_before, tsn);
    }

    /// Seam (SACK mode, receiver): after a packet with DATA at `local`, `Some(arm)` when the
    /// mode acknowledges it itself (cSCTP during a handoff: per local address; `arm`: the
    /// delayed-SACK timer should run), `None` for the standard SACK of RFC 9260 §6.2.
    pub(crate) fn mode_acknowledges(&mut self, local: Ipv4Addr) -> Option<bool> {
        self.csctp_rx_active()
            .then(|| self.csctp_after_data_packet(local))
    }

    /// Seam (SACK mode, receiver): the delayed-SACK timer expired.
    pub(crate) fn on_delayed_sack_timer(&mut self) {
        self.csctp_delayed_sack();
    }

    /// Seam (SACK mode, receiver): queues the SACKs the mode sends itself before the next
    /// packet is built (cSCTP's per-path SACKs that are due).
    pub(crate) fn queue_mode_sacks(&mut self, now: SimTime) {
        self.csctp_queue_sacks(now);
    }

    /// Seam (SACK mode, sender): what a received SACK describes, the scope the one SACK
    /// processor applies. A per-path SACK (P flag) is read as one only with cSCTP on, for the
    /// path of its source address (Aydin & Shen §II); anything else describes the receiver's
    /// whole state (RFC 9260 §6.2.1).
    pub(crate) fn sack_scope(&self, ctx: &PacketCtx, sack: &SackChunk) -> SackScope {
        if sack.per_path && self.cfg.csctp.enabled {
            SackScope::Path(ctx.src.unwrap_or(Ipv4Addr::UNSPECIFIED))
        } else {
            SackScope::Association
        }
    }
}
