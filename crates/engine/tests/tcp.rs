//! TCP flows through the engine: exact delivery of a file, the six-losses ordering, scenario
//! checks of TCP fields.

mod common;

use common::{run_with, series};
use sctpsim_engine::load;
use sctpsim_engine::scenario::overrides::value_from_cli;

const PATH: &str = r#"
[simulation]
duration = "30s"
[[node]]
name = "a"
[[node]]
name = "r"
[[node]]
name = "b"
[[link]]
between = ["a", "r"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["r", "b"]
bandwidth = "2Mbps"
delay = "20ms"
[[flows]]
src = "a"
dst = "b"
transport = "tcp-newreno"
app = "file"
size_bytes = 1000000
"#;

#[test]
fn a_file_arrives_exactly_under_random_loss_for_every_variant() {
    for transport in [
        "tcp-tahoe",
        "tcp-reno",
        "tcp-newreno",
        "tcp-sack",
        "tcp-sack1",
    ] {
        for seed in 1..=5u64 {
            let r = run_with(
                PATH,
                &[
                    ("flows[0].transport", transport),
                    ("link[1].loss", "{ model = \"bernoulli\", p = 0.03 }"),
                    ("simulation.seed", &seed.to_string()),
                ],
            );
            let f = &r.summary.flows[0];
            assert_eq!(f.bytes_delivered, 1_000_000, "{transport} seed {seed}");
            assert!(
                f.retransmissions > 0,
                "{transport} seed {seed}: losses must cause retransmissions"
            );
        }
    }
}

#[test]
fn lossless_transfer_has_no_retransmissions_and_records_sender_metrics() {
    let r = run_with(PATH, &[]);
    let f = &r.summary.flows[0];
    assert_eq!(f.bytes_delivered, 1_000_000);
    assert_eq!(f.retransmissions + f.timeouts + f.fast_retransmits, 0);
    let rtt = f.mean_rtt_s.unwrap();
    // 2 × (5 + 20) ms propagation plus serialisation and queueing.
    assert!(rtt > 0.050 && rtt < 0.5, "{rtt}");
    let una = series(&r, "snd_una");
    assert!(
        una.windows(2).all(|w| w[1].1 >= w[0].1),
        "snd_una never decreases"
    );
    assert!(una.last().unwrap().1 >= 1_000_000.0);
    assert!(!series(&r, "cwnd_bytes").is_empty());
    assert!(!series(&r, "srtt_s").is_empty());
}

fn six_losses(transport: &str) -> (f64, u64) {
    six_losses_with(&[("flows[0].transport", transport)])
}

fn six_losses_with(sets: &[(&str, &str)]) -> (f64, u64) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/examples/tcp-six-losses.toml"
    ))
    .unwrap();
    let transport = sets[0].1;
    let r = run_with(&text, sets);
    let drops = series(&r, "dropped_seq");
    assert_eq!(
        drops.len(),
        6,
        "{transport}: six scripted drops of data segments"
    );
    let t0 = drops.iter().map(|d| d.0).fold(f64::INFINITY, f64::min);
    let last = drops.iter().map(|d| d.1).fold(0.0, f64::max);
    let done = series(&r, "snd_una")
        .into_iter()
        .find(|(t, v)| *t >= t0 && *v >= last)
        .expect("recovers")
        .0;
    (done - t0, r.summary.flows[0].timeouts)
}

#[test]
fn six_losses_reno_times_out_newreno_and_sack_do_not() {
    let (reno, reno_to) = six_losses("tcp-reno");
    let (newreno, newreno_to) = six_losses("tcp-newreno");
    let (sack, sack_to) = six_losses("tcp-sack");
    assert!(reno_to >= 1);
    assert_eq!((newreno_to, sack_to), (0, 0));
    assert!(reno > newreno && newreno >= sack, "{reno} {newreno} {sack}");
}

#[test]
fn six_losses_with_ns2_2001_reno_times_out_and_sack1_does_not() {
    let profile = (
        "flows[0].tcp",
        "{ profile = \"ns2-2001\", max_sack_blocks = 3 }",
    );
    let (sack1, sack1_to) = six_losses_with(&[("flows[0].transport", "tcp-sack1"), profile]);
    let (reno, reno_to) = six_losses_with(&[
        ("flows[0].transport", "tcp-reno"),
        ("flows[0].tcp", "{ profile = \"ns2-2001\" }"),
    ]);
    assert!(reno_to >= 1, "{reno}");
    assert_eq!(sack1_to, 0, "{sack1}");
    assert!(reno > sack1, "{reno} {sack1}");
}

#[test]
fn the_2001_ns2_profile_has_coarse_ticks_and_a_one_second_minimum() {
    let r = run_with(
        PATH,
        &[
            ("flows[0].transport", "tcp-sack1"),
            ("flows[0].tcp", "{ profile = \"ns2-2001\" }"),
        ],
    );
    let f = &r.summary.flows[0];
    assert_eq!(f.bytes_delivered, 1_000_000);
    let rto = series(&r, "rto_s");
    assert!(!rto.is_empty());
    // minrto_ 1, and ns-2 computes the RTO in whole 100 ms ticks.
    for (_, v) in &rto {
        assert!(*v >= 1.0, "{rto:?}");
        let ticks = v * 10.0;
        assert!((ticks - ticks.round()).abs() < 1e-6, "{rto:?}");
    }
    let err = load(
        PATH,
        &[(
            "flows[0].tcp".to_string(),
            value_from_cli("{ profile = \"ns2-2002\" }"),
        )],
    )
    .unwrap_err();
    assert_eq!(err.path, "flows[0].tcp.profile");
}

#[test]
fn six_losses_tahoe_recovers_in_slow_start_resending_what_arrived() {
    // Tahoe's go-back-N from one segment repairs all six holes in slow start: no timeout
    // (unlike Reno, whose second fast retransmit is blocked) and, with six holes, sooner than
    // NewReno's one hole per round trip (Fall & Floyd 1996, §4) — at the price of resending
    // segments that had arrived.
    let (tahoe, tahoe_to) = six_losses("tcp-tahoe");
    let (newreno, _) = six_losses("tcp-newreno");
    assert_eq!(tahoe_to, 0);
    assert!(tahoe < newreno, "{tahoe} {newreno}");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/examples/tcp-six-losses.toml"
    ))
    .unwrap();
    let rtx =
        |t: &str| run_with(&text, &[("flows[0].transport", t)]).summary.flows[0].retransmissions;
    let (tahoe_rtx, newreno_rtx) = (rtx("tcp-tahoe"), rtx("tcp-newreno"));
    assert_eq!(newreno_rtx, 6);
    assert!(tahoe_rtx > newreno_rtx, "{tahoe_rtx} {newreno_rtx}");
}

#[test]
fn the_2003_ns2_profile_sets_the_timers_of_its_time() {
    let r = run_with(
        PATH,
        &[
            ("flows[0].transport", "tcp-tahoe"),
            ("flows[0].tcp", "{ profile = \"ns2-2003\" }"),
        ],
    );
    let f = &r.summary.flows[0];
    assert_eq!(f.bytes_delivered, 1_000_000);
    // ns-2.26: minrto_ 1 — the RTO of a 60 ms path is held at 1 s.
    let rto = series(&r, "rto_s");
    assert!(!rto.is_empty());
    assert!(rto.iter().all(|(_, v)| *v >= 1.0), "{rto:?}");
}

#[test]
fn tcp_fields_are_checked_with_their_paths() {
    let err = |p: &str, v: &str| load(PATH, &[(p.to_string(), value_from_cli(v))]).unwrap_err();
    assert_eq!(err("flows[0].rate", "1Mbps").path, "flows[0].rate");
    assert_eq!(err("flows[0].app", "cbr").path, "flows[0].app");
    assert_eq!(
        err("flows[0].tcp", "{ max_sack_blocks = 3 }").path,
        "flows[0].tcp.max_sack_blocks"
    );
    assert_eq!(
        err("flows[0].tcp", "{ mss_bytes = 1480 }").path,
        "flows[0].tcp.mss_bytes"
    );
    assert_eq!(
        err("flows[0].tcp", "{ min_rto = \"0s\" }").path,
        "flows[0].tcp.min_rto"
    );
    assert_eq!(
        err("flows[0].tcp", "{ profile = \"bsd\" }").path,
        "flows[0].tcp.profile"
    );
    assert_eq!(
        err("flows[0].tcp", "{ windw = 3 }").path,
        "flows[0].tcp.windw"
    );
    assert_eq!(err("flows[0].stop", "10s").path, "flows[0].stop");
    let udp = load(
        PATH,
        &[("flows[0].transport".into(), value_from_cli("udp"))],
    )
    .unwrap_err();
    assert_eq!(udp.path, "flows[0].rate");
}
