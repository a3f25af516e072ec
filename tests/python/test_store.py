"""The sweep result store (sctpsim.store): keys, atomic records, flattening of summary.json,
results.parquet and summary.csv."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import sctpsim
from sctpsim import store
from sctpsim.stats import describe

SUMMARY: dict[str, Any] = {
    "name": "x",
    "seed": 5,
    "sim_time_s": 10.0,
    "wall_time_s": 0.01,
    "events": 1234,
    "interrupted": False,
    "flows": [
        {"id": 0, "transport": "udp", "src": "a", "dst": "b", "goodput_bps": 1000.0, "packets_sent": 10,
         "delivered_fraction": 0.5, "mean_rtt_s": None},
        {"id": 1, "transport": "udp", "src": "a", "dst": "c", "goodput_bps": 3000.0, "packets_sent": 30,
         "delivered_fraction": 1.0, "mean_rtt_s": None},
    ],
    "links": [
        {"id": 0, "dir": "fwd", "from": "a", "to": "b", "queue_drops": 2, "utilization": 0.25},
        {"id": 0, "dir": "rev", "from": "b", "to": "a", "queue_drops": 0, "utilization": 0.0},
    ],
    "network": {"pdf": 0.75, "queue_drops": 2},
}


def test_key_names_one_simulation_of_one_version() -> None:
    k = store.run_key("abc", {"b": 1, "a": "2Mbps"}, 7, "0.1.0")
    assert len(k) == 64 and int(k, 16) >= 0
    assert k == store.run_key("abc", {"a": "2Mbps", "b": 1}, 7, "0.1.0")  # order of params is irrelevant
    others = [
        store.run_key("abd", {"b": 1, "a": "2Mbps"}, 7, "0.1.0"),
        store.run_key("abc", {"b": 2, "a": "2Mbps"}, 7, "0.1.0"),
        store.run_key("abc", {"b": 1, "a": "2Mbps"}, 8, "0.1.0"),
        store.run_key("abc", {"b": 1, "a": "2Mbps"}, 7, "0.1.1"),
        store.run_key("abc", {"b": 1}, 7, "0.1.0"),
    ]
    assert len({k, *others}) == 6


def test_flatten_names_and_aggregates() -> None:
    m = store.flatten_summary(SUMMARY)
    assert m["sim_time_s"] == 10.0 and m["events"] == 1234
    assert "seed" not in m and "name" not in m and "interrupted" not in m
    assert m["network.pdf"] == 0.75
    assert m["flows[1].goodput_bps"] == 3000.0 and m["flows[0].packets_sent"] == 10
    assert math.isnan(m["flows[0].mean_rtt_s"])
    assert "flows[0].transport" not in m and "links[0].fwd.from" not in m
    assert m["links[0].fwd.queue_drops"] == 2 and m["links[0].rev.utilization"] == 0.0
    assert m["flows.goodput_bps.sum"] == 4000.0 and m["flows.goodput_bps.mean"] == 2000.0
    assert m["flows.delivered_fraction.mean"] == 0.75 and "flows.delivered_fraction.sum" not in m
    assert math.isnan(m["flows.mean_rtt_s.mean"])
    keys = list(m)
    assert keys.index("events") < keys.index("network.pdf") < keys.index("flows.goodput_bps.sum") < keys.index("flows[0].goodput_bps")


def _record(key: str, point: int, rep: int, status: str = "ok", **params: Any) -> dict[str, Any]:
    summary = json.loads(json.dumps(SUMMARY))
    summary["network"]["pdf"] = 0.5 + 0.1 * rep
    return {
        "key": key, "status": status, "point": point, "replication": rep, "seed": 100 + rep,
        "params": params, "version": "0.1.0", "scenario_hash": "h",
        "error": None if status == "ok" else "boom", "summary": summary if status == "ok" else None,
    }


def test_records_are_written_whole_and_read_back(tmp_path: Path) -> None:
    st = store.ResultStore(tmp_path)
    st.create()
    rec = _record("k1", 0, 0, p=1)
    rec["summary"]["flows"][0]["goodput_bps"] = float("nan")  # JSON has no NaN: stored as null
    st.put(rec)
    assert st.keys() == {"k1"}
    back = st.load("k1")
    assert back is not None and back["params"] == {"p": 1} and back["summary"]["flows"][0]["goodput_bps"] is None
    assert not list(tmp_path.joinpath("runs").glob(".*"))  # no temporary files left
    # a truncated or foreign file is not a finished run
    (tmp_path / "runs" / "k2.json").write_text('{"key": "k2", "status": "o')
    (tmp_path / "runs" / "k3.json").write_text('{"key": "other", "status": "ok"}')
    st.put(_record("k4", 0, 1, status="failed", p=1))
    assert set(st.finished(["k1", "k2", "k3", "k4", "k5"])) == {"k1"}


def test_interrupted_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    store.atomic_write_bytes(path, b"old")

    def fail(tmp: str) -> None:
        Path(tmp).write_bytes(b"half")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        store.atomic_write(path, fail)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_results_and_summary_tables() -> None:
    recs = [_record(f"k{i}{r}", i, r, p=v) for i, v in enumerate([0.1, 0.2]) for r in range(3)]
    recs.append(_record("kf", 1, 3, status="failed", p=0.2))
    res = store.results_frame(recs, ["p"])
    assert list(res.columns[:9]) == ["p", *store.META_COLUMNS]
    assert len(res) == 7 and res["key"].is_unique
    assert str(res["events"].dtype) == "Int64" and str(res["network.pdf"].dtype) == "float64"
    failed = res[res["status"] == "failed"]
    assert failed["network.pdf"].isna().all() and failed["events"].isna().all() and (failed["error"] == "boom").all()

    summ = store.summary_frame(res, ["p"])
    assert list(summ["p"]) == [0.1, 0.2] and list(summ["ok"]) == [3, 3] and list(summ["failed"]) == [0, 1]
    expected = describe([0.5, 0.6, 0.7])
    assert summ["network.pdf.mean"].iloc[0] == pytest.approx(expected.mean)
    assert summ["network.pdf.sd"].iloc[0] == pytest.approx(expected.sd)
    assert summ["network.pdf.ci95"].iloc[0] == pytest.approx(expected.ci)
    assert list(summ["network.pdf.n"]) == [3, 3]
    # default metrics: network and flows; all-missing metrics (mean_rtt_s for UDP) are left out
    assert "flows[1].goodput_bps.mean" in summ.columns and "flows.goodput_bps.sum.ci95" in summ.columns
    assert "events.mean" not in summ.columns and "links[0].fwd.queue_drops.mean" not in summ.columns
    assert "flows[0].mean_rtt_s.mean" not in summ.columns
    only = store.summary_frame(res, ["p"], ["events", "links[*"])
    assert [c for c in only.columns if c.endswith(".mean")] == ["events.mean", "links[0].fwd.queue_drops.mean",
                                                                "links[0].fwd.utilization.mean",
                                                                "links[0].rev.queue_drops.mean",
                                                                "links[0].rev.utilization.mean"]


def test_parameter_columns_stay_storable(tmp_path: Path) -> None:
    assert store.param_column([1, 2.5]) == [1, 2.5]
    assert store.param_column([1, "auto"]) == ["1", "auto"]
    assert store.param_column([[600, 600], [800, 800]]) == ["[600, 600]", "[800, 800]"]
    assert store.param_column([True, False]) == [True, False]
    recs = [_record("a", 0, 0, area=[600, 600], mode=1), _record("b", 1, 0, area=[800, 800], mode="x")]
    df = store.results_frame(recs, ["area", "mode"])
    df.to_parquet(tmp_path / "r.parquet")
    assert list(pd.read_parquet(tmp_path / "r.parquet")["mode"]) == ["1", "x"]


def test_sweep_directory_layout(tmp_path: Path) -> None:
    from conftest import EXAMPLES

    sc = sctpsim.Scenario.load(EXAMPLES / "wired-cbr.toml").with_({"simulation.duration": "1s"})
    res = sctpsim.sweep(sc, {"flows[0].rate": ["500kbps", "1Mbps"]}, seeds=2, jobs=1, out=tmp_path, timeseries=True)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["results.parquet", "runs", "scenario.toml", "summary.csv", "sweep.json"]
    assert (tmp_path / "scenario.toml").read_text() == sc.text
    runs = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert len(runs) == 8 and sum(n.endswith(".timeseries.parquet") for n in runs) == 4
    manifest = json.loads((tmp_path / "sweep.json").read_text())
    assert manifest["keys"] == list(res.results["key"])
    assert manifest["overrides"] == [["simulation.duration", "1s"]]
    assert manifest["vary"] == {"flows[0].rate": ["500kbps", "1Mbps"]}
    rec = json.loads((tmp_path / "runs" / f"{res.results['key'][0]}.json").read_text())
    assert rec["summary"]["seed"] == rec["seed"] == int(res.results["seed"][0])
    assert rec["manifest"]["scenario_hash"] == rec["scenario_hash"]
    from sctpsim.sweep import code_version

    assert rec["version"] == code_version() and code_version().startswith(sctpsim.__version__ + "+")
    assert rec["key"] == store.run_key(sc.hash, {"flows[0].rate": "500kbps"}, rec["seed"], code_version())
    g = res.results["flows[0].goodput_bps"]
    assert 1.6 < g[2:].mean() / g[:2].mean() < 2.4  # twice the rate, about twice the goodput


def test_mac_counters_are_totals_in_results_and_rows_in_their_own_long_table(tmp_path) -> None:
    """A wireless sweep's results.parquet has no per-interface columns; macs.parquet has one row
    per run and interface, and the totals in results.parquet are their sums."""
    import pandas as pd

    import sctpsim
    from sctpsim.scenarios import example

    sc = sctpsim.Scenario.load(example("wifi-hidden-terminal")).with_(**{"simulation.duration": "2s"})
    res = sctpsim.sweep(sc, seeds=2, jobs=1, out=tmp_path / "sw")
    assert not [c for c in res.results.columns if c.startswith("macs[")]
    macs = pd.read_parquet(tmp_path / "sw" / "macs.parquet")
    n_ifaces = len(res.results) and len(macs) // len(res.results)
    assert n_ifaces >= 3 and len(macs) == n_ifaces * len(res.results)
    assert {"node", "iface", "collisions", "seed", "key"} <= set(macs.columns)
    for key, group in macs.groupby("key"):
        row = res.results[res.results["key"] == key].iloc[0]
        assert row["macs.collisions.sum"] == group["collisions"].sum()
        assert row["macs.tx_success.sum"] == group["tx_success"].sum()


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600)])
def test_atomic_write_gives_the_mode_of_a_new_file_under_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        store.atomic_write_bytes(tmp_path / "a.json", b"{}\n")
        store.atomic_write(tmp_path / "b.csv", lambda tmp: Path(tmp).write_text("x\n"))
    finally:
        os.umask(old)
    for name in ("a.json", "b.csv"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_metric_patterns_that_match_nothing_and_their_near_matches() -> None:
    available = list(store.flatten_summary(SUMMARY))
    assert store.unmatched_metric_patterns(available, ["network.*", "nonexistent.*", "flows[9]*", "events"]) == [
        "nonexistent.*", "flows[9]*"]
    assert store.metric_hint("network.pfd", available).startswith("did you mean 'network.pdf'")
    assert store.metric_hint("goodput", available).startswith("did you mean 'flows.goodput_bps.sum'")
    hint = store.metric_hint("nonexistent.*", available)
    assert hint.startswith("the metrics are ") and "network.*" in hint and "flows[*" in hint
