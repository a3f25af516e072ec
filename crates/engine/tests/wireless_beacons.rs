//! `[beacons]`: broadcast beacons reach every neighbour in range and nobody else, are never
//! forwarded nor answered with ICMP, and are deterministic.

mod common;

use common::{load_err, run_seeded, without_wall};

fn ring(count: u32, radius: f64) -> String {
    format!(
        r#"
[simulation]
duration = "60s"
sample_interval = "10s"
[nodes]
count = {count}
[mobility]
placement = "ring"
radius_m = {radius}
[beacons]
interval = {{ min = "1s", max = "2s" }}
"#
    )
}

#[test]
fn every_neighbour_hears_every_beacon() {
    let r = run_seeded(&ring(5, 10.0), &[], None);
    let n = &r.summary.network;
    // 5 nodes × 60 s / 1.5 s on average: about 200 beacons.
    assert!(n.beacons_sent > 170 && n.beacons_sent < 230, "{n:?}");
    // All five within range of each other: four receivers per beacon, a few lost to two
    // beacons starting in the same slot.
    assert!(n.beacons_received <= 4 * n.beacons_sent);
    assert!(
        n.beacons_received as f64 >= 0.97 * 4.0 * n.beacons_sent as f64,
        "{n:?}"
    );
    assert_eq!((n.icmp_sent, n.no_route_drops, n.ttl_drops), (0, 0, 0));
    // Broadcast data frames: no RTS, no Ack, no retry.
    for m in &r.summary.macs {
        assert_eq!((m.tx_rts, m.tx_ack, m.tx_data_retries), (0, 0, 0), "{m:?}");
        assert!(m.tx_data > 30);
    }
    let sent = |r: &sctpsim_engine::RunResult, metric: &str| {
        let ts = &r.timeseries;
        (0..ts.len())
            .filter(|&i| ts.metric[i] == metric)
            .map(|i| ts.value[i])
            .next_back()
    };
    assert_eq!(sent(&r, "beacons_sent"), Some(n.beacons_sent as f64));
    assert_eq!(
        sent(&r, "beacons_received"),
        Some(n.beacons_received as f64)
    );
    // Same seed, same run; another seed, other beacon times.
    let again = run_seeded(&ring(5, 10.0), &[], None);
    assert_eq!(without_wall(&r), without_wall(&again));
    let other = run_seeded(&ring(5, 10.0), &[], Some(9));
    assert_ne!(without_wall(&r), without_wall(&other));
}

#[test]
fn out_of_range_nodes_hear_nothing_and_stop_is_honoured() {
    // Two nodes 300 m apart: beyond the ns-2 radio's 250 m reception range.
    let far = ring(2, 300.0);
    let r = run_seeded(&far, &[], None);
    assert!(r.summary.network.beacons_sent > 50);
    assert_eq!(r.summary.network.beacons_received, 0);
    let r = run_seeded(&ring(2, 100.0), &[("beacons.stop", "\"10s\"")], None);
    let n = &r.summary.network;
    // At most 2 × (10 s / 1 s) beacons before 10 s.
    assert!(n.beacons_sent <= 20 && n.beacons_sent >= 8, "{n:?}");
    assert_eq!(n.beacons_received, n.beacons_sent);
}

#[test]
fn bad_beacons_name_the_field() {
    let base = ring(3, 10.0);
    let e = load_err(
        &base,
        &[("beacons.interval", "{ min = \"5s\", max = \"2s\" }")],
    );
    assert!(e.starts_with("beacons.interval.max:"), "{e}");
    let e = load_err(
        &base,
        &[("beacons.interval", "{ min = \"0s\", max = \"2s\" }")],
    );
    assert!(e.starts_with("beacons.interval.min:"), "{e}");
    let e = load_err(&base, &[("beacons.payload_bytes", "3000")]);
    assert!(e.starts_with("beacons.payload_bytes:"), "{e}");
    let e = load_err(&base, &[("beacons.stop", "\"0s\"")]);
    assert!(e.starts_with("beacons.stop:"), "{e}");
}
