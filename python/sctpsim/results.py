"""Results of one run: summary, flows, links and time series as pandas DataFrames, and the
writer of the run directory (`summary.json`, `flows.parquet`, `links.parquet`,
`timeseries.parquet`, `run.json`, the tables of `OPTIONAL_TABLES` when not empty,
`trace.parquet` when the run was traced, and the captures in `pcap/`). Every file is written to a temporary name and renamed, so an interrupted
write never leaves a truncated file. A run directory holds one run: writing into a directory of
an earlier run removes that run's files the new run does not write, and nothing else."""

from __future__ import annotations

import json
from datetime import datetime, timezone
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import pandas as pd

from sctpsim.store import new_temp_file
from sctpsim.trace import trace_frame

if TYPE_CHECKING:
    from sctpsim.scenario import Scenario

#: Column order of flows.parquet (docs/metrics.md).
FLOW_COLUMNS = [
    "id", "transport", "app", "src", "dst", "bytes_sent", "bytes_delivered", "goodput_bps",
    "packets_sent", "packets_delivered", "delivered_fraction", "retransmissions",
    "fast_retransmits", "timeouts", "mean_rtt_s", "mean_delay_s", "reordered",
]

#: Column order of timeseries.parquet.
TIMESERIES_COLUMNS = ["time_s", "scope", "id", "dir", "metric", "value"]

#: Tables written only when they have rows (a wired run has no `macs.parquet`).
OPTIONAL_TABLES = ("macs", "sctp", "paths", "streams", "routing", "drops")

#: Every file a run writes at the top of its directory. `RunResult.write` removes the ones the
#: new run does not write, so a reused `--out` never shows an earlier run's table as if it were
#: this run's; files not on this list (the user's) are left alone.
RUN_FILES = ("summary.json", "run.json", "flows.parquet", "links.parquet", "timeseries.parquet") + tuple(
    f"{name}.parquet" for name in OPTIONAL_TABLES
) + ("trace.parquet",)

#: Subdirectory of the captures (`--pcap`), `<node>-<iface>.pcap`.
PCAP_DIR = "pcap"


@dataclass
class RunResult:
    """What one run produced."""

    summary: dict[str, Any]
    manifest: dict[str, Any]
    flows: pd.DataFrame
    links: pd.DataFrame
    timeseries: pd.DataFrame
    pcap_files: list[str] = field(default_factory=list)
    scenario: Scenario | None = None
    #: One row per wireless interface: MAC and radio counters (`macs.parquet`; empty without
    #: wireless nodes).
    macs: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: One row per SCTP association (`sctp.parquet`; empty without SCTP flows).
    sctp: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: One row per destination of each SCTP association side (`paths.parquet`).
    paths: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: One row per stream of each SCTP association (`streams.parquet`).
    streams: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: One row per node and routing message type (`routing.parquet`; empty with static
    #: routing).
    routing: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: Dropped packets per flow and reason (`drops.parquet`; empty when nothing was dropped).
    drops: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: The per-packet trace (`trace.parquet`, columns `sctpsim.trace.TRACE_COLUMNS`); None when
    #: the run was not traced.
    trace: pd.DataFrame | None = None

    def __repr__(self) -> str:
        s = self.summary
        n = len(self.flows)
        return (f"RunResult({s.get('name')!r}, seed={s.get('seed')}, sim_time={s.get('sim_time_s')} s, "
                f"events={s.get('events')}, {n} flow{'s' if n != 1 else ''}"
                + (", interrupted)" if self.interrupted else ")"))

    def _repr_html_(self) -> str:
        """Jupyter's display: the run's summary and its flows table."""
        from sctpsim import _display as d

        s = self.summary
        rows = [("seed", s.get("seed")), ("simulated time", f"{s.get('sim_time_s')} s"),
                ("events", s.get("events")), ("wall time", f"{float(s.get('wall_time_s') or 0):.3f} s")]
        if self.interrupted:
            rows.append(("interrupted", "yes: stopped before its configured duration"))
        if self.scenario is not None:
            rows.insert(0, ("scenario", self.scenario.source))
        network = s.get("network")
        if isinstance(network, dict):
            rows += [(f"network.{k}", d.inline(v)) for k, v in network.items() if not isinstance(v, (dict, list))]
        parts = [d.title("RunResult", str(s.get("name") or "")), d.table(rows)]
        parts.append(f"<p>Flows ({len(self.flows)})</p>")
        parts.append(self.flows.to_html(index=False, max_rows=30, max_cols=20))
        return "".join(parts)

    @property
    def interrupted(self) -> bool:
        """Whether the run stopped before its configured duration."""
        return bool(self.summary.get("interrupted", False))

    @classmethod
    def from_native(cls, raw: dict[str, Any], scenario: Scenario | None = None) -> RunResult:
        summary = json.loads(raw["summary"])
        manifest = json.loads(raw["manifest"])
        flows = pd.DataFrame(summary["flows"], columns=FLOW_COLUMNS)
        for col in ("mean_rtt_s", "mean_delay_s"):
            flows[col] = flows[col].astype("float64")
        links = pd.DataFrame(summary["links"])
        ts = raw["timeseries"]
        timeseries = pd.DataFrame({c: ts[c] for c in TIMESERIES_COLUMNS})
        timeseries = timeseries.astype({"time_s": "float64", "id": "int64", "value": "float64"})
        macs = pd.DataFrame(summary.get("macs", []))
        sctp = {k: pd.DataFrame(summary.get(k, [])) for k in ("sctp", "paths", "streams", "routing", "drops")}
        trace = trace_frame(raw["trace"]) if raw.get("trace") is not None else None
        return cls(summary, manifest, flows, links, timeseries, list(raw["pcap_files"]), scenario, macs=macs,
                   trace=trace, **sctp)

    def write(self, out_dir: str | Path, command: Sequence[str] | None = None) -> Path:
        """Write the run directory; returns its path. An earlier run's files in it that this run
        does not write (`RUN_FILES`, captures in ``pcap/``) are removed; other files stay.

        ``run.json`` is the core's manifest (version, scenario hash, seed, events, times) plus
        what reproduces the run without this directory's surroundings: ``code_version`` (the
        package version and a hash of the compiled core, as sweep keys use it), the scenario's
        ``scenario_source``, full ``scenario_text`` and ``overrides``, the ``command`` line when
        given, and ``written_at`` (UTC)."""
        from sctpsim.sweep import code_version

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        _atomic_json(out / "summary.json", self.summary)
        manifest = dict(self.manifest)
        manifest["code_version"] = code_version()
        if self.scenario is not None:
            manifest["scenario_source"] = self.scenario.source
            manifest["overrides"] = [[p, v] for p, v in self.scenario.overrides]
            manifest["scenario_text"] = self.scenario.text
        if command is not None:
            manifest["command"] = list(command)
        manifest["written_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        _atomic_json(out / "run.json", manifest)
        _atomic_parquet(out / "flows.parquet", self.flows)
        _atomic_parquet(out / "links.parquet", self.links)
        written = {"summary.json", "run.json", "flows.parquet", "links.parquet", "timeseries.parquet"}
        for name in OPTIONAL_TABLES:
            table = getattr(self, name)
            if not table.empty:
                _atomic_parquet(out / f"{name}.parquet", table)
                written.add(f"{name}.parquet")
        if self.trace is not None:
            _atomic_parquet(out / "trace.parquet", self.trace)
            written.add("trace.parquet")
        _atomic_parquet(out / "timeseries.parquet", self.timeseries)
        _remove_stale(out, written, self.pcap_files)
        return out


def _remove_stale(out: Path, written: set[str], pcap_files: list[str]) -> None:
    """Remove what an earlier run left in ``out`` that this run did not write: the files of
    `RUN_FILES` not in ``written`` and the captures in ``out/pcap`` not in ``pcap_files`` (and
    ``pcap/`` itself once empty). Done after the new files are in place, so an interrupted
    write leaves the old run's files rather than none."""
    for name in RUN_FILES:
        if name not in written:
            (out / name).unlink(missing_ok=True)
    pcap = out / PCAP_DIR
    if pcap.is_dir():
        keep = {Path(p).resolve() for p in pcap_files}
        for f in pcap.glob("*.pcap"):
            if f.resolve() not in keep:
                f.unlink(missing_ok=True)
        try:
            pcap.rmdir()
        except OSError:  # not empty: this run's captures or the user's files
            pass


def _atomic_write(path: Path, write: Any) -> None:
    tmp = new_temp_file(path)  # not mkstemp: the result gets the umask's mode, not 0600
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _atomic_json(path: Path, obj: Any) -> None:
    def w(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=2, allow_nan=False, default=_nan_to_none)
            f.write("\n")

    _atomic_write(path, w)


def _nan_to_none(o: Any) -> Any:  # pragma: no cover - json calls it only for unknown types
    return None


def _atomic_parquet(path: Path, df: pd.DataFrame) -> None:
    _atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False, engine="pyarrow"))
