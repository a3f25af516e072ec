//! [`TcpConnection`]: one endpoint of a TCP connection as a sans-IO state machine.
//!
//! The receive path (RFC 9293 §3.10.7) is in `connection/input.rs`, the send path (segment
//! selection, retransmission, ACK generation) in `connection/output.rs`; this file holds the
//! state, the constructors and the application-facing API.
//!
//! Sequence numbers are kept internally as *stream offsets*: `u64` distances from the ISS (for
//! what we send) or the IRS (for what we receive), so the SYN is offset 0, the first data byte
//! offset 1 and the FIN the offset after the last data byte. Nothing wraps inside the
//! connection; [`TcpSeqNumber`]s exist only on the wire.

mod input;
mod output;
mod sack1;

use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddrV4};

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_wire::tcp::{TcpPacket, TcpRepr, TcpSeqNumber};
use sctpsim_wire::WireError;

use super::config::{TcpConfig, TcpVariant};
use super::congestion::{CongestionControl, Controller, NewReno, RecoveryStyle, Reno};
use super::event::{TcpEvent, TcpMetric};
use super::recv::RecvBuffer;
use super::rtt::RttEstimator;
use super::sack::{SackBlockList, Scoreboard};
use super::send::SendBuffer;
use super::state::State;
use super::stats::TcpStats;
use super::timers::{Timer, TimerTable};
#[cfg(doc)]
use crate::transport::Transmit;

/// RFC 9293 §3.7.1: "SendMSS ... 536" when the peer sent no MSS option.
pub const DEFAULT_PEER_MSS: u16 = 536;

/// A peer's MSS below this is raised to it, so that a nonsense MSS option (0, 1) cannot stall
/// the connection (Linux applies a similar floor, `TCP_MIN_MSS`).
pub const MIN_PEER_MSS: u16 = 64;

/// RFC 7323 §3.2 / RFC 6691 §2: a Timestamps option takes 12 bytes (with its two NOPs) of every
/// segment, which the sender takes from the payload.
pub const TIMESTAMP_OPTION_LEN: u32 = 12;

/// RFC 5681 §3.1 equation (1): the 4380-byte term of the initial window.
const IW_BYTES: u32 = 4380;

/// When the next ACK goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AckState {
    /// Nothing to acknowledge.
    Idle,
    /// In-order data waits for a second segment or the delayed-ACK timer (RFC 5681 §4.2).
    Delayed,
    /// Send an ACK with the next `poll_transmit`.
    Now,
}

/// Loss recovery in progress (RFC 5681 §3.2, RFC 6582, RFC 6675 §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Recovery {
    /// RFC 6582 `recover` / RFC 6675 RecoveryPoint: recovery ends when `snd_una` reaches it
    /// (exclusive end of the data outstanding when loss was detected).
    pub(crate) point: u64,
    /// RFC 6675 HighRxt (exclusive end of the highest retransmitted segment).
    pub(crate) high_rxt: u64,
    /// RFC 6675 RescueRxt.
    pub(crate) rescue_rxt: Option<u64>,
    /// Window inflation (Reno/NewReno) or pipe (SACK).
    pub(crate) style: RecoveryStyle,
    /// Partial ACKs seen (RFC 6582 §4: the Impatient timer only restarts on the first).
    pub(crate) partial_acks: u32,
}

/// One TCP endpoint (RFC 9293), sans-IO.
///
/// Call order, as in quinn-proto: feed input with [`TcpConnection::handle_packet`] (the
/// segment's bytes and the addresses of its IPv4 header; [`TcpConnection::handle_segment`] for
/// an already parsed segment) and [`TcpConnection::handle_timeout`]; give application commands
/// ([`TcpConnection::send`], [`TcpConnection::close`], ...); then drain
/// [`TcpConnection::poll_transmit`] until `None` (each [`Transmit`] is an encoded segment from
/// our address to the peer's, as an SCTP association's), read
/// [`TcpConnection::poll_timeout`] to know when to call back, and drain
/// [`TcpConnection::poll_event`] (outcomes) and [`TcpConnection::poll_metric`] (measurements).
/// Time only enters through the `now` arguments; a wake-up at a time when nothing is due is a
/// no-op.
///
/// ```
/// use std::net::{Ipv4Addr, SocketAddrV4};
/// use sctpsim_kernel::SimTime;
/// use sctpsim_proto::transport::tcp::{State, TcpConfig, TcpConnection, TcpEvent};
/// use sctpsim_wire::TcpSeqNumber;
///
/// let a = SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 1), 40_000);
/// let b = SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 2), 80);
/// let mut client = TcpConnection::new_client(TcpConfig::rfc(), a, b, TcpSeqNumber(1));
/// let mut server = TcpConnection::new_listener(TcpConfig::rfc(), b, TcpSeqNumber(9));
/// let now = SimTime::ZERO;
/// let syn = client.poll_transmit(now, 1460).unwrap();
/// assert_eq!((syn.src, syn.dst), (*a.ip(), *b.ip()));
/// server.handle_packet(now, syn.src, syn.dst, &syn.payload)?;
/// let syn_ack = server.poll_transmit(now, 1460).unwrap();
/// client.handle_packet(now, syn_ack.src, syn_ack.dst, &syn_ack.payload)?;
/// assert_eq!(client.state(), State::Established);
/// assert!(std::iter::from_fn(|| client.poll_event()).any(|e| e == TcpEvent::Connected));
/// client.send(b"hello");
/// let ack = client.poll_transmit(now, 1460).unwrap();
/// server.handle_packet(now, ack.src, ack.dst, &ack.payload)?;
/// assert_eq!(server.state(), State::Established);
/// # Ok::<(), sctpsim_wire::WireError>(())
/// ```
#[derive(Debug, Clone)]
pub struct TcpConnection {
    pub(crate) cfg: TcpConfig,
    pub(crate) state: State,
    /// Our address: the source of every segment and half of the checksum's pseudo-header.
    pub(crate) local_addr: Ipv4Addr,
    pub(crate) local_port: u16,
    /// The peer's address (a listener takes it from the segment it answers).
    pub(crate) remote_addr: Ipv4Addr,
    pub(crate) remote_port: u16,
    pub(crate) iss: TcpSeqNumber,
    pub(crate) irs: TcpSeqNumber,

    // --- send side (offsets from the ISS) ---
    pub(crate) snd_una: u64,
    pub(crate) snd_nxt: u64,
    pub(crate) snd_max: u64,
    /// The peer's window in bytes (scaled).
    pub(crate) snd_wnd: u32,
    /// RFC 9293 SND.WL1 (receive offset) and SND.WL2 (send offset) of the last window update.
    pub(crate) snd_wl1: u64,
    pub(crate) snd_wl2: u64,
    /// RFC 7323: shift applied to windows we receive / we send.
    pub(crate) snd_wscale: u8,
    pub(crate) rcv_wscale: u8,
    pub(crate) send_buf: SendBuffer,
    /// The application closed: a FIN follows the last data byte.
    pub(crate) fin_queued: bool,
    /// A SYN (SYN-SENT) or SYN-ACK (SYN-RECEIVED) is to be (re)sent.
    pub(crate) syn_due: bool,
    pub(crate) syn_retransmitted: bool,
    pub(crate) scoreboard: Scoreboard,

    // --- receive side (offsets from the IRS) ---
    pub(crate) rcv: RecvBuffer,
    /// Offset of the peer's FIN once seen (possibly ahead of `rcv_nxt`).
    pub(crate) peer_fin: Option<u64>,
    /// The peer's FIN has been consumed.
    pub(crate) fin_received: bool,
    pub(crate) sack_list: SackBlockList,
    pub(crate) ack_state: AckState,
    /// In-order segments received since the last ACK.
    pub(crate) unacked_segments: u32,
    /// The window (bytes) in the last segment sent.
    pub(crate) last_adv_wnd: u32,
    /// RFC 7323 §4.3 Last.ACK.sent (receive offset).
    pub(crate) last_ack_sent: u64,

    // --- negotiated options ---
    /// Payload bytes per full-sized segment we send.
    pub(crate) smss: u32,
    pub(crate) sack_ok: bool,
    pub(crate) ts_ok: bool,
    /// RFC 7323 §2.2: both sides sent a Window Scale option.
    pub(crate) ws_ok: bool,
    /// RFC 7323 §4.3 TS.Recent.
    pub(crate) ts_recent: u32,

    // --- congestion control and loss recovery ---
    pub(crate) cc: Controller,
    pub(crate) dup_acks: u32,
    pub(crate) recovery: Option<Recovery>,
    /// RFC 6582 `recover` (exclusive end): no new fast retransmit until `snd_una` reaches it.
    pub(crate) recover: u64,
    /// RFC 6675 pipe.
    pub(crate) pipe: u64,
    /// ns-2 `Agent/TCP/Sack1` state (`pipe_`, `timeout_`).
    pub(crate) sack1: sack1::Sack1State,
    /// Retransmit the segment at `snd_una` now, regardless of the window (fast retransmit,
    /// NewReno partial ACK).
    pub(crate) rtx_now: bool,
    /// Bytes sent by limited transmit since the last cumulative ACK (RFC 5681 §3.2: not part
    /// of FlightSize).
    pub(crate) limited_bytes: u64,

    // --- timers ---
    pub(crate) rtt: RttEstimator,
    /// Karn: the segment being timed (end offset, send time).
    pub(crate) timed: Option<(u64, SimTime)>,
    pub(crate) consecutive_timeouts: u32,
    pub(crate) persist_backoff: u32,
    pub(crate) probe_due: bool,
    pub(crate) timers: TimerTable,

    pub(crate) pending_rst: Option<TcpRepr>,
    pub(crate) events: VecDeque<TcpEvent>,
    pub(crate) metrics: VecDeque<TcpMetric>,
    pub(crate) stats: TcpStats,
    pub(crate) reported_cwnd: (u32, u32),
    pub(crate) reported_seq: (u64, u64),
}

impl TcpConnection {
    fn new(
        cfg: TcpConfig,
        state: State,
        local: SocketAddrV4,
        remote: SocketAddrV4,
        iss: TcpSeqNumber,
    ) -> Self {
        let smss = u32::from(cfg.mss.max(1));
        let iw = initial_window(&cfg, smss);
        let cc = match cfg.variant {
            // Tahoe's window arithmetic is Reno's slow start and congestion avoidance; it never
            // enters fast recovery (see `input::fast_retransmit_tahoe`).
            TcpVariant::Tahoe | TcpVariant::Reno => {
                Controller::Reno(Reno::new(iw, cfg.initial_ssthresh))
            }
            TcpVariant::NewReno | TcpVariant::Sack | TcpVariant::Sack1 => {
                Controller::NewReno(NewReno::new(iw, cfg.initial_ssthresh))
            }
        };
        let rtt = RttEstimator::with_model(
            cfg.rto_model,
            cfg.initial_rto,
            cfg.min_rto,
            cfg.max_rto,
            cfg.clock_granularity,
        );
        let reported_cwnd = (cc.cwnd(), cc.ssthresh());
        TcpConnection {
            state,
            local_addr: *local.ip(),
            local_port: local.port(),
            remote_addr: *remote.ip(),
            remote_port: remote.port(),
            iss,
            irs: TcpSeqNumber(0),
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            snd_wnd: 0,
            snd_wl1: 0,
            snd_wl2: 0,
            snd_wscale: 0,
            rcv_wscale: 0,
            send_buf: SendBuffer::new(cfg.send_buffer),
            fin_queued: false,
            syn_due: false,
            syn_retransmitted: false,
            scoreboard: Scoreboard::default(),
            rcv: RecvBuffer::new(cfg.recv_buffer, 1),
            peer_fin: None,
            fin_received: false,
            sack_list: SackBlockList::default(),
            ack_state: AckState::Idle,
            unacked_segments: 0,
            last_adv_wnd: 0,
            last_ack_sent: 0,
            smss,
            sack_ok: false,
            ts_ok: false,
            ws_ok: false,
            ts_recent: 0,
            cc,
            dup_acks: 0,
            recovery: None,
            recover: 0,
            pipe: 0,
            sack1: sack1::Sack1State::default(),
            rtx_now: false,
            limited_bytes: 0,
            rtt,
            timed: None,
            consecutive_timeouts: 0,
            persist_backoff: 0,
            probe_due: false,
            timers: TimerTable::default(),
            pending_rst: None,
            events: VecDeque::new(),
            metrics: VecDeque::new(),
            stats: TcpStats::default(),
            reported_cwnd,
            reported_seq: (0, 0),
            cfg,
        }
    }

    /// An active opener (RFC 9293 §3.10.1, active OPEN): SYN-SENT, with a SYN to send from
    /// `local` to `remote` carrying `iss`. The addresses are those of the segments it builds
    /// (and of their checksums).
    pub fn new_client(
        config: TcpConfig,
        local: SocketAddrV4,
        remote: SocketAddrV4,
        iss: TcpSeqNumber,
    ) -> Self {
        let mut conn = Self::new(config, State::SynSent, local, remote, iss);
        conn.syn_due = true;
        conn
    }

    /// A passive opener (RFC 9293 §3.10.1, passive OPEN) on `local`: LISTEN until a SYN
    /// arrives, then it becomes the connection with that peer (whose address it takes from the
    /// segment given to [`TcpConnection::handle_packet`]); `iss` is its initial sequence number.
    pub fn new_listener(config: TcpConfig, local: SocketAddrV4, iss: TcpSeqNumber) -> Self {
        let unknown = SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0);
        Self::new(config, State::Listen, local, unknown, iss)
    }

    /// An initial sequence number drawn from `rng` (RFC 9293 §3.4.1 wants it unpredictable;
    /// here it only has to be reproducible, so the engine passes a keyed stream).
    pub fn random_iss(rng: &mut Rng) -> TcpSeqNumber {
        TcpSeqNumber(rng.next_u64() as u32)
    }

    // ----------------------------------------------------------------- application commands

    /// Queues application data (RFC 9293 §3.10.2 SEND) up to the free send buffer; returns how
    /// many bytes were accepted. Nothing is accepted after [`TcpConnection::close`], after
    /// [`TcpConnection::send_backlogged`], or in a state that cannot send.
    pub fn send(&mut self, data: &[u8]) -> usize {
        if self.fin_queued
            || !matches!(
                self.state,
                State::SynSent | State::SynReceived | State::Established | State::CloseWait
            )
        {
            return 0;
        }
        self.send_buf.write(data)
    }

    /// Makes the application a backlogged source (an FTP that always has data, DESIGN.md §4)
    /// for `total` more bytes (`None`: without end). The bytes are synthetic —
    /// [`super::backlog_byte`] of their data index — and take no memory. Call
    /// [`TcpConnection::close`] afterwards for a file transfer that ends with a FIN.
    pub fn send_backlogged(&mut self, total: Option<u64>) {
        if !self.fin_queued {
            self.send_buf.set_backlog(total);
        }
    }

    /// RFC 9293 §3.10.4 CLOSE: no more data from this side; a FIN follows the data queued.
    /// Before the handshake completes the FIN waits for ESTABLISHED (see `docs/models/tcp.md`).
    pub fn close(&mut self) {
        match self.state {
            // "Delete the TCB, enter CLOSED state, and return."
            State::Listen => {
                self.set_state(State::Closed);
                self.timers.stop_all();
                self.events.push_back(TcpEvent::Closed);
            }
            // SYN-RECEIVED: "queue for processing after entering ESTABLISHED state". SYN-SENT
            // does the same here (RFC 9293 deletes the TCB instead): an application that
            // writes a file and closes before the handshake completes still sends it. Use
            // `abort` to drop a connection attempt.
            State::SynSent | State::SynReceived => self.fin_queued = true,
            // "Queue this until all preceding SENDs have been segmentized, then form a FIN
            // segment and send it. In any case, enter FIN-WAIT-1 state."
            State::Established => {
                self.fin_queued = true;
                self.set_state(State::FinWait1);
            }
            // "... send it, and enter LAST-ACK state."
            State::CloseWait => {
                self.fin_queued = true;
                self.set_state(State::LastAck);
            }
            // Already closing or closed.
            _ => {}
        }
    }

    /// RFC 9293 §3.10.5 ABORT: sends a RST in synchronized states and enters CLOSED.
    pub fn abort(&mut self) {
        if self.state.is_synchronized() && self.state != State::TimeWait {
            self.pending_rst = Some(TcpRepr {
                src_port: self.local_port,
                dst_port: self.remote_port,
                seq_number: self.seq_of(self.snd_max),
                flags: sctpsim_wire::TcpFlags::RST,
                ..TcpRepr::default()
            });
        }
        if self.state != State::Closed {
            self.enter_closed(TcpEvent::Closed);
        }
    }

    /// Moves received in-order bytes into `buf` (RFC 9293 §3.10.3 RECEIVE); returns how many.
    pub fn recv(&mut self, buf: &mut [u8]) -> usize {
        let n = self.rcv.read(buf);
        if n > 0 {
            self.after_read();
        }
        n
    }

    /// Drops every received in-order byte, checking each against the backlogged stream's
    /// pattern ([`super::backlog_byte`], what `send_backlogged` sends); returns how many bytes
    /// were dropped and how many differed (0 unless the stream was corrupted, duplicated or
    /// reordered on its way).
    pub fn discard_received_checked(&mut self) -> (usize, u64) {
        let first = self
            .stats
            .bytes_delivered
            .saturating_sub(self.rcv.available() as u64);
        let (n, bad) = self.rcv.discard_checked(first, super::backlog_byte);
        if n > 0 {
            self.after_read();
        }
        (n, bad)
    }

    /// Drops every received in-order byte (a sink that only counts) and returns how many.
    pub fn discard_received(&mut self) -> usize {
        let n = self.rcv.discard();
        if n > 0 {
            self.after_read();
        }
        n
    }

    /// Bytes ready for [`TcpConnection::recv`].
    pub fn recv_available(&self) -> usize {
        self.rcv.available()
    }

    /// RFC 9293 §3.8.6.2.2 (receiver SWS avoidance): after the application read, announce the
    /// window if it opened by at least min(buffer / 2, MSS).
    fn after_read(&mut self) {
        if !self.state.is_synchronized() || self.fin_received {
            return;
        }
        // Compare what could be advertised now with what was: a buffer larger than the window
        // field (and scale) can express must not look like an ever-opening window.
        let wnd =
            (self.rcv.window() >> self.rcv_wscale).min(u32::from(u16::MAX)) << self.rcv_wscale;
        let threshold = (self.cfg.recv_buffer / 2)
            .min(u32::from(self.cfg.mss))
            .max(1);
        if wnd >= self.last_adv_wnd.saturating_add(threshold) {
            self.ack_state = AckState::Now;
        }
    }

    // ----------------------------------------------------------------- network input

    /// Parses the TCP segment `bytes` (the IPv4 payload) carried from `src` to `dst` and
    /// handles it. A segment with a bad checksum, a truncated header or nonsense options is
    /// counted in [`TcpStats::malformed_dropped`] and dropped; segments for other ports are
    /// counted in [`TcpStats::segments_dropped`].
    pub fn handle_packet(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        bytes: &[u8],
    ) -> Result<(), WireError> {
        let parsed = TcpPacket::new_checked(bytes)
            .and_then(|packet| TcpRepr::parse(&packet, src, dst).map(|repr| (repr, packet)));
        match parsed {
            Ok((repr, packet)) => {
                // Not bound to a peer (LISTEN, or CLOSED after the connection ended): whatever
                // this segment makes it send (a SYN-ACK, a RST) answers its sender, from the
                // address it arrived at.
                if matches!(self.state, State::Listen | State::Closed) {
                    self.local_addr = dst;
                    self.remote_addr = src;
                }
                self.handle_segment(now, &repr, packet.payload());
                Ok(())
            }
            Err(e) => {
                self.stats.malformed_dropped += 1;
                Err(e)
            }
        }
    }

    // ----------------------------------------------------------------- timers

    /// When [`TcpConnection::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.timers.next_deadline()
    }

    /// Runs every timer due at `now` (a no-op if none is).
    pub fn handle_timeout(&mut self, now: SimTime) {
        while let Some(timer) = self.timers.pop_expired(now) {
            match timer {
                Timer::Retransmit => self.on_retransmission_timeout(now),
                Timer::Persist => {
                    // RFC 9293 §3.8.6.1: probe the zero window, backing off.
                    self.probe_due = true;
                    self.persist_backoff = self.persist_backoff.saturating_add(1).min(16);
                }
                Timer::DelayedAck => {
                    if self.ack_state == AckState::Delayed {
                        self.ack_state = AckState::Now;
                    }
                }
                Timer::TimeWait => {
                    // RFC 9293 §3.10.8: "If the time-wait timeout expires on a connection,
                    // delete the TCB, enter the CLOSED state, and return."
                    self.enter_closed(TcpEvent::Closed);
                }
            }
        }
        self.report_metrics();
    }

    /// RFC 6298 §5.4–5.6 and RFC 5681 §3.1: the retransmission timer expired.
    fn on_retransmission_timeout(&mut self, now: SimTime) {
        match self.state {
            State::SynSent | State::SynReceived => {
                // Retransmit the SYN (or SYN-ACK) with a backed-off timer.
                self.stats.timeouts += 1;
                self.consecutive_timeouts += 1;
                if self.give_up() {
                    return;
                }
                self.syn_due = true;
                self.syn_retransmitted = true;
                self.timed = None;
                self.rtt.back_off();
                self.timers.set(Timer::Retransmit, now + self.rtt.rto());
            }
            State::Closed | State::Listen | State::TimeWait => {}
            _ => {
                if self.snd_una >= self.snd_max {
                    return;
                }
                self.stats.timeouts += 1;
                self.consecutive_timeouts += 1;
                self.push_metric(TcpMetric::Timeout {
                    count: self.consecutive_timeouts,
                });
                if self.give_up() {
                    return;
                }
                let flight = clamp_u32(self.snd_max - self.snd_una);
                let first = self.consecutive_timeouts == 1;
                self.cc
                    .on_retransmission_timeout(now, flight, self.smss, first);
                // RFC 6582 §3.2 / RFC 6675 §5.1: after a timeout, record the highest sequence
                // sent; no fast retransmit until it is acknowledged, and recovery ends.
                self.recover = self.snd_max;
                self.recovery = None;
                self.dup_acks = 0;
                self.limited_bytes = 0;
                self.rtx_now = false;
                if self.cfg.variant == TcpVariant::Sack1 {
                    self.sack1_on_timeout();
                }
                // Go back N: resend from the oldest unacknowledged segment (SACKed segments
                // are skipped, RFC 6675 §5.1 allows keeping the scoreboard).
                self.snd_nxt = self.snd_una;
                // Karn (RFC 6298 §3): nothing in flight can be timed any more.
                self.timed = None;
                // RFC 6298 §5.5–5.6: back off and restart.
                self.rtt.back_off();
                self.timers.set(Timer::Retransmit, now + self.rtt.rto());
            }
        }
    }

    /// Ends the connection if too many consecutive timeouts happened.
    fn give_up(&mut self) -> bool {
        match self.cfg.max_retransmissions {
            Some(max) if self.consecutive_timeouts > max => {
                self.enter_closed(TcpEvent::TimedOut);
                true
            }
            _ => false,
        }
    }

    // ----------------------------------------------------------------- events and state

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<TcpEvent> {
        self.events.pop_front()
    }

    /// The next measurement, if any (only with [`TcpConfig::metric_events`]).
    pub fn poll_metric(&mut self) -> Option<TcpMetric> {
        self.metrics.pop_front()
    }

    pub(crate) fn set_state(&mut self, state: State) {
        self.state = state;
    }

    /// Enters CLOSED, stopping every timer, and reports `event`.
    pub(crate) fn enter_closed(&mut self, event: TcpEvent) {
        self.set_state(State::Closed);
        self.timers.stop_all();
        self.ack_state = AckState::Idle;
        self.syn_due = false;
        self.probe_due = false;
        self.rtx_now = false;
        self.events.push_back(event);
    }

    pub(crate) fn push_metric(&mut self, metric: TcpMetric) {
        if self.cfg.metric_events {
            self.metrics.push_back(metric);
        }
    }

    /// Emits the metric events for variables that changed since the last report.
    pub(crate) fn report_metrics(&mut self) {
        if !self.cfg.metric_events {
            return;
        }
        let cwnd = (self.cc.cwnd(), self.cc.ssthresh());
        if cwnd != self.reported_cwnd {
            self.reported_cwnd = cwnd;
            self.metrics.push_back(TcpMetric::CwndChanged {
                cwnd: cwnd.0,
                ssthresh: cwnd.1,
            });
        }
        let seq = (self.snd_una, self.snd_nxt);
        if seq != self.reported_seq {
            self.reported_seq = seq;
            self.metrics.push_back(TcpMetric::SeqChanged {
                snd_una: seq.0,
                snd_nxt: seq.1,
            });
        }
    }

    // ----------------------------------------------------------------- accessors

    /// The RFC 9293 state.
    pub fn state(&self) -> State {
        self.state
    }

    /// The configuration.
    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }

    /// Counters.
    pub fn stats(&self) -> &TcpStats {
        &self.stats
    }

    /// Local port.
    pub fn local_port(&self) -> u16 {
        self.local_port
    }

    /// Our address (the source of the segments).
    pub fn local_addr(&self) -> Ipv4Addr {
        self.local_addr
    }

    /// The peer's address (the destination of the segments; unspecified for a listener that
    /// has heard from nobody).
    pub fn remote_addr(&self) -> Ipv4Addr {
        self.remote_addr
    }

    /// Remote port (0 while listening).
    pub fn remote_port(&self) -> u16 {
        self.remote_port
    }

    /// Congestion window in bytes.
    pub fn cwnd(&self) -> u32 {
        self.cc.cwnd()
    }

    /// Slow-start threshold in bytes.
    pub fn ssthresh(&self) -> u32 {
        self.cc.ssthresh()
    }

    /// Smoothed RTT, once measured.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// The current retransmission timeout (backed off).
    pub fn rto(&self) -> SimDuration {
        self.rtt.rto()
    }

    /// Oldest unacknowledged stream offset (1 = the first data byte).
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }

    /// Next stream offset to send.
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }

    /// Highest stream offset sent (exclusive).
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }

    /// Our initial sequence number.
    pub fn iss(&self) -> TcpSeqNumber {
        self.iss
    }

    /// The peer's initial sequence number (meaningful once a SYN arrived).
    pub fn irs(&self) -> TcpSeqNumber {
        self.irs
    }

    /// Next receive stream offset expected (RCV.NXT relative to the IRS; the FIN counts).
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt_off()
    }

    /// Payload bytes the peer has acknowledged.
    pub fn bytes_acked(&self) -> u64 {
        self.stats.bytes_acked
    }

    /// Payload bytes received in order (read or not).
    pub fn bytes_received(&self) -> u64 {
        self.stats.bytes_delivered
    }

    /// Payload bytes per full-sized segment this endpoint sends.
    pub fn send_mss(&self) -> u32 {
        self.smss
    }

    /// The peer's window in bytes.
    pub fn peer_window(&self) -> u32 {
        self.snd_wnd
    }

    /// Whether SACK was negotiated.
    pub fn sack_enabled(&self) -> bool {
        self.sack_ok
    }

    /// Whether timestamps were negotiated.
    pub fn timestamps_enabled(&self) -> bool {
        self.ts_ok
    }

    /// Whether loss recovery (fast recovery) is in progress.
    pub fn in_recovery(&self) -> bool {
        self.recovery.is_some()
    }

    /// Whether every byte the application queued (and the FIN, if closed) is acknowledged.
    pub fn all_acked(&self) -> bool {
        self.snd_una >= self.data_end() + u64::from(self.fin_queued)
    }

    /// Whether the connection reached CLOSED.
    pub fn is_closed(&self) -> bool {
        self.state == State::Closed
    }

    // ----------------------------------------------------------------- sequence helpers

    /// The wire sequence number of send offset `off`.
    pub(crate) fn seq_of(&self, off: u64) -> TcpSeqNumber {
        self.iss.wrapping_add(off as u32)
    }

    /// The wire sequence number of receive offset `off`.
    pub(crate) fn rseq_of(&self, off: u64) -> TcpSeqNumber {
        self.irs.wrapping_add(off as u32)
    }

    /// The receive offset of `seq`, relative to `rcv_nxt` (negative: before the SYN).
    pub(crate) fn roff_of(&self, seq: TcpSeqNumber) -> i64 {
        let base = self.rcv_nxt_off();
        base as i64 + i64::from(seq.diff(self.rseq_of(base)))
    }

    /// The send offset of `ack`, relative to `snd_una`.
    pub(crate) fn soff_of(&self, ack: TcpSeqNumber) -> i64 {
        self.snd_una as i64 + i64::from(ack.diff(self.seq_of(self.snd_una)))
    }

    /// RCV.NXT as a receive offset (the FIN counts once consumed).
    pub(crate) fn rcv_nxt_off(&self) -> u64 {
        self.rcv.rcv_nxt() + u64::from(self.fin_received)
    }

    /// Send offset one past the last data byte the application provided.
    pub(crate) fn data_end(&self) -> u64 {
        1 + self.send_buf.end()
    }

    /// Whether our FIN has been sent.
    pub(crate) fn fin_sent(&self) -> bool {
        self.fin_queued && self.snd_max > self.data_end()
    }

    /// Whether our FIN has been acknowledged.
    pub(crate) fn fin_acked(&self) -> bool {
        self.fin_queued && self.snd_una > self.data_end()
    }

    /// How loss recovery manages the window.
    pub(crate) fn recovery_style(&self) -> RecoveryStyle {
        if self.cfg.variant.uses_sack() && self.sack_ok {
            RecoveryStyle::Pipe
        } else {
            RecoveryStyle::Inflation
        }
    }

    /// May duplicate ACKs start a new recovery? RFC 6582 §3.2 step 1: only if "the
    /// Cumulative Acknowledgment field covers more than recover" (recover being the highest
    /// octet sent, i.e. `self.recover - 1`), which keeps the duplicate ACKs caused by a
    /// go-back-N restart from triggering a spurious fast retransmit (ns-2: `highest_ack_ >
    /// recover_`). RFC 6675 §5.1 for SACK: "HighACK is greater than or equal to the new
    /// value of RecoveryPoint" (duplicates do not SACK new data, so the weaker test is safe).
    pub(crate) fn recover_guard_allows(&self) -> bool {
        match self.recovery_style() {
            RecoveryStyle::Pipe => self.snd_una >= self.recover,
            RecoveryStyle::Inflation => {
                // Tahoe keeps ns-2's `recover_` check (`bugFix_`) like NewReno: the duplicate
                // ACKs its own go-back-N retransmissions cause must not trigger another one.
                let guarded = self.cfg.variant != TcpVariant::Reno || self.cfg.reno_recover_guard;
                !guarded || self.snd_una > self.recover
            }
        }
    }

    /// RFC 6298: the current RTO deadline from `now`.
    pub(crate) fn restart_rtx_timer(&mut self, now: SimTime) {
        self.timers.set(Timer::Retransmit, now + self.rtt.rto());
    }

    /// Sets the sender MSS from the peer's MSS option (RFC 9293 §3.7.1, RFC 6691 §2).
    pub(crate) fn set_send_mss(&mut self, peer_mss: Option<u16>) {
        let peer = peer_mss.unwrap_or(DEFAULT_PEER_MSS).max(MIN_PEER_MSS);
        let mut mss = u32::from(peer.min(self.cfg.mss.max(MIN_PEER_MSS)));
        if self.ts_ok {
            mss = mss.saturating_sub(TIMESTAMP_OPTION_LEN).max(1);
        }
        let old = self.smss;
        self.smss = mss;
        // The initial window is counted in segments: rescale it to the negotiated size
        // (RFC 5681 §3.1 defines IW in SMSS).
        if old != mss && self.snd_una <= 1 {
            let iw = initial_window(&self.cfg, mss);
            self.cc = match self.cc {
                Controller::Reno(_) => Controller::Reno(Reno::new(iw, self.cfg.initial_ssthresh)),
                Controller::NewReno(_) => {
                    Controller::NewReno(NewReno::new(iw, self.cfg.initial_ssthresh))
                }
            };
        }
    }

    /// Takes an RTT sample (RFC 6298 §2), recording it. `sent` is when the timed segment was
    /// sent (`None` for a timestamp echo), for the tick-counting ns-2 estimator.
    pub(crate) fn rtt_sample(&mut self, now: SimTime, rtt: SimDuration, sent: Option<SimTime>) {
        match sent {
            Some(sent) => self.rtt.sample_between(sent, now),
            None => self.rtt.sample(rtt),
        }
        self.stats.record_rtt(rtt);
        self.consecutive_timeouts = 0;
        if self.cfg.metric_events {
            self.metrics.push_back(TcpMetric::RttSample {
                rtt,
                srtt: self.rtt.srtt().unwrap_or(rtt),
                rto: self.rtt.rto(),
            });
        }
    }

    /// RFC 7323 §5.4: the timestamp clock, 1 ms per tick.
    pub(crate) fn ts_clock(now: SimTime) -> u32 {
        (now.as_nanos() / 1_000_000) as u32
    }
}

/// RFC 5681 §3.1 equation (1), or the configured number of segments.
fn initial_window(cfg: &TcpConfig, smss: u32) -> u32 {
    match cfg.initial_window {
        Some(segments) => segments.max(1).saturating_mul(smss),
        None => (smss.saturating_mul(4)).min((smss.saturating_mul(2)).max(IW_BYTES)),
    }
}

/// Panics if the connection's internal invariants are broken (for fuzzers and property
/// tests): SND.UNA <= SND.NXT <= SND.MAX, the retransmission queue covers exactly
/// [SND.UNA, SND.MAX) after the handshake, and the congestion window is positive.
#[doc(hidden)]
pub fn fuzz_check_invariants(conn: &TcpConnection) {
    assert!(
        conn.snd_una <= conn.snd_nxt && conn.snd_nxt <= conn.snd_max,
        "sequence variables out of order: una {} nxt {} max {}",
        conn.snd_una,
        conn.snd_nxt,
        conn.snd_max
    );
    if conn.snd_una >= 1 {
        let first = conn.scoreboard.get(0).map(|s| s.start);
        let last = conn
            .scoreboard
            .get(conn.scoreboard.len().wrapping_sub(1))
            .map(|s| s.end);
        if conn.snd_una < conn.snd_max {
            assert_eq!(first, Some(conn.snd_una), "queue starts at SND.UNA");
            assert_eq!(last, Some(conn.snd_max), "queue ends at SND.MAX");
        } else {
            assert!(conn.scoreboard.is_empty(), "nothing outstanding");
        }
        let mut expected = conn.snd_una;
        for seg in conn.scoreboard.iter() {
            assert_eq!(seg.start, expected, "queue is contiguous");
            assert!(seg.end > seg.start, "segments are not empty");
            expected = seg.end;
        }
    }
    if let Some(fin) = conn.peer_fin {
        assert!(conn.rcv.rcv_nxt() <= fin, "data beyond the peer's FIN");
    }
    assert!(conn.cc.cwnd() > 0, "cwnd is positive");
    assert!(
        conn.snd_max <= conn.data_end() + 1,
        "nothing sent beyond the data and FIN"
    );
}

/// Saturating conversion for window arithmetic.
pub(crate) fn clamp_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}
