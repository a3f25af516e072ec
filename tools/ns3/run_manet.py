#!/usr/bin/env python3
"""Build manet_cbr.cc against the installed ns-3 wheel (pip install ns3==3.44.post0) and run a
grid of the classic MANET CBR scenario, appending one CSV row per run.

Resumable: a (protocol, sources, pause, run, duration) already in the CSV is skipped.
Runs are ordered replication-major (every grid point gets run 1 before any gets run 2), so a
partial grid is still usable.

  python3 tools/ns3/run_manet.py --quick                       # tiny smoke grid (60 s)
  python3 tools/ns3/run_manet.py --jobs 1 --csv docs/models/data/ns3-manet-cbr.csv
  python3 tools/ns3/run_manet.py --jobs 1 --csv docs/models/data/ns3-manet-cbr-dsdv.csv \\
      --protocols dsdv --sources 10 --pauses 0 900 --runs 1 2 3 --no-hello
  python3 tools/ns3/run_manet.py --summary docs/models/data/ns3-manet-cbr.csv \\
      --summary-out docs/models/data/ns3-manet-cbr-summary.csv   # only summarise
"""

import argparse
import csv
import math
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ns3build import build  # noqa: E402  (shared with run_manet_tcp.py)

HERE = Path(__file__).resolve().parent
KEY = ("protocol", "sources", "pause_s", "run", "duration_s")


def fmt_pause(p):
    return f"{float(p):g}"


def done_keys(path: Path):
    keys = set()
    if path.exists() and path.stat().st_size > 0:
        with path.open() as f:
            for row in csv.DictReader(f):
                keys.add((row["protocol"], int(row["sources"]), fmt_pause(row["pause_s"]),
                          int(row["run"]), fmt_pause(row["duration_s"])))
    return keys


def grid(args):
    """Replication-major, most informative points first within a replication."""
    pts = []
    for r in args.runs:
        for s in args.sources:
            for p in args.pauses:
                for proto in args.protocols:
                    pts.append((proto, s, p, r))
        if args.hello:
            for s in args.sources:
                for p in args.hello_pauses:
                    pts.append(("aodv-hello", s, p, r))
    return pts


def run_one(exe: Path, pt, duration, tmpdir, diag: bool):
    proto, s, p, r = pt
    out = Path(tmpdir) / f"{proto}-{s}-{fmt_pause(p)}-{r}.csv"
    dout = out.with_suffix(".diag.csv")
    for f in (out, dout):
        if f.exists():
            f.unlink()
    cmd = [str(exe), f"--protocol={'aodv' if proto.startswith('aodv') else proto}",
           f"--sources={s}", f"--pause={p}", f"--run={r}", f"--duration={duration}",
           f"--hello={1 if proto == 'aodv-hello' else 0}", f"--csv={out}",
           # ns-3's own random waypoint: every node first pauses, as sctpsim's model, ns-2
           # setdest and Broch et al. do (pause 900 s = a static network).
           "--ns3Rwp=1"]
    if diag:
        cmd.append(f"--diagCsv={dout}")
    t0 = time.time()
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{cmd} failed:\n{res.stderr[-2000:]}")
    lines = out.read_text().splitlines()
    out.unlink()
    dlines = []
    if diag:
        dlines = dout.read_text().splitlines()
        dout.unlink()
    return pt, lines, dlines, time.time() - t0


def append_rows(path: Path, lines):
    """Append CSV lines (header first) to path, dropping the header if the file has one."""
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a") as f:
        f.write("\n".join(lines if new else lines[1:]) + "\n")


T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228}


def summarize(csv_path: Path, out_path: Path):
    rows = list(csv.DictReader(csv_path.open()))
    groups = {}
    for row in rows:
        k = (row["protocol"], int(row["sources"]), float(row["pause_s"]),
             float(row["duration_s"]))
        groups.setdefault(k, []).append(row)
    metrics = [("pdf", "pdf"), ("routing_packets", "routing_packets"), ("nrl", "nrl"),
               ("mean_delay_s", "mean_delay_s")]
    header = ["protocol", "sources", "pause_s", "duration_s", "n"]
    for m, _ in metrics:
        header += [f"{m}_mean", f"{m}_ci95"]
    header += ["wall_s_mean"]
    with out_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for k in sorted(groups):
            g = groups[k]
            n = len(g)
            line = [k[0], k[1], f"{k[2]:g}", f"{k[3]:g}", n]
            for _, col in metrics:
                xs = [float(x[col]) for x in g]
                mean = sum(xs) / n
                if n > 1:
                    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
                    ci = T975.get(n - 1, 1.96) * sd / math.sqrt(n)
                    line += [f"{mean:.6g}", f"{ci:.4g}"]
                else:
                    line += [f"{mean:.6g}", ""]
            line.append(f"{sum(float(x['wall_s']) for x in g) / n:.1f}")
            w.writerow(line)
    print(f"summary: {out_path} ({len(groups)} points)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=Path("ns3-manet-cbr.csv"))
    ap.add_argument("--build-dir", type=Path, default=HERE / "build")
    ap.add_argument("--protocols", nargs="+", default=["aodv", "olsr"],
                    choices=["aodv", "olsr", "dsdv"],
                    help="routing protocols (dsdv: ns-3's DsdvHelper with its defaults)")
    ap.add_argument("--sources", nargs="+", type=int, default=[10, 20])
    ap.add_argument("--pauses", nargs="+", type=float,
                    default=[0, 30, 60, 120, 300, 600, 900])
    ap.add_argument("--runs", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    ap.add_argument("--duration", type=float, default=900.0)
    ap.add_argument("--no-hello", dest="hello", action="store_false",
                    help="skip the AODV-with-hellos reference set")
    ap.add_argument("--hello-pauses", nargs="+", type=float, default=[0, 900])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--diag-csv", type=Path,
                    help="also append each run's drop / control-message diagnostics here "
                         "(manet_cbr --diagCsv); the main CSV is unchanged")
    ap.add_argument("--quick", action="store_true",
                    help="tiny grid: aodv+olsr, 10 sources, pause 0, run 1, 60 s")
    ap.add_argument("--summary", type=Path, help="only write the summary of this CSV")
    ap.add_argument("--summary-out", type=Path)
    args = ap.parse_args()

    if args.summary:
        summarize(args.summary, args.summary_out or args.summary.with_name(
            args.summary.stem + "-summary.csv"))
        return
    if args.quick:
        args.sources, args.pauses, args.runs, args.duration = [10], [0], [1], 60.0
        args.hello = False

    exe = build("manet_cbr", args.build_dir)
    done = done_keys(args.csv)
    todo = [pt for pt in grid(args)
            if (pt[0], pt[1], fmt_pause(pt[2]), pt[3], fmt_pause(args.duration)) not in done]
    print(f"{len(todo)} runs to do ({len(done)} rows already in {args.csv})", flush=True)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_one, exe, pt, args.duration, tmp, args.diag_csv is not None)
                for pt in todo]
        for fut in as_completed(futs):
            pt, lines, dlines, wall = fut.result()
            append_rows(args.csv, lines)
            if dlines:
                append_rows(args.diag_csv, dlines)
            print(f"{time.strftime('%H:%M:%S')} done {pt} in {wall:.0f} s: {lines[-1]}",
                  flush=True)
    summarize(args.csv, args.csv.with_name(args.csv.stem + "-summary.csv"))


if __name__ == "__main__":
    main()
