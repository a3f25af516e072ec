"""`sctpsim sweep` and `sctpsim.sweep`: grid and seeds, the store and resume (also after
SIGKILL and Ctrl-C), failure isolation, and identical results on a process pool, a Dask
LocalCluster and a Dask scheduler on loopback. Speed is measured in BENCHMARKS.md, not here."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest

import sctpsim
from conftest import EXAMPLES, REPO, default_sigint, sctpsim as cli
from sctpsim.sweep import (
    ProcessBackend,
    _execute,
    derive_seed,
    expand_grid,
    parse_vary,
    parse_vary_args,
    replication_seeds,
    split_values,
)

WIRED = str(EXAMPLES / "wired-cbr.toml")
SHORT = ["--set", "simulation.duration=2s"]
LOSS3 = ["--vary", "link[1].loss.p=0.01,0.05,0.1"]


def _last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def _metrics(out: Path) -> pd.DataFrame:
    """results.parquet keyed by run key, without the columns that may differ between backends."""
    df = pd.read_parquet(out / "results.parquet").set_index("key").sort_index()
    return df.drop(columns=["wall_time_s"])


# --- grid, seeds, --vary -----------------------------------------------------------------------


def test_seeds_follow_the_documented_derivation() -> None:
    import hashlib

    digest = hashlib.sha256(b"sctpsim/replication/v1:7:3").digest()
    assert derive_seed(7, 3) == int.from_bytes(digest[:8], "big") >> 1
    seeds = replication_seeds(7, 50)
    assert len(set(seeds)) == 50 and all(0 <= s < 2**63 for s in seeds)
    assert replication_seeds(7, 5) == seeds[:5]  # more seeds extend the list: old runs stay valid
    assert replication_seeds(8, 5) != seeds[:5]


def test_grid_is_the_product_with_the_first_path_slowest() -> None:
    grid = expand_grid({"a": [1, 2], "b": ["x", "y", "z"]})
    assert grid[:3] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"}]
    assert len(grid) == 6
    assert expand_grid({}) == [{}]


def test_vary_values_are_typed_like_set_values() -> None:
    assert parse_vary("link[1].loss.p=0.01,0.1") == ("link[1].loss.p", [0.01, 0.1])
    assert parse_vary("flows[0].rate = 1Mbps, 2Mbps") == ("flows[0].rate", ["1Mbps", "2Mbps"])
    assert parse_vary("x=[600,600],[800, 800]") == ("x", [[600, 600], [800, 800]])
    assert split_values('{ model = "bernoulli", p = 0.1 },"a,b"') == ['{ model = "bernoulli", p = 0.1 }', '"a,b"']
    for bad in ["nopath", "=1,2", "x=1,,2", "x=[1,2", "x=1]"]:
        with pytest.raises(ValueError):
            parse_vary(bad)
    with pytest.raises(ValueError, match="given twice"):
        parse_vary_args(["x=1", "x=2"])


# --- the Must-show sweep -----------------------------------------------------------------------


def test_three_points_ten_seeds_two_jobs(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    r = cli("sweep", WIRED, *LOSS3, "--seeds", "10", "--jobs", "2", "--out", str(out), *SHORT)
    assert r.returncode == 0, r.stderr
    assert _last_line(r.stdout) == "30 runs: 30 done, 0 skipped (already in store), 0 failed"
    results = pd.read_parquet(out / "results.parquet")
    assert len(results) == 30 and results["key"].is_unique
    assert (results["status"] == "ok").all()
    assert sorted(results["link[1].loss.p"].unique()) == [0.01, 0.05, 0.1]
    assert results.groupby("link[1].loss.p")["seed"].apply(lambda s: sorted(s)).map(tuple).nunique() == 1
    for col in ["seed", "version", "network.pdf", "flows[0].goodput_bps", "flows.goodput_bps.sum", "events"]:
        assert col in results.columns
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 3
    assert list(summary["link[1].loss.p"]) == [0.01, 0.05, 0.1]
    assert (summary["network.pdf.n"] == 10).all()
    assert (summary["network.pdf.ci95"] > 0).all()
    # pdf falls as the loss rises, and the 5 % point brackets 0.95
    assert summary["network.pdf.mean"].is_monotonic_decreasing
    mid = summary.iloc[1]
    assert abs(mid["network.pdf.mean"] - 0.95) < 3 * mid["network.pdf.ci95"] + 0.01
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["runs"] == 30 and manifest["complete"] and manifest["params"] == ["link[1].loss.p"]
    assert manifest["replication_seeds"] == replication_seeds(1, 10)
    assert len(list((out / "runs").glob("*.json"))) == 30

    # the same command again runs nothing
    again = cli("sweep", WIRED, *LOSS3, "--seeds", "10", "--jobs", "2", "--out", str(out), *SHORT)
    assert again.returncode == 0, again.stderr
    assert _last_line(again.stdout) == "30 runs: 0 done, 30 skipped (already in store), 0 failed"
    assert len(pd.read_parquet(out / "results.parquet")) == 30


def test_python_api_resumes_and_extends(tmp_path: Path) -> None:
    sc = sctpsim.Scenario.load(WIRED).with_({"simulation.duration": "1s"})
    first = sctpsim.sweep(sc, {"link[1].loss.p": [0.0, 0.2]}, seeds=2, jobs=1, out=tmp_path)
    assert (first.total, first.done, first.skipped, first.failed) == (4, 4, 0, 0) and first.ok
    more = sctpsim.sweep(sc, {"link[1].loss.p": [0.0, 0.2]}, seeds=3, jobs=1, out=tmp_path)
    assert (more.total, more.done, more.skipped) == (6, 2, 4)
    assert len(more.results) == 6 and more.results["key"].is_unique
    assert list(more.summary["network.pdf.n"]) == [3, 3]
    pdf = more.summary["network.pdf.mean"]
    assert pdf.iloc[0] > pdf.iloc[1]  # no loss beats 20 % loss
    assert more.line() == "6 runs: 2 done, 4 skipped (already in store), 0 failed"
    # a changed --set is a different scenario: nothing is reused
    other = sctpsim.sweep(sc.with_({"flows[0].rate": "500kbps"}), {"link[1].loss.p": [0.0]}, seeds=1, jobs=1, out=tmp_path)
    assert other.skipped == 0


# --- interruption ------------------------------------------------------------------------------

LONG = ["--set", "simulation.duration=2000s", "--set", "flows[0].stop=2000s"]  # ~0.3-0.5 s a run


def _wait_for_records(runs: Path, proc: subprocess.Popen[str], at_least: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if runs.is_dir() and len(list(runs.glob("*.json"))) >= at_least:
            return
        if proc.poll() is not None:
            pytest.fail(f"sweep ended early ({proc.returncode}): {proc.communicate()}")
        time.sleep(0.05)
    pytest.fail("no run records appeared")


def test_sigkill_halfway_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", WIRED, *LOSS3, "--seeds", "10", "--jobs", "2", "--out", str(out), *LONG]
    proc = subprocess.Popen(
        [sys.executable, "-m", "sctpsim", *args], cwd=REPO, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        _wait_for_records(out / "runs", proc, 6)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the parent and its workers, mid-sweep
        proc.communicate()
    records = list((out / "runs").glob("*.json"))
    before = len(records)
    assert 0 < before < 30, before
    for p in records:  # every record is whole
        assert json.loads(p.read_text())["status"] == "ok"

    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert _last_line(r.stdout) == f"30 runs: {30 - before} done, {before} skipped (already in store), 0 failed"
    results = pd.read_parquet(out / "results.parquet")
    assert len(results) == 30 and results["key"].is_unique
    assert results[["seed", "network.pdf", "flows[0].packets_delivered"]].notna().all().all()
    assert len(list((out / "runs").glob("*.json"))) == 30
    assert (results["sim_time_s"] == 2000.0).all()


def test_ctrl_c_stops_with_130_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", WIRED, "--vary", "link[1].loss.p=0.05,0.1", "--seeds", "6", "--jobs", "2", "--out", str(out), *LONG]
    proc = subprocess.Popen([sys.executable, "-m", "sctpsim", *args], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_sigint)
    try:
        _wait_for_records(out / "runs", proc, 2)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "not run (interrupted)" in _last_line(stdout)
    assert not json.loads((out / "sweep.json").read_text())["complete"]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert "12 runs:" in _last_line(r.stdout) and "0 failed" in _last_line(r.stdout)
    assert len(pd.read_parquet(out / "results.parquet")) == 12


# --- failures ----------------------------------------------------------------------------------


def test_invalid_point_fails_alone(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    r = cli("sweep", WIRED, "--vary", "link[1].loss.p=0.05,1.5,0.1", "--seeds", "3", "--jobs", "2",
            "--out", str(out), *SHORT)
    assert r.returncode == 1, r.stderr
    assert _last_line(r.stdout) == "9 runs: 6 done, 0 skipped (already in store), 3 failed"
    assert "link[1].loss.p=1.5" in r.stderr and "must be a probability in [0, 1], got 1.5" in r.stderr
    assert "Traceback" not in r.stderr
    results = pd.read_parquet(out / "results.parquet")
    failed = results[results["status"] == "failed"]
    assert len(results) == 9 and len(failed) == 3
    assert (failed["link[1].loss.p"] == 1.5).all() and failed["network.pdf"].isna().all()
    assert failed["error"].str.contains("must be a probability").all()
    rec = json.loads((out / "runs" / f"{failed['key'].iloc[0]}.json").read_text())
    assert rec["status"] == "failed" and rec["params"] == {"link[1].loss.p": 1.5} and rec["seed"] == failed["seed"].iloc[0]
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary["ok"]) == [3, 0, 3] and list(summary["failed"]) == [0, 3, 0]
    assert summary["network.pdf.mean"].isna().tolist() == [False, True, False]
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["failed"] == 3 and len(manifest["failures"]) == 3
    # failed runs are retried on the next invocation; finished ones are not
    again = cli("sweep", WIRED, "--vary", "link[1].loss.p=0.05,1.5,0.1", "--seeds", "3", "--jobs", "2",
                "--out", str(out), *SHORT)
    assert _last_line(again.stdout) == "9 runs: 0 done, 6 skipped (already in store), 3 failed"


def test_bad_arguments_exit_2_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sctpsim.cli import main

    cases = [
        ["--vary", "link[1].loss.p=1.5,2"],  # every point invalid: nothing can run
        ["--vary", "link[1].loss.p"],
        ["--vary", "link[1].loss.p=[0.1"],
        ["--vary", "nosuch.field=1,2"],
        ["--seeds", "0"],
        ["--jobs", "0"],
        ["--dask", "nonsense"],
        ["--set", "flows[0].rate=fast"],
    ]
    for extra in cases:
        try:
            code = main(["sweep", WIRED, "--out", str(tmp_path / "x"), *extra])
        except SystemExit as e:  # argparse errors
            code = e.code
        err = capsys.readouterr().err
        assert code == 2, (extra, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("sctpsim: error:"), (extra, err)
    assert not (tmp_path / "x" / "runs").exists() or not list((tmp_path / "x" / "runs").iterdir())


def _die_on_second_replication(task: dict[str, Any]) -> dict[str, Any]:
    if task["spec"]["replication"] == 1:
        os._exit(3)  # a worker crash, as the OOM killer would cause
    return _execute(task)


def test_a_worker_crash_fails_only_its_run(tmp_path: Path) -> None:
    sc = sctpsim.Scenario.load(WIRED).with_({"simulation.duration": "1s"})
    res = sctpsim.sweep(sc, {"link[1].loss.p": [0.1]}, seeds=4, jobs=2, out=tmp_path, executor=_die_on_second_replication)
    assert (res.done, res.failed) == (3, 1)
    (failure,) = res.failures
    assert failure["replication"] == 1 and failure["error_type"] == "WorkerDied"


def test_a_worker_of_another_build_refuses_to_run() -> None:
    out = _execute({"code_version": "0.0.0+other", "text": "", "source": "", "overrides": [], "seed": 1})
    assert out["status"] == "failed" and out["error_type"] == "VersionMismatch"


def test_process_backend_runs_everything_once() -> None:
    seen: list[str] = []
    tasks = [{"key": str(i), "spec": {}, "x": i} for i in range(7)]
    ProcessBackend(2).run(_echo, tasks, lambda t, out: seen.append(out["x"]))
    assert sorted(seen) == list(range(7))


def _echo(task: dict[str, Any]) -> dict[str, Any]:
    return {"x": task["x"]}


# --- Dask --------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def dask_scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Dask scheduler and one single-threaded worker on loopback, torn down afterwards."""
    pytest.importorskip("distributed")
    from distributed import Client

    port = _free_port()
    addr = f"tcp://127.0.0.1:{port}"
    scratch = tmp_path_factory.mktemp("dask")
    procs = [
        subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                          "--port", str(port), "--no-dashboard"], cwd=scratch,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]
    try:
        time.sleep(0.5)
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nworkers", "1",
                                       "--nthreads", "1", "--no-dashboard", "--local-directory", str(scratch)],
                                      cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with Client(addr, timeout="30s") as c:
            c.wait_for_workers(1, timeout=60)
        yield addr
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()


def test_dask_local_tcp_and_processes_agree(tmp_path: Path, dask_scheduler: str) -> None:
    grid = [*LOSS3, "--seeds", "4", *SHORT]
    runs = {
        "jobs": ["--jobs", "2"],
        "local": ["--dask", "local", "--jobs", "2"],
        "tcp": ["--dask", dask_scheduler],
    }
    frames = {}
    for name, how in runs.items():
        out = tmp_path / name
        r = cli("sweep", WIRED, *grid, *how, "--out", str(out))
        assert r.returncode == 0, (name, r.stderr)
        assert _last_line(r.stdout) == "12 runs: 12 done, 0 skipped (already in store), 0 failed", name
        frames[name] = _metrics(out)
    assert len(frames["jobs"]) == 12
    for name in ("local", "tcp"):
        pd.testing.assert_frame_equal(frames["jobs"], frames[name], check_exact=True)
    assert "dask tcp://127.0.0.1" in json.loads((tmp_path / "tcp" / "sweep.json").read_text())["backend"]


def test_dask_unreachable_scheduler_is_bad_input(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    r = cli("sweep", WIRED, "--dask", f"tcp://127.0.0.1:{_free_port()}", "--out", str(tmp_path), *SHORT, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "cannot connect" in r.stderr


@pytest.mark.parametrize("seed", ["-1", "18446744073709551616"])
def test_cli_sweep_rejects_a_root_seed_outside_u64(tmp_path: Path, seed: str) -> None:
    out = tmp_path / "sw"
    r = cli("sweep", WIRED, "--seeds", "1", "--seed", seed, "--out", str(out), "--jobs", "1")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--seed" in lines[0], r.stderr
    assert not out.exists()


def test_a_grid_file_defines_the_grid_its_constraints_seeds_and_fixed_values(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`sweep --grid FILE`: [vary] × seeds minus the [[exclude]] points, [set] on every run."""
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'seeds = 2\n'
        '[set]\n"simulation.duration" = "3s"\n"flows[0].stop" = "2s"\n'
        '[vary]\n"link[1].loss.p" = [0.0, 0.05, 0.1]\n"link[1].delay" = ["10ms", "50ms"]\n'
        '[[exclude]]\n"link[1].loss.p" = 0.1\n"link[1].delay" = "50ms"\n'
    )
    out = tmp_path / "sw"
    r = cli("sweep", "wired-cbr", "--grid", str(grid), "--jobs", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    res = pd.read_parquet(out / "results.parquet")
    points = {(p, d) for p, d in zip(res["link[1].loss.p"], res["link[1].delay"])}
    assert len(points) == 5 and (0.1, "50ms") not in points
    assert len(res) == 10
    assert (res["sim_time_s"] == 3.0).all()
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["exclude"] == [{"link[1].loss.p": 0.1, "link[1].delay": "50ms"}]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seeds = 0\n", "seeds must be an integer"),
        ("[vary]\nx = 1\n", "must be a non-empty list"),
        ('[vary]\n"link[1].loss.p" = [0.1]\n[[exclude]]\n"link[1].delay" = "5ms"\n', "is not a varied path"),
        ("bogus = 1\n", "unknown key 'bogus'"),
        ("seeds = [\n", "not valid TOML"),
    ],
)
def test_a_bad_grid_file_exits_2_naming_the_key(tmp_path, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    grid = tmp_path / "grid.toml"
    grid.write_text(text)
    r = cli("sweep", "wired-cbr", "--grid", str(grid), "--jobs", "1", "--out", str(tmp_path / "sw"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr and "Traceback" not in r.stderr


def test_exclude_in_the_python_api_leaves_points_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sc = sctpsim.Scenario.load(EXAMPLES / "wired-cbr.toml").with_(**{"simulation.duration": "3s", "flows[0].stop": "2s"})
    res = sctpsim.sweep(sc, vary={"link[1].loss.p": [0.0, 0.1]}, exclude=[{"link[1].loss.p": 0.1}], jobs=1)
    assert list(res.results["link[1].loss.p"]) == [0.0]
    with pytest.raises(sctpsim.ScenarioError, match="every point"):
        sctpsim.sweep(sc, vary={"link[1].loss.p": [0.1]}, exclude=[{"link[1].loss.p": 0.1}], jobs=1)


def test_sigterm_stops_a_sweep_like_ctrl_c_keeping_finished_runs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """SIGTERM to `sctpsim sweep` (a batch scheduler's time limit): exit 130, the finished runs
    in the store and in results.parquet, resumable."""
    out = tmp_path / "sw"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sctpsim", "sweep", str(EXAMPLES / "wired-cbr.toml"), "--seeds", "40", "--jobs", "2",
         "--out", str(out), "--set", "simulation.duration=10000s", "--set", "flows[0].stop=10000s"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 300
    runs = out / "runs"
    while time.monotonic() < deadline and proc.poll() is None:
        if runs.exists() and any(p.suffix == ".json" for p in runs.iterdir()):
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the sweep ended before the signal; make it longer"
    proc.send_signal(signal.SIGTERM)
    stdout, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, (proc.returncode, stdout, err)
    assert "Traceback" not in err
    assert "run the same command to resume" in stdout
    res = pd.read_parquet(out / "results.parquet")
    assert 1 <= (res["status"] == "ok").sum() < 40


def test_several_plans_share_one_pool_and_each_writes_its_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `reproduce` plans every part and runs them on one backend: a part's last runs overlap the
    # next part's first ones instead of draining a pool of their own.
    sw = sys.modules["sctpsim.sweep"]
    made: list[str] = []
    real = sw._backend
    monkeypatch.setattr(sw, "_backend", lambda *a: made.append("backend") or real(*a))
    sc = sctpsim.Scenario.load(WIRED).with_({"simulation.duration": "1s"})
    plans = [sw.plan_sweep(sc, {"link[1].loss.p": [p]}, 3, out=tmp_path / f"part{p}", jobs=2) for p in (0.01, 0.1)]
    assert [len(p.todo) for p in plans] == [3, 3]
    results = sw.run_plans(plans, jobs=2, progress=False, executor=_execute)
    assert made == ["backend"]
    assert [(r.done, r.failed) for r in results] == [(3, 0), (3, 0)]
    for p, r in zip((0.01, 0.1), results):
        assert (tmp_path / f"part{p}" / "results.parquet").is_file()
        assert set(r.results["link[1].loss.p"]) == {p}
    # the same plans again find every run stored
    again = [sw.plan_sweep(sc, {"link[1].loss.p": [p]}, 3, out=tmp_path / f"part{p}", jobs=2) for p in (0.01, 0.1)]
    assert [len(p.todo) for p in again] == [0, 0]


# --- scripts without a main guard (issue 35 item 6) ---------------------------------------------

_SWEEP_CALL = """res = sctpsim.sweep(sc, {"link[1].loss.p": [0.01, 0.05]}, seeds=1, jobs=2)
print(res.line())
"""


def _run_script(tmp_path: Path, guarded: bool) -> subprocess.CompletedProcess[str]:
    head = f"import sctpsim\nsc = sctpsim.Scenario.load({WIRED!r}).with_({{'simulation.duration': '1s'}})\n"
    body = 'if __name__ == "__main__":\n' + textwrap.indent(_SWEEP_CALL, "    ") if guarded else _SWEEP_CALL
    script = tmp_path / "study.py"
    script.write_text(head + body)
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_a_script_without_a_main_guard_fails_once_naming_the_fix(tmp_path: Path) -> None:
    """Spawned workers re-run an unguarded script: one clear error, not a traceback per worker."""
    proc = _run_script(tmp_path, guarded=False)
    assert proc.returncode == 1, proc.stdout
    assert "spawn_main" not in proc.stderr  # no worker tracebacks
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("sctpsim.sweep.SweepSetupError: ") and 'if __name__ == "__main__":' in last
    assert "study.py" in last and "jobs=1" in last
    assert proc.stderr.count('if __name__ == "__main__":') == 1


def test_a_script_with_a_main_guard_runs_its_sweep_on_two_workers(tmp_path: Path) -> None:
    proc = _run_script(tmp_path, guarded=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "2 runs: 2 done, 0 skipped (already in store), 0 failed"


def test_varying_simulation_seed_is_refused_naming_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each run's seed comes from the replication seeds, which override simulation.seed: a grid
    axis over it gave identical runs, each point with n = 1 and no interval."""
    from sctpsim.cli import main

    sc = sctpsim.Scenario.load(WIRED)
    with pytest.raises(sctpsim.ScenarioError, match=r"^simulation\.seed: .*seeds=") as info:
        sctpsim.sweep(sc, vary={"simulation.seed": [1, 2]}, jobs=1)
    assert info.value.path == "simulation.seed"
    assert main(["sweep", WIRED, "--vary", "simulation.seed=1,2", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sctpsim: error: simulation.seed: ") and "--seeds" in err[0]


def test_a_metric_pattern_matching_nothing_exits_2_naming_it_with_near_matches(tmp_path: Path) -> None:
    """Issue 35 item 9: `--metric 'nonexistent.*'` wrote a summary without metrics and exited 0."""
    out = tmp_path / "sweep"
    args = ["sweep", WIRED, "--seeds", "1", "-j", "1", "--out", str(out), "--set", "simulation.duration=1s"]
    r = cli(*args, "--metric", "nonexistent.*", "--metric", "network.pdf")
    assert r.returncode == 2, r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("sctpsim: error: --metric 'nonexistent.*': matches no metric of the results")
    assert "network.*" in line and "flows.*" in line  # what there is, when nothing is near
    assert len(list((out / "runs").glob("*.json"))) == 1  # the run is kept for the next attempt
    typo = cli(*args, "--metric", "network.pfd")
    assert typo.returncode == 2
    assert "--metric 'network.pfd'" in typo.stderr and "did you mean 'network.pdf'" in typo.stderr
    assert "1 already in store; nothing to run" in typo.stdout
    ok = cli(*args, "--metric", "network.pdf")
    assert ok.returncode == 0, ok.stderr
    assert "network.pdf.mean" in pd.read_csv(out / "summary.csv").columns


def test_a_sweep_into_a_directory_in_use_exits_2_naming_it(tmp_path: Path) -> None:
    from sctpsim import store
    from sctpsim.sweep import SweepSetupError

    out = tmp_path / "sweep"
    with store.out_dir_lock(out):
        r = cli("sweep", WIRED, "-j", "1", "--out", str(out), "--set", "simulation.duration=1s")
        assert r.returncode == 2, r.stdout + r.stderr
        (line,) = r.stderr.strip().splitlines()
        assert line.startswith(f"sctpsim: error: --out {out}: another sctpsim process (pid {os.getpid()})")
        assert not (out / "runs").exists()
        with pytest.raises(SweepSetupError, match="another sctpsim process"):
            sctpsim.sweep(WIRED, out=out, jobs=1)
    assert not (out / store.LOCK_FILE).exists()
