//! Bad radio parameters are scenario errors that name the field (one line, `radio.<field>:`).

mod common;

use common::load_err;

/// Two static wireless nodes 100 m apart and a CBR flow, with a `[radio]` of `radio`.
fn scenario(radio: &str) -> String {
    format!(
        r#"
[simulation]
duration = "1s"
[radio]
{radio}
[[node]]
name = "a"
wireless = true
position_m = [0, 0]
[[node]]
name = "b"
wireless = true
position_m = [100, 0]
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "100kbps"
"#
    )
}

/// The error of `[radio]` = `radio`; asserts it is one line starting with `field:`.
fn rejects(radio: &str, field: &str) -> String {
    let e = load_err(&scenario(radio), &[]);
    assert!(e.starts_with(&format!("{field}:")), "{radio} → {e}");
    assert!(!e.contains('\n'), "{e}");
    e
}

#[test]
fn bad_powers() {
    rejects(r#"tx_power = "0W""#, "radio.tx_power");
    rejects(r#"tx_power = "-1W""#, "radio.tx_power");
    rejects(r#"tx_power = "-3mW""#, "radio.tx_power");
    rejects(r#"tx_power = 0.28"#, "radio.tx_power");
    rejects(r#"rx_thresh = "0W""#, "radio.rx_thresh");
    rejects(r#"cs_thresh = "-1nW""#, "radio.cs_thresh");
    rejects(r#"interference_cutoff = "0W""#, "radio.interference_cutoff");
}

#[test]
fn thresholds_in_the_wrong_order() {
    // ns-2: CSThresh above RXThresh.
    let e = rejects(
        r#"rx_thresh = "-70dBm"
cs_thresh = "-60dBm""#,
        "radio.cs_thresh",
    );
    assert!(e.contains("radio.rx_thresh"), "{e}");
    // A cut-off above what the radio can sense (threshold) or lock on to (SINR).
    rejects(
        r#"interference_cutoff = "-70dBm""#,
        "radio.interference_cutoff",
    );
    rejects(
        r#"profile = "80211b"
interference_cutoff = "-90dBm""#,
        "radio.interference_cutoff",
    );
    // The standard presets' CCA-ED level above their sensitivity is fine for SINR reception.
    let s = scenario(r#"profile = "80211b""#);
    assert!(sctpsim_engine::load(&s, &[]).is_ok());
}

#[test]
fn rates_a_standard_does_not_have() {
    let e = rejects(
        r#"profile = "80211b"
data_rate = "3Mbps""#,
        "radio.data_rate",
    );
    assert!(e.contains("80211b"), "{e}");
    rejects(
        r#"profile = "80211b"
basic_rate = "6Mbps""#,
        "radio.basic_rate",
    );
    rejects(
        r#"profile = "80211a"
broadcast_rate = "11Mbps""#,
        "radio.broadcast_rate",
    );
    rejects(
        r#"profile = "80211g"
data_rate = "150kbps""#,
        "radio.data_rate",
    );
    // ERP has both the DSSS/CCK and the OFDM rates.
    let s = scenario(
        r#"profile = "80211g"
data_rate = "11Mbps"
basic_rate = "6Mbps""#,
    );
    assert!(sctpsim_engine::load(&s, &[]).is_ok());
}

#[test]
fn the_ns2_radio_takes_any_positive_rate() {
    // ns-2's 802.11 MAC took any bandwidth_ (the Mobile IP study: 150 kbit/s to 2 Mbit/s).
    for ok in [
        r#"data_rate = "150kbps""#,
        r#"data_rate = "150kbps"
basic_rate = "150kbps"
broadcast_rate = "150kbps""#,
        r#"data_rate = "384kbps"
basic_rate = "1Mbps""#,
        r#"data_rate = "5.5Mbps""#,
        r#"data_rate = "1kbps""#,
        r#"data_rate = "1Gbps""#,
    ] {
        let s = scenario(ok);
        assert!(sctpsim_engine::load(&s, &[]).is_ok(), "{ok}");
    }
    // Not positive, or absurd: the error names the field.
    rejects(r#"data_rate = "0kbps""#, "radio.data_rate");
    rejects(r#"data_rate = "-150kbps""#, "radio.data_rate");
    rejects(r#"data_rate = "999bps""#, "radio.data_rate");
    let e = rejects(r#"basic_rate = "2Gbps""#, "radio.basic_rate");
    assert!(e.contains("ns2-wavelan"), "{e}");
    rejects(r#"broadcast_rate = "0bps""#, "radio.broadcast_rate");
    // The SINR error models know the 802.11 modulations only.
    let e = rejects(
        r#"data_rate = "150kbps"
reception = "sinr""#,
        "radio.data_rate",
    );
    assert!(e.contains("threshold"), "{e}");
    rejects(
        r#"basic_rate = "200kbps"
reception = "sinr""#,
        "radio.basic_rate",
    );
    // 5.5 Mbit/s has one: CCK.
    let s = scenario(
        r#"data_rate = "5.5Mbps"
reception = "sinr""#,
    );
    assert!(sctpsim_engine::load(&s, &[]).is_ok());
}

#[test]
fn mac_parameters() {
    let e = rejects(
        r#"cw_min = 63
cw_max = 31"#,
        "radio.cw_max",
    );
    assert!(e.contains("cw_min"), "{e}");
    rejects(r#"cw_min = 20"#, "radio.cw_min");
    rejects(r#"cw_max = 0"#, "radio.cw_max");
    rejects(r#"short_retry_limit = 0"#, "radio.short_retry_limit");
    rejects(r#"long_retry_limit = 256"#, "radio.long_retry_limit");
    rejects(r#"retry_accounting = "opnet""#, "radio.retry_accounting");
    rejects(r#"retry_accounting = 4"#, "radio.retry_accounting");
    for ok in ["standard", "per-frame"] {
        let s = scenario(&format!(r#"retry_accounting = "{ok}""#));
        assert!(sctpsim_engine::load(&s, &[]).is_ok(), "{ok}");
    }
    rejects(
        r#"rts_threshold_bytes = 70000"#,
        "radio.rts_threshold_bytes",
    );
    rejects(r#"queue_limit_packets = 0"#, "radio.queue_limit_packets");
    rejects(r#"preamble = "short""#, "radio.preamble");
    rejects(
        r#"profile = "80211a"
preamble = "long""#,
        "radio.preamble",
    );
}

#[test]
fn geometry_and_reception() {
    rejects(r#"frequency_mhz = 0.0"#, "radio.frequency_mhz");
    rejects(r#"frequency_mhz = -2412.0"#, "radio.frequency_mhz");
    rejects(r#"antenna_height_m = 0.0"#, "radio.antenna_height_m");
    rejects(r#"antenna_height_m = -1.5"#, "radio.antenna_height_m");
    rejects(r#"system_loss_db = -3.0"#, "radio.system_loss_db");
    rejects(r#"cp_thresh_db = -1.0"#, "radio.cp_thresh_db");
    rejects(
        r#"profile = "80211b"
noise_figure_db = -2.0"#,
        "radio.noise_figure_db",
    );
    rejects(r#"noise_figure_db = 7.0"#, "radio.noise_figure_db");
    rejects(
        r#"propagation = { model = "log-distance", exponent = 0.0 }"#,
        "radio.propagation.exponent",
    );
    rejects(
        r#"propagation = { model = "shadowing", std_db = -4.0 }"#,
        "radio.propagation.std_db",
    );
}

#[test]
fn rate_control_names() {
    let e = rejects(
        "profile = \"80211a\"\nrate_control = \"foo\"",
        "radio.rate_control",
    );
    assert_eq!(
        e,
        "radio.rate_control: unknown algorithm \"foo\"; expected constant, arf, aarf or minstrel"
    );
    for ok in ["constant", "arf", "aarf", "minstrel"] {
        let text = scenario(&format!("profile = \"80211b\"\nrate_control = \"{ok}\""));
        common::run_with(&text, &[]);
    }
}

#[test]
fn ns2_21b8_timing() {
    // ns-2.1b8's timing is its DSSS MAC's, with every frame at the one rate.
    let e = rejects(
        r#"profile = "80211b"
timing = "ns2-2.1b8""#,
        "radio.timing",
    );
    assert!(e.contains("ns2-wavelan"), "{e}");
    rejects(r#"timing = "ns2""#, "radio.timing");
    let e = rejects(
        r#"timing = "ns2-2.1b8"
data_rate = "150kbps"
basic_rate = "1Mbps""#,
        "radio.basic_rate",
    );
    assert!(e.contains("150 kbit/s"), "{e}");
    rejects(
        r#"timing = "ns2-2.1b8"
broadcast_rate = "1Mbps""#,
        "radio.broadcast_rate",
    );
    rejects(
        r#"timing = "ns2-2.1b8"
rate_control = "arf""#,
        "radio.rate_control",
    );
    rejects(
        r#"timing = "ns2-2.1b8"
reception = "sinr""#,
        "radio.reception",
    );
    for ok in [
        r#"timing = "standard""#,
        r#"timing = "ns2-2.1b8""#,
        r#"timing = "ns2-2.1b8"
data_rate = "150kbps""#,
        r#"timing = "ns2-2.1b8"
data_rate = "384kbps"
basic_rate = "384kbps"
broadcast_rate = "384kbps""#,
    ] {
        let s = scenario(ok);
        assert!(sctpsim_engine::load(&s, &[]).is_ok(), "{ok}");
    }
}
