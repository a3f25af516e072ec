"""``sctpsim reproduce STUDY``: one published study end to end (DESIGN.md §5, docs/reproduce.md).

A study is a list of :class:`Part` s — each a scenario, a grid and a number of seeds, run by
:func:`sctpsim.sweep.sweep` into ``OUT/sweeps/<part>/`` (resumable: a finished run is never
run again, so an interrupted reproduction continues where it stopped) — and an ``analyse``
step that turns their results into claims, figures and the report. Every study writes::

    OUT/report.md          set-up, every choice the paper leaves open, claims, figures, causes
    OUT/claims.csv         one row per published claim (sctpsim.reproduce.claims)
    OUT/results.parquet    every run of every part, one row each (column ``part``)
    OUT/figures/*.png|pdf|svg  the figures
    OUT/reproduce.json     study, mode, code version, command, parts, start and end times

``--quick`` runs a reduced grid with fewer seeds; the report says which.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from sctpsim import store
from sctpsim.reproduce.claims import Claim, write_claims
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
    """What a study's ``analyse`` returns: the claims and the report text (Markdown)."""

    claims: list[Claim]
    report: str


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
    the claims. KeyboardInterrupt leaves every finished run in the store."""
    from sctpsim.sweep import Reporter, sweep

    st = get_study(name)
    out_dir = Path(out) if out is not None else Path("results") / f"{name}{'-quick' if quick else ''}"
    _prepare_out(out_dir)
    say = progress or (lambda _t: None)
    parts = st.parts(quick)
    manifest: dict[str, Any] = {
        "study": name,
        "mode": "quick" if quick else "full",
        "command": list(argv) if argv is not None else None,
        "started_at": _now(),
        "parts": {},
    }
    results: dict[str, pd.DataFrame] = {}
    t0 = time.monotonic()
    for i, part in enumerate(parts, 1):
        npoints = 1
        for v in part.vary.values():
            npoints *= len(v)
        say(f"[{i}/{len(parts)}] {part.name}: {npoints} points × {part.seeds} seeds — {part.what}")
        sc = Scenario.load(part.scenario)
        if part.sets:
            sc = sc.with_(dict(part.sets))
        res = sweep(
            sc, part.vary, part.seeds, jobs=jobs, dask=dask, out=out_dir / "sweeps" / part.name,
            timeseries=part.timeseries, reporter=Reporter(enabled=progress is not None), progress=None if progress is not None else False,
        )
        if not res.ok:
            first = res.failures[0] if res.failures else {}
            raise RuntimeError(
                f"{part.name}: {res.line()}; first failure: {first.get('error_type')}: {first.get('error')} "
                f"(see {res.out}/sweep.json)"
            )
        df = res.results.copy()
        df.insert(0, "part", part.name)
        results[part.name] = df
        manifest["parts"][part.name] = {
            "scenario": str(part.scenario.name),
            "sets": {k: plain_value(v, k) for k, v in part.sets.items()},
            "vary": {k: plain_value(list(v), k) for k, v in part.vary.items()},
            "seeds": part.seeds,
            "runs": res.total,
            "ran": res.done,
            "reused": res.skipped,
        }
        manifest["code_version"] = res.manifest.get("version") if res.manifest else None
    all_rows = pd.concat(list(results.values()), ignore_index=True, sort=False)
    store.atomic_write(out_dir / "results.parquet", lambda tmp: all_rows.to_parquet(tmp, index=False, engine="pyarrow"))
    say("analysing")
    ctx = Context(out_dir, quick, {p.name: p for p in parts}, results)
    (out_dir / "figures").mkdir(parents=True, exist_ok=True)
    analysis = st.analyse(ctx)
    write_claims(out_dir / "claims.csv", analysis.claims)
    store.atomic_write_bytes(out_dir / "report.md", analysis.report.encode("utf-8"))
    manifest["finished_at"] = _now()
    manifest["wall_time_s"] = round(time.monotonic() - t0, 3)
    manifest["verdicts"] = {v: sum(1 for c in analysis.claims if c.verdict == v) for v in ("pass", "explained", "fail")}
    store.atomic_write_bytes(out_dir / "reproduce.json", (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return out_dir, analysis.claims


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


def cli_main(args: argparse.Namespace, argv: Sequence[str] | None = None) -> int:
    def bad(msg: str) -> int:
        sys.stderr.write(f"sctpsim: error: {msg}\n")
        return EXIT_BAD_INPUT

    if args.list:
        for name, title in list_studies():
            print(f"{name:<16} {title}")
        return EXIT_OK
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
    counts = {v: sum(1 for c in claims if c.verdict == v) for v in ("pass", "explained", "fail")}
    for c in claims:
        print(f"  {c.verdict:<9} {c.claim} [{c.case}]: paper {c.paper} {c.unit}, ours {c.ours_mean:.4g} ± {c.ours_ci95:.3g}")
    print(f"report: {out}/report.md  claims: {out}/claims.csv  figures: {out}/figures/  ({time.monotonic() - t0:.0f} s)")
    print(f"{len(claims)} claims: {counts['pass']} pass, {counts['explained']} explained, {counts['fail']} fail", flush=True)
    return EXIT_OK
