//! Link loss processes. Each direction of a link owns its process and its own random stream
//! (`seeds.stream(("loss", link, direction))`), so the loss pattern of one link never depends on
//! traffic elsewhere.

use crate::scenario::{LossModelKind, LossSpec};
use sctpsim_kernel::Rng;

/// The loss process of one link direction.
#[derive(Clone, Debug)]
pub enum LossProcess {
    /// Nothing is lost.
    None,
    /// Independent loss with probability `p` per packet.
    Bernoulli {
        /// Loss probability.
        p: f64,
        /// The direction's random stream.
        rng: Rng,
    },
    /// Gilbert–Elliott two-state Markov chain, stepped once per packet *before* the packet's
    /// fate is drawn (the convention of ns-3's and most textbook descriptions).
    GilbertElliott {
        /// P(good → bad) per packet.
        p_gb: f64,
        /// P(bad → good) per packet.
        p_bg: f64,
        /// Loss probability in the good state.
        loss_good: f64,
        /// Loss probability in the bad state.
        loss_bad: f64,
        /// Current state.
        bad: bool,
        /// The direction's random stream.
        rng: Rng,
    },
}

impl LossProcess {
    /// The process a checked [`LossSpec`] describes. The chain starts in the good state.
    pub fn from_spec(spec: &LossSpec, rng: Rng) -> Self {
        match spec.model {
            LossModelKind::None => LossProcess::None,
            LossModelKind::Bernoulli => LossProcess::Bernoulli {
                p: spec.p.unwrap_or(0.0),
                rng,
            },
            LossModelKind::GilbertElliott => LossProcess::GilbertElliott {
                p_gb: spec.p_good_to_bad.unwrap_or(0.0),
                p_bg: spec.p_bad_to_good.unwrap_or(1.0),
                loss_good: spec.loss_good.unwrap_or(0.0),
                loss_bad: spec.loss_bad.unwrap_or(1.0),
                bad: false,
                rng,
            },
        }
    }

    /// Decide the fate of the next packet: `true` means lost.
    pub fn lose_next(&mut self) -> bool {
        match self {
            LossProcess::None => false,
            LossProcess::Bernoulli { p, rng } => rng.bernoulli(*p),
            LossProcess::GilbertElliott {
                p_gb,
                p_bg,
                loss_good,
                loss_bad,
                bad,
                rng,
            } => {
                let flip = if *bad { *p_bg } else { *p_gb };
                if rng.bernoulli(flip) {
                    *bad = !*bad;
                }
                rng.bernoulli(if *bad { *loss_bad } else { *loss_good })
            }
        }
    }

    /// Long-run loss rate of the process (for validation).
    pub fn stationary_loss(&self) -> f64 {
        match self {
            LossProcess::None => 0.0,
            LossProcess::Bernoulli { p, .. } => *p,
            LossProcess::GilbertElliott {
                p_gb,
                p_bg,
                loss_good,
                loss_bad,
                ..
            } => {
                let denom = p_gb + p_bg;
                if denom == 0.0 {
                    return *loss_good; // never leaves the good state it starts in
                }
                let pi_bad = p_gb / denom;
                pi_bad * loss_bad + (1.0 - pi_bad) * loss_good
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn gilbert_elliott_long_run_rate_matches_stationary_distribution() {
        let spec = LossSpec {
            model: LossModelKind::GilbertElliott,
            p: None,
            p_good_to_bad: Some(0.01),
            p_bad_to_good: Some(0.2),
            loss_good: Some(0.001),
            loss_bad: Some(0.5),
            from: None,
        };
        let mut lp = LossProcess::from_spec(&spec, Rng::from_seed(3));
        let n = 400_000;
        let lost = (0..n).filter(|_| lp.lose_next()).count() as f64 / n as f64;
        let expect = lp.stationary_loss();
        assert!((expect - (0.01 / 0.21 * 0.5 + 0.2 / 0.21 * 0.001)).abs() < 1e-12);
        assert!((lost - expect).abs() < 0.002, "{lost} vs {expect}");
    }

    #[test]
    fn losses_come_in_bursts() {
        // Mean bad-state sojourn is 1/p_bg = 10 packets: runs of losses must be long.
        let spec = LossSpec {
            model: LossModelKind::GilbertElliott,
            p: None,
            p_good_to_bad: Some(0.01),
            p_bad_to_good: Some(0.1),
            loss_good: None,
            loss_bad: None,
            from: None,
        };
        let mut lp = LossProcess::from_spec(&spec, Rng::from_seed(9));
        let seq: Vec<bool> = (0..200_000).map(|_| lp.lose_next()).collect();
        let losses = seq.iter().filter(|l| **l).count();
        let runs = seq.windows(2).filter(|w| w[1] && !w[0]).count();
        let mean_run = losses as f64 / runs as f64;
        assert!((8.0..12.0).contains(&mean_run), "{mean_run}");
    }
}
