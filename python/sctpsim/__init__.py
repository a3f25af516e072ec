"""sctpsim: a fast, deterministic packet-level simulator for SCTP and TCP over wireless and
mobile networks.

    import sctpsim
    sc = sctpsim.Scenario.load("scenarios/examples/wired-cbr.toml").with_(**{"flows[0].rate": "2Mbps"})
    res = sctpsim.run(sc, seed=3)     # the GIL is released while the core runs
    res.flows                         # pandas DataFrame, same columns as flows.parquet
"""

from sctpsim._native import ScenarioError, SctpsimError, SimulationError
from sctpsim._native import __version__
from sctpsim.results import RunResult
from sctpsim.runner import run
from sctpsim.scenario import Scenario, UnknownFieldError
from sctpsim.sweep import SweepResult, sweep
from sctpsim.topology import Topology
from sctpsim.trace import Trace

# `sctpsim.view(...)` is the function; the package `sctpsim.view` stays importable by name
# (`from sctpsim.view import write_view`), as the import system keeps it in sys.modules.
from sctpsim.view import view  # noqa: E402  (after the modules it uses)

__all__ = [
    "RunResult",
    "Scenario",
    "ScenarioError",
    "SctpsimError",
    "SimulationError",
    "SweepResult",
    "Topology",
    "Trace",
    "UnknownFieldError",
    "__version__",
    "run",
    "sweep",
    "view",
]
