"""The standard figures of a run or a sweep, as PNG, PDF and SVG (matplotlib, Agg backend;
docs/sweeps.md).

``sctpsim plot DIR`` looks at ``DIR``:

* a sweep directory (``results.parquet``): for each headline metric and each swept parameter,
  the metric's mean against the parameter with 95 % confidence bars, one line per combination
  of the other parameters (``<metric>-vs-<param>.png``); with ``--timeseries`` sweeps also the
  throughput against time per grid point, mean over replications with a 95 % band;
* a run directory (``timeseries.parquet``): throughput, delivered data, cwnd and sequence/TSN
  against time, link throughput and queue occupancy, one line per flow, SCTP path or link
  direction; a multi-homed SCTP flow's TSN figure has one panel per destination address, its
  transmission lines broken where the path sent nothing (:func:`break_gaps`) and drops marked;
  many flows, station associations and 802.11 MAC counters are drawn by
  :mod:`sctpsim.plot_wireless`.

Swept parameters are named in words (:data:`PARAM_NAMES`, else :func:`readable_path`); a
table-valued one by the fields that vary in it (:func:`sweep_axis`).

Figures go to ``DIR/figures/`` as ``.png``, ``.pdf`` and ``.svg`` with the same stem;
:mod:`sctpsim.report` then writes ``DIR/report.md``. Axis labels are readable names
(:data:`METRIC_NAMES`, :data:`PARAM_NAMES`, else the field path) with units; rates, times and sizes
are scaled to a readable unit (kbit/s, Mbit/s, ms, kB); counts get integer ticks.
Time series metrics named ``cwnd*`` and ``tsn*``/``seq*``/``cum_tsn*`` are plotted when a
transport reports them; a run without them gets no cwnd or sequence figure (the report says so).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from sctpsim import _native, stats, store

FIGURES = "figures"

#: Sweep metrics plotted by default, if present and not all zero/missing.
HEADLINE_METRICS = [
    "flows.goodput_bps.sum",
    "flows.goodput_bps.mean",
    "network.pdf",
    "flows.mean_delay_s.mean",
    "flows.mean_rtt_s.mean",
    "flows.retransmissions.sum",
    "flows.timeouts.sum",
    "network.routing_packets",
    "network.mac_drops",
]

#: Readable names of metric leaves (docs/metrics.md).
METRIC_NAMES = {
    "goodput_bps": "Goodput",
    "throughput_bps": "Throughput",
    "pdf": "Packet delivery fraction",
    "delivered_fraction": "Delivered fraction",
    "mean_delay_s": "Mean one-way delay",
    "mean_rtt_s": "Mean RTT",
    "retransmissions": "Retransmissions",
    "fast_retransmits": "Fast retransmits",
    "timeouts": "Retransmission timeouts",
    "bytes_sent": "Data sent",
    "bytes_delivered": "Data delivered",
    "packets_sent": "Packets sent",
    "packets_delivered": "Packets delivered",
    "reordered": "Reordered packets",
    "routing_packets": "Routing packets",
    "routing_bytes": "Routing data",
    "mac_drops": "MAC drops",
    "queue_drops": "Queue drops",
    "loss_drops": "Loss-model drops",
    "scripted_drops": "Scripted drops",
    "ttl_drops": "TTL drops",
    "no_route_drops": "No-route drops",
    "malformed_drops": "Malformed drops",
    "icmp_sent": "ICMP messages sent",
    "icmp_time_exceeded_sent": "ICMP Time Exceeded sent",
    "tx_packets": "Packets transmitted",
    "tx_bytes": "Data transmitted",
    "utilization": "Utilization",
    "events": "Events",
    "sim_time_s": "Simulated time",
    "wall_time_s": "Wall-clock time",
    "queue_packets": "Queue occupancy",
    "cwnd": "Congestion window",
    "cwnd_bytes": "Congestion window",
    "cwnd_packets": "Congestion window",
    "outage_drops": "Outage drops",
    "normalized_routing_load": "Normalized routing load",
    "route_discoveries": "Route discoveries",
    "route_errors": "Route errors",
    "link_breaks": "Link breaks",
    "mean_discovery_latency_s": "Mean route discovery latency",
    "path_switches": "Path switches",
    "t3_timeouts": "T3-rtx timeouts",
    "sacks_sent": "SACKs sent",
    "message_delay_s": "Message delay",
    "rtt_s": "RTT",
    "srtt_s": "Smoothed RTT",
    "rto_s": "RTO",
    "ssthresh_bytes": "Slow-start threshold",
}

#: Readable names of swept parameters (docs/scenario.md), by pattern of the field path; ``{0}``
#: is the link or flow index. Other paths are shown as they are.
PARAM_NAMES: list[tuple[str, str]] = [
    (r"link\[(\d+)\]\.loss", "Loss model, link {0}"),
    (r"link\[(\d+)\]\.loss\.model", "Loss model, link {0}"),
    (r"link\[(\d+)\]\.loss\.p", "Loss probability, link {0}"),
    (r"link\[(\d+)\]\.loss\.p_good_to_bad", "P(good → bad), link {0}"),
    (r"link\[(\d+)\]\.loss\.p_bad_to_good", "P(bad → good), link {0}"),
    (r"link\[(\d+)\]\.bandwidth", "Bandwidth, link {0}"),
    (r"link\[(\d+)\]\.delay", "One-way delay, link {0}"),
    (r"link\[(\d+)\]\.queue_limit_packets", "Queue limit, link {0}"),
    (r"link\[(\d+)\]\.mtu_bytes", "MTU, link {0}"),
    (r"flows\[(\d+)\]\.rate", "Sending rate, flow {0}"),
    (r"flows\[(\d+)\]\.packet_size_bytes", "Packet size, flow {0}"),
    (r"flows\[(\d+)\]\.size_bytes", "File size, flow {0}"),
    (r"flows\[(\d+)\]\.transport", "Transport, flow {0}"),
    (r"flows\[(\d+)\]\.pairs", "Number of flows"),
    (r"flows\[(\d+)\]\.(?:tcp|sctp)\.mss_bytes", "MSS, flow {0}"),
    (r"flows\[(\d+)\]\.(?:tcp|sctp)\.recv_buffer_bytes", "Receive buffer, flow {0}"),
    (r"flows\[(\d+)\]\.(?:tcp|sctp)\.initial_window_segments", "Initial window, flow {0}"),
    (r"flows\[(\d+)\]\.(?:tcp|sctp)\.initial_rto", "Initial RTO, flow {0}"),
    (r"flows\[(\d+)\]\.(?:tcp|sctp)\.min_rto", "Minimum RTO, flow {0}"),
    (r"flows\[(\d+)\]\.(?:tcp|sctp)\.max_rto", "Maximum RTO, flow {0}"),
    (r"flows\[(\d+)\]\.tcp\.dupthresh", "Duplicate-ACK threshold, flow {0}"),
    (r"flows\[(\d+)\]\.sctp\.fast_rtx_threshold", "Fast-retransmit threshold, flow {0}"),
    (r"flows\[(\d+)\]\.sctp\.path_max_retrans", "Path.Max.Retrans, flow {0}"),
    (r"flows\[(\d+)\]\.sctp\.max_burst", "Max.Burst, flow {0}"),
    (r"flows\[(\d+)\]\.sctp\.hb_interval", "Heartbeat interval, flow {0}"),
    (r"nodes\.count", "Number of wireless nodes"),
    (r"mobility\.pause", "Pause time"),
    (r"mobility\.model", "Mobility model"),
    (r"mobility\.max_speed_mps", "Maximum speed"),
    (r"mobility\.speed_mps", "Speed"),
    (r"mobility\.speed_mps\.max", "Maximum speed"),
    (r"mobility\.speed_mps\.min", "Minimum speed"),
    (r"radio\.profile", "Radio profile"),
    (r"radio\.rate_control", "Rate adaptation"),
    (r"radio\.rts_threshold_bytes", "RTS threshold"),
    (r"mobility\.min_speed_mps", "Minimum speed"),
    (r"routing\.protocol", "Routing protocol"),
    (r"radio\.data_rate", "802.11 data rate"),
    (r"simulation\.duration", "Simulated duration"),
]


def parameter_name(path: str) -> str:
    """``Loss probability, link 1`` for ``link[1].loss.p``; a path without a name in
    :data:`PARAM_NAMES` in words (:func:`readable_path`)."""
    for pattern, name in PARAM_NAMES:
        m = re.fullmatch(pattern, path)
        if m:
            return name.format(*m.groups())
    return readable_path(path)


#: Words kept in capitals when a field path is put in words (the routing protocols' names from
#: the core's descriptors).
_ACRONYMS = {"rts", "cts", "mss", "rto", "mtu", "ttl", "tsn", "ssid", "cbr", "ip", "ap", "sta", "rx", "tx",
             "cw", "sifs", "difs", "sctp", "tcp", "udp", "mac", "phy", "sack", *_native.routing_protocols()}

#: Unit suffixes of field names, dropped from the words (the axis label gives the unit).
_UNIT_SUFFIX = re.compile(r"_(?:bytes|packets|bps|mps|m|s|db|dbm|w|segments|mtu)$")


def readable_path(path: str) -> str:
    """A field path in words, for paths :data:`PARAM_NAMES` does not name: the leaf without its
    unit suffix, then where it is (``flows[2].tcp.sack_blocks`` → ``Sack blocks, flow 2, TCP``,
    ``radio.cw_min`` → ``CW min, radio``), so no figure is labelled with a raw path."""
    parts = path.split(".")
    leaf = _UNIT_SUFFIX.sub("", re.sub(r"\[\d+\]$", "", parts[-1]))
    words = [w.upper() if w in _ACRONYMS else w for w in leaf.split("_") if w]
    text = " ".join(words) or path
    text = text[0].upper() + text[1:]
    where = []
    for part in parts[:-1]:
        m = re.fullmatch(r"(\w+)\[(\d+)\]", part)
        if m:
            where.append(f"{ {'flows': 'flow', 'link': 'link', 'node': 'node'}.get(m.group(1), m.group(1))} {m.group(2)}")
        else:
            where.append(part.upper() if part in _ACRONYMS else part)
    return ", ".join([text, *where])


def table_values(values: Sequence[Any]) -> list[dict[str, Any]] | None:
    """The values of a table-valued parameter as dicts (``results.parquet`` holds tables as
    their JSON text, docs/sweeps.md); None when any value is not a table."""
    out = []
    for v in values:
        if isinstance(v, str) and v.lstrip().startswith("{"):
            try:
                v = json.loads(v)
            except ValueError:
                return None
        if not isinstance(v, dict):
            return None
        out.append(v)
    return out or None


def _value_text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(", ", " = ") if isinstance(v, dict) else (", ", ": ")).replace('"', "")
    return str(v)


def _numeric_text(v: Any, base: str) -> str:
    """A table field's value with its unit when it is a bare number (``5 m/s``)."""
    text = _value_text(v)
    plain = isinstance(v, (int, float)) and not isinstance(v, bool)
    return f"{text} {base}" if plain and base not in ("count", "fraction") else text


def table_split(tables: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """The fields every table has with one value (constant), and the fields that differ
    between the tables, in their first appearance's order."""
    keys = list(dict.fromkeys(k for t in tables for k in t))
    const = {k: tables[0][k] for k in keys if all(k in t and t[k] == tables[0][k] for t in tables)}
    return const, [k for k in keys if k not in const]


def sweep_axis(path: str, values: Sequence[Any]) -> tuple[list[float] | None, str, list[str]]:
    """Positions (None: categorical), axis label and a tick text per value of a swept
    parameter. A table-valued parameter (``link[1].loss = {model = "bernoulli", p = 0.1}``)
    is shown by what varies in it: one field varying is that field's axis, numeric when it
    can be (``Loss probability, link 1 (fraction, 0–1); model = bernoulli``); several make
    categories named by the varying fields (``model = gilbert-elliott, p_good_to_bad = 0.1``).
    The fields all values share are named once in the label rather than at every tick."""
    tables = table_values(values)
    if tables is None:
        positions, label = parameter_axis(path, values)
        return positions, label, [_value_text(v) for v in values]
    const, varying = table_split(tables)

    def unit_of(key: str) -> str:  # a field's own unit, else its table's (speed_mps.max: m/s)
        own = base_unit(f"{path}.{key}")
        return own if own != "count" else base_unit(path)

    fixed = "; ".join(f"{k} = {_numeric_text(v, unit_of(k))}" for k, v in const.items())
    if len(varying) == 1:
        key = varying[0]
        sub = [t.get(key) for t in tables]
        base = unit_of(key)
        positions, label = parameter_axis(f"{path}.{key}", sub, base)
        return positions, label + (f"; {fixed}" if fixed else ""), [_numeric_text(v, base) for v in sub]
    ticks = [", ".join(f"{k} = {_value_text(t[k])}" for k in varying if k in t) for t in tables]
    return None, parameter_name(path) + (f" ({fixed})" if fixed else ""), ticks


def parameter_values_text(path: str, values: Sequence[Any]) -> dict[Any, str]:
    """Each value of a swept parameter as a legend names it: ``Bandwidth, link 1 = 2Mbps``;
    a table by its varying fields (:func:`sweep_axis`)."""
    distinct = list(dict.fromkeys(values))
    positions, label, ticks = sweep_axis(path, distinct)
    name = label.split(";")[0]
    if positions is not None and name.endswith(")"):
        name = name.rsplit(" (", 1)[0]  # the value carries its own unit
    return {v: f"{name} = {tick}" for v, tick in zip(distinct, ticks)}


# ---------------------------------------------------------------------------------------------
# Units


@dataclass(frozen=True)
class Unit:
    """A display unit: values are divided by ``scale`` and labelled ``label``."""

    label: str
    scale: float = 1.0


_SCALED = {
    "bit/s": [(1e9, "Gbit/s"), (1e6, "Mbit/s"), (1e3, "kbit/s"), (1.0, "bit/s")],
    "bytes": [(1e9, "GB"), (1e6, "MB"), (1e3, "kB"), (1.0, "bytes")],
    "s": [(1.0, "s"), (1e-3, "ms"), (1e-6, "µs")],
}


def base_unit(name: str) -> str:
    """The SI-style unit of a metric or field name, from its suffix (docs/metrics.md): ``_bps``
    bit/s, ``_s`` s, ``bytes`` bytes, fractions, packets or a count."""
    leaf = name.split(".")[-1] if not name.endswith((".sum", ".mean")) else name.split(".")[-2]
    leaf = re.sub(r"\[.*?\]", "", leaf)
    if leaf.endswith("_bps"):
        return "bit/s"
    if leaf.endswith("_s") or leaf in ("duration", "pause", "delay", "start", "stop", "interval"):
        return "s"
    if "bytes" in leaf:
        return "bytes"
    if leaf in ("pdf", "utilization") or leaf.endswith("fraction") or leaf == "p":
        return "fraction"
    if leaf.endswith("_mps"):
        return "m/s"
    if leaf.endswith("_m"):
        return "m"
    if "packets" in leaf or leaf.endswith("drops") or leaf in ("retransmissions", "fast_retransmits", "reordered"):
        return "packets"
    if leaf.startswith("cwnd"):
        return "bytes"  # RFC 5681 and RFC 9260 count cwnd in bytes
    if leaf in ("tsn", "cum_tsn") or leaf.startswith("tsn"):
        return "TSN"
    return "count"


#: Units of things counted: such axes get integer ticks.
COUNT_UNITS = ("packets", "count", "TSN")


def display_unit(base: str, values: Sequence[float]) -> Unit:
    """A readable scale for ``values`` given in ``base`` units (Mbit/s for megabit rates...)."""
    finite = [abs(v) for v in values if v is not None and math.isfinite(v)]
    peak = max(finite) if finite else 0.0
    if base in _SCALED:
        steps = _SCALED[base]
        for scale, label in steps:
            if peak >= scale:
                return Unit(label, scale)
        return Unit(steps[-1][1], steps[-1][0])
    if base == "fraction":
        return Unit("fraction, 0–1")
    return Unit(base)


def metric_label(name: str, unit: Unit) -> str:
    """``Goodput, sum over flows (Mbit/s)`` for ``flows.goodput_bps.sum``."""
    parts = name.split(".")
    where = ""
    if parts[0] == "flows" and len(parts) == 3 and parts[2] in ("sum", "mean"):
        leaf = parts[1]
        where = "sum over flows" if parts[2] == "sum" else "mean over flows"
    else:
        leaf = parts[-1]
        m = re.match(r"(flows|links)\[(\d+)\](?:\.(fwd|rev))?", name)
        if m:
            where = f"{'flow' if m.group(1) == 'flows' else 'link'} {m.group(2)}" + (f" {m.group(3)}" if m.group(3) else "")
    text = METRIC_NAMES.get(leaf, leaf.replace("_", " "))
    if where:
        text += f", {where}"
    return f"{text} ({unit.label})"


_QUANTITY = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-zµ/%]+)\s*$")
_UNIT_SCALE = {
    "ns": ("s", 1e-9), "us": ("s", 1e-6), "µs": ("s", 1e-6), "ms": ("s", 1e-3), "s": ("s", 1.0),
    "min": ("s", 60.0), "h": ("s", 3600.0),
    "bps": ("bit/s", 1.0), "kbps": ("bit/s", 1e3), "Kbps": ("bit/s", 1e3), "Mbps": ("bit/s", 1e6),
    "Gbps": ("bit/s", 1e9), "bit/s": ("bit/s", 1.0), "kbit/s": ("bit/s", 1e3),
    "Mbit/s": ("bit/s", 1e6), "Gbit/s": ("bit/s", 1e9),
}


def parameter_axis(path: str, values: Sequence[Any], base: str | None = None) -> tuple[list[float] | None, str]:
    """Numeric x positions and an axis label for a swept parameter's values. Quantities with
    units (``"2Mbps"``, ``"200ms"``) are converted to a common unit; plain numbers take the
    unit of the field name; anything else is categorical (``None``). The label is the
    parameter's readable name (:func:`parameter_name`). ``base`` overrides the unit the name
    implies (a table's field, ``speed_mps.max``, is in its table's unit)."""
    name = parameter_name(path)
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        nums = [float(v) for v in values]
        base = base or base_unit(path)
        if base == "count":
            return nums, name
        unit = display_unit(base, nums) if base in _SCALED else Unit("fraction, 0–1" if base == "fraction" else base)
        return [x / unit.scale for x in nums], f"{name} ({unit.label})"
    parsed = []
    for v in values:
        m = _QUANTITY.match(str(v)) if isinstance(v, str) else None
        if not m or m.group(2) not in _UNIT_SCALE:
            return None, name
        parsed.append((float(m.group(1)), *_UNIT_SCALE[m.group(2)]))
    bases = {b for _, b, _ in parsed}
    if len(bases) != 1:
        return None, name
    base = bases.pop()
    nums = [x * s for x, _, s in parsed]
    unit = display_unit(base, nums)
    return [x / unit.scale for x in nums], f"{name} ({unit.label})"


# ---------------------------------------------------------------------------------------------
# Figures


@dataclass
class Figure:
    """A written figure: its file and a caption for the report."""

    path: Path
    caption: str


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "sctpsim"  # stable element ids: reproducible SVG
    matplotlib.rcParams["pdf.fonttype"] = 42  # TrueType in PDF (editable text, accepted by publishers)

    return plt


#: Most link directions drawn in a link figure (queue, throughput): the busiest ones.
MAX_LINK_LINES = 8

#: Formats written for every figure, beside each other with the same stem: the PNG for the
#: report, PDF and SVG (vector) for papers.
FORMATS = ("png", "pdf", "svg")


def _save(fig: Any, path: Path) -> Path:
    """Write ``path`` (a ``.png``) and the same figure as ``.pdf`` and ``.svg``; returns the PNG."""
    for fmt in FORMATS:
        def w(tmp: str, fmt: str = fmt) -> None:
            # No embedded date or creator version: the same run plots to the same bytes.
            meta = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Creator": None, "Producer": None},
                    "svg": {"Date": None, "Creator": None}}[fmt]
            fig.savefig(tmp, format=fmt, dpi=150, metadata=meta)

        store.atomic_write(path.with_suffix(f".{fmt}"), w)
    _pyplot().close(fig)
    return path


def _new_axes(title: str) -> tuple[Any, Any]:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 4.4), layout="constrained")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    return fig, ax


def _legend(ax: Any, entries: int, title: str | None = None) -> None:
    """Inside the axes for a few entries, to the right of them for many."""
    if entries > 4:
        ax.figure.set_size_inches(10.5, 4.4)
        ax.legend(title=title, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:
        ax.legend(title=title, fontsize="small")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def read_sweep(sweep_dir: str | Path) -> tuple[pd.DataFrame, dict[str, Any], list[str]]:
    """``results.parquet``, the manifest (``{}`` if missing) and the swept parameters."""
    d = Path(sweep_dir)
    results = pd.read_parquet(d / store.RESULTS)
    try:
        manifest = json.loads((d / store.MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    params = manifest.get("params")
    if not isinstance(params, list):
        cols = list(results.columns)
        params = cols[: cols.index("point")] if "point" in cols else []
    return results, manifest, [str(p) for p in params]


def default_metrics(results: pd.DataFrame) -> list[str]:
    """Headline metrics present in ``results`` with at least one non-zero value."""
    ok = results[results["status"] == "ok"]
    out: list[str] = []
    seen: list[pd.Series] = []
    for m in HEADLINE_METRICS:
        if m in ok.columns:
            vals = pd.to_numeric(ok[m], errors="coerce").astype("float64").reset_index(drop=True)
            if not vals.notna().any() or not (vals.fillna(0) != 0).any():
                continue
            if any(vals.equals(s) for s in seen):
                continue  # e.g. the mean over flows of a single flow is its sum
            seen.append(vals)
            out.append(m)
    return out


def plot_sweep(sweep_dir: str | Path, metrics: Sequence[str] | None = None, out_dir: str | Path | None = None) -> list[Figure]:
    """The figures of a sweep directory (module docs); returns them in order."""
    d = Path(sweep_dir)
    results, manifest, params = read_sweep(d)
    figdir = Path(out_dir) if out_dir is not None else d / FIGURES
    figdir.mkdir(parents=True, exist_ok=True)
    chosen = list(metrics) if metrics else default_metrics(results)
    unknown = [m for m in chosen if m not in results.columns]
    if unknown:
        available = store.metric_columns(results, params)
        raise ValueError(f"--metric {unknown[0]!r}: no such metric in results.parquet; {store.metric_hint(unknown[0], available)}")
    figures: list[Figure] = []
    ok = results[results["status"] == "ok"]
    for metric in chosen:
        for x in params:
            fig = _metric_vs_param(ok, params, x, metric, figdir)
            if fig is not None:
                figures.append(fig)
    figures.extend(_sweep_timeseries(d, ok, params, figdir))
    return figures


def _metric_vs_param(ok: pd.DataFrame, params: list[str], x: str, metric: str, figdir: Path) -> Figure | None:
    others = [p for p in params if p != x]
    xs_all = list(dict.fromkeys(ok[x].tolist()))
    if not xs_all:
        return None
    positions, xlabel, ticks = sweep_axis(x, xs_all)
    categorical = positions is None
    pos = dict(zip(xs_all, positions if positions is not None else range(len(xs_all))))
    series_text = {p: parameter_values_text(p, ok[p].tolist()) for p in params if p != x}
    series_keys = [()] if not others else list(dict.fromkeys(tuple(r) for r in ok[others].itertuples(index=False)))
    if len(series_keys) > 12:
        return None  # unreadable; the report's table still has every point
    values = pd.to_numeric(ok[metric], errors="coerce").astype("float64")
    unit = display_unit(base_unit(metric), values.tolist())
    ylabel = metric_label(metric, unit)
    xname = xlabel.split(";")[0]
    xname = xname.rsplit(" (", 1)[0] if not categorical or table_values(xs_all) else xname
    if len(xname) > 1 and xname[0].isupper() and xname[1].islower():
        xname = xname[0].lower() + xname[1:]  # "… vs loss probability", but "… vs MSS"
    fig, ax = _new_axes(f"{ylabel.rsplit(' (', 1)[0]} vs {xname}")
    ns: set[int] = set()
    drawn = 0
    for skey in series_keys:
        sel = ok
        for p, v in zip(others, skey):
            sel = sel[sel[p] == v]
        pts = []
        for xv in xs_all:
            vals = pd.to_numeric(sel.loc[sel[x] == xv, metric], errors="coerce").astype("float64").tolist()
            st = stats.describe(vals)
            if st.n:
                ns.add(st.n)
                pts.append((pos[xv], st.mean / unit.scale, (st.ci if math.isfinite(st.ci) else 0.0) / unit.scale))
        if not pts:
            continue
        pts.sort()
        label = ", ".join(series_text[p][v] for p, v in zip(others, skey)) if others else "mean ± 95 % CI"
        # Categories are not a continuum: markers only, series side by side.
        shift = 0.08 * (drawn - (len(series_keys) - 1) / 2) if categorical else 0.0
        ax.errorbar([p[0] + shift for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], marker="o",
                    capsize=4, label=label, linestyle="none" if categorical else "-")
        drawn += 1
    if not drawn:
        _pyplot().close(fig)
        return None
    if categorical:
        ax.set_xticks(list(pos.values()), ticks)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if base_unit(metric) in COUNT_UNITS:
        _integer_ticks(ax.yaxis)
    if not categorical and base_unit(x) in COUNT_UNITS and all(float(v).is_integer() for v in pos.values()):
        _integer_ticks(ax.xaxis)
    n_text = f"n = {min(ns)}" if len(ns) == 1 else f"n = {min(ns)}–{max(ns)}"
    _legend(ax, drawn, title=f"{n_text} runs per point; bars: 95 % CI" if others else f"{n_text} runs per point")
    path = _save(fig, figdir / f"{_slug(metric)}-vs-{_slug(x)}.png")
    return Figure(path, f"{ylabel.rsplit(' (', 1)[0]} against {xname} (`{x}`): mean over replications with 95 % Student-t confidence bars ({n_text}).")


def _sweep_timeseries(d: Path, ok: pd.DataFrame, params: list[str], figdir: Path) -> list[Figure]:
    st = store.ResultStore(d)
    texts = {q: parameter_values_text(q, ok[q].tolist()) for q in params}
    curves: dict[int, list[pd.Series]] = {}
    labels: dict[int, str] = {}
    for rowd in ok.to_dict("records"):
        p = st.timeseries_path(str(rowd["key"]))
        if not p.exists():
            continue
        ts = pd.read_parquet(p)
        g = ts[(ts["scope"] == "flow") & (ts["metric"] == "goodput_bps")].groupby("time_s")["value"].sum()
        point = int(rowd["point"])
        curves.setdefault(point, []).append(g)
        labels[point] = ", ".join(texts[q].get(rowd.get(q), f"{q}={rowd.get(q, '')}") for q in params) if params else "all runs"
    if not curves:
        return []
    allvals = [v for cs in curves.values() for c in cs for v in c.tolist()]
    unit = display_unit("bit/s", allvals)
    fig, ax = _new_axes("Throughput vs time (goodput summed over flows)")
    for point in sorted(curves):
        frame = pd.concat(curves[point], axis=1)
        rows = [stats.describe(r) for r in frame.itertuples(index=False)]
        t = frame.index.to_numpy()
        mean = [s.mean / unit.scale for s in rows]
        ci = [(s.ci if math.isfinite(s.ci) else 0.0) / unit.scale for s in rows]
        line = ax.plot(t, mean, label=f"{labels[point]} (n = {frame.shape[1]})")[0]
        ax.fill_between(t, [m - c for m, c in zip(mean, ci)], [m + c for m, c in zip(mean, ci)], color=line.get_color(), alpha=0.2)
    ax.set_xlabel("Time (s)")
    ax.set_ylabel(f"Goodput ({unit.label})")
    _legend(ax, len(curves), title="mean, band: 95 % CI")
    path = _save(fig, figdir / "throughput-vs-time.png")
    return [Figure(path, "Goodput summed over flows against time per grid point: mean over replications, 95 % band.")]


# ---------------------------------------------------------------------------------------------
# A single run


def _is_cwnd(m: str) -> bool:
    return m.startswith("cwnd")


def _is_seq(m: str) -> bool:
    return m.startswith(("tsn", "seq", "cum_tsn", "highest_tsn", "snd_nxt", "snd_una", "dropped_seq", "dropped_tsn"))


def _is_event(m: str) -> bool:
    """Series of isolated events (retransmissions, drops): drawn as markers, not lines."""
    return "rtx" in m or m.startswith(("dropped", "fast_retransmit", "timeout"))


def _is_sent(m: str) -> bool:
    """Series with a row per transmission (not a state held between changes): a pause in sending
    is a gap in the data, and the line is broken there (:func:`break_gaps`)."""
    return m in ("tsn_sent", "seq_sent")


#: A transmission series is broken where nothing was sent for this many sample intervals (or this
#: many of the series' own median spacing, for senders slower than the sampling).
GAP_INTERVALS = 5.0

#: Markers of event series, the same in every figure and panel (other events: coloured crosses).
EVENT_STYLES: dict[str, dict[str, Any]] = {
    "dropped": {"marker": "x", "color": "black"},
    "tsn_fast_rtx": {"marker": "+", "color": "C3", "markeredgewidth": 1.5},
    "tsn_t3_rtx": {"marker": "+", "color": "C1", "markeredgewidth": 1.5},
    "tsn_early_rtx": {"marker": "+", "color": "C4", "markeredgewidth": 1.5},
}

#: Legend names of the sequence/TSN series.
SEQ_NAMES = {
    "tsn_sent": "TSN sent (first transmission)",
    "tsn_fast_rtx": "fast retransmission",
    "tsn_t3_rtx": "T3-rtx retransmission",
    "tsn_early_rtx": "early retransmission",
    "tsn_acked": "cumulative TSN ack",
    "dropped_tsn": "dropped",
}


def break_gaps(t: Sequence[float], y: Sequence[float], max_gap: float) -> tuple[list[float], list[float]]:
    """``t, y`` with a NaN point inserted after every sample followed by a pause longer than
    ``max_gap``, so a plotted line stops there instead of joining the points on either side. The
    NaN takes the time of the sample before the pause (a ``steps-post`` line then ends at that
    sample, too). ``t`` must be sorted."""
    ts_out: list[float] = []
    ys_out: list[float] = []
    for k, (tk, yk) in enumerate(zip(t, y)):
        if k and tk - t[k - 1] > max_gap:
            ts_out.append(float(t[k - 1]))
            ys_out.append(math.nan)
        ts_out.append(float(tk))
        ys_out.append(float(yk))
    return ts_out, ys_out


def sample_interval(ts: pd.DataFrame) -> float | None:
    """The run's sample interval (``simulation.sample_interval``), from the spacing of the sampled
    series; ``None`` if it has none."""
    sampled = ts[ts["metric"].isin(["goodput_bps", "throughput_bps", "queue_packets"])]
    if sampled.empty:
        return None
    diffs = pd.Series(sorted(sampled["time_s"].unique())).diff().dropna()
    diffs = diffs[diffs > 0]
    return float(diffs.median()) if not diffs.empty else None


def _gap_limit(t: Sequence[float], interval: float | None) -> float:
    diffs = pd.Series(list(t)).diff().dropna()
    diffs = diffs[diffs > 0]
    own = float(diffs.median()) if not diffs.empty else 0.0
    return GAP_INTERVALS * max(interval or 0.0, own) if (interval or own) else math.inf


def _integer_ticks(axis: Any) -> None:
    """Integer ticks on a count axis; an axis spanning less than one unit (all zero) is widened
    to 0–1, where integer ticks exist."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))
    lo, hi = axis.get_view_interval()
    if hi - lo < 1.0:
        lo2 = float(math.floor(lo))
        hi2 = lo2 + 1.0 if hi <= lo2 + 1.0 else lo2 + 2.0
        (axis.axes.set_ylim if axis.axis_name == "y" else axis.axes.set_xlim)(lo2, hi2)


def _is_path_row(metric: str, dr: str) -> bool:
    """SCTP per-path rows carry the destination address in ``dir`` (docs/metrics.md)."""
    return bool(dr) and not metric.startswith(("dropped", "net_event", "message_delay")) and not dr.startswith("stream")


def _drop_paths(rows: pd.DataFrame) -> pd.Series:
    """The destination each ``dropped_tsn`` row's chunk was sent to: that of the latest
    transmission (``tsn_sent``, ``tsn_*_rtx``) of the same TSN at or before the drop."""
    drops = rows[rows["metric"] == "dropped_tsn"]
    if drops.empty:
        return pd.Series(dtype="object")
    tx = rows[rows["metric"].str.startswith("tsn_") & (rows["metric"] != "tsn_acked") & (rows["dir"] != "")]
    left = drops[["time_s", "scope", "id", "value"]].reset_index().sort_values("time_s")
    right = tx[["time_s", "scope", "id", "value", "dir"]].rename(columns={"dir": "path"}).sort_values("time_s")
    merged = pd.merge_asof(left, right, on="time_s", by=["scope", "id", "value"], direction="backward")
    return merged.set_index("index")["path"].fillna("").astype(str)


def plot_run(run_dir: str | Path, out_dir: str | Path | None = None) -> tuple[list[Figure], list[str]]:
    """The figures of a run directory, and notes on figures left out (no such time series)."""
    d = Path(run_dir)
    ts = pd.read_parquet(d / "timeseries.parquet")
    ts["dir"] = ts["dir"].fillna("").astype(str)
    try:
        summary = json.loads((d / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        summary = {}
    flow_names = {
        int(f["id"]): f"flow {f['id']}: {f.get('src', '?')}→{f.get('dst', '?')} ({f.get('transport', '?')})"
        for f in summary.get("flows", [])
    }
    link_names = {
        (int(link["id"]), str(link["dir"])): f"link {link['id']} {link['dir']}: {link.get('from', '?')}→{link.get('to', '?')}"
        for link in summary.get("links", [])
    }
    primaries = {
        (int(p["flow"]), str(p["addr"])) for p in summary.get("paths", []) if p.get("side") == "sender" and p.get("primary")
    }
    interval = sample_interval(ts)
    end_s = float(summary.get("sim_time_s") or ts["time_s"].max())
    figdir = Path(out_dir) if out_dir is not None else d / FIGURES
    figdir.mkdir(parents=True, exist_ok=True)
    figures: list[Figure] = []
    notes: list[str] = []
    metrics = set(ts["metric"].unique())

    def path_name(i: int, addr: str) -> str:
        return f"path {addr}" + (" (primary)" if (i, addr) in primaries else "")

    def draw(ax: Any, sel: pd.DataFrame, unit: Unit, label_of: Any, panel: bool = False) -> int:
        """One line (or marker series) per (scope, id, dir, metric) group; returns how many."""
        styles = ["-", "--", "-.", ":"]  # overlapping lines (equal links) stay visible
        groups = 0
        for k, ((sc, i, dr, m), g) in enumerate(sel.groupby(["scope", "id", "dir", "metric"], sort=True)):
            label = label_of(sc, int(i), str(dr), str(m))
            g = g.sort_values("time_s")
            t, y = g["time_s"].tolist(), (g["value"] / unit.scale).tolist()
            groups += 1
            if _is_event(m):
                style = EVENT_STYLES.get("dropped" if m.startswith("dropped") else m, {"marker": "x"})
                ax.plot(t, y, label=label, linestyle="none", markersize=6, **style)
                continue
            step = "steps-post" if m.startswith(("cwnd", "tsn", "seq", "cum_tsn", "snd_")) else "default"
            if m.startswith("cwnd") and t and t[-1] < end_s:
                # cwnd rows are written when the window changes: the last value holds to the end.
                t, y = t + [end_s], y + [y[-1]]
            if m in ("tsn_acked", "cum_tsn"):
                # The reference the transmissions are read against: thin, grey, underneath.
                ax.plot(t, y, label=label, drawstyle=step, color="0.45", linewidth=1.0, zorder=1.5)
                continue
            if _is_sent(m):
                t, y = break_gaps(t, y, _gap_limit(t, interval))
            color = {"color": "C0"} if m == "tsn_sent" and panel else {}
            line = ax.plot(t, y, label=label, drawstyle=step, linestyle="-" if panel else styles[k % len(styles)],
                           linewidth=1.8, **color)[0]
            if _is_sent(m):
                # A lone transmission between two pauses has no line segment: a dot instead.
                lone = [(a, b) for n, (a, b) in enumerate(zip(t, y)) if math.isfinite(b)
                        and (n == 0 or not math.isfinite(y[n - 1])) and (n == len(y) - 1 or not math.isfinite(y[n + 1]))]
                if lone:
                    ax.plot([a for a, _ in lone], [b for _, b in lone], linestyle="none", marker="o", markersize=3,
                            color=line.get_color())
        return groups

    def default_label(several: bool) -> Any:
        def label_of(sc: str, i: int, dr: str, m: str) -> str:
            if sc == "flow":
                label = flow_names.get(i, f"flow {i}")
                if _is_path_row(m, dr):
                    label += f", {path_name(i, dr)}"
            else:
                label = link_names.get((i, dr), f"{sc} {i} {dr}".strip())
            if m.startswith("dropped") and dr:
                return label + f" [{m}: {dr}]"
            return label + (f" [{m}]" if several else "")

        return label_of

    def finish(ax: Any, sel: pd.DataFrame, base: str, ylabel: str, groups: int, xlabel: bool = True) -> None:
        if xlabel:
            ax.set_xlabel("Time (s)")
        if (sel["value"] >= 0).all():
            ax.set_ylim(bottom=0)
        if base in COUNT_UNITS:
            _integer_ticks(ax.yaxis)
        ax.set_ylabel(ylabel)
        _legend(ax, groups)

    def series(scope: str, select: Any, title: str, fname: str, caption: str, ylabel: str | None = None,
               base: str | None = None, frame: pd.DataFrame | None = None) -> None:
        src = ts if frame is None else frame
        sel = src[(src["scope"] == scope) & src["metric"].map(select)] if scope else src[src["metric"].map(select)]
        if sel.empty:
            return
        if scope == "link":
            # A topology of dozens of links made a legend taller than the figure (aydin2004's
            # road: 40 link directions, the axes collapsed). The busiest directions only; the
            # rest are idle or nearly so, and all are in timeseries.parquet.
            load = sel.groupby(["id", "dir"])["value"].apply(lambda v: float(v.abs().sum()))
            busy = load[load > 0].sort_values(ascending=False, kind="stable")
            # All idle (no queue ever formed): drawn as before, every line at zero says so.
            if len(busy) > MAX_LINK_LINES or 0 < len(busy) < len(load):
                keep = set(busy.index[:MAX_LINK_LINES])
                what = "busiest" if len(busy) > MAX_LINK_LINES else "non-idle"
                caption += (f" The {len(keep)} {what} of {len(load)} link directions (by their sum over the run); "
                            "the others are in timeseries.parquet.")
                sel = sel[[k in keep for k in zip(sel["id"], sel["dir"])]]
        names = sorted(sel["metric"].unique())
        base = base or base_unit(names[0])
        unit = display_unit(base, sel["value"].tolist())
        fig, ax = _new_axes(title)
        groups = draw(ax, sel, unit, default_label(len(names) > 1))
        leaf = names[0]
        finish(ax, sel, base, ylabel.format(unit=unit.label) if ylabel else f"{METRIC_NAMES.get(leaf, leaf.replace('_', ' ').capitalize())} ({unit.label})", groups)
        figures.append(Figure(_save(fig, figdir / fname), caption))

    def path_panels(frame: pd.DataFrame, ylabel: str, base: str) -> bool:
        """Multi-path SCTP: the sequence/TSN figure with one panel per destination address of
        each multi-path flow (and one for all other flows). False if no flow is multi-path."""
        tx = frame[(frame["scope"] == "flow") & frame["metric"].str.startswith("tsn_") & (frame["metric"] != "tsn_acked")
                   & (frame["dir"] != "")]
        paths_of = tx.groupby("id")["dir"].unique()
        multi = {int(i): sorted(map(str, v), key=lambda a: ((int(i), a) not in primaries, a)) for i, v in paths_of.items() if len(v) > 1}
        if not multi:
            return False
        frame = frame.copy()
        frame["path"] = frame["dir"].where([_is_path_row(m, dr) for m, dr in zip(frame["metric"], frame["dir"])], "")
        frame.loc[frame["metric"] == "dropped_tsn", "path"] = _drop_paths(frame)
        panels: list[tuple[str, pd.DataFrame]] = []
        for i, addrs in sorted(multi.items()):
            mine = frame[(frame["scope"] == "flow") & (frame["id"] == i)]
            for addr in addrs:
                # The association-wide cumulative ack in every panel of the flow, as the reference.
                panels.append((f"{flow_names.get(i, f'flow {i}')}: {path_name(i, addr)}",
                               mine[(mine["path"] == addr) | (mine["metric"] == "tsn_acked")]))
        rest = frame[~((frame["scope"] == "flow") & frame["id"].isin(list(multi)))]
        if not rest.empty:
            panels.append(("other flows", rest))
        unit = display_unit(base, frame["value"].tolist())
        plt = _pyplot()
        fig, axes = plt.subplots(len(panels), 1, figsize=(9.0, 1.0 + 2.6 * len(panels)), sharex=True, sharey=True,
                                 layout="constrained", squeeze=False)
        fig.suptitle("TSN vs time, per path")
        fig.supylabel(ylabel.format(unit=unit.label), fontsize="medium")

        def label_of(sc: str, i: int, dr: str, m: str) -> str:
            if i in multi and sc == "flow":
                text = SEQ_NAMES.get(m, m)
                return f"{text} ({dr})" if m.startswith("dropped") and dr else text
            return default_label(True)(sc, i, dr, m)

        for n, (ax, (title, sel)) in enumerate(zip(axes[:, 0], panels)):
            ax.set_title(title, fontsize="medium")
            ax.grid(True, alpha=0.3)
            groups = draw(ax, sel.drop(columns="path"), unit, label_of, panel=True)
            finish(ax, sel, base, "", groups, xlabel=n == len(panels) - 1)
            if groups > 4:
                fig.set_size_inches(12.0, fig.get_size_inches()[1])
        listed = ", ".join(a for i in sorted(multi) for a in multi[i])
        figures.append(Figure(_save(fig, figdir / "sequence.png"),
                              f"TSNs against time, one panel per path ({listed}): first transmissions (the line breaks "
                              "where the path sent nothing), retransmissions and drops (crosses; drops with their reason), "
                              "and the association's cumulative TSN ack."))
        return True

    from sctpsim import plot_wireless as wl

    def flow_series(metric: str, title: str, fname: str, caption: str, what: str, base: str) -> None:
        """One line per flow, or with many flows their sum and spread (plot_wireless)."""
        sel = ts[(ts["scope"] == "flow") & (ts["metric"] == metric)]
        if not sel.empty and wl.many_flows(sel):
            figures.append(wl.flows_aggregate_figure(sel, base, what, title.replace(" per flow", ""), fname, summary, figdir))
        else:
            series("flow", lambda m: m == metric, title, fname, caption)

    flow_series("goodput_bps", "Throughput vs time (goodput per flow)", "throughput.png",
                "Goodput of each flow against time, per sample interval.", "Goodput", "bit/s")
    flow_series("bytes_delivered", "Data delivered vs time", "delivered.png",
                "Cumulative payload delivered to each flow's sink against time.", "Data delivered", "bytes")
    if any(_is_cwnd(m) for m in metrics):
        series("", _is_cwnd, "Congestion window vs time", "cwnd.png",
               "Congestion window against time (per path for SCTP: the destination address).")
    else:
        notes.append("no cwnd figure: the run has no cwnd time series (no window-based transport).")
    primary = {m for m in metrics if _is_seq(m) and not m.startswith("dropped")}
    if primary:
        # Drop records join the figure only for flows that report sequence numbers (a UDP
        # flow's dropped_seq counts packets, not bytes or TSNs).
        seq_rows = ts[ts["metric"].isin(primary)]
        owners = set(zip(seq_rows["scope"], seq_rows["id"]))
        is_drop = ts["metric"].str.startswith("dropped")
        keep = ts["metric"].map(_is_seq) & (~is_drop | pd.Series([k in owners for k in zip(ts["scope"], ts["id"])], index=ts.index))
        seq_frame = ts[keep]
        named = [m for m in sorted(set(seq_frame["metric"])) if not m.startswith("dropped")]
        if all("tsn" in m for m in named):
            label, base, title = "TSN (chunks, relative to the initial TSN)", "TSN", "TSN vs time"
        elif not any("tsn" in m for m in named):
            label, base, title = "Sequence number ({unit})", "bytes", "Sequence number vs time"
        else:
            label, base, title = "Sequence number (bytes) / TSN (chunks)", "count", "Sequence number / TSN vs time"
        if not path_panels(seq_frame, label, base):
            series("", _is_seq, title, "sequence.png",
                   "Sequence numbers (TCP) or TSNs (SCTP) against time; crosses mark drops and retransmissions.",
                   ylabel=label, base=base, frame=seq_frame)
    else:
        notes.append("no sequence/TSN figure: the run has no seq or tsn time series (no TCP or SCTP flow).")
    series("link", lambda m: m == "throughput_bps", "Link throughput vs time", "link-throughput.png",
           "IP throughput of each link direction against time.")
    series("link", lambda m: m == "queue_packets", "Queue occupancy vs time", "queue.png",
           "Packets waiting in each link direction's queue at the sample times.")
    assoc_fig, assoc_notes = wl.association_figure(ts, d, end_s, figdir)
    notes.extend(assoc_notes)
    mac_fig, mac_notes = wl.mac_figure(ts, figdir)
    notes.extend(mac_notes)
    figures.extend(f for f in (assoc_fig, mac_fig) if f is not None)
    return figures, notes


# ---------------------------------------------------------------------------------------------
# Command line


def table_problem(path: Path, columns: Sequence[str]) -> str | None:
    """What makes ``path`` unusable as an sctpsim table with ``columns``: not Parquet (a
    corrupt or foreign file), or columns missing (a table of another program or version);
    None if it is fine. Only the schema is read, so the check is cheap even for a big table."""
    import pyarrow.parquet as pq

    try:
        names = pq.read_schema(path).names
    except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
        return f"cannot read it as a Parquet table ({e})"
    missing = [c for c in columns if c not in names]
    if missing:
        return f"not a table sctpsim wrote: no column {', '.join(repr(c) for c in missing)}"
    return None


#: What ``sctpsim plot`` last wrote into a directory (``{"figures": [stems], "report": bool}``),
#: so that the next plot, or a new run written there, removes exactly those files and never
#: figures of another origin (a reproduction's, the user's).
PLOT_MANIFEST = ".sctpsim-plot.json"


def remove_plot_outputs(d: Path, keep: Sequence[Figure] = (), keep_report: bool = False) -> None:
    """Remove what the last ``sctpsim plot`` of ``d`` wrote (:data:`PLOT_MANIFEST`) except the
    figures in ``keep`` (and ``report.md`` when ``keep_report``): figures of an earlier run,
    or of flows and metrics the run now plotted does not have, would otherwise pass for its
    own. A run directory plotted before the manifest existed (``run.json`` and no manifest)
    has all its figures and ``report.md`` treated as the plot's. Other files stay."""
    from sctpsim.report import REPORT

    figdir = d / FIGURES
    try:
        doc = json.loads((d / PLOT_MANIFEST).read_text(encoding="utf-8"))
        stems = [str(x) for x in doc.get("figures", [])]
        report = bool(doc.get("report"))
    except (OSError, ValueError, AttributeError):
        legacy_run = (d / "run.json").is_file() and figdir.is_dir()
        stems = sorted({p.stem for p in figdir.iterdir()}) if legacy_run else []
        report = legacy_run
    kept = {Path(f.path).stem for f in keep}
    for stem in stems:
        if stem not in kept and "/" not in stem and stem not in ("", ".", ".."):
            for fmt in FORMATS:
                (figdir / f"{stem}.{fmt}").unlink(missing_ok=True)
    if report and not keep_report:
        (d / REPORT).unlink(missing_ok=True)
    if figdir.is_dir() and not any(figdir.iterdir()):
        figdir.rmdir()


def record_plot_outputs(d: Path, figures: Sequence[Figure], report: bool) -> None:
    """Write :data:`PLOT_MANIFEST`: the figures (stems) and whether ``report.md`` was written."""
    doc = {"figures": [Path(f.path).stem for f in figures], "report": report}
    store.atomic_write_bytes(d / PLOT_MANIFEST, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))


def cli_main(args: argparse.Namespace) -> int:
    """``sctpsim plot DIR``: figures into DIR/figures/ and DIR/report.md."""
    d = Path(args.dir)
    if not d.is_dir():
        sys.stderr.write(f"sctpsim: error: {d}: no such directory\n")
        return 2
    try:
        _pyplot()
    except ImportError:
        sys.stderr.write("sctpsim: error: sctpsim plot needs matplotlib (a dependency of sctpsim): pip install matplotlib\n")
        return 2
    notes: list[str] = []
    if (d / store.RESULTS).is_file():
        problem = table_problem(d / store.RESULTS, ["point", "replication", "seed", "status"])
        if problem:
            sys.stderr.write(f"sctpsim: error: {d / store.RESULTS}: {problem}\n")
            return 2
        try:
            figures = plot_sweep(d, args.metrics or None)
        except (OSError, ValueError) as e:
            sys.stderr.write(f"sctpsim: error: {e}\n")
            return 2
        if not read_sweep(d)[2]:
            notes.append("no metric-vs-parameter figures: the sweep varied nothing (replications only).")
        kind = "sweep"
    elif (d / "timeseries.parquet").is_file():
        if args.metrics:
            sys.stderr.write("sctpsim: error: --metric applies to sweep directories\n")
            return 2
        from sctpsim.results import TIMESERIES_COLUMNS

        ts_path = d / "timeseries.parquet"
        problem = table_problem(ts_path, TIMESERIES_COLUMNS)
        if problem:
            sys.stderr.write(f"sctpsim: error: {ts_path}: {problem}\n")
            return 2
        try:
            figures, notes = plot_run(d)
        except (OSError, ValueError) as e:  # a table whose schema reads but whose data does not
            sys.stderr.write(f"sctpsim: error: {d}: cannot read the run's tables ({e})\n")
            return 2
        kind = "run"
    else:
        sys.stderr.write(f"sctpsim: error: {d}: neither a sweep directory (results.parquet) nor a run directory (timeseries.parquet)\n")
        return 2
    remove_plot_outputs(d, keep=figures, keep_report=not args.no_report)
    for f in figures:
        print(f.path)
    for n in notes:
        print(f"note: {n}")
    if not args.no_report:
        from sctpsim.report import write_report

        print(write_report(d, figures, notes=notes))
    record_plot_outputs(d, figures, report=not args.no_report)
    print(f"{len(figures)} figure{'s' if len(figures) != 1 else ''} of the {kind} written to {d / FIGURES}/")
    return 0


__all__ = [
    "Figure",
    "HEADLINE_METRICS",
    "METRIC_NAMES",
    "PARAM_NAMES",
    "base_unit",
    "break_gaps",
    "display_unit",
    "metric_label",
    "parameter_axis",
    "parameter_name",
    "plot_run",
    "plot_sweep",
    "parameter_values_text",
    "read_sweep",
    "readable_path",
    "record_plot_outputs",
    "remove_plot_outputs",
    "sweep_axis",
    "table_problem",
    "table_values",
]
