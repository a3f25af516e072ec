"""Statistics over replications: mean, standard deviation, count and the Student-t confidence
interval of the mean.

The 95 % interval of a mean over ``n`` runs is ``mean ± ci95`` with
``ci95 = t(0.975, n - 1) · sd / √n`` (``sd`` with ``n - 1`` in the denominator). The Student-t
and normal quantiles are SciPy's (``scipy.stats.t.ppf``, ``scipy.stats.norm.ppf``): against
40-digit values they are within 1e-15 relative, where the bisection on Abramowitz & Stegun
26.7.3 this module used before was within 4e-13. ``tests/python/test_stats.py`` checks them
against published table values and against that exact finite sum for every df from 1 to 1000.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

import pandas as pd


def _scipy_stats() -> Any:
    """``scipy.stats``, imported on first use: the command line starts without it."""
    import scipy.stats

    return scipy.stats


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal distribution, 0 < p < 1."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"probability must be in (0, 1), got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -normal_quantile(1.0 - p)
    return float(_scipy_stats().norm.ppf(p))


def t_cdf_two_sided(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with integer ``df ≥ 1`` and ``t ≥ 0``. From the upper tail,
    ``1 - 2·P(T > t)``, which keeps its precision where the probability is close to 1."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be ≥ 1, got {df}")
    if t <= 0.0:
        return 0.0
    return 1.0 - 2.0 * float(_scipy_stats().t.sf(t, df))


@lru_cache(maxsize=1024)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    ``df`` must be a positive integer (replication counts give integers); ``math.inf`` gives
    the normal quantile."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"probability must be in (0, 1), got {p}")
    if df != math.inf and (int(df) != df or df < 1):
        raise ValueError(f"degrees of freedom must be a positive integer, got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)  # exactly symmetric, whatever the library's rounding
    if df == math.inf:
        return normal_quantile(p)
    return float(_scipy_stats().t.ppf(p, int(df)))


@dataclass(frozen=True)
class Stats:
    """Mean, sample standard deviation, count and confidence half-width of one sample.

    ``sd`` and ``ci`` are NaN when fewer than two values are present; ``mean`` is NaN for none.
    The interval is ``mean ± ci`` at the ``confidence`` it was computed for."""

    mean: float
    sd: float
    n: int
    ci: float
    confidence: float = 0.95

    @property
    def low(self) -> float:
        return self.mean - self.ci

    @property
    def high(self) -> float:
        return self.mean + self.ci


def describe(values: Iterable[float | int | None], confidence: float = 0.95) -> Stats:
    """Statistics of ``values``; ``None`` and NaN are left out (they count as missing)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    xs = [float(v) for v in values if v is not None and not _isnan(v)]
    n = len(xs)
    if n == 0:
        return Stats(math.nan, math.nan, 0, math.nan, confidence)
    mean = math.fsum(xs) / n
    if n == 1:
        return Stats(mean, math.nan, 1, math.nan, confidence)
    if min(xs) == max(xs):  # exactly constant: no rounding residue in sd
        return Stats(xs[0], 0.0, n, 0.0, confidence)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    sd = math.sqrt(var)
    ci = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return Stats(mean, sd, n, ci, confidence)


def ci95(values: Iterable[float | int | None]) -> float:
    """Half-width of the 95 % Student-t confidence interval of the mean."""
    return describe(values, 0.95).ci


def _isnan(v: object) -> bool:
    try:
        return math.isnan(v)  # type: ignore[arg-type]
    except TypeError:
        return False


def summarize(
    df: pd.DataFrame,
    by: Sequence[str],
    metrics: Sequence[str],
    confidence: float = 0.95,
    *,
    suffix: str = "ci95",
) -> pd.DataFrame:
    """One row per group of ``by`` (in order of first appearance) with, for each metric,
    the columns ``<metric>.mean``, ``<metric>.sd``, ``<metric>.n`` and ``<metric>.<suffix>``
    (the confidence half-width). Missing values are left out of each metric's sample."""
    rows: list[dict[str, object]] = []
    if len(by):
        groups: Iterable[tuple[object, pd.DataFrame]] = df.groupby(list(by), sort=False, dropna=False)
    else:
        groups = [((), df)]
    for key, g in groups:
        keys = key if isinstance(key, tuple) else (key,)
        row: dict[str, object] = dict(zip(by, keys))
        for m in metrics:
            st = describe(pd.to_numeric(g[m], errors="coerce").astype("float64").tolist(), confidence)
            row[f"{m}.mean"] = st.mean
            row[f"{m}.sd"] = st.sd
            row[f"{m}.n"] = st.n
            row[f"{m}.{suffix}"] = st.ci
        rows.append(row)
    columns = list(by) + [f"{m}.{s}" for m in metrics for s in ("mean", "sd", "n", suffix)]
    return pd.DataFrame(rows, columns=columns)
