"""The progress line's ETA: an estimate from the recent wall-clock rate of simulated time.

Pure functions and a fed progress bar: no real time passes and nothing asserts on timing."""

from __future__ import annotations

import io

import pytest

from sctpsim.progress import ProgressBar, eta_s, smoothed_pace


def test_pace_starts_at_the_first_interval_and_follows_a_constant_rate() -> None:
    pace = smoothed_pace(None, d_sim=2.0, d_wall=1.0)
    assert pace == pytest.approx(0.5)
    for _ in range(10):
        pace = smoothed_pace(pace, d_sim=0.4, d_wall=0.2)
    assert pace == pytest.approx(0.5)


def test_pace_moves_to_the_recent_rate_by_wall_time() -> None:
    pace = smoothed_pace(None, d_sim=10.0, d_wall=1.0)  # fast start: 0.1 wall s per sim s
    for _ in range(25):  # then 5 wall seconds at 1 sim s per wall s
        pace = smoothed_pace(pace, d_sim=0.2, d_wall=0.2, tau_s=2.0)
    assert pace is not None and 0.9 < pace < 1.0


def test_an_interval_without_simulated_progress_does_not_update() -> None:
    assert smoothed_pace(None, d_sim=0.0, d_wall=0.2) is None
    assert smoothed_pace(0.5, d_sim=0.0, d_wall=0.2) == 0.5
    assert smoothed_pace(0.5, d_sim=1.0, d_wall=0.0) == 0.5


def test_eta_is_remaining_simulated_time_at_the_pace_and_nothing_in_the_first_second() -> None:
    assert eta_s(0.5, now_s=2.0, end_s=10.0, wall_s=1.5) == pytest.approx(4.0)
    assert eta_s(0.5, now_s=2.0, end_s=10.0, wall_s=0.9) is None
    assert eta_s(None, now_s=2.0, end_s=10.0, wall_s=5.0) is None
    assert eta_s(0.5, now_s=10.0, end_s=10.0, wall_s=5.0) == 0.0


def _bar() -> tuple[ProgressBar, io.StringIO]:
    buf = io.StringIO()
    return ProgressBar(stream=buf, enabled=True), buf


def test_bar_shows_no_eta_in_the_first_second() -> None:
    bar, buf = _bar()
    bar(0.5, 100.0, 1000, 0.2)
    bar(1.0, 100.0, 2000, 0.4)
    assert "ETA" not in buf.getvalue()


def test_bar_eta_follows_a_slowdown_instead_of_the_average_since_the_start() -> None:
    # 80 simulated seconds in the first wall second, then 1 simulated second per wall second:
    # with 15 simulated seconds left the ETA is about 15 s (the average since the start would
    # say about 1 s, the bug of issue 18).
    bar, buf = _bar()
    bar(0.0, 100.0, 0, 0.0)
    bar(80.0, 100.0, 1, 1.0)
    wall, now = 1.0, 80.0
    while now < 85.0 - 1e-9:
        wall, now = wall + 0.2, now + 0.2
        bar(now, 100.0, 1, wall)
    last = buf.getvalue().split("\r")[-1]
    eta = int(last.split("ETA ")[1].split("s")[0])
    assert 10 <= eta <= 16, last



def test_sweep_line_counts_skipped_and_prefailed_runs_as_finished_but_not_in_the_rate() -> None:
    from sctpsim.sweep import SweepProgress

    buf = io.StringIO()
    bar = SweepProgress(total=10, skipped=4, stream=buf, enabled=True, prefailed=2)
    bar.update(0, 2, force=True)
    first = buf.getvalue().split("\r")[-1]
    assert "6/10 runs (4 skipped)" in first and "2 failed" in first and "ETA ?" in first
    bar.update(2, 2, force=True)
    last = buf.getvalue().split("\r")[-1]
    assert "8/10 runs (4 skipped)" in last and "ETA" in last and "ETA ?" not in last
    bar.close()
    assert buf.getvalue().endswith("\n")
    quiet = io.StringIO()
    off = SweepProgress(total=3, skipped=0, stream=quiet)  # not a terminal: nothing
    off.update(1, 0, force=True)
    off.close()
    assert quiet.getvalue() == ""


def test_the_line_is_cut_to_the_terminal_width() -> None:
    """A line wider than the terminal wraps, and rewriting it with a carriage return then leaves
    a row behind at every redraw: the line is cut to the terminal's columns."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))  # 24 rows, 40 columns
    with os.fdopen(slave, "w") as term:
        bar = ProgressBar(stream=term)  # a terminal: drawn
        bar(0.0, 1000.0, 0, 0.0)
        bar(500.0, 1000.0, 12_345_678, 2.0)
        bar.close()
    written = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        written += data
    os.close(master)
    rows = written.decode().replace("\n", "\r").split("\r")
    assert any("[" in r for r in rows), written
    assert max(len(r) for r in rows) <= 40, rows
