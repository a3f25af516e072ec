//! A multi-homed SCTP association whose ends each have a wired and a wireless interface: every
//! packet leaves by the interface of its path with that interface's address as its source
//! (the FIB's host routes, `sim/fib.rs`), checked in the IP-level captures of every interface.

use sctpsim_engine::{load, run_scenario, RunOptions};
use std::net::Ipv4Addr;
use std::path::Path;

/// A and B joined by a wired path through R (10.0.0.0/24, 10.0.1.0/24) and by one wireless
/// hop (their `wlan0` addresses, 10.128.0.x). B's wired access link is down from 3 s to 6 s,
/// so data moves to the wireless path and back.
const SCENARIO: &str = r#"
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
addresses = ["10.0.0.1", "10.0.0.2"]
[[link]]
between = ["R", "B"]
bandwidth = "10Mbps"
delay = "5ms"
addresses = ["10.0.1.1", "10.0.1.2"]
[[link.outages]]
start = "3s"
end = "6s"
[[flows]]
src = "A"
dst = "B"
transport = "sctp"
app = "ftp"
[flows.sctp]
hb_interval = "500ms"
path_max_retrans = 1
"#;

/// `(src, dst)` of every IPv4 packet in a LINKTYPE_RAW pcap file.
fn packets(path: &Path) -> Vec<(Ipv4Addr, Ipv4Addr, u8)> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut at = 24; // global header
    while at + 16 <= bytes.len() {
        let incl = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()) as usize;
        let p = &bytes[at + 16..at + 16 + incl];
        let ip = |k: usize| Ipv4Addr::new(p[k], p[k + 1], p[k + 2], p[k + 3]);
        out.push((ip(12), ip(16), p[9]));
        at += 16 + incl;
    }
    out
}

#[test]
fn each_path_leaves_by_its_own_interface_with_its_own_source() {
    let dir = std::env::temp_dir().join(format!("sctpsim-mh-wifi-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sc = load(SCENARIO, &[]).expect("scenario loads");
    let opts = RunOptions {
        pcap_dir: Some(dir.clone()),
        ..RunOptions::default()
    };
    let r = run_scenario(sc, None, &opts, &mut |_| true).expect("run");
    let wired_a: Ipv4Addr = "10.0.0.1".parse().unwrap();
    let wired_b: Ipv4Addr = "10.0.1.2".parse().unwrap();
    let is_wlan = |a: Ipv4Addr| a.octets()[0] == 10 && a.octets()[1] == 128;
    let a_eth = packets(&dir.join("A-eth0.pcap"));
    let a_wlan = packets(&dir.join("A-wlan0.pcap"));
    let b_wlan = packets(&dir.join("B-wlan0.pcap"));
    const SCTP: u8 = 132;
    // Out of A's wired interface: only A's wired address to B's wired address (and back).
    for &(s, d, _) in &a_eth {
        assert!(
            (s, d) == (wired_a, wired_b) || (s, d) == (wired_b, wired_a),
            "wired capture holds {s} -> {d}"
        );
    }
    // Over the air: only wireless addresses, both ways.
    for &(s, d, proto) in a_wlan.iter().chain(&b_wlan) {
        if proto == SCTP {
            assert!(
                is_wlan(s) && is_wlan(d),
                "wireless capture holds {s} -> {d}"
            );
        }
    }
    let data_over_air = a_wlan
        .iter()
        .filter(|(s, _, p)| *p == SCTP && is_wlan(*s))
        .count();
    assert!(
        a_eth.len() > 100,
        "the wired path carried data: {}",
        a_eth.len()
    );
    assert!(
        data_over_air > 100,
        "the wireless path carried the failover: {data_over_air}"
    );
    let f = &r.summary.flows[0];
    assert!(f.bytes_delivered > 1_000_000, "{f:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
