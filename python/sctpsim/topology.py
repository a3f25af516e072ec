"""Scenarios written in Python: a small builder for the tables of a scenario file.

    import sctpsim
    sc = (sctpsim.Topology("two-hosts")
          .node("A").node("B")
          .link("A", "B", bandwidth="10Mbps", delay="5ms")
          .flow("A", "B", transport="tcp-newreno", app="ftp")
          .scenario(duration="30s"))

Every method takes the fields of its TOML table as keyword arguments (docs/scenarios.md);
nested tables are dicts (``loss={"model": "bernoulli", "p": 0.01}``). The builder checks
nothing itself: :meth:`Topology.scenario` hands the tables to the core, which checks them like
a file and raises :class:`sctpsim.ScenarioError` naming the field.
"""

from __future__ import annotations

import copy
from typing import Any

from sctpsim.scenario import Scenario, plain_value


class Topology:
    """Nodes, links, flows and other sections of a scenario, added in order. Each method
    returns the builder itself, so calls chain."""

    def __init__(self, name: str | None = None) -> None:
        self._name = name
        self._nodes: list[dict[str, Any]] = []
        self._links: list[dict[str, Any]] = []
        self._flows: list[dict[str, Any]] = []
        self._sections: dict[str, Any] = {}

    def node(self, name: str, **fields: Any) -> Topology:
        """A ``[[node]]``: ``node("ap", position=[0, 0], wireless=True)``."""
        self._nodes.append({"name": name, **fields})
        return self

    def link(self, a: str, b: str, **fields: Any) -> Topology:
        """A ``[[link]]`` between nodes ``a`` and ``b``: ``bandwidth``, ``delay``,
        ``queue_limit_packets``, ``loss``, ..."""
        self._links.append({"between": [a, b], **fields})
        return self

    def flow(self, src: str, dst: str, **fields: Any) -> Topology:
        """A ``[[flows]]`` entry from ``src`` to ``dst``: ``transport``, ``app``, ``rate``,
        ``start``, ``stop``, ``tcp={...}``, ``sctp={...}``, ..."""
        self._flows.append({"src": src, "dst": dst, **fields})
        return self

    def section(self, name: str, **fields: Any) -> Topology:
        """Any other top-level table (``radio``, ``routing``, ``mobility``, ``nodes``, ...);
        fields given again for the same section are merged in."""
        self._sections.setdefault(name, {}).update(fields)
        return self

    def to_dict(self, **simulation: Any) -> dict[str, Any]:
        """The scenario as a dict with the schema of the TOML files; ``simulation`` are the
        fields of ``[simulation]`` (``duration``, ``seed``, ``sample_interval``, ...)."""
        sim = dict(self._sections.get("simulation", {}))
        if self._name is not None:
            sim.setdefault("name", self._name)
        sim.update(simulation)
        out: dict[str, Any] = {"simulation": sim} if sim else {}
        for key, items in (("node", self._nodes), ("link", self._links), ("flows", self._flows)):
            if items:
                out[key] = copy.deepcopy(items)
        for name, fields in self._sections.items():
            if name != "simulation":
                out[name] = copy.deepcopy(fields)
        return plain_value(out)  # type: ignore[no-any-return]

    def scenario(self, **simulation: Any) -> Scenario:
        """The checked :class:`Scenario` (see :meth:`to_dict` for ``simulation``)."""
        return Scenario.from_dict(self.to_dict(**simulation), source=f"<Topology {self._name or ''}>".replace(" >", ">"))

    def __repr__(self) -> str:
        name = f"{self._name!r}, " if self._name else ""
        return f"Topology({name}{len(self._nodes)} nodes, {len(self._links)} links, {len(self._flows)} flows)"
