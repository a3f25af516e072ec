"""Figures of a reproduction: each written as PNG (for report.md), PDF and SVG (for papers) by
the same writer as `sctpsim plot` (:func:`sctpsim.plot._save`: no embedded dates, so the same
results give the same bytes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sctpsim.plot import Figure, _pyplot, _save


def new_figure(ncols: int = 1, nrows: int = 1, width_in: float = 7.0, height_in: float = 4.4, **kw: Any) -> tuple[Any, Any]:
    """A matplotlib figure with a grid on every axes."""
    plt = _pyplot()
    fig, axes = plt.subplots(nrows, ncols, figsize=(width_in, height_in), layout="constrained", squeeze=False, **kw)
    for ax in axes.flat:
        ax.grid(True, alpha=0.3)
    return fig, axes


def save_figure(fig: Any, stem: Path, caption: str) -> Figure:
    """``stem.png``, ``stem.pdf`` and ``stem.svg``, written atomically; returns the PNG."""
    return Figure(_save(fig, stem.with_suffix(".png")), caption)
