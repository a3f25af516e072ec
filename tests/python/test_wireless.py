"""The wireless channel from Python and the CLI: `--set` on the saturation example, MAC-level
captures checked by tshark, the channel benchmark, and Bianchi's model against ns-3's tables."""

from __future__ import annotations

import json
import re
import struct
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from conftest import require_tool, sctpsim

from sctpsim.verify.models import bianchi, wifi_busy_periods_us, wifi_exchange_times_us
from sctpsim.verify.wireless import NS3_BIANCHI_DIFS, NS3_BIANCHI_EIFS


def test_saturation_example_with_set(tmp_path: Path) -> None:
    r = sctpsim(
        "run", "wifi-saturation", "--out", str(tmp_path),
        "--set", "nodes.count=6", "--set", "radio.data_rate=1Mbps",
        "--set", "radio.rts_threshold_bytes=0", "--set", "simulation.duration=5s",
    )
    assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "summary.json").read_text())
    assert len(s["flows"]) == 5 and {f["dst"] for f in s["flows"]} == {"n0"}
    assert [m["node"] for m in s["macs"]] == [f"n{i}" for i in range(6)]
    senders = s["macs"][1:]
    # RTS/CTS on: every data frame was preceded by an RTS; the interface queues overflowed.
    assert all(m["tx_rts"] >= m["tx_data"] > 0 for m in senders)
    assert s["network"]["queue_drops"] > 0
    # Five saturated stations at 1 Mbit/s with RTS/CTS: about 0.88 Mbit/s of IP packets.
    ip_bps = sum(f["bytes_delivered"] for f in s["flows"]) * 1500 / 1472 * 8 / 5
    assert 0.75e6 < ip_bps < 0.95e6
    macs = pd.read_parquet(tmp_path / "macs.parquet")
    assert list(macs.node) == [f"n{i}" for i in range(6)]
    assert (macs.collision_probability[1:] > 0.05).all()


def test_bad_wireless_field_is_exit_2_and_names_the_path() -> None:
    r = sctpsim("run", "wifi-saturation", "--set", "radio.data_rate=54Mbps")
    assert r.returncode == 2
    assert "radio.data_rate" in r.stderr


@pytest.mark.parametrize(
    ("radio", "field"),
    [
        ('tx_power = "-1W"', "radio.tx_power"),
        ('rx_thresh = "-70dBm"\ncs_thresh = "-60dBm"', "radio.cs_thresh"),
        ('profile = "80211b"\ndata_rate = "3Mbps"', "radio.data_rate"),
        ('profile = "80211b"\nbasic_rate = "6Mbps"', "radio.basic_rate"),
        ("cw_min = 63\ncw_max = 31", "radio.cw_max"),
        ("antenna_height_m = 0.0", "radio.antenna_height_m"),
    ],
)
def test_validate_rejects_bad_radio_parameters_naming_the_field(tmp_path: Path, radio: str, field: str) -> None:
    text = f"""[simulation]
duration = "1s"
[radio]
{radio}
[nodes]
count = 2
[mobility]
placement = "line"
spacing_m = 100
[[flows]]
src = "n0"
dst = "n1"
app = "cbr"
rate = "100kbps"
"""
    path = tmp_path / "bad.toml"
    path.write_text(text)
    r = sctpsim("validate", str(path))
    assert r.returncode == 2
    assert field + ":" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def _linktype(path: Path) -> int:
    return struct.unpack("<I", path.read_bytes()[20:24])[0]


def test_mac_captures_dissect_cleanly_in_tshark(tmp_path: Path) -> None:
    tshark = require_tool("tshark")
    r = sctpsim("run", "wifi-hidden-terminal", "--out", str(tmp_path), "--pcap", "--set", "simulation.duration=2s")
    assert r.returncode == 0, r.stderr
    pcaps = sorted(p.name for p in (tmp_path / "pcap").glob("*.pcap"))
    assert pcaps == [f"{n}-wlan0{s}.pcap" for n in "ABC" for s in ("-mac", "")]
    for name in pcaps:
        path = tmp_path / "pcap" / name
        mac = name.endswith("-mac.pcap")
        # MAC level: LINKTYPE_IEEE802_11_RADIOTAP (127); IP level stays LINKTYPE_RAW (101).
        assert _linktype(path) == (127 if mac else 101)
        prefs = ["-o", "wlan.check_fcs:TRUE", "-o", "wlan.check_checksum:TRUE",
                 "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
        base = [tshark, "-r", str(path), *prefs]
        bad = subprocess.run([*base, "-Y", "_ws.malformed || _ws.expert.severity >= error"],
                             capture_output=True, text=True)
        assert bad.returncode == 0, bad.stderr
        assert bad.stdout == "", f"{name}: {bad.stdout[:500]}"
        if mac:
            fcs = subprocess.run([*base, "-T", "fields", "-e", "wlan.fcs.status"], capture_output=True, text=True)
            statuses = fcs.stdout.split()
            assert len(statuses) > 100 and set(statuses) == {"1"}, name  # 1 = Good
            kinds = subprocess.run([*base, "-T", "fields", "-e", "wlan.fc.type_subtype"],
                                   capture_output=True, text=True).stdout.split()
            # RTS (0x1b), CTS (0x1c), Ack (0x1d) and data (0x20) all appear at every station.
            assert {"0x001b", "0x001c", "0x001d", "0x0020"} <= set(kinds), (name, set(kinds))
        else:
            udp = subprocess.run([*base, "-Y", "udp"], capture_output=True, text=True)
            assert len(udp.stdout.splitlines()) > 50


def test_bench_channel_prints_one_key_value_line_per_case() -> None:
    r = sctpsim("bench", "channel", "--nodes", "16,64", "--frames", "20000")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 2
    for line, n in zip(lines, (16, 64)):
        m = re.fullmatch(
            r"nodes=(\d+) sim_s=[\d.]+ frames=(\d+) arrivals=\d+ arrivals_per_frame=[\d.]+ events=\d+ "
            r"seconds=[\d.]+ frames_per_s=\d+",
            line,
        )
        assert m, line
        assert int(m.group(1)) == n and int(m.group(2)) > 10_000
    assert sctpsim("bench", "channel", "--nodes", "1").returncode == 2


def test_bench_scaling_prints_key_value_lines_and_the_ratio() -> None:
    r = sctpsim("bench", "scaling", "--nodes", "20,80", "--sim-time", "10", "--min-cpu", "0")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 3
    for line, n in zip(lines, (20, 80)):
        kv = dict(item.split("=") for item in line.split())
        assert int(kv["nodes"]) == n
        assert float(kv["sim_s"]) == 10
        # 10 s / 3.5 s per beacon on average; about 10 neighbours hear each (fewer near the
        # borders of a small area).
        assert 1.5 * n < int(kv["beacons"]) < 5 * n
        assert 3 < float(kv["received_per_beacon"]) < 12
        assert float(kv["wall_s_per_sim_s_per_node"]) > 0
        assert float(kv["cpu_s_per_sim_s_per_node"]) >= 0
        assert kv["repeats"] == "1"
    assert re.fullmatch(r"wall_ratio_largest_to_smallest=[\d.]+ cpu_ratio_largest_to_smallest=[\d.]+", lines[2])
    assert sctpsim("bench", "scaling", "--sim-time", "0").returncode == 2
    assert sctpsim("bench", "scaling", "--min-cpu", "-1").returncode == 2


def test_bench_scaling_repeats_a_short_case_and_checks_it_repeats_exactly() -> None:
    from sctpsim.bench_scaling import run_case_repeated

    c = run_case_repeated(20, 5.0, min_cpu_s=1e9, max_repeats=3)
    assert c["repeats"] == 3
    once = run_case_repeated(20, 5.0)
    assert once["repeats"] == 1 and once["events"] == c["events"]


@pytest.mark.parametrize("rate", [1, 2, 11])
def test_bianchi_model_reproduces_the_ns3_reference(rate: int) -> None:
    # ns-3's generate_bianchi.m: DATA 12480 / 6336 / 1310 µs, Ack 304 / 248 / 248 µs; the EIFS
    # variant ends a collision with SIFS + Ack + DIFS (+ 0.1 µs), the DIFS variant with DIFS.
    # ns-3 solves the fixed point on a 1e-4 grid of τ; the exact solution differs by < 0.05 %.
    basic = [1.0] if rate == 1 else [1.0, 2.0]
    x = wifi_exchange_times_us("dsss", "dsss", rate, basic, 1500)
    assert (x["data"], x["ack"]) == {1: (12480, 304), 2: (6336, 248), 11: (1310, 248)}[rate]
    ts = x["data"] + x["sifs"] + x["ack"] + x["difs"]
    for n, ref in NS3_BIANCHI_EIFS[rate].items():
        tc = x["data"] + x["difs"] + x["sifs"] + x["ack"] + 0.1
        s, _, _ = bianchi(n, payload_bits=12000, slot_s=20e-6, ts_s=(ts + 0.1) * 1e-6, tc_s=tc * 1e-6,
                          ns3_modified=True)
        assert abs(s / 1e6 - ref) / ref < 5e-4, (n, s, ref)
    for n, ref in NS3_BIANCHI_DIFS[rate].items():
        s, _, _ = bianchi(n, payload_bits=12000, slot_s=20e-6, ts_s=ts * 1e-6,
                          tc_s=(x["data"] + x["difs"]) * 1e-6, ns3_modified=True)
        assert abs(s / 1e6 - ref) / ref < 5e-4, (n, s, ref)


def test_bianchi_p_and_the_original_model() -> None:
    x = wifi_exchange_times_us("dsss", "dsss", 1.0, [1.0], 1500)
    ts, tc = wifi_busy_periods_us(x, rts=False)
    for n, p_ref in {5: 0.178, 10: 0.290, 20: 0.399, 50: 0.532}.items():
        s, p, tau = bianchi(n, payload_bits=12000, slot_s=20e-6, ts_s=ts * 1e-6, tc_s=tc * 1e-6)
        assert abs(p - p_ref) < 0.0006
        assert abs(p - (1 - (1 - tau) ** (n - 1))) < 1e-12
        # The original model and ns-3's modified one differ by well under 1 % here.
        assert abs(s / 1e6 - NS3_BIANCHI_EIFS[1][n]) / NS3_BIANCHI_EIFS[1][n] < 0.01
