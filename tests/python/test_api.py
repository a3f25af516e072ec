"""The Python API: Scenario, run, results, errors, GIL release."""

from __future__ import annotations

import re
import threading

import pandas as pd
import pytest

import sctpsim
from conftest import EXAMPLES, REPO

WIRED = EXAMPLES / "wired-cbr.toml"


def test_load_with_run_returns_dataframes() -> None:
    sc = sctpsim.Scenario.load(WIRED).with_(**{"flows[0].rate": "500kbps", "simulation.duration": "11s"})
    sc = sc.with_({"flows[0].stop": "10s"})
    assert sc.get("flows[0].rate") == "500kbps"
    res = sctpsim.run(sc, seed=3)
    assert isinstance(res.flows, pd.DataFrame) and isinstance(res.timeseries, pd.DataFrame)
    assert res.summary["seed"] == 3
    assert res.flows.loc[0, "packets_sent"] == 625
    goodput = res.timeseries.query("metric == 'goodput_bps' and scope == 'flow'")
    assert len(goodput) == 11
    assert res.links.shape[0] == 4


def test_errors_form_a_hierarchy_and_name_the_field() -> None:
    assert issubclass(sctpsim.ScenarioError, sctpsim.SctpsimError)
    assert issubclass(sctpsim.SimulationError, sctpsim.SctpsimError)
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.Scenario.load(WIRED).with_(**{"link[0].bandwidth": "fast"})
    assert info.value.path == "link[0].bandwidth"
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.Scenario.from_string("[simulation]\nduration = \n")
    assert info.value.line == 2
    with pytest.raises(sctpsim.ScenarioError):
        sctpsim.Scenario.load(WIRED).with_(**{"flows[0].rate": object()})


def test_run_accepts_a_path_and_scenarios_are_immutable() -> None:
    base = sctpsim.Scenario.load(WIRED)
    changed = base.with_(**{"simulation.seed": 9})
    assert base.get("simulation.seed") == 1 and changed.get("simulation.seed") == 9
    assert base.hash != changed.hash


def test_the_gil_is_released_while_the_core_runs() -> None:
    """While the core runs in a thread, the main thread keeps executing Python. If the GIL
    were held, the counter could only move during the brief progress callbacks."""
    sc = sctpsim.Scenario.load(WIRED).with_(**{"simulation.duration": "3000s", "flows[0].stop": "2999s"})
    counter = 0
    seen: list[int] = []
    done = threading.Event()

    def progress(now_s: float, end_s: float, events: int, wall_s: float) -> None:
        seen.append(counter)

    def work() -> None:
        sctpsim.run(sc, progress=progress)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        counter += 1
    t.join()
    deltas = [b - a for a, b in zip(seen, seen[1:])]
    assert deltas and max(deltas) > 10_000, deltas


def test_readme_python_example_runs() -> None:
    """Every ```python block of the README is executed, as documentation that cannot rot."""
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    import os

    cwd = os.getcwd()
    try:
        os.chdir(REPO)
        for code in blocks:
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_run_rejects_a_seed_outside_u64_naming_it(seed: int) -> None:
    with pytest.raises(ValueError, match="seed"):
        sctpsim.run(WIRED, seed=seed)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_sweep_rejects_a_root_seed_outside_u64_naming_it(tmp_path, seed: int) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="root_seed"):
        sctpsim.sweep(WIRED, seeds=1, root_seed=seed, out=tmp_path / "sw", jobs=1)
    assert not (tmp_path / "sw").exists()
