//! Association setup (RFC 9260 §5.1–§5.2): INIT and INIT ACK (built here for the endpoint too),
//! COOKIE ECHO and COOKIE ACK, the T1 timers, the collision cases of §5.2 (INIT in
//! COOKIE-WAIT/COOKIE-ECHOED, unexpected INIT, unexpected INIT ACK, COOKIE ECHO with an existing
//! TCB including restart, duplicate COOKIE ACK, stale cookies).

use std::net::{IpAddr, Ipv4Addr};

use sctpsim_kernel::{Rng, SimTime};
use sctpsim_wire::sctp::{
    chunk_type, param_type, ChunkRepr, ErrorCause, InitChunk, Parameter, Tsn, UnrecognizedAction,
};

use super::super::api::{LossReason, SctpEvent};
use super::super::asconf::AsconfState;
use super::super::auth::{AuthParams, AuthState};
use super::super::config::SctpConfig;
use super::super::cookie::{CookieKey, StateCookie};
use super::super::path::RTO_FLOOR;
use super::super::recv::RecvState;
use super::super::timers::Timer;
use super::{Flow, PacketCtx, SctpAssociation, State};

/// RFC 9260 §5.3.1: a verification tag is a random non-zero 32-bit value.
pub(crate) fn random_tag(rng: &mut Rng) -> u32 {
    loop {
        let t = rng.next_u64() as u32;
        if t != 0 {
            return t;
        }
    }
}

/// What an INIT or INIT ACK says beyond its fixed fields (RFC 9260 §3.3.2.1, §3.3.3.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct InitInfo {
    /// The peer's IPv4 addresses: the packet's source first, then the address parameters
    /// (RFC 9260 §5.1.2). IPv6 addresses are ignored (the simulator is IPv4 only).
    pub peer_addrs: Vec<Ipv4Addr>,
    /// Unrecognized parameters to report (complete TLVs, RFC 9260 §3.2.1 / §3.2.2).
    pub unrecognized: Vec<Vec<u8>>,
    /// Forward-TSN-Supported present (RFC 3758 §3.1).
    pub pr_sctp: bool,
    /// ASCONF and ASCONF-ACK listed in Supported Extensions (RFC 5061 §4.2.7).
    pub asconf: bool,
    /// I-DATA listed in Supported Extensions (RFC 8260 §2.2).
    pub i_data: bool,
    /// I-FORWARD-TSN listed in Supported Extensions (RFC 8260 §2.3.1).
    pub i_forward_tsn: bool,
    /// RE-CONFIG listed in Supported Extensions (RFC 6525 §3.1).
    pub reconfig: bool,
    /// NR-SACK listed in Supported Extensions (as FreeBSD negotiates it).
    pub nr_sack: bool,
    /// Cookie Preservative increment in ms (RFC 9260 §3.3.2.1.3).
    pub cookie_preservative_ms: Option<u32>,
    /// A Host Name Address parameter (RFC 9260 §5.1.2: answered with ABORT, Unresolvable
    /// Address), its complete TLV.
    pub host_name: Option<Vec<u8>>,
    /// The State Cookie (INIT ACK only).
    pub cookie: Option<Vec<u8>>,
    /// The peer's AUTH offer (RFC 4895 §3.1–3.3), if it sent a RANDOM parameter. Used only
    /// with [`SctpConfig::auth`]; otherwise the parameters are skipped as before.
    pub auth: Option<AuthParams>,
}

/// The extensions the peer offered in its INIT or INIT ACK.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PeerExtensions {
    /// PR-SCTP (RFC 3758 §3.1).
    pub pr_sctp: bool,
    /// ASCONF (RFC 5061 §4.2.7).
    pub asconf: bool,
    /// I-DATA (RFC 8260 §2.2).
    pub i_data: bool,
    /// I-FORWARD-TSN (RFC 8260 §2.3.1).
    pub i_forward_tsn: bool,
    /// RE-CONFIG (RFC 6525 §3.1).
    pub reconfig: bool,
    /// NR-SACK (Natarajan et al. 2008).
    pub nr_sack: bool,
}

/// RFC 9260 §3.2.1: walks the parameters of an INIT or INIT ACK received from `src`. An
/// unrecognized parameter type is handled by its upper two bits: stop or skip, report or not.
pub(crate) fn parse_init_params(init: &InitChunk, src: Ipv4Addr) -> InitInfo {
    let mut info = InitInfo {
        peer_addrs: vec![src],
        auth: AuthParams::from_params(&init.params),
        ..InitInfo::default()
    };
    for p in &init.params {
        match p {
            Parameter::Address(IpAddr::V4(a))
                if !a.is_unspecified() && !a.is_broadcast() && !info.peer_addrs.contains(a) =>
            {
                info.peer_addrs.push(*a);
            }
            Parameter::Address(_) => {}
            Parameter::StateCookie(c) => info.cookie = Some(c.clone()),
            Parameter::CookiePreservative { increment_ms } => {
                info.cookie_preservative_ms = Some(*increment_ms)
            }
            Parameter::HostNameAddress(_) => info.host_name = p.to_bytes().ok(),
            // RFC 9260 §5.1.2 implementation note: an INIT sent over IPv4 makes IPv4
            // supported whatever its Supported Address Types lists, and "the receiver of the
            // INIT chunk SHOULD NOT respond with any kind of error indication". Every INIT here
            // arrives over IPv4, so the parameter never refuses one (ETSI TS 102 369
            // AS/I/1/13/2).
            Parameter::SupportedAddressTypes(_) => {}
            Parameter::ForwardTsnSupported => info.pr_sctp = true,
            Parameter::SupportedExtensions(types) => {
                info.asconf =
                    types.contains(&chunk_type::ASCONF) && types.contains(&chunk_type::ASCONF_ACK);
                if types.contains(&chunk_type::FORWARD_TSN) {
                    info.pr_sctp = true;
                }
                info.i_data = types.contains(&chunk_type::I_DATA);
                info.i_forward_tsn = types.contains(&chunk_type::I_FORWARD_TSN);
                info.reconfig = types.contains(&chunk_type::RE_CONFIG);
                info.nr_sack = types.contains(&chunk_type::NR_SACK);
            }
            Parameter::Unknown { kind, .. } => {
                let action = UnrecognizedAction::for_parameter_type(*kind);
                if action.reports() {
                    if let Ok(b) = p.to_bytes() {
                        info.unrecognized.push(b);
                    }
                }
                if action.stops() {
                    break;
                }
            }
            // Known types that have no business in INIT / INIT ACK (ECN without ECN support,
            // ASCONF parameters, ...) are ignored.
            _ => {}
        }
    }
    info
}

/// The address and extension parameters we put in INIT and INIT ACK.
///
/// Addresses are listed only when there is more than one: the receiver records the packet's
/// source address in any case (RFC 9260 §5.1.2 items 1 and 3), so a single-homed endpoint
/// lists none, as FreeBSD and Linux do (ETSI TS 102 369 AS/I/1/8/x expect no address in the
/// INIT ACK). Supported Address Types (IPv4) goes only into the INIT: it is not an INIT ACK
/// parameter (§3.3.3 lists State Cookie, IPv4/IPv6 Address, Unrecognized Parameter and Host
/// Name Address only).
///
/// With AUTH (`auth`), AUTH joins the Supported Extensions (RFC 5061 §4.1.1: "MUST list the
/// ASCONF, the ASCONF-ACK, and the AUTH chunks") and RANDOM, CHUNKS and HMAC-ALGO follow last.
fn our_params(
    cfg: &SctpConfig,
    local_addrs: &[Ipv4Addr],
    is_init: bool,
    auth: Option<&AuthParams>,
) -> Vec<Parameter> {
    let addrs: Vec<Ipv4Addr> = local_addrs
        .iter()
        .copied()
        .filter(|a| !a.is_unspecified())
        .collect();
    let mut params: Vec<Parameter> = if addrs.len() > 1 {
        addrs
            .iter()
            .map(|a| Parameter::Address(IpAddr::V4(*a)))
            .collect()
    } else {
        Vec::new()
    };
    if is_init {
        params.push(Parameter::SupportedAddressTypes(vec![
            param_type::IPV4_ADDRESS,
        ]));
    }
    let mut ext = Vec::new();
    if cfg.pr_sctp {
        ext.push(chunk_type::FORWARD_TSN);
    }
    if cfg.asconf {
        ext.push(chunk_type::ASCONF);
        ext.push(chunk_type::ASCONF_ACK);
    }
    if auth.is_some() {
        ext.push(chunk_type::AUTH);
    }
    // RFC 8260 §2.2: I-DATA is offered in the Supported Extensions parameter.
    if cfg.i_data {
        ext.push(chunk_type::I_DATA);
        // RFC 8260 §2.3.1: "Support for the I-FORWARD-TSN chunk is negotiated ... via the
        // Supported Extensions Parameter"; PR-SCTP with I-DATA needs it.
        if cfg.pr_sctp {
            ext.push(chunk_type::I_FORWARD_TSN);
        }
    }
    // RFC 6525 §3.1: RE-CONFIG is offered in the Supported Extensions parameter.
    if cfg.reconfig {
        ext.push(chunk_type::RE_CONFIG);
    }
    // NR-SACK is offered in the Supported Extensions parameter, as FreeBSD and usrsctp do
    // (`sctp_send_initiate`; an endpoint that does not list it never receives NR-SACKs).
    if cfg.nr_sack {
        ext.push(chunk_type::NR_SACK);
    }
    if !ext.is_empty() {
        params.push(Parameter::SupportedExtensions(ext));
    }
    if cfg.pr_sctp {
        params.push(Parameter::ForwardTsnSupported);
    }
    if let Some(a) = auth {
        params.extend(a.to_params());
    }
    params
}

/// Our INIT (RFC 9260 §3.3.2, §5.1 A).
pub(crate) fn build_init(
    cfg: &SctpConfig,
    tag: u32,
    tsn: Tsn,
    local_addrs: &[Ipv4Addr],
    auth: Option<&AuthParams>,
) -> InitChunk {
    InitChunk {
        initiate_tag: tag,
        a_rwnd: cfg.recv_buffer,
        outbound_streams: cfg.outbound_streams.max(1),
        inbound_streams: cfg.max_inbound_streams.max(1),
        initial_tsn: tsn,
        params: our_params(cfg, local_addrs, true, auth),
    }
}

/// The answer to an INIT (RFC 9260 §5.1 B, §5.1.3): an INIT ACK with our tag and TSN and a
/// State Cookie carrying the TCB. `local_addrs` starts with the address the INIT arrived at;
/// `tie` holds the Tie-Tags of §5.2.2 (zeros without an existing association). `auth` is our
/// AUTH offer (with [`SctpConfig::auth`]); when the INIT had one too, both go into the cookie.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_init_ack(
    cfg: &SctpConfig,
    key: &CookieKey,
    now: SimTime,
    init: &InitChunk,
    info: &InitInfo,
    my_tag: u32,
    my_tsn: Tsn,
    ports: (u16, u16),
    local_addrs: &[Ipv4Addr],
    tie: (u32, u32),
    auth: Option<&AuthParams>,
) -> InitChunk {
    let extra = info
        .cookie_preservative_ms
        .map(|ms| {
            sctpsim_kernel::SimDuration::from_millis(u64::from(ms)).min(cfg.max_cookie_preservative)
        })
        .unwrap_or_default();
    let cookie = StateCookie {
        created: now,
        lifetime: cfg.valid_cookie_life + extra,
        my_vtag: my_tag,
        peer_vtag: init.initiate_tag,
        local_tie_tag: tie.0,
        peer_tie_tag: tie.1,
        my_initial_tsn: my_tsn,
        peer_initial_tsn: init.initial_tsn,
        peer_rwnd: init.a_rwnd,
        outbound_streams: cfg.outbound_streams.max(1).min(init.inbound_streams.max(1)),
        inbound_streams: cfg
            .max_inbound_streams
            .max(1)
            .min(init.outbound_streams.max(1)),
        local_port: ports.0,
        peer_port: ports.1,
        peer_pr_sctp: info.pr_sctp,
        peer_asconf: info.asconf,
        peer_i_data: info.i_data,
        peer_i_forward_tsn: info.i_forward_tsn,
        peer_reconfig: info.reconfig,
        peer_nr_sack: info.nr_sack,
        peer_addrs: info.peer_addrs.clone(),
        local_addrs: local_addrs.to_vec(),
        auth: auth.zip(info.auth.clone()).map(|(l, p)| (l.clone(), p)),
    };
    // Order: addresses, extensions, Unrecognized Parameters, then the State Cookie last, as
    // FreeBSD does (RFC 9260 §3.3.3 fixes no order; ETSI TS 102 369 AS/I/1/8/x note 8: FreeBSD
    // puts the cookie last, Linux first).
    let mut params = our_params(cfg, local_addrs, false, auth);
    for u in &info.unrecognized {
        params.push(Parameter::UnrecognizedParameter(u.clone()));
    }
    params.push(Parameter::StateCookie(cookie.encode(key)));
    InitChunk {
        initiate_tag: my_tag,
        a_rwnd: cfg.recv_buffer,
        // RFC 9260 §5.1.1: never announce more outbound streams than the peer's MIS
        // (ETSI TS 102 369 AS/V/1/7/1).
        outbound_streams: cfg.outbound_streams.max(1).min(init.inbound_streams.max(1)),
        inbound_streams: cfg.max_inbound_streams.max(1),
        initial_tsn: my_tsn,
        params,
    }
}

/// RFC 9260 §3.3.2 / §5.1: an INIT that must be refused, and the cause for the ABORT
/// (sent with the INIT's Initiate Tag, T bit clear, §8.4 rule 3). `Err(None)`: silently discard.
pub(crate) fn check_init(
    cfg: &SctpConfig,
    init: &InitChunk,
    info: &InitInfo,
) -> Result<(), Option<ErrorCause>> {
    // "If the value of the Initiate Tag in a received INIT chunk is found to be 0, the
    // receiver MUST silently discard the packet."
    if init.initiate_tag == 0 {
        return Err(None);
    }
    // "A receiver of an INIT chunk with the OS value set to 0 [or the MIS value set to 0]
    // MUST discard the packet, SHOULD send a packet in response containing an ABORT chunk".
    if init.outbound_streams == 0 || init.inbound_streams == 0 {
        return Err(Some(ErrorCause::InvalidMandatoryParameter));
    }
    // §5.1.2: a Host Name Address is answered with an Unresolvable Address error.
    if let Some(h) = &info.host_name {
        return Err(Some(ErrorCause::UnresolvableAddress { address: h.clone() }));
    }
    auth_violation(cfg, info).map_or(Ok(()), |c| Err(Some(c)))
}

/// RFC 4895 §6.1: with AUTH on, a peer's AUTH offer with a Random Number that is not 32 bytes
/// or without SHA-1 aborts the association (Protocol Violation).
pub(crate) fn auth_violation(cfg: &SctpConfig, info: &InitInfo) -> Option<ErrorCause> {
    if !cfg.auth {
        return None;
    }
    info.auth.as_ref().and_then(AuthParams::violation)
}

impl SctpAssociation {
    /// RFC 9260 §5.1 A: send INIT, start T1-init, enter COOKIE-WAIT.
    pub(crate) fn start_init(&mut self, now: SimTime) {
        let init = build_init(
            &self.cfg,
            self.my_vtag,
            self.tx.initial_tsn,
            &self.local_addrs,
            self.auth_local.as_ref(),
        );
        self.hs.init = Some(init);
        self.hs.init_dest = 0;
        self.send_init(now);
    }

    fn send_init(&mut self, now: SimTime) {
        let Some(init) = self.hs.init.clone() else {
            return;
        };
        let idx = self.hs.init_dest % self.paths.len().max(1);
        let Some(dest) = self.paths.get(idx).map(|p| p.addr) else {
            return;
        };
        // §8.5.1 A: "the Verification Tag of the packet MUST be set to 0".
        let t = self.make_packet(dest, 0, vec![ChunkRepr::Init(init)]);
        self.pending.push_back(t);
        let rto = self.paths[idx].rto.rto();
        // RFC 6458 §8.1.3 sinit_max_init_timeo: an extra bound on the INIT's RTO only.
        let rto = match self.cfg.max_init_timeo {
            Some(max) => rto.min(max.max(RTO_FLOOR)),
            None => rto,
        };
        self.timers.set(Timer::T1Init, now + rto);
    }

    /// RFC 9260 §5.1 C: T1-init expired: retransmit INIT (to the next address, backing off
    /// the RTO) up to Max.Init.Retransmits times, then give up.
    pub(crate) fn on_t1_init(&mut self, now: SimTime) {
        if self.state != State::CookieWait {
            return;
        }
        self.hs.retransmits += 1;
        if self.hs.retransmits > self.cfg.max_init_retransmits {
            self.terminate(LossReason::InitFailed);
            return;
        }
        let n = self.paths.len().max(1);
        if let Some(p) = self.paths.get_mut(self.hs.init_dest % n) {
            p.rto.back_off(&self.cfg);
        }
        self.hs.init_dest = (self.hs.init_dest + 1) % n;
        self.send_init(now);
    }

    /// RFC 9260 §5.1 C: T1-cookie expired: retransmit COOKIE ECHO up to Max.Init.Retransmits
    /// times, then give up ("abort the initialization process") with an ABORT to the peer:
    /// the peer may hold an association if only its COOKIE ACKs were lost, and the ABORT
    /// (with its tag, from the INIT ACK) removes it. FreeBSD does the same (ETSI TS 102 369
    /// AS/I/1/3/2); Linux stops silently.
    pub(crate) fn on_t1_cookie(&mut self, now: SimTime) {
        if self.state != State::CookieEchoed {
            return;
        }
        self.hs.retransmits += 1;
        if self.hs.retransmits > self.cfg.max_init_retransmits {
            self.queue_abort(now, Vec::new());
            self.terminate(LossReason::InitFailed);
            return;
        }
        let dest = self.current;
        self.back_off_rto(dest);
        self.send_cookie_echo(now, dest);
    }

    fn send_cookie_echo(&mut self, now: SimTime, dest: Ipv4Addr) {
        let Some(cookie) = self.hs.cookie.clone() else {
            return;
        };
        // The COOKIE ECHO leads the packet (§5.1 C: "The COOKIE ECHO chunk can be bundled
        // with any pending outbound DATA chunks, but it MUST be the first chunk").
        self.ctrl
            .insert(0, (dest, ChunkRepr::CookieEcho { cookie }));
        if let Some(causes) = self.hs.cookie_error.take() {
            self.ctrl.insert(1, (dest, ChunkRepr::Error { causes }));
        }
        let rto = self
            .path(dest)
            .map(|p| p.rto.rto())
            .unwrap_or(self.cfg.rto_initial);
        self.timers.set(Timer::T1Cookie, now + rto);
    }

    /// An INIT for an existing association: RFC 9260 §5.2.1 (COOKIE-WAIT, COOKIE-ECHOED),
    /// §9.2 (SHUTDOWN-ACK-SENT) or §5.2.2 (any other state).
    pub(crate) fn on_init(&mut self, now: SimTime, ctx: &mut PacketCtx, init: &InitChunk) -> Flow {
        let info = parse_init_params(init, ctx.src());
        if let Err(cause) = check_init(&self.cfg, init, &info) {
            if let Some(cause) = cause {
                let t = self.reply(
                    ctx,
                    init.initiate_tag,
                    vec![ChunkRepr::Abort {
                        t_bit: false,
                        causes: vec![cause],
                    }],
                );
                self.pending.push_back(t);
            }
            return Flow::Stop;
        }
        if self.state == State::ShutdownAckSent {
            // §9.2: "it SHOULD discard the INIT chunk and retransmit the SHUTDOWN ACK chunk".
            self.resend_shutdown_ack(now);
            return Flow::Stop;
        }
        // §5.2.1 (COOKIE-ECHOED) and §5.2.2: an INIT that adds addresses is refused with an
        // ABORT (verification tag: the INIT's Initiate Tag) carrying the new addresses.
        if self.state != State::CookieWait {
            let new: Vec<Ipv4Addr> = info
                .peer_addrs
                .iter()
                .copied()
                .filter(|a| self.path_index(*a).is_none())
                .collect();
            if !new.is_empty() {
                let mut addresses = Vec::new();
                for a in new {
                    addresses.extend(
                        Parameter::Address(IpAddr::V4(a))
                            .to_bytes()
                            .unwrap_or_default(),
                    );
                }
                let abort = ChunkRepr::Abort {
                    t_bit: false,
                    causes: vec![ErrorCause::RestartWithNewAddresses { addresses }],
                };
                let t = self.reply(ctx, init.initiate_tag, vec![abort]);
                self.pending.push_back(t);
                return Flow::Stop;
            }
        }
        let (tag, tsn) = match self.state {
            // §5.2.1: "respond with an INIT ACK chunk using the same parameters it sent in its
            // original INIT chunk (including its Initiate Tag, unchanged)".
            State::CookieWait | State::CookieEchoed => (self.my_vtag, self.tx.initial_tsn),
            // §5.2.2: "the INIT ACK chunk MUST contain a new Initiate Tag".
            _ => (random_tag(&mut self.rng), Tsn(self.rng.next_u64() as u32)),
        };
        let mut local = vec![ctx.dst()];
        local.extend(self.local_addrs.iter().copied().filter(|a| *a != ctx.dst()));
        let ack = build_init_ack(
            &self.cfg,
            &self.key,
            now,
            init,
            &info,
            tag,
            tsn,
            (self.local_port, self.peer_port),
            &local,
            // Tie-Tags (§5.2.2): the current tags of this association.
            (self.my_vtag, self.peer_vtag),
            // RFC 4895: the offer of our INIT (or of the INIT ACK that made us).
            self.auth_local.as_ref(),
        );
        let t = self.reply(ctx, init.initiate_tag, vec![ChunkRepr::InitAck(ack)]);
        self.pending.push_back(t);
        // §5.2.1: "the endpoint MUST NOT change its state, the T1-init timer MUST be left
        // running, and the corresponding TCB MUST NOT be destroyed".
        Flow::Stop
    }

    /// RFC 9260 §5.1 C: the INIT ACK in COOKIE-WAIT; §5.2.3: discarded in any other state.
    pub(crate) fn on_init_ack(
        &mut self,
        now: SimTime,
        ctx: &mut PacketCtx,
        ack: &InitChunk,
    ) -> Flow {
        if self.state != State::CookieWait {
            // §5.2.3: "If an INIT ACK is received by an endpoint in any state other than the
            // COOKIE-WAIT or CLOSED state, the endpoint SHOULD discard the INIT ACK chunk."
            self.stats.chunks_dropped += 1;
            return Flow::Stop;
        }
        let info = parse_init_params(ack, ctx.src());
        // §3.3.3: a zero Initiate Tag, OS or MIS destroys the association.
        if ack.initiate_tag == 0 || ack.outbound_streams == 0 || ack.inbound_streams == 0 {
            self.abort_with(
                now,
                ErrorCause::InvalidMandatoryParameter,
                Some(ack.initiate_tag),
            );
            return Flow::Stop;
        }
        let Some(cookie) = info.cookie.clone() else {
            // §5.1 / §3.3.3: the State Cookie is mandatory in INIT ACK.
            let cause = ErrorCause::MissingMandatoryParameter {
                missing: vec![param_type::STATE_COOKIE],
            };
            self.abort_with(now, cause, Some(ack.initiate_tag));
            return Flow::Stop;
        };
        if let Some(h) = &info.host_name {
            let cause = ErrorCause::UnresolvableAddress { address: h.clone() };
            self.abort_with(now, cause, Some(ack.initiate_tag));
            return Flow::Stop;
        }
        if let Some(cause) = auth_violation(&self.cfg, &info) {
            self.abort_with(now, cause, Some(ack.initiate_tag));
            return Flow::Stop;
        }
        self.peer_vtag = ack.initiate_tag;
        self.setup_peer(
            ack.initial_tsn,
            ack.a_rwnd,
            self.cfg.outbound_streams.max(1).min(ack.inbound_streams),
            self.cfg
                .max_inbound_streams
                .max(1)
                .min(ack.outbound_streams),
            PeerExtensions {
                pr_sctp: info.pr_sctp,
                asconf: info.asconf,
                i_data: info.i_data,
                i_forward_tsn: info.i_forward_tsn,
                reconfig: info.reconfig,
                nr_sack: info.nr_sack,
            },
        );
        let auth = match (&self.auth_local, &info.auth) {
            (Some(l), Some(p)) if self.cfg.auth => AuthState::new(l.clone(), p.clone()),
            _ => None,
        };
        self.set_auth(auth);
        for (i, a) in info.peer_addrs.iter().enumerate() {
            // The source of the INIT ACK is confirmed by this very exchange (§5.4).
            let known = self.path_index(*a).is_some();
            if !known {
                self.add_path(*a, i == 0);
            } else if i == 0 {
                if let Some(p) = self.path_mut(*a) {
                    p.confirmed = true;
                }
            }
        }
        if !info.unrecognized.is_empty() {
            // §3.2.2: report them in an ERROR bundled with the COOKIE ECHO.
            let mut parameters = Vec::new();
            for u in &info.unrecognized {
                parameters.extend_from_slice(u);
                while parameters.len() % 4 != 0 {
                    parameters.push(0);
                }
            }
            self.hs.cookie_error = Some(vec![ErrorCause::UnrecognizedParameters { parameters }]);
        }
        self.hs.cookie = Some(cookie);
        self.hs.retransmits = 0;
        self.timers.stop(Timer::T1Init);
        self.set_state(State::CookieEchoed);
        let dest = if self.path(ctx.src()).is_some() {
            ctx.src()
        } else {
            self.primary
        };
        self.current = dest;
        self.send_cookie_echo(now, dest);
        Flow::Stop
    }

    /// The peer's parameters from an INIT ACK or a cookie.
    pub(crate) fn setup_peer(
        &mut self,
        peer_tsn: Tsn,
        a_rwnd: u32,
        outbound: u16,
        inbound: u16,
        ext: PeerExtensions,
    ) {
        let PeerExtensions {
            pr_sctp,
            asconf,
            i_data,
            i_forward_tsn,
            reconfig,
            nr_sack,
        } = ext;
        self.outbound_streams = outbound.max(1);
        self.inbound_streams = inbound.max(1);
        self.sendq.set_streams(self.outbound_streams);
        self.rx = RecvState::new(peer_tsn, self.inbound_streams, self.cfg.recv_buffer);
        self.rx.dac = self.cmt_dac_receiver();
        self.asconf = AsconfState::new(self.tx.initial_tsn.0, peer_tsn.0.wrapping_sub(1));
        self.peer_rwnd = a_rwnd;
        self.pr_sctp = self.cfg.pr_sctp && pr_sctp;
        self.asconf_ok = self.cfg.asconf && asconf;
        // RFC 8260 §2.2: I-DATA only if both sides listed it. §2.3.1: "Only if both end points
        // support the I-DATA chunk and the I-FORWARD-TSN chunk, the partial reliability
        // extension can be used in combination with user message interleaving" (we list
        // I-FORWARD-TSN whenever we offer both I-DATA and PR-SCTP).
        self.i_data = self.cfg.i_data && i_data;
        if self.i_data && !(self.cfg.pr_sctp && i_forward_tsn) {
            self.pr_sctp = false;
        }
        self.reconfig = (self.cfg.reconfig && reconfig)
            .then(|| super::super::reconfig::ReconfigState::new(self.tx.initial_tsn.0, peer_tsn.0));
        // NR-SACK only when both sides listed it (FreeBSD `sctp_load_addresses_from_init`).
        self.nr_sack = self.cfg.nr_sack && nr_sack;
        for p in &mut self.paths {
            if self.cfg.initial_ssthresh.is_none() {
                p.ssthresh = a_rwnd.max(1);
            }
        }
    }

    /// RFC 4895 and RFC 5061 §4.1.1: records the AUTH outcome; with AUTH on, ASCONF is used
    /// only together with AUTH ("ASCONF ... MUST be sent in an authenticated way").
    fn set_auth(&mut self, auth: Option<AuthState>) {
        self.auth = auth;
        if self.cfg.auth && self.auth.is_none() {
            self.asconf_ok = false;
            // RFC 6525 §3.1: RE-CONFIG only authenticated.
            self.reconfig = None;
        }
    }

    /// The TCB from a cookie (new association, restart, or the simultaneous-open cases).
    pub(crate) fn install_cookie(
        &mut self,
        now: SimTime,
        c: &StateCookie,
        src: Ipv4Addr,
        dst: Ipv4Addr,
    ) {
        self.my_vtag = c.my_vtag;
        self.peer_vtag = c.peer_vtag;
        if self.tx.is_empty() && self.tx.next_idx == 0 {
            self.tx = super::super::retransmit::RetransmitQueue::new(c.my_initial_tsn);
        }
        if !self.local_addrs.contains(&dst) && !dst.is_unspecified() {
            self.local_addrs.insert(0, dst);
        }
        for (i, a) in c.peer_addrs.iter().enumerate() {
            // §5.4: the address the INIT came from and the one the COOKIE ECHO came from are
            // confirmed; the other listed addresses wait for a HEARTBEAT ACK.
            self.add_path(*a, i == 0 || *a == src);
        }
        self.add_path(src, true);
        if let Some(p) = self.path_mut(src) {
            p.confirmed = true;
            if !p.source_pinned && !dst.is_unspecified() {
                p.source = dst;
            }
        }
        if self.primary.is_unspecified() || self.path_index(self.primary).is_none() {
            self.primary = c.peer_addrs.first().copied().unwrap_or(src);
            self.current = self.primary;
        }
        self.setup_peer(
            c.peer_initial_tsn,
            c.peer_rwnd,
            c.outbound_streams,
            c.inbound_streams,
            PeerExtensions {
                pr_sctp: c.peer_pr_sctp,
                asconf: c.peer_asconf,
                i_data: c.peer_i_data,
                i_forward_tsn: c.peer_i_forward_tsn,
                reconfig: c.peer_reconfig,
                nr_sack: c.peer_nr_sack,
            },
        );
        if let Some((local, _)) = &c.auth {
            self.auth_local = Some(local.clone());
        }
        let auth = c
            .auth
            .clone()
            .filter(|_| self.cfg.auth)
            .and_then(|(l, p)| AuthState::new(l, p));
        self.set_auth(auth);
        self.ctrl.push((src, ChunkRepr::CookieAck));
        self.enter_established(now);
    }

    /// Transition to ESTABLISHED: notify, start heartbeats.
    pub(crate) fn enter_established(&mut self, now: SimTime) {
        self.timers.stop(Timer::T1Init);
        self.timers.stop(Timer::T1Cookie);
        self.hs.cookie = None;
        self.hs.retransmits = 0;
        self.set_state(State::Established);
        self.coupled_initial_windows();
        self.events.push_back(SctpEvent::CommUp {
            outbound_streams: self.outbound_streams,
            inbound_streams: self.inbound_streams,
        });
        self.start_heartbeats(now);
        if self.hs.shutdown_after_setup {
            self.hs.shutdown_after_setup = false;
            self.shutdown(now);
        }
    }

    /// RFC 9260 §5.1 E: COOKIE ACK in COOKIE-ECHOED; §5.2.5: discarded in any other state.
    pub(crate) fn on_cookie_ack(&mut self, now: SimTime) -> Flow {
        if self.state == State::CookieEchoed {
            self.enter_established(now);
        } else {
            self.stats.chunks_dropped += 1;
        }
        Flow::Continue
    }

    /// RFC 9260 §5.2.4: a COOKIE ECHO while a TCB exists.
    pub(crate) fn on_cookie_echo(
        &mut self,
        now: SimTime,
        ctx: &mut PacketCtx,
        index: usize,
        bytes: &[u8],
    ) -> Flow {
        // §5.1.5 steps 1–2: compute and compare the MAC; discard silently on mismatch.
        let Ok(c) = StateCookie::decode(bytes, &self.key) else {
            self.stats.chunks_dropped += 1;
            return Flow::Stop;
        };
        // Step 3: ports and verification tag must match the packet.
        if c.local_port != self.local_port
            || c.peer_port != self.peer_port
            || ctx.vtag != c.my_vtag
            || index != 0
        {
            self.stats.chunks_dropped += 1;
            return Flow::Stop;
        }
        let tags_match = c.my_vtag == self.my_vtag && c.peer_vtag == self.peer_vtag;
        // §5.2.4 step 3: an expired cookie is answered with a Stale Cookie error unless both
        // tags match the current association (case E).
        if let Some(stale) = c.staleness(now) {
            if !tags_match {
                let staleness_us = u32::try_from(stale.as_nanos() / 1_000).unwrap_or(u32::MAX);
                let t = self.reply(
                    ctx,
                    c.peer_vtag,
                    vec![ChunkRepr::Error {
                        causes: vec![ErrorCause::StaleCookie { staleness_us }],
                    }],
                );
                self.stats.errors_sent += 1;
                self.pending.push_back(t);
                return Flow::Stop;
            }
        }
        let local_m = c.my_vtag == self.my_vtag;
        let peer_m = c.peer_vtag == self.peer_vtag;
        let ties_m = c.local_tie_tag == self.my_vtag && c.peer_tie_tag == self.peer_vtag;
        let no_ties = c.local_tie_tag == 0 && c.peer_tie_tag == 0;
        if !local_m && !peer_m && ties_m {
            // Action A: the peer restarted.
            if self.state == State::ShutdownAckSent {
                // "it MUST NOT set up a new association but instead resend the SHUTDOWN ACK
                // chunk and send an ERROR chunk with a 'Cookie Received While Shutting Down'
                // error cause to its peer."
                self.resend_shutdown_ack(now);
                let dest = ctx.src();
                self.stats.errors_sent += 1;
                self.ctrl.push((
                    dest,
                    ChunkRepr::Error {
                        causes: vec![ErrorCause::CookieReceivedWhileShuttingDown],
                    },
                ));
                return Flow::Stop;
            }
            self.restart(now, &c, ctx.src(), ctx.dst());
            return Flow::Continue;
        }
        if local_m && (!peer_m || self.peer_vtag == 0) {
            // Action B: "stay in or enter the ESTABLISHED state, but it MUST update its peer's
            // Verification Tag from the State Cookie, stop any init or cookie timers that may
            // be running, and send a COOKIE ACK chunk."
            self.peer_vtag = c.peer_vtag;
            if matches!(self.state, State::CookieWait | State::CookieEchoed) {
                self.install_cookie(now, &c, ctx.src(), ctx.dst());
            } else {
                self.ctrl.push((ctx.src(), ChunkRepr::CookieAck));
            }
            return Flow::Continue;
        }
        if !local_m && peer_m && no_ties {
            // Action C: "the local endpoint's cookie has arrived late ... silently discarded".
            self.stats.chunks_dropped += 1;
            return Flow::Stop;
        }
        if local_m && peer_m {
            // Action D: enter ESTABLISHED from COOKIE-ECHOED; always send a COOKIE ACK.
            if self.state == State::CookieEchoed {
                self.ctrl.push((ctx.src(), ChunkRepr::CookieAck));
                self.enter_established(now);
            } else if self.state == State::CookieWait {
                self.install_cookie(now, &c, ctx.src(), ctx.dst());
            } else {
                self.ctrl.push((ctx.src(), ChunkRepr::CookieAck));
            }
            return Flow::Continue;
        }
        // Any other combination: silently discard.
        self.stats.chunks_dropped += 1;
        Flow::Stop
    }

    /// RFC 9260 §5.2.4 action A: the peer restarted. "the existing session is treated the same
    /// as if it received an ABORT chunk followed by a new COOKIE ECHO chunk", except that
    /// queued data is kept, a RESTART notification is given and congestion parameters reset.
    fn restart(&mut self, now: SimTime, c: &StateCookie, src: Ipv4Addr, dst: Ipv4Addr) {
        let lost = self.tx.clear(&mut self.paths);
        self.stats.messages_abandoned += lost as u64;
        self.tx = super::super::retransmit::RetransmitQueue::new(c.my_initial_tsn);
        self.timers.stop_all();
        self.ctrl.clear();
        self.forward_tsn_due = false;
        self.shutdown_due = false;
        self.error_count = 0;
        for p in &mut self.paths {
            p.reset_congestion(&self.cfg, c.peer_rwnd);
            p.error_count = 0;
        }
        self.events.push_back(SctpEvent::Restart);
        self.sendq.restart_ssns();
        // install_cookie sets the tags, the peer's parameters and queues the COOKIE ACK; it
        // would also report CommUp, which a restart replaces with Restart.
        let before = self.events.len();
        self.install_cookie(now, c, src, dst);
        let tail: Vec<SctpEvent> = self
            .events
            .drain(before..)
            .filter(|e| !matches!(e, SctpEvent::CommUp { .. }))
            .collect();
        self.events.extend(tail);
    }

    /// Changes state (the single place that does).
    pub(crate) fn set_state(&mut self, state: State) {
        self.state = state;
        if matches!(state, State::ShutdownSent | State::ShutdownAckSent) {
            // No data flows any more and T2-shutdown watches the peer: heartbeats stop (as in
            // Linux), so a peer that already closed is not probed into answering with ABORT.
            for p in &self.paths {
                self.timers
                    .stop(super::super::timers::Timer::Heartbeat(p.addr));
            }
            // Nor is an outstanding ASCONF retransmitted (FreeBSD's
            // `sctp_stop_timers_for_shutdown` stops the ASCONF timer on entering either state):
            // the peer may already have closed, and an ASCONF would reach it out of the blue
            // and be answered with an ABORT (found against usrsctp with AUTH and ASCONF on).
            self.timers.stop(super::super::timers::Timer::T4Asconf);
        }
    }
}
