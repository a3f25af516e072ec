//! A tiny ideal channel for testing [`Dcf`] instances together.
//!
//! N MACs share one medium with zero propagation delay. `hears[j][i]` says whether station `j`
//! hears station `i` (all true by default). When a station transmits, every station that hears
//! it sees the medium busy until the frame ends and then receives it. Two transmissions that
//! overlap in time corrupt each other at every station that hears both (those stations receive
//! both with `ok = false`); a station that transmits during any part of a frame does not
//! receive it. A `lose` hook can corrupt chosen frames at every receiver (a deterministic
//! channel error). The driving loop is a `BTreeMap` of `(time, sequence)` deadlines.

use std::collections::BTreeMap;

use sctpsim_kernel::{SeedTree, SimDuration, SimTime, StreamKey};

use crate::mac::{
    Dcf, FrameKind, MacAddr, MacConfig, MacEvent, MacRole, MacSdu, PhyMode, RxInfo, TxRequest,
};

/// One frame on the air.
#[derive(Clone, Debug)]
struct Frame {
    id: u64,
    src: usize,
    bytes: Vec<u8>,
    mode: PhyMode,
    tag: sctpsim_kernel::PacketTag,
    corrupt_at: Vec<bool>,
    missed_by: Vec<bool>,
}

/// A transmission, as logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxLog {
    /// Transmitting station.
    pub src: usize,
    /// Start.
    pub start: SimTime,
    /// End.
    pub end: SimTime,
    /// Frame kind.
    pub kind: FrameKind,
    /// The MPDU.
    pub bytes: Vec<u8>,
    /// Mode.
    pub mode: PhyMode,
}

impl TxLog {
    /// The Duration field of the frame, in microseconds.
    pub fn duration_field(&self) -> u64 {
        u64::from(u16::from_le_bytes([self.bytes[2], self.bytes[3]]))
    }

    /// Whether the Retry bit is set.
    pub fn retry(&self) -> bool {
        self.bytes[1] & 0x08 != 0
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ev {
    Timeout(usize),
    TxEnd(u64),
    Spurious,
}

/// Decides whether a transmission is lost (corrupted at every receiver).
pub type LoseFn = Box<dyn FnMut(&TxLog) -> bool>;

/// N MACs on an ideal shared medium.
pub struct Net {
    /// Current time.
    pub now: SimTime,
    /// The MACs, by station index.
    pub macs: Vec<Dcf>,
    /// `hears[j][i]`: station j hears station i.
    pub hears: Vec<Vec<bool>>,
    /// Received power at j of i's frames, in dBm.
    pub rssi: Vec<Vec<f64>>,
    /// Every transmission so far.
    pub log: Vec<TxLog>,
    /// Every event so far: (time, station, event).
    pub events: Vec<(SimTime, usize, MacEvent)>,
    /// At a frame end, report the medium idle before the frame (true) or after it.
    pub idle_first: bool,
    /// Stations kept saturated: (station, destination station, packet length).
    pub saturated: Vec<(usize, usize, usize)>,
    /// Loss hook.
    pub lose: Option<LoseFn>,
    /// Wake every MAC with a (mostly stale) `handle_timeout` at this period.
    pub spurious: Option<SimDuration>,
    spurious_armed: bool,
    air: Vec<Frame>,
    queue: BTreeMap<(SimTime, u64), Ev>,
    seq: u64,
    cca: Vec<bool>,
    scheduled: Vec<Option<SimTime>>,
    next_id: u64,
}

/// The address of station `i`.
pub fn addr(i: usize) -> MacAddr {
    MacAddr::local(i as u32, 0)
}

/// The BSSID of the test IBSS.
pub const IBSS: MacAddr = MacAddr([0x02, 0xff, 0, 0, 0, 1]);

/// A MAC for station `i` with the backoff stream of seed `seed`.
pub fn mac(i: usize, cfg: &MacConfig, role: MacRole, seed: u64) -> Dcf {
    let rng = SeedTree::new(seed).stream(&StreamKey::new("dcf-backoff").with(i as u64).with(0));
    Dcf::new(addr(i), cfg.clone(), role, rng)
}

/// A packet of `len` bytes (content: the station index and a counter).
pub fn packet(len: usize, tag: u8) -> Vec<u8> {
    let mut p = vec![0x45; len];
    if len > 1 {
        p[1] = tag;
    }
    p
}

impl Net {
    /// Stations on a fully connected medium.
    pub fn new(macs: Vec<Dcf>) -> Self {
        let n = macs.len();
        Net {
            now: SimTime::ZERO,
            macs,
            hears: vec![vec![true; n]; n],
            rssi: vec![vec![-60.0; n]; n],
            log: Vec::new(),
            events: Vec::new(),
            idle_first: false,
            saturated: Vec::new(),
            lose: None,
            spurious: None,
            spurious_armed: false,
            air: Vec::new(),
            queue: BTreeMap::new(),
            seq: 0,
            cca: vec![false; n],
            scheduled: vec![None; n],
            next_id: 0,
        }
    }

    /// `n` ad hoc stations with configuration `cfg`.
    pub fn adhoc(n: usize, cfg: &MacConfig, seed: u64) -> Self {
        Net::new(
            (0..n)
                .map(|i| mac(i, cfg, MacRole::AdHoc { bssid: IBSS }, seed))
                .collect(),
        )
    }

    fn push(&mut self, t: SimTime, ev: Ev) {
        self.seq += 1;
        self.queue.insert((t, self.seq), ev);
    }

    /// Hands station `i` a packet of `len` bytes for station `dst` (or broadcast) now.
    pub fn send(&mut self, i: usize, dst: Option<usize>, len: usize) {
        self.send_tagged(i, dst, len, Default::default());
    }

    /// [`Net::send`] with a packet tag, which the MACs must carry to every event about it.
    pub fn send_tagged(
        &mut self,
        i: usize,
        dst: Option<usize>,
        len: usize,
        tag: sctpsim_kernel::PacketTag,
    ) {
        let sdu = MacSdu {
            dst: dst.map_or(MacAddr::BROADCAST, addr),
            bytes: packet(len, i as u8),
            is_control: false,
            tag,
        };
        let now = self.now;
        self.macs[i].enqueue(now, sdu);
        self.settle();
    }

    /// Runs every event up to and including `end`; afterwards `now == end`.
    pub fn run_until(&mut self, end: SimTime) {
        if let (Some(d), false) = (self.spurious, self.spurious_armed) {
            self.spurious_armed = true;
            let t = self.now + d;
            self.push(t, Ev::Spurious);
        }
        self.settle();
        let mut same_instant = 0u32;
        while let Some((&(t, s), _)) = self.queue.iter().next() {
            if t > end {
                break;
            }
            let ev = self.queue.remove(&(t, s)).expect("present");
            same_instant = if t == self.now { same_instant + 1 } else { 0 };
            assert!(same_instant < 100_000, "livelock at {t}");
            self.now = t;
            match ev {
                Ev::Timeout(i) => {
                    if self.scheduled[i] == Some(t) {
                        self.scheduled[i] = None;
                    }
                    self.macs[i].handle_timeout(t);
                }
                Ev::TxEnd(id) => self.end_frame(id),
                Ev::Spurious => {
                    for m in &mut self.macs {
                        m.handle_timeout(t);
                    }
                    let d = self.spurious.unwrap_or(SimDuration::from_secs(1));
                    self.push(t + d, Ev::Spurious);
                }
            }
            self.settle();
        }
        self.now = self.now.max(end);
    }

    /// Runs for `d` more.
    pub fn run_for(&mut self, d: SimDuration) {
        let end = self.now + d;
        self.run_until(end);
    }

    fn settle(&mut self) {
        loop {
            let mut progress = false;
            for i in 0..self.macs.len() {
                if let Some(req) = self.macs[i].poll_transmit(self.now) {
                    self.start_frame(i, req);
                    progress = true;
                }
            }
            for i in 0..self.macs.len() {
                while let Some(e) = self.macs[i].poll_event() {
                    self.events.push((self.now, i, e));
                }
            }
            let sat = self.saturated.clone();
            for (i, dst, len) in sat {
                while self.macs[i].queue_len() < 1 {
                    let sdu = MacSdu {
                        dst: addr(dst),
                        bytes: packet(len, i as u8),
                        is_control: false,
                        tag: Default::default(),
                    };
                    self.macs[i].enqueue(self.now, sdu);
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        for i in 0..self.macs.len() {
            if let Some(t) = self.macs[i].poll_timeout() {
                let t = t.max(self.now);
                if self.scheduled[i] != Some(t) {
                    self.scheduled[i] = Some(t);
                    self.push(t, Ev::Timeout(i));
                }
            }
        }
    }

    fn update_cca(&mut self) {
        for j in 0..self.macs.len() {
            let busy = self.air.iter().any(|f| f.src != j && self.hears[j][f.src]);
            if busy != self.cca[j] {
                self.cca[j] = busy;
                if busy {
                    self.macs[j].handle_medium_busy(self.now);
                } else {
                    self.macs[j].handle_medium_idle(self.now);
                }
            }
        }
    }

    fn start_frame(&mut self, i: usize, req: TxRequest) {
        let n = self.macs.len();
        let end = self.now + req.duration;
        let entry = TxLog {
            src: i,
            start: self.now,
            end,
            kind: req.kind,
            bytes: req.frame.clone(),
            mode: req.mode,
        };
        let lost = match self.lose.as_mut() {
            Some(f) => f(&entry),
            None => false,
        };
        self.log.push(entry);
        let mut f = Frame {
            id: self.next_id,
            src: i,
            bytes: req.frame,
            mode: req.mode,
            tag: req.tag,
            corrupt_at: vec![lost; n],
            missed_by: vec![false; n],
        };
        self.next_id += 1;
        for g in &mut self.air {
            for j in 0..n {
                if self.hears[j][g.src] && self.hears[j][i] {
                    g.corrupt_at[j] = true;
                    f.corrupt_at[j] = true;
                }
            }
            // Half duplex: the new transmitter misses what is on the air, and the stations
            // transmitting now miss the new frame.
            g.missed_by[i] = true;
            f.missed_by[g.src] = true;
        }
        f.missed_by[i] = true;
        let id = f.id;
        self.air.push(f);
        self.push(end, Ev::TxEnd(id));
        self.update_cca();
    }

    fn end_frame(&mut self, id: u64) {
        let Some(pos) = self.air.iter().position(|f| f.id == id) else {
            return;
        };
        let f = self.air.remove(pos);
        self.macs[f.src].handle_tx_end(self.now);
        if self.idle_first {
            self.update_cca();
        }
        for j in 0..self.macs.len() {
            if j == f.src || !self.hears[j][f.src] || f.missed_by[j] {
                continue;
            }
            let rssi = self.rssi[j][f.src];
            let mut rx = if f.corrupt_at[j] {
                RxInfo::corrupted(f.mode, rssi)
            } else {
                RxInfo::ok(f.mode, rssi)
            };
            rx.tag = f.tag;
            self.macs[j].handle_rx_frame(self.now, &f.bytes, rx);
        }
        if !self.idle_first {
            self.update_cca();
        }
    }

    /// Transmissions of station `i`.
    pub fn tx_of(&self, i: usize) -> Vec<&TxLog> {
        self.log.iter().filter(|t| t.src == i).collect()
    }

    /// Events of station `i`.
    pub fn events_of(&self, i: usize) -> Vec<&(SimTime, usize, MacEvent)> {
        self.events.iter().filter(|e| e.1 == i).collect()
    }
}

/// Microseconds as a duration.
pub fn us(x: u64) -> SimDuration {
    SimDuration::from_micros(x)
}

/// A time in microseconds.
pub fn at_us(x: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_micros(x)
}

/// The instant one nanosecond before `t`.
pub fn before(t: SimTime) -> SimTime {
    SimTime(t.0.saturating_sub(1))
}
