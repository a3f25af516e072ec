"""The OMNeT++/INET study "Comparison of TCP and SCTP transport protocols over wireless multi-hop
networks" (../shared/papers/omnetpp-tcp-vs-sctp-olsr.txt; its TCP loss table:
../shared/reference/omnetpp-tcp-loss.csv). A server sends a file to a client 500 m away across a
500 m × 500 m field in which 10 nodes walk; OLSR routes; 200 s. The paper ran one seed per point,
found that speed changed nothing and suspected that no relay carried the traffic; it measured
TCP losing 0.34–0.37 % of its packets and SCTP 48.6 %.

Parts, on ``scenarios/omnetpp-olsr/field.toml``:

``field-tcp``, ``field-sctp``
    The paper's set-up (4.5 mW, free space): TCP (INET's defaults of the time) and SCTP with 1–5
    streams at 1.4, 2.8, 8.4 and 20 m/s.
``relay-tcp``, ``relay-sctp``
    The variant the paper tried and could not run ("reducing the maximum transmission power lead
    to no result"): 1 mW, so the client is out of the server's range and relays are needed; here
    the expected effects of speed and streams can be looked for.
``timeline-*``
    One seed with the time series kept: throughput and RTT against time (Figs. 2-5).

Every value the paper leaves open is in :data:`CHOICES` (rendered into the report).
"""

from __future__ import annotations

import math
import re
from typing import Any

import pandas as pd

from sctpsim.reproduce import Analysis, Context, Part, Study
from sctpsim.reproduce.claims import Claim, mean_ci, column as _col, diff_ci as _diff
from sctpsim.scenarios import study_dir

FIELD = study_dir("omnetpp-olsr") / "field.toml"

#: §2.4.2 (Figs. 2-3, Table 2): the speeds the paper's results use, m/s (its §2.3.1 lists 5, 10, 20,
#: 30 and 70 km/h; the measured results are at 1.4, 2.8, 8.4 and 20 m/s).
SPEEDS_MPS = (1.4, 2.8, 8.4, 20.0)
#: §2.3.1: "SCTP: Single session data transfer with 1-5 associated streams".
STREAMS = (1, 2, 3, 4, 5)
#: The relay variant: a transmit power at which the server and the client 500 m apart do not hear
#: each other (6 Mbit/s reaches about 310 m at 1 mW in free space at 2.4 GHz with our receiver).
RELAY_POWER = "1mW"
#: The paper's run time.
DURATION_S = 200.0
#: Overrides of every part (none: field.toml is the paper's set-up).
COMMON_SETS: dict[str, Any] = {}

P_SPEED = "mobility.speed_mps"
P_STREAMS = "flows[0].messages.streams"

#: The SCTP flow that replaces the TCP one (the same endpoints, a backlogged message source).
SCTP_FLOW = {"src": "server", "dst": "client", "transport": "sctp", "app": "messages", "start": "0s",
             "messages": {"streams": 1}}

#: Table 2 of the paper: TCP packets sent and received and the loss rate, per speed (m/s).
PAPER_TCP = {1.4: (150788, 150276, 0.34), 8.4: (153413, 152853, 0.37), 20.0: (147834, 147325, 0.34)}
#: Table 3: SCTP loss rate, %, per (speed, streams); average 48.640 %.
PAPER_SCTP_LOSS = {(1.4, 1): 48.793, (20.0, 1): 48.741, (1.4, 5): 48.582, (20.0, 5): 48.445}
PAPER_SCTP_LOSS_MEAN = 48.640

CHOICES: list[tuple[str, str, str]] = [
    ("simulator", "sctpsim's 802.11 DCF with 802.11a OFDM timing, SINR reception with the NIST OFDM error model (ns-3's default PHY: noise figure 7 dB)",
     "the paper ran OMNeT++/INET and does not name its radio model"),
    ("radio", "802.11a timing on a 2.4 GHz carrier (Friis at 2,400 MHz), 4.5 mW, basic rate 6 Mbit/s, data rates 6–54 Mbit/s",
     "§2.3.1: 'IEEE802.11a', 'Carrier frequency: 2.4 GHz band', 'Base-Bitrate: 6Mbps Max-Bitrate: 54Mbps', 'Transmitter power: 4.5mW'"),
    ("rate adaptation", "ARF per destination (Kamerman & Monteban 1997: up after 10 successes, down after 2 failures)",
     "INET's Ieee80211Mac offers ARF and AARF (`autoBitrate`); a fixed 54 Mbit/s delivers nothing here (OLSR's 6 Mbit/s broadcasts find neighbours 54 Mbit/s cannot reach)"),
    ("propagation", "free space, path-loss exponent 2", "§2.3.1: 'Free-Space loss', 'Path loss coefficient: 2'"),
    ("field", "server at (0, 250) m, client at (500, 250) m, 10 nodes walking in 500 m × 500 m",
     "§2.2: server 'at the outer left center', client 'at the outer right center'; §2.3.1: 10 moving devices"),
    ("mobility", "INET MassMobility: constant speed, heading turned by a normal angle (sd 30°) every truncnormal(2 s, 0.5 s), reflection at the edges",
     "§2.3.1: 'Random Walk, change of direction with different turning speeds'; the turn and interval are not given: INET's ad hoc examples (examples/adhoc/ieee80211/omnetpp.ini)"),
    ("routing", "OLSR (RFC 3626), HELLO 2 s, TC 5 s, willingness 3", "§1.3; RFC 3626 defaults, as INET's OLSR"),
    ("TCP", "Reno, MSS 536 B, receive window 7,504 B (14 MSS), no delayed ACK, Nagle, IW 1, RTO 3 s initially, ≥ 1 s, no SACK or timestamps",
     "§2.3.4 'Standard implementation of INET framework': INET's TCP.ned and TCPBaseAlg.cc defaults of 2009-2010"),
    ("SCTP", "RFC 9260 parameters, backlogged messages of 1,452 B spread round-robin over 1–5 streams, delayed SACK (every 2nd packet, 200 ms)",
     "§2.3.1 'Single session data transfer with 1-5 associated streams'; INET's SCTP parameters are not given"),
    ("loss rate", "ours: 1 − data packets the receiver's transport got / data packets the sender put on the air (retransmissions included)",
     "§2.4.2: '1 − number of received packets / number of sent packets', 'sent seq packets on the server side' and 'received seq packets on the client side'"),
    ("ACK overhead", "ACKs (TCP pure ACKs, SCTP SACK chunks) per data packet received, %",
     "§2.4.2: 'For each received data segment on the client-side an ACK segment has to be sent'"),
    ("seeds", "10 per point (full), 2 (quick); 95 % Student-t intervals", "the paper ran one seed per point"),
]


def speed_value(v: float) -> dict[str, float]:
    """The ``mobility.speed_mps`` override for a constant speed ``v``."""
    return {"min": v, "max": v}


def speed_of(v: Any) -> float:
    """The speed (m/s) of a ``mobility.speed_mps`` value as the sweep records it."""
    if isinstance(v, dict):
        return float(v.get("max", math.nan))
    nums = re.findall(r"-?\d+(?:\.\d+)?", str(v))
    return float(nums[-1]) if nums else math.nan


#: Quick mode runs 60 s instead of 200 s (the report says so).
QUICK_DURATION = "60s"


def _parts(quick: bool) -> list[Part]:
    seeds = 2 if quick else 10
    speeds = (1.4, 20.0) if quick else SPEEDS_MPS
    streams = (1, 5) if quick else STREAMS
    sv = [speed_value(v) for v in speeds]
    sctp = {"flows": [SCTP_FLOW]}
    relay = {"radio.tx_power": RELAY_POWER}
    base = {**COMMON_SETS, **({"simulation.duration": QUICK_DURATION} if quick else {})}
    parts = [
        Part(name="field-tcp", scenario=FIELD, vary={P_SPEED: sv}, seeds=seeds, sets=dict(base),
             what=f"TCP, the paper's set-up, {len(speeds)} speeds"),
        Part(name="field-sctp", scenario=FIELD, vary={P_SPEED: sv, P_STREAMS: list(streams)}, seeds=seeds,
             sets={**base, **sctp}, what=f"SCTP with {min(streams)}-{max(streams)} streams, the paper's set-up"),
        Part(name="relay-tcp", scenario=FIELD, vary={P_SPEED: sv}, seeds=seeds, sets={**base, **relay},
             what=f"TCP at {RELAY_POWER}: relays needed"),
        Part(name="relay-sctp", scenario=FIELD, vary={P_SPEED: sv, P_STREAMS: [1, 5]}, seeds=seeds,
             sets={**base, **relay, **sctp}, what=f"SCTP with 1 and 5 streams at {RELAY_POWER}: relays needed"),
    ]
    tl_speeds = [speed_value(v) for v in (speeds[0], speeds[-1])]
    parts.append(Part(name="timeline-tcp", scenario=FIELD, vary={P_SPEED: tl_speeds}, seeds=1, sets=dict(base),
                      timeseries=True, what="TCP against time (seed 1)"))
    parts.append(Part(name="timeline-sctp", scenario=FIELD, vary={P_SPEED: tl_speeds, P_STREAMS: [1, 5]}, seeds=1,
                      sets={**base, **sctp}, timeseries=True, what="SCTP against time (seed 1)"))
    return parts


# ---------------------------------------------------------------------------------------------
# Per-run quantities


def runs(ctx: Context) -> pd.DataFrame:
    """Every ok run of the non-timeline parts, one row each, with the study's metrics."""
    frames = []
    for name, df in ctx.results.items():
        if name.startswith("timeline"):
            continue
        df = df[df["status"] == "ok"].copy()
        setup, _, proto = name.partition("-")
        df["setup"] = setup
        df["protocol"] = proto
        df["speed_mps"] = df[P_SPEED].map(speed_of)
        df["streams"] = _col(df, P_STREAMS).fillna(0).astype(int) if proto == "sctp" else 0
        df["label"] = df["streams"].map(lambda s: f"SCTP, {s} stream{'s' if s != 1 else ''}" if s else "TCP")
        df["throughput_kbps"] = _col(df, "flows[0].goodput_bps") / 1e3
        sent = _col(df, "flows[0].data_packets_sent")
        got = _col(df, "flows[0].data_packets_received")
        acks = _col(df, "flows[0].acks_sent")
        df["data_sent"], df["data_received"], df["acks"] = sent, got, acks
        #: Data packets sent per 200 s (the paper's run; quick mode runs shorter).
        df["data_sent_200s"] = sent * DURATION_S / _col(df, "sim_time_s")
        df["link_breaks"] = _col(df, "network.link_breaks")
        df["routes_broken"] = _col(df, "network.routes_broken")
        df["loss_pct"] = (1 - got / sent) * 100
        #: The paper's formula read as its SCTP numbers suggest: the client's packets (its SACKs)
        #: against the server's data packets.
        df["paper_loss_pct"] = (1 - acks / sent) * 100
        df["ack_overhead_pct"] = acks / got * 100
        df["rtt_ms"] = _col(df, "flows[0].mean_rtt_s") * 1e3
        df["hops"] = _col(df, "flows[0].mean_route_hops")
        df["relayed"] = _col(df, "flows[0].relayed_fraction")
        df["retransmissions"] = _col(df, "flows[0].retransmissions")
        df["timeouts"] = _col(df, "flows[0].timeouts")
        df["first_delivery_s"] = _col(df, "flows[0].first_data_received_s")
        frames.append(df)
    if not frames:
        return pd.DataFrame()
    r = pd.concat(frames, ignore_index=True, sort=False)
    # The server's 802.11 interface: the data rate ARF settles on and how often it fails.
    m = ctx.long_table("macs", skip=lambda p: p.startswith("timeline"))
    if not m.empty and {"node", "key", "mean_data_rate_bps"} <= set(m.columns):
        srv = m[m["node"] == "server"].drop_duplicates("key").set_index("key")
        r["server_rate_mbps"] = r["key"].map(pd.to_numeric(srv["mean_data_rate_bps"], errors="coerce") / 1e6)
        r["server_failed_pct"] = r["key"].map(pd.to_numeric(srv["collisions"], errors="coerce")
                                              / pd.to_numeric(srv["unicast_attempts"], errors="coerce") * 100)
        r["server_rate_changes"] = r["key"].map(pd.to_numeric(srv["rate_changes"], errors="coerce"))
    for col in ("server_rate_mbps", "server_failed_pct", "server_rate_changes"):
        if col not in r.columns:
            r[col] = math.nan
    return r


METRICS = ("throughput_kbps", "loss_pct", "paper_loss_pct", "ack_overhead_pct", "rtt_ms", "hops", "relayed", "data_sent",
           "data_sent_200s", "first_delivery_s", "link_breaks", "routes_broken", "server_rate_mbps", "server_failed_pct",
           "server_rate_changes")


def cells(r: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95 % half-width of every metric per (setup, protocol, streams, speed)."""
    rows = []
    for (setup, proto, streams, v), g in r.groupby(["setup", "protocol", "streams", "speed_mps"]):
        row: dict[str, Any] = {"setup": setup, "protocol": proto, "streams": streams, "speed_mps": v, "n": len(g),
                               "label": g["label"].iloc[0]}
        for m in METRICS:
            row[m], row[f"{m}_ci"] = mean_ci(g[m])
        rows.append(row)
    return pd.DataFrame(rows)


def _sel(r: pd.DataFrame, setup: str, proto: str, streams: int | None = None, speed: float | None = None) -> pd.DataFrame:
    g = r[(r["setup"] == setup) & (r["protocol"] == proto)]
    if streams is not None:
        g = g[g["streams"] == streams]
    if speed is not None:
        g = g[g["speed_mps"] == speed]
    return g



# ---------------------------------------------------------------------------------------------
# Claims


def _claims(r: pd.DataFrame) -> list[Claim]:
    out: list[Claim] = []
    if r.empty:
        return out
    speeds = sorted(r["speed_mps"].dropna().unique())
    lo, hi = speeds[0], speeds[-1]
    # 1. Table 2: TCP loss rate per speed (the paper's formula on TCP data segments).
    for v, (sent, got, pct) in PAPER_TCP.items():
        g = _sel(r, "field", "tcp", speed=v)
        if g.empty:
            continue
        m, h = mean_ci(g["loss_pct"])
        out.append(Claim(
            "tcp_loss_rate", f"{v:g} m/s", pct, m, h, "%",
            "within 0.5 percentage points", "Table 2; a loss rate below 1 % either way says the same: the MAC's retries hide the channel",
            math.isfinite(m) and abs(m - pct) <= 0.5,
        ))
    # 2. Table 2: TCP packets sent in 200 s (a throughput measure in packets of 536 B).
    for v, (sent, got, pct) in PAPER_TCP.items():
        g = _sel(r, "field", "tcp", speed=v)
        if g.empty:
            continue
        m, h = mean_ci(g["data_sent_200s"])
        out.append(Claim(
            "tcp_packets_sent", f"{v:g} m/s, per 200 s", sent, m, h, "packets",
            "within 20 %", "Table 2; the count is set by the data rate the MAC uses on the one hop and by the 7.5 kB window",
            math.isfinite(m) and abs(m - sent) <= 0.2 * sent,
        ))
    # 3. Table 3: SCTP loss rate — the published value against our reading of its formula.
    g = _sel(r, "field", "sctp")
    m, h = mean_ci(g["paper_loss_pct"])
    out.append(Claim(
        "sctp_loss_rate_as_published", "all speeds and streams: 1 − SACKs sent / DATA packets sent", PAPER_SCTP_LOSS_MEAN, m, h, "%",
        "within 3 percentage points", "Table 3 (average); our reading of what the paper's formula counted for SCTP",
        math.isfinite(m) and abs(m - PAPER_SCTP_LOSS_MEAN) <= 3.0,
    ))
    m, h = mean_ci(g["loss_pct"])
    out.append(Claim(
        "sctp_true_loss_rate", "all speeds and streams: 1 − DATA packets received / sent", PAPER_SCTP_LOSS_MEAN, m, h, "%",
        "within 3 percentage points", "Table 3 (average) taken at its word", math.isfinite(m) and abs(m - PAPER_SCTP_LOSS_MEAN) <= 3.0,
    ))
    # 4. Speed had no effect in the paper's set-up (Figs. 2-3, Table 2).
    for proto, streams in (("tcp", None), ("sctp", 1), ("sctp", 5)):
        a, b = _sel(r, "field", proto, streams, lo), _sel(r, "field", proto, streams, hi)
        if a.empty or b.empty:
            continue
        d, hw = _diff(a["throughput_kbps"], b["throughput_kbps"])
        base = mean_ci(a["throughput_kbps"])[0]
        rel = abs(d) / base * 100 if base else math.nan
        out.append(Claim(
            "no_speed_effect", f"{a['label'].iloc[0]}: {lo:g} minus {hi:g} m/s", "none", rel, hw / base * 100 if base else 0.0,
            "% of throughput", "|difference| ≤ 5 % of the throughput",
            "§2.4.2: 'Independent from the number of streams and the velocity the throughput over time is always in the same range'",
            math.isfinite(rel) and rel <= 5.0,
        ))
    # 5. The paper's explanation: the traffic did not cross a relay.
    g = r[r["setup"] == "field"]
    m, h = mean_ci(g["relayed"] * 100)
    out.append(Claim(
        "no_relay_used", f"every field run ({len(g)}): data packets that crossed a relay", 0, m, h, "%",
        "≤ 5 %", "§2.4.2: 'hops between sender and receiver are not used for packet transmission' (assumed, not measured)",
        math.isfinite(m) and m <= 5.0,
    ))
    # 6. SCTP's throughput above TCP's (result summary).
    d, hw = _diff(_sel(r, "field", "sctp", 1)["throughput_kbps"], _sel(r, "field", "tcp")["throughput_kbps"])
    out.append(Claim(
        "sctp_faster_than_tcp", "SCTP (1 stream) minus TCP, all speeds", "higher", d, hw, "kbit/s",
        "difference positive, its 95 % interval excluding 0", "§2.4.2 Result Summary: 'TCP ... with a smaller throughput than SCTP'",
        d - hw > 0,
    ))
    # 7. TCP's ACK overhead: 'nearly 100 %'.
    m, h = mean_ci(_sel(r, "field", "tcp")["ack_overhead_pct"])
    out.append(Claim(
        "tcp_ack_overhead", "TCP ACKs per data segment received", 100, m, h, "%", "within 5 percentage points",
        "§2.4.2: 'this generates an overhead of nearly 100% unused segments'", math.isfinite(m) and abs(m - 100) <= 5,
    ))
    # 8. TCP's RTT 'at most single digit millisecond range'.
    m, h = mean_ci(_sel(r, "field", "tcp")["rtt_ms"])
    out.append(Claim(
        "tcp_rtt", "TCP mean RTT, all speeds", "< 10", m, h, "ms", "mean below 10 ms",
        "§2.4.2, Fig. 5: 'TCP has values with at most single digit millisecond range'", math.isfinite(m) and m < 10,
    ))
    # 9. SCTP with 5 streams has a much higher RTT than with 1 (Fig. 5: 1,000 ms against 50-300 ms).
    d, hw = _diff(_sel(r, "field", "sctp", 5)["rtt_ms"], _sel(r, "field", "sctp", 1)["rtt_ms"])
    out.append(Claim(
        "sctp_rtt_rises_with_streams", "SCTP mean RTT, 5 minus 1 streams", "≈ +700-950", d, hw, "ms",
        "difference positive, its 95 % interval excluding 0", "§2.4.2, Fig. 5: 5 streams 'in most of the cases 1000ms', 1 stream 50-300 ms",
        d - hw > 0,
    ))
    # 10. Throughput starts after about 9 s (Fig. 4).
    g = r[(r["setup"] == "field")]
    m, h = mean_ci(g["first_delivery_s"])
    out.append(Claim(
        "start_delay", "first data delivered, every field run", 9, m, h, "s", "within 3 s",
        "§2.4.2, Fig. 4: 'the throughput starts growing after about 9 seconds'", math.isfinite(m) and abs(m - 9) <= 3,
    ))
    # 11. The expected results of §2.4.1, where relays are needed: throughput falls and loss rises with speed.
    for proto, streams in (("tcp", None), ("sctp", 1)):
        a, b = _sel(r, "relay", proto, streams, lo), _sel(r, "relay", proto, streams, hi)
        if a.empty or b.empty:
            continue
        d, hw = _diff(a["throughput_kbps"], b["throughput_kbps"])
        out.append(Claim(
            "relay_throughput_falls_with_speed", f"{RELAY_POWER}, {a['label'].iloc[0]}: {lo:g} minus {hi:g} m/s", "falls", d, hw, "kbit/s",
            "difference positive, its 95 % interval excluding 0", "§2.4.1 expected: 'performance loss with a higher velocity'", d - hw > 0,
        ))
    a, b = _sel(r, "relay", "sctp", 5, hi), _sel(r, "relay", "sctp", 1, hi)
    if not a.empty and not b.empty:
        d, hw = _diff(a["throughput_kbps"], b["throughput_kbps"])
        out.append(Claim(
            "relay_streams_help_under_loss", f"{RELAY_POWER}, {hi:g} m/s: SCTP 5 minus 1 streams", "higher", d, hw, "kbit/s",
            "difference positive, its 95 % interval excluding 0",
            "§2.4.1 expected: 'if there are losses (e.g. high velocity), SCTP has the mechanism to achieve a higher throughput'", d - hw > 0,
        ))
    return out


def _analyse(ctx: Context) -> Analysis:
    from sctpsim.reproduce import omnetpp_olsr_report as rep

    r = runs(ctx)
    c = cells(r) if not r.empty else pd.DataFrame()
    claims = _claims(r)
    rep.explain(claims, r, c)
    figs = rep.figures(ctx, c)
    return Analysis(claims, rep.report(ctx, r, c, claims, figs))


STUDY = Study(
    name="omnetpp-olsr",
    title="OMNeT++ study: TCP vs SCTP (1-5 streams) over OLSR with 10 walking relays, speed and loss",
    parts=_parts,
    analyse=_analyse,
)
