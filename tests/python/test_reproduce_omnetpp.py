"""The omnetpp-olsr reproduction's own logic on synthetic inputs: its grid, the speed values, the
claims' arithmetic and verdicts, and the explanation of the SCTP loss artefact."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sctpsim.reproduce import omnetpp_olsr as o
from sctpsim.reproduce import omnetpp_olsr_report as rep


def test_grid_of_full_and_quick_modes() -> None:
    full = {p.name: p for p in o._parts(False)}
    assert [o.speed_of(v) for v in full["field-tcp"].vary[o.P_SPEED]] == list(o.SPEEDS_MPS)
    assert full["field-sctp"].vary[o.P_STREAMS] == [1, 2, 3, 4, 5]
    assert all(p.seeds >= 10 for n, p in full.items() if not n.startswith("timeline"))
    assert full["relay-tcp"].sets["radio.tx_power"] == o.RELAY_POWER
    assert "simulation.duration" not in full["field-tcp"].sets
    quick = {p.name: p for p in o._parts(True)}
    assert quick["field-tcp"].sets["simulation.duration"] == o.QUICK_DURATION
    assert all(p.seeds <= 2 for p in quick.values())
    assert o.speed_of({"min": 8.4, "max": 8.4}) == 8.4
    assert o.speed_of("{'min': 20.0, 'max': 20.0}") == 20.0
    assert math.isnan(o.speed_of("nonsense"))


def _run(setup: str, proto: str, streams: int, v: float, i: int, **kw: float) -> dict:
    row = {"setup": setup, "protocol": proto, "streams": streams, "speed_mps": v, "replication": i,
           "label": f"SCTP, {streams} stream{'s' if streams != 1 else ''}" if streams else "TCP",
           "throughput_kbps": 3000.0 + i, "loss_pct": 0.3 + 0.01 * i, "paper_loss_pct": 0.3, "ack_overhead_pct": 100.0,
           "rtt_ms": 5.0, "hops": 1.0, "relayed": 0.0, "data_sent": 150000.0 + i, "data_sent_200s": 150000.0 + i, "link_breaks": 0.0, "routes_broken": 0.0, "server_rate_mbps": 9.0, "server_failed_pct": 10.0, "server_rate_changes": 100.0, "first_delivery_s": 9.0 + 0.1 * i}
    row.update(kw)
    return row


def _runs(**over: float) -> pd.DataFrame:
    rows = []
    for v in (1.4, 8.4, 20.0):
        for i in range(3):
            rows.append(_run("field", "tcp", 0, v, i))
            for s in (1, 5):
                rows.append(_run("field", "sctp", s, v, i, throughput_kbps=4000.0 + i, loss_pct=0.05,
                                 paper_loss_pct=48.6 + 0.1 * i, ack_overhead_pct=51.0, rtt_ms=30.0 + (900 if s == 5 else 0), **over))
            rows.append(_run("relay", "tcp", 0, v, i, throughput_kbps=2000.0 - 50 * v + i, hops=2.0, relayed=1.0))
            rows.append(_run("relay", "sctp", 1, v, i, throughput_kbps=2500.0 - 50 * v + i, hops=2.0, relayed=1.0))
    return pd.DataFrame(rows)


def test_claims_on_a_run_that_agrees_with_the_paper() -> None:
    claims = {(c.claim, c.case): c for c in o._claims(_runs())}
    tcp_loss = [c for (k, _), c in claims.items() if k == "tcp_loss_rate"]
    assert len(tcp_loss) == 3 and all(c.ok for c in tcp_loss)
    assert all(c.ok for (k, _), c in claims.items() if k in ("tcp_packets_sent", "no_speed_effect", "no_relay_used",
                                                               "sctp_faster_than_tcp", "tcp_ack_overhead", "tcp_rtt",
                                                               "sctp_rtt_rises_with_streams", "start_delay",
                                                               "sctp_loss_rate_as_published"))
    falls = [c for (k, _), c in claims.items() if k == "relay_throughput_falls_with_speed"]
    assert len(falls) == 2 and all(c.ok for c in falls)
    # The paper's SCTP loss taken at its word is not what the data packets lost.
    true_loss = next(c for (k, _), c in claims.items() if k == "sctp_true_loss_rate")
    assert not true_loss.ok and true_loss.ours_mean == pytest.approx(0.05)


def test_the_artefact_is_explained_with_the_measured_numbers() -> None:
    r = _runs()
    claims = o._claims(r)
    rep.explain(claims, r, o.cells(r))
    true_loss = next(c for c in claims if c.claim == "sctp_true_loss_rate")
    assert true_loss.verdict == "explained"
    assert "0.050 %" in true_loss.note and "48.70 %" in true_loss.note


def test_claims_fail_when_the_run_disagrees() -> None:
    r = _runs()
    r.loc[(r.setup == "field") & (r.protocol == "tcp"), "loss_pct"] = 5.0
    r.loc[(r.setup == "field") & (r.protocol == "tcp") & (r.speed_mps == 20.0), "throughput_kbps"] = 1000.0
    r.loc[r.setup == "field", "relayed"] = 0.5
    claims = o._claims(r)
    assert not any(c.ok for c in claims if c.claim == "tcp_loss_rate")
    speed = next(c for c in claims if c.claim == "no_speed_effect" and c.case.startswith("TCP"))
    assert not speed.ok and speed.ours_mean == pytest.approx(66.68, abs=0.1)
    assert not next(c for c in claims if c.claim == "no_relay_used").ok
