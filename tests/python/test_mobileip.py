"""Mobile IP end to end through the CLI: a handover of the study scenario in the handoffs table,
its registration, advertisements and tunnelled packets dissected by tshark (`mip`, IP-in-IP)
with zero malformed packets and checksums verified, and the scenario checks of `mobile_ip`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from conftest import require_tool, sctpsim

SCENARIO = Path(__file__).resolve().parents[2] / "python" / "sctpsim" / "scenarios" / "atiquzzaman2003" / "mobileip.toml"


@pytest.fixture(scope="module")
def first_handover(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """35 s of the study: the mobile host leaves home at once (10 m/s from 50 m), leaves the home
    agent's range at 250 m (20 s) and is at 300 m, in the foreign agent's cell only, at the end."""
    out = tmp_path_factory.mktemp("mip")
    r = sctpsim("run", str(SCENARIO), "--out", str(out), "--pcap", "--quiet", "--set", "simulation.duration=35s")
    assert r.returncode == 0, r.stderr
    return out


def test_each_handover_is_a_row_with_its_steps_in_order(first_handover: Path) -> None:
    h = pd.read_parquet(first_handover / "handoffs.parquet")
    # ns-2's mobile node switches to every agent it hears anew (docs/models/mobileip.md), so
    # crossing the overlap of the cells (150-250 m, 10-20 s) may hand over more than once; at
    # 35 s it is at 300 m, in the foreign agent's cell only.
    assert len(h) >= 1 and set(h.mobile) == {"MH"}, h
    last = h.iloc[-1]
    assert (last.from_agent, last.to_agent) == ("HA", "FA"), h
    assert 8 < last.link_lost_s < 22, last
    for row in h.itertuples():
        steps = [row.link_lost_s, row.detected_s, row.registration_sent_s, row.reply_received_s, row.first_packet_s]
        done = [t for t in steps if t == t]
        assert done == sorted(done), row
        # Movement detection: at most the 2 s advertisement lifetime after the last frame.
        assert row.detected_s - row.link_lost_s <= 2.0 + 1e-9, row
    summary = json.loads((first_handover / "summary.json").read_text())
    net = summary["network"]
    assert net["mip_tunnelled"] > 0 and net["mip_decapsulated"] > 0, net
    assert summary["flows"][0]["delivery_errors"] == 0


def test_a_layer_2_trigger_also_hands_over(tmp_path: Path) -> None:
    r = sctpsim("run", str(SCENARIO), "--out", str(tmp_path), "--quiet", "--set", "simulation.duration=35s",
                "--set", "mobile_ip.movement_detection=link-layer")
    assert r.returncode == 0, r.stderr
    h = pd.read_parquet(tmp_path / "handoffs.parquet")
    assert (h.iloc[-1].from_agent, h.iloc[-1].to_agent) == ("HA", "FA"), h
    assert h.reply_received_s.notna().any(), h


def _tshark(tshark: str, path: Path, *args: str) -> str:
    r = subprocess.run([tshark, "-r", str(path), "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE", *args],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_captures_show_advertisements_registrations_and_tunnels(first_handover: Path) -> None:
    tshark = require_tool("tshark")
    pcaps = sorted((first_handover / "pcap").glob("*.pcap"))
    ip_pcaps = [p for p in pcaps if not p.name.endswith("-mac.pcap")]
    counts = {"adverts": 0, "requests": 0, "replies": 0, "tunnelled": 0}
    for p in pcaps:
        bad = _tshark(tshark, p, "-Y", "_ws.malformed || _ws.expert.severity >= error || ip.checksum.status == 0 || udp.checksum.status == 0 || icmp.checksum.status == 0")
        assert bad == "", f"{p.name}: {bad[:500]}"
    for p in ip_pcaps:
        counts["adverts"] += len(_tshark(tshark, p, "-Y", "icmp.type == 9 && icmp.mip.type == 16").splitlines())
        counts["requests"] += len(_tshark(tshark, p, "-Y", "mip.type == 1").splitlines())
        counts["replies"] += len(_tshark(tshark, p, "-Y", "mip.type == 3 && mip.code == 0").splitlines())
        counts["tunnelled"] += len(_tshark(tshark, p, "-Y", "ip.proto == 4 && ip.proto == 6").splitlines())
    assert all(v > 0 for v in counts.values()), counts


BROKEN = {
    "mobile without home agent": ('node[4].mobile_ip = { role = "mobile" }', "node[4].mobile_ip.home_agent"),
    "home agent that is not one": ('node[4].mobile_ip = { role = "mobile", home_agent = "FA" }', "node[4].mobile_ip.home_agent"),
    "home agent on an agent": ('node[2].mobile_ip = { role = "home-agent", home_agent = "HA" }', "node[2].mobile_ip.home_agent"),
    "wired agent": ("node[2].wireless = false", "node[2]"),
    "zero interval": ('mobile_ip.advertisement_interval = "0s"', "mobile_ip.advertisement_interval"),
    "unknown role": ('node[4].mobile_ip = { role = "router", home_agent = "HA" }', "node[4].mobile_ip.role"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_bad_mobile_ip_fields_exit_2_naming_the_field(case: str) -> None:
    setting, field = BROKEN[case]
    r = sctpsim("validate", str(SCENARIO), "--set", setting)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert field in r.stderr, r.stderr
