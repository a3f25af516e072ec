//! The distributed coordination function (IEEE Std 802.11-2020 §10.3): carrier sense (physical
//! and virtual), interframe spaces, binary exponential backoff with freezing and post-backoff,
//! RTS/CTS, acknowledgments, retransmission with the short and long retry limits, duplicate
//! filtering, and the infrastructure state machines of [`super::infra`].
//!
//! # Medium access in one paragraph
//!
//! The MAC tracks when the medium last became idle (`idle_since`: physical carrier sense from
//! [`Dcf::handle_medium_busy`]/[`Dcf::handle_medium_idle`], its own transmissions and its own
//! response waits all count as busy), the NAV (`nav_until`) and the start of the EIFS after a
//! frame received in error. While the medium is idle, slot counting starts at
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
    capability, data_frame, AckRepr, AssocReqBody, AssocRespBody, AuthBody, BeaconBody, CtsRepr,
    DataRepr, Elements, FrameKind, FrameRepr, Ieee80211Frame, LlcSnapPacket, LlcSnapRepr, MgmtBody,
    MgmtRepr, ReassocReqBody, RtsRepr, SeqControl, AUTH_OPEN_SYSTEM, ETHERTYPE_IPV4, RTS_LEN,
};
use sctpsim_wire::WireError;

use super::counters::MacCounters;
use super::infra::{Action, ApState, MacRole, MgmtOut, MgmtWhat, StaState};
use super::phy_timing::{PhyMode, PhyStandard, Preamble, ACK_BYTES};
use super::profiles::MacConfig;
use super::queue::IfQueue;
use super::{DropReason, MacAddr, MacEvent, MacSdu, RxInfo, TxRequest};

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
    /// Long retry count: failures of a frame longer than dot11RTSThreshold.
    long_retries: u32,
    /// Transmission attempts beyond the first (RTS and DATA).
    retries: u32,
    /// The frame itself has been on the air: a retransmission sets the Retry bit.
    sent_once: bool,
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

/// The infrastructure role; an AP's or a station's state (hundreds of bytes, touched only by
/// management frames and their deadlines) is boxed, out of the MAC's hot cache lines.
#[derive(Clone, Debug)]
enum Role {
    AdHoc { bssid: MacAddr },
    Ap(Box<ApState>),
    Sta(Box<StaState>),
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
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Dcf {
    // Hot: read or written on every frame heard.
    phase: Phase,
    // Carrier sense.
    idle_since: SimTime,
    nav_until: SimTime,
    /// Start of the EIFS after a frame received in error; `eifs_pending`: the medium was still
    /// busy when the error was reported, the EIFS starts when it turns idle.
    eifs_ref: Option<SimTime>,
    /// §10.3.2.4: when to reset a NAV set by an RTS if nothing followed it.
    nav_rts_check: Option<SimTime>,
    // Backoff.
    count_from: Option<SimTime>,
    due_at: Option<SimTime>,
    /// The access start `count_from` was armed for (before clamping to the arming time).
    armed_target: SimTime,
    slots: u32,
    cw: u32,
    addr: MacAddr,
    cca_busy: bool,
    was_busy: bool,
    rx_since_rts: bool,
    eifs_pending: bool,
    /// A backoff procedure is in progress (its counter may be 0 and not yet consumed).
    backoff_pending: bool,
    on_air: Option<OnAir>,
    cfg: Arc<MacConfig>,
    events: VecDeque<MacEvent>,
    response: Option<Response>,
    role: Role,
    counters: MacCounters,

    // Cold: the transmit side, queues, the receive side's duplicate cache.
    current: Option<Outgoing>,
    queue: IfQueue,
    /// Management frames wait here, ahead of the interface queue.
    mgmt_queue: VecDeque<MgmtOut>,
    dup_cache: BTreeMap<MacAddr, SeqControl>,
    next_seq: u16,
    rng: Rng,
}

impl Dcf {
    /// A MAC with address `addr`, configuration `cfg`, role `role`, drawing its backoffs (and
    /// an AP's first TBTT) from `rng` — the stream `("dcf-backoff", node, iface)` of the run's
    /// seed tree. The medium is taken as idle since time zero. Pass an `Arc<MacConfig>` to
    /// share one configuration among many MACs.
    pub fn new(addr: MacAddr, cfg: impl Into<Arc<MacConfig>>, role: MacRole, mut rng: Rng) -> Self {
        let cfg = cfg.into();
        let role = match role {
            MacRole::AdHoc { bssid } => Role::AdHoc { bssid },
            MacRole::Ap(ap) => {
                let interval = ap.interval();
                let first = ap
                    .first_tbtt
                    .unwrap_or_else(|| SimDuration(rng.below(interval.0.max(1))));
                Role::Ap(Box::new(ApState::new(ap, addr, first)))
            }
            MacRole::Sta(sta) => Role::Sta(Box::new(StaState::new(sta))),
        };
        Dcf {
            addr,
            queue: IfQueue::new(cfg.queue_limit),
            cw: cfg.cw_min,
            cfg,
            rng,
            mgmt_queue: VecDeque::new(),
            role,
            cca_busy: false,
            was_busy: false,
            idle_since: SimTime::ZERO,
            nav_until: SimTime::ZERO,
            nav_rts_check: None,
            rx_since_rts: false,
            eifs_ref: None,
            eifs_pending: false,
            slots: 0,
            backoff_pending: false,
            count_from: None,
            armed_target: SimTime::ZERO,
            due_at: None,
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

    /// The current contention window CW (a backoff is drawn uniformly from [0, CW]).
    pub fn contention_window(&self) -> u32 {
        self.cw
    }

    /// Backoff slots left at `now` (counting down lazily while the medium is idle).
    pub fn backoff_slots(&self, now: SimTime) -> u32 {
        match self.count_from {
            Some(cf) if !self.busy() && now > cf => {
                let k = (now - cf).0 / self.slot_ns();
                self.slots - k.min(u64::from(self.slots)) as u32
            }
            _ => self.slots,
        }
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
        let role = match &self.role {
            Role::AdHoc { bssid } => u64::from(bssid.0[5]),
            Role::Ap(_) => 1,
            Role::Sta(_) => 2,
        };
        phase
            .wrapping_add(self.nav_until.0)
            .wrapping_add(self.due_at.map_or(0, |t| t.0))
            .wrapping_add(self.armed_target.0)
            .wrapping_add(u64::from(self.cw) + u64::from(self.cca_busy))
            .wrapping_add(self.events.len() as u64)
            .wrapping_add(u64::from(self.response.is_some()) + role)
            .wrapping_add(self.counters.rx_frames)
    }

    /// The end of the NAV (virtual carrier sense).
    pub fn nav_until(&self) -> SimTime {
        self.nav_until
    }

    /// Station: the AP of the current association. AP: its own address. Ad hoc: the BSSID.
    pub fn bssid(&self) -> Option<MacAddr> {
        match &self.role {
            Role::AdHoc { bssid } => Some(*bssid),
            Role::Ap(_) => Some(self.addr),
            Role::Sta(s) => s.bssid(),
        }
    }

    /// AP: the associated stations and their association IDs, in address order.
    pub fn associated_stations(&self) -> Vec<(MacAddr, u16)> {
        match &self.role {
            Role::Ap(ap) => ap.stations().iter().map(|(a, id)| (*a, *id)).collect(),
            _ => Vec::new(),
        }
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
        if !self.cca_busy {
            self.cca_busy = true;
            self.rx_since_rts = true;
            self.rearm(now);
        }
    }

    /// Physical carrier sense: the medium became idle.
    pub fn handle_medium_idle(&mut self, now: SimTime) {
        if !self.cca_busy {
            return;
        }
        self.cca_busy = false;
        if self.eifs_pending {
            // §10.3.2.3.7: "The EIFS shall begin following indication by the PHY that the
            // medium is idle after detection of the erroneous frame".
            self.eifs_pending = false;
            self.eifs_ref = Some(now);
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
                if self.cca_busy {
                    self.eifs_pending = true;
                } else {
                    self.eifs_ref = Some(now);
                }
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
        // §10.3.2.3.7: a correctly received frame resynchronises the station (DIFS again).
        self.eifs_ref = None;
        self.eifs_pending = false;
        let Some(repr) = parsed else {
            // Unsupported but valid: NAV from the raw header, and any awaited response failed.
            if let Ok(view) = Ieee80211Frame::new_checked(frame) {
                if view.addr1() != self.addr {
                    self.update_nav(now, view.duration_id(), false, rx.mode);
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
            self.update_nav(now, repr.duration(), is_rts, rx.mode);
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
                if self.nav_until <= now {
                    let mode = self.cfg.control_mode(rx.mode);
                    let cts_time = self.cfg.tx_time(mode, ACK_BYTES);
                    let rest = SimDuration::from_micros(u64::from(r.duration))
                        .0
                        .saturating_sub((self.cfg.sifs + cts_time).0);
                    let duration = duration_field(SimDuration(rest));
                    self.response = Some(Response {
                        at: now + self.cfg.sifs,
                        frame: FrameRepr::Cts(CtsRepr { duration, ra: r.ta }).to_bytes(),
                        mode,
                        kind: FrameKind::Cts,
                    });
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
        let timeout = now + self.cfg.response_timeout();
        match kind {
            OnAir::Response => {}
            // §10.3.2.9: CTSTimeout, like AckTimeout, starts at PHY-TXEND.confirm.
            OnAir::Rts => self.phase = Phase::WaitCts { deadline: timeout },
            OnAir::Frame => {
                let group = self.current.as_ref().is_some_and(|c| c.ra.is_group());
                if group {
                    // Group-addressed frames are sent once, without Ack (§10.3.6, group addressed MPDU
                    // transfer procedure).
                    self.tx_succeeded(now);
                } else {
                    // §10.3.2.9: AckTimeout starts at PHY-TXEND.confirm.
                    self.phase = Phase::WaitAck { deadline: timeout };
                }
            }
        }
        self.rearm(now);
    }

    /// A deadline from [`Dcf::poll_timeout`] arrived (an early or repeated call does nothing).
    pub fn handle_timeout(&mut self, now: SimTime) {
        match self.phase {
            Phase::WaitAck { deadline } | Phase::WaitCts { deadline } if deadline <= now => {
                if self.cca_busy {
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
        if let Some(check) = self.nav_rts_check {
            if check <= now {
                self.nav_rts_check = None;
                if !self.rx_since_rts && self.nav_until > now {
                    // §10.3.2.4: no PHY-RXSTART after the RTS: the NAV may be reset.
                    self.nav_until = now;
                }
            }
        }
        let mut actions = Vec::new();
        match &mut self.role {
            Role::Ap(ap) => ap.on_timeout(now, &mut actions),
            Role::Sta(sta) => {
                if sta.next_deadline() <= now {
                    sta.on_timeout(now, &mut actions)
                }
            }
            Role::AdHoc { .. } => {}
        }
        self.apply(now, actions);
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
            let r = self.response.take()?;
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
        self.due_at = None;
        self.count_from = None;
        self.slots = 0;
        self.backoff_pending = false;
        self.counters.access_attempts += 1;
        let cur = self.current.as_ref()?;
        if !cur.ra.is_group() {
            self.counters.unicast_attempts += 1;
        }
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
                    if let Some(d) = self.due_at {
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
        if let Some(c) = self.nav_rts_check {
            t = t.min(c);
        }
        match &self.role {
            Role::Ap(ap) => t = t.min(ap.next_deadline()),
            Role::Sta(sta) => t = t.min(sta.next_deadline()),
            Role::AdHoc { .. } => {}
        }
        (t != SimTime::NEVER).then_some(t)
    }

    // ----------------------------------------------------------------------------------------
    // Carrier sense and backoff.

    fn slot_ns(&self) -> u64 {
        self.cfg.slot.0.max(1)
    }

    /// Busy for the purpose of medium access: physical carrier sense, this MAC's own
    /// transmission, and its own frame exchange in progress (the IFS after a response timeout
    /// counts from the end of the timeout).
    fn busy(&self) -> bool {
        self.cca_busy
            || self.on_air.is_some()
            || matches!(
                self.phase,
                Phase::WaitAck { .. } | Phase::WaitCts { .. } | Phase::SendData { .. }
            )
    }

    /// Where slot counting starts in the current idle period: DIFS after the medium became
    /// idle, EIFS after the end of a frame received in error, DIFS after the NAV ends.
    fn access_start(&self) -> SimTime {
        let difs = self.cfg.difs();
        let mut t = (self.idle_since + difs).max(self.nav_until + difs);
        if let Some(e) = self.eifs_ref {
            t = t.max(e + self.cfg.eifs());
        }
        t
    }

    /// When the backoff of the frame in service ends, if the medium is idle.
    fn access_deadline(&self) -> Option<SimTime> {
        if self.busy() {
            return None;
        }
        let cf = self.count_from?;
        Some(cf + SimDuration(u64::from(self.slots).saturating_mul(self.slot_ns())))
    }

    fn access_granted(&self, now: SimTime) -> bool {
        if self.phase != Phase::Contend || self.current.is_none() {
            return false;
        }
        if self.due_at == Some(now) {
            return true;
        }
        self.access_deadline().is_some_and(|d| d <= now)
    }

    /// Freezes the backoff at `now`: the whole idle slots since `count_from` are consumed.
    /// A backoff that ends exactly now still transmits (it could not have sensed a
    /// transmission that starts at the same instant).
    fn freeze(&mut self, now: SimTime) {
        let Some(cf) = self.count_from.take() else {
            return;
        };
        let slot = self.slot_ns();
        let deadline = cf + SimDuration(u64::from(self.slots).saturating_mul(slot));
        if deadline <= now && self.phase == Phase::Contend && self.current.is_some() {
            self.due_at = Some(now);
            self.slots = 0;
            return;
        }
        if now > cf {
            let k = ((now - cf).0 / slot).min(u64::from(self.slots)) as u32;
            self.slots -= k;
        }
        if deadline <= now {
            // A post-backoff that ran out while the medium was idle.
            self.slots = 0;
            self.backoff_pending = false;
        }
    }

    /// Brings the backoff bookkeeping in line with the medium state at `now`; called after
    /// every change of carrier sense, NAV, EIFS or phase.
    fn rearm(&mut self, now: SimTime) {
        if self.due_at.is_some_and(|d| d < now) {
            self.due_at = None;
        }
        if self.busy() {
            self.freeze(now);
            self.was_busy = true;
            return;
        }
        if self.was_busy {
            self.was_busy = false;
            self.idle_since = now;
        }
        let target = self.access_start();
        match self.count_from {
            None => {
                // The medium has been idle since `idle_since`; counting starts at the IFS end
                // (slots the MAC did not yet account for, before `now`, count too).
                self.count_from = Some(target);
                self.armed_target = target;
            }
            Some(_) if self.armed_target != target => {
                // NAV or EIFS changed during an idle period: slots counted so far stay counted,
                // counting resumes at the new start (never before now).
                self.freeze(now);
                self.count_from = Some(target.max(now));
                self.armed_target = target;
            }
            Some(_) => {}
        }
    }

    /// §10.3.4.3: "Backoff Time = Random() × aSlotTime", Random() uniform in [0, CW].
    fn draw_backoff(&mut self) {
        self.slots = self.rng.below(u64::from(self.cw) + 1) as u32;
        self.backoff_pending = true;
    }

    /// Whether a backoff is still in progress at `now` (one that ran out during an idle
    /// period is complete).
    fn backoff_in_progress(&mut self, now: SimTime) -> bool {
        if !self.backoff_pending {
            return false;
        }
        if let Some(d) = self.access_deadline() {
            if d <= now {
                self.backoff_pending = false;
                self.slots = 0;
                return false;
            }
        }
        true
    }

    fn update_nav(&mut self, now: SimTime, duration: u16, from_rts: bool, mode: PhyMode) {
        if duration & 0x8000 != 0 {
            return; // an AID (PS-Poll) or reserved value, not a duration (§9.2.4.2)
        }
        let until = now + SimDuration::from_micros(u64::from(duration));
        // §10.3.2.4: update "only when the new NAV value is greater than the current NAV".
        if until <= self.nav_until {
            return;
        }
        self.nav_until = until;
        self.nav_rts_check = None;
        if from_rts && self.cfg.nav_reset_after_rts {
            // §10.3.2.4: (2 × aSIFSTime) + (CTS_Time) + aRxPHYStartDelay + (2 × aSlotTime),
            // CTS_Time at the rate of the RTS.
            let cts_time = self.cfg.tx_time(mode, ACK_BYTES);
            let wait = self.cfg.sifs.saturating_mul(2)
                + cts_time
                + self.cfg.rx_phy_start_delay
                + self.cfg.slot.saturating_mul(2);
            self.nav_rts_check = Some(now + wait);
            self.rx_since_rts = false;
        }
    }

    // ----------------------------------------------------------------------------------------
    // Transmit side.

    fn uses_rts(&self, cur: &Outgoing) -> bool {
        !cur.ra.is_group() && cur.frame.len() > self.cfg.rts_threshold as usize
    }

    fn transmit_rts(&mut self) -> Option<TxRequest> {
        let cur = self.current.as_ref()?;
        let rts_mode = self.cfg.control_mode(cur.mode);
        let cts_time = self.cfg.tx_time(self.cfg.control_mode(rts_mode), ACK_BYTES);
        let data_time = self.cfg.tx_time(cur.mode, cur.frame.len());
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
        let beacon = matches!(
            self.current.as_ref()?.payload,
            Payload::Mgmt(MgmtOut {
                what: MgmtWhat::Beacon,
                ..
            })
        );
        if beacon {
            let (seq, out) = match &self.current.as_ref()?.payload {
                Payload::Mgmt(out) => (self.current.as_ref()?.seq, out.clone()),
                Payload::Sdu(_) => return None,
            };
            let frame = self.build_mgmt(now, seq, &out);
            self.current.as_mut()?.frame = frame;
            self.counters.tx_beacons += 1;
        }
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
                }
            }
            Payload::Mgmt(_) => self.counters.tx_mgmt += 1,
        }
        self.on_air = Some(OnAir::Frame);
        Some(TxRequest {
            duration: self.cfg.tx_time(cur.mode, cur.frame.len()),
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
        self.cw = self.cfg.cw_min;
        if !out.ra.is_group() {
            self.counters.tx_success += 1;
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
        let Some(cur) = self.current.as_mut() else {
            self.phase = Phase::Idle;
            return;
        };
        let long = !was_cts && cur.frame.len() > threshold;
        let reason = if long {
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
                self.cw = self
                    .cw
                    .saturating_mul(2)
                    .saturating_add(1)
                    .min(self.cfg.cw_max);
                self.draw_backoff();
                self.phase = Phase::Contend;
            }
            Some(reason) => {
                match reason {
                    DropReason::LongRetryLimit => self.counters.drops_long_retry += 1,
                    _ => self.counters.drops_short_retry += 1,
                }
                let out = self.current.take();
                self.phase = Phase::Idle;
                // §10.3.3: CW is reset when a retry limit is reached.
                self.cw = self.cfg.cw_min;
                match out.map(|o| o.payload) {
                    Some(Payload::Sdu(sdu)) => self.events.push_back(MacEvent::TxFailed {
                        next_hop: sdu.dst,
                        sdu,
                        reason,
                    }),
                    Some(Payload::Mgmt(m)) => {
                        let mut actions = Vec::new();
                        if let Role::Sta(sta) = &mut self.role {
                            sta.on_mgmt_undeliverable(now, m.da, &mut actions);
                        }
                        self.apply(now, actions);
                    }
                    None => {}
                }
                self.draw_backoff();
                self.start_next(now);
            }
        }
    }

    fn data_allowed(&self) -> bool {
        match &self.role {
            Role::AdHoc { .. } | Role::Ap(_) => true,
            Role::Sta(s) => s.bssid().is_some(),
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
        if !self.backoff_in_progress(now) && (self.busy() || self.nav_until > now) {
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
        let (to_ds, from_ds, addr1, addr3) = match &self.role {
            Role::AdHoc { bssid } => (false, false, sdu.dst, *bssid),
            Role::Sta(s) => (true, false, s.bssid()?, sdu.dst),
            Role::Ap(_) => (false, true, sdu.dst, me),
        };
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
        })
    }

    fn prepare_mgmt(&mut self, now: SimTime, out: MgmtOut) -> Outgoing {
        let seq = self.seq();
        let frame = self.build_mgmt(now, seq, &out);
        Outgoing {
            ra: out.da,
            payload: Payload::Mgmt(out),
            frame,
            mode: self.cfg.mgmt_mode(),
            seq,
            short_retries: 0,
            long_retries: 0,
            retries: 0,
            sent_once: false,
        }
    }

    fn capability(&self) -> u16 {
        let mut c = match self.role {
            Role::Ap(_) => capability::ESS,
            Role::AdHoc { .. } => capability::IBSS,
            Role::Sta(_) => 0,
        };
        if self.cfg.standard == (PhyStandard::Erp { short_slot: true }) {
            c |= capability::SHORT_SLOT_TIME;
        }
        if self.cfg.preamble == Preamble::Short {
            c |= capability::SHORT_PREAMBLE;
        }
        c
    }

    /// The bytes of a management frame.
    fn build_mgmt(&self, now: SimTime, seq: SeqControl, out: &MgmtOut) -> Vec<u8> {
        let mode = self.cfg.mgmt_mode();
        let rates = self.cfg.rates_element();
        let cap = self.capability();
        let (ssid, interval_tu, channel): (&[u8], u16, u8) = match &self.role {
            Role::Ap(ap) => (&ap.cfg.ssid, ap.cfg.beacon_interval_tu, ap.cfg.channel),
            _ => (&[], 0, 1),
        };
        let ssid = &ssid[..ssid.len().min(32)];
        let beacon_body = || {
            // §9.4.1.10: the TSF value when the first bit of the Timestamp is transmitted:
            // transmission start + PLCP + 24 octets of MAC header.
            let at = now
                + mode.plcp_overhead(self.cfg.preamble)
                + SimDuration(24 * 8 * 1_000_000_000 / mode.rate_bps().max(1));
            BeaconBody {
                timestamp: at.0 / 1_000,
                interval_tu,
                capability: cap,
                elements: Elements::with_rates(Some(ssid), &rates, Some(channel)),
            }
        };
        let body = match &out.what {
            MgmtWhat::Beacon => MgmtBody::Beacon(beacon_body()),
            MgmtWhat::ProbeResp => MgmtBody::ProbeResp(beacon_body()),
            MgmtWhat::AuthReq => MgmtBody::Auth(AuthBody {
                algorithm: AUTH_OPEN_SYSTEM,
                transaction: 1,
                status: 0,
            }),
            MgmtWhat::AuthResp { status } => MgmtBody::Auth(AuthBody {
                algorithm: AUTH_OPEN_SYSTEM,
                transaction: 2,
                status: *status,
            }),
            MgmtWhat::AssocReq { ssid } => MgmtBody::AssocReq(AssocReqBody {
                capability: cap,
                listen_interval: self.listen_interval(),
                elements: Elements::with_rates(Some(ssid), &rates, None),
            }),
            MgmtWhat::ReassocReq { ssid, current_ap } => MgmtBody::ReassocReq(ReassocReqBody {
                capability: cap,
                listen_interval: self.listen_interval(),
                current_ap: *current_ap,
                elements: Elements::with_rates(Some(ssid), &rates, None),
            }),
            MgmtWhat::AssocResp {
                status,
                aid,
                reassoc,
            } => {
                let b = AssocRespBody {
                    capability: cap,
                    status: *status,
                    aid: *aid,
                    elements: Elements::with_rates(None, &rates, None),
                };
                if *reassoc {
                    MgmtBody::ReassocResp(b)
                } else {
                    MgmtBody::AssocResp(b)
                }
            }
            MgmtWhat::Deauth { reason } => MgmtBody::Deauth { reason: *reason },
        };
        FrameRepr::Mgmt(MgmtRepr {
            retry: false,
            duration: if out.da.is_group() {
                0
            } else {
                self.unicast_duration(mode)
            },
            da: out.da,
            sa: self.addr,
            bssid: out.bssid,
            seq,
            body,
        })
        .to_bytes()
    }

    fn listen_interval(&self) -> u16 {
        match &self.role {
            Role::Sta(s) => s.cfg.listen_interval,
            _ => 1,
        }
    }

    fn apply(&mut self, now: SimTime, actions: Vec<Action>) {
        for a in actions {
            match a {
                Action::Send(out) => {
                    if out.what == MgmtWhat::Beacon {
                        // §11.1.3.2: the beacon is the next frame to be sent.
                        self.mgmt_queue.push_front(out);
                    } else {
                        self.mgmt_queue.push_back(out);
                    }
                }
                Action::Event(e) => self.events.push_back(e),
            }
        }
        self.start_next(now);
    }

    // ----------------------------------------------------------------------------------------
    // Receive side.

    /// Schedules the Ack of a frame from `ta` received with `mode` (§10.3.2.9 Ack procedure: after SIFS,
    /// regardless of the busy/idle state of the medium).
    fn schedule_ack(&mut self, now: SimTime, ta: MacAddr, mode: PhyMode) {
        self.response = Some(Response {
            at: now + self.cfg.sifs,
            frame: FrameRepr::Ack(AckRepr {
                duration: 0,
                ra: ta,
            })
            .to_bytes(),
            mode: self.cfg.control_mode(mode),
            kind: FrameKind::Ack,
        });
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
        // Which frames this role accepts (Table 9-26 address usage).
        let accept = match &self.role {
            Role::AdHoc { bssid } => !h.to_ds && !h.from_ds && h.addr3 == *bssid,
            Role::Sta(s) => h.from_ds && !h.to_ds && Some(h.addr2) == s.bssid(),
            Role::Ap(ap) => {
                let ok = h.to_ds && !h.from_ds && h.addr1 == me && ap.is_associated(h.addr2);
                if !ok && h.addr1 == me && h.to_ds {
                    let mut actions = Vec::new();
                    ap.on_class3_from_unassociated(h.addr2, &mut actions);
                    self.apply(now, actions);
                }
                ok
            }
        };
        if !accept || h.null {
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

    fn rx_mgmt(&mut self, now: SimTime, m: &MgmtRepr, rx: RxInfo) {
        let me = self.addr;
        if m.da == me {
            self.schedule_ack(now, m.sa, rx.mode);
            if self.is_duplicate(m.sa, m.seq, m.retry) {
                return;
            }
        } else if !m.da.is_group() {
            return;
        }
        let mut actions = Vec::new();
        match &mut self.role {
            Role::Sta(sta) => match &m.body {
                MgmtBody::Beacon(b) => {
                    let interval = super::infra::TU.saturating_mul(u64::from(b.interval_tu.max(1)));
                    let ssid = b.elements.ssid.unwrap_or(&[]);
                    sta.on_beacon(now, m.bssid, ssid, interval, rx.rssi_dbm, &mut actions);
                }
                body => sta.on_mgmt(now, m.sa, body, &mut actions),
            },
            Role::Ap(ap) => ap.on_mgmt(m.sa, m.bssid, &m.body, &mut actions),
            Role::AdHoc { .. } => {}
        }
        self.apply(now, actions);
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
