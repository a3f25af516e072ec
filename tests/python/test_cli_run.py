"""`sctpsim run`: outputs, the delivered rate under Bernoulli loss, determinism, captures,
Ctrl-C."""

from __future__ import annotations

import json
import math
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import EXAMPLES, REPO, default_sigint, require_tool, sctpsim

WIRED = str(EXAMPLES / "wired-cbr.toml")


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def test_wired_cbr_delivers_rate_minus_losses(tmp_path: Path) -> None:
    r = sctpsim("run", WIRED, "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    s = _summary(tmp_path)
    flow = s["flows"][0]
    p = 0.05  # link[1].loss.p in the example
    n = flow["packets_sent"]
    # 1 Mbit/s of 1000-byte payloads for 60 s.
    assert n == 7500
    se = math.sqrt(p * (1 - p) / n)
    assert abs(flow["delivered_fraction"] - (1 - p)) <= 3 * se
    assert abs(flow["goodput_bps"] - 1e6 * (1 - p)) <= 3 * se * 1e6
    for name in ("summary.json", "run.json", "flows.parquet", "links.parquet", "timeseries.parquet"):
        assert (tmp_path / name).is_file(), name
    flows = pd.read_parquet(tmp_path / "flows.parquet")
    assert list(flows.columns[:5]) == ["id", "transport", "app", "src", "dst"]
    assert flows.loc[0, "packets_delivered"] == flow["packets_delivered"]
    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    assert set(ts.columns) == {"time_s", "scope", "id", "dir", "metric", "value"}
    assert (ts.query("scope == 'flow' and metric == 'goodput_bps'").time_s.diff().dropna() == 1.0).all()
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["seed"] == 1 and len(manifest["scenario_hash"]) == 64


def test_set_overrides_change_the_run(tmp_path: Path) -> None:
    r = sctpsim("run", WIRED, "--out", str(tmp_path), "--set", "link[1].loss.p=0.3", "--set", "flows[0].rate=500kbps")
    assert r.returncode == 0, r.stderr
    flow = _summary(tmp_path)["flows"][0]
    assert flow["packets_sent"] == 3750
    assert abs(flow["delivered_fraction"] - 0.7) < 0.05


def test_same_seed_same_summary_other_seed_differs(tmp_path: Path) -> None:
    outs = []
    for name, seed in (("a", "4"), ("b", "4"), ("c", "5")):
        r = sctpsim("run", WIRED, "--out", str(tmp_path / name), "--seed", seed, "--quiet")
        assert r.returncode == 0, r.stderr
        s = _summary(tmp_path / name)
        s.pop("wall_time_s")
        outs.append(s)
    assert outs[0] == outs[1]
    assert outs[0] != outs[2]
    ts_a = pd.read_parquet(tmp_path / "a" / "timeseries.parquet")
    ts_b = pd.read_parquet(tmp_path / "b" / "timeseries.parquet")
    pd.testing.assert_frame_equal(ts_a, ts_b)


def test_captures_dissect_cleanly_in_tshark(tmp_path: Path) -> None:
    tshark = require_tool("tshark")
    r = sctpsim("run", WIRED, "--out", str(tmp_path), "--pcap", "--set", "simulation.duration=5s", "--set", "flows[0].stop=4s")
    assert r.returncode == 0, r.stderr
    pcaps = sorted((tmp_path / "pcap").glob("*.pcap"))
    assert [p.name for p in pcaps] == ["dst-eth0.pcap", "r-eth0.pcap", "r-eth1.pcap", "src-eth0.pcap"]
    for pcap in pcaps:
        base = [tshark, "-r", str(pcap), "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
        bad = subprocess.run([*base, "-Y", "_ws.malformed || _ws.expert.severity >= error"], capture_output=True, text=True)
        assert bad.returncode == 0, bad.stderr
        assert bad.stdout == "", f"{pcap.name}: {bad.stdout[:500]}"
        # ...and the capture is not empty: the filter had something to look at.
        count = subprocess.run([*base, "-Y", "udp"], capture_output=True, text=True)
        assert len(count.stdout.splitlines()) > 100


BROKEN = {
    "unknown field": ('[simulation]\nduration = "1s"\ncolour = "red"\n', "simulation.colour"),
    "wrong unit": ('[simulation]\nduration = "1Mbps"\n', "simulation.duration"),
    "missing node": (
        '[simulation]\nduration = "1s"\n[[node]]\nname = "a"\n[[link]]\nbetween = ["a", "ghost"]\n'
        'bandwidth = "1Mbps"\ndelay = "1ms"\n',
        "link[0].between[1]",
    ),
    "negative bandwidth": (
        '[simulation]\nduration = "1s"\n[[node]]\nname = "a"\n[[node]]\nname = "b"\n[[link]]\n'
        'between = ["a", "b"]\nbandwidth = "-1Mbps"\ndelay = "1ms"\n',
        "link[0].bandwidth",
    ),
    "zero duration": ('[simulation]\nduration = "0s"\n', "simulation.duration"),
    "malformed toml line": ('[simulation]\nduration = "1s"\nseed = = 3\n', "line 3"),
}


@pytest.mark.parametrize("command", ["run", "validate"])
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_scenarios_exit_2_with_one_line_naming_the_field(tmp_path: Path, command: str, case: str) -> None:
    text, where = BROKEN[case]
    path = tmp_path / "broken.toml"
    path.write_text(text)
    args = [command, str(path)] + (["--out", str(tmp_path / "out")] if command == "run" else [])
    r = sctpsim(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert where in lines[0]
    assert "Traceback" not in r.stderr and "panicked" not in r.stderr


def test_bad_set_and_unknown_scenario_file_exit_2(tmp_path: Path) -> None:
    r = sctpsim("run", WIRED, "--out", str(tmp_path), "--set", "flows[7].rate=1Mbps")
    assert r.returncode == 2 and "flows[7]" in r.stderr
    r = sctpsim("validate", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and "no such scenario file" in r.stderr
    r = sctpsim("run")
    assert r.returncode == 2


def test_validate_ok() -> None:
    r = sctpsim("validate", WIRED)
    assert r.returncode == 0, r.stderr
    assert "ok (3 nodes, 2 links, 1 flows" in r.stdout


def test_ctrl_c_stops_cleanly_and_keeps_what_was_measured(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sctpsim", "run", WIRED, "--out", str(out), "--quiet",
         "--set", "simulation.duration=200000s", "--set", "flows[0].stop=199999s"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint,
    )
    # The output directory is created just before the core starts; then let it run a little.
    deadline = time.monotonic() + 120
    while not out.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    stdout, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (stdout, err)
    assert "Traceback" not in err
    s = _summary(out)
    assert s["interrupted"] is True
    assert 0 < s["sim_time_s"] < 200000
    assert s["flows"][0]["packets_sent"] > 0


@pytest.mark.parametrize("seed", ["-5", "18446744073709551616", "1.5"])
def test_seed_out_of_range_exits_2_naming_seed_before_creating_anything(tmp_path: Path, seed: str) -> None:
    out = tmp_path / "out"
    r = sctpsim("run", WIRED, "--out", str(out), "--seed", seed)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--seed" in lines[0], r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists()


def test_largest_seed_is_accepted(tmp_path: Path) -> None:
    r = sctpsim("run", WIRED, "--out", str(tmp_path), "--quiet", "--seed", str(2**64 - 1),
                "--set", "simulation.duration=2s")
    assert r.returncode == 0, r.stderr
    assert _summary(tmp_path)["seed"] == 2**64 - 1


def _one_line_naming_out(r: subprocess.CompletedProcess[str]) -> None:
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--out" in lines[0], r.stderr
    assert "results written" not in r.stdout


def test_out_naming_a_file_or_a_path_under_a_file_exits_2_before_running(tmp_path: Path) -> None:
    f = tmp_path / "somefile"
    f.write_text("mine\n")
    _one_line_naming_out(sctpsim("run", WIRED, "--out", str(f), "--quiet"))
    _one_line_naming_out(sctpsim("run", WIRED, "--out", str(f / "sub"), "--quiet"))
    assert f.read_text() == "mine\n"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores directory permissions")
def test_unwritable_out_exits_2_before_running(tmp_path: Path) -> None:
    d = tmp_path / "ro"
    d.mkdir(mode=0o500)
    try:
        _one_line_naming_out(sctpsim("run", WIRED, "--out", str(d), "--quiet"))
        _one_line_naming_out(sctpsim("run", WIRED, "--out", str(d / "sub"), "--quiet"))
    finally:
        d.chmod(0o700)


def test_reused_out_holds_only_the_new_runs_outputs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    short = ["--quiet", "--set", "simulation.duration=2s"]
    r = sctpsim("run", str(EXAMPLES / "wifi-hidden-terminal.toml"), "--out", str(out), "--pcap", *short)
    assert r.returncode == 0, r.stderr
    assert (out / "macs.parquet").exists() and any((out / "pcap").glob("*.pcap"))
    (out / "notes.txt").write_text("mine\n")
    (out / "pcap" / "mine.txt").write_text("mine too\n")
    r = sctpsim("run", WIRED, "--out", str(out), *short)
    assert r.returncode == 0, r.stderr
    assert not (out / "macs.parquet").exists()
    assert not list((out / "pcap").glob("*.pcap")), "captures of the previous run are left"
    # Files sctpsim did not write are not its to remove.
    assert (out / "notes.txt").read_text() == "mine\n"
    assert (out / "pcap" / "mine.txt").exists()
    (out / "pcap" / "mine.txt").unlink()
    r = sctpsim("run", WIRED, "--out", str(out), "--pcap", *short)
    assert r.returncode == 0, r.stderr
    r = sctpsim("run", WIRED, "--out", str(out), *short)
    assert r.returncode == 0, r.stderr
    assert not (out / "pcap").exists()
    assert {p.name for p in out.iterdir()} >= {"summary.json", "run.json", "flows.parquet", "links.parquet",
                                               "timeseries.parquet", "notes.txt"}


def test_result_files_get_the_mode_the_umask_gives_a_new_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = sctpsim("run", WIRED, "--out", str(out), "--quiet", "--set", "simulation.duration=2s",
                preexec_fn=lambda: os.umask(0o022))
    assert r.returncode == 0, r.stderr
    files = [p for p in out.iterdir() if p.is_file()]
    assert files
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p.name


def test_sigterm_stops_like_ctrl_c_and_keeps_what_was_measured(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sctpsim", "run", str(EXAMPLES / "manet-cbr.toml"), "--out", str(out), "--quiet",
         "--set", "simulation.duration=900s"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while not out.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(2.0)
    assert proc.poll() is None, "the run ended before the signal; make it longer"
    proc.send_signal(signal.SIGTERM)
    stdout, err = proc.communicate(timeout=120)
    assert proc.returncode in (130, 143), (proc.returncode, stdout, err)
    assert "Traceback" not in err
    s = _summary(out)
    assert s["interrupted"] is True
    assert 0 < s["sim_time_s"] < 900


def test_run_json_records_the_build_the_scenario_the_command_and_the_time(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import sctpsim as api
    from sctpsim.sweep import code_version

    out = tmp_path / "r"
    r = sctpsim("run", "wired-cbr", "--out", str(out), "--set", "simulation.duration=3s", "--set", "flows[0].stop=2s", "--quiet")
    assert r.returncode == 0, r.stderr
    m = json.loads((out / "run.json").read_text())
    assert m["code_version"] == code_version()
    assert m["command"][:3] == ["sctpsim", "run", "wired-cbr"]
    assert "written_at" in m and m["written_at"].endswith("+00:00")
    # The directory reproduces the run on its own: same scenario hash from the stored text.
    sc = api.Scenario.from_string(m["scenario_text"]).with_(dict(m["overrides"]))
    assert sc.hash == m["scenario_hash"]


def test_quiet_prints_nothing_not_even_the_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    """Issue 35 item 9: `--quiet` printed `results written to ...` and, on a terminal, the bar."""
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "sctpsim", "run", WIRED, "--out", str(tmp_path), "--quiet",
             "--set", "simulation.duration=2s"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=slave, text=True, timeout=300,
        )
        os.close(slave)
        slave = -1
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert b"".join(chunks) == b""  # no progress bar on the terminal
    assert (tmp_path / "summary.json").is_file()


def test_a_second_run_into_a_directory_in_use_exits_2_naming_it(tmp_path: Path) -> None:
    """Issue 35 item 9: concurrent runs into one --out all reported success, the last one's
    files replacing the others'. The directory's lock is held here as a running sctpsim holds it."""
    from sctpsim import store

    out = tmp_path / "out"
    with store.out_dir_lock(out):
        r = sctpsim("run", WIRED, "--out", str(out), "--set", "simulation.duration=1s")
        assert r.returncode == 2, r.stdout + r.stderr
        (line,) = r.stderr.strip().splitlines()
        assert line.startswith(f"sctpsim: error: --out {out}: ") and f"pid {os.getpid()}" in line
        assert not (out / "summary.json").exists()
    assert not (out / store.LOCK_FILE).exists()  # released with the lock
    r = sctpsim("run", WIRED, "--out", str(out), "--quiet", "--set", "simulation.duration=1s")
    assert r.returncode == 0, r.stderr
    assert (out / "summary.json").is_file() and not (out / store.LOCK_FILE).exists()



def test_a_run_dropping_millions_of_packets_stays_bounded_and_says_so(tmp_path: Path) -> None:
    """Issue 35 item 1: wired-cbr at 100 Gbit/s made one time-series row per drop, 11.2 million a
    simulated second, and was killed at 3.5 GB. The series now stops at its bound during the run
    and the run says when; under a 4 GiB address-space limit it completes."""
    import resource

    text = (EXAMPLES / "wired-cbr.toml").read_text()
    sc = tmp_path / "cbr100.toml"
    sc.write_text("\n".join('rate = "100Gbps"' if ln.startswith("rate =") else ln for ln in text.splitlines()))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    out = tmp_path / "o"
    r = subprocess.run([sys.executable, "-m", "sctpsim", "run", str(sc), "--set", 'simulation.duration="1s"', "--out", str(out)],
                       capture_output=True, text=True, preexec_fn=limit, cwd=REPO)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "the time series reached its bound of 10,000,000 rows at t=0.8" in r.stderr, r.stderr
    s = _summary(out)
    assert 0.7 < s["timeseries_truncated_at_s"] < 1.0
    ts = pd.read_parquet(out / "timeseries.parquet", columns=["time_s"])
    assert len(ts) == 10_000_000
    assert ts.time_s.max() <= s["timeseries_truncated_at_s"]
