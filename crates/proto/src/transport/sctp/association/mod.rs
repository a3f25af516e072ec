//! [`SctpAssociation`]: one SCTP association (RFC 9260) as a sans-IO state machine.
//!
//! This file holds the state, the constructors, the packet and timer dispatchers and the
//! application interface; the procedures are split by responsibility:
//! `handshake.rs` (§5.1–§5.2: INIT, INIT ACK, COOKIE ECHO, COOKIE ACK, collisions, restart),
//! `vtag.rs` (§8.5, §8.5.1), `data.rs` (§6: DATA, SACK, fast retransmit, T3-rtx),
//! `output.rs` (packet assembly and bundling, §6.1, §6.10), `paths.rs` (§6.4, §8: path
//! selection, error counters, heartbeats), `asctp.rs` (A-SCTP's route paths, Argyriou &
//! Madisetti 2004 §3), `shutdown.rs` (§9.2), `abort_error.rs` (§9.1, §3.3.10,
//! unknown chunks), `invalid.rs` (chunks the codec could not parse, control chunks after
//! DATA: §3.2, §3.2.1, §6.10), and at the `sctp` level `asconf.rs` (RFC 5061) and `forward_tsn.rs`
//! (RFC 3758).

mod abort_error;
mod asctp;
mod auth_io;
mod cmt;
mod data;
mod handshake;
mod invalid;
mod output;
mod paths;
mod shutdown;
pub mod state;
mod vtag;

use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_wire::sctp::{ChunkFault, ChunkRepr, ErrorCause, InitChunk, SctpRepr, Tsn};

use super::api::{
    ApiError, AssociationStatus, Message, MessageId, OutPacket, PathStatus, SctpEvent, SendError,
};
use super::asconf::AsconfState;
use super::config::SctpConfig;
use super::cookie::{CookieKey, StateCookie};
use super::path::Path;
use super::recv::RecvState;
use super::retransmit::RetransmitQueue;
use super::send_queue::{PendingMessage, SendQueue};
use super::stats::{MetricEvent, MetricKind, PathStats, SctpStats};
use super::timers::{Timer, TimerTable};
use crate::transport::Transmit;
use state::State;

pub(crate) use handshake::{build_init_ack, check_init, parse_init_params};
pub(crate) use invalid::refuse_malformed_init;

/// What the chunk loop does after one chunk (RFC 9260 §3.2: an unrecognized chunk may stop the
/// processing of the rest of the packet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Stop,
}

/// Per-packet context of the chunk loop.
#[derive(Debug, Clone, Default)]
pub(crate) struct PacketCtx {
    pub src: Option<Ipv4Addr>,
    pub dst: Option<Ipv4Addr>,
    /// The packet's verification tag.
    pub vtag: u32,
    /// DATA chunks were seen (accepted or not).
    pub data_seen: bool,
    pub data_new: bool,
    pub data_dup: bool,
    pub data_dropped: bool,
    /// TSNs were missing before this packet.
    pub had_gaps: bool,
    /// Error causes to report to the sender in an ERROR chunk.
    pub report: Vec<ErrorCause>,
}

impl PacketCtx {
    fn src(&self) -> Ipv4Addr {
        self.src.unwrap_or(Ipv4Addr::UNSPECIFIED)
    }
    fn dst(&self) -> Ipv4Addr {
        self.dst.unwrap_or(Ipv4Addr::UNSPECIFIED)
    }
}

/// Setup state: our INIT and the cookie to echo, kept for retransmission and for the collision
/// rules of RFC 9260 §5.2.1.
#[derive(Debug, Clone, Default)]
pub(crate) struct Handshake {
    /// Our INIT, for T1-init retransmissions and §5.2.1 INIT ACKs "using the same parameters".
    pub init: Option<InitChunk>,
    /// The State Cookie received in the INIT ACK.
    pub cookie: Option<Vec<u8>>,
    /// An ERROR (Unrecognized Parameters) to bundle with the COOKIE ECHO (§3.2.2).
    pub cookie_error: Option<Vec<ErrorCause>>,
    /// INIT / COOKIE ECHO retransmissions so far (§5.1 C).
    pub retransmits: u32,
    /// Index of the peer address the next INIT goes to.
    pub init_dest: usize,
    /// The user asked to shut down before the handshake finished.
    pub shutdown_after_setup: bool,
}

/// One SCTP association (RFC 9260), sans-IO.
///
/// Call order, as in quinn-proto: feed input with [`SctpAssociation::handle_packet`] and
/// [`SctpAssociation::handle_timeout`]; give application commands ([`SctpAssociation::send`],
/// [`SctpAssociation::shutdown`], options, ...); then drain [`SctpAssociation::poll_transmit`]
/// until `None` (each [`Transmit`] carries the destination and source address the association
/// chose), read [`SctpAssociation::poll_timeout`] to know when to call `handle_timeout` next,
/// and drain [`SctpAssociation::poll_event`] (notifications), [`SctpAssociation::recv`]
/// (messages) and, with [`SctpConfig::metrics`], [`SctpAssociation::poll_metric`]. Time enters
/// only through the `now` arguments; a wake-up at a time when nothing is due is a no-op.
///
/// Associations are created and held by an [`crate::transport::sctp::SctpEndpoint`]: `connect`
/// for the initiator, a valid COOKIE ECHO given to `handle_datagram` for the responder; the
/// endpoint hands each packet to the association that [`SctpAssociation::owns`] it.
#[derive(Debug, Clone)]
pub struct SctpAssociation {
    pub(crate) cfg: SctpConfig,
    pub(crate) rng: Rng,
    pub(crate) key: CookieKey,
    pub(crate) state: State,
    pub(crate) local_port: u16,
    pub(crate) peer_port: u16,
    pub(crate) local_addrs: Vec<Ipv4Addr>,
    pub(crate) my_vtag: u32,
    pub(crate) peer_vtag: u32,
    pub(crate) paths: Vec<Path>,
    pub(crate) primary: Ipv4Addr,
    /// The destination new data goes to (the primary unless it failed, §6.4).
    pub(crate) current: Ipv4Addr,
    /// Why the next change of `current` happens, if its cause is already known (a path just
    /// failed, the primary was set); taken by `data_dest`.
    pub(crate) switch_cause: Option<super::stats::SwitchCause>,
    pub(crate) timers: TimerTable,
    pub(crate) hs: Handshake,
    pub(crate) tx: RetransmitQueue,
    pub(crate) sendq: SendQueue,
    pub(crate) rx: RecvState,
    pub(crate) asconf: AsconfState,
    /// The peer's receive window as the sender tracks it (§6.2.1).
    pub(crate) peer_rwnd: u32,
    /// RFC 9260 §8.1: the association's overall error counter.
    pub(crate) error_count: u32,
    /// PR-SCTP negotiated (both sides).
    pub(crate) pr_sctp: bool,
    /// ASCONF negotiated (both sides).
    pub(crate) asconf_ok: bool,
    /// I-DATA negotiated (both sides, RFC 8260 §2.2): user data travels in I-DATA chunks only.
    pub(crate) i_data: bool,
    /// Stream reconfiguration (RFC 6525), when both sides offered it (`reconfig.rs`).
    pub(crate) reconfig: Option<super::reconfig::ReconfigState>,
    /// NR-SACK negotiated (both sides listed it): we acknowledge with NR-SACK chunks and
    /// accept the peer's.
    pub(crate) nr_sack: bool,
    pub(crate) outbound_streams: u16,
    pub(crate) inbound_streams: u16,
    pub(crate) next_msg_id: u64,
    /// Where SACKs go: the source of the latest DATA (§6.4).
    pub(crate) sack_dest: Option<Ipv4Addr>,
    /// Where the last SACK went.
    pub(crate) last_sack_dest: Option<Ipv4Addr>,
    /// Ready-made packets (handshake, ABORT, SHUTDOWN COMPLETE, replies).
    pub(crate) pending: VecDeque<OutPacket>,
    /// Control chunks to bundle, with their destination.
    pub(crate) ctrl: Vec<(Ipv4Addr, ChunkRepr)>,
    /// A FORWARD TSN is due (RFC 3758 §3.5 C3).
    pub(crate) forward_tsn_due: bool,
    /// A SHUTDOWN must accompany the next SACK (RFC 9260 §9.2, SHUTDOWN-SENT).
    pub(crate) shutdown_due: bool,
    pub(crate) events: VecDeque<SctpEvent>,
    pub(crate) metrics: VecDeque<MetricEvent>,
    pub(crate) reported_cwnd: BTreeMap<Ipv4Addr, (u32, u32)>,
    pub(crate) stats: SctpStats,
    /// cSCTP handoff state and duplicated-transfer bookkeeping (`csctp.rs`).
    pub(crate) csctp: super::csctp::CsctpState,
    /// Our AUTH offer (RFC 4895; with [`SctpConfig::auth`]): drawn for our INIT, or taken
    /// from the cookie of the INIT ACK that made this association.
    pub(crate) auth_local: Option<super::auth::AuthParams>,
    /// AUTH as negotiated (both sides offered it): keys, lists, HMAC (`auth_io.rs`).
    pub(crate) auth: Option<super::auth::AuthState>,
    /// The received bytes of the packet being processed, when it carries an AUTH chunk and
    /// came in as bytes (set by the endpoint, taken by `process_chunks`).
    pub(crate) rx_raw: Option<super::auth::RxRaw>,
    /// CMT: index of the destination the search for the next packet of new data starts at
    /// (`cmt.rs`).
    pub(crate) cmt_next: usize,
}

impl SctpAssociation {
    /// A fresh association skeleton; the handshake code fills it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn skeleton(
        cfg: SctpConfig,
        key: CookieKey,
        rng: Rng,
        state: State,
        local_port: u16,
        peer_port: u16,
        local_addrs: Vec<Ipv4Addr>,
        my_vtag: u32,
        my_initial_tsn: Tsn,
    ) -> Self {
        let outbound = cfg.outbound_streams.max(1);
        let inbound = cfg.max_inbound_streams.max(1);
        let buffer = cfg.recv_buffer;
        SctpAssociation {
            tx: RetransmitQueue::new(my_initial_tsn),
            sendq: SendQueue::with_scheduler(outbound, cfg.scheduler.clone()),
            rx: RecvState::new(Tsn(0), inbound, buffer),
            asconf: AsconfState::new(my_initial_tsn.0, 0),
            cfg,
            rng,
            key,
            state,
            local_port,
            peer_port,
            local_addrs,
            my_vtag,
            peer_vtag: 0,
            paths: Vec::new(),
            primary: Ipv4Addr::UNSPECIFIED,
            current: Ipv4Addr::UNSPECIFIED,
            switch_cause: None,
            timers: TimerTable::default(),
            hs: Handshake::default(),
            peer_rwnd: buffer,
            error_count: 0,
            pr_sctp: false,
            asconf_ok: false,
            reconfig: None,
            nr_sack: false,
            i_data: false,
            outbound_streams: outbound,
            inbound_streams: inbound,
            next_msg_id: 0,
            sack_dest: None,
            last_sack_dest: None,
            pending: VecDeque::new(),
            ctrl: Vec::new(),
            forward_tsn_due: false,
            shutdown_due: false,
            events: VecDeque::new(),
            metrics: VecDeque::new(),
            reported_cwnd: BTreeMap::new(),
            stats: SctpStats::default(),
            csctp: super::csctp::CsctpState::default(),
            auth_local: None,
            auth: None,
            rx_raw: None,
            cmt_next: 0,
        }
    }

    /// The initiator side (RFC 9260 §5.1 A): COOKIE-WAIT with an INIT queued to the first
    /// address of `peer_addrs` and T1-init running. Use
    /// [`crate::transport::sctp::SctpEndpoint::connect`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new_client(
        cfg: SctpConfig,
        key: CookieKey,
        mut rng: Rng,
        now: SimTime,
        local_port: u16,
        peer_port: u16,
        local_addrs: Vec<Ipv4Addr>,
        peer_addrs: &[Ipv4Addr],
    ) -> Self {
        let my_vtag = handshake::random_tag(&mut rng);
        let tsn = Tsn(rng.next_u64() as u32);
        // RFC 4895 §6.1: our RANDOM, from this association's stream right after the tag and
        // the TSN (only with AUTH on: runs without it draw exactly what they drew before).
        let auth_local = cfg.auth.then(|| {
            super::auth::AuthParams::ours(
                &mut rng,
                super::auth::required_chunks(&cfg),
                cfg.auth_hmac,
            )
        });
        let mut a = Self::skeleton(
            cfg,
            key,
            rng,
            State::CookieWait,
            local_port,
            peer_port,
            local_addrs,
            my_vtag,
            tsn,
        );
        for &p in peer_addrs {
            a.add_path(p, true);
        }
        if a.paths.is_empty() {
            a.add_path(Ipv4Addr::UNSPECIFIED, true);
        }
        a.primary = a.paths[0].addr;
        a.current = a.primary;
        a.auth_local = auth_local;
        a.start_init(now);
        a
    }

    /// The responder side (RFC 9260 §5.1 D, §5.1.5 step 5): ESTABLISHED from a valid cookie.
    /// `src`/`dst` are the addresses of the packet that carried the COOKIE ECHO.
    pub(crate) fn from_cookie(
        cfg: SctpConfig,
        key: CookieKey,
        rng: Rng,
        now: SimTime,
        cookie: &StateCookie,
        src: Ipv4Addr,
        dst: Ipv4Addr,
    ) -> Self {
        let mut local = cookie.local_addrs.clone();
        if local.is_empty() {
            local.push(dst);
        }
        let mut a = Self::skeleton(
            cfg,
            key,
            rng,
            State::Established,
            cookie.local_port,
            cookie.peer_port,
            local,
            cookie.my_vtag,
            cookie.my_initial_tsn,
        );
        a.install_cookie(now, cookie, src, dst);
        a
    }

    // ----------------------------------------------------------------- introspection

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Whether the association reached CLOSED (drain [`SctpAssociation::poll_transmit`] once
    /// more: a final ABORT or SHUTDOWN COMPLETE may be queued).
    pub fn is_closed(&self) -> bool {
        self.state == State::Closed
    }

    /// Our port.
    pub fn local_port(&self) -> u16 {
        self.local_port
    }

    /// The peer's port.
    pub fn peer_port(&self) -> u16 {
        self.peer_port
    }

    /// Our addresses in the association.
    pub fn local_addrs(&self) -> &[Ipv4Addr] {
        &self.local_addrs
    }

    /// The peer's addresses (destinations), in the order they were learned.
    pub fn peer_addrs(&self) -> Vec<Ipv4Addr> {
        self.paths.iter().map(|p| p.addr).collect()
    }

    /// Our verification tag (what the peer puts in its packets).
    pub fn my_vtag(&self) -> u32 {
        self.my_vtag
    }

    /// The peer's verification tag (what we put in our packets; 0 before the INIT ACK).
    pub fn peer_vtag(&self) -> u32 {
        self.peer_vtag
    }

    /// Our Initial TSN.
    pub fn initial_tsn(&self) -> Tsn {
        self.tx.initial_tsn
    }

    /// The primary destination.
    pub fn primary(&self) -> Ipv4Addr {
        self.primary
    }

    /// Whether a packet from `src`:`src_port` to our `dst_port` belongs to this association
    /// (for an engine's demultiplexing).
    pub fn owns(&self, src: Ipv4Addr, src_port: u16, dst_port: u16) -> bool {
        // A peer address, not an A-SCTP alias key (never a packet's source).
        src_port == self.peer_port
            && dst_port == self.local_port
            && self.path(src).is_some_and(|p| p.wire == src)
    }

    /// A status snapshot (RFC 9260 §11.1 O STATUS).
    pub fn status(&self) -> AssociationStatus {
        AssociationStatus {
            state: self.state,
            peer_rwnd: self.peer_rwnd,
            local_rwnd: self.rx.rwnd(),
            unacked_chunks: self.tx.len(),
            pending_messages: self.sendq.len(),
            outbound_streams: self.outbound_streams,
            inbound_streams: self.inbound_streams,
            primary: self.primary,
            current_path: self.current,
            paths: self.paths.iter().map(Path::status).collect(),
        }
    }

    /// A snapshot of one destination.
    pub fn path_status(&self, addr: Ipv4Addr) -> Option<PathStatus> {
        self.path(addr).map(Path::status)
    }

    /// The association's counters.
    pub fn stats(&self) -> &SctpStats {
        &self.stats
    }

    /// The counters of one destination.
    pub fn path_stats(&self, addr: Ipv4Addr) -> Option<&PathStats> {
        self.path(addr).map(|p| &p.stats)
    }

    /// The configuration in use.
    pub fn config(&self) -> &SctpConfig {
        &self.cfg
    }

    /// Whether PR-SCTP (RFC 3758) was negotiated.
    pub fn pr_sctp_negotiated(&self) -> bool {
        self.pr_sctp
    }

    /// Whether I-DATA (RFC 8260) was negotiated.
    pub fn i_data_negotiated(&self) -> bool {
        self.i_data
    }

    /// Whether ASCONF (RFC 5061) was negotiated.
    pub fn asconf_negotiated(&self) -> bool {
        self.asconf_ok
    }

    /// AUTH (RFC 4895) as negotiated, if both sides offered it.
    pub fn auth_negotiated(&self) -> Option<&super::auth::AuthState> {
        self.auth.as_ref()
    }

    // ----------------------------------------------------------------- sans-IO core

    /// Processes one SCTP packet that arrived from `src` at our address `dst` at `now`.
    /// Nothing here panics on packet content: unexpected chunks are dropped (counted) or
    /// answered as RFC 9260 says.
    pub fn handle_packet(&mut self, now: SimTime, src: Ipv4Addr, dst: Ipv4Addr, pkt: &SctpRepr) {
        self.handle_parsed(now, src, dst, pkt, None);
    }

    /// As [`SctpAssociation::handle_packet`], for a packet whose parse stopped at `fault`
    /// ([`SctpRepr::parse_lenient`]): `pkt` holds the chunks before it.
    pub fn handle_packet_with_fault(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        fault: &ChunkFault,
    ) {
        self.handle_parsed(now, src, dst, pkt, Some(fault));
    }

    fn handle_parsed(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        fault: Option<&ChunkFault>,
    ) {
        self.begin_input();
        if self.state == State::Closed
            || pkt.src_port != self.peer_port
            || pkt.dst_port != self.local_port
        {
            self.stats.packets_dropped_vtag += 1;
            return;
        }
        if !self.accept_packet(now, src, dst, pkt, fault) {
            return;
        }
        self.process_chunks(now, src, dst, pkt, None, fault);
    }

    /// Runs the chunks of an accepted packet, except the COOKIE ECHO at `cookie_at` that the
    /// endpoint already used to create the association (chunk 0, or chunk 1 after an AUTH
    /// chunk: RFC 4895 §6.3).
    pub(crate) fn process_chunks(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        cookie_at: Option<usize>,
        fault: Option<&ChunkFault>,
    ) {
        self.stats.packets_received += 1;
        let mut ctx = PacketCtx {
            src: Some(src),
            dst: Some(dst),
            vtag: pkt.verification_tag,
            had_gaps: self.rx.has_gaps(),
            ..PacketCtx::default()
        };
        let mut flow = Flow::Continue;
        let mut after_data = false;
        let mut authenticated = false;
        let raw = self.rx_raw.take();
        for (i, chunk) in pkt.chunks.iter().enumerate() {
            if Some(i) == cookie_at {
                continue;
            }
            if after_data && self.control_after_data(now, chunk) {
                flow = Flow::Stop;
                break;
            }
            // RFC 4895 §6.3: the AUTH chunk, and chunks we listed that arrive without one.
            if self.auth.is_some() {
                if let ChunkRepr::Auth(_) = chunk {
                    let tail = raw.as_ref().and_then(|r| r.tail(i));
                    flow = self.on_auth(&mut ctx, &pkt.chunks, i, tail, &mut authenticated);
                    if flow == Flow::Stop {
                        break;
                    }
                    continue;
                }
                if !authenticated && self.auth_required(chunk.kind()) {
                    self.stats.auth_unauthenticated_dropped += 1;
                    self.stats.chunks_dropped += 1;
                    continue;
                }
            }
            after_data |= matches!(chunk, ChunkRepr::Data(_) | ChunkRepr::IData(_));
            flow = self.handle_chunk(now, &mut ctx, i, chunk);
            if flow == Flow::Stop || self.state == State::Closed {
                break;
            }
        }
        // The chunk the codec could not parse comes after the last parsed one; it is reached
        // only if nothing before it stopped the processing.
        if let Some(f) = fault {
            if flow == Flow::Continue && self.state != State::Closed {
                self.on_malformed_chunk(now, &mut ctx, f);
            }
        }
        if ctx.data_seen && self.state != State::Closed {
            self.after_data_packet(now, &ctx);
        }
        // (Before the peer's tag is known there is no valid tag to report with.)
        if !ctx.report.is_empty() && self.state != State::Closed && self.peer_vtag != 0 {
            self.stats.errors_sent += 1;
            self.ctrl.push((
                src,
                ChunkRepr::Error {
                    causes: std::mem::take(&mut ctx.report),
                },
            ));
        }
        self.after_input(now);
    }

    /// One chunk of an accepted packet.
    fn handle_chunk(
        &mut self,
        now: SimTime,
        ctx: &mut PacketCtx,
        index: usize,
        chunk: &ChunkRepr,
    ) -> Flow {
        match chunk {
            ChunkRepr::Init(init) => self.on_init(now, ctx, init),
            ChunkRepr::InitAck(ack) => self.on_init_ack(now, ctx, ack),
            ChunkRepr::CookieEcho { cookie } => self.on_cookie_echo(now, ctx, index, cookie),
            ChunkRepr::CookieAck => self.on_cookie_ack(now),
            // RFC 8260 §2.2: with I-DATA negotiated, DATA is a protocol violation; so is
            // I-DATA without it, from a peer we offered it to (an endpoint that does not offer
            // I-DATA treats it as the unrecognized chunk type it is for RFC 9260).
            ChunkRepr::Data(_) if self.i_data => self.user_data_violation(now, "DATA"),
            ChunkRepr::Data(d) => self.on_data(now, ctx, d),
            ChunkRepr::IData(d) if self.i_data => self.on_i_data(now, ctx, d),
            ChunkRepr::IData(_) if self.cfg.i_data && self.state.receives_data() => {
                self.user_data_violation(now, "I-DATA")
            }
            ChunkRepr::Sack(s) => self.on_sack(now, ctx, s, &[]),
            // NR-SACK only when negotiated; otherwise an unrecognized chunk type (as FreeBSD).
            ChunkRepr::NrSack(n) if self.nr_sack => {
                self.stats.nr_sacks_received += 1;
                self.on_sack(now, ctx, &n.sack, &n.nr_gap_blocks)
            }
            ChunkRepr::Heartbeat { info } => self.on_heartbeat(ctx, info),
            ChunkRepr::HeartbeatAck { info } => self.on_heartbeat_ack(now, info),
            ChunkRepr::Abort { t_bit, causes } => self.on_abort(now, ctx, *t_bit, causes),
            ChunkRepr::Shutdown { cum_tsn_ack } => self.on_shutdown(now, ctx, *cum_tsn_ack),
            ChunkRepr::ShutdownAck => self.on_shutdown_ack(now, ctx),
            ChunkRepr::ShutdownComplete { t_bit } => self.on_shutdown_complete(now, ctx, *t_bit),
            ChunkRepr::Error { causes } => self.on_error(now, causes),
            ChunkRepr::ForwardTsn(f) if self.pr_sctp && !self.i_data => {
                self.on_forward_tsn(now, ctx, f)
            }
            ChunkRepr::IForwardTsn(f) if self.pr_sctp && self.i_data => {
                self.on_i_forward_tsn(now, ctx, f)
            }
            ChunkRepr::Asconf(a) if self.asconf_ok => self.on_asconf(now, ctx, a),
            ChunkRepr::AsconfAck(a) if self.asconf_ok => self.on_asconf_ack(now, ctx, a),
            ChunkRepr::Reconfig(r) if self.reconfig.is_some() => self.on_reconfig(now, ctx, r),
            // ECN is not negotiated (we never send ECN Capable), so ECNE and CWR are
            // unexpected; RFC 9260 §3.2 reserves the types: skip them.
            ChunkRepr::Ecne { .. } | ChunkRepr::Cwr { .. } => {
                self.stats.chunks_dropped += 1;
                Flow::Continue
            }
            // Extensions that were not negotiated are treated as unrecognized chunk types
            // (their upper bits say what to do, RFC 9260 §3.2).
            other => self.on_unrecognized(ctx, other),
        }
    }

    /// Processes every timer due at or before `now`. A stale wake-up does nothing.
    pub fn handle_timeout(&mut self, now: SimTime) {
        if self.state == State::Closed {
            return;
        }
        self.begin_input();
        while let Some(timer) = self.timers.pop_expired(now) {
            match timer {
                Timer::T1Init => self.on_t1_init(now),
                Timer::T1Cookie => self.on_t1_cookie(now),
                Timer::T2Shutdown => self.on_t2_shutdown(now),
                Timer::T3Rtx(addr) => self.on_t3_rtx(now, addr),
                Timer::T4Asconf => self.on_t4_asconf(now),
                Timer::T5ShutdownGuard => self.on_t5_guard(now),
                Timer::DelayedSack => {
                    if self.rx.sack_pending() {
                        self.rx.request_sack();
                    }
                    self.on_delayed_sack_timer();
                }
                Timer::Heartbeat(addr) => self.on_heartbeat_timer(now, addr),
                Timer::PrSctpExpiry => self.on_lifetime_timer(now),
                Timer::Reconfig => self.on_reconfig_timer(now),
            }
            if self.state == State::Closed {
                break;
            }
        }
        self.after_input(now);
    }

    /// The next packet to send, if any, encoded (CRC32c included) for the IPv4 payload from
    /// `src` to `dst`. Drain until `None` after every input.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Transmit> {
        self.poll_transmit_on_path(now).map(|(t, _)| t)
    }

    /// [`SctpAssociation::poll_transmit`], with the key of the path the packet was built for
    /// (`None` for replies to the packet's source): an A-SCTP path manager sends it over that
    /// path's route.
    pub fn poll_transmit_on_path(&mut self, now: SimTime) -> Option<(Transmit, Option<Ipv4Addr>)> {
        loop {
            let mut packet = self.next_packet(now)?;
            self.sign_packet(&mut packet);
            match packet.encode_on_path() {
                Ok(t) => return Some(t),
                // Not reached with the packets the association builds; counted, not sent.
                Err(_) => self.stats.packets_unencodable += 1,
            }
        }
    }

    /// When [`SctpAssociation::handle_timeout`] should be called next.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        if self.state == State::Closed {
            return None;
        }
        self.timers.next_deadline()
    }

    /// The next notification.
    pub fn poll_event(&mut self) -> Option<SctpEvent> {
        self.events.pop_front()
    }

    /// The next metric sample (only with [`SctpConfig::metrics`]).
    pub fn poll_metric(&mut self) -> Option<MetricEvent> {
        self.metrics.pop_front()
    }

    // ----------------------------------------------------------------- application interface

    /// RFC 9260 §11.1 E SEND: queues a message on `stream`, ordered or not, with an optional
    /// lifetime (RFC 3758 timed reliability when PR-SCTP is negotiated; otherwise only unsent
    /// data expires, as RFC 9260 §11.1 E describes) and a payload protocol identifier.
    pub fn send(
        &mut self,
        now: SimTime,
        data: Vec<u8>,
        stream: u16,
        unordered: bool,
        lifetime: Option<SimDuration>,
        ppid: u32,
    ) -> Result<MessageId, SendError> {
        if self.state == State::Closed {
            return Err(SendError::Closed);
        }
        if !self.state.accepts_user_data() || self.hs.shutdown_after_setup {
            return Err(SendError::ShuttingDown);
        }
        if data.is_empty() {
            return Err(SendError::Empty);
        }
        if stream >= self.outbound_streams {
            return Err(SendError::InvalidStream { stream });
        }
        if !self.cfg.fragmentation && data.len() > self.max_fragment() {
            return Err(SendError::TooLarge);
        }
        let buffered = self.send_buffer_used();
        if buffered > 0 && buffered + data.len() > self.cfg.send_buffer {
            return Err(SendError::BufferFull);
        }
        // Not a new transmission opportunity for Max.Burst: a sender refilling its buffer
        // after every poll must not defeat the limit.
        let id = MessageId(self.next_msg_id);
        self.next_msg_id += 1;
        self.stats.messages_sent += 1;
        self.sendq.push(PendingMessage {
            id,
            stream,
            unordered,
            ppid,
            data,
            expires: lifetime.map(|l| now + l),
        });
        self.after_input(now);
        Ok(id)
    }

    /// Bytes the send buffer can still take.
    pub fn send_buffer_space(&self) -> usize {
        self.cfg.send_buffer.saturating_sub(self.send_buffer_used())
    }

    /// Whether NR-SACK was negotiated (both sides listed it in Supported Extensions).
    pub fn nr_sack_negotiated(&self) -> bool {
        self.nr_sack
    }

    /// Bytes of gap-acknowledged (renegable) data the send buffer still holds: the part of
    /// [`SctpAssociation::send_buffer_used`] that NR-SACK frees early (0 without
    /// [`SctpConfig::renegable_send_buffer`]).
    pub fn send_buffer_renegable(&self) -> usize {
        if self.cfg.renegable_send_buffer {
            self.tx
                .held_bytes()
                .saturating_sub(self.tx.outstanding_bytes()) as usize
        } else {
            0
        }
    }

    /// Bytes the send buffer holds: queued data plus data sent and not yet freed. With
    /// [`SctpConfig::renegable_send_buffer`], gap-acknowledged data stays until the cumulative
    /// ack or an NR gap block covers it (RFC 9260 §6.2.1); without, it leaves on the gap ack.
    /// The rwnd arithmetic does not use this: it counts outstanding (sent, unacknowledged)
    /// data only (§6.2.1 D ii).
    pub fn send_buffer_used(&self) -> usize {
        let sent = if self.cfg.renegable_send_buffer {
            self.tx.held_bytes()
        } else {
            self.tx.outstanding_bytes()
        };
        self.sendq.bytes() + sent as usize
    }

    /// RFC 9260 §11.1 I RECEIVE: the next complete message, in order per ordered stream.
    /// Reading frees receive buffer; a window update SACK is sent when the window reopens.
    pub fn recv(&mut self) -> Option<Message> {
        let msg = self.rx.pop_message()?;
        self.stats.messages_delivered += 1;
        self.stats.bytes_delivered += msg.data.len() as u64;
        if self.state.receives_data() && self.rx.window_update_due() {
            self.rx.request_sack();
        }
        Some(msg)
    }

    /// Messages ready for [`SctpAssociation::recv`].
    pub fn readable(&self) -> usize {
        self.rx.ready_len()
    }

    /// RFC 9260 §11.1 C ABORT: sends an ABORT with a User-Initiated Abort cause carrying
    /// `reason` and closes the association at once.
    pub fn abort(&mut self, now: SimTime, reason: &[u8]) {
        if self.state == State::Closed {
            return;
        }
        let cause = ErrorCause::UserInitiatedAbort {
            reason: reason.to_vec(),
        };
        if self.state != State::CookieWait {
            self.queue_abort(now, vec![cause]);
        }
        self.terminate(super::api::LossReason::LocalAbort);
    }

    /// RFC 9260 §11.1 K SET PRIMARY: new data goes to `addr` (RFC 9260 §6.4).
    pub fn set_primary(&mut self, addr: Ipv4Addr) -> Result<(), ApiError> {
        if self.path_index(addr).is_none() {
            return Err(ApiError::UnknownAddress);
        }
        if self.primary != addr {
            self.primary = addr;
            self.switch_cause = Some(super::stats::SwitchCause::Primary);
            self.events.push_back(SctpEvent::PrimaryChanged { addr });
        }
        Ok(())
    }

    /// Uses `local` as the source address of packets to the destination `peer` (RFC 9260
    /// §6.4: "source address per path").
    pub fn set_source_address(&mut self, peer: Ipv4Addr, local: Ipv4Addr) -> Result<(), ApiError> {
        if !self.local_addrs.contains(&local) {
            return Err(ApiError::UnknownAddress);
        }
        let p = self.path_mut(peer).ok_or(ApiError::UnknownAddress)?;
        p.source = local;
        p.source_pinned = true;
        Ok(())
    }

    /// RFC 9260 §16 RTO.Initial, RTO.Min, RTO.Max (SCTP_RTOINFO). `initial` applies to
    /// destinations without an RTT measurement.
    pub fn set_rto(
        &mut self,
        initial: SimDuration,
        min: SimDuration,
        max: SimDuration,
    ) -> Result<(), ApiError> {
        if min > max || initial.is_zero() {
            return Err(ApiError::InvalidValue);
        }
        self.cfg.rto_initial = initial;
        self.cfg.rto_min = min;
        self.cfg.rto_max = max;
        for p in &mut self.paths {
            if p.rto.srtt().is_none() {
                p.rto = super::path::RtoEstimator::new(&self.cfg);
            } else {
                p.rto.reclamp(&self.cfg);
            }
        }
        Ok(())
    }

    /// Association.Max.Retrans (SCTP_ASSOCINFO).
    pub fn set_association_max_retrans(&mut self, n: u32) {
        self.cfg.association_max_retrans = n;
    }

    /// Path parameters (SCTP_PEER_ADDR_PARAMS) of `addr`, or of every destination when `addr`
    /// is `None`: HB.interval, Path.Max.Retrans and whether heartbeats are sent.
    pub fn set_path_params(
        &mut self,
        now: SimTime,
        addr: Option<Ipv4Addr>,
        hb_interval: Option<SimDuration>,
        path_max_retrans: Option<u32>,
        heartbeats: Option<bool>,
    ) -> Result<(), ApiError> {
        if addr.is_some_and(|a| self.path_index(a).is_none()) {
            return Err(ApiError::UnknownAddress);
        }
        for i in 0..self.paths.len() {
            let a = self.paths[i].addr;
            if addr.is_some_and(|x| x != a) {
                continue;
            }
            let p = &mut self.paths[i];
            if let Some(v) = hb_interval {
                p.hb_interval = v;
            }
            if let Some(v) = path_max_retrans {
                p.path_max_retrans = v;
            }
            if let Some(v) = heartbeats {
                p.hb_enabled = v;
            }
            self.timers.stop(Timer::Heartbeat(a));
            self.arm_heartbeat(now, a);
        }
        if addr.is_none() {
            if let Some(v) = hb_interval {
                self.cfg.hb_interval = v;
            }
            if let Some(v) = path_max_retrans {
                self.cfg.path_max_retrans = v;
            }
            if let Some(v) = heartbeats {
                self.cfg.heartbeats = v;
            }
        }
        Ok(())
    }

    /// Sets the path MTU of `addr` (IP header included).
    pub fn set_path_mtu(&mut self, addr: Ipv4Addr, pmtu: u16) -> Result<(), ApiError> {
        if pmtu < super::path::MIN_PMTU {
            return Err(ApiError::InvalidValue);
        }
        let p = self.path_mut(addr).ok_or(ApiError::UnknownAddress)?;
        p.pmtu = pmtu;
        Ok(())
    }

    /// The delayed-SACK parameters (SCTP_DELAYED_SACK): `None` turns delaying off.
    pub fn set_delayed_sack(&mut self, delay: Option<SimDuration>, freq: u32) {
        match delay {
            Some(d) => {
                self.cfg.delayed_sack = true;
                self.cfg.sack_delay = d;
            }
            None => self.cfg.delayed_sack = false,
        }
        self.cfg.sack_freq = freq.max(1);
    }

    /// RFC 9260 §11.1 L REQUEST HEARTBEAT: sends a HEARTBEAT to `addr` now.
    pub fn request_heartbeat(&mut self, now: SimTime, addr: Ipv4Addr) -> Result<(), ApiError> {
        if !self.state.is_established_or_closing() {
            return Err(ApiError::InvalidState);
        }
        if self.path_index(addr).is_none() {
            return Err(ApiError::UnknownAddress);
        }
        self.send_heartbeat(now, addr);
        Ok(())
    }

    /// Internal consistency checks (tests only).
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        self.tx.check_invariants(&self.paths);
        assert!(self.paths.iter().all(|p| p.cwnd > 0 && p.ssthresh > 0));
    }

    // ----------------------------------------------------------------- shared helpers

    /// RFC 9260 §6.3.3 E2: doubles the RTO of `addr` (bounded by RTO.Max).
    pub(crate) fn back_off_rto(&mut self, addr: Ipv4Addr) {
        let cfg = &self.cfg;
        if let Some(p) = self.paths.iter_mut().find(|p| p.addr == addr) {
            p.rto.back_off(cfg);
        }
    }

    pub(crate) fn path_index(&self, addr: Ipv4Addr) -> Option<usize> {
        self.paths.iter().position(|p| p.addr == addr)
    }

    pub(crate) fn path(&self, addr: Ipv4Addr) -> Option<&Path> {
        self.paths.iter().find(|p| p.addr == addr)
    }

    pub(crate) fn path_mut(&mut self, addr: Ipv4Addr) -> Option<&mut Path> {
        self.paths.iter_mut().find(|p| p.addr == addr)
    }

    /// Adds a destination (if new and below the limit); returns whether it exists afterwards.
    pub(crate) fn add_path(&mut self, addr: Ipv4Addr, confirmed: bool) -> bool {
        if self.path_index(addr).is_some() {
            return true;
        }
        if self.paths.len() >= self.cfg.max_paths.max(1) {
            return false;
        }
        let source = match self.local_addrs.len() {
            0 => Ipv4Addr::UNSPECIFIED,
            n => self.local_addrs[self.paths.len() % n],
        };
        let mut p = Path::new(&self.cfg, addr, source, self.peer_rwnd, &mut self.rng);
        p.confirmed = confirmed;
        self.paths.push(p);
        true
    }

    /// The largest user data per DATA chunk: the rule of
    /// [`SctpConfig::max_chunk_user_data_at`] on the smallest PMTU of all destinations (so a
    /// retransmission fits any path, RFC 9260 §6.9).
    pub(crate) fn max_fragment(&self) -> usize {
        let pmtu = self
            .paths
            .iter()
            .map(|p| usize::from(p.pmtu))
            .min()
            .unwrap_or(usize::from(self.cfg.pmtu));
        // RFC 4895 §6.2: room for an AUTH chunk in every packet (`auth_reserve`); RFC 8260
        // §2.1: the I-DATA header is 4 bytes longer than DATA's.
        let idata_extra = if self.i_data { 4 } else { 0 };
        self.cfg.max_chunk_user_data_at(
            pmtu.saturating_sub(self.auth_reserve())
                .saturating_sub(idata_extra),
        )
    }

    /// Resets per-input state: a new transmission opportunity for Max.Burst (§6.1 D).
    pub(crate) fn begin_input(&mut self) {
        for p in &mut self.paths {
            p.burst_cap = None;
        }
    }

    /// Work after any input: lifetimes, shutdown progress, heartbeat and lifetime timers.
    pub(crate) fn after_input(&mut self, now: SimTime) {
        if self.state == State::Closed {
            return;
        }
        self.expire_unsent(now);
        self.reconfig_progress(now);
        self.check_shutdown_progress(now);
        self.arm_lifetime_timer();
        self.report_cwnd_changes(now);
    }

    pub(crate) fn metric(&mut self, now: SimTime, kind: MetricKind) {
        if self.cfg.metrics {
            self.metrics.push_back(MetricEvent { time: now, kind });
        }
    }

    /// Emits a cwnd metric for every destination whose cwnd or ssthresh changed.
    pub(crate) fn report_cwnd_changes(&mut self, now: SimTime) {
        if !self.cfg.metrics {
            return;
        }
        for p in &self.paths {
            let v = (p.cwnd, p.ssthresh);
            if self.reported_cwnd.get(&p.addr) != Some(&v) {
                self.reported_cwnd.insert(p.addr, v);
                self.metrics.push_back(MetricEvent {
                    time: now,
                    kind: MetricKind::Cwnd {
                        path: p.addr,
                        cwnd: v.0,
                        ssthresh: v.1,
                    },
                });
            }
        }
    }

    /// Builds a packet to `dest` with the peer's tag and the source address of that path.
    pub(crate) fn make_packet(
        &self,
        dest: Ipv4Addr,
        vtag: u32,
        chunks: Vec<ChunkRepr>,
    ) -> OutPacket {
        let path = self.path(dest);
        let src = path
            .map(|p| p.source)
            .or_else(|| self.local_addrs.first().copied())
            .unwrap_or(Ipv4Addr::UNSPECIFIED);
        OutPacket {
            path: path.map(|p| p.addr),
            src,
            // An A-SCTP alias path's packets go to the peer address it is a route to.
            dst: path.map_or(dest, |p| p.wire),
            packet: SctpRepr {
                src_port: self.local_port,
                dst_port: self.peer_port,
                verification_tag: vtag,
                chunks,
            },
        }
    }

    /// A reply to the packet in `ctx`: from the address it arrived at to its source.
    pub(crate) fn reply(&self, ctx: &PacketCtx, vtag: u32, chunks: Vec<ChunkRepr>) -> OutPacket {
        OutPacket {
            path: None,
            src: ctx.dst(),
            dst: ctx.src(),
            packet: SctpRepr {
                src_port: self.local_port,
                dst_port: self.peer_port,
                verification_tag: vtag,
                chunks,
            },
        }
    }
}
