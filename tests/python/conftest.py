"""Shared helpers for the Python and CLI tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "scenarios" / "examples"


def sctpsim(*args: str, timeout: float = 600, **kw: object) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a user would (`python -m sctpsim ...`)."""
    return subprocess.run(
        [sys.executable, "-m", "sctpsim", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=kw.pop("cwd", REPO),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


def require_tool(name: str) -> str:
    """The path of an external tool. Missing tools fail the test when SCTPSIM_REQUIRE_TOOLS=1
    (set by scripts/test.sh, which installs them) and skip it otherwise."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("SCTPSIM_REQUIRE_TOOLS") == "1":
            pytest.fail(f"{name} is required (scripts/test.sh installs it)")
        pytest.skip(f"{name} not installed")
    return path


def default_sigint() -> None:
    """``preexec_fn`` for children a test interrupts with SIGINT: restore the default action.
    A shell that starts a job in the background (``cmd &`` without job control) leaves SIGINT
    ignored, the child inherits that, and Python then never installs its handler, so Ctrl-C
    tests would see the run finish instead."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)

