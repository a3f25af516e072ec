"""Scenarios: TOML text plus overrides by field path. The schema and every check live in Rust
(DESIGN.md §1.8); this class only carries text and overrides and asks the core to check them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sctpsim import _native


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
    def load(cls, path: str | Path) -> Scenario:
        """Read and check a scenario file. A bare name without a folder that is not a file
        (``"wired-cbr"``) names one of the shipped examples."""
        p = Path(path)
        if not p.exists() and p.parent == Path(".") and p.suffix in ("", ".toml"):
            # A bare name such as "wired-cbr" names a shipped example.
            from sctpsim.scenarios import EXAMPLES

            candidate = EXAMPLES / f"{p.stem}.toml"
            if candidate.is_file():
                p = candidate
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise _native.ScenarioError(f"{p}: no such scenario file") from None
        except (OSError, UnicodeDecodeError) as e:
            raise _native.ScenarioError(f"{p}: cannot read: {e}") from None
        return cls(text, str(p))

    @classmethod
    def from_string(cls, text: str) -> Scenario:
        """Check scenario text given directly."""
        return cls(text)

    def with_(self, overrides: dict[str, Any] | None = None, /, **fields: Any) -> Scenario:
        """A copy with fields set by path: ``sc.with_(**{"flows[0].rate": "2Mbps"})`` or
        ``sc.with_({"simulation.seed": 4})``. Values are validated like values in the file."""
        items = list((overrides or {}).items()) + list(fields.items())
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
        """The value at a field path such as ``flows[0].rate`` (``default`` if absent)."""
        cur: Any = self._canonical
        for part in path.split("."):
            name, _, rest = part.partition("[")
            if not isinstance(cur, dict) or name not in cur:
                return default
            cur = cur[name]
            while rest:
                idx, _, rest = rest.partition("]")
                rest = rest.lstrip("[")
                if not isinstance(cur, list) or int(idx) >= len(cur):
                    return default
                cur = cur[int(idx)]
        return cur

    def __repr__(self) -> str:
        return f"Scenario({self._source!r}, overrides={list(self._overrides)!r})"
