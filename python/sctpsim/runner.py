"""Running one simulation from Python."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from sctpsim import _native
from sctpsim.results import RunResult
from sctpsim.scenario import Scenario
from sctpsim.seeds import check_seed

ProgressCallback = Callable[[float, float, int, float], object]


def run(
    scenario: Scenario | str | Path,
    seed: int | None = None,
    *,
    pcap_dir: str | Path | None = None,
    progress: ProgressCallback | None = None,
) -> RunResult:
    """Run one simulation and return its results as pandas DataFrames.

    ``seed`` overrides ``simulation.seed``; an integer in ``[0, 2**64 - 1]`` (ValueError
    otherwise, before anything runs). The GIL is released while the core runs.
    ``progress(sim_time_s, end_s, events, wall_s)`` is called about five times a second.
    Ctrl-C stops the run and raises :class:`KeyboardInterrupt` whose ``partial`` attribute
    holds the results measured so far.
    """
    if seed is not None:
        seed = check_seed(seed)
    sc = scenario if isinstance(scenario, Scenario) else Scenario.load(scenario)
    raw = _native.run(
        sc.text,
        list(sc.overrides),
        seed=seed,
        pcap_dir=str(pcap_dir) if pcap_dir is not None else None,
        progress=progress,
    )
    result = RunResult.from_native(raw, scenario=sc)
    if result.interrupted:
        exc = KeyboardInterrupt("simulation interrupted")
        exc.partial = result  # type: ignore[attr-defined]
        raise exc
    return result
