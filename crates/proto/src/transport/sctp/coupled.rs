//! CMT's coupled congestion control ([`CoupledCc`]): the formulas, as pure functions of the
//! destinations' windows, ssthresholds and smoothed RTTs, so that each can be checked by hand
//! (`tests/coupled.rs`). The association (`association/cmt.rs`) takes a snapshot of its
//! destinations ([`CoupledPath`]) before a SACK or a timeout changes them and applies what
//! these functions return through the [`super::congestion::AckSample`] and after the
//! standard reductions.
//!
//! Uncoupled CMT (ToN) runs RFC 9260 §7.2 on every destination: at a bottleneck that two of its
//! paths share, it takes two flows' share. The coupled algorithms give the association, over
//! all its destinations, about the growth of one flow:
//!
//! - **LIA**, RFC 6356 §3: only congestion avoidance is coupled, each destination's step is
//!   min(MTU, α · MTU · cwnd_i / cwnd_total) with
//!   α = cwnd_total · max_i(cwnd_i / rtt_i²) / (Σ_i cwnd_i / rtt_i)²
//!   ("only applies to the increase phase of the congestion avoidance state").
//! - **CMT/RPv1** (Dreibholz, Becke, Pulinthanath & Rathgeb, IEEE AINA 2010, "RPv1"): every
//!   increase is scaled by the destination's share of the summed ssthresh,
//!   ssthresh_i / Σ ssthresh (slow start: ⌈min(acked, MTU) · share⌉; congestion avoidance:
//!   ⌈MTU · share⌉ per cwnd acknowledged), and a loss takes half of the *summed* window from the
//!   destination that saw it: ssthresh_i = max(cwnd_i − ⌈cwnd_total / 2⌉, MTU).
//! - **CMT/RPv2** (Dreibholz, Becke, Adhari & Rathgeb, ConTEL 2011, "RPv2"): the share is the
//!   destination's part of the summed bandwidth, b_i = cwnd_i / srtt_i over Σ b, so that a
//!   destination of long RTT no longer gets the share its (larger) window would give it; a
//!   loss takes max(cwnd_i / 2, srtt_i · Σ b / 2) from it, half the association's bandwidth
//!   expressed as a window of this destination's RTT (the second term is never the smaller,
//!   since Σ b ≥ b_i; INET keeps the first as a floor, and so do we, in case of rounding).
//!
//! Both RP versions also split the initial window: each destination starts with the RFC 9260
//! §7.2.1 initial cwnd divided by the number of destinations, at least one MTU. A
//! retransmission timeout sets ssthresh as a loss does and cwnd to one MTU (RFC 9260 §7.2.3).
//!
//! Where the formulas come from. The papers state the algorithms; the constants (the floor of
//! one MTU after a decrease, the rounding up of an increase, the initial split) are those of
//! INET's `SctpCcFunctions.cc` (written by the papers' first author; `rpMinCwnd` = 1 MTU,
//! path blocking off by default, both as there), read to check our reading of the papers, not
//! copied. FreeBSD's SCTP (`sctp_cc_functions.c`, `sctp_cmt_on_off` = 2 for RPv1 and 3 for
//! RPv2) has the same increases but floors a decrease at 4 · MTU · ssthresh_i / Σ ssthresh
//! (RPv1) or 4 · MTU · b_i / Σ b (RPv2) and decreases RPv2 after a fast retransmit by half
//! the summed window, as RPv1; we follow the papers' authors' implementation.
//!
//! Integer arithmetic: a bandwidth is cwnd · 10⁹ / srtt in bytes per second (floor), shares
//! are exact fractions of `u128`. LIA keeps the floating-point arithmetic it was built with
//! (RFC 6356's α has no natural integer form; its results are unchanged).

use sctpsim_kernel::SimDuration;

pub use super::cmt::CoupledCc;

/// One destination as the coupled formulas see it (before the event being processed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoupledPath {
    /// cwnd in bytes.
    pub cwnd: u32,
    /// ssthresh in bytes.
    pub ssthresh: u32,
    /// The smoothed RTT; `None` before the first measurement.
    pub srtt: Option<SimDuration>,
    /// The MTU as the window arithmetic counts it ([`super::path::Path::mtu`]).
    pub mtu: u32,
}

/// A destination's share of an increase, `num / den` (0 < share ≤ 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// Numerator.
    pub num: u128,
    /// Denominator (never 0).
    pub den: u128,
}

impl Share {
    /// ⌈bytes · share⌉, at least one byte (INET rounds the increase up; FreeBSD raises a zero
    /// increase to 1): a window always grows a little.
    pub fn of(self, bytes: u32) -> u32 {
        let den = self.den.max(1);
        let v = (u128::from(bytes) * self.num).div_ceil(den);
        u32::try_from(v).unwrap_or(u32::MAX).max(1)
    }
}

const NS_PER_S: u128 = 1_000_000_000;

/// RPv2's bandwidths cwnd_i / srtt_i in bytes per second (floor). Until every destination has
/// an RTT measurement, every srtt counts as 1 s (the bandwidths compare as the windows do).
fn bandwidths(paths: &[CoupledPath]) -> Vec<u128> {
    let all_measured = paths
        .iter()
        .all(|p| p.srtt.is_some_and(|s| s.as_nanos() > 0));
    paths
        .iter()
        .map(|p| {
            let srtt_ns = match p.srtt {
                Some(s) if all_measured => u128::from(s.as_nanos()),
                _ => NS_PER_S,
            };
            u128::from(p.cwnd) * NS_PER_S / srtt_ns
        })
        .collect()
}

/// The share of destination `i` (an index into `paths`) in every increase, slow start and
/// congestion avoidance: RPv1 ssthresh_i / Σ ssthresh, RPv2 b_i / Σ b. `None` for the
/// algorithms that do not scale increases this way (off, LIA) or an index out of range.
pub fn rp_share(cc: CoupledCc, paths: &[CoupledPath], i: usize) -> Option<Share> {
    let (num, den) = match cc {
        CoupledCc::Off | CoupledCc::Lia => return None,
        CoupledCc::Rpv1 => {
            let own = u128::from(paths.get(i)?.ssthresh);
            let total: u128 = paths.iter().map(|p| u128::from(p.ssthresh)).sum();
            (own, total)
        }
        CoupledCc::Rpv2 => {
            let b = bandwidths(paths);
            (*b.get(i)?, b.iter().sum())
        }
    };
    if den == 0 {
        // Nothing to share by (all windows or thresholds zero): as if alone.
        return Some(Share { num: 1, den: 1 });
    }
    Some(Share { num, den })
}

/// The ssthresh of destination `i` after a loss on it (fast retransmit or timeout), from the
/// destinations before the loss; the caller sets cwnd to it (fast retransmit) or to one MTU
/// (timeout). RPv1: max(cwnd_i − ⌈cwnd_total / 2⌉, MTU). RPv2: max(cwnd_i − r, MTU) with
/// r = max(⌊cwnd_i / 2⌋, ⌊srtt_i · Σ b / 2⌋). `None` for off and LIA (RFC 9260 §7.2.3's
/// reduction applies) or an index out of range.
pub fn rp_ssthresh_after_loss(cc: CoupledCc, paths: &[CoupledPath], i: usize) -> Option<u32> {
    let p = paths.get(i)?;
    let cwnd = u128::from(p.cwnd);
    let reduction = match cc {
        CoupledCc::Off | CoupledCc::Lia => return None,
        CoupledCc::Rpv1 => {
            let total: u128 = paths.iter().map(|q| u128::from(q.cwnd)).sum();
            total.div_ceil(2)
        }
        CoupledCc::Rpv2 => {
            let b = bandwidths(paths);
            let all_measured = paths
                .iter()
                .all(|q| q.srtt.is_some_and(|s| s.as_nanos() > 0));
            let srtt_ns = match p.srtt {
                Some(s) if all_measured => u128::from(s.as_nanos()),
                _ => NS_PER_S,
            };
            let total: u128 = b.iter().sum();
            (cwnd / 2).max(total * srtt_ns / (2 * NS_PER_S))
        }
    };
    let left = cwnd.saturating_sub(reduction);
    Some(u32::try_from(left).unwrap_or(u32::MAX).max(p.mtu))
}

/// CMT/RP's initial cwnd of each of `n` destinations: the single-path initial window divided
/// among them, at least one MTU.
pub fn rp_initial_cwnd(initial: u32, mtu: u32, n: usize) -> u32 {
    let n = u32::try_from(n.max(1)).unwrap_or(u32::MAX);
    (initial / n).max(mtu)
}

/// LIA (RFC 6356 §3): each destination's step when its partial_bytes_acked reaches cwnd,
/// min(MTU, ⌊α · MTU · cwnd_i / cwnd_total⌋), α as in the module documentation (the per-ACK
/// increase of §3 summed over one window of ACKs). `None` (one MTU, uncoupled) when a
/// destination has no RTT yet or the sums are zero.
pub fn lia_ca_steps(paths: &[CoupledPath]) -> Option<Vec<u32>> {
    let mut v = Vec::with_capacity(paths.len());
    for p in paths {
        let rtt = p.srtt?.as_secs_f64();
        if rtt <= 0.0 {
            return None;
        }
        v.push((f64::from(p.cwnd), rtt, p.mtu));
    }
    let total: f64 = v.iter().map(|(c, _, _)| c).sum();
    let rate_sum: f64 = v.iter().map(|(c, r, _)| c / r).sum();
    let best = v.iter().map(|(c, r, _)| c / (r * r)).fold(0.0, f64::max);
    if total <= 0.0 || rate_sum <= 0.0 {
        return None;
    }
    let alpha = total * best / (rate_sum * rate_sum);
    Some(
        v.iter()
            .map(|&(c, _, mtu)| {
                let step = (alpha * f64::from(mtu) * c / total).floor();
                (step as u32).min(mtu)
            })
            .collect(),
    )
}
