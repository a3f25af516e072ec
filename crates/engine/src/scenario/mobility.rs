//! From `[mobility]` and the wireless nodes of a scenario to one [`Motion`] per wireless node.
//!
//! A wireless `[[node]]` with `position_m` stands there. Every other wireless node (those of
//! `[nodes]`, and `[[node]]` entries with `wireless = true` but no position) follows
//! `[mobility]`; the i-th of them, in node order, is node `i` of the placement, of an ns-2
//! movement file (`$node_(i)`) and of a BonnMotion trace (line i).
//!
//! Random streams (stable keys, DESIGN.md §1.3): `("placement", node)` for uniform placement,
//! `("mobility", node)` for the random models — `node` being the index in the scenario's node
//! list.

use crate::scenario::{MobilityKind, MobilitySpec, PlacementKind, Scenario, ScenarioError};
use sctpsim_kernel::{SeedTree, SimDuration, SimTime, StreamKey};
use sctpsim_world::mobility::{
    parse_bonnmotion, parse_setdest_for, ChangeTrigger, Dims, DurationDist, GaussMarkov,
    GaussMarkovParams, Mobility, RandomWalk, RandomWalkParams, RandomWaypoint,
    RandomWaypointParams, Turn, Waypoint,
};
use sctpsim_world::{Area, MobilityModel, ParamError, Position, Trajectory, Velocity};

/// Where a radio is.
#[derive(Clone, Debug)]
pub enum Motion {
    /// It never moves.
    Static(Position),
    /// It follows a mobility model.
    Moving(Box<MobilityModel>),
}

impl Motion {
    /// The position at `t`.
    pub fn position(&mut self, t: SimTime) -> Position {
        match self {
            Motion::Static(p) => *p,
            Motion::Moving(m) => m.position(t),
        }
    }
}

/// Random walk: time between changes of speed and heading when neither `change_interval` nor
/// `change_distance_m` is given (ns-3 `RandomWalk2dMobilityModel::Time` default: 1 s).
pub const DEFAULT_CHANGE_INTERVAL: SimDuration = SimDuration::from_secs(1);

/// Mass (INET `MassMobility`): mean time between changes when `change_interval` is not
/// given. `MassMobility.ned` has no defaults; INET's examples (`examples/adhoc/ieee80211/
/// omnetpp.ini`, the IDE's wireless templates) set `changeInterval = truncnormal(2s, 0.5s)`.
pub const MASS_CHANGE_INTERVAL: SimDuration = SimDuration::from_secs(2);

/// Mass: standard deviation of the time between changes (INET's examples: 0.5 s).
pub const MASS_CHANGE_INTERVAL_SD: SimDuration = SimDuration::from_millis(500);

/// Mass: standard deviation of the turn, degrees (INET's examples: `changeAngleBy =
/// normal(0deg, 30deg)`, after Perkins & Wang 1999, quoted in `MassMobility.ned`).
pub const MASS_TURN_SD_DEG: f64 = 30.0;

/// Gauss–Markov: time between updates when `update_interval` is not given (ns-3
/// `GaussMarkovMobilityModel::TimeStep` default: 1 s).
pub const DEFAULT_UPDATE_INTERVAL: SimDuration = SimDuration::from_secs(1);

fn err(field: &str, msg: impl Into<String>) -> ScenarioError {
    ScenarioError::at(format!("mobility.{field}"), msg)
}

fn param(e: ParamError) -> ScenarioError {
    err(e.field, e.message)
}

/// A position from `[x, y]` or `[x, y, z]`.
pub fn position_from(field: &str, v: &[f64]) -> Result<Position, ScenarioError> {
    let p = match v {
        [x, y] => Position::xy(*x, *y),
        [x, y, z] => Position::new(*x, *y, *z),
        _ => {
            return Err(ScenarioError::at(
                field,
                format!(
                    "expected [x, y] or [x, y, z] in metres, got {} numbers",
                    v.len()
                ),
            ))
        }
    };
    if !p.is_finite() {
        return Err(ScenarioError::at(field, "coordinates must be finite"));
    }
    Ok(p)
}

/// The fields set in `m`, by name (to reject those the model does not use).
fn fields_set(m: &MobilitySpec) -> Vec<&'static str> {
    let mut v = Vec::new();
    let mut add = |name: &'static str, set: bool| {
        if set {
            v.push(name)
        }
    };
    add("area_m", m.area_m.is_some());
    add("placement", m.placement.is_some());
    add("spacing_m", m.spacing_m.is_some());
    add("columns", m.columns.is_some());
    add("radius_m", m.radius_m.is_some());
    add("positions_m", m.positions_m.is_some());
    add("speed_mps", m.speed_mps.is_some());
    add("pause", m.pause.is_some());
    add("steady_state", m.steady_state.is_some());
    add("change_interval", m.change_interval.is_some());
    add("change_distance_m", m.change_distance_m.is_some());
    add("max_turn_deg", m.max_turn_deg.is_some());
    add("turn_sd_deg", m.turn_sd_deg.is_some());
    add("change_interval_sd", m.change_interval_sd.is_some());
    add("alpha", m.alpha.is_some());
    add("mean_speed_mps", m.mean_speed_mps.is_some());
    add("speed_std_mps", m.speed_std_mps.is_some());
    add("max_speed_mps", m.max_speed_mps.is_some());
    add("mean_direction_deg", m.mean_direction_deg.is_some());
    add("direction_std_deg", m.direction_std_deg.is_some());
    add("update_interval", m.update_interval.is_some());
    add("edge_margin_m", m.edge_margin_m.is_some());
    add("velocity_mps", m.velocity_mps.is_some());
    add("start", m.start.is_some());
    add("stop", m.stop.is_some());
    add("waypoints", !m.waypoints.is_empty());
    add("file", m.file.is_some());
    add("text", m.text.is_some());
    add("dims", m.dims.is_some());
    v
}

const PLACEMENT: [&str; 6] = [
    "area_m",
    "placement",
    "spacing_m",
    "columns",
    "radius_m",
    "positions_m",
];

fn allowed(model: MobilityKind) -> Vec<&'static str> {
    let mut v: Vec<&str> = PLACEMENT.to_vec();
    v.extend_from_slice(match model {
        MobilityKind::Static => &[],
        MobilityKind::Waypoints => &["waypoints"],
        MobilityKind::ConstantVelocity => &["velocity_mps", "start", "stop"],
        MobilityKind::RandomWaypoint => &["speed_mps", "pause", "steady_state"],
        MobilityKind::RandomWalk => &[
            "speed_mps",
            "change_interval",
            "change_distance_m",
            "max_turn_deg",
            "turn_sd_deg",
            "change_interval_sd",
        ],
        MobilityKind::Mass => &[
            "speed_mps",
            "change_interval",
            "change_interval_sd",
            "turn_sd_deg",
        ],
        MobilityKind::GaussMarkov => &[
            "alpha",
            "mean_speed_mps",
            "speed_std_mps",
            "max_speed_mps",
            "mean_direction_deg",
            "direction_std_deg",
            "update_interval",
            "edge_margin_m",
        ],
        MobilityKind::Setdest => &["file", "text"],
        MobilityKind::Bonnmotion => &["file", "text", "dims"],
    });
    v
}

fn model_name(m: MobilityKind) -> &'static str {
    match m {
        MobilityKind::Static => "static",
        MobilityKind::Waypoints => "waypoints",
        MobilityKind::ConstantVelocity => "constant-velocity",
        MobilityKind::RandomWaypoint => "random-waypoint",
        MobilityKind::RandomWalk => "random-walk",
        MobilityKind::Mass => "mass",
        MobilityKind::GaussMarkov => "gauss-markov",
        MobilityKind::Setdest => "setdest",
        MobilityKind::Bonnmotion => "bonnmotion",
    }
}

/// When a random walk (or mass) node changes speed and heading, and how it turns; errors
/// name the field.
fn walk_change_and_turn(m: &MobilitySpec) -> Result<(ChangeTrigger, Turn), ScenarioError> {
    let mass = m.model == MobilityKind::Mass;
    let interval_sd = match (dur(m.change_interval_sd), mass) {
        (Some(sd), _) => Some(sd),
        (None, true) => Some(MASS_CHANGE_INTERVAL_SD),
        (None, false) => None,
    };
    let mean_interval = dur(m.change_interval).unwrap_or(if mass {
        MASS_CHANGE_INTERVAL
    } else {
        DEFAULT_CHANGE_INTERVAL
    });
    let change = match (m.change_interval, m.change_distance_m) {
        (Some(_), Some(_)) => {
            return Err(err(
                "change_distance_m",
                "give either change_interval or change_distance_m",
            ))
        }
        (_, Some(_)) if m.change_interval_sd.is_some() => {
            return Err(err(
                "change_interval_sd",
                "only with change_interval, not with change_distance_m",
            ))
        }
        (_, Some(d)) => ChangeTrigger::Distance { distance_m: d },
        (_, None) => ChangeTrigger::Interval(match interval_sd {
            Some(sd) => DurationDist::TruncNormal {
                mean: mean_interval,
                sd,
            },
            None => DurationDist::Constant(mean_interval),
        }),
    };
    let sd_deg = m.turn_sd_deg.or(mass.then_some(MASS_TURN_SD_DEG));
    let turn = match (m.max_turn_deg, sd_deg) {
        (Some(_), Some(_)) => {
            return Err(err(
                "turn_sd_deg",
                "give either max_turn_deg (uniform turns) or turn_sd_deg (normal turns)",
            ))
        }
        (Some(d), None) => Turn::UpTo {
            max_rad: d.to_radians(),
        },
        (None, Some(sd)) => {
            if !sd.is_finite() || sd < 0.0 {
                return Err(err(
                    "turn_sd_deg",
                    format!("must be finite and >= 0 degrees, got {sd}"),
                ));
            }
            Turn::Normal {
                sigma_rad: sd.to_radians(),
            }
        }
        (None, None) => Turn::Any,
    };
    Ok((change, turn))
}

/// The trace text of a setdest or BonnMotion model: `text`, or the file `file`.
fn trace_text(m: &MobilitySpec) -> Result<String, ScenarioError> {
    match (&m.file, &m.text) {
        (Some(_), Some(_)) => Err(err("text", "give either file or text, not both")),
        (None, None) => Err(err("file", "required (or give the trace inline as text)")),
        (None, Some(t)) => {
            super::trace_file::check_trace_text(t).map_err(|m| err("text", m))?;
            Ok(t.clone())
        }
        (Some(f), None) => super::trace_file::read_trace_file(f).map_err(|m| err("file", m)),
    }
}

/// 1-based line number of node `k`'s line in a BonnMotion trace: `#` lines do not count as
/// nodes, and blank lines between nodes are an error of the parser, so the k-th other line.
fn node_line(text: &str, k: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().starts_with('#') && !l.trim().is_empty())
        .nth(k)
        .map_or(0, |(i, _)| i + 1)
}

/// Initial positions of the `n` mobility-driven nodes (`nodes[i]` = index in the node list),
/// or `None` for random models without an explicit placement.
fn placement(
    m: &MobilitySpec,
    nodes: &[usize],
    seeds: &SeedTree,
    required: bool,
) -> Result<Option<Vec<Position>>, ScenarioError> {
    let n = nodes.len();
    let kind = match (m.placement, m.area_m) {
        (Some(k), _) => k,
        (None, _) if !required => return Ok(None),
        (None, Some(_)) => PlacementKind::Uniform,
        (None, None) => {
            return Err(err(
                "placement",
                "required: give placement (line, grid, ring, positions) or area_m for uniform placement",
            ))
        }
    };
    let need = |name: &str, v: Option<f64>| -> Result<f64, ScenarioError> {
        let v = v.ok_or_else(|| err(name, "required by this placement"))?;
        if !v.is_finite() || v < 0.0 {
            return Err(err(name, format!("must be finite and >= 0, got {v}")));
        }
        Ok(v)
    };
    let ps = match kind {
        PlacementKind::Uniform => {
            let a = area(m)?.ok_or_else(|| err("area_m", "required by uniform placement"))?;
            nodes
                .iter()
                .map(|&k| {
                    let mut rng = seeds.stream(&StreamKey::new("placement").with(k as u64));
                    a.uniform_point(&mut rng, 0.0)
                })
                .collect()
        }
        PlacementKind::Line => {
            let s = need("spacing_m", m.spacing_m)?;
            (0..n).map(|i| Position::xy(i as f64 * s, 0.0)).collect()
        }
        PlacementKind::Grid => {
            let s = need("spacing_m", m.spacing_m)?;
            let cols = match m.columns {
                Some(0) => return Err(err("columns", "must be at least 1")),
                Some(c) => c as usize,
                None => (n as f64).sqrt().ceil().max(1.0) as usize,
            };
            (0..n)
                .map(|i| Position::xy((i % cols) as f64 * s, (i / cols) as f64 * s))
                .collect()
        }
        PlacementKind::Ring => {
            let r = need("radius_m", m.radius_m)?;
            let c = match area(m)? {
                Some(a) => a.centre(0.0),
                None => Position::xy(0.0, 0.0),
            };
            let k = n.saturating_sub(1).max(1) as f64;
            (0..n)
                .map(|i| {
                    if i == 0 {
                        c
                    } else {
                        let th = core::f64::consts::TAU * (i - 1) as f64 / k;
                        Position::xy(c.x_m + r * th.cos(), c.y_m + r * th.sin())
                    }
                })
                .collect()
        }
        PlacementKind::Positions => {
            let list = m
                .positions_m
                .as_ref()
                .ok_or_else(|| err("positions_m", "required by placement \"positions\""))?;
            if list.len() != n {
                return Err(err(
                    "positions_m",
                    format!("has {} entries for {n} mobile nodes", list.len()),
                ));
            }
            list.iter()
                .enumerate()
                .map(|(i, p)| position_from(&format!("mobility.positions_m[{i}]"), p))
                .collect::<Result<_, _>>()?
        }
    };
    Ok(Some(ps))
}

fn area(m: &MobilitySpec) -> Result<Option<Area>, ScenarioError> {
    match m.area_m {
        Some([w, h]) => Area::new(w, h)
            .map(Some)
            .map_err(|e| err("area_m", e.message)),
        None => Ok(None),
    }
}

fn need_area(m: &MobilitySpec) -> Result<Area, ScenarioError> {
    area(m)?.ok_or_else(|| {
        err(
            "area_m",
            format!("required by model \"{}\"", model_name(m.model)),
        )
    })
}

fn dur(d: Option<crate::scenario::Duration>) -> Option<SimDuration> {
    d.map(|d| d.0)
}

/// One [`Motion`] per wireless node of `s`, in node order, with the node's index; `area_m` of
/// `[mobility]` (if any) for the spatial grid. `s.node` must already include the nodes of
/// `[nodes]` (see `scenario::check_wireless::expand`).
pub fn build_motion(s: &Scenario, seeds: &SeedTree) -> Result<Vec<(usize, Motion)>, ScenarioError> {
    let mut out = Vec::new();
    let mut driven = Vec::new();
    for (i, n) in s.node.iter().enumerate() {
        if !n.wireless {
            continue;
        }
        match &n.position_m {
            Some(p) => {
                let p = position_from(&format!("node[{i}].position_m"), p)?;
                out.push((i, Motion::Static(p)));
            }
            None => driven.push(i),
        }
    }
    if driven.is_empty() {
        return Ok(out);
    }
    let default_spec = MobilitySpec::default();
    let m = s.mobility.as_ref().unwrap_or(&default_spec);
    let allowed = allowed(m.model);
    if let Some(f) = fields_set(m).into_iter().find(|f| !allowed.contains(f)) {
        return Err(err(
            f,
            format!("not used by model \"{}\"; remove it", model_name(m.model)),
        ));
    }
    let random = matches!(
        m.model,
        MobilityKind::RandomWaypoint
            | MobilityKind::RandomWalk
            | MobilityKind::Mass
            | MobilityKind::GaussMarkov
    );
    let traced = matches!(m.model, MobilityKind::Setdest | MobilityKind::Bonnmotion);
    let place = placement(
        m,
        &driven,
        seeds,
        !random && !traced && m.model != MobilityKind::Waypoints,
    )?;
    let at = |i: usize| place.as_ref().map(|p| p[i]);
    let stream = |k: usize| seeds.stream(&StreamKey::new("mobility").with(k as u64));
    let moving = |m: MobilityModel| Motion::Moving(Box::new(m));
    let speed = |name: &str| -> Result<(f64, f64), ScenarioError> {
        let r = m.speed_mps.ok_or_else(|| {
            err(
                name,
                format!("required by model \"{}\"", model_name(m.model)),
            )
        })?;
        Ok((r.min, r.max))
    };
    match m.model {
        MobilityKind::Static => {
            for (j, &k) in driven.iter().enumerate() {
                out.push((k, Motion::Static(at(j).unwrap_or_default())));
            }
        }
        MobilityKind::Waypoints => {
            let mut lists = std::collections::BTreeMap::new();
            for (w, spec) in m.waypoints.iter().enumerate() {
                let p = format!("mobility.waypoints[{w}]");
                let Some(j) = driven.iter().position(|&k| s.node[k].name == spec.node) else {
                    return Err(ScenarioError::at(
                        format!("{p}.node"),
                        format!("no mobile node named \"{}\"", spec.node),
                    ));
                };
                if spec.times.len() != spec.positions_m.len() {
                    return Err(ScenarioError::at(
                        format!("{p}.positions_m"),
                        format!(
                            "{} positions for {} times",
                            spec.positions_m.len(),
                            spec.times.len()
                        ),
                    ));
                }
                let mut wps = Vec::new();
                for (q, (t, pos)) in spec.times.iter().zip(&spec.positions_m).enumerate() {
                    let pos = position_from(&format!("{p}.positions_m[{q}]"), pos)?;
                    wps.push(Waypoint::new(SimTime::ZERO + t.0, pos));
                }
                let traj = Trajectory::from_waypoints(&wps)
                    .map_err(|e| ScenarioError::at(format!("{p}.times"), e.message))?;
                if lists.insert(j, traj).is_some() {
                    return Err(ScenarioError::at(
                        format!("{p}.node"),
                        format!("node \"{}\" has two waypoint lists", spec.node),
                    ));
                }
            }
            let unlisted = driven.len() > lists.len();
            let place = if unlisted {
                placement(m, &driven, seeds, true)?
            } else {
                None
            };
            for (j, &k) in driven.iter().enumerate() {
                match lists.remove(&j) {
                    Some(t) => out.push((k, moving(MobilityModel::Trajectory(t)))),
                    None => out.push((
                        k,
                        Motion::Static(place.as_ref().map(|p| p[j]).unwrap_or_default()),
                    )),
                }
            }
        }
        MobilityKind::ConstantVelocity => {
            let [vx, vy] = m
                .velocity_mps
                .ok_or_else(|| err("velocity_mps", "required by model \"constant-velocity\""))?;
            let v = Velocity::new(vx, vy, 0.0);
            let start = SimTime::ZERO + dur(m.start).unwrap_or_default();
            let stop = dur(m.stop).map(|d| SimTime::ZERO + d);
            for (j, &k) in driven.iter().enumerate() {
                let t = Trajectory::constant_velocity(at(j).unwrap_or_default(), v, start, stop)
                    .map_err(param)?;
                out.push((k, moving(MobilityModel::Trajectory(t))));
            }
        }
        MobilityKind::RandomWaypoint => {
            let a = need_area(m)?;
            let (lo, hi) = speed("speed_mps")?;
            for (j, &k) in driven.iter().enumerate() {
                let mut p = RandomWaypointParams::new(a, lo, hi);
                p.pause = dur(m.pause).unwrap_or_default();
                p.steady_state = m.steady_state.unwrap_or(false);
                p.initial_position = at(j);
                let rw = RandomWaypoint::new(p, stream(k)).map_err(param)?;
                out.push((k, moving(MobilityModel::RandomWaypoint(rw))));
            }
        }
        MobilityKind::RandomWalk | MobilityKind::Mass => {
            let a = need_area(m)?;
            let (lo, hi) = speed("speed_mps")?;
            let (change, turn) = walk_change_and_turn(m)?;
            for (j, &k) in driven.iter().enumerate() {
                let mut p = RandomWalkParams::new(a, lo, hi, SimDuration::from_secs(1));
                p.change = change;
                p.turn = turn;
                p.initial_position = at(j);
                let w = RandomWalk::new(p, stream(k)).map_err(param)?;
                out.push((k, moving(MobilityModel::RandomWalk(w))));
            }
        }
        MobilityKind::GaussMarkov => {
            let a = need_area(m)?;
            let alpha = m
                .alpha
                .ok_or_else(|| err("alpha", "required by model \"gauss-markov\""))?;
            let mean = m
                .mean_speed_mps
                .ok_or_else(|| err("mean_speed_mps", "required by model \"gauss-markov\""))?;
            for (j, &k) in driven.iter().enumerate() {
                let mut p = GaussMarkovParams::new(
                    a,
                    alpha,
                    mean,
                    m.speed_std_mps.unwrap_or(0.0),
                    m.direction_std_deg.unwrap_or(0.0).to_radians(),
                    dur(m.update_interval).unwrap_or(DEFAULT_UPDATE_INTERVAL),
                );
                p.max_speed_mps = m.max_speed_mps.unwrap_or(f64::INFINITY);
                p.mean_direction_rad = m.mean_direction_deg.map(f64::to_radians);
                p.edge_margin_m = m.edge_margin_m.unwrap_or(0.0);
                p.initial_position = at(j);
                let g = GaussMarkov::new(p, stream(k)).map_err(param)?;
                out.push((k, moving(MobilityModel::GaussMarkov(g))));
            }
        }
        MobilityKind::Setdest => {
            let text = trace_text(m)?;
            let field = if m.file.is_some() { "file" } else { "text" };
            let count = u32::try_from(driven.len()).unwrap_or(u32::MAX);
            let mut map = parse_setdest_for(&text, count).map_err(|e| err(field, e.to_string()))?;
            // A node the trace never names would stand at ns-2's default (0, 0, 0); that is
            // almost always a trace written for another node count, so it is refused rather
            // than run silently. A node named only by `setdest` lines starts at (0, 0, 0),
            // as in ns-2.
            for (j, &k) in driven.iter().enumerate() {
                let Some(t) = map.remove(&(j as u32)) else {
                    return Err(err(
                        field,
                        format!(
                            "the trace never names `$node_({j})` (mobile node {j} of {count}); \
                             give it a `$node_({j}) set X_` line or run fewer nodes"
                        ),
                    ));
                };
                out.push((k, moving(MobilityModel::Trajectory(t))));
            }
        }
        MobilityKind::Bonnmotion => {
            let text = trace_text(m)?;
            let field = if m.file.is_some() { "file" } else { "text" };
            let dims = match m.dims.unwrap_or(2) {
                2 => Dims::Two,
                3 => Dims::Three,
                d => return Err(err("dims", format!("must be 2 or 3, got {d}"))),
            };
            let list = parse_bonnmotion(&text, dims).map_err(|e| err(field, e.to_string()))?;
            if list.len() < driven.len() {
                return Err(err(
                    field,
                    format!(
                        "the trace has {} nodes, the scenario {} mobile nodes",
                        list.len(),
                        driven.len()
                    ),
                ));
            }
            if list.len() > driven.len() {
                let line = node_line(&text, driven.len());
                return Err(err(
                    field,
                    format!(
                        "line {line}: the trace has {} nodes, the scenario {} mobile nodes; \
                         the line of node {} has no node of the run to drive",
                        list.len(),
                        driven.len(),
                        driven.len()
                    ),
                ));
            }
            for (&k, t) in driven.iter().zip(list) {
                out.push((k, moving(MobilityModel::Trajectory(t))));
            }
        }
    }
    out.sort_by_key(|(k, _)| *k);
    Ok(out)
}
