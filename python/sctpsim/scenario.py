"""Scenarios: TOML text plus overrides by field path. The schema and every check live in Rust
(DESIGN.md §1.8); this class only carries text and overrides and asks the core to check them."""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, Mapping

from sctpsim import _native


#: Largest scenario file read, bytes: room for the largest inline mobility trace
#: (``mobility.text``, bounded like ``mobility.file`` at 1 GiB by the core,
#: crates/engine/src/wireless/trace_file.rs) and 1 MiB of everything else.
MAX_SCENARIO_BYTES = (1 << 30) + (1 << 20)


def read_text_file(path: str | Path, limit: int = MAX_SCENARIO_BYTES) -> str:
    """The UTF-8 text of ``path``, which must be a regular file of at most ``limit`` bytes.

    Input files (scenarios, grid files) are checked before they are read: ``read_text`` on
    ``/dev/zero`` grows without end, and on a FIFO without a writer it blocks forever, in C,
    where not even Ctrl-C reaches it. OSError (no such file, permissions) and ValueError (not
    a regular file, too large, not UTF-8) carry the reason, without the path."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a device, FIFO or socket"
        raise ValueError(f"not a regular file ({kind})")
    too_big = f"larger than the limit of {limit} bytes"
    if st.st_size > limit:
        raise ValueError(too_big)
    with open(path, "rb") as f:
        data = f.read(limit + 1)  # a file that grew meanwhile (or /proc, size 0) is bounded too
    if len(data) > limit:
        raise ValueError(too_big)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 text (byte {e.start})") from None


def scenario_error(path: str, message: str) -> _native.ScenarioError:
    """A :class:`sctpsim.ScenarioError` for ``path`` raised from Python (the same attributes as
    the core's: ``path``, ``line`` and ``column``)."""
    e = _native.ScenarioError(f"{path}: {message}" if path else message)
    e.path = path
    e.line = None
    e.column = None
    return e


def as_scenario(value: Any, name: str = "scenario") -> Scenario:
    """What :func:`sctpsim.run` and :func:`sctpsim.sweep` take as a scenario: a
    :class:`Scenario` as it is, a dict written with the schema of the TOML files through
    :meth:`Scenario.from_dict`, a path through :meth:`Scenario.load`. Anything else is a
    TypeError naming the argument, before pathlib or the core sees it."""
    if isinstance(value, Scenario):
        return value
    if isinstance(value, Mapping):
        return Scenario.from_dict(value)
    if isinstance(value, (str, os.PathLike)):
        return Scenario.load(value)
    raise TypeError(f"{name} must be a Scenario, a path or a dict, got {type(value).__name__}")


def plain_value(value: Any, path: str = "") -> Any:
    """``value`` as the plain Python types a scenario holds (str, bool, int, float, list, dict):
    numpy scalars and 0-d arrays become Python scalars, numpy arrays, tuples and ranges become
    lists, recursively. Anything else raises :class:`sctpsim.ScenarioError` naming ``path``."""
    if isinstance(value, (bool, int, float, str)):
        if isinstance(value, str) and type(value) is not str:
            return str(value)  # numpy.str_
        if type(value) not in (bool, int, float, str):
            np = sys.modules.get("numpy")
            if np is not None and isinstance(value, np.generic):
                return value.item()  # numpy.float64 subclasses float
        return value
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(value, np.generic):
            item = value.item()
            if isinstance(item, (bool, int, float, str)):
                return item
            raise scenario_error(path, f"cannot use a value of numpy type {type(value).__name__} in a scenario")
        if isinstance(value, np.ndarray):
            if value.ndim == 0:
                return plain_value(value[()], path)
            return [plain_value(x, f"{path}[{i}]") for i, x in enumerate(value)]
    if isinstance(value, (list, tuple, range)):
        return [plain_value(x, f"{path}[{i}]") for i, x in enumerate(value)]
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise scenario_error(path, f"table keys must be strings, got {type(k).__name__}")
            out[k] = plain_value(v, f"{path}.{k}" if path else k)
        return out
    raise scenario_error(path, f"cannot use a value of Python type {type(value).__name__} in a scenario")


#: Core error messages that mean "this path does not exist" (crates/engine/src/scenario).
#: "invalid type: map" comes from a probe that had to turn a scalar or array field into a
#: table to reach the path (``radio.propagation.exponent.x``).
_NO_SUCH_PATH = ("unknown field", "index out of range", "is not a table", "is not an array", "malformed field path",
                 "invalid type: map")

#: Columns of :meth:`Scenario.parameters` (``sctpsim show``; docs/cli.md).
PARAMETER_COLUMNS = ["path", "value", "unit", "default", "source"]


class UnknownFieldError(_native.ScenarioError, KeyError):
    """A field path that names no field of the scenario schema (:meth:`Scenario.get`), or no
    parameter the scenario uses (:meth:`Scenario.effective`). A :class:`sctpsim.ScenarioError`
    (the command line reports it with exit code 2) and a :class:`KeyError` (``dict``-like
    lookups can catch it as one)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return Exception.__str__(self)


def _unknown_field(path: str, message: str) -> UnknownFieldError:
    e = UnknownFieldError(f"{path}: {message}")
    e.path = path
    e.line = None
    e.column = None
    return e


class Scenario:
    """A scenario file and the overrides applied to it, in order.

    Scenarios are immutable: :meth:`with_` returns a new one. Loading checks the scenario, so an
    invalid file raises :class:`sctpsim.ScenarioError` naming the field.
    """

    __slots__ = ("_text", "_source", "_overrides", "_canonical", "_hash")

    def __init__(self, text: str, source: str = "<string>", overrides: tuple[tuple[str, Any], ...] = ()) -> None:
        self._text = text
        self._source = source
        self._overrides = tuple(overrides)
        canonical, digest = _native.check_scenario(text, list(self._overrides))
        self._canonical: dict[str, Any] = canonical
        self._hash: str = digest

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Scenario:
        """Read and check a scenario file. A bare name without a folder that is not a file
        (``"wired-cbr"``) names one of the shipped examples. The file must be a regular UTF-8
        file of at most :data:`MAX_SCENARIO_BYTES` (:func:`read_text_file`); otherwise, as
        for every invalid scenario, :class:`sctpsim.ScenarioError`."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"Scenario.load: path must be a str or os.PathLike, got {type(path).__name__}")
        p = Path(path)
        if not p.exists() and p.parent == Path(".") and p.suffix in ("", ".toml"):
            # A bare name such as "wired-cbr" names a shipped example.
            from sctpsim.scenarios import EXAMPLES

            candidate = EXAMPLES / f"{p.stem}.toml"
            if candidate.is_file():
                p = candidate
        try:
            text = read_text_file(p)
        except FileNotFoundError:
            raise _native.ScenarioError(f"{p}: no such scenario file") from None
        except OSError as e:
            raise _native.ScenarioError(f"{p}: cannot read: {e.strerror or e}") from None
        except ValueError as e:
            raise _native.ScenarioError(f"{p}: cannot read: {e}") from None
        return cls(text, str(p))

    @classmethod
    def from_string(cls, text: str) -> Scenario:
        """Check scenario text given directly."""
        return cls(text)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<dict>") -> Scenario:
        """A scenario written as a Python dict with the schema of the TOML files (tables are
        dicts, arrays of tables lists of dicts): ``tomllib.load(f)`` of a scenario file gives
        one. It is written as TOML text (:meth:`text`) and checked like a file; numpy values
        are accepted (:func:`plain_value`)."""
        plain = plain_value(data)
        if not isinstance(plain, dict):
            raise scenario_error("", f"a scenario is a dict of tables, got {type(data).__name__}")
        return cls(dumps_toml(plain), source)

    def to_toml(self) -> str:
        """The canonical scenario after overrides as TOML text (``Scenario.from_string`` of it
        is the same scenario, with the same :attr:`hash`)."""
        return dumps_toml(self._canonical)

    def with_(self, overrides: dict[str, Any] | None = None, /, **fields: Any) -> Scenario:
        """A copy with fields set by path: ``sc.with_(**{"flows[0].rate": "2Mbps"})`` or
        ``sc.with_({"simulation.seed": 4})``. Values are validated like values in the file."""
        if overrides is not None and not isinstance(overrides, Mapping):
            raise TypeError("Scenario.with_: overrides must be a mapping of field paths to values, "
                            f"got {type(overrides).__name__} (or pass fields as keywords)")
        items = [(str(p), plain_value(v, str(p))) for p, v in list((overrides or {}).items()) + list(fields.items())]
        return Scenario(self._text, self._source, self._overrides + tuple(items))

    def with_cli_overrides(self, assignments: list[str]) -> Scenario:
        """Apply ``path=value`` strings as given to ``--set`` (values in TOML syntax, or plain
        text as a string)."""
        items: list[tuple[str, Any]] = []
        for a in assignments:
            path, sep, value = a.partition("=")
            if not sep or not path.strip():
                raise _native.ScenarioError(f"--set {a!r}: expected path=value")
            items.append((path.strip(), _native.cli_value(value.strip())))
        return Scenario(self._text, self._source, self._overrides + tuple(items))

    @property
    def source(self) -> str:
        """Where the text came from."""
        return self._source

    @property
    def text(self) -> str:
        """The scenario text as loaded (without overrides)."""
        return self._text

    @property
    def overrides(self) -> tuple[tuple[str, Any], ...]:
        """Overrides in the order they apply."""
        return self._overrides

    @property
    def hash(self) -> str:
        """SHA-256 of the canonical scenario after overrides."""
        return self._hash

    def to_dict(self) -> dict[str, Any]:
        """The canonical scenario after overrides, as plain Python values."""
        return self._canonical

    def get(self, path: str, default: Any = None) -> Any:
        """The value the scenario (file and overrides) writes at a field path such as
        ``flows[0].rate``, as written (``"2Mbps"``), or ``default`` for a field of the schema
        that it leaves unset: an optional field, one at its default, or a field inside an
        optional table the scenario does not have (``radio.propagation.exponent`` without
        ``[radio.propagation]``, ``flows[0].tcp.mss_bytes`` of a flow without ``tcp``).

        A path that names no field of the schema (``radio.propagation.bogus``,
        ``radio.propagation.exponent.x``), or an index past the end of an array, raises
        :class:`UnknownFieldError` (a :class:`sctpsim.ScenarioError` and a :class:`KeyError`)
        naming it. The value a run actually uses, after profiles and model defaults, is
        :meth:`effective` (all of them: :meth:`parameters`)."""
        cur: Any = self._canonical
        for part in path.split("."):
            name, _, rest = part.partition("[")
            if not isinstance(cur, dict) or name not in cur:
                self._check_path(path)
                return default
            cur = cur[name]
            while rest:
                idx, _, rest = rest.partition("]")
                rest = rest.lstrip("[")
                if not isinstance(cur, list) or not idx.isdigit() or int(idx) >= len(cur):
                    self._check_path(path)
                    return default
                cur = cur[int(idx)]
        return cur

    def _check_path(self, path: str) -> None:
        """Raise UnknownFieldError if ``path`` is no field of the schema. The core has no schema
        query, so the path is probed: a string is set there and checked. Errors that concern
        the path itself (unknown field, index out of range, not a table, malformed path, a
        table where a scalar or array belongs) mean it does not exist; any other outcome
        (accepted, wrong type, a failed semantic check) means the schema has the field."""
        try:
            _native.check_scenario(self._text, list(self._overrides) + [(path, "")])
        except _native.ScenarioError as e:
            msg = str(e)
            if any(s in msg for s in _NO_SUCH_PATH):
                raise _unknown_field(path, f"no such field in the scenario schema ({msg})") from None

    def parameters(self, seed: int | None = None) -> Any:
        """Every parameter a run of this scenario uses, after profiles and overrides, as a pandas
        DataFrame with columns ``path``, ``value``, ``unit``, ``default``, ``source`` (what
        ``sctpsim show`` prints; docs/cli.md). Resolved by the core with the functions that
        build the simulation. ``seed`` is the run's seed if it replaces ``simulation.seed``
        (source ``--seed``)."""
        import pandas as pd

        return pd.DataFrame(self.parameter_rows(seed), columns=PARAMETER_COLUMNS)

    def parameter_rows(self, seed: int | None = None) -> list[dict[str, Any]]:
        """:meth:`parameters` as a list of dicts (what ``run.json`` stores as ``parameters``)."""
        if seed is not None:
            from sctpsim.seeds import check_seed

            seed = check_seed(seed)
        return _native.resolved_parameters(self._text, list(self._overrides), seed=seed)

    def effective(self, path: str, seed: int | None = None) -> Any:
        """The value a run uses at ``path`` after profiles and model defaults, in the unit of
        :meth:`parameters` (``radio.data_rate`` → ``2000000`` bit/s even when the scenario
        leaves it to the profile). A path the run does not use (a field of another model, a
        TCP knob of an SCTP flow, no such field) raises :class:`UnknownFieldError`."""
        for row in self.parameter_rows(seed):
            if row["path"] == path:
                return row["value"]
        self.get(path)  # raises if the schema has no such field
        raise _unknown_field(path, "not a parameter of this scenario's run (a field of a model or section it does not use)")

    def __repr__(self) -> str:
        n = len(self._overrides)
        return f"Scenario({self._source!r}, {n} override{'s' if n != 1 else ''}, hash={self._hash[:12]})"

    def _repr_html_(self) -> str:
        """Jupyter's display: name, source, hash, the overrides and the scenario's sections."""
        from sctpsim import _display as d

        name = self.get("simulation.name") or "(unnamed)"
        parts = [d.title("Scenario", name),
                 d.table([("source", self._source), ("hash", self._hash)])]
        if self._overrides:
            parts.append("<p>Overrides, in order</p>")
            parts.append(d.table([(p, d.inline(v)) for p, v in self._overrides], ["path", "value"]))
        parts.append(d.table(d.sections(self._canonical), ["section", "contents"]))
        return "".join(parts)


# ---------------------------------------------------------------------------------------------
# A small TOML writer for the value types scenarios use: tables, arrays of tables, strings,
# integers, floats, booleans and arrays (of those or of inline tables).

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def dumps_toml(data: Mapping[str, Any]) -> str:
    """``data`` (plain Python values, as from :func:`plain_value`) as TOML text, shaped like a
    scenario file: arrays on one line, ``[[flows]]`` blocks, scalars before sub-tables.

    Why not tomli-w (weighed for issue 35): it is as exact (both round-trip through tomllib),
    but writes every array one element per line and arrays of tables whose items hold tables
    inline (``flows = [ { ... }, ]``), so ``to_toml()`` of a scenario would no longer read like
    the file a user wrote; the 40 lines here are checked by
    ``test_toml_writer_handles_the_value_types_of_scenarios``."""
    lines: list[str] = []
    _write_table(lines, [], data, header=False)
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _write_table(lines: list[str], prefix: list[str], table: Mapping[str, Any], header: bool,
                 array_item: bool = False) -> None:
    name = ".".join(_toml_key(k) for k in prefix)
    if array_item:
        lines += ["", f"[[{name}]]"]
    elif header:
        lines += ["", f"[{name}]"]
    for k, v in table.items():
        if not isinstance(v, Mapping) and not _is_table_array(v):
            lines.append(f"{_toml_key(k)} = {_toml_value(v, [*prefix, k])}")
    for k, v in table.items():
        if isinstance(v, Mapping):
            _write_table(lines, [*prefix, k], v, header=True)
    for k, v in table.items():
        if _is_table_array(v):
            for item in v:
                _write_table(lines, [*prefix, k], item, header=True, array_item=True)


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _toml_string(k)


def _toml_string(s: str) -> str:
    out = json.dumps(s, ensure_ascii=False)  # JSON escapes are TOML escapes
    return out.replace("\x7f", "\\u007f")


def _toml_value(v: Any, path: list[str]) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        text = repr(v)
        return text if any(c in text for c in ".en") else f"{text}.0"
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x, path) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x, [*path, k])}" for k, x in v.items()) + "}"
    raise scenario_error(".".join(path), f"cannot write a value of Python type {type(v).__name__} as TOML")
