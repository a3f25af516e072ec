#!/usr/bin/env python3
"""Build manet_tcp.cc against the installed ns-3 wheel and run it for each protocol and run
number, appending one CSV row per run (manet_tcp writes the row itself).

  python3 tools/ns3/run_manet_tcp.py --protocols aodv dsr --runs 1 \\
      --csv docs/models/data/ns3-argyriou-tcp.csv

A (protocol, run, duration, max speed, pause) already in the CSV is skipped. Runs are
sequential: the point of these runs is their CPU time, so they must not compete with each other.
"""

import argparse
import csv
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ns3build import build  # noqa: E402  (shared with run_manet.py)

HERE = Path(__file__).resolve().parent


def done_keys(path: Path):
    keys = set()
    if path.exists() and path.stat().st_size > 0:
        with path.open() as f:
            for row in csv.DictReader(f):
                keys.add((row["protocol"], int(row["run"]), float(row["duration_s"]),
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
    args = ap.parse_args()

    exe = build("manet_tcp", args.build_dir)
    done = done_keys(args.csv)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    for r in args.runs:
        for proto in args.protocols:
            key = (proto, r, args.duration, args.max_speed, args.pause)
            if key in done:
                print("already in the CSV:", key)
                continue
            cmd = [str(exe), f"--protocol={proto}", f"--run={r}",
                   f"--duration={args.duration}", f"--maxSpeed={args.max_speed}",
                   f"--pause={args.pause}", f"--csv={args.csv}", *args.extra]
            t0 = time.time()
            subprocess.run(cmd, check=True)
            print(f"{time.strftime('%H:%M:%S')} {proto} run {r}: {time.time() - t0:.0f} s",
                  flush=True)


if __name__ == "__main__":
    main()
