"""CMT-SCTP with and without NR-SACK (Natarajan, Ekiz, Yilmaz, Amer, Iyengar & Stewart, ICNP
2008): send-buffer blocking under a lossy path.

Runs `scenarios/examples/sctp-cmt.toml` (one CMT association over two 2 Mbit/s paths of 20 ms
and 30 ms) with path 2's R2->B link losing 1 % or 5 % of packets (Bernoulli), a send buffer of
64, 128 or 256 KiB and a 4 MiB receive buffer (so that only the send buffer can block), with
SACKs (gap-acknowledged data renegable: it stays in the send buffer until the cumulative ack,
RFC 9260 §6.2.1) and with NR-SACKs, and prints the mean goodput per variant as a Markdown table
(the one in docs/models/sctp.md, "NR-SACK"). Rows go to a CSV, one per run.

    python3 tools/cmt_nrsack.py --csv docs/models/data/cmt-nrsack.csv
    python3 tools/cmt_nrsack.py --quick          # one seed, 10 s runs
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

# The R2->B link is the fourth [[link]]; loss on packets leaving R2 (towards B).
LOSSY_LINK = "link[3].loss"

CONDITIONS: dict[str, dict[str, Any]] = {
    f"loss {int(p * 100)} %, sbuf {kib} KiB": {
        LOSSY_LINK: {"model": "bernoulli", "p": p, "from": "R2"},
        "flows[0].sctp.send_buffer_bytes": kib * 1024,
        "flows[0].sctp.recv_buffer_bytes": 4 << 20,
    }
    for p in (0.01, 0.05)
    for kib in (64, 128, 256)
}

VARIANTS: dict[str, dict[str, Any]] = {
    "SACK": {"flows[0].sctp.nr_sack": False},
    "NR-SACK": {"flows[0].sctp.nr_sack": True},
}


def run_one(variant: str, condition: str, seed: int, duration: str) -> dict[str, Any]:
    sc = sctpsim.Scenario.load(CMT).with_(
        {**CONDITIONS[condition], **VARIANTS[variant], "simulation.duration": duration}
    )
    res = sctpsim.run(sc, seed)
    flows = res.summary["flows"]
    sctp = res.summary["sctp"][0]
    return {
        "variant": variant,
        "condition": condition,
        "seed": seed,
        "duration": duration,
        "goodput_kbps": sum(f["goodput_bps"] for f in flows) / 1e3,
        "fast_retransmissions": sctp["fast_retransmissions"],
        "nr_sacks_sent": sctp.get("nr_sacks_sent") or 0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", type=Path, default=None, help="write one row per run here")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--duration", default="30s")
    ap.add_argument("--quick", action="store_true", help="one seed, 10 s runs")
    a = ap.parse_args()
    seeds, duration = ([1], "10s") if a.quick else (a.seeds, a.duration)
    rows = [run_one(v, c, s, duration) for c in CONDITIONS for v in VARIANTS for s in seeds]
    if a.csv:
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with a.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    print(f"goodput kbit/s, mean of seeds {seeds} (min-max), {duration} runs\n")
    print("| condition | " + " | ".join(VARIANTS) + " | NR-SACK gain |")
    print("|---|" + "---:|" * (len(VARIANTS) + 1))
    for c in dict.fromkeys(r["condition"] for r in rows):
        cells, means = [], []
        for v in VARIANTS:
            g = [r["goodput_kbps"] for r in rows if r["variant"] == v and r["condition"] == c]
            means.append(statistics.mean(g))
            cells.append(f"{means[-1]:.0f} ({min(g):.0f}-{max(g):.0f})")
        gain = (means[1] / means[0] - 1) * 100 if means[0] else float("nan")
        print(f"| {c} | " + " | ".join(cells) + f" | {gain:+.0f} % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
