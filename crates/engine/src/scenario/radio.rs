//! Radio presets: a scenario's `[radio]` section resolved into the MAC configuration
//! ([`MacConfig`]), the transmit power, the propagation model and the reception model.
//!
//! | | `ns2-wavelan` | `80211b` | `80211a` | `80211g` |
//! |---|---|---|---|---|
//! | MAC | [`RadioProfile::Ns2Wavelan`] (DSSS 2 Mbit/s, basic 1, RTS threshold 0) | HR/DSSS 11, basic {1, 2} | OFDM 54, basic {6, 12, 24} | ERP-OFDM 54, basic {6, 12, 24} |
//! | transmit power | 0.28183815 W (24.5 dBm) | 16.0206 dBm | 16.0206 dBm | 16.0206 dBm |
//! | carrier | 914 MHz | 2412 MHz | 5180 MHz | 2412 MHz |
//! | propagation | two-ray ground, antennas 1.5 m | log-distance, n = 3, 46.6777 dB at 1 m | same | same |
//! | reception | threshold | SINR | SINR | SINR |
//! | RXThresh / sensitivity | 3.652·10⁻¹⁰ W (250 m) | −101 dBm | −101 dBm | −101 dBm |
//! | CSThresh / CCA-ED | 1.559·10⁻¹¹ W (550 m) | −62 dBm | −62 dBm | −62 dBm |
//! | CPThresh | 10 dB | 10 dB | 10 dB | 10 dB |
//! | noise figure | 7 dB | 7 dB | 7 dB | 7 dB |
//!
//! Sources. `ns2-wavelan`: ns-2.35 `tcl/lib/ns-default.tcl` (`Phy/WirelessPhy Pt_ 0.28183815`,
//! `freq_ 914e+6`, `RXThresh_ 3.652e-10`, `CSThresh_ 1.559e-11`, `CPThresh_ 10.0`, `L_ 1.0`;
//! `Antenna/OmniAntenna Z_ 1.5`) with `Propagation/TwoRayGround`, the CMU wireless set-up the
//! studies used. The standard presets take ns-3's defaults, the simulator DESIGN.md §7 compares
//! against: `WifiPhy::TxPowerStart`/`TxPowerEnd` 16.0206 dBm, `WifiPhy::RxSensitivity` −101 dBm
//! (the weakest preamble the PHY locks on to), `WifiPhy::CcaEdThreshold` −62 dBm,
//! `WifiPhy::RxNoiseFigure` 7 dB, and `YansWifiChannelHelper::Default()`'s
//! `LogDistancePropagationLossModel` (exponent 3, reference 1 m, 46.6777 dB — ns-3 uses the
//! same reference loss in every band); the carriers are channel 1 (2412 MHz) and channel 36
//! (5180 MHz), used only if a Friis-based model is chosen. The MAC side of each preset is
//! `sctpsim_proto::mac::RadioProfile` (`docs/models/mac80211.md`).
//!
//! In threshold mode a frame at or above RXThresh is always sensed, so the effective CSThresh
//! is `min(cs_thresh, rx_thresh)` (this matters for the standard presets, whose −62 dBm
//! energy-detection level is above their −101 dBm sensitivity).

use crate::scenario::{
    FrameErrorKind, FrameErrorSpec, FrameErrorUnitKind, MacTimingKind, PropagationKind,
    PropagationSpec, RadioProfileKind, RadioSpec, ReceptionKind, RetryAccountingKind,
    ScenarioError,
};
use sctpsim_proto::mac::phy_timing::{ANY_RATE_MAX_BPS, ANY_RATE_MIN_BPS};
use sctpsim_proto::mac::rate::adaptive_rates;
use sctpsim_proto::mac::{
    MacConfig, MacTiming, OfdmRate, PhyMode, PhyStandard, Preamble, RadioProfile,
    RateControlConfig, RetryAccounting,
};
use sctpsim_world::power::{db_to_ratio, dbm_to_w, w_to_dbm};
use sctpsim_world::propagation::{
    FreeSpace, LogDistance, RadioGeometry, Shadowing, TwoRayGround, NS2_ANTENNA_HEIGHT_M,
};
use sctpsim_world::reception::threshold::{NS2_CP_THRESH, NS2_CS_THRESH_W, NS2_RX_THRESH_W};
use sctpsim_world::reception::{min_snr_for_success, SinrReception, ThresholdReception, WifiMode};
use sctpsim_world::{
    range_for_threshold_m, FrameErrorUnit, FrameErrorVsDistance, PropagationModel,
};

/// ns-3 `WifiPhy::TxPowerStart` default: 16.0206 dBm (40 mW).
pub const NS3_TX_POWER_DBM: f64 = 16.0206;
/// ns-3 `WifiPhy::RxSensitivity` default: −101 dBm.
pub const NS3_RX_SENSITIVITY_DBM: f64 = -101.0;
/// ns-3 `WifiPhy::CcaEdThreshold` default: −62 dBm.
pub const NS3_CCA_ED_THRESHOLD_DBM: f64 = -62.0;
/// ns-3 `WifiPhy::RxNoiseFigure` default: 7 dB.
pub const NS3_NOISE_FIGURE_DB: f64 = 7.0;
/// 2.4 GHz channel 1 centre frequency (802.11 DSSS/HR-DSSS/ERP channel plan): 2412 MHz.
pub const CHANNEL_1_MHZ: f64 = 2412.0;
/// 5 GHz channel 36 centre frequency (5000 MHz + 5·36 MHz, the OFDM channel plan): 5180 MHz.
pub const CHANNEL_36_MHZ: f64 = 5180.0;
/// With the SINR model, interferers this far (dB) below the thermal noise of a 20 MHz channel
/// are not delivered: each adds at most 0.41 dB to the noise.
pub const SINR_CUTOFF_BELOW_NOISE_DB: f64 = 10.0;
/// Shadowing: the grid keeps receivers up to this many standard deviations beyond the median
/// cut-off range (with 3σ, 0.13 % of frames that would reach the cut-off power are not
/// delivered; `docs/models/phy.md`).
pub const SHADOWING_MARGIN_SIGMAS: f64 = 3.0;
/// Frame length used to decide which neighbours a static route may use with the SINR model:
/// a 1500-byte IP packet in a data frame (36 octets of MAC overhead).
const ROUTE_FRAME_BITS: u64 = 1536 * 8;
/// ... and the success probability it must reach.
const ROUTE_FRAME_SUCCESS: f64 = 0.9;
/// `radio.frame_error.max_p` when not given: no cap below certainty.
pub const DEFAULT_FRAME_ERROR_MAX_P: f64 = 1.0;
/// Largest dot11ShortRetryLimit / dot11LongRetryLimit: the MIB declares both
/// `INTEGER (1..255)` (IEEE 802.11-2020 Annex C).
pub const MAX_RETRY_LIMIT: u32 = 255;
/// Largest dot11RTSThreshold: `INTEGER (0..65535)` (IEEE 802.11-2020 Annex C).
pub const MAX_RTS_THRESHOLD: u32 = 65_535;

/// How a radio decides what it receives.
#[derive(Clone, Debug, PartialEq)]
pub enum ReceptionParams {
    /// ns-2's thresholds and capture.
    Threshold(ThresholdReception),
    /// Cumulative-interference SINR with the DSSS/CCK/OFDM error models.
    Sinr {
        /// Noise figure.
        model: SinrReception,
        /// The weakest frame the radio locks on to, W.
        rx_thresh_w: f64,
        /// Energy-detection level of clear channel assessment, W.
        cca_w: f64,
    },
}

/// Everything a radio needs, resolved from the profile and the scenario's overrides.
#[derive(Clone, Debug)]
pub struct RadioParams {
    /// The preset it started from.
    pub profile: RadioProfileKind,
    /// MAC configuration.
    pub mac: MacConfig,
    /// Transmit power, W.
    pub tx_power_w: f64,
    /// Propagation model.
    pub propagation: PropagationModel,
    /// Reception model.
    pub reception: ReceptionParams,
    /// Frames weaker than this are not delivered (grid cut-off), W.
    pub cutoff_w: f64,
    /// Distance-dependent frame errors (`FrameErrorVsDistance::None` if not configured).
    pub frame_error: FrameErrorVsDistance,
    /// What one of its probabilities applies to.
    pub frame_error_unit: FrameErrorUnit,
}

fn err(field: &str, msg: impl Into<String>) -> ScenarioError {
    ScenarioError::at(format!("radio.{field}"), msg)
}

fn finite(field: &str, v: f64) -> Result<f64, ScenarioError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(err(field, "must be a finite number"))
    }
}

fn positive(field: &str, v: f64) -> Result<f64, ScenarioError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(err(field, format!("must be positive, got {v}")))
    }
}

/// The PHY mode of `standard` with the rate `bps`, if the PHY has it. ERP stations use
/// DSSS/CCK for 1–11 Mbit/s and ERP-OFDM for 6–54 Mbit/s. The DSSS PHY of `ns2-wavelan` (ns-2's
/// MAC took any `bandwidth_`) has every rate in [`ANY_RATE_MIN_BPS`, `ANY_RATE_MAX_BPS`]: 1 and
/// 2 Mbit/s are its standard modes, any other rate a [`PhyMode::DsssAnyRate`].
pub fn mode_for_rate(standard: PhyStandard, bps: u64) -> Option<PhyMode> {
    let dsss = match bps {
        1_000_000 => Some(PhyMode::Dsss1),
        2_000_000 => Some(PhyMode::Dsss2),
        5_500_000 => Some(PhyMode::Cck5_5),
        11_000_000 => Some(PhyMode::Cck11),
        _ => None,
    };
    let ofdm = OfdmRate::ALL
        .into_iter()
        .find(|r| PhyMode::Ofdm(*r).rate_bps() == bps);
    let m = match standard {
        PhyStandard::Dsss => dsss
            .filter(|m| matches!(m, PhyMode::Dsss1 | PhyMode::Dsss2))
            .or_else(|| {
                (ANY_RATE_MIN_BPS..=ANY_RATE_MAX_BPS)
                    .contains(&bps)
                    .then_some(PhyMode::DsssAnyRate { bps })
            }),
        PhyStandard::HrDsss => dsss,
        PhyStandard::Ofdm => ofdm.map(PhyMode::Ofdm),
        PhyStandard::Erp { .. } => ofdm.map(PhyMode::ErpOfdm).or(dsss),
    };
    m.filter(|m| standard.supports(*m))
}

/// The error-model mode of a MAC PHY mode. A [`PhyMode::DsssAnyRate`] has one only at the rate
/// of a DSSS/HR-DSSS mode (1, 2, 5.5, 11 Mbit/s: that mode's modulation); at any other rate no
/// 802.11 modulation exists and this is `None` (`RadioParams::from_spec` rejects such rates
/// with SINR reception).
pub fn wifi_mode(m: PhyMode) -> Option<WifiMode> {
    Some(match m {
        PhyMode::Dsss1 => WifiMode::Dsss1,
        PhyMode::Dsss2 => WifiMode::Dsss2,
        PhyMode::Cck5_5 => WifiMode::Cck5_5,
        PhyMode::Cck11 => WifiMode::Cck11,
        PhyMode::Ofdm(r) | PhyMode::ErpOfdm(r) => match r {
            OfdmRate::R6 => WifiMode::Ofdm6,
            OfdmRate::R9 => WifiMode::Ofdm9,
            OfdmRate::R12 => WifiMode::Ofdm12,
            OfdmRate::R18 => WifiMode::Ofdm18,
            OfdmRate::R24 => WifiMode::Ofdm24,
            OfdmRate::R36 => WifiMode::Ofdm36,
            OfdmRate::R48 => WifiMode::Ofdm48,
            OfdmRate::R54 => WifiMode::Ofdm54,
        },
        PhyMode::DsssAnyRate { bps } => {
            return WifiMode::from_rate_bps(bps).filter(|w| !w.is_ofdm())
        }
    })
}

/// A rate for messages: `3 Mbit/s`, `150 kbit/s`, `999 bit/s`.
fn rate_text(bps: u64) -> String {
    match bps {
        1_000_000.. => format!("{} Mbit/s", bps as f64 / 1e6),
        1_000.. => format!("{} kbit/s", bps as f64 / 1e3),
        _ => format!("{bps} bit/s"),
    }
}

fn rate_list(standard: PhyStandard) -> &'static str {
    match standard {
        PhyStandard::Dsss => "any rate from 1 kbit/s to 1 Gbit/s",
        PhyStandard::HrDsss => "1, 2, 5.5, 11 Mbit/s",
        PhyStandard::Ofdm => "6, 9, 12, 18, 24, 36, 48, 54 Mbit/s",
        PhyStandard::Erp { .. } => "1, 2, 5.5, 11 and 6, 9, 12, 18, 24, 36, 48, 54 Mbit/s",
    }
}

/// `radio.timing = "ns2-2.1b8"`: ns-2.1b8's airtimes, EIFS and response timeouts
/// ([`MacTiming::Ns2_21b8`], with its citations). ns-2.1b8 sent every frame at the one
/// `bandwidth_`, so the basic and broadcast rates follow `data_rate` (given otherwise, they are
/// an error), and had neither rate adaptation nor SINR reception; its `NAVTimeout`
/// (`mac/mac-802_11.h`:161 of ns-2.1b8) is defined but never used, so a NAV set by an RTS is
/// not reset. Only the DSSS PHY of `ns2-wavelan`.
fn ns2_21b8_timing(spec: &RadioSpec, mac: &mut MacConfig) -> Result<(), ScenarioError> {
    const WHY: &str = "with timing = \"ns2-2.1b8\" every frame goes at radio.data_rate, as ns-2.1b8 sent every frame at its one bandwidth_";
    if mac.standard != PhyStandard::Dsss {
        return Err(err(
            "timing",
            format!(
                "\"ns2-2.1b8\" is ns-2.1b8's DSSS MAC: only with profile = \"ns2-wavelan\", not \"{}\"",
                profile_name(spec.profile)
            ),
        ));
    }
    let data = mac.data_mode;
    if spec.basic_rate.is_some() && mac.basic_modes.as_slice() != [data] {
        return Err(err(
            "basic_rate",
            format!(
                "must equal radio.data_rate ({}): {WHY}",
                rate_text(data.rate_bps())
            ),
        ));
    }
    if spec.broadcast_rate.is_some() && mac.broadcast_mode != Some(data) {
        return Err(err(
            "broadcast_rate",
            format!(
                "must equal radio.data_rate ({}): {WHY}",
                rate_text(data.rate_bps())
            ),
        ));
    }
    if mac.rate_control != RateControlConfig::Constant {
        return Err(err(
            "rate_control",
            "must be \"constant\" with timing = \"ns2-2.1b8\" (ns-2.1b8 had no rate adaptation)",
        ));
    }
    if spec.reception == Some(ReceptionKind::Sinr) {
        return Err(err(
            "reception",
            "must be \"threshold\" with timing = \"ns2-2.1b8\" (ns-2.1b8's threshold reception; the SINR model assumes the PLCP at 1 Mbit/s)",
        ));
    }
    mac.basic_modes = vec![data];
    mac.broadcast_mode = Some(data);
    mac.nav_reset_after_rts = false;
    mac.timing = MacTiming::Ns2_21b8;
    Ok(())
}

/// The scenario name of a radio profile (`ns2-wavelan`, `80211b`, ...).
pub fn profile_name(p: RadioProfileKind) -> &'static str {
    match p {
        RadioProfileKind::Ns2Wavelan => "ns2-wavelan",
        RadioProfileKind::Ieee80211b => "80211b",
        RadioProfileKind::Ieee80211a => "80211a",
        RadioProfileKind::Ieee80211g => "80211g",
    }
}

impl RadioParams {
    /// Resolves `[radio]`: the profile's values, then every field given. Errors name the field
    /// (`radio.data_rate: ...`).
    pub fn from_spec(spec: &RadioSpec) -> Result<RadioParams, ScenarioError> {
        let p = spec.profile;
        let ns2 = p == RadioProfileKind::Ns2Wavelan;
        let mut mac = match p {
            RadioProfileKind::Ns2Wavelan => RadioProfile::Ns2Wavelan,
            RadioProfileKind::Ieee80211b => RadioProfile::Ieee80211b,
            RadioProfileKind::Ieee80211a => RadioProfile::Ieee80211a,
            RadioProfileKind::Ieee80211g => RadioProfile::Ieee80211g,
        }
        .mac_config();
        let std = mac.standard;
        let rate = |field: &str, bps: u64| {
            if bps == 0 {
                return Err(err(field, "must be positive, got 0 bit/s"));
            }
            mode_for_rate(std, bps).ok_or_else(|| {
                err(
                    field,
                    format!(
                        "{} is not a rate of the {} PHY ({})",
                        rate_text(bps),
                        profile_name(p),
                        rate_list(std)
                    ),
                )
            })
        };
        if let Some(r) = spec.data_rate {
            mac.data_mode = rate("data_rate", r.0.bps())?;
        }
        if let Some(r) = spec.basic_rate {
            mac.basic_modes = vec![rate("basic_rate", r.0.bps())?];
        }
        if let Some(r) = spec.broadcast_rate {
            mac.broadcast_mode = Some(rate("broadcast_rate", r.0.bps())?);
        }
        if let Some(v) = spec.rts_threshold_bytes {
            if v > MAX_RTS_THRESHOLD {
                return Err(err(
                    "rts_threshold_bytes",
                    format!("dot11RTSThreshold is at most {MAX_RTS_THRESHOLD}, got {v}"),
                ));
            }
            mac.rts_threshold = v;
        }
        let retry = |field: &str, v: u32| {
            if (1..=MAX_RETRY_LIMIT).contains(&v) {
                Ok(v)
            } else {
                Err(err(
                    field,
                    format!("must be between 1 and {MAX_RETRY_LIMIT} (the MIB's range), got {v}"),
                ))
            }
        };
        if let Some(v) = spec.short_retry_limit {
            mac.short_retry_limit = retry("short_retry_limit", v)?;
        }
        if let Some(v) = spec.long_retry_limit {
            mac.long_retry_limit = retry("long_retry_limit", v)?;
        }
        if let Some(a) = spec.retry_accounting {
            mac.retry_accounting = match a {
                RetryAccountingKind::Standard => RetryAccounting::Standard,
                RetryAccountingKind::PerFrame => RetryAccounting::PerFrame,
                RetryAccountingKind::Ns2_226 => RetryAccounting::Ns2_226,
            };
        }
        if let Some(v) = spec.queue_limit_packets {
            if v == 0 {
                return Err(err("queue_limit_packets", "must be at least 1"));
            }
            mac.queue_limit = v as usize;
        }
        let pow2m1 = |x: u32| x > 0 && x < u32::MAX && (x + 1).is_power_of_two();
        if let Some(v) = spec.cw_min {
            if !pow2m1(v) {
                return Err(err(
                    "cw_min",
                    format!("must be 2^k - 1 (15, 31, ...), got {v}"),
                ));
            }
            mac.cw_min = v;
        }
        if let Some(v) = spec.cw_max {
            if !pow2m1(v) {
                return Err(err(
                    "cw_max",
                    format!("must be 2^k - 1 (1023, ...), got {v}"),
                ));
            }
            mac.cw_max = v;
        }
        if mac.cw_min > mac.cw_max {
            return Err(err(
                "cw_max",
                format!("{} is below cw_min {}", mac.cw_max, mac.cw_min),
            ));
        }
        if let Some(pre) = spec.preamble {
            let pre = match pre {
                crate::scenario::PreambleKind::Long => Preamble::Long,
                crate::scenario::PreambleKind::Short => Preamble::Short,
            };
            if std == PhyStandard::Ofdm {
                return Err(err(
                    "preamble",
                    "only DSSS/HR-DSSS frames have a long or short PLCP preamble; the OFDM PHY of 80211a has one fixed preamble",
                ));
            }
            if pre == Preamble::Short && std == PhyStandard::Dsss {
                return Err(err(
                    "preamble",
                    "the short preamble is an HR/DSSS option; the DSSS PHY of ns2-wavelan has only the long one",
                ));
            }
            // The timing constants (aRxPHYStartDelay) depend on the preamble.
            let t = std.timing(pre);
            mac.preamble = pre;
            mac.rx_phy_start_delay = t.rx_phy_start_delay;
        }
        if spec.rate_control.is_none() && spec.data_rate.is_none() && !ns2 {
            // Real 802.11a/b/g devices adapt their rate (Linux mac80211 runs Minstrel; ns-3
            // users pick MinstrelWifiManager or similar). A constant 11 or 54 Mbit/s with route
            // discovery broadcast at the basic rate finds routes the data cannot use and
            // delivers nothing (issue 35 item 2). A `data_rate` given alone still means "send
            // at this rate", as ns-3's ConstantRateWifiManager does; ns2-wavelan is ns-2's
            // one-rate PHY and stays constant.
            mac.rate_control = RateControlConfig::Minstrel(Default::default());
        }
        if let Some(name) = &spec.rate_control {
            mac.rate_control = RateControlConfig::from_name(name).ok_or_else(|| {
                err(
                    "rate_control",
                    format!(
                        "unknown algorithm \"{name}\"; expected constant, arf, aarf or minstrel"
                    ),
                )
            })?;
        }
        if spec.timing == Some(MacTimingKind::Ns2_21b8) {
            ns2_21b8_timing(spec, &mut mac)?;
        }
        mac.validate().map_err(|e| err("profile", e))?;

        let tx_power_w = match spec.tx_power {
            Some(w) => positive("tx_power", w.0)?,
            None if ns2 => sctpsim_world::propagation::NS2_TX_POWER_W,
            None => dbm_to_w(NS3_TX_POWER_DBM),
        };
        let mut geometry = RadioGeometry::ns2_wavelan();
        geometry.frequency_hz = match spec.frequency_mhz {
            Some(f) => positive("frequency_mhz", f)? * 1e6,
            None => match p {
                RadioProfileKind::Ns2Wavelan => geometry.frequency_hz,
                RadioProfileKind::Ieee80211a => CHANNEL_36_MHZ * 1e6,
                _ => CHANNEL_1_MHZ * 1e6,
            },
        };
        // Two-ray ground's received power grows with (ht·hr)²: a zero height receives nothing.
        geometry.antenna_height_m = match spec.antenna_height_m {
            Some(h) => positive("antenna_height_m", h)?,
            None => NS2_ANTENNA_HEIGHT_M,
        };
        if let Some(l) = spec.system_loss_db {
            let l = finite("system_loss_db", l)?;
            if l < 0.0 {
                return Err(err("system_loss_db", "must be >= 0 dB (L >= 1)"));
            }
            geometry.system_loss = db_to_ratio(l);
        }
        let default_model = if ns2 {
            PropagationKind::TwoRayGround
        } else {
            PropagationKind::LogDistance
        };
        let propagation = build_propagation(spec.propagation.as_ref(), default_model, &geometry)?;

        let reception_kind = spec.reception.unwrap_or(if ns2 {
            ReceptionKind::Threshold
        } else {
            ReceptionKind::Sinr
        });
        let rx_thresh_w = match spec.rx_thresh {
            Some(w) => positive("rx_thresh", w.0)?,
            None if ns2 => NS2_RX_THRESH_W,
            None => dbm_to_w(NS3_RX_SENSITIVITY_DBM),
        };
        let cs_thresh_w = match spec.cs_thresh {
            Some(w) => positive("cs_thresh", w.0)?,
            None if ns2 => NS2_CS_THRESH_W,
            None => dbm_to_w(NS3_CCA_ED_THRESHOLD_DBM),
        };
        // ns-2 senses every frame it can decode (CSThresh <= RXThresh); a CSThresh set above
        // RXThresh means the two were swapped. The standard presets' defaults
        // (-62 dBm CCA-ED above -101 dBm sensitivity) are the SINR model's, where the two are
        // different quantities; with threshold reception they fall back to min() (module doc).
        if reception_kind == ReceptionKind::Threshold
            && spec.cs_thresh.is_some()
            && cs_thresh_w > rx_thresh_w
        {
            return Err(err(
                "cs_thresh",
                format!(
                    "{:.1} dBm is above radio.rx_thresh ({:.1} dBm): a frame strong enough to decode must also be sensed",
                    w_to_dbm(cs_thresh_w),
                    w_to_dbm(rx_thresh_w)
                ),
            ));
        }
        let only = |field: &str, set: bool, model: &str| {
            if set {
                Err(err(
                    field,
                    format!("only used by reception = \"{model}\"; remove it"),
                ))
            } else {
                Ok(())
            }
        };
        let reception = match reception_kind {
            ReceptionKind::Threshold => {
                only("noise_figure_db", spec.noise_figure_db.is_some(), "sinr")?;
                only("noise_floor", spec.noise_floor.is_some(), "sinr")?;
                only(
                    "snir_threshold_db",
                    spec.snir_threshold_db.is_some(),
                    "sinr",
                )?;
                let cp_thresh = match spec.cp_thresh_db {
                    Some(db) => {
                        let db = finite("cp_thresh_db", db)?;
                        if db < 0.0 {
                            return Err(err("cp_thresh_db", "must be >= 0 dB"));
                        }
                        db_to_ratio(db)
                    }
                    None => NS2_CP_THRESH,
                };
                ReceptionParams::Threshold(ThresholdReception {
                    rx_thresh_w,
                    cs_thresh_w: cs_thresh_w.min(rx_thresh_w),
                    cp_thresh,
                    new_frame_capture: spec.new_frame_capture.unwrap_or(false),
                })
            }
            ReceptionKind::Sinr => {
                only("cp_thresh_db", spec.cp_thresh_db.is_some(), "threshold")?;
                only(
                    "new_frame_capture",
                    spec.new_frame_capture.is_some(),
                    "threshold",
                )?;
                // A receiver adds noise: its noise figure is at least 0 dB.
                let nf = match spec.noise_figure_db {
                    Some(v) if finite("noise_figure_db", v)? < 0.0 => {
                        return Err(err("noise_figure_db", format!("must be >= 0 dB, got {v}")))
                    }
                    Some(v) => v,
                    None => NS3_NOISE_FIGURE_DB,
                };
                if spec.noise_floor.is_some() && spec.noise_figure_db.is_some() {
                    return Err(err(
                        "noise_floor",
                        "replaces the noise of noise_figure_db; give one of them",
                    ));
                }
                let noise_floor_w = match spec.noise_floor {
                    Some(p) => Some(positive("noise_floor", p.0)?),
                    None => None,
                };
                let snir_threshold = match spec.snir_threshold_db {
                    Some(db) => Some(db_to_ratio(finite("snir_threshold_db", db)?)),
                    None => None,
                };
                ReceptionParams::Sinr {
                    model: SinrReception {
                        noise_figure_db: nf,
                        noise_floor_w,
                        snir_threshold,
                    },
                    rx_thresh_w,
                    cca_w: cs_thresh_w,
                }
            }
        };
        if let ReceptionParams::Sinr { .. } = reception {
            // The error models know the 802.11 modulations only (module doc of `wifi_mode`).
            let modes = [("data_rate", Some(mac.data_mode))]
                .into_iter()
                .chain(mac.basic_modes.iter().map(|m| ("basic_rate", Some(*m))))
                .chain([("broadcast_rate", mac.broadcast_mode)]);
            for (field, m) in modes {
                if let Some(m) = m.filter(|m| wifi_mode(*m).is_none()) {
                    return Err(err(
                        field,
                        format!(
                            "{} is not an 802.11 DSSS/HR-DSSS rate (1, 2, 5.5, 11 Mbit/s), so reception = \"sinr\" has no error model for it; use reception = \"threshold\"",
                            rate_text(m.rate_bps())
                        ),
                    ));
                }
            }
        }
        let cutoff_w = match spec.interference_cutoff {
            Some(w) => {
                let w = positive("interference_cutoff", w.0)?;
                // Frames below the cut-off never reach a radio: one the radio could sense
                // (threshold) or lock on to (SINR) would silently vanish.
                let limit = match &reception {
                    ReceptionParams::Threshold(t) => t.cs_thresh_w,
                    ReceptionParams::Sinr { rx_thresh_w, .. } => *rx_thresh_w,
                };
                if w > limit {
                    return Err(err(
                        "interference_cutoff",
                        format!(
                            "{:.1} dBm is above the weakest frame the radio {} ({:.1} dBm)",
                            w_to_dbm(w),
                            if ns2_like(&reception) {
                                "senses"
                            } else {
                                "locks on to"
                            },
                            w_to_dbm(limit)
                        ),
                    ));
                }
                w
            }
            None => match &reception {
                ReceptionParams::Threshold(t) => t.cs_thresh_w,
                ReceptionParams::Sinr {
                    model,
                    rx_thresh_w,
                    cca_w,
                } => {
                    let floor = model.noise_over_w(20e6) / db_to_ratio(SINR_CUTOFF_BELOW_NOISE_DB);
                    floor.min(*rx_thresh_w).min(*cca_w)
                }
            },
        };
        let (frame_error, frame_error_unit) = match &spec.frame_error {
            Some(fe) => (build_frame_error(fe)?, build_frame_error_unit(fe)?),
            None => (FrameErrorVsDistance::None, FrameErrorUnit::Frame),
        };
        Ok(RadioParams {
            profile: p,
            mac,
            tx_power_w,
            propagation,
            reception,
            cutoff_w,
            frame_error,
            frame_error_unit,
        })
    }

    /// Largest distance at which a frame may still reach the cut-off power, m: the spatial
    /// grid's cell size (for shadowing, with a margin of [`SHADOWING_MARGIN_SIGMAS`]).
    pub fn cutoff_range_m(&self) -> f64 {
        match &self.propagation {
            PropagationModel::Shadowing(s) => {
                s.range_with_margin_m(self.tx_power_w, self.cutoff_w, SHADOWING_MARGIN_SIGMAS)
            }
            m => range_for_threshold_m(m, self.tx_power_w, self.cutoff_w),
        }
    }

    /// Distance up to which two radios are neighbours for static routing, m: the mean received
    /// power reaches RXThresh (threshold model), or (SINR model) the sensitivity and the SNR a
    /// 1500-byte packet at the data rate (with rate adaptation: the PHY's lowest rate) needs
    /// to get through 9 times in 10 without interference.
    pub fn neighbour_range_m(&self) -> f64 {
        range_for_threshold_m(&self.propagation, self.tx_power_w, self.neighbour_power_w())
    }

    /// Distance up to which a transmission keeps the medium busy at a listener, m: the mean
    /// received power reaches the carrier-sense threshold (threshold model: `CSThresh`, ns-2's
    /// 550 m with the WaveLAN profile); SINR model: the radio locks on to the frame (its
    /// RXThresh) or the energy alone reaches the clear channel assessment's level, whichever
    /// is weaker, as `Radio`'s CCA decides. Drawn by `sctpsim view` next to
    /// [`RadioParams::neighbour_range_m`].
    pub fn carrier_sense_range_m(&self) -> f64 {
        let cs_w = match &self.reception {
            ReceptionParams::Threshold(t) => t.cs_thresh_w,
            ReceptionParams::Sinr {
                rx_thresh_w, cca_w, ..
            } => rx_thresh_w.min(*cca_w),
        };
        range_for_threshold_m(&self.propagation, self.tx_power_w, cs_w)
    }

    /// The mean received power at which two radios are neighbours for static routing, W (see
    /// [`RadioParams::neighbour_range_m`]).
    pub fn neighbour_power_w(&self) -> f64 {
        match &self.reception {
            ReceptionParams::Threshold(t) => t.rx_thresh_w,
            ReceptionParams::Sinr {
                model, rx_thresh_w, ..
            } => {
                let data = if self.mac.rate_control.is_adaptive() {
                    adaptive_rates(self.mac.standard)
                        .first()
                        .copied()
                        .unwrap_or(self.mac.data_mode)
                } else {
                    self.mac.data_mode
                };
                let mode = wifi_mode(data)
                    .expect("from_spec rejects rates without an error model under SINR reception");
                let snr = min_snr_for_success(mode, ROUTE_FRAME_BITS, ROUTE_FRAME_SUCCESS);
                rx_thresh_w.max(snr * model.noise_w(mode))
            }
        }
    }
}

fn build_frame_error_unit(spec: &FrameErrorSpec) -> Result<FrameErrorUnit, ScenarioError> {
    let field = |f: &str| format!("radio.frame_error.{f}");
    let needs = |f: &str, unit: &str| {
        ScenarioError::at(
            field(f),
            format!("required with unit = \"{unit}\" (what the probabilities are for)"),
        )
    };
    let unused = |f: &str| {
        ScenarioError::at(
            field(f),
            "not used by this unit; remove it (or set unit = \"byte\" / \"airtime\")",
        )
    };
    let unit = match spec.unit {
        FrameErrorUnitKind::Frame => FrameErrorUnit::Frame,
        FrameErrorUnitKind::Byte => FrameErrorUnit::Bytes {
            reference_bytes: f64::from(
                spec.reference_bytes
                    .ok_or_else(|| needs("reference_bytes", "byte"))?,
            ),
        },
        FrameErrorUnitKind::Airtime => FrameErrorUnit::Airtime {
            reference_ns: spec
                .reference_airtime
                .ok_or_else(|| needs("reference_airtime", "airtime"))?
                .0
                 .0 as f64,
        },
    };
    if spec.reference_bytes.is_some() && spec.unit != FrameErrorUnitKind::Byte {
        return Err(unused("reference_bytes"));
    }
    if spec.reference_airtime.is_some() && spec.unit != FrameErrorUnitKind::Airtime {
        return Err(unused("reference_airtime"));
    }
    unit.validate()
        .map_err(|e| ScenarioError::at(field(e.field), e.message))?;
    Ok(unit)
}

fn build_frame_error(spec: &FrameErrorSpec) -> Result<FrameErrorVsDistance, ScenarioError> {
    let field = |f: &str| format!("radio.frame_error.{f}");
    let used: &[&str] = match spec.model {
        FrameErrorKind::DistanceLinear => &["points"],
        FrameErrorKind::DistanceExponential => &["p0", "d0_m", "max_p"],
    };
    for (name, set) in [
        ("points", spec.points.is_some()),
        ("p0", spec.p0.is_some()),
        ("d0_m", spec.d0_m.is_some()),
        ("max_p", spec.max_p.is_some()),
    ] {
        if set && !used.contains(&name) {
            return Err(ScenarioError::at(
                field(name),
                "not used by this frame error model; remove it",
            ));
        }
    }
    let need = |name: &str, v: Option<f64>| {
        v.ok_or_else(|| ScenarioError::at(field(name), "required by this frame error model"))
    };
    let model = match spec.model {
        FrameErrorKind::DistanceLinear => {
            let points = spec.points.as_ref().ok_or_else(|| {
                ScenarioError::at(
                    field("points"),
                    "required: [[distance_m, probability], ...]",
                )
            })?;
            FrameErrorVsDistance::PiecewiseLinear(points.iter().map(|[d, p]| (*d, *p)).collect())
        }
        FrameErrorKind::DistanceExponential => FrameErrorVsDistance::Exponential {
            p0: need("p0", spec.p0)?,
            d0_m: need("d0_m", spec.d0_m)?,
            max_p: spec.max_p.unwrap_or(DEFAULT_FRAME_ERROR_MAX_P),
        },
    };
    // The world model names its parameters `points.distance_m`, `points.p`, `p0`, ...
    model.validate().map_err(|e| {
        let name = e.field.split('.').next().unwrap_or(e.field);
        ScenarioError::at(field(name), e.message)
    })?;
    Ok(model)
}

fn ns2_like(r: &ReceptionParams) -> bool {
    matches!(r, ReceptionParams::Threshold(_))
}

fn build_propagation(
    spec: Option<&PropagationSpec>,
    default: PropagationKind,
    geometry: &RadioGeometry,
) -> Result<PropagationModel, ScenarioError> {
    let kind = spec.map(|s| s.model).unwrap_or(default);
    let get = |f: fn(&PropagationSpec) -> Option<f64>| spec.and_then(f);
    let used: &[&str] = match kind {
        PropagationKind::FreeSpace | PropagationKind::TwoRayGround => &[],
        PropagationKind::LogDistance => &["exponent", "reference_distance_m", "reference_loss_db"],
        PropagationKind::Shadowing => &["exponent", "reference_distance_m", "std_db"],
    };
    if let Some(s) = spec {
        for (name, set) in [
            ("exponent", s.exponent.is_some()),
            ("reference_distance_m", s.reference_distance_m.is_some()),
            ("reference_loss_db", s.reference_loss_db.is_some()),
            ("std_db", s.std_db.is_some()),
        ] {
            if set && !used.contains(&name) {
                return Err(ScenarioError::at(
                    format!("radio.propagation.{name}"),
                    "not used by this propagation model; remove it",
                ));
            }
        }
    }
    let pfield = |f: &str| format!("propagation.{f}");
    let model = match kind {
        PropagationKind::FreeSpace => PropagationModel::FreeSpace(FreeSpace {
            radio: geometry.clone(),
        }),
        PropagationKind::TwoRayGround => PropagationModel::TwoRayGround(TwoRayGround {
            radio: geometry.clone(),
        }),
        PropagationKind::LogDistance => {
            let mut m = LogDistance::default();
            if let Some(v) = get(|s| s.exponent) {
                m.exponent = positive(&pfield("exponent"), v)?;
            }
            if let Some(v) = get(|s| s.reference_distance_m) {
                m.reference_distance_m = positive(&pfield("reference_distance_m"), v)?;
            }
            if let Some(v) = get(|s| s.reference_loss_db) {
                m.reference_loss_db = finite(&pfield("reference_loss_db"), v)?;
            }
            PropagationModel::LogDistance(m)
        }
        PropagationKind::Shadowing => {
            let mut m = Shadowing::ns2_default();
            m.radio = geometry.clone();
            if let Some(v) = get(|s| s.exponent) {
                m.path_loss_exponent = positive(&pfield("exponent"), v)?;
            }
            if let Some(v) = get(|s| s.reference_distance_m) {
                m.reference_distance_m = positive(&pfield("reference_distance_m"), v)?;
            }
            if let Some(v) = get(|s| s.std_db) {
                let v = finite(&pfield("std_db"), v)?;
                if v < 0.0 {
                    return Err(err(&pfield("std_db"), "must be >= 0"));
                }
                m.std_db = v;
            }
            PropagationModel::Shadowing(m)
        }
    };
    model
        .validate()
        .map_err(|e| err("propagation", e.to_string()))?;
    Ok(model)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn ns2_defaults_have_the_classic_ranges() {
        let r = RadioParams::from_spec(&RadioSpec::default()).unwrap();
        assert!((r.neighbour_range_m() - 250.0).abs() < 1.0);
        assert!((r.cutoff_range_m() - 550.0).abs() < 1.0);
        // ns-2: CSThresh 1.559e-11 W gives the 550 m carrier-sense range.
        assert!((r.carrier_sense_range_m() - 550.0).abs() < 1.0);
    }

    #[test]
    fn carrier_sense_reaches_at_least_as_far_as_reception() {
        for p in [
            RadioProfileKind::Ns2Wavelan,
            RadioProfileKind::Ieee80211a,
            RadioProfileKind::Ieee80211b,
            RadioProfileKind::Ieee80211g,
        ] {
            let spec = RadioSpec {
                profile: p,
                ..RadioSpec::default()
            };
            let r = RadioParams::from_spec(&spec).unwrap();
            let (rx, cs) = (r.neighbour_range_m(), r.carrier_sense_range_m());
            assert!(rx > 0.0 && cs.is_finite(), "{p:?}: {rx} {cs}");
            assert!(
                cs >= rx * 0.99,
                "{p:?}: carrier sense {cs} m < reception {rx} m"
            );
        }
    }

    #[test]
    fn standard_presets_resolve() {
        for p in [
            RadioProfileKind::Ieee80211a,
            RadioProfileKind::Ieee80211b,
            RadioProfileKind::Ieee80211g,
        ] {
            let spec = RadioSpec {
                profile: p,
                ..RadioSpec::default()
            };
            let r = RadioParams::from_spec(&spec).unwrap();
            assert!(matches!(r.reception, ReceptionParams::Sinr { .. }));
            // ns-3 defaults: −101 dBm sensitivity at 16 dBm with n = 3 is ~220 m; the cut-off
            // 10 dB below the noise floor is further out.
            let c = r.cutoff_range_m();
            assert!(c > 200.0 && c < 400.0, "{c}");
            assert!(r.neighbour_range_m() < c);
        }
    }

    fn rate(bps: u64) -> Option<crate::scenario::Rate> {
        Some(crate::scenario::Rate(sctpsim_kernel::BitRate(bps)))
    }

    #[test]
    fn rates_are_checked_against_the_phy() {
        let spec = RadioSpec {
            profile: RadioProfileKind::Ieee80211a,
            data_rate: rate(11_000_000),
            ..RadioSpec::default()
        };
        let e = RadioParams::from_spec(&spec).unwrap_err();
        assert_eq!(e.path, "radio.data_rate");
        assert_eq!(
            mode_for_rate(PhyStandard::Erp { short_slot: true }, 6_000_000),
            Some(PhyMode::ErpOfdm(OfdmRate::R6))
        );
        assert_eq!(
            mode_for_rate(PhyStandard::Erp { short_slot: true }, 11_000_000),
            Some(PhyMode::Cck11)
        );
    }

    #[test]
    fn the_ns2_radio_takes_any_rate() {
        let any = |bps| PhyMode::DsssAnyRate { bps };
        let spec = RadioSpec {
            data_rate: rate(150_000),
            basic_rate: rate(150_000),
            broadcast_rate: rate(150_000),
            ..RadioSpec::default()
        };
        let r = RadioParams::from_spec(&spec).unwrap();
        assert_eq!(r.mac.data_mode, any(150_000));
        assert_eq!(r.mac.basic_modes, vec![any(150_000)]);
        assert_eq!(r.mac.broadcast_mode, Some(any(150_000)));
        // The standard rates stay the standard modes (same timing); 11 Mbit/s is not CCK here.
        assert_eq!(
            mode_for_rate(PhyStandard::Dsss, 2_000_000),
            Some(PhyMode::Dsss2)
        );
        assert_eq!(
            mode_for_rate(PhyStandard::Dsss, 11_000_000),
            Some(any(11_000_000))
        );
        assert_eq!(mode_for_rate(PhyStandard::HrDsss, 150_000), None);
        // Zero and absurd rates name the field.
        for (field, bad) in [
            (
                "data_rate",
                RadioSpec {
                    data_rate: rate(0),
                    ..RadioSpec::default()
                },
            ),
            (
                "data_rate",
                RadioSpec {
                    data_rate: rate(999),
                    ..RadioSpec::default()
                },
            ),
            (
                "basic_rate",
                RadioSpec {
                    basic_rate: rate(2_000_000_000),
                    ..RadioSpec::default()
                },
            ),
            (
                "broadcast_rate",
                RadioSpec {
                    broadcast_rate: rate(0),
                    ..RadioSpec::default()
                },
            ),
        ] {
            let e = RadioParams::from_spec(&bad).unwrap_err();
            assert_eq!(e.path, format!("radio.{field}"), "{e}");
        }
        // SINR reception has error models for the 802.11 modulations only: 150 kbit/s has none,
        // 5.5 Mbit/s (DSSS timing) takes the CCK model.
        let sinr = RadioSpec {
            reception: Some(ReceptionKind::Sinr),
            ..RadioSpec::default()
        };
        for (field, spec) in [
            (
                "data_rate",
                RadioSpec {
                    data_rate: rate(150_000),
                    ..sinr.clone()
                },
            ),
            (
                "basic_rate",
                RadioSpec {
                    basic_rate: rate(384_000),
                    ..sinr.clone()
                },
            ),
            (
                "broadcast_rate",
                RadioSpec {
                    broadcast_rate: rate(1_500_000),
                    ..sinr.clone()
                },
            ),
        ] {
            let e = RadioParams::from_spec(&spec).unwrap_err();
            assert_eq!(e.path, format!("radio.{field}"), "{e}");
            assert!(e.to_string().contains("threshold"), "{e}");
        }
        let cck = RadioParams::from_spec(&RadioSpec {
            data_rate: rate(5_500_000),
            ..sinr.clone()
        })
        .unwrap();
        assert_eq!(cck.mac.data_mode, any(5_500_000));
        assert_eq!(wifi_mode(cck.mac.data_mode), Some(WifiMode::Cck5_5));
        assert!(cck.neighbour_range_m() > 0.0);
        assert_eq!(wifi_mode(any(150_000)), None);
    }
}
