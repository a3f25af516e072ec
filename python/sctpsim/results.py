"""Results of one run: summary, flows, links and time series as pandas DataFrames, and the
writer of the run directory (`summary.json`, `flows.parquet`, `links.parquet`,
`timeseries.parquet`, `run.json`, the tables of `OPTIONAL_TABLES` when not empty,
`trace.parquet` when the run was traced, and the captures in `pcap/`).

A run directory holds one run, and is never half-written: the new run's files are written into
a staging directory inside it (`.sctpsim-incomplete-*`, see :func:`new_staging_dir`) and moved
into place only once all are complete, with SIGINT and SIGTERM held back for those few renames
(`_commit`). Interrupting the write (Ctrl-C, an exception) leaves the previous run as it was
and removes the staging directory; a process killed outright leaves the previous run (or
nothing) plus the staging directory, the marker of a write that did not finish, which the next
write into the directory removes. Writing a run removes what an earlier run left that this one
does not write — its tables, captures, and the figures and report of `sctpsim plot` — and
nothing else."""

from __future__ import annotations

import json
from datetime import datetime, timezone
import os
import shutil
import signal
import socket
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import pandas as pd

from sctpsim.store import clean_nan, new_temp_file
from sctpsim.trace import trace_frame

if TYPE_CHECKING:
    from sctpsim.scenario import Scenario

#: Column order of flows.parquet (docs/metrics.md).
FLOW_COLUMNS = [
    "id", "transport", "app", "src", "dst", "bytes_sent", "bytes_delivered", "goodput_bps",
    "packets_sent", "packets_delivered", "delivered_fraction", "retransmissions",
    "fast_retransmits", "timeouts", "mean_rtt_s", "mean_delay_s", "reordered", "delivery_errors",
    "acks_sent", "data_packets_sent", "data_packets_received", "mean_route_hops",
    "relayed_fraction", "first_data_received_s", "completion_time_s",
]

#: Column order of timeseries.parquet.
TIMESERIES_COLUMNS = ["time_s", "scope", "id", "dir", "metric", "value"]

#: Tables written only when they have rows (a wired run has no `macs.parquet`).
OPTIONAL_TABLES = ("macs", "sctp", "paths", "streams", "routing", "drops", "handoffs")

#: Every file a run writes at the top of its directory. `RunResult.write` removes the ones the
#: new run does not write, so a reused `--out` never shows an earlier run's table as if it were
#: this run's; files not on this list (the user's) are left alone.
RUN_FILES = ("summary.json", "run.json", "flows.parquet", "links.parquet", "timeseries.parquet") + tuple(
    f"{name}.parquet" for name in OPTIONAL_TABLES
) + ("trace.parquet", "view.html")  # view.html: `sctpsim view`'s default page, of the earlier run

#: Subdirectory of the captures (`--pcap`), `<node>-<iface>.pcap`.
PCAP_DIR = "pcap"

#: Name prefix of the staging directory a run is written into before it replaces the previous
#: run. One left in a run directory marks a write that was killed before it finished.
STAGING_PREFIX = ".sctpsim-incomplete-"

#: File in a staging directory naming its writer (`<host> <pid>`), so that a later write removes
#: only staging directories whose writer is gone.
_OWNER = "writer"


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
    #: One row per Mobile IP handover (`handoffs.parquet`; empty without Mobile IP).
    handoffs: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: The per-packet trace (`trace.parquet`, columns `sctpsim.trace.TRACE_COLUMNS`); None when
    #: the run was not traced.
    trace: pd.DataFrame | None = None
    #: The run's effective parameters (`Scenario.parameter_rows`, `sctpsim show`), written to
    #: run.json as ``parameters``. ``None``: resolved from ``scenario`` when the run is written.
    parameters: list[dict[str, Any]] | None = None

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
        rows += [("warning", w) for w in self.warnings]
        parts = [d.title("RunResult", str(s.get("name") or "")), d.table(rows)]
        parts.append(f"<p>Flows ({len(self.flows)})</p>")
        parts.append(self.flows.to_html(index=False, max_rows=30, max_cols=20))
        return "".join(parts)

    @property
    def warnings(self) -> list[str]:
        """What in this run a reader should not miss: a time series cut at its row bound, and
        each flow that delivered nothing, with why its packets were dropped
        (`delivery_warnings`)."""
        params = self.parameters
        if params is None and self.scenario is not None:
            params = self.scenario.parameter_rows(self.summary.get("seed"))
        return sampling_warnings(params or []) + series_warnings(self.summary) + delivery_warnings(self.summary)

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
        timeseries = series_frame(raw["timeseries"])
        macs = pd.DataFrame(summary.get("macs", []))
        sctp = {k: pd.DataFrame(summary.get(k, [])) for k in ("sctp", "paths", "streams", "routing", "drops", "handoffs")}
        trace = trace_frame(raw["trace"]) if raw.get("trace") is not None else None
        return cls(summary, manifest, flows, links, timeseries, list(raw["pcap_files"]), scenario, macs=macs,
                   trace=trace, **sctp)

    def write(self, out_dir: str | Path, command: Sequence[str] | None = None, *,
              staging: str | Path | None = None) -> Path:
        """Write the run directory; returns its path. An earlier run's files in it that this run
        does not write (`RUN_FILES`, captures in ``pcap/``, the figures and ``report.md`` of
        ``sctpsim plot``) are removed; other files stay. The files are written into a staging
        directory and moved into place together (module documentation): ``staging`` is one
        from :func:`new_staging_dir` that already holds this run's captures in ``pcap/`` (the
        command line has the core write them there), else a new one is made.

        ``run.json`` is the core's manifest (version, scenario hash, seed, events, times) plus
        what reproduces the run without this directory's surroundings: ``code_version`` (the
        package version and a hash of the compiled core, as sweep keys use it), the scenario's
        ``scenario_source``, full ``scenario_text`` and ``overrides``, the ``command`` line when
        given, ``written_at`` (UTC), and ``parameters``: every effective parameter as
        ``sctpsim show`` lists it."""
        final = Path(out_dir)
        final.mkdir(parents=True, exist_ok=True)
        out = Path(staging) if staging is not None else new_staging_dir(final)
        try:
            written = self._write_files(out, command)
            self.pcap_files = _commit(out, final, written, self.pcap_files)
        finally:
            shutil.rmtree(out, ignore_errors=True)
        return final

    def _write_files(self, out: Path, command: Sequence[str] | None) -> set[str]:
        """Every file of the run into the (staging) directory ``out``; returns their names."""
        from sctpsim.sweep import code_version

        _atomic_json(out / "summary.json", self.summary)
        manifest = dict(self.manifest)
        manifest["code_version"] = code_version()
        if self.scenario is not None:
            manifest["scenario_source"] = self.scenario.source
            manifest["overrides"] = [[p, v] for p, v in self.scenario.overrides]
            manifest["scenario_text"] = self.scenario.text
        parameters = self._parameters()
        if parameters is not None:
            manifest["parameters"] = parameters
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
        return written

    def _parameters(self) -> list[dict[str, Any]] | None:
        """`parameters`, or resolved from the scenario now (with the run's seed marked
        ``--seed`` where it is not the scenario's). None without a scenario; a scenario that no
        longer resolves (its mobility file deleted during the run) does not stop the write."""
        if self.parameters is not None or self.scenario is None:
            return self.parameters
        seed = self.summary.get("seed")
        own = self.scenario.to_dict().get("simulation", {}).get("seed", 1)
        try:
            return self.scenario.parameter_rows(seed if isinstance(seed, int) and seed != own else None)
        except Exception:  # noqa: BLE001 - the measured results matter more than the listing
            return None


def series_frame(ts: dict[str, Any]) -> pd.DataFrame:
    """The DataFrame of ``timeseries.parquet`` from the core's columns (`_native.run`'s
    ``timeseries``: numeric columns as bytes, string columns as codes and names). The string
    columns are object arrays whose rows all point at the few distinct names: 8 bytes a row,
    not a Python string each."""
    import numpy as np

    def strings(name: str) -> np.ndarray:
        names = np.empty(len(ts[f"{name}_names"]), dtype=object)
        names[:] = ts[f"{name}_names"]
        return names[np.frombuffer(ts[f"{name}_codes"], dtype=np.uint32)]

    return pd.DataFrame({
        "time_s": np.frombuffer(ts["time_s"], dtype=np.float64).copy(),
        "scope": strings("scope"),
        "id": np.frombuffer(ts["id"], dtype=np.uint32).astype(np.int64),
        "dir": strings("dir"),
        "metric": strings("metric"),
        "value": np.frombuffer(ts["value"], dtype=np.float64).copy(),
    }, columns=TIMESERIES_COLUMNS)


#: What each drop reason (`drops.parquet`, docs/metrics.md "Drops") means, for warnings.
DROP_REASON_TEXT = {
    "queue": "a full queue",
    "mac_retry_limit": "the 802.11 MAC giving up at its retry limit",
    "no_route": "no route",
    "send_buffer_full": "the routing protocol's send buffer full while no route was found",
    "send_buffer_timeout": "waiting in the routing protocol's send buffer past its timeout (no route found)",
    "link_broken": "a broken next-hop link the routing protocol could not salvage",
    "ttl_expired": "TTL expiry",
    "loss": "the link's loss model",
    "scripted": "scripted drops",
    "outage": "link outages",
    "unassociated": "no association with an access point",
    "no_agent": "no Mobile IP agent",
}

#: Drop reasons that mean routes were not found; with a wireless IEEE profile at a constant
#: rate the usual cause is route discovery at the basic rate reaching nodes the data rate
#: cannot (issue 35 item 2).
_ROUTE_REASONS = {"no_route", "send_buffer_full", "send_buffer_timeout", "link_broken"}


#: The core's bound on time-series rows (`MAX_SERIES_ROWS`, crates/engine/src/scenario/check.rs).
MAX_SERIES_ROWS = 10_000_000


def sampling_warnings(parameters: Sequence[dict[str, Any]]) -> list[str]:
    """The warning for a sampling interval longer than the run: the only sample is the one at
    the end of the run, so the time series is one point per metric (issue 35 item 9)."""
    p = {r.get("path"): r.get("value") for r in parameters}
    interval, duration = p.get("simulation.sample_interval"), p.get("simulation.duration")
    if not isinstance(interval, (int, float)) or not isinstance(duration, (int, float)) or interval <= duration:
        return []
    return [f"simulation.sample_interval ({interval:g} s) is longer than simulation.duration ({duration:g} s): "
            "the time series has one sample per metric, at the end of the run (set a shorter sample_interval)"]


def series_warnings(summary: dict[str, Any]) -> list[str]:
    """The warning for a time series that reached its row bound during the run."""
    t = summary.get("timeseries_truncated_at_s")
    if t is None:
        return []
    return [f"the time series reached its bound of {MAX_SERIES_ROWS:,} rows at t={float(t):.3f} s and kept "
            "no rows after it (timeseries.parquet ends there; the flows, links and summary cover the whole run). "
            "One row per dropped packet (dropped_seq, dropped_tsn) fills it when a source sends far faster "
            "than its path carries"]


def delivery_warnings(summary: dict[str, Any]) -> list[str]:
    """One line per flow that delivered nothing (a run that "works" and measures zero is the
    easiest result to publish by mistake): the dominant reason its packets were dropped, or that
    none were dropped (they never left the sender, or were in flight at the end)."""
    drops: dict[int, dict[str, int]] = {}
    for d in summary.get("drops") or []:
        if d.get("flow") is None:  # not a flow's packet (routing control, unattributed)
            continue
        per = drops.setdefault(int(d["flow"]), {})
        per[str(d.get("reason"))] = per.get(str(d.get("reason")), 0) + int(d.get("packets") or 0)
    out = []
    for f in summary.get("flows") or []:
        if int(f.get("bytes_delivered") or 0) > 0 or int(f.get("packets_delivered") or 0) > 0:
            continue
        fid = int(f.get("id", -1))
        head = f"flow {fid} ({f.get('src')}->{f.get('dst')}, {f.get('transport')}) delivered nothing"
        per = drops.get(fid, {})
        total = sum(per.values())
        if total == 0:
            sent = int(f.get("packets_sent") or 0)
            why = ("it sent no packets" if sent == 0 else
                   f"none of its {sent} packets was dropped: they were still queued or in flight at the end")
            out.append(f"{head}: {why}")
            continue
        reason, n = max(per.items(), key=lambda kv: (kv[1], kv[0]))
        text = DROP_REASON_TEXT.get(reason, reason)
        msg = f"{head}: {n} of its {total} dropped packets were lost to {text} ({reason})"
        if reason in _ROUTE_REASONS and summary.get("macs"):
            msg += ("; if the radio sends data at a fixed rate above the rate routing broadcasts use, "
                    "routes found may be ones the data cannot use (radio.data_rate, radio.rate_control)")
        out.append(msg)
    return out


def new_staging_dir(out: str | Path) -> Path:
    """A new staging directory in ``out`` (created if needed) for one run's files, after
    removing the staging directories of earlier writers that are gone (module documentation).
    ``RunResult.write(out, staging=...)`` fills it and moves its contents into ``out``."""
    final = Path(out)
    final.mkdir(parents=True, exist_ok=True)
    _remove_abandoned_staging(final)
    d = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=final))
    (d / _OWNER).write_text(f"{socket.gethostname()} {os.getpid()}\n", encoding="utf-8")
    return d


def _remove_abandoned_staging(out: Path) -> None:
    """Remove staging directories in ``out`` whose writer (host and process) no longer runs;
    one whose writer cannot be told is kept unless it is over a day old."""
    import time

    for d in out.glob(f"{STAGING_PREFIX}*"):
        if not d.is_dir():
            continue
        try:
            host, pid = (d / _OWNER).read_text(encoding="utf-8").split()
            gone = host == socket.gethostname() and not _process_exists(int(pid))
        except (OSError, ValueError):
            try:
                gone = time.time() - d.stat().st_mtime > 86_400
            except OSError:
                gone = False
        if gone:
            shutil.rmtree(d, ignore_errors=True)


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, and is someone else's
        return True
    return True


def _commit(staging: Path, out: Path, written: set[str], pcap_files: list[str]) -> list[str]:
    """Move the complete run in ``staging`` into ``out``: first remove the figures and report of
    ``sctpsim plot``, ``run.json`` (so that until the end the directory is no complete run) and
    what else an earlier run left that this one does not write — the files of `RUN_FILES` not
    ``written``, the captures in ``out/pcap`` not among this run's — then move every file in
    ``staging``, the captures (``staging/pcap``), and ``run.json`` last. SIGINT and SIGTERM
    wait until it is done. Returns ``pcap_files`` with the captures' new paths."""
    with _signals_deferred():
        _remove_plot_outputs(out)  # before run.json goes: it tells a run directory
        (out / "run.json").unlink(missing_ok=True)
        new_files = sorted(p.name for p in staging.iterdir() if p.is_file() and p.name != _OWNER)
        for name in RUN_FILES:
            if name not in written and name not in new_files:
                (out / name).unlink(missing_ok=True)
        moved = {Path(p).resolve(): out / PCAP_DIR / Path(p).name for p in pcap_files
                 if Path(p).resolve().parent == (staging / PCAP_DIR).resolve()}
        keep = {Path(p).resolve() for p in pcap_files} | {p.resolve() for p in moved.values()}
        pcap = out / PCAP_DIR
        if pcap.is_dir():
            for f in pcap.glob("*.pcap"):
                if f.resolve() not in keep:
                    f.unlink(missing_ok=True)
        for name in new_files:
            if name != "run.json":
                os.replace(staging / name, out / name)
        if moved:
            pcap.mkdir(exist_ok=True)
            for src, dst in moved.items():
                os.replace(src, dst)
        if (staging / "run.json").exists():
            os.replace(staging / "run.json", out / "run.json")
        if pcap.is_dir():
            try:
                pcap.rmdir()
            except OSError:  # not empty: this run's captures or the user's files
                pass
    return [str(moved.get(Path(p).resolve(), p)) for p in pcap_files]


def _remove_plot_outputs(out: Path) -> None:
    """The figures and ``report.md`` that ``sctpsim plot`` wrote for an earlier run: they
    describe that run, not the new one (`plot.remove_plot_outputs`; its record goes too)."""
    from sctpsim.plot import PLOT_MANIFEST, remove_plot_outputs

    remove_plot_outputs(out)
    (out / PLOT_MANIFEST).unlink(missing_ok=True)


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block is done, then act on them as the handlers in
    place before would have (KeyboardInterrupt, the command line's SIGTERM handler, or the
    default action). Only the main thread can set handlers; elsewhere the block runs as is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}
    for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if sig is None:
            continue
        try:
            previous[sig] = signal.signal(sig, lambda signum, frame: caught.append(signum))
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(caught):
            handler = previous.get(sig)
            if callable(handler):
                handler(sig, None)
            elif handler == signal.SIG_IGN:
                continue
            elif sig == signal.SIGINT:
                raise KeyboardInterrupt
            else:
                os.kill(os.getpid(), sig)


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
            # JSON has no NaN or infinity: an accepted `--set mobility.max_speed_mps=inf` (no
            # cap) in `overrides` would otherwise fail the whole write.
            json.dump(clean_nan(obj), f, indent=2, allow_nan=False, default=_nan_to_none)
            f.write("\n")

    _atomic_write(path, w)


def _nan_to_none(o: Any) -> Any:  # pragma: no cover - json calls it only for unknown types
    return None


def _atomic_parquet(path: Path, df: pd.DataFrame) -> None:
    _atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False, engine="pyarrow"))
