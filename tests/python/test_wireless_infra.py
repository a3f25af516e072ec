"""Infrastructure mode from the CLI: the wifi-handoff example's MAC captures dissect cleanly in
tshark and hold beacons, authentication and (re)association frames; its results hold the
association rows and counters."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
from conftest import require_tool, sctpsim

# IEEE 802.11-2020 Table 9-1, as tshark's wlan.fc.type_subtype.
ASSOC_REQ, ASSOC_RESP, REASSOC_REQ, REASSOC_RESP = "0x0000", "0x0001", "0x0002", "0x0003"
BEACON, AUTH, DATA = "0x0008", "0x000b", "0x0020"


def test_handoff_capture_and_results(tmp_path: Path) -> None:
    tshark = require_tool("tshark")
    r = sctpsim("run", "wifi-handoff", "--out", str(tmp_path), "--pcap")
    assert r.returncode == 0, r.stderr
    pcap = tmp_path / "pcap"
    prefs = ["-o", "wlan.check_fcs:TRUE", "-o", "wlan.check_checksum:TRUE",
             "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
    names = sorted(p.name for p in pcap.glob("*.pcap"))
    assert {"AP1-wlan0-mac.pcap", "AP2-wlan0-mac.pcap", "STA-wlan0-mac.pcap"} <= set(names)
    for name in names:
        bad = subprocess.run([tshark, "-r", str(pcap / name), *prefs,
                              "-Y", "_ws.malformed || _ws.expert.severity >= error"],
                             capture_output=True, text=True)
        assert bad.returncode == 0, bad.stderr
        assert bad.stdout == "", f"{name}: {bad.stdout[:500]}"

    def fields(name: str, *f: str, filt: str | None = None) -> list[list[str]]:
        cmd = [tshark, "-r", str(pcap / name), *prefs, "-T", "fields"]
        for x in f:
            cmd += ["-e", x]
        if filt:
            cmd += ["-Y", filt]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return [line.split("\t") for line in out.splitlines()]

    sta = [row[0] for row in fields("STA-wlan0-mac.pcap", "wlan.fc.type_subtype")]
    # Beacons heard, open-system authentication, association with AP1, reassociation with AP2,
    # data throughout.
    assert {BEACON, AUTH, ASSOC_REQ, ASSOC_RESP, REASSOC_REQ, REASSOC_RESP, DATA} <= set(sta), set(sta)
    # Every (re)association response the station received reports success (status 0).
    status = fields("STA-wlan0-mac.pcap", "wlan.fixed.status_code",
                    filt=f"wlan.fc.type_subtype == {ASSOC_RESP} || wlan.fc.type_subtype == {REASSOC_RESP}")
    assert status and all(int(s[0], 0) == 0 for s in status), status
    # Both APs beacon with the SSID of the scenario.
    for ap in ("AP1", "AP2"):
        ssids = {row[0] for row in fields(f"{ap}-wlan0-mac.pcap", "wlan.ssid",
                                          filt=f"wlan.fc.type_subtype == {BEACON}")}
        # tshark prints the SSID as text or, in some versions, as hex octets.
        assert ssids in ({"sctpsim"}, {b"sctpsim".hex()}), (ap, ssids)

    s = json.loads((tmp_path / "summary.json").read_text())
    macs = {m["node"]: m for m in s["macs"]}
    assert macs["STA"]["associations"] == 1 and macs["STA"]["reassociations"] >= 1
    assert macs["AP2"]["reassociations"] >= 1
    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    assoc = ts[(ts.metric == "assoc") & (ts.scope == "node")]
    assert list(assoc.value)[:1] == [2.0] and list(assoc.value)[-1] == 3.0
    rssi = ts[ts.metric == "beacon_rssi_dbm"]
    assert set(rssi.dir) == {"AP1", "AP2"}
    assert s["flows"][0]["packets_delivered"] > 0.9 * s["flows"][0]["packets_sent"]
