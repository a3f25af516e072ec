//! Six non-consecutive segments dropped from one window (the Atiquzzaman & Fu loss pattern):
//! Reno needs a retransmission timeout; NewReno and SACK (RFC 6675 and ns-2's Sack1) recover
//! without one, and the recovery times order Reno > NewReno >= SACK.
//!
//! Run with `--nocapture` to print the table recorded in `docs/models/tcp.md`.

mod common;

use common::tcp_pair::{Pair, PathConfig};
use sctpsim_kernel::{BitRate, SimDuration, SimTime};
use sctpsim_proto::transport::tcp::{TcpConfig, TcpEvent, TcpVariant};

/// Outcome of one run.
#[derive(Debug, Clone, Copy)]
struct Recovery {
    /// From the first dropped transmission to the cumulative ACK covering the last dropped
    /// segment.
    time: SimDuration,
    timeouts: u64,
    fast_retransmits: u64,
    retransmissions: u64,
    /// When the whole transfer was acknowledged.
    completion: SimTime,
}

/// Transfers 300 kB over 10 Mbit/s with 20 ms one-way latency, dropping the first
/// transmission of data segments 30, 32, ..., 40 (one window: the sender is past slow start's
/// first rounds and about 40 segments are in flight).
fn run(cfg: TcpConfig, drops: &[u64]) -> Recovery {
    let path = PathConfig::clean(SimDuration::from_millis(20), BitRate(10_000_000));
    let mut pair = Pair::new(cfg.clone(), cfg, path.clone(), path, 6);
    pair.scripted_drops = drops.iter().copied().collect();
    pair.client_sends_backlog(300_000);
    let limit = SimTime::ZERO + SimDuration::from_secs(600);
    // Run until every scripted drop happened and the last dropped segment is acknowledged.
    let mut recovered_at = None;
    pair.run_until(limit, |p| {
        let dropped = p.dropped_data();
        if dropped.len() < drops.len() {
            return false;
        }
        let (_, offset, len) = dropped[dropped.len() - 1];
        if recovered_at.is_none() && p.client.conn.snd_una() >= offset + len as u64 {
            recovered_at = Some(p.now);
        }
        recovered_at.is_some()
    });
    let dropped = pair.dropped_data();
    assert_eq!(dropped.len(), drops.len(), "every scripted drop happened");
    let first_drop = dropped[0].0;
    let recovered = recovered_at.expect("the losses were recovered");
    assert!(pair.run_to_close(limit), "the transfer completes");
    let completion = pair
        .client
        .events
        .iter()
        .find(|(_, e)| *e == TcpEvent::PeerClosed)
        .map_or(pair.now, |(t, _)| *t);
    let stats = pair.client.conn.stats();
    Recovery {
        time: recovered - first_drop,
        timeouts: stats.timeouts,
        fast_retransmits: stats.fast_retransmits,
        retransmissions: stats.retransmissions,
        completion,
    }
}

const DROPS: [u64; 6] = [30, 32, 34, 36, 38, 40];

fn table(profile: &str, base: TcpConfig) -> Vec<(TcpVariant, Recovery)> {
    let mut rows = Vec::new();
    for variant in [
        TcpVariant::Reno,
        TcpVariant::NewReno,
        TcpVariant::Sack,
        TcpVariant::Sack1,
    ] {
        let r = run(base.clone().with_variant(variant), &DROPS);
        println!(
            "| {profile} | {:7} | {:8.1} | {} | {} | {:2} | {:6.3} |",
            variant.name(),
            r.time.as_secs_f64() * 1e3,
            r.timeouts,
            r.fast_retransmits,
            r.retransmissions,
            r.completion.as_secs_f64()
        );
        rows.push((variant, r));
    }
    rows
}

#[test]
fn six_losses_rfc_profile() {
    println!("| profile | variant | recovery (ms) | RTOs | fast retransmits | retransmissions | transfer done (s) |");
    let rows = table("rfc", TcpConfig::rfc());
    let (reno, newreno, sack) = (rows[0].1, rows[1].1, rows[2].1);
    assert!(reno.timeouts >= 1, "Reno needs a timeout: {reno:?}");
    assert_eq!(
        newreno.timeouts, 0,
        "NewReno without a timeout: {newreno:?}"
    );
    assert_eq!(sack.timeouts, 0, "SACK without a timeout: {sack:?}");
    assert_eq!(
        newreno.fast_retransmits, 1,
        "one recovery episode: {newreno:?}"
    );
    assert_eq!(sack.fast_retransmits, 1, "one recovery episode: {sack:?}");
    // Exactly the six segments are retransmitted by NewReno and SACK.
    assert_eq!(newreno.retransmissions, 6, "{newreno:?}");
    assert_eq!(sack.retransmissions, 6, "{sack:?}");
    assert!(reno.time > newreno.time, "{reno:?} vs {newreno:?}");
    assert!(newreno.time >= sack.time, "{newreno:?} vs {sack:?}");
}

/// The ns-2 profile (window_ 20, minrto_ 0.2 s, Impatient NewReno) for the record: SACK
/// still recovers without a timeout and fastest; the table shows NewReno's fate.
#[test]
fn six_losses_ns2_profile() {
    let rows = table("ns2", TcpConfig::ns2());
    let (reno, newreno, sack) = (rows[0].1, rows[1].1, rows[2].1);
    assert!(reno.timeouts >= 1, "Reno needs a timeout: {reno:?}");
    assert_eq!(sack.timeouts, 0, "SACK without a timeout: {sack:?}");
    assert!(reno.time > sack.time && newreno.time >= sack.time);
}

/// ns-2.1b8 (`ns2_2001`: 100 ms ticks, minimum RTO 1 s, window_ 20, three SACK blocks), the
/// Mobile IP study's simulator: Reno waits for a timeout, ns-2's Sack1 does not.
#[test]
fn six_losses_ns2_2001_profile() {
    let rows = table("ns2-2001", TcpConfig::ns2_2001());
    let (reno, sack1) = (rows[0].1, rows[3].1);
    assert!(reno.timeouts >= 1, "Reno needs a timeout: {reno:?}");
    assert_eq!(sack1.timeouts, 0, "Sack1 without a timeout: {sack1:?}");
    assert_eq!(sack1.retransmissions, 6, "{sack1:?}");
    assert!(reno.time > sack1.time, "{reno:?} vs {sack1:?}");
}
