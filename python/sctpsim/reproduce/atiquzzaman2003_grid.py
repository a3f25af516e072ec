"""The configuration search of the ``atiquzzaman2003`` reproduction (issue 36): a diagnostic
grid over the few choices ns-2.1b8 and the slides leave open at the cell edge — the mobile
host's path and what one probability of the distance-dependent error is for — that says
whether any one configuration fits the slow (150–384 kbit/s) and the fast (1,000–2,000 kbit/s)
wireless columns of the paper's tables together, or which column each one misses.

A grid point is never chosen per column, and it is evidence for ``explained`` (a failing cell
of the main set-up, passing on the grid point) only where each of its values is grounded in a
cited ns-2.1b8 behaviour (:data:`PATHS` and :data:`UNITS` say which are). The main set-up is
one point of the grid (:data:`MAIN`); its runs are the main parts'.

Parts: ``grid-<path>-<unit>-<protocol>`` (``mobileip.toml``), every wireline × wireless cell,
:data:`GRID_SEEDS` seeds (quick: the 150 and 2000 kbit/s columns at wireline 1500 kbit/s,
2 seeds, the grounded points only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Collection

import pandas as pd

from sctpsim.reproduce import Part
from sctpsim.reproduce import atiquzzaman2003 as a
from sctpsim.reproduce.claims import Claim, column as _col

#: Seeds per grid cell (full mode): 90 cells × 3 transports × 8 points × 5 = 3,600 runs.
GRID_SEEDS, GRID_SEEDS_QUICK = 5, 2

P_TIMES = "mobility.waypoints[0].times"
P_POSITIONS = "mobility.waypoints[0].positions_m"
P_START = "mobility.positions_m"
P_RATE = "radio.data_rate"


@dataclass(frozen=True)
class Choice:
    """One value of a grid dimension: the overrides it sets and whether ns-2.1b8 grounds it."""

    name: str
    sets: dict[str, Any]
    grounded: bool
    what: str


def _legs(first_m: float, second_m: float, leg_s: float, until_s: float) -> dict[str, Any]:
    """Back and forth between two points without a pause, one leg every ``leg_s``."""
    times, pos, t, k = [], [], 0.0, 0
    while t <= until_s + leg_s:
        times.append(f"{t:g}s")
        pos.append([first_m if k % 2 == 0 else second_m, 0])
        t += leg_s
        k += 1
    return {P_TIMES: times, P_POSITIONS: pos, P_START: [[first_m, 0]]}


#: The mobile host's path (the slides give none: "Mobile IP handovers" during 200 s, "signal
#: fading at the edge of the cell").
PATHS: dict[str, Choice] = {
    "moving": Choice(
        "moving", _legs(50.0, 350.0, 30.0, 200.0), False,
        "through the cells without a pause: 50 m ↔ 350 m at 10 m/s, six crossings of the overlap in 200 s (the main set-up; "
        "the slides' fading at the edge all the time, not an ns-2 behaviour)"),
    "parked": Choice(
        "parked", {P_TIMES: ["0s", "20s", "50s", "100s", "130s", "150s", "180s"],
                   P_POSITIONS: [[50, 0], [50, 0], [350, 0], [350, 0], [50, 0], [50, 0], [350, 0]], P_START: [[50, 0]]},
        False,
        "parked at 50 m or 350 m (no error there) for about 70 % of the run, three crossings at 10 m/s (the main set-up "
        "until issue 36)"),
    "ns2-example": Choice(
        "ns2-example", {P_TIMES: ["0s", "100s", "119.9s"], P_POSITIONS: [[1, 0], [1, 0], [399, 0]], P_START: [[1, 0]]},
        True,
        "ns-2.1b8's own Mobile IP example (tcl/ex/wireless-mip-test.tcl of the release, commit aa55c3b9: the MH 1 m from "
        "its HA until 100 s, then `setdest` to the FA's position at 20 m/s; its move back at 200 s falls at the end of our run): "
        "one handover"),
}

#: DATA frame of a 1000-byte TCP segment, MPDU with FCS: 1040 IP + 24 MAC header + 8 LLC/SNAP + 4 FCS.
DATA_MPDU_BYTES = 1076
#: That frame's airtime at 2 Mbit/s with ns-2.1b8's timing: 8 · (1040 + 52 + 24) / 2e6 s.
DATA_AIRTIME_2MBPS = "4464us"

#: What one probability of the error table is for (`radio.frame_error.unit`).
UNITS: dict[str, Choice] = {
    "frame": Choice(
        "frame", {}, True,
        "every frame alike: ns-2's `ErrorModel` default `unit_ pkt` (queue/errmodel.cc of 2.1b8: `unit_(EU_PKT)`), "
        "the main set-up"),
    "byte": Choice(
        "byte", {"radio.frame_error.unit": "byte", "radio.frame_error.reference_bytes": DATA_MPDU_BYTES}, True,
        f"per byte: ns-2's `unit_ byte` (`ErrorModel::CorruptByte`, 1 − (1 − rate)^bytes), the table's p for a "
        f"{DATA_MPDU_BYTES}-byte DATA frame, so Acks and RTS/CTS almost never fail"),
    "airtime": Choice(
        "airtime", {"radio.frame_error.unit": "airtime", "radio.frame_error.reference_airtime": DATA_AIRTIME_2MBPS}, False,
        f"per time on the air, the table's p for a DATA frame at 2 Mbit/s ({DATA_AIRTIME_2MBPS}), so a 150 kbit/s frame "
        "fails as 13 of them: not an ns-2.1b8 behaviour (its uniform `ErrorModel::CorruptTime` only warns "
        "'uniform rate error cannot be time-based')"),
}

#: The main set-up's point of the grid.
MAIN = ("moving", "frame")
#: Slow and fast wireless columns (the issue: "the 150–384 and the 1,000–2,000 kbit/s columns").
SLOW, FAST = (150, 200, 384), (1000, 2000)
#: A column group fits when the geometric mean of ours / paper over its cells is within ±15 %
#: (the level rule's tolerance) and at least half its cells are within ±15 % one by one.
FIT_TOLERANCE = 0.15


def config_name(path: str, unit: str) -> str:
    return f"{path}-{unit}"


def grounded(path: str, unit: str) -> bool:
    return PATHS[path].grounded and UNITS[unit].grounded


def points(quick: bool) -> list[tuple[str, str]]:
    """The grid points with parts of their own (the main point runs as the main parts)."""
    pts = [(p, u) for p in PATHS for u in UNITS if (p, u) != MAIN]
    return [pt for pt in pts if grounded(*pt)] if quick else pts


def parts(quick: bool) -> list[Part]:
    wireless = (150, 2000) if quick else a.WIRELESS_KBPS
    wireline = ("1500kbps",) if quick else tuple(f"{w}kbps" for w in a.WIRELINE_KBPS)
    out = []
    for path, unit in points(quick):
        for proto, transport in a.TRANSPORTS.items():
            sets: dict[str, Any] = {a.P_TRANSPORT: transport, **PATHS[path].sets, **UNITS[unit].sets,
                                    **a._transport_sets(transport)}
            out.append(Part(
                name=f"grid-{config_name(path, unit)}-{proto}",
                scenario=a.SCENARIO,
                vary={a.P_WIRELINE: list(wireline), P_RATE: [f"{r}kbps" for r in wireless]},
                seeds=GRID_SEEDS_QUICK if quick else GRID_SEEDS,
                sets=sets,
                what=f"configuration search: path {path}, error per {unit}, {proto.upper()}",
            ))
    return out


def runs(results: dict[str, pd.DataFrame], main_runs: pd.DataFrame) -> pd.DataFrame:
    """Every ok run of the grid (columns config, path, unit, protocol, wireline_kbps,
    wireless_kbps, replication, segments), the main point's from ``main_runs``."""
    frames = []
    for name, df in results.items():
        if not name.startswith("grid-"):
            continue
        body, _, proto = name.removeprefix("grid-").rpartition("-")
        path, _, unit = body.rpartition("-")
        df = df[df["status"] == "ok"].copy()
        df["config"], df["path"], df["unit"], df["protocol"] = body, path, unit, proto
        df["wireline_kbps"] = df[a.P_WIRELINE].map(a._wireline)
        df["wireless_kbps"] = df[P_RATE].map(a._wireline).astype(int)
        df["segments"] = _col(df, "flows[0].bytes_delivered") / a.SEGMENT_BYTES
        frames.append(df)
    if not main_runs.empty:
        m = main_runs.copy()
        m["config"], m["path"], m["unit"] = config_name(*MAIN), MAIN[0], MAIN[1]
        frames.insert(0, m)
    cols = ["config", "path", "unit", "protocol", "wireline_kbps", "wireless_kbps", "replication", "segments"]
    return pd.concat([f[[c for c in cols if c in f.columns]] for f in frames], ignore_index=True) if frames else pd.DataFrame(columns=cols)


def group_fit(cells: pd.DataFrame, columns: tuple[int, ...]) -> tuple[float, int, int]:
    """(geometric mean of ours / paper, cells within ±15 %, cells) over ``columns``."""
    g = cells[cells["wireless_kbps"].isin(columns) & (cells["paper"] > 0) & (cells["mean"] > 0)]
    if g.empty:
        return math.nan, 0, 0
    r = g["mean"] / g["paper"]
    within = int(((r - 1).abs() <= FIT_TOLERANCE).sum())
    return float(math.exp(r.map(math.log).mean())), within, len(g)


def fits(ratio: float, within: int, n: int) -> bool:
    return n > 0 and abs(ratio - 1) <= FIT_TOLERANCE and within * 2 >= n


def fit_table(grid: pd.DataFrame) -> pd.DataFrame:
    """One row per grid point: its fit to the slow and the fast columns, and the verdict."""
    rows = []
    for (path, unit), g in grid.groupby(["path", "unit"], sort=False):
        cells = a.cell_table(g)
        rs, ws, ns = group_fit(cells, SLOW)
        rf, wf, nf = group_fit(cells, FAST)
        ok_s, ok_f = fits(rs, ws, ns), fits(rf, wf, nf)
        verdict = ("fits both" if ok_s and ok_f else "misses the slow columns" if ok_f else
                   "misses the fast columns" if ok_s else "misses both")
        rows.append({"path": path, "unit": unit, "main": (path, unit) == MAIN, "grounded": grounded(path, unit),
                     "seeds": int(cells["n"].min()) if not cells.empty else 0,
                     "slow_ratio": rs, "slow_within": ws, "slow_cells": ns,
                     "fast_ratio": rf, "fast_within": wf, "fast_cells": nf, "verdict": verdict})
    return pd.DataFrame(rows)


def explain_cells(claims: list[Claim], grid: pd.DataFrame, parts: Collection[str]) -> None:
    """Mark each failing main cell row (R8–R10) ``explained`` by the first grounded grid point
    on which the same level passes (:func:`atiquzzaman2003.level_row` on its runs)."""
    if grid.empty:
        return
    rid = {"reno": "R8", "sack": "R9", "sctp": "R10"}
    for c in claims:
        if c.claim != "throughput_segments" or c.verdict != "fail" or c.source != "paper":
            continue
        proto = next(p for p in a.TRANSPORTS if c.case.startswith(a.NAMES[p] + ","))
        wl, wr = _cell_of(c.case)
        for path, unit in ((p, u) for p in PATHS for u in UNITS):
            if not grounded(path, unit) or (path, unit) == MAIN:
                continue
            g = grid[(grid["path"] == path) & (grid["unit"] == unit)]
            v = a.level_row(g, proto, wl, wr, rid[proto], f", grid point {config_name(path, unit)}")
            if c.explained_by(v, f"grid-{config_name(path, unit)}-{proto}", parts,
                              f"configuration search: {PATHS[path].name} path, error per {unit}; both grounded in ns-2.1b8"):
                break


def _cell_of(case: str) -> tuple[float, int]:
    """(wireline, wireless) of a cell row's case: '<transport>, wireline W / wireless R kbit/s'."""
    tail = case.split("wireline ", 1)[1]
    wl, rest = tail.split(" / wireless ", 1)
    return float(wl), int(rest.split(" ", 1)[0])


def moved_rows(main: list[Claim], other: list[Claim]) -> tuple[list[str], list[str]]:
    """Paper rows that pass on ``other`` and not on ``main``, and the reverse: (claim, case) labels."""
    def key(c: Claim) -> str:
        return f"{c.result} {c.claim} ({c.case})"
    mv = {key(c): c.outcome for c in main if c.source == "paper"}
    ov = {key(c): c.outcome for c in other if c.source == "paper"}
    gained = [k for k, o in ov.items() if o == "pass" and mv.get(k) != "pass"]
    lost = [k for k, o in mv.items() if o == "pass" and ov.get(k) != "pass"]
    return gained, lost
