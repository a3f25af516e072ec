"""The scenarios shipped with sctpsim (`scenarios/` in the repository is a link to this
folder, so the same files serve a checkout and an installed package)."""

from __future__ import annotations

from pathlib import Path

#: Folder of the example scenarios.
EXAMPLES = Path(__file__).resolve().parent / "examples"


def example(name: str) -> Path:
    """The path of an example scenario by file name, with or without `.toml`."""
    stem = name[:-5] if name.endswith(".toml") else name
    path = EXAMPLES / f"{stem}.toml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in EXAMPLES.glob("*.toml")))
        raise FileNotFoundError(f"no example scenario {name!r}; known: {known}")
    return path


#: The folder of a study's scenarios: `scenarios/<study>/` (e.g. `ye2003`).
def study_dir(study: str) -> Path:
    return Path(__file__).resolve().parent / study
