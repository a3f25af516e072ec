"""The result store of a sweep directory (docs/sweeps.md).

Layout of ``DIR``::

    runs/<key>.json               one record per run (ok or failed), written atomically
    runs/<key>.timeseries.parquet that run's time series (only with ``timeseries=True``)
    results.parquet               one row per run of the current grid
    summary.csv                   one row per grid point: mean, sd, n and ci95 per metric
    sweep.json                    the sweep manifest
    scenario.toml                 the scenario text the sweep started from

A run's key is the SHA-256 (hex) of the canonical JSON of ``{"scenario": <scenario hash after
--set overrides>, "params": [[path, value], ...] sorted by path, "seed": <run seed>,
"version": <code version>}`` (``sctpsim.sweep.code_version()``: package version and a hash of the
compiled core), so it names exactly one simulation of one build. A
record file appears only once complete (temporary file, fsync, rename): a killed sweep never
leaves a truncated or half-written record, and a re-run trusts every ``ok`` record it finds.
Failed records are kept for the report and are run again on the next invocation.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
import tempfile
import time
from contextlib import contextmanager
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from sctpsim import stats

RUNS = "runs"
RESULTS = "results.parquet"
SUMMARY = "summary.csv"
MANIFEST = "sweep.json"
SCENARIO = "scenario.toml"

#: Columns of results.parquet that describe a run rather than measure it (after the parameters).
META_COLUMNS = ["point", "replication", "seed", "status", "error", "key", "version", "scenario_hash"]

#: Metrics in summary.csv when none are asked for: the study-level results.
DEFAULT_SUMMARY_METRICS = ["network.*", "flows.*", "flows[*"]

#: summary.json fields that are not metrics (the run's seed is a column of its own).
_NOT_METRICS = {"name", "seed", "interrupted"}

#: summary.json lists with one item per interface that get a long table of their own
#: (``<name>.parquet`` in a sweep: one row per run and item) instead of per-item columns in
#: results.parquet — a 50-node run would otherwise add ~30 columns per interface. In
#: results.parquet they keep only their totals over items (``macs.<m>.sum``).
LONG_TABLES = ("macs", "handoffs")

#: Per-item fields of the long tables that are not additive: their mean over items instead
#: (so are times, the fields ending in ``_s``: ``handoffs.first_packet_s.mean``).
_LONG_NOT_SUMMED = {"collision_probability"}

#: Per-flow metrics that are summed over flows for ``flows.<m>.sum`` (others get only the mean:
#: a sum of fractions, delays or RTTs means nothing).
_NOT_SUMMED = {
    "delivered_fraction", "mean_rtt_s", "mean_delay_s", "mean_route_hops", "relayed_fraction", "first_data_received_s",
    "completion_time_s",
}


def run_key(scenario_hash: str, params: Mapping[str, Any], seed: int, version: str) -> str:
    """The store key of one run (see the module documentation)."""
    doc = {
        "scenario": scenario_hash,
        "params": [[k, params[k]] for k in sorted(params)],
        "seed": int(seed),
        "version": version,
    }
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------
# Flattening summary.json into columns


def flatten_summary(summary: Mapping[str, Any]) -> dict[str, float | int]:
    """The metrics of one ``summary.json`` as ``{column: number}``.

    * top-level numbers as they are (``sim_time_s``, ``wall_time_s``, ``events``);
    * nested objects with dots (``network.pdf``);
    * list items by their ``id`` (and ``dir``, for links): ``flows[0].goodput_bps``,
      ``links[1].fwd.queue_drops``;
    * aggregates over flows: ``flows.<m>.mean`` for every numeric flow field and
      ``flows.<m>.sum`` for the additive ones (bytes, packets, rates, counters);
    * the lists of :data:`LONG_TABLES` (per interface) only as totals over their items,
      ``macs.<m>.sum`` (``.mean`` for fractions); their items are in :func:`long_table_frame`.

    Strings and booleans are left out; ``null`` becomes NaN."""
    out: dict[str, float | int] = {}
    items = [(k, v) for k, v in summary.items() if k not in _NOT_METRICS]
    # Order: run scalars, network-wide objects, flow aggregates, then per-item lists.
    for k, v in items:
        if not isinstance(v, (dict, list)):
            _walk(k, v, out)
    for k, v in items:
        if isinstance(v, dict):
            _walk(k, v, out)
    _flow_aggregates(summary, out)
    for name in LONG_TABLES:
        _item_totals(name, summary.get(name), out)
    for k, v in items:
        if isinstance(v, list) and k not in LONG_TABLES:
            _walk(k, v, out)
    return out


def _item_totals(name: str, items: Any, out: dict[str, float | int]) -> None:
    if not isinstance(items, list) or not items:
        return
    fields: list[str] = []
    for it in items:
        if isinstance(it, dict):
            for k, v in it.items():
                if k != "id" and _is_metric_value(v) and v is not None and k not in fields:
                    fields.append(k)
    for k in fields:
        nums = [it[k] for it in items if isinstance(it, dict) and _is_metric_value(it.get(k)) and it.get(k) is not None]
        if k in _LONG_NOT_SUMMED or k.endswith("_s"):
            out[f"{name}.{k}.mean"] = math.fsum(nums) / len(nums) if nums else math.nan
        elif nums and all(isinstance(v, int) for v in nums):
            out[f"{name}.{k}.sum"] = sum(nums)
        else:
            out[f"{name}.{k}.sum"] = math.fsum(nums) if nums else math.nan


def long_table_frame(records: Sequence[Mapping[str, Any]], params: Sequence[str], name: str) -> pd.DataFrame:
    """The long table ``name`` (one of :data:`LONG_TABLES`) of a sweep: one row per successful
    run and item, with the run's parameters, ``point``, ``replication``, ``seed`` and ``key``,
    then the item's fields as summary.json has them (``node``, ``iface``, counters)."""
    rows: list[dict[str, Any]] = []
    for rec in records:
        summary = rec.get("summary")
        if rec.get("status") != "ok" or not isinstance(summary, Mapping):
            continue
        items = summary.get(name)
        if not isinstance(items, list):
            continue
        base: dict[str, Any] = {p: rec.get("params", {}).get(p) for p in params}
        base.update({"point": rec.get("point"), "replication": rec.get("replication"), "seed": rec.get("seed"), "key": rec.get("key")})
        for it in items:
            if isinstance(it, dict):
                rows.append({**base, **it})
    df = pd.DataFrame(rows)
    for p in params:
        if p in df.columns:
            df[p] = param_column(df[p].tolist())
    if "seed" in df.columns:
        df["seed"] = pd.array(df["seed"].tolist(), dtype="UInt64")
    return df


def _flow_aggregates(summary: Mapping[str, Any], out: dict[str, float | int]) -> None:
    flows = summary.get("flows")
    if isinstance(flows, list) and flows:
        fields: list[str] = []
        for f in flows:
            if isinstance(f, dict):
                for name, v in f.items():
                    if name != "id" and _is_metric_value(v) and name not in fields:
                        fields.append(name)
        for name in fields:
            vals = [f.get(name) for f in flows if isinstance(f, dict)]
            nums = [float(v) for v in vals if v is not None and not isinstance(v, bool)]
            if name not in _NOT_SUMMED:
                out[f"flows.{name}.sum"] = math.fsum(nums) if nums else math.nan
            out[f"flows.{name}.mean"] = math.fsum(nums) / len(nums) if nums else math.nan


def _is_metric_value(v: Any) -> bool:
    return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))


def _walk(prefix: str, v: Any, out: dict[str, float | int]) -> None:
    if isinstance(v, bool) or isinstance(v, str):
        return
    if v is None:
        out[prefix] = math.nan
    elif isinstance(v, (int, float)):
        out[prefix] = v
    elif isinstance(v, dict):
        for k2, v2 in v.items():
            _walk(f"{prefix}.{k2}", v2, out)
    elif isinstance(v, list):
        for i, item in enumerate(v):
            if isinstance(item, dict):
                label = f"{prefix}[{item.get('id', i)}]"
                if isinstance(item.get("dir"), str) and item["dir"]:
                    label += f".{item['dir']}"
                for k2, v2 in item.items():
                    if k2 in ("id", "dir"):
                        continue
                    _walk(f"{label}.{k2}", v2, out)
            else:
                _walk(f"{prefix}[{i}]", item, out)


# ---------------------------------------------------------------------------------------------
# Atomic files


def writable_dir_problem(out: Path) -> str | None:
    """Create ``out`` if needed and check that files can be created in it; what is wrong, or None.

    Checked before anything runs (`run`, `reproduce`): otherwise a long run ends in a
    PermissionError and its results are lost. Creating (and removing) a file is the real test;
    ``os.access`` is not (root, ACLs, read-only mounts)."""
    if out.exists() and not out.is_dir():
        return "exists and is not a directory"
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(prefix=".sctpsim-probe.", dir=out):
            pass
    except OSError as e:
        return f"not a writable directory ({e.strerror or type(e).__name__})"
    return None


#: The lock file of an output directory (``run --out``, a sweep's ``out``), present while a
#: process writes into the directory.
LOCK_FILE = ".sctpsim.lock"


class DirectoryBusyError(Exception):
    """Another process holds the lock of an output directory: two runs writing into one
    directory would each report success while the last one's files replace the other's."""

    def __init__(self, directory: Path, holder: str) -> None:
        who = f"another sctpsim process (pid {holder})" if holder else "another sctpsim process"
        super().__init__(f"{who} is writing into this directory; wait for it to finish or choose another directory")
        self.directory = directory


@contextmanager
def out_dir_lock(out: Path) -> Iterator[None]:
    """Hold the output directory ``out`` (created if needed) for this process; raise
    DirectoryBusyError at once if another process holds it.

    The lock is ``flock`` on :data:`LOCK_FILE`, so a process killed outright (kill -9, out of
    memory) releases it with its file descriptors and never leaves a stale lock. The file holds
    the holder's pid for the message and is removed on release. Where ``flock`` is missing or
    the file system refuses it, writing goes on unlocked, as before there was a lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_FILE
    fd = _take_lock(path, fcntl)
    try:
        yield
    finally:
        if fd is not None:
            try:
                path.unlink()  # before unlocking: a process that opened it re-checks the inode
            except OSError:
                pass
            os.close(fd)


def _take_lock(path: Path, fcntl: Any) -> int | None:
    """An open, locked descriptor of ``path`` (None: locks unsupported here). Retries when the
    holder removed the file between our open and our lock: the lock is on the file now at
    ``path``, not on one that was unlinked."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            raise DirectoryBusyError(path.parent, holder) from None
        except OSError:  # ENOLCK, EOPNOTSUPP: a file system without locks
            os.close(fd)
            return None
        try:
            current = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            current = False
        if current:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
            return fd
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file, or the whole new one."""
    atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))


def new_temp_file(path: Path, suffix: str = "") -> str:
    """Create an empty, uniquely named file next to ``path`` (``.<name>.<random><suffix>``) and
    return its name.

    Unlike ``tempfile.mkstemp`` (always mode 0600) the file is created with 0666 and the umask
    applies, so the file that replaces ``path`` gets the mode any new file gets (0644 under
    umask 022): results stay readable by the group and others, as the user's umask says."""
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}{suffix}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return str(tmp)
    raise FileExistsError(f"no free temporary name next to {path}")


def atomic_write(path: Path, write: Callable[[str], object]) -> None:
    """Call ``write(tmp)`` on a temporary name in the same directory, fsync, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = new_temp_file(path, suffix=".tmp")
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _json_bytes(obj: Any) -> bytes:
    return (json.dumps(obj, indent=1, allow_nan=False, default=_jsonable) + "\n").encode("utf-8")


def _jsonable(o: Any) -> Any:
    return str(o)


def clean_nan(obj: Any) -> Any:
    """JSON has no NaN: NaN and infinities become null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: clean_nan(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean_nan(v) for v in obj]
    return obj


# ---------------------------------------------------------------------------------------------
# The store


class ResultStore:
    """Per-run records of a sweep directory, plus the tables built from them."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.runs_dir = self.root / RUNS

    def create(self) -> None:
        """Make the directories and clear temporary files that a killed writer left behind."""
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        now = time.time()
        for p in self.runs_dir.glob(".*.tmp"):
            try:
                if now - p.stat().st_mtime > 60:
                    p.unlink()
            except OSError:
                pass

    def record_path(self, key: str) -> Path:
        return self.runs_dir / f"{key}.json"

    def timeseries_path(self, key: str) -> Path:
        return self.runs_dir / f"{key}.timeseries.parquet"

    def keys(self) -> set[str]:
        """Keys that have a record (ok or failed)."""
        if not self.runs_dir.is_dir():
            return set()
        return {p.name[:-5] for p in self.runs_dir.iterdir() if p.name.endswith(".json") and not p.name.startswith(".")}

    def load(self, key: str) -> dict[str, Any] | None:
        """A run's record, or None if there is none (or it cannot be read)."""
        try:
            rec = json.loads(self.record_path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return rec if isinstance(rec, dict) and rec.get("key") == key else None

    def finished(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The ``ok`` records among ``keys``."""
        present = self.keys()
        out: dict[str, dict[str, Any]] = {}
        for k in keys:
            if k in present:
                rec = self.load(k)
                if rec is not None and rec.get("status") == "ok":
                    out[k] = rec
        return out

    def put(self, record: Mapping[str, Any], timeseries: pd.DataFrame | None = None) -> None:
        """Store one run's record (and its time series first: the record is the commit)."""
        key = str(record["key"])
        if timeseries is not None:
            atomic_write(self.timeseries_path(key), lambda tmp: timeseries.to_parquet(tmp, index=False, engine="pyarrow"))
        atomic_write_bytes(self.record_path(key), _json_bytes(clean_nan(dict(record))))

    def write_json(self, name: str, obj: Any) -> Path:
        path = self.root / name
        atomic_write_bytes(path, _json_bytes(clean_nan(obj)))
        return path

    def write_text(self, name: str, text: str) -> Path:
        path = self.root / name
        atomic_write_bytes(path, text.encode("utf-8"))
        return path

    def write_results(self, df: pd.DataFrame) -> Path:
        path = self.root / RESULTS
        atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False, engine="pyarrow"))
        return path

    def write_table(self, name: str, df: pd.DataFrame) -> Path:
        """``<name>.parquet`` (a long table) in the sweep directory."""
        path = self.root / f"{name}.parquet"
        atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False, engine="pyarrow"))
        return path

    def write_summary(self, df: pd.DataFrame) -> Path:
        path = self.root / SUMMARY
        atomic_write(path, lambda tmp: df.to_csv(tmp, index=False, float_format="%.10g"))
        return path


# ---------------------------------------------------------------------------------------------
# Tables


def param_column(values: Sequence[Any]) -> list[Any]:
    """Values of one parameter column, made storable: lists and tables become their JSON text,
    and a column that mixes kinds (numbers and strings) becomes text throughout."""
    conv = [json.dumps(v, sort_keys=True, default=str) if isinstance(v, (list, dict, tuple)) else v for v in values]
    present = [v for v in conv if v is not None]
    kinds = {("bool" if isinstance(v, bool) else "num" if isinstance(v, (int, float)) else "str") for v in present}
    if len(kinds) > 1:
        return [None if v is None else (json.dumps(v) if isinstance(v, bool) else str(v)) for v in conv]
    return conv


def results_frame(records: Sequence[Mapping[str, Any]], params: Sequence[str]) -> pd.DataFrame:
    """``results.parquet``: one row per record, in the order given.

    Columns: the varied parameters, then :data:`META_COLUMNS`, then every metric of
    :func:`flatten_summary` (NaN for failed runs). Integer metrics stay integers (nullable)."""
    rows: list[dict[str, Any]] = []
    metric_cols: dict[str, None] = {}
    for rec in records:
        metrics = flatten_summary(rec["summary"]) if rec.get("status") == "ok" and rec.get("summary") else {}
        for m in metrics:
            metric_cols.setdefault(m, None)
        rows.append({"__params": rec.get("params", {}), "__meta": rec, **metrics})
    data: dict[str, Any] = {}
    for p in params:
        data[p] = param_column([r["__params"].get(p) for r in rows])
    meta = [r["__meta"] for r in rows]
    data["point"] = pd.array([m.get("point") for m in meta], dtype="Int64")
    data["replication"] = pd.array([m.get("replication") for m in meta], dtype="Int64")
    data["seed"] = pd.array([m.get("seed") for m in meta], dtype="UInt64")
    for c in ("status", "error", "key", "version", "scenario_hash"):
        data[c] = pd.array([m.get(c) for m in meta], dtype="string")
    for m in metric_cols:
        if m in data:  # a parameter with the same name wins (it is the same value)
            continue
        vals = [r.get(m) for r in rows]
        present = [v for v in vals if v is not None and not (isinstance(v, float) and math.isnan(v))]
        if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            data[m] = pd.array([None if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in vals], dtype="Int64")
        else:
            data[m] = pd.array([math.nan if v is None else float(v) for v in vals], dtype="float64")
    return pd.DataFrame(data)


def metric_columns(results: pd.DataFrame, params: Sequence[str]) -> list[str]:
    """The metric columns of a results table (everything after the parameters and meta)."""
    skip = set(params) | set(META_COLUMNS)
    return [c for c in results.columns if c not in skip]


def select_metrics(available: Sequence[str], patterns: Sequence[str] | None) -> list[str]:
    """Metrics matching any of ``patterns`` (shell-style, ``*`` matches dots and brackets too),
    in the results table's order; :data:`DEFAULT_SUMMARY_METRICS` when none are given."""
    pats = list(patterns) if patterns else DEFAULT_SUMMARY_METRICS
    return [m for m in available if any(m == p or fnmatchcase(m, p.replace("[", "[[]")) for p in pats)]


def unmatched_metric_patterns(available: Sequence[str], patterns: Sequence[str]) -> list[str]:
    """The patterns of ``patterns`` that select no metric of ``available``: a ``--metric`` typo
    would otherwise give a summary without that metric and no word about it."""
    return [p for p in patterns if not select_metrics(available, [p])]


def metric_groups(available: Sequence[str]) -> list[str]:
    """The patterns that name the metrics by family, in order: ``network.*``, ``flows.*``,
    ``flows[*``, ``events`` — what a message can list when nothing is near a pattern."""
    groups: dict[str, None] = {}
    for m in available:
        head = m.split(".", 1)[0]
        if "[" in head:
            groups.setdefault(head.split("[", 1)[0] + "[*", None)
        elif head != m:
            groups.setdefault(head + ".*", None)
        else:
            groups.setdefault(m, None)
    return list(groups)


def metric_hint(pattern: str, available: Sequence[str], n: int = 3) -> str:
    """What to say about a ``pattern`` that matches nothing: the nearest metric names or
    families (difflib), else the names containing its text, else the families there are."""
    from difflib import get_close_matches

    groups = metric_groups(available)
    near = get_close_matches(pattern, [*groups, *available], n=n, cutoff=0.6)
    text = pattern.strip("*?")
    if not near and text and not any(c in text for c in "*?["):
        near = [m for m in available if text in m][:n]
    if near:
        quoted = [repr(m) for m in near]
        return "did you mean " + (quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"
    return "the metrics are " + ", ".join(groups)


class MetricPatternError(ValueError):
    """A metric pattern (``--metric``, ``metrics=``) that matches no metric of the results."""

    def __init__(self, pattern: str, hint: str) -> None:
        super().__init__(f"metric pattern {pattern!r} matches no metric of the results; {hint}")
        self.pattern = pattern
        self.hint = hint


def summary_frame(
    results: pd.DataFrame,
    params: Sequence[str],
    metrics: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """``summary.csv``: one row per grid point (in grid order).

    Columns: ``point``, the parameters, ``runs``, ``ok``, ``failed``, then for each metric
    ``<metric>.mean``, ``.sd``, ``.n`` and ``.ci95`` (half-width of the Student-t interval of
    the mean over the point's successful runs). Metrics without a value in any run are left
    out. ``metrics`` are patterns for :func:`select_metrics`."""
    chosen = select_metrics(metric_columns(results, params), metrics)
    ok = results[results["status"] == "ok"]
    chosen = [m for m in chosen if ok[m].notna().any()] if len(ok) else []
    suffix = "ci95" if abs(confidence - 0.95) < 1e-12 else f"ci{round(confidence * 100):d}"
    rows = []
    for point, g in results.groupby("point", sort=True):
        head: dict[str, Any] = {"point": point}
        for p in params:
            head[p] = g[p].iloc[0]
        head["runs"] = len(g)
        head["ok"] = int((g["status"] == "ok").sum())
        head["failed"] = int((g["status"] != "ok").sum())
        okg = g[g["status"] == "ok"]
        body = stats.summarize(okg, [], chosen, confidence, suffix=suffix)
        rows.append({**head, **(body.iloc[0].to_dict() if len(body) else {})})
    columns = ["point", *params, "runs", "ok", "failed"] + [f"{m}.{s}" for m in chosen for s in ("mean", "sd", "n", suffix)]
    df = pd.DataFrame(rows, columns=columns)
    for m in chosen:
        df[f"{m}.n"] = df[f"{m}.n"].astype("int64")
    return df
