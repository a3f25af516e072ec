"""`sctpsim show`, `Scenario.parameters()` / `effective()`, `parameters` in run.json, and
`Scenario.get` on fields under optional tables the scenario does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import sctpsim
from conftest import EXAMPLES, sctpsim as cli

WIRED = str(EXAMPLES / "wired-cbr.toml")
MANET = str(EXAMPLES / "manet-cbr.toml")

TCP_NS2 = """
[simulation]
duration = "2s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
between = ["a", "b"]
bandwidth = "1Mbps"
delay = "10ms"
[[flows]]
src = "a"
dst = "b"
transport = "tcp-sack"
app = "ftp"
tcp = { profile = "ns2", min_rto = "1s" }
[[flows]]
src = "a"
dst = "b"
transport = "sctp"
app = "ftp"
sctp = { profile = "rfc2960" }
"""


def _rows(r) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    doc = json.loads(r.stdout)
    return {row["path"]: row for row in doc["parameters"]}


def test_json_lists_value_default_unit_and_source(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(TCP_NS2)
    r = cli("show", str(f), "--json", "--set", "flows[0].tcp.mss_bytes=536", "--seed", "9")
    assert r.returncode == 0, r.stderr
    rows = _rows(r)
    assert rows["simulation.seed"] == {"path": "simulation.seed", "value": 9, "unit": "", "default": 1, "source": "--seed"}
    assert rows["simulation.duration"]["value"] == 2.0 and rows["simulation.duration"]["unit"] == "s"
    assert rows["simulation.sample_interval"]["source"] == "default"
    # The ns-2 TCP profile: windowInit_ 1, minrto_ 0.2 s (the file sets 1 s), maxSackBlocks_ 3.
    assert rows["flows[0].tcp.initial_window_segments"]["value"] == 1
    assert rows["flows[0].tcp.initial_window_segments"]["source"] == "profile ns2"
    assert rows["flows[0].tcp.min_rto"] == {"path": "flows[0].tcp.min_rto", "value": 1.0, "unit": "s",
                                                  "default": 0.2, "source": "scenario"}
    assert rows["flows[0].tcp.max_sack_blocks"]["value"] == 3
    assert rows["flows[0].tcp.mss_bytes"]["source"] == "--set" and rows["flows[0].tcp.mss_bytes"]["default"] == 1000
    # RFC 2960: fast retransmit on the 4th miss indication, RTO.Initial 3 s, initial cwnd 2·MTU.
    assert rows["flows[1].sctp.fast_rtx_threshold"]["value"] == 4
    assert rows["flows[1].sctp.fast_rtx_threshold"]["source"] == "profile rfc2960"
    assert rows["flows[1].sctp.initial_rto"]["value"] == 3.0
    assert rows["flows[1].sctp.initial_cwnd_bytes"]["value"] == 3000
    assert rows["link[0].bandwidth"]["value"] == 1_000_000 and rows["link[0].bandwidth"]["unit"] == "bit/s"
    assert not any(p.startswith("radio") for p in rows)  # no wireless node
    assert "flows[0].sctp.profile" not in rows and "flows[1].tcp.profile" not in rows


def test_ns2_2001_profile_rows_name_their_source(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(TCP_NS2)
    r = cli("show", str(f), "--json", "--set", "flows[0].transport=tcp-sack1",
            "--set", 'flows[0].tcp={ profile = "ns2-2001" }')
    assert r.returncode == 0, r.stderr
    rows = _rows(r)
    assert rows["flows[0].transport"]["value"] == "tcp-sack1"
    assert rows["flows[0].tcp.profile"]["value"] == "ns2-2001"
    # ns-2.1b8: windowInit_ 2, singledup_ 0, minrto_ 1, rtxcur_init_ 6.0, maxrto_ 100000.
    for field, value in [("initial_window_segments", 2), ("limited_transmit", False), ("min_rto", 1.0),
                         ("initial_rto", 6.0), ("max_rto", 100_000.0), ("max_sack_blocks", 3)]:
        row = rows[f"flows[0].tcp.{field}"]
        assert row["value"] == value, row
        assert row["source"] == "profile ns2-2001", row


def test_radio_profile_routing_and_mobility_rows() -> None:
    r = cli("show", MANET, "--json", "--set", "radio.data_rate=1Mbps")
    assert r.returncode == 0, r.stderr
    rows = _rows(r)
    assert rows["radio.data_rate"]["value"] == 1_000_000 and rows["radio.data_rate"]["source"] == "--set"
    assert rows["radio.data_rate"]["default"] == 2_000_000
    for path, value in [("radio.rx_thresh", 3.652e-10), ("radio.cs_thresh", 1.559e-11), ("radio.tx_power", 0.28183815),
                        ("radio.propagation.model", "two-ray-ground"), ("radio.reception", "threshold")]:
        assert rows[path]["value"] == value and rows[path]["source"] == "profile ns2-wavelan", rows[path]
    assert rows["routing.protocol"]["value"] == "aodv"
    assert rows["routing.aodv.send_buffer_packets"]["value"] == 64
    assert rows["mobility.model"]["value"] == "random-waypoint"
    assert rows["mobility.steady_state"]["source"] == "default"
    assert rows["nodes.count"]["value"] == 50


def test_human_table_is_grouped_and_aligned() -> None:
    r = cli("show", WIRED)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("# ") and "parameters" in lines[0]
    assert lines[1].split() == ["parameter", "value", "unit", "default", "source"]
    assert "[simulation]" in lines and "[link]" in lines and "[flows[0]]" in lines
    rate = next(line for line in lines if line.startswith("flows[0].rate "))
    assert rate.split() == ["flows[0].rate", "1000000", "bit/s", "-", "scenario"]
    # Columns line up: every row's source starts where the header's does.
    col = lines[1].index("source")
    assert all(line[col - 2:col] == "  " for line in lines[2:] if line and not line.startswith("["))


@pytest.mark.parametrize("args, names", [
    (["no-such-scenario.toml"], "no such scenario file"),
    ([WIRED, "--set", "flows[0].nosuch=1"], "flows[0].nosuch"),
    ([WIRED, "--set", "flows[0].rate=fast"], "flows[0].rate"),
    ([WIRED, "--set", "noequals"], "--set"),
    ([WIRED, "--seed", "-1"], "--seed"),
    ([WIRED, "--seed", str(2**64)], "--seed"),
])
def test_bad_input_exits_2_naming_the_field(args: list[str], names: str) -> None:
    r = cli("show", *args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert names in r.stderr and "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_run_json_holds_the_same_parameters(tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = ["--set", "simulation.duration=2s", "--seed", "4"]
    r = cli("run", WIRED, "--out", str(out), "--quiet", *args)
    assert r.returncode == 0, r.stderr
    stored = json.loads((out / "run.json").read_text())["parameters"]
    shown = json.loads(cli("show", WIRED, "--json", *args).stdout)["parameters"]
    assert stored == shown


def test_dsdv_rows_show_ns3_defaults() -> None:
    sc = sctpsim.Scenario.load(MANET).with_(**{"routing.protocol": "dsdv",
                                               "routing.dsdv.settling_time": "2s"})
    df = sc.parameters().set_index("path")
    row = df.loc["routing.dsdv.periodic_update_interval"]
    assert (row["value"], row["unit"], row["default"], row["source"]) == (15.0, "s", 15.0, "default")
    row = df.loc["routing.dsdv.settling_time"]
    assert (row["value"], row["default"], row["source"]) == (2.0, 5.0, "--set")
    assert df.loc["routing.dsdv.weighted_factor", "value"] == 0.875
    assert df.loc["routing.dsdv.send_buffer_packets_per_dst", "value"] == 5
    assert bool(df.loc["routing.dsdv.link_layer_feedback", "value"]) is False


def test_python_api_parameters_effective_and_run(tmp_path: Path) -> None:
    sc = sctpsim.Scenario.load(MANET).with_(**{"routing.protocol": "olsr"})
    df = sc.parameters()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == ["path", "value", "unit", "default", "source"]
    row = df.set_index("path").loc["routing.olsr.hello_interval"]
    assert (row["value"], row["unit"], row["default"], row["source"]) == (2.0, "s", 2.0, "default")
    assert df.set_index("path").loc["routing.protocol", "source"] == "--set"
    assert sc.effective("radio.data_rate") == 2_000_000
    with pytest.raises(KeyError, match="radio.propagation.exponent"):
        sc.effective("radio.propagation.exponent")  # two-ray ground has no exponent
    res = sctpsim.run(sctpsim.Scenario.load(WIRED).with_(**{"simulation.duration": "1s"}), seed=5)
    res.write(tmp_path / "api")
    params = {p["path"]: p for p in json.loads((tmp_path / "api" / "run.json").read_text())["parameters"]}
    assert params["simulation.seed"]["value"] == 5 and params["simulation.seed"]["source"] == "--seed"


def test_get_under_an_absent_tagged_table_returns_default_and_bad_paths_raise_key_errors() -> None:
    """`radio.propagation` is a tagged table (its `model` chooses the fields). A field of it that
    the scenario leaves unset is `default`; a path that cannot exist raises a KeyError naming it
    (also a ScenarioError); the effective value is `effective()`."""
    manet = sctpsim.Scenario.load(MANET)
    assert manet.get("radio.propagation.exponent") is None
    assert manet.get("radio.propagation.exponent", 3.0) == 3.0
    assert manet.get("radio.propagation.model", "?") == "?"
    assert manet.get("radio.frame_error.p0") is None
    b = manet.with_(**{"radio.profile": "80211b"})
    assert b.get("radio.propagation.exponent") is None
    assert b.effective("radio.propagation.exponent") == 3.0  # ns-3's log-distance default
    for path in ("radio.propagation.bogus", "radio.propagation.exponent.x", "radio.frame_error.p0.y",
                 "routing.olsr.nope", "flows[0].sctp.asconf[0].at"):
        with pytest.raises(KeyError) as info:
            manet.get(path)
        assert isinstance(info.value, sctpsim.ScenarioError) and isinstance(info.value, sctpsim.UnknownFieldError)
        assert info.value.path == path and str(info.value).startswith(path), str(info.value)
