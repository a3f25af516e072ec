//! sctpsim's own packetdrill scripts in `tests/conformance/`: invalid-message handling of RFC
//! 9260 (§3.2, §3.3, §6.2, §6.10, §8.4, §8.5) under `invalid/`, socket options under
//! `options/`. Each must pass, unless a sibling `.exfail` names the RFC rule the endpoint
//! misses: then it must fail, for a reason of the endpoint (not a parse error, not a construct
//! the runner cannot express, not a panic), so that the mark is removed once the endpoint is
//! fixed.

use std::path::{Path, PathBuf};

use sctpsim_conformance::{parse_script, run_script, RunOptions};

fn scripts(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pkt"))
        .collect();
    out.sort();
    out
}

fn check_dir(dir: &str, at_least: usize) {
    let files = scripts(dir);
    assert!(
        files.len() >= at_least,
        "{dir}: {} scripts, expected at least {at_least}",
        files.len()
    );
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(
            text.lines().any(|l| l.contains("RFC")),
            "{}: the script must cite its RFC section",
            f.display()
        );
        let out = run_script(&text, &f.display().to_string(), &RunOptions::default());
        let exfail = f.with_extension("exfail");
        if exfail.exists() {
            let why = std::fs::read_to_string(&exfail).unwrap();
            let first = why.lines().next().unwrap_or("");
            assert!(
                first.contains("RFC"),
                "{}: the first line must name the RFC rule",
                exfail.display()
            );
            if out.passed {
                problems.push(format!(
                    "{}: passes but is marked .exfail ({first}); remove the mark",
                    f.display()
                ));
            } else if out.reason.starts_with("unsupported")
                || out.reason.starts_with("parse error")
                || out.reason.contains("panic")
            {
                problems.push(format!(
                    "{}: fails in the runner, not the endpoint: {}",
                    f.display(),
                    out.reason
                ));
            }
        } else if !out.passed {
            problems.push(format!(
                "{}:{:?}: {}\n{}",
                f.display(),
                out.line,
                out.reason,
                out.trace.join("\n")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn invalid_message_scripts() {
    check_dir("invalid", 40);
}

#[test]
fn socket_option_scripts() {
    check_dir("options", 6);
}

/// SCTP-AUTH (RFC 4895) scripts: the INIT ACK's offer, and the receiver's rules of §6.3 that a
/// script can exercise without knowing the endpoint's key (a bare ASCONF, a wrong HMAC, an
/// unsupported HMAC identifier) and §6.1 (a short RANDOM).
#[test]
fn auth_scripts() {
    check_dir("auth", 5);
}

/// I-DATA (RFC 8260 §2.2): negotiation, interleaved fragments both ways, and the Protocol
/// Violation for DATA on an I-DATA association.
#[test]
fn i_data_scripts() {
    check_dir("idata", 2);
}

/// sctpsim's own RE-CONFIG scripts (RFC 6525): outgoing reset performed, the peer's outgoing
/// reset performed and deferred, the peer's incoming reset answered by our outgoing reset,
/// SSN/TSN reset, adding streams both ways, bad sequence numbers, a retransmitted request.
#[test]
fn reconfig_scripts() {
    check_dir("reconfig", 8);
}

/// sctpsim's own NR-SACK scripts: the receiver's NR gap blocks, NR-acked TSNs exempt from
/// renege at the sender, NR-SACK without negotiation an unrecognized chunk.
#[test]
fn nr_sack_scripts() {
    check_dir("nrsack", 3);
}

fn run(text: &str) -> sctpsim_conformance::Outcome {
    run_script(text, "t.pkt", &RunOptions::default())
}

#[test]
fn options_the_model_cannot_honour_are_unsupported() {
    for (opt, why) in [
        ("SCTP_NODELAY, [0], 4", "Nagle"),
        ("SCTP_EVENT, {se_type=SCTP_ASSOC_CHANGE, se_on=1}, 8", "notifications"),
        (
            "SCTP_DEFAULT_SNDINFO, {snd_sid=0, snd_flags=4, snd_ppid=0, snd_context=0, snd_assoc_id=0}, 16",
            "send flags",
        ),
    ] {
        let s = format!(
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 setsockopt(3, IPPROTO_SCTP, {opt}) = 0\n"
        );
        let out = run(&s);
        assert!(
            !out.passed && out.reason.starts_with("unsupported") && out.reason.contains(why),
            "{opt}: {}",
            out.reason
        );
    }
    let s = " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 setsockopt(3, SOL_SOCKET, SO_LINGER, {onoff=1, linger=5}, 8) = 0\n";
    assert!(run(s).reason.starts_with("unsupported: SO_LINGER"));
}

#[test]
fn packet_prefix_forms_parse() {
    let s = parse_script(
        "+0.0 < 224.0.0.1 > 192.168.0.1 sctp: COOKIE_ACK[flgs=0]\n+0.0 < ipv4 10.0.0.1 > 10.0.0.2: 1234>8080 sctp(bad_crc32c, tag=7): [0x0b, 0x00, 0x00, 0x04]\n+0.0 < sctp: PAD[flgs=0, len=8, val=...]; INIT[flgs=0, tag=1, a_rwnd=1, os=1, is=1, tsn=1, PAD[len=6, val=...], ZERO_CHECKSUM_ACCEPTABLE[edmid=SCTP_OVER_DTLS]]\n",
        &[],
    )
    .unwrap();
    use sctpsim_conformance::ast::{Action, ChunkSpec, PacketBody, ParamList, ParamSpec};
    let pkt = |i: usize| match &s.events[i].action {
        Action::Packet(p) => p.clone(),
        other => panic!("{other:?}"),
    };
    let p = pkt(0);
    assert_eq!(
        p.addrs,
        Some(("224.0.0.1".parse().unwrap(), "192.168.0.1".parse().unwrap()))
    );
    let p = pkt(1);
    assert_eq!(p.ports, Some((1234, 8080)));
    assert!(p.bad_crc32c);
    assert_eq!(p.tag, Some(7));
    assert_eq!(p.chunks, PacketBody::Bytes(vec![0x0b, 0, 0, 4]));
    let PacketBody::Chunks(c) = pkt(2).chunks else {
        panic!()
    };
    assert_eq!(
        c[0],
        ChunkSpec::Pad {
            flags: Some(0),
            len: Some(8)
        }
    );
    let ChunkSpec::Init(init) = &c[1] else {
        panic!()
    };
    assert_eq!(
        init.params,
        ParamList::List(vec![
            ParamSpec::Pad { len: Some(6) },
            ParamSpec::ZeroChecksumAcceptable(Some(1))
        ])
    );
    // packetdrill: raw packets are inbound only; explicit addresses too (here).
    assert!(parse_script("+0.0 > sctp: [0x0b, 0x00, 0x00, 0x04]\n", &[]).is_err());
    assert!(parse_script("+0.0 > 1.1.1.1 > 2.2.2.2 sctp: COOKIE_ACK[]\n", &[]).is_err());
    // A generic chunk's length may not be shorter than its header and value (packetdrill).
    assert!(parse_script(
        "+0.0 < sctp: CHUNK[type=1, flgs=0, len=5, val=[1, 2]]\n",
        &[]
    )
    .is_err());
    assert!(parse_script("+0.0 < sctp: CHUNK[type=1, flgs=0, len=3]\n", &[]).is_err());
}

#[test]
fn malformed_inbound_bytes_never_panic() {
    // Every short prefix of an INIT, as raw bytes, against a listening endpoint.
    let init = [
        0x01u8, 0x00, 0x00, 0x14, 0, 0, 0, 1, 0, 0, 0x10, 0, 0, 1, 0, 1, 0, 0, 0, 1,
    ];
    for n in 0..=init.len() {
        let bytes: Vec<String> = init[..n].iter().map(|b| format!("{b:#04x}")).collect();
        let s = format!(
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 bind(3, ..., ...) = 0\n+0.0 listen(3, 1) = 0\n+0.0 < sctp: [{}]\n",
            bytes.join(", ")
        );
        let out = run(&s);
        assert!(!out.reason.contains("panic"), "{n}: {}", out.reason);
    }
}
