"""The `sctpsim` command line (contract: DESIGN.md §5, docs/cli.md).

Exit codes: 0 success, 2 bad input (scenario or arguments; one line naming the field, no
traceback), 1 internal error, 130 interrupted (Ctrl-C, or SIGTERM during `run`, `sweep` or
`reproduce`; what was measured is still written).
Set SCTPSIM_DEBUG=1 to see tracebacks of internal errors.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import traceback
from pathlib import Path
from typing import Sequence

from sctpsim import _native
from sctpsim.progress import ProgressBar
from sctpsim.seeds import seed_arg

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # `prog` is already the full command ("sctpsim" or "sctpsim run"), so the hint names the
        # help of the (sub)command whose arguments were wrong.
        sys.stderr.write(f"sctpsim: error: {message} (see `{self.prog} --help`)\n")
        raise SystemExit(EXIT_BAD_INPUT)


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="sctpsim", description="Packet-level simulator for SCTP and TCP over wireless and mobile networks.")
    p.add_argument("--version", action="version", version=f"sctpsim {_native.__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    r = sub.add_parser("run", help="run one simulation")
    r.add_argument("scenario", help="scenario TOML file")
    r.add_argument("--out", help="output directory (default: results/<scenario name>)")
    r.add_argument("--seed", type=seed_arg, help="root seed, 0 to 2**64-1 (overrides simulation.seed)")
    r.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=VALUE",
                   help="override a field, e.g. --set flows[0].rate=2Mbps (repeatable)")
    r.add_argument("--pcap", action="store_true", help="write IP-level captures to OUT/pcap/<node>-<iface>.pcap")
    r.add_argument("--trace", action="store_true",
                   help="record a per-packet trace (enqueue, dequeue, tx, rx, forward, drop) to OUT/trace.parquet")
    r.add_argument("--trace-node", dest="trace_nodes", action="append", default=[], metavar="NAME",
                   help="trace only at this node (repeatable; implies --trace)")
    r.add_argument("--trace-flow", dest="trace_flows", action="append", type=int, default=[], metavar="ID",
                   help="trace only this flow's packets, id as in flows.parquet (repeatable; implies --trace)")
    r.add_argument("--trace-layer", dest="trace_layers", action="append", default=[], metavar="LAYER",
                   help="trace only this layer: link, mac, ip or phy (repeatable; implies --trace)")
    r.add_argument("--trace-max-rows", type=int, metavar="N",
                   help="stop tracing after N rows (default 10000000, at most 50000000; implies --trace)")
    r.add_argument("--quiet", action="store_true",
                   help="print nothing but warnings and errors (no progress bar, summary table or file names)")

    r.add_argument("--view", action="store_true",
                   help="after the run, write OUT/view.html, the replay page (turns on trace_positions and a bounded "
                   "trace; see docs/view.md)")

    vw = sub.add_parser("view", help="a self-contained HTML page that replays a run directory (docs/view.md)")
    vw.add_argument("run_dir", help="a run directory (sctpsim run ... --out DIR)")
    vw.add_argument("--out", help="the HTML file to write (default: RUN_DIR/view.html)")

    sh = sub.add_parser("show", help="every parameter a run uses, with its default, unit and source")
    sh.add_argument("scenario", help="scenario TOML file")
    sh.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=VALUE",
                    help="override a field, as for run (repeatable)")
    sh.add_argument("--seed", type=seed_arg, help="the run's root seed, 0 to 2**64-1 (overrides simulation.seed)")
    sh.add_argument("--json", action="store_true", help="machine-readable output (one JSON object)")

    v = sub.add_parser("validate", help="check a scenario without running it")
    v.add_argument("scenario")
    v.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=VALUE")

    ver = sub.add_parser("verify", help="run model validations against their references")
    ver.add_argument("checks", nargs="*", help="checks to run (default: all); see --list")
    ver.add_argument("--quick", action="store_true", help="the quick subset (as in CI)")
    ver.add_argument("--list", action="store_true", help="list the checks and exit")

    b = sub.add_parser("bench", help="throughput benchmarks, one key=value line per case")
    b.add_argument("what", choices=["kernel", "channel", "scaling", "scenario"],
                   help="kernel: hold model; channel: wireless frames/s at constant density; "
                        "scaling: wall time per simulated second per node of a mobile beaconing network; "
                        "scenario: wall time of a scenario")
    b.add_argument("scenario", nargs="?", help="scenario file (bench scenario)")
    b.add_argument("--events", type=int, default=20_000_000, help="events per kernel case (default 2e7)")
    b.add_argument("--pending", type=str, default="1000,100000,1000000",
                   help="comma-separated pending-event counts (default 1000,100000,1000000)")
    b.add_argument("--nodes", type=str, default="100,1000,10000",
                   help="channel: comma-separated network sizes (default 100,1000,10000)")
    b.add_argument("--frames", type=int, default=1_000_000, help="channel: frames per case (default 1e6)")
    b.add_argument("--sim-time", type=float, default=60.0, help="scaling: simulated seconds per case (default 60)")
    b.add_argument("--min-cpu", type=float, default=3.0,
                   help="scaling: repeat a case until it has used this many CPU seconds and report "
                        "the median (default 3; 0 runs each case once)")

    from sctpsim.sweep import add_arguments as add_sweep_arguments

    sw = sub.add_parser("sweep", help="a parameter grid × seeds, resumable, on a process pool or Dask")
    add_sweep_arguments(sw)

    pl = sub.add_parser("plot", help="the standard figures (PNG, PDF, SVG) and report.md of a run or sweep directory")
    pl.add_argument("dir", help="a sweep directory (results.parquet) or a run directory (timeseries.parquet)")
    pl.add_argument("--metric", dest="metrics", action="append", default=[], metavar="NAME",
                    help="sweep metric to plot against the swept parameter (repeatable; default: the headline metrics)")
    pl.add_argument("--no-report", action="store_true", help="figures only, no report.md")

    from sctpsim.reproduce import add_arguments as add_reproduce_arguments

    rp = sub.add_parser("reproduce", help="reproduce a published study: claims.csv, report.md, figures (see --list)")
    add_reproduce_arguments(rp)

    from sctpsim.conformance import add_arguments as add_conformance_arguments

    co = sub.add_parser("conformance", help="packetdrill-format SCTP scripts (ETSI TS 102 369) in virtual time")
    add_conformance_arguments(co)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "view":
            return _cmd_view(args)
        if args.command == "validate":
            return _cmd_validate(args)
        if args.command == "show":
            from sctpsim.show import cli_main as show_main

            return show_main(_load(args), args)
        if args.command == "verify":
            from sctpsim.verify import main as verify_main

            return verify_main(args.checks, quick=args.quick, list_only=args.list)
        if args.command == "bench":
            return _cmd_bench(args)
        if args.command == "sweep":
            from sctpsim.sweep import cli_main as sweep_main

            return _stopped_by_sigterm(lambda: sweep_main(args))
        if args.command == "plot":
            from sctpsim.plot import cli_main as plot_main

            return plot_main(args)
        if args.command == "reproduce":
            from sctpsim.reproduce import cli_main as reproduce_main

            return _stopped_by_sigterm(
                lambda: reproduce_main(args, argv=list(argv) if argv is not None else sys.argv[1:])
            )
        if args.command == "conformance":
            from sctpsim.conformance import cli_main as conformance_main

            return conformance_main(args)
    except _native.ScenarioError as e:
        sys.stderr.write(f"sctpsim: error: {e}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("sctpsim: interrupted\n")
        return EXIT_INTERRUPTED
    except _native.SimulationError as e:
        sys.stderr.write(f"sctpsim: simulation failed: {e}\n")
        return EXIT_INTERNAL
    except Exception as e:  # noqa: BLE001 - the contract is: no traceback unless asked
        if os.environ.get("SCTPSIM_DEBUG"):
            traceback.print_exc()
        sys.stderr.write(f"sctpsim: internal error: {type(e).__name__}: {e}\n")
        return EXIT_INTERNAL
    return EXIT_INTERNAL


def _load(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from sctpsim.scenario import Scenario

    sc = Scenario.load(args.scenario)
    if args.sets:
        sc = sc.with_cli_overrides(args.sets)
    return sc


def _cmd_validate(args: argparse.Namespace) -> int:
    sc = _load(args)
    d = sc.to_dict()
    print(
        f"{sc.source}: ok ({len(d.get('node', [])) + int(d.get('nodes', {}).get('count', 0))} nodes, "
        f"{len(d.get('link', []))} links, "
        f"{len(d.get('flows', []))} flows; scenario hash {sc.hash[:12]})"
    )
    return EXIT_OK


def _cmd_view(args: argparse.Namespace) -> int:
    """``sctpsim view RUN_DIR [--out FILE]``: exit 2 naming the problem for a missing or foreign
    directory or an unwritable ``--out``."""
    from sctpsim.view import ViewInputError

    try:
        path = _write_view(Path(args.run_dir), Path(args.out) if args.out else None)
    except ViewInputError as e:
        sys.stderr.write(f"sctpsim: error: {e}\n")
        return EXIT_BAD_INPUT
    print(f"view written to {path} ({_size(path)})")
    return EXIT_OK


def _size(path: Path) -> str:
    n = path.stat().st_size
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


#: A run directory whose tables add up to more than this many bytes reports its steps on stderr.
_VIEW_PROGRESS_BYTES = 5_000_000


def _write_view(run_dir: Path, out: Path | None) -> Path:
    from sctpsim.view import write_view

    size = sum(p.stat().st_size for p in run_dir.glob("*.parquet")) if run_dir.is_dir() else 0
    def progress(msg: str) -> None:
        sys.stderr.write(f"sctpsim view: {msg}\n")

    return write_view(run_dir, out, progress=progress if size > _VIEW_PROGRESS_BYTES else None)


#: `run --view` without --trace-max-rows: the trace stops after this many rows (the 900 s,
#: 50-node manet-cbr run traces 0.95 million), so an unexpectedly busy run cannot fill memory.
VIEW_TRACE_MAX_ROWS = 5_000_000

#: `run --view`: positions are recorded at every sample; a scenario sampling more sparsely than
#: this is sampled this often (seconds), so that motion between samples is a short straight leg.
VIEW_MAX_SAMPLE_INTERVAL_S = 1.0


def _view_scenario(sc, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The scenario of `run --view`: with wireless nodes, `trace_positions` on and the sample
    interval at most `VIEW_MAX_SAMPLE_INTERVAL_S` unless `--set` chose them; a trace of every
    layer bounded by `VIEW_TRACE_MAX_ROWS` unless a --trace option chose otherwise."""
    d = sc.to_dict()
    wireless = any(n.get("wireless") for n in d.get("node", [])) or bool(d.get("nodes"))
    chosen = {p for p, _ in sc.overrides}
    changes: dict[str, object] = {}
    if wireless and "simulation.trace_positions" not in chosen:
        changes["simulation.trace_positions"] = True
    if wireless and "simulation.sample_interval" not in chosen:
        interval = sc.effective("simulation.sample_interval")
        if isinstance(interval, (int, float)) and interval > VIEW_MAX_SAMPLE_INTERVAL_S:
            changes["simulation.sample_interval"] = f"{VIEW_MAX_SAMPLE_INTERVAL_S:g}s"
    if changes:
        sc = sc.with_(changes)
    if _trace_options(args) is None:
        args.trace = True
        args.trace_max_rows = VIEW_TRACE_MAX_ROWS
    return sc


def _cmd_run(args: argparse.Namespace) -> int:
    return _stopped_by_sigterm(lambda: _run(args))


def _stopped_by_sigterm(body):  # type: ignore[no-untyped-def]
    """Runs ``body`` with SIGTERM (kill, a batch scheduler's time limit, `timeout`) turned into
    the Ctrl-C path: a run still writes what it measured, a sweep or a reproduction keeps every
    finished run in its store and writes its tables (exit 130, the same command resumes),
    instead of the process dying with nothing written."""
    previous = _on_sigterm(_raise_interrupt)
    try:
        return body()
    finally:
        _on_sigterm(previous)


def _raise_interrupt(signum: int, frame: object) -> None:
    # The core polls Python's signal handlers about five times a second; a KeyboardInterrupt
    # raised there ends the simulation with `interrupted: true` and returns what it measured.
    raise KeyboardInterrupt


def _on_sigterm(handler):  # type: ignore[no-untyped-def]
    """Install ``handler`` for SIGTERM; returns the previous one (None where it cannot be set:
    not the main thread, or no SIGTERM on the platform)."""
    if handler is None:
        return None
    try:
        return signal.signal(signal.SIGTERM, handler)
    except (ValueError, AttributeError):
        return None


def _run(args: argparse.Namespace) -> int:
    sc = _load(args)
    if args.view:
        sc = _view_scenario(sc, args)
    out = Path(args.out) if args.out else Path("results") / Path(args.scenario).stem
    from sctpsim.store import DirectoryBusyError, out_dir_lock, writable_dir_problem

    problem = writable_dir_problem(out)
    if problem:
        sys.stderr.write(f"sctpsim: error: --out {out}: {problem}\n")
        return EXIT_BAD_INPUT
    try:
        with out_dir_lock(out):
            return _run_locked(args, sc, out)
    except DirectoryBusyError as e:
        sys.stderr.write(f"sctpsim: error: --out {out}: {e}\n")
        return EXIT_BAD_INPUT


def _run_locked(args: argparse.Namespace, sc, out: Path) -> int:  # type: ignore[no-untyped-def]
    """The run into ``out`` once this process holds the directory (store.out_dir_lock)."""
    from sctpsim.results import new_staging_dir

    parameters = sc.parameter_rows(args.seed)
    # The run is written into a staging directory in `out` (captures during the run) and moved
    # into place once complete: the previous run there stays whole until then.
    staging = new_staging_dir(out)
    try:
        return _run_into(args, sc, out, staging, parameters)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _run_into(args: argparse.Namespace, sc, out: Path, staging: Path, parameters) -> int:  # type: ignore[no-untyped-def]
    from sctpsim.results import PCAP_DIR, RunResult
    from sctpsim.trace import truncation_warning

    bar = ProgressBar(enabled=False) if args.quiet else ProgressBar()
    try:
        raw = _native.run(
            sc.text,
            list(sc.overrides),
            seed=args.seed,
            pcap_dir=str(staging / PCAP_DIR) if args.pcap else None,
            progress=bar,
            trace=_trace_options(args),
        )
    except _native.ScenarioError as e:
        # The trace options are checked against the scenario before the run; name them as
        # they were typed.
        flag = _TRACE_FLAGS.get(e.path.split("[")[0]) if e.path else None
        if flag is None:
            raise
        sys.stderr.write(f"sctpsim: error: {flag}: {str(e)[len(e.path) + 2:]}\n")
        return EXIT_BAD_INPUT
    bar.close()
    # A SIGTERM from here on must not abort the writing of what was measured: note it and
    # report the run as interrupted once the files are in place.
    terminated: list[int] = []
    _on_sigterm(lambda signum, frame: terminated.append(signum))
    res = RunResult.from_native(raw, scenario=sc)
    res.parameters = parameters
    res.write(out, command=["sctpsim", *sys.argv[1:]], staging=staging)
    if not args.quiet:
        _print_summary(res)
        print(f"results written to {out}/")
    for w in res.warnings:
        sys.stderr.write(f"sctpsim: warning: {w}\n")
    warning = truncation_warning(res.summary)
    if warning:
        sys.stderr.write(f"sctpsim: warning: {warning} (--trace-max-rows)\n")
    if args.view:
        from sctpsim.view import ViewInputError

        try:
            page = _write_view(out, None)
            if not args.quiet:
                print(f"view written to {page} ({_size(page)})")
        except ViewInputError as e:
            sys.stderr.write(f"sctpsim: error: --view: {e}\n")
            return EXIT_BAD_INPUT
    if res.interrupted:
        sys.stderr.write(f"sctpsim: interrupted at t={res.summary['sim_time_s']:.3f}s; partial results written\n")
        return EXIT_INTERRUPTED
    if terminated:
        sys.stderr.write("sctpsim: terminated after the run ended; results written\n")
        return EXIT_INTERRUPTED
    return EXIT_OK


#: The command-line option of each trace option, for errors about them.
_TRACE_FLAGS = {"trace.nodes": "--trace-node", "trace.flows": "--trace-flow", "trace.layers": "--trace-layer",
                "trace.max_rows": "--trace-max-rows"}


def _trace_options(args: argparse.Namespace) -> dict[str, object] | None:
    """The trace options of `sctpsim run` for `_native.run` (None: no trace). Any --trace-*
    option turns the trace on."""
    on = args.trace or args.trace_nodes or args.trace_flows or args.trace_layers or args.trace_max_rows is not None
    if not on:
        return None
    return {"nodes": args.trace_nodes, "flows": args.trace_flows, "layers": args.trace_layers,
            "max_rows": args.trace_max_rows}


def _print_summary(res) -> None:  # type: ignore[no-untyped-def]
    s = res.summary
    print(f"seed {s['seed']}  simulated {s['sim_time_s']:.3f} s  events {s['events']}  wall {s['wall_time_s']:.3f} s")
    header = f"{'flow':>4} {'path':<16} {'transport':<9} {'sent pkts':>9} {'deliv pkts':>10} {'deliv %':>8} {'goodput kbit/s':>14} {'delay ms':>9}"
    print(header)
    for f in s["flows"]:
        delay = f"{1e3 * f['mean_delay_s']:.3f}" if f["mean_delay_s"] is not None else "-"
        print(
            f"{f['id']:>4} {f['src'] + '->' + f['dst']:<16} {f['transport']:<9} {f['packets_sent']:>9} "
            f"{f['packets_delivered']:>10} {100 * f['delivered_fraction']:>8.2f} {f['goodput_bps'] / 1e3:>14.1f} {delay:>9}"
        )
    for f in s["flows"]:
        if f.get("completion_time_s") is not None:
            print(f"flow {f['id']}: file of {f['bytes_delivered']} bytes complete {f['completion_time_s']:.3f} s after its start "
                  f"(goodput over that time)")
    for a in s.get("sctp", []):
        print(
            f"sctp flow {a['id']}: {a['state']}, retransmissions fast {a['fast_retransmissions']} "
            f"t3 {a['t3_retransmissions']} early {a['early_retransmissions']} "
            f"(to alternate {a['retransmissions_to_alternate']}), "
            f"path switches {a['path_switches']}, gap blocks {a['gap_blocks_sent']}"
        )
        for p in s.get("paths", []):
            if p["flow"] == a["id"] and p["side"] == "sender":
                role = "primary" if p["primary"] else "alternate"
                print(
                    f"  path {p['addr']:<15} {role:<9} {p['state']:<11} data chunks {p['data_chunks_sent']:>7} "
                    f"retransmitted {p['retransmissions']:>5} timeouts {p['t3_timeouts']:>3} down {p['times_down']}"
                )
    n = s["network"]
    outages = f"  outage drops {n['outage_drops']}" if n.get("outage_drops") else ""
    print(f"network: pdf {n['pdf']:.4f}  queue drops {n['queue_drops']}  loss drops {n['loss_drops']}  scripted drops {n['scripted_drops']}{outages}")


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "kernel":
        try:
            pending = [int(x) for x in args.pending.split(",") if x.strip()]
        except ValueError:
            sys.stderr.write(f"sctpsim: error: --pending: expected comma-separated integers, got {args.pending!r}\n")
            return EXIT_BAD_INPUT
        if args.events <= 0 or any(p <= 0 for p in pending):
            sys.stderr.write("sctpsim: error: --events and --pending must be positive\n")
            return EXIT_BAD_INPUT
        for n, events, seconds, rate in _native.bench_kernel(pending, args.events):
            print(f"pending={n} events={events} seconds={seconds:.3f} events_per_s={rate:.0f}", flush=True)
        return EXIT_OK
    if args.what == "channel":
        from sctpsim.bench_channel import format_case, run_case

        try:
            sizes = [int(x) for x in args.nodes.split(",") if x.strip()]
        except ValueError:
            sys.stderr.write(f"sctpsim: error: --nodes: expected comma-separated integers, got {args.nodes!r}\n")
            return EXIT_BAD_INPUT
        if args.frames <= 0 or any(n < 2 for n in sizes):
            sys.stderr.write("sctpsim: error: --frames must be positive and --nodes at least 2\n")
            return EXIT_BAD_INPUT
        for n in sizes:
            print(format_case(run_case(n, args.frames)), flush=True)
        return EXIT_OK
    if args.what == "scaling":
        from sctpsim.bench_scaling import format_case as format_scaling
        from sctpsim.bench_scaling import run_case_repeated as run_scaling

        try:
            sizes = [int(x) for x in args.nodes.split(",") if x.strip()]
        except ValueError:
            sys.stderr.write(f"sctpsim: error: --nodes: expected comma-separated integers, got {args.nodes!r}\n")
            return EXIT_BAD_INPUT
        if not args.sim_time > 0 or any(n < 2 for n in sizes) or not args.min_cpu >= 0:
            sys.stderr.write("sctpsim: error: --sim-time must be positive, --min-cpu at least 0 "
                             "and --nodes at least 2\n")
            return EXIT_BAD_INPUT
        cases = []
        for n in sizes:
            c = run_scaling(n, args.sim_time, args.min_cpu)
            cases.append(c)
            print(format_scaling(c), flush=True)
        if len(cases) > 1:
            def ratio(key: str) -> float:
                first, last = cases[0][key], cases[-1][key]
                return last / first if first > 0 else 0.0

            print(f"wall_ratio_largest_to_smallest={ratio('wall_s_per_sim_s_per_node'):.2f} "
                  f"cpu_ratio_largest_to_smallest={ratio('cpu_s_per_sim_s_per_node'):.2f}", flush=True)
        return EXIT_OK
    if not args.scenario:
        sys.stderr.write("sctpsim: error: bench scenario needs a scenario file\n")
        return EXIT_BAD_INPUT
    from sctpsim.scenario import Scenario

    sc = Scenario.load(args.scenario)
    raw = _native.run(sc.text, [], seed=None)
    import json

    s = json.loads(raw["summary"])
    rate = s["events"] / s["wall_time_s"] if s["wall_time_s"] > 0 else 0.0
    print(
        f"scenario={Path(args.scenario).name} sim_time_s={s['sim_time_s']:.3f} events={s['events']} "
        f"seconds={s['wall_time_s']:.3f} events_per_s={rate:.0f}"
    )
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
