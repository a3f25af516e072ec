//! Chunk success rates: the probability that `n` bits sent in one mode at a constant SINR all
//! arrive correctly. DSSS/CCK formulas are in [`super::dsss`], OFDM in [`super::ofdm`]; see
//! `docs/models/phy.md` for the sources.
//!
//! Bit errors are treated as independent, `success = (1 − BER)^n`, as both of ns-3's 802.11
//! error-rate models (`YansErrorRateModel`, `NistErrorRateModel`) do.

use super::dsss::dsss_ber;
use super::ofdm::ofdm_ber;
use super::WifiMode;

/// Bit error rate of `mode` at channel SINR `snr_linear` (over the mode's bandwidth), in
/// [0, ½].
///
/// The OFDM union bound costs about a hundred `powi` terms, and it dominated whole runs
/// (87 % of the instructions of the OMNeT++ study's 802.11a scenario). Frames between two
/// static nodes without interference see bit-for-bit the same SINR every time, so the result
/// is remembered in a small direct-mapped cache keyed by the exact mode and SINR bits: a hit
/// returns exactly what the computation would, so results do not depend on the cache.
pub fn bit_error_rate(mode: WifiMode, snr_linear: f64) -> f64 {
    let snr = if snr_linear.is_nan() { 0.0 } else { snr_linear };
    BER_CACHE.with(|c| {
        let key = (mode as u64) << 56 ^ snr.to_bits();
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BER_CACHE_BITS)) as usize;
        let mut cache = c.borrow_mut();
        let entry = &mut cache[slot];
        if entry.0 == mode as u8 && entry.1 == snr.to_bits() {
            return entry.2;
        }
        let ber = dsss_ber(mode, snr)
            .or_else(|| ofdm_ber(mode, snr))
            .unwrap_or(0.5);
        *entry = (mode as u8, snr.to_bits(), ber);
        ber
    })
}

/// log2 of the number of cache slots (4,096 × 24 bytes per thread).
const BER_CACHE_BITS: u32 = 12;

thread_local! {
    /// `(mode, SINR bits, BER)`; mode `u8::MAX` marks an empty slot.
    static BER_CACHE: std::cell::RefCell<Vec<(u8, u64, f64)>> =
        std::cell::RefCell::new(vec![(u8::MAX, 0, 0.0); 1 << BER_CACHE_BITS]);
}

/// Probability that `nbits` bits sent in `mode` at SINR `snr_linear` are all received
/// correctly.
pub fn chunk_success_rate(mode: WifiMode, snr_linear: f64, nbits: u64) -> f64 {
    chunk_success_rate_bits(mode, snr_linear, nbits as f64)
}

/// [`chunk_success_rate`] for a fractional number of bits (a chunk of a frame between two
/// interference changes need not hold a whole number of bits).
pub fn chunk_success_rate_bits(mode: WifiMode, snr_linear: f64, nbits: f64) -> f64 {
    if nbits.is_nan() || nbits <= 0.0 {
        return 1.0;
    }
    if surely_all_correct(mode, snr_linear, nbits) {
        return 1.0;
    }
    let ber = bit_error_rate(mode, snr_linear);
    // ln(1 − ber) via ln_1p keeps tiny error rates exact.
    (nbits * (-ber).ln_1p()).exp()
}

/// Whether `nbits` OFDM bits at `snr_linear` are certain to give a success rate of exactly 1.0
/// in `f64`: `nbits · BER` below 2⁻⁵⁶ by [`super::ofdm::coded_ber_bound`], so
/// `exp(nbits · ln(1 − BER))` rounds to 1. Most frames a radio overhears from nearby are in
/// this regime; the bound costs one `powi` where the union bound costs a hundred terms.
fn surely_all_correct(mode: WifiMode, snr_linear: f64, nbits: f64) -> bool {
    let Some(rate) = mode.code_rate() else {
        return false;
    };
    if snr_linear.is_nan() {
        return false;
    }
    let p = super::ofdm::uncoded_ber(mode.modulation(), snr_linear);
    nbits * super::ofdm::coded_ber_bound(rate, p) < SURELY_ONE
}

/// 2⁻⁵⁶: `exp(x)` for `−2⁻⁵⁶ < x ≤ 0` is 1.0 (the next double below 1 is 1 − 2⁻⁵³).
const SURELY_ONE: f64 = 1.0 / 72_057_594_037_927_936.0;

/// The smallest SINR (linear) at which `nbits` bits in `mode` succeed with probability at
/// least `target` (bisection in dB over −20…60 dB; `f64::INFINITY` if even 60 dB is not
/// enough). A convenience for documentation, tests and rate-adaptation thresholds.
pub fn min_snr_for_success(mode: WifiMode, nbits: u64, target: f64) -> f64 {
    let ok = |db: f64| chunk_success_rate(mode, 10f64.powf(db / 10.0), nbits) >= target;
    let (mut lo, mut hi) = (-20.0f64, 60.0f64);
    if ok(lo) {
        return 10f64.powf(lo / 10.0);
    }
    if !ok(hi) {
        return f64::INFINITY;
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    10f64.powf(hi / 10.0)
}

#[cfg(test)]
mod test {
    use super::*;

    /// Where the bound says "surely 1", the full computation gives exactly 1.0 too.
    #[test]
    fn the_shortcut_changes_no_result() {
        let full = |m: WifiMode, snr: f64, n: f64| (n * (-bit_error_rate(m, snr)).ln_1p()).exp();
        let mut shortcuts = 0;
        for m in WifiMode::ALL {
            for k in 0..2_000 {
                let snr = 10f64.powf((-5.0 + 0.025 * k as f64) / 10.0);
                for n in [24.0, 304.0, 1_000.0, 12_000.0, 65_000.0] {
                    if surely_all_correct(m, snr, n) {
                        shortcuts += 1;
                        assert_eq!(full(m, snr, n), 1.0, "{m:?} snr={snr} n={n}");
                    }
                    assert_eq!(
                        chunk_success_rate_bits(m, snr, n).to_bits(),
                        full(m, snr, n).to_bits()
                    );
                }
            }
        }
        assert!(shortcuts > 10_000, "{shortcuts}");
    }

    /// The cache returns exactly the computed value, also after other keys took the slot.
    #[test]
    fn cached_rates_are_exact() {
        let direct =
            |m: WifiMode, snr: f64| dsss_ber(m, snr).or_else(|| ofdm_ber(m, snr)).unwrap_or(0.5);
        for round in 0..3 {
            for (i, m) in WifiMode::ALL.iter().enumerate() {
                for k in 0..5_000 {
                    let snr = 0.01 * (k as f64) + 1e-3 * i as f64;
                    let got = bit_error_rate(*m, snr);
                    assert_eq!(
                        got.to_bits(),
                        direct(*m, snr).to_bits(),
                        "round {round} {m:?} {snr}"
                    );
                }
            }
        }
        assert_eq!(
            bit_error_rate(WifiMode::Ofdm6, f64::NAN),
            direct(WifiMode::Ofdm6, 0.0)
        );
    }

    fn db(x: f64) -> f64 {
        10f64.powf(x / 10.0)
    }

    #[test]
    fn monotone_in_snr_for_every_mode() {
        for mode in WifiMode::ALL {
            let mut last_ber = 1.0;
            let mut last_psr = 0.0;
            let mut x = -15.0;
            while x <= 45.0 {
                let ber = bit_error_rate(mode, db(x));
                let psr = chunk_success_rate(mode, db(x), 8000);
                assert!((0.0..=0.5).contains(&ber), "{mode:?} {x} dB: {ber}");
                assert!(ber <= last_ber, "{mode:?} BER rises at {x} dB");
                assert!(psr >= last_psr, "{mode:?} PSR falls at {x} dB");
                last_ber = ber;
                last_psr = psr;
                x += 0.05;
            }
        }
    }

    #[test]
    fn limits_at_high_and_low_snr() {
        for mode in WifiMode::ALL {
            assert!(
                chunk_success_rate(mode, db(45.0), 12_000) > 1.0 - 1e-12,
                "{mode:?}"
            );
            assert!(
                chunk_success_rate(mode, db(-10.0), 12_000) < 1e-6,
                "{mode:?}"
            );
            assert_eq!(chunk_success_rate(mode, db(-10.0), 0), 1.0);
            assert!(chunk_success_rate(mode, f64::NAN, 100) < 1e-6);
            assert_eq!(chunk_success_rate(mode, 0.0, 1), 0.5);
        }
    }

    #[test]
    fn faster_modes_need_more_snr() {
        let need = |m| min_snr_for_success(m, 8000, 0.9);
        let dsss = [
            WifiMode::Dsss1,
            WifiMode::Dsss2,
            WifiMode::Cck5_5,
            WifiMode::Cck11,
        ];
        let ofdm = &WifiMode::ALL[4..];
        for pair in dsss.windows(2).chain(ofdm.windows(2)) {
            assert!(
                need(pair[0]) < need(pair[1]),
                "{:?} vs {:?}",
                pair[0],
                pair[1]
            );
        }
        // 90 % success for 1000 bytes (Python bisection of the same formulas): 6 Mbit/s at
        // 3.43 dB, 54 Mbit/s at 21.76 dB.
        let six = 10.0 * need(WifiMode::Ofdm6).log10();
        let fifty_four = 10.0 * need(WifiMode::Ofdm54).log10();
        assert!((six - 3.43).abs() < 0.01, "{six}");
        assert!((fifty_four - 21.76).abs() < 0.01, "{fifty_four}");
        assert_eq!(
            min_snr_for_success(WifiMode::Dsss1, 8000, 2.0),
            f64::INFINITY
        );
    }

    #[test]
    fn success_is_product_over_bits() {
        let m = WifiMode::Ofdm24;
        let s = db(11.0);
        let a = chunk_success_rate(m, s, 4000);
        let b = chunk_success_rate(m, s, 8000);
        assert!((a * a - b).abs() < 1e-12);
        let ber = bit_error_rate(m, s);
        assert!((chunk_success_rate(m, s, 1) - (1.0 - ber)).abs() < 1e-15);
        assert!((chunk_success_rate_bits(m, s, 0.5) - (1.0 - ber).sqrt()).abs() < 1e-12);
    }
}
