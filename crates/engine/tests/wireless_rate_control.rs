//! `radio.rate_control` through the engine: `constant` is today's MAC bit for bit, the
//! adaptive algorithms settle between the PHY's lowest and highest rate on a link where 54
//! Mbit/s fails, per destination, and a run is reproducible.

mod common;

use common::{run_with, without_wall};

/// One saturated 802.11a UDP link, `d` metres.
fn link(d: u32, algo: Option<&str>) -> String {
    let rc = algo.map_or(String::new(), |a| format!("rate_control = \"{a}\""));
    format!(
        r#"
[simulation]
duration = "2s"
seed = 4
[radio]
profile = "80211a"
{rc}
[nodes]
count = 2
[mobility]
model = "static"
placement = "ring"
radius_m = {d}
[[flows]]
src = "n1"
dst = "n0"
transport = "udp"
app = "cbr"
rate = "60Mbps"
packet_size_bytes = 1472
"#
    )
}

/// An IEEE profile adapts by default (Minstrel); a `data_rate` given alone means constant at
/// that rate (issue 35 item 2).
#[test]
fn minstrel_is_the_ieee_default_and_a_data_rate_means_constant() {
    let a = run_with(&link(10, None), &[]);
    let b = run_with(&link(10, Some("minstrel")), &[]);
    assert_eq!(without_wall(&a), without_wall(&b));
    let fixed = link(10, None).replace(
        "profile = \"80211a\"",
        "profile = \"80211a\"\ndata_rate = \"54Mbps\"",
    );
    let c = run_with(&fixed, &[]);
    let d = run_with(&link(10, Some("constant")), &[]);
    assert_eq!(without_wall(&c), without_wall(&d));
    let m = &c.summary.macs[1];
    assert_eq!(m.rate_changes, 0);
    assert_eq!(m.mean_data_rate_bps, 54e6);
}

#[test]
fn adaptive_algorithms_find_a_working_rate() {
    for algo in ["arf", "aarf", "minstrel"] {
        // 45 m: 54 Mbit/s fails, 6 Mbit/s is clean (log-distance, n = 3, 16 dBm).
        let r = run_with(&link(45, Some(algo)), &[]);
        let m = &r.summary.macs[1];
        assert_eq!(m.node, "n1");
        assert!(
            m.mean_data_rate_bps > 9e6 && m.mean_data_rate_bps < 48e6,
            "{algo}: {}",
            m.mean_data_rate_bps
        );
        assert!(m.rate_changes > 0, "{algo}");
        let f = &r.summary.flows[0];
        assert!(f.goodput_bps > 5e6, "{algo}: {}", f.goodput_bps);
        // Reproducible.
        let again = run_with(&link(45, Some(algo)), &[]);
        assert_eq!(without_wall(&r), without_wall(&again));
    }
}
