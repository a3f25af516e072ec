//! The SCTP endpoint (RFC 9260 §2.4, §5.1, §8.4): a local port and addresses, and the
//! associations on them. It holds the cookie secret, answers INIT without creating any state
//! (the State Cookie carries the TCB, with a MAC and a lifespan), turns a valid COOKIE ECHO into
//! an [`SctpAssociation`], starts associations (`connect`), and answers out-of-the-blue packets
//! as §8.4 prescribes.
//!
//! The endpoint owns its associations, in a table indexed by [`AssocHandle`], and decides who
//! a packet is for (as quinn-proto's `Endpoint::handle` returns a `DatagramEvent`): the first
//! live association that [`SctpAssociation::owns`] it (peer address and ports), else the
//! endpoint itself. Every driver — the engine, the conformance runner, the test pair and the
//! fuzz target — hands packets to [`SctpEndpoint::handle_datagram`] (bytes) or
//! [`SctpEndpoint::handle_packet`] (already parsed) and reacts to the [`DatagramEvent`], so
//! that rule exists once.

use std::collections::VecDeque;
use std::net::Ipv4Addr;

use sctpsim_kernel::{Rng, SimTime};
use sctpsim_wire::sctp::{
    chunk_type, ChunkFault, ChunkRepr, ErrorCause, SctpPacket, SctpRepr, Tsn,
};
use sctpsim_wire::WireError;

use super::api::OutPacket;
use super::association::{
    build_init_ack, check_init, parse_init_params, refuse_malformed_init, SctpAssociation,
};
use super::auth::{required_chunks, AuthParams, RxRaw, Verdict};
use super::config::SctpConfig;
use super::cookie::{CookieError, CookieKey, StateCookie};
use crate::transport::Transmit;

/// Identifies an association in its [`SctpEndpoint`]. Handles are given out in creation order
/// and never reused, so a handle kept after [`SctpEndpoint::remove`] finds nothing instead of
/// a newer association, and the table's order (the order packets are matched in) is the order
/// of creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AssocHandle(pub u32);

/// What an incoming packet meant (the SCTP counterpart of quinn-proto's `DatagramEvent`).
/// After any of them, drain the association named (for [`DatagramEvent::Response`], the
/// endpoint's [`SctpEndpoint::poll_transmit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatagramEvent {
    /// An existing association owned the packet and processed it (its own verification-tag
    /// checks, RFC 9260 §8.5, may still have discarded it).
    Association(AssocHandle),
    /// A valid COOKIE ECHO created this association (RFC 9260 §5.1 D), which has already
    /// processed the rest of the packet: its COOKIE ACK waits in its `poll_transmit`.
    NewAssociation(AssocHandle),
    /// No association owned the packet and the endpoint answered it (INIT ACK, ABORT, a Stale
    /// Cookie ERROR or a SHUTDOWN COMPLETE); the answer waits in
    /// [`SctpEndpoint::poll_transmit`].
    Response,
}

/// Counters of an endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EndpointStats {
    /// INIT chunks answered with an INIT ACK.
    pub init_acks_sent: u64,
    /// Associations created from valid COOKIE ECHOs.
    pub associations_accepted: u64,
    /// COOKIE ECHOs dropped for a bad MAC or malformed cookie.
    pub cookies_rejected: u64,
    /// Stale Cookie errors sent.
    pub stale_cookies: u64,
    /// ABORTs sent (refused INITs and out-of-the-blue packets).
    pub aborts_sent: u64,
    /// SHUTDOWN COMPLETEs sent to out-of-the-blue SHUTDOWN ACKs.
    pub shutdown_completes_sent: u64,
    /// Packets silently discarded.
    pub packets_discarded: u64,
    /// Answers built but not sent because they could not be encoded (never expected; a guard
    /// that replaces a panic).
    pub packets_unencodable: u64,
    /// Datagrams that were not valid SCTP packets (bad CRC32c, truncated common header, or a
    /// first chunk that could not be parsed and was not answered), silently discarded
    /// (RFC 9260 §6.8, §3.2).
    pub malformed_packets: u64,
    /// Datagrams whose parse stopped at a chunk that could not be parsed (RFC 9260 §3.2:
    /// the chunks before it were processed, that chunk and the rest dropped or answered as
    /// `association/invalid.rs` describes).
    pub malformed_chunks: u64,
}

/// A local SCTP endpoint: a port, a set of local addresses (RFC 9260 §2.4) and the
/// associations on them.
#[derive(Debug, Clone)]
pub struct SctpEndpoint {
    cfg: SctpConfig,
    local_port: u16,
    local_addrs: Vec<Ipv4Addr>,
    key: CookieKey,
    rng: Rng,
    listening: bool,
    /// The associations, in handle (= creation) order.
    assocs: Vec<(AssocHandle, SctpAssociation)>,
    next_handle: u32,
    out: VecDeque<OutPacket>,
    stats: EndpointStats,
    /// The received bytes of the datagram being handled, when it carries an AUTH chunk
    /// (RFC 4895 §6.3; handed to the association that processes it).
    rx_raw: Option<RxRaw>,
}

impl SctpEndpoint {
    /// An endpoint on `local_port` with `local_addrs`; the cookie secret, verification tags and
    /// initial TSNs come from `rng`. It does not accept associations until
    /// [`SctpEndpoint::listen`].
    pub fn new(cfg: SctpConfig, local_port: u16, local_addrs: Vec<Ipv4Addr>, mut rng: Rng) -> Self {
        SctpEndpoint {
            key: CookieKey::random(&mut rng),
            cfg,
            local_port,
            local_addrs,
            rng,
            listening: false,
            assocs: Vec::new(),
            next_handle: 0,
            out: VecDeque::new(),
            stats: EndpointStats::default(),
            rx_raw: None,
        }
    }

    /// Accept incoming associations (or stop accepting them: INITs are then refused with an
    /// ABORT).
    pub fn listen(&mut self, on: bool) {
        self.listening = on;
    }

    /// Whether incoming associations are accepted.
    pub fn is_listening(&self) -> bool {
        self.listening
    }

    /// The local port.
    pub fn local_port(&self) -> u16 {
        self.local_port
    }

    /// The local addresses.
    pub fn local_addrs(&self) -> &[Ipv4Addr] {
        &self.local_addrs
    }

    /// The configuration given to new associations.
    pub fn config(&self) -> &SctpConfig {
        &self.cfg
    }

    /// Changes the configuration given to associations created from now on (the socket
    /// options a packetdrill script sets before `connect` or `accept`).
    pub fn config_mut(&mut self) -> &mut SctpConfig {
        &mut self.cfg
    }

    /// Counters.
    pub fn stats(&self) -> &EndpointStats {
        &self.stats
    }

    fn child_rng(&mut self) -> Rng {
        Rng::from_seed(self.rng.next_u64())
    }

    // ----------------------------------------------------------------- the association table

    /// RFC 9260 §5.1 A / §11.1 A ASSOCIATE: a new association to the peer's `peer_addrs`
    /// (the first is the primary) on `peer_port`, in COOKIE-WAIT with its INIT queued.
    pub fn connect(
        &mut self,
        now: SimTime,
        peer_addrs: &[Ipv4Addr],
        peer_port: u16,
    ) -> AssocHandle {
        let rng = self.child_rng();
        let a = SctpAssociation::new_client(
            self.cfg.clone(),
            self.key,
            rng,
            now,
            self.local_port,
            peer_port,
            self.local_addrs.clone(),
            peer_addrs,
        );
        self.insert(a)
    }

    fn insert(&mut self, a: SctpAssociation) -> AssocHandle {
        let h = AssocHandle(self.next_handle);
        // 2^32 associations on one endpoint would take longer than any run; were it reached,
        // the last handle would be given again rather than wrap around to the oldest.
        self.next_handle = self.next_handle.saturating_add(1);
        self.assocs.push((h, a));
        h
    }

    fn position(&self, h: AssocHandle) -> Option<usize> {
        self.assocs.binary_search_by_key(&h, |(k, _)| *k).ok()
    }

    /// The association `h`, unless it was removed.
    pub fn assoc(&self, h: AssocHandle) -> Option<&SctpAssociation> {
        self.position(h).map(|i| &self.assocs[i].1)
    }

    /// The association `h`, for commands, timers and polling.
    pub fn assoc_mut(&mut self, h: AssocHandle) -> Option<&mut SctpAssociation> {
        self.position(h).map(|i| &mut self.assocs[i].1)
    }

    /// Every association, oldest first.
    pub fn associations(&self) -> impl Iterator<Item = (AssocHandle, &SctpAssociation)> + '_ {
        self.assocs.iter().map(|(h, a)| (*h, a))
    }

    /// Every association, oldest first, for commands, timers and polling.
    pub fn associations_mut(
        &mut self,
    ) -> impl Iterator<Item = (AssocHandle, &mut SctpAssociation)> + '_ {
        self.assocs.iter_mut().map(|(h, a)| (*h, &mut *a))
    }

    /// Takes association `h` out of the table; packets no longer reach it. The endpoint never
    /// drops an association by itself: a closed one still answers for its counters, and the
    /// owner decides when it is forgotten.
    pub fn remove(&mut self, h: AssocHandle) -> Option<SctpAssociation> {
        self.position(h).map(|i| self.assocs.remove(i).1)
    }

    // ----------------------------------------------------------------- input

    /// A datagram's payload (`bytes`: the SCTP packet) that arrived from `src` at our address
    /// `dst`: parsed chunk by chunk (CRC32c checked, [`SctpRepr::parse_lenient`]), then as
    /// [`SctpEndpoint::handle_packet`]. A chunk that cannot be parsed ends the packet: the
    /// chunks before it are processed and the receiver answers the bad chunk where RFC 9260 or
    /// FreeBSD does (a DATA chunk shorter than its header, an INIT or INIT ACK with a malformed
    /// parameter; `association/invalid.rs`), counted in [`EndpointStats::malformed_chunks`].
    ///
    /// Errors: the bytes are not a valid SCTP packet (bad CRC32c, common header cut short), or
    /// its first chunk could not be parsed and nobody took or answered the packet. It is
    /// discarded — RFC 9260 §6.8: "an SCTP packet with an invalid checksum [...] silently
    /// discard[ed]", §3.2: a partial chunk is dropped — and counted in
    /// [`EndpointStats::malformed_packets`]; the error says why, for traces.
    pub fn handle_datagram(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        bytes: &[u8],
    ) -> Result<Option<DatagramEvent>, WireError> {
        let (pkt, fault) =
            match SctpPacket::new_checked(bytes).and_then(|p| SctpRepr::parse_lenient(&p)) {
                Ok(parsed) => parsed,
                Err(e) => {
                    self.stats.malformed_packets += 1;
                    return Err(e);
                }
            };
        // RFC 4895 §6.3: an AUTH chunk is checked over the bytes as received.
        self.rx_raw = (self.cfg.auth && pkt.chunks.iter().any(|c| matches!(c, ChunkRepr::Auth(_))))
            .then(|| RxRaw::of(bytes))
            .flatten();
        let Some(fault) = fault else {
            let event = self.handle_packet(now, src, dst, &pkt);
            self.rx_raw = None;
            return Ok(event);
        };
        // RFC 9260 §3.2: a chunk that cannot be parsed is dropped; the chunks before it are
        // processed, and the receiver may have to answer the bad chunk itself (a short DATA
        // chunk, an INIT with a malformed parameter: `association/invalid.rs`).
        self.stats.malformed_chunks += 1;
        let event = self.dispatch(now, src, dst, &pkt, Some(&fault));
        self.rx_raw = None;
        if event.is_none() && pkt.chunks.is_empty() {
            // Nothing in the packet could be used and nobody answered.
            self.stats.malformed_packets += 1;
            return Err(fault.error);
        }
        Ok(event)
    }

    /// A parsed SCTP packet from `src` to our address `dst`: processed by the first live
    /// association that owns it (peer address and ports, [`SctpAssociation::owns`]), else by
    /// the endpoint (INIT, COOKIE ECHO and out-of-the-blue packets, RFC 9260 §5.1, §8.4).
    /// `None`: no association owned it and the endpoint discarded it.
    pub fn handle_packet(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
    ) -> Option<DatagramEvent> {
        self.dispatch(now, src, dst, pkt, None)
    }

    /// [`SctpEndpoint::handle_packet`] for a packet whose parse may have stopped at `fault`.
    fn dispatch(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        fault: Option<&ChunkFault>,
    ) -> Option<DatagramEvent> {
        let raw = self.rx_raw.clone();
        let handle = |a: &mut SctpAssociation| {
            a.rx_raw = raw;
            match fault {
                Some(f) => a.handle_packet_with_fault(now, src, dst, pkt, f),
                None => a.handle_packet(now, src, dst, pkt),
            }
            a.rx_raw = None;
        };
        if let Some((h, a)) = self
            .assocs
            .iter_mut()
            .find(|(_, a)| !a.is_closed() && a.owns(src, pkt.src_port, pkt.dst_port))
        {
            handle(a);
            return Some(DatagramEvent::Association(*h));
        }
        // An ASCONF from an address the peer has not added yet (RFC 5061 §5.2): the
        // association is the one its Address Parameter and ports name, if the tag is its own.
        // With AUTH the ASCONF follows the AUTH chunk (RFC 4895 §6.3: "use the chunks after
        // the AUTH chunk to look up an existing association").
        let lookup = match pkt.chunks.first() {
            Some(ChunkRepr::Auth(_)) => pkt.chunks.get(1),
            first => first,
        };
        let asconf_addr = lookup.and_then(|c| match c {
            ChunkRepr::Asconf(a) => match a.address {
                std::net::IpAddr::V4(v4) => Some(v4),
                std::net::IpAddr::V6(_) => None,
            },
            _ => None,
        });
        if let Some(addr) = asconf_addr {
            if let Some((h, a)) = self.assocs.iter_mut().find(|(_, a)| {
                !a.is_closed()
                    && a.owns(addr, pkt.src_port, pkt.dst_port)
                    && pkt.verification_tag == a.my_vtag()
            }) {
                handle(a);
                return Some(DatagramEvent::Association(*h));
            }
        }
        let queued = self.out.len();
        if let Some(a) = self.handle_unowned(now, src, dst, pkt, fault) {
            return Some(DatagramEvent::NewAssociation(self.insert(a)));
        }
        (self.out.len() > queued).then_some(DatagramEvent::Response)
    }

    /// A packet no association owns. Returns the new association when the packet is a valid
    /// COOKIE ECHO (it has already processed the rest of the packet). Responses go to
    /// [`SctpEndpoint::poll_transmit`].
    fn handle_unowned(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        fault: Option<&ChunkFault>,
    ) -> Option<SctpAssociation> {
        // §8.4 rule 1: "If the OOTB packet is to or from a non-unicast address, a receiver
        // SHOULD silently discard the packet."
        if pkt.dst_port != self.local_port
            || src.is_unspecified()
            || src.is_broadcast()
            || src.is_multicast()
            || dst.is_multicast()
            || dst.is_broadcast()
        {
            self.stats.packets_discarded += 1;
            return None;
        }
        let Some(first) = pkt.chunks.first() else {
            if let Some(f) = fault {
                self.on_unowned_fault(src, dst, pkt, f);
            } else {
                self.stats.packets_discarded += 1;
            }
            return None;
        };
        match first {
            ChunkRepr::Init(init) => {
                // §8.5.1 A and §6.10: an INIT travels alone with tag 0 (a chunk after it that
                // the codec could not parse is still a chunk).
                if pkt.verification_tag != 0 || pkt.chunks.len() != 1 || fault.is_some() {
                    self.stats.packets_discarded += 1;
                    return None;
                }
                self.on_init(now, src, dst, pkt, init);
                None
            }
            ChunkRepr::CookieEcho { cookie } if self.listening => {
                self.on_cookie_echo(now, src, dst, pkt, (0, cookie), fault)
            }
            // RFC 4895 §6.3: "If the receiver does not find a STCB for a packet containing an
            // AUTH chunk as the first chunk and a COOKIE ECHO chunk as the second chunk, it
            // MUST use the chunks after the AUTH chunk to look up" the association: the
            // COOKIE ECHO creates it, then the AUTH chunk is checked with its key.
            ChunkRepr::Auth(_) if self.listening && self.cfg.auth => match pkt.chunks.get(1) {
                Some(ChunkRepr::CookieEcho { cookie }) => {
                    self.on_cookie_echo(now, src, dst, pkt, (1, cookie), fault)
                }
                _ => {
                    self.ootb(src, dst, pkt);
                    None
                }
            },
            _ => {
                self.ootb(src, dst, pkt);
                None
            }
        }
    }

    /// A packet that no association owns and whose first chunk the codec could not parse.
    /// An INIT with a malformed parameter is refused with an ABORT (Protocol Violation, the
    /// INIT's Initiate Tag, T bit clear: §8.4 rule 3, `association/invalid.rs`); a partial or
    /// short INIT is discarded. Anything else is out of the blue — §8.4 calls a packet OOTB if
    /// it "is correctly formed (i.e., passed the receiver's CRC32c check)" — and answered by
    /// the §8.4 rules by its type: rule 8, an ABORT with the T bit, unless it is an ABORT, a
    /// SHUTDOWN COMPLETE, a COOKIE ACK or an ERROR. FreeBSD's `sctp_handle_ootb` also answers
    /// a packet with a chunk length below 4 or past the end with an ABORT.
    fn on_unowned_fault(&mut self, src: Ipv4Addr, dst: Ipv4Addr, pkt: &SctpRepr, f: &ChunkFault) {
        match f.kind {
            Some(chunk_type::INIT) => {
                match refuse_malformed_init(f).filter(|_| pkt.verification_tag == 0) {
                    Some((tag, cause)) => {
                        self.stats.aborts_sent += 1;
                        self.push(
                            dst,
                            src,
                            pkt.src_port,
                            tag,
                            ChunkRepr::Abort {
                                t_bit: false,
                                causes: vec![cause],
                            },
                        );
                    }
                    None => self.stats.packets_discarded += 1,
                }
            }
            // Rules 2, 6 and 7: never answer an ABORT, a SHUTDOWN COMPLETE, a COOKIE ACK or
            // an ERROR (which may be a Stale Cookie one).
            Some(
                chunk_type::ABORT
                | chunk_type::SHUTDOWN_COMPLETE
                | chunk_type::COOKIE_ACK
                | chunk_type::ERROR,
            ) => self.stats.packets_discarded += 1,
            // Not even a chunk type: nothing to go by.
            None => self.stats.packets_discarded += 1,
            Some(_) => self.ootb(src, dst, pkt),
        }
    }

    /// RFC 9260 §5.1 B: answer an INIT with an INIT ACK carrying a State Cookie, keeping no
    /// state.
    fn on_init(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        init: &sctpsim_wire::sctp::InitChunk,
    ) {
        let info = parse_init_params(init, src);
        let refuse = |cause: ErrorCause| ChunkRepr::Abort {
            t_bit: false,
            causes: vec![cause],
        };
        let reply = match check_init(&self.cfg, init, &info) {
            Err(None) => {
                self.stats.packets_discarded += 1;
                return;
            }
            Err(Some(cause)) => refuse(cause),
            Ok(()) if !self.listening => {
                // No listener: refuse (§8.4 rule 3, the ABORT carries the INIT's tag).
                ChunkRepr::Abort {
                    t_bit: false,
                    causes: Vec::new(),
                }
            }
            Ok(()) => {
                let tag = loop {
                    let t = self.rng.next_u64() as u32;
                    if t != 0 {
                        break t;
                    }
                };
                let tsn = Tsn(self.rng.next_u64() as u32);
                // RFC 4895: our RANDOM from the same stream as the tag and TSN (drawn only
                // with AUTH on, so runs without it keep their draws).
                let auth = self.cfg.auth.then(|| {
                    AuthParams::ours(
                        &mut self.rng,
                        required_chunks(&self.cfg),
                        self.cfg.auth_hmac,
                    )
                });
                let mut local = vec![dst];
                local.extend(self.local_addrs.iter().copied().filter(|a| *a != dst));
                let ack = build_init_ack(
                    &self.cfg,
                    &self.key,
                    now,
                    init,
                    &info,
                    tag,
                    tsn,
                    (self.local_port, pkt.src_port),
                    &local,
                    (0, 0),
                    auth.as_ref(),
                );
                self.stats.init_acks_sent += 1;
                ChunkRepr::InitAck(ack)
            }
        };
        if matches!(reply, ChunkRepr::Abort { .. }) {
            self.stats.aborts_sent += 1;
        }
        self.push(dst, src, pkt.src_port, init.initiate_tag, reply);
    }

    /// RFC 9260 §5.1 D and §5.1.5: a COOKIE ECHO without an association.
    fn on_cookie_echo(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        (at, bytes): (usize, &[u8]),
        fault: Option<&ChunkFault>,
    ) -> Option<SctpAssociation> {
        let c = match StateCookie::decode(bytes, &self.key) {
            Ok(c) => c,
            Err(CookieError::BadMac | CookieError::Malformed) => {
                // Step 2: "the SCTP packet, including the COOKIE ECHO and any DATA chunks,
                // SHOULD be silently discarded".
                self.stats.cookies_rejected += 1;
                return None;
            }
        };
        // Step 3: ports and verification tag must match.
        if c.local_port != self.local_port
            || c.peer_port != pkt.src_port
            || c.my_vtag != pkt.verification_tag
        {
            self.stats.packets_discarded += 1;
            return None;
        }
        // Step 4: "If the elapsed time is longer than the lifespan carried in the State
        // Cookie, then the packet, including the COOKIE ECHO and any attached DATA chunks,
        // SHOULD be discarded, and the endpoint MUST transmit an ERROR chunk with a 'Stale
        // Cookie' error cause to the peer endpoint."
        if let Some(stale) = c.staleness(now) {
            let staleness_us = u32::try_from(stale.as_nanos() / 1_000).unwrap_or(u32::MAX);
            self.stats.stale_cookies += 1;
            self.push(
                dst,
                src,
                pkt.src_port,
                c.peer_vtag,
                ChunkRepr::Error {
                    causes: vec![ErrorCause::StaleCookie { staleness_us }],
                },
            );
            return None;
        }
        // Step 5: create the association; it sends the COOKIE ACK and processes the rest of
        // the packet (bundled DATA).
        let rng = self.child_rng();
        let mut assoc =
            SctpAssociation::from_cookie(self.cfg.clone(), self.key, rng, now, &c, src, dst);
        // RFC 4895 §6.3: if we listed COOKIE ECHO in our CHUNKS, it counts only after an AUTH
        // chunk that verifies with the key of the association the cookie describes.
        if let Some(auth) = assoc.auth_negotiated() {
            let raw = self.rx_raw.as_ref().and_then(|r| r.tail(0));
            if auth.local.requires(chunk_type::COOKIE_ECHO)
                && (at == 0 || auth.verify(&pkt.chunks, 0, raw) != Verdict::Good)
            {
                self.stats.packets_discarded += 1;
                return None;
            }
        }
        assoc.rx_raw = self.rx_raw.clone();
        assoc.process_chunks(now, src, dst, pkt, Some(at), fault);
        assoc.rx_raw = None;
        self.stats.associations_accepted += 1;
        Some(assoc)
    }

    /// RFC 9260 §8.4: out-of-the-blue packets.
    fn ootb(&mut self, src: Ipv4Addr, dst: Ipv4Addr, pkt: &SctpRepr) {
        let has = |f: &dyn Fn(&ChunkRepr) -> bool| pkt.chunks.iter().any(f);
        // Rule 2: "If the OOTB packet contains an ABORT chunk, the receiver MUST silently
        // discard the OOTB packet and take no further action."
        if has(&|c| matches!(c, ChunkRepr::Abort { .. })) {
            self.stats.packets_discarded += 1;
            return;
        }
        // Rule 5: SHUTDOWN ACK: "respond ... with a SHUTDOWN COMPLETE chunk ... fill in the
        // Verification Tag field of the outbound packet with the Verification Tag received in
        // the SHUTDOWN ACK chunk and set the T bit".
        if has(&|c| matches!(c, ChunkRepr::ShutdownAck)) {
            self.stats.shutdown_completes_sent += 1;
            self.push(
                dst,
                src,
                pkt.src_port,
                pkt.verification_tag,
                ChunkRepr::ShutdownComplete { t_bit: true },
            );
            return;
        }
        // Rule 6: SHUTDOWN COMPLETE; rule 7: a Stale Cookie ERROR or a COOKIE ACK: discard.
        if has(&|c| {
            matches!(c, ChunkRepr::ShutdownComplete { .. } | ChunkRepr::CookieAck)
                || matches!(c, ChunkRepr::Error { causes } if causes.iter().any(|e| matches!(e, ErrorCause::StaleCookie { .. })))
        }) {
            self.stats.packets_discarded += 1;
            return;
        }
        // Rule 8: "the receiver SHOULD respond to the sender of the OOTB packet with an ABORT
        // chunk. When sending the ABORT chunk, the receiver of the OOTB packet MUST fill in the
        // Verification Tag field of the outbound packet with the value found in the
        // Verification Tag field of the OOTB packet and set the T bit in the Chunk Flags".
        self.stats.aborts_sent += 1;
        self.push(
            dst,
            src,
            pkt.src_port,
            pkt.verification_tag,
            ChunkRepr::Abort {
                t_bit: true,
                causes: Vec::new(),
            },
        );
    }

    fn push(&mut self, src: Ipv4Addr, dst: Ipv4Addr, dst_port: u16, vtag: u32, chunk: ChunkRepr) {
        self.out.push_back(OutPacket {
            path: None,
            src,
            dst,
            packet: SctpRepr {
                src_port: self.local_port,
                dst_port,
                verification_tag: vtag,
                chunks: vec![chunk],
            },
        });
    }

    /// The next response packet (INIT ACK, ABORT, ERROR, SHUTDOWN COMPLETE).
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        loop {
            match self.out.pop_front()?.encode() {
                Ok(t) => return Some(t),
                // Not reached: the endpoint's answers are single small chunks.
                Err(_) => self.stats.packets_unencodable += 1,
            }
        }
    }
}
