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

# `sctpsim.view` is the package of `sctpsim view`, and callable: `sctpsim.view(run_dir)` is
# `sctpsim.view.view(run_dir)` (its module class has a __call__), so `import sctpsim.view.data`
# keeps working, which binding a function to the name would break.
from sctpsim import view  # noqa: E402  (after the modules it uses)

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
