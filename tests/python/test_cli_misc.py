"""`sctpsim bench`, `sctpsim verify`, the stub check."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import sctpsim


def test_bench_kernel_prints_one_key_value_line_per_case() -> None:
    r = sctpsim("bench", "kernel", "--events", "200000", "--pending", "1000,100000")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 2
    for line, pending in zip(lines, (1000, 100000)):
        m = re.fullmatch(r"pending=(\d+) events=(\d+) seconds=([\d.]+) events_per_s=(\d+)", line)
        assert m, line
        assert int(m.group(1)) == pending and int(m.group(2)) == 200000


def test_bench_rejects_bad_arguments() -> None:
    assert sctpsim("bench", "kernel", "--pending", "ten").returncode == 2
    assert sctpsim("bench", "kernel", "--events", "0").returncode == 2


def test_verify_quick_passes_and_reports_counts() -> None:
    r = sctpsim("verify", "--quick")
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) passed, 0 failed", last)
    assert m and int(m.group(1)) >= 6, last


def test_verify_unknown_check_exits_2() -> None:
    r = sctpsim("verify", "no-such-check")
    assert r.returncode == 2 and "unknown check" in r.stderr


def test_native_stub_matches_the_extension() -> None:
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "sctpsim._native"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_usage_errors_point_at_the_help_of_the_command_that_failed() -> None:
    r = sctpsim("--no-such-option")
    assert r.returncode == 2
    assert "(see `sctpsim --help`)" in r.stderr and "sctpsim sctpsim" not in r.stderr, r.stderr
    r = sctpsim("run")
    assert r.returncode == 2
    assert "(see `sctpsim run --help`)" in r.stderr, r.stderr
