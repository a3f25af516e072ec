"""ns-3 3.44 reference runs of 802.11a rate adaptation (rate_control.cc): one saturated UDP
link at a range of distances and a saturated cell of n senders, for ConstantRate (54 Mbit/s),
ARF, AARF and Minstrel. Builds rate_control.cc with ns3build.py, runs the grid (resumable: a
row already in the CSV is skipped), and writes the per-point summary (mean and 95 % Student-t
CI of the runs).

    /work/venv-ns3/bin/python tools/ns3/run_rate_control.py \
        --csv docs/models/data/ns3-rate-control.csv
    /work/venv-ns3/bin/python tools/ns3/run_rate_control.py --summary docs/models/data/ns3-rate-control.csv
"""

import argparse
import csv
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ns3build  # noqa: E402

ALGOS = ["constant", "arf", "aarf", "minstrel"]
DISTANCES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
CELL = [5, 10]
CELL_RADIUS_M = 10

# Student-t 0.975 quantiles by degrees of freedom.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228}


def grid(args):
    pts = []
    for run in args.runs:
        for algo in args.algos:
            for d in args.distances:
                pts.append((algo, 1, float(d), run))
            for n in args.cell:
                pts.append((algo, n, float(CELL_RADIUS_M), run))
    return pts


def key(algo, stations, distance, run, duration):
    return (algo, int(stations), float(distance), int(run), float(duration))


def done_keys(path: Path):
    if not path.exists():
        return set()
    with path.open() as f:
        return {key(r["algo"], r["stations"], r["distance_m"], r["run"], r["duration_s"])
                for r in csv.DictReader(f)}


def summarize(csv_path: Path, out_path: Path):
    groups = {}
    with csv_path.open() as f:
        for r in csv.DictReader(f):
            k = (r["algo"], int(r["stations"]), float(r["distance_m"]))
            groups.setdefault(k, []).append(r)
    with out_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["algo", "stations", "distance_m", "runs", "throughput_mbps",
                    "throughput_ci95_mbps", "mean_data_rate_mbps", "mean_data_rate_ci95_mbps"])
        order = {a: i for i, a in enumerate(ALGOS)}
        for k in sorted(groups, key=lambda k: (k[1], order.get(k[0], 9), k[2])):
            rows = groups[k]
            out = [k[0], k[1], k[2], len(rows)]
            for col in ("throughput_bps", "mean_data_rate_bps"):
                xs = [float(r[col]) / 1e6 for r in rows]
                m = statistics.fmean(xs)
                ci = (T975.get(len(xs) - 1, 1.96) * statistics.stdev(xs) / math.sqrt(len(xs))
                      if len(xs) > 1 else float("nan"))
                out += [f"{m:.3f}", f"{ci:.3f}"]
            w.writerow(out)
    print("summary:", out_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=Path("ns3-rate-control.csv"))
    ap.add_argument("--summary", type=Path, help="only write the summary of this CSV")
    ap.add_argument("--algos", nargs="+", default=ALGOS)
    ap.add_argument("--distances", nargs="+", type=float, default=DISTANCES)
    ap.add_argument("--cell", nargs="*", type=int, default=CELL)
    ap.add_argument("--runs", nargs="+", type=int, default=[1, 2, 3])
    ap.add_argument("--duration", type=float, default=6.0)
    args = ap.parse_args()
    if args.summary:
        summarize(args.summary, args.summary.with_name(args.summary.stem + "-summary.csv"))
        return
    exe = ns3build.build("rate_control", Path(__file__).resolve().parent / "build")
    done = done_keys(args.csv)
    for algo, n, d, run in grid(args):
        if key(algo, n, d, run, args.duration) in done:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            one = Path(tmp) / "row.csv"
            cmd = [str(exe), f"--algo={algo}", f"--stations={n}", f"--distance={d}",
                   f"--run={run}", f"--duration={args.duration}", f"--csv={one}"]
            subprocess.run(cmd, check=True)
            lines = one.read_text().splitlines()
        new = not args.csv.exists() or args.csv.stat().st_size == 0
        with args.csv.open("a") as f:
            if new:
                f.write(lines[0] + "\n")
            f.write(lines[1] + "\n")
        print(lines[1], flush=True)
    summarize(args.csv, args.csv.with_name(args.csv.stem + "-summary.csv"))


if __name__ == "__main__":
    main()
