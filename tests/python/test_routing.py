"""Ad hoc routing from the CLI: the MANET example with each protocol writes routing rows, routing
captures (AODV on UDP 654, OLSR on UDP 698, DSR as IP protocol 48, DSDV on UDP 269) dissect
cleanly in tshark, and the quick MANET study runs end to end (no routing loop with DSR and
AODV)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from conftest import require_tool, sctpsim

PROTOCOLS = ["dsr", "aodv", "olsr"]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_manet_example_reports_routing_traffic(tmp_path: Path, protocol: str) -> None:
    r = sctpsim("run", "manet-cbr", "--out", str(tmp_path), "--set", f"routing.protocol={protocol}",
                "--set", "simulation.duration=60s", "--set", "flows[0].start_spread=10s")
    assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "summary.json").read_text())
    net = s["network"]
    assert len(s["flows"]) == 10
    assert net["routing_packets"] > 0 and net["routing_bytes"] > net["routing_packets"] * 20
    assert net["pdf"] > 0.5
    assert net["ttl_drops"] == 0
    rows = pd.read_parquet(tmp_path / "routing.parquet")
    assert set(rows.protocol) == {protocol}
    assert rows.tx_bytes.sum() == net["routing_bytes"]
    if protocol == "olsr":
        # Messages by type; an OLSR packet may carry several (piggybacked forwarded TCs).
        assert rows.tx_packets.sum() > net["routing_packets"]
        # MPR flooding relays TCs; HELLOs go one hop only.
        relayed = rows.groupby("message").tx_relayed.sum()
        assert relayed["tc"] > 0 and relayed["hello"] == 0
    else:
        assert rows.tx_packets.sum() == net["routing_packets"]
        assert rows.tx_relayed.sum() == 0
    expected = {"dsr": {"rreq", "rrep"}, "aodv": {"rreq", "rrep"}, "olsr": {"hello", "tc"}}[protocol]
    assert expected <= set(rows.message)


#: What tshark must find in each protocol's captures.
DISSECTED = {"aodv": "aodv", "olsr": "olsr", "dsr": "ip.proto == 48"}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_routing_captures_dissect_cleanly(tmp_path: Path, protocol: str) -> None:
    tshark = require_tool("tshark")
    r = sctpsim("run", "manet-link-break", "--out", str(tmp_path), "--pcap",
                "--set", f"routing.protocol={protocol}", "--set", "simulation.duration=25s")
    assert r.returncode == 0, r.stderr
    found = 0
    for path in sorted((tmp_path / "pcap").glob("*-wlan0.pcap")):
        base = [tshark, "-r", str(path), "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
        bad = subprocess.run([*base, "-Y", "_ws.malformed || _ws.expert.severity >= error"],
                             capture_output=True, text=True)
        assert bad.returncode == 0, bad.stderr
        assert bad.stdout == "", f"{path.name}: {bad.stdout[:500]}"
        hits = subprocess.run([*base, "-Y", DISSECTED[protocol]], capture_output=True, text=True)
        found += len(hits.stdout.splitlines())
    assert found > 10, f"{protocol}: {found} packets dissected as {DISSECTED[protocol]}"


def test_dsdv_manet_example_reports_its_updates(tmp_path: Path) -> None:
    """DSDV (not in the MANET study's protocol set): periodic and triggered updates, one message
    per packet, all counted."""
    r = sctpsim("run", "manet-cbr", "--out", str(tmp_path), "--set", "routing.protocol=dsdv",
                "--set", "simulation.duration=60s", "--set", "flows[0].start_spread=10s")
    assert r.returncode == 0, r.stderr
    net = json.loads((tmp_path / "summary.json").read_text())["network"]
    assert net["routing_packets"] > 0 and net["pdf"] > 0.3
    rows = pd.read_parquet(tmp_path / "routing.parquet")
    assert set(rows.protocol) == {"dsdv"}
    assert {"periodic", "triggered"} <= set(rows.message)
    assert rows.tx_packets.sum() == net["routing_packets"]
    assert rows.tx_bytes.sum() == net["routing_bytes"]
    # 50 nodes, one full dump each within 1 ms of t = 0 and every ~15 s after: 4 per node in 60 s.
    assert rows[rows.message == "periodic"].tx_packets.sum() == 200


def test_dsdv_captures_dissect_cleanly(tmp_path: Path) -> None:
    """Wireshark has no DSDV dissector: the updates are UDP to port 269, with valid checksums."""
    tshark = require_tool("tshark")
    r = sctpsim("run", "manet-link-break", "--out", str(tmp_path), "--pcap",
                "--set", "routing.protocol=dsdv", "--set", "simulation.duration=25s")
    assert r.returncode == 0, r.stderr
    found = 0
    for path in sorted((tmp_path / "pcap").glob("*-wlan0.pcap")):
        base = [tshark, "-r", str(path), "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
        bad = subprocess.run([*base, "-Y", "_ws.malformed || _ws.expert.severity >= error"],
                             capture_output=True, text=True)
        assert bad.returncode == 0, bad.stderr
        assert bad.stdout == "", f"{path.name}: {bad.stdout[:500]}"
        hits = subprocess.run([*base, "-Y", "udp.port == 269 && udp.length >= 20"],
                              capture_output=True, text=True)
        found += len(hits.stdout.splitlines())
    assert found > 10, f"dsdv: {found} updates"


def test_quick_manet_study_runs(tmp_path: Path) -> None:
    from sctpsim.studies import manet

    table = manet.run_study(tmp_path, quick=True, jobs=1, seeds=1)
    assert set(table.protocol) == set(PROTOCOLS)
    assert len(table) == 3 * len(manet.QUICK_PAUSES_S)
    # DSR (source routes) and AODV (destination sequence numbers) are loop-free by design;
    # OLSR is not: at 20 m/s its nodes' topology views disagree for a few seconds after each
    # change and a packet can bounce until its TTL runs out (a handful per run;
    # docs/models/manet.md).
    assert (table[table.protocol != "olsr"].ttl_drops == 0).all()
    assert (table[table.protocol == "olsr"].ttl_drops < 10).all()
    assert (table.pdf > 0.3).all()
    md = manet.markdown_table(table, None)
    assert md.count("\n") == 2 + len(table)


@pytest.mark.parametrize("transport", ["sctp", "tcp-newreno"])
def test_manet_drops_are_attributed_to_flows_by_reason(tmp_path: Path, transport: str) -> None:
    """drops.parquet: per reason the packets add up to the network counters, and each flow's
    dropped_seq / dropped_tsn rows (dir = the reason) are as many as the table records."""
    scenario = tmp_path / "manet.toml"
    scenario.write_text(f"""
[simulation]
duration = "60s"
seed = 1
[radio]
profile = "ns2-wavelan"
[nodes]
count = 30
[mobility]
model = "random-waypoint"
area_m = [600, 600]
speed_mps = {{ min = 0.0, max = 20.0 }}
pause = "0s"
[routing]
protocol = "aodv"
[[flows]]
pairs = 6
transport = "{transport}"
app = "ftp"
""")
    out = tmp_path / "run"
    r = sctpsim("run", str(scenario), "--out", str(out))
    assert r.returncode == 0, r.stderr
    s = json.loads((out / "summary.json").read_text())
    net = s["network"]
    drops = pd.read_parquet(out / "drops.parquet")
    assert set(drops.columns) == {"flow", "reason", "packets", "records"}
    by_reason = drops.groupby("reason").packets.sum()
    assert by_reason.get("queue", 0) == net["queue_drops"]
    assert by_reason.get("link_broken", 0) == net["link_broken_drops"]
    assert by_reason.get("no_route", 0) == net["no_route_drops"]
    assert by_reason.get("ttl_expired", 0) == net["ttl_drops"]
    flows = drops.dropna(subset=["flow"])
    assert flows.packets.sum() > 0, drops
    ts = pd.read_parquet(out / "timeseries.parquet")
    rows = ts[ts.metric.isin(["dropped_seq", "dropped_tsn"])].groupby(["id", "dir"]).size()
    got = {(int(i), str(d)): int(n) for (i, d), n in rows.items()}
    expected = {(int(f.flow), str(f.reason)): int(f.records) for f in flows.itertuples() if f.records > 0}
    assert got == expected
