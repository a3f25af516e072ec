"""Figures of a reproduction: each written as PNG (for report.md) and PDF (for papers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sctpsim import store
from sctpsim.plot import Figure, _pyplot


def new_figure(ncols: int = 1, nrows: int = 1, width_in: float = 7.0, height_in: float = 4.4, **kw: Any) -> tuple[Any, Any]:
    """A matplotlib figure with a grid on every axes."""
    plt = _pyplot()
    fig, axes = plt.subplots(nrows, ncols, figsize=(width_in, height_in), layout="constrained", squeeze=False, **kw)
    for ax in axes.flat:
        ax.grid(True, alpha=0.3)
    return fig, axes


def save_figure(fig: Any, stem: Path, caption: str) -> Figure:
    """``stem.png`` and ``stem.pdf``, written atomically; returns the PNG as a Figure."""
    png, pdf = stem.with_suffix(".png"), stem.with_suffix(".pdf")
    store.atomic_write(png, lambda tmp: fig.savefig(tmp, format="png", dpi=150))
    store.atomic_write(pdf, lambda tmp: fig.savefig(tmp, format="pdf"))
    _pyplot().close(fig)
    return Figure(png, caption)
