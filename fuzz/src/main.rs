//! A fuzz driver that runs on stable Rust (cargo-fuzz needs nightly): it loops over random and
//! mutated inputs drawn from the kernel's reproducible `Rng` until a time budget runs out, and
//! reports the first panic with the seed that reproduces it.
//!
//! ```text
//! cargo run --release -p sctpsim-fuzz -- TARGET --minutes 10 [--seed N]
//! cargo run --release -p sctpsim-fuzz -- TARGET --replay SEED
//! ```
//!
//! Targets: `tcp` (below), `sctp` (the SCTP codec and receive path, `sctp.rs`), `aodv` (the
//! AODV codec, AODV routers in a small test network with an injector of forged packets, and a
//! standalone router, `aodv.rs`), `dsr` (the DSR codec and routers in a changing network,
//! `dsr.rs`), `olsr` (the OLSR codec and routers, `olsr.rs`) and `script` (the conformance
//! runner's packetdrill grammar, byte encoder and the receive paths it feeds, `script.rs`).
//!
//! Target `tcp` has three parts per case:
//! * the TCP codec (`sctpsim_wire::tcp::fuzz_parse_tcp`) on random bytes and on mutations of
//!   real segments;
//! * two connections talking through an adversarial path that drops, duplicates, reorders,
//!   corrupts, truncates and injects segments (bytes go through `handle_packet`, so the
//!   checksum and option parsing are exercised), with random timer wake-ups and application
//!   calls;
//! * forged segments (parsed `TcpRepr`s with random flags, sequence numbers near the
//!   connection's windows, random options and SACK blocks) fed straight into
//!   `handle_segment` in every state.
//!
//! After every input the connection's invariants are checked
//! (`sctpsim_proto::transport::tcp::fuzz_check_invariants`); `poll_transmit` must terminate.

mod aodv;
mod driver;
mod dsr;
mod olsr;
mod script;
mod sctp;

use std::net::{Ipv4Addr, SocketAddrV4};
use std::process::ExitCode;

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_proto::transport::tcp::{fuzz_check_invariants, TcpConfig, TcpConnection, TcpVariant};
use sctpsim_wire::tcp::{fuzz_parse_tcp, TcpFlags, TcpPacket, TcpRepr, TcpSeqNumber};
use sctpsim_wire::{ipv4_datagram, IpProtocol, Ipv4Packet, Ipv4Repr, TcpTimestamp};

const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

/// What one case did, summed into the report.
#[derive(Debug, Default, Clone)]
struct Counts {
    cases: u64,
    segments: u64,
    forged: u64,
    parse_errors: u64,
    codec_inputs: u64,
    established: u64,
    closed_cleanly: u64,
}

impl driver::Tally for Counts {
    fn add(&mut self, other: &Counts) {
        self.cases += other.cases;
        self.segments += other.segments;
        self.forged += other.forged;
        self.parse_errors += other.parse_errors;
        self.codec_inputs += other.codec_inputs;
        self.established += other.established;
        self.closed_cleanly += other.closed_cleanly;
    }

    fn progress(&self) -> String {
        format!(
            "{} cases, {} segments, {} forged, {} codec inputs",
            self.cases, self.segments, self.forged, self.codec_inputs
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} segments delivered ({} failed to parse), {} forged segments, {} codec inputs, {} cases reached ESTABLISHED, {} closed on both sides",
            self.segments, self.parse_errors, self.forged, self.codec_inputs, self.established, self.closed_cleanly
        )
    }
}

/// How this target damages packets (`driver::mutate`).
const MUTATION: driver::Mutation = driver::Mutation {
    max_extend: 40,
    overwrite_from: Some(20),
    max_overwrite: 12,
};

fn random_config(rng: &mut Rng) -> TcpConfig {
    let base = if rng.bernoulli(0.5) {
        TcpConfig::rfc()
    } else {
        TcpConfig::ns2()
    };
    let variant = [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack][rng.below(3) as usize];
    TcpConfig {
        mss: [1, 64, 536, 1000, 1460][rng.below(5) as usize],
        timestamps: rng.bernoulli(0.5),
        delayed_ack: rng.bernoulli(0.5),
        nagle: rng.bernoulli(0.5),
        limited_transmit: rng.bernoulli(0.5),
        window_scale: rng.bernoulli(0.3).then(|| rng.below(16) as u8),
        recv_buffer: [0, 1, 1000, 65_535, 1 << 20][rng.below(5) as usize],
        send_buffer: [0, 10, 100_000][rng.below(3) as usize],
        max_sack_blocks: rng.bernoulli(0.5).then(|| rng.below(6) as u8),
        max_retransmissions: rng.bernoulli(0.5).then(|| rng.below(8) as u32),
        initial_window: rng.bernoulli(0.5).then(|| rng.below(20) as u32),
        ..base.with_variant(variant)
    }
}

/// A forged segment for `conn` (on `port`, talking to `peer_port`) with acknowledgment numbers
/// near its send window, random sequence numbers, flags, options and SACK blocks.
fn forge(rng: &mut Rng, conn: &TcpConnection, port: u16, peer_port: u16) -> (TcpRepr, Vec<u8>) {
    let near = |rng: &mut Rng, base: u32| -> TcpSeqNumber {
        if rng.bernoulli(0.2) {
            TcpSeqNumber(rng.next_u64() as u32)
        } else {
            TcpSeqNumber(
                base.wrapping_add(rng.below(80_000) as u32)
                    .wrapping_sub(10_000),
            )
        }
    };
    let una = conn.iss().0.wrapping_add(conn.snd_una() as u32);
    let rcv_nxt = conn.irs().0.wrapping_add(conn.rcv_nxt() as u32);
    let len = if rng.bernoulli(0.5) {
        0
    } else {
        rng.below(3000) as usize
    };
    let mut sack_ranges = [None; 4];
    for slot in sack_ranges.iter_mut().take(rng.below(5) as usize) {
        let l = rng.next_u64() as u32;
        *slot = Some((l, l.wrapping_add(rng.below(5000) as u32)));
    }
    let repr = TcpRepr {
        src_port: if rng.bernoulli(0.95) {
            peer_port
        } else {
            rng.next_u64() as u16
        },
        dst_port: if rng.bernoulli(0.95) {
            port
        } else {
            rng.next_u64() as u16
        },
        seq_number: near(rng, rcv_nxt),
        ack_number: rng.bernoulli(0.9).then(|| near(rng, una)),
        flags: TcpFlags::from_bits(
            rng.next_u64() as u8 & if rng.bernoulli(0.7) { 0x19 } else { 0xff },
        )
        .without(TcpFlags::ACK),
        window_len: rng.next_u64() as u16,
        window_scale: rng.bernoulli(0.2).then(|| rng.next_u64() as u8),
        max_seg_size: rng.bernoulli(0.2).then(|| rng.next_u64() as u16),
        sack_permitted: rng.bernoulli(0.2),
        sack_ranges,
        timestamp: rng.bernoulli(0.5).then(|| TcpTimestamp {
            tsval: rng.next_u64() as u32,
            tsecr: rng.next_u64() as u32,
        }),
        payload_len: len,
    };
    (repr, vec![0x5a; len])
}

/// Drains a connection's output and events, checking termination and invariants.
fn drain(
    conn: &mut TcpConnection,
    now: SimTime,
    out: &mut Vec<(SimTime, Vec<u8>)>,
    src: Ipv4Addr,
    dst: Ipv4Addr,
    max_payload: usize,
) {
    for n in 0.. {
        let Some(t) = conn.poll_transmit(now, max_payload) else {
            break;
        };
        assert!(n < 100_000, "poll_transmit does not terminate");
        let header_len = TcpPacket::new_checked(&t.payload[..]).map(|p| p.header_len());
        assert!(header_len.is_ok_and(|h| h <= 60), "a whole segment");
        // The path carries it between the two hosts whatever addresses the connection used
        // (a listener that only heard forged segments does not know its peer's address, and
        // its checksum then fails at the peer).
        let ip = Ipv4Repr {
            src_addr: src,
            dst_addr: dst,
            protocol: IpProtocol::Tcp,
            payload_len: t.payload.len(),
            ttl: 64,
            ident: n as u16,
            dscp: 0,
            dont_frag: true,
        };
        let Ok(bytes) = ipv4_datagram(&ip, &t.payload) else {
            panic!("a segment of at most 65535 − 60 bytes of payload fits IPv4");
        };
        out.push((now, bytes));
    }
    while conn.poll_event().is_some() {}
    while conn.poll_metric().is_some() {}
    fuzz_check_invariants(conn);
}

/// One case: a pair of connections through an adversarial path plus forged input.
fn tcp_case(seed: u64) -> Counts {
    let mut rng = Rng::from_seed(seed);
    let mut counts = Counts {
        cases: 1,
        ..Counts::default()
    };
    // Codec on random bytes.
    for _ in 0..4 {
        let len = rng.below(120) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        fuzz_parse_tcp(&bytes);
        counts.codec_inputs += 1;
    }
    let client_cfg = random_config(&mut rng);
    let server_cfg = random_config(&mut rng);
    let max_payload = [1, 100, 1460, 65_535][rng.below(4) as usize];
    let (a, b) = (SocketAddrV4::new(A, 40_000), SocketAddrV4::new(B, 80));
    let mut client =
        TcpConnection::new_client(client_cfg, a, b, TcpConnection::random_iss(&mut rng));
    let mut server =
        TcpConnection::new_listener(server_cfg, b, TcpConnection::random_iss(&mut rng));
    if rng.bernoulli(0.7) {
        client.send_backlogged(Some(rng.below(200_000)));
    } else {
        let n = rng.below(5000) as usize;
        client.send(&vec![7u8; n]);
    }
    if rng.bernoulli(0.7) {
        client.close();
    }
    // In-flight packets: (arrival time, to server?, bytes).
    let mut wire: Vec<(SimTime, bool, Vec<u8>)> = Vec::new();
    let mut now = SimTime::ZERO;
    let loss = rng.uniform() * 0.3;
    let mut was_established = false;
    for _step in 0..400 {
        // Transmit.
        let mut out = Vec::new();
        drain(&mut client, now, &mut out, A, B, max_payload);
        for (t, bytes) in out.drain(..) {
            wire.push((t + SimDuration::from_millis(1 + rng.below(80)), true, bytes));
        }
        drain(&mut server, now, &mut out, B, A, max_payload);
        for (t, bytes) in out.drain(..) {
            wire.push((
                t + SimDuration::from_millis(1 + rng.below(80)),
                false,
                bytes,
            ));
        }
        was_established |= client.state().is_synchronized() && server.state().is_synchronized();
        // Pick what happens next.
        match rng.below(20) {
            0 => {
                // Forged segment into one side.
                let to_server = rng.bernoulli(0.5);
                let (conn, port, peer) = if to_server {
                    (&mut server, 80, 40_000)
                } else {
                    (&mut client, 40_000, 80)
                };
                let (repr, payload) = forge(&mut rng, conn, port, peer);
                conn.handle_segment(now, &repr, &payload);
                counts.forged += 1;
            }
            1 => {
                // Application calls.
                let conn = if rng.bernoulli(0.5) {
                    &mut client
                } else {
                    &mut server
                };
                match rng.below(6) {
                    0 => {
                        conn.send(&vec![3u8; rng.below(4000) as usize]);
                    }
                    1 => conn.close(),
                    2 if rng.bernoulli(0.1) => conn.abort(),
                    3 => {
                        let mut buf = vec![0u8; rng.below(5000) as usize];
                        conn.recv(&mut buf);
                    }
                    _ => {
                        conn.discard_received();
                    }
                }
            }
            2 | 3 => {
                // Time passes; timers run at their deadlines.
                now += SimDuration::from_millis(rng.below(5000));
                for conn in [&mut client, &mut server] {
                    while let Some(t) = conn.poll_timeout().filter(|t| *t <= now) {
                        conn.handle_timeout(t);
                    }
                    conn.handle_timeout(now);
                }
            }
            _ => {
                // Deliver the earliest packet, maybe impaired.
                if wire.is_empty() {
                    now += SimDuration::from_millis(100);
                    for conn in [&mut client, &mut server] {
                        if let Some(t) = conn.poll_timeout() {
                            if t <= now {
                                conn.handle_timeout(now);
                            }
                        }
                    }
                    continue;
                }
                let idx = if rng.bernoulli(0.1) {
                    rng.below(wire.len() as u64) as usize
                } else {
                    (0..wire.len()).min_by_key(|&i| wire[i].0).unwrap_or(0)
                };
                let (t, to_server, mut bytes) = wire.swap_remove(idx);
                now = now.max(t);
                if rng.bernoulli(loss) {
                    continue;
                }
                if rng.bernoulli(0.05) {
                    wire.push((
                        now + SimDuration::from_millis(rng.below(50)),
                        to_server,
                        bytes.clone(),
                    ));
                }
                if rng.bernoulli(0.15) {
                    driver::mutate(&mut rng, &mut bytes, MUTATION);
                }
                fuzz_parse_tcp(&bytes);
                counts.codec_inputs += 1;
                let Ok(ip) = Ipv4Packet::new_checked(&bytes[..]) else {
                    counts.parse_errors += 1;
                    continue;
                };
                fuzz_parse_tcp(ip.payload());
                let (conn, src, dst) = if to_server {
                    (&mut server, A, B)
                } else {
                    (&mut client, B, A)
                };
                counts.segments += 1;
                if conn.handle_packet(now, src, dst, ip.payload()).is_err() {
                    counts.parse_errors += 1;
                }
            }
        }
        fuzz_check_invariants(&client);
        fuzz_check_invariants(&server);
    }
    counts.established += u64::from(was_established);
    counts.closed_cleanly += u64::from(client.is_closed() && server.is_closed());
    counts
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("tcp") => driver::run("tcp", &args[1..], 0x5eed, tcp_case),
        Some("sctp") => driver::run("sctp", &args[1..], 0x5c79, sctp::sctp_case),
        Some("aodv") => driver::run("aodv", &args[1..], 0xa0d7, aodv::aodv_case),
        Some("dsr") => driver::run("dsr", &args[1..], 0xd5a, dsr::dsr_case),
        Some("olsr") => driver::run("olsr", &args[1..], 0x0154, olsr::olsr_case),
        Some("script") => driver::run("script", &args[1..], 0x5c41, script::script_case),
        _ => driver::usage(),
    }
}
