"""docs/notebooks/quickstart.ipynb runs from top to bottom with the installed package."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

REPO = Path(__file__).resolve().parents[2]


def test_quickstart_notebook_executes_without_errors(tmp_path: Path) -> None:
    nb = nbformat.read(REPO / "docs" / "notebooks" / "quickstart.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # the last cell prints the one-hop goodput in kbit/s
    last = nb.cells[-1]["outputs"][-1]["data"]["text/plain"]
    assert 550 < float(last) < 620
