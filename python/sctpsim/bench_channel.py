"""`sctpsim bench channel`: how fast the wireless channel delivers frames as the network grows at
constant density (DESIGN.md §7: cost per frame must follow density, not network size).

Each case is an ad hoc network of ``nodes`` static ns-2 WaveLAN radios (2 Mbit/s, RTS/CTS,
two-ray ground: 250 m reception, 550 m carrier sense) on a square grid with 200 m spacing — so
every transmission reaches about 24 radios whatever the size of the network — where every node
sends a 16 kbit/s CBR flow of 512-byte packets to its grid neighbour. The run is long enough
for about ``frames`` transmissions (RTS, CTS, DATA and Ack all count). Reported per case, as
``key=value``: nodes, simulated seconds, frames put on the air, frame arrivals at radios, events,
wall seconds of the run (building the scenario excluded) and frames per wall-clock second.
"""

from __future__ import annotations

import json
import math

from sctpsim import _native

SPACING_M = 200
RATE_BPS = 16_000
PACKET_BYTES = 512
#: Frames per simulated second per node: 16 kbit/s / 512 B ≈ 3.9 packets, 4 frames each.
FRAMES_PER_NODE_S = RATE_BPS / (PACKET_BYTES * 8) * 4


def channel_scenario(nodes: int, duration_s: float, seed: int = 1) -> str:
    """The scenario text of one case."""
    cols = max(1, math.ceil(math.sqrt(nodes)))
    lines = [
        "[simulation]",
        f'duration = "{duration_s:g}s"',
        f'sample_interval = "{duration_s:g}s"',
        f"seed = {seed}",
        "[radio]",
        'profile = "ns2-wavelan"',
        "[nodes]",
        f"count = {nodes}",
        "[mobility]",
        'model = "static"',
        'placement = "grid"',
        f"spacing_m = {SPACING_M}",
        f"columns = {cols}",
    ]
    for i in range(nodes):
        # A grid neighbour 200 m away: right, else left, else up, else down.
        col = i % cols
        if col + 1 < cols and i + 1 < nodes:
            dst = i + 1
        elif col > 0:
            dst = i - 1
        elif i >= cols:
            dst = i - cols
        else:
            dst = i + cols
        lines += [
            "[[flows]]",
            f'src = "n{i}"',
            f'dst = "n{dst}"',
            'app = "cbr"',
            f'rate = "{RATE_BPS}bps"',
            f"packet_size_bytes = {PACKET_BYTES}",
            # Stagger the starts over the first second (a fixed pseudo-random permutation).
            f'start = "{(i * 7919) % 1000}ms"',
        ]
    return "\n".join(lines) + "\n"


def run_case(nodes: int, frames: int = 1_000_000, seed: int = 1) -> dict[str, float]:
    """Runs one case; the key=value figures."""
    duration = max(2.0, round(frames / (FRAMES_PER_NODE_S * nodes), 1))
    raw = _native.run(channel_scenario(nodes, duration, seed), [], seed=None)
    s = json.loads(raw["summary"])
    macs = s["macs"]
    tx = sum(m["tx_data"] + m["tx_rts"] + m["tx_cts"] + m["tx_ack"] for m in macs)
    arrivals = sum(m["phy_arrivals"] for m in macs)
    wall = s["wall_time_s"]
    return {
        "nodes": nodes,
        "sim_s": s["sim_time_s"],
        "frames": tx,
        "arrivals": arrivals,
        "arrivals_per_frame": arrivals / tx if tx else 0.0,
        "events": s["events"],
        "seconds": wall,
        "frames_per_s": tx / wall if wall > 0 else 0.0,
    }


def format_case(c: dict[str, float]) -> str:
    return (
        f"nodes={c['nodes']} sim_s={c['sim_s']:g} frames={c['frames']} arrivals={c['arrivals']} "
        f"arrivals_per_frame={c['arrivals_per_frame']:.1f} events={c['events']} "
        f"seconds={c['seconds']:.3f} frames_per_s={c['frames_per_s']:.0f}"
    )
