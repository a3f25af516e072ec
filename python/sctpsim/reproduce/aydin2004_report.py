"""Figures and report.md of the ``aydin2004`` reproduction (parts and claims are in
:mod:`sctpsim.reproduce.aydin2004`)."""

from __future__ import annotations

import math

import pandas as pd

from sctpsim.plot import Figure
from sctpsim.report import fmt, fmt_mean_ci, markdown_table
from sctpsim.reproduce import Context
from sctpsim.reproduce import aydin2004 as a
from sctpsim.reproduce.claims import Claim, claims_sections, mean_ci
from sctpsim.reproduce.figures import new_figure, save_figure

PHASES = [("outage_detection_s", "before detection"), ("outage_acquisition_s", "acquisition"),
          ("outage_add_ip_s", "add-ip round trip"), ("outage_wait_primary_s", "waiting for the stronger AR"),
          ("outage_switch_s", "set-primary to first DATA")]


def figures(ctx: Context, c: pd.DataFrame, h: pd.DataFrame) -> dict[str, Figure]:
    figs: dict[str, Figure] = {}
    if not c.empty:
        figs["speed"] = _speed_figure(ctx, c)
        if "duplicated" in set(c["mechanism"]):
            figs["duplicated"] = _dup_figure(ctx, c)
    tl = _timeline_figure(ctx)
    if tl is not None:
        figs["timeline"] = tl
    if not h.empty:
        figs["breakdown"] = _breakdown_figure(ctx, h)
    return figs


def _speed_figure(ctx: Context, c: pd.DataFrame) -> Figure:
    configs = [(mech, what) for _, mech, _, what in a.CONFIGS if mech in set(c["mechanism"])]
    fig, axes = new_figure(2, len(configs), width_in=11.0, height_in=4.2 * len(configs), sharey=True)
    ranges = (("(a) milliseconds", [x for x in a.ACQUISITIONS if x.endswith("ms")]),
              ("(b) seconds", [x for x in a.ACQUISITIONS if not x.endswith("ms")]))
    mip = c[c["mechanism"] == "mobileip"].sort_values("speed_kmh")
    for row, (mech, what) in enumerate(configs):
        for ax, (title, acqs) in zip(axes[row], ranges):
            for i, acq in enumerate(acqs):
                g = c[(c["mechanism"] == mech) & (c["acquisition"] == acq)].sort_values("speed_kmh")
                if g.empty:
                    continue
                ax.errorbar(g["speed_kmh"], g["mean"], yerr=g["ci95"], marker="o", capsize=3, color=f"C{i}",
                            label=f"cSCTP, acquisition {acq}")
            if not mip.empty and mech == "csctp":
                ax.errorbar(mip["speed_kmh"], mip["mean"], yerr=mip["ci95"], marker="s", ls="--", capsize=3, color="grey",
                            label="Mobile IPv4")
            ax.set_title(f"Fig. 5{title}, {what}")
            ax.set_xlabel("speed (km/h)")
            ax.legend(fontsize=8)
        axes[row][0].set_ylabel("throughput (kbit/s of user data)")
    return save_figure(fig, ctx.figures / "throughput-vs-speed",
                       "Throughput at the mobile against speed, one line per address acquisition time (95 % CIs); top: the "
                       "threshold radio (main), bottom: the cell-edge radio; Mobile IPv4 on the same road (threshold radio) for "
                       "reference")


def _dup_figure(ctx: Context, c: pd.DataFrame) -> Figure:
    fig, axes = new_figure(2, 1, width_in=11.0, height_in=4.0)
    for mech, label, color in (("csctp", "single primary", "C0"), ("duplicated", "duplicated transfer", "C3")):
        g = c[(c["mechanism"] == mech) & (c["acquisition"] == a.DUP_ACQUISITION)].sort_values("speed_kmh")
        axes[0][0].errorbar(g["speed_kmh"], g["mean"], yerr=g["ci95"], marker="o", capsize=3, color=color, label=label)
        axes[0][1].errorbar(g["speed_kmh"], g["outage_s"] * 1e3, yerr=g["outage_ci95"] * 1e3, marker="o", capsize=3, color=color, label=label)
    axes[0][0].set_ylabel("throughput (kbit/s)")
    axes[0][1].set_ylabel("mean outage per handoff (ms)")
    for ax in axes[0]:
        ax.set_xlabel("speed (km/h)")
        ax.legend(fontsize=8)
    return save_figure(fig, ctx.figures / "duplicated-vs-single",
                       f"Duplicated transfer with per-path SACK against the single primary (acquisition {a.DUP_ACQUISITION}): throughput and outage per handoff, 95 % CIs")


def _timeline_figure(ctx: Context) -> Figure | None:
    names = [n for n in ctx.results if n.startswith("timeline-")]
    if not names:
        return None
    speeds = sorted({a.speed_of(v) for n in names for v in ctx.results[n][a.P_ROUTE]})
    fig, axes = new_figure(len(speeds), len(names), width_in=3.2 * len(speeds), height_in=2.3 * len(names), sharey=True)
    for row, name in enumerate(names):
        df = ctx.results[name]
        for _, r in df[df["status"] == "ok"].iterrows():
            v = a.speed_of(r[a.P_ROUTE])
            ax = axes[row][speeds.index(v)]
            ts = ctx.timeseries(name, r["key"])
            if ts is None:
                continue
            f = ts[(ts.scope == "flow") & (ts.id == 0) & (ts.metric == "bytes_delivered")].sort_values("time_s")
            kbps = f["value"].diff() * 8 / f["time_s"].diff() / 1e3
            for t0, t1 in a.handoff_regions(v):
                ax.axvspan(t0, t1, color="orange", alpha=0.25, lw=0)
            ax.plot(f["time_s"], kbps, lw=0.8)
            ax.set_title(f"{name.removeprefix('timeline-')}, {v:g} km/h", fontsize=9)
            ax.set_xlim(0, a.DURATION_S)
        axes[row][0].set_ylabel("kbit/s")
    for ax in axes[-1]:
        ax.set_xlabel("time (s)")
    return save_figure(fig, ctx.figures / "throughput-vs-time",
                       "Figs. 6 and 7: throughput at the mobile against time (1 s bins, seed 1), rows by acquisition time, columns by speed; shaded: the mobile inside a handoff region")


def _breakdown_figure(ctx: Context, h: pd.DataFrame) -> Figure:
    fig, axes = new_figure(1, 1, width_in=8.0, height_in=4.0)
    ax = axes[0][0]
    hi = h["speed_kmh"].max()
    parts = [p for p in h["part"].unique() if p.startswith(("csctp-", "celledge-", "duplicated-"))]
    bottom = [0.0] * len(parts)
    for i, (col, label) in enumerate(PHASES):
        vals = [float(h[(h["part"] == p) & (h["speed_kmh"] == hi)][col].mean()) * 1e3 for p in parts]
        vals = [v if math.isfinite(v) else 0.0 for v in vals]
        ax.bar(parts, vals, bottom=bottom, color=f"C{i}", label=label)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_ylabel("mean outage per handoff (ms)")
    ax.set_title(f"Outage per handoff at {hi:g} km/h, by phase")
    ax.legend(fontsize=8)
    ax.tick_params(axis="x", labelrotation=30)
    return save_figure(fig, ctx.figures / "outage-breakdown",
                       "Mean outage per handoff at the highest speed, split into its phases (docs/metrics.md, handoffs)")


def _img(f: Figure) -> str:
    return f"![{f.caption}](figures/{f.path.name})\n\n*{f.caption}*"


def report(ctx: Context, r: pd.DataFrame, c: pd.DataFrame, h: pd.DataFrame, w: pd.DataFrame, b: pd.DataFrame,
           claims: list[Claim], twins: list[Claim], figs: dict[str, Figure]) -> str:
    n = int(c["n"].min()) if not c.empty else 0
    L: list[str] = [f"# Reproduction: Aydin & Shen 2005 ({'quick' if ctx.quick else 'full'})"]
    L.append(
        "I. Aydin, C.-C. Shen, *Evaluating Cellular SCTP over One-Hop Wireless Networks* (VTC 2005-Fall; "
        "`../shared/papers/aydin-shen-cellular-sctp.txt`). The paper gives figures without numbers; its claims are "
        "compared by shape: orderings in the paper's direction, significant at 95 % (DESIGN.md §6 \"Claims\"). Made with "
        "`sctpsim reproduce aydin2004"
        f"{' --quick' if ctx.quick else ''}`; every run is in `results.parquet`, every handoff in "
        "`sweeps/<part>/handoffs.parquet`."
    )
    if ctx.quick:
        L.append(f"**Quick mode:** {n} seeds per point and fewer speeds and acquisition times. The full reproduction runs 50 seeds.")
    L.extend(claims_sections(claims))
    L.append("## Set-up and the choices the paper leaves open")
    L.append("Scenarios: `scenarios/aydin2004/road.toml` (drawn in its header) and `road-mobileip.toml`; the models: "
             "`docs/models/cellular.md` (access routers, addresses, beacons) and `docs/models/sctp.md` (cSCTP).")
    L.append(markdown_table(["parameter", "value", "why"], [list(x) for x in a.CHOICES]))
    L.append("## Throughput against speed (Fig. 5)")
    if "speed" in figs:
        L.append(_img(figs["speed"]))
    L.append(_speed_table(c))
    L.append("## Throughput against time (Figs. 6 and 7)")
    if "timeline" in figs:
        L.append(_img(figs["timeline"]))
    L.append(_region_table(w))
    L.append("## Handoffs")
    L.append(_handoff_table(h))
    if "breakdown" in figs:
        L.append(_img(figs["breakdown"]))
    L.extend(cell_edge_section(c, b, claims, twins))
    L.append("## Duplicated transfer against the single primary")
    if "duplicated" in figs:
        L.append(_img(figs["duplicated"]))
    L.append(_dup_table(c, h))
    return "\n\n".join(L) + "\n"


def _speed_table(c: pd.DataFrame) -> str:
    if c.empty:
        return ""
    speeds = sorted(c["speed_kmh"].unique())
    rows = []
    for mech, acq in ([("csctp", x) for x in a.ACQUISITIONS] + [("celledge", x) for x in a.ACQUISITIONS]
                      + [("duplicated", a.DUP_ACQUISITION), ("mobileip", "—")]):
        g = c[(c["mechanism"] == mech) & (c["acquisition"] == acq)].set_index("speed_kmh")
        if g.empty:
            continue
        label = {"csctp": f"cSCTP, {acq}", "duplicated": f"cSCTP duplicated, {acq}", "mobileip": "Mobile IPv4",
                 "celledge": f"cSCTP, {acq}, cell-edge radio"}[mech]
        rows.append([label, *[fmt_mean_ci(g.loc[v, "mean"], g.loc[v, "ci95"]) if v in g.index else "—" for v in speeds],
                     int(g["lost"].sum())])
    return (markdown_table(["mechanism, acquisition", *[f"{v:g} km/h" for v in speeds], "associations lost"], rows)
            + "\n\nThroughput in kbit/s of user data (1200-byte chunks delivered in 360 s), mean ± 95 % CI over seeds.")


def _region_table(w: pd.DataFrame) -> str:
    """Figs. 6–7 as numbers: per timeline run, the mean throughput inside the handoff regions
    and in the stretches just before them (R5, R6)."""
    if w.empty:
        return "No timeline runs."
    rows = []
    if "config" not in w.columns:
        w = w.assign(config="threshold")
    for (config, acq, v), g in w.groupby(["config", "acquisition", "speed_kmh"]):
        d = g["before_kbps"] - g["inside_kbps"]
        rows.append([config, acq, f"{v:g}", len(g), fmt(g["before_kbps"].mean(), 5), fmt(g["inside_kbps"].mean(), 5),
                     fmt_mean_ci(*mean_ci(d))])
    return ("Per handoff region (the shaded overlaps of Figs. 6–7) of the one run per speed: mean throughput in the stretch "
            "outside the regions just before it and inside it, kbit/s of user data; the difference's 95 % CI is over the "
            "regions of that run (one region at 5 km/h: no CI). Rows `throughput_lower_in_handoff_regions` pool every "
            "speed's regions per acquisition time.\n\n"
            + markdown_table(["radio", "acquisition", "speed (km/h)", "regions", "before (kbit/s)", "inside (kbit/s)",
                              "before − inside (kbit/s)"], rows))


def _handoff_table(h: pd.DataFrame) -> str:
    if h.empty:
        return "No handoff rows."
    rows = []
    for (part, v), g in h.groupby(["part", "speed_kmh"]):
        if part == "mobileip":
            lat = g["reply_received_s"] - g["link_lost_s"]
            rows.append([part, f"{v:g}", len(g), "—", fmt(lat.median(), 3), "—", fmt((g["first_packet_s"] - g["link_lost_s"]).median(), 3),
                         fmt(g["packets_lost"].mean(), 3), "—"])
            continue
        add_rtt = g["add_ip_acked_s"] - g["add_ip_sent_s"]
        sp = g["set_primary_sent_s"] - g["detected_s"]
        rows.append([part, f"{v:g}", len(g), fmt((g["acquired_s"] - g["detected_s"]).median(), 3), fmt(add_rtt.median(), 3),
                     fmt(sp.median(), 3), fmt_mean_ci(*mean_ci(g["outage_s"])), fmt(g["packets_lost"].mean(), 3),
                     fmt(g["data_duplicated"].mean(), 3)])
    return (
        "cSCTP: detection = first beacon of the new AR; acquisition = address held − detection; add-ip RTT = ASCONF "
        "acknowledged − sent; set-primary = its ASCONF sent − detection; outage = first DATA on the new address − last DATA "
        "on the old one (0 when they overlap), mean ± 95 % CI; lost = DATA chunks dropped anywhere from detection to the "
        "release of the old address; duplicates = DATA chunks the mobile received twice in that time. Mobile IP: the "
        "registration latency (reply − last frame from the old agent) stands in the add-ip column, the disruption (first "
        "packet through the new agent − last frame from the old) in the outage column (medians).\n\n"
        + markdown_table(["part", "speed (km/h)", "handoffs", "acquisition (s)", "add-ip RTT (s)", "set-primary after detection (s)",
                          "outage (s)", "chunks lost", "duplicates"], rows)
    )


def _dup_table(c: pd.DataFrame, h: pd.DataFrame) -> str:
    if c.empty or "duplicated" not in set(c["mechanism"]):
        return "Not run."
    rows = []
    for v in sorted(c["speed_kmh"].unique()):
        s = c[(c["mechanism"] == "csctp") & (c["acquisition"] == a.DUP_ACQUISITION) & (c["speed_kmh"] == v)]
        d = c[(c["mechanism"] == "duplicated") & (c["speed_kmh"] == v)]
        if s.empty or d.empty:
            continue
        s, d = s.iloc[0], d.iloc[0]
        hd = h[(h["part"] == f"duplicated-{a.DUP_ACQUISITION}") & (h["speed_kmh"] == v)]
        rows.append([f"{v:g}", fmt_mean_ci(s["mean"], s["ci95"]), fmt_mean_ci(d["mean"], d["ci95"]),
                     fmt_mean_ci(s["outage_s"] * 1e3, s["outage_ci95"] * 1e3), fmt_mean_ci(d["outage_s"] * 1e3, d["outage_ci95"] * 1e3),
                     fmt(hd["data_duplicated"].mean(), 3) if len(hd) else "—"])
    return (f"Acquisition {a.DUP_ACQUISITION}, means ± 95 % CI.\n\n"
            + markdown_table(["speed (km/h)", "single primary (kbit/s)", "duplicated (kbit/s)", "outage single (ms)",
                              "outage duplicated (ms)", "duplicates per handoff"], rows))


def cell_edge_section(c: pd.DataFrame, b: pd.DataFrame, claims: list[Claim], twins: list[Claim]) -> list[str]:
    """"Cell-edge radio": its headline, Fig. 5 on both radios, §III's mechanism per handoff,
    and which rows each configuration moves."""
    from sctpsim.reproduce.claims import headline

    L = ["## Cell-edge radio",
         "A second main configuration beside the threshold radio: SINR reception with QualNet 802.11b's 2 Mbit/s sensitivity "
         "(−89 dBm, at 300 m), carrier sense at its 1 Mbit/s sensitivity (−93 dBm) and noise factor 10 dB, and frame errors "
         "rising towards the cell edge (CHOICES). Every paper row is computed on it by the same code (case suffix "
         f"`{a.CELL_EDGE_SUFFIX.strip()}`, `claims-celledge.csv`); the headline above counts the threshold radio's rows only. "
         "A failing threshold row is `explained` only when its cell-edge twin passes.",
         "Cell-edge radio alone: " + headline(a.RESULTS, twins)]
    L.append("### Fig. 5 on both radios")
    L.append(_fig5_grid(c))
    L.append("### §III's mechanism per handoff (timeline runs)")
    L.append(breakdown_table(b))
    L.append("### Which rows each configuration moves")
    L.append(moves_table(claims, twins))
    return L


def _fig5_grid(c: pd.DataFrame) -> str:
    if c.empty:
        return ""
    speeds = sorted(c["speed_kmh"].unique())
    rows = []
    for acq in a.ACQUISITIONS:
        for mech, label in (("csctp", "threshold"), ("celledge", "cell-edge")):
            g = c[(c["mechanism"] == mech) & (c["acquisition"] == acq)].set_index("speed_kmh")
            if g.empty:
                continue
            rows.append([acq, label, *[fmt_mean_ci(g.loc[v, "mean"], g.loc[v, "ci95"]) if v in g.index else "—" for v in speeds],
                         *[fmt(g.loc[v, "outage_s"] * 1e3, 3) if v in g.index else "—" for v in (speeds[0], speeds[-1])]])
    return ("Throughput (kbit/s of user data, mean ± 95 % CI over seeds) and mean outage per handoff (ms) at the slowest and "
            "fastest speed.\n\n"
            + markdown_table(["acquisition", "radio", *[f"{v:g} km/h" for v in speeds],
                              f"outage {speeds[0]:g} km/h (ms)", f"outage {speeds[-1]:g} km/h (ms)"], rows))


def breakdown_table(b: pd.DataFrame) -> str:
    """The handoff mechanism per radio and acquisition time: the old primary's cwnd at region
    entry and at the switch, the retransmissions on it in between, the new primary's cwnd at
    the switch and its time to reach the old path's pre-handoff cwnd."""
    if b.empty:
        return "No timeline runs."
    rows = []
    for (config, acq), g in b.groupby(["config", "acquisition"], sort=False):
        cut = (g["old_cwnd_switch"] < g["old_cwnd_entry"]).mean() * 100
        rec = g["recover_s"]
        rows.append([config, acq, len(g), fmt_mean_ci(*mean_ci(g["old_cwnd_entry"])), fmt_mean_ci(*mean_ci(g["old_cwnd_switch"])),
                     fmt(g["old_cwnd_min"].mean(), 4), f"{cut:.0f} %", fmt_mean_ci(*mean_ci(g["old_fast_rtx"])),
                     fmt_mean_ci(*mean_ci(g["old_t3_rtx"])), fmt(g["new_cwnd_switch"].median(), 4),
                     f"{fmt(rec.median(), 3)} ({int(rec.notna().sum())} of {len(rec)})"])
    return ("Per cSCTP handoff of the timeline runs (one seed a speed, every speed pooled): region entry = the first beacon of "
            "the new AR; the switch = the CN's set-primary (its `asconf_set_primary` row); old / new = the CN's primary before / "
            "after it. cwnd in bytes (mean ± 95 % CI over handoffs; the minimum between entry and switch as a mean); "
            "retransmissions = chunks the CN retransmitted on the old primary between entry and switch; recovery = time after "
            "the switch until the new primary's cwnd reaches the old one's at entry (median, and how many handoffs got there "
            "before the next handoff).\n\n"
            + markdown_table(["radio", "acquisition", "handoffs", "old cwnd at entry", "old cwnd at switch", "old cwnd min",
                              "cut before switch", "fast rtx on old", "T3 rtx on old", "new cwnd at switch (median)",
                              "recovery (s, median)"], rows))


def moves_table(claims: list[Claim], twins: list[Claim]) -> str:
    """Every paper row: its verdict on the threshold radio and its twin's on the cell-edge radio."""
    by = {(v.claim, v.case): v for v in twins}
    rows, moved = [], 0
    for c in claims:
        if c.source != "paper":
            continue
        v = by.get((c.claim, c.case + a.CELL_EDGE_SUFFIX))
        rows.append([c.result, f"`{c.claim}`", c.case, fmt_mean_ci(c.ours_mean, c.ours_ci95), c.verdict,
                     fmt_mean_ci(v.ours_mean, v.ours_ci95) if v else "—", v.outcome if v else "—", c.unit])
        moved += v is not None and v.outcome != c.outcome
    return (f"{moved} of {len(rows)} paper rows change outcome between the radios.\n\n"
            + markdown_table(["result", "claim", "case", "threshold", "threshold verdict", "cell-edge", "cell-edge verdict",
                              "unit"], rows))
