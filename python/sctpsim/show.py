"""``sctpsim show``: every parameter a run of a scenario uses, after the radio, TCP and SCTP
profiles, the file and ``--set`` — value, unit, default and source — as an aligned table grouped
by section, or as JSON (docs/cli.md). The rows come from the core
(``Scenario.parameter_rows``, ``crates/engine/src/params``), which resolves them with the
functions that build the simulation, so the listing cannot drift from what runs."""

from __future__ import annotations

import argparse
import json
import math
import re
from typing import Any, Sequence

from sctpsim.scenario import Scenario
from sctpsim.store import clean_nan

#: How ``null`` prints: no value; the field is unset and the model does what
#: docs/scenario.md says for it (an RFC formula, "every address", "the end of the run").
NONE = "-"

_SECTION = re.compile(r"^([^.\[]+)(\[\d+\])?")


def section(path: str) -> str:
    """The block a path is printed in: its top-level table (``simulation``, ``node``, ``link``,
    ``radio``, ``mobility``, ...), each flow on its own (``flows[2]``)."""
    m = _SECTION.match(path)
    if not m:
        return path
    return m.group(0) if m.group(1) == "flows" else m.group(1)


#: Widest value and default column; a longer value (a list of ports, a trace) runs past it.
MAX_COLUMN = 28


def format_value(v: Any) -> str:
    """A value for reading (and for ``--set``): TOML-like booleans and lists, numbers to 10
    significant digits (``--json`` has them exact), strings as they are, ``-`` for ``null``."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isfinite(v) and v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.10g}"
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(", ", " = ") if isinstance(v, dict) else (", ", ": "))
    return str(v)


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as aligned columns (path, value, unit, default, source), one block per section
    with a blank line between sections. Values and defaults wider than :data:`MAX_COLUMN` are
    not cut: they push the rest of their row to the right."""
    cells = [(r["path"], format_value(r["value"]), r["unit"] or "", format_value(r["default"]), r["source"]) for r in rows]
    header = ("parameter", "value", "unit", "default", "source")
    widths = [max([len(header[i])] + [len(c[i]) for c in cells]) for i in range(4)]
    widths[1], widths[3] = min(widths[1], MAX_COLUMN), min(widths[3], MAX_COLUMN)

    def line(c: Sequence[str]) -> str:
        return "  ".join(c[i].ljust(widths[i]) for i in range(4)) + "  " + c[4]

    out = [line(header).rstrip()]
    last = None
    for r, c in zip(rows, cells):
        sec = section(r["path"])
        if sec != last:
            out.append("")
            out.append(f"[{sec}]")
            last = sec
        out.append(line(c).rstrip())
    return "\n".join(out)


def cli_main(sc: Scenario, args: argparse.Namespace) -> int:
    """``sctpsim show SCENARIO [--set ...] [--seed N] [--json]``."""
    rows = sc.parameter_rows(args.seed)
    if args.json:
        doc = {"scenario": sc.source, "scenario_hash": sc.hash, "overrides": [[p, v] for p, v in sc.overrides],
               "parameters": rows}
        print(json.dumps(clean_nan(doc), indent=1, allow_nan=False))
    else:
        print(f"# {sc.source}: {len(rows)} parameters (scenario hash {sc.hash[:12]})")
        print(format_table(rows))
    return 0
