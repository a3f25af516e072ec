"""What a reproduction asserts, and how each assertion can fail (DESIGN.md §6 "Claims").

A study lists the results its paper reports (:class:`Result`, numbered R1…Rn in the paper's
order) and computes :class:`Claim` rows that test them. Every row is built by one of the rule
functions below, which decide its outcome from our mean and 95 % CI alone; a study never sets a
verdict by hand.

``source``
    ``paper`` (a published result; ``result`` names its R number), ``check`` (an invariant of
    ours: exact delivery, a bound) or ``extension`` (a comparison the paper did not make).
``kind`` and its rule (our 95 % CI is [m − h, m + h])
    ``level``: a published value ("about 660 kbit/s", a table cell). The band is
    [lo·(1 − tol), hi·(1 + tol)] around the paper's value (or range lo–hi); pass when the whole
    CI lies inside it, fail when the CI misses it, inconclusive otherwise.
    ``effect``: a published change ("+30 %", "1.25–1.8×") against a null (0 for differences,
    1 for ratios). Pass when the CI overlaps the paper's band and excludes the null on the
    paper's side; fail when it misses the band or lies wholly on the null's side;
    inconclusive otherwise (it overlaps the band but also the null).
    ``ordering``: a published direction ("SCTP above TCP", "falls with speed"), given as a
    difference oriented so that positive is the paper's direction. Pass only when the CI
    excludes 0 on the positive side; fail when the mean is 0 or negative (more seeds would
    only confirm the other direction); inconclusive when the mean is positive but the CI
    reaches 0, or when there is no CI. "Not significantly the other way" is no pass.
    ``no_effect``: "no effect" within a margin ±e. Pass when the whole CI lies inside ±e; fail
    when it misses ±e; inconclusive otherwise.
    ``check``: an exact condition (0 corrupted messages, an outage below a bound): pass or fail.
``verdict``
    The rule's outcome, or ``explained``: a ``fail`` whose difference a counterfactual part of
    the study demonstrates (:meth:`Claim.explained_by`): that part changes one named mechanism
    toward what the paper's tool did, and the same claim, computed the same way on its runs,
    passes. ``evidence`` names the part. Nothing else makes a row ``explained``.
``seeds_to_decide``
    For an inconclusive row with a finite CI: how many seeds would narrow the CI (as 1/√n) to
    a decision, with the mean as it is.

An unreadable measurement (no runs, a NaN mean, a single run without a CI) is ``inconclusive``,
never ``pass``.

Ratios and gains over paired runs (the same seeds with and without a change, common random
numbers) use the delta method on the ratio of means: for pairs (x_i, y_i),
r = mean(y)/mean(x), d_i = y_i − r·x_i, se(r) = sd(d)/(√n·mean(x)), ci95 = t(0.975, n−1)·se.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Iterable, Sequence

from sctpsim import stats, store

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = [
    "claim", "source", "result", "case", "kind", "paper", "ours_mean", "ours_ci95", "unit", "n",
    "tolerance", "verdict", "evidence", "seeds_to_decide", "note",
]
SOURCES = ("paper", "check", "extension")
KINDS = ("level", "effect", "ordering", "no_effect", "check")
VERDICTS = ("pass", "fail", "explained", "inconclusive")
#: DESIGN.md §6: a level passes within ±15 % unless the paper's own precision says more.
LEVEL_TOLERANCE = 0.15


@dataclass(frozen=True)
class Result:
    """One result the paper reports: a figure, a table or a result sentence.

    ``rid`` is its number (``R1``…, in the paper's order), ``where`` the place in the paper
    (``Fig. 5(a)``, ``Table 2``, ``§III``) and ``what`` the published statement. ``no_row``
    says why no claim row tests it (the paper gives neither a number nor a shape); a result
    without rows and without that reason is an error of the study (:func:`check_coverage`)."""

    rid: str
    where: str
    what: str
    no_row: str = ""


@dataclass
class Claim:
    """One row of ``claims.csv`` (module doc). Build it with :func:`level`, :func:`effect`,
    :func:`ordering`, :func:`no_effect` or :func:`check`."""

    claim: str
    case: str
    source: str
    result: str
    kind: str
    paper: float | str
    ours_mean: float
    ours_ci95: float
    unit: str
    tolerance: str
    why: str
    outcome: str
    n: int = 0
    note: str = ""
    evidence: str = ""
    seeds_to_decide: int | None = None
    #: The variant row that explains this one (``explained_by``).
    variant: Claim | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"claim {self.claim}: source {self.source!r} is not one of {SOURCES}")
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.claim}: kind {self.kind!r} is not one of {KINDS}")
        if (self.source == "paper") != bool(self.result):
            raise ValueError(f"claim {self.claim}: a paper row names its result (R number), a {self.source} row none")

    @property
    def verdict(self) -> str:
        return "explained" if self.evidence else self.outcome

    def explained_by(self, variant: Claim, part: str, parts: Collection[str], what: str = "") -> bool:
        """Mark this failing row ``explained`` by ``variant``: the same claim computed the same
        way on the runs of the counterfactual ``part`` (which must be one of ``parts``, the
        parts present in the results). Only when the variant passes; returns whether it did."""
        if self.outcome != "fail" or variant.outcome != "pass" or part not in parts:
            return False
        same = (variant.claim, variant.kind, variant.source, variant.result, variant.paper, variant.tolerance, variant.unit)
        if same != (self.claim, self.kind, self.source, self.result, self.paper, self.tolerance, self.unit):
            raise ValueError(f"claim {self.claim}: the variant of part {part} is a different claim ({variant.claim}, {variant.kind})")
        self.evidence = part
        self.variant = variant
        from sctpsim.report import fmt_mean_ci

        self.note = (f"with part `{part}`" + (f" ({what})" if what else "") + f": {fmt_mean_ci(variant.ours_mean, variant.ours_ci95)} "
                     f"{variant.unit} ({variant.case}), which passes" + (f"; {self.note}" if self.note else ""))
        return True

    def row(self) -> list[object]:
        return [self.claim, self.source, self.result, self.case, self.kind, self.paper, self.ours_mean, self.ours_ci95,
                self.unit, self.n, self.tolerance, self.verdict, self.evidence,
                "" if self.seeds_to_decide is None else self.seeds_to_decide, self.note]


# ---------------------------------------------------------------------------------------------
# The rules


def _finite(*xs: float) -> bool:
    return all(x is not None and math.isfinite(float(x)) for x in xs)


def _seeds(n: int, h: float, distance: float) -> int | None:
    """Seeds for a half-width of ``distance`` when ``n`` seeds give ``h`` (h ∝ 1/√n)."""
    if n < 2 or not _finite(h, distance) or distance <= 0:
        return None
    return max(n + 1, math.ceil(n * (h / distance) ** 2))


def _band_outcome(m: float, h: float, lo: float, hi: float, n: int) -> tuple[str, int | None]:
    """pass if [m−h, m+h] ⊂ [lo, hi], fail if disjoint, else inconclusive (seeds to decide)."""
    if not _finite(m):
        return "inconclusive", None
    if not _finite(h):
        return "inconclusive", None
    if lo <= m - h and m + h <= hi:
        return "pass", None
    if m + h < lo or m - h > hi:
        return "fail", None
    d = min(abs(m - lo), abs(m - hi))
    return "inconclusive", _seeds(n, h, d)


def _span(paper: float | tuple[float, float]) -> tuple[float, float]:
    if isinstance(paper, tuple):
        return (min(paper), max(paper))
    return (float(paper), float(paper))


def _paper_text(paper: float | tuple[float, float]) -> str:
    from sctpsim.report import fmt

    lo, hi = _span(paper)
    return fmt(lo) if lo == hi else f"{fmt(lo)}–{fmt(hi)}"


def level(claim: str, case: str, *, paper: float | tuple[float, float], mean: float, ci95: float, unit: str, why: str,
          result: str = "", source: str = "paper", n: int = 0, tol: float = LEVEL_TOLERANCE, abs_tol: float | None = None,
          note: str = "") -> Claim:
    """A published level (value or range lo–hi) against our mean ± CI (module doc); the band is
    ±``tol`` of the paper's value, or ±``abs_tol`` in the unit where the paper's precision is
    absolute (a percentage given to the point)."""
    lo, hi = _span(paper)
    if abs_tol is not None:
        blo, bhi = lo - abs_tol, hi + abs_tol
        tol_text = f"±{abs_tol:g} {unit}"
    else:
        blo, bhi = sorted((lo * (1 - tol), hi * (1 + tol))) if lo >= 0 else sorted((lo * (1 + tol), hi * (1 - tol)))
        tol_text = f"±{tol * 100:g} %"
    outcome, seeds = _band_outcome(mean, ci95, blo, bhi, n)
    return Claim(claim, case, source, result, "level", _paper_text(paper), mean, ci95, unit,
                 f"95 % CI within {tol_text} of the paper ({blo:.4g}–{bhi:.4g} {unit})", why, outcome, n, note,
                 seeds_to_decide=seeds)


def effect(claim: str, case: str, *, paper: float | tuple[float, float], mean: float, ci95: float, unit: str, why: str,
           null: float = 0.0, tol: float = LEVEL_TOLERANCE, abs_tol: float | None = None, result: str = "",
           source: str = "paper", n: int = 0, note: str = "") -> Claim:
    """A published effect against ``null`` (0 for a difference or gain, 1 for a ratio): the
    paper's band is its value (or range) widened by ``tol`` of the effect's size (or by
    ``abs_tol`` in the unit); module doc for the rule."""
    lo, hi = _span(paper)
    if abs_tol is not None:
        blo, bhi = lo - abs_tol, hi + abs_tol
    else:
        blo, bhi = null + (lo - null) * (1 - tol), null + (hi - null) * (1 + tol)
        blo, bhi = min(blo, null + (lo - null) * (1 + tol)), max(bhi, null + (hi - null) * (1 - tol))
    up = (lo + hi) / 2 >= null  # the paper's side of the null
    seeds = None
    if not _finite(mean, ci95):
        outcome = "inconclusive"
    else:
        a, b = mean - ci95, mean + ci95
        beyond_null = a > null if up else b < null
        on_null_side = b <= null if up else a >= null
        overlaps = b >= blo and a <= bhi
        if overlaps and beyond_null:
            outcome = "pass"
        elif not overlaps or on_null_side:
            outcome = "fail"
        else:
            outcome = "inconclusive"
            seeds = _seeds(n, ci95, abs(mean - null))
    tol_text = f"±{abs_tol:g} {unit}" if abs_tol is not None else f"±{tol * 100:g} % of the effect"
    return Claim(claim, case, source, result, "effect", _paper_text(paper), mean, ci95, unit,
                 f"95 % CI overlaps the paper's effect {tol_text} ({blo:.4g}–{bhi:.4g}) and excludes {null:g}", why,
                 outcome, n, note, seeds_to_decide=seeds)


def ordering(claim: str, case: str, *, paper: str, diff: float, ci95: float, unit: str, why: str, result: str = "",
             source: str = "paper", n: int = 0, note: str = "") -> Claim:
    """A published direction; ``diff`` is oriented so that positive is the paper's direction."""
    seeds = None
    if not _finite(diff, ci95):
        outcome = "inconclusive"  # no spread, no decision either way
    elif diff - ci95 > 0:
        outcome = "pass"
    elif diff <= 0:
        outcome = "fail"
    else:
        outcome = "inconclusive"
        seeds = _seeds(n, ci95, diff)
    return Claim(claim, case, source, result, "ordering", paper, diff, ci95, unit,
                 "difference in the paper's direction, its 95 % CI excluding 0", why, outcome, n, note, seeds_to_decide=seeds)


def no_effect(claim: str, case: str, *, margin: float, diff: float, ci95: float, unit: str, why: str, paper: str = "no effect",
              result: str = "", source: str = "paper", n: int = 0, note: str = "") -> Claim:
    """"No effect": the whole CI of ``diff`` inside ±``margin`` (equivalence)."""
    outcome, seeds = _band_outcome(diff, ci95, -margin, margin, n)
    return Claim(claim, case, source, result, "no_effect", paper, diff, ci95, unit,
                 f"95 % CI inside ±{margin:g} {unit}", why, outcome, n, note, seeds_to_decide=seeds)


def check(claim: str, case: str, *, ok: bool, value: float, unit: str, bound: str, why: str, source: str = "check",
          result: str = "", n: int = 0, note: str = "") -> Claim:
    """An exact condition of ours (``source`` ``check``) or a paper's bound read as one."""
    return Claim(claim, case, source, result, "check", bound, value, 0.0, unit, bound, why,
                 "pass" if ok and _finite(value) else "fail", n, note)


# ---------------------------------------------------------------------------------------------
# Coverage and the headline


def check_coverage(results: Sequence[Result], claims: Sequence[Claim]) -> None:
    """ValueError if a paper row names an unknown result, or a result has neither rows nor a
    reason for having none (DESIGN.md §6: coverage first)."""
    ids = [r.rid for r in results]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate result numbers in {ids}")
    known = set(ids)
    for c in claims:
        if c.source == "paper" and c.result not in known:
            raise ValueError(f"claim {c.claim} ({c.case}) tests result {c.result!r}, which the study does not list")
    tested = {c.result for c in claims if c.source == "paper"}
    for r in results:
        if r.rid not in tested and not r.no_row:
            raise ValueError(f"result {r.rid} ({r.where}) has no claim row and no reason for none")


def result_status(rows: Sequence[Claim]) -> str:
    """A result's status from its paper rows: ``pass`` when every row passes, ``fail`` when one
    fails, ``explained`` when the rest pass and some are explained, else ``inconclusive``."""
    vs = {c.verdict for c in rows}
    if not vs:
        return "no row"
    if vs == {"pass"}:
        return "pass"
    if "fail" in vs:
        return "fail"
    if vs <= {"pass", "explained"}:
        return "explained"
    return "inconclusive"


def summary(results: Sequence[Result], claims: Sequence[Claim]) -> dict[str, object]:
    """The counts behind the headline (``reproduce.json``)."""
    by_result = {r.rid: [c for c in claims if c.source == "paper" and c.result == r.rid] for r in results}
    statuses = {rid: result_status(rows) for rid, rows in by_result.items()}
    tested = [s for s in statuses.values() if s != "no row"]
    out: dict[str, object] = {
        "results": len(results),
        "results_tested": len(tested),
        "results_reproduced": sum(1 for s in tested if s == "pass"),
        "results_by_status": {v: sum(1 for s in tested if s == v) for v in ("pass", "explained", "fail", "inconclusive")},
        "results_without_row": len(results) - len(tested),
        "result_status": statuses,
        "result_where": {r.rid: r.where for r in results},
    }
    for src in SOURCES:
        rows = [c for c in claims if c.source == src]
        out[f"{src}_rows"] = {v: sum(1 for c in rows if c.verdict == v) for v in VERDICTS}
    return out


def headline(results: Sequence[Result], claims: Sequence[Claim]) -> str:
    """"k of n published results reproduced", with the rest beside it."""
    s = summary(results, claims)
    st = s["results_by_status"]
    assert isinstance(st, dict)
    pr, ck, ex = s["paper_rows"], s["check_rows"], s["extension_rows"]
    assert isinstance(pr, dict) and isinstance(ck, dict) and isinstance(ex, dict)

    def counts(d: dict[str, int]) -> str:
        return ", ".join(f"{d[v]} {v}" for v in VERDICTS if d[v]) or "none"

    return (f"**{s['results_reproduced']} of {s['results_tested']} published results reproduced** "
            f"({st['explained']} explained by a counterfactual part, {st['fail']} failed, {st['inconclusive']} inconclusive; "
            f"{s['results_without_row']} of the paper's {s['results']} results have no row, see the table). "
            f"Paper rows: {counts(pr)}. Beside them, our checks: {counts(ck)}; extensions: {counts(ex)}.")


def coverage_table(results: Sequence[Result], claims: Sequence[Claim]) -> str:
    """Every result of the paper with the rows that test it (DESIGN.md §6: coverage first)."""
    from sctpsim.report import markdown_table

    rows = []
    for r in results:
        mine = [c for c in claims if c.source == "paper" and c.result == r.rid]
        names: dict[str, dict[str, int]] = {}
        for c in mine:
            names.setdefault(c.claim, {}).setdefault(c.verdict, 0)
            names[c.claim][c.verdict] += 1
        tested = "; ".join(f"`{k}` (" + ", ".join(f"{n} {v}" for v, n in sorted(d.items())) + ")" for k, d in names.items())
        rows.append([r.rid, r.where, r.what, tested or f"no row: {r.no_row}", result_status(mine)])
    return markdown_table(["result", "where", "the paper reports", "rows", "status"], rows)


def explain_with_twins(claims: Sequence[Claim], twins: Sequence[Claim], parts: Collection[str],
                       part_of: Callable[[Claim], str], what: str) -> int:
    """Marks each failing ``paper`` row ``explained`` whose twin (the same claim and case,
    computed by the same code on a counterfactual part's runs) passes; ``part_of(row)`` names
    that part, which must be in ``parts``. A row already explained keeps its evidence. Returns
    how many rows were explained."""
    twin = {(v.claim, v.case): v for v in twins}
    n = 0
    for c in claims:
        v = twin.get((c.claim, c.case))
        if c.source != "paper" or v is None or c.evidence:
            continue
        n += c.explained_by(v, part_of(c), parts, what=what)
    return n


def twins_table(claims: Sequence[Claim], twins: Sequence[Claim], theirs: str) -> tuple[str, int, int, int]:
    """Every ``paper`` row beside its twin on a counterfactual (``theirs`` names it in the
    headers): the Markdown table, how many rows change outcome, how many fail on both, and how
    many rows have a twin. An ``explained`` row counts as failing on ours."""
    from sctpsim.report import fmt_mean_ci, markdown_table

    twin = {(v.claim, v.case): v for v in twins}
    rows, moved, still = [], 0, 0
    for c in claims:
        v = twin.get((c.claim, c.case))
        if c.source != "paper" or v is None:
            continue
        rows.append([c.result, c.claim, c.case, fmt_mean_ci(c.ours_mean, c.ours_ci95), c.verdict,
                     fmt_mean_ci(v.ours_mean, v.ours_ci95), c.unit, v.outcome])
        moved += c.outcome != v.outcome
        still += c.outcome == "fail" and v.outcome == "fail"
    table = markdown_table(["result", "claim", "case", "ours", "verdict", f"ours, {theirs}", "unit", f"verdict ({theirs})"], rows)
    return table, moved, still, len(rows)


def claims_sections(claims: Sequence[Claim]) -> list[str]:
    """The report's claims section as Markdown blocks: the table, why each tolerance, the
    counterfactual parts that explain differences, and the seeds an inconclusive row needs."""
    from sctpsim.report import fmt_mean_ci, markdown_table

    out = ["## Claims", markdown_table(
        ["claim", "source", "result", "case", "paper", "ours (mean ± 95 % CI)", "unit", "rule", "verdict", "evidence"],
        [[c.claim, c.source, c.result, c.case, c.paper, fmt_mean_ci(c.ours_mean, c.ours_ci95), c.unit, c.tolerance, c.verdict,
          f"`{c.evidence}`" if c.evidence else ""] for c in claims],
    )]
    out.append("Why each row and tolerance:")
    out.append("\n".join(f"- `{c.claim}` ({c.case}): {c.why}." for c in claims))
    expl = [c for c in claims if c.verdict == "explained"]
    if expl:
        out.append("Differences a counterfactual part of the study demonstrates (the same claim, computed the same way, passes on it):")
        out.append("\n".join(f"- `{c.claim}` ({c.case}): {c.note}." for c in expl))
    inc = [c for c in claims if c.verdict == "inconclusive"]
    if inc:
        out.append("Inconclusive rows (the 95 % CI cannot decide; seeds to decide assume the mean stays where it is):")
        out.append("\n".join(
            f"- `{c.claim}` ({c.case}): n = {c.n}" + (f", about {c.seeds_to_decide} seeds would decide" if c.seeds_to_decide else "")
            + (f"; {c.note}" if c.note else "") + "." for c in inc))
    notes = [c for c in claims if c.note and c.verdict in ("pass", "fail")]
    if notes:
        out.append("Notes:")
        out.append("\n".join(f"- `{c.claim}` ({c.case}, {c.verdict}): {c.note}." for c in notes))
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


# ---------------------------------------------------------------------------------------------
# Statistics the studies share


def _finite_values(values: Iterable[float | None]) -> list[float]:
    """The values that are numbers (a run without the column gives None or NaN)."""
    return [float(v) for v in values if v is not None and math.isfinite(float(v))]


def mean_ci(values: Iterable[float | None]) -> tuple[float, float]:
    """Mean and 95 % Student-t half-width of the finite values. The half-width is NaN for fewer
    than two values: a rule then finds the row inconclusive rather than exact."""
    m, h, _n = mean_ci_n(values)
    return m, h


def mean_ci_n(values: Iterable[float | None]) -> tuple[float, float, int]:
    """:func:`mean_ci` and the number of finite values."""
    s = stats.describe(_finite_values(values))
    return s.mean, s.ci, s.n


def column(df: "pd.DataFrame", name: str) -> "pd.Series":
    """Column ``name`` of a results frame as numbers (unparseable values NaN), or all NaN if the
    column is absent (a run without that flow or table)."""
    import pandas as pd

    if name in df.columns:
        return pd.to_numeric(df[name], errors="coerce")
    return pd.Series([math.nan] * len(df), index=df.index)


def diff_ci(a: Iterable[float | None], b: Iterable[float | None]) -> tuple[float, float]:
    """Mean of ``a`` minus mean of ``b`` and its 95 % half-width (Welch: each mean's standard
    error from its own sample, t with Welch–Satterthwaite degrees of freedom rounded down); NaN half-width
    when either side has fewer than two values."""
    sa, sb = stats.describe(_finite_values(a)), stats.describe(_finite_values(b))
    d = sa.mean - sb.mean
    if sa.n < 2 or sb.n < 2:
        return d, math.nan
    va, vb = sa.sd**2 / sa.n, sb.sd**2 / sb.n
    se = math.sqrt(va + vb)
    if se == 0:
        return d, 0.0
    df = (va + vb) ** 2 / ((va**2 / (sa.n - 1) if va else 0.0) + (vb**2 / (sb.n - 1) if vb else 0.0))
    # t needs whole degrees of freedom: rounding down is the conservative side.
    return d, stats.t_quantile(0.975, max(1, math.floor(df))) * se


def relative_tolerance(ours: float, paper: float, rel: float) -> bool:
    """|ours − paper| ≤ rel · |paper|."""
    return math.isfinite(ours) and abs(ours - paper) <= rel * abs(paper)


@dataclass(frozen=True)
class Ratio:
    """A ratio of paired means with its 95 % half-width and the per-pair ratios' spread."""

    value: float
    ci95: float
    n: int
    #: Half-width of the 95 % prediction interval of one pair's ratio (shown beside a paper
    #: that reports a single run; never used for a verdict: DESIGN.md §6).
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


def ratio_ci(a: Iterable[float | None], b: Iterable[float | None]) -> tuple[float, float, int]:
    """mean(a)/mean(b) of independent samples with its 95 % half-width (delta method:
    relative standard errors in quadrature, t at the smaller sample's degrees of freedom)."""
    sa, sb = stats.describe(_finite_values(a)), stats.describe(_finite_values(b))
    n = min(sa.n, sb.n)
    if n == 0 or sb.mean == 0:
        return math.nan, math.nan, n
    r = sa.mean / sb.mean
    if n < 2 or sa.mean == 0:
        return r, math.nan, n
    rel = math.hypot(sa.sd / math.sqrt(sa.n) / sa.mean, sb.sd / math.sqrt(sb.n) / sb.mean)
    return r, stats.t_quantile(0.975, n - 1) * abs(r) * rel, n
