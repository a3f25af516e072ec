"""Hostile input to every command that reads the user's files or arguments (`run`, `sweep`,
`validate`, `show`, `plot`, `reproduce`): bad arguments, odd files (a directory, /dev/zero, a
FIFO, binary garbage, Latin-1), huge, negative and non-finite numbers, duplicate keys, wrong
types, bad `--set` paths and values, bad seeds, unwritable `--out`, oversized inline traces.

Each case must exit 2 with one line on stderr naming the field or argument and no traceback,
or succeed with a complete result; none may exit 1 (an internal error) or hang, and no output
directory may be left half-written. The commands run in this process (`cli.main`), so the
whole table takes seconds, not a Python start-up per case."""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd
import pytest

from conftest import EXAMPLES
from sctpsim.cli import main
from sctpsim.results import STAGING_PREFIX

GOOD = (EXAMPLES / "wired-cbr.toml").read_text().replace('duration = "61s"', 'duration = "1s"').replace(
    'stop = "60s"', 'stop = "1s"')

#: Two wireless nodes driven by an ns-2 movement trace; `{mobility}` is the trace's source.
WIRELESS = """
[simulation]
duration = "1s"
[nodes]
count = 2
[mobility]
model = "setdest"
{mobility}
[[flows]]
src = "n0"
dst = "n1"
app = "cbr"
rate = "64kbps"
"""
TRACE = '$node_(0) set X_ 0.0\n$node_(1) set X_ 50.0\n'

#: Gauss–Markov mobility, whose `max_speed_mps` accepts infinity ("no cap").
GAUSS_MARKOV = WIRELESS.replace('model = "setdest"\n{mobility}',
                                'model = "gauss-markov"\narea_m = [100, 100]\nalpha = 0.5\nmean_speed_mps = 1.0')


def _variant(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


@dataclass
class Files:
    """The odd files every case may refer to, made once per module."""

    d: Path

    def __call__(self, name: str) -> str:
        return str(self.d / name)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    d = tmp_path_factory.mktemp("hostile")
    (d / "good.toml").write_text(GOOD)
    (d / "adir").mkdir()
    os.mkfifo(d / "fifo")
    (d / "garbage.toml").write_bytes(bytes(range(256)) * 16)
    (d / "empty.toml").write_text("")
    (d / "latin1.toml").write_bytes('[simulation]\nname = "caf\xe9"\nduration = "1s"\n'.encode("latin-1"))
    texts = {
        "syntax.toml": GOOD + "\n[[link]\n",
        "dup.toml": _variant('duration = "1s"', 'duration = "1s"\nduration = "2s"'),
        "dur_neg.toml": _variant('duration = "1s"', 'duration = "-5s"'),
        "dur_nan.toml": _variant('duration = "1s"', 'duration = "nans"'),
        "dur_inf.toml": _variant('duration = "1s"', 'duration = "infs"'),
        "dur_huge.toml": _variant('duration = "1s"', 'duration = "99999999999999999999s"'),
        "dur_zero.toml": _variant('duration = "1s"', 'duration = "0s"'),
        "dur_int.toml": _variant('duration = "1s"', "duration = 5"),
        "dur_float_nan.toml": _variant('duration = "1s"', "duration = nan"),
        "seed_neg.toml": _variant("seed = 1", "seed = -1"),
        "seed_str.toml": _variant("seed = 1", 'seed = "one"'),
        "bw_zero.toml": _variant('bandwidth = "10Mbps"', 'bandwidth = "0bps"'),
        "bw_nan.toml": _variant('bandwidth = "10Mbps"', 'bandwidth = "nanMbps"'),
        "rate_inf.toml": _variant('rate = "1Mbps"', 'rate = "infMbps"'),
        "queue_u32.toml": _variant("queue_limit_packets = 50", "queue_limit_packets = 4294967296", ),
        "delay_neg.toml": _variant('delay = "5ms"', 'delay = "-5ms"'),
        "pkt_zero.toml": _variant("packet_size_bytes = 1000", "packet_size_bytes = 0"),
        "unknown_key.toml": _variant('name = "wired-cbr"', 'name = "wired-cbr"\nwarp = 9'),
        "names.toml": GOOD.replace('"src"', '"s/\u00f1\U0001F4A5/../x"'),
        "text_long_line.toml": WIRELESS.format(mobility="text = '''" + "#" * ((16 << 20) + 1) + "\n" + TRACE + "'''"),
        "file_zero.toml": WIRELESS.format(mobility='file = "/dev/zero"'),
        "file_fifo.toml": WIRELESS.format(mobility=f'file = "{d / "fifo"}"'),
        "file_dir.toml": WIRELESS.format(mobility=f'file = "{d / "adir"}"'),
        "file_missing.toml": WIRELESS.format(mobility=f'file = "{d / "no-such-trace.tcl"}"'),
        "gauss_markov.toml": GAUSS_MARKOV,
        "grid_garbage.toml": "seeds = \n",
        "grid_types.toml": 'seeds = "ten"\n',
        "grid_unknown.toml": "sedes = 3\n",
    }
    for name, text in texts.items():
        (d / name).write_text(text, encoding="utf-8")
    # Directories `plot` is pointed at.
    (d / "run_corrupt").mkdir()
    (d / "run_corrupt" / "timeseries.parquet").write_bytes(b"PAR1" + bytes(200))
    (d / "run_columns").mkdir()
    pd.DataFrame({"a": [1]}).to_parquet(d / "run_columns" / "timeseries.parquet")
    (d / "sweep_corrupt").mkdir()
    (d / "sweep_corrupt" / "results.parquet").write_bytes(b"garbage")
    (d / "sweep_columns").mkdir()
    pd.DataFrame({"a": [1]}).to_parquet(d / "sweep_columns" / "results.parquet")
    (d / "run_fifo").mkdir()
    os.mkfifo(d / "run_fifo" / "timeseries.parquet")
    (d / "run_dir").mkdir()
    (d / "run_dir" / "timeseries.parquet").mkdir()
    return Files(d)


#: (id, command line given the files; ``{out}`` is this case's fresh output directory,
#: expected exit code, a string the one-line error must contain).
CASES: list[tuple[str, Callable[[Files], list[str]], int, str]] = []


def case(cid: str, argv: Callable[[Files], list[str]], code: int = 2, names: str = "") -> None:
    CASES.append((cid, argv, code, names))


R = ["--quiet", "--out", "{out}"]
# --- run: files
case("run-missing-file", lambda f: ["run", f("nope.toml"), *R], names="no such scenario file")
case("run-directory", lambda f: ["run", f("adir"), *R], names="not a regular file")
case("run-dev-zero", lambda f: ["run", "/dev/zero", *R], names="not a regular file")
case("run-fifo", lambda f: ["run", f("fifo"), *R], names="not a regular file")
case("run-binary-garbage", lambda f: ["run", f("garbage.toml"), *R], names="not UTF-8")
case("run-empty-file", lambda f: ["run", f("empty.toml"), *R], names="simulation")
case("run-latin1", lambda f: ["run", f("latin1.toml"), *R], names="not UTF-8")
case("run-toml-syntax", lambda f: ["run", f("syntax.toml"), *R], names="line ")
case("run-duplicate-key", lambda f: ["run", f("dup.toml"), *R], names="duplicate key")
case("run-unknown-key", lambda f: ["run", f("unknown_key.toml"), *R], names="simulation.warp")
# --- run: values in the file
for name, field in [("dur_neg", "simulation.duration"), ("dur_nan", "simulation.duration"),
                    ("dur_inf", "simulation.duration"), ("dur_huge", "simulation.duration"),
                    ("dur_zero", "simulation.duration"), ("dur_int", "simulation.duration"),
                    ("dur_float_nan", "simulation.duration"), ("seed_neg", "simulation.seed"),
                    ("seed_str", "simulation.seed"), ("bw_zero", "link[0].bandwidth"),
                    ("bw_nan", "link[0].bandwidth"), ("rate_inf", "flows[0].rate"),
                    ("queue_u32", "link[0].queue_limit_packets"), ("delay_neg", "link[0].delay"),
                    ("pkt_zero", "flows[0].packet_size_bytes")]:
    case(f"run-{name}", lambda f, name=name: ["run", f(f"{name}.toml"), *R], names=field)
# --- run: arguments
for seed in ["abc", "-1", str(2**64), "1.5", ""]:
    case(f"run-seed-{seed or 'empty'}", lambda f, seed=seed: ["run", f("good.toml"), "--seed", seed, *R], names="--seed")
for sets, field in [("flows[99].rate=1Mbps", "flows[99]"), ("a..b=1", "a..b"), ("=1", "--set"), ("noequals", "--set"),
                    ("simulation.seed=99999999999999999999", "simulation.seed"), ("simulation.seed=-3", "simulation.seed"),
                    ("simulation.duration=nan", "simulation.duration"), ("simulation.duration=-1s", "simulation.duration"),
                    ("flows[0]=3", "flows[0]"), ("link[1].loss.p=nan", "link[1].loss.p"),
                    ("link[1].loss.p=-inf", "link[1].loss.p"), ("link[1].loss.p=1e400", "link[1].loss.p"),
                    ("simulation.sample_interval=1ns", "simulation.sample_interval"),
                    ("nodes={count=4294967295}", "nodes.count"), ("radio.data_rate=1Mbps", "radio"),
                    ("flows[0].transport=quic", "flows[0].transport"), ("simulation.nosuch=1", "simulation.nosuch"),
                    ("flows[0].rate.x=1", "flows[0].rate"), ("flows[x].rate=1", "flows[x]")]:
    case(f"run-set-{sets}", lambda f, sets=sets: ["run", f("good.toml"), "--set", sets, *R], names=field)
case("run-samples-over-the-row-limit", lambda f: ["run", f("good.toml"), "--set", "simulation.sample_interval=1us",
                                                 "--set", "simulation.duration=100s", *R], names="simulation.sample_interval")
case("run-out-dev-null", lambda f: ["run", f("good.toml"), "--quiet", "--out", "/dev/null"], names="--out")
case("run-out-is-a-file", lambda f: ["run", f("good.toml"), "--quiet", "--out", f("good.toml")], names="--out")
case("run-out-under-a-file", lambda f: ["run", f("good.toml"), "--quiet", "--out", f("good.toml") + "/sub"], names="--out")
case("run-out-under-proc", lambda f: ["run", f("good.toml"), "--quiet", "--out", "/proc/version/sub"], names="--out")
# --- run: mobility traces
case("run-mobility-text-line-over-16MiB", lambda f: ["run", f("text_long_line.toml"), *R], names="mobility.text")
case("run-mobility-file-dev-zero", lambda f: ["run", f("file_zero.toml"), *R], names="mobility.file")
case("run-mobility-file-fifo", lambda f: ["run", f("file_fifo.toml"), *R], names="mobility.file")
case("run-mobility-file-directory", lambda f: ["run", f("file_dir.toml"), *R], names="mobility.file")
case("run-mobility-file-missing", lambda f: ["run", f("file_missing.toml"), *R], names="mobility.file")
# --- run: names that are not file names succeed, captures stay inside the run directory
case("run-unicode-names-pcap", lambda f: ["run", f("names.toml"), "--pcap", *R], code=0)
# An infinite value the schema accepts must not break the JSON of run.json or `show --json`.
case("run-set-infinite-speed-cap", lambda f: ["run", f("gauss_markov.toml"), "--set", "mobility.max_speed_mps=inf", *R],
     code=0)
# --- validate
case("validate-directory", lambda f: ["validate", f("adir")], names="not a regular file")
case("validate-dev-zero", lambda f: ["validate", "/dev/zero"], names="not a regular file")
case("validate-fifo", lambda f: ["validate", f("fifo")], names="not a regular file")
case("validate-empty-argument", lambda f: ["validate", ""], names="not a regular file")
case("validate-set-unknown", lambda f: ["validate", f("good.toml"), "--set", "x=1"], names="x:")
case("validate-text-line-over-16MiB", lambda f: ["validate", f("text_long_line.toml")], names="mobility.text")
# --- show
case("show-dev-zero", lambda f: ["show", "/dev/zero"], names="not a regular file")
case("show-fifo", lambda f: ["show", f("fifo")], names="not a regular file")
case("show-seed-negative", lambda f: ["show", f("good.toml"), "--seed", "-5"], names="--seed")
case("show-set-radio-on-wired", lambda f: ["show", f("good.toml"), "--set", "radio.data_rate=1Mbps"], names="radio")
case("show-set-bad-value", lambda f: ["show", f("good.toml"), "--json", "--set", "link[0].mtu_bytes=-1"], names="link[0].mtu_bytes")
case("show-unicode-names", lambda f: ["show", f("names.toml"), "--json"], code=0)
case("show-set-infinite-speed-cap", lambda f: ["show", f("gauss_markov.toml"), "--json", "--set",
                                               "mobility.max_speed_mps=inf"], code=0)
# --- sweep
S = ["-j", "1", "--out", "{out}"]
case("sweep-vary-no-equals", lambda f: ["sweep", f("good.toml"), "--vary", "x", *S], names="--vary")
case("sweep-vary-empty-value", lambda f: ["sweep", f("good.toml"), "--vary", "flows[0].rate=", *S], names="--vary")
case("sweep-vary-unknown-path", lambda f: ["sweep", f("good.toml"), "--vary", "nosuch.field=1,2", *S], names="nosuch")
case("sweep-every-point-invalid", lambda f: ["sweep", f("good.toml"), "--vary", "simulation.duration=-1s,-2s", *S],
     names="simulation.duration")
case("sweep-seeds-zero", lambda f: ["sweep", f("good.toml"), "--seeds", "0", *S], names="--seeds")
case("sweep-seeds-negative", lambda f: ["sweep", f("good.toml"), "--seeds", "-3", *S], names="--seeds")
case("sweep-seeds-text", lambda f: ["sweep", f("good.toml"), "--seeds", "abc", *S], names="--seeds")
case("sweep-seeds-huge", lambda f: ["sweep", f("good.toml"), "--seeds", str(10**12), *S], names="runs per sweep")
case("sweep-grid-huge", lambda f: ["sweep", f("good.toml"), "--vary", "simulation.seed=" + ",".join(map(str, range(2000))),
                                   "--vary", "link[1].loss.p=" + ",".join(str(i / 1e4) for i in range(1000)), *S],
     names="runs per sweep")
case("sweep-jobs-zero", lambda f: ["sweep", f("good.toml"), "--jobs", "0", "--out", "{out}"], names="--jobs")
case("sweep-seed-negative", lambda f: ["sweep", f("good.toml"), "--seed", "-1", *S], names="--seed")
case("sweep-dask-bogus", lambda f: ["sweep", f("good.toml"), "--dask", "bogus", "--out", "{out}"], names="--dask")
case("sweep-out-dev-null", lambda f: ["sweep", f("good.toml"), "-j", "1", "--out", "/dev/null"], names="--out")
case("sweep-out-is-a-file", lambda f: ["sweep", f("good.toml"), "-j", "1", "--out", f("good.toml")], names="--out")
case("sweep-grid-missing", lambda f: ["sweep", f("good.toml"), "--grid", f("nope.toml"), *S], names="--grid")
case("sweep-grid-directory", lambda f: ["sweep", f("good.toml"), "--grid", f("adir"), *S], names="--grid")
case("sweep-grid-dev-zero", lambda f: ["sweep", f("good.toml"), "--grid", "/dev/zero", *S], names="--grid")
case("sweep-grid-fifo", lambda f: ["sweep", f("good.toml"), "--grid", f("fifo"), *S], names="--grid")
case("sweep-grid-binary", lambda f: ["sweep", f("good.toml"), "--grid", f("garbage.toml"), *S], names="--grid")
case("sweep-grid-syntax", lambda f: ["sweep", f("good.toml"), "--grid", f("grid_garbage.toml"), *S], names="--grid")
case("sweep-grid-wrong-type", lambda f: ["sweep", f("good.toml"), "--grid", f("grid_types.toml"), *S], names="seeds")
case("sweep-grid-unknown-key", lambda f: ["sweep", f("good.toml"), "--grid", f("grid_unknown.toml"), *S], names="sedes")
case("sweep-scenario-fifo", lambda f: ["sweep", f("fifo"), *S], names="not a regular file")
# --- plot
case("plot-missing", lambda f: ["plot", f("nope")], names="no such directory")
case("plot-a-file", lambda f: ["plot", f("good.toml")], names="good.toml")
case("plot-dev-null", lambda f: ["plot", "/dev/null"], names="/dev/null")
case("plot-empty-directory", lambda f: ["plot", f("adir")], names="neither a sweep directory")
case("plot-corrupt-timeseries", lambda f: ["plot", f("run_corrupt")], names="timeseries.parquet")
case("plot-foreign-timeseries", lambda f: ["plot", f("run_columns")], names="timeseries.parquet")
case("plot-corrupt-results", lambda f: ["plot", f("sweep_corrupt")], names="results.parquet")
case("plot-foreign-results", lambda f: ["plot", f("sweep_columns")], names="results.parquet")
case("plot-fifo-timeseries", lambda f: ["plot", f("run_fifo")], names="neither a sweep directory")
case("plot-directory-timeseries", lambda f: ["plot", f("run_dir")], names="neither a sweep directory")
case("plot-metric-on-a-run", lambda f: ["plot", f("adir"), "--metric", "x"], names="neither a sweep directory")
# --- reproduce
case("reproduce-unknown-study", lambda f: ["reproduce", "nosuch"], names="unknown study")
case("reproduce-unicode-study", lambda f: ["reproduce", "\u00f1\U0001F4A5"], names="unknown study")
case("reproduce-no-study", lambda f: ["reproduce"], names="name a study")
case("reproduce-jobs-zero", lambda f: ["reproduce", "ye2003", "--jobs", "0"], names="--jobs")
case("reproduce-jobs-negative", lambda f: ["reproduce", "ye2003", "--jobs", "-5"], names="--jobs")
case("reproduce-jobs-text", lambda f: ["reproduce", "ye2003", "--jobs", "two"], names="--jobs")
case("reproduce-dask-bogus", lambda f: ["reproduce", "ye2003", "--dask", "bogus"], names="--dask")
case("reproduce-out-dev-null", lambda f: ["reproduce", "ye2003", "--quick", "--out", "/dev/null"], names="--out")
case("reproduce-out-is-a-file", lambda f: ["reproduce", "ye2003", "--quick", "--out", f("good.toml")], names="--out")


def test_the_table_is_wide() -> None:
    assert len(CASES) >= 60
    assert len({c[0] for c in CASES}) == len(CASES), "case ids must be unique"
    commands = {c[1](Files(Path("/x")))[0] if c[1](Files(Path("/x"))) else "" for c in CASES}
    assert {"run", "sweep", "validate", "show", "plot", "reproduce"} <= commands


def _timeout(signum: int, frame: object) -> None:
    raise TimeoutError("the command did not finish in 60 s")


@pytest.mark.parametrize("cid, argv, code, names", CASES, ids=[c[0] for c in CASES])
def test_hostile_input(cid: str, argv: Callable[[Files], list[str]], code: int, names: str, files: Files,
                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    args = [a.replace("{out}", str(out)) for a in argv(files)]
    previous = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(60)
    try:
        rc = main(args)
    except SystemExit as e:  # argparse
        rc = e.code  # type: ignore[assignment]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    captured = capsys.readouterr()
    err = captured.err
    assert "Traceback" not in err and "internal error" not in err, err
    assert rc == code, (rc, err[-2000:])
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("sctpsim: error: "), err
        assert names in lines[0], (names, lines[0])
        # Nothing was written: the output directory is absent or empty.
        assert not out.exists() or not any(out.iterdir()), sorted(p.name for p in out.iterdir())
    else:
        assert not list(out.glob(f"{STAGING_PREFIX}*")) if out.exists() else True
        if args[0] == "run":
            summary = json.loads((out / "summary.json").read_text())
            assert summary["sim_time_s"] == 1.0 and not summary["interrupted"]
            assert json.loads((out / "run.json").read_text())["parameters"]
            if "--pcap" in args:  # names are made file-name safe: every capture is in pcap/
                captures = [p for p in out.rglob("*") if p.suffix == ".pcap"]
                assert captures and all(p.parent == out / "pcap" for p in captures), captures
        if args[0] == "show":
            rows = {r["path"]: r for r in json.loads(captured.out)["parameters"]}
            if "unicode" in cid:
                assert "\U0001F4A5" in rows["node[0].name"]["value"]
            else:  # no JSON NaN or Infinity: the cap of "inf" is null, "none"
                assert rows["mobility.max_speed_mps"]["value"] is None
