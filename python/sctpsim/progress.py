"""A progress line for long runs: simulated time, events/s and ETA, on a terminal only."""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressBar:
    """Draws ``[#####.....]  42.0% t=84.0s/200.0s  3.1M ev/s  ETA 12s`` on stderr when it is a
    terminal; silent otherwise (logs and CI stay clean)."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None, width: int = 24) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = width
        self._drawn = False

    def __call__(self, now_s: float, end_s: float, events: int, wall_s: float) -> None:
        if not self.enabled:
            return
        frac = min(1.0, now_s / end_s) if end_s > 0 else 1.0
        filled = int(frac * self.width)
        rate = events / wall_s if wall_s > 0 else 0.0
        eta = wall_s * (1 - frac) / frac if frac > 0 else float("inf")
        eta_text = f"{eta:.0f}s" if eta != float("inf") else "?"
        line = (
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {100 * frac:5.1f}% "
            f"t={now_s:.1f}s/{end_s:.1f}s  {_si(rate)} ev/s  ETA {eta_text}   "
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
