//! IP-level packet captures: one pcap file per node interface (`<node>-<iface>.pcap`, the node
//! name made file-name safe and unique by `file_stems`,
//! LINKTYPE_RAW, nanosecond timestamps), holding what the interface sent and received — the
//! layout of ns-3's per-device pcap traces. Wireless interfaces also get a MAC-level capture
//! (`<node>-<iface>-mac.pcap`, LINKTYPE_IEEE802_11_RADIOTAP: every 802.11 frame the interface
//! sent and every frame it received without error, with its FCS, behind a radiotap header whose
//! Flags declare the FCS and which records the rate and, for received frames, the signal power).

use crate::topology::Topology;
use sctpsim_kernel::{NodeId, SimTime};
use sctpsim_wire::pcap::{PcapWriter, Radiotap, LINKTYPE_IEEE802_11_RADIOTAP, LINKTYPE_RAW};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// Open pcap writers, indexed by node then interface.
pub struct Capture {
    writers: Vec<Vec<PcapWriter<BufWriter<File>>>>,
    /// MAC-level writers of wireless interfaces, indexed like `writers`.
    mac_writers: Vec<Vec<Option<PcapWriter<BufWriter<File>>>>>,
    files: Vec<PathBuf>,
    error: Option<io::Error>,
    /// Scratch buffer for a radiotap header and its frame.
    scratch: Vec<u8>,
}

impl Capture {
    /// Create `dir` and one file per interface of every node.
    pub fn open(dir: &Path, topo: &Topology) -> io::Result<Capture> {
        std::fs::create_dir_all(dir)?;
        let mut writers = Vec::new();
        let mut mac_writers = Vec::new();
        let mut files = Vec::new();
        let names: Vec<&str> = topo.nodes.iter().map(|n| n.name.as_str()).collect();
        let stems = file_stems(&names);
        for (node, stem) in topo.nodes.iter().zip(&stems) {
            let mut per = Vec::new();
            let mut mac_per = Vec::new();
            for iface in &node.ifaces {
                let path = dir.join(format!("{stem}-{}.pcap", iface.name));
                let w = PcapWriter::new(BufWriter::new(File::create(&path)?), LINKTYPE_RAW)?;
                files.push(path);
                per.push(w);
                mac_per.push(match iface.wireless {
                    Some(_) => {
                        let path = dir.join(format!("{stem}-{}-mac.pcap", iface.name));
                        let f = BufWriter::new(File::create(&path)?);
                        files.push(path);
                        Some(PcapWriter::new(f, LINKTYPE_IEEE802_11_RADIOTAP)?)
                    }
                    None => None,
                });
            }
            writers.push(per);
            mac_writers.push(mac_per);
        }
        Ok(Capture {
            writers,
            mac_writers,
            files,
            error: None,
            scratch: Vec::new(),
        })
    }

    /// Record `bytes` on (node, iface) at `now`. The first I/O error is kept and reported by
    /// [`Capture::finish`]; later records are skipped.
    pub fn record(&mut self, node: NodeId, iface: u32, now: SimTime, bytes: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if let Some(w) = self
            .writers
            .get_mut(node.index())
            .and_then(|v| v.get_mut(iface as usize))
        {
            if let Err(e) = w.write_packet(now.0, bytes) {
                self.error = Some(e);
            }
        }
    }

    /// Record an 802.11 frame (MPDU with FCS) behind the radiotap header `radio` on the
    /// MAC-level capture of wireless interface (node, iface) at `now`. Errors as for
    /// [`Capture::record`].
    pub fn record_mac(
        &mut self,
        node: NodeId,
        iface: u32,
        now: SimTime,
        radio: Radiotap,
        frame: &[u8],
    ) {
        if self.error.is_some() {
            return;
        }
        if let Some(Some(w)) = self
            .mac_writers
            .get_mut(node.index())
            .and_then(|v| v.get_mut(iface as usize))
        {
            self.scratch.clear();
            radio.emit(&mut self.scratch);
            self.scratch.extend_from_slice(frame);
            if let Err(e) = w.write_packet(now.0, &self.scratch) {
                self.error = Some(e);
            }
        }
    }

    /// Flush every file; the paths written, or the first error.
    pub fn finish(mut self) -> io::Result<Vec<PathBuf>> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        for per in &mut self.writers {
            for w in per {
                w.flush()?;
            }
        }
        for per in &mut self.mac_writers {
            for w in per.iter_mut().flatten() {
                w.flush()?;
            }
        }
        Ok(self.files)
    }
}

/// The file-name stem of each node's captures, indexed like `names` (node indices). A name
/// is made portable by [`sanitize`]; since that maps distinct names to one (`r_1` and `r.1`,
/// `αβγ` and `δεζ`), and one node's files would then silently overwrite another's, a stem
/// that was changed, or that another node's stem equals, gets the node index appended
/// (`r_1-n3`). Repeated until no two stems are equal: an unchanged name can equal another
/// node's suffixed stem (a node literally named `r_1-n3`). Stems ending in distinct indices
/// always differ, so this ends after at most one pass per node.
fn file_stems(names: &[&str]) -> Vec<String> {
    let mut stems: Vec<String> = names.iter().map(|n| sanitize(n)).collect();
    let changed: Vec<bool> = stems.iter().zip(names).map(|(s, n)| s != n).collect();
    let mut suffixed = vec![false; names.len()];
    loop {
        let mut count = std::collections::BTreeMap::<&str, usize>::new();
        for s in &stems {
            *count.entry(s.as_str()).or_default() += 1;
        }
        let todo: Vec<usize> = (0..stems.len())
            .filter(|&i| !suffixed[i] && (changed[i] || count[stems[i].as_str()] > 1))
            .collect();
        if todo.is_empty() {
            return stems;
        }
        for i in todo {
            stems[i].push_str(&format!("-n{i}"));
            suffixed[i] = true;
        }
    }
}

/// Node names become file names: keep them portable.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::file_stems;
    use std::collections::BTreeSet;

    #[test]
    fn names_that_sanitise_alike_get_distinct_stems() {
        let names = ["αβγ", "δεζ", "r_1", "r.1", "plain", "r_1-n3"];
        let stems = file_stems(&names);
        assert_eq!(
            stems,
            ["___-n0", "___-n1", "r_1-n2", "r_1-n3", "plain", "r_1-n3-n5"]
        );
        let unique: BTreeSet<&String> = stems.iter().collect();
        assert_eq!(unique.len(), names.len());
    }

    #[test]
    fn portable_unique_names_are_kept() {
        assert_eq!(file_stems(&["A", "B", "r-1_x"]), ["A", "B", "r-1_x"]);
    }
}
