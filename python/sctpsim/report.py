"""``report.md`` for a run or a sweep: tables and the figures of :mod:`sctpsim.plot`.

Study reproductions build their own reports from the same pieces::

    from sctpsim.report import Report, sweep_results_table
    rep = Report("Ye et al. 2003, Fig. 4", base_dir=out)
    rep.paragraph("Throughput against rwnd, 10 seeds per point.")
    rep.table(*sweep_results_table(out, metrics=["flows.goodput_bps.sum"]))
    rep.table(["case", "simulated", "published", "error"], rows)
    rep.figure(out / "figures" / "flows-goodput-bps-sum-vs-flows-0-rwnd-mtu.png", "Goodput vs rwnd")
    rep.write(out / "report.md")

Numbers are shown with four significant digits, means as ``mean ± ci95`` (half-width of the
95 % Student-t interval), rates, times and sizes in the readable unit the figures use.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from sctpsim import stats, store
from sctpsim.plot import Figure, base_unit, default_metrics, display_unit, metric_label, read_sweep

REPORT = "report.md"


def fmt(x: Any, digits: int = 4) -> str:
    """A number with ``digits`` significant digits (integers as they are); ``–`` for missing."""
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "–"
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.{digits}g}"


def fmt_mean_ci(mean: float, ci: float, scale: float = 1.0, digits: int = 4) -> str:
    """``951.1 ± 4.93`` (just the mean when the interval is undefined)."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "–"
    if ci is None or not math.isfinite(ci):
        return fmt(mean / scale, digits)
    return f"{fmt(mean / scale, digits)} ± {fmt(ci / scale, 3)}"


def _cell(x: Any) -> str:
    return fmt(x).replace("|", "\\|").replace("\n", " ")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table; numbers right-aligned."""
    numeric = [
        bool(rows) and all(isinstance(r[i], (int, float)) and not isinstance(r[i], bool) for r in rows if r[i] is not None)
        for i in range(len(headers))
    ]
    lines = [
        "| " + " | ".join(str(h).replace("|", "\\|") for h in headers) + " |",
        "|" + "|".join("---:" if numeric[i] else "---" for i in range(len(headers))) + "|",
    ]
    for r in rows:
        lines.append("| " + " | ".join(_cell(c) for c in r) + " |")
    return "\n".join(lines)


class Report:
    """A Markdown document assembled piece by piece; figure paths are written relative to
    ``base_dir`` (the directory that will hold the report)."""

    def __init__(self, title: str, base_dir: str | Path = ".") -> None:
        self.base_dir = Path(base_dir)
        self.parts: list[str] = [f"# {title}"]

    def heading(self, text: str, level: int = 2) -> Report:
        self.parts.append(f"{'#' * level} {text}")
        return self

    def paragraph(self, text: str) -> Report:
        self.parts.append(text)
        return self

    def bullets(self, items: Sequence[str]) -> Report:
        if items:
            self.parts.append("\n".join(f"- {i}" for i in items))
        return self

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]], caption: str | None = None) -> Report:
        text = markdown_table(headers, rows)
        self.parts.append(text + (f"\n\n*{caption}*" if caption else ""))
        return self

    def frame(self, df: pd.DataFrame, caption: str | None = None) -> Report:
        """A DataFrame as a table (all columns)."""
        rows = [[_native_value(v) for v in r] for r in df.itertuples(index=False)]
        return self.table([str(c) for c in df.columns], rows, caption)

    def figure(self, fig: Figure | str | Path, caption: str | None = None) -> Report:
        path = fig.path if isinstance(fig, Figure) else Path(fig)
        cap = caption or (fig.caption if isinstance(fig, Figure) else path.stem)
        try:
            rel = path.resolve().relative_to(self.base_dir.resolve())
        except ValueError:
            rel = path
        self.parts.append(f"![{cap}]({rel.as_posix()})\n\n*{cap}*")
        return self

    def text(self) -> str:
        return "\n\n".join(self.parts) + "\n"

    def write(self, path: str | Path | None = None) -> Path:
        """Write atomically (default ``base_dir/report.md``); returns the path."""
        p = Path(path) if path is not None else self.base_dir / REPORT
        store.atomic_write_bytes(p, self.text().encode("utf-8"))
        return p


def _native_value(v: Any) -> Any:
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        try:
            return v.item()
        except (ValueError, AttributeError):
            return v
    if v is pd.NA:
        return None
    return v


# ---------------------------------------------------------------------------------------------
# Sweeps


def sweep_results_table(sweep_dir: str | Path, metrics: Sequence[str] | None = None) -> tuple[list[str], list[list[Any]]]:
    """Headers and rows: one row per grid point with its parameters, the number of successful
    runs and ``mean ± ci95`` of each metric (default: the plotted headline metrics)."""
    results, _, params = read_sweep(sweep_dir)
    ok = results[results["status"] == "ok"]
    chosen = list(metrics) if metrics else default_metrics(results)
    units = {m: display_unit(base_unit(m), pd.to_numeric(ok[m], errors="coerce").astype("float64").tolist()) for m in chosen}
    headers = [*params, "runs ok", *[metric_label(m, units[m]) for m in chosen]]
    rows: list[list[Any]] = []
    for _, g in results.groupby("point", sort=True):
        okg = g[g["status"] == "ok"]
        row: list[Any] = [_param_cell(g[p].iloc[0]) for p in params]
        row.append(f"{len(okg)}/{len(g)}")
        for m in chosen:
            st = stats.describe(pd.to_numeric(okg[m], errors="coerce").astype("float64").tolist())
            row.append(fmt_mean_ci(st.mean, st.ci, units[m].scale))
        rows.append(row)
    return headers, rows


def sweep_report(sweep_dir: str | Path, figures: Sequence[Figure] = (), metrics: Sequence[str] | None = None, title: str | None = None) -> Report:
    d = Path(sweep_dir)
    results, manifest, params = read_sweep(d)
    name = Path(str(manifest.get("scenario_source", "sweep"))).stem
    rep = Report(title or f"Sweep: {name}", base_dir=d)
    rep.paragraph(f"Generated by sctpsim {manifest.get('version', '?')} on {_today()} from `{store.RESULTS}` and `{store.MANIFEST}`.")
    rep.heading("Setup")
    vary = manifest.get("vary", {})
    setup = [
        ["scenario", f"`{manifest.get('scenario_source', '?')}` (hash {str(manifest.get('scenario_hash', '?'))[:12]})"],
        ["overrides (--set)", ", ".join(f"`{p}={v}`" for p, v in manifest.get("overrides", [])) or "none"],
        ["varied", "; ".join(f"`{p}` = {', '.join(_as_given(v) for v in vals)}" for p, vals in vary.items()) or "nothing (replications only)"],
        ["replications", f"{manifest.get('seeds', '?')} per point, root seed {manifest.get('root_seed', '?')}"],
        ["runs", f"{int((results['status'] == 'ok').sum())} ok, {int((results['status'] != 'ok').sum())} failed, of {len(results)}"],
        ["backend", str(manifest.get("backend", "?"))],
    ]
    rep.table(["", ""], setup)
    rep.heading("Results")
    headers, rows = sweep_results_table(d, metrics)
    rep.paragraph(
        "Mean ± half-width of the 95 % Student-t confidence interval over each grid point's successful runs. "
        f"Every metric is in `{store.SUMMARY}` (mean, sd, n, ci95) and every run in `{store.RESULTS}`."
    )
    rep.table(headers, rows)
    failed = results[results["status"] != "ok"]
    if len(failed):
        rep.heading("Failed runs")
        groups: dict[tuple[Any, ...], list[Any]] = {}
        for r in failed.itertuples(index=False):
            rd = dict(zip(failed.columns, r))
            k = (*[_param_cell(rd[p]) for p in params], rd["error"])
            groups.setdefault(k, []).append(_native_value(rd["seed"]))
        frows = [[*k[:-1], len(v), k[-1]] for k, v in groups.items()]
        rep.table([*params, "runs", "error"], frows)
    if figures:
        rep.heading("Figures")
        rep.paragraph(VECTOR_NOTE)
        for f in figures:
            rep.figure(f)
    return rep


def _param_cell(v: Any) -> Any:
    """A parameter's value in a table cell: a table or array (stored as JSON text in
    results.parquet, `store.param_column`) as `--vary` takes it, in TOML's inline syntax."""
    v = _native_value(v)
    if isinstance(v, str) and v[:1] in ("{", "["):
        try:
            return _as_given(json.loads(v))
        except ValueError:
            return v
    return v


def _as_given(v: Any) -> str:
    """A varied value as `--vary` takes it: tables and arrays in TOML's inline syntax
    (``{model = "bernoulli", p = 0.01}``) rather than as a Python dict's repr."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_as_toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return _as_toml(v)
    return str(v)


def _as_toml(v: Any) -> str:
    if isinstance(v, dict):
        return _as_given(v)
    if isinstance(v, list):
        return "[" + ", ".join(_as_toml(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    return json.dumps(v) if isinstance(v, str) else str(v)


#: Said once above the figures: the PNGs shown have vector copies for papers.
VECTOR_NOTE = "Each figure is also in `figures/` as PDF and SVG, with the same name."


# ---------------------------------------------------------------------------------------------
# Runs


def run_report(run_dir: str | Path, figures: Sequence[Figure] = (), notes: Sequence[str] = (), title: str | None = None) -> Report:
    d = Path(run_dir)
    summary = _read_json(d / "summary.json")
    manifest = _read_json(d / "run.json")
    rep = Report(title or f"Run: {summary.get('name') or d.name}", base_dir=d)
    rep.paragraph(f"Generated by sctpsim {manifest.get('version', '?')} on {_today()} from `summary.json` and `timeseries.parquet`.")
    rep.table(
        ["", ""],
        [
            ["scenario", f"`{manifest.get('scenario_source', '?')}` (hash {str(manifest.get('scenario_hash', '?'))[:12]})"],
            ["overrides", ", ".join(f"`{p}={v}`" for p, v in manifest.get("overrides", [])) or "none"],
            ["seed", summary.get("seed", "?")],
            ["simulated time (s)", summary.get("sim_time_s")],
            ["events", summary.get("events")],
            ["wall-clock time (s)", summary.get("wall_time_s")],
        ],
    )
    flows = summary.get("flows", [])
    if flows:
        rep.heading("Flows")
        rows = []
        for f in flows:
            rows.append([
                f.get("id"), f"{f.get('src')}→{f.get('dst')}", f.get("transport"), f.get("app"),
                f.get("packets_sent"), f.get("packets_delivered"),
                None if f.get("delivered_fraction") is None else 100 * f["delivered_fraction"],
                None if f.get("goodput_bps") is None else f["goodput_bps"] / 1e3,
                None if f.get("mean_delay_s") is None else 1e3 * f["mean_delay_s"],
                None if f.get("mean_rtt_s") is None else 1e3 * f["mean_rtt_s"],
                f.get("retransmissions"), f.get("timeouts"),
            ])
        rep.table(
            ["flow", "path", "transport", "app", "sent (packets)", "delivered (packets)", "delivered (%)",
             "goodput (kbit/s)", "mean delay (ms)", "mean RTT (ms)", "retransmissions", "timeouts"],
            rows,
        )
    net = summary.get("network", {})
    if net:
        rep.heading("Network")
        rep.table(["metric", "value"], [[k, v] for k, v in net.items()])
    if figures or notes:
        rep.heading("Figures")
        if figures:
            rep.paragraph(VECTOR_NOTE)
        for f in figures:
            rep.figure(f)
        rep.bullets(list(notes))
    return rep


def write_report(directory: str | Path, figures: Sequence[Figure] = (), notes: Sequence[str] = (), title: str | None = None) -> Path:
    """``DIR/report.md`` for a sweep directory (``results.parquet``) or a run directory."""
    d = Path(directory)
    if (d / store.RESULTS).is_file():
        rep = sweep_report(d, figures, title=title)
        rep.bullets(list(notes))
    else:
        rep = run_report(d, figures, notes, title=title)
    return rep.write(d / REPORT)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return obj if isinstance(obj, dict) else {}


def _today() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")
