//! A-SCTP end to end (`flows.sctp.multipath = "asctp"`, `docs/models/sctp.md` "A-SCTP"):
//! `scenarios/examples/asctp-route-break.toml`, where A reaches D over two node-disjoint DSR
//! routes (A-B-D, the data path, and A-C1-C2-D) and the link B-D breaks at about 23.8 s with
//! the window queued at B. Heartbeats go on both routes and data on one; at the break data
//! moves to the other route at once, with no T3-rtx timeout, and every message arrives
//! exactly once and in order. Plain SCTP in the same scenario needs its T3-rtx timer and
//! stalls longer. Scenario errors name the field.

mod common;

use common::{load_err, run_with};
use sctpsim_engine::RunResult;

fn example() -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/asctp-route-break.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example")
}

/// `(time, dir, value)` of flow 0's rows of `metric`.
fn rows(r: &RunResult, metric: &str) -> Vec<(f64, String, f64)> {
    let ts = &r.timeseries;
    (0..ts.len())
        .filter(|&i| ts.metric[i] == metric && ts.scope[i] == "flow" && ts.id[i] == 0)
        .map(|i| (ts.time_s[i], ts.dir[i].to_string(), ts.value[i]))
        .collect()
}

/// The longest time without a new message delivered between `from` and `to` (s), from the
/// receiver's delivery delays' sampling: `bytes_delivered` rows every `sample_interval`.
fn longest_stall(r: &RunResult, from: f64, to: f64) -> f64 {
    let delivered = rows(r, "bytes_delivered");
    let mut last_change = from;
    let mut prev = None;
    let mut worst: f64 = 0.0;
    for (t, _, v) in delivered
        .into_iter()
        .filter(|(t, _, _)| *t >= from && *t <= to)
    {
        if prev.is_some_and(|p| v > p) {
            worst = worst.max(t - last_change);
            last_change = t;
        }
        prev = Some(v);
    }
    worst.max(to - last_change)
}

/// When the link A-B broke: the first `route_broken` row of the flow (its source's route).
fn break_time(r: &RunResult) -> f64 {
    rows(r, "route_broken")
        .first()
        .map(|(t, _, _)| *t)
        .expect("the route through B breaks")
}

#[test]
fn data_on_one_route_heartbeats_on_both_and_a_switch_without_timeout() {
    let r = run_with(&example(), &[]);
    let a = &r.summary.sctp[0];
    assert_eq!(a.multipath.as_deref(), Some("asctp"));
    let t_break = break_time(&r);
    assert!((23.0..25.0).contains(&t_break), "{t_break}");

    // Two route paths at the sender, each with its route; heartbeats on both.
    let sender: Vec<_> = r
        .summary
        .paths
        .iter()
        .filter(|p| p.side == "sender")
        .collect();
    assert_eq!(sender.len(), 2, "{sender:?}");
    for p in &sender {
        assert!(p.route_slot.is_some() && p.heartbeats_sent >= 5, "{p:?}");
        assert_eq!(p.addr, sender[0].addr, "both routes lead to D's address");
    }
    let (d0, d1) = (
        format!("{}#0", sender[0].addr),
        format!("{}#1", sender[0].addr),
    );
    // Data on the best route (2 hops, slot 0) until the break, then on the other. (The path
    // manager looks at DSR's routes again a second later; B, at the edge of D's range, comes
    // and goes for a while, and data may follow.)
    let sent = rows(&r, "tsn_sent");
    assert!(sent.len() > 1000);
    for (t, dir, _) in &sent {
        if *t < t_break {
            assert_eq!(dir, &d0, "new data at {t}");
        } else if *t < t_break + 0.9 {
            assert_eq!(dir, &d1, "new data at {t}");
        }
    }
    let on_d1 = sent
        .iter()
        .filter(|(t, d, _)| *d == d1 && *t < t_break + 0.9)
        .count();
    assert!(
        on_d1 > 10,
        "data continues on the alternate at once: {on_d1}"
    );
    let after = sent.iter().filter(|(t, _, _)| *t >= t_break).count();
    assert!(after > 500, "and goes on: {after}");
    // The switch: at the break, caused by DSR's notice, from slot 0 to slot 1.
    let sw = rows(&r, "path_switch");
    let cause = rows(&r, "path_switch_cause");
    assert_eq!(
        (sw[0].0, sw[0].1.as_str(), sw[0].2),
        (t_break, d1.as_str(), 1.0)
    );
    assert_eq!(cause[0], (t_break, "route_broken".to_string(), 0.0));
    assert!(
        cause.iter().all(|(_, c, _)| c == "route_broken"),
        "{cause:?}"
    );
    // The window lost with the route went out again on the alternate at once.
    let failover = rows(&r, "tsn_failover_rtx");
    assert_eq!(
        failover.first().map(|(t, d, _)| (*t, d)),
        Some((t_break, &d1))
    );
    assert!(failover.iter().all(|(t, _, _)| *t >= t_break));
    assert_eq!(a.failover_retransmissions, Some(failover.len() as u64));
    // No T3-rtx timeout, exact delivery.
    assert_eq!(a.t3_timeouts, 0);
    assert_eq!(r.summary.flows[0].timeouts, 0);
    assert_eq!((a.delivery_errors, a.messages_missing), (0, 0));
    assert!(a.messages_delivered > 1500, "{}", a.messages_delivered);
    // Route changes as rows: slot 0 lost its route (0 hops) at the break.
    let hops = rows(&r, "route_hops");
    assert!(hops.contains(&(t_break, d0.clone(), 0.0)), "{hops:?}");
    assert!(
        hops.iter().any(|(_, d, v)| *d == d1 && *v == 3.0),
        "{hops:?}"
    );
}

#[test]
fn plain_sctp_stalls_longer_in_the_same_scenario() {
    let asctp = run_with(&example(), &[]);
    let plain = run_with(&example(), &[("flows[0].sctp.multipath", "off")]);
    let (ta, tp) = (break_time(&asctp), break_time(&plain));
    let stall_a = longest_stall(&asctp, ta - 0.5, ta + 5.0);
    let stall_p = longest_stall(&plain, tp - 0.5, tp + 5.0);
    let (a, p) = (&asctp.summary.sctp[0], &plain.summary.sctp[0]);
    eprintln!(
        "A-SCTP: stall {stall_a:.2} s, T3 {}, switches {}, delivered {}; plain: stall {stall_p:.2} s, T3 {}, fast rtx {}, delivered {}",
        a.t3_timeouts,
        a.path_switches,
        asctp.summary.flows[0].bytes_delivered,
        p.t3_timeouts,
        p.fast_retransmissions,
        plain.summary.flows[0].bytes_delivered
    );
    assert_eq!(p.multipath, None);
    assert_eq!((p.delivery_errors, p.messages_missing), (0, 0));
    assert!(
        p.t3_timeouts > 0,
        "plain SCTP needs its retransmission timer"
    );
    assert_eq!(a.t3_timeouts, 0);
    assert!(
        stall_p > stall_a + 0.5,
        "plain SCTP: stall {stall_p} s; A-SCTP: stall {stall_a} s"
    );
}

#[test]
fn scenario_errors_name_the_field() {
    let text = example();
    let e = load_err(&text, &[("flows[0].sctp.multipath", "cmt-pf")]);
    assert!(
        e.contains("flows[0].sctp.multipath") && e.contains("cmt-pf"),
        "{e}"
    );
    let e = load_err(&text, &[("routing.protocol", "aodv")]);
    assert!(
        e.contains("flows[0].sctp.multipath") && e.contains("dsr"),
        "{e}"
    );
    let e = load_err(&text, &[("flows[0].sctp.asctp_max_routes", "9")]);
    assert!(e.contains("flows[0].sctp.asctp_max_routes"), "{e}");
    let e = load_err(
        &text,
        &[
            ("flows[0].sctp.multipath", "off"),
            ("flows[0].sctp.asctp_max_routes", "3"),
        ],
    );
    assert!(e.contains("only used with multipath"), "{e}");
    let e = load_err(&text, &[("flows[0].sctp.heartbeats", "false")]);
    assert!(e.contains("flows[0].sctp.heartbeats"), "{e}");
}

/// The ablation switches (`asctp_<rule>`, `AsctpRules`) are A-SCTP's only: without it they
/// are refused, naming the field, rather than silently measuring plain SCTP.
#[test]
fn ablation_switches_need_asctp() {
    let text = example();
    let e = load_err(
        &text,
        &[
            ("flows[0].sctp.multipath", "off"),
            ("flows[0].sctp.asctp_tsn_range", "false"),
        ],
    );
    assert!(
        e.contains("flows[0].sctp.asctp_tsn_range") && e.contains("only used with multipath"),
        "{e}"
    );
    let e = load_err(
        &text,
        &[
            ("flows[0].sctp.multipath", "off"),
            ("flows[0].sctp.asctp_follow_shorter_route", "true"),
        ],
    );
    assert!(
        e.contains("flows[0].sctp.asctp_follow_shorter_route"),
        "{e}"
    );
    let e = load_err(&text, &[("flows[0].sctp.asctp_route_notice", "1")]);
    assert!(e.contains("asctp_route_notice"), "{e}");
}

/// Rule 8 (`asctp_follow_shorter_route`): after the break data is on slot 1 (3 hops); when
/// DSR learns the 2-hop route through B again (about 24.8 s) the path manager re-pins the
/// data path to it. Switched off, the data path keeps its 3-hop route (no `route_hops` row
/// for slot 1 after the start) and the 2-hop route goes to slot 0.
#[test]
fn with_follow_shorter_route_off_the_data_path_keeps_its_route() {
    let on = run_with(&example(), &[]);
    let off = run_with(
        &example(),
        &[("flows[0].sctp.asctp_follow_shorter_route", "false")],
    );
    let addr = on.summary.paths[0].addr.clone();
    let d1 = format!("{addr}#1");
    let t_break = break_time(&on);
    let repinned = |r: &RunResult| {
        rows(r, "route_hops")
            .into_iter()
            .filter(|(t, d, v)| *t > t_break && *d == d1 && *v == 2.0)
            .count()
    };
    assert_eq!(repinned(&on), 1, "{:?}", rows(&on, "route_hops"));
    assert_eq!(break_time(&off), t_break, "the same run up to the break");
    assert_eq!(repinned(&off), 0, "{:?}", rows(&off, "route_hops"));
    assert!(
        rows(&off, "route_hops")
            .iter()
            .all(|(t, d, _)| *d != d1 || *t < t_break),
        "{:?}",
        rows(&off, "route_hops")
    );
    let a = &off.summary.sctp[0];
    assert_eq!((a.delivery_errors, a.messages_missing), (0, 0));
}
