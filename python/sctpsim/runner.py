"""Running one simulation from Python."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Callable, Mapping

from sctpsim import _native
from sctpsim.results import RunResult
from sctpsim.scenario import Scenario, as_scenario
from sctpsim.seeds import check_seed
from sctpsim.trace import Trace, native_options, truncation_warning

ProgressCallback = Callable[[float, float, int, float], object]


def run(
    scenario: Scenario | str | Path | Mapping[str, Any],
    seed: int | None = None,
    *,
    pcap_dir: str | Path | None = None,
    progress: ProgressCallback | None = None,
    trace: Trace | bool | dict[str, Any] | None = None,
) -> RunResult:
    """Run one simulation and return its results as pandas DataFrames.

    ``scenario`` is a :class:`Scenario`, a scenario file's path or a dict with the schema of the
    TOML files (:meth:`Scenario.from_dict`); anything else is a TypeError.
    ``seed`` overrides ``simulation.seed``; an integer in ``[0, 2**64 - 1]`` (ValueError
    otherwise, a boolean or a string too, before anything runs). The GIL is released while the
    core runs.
    ``progress(sim_time_s, end_s, events, wall_s)`` is called about five times a second.
    Ctrl-C stops the run and raises :class:`KeyboardInterrupt` whose ``partial`` attribute
    holds the results measured so far.

    ``trace=True`` records a per-packet trace into ``result.trace`` (a DataFrame; written as
    ``trace.parquet``); a :class:`sctpsim.Trace` (or a dict of its fields) filters it by node,
    flow or layer and bounds its rows. A trace that reaches its bound stops there, with a
    RuntimeWarning and ``result.summary["trace"]["truncated"]`` true. So does each of
    ``result.warnings``: a flow that delivered nothing, a time series cut at its row bound, a
    sampling interval longer than the run.
    """
    result = run_quietly(scenario, seed, pcap_dir=pcap_dir, progress=progress, trace=trace)
    warning = truncation_warning(result.summary)
    for w in ([warning] if warning else []) + result.warnings:
        warnings.warn(w, RuntimeWarning, stacklevel=2)
    if result.interrupted:
        exc = KeyboardInterrupt("simulation interrupted")
        exc.partial = result  # type: ignore[attr-defined]
        raise exc
    return result


def run_quietly(
    scenario: Scenario | str | Path | Mapping[str, Any],
    seed: int | None = None,
    *,
    pcap_dir: str | Path | None = None,
    progress: ProgressCallback | None = None,
    trace: Trace | bool | dict[str, Any] | None = None,
) -> RunResult:
    """:func:`run` without its warnings and without raising on an interrupted run (the result
    says so): for a sweep, whose runs' warnings are results in its table, not lines per run,
    and which need not resolve the parameters that the warnings are computed from."""
    if seed is not None:
        seed = check_seed(seed)
    sc = as_scenario(scenario)
    raw = _native.run(
        sc.text,
        list(sc.overrides),
        seed=seed,
        pcap_dir=str(pcap_dir) if pcap_dir is not None else None,
        progress=progress,
        trace=native_options(trace),
    )
    return RunResult.from_native(raw, scenario=sc)
