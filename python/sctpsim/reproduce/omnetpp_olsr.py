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
``fixed6-tcp``
    The counterfactual of Table 2's packet counts: TCP in the paper's set-up with every data frame
    at the paper's base bitrate (6 Mbit/s) instead of ARF's 6-54 Mbit/s, at Table 2's speeds.
    INET's Ieee80211Mac sends at its one ``bitrate`` unless rate adaptation is switched on, and the
    paper names no rate adaptation; the Table 2 rows of this part are computed by the same code,
    and a Table 2 row of the paper's set-up that fails is ``explained`` only if its row here
    passes.
``timeline-*``
    One seed with the time series kept: throughput and RTT against time (Figs. 2-5).

The results the paper reports are :data:`RESULTS` (R1-R16, in the paper's order) and the rows
that test them are computed by :func:`claims_from` from the per-run frame of :func:`runs` and the
per-run time-course frame of :func:`timeline_runs`, so they can be fed synthetic runs.

Every value the paper leaves open is in :data:`CHOICES` (rendered into the report).
"""

from __future__ import annotations

import math
import re
from typing import Any, Collection, Sequence

import pandas as pd

from sctpsim.reproduce import Analysis, Context, Part, Study
from sctpsim.reproduce.claims import (Claim, Result, check, column as _col, diff_ci, explain_with_twins, level, mean_ci, mean_ci_n,
                                      no_effect, ordering, paired_ratio, ratio_ci)
from sctpsim.scenarios import study_dir

FIELD = study_dir("omnetpp-olsr") / "field.toml"
#: One hop of the field's radio between two static nodes (the receiver comparison over distance).
ONEHOP = study_dir("omnetpp-olsr") / "onehop.toml"

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

#: Table 2 of the paper: TCP packets sent and received and the loss rate, %, per speed (m/s), one
#: run each (../shared/reference/omnetpp-tcp-loss.csv); "Average 0.35 %".
PAPER_TCP = {1.4: (150788, 150276, 0.34), 8.4: (153413, 152853, 0.37), 20.0: (147834, 147325, 0.34)}
PAPER_TCP_LOSS_MEAN = 0.35
#: Table 3: SCTP loss rate, %, per (speed, streams); average 48.640 %.
PAPER_SCTP_LOSS = {(1.4, 1): 48.793, (20.0, 1): 48.741, (1.4, 5): 48.582, (20.0, 5): 48.445}
PAPER_SCTP_LOSS_MEAN = 48.640
#: Fig. 4 (§2.4.2): "the throughput starts growing after about 9 seconds", TCP and SCTP alike.
PAPER_START_S = 9.0
#: Fig. 4: SCTP's throughput rises "until about the 120 simulation second and then stays constant";
#: TCP's maximum is reached "after about 80 simulation seconds".
PAPER_PLATEAU_S = {"sctp": 120.0, "tcp": 80.0}
#: Fig. 5: TCP "at most single digit millisecond range" (read as 0-10 ms), SCTP with one stream
#: "between 50 and 300ms", with 5 streams "in most of the cases 1000ms".
PAPER_RTT_MS: dict[str, float | tuple[float, float]] = {"tcp": (0.0, 10.0), "sctp1": (50.0, 300.0), "sctp5": 1000.0}

#: "No effect" margins (DESIGN.md §6: the whole 95 % CI inside ±margin).
#: Throughput, % of the slower (or one-stream) run's: Figs. 2-3 "always in the same range"; Table 2's
#: packet counts at its three speeds lie within ±2 % of their mean, so 5 % holds the paper's own data.
SPEED_MARGIN_PCT = 5.0
#: Loss rate, percentage points: Tables 2-3 differ by at most 0.14 points between speeds (SCTP, 5
#: streams), which the paper calls no impact.
LOSS_MARGIN_PP = 0.25
#: Share of the delivered data packets that crossed a relay, percentage points (§2.4.2: "hops
#: between sender and receiver are not used").
RELAY_MARGIN_PCT = 1.0
#: Our reading of Fig. 4's plateau: the first time after which the average throughput since the
#: start stays within this fraction of its value at the end of the run (CHOICES).
PLATEAU_FRACTION = 0.05
#: The counterfactual part of Table 2's packet counts (module doc).
FIXED6_PART = "fixed6-tcp"
FIXED6_SETS: dict[str, Any] = {"radio.rate_control": "constant", "radio.data_rate": "6Mbps"}
#: INET's receiver as its 2.x sources define it (issue 32), the first INET whose 802.11 has the
#: paper's parameters (`opMode "a"`, `basicBitrate`, ARF via `autoBitrate`: INET 2.0's
#: Ieee80211Mac.ned; INET of 2009-2011 had one `bitrate` and 802.11b timing): `sensitivity`
#: −85 dBm (Radio.ned: "received signals with power below sensitivity are ignored", so they
#: neither lock the receiver nor make the medium busy), `thermalNoise` −110 dBm whatever the
#: bandwidth, `snirThreshold` 4 dB (Ieee80211Radio.ned; below it a frame "got lost" before the
#: error model), the NIST error model (its default `errorModel`, ours too), free space α = 2.
INET_RECEIVER_SETS: dict[str, Any] = {"radio.rx_thresh": "-85dBm", "radio.cs_thresh": "-85dBm",
                                      "radio.noise_floor": "-110dBm", "radio.snir_threshold_db": 4.0}
#: The INET-receiver parts: the paper's set-up with INET's receiver, TCP and SCTP (1 and 5 streams).
INET_PARTS = {"inet-tcp": "tcp", "inet-sctp": "sctp"}
#: Fig. 5's RTT and Table 2's count across data rates (constant rate, 1.4 m/s, TCP), with our
#: receiver and INET's: the parts and their receivers.
RATE_PARTS = {"rates-tcp": "ours (ns-3's receiver)", "ratesinet-tcp": "INET 2.x's receiver"}
RATES_MBPS = (6, 12, 24, 54)
P_RATE = "radio.data_rate"
#: The receiver comparison over distance (issue 32): one hop, saturated UDP, constant rate,
#: ours and INET 2.x's receiver. Part → its receiver's overrides.
RECEIVER_PARTS: dict[str, dict[str, Any]] = {"receivers-ours": {}, "receivers-inet": INET_RECEIVER_SETS}
DISTANCES_M = (25, 50, 100, 200, 300, 400, 500, 600)
P_CLIENT_POS = "node[1].position_m"
#: R4 (§2.4.2): "increasing the path-loss parameter alpha or reducing the maximum transmission
#: power lead to no result because packet transmission was not even possible". The paper gives
#: its set-up's values (4.5 mW, α = 2, §2.3.1) and not the ones it tried, so the parts sweep
#: the power down and α up from them: every point but (4.5 mW, 2) is a "reduced" one, a row of R4.
WEAKER_POWERS = ("4.5mW", "2mW", "1mW")
WEAKER_ALPHAS = (2.0, 2.5, 3.0)
P_POWER = "radio.tx_power"
P_ALPHA = "radio.propagation.exponent"
#: INET 2.x's free space with a path-loss exponent α (FreeSpaceModel.cc of v2.0.0:
#: P = Pt·Gt·Gr·λ² / ((4π)²·d^α·L)) is our log-distance model with reference 1 m and the Friis
#: loss at 1 m, 20·log10(4π/λ) = 40.05 dB at 2.4 GHz (λ = 0.1249 m): at α = 2, free space.
ALPHA_SETS: dict[str, Any] = {"radio.propagation.model": "log-distance", "radio.propagation.reference_distance_m": 1.0,
                              "radio.propagation.reference_loss_db": 40.05}
#: The power/α parts and their receivers (ours; INET 2.x's).
WEAKER_PARTS: dict[str, dict[str, Any]] = {"weaker-tcp": {}, "weakerinet-tcp": INET_RECEIVER_SETS}

#: Every result the paper reports, in its order (DESIGN.md §6 "Claims"). §2.4.1 states expectations
#: the paper did not get to test; our rows on them (the 1 mW variant) are extensions.
RESULTS: list[Result] = [
    Result("R1", "Fig. 2", "SCTP throughput against time, 1 and 5 streams at 1.4 and 20 m/s: 'independent from the number "
           "of streams and the velocity the throughput over time is always in the same range'"),
    Result("R2", "Fig. 3", "TCP throughput against time at different speeds: 'no direct influence of the increasing velocity' "
           "('2.8 and 20 m/s are very close')"),
    Result("R3", "§2.4.2", "'hops between sender and receiver are not used for packet transmission' (concluded from Figs. 2-3)"),
    Result("R4", "§2.4.2", "'reducing the maximum transmission power lead to no result because packet transmission was not "
           "even possible' (and so did a larger path-loss exponent)"),
    Result("R5", "Fig. 4", "TCP's and SCTP's throughput 'starts growing after about 9 seconds'"),
    Result("R6", "Fig. 4", "SCTP's throughput rises smoothly ('logarithmic') until about 120 s, then stays constant"),
    Result("R7", "Fig. 4", "TCP's rise is 'rather erratic' (against SCTP's smooth curve); its maximum is reached after about "
           "80 s and stays nearly constant"),
    Result("R8", "Fig. 5", "TCP's RTT 'at most single digit millisecond range'"),
    Result("R9", "Fig. 5", "SCTP with 1 stream: RTT 'much higher', between 50 and 300 ms"),
    Result("R10", "Fig. 5", "SCTP with 5 streams: RTT 'in most of the cases 1000ms', above 1 stream's"),
    Result("R11", "Table 2", "TCP: packets sent 150,788 / 153,413 / 147,834, received 150,276 / 152,853 / 147,325, loss "
           "0.34 / 0.37 / 0.34 % at 1.4 / 8.4 / 20 m/s; average 0.35 %"),
    Result("R12", "§2.4.2 (Table 2)", "'the device movement does not have any impact' on TCP's loss rate"),
    Result("R13", "Table 3", "SCTP loss rate 48.793 / 48.741 / 48.582 / 48.445 % (1.4 and 20 m/s, 1 and 5 streams), average "
           "48.640 %: 'nearly every second packet does not arrive at its destination'"),
    Result("R14", "§2.4.2 (Table 3)", "'the device moving speed does not have any impact' on SCTP's loss rate"),
    Result("R15", "§2.4.2 ACK overhead", "one ACK per received data segment: 'an overhead of nearly 100% unused segments' that "
           "lowers TCP's throughput",
           no_row="the paper measured no ACK overhead (no table, figure or count; §2.3.3 defines it against SCTP's but no "
           "value follows): its 'nearly 100 %' is one ACK per segment, a property of INET's TCP without delayed ACKs that "
           "field.toml copies (delayed_ack = false), so our row `tcp_ack_overhead` is a check of that configuration"),
    Result("R16", "§2.4.2 Result Summary", "TCP has 'a smaller throughput than SCTP' and small loss rates; SCTP 'a much higher "
           "throughput but also a high loss rate' (its multiple-stream RTT: R10)"),
]

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
    ("Table 2's counts", "data packets sent and received per 200 s: a quick run's counts extrapolated at its rate after its first delivery",
     "the paper's runs last 200 s; a full run is 200 s and its counts are taken as they are"),
    ("Fig. 4's curves", f"the average throughput since the start of the run (bits delivered by t / t, from the 1 s samples); its plateau is "
     f"the first time after which it stays within {PLATEAU_FRACTION * 100:g} % of its value at the end of the run",
     "§2.3.3: throughput is 'the average number of bits delivered ... within a certain amount of time'; a rise 'logarithmic until about "
     "120 s' from a start at 9 s is what an average since the start does, while the rate itself jumps to its level at once"),
    ("'erratic'", "mean |difference of consecutive 1 s throughput samples| / mean throughput, from the first delivery on",
     "Fig. 4 calls TCP's rise erratic and SCTP's smooth; the paper gives no measure"),
    ("'no transmission' at lower power or larger α", f"TCP at {', '.join(WEAKER_POWERS)} × path-loss exponent "
     f"{', '.join(map(str, WEAKER_ALPHAS))} (1.4 m/s, 10 seeds; parts `weaker-tcp` and, with INET 2.x's receiver, `weakerinet-tcp`): "
     "each point but the paper's own (4.5 mW, 2) is a row of R4, passing when no run delivers a data packet. α through INET 2.x's "
     "free space, P = Pt·λ²/((4π)²·d^α) (FreeSpaceModel.cc of v2.0.0), as log-distance from 40.05 dB at 1 m",
     "§2.4.2: 'increasing the path-loss parameter alpha or reducing the maximum transmission power lead to no result because packet "
     "transmission was not even possible'; the paper gives neither the power nor the exponent it tried"),
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
    # The counterfactual of Table 2's counts (module doc): Table 2's speeds, TCP, the rate fixed at 6 Mbit/s.
    # Its cost: 3 speeds × 10 seeds of one TCP run of 200 s (3-4 s of CPU per 60 s run measured in quick, so about
    # 6 CPU min in full; quick: 4 runs of 60 s, about 15 s).
    t2 = [speed_value(v) for v in speeds if v in PAPER_TCP]
    parts.append(Part(name=FIXED6_PART, scenario=FIELD, vary={P_SPEED: t2}, seeds=seeds, sets={**base, **FIXED6_SETS},
                      what="TCP, the paper's set-up with every data frame at the base bitrate 6 Mbit/s (counterfactual of Table 2)"))
    # INET's receiver (issue 32): the paper's set-up again, TCP at every speed and SCTP with 1 and 5 streams.
    inet = {**base, **INET_RECEIVER_SETS}
    parts.append(Part(name="inet-tcp", scenario=FIELD, vary={P_SPEED: sv}, seeds=seeds, sets=dict(inet),
                      what="TCP, the paper's set-up with INET 2.x's receiver (sensitivity -85 dBm, noise -110 dBm, SNIR threshold 4 dB)"))
    parts.append(Part(name="inet-sctp", scenario=FIELD, vary={P_SPEED: sv, P_STREAMS: [1, 5]}, seeds=seeds, sets={**inet, **sctp},
                      what="SCTP with 1 and 5 streams, the paper's set-up with INET 2.x's receiver"))
    # Table 2's count and Fig. 5's RTT across constant data rates, both receivers, at the slowest speed.
    rate_seeds = 1 if quick else 5
    fixed = {**base, "radio.rate_control": "constant", P_SPEED: speed_value(speeds[0])}
    parts.append(Part(name="rates-tcp", scenario=FIELD, vary={P_RATE: [f"{m}Mbps" for m in RATES_MBPS]}, seeds=rate_seeds,
                      sets=dict(fixed), what="TCP at each constant data rate, our receiver"))
    parts.append(Part(name="ratesinet-tcp", scenario=FIELD, vary={P_RATE: [f"{m}Mbps" for m in RATES_MBPS]}, seeds=rate_seeds,
                      sets={**fixed, **INET_RECEIVER_SETS}, what="TCP at each constant data rate, INET 2.x's receiver"))
    for name, rx in RECEIVER_PARTS.items():
        parts.append(Part(name=name, scenario=ONEHOP, seeds=2 if quick else 3,
                          vary={P_CLIENT_POS: [[d, 0] for d in DISTANCES_M], P_RATE: ["6Mbps", "54Mbps"]}, sets=dict(rx),
                          what=f"one hop over distance, saturated UDP, 6 and 54 Mbit/s, {'INET 2.x' if rx else 'our'} receiver"))
    # R4: lower power and larger α, TCP at the slowest speed, both receivers.
    for name, rx in WEAKER_PARTS.items():
        parts.append(Part(name=name, scenario=FIELD, seeds=1 if quick else 10,
                          vary={P_POWER: list(WEAKER_POWERS), P_ALPHA: list(WEAKER_ALPHAS)},
                          sets={**base, **ALPHA_SETS, **rx, P_SPEED: speed_value(speeds[0])},
                          what=f"TCP at {', '.join(WEAKER_POWERS)} × path-loss exponent {', '.join(map(str, WEAKER_ALPHAS))}, "
                               f"{'INET 2.x' if rx else 'our'} receiver (R4)"))
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
        if name.startswith("timeline") or name in RECEIVER_PARTS:
            continue
        df = df[df["status"] == "ok"].copy()
        setup, _, proto = name.partition("-")
        df["setup"] = setup
        df["protocol"] = proto
        df["speed_mps"] = df[P_SPEED].map(speed_of) if P_SPEED in df.columns else speed_of(ctx.parts[name].sets.get(P_SPEED))
        df["data_rate_mbps"] = df[P_RATE].map(lambda x: float(str(x).rstrip("Mbps"))) if P_RATE in df.columns else math.nan
        df["tx_power_mw"] = df[P_POWER].map(lambda x: float(str(x).removesuffix("mW"))) if P_POWER in df.columns else math.nan
        df["alpha"] = _col(df, P_ALPHA) if P_ALPHA in df.columns else math.nan
        df["streams"] = _col(df, P_STREAMS).fillna(0).astype(int) if proto == "sctp" else 0
        df["label"] = df["streams"].map(lambda s: f"SCTP, {s} stream{'s' if s != 1 else ''}" if s else "TCP")
        df["throughput_kbps"] = _col(df, "flows[0].goodput_bps") / 1e3
        sent = _col(df, "flows[0].data_packets_sent")
        got = _col(df, "flows[0].data_packets_received")
        acks = _col(df, "flows[0].acks_sent")
        df["data_sent"], df["data_received"], df["acks"] = sent, got, acks
        df["first_delivery_s"] = _col(df, "flows[0].first_data_received_s")
        # Data packets per 200 s, the paper's run (CHOICES: a shorter quick run extrapolated at its
        # rate after its first delivery; a 200 s run as it is).
        scale = per_200s(_col(df, "sim_time_s"), df["first_delivery_s"])
        df["data_sent_200s"] = sent * scale
        df["data_received_200s"] = got * scale
        df["delivery_errors"] = _col(df, "flows[0].delivery_errors")
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
           "data_sent_200s", "data_received_200s", "first_delivery_s", "link_breaks", "routes_broken", "server_rate_mbps", "server_failed_pct",
           "server_rate_changes")


def per_200s(sim_time_s: pd.Series, first_s: pd.Series) -> pd.Series:
    """The factor that turns a run's packet counts into the paper's 200 s (CHOICES): 1 for a run of
    200 s; for a shorter run, its rate after its first delivery carried on to 200 s."""
    t = pd.to_numeric(sim_time_s, errors="coerce")
    t0 = pd.to_numeric(first_s, errors="coerce").fillna(0.0).clip(lower=0.0)
    active = (t - t0).where(t - t0 > 0)
    return ((DURATION_S - t0) / active).where((t - DURATION_S).abs() > 1e-9, 1.0)


def time_course(time_s: Sequence[float], goodput_bps: Sequence[float]) -> dict[str, float]:
    """Fig. 4's quantities of one run from its 1 s throughput samples (CHOICES): the end of the
    first sample that delivered data (s), the plateau of the average throughput since the start
    (s) and how erratic the rate is (%, mean |step between consecutive samples| / mean)."""
    t = [float(x) for x in time_s]
    g = [float(x) for x in goodput_bps]
    nan = {"first_s": math.nan, "plateau_s": math.nan, "erratic_pct": math.nan}
    if not t or len(t) != len(g):
        return nan
    bits, avg, prev = 0.0, [], 0.0
    for ti, gi in zip(t, g):
        bits += gi * (ti - prev)
        prev = ti
        avg.append(bits / ti if ti > 0 else 0.0)
    final = avg[-1]
    first = next((ti for ti, gi in zip(t, g) if gi > 0), math.nan)
    if not final > 0:
        return nan | {"first_s": first}
    plateau = t[-1]
    for i in range(len(t) - 1, -1, -1):
        if abs(avg[i] - final) > PLATEAU_FRACTION * final:
            break
        plateau = t[i]
    k = next(i for i, gi in enumerate(g) if gi > 0)
    after = g[k + 1:]  # the first delivering sample is a partial one
    steps = [abs(b - a) for a, b in zip(after, after[1:])]
    mean_g = sum(after) / len(after) if after else math.nan
    erratic = (sum(steps) / len(steps) / mean_g * 100) if steps and mean_g > 0 else math.nan
    return {"first_s": first, "plateau_s": plateau, "erratic_pct": erratic}


def timeline_runs(ctx: Context) -> pd.DataFrame:
    """One row per ok run of the ``timeline-*`` parts with its :func:`time_course` (columns
    protocol, streams, speed_mps, first_s, plateau_s, erratic_pct, duration_s)."""
    rows = []
    for name, df in ctx.results.items():
        if not name.startswith("timeline-"):
            continue
        proto = name.partition("-")[2]
        for _, row in df[df["status"] == "ok"].iterrows():
            ts = ctx.timeseries(name, row["key"])
            if ts is None:
                continue
            f = ts[(ts.scope == "flow") & (ts.id == 0) & (ts.metric == "goodput_bps")].sort_values("time_s")
            streams = int(float(row.get(P_STREAMS, 0) or 0)) if proto == "sctp" else 0
            rows.append({"part": name, "protocol": proto, "streams": streams, "speed_mps": speed_of(row[P_SPEED]),
                         "duration_s": float(f["time_s"].max()) if not f.empty else math.nan,
                         **time_course(f["time_s"].tolist(), f["value"].tolist())})
    return pd.DataFrame(rows, columns=["part", "protocol", "streams", "speed_mps", "duration_s", "first_s", "plateau_s", "erratic_pct"])


def cells(r: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95 % half-width of every metric per (setup, protocol, streams, speed)."""
    rows = []
    r = r[~r["setup"].isin([p.partition("-")[0] for p in (*RATE_PARTS, *WEAKER_PARTS)])]
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
# Claims (DESIGN.md §6): every row from a rule of sctpsim.reproduce.claims


def _seed_key(a: pd.DataFrame, b: pd.DataFrame) -> str:
    return "seed" if "seed" in a.columns and "seed" in b.columns else "replication"


def _relative(a: pd.DataFrame, b: pd.DataFrame, col: str) -> tuple[float, float, int]:
    """(mean(b)/mean(a) − 1) in %, its 95 % half-width and n: paired over the seeds both sides ran
    (common random numbers), else as independent samples."""
    key = _seed_key(a, b)
    if key in a.columns and key in b.columns:
        m = a[[key, col]].merge(b[[key, col]], on=key, suffixes=("_a", "_b"))
        if len(m) >= 2:
            rt = paired_ratio(m[f"{col}_a"].tolist(), m[f"{col}_b"].tolist())
            return (rt.value - 1) * 100, rt.ci95 * 100, rt.n
    rv, h, n = ratio_ci(b[col], a[col])
    return (rv - 1) * 100, h * 100, n


def _lvl(claim: str, case: str, values: pd.Series, paper: float | tuple[float, float], unit: str, why: str, result: str,
         source: str = "paper", note: str = "") -> Claim:
    m, h, n = mean_ci_n(values)
    return level(claim, case, paper=paper, mean=m, ci95=h, unit=unit, why=why, result=result, source=source, n=n, note=note)


def _above(claim: str, case: str, hi: pd.Series, lo: pd.Series, paper: str, unit: str, why: str, result: str = "",
           source: str = "paper") -> Claim:
    """Ordering: ``hi`` above ``lo`` (Welch difference of the means)."""
    d, h = diff_ci(hi, lo)
    n = min(int(hi.notna().sum()), int(lo.notna().sum()))
    return ordering(claim, case, paper=paper, diff=d, ci95=h, unit=unit, why=why, result=result, source=source, n=n)


def _label(streams: int) -> str:
    return f"SCTP, {streams} stream{'s' if streams != 1 else ''}" if streams else "TCP"


def table2_rows(r: pd.DataFrame, setup: str) -> list[Claim]:
    """Table 2 cell by cell (R11) on the TCP runs of ``setup``: packets sent and received per 200 s
    and the loss rate per speed, and the average loss rate, each a level (the 95 % CI of ours
    against the published value ±15 %)."""
    out: list[Claim] = []
    tcp = _sel(r, setup, "tcp")
    here = [v for v in PAPER_TCP if (tcp["speed_mps"] == v).any()]
    for v in here:
        sent, got, pct = PAPER_TCP[v]
        g = tcp[tcp["speed_mps"] == v]
        out.append(_lvl("tcp_packets_sent", f"{v:g} m/s", g["data_sent_200s"], sent, "packets per 200 s",
                        "Table 2, one run per speed; the count is TCP's rate in 536-byte segments", "R11"))
        out.append(_lvl("tcp_packets_received", f"{v:g} m/s", g["data_received_200s"], got, "packets per 200 s",
                        "Table 2, one run per speed", "R11"))
        out.append(_lvl("tcp_loss_rate", f"{v:g} m/s", g["loss_pct"], pct, "%",
                        "Table 2: 1 − received / sent data segments; a level like any other (its ratio to the paper's within ±15 %)",
                        "R11"))
    if here:
        g = tcp[tcp["speed_mps"].isin(here)]
        out.append(_lvl("tcp_loss_rate", "average of the speeds", g["loss_pct"], PAPER_TCP_LOSS_MEAN, "%",
                        "Table 2, 'Average 0.35 %'", "R11"))
    return out


def claims_from(r: pd.DataFrame, tl: pd.DataFrame | None = None, parts: Collection[str] | None = None) -> list[Claim]:
    """Every row of the study from the per-run frame ``r`` (:func:`runs`: columns part, setup,
    protocol, streams, speed_mps, seed and the metrics) and the time-course frame ``tl``
    (:func:`timeline_runs`). ``parts`` are the parts present (default: those in ``r``); a Table 2
    row is ``explained`` only when the same row computed on the runs of :data:`FIXED6_PART`
    passes."""
    out: list[Claim] = []
    if r.empty:
        return out
    if parts is None:
        parts = set(r["part"]) if "part" in r.columns else set()
    tl = tl if tl is not None else pd.DataFrame(columns=["protocol", "streams", "plateau_s", "erratic_pct"])
    field = r[r["setup"] == "field"]
    speeds = sorted(field["speed_mps"].dropna().unique())
    if not speeds:
        return out
    lo, hi = speeds[0], speeds[-1]
    tput = "throughput_kbps"

    # R1, Fig. 2: SCTP's throughput against speed and streams.
    for s in (1, 5):
        a, b = _sel(r, "field", "sctp", s, lo), _sel(r, "field", "sctp", s, hi)
        d, h, n = _relative(a, b, tput)
        out.append(no_effect("no_speed_effect", f"{_label(s)}: {hi:g} against {lo:g} m/s", margin=SPEED_MARGIN_PCT, diff=d, ci95=h,
                             unit="% of throughput", n=n, result="R1", paper="same range",
                             why="Fig. 2: 'Independent from the number of streams and the velocity the throughput over time is always "
                                 "in the same range'; relative change, paired over seeds"))
    for v in (lo, hi):
        a, b = _sel(r, "field", "sctp", 1, v), _sel(r, "field", "sctp", 5, v)
        d, h, n = _relative(a, b, tput)
        out.append(no_effect("no_stream_effect", f"SCTP at {v:g} m/s: 5 against 1 stream", margin=SPEED_MARGIN_PCT, diff=d, ci95=h,
                             unit="% of throughput", n=n, result="R1", paper="same range",
                             why="Fig. 2 (as above), for the number of streams"))
    # R2, Fig. 3: TCP's throughput against speed.
    for v in speeds[1:]:
        a, b = _sel(r, "field", "tcp", None, lo), _sel(r, "field", "tcp", None, v)
        d, h, n = _relative(a, b, tput)
        out.append(no_effect("no_speed_effect", f"TCP: {v:g} against {lo:g} m/s", margin=SPEED_MARGIN_PCT, diff=d, ci95=h,
                             unit="% of throughput", n=n, result="R2", paper="same range",
                             why="Fig. 3: 'no direct influence of the increasing velocity can be seen'"))
    # R3: no relay carried the traffic.
    m, h, n = mean_ci_n(field["relayed"] * 100)
    out.append(no_effect("no_relay_used", "every run of the paper's set-up", margin=RELAY_MARGIN_PCT, diff=m, ci95=h,
                         unit="% of data packets relayed", n=n, result="R3", paper="no relay",
                         why="§2.4.2: 'hops between sender and receiver are not used for packet transmission' (assumed there, "
                             "measured here: the share of delivered data packets that crossed a relay)"))
    # R4: at a lower transmit power, or a larger path-loss exponent, nothing is transmitted.
    weaker = r[r["setup"] == "weaker"]
    for power in WEAKER_POWERS:
        for alpha in WEAKER_ALPHAS:
            mw = float(power.removesuffix("mW"))
            if (power, alpha) == (WEAKER_POWERS[0], WEAKER_ALPHAS[0]):
                continue  # the paper's own set-up (4.5 mW, α = 2)
            g = weaker[(weaker["tx_power_mw"] == mw) & (weaker["alpha"] == alpha)] if not weaker.empty else weaker
            got = pd.to_numeric(g["data_received"], errors="coerce") if not g.empty else pd.Series([], dtype=float)
            out.append(check("low_power_no_transmission", f"TCP at {power}, path-loss exponent {alpha:g}", ok=len(g) > 0 and bool((got.fillna(0) == 0).all()),
                             value=mean_ci(g[tput])[0] if len(g) else math.nan, unit="kbit/s (mean)",
                             bound="no data packet delivered in any run", source="paper", result="R4", n=len(g),
                             why="§2.4.2: 'increasing the path-loss parameter alpha or reducing the maximum transmission power lead to no "
                                 "result because packet transmission was not even possible'; the paper names neither the power nor the "
                                 "α it tried, so every lower power and larger α of the grid is a row",
                             note=f"{int((got.fillna(0) > 0).sum())} of {len(g)} runs delivered data; relayed "
                                  f"{mean_ci(g['relayed'] * 100)[0]:.0f} % of the delivered packets" if len(g) and (got.fillna(0) > 0).any()
                                  else (f"{len(g)} runs, none delivered" if len(g) else "")))
    # R5, Fig. 4: the start after about 9 s.
    for proto in ("tcp", "sctp"):
        out.append(_lvl("start_delay", f"{_label(0) if proto == 'tcp' else 'SCTP'}: first data delivered, every run",
                        _sel(r, "field", proto)["first_delivery_s"], PAPER_START_S, "s",
                        "Fig. 4: 'independent of the transport protocol the throughput starts growing after about 9 seconds'", "R5"))
    # R6, R7, Fig. 4: the time course (timeline runs, speeds and streams pooled as the paper pools them).
    ts = tl[tl["protocol"] == "sctp"]
    tt = tl[tl["protocol"] == "tcp"]
    out.append(_lvl("plateau_time", "SCTP, timeline runs", ts["plateau_s"], PAPER_PLATEAU_S["sctp"], "s",
                    "Fig. 4: SCTP's throughput 'increases logarithmic until about the 120 simulation second and then stays constant' "
                    "(our reading of the curve: CHOICES)", "R6"))
    out.append(_lvl("plateau_time", "TCP, timeline runs", tt["plateau_s"], PAPER_PLATEAU_S["tcp"], "s",
                    "Fig. 4: 'After about 80 simulation seconds the maximum throughput is reached and stays nearly constant'", "R7"))
    out.append(_above("tcp_more_erratic", "TCP minus SCTP, timeline runs", pd.to_numeric(tt["erratic_pct"], errors="coerce"),
                      pd.to_numeric(ts["erratic_pct"], errors="coerce"), "TCP erratic, SCTP smooth", "% of throughput",
                      "Fig. 4: 'In contrast to the smooth curve of SCTP, the throughput increase of TCP is rather erratic'", "R7"))
    # R8-R10, Fig. 5: RTT ranges and their order.
    rtt_tcp = _sel(r, "field", "tcp")["rtt_ms"]
    rtt_1, rtt_5 = _sel(r, "field", "sctp", 1)["rtt_ms"], _sel(r, "field", "sctp", 5)["rtt_ms"]
    out.append(_lvl("rtt", "TCP, every speed", rtt_tcp, PAPER_RTT_MS["tcp"], "ms",
                    "Fig. 5: 'TCP has values with at most single digit millisecond range' (0-10 ms)", "R8"))
    out.append(_lvl("rtt", "SCTP, 1 stream, every speed", rtt_1, PAPER_RTT_MS["sctp1"], "ms",
                    "Fig. 5: 'SCTP with one stream has much higher values between 50 and 300ms'", "R9"))
    out.append(_above("rtt_order", "SCTP 1 stream minus TCP", rtt_1, rtt_tcp, "SCTP (1 stream) above TCP", "ms",
                      "Fig. 5: SCTP with one stream 'much higher' than TCP", "R9"))
    out.append(_lvl("rtt", "SCTP, 5 streams, every speed", rtt_5, PAPER_RTT_MS["sctp5"], "ms",
                    "Fig. 5: 'The values for SCTP with 5 streams ... are in most of the cases 1000ms'", "R10"))
    out.append(_above("rtt_order", "SCTP 5 minus 1 streams", rtt_5, rtt_1, "5 streams above 1", "ms",
                      "Fig. 5 and the Result Summary: 'using of multiple streams in wireless network leads to high RTT's'", "R10"))
    # R11, Table 2 cell by cell; a failing cell is explained only by the same row passing on the 6 Mbit/s part.
    t2 = table2_rows(r, "field")
    variants = {(c.claim, c.case): c for c in table2_rows(r, "fixed6")}
    for c in t2:
        v = variants.get((c.claim, c.case))
        if v is not None:
            c.explained_by(v, FIXED6_PART, parts, what="every data frame at the base bitrate 6 Mbit/s instead of ARF's 6-54 Mbit/s")
    out.extend(t2)
    # R12: speed and TCP's loss rate.
    a, b = _sel(r, "field", "tcp", None, lo), _sel(r, "field", "tcp", None, hi)
    d, h = diff_ci(b["loss_pct"], a["loss_pct"])
    out.append(no_effect("no_speed_effect_on_loss", f"TCP: {hi:g} minus {lo:g} m/s", margin=LOSS_MARGIN_PP, diff=d, ci95=h,
                         unit="percentage points", n=min(len(a), len(b)), result="R12",
                         why="§2.4.2 after Table 2: 'the device movement does not have any impact on the data transmission'"))
    # R13, Table 3 cell by cell: the loss rate as the paper defines it (§2.3.3).
    sctp = _sel(r, "field", "sctp")
    cells3 = [(v, s) for (v, s) in PAPER_SCTP_LOSS if ((sctp["speed_mps"] == v) & (sctp["streams"] == s)).any()]
    for v, s in cells3:
        out.append(_lvl("sctp_loss_rate", f"{v:g} m/s, {s} stream{'s' if s != 1 else ''}", _sel(r, "field", "sctp", s, v)["loss_pct"],
                        PAPER_SCTP_LOSS[(v, s)], "%",
                        "Table 3 taken at its word (§2.3.3: packets that did not reach the destination / all sent; 'nearly every "
                        "second packet does not arrive')", "R13"))
    if cells3:
        sel = pd.concat([_sel(r, "field", "sctp", s, v) for v, s in cells3])
        out.append(_lvl("sctp_loss_rate", "average of the cells", sel["loss_pct"], PAPER_SCTP_LOSS_MEAN, "%", "Table 3, 'Average 48.640 %'",
                        "R13"))
    # R14: speed and SCTP's loss rate.
    for s in (1, 5):
        a, b = _sel(r, "field", "sctp", s, lo), _sel(r, "field", "sctp", s, hi)
        d, h = diff_ci(b["loss_pct"], a["loss_pct"])
        out.append(no_effect("no_speed_effect_on_loss", f"{_label(s)}: {hi:g} minus {lo:g} m/s", margin=LOSS_MARGIN_PP, diff=d,
                             ci95=h, unit="percentage points", n=min(len(a), len(b)), result="R14",
                             why="§2.4.2 after Table 3: 'Again the device moving speed does not have any impact on this metric'"))
    # R16, the Result Summary.
    for s in (1, 5):
        out.append(_above("sctp_faster_than_tcp", f"{_label(s)} minus TCP, every speed", _sel(r, "field", "sctp", s)[tput],
                          _sel(r, "field", "tcp")[tput], "SCTP above TCP", "kbit/s",
                          "Result Summary: 'TCP guarantees a reliable data connection but with a smaller throughput than SCTP'", "R16"))
    out.append(_above("sctp_loss_above_tcp", "SCTP minus TCP loss rate, every speed and stream", sctp["loss_pct"],
                      _sel(r, "field", "tcp")["loss_pct"], "SCTP above TCP", "percentage points",
                      "Result Summary: TCP has 'small loss rates', SCTP 'also a high loss rate'", "R16"))

    # Checks: invariants of ours and the premises of our variants.
    m, h, n = mean_ci_n(_sel(r, "field", "tcp")["ack_overhead_pct"])
    out.append(check("tcp_ack_overhead", "TCP ACKs per data segment received", ok=math.isfinite(m) and abs(m - 100) <= 5, value=m,
                     unit="%", bound="100 ± 5", n=n,
                     why="our configuration: INET's TCP of the time acknowledged every segment (delayed_ack = false in field.toml), "
                         "which is what the paper's 'nearly 100 %' describes (R15 has no paper row)"))
    errs = pd.to_numeric(r["delivery_errors"], errors="coerce").fillna(0) if "delivery_errors" in r.columns else pd.Series(dtype=float)
    out.append(check("exact_delivery", f"every run ({len(r)})", ok=bool((errs == 0).all()), value=float(errs.sum()), unit="errors",
                     bound="0 bytes delivered out of order or corrupted", n=len(r),
                     why="the transports deliver the application's bytes exactly (flows[0].delivery_errors)"))
    relay = r[r["setup"] == "relay"]
    delivering = relay[pd.to_numeric(relay["data_received"], errors="coerce").fillna(0) > 0]
    m, h, n = mean_ci_n(delivering["relayed"] * 100)
    out.append(check("relay_variant_uses_relays", f"{RELAY_POWER}, runs that delivered ({len(delivering)})",
                     ok=n > 0 and math.isfinite(m) and m >= 90, value=m, unit="% of data packets relayed", bound="≥ 90 %", n=n,
                     why=f"the premise of the {RELAY_POWER} variant: the client is out of the server's range, so what arrives crossed a relay"))

    # Extensions: comparisons the paper did not make.
    out.append(_lvl("sctp_loss_as_sacks_over_data", "every speed and stream: 1 − SACK packets sent / DATA packets sent",
                    sctp["paper_loss_pct"], PAPER_SCTP_LOSS_MEAN, "%",
                    "our reading of Table 3 (not the paper's statement): the formula applied to the client's packets, which are "
                    "SACKs, one per two DATA packets with delayed SACK (RFC 9260 §6.2)", "", source="extension"))
    relay_flows: tuple[tuple[str, int | None], ...] = (("tcp", None), ("sctp", 1))
    for proto, k in relay_flows:
        a, b = _sel(r, "relay", proto, k, lo), _sel(r, "relay", proto, k, hi)
        label = _label(k or 0)
        out.append(_above("relay_throughput_falls_with_speed", f"{RELAY_POWER}, {label}: {lo:g} minus {hi:g} m/s", a[tput], b[tput],
                          "falls with speed", "kbit/s", "§2.4.1, expected (never measured by the paper): 'performance loss with a "
                          "higher velocity'", source="extension"))
        out.append(_above("relay_loss_rises_with_speed", f"{RELAY_POWER}, {label}: {hi:g} minus {lo:g} m/s", b["loss_pct"],
                          a["loss_pct"], "rises with speed", "percentage points",
                          "§2.4.1, expected: 'If the velocity will be increased, then the loss rate increases too'", source="extension"))
    a, b = _sel(r, "relay", "sctp", 5, hi), _sel(r, "relay", "sctp", 1, hi)
    out.append(_above("relay_streams_help_under_loss", f"{RELAY_POWER}, {hi:g} m/s: SCTP 5 minus 1 streams", a[tput], b[tput],
                      "higher", "kbit/s", "§2.4.1, expected: 'if there are losses (e.g. high velocity), SCTP has the mechanism to "
                      "achieve a higher throughput'", source="extension"))
    return out


def receivers_table(ctx: Context) -> pd.DataFrame:
    """Goodput (Mbit/s, mean over seeds) of the one-hop receiver comparison per distance, data
    rate and receiver; empty without those parts."""
    rows = []
    for name in RECEIVER_PARTS:
        df = ctx.results.get(name)
        if df is None or not {P_CLIENT_POS, P_RATE, "flows[0].goodput_bps"} <= set(df.columns):
            continue
        df = df[df["status"] == "ok"]
        for _, x in df.iterrows():
            pos = x[P_CLIENT_POS]
            d = float(re.findall(r"-?\d+(?:\.\d+)?", str(pos))[0])
            rows.append({"receiver": "INET 2.x" if name.endswith("inet") else "ours (ns-3)", "distance_m": d,
                         "rate": str(x[P_RATE]), "goodput_mbps": float(x["flows[0].goodput_bps"]) / 1e6})
    if not rows:
        return pd.DataFrame()
    t = pd.DataFrame(rows).groupby(["rate", "receiver", "distance_m"])["goodput_mbps"].mean()
    return t.unstack("distance_m")


def inet_twins(r: pd.DataFrame) -> list[Claim]:
    """The paper rows computed on the INET-receiver parts as if they were the paper's set-up."""
    inet = r[r["setup"] == "inet"].assign(setup="field")
    if inet.empty:
        return []
    both = pd.concat([inet, r[r["setup"] == "weakerinet"].assign(setup="weaker")], ignore_index=True, sort=False)
    return [c for c in claims_from(both, None, set(INET_PARTS) | {"weakerinet-tcp"}) if c.source == "paper"]


def explain_with_inet(claims: Sequence[Claim], twins: Sequence[Claim], parts: Collection[str]) -> int:
    """Marks each failing paper row ``explained`` whose twin on the INET-receiver parts passes;
    the evidence is ``inet-tcp`` for rows on TCP alone, ``inet-sctp`` for rows involving SCTP
    (the comparisons of SCTP with TCP use both parts). Returns how many."""
    def evidence(c: Claim) -> str:
        if c.claim == "low_power_no_transmission":
            return "weakerinet-tcp"
        return "inet-tcp" if "SCTP" not in c.case and not c.claim.startswith("sctp") else "inet-sctp"

    return explain_with_twins(
        claims, twins, parts, evidence,
        "INET 2.x's receiver: sensitivity -85 dBm, noise -110 dBm, SNIR threshold 4 dB")


def _analyse(ctx: Context) -> Analysis:
    from sctpsim.reproduce import omnetpp_olsr_report as rep

    r = runs(ctx)
    tl = timeline_runs(ctx)
    c = cells(r) if not r.empty else pd.DataFrame()
    claims = claims_from(r, tl, ctx.results.keys())
    twins = inet_twins(r) if not r.empty else []
    explain_with_inet(claims, twins, set(ctx.results))
    figs = rep.figures(ctx, c)
    rates = rep.rates_figure(ctx, r) if not r.empty else None
    if rates is not None:
        figs["rates"] = rates
    return Analysis(claims, rep.report(ctx, r, c, tl, claims, figs, twins, receivers_table(ctx)), RESULTS)


STUDY = Study(
    name="omnetpp-olsr",
    title="OMNeT++ study: TCP vs SCTP (1-5 streams) over OLSR with 10 walking relays, speed and loss",
    parts=_parts,
    analyse=_analyse,
)


def weaker_table(r: pd.DataFrame) -> pd.DataFrame:
    """R4's grid: per receiver, power and α, the runs, those that delivered data, the mean
    throughput and the share of delivered packets that crossed a relay."""
    w = r[r["setup"].isin(["weaker", "weakerinet"])] if not r.empty else r
    rows = []
    for (setup, mw, alpha), g in w.groupby(["setup", "tx_power_mw", "alpha"]):
        got = pd.to_numeric(g["data_received"], errors="coerce").fillna(0)
        rows.append({"receiver": "INET 2.x" if setup == "weakerinet" else "ours (ns-3)", "tx_power_mw": mw, "alpha": alpha,
                     "runs": len(g), "delivering": int((got > 0).sum()), "throughput_kbps": mean_ci(g["throughput_kbps"])[0],
                     "relayed_pct": mean_ci(g["relayed"].dropna() * 100)[0] if g["relayed"].notna().any() else math.nan})
    return pd.DataFrame(rows)
