"""Validations of the ad hoc routing protocols through the engine (real 802.11 MAC): route
discovery on a static line against the RREQ count derived for a line (docs/models/aodv.md,
dsr.md), OLSR convergence on the same line, and route repair after a relay moves away
(`manet-link-break.toml`; docs/models/manet.md)."""

from __future__ import annotations

from sctpsim.runner import run
from sctpsim.scenario import Scenario
from sctpsim.verify import Row, register

_LINE = """
[simulation]
duration = "{duration}"
seed = 3
[radio]
profile = "ns2-wavelan"
[routing]
protocol = "{protocol}"
[nodes]
count = {count}
[mobility]
model = "static"
placement = "line"
spacing_m = 200
[[flows]]
src = "n0"
dst = "n{h}"
app = "cbr"
rate = "4096bps"
packet_size_bytes = 64
start = "{start}"
"""

#: AODV's expanding ring search (RFC 3561 §6.4, §10): TTL_START 1, TTL_INCREMENT 2,
#: TTL_THRESHOLD 7, then NET_DIAMETER 35.
AODV_RINGS = (1, 3, 5, 7, 35)


def aodv_line_rreqs(h: int) -> int:
    """RREQ transmissions of one AODV discovery over h hops of a line: a ring of TTL t that
    falls short is sent by the source and relayed by the t - 1 nodes after it (t in all); the
    first ring that reaches the destination costs h."""
    return sum(t for t in AODV_RINGS if t < h) + h


def dsr_line_rreqs(h: int) -> int:
    """RREQ transmissions of one DSR discovery over h hops of a line: the non-propagating
    request (answered at once when h = 1), then a flood every node but the target relays once."""
    return 1 if h == 1 else h + 1


def _line(protocol: str, h: int, start: str = "1s", duration: str = "10s") -> Scenario:
    return Scenario.from_string(_LINE.format(protocol=protocol, count=h + 1, h=h, start=start, duration=duration))


def _rreqs(res: object) -> int:
    rows = res.routing  # type: ignore[attr-defined]
    return int(rows[rows.message == "rreq"].tx_packets.sum())


@register("routing-line", "AODV/DSR discovery on a static line: RREQ count of a line; OLSR convergence")
def routing_line(quick: bool) -> list[Row]:
    rows = []
    for h in (1, 2, 4) if quick else (1, 2, 3, 4, 5, 6, 8):
        for protocol, formula in (("aodv", aodv_line_rreqs), ("dsr", dsr_line_rreqs)):
            res = run(_line(protocol, h))
            rows.append(Row(f"{protocol} {h} hops: RREQ transmissions", _rreqs(res), formula(h), 0))
            rows.append(Row(f"{protocol} {h} hops: delivery fraction", float(res.summary["network"]["pdf"]), 1.0, 0.01))
        res = run(_line("olsr", h, start="15s", duration="25s"))
        rows.append(Row(f"olsr {h} hops: delivery fraction after 15 s", float(res.summary["network"]["pdf"]), 1.0, 0.01))
    return rows


def _gap_after(res: object, from_s: float) -> float:
    """The longest stretch after ``from_s`` in which flow 0 delivered nothing (s)."""
    ts = res.timeseries  # type: ignore[attr-defined]
    d = ts[(ts.metric == "bytes_delivered") & (ts.scope == "flow") & (ts.id == 0)].sort_values("time_s")
    last, prev, gap = from_s, None, 0.0
    for t, v in zip(d.time_s, d.value):
        if t >= from_s and prev is not None and v > prev:
            gap = max(gap, t - last)
            last = t
        prev = v
    return gap


@register("route-repair", "a relay moves away: route error and a new route (manet-link-break.toml)")
def route_repair(quick: bool) -> list[Row]:
    rows = []
    base = Scenario.load("manet-link-break")
    cases = [("dsr", {}), ("aodv", {}), ("olsr", {}), ("olsr", {"routing.olsr.link_layer_notification": True})]
    for protocol, extra in cases:
        res = run(base.with_({"routing.protocol": protocol, **extra}))
        gap = _gap_after(res, 19.0)
        name = protocol + (" + link-layer notification" if extra else "")
        # DSR/AODV/OLSR with notification: the MAC's failure starts the repair, which takes
        # a discovery (tens of ms at 50 ms sampling: <= 0.2 s). OLSR without it waits for
        # NEIGHB_HOLD_TIME (6 s) plus a HELLO: <= 8 s.
        limit = 8.0 if protocol == "olsr" and not extra else 0.2
        rows.append(Row(f"{name}: delivery gap after the break (s)", gap, 0.0, limit, "s"))
        rows.append(Row(f"{name}: TTL-expiry drops (routing loops)", float(res.summary["network"]["ttl_drops"]), 0.0, 0.0))
    return rows
