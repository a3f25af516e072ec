//! SINR reception with cumulative interference.
//!
//! The signal of a frame competes with thermal noise plus the sum of every other transmission
//! overlapping it in time (not only the strongest). A frame is split into chunks at every
//! instant where the interference or the transmission mode changes; each chunk has a constant
//! SINR, and the frame succeeds only if every chunk does:
//!
//! ```text
//! P(success) = Π_chunks chunk_success_rate(mode, S / (N + Σ I), rate · duration)
//! ```
//!
//! This is the structure of ns-3's `InterferenceHelper` (Lacage & Henderson, "Yet another
//! network simulator", WNS2 2006). A frame is described by its [`Segment`]s — e.g. the
//! PLCP preamble and header at 1 Mbit/s DBPSK, then the MPDU at the data rate — so the header's
//! robustness is modelled too. The engine keeps the list of overlapping transmissions; this
//! module is a pure function of it.

use super::error_models::chunk_success_rate_bits;
use super::WifiMode;
use crate::error::{finite, ParamError};
use crate::power::{thermal_noise_w, DEFAULT_NOISE_FIGURE_DB};
use sctpsim_kernel::SimTime;

/// A stretch of a frame sent in one mode, `[start, end)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Segment {
    /// Mode of this part of the frame.
    pub mode: WifiMode,
    /// First instant on the air.
    pub start: SimTime,
    /// End (exclusive).
    pub end: SimTime,
}

/// Another transmission heard at the receiver during `[start, end)` with constant power.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interferer {
    /// Arrival of its first bit.
    pub start: SimTime,
    /// Arrival of its last bit (exclusive).
    pub end: SimTime,
    /// Received power, W.
    pub power_w: f64,
}

/// `S / (N + I)`, linear.
#[inline]
pub fn sinr(signal_w: f64, noise_w: f64, interference_w: f64) -> f64 {
    signal_w / (noise_w + interference_w)
}

/// SINR reception parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct SinrReception {
    /// Receiver noise figure, dB (ns-3 `WifiPhy::RxNoiseFigure`, default 7 dB).
    pub noise_figure_db: f64,
    /// A fixed noise power, W, in place of kT·B·NF: INET's `thermalNoise` parameter (INET 2.x
    /// `Radio.ned`, default −110 dBm whatever the bandwidth). `None`: kT·B·NF.
    pub noise_floor_w: Option<f64>,
    /// A frame whose SINR falls to or below this ratio (linear) at any instant is lost before
    /// the error model is asked: INET's `snirThreshold` (INET 2.x `Ieee80211Radio.ned`, 4 dB;
    /// `Ieee80211RadioModel::isReceivedCorrectly`, "COLLISION! Packet got lost"). `None`: the
    /// error model alone decides (ns-3).
    pub snir_threshold: Option<f64>,
}

impl Default for SinrReception {
    fn default() -> Self {
        SinrReception {
            noise_figure_db: DEFAULT_NOISE_FIGURE_DB,
            noise_floor_w: None,
            snir_threshold: None,
        }
    }
}

impl SinrReception {
    /// Receiver noise over the bandwidth of `mode`, W: the fixed floor when one is set, else
    /// thermal noise times the noise figure.
    pub fn noise_w(&self, mode: WifiMode) -> f64 {
        self.noise_over_w(mode.bandwidth_hz())
    }

    /// Receiver noise over `bandwidth_hz`, W (the fixed floor when one is set).
    pub fn noise_over_w(&self, bandwidth_hz: f64) -> f64 {
        self.noise_floor_w
            .unwrap_or_else(|| thermal_noise_w(bandwidth_hz, self.noise_figure_db))
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), ParamError> {
        finite("noise_figure_db", self.noise_figure_db)?;
        if let Some(w) = self.noise_floor_w {
            finite("noise_floor", w)?;
        }
        if let Some(t) = self.snir_threshold {
            finite("snir_threshold_db", t)?;
        }
        Ok(())
    }

    /// Probability that a frame made of `segments`, received with power `signal_w`, survives
    /// thermal noise and `interferers`. Interferers outside the frame are ignored; parts of
    /// the time line not covered by a segment carry no bits.
    pub fn frame_success_rate(
        &self,
        segments: &[Segment],
        signal_w: f64,
        interferers: &[Interferer],
    ) -> f64 {
        let mut edges: Vec<SimTime> = Vec::with_capacity(2 * (segments.len() + interferers.len()));
        for s in segments {
            edges.push(s.start);
            edges.push(s.end);
        }
        let (first, last) = match (
            segments.iter().map(|s| s.start).min(),
            segments.iter().map(|s| s.end).max(),
        ) {
            (Some(a), Some(b)) => (a, b),
            _ => return 1.0,
        };
        for i in interferers {
            for t in [i.start, i.end] {
                if t > first && t < last {
                    edges.push(t);
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mut success = 1.0;
        for w in edges.windows(2) {
            let (a, b) = (w[0], w[1]);
            let Some(seg) = segments.iter().find(|s| s.start <= a && s.end >= b) else {
                continue;
            };
            let interference: f64 = interferers
                .iter()
                .filter(|i| i.start < b && i.end > a)
                .map(|i| i.power_w)
                .sum();
            let snr = sinr(signal_w, self.noise_w(seg.mode), interference);
            if self.snir_threshold.is_some_and(|t| snr <= t) {
                return 0.0;
            }
            let bits = seg.mode.data_rate_bps() as f64 * (b - a).as_secs_f64();
            success *= chunk_success_rate_bits(seg.mode, snr, bits);
        }
        success
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::power::dbm_to_w;
    use crate::reception::chunk_success_rate;

    fn us(x: u64) -> SimTime {
        SimTime(x * 1_000)
    }

    fn ofdm24(start: u64, end: u64) -> Segment {
        Segment {
            mode: WifiMode::Ofdm24,
            start: us(start),
            end: us(end),
        }
    }

    #[test]
    fn no_interference_is_one_chunk() {
        let r = SinrReception::default();
        let signal = dbm_to_w(-80.0);
        // 24 Mbit/s for 100 µs = 2400 bits.
        let p = r.frame_success_rate(&[ofdm24(0, 100)], signal, &[]);
        let snr = sinr(signal, r.noise_w(WifiMode::Ofdm24), 0.0);
        assert!((p - chunk_success_rate(WifiMode::Ofdm24, snr, 2400)).abs() < 1e-12);
        assert_eq!(r.frame_success_rate(&[], signal, &[]), 1.0);
    }

    #[test]
    fn interference_is_cumulative_and_split_into_chunks() {
        let r = SinrReception::default();
        let n = r.noise_w(WifiMode::Ofdm24);
        let signal = n * 10f64.powf(1.6); // 16 dB SNR
        let i = Interferer {
            start: us(40),
            end: us(60),
            power_w: n * 10.0,
        };
        let p = r.frame_success_rate(&[ofdm24(0, 100)], signal, &[i]);
        let clean = chunk_success_rate_bits(WifiMode::Ofdm24, signal / n, 1920.0);
        let hit = chunk_success_rate_bits(WifiMode::Ofdm24, signal / (11.0 * n), 480.0);
        assert!((p - clean * hit).abs() < 1e-12, "{p}");
        // Interference is summed: two interferers of half the power do the same harm.
        let j = Interferer {
            power_w: n * 5.0,
            ..i
        };
        let two = r.frame_success_rate(&[ofdm24(0, 100)], signal, &[j, j]);
        assert!((two - p).abs() < 1e-12);
        // Outside the frame: no effect.
        let late = Interferer {
            start: us(100),
            end: us(300),
            power_w: 1.0,
        };
        let p0 = r.frame_success_rate(&[ofdm24(0, 100)], signal, &[]);
        assert_eq!(r.frame_success_rate(&[ofdm24(0, 100)], signal, &[late]), p0);
        // A strong overlapping interferer kills the frame.
        let strong = Interferer {
            start: us(10),
            end: us(20),
            power_w: signal,
        };
        assert!(r.frame_success_rate(&[ofdm24(0, 100)], signal, &[strong]) < 1e-6);
    }

    #[test]
    fn header_and_payload_modes() {
        let r = SinrReception::default();
        let n = r.noise_w(WifiMode::Dsss1);
        let segs = [
            Segment {
                mode: WifiMode::Dsss1,
                start: us(0),
                end: us(192),
            },
            Segment {
                mode: WifiMode::Cck11,
                start: us(192),
                end: us(1192),
            },
        ];
        // At 2 dB the 1 Mbit/s header is safe but 11 Mbit/s CCK fails.
        let s = n * 10f64.powf(0.2);
        let p = r.frame_success_rate(&segs, s, &[]);
        let want = chunk_success_rate(WifiMode::Dsss1, s / n, 192)
            * chunk_success_rate(WifiMode::Cck11, s / n, 11_000);
        assert!((p - want).abs() < 1e-12 && p < 1e-6);
        assert!(r.validate().is_ok());
        assert!(SinrReception {
            noise_floor_w: None,
            snir_threshold: None,
            noise_figure_db: f64::NAN
        }
        .validate()
        .is_err());
    }
}

#[cfg(test)]
mod inet_receiver_test {
    use super::*;
    use crate::power::dbm_to_w;
    use crate::reception::chunk_success_rate;

    fn seg(mode: WifiMode, us_end: u64) -> Segment {
        Segment {
            mode,
            start: SimTime(0),
            end: SimTime(us_end * 1_000),
        }
    }

    /// INET's receiver (its 2.x defaults): a fixed −110 dBm noise whatever the bandwidth, and
    /// a frame at or below 4 dB SNIR lost before the error model is asked.
    #[test]
    fn a_fixed_noise_floor_and_an_snir_threshold() {
        let inet = SinrReception {
            noise_floor_w: Some(dbm_to_w(-110.0)),
            snir_threshold: Some(10f64.powf(0.4)),
            ..SinrReception::default()
        };
        assert_eq!(inet.noise_w(WifiMode::Ofdm54), dbm_to_w(-110.0));
        assert_eq!(inet.noise_w(WifiMode::Dsss1), dbm_to_w(-110.0));
        // ns-3's 20 MHz noise with NF 7 dB is about −94 dBm: 16 dB more.
        let ns3 = SinrReception::default();
        let d = 10.0 * (ns3.noise_w(WifiMode::Ofdm6) / inet.noise_w(WifiMode::Ofdm6)).log10();
        assert!((d - 16.0).abs() < 0.2, "{d}");
        // 3.9 dB: lost by the threshold although BPSK 1/2 would mostly get through.
        let frame = [seg(WifiMode::Ofdm6, 100)];
        let s = dbm_to_w(-110.0) * 10f64.powf(0.39);
        assert!(chunk_success_rate(WifiMode::Ofdm6, 10f64.powf(0.39), 600) > 0.5);
        assert_eq!(inet.frame_success_rate(&frame, s, &[]), 0.0);
        // 4.1 dB: the error model decides, as without the threshold.
        let s = dbm_to_w(-110.0) * 10f64.powf(0.41);
        let want = chunk_success_rate(WifiMode::Ofdm6, 10f64.powf(0.41), 600);
        assert!((inet.frame_success_rate(&frame, s, &[]) - want).abs() < 1e-12);
        assert!(inet.validate().is_ok());
        let bad = SinrReception {
            snir_threshold: Some(f64::NAN),
            ..inet
        };
        assert!(bad.validate().is_err());
    }
}
