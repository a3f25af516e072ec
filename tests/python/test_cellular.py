"""Access-router mobility and cellular SCTP end to end through the CLI: one minute of the
aydin2004 road with duplicated transfer, its handoffs in the handoffs table, and the captures
dissected by tshark — AR beacons (ICMP router advertisements), the modified ASCONFs with the
handoff-start and -end flags, their ASCONF-ACKs and the per-path SACKs — with zero malformed
packets; bad `cellular` input exits 2 naming the field."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from conftest import require_tool, sctpsim

SCENARIO = Path(__file__).resolve().parents[2] / "python" / "sctpsim" / "scenarios" / "aydin2004" / "road.toml"
# 60 km/h for 60 s: 1000 m, two handoffs (AR1 → AR2 → AR3).
DRIVE = ["--set", "simulation.duration=60s", "--set", 'mobility.waypoints[0].times=["0s","60s"]',
         "--set", "mobility.waypoints[0].positions_m=[[0,0],[1000,0]]"]


@pytest.fixture(scope="module")
def drive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cell")
    r = sctpsim("run", str(SCENARIO), "--out", str(out), "--pcap", "--quiet", *DRIVE, "--set", "flows[0].sctp.csctp=duplicated")
    assert r.returncode == 0, r.stderr
    return out


def test_two_handoffs_with_their_asconfs_and_every_message_once(drive: Path) -> None:
    h = pd.read_parquet(drive / "handoffs.parquet")
    assert list(zip(h.from_agent, h.to_agent)) == [("AR1", "AR2"), ("AR2", "AR3")], h
    assert (h.mechanism == "csctp").all()
    for row in h.itertuples():
        steps = [row.detected_s, row.acquired_s, row.add_ip_sent_s, row.add_ip_acked_s, row.set_primary_sent_s,
                 row.released_s, row.delete_ip_acked_s]
        assert steps == sorted(steps), row
        parts = (row.outage_detection_s + row.outage_acquisition_s + row.outage_add_ip_s + row.outage_wait_primary_s
                 + row.outage_switch_s)
        assert abs(parts - row.outage_s) < 1e-3, row
    s = json.loads((drive / "summary.json").read_text())["sctp"][0]
    assert (s["delivery_errors"], s["messages_missing"], s["associations_lost"]) == (0, 0, 0), s


def _tshark(tshark: str, path: Path, *args: str) -> list[str]:
    r = subprocess.run([tshark, "-r", str(path), "-o", "ip.check_checksum:TRUE", "-o", "sctp.checksum:CRC-32C",
                        "-o", "sctp.show_always_control_chunks:TRUE", *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return [line for line in r.stdout.splitlines() if line.strip()]


def test_captures_dissect_beacons_modified_asconfs_and_per_path_sacks(drive: Path) -> None:
    tshark = require_tool("tshark")
    pcaps = sorted((drive / "pcap").glob("*.pcap"))
    for p in pcaps:
        bad = _tshark(tshark, p, "-Y", "_ws.malformed || _ws.expert.severity >= error || ip.checksum.status == 0 || sctp.checksum.status == 0")
        assert bad == [], f"{p.name}: {bad[:5]}"
    cn = drive / "pcap" / "CN-eth0.pcap"
    flags = [int(f, 16) for f in _tshark(tshark, cn, "-Y", "sctp.chunk_type == 193", "-T", "fields", "-e", "sctp.chunk_flags")]
    # Per handoff: add-ip with H (0x01), set-primary plain, delete-ip with E (0x02).
    assert flags.count(0x01) == 2 and flags.count(0x02) == 2, flags
    assert len(_tshark(tshark, cn, "-Y", "sctp.chunk_type == 128")) >= 6
    assert len(_tshark(tshark, cn, "-Y", "sctp.chunk_type == 3 && sctp.chunk_flags & 0x02")) > 0
    mn = drive / "pcap" / "MN-wlan0.pcap"
    assert len(_tshark(tshark, mn, "-Y", "icmp.type == 9")) > 50


BROKEN = {
    "node[20].cellular": ["--set", "node[20].wireless=false"],
    "cellular.hysteresis_db": ["--set", "cellular.hysteresis_db=-3"],
    "flows[0].sctp.csctp": ["--set", "flows[0].sctp.csctp=triple"],
    "routing.protocol": ["--set", "routing.protocol=aodv"],
}


@pytest.mark.parametrize("field", sorted(BROKEN))
def test_bad_cellular_input_exits_2_naming_the_field(tmp_path: Path, field: str) -> None:
    r = sctpsim("run", str(SCENARIO), "--out", str(tmp_path), "--quiet", *BROKEN[field])
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert field in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
