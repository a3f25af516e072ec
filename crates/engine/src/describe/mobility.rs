//! The described fields of each `[mobility]` model, with the values `scenario::mobility`'s
//! `build_motion` gives absent fields. A field's default is its value in a `[mobility]` that
//! names only the model. The placement, the waypoints and the trace files are listed by
//! `params` itself (their rows depend on the node count or repeat per entry).

use super::{opt, secs, Param};
use crate::scenario::mobility::{
    DEFAULT_CHANGE_INTERVAL, DEFAULT_UPDATE_INTERVAL, MASS_CHANGE_INTERVAL,
    MASS_CHANGE_INTERVAL_SD, MASS_TURN_SD_DEG,
};
use crate::scenario::{MobilityKind, MobilitySpec};
use serde_json::Value;

fn opt_secs(d: Option<crate::scenario::Duration>) -> Value {
    d.map_or(Value::Null, |d| secs(d.0))
}

/// `speed_mps = { min, max }` of the random models.
const SPEED: [Param<MobilitySpec>; 2] = [
    Param {
        field: "speed_mps.min",
        unit: "m/s",
        get: |m| opt(m.speed_mps.map(|s| s.min)),
        doc: "lowest speed of a leg",
    },
    Param {
        field: "speed_mps.max",
        unit: "m/s",
        get: |m| opt(m.speed_mps.map(|s| s.max)),
        doc: "highest speed of a leg",
    },
];

// The zeros below are the absent fields' meaning in `build_motion` (no pause, no random
// term, no margin) rather than tunable defaults.

const CONSTANT_VELOCITY: &[Param<MobilitySpec>] = &[
    Param {
        field: "velocity_mps",
        unit: "m/s",
        get: |m| opt(m.velocity_mps.map(|v| v.to_vec())),
        doc: "velocity [vx, vy]",
    },
    Param {
        field: "start",
        unit: "s",
        get: |m| m.start.map_or(0.0, |s| s.0.as_secs_f64()).into(),
        doc: "when the motion starts",
    },
    Param {
        field: "stop",
        unit: "s",
        get: |m| opt_secs(m.stop),
        doc: "when it stops; null: never",
    },
];

const RANDOM_WAYPOINT: &[Param<MobilitySpec>] = &[
    SPEED[0],
    SPEED[1],
    Param {
        field: "pause",
        unit: "s",
        get: |m| m.pause.map_or(0.0, |s| s.0.as_secs_f64()).into(),
        doc: "pause at each destination",
    },
    Param {
        field: "steady_state",
        unit: "",
        get: |m| m.steady_state.unwrap_or(false).into(),
        doc: "start from the stationary distribution",
    },
];

const RANDOM_WALK: &[Param<MobilitySpec>] = &[
    SPEED[0],
    SPEED[1],
    Param {
        field: "change_interval",
        unit: "s",
        get: |m| match m.change_distance_m {
            Some(_) => Value::Null,
            None => secs(m.change_interval.map_or(DEFAULT_CHANGE_INTERVAL, |i| i.0)),
        },
        doc: "time between changes of speed and heading (ns-3 RandomWalk2dMobilityModel::Time: \
              1 s); null when change_distance_m is given",
    },
    Param {
        field: "change_distance_m",
        unit: "m",
        get: |m| opt(m.change_distance_m),
        doc: "distance between changes (instead of change_interval)",
    },
    Param {
        field: "max_turn_deg",
        unit: "deg",
        get: |m| opt(m.max_turn_deg),
        doc: "largest turn per change; null: any new heading",
    },
    Param {
        field: "turn_sd_deg",
        unit: "deg",
        get: |m| opt(m.turn_sd_deg),
        doc: "standard deviation of a normally distributed turn per change",
    },
    Param {
        field: "change_interval_sd",
        unit: "s",
        get: |m| opt_secs(m.change_interval_sd),
        doc: "standard deviation of the time between changes",
    },
];

const MASS: &[Param<MobilitySpec>] = &[
    SPEED[0],
    SPEED[1],
    Param {
        field: "change_interval",
        unit: "s",
        get: |m| secs(m.change_interval.map_or(MASS_CHANGE_INTERVAL, |i| i.0)),
        doc: "mean time between changes (INET's examples: truncnormal(2s, 0.5s))",
    },
    Param {
        field: "change_interval_sd",
        unit: "s",
        get: |m| {
            secs(
                m.change_interval_sd
                    .map_or(MASS_CHANGE_INTERVAL_SD, |i| i.0),
            )
        },
        doc: "its standard deviation (INET's examples: 0.5 s)",
    },
    Param {
        field: "turn_sd_deg",
        unit: "deg",
        get: |m| m.turn_sd_deg.unwrap_or(MASS_TURN_SD_DEG).into(),
        doc: "standard deviation of the turn (INET's examples: normal(0deg, 30deg))",
    },
];

const GAUSS_MARKOV: &[Param<MobilitySpec>] = &[
    Param {
        field: "alpha",
        unit: "",
        get: |m| opt(m.alpha),
        doc: "memory α in [0, 1]",
    },
    Param {
        field: "mean_speed_mps",
        unit: "m/s",
        get: |m| opt(m.mean_speed_mps),
        doc: "mean speed",
    },
    Param {
        field: "speed_std_mps",
        unit: "m/s",
        get: |m| m.speed_std_mps.unwrap_or(0.0).into(),
        doc: "standard deviation of the speed's random term",
    },
    Param {
        field: "max_speed_mps",
        unit: "m/s",
        get: |m| opt(m.max_speed_mps),
        doc: "speed cap; null: none",
    },
    Param {
        field: "mean_direction_deg",
        unit: "deg",
        get: |m| opt(m.mean_direction_deg),
        doc: "mean direction, degrees from east; null: uniform per node",
    },
    Param {
        field: "direction_std_deg",
        unit: "deg",
        get: |m| m.direction_std_deg.unwrap_or(0.0).into(),
        doc: "standard deviation of the direction's random term",
    },
    Param {
        field: "update_interval",
        unit: "s",
        get: |m| secs(m.update_interval.map_or(DEFAULT_UPDATE_INTERVAL, |i| i.0)),
        doc: "time between updates (ns-3 GaussMarkovMobilityModel::TimeStep: 1 s)",
    },
    Param {
        field: "edge_margin_m",
        unit: "m",
        get: |m| m.edge_margin_m.unwrap_or(0.0).into(),
        doc: "distance from an edge at which the mean direction turns to the centre",
    },
];

/// The fields of `model` this module describes (none for the placement-only and trace
/// models).
pub fn model_params(model: MobilityKind) -> &'static [Param<MobilitySpec>] {
    match model {
        MobilityKind::ConstantVelocity => CONSTANT_VELOCITY,
        MobilityKind::RandomWaypoint => RANDOM_WAYPOINT,
        MobilityKind::RandomWalk => RANDOM_WALK,
        MobilityKind::Mass => MASS,
        MobilityKind::GaussMarkov => GAUSS_MARKOV,
        MobilityKind::Static
        | MobilityKind::Waypoints
        | MobilityKind::Setdest
        | MobilityKind::Bonnmotion => &[],
    }
}

/// The described fields of `m`'s model, with the values of a `[mobility]` that names only
/// the model as defaults.
pub fn resolve_mobility(m: &MobilitySpec) -> Vec<super::Resolved> {
    let bare = MobilitySpec {
        model: m.model,
        ..MobilitySpec::default()
    };
    model_params(m.model)
        .iter()
        .map(|p| super::Resolved {
            field: p.field,
            unit: p.unit,
            value: (p.get)(m),
            default: (p.get)(&bare),
            doc: p.doc,
        })
        .collect()
}
