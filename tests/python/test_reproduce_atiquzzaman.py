"""The atiquzzaman2003 reproduction's own logic on synthetic inputs: the published tables as
copied, the order and gain arithmetic, the recovery time of six losses, the handover bound."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pandas as pd
import pytest

from sctpsim.reproduce import atiquzzaman2003 as a

REFERENCE = Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "atiquzzaman-fu-throughput.csv"


def test_the_copied_tables_are_the_published_ones() -> None:
    if not REFERENCE.exists():
        pytest.skip("../shared/reference is not beside this checkout")
    rows = [r for r in csv.reader(line for line in REFERENCE.read_text().splitlines() if not line.startswith("#")) if r]
    header, *rows = rows
    assert header == ["protocol", "wireline_kbps", "wireless_kbps", "throughput"]
    assert len(rows) == 90
    for proto, wl, wr, thr in rows:
        assert a.PAPER[proto][(float(wl), int(wr))] == float(thr), (proto, wl, wr)


def _cells(values: dict[str, float]) -> pd.DataFrame:
    rows = []
    for proto, v in values.items():
        for wl in a.WIRELINE_KBPS:
            for wr in a.WIRELESS_KBPS:
                rows.append({"protocol": proto, "wireline_kbps": float(wl), "wireless_kbps": wr, "mean": v, "ci95": 1.0,
                             "n": 3, "paper": a.PAPER[proto][(float(wl), wr)]})
    return pd.DataFrame(rows)


def test_the_papers_tables_have_the_shapes_its_sentences_state() -> None:
    """The derived statistics of the claims on the published tables: SCTP's gain larger at low
    bandwidth and more sensitive to the wireless; SACK's gain larger at low bandwidth. Over SACK
    along the wireline the tables show the opposite of conclusion 2, which is why R16 has no row
    for it."""
    t = a.paper_table()
    assert a.low_minus_high(t, "sctp", "reno", "wireless") == pytest.approx(0.631, abs=1e-3)
    assert a.low_minus_high(t, "sctp", "reno", "wireline") == pytest.approx(0.029, abs=1e-3)
    assert a.low_minus_high(t, "sctp", "sack", "wireless") > 0
    assert a.low_minus_high(t, "sctp", "sack", "wireline") == pytest.approx(-0.035, abs=1e-3)
    assert a.low_minus_high(t, "sack", "reno", "wireless") > 0 and a.low_minus_high(t, "sack", "reno", "wireline") > 0
    assert a.sensitivity(t, "sctp", "reno") > 0 and a.sensitivity(t, "sctp", "sack") > 0
    # 28.8/150: (423 − 287) / 287, the 47 % of the issue.
    assert a.cell_gain(t, "sctp", "reno", 28.8, 150) == pytest.approx(0.474, abs=1e-3)


def test_tables_by_seed_keep_each_replication_apart() -> None:
    runs = pd.DataFrame([{"replication": r, "protocol": "reno", "wireline_kbps": 28.8, "wireless_kbps": 150, "segments": 100.0 + r}
                         for r in range(3)])
    tables = a.tables_by_seed(runs)
    assert [t[("reno", 28.8, 150)] for t in tables] == [100.0, 101.0, 102.0]


def test_gain_is_relative_to_the_other_transport() -> None:
    g = a.gain(_cells({"reno": 100.0, "sack": 125.0, "sctp": 150.0}), "reno")
    assert g["gain"].tolist() == pytest.approx([0.5] * 30)
    paper = a.gain(_cells({"reno": 1.0, "sack": 1.0, "sctp": 1.0}), "reno", source="paper")
    first = paper[(paper.wireline_kbps == 28.8) & (paper.wireless_kbps == 150)]["gain"].iloc[0]
    assert first == pytest.approx((423 - 287) / 287)


def _ts(rows: list[tuple[float, str, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"time_s": t, "scope": "flow", "id": 0, "dir": "", "metric": m, "value": v} for t, m, v in rows])


def test_recovery_runs_from_the_first_drop_to_the_ack_past_the_last() -> None:
    tcp = _ts([(1.0, "dropped_seq", 5000), (1.1, "dropped_seq", 9000), (2.0, "snd_una", 8000), (3.5, "snd_una", 9000)])
    assert a.recovery_time_s(tcp, "tcp-reno") == pytest.approx(2.5)
    sctp = _ts([(1.0, "dropped_tsn", 10), (1.2, "dropped_tsn", 14), (2.4, "tsn_acked", 14)])
    assert a.recovery_time_s(sctp, "sctp") == pytest.approx(1.4)
    never = _ts([(1.0, "dropped_tsn", 10), (2.0, "tsn_acked", 9)])
    assert math.isinf(a.recovery_time_s(never, "sctp"))


def test_recovery_counts_only_the_scripted_drops_when_the_rows_name_them() -> None:
    """A handover's later losses (`no_agent`) are not part of the recovery from the six."""
    rows = [(1.0, "dropped_tsn", 10, "scripted"), (1.2, "dropped_tsn", 14, "scripted"), (2.4, "tsn_acked", 14, ""),
            (20.0, "dropped_tsn", 600, "no_agent"), (40.0, "tsn_acked", 600, "")]
    ts = pd.DataFrame([{"time_s": t, "scope": "flow", "id": 0, "dir": d, "metric": m, "value": v} for t, m, v, d in rows])
    assert a.recovery_time_s(ts, "sctp") == pytest.approx(1.4)
    # Without the scripted causes every drop counts (to the ack of TSN 600).
    assert a.recovery_time_s(ts.assign(dir=""), "sctp") == pytest.approx(39.0)


def test_the_handover_bound_has_the_timers_and_shrinks_with_the_rate() -> None:
    bounds = [a.latency_bound_s(r) for r in a.WIRELESS_KBPS]
    assert bounds == sorted(bounds, reverse=True)
    # Lifetime + interval + two wired crossings at least.
    assert all(b > a.ADV_LIFETIME_S + a.ADV_INTERVAL_S + 2 * a.WIRED_ONE_WAY_S for b in bounds)
    # The MAC term at 150 kbit/s: seven attempts of a 1084-byte frame, each ≥ 8·1084/150e3 s.
    assert a.mac_service_max_s(150) > 7 * 8 * 1084 / 150e3
