"""The atiquzzaman2003 configuration search on synthetic runs: the fit table names the column
group a point misses, and a failing main cell is explained only by a grounded grid point whose
part ran and on which the same level passes (DESIGN.md §6: "every check can fail")."""

from __future__ import annotations

import pandas as pd

from sctpsim.reproduce import atiquzzaman2003 as a
from sctpsim.reproduce import atiquzzaman2003_grid as g

JITTER = (-2e-4, -1e-4, 0.0, 1e-4, 2e-4)


def _runs(scale_slow: float, scale_fast: float) -> pd.DataFrame:
    """The paper's tables with the slow columns × ``scale_slow`` and the fast × ``scale_fast``."""
    rows = []
    for proto, table in a.PAPER.items():
        for (wl, wr), v in table.items():
            k = scale_slow if wr in g.SLOW else scale_fast
            for rep, j in enumerate(JITTER):
                rows.append({"protocol": proto, "wireline_kbps": wl, "wireless_kbps": wr, "replication": rep,
                             "segments": v * k * (1 + j), "delivery_errors": 0.0})
    return pd.DataFrame(rows)


def _grid(points: dict[tuple[str, str], tuple[float, float]]) -> pd.DataFrame:
    frames = []
    for (path, unit), (slow, fast) in points.items():
        f = _runs(slow, fast)
        f["config"], f["path"], f["unit"] = g.config_name(path, unit), path, unit
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def test_the_fit_table_says_which_columns_a_point_misses() -> None:
    grid = _grid({g.MAIN: (3.0, 1.0), ("parked", "frame"): (1.0, 1.0), ("parked", "airtime"): (1.0, 0.5),
                  ("ns2-example", "byte"): (0.3, 3.0)})
    ft = g.fit_table(grid).set_index(["path", "unit"])["verdict"]
    assert ft[g.MAIN] == "misses the slow columns"
    assert ft[("parked", "frame")] == "fits both"
    assert ft[("parked", "airtime")] == "misses the fast columns"
    assert ft[("ns2-example", "byte")] == "misses both"


def _main_cells(scale: float) -> list:  # type: ignore[type-arg]
    claims = a.claims_from(_runs(scale, scale), pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), [])
    return [c for c in claims if c.claim == "throughput_segments"]


def test_only_a_grounded_point_that_ran_and_passes_explains_a_cell() -> None:
    every_part = {f"grid-{g.config_name(p, u)}-{t}" for p in g.PATHS for u in g.UNITS for t in a.TRANSPORTS}
    # An ungrounded point that fits explains nothing.
    cells = _main_cells(3.0)
    assert all(c.outcome == "fail" for c in cells)
    g.explain_cells(cells, _grid({("parked", "airtime"): (1.0, 1.0)}), every_part)
    assert not any(c.verdict == "explained" for c in cells)
    # A grounded point that fits explains every cell, naming its part.
    g.explain_cells(cells, _grid({("ns2-example", "frame"): (1.0, 1.0)}), every_part)
    assert all(c.verdict == "explained" for c in cells)
    assert {c.evidence for c in cells} == {f"grid-ns2-example-frame-{t}" for t in a.TRANSPORTS}
    # ... but not when its parts did not run, or when it misses too.
    for grid, parts in ((_grid({("ns2-example", "frame"): (1.0, 1.0)}), set()),
                        (_grid({("ns2-example", "byte"): (2.0, 2.0)}), every_part)):
        cells = _main_cells(3.0)
        g.explain_cells(cells, grid, parts)
        assert not any(c.verdict == "explained" for c in cells)


def test_the_moving_path_never_pauses() -> None:
    s = g.PATHS["moving"].sets
    times = [float(t.removesuffix("s")) for t in s[g.P_TIMES]]
    xs = [p[0] for p in s[g.P_POSITIONS]]
    assert times[0] == 0.0 and times[-1] >= 200.0
    # Every leg moves the whole 300 m in 30 s (10 m/s): no two waypoints at one place.
    assert all(abs(x1 - x0) == 300.0 for x0, x1 in zip(xs, xs[1:]))
    assert all(t1 - t0 == 30.0 for t0, t1 in zip(times, times[1:]))


def test_the_main_scenario_file_holds_the_main_path() -> None:
    import tomllib

    with open(a.SCENARIO, "rb") as f:
        wp = tomllib.load(f)["mobility"]["waypoints"][0]
    s = g.PATHS[g.MAIN[0]].sets
    assert wp["times"] == s[g.P_TIMES]
    assert wp["positions_m"] == s[g.P_POSITIONS]


def test_a_geometric_mean_of_one_does_not_fit_when_most_cells_miss() -> None:
    """Cells alternately 30 % low and 43 % high average to a ratio of 1 but none is within
    ±15 %: the point does not fit (``group_fit``'s count, not only its mean)."""
    cells = pd.DataFrame({"wireless_kbps": [150, 150, 200, 200], "paper": [1.0, 1.0, 1.0, 1.0],
                          "mean": [0.7, 1 / 0.7, 0.7, 1 / 0.7]})
    ratio, within, n = g.group_fit(cells, (150, 200))
    assert abs(ratio - 1.0) < 1e-9 and (within, n) == (0, 4)
    assert not g.fits(ratio, within, n)
