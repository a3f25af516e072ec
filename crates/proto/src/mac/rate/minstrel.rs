//! Minstrel, legacy (non-HT): the rate control of Linux mac80211 (`net/mac80211/rc80211_minstrel.c`,
//! after Derek Smithies' MadWifi algorithm), with the defaults of ns-3 3.44
//! `MinstrelWifiManager`.
//!
//! Per destination, Minstrel measures each rate's delivery probability and picks rates by
//! expected throughput:
//! * **statistics** every [`MinstrelParams::update_interval`] (100 ms): for each rate tried in
//!   the interval, the fraction of its attempts that were Acked, folded into an EWMA that
//!   keeps [`MinstrelParams::ewma_level`] (75 %) of the old value (the first measurement is
//!   taken as it is); the expected throughput is that probability over the time of one attempt
//!   of a [`MinstrelParams::packet_length`] (1200-byte) frame, or 0 below 10 %. From them:
//!   the best and second-best throughput rates and the best-probability rate (the highest
//!   throughput among rates above 95 %, else the highest probability);
//! * **retry chain** of a frame: best throughput, second best, best probability, lowest rate,
//!   each for its retry count — as many attempts as fit, with the backoff's growing mean, in
//!   the [`MinstrelParams::segment_size`] budget (6 ms), at most
//!   [`MinstrelParams::max_retry`]; at most 2 for a rate whose probability is below 10 %.
//!   Attempts beyond the chain use the lowest rate;
//! * **sampling** ("look-around") on [`MinstrelParams::lookaround_percent`] (10 %) of the
//!   frames: the next rate of a table of [`MinstrelParams::sample_columns`] (10) random
//!   permutations of the rates leads the chain, ahead of the best rate; a rate slower than the
//!   best is tried second instead (its sample "deferred", until it has been skipped 20
//!   times). Sampling never uses the best rate itself, and the backlog of sampling owed is
//!   capped at twice the number of rates so that a worsening link does not burst samples.
//!
//! The random permutations come from the controller's own stream (the engine keys it
//! `("minstrel", node, iface)`). Everything is integer time except the probabilities.
//! Until the first update every rate has probability 0, so the chain starts at the lowest rate
//! and sampling finds the others (Linux and ns-3 behave alike).

use sctpsim_kernel::{Rng, SimDuration, SimTime};

use super::super::phy_timing::PhyMode;
use super::super::profiles::MacConfig;

/// Minstrel's parameters (ns-3 3.44 `MinstrelWifiManager` attributes).
#[derive(Clone, Debug, PartialEq)]
pub struct MinstrelParams {
    /// `UpdateStatistics`: 100 ms.
    pub update_interval: SimDuration,
    /// `LookAroundRate`: percentage of frames that sample, 10.
    pub lookaround_percent: u32,
    /// `EWMA`: weight of the old probability, percent, 75.
    pub ewma_level: u32,
    /// `SampleColumn`: columns of the sample table, 10.
    pub sample_columns: usize,
    /// `PacketLength`: frame length for the per-rate attempt time, 1200 bytes.
    pub packet_length: usize,
    /// Time budget of one rate's retries in the chain (Linux `segment_size`, ns-3 6 ms).
    pub segment_size: SimDuration,
    /// Most attempts of one rate in the chain (Linux `max_retry`, 7).
    pub max_retry: u32,
}

impl Default for MinstrelParams {
    fn default() -> Self {
        MinstrelParams {
            update_interval: SimDuration::from_millis(100),
            lookaround_percent: 10,
            ewma_level: 75,
            sample_columns: 10,
            packet_length: 1200,
            segment_size: SimDuration::from_millis(6),
            max_retry: 7,
        }
    }
}

/// Per-rate constants of one MAC's configuration.
#[derive(Clone, Debug)]
pub struct RateTable {
    /// Time of one successful attempt of a `packet_length` frame (ns): DIFS, the mean
    /// backoff at CWmin, the frame, SIFS and the Ack.
    pub perfect_tx_ns: Vec<u64>,
    /// Attempts per chain stage (before the low-probability cap).
    pub retry_count: Vec<u32>,
    params: MinstrelParams,
}

impl RateTable {
    /// The table of `rates` under `mac`'s timing.
    pub fn new(p: &MinstrelParams, mac: &MacConfig, rates: &[PhyMode]) -> Self {
        let slot = mac.slot.0;
        let mean_backoff = |cw: u32| slot.saturating_mul(u64::from(cw)) / 2;
        let mut perfect = Vec::with_capacity(rates.len());
        let mut retries = Vec::with_capacity(rates.len());
        for &m in rates {
            // One attempt: the frame, SIFS and the Ack (or the AckTimeout, about as long).
            let exchange =
                (mac.tx_time(m, p.packet_length) + mac.sifs + mac.ack_time(m)).0 + mac.difs().0;
            perfect.push(exchange + mean_backoff(mac.cw_min));
            // Attempts while the segment budget lasts, each waiting a mean backoff of the
            // contention window that doubles after every failure.
            let mut cw = mac.cw_min;
            let mut total = exchange + mean_backoff(cw);
            let mut count = 1;
            while total < p.segment_size.0 && count < p.max_retry.max(1) {
                cw = cw.saturating_mul(2).saturating_add(1).min(mac.cw_max);
                total += exchange + mean_backoff(cw);
                count += 1;
            }
            retries.push(count);
        }
        RateTable {
            perfect_tx_ns: perfect,
            retry_count: retries,
            params: p.clone(),
        }
    }
}

/// Statistics of one rate for one destination.
#[derive(Clone, Debug, Default)]
struct RateStats {
    attempts: u32,
    successes: u32,
    /// EWMA of the delivery probability; `None` before the first measurement.
    prob: Option<f64>,
    /// Expected throughput (attempts per second that succeed).
    throughput: f64,
    /// Statistics intervals in a row in which the rate was not tried.
    skipped: u32,
}

/// Minstrel's state for one destination.
#[derive(Clone, Debug)]
pub struct MinstrelState {
    stats: Vec<RateStats>,
    /// Best throughput, second best, best probability (indices into the rates).
    pub max_tp: usize,
    max_tp2: usize,
    max_prob: usize,
    next_update: SimTime,
    /// Frames sent, frames that sampled first, samples deferred to the second stage.
    total_frames: u64,
    sample_frames: u64,
    deferred: u64,
    /// `sample_columns` permutations of the rate indices, row-major by column.
    sample_table: Vec<Vec<usize>>,
    sample_row: usize,
    sample_col: usize,
    /// The retry chain of the frame in service: (rate, attempts) per stage.
    chain: Option<[(usize, u32); 4]>,
    /// The rate last counted as the destination's rate (for rate-change statistics).
    pub(super) last_reported: usize,
}

impl MinstrelState {
    /// A destination first seen at `now`.
    pub fn new(p: &MinstrelParams, t: &RateTable, now: SimTime) -> Self {
        let n = t.perfect_tx_ns.len();
        MinstrelState {
            stats: vec![RateStats::default(); n],
            max_tp: 0,
            max_tp2: 0,
            max_prob: 0,
            next_update: now + p.update_interval,
            total_frames: 0,
            sample_frames: 0,
            deferred: 0,
            sample_table: Vec::new(),
            sample_row: 0,
            sample_col: 0,
            chain: None,
            last_reported: 0,
        }
    }

    /// Fills the sample table with `sample_columns` random permutations of the rates (each
    /// rate put at a uniformly chosen free row of the column).
    fn init_sample_table(&mut self, t: &RateTable, rng: &mut Rng) {
        let n = self.stats.len();
        for _ in 0..t.params.sample_columns.max(1) {
            let mut col = vec![usize::MAX; n];
            for rate in 0..n {
                let free: Vec<usize> = (0..n).filter(|&i| col[i] == usize::MAX).collect();
                let pick = free[rng.below(free.len() as u64) as usize];
                col[pick] = rate;
            }
            self.sample_table.push(col);
        }
    }

    fn next_sample(&mut self, t: &RateTable, rng: &mut Rng) -> usize {
        if self.sample_table.is_empty() {
            self.init_sample_table(t, rng);
        }
        let n = self.stats.len();
        let r = self.sample_table[self.sample_col][self.sample_row];
        self.sample_row += 1;
        if self.sample_row >= n {
            self.sample_row = 0;
            self.sample_col = (self.sample_col + 1) % self.sample_table.len();
        }
        r
    }

    /// Attempts of rate `r` in a chain stage (at most 2 for a rate below 10 %).
    fn stage_attempts(&self, r: usize, t: &RateTable) -> u32 {
        let c = t.retry_count[r];
        match self.stats[r].prob {
            Some(p) if p < 0.1 => c.min(2),
            _ => c,
        }
    }

    /// The rate index of data attempt `attempt` (failed attempts so far) of the frame in
    /// service.
    pub fn select(&mut self, now: SimTime, attempt: u32, t: &RateTable, rng: &mut Rng) -> usize {
        if now >= self.next_update {
            self.update_stats(now, t);
        }
        let chain = match self.chain {
            Some(c) => c,
            None => {
                let c = self.build_chain(t, rng);
                self.chain = Some(c);
                c
            }
        };
        let mut left = attempt;
        for (rate, count) in chain {
            if left < count {
                return rate;
            }
            left -= count;
        }
        0
    }

    /// The retry chain of a new frame (and the sampling decision).
    fn build_chain(&mut self, t: &RateTable, rng: &mut Rng) -> [(usize, u32); 4] {
        let n = self.stats.len() as u64;
        self.total_frames += 1;
        let owed = self.total_frames * u64::from(t.params.lookaround_percent) / 100;
        let done = self.sample_frames + self.deferred / 2;
        let st = |s: &Self, r: usize| (r, s.stage_attempts(r, t));
        let normal = [
            st(self, self.max_tp),
            st(self, self.max_tp2),
            st(self, self.max_prob),
            st(self, 0),
        ];
        if owed <= done {
            return normal;
        }
        let backlog = owed - done;
        if backlog > 2 * n {
            // Do not burst samples to catch up (Linux minstrel_get_rate).
            self.sample_frames += backlog - 2 * n;
        }
        let s = self.next_sample(t, rng);
        if s == self.max_tp {
            return normal;
        }
        let slower = t.perfect_tx_ns[s] > t.perfect_tx_ns[self.max_tp];
        if slower && self.stats[s].skipped < 20 {
            // A slower rate is only tried if the best one failed.
            self.deferred += 1;
            [
                st(self, self.max_tp),
                st(self, s),
                st(self, self.max_prob),
                st(self, 0),
            ]
        } else {
            self.sample_frames += 1;
            [
                st(self, s),
                st(self, self.max_tp),
                st(self, self.max_prob),
                st(self, 0),
            ]
        }
    }

    /// One data attempt with rate `r` ended.
    pub fn attempt_done(&mut self, r: usize, acked: bool) {
        if let Some(s) = self.stats.get_mut(r) {
            s.attempts += 1;
            s.successes += u32::from(acked);
        }
    }

    /// The frame in service is done (Acked or discarded): the next one gets a new chain.
    pub fn frame_done(&mut self, now: SimTime, t: &RateTable) {
        self.chain = None;
        if now >= self.next_update {
            self.update_stats(now, t);
        }
    }

    /// The statistics interval ended: probabilities, throughputs, the chain's rates.
    fn update_stats(&mut self, now: SimTime, t: &RateTable) {
        let keep = f64::from(t.params.ewma_level.min(100)) / 100.0;
        for (i, s) in self.stats.iter_mut().enumerate() {
            if s.attempts > 0 {
                let p = f64::from(s.successes) / f64::from(s.attempts);
                s.prob = Some(match s.prob {
                    Some(old) => old * keep + p * (1.0 - keep),
                    None => p,
                });
                s.skipped = 0;
            } else {
                s.skipped = s.skipped.saturating_add(1);
            }
            s.attempts = 0;
            s.successes = 0;
            let p = s.prob.unwrap_or(0.0);
            s.throughput = if p < 0.1 {
                0.0
            } else {
                p * 1e9 / t.perfect_tx_ns[i] as f64
            };
        }
        // Best and second-best throughput (ties: the lower rate, as before any measurement).
        let (mut best, mut second) = (0usize, 0usize);
        for i in 1..self.stats.len() {
            let tp = self.stats[i].throughput;
            if tp > self.stats[best].throughput {
                second = best;
                best = i;
            } else if tp > self.stats[second].throughput || second == best {
                second = i;
            }
        }
        if self.stats.len() > 1 && second == best {
            second = usize::from(best == 0);
        }
        // Best probability: the fastest of the rates above 95 %, else the most reliable.
        let prob = |i: usize| self.stats[i].prob.unwrap_or(0.0);
        let mut max_prob = 0usize;
        for i in 1..self.stats.len() {
            let (pi, pm) = (prob(i), prob(max_prob));
            let better = if pi >= 0.95 && pm >= 0.95 {
                self.stats[i].throughput > self.stats[max_prob].throughput
            } else {
                pi > pm || (pi >= 0.95 && pm < 0.95)
            };
            if better {
                max_prob = i;
            }
        }
        self.max_tp = best;
        self.max_tp2 = second;
        self.max_prob = max_prob;
        self.next_update = now + t.params.update_interval;
    }

    /// The delivery probability of rate `r` (for tests and statistics).
    pub fn probability(&self, r: usize) -> Option<f64> {
        self.stats.get(r).and_then(|s| s.prob)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mac::profiles::RadioProfile;
    use crate::mac::rate::adaptive_rates;

    fn table() -> (RateTable, Vec<PhyMode>) {
        let mac = RadioProfile::Ieee80211a.mac_config();
        let rates = adaptive_rates(mac.standard);
        (
            RateTable::new(&MinstrelParams::default(), &mac, &rates),
            rates,
        )
    }

    #[test]
    fn retry_counts_fit_the_segment_budget() {
        let (t, rates) = table();
        assert_eq!(rates.len(), 8);
        // Attempts are added while the total is below 6 ms (so the last one may end past it,
        // as in Linux): 6 at 54 Mbit/s, where the growing backoff dominates; 4 at 6 Mbit/s,
        // where a 1200-byte exchange with DIFS, Ack and backoff takes about 1.8 ms.
        assert_eq!(t.retry_count, vec![4, 5, 5, 6, 6, 6, 6, 6]);
        // Slower rates take longer per attempt.
        assert!(t.perfect_tx_ns.windows(2).all(|w| w[0] > w[1]));
    }

    /// A channel where rates 0..=good always succeed and faster ones always fail.
    fn run(good: usize, frames: u32, rng_seed: u64) -> MinstrelState {
        let (t, _) = table();
        let p = MinstrelParams::default();
        let mut rng = Rng::from_seed(rng_seed);
        let mut s = MinstrelState::new(&p, &t, SimTime::ZERO);
        let mut now = SimTime::ZERO;
        for _ in 0..frames {
            let mut attempt = 0;
            loop {
                let r = s.select(now, attempt, &t, &mut rng);
                now += SimDuration::from_micros(500);
                let ok = r <= good;
                s.attempt_done(r, ok);
                if ok || attempt >= 6 {
                    s.frame_done(now, &t);
                    break;
                }
                attempt += 1;
            }
        }
        s
    }

    #[test]
    fn converges_on_the_fastest_working_rate() {
        for good in [0, 3, 5, 7] {
            let s = run(good, 4000, 7);
            assert_eq!(s.max_tp, good, "good = {good}");
            assert_eq!(s.probability(good), Some(1.0));
            if good < 7 {
                assert_eq!(s.probability(good + 1).unwrap_or(0.0), 0.0);
            }
        }
    }

    #[test]
    fn samples_about_ten_percent() {
        let s = run(7, 5000, 3);
        // A deferred sample (slower than the best rate, tried second) counts half: with the
        // best rate at the top every sample is deferred, so about 20 % of frames carry one.
        let sampled = s.sample_frames + s.deferred / 2;
        assert!(
            (400..=600).contains(&sampled),
            "sampled {sampled} of {}",
            s.total_frames
        );
    }

    #[test]
    fn chain_ends_at_the_lowest_rate() {
        let (t, _) = table();
        let p = MinstrelParams::default();
        let mut rng = Rng::from_seed(1);
        let mut s = MinstrelState::new(&p, &t, SimTime::ZERO);
        s.max_tp = 7;
        s.max_tp2 = 6;
        s.max_prob = 4;
        s.total_frames = 1000;
        s.sample_frames = 1000; // no sampling owed
        let total: u32 = [7usize, 6, 4, 0].iter().map(|&r| t.retry_count[r]).sum();
        assert_eq!(s.select(SimTime::ZERO, 0, &t, &mut rng), 7);
        assert_eq!(s.select(SimTime::ZERO, t.retry_count[7], &t, &mut rng), 6);
        assert_eq!(s.select(SimTime::ZERO, total, &t, &mut rng), 0);
    }
}
