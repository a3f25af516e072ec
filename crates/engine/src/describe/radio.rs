//! The described parameters of the 802.11 MAC configuration and of the propagation models
//! (`[radio]`, `[radio.propagation]`); `scenario::radio` holds the presets and their sources,
//! `docs/models/mac80211.md` and `docs/models/phy.md` the models.

use super::{Describe, Param};
use sctpsim_proto::mac::{MacConfig, MacTiming, PhyMode, Preamble, RetryAccounting};
use sctpsim_world::propagation::{LogDistance, Shadowing};
use serde_json::Value;

/// A rate in bit/s.
pub fn rate(m: PhyMode) -> Value {
    Value::from(m.rate_bps())
}

/// The basic rate set: one rate as a number (what `radio.basic_rate` takes), several as a list.
pub fn basic_rates(c: &MacConfig) -> Value {
    match c.basic_modes.as_slice() {
        [one] => rate(*one),
        many => Value::from(many.iter().map(|m| m.rate_bps()).collect::<Vec<_>>()),
    }
}

/// Group-addressed frames: the configured rate, else the lowest basic rate (IEEE 802.11-2020
/// §10.6.6.2).
pub fn broadcast_rate(c: &MacConfig) -> Value {
    c.broadcast_mode
        .map(|m| m.rate_bps())
        .or_else(|| c.basic_modes.iter().map(|m| m.rate_bps()).min())
        .map_or(Value::Null, Value::from)
}

fn retry_accounting(a: RetryAccounting) -> &'static str {
    match a {
        RetryAccounting::Standard => "standard",
        RetryAccounting::PerFrame => "per-frame",
        RetryAccounting::Ns2_226 => "ns2-2.26",
    }
}

fn mac_timing(t: MacTiming) -> &'static str {
    match t {
        MacTiming::Standard => "standard",
        MacTiming::Ns2_21b8 => "ns2-2.1b8",
    }
}

/// The scenario name of a PLCP preamble.
pub fn preamble(p: Preamble) -> &'static str {
    match p {
        Preamble::Long => "long",
        Preamble::Short => "short",
    }
}

/// The MAC fields every profile sets, after `radio.data_rate` and `radio.rate_control` (whose
/// rows `params` writes itself: the rate control's source says why it was chosen).
impl Describe for MacConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "basic_rate",
            unit: "bit/s",
            get: basic_rates,
            doc: "the BSS basic rate set (control responses, RTS, management)",
        },
        Param {
            field: "broadcast_rate",
            unit: "bit/s",
            get: broadcast_rate,
            doc: "rate of broadcast data frames; else the lowest basic rate (IEEE 802.11-2020 \
                  §10.6.6.2)",
        },
        Param {
            field: "rts_threshold_bytes",
            unit: "bytes",
            get: |c| c.rts_threshold.into(),
            doc: "dot11RTSThreshold: RTS/CTS before unicast frames whose MPDU is longer",
        },
        Param {
            field: "short_retry_limit",
            unit: "",
            get: |c| c.short_retry_limit.into(),
            doc: "dot11ShortRetryLimit",
        },
        Param {
            field: "long_retry_limit",
            unit: "",
            get: |c| c.long_retry_limit.into(),
            doc: "dot11LongRetryLimit",
        },
        Param {
            field: "retry_accounting",
            unit: "",
            get: |c| retry_accounting(c.retry_accounting).into(),
            doc: "which failures count against which retry limit",
        },
        Param {
            field: "timing",
            unit: "",
            get: |c| mac_timing(c.timing).into(),
            doc: "frame airtimes, EIFS and response timeouts: standard or ns2-2.1b8",
        },
        Param {
            field: "queue_limit_packets",
            unit: "packets",
            get: |c| c.queue_limit.into(),
            doc: "interface queue limit in waiting packets",
        },
        Param {
            field: "cw_min",
            unit: "slots",
            get: |c| c.cw_min.into(),
            doc: "aCWmin (2^k − 1)",
        },
        Param {
            field: "cw_max",
            unit: "slots",
            get: |c| c.cw_max.into(),
            doc: "aCWmax (2^k − 1)",
        },
    ];
}

impl Describe for LogDistance {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "exponent",
            unit: "",
            get: |m| m.exponent.into(),
            doc: "path loss exponent (ns-3 LogDistancePropagationLossModel: 3)",
        },
        Param {
            field: "reference_distance_m",
            unit: "m",
            get: |m| m.reference_distance_m.into(),
            doc: "reference distance (ns-3: 1 m)",
        },
        Param {
            field: "reference_loss_db",
            unit: "dB",
            get: |m| m.reference_loss_db.into(),
            doc: "loss at the reference distance (ns-3: 46.6777 dB)",
        },
    ];
}

impl Describe for Shadowing {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "exponent",
            unit: "",
            get: |m| m.path_loss_exponent.into(),
            doc: "path loss exponent (ns-2 Propagation/Shadowing pathlossExp_: 2)",
        },
        Param {
            field: "reference_distance_m",
            unit: "m",
            get: |m| m.reference_distance_m.into(),
            doc: "reference distance (ns-2 dist0_: 1 m)",
        },
        Param {
            field: "std_db",
            unit: "dB",
            get: |m| m.std_db.into(),
            doc: "shadowing deviation (ns-2 std_db_: 4 dB)",
        },
    ];
}
