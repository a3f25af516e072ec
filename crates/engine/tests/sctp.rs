//! SCTP flows through the engine: exact delivery of a file under random loss for both
//! profiles, multi-homed failover over a link outage and return to the primary, per-stream
//! ordering of the message source, host routes per address, scenario checks of SCTP fields.

mod common;

use common::run_with;
use sctpsim_engine::scenario::overrides::value_from_cli;
use sctpsim_engine::{load, RunResult};

const PATH: &str = r#"
[simulation]
duration = "60s"
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
transport = "sctp"
app = "file"
size_bytes = 1000000
"#;

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Rows `(time, dir, value)` of `metric` for flow 0.
fn series(r: &RunResult, metric: &str) -> Vec<(f64, String, f64)> {
    let ts = &r.timeseries;
    (0..ts.len())
        .filter(|&i| ts.metric[i] == metric && ts.id[i] == 0 && ts.scope[i] == "flow")
        .map(|i| (ts.time_s[i], ts.dir[i].to_string(), ts.value[i]))
        .collect()
}

#[test]
fn a_file_arrives_exactly_under_random_loss_for_both_profiles() {
    for profile in ["rfc9260", "rfc2960"] {
        for seed in 1..=4u64 {
            let r = run_with(
                PATH,
                &[
                    ("flows[0].sctp", &format!("{{ profile = \"{profile}\" }}")),
                    ("link[1].loss", "{ model = \"bernoulli\", p = 0.03 }"),
                    ("simulation.seed", &seed.to_string()),
                ],
            );
            let f = &r.summary.flows[0];
            let a = &r.summary.sctp[0];
            assert_eq!(f.bytes_delivered, 1_000_000, "{profile} seed {seed}");
            assert_eq!(a.delivery_errors, 0, "{profile} seed {seed}");
            assert_eq!(
                a.messages_delivered, a.messages_sent,
                "{profile} seed {seed}"
            );
            assert!(
                f.retransmissions > 0 && a.gap_blocks_sent > 0,
                "{profile} seed {seed}: losses must cause gap reports and retransmissions"
            );
            // The file is followed by a graceful shutdown.
            assert_eq!(a.state, "CLOSED", "{profile} seed {seed}");
        }
    }
}

/// The small window of Ye, Saadawi & Lee (2003) §5: rfc2960, 512-byte chunks, rwnd 4·MTU,
/// random loss. Each early retransmit option keeps the delivery exact; with one, some losses
/// are repaired early and those retransmissions count in the flow's `retransmissions`.
#[test]
fn early_retransmit_options_repair_small_window_losses_exactly() {
    let mut t3 = Vec::new();
    for er in ["off", "ye2003", "rfc5827"] {
        let r = run_with(
            PATH,
            &[
                (
                    "flows[0].sctp",
                    &format!(
                        "{{ profile = \"rfc2960\", chunk_bytes = 512, mtu_bytes = 576, \
                         recv_buffer_bytes = 2304, early_retransmit = \"{er}\" }}"
                    ),
                ),
                ("flows[0].size_bytes", "200000"),
                ("link[1].loss", "{ model = \"bernoulli\", p = 0.03 }"),
            ],
        );
        let f = &r.summary.flows[0];
        let a = &r.summary.sctp[0];
        assert_eq!(f.bytes_delivered, 200_000, "{er}");
        assert_eq!((a.delivery_errors, a.messages_missing), (0, 0), "{er}");
        assert_eq!(
            f.retransmissions,
            a.fast_retransmissions + a.t3_retransmissions + a.early_retransmissions,
            "{er}"
        );
        assert_eq!(a.early_retransmissions > 0, er != "off", "{er}");
        t3.push(a.t3_timeouts);
    }
    assert!(t3[1] < t3[0] && t3[2] < t3[0], "fewer timeouts: {t3:?}");
}

#[test]
fn lossless_transfer_records_tsns_cwnd_and_rtt() {
    let r = run_with(PATH, &[]);
    let f = &r.summary.flows[0];
    assert_eq!(f.bytes_delivered, 1_000_000);
    assert_eq!(f.retransmissions + f.timeouts + f.fast_retransmits, 0);
    let rtt = f.mean_rtt_s.unwrap();
    assert!(rtt > 0.050 && rtt < 0.5, "{rtt}");
    let sent = series(&r, "tsn_sent");
    let acked = series(&r, "tsn_acked");
    // 1452-byte chunks: ceil(1e6 / 1452) = 689 messages, one DATA chunk each.
    assert_eq!(sent.len(), 689);
    assert_eq!(sent.first().unwrap().2, 1.0);
    assert_eq!(acked.last().unwrap().2, 689.0);
    assert!(acked.windows(2).all(|w| w[1].2 > w[0].2));
    let cwnd = series(&r, "cwnd_bytes");
    assert!(cwnd.iter().all(|c| c.1 == "10.0.1.2"), "per-path rows");
    assert!(cwnd.last().unwrap().2 > 4380.0);
    assert_eq!(r.summary.paths.len(), 2, "one destination per side");
}

/// The time of the first `path_switch` row at or after `t` towards `dir`.
fn switch_after(r: &RunResult, t: f64, dir: &str) -> Option<f64> {
    series(r, "path_switch")
        .into_iter()
        .find(|(ts, d, _)| *ts >= t && d == dir)
        .map(|x| x.0)
}

/// First sample time at or after `t` at which the flow delivered more than at `t`.
fn delivery_resumes(r: &RunResult, t: f64) -> f64 {
    let bytes = series(r, "bytes_delivered");
    let at = bytes.iter().rfind(|x| x.0 <= t).map_or(0.0, |x| x.2);
    bytes
        .iter()
        .find(|x| x.0 > t && x.2 > at)
        .map_or(f64::INFINITY, |x| x.0)
}

#[test]
fn failover_moves_to_the_alternate_and_returns_to_the_primary() {
    let text = example("sctp-failover.toml");
    let r = run_with(&text, &[]);
    let a = &r.summary.sctp[0];
    let primary = "10.0.1.2";
    let alternate = "10.0.3.2";
    assert_eq!(a.peer_addresses, vec![primary, alternate]);
    // Before the outage every DATA chunk goes to the primary.
    let sent = series(&r, "tsn_sent");
    assert!(sent.iter().filter(|s| s.0 < 10.0).all(|s| s.1 == primary));
    // The link drops everything while down.
    let down = &r.summary.links.iter().find(|l| l.id == 1 && l.dir == "rev");
    assert!(down.unwrap().outage_drops > 0);
    // Failover: retransmissions to the alternate, a path switch, delivery continues.
    assert!(a.retransmissions_to_alternate > 0 && a.t3_timeouts >= 3);
    let failover = switch_after(&r, 10.0, alternate).expect("switch to the alternate") - 10.0;
    assert!(failover > 1.0 && failover < 15.0, "failover {failover}");
    assert!(delivery_resumes(&r, 10.0) < 14.0);
    assert!(sent
        .iter()
        .any(|s| s.0 > 10.0 && s.0 < 30.0 && s.1 == alternate));
    let active = series(&r, "path_active");
    assert!(active.iter().any(|x| x.1 == primary && x.2 == 0.0));
    assert!(active
        .iter()
        .any(|x| x.0 >= 30.0 && x.1 == primary && x.2 == 1.0));
    // Return to the primary after the repair at 30 s.
    let back = switch_after(&r, 30.0, primary).expect("return to the primary");
    assert!(back < 40.0, "returned at {back}");
    assert!(sent.iter().any(|s| s.0 > back && s.1 == primary));
    assert_eq!(a.path_switches, 2);
    assert_eq!(a.current_path.as_deref(), Some(primary));
    assert_eq!(a.delivery_errors, 0);
    // Per-path rows: the primary went down once; both carried data.
    let p = |addr: &str| {
        r.summary
            .paths
            .iter()
            .find(|p| p.side == "sender" && p.addr == addr)
            .unwrap()
    };
    assert_eq!(p(primary).times_down, 1);
    assert!(p(primary).primary && !p(alternate).primary);
    assert!(p(alternate).data_chunks_sent > 1000);
    // The source address of each destination is the address on its path.
    assert_eq!(p(primary).source, "10.0.0.1");
    assert_eq!(p(alternate).source, "10.0.2.1");

    // Failover takes Path.Max.Retrans + 1 = 3 timeouts (1 + 2 + 4 s of back-off) whatever the
    // heartbeat interval: chunks acknowledged while waiting for retransmission must not clear
    // the dead primary's error counter.
    let slow_hb = run_with(&text, &[("flows[0].sctp.hb_interval", "30s")]);
    let t = switch_after(&slow_hb, 10.0, alternate).unwrap() - 10.0;
    assert!((t - failover).abs() < 0.1, "{t} vs {failover}");

    // Without return to the primary the association stays on the alternate.
    let r = run_with(&text, &[("flows[0].sctp.return_to_primary", "false")]);
    assert!(switch_after(&r, 10.0, alternate).is_some());
    assert!(switch_after(&r, 30.0, primary).is_none());
    assert_eq!(r.summary.sctp[0].path_switches, 1);
    let sent = series(&r, "tsn_sent");
    assert!(sent.iter().filter(|s| s.0 > 35.0).all(|s| s.1 == alternate));
}

#[test]
fn host_routes_follow_the_link_of_each_address() {
    // In the failover topology, A reaches B's second address through R2 although B itself
    // is as close through R1: an association between A's and B's second addresses never
    // crosses the R1 links, in either direction.
    let text = example("sctp-failover.toml");
    let r = run_with(
        &text,
        &[
            ("flows[0].sctp.local_addresses", "[\"10.0.2.1\"]"),
            ("flows[0].sctp.peer_addresses", "[\"10.0.3.2\"]"),
            ("link[1].outages", "[]"),
        ],
    );
    let l = |id: u32, dir: &str| {
        r.summary
            .links
            .iter()
            .find(|l| l.id == id && l.dir == dir)
            .unwrap()
            .tx_packets
    };
    assert_eq!(l(0, "fwd") + l(1, "fwd") + l(1, "rev") + l(0, "rev"), 0);
    assert!(l(2, "fwd") > 1000 && l(3, "fwd") > 1000);
    assert!(r.summary.flows[0].bytes_delivered > 1_000_000);
}

const UNEQUAL: &str = r#"
[simulation]
duration = "20s"
[[node]]
name = "a"
[[node]]
name = "b"
[[node]]
name = "r1"
[[node]]
name = "r2"
[[node]]
name = "r3"
[[link]]
between = ["a", "r1"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["r1", "b"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["a", "r2"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["r2", "r3"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["r3", "b"]
bandwidth = "10Mbps"
delay = "5ms"
[[link.outages]]
start = "0s"
end = "5s"
[[flows]]
src = "a"
dst = "b"
transport = "sctp"
app = "ftp"
[flows.sctp]
hb_interval = "1s"
"#;

#[test]
fn each_address_is_reached_over_its_own_link_even_on_a_longer_path() {
    // b's second address (link 4, r3-b) is three hops away over r2, r3 while b itself is two
    // hops away over r1: the host route still takes the long way, so while link 4 is down
    // the alternate is unreachable (its heartbeats fail) and afterwards it is confirmed.
    let r = run_with(UNEQUAL, &[]);
    let l = |id: u32, dir: &str| {
        let l = r.summary.links.iter().find(|l| l.id == id && l.dir == dir);
        l.unwrap().clone()
    };
    assert!(
        l(4, "fwd").outage_drops > 0,
        "heartbeats to 10.0.4.2 cross r3-b"
    );
    assert!(l(3, "fwd").tx_packets > 0 && l(4, "fwd").tx_packets > 0);
    let alt = r
        .summary
        .paths
        .iter()
        .find(|p| p.side == "sender" && p.addr == "10.0.4.2")
        .unwrap();
    assert_eq!(
        alt.source, "10.0.2.1",
        "the source is a's address towards r2"
    );
    assert_eq!(alt.state, "active");
    assert!(alt.heartbeats_sent >= 2);
}

#[test]
fn messages_keep_order_per_stream_and_streams_avoid_head_of_line_blocking() {
    let text = example("sctp-streams.toml");
    let mut p95 = Vec::new();
    for streams in [1u16, 4] {
        let r = run_with(
            &text,
            &[("flows[0].messages.streams", &streams.to_string())],
        );
        let a = &r.summary.sctp[0];
        assert_eq!(a.delivery_errors, 0, "{streams} streams");
        assert!(a.fast_retransmissions + a.t3_retransmissions > 0);
        let rows: Vec<_> = r.summary.streams.iter().filter(|s| s.flow == 0).collect();
        assert_eq!(rows.len(), streams as usize);
        for s in &rows {
            assert!(s.messages_delivered > 0);
            assert!(s.messages_sent >= s.messages_delivered);
        }
        // Every message sent before the last seconds arrives.
        assert!(a.messages_delivered + 100 > a.messages_sent);
        let mut all: Vec<f64> = rows.iter().filter_map(|s| s.p95_delay_s).collect();
        all.sort_by(f64::total_cmp);
        p95.push(r.summary.flows[0].mean_delay_s.unwrap());
        if streams > 1 {
            assert!(
                r.summary.flows[0].reordered > 0,
                "streams deliver out of send order"
            );
            let rows = series(&r, "message_delay_s");
            assert!(rows.iter().any(|x| x.1 == "stream3"));
        } else {
            assert_eq!(r.summary.flows[0].reordered, 0);
        }
    }
    // Mean delivery delay drops with more streams (less head-of-line blocking).
    assert!(
        p95[1] < p95[0],
        "mean delay 1 stream {} vs 4 streams {}",
        p95[0],
        p95[1]
    );
}

#[test]
fn unordered_and_pr_sctp_messages() {
    let text = example("sctp-streams.toml");
    let r = run_with(&text, &[("flows[0].messages.unordered", "true")]);
    assert_eq!(r.summary.sctp[0].delivery_errors, 0);
    let ordered = run_with(&text, &[]);
    assert!(
        r.summary.flows[0].mean_delay_s.unwrap() < ordered.summary.flows[0].mean_delay_s.unwrap()
    );
    // A lifetime shorter than a retransmission timeout abandons some messages.
    let r = run_with(
        &text,
        &[
            ("flows[0].messages.lifetime", "100ms"),
            ("link[1].loss.p", "0.1"),
        ],
    );
    let a = &r.summary.sctp[0];
    assert_eq!(a.delivery_errors, 0);
    assert!(a.messages_abandoned > 0 && a.forward_tsns_sent > 0, "{a:?}");
    assert_eq!(
        r.summary.streams[0].messages_abandoned,
        a.messages_abandoned
    );
}

#[test]
fn runs_are_deterministic() {
    let text = example("sctp-failover.toml");
    let a = run_with(&text, &[("simulation.duration", "15s")]);
    let b = run_with(&text, &[("simulation.duration", "15s")]);
    let strip = |r: &RunResult| {
        let mut s = r.summary.clone();
        s.wall_time_s = 0.0;
        serde_json::to_string(&s).unwrap()
    };
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(a.timeseries, b.timeseries);
}

#[test]
fn sctp_fields_are_checked_with_their_paths() {
    let err = |p: &str, v: &str| load(PATH, &[(p.to_string(), value_from_cli(v))]).unwrap_err();
    assert_eq!(err("flows[0].app", "cbr").path, "flows[0].app");
    assert_eq!(err("flows[0].rate", "1Mbps").path, "flows[0].rate");
    assert_eq!(err("flows[0].stop", "10s").path, "flows[0].stop");
    assert_eq!(
        err("flows[0].tcp", "{ mss_bytes = 1000 }").path,
        "flows[0].tcp"
    );
    assert_eq!(
        err("flows[0].sctp", "{ profile = \"rfc4960\" }").path,
        "flows[0].sctp.profile"
    );
    assert_eq!(
        err("flows[0].sctp", "{ min_rto = \"2s\", max_rto = \"1s\" }").path,
        "flows[0].sctp.max_rto"
    );
    assert_eq!(
        err("flows[0].sctp", "{ mtu_bytes = 9000 }").path,
        "flows[0].sctp.mtu_bytes"
    );
    assert_eq!(
        err("flows[0].sctp", "{ delayed_sack_timeout = \"1s\" }").path,
        "flows[0].sctp.delayed_sack_timeout"
    );
    assert_eq!(
        err("flows[0].sctp", "{ peer_addresses = [\"10.0.0.2\"] }").path,
        "flows[0].sctp.peer_addresses[0]"
    );
    let e = err(
        "flows[0].sctp",
        "{ local_addresses = [\"10.0.0.1\", \"10.0.0.1\"] }",
    );
    assert_eq!(e.path, "flows[0].sctp.local_addresses[1]");
    assert_eq!(
        err("flows[0].sctp", "{ sack_frequency = 0 }").path,
        "flows[0].sctp.sack_frequency"
    );
    assert_eq!(
        err("flows[0].sctp", "{ streem = 3 }").path,
        "flows[0].sctp.streem"
    );
    let e = err("flows[0].sctp", "{ early_retransmit = \"rfc5828\" }");
    assert_eq!(e.path, "flows[0].sctp.early_retransmit");
    assert!(e.message.contains("ye2003"), "{e}");
    assert_eq!(
        err("flows[0].messages", "{ streams = 2 }").path,
        "flows[0].messages"
    );
    let msgs = |sets: &[(&str, &str)]| {
        let mut ov = vec![("flows[0].app".to_string(), value_from_cli("messages"))];
        let mut text = PATH.replace("size_bytes = 1000000\n", "");
        text.push_str("[flows.messages]\nstreams = 2\n");
        for (p, v) in sets {
            ov.push((p.to_string(), value_from_cli(v)));
        }
        load(&text, &ov)
    };
    assert!(msgs(&[]).is_ok());
    assert_eq!(
        msgs(&[("flows[0].messages.streams", "0")])
            .unwrap_err()
            .path,
        "flows[0].messages.streams"
    );
    assert_eq!(
        msgs(&[("flows[0].messages.message_bytes", "8")])
            .unwrap_err()
            .path,
        "flows[0].messages.message_bytes"
    );
    assert_eq!(
        msgs(&[("flows[0].sctp", "{ streams = 1 }")])
            .unwrap_err()
            .path,
        "flows[0].messages.streams"
    );
    assert_eq!(
        msgs(&[("flows[0].messages.rate", "0bps")])
            .unwrap_err()
            .path,
        "flows[0].messages.rate"
    );
    // Over other transports the SCTP fields are refused.
    let tcp = |p: &str, v: &str| {
        load(
            PATH,
            &[
                ("flows[0].transport".into(), value_from_cli("tcp-sack")),
                (p.to_string(), value_from_cli(v)),
            ],
        )
        .unwrap_err()
    };
    assert_eq!(
        tcp("flows[0].sctp", "{ streams = 2 }").path,
        "flows[0].sctp"
    );
    assert_eq!(tcp("flows[0].app", "messages").path, "flows[0].app");
    // Outages.
    assert_eq!(
        err("link[1].outages", "[{ start = \"5s\", end = \"5s\" }]").path,
        "link[1].outages[0].end"
    );
    assert_eq!(
        err(
            "link[1].outages",
            "[{ start = \"5s\", end = \"6s\", from = \"a\" }]"
        )
        .path,
        "link[1].outages[0].from"
    );
    assert_eq!(
        err("link[1].outages", "[{ start = \"5s\" }]").path,
        "link[1].outages[0]"
    );
}

#[test]
fn asconf_moves_the_association_to_a_new_address_while_data_flows() {
    // B adds 10.0.3.2 at 5 s, makes it A's primary at 6 s, deletes 10.0.1.2 at 8 s.
    let text = example("sctp-asconf.toml");
    let r = run_with(&text, &[]);
    let (old, new) = ("10.0.1.2", "10.0.3.2");
    let a = &r.summary.sctp[0];
    assert_eq!(r.summary.flows[0].bytes_delivered, 4_000_000);
    assert_eq!(a.delivery_errors, 0);
    assert_eq!(a.state, "CLOSED", "graceful shutdown after the file");
    // Every request was acknowledged by A.
    for m in ["asconf_add_ip", "asconf_set_primary", "asconf_delete_ip"] {
        let rows = series(&r, m);
        assert_eq!(rows.len(), 1, "{m}: {rows:?}");
        assert_eq!(
            (rows[0].1.as_str(), rows[0].2),
            (if m == "asconf_delete_ip" { old } else { new }, 1.0)
        );
    }
    // New data goes to the old address before 5 s and only to the new one after 9 s.
    let sent = series(&r, "tsn_sent");
    assert!(sent.iter().filter(|s| s.0 < 5.0).all(|s| s.1 == old));
    let after: Vec<_> = sent.iter().filter(|s| s.0 > 9.0).collect();
    assert!(after.len() > 500 && after.iter().all(|s| s.1 == new));
    // One switch of new data, to the added address (index 1: after peer_addresses).
    assert_eq!(series(&r, "path_switch").len(), 1);
    assert_eq!(series(&r, "path_switch")[0].1, new);
    assert_eq!(series(&r, "path_switch")[0].2, 1.0);
    // A's paths at the end: the new address, primary; the old one removed.
    let sender: Vec<_> = r
        .summary
        .paths
        .iter()
        .filter(|p| p.side == "sender")
        .collect();
    assert_eq!(sender.len(), 1, "{sender:?}");
    assert!(sender[0].addr == new && sender[0].primary);
    // The receiver's only source is now the new address.
    assert!(r
        .summary
        .paths
        .iter()
        .filter(|p| p.side == "receiver")
        .all(|p| p.source == new));
}

#[test]
fn asconf_with_auth_works_and_auth_off_changes_nothing() {
    // flows[].sctp.auth: the same handover with AUTH (RFC 4895) on both ends, HMAC-SHA-256
    // asked for: every request still acknowledged (so authenticated both ways), the file
    // delivered exactly.
    let text = example("sctp-asconf.toml");
    let r = run_with(
        &text,
        &[
            ("flows[0].sctp.auth", "true"),
            ("flows[0].sctp.auth_hmac", "sha256"),
        ],
    );
    assert_eq!(r.summary.flows[0].bytes_delivered, 4_000_000);
    assert_eq!(r.summary.sctp[0].delivery_errors, 0);
    for m in ["asconf_add_ip", "asconf_set_primary", "asconf_delete_ip"] {
        let rows = series(&r, m);
        assert_eq!(rows.len(), 1, "{m}: {rows:?}");
        assert_eq!(rows[0].2, 1.0, "{m}");
    }
    // Saying `auth = false` is the default: the run is the same as without the field.
    let plain = run_with(&text, &[]);
    let off = run_with(&text, &[("flows[0].sctp.auth", "false")]);
    assert_eq!(
        format!("{:?}", plain.summary.flows),
        format!("{:?}", off.summary.flows)
    );
    // AUTH costs room in every packet: more packets for the same file.
    assert!(r.summary.flows[0].packets_sent > plain.summary.flows[0].packets_sent);
}

#[test]
fn asconf_actions_are_checked() {
    let text = example("sctp-asconf.toml");
    let err = |v: &str| {
        load(
            &text,
            &[("flows[0].sctp.asconf".to_string(), value_from_cli(v))],
        )
        .unwrap_err()
        .path
    };
    assert_eq!(
        err("[{ at = \"5s\", side = \"dst\", action = \"add-ip\", address = \"10.0.0.1\" }]"),
        "flows[0].sctp.asconf[0].address"
    );
    assert_eq!(
        err("[{ at = \"0s\", action = \"add-ip\", address = \"10.0.0.1\" }]"),
        "flows[0].sctp.asconf[0].at"
    );
    assert_eq!(
        err("[{ at = \"5s\", action = \"add-ip\", address = \"10.0.2.1\" }, { at = \"4s\", action = \"delete-ip\", address = \"10.0.0.1\" }]"),
        "flows[0].sctp.asconf[1].at"
    );
    let rfc2960 = load(
        &text,
        &[(
            "flows[0].sctp.profile".to_string(),
            value_from_cli("rfc2960"),
        )],
    )
    .unwrap_err();
    assert_eq!(rfc2960.path, "flows[0].sctp.asconf");
}

#[test]
fn i_data_and_stream_schedulers_in_a_scenario() {
    // flows[].sctp.i_data and scheduler (RFC 8260): four streams of 4000-byte messages offered
    // at 3 Mbit/s into the 2 Mbit/s bottleneck, so the send buffer backs up and the scheduler
    // decides which stream's fragments go next.
    let text = example("sctp-streams.toml");
    let base = [
        ("simulation.duration", "20s"),
        ("flows[0].messages.streams", "4"),
        ("flows[0].messages.message_bytes", "4000"),
        ("flows[0].messages.rate", "3Mbps"),
    ];
    let run = |extra: &[(&str, &str)]| {
        let sets: Vec<(&str, &str)> = base.iter().chain(extra).copied().collect();
        run_with(&text, &sets)
    };
    let per_stream = |r: &RunResult| -> Vec<(u64, f64)> {
        r.summary
            .streams
            .iter()
            .filter(|s| s.flow == 0)
            .map(|s| (s.messages_delivered, s.mean_delay_s.unwrap_or(f64::NAN)))
            .collect()
    };
    let rr = run(&[("flows[0].sctp.i_data", "true")]);
    assert_eq!(rr.summary.sctp[0].delivery_errors, 0);
    let prio = run(&[
        ("flows[0].sctp.i_data", "true"),
        ("flows[0].sctp.scheduler", "priority"),
        ("flows[0].sctp.stream_priorities", "[0, 1, 1, 1]"),
    ]);
    assert_eq!(prio.summary.sctp[0].delivery_errors, 0);
    let (rr_s, prio_s) = (per_stream(&rr), per_stream(&prio));
    eprintln!("rr {rr_s:?}\npriority {prio_s:?}");
    // Round robin shares the bottleneck; priority serves stream 0 first: it delivers more
    // of stream 0, with less delay, than round robin does.
    assert!(prio_s[0].0 > rr_s[0].0, "{rr_s:?} {prio_s:?}");
    assert!(prio_s[0].1 < rr_s[0].1, "{rr_s:?} {prio_s:?}");
    assert!(prio_s[0].1 < prio_s[3].1, "{prio_s:?}");
    // Saying the defaults is the same run as saying nothing.
    let plain = run_with(&text, &[("simulation.duration", "10s")]);
    let said = run_with(
        &text,
        &[
            ("simulation.duration", "10s"),
            ("flows[0].sctp.i_data", "false"),
            ("flows[0].sctp.scheduler", "rr"),
        ],
    );
    assert_eq!(
        format!("{:?}", plain.summary.flows),
        format!("{:?}", said.summary.flows)
    );
}

#[test]
fn scheduler_fields_are_checked_with_their_paths() {
    let err =
        |v: &str| load(PATH, &[("flows[0].sctp".to_string(), value_from_cli(v))]).unwrap_err();
    let e = err("{ scheduler = \"lottery\" }");
    assert_eq!(e.path, "flows[0].sctp.scheduler");
    assert!(e.message.contains("wfq"), "{e}");
    assert_eq!(
        err("{ stream_priorities = [1, 2] }").path,
        "flows[0].sctp.stream_priorities"
    );
    assert_eq!(
        err("{ scheduler = \"priority\", stream_weights = [1, 2] }").path,
        "flows[0].sctp.stream_weights"
    );
    assert_eq!(
        err("{ scheduler = \"wfq\", stream_weights = [1, 0] }").path,
        "flows[0].sctp.stream_weights[1]"
    );
    assert_eq!(
        err("{ scheduler = \"wfq\", streams = 2, stream_weights = [1, 2, 3] }").path,
        "flows[0].sctp.stream_weights"
    );
    assert_eq!(err("{ i_data = 1 }").path, "flows[0].sctp.i_data");
    let ok = |v: &str| load(PATH, &[("flows[0].sctp".to_string(), value_from_cli(v))]);
    assert!(ok("{ i_data = true, scheduler = \"rr-packet\" }").is_ok());
    assert!(ok("{ scheduler = \"wfq\", stream_weights = [4, 1] }").is_ok());
}

#[test]
fn stream_reconfiguration_in_a_scenario() {
    // flows[].sctp.reconfig and reconfig_actions (RFC 6525): four streams of messages under
    // 2 % loss; the sender resets two of its streams, adds two, the receiver asks for one
    // more stream to it and resets the sender's outgoing streams through an incoming reset;
    // every message still arrives once, in order on its stream.
    let text = example("sctp-streams.toml");
    let actions = "[{ at = \"3s\", action = \"reset-outgoing\", streams = [0, 1] }, \
                    { at = \"4s\", action = \"add-outgoing\", count = 2 }, \
                    { at = \"5s\", side = \"dst\", action = \"add-incoming\", count = 1 }, \
                    { at = \"6s\", side = \"dst\", action = \"reset-incoming\" }, \
                    { at = \"7s\", action = \"reset-ssn-tsn\" }]";
    let sets = [
        ("simulation.duration", "12s"),
        ("flows[0].messages.streams", "4"),
        ("flows[0].sctp.reconfig", "true"),
        ("flows[0].sctp.reconfig_actions", actions),
    ];
    let r = run_with(&text, &sets);
    let s = &r.summary.sctp[0];
    assert_eq!(s.delivery_errors, 0);
    assert!(s.messages_delivered > 500, "{}", s.messages_delivered);
    // Five requests of the scenario, one Add Outgoing Streams of the sender answering the
    // receiver's add-incoming, one Outgoing SSN Reset answering its reset-incoming.
    assert_eq!(s.reconfig_performed, Some(7), "{s:?}");
    assert_eq!(s.reconfig_denied, Some(0));
    assert!(s.reconfig_requests_sent.is_some_and(|n| n >= 7));
    for (m, dir) in [
        ("reconfig_reset_outgoing", "src"),
        ("reconfig_add_outgoing", "src"),
        ("reconfig_add_incoming", "dst"),
        ("reconfig_reset_incoming", "dst"),
        ("reconfig_reset_ssn_tsn", "src"),
    ] {
        let rows = series(&r, m);
        assert!(
            rows.iter().any(|(_, d, v)| d == dir && *v == 1.0),
            "{m}: {rows:?}"
        );
    }
    // Off (the default) the same run has no reconfiguration counters at all.
    let plain = run_with(&text, &[("simulation.duration", "12s")]);
    assert_eq!(plain.summary.sctp[0].reconfig_performed, None);
    // A request the association refuses at once (a stream it does not have) is a 0 row.
    let bad = run_with(
        &text,
        &[
            ("simulation.duration", "5s"),
            ("flows[0].sctp.reconfig", "true"),
            (
                "flows[0].sctp.reconfig_actions",
                "[{ at = \"3s\", action = \"reset-outgoing\", streams = [60000] }]",
            ),
        ],
    );
    assert_eq!(bad.summary.sctp[0].reconfig_requests_sent, Some(0));
    assert_eq!(
        series(&bad, "reconfig_reset_outgoing"),
        vec![(3.0, "src".to_string(), 0.0)]
    );
}

#[test]
fn reconfig_actions_are_checked() {
    let err = |v: &str| {
        load(PATH, &[("flows[0].sctp".to_string(), value_from_cli(v))])
            .unwrap_err()
            .path
    };
    assert_eq!(
        err("{ reconfig_actions = [{ at = \"5s\", action = \"reset-outgoing\" }] }"),
        "flows[0].sctp.reconfig_actions"
    );
    let on = |a: &str| format!("{{ reconfig = true, reconfig_actions = [{a}] }}");
    assert_eq!(
        err(&on("{ at = \"0s\", action = \"reset-outgoing\" }")),
        "flows[0].sctp.reconfig_actions[0].at"
    );
    assert_eq!(
        err(&on("{ at = \"5s\", action = \"add-outgoing\" }")),
        "flows[0].sctp.reconfig_actions[0].count"
    );
    assert_eq!(
        err(&on(
            "{ at = \"5s\", action = \"reset-ssn-tsn\", streams = [1] }"
        )),
        "flows[0].sctp.reconfig_actions[0].streams"
    );
    assert_eq!(
        err(&on(
            "{ at = \"5s\", action = \"reset-outgoing\", count = 1 }"
        )),
        "flows[0].sctp.reconfig_actions[0].count"
    );
    assert_eq!(
        err(&on("{ at = \"5s\", action = \"reset-all\" }")),
        "flows[0].sctp.reconfig_actions[0].action"
    );
    assert_eq!(err("{ reconfig = 1 }"), "flows[0].sctp.reconfig");
    assert!(load(
        PATH,
        &[(
            "flows[0].sctp".to_string(),
            value_from_cli(&on(
                "{ at = \"5s\", action = \"add-incoming\", count = 3, side = \"dst\" }"
            ))
        )]
    )
    .is_ok());
}

/// Scheduled ASCONF actions must come after the flow's start and in time order; the error
/// names the action's `at` (`check_action_times`, shared with `reconfig_actions`).
#[test]
fn asconf_action_times_are_checked_and_named() {
    let text = example("sctp-asconf.toml");
    let e = common::load_err(&text, &[("flows[0].sctp.asconf[1].at", "\"4s\"")]);
    assert!(
        e.contains("flows[0].sctp.asconf[1].at") && e.contains("time order"),
        "{e}"
    );
    let e = common::load_err(&text, &[("flows[0].sctp.asconf[0].at", "\"0s\"")]);
    assert!(
        e.contains("flows[0].sctp.asconf[0].at") && e.contains("after the flow's start"),
        "{e}"
    );
}
