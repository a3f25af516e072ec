//! Bounded reading of a mobility trace file (`mobility.file`).
//!
//! The setdest and BonnMotion importers (`sctpsim_world::mobility`) take text; this is the
//! one place the engine reads that text from disk, and it refuses what would exhaust memory
//! before the run starts: `"/dev/zero"` used to be read with `read_to_string` and grew past
//! 4 GiB in seconds. A file must be a regular file (not a device, FIFO or directory), at most
//! [`MAX_TRACE_FILE_BYTES`] long, and no line may exceed [`MAX_TRACE_LINE_BYTES`]. The size
//! is checked before anything is read and again while reading (a file may grow, and some
//! regular files such as those under `/proc` report size 0). A trace given inline
//! (`mobility.text`) is held to the same bounds ([`check_trace_text`]): it is already in
//! memory, but the importers would build trajectories from it as large again.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};

/// Largest trace file read, bytes (1 GiB). ns-2 `setdest` output for 1,000 nodes over an
/// hour at 1 s pauses is a few hundred MB at most; the imported trajectories take about as
/// much memory again as the text, so a larger file is more likely a mistake than a trace.
pub const MAX_TRACE_FILE_BYTES: u64 = 1 << 30;

/// Longest line, bytes (16 MiB). A BonnMotion trace has one line per node with all its
/// waypoints (~30 bytes each), so 16 MiB is over 500,000 waypoints for one node; a setdest
/// line is under 100 bytes. The bound keeps a newline-free file from being read as a single
/// line.
pub const MAX_TRACE_LINE_BYTES: usize = 16 << 20;

/// Reads `path` as UTF-8 text under the default bounds; the error is a message for
/// `mobility.file`.
pub fn read_trace_file(path: &str) -> Result<String, String> {
    read_bounded(path, MAX_TRACE_FILE_BYTES, MAX_TRACE_LINE_BYTES)
}

/// Checks an inline trace (`mobility.text`) against the bounds of a trace file; the error is a
/// message for `mobility.text`.
pub fn check_trace_text(text: &str) -> Result<(), String> {
    check_text_bounded(text, MAX_TRACE_FILE_BYTES, MAX_TRACE_LINE_BYTES)
}

/// [`check_trace_text`] with explicit bounds (tests use small ones).
pub fn check_text_bounded(text: &str, max_bytes: u64, max_line: usize) -> Result<(), String> {
    if text.len() as u64 > max_bytes {
        return Err(format!(
            "the inline trace is {} bytes, above the limit of {max_bytes} bytes for a mobility trace",
            text.len()
        ));
    }
    for (i, line) in text.split('\n').enumerate() {
        let body = line.strip_suffix('\r').unwrap_or(line);
        if body.len() > max_line {
            return Err(format!(
                "line {} of the inline trace is longer than the limit of {max_line} bytes",
                i + 1
            ));
        }
    }
    Ok(())
}

/// [`read_trace_file`] with explicit bounds (tests use small ones).
pub fn read_bounded(path: &str, max_bytes: u64, max_line: usize) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read \"{path}\": {e}");
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!(
            "\"{path}\" is not a regular file (a device, FIFO or directory could be endless)"
        ));
    }
    let too_big =
        || format!("\"{path}\" is larger than the limit of {max_bytes} bytes for a mobility trace");
    if meta.len() > max_bytes {
        return Err(too_big());
    }
    let file = File::open(path).map_err(cannot)?;
    // One byte over the bound tells a file that grew past it from one that ends there.
    let mut reader = BufReader::new(file.take(max_bytes.saturating_add(1)));
    let mut text = String::new();
    let mut line = Vec::new();
    for line_no in 1usize.. {
        line.clear();
        let limit = u64::try_from(max_line)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let n = (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut line)
            .map_err(cannot)?;
        if n == 0 {
            break;
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        if body.len() > max_line {
            return Err(format!(
                "\"{path}\" line {line_no} is longer than the limit of {max_line} bytes"
            ));
        }
        let s = std::str::from_utf8(&line)
            .map_err(|_| format!("\"{path}\" line {line_no} is not valid UTF-8"))?;
        text.push_str(s);
        if text.len() as u64 > max_bytes {
            return Err(too_big());
        }
    }
    Ok(text)
}

#[cfg(test)]
mod test {
    use super::*;
    use std::io::Write;
    use std::path::PathBuf;

    /// A file in the temp directory, removed on drop.
    struct Temp(PathBuf);

    impl Temp {
        fn new(name: &str, bytes: &[u8]) -> Temp {
            let p =
                std::env::temp_dir().join(format!("sctpsim-trace-{}-{name}", std::process::id()));
            std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
            Temp(p)
        }
        fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn reads_a_small_file_whole() {
        let t = Temp::new("ok", b"0 1 2\r\n0 3 4\nno newline at end");
        assert_eq!(
            read_bounded(t.path(), 100, 20).unwrap(),
            "0 1 2\r\n0 3 4\nno newline at end"
        );
        // Both bounds are inclusive: 30 bytes, longest line 17 bytes.
        assert_eq!(read_bounded(t.path(), 30, 17).unwrap().len(), 30);
        assert!(read_bounded(t.path(), 29, 17).is_err());
        assert!(read_bounded(t.path(), 30, 16).is_err());
    }

    #[test]
    fn refuses_a_file_over_the_size_bound_before_reading() {
        let t = Temp::new("big", b"0 1 2\n0 3 4\n");
        let e = read_bounded(t.path(), 11, 100).unwrap_err();
        assert!(e.contains("larger than the limit of 11 bytes"), "{e}");
        // The real bound, on a sparse file one byte over it (nothing is written or read).
        let sparse = Temp::new("sparse", b"");
        std::fs::OpenOptions::new()
            .write(true)
            .open(sparse.path())
            .unwrap()
            .set_len(MAX_TRACE_FILE_BYTES + 1)
            .unwrap();
        let e = read_trace_file(sparse.path()).unwrap_err();
        assert!(e.contains("larger than the limit"), "{e}");
    }

    #[test]
    fn refuses_a_line_over_the_line_bound() {
        let t = Temp::new("line", b"short\n0123456789\n");
        let e = read_bounded(t.path(), 100, 9).unwrap_err();
        assert!(
            e.contains("line 2 is longer than the limit of 9 bytes"),
            "{e}"
        );
        // Without a newline at all, too.
        let t = Temp::new("noline", &[b'0'; 64]);
        let e = read_bounded(t.path(), 100, 16).unwrap_err();
        assert!(e.contains("line 1 is longer"), "{e}");
    }

    #[test]
    fn refuses_invalid_utf8_with_its_line() {
        let t = Temp::new("utf8", b"ok\n\xff\xfe\n");
        let e = read_bounded(t.path(), 100, 100).unwrap_err();
        assert!(e.contains("line 2 is not valid UTF-8"), "{e}");
    }

    #[test]
    fn inline_traces_have_the_same_bounds() {
        assert!(check_text_bounded("0 1 2\r\n0 3 4\nend", 30, 9).is_ok());
        let e = check_text_bounded("0 1 2\n0123456789\n", 100, 9).unwrap_err();
        assert!(
            e.contains("line 2 of the inline trace is longer than the limit of 9"),
            "{e}"
        );
        let e = check_text_bounded("0 1 2\n0 3 4\n", 11, 100).unwrap_err();
        assert!(e.contains("above the limit of 11 bytes"), "{e}");
        let long = "0".repeat(MAX_TRACE_LINE_BYTES + 1);
        assert!(check_trace_text(&long).is_err());
    }

    #[test]
    fn refuses_directories_and_devices() {
        let dir = std::env::temp_dir();
        let e = read_trace_file(dir.to_str().unwrap()).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        #[cfg(target_os = "linux")]
        {
            let e = read_trace_file("/dev/zero").unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
    }
}
