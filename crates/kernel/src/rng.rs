//! A small, fast, reproducible pseudo-random generator: xoshiro256++ (Blackman & Vigna,
//! "Scrambled linear pseudorandom number generators", ACM TOMS 2021), seeded through SplitMix64.
//!
//! It is implemented here rather than taken from a crate so that the sequence a seed produces can
//! never change under a dependency upgrade: results must stay bit-identical across versions of
//! the simulator that do not change a model.

/// SplitMix64 step (Steele, Lea, Flood 2014); used to expand seeds and to mix keys.
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random stream. Obtain one from [`crate::SeedTree::stream`]; never share one between two
/// model components (that would couple their draws).
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole state is derived from `seed`.
    pub fn from_seed(seed: u64) -> Self {
        let mut sm = seed;
        let mut s = [0u64; 4];
        for w in &mut s {
            *w = splitmix64(&mut sm);
        }
        if s == [0; 4] {
            s[0] = 1; // the all-zero state is a fixed point of xoshiro
        }
        Rng { s }
    }

    /// The next 64 uniformly distributed bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in (0, 1]: safe to take the logarithm of.
    #[inline]
    pub fn uniform_open0(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    #[inline]
    pub fn uniform_range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Uniform integer in [0, n) without modulo bias (Lemire's multiply-shift with rejection).
    /// `n == 0` returns 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// True with probability `p` (clamped to [0, 1]).
    #[inline]
    pub fn bernoulli(&mut self, p: f64) -> bool {
        self.uniform() < p
    }

    /// Exponentially distributed with the given mean.
    #[inline]
    pub fn exp(&mut self, mean: f64) -> f64 {
        -mean * self.uniform_open0().ln()
    }

    /// Standard normal (Box–Muller; one of the pair is discarded to keep the stream stateless).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.uniform_open0();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn known_sequence_is_stable() {
        // Pinned: every stored result depends on this sequence. The values were cross-checked
        // against an independent Python transcription of xoshiro256++ seeded by SplitMix64.
        let mut r = Rng::from_seed(1);
        assert_eq!(r.next_u64(), 0xcfc5_d07f_6f03_c29b);
        assert_eq!(r.next_u64(), 0xbf42_4132_963f_e08d);
        assert_eq!(r.next_u64(), 0x19a3_7d57_57aa_f520);
        assert_ne!(Rng::from_seed(2).next_u64(), 0xcfc5_d07f_6f03_c29b);
    }

    #[test]
    fn moments() {
        let mut r = Rng::from_seed(42);
        let n = 200_000;
        let mean_u: f64 = (0..n).map(|_| r.uniform()).sum::<f64>() / n as f64;
        assert!((mean_u - 0.5).abs() < 0.005, "{mean_u}");
        let mean_e: f64 = (0..n).map(|_| r.exp(3.0)).sum::<f64>() / n as f64;
        assert!((mean_e - 3.0).abs() < 0.05, "{mean_e}");
        let hits = (0..n).filter(|_| r.bernoulli(0.1)).count() as f64 / n as f64;
        assert!((hits - 0.1).abs() < 0.003, "{hits}");
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[r.below(7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }
}
