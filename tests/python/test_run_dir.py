"""Run directories hold one complete run: no figures of an earlier run beside the new results,
and no half-written directory when the write is interrupted (docs/cli.md, "Run directories")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sctpsim
import sctpsim.results as results
from sctpsim import store
from conftest import EXAMPLES, REPO
from sctpsim.cli import main

SHORT = ["--quiet", "--set", "simulation.duration=2s"]
WIRED = str(EXAMPLES / "wired-cbr.toml")
SCTP = str(EXAMPLES / "sctp-failover.toml")


def _files(d: Path) -> dict[str, bytes]:
    """Every file under ``d`` by relative path, with its bytes."""
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def _staging(d: Path) -> list[Path]:
    return list(d.glob(f"{results.STAGING_PREFIX}*"))


def _plot(d: Path) -> None:
    assert main(["plot", str(d)]) == 0


def test_a_new_run_removes_the_figures_and_report_of_the_earlier_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["run", WIRED, "--out", str(out), *SHORT]) == 0
    _plot(out)
    assert list((out / "figures").glob("*.png")) and (out / "report.md").exists()
    (out / "notes.txt").write_text("mine\n")
    assert main(["run", WIRED, "--out", str(out), *SHORT, "--set", "flows[0].rate=500kbps"]) == 0
    assert not (out / "figures").exists(), list((out / "figures").iterdir())
    assert not (out / "report.md").exists()
    assert (out / "notes.txt").read_text() == "mine\n"


def test_replotting_removes_only_the_figures_the_previous_plot_made(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["run", WIRED, "--out", str(out), *SHORT]) == 0
    _plot(out)
    figures = out / "figures"
    made = sorted(p.name for p in figures.iterdir())
    # A figure an earlier plot made (of a flow or metric the current results no longer have),
    # and a file of the user's in the same folder.
    record = json.loads((out / ".sctpsim-plot.json").read_text())
    record["figures"].append("cwnd-old-flow")
    (out / ".sctpsim-plot.json").write_text(json.dumps(record))
    for fmt in ("png", "pdf", "svg"):
        (figures / f"cwnd-old-flow.{fmt}").write_bytes(b"stale")
    (figures / "mine.png").write_bytes(b"mine")
    # Without report.md this time: the previous plot's report goes too.
    assert main(["plot", str(out), "--no-report"]) == 0
    assert not list(figures.glob("cwnd-old-flow.*"))
    assert (figures / "mine.png").read_bytes() == b"mine"
    assert sorted(p.name for p in figures.iterdir() if p.name != "mine.png") == made
    assert not (out / "report.md").exists()


def _interrupt_on_call(monkeypatch: pytest.MonkeyPatch, n: int, action) -> None:  # type: ignore[no-untyped-def]
    """Make the n-th table written by `RunResult.write` call ``action`` first."""
    original = results._atomic_parquet
    calls = {"n": 0}

    def writer(path, df):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == n:
            action()
        original(path, df)

    monkeypatch.setattr(results, "_atomic_parquet", writer)


def _keyboard_interrupt() -> None:
    raise KeyboardInterrupt


def test_an_interrupted_write_leaves_the_previous_run_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    assert main(["run", WIRED, "--out", str(out), "--pcap", *SHORT]) == 0
    before = _files(out)
    assert "pcap/src-eth0.pcap" in before
    _interrupt_on_call(monkeypatch, 2, _keyboard_interrupt)
    assert main(["run", SCTP, "--out", str(out), "--pcap", *SHORT]) == 130
    assert _files(out) == before, "a half-written run replaced (part of) the previous one"
    assert not _staging(out)


def test_an_interrupted_first_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "new"
    _interrupt_on_call(monkeypatch, 3, _keyboard_interrupt)
    assert main(["run", SCTP, "--out", str(out), "--pcap", *SHORT]) == 130
    assert _files(out) == {}
    assert list(out.iterdir()) == []


def test_sigterm_during_the_write_lets_it_finish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["run", WIRED, "--out", str(out), *SHORT]) == 0
    _interrupt_on_call(monkeypatch, 2, lambda: os.kill(os.getpid(), signal.SIGTERM))
    assert main(["run", SCTP, "--out", str(out), *SHORT]) == 130
    assert "terminated after the run ended; results written" in capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["flows"][0]["transport"] == "sctp" and not summary["interrupted"]
    assert (out / "sctp.parquet").exists() and (out / "run.json").exists()
    assert not _staging(out)


def test_a_killed_writer_leaves_a_marker_that_the_next_run_clears(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["run", WIRED, "--out", str(out), *SHORT]) == 0
    before = _files(out)
    script = textwrap.dedent(f"""
        import os
        import sctpsim.results as r
        original, calls = r._atomic_parquet, []
        def writer(path, df):
            calls.append(path)
            if len(calls) == 2:
                os._exit(9)  # SIGKILL-like: no cleanup
            original(path, df)
        r._atomic_parquet = writer
        from sctpsim.cli import main
        main(["run", {SCTP!r}, "--out", {str(out)!r}, "--quiet", "--set", "simulation.duration=2s"])
    """)
    # The child imports the same sctpsim as this process (an installed package in CI, the
    # source tree with a built core in a developer's checkout).
    env = {**os.environ, "PYTHONPATH": str(Path(sctpsim.__file__).resolve().parent.parent)}
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 9, proc.stderr
    markers = _staging(out)
    assert len(markers) == 1 and markers[0].is_dir()
    # The killed writer's lock file stays too (its flock died with it, so it blocks nothing).
    left = {k: v for k, v in _files(out).items() if not k.startswith(results.STAGING_PREFIX)}
    assert left.pop(store.LOCK_FILE, None) is not None
    assert left == before
    assert main(["run", WIRED, "--out", str(out), *SHORT]) == 0
    assert not _staging(out) and not (out / store.LOCK_FILE).exists()
