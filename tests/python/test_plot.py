"""`sctpsim plot` and report.md: the figures are PNG files a person can read (axis labels with
units, a legend, confidence bars) and the report links them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest

pytest.importorskip("matplotlib")

import sctpsim
from conftest import EXAMPLES, sctpsim as cli
from sctpsim import plot
from sctpsim.report import Report, fmt, fmt_mean_ci, markdown_table

PNG = b"\x89PNG\r\n\x1a\n"
UNIT = re.compile(r"\(([^()]+)\)\s*$")


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Every figure saved, by file name, so its axes can be inspected."""
    seen: dict[str, Any] = {}
    real = plot._save

    def save(fig: Any, path: Path) -> Path:
        ax = fig.axes[0]
        seen[path.name] = {
            "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(), "title": ax.get_title(),
            "legend": ax.get_legend(), "errorbars": [c for c in ax.containers if getattr(c, "has_yerr", False)],
            "integer_y": getattr(ax.yaxis.get_major_locator(), "_integer", False),
        }
        return real(fig, path)

    monkeypatch.setattr(plot, "_save", save)
    yield seen


def _check_png(path: Path) -> None:
    import matplotlib.image

    assert path.read_bytes()[:8] == PNG
    img = matplotlib.image.imread(path)
    assert img.shape[0] > 300 and img.shape[1] > 500
    # Vector copies for papers, same stem.
    assert path.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-"
    svg = path.with_suffix(".svg").read_text(encoding="utf-8")
    assert "<svg" in svg and svg.rstrip().endswith("</svg>")


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep")
    sc = sctpsim.Scenario.load(EXAMPLES / "wired-cbr.toml").with_({"simulation.duration": "3s", "flows[0].stop": "3s"})
    sctpsim.sweep(sc, {"flows[0].rate": ["500kbps", "1Mbps", "1.5Mbps"], "link[1].loss.p": [0.0, 0.1, 7.0]},
                  seeds=3, jobs=1, out=out, timeseries=True)
    return out


def test_sweep_figures_are_labelled_with_ci_bars(sweep_dir: Path, captured: dict[str, Any]) -> None:
    figures = plot.plot_sweep(sweep_dir)
    names = [f.path.name for f in figures]
    assert "flows-goodput-bps-sum-vs-flows-0-rate.png" in names
    assert "network-pdf-vs-link-1-loss-p.png" in names
    assert "throughput-vs-time.png" in names
    for f in figures:
        assert f.path.parent == sweep_dir / "figures"
        _check_png(f.path)
        info = captured[f.path.name]
        assert info["xlabel"] and info["ylabel"] and info["title"], f.path.name
        assert UNIT.search(info["ylabel"]), info["ylabel"]
        assert info["legend"] is not None and info["legend"].get_texts(), f.path.name
    rate = captured["flows-goodput-bps-sum-vs-flows-0-rate.png"]
    assert rate["xlabel"] == "Sending rate, flow 0 (Mbit/s)"
    assert rate["ylabel"] == "Goodput, sum over flows (Mbit/s)"
    assert len(rate["errorbars"]) == 2  # one line per valid loss value; the invalid one failed
    assert "95 % CI" in rate["legend"].get_title().get_text()
    pdf = captured["network-pdf-vs-link-1-loss-p.png"]
    assert pdf["xlabel"] == "Loss probability, link 1 (fraction, 0–1)"
    assert pdf["ylabel"] == "Packet delivery fraction (fraction, 0–1)"
    assert pdf["title"] == "Packet delivery fraction vs loss probability, link 1"
    assert captured["throughput-vs-time.png"]["xlabel"] == "Time (s)"


def test_run_figures(tmp_path: Path, captured: dict[str, Any]) -> None:
    r = cli("run", str(EXAMPLES / "wired-cbr.toml"), "--out", str(tmp_path), "--quiet", "--set", "simulation.duration=5s")
    assert r.returncode == 0, r.stderr
    figures, notes = plot.plot_run(tmp_path)
    assert [f.path.name for f in figures] == ["throughput.png", "delivered.png", "link-throughput.png", "queue.png"]
    for f in figures:
        _check_png(f.path)
        assert captured[f.path.name]["xlabel"] == "Time (s)"
        assert UNIT.search(captured[f.path.name]["ylabel"])
        assert captured[f.path.name]["legend"] is not None
    assert captured["throughput.png"]["ylabel"] == "Goodput (kbit/s)"
    # Counts get integer ticks, rates do not.
    assert captured["queue.png"]["ylabel"] == "Queue occupancy (packets)" and captured["queue.png"]["integer_y"]
    assert not captured["throughput.png"]["integer_y"]
    assert "flow 0: src→dst (udp)" in [t.get_text() for t in captured["throughput.png"]["legend"].get_texts()]
    assert any("cwnd" in n for n in notes) and any("sequence" in n for n in notes)


def test_cwnd_and_sequence_figures_when_a_transport_reports_them(tmp_path: Path, captured: dict[str, Any]) -> None:
    rows = []
    for t in range(1, 11):
        rows += [
            (float(t), "flow", 0, "", "goodput_bps", 1e6),
            (float(t), "flow", 0, "", "cwnd_bytes", 1460.0 * min(t, 6)),
            (float(t), "flow", 0, "", "tsn", 100.0 * t),
        ]
    pd.DataFrame(rows, columns=["time_s", "scope", "id", "dir", "metric", "value"]).to_parquet(tmp_path / "timeseries.parquet")
    (tmp_path / "summary.json").write_text(json.dumps({"flows": [{"id": 0, "src": "a", "dst": "b", "transport": "sctp"}]}))
    figures, notes = plot.plot_run(tmp_path)
    names = [f.path.name for f in figures]
    assert "cwnd.png" in names and "sequence.png" in names and not notes
    assert captured["cwnd.png"]["ylabel"] == "Congestion window (kB)"
    assert captured["sequence.png"]["ylabel"].startswith("TSN")


def test_tcp_sequence_figure_in_bytes_with_drops_as_markers(tmp_path: Path, captured: dict[str, Any]) -> None:
    rows = [(float(t), "flow", 0, "", m, 14600.0 * t) for t in range(1, 11) for m in ("snd_nxt", "snd_una")]
    rows.append((3.0, "flow", 0, "", "dropped_seq", 40000.0))
    pd.DataFrame(rows, columns=["time_s", "scope", "id", "dir", "metric", "value"]).to_parquet(tmp_path / "timeseries.parquet")
    figures, _ = plot.plot_run(tmp_path)
    assert "sequence.png" in [f.path.name for f in figures]
    assert captured["sequence.png"]["ylabel"] == "Sequence number (kB)"
    labels = [t.get_text() for t in captured["sequence.png"]["legend"].get_texts()]
    assert labels == ["flow 0 [dropped_seq]", "flow 0 [snd_nxt]", "flow 0 [snd_una]"]


def test_plot_command_writes_figures_and_report(sweep_dir: Path) -> None:
    r = cli("plot", str(sweep_dir))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].endswith(f"written to {sweep_dir / 'figures'}/")
    report = (sweep_dir / "report.md").read_text()
    links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", report)
    assert links and all((sweep_dir / link).is_file() for link in links)
    assert "| flows[0].rate | link[1].loss.p | runs ok |" in report
    assert "0/3" in report and "must be a probability" in report  # the failed point and its error
    assert re.search(r"\d ± \d", report)
    assert "PDF and SVG" in report

    bad = cli("plot", str(sweep_dir / "nope"))
    assert bad.returncode == 2 and bad.stderr.startswith("sctpsim: error:")
    unknown = cli("plot", str(sweep_dir), "--metric", "no.such.metric")
    assert unknown.returncode == 2 and "no.such.metric" in unknown.stderr
    typo = cli("plot", str(sweep_dir), "--metric", "network.pfd")
    assert typo.returncode == 2 and "did you mean 'network.pdf'" in typo.stderr


def test_units_and_labels() -> None:
    assert plot.parameter_axis("flows[0].rate", ["500kbps", "1Mbps", "1.5Mbps"]) == ([0.5, 1.0, 1.5], "Sending rate, flow 0 (Mbit/s)")
    assert plot.parameter_axis("mobility.pause", ["0s", "30s", "1min"]) == ([0.0, 30.0, 60.0], "Pause time (s)")
    assert plot.parameter_axis("link[0].delay", ["5ms", "20ms"]) == ([5.0, 20.0], "One-way delay, link 0 (ms)")
    assert plot.parameter_axis("nodes.area_m", [600, 800]) == ([600.0, 800.0], "Area, nodes (m)")
    assert plot.parameter_axis("routing.protocol", ["dsr", "aodv"]) == (None, "Routing protocol")
    assert plot.parameter_axis("x", ["1Mbps", "5ms"]) == (None, "X")
    assert plot.parameter_axis("nodes.count", [20, 50]) == ([20.0, 50.0], "Number of wireless nodes")
    assert plot.parameter_axis("flows[3].tcp.mss_bytes", [536, 1460]) == ([0.536, 1.46], "MSS, flow 3 (kB)")
    assert plot.parameter_name("flows[0].sctp.some_new_knob") == "Some new knob, flow 0, SCTP"  # no name: in words
    assert plot.metric_label("flows.goodput_bps.sum", plot.display_unit("bit/s", [2e4])) == "Goodput, sum over flows (kbit/s)"
    assert plot.metric_label("flows.retransmissions.sum", plot.display_unit("packets", [3])) == "Retransmissions, sum over flows (packets)"
    u = plot.display_unit("bit/s", [2.5e6])
    assert (u.label, u.scale) == ("Mbit/s", 1e6)
    assert plot.metric_label("flows[2].mean_delay_s", plot.display_unit("s", [0.03])) == "Mean one-way delay, flow 2 (ms)"
    assert plot.metric_label("links[1].fwd.queue_drops", plot.display_unit("packets", [3])) == "Queue drops, link 1 fwd (packets)"


def test_report_pieces(tmp_path: Path) -> None:
    assert fmt(0.123456) == "0.1235" and fmt(12) == "12" and fmt(None) == "–" and fmt(float("nan")) == "–"
    assert fmt_mean_ci(951066.0, 4930.0, 1e3) == "951.1 ± 4.93"
    assert fmt_mean_ci(1.0, float("nan")) == "1"
    table = markdown_table(["a", "b"], [[1, "x|y"], [2.5, None]])
    assert table.splitlines() == ["| a | b |", "|---:|---|", "| 1 | x\\|y |", "| 2.5 | – |"]
    rep = Report("T", base_dir=tmp_path).paragraph("p").table(["a"], [[1]]).figure(tmp_path / "figures" / "f.png", "cap")
    path = rep.write()
    assert path == tmp_path / "report.md"
    assert path.read_text().startswith("# T\n\np\n\n| a |") and "![cap](figures/f.png)" in path.read_text()


def test_break_gaps_inserts_nan_at_pauses() -> None:
    t, y = plot.break_gaps([0.0, 0.1, 0.2, 2.0, 2.1], [1, 2, 3, 4, 5], max_gap=0.5)
    assert t == [0.0, 0.1, 0.2, 0.2, 2.0, 2.1]  # the break sits at the last sample before the pause
    assert y[:3] == [1.0, 2.0, 3.0] and y[3] != y[3] and y[4:] == [4.0, 5.0]
    assert plot.break_gaps([0.0, 0.1], [1, 2], max_gap=0.5) == ([0.0, 0.1], [1.0, 2.0])
    assert plot.break_gaps([], [], max_gap=0.5) == ([], [])


def test_multipath_sctp_figures_per_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two destinations, the primary silent from 10 s to 30 s: one TSN panel per path titled with
    its address, the primary's line broken over the outage, drops as markers on the path they
    were sent to, cwnd lines labelled with the addresses."""
    rows = []
    tsn = 0
    for k in range(400):
        t = k * 0.1
        rows.append((t, "flow", 0, "", "goodput_bps", 1e6))
        tsn += 1
        rows.append((t, "flow", 0, "10.0.1.2" if not 100 <= k < 300 else "10.0.3.2", "tsn_sent", float(tsn)))
        rows.append((t, "flow", 0, "", "tsn_acked", float(tsn - 1)))
    rows += [(9.95, "flow", 0, "outage", "dropped_tsn", 100.0), (11.0, "flow", 0, "10.0.3.2", "tsn_t3_rtx", 100.0),
             (0.0, "flow", 0, "10.0.1.2", "cwnd_bytes", 4380.0), (10.0, "flow", 0, "10.0.3.2", "cwnd_bytes", 4380.0)]
    pd.DataFrame(rows, columns=["time_s", "scope", "id", "dir", "metric", "value"]).to_parquet(tmp_path / "timeseries.parquet")
    (tmp_path / "summary.json").write_text(json.dumps({
        "flows": [{"id": 0, "src": "A", "dst": "B", "transport": "sctp"}],
        "paths": [{"flow": 0, "side": "sender", "addr": "10.0.1.2", "primary": True},
                  {"flow": 0, "side": "sender", "addr": "10.0.3.2", "primary": False}]}))
    seen: dict[str, list[Any]] = {}
    real = plot._save

    def save(fig: Any, path: Path) -> Path:
        seen[path.name] = [(ax.get_title(), ax.get_legend(), [ln.get_ydata() for ln in ax.get_lines()],
                            [ln.get_label() for ln in ax.get_lines()]) for ax in fig.axes]
        return real(fig, path)

    monkeypatch.setattr(plot, "_save", save)
    figures, _ = plot.plot_run(tmp_path)
    for f in figures:
        _check_png(f.path)
    seq = seen["sequence.png"]
    assert [title for title, *_ in seq] == ["flow 0: A→B (sctp): path 10.0.1.2 (primary)", "flow 0: A→B (sctp): path 10.0.3.2"]
    primary_labels = seq[0][3]
    assert "dropped (outage)" in primary_labels and "T3-rtx retransmission" in seq[1][3]
    sent = seq[0][2][primary_labels.index("TSN sent (first transmission)")]
    assert sum(1 for v in sent if v != v) == 1  # one break: the 20 s the primary sent nothing
    backup = seq[1][2][seq[1][3].index("TSN sent (first transmission)")]
    assert all(v == v for v in backup)
    cwnd_labels = [t.get_text() for t in seen["cwnd.png"][0][1].get_texts()]
    assert cwnd_labels == ["flow 0: A→B (sctp), path 10.0.1.2 (primary)", "flow 0: A→B (sctp), path 10.0.3.2"]


# ------------------------------------------------------------------------ wireless runs


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[dict[str, Any]]]]:
    """Every figure saved, by file name: per axes its title, y label, lines (label, x, y) and
    legend texts."""
    seen: dict[str, list[dict[str, Any]]] = {}
    real = plot._save

    def save(fig: Any, path: Path) -> Path:
        seen[path.name] = [{
            "title": ax.get_title(), "ylabel": ax.get_ylabel(),
            "lines": [(ln.get_label(), list(ln.get_xdata()), list(ln.get_ydata())) for ln in ax.get_lines()],
            "steps": [(p.get_label(), list(p.get_data()[0]), list(p.get_data()[1])) for p in ax.patches
                      if hasattr(p, "get_data")],
            "legend": [t.get_text() for t in ax.get_legend().get_texts()] if ax.get_legend() else [],
        } for ax in fig.axes]
        return real(fig, path)

    monkeypatch.setattr(plot, "_save", save)
    yield seen


def test_wifi_handoff_has_an_association_and_signal_figure(tmp_path: Path, drawn: dict[str, Any]) -> None:
    """The station's beacon power from each AP, and its association with AP1 then AP2 at the
    time of the `assoc` rows."""
    r = cli("run", str(EXAMPLES / "wifi-handoff.toml"), "--out", str(tmp_path), "--quiet", "--set", "simulation.duration=25s")
    assert r.returncode == 0, r.stderr
    figures, notes = plot.plot_run(tmp_path)
    assert "association.png" in [f.path.name for f in figures]
    _check_png(tmp_path / "figures" / "association.png")
    (sta,) = drawn["association.png"]
    assert sta["title"] == "STA" and sta["ylabel"] == "Beacon power received (dBm)"
    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    for ap in ("AP1", "AP2"):
        rows = ts[(ts.metric == "beacon_rssi_dbm") & (ts.dir == ap)].sort_values("time_s")
        (line,) = [ln for ln in sta["lines"] if ln[0] == f"beacons from {ap}"]
        assert line[2] == pytest.approx(rows.value.tolist())
    changes = ts[ts.metric == "assoc"].sort_values("time_s")
    assert changes.value.tolist() == [2.0, 3.0]  # AP1, then AP2 (node indices)
    marks = [ln[1][0] for ln in sta["lines"] if ln[0].startswith("_") and len(set(ln[1])) == 1]
    assert marks == pytest.approx(changes.time_s.tolist())
    assert {"associated with AP1", "associated with AP2"} <= set(sta["legend"])
    assert any("MAC" in n for n in notes)  # no collisions in this run: no MAC figure, and why


def test_cellular_mobile_has_its_access_routers_beacons_and_handovers(tmp_path: Path, drawn: dict[str, Any]) -> None:
    """A cellular mobile (aydin2004's road): a line per access router's beacon power, named as
    the scenario names the router, and a mark at each cSCTP handover of handoffs.parquet."""
    road = Path(__file__).resolve().parents[2] / "scenarios" / "aydin2004" / "road.toml"
    r = cli("run", str(road), "--out", str(tmp_path), "--quiet", "--set", "simulation.duration=150s")
    assert r.returncode == 0, r.stderr
    figures, _ = plot.plot_run(tmp_path)
    assert "association.png" in [f.path.name for f in figures]
    (mn,) = drawn["association.png"]
    assert mn["title"] == "MN"
    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    rows = ts[(ts.metric == "ar_beacon_rssi_dbm") & (ts.dir == "1")].sort_values("time_s")
    (line,) = [ln for ln in mn["lines"] if ln[0] == "beacons from AR2"]
    assert line[2] == pytest.approx(rows.value.tolist())
    h = pd.read_parquet(tmp_path / "handoffs.parquet")
    marks = [ln[1][0] for ln in mn["lines"] if ln[0].startswith("_") and len(set(ln[1])) == 1]
    assert len(h) >= 1 and marks == pytest.approx(h.detected_s.tolist())
    # 38 link directions: the busiest 8 drawn, not a legend taller than the figure.
    (links,) = drawn["link-throughput.png"]
    assert len(links["legend"]) == plot.MAX_LINK_LINES and "link 0 fwd: CN→GW1" in links["legend"]
    assert "The 8 busiest of 38 link directions" in [f for f in figures if f.path.name == "link-throughput.png"][0].caption


def test_wifi_saturation_has_aggregate_and_collision_figures(tmp_path: Path, drawn: dict[str, Any]) -> None:
    """Ten saturated senders: goodput as the sum over flows and the flows' spread, not ten
    lines; the MAC figure's collision probability per interval from the cumulative counters."""
    r = cli("run", str(EXAMPLES / "wifi-saturation.toml"), "--out", str(tmp_path), "--quiet", "--set", "simulation.duration=5s")
    assert r.returncode == 0, r.stderr
    figures, _ = plot.plot_run(tmp_path)
    names = [f.path.name for f in figures]
    assert {"throughput.png", "delivered.png", "mac.png"} <= set(names)
    ts = pd.read_parquet(tmp_path / "timeseries.parquet")
    good = ts[(ts.scope == "flow") & (ts.metric == "goodput_bps")].pivot_table(index="time_s", columns="id", values="value")
    total, per_flow = drawn["throughput.png"]
    assert total["ylabel"] == "Goodput (Mbit/s)" and len(total["lines"]) == 1
    assert total["lines"][0][0] == "sum over 10 flows"
    assert total["lines"][0][2] == pytest.approx((good.sum(axis=1) / 1e6).tolist())
    assert [ln[0] for ln in per_flow["lines"]] == ["median flow"]
    scale = {"Goodput (Mbit/s)": 1e6, "Goodput (kbit/s)": 1e3}[per_flow["ylabel"]]
    assert per_flow["lines"][0][2] == pytest.approx((good.median(axis=1) / scale).tolist())
    assert "Jain's fairness index" in figures[names.index("throughput.png")].caption
    prob, rates = drawn["mac.png"]
    net = ts[ts.scope == "network"].pivot_table(index="time_s", columns="metric", values="value")
    per = net.diff().fillna(net)
    expect = (per.mac_collisions / per.mac_unicast_attempts).tolist()
    (step,) = [s for s in prob["steps"] if s[0] == "per sample interval"]
    assert step[1] == pytest.approx(expect)
    summary = json.loads((tmp_path / "summary.json").read_text())
    whole = sum(m["collisions"] for m in summary["macs"]) / sum(m["unicast_attempts"] for m in summary["macs"])
    (line,) = [ln for ln in prob["lines"] if ln[0].startswith("whole run")]
    assert line[2][0] == pytest.approx(whole, rel=1e-9)
    assert "collisions" in rates["legend"] and rates["ylabel"] == "Frames per second (1/s)"


def test_jain_index() -> None:
    from sctpsim.plot_wireless import jain_index

    assert jain_index([1.0, 1.0, 1.0]) == pytest.approx(1.0)
    assert jain_index([1.0, 0.0, 0.0, 0.0]) == pytest.approx(0.25)
    assert jain_index([0.0, None]) is None


def test_table_valued_parameters_are_labelled_by_what_varies(tmp_path: Path, captured: dict[str, Any]) -> None:
    """`--vary 'link[1].loss={model = "bernoulli", p = 0.01},...'`: results.parquet holds the
    tables as JSON; the figure's axis is the field that varies, in words, with its unit, and
    other parameters' legends name the field, not the JSON."""
    sc = sctpsim.Scenario.load(EXAMPLES / "wired-cbr.toml").with_({"simulation.duration": "2s", "flows[0].stop": "2s"})
    losses = [{"model": "bernoulli", "p": p} for p in (0.01, 0.1, 0.2)]
    sctpsim.sweep(sc, {"link[1].loss": losses, "link[1].bandwidth": ["1Mbps", "2Mbps"]}, seeds=2, jobs=1, out=tmp_path)
    plot.plot_sweep(tmp_path, ["network.pdf"])
    vs_loss = captured["network-pdf-vs-link-1-loss.png"]
    assert vs_loss["xlabel"] == "Loss probability, link 1 (fraction, 0–1); model = bernoulli"
    assert vs_loss["title"] == "Packet delivery fraction vs loss probability, link 1"
    vs_bw = captured["network-pdf-vs-link-1-bandwidth.png"]
    labels = [t.get_text() for t in vs_bw["legend"].get_texts()]
    assert labels == [f"Loss probability, link 1 = {p}" for p in (0.01, 0.1, 0.2)]
    assert not any("{" in text for text in labels + [vs_loss["xlabel"]])
    # The report's setup names the values as --vary takes them, not as Python prints a dict.
    from sctpsim.report import sweep_report

    setup = sweep_report(tmp_path).text()
    assert '{model = "bernoulli", p = 0.01}' in setup and "{'model'" not in setup
    # So do its results table's rows (they printed the stored JSON, issue 35 item 8).
    rows = [ln for ln in setup.splitlines() if ln.startswith('| {model = "bernoulli", p = 0.2} | ')]
    assert len(rows) == 2, setup
    assert '{"model"' not in setup, setup


def test_sweep_axis_of_tables_and_unnamed_paths() -> None:
    ge = {"model": "gilbert-elliott", "p_good_to_bad": 0.01, "p_bad_to_good": 0.3}
    positions, label, ticks = plot.sweep_axis("link[1].loss", [json.dumps({"model": "bernoulli", "p": 0.1}), json.dumps(ge)])
    assert positions is None and label == "Loss model, link 1"
    assert ticks == ["model = bernoulli, p = 0.1", "model = gilbert-elliott, p_good_to_bad = 0.01, p_bad_to_good = 0.3"]
    positions, label, ticks = plot.sweep_axis("mobility.speed_mps", [{"min": 0, "max": 5}, {"min": 0, "max": 20}])
    assert positions == [5.0, 20.0] and label == "Maximum speed (m/s); min = 0 m/s" and ticks == ["5 m/s", "20 m/s"]
    assert plot.parameter_name("flows[2].tcp.sack_blocks") == "SACK blocks, flow 2, TCP"
    assert plot.parameter_name("radio.cw_min") == "CW min, radio"
