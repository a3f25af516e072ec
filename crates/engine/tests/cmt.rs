//! CMT-SCTP end to end (`flows.sctp.multipath = "cmt"`, `docs/models/sctp.md` "CMT-SCTP"):
//! `scenarios/examples/sctp-cmt.toml`, two dual-homed hosts joined by two disjoint 2 Mbit/s
//! paths. CMT sends DATA to both of B's addresses and delivers about twice what plain SCTP,
//! which uses the primary path only, delivers in the same scenario; AppStripe (two single-homed
//! associations, `sctp-appstripe.toml`) delivers about what CMT does. Scenario errors name the
//! field.

mod common;

use common::{load_err, run_with};

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example")
}

const TEN_SECONDS: (&str, &str) = ("simulation.duration", "10s");

#[test]
fn cmt_uses_both_paths_and_matches_appstripe() {
    let cmt = run_with(&example("sctp-cmt"), &[TEN_SECONDS]);
    let paths: Vec<u64> = cmt
        .summary
        .paths
        .iter()
        .filter(|p| p.side == "sender")
        .map(|p| p.data_chunks_sent)
        .collect();
    assert_eq!(paths.len(), 2);
    let total: u64 = paths.iter().sum();
    assert!(
        paths.iter().all(|n| *n * 10 > total * 4),
        "DATA chunks per path {paths:?}"
    );
    let goodput = |r: &sctpsim_engine::RunResult| -> f64 {
        r.summary.flows.iter().map(|f| f.goodput_bps).sum()
    };
    let plain = run_with(
        &example("sctp-cmt"),
        &[TEN_SECONDS, ("flows[0].sctp.multipath", "off")],
    );
    let stripe = run_with(&example("sctp-appstripe"), &[TEN_SECONDS]);
    let (c, p, s) = (goodput(&cmt), goodput(&plain), goodput(&stripe));
    assert!(c > 1.8 * p, "CMT {c} b/s, plain SCTP {p} b/s");
    assert!((c / s - 1.0).abs() < 0.05, "CMT {c} b/s, AppStripe {s} b/s");
    assert_eq!(cmt.summary.sctp[0].fast_retransmissions, 0);
}

/// DAC is the receiver's (ToN §3.3): B's SACKs report two DATA packets each, so B sends
/// about half as many SACKs as it receives DATA packets. With DAC off (or the receiver's mode
/// turned off, as the engine did until 2026-11-29) B acknowledges nearly every packet, since
/// CMT's interleaved arrivals look out of order.
#[test]
fn a_cmt_receiver_delays_acks_by_dac() {
    let ratio = |over: &[(&str, &str)]| -> f64 {
        let r = run_with(&example("sctp-cmt"), over);
        let f = &r.summary.flows[0];
        f.acks_sent as f64 / f.data_packets_received as f64
    };
    let dac = ratio(&[TEN_SECONDS]);
    let no_dac = ratio(&[TEN_SECONDS, ("flows[0].sctp.cmt_dac", "false")]);
    assert!(dac < 0.6, "SACKs per DATA packet with DAC: {dac}");
    assert!(no_dac > 0.9, "SACKs per DATA packet without DAC: {no_dac}");
}

#[test]
fn cmt_fields_name_themselves_when_wrong() {
    let text = example("sctp-cmt");
    let e = load_err(
        &text,
        &[
            ("flows[0].sctp.multipath", "off"),
            ("flows[0].sctp.cmt_sfr", "false"),
        ],
    );
    assert!(
        e.contains("flows[0].sctp.cmt_sfr") && e.contains("only used with multipath"),
        "{e}"
    );
    let e = load_err(&text, &[("flows[0].sctp.cmt_rtx_policy", "\"best\"")]);
    assert!(
        e.contains("flows[0].sctp.cmt_rtx_policy") && e.contains("ssthresh"),
        "{e}"
    );
    let e = load_err(&text, &[("flows[0].sctp.cmt_cc", "\"rpv3\"")]);
    assert!(
        e.contains("flows[0].sctp.cmt_cc") && e.contains("rpv2"),
        "{e}"
    );
    let e = load_err(
        &text,
        &[
            ("flows[0].sctp.cmt_cc", "\"rpv2\""),
            ("flows[0].sctp.cmt_coupled", "true"),
        ],
    );
    assert!(
        e.contains("flows[0].sctp.cmt_cc") && e.contains("cmt_coupled"),
        "{e}"
    );
    let e = load_err(
        &text,
        &[
            ("flows[0].sctp.multipath", "off"),
            ("flows[0].sctp.cmt_cc", "\"lia\""),
        ],
    );
    assert!(
        e.contains("flows[0].sctp.cmt_cc") && e.contains("only used with multipath"),
        "{e}"
    );
    let e = load_err(&text, &[("flows[0].sctp.multipath", "\"cmt-pf\"")]);
    assert!(
        e.contains("flows[0].sctp.multipath") && e.contains("cmt"),
        "{e}"
    );
    let e = load_err(&text, &[("flows[0].sctp.asctp_max_routes", "2")]);
    assert!(
        e.contains("flows[0].sctp.asctp_max_routes") && e.contains("asctp"),
        "{e}"
    );
}

/// NR-SACK (`flows.sctp.nr_sack`, Natarajan et al., ICNP 2008) under CMT with a lossy path and
/// a small send buffer: the receiver's acknowledgements are NR-SACKs, and the sender, which
/// may free NR-acknowledged data at once, delivers more than with renegable SACKs.
#[test]
fn nr_sack_in_a_cmt_scenario() {
    let sets = |nr: &'static str| {
        [
            ("simulation.duration", "20s"),
            (
                "link[3].loss",
                "{ model = \"bernoulli\", p = 0.05, from = \"R2\" }",
            ),
            ("flows[0].sctp.send_buffer_bytes", "65536"),
            ("flows[0].sctp.recv_buffer_bytes", "4194304"),
            ("flows[0].sctp.nr_sack", nr),
        ]
    };
    let plain = run_with(&example("sctp-cmt"), &sets("false"));
    let nr = run_with(&example("sctp-cmt"), &sets("true"));
    let (p, n) = (&plain.summary.sctp[0], &nr.summary.sctp[0]);
    assert_eq!(p.nr_sacks_sent, None, "no column without nr_sack");
    assert!(n.nr_sacks_sent.is_some_and(|k| k > 100), "{n:?}");
    assert_eq!(
        n.nr_sacks_sent,
        Some(n.sacks_sent),
        "every SACK is an NR-SACK"
    );
    assert!(n.nr_sacks_received.is_some_and(|k| k > 100), "{n:?}");
    assert_eq!(n.delivery_errors, 0);
    assert!(
        n.messages_delivered as f64 > 1.05 * p.messages_delivered as f64,
        "delivered with NR-SACK {}, without {}",
        n.messages_delivered,
        p.messages_delivered
    );
    let e = load_err(&example("sctp-cmt"), &[("flows[0].sctp.nr_sack", "1")]);
    assert!(e.contains("flows[0].sctp.nr_sack"), "{e}");
}

/// `cmt_coupled = true`, the older form, is `cmt_cc = "lia"`: the same run, bit for bit.
#[test]
fn cmt_coupled_true_is_cmt_cc_lia() {
    let text = example("sctp-cmt");
    // Congestion avoidance from 8000 bytes on, where LIA acts.
    let five = ("simulation.duration", "5s");
    let ca = ("flows[0].sctp.initial_ssthresh_bytes", "8000");
    let old = run_with(&text, &[five, ca, ("flows[0].sctp.cmt_coupled", "true")]);
    let new = run_with(&text, &[five, ca, ("flows[0].sctp.cmt_cc", "\"lia\"")]);
    let off = run_with(&text, &[five, ca]);
    let json = |r: &sctpsim_engine::RunResult| {
        let s = &r.summary;
        serde_json::to_string(&(&s.flows, &s.paths, &s.sctp)).unwrap()
    };
    assert_eq!(json(&old), json(&new));
    assert_ne!(json(&old), json(&off), "LIA changes the run");
}

/// What coupling is for (`scenarios/cmt-coupled/shared-bottleneck.toml`): CMT's two paths
/// through one bottleneck beside a single-path association. Uncoupled, CMT takes about twice
/// the single-path flow's goodput; with CMT/RPv2 about the same (20 s of the 60 s scenario;
/// docs/models/sctp.md "CMT/RP" has every algorithm over seeds and queue sizes).
#[test]
fn coupling_shares_a_bottleneck_with_a_single_path_flow() {
    let text = std::fs::read_to_string(format!(
        "{}/../../scenarios/cmt-coupled/shared-bottleneck.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("scenario");
    let ratio = |cc: &str| -> f64 {
        let name = format!("\"{cc}\"");
        let r = run_with(
            &text,
            &[
                ("simulation.duration", "20s"),
                ("flows[0].sctp.cmt_cc", name.as_str()),
            ],
        );
        let f = &r.summary.flows;
        f[0].goodput_bps / f[1].goodput_bps
    };
    let (off, rpv2) = (ratio("off"), ratio("rpv2"));
    let all = format!("CMT / single-path goodput: off {off:.2}, rpv2 {rpv2:.2}");
    assert!(off > 1.6, "{all}");
    assert!(rpv2 < 1.25, "{all}");
}
