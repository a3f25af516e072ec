"""Student-t quantiles and confidence intervals (sctpsim.stats) against published table values."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sctpsim.stats import describe, normal_quantile, summarize, t_cdf_two_sided, t_quantile

# t(0.975, df), to 6 decimals, from standard tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
T975 = {
    1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445, 5: 2.570582, 6: 2.446912, 7: 2.364624,
    8: 2.306004, 9: 2.262157, 10: 2.228139, 11: 2.200985, 12: 2.178813, 13: 2.160369,
    14: 2.144787, 15: 2.131450, 16: 2.119905, 17: 2.109816, 18: 2.100922, 19: 2.093024,
    20: 2.085963, 21: 2.079614, 22: 2.073873, 23: 2.068658, 24: 2.063899, 25: 2.059539,
    26: 2.055529, 27: 2.051831, 28: 2.048407, 29: 2.045230, 30: 2.042272, 40: 2.021075,
    49: 2.009575, 60: 2.000298, 100: 1.983972, 120: 1.979930, 1000: 1.962339,
}


@pytest.mark.parametrize("df,expected", sorted(T975.items()))
def test_t_975_matches_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    "p,df,expected",
    [
        (0.95, 1, 6.313752), (0.95, 10, 1.812461), (0.995, 10, 3.169273), (0.9995, 1, 636.619249),
        (0.99, 30, 2.457262), (0.9, 5, 1.475884), (0.975, 5000, 1.960439), (0.975, 10**6, 1.959966),
    ],
)
def test_other_quantiles(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=1e-6)


def test_normal_quantile_and_limit() -> None:
    assert normal_quantile(0.975) == pytest.approx(1.959963985, abs=1e-9)
    assert normal_quantile(0.5) == 0.0
    assert normal_quantile(0.025) == pytest.approx(-1.959963985, abs=1e-9)
    assert normal_quantile(0.999) == pytest.approx(3.090232306, abs=1e-8)
    assert t_quantile(0.975, math.inf) == normal_quantile(0.975)  # type: ignore[arg-type]


def test_quantile_is_symmetric_monotone_and_continuous_at_the_method_switch() -> None:
    assert t_quantile(0.025, 7) == -t_quantile(0.975, 7)
    qs = [t_quantile(0.975, df) for df in range(1, 1200, 7)]
    assert all(a > b for a, b in zip(qs, qs[1:]))
    assert t_quantile(0.975, 1000) - t_quantile(0.975, 1001) == pytest.approx(2.4e-6, abs=1e-7)


@pytest.mark.parametrize("df", [1, 2, 3, 8, 9, 50, 333])
def test_quantile_inverts_the_cdf(df: int) -> None:
    for p in (0.6, 0.9, 0.975, 0.999):
        assert t_cdf_two_sided(t_quantile(p, df), df) == pytest.approx(2 * p - 1, abs=1e-12)


def test_bad_arguments() -> None:
    for p, df in [(0.0, 3), (1.0, 3), (0.5 + 1e-9, 0), (0.9, 2.5)]:
        with pytest.raises(ValueError):
            t_quantile(p, df)  # type: ignore[arg-type]


def test_describe_known_sample() -> None:
    st = describe([2, 4, 4, 4, 5, 5, 7, 9])
    assert st.mean == 5.0 and st.n == 8
    assert st.sd == pytest.approx(2.138089935, abs=1e-9)
    assert st.ci == pytest.approx(2.364624252 * 2.138089935 / math.sqrt(8), abs=1e-8)
    assert st.low == pytest.approx(5 - st.ci) and st.high == pytest.approx(5 + st.ci)
    assert describe([1, 2, 3], confidence=0.99).ci == pytest.approx(9.924843 * 1 / math.sqrt(3), abs=1e-6)


def test_describe_small_and_missing() -> None:
    assert describe([]).n == 0 and math.isnan(describe([]).mean)
    one = describe([3.5])
    assert one.mean == 3.5 and one.n == 1 and math.isnan(one.sd) and math.isnan(one.ci)
    st = describe([1.0, None, float("nan"), 3.0])
    assert st.n == 2 and st.mean == 2.0
    assert describe([4, 4, 4]).ci == 0.0


def test_summarize_groups_in_order() -> None:
    df = pd.DataFrame({"p": [2, 2, 1, 1, 1], "x": [1.0, 3.0, 5.0, 6.0, 7.0]})
    s = summarize(df, ["p"], ["x"])
    assert list(s.columns) == ["p", "x.mean", "x.sd", "x.n", "x.ci95"]
    assert list(s["p"]) == [2, 1]
    assert list(s["x.mean"]) == [2.0, 6.0] and list(s["x.n"]) == [2, 3]
    assert s["x.ci95"].iloc[1] == pytest.approx(4.302653 * 1.0 / math.sqrt(3), abs=1e-6)


def test_agrees_with_scipy_when_available() -> None:
    sp = pytest.importorskip("scipy.stats")
    for df in (1, 3, 17, 64, 999, 1001, 4000):
        for p in (0.9, 0.975, 0.995):
            assert t_quantile(p, df) == pytest.approx(sp.t.ppf(p, df), rel=1e-9)


# --- SciPy against the exact finite sum this module used before (issue 35) ----------------------


def _reference_cdf_two_sided(t: float, df: int) -> float:
    """P(|T| ≤ t) by the finite trigonometric sums of Abramowitz & Stegun 26.7.3 (exact for
    integer df): what sctpsim.stats computed itself before it took SciPy's quantile."""
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df % 2 == 1:
        total = 0.0
        if df > 1:
            term = total = c
            for k in range(3, df - 1, 2):
                term *= c2 * (k - 1) / k
                total += term
        return min(1.0, (2.0 / math.pi) * (theta + s * total))
    term = total = 1.0
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        total += term
    return min(1.0, s * total)


def _reference_t_quantile(p: float, df: int) -> float:
    """The quantile by bisection on :func:`_reference_cdf_two_sided`, to the last bit."""
    target, lo, hi = 2.0 * p - 1.0, 0.0, 1.0
    while _reference_cdf_two_sided(hi, df) < target:
        hi *= 2.0
    while True:
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            return mid
        lo, hi = (lo, mid) if _reference_cdf_two_sided(mid, df) > target else (mid, hi)


@pytest.mark.parametrize("p", [0.975, 0.995])
def test_the_quantile_is_scipys_and_agrees_with_the_exact_sum_for_df_1_to_1000(p: float) -> None:
    from scipy.stats import t

    for df in range(1, 1001):
        ours = t_quantile(p, df)
        assert ours == float(t.ppf(p, df)), df
        assert ours == pytest.approx(_reference_t_quantile(p, df), rel=1e-12, abs=0), df
