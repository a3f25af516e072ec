//! Per-radio reception: what a radio makes of the frames the channel delivers to it, and the
//! clear-channel-assessment (CCA) edges it reports to its MAC.
//!
//! Two models (`radio.reception`):
//!
//! * **threshold** — ns-2's `WirelessPhy` + `Mac802_11` reception
//!   ([`ThresholdReception`]): a frame at or above CSThresh makes the medium busy for its
//!   duration; the radio locks on to the first frame that arrives while it is idle (a frame
//!   below RXThresh is locked on too and ends as a frame received in error, so the MAC defers
//!   EIFS, as in ns-2); a frame arriving during a reception is captured away if the current one
//!   is CPThresh stronger, otherwise both are lost and the reception lasts until the later of
//!   the two ends (ns-2 `Mac802_11::collision`). Optionally a newcomer CPThresh stronger takes
//!   the receiver over.
//! * **sinr** — cumulative interference ([`SinrReception`], the structure of ns-3's
//!   `InterferenceHelper`): the radio locks on to a frame at or above its sensitivity
//!   (`rx_thresh`) if it is not already receiving; every other frame overlapping it, however
//!   weak (down to the channel's cut-off), is interference; at the frame's end its success
//!   probability over all chunks of constant SINR decides its fate with one uniform draw from
//!   the radio's stream `("sinr-rx", node, iface)`. CCA is busy while the radio is locked or
//!   the total received energy reaches the energy-detection level (`cs_thresh`), as ns-3's
//!   PHY reports it.
//!
//! **Distance-dependent frame errors** (`radio.frame_error`, both models; the Mobile IP
//! study's wireless error, [`FrameErrorVsDistance`]): a frame the reception model passes as
//! good is lost with the probability the model gives for the transmitter–receiver distance at
//! the start of the frame, scaled to the frame's length or airtime when the model's unit says
//! so ([`FrameErrorUnit`]). One uniform draw per locked frame that reaches its end, from the
//! radio's own stream `("frame-error", node, iface)`, so enabling the model changes no other
//! draw. The MAC sees such a frame as received in error (FCS failure, EIFS).
//!
//! **Half duplex** (both models): a radio that starts transmitting abandons the frame it was
//! receiving, and frames that arrive while it transmits are never received (their preamble was
//! missed) — they still count for carrier sense and interference. This is what the MAC expects
//! (`sctpsim_proto::mac` module notes: "the engine should not deliver frames that overlapped
//! the start of this MAC's transmission").

use crate::trace::RxLoss;
use crate::wireless::channel::AirFrame;
use crate::wireless::profiles::{wifi_mode, ReceptionParams};
use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_proto::mac::phy_timing::DSSS_SHORT_PLCP;
use sctpsim_proto::mac::{PhyMode, Preamble};
use sctpsim_world::reception::{Interferer, Overlap, Segment, WifiMode};
use sctpsim_world::{FrameErrorUnit, FrameErrorVsDistance};

/// Reception counters of one radio. All only grow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RadioCounters {
    /// Frames the channel delivered (at or above the cut-off power).
    pub arrivals: u64,
    /// Frames the radio locked on to.
    pub locked: u64,
    /// Frames passed to the MAC as received correctly.
    pub rx_ok: u64,
    /// Frames passed to the MAC as received in error (collision, too weak, SINR failure).
    pub rx_errors: u64,
    /// Threshold model: receptions lost because a second frame overlapped (ns-2 collision).
    pub collisions: u64,
    /// Threshold model: overlapping frames ignored because the current one was CPThresh
    /// stronger (or, with new-frame capture, receptions switched to a stronger newcomer).
    pub captures: u64,
    /// Frames not received because the radio was transmitting (half duplex).
    pub half_duplex: u64,
    /// Frames below the reception threshold / sensitivity.
    pub below_rx_thresh: u64,
    /// Frames the reception model passed but the distance-dependent frame error model lost.
    pub frame_errors: u64,
}

/// The frame a radio is locked on to.
#[derive(Copy, Clone, Debug)]
struct Lock {
    frame: u32,
    power_w: f64,
    start: SimTime,
    end: SimTime,
    mode: PhyMode,
    preamble: Preamble,
    /// Threshold model: lost (collision) or never decodable.
    corrupted: bool,
    /// Threshold model: a second frame overlapped it (the cause, for the trace).
    collided: bool,
    /// Transmitter–receiver distance at the frame's start, m (NaN: not computed).
    distance_m: f64,
    /// MPDU bytes with FCS (for a frame error unit of bytes).
    bytes: u32,
}

/// A frame currently arriving (SINR model).
#[derive(Copy, Clone, Debug)]
struct Arrival {
    frame: u32,
    power_w: f64,
    start: SimTime,
    end: SimTime,
}

/// What the radio tells its MAC at the end of a frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RxReport {
    /// Decoded without error.
    pub ok: bool,
    /// Received power, W.
    pub power_w: f64,
    /// Mode the frame was sent with.
    pub mode: PhyMode,
    /// Why it was lost (`None` when `ok`): for the trace's `phy` rows.
    pub loss: Option<RxLoss>,
}

/// One radio's reception state.
///
/// Laid out in declaration order (`repr(C)`): the SINR model's state first, then what every
/// frame arrival touches under either model, last, so that in a [`WifiIface`] the radio's
/// hot fields adjoin the MAC's (thousands of radios are visited in the order in which they
/// hear each other: each arrival starts with cache misses, the fewer lines the better).
///
/// [`WifiIface`]: crate::wireless::iface::WifiIface
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Radio {
    // The SINR model only.
    rng: Rng,
    /// SINR model: every frame arriving now.
    arrivals: Vec<Arrival>,
    /// SINR model: interferers of the locked frame.
    interferers: Vec<Interferer>,

    // Every arrival.
    /// Distance-dependent frame errors and their stream (boxed: one pointer to test on the
    /// hot path when the model is off).
    frame_error: Option<Box<(FrameErrorVsDistance, FrameErrorUnit, Rng)>>,
    lock: Option<Lock>,
    /// Transmitting until (exclusive).
    tx_until: SimTime,
    /// Threshold model: frames at or above CSThresh on the air here.
    sensed: u32,
    cca_busy: bool,
    /// After the lock and `sensed` rather than before: the end of a frame this radio is not
    /// locked on (most of them) reads the model's tag and CSThresh, `sensed` and the lock's
    /// frame id, all on one cache line here (bytes 136–191 of the line-aligned
    /// [`WifiIface`]); with `params` and `counters` first they were on two (lines 1 and 4),
    /// and [`Radio::touch`] loaded four lines instead of three (cachegrind, `manet-cbr`
    /// 20 flows 60 s).
    params: ReceptionParams,
    counters: RadioCounters,
}

impl Radio {
    /// A radio with reception model `params`, drawing SINR outcomes from `rng`.
    pub fn new(params: ReceptionParams, rng: Rng) -> Self {
        Radio {
            params,
            rng,
            tx_until: SimTime::ZERO,
            sensed: 0,
            arrivals: Vec::new(),
            interferers: Vec::new(),
            lock: None,
            cca_busy: false,
            counters: RadioCounters::default(),
            frame_error: None,
        }
    }

    /// Adds distance-dependent frame errors, each probability for one `unit`, drawn from
    /// `rng` (the model `None` leaves the radio without).
    pub fn with_frame_error(
        mut self,
        model: FrameErrorVsDistance,
        unit: FrameErrorUnit,
        rng: Rng,
    ) -> Self {
        self.frame_error =
            (model != FrameErrorVsDistance::None).then(|| Box::new((model, unit, rng)));
        self
    }

    /// Whether the radio needs the transmitter–receiver distance of each frame
    /// ([`Radio::rx_start_at`]).
    pub fn needs_distance(&self) -> bool {
        self.frame_error.is_some()
    }

    /// The counters.
    pub fn counters(&self) -> &RadioCounters {
        &self.counters
    }

    /// A value computed from one field in each cache line of the state a frame arrival
    /// reads. The engine calls it for every receiver of a frame, in one loop, before it queues
    /// their events: the loads then overlap, instead of each arrival event waiting for its own
    /// cache misses (10,000 radios do not fit in the caches). The value means nothing.
    pub fn touch(&self) -> u64 {
        let thresh = match &self.params {
            ReceptionParams::Threshold(t) => t.cs_thresh_w,
            ReceptionParams::Sinr { cca_w, .. } => *cca_w,
        };
        let lock = self.lock.map_or(0, |l| u64::from(l.frame) ^ l.end.0);
        thresh
            .to_bits()
            .wrapping_add(u64::from(self.frame_error.is_some()))
            .wrapping_add(self.counters.arrivals)
            .wrapping_add(self.counters.rx_errors)
            .wrapping_add(lock)
            .wrapping_add(self.tx_until.0)
            .wrapping_add(u64::from(self.sensed) + u64::from(self.cca_busy))
    }

    /// Whether clear channel assessment reports the medium busy.
    pub fn cca_busy(&self) -> bool {
        self.cca_busy
    }

    fn transmitting(&self, now: SimTime) -> bool {
        now < self.tx_until
    }

    /// Recomputes CCA; `Some(busy)` if it changed.
    fn cca_update(&mut self) -> Option<bool> {
        let busy = match &self.params {
            ReceptionParams::Threshold(_) => self.sensed > 0,
            ReceptionParams::Sinr { cca_w, .. } => {
                self.lock.is_some()
                    || self.arrivals.iter().map(|a| a.power_w).sum::<f64>() >= *cca_w
            }
        };
        (busy != self.cca_busy).then(|| {
            self.cca_busy = busy;
            busy
        })
    }

    /// This radio starts transmitting until `end`: any reception in progress is abandoned.
    /// Returns a CCA change, if any.
    pub fn tx_start(&mut self, now: SimTime, end: SimTime) -> Option<bool> {
        self.tx_until = self.tx_until.max(end);
        if self.lock.take().is_some() {
            self.counters.half_duplex += 1;
        }
        let _ = now;
        self.cca_update()
    }

    /// A frame starts arriving: `frame` (slot `id`) with power `power_w`, ending at `end`.
    /// Returns a CCA change, if any.
    pub fn rx_start(
        &mut self,
        now: SimTime,
        id: u32,
        frame: &AirFrame,
        power_w: f64,
        end: SimTime,
    ) -> Option<bool> {
        self.rx_start_at(now, id, frame, power_w, end, f64::NAN)
    }

    /// [`Radio::rx_start`] for a frame sent from `distance_m` away (used by the frame error
    /// model).
    pub fn rx_start_at(
        &mut self,
        now: SimTime,
        id: u32,
        frame: &AirFrame,
        power_w: f64,
        end: SimTime,
        distance_m: f64,
    ) -> Option<bool> {
        self.counters.arrivals += 1;
        let transmitting = self.transmitting(now);
        if transmitting {
            self.counters.half_duplex += 1;
        }
        let newcomer = Lock {
            frame: id,
            power_w,
            start: now,
            end,
            mode: frame.mode,
            preamble: frame.preamble,
            corrupted: false,
            collided: false,
            distance_m,
            bytes: u32::try_from(frame.bytes.len()).unwrap_or(u32::MAX),
        };
        match &self.params {
            ReceptionParams::Threshold(t) => {
                if power_w < t.cs_thresh_w {
                    return None; // below CSThresh: invisible (ns-2 WirelessPhy::sendUp)
                }
                self.sensed += 1;
                if transmitting {
                    return self.cca_update();
                }
                let decodable = power_w >= t.rx_thresh_w;
                match self.lock {
                    None => {
                        if !decodable {
                            self.counters.below_rx_thresh += 1;
                        }
                        self.counters.locked += 1;
                        self.lock = Some(Lock {
                            corrupted: !decodable,
                            ..newcomer
                        });
                    }
                    Some(cur) => match t.overlap(cur.power_w, power_w) {
                        Overlap::KeepCurrent => self.counters.captures += 1,
                        Overlap::SwitchToNew => {
                            self.counters.captures += 1;
                            self.counters.locked += 1;
                            self.lock = Some(Lock {
                                corrupted: !decodable,
                                ..newcomer
                            });
                        }
                        Overlap::Collision => {
                            if !cur.corrupted {
                                self.counters.collisions += 1;
                            }
                            // Both are lost; the reception lasts until the later end.
                            let keep = if end > cur.end { newcomer } else { cur };
                            self.lock = Some(Lock {
                                corrupted: true,
                                collided: true,
                                ..keep
                            });
                        }
                    },
                }
            }
            ReceptionParams::Sinr { rx_thresh_w, .. } => {
                let rx_thresh_w = *rx_thresh_w;
                self.arrivals.push(Arrival {
                    frame: id,
                    power_w,
                    start: now,
                    end,
                });
                match self.lock {
                    Some(_) => self.interferers.push(Interferer {
                        start: now,
                        end,
                        power_w,
                    }),
                    None if transmitting => {}
                    None if power_w < rx_thresh_w => self.counters.below_rx_thresh += 1,
                    None => {
                        self.counters.locked += 1;
                        self.lock = Some(newcomer);
                        self.interferers.clear();
                        for a in &self.arrivals {
                            if a.frame != id {
                                self.interferers.push(Interferer {
                                    start: a.start,
                                    end: a.end,
                                    power_w: a.power_w,
                                });
                            }
                        }
                    }
                }
            }
        }
        self.cca_update()
    }

    /// Frame `id` (received with `power_w`) ends here. Returns what to report to the MAC (if
    /// the radio was locked on to it) and a CCA change.
    pub fn rx_end(
        &mut self,
        now: SimTime,
        id: u32,
        power_w: f64,
    ) -> (Option<RxReport>, Option<bool>) {
        let mut report = None;
        // The lock is taken out only when it is this frame's (`take_if`), never copied to test
        // it: `Lock` is 72 bytes and every frame end of every neighbour comes here, locked on
        // or not (cachegrind, BENCHMARKS.md "Against 8f75f88").
        let is_locked = |l: &mut Lock| l.frame == id && l.end == now;
        let locked;
        match &self.params {
            ReceptionParams::Threshold(t) => {
                if power_w < t.cs_thresh_w {
                    return (None, None);
                }
                self.sensed = self.sensed.saturating_sub(1);
                locked = self.lock.take_if(is_locked);
                if let Some(l) = &locked {
                    let loss = match (l.corrupted, l.collided) {
                        (false, _) => None,
                        (true, true) => Some(RxLoss::Collision),
                        (true, false) => Some(RxLoss::WeakSignal),
                    };
                    report = Some(RxReport {
                        ok: !l.corrupted,
                        power_w: l.power_w,
                        mode: l.mode,
                        loss,
                    });
                }
            }
            ReceptionParams::Sinr { model, .. } => {
                if let Some(pos) = self.arrivals.iter().position(|a| a.frame == id) {
                    self.arrivals.swap_remove(pos);
                }
                locked = self.lock.take_if(is_locked);
                if let Some(l) = &locked {
                    let (segs, n) = segments(l.mode, l.preamble, l.start, l.end);
                    let p = model.frame_success_rate(&segs[..n], l.power_w, &self.interferers);
                    // One draw per locked frame, whatever its success probability.
                    let u = self.rng.uniform();
                    let ok = u < p;
                    let loss = match (ok, self.interferers.is_empty()) {
                        (true, _) => None,
                        (false, false) => Some(RxLoss::Collision),
                        (false, true) => Some(RxLoss::WeakSignal),
                    };
                    report = Some(RxReport {
                        ok,
                        power_w: l.power_w,
                        mode: l.mode,
                        loss,
                    });
                    self.interferers.clear();
                }
            }
        }
        if let (Some(fe), Some(r), Some(l)) = (&mut self.frame_error, &mut report, &locked) {
            let (model, unit, rng) = &mut **fe;
            let exposure = unit.exposure(l.bytes as usize, l.end.0.saturating_sub(l.start.0));
            // One draw per reported frame, good or not, so the stream's use does not depend on
            // interference.
            if model.frame_lost_scaled(l.distance_m, exposure, rng) && r.ok {
                r.ok = false;
                r.loss = Some(RxLoss::FrameError);
                self.counters.frame_errors += 1;
            }
        }
        if let Some(r) = &report {
            if r.ok {
                self.counters.rx_ok += 1;
            } else {
                self.counters.rx_errors += 1;
            }
        }
        (report, self.cca_update())
    }
}

/// The parts of a frame that carry bits, with their modes: the PLCP preamble and header at
/// 1 Mbit/s DSSS (long: 192 µs; short: 72 µs at 1 Mbit/s + 24 µs at 2 Mbit/s) then the PSDU
/// (Clauses 15, 16); for OFDM the SIGNAL field (4 µs at 6 Mbit/s BPSK 1/2, after the 16 µs
/// training preamble, which carries no data bits) then the DATA field, minus the 6 µs ERP
/// signal extension (Clauses 17, 18).
///
/// A DSSS rate with no 802.11 modulation (`DsssAnyRate` at a rate the standard does not have)
/// has no error model for its PSDU: only its PLCP segments are returned. `RadioParams::from_spec`
/// refuses that rate under SINR reception, so a scenario never gets here with one; the fallback
/// keeps a run from panicking if a caller builds the radio some other way (DESIGN.md §1).
fn segments(
    mode: PhyMode,
    preamble: Preamble,
    start: SimTime,
    end: SimTime,
) -> ([Segment; 3], usize) {
    let us = SimDuration::from_micros;
    let seg = |mode, a: SimTime, b: SimTime| Segment {
        mode,
        start: a,
        end: b.max(a),
    };
    let empty = seg(WifiMode::Dsss1, start, start);
    // The PLCP segments, then the span of the PSDU (or DATA field), which gets a segment in
    // the rate's modulation when it has one.
    let (mut segs, mut n, (from, to)) = match mode {
        PhyMode::Dsss1
        | PhyMode::Dsss2
        | PhyMode::Cck5_5
        | PhyMode::Cck11
        | PhyMode::DsssAnyRate { .. } => {
            if mode.plcp_overhead(preamble) == DSSS_SHORT_PLCP {
                let a = (start + us(72)).min(end);
                let b = (start + us(96)).min(end);
                let plcp = [seg(WifiMode::Dsss1, start, a), seg(WifiMode::Dsss2, a, b)];
                ([plcp[0], plcp[1], empty], 2, (b, end))
            } else {
                let a = (start + us(192)).min(end);
                ([seg(WifiMode::Dsss1, start, a), empty, empty], 1, (a, end))
            }
        }
        PhyMode::Ofdm(_) | PhyMode::ErpOfdm(_) => {
            let tail = if matches!(mode, PhyMode::ErpOfdm(_)) {
                us(6)
            } else {
                SimDuration::ZERO
            };
            let a = (start + us(16)).min(end);
            let b = (start + us(20)).min(end);
            let e = SimTime(end.0.saturating_sub(tail.0)).max(b);
            ([seg(WifiMode::Ofdm6, a, b), empty, empty], 1, (b, e))
        }
    };
    if let Some(data) = wifi_mode(mode) {
        segs[n] = seg(data, from, to);
        n += 1;
    }
    (segs, n)
}

#[cfg(test)]
mod test {
    use super::*;
    use sctpsim_world::reception::{SinrReception, ThresholdReception};

    fn frame() -> AirFrame {
        AirFrame::new(
            vec![0; 100],
            PhyMode::Dsss1,
            Preamble::Long,
            9,
            SimDuration::from_micros(992),
        )
    }

    fn t(us: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_micros(us)
    }

    fn threshold() -> Radio {
        Radio::new(
            ReceptionParams::Threshold(ThresholdReception::default()),
            Rng::from_seed(1),
        )
    }

    #[test]
    fn clean_frame_is_received_and_cca_follows_it() {
        let mut r = threshold();
        let f = frame();
        assert_eq!(r.rx_start(t(0), 1, &f, 1e-9, t(992)), Some(true));
        let (rep, cca) = r.rx_end(t(992), 1, 1e-9);
        assert!(rep.unwrap().ok);
        assert_eq!(cca, Some(false));
    }

    #[test]
    fn sensed_only_frames_end_in_error_and_weaker_ones_are_invisible() {
        let mut r = threshold();
        let f = frame();
        assert_eq!(r.rx_start(t(0), 1, &f, 1e-10, t(992)), Some(true));
        assert!(!r.rx_end(t(992), 1, 1e-10).0.unwrap().ok);
        assert_eq!(r.rx_start(t(1000), 2, &f, 1e-12, t(1992)), None);
        assert_eq!(r.rx_end(t(1992), 2, 1e-12), (None, None));
    }

    #[test]
    fn collision_and_capture() {
        let f = frame();
        // Equal powers: both lost, the reception ends with the later frame.
        let mut r = threshold();
        r.rx_start(t(0), 1, &f, 1e-9, t(992));
        r.rx_start(t(100), 2, &f, 1e-9, t(1092));
        assert_eq!(r.rx_end(t(992), 1, 1e-9), (None, None));
        let (rep, cca) = r.rx_end(t(1092), 2, 1e-9);
        assert!(!rep.unwrap().ok);
        assert_eq!(cca, Some(false));
        // 10 dB stronger current frame: captured.
        let mut r = threshold();
        r.rx_start(t(0), 1, &f, 1e-8, t(992));
        r.rx_start(t(100), 2, &f, 1e-9, t(1092));
        let (rep, cca) = r.rx_end(t(992), 1, 1e-8);
        assert!(rep.unwrap().ok);
        assert_eq!(cca, None); // frame 2 still keeps the medium busy
        assert_eq!(r.rx_end(t(1092), 2, 1e-9), (None, Some(false)));
    }

    #[test]
    fn half_duplex() {
        let f = frame();
        let mut r = threshold();
        // A reception in progress is abandoned when the radio transmits.
        r.rx_start(t(0), 1, &f, 1e-9, t(992));
        r.tx_start(t(10), t(500));
        assert_eq!(r.rx_end(t(992), 1, 1e-9), (None, Some(false)));
        // A frame arriving during the transmission is missed, even after it.
        r.tx_start(t(2000), t(2500));
        r.rx_start(t(2100), 2, &f, 1e-9, t(3092));
        assert_eq!(r.rx_end(t(3092), 2, 1e-9).0, None);
        assert_eq!(r.counters().half_duplex, 2);
        // After the transmission, frames are received again.
        r.rx_start(t(4000), 3, &f, 1e-9, t(4992));
        assert!(r.rx_end(t(4992), 3, 1e-9).0.unwrap().ok);
    }

    #[test]
    fn sinr_interference_decides() {
        let params = ReceptionParams::Sinr {
            model: SinrReception::default(),
            rx_thresh_w: 1e-13,
            cca_w: 1e-9,
        };
        let f = AirFrame::new(
            vec![0; 1536],
            PhyMode::Cck11,
            Preamble::Long,
            0,
            SimDuration::from_micros(1310),
        );
        let mut r = Radio::new(params.clone(), Rng::from_seed(3));
        // Clean, strong: received; CCA busy while locked even below the ED level.
        assert_eq!(r.rx_start(t(0), 1, &f, 1e-10, t(1310)), Some(true));
        assert!(r.rx_end(t(1310), 1, 1e-10).0.unwrap().ok);
        // An equally strong interferer during the payload destroys 11 Mbit/s CCK.
        let mut r = Radio::new(params, Rng::from_seed(3));
        r.rx_start(t(0), 1, &f, 1e-10, t(1310));
        r.rx_start(t(300), 2, &f, 1e-10, t(1610));
        let (rep, cca) = r.rx_end(t(1310), 1, 1e-10);
        assert!(!rep.unwrap().ok);
        // The interferer alone is below the energy-detection level: the medium is idle.
        assert_eq!(cca, Some(false));
        // It was never locked on to: nothing to report at its end.
        assert_eq!(r.rx_end(t(1610), 2, 1e-10), (None, None));
    }

    #[test]
    fn a_rate_without_a_modulation_gets_its_plcp_only() {
        // Not reachable from a scenario (`from_spec` refuses it); no panic either way.
        let odd = PhyMode::DsssAnyRate { bps: 3_000_000 };
        let (s, n) = segments(odd, Preamble::Long, t(0), t(1000));
        assert_eq!((n, s[0].end), (1, t(192)));
        // Its PLCP is the long one whatever the preamble asked (`PhyMode::plcp_overhead`).
        let (s, n) = segments(odd, Preamble::Short, t(0), t(1000));
        assert_eq!((n, s[0].end), (1, t(192)));
    }

    #[test]
    fn segments_cover_the_frame() {
        let (s, n) = segments(PhyMode::Dsss2, Preamble::Short, t(0), t(1000));
        assert_eq!(n, 3);
        assert_eq!((s[0].end, s[1].end, s[2].end), (t(72), t(96), t(1000)));
        let (s, n) = segments(
            PhyMode::ErpOfdm(sctpsim_proto::mac::OfdmRate::R54),
            Preamble::Long,
            t(0),
            t(254),
        );
        assert_eq!(n, 2);
        assert_eq!((s[0].start, s[0].end, s[1].end), (t(16), t(20), t(248)));
    }
}
