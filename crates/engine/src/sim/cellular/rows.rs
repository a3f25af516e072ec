//! The `handoffs` rows of access-router mobility (`docs/metrics.md`): one per handover, from
//! the first beacon of the new access router to the release of the old address, with the
//! ASCONF exchanges of the mobile's cSCTP flow and the outage broken into its phases.
//!
//! # The outage and its phases
//!
//! The outage is the time from the last DATA on the old address to the first DATA on the new
//! one (0 if the new address carried data before the old one stopped). The handover's steps —
//! new access router detected, address acquired, add-ip acknowledged, set-primary sent, first
//! DATA on the new address — cut the time line before that first DATA into five phases (a step
//! that did not happen, or came out of order, gives an empty phase); each phase's share of the
//! outage is its overlap with the outage. The phases cover the whole time line up to the end
//! of the outage, so the shares add up to the outage (to floating-point rounding).

use super::super::Simulation;
use super::{cell_address, mobile, Closed, Mark};
use crate::results::HandoffResult;
use sctpsim_kernel::SimTime;
use std::net::Ipv4Addr;

/// The shares of the outage `[start, end]` in the phases cut by `points` (in order; `None`
/// for a step that did not happen): before the first point, then between consecutive points.
pub(crate) fn outage_shares(start: f64, end: f64, points: &[Option<f64>]) -> Vec<f64> {
    let mut cuts = Vec::with_capacity(points.len());
    let mut last = f64::NEG_INFINITY;
    for p in points {
        // A missing step, or one before its predecessor, leaves an empty phase.
        let t = p.map_or(last, |t| t.max(last));
        cuts.push(t);
        last = t;
    }
    let mut out = Vec::with_capacity(points.len());
    let mut lo = f64::NEG_INFINITY;
    for (i, &hi) in cuts.iter().enumerate() {
        // The last phase runs to the end of the outage.
        let hi = if i + 1 == cuts.len() { end.max(hi) } else { hi };
        let a = lo.max(start);
        let b = hi.min(end);
        out.push((b - a).max(0.0));
        lo = hi;
    }
    out
}

/// The first entry of `log` for `addr` sent at or after `from`: (sent, acknowledged).
fn first_for(
    log: &[(Ipv4Addr, SimTime, Option<SimTime>)],
    addr: Ipv4Addr,
    from: SimTime,
) -> Option<(SimTime, Option<SimTime>)> {
    log.iter()
        .find(|(a, sent, _)| *a == addr && *sent >= from)
        .map(|&(_, s, a)| (s, a))
}

impl Simulation {
    /// The row of a handover (`released` `SimTime::NEVER`: the old address was still held when
    /// the run ended).
    pub(super) fn cell_row(&self, c: &Closed) -> HandoffResult {
        let (m, old, new) = (c.m, c.old, c.new);
        let released = (c.released != SimTime::NEVER).then_some(c.released);
        let Some(cell) = self.cell.as_ref() else {
            return HandoffResult::empty("csctp", String::new());
        };
        let node = cell.mobiles[m as usize];
        let Some(mob) = mobile(&self.nodes, node) else {
            return HandoffResult::empty("csctp", String::new());
        };
        let name = |k: u32| self.nodes[cell.ars[k as usize].index()].name.clone();
        let mut row = HandoffResult::empty("csctp", self.nodes[node.index()].name.clone());
        row.from_agent = name(old);
        row.to_agent = name(new);
        let end = released.unwrap_or(self.now);
        let acquired = mob.marks.iter().rev().find_map(|x| match *x {
            Mark::Acquired(k, t) if k == new && t <= end => Some(t),
            _ => None,
        });
        let from = acquired.unwrap_or(SimTime::ZERO);
        let detected = mob.marks.iter().rev().find_map(|x| match *x {
            Mark::Detected(k, t) if k == new && t <= from => Some(t),
            _ => None,
        });
        let s = |t: Option<SimTime>| t.map_or(f64::NAN, |t| t.as_secs_f64());
        row.detected_s = s(detected);
        row.agent_heard_s = row.detected_s;
        row.acquired_s = s(acquired);
        row.link_lost_s = s(mob.last_beacon.get(&old).copied());
        row.released_s = s(released);
        // The ASCONFs of the first cSCTP flow at the mobile.
        let (new_addr, old_addr) = (cell_address(new, m), cell_address(old, m));
        let log = self
            .nodes
            .get(node.index())
            .into_iter()
            .flat_map(|n| &n.flows)
            .find_map(|&(f, _)| self.flows.get(f.index())?.handoff_log());
        let (mut add_acked, mut sp_sent) = (None, None);
        if let Some(log) = log {
            if let Some((sent, acked)) = first_for(&log.add_ip, new_addr, from) {
                row.add_ip_sent_s = sent.as_secs_f64();
                row.add_ip_acked_s = s(acked);
                add_acked = acked;
            }
            if let Some((sent, acked)) = first_for(&log.set_primary, new_addr, from) {
                row.set_primary_sent_s = sent.as_secs_f64();
                row.set_primary_acked_s = s(acked);
                sp_sent = Some(sent);
            }
            if let Some((sent, acked)) = first_for(&log.delete_ip, old_addr, from) {
                row.delete_ip_sent_s = sent.as_secs_f64();
                row.delete_ip_acked_s = s(acked);
            }
        }
        let (first_new, last_old) = (c.first_new, c.last_old);
        row.first_packet_s = s(first_new);
        row.last_old_data_s = s(last_old);
        if let (Some(a), Some(b)) = (last_old, first_new) {
            let (a, b) = (a.as_secs_f64(), b.as_secs_f64());
            row.outage_s = (b - a).max(0.0);
            let f = |t: Option<SimTime>| t.map(|t| t.as_secs_f64());
            let shares = outage_shares(
                a,
                b,
                &[f(detected), f(acquired), f(add_acked), f(sp_sent), Some(b)],
            );
            row.outage_detection_s = shares[0];
            row.outage_acquisition_s = shares[1];
            row.outage_add_ip_s = shares[2];
            row.outage_wait_primary_s = shares[3];
            row.outage_switch_s = shares[4];
        }
        let start = detected.unwrap_or(from);
        row.packets_lost = cell
            .drop_times
            .iter()
            .filter(|(t, _)| *t >= start && *t <= end)
            .map(|(_, n)| n)
            .sum();
        row.data_duplicated = mob
            .dup_times
            .iter()
            .filter(|t| **t >= start && **t <= end)
            .count() as u64;
        row
    }
}

#[cfg(test)]
mod tests {
    use super::outage_shares;

    #[test]
    fn shares_add_up_to_the_outage() {
        // Outage 10..14; steps at 9 (before), 11, 12, missing, 14.
        let s = outage_shares(
            10.0,
            14.0,
            &[Some(9.0), Some(11.0), Some(12.0), None, Some(14.0)],
        );
        assert_eq!(s, vec![0.0, 1.0, 1.0, 0.0, 2.0]);
        assert!((s.iter().sum::<f64>() - 4.0).abs() < 1e-12);
        // Out-of-order steps: empty phases, still the whole outage.
        let s = outage_shares(
            0.0,
            5.0,
            &[Some(3.0), Some(1.0), Some(6.0), Some(2.0), Some(5.0)],
        );
        assert!((s.iter().sum::<f64>() - 5.0).abs() < 1e-12);
        assert_eq!(s[0], 3.0);
        assert_eq!(s[1], 0.0);
        // No outage.
        let s = outage_shares(
            5.0,
            5.0,
            &[Some(1.0), Some(2.0), Some(3.0), Some(4.0), Some(5.0)],
        );
        assert_eq!(s.iter().sum::<f64>(), 0.0);
    }
}
