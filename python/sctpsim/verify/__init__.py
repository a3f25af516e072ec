"""`sctpsim verify`: model validations against their references.

A check is a function ``(quick: bool) -> list[Row]``; each row compares one simulated figure with
its reference within a stated tolerance. Later models register their checks here (Bianchi,
single-hop, PFTK, ...). The last line printed is ``N passed, M failed``; the exit code is 0 only
if every row passes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable


@dataclass
class Row:
    """One comparison: |simulated - reference| must be <= tolerance."""

    case: str
    simulated: float
    reference: float
    tolerance: float
    unit: str = ""

    @property
    def error(self) -> float:
        return abs(self.simulated - self.reference)

    @property
    def passed(self) -> bool:
        return self.error <= self.tolerance


@dataclass
class Check:
    """A named validation."""

    name: str
    description: str
    run: Callable[[bool], list[Row]]


REGISTRY: dict[str, Check] = {}


def register(name: str, description: str) -> Callable[[Callable[[bool], list[Row]]], Callable[[bool], list[Row]]]:
    """Decorator: add a check to the registry."""

    def deco(fn: Callable[[bool], list[Row]]) -> Callable[[bool], list[Row]]:
        REGISTRY[name] = Check(name, description, fn)
        return fn

    return deco


def _load_checks() -> None:
    from sctpsim.verify import rate_control, routing, sctp, sctp_wifi, tcp, usrsctp, wired, wireless  # noqa: F401  (registers their checks)


def main(names: list[str], quick: bool = False, list_only: bool = False) -> int:
    _load_checks()
    if list_only:
        for c in REGISTRY.values():
            print(f"{c.name:<20} {c.description}")
        return 0
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        sys.stderr.write(f"sctpsim: error: unknown check {unknown[0]!r}; known: {', '.join(REGISTRY)}\n")
        return 2
    passed = failed = 0
    for name in names or list(REGISTRY):
        check = REGISTRY[name]
        print(f"== {check.name}: {check.description}")
        rows = check.run(quick)
        print(f"{'case':<44} {'simulated':>14} {'reference':>14} {'error':>12} {'tolerance':>12}  result")
        for r in rows:
            print(
                f"{r.case:<44} {r.simulated:>14.6g} {r.reference:>14.6g} {r.error:>12.4g} {r.tolerance:>12.4g}  "
                f"{'pass' if r.passed else 'FAIL'}"
            )
            passed += r.passed
            failed += not r.passed
        print()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
