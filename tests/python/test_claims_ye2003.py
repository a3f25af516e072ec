"""The Ye, Saadawi & Lee claim code fed synthetic runs (DESIGN.md §6 "Every check can fail").

Two worlds, built the way :func:`sctpsim.reproduce.ye2003.claims_from` reads its frames (the
columns of :func:`~sctpsim.reproduce.ye2003.prepare_frame`): one where every run behaves as the
paper describes (every ``paper`` row must pass), one where the paper's levels are scaled ×3 and
its effects, orderings and shapes reversed (no ``paper`` row may pass or be explained)."""

from __future__ import annotations

from typing import Any, Mapping

import pandas as pd
import pytest

from sctpsim.reproduce import claims as cl
from sctpsim.reproduce import ye2003 as y

SEEDS = 5


def _jitter(i: int) -> float:
    """A deterministic ±1 % spread over the seeds (so every CI is finite and narrow)."""
    return 1.0 + 0.01 * (i - (SEEDS - 1) / 2) / ((SEEDS - 1) / 2)


#: Goodput (kbit/s) per (hops, rwnd·MTU, RTS threshold) as the paper describes it: about 660 at
#: 1 hop with rwnd 2 whatever the threshold; RTS 256 B collapsing at 1-2 hops with rwnd ≥ 4;
#: RTS 20 B a bit lower at 2 hops with rwnd 2; lower with each hop and each larger window at
#: 2-3 hops; the threshold of no consequence at 3 hops.
PAPER_GOODPUT = {
    (1, 2, 20): 658, (1, 2, 256): 660, (1, 4, 20): 640, (1, 4, 256): 450, (1, 8, 20): 640, (1, 8, 256): 450,
    (2, 2, 20): 300, (2, 2, 256): 310, (2, 4, 20): 290, (2, 4, 256): 250, (2, 8, 20): 270, (2, 8, 256): 230,
    (3, 2, 20): 200, (3, 2, 256): 200, (3, 4, 20): 150, (3, 4, 256): 150, (3, 8, 20): 120, (3, 8, 256): 120,
}
#: The same with the 660 kbit/s level ×3 and every direction reversed: throughput rising with
#: hops and windows, RTS 20 B lower where the paper has it higher (and higher at 2 hops, rwnd 2),
#: large threshold effects where the paper has none.
REVERSED_GOODPUT = {
    (1, 2, 20): 990, (1, 2, 256): 1980, (1, 4, 20): 2100, (1, 4, 256): 2400, (1, 8, 20): 2200, (1, 8, 256): 2500,
    (2, 2, 20): 3000, (2, 2, 256): 2900, (2, 4, 20): 3100, (2, 4, 256): 3300, (2, 8, 20): 3200, (2, 8, 256): 3400,
    (3, 2, 20): 6000, (3, 2, 256): 4000, (3, 4, 20): 7000, (3, 4, 256): 4500, (3, 8, 20): 8000, (3, 8, 256): 5000,
}


def _paper_counts(h: int, rwnd: int, rts: int) -> dict[str, float]:
    """Per-run counts where the paper describes them: timeouts, stalls and DATA discards at
    RTS 256 B with rwnd ≥ 4 at 1-2 hops (Figs. 2(b),(c), 3(b)) and at 3 hops rwnd 4 (Fig. 4(b));
    collisions that RTS 20 B reduces and at 2 hops almost eliminates; link failures growing with
    the window at 2-3 hops and present at 3 hops rwnd 2 (Fig. 4(a)); dips at 2 hops rwnd 8 and
    3 hops (Figs. 3(c), 4(a)); no fast retransmit below 5·MTU."""
    collapse = (h in (1, 2) and rwnd >= 4 and rts == 256) or (h == 3 and rwnd == 4 and rts == 256)
    c = {"t3": 3.0 if collapse else 0.0, "stalls_per_min": 3.0 if collapse else 0.0,
         "dips_per_min": 3.0 if collapse else 0.0, "longest_stall_s": 30.0 if collapse else 0.0}
    c["mac_drops"] = {1: 5.0 if collapse else 0.0, 2: {2: 0.0, 4: 10.0, 8: 20.0}[rwnd], 3: {2: 30.0, 4: 60.0, 8: 90.0}[rwnd]}[h]
    c["mac_failed_attempts"] = 0.0 if rwnd == 2 else ({1: 200.0, 2: 1000.0, 3: 2000.0}[h] if rts == 256 else {1: 20.0, 2: 50.0, 3: 2000.0}[h])
    if (h == 2 and rwnd == 8) or h == 3:
        c["dips_per_min"] = max(c["dips_per_min"], 2.0)
    c["fast_rtx"] = 4.0 if rwnd == 8 else 0.0
    return c


def _reversed_counts(h: int, rwnd: int, rts: int) -> dict[str, float]:
    """Every shape the other way: collapses and timeouts at RTS 20 B instead of 256 B, none at
    Fig. 4(b); more collisions with RTS 20 B; dips where the paper's throughput is smooth and
    none where it dips; link failures falling with the window and none at 3 hops rwnd 2; fast
    retransmits with small windows; no run with repeated timeouts at 1 hop rwnd 8; no link failure
    at 3 hops at all (so none at rwnd 2, and none more with a larger window)."""
    collapse = rts == 20 and ((h == 1 and rwnd >= 4) or (h == 2 and rwnd == 4))
    c = {"t3": 3.0 if collapse else 0.0, "stalls_per_min": 3.0 if collapse else 0.0,
         "dips_per_min": 3.0 if (collapse or (h == 2 and rwnd == 2)) else 0.0, "longest_stall_s": 30.0 if collapse else 0.0}
    c["mac_drops"] = {1: 0.0, 2: {2: 30.0, 4: 20.0, 8: 10.0}[rwnd], 3: 0.0}[h]
    c["mac_failed_attempts"] = 0.0 if rwnd == 2 else ({1: 20.0, 2: 50.0, 3: 2000.0}[h] if rts == 256 else {1: 200.0, 2: 1000.0, 3: 2000.0}[h])
    c["fast_rtx"] = 5.0 if rwnd <= 4 else 0.0
    return c


def _string(goodput: Mapping[tuple[int, int, int], float], counts: Any) -> pd.DataFrame:
    rows = []
    for acc in y.ACCOUNTING:
        for (h, rwnd, rts), kbps in goodput.items():
            base = counts(h, rwnd, rts)
            for i in range(SEEDS):
                j = _jitter(i)
                row = {y.P_ACC: acc, y.P_DST: y.DST[h], y.P_RTS: rts, "hops": h, "rwnd_mtu": rwnd, "seed": 1000 + i,
                       "goodput_bps": kbps * 1e3 * j, "ip_throughput_bps": kbps * 1e3 * j * y.IP_PACKET_BYTES / y.CHUNK_BYTES,
                       "delivery_errors": 0, "messages_missing": 0, "idle_s": base["stalls_per_min"] * 0.5,
                       "flow_lost": base["t3"], "early_rtx": 0.0, "duplicate_tsns": 0.0}
                # Counts vary over the seeds too (one run of each case a little above, one below).
                row.update({k: v * j if v else 0.0 for k, v in base.items()})
                if acc == "standard":  # the standard's accounting: no timeouts (the extension row)
                    row["t3"] = 0.0
                rows.append(row)
    return pd.DataFrame(rows)


def _early(gain_percent: dict[int, float]) -> pd.DataFrame:
    rows = []
    for acc in y.ACCOUNTING:
        for h, total in ((2, 1_000_000.0), (3, 500_000.0)):
            for rule in y.RULES:
                for i in range(SEEDS):
                    j = _jitter(i)
                    g = {"off": 0.0, "ye2003": gain_percent[h], "rfc5827": gain_percent[h] / 2}[rule]
                    # The rule's gain varies a little over the seeds, around the published value.
                    on = total * j * (1 + g / 100 * (1 + 0.02 * (i - 2)))
                    rows.append({y.P_ACC: acc, y.P_DST: y.DST[h], y.P_ER: rule, "hops": h, "rwnd_mtu": 4, y.P_RTS: 256,
                                 "seed": 1000 + i, "bytes_delivered": on, "goodput_bps": on * 8 / 30,
                                 "delivery_errors": 0, "messages_missing": 0, "idle_s": 0.0, "t3": 0.0, "mac_drops": 0.0,
                                 "flow_lost": 0.0, "early_rtx": 0.0, "duplicate_tsns": 0.0})
    return pd.DataFrame(rows)


def _paper_world() -> tuple[pd.DataFrame, pd.DataFrame]:
    return _string(PAPER_GOODPUT, _paper_counts), _early(y.PAPER_GAIN_PERCENT)


def _reversed_world() -> tuple[pd.DataFrame, pd.DataFrame]:
    return _string(REVERSED_GOODPUT, _reversed_counts), _early({h: -g for h, g in y.PAPER_GAIN_PERCENT.items()})


def _paper_rows(claims: list[cl.Claim]) -> list[cl.Claim]:
    return [c for c in claims if c.source == "paper"]


def test_every_result_but_the_topology_has_rows_that_can_fail() -> None:
    s, e = _paper_world()
    claims = y.claims_from(s, e)
    cl.check_coverage(y.RESULTS, claims)
    tested = {c.result for c in _paper_rows(claims)}
    assert [r.rid for r in y.RESULTS if r.rid not in tested] == ["R1"]
    assert [r.rid for r in y.RESULTS] == [f"R{k}" for k in range(1, len(y.RESULTS) + 1)]
    # (claim, case) names one row.
    keys = [(c.claim, c.case) for c in claims]
    assert len(keys) == len(set(keys))


def test_the_papers_own_values_pass_every_paper_row() -> None:
    s, e = _paper_world()
    rows = _paper_rows(y.claims_from(s, e))
    assert len(rows) >= 60
    bad = [(c.claim, c.case, c.verdict, c.ours_mean, c.ours_ci95) for c in rows if c.verdict != "pass"]
    assert not bad


def test_levels_times_three_and_reversed_effects_pass_no_paper_row() -> None:
    s, e = _reversed_world()
    rows = _paper_rows(y.claims_from(s, e))
    good = [(c.claim, c.case, c.verdict, c.ours_mean, c.ours_ci95) for c in rows if c.verdict in ("pass", "explained")]
    assert not good
    # Every result is decided against the paper, none left open.
    assert all(c.verdict == "fail" for c in rows), [(c.claim, c.case, c.verdict) for c in rows if c.verdict != "fail"]


def test_the_ceiling_is_judged_on_goodput_within_fifteen_percent() -> None:
    """§4's 660 kbit/s is the association's throughput: a goodput 18 % below it fails even
    though the IP-layer value (560/512 of it, 10 % below) would lie within 15 %."""
    s, e = _paper_world()
    one = (s["hops"] == 1) & (s["rwnd_mtu"] == 2)
    s.loc[one, "goodput_bps"] = 541.0e3
    s.loc[one, "ip_throughput_bps"] = 541.0e3 * y.IP_PACKET_BYTES / y.CHUNK_BYTES
    rows = [c for c in y.claims_from(s, e) if c.claim == "one_hop_ceiling_660"]
    assert len(rows) == 2 and all(c.verdict == "fail" for c in rows)
    assert all("IP layer" in c.note for c in rows)


def test_the_3_hop_gain_is_our_means_ci_not_one_runs_spread() -> None:
    """50 seed pairs whose mean gain is 9.5 ± 2.4 % (the full run before this change) miss the
    paper's 15 % (band 12.75-17.25 %) although single runs scatter over ±17 points and one
    run's prediction interval covers 15 %."""
    s, _e = _paper_world()
    rows = []
    for i in range(50):
        gain = 0.095 + 0.085 * (((i * 37) % 50) / 49 - 0.5) * 2 * (3 / 1.73)  # uniform, sd ≈ 8.5 points
        for rule, total in (("off", 500_000.0), ("ye2003", 500_000.0 * (1 + gain))):
            rows.append({y.P_ACC: y.MAIN_ACCOUNTING, "hops": 3, y.P_ER: rule, "seed": i, "bytes_delivered": total})
            rows.append({y.P_ACC: y.MAIN_ACCOUNTING, "hops": 2, y.P_ER: rule, "seed": i, "bytes_delivered": total})
    e = pd.DataFrame(rows)
    row = next(c for c in y.claims_from(s, e) if c.claim == "small_window_fix_gain_30s" and c.result == "R13")
    assert row.ours_mean == pytest.approx(9.5, abs=0.3)
    assert 1.5 < row.ours_ci95 < 3.5
    assert "± 1" in row.note  # one run's spread, in the note only
    assert row.verdict == "fail"


def test_a_larger_window_that_is_merely_not_faster_does_not_pass() -> None:
    """§6 says a larger window worsens throughput: equal throughput is no pass."""
    s, e = _paper_world()
    h3 = (s["hops"] == 3) & (s["rwnd_mtu"] == 8)
    s.loc[h3, "goodput_bps"] = s[(s["hops"] == 3) & (s["rwnd_mtu"] == 4)]["goodput_bps"].to_numpy()
    rows = [c for c in y.claims_from(s, e) if c.claim == "larger_rwnd_worse" and c.case.startswith("3 hops") and "8 vs 4" in c.case]
    assert len(rows) == 2 and all(c.verdict == "fail" for c in rows)


def test_the_study_returns_its_results_and_no_explained_row_without_evidence() -> None:
    s, e = _reversed_world()
    claims = y.claims_from(s, e)
    assert not [c for c in claims if c.verdict == "explained"]
    assert y.claims_from(s, e, analytic_bps={20: 658e3, 256: 660e3})[-3].claim == "one_hop_matches_analytic"


def test_the_opnet_dsr_parts_explain_only_failing_rows_whose_twin_passes() -> None:
    """A failing paper row is `explained` by `opnet-dsr` (or, for §5's gains, by
    `opnet-dsr-early-retransmit`) only when its twin computed on those parts passes; rows
    that pass stay `pass`, rows whose twin fails too stay `fail`, and nothing is explained when
    the parts are not in the results."""
    paper_s, paper_e = _paper_world()
    rev_s, rev_e = _reversed_world()
    parts = set(y.OPNET_DSR) | {"string", "early-retransmit"}
    # Ours reversed (every paper row fails), the counterfactual as the paper: all explained.
    claims = y.claims_from(rev_s, rev_e)
    twins = [c for c in y.claims_from(paper_s, paper_e) if c.source == "paper"]
    n = y.explain_with_opnet_dsr(claims, twins, parts)
    paper = _paper_rows(claims)
    assert n == len(paper) and all(c.verdict == "explained" for c in paper)
    by = {c.claim: c.evidence for c in paper}
    assert by["small_window_fix_gain_30s"] == "opnet-dsr-early-retransmit"
    assert by["one_hop_ceiling_660"] == "opnet-dsr"
    # Both reversed: nothing moves.
    claims = y.claims_from(rev_s, rev_e)
    assert y.explain_with_opnet_dsr(claims, [c for c in y.claims_from(rev_s, rev_e) if c.source == "paper"], parts) == 0
    # Ours as the paper: passing rows are not touched.
    claims = y.claims_from(paper_s, paper_e)
    assert y.explain_with_opnet_dsr(claims, twins, parts) == 0
    # The counterfactual parts missing from the results: no evidence, nothing explained.
    claims = y.claims_from(rev_s, rev_e)
    assert y.explain_with_opnet_dsr(claims, twins, {"string", "early-retransmit"}) == 0


def test_the_counterfactual_parts_are_ours_with_only_dsr_salvaging_off() -> None:
    parts = {p.name: p for p in y._parts(quick=True)}
    for cf, twin in y.OPNET_DSR.items():
        a, b = parts[cf], parts[twin]
        assert a.sets[y.P_SALVAGE] is False and a.sets[y.P_ACC] == y.MAIN_ACCOUNTING
        assert a.seeds == b.seeds and a.scenario == b.scenario
        assert {k: v for k, v in b.vary.items() if k != y.P_ACC} == a.vary
