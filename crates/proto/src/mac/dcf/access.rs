//! Channel access of the DCF: carrier sense ([`CarrierSense`]: physical CCA, the NAV, EIFS;
//! IEEE Std 802.11-2020 §10.3.2.1–§10.3.2.4, §10.3.2.3.7) and the backoff procedure
//! ([`Backoff`]: the contention window, the slot counter frozen while the medium is busy,
//! post-backoff; §10.3.3, §10.3.4.3), and the [`Dcf`] methods that combine them with the
//! frame exchange's own busy periods ([`Dcf::rearm`], called after every input).
//!
//! The two groups are plain data with small methods that need at most the configuration;
//! what also needs the frame exchange (its phase, the frame in service, this MAC's own
//! transmission) or the random stream stays on [`Dcf`]. Both are `repr(C)`: they sit in the
//! hot prefix of [`Dcf`], which its layout notes describe.

use sctpsim_kernel::{Rng, SimDuration, SimTime};

use super::{Dcf, Phase};
use crate::mac::phy_timing::{PhyMode, ACK_BYTES};
use crate::mac::profiles::MacConfig;

/// DIFS (§10.3.2.3.5) and EIFS (§10.3.2.3.7) of a MAC's configuration, computed once when
/// the MAC is made: they depend only on the configuration, which never changes, and the
/// access start is computed after every input ([`Dcf::rearm`]). Computed there per call (the
/// EIFS from the PHY's timing and the Ack's airtime), they cost 0.9 % of a `manet-cbr` run's
/// instructions (cachegrind, BENCHMARKS.md "Against 8f75f88").
#[derive(Copy, Clone, Debug)]
pub(super) struct Ifs {
    /// DIFS = SIFS + 2·slot ([`MacConfig::difs`]).
    pub(super) difs: SimDuration,
    /// EIFS ([`MacConfig::eifs`]).
    pub(super) eifs: SimDuration,
}

impl Ifs {
    /// The DIFS and EIFS of `cfg`.
    pub(super) fn of(cfg: &MacConfig) -> Self {
        Ifs {
            difs: cfg.difs(),
            eifs: cfg.eifs(),
        }
    }
}

/// Physical and virtual carrier sense (§10.3.2.1): when the medium last became idle, the
/// NAV, and the EIFS after a frame received in error. Read on every frame heard.
#[derive(Clone, Debug)]
#[repr(C)]
pub(super) struct CarrierSense {
    /// When the medium last turned idle for this MAC (CCA, its own transmissions and its own
    /// response waits all count as busy; see [`Dcf::busy`]).
    pub(super) idle_since: SimTime,
    /// The end of the NAV (virtual carrier sense, §10.3.2.4).
    pub(super) nav_until: SimTime,
    /// Start of the EIFS after a frame received in error; `eifs_pending`: the medium was still
    /// busy when the error was reported, the EIFS starts when it turns idle.
    pub(super) eifs_ref: Option<SimTime>,
    /// §10.3.2.4: when to reset a NAV set by an RTS if nothing followed it.
    pub(super) nav_rts_check: Option<SimTime>,
    /// Physical carrier sense (CCA) reports the medium busy.
    pub(super) cca_busy: bool,
    /// The medium was busy (for access) at the last [`Dcf::rearm`]: the next idle one starts
    /// a new idle period.
    pub(super) was_busy: bool,
    /// A reception started (PHY-RXSTART) since the last NAV set by an RTS.
    pub(super) rx_since_rts: bool,
    /// See `eifs_ref`.
    pub(super) eifs_pending: bool,
}

impl CarrierSense {
    /// The medium idle since time zero, no NAV, no EIFS.
    pub(super) fn new() -> Self {
        CarrierSense {
            idle_since: SimTime::ZERO,
            nav_until: SimTime::ZERO,
            eifs_ref: None,
            nav_rts_check: None,
            cca_busy: false,
            was_busy: false,
            rx_since_rts: false,
            eifs_pending: false,
        }
    }

    /// CCA turned busy. Returns whether that is a change.
    pub(super) fn cca_to_busy(&mut self) -> bool {
        if self.cca_busy {
            return false;
        }
        self.cca_busy = true;
        // Any energy on the medium counts as the PHY-RXSTART that keeps a NAV set by an RTS.
        self.rx_since_rts = true;
        true
    }

    /// CCA turned idle at `now`. Returns whether that is a change.
    pub(super) fn cca_to_idle(&mut self, now: SimTime) -> bool {
        if !self.cca_busy {
            return false;
        }
        self.cca_busy = false;
        if self.eifs_pending {
            // §10.3.2.3.7: "The EIFS shall begin following indication by the PHY that the
            // medium is idle after detection of the erroneous frame".
            self.eifs_pending = false;
            self.eifs_ref = Some(now);
        }
        true
    }

    /// A frame received in error at `now`: the next IFS is an EIFS (§10.3.2.3.7), counted
    /// from now or, if the medium is still busy, from when it turns idle.
    pub(super) fn rx_error(&mut self, now: SimTime) {
        if self.cca_busy {
            self.eifs_pending = true;
        } else {
            self.eifs_ref = Some(now);
        }
    }

    /// §10.3.2.3.7: a correctly received frame resynchronises the station (DIFS again).
    pub(super) fn rx_good(&mut self) {
        self.eifs_ref = None;
        self.eifs_pending = false;
    }

    /// Where slot counting starts in the current idle period: DIFS after the medium became
    /// idle, EIFS after the end of a frame received in error, DIFS after the NAV ends.
    pub(super) fn access_start(&self, ifs: Ifs) -> SimTime {
        let difs = ifs.difs;
        let mut t = (self.idle_since + difs).max(self.nav_until + difs);
        if let Some(e) = self.eifs_ref {
            t = t.max(e + ifs.eifs);
        }
        t
    }

    /// The Duration field `duration` of a good frame for another station, received at `now`
    /// with `mode` (`from_rts`: the frame is an RTS).
    pub(super) fn update_nav(
        &mut self,
        now: SimTime,
        duration: u16,
        from_rts: bool,
        mode: PhyMode,
        cfg: &MacConfig,
    ) {
        if duration & 0x8000 != 0 {
            return; // an AID (PS-Poll) or reserved value, not a duration (§9.2.4.2)
        }
        let until = now + SimDuration::from_micros(u64::from(duration));
        // §10.3.2.4: update "only when the new NAV value is greater than the current NAV".
        if until <= self.nav_until {
            return;
        }
        self.nav_until = until;
        self.nav_rts_check = None;
        if from_rts && cfg.nav_reset_after_rts {
            // §10.3.2.4: (2 × aSIFSTime) + (CTS_Time) + aRxPHYStartDelay + (2 × aSlotTime),
            // CTS_Time at the rate of the RTS.
            let cts_time = cfg.tx_time(mode, ACK_BYTES);
            let wait = cfg.sifs.saturating_mul(2)
                + cts_time
                + cfg.rx_phy_start_delay
                + cfg.slot.saturating_mul(2);
            self.nav_rts_check = Some(now + wait);
            self.rx_since_rts = false;
        }
    }

    /// The NAV reset check of §10.3.2.4 at `now`: a NAV set by an RTS that no PHY-RXSTART
    /// followed within the check interval may be reset.
    pub(super) fn nav_rts_timeout(&mut self, now: SimTime) {
        if let Some(check) = self.nav_rts_check {
            if check <= now {
                self.nav_rts_check = None;
                if !self.rx_since_rts && self.nav_until > now {
                    self.nav_until = now;
                }
            }
        }
    }
}

/// The backoff procedure (§10.3.4.3) and the contention window (§10.3.3). Read on every frame
/// heard: each change of the medium's state freezes or resumes the countdown.
///
/// While the medium is idle the counter is not decremented slot by slot: `count_from` holds
/// the instant from which the remaining `slots` count, and the backoff ends at
/// `count_from + slots · aSlotTime` unless the medium turns busy first ([`Dcf::freeze`]).
#[derive(Clone, Debug)]
#[repr(C)]
pub(super) struct Backoff {
    /// Where the remaining slots count from in the current idle period (`None`: not armed —
    /// the medium is busy, or no idle period has been accounted for yet).
    pub(super) count_from: Option<SimTime>,
    /// The backoff of the frame in service ended at this instant, frozen at zero by a
    /// transmission that started at the same instant: the frame still goes (it could not
    /// have sensed the other one).
    pub(super) due_at: Option<SimTime>,
    /// The access start `count_from` was armed for (before clamping to the arming time).
    pub(super) armed_target: SimTime,
    /// Backoff slots left at `count_from`.
    pub(super) slots: u32,
    /// The contention window CW: a backoff is drawn uniformly from [0, CW].
    pub(super) cw: u32,
    /// A backoff procedure is in progress (its counter may be 0 and not yet consumed).
    pub(super) pending: bool,
}

impl Backoff {
    /// No backoff in progress, CW = `cw_min`.
    pub(super) fn new(cw_min: u32) -> Self {
        Backoff {
            count_from: None,
            due_at: None,
            armed_target: SimTime::ZERO,
            slots: 0,
            cw: cw_min,
            pending: false,
        }
    }

    /// §10.3.4.3: "Backoff Time = Random() × aSlotTime", Random() uniform in [0, CW].
    pub(super) fn draw(&mut self, rng: &mut Rng) {
        self.slots = rng.below(u64::from(self.cw) + 1) as u32;
        self.pending = true;
    }

    /// §10.3.3: CW is reset to aCWmin after a successful attempt and when a retry limit is
    /// reached.
    pub(super) fn reset_cw(&mut self, cw_min: u32) {
        self.cw = cw_min;
    }

    /// §10.3.3: CW doubles (as 2^k − 1) up to aCWmax after each failed attempt.
    pub(super) fn grow_cw(&mut self, cw_max: u32) {
        self.cw = self.cw.saturating_mul(2).saturating_add(1).min(cw_max);
    }

    /// When the countdown ends if the medium stays idle (`slot`: aSlotTime in ns).
    pub(super) fn deadline(&self, slot: u64) -> Option<SimTime> {
        let cf = self.count_from?;
        Some(cf + SimDuration(u64::from(self.slots).saturating_mul(slot)))
    }

    /// Slots left at `now` (counting down lazily while the medium is idle).
    pub(super) fn slots_at(&self, now: SimTime, slot: u64, busy: bool) -> u32 {
        match self.count_from {
            Some(cf) if !busy && now > cf => {
                let k = (now - cf).0 / slot;
                self.slots - k.min(u64::from(self.slots)) as u32
            }
            _ => self.slots,
        }
    }

    /// Starts counting at `target`, the access start of an idle period (slots the MAC did
    /// not yet account for, before now, count too).
    pub(super) fn arm(&mut self, target: SimTime) {
        self.count_from = Some(target);
        self.armed_target = target;
    }

    /// Access granted: the backoff is complete.
    pub(super) fn complete(&mut self) {
        self.due_at = None;
        self.count_from = None;
        self.slots = 0;
        self.pending = false;
    }
}

impl Dcf {
    /// aSlotTime in ns (at least 1).
    pub(super) fn slot_ns(&self) -> u64 {
        self.cfg.slot.0.max(1)
    }

    /// Busy for the purpose of medium access: physical carrier sense, this MAC's own
    /// transmission, and its own frame exchange in progress (the IFS after a response timeout
    /// counts from the end of the timeout).
    pub(super) fn busy(&self) -> bool {
        self.cs.cca_busy
            || self.on_air.is_some()
            || matches!(
                self.phase,
                Phase::WaitAck { .. } | Phase::WaitCts { .. } | Phase::SendData { .. }
            )
    }

    /// When the backoff of the frame in service ends, if the medium is idle.
    pub(super) fn access_deadline(&self) -> Option<SimTime> {
        if self.busy() {
            return None;
        }
        self.backoff.deadline(self.slot_ns())
    }

    /// Whether the frame in service may go now: its backoff has ended (or ended at this
    /// instant, frozen by a transmission that started at the same time).
    ///
    /// The frame in service (a cold field, 200 bytes past the hot ones) is tested last, once
    /// the backoff has ended: written `phase != Contend || current.is_none()`, the compiler
    /// loaded both and combined them without a branch, so every [`Dcf::poll_transmit`] of
    /// an idle MAC touched that line (cachegrind, `manet-cbr` 20 flows 60 s: 0.98 M of the
    /// 3.1 M more L1 read misses than 8f75f88).
    pub(super) fn access_granted(&self, now: SimTime) -> bool {
        if self.phase != Phase::Contend {
            return false;
        }
        let ended =
            self.backoff.due_at == Some(now) || self.access_deadline().is_some_and(|d| d <= now);
        ended && self.current.is_some()
    }

    /// Freezes the backoff at `now`: the whole idle slots since `count_from` are consumed
    /// (§10.3.4.3: "the backoff timer is decremented ... at the end of each idle slot"; a
    /// slot interrupted by a busy medium does not count). A backoff that ends exactly now
    /// still transmits (it could not have sensed a transmission that starts at the same
    /// instant).
    ///
    /// On [`Dcf`] rather than [`Backoff`] because of that last case, which needs the frame
    /// exchange's state, and must read the frame in service (a cold field) only when the
    /// countdown has ended and the phase is `Contend`. Passed to a `Backoff` method as a
    /// closure, the check was evaluated on every call: measured with cachegrind on
    /// `manet-cbr` (100 s), 2 % more instructions and 11 % more L1 read misses, nearly all on
    /// that line.
    fn freeze(&mut self, now: SimTime) {
        let Some(cf) = self.backoff.count_from.take() else {
            return;
        };
        let slot = self.slot_ns();
        let deadline = cf + SimDuration(u64::from(self.backoff.slots).saturating_mul(slot));
        if deadline <= now && self.phase == Phase::Contend && self.current.is_some() {
            self.backoff.due_at = Some(now);
            self.backoff.slots = 0;
            return;
        }
        let b = &mut self.backoff;
        if now > cf {
            let k = ((now - cf).0 / slot).min(u64::from(b.slots)) as u32;
            b.slots -= k;
        }
        if deadline <= now {
            // A post-backoff that ran out while the medium was idle.
            b.slots = 0;
            b.pending = false;
        }
    }

    /// Brings the backoff bookkeeping in line with the medium state at `now`; called after
    /// every change of carrier sense, NAV, EIFS or phase.
    pub(super) fn rearm(&mut self, now: SimTime) {
        if self.backoff.due_at.is_some_and(|d| d < now) {
            self.backoff.due_at = None;
        }
        if self.busy() {
            self.freeze(now);
            self.cs.was_busy = true;
            return;
        }
        if self.cs.was_busy {
            self.cs.was_busy = false;
            self.cs.idle_since = now;
        }
        let target = self.cs.access_start(self.ifs);
        match self.backoff.count_from {
            // The medium has been idle since `idle_since`; counting starts at the IFS end.
            None => self.backoff.arm(target),
            Some(_) if self.backoff.armed_target != target => {
                // NAV or EIFS changed during an idle period: slots counted so far stay counted,
                // counting resumes at the new start (never before now).
                self.freeze(now);
                self.backoff.count_from = Some(target.max(now));
                self.backoff.armed_target = target;
            }
            Some(_) => {}
        }
    }

    /// Draws a new backoff from the MAC's stream.
    pub(super) fn draw_backoff(&mut self) {
        self.backoff.draw(&mut self.rng);
    }

    /// Whether a backoff is still in progress at `now` (one that ran out during an idle
    /// period is complete).
    pub(super) fn backoff_in_progress(&mut self, now: SimTime) -> bool {
        if !self.backoff.pending {
            return false;
        }
        if let Some(d) = self.access_deadline() {
            if d <= now {
                self.backoff.pending = false;
                self.backoff.slots = 0;
                return false;
            }
        }
        true
    }
}
