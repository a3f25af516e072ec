"""What `sctpsim view` shows, read from a run directory: the node list and roles, node positions
(time series `x_m`/`y_m`, else the scenario's static positions, else a layout of the wired
graph), frames on the air and on wires (trace rows `mac`/`link` `tx` matched with the `rx` and
`phy` `rx_error` rows of the same packet), per-node IP events for the counters, per-flow paths
reconstructed from the `ip` rows of each delivered packet, events for the time line (route
breaks, associations, handoffs, SCTP path switches) and per-flow series for the sparklines.

Every table is optional except `run.json`: a run without a trace shows positions, events and
series; a run without positions shows the scenario's layout. The selection is bounded
(:data:`MAX_POSITION_VALUES`, :data:`MAX_FRAMES`, :data:`MAX_SERIES_POINTS`) so that a 900 s,
50-node MANET stays a few megabytes; what is thinned is recorded in ``notes`` and shown in the
page (docs/view.md, "Data selection")."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

#: Positions kept: samples × nodes at most this many (x and y each), so a long run with a short
#: `sample_interval` is thinned to every k-th sample rather than growing without bound. 900 s
#: of 50 nodes at 1 s is 45,050.
MAX_POSITION_VALUES = 1_000_000

#: Frames (MAC data frames and wired link transmissions) kept. Beyond this the page keeps every
#: k-th frame (with its receptions) and says so: about 12 bytes per frame plus 3 per reception
#: before compression, so the bound keeps a view under about 20 MB.
MAX_FRAMES = 1_000_000

#: Points per sparkline series; longer series keep the minimum and maximum of each bucket, so a
#: cwnd sawtooth keeps its peaks and troughs.
MAX_SERIES_POINTS = 4_000

#: IP-level counter events kept (sent, received, forwarded, dropped per node).
MAX_NODE_EVENTS = 3_000_000

#: Reception kinds (`rx.kind` in the page): a frame received; lost at the PHY (`phy`
#: `rx_error`, docs/metrics.md) to a collision, to the distance-dependent frame error model, to
#: a signal too weak without interference, or (a reason the trace may add) because the receiver
#: was transmitting; a wired link's loss (`link` `drop` after `tx`).
RX_OK, RX_COLLISION, RX_FRAME_ERROR, RX_HALF_DUPLEX, RX_LOST, RX_WEAK_SIGNAL = 0, 1, 2, 3, 4, 5
_RX_REASON = {"collision": RX_COLLISION, "frame_error": RX_FRAME_ERROR, "half_duplex": RX_HALF_DUPLEX,
              "weak_signal": RX_WEAK_SIGNAL}

#: Node counter kinds: originated (ip tx), delivered (ip rx), forwarded, dropped (any layer).
EV_SENT, EV_RECEIVED, EV_FORWARDED, EV_DROPPED = 0, 1, 2, 3



def _protocols() -> list[str]:
    """Protocol codes of frames, by `trace.parquet` `protocol`: the transports and ICMP, the
    core's ad hoc routing protocols (one descriptor each, `_native.routing_protocols`), then
    `ip` for anything else."""
    from sctpsim import _native

    return ["udp", "tcp", "sctp", "icmp", *_native.routing_protocols(), "ip"]


#: Protocol codes of frames (`_protocols`).
PROTOCOLS = _protocols()


class ViewInputError(ValueError):
    """A run directory the viewer cannot read (exit 2 on the command line)."""


@dataclass
class ViewData:
    """Everything the page draws: ``meta`` (JSON) and typed ``arrays`` (name → numpy array)."""

    meta: dict[str, Any] = field(default_factory=dict)
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _read(run: Path, name: str) -> pd.DataFrame | None:
    p = run / name
    if not p.is_file():
        return None
    try:
        return pd.read_parquet(p)
    except Exception as e:  # noqa: BLE001 - a damaged table names itself
        raise ViewInputError(f"{p}: not a Parquet table sctpsim wrote ({e.__class__.__name__})") from e


def _scenario_source(manifest: dict[str, Any]) -> tuple[str, list[tuple[str, Any]]] | None:
    """The run's scenario text and `--set` overrides as run.json records them, or None."""
    text = manifest.get("scenario_text")
    if not isinstance(text, str):
        return None
    return text, [(str(p), v) for p, v in manifest.get("overrides") or []]


def _scenario(manifest: dict[str, Any]) -> dict[str, Any] | None:
    """The run's canonical scenario (run.json `scenario_text` + `overrides`), or None when it is
    missing or no longer loads (a mobility file moved away)."""
    source = _scenario_source(manifest)
    if source is None:
        return None
    try:
        from sctpsim import _native

        table, _ = _native.check_scenario(*source)
        return table
    except Exception:  # noqa: BLE001 - the view falls back on the tables
        return None


def _ranges(manifest: dict[str, Any]) -> dict[str, float] | None:
    """Reception and carrier-sense ranges from the core's radio model (`_native.radio_ranges`)."""
    source = _scenario_source(manifest)
    if source is None:
        return None
    try:
        from sctpsim import _native

        r = _native.radio_ranges(*source)
    except Exception:  # noqa: BLE001 - an older core, or a scenario that no longer loads
        return None
    if not r:
        return None
    return {k: float(v) for k, v in r.items() if isinstance(v, (int, float)) and math.isfinite(v)}


def scenario_node_names(manifest: dict[str, Any]) -> list[str]:
    """The run's node names in the order of the time series' node ``id`` (run.json's scenario),
    empty when the scenario no longer loads: `sctpsim plot` names stations and APs by them."""
    sc = _scenario(manifest)
    return [n["name"] for n in _nodes(sc, [])] if sc is not None else []


def _nodes(sc: dict[str, Any] | None, names_seen: list[str]) -> list[dict[str, Any]]:
    """Nodes in the scenario's order (`[[node]]`, then `[nodes]`), the order of the time series'
    node `id`; without a scenario, the names the tables mention."""
    out: list[dict[str, Any]] = []
    if sc is not None:
        for n in sc.get("node") or []:
            wifi = n.get("wifi") or {}
            wireless = bool(n.get("wireless"))
            role = str(wifi.get("role", "adhoc")) if wireless else "wired"
            mip = n.get("mobile_ip")
            if isinstance(mip, dict) and mip.get("role") in ("home-agent", "foreign-agent"):
                role = str(mip["role"])  # drawn as an access point, named by its role
            out.append({"name": str(n.get("name")), "role": role, "wireless": wireless,
                        "pos": n.get("position_m")})
        ns = sc.get("nodes")
        if isinstance(ns, dict):
            prefix = str(ns.get("prefix", "n"))
            role = str((ns.get("wifi") or {}).get("role", "adhoc"))
            for i in range(int(ns.get("count", 0))):
                out.append({"name": f"{prefix}{i}", "role": role, "wireless": True, "pos": None})
    known = {n["name"] for n in out}
    for name in names_seen:
        if name not in known:
            known.add(name)
            out.append({"name": name, "role": "wired", "wireless": False, "pos": None})
    return out


def _layout(nodes: list[dict[str, Any]], fixed: dict[int, tuple[float, float]],
            edges: list[tuple[int, int]], span_m: float) -> dict[int, tuple[float, float]]:
    """Positions for nodes the run did not place (wired nodes): breadth-first from the placed
    nodes, one row per hop at larger y (the page draws y up, so above the wireless area), each
    node over the mean x of its neighbours in the row before; with nothing placed, rows from
    the best-connected node. Nodes of one row are kept at least 0.8 row heights apart."""
    adj: dict[int, set[int]] = {i: set() for i in range(len(nodes))}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    pos = dict(fixed)
    step = max(span_m * 0.18, 60.0)
    if pos:
        top = max(y for _, y in pos.values())
        xs = [x for x, _ in pos.values()]
        cx = (min(xs) + max(xs)) / 2
    else:
        top, cx = -step, 0.0
    frontier = list(pos) if pos else []
    if not frontier and nodes:
        root = max(range(len(nodes)), key=lambda i: (len(adj[i]), -i))
        pos[root] = (cx, top + step)
        frontier = [root]
        top += step
    layer = 0
    while True:
        nxt: dict[int, list[float]] = {}
        for u in frontier:
            for v in adj[u]:
                if v not in pos:
                    nxt.setdefault(v, []).append(pos[u][0])
        if not nxt:
            unplaced = [i for i in range(len(nodes)) if i not in pos]
            if not unplaced:
                break
            nxt = {unplaced[0]: [cx]}
        layer += 1
        y = top + layer * step
        placed: list[tuple[float, int]] = sorted((sum(v) / len(v), k) for k, v in nxt.items())
        min_gap = step * 0.8
        xs_new: list[float] = []
        for x, _ in placed:
            if xs_new and x < xs_new[-1] + min_gap:
                x = xs_new[-1] + min_gap
            xs_new.append(x)
        shift = (sum(x for x, _ in placed) - sum(xs_new)) / len(xs_new)
        for (x0, k), x in zip(placed, xs_new):
            pos[k] = (x + shift, y)
        frontier = [k for _, k in placed]
    return pos


#: Seconds per unit of a duration string (docs/scenario.md, "Units").
_DURATION_S = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|min|h)\s*$")


def _seconds(value: Any) -> float | None:
    """A scenario duration (``"10s"``, ``"500ms"``) in seconds; None when it is not one."""
    m = _DURATION.match(value) if isinstance(value, str) else None
    return float(m.group(1)) * _DURATION_S[m.group(2)] if m else None


def _link_outages(links: list[dict[str, Any]], index: dict[str, int]) -> list[list[Any]]:
    """The scheduled failures of the wired links (`[[link.outages]]`) as ``[link, start_s,
    end_s, from]``: ``link`` indexes the page's ``links`` (those whose ends are known, in
    scenario order), ``from`` the node whose outgoing direction fails, -1 for both. The page
    draws a link down between ``start_s`` and ``end_s``; the trace alone cannot say so, since
    a link that carries nothing while down leaves no row."""
    out: list[list[Any]] = []
    k = -1
    for ln in links:
        b = ln.get("between") or []
        if not (len(b) == 2 and b[0] in index and b[1] in index):
            continue
        k += 1
        for o in ln.get("outages") or []:
            start, end = _seconds(o.get("start")), _seconds(o.get("end"))
            if start is None or end is None:
                continue
            frm = o.get("from")
            out.append([k, round(start, 9), round(end, 9), index.get(str(frm), -1) if frm else -1])
    return out


def _interface_far_ends(links: list[dict[str, Any]], index: dict[str, int]) -> dict[tuple[int, str], int]:
    """(node, interface) → the node at the link's other end. A node's point-to-point
    interfaces are named ``eth0``, ``eth1``, ... in the order of its links in the scenario
    (docs/metrics.md, `trace.parquet` `interface`), so a link `drop` row, recorded at the
    sender, can be drawn on the link it happened on rather than on the one the packet
    arrived by."""
    count: dict[int, int] = {}
    out: dict[tuple[int, str], int] = {}
    for ln in links:
        b = ln.get("between") or []
        if not (len(b) == 2 and b[0] in index and b[1] in index):
            continue
        a, z = index[b[0]], index[b[1]]
        for here, there in ((a, z), (z, a)):
            k = count.get(here, 0)
            count[here] = k + 1
            out[(here, f"eth{k}")] = there
    return out


def _delta_us(t_ns: np.ndarray) -> np.ndarray:
    """Times (ns, sorted) as microsecond deltas (uint32; the page sums them up)."""
    us = (np.asarray(t_ns, dtype=np.uint64) // 1000).astype(np.int64)
    d = np.diff(us, prepend=0)
    return np.clip(d, 0, 2**32 - 1).astype(np.uint32)


def _thin_series(t: np.ndarray, v: np.ndarray, limit: int = MAX_SERIES_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """At most ``limit`` points: the minimum and maximum of each of ``limit/2`` time buckets."""
    if len(t) <= limit:
        return t, v
    buckets = limit // 2
    idx = np.minimum(((t - t[0]) / max(t[-1] - t[0], 1e-12) * buckets).astype(np.int64), buckets - 1)
    df = pd.DataFrame({"b": idx, "t": t, "v": v, "i": np.arange(len(t))})
    g = df.groupby("b")
    keep = np.unique(np.concatenate([g.v.idxmin().to_numpy(), g.v.idxmax().to_numpy()]))
    return t[keep], v[keep]


def check_run_dir(run_dir: str | Path) -> Path:
    """``run_dir`` as a Path if it is a run directory (it has ``run.json``); else
    :class:`ViewInputError` naming what is wrong."""
    run = Path(run_dir)
    if not run.exists():
        raise ViewInputError(f"{run}: no such directory")
    if not run.is_dir():
        raise ViewInputError(f"{run}: not a directory")
    if not (run / "run.json").is_file():
        raise ViewInputError(f"{run}: not a run directory (no run.json; make one with `sctpsim run SCENARIO --out DIR`)")
    return run


def collect(run_dir: str | Path, progress: Callable[[str], None] | None = None) -> ViewData:
    """Read ``run_dir`` and select what the page shows (module documentation)."""
    say = progress or (lambda _msg: None)
    run = check_run_dir(run_dir)
    try:
        manifest = json.loads((run / "run.json").read_text(encoding="utf-8"))
        summary_path = run / "summary.json"
        summary: dict[str, Any] = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else {}
    except (OSError, ValueError) as e:
        raise ViewInputError(f"{run}/run.json: unreadable ({e})") from e
    if not isinstance(manifest, dict):
        raise ViewInputError(f"{run}/run.json: not a JSON object")
    if not isinstance(summary, dict):
        raise ViewInputError(f"{run}/summary.json: not a JSON object")

    vd = ViewData()
    say("reading tables")
    ts = _read(run, "timeseries.parquet")
    flows = _read(run, "flows.parquet")
    links = _read(run, "links.parquet")
    handoffs = _read(run, "handoffs.parquet")
    say("reading trace.parquet" if (run / "trace.parquet").is_file() else "no trace.parquet")
    trace = _read(run, "trace.parquet")
    sc = _scenario(manifest)

    seen: list[str] = []
    if flows is not None and not flows.empty:
        seen += [str(x) for x in pd.concat([flows.src, flows.dst]).unique()]
    if links is not None and not links.empty and "from" in links:
        seen += [str(x) for x in pd.concat([links["from"], links["to"]]).unique()]
    if trace is not None and not trace.empty:
        seen += [str(x) for x in trace.node.astype(str).unique()]
    nodes = _nodes(sc, seen)
    index = {n["name"]: i for i, n in enumerate(nodes)}
    n_nodes = len(nodes)
    duration = float(summary.get("sim_time_s") or manifest.get("sim_time_s") or 0.0)

    # --- positions --------------------------------------------------------------------------
    say("positions")
    pos_times = np.zeros(0)
    px = py_ = np.zeros((0, n_nodes), dtype=np.float32)
    if ts is not None and not ts.empty:
        p = ts[(ts.scope == "node") & ts.metric.isin(["x_m", "y_m"])]
        if not p.empty:
            times = np.unique(p.time_s.to_numpy())
            stride = max(1, math.ceil(len(times) * max(n_nodes, 1) / MAX_POSITION_VALUES))
            if stride > 1:
                keep_t = times[::stride]
                p = p[p.time_s.isin(keep_t)]
                times = keep_t
                vd.notes.append(f"positions: every {stride}th sample kept ({len(times)} of them)")
            ti = np.searchsorted(times, p.time_s.to_numpy())
            ids = p.id.to_numpy().astype(np.int64)
            ok = (ids >= 0) & (ids < n_nodes)
            px = np.full((len(times), n_nodes), np.nan, dtype=np.float32)
            py_ = np.full((len(times), n_nodes), np.nan, dtype=np.float32)
            isx = (p.metric == "x_m").to_numpy()
            vals = p.value.to_numpy().astype(np.float32)
            px[ti[ok & isx], ids[ok & isx]] = vals[ok & isx]
            py_[ti[ok & ~isx], ids[ok & ~isx]] = vals[ok & ~isx]
            pos_times = times
    moving = np.zeros(n_nodes, dtype=bool)
    if len(pos_times):
        moving = ~np.all(np.isnan(px), axis=0)
    fixed: dict[int, tuple[float, float]] = {}
    for i, n in enumerate(nodes):
        if moving[i]:
            col_x, col_y = px[:, i], py_[:, i]
            good = ~np.isnan(col_x)
            fixed[i] = (float(col_x[good][0]), float(col_y[good][0]))
        elif isinstance(n.get("pos"), list) and len(n["pos"]) >= 2:
            fixed[i] = (float(n["pos"][0]), float(n["pos"][1]))
    if len(pos_times):
        span = float(np.nanmax(px) - np.nanmin(px)) if moving.any() else 400.0
    else:
        xs = [x for x, _ in fixed.values()]
        span = (max(xs) - min(xs)) if xs else 400.0
    edges: list[tuple[int, int]] = []
    wired_links: list[list[int]] = []
    for ln in (sc or {}).get("link") or []:
        b = ln.get("between") or []
        if len(b) == 2 and b[0] in index and b[1] in index:
            edges.append((index[b[0]], index[b[1]]))
            wired_links.append([index[b[0]], index[b[1]]])
    link_outages = _link_outages((sc or {}).get("link") or [], index)
    far_end = _interface_far_ends((sc or {}).get("link") or [], index)
    if not wired_links and links is not None and not links.empty and "from" in links:
        for a, b in {tuple(sorted((str(r["from"]), str(r["to"])))) for _, r in links.iterrows()}:
            if a in index and b in index:
                edges.append((index[a], index[b]))
                wired_links.append([index[a], index[b]])
    # Coordinates mean metres only when some node was placed by the run or the scenario.
    geographic = bool(fixed)
    # Nodes whose coordinates the run or the scenario gives: the page shows a position for
    # these only (a laid-out wired node's coordinates mean nothing).
    placed = set(fixed)
    unplaced_wireless = [i for i, n in enumerate(nodes) if n["wireless"] and i not in fixed]
    if unplaced_wireless:
        vd.notes.append(f"{len(unplaced_wireless)} wireless nodes have no recorded position "
                        "(run with simulation.trace_positions = true): laid out on a grid")
        side = math.ceil(math.sqrt(len(unplaced_wireless)))
        for k, i in enumerate(unplaced_wireless):
            fixed[i] = ((k % side) * 100.0, (k // side) * 100.0)
    static = _layout(nodes, fixed, edges, span if span > 0 else 400.0)
    sx = np.array([static.get(i, (0.0, 0.0))[0] for i in range(n_nodes)], dtype=np.float32)
    sy = np.array([static.get(i, (0.0, 0.0))[1] for i in range(n_nodes)], dtype=np.float32)
    vd.arrays["pos_t"] = pos_times.astype(np.float64)
    vd.arrays["pos_x"] = px.reshape(-1)
    vd.arrays["pos_y"] = py_.reshape(-1)
    vd.arrays["static_x"] = sx
    vd.arrays["static_y"] = sy
    vd.arrays["moving"] = moving.astype(np.uint8)

    # --- flows ------------------------------------------------------------------------------
    flow_list: list[dict[str, Any]] = []
    if flows is not None and not flows.empty:
        for _, r in flows.iterrows():
            flow_list.append({"id": int(r["id"]), "src": index.get(str(r["src"]), -1), "dst": index.get(str(r["dst"]), -1),
                              "transport": str(r.get("transport", "")), "app": str(r.get("app", "")),
                              "paths": [], "breaks": [], "series": {}})
    flow_at = {f["id"]: f for f in flow_list}

    # --- events and series from the time series ---------------------------------------------
    events: list[list[Any]] = []
    assoc: dict[int, list[list[float]]] = {}
    attach: dict[int, list[list[float]]] = {}
    if ts is not None and not ts.empty:
        say("events and series")
        ev = ts[ts.metric.isin(["route_broken", "path_switch", "assoc", "ar_preferred"])]
        for t, scope, i, d, m, v in ev[["time_s", "scope", "id", "dir", "metric", "value"]].itertuples(index=False):
            i = int(i)
            if m == "route_broken" and i in flow_at:
                flow_at[i]["breaks"].append(round(float(t), 6))
                events.append([round(float(t), 6), "break", i, f"flow {i}: route broken"])
            elif m == "path_switch":
                events.append([round(float(t), 6), "switch", i, f"flow {i}: SCTP path switch to {d}"])
            elif m == "assoc" and 0 <= i < n_nodes:
                ap = int(v)
                assoc.setdefault(i, []).append([round(float(t), 6), ap])
                what = f"associated with {nodes[ap]['name']}" if 0 <= ap < n_nodes else "lost its association"
                events.append([round(float(t), 6), "assoc", i, f"{nodes[i]['name']} {what}"])
            elif m == "ar_preferred" and 0 <= i < n_nodes:
                events.append([round(float(t), 6), "handoff", i, f"{nodes[i]['name']}: preferred address {d}"])
        fts = ts[ts.scope == "flow"]
        wanted = {"goodput_bps": "goodput_bps", "bytes_delivered": "bytes_delivered", "cwnd_bytes": "cwnd_bytes",
                  "tsn_sent": "tsn", "snd_nxt": "seq"}
        fts = fts[fts.metric.isin(list(wanted))]
        for (fid, metric, d), g in fts.groupby(["id", "metric", "dir"], sort=True):
            f = flow_at.get(int(fid))
            if f is None:
                continue
            g = g.sort_values("time_s", kind="stable")
            t, v = _thin_series(g.time_s.to_numpy(np.float64), g.value.to_numpy(np.float64))
            key = wanted[str(metric)]
            series = f["series"].setdefault(key, [])
            if len(series) >= 4:  # a few destinations are legible; more are not drawn
                continue
            name = f"s{len(vd.arrays)}"
            vd.arrays[name + "_t"] = t.astype(np.float64)
            vd.arrays[name + "_v"] = v.astype(np.float32)
            series.append({"dir": str(d), "a": name})
    if handoffs is not None and not handoffs.empty:
        def when(r: pd.Series, col: str) -> float | None:
            v = r.get(col)
            return round(float(v), 6) if isinstance(v, (int, float)) and np.isfinite(v) else None

        for _, r in handoffs.iterrows():
            mob = str(r.get("mobile", ""))
            i = index.get(mob, -1)
            frm, to = str(r.get("from_agent") or "none"), str(r.get("to_agent") or "none")
            what = f"{mob}: {r.get('mechanism', 'handoff')} {frm} → {to}"
            for col, text in (("detected_s", "detected"), ("registration_sent_s", "registration sent"),
                              ("reply_received_s", "registration accepted"), ("first_packet_s", "first packet")):
                t = when(r, col)
                if t is not None:
                    events.append([t, "handoff", i, f"{what}: {text}"])
            # The mobile's agent, drawn like an association, from the accepted registration.
            t = when(r, "reply_received_s")
            if t is not None and 0 <= i < n_nodes:
                attach.setdefault(i, []).append([t, index.get(to, -1)])
        for lst in attach.values():
            lst.sort()

    # --- trace: frames, node counters, paths --------------------------------------------------
    if trace is not None and not trace.empty:
        tinfo = summary.get("trace")
        if isinstance(tinfo, dict) and tinfo.get("truncated"):
            end_s = int(trace.time_ns.iloc[-1]) / 1e9
            vd.notes.append(f"the trace stopped at its bound of {tinfo.get('max_rows')} rows at {end_s:.1f} s: "
                            "frames, paths and node counters after that are missing")
        _from_trace(vd, trace, index, far_end, flow_at, events, say)
    else:
        vd.notes.append("no per-packet trace (run with --trace): frames, paths and node counters are not shown")

    events.sort(key=lambda e: e[0])
    vd.meta = {
        "name": str(summary.get("name") or manifest.get("scenario_source") or run.name),
        "source": str(manifest.get("scenario_source", "")),
        "seed": manifest.get("seed"),
        "duration_s": duration,
        "nodes": [{"name": n["name"], "role": n["role"], "wireless": n["wireless"], "placed": i in placed}
                  for i, n in enumerate(nodes)],
        "links": wired_links,
        "link_outages": link_outages,
        "flows": flow_list,
        "events": events,
        "assoc": {str(k): v for k, v in assoc.items()},
        "attach": {str(k): v for k, v in attach.items()},
        "ranges": _ranges(manifest),
        "geographic": geographic,
        "protocols": PROTOCOLS,
        "position_interval_s": float(np.median(np.diff(pos_times))) if len(pos_times) > 1 else None,
        "trace": summary.get("trace"),
        "notes": vd.notes,
    }
    return vd


#: Codes of the trace's categorical columns used here (`_codes`).
LAYERS = ["link", "mac", "ip", "phy"]
EVENTS = ["enqueue", "dequeue", "tx", "rx", "forward", "drop", "rx_error"]
REASONS = ["collision", "frame_error", "half_duplex", "loss", "weak_signal", "outage", "scripted"]
L_LINK, L_MAC, L_IP, L_PHY = range(4)
E_TX, E_RX, E_FORWARD, E_DROP, E_RX_ERROR = 2, 3, 4, 5, 6


def _codes(col: pd.Series, names: list[str]) -> np.ndarray:
    """Each row's index in ``names`` (-1 for anything else): through the categorical codes
    when the column is categorical (as `trace.parquet`'s are), so millions of rows cost one
    lookup per category."""
    where = {n: i for i, n in enumerate(names)}
    if isinstance(col.dtype, pd.CategoricalDtype):
        lut = np.array([where.get(str(c), -1) for c in col.cat.categories] + [-1], dtype=np.int64)
        codes = col.cat.codes.to_numpy().astype(np.int64)
        return lut[np.where(codes >= 0, codes, len(lut) - 1)]
    return col.astype(str).map(where).fillna(-1).to_numpy(np.int64)


def _from_trace(vd: ViewData, trace: pd.DataFrame, index: dict[str, int], far_end: dict[tuple[int, str], int],
                flow_at: dict[int, dict[str, Any]], events: list[list[Any]], say: Callable[[str], None]) -> None:
    """Frames with their receptions, per-node counter events and per-flow paths from the trace."""
    names = [""] * len(index)
    for name, i in index.items():
        names[i] = name
    node = _codes(trace.node, names)
    t_ns = trace.time_ns.to_numpy(np.uint64)
    layer = _codes(trace.layer, LAYERS)
    event = _codes(trace.event, EVENTS)
    reason = _codes(trace.reason, REASONS)
    flow = trace.flow.fillna(-1).to_numpy(np.int64)
    uid = trace.uid.to_numpy(np.uint64)
    proto = _codes(trace.protocol, PROTOCOLS)
    proto = np.where(proto < 0, len(PROTOCOLS) - 1, proto)
    size = trace.size_bytes.to_numpy(np.int64)

    say("frames")
    wire_or_air = (layer == L_MAC) | (layer == L_LINK)
    tx_idx = np.flatnonzero(wire_or_air & (event == E_TX))
    if len(tx_idx) > MAX_FRAMES:
        k = math.ceil(len(tx_idx) / MAX_FRAMES)
        tx_idx = tx_idx[::k]
        vd.notes.append(f"frames: every {k}th transmission kept ({len(tx_idx)} of them)")
    rx_idx = np.flatnonzero((wire_or_air & (event == E_RX)) | ((layer == L_PHY) & (event == E_RX_ERROR)))
    losses = _link_losses(trace, np.flatnonzero(wire_or_air & (event == E_TX)), tx_idx, layer, event, reason,
                          node, uid, far_end)
    # A packet a link drops before its `tx` (an outage at the head of the queue) is a frame of
    # its own, sent and lost at the drop's time, so that it is drawn on the link that lost it.
    frame_rows = np.union1d(tx_idx, losses.loc[losses.orphan, "row"].to_numpy(np.int64))
    tx = pd.DataFrame({"row": tx_idx, "uid": uid[tx_idx].astype(np.int64), "tx_ns": t_ns[tx_idx].astype(np.int64),
                       "frame": np.searchsorted(frame_rows, tx_idx), "txnode": node[tx_idx],
                       "txwire": layer[tx_idx] == L_LINK})
    rx = pd.DataFrame({"row": rx_idx, "time_ns": t_ns[rx_idx].astype(np.int64), "uid": uid[rx_idx].astype(np.int64),
                       "rxnode": node[rx_idx], "ev": event[rx_idx], "reason": reason[rx_idx],
                       "rxwire": layer[rx_idx] == L_LINK})
    # Each reception belongs to the latest transmission of its packet before it in the trace's
    # order (the order things happened): by row, not by time, since a router that receives
    # and forwards in the same nanosecond has its own `tx` at the time of its `rx`.
    m = pd.merge_asof(rx, tx, on="row", by="uid", direction="backward")
    m = m[m.frame.notna()]
    m = m[(m.txwire.astype(bool) == m.rxwire) & (m.rxnode != m.txnode)]
    ev_m, reason_m = m.ev.to_numpy(), m.reason.to_numpy()
    kind = np.full(len(m), RX_OK, dtype=np.uint8)
    kind[ev_m == E_RX_ERROR] = RX_FRAME_ERROR
    for r, k in _RX_REASON.items():
        kind[(ev_m == E_RX_ERROR) & (reason_m == REASONS.index(r))] = k
    # A link's loss is recorded at the sender; its reception is the link's other end, lost.
    lost = pd.DataFrame({"frame": np.searchsorted(frame_rows, losses.frame_row.to_numpy(np.int64)),
                         "time_ns": t_ns[losses.row.to_numpy(np.int64)].astype(np.int64),
                         "rxnode": losses.far.to_numpy(np.int64), "kind": np.full(len(losses), RX_LOST, np.uint8)})
    m = pd.concat([m.assign(frame=m.frame.astype(np.int64), kind=kind)[["frame", "time_ns", "rxnode", "kind"]], lost])
    m = m.sort_values(["frame", "time_ns"], kind="stable")
    frames = m.frame.to_numpy()
    counts = np.bincount(frames, minlength=len(frame_rows)).astype(np.uint32)
    last_rx = np.full(len(frame_rows), -1, dtype=np.int64)
    np.maximum.at(last_rx, frames, m.time_ns.to_numpy())
    start_ns = t_ns[frame_rows].astype(np.int64)
    dur_us = np.where(last_rx < 0, 0.0, (last_rx - start_ns) / 1000.0)
    # Without a reception after it the frame is drawn for its airtime at 1 Mbit/s: an
    # estimate only (a lost wired packet then travels part of its link before it vanishes).
    dur_us = np.where(dur_us <= 0, size[frame_rows] * 8.0, dur_us)
    vd.arrays["fr_dt"] = _delta_us(t_ns[frame_rows])
    vd.arrays["fr_node"] = node[frame_rows].astype(np.int16)
    vd.arrays["fr_wired"] = (layer[frame_rows] == L_LINK).astype(np.uint8)
    vd.arrays["fr_flow"] = np.clip(flow[frame_rows], -1, 32767).astype(np.int16)
    vd.arrays["fr_proto"] = proto[frame_rows].astype(np.uint8)
    vd.arrays["fr_size"] = np.clip(size[frame_rows], 0, 65535).astype(np.uint16)
    vd.arrays["fr_dur"] = np.clip(dur_us, 0, 2**32 - 1).astype(np.uint32)
    vd.arrays["fr_nrx"] = counts
    vd.arrays["rx_node"] = m.rxnode.to_numpy().astype(np.int16)
    vd.arrays["rx_kind"] = m.kind.to_numpy().astype(np.uint8)
    if np.any(layer == L_MAC) and not np.any(layer == L_PHY):
        vd.notes.append("no PHY rx_error rows in the trace: failed receptions (collisions) are not drawn")

    say("node counters")
    kind_ev = np.full(len(trace), -1, dtype=np.int64)
    ip = layer == L_IP
    kind_ev[ip & (event == E_TX)] = EV_SENT
    kind_ev[ip & (event == E_RX)] = EV_RECEIVED
    kind_ev[ip & (event == E_FORWARD)] = EV_FORWARDED
    kind_ev[event == E_DROP] = EV_DROPPED
    ev_idx = np.flatnonzero(kind_ev >= 0)
    if len(ev_idx) > MAX_NODE_EVENTS:
        ev_idx = ev_idx[:MAX_NODE_EVENTS]
        vd.notes.append(f"node counters: the first {MAX_NODE_EVENTS} events only")
    vd.arrays["ev_dt"] = _delta_us(t_ns[ev_idx])
    vd.arrays["ev_node"] = node[ev_idx].astype(np.int16)
    vd.arrays["ev_kind"] = kind_ev[ev_idx].astype(np.uint8)
    vd.arrays["ev_flow"] = np.clip(flow[ev_idx], -1, 32767).astype(np.int16)

    say("flow paths")
    _paths(ip & (flow >= 0) & ((event == E_TX) | (event == E_FORWARD) | (event == E_RX)),
           t_ns, uid, node, flow, event, flow_at)


def _link_losses(trace: pd.DataFrame, all_tx: np.ndarray, kept_tx: np.ndarray, layer: np.ndarray,
                 event: np.ndarray, reason: np.ndarray, node: np.ndarray, uid: np.ndarray,
                 far_end: dict[tuple[int, str], int]) -> pd.DataFrame:
    """The packets wired links lost (`link` `drop` rows: `loss`, `scripted`, `outage`), one row
    each: ``row`` (the drop), ``frame_row`` (the `tx` row of the frame it belongs to: the same
    packet's latest `tx` at the same node and interface, or the drop itself when there is none,
    ``orphan``) and ``far`` (the other end of the interface's link; the dropping node when the
    scenario does not say). A drop is matched at its own interface, not to the packet's last
    transmission anywhere, which would paint a loss on the link the packet arrived by. Frames
    left out by thinning take their losses with them."""
    codes = [REASONS.index(r) for r in ("loss", "outage", "scripted")]
    drop_idx = np.flatnonzero((layer == L_LINK) & (event == E_DROP) & np.isin(reason, codes))
    cols = ["row", "frame_row", "far", "orphan"]
    if not len(drop_idx):
        return pd.DataFrame({c: np.zeros(0, dtype=np.int64) for c in cols}).astype({"orphan": bool})
    iface = trace.interface.astype(str).to_numpy()
    drops = pd.DataFrame({"row": drop_idx, "uid": uid[drop_idx].astype(np.int64), "node": node[drop_idx],
                          "iface": iface[drop_idx]})
    txs = pd.DataFrame({"row": all_tx, "frame_row": all_tx, "uid": uid[all_tx].astype(np.int64),
                        "node": node[all_tx], "iface": iface[all_tx]})
    m = pd.merge_asof(drops, txs, on="row", by=["uid", "node", "iface"], direction="backward")
    orphan = m.frame_row.isna().to_numpy()
    frame_row = np.where(orphan, m.row.to_numpy(np.int64), m.frame_row.fillna(-1).to_numpy(np.int64))
    ends = pd.DataFrame([(n, i, f) for (n, i), f in far_end.items()], columns=["node", "iface", "far"])
    far = m[["node", "iface"]].merge(ends.astype({"node": m.node.dtype}), how="left", on=["node", "iface"])["far"]
    far = far.fillna(pd.Series(m.node.to_numpy(), index=far.index)).to_numpy(np.int64)
    out = pd.DataFrame({"row": m.row.to_numpy(np.int64), "frame_row": frame_row, "far": far, "orphan": orphan})
    return out[out.orphan | np.isin(out.frame_row.to_numpy(), kept_tx)].reset_index(drop=True)


def _paths(sel: np.ndarray, t_ns: np.ndarray, uid: np.ndarray, node: np.ndarray, flow: np.ndarray,
           event: np.ndarray, flow_at: dict[int, dict[str, Any]]) -> None:
    """Each flow's routes over time: the hop list of every delivered data packet (its `ip`
    rows `tx`, `forward`..., ending in `rx`), one segment per run of packets with the same
    list. Vectorised: each packet's list is hashed (polynomial in the hop position) and only
    the packets where the hash changes are unpacked."""
    idx = np.flatnonzero(sel)
    if not len(idx):
        return
    order = np.lexsort((t_ns[idx], uid[idx]))
    idx = idx[order]
    u = uid[idx]
    starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    ends = np.r_[starts[1:], len(idx)]
    pos = np.arange(len(idx)) - np.repeat(starts, ends - starts)
    weights = np.ones(int(pos.max()) + 1, dtype=np.uint64)
    for k in range(1, len(weights)):
        weights[k] = np.uint64((int(weights[k - 1]) * 1_000_003) % (1 << 64))
    with np.errstate(over="ignore"):
        terms = (node[idx].astype(np.uint64) + np.uint64(1)) * weights[pos]
        h = np.add.reduceat(terms, starts)
    done = event[idx[ends - 1]] == E_RX
    first_t = t_ns[idx[starts]]
    fl = flow[idx[starts]]
    for fid in np.unique(fl[done]):
        f = flow_at.get(int(fid))
        if f is None:
            continue
        pk = np.flatnonzero(done & (fl == fid))
        pk = pk[np.argsort(first_t[pk], kind="stable")]
        hp = h[pk]
        change = np.flatnonzero(np.r_[True, hp[1:] != hp[:-1]])
        last = np.r_[change[1:], len(pk)] - 1
        segs = []
        for c, e in zip(change, last):
            p = pk[c]
            hops = [int(x) for x in node[idx[starts[p]:ends[p]]]]
            segs.append([round(int(first_t[p]) / 1e9, 6), round(int(first_t[pk[e]]) / 1e9, 6), hops])
        f["paths"] = segs
