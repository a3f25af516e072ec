"""`sctpsim reproduce`: the command's contract (DESIGN.md §5), the claim arithmetic, and the
quick Ye, Saadawi & Lee reproduction end to end."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from conftest import sctpsim
from sctpsim.reproduce.claims import COLUMNS, Claim, paired_ratio, relative_tolerance


def test_list_names_every_study_of_the_design() -> None:
    r = sctpsim("reproduce", "--list")
    assert r.returncode == 0, r.stderr
    names = [line.split()[0] for line in r.stdout.splitlines() if line.strip()]
    assert names == ["ye2003", "argyriou2004", "atiquzzaman2003", "aydin2004", "omnetpp-olsr"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "unknown study 'nope'"),
        (["ye2003", "--out", "/proc/version"], "--out /proc/version"),
        ([], "name a study"),
        (["ye2003", "--jobs", "0"], "--jobs must be at least 1"),
        (["ye2003", "--dask", "nowhere"], "--dask 'nowhere'"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(args: list[str], message: str) -> None:
    r = sctpsim("reproduce", *args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_an_out_that_is_a_file_is_refused_before_running(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    r = sctpsim("reproduce", "ye2003", "--quick", "--out", str(f))
    assert r.returncode == 2
    assert "not a directory" in r.stderr


def test_paired_ratio_is_the_ratio_of_means_with_a_delta_method_interval() -> None:
    x = [10.0, 12.0, 8.0, 10.0]
    y = [11.0, 13.0, 9.0, 11.5]
    r = paired_ratio(x, y)
    assert r.value == pytest.approx(sum(y) / sum(x))
    # d_i = y_i - r x_i; se = sd(d)/(sqrt(n) mean(x)); t(0.975, 3) = 3.182446
    rr = sum(y) / sum(x)
    d = [b - rr * a for a, b in zip(x, y)]
    md = sum(d) / 4
    sd = math.sqrt(sum((v - md) ** 2 for v in d) / 3)
    assert r.ci95 == pytest.approx(3.182446 * sd / 2 / 10.0, rel=1e-5)
    assert r.n == 4 and r.pi95 > r.ci95
    # identical pairs: ratio 1 with no spread
    same = paired_ratio([5.0, 6.0], [5.0, 6.0])
    assert same.value == 1.0 and same.ci95 == 0.0


def test_a_verdict_is_explained_only_with_a_measured_cause() -> None:
    c = Claim("x", "case", 30.0, 1.0, 0.5, "percent", "±1", "why", ok=False)
    assert c.verdict == "fail"
    c.explain("measured: 0 timeouts per run")
    assert c.verdict == "explained" and "0 timeouts" in c.row()[-1]
    ok = Claim("y", "case", 30.0, 30.2, 0.5, "percent", "±1", "why", ok=True).explain("ignored")
    assert ok.verdict == "pass" and ok.note == ""
    assert relative_tolerance(650.0, 660.0, 0.10) and not relative_tolerance(580.0, 660.0, 0.10)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("ye2003") / "quick"
    r = sctpsim("reproduce", "ye2003", "--quick", "--out", str(out), "--jobs", "2", timeout=900)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    return out, r.stdout


def test_quick_reproduction_writes_claims_report_figures_and_results(quick: tuple[Path, str]) -> None:
    out, stdout = quick
    with open(out / "claims.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == COLUMNS
    claims = {(r[0], r[1]): r for r in rows[1:]}
    assert {r[0] for r in rows[1:]} >= {"max_throughput_window2", "small_window_fix_gain_30s"}
    assert all(r[7] in ("pass", "fail", "explained") for r in rows[1:])
    # an explained verdict carries its measured cause
    assert all(r[8] for r in rows[1:] if r[7] == "explained")
    # the 1-hop ceiling at the IP layer is within 10 % of the paper's 660 kbit/s
    ceiling = [r for (name, _), r in claims.items() if name == "max_throughput_window2"]
    assert len(ceiling) == 2 and all(r[7] == "pass" for r in ceiling)
    report = (out / "report.md").read_text()
    assert "Quick mode" in report
    for name in ("throughput-vs-time-1hop", "throughput-vs-hops", "early-retransmit-gain", "early-retransmit-vs-time"):
        assert (out / "figures" / f"{name}.png").stat().st_size > 10_000
        assert (out / "figures" / f"{name}.pdf").stat().st_size > 1_000
        assert (out / "figures" / f"{name}.svg").read_text().rstrip().endswith("</svg>")
        assert f"figures/{name}.png" in report
    res = pd.read_parquet(out / "results.parquet")
    assert set(res["part"]) == {"string", "early-retransmit"}
    assert (res["status"] == "ok").all()
    assert "claims:" in stdout


def test_every_run_delivers_every_message_exactly_once_in_order(quick: tuple[Path, str]) -> None:
    res = pd.read_parquet(quick[0] / "results.parquet")
    assert (res["sctp[0].delivery_errors"] == 0).all()
    assert (res["sctp[0].messages_missing"] == 0).all()
    assert (res["sctp[0].messages_delivered"] > 100).all()


def test_early_retransmission_rules_act_only_when_enabled(quick: tuple[Path, str]) -> None:
    res = pd.read_parquet(quick[0] / "results.parquet")
    er = res[res["part"] == "early-retransmit"]
    off = er[er["flows[0].sctp.early_retransmit"] == "off"]
    assert (off["sctp[0].early_retransmissions"] == 0).all()


def test_a_second_run_reuses_every_stored_run(quick: tuple[Path, str]) -> None:
    out, _ = quick
    r = sctpsim("reproduce", "ye2003", "--quick", "--out", str(out), "--jobs", "1", timeout=900)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "reproduce.json").read_text())
    assert manifest["mode"] == "quick"
    for part in manifest["parts"].values():
        assert part["ran"] == 0 and part["reused"] == part["runs"]
