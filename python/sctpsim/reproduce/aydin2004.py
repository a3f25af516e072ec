"""Aydin & Shen, "Evaluating Cellular SCTP over One-Hop Wireless Networks" (VTC 2005-Fall;
../shared/papers/aydin-shen-cellular-sctp.txt). The paper publishes figures without numbers, so
its results (:data:`RESULTS`, R1…R8) are shapes, tested as orderings (DESIGN.md §6 "Claims"):
throughput falls with speed (R2) and, read from Fig. 5's design, with the address acquisition
time (R4); the confidence intervals widen with speed (R3); throughput is lower inside the handoff
regions of Figs. 6–7 (R5, R6). The only number is §III's handoff count per speed (R1, a level).
Exact delivery, no association lost and the outage breakdown are our checks; duplicated transfer
(the paper's hope) and Mobile IP (its introduction's argument) are extensions. A failing row is
``explained`` only by the ``edgeloss-*`` parts, on which the same ordering must pass.

Parts, on ``scenarios/aydin2004/``:

``csctp-<acquisition>`` (``road.toml``)
    Fig. 5: a mobile downloads for 6 minutes while it drives along a road of access routers at
    5, 10, 20, 60 and 80 km/h (1, 2, 4, 12 and 16 handoffs); cSCTP with a single primary; one
    part per address acquisition time (250 ms and 500 ms: Fig. 5(a); 1 s and 3 s: Fig. 5(b)).
``duplicated-<acquisition>`` (``road.toml``, ``sctp.csctp = "duplicated"``)
    The paper's proposal it did not evaluate: every new DATA chunk sent to both addresses
    during a handoff, with SACKs kept per path; beside the single primary at the same
    acquisition time.
``mobileip`` (``road-mobileip.toml``)
    The same road with Mobile IPv4 and a single-homed SCTP association: the network-layer
    baseline the paper's introduction argues against.
``edgeloss-<acquisition>`` (``road.toml`` with frame errors rising towards the cell edge)
    The counterfactual of R4 at the highest speed: 250 ms, 500 ms (full mode only; 50 runs of
    one point, about 1.5 min on 2 cores beside the 22 min of the full run) and 3 s.
``timeline-<acquisition>`` (``road.toml``, one seed, time series kept)
    Figs. 6 and 7: throughput against time with the handoff regions shaded; R5 and R6 compare
    each region's mean throughput with the stretch just before it.

Every value the paper leaves open is in :data:`CHOICES` (rendered into the report).
"""

from __future__ import annotations

import math
import re
from typing import Any, Collection

import numpy as np
import pandas as pd

from sctpsim.reproduce import Analysis, Context, Part, Study
from sctpsim.reproduce.claims import (Claim, Result, check, level, mean_ci, mean_ci_n, ordering, column as _col,
                                      diff_ci as _diff)
from sctpsim.scenarios import study_dir

ROAD = study_dir("aydin2004") / "road.toml"
ROAD_MIP = study_dir("aydin2004") / "road-mobileip.toml"

#: §III: "speeds of 5, 10, 20, 60, 80 km/h (i.e. 1, 2, 4, 12, 16 handoffs ...)".
SPEEDS_KMH = (5, 10, 20, 60, 80)
#: Fig. 5(a) (milliseconds) and 5(b) (seconds); Figs. 6 and 7 use these four.
ACQUISITIONS = ("250ms", "500ms", "1s", "3s")
#: The acquisition time of the duplicated-transfer comparison (its single-primary counterpart
#: is the ``csctp-1s`` part).
DUP_ACQUISITION = "1s"
#: §III: "Simulation time is 6 minutes"; "1200 bytes" of data per chunk.
DURATION_S = 360.0
CHUNK_BYTES = 1200
#: Geometry of road.toml: ARs every 500 m, 10 m off the road, range 300 m.
AR_SPACING_M, AR_OFFSET_M, RANGE_M = 500.0, 10.0, 300.0

P_ROUTE = "mobility.waypoints[0].positions_m"
P_ACQ = "cellular.acquisition_delay"

#: Sensitivity: frame errors rising towards the cell edge, p(d) = Q(40·log10(300/d)/σ) with
#: σ = 4 dB — log-normal shadowing (ns-2's outdoor σ) around the two-ray mean that meets the
#: 300 m threshold — as a distance-linear table (0 below 100 m, 21 % at 250 m, 50 % at 300 m).
EDGE_LOSS_POINTS = [[100.0, 0.0], [150.0, 0.0013], [175.0, 0.0096], [200.0, 0.0391], [225.0, 0.1058],
                    [250.0, 0.2142], [275.0, 0.3528], [300.0, 0.5]]
EDGE_LOSS_SETS = {"radio.frame_error.model": "distance-linear", "radio.frame_error.points": EDGE_LOSS_POINTS}
#: The acquisition times of the sensitivity at the highest speed: the two ends of Fig. 5 and
#: 500 ms, so that Fig. 5(a)'s pair (250 vs 500 ms) has its counterfactual too (R4).
EDGE_LOSS_ACQUISITIONS = ("250ms", "500ms", "3s")

CHOICES: list[tuple[str, str, str]] = [
    ("simulator", "sctpsim's 802.11 DCF (ns-2 WaveLAN PHY: two-ray ground, 1.5 m antennas, 0.28 W), threshold reception, 2 Mbit/s for data, control and broadcast frames",
     "the paper ran QualNet 3.x with its SCTP module and gives only the rate (2 Mbit/s) and the range (300 m)"),
    ("range", "RXThresh for 300 m with two-ray ground (1.76149e-10 W); carrier sense at ns-2's default CSThresh",
     "§III: 'communication range of 300 meters'"),
    ("road", "ARs every 500 m along the road, 10 m off it; the mobile starts under AR1 and drives v · 360 s; 17 ARs cover 80 km/h",
     "§III: 100 m handoff areas with a 300 m range put neighbouring ARs 500 m apart; the distances give the paper's 1, 2, 4, 12 and 16 handoffs"),
    ("wired network", "CN–GW1 100 Mbit/s 10 ms, GW1–GW2 (core) 10 Mbit/s 25 ms, GW2–ARk 100 Mbit/s 10 ms; drop-tail queues of 50 packets",
     "§III and Fig. 4; queue sizes not given: ns-2's DropTail default"),
    ("beacons and loss", "RFC 1256 router advertisements every 1 s, first at a random phase; an AR not heard for 3 s is lost",
     "§III: 'beacon message in every 1 second', 'up to 3 seconds'"),
    ("strength and primary", "beacon strength = received power (dBm) at the mobile; set-primary when another held address's AR is stronger (hysteresis 0 dB)",
     "§II.A: strength 'updated based on the signal strength of the beacon'; 'the CN always uses the best path'"),
    ("address acquisition", "fixed delay after the first beacon of a new AR (the study's 250 ms, 500 ms, 1 s, 3 s); the address held at t = 0 is the strongest AR's",
     "footnote 2: the time 'after the MN detects the new AR with beacon messages'"),
    ("handoff indication", "ASCONF chunk flags: 0x01 with the add-ip that starts a handoff, 0x02 with the delete-ip that ends it",
     "§II.A: a 'modified ASCONF chunk' signals the start and the end; the encoding is not given (docs/models/sctp.md)"),
    ("address policy", "the CN sends to the primary; the mobile sends SACKs from its strongest address in the association and ASCONFs from its strongest address",
     "§III, source-destination pair selection policy"),
    ("SCTP", "RFC 9260 parameters (RTO.Min 1 s, initial cwnd 4 MTU, delayed SACK 200 ms), 1200-byte DATA chunks, backlogged sender",
     "the QualNet SCTP module's parameters are not given; 'continuously downloads data'"),
    ("throughput", "DATA chunks (1200 B) delivered to the application in 360 s, as kbit/s of user data",
     "footnote 3: 'Total number of data chunks delivered to the application layer divided by the simulation time'"),
    ("duplicated transfer", "during a handoff every new DATA chunk also goes to the other address if its cwnd allows; SACKs per local address (docs/models/sctp.md, cSCTP)",
     "§II.B proposes it without evaluating it"),
    ("Mobile IP baseline", "every AR a home and foreign agent, advertisements every 1 s with a 3 s lifetime, movement detection by lifetime (RFC 5944), AR1 the home agent",
     "the issue's baseline; timers equal to the cellular beacons so both detect the loss of a cell alike"),
]


def route(speed_kmh: float) -> list[list[float]]:
    """The mobile's waypoints for ``speed_kmh`` (from AR1 along the road for 360 s)."""
    return [[0.0, 0.0], [round(speed_kmh / 3.6 * DURATION_S, 3), 0.0]]


def speed_of(v: Any) -> float:
    """The speed (km/h) of a ``positions_m`` value as the sweep records it."""
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", str(v))]
    return round(nums[2] / DURATION_S * 3.6, 3) if len(nums) >= 4 else math.nan


def acq_s(v: str) -> float:
    return float(v[:-2]) / 1000 if v.endswith("ms") else float(v[:-1])


def _parts(quick: bool) -> list[Part]:
    seeds = 2 if quick else 50
    speeds = (5, 20, 80) if quick else SPEEDS_KMH
    acqs = ("250ms", "1s", "3s") if quick else ACQUISITIONS
    vary = {P_ROUTE: [route(v) for v in speeds]}
    parts = [
        Part(name=f"csctp-{acq}", scenario=ROAD, vary=vary, seeds=seeds, sets={P_ACQ: acq},
             what=f"cSCTP, single primary, acquisition {acq}, {len(speeds)} speeds")
        for acq in acqs
    ]
    parts.append(Part(name=f"duplicated-{DUP_ACQUISITION}", scenario=ROAD, vary=vary, seeds=seeds,
                      sets={P_ACQ: DUP_ACQUISITION, "flows[0].sctp.csctp": "duplicated"},
                      what=f"cSCTP with duplicated transfer and per-path SACK, acquisition {DUP_ACQUISITION}"))
    parts.append(Part(name="mobileip", scenario=ROAD_MIP, vary=vary, seeds=seeds,
                      what="Mobile IPv4 on the same road (single-homed SCTP)"))
    for acq in (x for x in EDGE_LOSS_ACQUISITIONS if x in acqs):
        parts.append(Part(name=f"edgeloss-{acq}", scenario=ROAD, vary={P_ROUTE: [route(speeds[-1])]}, seeds=seeds,
                          sets={P_ACQ: acq, **EDGE_LOSS_SETS},
                          what=f"sensitivity: frame errors rising towards the cell edge, acquisition {acq}, {speeds[-1]} km/h"))
    for acq in (("250ms", "3s") if quick else ACQUISITIONS):
        parts.append(Part(name=f"timeline-{acq}", scenario=ROAD, vary=vary, seeds=1, sets={P_ACQ: acq}, timeseries=True,
                          what=f"throughput against time, acquisition {acq}"))
    return parts


# ---------------------------------------------------------------------------------------------
# Per-run quantities



def runs(ctx: Context) -> pd.DataFrame:
    """Every ok run of the throughput parts: mechanism, acquisition, speed, throughput."""
    frames = []
    for name, df in ctx.results.items():
        if name.startswith("timeline"):
            continue
        df = df[df["status"] == "ok"].copy()
        kind, _, acq = name.partition("-")
        df["mechanism"] = {"csctp": "csctp", "duplicated": "duplicated", "mobileip": "mobileip", "edgeloss": "edgeloss"}[kind]
        df["acquisition"] = acq or "—"
        df["speed_kmh"] = df[P_ROUTE].map(speed_of)
        df["chunks"] = _col(df, "sctp[0].messages_delivered")
        df["throughput_kbps"] = df["chunks"] * CHUNK_BYTES * 8 / DURATION_S / 1e3
        df["lost"] = _col(df, "sctp[0].associations_lost").fillna(0)
        df["errors"] = _col(df, "sctp[0].delivery_errors").fillna(0) + _col(df, "sctp[0].messages_missing").fillna(0)
        df["outage_s"] = _col(df, "handoffs.outage_s.mean")
        frames.append(df)
    return pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame()


def handoffs(ctx: Context) -> pd.DataFrame:
    """Every handover row of the throughput parts, with its part, speed and acquisition."""
    h = ctx.long_table("handoffs", skip=lambda p: p.startswith("timeline"))
    if h.empty:
        return h
    h["speed_kmh"] = h[P_ROUTE].map(speed_of)
    parts = ["outage_detection_s", "outage_acquisition_s", "outage_add_ip_s", "outage_wait_primary_s", "outage_switch_s"]
    h["breakdown_s"] = h[parts].sum(axis=1, min_count=1) if set(parts) <= set(h.columns) else math.nan
    return h


def cells(r: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95 % half-width of throughput per (mechanism, acquisition, speed)."""
    rows = []
    for (mech, acq, v), g in r.groupby(["mechanism", "acquisition", "speed_kmh"]):
        m, ci = mean_ci(g["throughput_kbps"])
        o, oci = mean_ci(g["outage_s"])
        rows.append({"mechanism": mech, "acquisition": acq, "speed_kmh": v, "mean": m, "ci95": ci, "n": len(g),
                     "outage_s": o, "outage_ci95": oci, "lost": float(g["lost"].sum())})
    return pd.DataFrame(rows)



def handoff_regions(speed_kmh: float) -> list[tuple[float, float]]:
    """(enter, leave) times of the overlaps of neighbouring cells along the road at ``speed_kmh``."""
    v = speed_kmh / 3.6
    reach = math.sqrt(RANGE_M**2 - AR_OFFSET_M**2)
    out = []
    k = 0
    while True:
        a, b = (k + 1) * AR_SPACING_M - reach, k * AR_SPACING_M + reach
        if a / v > DURATION_S:
            break
        out.append((a / v, min(b / v, DURATION_S)))
        k += 1
    return out


# ---------------------------------------------------------------------------------------------
# Figs. 6 and 7: throughput inside and outside the handoff regions


def timelines(ctx: Context) -> pd.DataFrame:
    """The cumulative bytes delivered to the mobile's application against time, one series per
    run of the ``timeline-*`` parts: columns acquisition, speed_kmh, seed, time_s, bytes."""
    frames = []
    for name, df in ctx.results.items():
        if not name.startswith("timeline-"):
            continue
        acq = name.removeprefix("timeline-")
        for _, run in df[df["status"] == "ok"].iterrows():
            ts = ctx.timeseries(name, run["key"])
            if ts is None:
                continue
            f = ts[(ts.scope == "flow") & (ts.id == 0) & (ts.metric == "bytes_delivered")].sort_values("time_s")
            frames.append(pd.DataFrame({"acquisition": acq, "speed_kmh": speed_of(run[P_ROUTE]), "seed": run.get("seed", 0),
                                        "time_s": f["time_s"].to_numpy(dtype=float), "bytes": f["value"].to_numpy(dtype=float)}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["acquisition", "speed_kmh", "seed", "time_s", "bytes"])


def region_rates(tl: pd.DataFrame) -> pd.DataFrame:
    """Per handoff region of every timeline run: the mean throughput inside the region (the
    paper's shaded rectangle, :func:`handoff_regions`) and in the stretch outside the regions
    just before it (from the previous region's end, or t = 0), in kbit/s of user data.

    The paper's Figs. 6–7 statement, "while MN is experiencing a handoff, its (instantaneous)
    throughput decreases", is then a paired difference per region: before minus inside. The
    stretch before (not after) the region is used because cSCTP's delete-ip and its cwnd
    effects fall after the region's end; the first stretch includes the association's set-up
    and slow start, which lowers "before" (against the paper's direction)."""
    rows = []
    if tl.empty:
        return pd.DataFrame(columns=["acquisition", "speed_kmh", "seed", "region", "t0_s", "t1_s", "inside_kbps", "before_kbps"])
    for (acq, v, seed), g in tl.groupby(["acquisition", "speed_kmh", "seed"]):
        t = g["time_s"].to_numpy(dtype=float)
        b = g["bytes"].to_numpy(dtype=float)
        if len(t) == 0 or not math.isfinite(float(v)):
            continue
        if t[0] > 0.0:  # the application has received nothing at t = 0
            t, b = np.concatenate(([0.0], t)), np.concatenate(([0.0], b))

        def at(x: float) -> float:
            return float(np.interp(x, t, b))

        prev = 0.0
        for k, (t0, t1) in enumerate(handoff_regions(float(v))):
            t1 = min(t1, float(t[-1]))
            if t1 - t0 > 0 and t0 - prev > 0:
                rows.append({"acquisition": acq, "speed_kmh": float(v), "seed": seed, "region": k, "t0_s": t0, "t1_s": t1,
                             "inside_kbps": (at(t1) - at(t0)) * 8 / (t1 - t0) / 1e3,
                             "before_kbps": (at(t0) - at(prev)) * 8 / (t0 - prev) / 1e3})
            prev = t1
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Analysis

#: Every result the paper reports, in its order (DESIGN.md §6 "Claims": coverage first).
RESULTS: list[Result] = [
    Result("R1", "§III", "speeds of 5, 10, 20, 60, 80 km/h give 1, 2, 4, 12, 16 handoffs in the 6 minutes"),
    Result("R2", "Fig. 5(a), 5(b), §III", "as the speed (handoff rate) increases the overall throughput at the MN decreases, "
           "in both ranges of acquisition time"),
    Result("R3", "Fig. 5(a), 5(b), §III", "as the speed increases the confidence intervals get bigger (the stability of the "
           "system decreases)"),
    Result("R4", "Fig. 5(a), 5(b)", "throughput for acquisition times of 250 ms, 500 ms (a) and 1 s, 3 s (b); read from the "
           "figure's design as: the longer acquisition time lies lower (the text states no order)"),
    Result("R5", "Fig. 6, §III", "acquisition 250 ms and 500 ms: while the MN is inside a handoff region its (instantaneous) "
           "throughput decreases"),
    Result("R6", "Fig. 7, §III", "acquisition 1 s and 3 s: while the MN is inside a handoff region its (instantaneous) "
           "throughput decreases"),
    Result("R7", "§III", "the CN keeps the old primary until told to change; if the old address is not strong enough, chunks "
           "sent to it are lost, which reduces cwnd and causes retransmissions",
           no_row="a mechanism offered to explain Figs. 6–7, conditional on the old path being weak; the paper gives neither a "
                  "number nor a shape for it"),
    Result("R8", "§III", "the new primary's cwnd is built only after the CN changes its primary destination",
           no_row="a mechanism offered to explain Figs. 6–7; the paper gives neither a number nor a shape for it"),
]

#: Fig. 5's two panels and the comparison across them (R4), as (shorter, longer, what).
ACQUISITION_PAIRS = (("250ms", "500ms", "Fig. 5(a), milliseconds"), ("1s", "3s", "Fig. 5(b), seconds"),
                     ("250ms", "3s", "both ranges"))
#: Figs. 6 (250 ms, 500 ms) and 7 (1 s, 3 s): the result each timeline part tests.
TIMELINE_RESULT = {"250ms": "R5", "500ms": "R5", "1s": "R6", "3s": "R6"}
#: Brown–Forsythe needs at least this many runs per group: with two, both absolute deviations
#: from the median are equal, so each group's spread of deviations is 0 and any difference
#: would look exact.
SPREAD_MIN_RUNS = 3


def _analyse(ctx: Context) -> Analysis:
    from sctpsim.reproduce import aydin2004_report as rep

    h = handoffs(ctx)
    r = with_handoff_counts(runs(ctx), h)
    c = cells(r) if not r.empty else pd.DataFrame()
    w = region_rates(timelines(ctx))
    claims = claims_from(r, h, w, ctx.results.keys())
    figs = rep.figures(ctx, c, h)
    return Analysis(claims, rep.report(ctx, r, c, h, w, claims, figs), results=RESULTS)


def with_handoff_counts(r: pd.DataFrame, h: pd.DataFrame) -> pd.DataFrame:
    """``r`` with a column ``handoffs``: the cSCTP handoff rows of each run (0 if none)."""
    if r.empty:
        return r
    r = r.copy()
    if h.empty or "key" not in h.columns or "key" not in r.columns:
        r["handoffs"] = math.nan
        return r
    hc = h[h["mechanism"] == "csctp"] if "mechanism" in h.columns else h
    counts = hc.groupby(["part", "key"]).size()
    r["handoffs"] = [float(counts.get((p, k), 0)) for p, k in zip(r["part"], r["key"])]
    return r


def _at(r: pd.DataFrame, mech: str, acq: str, speed: float, col: str = "throughput_kbps") -> pd.Series:
    g = r[(r["mechanism"] == mech) & (r["acquisition"] == acq) & (r["speed_kmh"] == speed)]
    return g[col]


def spread_diff(hi: pd.Series, lo: pd.Series) -> tuple[float, float, int]:
    """Brown–Forsythe comparison of run-to-run spread: each run's absolute deviation from its
    group's median, mean of ``hi``'s minus mean of ``lo``'s (Welch 95 % half-width), and the
    smaller group's size. NaN half-width below :data:`SPREAD_MIN_RUNS` runs a group.

    Fig. 5's 95 % half-widths are t·sd/√n with the same n at every speed, so "the confidence
    intervals get bigger" is "the run-to-run spread is larger"; a ratio of two half-widths has
    no CI of its own (and is infinite when the slower one is 0)."""
    xh = [float(x) for x in hi if math.isfinite(float(x))]
    xl = [float(x) for x in lo if math.isfinite(float(x))]
    n = min(len(xh), len(xl))
    if n == 0:
        return math.nan, math.nan, 0
    zh = [abs(x - float(np.median(xh))) for x in xh]
    zl = [abs(x - float(np.median(xl))) for x in xl]
    d, hw = _diff(zh, zl)
    return d, (hw if n >= SPREAD_MIN_RUNS else math.nan), n


def _n(*groups: pd.Series) -> int:
    return min((int(g.notna().sum()) for g in groups), default=0)


def claims_from(r: pd.DataFrame, h: pd.DataFrame, w: pd.DataFrame, parts: Collection[str] = ()) -> list[Claim]:
    """Every claim row from the runs of the throughput parts (:func:`runs` with
    :func:`with_handoff_counts`), their handoff rows (:func:`handoffs`), the timeline parts'
    per-region rates (:func:`region_rates`) and the names of the parts present (for the
    counterfactual ``edgeloss-*`` parts). Pure: the tests feed it synthetic frames."""
    out: list[Claim] = []
    if r.empty:
        return out
    cs = r[r["mechanism"] == "csctp"]
    speeds = sorted(float(v) for v in cs["speed_kmh"].dropna().unique())
    acqs = [a for a in ACQUISITIONS if a in set(cs["acquisition"])]
    lo_v, hi_v = (speeds[0], speeds[-1]) if speeds else (math.nan, math.nan)
    # R1: the road gives §III's handoff counts (every single-primary part pooled: the count is the road's).
    paper_counts = dict(zip(SPEEDS_KMH, (1, 2, 4, 12, 16)))
    if "handoffs" in cs.columns:
        for v in speeds:
            if v not in paper_counts:
                continue
            m, hw, n = mean_ci_n(cs[cs["speed_kmh"] == v]["handoffs"])
            out.append(level(
                "handoffs_per_run", f"{v:g} km/h, cSCTP single primary, every acquisition time", paper=paper_counts[int(v)],
                mean=m, ci95=hw, unit="handoffs", result="R1", n=n,
                why="§III: 'speeds of 5, 10, 20, 60, 80 km/h (i.e., 1, 2, 4, 12, 16 handoffs ...)'; a handoff is a handoffs.parquet "
                    "row (a new address acquired while another is held)"))
    # R2: throughput falls with speed, at every acquisition time (both panels of Fig. 5).
    for acq in acqs:
        a, b = _at(r, "csctp", acq, lo_v), _at(r, "csctp", acq, hi_v)
        d, hw = _diff(a, b)
        out.append(ordering(
            "throughput_falls_with_speed", f"acquisition {acq}: {lo_v:g} minus {hi_v:g} km/h", paper="falls", diff=d, ci95=hw,
            unit="kbit/s", result="R2", n=_n(a, b),
            why="§III: 'as the speed (handoff rate) increases the overall throughput at the MN decreases'; the slowest minus the "
                "fastest speed run, Welch 95 % CI"))
    # R3: the confidence intervals widen with speed: the run-to-run spread, Brown–Forsythe.
    for acq in acqs:
        a, b = _at(r, "csctp", acq, hi_v), _at(r, "csctp", acq, lo_v)
        d, hw, n = spread_diff(a, b)
        sd = {v: float(_at(r, "csctp", acq, v).std()) for v in (lo_v, hi_v)}
        out.append(ordering(
            "ci_widens_with_speed", f"acquisition {acq}: spread at {hi_v:g} minus at {lo_v:g} km/h", paper="wider", diff=d, ci95=hw,
            unit="kbit/s (mean |deviation from the median|)", result="R3", n=n,
            why="§III: 'confidence intervals get bigger'; with equal runs per point a wider CI is a larger run-to-run spread, "
                "compared by the Brown–Forsythe statistic (each run's absolute deviation from its point's median, Welch 95 % CI "
                f"of the difference; at least {SPREAD_MIN_RUNS} runs a point)",
            note=f"run-to-run standard deviation {sd[lo_v]:.3g} kbit/s at {lo_v:g} km/h, {sd[hi_v]:.3g} at {hi_v:g} km/h"))
    # R4: throughput falls with the acquisition time at the highest speed, in each panel of Fig. 5.
    for a_acq, b_acq, what in ACQUISITION_PAIRS:
        if a_acq not in acqs or b_acq not in acqs:
            continue
        a, b = _at(r, "csctp", a_acq, hi_v), _at(r, "csctp", b_acq, hi_v)
        d, hw = _diff(a, b)
        why = ("Fig. 5: the curves of longer acquisition times lie lower (read from the figure's design; the text states no "
               "order); shorter minus longer acquisition at the highest speed, Welch 95 % CI")
        out_ms = [f"{x}: {float(_at(r, 'csctp', x, hi_v, 'outage_s').mean()) * 1e3:.0f} ms" for x in (a_acq, b_acq)]
        row = ordering("throughput_falls_with_acquisition", f"{hi_v:g} km/h: {a_acq} minus {b_acq} ({what})", paper="falls",
                       diff=d, ci95=hw, unit="kbit/s", result="R4", n=_n(a, b), why=why,
                       note=f"mean outage per handoff at {hi_v:g} km/h {', '.join(out_ms)}")
        ea, eb = f"edgeloss-{a_acq}", f"edgeloss-{b_acq}"
        if row.outcome == "fail" and ea in parts and eb in parts:
            # The counterfactual: frame errors rising towards the cell edge (QualNet's 802.11
            # PHY can receive by bit-error rate; ours by threshold, error-free to the edge).
            va, vb = _at(r, "edgeloss", a_acq, hi_v), _at(r, "edgeloss", b_acq, hi_v)
            dv, hv = _diff(va, vb)
            variant = ordering("throughput_falls_with_acquisition",
                               f"{hi_v:g} km/h, frame errors towards the cell edge: {a_acq} minus {b_acq} ({what})",
                               paper="falls", diff=dv, ci95=hv, unit="kbit/s", result="R4", n=_n(va, vb), why=why)
            row.explained_by(variant, eb, parts,
                             what=f"with `{ea}`: frame errors rising towards the cell edge, log-normal shadowing σ 4 dB, in "
                                  "place of error-free threshold reception")
        out.append(row)
    # R5, R6: Figs. 6–7, throughput lower inside the handoff regions than just before them.
    if not w.empty:
        for acq in ACQUISITIONS:
            g = w[w["acquisition"] == acq]
            if g.empty:
                continue
            m, hw, n = mean_ci_n(g["before_kbps"] - g["inside_kbps"])
            per_v = ", ".join(f"{v:g} km/h {float((x['before_kbps'] - x['inside_kbps']).mean()):.1f} ({len(x)})"
                              for v, x in g.groupby("speed_kmh"))
            out.append(ordering(
                "throughput_lower_in_handoff_regions", f"acquisition {acq}: before minus inside a region, every speed",
                paper="lower inside", diff=m, ci95=hw, unit="kbit/s", result=TIMELINE_RESULT[acq], n=n,
                why="§III on Figs. 6–7: 'while MN is experiencing a handoff, its (instantaneous) throughput decreases'; per "
                    "region (the shaded overlap of two cells), the mean throughput in the stretch before it minus inside it; "
                    "one run per speed (the timeline parts), so n counts regions, not seeds",
                note=f"mean difference (regions) by speed: {per_v}"))
    # Our own invariants (checks).
    fast = cs[(cs["speed_kmh"] == hi_v) & cs["acquisition"].map(lambda a: acq_s(a) <= 1.0)]
    lost = float((fast["lost"] > 0).sum())
    out.append(check(
        "no_association_lost", f"{len(fast)} runs at {hi_v:g} km/h, acquisition ≤ 1 s", ok=lost == 0 and len(fast) > 0, value=lost,
        unit="runs", bound="0 runs", n=len(fast), why="a handoff must not abort the association"))
    bad = float(r["errors"].sum())
    out.append(check(
        "exact_delivery", f"every run ({len(r)})", ok=bad == 0.0 and len(r) > 0, value=bad, unit="messages",
        bound="0 corrupted, duplicated, reordered or missing", n=len(r), why="handoffs must not break the transport's service"))
    if not h.empty and "outage_s" in h.columns:
        hc = h[(h["mechanism"] == "csctp") & h["outage_s"].notna()]
        err = float((hc["breakdown_s"] - hc["outage_s"]).abs().max()) if len(hc) else math.nan
        out.append(check(
            "breakdown_adds_up", f"{len(hc)} cSCTP handoffs with an outage measured", ok=len(hc) > 0 and err <= 1e-3,
            value=err * 1e3, unit="ms (largest error)", bound="≤ 1 ms", n=len(hc),
            why="the five phases must account for the whole outage"))
    # Extensions: comparisons the paper did not make.
    if "duplicated" in set(r["mechanism"]):
        a, b = _at(r, "duplicated", DUP_ACQUISITION, hi_v), _at(r, "csctp", DUP_ACQUISITION, hi_v)
        d, hw = _diff(a, b)
        note = ""
        if not h.empty and "part" in h.columns:
            dup = h[(h["part"] == f"duplicated-{DUP_ACQUISITION}") & (h["speed_kmh"] == hi_v)]
            single = h[(h["part"] == f"csctp-{DUP_ACQUISITION}") & (h["speed_kmh"] == hi_v)]
            dd = float(dup["data_duplicated"].mean()) if "data_duplicated" in dup.columns and len(dup) else math.nan
            note = (f"mean outage per handoff {float(dup['outage_s'].mean()) * 1e3:.1f} ms duplicated against "
                    f"{float(single['outage_s'].mean()) * 1e3:.1f} ms single primary; {dd:.0f} duplicate chunks per handoff")
        out.append(ordering(
            "duplicated_improves_throughput", f"{hi_v:g} km/h, acquisition {DUP_ACQUISITION}: duplicated minus single primary",
            paper="higher (hoped)", diff=d, ci95=hw, unit="kbit/s", source="extension", n=_n(a, b), note=note,
            why="§III ends: 'We hope to mitigate these negative effects by implementing our duplicate data transfer approach' "
                "— a hope, not a result: the paper did not simulate it"))
    if "mobileip" in set(r["mechanism"]):
        a, b = _at(r, "csctp", DUP_ACQUISITION, hi_v), _at(r, "mobileip", "—", hi_v)
        d, hw = _diff(a, b)
        out.append(ordering(
            "csctp_beats_mobile_ip", f"{hi_v:g} km/h: cSCTP ({DUP_ACQUISITION}) minus Mobile IPv4", paper="higher (argued)",
            diff=d, ci95=hw, unit="kbit/s", source="extension", n=_n(a, b),
            why="§I argues that network-layer mobility has 'long handoff latency'; the paper simulated no Mobile IP"))
    return out


def outage_by(h: pd.DataFrame, part: str, speed: float) -> tuple[float, float, int]:
    """Mean outage per handoff (s), its half-width and the number of handoffs."""
    g = h[(h["part"] == part) & (h["speed_kmh"] == speed)]["outage_s"].dropna()
    m, ci = mean_ci(g)
    return m, ci, len(g)


STUDY = Study(
    name="aydin2004",
    title="Aydin & Shen 2005: cellular SCTP handoffs between access routers vs speed and address acquisition time",
    parts=_parts,
    analyse=_analyse,
)
