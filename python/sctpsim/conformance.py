"""``sctpsim conformance PATH... [--junit FILE] [--quiet]``: packetdrill-format SCTP scripts
(such as the ETSI TS 102 369 suite) run in virtual time against sctpsim's SCTP endpoint.

A PATH is a script or a directory, searched recursively for ``*.pkt``. A script with a sibling
``.exfail`` file (``x.pkt`` / ``x.exfail``, as upstream) is expected to fail. One line per
script::

    PASS  path
    FAIL  path:LINE: reason
    XFAIL path:LINE: reason  [expected to fail: <first line of the .exfail file>]
    XPASS path: passed (expected to fail upstream; passes here): <first line of the .exfail file>

then ``N passed, M failed``. Both XFAIL and XPASS count as passed: an upstream ``.exfail`` mark
records that the reference stack fails the script, so failing it is the expected outcome and
passing it is not our failure. A script without statements (empty, only comments, or all of it
``#ifdef``'d out) fails: ``empty script: nothing to test``. Exit code 0 if nothing failed, 1 if
something did, 2 for bad arguments (a missing path, no scripts).
Semantics and limitations: docs/conformance.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from sctpsim import _native

__all__ = ["ScriptResult", "collect_scripts", "run_scripts", "add_arguments", "cli_main"]


@dataclass
class ScriptResult:
    """The outcome of one script."""

    path: Path
    status: str  # PASS, FAIL, XFAIL, XPASS
    reason: str = ""
    line: int | None = None
    exfail: str | None = None
    seconds: float = 0.0
    trace: list[str] = field(default_factory=list)

    @property
    def counts_as_passed(self) -> bool:
        return self.status in ("PASS", "XFAIL", "XPASS")

    def describe(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else str(self.path)
        if self.status == "PASS":
            return f"PASS  {self.path}"
        if self.status == "XPASS":
            return f"XPASS {self.path}: passed (expected to fail upstream; passes here): {self.exfail}"
        reason = self.reason.replace("\n", "\n      ")
        if self.status == "XFAIL":
            return f"XFAIL {where}: {reason}  [expected to fail: {self.exfail}]"
        return f"FAIL  {where}: {reason}"


def collect_scripts(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The scripts named by ``paths``: files as given, directories searched recursively for
    ``*.pkt`` (sorted). Raises FileNotFoundError for a path that does not exist."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.pkt") if q.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise FileNotFoundError(f"no such file or directory: {p}")
    return out


def _exfail(script: Path) -> str | None:
    marker = script.with_suffix(".exfail")
    if not marker.is_file():
        return None
    text = marker.read_text(encoding="utf-8", errors="replace").strip()
    return text.splitlines()[0] if text else marker.name


def run_scripts(
    scripts: Sequence[Path],
    tolerance_usecs: int | None = None,
    defines: list[str] | None = None,
) -> list[ScriptResult]:
    """Runs each script (in virtual time, without the GIL) and classifies the outcome."""
    results = []
    for script in scripts:
        exfail = _exfail(script)
        t0 = time.perf_counter()
        try:
            text = script.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            results.append(ScriptResult(script, "FAIL", f"cannot read: {e}", exfail=exfail))
            continue
        passed, reason, line, trace = _native.run_conformance(text, str(script), tolerance_usecs, defines)
        seconds = time.perf_counter() - t0
        if exfail is None:
            status = "PASS" if passed else "FAIL"
        else:
            status = "XPASS" if passed else "XFAIL"
        results.append(ScriptResult(script, status, reason, line, exfail, seconds, trace))
    return results


def write_junit(results: Sequence[ScriptResult], file: str | os.PathLike[str]) -> None:
    """JUnit XML: one test case per script; FAIL is a failure, XFAIL is skipped (the pytest
    convention for expected failures), XPASS passes with a note in its ``system-out``."""
    failures = sum(not r.counts_as_passed for r in results)
    skipped = sum(r.status == "XFAIL" for r in results)
    total_time = sum(r.seconds for r in results)
    suites = ET.Element("testsuites")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="sctpsim conformance",
        tests=str(len(results)),
        failures=str(failures),
        errors="0",
        skipped=str(skipped),
        time=f"{total_time:.3f}",
    )
    for r in results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=r.path.parent.name or ".",
            name=r.path.name,
            file=str(r.path),
            time=f"{r.seconds:.3f}",
        )
        if r.line is not None:
            case.set("line", str(r.line))
        if r.status == "FAIL":
            el = ET.SubElement(case, "failure", message=r.reason.splitlines()[0] if r.reason else "failed")
            el.text = "\n".join([r.describe(), *r.trace])
        elif r.status == "XPASS":
            ET.SubElement(case, "system-out").text = r.describe()
        elif r.status == "XFAIL":
            ET.SubElement(case, "skipped", message=f"expected failure ({r.exfail}): {r.reason.splitlines()[0] if r.reason else ''}")
    tree = ET.ElementTree(suites)
    ET.indent(tree)
    Path(file).parent.mkdir(parents=True, exist_ok=True)
    tree.write(file, encoding="utf-8", xml_declaration=True)


def junit_path_problem(file: str) -> str | None:
    """What stops ``--junit FILE`` from being written, or None. Checked before any script runs:
    a report that cannot be written (``/proc/x.xml``, a directory) is bad input, and finding it
    out after the whole suite ran threw the run away with an internal error."""
    from sctpsim.store import writable_dir_problem

    path = Path(file)
    if path.is_dir():
        return "is a directory"
    problem = writable_dir_problem(path.parent)  # creates the directory, as write_junit would
    return f"cannot write there ({path.parent}: {problem})" if problem else None


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sctpsim conformance`` (called by cli._build_parser)."""
    p.add_argument("paths", nargs="+", metavar="PATH", help="packetdrill scripts or directories (searched for *.pkt)")
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    p.add_argument("--quiet", "-q", action="store_true", help="print only failures (FAIL), passes of scripts expected to fail upstream (XPASS) "
                        "and the summary")
    p.add_argument("--verbose", "-v", action="store_true", help="print the packet and system-call trace of each failure")
    p.add_argument("--tolerance-usecs", type=int, metavar="US",
                   help="timing tolerance for every script, overriding the scripts' --tolerance_usecs")
    p.add_argument("--define", "-D", dest="defines", action="append", metavar="SYMBOL",
                   help="symbol for #ifdef (repeatable; default: FreeBSD, whose branches the ETSI scripts "
                        "write for the reference stack)")


def cli_main(args: argparse.Namespace) -> int:
    """``sctpsim conformance``: 0 if every script passed (or failed as expected), 1 otherwise,
    2 for bad input."""
    try:
        scripts = collect_scripts(args.paths)
    except FileNotFoundError as e:
        sys.stderr.write(f"sctpsim: error: {e}\n")
        return 2
    if not scripts:
        sys.stderr.write("sctpsim: error: no *.pkt scripts found in " + ", ".join(args.paths) + "\n")
        return 2
    if args.tolerance_usecs is not None and args.tolerance_usecs < 0:
        sys.stderr.write("sctpsim: error: --tolerance-usecs must not be negative\n")
        return 2
    problem = junit_path_problem(args.junit) if args.junit else None
    if problem:
        sys.stderr.write(f"sctpsim: error: --junit {args.junit}: {problem}\n")
        return 2
    results = []
    for script in scripts:
        (r,) = run_scripts([script], args.tolerance_usecs, args.defines)
        results.append(r)
        if not args.quiet or not r.counts_as_passed or r.status == "XPASS":
            print(r.describe(), flush=True)
        if args.verbose and not r.counts_as_passed:
            for t in r.trace:
                print(f"      {t}")
    if args.junit:
        try:
            write_junit(results, args.junit)
        except OSError as e:  # the path was writable when checked; it no longer is
            sys.stderr.write(f"sctpsim: error: --junit {args.junit}: {e.strerror or e}\n")
            return 2
    passed = sum(r.counts_as_passed for r in results)
    failed = len(results) - passed
    xfail = sum(r.status == "XFAIL" for r in results)
    xpass = sum(r.status == "XPASS" for r in results)
    if xfail or xpass:
        print(f"({xfail} expected failure(s) and {xpass} pass(es) of scripts expected to fail upstream "
              "count as passed)")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
