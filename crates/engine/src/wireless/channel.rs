//! The shared medium: which radios a transmission reaches, with what power and after what
//! propagation delay, and the frames on the air.
//!
//! # Delivering a frame only where it matters (DESIGN.md §1.7)
//!
//! Radios live in a uniform spatial grid whose cell side is the *cut-off range* (the distance
//! at which the mean received power falls to the interference cut-off, `RadioParams::
//! cutoff_range_m`) plus a drift allowance for moving nodes. A transmission looks only at the
//! 3 × 3 cells around the transmitter, computes the received power at each radio there, and
//! delivers the frame to those at or above the cut-off. The cost of a frame therefore follows
//! the density of radios, not the size of the network.
//!
//! # Positions, lazily (DESIGN.md §1.7)
//!
//! Positions come from the `sctpsim_world` mobility models, asked for `position(t)` only when a
//! frame is sent; there are no position events. A moving radio is filed in the grid at the
//! position it had when it was last (re-)bucketed and is re-bucketed, lazily at the next
//! transmission after the instant, when it may have drifted by the allowance (`allowance /
//! speed` of its current leg) or its leg ends (`next_change`), whichever comes first. Its true
//! position is therefore always within the allowance of its cell, which the cell size covers.
//!
//! # Randomness
//!
//! Only the shadowing model draws: one normal variate per frame and receiver, from a stream per
//! ordered (transmitter, receiver) pair, `("shadowing", tx node, rx node)`, so the fading seen
//! on one link does not depend on which other frames were sent.

use crate::wireless::profiles::RadioParams;
use sctpsim_kernel::{Rng, SeedTree, SimDuration, SimTime, StreamKey};
use sctpsim_proto::mac::{PhyMode, Preamble};
use sctpsim_world::mobility::Mobility;
use sctpsim_world::propagation::propagation_delay;
use sctpsim_world::{Leg, Position, PropagationModel};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// Fraction of the cut-off range a moving radio may drift from where it was bucketed.
const DRIFT_ALLOWANCE: f64 = 0.2;
/// At most this many grid cells per radio (a tiny cut-off range in a huge area would
/// otherwise ask for an enormous grid; larger cells are always correct, only slower).
const MAX_CELLS_PER_RADIO: f64 = 4.0;

pub use crate::scenario::mobility::Motion;

/// A frame on the air, shared by every receiver it reaches.
#[derive(Clone, Debug)]
pub struct AirFrame {
    /// The MPDU with its FCS.
    pub bytes: Vec<u8>,
    /// Modulation and rate.
    pub mode: PhyMode,
    /// PLCP preamble (DSSS/HR-DSSS).
    pub preamble: Preamble,
    /// The transmitting radio.
    pub tx: u32,
    /// On-air duration.
    pub duration: SimDuration,
    /// The tag of the packet a data frame carries (what a receiver's MAC returns with it).
    pub tag: sctpsim_kernel::PacketTag,
    /// Receivers whose end-of-frame event is still pending.
    refs: u32,
}

/// The frames on the air, addressed by slot number from the channel's events. A slot is
/// reused once every receiver has seen the end of its frame.
#[derive(Clone, Debug, Default)]
pub struct FrameSlab {
    frames: Vec<AirFrame>,
    free: Vec<u32>,
}

impl FrameSlab {
    /// Stores a frame that `refs` receivers will see; its slot number.
    pub fn insert(&mut self, mut frame: AirFrame, refs: u32) -> u32 {
        frame.refs = refs;
        match self.free.pop() {
            Some(i) => {
                self.frames[i as usize] = frame;
                i
            }
            None => {
                self.frames.push(frame);
                (self.frames.len() - 1) as u32
            }
        }
    }

    /// The frame in slot `id`.
    pub fn get(&self, id: u32) -> Option<&AirFrame> {
        self.frames.get(id as usize)
    }

    /// One receiver is done with frame `id`; the slot is freed after the last.
    pub fn release(&mut self, id: u32) {
        if let Some(f) = self.frames.get_mut(id as usize) {
            f.refs = f.refs.saturating_sub(1);
            if f.refs == 0 {
                f.bytes = Vec::new();
                self.free.push(id);
            }
        }
    }

    /// Frames currently on the air (for tests and statistics).
    pub fn live(&self) -> usize {
        self.frames.len() - self.free.len()
    }
}

impl AirFrame {
    /// A frame as the MAC asked for it.
    pub fn new(
        bytes: Vec<u8>,
        mode: PhyMode,
        preamble: Preamble,
        tx: u32,
        duration: SimDuration,
    ) -> Self {
        AirFrame {
            bytes,
            mode,
            preamble,
            tx,
            duration,
            tag: sctpsim_kernel::PacketTag::default(),
            refs: 0,
        }
    }

    /// The frame carrying the packet tagged `tag`.
    pub fn with_tag(mut self, tag: sctpsim_kernel::PacketTag) -> Self {
        self.tag = tag;
        self
    }
}

/// One receiver of a transmission.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Delivery {
    /// The receiving radio.
    pub rx: u32,
    /// Propagation delay from the transmitter.
    pub delay: SimDuration,
    /// Received power, W.
    pub power_w: f64,
}

/// A radio filed in a grid cell, with the position it was filed at (its true position is
/// within the drift allowance of it), so that the search can skip far radios without looking
/// at their mobility, and a copy of its current leg, so that the search finds the position of
/// a near one in the cell's list it is scanning anyway instead of in a per-radio array (one
/// cache miss per candidate with 10,000 radios). The copy is only used while it contains the
/// time asked for; legs partition a motion's time line, so it then gives exactly the position
/// [`Channel::position`] would.
#[derive(Copy, Clone, Debug)]
struct Filed {
    radio: u32,
    x_m: f64,
    y_m: f64,
    leg: Leg,
}

/// The uniform grid of radios.
#[derive(Clone, Debug)]
struct Grid {
    cell_m: f64,
    x0: f64,
    y0: f64,
    nx: i64,
    ny: i64,
    cells: Vec<Vec<Filed>>,
    /// Per radio: its cell and its index in that cell's list.
    slot: Vec<(u32, u32)>,
}

impl Grid {
    fn new(cell_m: f64, positions: &[Position], legs: &[Leg], area: Option<[f64; 2]>) -> Grid {
        let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        if let Some([w, h]) = area {
            x1 = w;
            y1 = h;
        }
        for p in positions {
            x0 = x0.min(p.x_m);
            y0 = y0.min(p.y_m);
            x1 = x1.max(p.x_m);
            y1 = y1.max(p.y_m);
        }
        let (w, h) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
        let max_cells = (MAX_CELLS_PER_RADIO * positions.len().max(1) as f64).max(16.0);
        let mut cell = if cell_m.is_finite() && cell_m > 0.0 {
            cell_m
        } else {
            w.max(h)
        };
        // Cap the number of cells (cells can always be larger than the range).
        let min_cell = (w * h / max_cells).sqrt();
        cell = cell.max(min_cell).max(1e-3);
        let nx = ((w / cell).ceil() as i64).clamp(1, 1 << 20);
        let ny = ((h / cell).ceil() as i64).clamp(1, 1 << 20);
        let mut g = Grid {
            cell_m: cell,
            x0,
            y0,
            nx,
            ny,
            cells: vec![Vec::new(); (nx * ny) as usize],
            slot: vec![(0, 0); positions.len()],
        };
        for (i, p) in positions.iter().enumerate() {
            let c = g.cell_of(*p);
            g.cells[c as usize].push(Filed {
                radio: i as u32,
                x_m: p.x_m,
                y_m: p.y_m,
                leg: legs[i],
            });
            g.slot[i] = (c, (g.cells[c as usize].len() - 1) as u32);
        }
        g
    }

    /// Cell coordinates of a position, clamped to the grid (clamping never moves two points
    /// further apart in cell units, so the 3 × 3 search stays correct outside the grid).
    fn coords(&self, p: Position) -> (i64, i64) {
        let cx = ((p.x_m - self.x0) / self.cell_m).floor();
        let cy = ((p.y_m - self.y0) / self.cell_m).floor();
        let clamp = |v: f64, n: i64| {
            if v.is_nan() {
                0
            } else {
                (v.clamp(0.0, (n - 1) as f64)) as i64
            }
        };
        (clamp(cx, self.nx), clamp(cy, self.ny))
    }

    fn cell_of(&self, p: Position) -> u32 {
        let (cx, cy) = self.coords(p);
        (cy * self.nx + cx) as u32
    }

    fn move_to(&mut self, radio: u32, p: Position, leg: Leg) {
        let new = self.cell_of(p);
        let (old, idx) = self.slot[radio as usize];
        let filed = Filed {
            radio,
            x_m: p.x_m,
            y_m: p.y_m,
            leg,
        };
        if old == new {
            self.cells[old as usize][idx as usize] = filed;
            return;
        }
        let list = &mut self.cells[old as usize];
        list.swap_remove(idx as usize);
        if let Some(moved) = list.get(idx as usize) {
            self.slot[moved.radio as usize].1 = idx;
        }
        let list = &mut self.cells[new as usize];
        list.push(filed);
        self.slot[radio as usize] = (new, (list.len() - 1) as u32);
    }
}

/// The wireless channel: radios' positions, the spatial grid and the propagation model.
#[derive(Clone, Debug)]
pub struct Channel {
    propagation: PropagationModel,
    tx_power_w: f64,
    cutoff_w: f64,
    /// Distance beyond which no frame reaches the cut-off power, m (grid search radius).
    range_m: f64,
    /// Drift a moving radio may accumulate before it is re-bucketed, m.
    allowance_m: f64,
    motion: Vec<Motion>,
    /// Per radio: the leg of its motion last looked up (empty until the first lookup; a
    /// static radio's never ends).
    legs: Vec<Leg>,
    /// The node of each radio (for stream keys).
    node_of: Vec<u32>,
    grid: Grid,
    rebucket: BinaryHeap<Reverse<(SimTime, u32)>>,
    seeds: SeedTree,
    shadowing: BTreeMap<(u32, u32), Rng>,
    no_draw: Rng,
    out: Vec<Delivery>,
}

impl Channel {
    /// A channel for radios `motion[i]` (radio i on node `node_of[i]`), in an area of
    /// `area_m` if known (the grid also covers every initial position).
    pub fn new(
        params: &RadioParams,
        motion: Vec<Motion>,
        node_of: Vec<u32>,
        area_m: Option<[f64; 2]>,
        seeds: &SeedTree,
    ) -> Channel {
        let range_m = params.cutoff_range_m();
        let mut motion = motion;
        let any_moving = motion.iter().any(|m| matches!(m, Motion::Moving(_)));
        let allowance_m = if any_moving && range_m.is_finite() {
            DRIFT_ALLOWANCE * range_m
        } else {
            0.0
        };
        let positions: Vec<Position> = motion
            .iter_mut()
            .map(|m| m.position(SimTime::ZERO))
            .collect();
        let legs: Vec<Leg> = motion
            .iter()
            .map(|m| match m {
                Motion::Static(p) => Leg::stationary(SimTime::ZERO, SimTime::NEVER, *p),
                Motion::Moving(_) => {
                    Leg::stationary(SimTime::NEVER, SimTime::NEVER, Position::xy(0.0, 0.0))
                }
            })
            .collect();
        let grid = Grid::new(range_m + allowance_m, &positions, &legs, area_m);
        let mut ch = Channel {
            propagation: params.propagation.clone(),
            tx_power_w: params.tx_power_w,
            cutoff_w: params.cutoff_w,
            range_m,
            allowance_m,
            legs,
            motion,
            node_of,
            grid,
            rebucket: BinaryHeap::new(),
            seeds: seeds.clone(),
            shadowing: BTreeMap::new(),
            no_draw: Rng::from_seed(0),
            out: Vec::new(),
        };
        for r in 0..ch.motion.len() as u32 {
            ch.schedule_rebucket(r, SimTime::ZERO);
        }
        ch
    }

    /// Number of radios.
    pub fn len(&self) -> usize {
        self.motion.len()
    }

    /// Whether there are no radios.
    pub fn is_empty(&self) -> bool {
        self.motion.is_empty()
    }

    /// The grid's cell side, m.
    pub fn cell_m(&self) -> f64 {
        self.grid.cell_m
    }

    /// The cut-off range, m.
    pub fn range_m(&self) -> f64 {
        self.range_m
    }

    /// Position of radio `r` at `t` (computed from its mobility model). The leg last used is
    /// kept in a flat array: most queries fall in it and then do not touch the model (with
    /// 10,000 radios the pointer chase into each model was a fifth of the run time).
    pub fn position(&mut self, r: u32, t: SimTime) -> Position {
        let i = r as usize;
        let leg = &self.legs[i];
        if leg.contains(t) {
            return leg.position_at(t);
        }
        match &mut self.motion[i] {
            Motion::Static(p) => *p,
            Motion::Moving(m) => {
                let leg = m.leg_at(t);
                self.legs[i] = leg;
                leg.position_at(t)
            }
        }
    }

    /// When radio `r` (bucketed at `t`) must be re-bucketed: the end of its leg or when it may
    /// have drifted by the allowance.
    fn schedule_rebucket(&mut self, r: u32, t: SimTime) {
        let Motion::Moving(m) = &mut self.motion[r as usize] else {
            return;
        };
        let leg = m.leg_at(t);
        let speed = leg.velocity.speed_mps();
        let mut at = if leg.is_open() {
            SimTime::NEVER
        } else {
            leg.end
        };
        if speed > 0.0 {
            // A little slack for the rounding of the interpolated positions.
            let secs = 0.99 * self.allowance_m / speed;
            at = at.min(t + SimDuration::from_secs_f64(secs).max(SimDuration(1)));
        }
        if at != SimTime::NEVER {
            self.rebucket.push(Reverse((at.max(t + SimDuration(1)), r)));
        }
    }

    /// Re-buckets every moving radio due by `now`.
    fn refresh(&mut self, now: SimTime) {
        while let Some(&Reverse((t, r))) = self.rebucket.peek() {
            if t > now {
                break;
            }
            self.rebucket.pop();
            let p = self.position(r, now);
            if let Motion::Moving(m) = &mut self.motion[r as usize] {
                m.forget_before(now);
            }
            self.grid.move_to(r, p, self.legs[r as usize]);
            self.schedule_rebucket(r, now);
        }
    }

    /// The radios a transmission from `tx` starting at `now` reaches at or above the cut-off
    /// power, in grid order, with their propagation delay and received power. The slice is
    /// valid until the next call.
    pub fn transmit(&mut self, now: SimTime, tx: u32) -> &[Delivery] {
        self.out.clear();
        self.refresh(now);
        let ptx = self.position(tx, now);
        let (cx, cy) = self.grid.coords(ptx);
        let reach = self.range_m + self.allowance_m;
        let reach2 = if reach.is_finite() {
            // 2-D distance never exceeds the 3-D one: a safe pre-filter.
            (reach * (1.0 + 1e-9) + 1e-6).powi(2)
        } else {
            f64::INFINITY
        };
        let far = reach + self.allowance_m + 1.0;
        let far2 = if far.is_finite() {
            far * far
        } else {
            f64::INFINITY
        };
        for y in (cy - 1).max(0)..=(cy + 1).min(self.grid.ny - 1) {
            for x in (cx - 1).max(0)..=(cx + 1).min(self.grid.nx - 1) {
                let cell = (y * self.grid.nx + x) as usize;
                for k in 0..self.grid.cells[cell].len() {
                    let filed = self.grid.cells[cell][k];
                    let rx = filed.radio;
                    if rx == tx {
                        continue;
                    }
                    // The radio is within the allowance of where it was filed: one beyond
                    // `far2` of the transmitter cannot be within `reach` (triangle inequality,
                    // with a metre of slack for rounding).
                    let (fx, fy) = (filed.x_m - ptx.x_m, filed.y_m - ptx.y_m);
                    if fx * fx + fy * fy > far2 {
                        continue;
                    }
                    let prx = if filed.leg.contains(now) {
                        filed.leg.position_at(now)
                    } else {
                        let p = self.position(rx, now);
                        self.grid.cells[cell][k].leg = self.legs[rx as usize];
                        p
                    };
                    let (dx, dy) = (prx.x_m - ptx.x_m, prx.y_m - ptx.y_m);
                    if dx * dx + dy * dy > reach2 {
                        continue;
                    }
                    let power = self.rx_power(tx, rx, ptx, prx);
                    // NaN powers (degenerate geometry) are dropped too.
                    if power.is_nan() || power < self.cutoff_w {
                        continue;
                    }
                    self.out.push(Delivery {
                        rx,
                        delay: propagation_delay(ptx.distance_to(prx)),
                        power_w: power,
                    });
                }
            }
        }
        &self.out
    }

    fn rx_power(&mut self, tx: u32, rx: u32, ptx: Position, prx: Position) -> f64 {
        match &self.propagation {
            PropagationModel::Shadowing(_) => {
                let key = (self.node_of[tx as usize], self.node_of[rx as usize]);
                let seeds = &self.seeds;
                let rng = self.shadowing.entry(key).or_insert_with(|| {
                    seeds.stream(
                        &StreamKey::new("shadowing")
                            .with(u64::from(key.0))
                            .with(u64::from(key.1)),
                    )
                });
                self.propagation.rx_power_w(self.tx_power_w, ptx, prx, rng)
            }
            m => m.rx_power_w(self.tx_power_w, ptx, prx, &mut self.no_draw),
        }
    }

    /// For every radio, the radios whose mean received power from it at `t` is at least
    /// `need_w` (sorted radio indices). Uses the grid when `need_w` is at or above the cut-off
    /// (such radios are within the cut-off range), all pairs otherwise.
    pub fn neighbours(&mut self, t: SimTime, need_w: f64) -> Vec<Vec<u32>> {
        let n = self.motion.len();
        let pos: Vec<Position> = (0..n as u32).map(|r| self.position(r, t)).collect();
        let grid = need_w >= self.cutoff_w;
        let mut out = vec![Vec::new(); n];
        for a in 0..n {
            let consider = |b: usize, out: &mut Vec<u32>| {
                if b != a
                    && self
                        .propagation
                        .mean_rx_power_w(self.tx_power_w, pos[a], pos[b])
                        >= need_w
                {
                    out.push(b as u32);
                }
            };
            let mut list = Vec::new();
            if grid {
                let (cx, cy) = self.grid.coords(pos[a]);
                for y in (cy - 1).max(0)..=(cy + 1).min(self.grid.ny - 1) {
                    for x in (cx - 1).max(0)..=(cx + 1).min(self.grid.nx - 1) {
                        let cell = (y * self.grid.nx + x) as usize;
                        for b in &self.grid.cells[cell] {
                            consider(b.radio as usize, &mut list);
                        }
                    }
                }
            } else {
                for b in 0..n {
                    consider(b, &mut list);
                }
            }
            list.sort_unstable();
            out[a] = list;
        }
        out
    }

    /// Mean received power between two radios at `t`, W (no shadowing draw).
    pub fn mean_power(&mut self, a: u32, b: u32, t: SimTime) -> f64 {
        let pa = self.position(a, t);
        let pb = self.position(b, t);
        self.propagation.mean_rx_power_w(self.tx_power_w, pa, pb)
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::scenario::RadioSpec;
    use sctpsim_world::Trajectory;

    fn line(n: usize, spacing: f64) -> Vec<Motion> {
        (0..n)
            .map(|i| Motion::Static(Position::xy(i as f64 * spacing, 0.0)))
            .collect()
    }

    fn channel(motion: Vec<Motion>) -> Channel {
        let params = RadioParams::from_spec(&RadioSpec::default()).unwrap();
        let n = motion.len();
        Channel::new(
            &params,
            motion,
            (0..n as u32).collect(),
            None,
            &SeedTree::new(1),
        )
    }

    #[test]
    fn delivers_within_the_carrier_sense_range_only() {
        // ns-2 WaveLAN: CSThresh is reached at 550 m.
        let mut ch = channel(line(30, 100.0));
        let got: Vec<u32> = ch
            .transmit(SimTime::ZERO, 10)
            .iter()
            .map(|d| d.rx)
            .collect();
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![5, 6, 7, 8, 9, 11, 12, 13, 14, 15]);
        let d = ch.transmit(SimTime::ZERO, 0)[0];
        assert_eq!(d.rx, 1);
        assert_eq!(d.delay, SimDuration(334));
    }

    #[test]
    fn brute_force_agrees_with_the_grid_for_moving_radios() {
        use sctpsim_world::mobility::{RandomWaypoint, RandomWaypointParams};
        use sctpsim_world::{Area, MobilityModel};
        let area = Area::new(3000.0, 3000.0).unwrap();
        let seeds = SeedTree::new(5);
        let motion: Vec<Motion> = (0..200u64)
            .map(|i| {
                let p = RandomWaypointParams::new(area, 10.0, 60.0);
                let rng = seeds.stream(&StreamKey::new("mobility").with(i));
                Motion::Moving(Box::new(MobilityModel::RandomWaypoint(
                    RandomWaypoint::new(p, rng).unwrap(),
                )))
            })
            .collect();
        let mut ch = channel(motion.clone());
        let mut brute = motion;
        let params = RadioParams::from_spec(&RadioSpec::default()).unwrap();
        for step in 0..400u64 {
            let t = SimTime::ZERO + SimDuration::from_millis(step * 250);
            let tx = (step * 37 % 200) as u32;
            let mut got: Vec<u32> = ch.transmit(t, tx).iter().map(|d| d.rx).collect();
            got.sort_unstable();
            let ptx = brute[tx as usize].position(t);
            let want: Vec<u32> = (0..200u32)
                .filter(|&r| r != tx)
                .filter(|&r| {
                    let p = brute[r as usize].position(t);
                    params
                        .propagation
                        .mean_rx_power_w(params.tx_power_w, ptx, p)
                        >= params.cutoff_w
                })
                .collect();
            assert_eq!(got, want, "t = {t}");
        }
    }

    #[test]
    fn slab_reuses_slots_after_the_last_receiver() {
        let mut s = FrameSlab::default();
        let f = AirFrame::new(vec![1], PhyMode::Dsss1, Preamble::Long, 0, SimDuration(1));
        let a = s.insert(f.clone(), 2);
        let b = s.insert(f.clone(), 1);
        assert_ne!(a, b);
        s.release(a);
        assert_eq!(s.live(), 2);
        s.release(a);
        assert_eq!(s.live(), 1);
        assert_eq!(s.insert(f, 1), a);
        let _ = Trajectory::stationary(Position::xy(0.0, 0.0));
    }
}
