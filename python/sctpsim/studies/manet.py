"""The MANET routing comparison: `manet-cbr.toml` (Broch et al. 1998's set-up) for DSR, AODV and
OLSR over a grid of pause times and source counts, several seeds per point, with ns-3 3.44's
AODV and OLSR beside ours (`tools/ns3/`, `docs/models/data/ns3-manet-cbr-summary.csv`).

    python -m sctpsim.studies.manet --out results/manet-study [--quick] [--jobs 2] [--seeds 5]

(``--merge DIR...`` combines the summaries of earlier runs instead, e.g. one protocol per run)
writes, under ``--out``: the sweep directory (resumable: runs already there are not run again),
``manet-summary.csv`` (one row per protocol, sources and pause: mean and 95 % confidence
half-width of the delivery fraction, routing packets, normalised routing load and mean delay, and
the TTL-expiry drops that would reveal a routing loop), ``manet-table.md`` (the same with ns-3's
figures side by side) and ``manet-cbr.png``. ``--docs`` also copies the CSV and the figure into
``docs/models/data`` and ``docs/models/figures`` (run it from the checkout). The quick variant (CI) runs each protocol at two
pause times for 150 s with 2 seeds.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from sctpsim.scenario import Scenario
from sctpsim.sweep import Reporter, sweep

PROTOCOLS = ["dsr", "aodv", "olsr"]
SOURCES = [10, 20]
PAUSES_S = [0, 30, 60, 120, 300, 600, 900]
SEEDS = 5

QUICK_SOURCES = [10]
QUICK_PAUSES_S = [0, 900]
QUICK_SEEDS = 2
QUICK_DURATION_S = 150

#: The figures compared, as (summary.json metric, column name, label with unit).
METRICS = [
    ("network.pdf", "pdf", "packet delivery fraction"),
    ("network.routing_packets", "routing_packets", "routing packets transmitted"),
    ("network.normalized_routing_load", "nrl", "routing packets per delivered packet"),
    ("network.mean_delay_s", "delay_s", "mean end-to-end delay (s)"),
    ("network.ttl_drops", "ttl_drops", "TTL-expiry drops"),
]

#: Where ns-3's summary is looked for: the checkout this module runs from, then the working directory.
NS3_SUMMARY_CANDIDATES = [
    Path(__file__).resolve().parents[3] / "docs" / "models" / "data" / "ns3-manet-cbr-summary.csv",
    Path("docs") / "models" / "data" / "ns3-manet-cbr-summary.csv",
]


def run_study(
    out: Path,
    quick: bool = False,
    jobs: int | None = None,
    seeds: int | None = None,
    protocols: Sequence[str] = PROTOCOLS,
    pauses_s: Sequence[int] | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Runs (or resumes) the grid; returns one row per (protocol, sources, pause_s)."""
    base = Scenario.load("manet-cbr")
    if quick:
        base = base.with_({"simulation.duration": f"{QUICK_DURATION_S}s", "flows[0].start_spread": "30s"})
    vary: dict[str, list[Any]] = {
        "routing.protocol": list(protocols),
        "flows[0].pairs": QUICK_SOURCES if quick else SOURCES,
        "mobility.pause": [f"{p}s" for p in (pauses_s or (QUICK_PAUSES_S if quick else PAUSES_S))],
    }
    n = seeds or (QUICK_SEEDS if quick else SEEDS)
    reporter = Reporter(enabled=progress)
    res = sweep(base, vary, n, jobs=jobs, out=out / "sweep", progress=progress, reporter=reporter,
                metrics=[m for m, _, _ in METRICS])
    if not res.ok:
        raise RuntimeError(f"manet study: {res.line()}; first failure: {res.failures[:1]}")
    s = res.summary
    rows = []
    for _, r in s.iterrows():
        row: dict[str, Any] = {
            "protocol": r["routing.protocol"],
            "sources": int(r["flows[0].pairs"]),
            "pause_s": float(str(r["mobility.pause"]).rstrip("s")),
            "runs": int(r[f"{METRICS[0][0]}.n"]),
        }
        for metric, col, _ in METRICS:
            row[col] = float(r[f"{metric}.mean"])
            row[f"{col}_ci95"] = float(r[f"{metric}.ci95"])
        rows.append(row)
    table = pd.DataFrame(rows).sort_values(["protocol", "sources", "pause_s"]).reset_index(drop=True)
    return table


def load_ns3(path: Path | None = None) -> pd.DataFrame | None:
    """ns-3's summary (``tools/ns3/run_manet.py``), or None if it is not there."""
    for p in [path] if path is not None else NS3_SUMMARY_CANDIDATES:
        if p.is_file():
            t = pd.read_csv(p)
            # tools/ns3/run_manet.py names the means `<metric>_mean`.
            renames = {"pdf_mean": "pdf", "routing_packets_mean": "routing_packets", "nrl_mean": "nrl",
                       "mean_delay_s_mean": "delay_s", "mean_delay_s_ci95": "delay_s_ci95"}
            return t.rename(columns={k: v for k, v in renames.items() if k in t.columns})
    return None


def _ns3_value(ns3: pd.DataFrame | None, protocol: str, sources: int, pause: float, col: str) -> tuple[float, float]:
    if ns3 is None:
        return math.nan, math.nan
    sel = ns3[(ns3["protocol"] == protocol) & (ns3["sources"] == sources) & (ns3["pause_s"] == pause)]
    if sel.empty or col not in sel.columns:
        return math.nan, math.nan
    ci = f"{col}_ci95"
    return float(sel[col].iloc[0]), float(sel[ci].iloc[0]) if ci in sel.columns else math.nan


def _pm(v: float, ci: float, digits: int) -> str:
    if math.isnan(v):
        return "–"
    if math.isnan(ci):
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ± {ci:.{digits}f}"


def markdown_table(table: pd.DataFrame, ns3: pd.DataFrame | None) -> str:
    """The comparison as a Markdown table (mean ± 95 % half-width)."""
    lines = [
        "| protocol | sources | pause (s) | PDF | PDF ns-3 | routing pkts | routing pkts ns-3 | NRL | NRL ns-3 "
        "| delay (ms) | delay ns-3 (ms) | TTL drops |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for _, r in table.iterrows():
        p, s, pause = r["protocol"], int(r["sources"]), float(r["pause_s"])
        n_pdf = _ns3_value(ns3, p, s, pause, "pdf")
        n_rp = _ns3_value(ns3, p, s, pause, "routing_packets")
        n_nrl = _ns3_value(ns3, p, s, pause, "nrl")
        n_d = _ns3_value(ns3, p, s, pause, "delay_s")
        lines.append(
            f"| {p} | {s} | {pause:g} | {_pm(r['pdf'], r['pdf_ci95'], 3)} | {_pm(*n_pdf, 3)} "
            f"| {_pm(r['routing_packets'], r['routing_packets_ci95'], 0)} | {_pm(*n_rp, 0)} "
            f"| {_pm(r['nrl'], r['nrl_ci95'], 2)} | {_pm(*n_nrl, 2)} "
            f"| {_pm(r['delay_s'] * 1e3, r['delay_s_ci95'] * 1e3, 1)} | {_pm(n_d[0] * 1e3, n_d[1] * 1e3, 1)} "
            f"| {r['ttl_drops']:g} |"
        )
    return "\n".join(lines) + "\n"


def figure(table: pd.DataFrame, ns3: pd.DataFrame | None, path: Path) -> None:
    """PDF, normalised routing load and delay against pause time; ns-3 dashed."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    panels = [("pdf", "packet delivery fraction"), ("nrl", "routing packets / delivered packet"),
              ("delay_s", "mean delay (s)")]
    sources = sorted(table["sources"].unique())
    fig, axes = plt.subplots(len(sources), len(panels), figsize=(4.2 * len(panels), 3.2 * len(sources)),
                             squeeze=False)
    colours = {"dsr": "tab:green", "aodv": "tab:blue", "olsr": "tab:red", "dsdv": "tab:purple"}
    for i, s in enumerate(sources):
        for j, (col, label) in enumerate(panels):
            ax = axes[i][j]
            for p in sorted(table["protocol"].unique()):
                t = table[(table["protocol"] == p) & (table["sources"] == s)]
                ax.errorbar(t["pause_s"], t[col], yerr=t[f"{col}_ci95"], marker="o", ms=3, capsize=2,
                            color=colours.get(p), label=f"{p} (sctpsim)")
                if ns3 is not None:
                    n = ns3[(ns3["protocol"] == p) & (ns3["sources"] == s)].sort_values("pause_s")
                    if not n.empty and col in n.columns:
                        ax.errorbar(n["pause_s"], n[col], yerr=n.get(f"{col}_ci95"), marker="s", ms=3,
                                    capsize=2, ls="--", color=colours.get(p), alpha=0.7, label=f"{p} (ns-3)")
            ax.set_xlabel("pause time (s)")
            ax.set_ylabel(label)
            ax.set_title(f"{s} sources")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sctpsim.studies.manet", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/manet-study", help="output directory (resumable)")
    ap.add_argument("--quick", action="store_true", help="two pause times, 150 s, 2 seeds (CI)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: usable cores)")
    ap.add_argument("--seeds", type=int, default=None, help=f"seeds per point (default {SEEDS}; quick {QUICK_SEEDS})")
    ap.add_argument("--protocols", default=",".join(PROTOCOLS), help="comma-separated subset of dsr,aodv,olsr")
    ap.add_argument("--pauses", default=None,
                    help=f"comma-separated pause times in s (default {','.join(map(str, PAUSES_S))})")
    ap.add_argument("--docs", action="store_true", help="copy the CSV and figure into docs/models/")
    ap.add_argument("--merge", nargs="+", metavar="DIR", default=None,
                    help="run nothing: combine the manet-summary.csv of earlier --out directories")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    protocols = [p for p in args.protocols.split(",") if p]
    pauses = [int(p) for p in args.pauses.split(",") if p] if args.pauses else None
    if args.merge:
        parts = [pd.read_csv(Path(d) / "manet-summary.csv") for d in args.merge]
        table = pd.concat(parts).sort_values(["protocol", "sources", "pause_s"]).reset_index(drop=True)
    else:
        table = run_study(out, quick=args.quick, jobs=args.jobs, seeds=args.seeds, protocols=protocols,
                          pauses_s=pauses, progress=sys.stderr.isatty())
    ns3 = load_ns3()
    table.to_csv(out / "manet-summary.csv", index=False, float_format="%.6g")
    md = markdown_table(table, ns3)
    (out / "manet-table.md").write_text(md, encoding="utf-8")
    print(md)
    try:
        figure(table, ns3, out / "manet-cbr.png")
    except ImportError:
        print("matplotlib not installed: no figure", file=sys.stderr)
    if args.docs:
        docs = Path("docs") / "models"
        (docs / "data").mkdir(parents=True, exist_ok=True)
        (docs / "figures").mkdir(parents=True, exist_ok=True)
        shutil.copy(out / "manet-summary.csv", docs / "data" / "manet-cbr-summary.csv")
        if (out / "manet-cbr.png").is_file():
            shutil.copy(out / "manet-cbr.png", docs / "figures" / "manet-cbr.png")
    bad = table[table["ttl_drops"] > 0]
    if not bad.empty:
        # Reported, not an error: OLSR has transient loops under mobility (manet.md).
        points = ", ".join(f"{r.protocol}/{r.sources}/{r.pause_s:g}s" for r in bad.itertuples())
        print(f"TTL-expiry drops (transient routing loops) at: {points}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
