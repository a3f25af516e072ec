"""A progress line for long runs: simulated time, events/s and ETA, on a terminal only."""

from __future__ import annotations

import math
import os
import sys
from typing import TextIO

from tqdm import tqdm

#: Time constant (wall seconds) of the smoothed pace: long enough to ride over the jitter of
#: 0.2 s progress intervals, short enough that a slowdown (a MANET whose routes break, a
#: saturated channel) shows in the ETA within a few seconds.
PACE_TAU_S = 2.0

#: No ETA before this much wall time: the first intervals are dominated by start-up and say
#: little about the rate, and a wrong number is worse than none.
ETA_WARMUP_S = 1.0


def smoothed_pace(prev: float | None, d_sim: float, d_wall: float, tau_s: float = PACE_TAU_S) -> float | None:
    """The pace (wall seconds per simulated second) after an interval of ``d_wall`` wall seconds
    in which simulated time advanced ``d_sim`` seconds: an exponential moving average weighted by
    wall time (weight of the new interval ``1 - exp(-d_wall / tau_s)``); the first interval sets
    it. The pace, not its inverse, is averaged so a slow stretch weighs by how long it takes: an
    average of rates would let a fast start hide a slowdown.

    An interval without simulated or wall progress leaves the pace as it is (``prev``); the
    caller then keeps measuring from the same starting point."""
    if d_sim <= 0 or d_wall <= 0:
        return prev
    pace = d_wall / d_sim
    if prev is None:
        return pace
    return prev + (1.0 - math.exp(-d_wall / tau_s)) * (pace - prev)


def eta_s(
    pace: float | None, now_s: float, end_s: float, wall_s: float, warmup_s: float = ETA_WARMUP_S
) -> float | None:
    """Wall seconds until simulated time reaches ``end_s`` at ``pace``; None (show nothing) with
    no pace yet or in the first ``warmup_s`` wall seconds."""
    if pace is None or wall_s < warmup_s:
        return None
    return max(0.0, end_s - now_s) * pace


class Line(tqdm):  # type: ignore[misc]
    """A tqdm line whose format may name ``{detail}``: text its owner computes (an ETA of its
    own, counts), drawn by tqdm with the bar. tqdm does the terminal's part (rewriting the line,
    padding over a longer previous one, ending it on close)."""

    detail = ""
    #: No monitor thread: the lines are redrawn by their owner (``refresh``), never by tqdm.
    monitor_interval = 0

    @property
    def format_dict(self) -> dict[str, object]:
        d = dict(super().format_dict)
        d["detail"] = self.detail
        return d


def new_line(stream: TextIO, total: float, initial: float, bar_format: str, width: int) -> Line:
    """A :class:`Line` on ``stream`` drawn only when told to (``refresh``), ``#`` and ``.``
    for the bar, cut to the terminal's width: a line that wraps cannot be rewritten in place,
    and each redraw would leave a row behind. A delay keeps tqdm from drawing it once on
    creation, before its owner has set ``detail``; ``refresh`` draws whatever the delay."""
    columns, rows = _terminal_size(stream)
    return Line(total=total, initial=initial, file=stream, bar_format=bar_format.replace("{bar}", f"{{bar:{width}}}"),
                ncols=columns, nrows=rows, ascii=".#", mininterval=0, miniters=0, smoothing=0, leave=True,
                dynamic_ncols=False, delay=1e-9)


#: Columns and rows where the terminal's size is unknown or 0 (a pseudo-terminal nobody sized,
#: as under `script` or some CI runners): from a size of 0 tqdm would draw nothing at all.
UNLIMITED = 10_000


def _terminal_size(stream: TextIO) -> tuple[int, int]:
    """Columns and rows of the terminal ``stream`` writes to, each :data:`UNLIMITED` if unknown."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, ValueError, OSError):  # not a file, closed, not a terminal
        return UNLIMITED, UNLIMITED
    return size.columns if size.columns > 0 else UNLIMITED, size.lines if size.lines > 0 else UNLIMITED


class ProgressBar:
    """Draws ``[#####.....]  42.0% t=84.0s/200.0s  3.1M ev/s  ETA 12s`` on stderr when it is a
    terminal; silent otherwise (logs and CI stay clean). The ETA comes from the recent pace of
    simulated time (`smoothed_pace`), not from the fraction done: runs rarely go at one speed.
    tqdm draws the line; the ETA stays ours, since tqdm's comes from its own clock and the
    average rate, which a run that slows down makes wrong (issue 18)."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None, width: int = 24) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = width
        self._line: Line | None = None  # made at the first call: a run that fails draws nothing
        self._pace: float | None = None
        #: (simulated s, wall s) the next interval is measured from.
        self._mark: tuple[float, float] | None = None

    def __call__(self, now_s: float, end_s: float, events: int, wall_s: float) -> None:
        if not self.enabled:
            return
        if self._mark is None:
            self._mark = (now_s, wall_s)
        else:
            d_sim, d_wall = now_s - self._mark[0], wall_s - self._mark[1]
            if d_sim > 0 and d_wall > 0:
                self._pace = smoothed_pace(self._pace, d_sim, d_wall)
                self._mark = (now_s, wall_s)
        frac = min(1.0, now_s / end_s) if end_s > 0 else 1.0
        rate = events / wall_s if wall_s > 0 else 0.0
        eta = eta_s(self._pace, now_s, end_s, wall_s)
        eta_text = f"  ETA {eta:.0f}s" if eta is not None else ""
        if self._line is None:
            self._line = new_line(self.stream, 1.0, frac, "[{bar}] {percentage:5.1f}% {detail}", self.width)
        self._line.n = frac
        self._line.detail = f"t={now_s:.1f}s/{end_s:.1f}s  {_si(rate)} ev/s{eta_text}   "
        self._line.refresh()

    def close(self) -> None:
        """End the progress line."""
        if self._line is not None:
            self._line.close()
            self._line = None


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.0f}"
