//! Bit error rates of 802.11 DSSS (1 and 2 Mbit/s) and 802.11b CCK (5.5 and 11 Mbit/s) in
//! additive white Gaussian noise.
//!
//! The channel SINR is measured over the 22 MHz noise bandwidth; the energy per symbol over
//! the noise density follows from the symbol rate: `Es/N0 = SINR · 22 MHz / Rs` (Rs = 1 Msym/s
//! for DSSS, 1.375 Msym/s for CCK). This is the processing gain of the Barker and CCK
//! spreading, the convention of ns-3's `DsssErrorRateModel`.
//!
//! * DBPSK: `Pb = ½·exp(−Eb/N0)` (Proakis & Salehi, *Digital Communications*, 5th ed., ch. 4,
//!   differential PSK).
//! * DQPSK with Gray coding: `Pb = Q₁(a, b) − ½·I₀(ab)·exp(−(a² + b²)/2)`, `a, b =
//!   sqrt(2·Eb/N0·(1 ∓ 1/√2))` (ibid.; exact, computed by
//!   [`crate::math::marcum_difference`]).
//! * CCK (IEEE Std 802.11-2020 clause 16, HR/DSSS): the receiver is a bank of correlators matched to the
//!   code words with φ1 = 0 picks the largest magnitude (noncoherent with respect to φ1), and
//!   φ1 is then detected differentially (DQPSK on the correlator output). The bit error rate is
//!   bounded by a union bound over the code-word pairs, each pair's error being the
//!   noncoherent error of two signals with correlation |ρ| (Proakis & Salehi ch. 4,
//!   noncoherent detection of nonorthogonal signals:
//!   `F(a, b)` with `a, b = sqrt(Es/N0 / 2 · (1 ∓ sqrt(1 − |ρ|²)))`), weighted by the Hamming
//!   distance of the pair's bit labels, plus the DQPSK error of the two φ1 bits at the
//!   correlator's output SNR `Es/N0`. The pair spectrum `(|ρ|, weight)` is derived from the
//!   standard's code words in the tests below.

use crate::math::marcum_difference;

/// Noise bandwidth of the DSSS channel, Hz.
const DSSS_BANDWIDTH_HZ: f64 = 22e6;
/// DSSS symbol rate: 1 Msym/s (11-chip Barker sequence at 11 Mchip/s).
const DSSS_SYMBOL_RATE: f64 = 1e6;
/// CCK symbol rate: 1.375 Msym/s (8 chips at 11 Mchip/s).
const CCK_SYMBOL_RATE: f64 = 1.375e6;

/// DBPSK bit error rate at `Eb/N0` (linear).
pub fn dbpsk_ber(eb_n0: f64) -> f64 {
    (0.5 * (-eb_n0.max(0.0)).exp()).min(0.5)
}

/// Gray-coded DQPSK bit error rate at `Eb/N0` (linear), exact.
pub fn dqpsk_ber(eb_n0: f64) -> f64 {
    let g = eb_n0.max(0.0);
    if g == 0.0 {
        return 0.5;
    }
    let s = core::f64::consts::FRAC_1_SQRT_2;
    marcum_difference((2.0 * g * (1.0 - s)).sqrt(), (2.0 * g * (1.0 + s)).sqrt())
}

/// Probability that a noncoherent detector prefers the wrong one of two equal-energy signals
/// whose normalised correlation has magnitude `rho`, at `Es/N0` (linear).
pub fn noncoherent_pair_error(es_n0: f64, rho: f64) -> f64 {
    let g = es_n0.max(0.0);
    let s = (1.0 - rho * rho).max(0.0).sqrt();
    let a = (0.5 * g * (1.0 - s)).sqrt();
    let b = (0.5 * g * (1.0 + s)).sqrt();
    marcum_difference(a, b)
}

/// Pair spectrum of the 5.5 Mbit/s CCK code words (φ1 = 0): `(|ρ|, w)` where `w` is the sum
/// of the Hamming distances of all ordered pairs with that correlation divided by
/// `M·k` (M = 4 code words, k = 4 bits per symbol). All four code words are orthogonal.
const CCK4_SPECTRUM: [(f64, f64); 1] = [(0.0, 1.0)];
/// Pair spectrum of the 11 Mbit/s CCK code words (M = 64 with φ1 = 0, k = 8 bits).
const CCK8_SPECTRUM: [(f64, f64); 4] = [(0.0, 13.875), (0.375, 4.5), (0.5, 4.5), (0.75, 1.125)];

fn cck_ber(spectrum: &[(f64, f64)], bits_per_symbol: f64, es_n0: f64) -> f64 {
    let words: f64 = spectrum
        .iter()
        .map(|&(rho, w)| w * noncoherent_pair_error(es_n0, rho))
        .sum();
    // The two φ1 bits: DQPSK on the correlator output, Eb/N0 = (Es/N0) / 2.
    let phase = 2.0 / bits_per_symbol * dqpsk_ber(0.5 * es_n0);
    (words + phase).min(0.5)
}

/// Bit error rate of a DSSS/CCK mode at channel SINR `snr` (linear, over 22 MHz), or `None`
/// for an OFDM mode.
pub fn dsss_ber(mode: super::WifiMode, snr: f64) -> Option<f64> {
    use super::WifiMode::*;
    let per_symbol = |rs: f64| snr.max(0.0) * DSSS_BANDWIDTH_HZ / rs;
    Some(match mode {
        Dsss1 => dbpsk_ber(per_symbol(DSSS_SYMBOL_RATE)),
        Dsss2 => dqpsk_ber(0.5 * per_symbol(DSSS_SYMBOL_RATE)),
        Cck5_5 => cck_ber(&CCK4_SPECTRUM, 4.0, per_symbol(CCK_SYMBOL_RATE)),
        Cck11 => cck_ber(&CCK8_SPECTRUM, 8.0, per_symbol(CCK_SYMBOL_RATE)),
        _ => return None,
    })
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::reception::WifiMode;
    use std::collections::BTreeMap;

    /// A CCK code word with φ1 = 0 (IEEE Std 802.11-2020 clause 16, CCK modulation): eight chips
    /// `e^{j(φ2+φ3+φ4)}, e^{j(φ3+φ4)}, e^{j(φ2+φ4)}, −e^{jφ4}, e^{j(φ2+φ3)}, e^{jφ3}, −e^{jφ2}, 1`
    /// with phases as multiples of π/2.
    fn code_word(p2: u32, p3: u32, p4: u32) -> [u32; 8] {
        // Chip phases in quarter turns; a leading minus adds two quarter turns.
        [
            p2 + p3 + p4,
            p3 + p4,
            p2 + p4,
            p4 + 2,
            p2 + p3,
            p3,
            p2 + 2,
            0,
        ]
        .map(|q| q % 4)
    }

    /// |<a, b>| / 8 for chips given in quarter turns.
    fn correlation(a: &[u32; 8], b: &[u32; 8]) -> f64 {
        let (mut re, mut im) = (0i32, 0i32);
        for (x, y) in a.iter().zip(b) {
            match (4 + x - y) % 4 {
                0 => re += 1,
                1 => im += 1,
                2 => re -= 1,
                _ => im -= 1,
            }
        }
        f64::from(re * re + im * im).sqrt() / 8.0
    }

    fn spectrum(words: &[(u32, [u32; 8])], k: f64) -> Vec<(f64, f64)> {
        let mut acc: BTreeMap<u64, f64> = BTreeMap::new();
        for (li, ci) in words {
            for (lj, cj) in words {
                if li == lj {
                    continue;
                }
                let rho = correlation(ci, cj);
                *acc.entry((rho * 8.0).round() as u64).or_default() +=
                    f64::from((li ^ lj).count_ones());
            }
        }
        let m = words.len() as f64;
        acc.into_iter()
            .map(|(r8, w)| (r8 as f64 / 8.0, w / (m * k)))
            .collect()
    }

    #[test]
    fn cck_spectra_follow_from_the_standard() {
        // 5.5 Mbit/s: d2 → φ2 = d2·π + π/2, φ3 = 0, d3 → φ4 = d3·π.
        let w4: Vec<_> = (0..4u32)
            .map(|l| {
                let d2 = l >> 1 & 1;
                let d3 = l & 1;
                (l, code_word(2 * d2 + 1, 0, 2 * d3))
            })
            .collect();
        assert_eq!(spectrum(&w4, 4.0), CCK4_SPECTRUM.to_vec());
        // 11 Mbit/s: (d2d3), (d4d5), (d6d7) → φ2, φ3, φ4 by the QPSK table 00→0, 01→π/2,
        // 10→π, 11→3π/2: the quarter turns are the 2-bit numbers themselves.
        let w8: Vec<_> = (0..64u32)
            .map(|l| (l, code_word(l >> 4 & 3, l >> 2 & 3, l & 3)))
            .collect();
        assert_eq!(spectrum(&w8, 8.0), CCK8_SPECTRUM.to_vec());
    }

    /// References computed in Python (mpmath Marcum integral for DQPSK and the noncoherent
    /// pair errors; `0.5*exp(-22*snr)` for DBPSK), independent of this code.
    #[test]
    fn spot_values() {
        let db = |x: f64| 10f64.powf(x / 10.0);
        let cases = [
            (WifiMode::Dsss1, -4.0, 7.857_123_183_323_249e-5),
            (WifiMode::Dsss1, -2.0, 4.682_756_310_666_672e-7),
            (WifiMode::Dsss2, 0.0, 1.830_688_998_692_251_6e-4),
            (WifiMode::Dsss2, 2.0, 3.422_955_610_724_503e-6),
            (WifiMode::Cck5_5, 0.0, 7.786_828_520_963_171e-4),
            (WifiMode::Cck5_5, 4.0, 3.378_770_813_631_824_3e-7),
            (WifiMode::Cck11, 4.0, 9.561_032_253_982_486e-4),
            (WifiMode::Cck11, 8.0, 3.087_973_590_372_968_3e-7),
        ];
        for (mode, snr_db, want) in cases {
            let got = dsss_ber(mode, db(snr_db)).unwrap();
            assert!(
                ((got - want) / want).abs() < 1e-6,
                "{mode:?} at {snr_db} dB: {got} vs {want}"
            );
        }
        assert_eq!(dsss_ber(WifiMode::Ofdm6, 1.0), None);
    }

    #[test]
    fn limits() {
        assert_eq!(dbpsk_ber(0.0), 0.5);
        assert_eq!(dqpsk_ber(0.0), 0.5);
        assert_eq!(dqpsk_ber(-3.0), 0.5);
        assert!((noncoherent_pair_error(4.0, 0.0) - 0.5 * (-2.0f64).exp()).abs() < 1e-12);
        for m in [
            WifiMode::Dsss1,
            WifiMode::Dsss2,
            WifiMode::Cck5_5,
            WifiMode::Cck11,
        ] {
            assert!(dsss_ber(m, 0.0).unwrap() <= 0.5);
            assert!(dsss_ber(m, 1e3).unwrap() < 1e-300);
        }
    }
}
