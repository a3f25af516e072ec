"""Validations of SCTP over 802.11 against analytic references: the one-hop ceiling of Ye,
Saadawi & Lee (2003) with a receive window of two packets."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sctpsim.runner import run
from sctpsim.scenario import Scenario
from sctpsim.verify import Row, register
from sctpsim.verify.models import sctp_window2_one_hop

_CHAIN = Path(__file__).resolve().parents[1] / "scenarios" / "ye2003" / "chain.toml"

#: Every DATA packet carries one chunk: IPv4 20 + SCTP common header 12 + DATA chunk header 16
#: (RFC 4960 §3.1, §3.3.1) + 512 = 560 octets, the scenario's MTU; DSR adds nothing on a
#: one-hop route (docs/models/dsr.md).
CHUNK_BYTES = 512
DATA_IP_BYTES = 560

#: The steady window (s): the flow starts at 1 s; DSR's route discovery, the association
#: set-up and the first window are over by 2 s.
WINDOW = (2.0, 30.0)


def chain_scenario() -> Scenario:
    """The Ye 2003 chain as shipped (`scenarios/ye2003/chain.toml`)."""
    return Scenario.load(_CHAIN)


def one_hop_goodput_bps(rts_threshold: int, seed: int, window: tuple[float, float] = WINDOW) -> float:
    """Simulated SCTP goodput (payload bit/s) of the one-hop chain over ``window``, from the
    flow's `bytes_delivered` samples."""
    t0, t1 = window
    sc = chain_scenario().with_(
        **{
            "flows[0].dst": "n1",
            "radio.rts_threshold_bytes": rts_threshold,
            "simulation.duration": f"{t1:g}s",
        }
    )
    ts = run(sc, seed=seed).timeseries
    b = ts[(ts.scope == "flow") & (ts.metric == "bytes_delivered")]

    def at(t: float) -> float:
        return float(b[(b.time_s - t).abs() < 1e-9].value.sum())

    return (at(t1) - at(t0)) * 8 / (t1 - t0)


def one_hop_table(seeds: list[int], thresholds: tuple[int, ...] = (20, 256)) -> pd.DataFrame:
    """Simulated (mean over ``seeds``) and analytic goodput and IP-layer throughput per RTS
    threshold."""
    rows = []
    for th in thresholds:
        sim = sum(one_hop_goodput_bps(th, s) for s in seeds) / len(seeds)
        ref = sctp_window2_one_hop(rts_threshold=th)
        rows.append(
            {
                "rts_threshold": th,
                "sim_goodput_bps": sim,
                "ref_goodput_bps": ref["goodput_bps"],
                "sim_ip_bps": sim * DATA_IP_BYTES / CHUNK_BYTES,
                "ref_ip_bps": ref["ip_bps"],
                "cycle_us": ref["cycle_us"],
            }
        )
    return pd.DataFrame(rows)


@register(
    "ye2003-one-hop",
    "SCTP, rwnd 2 x MTU, delayed SACK over one 1 Mbit/s 802.11 hop (Ye et al. 2003): goodput "
    "and IP throughput vs the stop-and-wait cycle with coupled post-backoffs, within 3 %",
)
def ye2003_one_hop_check(quick: bool) -> list[Row]:
    """The one-hop chain of Ye, Saadawi & Lee (2003, §4, Fig. 2a) with a window of two packets,
    at RTS thresholds 20 and 256 bytes, against :func:`sctp_window2_one_hop`: two DATA
    exchanges with RTS/CTS and one SACK exchange (with RTS/CTS only at threshold 20) per
    cycle, the idle slots from the exact Markov chain of the two stations' post-backoffs.

    Simulated: goodput over 2–30 s, mean of seeds 1–10 (1–2 with ``quick``; a run takes
    about 0.1 s); the IP-layer
    figure is the goodput × 560/512 (every DATA packet is one 512-byte chunk in a 560-byte
    IP packet). Tolerance 3 %.

    The analytic IP-layer throughput is 646 kbit/s at threshold 256 and 616 kbit/s at 20
    (goodput 591 and 563 kbit/s); counting the SACKs too, 674 and 643 kbit/s. The paper reports
    "about 660Kbps" for both thresholds with OPNET; its MAC timing and what its throughput
    counts are not stated, so that figure is not checked here."""
    seeds = [1, 2] if quick else list(range(1, 11))
    rows = []
    for r in one_hop_table(seeds).itertuples():
        th = int(r.rts_threshold)
        rows.append(
            Row(
                f"RTS threshold {th} B: goodput (kbit/s)",
                r.sim_goodput_bps / 1e3,
                r.ref_goodput_bps / 1e3,
                0.03 * r.ref_goodput_bps / 1e3,
                "kbit/s",
            )
        )
        rows.append(
            Row(
                f"RTS threshold {th} B: IP throughput (kbit/s)",
                r.sim_ip_bps / 1e3,
                r.ref_ip_bps / 1e3,
                0.03 * r.ref_ip_bps / 1e3,
                "kbit/s",
            )
        )
    return rows
