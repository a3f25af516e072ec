"""`sctpsim conformance`: packetdrill-format scripts, summary line, exit codes, .exfail, JUnit."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import REPO, sctpsim

from sctpsim import _native

SCRIPTS = REPO / "tests" / "conformance"
ETSI = REPO.parent / "shared" / "conformance" / "etsi-sctp"


def test_directory_of_scripts_summary_and_junit(tmp_path: Path) -> None:
    # The three top-level scripts only (the subdirectories hold the RFC 9260 scripts, below).
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    for f in SCRIPTS.iterdir():
        if f.is_file():
            shutil.copy(f, scripts / f.name)
    junit = tmp_path / "report" / "junit.xml"
    r = sctpsim("conformance", str(scripts), "--junit", str(junit))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "3 passed, 0 failed"
    assert any(l.startswith("PASS  ") and l.endswith("server-handshake.pkt") for l in lines)
    assert any(l.startswith("PASS  ") and l.endswith("client-retransmission.pkt") for l in lines)
    xfail = [l for l in lines if l.startswith("XFAIL ")]
    assert len(xfail) == 1 and "blocking-accept.pkt:7: accept would block" in xfail[0]
    assert "expected to fail: blocking system calls" in xfail[0]
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("3", "0", "1")
    names = sorted(c.get("name") or "" for c in suite.iter("testcase"))
    assert names == ["blocking-accept.pkt", "client-retransmission.pkt", "server-handshake.pkt"]


def test_own_rfc9260_scripts_pass_or_fail_as_marked() -> None:
    # tests/conformance/invalid (RFC 9260 invalid-message handling) and options/ (socket
    # options): every script passes, except those with an .exfail mark, which fail (XFAIL).
    pkts = sorted(SCRIPTS.rglob("*.pkt"))
    marks = sorted(SCRIPTS.rglob("*.exfail"))
    assert len(pkts) >= 50
    r = sctpsim("conformance", str(SCRIPTS), "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == f"{len(pkts)} passed, 0 failed"
    assert f"({len(marks)} expected failure(s) and 0 pass(es)" in r.stdout


def test_a_failure_names_line_and_reason_and_exits_1(tmp_path: Path) -> None:
    good = SCRIPTS / "server-handshake.pkt"
    shutil.copy(good, tmp_path / "good.pkt")
    text = good.read_text().replace("len=316, tsn=1,", "len=316, tsn=2,")
    (tmp_path / "bad.pkt").write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "len=316" in l)
    junit = tmp_path / "j.xml"
    r = sctpsim("conformance", str(tmp_path / "bad.pkt"), str(tmp_path / "good.pkt"), "--junit", str(junit), "-v")
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout.strip().splitlines()
    assert out[-1] == "1 passed, 1 failed"
    fail = next(l for l in out if l.startswith("FAIL  "))
    assert f"bad.pkt:{line}: outbound packet mismatch: chunk 1 (DATA): tsn: expected 2, actual 1" in fail
    # --verbose prints the trace of the failure (packets in script syntax).
    assert any("> sctp: INIT_ACK[" in l for l in out)
    case = next(c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") == "bad.pkt")
    failure = case.find("failure")
    assert failure is not None and "tsn: expected 2, actual 1" in (failure.get("message") or "")
    assert case.get("line") == str(line)


def test_pass_of_a_script_expected_to_fail_upstream_counts_as_passed(tmp_path: Path) -> None:
    shutil.copy(SCRIPTS / "server-handshake.pkt", tmp_path / "x.pkt")
    (tmp_path / "x.exfail").write_text("https://example.invalid/issue/1\n")
    junit = tmp_path / "j.xml"
    r = sctpsim("conformance", str(tmp_path), "--quiet", "--junit", str(junit))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    # Printed distinctly, even with --quiet.
    assert lines[0].startswith("XPASS ") and "x.pkt" in lines[0]
    assert "(expected to fail upstream; passes here)" in lines[0]
    assert "https://example.invalid/issue/1" in lines[0]
    assert lines[-1] == "1 passed, 0 failed"
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("1", "0", "0")


def test_an_empty_script_fails_and_the_directory_run_completes(tmp_path: Path) -> None:
    shutil.copy(SCRIPTS / "server-handshake.pkt", tmp_path / "b-good.pkt")
    (tmp_path / "a-empty.pkt").write_text("")
    (tmp_path / "c-comments.pkt").write_text("// nothing but a comment\n\n")
    r = sctpsim("conformance", str(tmp_path))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0] == f"FAIL  {tmp_path / 'a-empty.pkt'}: empty script: nothing to test"
    assert lines[1].startswith("PASS  ") and lines[1].endswith("b-good.pkt")
    assert lines[2] == f"FAIL  {tmp_path / 'c-comments.pkt'}: empty script: nothing to test"
    assert lines[-1] == "1 passed, 2 failed"
    assert _native.run_conformance("", "e.pkt")[:3] == (False, "empty script: nothing to test", None)


def test_quiet_prints_only_the_summary_when_all_pass() -> None:
    r = sctpsim("conformance", str(SCRIPTS / "server-handshake.pkt"), "--quiet")
    assert r.returncode == 0
    assert r.stdout.strip().splitlines() == ["1 passed, 0 failed"]


def test_bad_input_exits_2(tmp_path: Path) -> None:
    r = sctpsim("conformance", str(tmp_path / "missing.pkt"))
    assert r.returncode == 2 and "no such file" in r.stderr
    r = sctpsim("conformance", str(tmp_path))
    assert r.returncode == 2 and "no *.pkt scripts" in r.stderr


def test_native_function_and_defines() -> None:
    text = (SCRIPTS / "server-handshake.pkt").read_text()
    passed, reason, line, trace = _native.run_conformance(text, "s.pkt")
    assert (passed, reason, line) == (True, "", None)
    assert any("< sctp: INIT[" in t for t in trace)
    branchy = " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n#ifdef Linux\n+0.0 poll(3) = 0\n#endif\n"
    assert _native.run_conformance(branchy, "b.pkt")[0]
    passed, reason, line, _ = _native.run_conformance(branchy, "b.pkt", None, ["Linux"])
    assert (passed, line) == (False, 3) and reason.startswith("unsupported: system call")
    passed, reason, line, _ = _native.run_conformance("+0.0 < sctp: FOO[]", "f.pkt")
    assert (passed, line) == (False, 1) and reason.startswith("parse error: unknown chunk type")


@pytest.mark.skipif(not ETSI.is_dir(), reason="the ETSI TS 102 369 scripts are not next to the repository")
def test_etsi_suite_runs_with_a_summary() -> None:
    r = sctpsim("conformance", str(ETSI), "--quiet")
    assert r.returncode in (0, 1), r.stderr
    m = re.fullmatch(r"(\d+) passed, (\d+) failed", r.stdout.strip().splitlines()[-1])
    assert m, r.stdout
    passed, failed = int(m.group(1)), int(m.group(2))
    assert passed + failed == len(list(ETSI.rglob("*.pkt")))
    # A regression guard: the count measured when the runner was written (docs/models/sctp.md).
    assert passed >= 72, r.stdout


@pytest.mark.parametrize("where", ["/proc/x.xml", "/proc/version/sub/x.xml", "{tmp}"])
def test_an_unwritable_junit_path_exits_2_naming_it_before_running(tmp_path: Path, where: str) -> None:
    """Issue 35 item 9: `--junit /proc/x.xml` was an internal error after every script ran."""
    junit = where.format(tmp=tmp_path)  # an existing directory is not a file to write
    r = sctpsim("conformance", str(SCRIPTS / "server-handshake.pkt"), "--junit", junit)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"sctpsim: error: --junit {junit}: ")
    assert r.stdout == ""  # refused before any script ran
