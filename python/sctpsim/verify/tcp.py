"""Validations of the TCP model: steady-state throughput against PFTK, and loss recovery of six
non-consecutive losses in one window (Atiquzzaman & Fu)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sctpsim.runner import run
from sctpsim.scenario import Scenario
from sctpsim.verify import Row, register
from sctpsim.verify.models import pftk_throughput_pps

_EXAMPLES = Path(__file__).resolve().parents[1] / "scenarios" / "examples"

_PFTK_PATH = """
[simulation]
duration = "{duration}"
sample_interval = "1s"
[[node]]
name = "snd"
[[node]]
name = "rcv"
[[link]]
between = ["snd", "rcv"]
bandwidth = "100Mbps"
delay = "50ms"
queue_limit_packets = 1000
[link.loss]
model = "bernoulli"
p = {p}
from = "snd"
[[flows]]
src = "snd"
dst = "rcv"
transport = "tcp-reno"
app = "ftp"
[flows.tcp]
profile = "rfc"
timestamps = false
recv_buffer_bytes = 1048576
"""


def _mean_rto(ts: pd.DataFrame) -> float:
    """Time-weighted mean of the RTO over the run (it changes at every RTT sample)."""
    rto = ts[(ts.scope == "flow") & (ts.metric == "rto_s")].sort_values("time_s")
    if rto.empty:
        return float("nan")
    t = rto.time_s.to_numpy()
    v = rto.value.to_numpy()
    if len(t) < 2:
        return float(v[0])
    dt = t[1:] - t[:-1]
    return float((v[:-1] * dt).sum() / dt.sum())


@register("pftk", "TCP Reno steady-state throughput vs the PFTK model (Padhye et al. 1998), within 25 %")
def pftk(quick: bool) -> list[Row]:
    rows = []
    for p in (0.005, 0.01, 0.02):
        duration = 300 if quick else 2000
        res = run(Scenario.from_string(_PFTK_PATH.format(duration=f"{duration}s", p=p)))
        flow = res.flows.iloc[0]
        rtt = float(flow.mean_rtt_s)
        rto = _mean_rto(res.timeseries)
        mss = 1460
        # Delayed ACKs (rfc profile): b = 2 segments per ACK.
        model_bps = pftk_throughput_pps(p, rtt, rto, b=2) * mss * 8
        sim_bps = float(flow.goodput_bps)
        rows.append(Row(f"p={p:.3f} goodput (RTT {1e3 * rtt:.0f} ms, RTO {rto:.2f} s)", sim_bps, model_bps, 0.25 * model_bps, "bit/s"))
    return rows


def recovery_time_s(timeseries: pd.DataFrame, flow: int = 0) -> float:
    """From the first drop of a data segment of `flow` to the first time `snd_una` covers the
    highest dropped segment (the recovery time of the Atiquzzaman & Fu slides)."""
    f = timeseries[(timeseries.scope == "flow") & (timeseries.id == flow)]
    drops = f[f.metric == "dropped_seq"]
    if drops.empty:
        return float("nan")
    t0 = float(drops.time_s.min())
    last = float(drops.value.max())
    una = f[(f.metric == "snd_una") & (f.value >= last) & (f.time_s >= t0)]
    return float(una.time_s.min()) - t0 if not una.empty else float("inf")


def six_losses_table() -> pd.DataFrame:
    """Recovery of six non-consecutive losses per variant on `tcp-six-losses.toml`. SACK runs
    without timestamps so that its option space holds up to 4 blocks (RFC 2018 §3). The last
    rows repeat Reno, ns-2's Sack1 and RFC 6675 SACK with ns-2.1b8's defaults (`ns2-2001`,
    the Mobile IP study's simulator: 100 ms timer ticks, minimum RTO 1 s, window_ 20)."""
    base = Scenario.load(_EXAMPLES / "tcp-six-losses.toml")
    cases: list[tuple[str, int | None, str]] = [
        ("tcp-reno", None, "rfc"),
        ("tcp-newreno", None, "rfc"),
        ("tcp-sack", 1, "rfc"),
        ("tcp-sack", 2, "rfc"),
        ("tcp-sack", 3, "rfc"),
        ("tcp-sack", 4, "rfc"),
        ("tcp-sack1", 3, "rfc"),
        ("tcp-reno", None, "ns2-2001"),
        ("tcp-sack1", 3, "ns2-2001"),
        ("tcp-sack", 3, "ns2-2001"),
    ]
    out = []
    for transport, blocks, profile in cases:
        over: dict[str, object] = {"flows[0].transport": transport, "flows[0].tcp.profile": profile}
        if blocks is not None:
            over["flows[0].tcp.max_sack_blocks"] = blocks
            over["flows[0].tcp.timestamps"] = False
        res = run(base.with_(over))
        f = res.flows.iloc[0]
        out.append(
            {
                "transport": transport,
                "profile": profile,
                "max_sack_blocks": blocks if blocks is not None else 0,
                "recovery_s": recovery_time_s(res.timeseries),
                "timeouts": int(f.timeouts),
                "fast_retransmits": int(f.fast_retransmits),
                "retransmissions": int(f.retransmissions),
                "goodput_bps": float(f.goodput_bps),
            }
        )
    return pd.DataFrame(out)


@register("six-losses", "six non-consecutive losses in one window: Reno times out, NewReno, SACK and Sack1 do not; Reno > NewReno >= SACK")
def six_losses(quick: bool) -> list[Row]:
    t = six_losses_table()
    rows = []
    for _, r in t.iterrows():
        label = r.transport + (f" ({r.max_sack_blocks} blocks)" if r.max_sack_blocks else "")
        if r.profile != "rfc":
            label += f", {r.profile}"
        if r.transport == "tcp-reno":
            rows.append(Row(f"{label} needs a timeout (timeouts={r.timeouts})", float(r.timeouts >= 1), 1.0, 0.0))
        else:
            rows.append(Row(f"{label} timeouts", float(r.timeouts), 0.0, 0.0))

    def rec(transport: str, profile: str = "rfc", blocks: int = 0) -> float:
        m = t[(t.transport == transport) & (t.profile == profile) & (t.max_sack_blocks == blocks)]
        return float(m.recovery_s.iloc[0])

    reno, newreno, sack3 = rec("tcp-reno"), rec("tcp-newreno"), rec("tcp-sack", blocks=3)
    # An ordering as a row: the shortfall min(a - b, 0) must be 0.
    rows.append(Row(f"Reno - NewReno recovery ({reno:.3f} - {newreno:.3f} s), > 0", float(reno <= newreno), 0.0, 0.0))
    rows.append(Row(f"NewReno - SACK(3) recovery ({newreno:.3f} - {sack3:.3f} s), >= 0", min(newreno - sack3, 0.0), 0.0, 0.0))
    old_reno, old_sack1 = rec("tcp-reno", "ns2-2001"), rec("tcp-sack1", "ns2-2001", 3)
    rows.append(Row(f"ns2-2001 Reno - Sack1(3) recovery ({old_reno:.3f} - {old_sack1:.3f} s), > 0", float(old_reno <= old_sack1), 0.0, 0.0))
    return rows
