"""``sctpsim reproduce STUDY``: one published study end to end (DESIGN.md §5–6, docs/reproduce.md).

A study is a list of :class:`Part` s — each a scenario, a grid and a number of seeds, planned
as a sweep into ``OUT/sweeps/<part>/`` (resumable: a finished run is never run again, so an
interrupted reproduction continues where it stopped); all parts' runs share one process pool —
and an ``analyse`` step that turns their results into claims, figures and the report. Every
study writes::

    OUT/report.md          headline, coverage table, set-up, every open choice, claims, figures
    OUT/claims.csv         one row per claim (sctpsim.reproduce.claims: the rules of DESIGN.md §6)
    OUT/results.parquet    every run of every part, one row each (column ``part``)
    OUT/figures/*.png|pdf|svg  the figures
    OUT/reproduce.json     study, mode, code version, command, parts, times, headline, coverage

``--quick`` runs a reduced grid with fewer seeds; the report says which. ``--reanalyse DIR``
recomputes everything but the runs from what ``DIR`` stores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import pandas as pd

from sctpsim import store
from sctpsim.reproduce import claims as claims_mod
from sctpsim.reproduce.claims import Claim, Result, write_claims
from sctpsim.scenario import Scenario, plain_value
from sctpsim.sweep import _now

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


@dataclass(frozen=True)
class Part:
    """One sweep of a study."""

    name: str
    scenario: Path
    vary: Mapping[str, Sequence[Any]]
    seeds: int
    #: Overrides applied to every run of the part (on top of the scenario file).
    sets: Mapping[str, Any] = field(default_factory=dict)
    #: Keep every run's time series (figures of throughput against time, idle periods).
    timeseries: bool = False
    what: str = ""


@dataclass
class Context:
    """What ``analyse`` gets: the output directory, the mode and each part's results."""

    out: Path
    quick: bool
    parts: dict[str, Part]
    results: dict[str, pd.DataFrame]

    @property
    def figures(self) -> Path:
        return self.out / "figures"

    def long_table(self, table: str, skip: Callable[[str], bool] = lambda _p: False) -> pd.DataFrame:
        """Every run's rows of a long table (``handoffs``, ``macs``) of the parts not skipped, with a
        ``part`` column; empty if none."""
        frames = []
        for name in self.results:
            p = self.out / "sweeps" / name / f"{table}.parquet"
            if not skip(name) and p.exists():
                frames.append(pd.read_parquet(p).assign(part=name))
        return pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame()

    def timeseries(self, part: str, key: str) -> pd.DataFrame | None:
        """A run's time series (parts with ``timeseries=True``)."""
        p = store.ResultStore(self.out / "sweeps" / part).timeseries_path(key)
        return pd.read_parquet(p) if p.exists() else None


@dataclass
class Analysis:
    """What a study's ``analyse`` returns: the claims, the report text (Markdown, opening with
    its ``# title`` line) and every result the paper reports (DESIGN.md §6 "Claims"). The
    headline and the coverage table are put after the title by :func:`finish`."""

    claims: list[Claim]
    report: str
    results: list[Result] = field(default_factory=list)


@dataclass(frozen=True)
class Study:
    name: str
    title: str
    #: ``parts(quick)`` → the sweeps to run.
    parts: Callable[[bool], list[Part]]
    analyse: Callable[[Context], Analysis]


def _studies() -> dict[str, Study | None]:
    """Every study DESIGN.md §6 names; ``None`` for those not built yet."""
    from sctpsim.reproduce import argyriou2004, atiquzzaman2003, aydin2004, omnetpp_olsr, ye2003

    return {
        "ye2003": ye2003.STUDY,
        "argyriou2004": argyriou2004.STUDY,
        "atiquzzaman2003": atiquzzaman2003.STUDY,
        "aydin2004": aydin2004.STUDY,
        "omnetpp-olsr": omnetpp_olsr.STUDY,
    }


def list_studies() -> list[tuple[str, str]]:
    """(name, one line) for ``--list``."""
    out = []
    for name, st in _studies().items():
        out.append((name, st.title if st else "not available yet"))
    return out


def get_study(name: str) -> Study:
    """The study called ``name``; ValueError naming the known ones otherwise."""
    studies = _studies()
    st = studies.get(name)
    if st is None:
        ready = ", ".join(n for n, s in studies.items() if s)
        if name in studies:
            raise ValueError(f"study {name!r} is not available yet (available: {ready})")
        raise ValueError(f"unknown study {name!r} (available: {ready}; see `sctpsim reproduce --list`)")
    return st


def reproduce(
    name: str,
    *,
    quick: bool = False,
    out: str | Path | None = None,
    jobs: int | None = None,
    dask: Any = None,
    progress: Callable[[str], None] | None = None,
    argv: Sequence[str] | None = None,
) -> tuple[Path, list[Claim]]:
    """Run study ``name`` and write its outputs (module doc); returns the output directory and
    the claims. Every part's runs go to one process pool (or one Dask client), in the order of
    the parts, so no part waits for another to drain. KeyboardInterrupt leaves every finished
    run in the store."""
    st = get_study(name)
    out_dir = Path(out) if out is not None else Path("results") / f"{name}{'-quick' if quick else ''}"
    _prepare_out(out_dir)
    with _locked(out_dir):
        return _reproduce_in(st, name, quick, out_dir, jobs, dask, progress, argv)


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """The output directory's lock (store.out_dir_lock) for the whole reproduction or
    reanalysis: two of them writing into one directory would each rewrite the other's claims,
    figures and report. ValueError (exit 2) if another process holds it."""
    try:
        with store.out_dir_lock(out_dir):
            yield
    except store.DirectoryBusyError as e:
        raise ValueError(f"{out_dir}: {e}") from None


def _reproduce_in(st: Study, name: str, quick: bool, out_dir: Path, jobs: int | None, dask: Any,
                  progress: Callable[[str], None] | None, argv: Sequence[str] | None) -> tuple[Path, list[Claim]]:
    from sctpsim.sweep import code_version, plan_sweep, run_plans

    say = progress or (lambda _t: None)
    parts = st.parts(quick)
    manifest: dict[str, Any] = {
        "study": name,
        "mode": "quick" if quick else "full",
        "command": list(argv) if argv is not None else None,
        "started_at": _now(),
        "parts": {},
    }
    t0 = time.monotonic()
    from sctpsim.sweep import _usable_cores

    n_jobs = int(jobs) if jobs is not None else _usable_cores()
    plans = []
    for i, part in enumerate(parts, 1):
        sc = Scenario.load(part.scenario)
        if part.sets:
            sc = sc.with_(dict(part.sets))
        plan = plan_sweep(sc, part.vary, part.seeds, out=out_dir / "sweeps" / part.name, jobs=n_jobs, dask=dask,
                          timeseries=part.timeseries)
        say(f"[{i}/{len(parts)}] {part.name}: {len(plan.points)} points × {part.seeds} seeds = {plan.total} runs, "
            f"{plan.skipped} stored — {part.what}")
        plans.append(plan)
    todo = sum(len(p.todo) for p in plans)
    say(f"running {todo} of {sum(p.total for p in plans)} runs on {'dask' if dask is not None else f'{n_jobs} worker processes'}")
    results_list = run_plans(plans, jobs=n_jobs, dask=dask, progress=None if progress is not None else False)
    results: dict[str, pd.DataFrame] = {}
    for part, res in zip(parts, results_list):
        if not res.ok:
            first = res.failures[0] if res.failures else {}
            raise RuntimeError(
                f"{part.name}: {res.line()}; first failure: {first.get('error_type')}: {first.get('error')} "
                f"(see {res.out}/sweep.json)"
            )
        df = res.results.copy()
        df.insert(0, "part", part.name)
        results[part.name] = df
        manifest["parts"][part.name] = _part_manifest(part) | {"runs": res.total, "ran": res.done, "reused": res.skipped}
    manifest["code_version"] = code_version()
    manifest["jobs"] = n_jobs if dask is None else None
    say("analysing")
    analysis = _finish(st, out_dir, quick, parts, results, manifest, t0)
    return out_dir, analysis.claims


def _part_manifest(part: Part) -> dict[str, Any]:
    return {
        "scenario": str(part.scenario.name),
        "sets": {k: plain_value(v, k) for k, v in part.sets.items()},
        "vary": {k: plain_value(list(v), k) for k, v in part.vary.items()},
        "seeds": part.seeds,
    }


def _finish(st: Study, out_dir: Path, quick: bool, parts: Sequence[Part], results: dict[str, pd.DataFrame],
            manifest: dict[str, Any], t0: float) -> Analysis:
    """Analyse the parts' results and write results.parquet, claims.csv, report.md (opening with
    the headline and the coverage table) and reproduce.json."""
    all_rows = pd.concat(list(results.values()), ignore_index=True, sort=False)
    store.atomic_write(out_dir / "results.parquet", lambda tmp: all_rows.to_parquet(tmp, index=False, engine="pyarrow"))
    ctx = Context(out_dir, quick, {p.name: p for p in parts}, results)
    (out_dir / "figures").mkdir(parents=True, exist_ok=True)
    analysis = st.analyse(ctx)
    claims_mod.check_coverage(analysis.results, analysis.claims)
    for c in analysis.claims:
        if c.evidence and c.evidence not in results:
            raise ValueError(f"claim {c.claim} is explained by part {c.evidence!r}, which is not in the results")
    write_claims(out_dir / "claims.csv", analysis.claims)
    head = claims_mod.headline(analysis.results, analysis.claims)
    store.atomic_write_bytes(out_dir / "report.md", _with_coverage(analysis, head, quick).encode("utf-8"))
    manifest["finished_at"] = _now()
    manifest["wall_time_s"] = round(time.monotonic() - t0, 3)
    manifest["headline"] = head.replace("**", "")
    manifest["coverage"] = claims_mod.summary(analysis.results, analysis.claims)
    manifest["verdicts"] = {v: sum(1 for c in analysis.claims if c.verdict == v) for v in claims_mod.VERDICTS}
    store.atomic_write_bytes(out_dir / "reproduce.json", (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return analysis


def _with_coverage(analysis: Analysis, head: str, quick: bool) -> str:
    """The study's report with the headline and the coverage table after its title line."""
    lines = analysis.report.split("\n")
    k = next((i for i, line in enumerate(lines) if line.startswith("# ")), -1)
    mode = (" Quick mode: fewer seeds and a reduced grid, the same rules and tolerances; rows the CI cannot decide are "
            "`inconclusive`.") if quick else ""
    block = [
        "", head + mode, "",
        "## Coverage: every result the paper reports", "",
        "Each result of the paper (figures, tables, result sentences in the paper's order) with the `paper` rows of "
        "claims.csv that test it. A result is reproduced when every row testing it passes (DESIGN.md §6 \"Claims\": "
        "levels by the 95 % CI of ours against the paper's band, effects by magnitude, orderings by significance in the "
        "paper's direction, \"no effect\" by equivalence; `explained` only by a counterfactual part of the study on "
        "which the same claim passes).", "",
        claims_mod.coverage_table(analysis.results, analysis.claims), "",
    ]
    return "\n".join(lines[: k + 1] + block + lines[k + 1:])


def reanalyse(directory: str | Path, progress: Callable[[str], None] | None = None,
              argv: Sequence[str] | None = None, study: str | None = None) -> tuple[Path, list[Claim]]:
    """Claims, figures and the report of the reproduction in ``directory`` recomputed from its
    stored runs, without simulating (``--reanalyse DIR``). ValueError naming the problem when
    ``directory`` is not a reproduction (of ``study``, if given) or a part's runs are missing."""
    d = Path(directory)
    mf = d / "reproduce.json"
    if not mf.is_file():
        raise ValueError(f"--reanalyse {d}: no reproduce.json (not the output directory of `sctpsim reproduce`)")
    try:
        manifest = json.loads(mf.read_text(encoding="utf-8"))
        name, quick = str(manifest["study"]), manifest["mode"] == "quick"
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"--reanalyse {d}: reproduce.json is unreadable ({e})") from None
    if study is not None and study != name:
        raise ValueError(f"--reanalyse {d}: holds a reproduction of {name}, another study than {study!r}")
    try:
        st = get_study(name)
    except ValueError as e:
        raise ValueError(f"--reanalyse {d}: reproduce.json names {e}") from None
    with _locked(d):
        return _reanalyse_in(st, name, quick, d, manifest, progress, argv)


def _reanalyse_in(st: Study, name: str, quick: bool, d: Path, manifest: dict[str, Any],
                  progress: Callable[[str], None] | None, argv: Sequence[str] | None) -> tuple[Path, list[Claim]]:
    say = progress or (lambda _t: None)
    t0 = time.monotonic()
    parts = st.parts(quick)
    results: dict[str, pd.DataFrame] = {}
    missing = []
    for part in parts:
        p = d / "sweeps" / part.name / store.RESULTS
        if not p.is_file():
            missing.append(part.name)
            continue
        df = pd.read_parquet(p)
        df.insert(0, "part", part.name)
        results[part.name] = df
    if missing:
        raise ValueError(
            f"--reanalyse {d}: no stored runs of part{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            f"(this code's {name} has parts the stored runs lack); run `sctpsim reproduce {name}"
            f"{' --quick' if quick else ''} --out {d}` to run only what is missing")
    say(f"reanalysing {name} ({'quick' if quick else 'full'}) from {sum(len(r) for r in results.values())} stored runs")
    manifest["reanalysed_at"] = _now()
    manifest["reanalyse_command"] = list(argv) if argv is not None else None
    analysis = _finish(st, d, quick, parts, results, manifest, t0)
    return d, analysis.claims


def _prepare_out(out_dir: Path) -> None:
    """The output directory must be a writable directory (checked before anything runs)."""
    problem = store.writable_dir_problem(out_dir)
    if problem:
        raise ValueError(f"--out {out_dir}: {problem}")


# ---------------------------------------------------------------------------------------------
# Command line


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("study", nargs="?", help="the study (see --list)")
    p.add_argument("--list", action="store_true", help="name the studies and exit")
    p.add_argument("--quick", action="store_true", help="a reduced grid with fewer seeds (stated in the report)")
    p.add_argument("--out", help="output directory (default: results/<study>[-quick])")
    p.add_argument("--jobs", "-j", type=int, metavar="J", help="worker processes (default: the usable cores)")
    p.add_argument("--dask", metavar="ADDR", help="run on Dask: 'local' or a scheduler address tcp://host:port")
    p.add_argument("--reanalyse", metavar="DIR",
                   help="recompute claims, figures and report from the runs stored in DIR (a reproduction's output) without simulating")


def cli_main(args: argparse.Namespace, argv: Sequence[str] | None = None) -> int:
    def bad(msg: str) -> int:
        sys.stderr.write(f"sctpsim: error: {msg}\n")
        return EXIT_BAD_INPUT

    if args.list:
        for name, title in list_studies():
            print(f"{name:<16} {title}")
        return EXIT_OK
    if args.reanalyse is not None:
        return _cli_reanalyse(args, argv, bad)
    if not args.study:
        return bad("name a study (see `sctpsim reproduce --list`)")
    from sctpsim.sweep import SweepSetupError, check_backend_args

    backend_error = check_backend_args(args.jobs, args.dask)
    if backend_error:
        return bad(backend_error)
    try:
        get_study(args.study)
    except ValueError as e:
        return bad(str(e))

    t0 = time.monotonic()
    try:
        out, claims = reproduce(
            args.study, quick=args.quick, out=args.out, jobs=args.jobs, dask=args.dask,
            progress=lambda t: print(t, flush=True), argv=argv,
        )
    except ValueError as e:
        return bad(str(e))
    except SweepSetupError as e:
        return bad(str(e))
    except KeyboardInterrupt:
        print("interrupted: finished runs are stored; run the same command to resume", flush=True)
        return EXIT_INTERRUPTED
    _print_outcome(out, claims, t0)
    return EXIT_OK


def _cli_reanalyse(args: argparse.Namespace, argv: Sequence[str] | None, bad: Callable[[str], int]) -> int:
    if args.quick or args.out or args.jobs is not None or args.dask:
        return bad("--reanalyse DIR takes the study, mode and output directory from DIR; drop --quick, --out, --jobs and --dask")
    t0 = time.monotonic()
    try:
        out, claims = reanalyse(args.reanalyse, progress=lambda t: print(t, flush=True), argv=argv, study=args.study)
    except ValueError as e:
        return bad(str(e))
    _print_outcome(out, claims, t0)
    return EXIT_OK


def _print_outcome(out: Path, claims: Sequence[Claim], t0: float) -> None:
    """One line per published result (its status and rows), the checks and extensions that do
    not pass, then the headline."""
    manifest = json.loads((out / "reproduce.json").read_text(encoding="utf-8"))
    cov = manifest.get("coverage", {})
    where = cov.get("result_where", {})
    for rid, status in cov.get("result_status", {}).items():
        rows = [c for c in claims if c.source == "paper" and c.result == rid]
        counts = ", ".join(f"{sum(1 for c in rows if c.verdict == v)} {v}" for v in claims_mod.VERDICTS
                           if any(c.verdict == v for c in rows))
        print(f"  {rid:<4} {status:<12} {where.get(rid, '')}" + (f" ({len(rows)} row{'s' if len(rows) != 1 else ''}: {counts})" if rows else ""))
    for c in claims:
        if c.source != "paper" and c.verdict != "pass":
            print(f"  {c.source:<9} {c.verdict:<12} {c.claim} [{c.case}]: ours {c.ours_mean:.4g} ± {c.ours_ci95:.3g} {c.unit}")
    print(f"report: {out}/report.md  claims: {out}/claims.csv  figures: {out}/figures/  ({time.monotonic() - t0:.0f} s)")
    print(manifest.get("headline", ""), flush=True)
