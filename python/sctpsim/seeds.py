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
    try:
        value = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer in [0, 2**64 - 1], got {seed!r}") from None
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"{name} must be an integer in [0, 2**64 - 1], got {value}")
    return value


def seed_arg(text: str) -> int:
    """argparse ``type`` of ``--seed``: the message names the option (argparse adds it) and the
    parser exits 2 before any output is created."""
    try:
        return check_seed(int(text, 10))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer in [0, 2**64 - 1], got {text!r}") from None
