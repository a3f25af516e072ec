"""`radio.rate_control`: a bad name exits 2 naming the field; `sctpsim verify rate-control --quick`
(the link against ns-3 3.44) passes."""

from __future__ import annotations

import json
import re

from conftest import sctpsim


def test_unknown_algorithm_exits_2_naming_the_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = sctpsim("run", "wifi-saturation", "--set", 'radio.rate_control="foo"', "--out", str(tmp_path / "o"))
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'radio.rate_control: unknown algorithm "foo"; expected constant, arf, aarf or minstrel' in r.stderr


def test_verify_rate_control_quick() -> None:
    r = sctpsim("verify", "rate-control", "--quick")
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"7 passed, 0 failed", last), last


#: Ten nodes with AODV on the 80211b profile and nothing else about the radio (issue 35 item 2):
#: at a constant 11 Mbit/s route discovery (1 Mbit/s broadcasts) finds routes the data cannot use.
AODV_80211B = """
[simulation]
duration = "30s"
[radio]
profile = "80211b"
[nodes]
count = 10
[mobility]
model = "random-waypoint"
area_m = [500, 500]
speed_mps = { min = 1.0, max = 5.0 }
[routing]
protocol = "aodv"
[[flows]]
pairs = 2
app = "cbr"
rate = "200kbps"
"""


def test_ieee_profiles_adapt_their_rate_by_default(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sc = tmp_path / "aodv.toml"
    sc.write_text(AODV_80211B)
    r = sctpsim("run", str(sc), "--out", str(tmp_path / "minstrel"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning" not in r.stderr, r.stderr
    flows = json.loads((tmp_path / "minstrel" / "summary.json").read_text())["flows"]
    assert all(f["delivered_fraction"] > 0.5 for f in flows), flows
    r = sctpsim("show", str(sc))
    assert re.search(r"radio\.rate_control\s+minstrel\s.*profile 80211b: minstrel unless data_rate given", r.stdout), r.stdout


def test_a_flow_that_delivers_nothing_is_named_with_its_drop_reason(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sc = tmp_path / "aodv.toml"
    sc.write_text(AODV_80211B)
    r = sctpsim("run", str(sc), "--set", 'radio.data_rate="11Mbps"', "--out", str(tmp_path / "fixed"))
    assert r.returncode == 0, r.stdout + r.stderr
    flows = json.loads((tmp_path / "fixed" / "summary.json").read_text())["flows"]
    assert [f["packets_delivered"] for f in flows] == [0, 0]
    lines = [ln for ln in r.stderr.splitlines() if "delivered nothing" in ln]
    assert len(lines) == 2, r.stderr
    assert all("(send_buffer_full)" in ln and "radio.rate_control" in ln for ln in lines), lines
