"""Analytical reference models used by the validations. Each function cites its source."""

from __future__ import annotations

import math
from typing import cast


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


# ---------------------------------------------------------------------------------------------
# IEEE 802.11: PHY timing and Bianchi's saturation model.


#: MAC/PHY constants per PHY (IEEE Std 802.11-2020: Clause 15/16 DSSS and HR/DSSS, Clause 17
#: OFDM, Clause 18 ERP with the short slot): slot, SIFS, CWmin, CWmax in µs / slots, and the
#: lowest mandatory rate at which EIFS counts its Ack (§10.3.2.3.7).
WIFI_PHY = {
    "dsss": {"slot": 20, "sifs": 10, "cw_min": 31, "cw_max": 1023, "eifs_ack": ("dsss", 1.0)},
    "ofdm": {"slot": 9, "sifs": 16, "cw_min": 15, "cw_max": 1023, "eifs_ack": ("ofdm", 6.0)},
    "erp": {"slot": 9, "sifs": 10, "cw_min": 15, "cw_max": 1023, "eifs_ack": ("dsss", 1.0)},
}

#: Data bits per OFDM symbol (Table 17-4).
_NDBPS = {6: 24, 9: 36, 12: 48, 18: 72, 24: 96, 36: 144, 48: 192, 54: 216}

ACK_BYTES = 14
RTS_BYTES = 20
#: MAC overhead of a data frame: 24-octet header, 8-octet LLC/SNAP, 4-octet FCS.
DATA_OVERHEAD_BYTES = 36


def wifi_tx_time_us(family: str, rate_mbps: float, nbytes: int, short_preamble: bool = False) -> float:
    """TXTIME of a PPDU carrying ``nbytes`` octets (MPDU with FCS), µs — IEEE 802.11-2020
    Clause 15/16 (192 µs long PLCP or 96 µs short, then ⌈8·L/R⌉ µs), §17.4.3 (OFDM:
    20 µs + 4 µs·⌈(16 + 8·L + 6)/N_DBPS⌉) and §18.5.3 (ERP-OFDM: + 6 µs signal extension)."""
    if family == "dsss":
        plcp = 96 if short_preamble and rate_mbps != 1.0 else 192
        return plcp + math.ceil(8 * nbytes / rate_mbps - 1e-9)
    symbols = math.ceil((16 + 8 * nbytes + 6) / _NDBPS[int(rate_mbps)])
    t = 20 + 4 * symbols
    return t + 6 if family == "erp-ofdm" else t


def control_rate(data_family: str, data_rate: float, basic: list[float]) -> float:
    """§10.6.6.5: the rate of an Ack/CTS answering (or an RTS protecting) a frame at
    ``data_rate``: the highest basic rate of the same family not above it (the basic rates
    given are of that family)."""
    ok = [b for b in basic if b <= data_rate]
    return max(ok) if ok else min(basic)


def bianchi_tau_p(n: int, cw_min: int = 31, cw_max: int = 1023) -> tuple[float, float]:
    """Bianchi's fixed point (G. Bianchi, "Performance analysis of the IEEE 802.11 distributed
    coordination function", IEEE JSAC 18(3), 2000, eqs. (7) and (9)): with W = CWmin + 1 and m
    backoff stages (CWmax + 1 = 2^m·W),

        τ = 2(1 − 2p) / ((1 − 2p)(W + 1) + pW(1 − (2p)^m)),   p = 1 − (1 − τ)^(n − 1),

    solved exactly by bisection on τ (τ − τ(p(τ)) increases in τ)."""
    w = cw_min + 1
    m = round(math.log2((cw_max + 1) / w))

    def tau_of(p: float) -> float:
        # (1 − (2p)^m)/(1 − 2p) written as a sum: no 0/0 at p = 1/2.
        return 2.0 / (1 + w + p * w * sum((2 * p) ** i for i in range(m)))

    lo, hi = 0.0, 1.0
    for _ in range(200):
        tau = 0.5 * (lo + hi)
        p = 1 - (1 - tau) ** (n - 1)
        if tau - tau_of(p) > 0:
            hi = tau
        else:
            lo = tau
    tau = 0.5 * (lo + hi)
    return tau, 1 - (1 - tau) ** (n - 1)


def bianchi(
    n: int,
    *,
    payload_bits: float,
    slot_s: float,
    ts_s: float,
    tc_s: float,
    cw_min: int = 31,
    cw_max: int = 1023,
    ns3_modified: bool = False,
) -> tuple[float, float, float]:
    """Saturation throughput S (bit/s), conditional collision probability p and transmission
    probability τ of n stations — Bianchi (JSAC 2000) eq. (13):

        S = P_s·P_tr·E[P] / ((1 − P_tr)·σ + P_tr·P_s·T_s + P_tr·(1 − P_s)·T_c),
        P_tr = 1 − (1 − τ)^n,   P_s = n·τ·(1 − τ)^(n − 1) / P_tr.

    ``ts_s`` / ``tc_s`` are the busy periods of a success and of a collision, DIFS (or EIFS)
    included: basic access T_s = DATA + SIFS + ACK + DIFS, T_c = DATA + DIFS (or + EIFS);
    RTS/CTS T_s = RTS + CTS + DATA + ACK + 3·SIFS + DIFS, T_c = RTS + DIFS (or + EIFS)
    (Bianchi §IV-B with the propagation delay δ neglected).

    ``ns3_modified`` applies the correction of ns-3's reference scripts
    (`src/wifi/examples/reference/Bianchi11b.m`): a station draws a zero backoff after a
    success with probability B = 1/W and sends back to back, so a success period carries
    E[P]/(1 − B) and lasts T_s/(1 − B) + σ. With it this function reproduces the ns-3 tables
    (`bianchi_11b_eifs.txt`, `bianchi_11b_difs.txt`) within 0.05 % (ns-3 solves the fixed
    point on a 10⁻⁴ grid of τ, this function exactly)."""
    tau, p = bianchi_tau_p(n, cw_min, cw_max)
    ptr = 1 - (1 - tau) ** n
    ps = n * tau * (1 - tau) ** (n - 1) / ptr
    ep, ts = payload_bits, ts_s
    if ns3_modified:
        b = 1.0 / (cw_min + 1)
        ep = payload_bits / (1 - b)
        ts = ts_s / (1 - b) + slot_s
    s = ps * ptr * ep / ((1 - ptr) * slot_s + ptr * ps * ts + ptr * (1 - ps) * tc_s)
    return s, p, tau


def wifi_exchange_times_us(
    phy: str, family: str, data_rate: float, basic: list[float], payload_bytes: int, short_preamble: bool = False
) -> dict[str, float]:
    """Durations (µs) of one exchange for a ``payload_bytes`` IP packet: DATA, ACK, RTS, CTS at
    the rates the MAC uses (control frames at :func:`control_rate`), and SIFS, DIFS, EIFS, slot
    of ``phy`` (a key of :data:`WIFI_PHY`)."""
    k = WIFI_PHY[phy]
    ctl = control_rate(family, data_rate, basic)
    t = lambda rate, nbytes: wifi_tx_time_us(family, rate, nbytes, short_preamble)  # noqa: E731
    eifs_family, eifs_rate = k["eifs_ack"]
    difs = k["sifs"] + 2 * k["slot"]
    return {
        "data": t(data_rate, payload_bytes + DATA_OVERHEAD_BYTES),
        "ack": t(ctl, ACK_BYTES),
        "rts": t(ctl, RTS_BYTES),
        "cts": t(control_rate(family, ctl, basic), ACK_BYTES),
        "sifs": k["sifs"],
        "difs": difs,
        "eifs": k["sifs"] + difs + wifi_tx_time_us(eifs_family, eifs_rate, ACK_BYTES),
        "slot": k["slot"],
        "cw_min": k["cw_min"],
        "cw_max": k["cw_max"],
    }


def wifi_busy_periods_us(x: dict[str, float], rts: bool, collision_ifs: str = "eifs") -> tuple[float, float]:
    """Bianchi's T_s and T_c (µs) from :func:`wifi_exchange_times_us`; T_c ends with
    ``collision_ifs`` ("eifs" as the standard has third parties defer after a corrupted frame,
    or "difs")."""
    ifs = x[collision_ifs]
    if rts:
        ts = x["rts"] + x["cts"] + x["data"] + x["ack"] + 3 * x["sifs"] + x["difs"]
        return ts, x["rts"] + ifs
    return x["data"] + x["sifs"] + x["ack"] + x["difs"], x["data"] + ifs


def single_hop_cycle_us(x: dict[str, float], rts: bool) -> float:
    """The mean cycle of one saturated sender without contention, µs: DIFS + CWmin/2 slots of
    post-backoff + DATA + SIFS + ACK (+ RTS + SIFS + CTS + SIFS with RTS/CTS)."""
    cycle = x["difs"] + x["cw_min"] / 2 * x["slot"] + x["data"] + x["sifs"] + x["ack"]
    if rts:
        cycle += x["rts"] + x["sifs"] + x["cts"] + x["sifs"]
    return cycle


# ---------------------------------------------------------------------------------------------
# SCTP with a receive window of two packets over one 802.11 hop (Ye, Saadawi & Lee 2003, §4).

#: Octets of an SCTP SACK packet without gap blocks: IPv4 header 20 (RFC 791), SCTP common
#: header 12 (RFC 4960 §3.1), SACK chunk 16 (§3.3.4).
SCTP_SACK_IP_BYTES = 20 + 12 + 16


def _uniform(cw: int) -> list[float]:
    """Backoff draw: uniform on 0..CW (IEEE 802.11-2020 §10.3.4.3, Random() in [0, CW])."""
    return [1.0 / (cw + 1)] * (cw + 1)


def _positive_part_of(dist: dict[int, float], minus: int) -> list[tuple[int, float]]:
    """Distribution of max(X − minus, 0) for X ~ ``dist``."""
    out: dict[int, float] = {}
    for x, p in dist.items():
        k = max(x - minus, 0)
        out[k] = out.get(k, 0.0) + p
    return sorted(out.items())


def stop_and_wait_backoff_slots(cw: int) -> dict[str, float]:
    """Expected idle backoff slots per cycle of a window-2 SCTP transfer over one 802.11 hop,
    with this simulator's DCF (`crates/proto/src/mac/dcf.rs`, `dcf/access.rs`): a post-backoff
    is drawn after every successful exchange and counts down only in idle slots after DIFS; a
    frame taken into service while a post-backoff is pending waits for it; one that finds the
    medium idle and nothing pending goes after DIFS. One cycle is

        S: DATA1 exchange;  gap b1 (S's fresh post-backoff; R's residual counts down too)
        S: DATA2 exchange;  gap r  (R's residual, the SACK's wait; S's post-backoff b2 counts)
        R: SACK exchange;   gap s  (S's residual, DATA1's wait; R's post-backoff counts)

    with S the sender and R the receiver; only one of them has a frame at any time, so there
    are no collisions and each gap is the residual post-backoff of the station that has the
    frame, reduced by the idle slots of the other's gaps since it was drawn:

        r = max(rb − s − b1, 0),   s' = max(b2 − r, 0),   b1, b2, rb ~ U{0..CW} independent.

    The chain over s (S's residual when the SACK exchange ends) is solved for its stationary
    distribution π; the idle slots per cycle are E_π[s] + E[b1] + E_π[r]. Returns those three
    means and their sum (``slots``)."""
    if cw < 0:
        raise ValueError("cw must be >= 0")
    u = _uniform(cw)
    # D = rb − b1: the receiver's post-backoff less the sender's first gap.
    d: dict[int, float] = {}
    for rb, p in enumerate(u):
        for b1, q in enumerate(u):
            d[rb - b1] = d.get(rb - b1, 0.0) + p * q
    n = cw + 1
    trans = [[0.0] * n for _ in range(n)]
    mean_r = [0.0] * n
    for s in range(n):
        for r, pr in _positive_part_of(d, s):
            mean_r[s] += r * pr
            for b2, pb in enumerate(u):
                trans[s][max(b2 - r, 0)] += pr * pb
    # Stationary distribution: π = πP (power iteration; the chain is aperiodic — state 0 has
    # a self-loop — and irreducible on the states it reaches).
    pi = [1.0 / n] * n
    for _ in range(10_000):
        nxt = [0.0] * n
        for s, ps in enumerate(pi):
            if ps:
                for t, p in enumerate(trans[s]):
                    nxt[t] += ps * p
        delta = max(abs(a - b) for a, b in zip(nxt, pi))
        pi = nxt
        if delta < 1e-15:
            break
    e_s = sum(s * p for s, p in enumerate(pi))
    e_r = sum(p * m for p, m in zip(pi, mean_r))
    e_b = cw / 2
    return {"s": e_s, "b1": e_b, "r": e_r, "slots": e_s + e_b + e_r}


def sctp_window2_one_hop(
    *,
    rts_threshold: int,
    ip_bytes: int = 560,
    chunk_bytes: int = 512,
    sack_ip_bytes: int = SCTP_SACK_IP_BYTES,
    route_overhead_bytes: int = 0,
    phy: str = "dsss",
    rate_mbps: float = 1.0,
    basic: tuple[float, ...] = (1.0,),
    prop_delay_us: float = 0.834,
    cw_min: int | None = None,
    sack: bool = True,
) -> dict[str, float]:
    """Throughput of an SCTP association with a receive window of two packets and delayed SACK
    over one 802.11 hop (Ye, Saadawi & Lee 2003, §4: "SCTP actually acts like the stop-and-wait
    protocol. It starts sending two data chunks, then waits for the acknowledgment").

    One cycle (µs): two DATA exchanges by the sender and one SACK exchange by the receiver, each
    with RTS/CTS if its MPDU is longer than ``rts_threshold`` (IEEE 802.11-2020 §10.3.4.4), three
    DIFS and the idle backoff slots of :func:`stop_and_wait_backoff_slots`:

        cycle = 2·X(DATA) + X(SACK) + 3·DIFS + slots·aSlotTime − 2δ,
        X(f)  = [RTS + CTS + 2·SIFS + 2δ] + f + SIFS + ACK + 2δ,

    δ the propagation delay (an exchange is timed from its first bit to the end of the Ack at
    its initiator; the next initiator counts DIFS from its own last transmission, δ earlier
    when the initiator changes). Frame times from :func:`wifi_tx_time_us` with the MAC overhead
    :data:`DATA_OVERHEAD_BYTES`; SIFS, DIFS, slot and CWmin from :data:`WIFI_PHY`.

    ``route_overhead_bytes``: what the routing layer adds to each IP packet (0 for DSR on a
    one-hop route: `docs/models/dsr.md`, §8.1.3). ``cw_min`` overrides the PHY's CWmin (0: no
    backoff). ``sack=False`` drops the SACK exchange and its gap (the sender's frames back to
    back, each after a full post-backoff): an upper bound, for tests.

    Returns the cycle (``cycle_us``), the backoff slots per cycle, the goodput (two chunks per
    cycle, bit/s), the IP-layer throughput of the DATA packets (``ip_bps``) and of all packets
    both ways (``ip_both_bps``)."""
    k = WIFI_PHY[phy]
    cw = cast(int, k["cw_min"]) if cw_min is None else cw_min
    family = "dsss" if phy == "dsss" else ("erp-ofdm" if phy == "erp" else "ofdm")
    ctl = control_rate(family, rate_mbps, list(basic))
    sifs, slot = cast(float, k["sifs"]), cast(float, k["slot"])
    difs = sifs + 2 * slot  # §10.3.2.3.5
    d = prop_delay_us

    def exchange(ip: int) -> float:
        mpdu = ip + route_overhead_bytes + DATA_OVERHEAD_BYTES
        x = wifi_tx_time_us(family, rate_mbps, mpdu) + sifs + wifi_tx_time_us(family, ctl, ACK_BYTES) + 2 * d
        if mpdu > rts_threshold:
            x += wifi_tx_time_us(family, ctl, RTS_BYTES) + wifi_tx_time_us(family, ctl, ACK_BYTES) + 2 * sifs + 2 * d
        return x

    x_data = exchange(ip_bytes)
    if sack:
        slots = stop_and_wait_backoff_slots(cw)["slots"]
        cycle = 2 * x_data + exchange(sack_ip_bytes) + 3 * difs + slots * slot - 2 * d
        both = 2 * (ip_bytes + route_overhead_bytes) + sack_ip_bytes + route_overhead_bytes
    else:
        slots = float(cw)  # two full post-backoffs of mean CW/2
        cycle = 2 * x_data + 2 * difs + slots * slot
        both = 2 * (ip_bytes + route_overhead_bytes)
    return {
        "cycle_us": cycle,
        "backoff_slots": slots,
        "goodput_bps": 2 * chunk_bytes * 8 / (cycle * 1e-6),
        "ip_bps": 2 * (ip_bytes + route_overhead_bytes) * 8 / (cycle * 1e-6),
        "ip_both_bps": both * 8 / (cycle * 1e-6),
    }
