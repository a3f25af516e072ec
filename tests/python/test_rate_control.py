"""`radio.rate_control`: a bad name exits 2 naming the field; `sctpsim verify rate-control --quick`
(the link against ns-3 3.44) passes."""

from __future__ import annotations

import re

from conftest import sctpsim


def test_unknown_algorithm_exits_2_naming_the_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = sctpsim("run", "wifi-saturation", "--set", 'radio.rate_control="foo"', "--out", str(tmp_path / "o"))
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'radio.rate_control: unknown algorithm "foo"; expected constant, arf, aarf or minstrel' in r.stderr


def test_verify_rate_control_quick() -> None:
    r = sctpsim("verify", "rate-control", "--quick")
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"7 passed, 0 failed", last), last
