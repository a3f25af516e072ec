"""The per-packet trace (`sctpsim run --trace`, ``sctpsim.run(trace=...)``): its options and
the DataFrame of ``trace.parquet`` (columns in docs/metrics.md, "trace.parquet").

The core records the rows (crates/engine/src/trace.rs) and hands each column over as one block
of bytes; here they become a DataFrame with the repeated strings (node, interface, layer,
event, reason, protocol, addresses) as categoricals, so a trace of millions of rows costs about
40 bytes a row, not a Python object per cell."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

#: Column order of trace.parquet (docs/metrics.md).
TRACE_COLUMNS = [
    "time_ns", "node", "interface", "layer", "event", "reason", "flow", "protocol", "src", "dst",
    "size_bytes", "uid",
]

#: The layers a row can be at, for the ``layers`` filter.
LAYERS = ("link", "mac", "ip", "phy")


@dataclass(frozen=True)
class Trace:
    """What to trace. Empty filters keep everything; filters of different kinds must all match,
    entries of one kind are alternatives. ``flows`` are ids as in ``flows.parquet`` (packets of
    no flow — routing control, ICMP, beacons — are then left out); ``layers`` from `LAYERS`;
    ``max_rows`` bounds the rows kept (default 10 million, at most 50 million): past it the
    trace stops and ``summary["trace"]["truncated"]`` is true. Bad values raise
    :class:`sctpsim.ScenarioError` naming the option (``trace.nodes[1]``) before the run."""

    nodes: Sequence[str] = field(default_factory=tuple)
    flows: Sequence[int] = field(default_factory=tuple)
    layers: Sequence[str] = field(default_factory=tuple)
    max_rows: int | None = None

    def to_native(self) -> dict[str, Any]:
        """The options as `_native.run` takes them."""
        return {"nodes": list(self.nodes), "flows": list(self.flows), "layers": list(self.layers),
                "max_rows": self.max_rows}


def native_options(trace: Trace | bool | dict[str, Any] | None) -> dict[str, Any] | None:
    """``trace=`` of `sctpsim.run` as `_native.run` takes it: None/False no trace, True
    everything, a `Trace` or a dict with its fields."""
    if trace is None or trace is False:
        return None
    if trace is True:
        return {}
    if isinstance(trace, Trace):
        return trace.to_native()
    if isinstance(trace, dict):
        return dict(trace)
    raise TypeError(f"trace must be a bool, a sctpsim.Trace or a dict, not {type(trace).__name__}")


def truncation_warning(summary: dict[str, Any]) -> str | None:
    """The warning for a trace that stopped at its bound, or None."""
    t = summary.get("trace")
    if not isinstance(t, dict) or not t.get("truncated"):
        return None
    return (f"the packet trace stopped at its bound of {t['max_rows']} rows; later packets are "
            "not in it (raise max_rows, or trace fewer nodes, flows or layers)")


def _categorical(codes: np.ndarray, names: Sequence[str]) -> pd.Categorical:
    return pd.Categorical.from_codes(codes.astype(np.int64), categories=list(names))


def _addresses(values: np.ndarray) -> pd.Categorical:
    """IPv4 addresses (as u32) → categorical of their dotted text."""
    distinct, codes = np.unique(values, return_inverse=True)
    names = [str(ipaddress.IPv4Address(int(v))) for v in distinct]
    return pd.Categorical.from_codes(codes.reshape(-1).astype(np.int64), categories=names)


def _interfaces(node: np.ndarray, iface: np.ndarray, names_by_node: list[list[str]]) -> pd.Categorical:
    """(node, interface index) → categorical of the interface's name; null at the IP layer."""
    names = sorted({n for per_node in names_by_node for n in per_node})
    index = {n: k for k, n in enumerate(names)}
    offsets = np.zeros(len(names_by_node) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(per_node) for per_node in names_by_node])
    flat = np.array([index[n] for per_node in names_by_node for n in per_node], dtype=np.int64)
    codes = np.full(len(iface), -1, dtype=np.int64)
    below_ip = iface >= 0
    codes[below_ip] = flat[offsets[node[below_ip]] + iface[below_ip]]
    return pd.Categorical.from_codes(codes, categories=names)


def trace_frame(raw: dict[str, Any]) -> pd.DataFrame:
    """The DataFrame of ``trace.parquet`` from the core's columns (`_native.run`'s ``trace``)."""
    c = raw["columns"]

    def col(name: str, dtype: Any) -> np.ndarray:
        return np.frombuffer(c[name], dtype=dtype)

    node = col("node", np.uint32).astype(np.int64)
    flow = col("flow", np.int32)
    return pd.DataFrame({
        "time_ns": col("time_ns", np.uint64),
        "node": _categorical(node, raw["node_names"]),
        "interface": _interfaces(node, col("iface", np.int32).astype(np.int64), raw["iface_names"]),
        "layer": _categorical(col("layer", np.uint8), raw["layers"]),
        "event": _categorical(col("event", np.uint8), raw["events"]),
        "reason": _categorical(col("reason", np.uint8), raw["reasons"]),
        "flow": pd.arrays.IntegerArray(flow.astype(np.int64), flow < 0),
        "protocol": _categorical(col("protocol", np.uint8), raw["protocols"]),
        "src": _addresses(col("src", np.uint32)),
        "dst": _addresses(col("dst", np.uint32)),
        "size_bytes": col("size_bytes", np.uint32),
        "uid": col("uid", np.uint64),
    }, columns=TRACE_COLUMNS)
