"""aydin2004's claim code on synthetic results (DESIGN.md §6 "Every check can fail"): the paper's
own shapes make every `paper` row pass, on both radios; the shapes reversed and the handoff
counts ×3 make none pass or be explained; `explained` only through the cell-edge twin of the
same row, computed on cell-edge parts that were run and on which it passes; §III's mechanism
(R7, R8) is read per handoff from the per-path time series; the spread of Fig. 5's CIs is
compared with a test of its own, never a ratio of half-widths."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sctpsim.reproduce import aydin2004 as a
from sctpsim.reproduce.claims import Claim, check_coverage, summary

PAPER_COUNTS = dict(zip(a.SPEEDS_KMH, (1, 2, 4, 12, 16)))
SEEDS = 10
#: Fixed deviations (no random draws): centred, so each point's median is its mean.
PATTERN = np.linspace(-1.0, 1.0, SEEDS)
ALL_PARTS = ([f"csctp-{x}" for x in a.ACQUISITIONS] + [f"celledge-{x}" for x in a.ACQUISITIONS]
             + [f"duplicated-{a.DUP_ACQUISITION}", "mobileip"] + [f"timeline-{x}" for x in a.ACQUISITIONS]
             + [f"timeline-celledge-{x}" for x in a.ACQUISITIONS])


def world(sign: float = 1.0, counts_scale: float = 1.0, edge_sign: float | None = None, flat_ms: bool = False,
          flat_mechanism: bool = False) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Runs, handoffs, region rates and per-handoff mechanism of a synthetic study. ``sign`` +1
    is the paper's world (throughput and its stability fall with speed and acquisition time,
    dips inside the handoff regions, the old primary's cwnd cut and chunks retransmitted before
    the switch, the new primary's cwnd small at the switch), −1 the reverse; ``counts_scale``
    scales §III's handoff counts; ``edge_sign`` the direction on the cell-edge radio (default
    ``sign``); ``flat_ms`` makes 250 and 500 ms equal on the threshold radio (Fig. 5(a)'s pair
    not reproduced); ``flat_mechanism`` gives the threshold radio no cut and no retransmission
    before the switch (its old path never weakens)."""
    edge_sign = sign if edge_sign is None else edge_sign
    rows, hrows = [], []

    def add(part: str, mech: str, acq: str, v: float, mean: float, spread: float) -> None:
        for i, dev in enumerate(PATTERN):
            key = f"{part}-{v:g}-{i}"
            n_h = round(PAPER_COUNTS.get(int(v), 1) * counts_scale)
            rows.append({"part": part, "key": key, "mechanism": mech, "acquisition": acq, "speed_kmh": v,
                         "throughput_kbps": mean + dev * spread, "lost": 0.0, "errors": 0.0, "outage_s": 0.005,
                         "handoffs": float(n_h)})
            for _ in range(n_h):
                hrows.append({"part": part, "key": key, "mechanism": "csctp", "speed_kmh": v, "outage_s": 0.005,
                              "breakdown_s": 0.005, "data_duplicated": 0.0})

    for k, acq in enumerate(a.ACQUISITIONS):
        for prefix, sg, base in (("csctp", sign, 1300.0), ("celledge", edge_sign, 1200.0)):
            penalty = 0.0 if flat_ms and prefix == "csctp" and acq in ("250ms", "500ms") else 5.0 * k
            for v in a.SPEEDS_KMH:
                # sign +1: falls with speed and acquisition, spread grows with speed (Fig. 5).
                mean = base - sg * (0.5 * v + penalty)
                spread = 0.2 + 0.02 * v if sg > 0 else 2.0 - 0.02 * v
                add(f"{prefix}-{acq}", prefix, acq, float(v), mean, spread)
    for v in a.SPEEDS_KMH:
        add(f"duplicated-{a.DUP_ACQUISITION}", "duplicated", a.DUP_ACQUISITION, float(v), 1350.0, 1.0)
        add("mobileip", "mobileip", "—", float(v), 1100.0, 1.0)
    r, h = pd.DataFrame(rows), pd.DataFrame(hrows)
    wrows, brows = [], []
    for config, sg in (("threshold", sign), ("cell-edge", edge_sign)):
        flat = flat_mechanism and config == "threshold"
        for acq in a.ACQUISITIONS:
            for v in a.SPEEDS_KMH:
                for k, (t0, t1) in enumerate(a.handoff_regions(float(v))):
                    before = 1300.0 + (k % 3 - 1) * 2.0
                    wrows.append({"config": config, "acquisition": acq, "speed_kmh": float(v), "seed": 1, "region": k,
                                  "t0_s": t0, "t1_s": t1, "before_kbps": before,
                                  "inside_kbps": before - sg * (40.0 + (k % 2) * 5.0)})
                    entry = 60000.0
                    cut = 0.0 if flat else sg * (20000.0 + 5000.0 * (k % 3))
                    rtx = 0 if flat or sg < 0 else 2 + k % 3
                    brows.append({"config": config, "acquisition": acq, "speed_kmh": float(v), "seed": 1, "entry_s": t0,
                                  "switch_s": t0 + 2.0, "old_path": "a", "new_path": "b", "old_cwnd_entry": entry,
                                  "old_cwnd_switch": entry - cut, "old_cwnd_min": min(entry, entry - cut),
                                  "old_fast_rtx": rtx, "old_t3_rtx": 0, "new_cwnd_switch": entry - sg * (50000.0 + 100.0 * k),
                                  "recover_s": 9.0})
    return r, h, pd.DataFrame(wrows), pd.DataFrame(brows, columns=a.BREAKDOWN_COLUMNS)


def claims(r: pd.DataFrame, h: pd.DataFrame, w: pd.DataFrame, b: pd.DataFrame, parts: list[str] | None = None) -> list[Claim]:
    return a.claims_from(r, h, w, ALL_PARTS if parts is None else parts, b)


def twins(r: pd.DataFrame, h: pd.DataFrame, w: pd.DataFrame, b: pd.DataFrame) -> list[Claim]:
    return a.claims_and_twins(r, h, w, ALL_PARTS, b)[1]


def paper_rows(cs: list[Claim]) -> list[Claim]:
    return [c for c in cs if c.source == "paper"]


def test_the_papers_own_shapes_pass_every_paper_row() -> None:
    cs = claims(*world())
    check_coverage(a.RESULTS, cs)
    rows = paper_rows(cs)
    assert {c.result for c in rows} == {f"R{k}" for k in range(1, 9)}
    assert [(c.claim, c.case, c.verdict) for c in rows if c.verdict != "pass"] == []
    s = summary(a.RESULTS, cs)
    assert s["results_reproduced"] == 8 and s["results_without_row"] == 0
    # The cell-edge radio's twins: the same rows, the case suffixed, all passing; never in the main list.
    tw = twins(*world())
    assert sorted((c.claim, c.case + a.CELL_EDGE_SUFFIX) for c in rows) == sorted((c.claim, c.case) for c in tw)
    assert all(c.verdict == "pass" for c in tw)
    assert not any(c.case.endswith(a.CELL_EDGE_SUFFIX) for c in rows)


@pytest.mark.parametrize("counts_scale", [3.0, 1.0 / 3.0])
def test_reversed_shapes_and_scaled_counts_pass_no_paper_row(counts_scale: float) -> None:
    # Throughput rises with speed and acquisition time, the spread shrinks with speed, it is
    # higher inside the handoff regions, the old path's cwnd grows before the switch with no
    # retransmission, the new path's cwnd is already larger, and the road gives 3× (or ⅓) of
    # §III's handoffs. The cell-edge radio is reversed too, so nothing may explain a failure.
    cs = claims(*world(sign=-1.0, counts_scale=counts_scale))
    rows = paper_rows(cs)
    assert len(rows) >= 5 + 4 + 4 + 3 + 4 + 3
    assert [(c.claim, c.case, c.verdict) for c in rows if c.verdict in ("pass", "explained")] == []
    assert all(c.verdict == "fail" for c in rows)


def test_a_failing_pair_is_explained_only_by_the_same_pair_on_the_cell_edge_radio() -> None:
    r, h, w, b = world(flat_ms=True)
    case = "250ms minus 500ms"
    row = next(c for c in claims(r, h, w, b) if c.claim == "throughput_falls_with_acquisition" and case in c.case)
    assert row.verdict == "explained" and row.evidence == "celledge-500ms"
    assert row.variant is not None and row.variant.case == row.case + a.CELL_EDGE_SUFFIX and row.variant.outcome == "pass"
    # Without the cell-edge 500 ms part there is no evidence for this pair (its 250 ms vs 3 s
    # comparison is another claim), so the row stays failed; likewise without 250 ms.
    for gone in ("celledge-500ms", "celledge-250ms"):
        parts = [p for p in ALL_PARTS if p != gone]
        row = next(c for c in claims(r, h, w, b, parts) if c.claim == "throughput_falls_with_acquisition" and case in c.case)
        assert row.verdict == "fail" and row.evidence == ""
    # Cell-edge runs that do not show the order explain nothing either.
    r, h, w, b = world(flat_ms=True, edge_sign=-1.0)
    row = next(c for c in claims(r, h, w, b) if c.claim == "throughput_falls_with_acquisition" and case in c.case)
    assert row.verdict == "fail"


def test_the_mechanism_rows_need_the_cell_edge_timelines_to_be_explained() -> None:
    # The threshold radio's old path never weakens: no cut, no retransmission (R7 fails there);
    # the cell-edge radio shows both, so R7's rows are explained by its timeline parts.
    r, h, w, b = world(flat_mechanism=True)
    r7 = [c for c in claims(r, h, w, b) if c.result == "R7"]
    assert len(r7) == 2 and all(c.outcome == "fail" and c.verdict == "explained" for c in r7)
    assert all(c.evidence.startswith("timeline-celledge-") for c in r7)
    assert next(c for c in claims(r, h, w, b) if c.result == "R8").verdict == "pass"
    parts = [p for p in ALL_PARTS if not p.startswith("timeline-celledge-")]
    assert all(c.verdict == "fail" for c in claims(r, h, w, b, parts) if c.result == "R7")
    # Reversed on the cell-edge radio too: nothing explains them.
    r, h, w, b = world(flat_mechanism=True, edge_sign=-1.0)
    assert all(c.verdict == "fail" for c in claims(r, h, w, b) if c.result == "R7")


def test_no_failing_row_is_explained_without_a_passing_twin() -> None:
    r, h, w, b = world(sign=-1.0, edge_sign=1.0)
    tw = {(c.claim, c.case): c for c in twins(r, h, w, b)}
    for c in claims(r, h, w, b):
        if c.verdict == "explained":
            v = tw[(c.claim, c.case + a.CELL_EDGE_SUFFIX)]
            assert v.outcome == "pass" and c.outcome == "fail" and c.evidence in ALL_PARTS
            assert c.evidence.startswith(("celledge-", "timeline-celledge-"))


def test_handoff_mechanism_reads_the_per_path_series() -> None:
    # One handoff: entry at 10 s, set-primary sent at 12 s and recorded at 12.1 s; the old path
    # (A) is cut from 60000 to 30000 at 11 s with a fast and a T3 retransmission on it; the new
    # path (B) starts at 4380 and reaches 60000 at 20 s.
    rows = [(0.0, "A", "tsn_sent", 1.0), (0.0, "A", "cwnd_bytes", 4380.0), (5.0, "A", "cwnd_bytes", 60000.0),
            (11.0, "A", "cwnd_bytes", 30000.0), (11.0, "A", "tsn_fast_rtx", 7.0), (11.5, "A", "tsn_t3_rtx", 8.0),
            (11.8, "B", "cwnd_bytes", 4380.0), (12.1, "B", "asconf_set_primary", 1.0), (15.0, "B", "cwnd_bytes", 30000.0),
            (20.0, "B", "cwnd_bytes", 60000.0), (30.0, "A", "tsn_fast_rtx", 9.0)]
    ts = pd.DataFrame([{"time_s": t, "scope": "flow", "id": 0, "dir": d, "metric": m, "value": v} for t, d, m, v in rows])
    h = pd.DataFrame([{"detected_s": 10.0, "set_primary_sent_s": 12.0}])
    m = a.handoff_mechanism(ts, h).iloc[0]
    assert (m["old_path"], m["new_path"]) == ("A", "B")
    assert m["old_cwnd_entry"] == 60000.0 and m["old_cwnd_switch"] == 30000.0 and m["old_cwnd_min"] == 30000.0
    assert (m["old_fast_rtx"], m["old_t3_rtx"]) == (1, 1)
    assert m["new_cwnd_switch"] == 4380.0 and m["recover_s"] == pytest.approx(7.9)
    # No set-primary recorded: no row.
    assert a.handoff_mechanism(ts[ts["metric"] != "asconf_set_primary"], h).empty


def test_ci_widening_is_a_test_of_spread_not_a_ratio_of_half_widths() -> None:
    # Two identical runs at the slowest speed (half-width 0) and two different ones at the
    # fastest: the old ratio was inf and passed; two runs a point cannot compare spreads.
    rows = []
    for v, xs in ((5.0, [1300.0, 1300.0]), (80.0, [1280.0, 1290.0])):
        for i, x in enumerate(xs):
            rows.append({"part": "csctp-1s", "key": f"{v}-{i}", "mechanism": "csctp", "acquisition": "1s", "speed_kmh": v,
                         "throughput_kbps": x, "lost": 0.0, "errors": 0.0, "outage_s": 0.0, "handoffs": math.nan})
    r = pd.DataFrame(rows)
    row = next(c for c in a.claims_from(r, pd.DataFrame(), pd.DataFrame()) if c.claim == "ci_widens_with_speed")
    assert row.verdict == "inconclusive" and math.isfinite(row.ours_mean) and math.isnan(row.ours_ci95)
    # Equal spreads at both speeds: no widening (fail), and nothing infinite.
    d, hw, n = a.spread_diff(pd.Series([1.0, 2.0, 3.0, 4.0]), pd.Series([11.0, 12.0, 13.0, 14.0]))
    assert d == pytest.approx(0.0) and math.isfinite(hw) and n == 4
    # A clearly larger spread with enough runs: a finite, positive difference.
    d, hw, n = a.spread_diff(pd.Series(10.0 * PATTERN), pd.Series(PATTERN))
    assert d > hw > 0


def test_our_invariants_are_checks_and_our_comparisons_extensions() -> None:
    cs = claims(*world())
    by = {c.claim: c for c in cs}
    for name in ("exact_delivery", "no_association_lost", "breakdown_adds_up"):
        assert by[name].source == "check" and by[name].kind == "check" and by[name].verdict == "pass"
    for name in ("duplicated_improves_throughput", "csctp_beats_mobile_ip"):
        assert by[name].source == "extension" and by[name].result == ""
    r, h, w, b = world()
    r.loc[r.index[0], "errors"] = 1.0
    h.loc[h.index[0], "breakdown_s"] = 0.5
    by = {c.claim: c for c in claims(r, h, w, b)}
    assert by["exact_delivery"].verdict == "fail" and by["breakdown_adds_up"].verdict == "fail"


def test_region_rates_find_a_dip_inside_the_handoff_regions() -> None:
    v = 80.0
    t = np.arange(0.0, a.DURATION_S + 1.0, 1.0)
    rate = np.full_like(t, 1300e3 / 8)  # bytes per second
    for t0, t1 in a.handoff_regions(v):
        rate[(t > t0 + 1) & (t <= t1)] = 0.5 * 1300e3 / 8
    cum = np.concatenate(([0.0], np.cumsum(rate[1:] * np.diff(t))))
    tl = pd.DataFrame({"acquisition": "1s", "speed_kmh": v, "seed": 1, "time_s": t, "bytes": cum})
    w = a.region_rates(tl)
    assert len(w) == len(a.handoff_regions(v)) == 16
    assert (w["before_kbps"] - w["inside_kbps"] > 100.0).all()
    flat = tl.assign(bytes=t * 1300e3 / 8)
    w = a.region_rates(flat)
    assert (w["before_kbps"] - w["inside_kbps"]).abs().max() < 1e-6
    row = next(c for c in a.claims_from(*world()[:2], w) if c.claim == "throughput_lower_in_handoff_regions")
    assert not w.empty and set(w["config"]) == {"threshold"}
    assert row.result == "R6" and row.verdict == "fail"
