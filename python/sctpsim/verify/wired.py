"""Validations of the wired network model: link timing, loss processes, drop-tail queue."""

from __future__ import annotations

import math

from sctpsim.runner import run
from sctpsim.scenario import Scenario
from sctpsim.verify import Row, register

_TWO_NODES = """
[simulation]
duration = "{duration}"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
between = ["a", "b"]
bandwidth = "{bw}"
delay = "{delay}"
{loss}
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "{rate}"
packet_size_bytes = {size}
stop = "{stop}"
"""


def _two_nodes(**kw: object) -> Scenario:
    params: dict[str, object] = dict(duration="10s", bw="1Mbps", delay="10ms", loss="", rate="100kbps", size=972, stop="9s")
    params.update(kw)
    return Scenario.from_string(_TWO_NODES.format(**params))


@register("p2p-link", "point-to-point link: serialisation + propagation delay, saturation throughput")
def p2p_link(quick: bool) -> list[Row]:
    rows = []
    # One 1000-byte IP packet (972 B payload + 28 B headers) at 1 Mbit/s: 8 ms + 10 ms, exactly.
    res = run(_two_nodes(rate="8kbps", duration="3s", stop="1s"))
    rows.append(Row("one-way delay, 1000 B at 1 Mbit/s + 10 ms (s)", float(res.flows.mean_delay_s[0]), 0.018, 1e-9, "s"))
    # Offered 2 Mbit/s into 1 Mbit/s: the link carries its bandwidth; goodput = bw * 972/1000.
    dur = 5 if quick else 20
    res = run(_two_nodes(rate="2Mbps", duration=f"{dur}s", stop=f"{dur}s"))
    link = res.links[(res.links.id == 0) & (res.links.dir == "fwd")].iloc[0]
    rows.append(Row("saturated link utilisation", float(link.utilization), 1.0, 0.002))
    goodput = float(res.flows.goodput_bps[0])
    # The first packet needs 18 ms to arrive; the queue holds what is in flight at the end.
    ref = 1e6 * 972 / 1000 * (dur - 0.018) / dur
    rows.append(Row("saturated goodput (bit/s)", goodput, ref, 0.002 * ref, "bit/s"))
    return rows


@register("bernoulli-loss", "Bernoulli link loss: delivered fraction = 1 - p within 3 standard errors")
def bernoulli_loss(quick: bool) -> list[Row]:
    rows = []
    for p in (0.01, 0.05, 0.2):
        dur = 20 if quick else 200
        sc = _two_nodes(
            duration=f"{dur + 1}s", stop=f"{dur}s", rate="1Mbps", bw="2Mbps",
            loss=f'[link.loss]\nmodel = "bernoulli"\np = {p}',
        )
        res = run(sc)
        sent = int(res.flows.packets_sent[0])
        frac = float(res.flows.delivered_fraction[0])
        se = math.sqrt(p * (1 - p) / sent)
        rows.append(Row(f"p={p} delivered fraction (n={sent})", frac, 1 - p, 3 * se))
    return rows


@register("gilbert-elliott", "Gilbert-Elliott loss: long-run loss rate = stationary rate")
def gilbert_elliott(quick: bool) -> list[Row]:
    p_gb, p_bg, lg, lb = 0.01, 0.1, 0.0, 0.8
    pi_b = p_gb / (p_gb + p_bg)
    ref = pi_b * lb + (1 - pi_b) * lg
    dur = 60 if quick else 600
    loss = (
        f'[link.loss]\nmodel = "gilbert-elliott"\np_good_to_bad = {p_gb}\np_bad_to_good = {p_bg}\n'
        f"loss_good = {lg}\nloss_bad = {lb}"
    )
    res = run(_two_nodes(duration=f"{dur + 1}s", stop=f"{dur}s", rate="1Mbps", bw="2Mbps", loss=loss))
    sent = int(res.flows.packets_sent[0])
    lost = 1 - float(res.flows.delivered_fraction[0])
    # Bursty losses are correlated: widen the binomial standard error by the burst factor
    # (1 + 2 * sum of lag correlations ~ (1 + rho) / (1 - rho), rho = 1 - p_gb - p_bg).
    rho = 1 - p_gb - p_bg
    se = math.sqrt(ref * (1 - ref) / sent * (1 + rho) / (1 - rho))
    return [Row(f"loss rate (n={sent})", lost, ref, 3 * se)]
