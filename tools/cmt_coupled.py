"""CMT-SCTP's coupled congestion control (`flows.sctp.cmt_cc`: off, lia, rpv1, rpv2;
docs/models/sctp.md "CMT/RP").

Two tables, each printed as Markdown (the ones in docs/models/sctp.md); rows go to a CSV, one
per run.

1. Shared bottleneck, what coupling is for: `scenarios/cmt-coupled/shared-bottleneck.toml`, a
   CMT association with two paths through one 4 Mbit/s bottleneck beside a single-path SCTP
   association through the same bottleneck. Goodput of each and the CMT / single-path ratio:
   about 2 uncoupled, about 1 coupled.
2. Independent paths, what coupling costs: `scenarios/examples/sctp-cmt.toml` under the
   conditions of the CMT-vs-AppStripe table (`tools/cmt_appstripe.py`: path 2 losing 0, 1 or
   5 %, receive buffer 32, 128 or 512 KiB), CMT with each `cmt_cc`.

    python3 tools/cmt_coupled.py --csv docs/models/data/cmt-coupled.csv
    python3 tools/cmt_coupled.py --quick          # one seed, shorter runs
    python3 tools/cmt_coupled.py --table shared   # only table 1
    python3 tools/cmt_coupled.py --table shared --queue 10   # a 10-packet bottleneck queue
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tools"))

import sctpsim  # noqa: E402  (after the path set-up)
from cmt_appstripe import CMT, CONDITIONS  # noqa: E402

SHARED = ROOT / "scenarios/cmt-coupled/shared-bottleneck.toml"

CCS = ["off", "lia", "rpv1", "rpv2"]


def run_shared(cc: str, seed: int, duration: str, queue: int | None) -> dict[str, Any]:
    over: dict[str, Any] = {"flows[0].sctp.cmt_cc": cc, "simulation.duration": duration}
    if queue is not None:
        # The R1 -> R2 bottleneck is the third [[link]].
        over["link[2].queue_limit_packets"] = queue
    sc = sctpsim.Scenario.load(SHARED).with_(over)
    res = sctpsim.run(sc, seed)
    flows = res.summary["flows"]
    sctp = res.summary["sctp"]
    cmt, single = flows[0]["goodput_bps"] / 1e3, flows[1]["goodput_bps"] / 1e3
    return {
        "table": "shared",
        "cmt_cc": cc,
        "condition": f"shared bottleneck 4 Mbit/s, queue {queue or 50} packets",
        "seed": seed,
        "duration": duration,
        "goodput_kbps": cmt,
        "single_kbps": single,
        "fast_retransmissions": sctp[0]["fast_retransmissions"],
        "t3_timeouts": sctp[0]["t3_timeouts"],
    }


def run_independent(cc: str, condition: str, seed: int, duration: str) -> dict[str, Any]:
    over: dict[str, Any] = {}
    for k, v in CONDITIONS[condition].items():
        if k == "rbuf":
            over["flows[0].sctp.recv_buffer_bytes"] = v
        else:
            over[k] = v
    sc = sctpsim.Scenario.load(CMT).with_(
        {**over, "flows[0].sctp.cmt_cc": cc, "simulation.duration": duration}
    )
    res = sctpsim.run(sc, seed)
    sctp = res.summary["sctp"][0]
    return {
        "table": "independent",
        "cmt_cc": cc,
        "condition": condition,
        "seed": seed,
        "duration": duration,
        "goodput_kbps": res.summary["flows"][0]["goodput_bps"] / 1e3,
        "single_kbps": "",
        "fast_retransmissions": sctp["fast_retransmissions"],
        "t3_timeouts": sctp["t3_timeouts"],
    }


def print_shared(rows: list[dict[str, Any]], seeds: list[int], duration: str) -> None:
    conds = sorted({r["condition"] for r in rows if r["table"] == "shared"})
    print(f"{', '.join(conds)}: goodput kbit/s, mean of seeds {seeds} (min-max), {duration} runs\n")
    print("| cmt_cc | CMT (2 paths) | single-path SCTP | CMT / single | CMT fast rtx |")
    print("|---|---:|---:|---:|---:|")
    for cc in CCS:
        rs = [r for r in rows if r["table"] == "shared" and r["cmt_cc"] == cc]
        if not rs:
            continue
        c = [r["goodput_kbps"] for r in rs]
        s = [r["single_kbps"] for r in rs]
        ratio = [a / b if b else float("nan") for a, b in zip(c, s)]
        fr = statistics.mean(r["fast_retransmissions"] for r in rs)
        print(
            f"| {cc} | {statistics.mean(c):.0f} ({min(c):.0f}-{max(c):.0f}) "
            f"| {statistics.mean(s):.0f} ({min(s):.0f}-{max(s):.0f}) "
            f"| {statistics.mean(ratio):.2f} ({min(ratio):.2f}-{max(ratio):.2f}) | {fr:.0f} |"
        )
    print()


def print_independent(rows: list[dict[str, Any]], seeds: list[int], duration: str) -> None:
    print(
        f"Independent paths (sctp-cmt.toml): CMT goodput kbit/s (fast retransmissions), "
        f"mean of seeds {seeds}, {duration} runs\n"
    )
    print("| condition | " + " | ".join(CCS) + " |")
    print("|---|" + "---:|" * len(CCS))
    conds = dict.fromkeys(r["condition"] for r in rows if r["table"] == "independent")
    for c in conds:
        cells = []
        for cc in CCS:
            rs = [r for r in rows if r["table"] == "independent" and r["cmt_cc"] == cc and r["condition"] == c]
            g = statistics.mean(r["goodput_kbps"] for r in rs)
            fr = statistics.mean(r["fast_retransmissions"] for r in rs)
            cells.append(f"{g:.0f} ({fr:.0f})")
        print(f"| {c} | " + " | ".join(cells) + " |")
    print()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=None, help="write one row per run here")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--shared-duration", default="60s")
    ap.add_argument("--duration", default="30s", help="of the independent-paths runs")
    ap.add_argument("--quick", action="store_true", help="one seed, 20 s / 10 s runs")
    ap.add_argument("--table", choices=["shared", "independent", "both"], default="both")
    ap.add_argument("--queue", type=int, default=None, help="bottleneck queue in packets (default 50)")
    a = ap.parse_args()
    if a.quick:
        seeds, shared_d, indep_d = [1], "20s", "10s"
    else:
        seeds, shared_d, indep_d = a.seeds, a.shared_duration, a.duration
    rows: list[dict[str, Any]] = []
    if a.table in ("shared", "both"):
        rows += [run_shared(cc, s, shared_d, a.queue) for cc in CCS for s in seeds]
    if a.table in ("independent", "both"):
        rows += [run_independent(cc, c, s, indep_d) for c in CONDITIONS for cc in CCS for s in seeds]
    if a.csv:
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with a.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if a.table in ("shared", "both"):
        print_shared(rows, seeds, shared_d)
    if a.table in ("independent", "both"):
        print_independent(rows, seeds, indep_d)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
