//! Scenario loading: every broken scenario gives one error naming the field path.

use super::*;

const GOOD: &str = r#"
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
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "100kbps"
"#;

fn err_with(path: &str, value: &str) -> ScenarioError {
    let ov = vec![(path.to_string(), overrides::value_from_cli(value))];
    load(GOOD, &ov).expect_err("override must be rejected")
}

#[test]
fn good_scenario_loads_with_defaults() {
    let s = load(GOOD, &[]).unwrap();
    assert_eq!(s.spec.simulation.seed, 1);
    assert_eq!(s.spec.link[0].queue_limit_packets, 50);
    assert_eq!(s.spec.flows[0].udp_packet_size(), 512);
    assert_eq!(s.spec.link[0].bandwidth.0.bps(), 1_000_000);
}

#[test]
fn hash_ignores_formatting_but_not_values() {
    let a = load(GOOD, &[]).unwrap().hash();
    let reformatted = GOOD.replace("duration = \"10s\"", "duration   =   \"10s\"  # comment");
    assert_eq!(a, load(&reformatted, &[]).unwrap().hash());
    let ov = vec![("simulation.seed".to_string(), toml::Value::Integer(2))];
    assert_ne!(a, load(GOOD, &ov).unwrap().hash());
}

#[test]
fn unknown_field_names_its_path() {
    let e = err_with("link[0].bandwidht", "1Mbps");
    assert_eq!(e.path, "link[0].bandwidht");
    assert!(e.message.contains("unknown field"), "{e}");
    assert!(!e.message.contains(" in `"), "{e}");
}

#[test]
fn wrong_unit_and_missing_unit() {
    let e = err_with("link[0].bandwidth", "2ms");
    assert_eq!(e.path, "link[0].bandwidth");
    assert!(e.message.contains("unknown rate unit"), "{e}");
    let e = err_with("link[0].delay", "5");
    assert_eq!(e.path, "link[0].delay");
    assert!(e.message.contains("no unit"), "{e}");
}

#[test]
fn negative_and_zero_quantities() {
    assert_eq!(
        err_with("link[0].bandwidth", "-2Mbps").path,
        "link[0].bandwidth"
    );
    assert_eq!(
        err_with("link[0].bandwidth", "0Mbps").path,
        "link[0].bandwidth"
    );
    assert_eq!(
        err_with("simulation.duration", "0s").path,
        "simulation.duration"
    );
    assert_eq!(err_with("flows[0].rate", "0bps").path, "flows[0].rate");
}

#[test]
fn references_to_missing_nodes() {
    let e = err_with("link[0].between", "[\"a\", \"zz\"]");
    assert_eq!(e.path, "link[0].between[1]");
    assert!(e.message.contains("no node named \"zz\""));
    assert_eq!(err_with("flows[0].dst", "nowhere").path, "flows[0].dst");
    assert_eq!(err_with("flows[0].dst", "a").path, "flows[0].dst");
}

#[test]
fn loss_model_fields_are_checked() {
    let e = err_with("link[0].loss", "{ model = \"bernoulli\" }");
    assert_eq!(e.path, "link[0].loss.p");
    let e = err_with("link[0].loss", "{ model = \"bernoulli\", p = 2.0 }");
    assert_eq!(e.path, "link[0].loss.p");
    let e = err_with("link[0].loss", "{ model = \"gilbert-elliott\", p = 0.1 }");
    assert_eq!(e.path, "link[0].loss.p");
    let e = err_with("link[0].loss", "{ model = \"bursty\" }");
    assert_eq!(e.path, "link[0].loss.model");
    let e = err_with(
        "link[0].loss",
        "{ model = \"bernoulli\", p = 0.1, from = \"x\" }",
    );
    assert_eq!(e.path, "link[0].loss.from");
}

#[test]
fn scripted_drops_are_checked() {
    let e = err_with("link[0].drops", "[{ flow = 3, packets = [1] }]");
    assert_eq!(e.path, "link[0].drops[0].flow");
    let e = err_with("link[0].drops", "[{ flow = 0, packets = [2, 0] }]");
    assert_eq!(e.path, "link[0].drops[0].packets[1]");
}

#[test]
fn syntax_errors_carry_the_line() {
    let text = "[simulation]\nduration = \"1s\"\n[[node]\nname = \"a\"\n";
    let e = load(text, &[]).unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(e.to_string().starts_with("line 3"), "{e}");
    assert!(!e.to_string().contains('\n'));
}

#[test]
fn errors_are_one_line() {
    for (p, v) in [
        ("link[0].bandwidht", "1"),
        ("link[0].bandwidth", "x"),
        ("flows[0].app", "ftp"),
    ] {
        let e = err_with(p, v);
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}

#[test]
fn sample_interval_below_one_microsecond_is_refused() {
    for v in ["\"1ns\"", "\"999ns\""] {
        let e = err_with("simulation.sample_interval", v);
        assert_eq!(e.path, "simulation.sample_interval", "{e}");
        assert!(e.message.contains("1us"), "{e}");
    }
    // The floor itself is accepted (10 s × 1 µs × 6 rows is 60 M rows, so shorten the run).
    let ov = vec![
        (
            "simulation.sample_interval".to_string(),
            overrides::value_from_cli("\"1us\""),
        ),
        (
            "simulation.duration".to_string(),
            overrides::value_from_cli("\"1s\""),
        ),
    ];
    load(GOOD, &ov).unwrap();
}

#[test]
fn time_series_larger_than_the_row_limit_is_refused() {
    // GOOD samples 1 flow (2 rows) and 1 link (4 rows): 6 rows a sample. 10 s at 5 µs is
    // 2 M samples, 12 M rows.
    let e = err_with("simulation.sample_interval", "\"5us\"");
    assert_eq!(e.path, "simulation.sample_interval", "{e}");
    let m = e.to_string();
    for part in ["10s", "2000000 samples", "12000000", "10000000"] {
        assert!(m.contains(part), "{part} missing: {m}");
    }
    // 10 s at 6 µs: 1,666,667 samples, 10,000,002 rows — one sample over.
    err_with("simulation.sample_interval", "\"6us\"");
    // 10 s at 7 µs is below the limit.
    let ov = vec![(
        "simulation.sample_interval".to_string(),
        overrides::value_from_cli("\"7us\""),
    )];
    load(GOOD, &ov).unwrap();
    // A huge duration with the default interval is refused too, without overflow.
    let e = err_with("simulation.duration", "\"50000000min\"");
    assert_eq!(e.path, "simulation.sample_interval", "{e}");
}

#[test]
fn every_shipped_scenario_is_within_the_sample_budget() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut n = 0;
    for dir in ["examples", "ye2003"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                load(&text, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                n += 1;
            }
        }
    }
    assert!(n >= 11, "found only {n} scenarios");
}

#[test]
fn link_address_equal_to_an_automatic_wireless_address_is_refused() {
    // B is node 1: its radio gets 10.128.0.2 (`wireless::iface::default_addr(1)`).
    let text = r#"
[simulation]
duration = "10s"
[[node]]
name = "A"
wireless = true
position_m = [0, 0]
[[node]]
name = "B"
wireless = true
position_m = [100, 0]
[[node]]
name = "R"
[[link]]
between = ["A", "R"]
bandwidth = "10Mbps"
delay = "5ms"
addresses = ["10.0.0.1", "10.128.0.2"]
[[flows]]
src = "A"
dst = "B"
transport = "tcp-newreno"
app = "ftp"
"#;
    let e = load(text, &[]).expect_err("duplicate address must be refused");
    assert_eq!(e.path, "link[0].addresses[1]", "{e}");
    assert!(e.message.contains("10.128.0.2"), "{e}");
    assert!(
        e.message.contains("node[1]") && e.message.contains("\"B\""),
        "{e}"
    );
    // Another address passes.
    let ok = text.replace("10.128.0.2", "10.0.0.2");
    load(&ok, &[]).expect("distinct addresses load");
}

#[test]
fn pairs_messages_name_the_real_problem() {
    let one_node = r#"
[simulation]
duration = "10s"
[[node]]
name = "a"
[[flows]]
pairs = 1
app = "cbr"
rate = "100kbps"
"#;
    let e = load(one_node, &[]).expect_err("one node cannot make a pair");
    assert_eq!(e.path, "flows[0].pairs", "{e}");
    assert_eq!(
        e.message,
        "a pair needs two nodes (a source and a destination), and the scenario has only 1 node"
    );
    let three = format!("{one_node}[[node]]\nname = \"b\"\n[[node]]\nname = \"c\"\n")
        .replace("pairs = 1", "pairs = 5");
    let e = load(&three, &[]).expect_err("5 pairs need 5 sources");
    assert_eq!(e.path, "flows[0].pairs", "{e}");
    assert_eq!(
        e.message,
        "5 pairs need 5 distinct sources, and there are only 3 nodes (at most 3 pairs)"
    );
    load(&three.replace("pairs = 5", "pairs = 3"), &[]).expect("3 pairs on 3 nodes load");
}
