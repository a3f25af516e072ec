//! Bit error rates of 802.11a/g OFDM: uncoded subcarrier modulation, then the hard-decision
//! Viterbi decoder of the punctured K = 7 convolutional code.
//!
//! The approach is that of ns-3's `NistErrorRateModel` (Pei & Henderson, "Validation of OFDM
//! error rate model in ns-3", Boeing, 2010), implemented here from the published formulas:
//!
//! 1. Uncoded bit error rate of the subcarrier modulation in AWGN with Gray mapping, with the
//!    channel SINR (over 20 MHz) taken as the per-subcarrier `Es/N0`, as ns-3 does
//!    (Proakis & Salehi, *Digital Communications*, 5th ed., ch. 4; the nearest-neighbour M-QAM
//!    form of Cho & Yoon, IEEE Trans. Commun. 50(7), 2002):
//!    BPSK `Q(√(2γ))`, QPSK `Q(√γ)`, 16-QAM `¾·Q(√(γ/5))`, 64-QAM `7/12·Q(√(γ/21))`.
//! 2. Union bound on the decoded bit error rate for hard decisions (Proakis & Salehi ch. 8,
//!    Viterbi decoding performance):
//!    `Pb ≤ (1/b)·Σ_d β_d·P_d(p)` where `p` is the uncoded bit error rate, `b` the information
//!    bits per puncturing period, `β_d` the information-weight spectrum of the code and
//!    `P_d(p)` the probability that more than half (ties: half of them with probability ½) of
//!    `d` hard-decided code bits are wrong. ns-3 uses the looser Bhattacharyya bound
//!    `P_d ≤ (4p(1−p))^{d/2}`; the exact `P_d` is used here.
//!
//! Spectra `β_d` (the first nine (rate 1/2) or ten non-zero terms from `d_free`) of the 802.11 code (generators 133,
//! 171 octal): rate 1/2 from Frenger, Orten & Ottosson, IEEE Commun. Letters 3(11), 1999;
//! punctured rates 2/3 and 3/4 from Haccoun & Bégin, IEEE Trans. Commun. 37(11), 1989 — the
//! same tables Pei & Henderson use.

use super::mode::{CodeRate, Modulation};
use crate::math::{binomial, q_function};

/// Rate 1/2, `d_free` = 10: `β_d` for d = 10, 12, …, 26 (odd distances do not occur).
const SPECTRUM_HALF: (u32, [f64; 9]) = (
    10,
    [
        36.0,
        211.0,
        1_404.0,
        11_633.0,
        77_433.0,
        502_690.0,
        3_322_763.0,
        21_292_910.0,
        134_365_911.0,
    ],
);
/// Rate 2/3, `d_free` = 6: `β_d` for d = 6, 7, …, 15.
const SPECTRUM_TWO_THIRDS: (u32, [f64; 10]) = (
    6,
    [
        3.0,
        70.0,
        285.0,
        1_276.0,
        6_160.0,
        27_128.0,
        117_019.0,
        498_860.0,
        2_103_891.0,
        8_784_123.0,
    ],
);
/// Rate 3/4, `d_free` = 5: `β_d` for d = 5, 6, …, 14.
const SPECTRUM_THREE_QUARTERS: (u32, [f64; 10]) = (
    5,
    [
        42.0,
        201.0,
        1_492.0,
        10_469.0,
        62_935.0,
        379_644.0,
        2_253_373.0,
        13_073_811.0,
        75_152_755.0,
        428_005_675.0,
    ],
);

/// Uncoded bit error rate of an OFDM subcarrier modulation at `Es/N0 = snr` (linear).
pub fn uncoded_ber(modulation: Modulation, snr: f64) -> f64 {
    let g = snr.max(0.0);
    match modulation {
        Modulation::Bpsk => q_function((2.0 * g).sqrt()),
        Modulation::Qpsk => q_function(g.sqrt()),
        Modulation::Qam16 => 0.75 * q_function((g / 5.0).sqrt()),
        Modulation::Qam64 => 7.0 / 12.0 * q_function((g / 21.0).sqrt()),
        // Not OFDM modulations; treated as BPSK so the function is total.
        _ => q_function((2.0 * g).sqrt()),
    }
}

/// Probability that a hard-decision Viterbi decoder prefers a path at Hamming distance `d`
/// when each code bit is wrong with probability `p`.
pub fn pairwise_error(d: u32, p: f64) -> f64 {
    let q = 1.0 - p;
    let mut sum = 0.0;
    let first = if d.is_multiple_of(2) {
        sum += 0.5 * binomial(d, d / 2) * (p * q).powi((d / 2) as i32);
        d / 2 + 1
    } else {
        d.div_ceil(2)
    };
    for e in first..=d {
        sum += binomial(d, e) * p.powi(e as i32) * q.powi((d - e) as i32);
    }
    sum
}

/// Largest Hamming distance of the spectra above (rate 1/2: 10 + 2·8).
const D_MAX: usize = 26;

/// `C(n, k)` for `n ≤ D_MAX`, exact in `f64` (at most C(26, 13) = 10,400,600).
const BINOMIALS: [[f64; D_MAX + 1]; D_MAX + 1] = {
    let mut t = [[0.0; D_MAX + 1]; D_MAX + 1];
    let mut n = 0;
    while n <= D_MAX {
        t[n][0] = 1.0;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0.0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Decoded bit error rate (union bound, capped at ½) of the 802.11 convolutional code of
/// rate `rate` when code bits are wrong with probability `p`.
///
/// The same sum as [`pairwise_error`] term by term, with the binomials from a table and the
/// powers of `p` and `1 − p` computed once per call: it runs for every frame every radio
/// decodes, and the `powi` calls of the plain form were most of a run's instructions.
/// The two forms agree to a few units in the last place (a test checks 1e-12 relative).
pub fn coded_ber(rate: CodeRate, p: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    let (d_free, betas, step): (u32, &[f64], u32) = match rate {
        CodeRate::Half => (SPECTRUM_HALF.0, &SPECTRUM_HALF.1, 2),
        CodeRate::TwoThirds => (SPECTRUM_TWO_THIRDS.0, &SPECTRUM_TWO_THIRDS.1, 1),
        CodeRate::ThreeQuarters => (SPECTRUM_THREE_QUARTERS.0, &SPECTRUM_THREE_QUARTERS.1, 1),
    };
    let q = 1.0 - p;
    let mut pp = [1.0f64; D_MAX + 1];
    let mut qq = [1.0f64; D_MAX + 1];
    for i in 1..=D_MAX {
        pp[i] = pp[i - 1] * p;
        qq[i] = qq[i - 1] * q;
    }
    let mut sum = 0.0;
    for (i, beta) in betas.iter().enumerate() {
        let d = (d_free + step * i as u32) as usize;
        let row = &BINOMIALS[d];
        let mut pd = 0.0;
        let first = if d.is_multiple_of(2) {
            pd += 0.5 * row[d / 2] * pp[d / 2] * qq[d / 2];
            d / 2 + 1
        } else {
            d.div_ceil(2)
        };
        for e in first..=d {
            pd += row[e] * pp[e] * qq[d - e];
        }
        sum += beta * pd;
    }
    (sum / f64::from(rate.info_bits_per_period())).min(0.5)
}

/// An upper bound on [`coded_ber`] that costs one `powi`: the Bhattacharyya bound
/// `P_d(p) ≤ (4p(1 − p))^{d/2}` (Proakis & Salehi ch. 8) of every term, each at most the
/// `d_free` one when `4p < 1`, so `Pb ≤ (Σ β_d / b)·(4p)^{d_free/2}`. `+∞` when `4p ≥ 1`.
pub fn coded_ber_bound(rate: CodeRate, p: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    let x = 4.0 * p;
    if x >= 1.0 || x.is_nan() {
        return f64::INFINITY;
    }
    let (d_free, betas): (u32, &[f64]) = match rate {
        CodeRate::Half => (SPECTRUM_HALF.0, &SPECTRUM_HALF.1),
        CodeRate::TwoThirds => (SPECTRUM_TWO_THIRDS.0, &SPECTRUM_TWO_THIRDS.1),
        CodeRate::ThreeQuarters => (SPECTRUM_THREE_QUARTERS.0, &SPECTRUM_THREE_QUARTERS.1),
    };
    let total: f64 = betas.iter().sum();
    // (4p)^{d_free/2} = (4p)^{⌊d_free/2⌋} · √(4p) for odd d_free.
    let mut pow = x.powi((d_free / 2) as i32);
    if !d_free.is_multiple_of(2) {
        pow *= x.sqrt();
    }
    total * pow / f64::from(rate.info_bits_per_period())
}

/// [`coded_ber`] through [`pairwise_error`], the form that follows the formula directly (the
/// reference of the table-based one in tests).
#[cfg(test)]
fn coded_ber_direct(rate: CodeRate, p: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    let (d_free, betas, step): (u32, &[f64], u32) = match rate {
        CodeRate::Half => (SPECTRUM_HALF.0, &SPECTRUM_HALF.1, 2),
        CodeRate::TwoThirds => (SPECTRUM_TWO_THIRDS.0, &SPECTRUM_TWO_THIRDS.1, 1),
        CodeRate::ThreeQuarters => (SPECTRUM_THREE_QUARTERS.0, &SPECTRUM_THREE_QUARTERS.1, 1),
    };
    let mut sum = 0.0;
    for (i, beta) in betas.iter().enumerate() {
        sum += beta * pairwise_error(d_free + step * i as u32, p);
    }
    (sum / f64::from(rate.info_bits_per_period())).min(0.5)
}

/// Bit error rate after decoding of an OFDM mode at channel SINR `snr` (linear, over
/// 20 MHz), or `None` for a DSSS/CCK mode.
pub fn ofdm_ber(mode: super::WifiMode, snr: f64) -> Option<f64> {
    let rate = mode.code_rate()?;
    Some(coded_ber(rate, uncoded_ber(mode.modulation(), snr)))
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::reception::WifiMode;

    #[test]
    fn the_bound_bounds() {
        for rate in [CodeRate::Half, CodeRate::TwoThirds, CodeRate::ThreeQuarters] {
            for k in 0..=4000 {
                let p = 0.25 * (k as f64 / 4000.0).powi(6);
                assert!(
                    coded_ber(rate, p) <= coded_ber_bound(rate, p) * (1.0 + 1e-12),
                    "{rate:?} p={p}"
                );
            }
            assert_eq!(coded_ber_bound(rate, 0.3), f64::INFINITY);
        }
    }

    #[test]
    fn table_form_matches_the_formula() {
        for n in 0..=D_MAX as u32 {
            for k in 0..=n {
                assert_eq!(BINOMIALS[n as usize][k as usize], binomial(n, k));
            }
        }
        for rate in [CodeRate::Half, CodeRate::TwoThirds, CodeRate::ThreeQuarters] {
            for k in 0..=4000 {
                let p = 0.5 * (k as f64 / 4000.0).powi(3);
                let (a, b) = (coded_ber(rate, p), coded_ber_direct(rate, p));
                assert!(
                    (a - b).abs() <= 1e-12 * b.abs() + 1e-300,
                    "{rate:?} p={p}: {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn uncoded_textbook_values() {
        // BPSK BER = Q(sqrt(2·SNR)); Python 0.5*erfc(sqrt(4)) = 2.3388674905e-3.
        assert!((uncoded_ber(Modulation::Bpsk, 4.0) / 2.338_867_490_5e-3 - 1.0).abs() < 1e-6);
        // QPSK at SNR 2γ equals BPSK at γ (same Eb/N0).
        let a = uncoded_ber(Modulation::Qpsk, 8.0);
        let b = uncoded_ber(Modulation::Bpsk, 4.0);
        assert!((a / b - 1.0).abs() < 1e-12);
        // 16-QAM at 20 (13 dB): 0.75·Q(2) = 0.017062598961; 64-QAM at 100:
        // 7/12·Q(√(100/21)) = 0.008486430091.
        assert!((uncoded_ber(Modulation::Qam16, 20.0) / 0.017_062_598_961 - 1.0).abs() < 1e-6);
        assert!((uncoded_ber(Modulation::Qam64, 100.0) / 0.008_486_430_091 - 1.0).abs() < 1e-6);
        assert_eq!(uncoded_ber(Modulation::Bpsk, -1.0), 0.5);
    }

    #[test]
    fn pairwise_error_is_a_majority_vote() {
        // d = 1: wrong iff the bit is wrong. d = 2: ½·2pq + p².
        assert!((pairwise_error(1, 0.1) - 0.1).abs() < 1e-15);
        assert!((pairwise_error(2, 0.1) - (0.09 + 0.01)).abs() < 1e-15);
        assert!((pairwise_error(5, 0.5) - 0.5).abs() < 1e-12);
        assert!((pairwise_error(10, 0.5) - 0.5).abs() < 1e-12);
        assert_eq!(pairwise_error(7, 0.0), 0.0);
    }

    /// References: an independent Python implementation of the same bound (math.comb, erfc).
    #[test]
    fn coded_spot_values() {
        let db = |x: f64| 10f64.powf(x / 10.0);
        let cases = [
            (WifiMode::Ofdm6, 3.0, 5.667_926_681_361_234e-5),
            (WifiMode::Ofdm6, 8.0, 1.154_252_918_193_029_3e-15),
            (WifiMode::Ofdm9, 8.0, 5.824_289_451_597_33e-9),
            (WifiMode::Ofdm12, 8.0, 3.994_983_661_635_914e-8),
            (WifiMode::Ofdm18, 8.0, 6.809_934_816_831_677e-4),
            (WifiMode::Ofdm24, 12.0, 2.139_227_353_423_269e-4),
            (WifiMode::Ofdm36, 20.0, 1.984_845_405_398_463_8e-14),
            (WifiMode::Ofdm48, 20.0, 8.015_042_211_826_27e-5),
            (WifiMode::Ofdm54, 20.0, 3.715_872_700_870_443e-3),
        ];
        for (mode, snr_db, want) in cases {
            let got = ofdm_ber(mode, db(snr_db)).unwrap();
            assert!(
                ((got - want) / want).abs() < 1e-5,
                "{mode:?} at {snr_db} dB: {got} vs {want}"
            );
        }
        assert_eq!(ofdm_ber(WifiMode::Dsss1, 1.0), None);
        assert_eq!(coded_ber(CodeRate::Half, 0.4), 0.5);
    }
}
