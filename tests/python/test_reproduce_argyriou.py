"""The Argyriou & Madisetti reproduction (`sctpsim reproduce argyriou2004`): the route-break
attribution of docs/metrics.md, and a shrunken reproduction end to end (every part, claim row,
result and figure; 20 nodes, 5 pairs, 20 s runs, 2 seeds). The claim rules on synthetic runs:
test_claims_argyriou2004.py."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest

from sctpsim.reproduce import Part, argyriou2004, reproduce
from sctpsim.reproduce import argyriou2004_whatif as whatif
from sctpsim.reproduce.claims import VERDICTS


def _rows(*rows: tuple[str, float, str]) -> pd.DataFrame:
    return pd.DataFrame([{"scope": "flow", "id": fid, "time_s": t, "metric": m, "value": 1.0} for fid, t, m in rows])


def test_a_break_leads_to_a_timeout_only_before_ack_progress_and_the_next_break() -> None:
    ts = _rows(
        # flow 0: break at 10, T3 at 12 before any progress → counted.
        ("0", 10.0, "route_broken"), ("0", 12.0, "tsn_t3_rtx"), ("0", 13.0, "tsn_acked"),
        # flow 0: break at 20, progress at 20.5, then a timeout at 25 → not this break's.
        ("0", 20.0, "route_broken"), ("0", 20.5, "tsn_acked"), ("0", 25.0, "tsn_t3_rtx"),
        # flow 1 (TCP): break at 5, another break at 6, RTO at 7 → only the second counts.
        ("1", 5.0, "route_broken"), ("1", 6.0, "route_broken"), ("1", 7.0, "timeout"),
        # flow 2: a timeout without a break is nobody's.
        ("2", 3.0, "timeout"),
    )
    assert argyriou2004.attribute_breaks(ts) == (4.0, 2.0)


def test_a_timeout_at_the_same_instant_as_the_break_does_not_count() -> None:
    ts = _rows(("0", 10.0, "tsn_t3_rtx"), ("0", 10.0, "route_broken"))
    assert argyriou2004.attribute_breaks(ts) == (1.0, 0.0)


def _tsn(*rows: tuple[float, str, float]) -> pd.DataFrame:
    return pd.DataFrame([{"scope": "flow", "id": "0", "time_s": t, "metric": m, "value": v} for t, m, v in rows])


def test_a_break_to_timeout_counts_as_long_only_when_it_lost_more_than_half_the_window() -> None:
    sent = [(0.1 * k, "tsn_sent", float(k)) for k in range(1, 11)]
    # Window at the break (t = 1.5): TSNs 3..10 (cum ack 2), 8 in flight.
    base = [*sent, (0.5, "tsn_acked", 2.0), (1.5, "route_broken", 1.0), (4.0, "tsn_t3_rtx", 3.0), (4.5, "tsn_acked", 10.0)]
    five = [(1.2 + 0.01 * k, "dropped_tsn", float(k)) for k in range(3, 8)]  # 5 of 8, within the look-back
    assert argyriou2004.breaks_losing_half_window(_tsn(*base, *five)) == 1.0
    # Four of eight is not more than half; a drop after the T3 and one of an acked TSN do not count.
    four = [*five[:4], (4.2, "dropped_tsn", 9.0), (1.4, "dropped_tsn", 1.0)]
    assert argyriou2004.breaks_losing_half_window(_tsn(*base, *four)) == 0.0
    # A drop long before the break is not the break's.
    early = [*five[:4], (0.6, "dropped_tsn", 10.0)]
    assert argyriou2004.breaks_losing_half_window(_tsn(*base, *early)) == 0.0
    # A break the ack point got past before any T3 is not a break → timeout at all.
    recovered = [*sent, (0.5, "tsn_acked", 2.0), (1.5, "route_broken", 1.0), (2.0, "tsn_acked", 10.0), (4.0, "tsn_t3_rtx", 3.0), *five]
    assert argyriou2004.breaks_losing_half_window(_tsn(*recovered)) == 0.0
    # TCP runs have no TSN rows.
    assert pd.isna(argyriou2004.breaks_losing_half_window(_rows(("0", 1.0, "route_broken"), ("0", 2.0, "timeout"))))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    real = argyriou2004._parts

    def small(quick: bool) -> list[Part]:
        out = []
        for p in real(True):
            sets = {**p.sets, "simulation.duration": "20s", "nodes.count": 20, "flows[0].pairs": 5, "flows[0].start_spread": "2s"}
            out.append(Part(p.name, p.scenario, p.vary, 2, sets, p.timeseries, p.what))
        return out

    mp = pytest.MonkeyPatch()
    try:
        study = argyriou2004.Study(argyriou2004.STUDY.name, argyriou2004.STUDY.title, small, argyriou2004.STUDY.analyse)
        mp.setattr("sctpsim.reproduce.get_study", lambda name: study)
        out, _claims = reproduce("argyriou2004", quick=True, out=tmp_path_factory.mktemp("arg") / "tiny", jobs=1)
    finally:
        mp.undo()
    return out


def manifest_sets(out: Path, part: str) -> dict[str, object]:
    return json.loads((out / "reproduce.json").read_text())["parts"][part]["sets"]


def test_tiny_reproduction_writes_every_claim_figure_and_part(tiny: Path) -> None:
    with open(tiny / "claims.csv", newline="") as f:
        claims = list(csv.DictReader(f))
    names = {c["claim"] for c in claims}
    assert names == {
        "tcp_pdf_above_sctp", "sctp_over_tcp_vs_pause", "sctp_fewer_timeouts", "tcp_pdf_above_sctp_aodv", "aodv_below_dsr",
        "breaks_to_timeout_sctp_over_tcp", "per_flow_throughput", "delivery_fraction", "sctp_over_tcp_throughput",
        "throughput_insensitive_to_speed", "pdf_insensitive_to_speed", "sctp_break_ends_in_t3", "t3_breaks_lost_half_window",
        "asctp_breaks_to_timeout_below_sctp", "asctp_over_sctp_throughput", "larger_area_lower_throughput", "exact_delivery",
    }
    assert all(c["verdict"] in VERDICTS for c in claims)
    # Every paper row names a result of the study; a row explained has a cbrgen part (ns-2's
    # traffic generator) as its evidence, and only such a part.
    rids = {r.rid for r in argyriou2004.RESULTS}
    assert all(c["result"] in rids for c in claims if c["source"] == "paper")
    explained = [c for c in claims if c["verdict"] == "explained" or c["evidence"]]
    assert all(c["evidence"] in ("cbrgen-tcp", "cbrgen-sctp", "cbrgen-asctp") for c in explained), explained
    # Fig. 2: 12 cells of throughput and of delivery fraction, 6 SCTP/TCP ratios as effects.
    assert sum(c["claim"] == "delivery_fraction" and c["kind"] == "level" for c in claims) == 12
    assert sum(c["claim"] == "per_flow_throughput" and c["kind"] == "level" for c in claims) == 12
    assert sum(c["claim"] == "sctp_over_tcp_throughput" and c["kind"] == "effect" for c in claims) == 6
    # A-SCTP against SCTP at every pause in both areas, and exact delivery in every SCTP run.
    assert sum(c["claim"] == "asctp_over_sctp_throughput" for c in claims) == 2 * len(argyriou2004.PAUSES_S)
    exact = [c for c in claims if c["claim"] == "exact_delivery"]
    assert [(c["source"], c["verdict"]) for c in exact] == [("check", "pass"), ("check", "pass")], exact
    for stem in ("fig1-vs-pause", "fig2-vs-speed", "fig3cd-area"):
        for ext in ("png", "pdf", "svg"):
            assert (tiny / "figures" / f"{stem}.{ext}").stat().st_size > 0
    report = (tiny / "report.md").read_text()
    assert "Route breaks that ended in a timeout" in report and "A-SCTP" in report
    # The coverage table (every result, R1…R18) and the headline open the report.
    assert "published results reproduced" in report.split("## ")[0]
    assert "## Coverage: every result the paper reports" in report
    for r in argyriou2004.RESULTS:
        assert f"| {r.rid} |" in report
    df = pd.read_parquet(tiny / "results.parquet")
    assert set(df["part"]) == (
        {f"{k}-{p}" for k in ("speed", "pause", "area800") for p in ("sctp", "tcp")} | {"pause-asctp", "area800-asctp"}
        | {f"choice{i}-{p}" for i, (_, (over, _)) in enumerate(argyriou2004.SENSITIVITY.items()) for p in ("sctp", "tcp")
           if p == "sctp" or not any(k.startswith("flows[0].sctp.") for k in over)}
        | {f"diag-{v}" for v in argyriou2004.DIAGNOSIS}
        | {f"cbrgen-{p}" for p in ("tcp", "sctp", "asctp")} | {f"cbrgen800-{p}" for p in ("tcp", "sctp", "asctp")}
        | {f"cbrgen226-{p}" for p in ("tcp", "sctp")}
        | {f"{step}-sctp" for step in whatif.EQUALISED} | {f"ablate{i}-asctp" for i in range(len(whatif.ABLATION))}
    )
    # The counterfactual sections, each with its rows: cbrgen's Figure 2, the equalised steps,
    # one ablation row per rule, the area at cbrgen's load and the gap candidates.
    for head in ("## ns-2's traffic generator (cbrgen)", "### cbrgen's traffic on ns-2.26's MAC (diagnostic)", "## Where SCTP's lead over TCP comes from (equalised control)",
                 "## A-SCTP rule by rule (ablation)", "## The larger area at the paper's load",
                 "## The remaining gap: each candidate and its measured effect"):
        assert head in report, head
    for switch in whatif.ABLATION:
        assert f"| `{switch}` |" in report, switch
    for _, what in whatif.EQUALISED.values():
        assert f"| {what} |" in report, what
    # cbrgen really placed cbrgen's pairs: destinations one or two nodes after their source.
    cb = df[df["part"] == "cbrgen-tcp"]
    assert manifest_sets(tiny, "cbrgen-tcp")["flows[0].pairs_rule"] == "cbrgen"
    assert len(cb) > 0
    for run in (tiny / "sweeps" / "cbrgen-tcp" / "runs").glob("*.json"):
        flows = json.loads(run.read_text())["summary"]["flows"]
        assert flows and all(int(f["dst"][1:]) - int(f["src"][1:]) in (1, 2) for f in flows), flows
    # The diagnosis runs A-SCTP on one route, and its table has the three rows.
    manifest = json.loads((tiny / "reproduce.json").read_text())
    assert manifest["parts"]["diag-asctp1"]["sets"]["flows[0].sctp.asctp_max_routes"] == 1
    assert "| A-SCTP, one route |" in report and "Why A-SCTP falls short" in report
    # Every open choice gets its row in the sensitivity table.
    for variant in argyriou2004.SENSITIVITY:
        assert f"| {variant} |" in report
    # A-SCTP runs only over DSR, and really ran as A-SCTP: route switches happened somewhere.
    asctp = df[df["part"] == "pause-asctp"]
    assert set(asctp["routing.protocol"]) == {"dsr"}
    switches = asctp[[c for c in asctp.columns if c.startswith("sctp[") and c.endswith(".path_switches")]].sum().sum()
    assert switches > 0


def test_tcp_runs_are_tahoe_and_sctp_runs_deliver_exactly(tiny: Path) -> None:
    manifest = json.loads((tiny / "reproduce.json").read_text())
    for name, part in manifest["parts"].items():
        if name.endswith("-tcp"):
            assert part["sets"]["flows[0].transport"] == "tcp-tahoe"
            assert part["sets"]["flows[0].tcp.profile"] == "ns2-2003"
        else:
            # ns-2.27's module; the one sensitivity part that runs ns-2.35's says so.
            expect = "ns2" if part["sets"].get("flows[0].sctp.profile") == "ns2" and name.startswith("choice") else "ns2-2003"
            assert part["sets"]["flows[0].sctp.profile"] == expect, name
    df = pd.read_parquet(tiny / "results.parquet")
    # Only the SCTP parts have association rows.
    assert df[df["part"].str.endswith("-tcp")].filter(like="sctp[").isna().all().all()
    sctp = df[df["part"].str.endswith("-sctp")]
    cols = [c for c in df.columns if c.startswith("sctp[") and c.endswith((".delivery_errors", ".messages_missing"))]
    assert cols
    assert sctp[cols].fillna(0).to_numpy().sum() == 0
