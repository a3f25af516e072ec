"""`sctpsim bench scaling`: wall time per simulated second per node of a mobile ad hoc network
at constant density, from 100 to 10,000 nodes (DESIGN.md §7: the cost of a node must not grow
with the size of the network).

Each case: ``nodes`` ns-2 WaveLAN radios (2 Mbit/s, two-ray ground: 250 m reception, 550 m
carrier sense) in random-waypoint motion (speeds uniform in 1-10 m/s, no pause) over a square
whose side is chosen so that a node has on average ``NEIGHBOURS`` others within the 250 m
reception range (area = nodes · π · 250² / NEIGHBOURS), every node broadcasting a 20-byte UDP
beacon (``[beacons]``) at intervals uniform in 2-5 s. No other traffic. The simulated time is
the same for every size. Reported per case, as ``key=value``: nodes, the square's side, the
simulated seconds, beacons sent and received (received per beacon ≈ neighbours that decoded
it), frame arrivals at radios (carrier-sense range: ≈ 4.8 × the neighbours), events, wall
seconds of the run (building excluded) and ``wall_s_per_sim_s_per_node``, and the CPU time of
the calling thread over building, running and summarising (``cpu_seconds``,
``cpu_s_per_sim_s_per_node``) — on a shared machine the wall time also counts the time other
processes had the core, the thread's CPU time does not.

A case that takes less than ``min_cpu_s`` of CPU is repeated (same seed, so the same events)
until its repetitions have used that much, and the timings reported are the median over the
repetitions (``repeats``). Without it the 100-node case (a tenth of a second) swings by tens of
per cent with the processor's state and the neighbours' load, and the ratio with it.
"""

from __future__ import annotations

import json
import math
import statistics
import time

from sctpsim import _native

#: Neighbours within the reception range, on average (uniform density; random waypoint
#: concentrates nodes towards the centre, so the middle has somewhat more).
NEIGHBOURS = 10
RANGE_M = 250.0
SPEED_MPS = (1.0, 10.0)
INTERVAL_S = (2, 5)


def side_m(nodes: int) -> float:
    """Side of the square that gives ``NEIGHBOURS`` neighbours per node on average."""
    return math.sqrt(nodes * math.pi * RANGE_M**2 / NEIGHBOURS)


def scaling_scenario(nodes: int, sim_s: float, seed: int = 1) -> str:
    """The scenario text of one case."""
    side = side_m(nodes)
    return "\n".join(
        [
            "[simulation]",
            f'duration = "{sim_s:g}s"',
            f'sample_interval = "{sim_s:g}s"',
            f"seed = {seed}",
            "[radio]",
            'profile = "ns2-wavelan"',
            "[nodes]",
            f"count = {nodes}",
            "[mobility]",
            'model = "random-waypoint"',
            f"area_m = [{side:.1f}, {side:.1f}]",
            f"speed_mps = {{ min = {SPEED_MPS[0]}, max = {SPEED_MPS[1]} }}",
            "[beacons]",
            f'interval = {{ min = "{INTERVAL_S[0]}s", max = "{INTERVAL_S[1]}s" }}',
        ]
    ) + "\n"


def run_case(nodes: int, sim_s: float = 60.0, seed: int = 1) -> dict[str, float]:
    """Runs one case; the key=value figures."""
    cpu0 = time.thread_time()
    raw = _native.run(scaling_scenario(nodes, sim_s, seed), [], seed=None)
    cpu = time.thread_time() - cpu0
    s = json.loads(raw["summary"])
    net = s["network"]
    arrivals = sum(m["phy_arrivals"] for m in s["macs"])
    wall = s["wall_time_s"]
    sim = s["sim_time_s"]
    return {
        "nodes": nodes,
        "side_m": side_m(nodes),
        "sim_s": sim,
        "beacons": net["beacons_sent"],
        "received": net["beacons_received"],
        "arrivals": arrivals,
        "events": s["events"],
        "seconds": wall,
        "wall_s_per_sim_s_per_node": wall / (sim * nodes) if sim > 0 else 0.0,
        "cpu_seconds": cpu,
        "cpu_s_per_sim_s_per_node": cpu / (sim * nodes) if sim > 0 else 0.0,
    }


def run_case_repeated(nodes: int, sim_s: float = 60.0, min_cpu_s: float = 0.0,
                      seed: int = 1, max_repeats: int = 50) -> dict[str, float]:
    """Runs one case until its repetitions have used ``min_cpu_s`` of CPU (at least once, at
    most ``max_repeats`` times); the median timings, the counts of the (identical) runs."""
    runs = [run_case(nodes, sim_s, seed)]
    while sum(r["cpu_seconds"] for r in runs) < min_cpu_s and len(runs) < max_repeats:
        runs.append(run_case(nodes, sim_s, seed))
    for r in runs[1:]:
        if r["events"] != runs[0]["events"] or r["arrivals"] != runs[0]["arrivals"]:
            raise RuntimeError("a repeated scaling case did not repeat the same events")
    out = dict(runs[0])
    for key in ("seconds", "wall_s_per_sim_s_per_node", "cpu_seconds", "cpu_s_per_sim_s_per_node"):
        out[key] = statistics.median(r[key] for r in runs)
    out["repeats"] = len(runs)
    return out


def format_case(c: dict[str, float]) -> str:
    rx = c["received"] / c["beacons"] if c["beacons"] else 0.0
    return (
        f"nodes={c['nodes']} side_m={c['side_m']:.0f} sim_s={c['sim_s']:g} beacons={c['beacons']} "
        f"received_per_beacon={rx:.2f} arrivals={c['arrivals']} events={c['events']} "
        f"seconds={c['seconds']:.3f} wall_s_per_sim_s_per_node={c['wall_s_per_sim_s_per_node']:.3e} "
        f"cpu_seconds={c['cpu_seconds']:.3f} cpu_s_per_sim_s_per_node={c['cpu_s_per_sim_s_per_node']:.3e}"
        f" repeats={c.get('repeats', 1)}"
    )
