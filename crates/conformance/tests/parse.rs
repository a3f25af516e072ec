//! The parser on every script of the ETSI TS 102 369 suite (read from
//! `../shared/conformance/etsi-sctp`, or `SCTPSIM_ETSI_DIR`, when present) and on sctpsim's own
//! fixture with every statement form those scripts use.

use std::path::{Path, PathBuf};

use sctpsim_conformance::ast::{Action, ChunkSpec, Direction, EventTime, PacketBody};
use sctpsim_conformance::parse_script;

fn etsi_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SCTPSIM_ETSI_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/etsi-sctp")
        });
    dir.is_dir().then_some(dir)
}

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scripts(&p, out);
        } else if p.extension().is_some_and(|e| e == "pkt") {
            out.push(p);
        }
    }
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn all_scripts() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(d) = etsi_dir() {
        scripts(&d, &mut out);
        assert!(out.len() >= 80, "expected the ETSI suite in {d:?}");
    }
    scripts(&fixture_dir(), &mut out);
    out
}

#[test]
fn every_script_parses_with_each_platform() {
    let mut n = 0;
    for p in all_scripts() {
        let text = std::fs::read_to_string(&p).unwrap();
        for defines in [
            vec!["FreeBSD".to_string()],
            vec!["Linux".to_string()],
            vec![],
        ] {
            if let Err(e) = parse_script(&text, &defines) {
                panic!("{}: {e} (defines {defines:?})", p.display());
            }
        }
        n += 1;
    }
    assert!(n >= 1);
}

#[test]
fn fixture_has_every_form() {
    let text = std::fs::read_to_string(fixture_dir().join("all-forms.pkt")).unwrap();
    let s = parse_script(&text, &["FreeBSD".to_string()]).unwrap();
    assert_eq!(s.options.len(), 1);
    assert_eq!(s.options[0].name, "tolerance_usecs");
    assert_eq!(s.options[0].value.as_deref(), Some("20000"));
    // The Linux-only setsockopt is skipped, the FreeBSD commands are kept.
    assert!(matches!(s.events[0].action, Action::Command(_)));
    assert_eq!(s.events[0].time, EventTime::Absolute(0));
    let syscalls: Vec<&str> = s
        .events
        .iter()
        .filter_map(|e| match &e.action {
            Action::Syscall(c) => Some(c.name.as_str()),
            _ => None,
        })
        .collect();
    for name in [
        "socket",
        "bind",
        "fcntl",
        "setsockopt",
        "connect",
        "sctp_connectx",
        "getsockopt",
        "write",
        "read",
        "shutdown",
        "close",
        "listen",
        "accept",
    ] {
        assert!(syscalls.contains(&name), "{name} missing");
    }
    let mut chunk_names = std::collections::BTreeSet::new();
    let mut any_time = false;
    let mut tagged = false;
    for e in &s.events {
        any_time |= e.time == EventTime::Any;
        if let Action::Packet(p) = &e.action {
            tagged |= p.tag == Some(1) && p.direction == Direction::Inbound;
            let PacketBody::Chunks(chunks) = &p.chunks else {
                panic!()
            };
            for c in chunks {
                chunk_names.insert(
                    format!("{c:?}")
                        .split(['{', '(', ' '])
                        .next()
                        .unwrap()
                        .to_string(),
                );
                if let ChunkSpec::Sack { gaps: Some(g), .. } = c {
                    if g.len() == 2 {
                        assert_eq!(g, &vec![(2, 2), (4, 5)]);
                    }
                }
            }
        }
    }
    assert!(any_time && tagged);
    for name in [
        "Data",
        "Init",
        "InitAck",
        "Sack",
        "Heartbeat",
        "HeartbeatAck",
        "Abort",
        "Shutdown",
        "ShutdownAck",
        "Error",
        "CookieEcho",
        "CookieAck",
        "ShutdownComplete",
        "Generic",
    ] {
        assert!(
            chunk_names.contains(name),
            "{name} missing from {chunk_names:?}"
        );
    }
    // With Linux defined the other branch is taken.
    let linux = parse_script(&text, &["Linux".to_string()]).unwrap();
    assert!(matches!(linux.events[0].action, Action::Syscall(_)));
    assert_eq!(linux.events[0].line, 11);
}

#[test]
fn errors_carry_lines_and_never_panic() {
    let text = std::fs::read_to_string(fixture_dir().join("all-forms.pkt")).unwrap();
    // Cut the fixture at every token boundary-ish position: the parser reports an error or
    // succeeds, it never panics, and an error line is within the text.
    let lines = text.lines().count() as u32 + 1;
    for cut in (0..text.len()).step_by(7) {
        if !text.is_char_boundary(cut) {
            continue;
        }
        if let Err(e) = parse_script(&text[..cut], &["FreeBSD".to_string()]) {
            assert!(e.line >= 1 && e.line <= lines, "{e}");
        }
    }
}
