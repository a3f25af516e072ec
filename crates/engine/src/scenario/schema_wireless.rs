//! The wireless part of the scenario schema: `[radio]`, `[nodes]`, `[mobility]` (and the
//! wireless fields of `[[node]]`, which live in `schema.rs` next to the node's name).
//!
//! Every field is optional: an absent field keeps the value of the radio `profile` (see
//! `scenario::radio` for the presets and their sources) or the default written next
//! to it. `docs/scenario.md` documents each field; keep the two in step. The semantic checks
//! (fields a model does not use, ranges, files) are in `check_wireless.rs`.

use super::quantity::{Duration, Rate};
use core::fmt;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// A power written with a unit: `"0.28183815W"`, `"281.8mW"`, `"24.5dBm"`, `"-64.4dBm"`.
/// Held in watts.
#[derive(Copy, Clone, Debug, PartialEq, PartialOrd, Default)]
pub struct Power(pub f64);

impl Power {
    /// The power in dBm.
    pub fn dbm(self) -> f64 {
        10.0 * (self.0 * 1e3).log10()
    }
}

/// Parses `"<number><unit>"` with unit `W`, `mW`, `uW` (`µW`), `nW`, `pW`, `dBm` or `dBW`.
pub fn parse_power(s: &str) -> Result<Power, String> {
    let t = s.trim();
    // Longest units first so that "mW" is not read as "W".
    const UNITS: [(&str, f64); 7] = [
        ("dBm", f64::NAN),
        ("dBW", f64::NAN),
        ("mW", 1e-3),
        ("uW", 1e-6),
        ("µW", 1e-6),
        ("nW", 1e-9),
        ("pW", 1e-12),
    ];
    let (num, unit, scale) = UNITS
        .iter()
        .find(|(u, _)| t.ends_with(u))
        .map(|(u, k)| (&t[..t.len() - u.len()], *u, *k))
        .or_else(|| t.strip_suffix('W').map(|n| (n, "W", 1.0)))
        .ok_or_else(|| {
            format!("\"{s}\" has no power unit; write it like \"0.2818W\", \"10mW\" or \"24.5dBm\"")
        })?;
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("\"{s}\": \"{}\" is not a number", num.trim()))?;
    if !v.is_finite() {
        return Err(format!("\"{s}\" is not finite"));
    }
    let w = match unit {
        "dBm" => 1e-3 * 10f64.powf(v / 10.0),
        "dBW" => 10f64.powf(v / 10.0),
        _ => {
            if v < 0.0 {
                return Err(format!("\"{s}\": a power in {unit} cannot be negative"));
            }
            v * scale
        }
    };
    Ok(Power(w))
}

impl<'de> Deserialize<'de> for Power {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Power;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a power with a unit, like \"0.2818W\" or \"24.5dBm\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Power, E> {
                parse_power(v).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Power, E> {
                Err(E::custom(format!(
                    "{v} has no unit; write a power as a string like \"0.2818W\" or \"24.5dBm\""
                )))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Power, E> {
                self.visit_i64(v as i64)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Power, E> {
                Err(E::custom(format!(
                    "{v} has no unit; write a power as a string like \"0.2818W\" or \"24.5dBm\""
                )))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Power {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}W", self.0))
    }
}

/// The radio presets (`radio.profile`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
pub enum RadioProfileKind {
    /// ns-2's 802.11 over the 914 MHz WaveLAN radio: DSSS 2 Mbit/s, two-ray ground, threshold
    /// reception.
    #[default]
    #[serde(rename = "ns2-wavelan")]
    Ns2Wavelan,
    /// 802.11b HR/DSSS 11 Mbit/s with ns-3's default PHY (log-distance, SINR).
    #[serde(rename = "80211b")]
    Ieee80211b,
    /// 802.11a OFDM 54 Mbit/s with ns-3's default PHY.
    #[serde(rename = "80211a")]
    Ieee80211a,
    /// 802.11g ERP-OFDM 54 Mbit/s (ERP-only BSS, short slot) with ns-3's default PHY.
    #[serde(rename = "80211g")]
    Ieee80211g,
}

/// PLCP preamble of DSSS/HR-DSSS frames (`radio.preamble`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PreambleKind {
    /// 192 µs long PLCP preamble and header.
    Long,
    /// 96 µs short PLCP preamble and header (HR/DSSS option).
    Short,
}

/// Retry-limit accounting of the MAC (`radio.retry_accounting`); see
/// `sctpsim_proto::mac::RetryAccounting`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RetryAccountingKind {
    /// IEEE 802.11-2020 §10.3.4.4 and ns-2: an RTS failure counts against the short limit.
    Standard,
    /// Ye, Saadawi & Lee (2003, §4): every failure of a frame above the RTS threshold counts
    /// against the long limit.
    PerFrame,
    /// ns-2.26 (2003): the station's retry counts, not reset by a CTS (`mac-802_11.cc` of
    /// ns-2.26; fixed in ns-2.27).
    #[serde(rename = "ns2-2.26")]
    Ns2_226,
}

/// How the MAC times frames (`radio.timing`); see `sctpsim_proto::mac::MacTiming`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MacTimingKind {
    /// The PHY's timing (IEEE 802.11; for DSSS the PLCP at 1 Mbit/s).
    Standard,
    /// ns-2.1b8 (2001): every frame, its 24 PLCP octets included, at the one data rate
    /// (`bandwidth_`), with its EIFS and response timeouts (`ns2-wavelan` only).
    #[serde(rename = "ns2-2.1b8")]
    Ns2_21b8,
}

/// Reception model (`radio.reception`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReceptionKind {
    /// ns-2: RXThresh / CSThresh / CPThresh capture.
    Threshold,
    /// Cumulative interference, SINR and the DSSS/CCK/OFDM error models.
    Sinr,
}

/// Propagation model (`radio.propagation.model`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PropagationKind {
    /// Friis free space.
    FreeSpace,
    /// ns-2 two-ray ground with the Friis cross-over.
    TwoRayGround,
    /// Log-distance path loss.
    LogDistance,
    /// ns-2 log-normal shadowing.
    Shadowing,
}

/// `[radio.propagation]`: the model and its parameters. A parameter the model does not use is
/// an error.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PropagationSpec {
    /// The model.
    pub model: PropagationKind,
    /// Path-loss exponent (log-distance: ns-3 default 3; shadowing: ns-2 `pathlossExp_` 2).
    #[serde(default)]
    pub exponent: Option<f64>,
    /// Reference distance d0, m (log-distance and shadowing; default 1 m).
    #[serde(default)]
    pub reference_distance_m: Option<f64>,
    /// Path loss at d0, dB (log-distance; default ns-3's 46.6777 dB).
    #[serde(default)]
    pub reference_loss_db: Option<f64>,
    /// Standard deviation of the log-normal term, dB (shadowing; ns-2 `std_db_` 4 dB).
    #[serde(default)]
    pub std_db: Option<f64>,
}

/// `[radio]`: one radio configuration shared by every wireless interface. Absent fields keep
/// the profile's value.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RadioSpec {
    /// The preset to start from. Default `ns2-wavelan`.
    #[serde(default)]
    pub profile: RadioProfileKind,
    /// Rate of unicast data frames.
    #[serde(default)]
    pub data_rate: Option<Rate>,
    /// The BSS basic rate set becomes this one rate (control responses, RTS, management).
    #[serde(default)]
    pub basic_rate: Option<Rate>,
    /// Rate of broadcast data frames (default: the profile's).
    #[serde(default)]
    pub broadcast_rate: Option<Rate>,
    /// dot11RTSThreshold: RTS/CTS before unicast frames whose MPDU is longer than this.
    #[serde(default)]
    pub rts_threshold_bytes: Option<u32>,
    /// dot11ShortRetryLimit.
    #[serde(default)]
    pub short_retry_limit: Option<u32>,
    /// dot11LongRetryLimit.
    #[serde(default)]
    pub long_retry_limit: Option<u32>,
    /// Which failures count against which retry limit (default `standard`).
    #[serde(default)]
    pub retry_accounting: Option<RetryAccountingKind>,
    /// Frame airtimes, EIFS and response timeouts: `standard` (default) or `ns2-2.1b8`.
    #[serde(default)]
    pub timing: Option<MacTimingKind>,
    /// Rate adaptation of unicast data frames, per destination: `constant` (default: every
    /// frame at `data_rate`), `arf`, `aarf` or `minstrel` (`sctpsim_proto::mac::rate`).
    #[serde(default)]
    pub rate_control: Option<String>,
    /// Interface queue limit in waiting packets.
    #[serde(default)]
    pub queue_limit_packets: Option<u32>,
    /// aCWmin (2^k − 1).
    #[serde(default)]
    pub cw_min: Option<u32>,
    /// aCWmax (2^k − 1).
    #[serde(default)]
    pub cw_max: Option<u32>,
    /// PLCP preamble (DSSS/HR-DSSS).
    #[serde(default)]
    pub preamble: Option<PreambleKind>,
    /// Transmit power.
    #[serde(default)]
    pub tx_power: Option<Power>,
    /// Carrier frequency, MHz (Friis-based models).
    #[serde(default)]
    pub frequency_mhz: Option<f64>,
    /// Antenna height above the node, m (Friis-based models).
    #[serde(default)]
    pub antenna_height_m: Option<f64>,
    /// System loss L, dB (Friis-based models; 0 dB = ns-2's `L_ = 1`).
    #[serde(default)]
    pub system_loss_db: Option<f64>,
    /// Reception model.
    #[serde(default)]
    pub reception: Option<ReceptionKind>,
    /// Threshold: RXThresh. SINR: the weakest frame the radio locks on to (sensitivity).
    #[serde(default)]
    pub rx_thresh: Option<Power>,
    /// Threshold: CSThresh. SINR: the energy-detection level of clear channel assessment.
    #[serde(default)]
    pub cs_thresh: Option<Power>,
    /// Threshold: CPThresh, the capture ratio in dB.
    #[serde(default)]
    pub cp_thresh_db: Option<f64>,
    /// Threshold: a newcomer CPThresh stronger takes over the receiver.
    #[serde(default)]
    pub new_frame_capture: Option<bool>,
    /// SINR: receiver noise figure, dB.
    #[serde(default)]
    pub noise_figure_db: Option<f64>,
    /// SINR: a fixed noise power in place of kT·B·NF (INET's `thermalNoise`).
    #[serde(default)]
    pub noise_floor: Option<Power>,
    /// SINR: a frame at or below this SINR at any instant is lost before the error model
    /// (INET's `snirThreshold`), dB.
    #[serde(default)]
    pub snir_threshold_db: Option<f64>,
    /// Frames weaker than this are not delivered to a radio at all (the spatial grid's
    /// cut-off).
    #[serde(default)]
    pub interference_cutoff: Option<Power>,
    /// Propagation model and parameters.
    #[serde(default)]
    pub propagation: Option<PropagationSpec>,
    /// Distance-dependent frame errors on top of the reception model (default none).
    #[serde(default)]
    pub frame_error: Option<FrameErrorSpec>,
}

/// Shape of the distance-dependent frame error probability (`radio.frame_error.model`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameErrorKind {
    /// Linear interpolation in a table of `[distance_m, probability]` points.
    DistanceLinear,
    /// `min(p0 · exp(d / d0_m), max_p)`.
    DistanceExponential,
}

/// What one probability of the frame error table applies to (`radio.frame_error.unit`;
/// `sctpsim_world::FrameErrorUnit`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameErrorUnitKind {
    /// Every frame alike (ns-2 `ErrorModel` `unit_ pkt`, its default).
    #[default]
    Frame,
    /// A frame of `reference_bytes` (ns-2 `unit_ byte`).
    Byte,
    /// A frame on the air for `reference_airtime`.
    Airtime,
}

/// `[radio.frame_error]`: the Mobile IP study's wireless error that grows with the distance
/// between transmitter and receiver (`sctpsim_world::frame_error`). A parameter the model does
/// not use is an error.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FrameErrorSpec {
    /// The shape.
    pub model: FrameErrorKind,
    /// `[distance_m, probability]` points, distances strictly increasing (distance-linear).
    #[serde(default)]
    pub points: Option<Vec<[f64; 2]>>,
    /// Error probability at distance 0 (distance-exponential).
    #[serde(default)]
    pub p0: Option<f64>,
    /// Distance over which the probability grows e-fold, m (distance-exponential).
    #[serde(default)]
    pub d0_m: Option<f64>,
    /// Cap on the probability (distance-exponential; default 1).
    #[serde(default)]
    pub max_p: Option<f64>,
    /// What one probability applies to (default `frame`).
    #[serde(default)]
    pub unit: FrameErrorUnitKind,
    /// Frame length, MPDU with FCS, the probabilities are for (`unit = "byte"`), bytes.
    #[serde(default)]
    pub reference_bytes: Option<u32>,
    /// Airtime, preamble included, the probabilities are for (`unit = "airtime"`).
    #[serde(default)]
    pub reference_airtime: Option<Duration>,
}

/// A duration range (`{ min = "2s", max = "5s" }`).
#[derive(Copy, Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DurationRange {
    /// Shortest.
    pub min: Duration,
    /// Longest.
    pub max: Duration,
}

/// `[beacons]`: every wireless node broadcasts a small UDP datagram (to 255.255.255.255, a
/// MAC broadcast on its wireless interface) at intervals drawn uniformly from `interval`, and
/// counts the beacons it hears from its neighbours. Neighbour discovery traffic of the kind
/// ad hoc routing protocols send (AODV HELLO, OLSR HELLO), without a protocol behind it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BeaconsSpec {
    /// Time between two beacons of a node, uniform in `[min, max]` per beacon.
    pub interval: DurationRange,
    /// UDP payload bytes. Default 20: the size of an AODV Hello message (an RREP, RFC 3561
    /// §5.2, sent with TTL 1, §6.9).
    #[serde(default = "default_beacon_payload")]
    pub payload_bytes: u32,
    /// UDP source and destination port. Default 9 (discard, RFC 863), as for UDP flows.
    #[serde(default = "default_beacon_port")]
    pub port: u16,
    /// The first beacon of each node comes uniformly in `[start, start + interval.max)`.
    /// Default 0 s.
    #[serde(default)]
    pub start: Duration,
    /// No beacons from then on. Default: the end of the run.
    #[serde(default)]
    pub stop: Option<Duration>,
}

pub(crate) fn default_beacon_payload() -> u32 {
    20
}

pub(crate) fn default_beacon_port() -> u16 {
    9
}

/// `[nodes]`: `count` wireless nodes named `<prefix>0 … <prefix><count−1>`, placed and moved by
/// `[mobility]`. They come after the `[[node]]` entries in node order.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodesSpec {
    /// Number of nodes (≥ 1).
    pub count: u32,
    /// Name prefix. Default `"n"`.
    #[serde(default = "default_prefix")]
    pub prefix: String,
}

pub(crate) fn default_prefix() -> String {
    "n".into()
}

/// Mobility model (`mobility.model`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MobilityKind {
    /// Nodes stay where `placement` puts them.
    #[default]
    Static,
    /// Per-node waypoint lists (`[[mobility.waypoints]]`).
    Waypoints,
    /// Every node moves with `velocity_mps` from `start` to `stop`.
    ConstantVelocity,
    /// Random waypoint.
    RandomWaypoint,
    /// Random walk / random direction with turning.
    RandomWalk,
    /// INET's `MassMobility`: a random walk with normally distributed turns and intervals
    /// (defaults from INET's examples: turns normal(0°, 30°), intervals truncnormal(2 s,
    /// 0.5 s)).
    Mass,
    /// Gauss–Markov.
    GaussMarkov,
    /// An ns-2 movement file (`setdest` output).
    Setdest,
    /// A BonnMotion `.movements` file.
    Bonnmotion,
}

/// Initial placement (`mobility.placement`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementKind {
    /// Uniform in `area_m`, per node from the stream `("placement", node)`.
    Uniform,
    /// Node i at (i·spacing_m, 0).
    Line,
    /// Row by row, `columns` per row, `spacing_m` apart.
    Grid,
    /// The first node at the centre of `area_m` (or the origin), the others evenly on a circle
    /// of `radius_m` around it: one cell with its receiver in the middle.
    Ring,
    /// Node i at `positions_m[i]`.
    Positions,
}

/// A speed range, m/s.
#[derive(Copy, Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedRange {
    /// Slowest, m/s.
    pub min: f64,
    /// Fastest, m/s.
    pub max: f64,
}

/// `[[mobility.waypoints]]`: one node's waypoints.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WaypointsSpec {
    /// The node's name.
    pub node: String,
    /// Times of the waypoints, non-decreasing.
    pub times: Vec<Duration>,
    /// Positions `[x, y]` (or `[x, y, z]`), m, one per time.
    pub positions_m: Vec<Vec<f64>>,
}

/// `[mobility]`: where the nodes of `[nodes]` are and how they move. One table for all models;
/// a field the chosen model does not use is an error.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MobilitySpec {
    /// The model. Default `static`.
    #[serde(default)]
    pub model: MobilityKind,
    /// `[width, height]` of the area, m (required by uniform placement and the random models).
    #[serde(default)]
    pub area_m: Option<[f64; 2]>,
    /// Initial placement (static, waypoints' unlisted nodes, constant velocity; the random
    /// models start uniformly unless it is given).
    #[serde(default)]
    pub placement: Option<PlacementKind>,
    /// Distance between neighbours for `line` and `grid`, m.
    #[serde(default)]
    pub spacing_m: Option<f64>,
    /// Nodes per row for `grid` (default ⌈√count⌉).
    #[serde(default)]
    pub columns: Option<u32>,
    /// Circle radius for `ring`, m.
    #[serde(default)]
    pub radius_m: Option<f64>,
    /// One `[x, y]` (or `[x, y, z]`) per node for `positions`, m.
    #[serde(default)]
    pub positions_m: Option<Vec<Vec<f64>>>,
    /// Speed range (random waypoint, random walk), m/s.
    #[serde(default)]
    pub speed_mps: Option<SpeedRange>,
    /// Pause at each destination (random waypoint).
    #[serde(default)]
    pub pause: Option<Duration>,
    /// Start from the stationary distribution (random waypoint).
    #[serde(default)]
    pub steady_state: Option<bool>,
    /// Time between changes of speed and heading (random walk).
    #[serde(default)]
    pub change_interval: Option<Duration>,
    /// Distance between changes (random walk; instead of `change_interval`), m.
    #[serde(default)]
    pub change_distance_m: Option<f64>,
    /// Largest turn per change (random walk; default: any new heading), degrees.
    #[serde(default)]
    pub max_turn_deg: Option<f64>,
    /// Standard deviation of a normally distributed turn per change (random walk, instead of
    /// `max_turn_deg`; mass: default 30), degrees.
    #[serde(default)]
    pub turn_sd_deg: Option<f64>,
    /// Standard deviation of the time between changes, which is then normal with mean
    /// `change_interval`, truncated at zero (random walk; mass: default 0.5 s).
    #[serde(default)]
    pub change_interval_sd: Option<Duration>,
    /// Memory α in [0, 1] (Gauss–Markov).
    #[serde(default)]
    pub alpha: Option<f64>,
    /// Mean speed (Gauss–Markov), m/s.
    #[serde(default)]
    pub mean_speed_mps: Option<f64>,
    /// Standard deviation of the speed's random term (Gauss–Markov), m/s.
    #[serde(default)]
    pub speed_std_mps: Option<f64>,
    /// Speed cap (Gauss–Markov; default none), m/s.
    #[serde(default)]
    pub max_speed_mps: Option<f64>,
    /// Mean direction (Gauss–Markov; default uniform per node), degrees from east.
    #[serde(default)]
    pub mean_direction_deg: Option<f64>,
    /// Standard deviation of the direction's random term (Gauss–Markov), degrees.
    #[serde(default)]
    pub direction_std_deg: Option<f64>,
    /// Time between updates (Gauss–Markov).
    #[serde(default)]
    pub update_interval: Option<Duration>,
    /// Distance from an edge at which the mean direction turns to the centre (Gauss–Markov), m.
    #[serde(default)]
    pub edge_margin_m: Option<f64>,
    /// Velocity `[vx, vy]` (constant velocity), m/s.
    #[serde(default)]
    pub velocity_mps: Option<[f64; 2]>,
    /// When the motion starts (constant velocity). Default 0 s.
    #[serde(default)]
    pub start: Option<Duration>,
    /// When it stops (constant velocity). Default: never.
    #[serde(default)]
    pub stop: Option<Duration>,
    /// Per-node waypoints (waypoints).
    #[serde(default)]
    pub waypoints: Vec<WaypointsSpec>,
    /// Trace file (setdest, bonnmotion), relative to the working directory.
    #[serde(default)]
    pub file: Option<String>,
    /// The trace itself, inline (setdest, bonnmotion; instead of `file`).
    #[serde(default)]
    pub text: Option<String>,
    /// Dimensions of a BonnMotion trace: 2 or 3. Default 2.
    #[serde(default)]
    pub dims: Option<u8>,
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn powers() {
        assert_eq!(parse_power("0.28183815W").unwrap().0, 0.28183815);
        assert!((parse_power("24.5dBm").unwrap().0 - 0.281_838_3).abs() < 1e-6);
        assert!((parse_power("10mW").unwrap().0 - 0.01).abs() < 1e-15);
        assert!((parse_power("3.652e-10W").unwrap().0 - 3.652e-10).abs() < 1e-20);
        assert!((parse_power("-64.4dBm").unwrap().dbm() + 64.4).abs() < 1e-9);
        assert!((parse_power("0dBW").unwrap().0 - 1.0).abs() < 1e-12);
        assert!(parse_power("-1W").is_err());
        assert!(parse_power("12").is_err());
        assert!(parse_power("xW").is_err());
        assert!(parse_power("infW").is_err());
    }
}
