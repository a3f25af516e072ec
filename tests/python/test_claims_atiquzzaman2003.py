"""The atiquzzaman2003 claim code on synthetic results (DESIGN.md §6 "every check can fail"):
the paper's own values make every paper row pass; its effects reversed, its levels scaled ×3,
make none pass or be explained. No simulation: the frames are built the way
:func:`sctpsim.reproduce.atiquzzaman2003.claims_from` reads them."""

from __future__ import annotations

import pandas as pd
import pytest

from sctpsim.reproduce import atiquzzaman2003 as a
from sctpsim.reproduce.claims import check_coverage

SEEDS = 5
#: Seed-to-seed spread of the synthetic runs, relative: small enough that the paper's smallest
#: differences (SCTP 2963 vs SACK 2957 segments) are significant with 5 seeds.
JITTER = (-2e-4, -1e-4, 0.0, 1e-4, 2e-4)
ALL_PARTS = {f"{p}-{r}k" for p in a.TRANSPORTS for r in a.WIRELESS_KBPS} | \
    {f"noretry-{p}-{r}k" for p in a.TRANSPORTS for r in a.NORETRY_KBPS} | {f"six-losses-{p}" for p in a.TRANSPORTS}


def _runs(value: dict[str, dict[tuple[float, int], float]]) -> pd.DataFrame:
    rows = []
    for proto, table in value.items():
        for (wl, wr), v in table.items():
            for rep, j in zip(range(SEEDS), JITTER):
                rows.append({"protocol": proto, "wireline_kbps": wl, "wireless_kbps": wr, "replication": rep,
                             "segments": v * (1 + j), "delivery_errors": 0.0})
    return pd.DataFrame(rows)


def _noretry(value: dict[str, dict[tuple[float, int], float]]) -> pd.DataFrame:
    rows = []
    for proto, table in value.items():
        for wr in a.NORETRY_KBPS:
            for limit in (7, 1):
                for rep, j in zip(range(SEEDS), JITTER):
                    rows.append({"protocol": proto, "wireless_kbps": wr, "retry_limit": limit, "replication": rep,
                                 "segments": table[(1500.0, wr)] * (1 + j)})
    return pd.DataFrame(rows)


def _six(recovery_s: dict[str, float], timeouts: dict[str, int]) -> pd.DataFrame:
    return pd.DataFrame([{"protocol": p, "replication": rep, "recovery_s": t * (1 + j), "timeouts": timeouts[p]}
                         for p, t in recovery_s.items() for rep, j in zip(range(SEEDS), JITTER)])


def _hand(lost: float) -> pd.DataFrame:
    return pd.DataFrame([{"part": "reno-150k", "key": f"k{rep}", "replication": rep, "packets_lost": lost + d,
                          "reply_received_s": 10.0, "latency_s": 1.0, "bound_s": 5.0}
                         for rep in range(SEEDS) for d in (-0.5, 0.0, 0.5)])


def _paper_rows(value, six, hand):  # type: ignore[no-untyped-def]
    claims = a.claims_from(_runs(value), six, hand, _noretry(value), ALL_PARTS)
    check_coverage(a.RESULTS, claims)
    return [c for c in claims if c.source == "paper"]


def test_the_papers_own_values_pass_every_paper_row() -> None:
    rows = _paper_rows(a.PAPER, _six({"reno": 18.0, "sack": 6.5, "sctp": 5.0}, {"reno": 1, "sack": 0, "sctp": 0}), _hand(3.0))
    # 90 cells, 60 gains, and the rest.
    assert sum(c.claim == "throughput_segments" for c in rows) == 90
    assert sum(c.claim.startswith("sctp_gain_over_") and c.claim.endswith("_pct") for c in rows) == 60
    bad = [(c.claim, c.case, c.verdict, c.ours_mean, c.ours_ci95) for c in rows if c.verdict != "pass"]
    assert not bad
    # Every result but the drawing (R2) has rows.
    assert {c.result for c in rows} == {r.rid for r in a.RESULTS if not r.no_row}


def _reversed_x3() -> dict[str, dict[tuple[float, int], float]]:
    """The paper's effects reversed and its levels ×3: in every cell SCTP at 3× the largest of
    the paper's three values, SACK and Reno above it by a loss that shrinks toward high wireline
    rates and does not depend on the wireless one, so that SCTP is below both, SACK below Reno,
    and "larger at low bandwidth" and "more sensitive to wireless" are reversed too."""
    out: dict[str, dict[tuple[float, int], float]] = {"reno": {}, "sack": {}, "sctp": {}}
    for wl, wr in a.ALL_CELLS:
        top = 3 * max(a.PAPER[p][(wl, wr)] for p in a.TRANSPORTS)
        loss = 0.05 + 0.04 * (len(a.WIRELINE_KBPS) - 1 - a.WIRELINE_KBPS.index(wl))
        out["sctp"][(wl, wr)] = top
        out["sack"][(wl, wr)] = top * (1 + loss)
        out["reno"][(wl, wr)] = top * (1 + 2 * loss)
    return out


def test_reversed_effects_and_levels_x3_pass_no_paper_row() -> None:
    rows = _paper_rows(_reversed_x3(), _six({"reno": 18.0 / 3, "sack": 6.5 * 3, "sctp": 60.0}, {"reno": 0, "sack": 2, "sctp": 1}), _hand(0.2))
    passed = [(c.claim, c.case, c.verdict, c.ours_mean, c.ours_ci95) for c in rows if c.verdict in ("pass", "explained")]
    assert not passed


def test_levels_x3_fail_every_cell_and_no_explanation_without_the_part() -> None:
    x3 = {p: {k: 3 * v for k, v in t.items()} for p, t in a.PAPER.items()}
    claims = a.claims_from(_runs(x3), _six({"reno": 54.0, "sack": 19.5, "sctp": 15.0}, {"reno": 1, "sack": 0, "sctp": 0}),
                           _hand(3.0), _noretry(a.PAPER), ALL_PARTS)
    cells = [c for c in claims if c.claim == "throughput_segments"]
    # The sensitivity at the paper's own values makes its cells (1500/150, 1500/2000) explained:
    # the same level claim passes on its runs. Nothing else.
    assert {c.case for c in cells if c.verdict == "explained"} == {
        f"{a.NAMES[p]}, wireline 1500 / wireless {r} kbit/s" for p in a.TRANSPORTS for r in a.NORETRY_KBPS}
    assert all(c.verdict == "fail" for c in cells if c.verdict != "explained")
    assert all(c.evidence.startswith("noretry-") for c in cells if c.verdict == "explained")
    for c in (c for c in claims if c.claim.startswith("six_losses_recovery")):
        assert c.verdict == "fail"
    # Without the sensitivity parts present, no row is explained.
    claims = a.claims_from(_runs(x3), pd.DataFrame(), pd.DataFrame(), _noretry(a.PAPER), {p for p in ALL_PARTS if not p.startswith("noretry")})
    assert not [c for c in claims if c.verdict == "explained"]


def test_a_variant_that_fails_explains_nothing() -> None:
    x3 = {p: {k: 3 * v for k, v in t.items()} for p, t in a.PAPER.items()}
    claims = a.claims_from(_runs(x3), pd.DataFrame(), pd.DataFrame(), _noretry(x3), ALL_PARTS)
    assert not [c for c in claims if c.verdict == "explained"]


def test_an_order_not_significant_is_no_pass() -> None:
    """The old `order_sctp_sack_reno` held when no difference was significantly negative: equal
    throughputs passed. Now SCTP = SACK = Reno passes no ordering or gain row."""
    flat = {p: dict(a.PAPER["reno"]) for p in a.TRANSPORTS}
    claims = a.claims_from(_runs(flat), pd.DataFrame(), pd.DataFrame(), _noretry(flat), ALL_PARTS)
    for c in claims:
        if c.kind in ("ordering", "effect"):
            assert c.verdict not in ("pass", "explained"), (c.claim, c.case, c.verdict)


@pytest.mark.parametrize("rid", [r.rid for r in a.RESULTS])
def test_every_result_is_listed_in_order(rid: str) -> None:
    assert rid == f"R{[r.rid for r in a.RESULTS].index(rid) + 1}"


def test_a_gain_cell_is_explained_only_by_the_same_cell_passing_without_retransmission() -> None:
    """No gain in the main grid (SCTP = SACK = Reno); the retry-limit-1 parts at the paper's
    values: exactly the gain cells those parts measure (wireline 1500 × wireless 150 and 2000)
    are explained, with the SCTP part as evidence; the other 56 fail."""
    flat = {p: dict(a.PAPER["reno"]) for p in a.TRANSPORTS}
    claims = a.claims_from(_runs(flat), pd.DataFrame(), pd.DataFrame(), _noretry(a.PAPER), ALL_PARTS)
    gains = [c for c in claims if c.claim in ("sctp_gain_over_reno_pct", "sctp_gain_over_sack_pct")]
    explained = {(c.claim, c.case, c.evidence) for c in gains if c.verdict == "explained"}
    assert explained == {(f"sctp_gain_over_{o}_pct", f"wireline 1500 / wireless {r} kbit/s", f"noretry-sctp-{r}k")
                         for o in ("reno", "sack") for r in a.NORETRY_KBPS}
    assert all(c.verdict == "fail" for c in gains if c.verdict != "explained")
