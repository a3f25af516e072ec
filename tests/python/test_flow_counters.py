"""The per-flow ACK, data-packet and route-length columns of flows.parquet and the
`delivered_hops` rows, and `mobility.model = "mass"` from Python and the CLI."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from conftest import sctpsim

import sctpsim as api

CHAIN = """
[simulation]
duration = "20s"
[radio]
profile = "ns2-wavelan"
[[node]]
name = "a"
wireless = true
position_m = [0, 0]
[[node]]
name = "relay"
wireless = true
position_m = [200, 0]
[[node]]
name = "b"
wireless = true
position_m = [400, 0]
[[flows]]
src = "a"
dst = "b"
transport = "tcp-newreno"
app = "file"
size_bytes = 100000
"""


def test_flow_counters_and_route_length_columns(tmp_path: Path) -> None:
    res = api.run(api.Scenario.from_string(CHAIN))
    f = res.flows.iloc[0]
    # The far end is out of direct range (250 m): every data packet crossed the relay.
    assert f.mean_route_hops == 2.0 and f.relayed_fraction == 1.0
    assert 0.4 <= f.acks_sent / f.data_packets_received <= 0.75
    assert f.data_packets_received <= f.data_packets_sent
    ts = res.timeseries
    hops = ts[(ts.scope == "flow") & (ts.metric == "delivered_hops")]
    assert len(hops) > 0 and (hops.value == 2.0).all()
    res.write(tmp_path)
    flows = pd.read_parquet(tmp_path / "flows.parquet")
    for col in ("acks_sent", "data_packets_sent", "data_packets_received", "mean_route_hops", "relayed_fraction"):
        assert col in flows.columns


MASS = """
[simulation]
duration = "10s"
[nodes]
count = 10
[mobility]
model = "mass"
area_m = [500, 500]
speed_mps = { min = 5.56, max = 5.56 }
[routing]
protocol = "aodv"
[[flows]]
src = "n1"
dst = "n0"
app = "cbr"
rate = "50kbps"
"""


def test_mass_mobility_from_the_cli(tmp_path: Path) -> None:
    sc = tmp_path / "mass.toml"
    sc.write_text(MASS)
    r = sctpsim("run", str(sc), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    r = sctpsim("run", str(sc), "--set", "mobility.turn_sd_deg=-1")
    assert r.returncode == 2 and "mobility.turn_sd_deg" in r.stderr, r.stderr
