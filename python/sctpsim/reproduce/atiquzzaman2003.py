"""Atiquzzaman & Fu (2003), "Improving end-to-end throughput of Mobile IP using SCTP"
(../shared/papers/atiquzzaman-fu-mobile-ip-sctp.txt; published numbers in
../shared/reference/atiquzzaman-fu-throughput.csv).

Parts, on ``scenarios/atiquzzaman2003/``:

``<transport>-<rate>k`` (``mobileip.toml``; ``noretry-<transport>-<rate>k``: the same without
802.11 retransmissions, a sensitivity)
    The three throughput tables: an FTP upload from the mobile host to the correspondent for
    200 s across three Mobile IP handovers, for TCP Reno, TCP SACK (ns-2's ``Sack1``, 3 SACK
    blocks) and SCTP, wireline 28.8-1500 kbit/s × wireless 150-2000 kbit/s. One part per
    transport and wireless rate (the wireless rate sets three radio fields at once).
``six-losses-<transport>`` (``six-losses.toml``)
    The slides' loss-recovery example: six non-consecutive segments of one window dropped, the
    time each transport takes to recover them.

Every value the paper leaves open is in :data:`CHOICES` (rendered into the report).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Collection, Iterable, Mapping

import pandas as pd

from sctpsim.reproduce import Analysis, Context, Part, Study
from sctpsim.reproduce.claims import (Claim, Result, check, diff_ci, effect, level, mean_ci, mean_ci_n, ordering, ratio_ci,
                                      column as _col)
from sctpsim.scenarios import study_dir

SCENARIO = study_dir("atiquzzaman2003") / "mobileip.toml"
SIX_LOSSES = study_dir("atiquzzaman2003") / "six-losses.toml"

#: The paper's grid (slide "Simulation topology and parameters" and the three tables).
WIRELINE_KBPS = (28.8, 54, 200, 500, 1000, 1500)
WIRELESS_KBPS = (150, 200, 384, 1000, 2000)
#: The wireless rates of the no-retransmission sensitivity (the slowest and the fastest).
NORETRY_KBPS = (150, 2000)
#: Our transport per table: (label in the paper's CSV, scenario transport).
TRANSPORTS = {"reno": "tcp-reno", "sack": "tcp-sack1", "sctp": "sctp"}
#: ns-2 `Agent/TCP set packetSize_ 1000`: the paper counts segments; ours are 1000-byte
#: payloads for TCP and 1000-byte messages for SCTP.
SEGMENT_BYTES = 1000

P_WIRELINE = "link[0].bandwidth"
P_TRANSPORT = "flows[0].transport"

#: The published tables (../shared/reference/atiquzzaman-fu-throughput.csv), as
#: {protocol: {(wireline, wireless): segments}}; copied here so an installed package has them.
PAPER: dict[str, dict[tuple[float, int], float]] = {}
_PAPER_ROWS = """reno 287 316 451 544 566 283 489 774 971 1010 373 487 1205 2148 2376 300 616 1399 2492 2723 419 680 1626 2278 2695 519 717 1224 2660 2715
sack 323 391 455 563 598 431 560 934 973 1046 478 717 1262 2528 2501 430 793 1472 2614 2826 468 625 1643 2672 2957 567 727 1816 2750 2796
sctp 423 432 545 609 589 544 796 955 1028 1077 716 1485 1446 2629 2681 623 806 1502 2657 2812 605 1030 1672 2676 2963 685 1168 1892 2768 2793"""
for _line in _PAPER_ROWS.splitlines():
    _proto, *_vals = _line.split()
    _it = iter(float(v) for v in _vals)
    PAPER[_proto] = {(w, r): next(_it) for w in WIRELINE_KBPS for r in WIRELESS_KBPS}

#: Seeds of the six-losses parts (each run is 60 s of one flow: a few seconds of wall time).
SIX_LOSSES_SEEDS, SIX_LOSSES_SEEDS_QUICK = 10, 3
#: The slides' recovery times of six non-consecutive losses ("about 18 secs", "about 6.5 secs").
PAPER_RECOVERY_S = {"reno": 18.0, "sack": 6.5}

#: (parameter, value, why) for everything the paper leaves open.
CHOICES: list[tuple[str, str, str]] = [
    ("wireless link", "802.11 DCF with ns-2.1b8's timing (`radio.timing = \"ns2-2.1b8\"`): every frame, its 24-byte PLCP included, at the study's rate; DATA = IP + 52 bytes; 2.1b8's EIFS and response timeouts; ns-2 WaveLAN radio, two-ray ground, 250 m range",
     "the paper ran ns-2.1b8's wireless extension, which sent everything at the MAC's `bandwidth_` (mac-802_11.h of the release, docs/models/mac80211.md 'ns-2.1b8 timing'), and gives only the rate. Before 2026-11-29 the study sent the PLCP at 1 Mbit/s (the standard's DSSS timing)"),
    ("cells", "HA at (0, 0), FA at (400, 0): cells of 250 m overlapping from 150 to 250 m",
     "the paper: overlapping cells (ACIRI's extension), no geometry given"),
    ("movement", "MH through the cells without a pause: 50 m ↔ 350 m at 10 m/s, six crossings of the overlap in 200 s",
     "the paper: 'Mobile IP handovers' during the 200 s transfer and 'signal fading at the edge of the cell'; neither path nor speed "
     "given. Until issue 36 the MH parked at 50 m and 350 m (no error there) for about 70 % of the run; that path and ns-2.1b8's own "
     "Mobile IP example are points of the configuration search (report section 'Configuration search')"),
    ("wireless error", "distance-linear table of p(d) = Q(40·log10(250/d)/4): log-normal shadowing (σ 4 dB) taking a two-ray signal below the 250 m threshold; 0 below 100 m, 1.3 % at 150 m, 17 % at 200 m, 50 % at 250 m; per frame whatever its length or rate (`unit = \"frame\"`)",
     "the paper: 'wireless error depends on distance between MH and HA/FA', no curve; this one follows from ns-2's own shadowing model with its outdoor σ. "
     "Per frame: ns-2.1b8's `ErrorModel` default (`unit_ pkt`, queue/errmodel.cc); per byte and per airtime are points of the configuration search"),
    ("Mobile IP", "ns-2 profile: advertisements every 1 s with a 2 s lifetime, registration retransmitted after 0.5 s; movement detection by advertisement lifetime; FA care-of address, triangle routing",
     "ns-2's Agent/MIPBS and Agent/MIPMH defaults (docs/models/mobileip.md); the paper uses ns-2's Mobile IP"),
    ("TCP", "ns-2.1b8 profile (`flows[0].tcp.profile = \"ns2-2001\"`): packetSize_ 1000, window_ 20, windowInit_ 2, tcpTick_ 0.1 s with ns-2's tick-based RTO, rtxcur_init_ 6 s, minrto_ 1 s, no limited transmit (docs/models/tcp.md); Reno = Agent/TCP/Reno, SACK = Agent/TCP/Sack1 with TCPSink/Sack1's 3 blocks",
     "the paper: ns-2 2.1b8, TCP Reno and 'TCP Reno with SACK' limited to three blocks"),
    ("SCTP", "ns-2 SCTP profile (University of Delaware module), 1000-byte DATA chunks (`chunk_bytes`, the message size of `ftp`), a receive window of 20 chunks (`recv_buffer_bytes = 20000`)",
     "the paper: 'SCTP patch from University of Delaware', no parameters. Its SCTP and TCP tables agree within a few % where the window limits (1500 kbit/s × 2000 kbit/s: 2793 vs 2715 segments), which needs equal windows and packet sizes; the transports then differ only in loss recovery"),
    ("throughput", "segments (1000-byte payloads) delivered to the correspondent in 200 s",
     "the slides: 'number of segments received at the receiver during a period of time'; compared by shape and ratio"),
]


def _parts(quick: bool) -> list[Part]:
    seeds = 3 if quick else 20
    parts = []
    for proto, transport in TRANSPORTS.items():
        for rate in WIRELESS_KBPS:
            r = f"{rate}kbps"
            # ns-2.1b8's timing sends every frame at `data_rate` (the basic and broadcast
            # rates follow it).
            sets: dict[str, Any] = {P_TRANSPORT: transport, "radio.data_rate": r}
            sets.update(_transport_sets(transport))
            parts.append(Part(
                name=f"{proto}-{rate}k",
                scenario=SCENARIO,
                vary={P_WIRELINE: [f"{w}kbps" for w in WIRELINE_KBPS]},
                seeds=seeds,
                sets=sets,
                what=f"{proto.upper()} over {rate} kbit/s wireless × 6 wireline rates",
            ))
    # Sensitivity: no link-layer retransmission (one attempt per frame), the losses of the
    # wireless error reaching the transports; the slowest and fastest wireless rates at the
    # fastest wireline rate.
    for proto, transport in TRANSPORTS.items():
        for rate in NORETRY_KBPS:
            r = f"{rate}kbps"
            sets = {P_TRANSPORT: transport, "radio.data_rate": r, "radio.short_retry_limit": 1, "radio.long_retry_limit": 1}
            sets.update(_transport_sets(transport))
            parts.append(Part(
                name=f"noretry-{proto}-{rate}k",
                scenario=SCENARIO,
                vary={P_WIRELINE: ["1500kbps"]},
                seeds=seeds,
                sets=sets,
                what=f"sensitivity: {proto.upper()} over {rate} kbit/s without 802.11 retransmissions",
            ))
    # Several seeds although the drops are scripted: the 802.11 backoff and the agents'
    # advertisements still vary, and a recovery time needs a CI to be compared (DESIGN.md §6).
    for proto, transport in TRANSPORTS.items():
        parts.append(Part(
            name=f"six-losses-{proto}",
            scenario=SIX_LOSSES,
            vary={P_WIRELINE: ["1500kbps"]},
            seeds=SIX_LOSSES_SEEDS_QUICK if quick else SIX_LOSSES_SEEDS,
            sets={P_TRANSPORT: transport, **_transport_sets(transport)},
            timeseries=True,
            what=f"six non-consecutive losses in one window: {proto.upper()}'s recovery",
        ))
    from sctpsim.reproduce import atiquzzaman2003_grid as grid

    return parts + grid.parts(quick)


def six_runs(ctx: Context) -> list[tuple[str, str, Any, pd.DataFrame | None]]:
    """(protocol, transport, result row, time series) of each six-losses run."""
    out = []
    for proto, transport in TRANSPORTS.items():
        name = f"six-losses-{proto}"
        df = ctx.results.get(name)
        if df is None:
            continue
        for _, r in df[df["status"] == "ok"].iterrows():
            out.append((proto, transport, r, ctx.timeseries(name, r["key"])))
    return out


def _transport_sets(transport: str) -> dict[str, Any]:
    """The era's profile of each transport (an SCTP flow takes no `[flows.tcp]` and vice versa)."""
    if transport == "sctp":
        # 1000-byte chunks and a 20-chunk receive window: TCP's packetSize_ and window_.
        return {"flows[0].sctp.profile": "ns2", "flows[0].sctp.chunk_bytes": SEGMENT_BYTES,
                "flows[0].sctp.recv_buffer_bytes": 20 * SEGMENT_BYTES}
    return {"flows[0].tcp.profile": "ns2-2001"}


# ---------------------------------------------------------------------------------------------
# Per-run quantities



def _wireline(v: Any) -> float:
    s = str(v).lower().removesuffix("kbps")
    try:
        return float(s)
    except ValueError:
        return math.nan


def throughput_runs(ctx: Context) -> pd.DataFrame:
    """Every ok run of the throughput parts: protocol, wireline, wireless, segments."""
    frames = []
    for name, df in ctx.results.items():
        if name.startswith(("six-losses", "noretry", "grid-")):
            continue
        proto, rate = name.split("-")
        df = df[df["status"] == "ok"].copy()
        df["protocol"] = proto
        df["wireless_kbps"] = int(rate.removesuffix("k"))
        df["wireline_kbps"] = df[P_WIRELINE].map(_wireline)
        df["segments"] = _col(df, "flows[0].bytes_delivered") / SEGMENT_BYTES
        df["timeouts"] = _col(df, "flows[0].timeouts")
        df["retransmissions"] = _col(df, "flows[0].retransmissions")
        df["delivery_errors"] = _col(df, "flows[0].delivery_errors").fillna(0) + _col(df, "sctp[0].messages_missing").fillna(0)
        frames.append(df)
    return pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame()


def noretry_runs(ctx: Context) -> pd.DataFrame:
    """The sensitivity without 802.11 retransmissions, beside the main grid's runs of the same
    cells (wireline 1500 kbit/s): protocol, wireless_kbps, retries (7 or 1), segments."""
    frames = []
    for name, df in ctx.results.items():
        parts = name.split("-")
        if parts[0] == "noretry":
            proto, rate, limit = parts[1], parts[2], 1
        elif not name.startswith(("six-losses", "grid-")):
            proto, rate, limit = parts[0], parts[1], 7
        else:
            continue
        wr = int(rate.removesuffix("k"))
        if wr not in NORETRY_KBPS:
            continue
        df = df[(df["status"] == "ok") & (df[P_WIRELINE].map(_wireline) == 1500.0)].copy()
        df["protocol"], df["wireless_kbps"], df["retry_limit"] = proto, wr, limit
        df["segments"] = _col(df, "flows[0].bytes_delivered") / SEGMENT_BYTES
        df["timeouts"] = _col(df, "flows[0].timeouts")
        df["retransmissions"] = _col(df, "flows[0].retransmissions")
        frames.append(df)
    return pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame()


def noretry_gain(nr: pd.DataFrame, over: str, rate: int, limit: int) -> tuple[float, float]:
    """Mean gain of SCTP over ``over`` (pairs by replication) and its 95 % half-width."""
    g = nr[(nr["wireless_kbps"] == rate) & (nr["retry_limit"] == limit)]
    piv = g.pivot_table(index="replication", columns="protocol", values="segments")
    if "sctp" not in piv or over not in piv:
        return math.nan, math.nan
    return mean_ci((piv["sctp"] - piv[over]) / piv[over])


def cell_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95 % half-width of segments per protocol and cell."""
    rows = []
    for (proto, wl, wr), g in runs.groupby(["protocol", "wireline_kbps", "wireless_kbps"]):
        m, ci = mean_ci(g["segments"])
        rows.append({"protocol": proto, "wireline_kbps": wl, "wireless_kbps": wr, "mean": m, "ci95": ci, "n": len(g),
                     "paper": PAPER.get(str(proto), {}).get((float(wl), int(wr)), math.nan)})
    return pd.DataFrame(rows)


def gain(cells: pd.DataFrame, over: str, source: str = "mean") -> pd.DataFrame:
    """(T(SCTP) − T(over)) / T(over) per cell, from our means or the paper's (``source``)."""
    piv = cells.pivot_table(index=["wireline_kbps", "wireless_kbps"], columns="protocol", values=source)
    out = ((piv["sctp"] - piv[over]) / piv[over]).rename("gain").reset_index()
    return out


def recovery_time_s(ts: pd.DataFrame, transport: str) -> float:
    """From the first drop of a data packet of flow 0 to the first time the sender's cumulative
    acknowledgement covers the highest dropped one (TCP: `snd_una` past `dropped_seq`; SCTP:
    the cumulative TSN ack reaching `dropped_tsn`). Only the scripted drops (the six losses)
    count where the rows name their cause: a later loss of the run (a handover's `no_agent`
    drops) is not part of the recovery from the six."""
    f = ts[(ts.scope == "flow") & (ts.id == 0)]
    if "dir" in f.columns and (f["dir"] == "scripted").any():
        f = f[~f.metric.isin(["dropped_tsn", "dropped_seq"]) | (f["dir"] == "scripted")]
    if transport == "sctp":
        drops = f[f.metric == "dropped_tsn"]
        acked = f[f.metric == "tsn_acked"]
        if drops.empty:
            return math.nan
        t0, last = float(drops.time_s.min()), float(drops.value.max())
        done = acked[(acked.value >= last) & (acked.time_s >= t0)]
    else:
        drops = f[f.metric == "dropped_seq"]
        if drops.empty:
            return math.nan
        t0, last = float(drops.time_s.min()), float(drops.value.max())
        una = f[f.metric == "snd_una"]
        done = una[(una.value >= last) & (una.time_s >= t0)]
    return float(done.time_s.min()) - t0 if not done.empty else math.inf


def six_losses(ctx: Context) -> pd.DataFrame:
    rows = []
    for proto, transport, r, ts in six_runs(ctx):
        rows.append({
            "protocol": proto,
            "replication": int(r.get("replication", 0)),
            "recovery_s": recovery_time_s(ts, transport) if ts is not None else math.nan,
            "timeouts": float(r.get("flows[0].timeouts", math.nan)),
            "fast_retransmits": float(r.get("flows[0].fast_retransmits", math.nan)),
        })
    return pd.DataFrame(rows)


def handoffs(ctx: Context) -> pd.DataFrame:
    """Every handover of every throughput run (the sweeps' ``handoffs.parquet``)."""
    h = ctx.long_table("handoffs", skip=lambda p: p.startswith(("six-losses", "noretry", "grid-")))
    if h.empty:
        return h
    h["latency_s"] = h["reply_received_s"] - h["link_lost_s"]
    h["disruption_s"] = h["first_packet_s"] - h["link_lost_s"]
    h["wireless_kbps"] = h["part"].str.split("-").str[1].str.removesuffix("k").astype(int)
    h["bound_s"] = [latency_bound_s(r) + REG_RETRANSMIT_S * k for r, k in zip(h["wireless_kbps"], h["registration_retransmissions"])]
    return h


# The handover latency bound of docs/models/mobileip.md ("Handover latency"), for this scenario.
#: ns-2 profile: advertisement lifetime and interval, s.
ADV_LIFETIME_S, ADV_INTERVAL_S = 2.0, 1.0
#: ns-2 profile: registration retransmission, s (each resent request may add this).
REG_RETRANSMIT_S = 0.5
#: One-way propagation FA–R–HA, s (the paper's 200 ms per wired link).
WIRED_ONE_WAY_S = 0.4
#: The FA→R and R→HA links: 500 kbit/s, drop-tail queues of 50 packets (ns-2 `limit_`).
AGENT_LINK_BPS, QUEUE_LIMIT = 500e3, 50
#: Largest IP packet on them: 1000-byte payload + SCTP's 28 or TCP's 20 + IPv4 20 bytes.
DATA_IP_BYTES = 1048
#: 802.11 DSSS: slot 20 µs, SIFS 10 µs, DIFS 50 µs, PLCP 192 µs, CWmin 31, CWmax 1023, short
#: retry limit 7 (IEEE 802.11-2020 Clause 15; docs/models/mac80211.md); MAC header + LLC/SNAP
#: + FCS = 36 bytes; ACK 14 bytes; ACK timeout SIFS + slot + PLCP.
SLOT_S, SIFS_S, DIFS_S, PLCP_S, RETRY_LIMIT = 20e-6, 10e-6, 50e-6, 192e-6, 7


def _frame_s(nbytes: int, rate_bps: float) -> float:
    return PLCP_S + 8 * nbytes / rate_bps


def mac_service_max_s(rate_kbps: float, ip_bytes: int = DATA_IP_BYTES) -> float:
    """The longest time one frame holds the MAC: every attempt to the retry limit, each after
    DIFS and the largest backoff of its stage, the frame, and the ACK timeout."""
    rate = rate_kbps * 1e3
    total, cw = 0.0, 31
    for _ in range(RETRY_LIMIT):
        total += DIFS_S + cw * SLOT_S + _frame_s(ip_bytes + 36, rate) + SIFS_S + SLOT_S + PLCP_S + 8 * 14 / rate
        cw = min(2 * cw + 1, 1023)
    return total


def latency_bound_s(rate_kbps: float) -> float:
    """Link lost → registration reply at the mobile node, upper bound (docs/models/mobileip.md):
    detection (the old agent's advertisement lifetime) + waiting for the new agent's next
    advertisement + the request behind the frame in service at the MN's MAC + its own service
    + FA→HA (propagation + a full drop-tail queue of data ahead at the FA) + HA→FA (propagation
    + a full queue of ACK-sized packets) + the reply behind one frame and its own service at
    the FA's MAC. Signalling goes ahead of data in the MAC queues (`sim/mobileip.rs`)."""
    queue_data = QUEUE_LIMIT * DATA_IP_BYTES * 8 / AGENT_LINK_BPS
    queue_acks = 2 * QUEUE_LIMIT * 80 * 8 / AGENT_LINK_BPS
    air = 2 * mac_service_max_s(rate_kbps) + 2 * mac_service_max_s(rate_kbps, 120)
    return ADV_LIFETIME_S + ADV_INTERVAL_S + air + 2 * WIRED_ONE_WAY_S + queue_data + queue_acks


#: IP bytes of one 1000-byte segment on a wired link (TCP: + 20 TCP + 20 IPv4; SCTP: + 16 DATA
#: + 12 common header + 20 IPv4, RFC 9260 §3).
IP_BYTES = {"reno": 1040, "sack": 1040, "sctp": 1048}
#: Transfer time: the FTP starts at 1 s of the 200 s run.
TRANSFER_S = 199.0


def utilisation(segments: float, proto: str, wireline_kbps: float) -> float:
    """Segments delivered as a fraction of what the wireline link can carry in the transfer."""
    return segments * IP_BYTES[proto] * 8 / (wireline_kbps * 1e3 * TRANSFER_S)


# ---------------------------------------------------------------------------------------------
# Results and claims (DESIGN.md §6 "Claims")

#: Every result the slides report, in their order. The slides' figures of the loss recovery
#: are drawings with two times in their captions; the tables are the only numbers of the
#: throughput study, and the gain figures are their quotients.
RESULTS: list[Result] = [
    Result("R1", "slide 'Multiple non-consecutive packet losses during the handover'",
           "a Mobile IP handover loses several packets (non-consecutive ones in one window)"),
    Result("R2", "slide 'Fast Retransmit and Fast Recovery'", "TCP's fast retransmit and fast recovery, drawn",
           no_row="a drawing of the TCP algorithm, not a result: the paper gives neither a number nor a shape"),
    Result("R3", "slide 'Long recovery time of TCP Reno'", "TCP Reno takes about 18 s to recover 6 non-consecutive losses"),
    Result("R4", "slide 'Loss Recovery of TCP SACK'", "TCP SACK recovers them faster than Reno, still in about 6.5 s"),
    Result("R5", "slide 'Segment loss recovery by TCP Reno'", "after fast retransmit Reno must wait for a timeout to resend the remaining losses"),
    Result("R6", "slide 'Segment loss recovery by TCP SACK'", "TCP SACK's sender does not encounter a timeout"),
    Result("R7", "slide 'Segment loss recovery by SCTP'", "SCTP, not limited in gap-ack blocks, opens its window faster than TCP SACK (recovers sooner)"),
    Result("R8", "table 'TCP Reno'", "segments received in 200 s, 6 wireline × 5 wireless rates (30 cells)"),
    Result("R9", "table 'TCP Reno with SACK'", "segments received in 200 s (30 cells)"),
    Result("R10", "table 'SCTP'", "segments received in 200 s (30 cells)"),
    Result("R11", "caption under the tables", "the throughput improvement of SACK (over Reno) is more prominent at low bottleneck bandwidths"),
    Result("R12", "figure 'Throughput gain of SCTP over TCP-Reno'",
           "the gain (T(SCTP) − T(Reno)) / T(Reno) of every cell (the tables' quotient); 'still considerable gain' at wireline "
           "1.5 Mbit/s when the wireless is the bottleneck (cells 1500/150 and 1500/200); 'small gain' when the wireline is the "
           "bottleneck and the wireless over 500 kbit/s"),
    Result("R13", "figure 'Throughput gain of SCTP over TCP-SACK'", "the same for SCTP over TCP SACK"),
    Result("R14", "slide 'Gain sensitivity to wireless bandwidth'; conclusion 3",
           "the throughput gain is more sensitive to wireless than to wireline bandwidth changes"),
    Result("R15", "conclusion 1", "SCTP has a higher throughput than TCP Reno and TCP SACK"),
    Result("R16", "conclusion 2",
           "SCTP's improvement is larger when the bottleneck bandwidth (wireline or wireless) is low. Over SACK along the "
           "wireline the paper's own tables show the opposite (−3.5 points, 28.8–54 vs 1000–1500 kbit/s), so that pair has "
           "no row; the other three (over Reno on both axes, over SACK along the wireless) have"),
]

#: R11, R14, R16: the low and high ends of each axis (the tables' first two and last two rows or columns).
LOW_WIRELESS, HIGH_WIRELESS = (150, 200), (1000, 2000)
LOW_WIRELINE, HIGH_WIRELINE = (28.8, 54.0), (1000.0, 1500.0)
#: R12/R13 "small gain": the wireline the bottleneck (≤ 500 kbit/s, below the wireless rate)
#: and the wireless over 500 kbit/s.
SMALL_GAIN_CELLS = tuple((wl, wr) for wl in (28.8, 54.0, 200.0, 500.0) for wr in (1000, 2000))
#: The six-losses runs last 60 s (six-losses.toml): a recovery not done by then counts as 60 s,
#: a lower bound, so that a run that never recovers is not dropped from the mean.
SIX_LOSSES_DURATION_S = 60.0
NAMES = {"reno": "TCP Reno", "sack": "TCP SACK", "sctp": "SCTP"}

Cell = tuple[str, float, int]


def paper_table() -> dict[Cell, float]:
    """The published tables as {(protocol, wireline, wireless): segments}."""
    return {(p, wl, wr): v for p, t in PAPER.items() for (wl, wr), v in t.items()}


def tables_by_seed(runs: pd.DataFrame) -> list[dict[Cell, float]]:
    """One table like :func:`paper_table` per replication (the same seed index in every cell
    and protocol), from the throughput runs."""
    if runs.empty:
        return []
    g = runs.groupby(["replication", "protocol", "wireline_kbps", "wireless_kbps"])["segments"].mean()
    out: dict[Any, dict[Cell, float]] = {}
    for (rep, p, wl, wr), v in g.items():
        out.setdefault(rep, {})[(str(p), float(wl), int(wr))] = float(v)
    return [out[k] for k in sorted(out)]


def cell_gain(t: Mapping[Cell, float], hi: str, lo: str, wl: float, wr: int) -> float:
    """(T(hi) − T(lo)) / T(lo) of one cell of a table (NaN if absent)."""
    a, b = t.get((hi, float(wl), int(wr)), math.nan), t.get((lo, float(wl), int(wr)), math.nan)
    return a / b - 1 if b else math.nan


def mean_gain(t: Mapping[Cell, float], hi: str, lo: str, cells: Iterable[tuple[float, int]]) -> float:
    """Mean of the cells' gains (the slides' surfaces averaged over a region)."""
    gs = [cell_gain(t, hi, lo, wl, wr) for wl, wr in cells]
    return sum(gs) / len(gs) if gs else math.nan


ALL_CELLS = tuple((float(wl), wr) for wl in WIRELINE_KBPS for wr in WIRELESS_KBPS)


def low_minus_high(t: Mapping[Cell, float], hi: str, lo: str, axis: str) -> float:
    """Mean gain over the low end of ``axis`` minus that over its high end (R11, R16)."""
    if axis == "wireless":
        low = [c for c in ALL_CELLS if c[1] in LOW_WIRELESS]
        high = [c for c in ALL_CELLS if c[1] in HIGH_WIRELESS]
    else:
        low = [c for c in ALL_CELLS if c[0] in LOW_WIRELINE]
        high = [c for c in ALL_CELLS if c[0] in HIGH_WIRELINE]
    return mean_gain(t, hi, lo, low) - mean_gain(t, hi, lo, high)


def sensitivity(t: Mapping[Cell, float], hi: str, lo: str) -> float:
    """R14: the range of the gain's column means (one per wireless rate) minus the range of its
    row means (one per wireline rate): positive when the gain moves more with the wireless."""
    by_wr = [mean_gain(t, hi, lo, [(float(wl), wr) for wl in WIRELINE_KBPS]) for wr in WIRELESS_KBPS]
    by_wl = [mean_gain(t, hi, lo, [(float(wl), wr) for wr in WIRELESS_KBPS]) for wl in WIRELINE_KBPS]
    return (max(by_wr) - min(by_wr)) - (max(by_wl) - min(by_wl))


AXES = {"wireless": "wireless 150–200 vs 1000–2000 kbit/s", "wireline": "wireline 28.8–54 vs 1000–1500 kbit/s"}


def cell_segments(frame: pd.DataFrame, proto: str, wl: float, wr: int) -> pd.Series:
    """The segments of every run of one cell of ``frame`` (wireline omitted: any)."""
    if frame.empty:
        return pd.Series([], dtype=float)
    g = frame[(frame["protocol"] == proto) & (frame["wireless_kbps"] == wr)]
    if "wireline_kbps" in g.columns:
        g = g[g["wireline_kbps"] == wl]
    return pd.to_numeric(g["segments"], errors="coerce")


def level_row(frame: pd.DataFrame, proto: str, wl: float, wr: int, rid: str, case_suffix: str = "") -> Claim:
    """R8–R10: one table cell as a level row, computed on the runs of ``frame``."""
    m, h, n = mean_ci_n(cell_segments(frame, proto, wl, wr))
    return level(
        "throughput_segments", f"{NAMES[proto]}, wireline {wl:g} / wireless {wr} kbit/s{case_suffix}", result=rid,
        paper=PAPER[proto][(wl, wr)], mean=m, ci95=h, unit="segments in 200 s", n=n,
        why="a cell of the slides' throughput table (one ns-2 run each); ours: 1000-byte segments delivered to the CN")


def claims_from(runs: pd.DataFrame, six: pd.DataFrame, hand: pd.DataFrame, noretry: pd.DataFrame,
                parts: Collection[str]) -> list[Claim]:
    """Every claim row of the study from its frames, without the simulator (tests feed it
    synthetic frames).

    ``runs``: one row per throughput run (protocol, wireline_kbps, wireless_kbps, replication,
    segments; delivery_errors for the check). ``six``: one row per six-losses run (protocol,
    replication, recovery_s, timeouts). ``hand``: one row per handover (packets_lost; key or
    replication and part; latency_s, bound_s, reply_received_s for the check). ``noretry``: the
    sensitivity runs at wireline 1500 kbit/s (protocol, wireless_kbps, retry_limit, replication,
    segments). ``parts``: the parts present, for :meth:`Claim.explained_by`."""
    out: list[Claim] = []
    paper = paper_table()
    seeds = tables_by_seed(runs)

    # R1: several packets lost per handover.
    if not hand.empty and "packets_lost" in hand.columns:
        key = ["part", "key"] if {"part", "key"} <= set(hand.columns) else ["replication"]
        per_run = hand.groupby(key)["packets_lost"].mean()
        m, h, n = mean_ci_n(per_run)
        out.append(ordering(
            "handover_loses_several_packets", "packets lost per handover, mean over runs, minus 1", result="R1",
            paper="more than one per handover", diff=m - 1.0, ci95=h, unit="packets", n=n,
            why="the slides draw several non-consecutive losses in one window at a handover; whether ours are "
                "non-consecutive is not measured, only that a handover loses more than one packet",
        ))
    else:
        out.append(ordering("handover_loses_several_packets", "no handover rows", result="R1", paper="more than one per handover",
                            diff=math.nan, ci95=math.nan, unit="packets", why="no handovers were recorded"))

    # R3–R7: six non-consecutive losses in one window.
    def six_col(proto: str, col: str) -> pd.Series:
        if six.empty:
            return pd.Series([], dtype=float)
        v = pd.to_numeric(six[six["protocol"] == proto][col], errors="coerce")
        return v.clip(upper=SIX_LOSSES_DURATION_S) if col == "recovery_s" else v

    rec = {p: six_col(p, "recovery_s") for p in TRANSPORTS}
    never = {p: int((rec[p] >= SIX_LOSSES_DURATION_S).sum()) for p in TRANSPORTS}
    for proto, rid in (("reno", "R3"), ("sack", "R4")):
        m, h, n = mean_ci_n(rec[proto])
        out.append(level(
            "six_losses_recovery_s", NAMES[proto], result=rid, paper=PAPER_RECOVERY_S[proto], mean=m, ci95=h, unit="s", n=n,
            why="the slides' recovery of six non-consecutive losses ('about 18 secs' for Reno, 'about 6.5 secs' for SACK); "
                "their link rates and the losses' place are not given, so six-losses.toml is our choice",
            note=f"{never[proto]} runs not recovered by {SIX_LOSSES_DURATION_S:g} s (counted as {SIX_LOSSES_DURATION_S:g} s)" if never[proto] else "",
        ))
        if proto == "sack":
            d, h = diff_ci(rec["reno"], rec["sack"])
            out.append(ordering(
                "six_losses_sack_faster_than_reno", "recovery time Reno − SACK", result="R4", paper="SACK recovers sooner (18 vs 6.5 s)",
                diff=d, ci95=h, unit="s", n=min(len(rec["reno"]), len(rec["sack"])),
                why="the slides: 'reduced time to recover 6 segments compared to Reno'"))
    for proto, rid, want, bound in (("reno", "R5", lambda t: t >= 1, "≥ 1 timeout in every run"),
                                    ("sack", "R6", lambda t: t == 0, "no timeout in any run")):
        t = six_col(proto, "timeouts")
        t = t[t.notna()]
        out.append(check(
            "six_losses_reno_waits_for_timeout" if proto == "reno" else "six_losses_sack_no_timeout", NAMES[proto],
            source="paper", result=rid, ok=len(t) > 0 and bool(t.map(want).all()), value=float(t.mean()) if len(t) else math.nan,
            unit="timeouts per run", bound=bound, n=len(t),
            why="the slides' account of the recovery: Reno 'must wait until another timeout', SACK's sender 'does not encounter timeout'"))
    d, h = diff_ci(rec["sack"], rec["sctp"])
    out.append(ordering(
        "six_losses_sctp_faster_than_sack", "recovery time SACK − SCTP", result="R7", paper="SCTP recovers sooner than SACK",
        diff=d, ci95=h, unit="s", n=min(len(rec["sack"]), len(rec["sctp"])),
        why="the slides: SCTP's unlimited gap-ack blocks let 'the sender's window be opened faster than in TCP-SACK'"))

    # R8–R10: the 90 table cells as levels.
    def noretry_frame(rate: int) -> pd.DataFrame:
        if noretry.empty:
            return noretry
        return noretry[(noretry["retry_limit"] == 1) & (noretry["wireless_kbps"] == rate)]

    for proto, rid in (("reno", "R8"), ("sack", "R9"), ("sctp", "R10")):
        for wl, wr in ALL_CELLS:
            c = level_row(runs, proto, wl, wr, rid)
            if wl == 1500.0 and wr in NORETRY_KBPS and c.outcome == "fail":
                v = level_row(noretry_frame(wr), proto, wl, wr, rid, ", 802.11 retry limit 1")
                c.explained_by(v, f"noretry-{proto}-{wr}k", parts, "no 802.11 retransmission")
            out.append(c)

    # R11: SACK's gain over Reno, and larger at low bandwidth.
    def by_seed(f: Callable[[Mapping[Cell, float]], float]) -> tuple[float, float, int]:
        return mean_ci_n([f(t) for t in seeds])

    pg = mean_gain(paper, "sack", "reno", ALL_CELLS)
    m, h, n = by_seed(lambda t: mean_gain(t, "sack", "reno", ALL_CELLS))
    out.append(effect(
        "sack_gain_over_reno_pct", "mean of the 30 cells' gains", result="R11", paper=round(pg * 100, 2), mean=m * 100, ci95=h * 100,
        unit="%", n=n, why="the tables' mean gain of SACK over Reno (the caption's 'throughput improvement of SACK'); ours: per seed, CI over seeds"))
    for axis in AXES:
        pv = low_minus_high(paper, "sack", "reno", axis)
        m, h, n = by_seed(lambda t, ax=axis: low_minus_high(t, "sack", "reno", ax))  # type: ignore[misc]
        out.append(ordering(
            "sack_gain_larger_at_low_bandwidth", AXES[axis], result="R11", paper=f"larger at low bandwidth (tables: {pv * 100:+.1f} points)",
            diff=m * 100, ci95=h * 100, unit="percentage points", n=n,
            why="the caption: 'throughput improvement of SACK is more prominent at low bottleneck bandwidths'; mean gain over the axis' two "
                "lowest rates minus over its two highest, per seed"))

    # R12, R13: the gain surfaces, cell by cell, and the two sentences on them.
    def gain_row(frame: pd.DataFrame, over: str, wl: float, wr: int, rid: str, case_suffix: str = "") -> Claim:
        r, h, n = ratio_ci(cell_segments(frame, "sctp", wl, wr), cell_segments(frame, over, wl, wr))
        return effect(
            f"sctp_gain_over_{over}_pct", f"wireline {wl:g} / wireless {wr} kbit/s{case_suffix}", result=rid,
            paper=round(cell_gain(paper, "sctp", over, wl, wr) * 100, 2), mean=(r - 1) * 100, ci95=h * 100, unit="%", n=n,
            why=f"a cell of the gain figure over {NAMES[over]} (the tables' quotient); ours: ratio of mean segments, delta-method CI")

    for over, rid in (("reno", "R12"), ("sack", "R13")):
        for wl, wr in ALL_CELLS:
            c = gain_row(runs, over, wl, wr, rid)
            if wl == 1500.0 and wr in NORETRY_KBPS and c.outcome == "fail" and f"noretry-{over}-{wr}k" in parts:
                v = gain_row(noretry_frame(wr), over, wl, wr, rid, ", 802.11 retry limit 1")
                c.explained_by(v, f"noretry-sctp-{wr}k", parts, f"no 802.11 retransmission; with noretry-{over}-{wr}k")
            out.append(c)
        pv = mean_gain(paper, "sctp", over, SMALL_GAIN_CELLS)
        m, h, n = by_seed(lambda t, o=over: mean_gain(t, "sctp", o, SMALL_GAIN_CELLS))  # type: ignore[misc]
        out.append(effect(
            f"sctp_small_gain_over_{over}_wireline_bottleneck", "mean gain, wireline 28.8–500 × wireless 1000–2000 kbit/s", result=rid,
            paper=round(pv * 100, 2), mean=m * 100, ci95=h * 100, unit="%", n=n,
            why="the slide: 'if the bottleneck bandwidth is in wireline part, there is small gain when wireless bandwidth get over 500Kbps'; "
                "the tables' mean over those 8 cells; ours per seed"))

    # R14: more sensitive to the wireless.
    for over in ("reno", "sack"):
        pv = sensitivity(paper, "sctp", over)
        m, h, n = by_seed(lambda t, o=over: sensitivity(t, "sctp", o))  # type: ignore[misc]
        out.append(ordering(
            "gain_more_sensitive_to_wireless", f"over {NAMES[over]}: range of the gain's wireless means minus its wireline means",
            result="R14", paper=f"more sensitive to wireless (tables: {pv * 100:+.1f} points)", diff=m * 100, ci95=h * 100,
            unit="percentage points", n=n, why="the slide and conclusion 3; per seed"))

    # R15: SCTP above both, over the grid.
    for over in ("reno", "sack"):
        pv = mean_gain(paper, "sctp", over, ALL_CELLS)
        m, h, n = by_seed(lambda t, o=over: mean_gain(t, "sctp", o, ALL_CELLS))  # type: ignore[misc]
        out.append(ordering(
            "sctp_above", f"over {NAMES[over]}: mean gain of the 30 cells", result="R15", paper=f"higher (tables: {pv * 100:+.1f} %)",
            diff=m * 100, ci95=h * 100, unit="%", n=n,
            why="conclusion 1: 'higher throughput than TCP-Reno and TCP-SACK'; the cells one by one are R12 and R13"))

    # R16: larger at low bandwidth (not over SACK along the wireline: the tables contradict it).
    for over, axis in (("reno", "wireless"), ("reno", "wireline"), ("sack", "wireless")):
        pv = low_minus_high(paper, "sctp", over, axis)
        m, h, n = by_seed(lambda t, o=over, ax=axis: low_minus_high(t, "sctp", o, ax))  # type: ignore[misc]
        out.append(ordering(
            f"sctp_gain_over_{over}_larger_at_low_bandwidth", AXES[axis], result="R16",
            paper=f"larger at low bandwidth (tables: {pv * 100:+.1f} points)", diff=m * 100, ci95=h * 100, unit="percentage points", n=n,
            why="conclusion 2; mean gain over the axis' two lowest rates minus over its two highest, per seed"))

    # Our checks.
    bad = float(_col(runs, "delivery_errors").fillna(0).sum()) if not runs.empty else math.nan
    out.append(check(
        "exact_delivery", f"every throughput run ({len(runs)})", ok=bad == 0.0, value=bad, unit="bytes or messages",
        bound="0 corrupted, duplicated, reordered or missing", n=len(runs), why="handovers must not break a transport's service"))
    if not hand.empty and {"reply_received_s", "latency_s", "bound_s"} <= set(hand.columns):
        done = hand[hand["reply_received_s"].notna()]
        within = int((done["latency_s"] <= done["bound_s"]).sum())
        out.append(check(
            "handover_latency_within_bound", f"{len(done)} handovers with a registration reply", ok=len(done) > 0 and within == len(done),
            value=float(within), unit="handovers within the bound", bound="every one (docs/models/mobileip.md bound)", n=len(done),
            why="the bound follows from the advertisement timers, the retransmissions and the links"))
    return out


def _analyse(ctx: Context) -> Analysis:
    from sctpsim.reproduce import atiquzzaman2003_grid as grid
    from sctpsim.reproduce import atiquzzaman2003_report as rep

    runs = throughput_runs(ctx)
    cells = cell_table(runs)
    six = six_losses(ctx)
    hand = handoffs(ctx)
    claims = claims_from(runs, six, hand, noretry_runs(ctx), ctx.results.keys())
    grid_runs = grid.runs(ctx.results, runs)
    grid.explain_cells(claims, grid_runs, ctx.results.keys())
    figs = rep.figures(ctx, cells, six)
    return Analysis(claims, rep.report(ctx, runs, cells, six, hand, claims, figs, grid_runs), RESULTS)


STUDY = Study(
    name="atiquzzaman2003",
    title="Atiquzzaman & Fu 2003: TCP Reno, TCP SACK and SCTP across Mobile IP handovers",
    parts=_parts,
    analyse=_analyse,
)
