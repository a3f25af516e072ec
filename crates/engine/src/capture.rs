//! IP-level packet captures: one pcap file per node interface (`<node>-<iface>.pcap`,
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
        for node in &topo.nodes {
            let mut per = Vec::new();
            let mut mac_per = Vec::new();
            for iface in &node.ifaces {
                let path = dir.join(format!("{}-{}.pcap", sanitize(&node.name), iface.name));
                let w = PcapWriter::new(BufWriter::new(File::create(&path)?), LINKTYPE_RAW)?;
                files.push(path);
                per.push(w);
                mac_per.push(match iface.wireless {
                    Some(_) => {
                        let path =
                            dir.join(format!("{}-{}-mac.pcap", sanitize(&node.name), iface.name));
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
