"""The analytic one-hop reference for SCTP with a window of two packets over 802.11
(`sctpsim.verify.models.sctp_window2_one_hop`, check `ye2003-one-hop`)."""

from __future__ import annotations

import pytest

from sctpsim.verify.models import sctp_window2_one_hop, stop_and_wait_backoff_slots

# Prop delay 250 m / c, rounded to the engine's nanosecond.
D = 0.834


def test_degenerate_cw0_is_hand_computed() -> None:
    # CWmin 0: no backoff slots. At 1 Mbit/s DSSS (PLCP 192 µs): RTS 20 B 352 µs, CTS/Ack 14 B
    # 304 µs, DATA 560+36 B 4960 µs, SACK 48+36 B 864 µs; SIFS 10, DIFS 50.
    # Threshold 256: 2·(352+304+4960+304+3·10+4δ) + (864+10+304+2δ) + 3·50 − 2δ.
    r = sctp_window2_one_hop(rts_threshold=256, cw_min=0)
    cycle = 2 * (5950 + 4 * D) + (1178 + 2 * D) + 150 - 2 * D
    assert r["backoff_slots"] == 0
    assert r["cycle_us"] == pytest.approx(cycle, abs=1e-9)
    assert r["goodput_bps"] == pytest.approx(2 * 512 * 8 / (cycle * 1e-6))
    assert r["ip_bps"] == pytest.approx(2 * 560 * 8 / (cycle * 1e-6))
    # Threshold 20: the SACK gets RTS/CTS too (+ RTS + CTS + 2 SIFS + 2δ).
    r20 = sctp_window2_one_hop(rts_threshold=20, cw_min=0)
    assert r20["cycle_us"] == pytest.approx(cycle + 352 + 304 + 20 + 2 * D, abs=1e-9)


def test_backoff_chain_degenerate_and_bounds() -> None:
    assert stop_and_wait_backoff_slots(0)["slots"] == 0
    # CW 1: b1, b2, rb uniform on {0, 1}. r = max(rb − s − b1, 0) is 1 only for s = 0,
    # rb = 1, b1 = 0; s' = max(b2 − r, 0). From s = 0: P(r = 1) = 1/4, P(s' = 1) = 3/4·1/2;
    # from s = 1: r = 0, P(s' = 1) = 1/2. Stationary P(s = 1) = π1 solves
    # π1 = (1 − π1)·3/8 + π1/2 → π1 = 3/7; E[r] = (4/7)·(1/4) = 1/7; slots = 3/7 + 1/2 + 1/7.
    c = stop_and_wait_backoff_slots(1)
    assert c["s"] == pytest.approx(3 / 7)
    assert c["r"] == pytest.approx(1 / 7)
    assert c["slots"] == pytest.approx(3 / 7 + 1 / 2 + 1 / 7)
    # The coupling can only save slots: at most three independent draws (3·CW/2), at least
    # the sender's own one (CW/2).
    c31 = stop_and_wait_backoff_slots(31)
    assert 15.5 < c31["slots"] < 3 * 15.5


def test_removing_parts_raises_throughput() -> None:
    for th in (20, 256):
        full = sctp_window2_one_hop(rts_threshold=th)
        assert sctp_window2_one_hop(rts_threshold=th, cw_min=0)["goodput_bps"] > full["goodput_bps"]
        assert sctp_window2_one_hop(rts_threshold=th, sack=False)["goodput_bps"] > full["goodput_bps"]
        # DSR overhead on a multi-hop route would lower it.
        assert sctp_window2_one_hop(rts_threshold=th, route_overhead_bytes=12)["goodput_bps"] < full["goodput_bps"]
    # RTS/CTS before the SACK costs time.
    assert (
        sctp_window2_one_hop(rts_threshold=20)["goodput_bps"] < sctp_window2_one_hop(rts_threshold=256)["goodput_bps"]
    )


def test_values_of_the_chain() -> None:
    # The figures the docs quote (docs/models/sctp-wifi.md).
    assert sctp_window2_one_hop(rts_threshold=256)["goodput_bps"] == pytest.approx(590_954, abs=1)
    assert sctp_window2_one_hop(rts_threshold=20)["goodput_bps"] == pytest.approx(563_412, abs=1)


def test_ye2003_check_quick_passes() -> None:
    from sctpsim.verify.sctp_wifi import ye2003_one_hop_check

    rows = ye2003_one_hop_check(True)
    assert len(rows) == 4
    assert all(r.passed for r in rows), [(r.case, r.simulated, r.reference) for r in rows]
