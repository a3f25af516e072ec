"""Figures of wireless runs for ``sctpsim plot`` (docs/sweeps.md, "Figures"): what the
per-flow lines of :func:`sctpsim.plot.plot_run` do not show.

* ``association.png``: an infrastructure station's beacon power from each access point
  (``beacon_rssi_dbm``) against time, the spans it was associated with each (``assoc``) shaded
  in that AP's colour, each association change marked — the picture of a handoff.
* ``mac.png``: the 802.11 MACs summed over the run's interfaces (the ``network`` counters
  ``mac_*``): the collision probability of each sample interval (Bianchi's p, per window) and
  the attempts, successes, collisions and retry drops per second.
* ``throughput.png`` and ``delivered.png`` with more than :data:`MAX_FLOW_LINES` flows: the
  sum over flows, and the flows' median with their range, instead of a tangle of lines.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from sctpsim import plot as _plot
from sctpsim.plot import Figure, _legend, _pyplot, display_unit

#: More flows than this are drawn as their sum and their spread, not one line each: ten CBR
#: flows of wifi-saturation as ten lines are unreadable.
MAX_FLOW_LINES = 6

#: Stations drawn in the association figure (one panel each); more are left out and named.
MAX_STATION_PANELS = 6

#: The network-wide MAC counters (docs/metrics.md, "Time series": cumulative since the start).
MAC_COUNTERS = ("mac_unicast_attempts", "mac_tx_success", "mac_collisions", "mac_drops")


def node_names(run_dir: Path, ids: Sequence[int]) -> dict[int, str]:
    """Names of the nodes ``ids`` (their index in the scenario, as time series ``id`` and the
    ``assoc`` value are), from the run's scenario in ``run.json``; ``node i`` when it is not
    readable."""
    names: list[str] = []
    try:
        from sctpsim.view.data import scenario_node_names

        manifest = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        names = scenario_node_names(manifest)
    except (OSError, ValueError, ImportError):
        pass
    return {i: names[i] if 0 <= i < len(names) else f"node {i}" for i in ids}


# ---------------------------------------------------------------------------------------------
# Association and beacon signal


def association_figure(ts: pd.DataFrame, run_dir: Path, end_s: float, figdir: Path) -> tuple[Figure | None, list[str]]:
    """``association.png`` (module docs), or None when the run has no stations; with notes."""
    node = ts[ts["scope"] == "node"]
    sig = node[node["metric"] == "beacon_rssi_dbm"]
    # Cellular mobiles hear access routers' beacons (`ar_beacon_rssi_dbm`, dir = the AR's index);
    # their moves between ARs are the cSCTP handovers of handoffs.parquet, drawn as changes.
    ar = node[node["metric"] == "ar_beacon_rssi_dbm"].copy()
    if not ar.empty:
        ar_names = access_router_names(run_dir)
        ar["dir"] = [ar_names[int(k)] if str(k).isdigit() and int(k) < len(ar_names) else f"access router {k}"
                     for k in ar["dir"]]
        sig = pd.concat([sig, ar], ignore_index=True)
    assoc = node[node["metric"] == "assoc"]
    stations = sorted({int(i) for i in pd.concat([sig["id"], assoc["id"]]).unique()})
    if not stations:
        return None, []
    notes = []
    if len(stations) > MAX_STATION_PANELS:
        notes.append(f"association figure: the first {MAX_STATION_PANELS} of {len(stations)} stations only.")
        stations = stations[:MAX_STATION_PANELS]
    ap_ids = {int(v) for v in assoc["value"] if v >= 0}
    names = node_names(run_dir, sorted(set(stations) | ap_ids))
    aps = sorted(set(sig["dir"].astype(str)) | {names[i] for i in ap_ids})
    colors = {ap: f"C{k % 10}" for k, ap in enumerate(aps)}
    plt = _pyplot()
    fig, axes = plt.subplots(len(stations), 1, figsize=(9.0, 1.3 + 2.9 * len(stations)), sharex=True,
                             layout="constrained", squeeze=False)
    fig.suptitle("Beacon signal and association vs time")
    moves = _cellular_moves(run_dir)
    for n, (ax, sta) in enumerate(zip(axes[:, 0], stations)):
        _station_panel(ax, sig[sig["id"] == sta], assoc[assoc["id"] == sta], names, colors, end_s,
                       moves.get(names[sta], []))
        ax.set_title(names[sta], fontsize="medium")
        if n == len(stations) - 1:
            ax.set_xlabel("Time (s)")
    who = ", ".join(names[s] for s in stations)
    caption = (f"Received power of each access point's beacons at {who} against time (one point per beacon); "
               "shaded: the AP the station was associated with, dashed lines: association changes"
               + ("; dotted lines: cellular handovers (the new access router's first beacon, handoffs.parquet)." if moves else "."))
    return Figure(_plot._save(fig, figdir / "association.png"), caption), notes


def access_router_names(run_dir: Path) -> list[str]:
    """The cellular access routers' names in the core's AR order (the `dir` of
    `ar_beacon_rssi_dbm`): the `[[node]]`s with `cellular.role = "access-router"`, in scenario
    order; empty when run.json's scenario is not readable."""
    try:
        from sctpsim.view.data import _scenario

        sc = _scenario(json.loads((run_dir / "run.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, ImportError):
        return []
    nodes = (sc or {}).get("node") or []
    return [str(n.get("name")) for n in nodes
            if isinstance(n, dict) and (n.get("cellular") or {}).get("role") == "access-router"]


def _cellular_moves(run_dir: Path) -> dict[str, list[tuple[float, str]]]:
    """Per mobile, its cSCTP handovers: (the new access router's first beacon, its name)."""
    path = run_dir / "handoffs.parquet"
    if not path.exists():
        return {}
    try:
        h = pd.read_parquet(path, columns=["mechanism", "mobile", "to_agent", "detected_s"])
    except (OSError, ValueError, KeyError):
        return {}
    out: dict[str, list[tuple[float, str]]] = {}
    for r in h[h["mechanism"] == "csctp"].itertuples(index=False):
        out.setdefault(str(r.mobile), []).append((float(r.detected_s), str(r.to_agent)))
    return out


def _station_panel(ax: Any, sig: pd.DataFrame, assoc: pd.DataFrame, names: dict[int, str],
                   colors: dict[str, str], end_s: float, moves: Sequence[tuple[float, str]] = ()) -> None:
    """One station: a line per AP's (or access router's) beacon power, its association spans
    and changes, and its cellular handovers."""
    from matplotlib.patches import Patch

    ax.grid(True, alpha=0.3)
    for ap, g in sig.groupby(sig["dir"].astype(str), sort=True):
        g = g.sort_values("time_s")
        ax.plot(g["time_s"], g["value"], color=colors[ap], linewidth=1.4, marker=".", markersize=2.5,
                label=f"beacons from {ap}")
    changes = assoc.sort_values("time_s")[["time_s", "value"]].to_numpy().tolist()
    shaded: dict[str, None] = {}
    for k, (t0, ap_id) in enumerate(changes):
        t1 = changes[k + 1][0] if k + 1 < len(changes) else end_s
        ap = names.get(int(ap_id)) if ap_id >= 0 else None
        if ap is not None:
            ax.axvspan(t0, t1, color=colors.get(ap, "0.6"), alpha=0.12, linewidth=0)
            shaded[ap] = None
        ax.axvline(t0, color="0.25", linestyle="--", linewidth=0.9)
        ax.text(t0, 0.97, f" {'→ ' + ap if ap else 'association lost'} at {t0:.2f} s", transform=ax.get_xaxis_transform(),
                fontsize="small", va="top", ha="left", color="0.2")
    for t0, to in moves:
        ax.axvline(t0, color="0.25", linestyle=":", linewidth=0.9)
        ax.text(t0, 0.97, f" → {to or 'none'} at {t0:.2f} s", transform=ax.get_xaxis_transform(),
                fontsize="small", va="top", ha="left", color="0.2")
    ax.set_xlim(0, end_s)
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi + 0.15 * (hi - lo))  # room for the labels of the association changes
    ax.set_ylabel("Beacon power received (dBm)")
    handles, labels = ax.get_legend_handles_labels()
    for ap in shaded:
        handles.append(Patch(color=colors.get(ap, "0.6"), alpha=0.25))
        labels.append(f"associated with {ap}")
    if handles:
        ax.legend(handles, labels, fontsize="small", loc="lower right")


# ---------------------------------------------------------------------------------------------
# 802.11 MAC counters


def mac_figure(ts: pd.DataFrame, figdir: Path) -> tuple[Figure | None, list[str]]:
    """``mac.png`` (module docs) and notes. None when no MAC made a unicast attempt, or none
    collided or dropped a frame (a flat zero says less than the note that replaces it)."""
    net = ts[(ts["scope"] == "network") & ts["metric"].isin(MAC_COUNTERS)]
    if net.empty:
        return None, []
    wide = net.pivot_table(index="time_s", columns="metric", values="value", aggfunc="last").sort_index()
    wide = wide.reindex(columns=list(MAC_COUNTERS)).fillna(0.0)
    if not wide["mac_unicast_attempts"].iloc[-1] > 0:
        return None, []
    if not (wide["mac_collisions"].iloc[-1] > 0 or wide["mac_drops"].iloc[-1] > 0):
        return None, ["no 802.11 MAC figure: no collision and no retry-limit drop in the run."]
    per = window_counts(wide)
    # Each sample closes the window since the one before: drawn as a step over that window.
    edges = [float(per.index[0] - per["dt_s"].iloc[0])] + [float(x) for x in per.index]
    plt = _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9.0, 6.6), sharex=True, layout="constrained")
    fig.suptitle("802.11 MAC vs time (all interfaces)")
    p = per["mac_collisions"] / per["mac_unicast_attempts"].where(per["mac_unicast_attempts"] > 0)
    whole = wide["mac_collisions"].iloc[-1] / wide["mac_unicast_attempts"].iloc[-1]
    top.stairs(p.to_numpy(), edges, baseline=None, color="C3", linewidth=1.6, label="per sample interval")
    top.axhline(whole, color="0.3", linestyle="--", linewidth=1.0, label=f"whole run: {whole:.3f}")
    top.set_ylim(0, max(1e-3, float(p.max(skipna=True)) if p.notna().any() else whole) * 1.15)
    top.set_ylabel("Collision probability\n(collisions / attempts, 0–1)")
    top.set_title("Collision probability", fontsize="medium")
    top.grid(True, alpha=0.3)
    top.legend(fontsize="small", loc="lower right")
    rates = per.div(per["dt_s"], axis=0)
    labels = {"mac_unicast_attempts": "unicast attempts", "mac_tx_success": "successes",
              "mac_collisions": "collisions", "mac_drops": "retry-limit drops"}
    for k, m in enumerate(MAC_COUNTERS):
        bottom.stairs(rates[m].to_numpy(), edges, baseline=None, linewidth=1.6, color=f"C{[0, 2, 3, 7][k]}", label=labels[m])
    bottom.set_ylim(0, max(1.0, float(rates[list(MAC_COUNTERS)].max().max())) * 1.3)
    bottom.set_xlim(left=0)
    bottom.set_ylabel("Frames per second (1/s)")
    bottom.set_title("Transmission attempts and outcomes", fontsize="medium")
    bottom.set_xlabel("Time (s)")
    bottom.grid(True, alpha=0.3)
    bottom.legend(fontsize="small", loc="upper center", ncol=4)
    caption = (f"The 802.11 MACs summed over interfaces, per sample interval: collision probability "
               f"(collisions over unicast attempts; whole run {whole:.3f}) and attempts, successes, collisions "
               "and retry-limit drops per second.")
    return Figure(_plot._save(fig, figdir / "mac.png"), caption), []


def window_counts(cumulative: pd.DataFrame) -> pd.DataFrame:
    """Per-interval counts from counters cumulative since the start (the first sample's
    window starts at 0 s), with the window's length in ``dt_s``."""
    per = cumulative.diff()
    per.iloc[0] = cumulative.iloc[0]
    times = cumulative.index.to_series()
    per["dt_s"] = times.diff().fillna(times.iloc[0]).to_numpy()
    return per[per["dt_s"] > 0]


# ---------------------------------------------------------------------------------------------
# Many flows


def many_flows(sel: pd.DataFrame) -> bool:
    """Whether ``sel`` (flow rows of one metric) has too many flows for a line each."""
    return sel["id"].nunique() > MAX_FLOW_LINES


def flows_aggregate_figure(sel: pd.DataFrame, base: str, what: str, title: str, fname: str,
                           summary: dict[str, Any], figdir: Path) -> Figure:
    """Two panels for many flows of one metric: the sum over flows, and the flows' median
    with the band from the lowest to the highest flow at each sample. With goodput, the
    caption gives Jain's fairness index of the flows' goodput over the run."""
    wide = sel.pivot_table(index="time_s", columns="id", values="value", aggfunc="last").sort_index()
    total = wide.sum(axis=1)
    unit_total = display_unit(base, total.tolist())
    unit_flow = display_unit(base, wide.max(axis=1).tolist())
    t = wide.index.to_numpy()
    plt = _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9.0, 6.6), sharex=True, layout="constrained")
    fig.suptitle(title)
    top.plot(t, total / unit_total.scale, color="C0", linewidth=1.8, label=f"sum over {wide.shape[1]} flows")
    top.set_title("All flows", fontsize="medium")
    top.set_ylabel(f"{what} ({unit_total.label})")
    bottom.fill_between(t, wide.min(axis=1) / unit_flow.scale, wide.max(axis=1) / unit_flow.scale, color="C0",
                        alpha=0.2, linewidth=0, label="lowest to highest flow")
    bottom.plot(t, wide.median(axis=1) / unit_flow.scale, color="C0", linewidth=1.6, label="median flow")
    bottom.set_title(f"Per flow ({wide.shape[1]} flows)", fontsize="medium")
    bottom.set_ylabel(f"{what} ({unit_flow.label})")
    bottom.set_xlabel("Time (s)")
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
        ax.set_ylim(bottom=0)
        _legend(ax, 2)
    caption = (f"{what} against time of {wide.shape[1]} flows: their sum, and the median flow with the range "
               "from the lowest to the highest flow at each sample")
    jain = jain_index([f.get("goodput_bps") for f in summary.get("flows", [])])
    if jain is not None and base == "bit/s":
        caption += f"; Jain's fairness index of the flows' goodput over the run: {jain:.3f}"
    return Figure(_plot._save(fig, figdir / fname), caption + ".")


def jain_index(values: Sequence[Any]) -> float | None:
    """Jain's fairness index (Σx)² / (n Σx²) of ``values``: 1 when all are equal, 1/n when one
    flow has everything (Jain, Chiu & Hawe, DEC-TR-301, 1984); None without a positive value."""
    xs = [float(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    sq = sum(x * x for x in xs)
    return (sum(xs) ** 2) / (len(xs) * sq) if xs and sq > 0 else None


__all__ = ["MAX_FLOW_LINES", "association_figure", "flows_aggregate_figure", "jain_index", "mac_figure",
           "many_flows", "node_names", "window_counts"]
