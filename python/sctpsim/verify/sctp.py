"""Validations of the SCTP model at scenario level: loss recovery of six non-consecutive losses
in one window, against TCP SACK on the same path (Atiquzzaman & Fu)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sctpsim.runner import run
from sctpsim.scenario import Scenario
from sctpsim.verify import Row, register
from sctpsim.verify.tcp import recovery_time_s

_EXAMPLES = Path(__file__).resolve().parents[1] / "scenarios" / "examples"


def _sctp_six_losses() -> Scenario:
    """`tcp-six-losses.toml` with the flow switched to SCTP (same topology, same scripted drops:
    packets 30, 32, ..., 40 of the flow leaving MH, which are DATA packets)."""
    text = (_EXAMPLES / "tcp-six-losses.toml").read_text()
    text = text.replace('transport = "tcp-sack"', 'transport = "sctp"').replace('[flows.tcp]\nprofile = "rfc"\n', "")
    return Scenario.from_string(text)


def sctp_recovery_time_s(timeseries: pd.DataFrame, flow: int = 0) -> float:
    """From the first lost DATA chunk to the first cumulative TSN ack covering the highest lost
    TSN (`dropped_tsn` and `tsn_acked` rows)."""
    f = timeseries[(timeseries.scope == "flow") & (timeseries.id == flow)]
    drops = f[f.metric == "dropped_tsn"]
    if drops.empty:
        return float("nan")
    t0 = float(drops.time_s.min())
    last = float(drops.value.max())
    acked = f[(f.metric == "tsn_acked") & (f.value >= last) & (f.time_s >= t0)]
    return float(acked.time_s.min()) - t0 if not acked.empty else float("inf")


def sctp_vs_tcp_table() -> pd.DataFrame:
    """Recovery of the six losses: SCTP (both profiles; unlimited, 3 and 1 gap blocks) beside
    TCP SACK with 3 blocks."""
    rows = []
    base = _sctp_six_losses()
    for profile in ("rfc9260", "rfc2960"):
        for gaps in (None, 3, 1):
            spec: dict[str, object] = {"profile": profile}
            if gaps is not None:
                spec["max_gap_blocks"] = gaps
            res = run(base.with_({"flows[0].sctp": spec}))
            f = res.flows.iloc[0]
            rows.append({"transport": f"sctp ({profile})", "blocks": "unlimited" if gaps is None else gaps,
                         "recovery_s": sctp_recovery_time_s(res.timeseries), "timeouts": int(f.timeouts),
                         "fast_retransmits": int(f.fast_retransmits), "retransmissions": int(f.retransmissions),
                         "goodput_bps": float(f.goodput_bps)})
    tcp = Scenario.load(_EXAMPLES / "tcp-six-losses.toml").with_(
        {"flows[0].transport": "tcp-sack", "flows[0].tcp.max_sack_blocks": 3, "flows[0].tcp.timestamps": False}
    )
    res = run(tcp)
    f = res.flows.iloc[0]
    rows.append({"transport": "tcp-sack", "blocks": 3, "recovery_s": recovery_time_s(res.timeseries),
                 "timeouts": int(f.timeouts), "fast_retransmits": int(f.fast_retransmits),
                 "retransmissions": int(f.retransmissions), "goodput_bps": float(f.goodput_bps)})
    return pd.DataFrame(rows)


@register("sctp-six-losses", "six losses in one window: SCTP with unlimited gap blocks recovers faster than TCP SACK with 3 blocks")
def sctp_six_losses(quick: bool) -> list[Row]:
    t = sctp_vs_tcp_table()
    sctp = float(t[(t.transport == "sctp (rfc9260)") & (t.blocks == "unlimited")].recovery_s.iloc[0])
    tcp = float(t[t.transport == "tcp-sack"].recovery_s.iloc[0])
    timeouts = int(t[(t.transport == "sctp (rfc9260)") & (t.blocks == "unlimited")].timeouts.iloc[0])
    return [
        Row(f"SCTP recovery {sctp:.3f} s < TCP SACK(3) {tcp:.3f} s", float(sctp >= tcp), 0.0, 0.0),
        Row("SCTP (unlimited gap blocks) timeouts", float(timeouts), 0.0, 0.0),
    ]
