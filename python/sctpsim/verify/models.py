"""Analytical reference models used by the validations. Each function cites its source."""

from __future__ import annotations

import math


def pftk_throughput_pps(p: float, rtt_s: float, rto_s: float, b: int = 2, wmax_pkts: float = math.inf) -> float:
    """Steady-state TCP Reno throughput in packets/s — Padhye, Firoiu, Towsley, Kurose,
    "Modeling TCP Throughput: A Simple Model and its Empirical Validation", SIGCOMM 1998,
    eq. (31) (the "full model" approximation):

        B(p) = min( Wmax/RTT,
                    1 / ( RTT·sqrt(2bp/3) + T0·min(1, 3·sqrt(3bp/8))·p·(1 + 32p²) ) )

    ``b`` is the number of packets acknowledged by one ACK (2 with delayed ACKs), ``T0`` the
    retransmission timeout, ``p`` the loss event probability.
    """
    if p <= 0:
        return wmax_pkts / rtt_s
    denom = rtt_s * math.sqrt(2 * b * p / 3) + rto_s * min(1.0, 3 * math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p * p)
    return min(wmax_pkts / rtt_s, 1.0 / denom)


def mathis_throughput_pps(p: float, rtt_s: float, b: int = 1) -> float:
    """Mathis, Semke, Mahdavi, Ott, "The Macroscopic Behavior of the TCP Congestion Avoidance
    Algorithm", CCR 1997: B = (1/RTT)·sqrt(3/(2bp)) packets/s (periodic loss, no timeouts)."""
    return math.sqrt(3 / (2 * b * p)) / rtt_s
