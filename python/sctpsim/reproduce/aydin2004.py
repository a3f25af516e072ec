"""Aydin & Shen, "Evaluating Cellular SCTP over One-Hop Wireless Networks" (VTC 2005-Fall;
../shared/papers/aydin-shen-cellular-sctp.txt). The paper publishes figures without numbers, so
its results (:data:`RESULTS`, R1…R8) are shapes, tested as orderings (DESIGN.md §6 "Claims"):
throughput falls with speed (R2) and, read from Fig. 5's design, with the address acquisition
time (R4); the confidence intervals widen with speed (R3); throughput is lower inside the handoff
regions of Figs. 6–7 (R5, R6). The only number is §III's handoff count per speed (R1, a level).
R7 and R8, §III's mechanism (the old primary weakens before set-primary, so chunks are lost, cwnd
is cut and chunks retransmitted; the new path's cwnd builds only after the switch), are tested
per handoff on the time series of the timeline parts. Exact delivery, no association lost and
the outage breakdown are our checks; duplicated transfer (the paper's hope) and Mobile IP (its
introduction's argument) are extensions.

Two radio configurations. The **threshold** radio (ns-2's: error-free to 300 m) is the main one:
its rows count in the headline. The **cell-edge** radio (:data:`CELL_EDGE_SETS`: SINR reception
with QualNet's 802.11b sensitivity and noise factor, and frame errors rising towards the cell
edge) is a second configuration; every paper row is computed on it too, by the same code, as a
twin (case suffix :data:`CELL_EDGE_SUFFIX`), reported beside the main rows and written to
``claims-celledge.csv``; it never counts in the headline. A failing main row is ``explained``
only when its cell-edge twin passes (:func:`explain_by_cell_edge`).

Parts, on ``scenarios/aydin2004/``:

``csctp-<acquisition>`` (``road.toml``)
    Fig. 5: a mobile downloads for 6 minutes while it drives along a road of access routers at
    5, 10, 20, 60 and 80 km/h (1, 2, 4, 12 and 16 handoffs); cSCTP with a single primary; one
    part per address acquisition time (250 ms and 500 ms: Fig. 5(a); 1 s and 3 s: Fig. 5(b)).
``celledge-<acquisition>`` (``road.toml`` with :data:`CELL_EDGE_SETS`)
    The same grid on the cell-edge radio.
``duplicated-<acquisition>`` (``road.toml``, ``sctp.csctp = "duplicated"``)
    The paper's proposal it did not evaluate: every new DATA chunk sent to both addresses
    during a handoff, with SACKs kept per path; beside the single primary at the same
    acquisition time (:data:`EXTENSION_SEEDS` seeds in full mode).
``mobileip`` (``road-mobileip.toml``)
    The same road with Mobile IPv4 and a single-homed SCTP association: the network-layer
    baseline the paper's introduction argues against (:data:`EXTENSION_SEEDS` seeds).
``timeline-<acquisition>``, ``timeline-celledge-<acquisition>`` (one seed a speed, time series kept)
    Figs. 6 and 7: throughput against time with the handoff regions shaded; R5 and R6 compare
    each region's mean throughput with the stretch just before it; R7 and R8 read each
    handoff's per-path cwnd and retransmissions (:func:`breakdown`).

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

#: Frame errors rising towards the cell edge, p(d) = Q(40·log10(300/d)/σ) with σ = 4 dB —
#: log-normal shadowing (ns-2's outdoor σ) around the two-ray mean that meets the 300 m edge —
#: as a distance-linear table (0 below 100 m, 21 % at 250 m, 50 % at 300 m).
EDGE_LOSS_POINTS = [[100.0, 0.0], [150.0, 0.0013], [175.0, 0.0096], [200.0, 0.0391], [225.0, 0.1058],
                    [250.0, 0.2142], [275.0, 0.3528], [300.0, 0.5]]
EDGE_LOSS_SETS = {"radio.frame_error.model": "distance-linear", "radio.frame_error.points": EDGE_LOSS_POINTS}
#: QualNet's 802.11b PHY (PHY802.11b, BER-based reception): receive sensitivity at 2 Mbit/s and
#: at 1 Mbit/s (the level at which it senses a busy channel), noise factor 10 (dB), 290 K.
QUALNET_RX_SENSITIVITY_2M_DBM = -89.0
QUALNET_RX_SENSITIVITY_1M_DBM = -93.0
QUALNET_NOISE_FACTOR_DB = 10.0
#: Transmit power that puts QualNet's 2 Mbit/s sensitivity at the paper's 300 m with two-ray
#: ground and 1.5 m antennas: Pt = S·d⁴/(ht²·hr²) (QualNet's default 15 dBm would reach ~600 m).
CELL_EDGE_TX_POWER_W = round(10 ** (QUALNET_RX_SENSITIVITY_2M_DBM / 10) * 1e-3 * RANGE_M**4 / 1.5**4, 9)
#: The cell-edge radio: SINR reception (cumulative interference, the DSSS BER of docs/models/phy.md)
#: with QualNet's sensitivity, carrier sense and noise factor, plus the edge frame errors.
CELL_EDGE_SETS: dict[str, Any] = {
    "radio.reception": "sinr",
    "radio.tx_power": f"{CELL_EDGE_TX_POWER_W:.6g}W",
    "radio.rx_thresh": f"{QUALNET_RX_SENSITIVITY_2M_DBM:g}dBm",
    "radio.cs_thresh": f"{QUALNET_RX_SENSITIVITY_1M_DBM:g}dBm",
    "radio.noise_figure_db": QUALNET_NOISE_FACTOR_DB,
    **EDGE_LOSS_SETS,
}
#: The two radio configurations: (name, throughput mechanism, part prefix, what).
CONFIGS = (("threshold", "csctp", "csctp", "threshold radio (main)"),
           ("cell-edge", "celledge", "celledge", "cell-edge radio"))
#: The case suffix of a row computed on the cell-edge radio (its twin of a main row).
CELL_EDGE_SUFFIX = " [cell-edge radio]"
#: Seeds of the extension parts (duplicated transfer, Mobile IP) in full mode: fewer than the
#: paper's 50 to keep the full run under 30 minutes on 2 cores with the cell-edge grid.
EXTENSION_SEEDS = 20

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
    ("cell-edge radio (second configuration)",
     "SINR reception (cumulative interference; DSSS DQPSK bit errors at 2 Mbit/s, docs/models/phy.md) with QualNet 802.11b's "
     "2 Mbit/s sensitivity −89 dBm as the lock-on level (so the range stays 300 m), carrier sense at its 1 Mbit/s sensitivity "
     "−93 dBm, noise factor 10 dB at 290 K over 22 MHz, transmit power 2.01 mW (3.0 dBm) to put −89 dBm at 300 m with two-ray "
     "ground; frame errors rising towards the edge on top (log-normal shadowing σ 4 dB: 21 % at 250 m, 50 % at 300 m)",
     "the paper does not say which QualNet reception model it used; QualNet's 802.11b PHY receives by bit-error rate "
     "(PHY-RX-MODEL PHY802.11b). Its defaults in public QualNet material: a QualNet 3.x scenario template writes TX power "
     "15 dBm and sensitivities −93/−89/−87/−83 dBm (1/2/5.5/11 Mbit/s), PHY-TEMPERATURE 290, PHY-NOISE-FACTOR 10; QualNet "
     "6.x's phy_802_11.h (2013) has 15 dBm and −94/−91/−87/−83 dBm, noise over 2 MHz (22/11) and carrier sense at the "
     "1 Mbit/s sensitivity. We take the older values (nearer 2005). QualNet's 15 dBm would give ~600 m with two-ray ground "
     "against the paper's 300 m, so the power follows the range. Shadowing σ and its mean: not documented for the paper, "
     "ours (ns-2's outdoor σ 4 dB)"),
    ("headline and the two radios",
     "the threshold radio's rows count in the headline; the cell-edge radio's are twins reported beside them "
     "(claims-celledge.csv); a failing main row is explained only when its cell-edge twin passes",
     "the paper's radio is unknown; the threshold radio is the one the earlier runs were built on and keeps its place"),
    ("handoff mechanism (R7, R8)",
     "per handoff of the timeline runs: region entry = the first beacon of the new AR (detected_s); the switch = the CN's "
     "path_switch after the set-primary; old / new path = the CN's primary before / after it; cwnd the last sample at or "
     "before each instant; retransmissions = fast and T3 retransmissions sent on the old path between entry and switch",
     "§III describes the mechanism without numbers; these are the quantities it names"),
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
    ext_seeds = 2 if quick else EXTENSION_SEEDS
    speeds = (5, 20, 80) if quick else SPEEDS_KMH
    acqs = ("250ms", "1s", "3s") if quick else ACQUISITIONS
    vary = {P_ROUTE: [route(v) for v in speeds]}
    parts = [
        Part(name=f"csctp-{acq}", scenario=ROAD, vary=vary, seeds=seeds, sets={P_ACQ: acq},
             what=f"cSCTP, single primary, acquisition {acq}, {len(speeds)} speeds")
        for acq in acqs
    ]
    parts += [
        Part(name=f"celledge-{acq}", scenario=ROAD, vary=vary, seeds=seeds, sets={P_ACQ: acq, **CELL_EDGE_SETS},
             what=f"cSCTP, single primary, acquisition {acq}, {len(speeds)} speeds, cell-edge radio")
        for acq in acqs
    ]
    parts.append(Part(name=f"duplicated-{DUP_ACQUISITION}", scenario=ROAD, vary=vary, seeds=ext_seeds,
                      sets={P_ACQ: DUP_ACQUISITION, "flows[0].sctp.csctp": "duplicated"},
                      what=f"cSCTP with duplicated transfer and per-path SACK, acquisition {DUP_ACQUISITION}"))
    parts.append(Part(name="mobileip", scenario=ROAD_MIP, vary=vary, seeds=ext_seeds,
                      what="Mobile IPv4 on the same road (single-homed SCTP)"))
    for acq in (("250ms", "3s") if quick else ACQUISITIONS):
        parts.append(Part(name=f"timeline-{acq}", scenario=ROAD, vary=vary, seeds=1, sets={P_ACQ: acq}, timeseries=True,
                          what=f"throughput against time, acquisition {acq}"))
        parts.append(Part(name=f"timeline-celledge-{acq}", scenario=ROAD, vary=vary, seeds=1,
                          sets={P_ACQ: acq, **CELL_EDGE_SETS}, timeseries=True,
                          what=f"throughput against time, acquisition {acq}, cell-edge radio"))
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
        df["mechanism"] = {"csctp": "csctp", "duplicated": "duplicated", "mobileip": "mobileip", "celledge": "celledge"}[kind]
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
    run of the ``timeline-*`` parts: columns config, acquisition, speed_kmh, seed, time_s, bytes."""
    frames = []
    for name, df in ctx.results.items():
        if not name.startswith("timeline-"):
            continue
        config, acq = timeline_config(name)
        for _, run in df[df["status"] == "ok"].iterrows():
            ts = ctx.timeseries(name, run["key"])
            if ts is None:
                continue
            f = ts[(ts.scope == "flow") & (ts.id == 0) & (ts.metric == "bytes_delivered")].sort_values("time_s")
            frames.append(pd.DataFrame({"config": config, "acquisition": acq, "speed_kmh": speed_of(run[P_ROUTE]), "seed": run.get("seed", 0),
                                        "time_s": f["time_s"].to_numpy(dtype=float), "bytes": f["value"].to_numpy(dtype=float)}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["config", "acquisition", "speed_kmh", "seed", "time_s", "bytes"])


def timeline_config(name: str) -> tuple[str, str]:
    """(configuration, acquisition) of a ``timeline-*`` part."""
    acq = name.removeprefix("timeline-")
    if acq.startswith("celledge-"):
        return "cell-edge", acq.removeprefix("celledge-")
    return "threshold", acq


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
        return pd.DataFrame(columns=["config", "acquisition", "speed_kmh", "seed", "region", "t0_s", "t1_s", "inside_kbps",
                                     "before_kbps"])
    if "config" not in tl.columns:
        tl = tl.assign(config="threshold")
    for (config, acq, v, seed), g in tl.groupby(["config", "acquisition", "speed_kmh", "seed"]):
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
                rows.append({"config": config, "acquisition": acq, "speed_kmh": float(v), "seed": seed, "region": k,
                             "t0_s": t0, "t1_s": t1,
                             "inside_kbps": (at(t1) - at(t0)) * 8 / (t1 - t0) / 1e3,
                             "before_kbps": (at(t0) - at(prev)) * 8 / (t0 - prev) / 1e3})
            prev = t1
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# §III's mechanism per handoff (R7, R8): per-path cwnd and retransmissions around the switch

BREAKDOWN_COLUMNS = ["config", "acquisition", "speed_kmh", "seed", "entry_s", "switch_s", "old_path", "new_path",
                     "old_cwnd_entry", "old_cwnd_switch", "old_cwnd_min", "old_fast_rtx", "old_t3_rtx", "new_cwnd_switch",
                     "recover_s"]


def _cwnd_at(cw: pd.DataFrame, path: str, t: float) -> float:
    """``path``'s cwnd (bytes) at ``t``: its last sample at or before ``t`` (NaN if none)."""
    g = cw[(cw["dir"] == path) & (cw["time_s"] <= t)]
    return float(g["value"].iloc[-1]) if len(g) else math.nan


def handoff_mechanism(ts: pd.DataFrame, h: pd.DataFrame) -> pd.DataFrame:
    """§III's mechanism for each cSCTP handoff row of one run (``h``, handoffs.parquet) from the
    run's time series (``ts``, flow 0's per-path rows): the old primary's cwnd when the mobile
    enters the handoff region (the first beacon of the new AR, ``detected_s``) and just before
    the switch (the ``asconf_set_primary`` row of the set-primary this handoff sent: the CN has
    changed its primary by then), its smallest value in between, the fast and T3 retransmissions
    sent on it in between, the new primary's cwnd at the switch and how long after the switch it
    first reaches the old path's cwnd at entry (NaN if it does not before the next handoff's
    entry or the run's end). Old path = the primary before the switch (the previous
    set-primary's address, at first the path of the first DATA). Columns
    :data:`BREAKDOWN_COLUMNS` without config, acquisition, speed and seed."""
    cols = BREAKDOWN_COLUMNS[4:]
    if ts is None or ts.empty or h.empty or "set_primary_sent_s" not in h.columns:
        return pd.DataFrame(columns=cols)
    f = ts[(ts["scope"] == "flow") & (ts["id"] == 0)].sort_values("time_s", kind="stable")
    cw = f[f["metric"] == "cwnd_bytes"]
    sp_rows = f[f["metric"] == "asconf_set_primary"]
    rtx = f[f["metric"].isin(["tsn_fast_rtx", "tsn_t3_rtx"])]
    sent = f[f["metric"] == "tsn_sent"]
    first = str(sent["dir"].iloc[0]) if len(sent) else (str(cw["dir"].iloc[0]) if len(cw) else "")

    def primary_before(t: float) -> str:
        g = sp_rows[sp_rows["time_s"] < t]
        return str(g["dir"].iloc[-1]) if len(g) else first

    # A pair of routers opened twice (an address lost and acquired again while the other is
    # held) gives identical rows (the engine writes the last acquisition's times for each):
    # one handoff, measured once.
    hs = h.drop_duplicates(subset=["detected_s", "set_primary_sent_s"]).sort_values("detected_s")
    entries = hs["detected_s"].to_numpy(dtype=float)
    rows = []
    for k, (_, x) in enumerate(hs.iterrows()):
        entry, sp = float(x["detected_s"]), float(x["set_primary_sent_s"])
        if not (math.isfinite(entry) and math.isfinite(sp)):
            continue
        after = sp_rows[sp_rows["time_s"] >= sp]
        if after.empty:
            continue
        t_sw = float(after["time_s"].iloc[0])
        new, old = str(after["dir"].iloc[0]), primary_before(t_sw)
        if new == old or t_sw < entry:
            continue
        o_entry, o_sw = _cwnd_at(cw, old, entry), _cwnd_at(cw, old, t_sw)
        between = cw[(cw["dir"] == old) & (cw["time_s"] >= entry) & (cw["time_s"] <= t_sw)]["value"]
        o_min = float(min([o_entry, *between.astype(float)])) if math.isfinite(o_entry) else math.nan
        r = rtx[(rtx["dir"] == old) & (rtx["time_s"] >= entry) & (rtx["time_s"] <= t_sw)]
        n_sw = _cwnd_at(cw, new, t_sw)
        end = entries[k + 1] if k + 1 < len(entries) else math.inf
        later = cw[(cw["dir"] == new) & (cw["time_s"] >= t_sw) & (cw["time_s"] < end) & (cw["value"] >= o_entry)]
        rows.append({"entry_s": entry, "switch_s": t_sw, "old_path": old, "new_path": new, "old_cwnd_entry": o_entry,
                     "old_cwnd_switch": o_sw, "old_cwnd_min": o_min, "old_fast_rtx": int((r["metric"] == "tsn_fast_rtx").sum()),
                     "old_t3_rtx": int((r["metric"] == "tsn_t3_rtx").sum()), "new_cwnd_switch": n_sw,
                     "recover_s": float(later["time_s"].iloc[0]) - t_sw if len(later) and math.isfinite(o_entry) else math.nan})
    return pd.DataFrame(rows, columns=cols)


def breakdown(ctx: Context) -> pd.DataFrame:
    """:func:`handoff_mechanism` for every run of the ``timeline-*`` parts (columns
    :data:`BREAKDOWN_COLUMNS`)."""
    th = ctx.long_table("handoffs", skip=lambda p: not p.startswith("timeline-"))
    frames = []
    for name, df in ctx.results.items():
        if not name.startswith("timeline-") or th.empty:
            continue
        config, acq = timeline_config(name)
        for _, run in df[df["status"] == "ok"].iterrows():
            hr = th[(th["part"] == name) & (th["key"] == run["key"])]
            if "mechanism" in hr.columns:
                hr = hr[hr["mechanism"] == "csctp"]
            m = handoff_mechanism(ctx.timeseries(name, run["key"]), hr)
            if m.empty:
                continue
            frames.append(m.assign(config=config, acquisition=acq, speed_kmh=speed_of(run[P_ROUTE]), seed=run.get("seed", 0)))
    return pd.concat(frames, ignore_index=True)[BREAKDOWN_COLUMNS] if frames else pd.DataFrame(columns=BREAKDOWN_COLUMNS)


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
           "sent to it are lost, which reduces cwnd and causes retransmissions"),
    Result("R8", "§III", "the new primary's cwnd is built only after the CN changes its primary destination"),
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
    from sctpsim.reproduce.claims import write_claims

    h = handoffs(ctx)
    r = with_handoff_counts(runs(ctx), h)
    c = cells(r) if not r.empty else pd.DataFrame()
    w = region_rates(timelines(ctx))
    b = breakdown(ctx)
    claims, twins = claims_and_twins(r, h, w, ctx.results.keys(), b)
    write_claims(ctx.out / "claims-celledge.csv", twins)
    figs = rep.figures(ctx, c, h)
    return Analysis(claims, rep.report(ctx, r, c, h, w, b, claims, twins, figs), results=RESULTS)


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
    if "set_primary_sent_s" in hc.columns:
        sw = hc.dropna(subset=["set_primary_sent_s"]).groupby(["part", "key"])["set_primary_sent_s"].nunique()
        r["primary_changes"] = [float(sw.get((p, k), 0)) for p, k in zip(r["part"], r["key"])]
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


def claims_from(r: pd.DataFrame, h: pd.DataFrame, w: pd.DataFrame, parts: Collection[str] = (),
                b: pd.DataFrame | None = None) -> list[Claim]:
    """The main rows (the threshold radio's paper rows, explained where their cell-edge twin
    passes, our checks and the extensions): :func:`claims_and_twins`' first list."""
    return claims_and_twins(r, h, w, parts, b)[0]


def claims_and_twins(r: pd.DataFrame, h: pd.DataFrame, w: pd.DataFrame, parts: Collection[str] = (),
                     b: pd.DataFrame | None = None) -> tuple[list[Claim], list[Claim]]:
    """Every claim row from the runs of the throughput parts (:func:`runs` with
    :func:`with_handoff_counts`), their handoff rows (:func:`handoffs`), the timeline parts'
    per-region rates (:func:`region_rates`) and per-handoff mechanism (:func:`breakdown`), and
    the names of the parts present. Returns (main rows, cell-edge twins): the main rows are the
    threshold radio's paper rows (a failing one ``explained`` when its twin passes on the
    cell-edge parts, :func:`explain_by_cell_edge`), then checks and extensions; the twins are
    the same paper rows computed on the cell-edge radio. Pure: the tests feed it synthetic frames."""
    if r.empty:
        return [], []
    b = pd.DataFrame(columns=BREAKDOWN_COLUMNS) if b is None else b
    main, _ = paper_claims(r, w, b, "threshold")
    twins, evidence = paper_claims(r, w, b, "cell-edge")
    explain_by_cell_edge(main, twins, evidence, parts)
    return main + other_claims(r, h), twins


def explain_by_cell_edge(main: list[Claim], twins: list[Claim], evidence: dict[tuple[str, str], list[str]],
                         parts: Collection[str]) -> int:
    """Marks each failing main paper row ``explained`` whose cell-edge twin (same claim, case +
    :data:`CELL_EDGE_SUFFIX`) passes, when every part that twin rests on was run. Returns how
    many rows were explained."""
    by = {(v.claim, v.case): v for v in twins}
    n = 0
    for c in main:
        v = by.get((c.claim, c.case + CELL_EDGE_SUFFIX))
        need = evidence.get((c.claim, c.case + CELL_EDGE_SUFFIX), [])
        if c.source != "paper" or v is None or not need or not all(p in parts for p in need):
            continue
        n += c.explained_by(v, need[0], parts,
                            what="the cell-edge radio: SINR reception with QualNet's 802.11b sensitivity and noise factor, "
                                 "frame errors rising towards the cell edge, in place of error-free threshold reception"
                                 + (f"; also {', '.join(need[1:])}" if len(need) > 1 else ""))
    return n


def paper_claims(r: pd.DataFrame, w: pd.DataFrame, b: pd.DataFrame, config: str) -> tuple[list[Claim], dict[tuple[str, str], list[str]]]:
    """R1–R8's rows on one radio configuration (``threshold`` or ``cell-edge``), and for each
    row (claim, case) the parts it rests on."""
    mech, prefix = {"threshold": ("csctp", "csctp"), "cell-edge": ("celledge", "celledge")}[config]
    tl_prefix = "timeline-" if config == "threshold" else "timeline-celledge-"
    sfx = "" if config == "threshold" else CELL_EDGE_SUFFIX
    out: list[Claim] = []
    ev: dict[tuple[str, str], list[str]] = {}

    def add(row: Claim, rests_on: list[str]) -> None:
        out.append(row)
        ev[(row.claim, row.case)] = rests_on

    cs = r[r["mechanism"] == mech]
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
            pc = (f"; distinct set-primary changes {float(cs[cs['speed_kmh'] == v]['primary_changes'].mean()):.2f} a run"
                  if "primary_changes" in cs.columns else "")
            add(level(
                "handoffs_per_run", f"{v:g} km/h, cSCTP single primary, every acquisition time{sfx}", paper=paper_counts[int(v)],
                mean=m, ci95=hw, unit="handoffs", result="R1", n=n,
                why="§III: 'speeds of 5, 10, 20, 60, 80 km/h (i.e., 1, 2, 4, 12, 16 handoffs ...)'; a handoff is a handoffs.parquet "
                    "row (a new address acquired while another is held)",
                note=f"{pc.removeprefix('; ')}" if pc else ""), [f"{prefix}-{a}" for a in acqs])
    # R2: throughput falls with speed, at every acquisition time (both panels of Fig. 5).
    for acq in acqs:
        a, b_ = _at(r, mech, acq, lo_v), _at(r, mech, acq, hi_v)
        d, hw = _diff(a, b_)
        add(ordering(
            "throughput_falls_with_speed", f"acquisition {acq}: {lo_v:g} minus {hi_v:g} km/h{sfx}", paper="falls", diff=d, ci95=hw,
            unit="kbit/s", result="R2", n=_n(a, b_),
            why="§III: 'as the speed (handoff rate) increases the overall throughput at the MN decreases'; the slowest minus the "
                "fastest speed run, Welch 95 % CI"), [f"{prefix}-{acq}"])
    # R3: the confidence intervals widen with speed: the run-to-run spread, Brown–Forsythe.
    for acq in acqs:
        a, b_ = _at(r, mech, acq, hi_v), _at(r, mech, acq, lo_v)
        d, hw, n = spread_diff(a, b_)
        sd = {v: float(_at(r, mech, acq, v).std()) for v in (lo_v, hi_v)}
        add(ordering(
            "ci_widens_with_speed", f"acquisition {acq}: spread at {hi_v:g} minus at {lo_v:g} km/h{sfx}", paper="wider", diff=d,
            ci95=hw, unit="kbit/s (mean |deviation from the median|)", result="R3", n=n,
            why="§III: 'confidence intervals get bigger'; with equal runs per point a wider CI is a larger run-to-run spread, "
                "compared by the Brown–Forsythe statistic (each run's absolute deviation from its point's median, Welch 95 % CI "
                f"of the difference; at least {SPREAD_MIN_RUNS} runs a point)",
            note=f"run-to-run standard deviation {sd[lo_v]:.3g} kbit/s at {lo_v:g} km/h, {sd[hi_v]:.3g} at {hi_v:g} km/h"),
            [f"{prefix}-{acq}"])
    # R4: throughput falls with the acquisition time at the highest speed, each pair on its own parts.
    for a_acq, b_acq, what in ACQUISITION_PAIRS:
        if a_acq not in acqs or b_acq not in acqs:
            continue
        a, b_ = _at(r, mech, a_acq, hi_v), _at(r, mech, b_acq, hi_v)
        d, hw = _diff(a, b_)
        out_ms = [f"{x}: {float(_at(r, mech, x, hi_v, 'outage_s').mean()) * 1e3:.0f} ms" for x in (a_acq, b_acq)]
        add(ordering(
            "throughput_falls_with_acquisition", f"{hi_v:g} km/h: {a_acq} minus {b_acq} ({what}){sfx}", paper="falls", diff=d,
            ci95=hw, unit="kbit/s", result="R4", n=_n(a, b_),
            why="Fig. 5: the curves of longer acquisition times lie lower (read from the figure's design; the text states no "
                "order); shorter minus longer acquisition at the highest speed, Welch 95 % CI",
            note=f"mean outage per handoff at {hi_v:g} km/h {', '.join(out_ms)}"), [f"{prefix}-{b_acq}", f"{prefix}-{a_acq}"])
    # R5, R6: Figs. 6–7, throughput lower inside the handoff regions than just before them.
    wc = w if w.empty or "config" not in w.columns else w[w["config"] == config]
    if "config" not in w.columns and config != "threshold":
        wc = w.iloc[0:0]
    if not wc.empty:
        for acq in ACQUISITIONS:
            g = wc[wc["acquisition"] == acq]
            if g.empty:
                continue
            m, hw, n = mean_ci_n(g["before_kbps"] - g["inside_kbps"])
            per_v = ", ".join(f"{v:g} km/h {float((x['before_kbps'] - x['inside_kbps']).mean()):.1f} ({len(x)})"
                              for v, x in g.groupby("speed_kmh"))
            add(ordering(
                "throughput_lower_in_handoff_regions", f"acquisition {acq}: before minus inside a region, every speed{sfx}",
                paper="lower inside", diff=m, ci95=hw, unit="kbit/s", result=TIMELINE_RESULT[acq], n=n,
                why="§III on Figs. 6–7: 'while MN is experiencing a handoff, its (instantaneous) throughput decreases'; per "
                    "region (the shaded overlap of two cells), the mean throughput in the stretch before it minus inside it; "
                    "one run per speed (the timeline parts), so n counts regions, not seeds",
                note=f"mean difference (regions) by speed: {per_v}"), [f"{tl_prefix}{acq}"])
    # R7, R8: §III's mechanism, per handoff of the timeline runs (every acquisition time and speed pooled).
    bc = b[b["config"] == config] if not b.empty else b
    if not bc.empty:
        tl_parts = [f"{tl_prefix}{a}" for a in ACQUISITIONS if a in set(bc["acquisition"])]
        by_acq = "; ".join(f"{a}: {float((g['old_cwnd_entry'] - g['old_cwnd_switch']).mean()):.0f} B, "
                           f"{float((g['old_fast_rtx'] + g['old_t3_rtx']).mean()):.2f} retransmissions ({len(g)})"
                           for a, g in bc.groupby("acquisition"))
        m, hw, n = mean_ci_n(bc["old_cwnd_entry"] - bc["old_cwnd_switch"])
        cut = float(((bc["old_cwnd_switch"] < bc["old_cwnd_entry"])).mean()) * 100
        add(ordering(
            "old_path_cwnd_cut_before_switch", f"every timeline handoff: old primary's cwnd at region entry minus at the switch{sfx}",
            paper="cut before the switch", diff=m, ci95=hw, unit="bytes", result="R7", n=n,
            why="§III: if the old address is not strong enough 'chunks sent to the old primary destination will be lost, which "
                "will then reduce the size of the congestion window'; per handoff, the old primary's cwnd when the mobile hears "
                "the new AR minus its cwnd when the CN switches primary, 95 % CI over handoffs",
            note=f"cut in {cut:.0f} % of {n} handoffs; by acquisition (cwnd drop, retransmissions, handoffs): {by_acq}"), tl_parts)
        m, hw, n = mean_ci_n(bc["old_fast_rtx"] + bc["old_t3_rtx"])
        add(ordering(
            "old_path_retransmits_before_switch", f"every timeline handoff: fast and T3 retransmissions on the old primary "
            f"between region entry and the switch{sfx}", paper="retransmissions", diff=m, ci95=hw, unit="chunks per handoff",
            result="R7", n=n,
            why="§III: the losses on the weak old path 'cause retransmissions'; per handoff, the chunks the CN retransmitted on "
                "the old primary (fast and T3) between region entry and the switch, 95 % CI over handoffs excluding 0",
            note=f"T3 retransmissions {float(bc['old_t3_rtx'].mean()):.2f}, fast {float(bc['old_fast_rtx'].mean()):.2f} per "
                 "handoff"), tl_parts)
        m, hw, n = mean_ci_n(bc["old_cwnd_entry"] - bc["new_cwnd_switch"])
        rec = bc["recover_s"]
        add(ordering(
            "new_path_cwnd_builds_after_switch", f"every timeline handoff: old primary's cwnd at region entry minus the new "
            f"primary's at the switch{sfx}", paper="new cwnd lower at the switch", diff=m, ci95=hw, unit="bytes", result="R8", n=n,
            why="§III: 'the new path's congestion window will be built only after the CN changes its primary destination'; per "
                "handoff, the pre-handoff cwnd of the old primary minus the new primary's cwnd at the switch, 95 % CI over "
                "handoffs",
            note=f"new primary's cwnd at the switch: median {float(bc['new_cwnd_switch'].median()):.0f} B; back to the old "
                 f"path's pre-handoff cwnd after a median {float(rec.median()):.2f} s ({int(rec.notna().sum())} of {len(rec)} "
                 "handoffs before the next one)"), tl_parts)
    return out, ev


def other_claims(r: pd.DataFrame, h: pd.DataFrame) -> list[Claim]:
    """Our checks (on both radios) and the extensions (threshold radio)."""
    out: list[Claim] = []
    cs = r[r["mechanism"] == "csctp"]
    speeds = sorted(float(v) for v in cs["speed_kmh"].dropna().unique())
    hi_v = speeds[-1] if speeds else math.nan
    for mech, sfx in (("csctp", ""), ("celledge", CELL_EDGE_SUFFIX)):
        g = r[r["mechanism"] == mech]
        if g.empty:
            continue
        fast = g[(g["speed_kmh"] == hi_v) & g["acquisition"].map(lambda a: acq_s(a) <= 1.0)]
        lost = float((fast["lost"] > 0).sum())
        out.append(check(
            "no_association_lost", f"{len(fast)} runs at {hi_v:g} km/h, acquisition ≤ 1 s{sfx}", ok=lost == 0 and len(fast) > 0,
            value=lost, unit="runs", bound="0 runs", n=len(fast), why="a handoff must not abort the association"))
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
