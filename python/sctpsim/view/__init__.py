"""``sctpsim view``: one self-contained HTML page that replays a run — node positions and
motion, frames on the air, per-flow paths, associations and handoffs, sparklines — with its
data embedded (packed typed arrays, gzip, base64) and its own script and style inlined, so it
opens in any browser with no network and no server (docs/view.md)."""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
import sys
import tempfile
import types
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from sctpsim.view.data import ViewData, ViewInputError, check_run_dir, collect

if TYPE_CHECKING:
    from sctpsim.results import RunResult

__all__ = ["view", "write_view", "ViewInputError", "pack"]

#: File name of the page in a run directory when no ``--out`` is given.
DEFAULT_NAME = "view.html"

#: Marker of the packed data (checked by the page before it reads further).
MAGIC = b"SCV1"

_DTYPES = {np.dtype(np.float64): "f64", np.dtype(np.float32): "f32", np.dtype(np.uint32): "u32",
           np.dtype(np.int32): "i32", np.dtype(np.uint16): "u16", np.dtype(np.int16): "i16",
           np.dtype(np.uint8): "u8"}


def pack(vd: ViewData) -> bytes:
    """The data as one gzip'd buffer: ``MAGIC``, the JSON length (uint32, little endian), the
    JSON (``meta`` with an ``arrays`` directory name → [type, byte offset, length]), then every
    array little-endian, each at an offset that is a multiple of 8 so the page can view it as
    a typed array without copying."""
    directory: dict[str, list[Any]] = {}
    chunks: list[bytes] = []
    offset = 0
    for name, arr in vd.arrays.items():
        a = np.ascontiguousarray(arr)
        kind = _DTYPES.get(a.dtype)
        if kind is None:
            raise TypeError(f"array {name}: unsupported dtype {a.dtype}")
        raw = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        directory[name] = [kind, offset, int(a.size)]
        pad = (-len(raw)) % 8
        chunks.append(raw + b"\0" * pad)
        offset += len(raw) + pad
    meta = dict(vd.meta)
    meta["arrays"] = directory
    js = json.dumps(meta, separators=(",", ":"), allow_nan=False, default=_json_default).encode("utf-8")
    head = MAGIC + len(js).to_bytes(4, "little") + js
    head += b"\0" * ((-len(head)) % 8)
    return gzip.compress(head + b"".join(chunks), compresslevel=6, mtime=0)


def _json_default(o: Any) -> Any:
    if isinstance(o, np.generic):
        return o.item()
    raise TypeError(f"not JSON: {type(o).__name__}")


def _asset(name: str) -> str:
    return resources.files("sctpsim.view").joinpath(name).read_text(encoding="utf-8")


def render(vd: ViewData) -> str:
    """The page: ``template.html`` with ``viewer.css``, ``viewer.js`` and the packed data
    (base64) inlined. Nothing in it refers to a URL."""
    data = base64.b64encode(pack(vd)).decode("ascii")
    title = html.escape(f"sctpsim view: {vd.meta.get('name', '')}")
    page = _asset("template.html")
    # The script must not end its own <script> element early.
    js = _asset("viewer.js").replace("</", "<\\/")
    for key, value in (("__TITLE__", title), ("/*__CSS__*/", _asset("viewer.css")), ("/*__JS__*/", js),
                       ("__DATA__", data)):
        page = page.replace(key, value, 1)
    return page


def write_view(run_dir: str | Path, out: str | Path | None = None,
               progress: Callable[[str], None] | None = None) -> Path:
    """Write the page of run directory ``run_dir`` to ``out`` (default ``run_dir/view.html``)
    atomically; returns its path. Raises :class:`ViewInputError` for a missing or foreign
    directory and an unwritable ``out``."""
    run = check_run_dir(run_dir)
    target = Path(out) if out is not None else run / DEFAULT_NAME
    if target.is_dir():
        raise ViewInputError(f"--out {target}: is a directory")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise ViewInputError(f"--out {target}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ViewInputError(f"--out {target}: directory {parent} is not writable")
    vd = collect(run, progress)
    if progress:
        progress("packing")
    page = render(vd)
    fd, tmp = tempfile.mkstemp(prefix=".view-", suffix=".html", dir=parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(page)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def view(run: str | Path | RunResult, out: str | Path | None = None) -> Path:
    """The replay page of a run: ``run`` is a run directory or a :class:`RunResult` (written to
    a temporary run directory first unless ``out`` is given next to nothing else). Returns the
    path of the HTML file (default ``RUN_DIR/view.html``; for a ``RunResult`` without ``out``,
    ``view.html`` in a new temporary directory)."""
    from sctpsim.results import RunResult

    if isinstance(run, RunResult):
        tmp = Path(tempfile.mkdtemp(prefix="sctpsim-view-"))
        run.write(tmp / "run")
        return write_view(tmp / "run", out if out is not None else tmp / DEFAULT_NAME)
    return write_view(run, out)


class _CallableModule(types.ModuleType):
    """This package's module class: calling the module is :func:`view`, so that
    ``sctpsim.view(run_dir)`` works and ``sctpsim.view`` stays the package."""

    def __call__(self, run: str | Path | RunResult, out: str | Path | None = None) -> Path:
        return view(run, out)


sys.modules[__name__].__class__ = _CallableModule
