"""Sweep definitions in a file (``sctpsim sweep SCENARIO --grid FILE``, docs/sweeps.md).

A grid file is TOML; every key is optional::

    seeds = 10                      # replications per point (--seeds wins)
    seed = 1                        # root seed (--seed wins)

    [set]                           # fixed overrides for every run (before --set)
    "simulation.duration" = "60s"

    [vary]                          # the grid: path = list of values (--vary adds or replaces)
    "link[1].loss.p" = [0.01, 0.05, 0.1]
    "flows[0].transport" = ["tcp-newreno", "sctp"]

    [[exclude]]                     # constraints: a point matching every entry is left out
    "flows[0].transport" = "sctp"
    "link[1].loss.p" = 0.1

Errors name the file and the key (a ValueError the command line turns into exit 2).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sctpsim.seeds import check_seed

_KEYS = {"seeds", "seed", "set", "vary", "exclude"}

#: Largest grid file read (a grid file is a few lines; 16 MiB leaves room for long value lists).
_MAX_GRID_BYTES = 16 << 20


@dataclass
class GridSpec:
    vary: dict[str, list[Any]] = field(default_factory=dict)
    exclude: list[dict[str, Any]] = field(default_factory=list)
    sets: dict[str, Any] = field(default_factory=dict)
    seeds: int | None = None
    seed: int | None = None


def load_grid(path: str | Path) -> GridSpec:
    """The grid file at ``path``; ValueError naming the file and the key otherwise."""
    from sctpsim.scenario import read_text_file

    p = Path(path)
    try:
        doc = tomllib.loads(read_text_file(p, limit=_MAX_GRID_BYTES))
    except OSError as e:
        raise ValueError(f"--grid {p}: cannot read it ({e.strerror or e})") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"--grid {p}: not valid TOML ({e})") from None
    except ValueError as e:
        raise ValueError(f"--grid {p}: cannot read it ({e})") from None
    return grid_from_dict(doc, str(p))


def grid_from_dict(doc: dict[str, Any], where: str = "grid") -> GridSpec:
    unknown = sorted(set(doc) - _KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")
    spec = GridSpec()
    if "seeds" in doc:
        n = doc["seeds"]
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"{where}: seeds must be an integer ≥ 1, got {n!r}")
        spec.seeds = n
    if "seed" in doc:
        try:
            spec.seed = check_seed(doc["seed"], "seed")
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
    for name in ("set", "vary"):
        if name in doc and not isinstance(doc[name], dict):
            raise ValueError(f"{where}: [{name}] must be a table of field paths")
    spec.sets = dict(doc.get("set", {}))
    for path, values in doc.get("vary", {}).items():
        if not isinstance(values, list) or not values:
            raise ValueError(f"{where}: vary.{path!r} must be a non-empty list of values")
        spec.vary[str(path)] = list(values)
    excl = doc.get("exclude", [])
    if not isinstance(excl, list) or not all(isinstance(e, dict) and e for e in excl):
        raise ValueError(f"{where}: [[exclude]] entries must be non-empty tables of path = value")
    for i, e in enumerate(excl):
        for path in e:
            if path not in spec.vary:
                raise ValueError(f"{where}: exclude[{i}].{path!r} is not a varied path")
    spec.exclude = [dict(e) for e in excl]
    return spec


def excluded(point: dict[str, Any], exclude: list[dict[str, Any]]) -> bool:
    """Whether ``point`` matches every entry of one of the ``exclude`` tables."""
    return any(all(k in point and point[k] == v for k, v in e.items()) for e in exclude)
