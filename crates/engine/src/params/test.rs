use super::*;

fn rows(text: &str, set: &[(&str, &str)], seed: Option<u64>) -> Vec<ParamRow> {
    let ov: Vec<(String, toml::Value)> = set
        .iter()
        .map(|(p, v)| (p.to_string(), overrides::value_from_cli(v)))
        .collect();
    resolved_parameters(text, &ov, seed).unwrap()
}

fn row<'a>(rows: &'a [ParamRow], path: &str) -> &'a ParamRow {
    rows.iter()
        .find(|r| r.path == path)
        .unwrap_or_else(|| panic!("no row {path}"))
}

const WIRED: &str = r#"
[simulation]
duration = "10s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
between = ["a", "b"]
bandwidth = "1Mbps"
delay = "10ms"
loss = { model = "gilbert-elliott", p_good_to_bad = 0.01, p_bad_to_good = 0.5 }
[[flows]]
src = "a"
dst = "b"
transport = "tcp-reno"
app = "ftp"
tcp = { profile = "ns2", min_rto = "1s" }
[[flows]]
src = "a"
dst = "b"
transport = "sctp"
app = "ftp"
sctp = { profile = "rfc2960" }
"#;

#[test]
fn sources_follow_the_profile_the_file_and_the_overrides() {
    let r = rows(WIRED, &[("flows[0].tcp.mss_bytes", "536")], Some(7));
    let seed = row(&r, "simulation.seed");
    assert_eq!(
        (seed.value.as_u64(), seed.source.as_str()),
        (Some(7), "--seed")
    );
    let si = row(&r, "simulation.sample_interval");
    assert_eq!(
        (si.value.as_f64(), si.source.as_str()),
        (Some(0.1), "default")
    );
    let d = row(&r, "simulation.duration");
    assert_eq!(
        (d.value.as_f64(), d.source.as_str()),
        (Some(10.0), "scenario")
    );
    // ns-2 profile: windowInit_ 1, minrto_ overridden in the file, mss by --set.
    let iw = row(&r, "flows[0].tcp.initial_window_segments");
    assert_eq!(
        (iw.value.as_u64(), iw.source.as_str()),
        (Some(1), "profile ns2")
    );
    let rto = row(&r, "flows[0].tcp.min_rto");
    assert_eq!(rto.value.as_f64(), Some(1.0));
    assert_eq!(rto.default.as_f64(), Some(0.2));
    assert_eq!(rto.source, "scenario");
    let mss = row(&r, "flows[0].tcp.mss_bytes");
    assert_eq!(
        (mss.value.as_u64(), mss.default.as_u64()),
        (Some(536), Some(1000))
    );
    assert_eq!(mss.source, "--set");
    // RFC 2960: fast retransmit on the 4th miss, initial cwnd 2·MTU on the link's 1500 bytes.
    let fr = row(&r, "flows[1].sctp.fast_rtx_threshold");
    assert_eq!(
        (fr.value.as_u64(), fr.source.as_str()),
        (Some(4), "profile rfc2960")
    );
    assert_eq!(
        row(&r, "flows[1].sctp.initial_cwnd_bytes").value.as_u64(),
        Some(3000)
    );
    assert_eq!(
        row(&r, "flows[1].sctp.chunk_bytes").value.as_u64(),
        Some(1452)
    );
    assert_eq!(row(&r, "flows[1].dst_port").value.as_u64(), Some(5001));
    assert_eq!(row(&r, "flows[1].src_port").value.as_u64(), Some(49153));
    // Gilbert–Elliott: the state losses default to Gilbert's 0 and 1.
    let lb = row(&r, "link[0].loss.loss_bad");
    assert_eq!(
        (lb.value.as_f64(), lb.source.as_str()),
        (Some(1.0), "default")
    );
    assert_eq!(row(&r, "link[0].addresses").value[1], "10.0.0.2");
    // No wireless node: no radio rows.
    assert!(r.iter().all(|x| !x.path.starts_with("radio")));
    // Unique paths.
    let mut paths: Vec<&str> = r.iter().map(|x| x.path.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(paths.len(), r.len());
}

const WIRELESS: &str = r#"
[simulation]
duration = "10s"
[radio]
profile = "80211b"
data_rate = "2Mbps"
[nodes]
count = 4
[mobility]
model = "random-waypoint"
area_m = [300, 300]
speed_mps = { min = 1.0, max = 5.0 }
[routing]
protocol = "olsr"
olsr = { hello_interval = "1s" }
[[flows]]
pairs = 2
app = "cbr"
rate = "10kbps"
"#;

#[test]
fn radio_routing_and_mobility_are_resolved() {
    let r = rows(WIRELESS, &[], None);
    let dr = row(&r, "radio.data_rate");
    assert_eq!(
        (dr.value.as_u64(), dr.default.as_u64()),
        (Some(2_000_000), Some(11_000_000))
    );
    assert_eq!(dr.source, "scenario");
    let rec = row(&r, "radio.reception");
    assert_eq!(
        (rec.value.as_str(), rec.source.as_str()),
        (Some("sinr"), "profile 80211b")
    );
    let exp = row(&r, "radio.propagation.exponent");
    assert_eq!(
        (exp.value.as_f64(), exp.source.as_str()),
        (Some(3.0), "profile 80211b")
    );
    assert!(r.iter().all(|x| x.path != "radio.frequency_mhz")); // log-distance: unused
    let h = row(&r, "routing.olsr.hello_interval");
    assert_eq!(
        (h.value.as_f64(), h.default.as_f64()),
        (Some(1.0), Some(2.0))
    );
    assert_eq!(row(&r, "routing.olsr.willingness").value.as_u64(), Some(3));
    let pause = row(&r, "mobility.pause");
    assert_eq!(
        (pause.value.as_f64(), pause.source.as_str()),
        (Some(0.0), "default")
    );
    assert_eq!(row(&r, "mobility.placement").value, "uniform");
    assert_eq!(row(&r, "nodes.prefix").value, "n");
    // Two pair flows: the default source ports of both.
    assert_eq!(
        row(&r, "flows[0].src_port").value,
        serde_json::json!([49152, 49153])
    );
}

#[test]
fn any_rate_of_the_ns2_radio_is_shown() {
    let text = WIRELESS
        .replace("profile = \"80211b\"", "profile = \"ns2-wavelan\"")
        .replace(
            "data_rate = \"2Mbps\"",
            "data_rate = \"150kbps\"\nbasic_rate = \"384kbps\"\nbroadcast_rate = \"200kbps\"",
        );
    let r = rows(&text, &[], None);
    let v = |p: &str| {
        let x = row(&r, p);
        (x.value.as_u64(), x.default.as_u64())
    };
    assert_eq!(v("radio.data_rate"), (Some(150_000), Some(2_000_000)));
    assert_eq!(v("radio.basic_rate"), (Some(384_000), Some(1_000_000)));
    assert_eq!(v("radio.broadcast_rate"), (Some(200_000), Some(2_000_000)));
}

#[test]
fn ns2_21b8_timing_is_shown() {
    let text = WIRELESS
        .replace("profile = \"80211b\"", "profile = \"ns2-wavelan\"")
        .replace(
            "data_rate = \"2Mbps\"",
            "data_rate = \"150kbps\"\ntiming = \"ns2-2.1b8\"",
        );
    let r = rows(&text, &[], None);
    let t = row(&r, "radio.timing");
    assert_eq!(
        (t.value.as_str(), t.default.as_str()),
        (Some("ns2-2.1b8"), Some("standard"))
    );
    // Every frame at the data rate: the basic and broadcast rates follow it.
    for p in ["radio.basic_rate", "radio.broadcast_rate"] {
        assert_eq!(row(&r, p).value.as_u64(), Some(150_000), "{p}");
    }
    let plain = rows(WIRELESS, &[], None);
    assert_eq!(row(&plain, "radio.timing").value.as_str(), Some("standard"));
}

#[test]
fn a_model_the_scenario_chooses_has_its_own_defaults() {
    let text = WIRELESS.replace(
        "data_rate = \"2Mbps\"",
        "reception = \"threshold\"\npropagation = { model = \"shadowing\", std_db = 6.0 }",
    );
    let r = rows(&text, &[], None);
    let std = row(&r, "radio.propagation.std_db");
    assert_eq!(
        (std.value.as_f64(), std.default.as_f64()),
        (Some(6.0), Some(4.0))
    );
    let exp = row(&r, "radio.propagation.exponent");
    assert_eq!(
        (exp.value.as_f64(), exp.source.as_str()),
        (Some(2.0), "default")
    );
    let model = row(&r, "radio.propagation.model");
    assert_eq!(model.default, "log-distance");
    let cp = row(&r, "radio.cp_thresh_db");
    assert_eq!(
        (cp.value.as_f64(), cp.source.as_str()),
        (Some(10.0), "default")
    );
    assert!(r.iter().any(|x| x.path == "radio.frequency_mhz"));
}

#[test]
fn bad_scenarios_are_errors_naming_the_field() {
    let ov = vec![("radio.nope".to_string(), toml::Value::Integer(1))];
    let e = resolved_parameters(WIRELESS, &ov, None).unwrap_err();
    assert!(e.path.starts_with("radio"), "{e}");
}

/// Every shipped example resolves, and every row's path is one `--set` accepts.
#[test]
fn every_example_resolves_to_settable_paths() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/examples");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let r = resolved_parameters(&text, &[], None)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!r.is_empty());
        let table = scenario::parse_toml(&text).unwrap();
        for row in &r {
            // A path the schema lacks is "unknown field"; any other outcome (accepted, wrong
            // type, a failed check) means the field exists.
            let mut t = table.clone();
            let named = overrides::apply(&mut t, &row.path, toml::Value::Integer(0))
                .and_then(|()| scenario::from_table(t).map(|_| ()));
            if let Err(e) = named {
                assert!(
                    !e.message.contains("unknown field") && !e.message.contains("malformed"),
                    "{}: {}: {e}",
                    path.display(),
                    row.path
                );
            }
        }
        n += 1;
    }
    assert!(n > 3);
}

/// The DSR and AODV rows, with and without the ns2 profile: the profile's values with
/// `profile ns2` as their source, explicit fields over the profile, and every path settable.
#[test]
fn dsr_and_aodv_rows_follow_their_profiles() {
    let text = WIRELESS.replace("olsr = { hello_interval = \"1s\" }\n", "");
    for (proto, profile) in [
        ("dsr", "rfc4728"),
        ("dsr", "ns2"),
        ("aodv", "rfc3561"),
        ("aodv", "ns2"),
    ] {
        let set = [
            ("routing.protocol", proto),
            (
                if proto == "dsr" {
                    "routing.dsr.profile"
                } else {
                    "routing.aodv.profile"
                },
                profile,
            ),
        ];
        let r = rows(&text, &set, None);
        let ns2 = profile == "ns2";
        let src = if ns2 { "profile ns2" } else { "default" };
        if proto == "dsr" {
            let tap = row(&r, "routing.dsr.tap");
            assert_eq!((tap.value.as_bool(), tap.source.as_str()), (Some(ns2), src));
            for p in [
                "routing.dsr.gratuitous_replies",
                "routing.dsr.propagate_last_error",
                "routing.dsr.ns2_request_backoff",
            ] {
                assert_eq!(row(&r, p).value.as_bool(), Some(ns2), "{p}");
            }
            assert_eq!(
                row(&r, "routing.dsr.grat_hold_down").value.as_f64(),
                Some(1.0)
            );
            assert_eq!(
                row(&r, "routing.dsr.max_err_hold").value.as_f64(),
                Some(1.0)
            );
            let per = row(&r, "routing.dsr.max_routes_per_dest").value.as_u64();
            assert_eq!(per, Some(if ns2 { 94 } else { 8 }));
        } else {
            let art = row(&r, "routing.aodv.active_route_timeout");
            assert_eq!(art.value.as_f64(), Some(if ns2 { 10.0 } else { 3.0 }));
            assert_eq!(art.source, src);
            let mrt = row(&r, "routing.aodv.my_route_timeout").value.as_f64();
            assert_eq!(mrt, Some(if ns2 { 10.0 } else { 6.0 }));
            let lr = row(&r, "routing.aodv.local_repair").value.as_bool();
            assert_eq!(lr, Some(ns2));
            let ttl = row(&r, "routing.aodv.ttl_start").value.as_u64();
            assert_eq!(ttl, Some(if ns2 { 5 } else { 1 }));
        }
        // Every row's path is a field of the schema.
        let table = scenario::parse_toml(&text).unwrap();
        for x in &r {
            let mut t = table.clone();
            let named = overrides::apply(&mut t, &x.path, toml::Value::Integer(0))
                .and_then(|()| scenario::from_table(t).map(|_| ()));
            if let Err(e) = named {
                assert!(
                    !e.message.contains("unknown field") && !e.message.contains("malformed"),
                    "{}: {e}",
                    x.path
                );
            }
        }
    }
    // An explicit field overrides the profile.
    let r = rows(
        &text,
        &[
            ("routing.protocol", "dsr"),
            ("routing.dsr.profile", "ns2"),
            ("routing.dsr.tap", "false"),
        ],
        None,
    );
    let tap = row(&r, "routing.dsr.tap");
    assert_eq!(
        (tap.value.as_bool(), tap.source.as_str()),
        (Some(false), "--set")
    );
}

/// The ns2 profile without its tap sends no gratuitous replies either (they come from
/// overheard packets); asking for them without the tap is an error naming the field.
#[test]
fn dsr_profile_without_tap_has_no_gratuitous_replies() {
    let text = WIRELESS.replace("olsr = { hello_interval = \"1s\" }\n", "");
    let base = [
        ("routing.protocol", "dsr"),
        ("routing.dsr.profile", "ns2"),
        ("routing.dsr.tap", "false"),
    ];
    let r = rows(&text, &base, None);
    assert_eq!(
        row(&r, "routing.dsr.gratuitous_replies").value.as_bool(),
        Some(false)
    );
    assert_eq!(
        row(&r, "routing.dsr.propagate_last_error").value.as_bool(),
        Some(true)
    );
    let ov: Vec<(String, toml::Value)> = base
        .iter()
        .chain(&[("routing.dsr.gratuitous_replies", "true")])
        .map(|(p, v)| (p.to_string(), overrides::value_from_cli(v)))
        .collect();
    let e = resolved_parameters(&text, &ov, None).unwrap_err();
    assert_eq!(e.path, "routing.dsr.gratuitous_replies", "{e}");
}

/// `radio.rate_control`'s source column holds a source like every row's (it held the
/// algorithms' citations).
#[test]
fn rate_control_source_is_a_source() {
    let r = rows(WIRELESS, &[], None);
    let rc = row(&r, "radio.rate_control");
    assert_eq!(
        (rc.value.as_str(), rc.default.as_str(), rc.source.as_str()),
        (
            Some("constant"),
            Some("minstrel"),
            "constant: radio.data_rate given"
        )
    );
    let r = rows(WIRELESS, &[("radio.rate_control", "\"minstrel\"")], None);
    let rc = row(&r, "radio.rate_control");
    assert_eq!(
        (rc.value.as_str(), rc.source.as_str()),
        (Some("minstrel"), "--set")
    );
}

/// The IEEE profiles adapt their rate by default (issue 35 item 2): without `data_rate` or
/// `rate_control`, 80211b runs Minstrel and `show` says why; ns2-wavelan stays constant.
#[test]
fn ieee_profiles_default_to_minstrel() {
    let text = WIRELESS.replace("data_rate = \"2Mbps\"\n", "");
    let r = rows(&text, &[], None);
    let rc = row(&r, "radio.rate_control");
    assert_eq!(
        (rc.value.as_str(), rc.source.as_str()),
        (
            Some("minstrel"),
            "profile 80211b: minstrel unless data_rate given"
        )
    );
    let text = text.replace("profile = \"80211b\"", "profile = \"ns2-wavelan\"");
    let r = rows(&text, &[], None);
    let rc = row(&r, "radio.rate_control");
    assert_eq!(
        (rc.value.as_str(), rc.source.as_str()),
        (Some("constant"), "default")
    );
}

#[test]
fn sctp_auth_rows() {
    // RFC 4895 AUTH: off and SHA-1 by default, from the default; as set otherwise.
    let r = rows(WIRED, &[], None);
    let auth = row(&r, "flows[1].sctp.auth");
    assert_eq!(
        (
            auth.value.as_bool(),
            auth.default.as_bool(),
            auth.source.as_str()
        ),
        (Some(false), Some(false), "default")
    );
    assert_eq!(row(&r, "flows[1].sctp.auth_hmac").value, "sha1");
    let r = rows(
        WIRED,
        &[
            ("flows[1].sctp.auth", "true"),
            ("flows[1].sctp.auth_hmac", "sha256"),
        ],
        None,
    );
    let auth = row(&r, "flows[1].sctp.auth");
    assert_eq!(
        (auth.value.as_bool(), auth.source.as_str()),
        (Some(true), "--set")
    );
    let hmac = row(&r, "flows[1].sctp.auth_hmac");
    assert_eq!(
        (hmac.value.as_str(), hmac.default.as_str()),
        (Some("sha256"), Some("sha1"))
    );
}

#[test]
fn cmt_cc_given_through_cmt_coupled_has_its_source() {
    let cmt = [("flows[1].sctp.multipath", "\"cmt\"")];
    let r = rows(WIRED, &cmt, None);
    let cc = row(&r, "flows[1].sctp.cmt_cc");
    assert_eq!(
        (cc.value.as_str(), cc.source.as_str()),
        (Some("off"), "default")
    );
    // The older form sets the newer field's value, and its source with it.
    let r = rows(
        WIRED,
        &[cmt[0], ("flows[1].sctp.cmt_coupled", "true")],
        None,
    );
    let cc = row(&r, "flows[1].sctp.cmt_cc");
    assert_eq!(
        (cc.value.as_str(), cc.source.as_str()),
        (Some("lia"), "--set")
    );
    let r = rows(WIRED, &[cmt[0], ("flows[1].sctp.cmt_cc", "\"rpv2\"")], None);
    let cc = row(&r, "flows[1].sctp.cmt_cc");
    assert_eq!(
        (cc.value.as_str(), cc.source.as_str()),
        (Some("rpv2"), "--set")
    );
}

#[test]
fn sctp_i_data_and_scheduler_rows() {
    // RFC 8260: I-DATA off and round robin by default, from the default; the per-stream
    // lists only with the scheduler that uses them, one entry per outbound stream.
    let r = rows(WIRED, &[], None);
    let i = row(&r, "flows[1].sctp.i_data");
    assert_eq!(
        (i.value.as_bool(), i.default.as_bool(), i.source.as_str()),
        (Some(false), Some(false), "default")
    );
    let s = row(&r, "flows[1].sctp.scheduler");
    assert_eq!(
        (s.value.as_str(), s.source.as_str()),
        (Some("rr"), "default")
    );
    assert!(r.iter().all(|x| !x.path.ends_with("stream_priorities")));
    let r = rows(
        WIRED,
        &[
            ("flows[1].sctp.i_data", "true"),
            ("flows[1].sctp.scheduler", "wfq"),
            ("flows[1].sctp.streams", "3"),
            ("flows[1].sctp.stream_weights", "[4, 2]"),
        ],
        None,
    );
    assert_eq!(row(&r, "flows[1].sctp.i_data").value.as_bool(), Some(true));
    assert_eq!(row(&r, "flows[1].sctp.scheduler").value, "wfq");
    let w = row(&r, "flows[1].sctp.stream_weights");
    assert_eq!(w.value, serde_json::json!([4, 2, 1]));
    assert_eq!(w.default, serde_json::json!([1, 1, 1]));
    assert!(r.iter().all(|x| !x.path.ends_with("stream_priorities")));
}

#[test]
fn asctp_ablation_switch_rows_only_with_asctp() {
    let text = include_str!("../../../../scenarios/examples/asctp-route-break.toml");
    let switches = [
        "retransmit_on_data_path",
        "heartbeat_every_rto",
        "two_heartbeat_failures",
        "route_notice",
        "failover_retransmit",
        "tsn_range",
        "fresh_path_state",
        "follow_shorter_route",
    ];
    let r = rows(text, &[("flows[0].sctp.asctp_tsn_range", "false")], None);
    for s in switches {
        let x = row(&r, &format!("flows[0].sctp.asctp_{s}"));
        let off = s == "tsn_range";
        assert_eq!(x.value.as_bool(), Some(!off), "{s}");
        assert_eq!(x.default.as_bool(), Some(true), "{s}");
        assert_eq!(x.source, if off { "--set" } else { "default" }, "{s}");
    }
    // Plain SCTP: no rows (as `asctp_max_routes`).
    let r = rows(WIRED, &[], None);
    assert!(!r.iter().any(|x| x.path.contains("asctp")));
}
