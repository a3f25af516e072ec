"""The aydin2004 reproduction's own logic on synthetic inputs: the speeds and handoff counts of
the road, the handoff regions, the parts, the claims' arithmetic and their verdicts (the rules
themselves: tests/python/test_claims_aydin2004.py)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sctpsim.reproduce import aydin2004 as a


def test_the_road_gives_the_papers_handoff_counts() -> None:
    # §III: 1, 2, 4, 12 and 16 handoffs at 5, 10, 20, 60 and 80 km/h in 6 minutes.
    counts = [len(a.handoff_regions(v)) for v in a.SPEEDS_KMH]
    assert counts == [1, 2, 4, 12, 16]
    for v in a.SPEEDS_KMH:
        assert a.speed_of(str(a.route(v))) == pytest.approx(v, abs=1e-3)
    assert math.isnan(a.speed_of("nonsense"))
    assert a.acq_s("250ms") == 0.25 and a.acq_s("3s") == 3.0


def test_handoff_regions_are_the_overlaps_of_neighbouring_cells() -> None:
    (t0, t1), *_ = a.handoff_regions(36.0)  # 10 m/s
    reach = math.sqrt(300.0**2 - 10.0**2)
    assert t0 == pytest.approx((500 - reach) / 10.0)
    assert t1 == pytest.approx(reach / 10.0)


def test_parts_keep_their_names_and_the_cell_edge_radio_mirrors_the_grid() -> None:
    parts = {p.name: p for p in a.STUDY.parts(False)}
    full = list(parts)
    assert full[:4] == [f"csctp-{x}" for x in a.ACQUISITIONS]
    assert not any(n.startswith("edgeloss-") for n in full)
    for x in a.ACQUISITIONS:
        ce, th = parts[f"celledge-{x}"], parts[f"csctp-{x}"]
        assert ce.vary == th.vary and ce.seeds == th.seeds == 50
        assert ce.sets["radio.reception"] == "sinr" and ce.sets["radio.frame_error.points"] == a.EDGE_LOSS_POINTS
        assert parts[f"timeline-celledge-{x}"].timeseries and parts[f"timeline-celledge-{x}"].seeds == 1
    assert parts["mobileip"].seeds == parts["duplicated-1s"].seeds == a.EXTENSION_SEEDS
    quick = {p.name: p for p in a.STUDY.parts(True)}
    # Quick mode mirrors csctp-* for the cell-edge radio: no 500 ms runs, so no Fig. 5(a) pair on either.
    assert {n.removeprefix("celledge-") for n in quick if n.startswith("celledge-")} == \
        {n.removeprefix("csctp-") for n in quick if n.startswith("csctp-")} == {"250ms", "1s", "3s"}
    assert {"timeline-celledge-250ms", "timeline-celledge-3s"} <= set(quick)


def test_the_cell_edge_radio_puts_qualnets_sensitivity_at_300_m() -> None:
    # Two-ray ground, 1.5 m antennas: Pr(300 m) = Pt·1.5⁴/300⁴ = −89 dBm.
    pr_dbm = 10 * math.log10(a.CELL_EDGE_TX_POWER_W * 1.5**4 / a.RANGE_M**4 * 1e3)
    assert pr_dbm == pytest.approx(a.QUALNET_RX_SENSITIVITY_2M_DBM, abs=1e-3)
    assert a.CELL_EDGE_SETS["radio.rx_thresh"] == "-89dBm" and a.CELL_EDGE_SETS["radio.noise_figure_db"] == 10.0


def _runs(values: dict[tuple[str, str, float], list[float]]) -> pd.DataFrame:
    rows = []
    for (mech, acq, v), xs in values.items():
        for i, x in enumerate(xs):
            rows.append({"part": f"{mech}-{acq}", "key": f"{mech}-{acq}-{v}-{i}", "mechanism": mech, "acquisition": acq,
                         "speed_kmh": v, "throughput_kbps": x, "replication": i, "lost": 0.0, "errors": 0.0,
                         "outage_s": 0.0})
    return pd.DataFrame(rows)


def test_claims_pass_when_throughput_falls_and_fail_when_it_does_not() -> None:
    falls = {("csctp", acq, v): [1300.0 - v - (10 if acq == "3s" else 0) + d for d in (-0.5, 0.0, 0.5)]
             for acq in ("250ms", "500ms", "1s", "3s") for v in (5.0, 80.0)}
    r = _runs(falls)
    claims = {(c.claim, c.case): c for c in a.claims_from(r, pd.DataFrame(), pd.DataFrame())}
    speed = [c for (k, _), c in claims.items() if k == "throughput_falls_with_speed"]
    assert len(speed) == 4 and all(c.verdict == "pass" and c.result == "R2" for c in speed)
    acq = {case: c.verdict for (k, case), c in claims.items() if k == "throughput_falls_with_acquisition"}
    assert acq == {"80 km/h: 250ms minus 500ms (Fig. 5(a), milliseconds)": "fail",
                   "80 km/h: 1s minus 3s (Fig. 5(b), seconds)": "pass",
                   "80 km/h: 250ms minus 3s (both ranges)": "pass"}
    lost = next(c for (k, _), c in claims.items() if k == "no_association_lost")
    assert lost.verdict == "pass" and lost.source == "check"
    r.loc[(r.speed_kmh == 80.0) & (r.acquisition == "1s"), "lost"] = 1.0
    lost = next(c for c in a.claims_from(r, pd.DataFrame(), pd.DataFrame()) if c.claim == "no_association_lost")
    assert lost.verdict == "fail" and lost.ours_mean == 3.0


def test_handoff_counts_per_run_come_from_the_handoff_rows() -> None:
    r = _runs({("csctp", "1s", 80.0): [1.0, 2.0]})
    h = pd.DataFrame({"part": ["csctp-1s"] * 3, "key": ["csctp-1s-80.0-0"] * 3, "mechanism": ["csctp"] * 3})
    assert a.with_handoff_counts(r, h)["handoffs"].tolist() == [3.0, 0.0]
