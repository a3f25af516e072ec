"""Statistics over replications: mean, standard deviation, count and the Student-t confidence
interval of the mean, with no dependency beyond the standard library.

The 95 % interval of a mean over ``n`` runs is ``mean ± ci95`` with
``ci95 = t(0.975, n - 1) · sd / √n`` (``sd`` with ``n - 1`` in the denominator). The Student-t
quantile is computed here rather than taken from SciPy:

* for ``df ≤ 1000`` by bisection on the exact t distribution function of integer degrees of
  freedom (Abramowitz & Stegun 26.7.3, finite trigonometric sums);
* beyond, by the Cornish-Fisher expansion of t in terms of the normal quantile
  (A&S 26.7.5, terms up to df⁻⁴; its error there is far below 10⁻¹⁰).

The normal quantile is found by bisection on ``math.erfc``. ``tests/python/test_stats.py``
checks both against published table values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

import pandas as pd

#: Above this many degrees of freedom the Cornish-Fisher expansion replaces the exact sum.
_EXACT_DF_LIMIT = 1000


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal distribution, 0 < p < 1."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"probability must be in (0, 1), got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -normal_quantile(1.0 - p)
    # Φ(x) = erfc(-x/√2)/2 is increasing; the upper tail erfc(x/√2)/2 keeps precision near 1.
    tail = 1.0 - p
    lo, hi = 0.0, 1.0
    while 0.5 * math.erfc(hi / math.sqrt(2.0)) > tail:
        hi *= 2.0
    return _bisect(lambda x: 0.5 * math.erfc(x / math.sqrt(2.0)) - tail, lo, hi, decreasing=True)


def t_cdf_two_sided(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with integer ``df ≥ 1`` and ``t ≥ 0`` (A&S 26.7.3)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be ≥ 1, got {df}")
    if t <= 0.0:
        return 0.0
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df % 2 == 1:
        # (2/π)[θ + sin θ (cos θ + (2/3) cos³θ + … + (2·4⋯(df−3))/(1·3⋯(df−2)) cos^(df−2)θ)]
        total = 0.0
        if df > 1:
            term = c
            total = term
            for k in range(3, df - 1, 2):  # next factor (k-1)/k, one more cos²
                term *= c2 * (k - 1) / k
                total += term
        return min(1.0, (2.0 / math.pi) * (theta + s * total))
    # sin θ [1 + (1/2) cos²θ + (1·3)/(2·4) cos⁴θ + … + (1·3⋯(df−3))/(2·4⋯(df−2)) cos^(df−2)θ]
    term = 1.0
    total = 1.0
    for k in range(2, df - 1, 2):  # next factor (k-1)/k, one more cos²
        term *= c2 * (k - 1) / k
        total += term
    return min(1.0, s * total)


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
        return -t_quantile(1.0 - p, df)
    if df == math.inf:
        return normal_quantile(p)
    df = int(df)
    if df > _EXACT_DF_LIMIT:
        return _cornish_fisher(p, df)
    target = 2.0 * p - 1.0  # P(|T| ≤ t)
    hi = 1.0
    while t_cdf_two_sided(hi, df) < target:
        hi *= 2.0
    return _bisect(lambda t: t_cdf_two_sided(t, df) - target, 0.0, hi, decreasing=False)


def _cornish_fisher(p: float, df: int) -> float:
    z = normal_quantile(p)
    z2 = z * z
    g1 = (z2 + 1.0) * z / 4.0
    g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0
    g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0
    g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0
    v = float(df)
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def _bisect(f, lo: float, hi: float, *, decreasing: bool) -> float:  # type: ignore[no-untyped-def]
    """Root of a monotone ``f`` on [lo, hi] to the last representable bit."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        v = f(mid)
        if (v > 0) != decreasing:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


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
