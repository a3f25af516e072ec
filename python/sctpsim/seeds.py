"""The range of seeds, checked where a seed enters (``--seed``, ``run(seed=)``, ``sweep(root_seed=)``).

A module of its own so the command line can check ``--seed`` while parsing without importing
pandas."""

from __future__ import annotations

import argparse
import operator

#: The largest seed. The core's `simulation.seed` is a u64; checking here turns a seed it cannot
#: take into a message naming the seed instead of an OverflowError from the binding after the
#: output directory was created.
SEED_MAX = 2**64 - 1


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as an int in ``[0, 2**64 - 1]``; ValueError naming ``name`` otherwise."""
    value = integer(seed)
    if value is None:
        raise ValueError(f"{name} must be an integer in [0, 2**64 - 1], got {seed!r}")
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"{name} must be an integer in [0, 2**64 - 1], got {value}")
    return value


def check_count(count: object, name: str) -> int:
    """``count`` (``seeds``, ``jobs``) as an int of at least 1; ValueError naming ``name``
    otherwise, with the same idea of an integer as :func:`check_seed`."""
    value = integer(count)
    if value is None or value < 1:
        raise ValueError(f"{name} must be an integer of at least 1, got {count!r}")
    return value


def integer(value: object) -> int | None:
    """``value`` as an int if it is an integer (``int``, numpy integers: ``operator.index``),
    else None. Booleans are not integers here (``seed=True`` ran as seed 1) and strings are not
    parsed (``seeds='3'`` was accepted while ``seed='x'`` was refused): the command line parses
    its text, the Python API takes numbers."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":  # numpy.bool_ too
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def seed_arg(text: str) -> int:
    """argparse ``type`` of ``--seed``: the message names the option (argparse adds it) and the
    parser exits 2 before any output is created."""
    try:
        return check_seed(int(text, 10))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer in [0, 2**64 - 1], got {text!r}") from None
