"""A progress line for long runs: simulated time, events/s and ETA, on a terminal only."""

from __future__ import annotations

import math
import sys
from typing import TextIO

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


class ProgressBar:
    """Draws ``[#####.....]  42.0% t=84.0s/200.0s  3.1M ev/s  ETA 12s`` on stderr when it is a
    terminal; silent otherwise (logs and CI stay clean). The ETA comes from the recent pace of
    simulated time (`smoothed_pace`), not from the fraction done: runs rarely go at one speed."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None, width: int = 24) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = width
        self._drawn = False
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
        filled = int(frac * self.width)
        rate = events / wall_s if wall_s > 0 else 0.0
        eta = eta_s(self._pace, now_s, end_s, wall_s)
        eta_text = f"  ETA {eta:.0f}s" if eta is not None else ""
        line = (
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {100 * frac:5.1f}% "
            f"t={now_s:.1f}s/{end_s:.1f}s  {_si(rate)} ev/s{eta_text}   "
        )
        self.stream.write(line)
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """End the progress line."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.0f}"
