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
    # A bad scenario is a bad value: `except ValueError` catches it too (and a SimulationError,
    # which is not about the input, is not one).
    assert issubclass(sctpsim.ScenarioError, ValueError)
    assert not issubclass(sctpsim.SimulationError, ValueError)
    assert issubclass(sctpsim.UnknownFieldError, ValueError) and issubclass(sctpsim.UnknownFieldError, KeyError)
    with pytest.raises(ValueError) as as_value:
        sctpsim.Scenario.load(WIRED).with_(**{"link[0].bandwidth": "fast"})
    assert isinstance(as_value.value, sctpsim.ScenarioError) and as_value.value.path == "link[0].bandwidth"
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


SHORT = {"simulation.duration": "3s", "flows[0].stop": "2s"}


def test_numpy_values_are_plain_python_values() -> None:
    import numpy as np

    base = sctpsim.Scenario.load(WIRED)
    sc = base.with_(**{"simulation.seed": np.int64(5), "link[1].loss.p": np.float32(0.25),
                       "flows[0].rate": np.str_("2Mbps"), "flows[0].packet_size_bytes": np.array(500)})
    assert sc.get("simulation.seed") == 5 and type(sc.get("simulation.seed")) is int
    assert sc.get("link[1].loss.p") == 0.25 and sc.get("flows[0].rate") == "2Mbps"
    assert sc.get("flows[0].packet_size_bytes") == 500
    assert sc.hash == base.with_(**{"simulation.seed": 5, "link[1].loss.p": 0.25, "flows[0].rate": "2Mbps",
                                    "flows[0].packet_size_bytes": 500}).hash
    assert sc.overrides[0] == ("simulation.seed", 5) and type(sc.overrides[0][1]) is int
    assert base.with_({"link[0].between": np.array(["r", "src"])}).get("link[0].between") == ["r", "src"]
    assert sctpsim.scenario.plain_value(np.bool_(True)) is True
    assert sctpsim.scenario.plain_value((1, range(2))) == [1, [0, 1]]
    with pytest.raises(sctpsim.ScenarioError) as info:
        base.with_(**{"flows[0].rate": np.datetime64("2020-01-01")})
    assert info.value.path == "flows[0].rate"
    with pytest.raises(sctpsim.ScenarioError) as info:
        base.with_(**{"flows[0].rate": {1: "x"}})
    assert info.value.path == "flows[0].rate"


def test_sweep_accepts_numpy_arrays_ranges_and_tuples() -> None:
    import numpy as np

    sc = sctpsim.Scenario.load(WIRED).with_(SHORT)
    res = sctpsim.sweep(sc, vary={"link[1].loss.p": np.linspace(0.0, 0.2, 2), "flows[0].packet_size_bytes": range(500, 1500, 500)},
                        seeds=1, jobs=1)
    assert res.ok and res.total == 4
    assert sorted(res.results["link[1].loss.p"].unique()) == [0.0, 0.2]
    assert sorted(res.results["flows[0].packet_size_bytes"].unique()) == [500, 1000]
    res = sctpsim.sweep(sc, vary={"flows[0].packet_size_bytes": np.arange(500, 1001, 500)}, jobs=1)
    assert res.ok and res.total == 2
    for bad in ("0.1", 0.1, {"a": 1}):
        with pytest.raises(sctpsim.ScenarioError) as info:
            sctpsim.sweep(sc, vary={"link[1].loss.p": bad}, jobs=1)
        assert info.value.path == "link[1].loss.p"
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.sweep(sc, vary={"link[1].loss.p": [object()]}, jobs=1)
    assert info.value.path == "link[1].loss.p"


def test_get_tells_an_unset_field_from_a_path_that_does_not_exist() -> None:
    sc = sctpsim.Scenario.load(WIRED)
    assert sc.get("simulation.description") is None
    assert sc.get("simulation.description", "none") == "none"
    assert sc.get("flows[0].tcp.mss_bytes", 1460) == 1460  # an absent optional table
    assert sc.get("link[0].loss", "clean") == "clean"
    assert sc.get("radio.data_rate", "?") == "?"
    assert sc.get("link[1].loss") == {"model": "bernoulli", "p": 0.05}
    for path in ("nosuch", "simulation.nosuch", "flows[0].tcp.nosuch", "flows[3].rate", "flows[0].rate.x", "flows[x]"):
        with pytest.raises(sctpsim.ScenarioError) as info:
            sc.get(path, "default")
        assert info.value.path == path and path in str(info.value)


def test_sweep_without_out_leaves_no_directory_behind() -> None:
    import tempfile
    from pathlib import Path

    tmp = Path(tempfile.gettempdir())

    def ours() -> set[Path]:  # other processes may use the temporary directory meanwhile
        return {p for p in tmp.iterdir() if p.name.startswith("sctpsim-")}

    before = ours()
    sc = sctpsim.Scenario.load(WIRED).with_(SHORT)
    res = sctpsim.sweep(sc, vary={"link[1].loss.p": [0.0, 0.1]}, seeds=2, jobs=2, timeseries=True)
    assert res.ok and res.out is None and len(res.results) == 4
    assert len(res.timeseries) == 4 and all(isinstance(t, pd.DataFrame) and len(t) for t in res.timeseries.values())
    with pytest.raises(KeyboardInterrupt) as info:
        def interrupt(task: dict) -> dict:
            raise KeyboardInterrupt

        sctpsim.sweep(sc, vary={"link[1].loss.p": [0.0, 0.1]}, jobs=1, executor=interrupt)
    assert info.value.partial.out is None  # type: ignore[attr-defined]
    assert ours() - before == set()


def test_from_dict_round_trips_every_shipped_example() -> None:
    import tomllib

    from sctpsim.scenarios import EXAMPLES as SHIPPED

    files = sorted(EXAMPLES.glob("*.toml")) + sorted(SHIPPED.rglob("*.toml"))
    assert len(files) >= 10
    for f in files:
        data = tomllib.loads(f.read_text())
        sc = sctpsim.Scenario.from_dict(data)
        assert sc.hash == sctpsim.Scenario.load(f).hash, f
        assert tomllib.loads(sc.text) == data, f
        assert sctpsim.Scenario.from_string(sc.to_toml()).hash == sc.hash, f
    short = {"simulation": {**tomllib.loads(WIRED.read_text())["simulation"], "duration": "3s"}}
    data = {**tomllib.loads(WIRED.read_text()), **short}
    data["flows"][0]["stop"] = "2s"
    a = sctpsim.run(sctpsim.Scenario.load(WIRED).with_(SHORT))
    b = sctpsim.run(sctpsim.Scenario.from_dict(data))
    drop = ("wall_time_s", "events_per_s")
    assert {k: v for k, v in a.summary.items() if k not in drop} == {k: v for k, v in b.summary.items() if k not in drop}
    assert a.flows.equals(b.flows) and a.summary["events"] > 0
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.Scenario.from_dict({**data, "simulation": {**data["simulation"], "seed": "x"}})
    assert info.value.path == "simulation.seed"


def test_toml_writer_handles_the_value_types_of_scenarios() -> None:
    import math
    import tomllib

    from sctpsim.scenario import dumps_toml

    data = {"a": {"odd key": 'q"\\\n\x7f', "f": 1e20, "g": 2.0, "e": [], "i": [{"x": 1}, {"y": [1.0, "s"]}],
                  "inline": [[1, 2], {"k": True}]},
            "t": [{"u": {"v": -1}, "w": False}], "z": 3}
    text = dumps_toml(data)
    assert tomllib.loads(text) == data
    assert text.startswith("z = 3\n")
    assert math.isinf(tomllib.loads(dumps_toml({"x": float("-inf")}))["x"])
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.Scenario.from_dict({"simulation": {"name": object()}})
    assert info.value.path == "simulation.name"


def test_topology_builder_makes_a_checked_scenario() -> None:
    import numpy as np

    topo = (sctpsim.Topology("two-hosts").node("A").node("B")
            .link("A", "B", bandwidth="10Mbps", delay="5ms", queue_limit_packets=np.int64(20))
            .flow("A", "B", transport="tcp-newreno", app="ftp"))
    sc = topo.scenario(duration="3s", seed=4)
    assert isinstance(sc, sctpsim.Scenario) and "Topology" in sc.source
    assert sc.get("simulation.name") == "two-hosts" and sc.get("simulation.seed") == 4
    assert sc.get("link[0].between") == ["A", "B"] and sc.get("link[0].queue_limit_packets") == 20
    assert sc.get("flows[0].transport") == "tcp-newreno"
    res = sctpsim.run(sc)
    assert res.flows.loc[0, "bytes_delivered"] > 0 and res.flows.loc[0, "app"] == "ftp"
    # The core checks what the builder wrote, naming the field.
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.Topology().node("A").node("B").link("A", "B", bandwidth="fast", delay="5ms").scenario(duration="1s")
    assert info.value.path == "link[0].bandwidth"
    with pytest.raises(sctpsim.ScenarioError) as info:
        sctpsim.Topology().node("A").link("A", "B", bandwidth="1Mbps", delay="5ms").scenario(duration="1s")
    assert "B" in str(info.value)
    routed = sctpsim.Topology().node("A").node("B").link("A", "B", bandwidth="1Mbps", delay="1ms")
    assert routed.section("routing", protocol="static").to_dict(duration="1s")["routing"] == {"protocol": "static"}
    assert repr(topo) == "Topology('two-hosts', 2 nodes, 1 links, 1 flows)"


def test_reprs_are_one_short_line_and_html_shows_the_main_facts() -> None:
    sc = sctpsim.Scenario.load(WIRED).with_(SHORT)
    text = repr(sc)
    assert "\n" not in text and len(text) < 200 and "2 overrides" in text and sc.hash[:12] in text
    page = sc._repr_html_()
    assert "<table" in page and "wired-cbr" in page and sc.hash in page
    assert "simulation.duration" in page and "flows[0].stop" in page  # the overrides
    assert page.index("simulation") < page.index("node (3)") < page.index("link (2)") < page.index("flows (1)")
    named = sctpsim.Scenario.load(WIRED).with_({"simulation.description": "<script>x</script>"})
    assert "<script>" not in named._repr_html_() and "&lt;script&gt;" in named._repr_html_()

    res = sctpsim.run(sc, seed=3)
    text = repr(res)
    assert "\n" not in text and len(text) < 200 and "seed=3" in text and "events=" in text
    page = res._repr_html_()
    assert "<table" in page and "events" in page and str(res.summary["events"]) in page
    assert "goodput_bps" in page and "packets_sent" in page  # the flows table

    sw = sctpsim.sweep(sc, vary={"link[1].loss.p": [0.0, 0.1]}, jobs=1)
    text = repr(sw)
    assert "\n" not in text and text.startswith("SweepResult(2 runs: 2 done")
    page = sw._repr_html_()
    assert "link[1].loss.p" in page and "network.pdf.mean" in page and "results in memory" in page


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_run_rejects_a_seed_outside_u64_naming_it(seed: int) -> None:
    with pytest.raises(ValueError, match="seed"):
        sctpsim.run(WIRED, seed=seed)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_sweep_rejects_a_root_seed_outside_u64_naming_it(tmp_path, seed: int) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="root_seed"):
        sctpsim.sweep(WIRED, seeds=1, root_seed=seed, out=tmp_path / "sw", jobs=1)
    assert not (tmp_path / "sw").exists()


# --- argument types (issue 35 item 10) ---------------------------------------------------------


def test_run_and_sweep_take_a_scenario_written_as_a_dict() -> None:
    """`run(dict)` failed inside pathlib; a dict is a scenario (Scenario.from_dict)."""
    import tomllib

    data = tomllib.loads(WIRED.read_text())
    data["simulation"]["duration"] = "1s"
    res = sctpsim.run(data, seed=3)
    assert res.summary["sim_time_s"] == 1.0
    assert res.flows.equals(sctpsim.run(sctpsim.Scenario.from_dict(data), seed=3).flows)
    assert sctpsim.sweep(data, jobs=1).ok


@pytest.mark.parametrize("bad", [123, 1.5, None, b"wired-cbr", ["wired-cbr"]])
def test_a_scenario_of_another_type_is_a_type_error_naming_the_argument(bad: object) -> None:
    for call in (lambda: sctpsim.run(bad), lambda: sctpsim.sweep(bad, jobs=1)):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^scenario must be a Scenario, a path or a dict, got "):
            call()
    with pytest.raises(TypeError, match=r"^Scenario.load: path must be a str or os.PathLike, got "):
        sctpsim.Scenario.load(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [123, "flows[0].rate=2Mbps", [("flows[0].rate", "2Mbps")]])
def test_with_takes_a_mapping_else_a_type_error_naming_the_argument(bad: object) -> None:
    sc = sctpsim.Scenario.load(WIRED)
    with pytest.raises(TypeError, match=r"^Scenario.with_: overrides must be a mapping of field paths to values, got "):
        sc.with_(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [True, False, "3", "x", 2.0, 2.5, None])
def test_seeds_and_seed_refuse_bools_strings_and_floats_alike(bad: object) -> None:
    """`sweep(seeds='3')` was accepted and `run(seed=True)` ran as seed 1, while `run(seed='x')`
    was refused: every seed and count argument now takes integers only (numpy ones too)."""
    sc = sctpsim.Scenario.load(WIRED).with_(SHORT)
    if bad is not None:
        with pytest.raises(ValueError, match=r"^seed must be an integer in \[0, 2\*\*64 - 1\], got "):
            sctpsim.run(sc, seed=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^root_seed must be an integer"):
            sctpsim.sweep(sc, root_seed=bad, jobs=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^seeds must be an integer of at least 1, got "):
        sctpsim.sweep(sc, seeds=bad, jobs=1)  # type: ignore[arg-type]
    if bad is not None:
        with pytest.raises(ValueError, match=r"^jobs must be an integer of at least 1, got "):
            sctpsim.sweep(sc, jobs=bad)  # type: ignore[arg-type]


def test_numpy_integers_are_seeds_and_counts() -> None:
    import numpy as np

    sc = sctpsim.Scenario.load(WIRED).with_(SHORT)
    assert sctpsim.run(sc, seed=np.uint64(3)).summary["seed"] == 3
    assert sctpsim.sweep(sc, seeds=np.int64(2), root_seed=np.int32(5), jobs=np.int8(1)).total == 2


def test_delivery_warnings_name_the_dominant_drop_reason_or_none() -> None:
    from sctpsim.results import delivery_warnings

    flow = {"id": 0, "src": "a", "dst": "b", "transport": "tcp", "bytes_delivered": 0, "packets_delivered": 0}
    ok = dict(flow, id=1, bytes_delivered=10, packets_delivered=1)
    # A drop of no flow's packet (routing control) has flow null and counts for no flow.
    s = {"flows": [dict(flow, packets_sent=0), ok],
         "drops": [{"flow": 1, "reason": "queue", "packets": 3}, {"flow": None, "reason": "queue", "packets": 9}]}
    assert delivery_warnings(s) == ["flow 0 (a->b, tcp) delivered nothing: it sent no packets"]
    s = {"flows": [dict(flow, packets_sent=9)], "macs": [],
         "drops": [{"flow": 0, "reason": "queue", "packets": 2}, {"flow": 0, "reason": "no_route", "packets": 7}]}
    (w,) = delivery_warnings(s)
    assert w.startswith("flow 0 (a->b, tcp) delivered nothing: 7 of its 9 dropped packets were lost to no route (no_route)")
    assert "radio.rate_control" not in w  # a wired run: no hint about the radio


def test_a_sampling_interval_longer_than_the_run_warns(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import warnings as w

    import sctpsim
    from conftest import EXAMPLES, sctpsim as cli

    sc = sctpsim.Scenario.load(EXAMPLES / "wired-cbr.toml").with_({"simulation.duration": "0.5s"})
    with w.catch_warnings(record=True) as caught:
        w.simplefilter("always")
        res = sctpsim.run(sc)
    msgs = [str(c.message) for c in caught if "sample_interval" in str(c.message)]
    assert msgs == ["simulation.sample_interval (1 s) is longer than simulation.duration (0.5 s): the time series "
                    "has one sample per metric, at the end of the run (set a shorter sample_interval)"]
    assert (res.timeseries[res.timeseries.metric == "goodput_bps"].time_s == [0.5]).all()
    r = cli("run", str(EXAMPLES / "wired-cbr.toml"), "--set", 'simulation.duration="0.5s"', "--out", str(tmp_path / "o"))
    assert r.returncode == 0 and "sample_interval (1 s) is longer" in r.stderr, r.stderr
