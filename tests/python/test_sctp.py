"""SCTP through the CLI: the failover example (path switch away from the failed primary and
back, per-path rows, outage drops), multi-streaming, the ASCONF handover example, and captures
that tshark dissects with the CRC32c checked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd

from conftest import EXAMPLES, require_tool, sctpsim

FAILOVER = str(EXAMPLES / "sctp-failover.toml")
STREAMS = str(EXAMPLES / "sctp-streams.toml")
ASCONF = str(EXAMPLES / "sctp-asconf.toml")
PRIMARY, ALTERNATE = "10.0.1.2", "10.0.3.2"


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def test_failover_example_switches_paths_and_returns(tmp_path: Path) -> None:
    r = sctpsim("run", FAILOVER, "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "path switches 2" in r.stdout
    s = _summary(tmp_path)
    a = s["sctp"][0]
    assert a["peer_addresses"] == [PRIMARY, ALTERNATE]
    assert a["path_switches"] == 2 and a["current_path"] == PRIMARY
    assert a["retransmissions_to_alternate"] > 0 and a["delivery_errors"] == 0
    assert s["flows"][0]["transport"] == "sctp" and s["flows"][0]["timeouts"] >= 3
    link = next(l for l in s["links"] if l["id"] == 1 and l["dir"] == "fwd")
    assert link["outage_drops"] > 0 and s["network"]["outage_drops"] >= link["outage_drops"]

    paths = pd.read_parquet(tmp_path / "paths.parquet")
    sender = paths[paths.side == "sender"].set_index("addr")
    assert sender.loc[PRIMARY, "times_down"] == 1 and bool(sender.loc[PRIMARY, "primary"])
    assert sender.loc[ALTERNATE, "data_chunks_sent"] > 1000
    assert (tmp_path / "sctp.parquet").is_file() and (tmp_path / "streams.parquet").is_file()

    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    switches = ts.query("metric == 'path_switch'").sort_values("time_s")
    assert list(switches.dir) == [ALTERNATE, PRIMARY]
    t_fail, t_back = switches.time_s.tolist()
    assert 10 < t_fail < 25 and 30 < t_back < 45
    # TSN-vs-time by path: new data on the alternate between the switches, on the primary after.
    sent = ts.query("metric == 'tsn_sent'")
    assert set(sent[(sent.time_s > t_fail) & (sent.time_s < t_back)].dir) == {ALTERNATE}
    assert set(sent[sent.time_s > t_back + 1].dir) == {PRIMARY}
    cwnd = ts.query("metric == 'cwnd_bytes'")
    assert set(cwnd.dir) == {PRIMARY, ALTERNATE}
    # Delivery continues through the outage.
    delivered = ts.query("metric == 'bytes_delivered'").set_index("time_s").value
    assert delivered.loc[25.0] > delivered.loc[12.0]


def test_streams_example_reports_per_stream_delay(tmp_path: Path) -> None:
    r = sctpsim("run", STREAMS, "--out", str(tmp_path), "--quiet", "--set", "flows[0].messages.streams=3",
                "--set", "simulation.duration=20s")
    assert r.returncode == 0, r.stderr
    streams = pd.read_parquet(tmp_path / "streams.parquet")
    assert list(streams.stream) == [0, 1, 2]
    assert (streams.messages_delivered > 0).all() and streams.mean_delay_s.notna().all()
    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    assert set(ts.query("metric == 'message_delay_s'").dir) == {"stream0", "stream1", "stream2"}


def test_sctp_captures_dissect_with_crc32c_checked(tmp_path: Path) -> None:
    tshark = require_tool("tshark")
    runs = [
        (FAILOVER, ["--set", "simulation.duration=35s"]),
        # Losses, gap blocks, unordered and abandoned messages (FORWARD TSN).
        (STREAMS, ["--set", "simulation.duration=10s", "--set", "flows[0].messages.streams=3",
                   "--set", "flows[0].messages.lifetime=100ms", "--set", "link[1].loss.p=0.1"]),
    ]
    chunk_types: set[str] = set()
    for k, (scenario, sets) in enumerate(runs):
        out = tmp_path / str(k)
        r = sctpsim("run", scenario, "--out", str(out), "--pcap", "--quiet", *sets)
        assert r.returncode == 0, r.stderr
        pcaps = sorted((out / "pcap").glob("*.pcap"))
        assert pcaps
        for pcap in pcaps:
            bad = subprocess.run(
                [tshark, "-r", str(pcap), "-o", "sctp.checksum:CRC-32C", "-o", "ip.check_checksum:TRUE",
                 "-Y", "_ws.malformed || _ws.expert.severity >= error || sctp.checksum.status == 0"],
                capture_output=True, text=True,
            )
            assert bad.returncode == 0 and bad.stdout == "", f"{pcap.name}: {bad.stdout[:400]} {bad.stderr[:400]}"
        a = out / "pcap" / "A-eth0.pcap"
        good = subprocess.run(
            [tshark, "-r", str(a), "-o", "sctp.checksum:CRC-32C", "-Y", "sctp",
             "-T", "fields", "-e", "sctp.checksum.status", "-e", "sctp.chunk_type"],
            capture_output=True, text=True,
        )
        lines = [line.split("\t") for line in good.stdout.splitlines()]
        assert len(lines) > 100
        assert all(status == "1" for status, _ in lines), "every CRC32c verified good"
        chunk_types |= {t for _, types in lines for t in types.split(",")}
    # DATA, INIT, INIT ACK, SACK, HEARTBEAT, HEARTBEAT ACK, COOKIE ECHO, COOKIE ACK, FORWARD TSN.
    assert {"0", "1", "2", "3", "4", "5", "10", "11", "192"} <= chunk_types, chunk_types


# tshark display filter for anything wrong: a malformed packet, an expert error (bad IP
# checksum with ip.check_checksum, ...), or an SCTP checksum verified bad.
BAD = ("_ws.malformed || _ws.expert.severity >= error || sctp.checksum.status == 0"
       " || sctp.checksum_bad.expert || ip.checksum_bad.expert")


def test_asconf_handover_capture_has_asconf_chunks_and_no_errors(tmp_path: Path) -> None:
    """B adds 10.0.3.2, makes it A's primary and deletes 10.0.1.2 while a 4 MB file flows:
    the capture shows ASCONF and ASCONF-ACK chunks, tshark finds nothing malformed and every
    CRC32c good, and the file arrives exactly once and in order."""
    tshark = require_tool("tshark")
    r = sctpsim("run", ASCONF, "--out", str(tmp_path), "--pcap", "--quiet")
    assert r.returncode == 0, r.stderr
    s = _summary(tmp_path)
    a, flow = s["sctp"][0], s["flows"][0]
    assert flow["bytes_delivered"] == 4_000_000 and flow["reordered"] == 0
    assert a["delivery_errors"] == 0 and a["messages_delivered"] == a["messages_sent"]
    assert a["state"] == "CLOSED" and a["current_path"] == ALTERNATE

    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    outcome = {m: ts.query("metric == @m")[["dir", "value"]].values.tolist()
               for m in ("asconf_add_ip", "asconf_set_primary", "asconf_delete_ip")}
    assert outcome == {"asconf_add_ip": [[ALTERNATE, 1.0]], "asconf_set_primary": [[ALTERNATE, 1.0]],
                       "asconf_delete_ip": [[PRIMARY, 1.0]]}
    sent = ts.query("metric == 'tsn_sent'")
    assert set(sent[sent.time_s < 5].dir) == {PRIMARY} and set(sent[sent.time_s > 9].dir) == {ALTERNATE}

    pcaps = sorted((tmp_path / "pcap").glob("*.pcap"))
    assert pcaps
    chunk_types: list[str] = []
    for pcap in pcaps:
        bad = subprocess.run(
            [tshark, "-r", str(pcap), "-o", "sctp.checksum:CRC-32C", "-o", "ip.check_checksum:TRUE",
             "-Y", BAD],
            capture_output=True, text=True,
        )
        assert bad.returncode == 0 and bad.stdout == "", f"{pcap.name}: {bad.stdout[:400]} {bad.stderr[:400]}"
        good = subprocess.run(
            [tshark, "-r", str(pcap), "-o", "sctp.checksum:CRC-32C", "-Y", "sctp",
             "-T", "fields", "-e", "sctp.checksum.status", "-e", "sctp.chunk_type"],
            capture_output=True, text=True,
        )
        assert good.returncode == 0, good.stderr
        lines = [line.split("\t") for line in good.stdout.splitlines()]
        assert all(status == "1" for status, _ in lines), f"{pcap.name}: every CRC32c verified good"
        chunk_types += [t for _, types in lines for t in types.split(",")]
    # ASCONF (193) and ASCONF-ACK (128): one of each per request at least (each capture point
    # on the way sees them), and data on both of B's addresses.
    assert chunk_types.count("193") >= 3 and chunk_types.count("128") >= 3, chunk_types.count("193")
    # The Delete IP request does not come from the address it deletes (RFC 5061 §5.2).
    src = subprocess.run([tshark, "-r", str(tmp_path / "pcap" / "B-eth0.pcap"), "-Y", "sctp.chunk_type == 193",
                          "-T", "fields", "-e", "ip.src"],
                         capture_output=True, text=True)
    assert src.returncode == 0, src.stderr
    assert src.stdout.split() == [PRIMARY, PRIMARY, ALTERNATE]
