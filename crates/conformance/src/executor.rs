//! Runs a parsed script in virtual time against one [`SctpEndpoint`] and the associations it
//! creates (the "kernel" under test).
//!
//! Time is integer nanoseconds from the start of the script. An inbound packet or a system call
//! happens exactly at its script time: the association's timers due before it fire first (each
//! at its own deadline), then the event runs and whatever the association sends is queued with
//! its send time. An outbound expectation takes the oldest queued packet or, if none is queued,
//! lets time run timer by timer until the association sends one; the packet must match the
//! script (see [`crate::verify`]) and its send time must fall within the tolerance of the
//! expected time. A relative time (`+0.1`) counts from when the previous event completed:
//! its script time for inbound packets and system calls, the later of that and the send time of
//! the matched packet for outbound ones (packetdrill's rule). Packets the association sends to
//! an address other than the test peer's are not seen by the script, as in packetdrill, and are
//! only recorded in the trace.

use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_proto::transport::sctp::{
    AssocHandle, DatagramEvent, LossReason, SctpAssociation, SctpConfig, SctpEndpoint, SctpEvent,
    Transmit,
};
use sctpsim_wire::sctp::{ChunkRepr, RawChunk, SctpPacket};

use crate::ast::{Action, ChunkSpec, Direction, Event, EventTime, PacketBody, PacketSpec, Script};
use crate::bytes::{chunk_bytes, first_chunk_header, sctp_packet};
use crate::encode::{InboundCtx, Mapping};
use crate::syscalls::errno;
use crate::verify::{render_packet, verify_packet, View};
use crate::RunOptions;

/// packetdrill's default local address (`--local_ip`).
pub const DEFAULT_LOCAL_IP: Ipv4Addr = Ipv4Addr::new(192, 168, 0, 1);
/// packetdrill's default remote address (`--remote_ip`, TEST-NET-1).
pub const DEFAULT_REMOTE_IP: Ipv4Addr = Ipv4Addr::new(192, 0, 2, 1);
/// packetdrill's default `--bind_port` and `--connect_port`.
pub const DEFAULT_PORT: u16 = 8080;
/// The port of the test peer on passive opens (packetdrill takes an ephemeral port; a fixed one
/// keeps runs identical).
pub const PEER_EPHEMERAL_PORT: u16 = 49152;
/// packetdrill's default `--tolerance_usecs`.
pub const DEFAULT_TOLERANCE_USECS: u64 = 4000;
/// How long an outbound expectation with `*` time waits for a packet (virtual time).
pub const ANY_TIME_HORIZON: SimDuration = SimDuration::from_secs(600);
/// How far past the tolerance window an outbound expectation keeps the clock running to report
/// when the packet did come (virtual time).
pub const LATE_HORIZON: SimDuration = SimDuration::from_secs(60);
/// The largest SCTP packet an IPv4 datagram can carry (65535 − 20-byte header, RFC 791).
pub const MAX_INBOUND_SCTP_BYTES: usize = 65_515;
/// Timer expiries allowed in one script: a guard against an association that never stops.
pub const TIMER_BUDGET: u32 = 200_000;

/// Where a failure happened and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The script line, if the failure belongs to one.
    pub line: Option<u32>,
    /// Why.
    pub reason: String,
}

/// packetdrill's view of the socket under test, which decides when tags and TSNs are learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PdState {
    Init,
    Listening,
    PassivePacketReceived,
    PassiveInitAckSent,
    PassiveCookieEchoReceived,
    ActiveConnecting,
    ActiveInitSent,
    ActiveInitAckReceived,
}

impl PdState {
    fn passive_setup(self) -> bool {
        matches!(
            self,
            PdState::PassivePacketReceived
                | PdState::PassiveInitAckSent
                | PdState::PassiveCookieEchoReceived
        )
    }
}

/// One association of the endpoint and what the socket layer remembers about it.
pub(crate) struct Slot {
    /// The association in [`Executor::endpoint`]; the runner never removes one, so the handle
    /// stays valid for the whole script.
    pub handle: AssocHandle,
    /// Handed to the application (by `connect` or `accept`).
    pub accepted: bool,
    /// Pending socket error (SO_ERROR), 0 if none.
    pub so_error: i32,
    /// The association reached ESTABLISHED at some point.
    pub established: bool,
    /// The peer sent SHUTDOWN: reads return 0 once the data is consumed.
    pub peer_shutdown: bool,
    /// The rest of a message larger than the last read.
    pub partial: Vec<u8>,
}

impl Slot {
    pub(crate) fn new(handle: AssocHandle, accepted: bool) -> Self {
        Slot {
            handle,
            accepted,
            so_error: 0,
            established: false,
            peer_shutdown: false,
            partial: Vec::new(),
        }
    }
}

/// The association of `slot` in `endpoint`. It is always there (the runner never removes
/// associations); the error only turns a runner bug into a failed script instead of a panic.
pub(crate) fn slot_assoc<'a>(
    endpoint: &'a mut SctpEndpoint,
    slot: &Slot,
) -> Result<&'a mut SctpAssociation, String> {
    endpoint
        .assoc_mut(slot.handle)
        .ok_or_else(|| "internal error: the socket's association is gone".to_string())
}

/// A socket of the script.
#[derive(Debug, Clone)]
pub(crate) struct Socket {
    pub nonblocking: bool,
    pub kind: SockKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SockKind {
    Fresh,
    Listener,
    Assoc(usize),
}

/// A packet the system under test sent to the test peer.
struct Sent {
    time: SimTime,
    /// The SCTP packet (common header and chunks) as encoded on the wire.
    sctp: Vec<u8>,
}

/// The state of a running script.
pub struct Executor {
    pub(crate) now: SimTime,
    prev_expected: Option<SimTime>,
    prev_absolute: Option<u64>,
    started: bool,
    tolerance_ns: u64,
    tolerance_milli_percent: u64,
    pub(crate) local_ip: Ipv4Addr,
    pub(crate) remote_ip: Ipv4Addr,
    pub(crate) bind_port: u16,
    pub(crate) connect_port: u16,
    pub(crate) remote_port: u16,
    pub(crate) endpoint: SctpEndpoint,
    pub(crate) slots: Vec<Slot>,
    pub(crate) sockets: BTreeMap<i64, Socket>,
    /// Socket options that change later calls (default send parameters, SO_LINGER).
    pub(crate) sock: crate::sockopts::SockSettings,
    outq: VecDeque<Sent>,
    pub(crate) map: Mapping,
    pub(crate) pd: PdState,
    live_local_learned: bool,
    cookie: Option<Vec<u8>>,
    heartbeat_info: Option<Vec<u8>>,
    timer_budget: u32,
    /// What happened, one line per packet and call (for `--verbose`).
    pub trace: Vec<String>,
}

fn secs(t: SimTime) -> String {
    format!(
        "{}.{:06}",
        t.0 / 1_000_000_000,
        (t.0 % 1_000_000_000) / 1000
    )
}

fn ns_secs(ns: u64) -> String {
    secs(SimTime(ns))
}

impl Executor {
    /// A fresh kernel with the script's header options applied on top of `opts`.
    ///
    /// Errors: an unknown or malformed header option (with its line).
    pub fn new(script: &Script, opts: &RunOptions) -> Result<Self, Failure> {
        let mut tol_usecs = DEFAULT_TOLERANCE_USECS;
        let mut tol_pct = opts.tolerance_percent_milli;
        let mut local_ip = DEFAULT_LOCAL_IP;
        let mut remote_ip = DEFAULT_REMOTE_IP;
        let mut bind_port = DEFAULT_PORT;
        let mut connect_port = DEFAULT_PORT;
        for o in &script.options {
            let fail = |reason: String| Failure {
                line: Some(o.line),
                reason,
            };
            let value = o.value.as_deref().unwrap_or("");
            let num = || -> Result<u64, Failure> {
                value
                    .parse::<u64>()
                    .map_err(|_| fail(format!("bad --{}: `{value}`", o.name)))
            };
            match o.name.as_str() {
                "tolerance_usecs" => tol_usecs = num()?,
                "tolerance_percent" => {
                    tol_pct = crate::parser::parse_seconds(value)
                        .map(|ns| ns / 1_000_000)
                        .filter(|p| *p <= 100_000)
                        .ok_or_else(|| fail(format!("bad --tolerance_percent: `{value}`")))?;
                }
                "local_ip" | "remote_ip" => {
                    let ip: Ipv4Addr = value.parse().map_err(|_| {
                        fail(format!(
                            "unsupported: --{} `{value}` (only IPv4 addresses)",
                            o.name
                        ))
                    })?;
                    if o.name == "local_ip" {
                        local_ip = ip;
                    } else {
                        remote_ip = ip;
                    }
                }
                "bind_port" | "connect_port" => {
                    let p = u16::try_from(num()?)
                        .map_err(|_| fail(format!("bad --{}: `{value}`", o.name)))?;
                    if o.name == "bind_port" {
                        bind_port = p;
                    } else {
                        connect_port = p;
                    }
                }
                "ip_version" if value == "ipv4" => {}
                other => {
                    return Err(fail(format!("unsupported: option --{other}")));
                }
            }
        }
        if let Some(t) = opts.tolerance_usecs {
            tol_usecs = t;
        }
        let endpoint = SctpEndpoint::new(
            SctpConfig::rfc9260(),
            bind_port,
            vec![local_ip],
            Rng::from_seed(opts.seed),
        );
        Ok(Executor {
            now: SimTime::ZERO,
            prev_expected: None,
            prev_absolute: None,
            started: false,
            tolerance_ns: tol_usecs.saturating_mul(1000),
            tolerance_milli_percent: tol_pct,
            local_ip,
            remote_ip,
            bind_port,
            connect_port,
            remote_port: PEER_EPHEMERAL_PORT,
            endpoint,
            slots: Vec::new(),
            sockets: BTreeMap::new(),
            sock: Default::default(),
            outq: VecDeque::new(),
            map: Mapping::default(),
            pd: PdState::Init,
            live_local_learned: false,
            cookie: None,
            heartbeat_info: None,
            timer_budget: TIMER_BUDGET,
            trace: Vec::new(),
        })
    }

    /// Runs every event; stops at the first failure.
    pub fn run(&mut self, script: &Script) -> Result<(), Failure> {
        for ev in &script.events {
            self.event(ev).map_err(|reason| Failure {
                line: Some(ev.line),
                reason,
            })?;
        }
        let left = self.outq.len();
        if left > 0 {
            self.trace.push(format!(
                "end of script with {left} outbound packet(s) not matched (packetdrill does not check them)"
            ));
        }
        Ok(())
    }

    fn tolerance(&self, expected: SimTime) -> u64 {
        let mut tol = self.tolerance_ns;
        if let Some(prev) = self.prev_expected {
            let delta = u128::from(expected.0.saturating_sub(prev.0));
            let dynamic = delta * u128::from(self.tolerance_milli_percent) / 100_000;
            tol = tol.max(u64::try_from(dynamic).unwrap_or(u64::MAX));
        }
        tol
    }

    fn event(&mut self, ev: &Event) -> Result<(), String> {
        // packetdrill: "first event should be at time 0"; "time goes backward in script".
        if !self.started {
            self.started = true;
            let t = match ev.time {
                EventTime::Absolute(t) | EventTime::Relative(t) => t,
                EventTime::AbsoluteRange(t, _) | EventTime::RelativeRange(t, _) => t,
                EventTime::Any => 0,
            };
            if t != 0 {
                return Err("the first event should be at time 0".into());
            }
        }
        if let EventTime::Absolute(t) | EventTime::AbsoluteRange(t, _) = ev.time {
            if let Some(prev) = self.prev_absolute {
                if t < prev {
                    return Err(format!(
                        "time goes backward in the script, from {} to {} s",
                        ns_secs(prev),
                        ns_secs(t)
                    ));
                }
            }
            self.prev_absolute = Some(t);
        }
        let (start, end) = match ev.time {
            EventTime::Absolute(t) => (SimTime(t), SimTime(t)),
            EventTime::Relative(d) => (self.now + SimDuration(d), self.now + SimDuration(d)),
            EventTime::Any => (self.now, self.now),
            EventTime::AbsoluteRange(a, b) => (SimTime(a), SimTime(b)),
            EventTime::RelativeRange(a, b) => {
                (self.now + SimDuration(a), self.now + SimDuration(b))
            }
        };
        match &ev.action {
            Action::Packet(p) if p.direction == Direction::Outbound => {
                self.outbound(ev, p, start, end)?;
            }
            other => {
                let tol = self.tolerance(start);
                if self.now.0 > start.0.saturating_add(tol) {
                    return Err(format!(
                        "timing error: expected the event at {} s but it could only run at {} s",
                        secs(start),
                        secs(self.now)
                    ));
                }
                self.advance_to(start)?;
                match other {
                    Action::Packet(p) => self.inbound(p)?,
                    Action::Syscall(s) => self.syscall(s)?,
                    Action::Command(c) => self.command(c)?,
                    Action::Code(_) => {
                        return Err("unsupported: %{ }% Python code blocks".into());
                    }
                }
            }
        }
        self.prev_expected = Some(start);
        Ok(())
    }

    // ------------------------------------------------------------------ time and output

    /// The earliest timer deadline of a live association.
    fn next_deadline(&self) -> Option<SimTime> {
        self.endpoint
            .associations()
            .filter(|(_, a)| !a.is_closed())
            .filter_map(|(_, a)| a.poll_timeout())
            .min()
    }

    /// Lets virtual time run to `target`, firing every timer due on the way at its deadline.
    pub(crate) fn advance_to(&mut self, target: SimTime) -> Result<(), String> {
        while let Some(d) = self.next_deadline() {
            if d > target {
                break;
            }
            self.fire_timers(d)?;
        }
        if target > self.now {
            self.now = target;
        }
        Ok(())
    }

    fn fire_timers(&mut self, deadline: SimTime) -> Result<(), String> {
        let at = deadline.max(self.now);
        self.now = at;
        if self.timer_budget == 0 {
            return Err(format!(
                "the association's timers fired more than {TIMER_BUDGET} times (a timer that never stops?)"
            ));
        }
        self.timer_budget -= 1;
        for (_, a) in self.endpoint.associations_mut() {
            if a.poll_timeout().is_some_and(|t| t <= at) {
                a.handle_timeout(at);
            }
        }
        self.drain();
        Ok(())
    }

    /// Collects what the associations and the endpoint want to send, and their notifications.
    pub(crate) fn drain(&mut self) {
        let now = self.now;
        let mut out = Vec::new();
        for s in &mut self.slots {
            let Some(a) = self.endpoint.assoc_mut(s.handle) else {
                continue;
            };
            while let Some(t) = a.poll_transmit(now) {
                out.push(t);
            }
            while let Some(ev) = a.poll_event() {
                match ev {
                    SctpEvent::CommUp { .. } => s.established = true,
                    SctpEvent::PeerShutdown => s.peer_shutdown = true,
                    SctpEvent::CommLost { reason, .. } => {
                        s.so_error = match reason {
                            LossReason::PeerAbort { .. } if s.established => errno::ECONNRESET,
                            LossReason::PeerAbort { .. } => errno::ECONNREFUSED,
                            LossReason::LocalAbort => 0,
                            LossReason::MaxRetransmissions
                            | LossReason::InitFailed
                            | LossReason::ShutdownGuardExpired => errno::ETIMEDOUT,
                            LossReason::ProtocolViolation { .. } => errno::ECONNABORTED,
                        };
                    }
                    _ => {}
                }
            }
        }
        while let Some(t) = self.endpoint.poll_transmit() {
            out.push(t);
        }
        for t in out {
            self.queue_transmit(t);
        }
    }

    fn queue_transmit(&mut self, t: Transmit) {
        if t.dst != self.remote_ip {
            self.trace.push(format!(
                "{} > to {} (not the test peer; ignored as packetdrill does): {}",
                secs(self.now),
                t.dst,
                render_packet(&t.payload, View::Script(&self.map), true)
            ));
            return;
        }
        self.outq.push_back(Sent {
            time: self.now,
            sctp: t.payload,
        });
    }

    // ------------------------------------------------------------------ inbound packets

    fn inbound(&mut self, p: &PacketSpec) -> Result<(), String> {
        if p.zero_checksum {
            return Err("unsupported: sctp(zero_checksum)".into());
        }
        let no_chunks = Vec::new();
        let chunks = match &p.chunks {
            PacketBody::Chunks(c) => c,
            PacketBody::Bytes(_) => &no_chunks,
        };
        // packetdrill's handle_listen_for_script_packet and do_inbound_script_packet.
        if let Some(ChunkSpec::Init(init)) = chunks.first() {
            if self.pd == PdState::Listening {
                self.map.remote_tag = init.tag.unwrap_or(0);
                self.map.remote_tsn = init.tsn.unwrap_or(0);
                self.pd = PdState::PassivePacketReceived;
            }
        }
        for c in chunks {
            match c {
                ChunkSpec::InitAck(ack) if self.pd == PdState::ActiveInitSent => {
                    self.map.remote_tag = ack.tag.unwrap_or(0);
                    self.map.remote_tsn = ack.tsn.unwrap_or(0);
                    self.pd = PdState::ActiveInitAckReceived;
                }
                ChunkSpec::CookieEcho { .. }
                    if !p.bad_crc32c
                        && match p.tag {
                            None => true,
                            Some(t) => t == self.map.script_local_tag && t != 0,
                        } =>
                {
                    self.pd = PdState::PassiveCookieEchoReceived;
                }
                _ => {}
            }
        }
        let ctx = InboundCtx {
            map: self.map,
            cookie: self.cookie.clone(),
            heartbeat_info: self.heartbeat_info.clone(),
        };
        // The chunks exactly as the script writes them (bad lengths and flags included).
        let body = match &p.chunks {
            PacketBody::Bytes(b) => b.clone(),
            PacketBody::Chunks(c) => c
                .iter()
                .map(|c| chunk_bytes(c, &ctx))
                .collect::<Result<Vec<_>, _>>()?
                .concat(),
        };
        // The tag follows the first chunk's type and T bit, as packetdrill does for every
        // chunk (an INIT anywhere makes it 0; an ABORT or SHUTDOWN COMPLETE with T reflects).
        let headers: Vec<(u8, u8)> = match &p.chunks {
            PacketBody::Bytes(b) => first_chunk_header(b).into_iter().collect(),
            PacketBody::Chunks(c) => c
                .iter()
                .map(|c| chunk_bytes(c, &ctx).map(|b| first_chunk_header(&b).unwrap_or((0, 0))))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let contains_init = headers.iter().any(|&(k, _)| k == 1);
        let reflect = headers
            .iter()
            .any(|&(k, f)| (k == 6 || k == 14) && f & 0x01 != 0);
        let vtag = match p.tag {
            Some(0) => 0,
            // The peer's tag is the same in the script and live; the local one is shifted.
            Some(t) if reflect => t,
            Some(t) => t
                .wrapping_sub(self.map.script_local_tag)
                .wrapping_add(self.map.live_local_tag)
                .max(1),
            None if contains_init => 0,
            None if reflect => self.map.remote_tag,
            None => self.map.live_local_tag,
        };
        let (sport, dport) = p.ports.unwrap_or((self.remote_port, self.bind_port));
        let (src, dst) = p.addrs.unwrap_or((self.remote_ip, self.local_ip));
        if body.len() + 12 > MAX_INBOUND_SCTP_BYTES {
            return Err(format!(
                "inbound packet of {} bytes exceeds {MAX_INBOUND_SCTP_BYTES} (IPv4 limit)",
                body.len() + 12
            ));
        }
        let sctp = sctp_packet(sport, dport, vtag, &body, p.bad_crc32c);
        let rendered = render_packet(&sctp, View::Script(&self.map), false);
        let now = self.now;
        match self.endpoint.handle_datagram(now, src, dst, &sctp) {
            Err(e) => {
                // A real stack drops what it cannot parse (a bad checksum, for instance).
                self.trace.push(format!(
                    "{} < {rendered}  [dropped by the receiver's codec: {e}]",
                    secs(now)
                ));
                return Ok(());
            }
            Ok(event) => {
                self.trace.push(format!("{} < {rendered}", secs(now)));
                // An association the endpoint creates waits for `accept`.
                if let Some(DatagramEvent::NewAssociation(h)) = event {
                    self.trace.push(format!(
                        "{} (association created from a COOKIE ECHO)",
                        secs(now)
                    ));
                    self.slots.push(Slot::new(h, false));
                }
            }
        }
        self.drain();
        Ok(())
    }

    // ------------------------------------------------------------------ outbound packets

    fn outbound(
        &mut self,
        ev: &Event,
        p: &PacketSpec,
        start: SimTime,
        end: SimTime,
    ) -> Result<(), String> {
        let any = ev.time == EventTime::Any;
        let tol = if any { 0 } else { self.tolerance(start) };
        let horizon = if any {
            self.now + ANY_TIME_HORIZON
        } else {
            SimTime(end.0.saturating_add(tol)) + LATE_HORIZON
        };
        let first = match &p.chunks {
            PacketBody::Chunks(c) => c.first(),
            PacketBody::Bytes(_) => None,
        };
        // packetdrill's handle_connect_for_script_packet and do_outbound_script_packet.
        match first {
            Some(ChunkSpec::Init(init)) if self.pd == PdState::ActiveConnecting => {
                self.map.script_local_tag = init.tag.unwrap_or(0);
                self.map.script_local_tsn = init.tsn.unwrap_or(0);
                self.pd = PdState::ActiveInitSent;
            }
            Some(ChunkSpec::InitAck(ack)) if self.pd.passive_setup() => {
                self.map.script_local_tag = ack.tag.unwrap_or(0);
                self.map.script_local_tsn = ack.tsn.unwrap_or(0);
            }
            _ => {}
        }
        let sent = loop {
            if let Some(s) = self.outq.pop_front() {
                break s;
            }
            match self.next_deadline() {
                Some(d) if d <= horizon => self.fire_timers(d)?,
                _ => {
                    let when = if any {
                        "at any time".to_string()
                    } else {
                        format!("at {} s", secs(start))
                    };
                    return Err(format!(
                        "expected an outbound packet {when} but none was sent before {} s",
                        secs(horizon)
                    ));
                }
            }
        };
        self.learn_from_live(&sent.sctp);
        let rendered = render_packet(&sent.sctp, View::Script(&self.map), true);
        self.trace.push(format!("{} > {rendered}", secs(sent.time)));
        verify_packet(p, &sent.sctp, &self.map).map_err(|e| {
            format!(
                "outbound packet mismatch: {e}\n  actual (at {} s): {rendered}",
                secs(sent.time)
            )
        })?;
        if !any
            && (sent.time.0 < start.0.saturating_sub(tol)
                || sent.time.0 > end.0.saturating_add(tol))
        {
            let expected = if start == end {
                format!("at {} s", secs(start))
            } else {
                format!("in {}~{} s", secs(start), secs(end))
            };
            return Err(format!(
                "timing error: expected the outbound packet {expected} (tolerance {} s) but it was sent at {} s\n  actual: {rendered}",
                ns_secs(tol),
                secs(sent.time)
            ));
        }
        if sent.time > self.now {
            self.now = sent.time;
        }
        Ok(())
    }

    /// Learns the live tags and TSNs and the cookie / heartbeat info to echo from a packet the
    /// system under test sent (packetdrill's find_connect_for_live_packet and
    /// do_outbound_script_packet).
    fn learn_from_live(&mut self, sctp: &[u8]) {
        let Ok(pkt) = SctpPacket::new_checked(sctp) else {
            return;
        };
        let chunks: Vec<RawChunk<'_>> = pkt.chunks().filter_map(Result::ok).collect();
        let field = |c: &RawChunk<'_>, at: usize| -> u32 {
            c.value()
                .get(at..at + 4)
                .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        };
        if self.pd == PdState::ActiveInitSent && !self.live_local_learned {
            self.live_local_learned = true;
            if let Some(c) = chunks.first().filter(|c| c.kind() == 1) {
                self.map.live_local_tag = field(c, 0);
                self.map.live_local_tsn = field(c, 12);
            }
        }
        for c in &chunks {
            match c.kind() {
                2 if self.pd.passive_setup() => {
                    self.map.live_local_tag = field(c, 0);
                    self.map.live_local_tsn = field(c, 12);
                    self.pd = PdState::PassiveInitAckSent;
                    if let Ok(ChunkRepr::InitAck(ack)) = c.parse() {
                        if let Some(cookie) = ack.state_cookie() {
                            self.cookie = Some(cookie.to_vec());
                        }
                    }
                }
                4 => {
                    if let Ok(ChunkRepr::Heartbeat { info }) = c.parse() {
                        self.heartbeat_info = Some(info);
                    }
                }
                _ => {}
            }
        }
    }

    // ------------------------------------------------------------------ commands

    fn command(&mut self, cmd: &str) -> Result<(), String> {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let (ignore_errors, setting) = match words.as_slice() {
            ["sysctl", "-i", s] => (true, *s),
            ["sysctl", "-w", s] | ["sysctl", s] => (false, *s),
            _ => return Err(format!("unsupported: shell command `{cmd}`")),
        };
        let Some((name, value)) = setting.split_once('=') else {
            return Err(format!("unsupported: shell command `{cmd}`"));
        };
        let cfg = self.endpoint.config_mut();
        let off = value == "0";
        let on = value == "1";
        let applied = match name {
            // Extensions sctpsim implements: turning them off changes the INIT / INIT ACK.
            "net.inet.sctp.pr_enable" | "net.sctp.prsctp_enable" if off || on => {
                cfg.pr_sctp = on;
                true
            }
            "net.inet.sctp.asconf_enable" | "net.sctp.addip_enable" if off || on => {
                cfg.asconf = on;
                true
            }
            // RFC 4895 AUTH: off by default in the model, so `=0` changes nothing and `=1`
            // turns it on.
            "net.inet.sctp.auth_enable" | "net.sctp.auth_enable" if off || on => {
                cfg.auth = on;
                true
            }
            "net.inet.sctp.auth_disable" if off || on => {
                cfg.auth = off;
                true
            }
            // RFC 8260 I-DATA (Linux `net.sctp.intl_enable`): off by default in the model.
            "net.sctp.intl_enable" if off || on => {
                cfg.i_data = on;
                true
            }
            // RFC 6525 RE-CONFIG: off by default in the model.
            "net.inet.sctp.reconfig_enable" | "net.sctp.reconf_enable" if off || on => {
                cfg.reconfig = on;
                true
            }
            // NR-SACK (FreeBSD `net.inet.sctp.nrsack_enable`): off by default in the model.
            "net.inet.sctp.nrsack_enable" if off || on => {
                cfg.nr_sack = on;
                true
            }
            // Extensions sctpsim does not implement: turning them off changes nothing.
            "net.inet.sctp.ecn_enable"
            | "net.inet.sctp.pktdrop_enable"
            | "net.inet.sctp.nrsack_on_off"
            | "net.sctp.ecn_enable"
                if off =>
            {
                true
            }
            _ => false,
        };
        if applied {
            self.trace
                .push(format!("{} `{cmd}` (applied)", secs(self.now)));
            Ok(())
        } else if ignore_errors && !name.starts_with("net.") {
            self.trace.push(format!(
                "{} `{cmd}` (ignored: not an SCTP setting)",
                secs(self.now)
            ));
            Ok(())
        } else {
            Err(format!(
                "unsupported: `{cmd}` (no equivalent setting of the SCTP model)"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_format() {
        assert_eq!(secs(SimTime(1_234_567_890)), "1.234567");
        assert_eq!(ns_secs(100_000_000), "0.100000");
    }
}
