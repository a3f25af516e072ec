"""Published claims beside ours: the rows of ``claims.csv`` (DESIGN.md §5).

One row per published claim::

    claim, case, paper, ours_mean, ours_ci95, unit, tolerance, verdict, note

``verdict`` is ``pass`` (ours within the tolerance), ``fail`` (outside, no measured cause) or
``explained`` (outside, and the report shows the cause with measured numbers: the claim carries
that explanation in ``note`` and the study's report repeats it with its table). A study may only
give ``explained`` through :meth:`Claim.explain`, which takes the measured evidence as text; the
verdict logic itself never relaxes a tolerance.

Ratios and gains over paired runs (the same seeds with and without a change, common random
numbers) use the delta method on the ratio of means: for pairs (x_i, y_i),
r = mean(y)/mean(x), d_i = y_i − r·x_i, se(r) = sd(d)/(√n·mean(x)), ci95 = t(0.975, n−1)·se.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from sctpsim import stats, store

COLUMNS = ["claim", "case", "paper", "ours_mean", "ours_ci95", "unit", "tolerance", "verdict", "note"]


@dataclass
class Claim:
    """One published claim and our measurement of it.

    ``paper`` is the published value (a number, or a word such as ``"falls"`` for a
    qualitative claim); ``tolerance`` says in words what counts as agreement and ``why`` why
    that tolerance (the report prints it); ``ok`` is the outcome of applying it."""

    claim: str
    case: str
    paper: float | str
    ours_mean: float
    ours_ci95: float
    unit: str
    tolerance: str
    why: str
    ok: bool
    note: str = ""
    explanation: str = field(default="", repr=False)

    @property
    def verdict(self) -> str:
        if self.ok:
            return "pass"
        return "explained" if self.explanation else "fail"

    def explain(self, measured: str) -> Claim:
        """Mark a claim outside its tolerance as explained by ``measured`` (numbers we measured
        and the reasoning from them). Has no effect on a claim that passes."""
        if not self.ok:
            self.explanation = measured
            self.note = measured
        return self

    def row(self) -> list[object]:
        return [self.claim, self.case, self.paper, self.ours_mean, self.ours_ci95, self.unit, self.tolerance, self.verdict, self.note]


def mean_ci(values: Iterable[float | None]) -> tuple[float, float]:
    """Mean and 95 % Student-t half-width of the finite values (half-width 0 for fewer than two,
    so a table cell shows the single value rather than ``nan``)."""
    s = stats.describe([float(v) for v in values if v is not None and math.isfinite(float(v))])
    return s.mean, (s.ci if math.isfinite(s.ci) else 0.0)


def column(df: "pd.DataFrame", name: str) -> "pd.Series":
    """Column ``name`` of a results frame as numbers (unparseable values NaN), or all NaN if the
    column is absent (a run without that flow or table)."""
    import pandas as pd

    if name in df.columns:
        return pd.to_numeric(df[name], errors="coerce")
    return pd.Series([math.nan] * len(df), index=df.index)


def diff_ci(a: Iterable[float | None], b: Iterable[float | None]) -> tuple[float, float]:
    """Mean of ``a`` minus mean of ``b`` and its 95 % half-width (independent samples, the two
    half-widths added in quadrature)."""
    ma, ha = mean_ci(a)
    mb, hb = mean_ci(b)
    return ma - mb, math.hypot(ha, hb)


def relative_tolerance(ours: float, paper: float, rel: float) -> bool:
    """|ours − paper| ≤ rel · |paper|."""
    return math.isfinite(ours) and abs(ours - paper) <= rel * abs(paper)


@dataclass(frozen=True)
class Ratio:
    """A ratio of paired means with its 95 % half-width and the per-pair ratios' spread."""

    value: float
    ci95: float
    n: int
    #: Half-width of the 95 % prediction interval of one pair's ratio (for comparing with a
    #: paper that reports a single run).
    pi95: float


def paired_ratio(x: Sequence[float], y: Sequence[float]) -> Ratio:
    """mean(y)/mean(x) over pairs, with the delta-method CI (module doc) and the prediction
    interval of a single pair's y_i/x_i."""
    pairs = [(float(a), float(b)) for a, b in zip(x, y) if math.isfinite(float(a)) and math.isfinite(float(b))]
    n = len(pairs)
    if n == 0:
        return Ratio(math.nan, math.nan, 0, math.nan)
    mx = math.fsum(a for a, _ in pairs) / n
    my = math.fsum(b for _, b in pairs) / n
    if mx == 0:
        return Ratio(math.nan, math.nan, n, math.nan)
    r = my / mx
    if n < 2:
        return Ratio(r, math.nan, n, math.nan)
    d = stats.describe([b - r * a for a, b in pairs])
    t = stats.t_quantile(0.975, n - 1)
    ci = t * d.sd / math.sqrt(n) / mx
    singles = stats.describe([b / a for a, b in pairs if a != 0])
    pi = t * singles.sd * math.sqrt(1.0 + 1.0 / n) if singles.n >= 2 else math.nan
    return Ratio(r, ci, n, pi)


def claims_sections(claims: Sequence[Claim]) -> list[str]:
    """The report's claims section as Markdown blocks: the table, why each tolerance, and the
    measured cause of every explained difference."""
    from sctpsim.report import fmt_mean_ci, markdown_table

    out = ["## Claims", markdown_table(
        ["claim", "case", "paper", "ours (mean ± 95 % CI)", "unit", "tolerance", "verdict"],
        [[c.claim, c.case, c.paper, fmt_mean_ci(c.ours_mean, c.ours_ci95), c.unit, c.tolerance, c.verdict] for c in claims],
    )]
    out.append("Why each tolerance:")
    out.append("\n".join(f"- `{c.claim}` ({c.case}): {c.why}." for c in claims))
    expl = [c for c in claims if c.verdict == "explained"]
    if expl:
        out.append("Measured causes of the differences:")
        out.append("\n".join(f"- `{c.claim}` ({c.case}): {c.explanation}." for c in expl))
    return out


def write_claims(path: str | Path, claims: Iterable[Claim]) -> Path:
    """``claims.csv``, written atomically."""
    p = Path(path)

    def w(tmp: str) -> None:
        with open(tmp, "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(COLUMNS)
            for c in claims:
                out.writerow(["" if isinstance(v, float) and math.isnan(v) else v for v in c.row()])

    store.atomic_write(p, w)
    return p
