"""Every capture of every shipped example, MAC level included, dissects in tshark without
options: no malformed packet, no expert error, and every FCS checks out."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest
from conftest import require_tool, sctpsim

SCENARIOS = Path(__file__).resolve().parents[2] / "python" / "sctpsim" / "scenarios"
EXAMPLES = sorted(SCENARIOS.glob("examples/*.toml")) + [SCENARIOS / "ye2003" / "chain.toml"]

# Long enough for every example to put frames on the air (manet-cbr's first flow starts after
# a few seconds, dsdv-chain's at 16 s).
DURATION = {"manet-cbr": "30s", "dsdv-chain": "20s"}


def _tshark(tshark: str, path: Path, *args: str) -> str:
    r = subprocess.run([tshark, "-r", str(path), *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("scenario", EXAMPLES, ids=[f"{p.parent.name}/{p.stem}" for p in EXAMPLES])
def test_example_captures_dissect_cleanly(scenario: Path, tmp_path: Path) -> None:
    tshark = require_tool("tshark")
    r = sctpsim("run", str(scenario), "--out", str(tmp_path), "--pcap", "--quiet",
                "--set", f"simulation.duration={DURATION.get(scenario.stem, '4s')}")
    assert r.returncode == 0, r.stderr
    pcaps = sorted((tmp_path / "pcap").glob("*.pcap"))
    assert pcaps, "no captures written"
    wireless = "\n[radio]" in scenario.read_text()
    assert any(p.name.endswith("-mac.pcap") for p in pcaps) == wireless
    mac_frames = 0
    for path in pcaps:
        mac = path.name.endswith("-mac.pcap")
        assert struct.unpack("<I", path.read_bytes()[20:24])[0] == (127 if mac else 101)
        # Without options, as a user opens the file.
        bad = _tshark(tshark, path, "-Y", "_ws.malformed || _ws.expert.severity >= error")
        assert bad == "", f"{path.name}: {bad[:500]}"
        if not mac:
            continue
        # The radiotap header declares the FCS, so tshark finds it without options; with FCS
        # validation on (wlan.check_checksum), every one is good (0 = Bad, 1 = Good,
        # 2 = Unverified).
        rows = _tshark(tshark, path, "-o", "wlan.check_checksum:TRUE", "-T", "fields",
                       "-e", "wlan.fcs.status", "-e", "radiotap.flags.fcs", "-e", "radiotap.datarate")
        rows = [line.split("\t") for line in rows.splitlines()]
        mac_frames += len(rows)
        # Our addresses resolve to no vendor or well-known name (02:01:… was Wireshark's
        # "MS-NLB-PhysServer", issue 35 item 9).
        names = _tshark(tshark, path, "-N", "m", "-T", "fields", "-e", "wlan.ta_resolved", "-e", "wlan.ra_resolved")
        assert "MS-NLB" not in names and "_" not in names.replace("\t", "").replace("\n", ""), (path.name, names[:300])
        for status, fcs_flag, rate in rows:
            assert status == "1", (path.name, status)
            assert fcs_flag in ("1", "True"), (path.name, fcs_flag)
            assert float(rate) > 0, (path.name, rate)
    # A quiet node may have an empty capture, the network as a whole may not.
    assert mac_frames > 0 or not wireless
