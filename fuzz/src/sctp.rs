//! Target `sctp`: the SCTP chunk codec and the SCTP receive path.
//!
//! Per case:
//! * the codec (`sctpsim_wire::sctp::fuzz_parse_sctp`, `SctpRepr::parse` and a re-emit round
//!   trip when it parses) on random bytes, on packets built from random chunk headers (bad
//!   lengths, random types and flags, bad or repaired CRC32c) and on mutations of real
//!   packets;
//! * a listening `SctpEndpoint` and a client association talking through an adversarial path
//!   that drops, duplicates, reorders, corrupts and truncates packets (bytes go through the
//!   codec, so bad CRCs and truncated parameters are rejected or parsed as they would be),
//!   with random timer wake-ups and application calls, in every state from COOKIE-WAIT to
//!   CLOSED;
//! * forged packets (random chunk sequences: INIT / INIT ACK with random parameters, COOKIE
//!   ECHO with real or mutated cookies, DATA and SACK with TSNs near the peer's, FORWARD TSN,
//!   ASCONF, HEARTBEAT, ABORT, SHUTDOWN*, ERROR, unknown chunk types) with the right or a
//!   random verification tag, fed to both endpoints (which give them to the association that
//!   owns them or answer them themselves).
//!
//! * targeted damage to the fields the receive paths check (`mutate_chunk_fields`: INIT / INIT
//!   ACK parameter lengths and types, zero tags and stream counts, DATA and INIT chunks cut
//!   inside their fixed part, SACK counts), delivered as bytes through
//!   `SctpEndpoint::handle_datagram` so that the receiver's chunk-by-chunk parse and its
//!   answers to malformed chunks (RFC 9260 §3.2, `association/invalid.rs`) run.
//!
//! `poll_transmit` must terminate and nothing may panic.

use std::net::{IpAddr, Ipv4Addr};

use crate::driver;
use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_proto::transport::sctp::{
    AssocHandle, DatagramEvent, SctpAssociation, SctpConfig, SctpEndpoint, Transmit,
};
use sctpsim_wire::sctp::{
    fuzz_parse_sctp, sctp_packet, AsconfAckChunk, AsconfChunk, ChunkRepr, DataChunk, ErrorCause,
    ForwardTsnChunk, ForwardTsnStream, GapAckBlock, InitChunk, NrSackChunk, Parameter, SackChunk,
    SctpPacket, SctpRepr, Ssn, Tsn, UnknownChunk,
};
use sctpsim_wire::{ipv4_datagram, IpProtocol, Ipv4Packet, Ipv4Repr};

const C1: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const C2: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 1);
const S1: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
const S2: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 2);
const CPORT: u16 = 5000;
const SPORT: u16 = 80;

/// What one case did, summed into the report.
#[derive(Debug, Default, Clone)]
pub(crate) struct Counts {
    cases: u64,
    codec_inputs: u64,
    codec_parsed: u64,
    packets: u64,
    parse_errors: u64,
    forged: u64,
    endpoint_packets: u64,
    timeouts: u64,
    established: u64,
    established_steps: u64,
    closed: u64,
    /// Datagrams whose chunk-by-chunk parse stopped at a chunk it could not parse.
    chunk_faults: u64,
}

impl crate::driver::Tally for Counts {
    fn progress(&self) -> String {
        format!(
            "{} cases, {} packets, {} forged, {} codec inputs",
            self.cases, self.packets, self.forged, self.codec_inputs
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} codec inputs ({} parsed and round-tripped), {} path packets delivered, {} inputs rejected by the codec, {} datagrams with a chunk the receiver could not parse, {} forged packets, {} packets to endpoints, {} timer firings, {} cases reached ESTABLISHED ({} steps with the client ESTABLISHED or closing), {} ended with the client CLOSED",
            self.codec_inputs, self.codec_parsed, self.packets, self.parse_errors, self.chunk_faults, self.forged,
            self.endpoint_packets, self.timeouts, self.established, self.established_steps, self.closed
        )
    }

    fn add(&mut self, o: &Counts) {
        self.cases += o.cases;
        self.codec_inputs += o.codec_inputs;
        self.codec_parsed += o.codec_parsed;
        self.packets += o.packets;
        self.parse_errors += o.parse_errors;
        self.forged += o.forged;
        self.endpoint_packets += o.endpoint_packets;
        self.timeouts += o.timeouts;
        self.established += o.established;
        self.established_steps += o.established_steps;
        self.closed += o.closed;
        self.chunk_faults += o.chunk_faults;
    }
}

fn bytes(rng: &mut Rng, max: u64) -> Vec<u8> {
    let n = rng.below(max + 1) as usize;
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// A TSN near `base` (or anywhere, sometimes).
fn near(rng: &mut Rng, base: Tsn) -> Tsn {
    if rng.bernoulli(0.1) {
        Tsn(rng.next_u64() as u32)
    } else {
        Tsn(base
            .0
            .wrapping_add(rng.below(3000) as u32)
            .wrapping_sub(500))
    }
}

fn random_config(rng: &mut Rng) -> SctpConfig {
    let mut cfg = if rng.bernoulli(0.5) {
        SctpConfig::rfc9260()
    } else {
        SctpConfig::rfc2960()
    };
    cfg.pr_sctp = rng.bernoulli(0.5);
    cfg.asconf = rng.bernoulli(0.5);
    cfg.delayed_sack = rng.bernoulli(0.5);
    cfg.outbound_streams = pick(rng, &[1, 2, 10, u16::MAX]);
    cfg.max_inbound_streams = pick(rng, &[1, 2, 10, u16::MAX]);
    cfg.recv_buffer = pick(rng, &[1500, 4000, 65_536, 1 << 20]);
    cfg.send_buffer = pick(rng, &[0, 1000, 100_000, 1 << 20]);
    cfg.pmtu = pick(rng, &[576, 1500, 9000]);
    cfg.max_gap_blocks = rng.bernoulli(0.3).then(|| rng.below(8) as u16);
    cfg.max_burst = pick(rng, &[0, 1, 4]);
    cfg.association_max_retrans = pick(rng, &[0, 1, 3, 10, 10, 10]);
    cfg.path_max_retrans = pick(rng, &[0, 1, 5]);
    cfg.max_init_retransmits = pick(rng, &[0, 1, 8]);
    cfg.heartbeats = rng.bernoulli(0.7);
    cfg.metrics = rng.bernoulli(0.3);
    if rng.bernoulli(0.2) {
        cfg.valid_cookie_life = SimDuration::from_millis(rng.below(3000));
    }
    cfg.nr_sack = rng.bernoulli(0.3);
    cfg
}

fn random_addr(rng: &mut Rng) -> Ipv4Addr {
    let any = Ipv4Addr::from(rng.next_u64() as u32);
    pick(
        rng,
        &[
            C1,
            C2,
            S1,
            S2,
            Ipv4Addr::new(10, 0, 2, 9),
            Ipv4Addr::UNSPECIFIED,
            Ipv4Addr::BROADCAST,
            Ipv4Addr::new(224, 0, 0, 1),
            any,
        ],
    )
}

fn random_cause(rng: &mut Rng) -> ErrorCause {
    match rng.below(12) {
        0 => ErrorCause::InvalidStreamIdentifier {
            stream_id: rng.next_u64() as u16,
        },
        1 => ErrorCause::MissingMandatoryParameter {
            missing: (0..rng.below(4)).map(|_| rng.next_u64() as u16).collect(),
        },
        2 => ErrorCause::StaleCookie {
            staleness_us: rng.next_u64() as u32,
        },
        3 => ErrorCause::OutOfResource,
        4 => ErrorCause::UnrecognizedChunkType {
            chunk: bytes(rng, 12),
        },
        5 => ErrorCause::InvalidMandatoryParameter,
        6 => ErrorCause::NoUserData {
            tsn: Tsn(rng.next_u64() as u32),
        },
        7 => ErrorCause::CookieReceivedWhileShuttingDown,
        8 => ErrorCause::UserInitiatedAbort {
            reason: bytes(rng, 20),
        },
        9 => ErrorCause::ProtocolViolation {
            info: bytes(rng, 20),
        },
        10 => ErrorCause::IllegalAsconfAck,
        _ => ErrorCause::Unknown {
            code: 0x100 + rng.below(0xff00) as u16,
            info: bytes(rng, 12),
        },
    }
}

fn random_param(rng: &mut Rng, cookies: &[Vec<u8>]) -> Parameter {
    let cid = rng.next_u64() as u32;
    match rng.below(14) {
        0 | 1 => Parameter::Address(IpAddr::V4(random_addr(rng))),
        2 => Parameter::StateCookie(if cookies.is_empty() || rng.bernoulli(0.3) {
            bytes(rng, 80)
        } else {
            pick_cookie(rng, cookies)
        }),
        3 => Parameter::CookiePreservative {
            increment_ms: rng.next_u64() as u32,
        },
        4 => Parameter::HostNameAddress({
            let mut h = bytes(rng, 10);
            h.push(0);
            h
        }),
        5 => Parameter::SupportedAddressTypes(
            (0..rng.below(4))
                .map(|_| pick(rng, &[5, 6, 11, 0]))
                .collect(),
        ),
        6 => Parameter::EcnCapable,
        7 => Parameter::ForwardTsnSupported,
        8 => Parameter::SupportedExtensions(bytes(rng, 6)),
        9 => Parameter::AddIpAddress {
            correlation_id: cid,
            address: IpAddr::V4(random_addr(rng)),
        },
        10 => Parameter::DeleteIpAddress {
            correlation_id: cid,
            address: IpAddr::V4(random_addr(rng)),
        },
        11 => Parameter::SetPrimaryAddress {
            correlation_id: cid,
            address: IpAddr::V4(random_addr(rng)),
        },
        12 => Parameter::SuccessIndication {
            correlation_id: cid,
        },
        _ => Parameter::Unknown {
            kind: pick(rng, &[0x8002, 0x8005, 0x4003, 0xc00f, 0x1234, 0x0001]),
            value: bytes(rng, 16),
        },
    }
}

/// A real cookie, sometimes mutated (one bit of the body or the MAC).
fn pick_cookie(rng: &mut Rng, cookies: &[Vec<u8>]) -> Vec<u8> {
    let mut c = cookies[rng.below(cookies.len() as u64) as usize].clone();
    if rng.bernoulli(0.3) && !c.is_empty() {
        let i = rng.below(c.len() as u64) as usize;
        c[i] ^= 1 << rng.below(8);
    }
    c
}

fn random_init(rng: &mut Rng, cookies: &[Vec<u8>]) -> InitChunk {
    InitChunk {
        initiate_tag: if rng.bernoulli(0.05) {
            0
        } else {
            rng.next_u64() as u32
        },
        a_rwnd: pick(rng, &[0, 1, 1500, 65_535, u32::MAX]),
        outbound_streams: pick(rng, &[0, 1, 10, u16::MAX]),
        inbound_streams: pick(rng, &[0, 1, 10, u16::MAX]),
        initial_tsn: Tsn(rng.next_u64() as u32),
        params: (0..rng.below(6))
            .map(|_| random_param(rng, cookies))
            .collect(),
    }
}

/// A random chunk aimed at an association whose peer sent TSNs from `peer_tsn` and which sent
/// TSNs from `own_tsn`.
fn forge_chunk(rng: &mut Rng, own_tsn: Tsn, peer_tsn: Tsn, cookies: &[Vec<u8>]) -> ChunkRepr {
    match rng.below(20) {
        0..=3 => {
            let len = if rng.bernoulli(0.1) {
                0
            } else {
                {
                    let max = if rng.bernoulli(0.1) { 3000 } else { 200 };
                    1 + rng.below(max) as usize
                }
            };
            ChunkRepr::Data(DataChunk {
                tsn: near(rng, peer_tsn),
                stream_id: pick(rng, &[0, 1, 2, 9, u16::MAX]),
                ssn: Ssn(rng.below(8) as u16),
                ppid: rng.next_u64() as u32,
                unordered: rng.bernoulli(0.3),
                beginning: rng.bernoulli(0.7),
                ending: rng.bernoulli(0.7),
                immediate: rng.bernoulli(0.1),
                user_data: vec![0xab; len],
            })
        }
        4..=6 => {
            let cum = near(rng, own_tsn);
            let sack = SackChunk {
                per_path: false,
                dac_two_packets: false,
                cum_tsn_ack: cum,
                a_rwnd: pick(rng, &[0, 1000, 65_535, u32::MAX]),
                gap_blocks: (0..rng.below(6))
                    .map(|_| {
                        let s = rng.below(100) as u16;
                        GapAckBlock {
                            start: s,
                            end: if rng.bernoulli(0.9) {
                                s.wrapping_add(rng.below(20) as u16)
                            } else {
                                rng.next_u64() as u16
                            },
                        }
                    })
                    .collect(),
                duplicate_tsns: (0..rng.below(4)).map(|_| near(rng, own_tsn)).collect(),
            };
            if rng.bernoulli(0.3) {
                // NR-SACK: NR blocks overlapping the gap blocks or not, nonsense ones too.
                let nr_gap_blocks = (0..rng.below(6))
                    .map(|_| {
                        let s = rng.below(100) as u16;
                        GapAckBlock {
                            start: s,
                            end: s.wrapping_add(rng.below(20) as u16),
                        }
                    })
                    .collect();
                ChunkRepr::NrSack(NrSackChunk {
                    sack,
                    nr_gap_blocks,
                })
            } else {
                ChunkRepr::Sack(sack)
            }
        }
        7 => ChunkRepr::Init(random_init(rng, cookies)),
        8 => {
            let mut ack = random_init(rng, cookies);
            if rng.bernoulli(0.7) {
                ack.params.push(Parameter::StateCookie(bytes(rng, 60)));
            }
            ChunkRepr::InitAck(ack)
        }
        9 => ChunkRepr::CookieEcho {
            cookie: if cookies.is_empty() || rng.bernoulli(0.3) {
                bytes(rng, 120)
            } else {
                pick_cookie(rng, cookies)
            },
        },
        10 => ChunkRepr::CookieAck,
        11 => {
            if rng.bernoulli(0.5) {
                ChunkRepr::Heartbeat {
                    info: bytes(rng, 40),
                }
            } else {
                ChunkRepr::HeartbeatAck {
                    info: bytes(rng, 40),
                }
            }
        }
        12 => ChunkRepr::Abort {
            t_bit: rng.bernoulli(0.5),
            causes: (0..rng.below(3)).map(|_| random_cause(rng)).collect(),
        },
        13 => match rng.below(3) {
            0 => ChunkRepr::Shutdown {
                cum_tsn_ack: near(rng, peer_tsn),
            },
            1 => ChunkRepr::ShutdownAck,
            _ => ChunkRepr::ShutdownComplete {
                t_bit: rng.bernoulli(0.5),
            },
        },
        14 => ChunkRepr::Error {
            causes: (0..1 + rng.below(3)).map(|_| random_cause(rng)).collect(),
        },
        15 => ChunkRepr::ForwardTsn(ForwardTsnChunk {
            new_cum_tsn: near(rng, peer_tsn),
            streams: (0..rng.below(4))
                .map(|_| ForwardTsnStream {
                    stream_id: rng.below(12) as u16,
                    ssn: Ssn(rng.below(10) as u16),
                })
                .collect(),
        }),
        16 => ChunkRepr::Asconf(AsconfChunk {
            handoff: sctpsim_wire::sctp::HandoffIndication::None,
            sequence_number: rng.next_u64() as u32,
            address: IpAddr::V4(random_addr(rng)),
            params: (0..rng.below(4))
                .map(|_| random_param(rng, cookies))
                .collect(),
        }),
        17 => ChunkRepr::AsconfAck(AsconfAckChunk {
            sequence_number: rng.next_u64() as u32,
            params: (0..rng.below(4))
                .map(|_| random_param(rng, cookies))
                .collect(),
        }),
        18 => {
            if rng.bernoulli(0.5) {
                ChunkRepr::Ecne {
                    lowest_tsn: near(rng, peer_tsn),
                }
            } else {
                ChunkRepr::Cwr {
                    lowest_tsn: near(rng, own_tsn),
                }
            }
        }
        _ => ChunkRepr::Unknown(UnknownChunk {
            kind: pick(
                rng,
                &[0x40, 0x82, 0x84, 0xc2, 0x3f, 0x7f, 0xbf, 0xff, 0x0f, 0x11],
            ),
            flags: rng.next_u64() as u8,
            value: bytes(rng, 30),
        }),
    }
}

/// Mutates packet bytes: bit flips, truncation, extension, overwriting a chunk or parameter
/// length field, random overwrites; the CRC32c is repaired afterwards most of the time so the
/// damage reaches the chunk parsers.
fn mutate(rng: &mut Rng, b: &mut Vec<u8>, header: usize) {
    for _ in 0..1 + rng.below(3) {
        match rng.below(6) {
            0 => driver::flip_bit(rng, b),
            1 => driver::truncate(rng, b),
            2 => driver::extend(rng, b, 39),
            3 | 4 => {
                // A 16-bit length field: the first chunk's (offset 2 of the chunk) or any
                // 4-aligned position (parameter headers sit on 4-byte boundaries).
                let start = header + 12;
                if b.len() >= start + 4 {
                    let pos = if rng.bernoulli(0.5) {
                        start + 2
                    } else {
                        start + 4 * rng.below(((b.len() - start) / 4) as u64) as usize + 2
                    };
                    if pos + 2 <= b.len() {
                        let any = rng.next_u64() as u16;
                        let v: u16 = pick(rng, &[0, 1, 3, 4, 5, 7, 8, 0xffff, any]);
                        b[pos..pos + 2].copy_from_slice(&v.to_be_bytes());
                    }
                }
            }
            _ => driver::overwrite(rng, b, header + 12, 8),
        }
    }
    if rng.bernoulli(0.8) && b.len() >= header + 12 {
        fill_crc(&mut b[header..]);
    }
}

/// Damages one field of one chunk of an SCTP packet where the receive paths look (the
/// handshake chunks' parameters above all), then repairs the CRC32c so the damage gets past
/// the checksum: an INIT / INIT ACK parameter's length (0, 1, 3, 4, one byte short or long,
/// past the chunk) or type (any upper two bits), a chunk length cut inside the fixed part (a
/// DATA chunk of 4 to 15 bytes, an INIT shorter than 20), a SACK's gap or duplicate count, a
/// zero Initiate Tag or stream count, or a bogus parameter appended to an INIT / INIT ACK.
fn mutate_chunk_fields(rng: &mut Rng, b: &mut Vec<u8>) {
    // The chunks: (offset, type, length).
    let mut chunks = Vec::new();
    let mut at = 12;
    while at + 4 <= b.len() {
        let len = usize::from(u16::from_be_bytes([b[at + 2], b[at + 3]]));
        chunks.push((at, b[at], len));
        if len < 4 {
            break;
        }
        at += len.div_ceil(4) * 4;
    }
    if chunks.is_empty() {
        return;
    }
    let (at, kind, len) = pick(rng, &chunks);
    let set16 = |b: &mut Vec<u8>, pos: usize, v: u16| {
        if let Some(f) = b.get_mut(pos..pos + 2) {
            f.copy_from_slice(&v.to_be_bytes());
        }
    };
    match kind {
        1 | 2 => {
            // The parameters after the 20-byte INIT / INIT ACK header.
            let mut params = Vec::new();
            let mut p = at + 20;
            while p + 4 <= (at + len).min(b.len()) {
                let plen = usize::from(u16::from_be_bytes([b[p + 2], b[p + 3]]));
                params.push((p, plen));
                if plen < 4 {
                    break;
                }
                p += plen.div_ceil(4) * 4;
            }
            match rng.below(6) {
                0 | 1 if !params.is_empty() => {
                    let (p, plen) = pick(rng, &params);
                    let v = pick(
                        rng,
                        &[
                            0,
                            1,
                            3,
                            4,
                            plen.saturating_sub(1),
                            plen + 1,
                            plen + 4,
                            0xffff,
                        ],
                    );
                    set16(b, p + 2, v as u16);
                }
                2 if !params.is_empty() => {
                    let (p, _) = pick(rng, &params);
                    let t = pick(rng, &[0x0000, 0x4000, 0x8000, 0xc000]) | rng.below(0x4000) as u16;
                    set16(b, p, t);
                }
                3 => {
                    // A zero Initiate Tag, OS or MIS.
                    let field = pick(rng, &[4, 12, 14]);
                    if let Some(f) =
                        b.get_mut(at + field..at + field + 2 + usize::from(field == 4) * 2)
                    {
                        f.fill(0);
                    }
                }
                4 => {
                    // Append a parameter with an odd type and a lying length to the chunk
                    // (when it is the last one).
                    if at + len.div_ceil(4) * 4 >= b.len() {
                        b.truncate(at + len);
                        while !b.len().is_multiple_of(4) {
                            b.push(0);
                        }
                        let t = rng.next_u64() as u16;
                        let plen = pick(rng, &[0u16, 2, 4, 8, 9, 40]);
                        b.extend_from_slice(&t.to_be_bytes());
                        b.extend_from_slice(&plen.to_be_bytes());
                        b.extend_from_slice(&[1, 2, 3, 4]);
                        let new_len = if rng.bernoulli(0.7) {
                            b.len() - at
                        } else {
                            b.len() - at - 2
                        };
                        set16(b, at + 2, new_len as u16);
                    }
                }
                _ => set16(b, at + 2, 4 + rng.below(16) as u16),
            }
        }
        0 => set16(b, at + 2, pick(rng, &[4, 8, 12, 15, 16, 17])),
        3 => {
            // Gap or duplicate count (offsets 12 and 14 of the chunk).
            let v = pick(rng, &[0u16, 1, 2, 100, 0xffff]);
            set16(b, at + pick(rng, &[12, 14]), v);
        }
        _ => set16(b, at + 2, pick(rng, &[0, 2, 4, 5, len as u16 + 4, 0xffff])),
    }
    fill_crc(b);
}

fn fill_crc(sctp: &mut [u8]) {
    if sctp.len() >= 12 {
        let mut p = SctpPacket::new_unchecked(&mut sctp[..]);
        p.fill_checksum();
    }
}

/// A packet of raw chunk headers with random types, flags and (often wrong) lengths.
fn raw_chunks(rng: &mut Rng) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&SPORT.to_be_bytes());
    b.extend_from_slice(&CPORT.to_be_bytes());
    b.extend_from_slice(&(rng.next_u64() as u32).to_be_bytes());
    b.extend_from_slice(&[0; 4]);
    for _ in 0..rng.below(5) {
        let kind = if rng.bernoulli(0.7) {
            rng.below(16) as u8
        } else {
            rng.next_u64() as u8
        };
        let body = bytes(rng, 40);
        let len: u16 = match rng.below(4) {
            0 => (4 + body.len()) as u16,
            1 => rng.below(8) as u16,
            2 => (4 + body.len() + rng.below(20) as usize) as u16,
            _ => rng.next_u64() as u16,
        };
        b.push(kind);
        b.push(rng.next_u64() as u8);
        b.extend_from_slice(&len.to_be_bytes());
        // Parameter-like TLVs inside the body sometimes.
        if rng.bernoulli(0.3) && body.len() >= 20 {
            b.extend_from_slice(&body[..16]);
            b.extend_from_slice(&(rng.next_u64() as u16).to_be_bytes());
            b.extend_from_slice(&(rng.below(64) as u16).to_be_bytes());
        } else {
            b.extend_from_slice(&body);
        }
        if rng.bernoulli(0.7) {
            while b.len() % 4 != 0 {
                b.push(0);
            }
        }
    }
    if rng.bernoulli(0.8) {
        fill_crc(&mut b);
    }
    b
}

/// The codec on one input: the wire crate's own fuzz entry point, then a parse and, when it
/// parses, an emit that must parse back to the same packet.
fn codec(bytes: &[u8], counts: &mut Counts) -> Option<SctpRepr> {
    counts.codec_inputs += 1;
    fuzz_parse_sctp(bytes);
    let packet = SctpPacket::new_checked(bytes).ok()?;
    let repr = SctpRepr::parse(&packet).ok()?;
    counts.codec_parsed += 1;
    let mut out = vec![0u8; repr.buffer_len()];
    let n = repr
        .emit(&mut out)
        .expect("a parsed packet must be emittable");
    assert_eq!(n, out.len(), "emit length");
    let again = SctpRepr::parse(&SctpPacket::new_checked(&out[..]).expect("emitted header"))
        .expect("an emitted packet must parse");
    assert_eq!(again, repr, "packet round trip");
    Some(repr)
}

fn to_bytes(pkt: &SctpRepr) -> Option<Vec<u8>> {
    let mut out = vec![0u8; pkt.buffer_len()];
    pkt.emit(&mut out).ok()?;
    Some(out)
}

/// Drains an association: transmissions (bounded), events, messages, metrics.
fn drain(
    a: &mut SctpAssociation,
    now: SimTime,
    wire: &mut Vec<(SimTime, Transmit)>,
    rng: &mut Rng,
) {
    for n in 0.. {
        let Some(t) = a.poll_transmit(now) else { break };
        assert!(n < 100_000, "poll_transmit does not terminate");
        wire.push((now + SimDuration::from_millis(1 + rng.below(120)), t));
    }
    while a.poll_event().is_some() {}
    while a.recv().is_some() {}
    while a.poll_metric().is_some() {}
    let _ = (
        a.status(),
        a.send_buffer_space(),
        a.readable(),
        a.poll_timeout(),
    );
}

fn drain_ep(ep: &mut SctpEndpoint, now: SimTime, wire: &mut Vec<(SimTime, Transmit)>) {
    for n in 0.. {
        let Some(t) = ep.poll_transmit() else { break };
        assert!(n < 100_000, "endpoint poll_transmit does not terminate");
        wire.push((now + SimDuration::from_millis(5), t));
    }
}

/// Collects the State Cookies an INIT ACK carries (for forged COOKIE ECHOs).
fn collect_cookies(pkt: &SctpRepr, cookies: &mut Vec<Vec<u8>>) {
    for c in &pkt.chunks {
        if let ChunkRepr::InitAck(ack) = c {
            if let Some(cookie) = ack.state_cookie() {
                if cookies.len() < 8 {
                    cookies.push(cookie.to_vec());
                }
            }
        }
    }
}

/// Which endpoint holds an association.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ep {
    Client,
    Server,
}

struct World {
    now: SimTime,
    client_ep: SctpEndpoint,
    server_ep: SctpEndpoint,
    /// The client association, in `client_ep` (never removed).
    client: AssocHandle,
    /// Associations the endpoints created from COOKIE ECHOs (more than one when COOKIE ECHOs
    /// repeat; the client endpoint's only when the case lets it listen), oldest first, at most
    /// four: older ones are removed from their endpoint.
    servers: Vec<(Ep, AssocHandle)>,
    cookies: Vec<Vec<u8>>,
}

impl World {
    fn ep(&mut self, ep: Ep) -> &mut SctpEndpoint {
        match ep {
            Ep::Client => &mut self.client_ep,
            Ep::Server => &mut self.server_ep,
        }
    }

    fn client(&self) -> Option<&SctpAssociation> {
        self.client_ep.assoc(self.client)
    }

    fn client_mut(&mut self) -> Option<&mut SctpAssociation> {
        self.client_ep.assoc_mut(self.client)
    }

    fn server(&self, i: usize) -> Option<&SctpAssociation> {
        let (ep, h) = *self.servers.get(i)?;
        match ep {
            Ep::Client => self.client_ep.assoc(h),
            Ep::Server => self.server_ep.assoc(h),
        }
    }

    fn server_mut(&mut self, i: usize) -> Option<&mut SctpAssociation> {
        let (ep, h) = *self.servers.get(i)?;
        self.ep(ep).assoc_mut(h)
    }

    /// Delivers a packet to the endpoint it is addressed to, which gives it to the
    /// association that owns it or answers it itself.
    fn deliver(&mut self, src: Ipv4Addr, dst: Ipv4Addr, pkt: &SctpRepr, counts: &mut Counts) {
        collect_cookies(pkt, &mut self.cookies);
        let now = self.now;
        let ep = Self::endpoint_for(dst, pkt.dst_port);
        let event = self.ep(ep).handle_packet(now, src, dst, pkt);
        self.after_event(ep, event, counts);
    }

    /// Delivers raw bytes as a datagram (`handle_datagram`: the receiver's chunk-by-chunk
    /// parse, RFC 9260 §3.2), so that chunks the codec cannot parse reach the receive paths
    /// that answer them (`association/invalid.rs`).
    fn deliver_bytes(&mut self, src: Ipv4Addr, dst: Ipv4Addr, bytes: &[u8], counts: &mut Counts) {
        let Ok(packet) = SctpPacket::new_checked(bytes) else {
            counts.parse_errors += 1;
            return;
        };
        let dst_port = packet.dst_port();
        if let Ok((prefix, fault)) = SctpRepr::parse_lenient(&packet) {
            collect_cookies(&prefix, &mut self.cookies);
            counts.chunk_faults += u64::from(fault.is_some());
        }
        let now = self.now;
        let ep = Self::endpoint_for(dst, dst_port);
        match self.ep(ep).handle_datagram(now, src, dst, bytes) {
            Ok(event) => self.after_event(ep, event, counts),
            Err(_) => counts.parse_errors += 1,
        }
    }

    fn endpoint_for(dst: Ipv4Addr, dst_port: u16) -> Ep {
        if [S1, S2].contains(&dst) || dst_port == SPORT {
            Ep::Server
        } else {
            Ep::Client
        }
    }

    fn after_event(&mut self, ep: Ep, event: Option<DatagramEvent>, counts: &mut Counts) {
        if matches!(event, Some(DatagramEvent::Association(_))) {
            return;
        }
        counts.endpoint_packets += 1;
        if let Some(DatagramEvent::NewAssociation(h)) = event {
            if ep == Ep::Server && self.servers.len() >= 4 {
                let (old_ep, old) = self.servers.remove(0);
                self.ep(old_ep).remove(old);
            }
            // The client endpoint does not listen unless the case says so.
            if self.servers.len() < 4 {
                self.servers.push((ep, h));
            } else {
                self.ep(ep).remove(h);
            }
        }
    }

    fn timeouts(&mut self, counts: &mut Counts) {
        let now = self.now;
        let mut all = vec![(Ep::Client, self.client)];
        all.extend(self.servers.iter().copied());
        for (ep, h) in all {
            let Some(a) = self.ep(ep).assoc_mut(h) else {
                continue;
            };
            let mut n = 0;
            while let Some(t) = a.poll_timeout().filter(|t| *t <= now) {
                a.handle_timeout(t);
                counts.timeouts += 1;
                n += 1;
                assert!(n < 100_000, "timers do not settle");
            }
            // A stale or early wake-up must be harmless.
            a.handle_timeout(now);
        }
    }
}

pub(crate) fn sctp_case(seed: u64) -> Counts {
    let mut rng = Rng::from_seed(seed);
    let mut counts = Counts {
        cases: 1,
        ..Counts::default()
    };

    // Codec on random bytes and on raw chunk sequences.
    for _ in 0..4 {
        let b = bytes(&mut rng, 150);
        codec(&b, &mut counts);
        let b = raw_chunks(&mut rng);
        codec(&b, &mut counts);
    }
    // Codec on forged packets, emitted, mutated, and wrapped in IPv4.
    for _ in 0..4 {
        let chunks: Vec<ChunkRepr> = (0..1 + rng.below(4))
            .map(|_| forge_chunk(&mut rng, Tsn(1000), Tsn(2000), &[]))
            .collect();
        let pkt = SctpRepr {
            src_port: CPORT,
            dst_port: SPORT,
            verification_tag: rng.next_u64() as u32,
            chunks,
        };
        let Some(mut b) = to_bytes(&pkt) else {
            continue;
        };
        if let Some(back) = codec(&b, &mut counts) {
            assert_eq!(back, pkt, "forged packet round trip");
        }
        mutate(&mut rng, &mut b, 0);
        codec(&b, &mut counts);
        if pkt.buffer_len() < 60_000 {
            let mut ip = sctp_packet(C1, S1, 64, 1, CPORT, SPORT, 7, &pkt.chunks);
            mutate(&mut rng, &mut ip, 20);
            counts.codec_inputs += 1;
            fuzz_parse_sctp(&ip);
        }
    }

    // Two endpoints and the client association.
    let mut now = SimTime::ZERO;
    let client_ep_addrs = if rng.bernoulli(0.5) {
        vec![C1, C2]
    } else {
        vec![C1]
    };
    let server_ep_addrs = if rng.bernoulli(0.5) {
        vec![S1, S2]
    } else {
        vec![S1]
    };
    let mut client_ep = SctpEndpoint::new(
        random_config(&mut rng),
        CPORT,
        client_ep_addrs,
        Rng::from_seed(rng.next_u64()),
    );
    client_ep.listen(rng.bernoulli(0.2));
    let mut server_ep = SctpEndpoint::new(
        random_config(&mut rng),
        SPORT,
        server_ep_addrs,
        Rng::from_seed(rng.next_u64()),
    );
    server_ep.listen(rng.bernoulli(0.9));
    let peer_addrs = if rng.bernoulli(0.5) {
        vec![S1, S2]
    } else {
        vec![S1]
    };
    let client = client_ep.connect(now, &peer_addrs, SPORT);
    let mut w = World {
        now,
        client_ep,
        server_ep,
        client,
        servers: Vec::new(),
        cookies: Vec::new(),
    };

    let loss = rng.uniform() * 0.25;
    let corrupt = rng.uniform() * 0.2;
    let forge_rate = rng.below(6) + 1;
    // Half the cases keep forged chunks that end an association (ABORT, SHUTDOWN*) out, so
    // that the associations live long enough to reach the data transfer and shutdown states.
    let lethal = rng.bernoulli(0.5);
    let mut wire: Vec<(SimTime, Transmit)> = Vec::new();
    let mut was_established = false;
    for _step in 0..300 {
        if let Some(a) = w.client_mut() {
            drain(a, now, &mut wire, &mut rng);
        }
        for i in 0..w.servers.len() {
            if let Some(a) = w.server_mut(i) {
                drain(a, now, &mut wire, &mut rng);
            }
        }
        drain_ep(&mut w.server_ep, now, &mut wire);
        drain_ep(&mut w.client_ep, now, &mut wire);
        let up = w
            .client()
            .is_some_and(|a| a.state().is_established_or_closing());
        was_established |= up;
        counts.established_steps += u64::from(up);

        match rng.below(24) {
            r if r < forge_rate => {
                // A forged packet, to any of the four parties.
                let target = rng.below(4);
                let client_tsn = w.client().map_or(Tsn(0), |a| a.initial_tsn());
                let client_vtag = w.client().map_or(0, |a| a.my_vtag());
                let (own, peer_tsn, vtag, src, dst, sport, dport) = match target {
                    0 => {
                        let s = w.server(0);
                        (
                            client_tsn,
                            s.map_or(Tsn(rng.next_u64() as u32), |s| s.initial_tsn()),
                            client_vtag,
                            pick(&mut rng, &[S1, S2]),
                            pick(&mut rng, &[C1, C2]),
                            SPORT,
                            CPORT,
                        )
                    }
                    1 if !w.servers.is_empty() => {
                        let i = rng.below(w.servers.len() as u64) as usize;
                        let s = w.server(i);
                        (
                            s.map_or(Tsn(0), |s| s.initial_tsn()),
                            client_tsn,
                            s.map_or(0, |s| s.my_vtag()),
                            pick(&mut rng, &[C1, C2]),
                            pick(&mut rng, &[S1, S2]),
                            CPORT,
                            SPORT,
                        )
                    }
                    _ => (
                        Tsn(rng.next_u64() as u32),
                        Tsn(rng.next_u64() as u32),
                        if rng.bernoulli(0.5) {
                            0
                        } else {
                            rng.next_u64() as u32
                        },
                        random_addr(&mut rng),
                        pick(&mut rng, &[S1, S2, C1]),
                        rng.next_u64() as u16,
                        pick(&mut rng, &[SPORT, CPORT]),
                    ),
                };
                let chunks: Vec<ChunkRepr> = (0..1 + rng.below(4))
                    .map(|_| forge_chunk(&mut rng, own, peer_tsn, &w.cookies))
                    .filter(|c| {
                        lethal
                            || !matches!(
                                c,
                                ChunkRepr::Abort { .. }
                                    | ChunkRepr::Shutdown { .. }
                                    | ChunkRepr::ShutdownAck
                                    | ChunkRepr::ShutdownComplete { .. }
                            )
                    })
                    .collect();
                let pkt = SctpRepr {
                    src_port: if rng.bernoulli(0.95) {
                        sport
                    } else {
                        rng.next_u64() as u16
                    },
                    dst_port: dport,
                    verification_tag: match rng.below(10) {
                        0 => rng.next_u64() as u32,
                        1 => 0,
                        _ => vtag,
                    },
                    chunks,
                };
                counts.forged += 1;
                w.now = now;
                if rng.bernoulli(0.5) {
                    // Straight in as a parsed packet (including ones the codec could not
                    // carry).
                    w.deliver(src, dst, &pkt, &mut counts);
                } else if let Some(mut b) = to_bytes(&pkt) {
                    match rng.below(4) {
                        0 => mutate(&mut rng, &mut b, 0),
                        1 => mutate_chunk_fields(&mut rng, &mut b),
                        _ => {}
                    }
                    codec(&b, &mut counts);
                    w.deliver_bytes(src, dst, &b, &mut counts);
                }
            }
            6 => {
                // Application calls.
                let a = if w.servers.is_empty() || rng.bernoulli(0.5) {
                    w.client_mut()
                } else {
                    let i = rng.below(w.servers.len() as u64) as usize;
                    w.server_mut(i)
                };
                // (Every association listed is in its endpoint's table.)
                let Some(a) = a else { continue };
                match rng.below(10) {
                    0..=3 => {
                        let n = pick(&mut rng, &[0, 1, 100, 1400, 5000, 70_000]);
                        let life = rng
                            .bernoulli(0.2)
                            .then(|| SimDuration::from_millis(rng.below(500)));
                        let _ = a.send(
                            now,
                            vec![1; n],
                            pick(&mut rng, &[0, 1, 9, 100]),
                            rng.bernoulli(0.3),
                            life,
                            0,
                        );
                    }
                    4 => a.shutdown(now),
                    5 if rng.bernoulli(0.2) => a.abort(now, b"fuzz"),
                    6 => {
                        let _ = a.set_primary(random_addr(&mut rng));
                        let _ = a.request_heartbeat(now, random_addr(&mut rng));
                    }
                    7 => {
                        let addr = random_addr(&mut rng);
                        let _ = match rng.below(3) {
                            0 => a.add_local_address(now, addr),
                            1 => a.delete_local_address(now, addr),
                            _ => a.request_peer_primary(now, addr),
                        };
                    }
                    8 => {
                        let _ = a.set_path_mtu(random_addr(&mut rng), rng.next_u64() as u16);
                        a.set_delayed_sack(
                            rng.bernoulli(0.5)
                                .then(|| SimDuration::from_millis(rng.below(600))),
                            rng.below(5) as u32,
                        );
                    }
                    _ => {
                        a.set_association_max_retrans(rng.below(12) as u32);
                    }
                }
            }
            7..=9 => {
                // Time passes; timers run at their deadlines.
                now += SimDuration::from_millis(pick(
                    &mut rng,
                    &[1, 20, 50, 200, 500, 1000, 3000, 60_000],
                ));
                w.now = now;
                w.timeouts(&mut counts);
            }
            _ => {
                // Deliver a packet from the path, maybe impaired.
                if wire.is_empty() {
                    now += SimDuration::from_millis(200);
                    w.now = now;
                    w.timeouts(&mut counts);
                    continue;
                }
                let idx = if rng.bernoulli(0.1) {
                    rng.below(wire.len() as u64) as usize
                } else {
                    (0..wire.len()).min_by_key(|&i| wire[i].0).unwrap_or(0)
                };
                let (t, tx) = wire.swap_remove(idx);
                now = now.max(t);
                w.now = now;
                if rng.bernoulli(loss) {
                    continue;
                }
                if rng.bernoulli(0.05) {
                    wire.push((now + SimDuration::from_millis(rng.below(50)), tx.clone()));
                }
                // The association's and endpoint's packets as they left them (CRC32c included).
                let mut b = tx.payload.clone();
                if rng.bernoulli(corrupt) {
                    if rng.bernoulli(0.5) {
                        mutate(&mut rng, &mut b, 0);
                    } else {
                        mutate_chunk_fields(&mut rng, &mut b);
                    }
                }
                counts.packets += 1;
                codec(&b, &mut counts);
                w.deliver_bytes(tx.src, tx.dst, &b, &mut counts);
            }
        }
    }
    // Also check an IPv4 wrapping of the last packets for the IPv4 + SCTP path.
    for (_, tx) in wire.iter().take(3) {
        if tx.payload.len() < 60_000 {
            let repr = Ipv4Repr {
                src_addr: tx.src,
                dst_addr: tx.dst,
                protocol: IpProtocol::Sctp,
                payload_len: tx.payload.len(),
                ttl: 64,
                ident: 0,
                dscp: 0,
                dont_frag: false,
            };
            let Ok(ip) = ipv4_datagram(&repr, &tx.payload) else {
                panic!("a packet below 60000 bytes fits an IPv4 packet");
            };
            let ok = Ipv4Packet::new_checked(&ip[..]).is_ok();
            assert!(ok, "an emitted IPv4 packet must parse");
            counts.codec_inputs += 1;
            fuzz_parse_sctp(&ip);
        }
    }
    counts.established += u64::from(was_established);
    counts.closed += u64::from(w.client().is_none_or(|a| a.is_closed()));
    counts
}
