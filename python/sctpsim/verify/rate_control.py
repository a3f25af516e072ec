"""802.11 rate adaptation (`radio.rate_control`) beside ns-3 3.44 (docs/models/mac80211.md,
"Rate adaptation"): one saturated UDP link on the `80211a` radio at a range of distances, and
a saturated cell of n senders around one receiver, for constant 54 Mbit/s, ARF, AARF and
Minstrel — the set-up of `tools/ns3/rate_control.cc`.

The grid (several seeds; writes one row per run and the per-point summary with 95 %
Student-t CIs):

    PYTHONPATH=python python3 -m sctpsim.verify.rate_control \\
        --csv docs/models/data/sctpsim-rate-control.csv

`sctpsim verify rate-control` (quick: one seed, three distances) compares the link
throughput per algorithm with the ns-3 means stored below (from
docs/models/data/ns3-rate-control-summary.csv).
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
from pathlib import Path

from sctpsim.runner import run
from sctpsim.scenario import Scenario
from sctpsim.verify import Row, register

ALGOS = ("constant", "arf", "aarf", "minstrel")
DISTANCES = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100)
CELL = (5, 10)
CELL_RADIUS_M = 10
DURATION_S = 6.0
WARMUP_S = 1.0

_SCENARIO = """
[simulation]
duration = "{duration}s"
seed = {seed}
sample_interval = "1s"
[radio]
profile = "80211a"
reception = "sinr"
rate_control = "{algo}"
[nodes]
count = {count}
[mobility]
model = "static"
placement = "ring"
radius_m = {radius}
[[flows]]
src = "*"
dst = "n0"
transport = "udp"
app = "cbr"
rate = "100Mbps"
packet_size_bytes = 1472
"""


def _at(ts, t: float):  # type: ignore[no-untyped-def]
    return ts[(ts.time_s - t).abs() < 1e-9]


def one_run(algo: str, stations: int, distance: float, seed: int, duration: float = DURATION_S) -> dict[str, float]:
    """One run: UDP payload throughput over [1 s, duration] (as ns-3's sink counts it), the
    senders' mean data rate per attempt and their rate changes."""
    text = _SCENARIO.format(duration=duration, seed=seed, algo=algo, count=stations + 1, radius=distance)
    res = run(Scenario.from_string(text))
    ts = res.timeseries
    flows = ts[(ts.scope == "flow") & (ts.metric == "bytes_delivered")]
    got = _at(flows, duration).value.sum() - _at(flows, WARMUP_S).value.sum()
    macs = res.macs
    senders = macs[macs.node != "n0"]
    tx = senders.tx_data.sum()
    mean_rate = float((senders.mean_data_rate_bps * senders.tx_data).sum() / tx) if tx else 0.0
    return {
        "throughput_bps": float(got) * 8 / (duration - WARMUP_S),
        "mean_data_rate_bps": mean_rate,
        "rate_changes": float(senders.rate_changes.sum()),
    }


#: ns-3 3.44 link throughput, Mbit/s (mean of 3 runs, 6 s, measured over [1, 6] s), from
#: docs/models/data/ns3-rate-control-summary.csv (tools/ns3/run_rate_control.py).
NS3_LINK_MBPS: dict[tuple[str, int], float] = {
    ("constant", 10): 29.931,
    ("constant", 20): 29.913,
    ("constant", 30): 0.0,
    ("constant", 40): 0.0,
    ("constant", 50): 0.0,
    ("constant", 60): 0.0,
    ("constant", 70): 0.0,
    ("constant", 80): 0.0,
    ("constant", 90): 0.0,
    ("constant", 100): 0.0,
    ("arf", 10): 29.933,
    ("arf", 20): 29.914,
    ("arf", 30): 21.059,
    ("arf", 40): 15.92,
    ("arf", 50): 12.666,
    ("arf", 60): 11.698,
    ("arf", 70): 9.107,
    ("arf", 80): 4.877,
    ("arf", 90): 4.891,
    ("arf", 100): 1.451,
    ("aarf", 10): 29.933,
    ("aarf", 20): 29.914,
    ("aarf", 30): 22.747,
    ("aarf", 40): 17.035,
    ("aarf", 50): 13.59,
    ("aarf", 60): 12.238,
    ("aarf", 70): 9.685,
    ("aarf", 80): 5.102,
    ("aarf", 90): 5.181,
    ("aarf", 100): 1.451,
    ("minstrel", 10): 29.716,
    ("minstrel", 20): 29.698,
    ("minstrel", 30): 20.908,
    ("minstrel", 40): 15.376,
    ("minstrel", 50): 12.311,
    ("minstrel", 60): 11.36,
    ("minstrel", 70): 8.929,
    ("minstrel", 80): 4.526,
    ("minstrel", 90): 4.857,
    ("minstrel", 100): 1.408,
}

#: Distances left out of the check, with the measured reason (docs/models/mac80211.md, "Rate
#: adaptation"): at 80 m our OFDM error model loses fewer 9 Mbit/s frames than ns-3's
#: NistErrorRateModel (constant 9 Mbit/s: 6.8 vs 2.3 Mbit/s), so every algorithm gets about
#: 1.6 Mbit/s more; at 100 m static routing does not count the pair as neighbours (the
#: lowest rate's 1500-byte frames get through less than 9 times in 10), so nothing is sent.
EXCLUDED_M = (80, 100)


def _tolerance(ref: float) -> float:
    """Tolerance, Mbit/s: the larger of 12 % of the ns-3 value and 1 Mbit/s (the largest
    measured difference elsewhere is AARF at 60 m, +1.29 Mbit/s on 12.24, the PHY again)."""
    return max(0.12 * ref, 1.0)


@register("rate-control", "802.11a saturated link: throughput vs distance per rate control against ns-3 3.44")
def rate_control_check(quick: bool) -> list[Row]:
    rows = []
    seeds = (1,) if quick else (1, 2, 3)
    duration = 3.0 if quick else DURATION_S
    if quick:
        cases = [("constant", 10)] + [(a, d) for a in ALGOS[1:] for d in (40, 70)]
    else:
        cases = [(a, d) for a in ALGOS for d in DISTANCES if d not in EXCLUDED_M]
    for algo, d in cases:
        ref = NS3_LINK_MBPS.get((algo, d))
        if ref is not None:
            got = statistics.fmean(one_run(algo, 1, d, s, duration)["throughput_bps"] for s in seeds) / 1e6
            rows.append(Row(f"{algo} link {d} m", got, ref, _tolerance(ref), "Mbit/s"))
    return rows


T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def summarize(csv_path: Path, out_path: Path) -> None:
    groups: dict[tuple[str, int, float], list[dict[str, str]]] = {}
    with csv_path.open() as f:
        for r in csv.DictReader(f):
            groups.setdefault((r["algo"], int(r["stations"]), float(r["distance_m"])), []).append(r)
    order = {a: i for i, a in enumerate(ALGOS)}
    with out_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["algo", "stations", "distance_m", "runs", "throughput_mbps", "throughput_ci95_mbps",
                     "mean_data_rate_mbps", "mean_data_rate_ci95_mbps"])
        for k in sorted(groups, key=lambda k: (k[1], order.get(k[0], 9), k[2])):
            rs = groups[k]
            out: list[object] = [k[0], k[1], k[2], len(rs)]
            for col in ("throughput_bps", "mean_data_rate_bps"):
                xs = [float(r[col]) / 1e6 for r in rs]
                m = statistics.fmean(xs)
                ci = T975.get(len(xs) - 1, 1.96) * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
                out += [f"{m:.3f}", f"{ci:.3f}"]
            w.writerow(out)
    print("summary:", out_path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=Path("sctpsim-rate-control.csv"))
    ap.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    ap.add_argument("--algos", nargs="+", default=list(ALGOS))
    ap.add_argument("--distances", nargs="+", type=float, default=list(DISTANCES))
    ap.add_argument("--cell", nargs="*", type=int, default=list(CELL))
    ap.add_argument("--duration", type=float, default=DURATION_S)
    args = ap.parse_args()
    new = not args.csv.exists() or args.csv.stat().st_size == 0
    with args.csv.open("a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["algo", "stations", "distance_m", "seed", "duration_s", "throughput_bps",
                        "mean_data_rate_bps", "rate_changes"])
        points = [(a, 1, d) for a in args.algos for d in args.distances]
        points += [(a, n, float(CELL_RADIUS_M)) for a in args.algos for n in args.cell]
        for seed in args.seeds:
            for algo, n, d in points:
                r = one_run(algo, n, d, seed, args.duration)
                row = [algo, n, d, seed, args.duration, f"{r['throughput_bps']:.0f}",
                       f"{r['mean_data_rate_bps']:.0f}", int(r["rate_changes"])]
                w.writerow(row)
                f.flush()
                print(",".join(map(str, row)), flush=True)
    summarize(args.csv, args.csv.with_name(args.csv.stem + "-summary.csv"))


if __name__ == "__main__":
    main()
