//! What the Wireshark cross-checks (`sctp_tshark.rs`, `mip_tshark.rs`) share: whether tshark is
//! installed, writing a raw-IP capture, and running tshark with checksum validation on.

use std::path::{Path, PathBuf};
use std::process::Command;

use sctpsim_wire::pcap::LINKTYPE_RAW;
use sctpsim_wire::PcapWriter;

/// Whether `tshark` runs here (the cross-checks skip themselves otherwise).
pub fn available() -> bool {
    Command::new("tshark")
        .arg("-v")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Writes `packets` (IPv4 datagrams, 1 ms apart) as a LINKTYPE_RAW capture in the temporary
/// directory; `name` keeps the captures of different tests apart.
pub fn write_pcap(name: &str, packets: &[Vec<u8>]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("sctpsim-{name}-{}.pcap", std::process::id()));
    let mut writer = PcapWriter::new(Vec::new(), LINKTYPE_RAW).unwrap();
    for (i, p) in packets.iter().enumerate() {
        writer.write_packet(i as u64 * 1_000_000, p).unwrap();
    }
    std::fs::write(&path, writer.into_inner()).unwrap();
    path
}

/// Runs tshark on the capture at `path` with the preferences `prefs` (`name:value`, each
/// passed with `-o`) and `args`; returns its standard output (panics if tshark fails).
pub fn run(path: &Path, prefs: &[&str], args: &[&str]) -> String {
    let mut cmd = Command::new("tshark");
    cmd.arg("-r").arg(path);
    for p in prefs {
        cmd.args(["-o", p]);
    }
    let out = cmd.args(args).output().expect("run tshark");
    assert!(
        out.status.success(),
        "tshark failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
