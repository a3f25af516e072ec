# Hand-written stub of the Rust extension `sctpsim._native` (crates/py/src/lib.rs).
# Checked against the compiled module by `python -m mypy.stubtest sctpsim._native`.

from os import PathLike
from typing import Any, Callable

__all__ = [
    "SctpsimError",
    "ScenarioError",
    "SimulationError",
    "__version__",
    "cli_value",
    "check_scenario",
    "resolved_parameters",
    "radio_ranges",
    "run",
    "bench_kernel",
    "run_conformance",
    "routing_protocols",
    "version",
]

__version__: str

class SctpsimError(Exception):
    """Base class of every sctpsim error."""

class ScenarioError(SctpsimError, ValueError):
    """A scenario or an override is invalid."""

    path: str
    line: int | None
    column: int | None

class SimulationError(SctpsimError):
    """A run failed for a reason other than its scenario."""

def cli_value(text: str) -> Any: ...
def check_scenario(text: str, overrides: list[tuple[str, Any]]) -> tuple[dict[str, Any], str]: ...
def resolved_parameters(
    text: str, overrides: list[tuple[str, Any]], seed: int | None = None
) -> list[dict[str, Any]]: ...
def radio_ranges(text: str, overrides: list[tuple[str, Any]]) -> dict[str, float] | None: ...
def run(
    text: str,
    overrides: list[tuple[str, Any]],
    seed: int | None = None,
    pcap_dir: str | PathLike[str] | None = None,
    progress: Callable[[float, float, int, float], object] | None = None,
    progress_interval_s: float = 0.2,
    trace: dict[str, Any] | None = None,
) -> dict[str, Any]: ...
def bench_kernel(
    pending: list[int], events: int, mean_ns: float = 100.0, seed: int = 1
) -> list[tuple[int, int, float, float]]: ...
def run_conformance(
    script_text: str,
    path: str,
    tolerance_usecs: int | None = None,
    defines: list[str] | None = None,
) -> tuple[bool, str, int | None, list[str]]: ...
def routing_protocols() -> list[str]: ...
def version() -> str: ...
