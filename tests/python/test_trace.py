"""The per-packet trace: `sctpsim run --trace` writes trace.parquet with the documented columns,
bad trace options exit 2 naming the option before anything runs, a reused --out loses an
earlier run's trace, the row bound truncates with a warning, and `sctpsim.run(trace=...)`
filters and returns the same table."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import sctpsim
from conftest import EXAMPLES, sctpsim as cli
from sctpsim.trace import TRACE_COLUMNS

WIRED = str(EXAMPLES / "wired-cbr.toml")
SHORT = ["--quiet", "--set", "simulation.duration=2s"]


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def test_cli_trace_writes_the_documented_columns_and_agrees_with_the_other_tables(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = cli("run", WIRED, "--trace", "--out", str(out), *SHORT)
    assert r.returncode == 0, r.stderr
    t = pd.read_parquet(out / "trace.parquet")
    assert list(t.columns) == TRACE_COLUMNS
    assert str(t["time_ns"].dtype) == "uint64" and str(t["uid"].dtype) == "uint64"
    assert str(t["size_bytes"].dtype) == "uint32" and str(t["flow"].dtype) == "Int64"
    assert t["time_ns"].is_monotonic_increasing
    s = _summary(out)
    assert s["trace"] == {"rows": len(t), "max_rows": 10_000_000, "truncated": False}
    assert set(t["layer"].astype(str)) == {"link", "ip"}
    assert set(t["node"].astype(str)) == {"src", "r", "dst"}
    # One IP `tx` row per packet the flow sent, one IP `rx` row per packet delivered.
    flows = pd.read_parquet(out / "flows.parquet")
    ip = t[t["layer"] == "ip"]
    assert (ip["event"] == "tx").sum() == flows.loc[0, "packets_sent"]
    assert (ip["event"] == "rx").sum() == flows.loc[0, "packets_delivered"]
    assert set(ip.loc[ip["event"] == "rx", "node"].astype(str)) == {"dst"}
    # Drop rows per reason are the drops table's counts (here: the bottleneck's random loss).
    drops = pd.read_parquet(out / "drops.parquet")
    dropped = t[t["event"] == "drop"]
    assert dropped["reason"].astype(str).value_counts().to_dict() == dict(zip(drops["reason"], drops["packets"]))
    assert (t.loc[t["event"] != "drop", "reason"].astype(str) == "").all()
    first = t[t["uid"] == t["uid"].min()]
    assert list(first["event"].astype(str))[:4] == ["tx", "enqueue", "dequeue", "tx"]
    assert first["src"].astype(str).iloc[0] == "10.0.0.1" and first["size_bytes"].iloc[0] == 1028
    assert first["protocol"].astype(str).iloc[0] == "udp" and pd.isna(first["interface"].iloc[0])
    assert first["interface"].astype(str).iloc[1] == "eth0"


def test_cli_filters_keep_only_the_matching_rows(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = cli("run", WIRED, "--trace-node", "r", "--trace-layer", "link", "--trace-flow", "0", "--out", str(out), *SHORT)
    assert r.returncode == 0, r.stderr
    t = pd.read_parquet(out / "trace.parquet")
    assert len(t) > 0
    assert set(t["node"].astype(str)) == {"r"} and set(t["layer"].astype(str)) == {"link"}
    assert (t["flow"] == 0).all()


@pytest.mark.parametrize("args, flag, what", [
    (["--trace-layer", "foo"], "--trace-layer", 'unknown layer "foo"'),
    (["--trace", "--trace-node", "nosuch"], "--trace-node", 'no node named "nosuch"'),
    (["--trace-flow", "3"], "--trace-flow", "no flow 3"),
    (["--trace-max-rows", "0"], "--trace-max-rows", "outside 1 to 50000000"),
    (["--trace-max-rows", "999999999999"], "--trace-max-rows", "outside 1 to 50000000"),
])
def test_bad_trace_options_exit_2_naming_the_option_before_running(
        tmp_path: Path, args: list[str], flag: str, what: str) -> None:
    out = tmp_path / "out"
    r = cli("run", WIRED, *args, "--out", str(out), *SHORT)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sctpsim: error: {flag}: ") and what in lines[0], r.stderr
    assert not (out / "summary.json").exists(), "nothing is written for a refused run"


def test_a_reused_out_without_trace_leaves_no_trace(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert cli("run", WIRED, "--trace", "--out", str(out), *SHORT).returncode == 0
    assert (out / "trace.parquet").exists()
    r = cli("run", WIRED, "--out", str(out), *SHORT)
    assert r.returncode == 0, r.stderr
    assert not (out / "trace.parquet").exists()
    assert "trace" not in _summary(out)


def test_the_row_bound_truncates_with_a_warning(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = cli("run", WIRED, "--trace-max-rows", "50", "--out", str(out), *SHORT)
    assert r.returncode == 0, r.stderr
    assert "warning" in r.stderr and "50 rows" in r.stderr
    assert len(pd.read_parquet(out / "trace.parquet")) == 50
    assert _summary(out)["trace"] == {"rows": 50, "max_rows": 50, "truncated": True}


def test_api_trace_filters_and_bounds() -> None:
    sc = sctpsim.Scenario.load(WIRED).with_(**{"simulation.duration": "1s"})
    assert sctpsim.run(sc).trace is None
    full = sctpsim.run(sc, trace=True).trace
    assert full is not None and list(full.columns) == TRACE_COLUMNS
    ip = sctpsim.run(sc, trace=sctpsim.Trace(layers=["ip"], nodes=["dst"])).trace
    assert ip is not None and len(ip) > 0
    expect = full[(full["layer"] == "ip") & (full["node"] == "dst")]
    assert ip["uid"].tolist() == expect["uid"].tolist()
    assert ip["event"].astype(str).tolist() == expect["event"].astype(str).tolist()
    as_dict = sctpsim.run(sc, trace={"layers": ["ip"], "nodes": ["dst"]}).trace
    assert as_dict is not None and as_dict["uid"].tolist() == ip["uid"].tolist()
    with pytest.warns(RuntimeWarning, match="bound of 10 rows"):
        res = sctpsim.run(sc, trace=sctpsim.Trace(max_rows=10))
    assert res.trace is not None and len(res.trace) == 10 and res.summary["trace"]["truncated"]


def test_api_bad_trace_options_raise_scenario_error_naming_them() -> None:
    sc = sctpsim.Scenario.load(WIRED).with_(**{"simulation.duration": "1s"})
    with pytest.raises(sctpsim.ScenarioError) as e:
        sctpsim.run(sc, trace=sctpsim.Trace(nodes=["src", "zz"]))
    assert e.value.path == "trace.nodes[1]"
    with pytest.raises(sctpsim.ScenarioError) as e:
        sctpsim.run(sc, trace={"layer": ["ip"]})
    assert e.value.path == "trace.layer"
    with pytest.raises(sctpsim.ScenarioError) as e:
        sctpsim.run(sc, trace={"flows": "0"})
    assert e.value.path == "trace.flows"
    with pytest.raises(TypeError):
        sctpsim.run(sc, trace="yes")  # type: ignore[arg-type]


def test_a_manet_trace_has_mac_rows_and_routing_control(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = cli("run", str(EXAMPLES / "manet-cbr.toml"), "--trace", "--out", str(out),
            "--quiet", "--set", "simulation.duration=30s", "--set", "flows[0].start_spread=1s")
    assert r.returncode == 0, r.stderr
    t = pd.read_parquet(out / "trace.parquet")
    mac = t[t["layer"] == "mac"]
    assert set(mac["event"].astype(str)) >= {"enqueue", "dequeue", "tx", "rx"}
    assert mac["interface"].astype(str).eq("wlan0").all()
    assert "aodv" in set(t["protocol"].astype(str))
    assert t.loc[t["protocol"] == "aodv", "flow"].isna().all()
    drops = pd.read_parquet(out / "drops.parquet") if (out / "drops.parquet").exists() else pd.DataFrame(
        columns=["reason", "packets"])
    counted = t.loc[t["event"] == "drop", "reason"].astype(str).value_counts().to_dict()
    assert counted == drops.groupby("reason")["packets"].sum().to_dict()
