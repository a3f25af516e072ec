//! Protocol unit tests, one file per state group (DESIGN.md §8 tier 2), in the style of
//! smoltcp's socket tests: helpers build an association in a given state against a scripted
//! remote peer, `send!` injects chunks from the peer at a given time and `recv!` expects the
//! chunks of the next packet the association sends. `pair.rs` joins two real associations
//! through simulated paths (tier 3).
//!
//! The association under test is "local" (port 5000, addresses 10.0.0.1 and 10.0.1.1); the
//! scripted peer is "remote" (port 80, 10.0.0.2 and 10.0.1.2, tag `REMOTE_TAG`) and its TSNs
//! start just below 2^32 so that every test crosses the wrap.

#![allow(dead_code)]

mod abort;
mod asconf;
mod asctp;
mod auth;
mod cmt;
mod collision;
mod coupled;
mod csctp;
mod data;
mod early_retransmit;
mod endpoint;
mod fast_retransmit;
mod handshake;
mod idata;
mod invalid;
mod multihoming;
mod nrsack;
mod pair;
mod prsctp;
mod reconfig;
mod sack;
mod shutdown;
mod t3;
mod unknown_chunks;
mod vtag;

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr};

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_wire::sctp::{
    chunk_type, ChunkRepr, DataChunk, GapAckBlock, InitChunk, Parameter, SackChunk, SctpRepr, Ssn,
    Tsn,
};

use super::{DatagramEvent, SctpAssociation, SctpConfig, SctpEndpoint, SctpEvent, State, Transmit};

pub(super) const LOCAL_PORT: u16 = 5000;
pub(super) const REMOTE_PORT: u16 = 80;
pub(super) const L1: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
pub(super) const L2: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 1);
pub(super) const R1: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
pub(super) const R2: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 2);
pub(super) const REMOTE_TAG: u32 = 0xabcd_0001;
/// The remote's TSNs wrap after four chunks.
pub(super) const REMOTE_TSN: Tsn = Tsn(u32::MAX - 3);
pub(super) const MTU: u16 = 1500;
/// An IPv4 header without options.
pub(super) const IPV4_HEADER_LEN: usize = 20;

/// Milliseconds since the start.
pub(super) fn ms(v: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(v)
}

/// A configuration without heartbeats (they would add chunks to every expectation) and with
/// metrics on.
pub(super) fn cfg() -> SctpConfig {
    SctpConfig {
        heartbeats: false,
        metrics: true,
        ..SctpConfig::rfc9260()
    }
}

/// The association under test, its clock, and what it sent that the test has not looked at.
pub(super) struct Harness {
    pub a: SctpAssociation,
    pub now: SimTime,
    pub local: Vec<Ipv4Addr>,
    pub remote: Vec<Ipv4Addr>,
    pub out: VecDeque<(SimTime, Sent)>,
    pub events: Vec<SctpEvent>,
}

impl Harness {
    /// Moves the clock to `t`, running every timer due on the way and collecting what the
    /// association sends at each instant.
    pub fn at(&mut self, t: SimTime) {
        self.drain();
        while let Some(d) = self.a.poll_timeout() {
            if d > t {
                break;
            }
            self.now = self.now.max(d);
            self.a.handle_timeout(self.now);
            self.drain();
        }
        self.now = self.now.max(t);
        self.drain();
    }

    /// Moves the clock forward by `d`.
    pub fn wait(&mut self, d: SimDuration) {
        let t = self.now + d;
        self.at(t);
    }

    /// Collects pending output and events.
    pub fn drain(&mut self) {
        while let Some((t, path)) = self.a.poll_transmit_on_path(self.now) {
            self.out.push_back((self.now, Sent { path, ..sent(t) }));
            assert!(self.out.len() < 100_000, "poll_transmit does not terminate");
        }
        while let Some(e) = self.a.poll_event() {
            self.events.push(e);
        }
    }

    /// A packet from the remote's first address with our tag.
    pub fn inject(&mut self, chunks: Vec<ChunkRepr>) {
        let vtag = self.a.my_vtag();
        self.inject_raw(self.remote[0], vtag, chunks);
    }

    /// A packet from `src` with our tag.
    pub fn inject_from(&mut self, src: Ipv4Addr, chunks: Vec<ChunkRepr>) {
        let vtag = self.a.my_vtag();
        self.inject_raw(src, vtag, chunks);
    }

    /// A packet from `src` with an arbitrary tag, to the local address paired with `src`.
    pub fn inject_raw(&mut self, src: Ipv4Addr, vtag: u32, chunks: Vec<ChunkRepr>) {
        self.drain();
        let dst = if src == R2 && self.local.len() > 1 {
            self.local[1]
        } else {
            self.local[0]
        };
        let pkt = SctpRepr {
            src_port: REMOTE_PORT,
            dst_port: LOCAL_PORT,
            verification_tag: vtag,
            chunks,
        };
        // Every packet goes through the real codec and back.
        let parsed = reparse(&encode(&pkt));
        self.a.handle_packet(self.now, src, dst, &parsed);
        self.drain();
    }

    /// The next packet sent (at or before now), if any.
    pub fn next(&mut self) -> Option<Sent> {
        self.drain();
        self.out.pop_front().map(|(_, t)| t)
    }

    /// Every packet sent so far.
    pub fn all(&mut self) -> Vec<Sent> {
        self.drain();
        self.out.drain(..).map(|(_, t)| t).collect()
    }

    /// The TSNs of every DATA chunk sent so far, in order.
    pub fn all_data_tsns(&mut self) -> Vec<Tsn> {
        self.all()
            .iter()
            .flat_map(|t| {
                data_chunks(&t.packet.chunks)
                    .into_iter()
                    .map(|d| d.tsn)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Every chunk sent so far, with the destination.
    pub fn all_chunks(&mut self) -> Vec<(Ipv4Addr, ChunkRepr)> {
        self.all()
            .into_iter()
            .flat_map(|t| {
                let d = t.dst;
                t.packet.chunks.into_iter().map(move |c| (d, c))
            })
            .collect()
    }

    /// Takes the events collected so far.
    pub fn take_events(&mut self) -> Vec<SctpEvent> {
        self.drain();
        std::mem::take(&mut self.events)
    }

    /// Our `k`-th TSN (0 = the Initial TSN).
    pub fn ltsn(&self, k: u32) -> Tsn {
        self.a.initial_tsn() + k
    }

    /// A SACK from the remote acknowledging our TSNs `0..count` cumulatively, with gap blocks.
    pub fn sack(&self, count: u32, gaps: &[(u16, u16)], a_rwnd: u32) -> ChunkRepr {
        sack_chunk(self.ltsn(count).prev(), gaps, a_rwnd)
    }

    /// Sends a message of `len` bytes on stream 0.
    pub fn send_msg(&mut self, len: usize) {
        let now = self.now;
        self.a
            .send(now, vec![0x5a; len], 0, false, None, 0)
            .expect("send");
    }
}

/// A new association to `peers` taken out of `ep`, for tests that drive one association
/// against a scripted peer.
pub(super) fn connect_assoc(
    ep: &mut SctpEndpoint,
    now: SimTime,
    peers: &[Ipv4Addr],
    peer_port: u16,
) -> SctpAssociation {
    let h = ep.connect(now, peers, peer_port);
    ep.remove(h).expect("just created")
}

/// Hands `pkt` to `ep` and takes out the association a valid COOKIE ECHO creates.
pub(super) fn accept(
    ep: &mut SctpEndpoint,
    now: SimTime,
    src: Ipv4Addr,
    dst: Ipv4Addr,
    pkt: &SctpRepr,
) -> Option<SctpAssociation> {
    match ep.handle_packet(now, src, dst, pkt)? {
        DatagramEvent::NewAssociation(h) => ep.remove(h),
        _ => None,
    }
}

/// A packet the association or endpoint sent, parsed back from the bytes of its [`Transmit`]:
/// every packet a test looks at went through the real codec (CRC32c included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Sent {
    /// The key of the path the association built it for (A-SCTP route paths share `dst`).
    pub path: Option<Ipv4Addr>,
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    pub packet: SctpRepr,
}

/// The endpoint's next answer, parsed back.
pub(super) fn sent_ep(ep: &mut SctpEndpoint) -> Option<Sent> {
    ep.poll_transmit().map(sent)
}

impl Sent {
    /// Size of the IP datagram that carries it (20-byte IPv4 header).
    pub fn ip_len(&self) -> usize {
        IPV4_HEADER_LEN + self.packet.buffer_len()
    }
}

/// `t` parsed back.
pub(super) fn sent(t: Transmit) -> Sent {
    Sent {
        path: None,
        src: t.src,
        dst: t.dst,
        packet: reparse(&t.payload),
    }
}

/// An SCTP packet's bytes (CRC32c included).
pub(super) fn encode(pkt: &SctpRepr) -> Vec<u8> {
    let mut buf = vec![0u8; pkt.buffer_len()];
    let n = pkt.emit(&mut buf).expect("encodable");
    buf.truncate(n);
    buf
}

/// Parses an emitted SCTP packet back to its representation.
pub(super) fn reparse(bytes: &[u8]) -> SctpRepr {
    let sctp = sctpsim_wire::sctp::SctpPacket::new_checked(bytes).expect("sctp");
    SctpRepr::parse(&sctp).expect("parse")
}

/// A SACK chunk.
pub(super) fn sack_chunk(cum: Tsn, gaps: &[(u16, u16)], a_rwnd: u32) -> ChunkRepr {
    ChunkRepr::Sack(SackChunk {
        per_path: false,
        dac_two_packets: false,
        cum_tsn_ack: cum,
        a_rwnd,
        gap_blocks: gaps
            .iter()
            .map(|&(start, end)| GapAckBlock { start, end })
            .collect(),
        duplicate_tsns: vec![],
    })
}

/// A whole-message DATA chunk from the remote with TSN `REMOTE_TSN + k`.
pub(super) fn rdata(k: u32, stream: u16, ssn: u16, payload: &[u8]) -> ChunkRepr {
    ChunkRepr::Data(DataChunk {
        tsn: REMOTE_TSN + k,
        stream_id: stream,
        ssn: Ssn(ssn),
        ppid: 99,
        unordered: false,
        beginning: true,
        ending: true,
        immediate: false,
        user_data: payload.to_vec(),
    })
}

/// A DATA fragment from the remote.
pub(super) fn rfrag(
    k: u32,
    stream: u16,
    ssn: u16,
    b: bool,
    e: bool,
    unordered: bool,
    payload: &[u8],
) -> ChunkRepr {
    ChunkRepr::Data(DataChunk {
        tsn: REMOTE_TSN + k,
        stream_id: stream,
        ssn: Ssn(ssn),
        ppid: 99,
        unordered,
        beginning: b,
        ending: e,
        immediate: false,
        user_data: payload.to_vec(),
    })
}

/// The remote's INIT ACK answering our INIT.
pub(super) fn remote_init_ack(
    remote: &[Ipv4Addr],
    cookie: &[u8],
    pr_sctp: bool,
    asconf: bool,
) -> InitChunk {
    let mut params: Vec<Parameter> = vec![Parameter::StateCookie(cookie.to_vec())];
    params.extend(remote.iter().map(|a| Parameter::Address(IpAddr::V4(*a))));
    let mut ext = Vec::new();
    if pr_sctp {
        params.push(Parameter::ForwardTsnSupported);
        ext.push(chunk_type::FORWARD_TSN);
    }
    if asconf {
        ext.push(chunk_type::ASCONF);
        ext.push(chunk_type::ASCONF_ACK);
    }
    if !ext.is_empty() {
        params.push(Parameter::SupportedExtensions(ext));
    }
    InitChunk {
        initiate_tag: REMOTE_TAG,
        a_rwnd: 65_536,
        outbound_streams: 10,
        inbound_streams: 10,
        initial_tsn: REMOTE_TSN,
        params,
    }
}

/// The association in COOKIE-WAIT, its INIT taken.
pub(super) fn cookie_wait(
    cfg: SctpConfig,
    local: &[Ipv4Addr],
    remote: &[Ipv4Addr],
) -> (Harness, InitChunk) {
    let mut ep = SctpEndpoint::new(cfg, LOCAL_PORT, local.to_vec(), Rng::from_seed(7));
    // Only the first remote address is given by the user (and so confirmed, RFC 9260 §5.4);
    // the others are learned from the INIT ACK.
    let a = connect_assoc(&mut ep, SimTime::ZERO, &remote[..1], REMOTE_PORT);
    let mut h = Harness {
        a,
        now: SimTime::ZERO,
        local: local.to_vec(),
        remote: remote.to_vec(),
        out: VecDeque::new(),
        events: Vec::new(),
    };
    let t = h.next().expect("INIT");
    assert_eq!(t.packet.verification_tag, 0);
    let ChunkRepr::Init(init) = t.packet.chunks[0].clone() else {
        panic!("expected INIT, got {:?}", t.packet.chunks)
    };
    (h, init)
}

/// The association established as the initiator (addresses `L1` → `R1`) against a scripted
/// remote whose INIT ACK adds `remote_ext` to its Supported Extensions; `ours` is what our
/// INIT must list, each chunk type with whether it must be there.
pub(super) fn established_ext(cfg: SctpConfig, ours: &[(u8, bool)], remote_ext: &[u8]) -> Harness {
    let (mut h, init) = cookie_wait(cfg, &[L1], &[R1]);
    let listed = init.supported_extensions();
    for (t, want) in ours {
        assert_eq!(
            listed.contains(t),
            *want,
            "INIT lists chunk type {t:#04x} exactly when configured"
        );
    }
    let mut ack = remote_init_ack(&[R1], b"remote-cookie", true, true);
    for p in &mut ack.params {
        if let Parameter::SupportedExtensions(e) = p {
            e.extend_from_slice(remote_ext);
        }
    }
    let tag = h.a.my_vtag();
    h.inject_raw(R1, tag, vec![ChunkRepr::InitAck(ack)]);
    h.next().expect("COOKIE ECHO");
    h.inject(vec![ChunkRepr::CookieAck]);
    assert_eq!(h.a.state(), State::Established);
    h.all();
    h.take_events();
    h
}

/// The association established as the initiator against the scripted remote (which offers
/// PR-SCTP and ASCONF and lists all `remote` addresses).
pub(super) fn established_with(
    cfg: SctpConfig,
    local: &[Ipv4Addr],
    remote: &[Ipv4Addr],
) -> Harness {
    let (mut h, _init) = cookie_wait(cfg, local, remote);
    let ack = remote_init_ack(remote, b"remote-cookie", true, true);
    let tag = h.a.my_vtag();
    h.inject_raw(remote[0], tag, vec![ChunkRepr::InitAck(ack)]);
    let t = h.next().expect("COOKIE ECHO");
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    assert!(matches!(t.packet.chunks[0], ChunkRepr::CookieEcho { .. }));
    h.inject(vec![ChunkRepr::CookieAck]);
    assert_eq!(h.a.state(), State::Established);
    h.all();
    h.take_events();
    h
}

/// Single-homed and established.
pub(super) fn established() -> Harness {
    established_with(cfg(), &[L1], &[R1])
}

/// Data chunks in a list of chunks.
pub(super) fn data_chunks(chunks: &[ChunkRepr]) -> Vec<&DataChunk> {
    chunks
        .iter()
        .filter_map(|c| match c {
            ChunkRepr::Data(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// Injects the chunks (from the remote's first address), optionally at a time.
macro_rules! send {
    ($h:expr, [$($chunk:expr),* $(,)?]) => {
        $h.inject(vec![$($chunk),*])
    };
    ($h:expr, at $t:expr, [$($chunk:expr),* $(,)?]) => {{
        $h.at($t);
        $h.inject(vec![$($chunk),*])
    }};
}

/// Expects the next packet to consist of chunks matching the patterns, optionally at a time,
/// then runs the block with the pattern bindings. `recv!(h, nothing)` expects no packet.
macro_rules! recv {
    ($h:expr, nothing) => {{
        let p = $h.next();
        assert!(p.is_none(), "expected nothing, got {:?}", p);
    }};
    ($h:expr, at $t:expr, $($rest:tt)*) => {{
        $h.at($t);
        recv!($h, $($rest)*)
    }};
    ($h:expr, [$($pat:pat),* $(,)?]) => {
        recv!($h, [$($pat),*] => {})
    };
    ($h:expr, [$($pat:pat),* $(,)?] => $body:block) => {{
        let t = $h.next().expect("expected a packet");
        #[allow(unused_variables)]
        match t.packet.chunks.as_slice() {
            [$($pat),*] => $body,
            other => panic!("unexpected chunks {:?}", other),
        }
    }};
}

pub(super) use recv;
pub(super) use send;
