//! The executor on small scripts written for sctpsim: passive and active handshakes, data and
//! SACKs, T3-rtx timing, socket errors, and failures reported with their line and reason.

use sctpsim_conformance::{run_script, Outcome, RunOptions};

fn run(text: &str) -> Outcome {
    run_script(text, "test.pkt", &RunOptions::default())
}

fn assert_pass(text: &str) {
    let out = run(text);
    assert!(
        out.passed,
        "line {:?}: {}\n{}",
        out.line,
        out.reason,
        out.trace.join("\n")
    );
}

/// The line of the first occurrence of `needle` (1-based).
fn line_of(text: &str, needle: &str) -> u32 {
    text.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1
}

const SERVER: &str = "\
 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 listen(3, 1) = 0
+0.0 < sctp: INIT[flgs=0, tag=1, a_rwnd=1500, os=1, is=1, tsn=1]
+0.0 > sctp: INIT_ACK[flgs=0, tag=2, a_rwnd=..., os=..., is=..., tsn=1, ...]
+0.0 < sctp: COOKIE_ECHO[flgs=0, len=..., val=...]
+0.0 > sctp: COOKIE_ACK[flgs=0]
+0.0 accept(3, ..., ...) = 4
+0.0 close(3) = 0
// One message from the peer: a SACK, immediately or after the delayed-SACK timer.
+0.0 < sctp: DATA[flgs=BE, len=116, tsn=1, sid=0, ssn=0, ppid=0]
+0.0~+0.2 > sctp: SACK[flgs=0, cum_tsn=1, a_rwnd=..., gaps=[], dups=[]]
+0.0 read(4, ..., 200) = 100
// One message to the peer; the TSN is the script's (INIT_ACK tsn=1), mapped to the live one.
+0.0 write(4, ..., 300) = 300
+0.0 > sctp: DATA[flgs=BE, len=316, tsn=1, sid=0, ssn=0, ppid=0]
+0.1 < sctp: SACK[flgs=0, cum_tsn=1, a_rwnd=1500, gaps=[], dups=[]]
// The peer closes.
+0.0 < sctp: SHUTDOWN[flgs=0, cum_tsn=1]
+0.0 > sctp: SHUTDOWN_ACK[flgs=0]
+0.0 < sctp: SHUTDOWN_COMPLETE[flgs=0]
+0.0 read(4, ..., 200) = 0
+0.0 close(4) = 0
";

const CLIENT: &str = "\
--tolerance_usecs=10000
 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 fcntl(3, F_GETFL) = 0x02 (flags O_RDWR)
+0.0 fcntl(3, F_SETFL, O_RDWR | O_NONBLOCK) = 0
+0.0 setsockopt(3, IPPROTO_SCTP, SCTP_RTOINFO, {srto_initial=100, srto_max=400, srto_min=100}, 16) = 0
+0.0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)
+0.0 > sctp: INIT[flgs=0, tag=1, a_rwnd=..., os=..., is=..., tsn=7, ...]
// T1-init: the first retransmission after RTO.Initial.
+0.1 > sctp: INIT[flgs=0, tag=1, a_rwnd=..., os=..., is=..., tsn=7, ...]
+0.0 < sctp: INIT_ACK[flgs=0, tag=2, a_rwnd=3000, os=1, is=1, tsn=100, STATE_COOKIE[len=8, val=...]]
+0.0 > sctp: COOKIE_ECHO[flgs=0, len=8, val=...]
+0.0 < sctp: COOKIE_ACK[flgs=0]
+0.0 getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
+0.0 getsockopt(3, IPPROTO_SCTP, SCTP_STATUS, {sstat_state=SCTP_ESTABLISHED, sstat_rwnd=..., sstat_outstrms=1, sstat_instrms=1, sstat_primary=...}, [176]) = 0
+0.0 setsockopt(3, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, {spp_address=..., spp_hbinterval=0, spp_pathmaxrxt=0, spp_pathmtu=0, spp_flags=SPP_HB_DISABLE, spp_ipv6_flowlabel=0, spp_dscp=0}, 152) = 0
// A 2000-byte message in two fragments; the second is lost and retransmitted by T3-rtx
// after RTO.Min, then after the doubled RTO.
+0.0 write(3, ..., 2000) = 2000
+0.0 > sctp: DATA[flgs=B, len=1468, tsn=7, sid=0, ssn=0, ppid=0]
+0.0 > sctp: DATA[flgs=E, len=564, tsn=8, sid=0, ssn=0, ppid=0]
+0.0 < sctp: SACK[flgs=0, cum_tsn=7, a_rwnd=3000, gaps=[], dups=[]]
+0.1 > sctp: DATA[flgs=E, len=564, tsn=8, sid=0, ssn=0, ppid=0]
+0.2 > sctp: DATA[flgs=E, len=564, tsn=8, sid=0, ssn=0, ppid=0]
+0.0 < sctp: SACK[flgs=0, cum_tsn=8, a_rwnd=3000, gaps=[], dups=[]]
// A gap and a duplicate in what the peer sends.
+0.0 < sctp: DATA[flgs=BE, len=20, tsn=101, sid=0, ssn=1, ppid=0]
+0.0 > sctp: SACK[flgs=0, cum_tsn=99, a_rwnd=..., gaps=[2:2], dups=[]]
+0.0 < sctp: DATA[flgs=BE, len=20, tsn=101, sid=0, ssn=1, ppid=0]
+0.0 > sctp: SACK[flgs=0, cum_tsn=99, a_rwnd=..., gaps=[2:2], dups=[101]]
+0.0 < sctp: DATA[flgs=BE, len=20, tsn=100, sid=0, ssn=0, ppid=0]
+0.0 > sctp: SACK[flgs=0, cum_tsn=101, a_rwnd=..., gaps=[], dups=[]]
+0.0 read(3, ..., 100) = 4
+0.0 read(3, ..., 2) = 2
+0.0 read(3, ..., 100) = 2
+0.0 read(3, ..., 100) = -1 EAGAIN (Resource temporarily unavailable)
// Graceful close by us.
+0.0 close(3) = 0
+0.0 > sctp: SHUTDOWN[flgs=0, cum_tsn=101]
+0.0 < sctp: SHUTDOWN_ACK[flgs=0]
+0.0 > sctp: SHUTDOWN_COMPLETE[flgs=0]
";

#[test]
fn passive_handshake_data_and_peer_shutdown() {
    assert_pass(SERVER);
}

#[test]
fn active_handshake_retransmissions_gaps_and_close() {
    assert_pass(CLIENT);
}

#[test]
fn a_mismatch_is_reported_with_its_line() {
    let bad = SERVER.replace(
        "> sctp: DATA[flgs=BE, len=316, tsn=1,",
        "> sctp: DATA[flgs=BE, len=316, tsn=2,",
    );
    let out = run(&bad);
    assert!(!out.passed);
    assert_eq!(out.line, Some(line_of(&bad, "len=316")));
    assert!(
        out.reason.contains("tsn: expected 2, actual 1"),
        "{}",
        out.reason
    );
    assert!(
        out.reason.contains("DATA[flgs=BE, len=316, tsn=1"),
        "{}",
        out.reason
    );
}

#[test]
fn a_late_packet_is_a_timing_error() {
    let bad = CLIENT.replace("+0.1 > sctp: INIT[", "+0.3 > sctp: INIT[");
    let out = run(&bad);
    assert!(!out.passed);
    assert!(out.reason.starts_with("timing error"), "{}", out.reason);
    assert_eq!(out.line, Some(line_of(&bad, "+0.3 > sctp: INIT")));
    // A wider tolerance from the caller overrides the script's.
    let opts = RunOptions {
        tolerance_usecs: Some(250_000),
        ..RunOptions::default()
    };
    let wide = run_script(&bad, "t.pkt", &opts);
    assert!(wide.reason.is_empty() || wide.line != Some(line_of(&bad, "+0.3 > sctp: INIT")));
}

#[test]
fn a_missing_packet_is_reported() {
    let text = "\
 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 listen(3, 1) = 0
+0.0 > sctp: INIT_ACK[flgs=0, tag=2, a_rwnd=..., os=..., is=..., tsn=1, ...]
";
    let out = run(text);
    assert_eq!(out.line, Some(4));
    assert!(out.reason.contains("none was sent"), "{}", out.reason);
}

#[test]
fn wrong_errno_and_wrong_result() {
    let bad = CLIENT.replace("-1 EINPROGRESS", "-1 EALREADY");
    let out = run(&bad);
    assert_eq!(out.line, Some(line_of(&bad, "EALREADY")));
    assert!(
        out.reason.contains("expected errno EALREADY"),
        "{}",
        out.reason
    );
    let bad = SERVER.replace("read(4, ..., 200) = 100", "read(4, ..., 200) = 99");
    let out = run(&bad);
    assert!(
        out.reason.contains("expected result 99 but got 100"),
        "{}",
        out.reason
    );
}

#[test]
fn init_retransmissions_run_out() {
    let text = "\
 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 fcntl(3, F_SETFL, O_RDWR | O_NONBLOCK) = 0
+0.0 setsockopt(3, IPPROTO_SCTP, SCTP_RTOINFO, {srto_initial=100, srto_max=100, srto_min=100}, 16) = 0
+0.0 setsockopt(3, IPPROTO_SCTP, SCTP_INITMSG, {sinit_num_ostreams=0, sinit_max_instreams=0, sinit_max_attempts=2, sinit_max_init_timeo=0}, 8) = 0
+0.0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)
+0.0 > sctp: INIT[flgs=0, tag=1, a_rwnd=..., os=..., is=..., tsn=1, ...]
+0.1 > sctp: INIT[flgs=0, tag=1, a_rwnd=..., os=..., is=..., tsn=1, ...]
+0.1 > sctp: INIT[flgs=0, tag=1, a_rwnd=..., os=..., is=..., tsn=1, ...]
+0.5 getsockopt(3, SOL_SOCKET, SO_ERROR, [ETIMEDOUT], [4]) = 0
+0.0 getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
+0.0 write(3, ..., 10) = -1 EPIPE (Broken pipe)
+0.0 close(3) = 0
";
    assert_pass(text);
}

#[test]
fn out_of_the_blue_packets_and_explicit_tags() {
    let text = "\
 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 listen(3, 1) = 0
+0.1 < sctp(tag=7): SHUTDOWN[flgs=0, cum_tsn=0]
+0.0 > sctp(tag=7): ABORT[flgs=T]
+0.0 < sctp: INIT[flgs=0, tag=1, a_rwnd=1500, os=0, is=1, tsn=0]
+0.0 > sctp: ABORT[flgs=0, INVALID_MANDATORY_PARAMETER[]]
+0.0 < sctp(bad_crc32c): INIT[flgs=0, tag=1, a_rwnd=1500, os=1, is=1, tsn=0]
+0.0 < sctp: INIT[flgs=0, tag=1, a_rwnd=1500, os=1, is=1, tsn=0]
+0.0 > sctp: INIT_ACK[flgs=0, tag=5, a_rwnd=..., os=..., is=..., tsn=9, ...]
+0.0 close(3) = 0
";
    assert_pass(text);
}

#[test]
fn platform_branches_follow_the_defines() {
    let text = "\
 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
#ifdef FreeBSD
+0.0 bind(3, ..., ...) = 0
#endif
#ifdef Linux
+0.0 bind(3, ..., ...) = 1
#endif
";
    assert_pass(text);
    let linux = RunOptions {
        defines: vec!["Linux".into()],
        ..RunOptions::default()
    };
    let out = run_script(text, "t.pkt", &linux);
    assert_eq!(out.line, Some(6));
}

#[test]
fn unsupported_constructs_fail_with_a_reason() {
    let cases = [
        (
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 `echo hello`\n",
            2,
            "unsupported: shell command",
        ),
        (
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n\n+0.0 %{ print(1) }%\n",
            3,
            "unsupported: %{ }%",
        ),
        (
            " 0.0 socket(..., SOCK_SEQPACKET, IPPROTO_SCTP) = 3\n",
            1,
            "unsupported: one-to-many",
        ),
        (
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 < sctp: RECONFIG[flgs=0]\n",
            2,
            "unsupported: RECONFIG",
        ),
        (
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 poll(3) = 0\n",
            2,
            "unsupported: system call `poll`",
        ),
        (
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 < S 0:0(0) win 1000\n",
            2,
            "unsupported: packet syntax",
        ),
        ("--wire_server_port=1\n 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n", 1, "unsupported: option"),
        (
            " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.0 bind(3, ..., ...) = 0\n+0.0 listen(3, 1) = 0\n+0.0 accept(3, ..., ...) = 4\n",
            4,
            "accept would block",
        ),
    ];
    for (text, line, reason) in cases {
        let out = run(text);
        assert!(!out.passed, "{text}");
        assert_eq!(out.line, Some(line), "{text}: {}", out.reason);
        assert!(
            out.reason.contains(reason),
            "{text}: {} (wanted {reason})",
            out.reason
        );
    }
}

#[test]
fn script_rules_of_packetdrill() {
    let out = run("+0.5 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n");
    assert!(out.reason.contains("first event"), "{}", out.reason);
    let out = run(" 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n 1.0 bind(3, ..., ...) = 0\n 0.5 listen(3, 1) = 0\n");
    assert!(out.reason.contains("time goes backward"), "{}", out.reason);
    assert_eq!(out.line, Some(3));
    let out = run(" 0.0 close(3) = 0\n");
    assert!(out.reason.contains("not an open socket"), "{}", out.reason);
}

/// Deterministic mutations of valid scripts: whatever the input, the runner reports a result
/// and never panics (a panic would surface as "internal error").
#[test]
fn mutated_scripts_never_panic() {
    let fixture = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/all-forms.pkt"),
    )
    .unwrap();
    let sources = [SERVER, CLIENT, fixture.as_str()];
    let alphabet = b"0123456789.+-*~[](){},;:=<>|.x ABTEI\n\"`%#/";
    let mut state: u64 = 0x5eed;
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n.max(1)
    };
    for i in 0..300 {
        let mut bytes = sources[i % sources.len()].as_bytes().to_vec();
        for _ in 0..1 + next(4) {
            match next(3) {
                0 => {
                    let at = next(bytes.len());
                    bytes[at] = alphabet[next(alphabet.len())];
                }
                1 => {
                    let at = next(bytes.len());
                    let end = (at + next(20)).min(bytes.len());
                    bytes.drain(at..end);
                }
                _ => {
                    let at = next(bytes.len());
                    bytes.insert(at, alphabet[next(alphabet.len())]);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let out = run(&text);
        assert!(
            !out.reason.contains("internal error"),
            "mutation {i}: {}\n{text}",
            out.reason
        );
    }
}

#[test]
fn a_script_without_statements_fails() {
    for text in [
        "",
        "\n  \n",
        "// only a comment\n/* and another */\n",
        "--tolerance_usecs=10000\n",
        "#ifdef Linux\n 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n#endif\n",
    ] {
        let out = run(text);
        assert!(!out.passed, "{text:?} passed");
        assert_eq!(out.reason, sctpsim_conformance::EMPTY_SCRIPT, "{text:?}");
        assert_eq!(out.line, None);
    }
}
