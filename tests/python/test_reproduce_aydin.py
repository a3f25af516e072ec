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


def test_parts_keep_their_names_and_the_edge_loss_counterfactuals() -> None:
    full = [p.name for p in a.STUDY.parts(False)]
    assert full[:4] == [f"csctp-{x}" for x in a.ACQUISITIONS]
    assert {"edgeloss-250ms", "edgeloss-500ms", "edgeloss-3s", "mobileip", "duplicated-1s"} <= set(full)
    quick = [p.name for p in a.STUDY.parts(True)]
    # Quick mode has no 500 ms runs, so no 500 ms counterfactual either.
    assert "edgeloss-500ms" not in quick and {"edgeloss-250ms", "edgeloss-3s"} <= set(quick)


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
