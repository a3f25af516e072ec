"""TCP through the CLI: captures dissect cleanly with TCP checksums verified, tcptrace reads
them and draws a time-sequence graph, no ACK carries more SACK blocks than configured."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import EXAMPLES, require_tool, sctpsim

SIX = str(EXAMPLES / "tcp-six-losses.toml")


def _run_sack(out: Path, blocks: int) -> list[Path]:
    r = sctpsim(
        "run", SIX, "--out", str(out), "--pcap", "--quiet",
        "--set", "flows[0].transport=tcp-sack",
        "--set", f"flows[0].tcp.max_sack_blocks={blocks}",
        "--set", "flows[0].tcp.timestamps=false",
        # Random loss on top of the scripted drops, so that ACKs carry many blocks.
        "--set", 'link[1].loss={ model = "bernoulli", p = 0.05, from = "FA" }',
    )
    assert r.returncode == 0, r.stderr
    return sorted((out / "pcap").glob("*.pcap"))


def test_tcp_captures_are_clean_and_tcptrace_reads_them(tmp_path: Path) -> None:
    tshark = require_tool("tshark")
    tcptrace = require_tool("tcptrace")
    pcaps = _run_sack(tmp_path, 4)
    for pcap in pcaps:
        bad = subprocess.run(
            [tshark, "-r", str(pcap), "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE",
             "-Y", "_ws.malformed || _ws.expert.severity >= error || tcp.checksum.status == 0"],
            capture_output=True, text=True,
        )
        assert bad.returncode == 0 and bad.stdout == "", f"{pcap.name}: {bad.stdout[:400]}"
    mh = tmp_path / "pcap" / "MH-eth0.pcap"
    workdir = tmp_path / "tcptrace"
    workdir.mkdir()
    r = subprocess.run([tcptrace, "-S", "-n", str(mh)], capture_output=True, text=True, cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert "1 TCP connection" in r.stdout or "TCP connection info" in r.stdout
    graph = workdir / "a2b_tsg.xpl"
    assert graph.is_file() and graph.stat().st_size > 10_000


@pytest.mark.parametrize("blocks", [1, 3])
def test_no_ack_carries_more_sack_blocks_than_configured(tmp_path: Path, blocks: int) -> None:
    tshark = require_tool("tshark")
    _run_sack(tmp_path, blocks)
    cn = tmp_path / "pcap" / "CN-eth0.pcap"
    r = subprocess.run(
        [tshark, "-r", str(cn), "-Y", "tcp.options.sack", "-T", "fields", "-e", "tcp.options.sack.count"],
        capture_output=True, text=True,
    )
    counts = [int(c) for line in r.stdout.split() for c in line.split(",") if c]
    assert counts, "the receiver must have sent SACK blocks"
    assert max(counts) == blocks


def test_sack1_with_ns2_2001_recovers_six_losses_without_a_timeout(tmp_path: Path) -> None:
    """ns-2's Agent/TCP/Sack1 with ns-2.1b8's defaults (the Mobile IP study's setup) repairs the
    six holes without a timeout; Reno with the same defaults needs one."""
    import sctpsim as api
    from sctpsim.verify.tcp import recovery_time_s

    base = api.Scenario.load(SIX)
    out = {}
    for transport in ("tcp-reno", "tcp-sack1"):
        res = api.run(base.with_({"flows[0].transport": transport, "flows[0].tcp.profile": "ns2-2001"}))
        out[transport] = (int(res.flows.iloc[0].timeouts), recovery_time_s(res.timeseries))
    assert out["tcp-reno"][0] >= 1 and out["tcp-sack1"][0] == 0, out
    assert out["tcp-reno"][1] > out["tcp-sack1"][1], out
