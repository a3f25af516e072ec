"""CMT-SCTP against AppStripe (Iyengar, Amer & Stewart, IEEE/ACM ToN 14(5), 2006, §5).

Runs `scenarios/examples/sctp-cmt.toml` (one CMT association over two paths) and
`scenarios/examples/sctp-appstripe.toml` (two single-homed associations, one per path) under a
few path conditions and seeds, plus CMT without its algorithms and plain SCTP, and prints the
mean goodput and fast retransmissions per variant as a Markdown table (the one in
docs/models/sctp.md, "CMT-SCTP"). Rows go to a CSV, one per run.

    python3 tools/cmt_appstripe.py --csv docs/models/data/cmt-appstripe.csv
    python3 tools/cmt_appstripe.py --quick          # one seed, 10 s runs

Conditions (path 1 = through R1, 20 ms; path 2 = through R2, 30 ms; both 2 Mbit/s): path 2's
R2→B link loses 0, 1 % or 5 % of packets (Bernoulli), and the receive buffer is 32, 128 or 512
KiB in total: CMT's association gets all of it, each AppStripe association half (the same
buffer in total; RFC 9260 has no default, ours is 64 KiB, so 128 KiB is AppStripe's default).
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

import sctpsim  # noqa: E402  (after the path set-up)

CMT = ROOT / "scenarios/examples/sctp-cmt.toml"
APPSTRIPE = ROOT / "scenarios/examples/sctp-appstripe.toml"

# The R2->B link is the fourth [[link]] of both files.
LOSSY_LINK = "link[3].loss"

CONDITIONS: dict[str, dict[str, Any]] = {
    f"loss {int(p * 100)} %, rbuf {kib} KiB": {
        **({LOSSY_LINK: {"model": "bernoulli", "p": p}} if p else {}),
        "rbuf": kib * 1024,
    }
    for p in (0.0, 0.01, 0.05)
    for kib in (32, 128, 512)
}

NO_ALGOS = {
    "flows[0].sctp.cmt_sfr": False,
    "flows[0].sctp.cmt_cuc": False,
    "flows[0].sctp.cmt_dac": False,
}

VARIANTS: dict[str, tuple[Path, dict[str, Any]]] = {
    "cmt": (CMT, {}),
    "cmt-no-sfr-cuc-dac": (CMT, NO_ALGOS),
    "appstripe": (APPSTRIPE, {}),
    "sctp-one-path": (CMT, {"flows[0].sctp.multipath": "off"}),
}


def overrides(variant: str, condition: str) -> dict[str, Any]:
    path, fixed = VARIANTS[variant]
    out = dict(fixed)
    for k, v in CONDITIONS[condition].items():
        if k != "rbuf":
            out[k] = v
            continue
        flows = 2 if path == APPSTRIPE else 1
        for f in range(flows):
            out[f"flows[{f}].sctp.recv_buffer_bytes"] = v // flows
    return out


def run_one(variant: str, condition: str, seed: int, duration: str) -> dict[str, Any]:
    path, _ = VARIANTS[variant]
    sc = sctpsim.Scenario.load(path).with_(
        {**overrides(variant, condition), "simulation.duration": duration}
    )
    res = sctpsim.run(sc, seed)
    flows = res.summary["flows"]
    sctp = res.summary["sctp"]
    return {
        "variant": variant,
        "condition": condition,
        "seed": seed,
        "duration": duration,
        "goodput_kbps": sum(f["goodput_bps"] for f in flows) / 1e3,
        "fast_retransmissions": sum(s["fast_retransmissions"] for s in sctp),
        "t3_timeouts": sum(s["t3_timeouts"] for s in sctp),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=None, help="write one row per run here")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--duration", default="30s")
    ap.add_argument("--quick", action="store_true", help="one seed, 10 s runs")
    ap.add_argument("--only", nargs="+", default=None, help="only these conditions (quoted)")
    a = ap.parse_args()
    seeds, duration = ([1], "10s") if a.quick else (a.seeds, a.duration)
    rows = [
        run_one(v, c, s, duration)
        for c in CONDITIONS
        if a.only is None or c in a.only
        for v in VARIANTS
        for s in seeds
    ]
    if a.csv:
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with a.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    print(f"goodput kbit/s (fast retransmissions), mean of seeds {seeds}, {duration} runs\n")
    print("| condition | " + " | ".join(VARIANTS) + " |")
    print("|---|" + "---:|" * len(VARIANTS))
    for c in dict.fromkeys(r["condition"] for r in rows):
        cells = []
        for v in VARIANTS:
            rs = [r for r in rows if r["variant"] == v and r["condition"] == c]
            g = statistics.mean(r["goodput_kbps"] for r in rs)
            fr = statistics.mean(r["fast_retransmissions"] for r in rs)
            cells.append(f"{g:.0f} ({fr:.0f})")
        print(f"| {c} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
