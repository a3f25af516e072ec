//! 802.11 rate adaptation: which PHY rate each unicast data attempt uses, per destination.
//!
//! The DCF asks its [`RateController`] for the rate of every unicast data attempt
//! ([`RateController::select`]) and reports the attempt's outcome: an Ack received
//! ([`RateController::report_acked`]), an AckTimeout ([`RateController::report_failed`]) and a
//! frame discarded at a retry limit ([`RateController::report_final_failure`]). RTS failures
//! are not reported (none of the three algorithms uses them). Group-addressed and management
//! frames keep their fixed rates; control responses and RTS follow the data rate through
//! [`super::MacConfig::control_mode`].
//!
//! Algorithms ([`RateControlConfig`]):
//! * `Constant`: [`super::MacConfig::data_mode`] for every frame (no controller is built, so
//!   results are those of the MAC without rate adaptation, bit for bit);
//! * `Arf` ([`arf`]): Kamerman & Monteban (1997), with ns-3 `ArfWifiManager`'s thresholds;
//! * `Aarf` ([`aarf`]): Lacage, Manshaei & Turletti (MSWiM 2004);
//! * `Minstrel` ([`minstrel`]): the legacy (non-HT) Minstrel of Linux mac80211, with
//!   ns-3 `MinstrelWifiManager`'s defaults.
//!
//! Each destination (receiver MAC address) has its own state, in a `BTreeMap` (iteration
//! never decides behaviour, but the order is deterministic anyway). Minstrel's sampling draws
//! from the random stream the engine passes (`("minstrel", node, iface)`), never from the
//! backoff stream, so choosing Minstrel does not change any backoff draw.
//!
//! The algorithms choose among [`adaptive_rates`] of the configured PHY only (slowest first).
//! ARF and AARF start at the lowest rate (as ns-3's managers do); Minstrel starts at the
//! lowest rate and moves after its first statistics update.

pub mod aarf;
pub mod arf;
pub mod minstrel;

use std::collections::BTreeMap;

use sctpsim_kernel::{Rng, SimTime};

use super::phy_timing::{OfdmRate, PhyMode, PhyStandard};
use super::profiles::MacConfig;
use super::MacAddr;

pub use aarf::AarfParams;
pub use arf::ArfParams;
pub use minstrel::MinstrelParams;

/// Which rate adaptation a MAC runs, with the algorithm's parameters.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum RateControlConfig {
    /// Every unicast data frame at [`MacConfig::data_mode`].
    #[default]
    Constant,
    /// Auto Rate Fallback.
    Arf(ArfParams),
    /// Adaptive ARF.
    Aarf(AarfParams),
    /// Minstrel (legacy, non-HT).
    Minstrel(MinstrelParams),
}

impl RateControlConfig {
    /// Every algorithm name, as the scenario spells it.
    pub const NAMES: [&'static str; 4] = ["constant", "arf", "aarf", "minstrel"];

    /// The scenario name of the algorithm.
    pub fn name(&self) -> &'static str {
        match self {
            RateControlConfig::Constant => "constant",
            RateControlConfig::Arf(_) => "arf",
            RateControlConfig::Aarf(_) => "aarf",
            RateControlConfig::Minstrel(_) => "minstrel",
        }
    }

    /// The algorithm called `name` with its published default parameters.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "constant" => RateControlConfig::Constant,
            "arf" => RateControlConfig::Arf(ArfParams::default()),
            "aarf" => RateControlConfig::Aarf(AarfParams::default()),
            "minstrel" => RateControlConfig::Minstrel(MinstrelParams::default()),
            _ => return None,
        })
    }

    /// Whether the algorithm adapts the rate (anything but `Constant`).
    pub fn is_adaptive(&self) -> bool {
        !matches!(self, RateControlConfig::Constant)
    }
}

/// The rates a rate controller may use on `standard`, slowest first: DSSS 1, 2; HR/DSSS 1, 2,
/// 5.5, 11; OFDM 6–54; ERP the HR/DSSS rates and the ERP-OFDM rates, merged by rate.
pub fn adaptive_rates(standard: PhyStandard) -> Vec<PhyMode> {
    let dsss = [
        PhyMode::Dsss1,
        PhyMode::Dsss2,
        PhyMode::Cck5_5,
        PhyMode::Cck11,
    ];
    let mut v: Vec<PhyMode> = match standard {
        PhyStandard::Dsss => dsss[..2].to_vec(),
        PhyStandard::HrDsss => dsss.to_vec(),
        PhyStandard::Ofdm => OfdmRate::ALL.into_iter().map(PhyMode::Ofdm).collect(),
        PhyStandard::Erp { .. } => dsss
            .into_iter()
            .chain(OfdmRate::ALL.into_iter().map(PhyMode::ErpOfdm))
            .collect(),
    };
    // Stable: equal rates keep the listed order (none are equal today).
    v.sort_by_key(|m| m.rate_bps());
    v
}

/// The per-destination state of one algorithm.
#[derive(Clone, Debug)]
enum Station {
    Arf(arf::ArfState),
    Minstrel(Box<minstrel::MinstrelState>),
}

/// The rate controller of one MAC: the algorithm, the PHY's rate set and one state per
/// destination.
#[derive(Clone, Debug)]
pub struct RateController {
    cfg: RateControlConfig,
    /// [`adaptive_rates`] of the PHY.
    rates: Vec<PhyMode>,
    /// Minstrel's per-rate constants (attempt times, retry counts), computed once.
    minstrel: Option<minstrel::RateTable>,
    stations: BTreeMap<MacAddr, Station>,
    /// Minstrel's sampling stream.
    rng: Rng,
    /// Changes of a destination's current rate (ARF/AARF: the rate in use; Minstrel: the
    /// best-throughput rate of its statistics).
    rate_changes: u64,
    /// Rate changes not yet taken by [`RateController::poll_change`].
    changes: Vec<(SimTime, MacAddr, PhyMode)>,
    /// Record the changes for [`RateController::poll_change`].
    record_changes: bool,
}

impl RateController {
    /// A controller for a MAC configured with `mac` running `mac.rate_control`; `None` for
    /// [`RateControlConfig::Constant`]. `rng` is the algorithm's own stream (Minstrel samples
    /// with it; the others draw nothing).
    pub fn new(mac: &MacConfig, rng: Rng) -> Option<Self> {
        if !mac.rate_control.is_adaptive() {
            return None;
        }
        let rates = adaptive_rates(mac.standard);
        let minstrel = match &mac.rate_control {
            RateControlConfig::Minstrel(p) => Some(minstrel::RateTable::new(p, mac, &rates)),
            _ => None,
        };
        Some(RateController {
            cfg: mac.rate_control.clone(),
            rates,
            minstrel,
            stations: BTreeMap::new(),
            rng,
            rate_changes: 0,
            changes: Vec::new(),
            record_changes: false,
        })
    }

    /// Keep every rate change for [`RateController::poll_change`] (time series).
    pub fn set_record_changes(&mut self, on: bool) {
        self.record_changes = on;
    }

    /// The rates the controller chooses among, slowest first.
    pub fn rates(&self) -> &[PhyMode] {
        &self.rates
    }

    /// Changes of a destination's current rate so far.
    pub fn rate_changes(&self) -> u64 {
        self.rate_changes
    }

    /// The next recorded rate change: when, for which destination, the new rate.
    pub fn poll_change(&mut self) -> Option<(SimTime, MacAddr, PhyMode)> {
        if self.changes.is_empty() {
            None
        } else {
            Some(self.changes.remove(0))
        }
    }

    /// The current rate for `dst` (ARF/AARF: the rate in use; Minstrel: the best-throughput
    /// rate), `None` before the first frame to it.
    pub fn current(&self, dst: MacAddr) -> Option<PhyMode> {
        let i = match self.stations.get(&dst)? {
            Station::Arf(s) => s.rate,
            Station::Minstrel(s) => s.max_tp,
        };
        self.rates.get(i).copied()
    }

    /// The rate of the next data attempt to `dst`; `attempt` counts the failed data attempts
    /// of the frame so far (0: its first transmission).
    pub fn select(&mut self, now: SimTime, dst: MacAddr, attempt: u32) -> PhyMode {
        let n = self.rates.len();
        let (cfg, table) = (&self.cfg, &self.minstrel);
        let st = self
            .stations
            .entry(dst)
            .or_insert_with(|| new_station(cfg, table.as_ref(), n, now));
        let idx = match (st, table) {
            (Station::Arf(s), _) => s.rate,
            (Station::Minstrel(s), Some(t)) => s.select(now, attempt, t, &mut self.rng),
            (Station::Minstrel(_), None) => 0,
        };
        // Minstrel's statistics update runs inside `select`.
        self.after_update(now, dst);
        self.rates[idx.min(n.saturating_sub(1))]
    }

    /// The data attempt to `dst` sent with `mode` was acknowledged.
    pub fn report_acked(&mut self, now: SimTime, dst: MacAddr, mode: PhyMode) {
        self.report(now, dst, mode, true);
    }

    /// The data attempt to `dst` sent with `mode` got no Ack (AckTimeout or a corrupted
    /// response).
    pub fn report_failed(&mut self, now: SimTime, dst: MacAddr, mode: PhyMode) {
        self.report(now, dst, mode, false);
    }

    /// The frame to `dst` was discarded at a retry limit (after its last failure was
    /// reported with [`RateController::report_failed`]).
    pub fn report_final_failure(&mut self, now: SimTime, dst: MacAddr) {
        if let (Some(Station::Minstrel(s)), Some(t)) = (self.stations.get_mut(&dst), &self.minstrel)
        {
            s.frame_done(now, t);
        }
        self.after_update(now, dst);
    }

    fn report(&mut self, now: SimTime, dst: MacAddr, mode: PhyMode, acked: bool) {
        let Some(idx) = self.rates.iter().position(|m| *m == mode) else {
            return;
        };
        match (self.stations.get_mut(&dst), &self.minstrel) {
            (Some(Station::Arf(s)), _) => {
                if acked {
                    s.acked();
                } else {
                    s.failed();
                }
            }
            (Some(Station::Minstrel(s)), Some(t)) => {
                s.attempt_done(idx, acked);
                if acked {
                    s.frame_done(now, t);
                }
            }
            _ => return,
        }
        self.after_update(now, dst);
    }

    /// Counts a change of `dst`'s current rate (compared with the last one recorded).
    fn after_update(&mut self, now: SimTime, dst: MacAddr) {
        let Some(st) = self.stations.get_mut(&dst) else {
            return;
        };
        let (cur, last) = match st {
            Station::Arf(s) => (s.rate, &mut s.last_reported),
            Station::Minstrel(s) => (s.max_tp, &mut s.last_reported),
        };
        if *last != cur {
            *last = cur;
            self.rate_changes += 1;
            if self.record_changes {
                if let Some(m) = self.rates.get(cur) {
                    self.changes.push((now, dst, *m));
                }
            }
        }
    }
}

/// A destination's initial state.
fn new_station(
    cfg: &RateControlConfig,
    table: Option<&minstrel::RateTable>,
    n: usize,
    now: SimTime,
) -> Station {
    match (cfg, table) {
        (RateControlConfig::Minstrel(p), Some(t)) => {
            Station::Minstrel(Box::new(minstrel::MinstrelState::new(p, t, now)))
        }
        (RateControlConfig::Aarf(p), _) => Station::Arf(arf::ArfState::aarf(p, n)),
        (RateControlConfig::Arf(p), _) => Station::Arf(arf::ArfState::arf(p, n)),
        // No controller is built for Constant, and Minstrel always has its table.
        _ => Station::Arf(arf::ArfState::arf(&ArfParams::default(), n)),
    }
}

#[cfg(test)]
mod tests;
