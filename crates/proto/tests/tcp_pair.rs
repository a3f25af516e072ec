//! Two TCP endpoints over a simulated path: exact in-order delivery and a clean close under
//! loss, duplication, reordering and corruption, for every variant and both profiles.

mod common;

use common::tcp_pair::{Pair, PathConfig};
use sctpsim_kernel::{BitRate, Rng, SimDuration, SimTime};
use sctpsim_proto::transport::tcp::{backlog_byte, State, TcpConfig, TcpEvent, TcpVariant};

const VARIANTS: [TcpVariant; 4] = [
    TcpVariant::Reno,
    TcpVariant::NewReno,
    TcpVariant::Sack,
    TcpVariant::Sack1,
];

fn path(latency_ms: u64, mbps: u64) -> PathConfig {
    PathConfig::clean(
        SimDuration::from_millis(latency_ms),
        BitRate(mbps * 1_000_000),
    )
}

fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::from_seed(seed ^ 0xdada);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// Checks what every run must end with: the bytes, in order, and both sides closed cleanly.
fn assert_clean(pair: &Pair, sent: &[u8], what: &str) {
    assert_eq!(pair.server.received.len(), sent.len(), "{what}: length");
    assert!(pair.server.received == sent, "{what}: content differs");
    for (name, end) in [("client", &pair.client), ("server", &pair.server)] {
        assert_eq!(end.conn.state(), State::Closed, "{what}: {name} state");
        assert!(
            end.saw(TcpEvent::Connected),
            "{what}: {name} never connected"
        );
        assert!(end.saw(TcpEvent::Closed), "{what}: {name} not closed");
        assert!(!end.saw(TcpEvent::Reset), "{what}: {name} was reset");
        assert!(!end.saw(TcpEvent::TimedOut), "{what}: {name} timed out");
    }
    assert!(pair.client.conn.all_acked(), "{what}: data unacknowledged");
}

#[test]
fn clean_transfer_every_variant_and_profile() {
    for variant in VARIANTS {
        for (profile, cfg) in [("rfc", TcpConfig::rfc()), ("ns2", TcpConfig::ns2())] {
            let cfg = cfg.with_variant(variant);
            let mut pair = Pair::new(cfg.clone(), cfg, path(10, 10), path(10, 10), 1);
            let sent = data(200_000, 1);
            pair.client_sends(sent.clone());
            assert!(pair.run_to_close(SimTime::ZERO + SimDuration::from_secs(1000)));
            let what = format!("{profile}/{}", variant.name());
            assert_clean(&pair, &sent, &what);
            let stats = pair.client.conn.stats();
            assert_eq!(stats.retransmissions, 0, "{what}");
            assert_eq!(stats.timeouts, 0, "{what}");
            assert_eq!(stats.bytes_acked, 200_000, "{what}");
            assert!(stats.rtt_samples > 0, "{what}");
            // 2 · 10 ms propagation plus serialisation and queueing.
            let srtt = pair.client.conn.srtt().unwrap();
            assert!(srtt >= SimDuration::from_millis(20), "{what}: {srtt:?}");
            assert!(srtt < SimDuration::from_millis(200), "{what}: {srtt:?}");
        }
    }
}

#[test]
fn backlogged_file_is_delivered_exactly() {
    let cfg = TcpConfig::rfc().with_variant(TcpVariant::Sack);
    let mut pair = Pair::new(cfg.clone(), cfg, path(5, 100), path(5, 100), 2);
    pair.client_sends_backlog(300_001);
    assert!(pair.run_to_close(SimTime::ZERO + SimDuration::from_secs(1000)));
    let expected: Vec<u8> = (0..300_001u64).map(backlog_byte).collect();
    assert_clean(&pair, &expected, "backlog");
}

/// One impaired run; returns the client's retransmissions and the receivers' malformed
/// counts.
fn impaired_run(seed: u64) -> (u64, u64) {
    let mut rng = Rng::from_seed(seed);
    let variant = VARIANTS[(seed % 4) as usize];
    let base = if seed.is_multiple_of(2) {
        TcpConfig::rfc()
    } else {
        TcpConfig::ns2()
    };
    let mut cfg = base.with_variant(variant);
    // Vary the knobs the studies turn.
    cfg.delayed_ack = rng.bernoulli(0.5);
    cfg.timestamps = rng.bernoulli(0.5);
    cfg.limited_transmit = rng.bernoulli(0.5);
    cfg.max_sack_blocks = Some(1 + rng.below(4) as u8);
    let impaired = |rng: &mut Rng| PathConfig {
        latency: SimDuration::from_millis(1 + rng.below(50)),
        rate: BitRate(1_000_000 * (1 + rng.below(20))),
        loss: rng.uniform() * 0.10,
        duplicate: rng.uniform() * 0.05,
        reorder: rng.uniform() * 0.10,
        reorder_delay: SimDuration::from_millis(1 + rng.below(30)),
        corrupt: rng.uniform() * 0.02,
    };
    let forward = impaired(&mut rng);
    let reverse = impaired(&mut rng);
    let len = 1 + rng.below(60_000) as usize;
    let mut pair = Pair::new(cfg.clone(), cfg, forward.clone(), reverse, seed);
    let sent = data(len, seed);
    pair.client_sends(sent.clone());
    let limit = SimTime::ZERO + SimDuration::from_secs(20_000);
    let finished = pair.run_to_close(limit);
    let what = format!(
        "seed {seed} ({} {}, loss {:.3}, {} bytes)",
        if seed.is_multiple_of(2) { "rfc" } else { "ns2" },
        variant.name(),
        forward.loss,
        len
    );
    assert!(
        finished,
        "{what}: not closed by {limit}: client {} server {}",
        pair.client.conn.state(),
        pair.server.conn.state()
    );
    assert_clean(&pair, &sent, &what);
    let malformed = pair.client.conn.stats().malformed_dropped
        + pair.server.conn.stats().malformed_dropped
        + pair.client.ip_dropped
        + pair.server.ip_dropped;
    (pair.client.conn.stats().retransmissions, malformed)
}

/// The property: across at least 200 seeds of random loss (up to 10 %), duplication
/// and reordering the receiver gets exactly the bytes sent, in order, and the connection
/// closes cleanly.
#[test]
fn impaired_paths_deliver_exactly_and_close_cleanly_300_seeds() {
    let mut retransmissions = 0;
    let mut malformed = 0;
    for seed in 0..300 {
        let (r, m) = impaired_run(seed);
        retransmissions += r;
        malformed += m;
    }
    // The impairments really happened.
    assert!(retransmissions > 300, "{retransmissions}");
    assert!(malformed > 20, "{malformed}");
}
