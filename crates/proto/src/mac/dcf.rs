//! The distributed coordination function (IEEE Std 802.11-2020 §10.3): carrier sense (physical
//! and virtual), interframe spaces, binary exponential backoff with freezing and post-backoff,
//! RTS/CTS, acknowledgments, retransmission with the short and long retry limits, duplicate
//! filtering, and the infrastructure state machines of [`super::infra`].
//!
//! # Where things are
//!
//! * this file: the [`Dcf`] and its calling convention (inputs, outputs), the frame exchange
//!   (RTS/CTS, DATA, Ack, SIFS responses), retransmission and the retry limits, the interface
//!   queue, data frames sent and received, duplicate filtering;
//! * `dcf/access.rs`: channel access — carrier sense (CCA, NAV, EIFS) and the backoff
//!   procedure, each a small struct of the MAC's hot state, and `Dcf::rearm`, which keeps the
//!   backoff in line with the medium after every input;
//! * `dcf/mgmt.rs`: management frames and the infrastructure role — building and receiving
//!   beacons, authentication and (re)association frames, the glue to the AP and station
//!   state machines of [`super::infra`], and the role's address rules for data frames.
//!
//! # Medium access in one paragraph
//!
//! The MAC's carrier sense state tracks when the medium last became idle (`idle_since`:
//! physical carrier sense from [`Dcf::handle_medium_busy`]/[`Dcf::handle_medium_idle`], its
//! own transmissions and its own response waits all count as busy), the NAV (`nav_until`) and
//! the start of the EIFS after a frame received in error. While the medium is idle, slot
//! counting (the backoff state) starts at
//! `count_from = max(idle_since + DIFS, eifs_ref + EIFS, nav_until + DIFS)` and a frame whose
//! backoff counter holds `k` slots goes out at `count_from + k·slot`. When the medium turns
//! busy the counter is frozen at the number of whole idle slots it had left (§10.3.4.3: "the
//! backoff timer is decremented ... at the end of each idle slot"; a slot interrupted by a
//! busy medium does not count). A frame that finds the medium idle and no backoff pending goes
//! out as soon as the medium has been idle for DIFS (or EIFS) (§10.3.4.2); one that finds it
//! busy draws a backoff. After every transmission attempt ends — success, failure, or a group
//! frame sent — a new backoff is drawn ("post-backoff"), so back-to-back frames always
//! contend.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use sctpsim_kernel::{PacketTag, Rng, SimDuration, SimTime};
use sctpsim_wire::ieee80211::{
    data_frame, AckRepr, CtsRepr, DataRepr, FrameKind, FrameRepr, Ieee80211Frame, LlcSnapPacket,
    LlcSnapRepr, RtsRepr, SeqControl, ETHERTYPE_IPV4, RTS_LEN,
};
use sctpsim_wire::WireError;

use super::counters::MacCounters;
use super::infra::{MacRole, MgmtOut};
use super::phy_timing::{PhyMode, ACK_BYTES};
use super::profiles::{MacConfig, RetryAccounting};
use super::queue::IfQueue;
use super::rate::RateController;
use super::{DropReason, MacAddr, MacEvent, MacSdu, RxInfo, TxRequest};

mod access;
mod mgmt;

use access::{Backoff, CarrierSense, Ifs};
use mgmt::Role;

/// What the frame in service carries.
#[derive(Clone, Debug)]
enum Payload {
    /// A packet from IP.
    Sdu(MacSdu),
    /// A management frame of the infrastructure state machines.
    Mgmt(MgmtOut),
}

/// The frame in service (one MSDU or MMPDU) and its retransmission state.
#[derive(Clone, Debug)]
struct Outgoing {
    payload: Payload,
    /// Address 1.
    ra: MacAddr,
    /// The MPDU as sent (beacons are rebuilt at each transmission for their timestamp).
    frame: Vec<u8>,
    mode: PhyMode,
    seq: SeqControl,
    /// Short retry count of this frame (§10.3.4.4): RTS failures, and failures of a frame not
    /// longer than dot11RTSThreshold.
    short_retries: u32,
    /// Long retry count: failures of a frame longer than dot11RTSThreshold (with
    /// [`RetryAccounting::PerFrame`], its RTS failures too).
    long_retries: u32,
    /// Transmission attempts beyond the first (RTS and DATA).
    retries: u32,
    /// The frame itself has been on the air: a retransmission sets the Retry bit.
    sent_once: bool,
    /// Data attempts of the frame that got no Ack (the rate controller's retry position).
    data_failures: u32,
}

/// Where the frame exchange of the frame in service stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// No frame in service (a post-backoff may be counting down).
    Idle,
    /// The frame in service waits for the medium: IFS, then backoff.
    Contend,
    /// RTS sent; waiting for the CTS until `deadline` (`NEVER`: a reception that started in
    /// time is still in progress; its end decides).
    WaitCts { deadline: SimTime },
    /// CTS received; the DATA goes out SIFS after it, at `at`.
    SendData { at: SimTime },
    /// DATA (or management frame) sent; waiting for the Ack.
    WaitAck { deadline: SimTime },
}

/// What is on the air from this MAC.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum OnAir {
    Rts,
    Frame,
    Response,
}

/// A control response (CTS or Ack) due SIFS after the frame that elicited it.
#[derive(Clone, Debug)]
struct Response {
    at: SimTime,
    frame: Vec<u8>,
    mode: PhyMode,
    kind: FrameKind,
}

/// The largest Duration value (§9.2.4.2: bit 15 clear, 0–32 767 µs).
const MAX_DURATION_US: u64 = 32_767;

/// One 802.11 MAC entity (DCF with its interface queue and infrastructure role). See the
/// [module documentation](super) for the calling convention.
///
/// # Layout
///
/// The fields are in declaration order (`repr(C)`), the ones every frame heard touches first:
/// an ad hoc network of thousands of MACs is driven in the order in which neighbours hear
/// each other, so each `handle_medium_busy`/`handle_rx_frame` starts with cache misses on its
/// MAC; with carrier sense, backoff, phase, the event queue's header and the receive counters
/// packed into the first few cache lines there are few of them (with the compiler's order,
/// sorted by alignment, they were spread over the whole ~800-byte struct), and [`Dcf::touch`]
/// can load them all ahead of the events. Whatever only a
/// transmitting MAC or an infrastructure role uses (the frame in service, the queues, the
/// duplicate cache, the backoff stream, the AP/station state, boxed) comes after. The
/// configuration is shared ([`Arc`]): it never changes and every MAC of a run has the same.
///
/// Carrier sense and backoff are grouped in structs of their own (`CarrierSense`, `Backoff`,
/// both `repr(C)`, in `dcf/access.rs`), right after `phase`. Each ends in a few flags, and a
/// nested struct's tail padding cannot hold the next field, so the hot part is 8 bytes longer
/// than with the same fields flat: `cfg` is at offset 136 instead of 128 and
/// `counters.rx_frames`, the last hot field, ends at byte 240 instead of 232 (the struct is
/// 656 bytes instead of 648). At the offset where the engine's line-aligned `WifiIface` puts
/// its `Dcf` (288, 32 bytes into a line; `WifiIface` stays 960 bytes) the hot fields still
/// cover the same five cache lines and [`Dcf::touch`] still reads one field in each: check
/// both again when the layout here or around it changes.
///
/// The DIFS and EIFS (`ifs`, 16 bytes, right before `counters`) are computed once from the
/// configuration rather than on every [`Dcf::rearm`]. Measured with `offset_of!` when they
/// were added (the figures above predate later fields): `cfg` at offset 136, `ifs` at 248,
/// `counters.rx_frames` ending at byte 272 (256 without `ifs`), the struct 768 bytes (752); at
/// offset 288 the hot fields still span lines 4–8 of the `WifiIface`, and `ifs` shares line 8
/// with `counters.rx_frames`.
///
/// Since then the `Radio` has grown and the `Dcf` sits at byte 336 of the `WifiIface` (16
/// bytes into line 5). With `response` boxed (2026-11-29) `counters.rx_errors` ends at byte
/// 232 of the `Dcf` (568 of the `WifiIface`): the hot fields span lines 5–8, four lines
/// instead of five, and the struct is 720 bytes.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Dcf {
    // Hot: read or written on every frame heard.
    phase: Phase,
    /// Physical and virtual carrier sense, EIFS.
    cs: CarrierSense,
    /// The backoff counter and the contention window.
    backoff: Backoff,
    addr: MacAddr,
    on_air: Option<OnAir>,
    cfg: Arc<MacConfig>,
    events: VecDeque<MacEvent>,
    /// Boxed (8 bytes instead of 56): with it inline the hot fields spanned five cache lines
    /// of the `WifiIface` (the `Dcf` at its byte 336), boxed they span four. A response
    /// exists only for the SIFS before a CTS or Ack, but `poll_transmit` and `poll_timeout`
    /// test for it on every call.
    response: Option<Box<Response>>,
    role: Role,
    /// DIFS and EIFS of `cfg`, computed once. Here, on the cache line of
    /// `counters.rx_frames`, rather than next to `cfg`: there it moved `role` by 16 bytes and
    /// `role`'s deadline onto a line [`Dcf::touch`] does not load (1.1 M more L1 read misses
    /// on the 1,000-node channel case, cachegrind).
    ifs: Ifs,
    counters: MacCounters,

    // Cold: the transmit side, queues, the receive side's duplicate cache.
    current: Option<Outgoing>,
    queue: IfQueue,
    /// Management frames wait here, ahead of the interface queue.
    mgmt_queue: VecDeque<MgmtOut>,
    dup_cache: BTreeMap<MacAddr, SeqControl>,
    next_seq: u16,
    rng: Rng,
    /// Rate adaptation (`None`: every unicast data frame at `cfg.data_mode`).
    rate: Option<Box<RateController>>,
    /// [`RetryAccounting::Ns2_226`]: the station's short and long retry counts (ns-2.26's
    /// `ssrc_`, `slrc_`), kept across frames.
    station_retries: (u32, u32),
}

impl Dcf {
    /// A MAC with address `addr`, configuration `cfg`, role `role`, drawing its backoffs (and
    /// an AP's first TBTT) from `rng` — the stream `("dcf-backoff", node, iface)` of the run's
    /// seed tree. The medium is taken as idle since time zero. Pass an `Arc<MacConfig>` to
    /// share one configuration among many MACs.
    pub fn new(addr: MacAddr, cfg: impl Into<Arc<MacConfig>>, role: MacRole, mut rng: Rng) -> Self {
        let cfg = cfg.into();
        let role = Role::new(role, addr, &mut rng);
        // The controller's own stream is set by `set_rate_control_stream`; until then a fixed
        // one (never the backoff stream, whose draws must not depend on the algorithm).
        let rate = RateController::new(&cfg, Rng::from_seed(0)).map(Box::new);
        Dcf {
            rate,
            addr,
            queue: IfQueue::new(cfg.queue_limit),
            cs: CarrierSense::new(),
            backoff: Backoff::new(cfg.cw_min),
            station_retries: (0, 0),
            ifs: Ifs::of(&cfg),
            cfg,
            rng,
            mgmt_queue: VecDeque::new(),
            role,
            current: None,
            phase: Phase::Idle,
            on_air: None,
            response: None,
            dup_cache: BTreeMap::new(),
            next_seq: 0,
            events: VecDeque::new(),
            counters: MacCounters::default(),
        }
    }

    /// Gives the rate controller (Minstrel samples with it) its random stream: the engine
    /// passes `seeds.stream(("minstrel", node, iface))`. No effect without rate adaptation.
    pub fn set_rate_control_stream(&mut self, rng: Rng) {
        self.rate = RateController::new(&self.cfg, rng).map(Box::new);
    }

    /// The rate controller, if the MAC adapts its rate.
    pub fn rate_controller(&self) -> Option<&RateController> {
        self.rate.as_deref()
    }

    /// The rate controller (for recording its rate changes).
    pub fn rate_controller_mut(&mut self) -> Option<&mut RateController> {
        self.rate.as_deref_mut()
    }

    // ----------------------------------------------------------------------------------------
    // Accessors.

    /// This MAC's address.
    pub fn addr(&self) -> MacAddr {
        self.addr
    }

    /// The configuration.
    pub fn config(&self) -> &MacConfig {
        &self.cfg
    }

    /// The counters.
    pub fn counters(&self) -> &MacCounters {
        &self.counters
    }

    /// Packets waiting in the interface queue (the one in service not included).
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// Whether a frame is in service (contending, or in its frame exchange).
    pub fn is_busy_with_frame(&self) -> bool {
        self.current.is_some()
    }

    /// The packet in service, if it is one from IP, and the 802.11 sequence number it was
    /// given when it left the interface queue. A packet trace reads it after each input to see
    /// when a packet was dequeued (its tag's uid and this number differ from the last pair
    /// seen), so the MAC need not report an event for every packet when nobody traces.
    pub fn in_service(&self) -> Option<(&MacSdu, u16)> {
        match &self.current {
            Some(Outgoing {
                payload: Payload::Sdu(sdu),
                seq,
                ..
            }) => Some((sdu, seq.seq)),
            _ => None,
        }
    }

    /// The current contention window CW (a backoff is drawn uniformly from [0, CW]).
    pub fn contention_window(&self) -> u32 {
        self.backoff.cw
    }

    /// Backoff slots left at `now` (counting down lazily while the medium is idle).
    pub fn backoff_slots(&self, now: SimTime) -> u32 {
        self.backoff.slots_at(now, self.slot_ns(), self.busy())
    }

    /// A value computed from one field in each cache line of the state that handling a frame
    /// heard reads (the hot fields at the start of the struct). An engine that is about to
    /// deliver a frame to many MACs can call it for all of them in one loop, so that the
    /// loads overlap instead of each reception waiting for its own cache misses. The value
    /// means nothing; the MAC's state is not changed.
    pub fn touch(&self) -> u64 {
        let phase = match self.phase {
            Phase::Idle => 0,
            Phase::Contend => 1,
            Phase::WaitCts { deadline } | Phase::WaitAck { deadline } => deadline.0,
            Phase::SendData { at } => at.0,
        };
        let role = self.role.touch();
        phase
            .wrapping_add(self.cs.nav_until.0)
            .wrapping_add(self.backoff.due_at.map_or(0, |t| t.0))
            .wrapping_add(self.backoff.armed_target.0)
            .wrapping_add(u64::from(self.backoff.cw) + u64::from(self.cs.cca_busy))
            .wrapping_add(self.events.len() as u64)
            .wrapping_add(u64::from(self.response.is_some()) + role)
            .wrapping_add(self.counters.rx_frames)
    }

    /// The end of the NAV (virtual carrier sense).
    pub fn nav_until(&self) -> SimTime {
        self.cs.nav_until
    }

    /// Removes the waiting packets for `next_hop` from the interface queue and returns them
    /// (routing salvages them after a link failure; the frame in service is not touched).
    pub fn remove_queued_for(&mut self, next_hop: MacAddr) -> Vec<MacSdu> {
        self.queue.remove_for(next_hop)
    }

    // ----------------------------------------------------------------------------------------
    // Inputs.

    /// A packet from IP. It is queued (or dropped with [`MacEvent::QueueDrop`] if the queue is
    /// full) and, if the MAC is idle, taken into service at once.
    pub fn enqueue(&mut self, now: SimTime, sdu: MacSdu) {
        match self.queue.push(sdu) {
            None => self.counters.enqueued += 1,
            Some(dropped) => {
                self.counters.queue_drops += 1;
                // An arriving control packet that evicted the tail was itself accepted.
                self.counters.enqueued += 1;
                self.events.push_back(MacEvent::QueueDrop { sdu: dropped });
            }
        }
        self.start_next(now);
        self.rearm(now);
    }

    /// Physical carrier sense: the medium became busy (another transmission is heard).
    pub fn handle_medium_busy(&mut self, now: SimTime) {
        if self.cs.cca_to_busy() {
            self.rearm(now);
        }
    }

    /// Physical carrier sense: the medium became idle.
    pub fn handle_medium_idle(&mut self, now: SimTime) {
        if !self.cs.cca_to_idle(now) {
            return;
        }
        // A response wait extended for a reception in progress: the medium went idle; unless
        // the frame's end is reported at this same instant, the wait failed.
        match &mut self.phase {
            Phase::WaitAck { deadline } | Phase::WaitCts { deadline }
                if *deadline == SimTime::NEVER =>
            {
                *deadline = now;
            }
            _ => {}
        }
        self.rearm(now);
    }

    /// A frame ended at this radio: its bytes (MPDU with FCS) and what the PHY says about it.
    ///
    /// A frame received in error (`rx.ok == false`, FCS mismatch, unparsable) makes the next
    /// IFS an EIFS (§10.3.2.3.7). A good frame addressed to another station updates the NAV
    /// (§10.3.2.4). Frames for this station are answered (Ack, CTS) after SIFS, filtered for
    /// duplicates and delivered; management frames drive the infrastructure state machines.
    pub fn handle_rx_frame(&mut self, now: SimTime, frame: &[u8], rx: RxInfo) {
        if self.on_air.is_some() {
            // Half duplex: a radio that is transmitting receives nothing.
            return;
        }
        let parsed = if rx.ok {
            let repr = if rx.fcs_verified {
                FrameRepr::parse_bytes_trusted(frame)
            } else {
                FrameRepr::parse_bytes(frame)
            };
            match repr {
                Ok(f) => Ok(Some(f)),
                // A valid frame this MAC does not model: it still resynchronises the EIFS and
                // sets the NAV.
                Err(WireError::Unsupported) => Ok(None),
                Err(e) => Err(e),
            }
        } else {
            Err(WireError::BadChecksum)
        };
        let parsed = match parsed {
            Ok(p) => p,
            Err(_) => {
                self.counters.rx_errors += 1;
                self.cs.rx_error(now);
                // §10.3.2.9: a reception that started in the timeout window but is not a valid
                // Ack (or CTS) means the transmission failed.
                if matches!(self.phase, Phase::WaitAck { .. } | Phase::WaitCts { .. }) {
                    self.response_failed(now);
                }
                self.rearm(now);
                return;
            }
        };
        self.counters.rx_frames += 1;
        self.cs.rx_good();
        let Some(repr) = parsed else {
            // Unsupported but valid: NAV from the raw header, and any awaited response failed.
            if let Ok(view) = Ieee80211Frame::new_checked(frame) {
                if view.addr1() != self.addr {
                    let (cs, cfg) = (&mut self.cs, &self.cfg);
                    cs.update_nav(now, view.duration_id(), false, rx.mode, cfg);
                }
            }
            if matches!(self.phase, Phase::WaitAck { .. } | Phase::WaitCts { .. }) {
                self.response_failed(now);
            }
            self.rearm(now);
            return;
        };
        let me = self.addr;
        if repr.receiver() != me {
            let is_rts = matches!(repr, FrameRepr::Rts(_));
            self.cs
                .update_nav(now, repr.duration(), is_rts, rx.mode, &self.cfg);
        }
        // The awaited response, or the end of the wait.
        match (self.phase, &repr) {
            (Phase::WaitAck { .. }, FrameRepr::Ack(a)) if a.ra == me => {
                // §10.3.2.9: "The recognition of a valid Ack frame sent by the recipient ...
                // shall be interpreted as successful acknowledgment."
                self.tx_succeeded(now);
            }
            (Phase::WaitCts { .. }, FrameRepr::Cts(c)) if c.ra == me => {
                // §10.3.2 (RTS/CTS procedure): the DATA follows SIFS after the CTS ends; the short
                // retry count of the frame is reset (§10.3.4.4).
                if let Some(cur) = self.current.as_mut() {
                    cur.short_retries = 0;
                }
                self.phase = Phase::SendData {
                    at: now + self.cfg.sifs,
                };
            }
            (Phase::WaitAck { .. } | Phase::WaitCts { .. }, _) => self.response_failed(now),
            _ => {}
        }
        match repr {
            FrameRepr::Rts(r) if r.ra == me => {
                // §10.3.2 (CTS procedure): "A STA that is addressed by an RTS frame shall transmit a CTS frame
                // after a SIFS period if the NAV at the STA receiving the RTS frame indicates
                // that the medium is idle."
                if self.cs.nav_until <= now {
                    let mode = self.cfg.control_mode(rx.mode);
                    let cts_time = self.cfg.tx_time(mode, ACK_BYTES);
                    let rest = SimDuration::from_micros(u64::from(r.duration))
                        .0
                        .saturating_sub((self.cfg.sifs + cts_time).0);
                    let duration = duration_field(SimDuration(rest));
                    self.response = Some(Box::new(Response {
                        at: now + self.cfg.sifs,
                        frame: FrameRepr::Cts(CtsRepr { duration, ra: r.ta }).to_bytes(),
                        mode,
                        kind: FrameKind::Cts,
                    }));
                } else {
                    self.counters.cts_suppressed += 1;
                }
            }
            FrameRepr::Data(h, body) => self.rx_data(now, h, body, rx),
            FrameRepr::Mgmt(m) => self.rx_mgmt(now, &m, rx),
            _ => {}
        }
        self.rearm(now);
    }

    /// The frame this MAC put on the air (the last [`TxRequest`]) has ended.
    pub fn handle_tx_end(&mut self, now: SimTime) {
        let Some(kind) = self.on_air.take() else {
            return;
        };
        // The mode of the frame in service (its RTS goes at the control rate for it).
        let mode = self.current.as_ref().map(|c| c.mode);
        match kind {
            OnAir::Response => {}
            // §10.3.2.9: CTSTimeout, like AckTimeout, starts at PHY-TXEND.confirm.
            OnAir::Rts => {
                let timeout = match mode {
                    Some(m) => self.cfg.cts_timeout(self.cfg.control_mode(m)),
                    None => self.cfg.response_timeout(),
                };
                self.phase = Phase::WaitCts {
                    deadline: now + timeout,
                }
            }
            OnAir::Frame => {
                let group = self.current.as_ref().is_some_and(|c| c.ra.is_group());
                if group {
                    // Group-addressed frames are sent once, without Ack (§10.3.6, group addressed MPDU
                    // transfer procedure).
                    self.tx_succeeded(now);
                } else {
                    // §10.3.2.9: AckTimeout starts at PHY-TXEND.confirm.
                    let timeout = match mode {
                        Some(m) => self.cfg.ack_timeout(m),
                        None => self.cfg.response_timeout(),
                    };
                    self.phase = Phase::WaitAck {
                        deadline: now + timeout,
                    };
                }
            }
        }
        self.rearm(now);
    }

    /// A deadline from [`Dcf::poll_timeout`] arrived (an early or repeated call does nothing).
    pub fn handle_timeout(&mut self, now: SimTime) {
        match self.phase {
            Phase::WaitAck { deadline } | Phase::WaitCts { deadline } if deadline <= now => {
                if self.cs.cca_busy {
                    // A reception started within the timeout interval (PHY-RXSTART): its end
                    // decides (§10.3.2.9).
                    match &mut self.phase {
                        Phase::WaitAck { deadline } | Phase::WaitCts { deadline } => {
                            *deadline = SimTime::NEVER
                        }
                        _ => {}
                    }
                } else {
                    self.response_failed(now);
                }
            }
            _ => {}
        }
        // §10.3.2.4: no PHY-RXSTART after an RTS: the NAV it set may be reset.
        self.cs.nav_rts_timeout(now);
        self.role_timeout(now);
        self.rearm(now);
    }

    // ----------------------------------------------------------------------------------------
    // Outputs.

    /// A frame to put on the air now, if one is due: a SIFS response (Ack, CTS), the DATA after
    /// a CTS, or the frame in service (or its RTS) when its backoff has ended.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<TxRequest> {
        if self.on_air.is_some() {
            return None;
        }
        if self.response.as_ref().is_some_and(|r| r.at <= now) {
            let r = *self.response.take()?;
            match r.kind {
                FrameKind::Cts => self.counters.tx_cts += 1,
                _ => self.counters.tx_ack += 1,
            }
            self.on_air = Some(OnAir::Response);
            let duration = self.cfg.tx_time(r.mode, r.frame.len());
            self.rearm(now);
            return Some(TxRequest {
                frame: r.frame,
                mode: r.mode,
                preamble: self.cfg.preamble,
                duration,
                kind: r.kind,
                tag: PacketTag::default(),
            });
        }
        if let Phase::SendData { at } = self.phase {
            if at <= now {
                let req = self.transmit_frame(now);
                self.rearm(now);
                return req;
            }
            return None;
        }
        if !self.access_granted(now) {
            return None;
        }
        // Access granted: the backoff is complete.
        self.backoff.complete();
        self.counters.access_attempts += 1;
        let cur = self.current.as_ref()?;
        if !cur.ra.is_group() {
            self.counters.unicast_attempts += 1;
        }
        if self.rate.is_some() {
            self.choose_rate(now);
        }
        let cur = self.current.as_ref()?;
        let req = if self.uses_rts(cur) {
            self.transmit_rts()
        } else {
            self.transmit_frame(now)
        };
        self.rearm(now);
        req
    }

    /// The next event the MAC reports.
    pub fn poll_event(&mut self) -> Option<MacEvent> {
        self.events.pop_front()
    }

    /// When the MAC next needs [`Dcf::handle_timeout`] (or [`Dcf::poll_transmit`]): the end of
    /// a backoff, a SIFS response, a response timeout, a NAV reset check, a TBTT, a station's
    /// association or beacon-loss deadline. `None`: nothing scheduled.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        let mut t = SimTime::NEVER;
        if self.on_air.is_none() {
            if let Some(r) = &self.response {
                t = t.min(r.at);
            }
            match self.phase {
                Phase::SendData { at } => t = t.min(at),
                Phase::Contend => {
                    if let Some(d) = self.backoff.due_at {
                        t = t.min(d);
                    } else if let Some(d) = self.access_deadline() {
                        t = t.min(d);
                    }
                }
                _ => {}
            }
        }
        if let Phase::WaitAck { deadline } | Phase::WaitCts { deadline } = self.phase {
            t = t.min(deadline);
        }
        if let Some(c) = self.cs.nav_rts_check {
            t = t.min(c);
        }
        if let Some(d) = self.role_deadline() {
            t = t.min(d);
        }
        (t != SimTime::NEVER).then_some(t)
    }

    // ----------------------------------------------------------------------------------------
    // Transmit side.

    /// Asks the rate controller for the rate of this attempt of a unicast data frame (and of
    /// its RTS), and rewrites the frame's Duration field for the Ack at that rate.
    fn choose_rate(&mut self, now: SimTime) {
        let (Some(rc), Some(cur)) = (self.rate.as_deref_mut(), self.current.as_mut()) else {
            return;
        };
        if cur.ra.is_group() || !matches!(cur.payload, Payload::Sdu(_)) {
            return;
        }
        let mode = rc.select(now, cur.ra, cur.data_failures);
        if mode != cur.mode {
            cur.mode = mode;
            // §9.2.5: SIFS + Ack time at the Ack's rate for this data rate.
            let d = duration_field(self.cfg.sifs + self.cfg.ack_time(mode));
            let mut f = Ieee80211Frame::new_unchecked(&mut cur.frame[..]);
            f.set_duration_id(d);
            f.fill_fcs();
        }
    }

    /// The airtime of the frame in service: a data frame's per [`MacConfig::data_tx_time`]
    /// (ns-2.1b8 timing does not count its LLC/SNAP header), a management frame's per
    /// [`MacConfig::tx_time`].
    fn frame_time(&self, cur: &Outgoing) -> SimDuration {
        match cur.payload {
            Payload::Sdu(_) => self.cfg.data_tx_time(cur.mode, cur.frame.len()),
            Payload::Mgmt(_) => self.cfg.tx_time(cur.mode, cur.frame.len()),
        }
    }

    fn uses_rts(&self, cur: &Outgoing) -> bool {
        !cur.ra.is_group() && cur.frame.len() > self.cfg.rts_threshold as usize
    }

    fn transmit_rts(&mut self) -> Option<TxRequest> {
        let cur = self.current.as_ref()?;
        let rts_mode = self.cfg.control_mode(cur.mode);
        let cts_time = self.cfg.tx_time(self.cfg.control_mode(rts_mode), ACK_BYTES);
        let data_time = self.frame_time(cur);
        let ack_time = self.cfg.ack_time(cur.mode);
        // §9.3.1.2: RTS Duration = 3·SIFS + CTS + DATA + Ack.
        let nav = self.cfg.sifs.saturating_mul(3) + cts_time + data_time + ack_time;
        let frame = FrameRepr::Rts(RtsRepr {
            duration: duration_field(nav),
            ra: cur.ra,
            ta: self.addr,
        })
        .to_bytes();
        self.counters.tx_rts += 1;
        self.on_air = Some(OnAir::Rts);
        Some(TxRequest {
            duration: self.cfg.tx_time(rts_mode, RTS_LEN),
            frame,
            mode: rts_mode,
            preamble: self.cfg.preamble,
            kind: FrameKind::Rts,
            tag: PacketTag::default(),
        })
    }

    fn transmit_frame(&mut self, now: SimTime) -> Option<TxRequest> {
        self.refresh_beacon(now);
        let cur = self.current.as_mut()?;
        if cur.sent_once {
            // §9.2.4.1.4: the Retry bit marks a retransmission.
            Ieee80211Frame::new_unchecked(&mut cur.frame[..]).set_retry_and_fcs(true);
            if matches!(cur.payload, Payload::Sdu(_)) {
                self.counters.tx_data_retries += 1;
            }
        }
        cur.sent_once = true;
        match cur.payload {
            Payload::Sdu(_) => {
                self.counters.tx_data += 1;
                if cur.ra.is_group() {
                    self.counters.tx_group += 1;
                } else {
                    self.counters.tx_unicast_data += 1;
                    self.counters.tx_unicast_data_bps += cur.mode.rate_bps();
                }
            }
            Payload::Mgmt(_) => self.counters.tx_mgmt += 1,
        }
        self.on_air = Some(OnAir::Frame);
        let cur = self.current.as_ref()?;
        Some(TxRequest {
            duration: self.frame_time(cur),
            frame: cur.frame.clone(),
            mode: cur.mode,
            preamble: self.cfg.preamble,
            kind: Ieee80211Frame::new_unchecked(&cur.frame[..])
                .frame_control()
                .kind(),
            tag: match &cur.payload {
                Payload::Sdu(sdu) => sdu.tag,
                Payload::Mgmt(_) => PacketTag::default(),
            },
        })
    }

    /// The frame in service was Acked (or, group-addressed, sent).
    fn tx_succeeded(&mut self, now: SimTime) {
        let Some(out) = self.current.take() else {
            return;
        };
        self.phase = Phase::Idle;
        // §10.3.3 (Random backoff time): CW is reset to aCWmin after every successful attempt.
        self.backoff.reset_cw(self.cfg.cw_min);
        if !out.ra.is_group() {
            self.counters.tx_success += 1;
            self.counters.count_acked(out.retries);
            if self.cfg.retry_accounting == RetryAccounting::Ns2_226 {
                // ns-2.26 `recvACK`: only the count of the frame's size class is reset.
                if out.frame.len() > self.cfg.rts_threshold as usize {
                    self.station_retries.1 = 0;
                } else {
                    self.station_retries.0 = 0;
                }
            }
            if let (Some(rc), Payload::Sdu(_)) = (self.rate.as_deref_mut(), &out.payload) {
                rc.report_acked(now, out.ra, out.mode);
            }
        }
        if let Payload::Sdu(sdu) = out.payload {
            self.events.push_back(MacEvent::TxSuccess {
                dst: sdu.dst,
                retries: out.retries,
            });
        }
        // §10.3.4.3: a backoff after every transmission (post-backoff).
        self.draw_backoff();
        self.start_next(now);
    }

    /// No valid CTS or Ack: count the retry, retransmit or discard (§10.3.4.4).
    fn response_failed(&mut self, now: SimTime) {
        let was_cts = matches!(self.phase, Phase::WaitCts { .. });
        if was_cts {
            self.counters.cts_timeouts += 1;
        } else {
            self.counters.ack_timeouts += 1;
        }
        let threshold = self.cfg.rts_threshold as usize;
        let (short_limit, long_limit) = (self.cfg.short_retry_limit, self.cfg.long_retry_limit);
        let accounting = self.cfg.retry_accounting;
        let Some(cur) = self.current.as_mut() else {
            self.phase = Phase::Idle;
            return;
        };
        if !was_cts && matches!(cur.payload, Payload::Sdu(_)) && !cur.ra.is_group() {
            if let Some(rc) = self.rate.as_deref_mut() {
                rc.report_failed(now, cur.ra, cur.mode);
            }
            cur.data_failures += 1;
        }
        let above_threshold = cur.frame.len() > threshold;
        let long = match accounting {
            // §10.3.4.4: an RTS failure counts against the short retry count.
            RetryAccounting::Standard | RetryAccounting::Ns2_226 => !was_cts && above_threshold,
            // Ye et al. (2003, §4): every failure of a long frame counts against the long one.
            RetryAccounting::PerFrame => above_threshold,
        };
        let reason = if accounting == RetryAccounting::Ns2_226 {
            // ns-2.26: the station's counts; `RetransmitRTS` drops at `ssrc_ >= limit`,
            // `RetransmitDATA` at `*rcount > *thresh`; the count that dropped is reset.
            let (count, limit, why) = if long {
                (
                    &mut self.station_retries.1,
                    long_limit,
                    DropReason::LongRetryLimit,
                )
            } else {
                (
                    &mut self.station_retries.0,
                    short_limit,
                    DropReason::ShortRetryLimit,
                )
            };
            *count += 1;
            let over = if was_cts {
                *count >= limit
            } else {
                *count > limit
            };
            if over {
                *count = 0;
            }
            over.then_some(why)
        } else if long {
            cur.long_retries += 1;
            (cur.long_retries >= long_limit).then_some(DropReason::LongRetryLimit)
        } else {
            cur.short_retries += 1;
            (cur.short_retries >= short_limit).then_some(DropReason::ShortRetryLimit)
        };
        match reason {
            None => {
                cur.retries += 1;
                // §10.3.3: CW doubles (as 2^k − 1) up to aCWmax after each failed attempt.
                self.backoff.grow_cw(self.cfg.cw_max);
                self.draw_backoff();
                self.phase = Phase::Contend;
            }
            Some(reason) => {
                match reason {
                    DropReason::LongRetryLimit => self.counters.drops_long_retry += 1,
                    _ => self.counters.drops_short_retry += 1,
                }
                let out = self.current.take();
                if let (Some(rc), Some(o)) = (self.rate.as_deref_mut(), &out) {
                    if matches!(o.payload, Payload::Sdu(_)) {
                        rc.report_final_failure(now, o.ra);
                    }
                }
                self.phase = Phase::Idle;
                // §10.3.3: CW is reset when a retry limit is reached.
                self.backoff.reset_cw(self.cfg.cw_min);
                match out.map(|o| o.payload) {
                    Some(Payload::Sdu(sdu)) => self.events.push_back(MacEvent::TxFailed {
                        next_hop: sdu.dst,
                        sdu,
                        reason,
                    }),
                    Some(Payload::Mgmt(m)) => self.mgmt_undeliverable(now, &m),
                    None => {}
                }
                self.draw_backoff();
                self.start_next(now);
            }
        }
    }

    /// Takes the next frame into service: management frames first, then the interface queue
    /// (a station that is not associated sends no data).
    fn start_next(&mut self, now: SimTime) {
        if self.current.is_some() || self.phase != Phase::Idle {
            return;
        }
        let next = if let Some(m) = self.mgmt_queue.pop_front() {
            Some(self.prepare_mgmt(now, m))
        } else if self.data_allowed() {
            match self.queue.pop() {
                Some(sdu) => self.prepare_sdu(sdu),
                None => None,
            }
        } else {
            None
        };
        let Some(out) = next else {
            return;
        };
        self.current = Some(out);
        self.phase = Phase::Contend;
        // §10.3.4.2/3: a frame that finds the medium busy (physical or virtual carrier sense)
        // and no backoff pending invokes the backoff procedure.
        if !self.backoff_in_progress(now) && (self.busy() || self.cs.nav_until > now) {
            self.draw_backoff();
        }
    }

    fn seq(&mut self) -> SeqControl {
        // §10.3.2.14.2: a modulo-4096 counter per transmitter for non-QoS frames.
        let seq = SeqControl {
            seq: self.next_seq,
            frag: 0,
        };
        self.next_seq = (self.next_seq + 1) & 0x0fff;
        seq
    }

    fn unicast_duration(&self, mode: PhyMode) -> u16 {
        // §9.2.5 (Duration/ID field): SIFS + Ack time for an individually addressed frame
        // without fragments.
        duration_field(self.cfg.sifs + self.cfg.ack_time(mode))
    }

    fn prepare_sdu(&mut self, sdu: MacSdu) -> Option<Outgoing> {
        let me = self.addr;
        let (to_ds, from_ds, addr1, addr3) = self.data_addresses(sdu.dst)?;
        let mode = if addr1.is_group() {
            self.cfg.group_mode()
        } else {
            self.cfg.data_mode
        };
        let seq = self.seq();
        let header = DataRepr {
            null: false,
            to_ds,
            from_ds,
            retry: false,
            power_mgmt: false,
            more_data: false,
            duration: if addr1.is_group() {
                0
            } else {
                self.unicast_duration(mode)
            },
            addr1,
            addr2: me,
            addr3,
            seq,
        };
        let frame = data_frame(&header, ETHERTYPE_IPV4, &sdu.bytes);
        Some(Outgoing {
            payload: Payload::Sdu(sdu),
            ra: addr1,
            frame,
            mode,
            seq,
            short_retries: 0,
            long_retries: 0,
            retries: 0,
            sent_once: false,
            data_failures: 0,
        })
    }

    // ----------------------------------------------------------------------------------------
    // Receive side.

    /// Schedules the Ack of a frame from `ta` received with `mode` (§10.3.2.9 Ack procedure: after SIFS,
    /// regardless of the busy/idle state of the medium).
    fn schedule_ack(&mut self, now: SimTime, ta: MacAddr, mode: PhyMode) {
        self.response = Some(Box::new(Response {
            at: now + self.cfg.sifs,
            frame: FrameRepr::Ack(AckRepr {
                duration: 0,
                ra: ta,
            })
            .to_bytes(),
            mode: self.cfg.control_mode(mode),
            kind: FrameKind::Ack,
        }));
    }

    /// §10.3.2.14.3: a cache of <Address 2, sequence number, fragment number> per transmitter;
    /// a frame with the Retry bit set that matches the cache is a duplicate.
    fn is_duplicate(&mut self, ta: MacAddr, seq: SeqControl, retry: bool) -> bool {
        let previous = self.dup_cache.insert(ta, seq);
        if retry && previous == Some(seq) {
            self.counters.rx_duplicates += 1;
            return true;
        }
        false
    }

    fn rx_data(&mut self, now: SimTime, h: DataRepr, body: &[u8], rx: RxInfo) {
        let me = self.addr;
        if h.addr1 == me {
            self.schedule_ack(now, h.addr2, rx.mode);
            if self.is_duplicate(h.addr2, h.seq, h.retry) {
                return;
            }
        } else if !h.addr1.is_group() {
            if self.cfg.promiscuous && !h.null {
                if let Some(bytes) = ipv4_payload(body) {
                    self.events.push_back(MacEvent::Overheard {
                        src: h.addr2,
                        dst: h.addr1,
                        bytes: bytes.to_vec(),
                        tag: rx.tag,
                    });
                }
            }
            return;
        }
        if !self.accepts_data(now, &h) || h.null {
            return;
        }
        if let Some(bytes) = ipv4_payload(body) {
            self.counters.delivered += 1;
            self.events.push_back(MacEvent::Delivered {
                src: h.sa(),
                dst: h.da(),
                bytes: bytes.to_vec(),
                tag: rx.tag,
            });
        }
    }
}

/// The IPv4 packet inside an LLC/SNAP-encapsulated data frame body.
fn ipv4_payload(body: &[u8]) -> Option<&[u8]> {
    let llc = LlcSnapPacket::new_checked(body).ok()?;
    let repr = LlcSnapRepr::parse(&llc).ok()?;
    if repr.ethertype != ETHERTYPE_IPV4 {
        return None;
    }
    body.get(repr.header_len()..)
}

/// A duration as the Duration field: microseconds rounded up to the next integer (§9.2.5),
/// at most 32 767.
fn duration_field(d: SimDuration) -> u16 {
    d.0.div_ceil(1_000).min(MAX_DURATION_US) as u16
}
