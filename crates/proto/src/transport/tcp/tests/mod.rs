//! Protocol unit tests, one file per state group (DESIGN.md §8 tier 2), in the style of
//! smoltcp's `socket/tcp.rs` tests: helpers build a connection in a given state, then segments
//! are fed in (`input`) and the segments it sends are checked (`output`, `expect_*`).
//!
//! The connection under test is always the local side (port 80, ISS 10 000); the remote
//! side's sequence numbers start just below 2^32 so that every test crosses the wrap.

mod close;
mod data;
mod fuzz;
mod handshake;
mod loss_recovery;
mod malformed;

use std::net::{Ipv4Addr, SocketAddrV4};

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::tcp::{TcpFlags, TcpPacket, TcpRepr, TcpSeqNumber, TcpTimestamp};

use super::{State, TcpConfig, TcpConnection, TcpEvent, TcpMetric, TcpVariant};

pub(super) const LOCAL_ADDR: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
pub(super) const REMOTE_ADDR: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
pub(super) const LOCAL_PORT: u16 = 80;
pub(super) const REMOTE_PORT: u16 = 40_000;
pub(super) const LOCAL_ISS: TcpSeqNumber = TcpSeqNumber(10_000);
/// The remote ISS: its data starts at 2^32 - 100 and wraps after 100 bytes.
pub(super) const REMOTE_ISS: TcpSeqNumber = TcpSeqNumber(u32::MAX - 100);
pub(super) const MSS: usize = 1000;

/// Milliseconds since the start.
pub(super) fn ms(v: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(v)
}

/// The simplest configuration: MSS 1000, no timestamps, no delayed ACKs, no Nagle, no
/// limited transmit, IW 4 segments, 64 KiB buffers, RFC timers.
pub(super) fn cfg(variant: TcpVariant) -> TcpConfig {
    TcpConfig {
        variant,
        mss: MSS as u16,
        initial_window: Some(4),
        timestamps: false,
        delayed_ack: false,
        nagle: false,
        limited_transmit: false,
        ..TcpConfig::rfc()
    }
}

/// Local send offset `off` as a sequence number (1 = first data byte).
pub(super) fn lseq(off: u64) -> TcpSeqNumber {
    LOCAL_ISS.wrapping_add(off as u32)
}

/// Remote send offset `off` as a sequence number.
pub(super) fn rseq(off: u64) -> TcpSeqNumber {
    REMOTE_ISS.wrapping_add(off as u32)
}

/// A segment from the remote side with sequence offset `seq` acknowledging local offset `ack`.
pub(super) fn seg(seq: u64, ack: Option<u64>) -> TcpRepr {
    TcpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        seq_number: rseq(seq),
        ack_number: ack.map(lseq),
        window_len: 65_535,
        ..TcpRepr::default()
    }
}

/// A remote ACK of local offset `ack`, with SACK blocks given as local offsets.
pub(super) fn ack_with_sack(ack: u64, blocks: &[(u64, u64)]) -> TcpRepr {
    let mut repr = seg(1, Some(ack));
    for (slot, (l, r)) in repr.sack_ranges.iter_mut().zip(blocks) {
        *slot = Some((lseq(*l).0, lseq(*r).0));
    }
    repr
}

/// The connection's own address and port.
pub(super) fn local() -> SocketAddrV4 {
    SocketAddrV4::new(LOCAL_ADDR, LOCAL_PORT)
}

/// The remote side's address and port.
pub(super) fn remote() -> SocketAddrV4 {
    SocketAddrV4::new(REMOTE_ADDR, REMOTE_PORT)
}

/// Everything the connection sends at `now`, parsed back from the encoded segments (so every
/// test also checks the header, options and checksum the connection emits).
pub(super) fn output(conn: &mut TcpConnection, now: SimTime) -> Vec<(TcpRepr, Vec<u8>)> {
    let mut out = Vec::new();
    while let Some(t) = conn.poll_transmit(now, 65_535) {
        let segment = TcpPacket::new_checked(&t.payload[..]).expect("a whole segment");
        let repr = TcpRepr::parse(&segment, t.src, t.dst).expect("a valid checksum");
        out.push((repr, segment.payload().to_vec()));
        assert!(out.len() < 10_000, "poll_transmit does not terminate");
    }
    out
}

/// Feeds a segment with payload.
pub(super) fn input(conn: &mut TcpConnection, now: SimTime, repr: &TcpRepr, payload: &[u8]) {
    let repr = TcpRepr {
        payload_len: payload.len(),
        ..*repr
    };
    conn.handle_segment(now, &repr, payload);
}

/// Asserts that exactly one pure ACK of remote offset `ack` is sent and returns it.
pub(super) fn expect_ack(conn: &mut TcpConnection, now: SimTime, ack: u64) -> TcpRepr {
    let out = output(conn, now);
    assert_eq!(out.len(), 1, "expected one ACK, got {out:?}");
    let (repr, payload) = &out[0];
    assert!(payload.is_empty());
    assert_eq!(repr.ack_number, Some(rseq(ack)), "ACK number");
    assert!(!repr.flags.contains(TcpFlags::SYN) && !repr.flags.contains(TcpFlags::FIN));
    *repr
}

/// Asserts that nothing is sent.
pub(super) fn expect_nothing(conn: &mut TcpConnection, now: SimTime) {
    let out = output(conn, now);
    assert!(out.is_empty(), "expected nothing, got {out:?}");
}

/// Local send offsets of the data segments in `out`.
pub(super) fn data_offsets(out: &[(TcpRepr, Vec<u8>)]) -> Vec<u64> {
    out.iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|(r, _)| u64::from(r.seq_number.0.wrapping_sub(LOCAL_ISS.0)))
        .collect()
}

/// Drains the events.
pub(super) fn events(conn: &mut TcpConnection) -> Vec<TcpEvent> {
    std::iter::from_fn(|| conn.poll_event()).collect()
}

/// Connection events (the metrics have their own queue, [`metrics`]).
pub(super) fn conn_events(conn: &mut TcpConnection) -> Vec<TcpEvent> {
    events(conn)
}

/// Drains the metrics.
pub(super) fn metrics(conn: &mut TcpConnection) -> Vec<TcpMetric> {
    std::iter::from_fn(|| conn.poll_metric()).collect()
}

/// A listener that received the remote SYN (with `syn` options) and sent its SYN-ACK.
pub(super) fn syn_received(config: TcpConfig, syn: TcpRepr) -> TcpConnection {
    let mut conn = TcpConnection::new_listener(config, local(), LOCAL_ISS);
    input(&mut conn, ms(0), &syn, &[]);
    assert_eq!(conn.state(), State::SynReceived);
    let out = output(&mut conn, ms(0));
    assert_eq!(out.len(), 1);
    conn
}

/// The remote SYN without options except MSS.
pub(super) fn remote_syn() -> TcpRepr {
    TcpRepr {
        flags: TcpFlags::SYN,
        max_seg_size: Some(MSS as u16),
        ..seg(0, None)
    }
}

/// An ESTABLISHED connection opened passively (as the server), with an RTT sample of 100 ms
/// from the handshake, and no pending output or events.
pub(super) fn established(config: TcpConfig) -> TcpConnection {
    let mut syn = remote_syn();
    if config.sack_permitted {
        syn.sack_permitted = true;
    }
    if config.timestamps {
        syn.timestamp = Some(TcpTimestamp { tsval: 1, tsecr: 0 });
    }
    let mut conn = syn_received(config.clone(), syn);
    let mut ack = seg(1, Some(1));
    if config.timestamps {
        ack.timestamp = Some(TcpTimestamp { tsval: 2, tsecr: 0 });
    }
    input(&mut conn, ms(100), &ack, &[]);
    assert_eq!(conn.state(), State::Established);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Connected]);
    expect_nothing(&mut conn, ms(100));
    conn
}

/// ESTABLISHED, having sent `segments` full segments (offsets 1, 1001, ...) at 100 ms, none
/// acknowledged yet. The congestion window is opened enough for them.
pub(super) fn established_with_flight(config: TcpConfig, segments: u64) -> TcpConnection {
    let config = TcpConfig {
        initial_window: Some(segments as u32),
        ..config
    };
    let mut conn = established(config);
    conn.send_backlogged(None);
    let out = output(&mut conn, ms(100));
    assert_eq!(out.len() as u64, segments);
    let _ = events(&mut conn);
    conn
}

/// Offset of the `i`-th full segment (0-based).
pub(super) fn off(i: u64) -> u64 {
    1 + i * MSS as u64
}
