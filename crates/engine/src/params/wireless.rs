//! The wireless rows of `sctpsim show`: a wireless node's 802.11 role, `[radio]` after its
//! profile (`RadioParams::from_spec`), `[nodes]`, `[mobility]`, `[routing]` and `[beacons]`.

use super::{name, opt, opt_secs, secs, Rows, SOURCE_DEFAULT};
use crate::describe::mobility::resolve_mobility;
use crate::describe::radio::{preamble, rate};
use crate::describe::resolve_or_null;
use crate::scenario::check_wireless::has_wireless;
use crate::scenario::radio::{
    profile_name, RadioParams, ReceptionParams, DEFAULT_FRAME_ERROR_MAX_P,
};
use crate::scenario::{
    MobilityKind, MobilitySpec, PlacementKind, PropagationSpec, RadioProfileKind, RadioSpec,
    Scenario,
};
use crate::wireless::infra::mac_role;
use sctpsim_proto::mac::{ApConfig, MacRole, PhyStandard, StaConfig};
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
    let base_mac = base.as_ref().map(|b| &b.mac);
    for p in resolve_or_null(mac, base_mac) {
        rows.add(
            format!("radio.{}", p.field),
            p.value,
            p.default,
            p.unit,
            &prof,
        );
    }
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
    let params = match (&r.propagation, b) {
        (PropagationModel::LogDistance(m), Some(PropagationModel::LogDistance(d))) => {
            resolve_or_null(m, Some(d))
        }
        (PropagationModel::LogDistance(m), _) => resolve_or_null(m, None),
        (PropagationModel::Shadowing(m), Some(PropagationModel::Shadowing(d))) => {
            resolve_or_null(m, Some(d))
        }
        (PropagationModel::Shadowing(m), _) => resolve_or_null(m, None),
        (PropagationModel::FreeSpace(_) | PropagationModel::TwoRayGround(_), _) => Vec::new(),
    };
    for x in params {
        rows.add(
            format!("{p}.{}", x.field),
            x.value,
            x.default,
            x.unit,
            fallback,
        );
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
/// it uses, with the defaults `scenario::mobility::build_motion` applies.
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
                // ⌈√n⌉ columns unless given (`placement` in scenario/mobility.rs).
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
    for x in resolve_mobility(m) {
        rows.add(format!("{p}.{}", x.field), x.value, x.default, x.unit, d);
    }
    match m.model {
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
        _ => {}
    }
}

/// `[routing]`: the protocol and, for an ad hoc one, the settings its router is built with
/// (its descriptor's rows, `crate::routing_protocols`). The rows a non-default profile sets
/// name it as their source; `default` is the profile's value.
fn routing(rows: &mut Rows<'_>, s: &Scenario) {
    let d = SOURCE_DEFAULT;
    let spec = s.routing.clone().unwrap_or_default();
    rows.add("routing.protocol", name(&spec.protocol), "static", "", d);
    let Some(proto) = crate::routing_protocols::protocol(spec.protocol) else {
        return;
    };
    let section = (proto.params)(&spec);
    let p = format!("routing.{}", proto.name);
    let mut source = d.to_string();
    if let Some(prof) = section.profile {
        rows.add(format!("{p}.profile"), prof.name, prof.default, "", d);
        if prof.name != prof.default {
            source = format!("profile {}", prof.name);
        }
    }
    for r in section.params {
        rows.add(
            format!("{p}.{}", r.field),
            r.value,
            r.default,
            r.unit,
            &source,
        );
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
