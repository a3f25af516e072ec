//! The wireless rows of `sctpsim show`: a wireless node's 802.11 role, `[radio]` after its
//! profile (`RadioParams::from_spec`), `[nodes]`, `[mobility]`, `[routing]` and `[beacons]`.

use super::{name, opt, opt_secs, secs, Rows, SOURCE_DEFAULT};
use crate::scenario::check_wireless::has_wireless;
use crate::scenario::{
    AodvProfileKind, DsrProfileKind, MobilityKind, MobilitySpec, PlacementKind, PropagationSpec,
    RadioProfileKind, RadioSpec, RoutingKind, Scenario,
};
use crate::sim::routing::{aodv_config, dsdv_config, dsr_config, olsr_config};
use crate::wireless::infra::mac_role;
use crate::wireless::mobility::{
    DEFAULT_CHANGE_INTERVAL, DEFAULT_UPDATE_INTERVAL, MASS_CHANGE_INTERVAL,
    MASS_CHANGE_INTERVAL_SD, MASS_TURN_SD_DEG,
};
use crate::wireless::profiles::{
    profile_name, RadioParams, ReceptionParams, DEFAULT_FRAME_ERROR_MAX_P,
};
use sctpsim_proto::mac::{
    ApConfig, MacConfig, MacRole, MacTiming, PhyMode, PhyStandard, Preamble, RetryAccounting,
    StaConfig,
};
use sctpsim_world::power::ratio_to_db;
use sctpsim_world::propagation::RadioGeometry;
use sctpsim_world::{FrameErrorUnit, FrameErrorVsDistance, PropagationModel};
use serde_json::Value;

/// The rows of every wireless section (none without wireless nodes).
pub(super) fn rows(rows: &mut Rows<'_>, s: &Scenario) {
    if !has_wireless(s) {
        return;
    }
    radio(rows, s.radio.clone().unwrap_or_default());
    if let Some(n) = &s.nodes {
        rows.add("nodes.count", n.count, Value::Null, "", SOURCE_DEFAULT);
        rows.add(
            "nodes.prefix",
            n.prefix.clone(),
            crate::scenario::schema_wireless::default_prefix(),
            "",
            SOURCE_DEFAULT,
        );
    }
    let driven = s
        .node
        .iter()
        .filter(|n| n.wireless && n.position_m.is_none())
        .count();
    if driven > 0 {
        mobility(
            rows,
            s.mobility.as_ref().unwrap_or(&MobilitySpec::default()),
            driven,
        );
    }
    routing(rows, s);
    beacons(rows, s);
}

/// The position and 802.11 role of wireless `[[node]]` `i` (`p` = `node[i]`), as `mac_role`
/// gives them to the MAC.
pub(super) fn node_rows(rows: &mut Rows<'_>, s: &Scenario, i: usize, p: &str) {
    let d = SOURCE_DEFAULT;
    let n = &s.node[i];
    rows.add(
        format!("{p}.position_m"),
        opt(n.position_m.clone()),
        Value::Null,
        "m",
        d,
    );
    let role = n.wifi.as_ref().map(|w| w.role).unwrap_or_default();
    rows.add(format!("{p}.wifi.role"), name(&role), "adhoc", "", d);
    match mac_role(s, i) {
        None | Some(MacRole::AdHoc { .. }) => {}
        Some(MacRole::Ap(ap)) => {
            let base = ApConfig::new(b"");
            rows.add(
                format!("{p}.wifi.ssid"),
                String::from_utf8_lossy(&ap.ssid).into_owned(),
                Value::Null,
                "",
                d,
            );
            rows.add(
                format!("{p}.wifi.beacon_interval"),
                secs(ap.interval()),
                secs(base.interval()),
                "s",
                d,
            );
            rows.add(format!("{p}.wifi.channel"), ap.channel, base.channel, "", d);
        }
        Some(MacRole::Sta(sta)) => {
            let base = StaConfig::default();
            rows.add(
                format!("{p}.wifi.ssid"),
                opt(sta.ssid.map(|x| String::from_utf8_lossy(&x).into_owned())),
                Value::Null,
                "",
                d,
            );
            rows.add(
                format!("{p}.wifi.handoff_hysteresis_db"),
                sta.handoff_hysteresis_db,
                base.handoff_hysteresis_db,
                "dB",
                d,
            );
            rows.add(
                format!("{p}.wifi.max_missed_beacons"),
                sta.max_missed_beacons,
                base.max_missed_beacons,
                "",
                d,
            );
        }
    }
}

fn rate(m: PhyMode) -> Value {
    Value::from(m.rate_bps())
}

/// The basic rate set: one rate as a number (what `radio.basic_rate` takes), several as a list.
fn basic_rates(c: &MacConfig) -> Value {
    match c.basic_modes.as_slice() {
        [one] => rate(*one),
        many => Value::from(many.iter().map(|m| m.rate_bps()).collect::<Vec<_>>()),
    }
}

/// Group-addressed frames: the configured rate, else the lowest basic rate (§10.6.6.2).
fn broadcast_rate(c: &MacConfig) -> Value {
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

fn preamble(p: Preamble) -> &'static str {
    match p {
        Preamble::Long => "long",
        Preamble::Short => "short",
    }
}

fn geometry(m: &PropagationModel) -> Option<&RadioGeometry> {
    match m {
        PropagationModel::FreeSpace(f) => Some(&f.radio),
        PropagationModel::TwoRayGround(t) => Some(&t.radio),
        PropagationModel::Shadowing(s) => Some(&s.radio),
        PropagationModel::LogDistance(_) => None,
    }
}

fn propagation_name(m: &PropagationModel) -> &'static str {
    match m {
        PropagationModel::FreeSpace(_) => "free-space",
        PropagationModel::TwoRayGround(_) => "two-ray-ground",
        PropagationModel::LogDistance(_) => "log-distance",
        PropagationModel::Shadowing(_) => "shadowing",
    }
}

fn reception_name(r: &ReceptionParams) -> &'static str {
    match r {
        ReceptionParams::Threshold(_) => "threshold",
        ReceptionParams::Sinr { .. } => "sinr",
    }
}

/// `[radio]` after its profile. `default` of a field is its value with only the profile and
/// the scenario's model choices (reception, propagation model) set; the model choices' own
/// default is the profile's.
fn radio(rows: &mut Rows<'_>, spec: RadioSpec) {
    let Ok(r) = RadioParams::from_spec(&spec) else {
        return; // checked when the scenario loaded
    };
    let prof_name = profile_name(spec.profile);
    let prof = format!("profile {prof_name}");
    let profile_only = RadioSpec {
        profile: spec.profile,
        ..RadioSpec::default()
    };
    let with_models = RadioSpec {
        reception: spec.reception,
        propagation: spec.propagation.as_ref().map(|p| PropagationSpec {
            model: p.model,
            exponent: None,
            reference_distance_m: None,
            reference_loss_db: None,
            std_db: None,
        }),
        ..profile_only.clone()
    };
    let pure = RadioParams::from_spec(&profile_only).ok();
    let base = RadioParams::from_spec(&with_models).ok();
    let dflt = |f: &dyn Fn(&RadioParams) -> Value| base.as_ref().map_or(Value::Null, f);
    let d = SOURCE_DEFAULT;
    rows.add(
        "radio.profile",
        prof_name,
        profile_name(RadioSpec::default().profile),
        "",
        d,
    );
    let mac = &r.mac;
    rows.add(
        "radio.data_rate",
        rate(mac.data_mode),
        dflt(&|b| rate(b.mac.data_mode)),
        "bit/s",
        &prof,
    );
    // The source column says where the value came from, as for every row; the algorithms'
    // citations (ARF: Kamerman & Monteban 1997; AARF: Lacage et al. 2004; Minstrel: Linux
    // mac80211, after ns-3's managers) are in docs/scenario.md and docs/models/mac80211.md
    // "Rate adaptation". The IEEE profiles default to Minstrel unless `data_rate` is given
    // (then constant at that rate); ns2-wavelan is constant.
    let rc_source = if spec.profile == RadioProfileKind::Ns2Wavelan {
        d.to_string()
    } else if spec.data_rate.is_some() {
        "constant: radio.data_rate given".to_string()
    } else {
        format!("{prof}: minstrel unless data_rate given")
    };
    rows.add(
        "radio.rate_control",
        mac.rate_control.name(),
        dflt(&|b| b.mac.rate_control.name().into()),
        "",
        &rc_source,
    );
    rows.add(
        "radio.basic_rate",
        basic_rates(mac),
        dflt(&|b| basic_rates(&b.mac)),
        "bit/s",
        &prof,
    );
    rows.add(
        "radio.broadcast_rate",
        broadcast_rate(mac),
        dflt(&|b| broadcast_rate(&b.mac)),
        "bit/s",
        &prof,
    );
    rows.add(
        "radio.rts_threshold_bytes",
        mac.rts_threshold,
        dflt(&|b| b.mac.rts_threshold.into()),
        "bytes",
        &prof,
    );
    rows.add(
        "radio.short_retry_limit",
        mac.short_retry_limit,
        dflt(&|b| b.mac.short_retry_limit.into()),
        "",
        &prof,
    );
    rows.add(
        "radio.long_retry_limit",
        mac.long_retry_limit,
        dflt(&|b| b.mac.long_retry_limit.into()),
        "",
        &prof,
    );
    rows.add(
        "radio.retry_accounting",
        retry_accounting(mac.retry_accounting),
        dflt(&|b| retry_accounting(b.mac.retry_accounting).into()),
        "",
        &prof,
    );
    rows.add(
        "radio.timing",
        mac_timing(mac.timing),
        dflt(&|b| mac_timing(b.mac.timing).into()),
        "",
        &prof,
    );
    rows.add(
        "radio.queue_limit_packets",
        mac.queue_limit,
        dflt(&|b| b.mac.queue_limit.into()),
        "packets",
        &prof,
    );
    rows.add(
        "radio.cw_min",
        mac.cw_min,
        dflt(&|b| b.mac.cw_min.into()),
        "slots",
        &prof,
    );
    rows.add(
        "radio.cw_max",
        mac.cw_max,
        dflt(&|b| b.mac.cw_max.into()),
        "slots",
        &prof,
    );
    // Only DSSS/HR-DSSS frames have a choice of PLCP preamble.
    if mac.standard != PhyStandard::Ofdm {
        rows.add(
            "radio.preamble",
            preamble(mac.preamble),
            dflt(&|b| preamble(b.mac.preamble).into()),
            "",
            &prof,
        );
    }
    rows.add(
        "radio.tx_power",
        r.tx_power_w,
        dflt(&|b| b.tx_power_w.into()),
        "W",
        &prof,
    );
    // The geometry of the Friis-based models; log-distance does not use it. A value the
    // scenario gives is shown as given (the conversions to Hz and to a ratio are not exact).
    if let Some(g) = geometry(&r.propagation) {
        let bg = |f: &dyn Fn(&RadioGeometry) -> f64| {
            base.as_ref()
                .and_then(|b| geometry(&b.propagation))
                .map_or(Value::Null, |g| f(g).into())
        };
        rows.add(
            "radio.frequency_mhz",
            spec.frequency_mhz.unwrap_or(g.frequency_hz / 1e6),
            bg(&|g| g.frequency_hz / 1e6),
            "MHz",
            &prof,
        );
        rows.add(
            "radio.antenna_height_m",
            spec.antenna_height_m.unwrap_or(g.antenna_height_m),
            bg(&|g| g.antenna_height_m),
            "m",
            &prof,
        );
        rows.add(
            "radio.system_loss_db",
            spec.system_loss_db.unwrap_or(ratio_to_db(g.system_loss)),
            bg(&|g| ratio_to_db(g.system_loss)),
            "dB",
            &prof,
        );
    }
    reception(rows, &spec, &r, pure.as_ref(), base.as_ref(), &prof);
    propagation(rows, &spec, &r, pure.as_ref(), base.as_ref(), &prof);
    frame_error(rows, &r.frame_error, r.frame_error_unit);
}

/// The reception model and its parameters. A parameter of the profile's own model comes from
/// the profile; one of a model the scenario chose instead has the model's default.
fn reception(
    rows: &mut Rows<'_>,
    spec: &RadioSpec,
    r: &RadioParams,
    pure: Option<&RadioParams>,
    base: Option<&RadioParams>,
    prof: &str,
) {
    let kind = reception_name(&r.reception);
    let own = pure.is_some_and(|p| reception_name(&p.reception) == kind);
    let fallback = if own { prof } else { SOURCE_DEFAULT };
    rows.add(
        "radio.reception",
        kind,
        pure.map_or(Value::Null, |p| reception_name(&p.reception).into()),
        "",
        prof,
    );
    let b = base.map(|b| &b.reception);
    match &r.reception {
        ReceptionParams::Threshold(t) => {
            let bt = match b {
                Some(ReceptionParams::Threshold(t)) => Some(t),
                _ => None,
            };
            let bv = |f: &dyn Fn(&sctpsim_world::reception::ThresholdReception) -> Value| {
                bt.map_or(Value::Null, f)
            };
            rows.add(
                "radio.rx_thresh",
                t.rx_thresh_w,
                bv(&|t| t.rx_thresh_w.into()),
                "W",
                fallback,
            );
            // Threshold reception senses every frame it can decode: min(CSThresh, RXThresh).
            rows.add(
                "radio.cs_thresh",
                t.cs_thresh_w,
                bv(&|t| t.cs_thresh_w.into()),
                "W",
                fallback,
            );
            rows.add(
                "radio.cp_thresh_db",
                spec.cp_thresh_db.unwrap_or(ratio_to_db(t.cp_thresh)),
                bv(&|t| ratio_to_db(t.cp_thresh).into()),
                "dB",
                fallback,
            );
            rows.add(
                "radio.new_frame_capture",
                t.new_frame_capture,
                bv(&|t| t.new_frame_capture.into()),
                "",
                fallback,
            );
        }
        ReceptionParams::Sinr {
            model,
            rx_thresh_w,
            cca_w,
        } => {
            let bs = match b {
                Some(ReceptionParams::Sinr {
                    model,
                    rx_thresh_w,
                    cca_w,
                }) => Some((model.noise_figure_db, *rx_thresh_w, *cca_w)),
                _ => None,
            };
            let bv = |f: fn((f64, f64, f64)) -> f64| bs.map_or(Value::Null, |x| f(x).into());
            rows.add("radio.rx_thresh", *rx_thresh_w, bv(|x| x.1), "W", fallback);
            rows.add("radio.cs_thresh", *cca_w, bv(|x| x.2), "W", fallback);
            rows.add(
                "radio.noise_figure_db",
                model.noise_figure_db,
                bv(|x| x.0),
                "dB",
                fallback,
            );
            // Absent from the defaults (no fixed floor, no threshold: ns-3's receiver).
            rows.add(
                "radio.noise_floor",
                model.noise_floor_w.map_or(Value::Null, Value::from),
                Value::Null,
                "W",
                fallback,
            );
            rows.add(
                "radio.snir_threshold_db",
                model
                    .snir_threshold
                    .map_or(Value::Null, |t| Value::from(10.0 * t.log10())),
                Value::Null,
                "dB",
                fallback,
            );
        }
    }
    rows.add(
        "radio.interference_cutoff",
        r.cutoff_w,
        base.map_or(Value::Null, |b| b.cutoff_w.into()),
        "W",
        fallback,
    );
}

/// The propagation model and its parameters (from the profile when the scenario has no
/// `[radio.propagation]`, else the chosen model's defaults).
fn propagation(
    rows: &mut Rows<'_>,
    spec: &RadioSpec,
    r: &RadioParams,
    pure: Option<&RadioParams>,
    base: Option<&RadioParams>,
    prof: &str,
) {
    let fallback = if spec.propagation.is_none() {
        prof
    } else {
        SOURCE_DEFAULT
    };
    rows.add(
        "radio.propagation.model",
        propagation_name(&r.propagation),
        pure.map_or(Value::Null, |p| propagation_name(&p.propagation).into()),
        "",
        prof,
    );
    let b = base.map(|b| &b.propagation);
    let p = "radio.propagation";
    match &r.propagation {
        PropagationModel::LogDistance(m) => {
            let bm = match b {
                Some(PropagationModel::LogDistance(m)) => Some(m),
                _ => None,
            };
            let bv = |f: fn(&sctpsim_world::propagation::LogDistance) -> f64| {
                bm.map_or(Value::Null, |m| f(m).into())
            };
            rows.add(
                format!("{p}.exponent"),
                m.exponent,
                bv(|m| m.exponent),
                "",
                fallback,
            );
            rows.add(
                format!("{p}.reference_distance_m"),
                m.reference_distance_m,
                bv(|m| m.reference_distance_m),
                "m",
                fallback,
            );
            rows.add(
                format!("{p}.reference_loss_db"),
                m.reference_loss_db,
                bv(|m| m.reference_loss_db),
                "dB",
                fallback,
            );
        }
        PropagationModel::Shadowing(m) => {
            let bm = match b {
                Some(PropagationModel::Shadowing(m)) => Some(m),
                _ => None,
            };
            let bv = |f: fn(&sctpsim_world::propagation::Shadowing) -> f64| {
                bm.map_or(Value::Null, |m| f(m).into())
            };
            rows.add(
                format!("{p}.exponent"),
                m.path_loss_exponent,
                bv(|m| m.path_loss_exponent),
                "",
                fallback,
            );
            rows.add(
                format!("{p}.reference_distance_m"),
                m.reference_distance_m,
                bv(|m| m.reference_distance_m),
                "m",
                fallback,
            );
            rows.add(
                format!("{p}.std_db"),
                m.std_db,
                bv(|m| m.std_db),
                "dB",
                fallback,
            );
        }
        PropagationModel::FreeSpace(_) | PropagationModel::TwoRayGround(_) => {}
    }
}

fn frame_error(rows: &mut Rows<'_>, fe: &FrameErrorVsDistance, unit: FrameErrorUnit) {
    let d = SOURCE_DEFAULT;
    let p = "radio.frame_error";
    match fe {
        FrameErrorVsDistance::None => {
            rows.add(format!("{p}.model"), Value::Null, Value::Null, "", d);
        }
        FrameErrorVsDistance::PiecewiseLinear(points) => {
            rows.add(format!("{p}.model"), "distance-linear", Value::Null, "", d);
            let pts: Vec<Vec<f64>> = points.iter().map(|(x, y)| vec![*x, *y]).collect();
            rows.add(format!("{p}.points"), pts, Value::Null, "", d);
        }
        FrameErrorVsDistance::Exponential { p0, d0_m, max_p } => {
            rows.add(
                format!("{p}.model"),
                "distance-exponential",
                Value::Null,
                "",
                d,
            );
            rows.add(format!("{p}.p0"), *p0, Value::Null, "", d);
            rows.add(format!("{p}.d0_m"), *d0_m, Value::Null, "m", d);
            rows.add(
                format!("{p}.max_p"),
                *max_p,
                DEFAULT_FRAME_ERROR_MAX_P,
                "",
                d,
            );
        }
    }
    if *fe == FrameErrorVsDistance::None {
        return;
    }
    let (name, reference, ref_unit): (&str, Value, &str) = match unit {
        FrameErrorUnit::Frame => ("frame", Value::Null, ""),
        FrameErrorUnit::Bytes { reference_bytes } => ("byte", reference_bytes.into(), "bytes"),
        FrameErrorUnit::Airtime { reference_ns } => ("airtime", (reference_ns / 1e9).into(), "s"),
    };
    rows.add(format!("{p}.unit"), name, "frame", "", d);
    match unit {
        FrameErrorUnit::Frame => {}
        FrameErrorUnit::Bytes { .. } => rows.add(
            format!("{p}.reference_bytes"),
            reference,
            Value::Null,
            ref_unit,
            d,
        ),
        FrameErrorUnit::Airtime { .. } => rows.add(
            format!("{p}.reference_airtime"),
            reference,
            Value::Null,
            ref_unit,
            d,
        ),
    }
}

/// `[mobility]` for the `driven` wireless nodes without `position_m`: the model and the fields
/// it uses, with the defaults `wireless::mobility::build_motion` applies.
fn mobility(rows: &mut Rows<'_>, m: &MobilitySpec, driven: usize) {
    let d = SOURCE_DEFAULT;
    let p = "mobility";
    rows.add(format!("{p}.model"), name(&m.model), "static", "", d);
    let traced = matches!(m.model, MobilityKind::Setdest | MobilityKind::Bonnmotion);
    rows.add(
        format!("{p}.area_m"),
        opt(m.area_m.map(|a| a.to_vec())),
        Value::Null,
        "m",
        d,
    );
    if !traced {
        // Uniform placement in `area_m` unless another is given (the random models start
        // uniformly in their area).
        let placement = m.placement.or(m.area_m.map(|_| PlacementKind::Uniform));
        rows.add(
            format!("{p}.placement"),
            opt(placement.map(|k| name(&k))),
            Value::Null,
            "",
            d,
        );
        match placement {
            Some(PlacementKind::Line) => {
                rows.add(
                    format!("{p}.spacing_m"),
                    opt(m.spacing_m),
                    Value::Null,
                    "m",
                    d,
                );
            }
            Some(PlacementKind::Grid) => {
                rows.add(
                    format!("{p}.spacing_m"),
                    opt(m.spacing_m),
                    Value::Null,
                    "m",
                    d,
                );
                // ⌈√n⌉ columns unless given (`placement` in wireless/mobility.rs).
                let auto = (driven as f64).sqrt().ceil().max(1.0) as u32;
                rows.add(
                    format!("{p}.columns"),
                    m.columns.unwrap_or(auto),
                    auto,
                    "",
                    d,
                );
            }
            Some(PlacementKind::Ring) => {
                rows.add(
                    format!("{p}.radius_m"),
                    opt(m.radius_m),
                    Value::Null,
                    "m",
                    d,
                );
            }
            Some(PlacementKind::Positions) => {
                rows.add(
                    format!("{p}.positions_m"),
                    opt(m.positions_m.clone()),
                    Value::Null,
                    "m",
                    d,
                );
            }
            Some(PlacementKind::Uniform) | None => {}
        }
    }
    let speed = |rows: &mut Rows<'_>| {
        rows.add(
            format!("{p}.speed_mps.min"),
            opt(m.speed_mps.map(|s| s.min)),
            Value::Null,
            "m/s",
            d,
        );
        rows.add(
            format!("{p}.speed_mps.max"),
            opt(m.speed_mps.map(|s| s.max)),
            Value::Null,
            "m/s",
            d,
        );
    };
    // The zeros below are the absent fields' meaning in `build_motion` (no pause, no random
    // term, no margin) rather than tunable defaults.
    match m.model {
        MobilityKind::Static => {}
        MobilityKind::Waypoints => {
            for (j, w) in m.waypoints.iter().enumerate() {
                let q = format!("{p}.waypoints[{j}]");
                rows.add(format!("{q}.node"), w.node.clone(), Value::Null, "", d);
                let times: Vec<f64> = w.times.iter().map(|t| t.0.as_secs_f64()).collect();
                rows.add(format!("{q}.times"), times, Value::Null, "s", d);
                rows.add(
                    format!("{q}.positions_m"),
                    w.positions_m.clone(),
                    Value::Null,
                    "m",
                    d,
                );
            }
        }
        MobilityKind::ConstantVelocity => {
            rows.add(
                format!("{p}.velocity_mps"),
                opt(m.velocity_mps.map(|v| v.to_vec())),
                Value::Null,
                "m/s",
                d,
            );
            rows.add(
                format!("{p}.start"),
                m.start.map_or(0.0, |s| s.0.as_secs_f64()),
                0.0,
                "s",
                d,
            );
            rows.add(format!("{p}.stop"), opt_secs(m.stop), Value::Null, "s", d);
        }
        MobilityKind::RandomWaypoint => {
            speed(rows);
            rows.add(
                format!("{p}.pause"),
                m.pause.map_or(0.0, |s| s.0.as_secs_f64()),
                0.0,
                "s",
                d,
            );
            rows.add(
                format!("{p}.steady_state"),
                m.steady_state.unwrap_or(false),
                false,
                "",
                d,
            );
        }
        MobilityKind::RandomWalk => {
            speed(rows);
            let interval = match m.change_distance_m {
                Some(_) => Value::Null,
                None => secs(m.change_interval.map_or(DEFAULT_CHANGE_INTERVAL, |i| i.0)),
            };
            rows.add(
                format!("{p}.change_interval"),
                interval,
                secs(DEFAULT_CHANGE_INTERVAL),
                "s",
                d,
            );
            rows.add(
                format!("{p}.change_distance_m"),
                opt(m.change_distance_m),
                Value::Null,
                "m",
                d,
            );
            rows.add(
                format!("{p}.max_turn_deg"),
                opt(m.max_turn_deg),
                Value::Null,
                "deg",
                d,
            );
            rows.add(
                format!("{p}.turn_sd_deg"),
                opt(m.turn_sd_deg),
                Value::Null,
                "deg",
                d,
            );
            rows.add(
                format!("{p}.change_interval_sd"),
                opt_secs(m.change_interval_sd),
                Value::Null,
                "s",
                d,
            );
        }
        MobilityKind::Mass => {
            speed(rows);
            rows.add(
                format!("{p}.change_interval"),
                secs(m.change_interval.map_or(MASS_CHANGE_INTERVAL, |i| i.0)),
                secs(MASS_CHANGE_INTERVAL),
                "s",
                d,
            );
            rows.add(
                format!("{p}.change_interval_sd"),
                secs(
                    m.change_interval_sd
                        .map_or(MASS_CHANGE_INTERVAL_SD, |i| i.0),
                ),
                secs(MASS_CHANGE_INTERVAL_SD),
                "s",
                d,
            );
            rows.add(
                format!("{p}.turn_sd_deg"),
                m.turn_sd_deg.unwrap_or(MASS_TURN_SD_DEG),
                MASS_TURN_SD_DEG,
                "deg",
                d,
            );
        }
        MobilityKind::GaussMarkov => {
            rows.add(format!("{p}.alpha"), opt(m.alpha), Value::Null, "", d);
            rows.add(
                format!("{p}.mean_speed_mps"),
                opt(m.mean_speed_mps),
                Value::Null,
                "m/s",
                d,
            );
            rows.add(
                format!("{p}.speed_std_mps"),
                m.speed_std_mps.unwrap_or(0.0),
                0.0,
                "m/s",
                d,
            );
            rows.add(
                format!("{p}.max_speed_mps"),
                opt(m.max_speed_mps),
                Value::Null,
                "m/s",
                d,
            );
            rows.add(
                format!("{p}.mean_direction_deg"),
                opt(m.mean_direction_deg),
                Value::Null,
                "deg",
                d,
            );
            rows.add(
                format!("{p}.direction_std_deg"),
                m.direction_std_deg.unwrap_or(0.0),
                0.0,
                "deg",
                d,
            );
            rows.add(
                format!("{p}.update_interval"),
                secs(m.update_interval.map_or(DEFAULT_UPDATE_INTERVAL, |i| i.0)),
                secs(DEFAULT_UPDATE_INTERVAL),
                "s",
                d,
            );
            rows.add(
                format!("{p}.edge_margin_m"),
                m.edge_margin_m.unwrap_or(0.0),
                0.0,
                "m",
                d,
            );
        }
        MobilityKind::Setdest | MobilityKind::Bonnmotion => {
            if let Some(f) = &m.file {
                rows.add(format!("{p}.file"), f.clone(), Value::Null, "", d);
            }
            if let Some(t) = &m.text {
                // The trace itself is in the scenario text (run.json keeps it); its size is
                // what helps here.
                rows.add(
                    format!("{p}.text"),
                    format!("({} bytes, {} lines)", t.len(), t.lines().count()),
                    Value::Null,
                    "",
                    d,
                );
            }
            if m.model == MobilityKind::Bonnmotion {
                rows.add(format!("{p}.dims"), m.dims.unwrap_or(2), 2, "", d);
            }
        }
    }
}

/// `[routing]`: the protocol and, for an ad hoc one, the settings its router is built with.
fn routing(rows: &mut Rows<'_>, s: &Scenario) {
    let d = SOURCE_DEFAULT;
    let spec = s.routing.clone().unwrap_or_default();
    rows.add("routing.protocol", name(&spec.protocol), "static", "", d);
    match spec.protocol {
        RoutingKind::Static => {}
        RoutingKind::Dsr => {
            // `default` is the profile's value; rows the profile sets name it as their source.
            let profile = spec.dsr.as_ref().map(|x| x.profile).unwrap_or_default();
            let only_profile = crate::scenario::DsrSpec {
                profile,
                ..Default::default()
            };
            let (c, b) = (
                dsr_config(spec.dsr.as_ref()),
                dsr_config(Some(&only_profile)),
            );
            let p = "routing.dsr";
            rows.add(format!("{p}.profile"), profile.name(), "rfc4728", "", d);
            let prof = format!("profile {}", profile.name());
            let d = if profile == DsrProfileKind::Rfc4728 {
                d
            } else {
                prof.as_str()
            };
            rows.add(
                format!("{p}.reply_from_cache"),
                c.reply_from_cache,
                b.reply_from_cache,
                "",
                d,
            );
            rows.add(
                format!("{p}.nonpropagating_first"),
                c.nonpropagating_first,
                b.nonpropagating_first,
                "",
                d,
            );
            rows.add(
                format!("{p}.route_cache_timeout"),
                secs(c.route_cache_timeout),
                secs(b.route_cache_timeout),
                "s",
                d,
            );
            rows.add(
                format!("{p}.send_buffer_packets"),
                c.send_buffer_size,
                b.send_buffer_size,
                "packets",
                d,
            );
            rows.add(
                format!("{p}.send_buffer_timeout"),
                secs(c.send_buffer_timeout),
                secs(b.send_buffer_timeout),
                "s",
                d,
            );
            rows.add(
                format!("{p}.max_routes_per_dest"),
                c.max_routes_per_dest,
                b.max_routes_per_dest,
                "routes",
                d,
            );
            rows.add(format!("{p}.tap"), c.tap, b.tap, "", d);
            rows.add(
                format!("{p}.gratuitous_replies"),
                c.gratuitous_replies,
                b.gratuitous_replies,
                "",
                d,
            );
            rows.add(
                format!("{p}.grat_hold_down"),
                secs(c.grat_hold_down),
                secs(b.grat_hold_down),
                "s",
                d,
            );
            rows.add(
                format!("{p}.propagate_last_error"),
                c.propagate_last_error,
                b.propagate_last_error,
                "",
                d,
            );
            rows.add(
                format!("{p}.max_err_hold"),
                secs(c.max_err_hold),
                secs(b.max_err_hold),
                "s",
                d,
            );
            rows.add(
                format!("{p}.ns2_request_backoff"),
                c.ns2_request_backoff,
                b.ns2_request_backoff,
                "",
                d,
            );
            rows.add(format!("{p}.salvage"), c.salvage, b.salvage, "", d);
        }
        RoutingKind::Aodv => {
            let profile = spec.aodv.as_ref().map(|x| x.profile).unwrap_or_default();
            let only_profile = crate::scenario::AodvSpec {
                profile,
                ..Default::default()
            };
            let (c, b) = (
                aodv_config(spec.aodv.as_ref()),
                aodv_config(Some(&only_profile)),
            );
            let p = "routing.aodv";
            rows.add(format!("{p}.profile"), profile.name(), "rfc3561", "", d);
            let prof = format!("profile {}", profile.name());
            let d = if profile == AodvProfileKind::Rfc3561 {
                d
            } else {
                prof.as_str()
            };
            rows.add(
                format!("{p}.hello"),
                c.hello_enabled,
                b.hello_enabled,
                "",
                d,
            );
            rows.add(
                format!("{p}.hello_interval"),
                secs(c.hello_interval),
                secs(b.hello_interval),
                "s",
                d,
            );
            rows.add(
                format!("{p}.local_repair"),
                c.local_repair,
                b.local_repair,
                "",
                d,
            );
            rows.add(
                format!("{p}.expanding_ring"),
                c.expanding_ring,
                b.expanding_ring,
                "",
                d,
            );
            rows.add(
                format!("{p}.active_route_timeout"),
                secs(c.active_route_timeout),
                secs(b.active_route_timeout),
                "s",
                d,
            );
            rows.add(
                format!("{p}.send_buffer_packets"),
                c.send_buffer_capacity,
                b.send_buffer_capacity,
                "packets",
                d,
            );
            rows.add(
                format!("{p}.send_buffer_timeout"),
                secs(c.send_buffer_timeout),
                secs(b.send_buffer_timeout),
                "s",
                d,
            );
            rows.add(
                format!("{p}.my_route_timeout"),
                secs(c.my_route_timeout()),
                secs(b.my_route_timeout()),
                "s",
                d,
            );
            rows.add(
                format!("{p}.rreq_id_hold"),
                secs(c.path_discovery_time()),
                secs(b.path_discovery_time()),
                "s",
                d,
            );
            rows.add(
                format!("{p}.rreq_retries"),
                c.rreq_retries,
                b.rreq_retries,
                "",
                d,
            );
            rows.add(
                format!("{p}.ttl_start"),
                c.ttl_start,
                b.ttl_start,
                "hops",
                d,
            );
            rows.add(
                format!("{p}.net_diameter"),
                c.net_diameter,
                b.net_diameter,
                "hops",
                d,
            );
            rows.add(
                format!("{p}.node_traversal_time"),
                secs(c.node_traversal_time),
                secs(b.node_traversal_time),
                "s",
                d,
            );
            rows.add(
                format!("{p}.ns2_local_repair"),
                c.ns2_local_repair,
                b.ns2_local_repair,
                "",
                d,
            );
            rows.add(
                format!("{p}.rebuffer_on_link_failure"),
                c.rebuffer_on_link_failure,
                b.rebuffer_on_link_failure,
                "",
                d,
            );
        }
        RoutingKind::Olsr => {
            let (c, b) = (olsr_config(spec.olsr.as_ref()), olsr_config(None));
            let p = "routing.olsr";
            rows.add(
                format!("{p}.hello_interval"),
                secs(c.hello_interval),
                secs(b.hello_interval),
                "s",
                d,
            );
            rows.add(
                format!("{p}.tc_interval"),
                secs(c.tc_interval),
                secs(b.tc_interval),
                "s",
                d,
            );
            rows.add(
                format!("{p}.link_layer_notification"),
                c.link_layer_notification,
                b.link_layer_notification,
                "",
                d,
            );
            rows.add(
                format!("{p}.willingness"),
                c.willingness,
                b.willingness,
                "",
                d,
            );
        }
        RoutingKind::Dsdv => {
            let (c, b) = (dsdv_config(spec.dsdv.as_ref()), dsdv_config(None));
            let p = "routing.dsdv";
            let dur = [
                (
                    "periodic_update_interval",
                    c.periodic_update_interval,
                    b.periodic_update_interval,
                ),
                ("settling_time", c.settling_time, b.settling_time),
                (
                    "send_buffer_timeout",
                    c.send_buffer_timeout,
                    b.send_buffer_timeout,
                ),
                (
                    "route_aggregation_time",
                    c.route_aggregation_time,
                    b.route_aggregation_time,
                ),
            ];
            for (name, v, def) in dur {
                rows.add(format!("{p}.{name}"), secs(v), secs(def), "s", d);
            }
            rows.add(
                format!("{p}.holdtimes"),
                c.holdtimes,
                b.holdtimes,
                "intervals",
                d,
            );
            rows.add(
                format!("{p}.weighted_factor"),
                c.weighted_factor,
                b.weighted_factor,
                "",
                d,
            );
            let flags = [
                (
                    "weighted_settling",
                    c.weighted_settling,
                    b.weighted_settling,
                ),
                ("buffering", c.buffering, b.buffering),
                (
                    "route_aggregation",
                    c.route_aggregation,
                    b.route_aggregation,
                ),
                (
                    "link_layer_feedback",
                    c.link_layer_feedback,
                    b.link_layer_feedback,
                ),
            ];
            for (name, v, def) in flags {
                rows.add(format!("{p}.{name}"), v, def, "", d);
            }
            rows.add(
                format!("{p}.send_buffer_packets"),
                c.send_buffer_packets,
                b.send_buffer_packets,
                "packets",
                d,
            );
            rows.add(
                format!("{p}.send_buffer_packets_per_dst"),
                c.send_buffer_packets_per_dst,
                b.send_buffer_packets_per_dst,
                "packets",
                d,
            );
        }
    }
}

fn beacons(rows: &mut Rows<'_>, s: &Scenario) {
    let Some(b) = &s.beacons else { return };
    let d = SOURCE_DEFAULT;
    let p = "beacons";
    rows.add(
        format!("{p}.interval.min"),
        secs(b.interval.min.0),
        Value::Null,
        "s",
        d,
    );
    rows.add(
        format!("{p}.interval.max"),
        secs(b.interval.max.0),
        Value::Null,
        "s",
        d,
    );
    rows.add(
        format!("{p}.payload_bytes"),
        b.payload_bytes,
        crate::scenario::schema_wireless::default_beacon_payload(),
        "bytes",
        d,
    );
    rows.add(
        format!("{p}.port"),
        b.port,
        crate::scenario::schema_wireless::default_beacon_port(),
        "",
        d,
    );
    rows.add(format!("{p}.start"), secs(b.start.0), 0.0, "s", d);
    rows.add(format!("{p}.stop"), opt_secs(b.stop), Value::Null, "s", d);
}
