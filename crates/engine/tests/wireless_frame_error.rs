//! The distance-dependent frame error model (`radio.frame_error`): the measured loss of
//! frames at a few distances matches the model within statistical error.

mod common;

use common::{load_err, run_seeded, without_wall};

/// Three isolated pairs (each `a_k` → `b_k`, `d_k` apart; pairs 3 km apart, far beyond the
/// 550 m carrier-sense range) with a CBR flow each, and `[radio.frame_error]` = `fe`.
fn pairs(distances: &[f64], fe: &str) -> String {
    let mut s = format!(
        r#"
[simulation]
duration = "30s"
[radio]
frame_error = {fe}
"#
    );
    for (k, d) in distances.iter().enumerate() {
        let y = 3000.0 * k as f64;
        s += &format!(
            r#"
[[node]]
name = "a{k}"
wireless = true
position_m = [0, {y}]
[[node]]
name = "b{k}"
wireless = true
position_m = [{d}, {y}]
"#
        );
    }
    for k in 0..distances.len() {
        s += &format!(
            r#"
[[flows]]
src = "a{k}"
dst = "b{k}"
app = "cbr"
rate = "128kbps"
packet_size_bytes = 512
"#
        );
    }
    s
}

#[test]
fn measured_frame_loss_matches_the_model() {
    // p(d) = 0.5 · d / 250 m: 0.1, 0.24 and 0.4 at 50, 120 and 200 m.
    let distances = [50.0, 120.0, 200.0];
    let fe = r#"{ model = "distance-linear", points = [[0.0, 0.0], [250.0, 0.5]] }"#;
    let r = run_seeded(&pairs(&distances, fe), &[], None);
    let macs = &r.summary.macs;
    for (k, d) in distances.iter().enumerate() {
        let p = 0.5 * d / 250.0;
        // Both radios of the pair: RTS and DATA at b, CTS and Ack at a. Each frame that the
        // threshold model passed (no collisions here) is one Bernoulli(p) trial.
        let (mut lost, mut trials) = (0u64, 0u64);
        for m in &macs[2 * k..2 * k + 2] {
            assert_eq!(m.phy_collisions, 0);
            lost += m.phy_frame_errors;
            trials += m.phy_frame_errors + m.rx_frames;
            // The MAC saw each lost frame as received in error.
            assert_eq!(m.rx_errors, m.phy_frame_errors);
        }
        let p_hat = lost as f64 / trials as f64;
        let sigma = (p * (1.0 - p) / trials as f64).sqrt();
        assert!(trials > 2000, "{trials}");
        assert!(
            (p_hat - p).abs() < 4.0 * sigma,
            "d = {d} m: measured {p_hat:.4} over {trials} frames, model {p}"
        );
    }
    // Losses cost retries: the farthest pair retransmits most.
    let retries: Vec<u64> = (0..3).map(|k| macs[2 * k].tx_data_retries).collect();
    assert!(
        retries[0] < retries[1] && retries[1] < retries[2],
        "{retries:?}"
    );
}

#[test]
fn exponential_model_and_determinism() {
    let fe = r#"{ model = "distance-exponential", p0 = 0.01, d0_m = 50.0, max_p = 0.3 }"#;
    let text = pairs(&[100.0, 240.0], fe);
    let a = run_seeded(&text, &[], Some(3));
    let b = run_seeded(&text, &[], Some(3));
    assert_eq!(without_wall(&a), without_wall(&b));
    // 0.01·e² ≈ 0.074 at 100 m; the cap 0.3 at 240 m (0.01·e^4.8 ≈ 1.2).
    for (k, p) in [(0, 0.01 * 2f64.exp()), (1, 0.3)] {
        let m = &a.summary.macs[2 * k + 1];
        let trials = m.phy_frame_errors + m.rx_frames;
        let p_hat = m.phy_frame_errors as f64 / trials as f64;
        let sigma = (p * (1.0 - p) / trials as f64).sqrt();
        assert!((p_hat - p).abs() < 4.0 * sigma, "{k}: {p_hat} vs {p}");
    }
    // Without the model nothing is lost and the other streams are untouched.
    let none = run_seeded(
        &pairs(
            &[100.0, 240.0],
            "{ model = \"distance-linear\", points = [[0.0, 0.0]] }",
        ),
        &[],
        Some(3),
    );
    assert!(none.summary.macs.iter().all(|m| m.phy_frame_errors == 0));
}

#[test]
fn bad_frame_error_parameters_name_the_field() {
    let base = pairs(
        &[100.0],
        "{ model = \"distance-linear\", points = [[0.0, 0.1]] }",
    );
    let bad = |fe: &str| load_err(&base, &[("radio.frame_error", fe)]);
    let e = bad("{ model = \"distance-linear\", points = [[0.0, 1.5]] }");
    assert!(e.starts_with("radio.frame_error.points:"), "{e}");
    let e = bad("{ model = \"distance-linear\", points = [[10.0, 0.1], [5.0, 0.2]] }");
    assert!(e.starts_with("radio.frame_error.points:"), "{e}");
    let e = bad("{ model = \"distance-linear\" }");
    assert!(e.starts_with("radio.frame_error.points:"), "{e}");
    let e = bad("{ model = \"distance-linear\", points = [[0.0, 0.1]], p0 = 0.1 }");
    assert!(e.starts_with("radio.frame_error.p0:"), "{e}");
    let e = bad("{ model = \"distance-exponential\", p0 = 0.1, d0_m = 0.0 }");
    assert!(e.starts_with("radio.frame_error.d0_m:"), "{e}");
    let e = bad("{ model = \"distance-exponential\", d0_m = 10.0 }");
    assert!(e.starts_with("radio.frame_error.p0:"), "{e}");
    let e = bad("{ model = \"rayleigh\" }");
    assert!(e.starts_with("radio.frame_error.model:"), "{e}");
}

#[test]
fn a_unit_of_bytes_or_airtime_scales_the_loss_with_the_frame() {
    // At a only CTS and Ack arrive: 14 bytes each, 304 µs on the air (192 µs of long PLCP and
    // 112 bits at the basic rate, 1 Mbit/s). A reference of 7 bytes or 152 µs makes each of them two
    // units: lost with 1 − (1 − p)² instead of p. p = 0.2 at 100 m.
    let table = "model = \"distance-linear\", points = [[0.0, 0.0], [250.0, 0.5]]";
    let p: f64 = 0.2;
    for (unit, want) in [
        ("", p),
        (
            ", unit = \"byte\", reference_bytes = 7",
            1.0 - (1.0 - p).powi(2),
        ),
        (
            ", unit = \"airtime\", reference_airtime = \"152us\"",
            1.0 - (1.0 - p).powi(2),
        ),
        (
            ", unit = \"byte\", reference_bytes = 28",
            1.0 - (1.0 - p).sqrt(),
        ),
    ] {
        let r = run_seeded(&pairs(&[100.0], &format!("{{ {table}{unit} }}")), &[], None);
        let a = &r.summary.macs[0];
        let trials = a.phy_frame_errors + a.rx_frames;
        let p_hat = a.phy_frame_errors as f64 / trials as f64;
        let sigma = (want * (1.0 - want) / trials as f64).sqrt();
        assert!(trials > 1500, "{unit}: {trials}");
        assert!(
            (p_hat - want).abs() < 4.0 * sigma,
            "{unit}: measured {p_hat:.4} over {trials} frames, model {want:.4}"
        );
    }
}

#[test]
fn a_unit_needs_its_reference_and_nothing_else() {
    let base = pairs(
        &[100.0],
        "{ model = \"distance-linear\", points = [[0.0, 0.1]] }",
    );
    let bad = |tail: &str| {
        let fe = format!("{{ model = \"distance-linear\", points = [[0.0, 0.1]]{tail} }}");
        load_err(&base, &[("radio.frame_error", &fe)])
    };
    let e = bad(", unit = \"byte\"");
    assert!(e.starts_with("radio.frame_error.reference_bytes:"), "{e}");
    let e = bad(", unit = \"airtime\"");
    assert!(e.starts_with("radio.frame_error.reference_airtime:"), "{e}");
    let e = bad(", reference_bytes = 100");
    assert!(e.starts_with("radio.frame_error.reference_bytes:"), "{e}");
    let e = bad(", unit = \"byte\", reference_bytes = 0");
    assert!(e.starts_with("radio.frame_error.reference_bytes:"), "{e}");
    let e = bad(", unit = \"airtime\", reference_airtime = \"0s\"");
    assert!(e.starts_with("radio.frame_error.reference_airtime:"), "{e}");
    let e = bad(", unit = \"bit\"");
    assert!(e.starts_with("radio.frame_error.unit:"), "{e}");
}
