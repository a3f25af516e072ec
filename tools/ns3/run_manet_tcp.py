#!/usr/bin/env python3
"""Build manet_tcp.cc against the installed ns-3 wheel and run it for each protocol and run
number, appending one CSV row per run (manet_tcp writes the row itself).

  python3 tools/ns3/run_manet_tcp.py --protocols aodv dsr --runs 1 \\
      --csv docs/models/data/ns3-argyriou-tcp.csv

  # the same scenario in sctpsim (time_scenario example), rows in the same format:
  python3 tools/ns3/run_manet_tcp.py --sctpsim target/release/examples/time_scenario \\
      --protocols aodv dsr --runs 1 2 3 --csv docs/models/data/ns3-argyriou-tcp.csv

A (simulator, protocol, run, duration, max speed, pause) already in the CSV is skipped. Runs
are sequential: the point of these runs is their CPU time, so they must not compete with each
other. The 1-minute load average before and after each run is printed (the machine is shared).
"""

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ns3build import build  # noqa: E402  (shared with run_manet.py)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCENARIO = REPO / "python/sctpsim/scenarios/argyriou2004/manet.toml"
HEADER = ("simulator,protocol,run,duration_s,pairs,max_speed_mps,pause_s,mean_kbps,median_kbps,"
          "zero_flows,data_segments_sent,data_segments_delivered,ip_pdf,routing_packets,"
          "routing_bytes,wall_s,user_cpu_s,per_flow_kbps")


def done_keys(path: Path):
    keys = set()
    if path.exists() and path.stat().st_size > 0:
        with path.open() as f:
            for row in csv.DictReader(f):
                keys.add((row["simulator"], row["protocol"], int(row["run"]), float(row["duration_s"]),
                          float(row["max_speed_mps"]), float(row["pause_s"])))
    return keys


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=Path("ns3-manet-tcp.csv"))
    ap.add_argument("--build-dir", type=Path, default=HERE / "build")
    ap.add_argument("--protocols", nargs="+", default=["aodv", "dsr"])
    ap.add_argument("--runs", nargs="+", type=int, default=[1])
    ap.add_argument("--duration", type=float, default=200.0)
    ap.add_argument("--max-speed", type=float, default=20.0)
    ap.add_argument("--pause", type=float, default=0.0)
    ap.add_argument("--extra", nargs="*", default=[],
                    help="further manet_tcp options, e.g. --extra=--pairs=10")
    ap.add_argument("--sctpsim", type=Path, metavar="TIME_SCENARIO",
                    help="run sctpsim's time_scenario example on argyriou2004/manet.toml "
                         "instead of ns-3 (cargo build --release -p sctpsim-engine --example "
                         "time_scenario)")
    args = ap.parse_args()

    exe = args.sctpsim or build("manet_tcp", args.build_dir)
    sim = "sctpsim" if args.sctpsim else "ns-3.44"
    done = done_keys(args.csv)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    for r in args.runs:
        for proto in args.protocols:
            key = (sim, proto, r, args.duration, args.max_speed, args.pause)
            if key in done:
                print("already in the CSV:", key)
                continue
            load0 = os.getloadavg()[0]
            t0 = time.time()
            if args.sctpsim:
                run_sctpsim(args, proto, r)
            else:
                cmd = [str(exe), f"--protocol={proto}", f"--run={r}",
                       f"--duration={args.duration}", f"--maxSpeed={args.max_speed}",
                       f"--pause={args.pause}", f"--csv={args.csv}", *args.extra]
                subprocess.run(cmd, check=True)
            print(f"{time.strftime('%H:%M:%S')} {sim} {proto} run {r}: {time.time() - t0:.0f} s"
                  f" wall, load {load0:.2f} before, {os.getloadavg()[0]:.2f} after", flush=True)


def run_sctpsim(args, proto, seed):
    """One sctpsim run under /usr/bin/time -v; appends a row in manet_tcp's format.

    TCP as in manet_tcp.cc: NewReno (`tcp-newreno`, the `rfc` profile) with 1000-byte
    segments. Goodput is the summary's `goodput_bps` (bytes delivered to the sink x 8 / (end -
    start)), delivery the flows' data segments received / sent, routing packets the sum of
    `tx_packets` over the routing summary (originated and relayed)."""
    summary = args.csv.with_name(f".sctpsim-{proto}-{seed}.json")
    cmd = ["/usr/bin/time", "-v", str(args.sctpsim), str(SCENARIO),
           "--set", "flows[0].transport=tcp-newreno", "--set", "flows[0].tcp.mss_bytes=1000",
           "--set", f"routing.protocol={proto}", "--set", f"simulation.seed={seed}",
           "--set", f"simulation.duration={args.duration:g}s",
           "--set", f"mobility.speed_mps.max={args.max_speed:g}",
           "--set", f"mobility.pause={args.pause:g}s",
           "--repeat", "1", "--summary", str(summary)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    user = float(re.search(r"User time \(seconds\): ([0-9.]+)", res.stderr).group(1))
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([0-9:.]+)", res.stderr)
    wall = 0.0
    for part in m.group(1).split(":"):
        wall = wall * 60 + float(part)
    d = json.loads(summary.read_text())
    summary.unlink()
    kbps = [f["goodput_bps"] / 1000.0 for f in d["flows"]]
    sent = sum(f["packets_sent"] for f in d["flows"])
    got = sum(f["packets_delivered"] for f in d["flows"])
    rtg = sum(x["tx_packets"] for x in d["routing"])
    row = ["sctpsim", proto, seed, f"{args.duration:g}", len(kbps), f"{args.max_speed:g}",
           f"{args.pause:g}", f"{statistics.mean(kbps):.3f}", f"{statistics.median(kbps):.3f}",
           sum(1 for k in kbps if k == 0), sent, got, f"{got / sent:.6g}" if sent else "",
           rtg, "", f"{wall:.2f}", f"{user:.2f}", ";".join(f"{k:.3f}" for k in kbps)]
    new = not args.csv.exists() or args.csv.stat().st_size == 0
    with args.csv.open("a") as f:
        if new:
            f.write(HEADER + "\n")
        f.write(",".join(str(x) for x in row) + "\n")
    print(",".join(str(x) for x in row[:17]))


if __name__ == "__main__":
    main()
