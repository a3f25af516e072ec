"""HTML for Jupyter's rich display (``_repr_html_``) of Scenario, RunResult and SweepResult:
small tables built from plain values, every text escaped."""

from __future__ import annotations

import html
from typing import Any, Iterable, Sequence

STYLE = "border-collapse:collapse;text-align:left"


def esc(value: Any) -> str:
    return html.escape(str(value))


def inline(value: Any, limit: int = 120) -> str:
    """A compact one-line text of a plain value (``a=1, b=[x, y]``), cut at ``limit``."""
    if isinstance(value, dict):
        text = ", ".join(f"{k}={inline(v, limit)}" for k, v in value.items())
        text = f"{{{text}}}" if limit < 120 else text
    elif isinstance(value, list):
        text = "[" + ", ".join(inline(v, 60) for v in value) + "]"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = None) -> str:
    """An HTML table of escaped cells."""
    out = [f'<table style="{STYLE}">']
    if header:
        out.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def title(kind: str, text: str) -> str:
    return f"<p><b>{esc(kind)}</b> {esc(text)}</p>"


def sections(canonical: dict[str, Any], max_items: int = 5) -> list[tuple[str, str]]:
    """One row per top-level section of a scenario: its name and a short description (arrays
    of tables: how many, then their first entries)."""
    rows: list[tuple[str, str]] = []
    first = ["simulation", "node", "nodes", "link", "flows"]
    order = sorted(canonical, key=lambda k: (first.index(k) if k in first else len(first), k))
    for name in order:
        value = canonical[name]
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            items = "; ".join(inline(x, 100) for x in value[:max_items])
            more = f"; … ({len(value) - max_items} more)" if len(value) > max_items else ""
            rows.append((f"{name} ({len(value)})", items + more))
        else:
            rows.append((name, inline(value, 300)))
    return rows
