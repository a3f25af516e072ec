"""Sweeps: a grid of parameter values × replications, run on a process pool or on Dask, with a
resumable result store (docs/sweeps.md).

    import sctpsim
    res = sctpsim.sweep("scenarios/examples/wired-cbr.toml",
                        vary={"link[1].loss.p": [0.01, 0.05, 0.1]}, seeds=10, jobs=2,
                        out="results/loss-sweep")
    res.summary[["link[1].loss.p", "network.pdf.mean", "network.pdf.ci95"]]

``sctpsim.sweep`` is the function :func:`sweep`; this module is ``sctpsim.sweep`` in
``sys.modules`` (import its other names with ``from sctpsim.sweep import ...``).

Grid
    ``vary`` maps field paths to value lists; the grid is their Cartesian product, the first
    path varying slowest. Every grid point runs ``seeds`` replications.
Seeds
    Replication ``i`` (0-based) of a sweep with root seed ``R`` uses seed
    ``int.from_bytes(sha256(f"sctpsim/replication/v1:{R}:{i}").digest()[:8], "big") >> 1``
    (63 bits) — the same seeds at every grid point (common random numbers), independent of the
    grid, of the backend and of the order in which runs finish. ``R`` is ``--seed`` or the
    scenario's ``simulation.seed``. A row's ``seed`` column reproduces it with ``sctpsim run
    --seed``.
Code version
    Run keys include :func:`code_version`: the package version plus a hash of the compiled core,
    so a rebuilt simulator never reuses results of the previous build, even under the same
    version number. A worker whose code version differs from the client's fails its runs.
Workers
    Process pools use the ``spawn`` start method; from a script, call :func:`sweep` under
    ``if __name__ == "__main__":`` (a script without it fails with one SweepSetupError saying
    so). Dask workers need the same sctpsim build installed.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import os
import shutil
import signal
import socket
import sys
import threading
import time
import traceback
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TextIO

import pandas as pd

from sctpsim import _native, store
from sctpsim.scenario import Scenario, as_scenario, plain_value, scenario_error
from sctpsim.seeds import check_count, check_seed, seed_arg

#: What a backend runs: task in, outcome out (both plain dicts; see _execute).
Executor = Callable[[dict[str, Any]], dict[str, Any]]
OnResult = Callable[[dict[str, Any], dict[str, Any]], None]


# ---------------------------------------------------------------------------------------------
# Grid, seeds, --vary


#: Most runs one sweep may have (grid points × seeds). The grid, the seeds and one record per
#: run are built in memory before anything runs, and a run is a file in ``runs/``: 10^12
#: replications (a typo in ``--seeds``) would hang the setup and fill memory. A million runs
#: is a million files in one directory and a results table of a million rows — beyond that,
#: several sweeps are the better tool.
MAX_SWEEP_RUNS = 1_000_000


#: The field a sweep may not vary: every run's seed is a replication seed (module docs), which
#: overrides ``simulation.seed``, so an axis over it would give identical runs, one per point.
SEED_PATH = "simulation.seed"
SEED_AXIS_ERROR = (
    "a sweep gives every run a replication seed, so varying it changes nothing; "
    "use seeds=N (--seeds N) for N replications per point, root_seed= (--seed) for another set"
)


def derive_seed(root: int, replication: int) -> int:
    """Seed of replication ``replication`` (0-based) under root seed ``root`` (module docs)."""
    digest = hashlib.sha256(f"sctpsim/replication/v1:{int(root)}:{int(replication)}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def replication_seeds(root: int, n: int) -> list[int]:
    """The seeds of replications ``0 .. n-1``."""
    return [derive_seed(root, i) for i in range(n)]


def expand_grid(vary: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """All combinations of the varied values, the first path varying slowest. No ``vary`` gives
    one point with no parameters."""
    paths = list(vary)
    values = [list(vary[p]) for p in paths]
    return [dict(zip(paths, combo)) for combo in itertools.product(*values)]


def split_values(text: str) -> list[str]:
    """Split ``v1,v2,...`` at the commas that are outside brackets, braces and quotes, so TOML
    arrays and inline tables stay whole: ``[600,600],[800,800]`` is two values."""
    parts: list[str] = []
    depth = 0
    quote = ""
    cur: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch in "[{":
            depth += 1
            cur.append(ch)
        elif ch in "]}":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced {ch!r}")
            cur.append(ch)
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    if quote:
        raise ValueError(f"unclosed {quote}")
    if depth:
        raise ValueError("unbalanced brackets")
    parts.append("".join(cur).strip())
    return parts


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """``path=v1,v2,...`` → ``(path, [typed values])``; each value is read like a ``--set``
    value (TOML syntax, anything else as a string). Raises ValueError with the reason."""
    path, sep, values = text.partition("=")
    path = path.strip()
    if not sep or not path:
        raise ValueError(f"--vary {text!r}: expected path=v1,v2,...")
    try:
        parts = split_values(values)
    except ValueError as e:
        raise ValueError(f"--vary {text!r}: {e}") from None
    if any(p == "" for p in parts):
        raise ValueError(f"--vary {text!r}: empty value")
    return path, [_native.cli_value(p) for p in parts]


def parse_vary_args(items: Sequence[str]) -> dict[str, list[Any]]:
    """All ``--vary`` options; a path given twice is an error."""
    vary: dict[str, list[Any]] = {}
    for item in items:
        path, values = parse_vary(item)
        if path in vary:
            raise ValueError(f"--vary {path}: given twice (list all values in one --vary)")
        vary[path] = values
    return vary


_CODE_VERSION: str | None = None


def code_version() -> str:
    """``<package version>+<first 12 hex digits of the SHA-256 of the compiled core>``, e.g.
    ``0.1.0+3f2a9c0d1b7e``: what the run keys mean by "code version"."""
    global _CODE_VERSION
    if _CODE_VERSION is None:
        digest = hashlib.sha256()
        try:
            with open(str(_native.__file__), "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            build = digest.hexdigest()[:12]
        except (OSError, AttributeError, TypeError):
            build = "unknown"
        _CODE_VERSION = f"{_native.__version__}+{build}"
    return _CODE_VERSION


def format_params(params: Mapping[str, Any]) -> str:
    """``a=1 b=2Mbps`` for messages (``(no parameters)`` when empty)."""
    if not params:
        return "(no parameters)"
    return " ".join(f"{k}={_fmt_value(v)}" for k, v in params.items())


def _fmt_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# ---------------------------------------------------------------------------------------------
# One run, in a worker


def _execute(task: dict[str, Any]) -> dict[str, Any]:
    """Run one task in whatever process this is. Never raises for a failing run: the outcome
    says ``failed`` with the error. Only plain data crosses process boundaries."""
    from sctpsim.runner import run_quietly

    started = time.time()
    if task.get("code_version") and task["code_version"] != code_version():
        return _failure(
            "VersionMismatch",
            f"this worker runs sctpsim {code_version()}, the sweep expects {task['code_version']}",
            started,
        )
    try:
        sc = Scenario(task["text"], task["source"], tuple(tuple(o) for o in task["overrides"]))  # type: ignore[arg-type]
        # One run's warnings (a flow that delivered nothing, a sampling interval longer than the
        # run) are results of a sweep, in its table; printed from every worker they would bury
        # the progress line, so they are not even computed.
        res = run_quietly(sc, seed=task["seed"])
        if res.interrupted:
            raise KeyboardInterrupt("simulation interrupted")
    except KeyboardInterrupt:
        if task.get("in_process"):
            raise  # Ctrl-C stops an in-process sweep
        return _failure("KeyboardInterrupt", "run interrupted", started)
    except _native.SctpsimError as e:
        return _failure(type(e).__name__, str(e), started)
    except Exception as e:  # noqa: BLE001 - a failing run must not stop the sweep
        return _failure(type(e).__name__, str(e), started, traceback.format_exc())
    return {
        "status": "ok",
        "summary": res.summary,
        "manifest": res.manifest,
        "timeseries": res.timeseries if task.get("timeseries") else None,
        "error": None,
        "error_type": None,
        "worker": f"{socket.gethostname()}:{os.getpid()}",
        "elapsed_s": time.time() - started,
    }


def _failure(kind: str, message: str, started: float, tb: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": "failed",
        "summary": None,
        "manifest": None,
        "timeseries": None,
        "error": message,
        "error_type": kind,
        "worker": f"{socket.gethostname()}:{os.getpid()}",
        "elapsed_s": time.time() - started,
    }
    if tb:
        out["traceback"] = tb
    return out


# ---------------------------------------------------------------------------------------------
# Backends


class InlineBackend:
    """Runs every task in this process, one after another (``jobs=1``)."""

    name = "in process (1 job)"

    def run(self, fn: Executor, tasks: Iterable[dict[str, Any]], on_result: OnResult) -> None:
        for t in tasks:
            on_result(t, fn({**t, "in_process": True}))

    def close(self) -> None:
        pass


def _worker_init(parent_pid: int) -> None:
    # Ctrl-C is the parent's business (it stops the pool); a worker whose parent died (kill -9)
    # exits instead of finishing queued work nobody will collect.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent_pid:
            os._exit(1)


#: Exit status of a spawned worker that, while importing the parent's main script, reached a
#: call of :func:`sweep`: the script calls it without ``if __name__ == "__main__":``. Chosen
#: outside the statuses Python and signals use, so the parent can tell it from a crash.
UNGUARDED_MAIN_EXIT = 87


def _leave_if_importing_main() -> None:
    """In a worker that the ``spawn`` start method is still preparing, end the process quietly.

    A spawned worker imports the parent's main script before it runs anything; a script that
    calls :func:`sweep` at its top level would start a sweep of its own there, which fails with
    a multiprocessing traceback in every worker. Exiting with :data:`UNGUARDED_MAIN_EXIT` lets
    the parent report the cause once (:meth:`ProcessBackend.run`)."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(UNGUARDED_MAIN_EXIT)


def _unguarded_main_message(jobs: int) -> str:
    """The one-line error for a main script whose workers exited with UNGUARDED_MAIN_EXIT."""
    main = getattr(sys.modules.get("__main__"), "__file__", None) or "the main script"
    return (
        f"sweep(jobs={jobs}): the worker processes import {main}, which calls sweep() at its top level; "
        'put the call under `if __name__ == "__main__":` (or pass jobs=1 to run in this process)'
    )


class ProcessBackend:
    """A local process pool (``spawn`` start method). At most ``2 · jobs`` tasks are queued at
    a time. A worker that dies (out of memory, a crash) breaks the pool and every task queued in
    it; the pool is restarted and those tasks run again one at a time, so that only a task that
    kills a worker on its own (``attempts`` times) is recorded as failed."""

    def __init__(self, jobs: int, attempts: int = 2) -> None:
        self.jobs = jobs
        self.attempts = attempts
        self.name = f"process pool ({jobs} jobs)"
        self._pool: Any = None

    def _new_pool(self) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )

    def run(self, fn: Executor, tasks: Iterable[dict[str, Any]], on_result: OnResult) -> None:
        from concurrent.futures import FIRST_COMPLETED, Future, wait
        from concurrent.futures.process import BrokenProcessPool

        pending = deque(tasks)
        suspects: deque[dict[str, Any]] = deque()  # were queued in a pool that broke
        inflight: dict[Future[dict[str, Any]], dict[str, Any]] = {}
        solo: dict[str, Any] | None = None  # a suspect running alone
        solo_failures: dict[str, int] = {}
        self._pool = self._new_pool()
        while pending or suspects or inflight:
            broken = False
            try:
                if suspects:
                    if not inflight:
                        solo = suspects.popleft()
                        fut = self._pool.submit(fn, solo)
                        inflight[fut] = solo
                else:
                    while pending and len(inflight) < 2 * self.jobs:
                        fut = self._pool.submit(fn, pending[0])
                        inflight[fut] = pending.popleft()
            except BrokenProcessPool:
                broken = True
                if solo is not None and solo not in inflight.values():
                    suspects.appendleft(solo)
                solo = None
            if inflight and not broken:
                done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                for f in done:
                    t = inflight.pop(f)
                    try:
                        out = f.result()
                    except BrokenProcessPool:
                        broken = True
                        if t is solo:
                            n = solo_failures[t["key"]] = solo_failures.get(t["key"], 0) + 1
                            if n >= self.attempts:
                                on_result(t, _failure("WorkerDied", f"a worker process died running this task alone ({n} times)", time.time()))
                            else:
                                suspects.appendleft(t)
                        else:
                            suspects.append(t)
                    except Exception as e:  # noqa: BLE001 - e.g. a task that cannot be pickled
                        on_result(t, _failure(type(e).__name__, str(e), time.time()))
                    else:
                        on_result(t, out)
                    if t is solo:
                        solo = None
            if broken:
                if self._workers_found_unguarded_main():
                    raise SweepSetupError(_unguarded_main_message(self.jobs))
                # Every task queued in a broken pool fails with it; run them again one by one.
                for f in list(inflight):
                    suspects.append(inflight.pop(f))
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
        self._pool.shutdown(wait=True)
        self._pool = None

    def _workers_found_unguarded_main(self) -> bool:
        """Whether a worker of the broken pool exited with UNGUARDED_MAIN_EXIT: then every
        worker will, and running the tasks again one by one only repeats the failure."""
        processes = getattr(self._pool, "_processes", None) or {}  # pid -> Process, kept after a break
        for proc in list(processes.values()):
            proc.join(timeout=5)
            if proc.exitcode == UNGUARDED_MAIN_EXIT:
                return True
        return False

    def close(self) -> None:
        """Stop at once: cancel queued tasks and end the workers (used on Ctrl-C)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            try:
                p.terminate()
            except Exception:  # noqa: BLE001 - already gone
                pass
        for p in procs:
            try:
                p.join(timeout=2)
            except Exception:  # noqa: BLE001
                pass


class DaskBackend:
    """Runs tasks on a Dask cluster: ``"local"`` starts a LocalCluster with ``jobs`` worker
    processes of one thread each; ``"tcp://host:port"`` connects to a running scheduler; a
    ``distributed.Client`` is used as it is (and left open)."""

    def __init__(self, target: Any, jobs: int) -> None:
        try:
            import distributed
        except ImportError:
            raise SweepSetupError("--dask needs the optional dependency distributed: pip install 'sctpsim[dask]'") from None
        self._own: list[Any] = []
        if isinstance(target, str):
            if target == "local":
                cluster = distributed.LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
                )
                self._own.append(cluster)
                self.client = distributed.Client(cluster)
                self.name = f"dask LocalCluster ({jobs} workers)"
            else:
                _check_reachable(target)
                try:
                    self.client = distributed.Client(target, timeout="15s")
                except (OSError, TimeoutError) as e:
                    raise SweepSetupError(f"--dask {target}: cannot connect to the scheduler: {e}") from None
                self.name = f"dask {target}"
            self._own.insert(0, self.client)
        else:
            self.client = target
            self.name = f"dask {getattr(getattr(target, 'scheduler', None), 'address', target)}"
        self._futures: list[Any] = []

    def workers(self) -> int:
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001
            return 0

    def run(self, fn: Executor, tasks: Iterable[dict[str, Any]], on_result: OnResult) -> None:
        from distributed import as_completed

        by_future: dict[Any, dict[str, Any]] = {}
        for t in tasks:
            f = self.client.submit(fn, t, key=f"sctpsim-run-{t['key']}", pure=False)
            by_future[f] = t
        self._futures = list(by_future)
        for f in as_completed(list(by_future)):
            t = by_future.pop(f)
            try:
                out = f.result()
            except Exception as e:  # noqa: BLE001 - KilledWorker, lost connection, ...
                out = _failure(type(e).__name__, str(e), time.time())
            on_result(t, out)
            f.release()
        self._futures = []

    def close(self) -> None:
        for f in self._futures:
            try:
                f.cancel()
            except Exception:  # noqa: BLE001
                pass
        self._futures = []
        for obj in self._own:
            try:
                obj.close()
            except Exception:  # noqa: BLE001
                pass
        self._own = []


def _check_reachable(address: str) -> None:
    """Fail fast (not after the client's timeout) when nothing listens at a tcp:// address."""
    scheme, _, rest = address.partition("://")
    if scheme != "tcp":
        return
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            pass
    except ValueError:
        raise SweepSetupError(f"--dask {address}: expected tcp://host:port") from None
    except OSError as e:
        raise SweepSetupError(f"--dask {address}: cannot connect to the scheduler: {e}") from None


class SweepSetupError(_native.SctpsimError):
    """The sweep cannot start: a backend is missing or unreachable (exit code 2)."""


# ---------------------------------------------------------------------------------------------
# Progress


class SweepProgress:
    """``[######......] 12/30 runs (3 skipped)  1 failed  elapsed 00:04  ETA 00:06`` on stderr
    when it is a terminal; silent otherwise. tqdm draws it and computes the ETA from the rate
    of the runs that ran here (``smoothing=0``: their number over the elapsed time); runs
    found in the store and grid points rejected before running count as finished but not in
    the rate."""

    def __init__(self, total: int, skipped: int, stream: TextIO | None = None, enabled: bool | None = None,
                 width: int = 24, prefailed: int = 0) -> None:
        self.stream = stream or sys.stderr
        self.enabled = _isatty(self.stream) if enabled is None else enabled
        self.total = total
        self.skipped = skipped
        self.prefailed = prefailed  # failed without running (rejected grid points): not in the ETA
        self.width = width
        self._last = 0.0
        self._line: Any = None  # sctpsim.progress.Line, made at the first update

    def update(self, done: int, failed: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        if self._line is None:
            from sctpsim.progress import new_line

            self._line = new_line(self.stream, self.total, self.skipped + self.prefailed,
                                  "[{bar}] {n}/{total} runs{detail}  elapsed {elapsed}  ETA {remaining}   ", self.width)
        skipped = f" ({self.skipped} skipped)" if self.skipped else ""
        self._line.n = self.skipped + done + failed
        self._line.detail = f"{skipped}  {failed} failed"
        self._line.refresh()

    def close(self) -> None:
        if self._line is not None:
            self._line.close()
            self._line = None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# The sweep


@dataclass
class SweepResult:
    """What a sweep produced. ``results`` and ``summary`` are the DataFrames written to
    ``results.parquet`` and ``summary.csv``."""

    #: The sweep directory, or None for a sweep run without ``out`` (its store was temporary).
    out: Path | None
    results: pd.DataFrame
    summary: pd.DataFrame
    total: int
    done: int
    skipped: int
    failed: int
    not_run: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    #: Each run's time series by run key, for a sweep with ``timeseries=True`` and no ``out``
    #: (with ``out`` they are in ``runs/<key>.timeseries.parquet``).
    timeseries: dict[str, pd.DataFrame] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Every run of the grid has a successful result."""
        return self.failed == 0 and self.not_run == 0

    def __repr__(self) -> str:
        where = f", out={str(self.out)!r}" if self.out is not None else ""
        return (f"SweepResult({self.total} runs: {self.done} done, {self.skipped} skipped, {self.failed} failed"
                + (f", {self.not_run} not run" if self.not_run else "") + f"{where})")

    def _repr_html_(self, rows: int = 10) -> str:
        """Jupyter's display: the counts and the first rows of the summary table."""
        from sctpsim import _display as d

        counts: list[tuple[str, Any]] = [("runs", self.total), ("done", self.done), ("skipped (already in store)", self.skipped),
                  ("failed", self.failed)]
        if self.not_run:
            counts.append(("not run (interrupted)", self.not_run))
        counts.append(("sweep directory", self.out if self.out is not None else "(none: results in memory)"))
        parts = [d.title("SweepResult", self.line()), d.table(counts)]
        parts.append(f"<p>Summary ({len(self.summary)} grid points; first {min(rows, len(self.summary))})</p>")
        parts.append(self.summary.head(rows).to_html(index=False, max_cols=20))
        return "".join(parts)

    def line(self) -> str:
        """``30 runs: 27 done, 3 skipped (already in store), 0 failed``."""
        text = f"{self.total} runs: {self.done} done, {self.skipped} skipped (already in store), {self.failed} failed"
        if self.not_run:
            text += f", {self.not_run} not run (interrupted)"
        return text


class Reporter:
    """Messages a sweep prints (the CLI prints them; the Python API is quiet by default)."""

    def __init__(self, stream: TextIO | None = None, err: TextIO | None = None, enabled: bool = True) -> None:
        self.stream = stream or sys.stdout
        self.err = err or sys.stderr
        self.enabled = enabled

    def info(self, text: str) -> None:
        if self.enabled:
            print(text, file=self.stream, flush=True)

    def warn(self, text: str) -> None:
        if self.enabled:
            print(text, file=self.err, flush=True)


def sweep(
    scenario: Scenario | str | Path | Mapping[str, Any],
    vary: Mapping[str, Sequence[Any]] | None = None,
    seeds: int = 1,
    *,
    root_seed: int | None = None,
    jobs: int | None = None,
    dask: Any = None,
    out: str | Path | None = None,
    metrics: Sequence[str] | None = None,
    timeseries: bool = False,
    progress: bool | None = None,
    reporter: Reporter | None = None,
    executor: Executor | None = None,
    exclude: Sequence[Mapping[str, Any]] | None = None,
) -> SweepResult:
    """Run ``scenario`` at every point of the ``vary`` grid, ``seeds`` times each.

    ``scenario`` is a :class:`Scenario`, a path or a dict (as for :func:`sctpsim.run`; TypeError
    otherwise). ``seeds`` and ``jobs`` are integers of at least 1 (ValueError otherwise: not
    booleans, not strings).

    ``jobs`` worker processes (default: the usable cores; 1 runs in this process), or Dask:
    ``dask="local"`` (a LocalCluster of ``jobs`` workers), ``dask="tcp://host:port"`` or a
    ``distributed.Client``. Results go to the sweep directory ``out``; runs already stored
    there are not run again, so the same call resumes an interrupted sweep. Without ``out``
    the per-run store is a temporary directory removed before :func:`sweep` returns: the
    results are only in the returned SweepResult (``out`` is None; with ``timeseries=True``
    the time series are in its ``timeseries``), and nothing can be resumed. ``metrics`` are
    name patterns for summary.csv (default: ``network.*``, ``flows.*``, ``flows[*``); one that
    matches no metric of the successful runs raises store.MetricPatternError (a ValueError whose
    ``partial`` is the SweepResult, already written) naming it and the nearest names.
    ``root_seed`` is an integer in ``[0, 2**64 - 1]`` (ValueError otherwise).
    ``timeseries=True`` keeps each run's time series next to its record. Ctrl-C raises KeyboardInterrupt whose ``partial`` is the
    SweepResult of what finished (already written). A grid point whose values the scenario
    rejects fails its runs; if every point is rejected, ScenarioError is raised instead.
    ``executor`` replaces the function that runs one task in a worker (for tests).
    ``exclude`` is a list of partial points (``{path: value}``, paths of ``vary``): a grid point
    matching every entry of one of them is left out (constraints, as in a grid file).
    """
    base, grid, seeds, seed_list, root, paths, points, point_hash, point_error, version, n_jobs = _checked(
        scenario, vary, seeds, root_seed, jobs, exclude)
    reporter = reporter or Reporter(enabled=False)
    # Without ``out`` the per-run store lives in a temporary directory that is removed when
    # the sweep returns (or raises): the results are the DataFrames of the SweepResult.
    tmp_dir = Path(_mkdtemp()) if out is None else None
    out_dir = Path(out) if out is not None else tmp_dir
    try:
        with _holding(out_dir):  # type: ignore[arg-type]
            return _sweep_in(
                base, grid, seeds, seed_list, root, paths, points, point_hash, point_error, version,
                out_dir, tmp_dir is None,  # type: ignore[arg-type]
                n_jobs=n_jobs, dask=dask, metrics=metrics, timeseries=timeseries, progress=progress,
                reporter=reporter, executor=executor, exclude=[dict(e) for e in exclude] if exclude else [],
            )
    finally:
        if tmp_dir is not None:
            shutil.rmtree(tmp_dir, ignore_errors=True)


@contextmanager
def _holding(out_dir: Path) -> Iterator[None]:
    """The sweep directory's lock (store.out_dir_lock) for the whole sweep: two sweeps into one
    store would run the same runs twice and each rewrite the tables. SweepSetupError if another
    process holds it."""
    try:
        with store.out_dir_lock(out_dir):
            yield
    except store.DirectoryBusyError as e:
        raise SweepSetupError(f"--out {out_dir}: {e}") from None


def _checked(
    scenario: Scenario | str | Path | Mapping[str, Any], vary: Mapping[str, Sequence[Any]] | None, seeds: int, root_seed: int | None,
    jobs: int | None, exclude: Sequence[Mapping[str, Any]] | None,
) -> tuple[Any, ...]:
    """The arguments of :func:`sweep` checked and expanded (ValueError, SweepSetupError or
    ScenarioError naming the problem): base scenario, grid, seeds, their list, root seed,
    paths, points, each point's scenario hash and error, code version, jobs."""
    _leave_if_importing_main()
    base = as_scenario(scenario)
    grid = {str(k): _vary_values(str(k), v) for k, v in (vary or {}).items()}
    for path, values in grid.items():
        if not values:
            raise _native.ScenarioError(f"{path}: no values to vary")
    seeds = check_count(seeds, "seeds")
    n_jobs = check_count(jobs, "jobs") if jobs is not None else _usable_cores()
    version = code_version()
    # The same range as `run --seed`: a root seed `sctpsim run` could not take is a mistake.
    root = check_seed(root_seed, "root_seed") if root_seed is not None else int(base.get("simulation.seed", 1))
    n_runs = math.prod(len(v) for v in grid.values()) * seeds
    if n_runs > MAX_SWEEP_RUNS:
        raise SweepSetupError(
            f"{n_runs} runs ({n_runs // seeds} grid points × {seeds} seeds) is above the limit of "
            f"{MAX_SWEEP_RUNS} runs per sweep; split it into several sweeps"
        )
    if SEED_PATH in grid:
        raise scenario_error(SEED_PATH, SEED_AXIS_ERROR)
    seed_list = replication_seeds(root, seeds)
    paths = list(grid)
    points = expand_grid(grid)
    if exclude:
        from sctpsim.grid_file import excluded

        rules = [{str(k): plain_value(v, str(k)) for k, v in e.items()} for e in exclude]
        for i, e in enumerate(rules):
            for path in e:
                if path not in grid:
                    raise _native.ScenarioError(f"exclude[{i}].{path}: not a varied path")
        points = [pt for pt in points if not excluded(pt, rules)]
        if not points:
            raise _native.ScenarioError("exclude: every point of the grid is excluded")

    # Check every grid point before running anything: a rejected value fails that point only.
    point_hash: list[str | None] = []
    point_error: list[str | None] = []
    for params in points:
        try:
            point_hash.append(base.with_(params).hash if params else base.hash)
            point_error.append(None)
        except _native.ScenarioError as e:
            point_hash.append(None)
            point_error.append(str(e))
    if points and all(e is not None for e in point_error):
        raise _native.ScenarioError(str(point_error[0]))

    return base, grid, seeds, seed_list, root, paths, points, point_hash, point_error, version, n_jobs


def plan_sweep(
    scenario: Scenario | str | Path, vary: Mapping[str, Sequence[Any]] | None, seeds: int, *, out: str | Path,
    root_seed: int | None = None, jobs: int | None = None, dask: Any = None, metrics: Sequence[str] | None = None,
    timeseries: bool = False, exclude: Sequence[Mapping[str, Any]] | None = None,
) -> SweepPlan:
    """The runs :func:`sweep` would make with these arguments, into the store ``out``, not yet
    run (for :func:`run_plans`)."""
    base, grid, seeds, seed_list, root, paths, points, point_hash, point_error, version, n_jobs = _checked(
        scenario, vary, seeds, root_seed, jobs, exclude)
    return SweepPlan(base, grid, seeds, seed_list, root, paths, points, point_hash, point_error, version, Path(out), True,
                     n_jobs=n_jobs, dask=dask, metrics=metrics, timeseries=timeseries,
                     exclude=[dict(e) for e in exclude] if exclude else [])


def _sweep_in(
    base: Scenario, vary: dict[str, list[Any]], seeds: int, seed_list: list[int], root: int,
    paths: list[str], points: list[dict[str, Any]], point_hash: list[str | None],
    point_error: list[str | None], version: str, out_dir: Path, keep: bool, *, n_jobs: int, dask: Any,
    metrics: Sequence[str] | None, timeseries: bool, progress: bool | None, reporter: Reporter,
    executor: Executor | None, exclude: list[dict[str, Any]],
) -> SweepResult:
    """The body of :func:`sweep` once its arguments are checked; ``keep`` is False when
    ``out_dir`` is a temporary directory about to be removed."""
    plan = SweepPlan(base, vary, seeds, seed_list, root, paths, points, point_hash, point_error, version, out_dir, keep,
                     n_jobs=n_jobs, dask=dask, metrics=metrics, timeseries=timeseries, exclude=exclude)
    backend = _backend(dask, n_jobs, len(plan.todo))
    plan.announce(reporter, backend.name)
    if isinstance(backend, DaskBackend) and plan.todo and backend.workers() == 0:
        reporter.warn("sweep: the Dask cluster has no workers yet; waiting for some")
    interrupted = _run_on(backend, [plan], executor, progress)
    return plan.finish(backend.name, interrupted)


def _backend(dask: Any, n_jobs: int, n_todo: int) -> InlineBackend | ProcessBackend | DaskBackend:
    if dask is not None:
        return DaskBackend(dask, n_jobs)
    if n_jobs == 1 or n_todo <= 1:
        return InlineBackend()
    return ProcessBackend(min(n_jobs, n_todo))


class SweepPlan:
    """One sweep's runs before they run: ``todo`` (the tasks not in the store), ``on_result``
    (stores a finished run) and ``finish`` (writes the sweep's tables and manifest). A sweep is
    one plan on one backend; :func:`run_plans` runs several plans on one backend, so the runs of
    a study's parts share one process pool and no part waits for another to drain."""

    def __init__(
        self, base: Scenario, vary: dict[str, list[Any]], seeds: int, seed_list: list[int], root: int,
        paths: list[str], points: list[dict[str, Any]], point_hash: list[str | None],
        point_error: list[str | None], version: str, out_dir: Path, keep: bool, *, n_jobs: int, dask: Any,
        metrics: Sequence[str] | None, timeseries: bool, exclude: list[dict[str, Any]],
    ) -> None:
        self.base, self.vary, self.seeds, self.seed_list, self.root = base, vary, seeds, seed_list, root
        self.paths, self.points, self.point_hash, self.point_error = paths, points, point_hash, point_error
        self.version, self.out_dir, self.keep = version, out_dir, keep
        self.n_jobs, self.dask, self.metrics, self.timeseries, self.exclude = n_jobs, dask, metrics, timeseries, exclude
        self._prepare()

    def _prepare(self) -> None:
        base, version = self.base, self.version
        self.kept_timeseries: dict[str, pd.DataFrame] = {}
        self.st = store.ResultStore(self.out_dir)
        self.st.create()
        self.st.write_text(store.SCENARIO, base.text)
        self.specs: list[dict[str, Any]] = [
            {
                "key": store.run_key(base.hash, params, seed, version),
                "point": i,
                "replication": r,
                "seed": seed,
                "params": params,
            }
            for i, params in enumerate(self.points)
            for r, seed in enumerate(self.seed_list)
        ]
        finished = self.st.finished(s["key"] for s in self.specs)
        self.total, self.skipped = len(self.specs), len(finished)
        self.records: dict[str, dict[str, Any]] = dict(finished)
        self.started_at = _now()
        self.t0 = time.monotonic()
        self.counts = {"done": 0, "failed": 0}
        self.todo: list[dict[str, Any]] = []
        for spec in self.specs:
            if spec["key"] in finished:
                continue
            err = self.point_error[spec["point"]]
            if err is not None:
                self.on_result({"spec": spec}, _failure("ScenarioError", err, time.time()))
                continue
            overrides = [list(o) for o in base.overrides] + [[k, v] for k, v in spec["params"].items()]
            self.todo.append(
                {
                    "key": spec["key"],
                    "spec": spec,
                    "text": base.text,
                    "source": base.source,
                    "overrides": overrides,
                    "seed": spec["seed"],
                    "timeseries": self.timeseries,
                    "code_version": version,
                }
            )

    def _record_of(self, spec: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        rec = {
            "key": spec["key"],
            "status": outcome["status"],
            "point": spec["point"],
            "replication": spec["replication"],
            "seed": spec["seed"],
            "params": spec["params"],
            "version": self.version,
            "base_scenario_hash": self.base.hash,
            "scenario_hash": self.point_hash[spec["point"]],
            "error": outcome.get("error"),
            "error_type": outcome.get("error_type"),
            "summary": outcome.get("summary"),
            "manifest": outcome.get("manifest"),
            "worker": outcome.get("worker"),
            "elapsed_s": outcome.get("elapsed_s"),
            "finished_at": _now(),
        }
        if outcome.get("traceback"):
            rec["traceback"] = outcome["traceback"]
        if rec["status"] == "ok" and rec["summary"] and rec["summary"].get("interrupted"):
            rec.update(status="failed", error="the run stopped before its configured duration", error_type="Interrupted")
        return rec

    def on_result(self, task: dict[str, Any], outcome: dict[str, Any]) -> None:
        """Store one finished run (written at once: an interrupted sweep keeps it)."""
        spec = task["spec"]
        rec = self._record_of(spec, outcome)
        ts = outcome.get("timeseries") if rec["status"] == "ok" else None
        self.st.put(rec, ts if isinstance(ts, pd.DataFrame) and self.keep else None)
        if isinstance(ts, pd.DataFrame) and not self.keep:
            self.kept_timeseries[spec["key"]] = ts
        self.records[spec["key"]] = rec
        self.counts["done" if rec["status"] == "ok" else "failed"] += 1

    def announce(self, reporter: Reporter, backend_name: str) -> None:
        npoints = max(1, len(self.points))
        reporter.info(
            f"sweep: {npoints} point{'s' if npoints != 1 else ''} × {self.seeds} seed{'s' if self.seeds != 1 else ''} = "
            f"{self.total} runs; {self.skipped} already in store; "
            + (f"running {len(self.todo)} on {backend_name}" if self.todo else "nothing to run")
        )

    def finish(self, backend_name: str, interrupted: bool = False) -> SweepResult:
        """Write results.parquet, summary.csv, the long tables and sweep.json from every stored
        run; raise KeyboardInterrupt (with ``partial``) if the runs were interrupted, and
        store.MetricPatternError (with ``partial``) if a ``metrics`` pattern matches nothing."""
        specs, st, paths, version = self.specs, self.st, self.paths, self.version
        ordered = [self.records[s["key"]] for s in specs if s["key"] in self.records]
        results = store.results_frame(ordered, paths)
        summary = store.summary_frame(results, paths, self.metrics)
        st.write_results(results)
        st.write_summary(summary)
        for name in store.LONG_TABLES:
            table = store.long_table_frame(ordered, paths, name)
            if not table.empty:
                st.write_table(name, table)
        not_run = len(specs) - len(ordered)
        res = SweepResult(
            out=self.out_dir if self.keep else None,
            results=results,
            summary=summary,
            total=len(specs),
            done=self.counts["done"],
            skipped=self.skipped,
            failed=sum(1 for r in ordered if r["status"] != "ok"),
            not_run=not_run,
            failures=[_failure_entry(r) for r in ordered if r["status"] != "ok"],
            timeseries=self.kept_timeseries,
        )
        res.manifest = {
            "kind": "sctpsim-sweep",
            "version": version,
            "scenario_source": self.base.source,
            "scenario_hash": self.base.hash,
            "overrides": [list(o) for o in self.base.overrides],
            "vary": self.vary,
            "exclude": self.exclude,
            "params": paths,
            "seeds": self.seeds,
            "root_seed": self.root,
            "seed_derivation": 'int.from_bytes(sha256(f"sctpsim/replication/v1:{root_seed}:{i}").digest()[:8], "big") >> 1',
            "replication_seeds": self.seed_list,
            "points": [{"point": i, "params": p, "scenario_hash": self.point_hash[i], "error": self.point_error[i]}
                       for i, p in enumerate(self.points)],
            "backend": backend_name,
            "jobs": self.n_jobs if self.dask is None else None,
            "metrics": list(self.metrics) if self.metrics else store.DEFAULT_SUMMARY_METRICS,
            "timeseries": self.timeseries,
            "started": self.started_at,
            "finished": _now(),
            "wall_time_s": time.monotonic() - self.t0,
            "host": socket.gethostname(),
            "runs": res.total,
            "done": res.done,
            "skipped": res.skipped,
            "failed": res.failed,
            "not_run": res.not_run,
            "complete": res.not_run == 0,
            "failures": res.failures,
            "keys": [s["key"] for s in specs],
        }
        st.write_json(store.MANIFEST, res.manifest)
        if interrupted:
            exc = KeyboardInterrupt("sweep interrupted")
            exc.partial = res  # type: ignore[attr-defined]
            raise exc
        self._check_metric_patterns(results, res)
        return res

    def _check_metric_patterns(self, results: pd.DataFrame, res: SweepResult) -> None:
        """Raise for the first ``metrics`` pattern that selects no metric with a value. Metric
        names come from the runs' summaries, so this is known only once runs have succeeded;
        the runs are stored by then and a corrected pattern reuses them."""
        ok = results[results["status"] == "ok"]
        if not self.metrics or ok.empty:
            return
        available = [m for m in store.metric_columns(results, self.paths) if ok[m].notna().any()]
        unmatched = store.unmatched_metric_patterns(available, self.metrics)
        if unmatched:
            exc = store.MetricPatternError(unmatched[0], store.metric_hint(unmatched[0], available))
            exc.partial = res  # type: ignore[attr-defined]
            raise exc


def run_plans(plans: Sequence[SweepPlan], *, jobs: int, dask: Any = None, progress: bool | None = None,
              executor: Executor | None = None) -> list[SweepResult]:
    """Run the tasks of several plans on one backend (one process pool or one Dask client),
    in the order given, then finish each plan. On Ctrl-C every plan is finished with what
    was stored and KeyboardInterrupt is raised with ``partial`` the list of results."""
    backend = _backend(dask, jobs, sum(len(p.todo) for p in plans))
    interrupted = _run_on(backend, plans, executor, progress)
    out = [p.finish(backend.name) for p in plans]
    if interrupted:
        exc = KeyboardInterrupt("sweeps interrupted")
        exc.partial = out  # type: ignore[attr-defined]
        raise exc
    return out


def _run_on(backend: InlineBackend | ProcessBackend | DaskBackend, plans: Sequence[SweepPlan],
            executor: Executor | None, progress: bool | None) -> bool:
    """Every plan's tasks on ``backend`` (closed afterwards), each result stored by its plan,
    with one progress line over them all; returns whether Ctrl-C stopped it."""
    todo = [{**t, "plan": i} for i, p in enumerate(plans) for t in p.todo]

    def counts() -> tuple[int, int]:
        return sum(p.counts["done"] for p in plans), sum(p.counts["failed"] for p in plans)

    bar = SweepProgress(sum(p.total for p in plans), sum(p.skipped for p in plans), enabled=progress,
                        prefailed=counts()[1])
    bar.update(0, counts()[1], force=True)

    def on_result(task: dict[str, Any], outcome: dict[str, Any]) -> None:
        plans[task["plan"]].on_result(task, outcome)
        bar.update(*counts())

    try:
        if todo:
            backend.run(executor or _execute, todo, on_result)
    except KeyboardInterrupt:
        return True
    finally:
        backend.close()
        bar.update(*counts(), force=True)
        bar.close()
    return False


def _vary_values(path: str, values: Any) -> list[Any]:
    """The values of one ``vary`` entry as a list of plain Python values: lists, tuples, ranges
    and numpy arrays are accepted, numpy scalars become Python scalars."""
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise scenario_error(path, f"vary needs a list of values, got {type(values).__name__}")
    np = sys.modules.get("numpy")
    if np is not None and isinstance(values, np.ndarray) and values.ndim == 0:
        raise scenario_error(path, "vary needs a list of values, got a 0-d array")
    return [plain_value(v, path) for v in values]


def _failure_entry(rec: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "key": rec["key"],
        "point": rec["point"],
        "params": rec["params"],
        "replication": rec["replication"],
        "seed": rec["seed"],
        "error_type": rec.get("error_type"),
        "error": rec.get("error"),
    }


def _usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _mkdtemp() -> str:
    import tempfile

    return tempfile.mkdtemp(prefix="sctpsim-sweep-")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------------------
# Command line


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sctpsim sweep`` (called by cli._build_parser)."""
    p.add_argument("scenario", help="scenario TOML file")
    p.add_argument("--vary", action="append", default=[], metavar="PATH=V1,V2,...",
                   help="a swept field and its values (TOML syntax, else strings; commas inside [] and {} "
                        "do not split); repeat for a grid")
    p.add_argument("--grid", metavar="FILE",
                   help="sweep definition in a TOML file: seeds, seed, [set], [vary], [[exclude]] constraints "
                        "(docs/sweeps.md); --seeds, --seed, --set and --vary given as well win")
    p.add_argument("--seeds", type=int, default=None, metavar="N", help="replications per grid point (default: the grid file's, else 1)")
    p.add_argument("--seed", type=seed_arg, metavar="ROOT",
                   help="root seed the replication seeds derive from, 0 to 2**64-1 (default: simulation.seed)")
    p.add_argument("--jobs", "-j", type=int, metavar="J", help="worker processes (default: the usable cores)")
    p.add_argument("--dask", metavar="ADDR", help="run on Dask: 'local' (LocalCluster of --jobs workers) or tcp://host:port")
    p.add_argument("--out", help="sweep directory (default: results/<scenario file stem>-sweep)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=VALUE",
                   help="override a field for every run (repeatable)")
    p.add_argument("--metric", dest="metrics", action="append", default=[], metavar="PATTERN",
                   help="metrics in summary.csv, e.g. 'network.pdf' or 'flows[*' (default: network.*, flows.*, flows[*)")
    p.add_argument("--timeseries", action="store_true", help="keep each run's time series (runs/<key>.timeseries.parquet)")


def check_backend_args(jobs: int | None, dask: str | None) -> str | None:
    """What is wrong with ``--jobs`` / ``--dask`` (the message for exit 2), or None."""
    if jobs is not None and jobs < 1:
        return f"--jobs must be at least 1, got {jobs}"
    if dask is not None and dask != "local" and jobs is not None:
        return "--jobs applies to local runs and --dask local; a Dask scheduler decides its own workers"
    if dask is not None and dask != "local" and "://" not in dask:
        return f"--dask {dask!r}: expected 'local' or a scheduler address such as tcp://host:8786"
    return None


def cli_main(args: argparse.Namespace) -> int:
    """``sctpsim sweep``: exit 0 if every run succeeded, 1 if any failed, 2 for bad input, 130
    on Ctrl-C (finished runs stay in the store; the same command resumes)."""
    def bad(msg: str) -> int:
        sys.stderr.write(f"sctpsim: error: {msg}\n")
        return 2

    from sctpsim.grid_file import GridSpec, load_grid

    try:
        spec = load_grid(args.grid) if args.grid else GridSpec()
        vary = {**spec.vary, **parse_vary_args(args.vary)}
    except ValueError as e:
        return bad(str(e))
    if not vary and spec.exclude:
        return bad("--grid: [[exclude]] without [vary]")
    seeds = args.seeds if args.seeds is not None else (spec.seeds or 1)
    if seeds < 1:
        return bad(f"--seeds must be at least 1, got {seeds}")
    root_seed = args.seed if args.seed is not None else spec.seed
    backend_error = check_backend_args(args.jobs, args.dask)
    if backend_error:
        return bad(backend_error)
    sc = Scenario.load(args.scenario)
    if spec.sets:
        sc = sc.with_(spec.sets)
    if args.sets:
        sc = sc.with_cli_overrides(args.sets)
    out = Path(args.out) if args.out else Path("results") / f"{Path(args.scenario).stem}-sweep"
    problem = store.writable_dir_problem(out)
    if problem:
        return bad(f"--out {out}: {problem}")
    reporter = Reporter()
    try:
        res = sweep(
            sc, vary, seeds, root_seed=root_seed, jobs=args.jobs, dask=args.dask, out=out,
            metrics=args.metrics or None, timeseries=args.timeseries, reporter=reporter,
            exclude=spec.exclude or None,
        )
    except SweepSetupError as e:
        return bad(str(e))
    except store.MetricPatternError as e:
        return bad(f"--metric {e.pattern!r}: matches no metric of the results; {e.hint} "
                   f"(the runs are kept in {out}/: the same command with another --metric runs nothing again)")
    except KeyboardInterrupt as e:
        partial = getattr(e, "partial", None)
        if isinstance(partial, SweepResult):
            _print_failures(partial, reporter)
            print(f"results so far written to {partial.out}/; run the same command to resume", flush=True)
            print(partial.line(), flush=True)
        else:
            sys.stderr.write("sctpsim: interrupted\n")
        return 130
    _print_failures(res, reporter)
    print(f"results written to {res.out}/ (results.parquet, summary.csv, sweep.json)", flush=True)
    print(res.line(), flush=True)
    return 0 if res.ok else 1


def _print_failures(res: SweepResult, reporter: Reporter, limit: int = 20) -> None:
    """One line per grid point and error: parameters, how many runs, the message."""
    groups: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for f in res.failures:
        groups.setdefault((f["point"], f"{f['error_type']}: {f['error']}"), []).append(f)
    for i, ((_, err), fs) in enumerate(groups.items()):
        if i == limit:
            reporter.warn(f"... and {len(groups) - limit} more (see {res.out}/sweep.json)")
            break
        seeds = ", ".join(str(f["seed"]) for f in fs[:3]) + (", ..." if len(fs) > 3 else "")
        reporter.warn(f"failed: {format_params(fs[0]['params'])} ({len(fs)} run{'s' if len(fs) != 1 else ''}, seed {seeds}): {err}")
