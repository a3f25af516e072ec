//! Capture files of nodes whose names are made alike by file-name sanitising (`αβγ` and `δεζ`
//! both `___`, `r_1` and `r.1` both `r_1`) are distinct files: none overwrites another.

use sctpsim_engine::{load, run_scenario, RunOptions};
use std::collections::BTreeSet;

const SCENARIO: &str = r#"
[simulation]
duration = "1s"
[[node]]
name = "αβγ"
[[node]]
name = "δεζ"
[[node]]
name = "r_1"
[[node]]
name = "r.1"
[[link]]
between = ["αβγ", "δεζ"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["δεζ", "r_1"]
bandwidth = "10Mbps"
delay = "5ms"
[[link]]
between = ["r_1", "r.1"]
bandwidth = "10Mbps"
delay = "5ms"
[[flows]]
src = "αβγ"
dst = "r.1"
transport = "udp"
app = "cbr"
rate = "100kbps"
"#;

#[test]
fn sanitised_name_clashes_do_not_overwrite_captures() {
    let dir = std::env::temp_dir().join(format!("sctpsim-capnames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sc = load(SCENARIO, &[]).expect("scenario loads");
    let opts = RunOptions {
        pcap_dir: Some(dir.clone()),
        ..RunOptions::default()
    };
    let r = run_scenario(sc, None, &opts, &mut |_| true).expect("run");
    // One file per interface: 1 + 2 + 2 + 1.
    let listed: BTreeSet<_> = r.pcap_files.iter().collect();
    assert_eq!(r.pcap_files.len(), 6, "{:?}", r.pcap_files);
    assert_eq!(listed.len(), 6, "paths repeat: {:?}", r.pcap_files);
    let on_disk = std::fs::read_dir(&dir).expect("capture dir").count();
    assert_eq!(on_disk, 6);
    for name in [
        "___-n0-eth0.pcap",
        "___-n1-eth0.pcap",
        "r_1-n2-eth0.pcap",
        "r_1-n3-eth0.pcap",
    ] {
        assert!(dir.join(name).is_file(), "{name} missing");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
