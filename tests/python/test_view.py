"""`sctpsim view`: the exporter, the command line, and the page in a real headless browser.

The browser tests drive Debian's `chromium` through its `chromedriver` with Selenium (the
driver path is given, so Selenium never downloads one). They skip without them, and fail when
SCTPSIM_REQUIRE_TOOLS=1 (scripts/test.sh installs both). Reference screenshots live in
tests/python/data/view/; SCTPSIM_UPDATE_SNAPSHOTS=1 rewrites them."""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import re
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pandas as pd
import pytest

from conftest import EXAMPLES, require_tool, sctpsim

DATA = Path(__file__).parent / "data" / "view"
SCENARIO = DATA / "small-manet.toml"

#: Screenshot comparison: a pixel differs when a channel differs by more than this (0-255) …
PIXEL_TOLERANCE = 48
#: … and a screenshot matches its reference when at most this fraction of pixels differ (font
#: hinting and anti-aliasing differ between chromium builds; a moved node or a missing route
#: changes far more).
MAX_DIFFERING_FRACTION = 0.02

#: Window of the headless browser, CSS pixels (device scale factor 1).
WINDOW = (1200, 760)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("view") / "run"
    r = sctpsim("run", str(SCENARIO), "--out", str(out), "--view", "--quiet")
    assert r.returncode == 0, r.stderr
    assert (out / "view.html").is_file()
    return out


def unpack(html: str) -> dict[str, Any]:
    """The JSON header of a page's embedded data."""
    m = re.search(r'<script id="sctpsim-data" type="application/octet-stream">([A-Za-z0-9+/=]+)</script>', html)
    assert m, "no embedded data"
    raw = gzip.decompress(base64.b64decode(m.group(1)))
    assert raw[:4] == b"SCV1"
    n = int.from_bytes(raw[4:8], "little")
    meta: dict[str, Any] = json.loads(raw[8:8 + n])
    return meta


def unpack_arrays(html: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The JSON header and the typed arrays of a page's embedded data."""
    m = re.search(r'<script id="sctpsim-data" type="application/octet-stream">([A-Za-z0-9+/=]+)</script>', html)
    assert m
    raw = gzip.decompress(base64.b64decode(m.group(1)))
    n = int.from_bytes(raw[4:8], "little")
    meta: dict[str, Any] = json.loads(raw[8:8 + n])
    base = (8 + n + 7) // 8 * 8
    types = {"f64": "<f8", "f32": "<f4", "u32": "<u4", "i32": "<i4", "u16": "<u2", "i16": "<i2", "u8": "u1"}
    arrays = {k: np.frombuffer(raw, dtype=types[t], count=length, offset=base + off)
              for k, (t, off, length) in meta["arrays"].items()}
    return meta, arrays


def positions(run: Path) -> pd.DataFrame:
    ts = pd.read_parquet(run / "timeseries.parquet")
    p = ts[ts.scope == "node"].pivot_table(index=["time_s", "id"], columns="metric", values="value").reset_index()
    return p


# ---------------------------------------------------------------------------------- exporter


def test_run_view_records_positions_and_a_bounded_trace(run_dir: Path) -> None:
    manifest = json.loads((run_dir / "run.json").read_text())
    assert ["simulation.trace_positions", True] in manifest["overrides"]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["trace"]["max_rows"] == 5_000_000
    assert (run_dir / "trace.parquet").is_file()


def test_page_is_self_contained(run_dir: Path) -> None:
    html = (run_dir / "view.html").read_text(encoding="utf-8")
    assert not re.search(r"(?i)\b(?:https?|ftp|wss?)://", html), "the page must not refer to any URL"
    assert not re.search(r"(?i)<(?:link|img|iframe)\b", html)
    assert not re.search(r"(?i)<script[^>]*\bsrc=", html)
    assert "DecompressionStream" in html


def test_embedded_data_describes_the_run(run_dir: Path) -> None:
    meta = unpack((run_dir / "view.html").read_text(encoding="utf-8"))
    assert [n["name"] for n in meta["nodes"]] == ["A", "B", "C", "D"]
    assert meta["duration_s"] == pytest.approx(12.0)
    assert meta["position_interval_s"] == pytest.approx(0.1)
    flow = meta["flows"][0]
    assert (flow["src"], flow["dst"]) == (0, 2)
    ts = pd.read_parquet(run_dir / "timeseries.parquet")
    breaks = ts[(ts.metric == "route_broken") & (ts.id == 0)].time_s.round(6).tolist()
    assert breaks and flow["breaks"] == breaks
    # The first route runs through the relay B (A, B, C); after the break, another one.
    assert flow["paths"][0][2] == [0, 1, 2]
    assert any(seg[0] > breaks[0] and seg[2] != [0, 1, 2] for seg in flow["paths"])
    # The ranges come from the core's radio model: ns-2 WaveLAN, 250 m and 550 m.
    assert meta["ranges"]["reception_range_m"] == pytest.approx(250, abs=2)
    assert meta["ranges"]["carrier_sense_range_m"] == pytest.approx(550, abs=2)


def test_phy_rx_errors_become_failed_receptions(run_dir: Path, tmp_path: Path) -> None:
    """`phy` `rx_error` rows (a radio that locked on to a frame and lost it) are drawn at their
    receiver as failed receptions of the frame, by reason."""
    import shutil

    copy = tmp_path / "phy"
    shutil.copytree(run_dir, copy)
    tr = pd.read_parquet(copy / "trace.parquet")
    tx = tr[(tr.layer == "mac") & (tr.event == "tx") & (tr.node == "A") & tr.flow.notna()].iloc[:2]
    extra = []
    for (_, row), (node, reason) in zip(tx.iterrows(), [("D", "collision"), ("C", "frame_error")]):
        r = row.copy()
        r["time_ns"] = int(row.time_ns) + 100_000
        r["node"], r["layer"], r["event"], r["reason"] = node, "phy", "rx_error", reason
        extra.append(r)
    cols = {c: str for c in ("node", "interface", "layer", "event", "reason", "protocol", "src", "dst")}
    both = pd.concat([tr.astype(cols), pd.DataFrame(extra).astype(cols)]).sort_values("time_ns", kind="stable")
    both = both.astype({c: "category" for c in cols}).astype({"time_ns": "uint64", "uid": "uint64", "size_bytes": "uint32"})
    both.to_parquet(copy / "trace.parquet", index=False)
    page = sctpsim("view", str(copy))
    assert page.returncode == 0, page.stderr
    meta, a = unpack_arrays((copy / "view.html").read_text(encoding="utf-8"))
    t_frames = np.cumsum(a["fr_dt"].astype(np.int64))
    starts = np.r_[0, np.cumsum(a["fr_nrx"].astype(np.int64))]
    for (_, row), (node, kind) in zip(tx.iterrows(), [(3, 1), (2, 2)]):
        k = int(np.flatnonzero(t_frames == int(row.time_ns) // 1000)[0])
        got = list(zip(a["rx_node"][starts[k]:starts[k + 1]].tolist(), a["rx_kind"][starts[k]:starts[k + 1]].tolist()))
        assert (node, kind) in got, got
    assert not any("no PHY" in n for n in meta["notes"])


def test_every_wired_transmission_reaches_the_far_end(tmp_path: Path) -> None:
    """A router receives and forwards a packet in the same nanosecond: each reception still
    belongs to the transmission before it (wifi-handoff: CN -> R -> AP1 -> STA)."""
    out = tmp_path / "handoff"
    r = sctpsim("run", str(EXAMPLES / "wifi-handoff.toml"), "--out", str(out), "--view", "--quiet",
                "--set", "simulation.duration=3s")
    assert r.returncode == 0, r.stderr
    meta, a = unpack_arrays((out / "view.html").read_text(encoding="utf-8"))
    wired = a["fr_wired"] == 1
    assert wired.sum() > 0 and (a["fr_nrx"][wired] == 1).all()
    starts = np.r_[0, np.cumsum(a["fr_nrx"].astype(np.int64))]
    names = [n["name"] for n in meta["nodes"]]
    pairs = {(names[a["fr_node"][k]], names[a["rx_node"][starts[k]]]) for k in np.flatnonzero(wired)}
    assert pairs == {("CN", "R"), ("R", "AP1")}
    # The AP's data frames reach the station.
    air = np.flatnonzero(~wired & (a["fr_flow"] == 0))
    assert len(air) and all(names[a["rx_node"][j]] == "STA" and a["rx_kind"][j] == 0
                            for k in air for j in range(starts[k], starts[k + 1]) if a["rx_kind"][j] != 5)


@pytest.fixture(scope="module")
def failover_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sctp-failover for 14 s with --view: link 1 (R1-B) is down from 10 s (to 30 s)."""
    out = tmp_path_factory.mktemp("failover") / "run"
    r = sctpsim("run", str(EXAMPLES / "sctp-failover.toml"), "--out", str(out), "--view", "--quiet",
                "--set", "simulation.duration=14s")
    assert r.returncode == 0, r.stderr
    return out


def test_link_outages_reach_the_page(failover_dir: Path) -> None:
    meta = unpack((failover_dir / "view.html").read_text(encoding="utf-8"))
    names = [n["name"] for n in meta["nodes"]]
    assert [[names[a], names[b]] for a, b in meta["links"]][1] == ["R1", "B"]
    assert meta["link_outages"] == [[1, 10.0, 30.0, -1]]


def test_link_losses_are_drawn_on_the_link_that_lost_them(failover_dir: Path, tmp_path: Path) -> None:
    """A packet R1 drops on its link to B (the outage) is a lost reception at B of R1's frame,
    not at R1 of the frame A sent it on the link before; so is a packet dropped at the head of
    the queue, which has no `tx` row (docs/metrics.md)."""
    meta, a = unpack_arrays((failover_dir / "view.html").read_text(encoding="utf-8"))
    names = [n["name"] for n in meta["nodes"]]
    starts = np.r_[0, np.cumsum(a["fr_nrx"].astype(np.int64))]
    lost = [(names[a["fr_node"][k]], names[a["rx_node"][j]])
            for k in np.flatnonzero(a["fr_wired"] == 1) for j in range(starts[k], starts[k + 1]) if a["rx_kind"][j] == 4]
    tr = pd.read_parquet(failover_dir / "trace.parquet")
    drops = tr[(tr.layer == "link") & (tr.event == "drop") & (tr.reason == "outage")]
    assert len(lost) == len(drops) > 0
    assert set(lost) <= {("R1", "B"), ("B", "R1")}, set(lost)
    assert lost.count(("R1", "B")) == int((drops.node == "R1").sum())
    # The lossy second link of wired-cbr: losses at r are drawn towards dst.
    out = tmp_path / "wired"
    r = sctpsim("run", str(EXAMPLES / "wired-cbr.toml"), "--out", str(out), "--view", "--quiet",
                "--set", "simulation.duration=2s")
    assert r.returncode == 0, r.stderr
    meta, a = unpack_arrays((out / "view.html").read_text(encoding="utf-8"))
    names = [n["name"] for n in meta["nodes"]]
    starts = np.r_[0, np.cumsum(a["fr_nrx"].astype(np.int64))]
    lost = {(names[a["fr_node"][k]], names[a["rx_node"][j]])
            for k in range(len(a["fr_node"])) for j in range(starts[k], starts[k + 1]) if a["rx_kind"][j] == 4}
    assert lost == {("r", "dst")}


def test_only_placed_nodes_have_a_position(tmp_path: Path) -> None:
    """wifi-handoff: the wired CN and R are laid out by the page, the APs and the station are
    placed by the scenario and the run."""
    out = tmp_path / "handoff"
    r = sctpsim("run", str(EXAMPLES / "wifi-handoff.toml"), "--out", str(out), "--view", "--quiet",
                "--set", "simulation.duration=2s")
    assert r.returncode == 0, r.stderr
    meta = unpack((out / "view.html").read_text(encoding="utf-8"))
    placed = {n["name"]: n["placed"] for n in meta["nodes"]}
    assert placed == {"CN": False, "R": False, "AP1": True, "AP2": True, "STA": True}


def test_wired_run_without_trace_is_laid_out(tmp_path: Path) -> None:
    out = tmp_path / "wired"
    r = sctpsim("run", str(EXAMPLES / "wired-cbr.toml"), "--out", str(out), "--quiet",
                "--set", "simulation.duration=2s")
    assert r.returncode == 0, r.stderr
    r = sctpsim("view", str(out), "--out", str(tmp_path / "w.html"))
    assert r.returncode == 0, r.stderr
    assert "view written to" in r.stdout
    meta = unpack((tmp_path / "w.html").read_text(encoding="utf-8"))
    assert meta["links"], "wired links are drawn"
    assert any("no per-packet trace" in n for n in meta["notes"])


def test_python_api_writes_the_page(tmp_path: Path) -> None:
    import sctpsim as s

    res = s.run(str(SCENARIO))
    page = s.view(res, out=tmp_path / "api.html")
    assert page == tmp_path / "api.html" and page.stat().st_size > 1000


@pytest.mark.parametrize("case", ["missing", "not_run_dir", "bad_out", "bad_run_json", "bad_table"])
def test_bad_input_exits_2(tmp_path: Path, run_dir: Path, case: str) -> None:
    if case in ("bad_run_json", "bad_table"):
        import shutil

        copy = tmp_path / "copy"
        shutil.copytree(run_dir, copy)
        if case == "bad_run_json":
            (copy / "run.json").write_text("[1, 2", encoding="utf-8")
            expect = "run.json"
        else:
            (copy / "timeseries.parquet").write_bytes(b"not parquet at all")
            expect = "timeseries.parquet"
        r = sctpsim("view", str(copy))
    elif case == "missing":
        r = sctpsim("view", str(tmp_path / "nope"))
        expect = "no such directory"
    elif case == "not_run_dir":
        r = sctpsim("view", str(tmp_path))
        expect = "not a run directory"
    else:
        r = sctpsim("view", str(run_dir), "--out", str(tmp_path / "no" / "such" / "x.html"))
        expect = "--out"
    assert r.returncode == 2, r.stderr
    assert expect in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------------------------- browser


def _browser_tools() -> tuple[str, str]:
    if os.environ.get("SCTPSIM_REQUIRE_TOOLS") != "1":
        pytest.importorskip("selenium", reason="selenium not installed (pip install .[test])")
    browser = next((p for p in (_which("chromium"), _which("chromium-browser")) if p), None) or require_tool("chromium")
    driver = require_tool("chromedriver")
    return browser, driver


def _which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


@pytest.fixture(scope="module")
def browser(run_dir: Path) -> Iterator[Any]:
    browser_path, driver_path = _browser_tools()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = browser_path
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={WINDOW[0]},{WINDOW[1]}", "--force-device-scale-factor=1", "--hide-scrollbars",
              "--font-render-hinting=none"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    try:
        drv.get((run_dir / "view.html").as_uri())
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(drv, 30).until(lambda d: d.execute_script(
            "return !!window.sctpsimView && (window.sctpsimView.ready || !!window.sctpsimView.error)"))
        yield drv
    finally:
        drv.quit()


def test_page_loads_without_console_errors(browser: Any) -> None:
    assert browser.execute_script("return window.sctpsimView.error") is None
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
    state = browser.execute_script("return window.sctpsimView.state()")
    assert state["nodes"] == 4 and state["frames"] > 0


def test_scrubber_moves_nodes_to_recorded_positions(browser: Any, run_dir: Path) -> None:
    pos = positions(run_dir)
    names = ["A", "B", "C", "D"]
    for t in (0.5, 5.0, 7.5, 8.3, 9.2, 11.9):
        rows = pos[np.isclose(pos.time_s, t)]
        assert len(rows) == 4, t
        browser.execute_script("window.sctpsimView.seek(arguments[0])", t)
        for _, r in rows.iterrows():
            got = browser.execute_script("return window.sctpsimView.nodePosition(arguments[0])", names[int(r.id)])
            assert got == pytest.approx([r.x_m, r.y_m], abs=0.01), (t, names[int(r.id)])
    # Between samples the page interpolates: B half-way between its 8.3 s and 8.4 s positions.
    b = pos[pos.id == 1].set_index("time_s")
    a, c = b.loc[b.index[np.isclose(b.index, 8.3)][0]], b.loc[b.index[np.isclose(b.index, 8.4)][0]]
    browser.execute_script("window.sctpsimView.seek(8.35)")
    got = browser.execute_script("return window.sctpsimView.nodePosition('B')")
    assert got == pytest.approx([(a.x_m + c.x_m) / 2, (a.y_m + c.y_m) / 2], abs=0.01)


def test_click_on_a_node_shows_its_counters(browser: Any, run_dir: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    t = 6.0
    browser.execute_script("window.sctpsimView.seek(arguments[0])", t)
    x, y = browser.execute_script("return window.sctpsimView.nodeScreenPosition('B')")
    canvas = browser.find_element(By.ID, "map")
    rect = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", canvas)
    ActionChains(browser).move_to_element_with_offset(canvas, int(round(x - rect[0] - rect[2] / 2)),
                                                      int(round(y - rect[1] - rect[3] / 2))).click().perform()
    state = browser.execute_script("return window.sctpsimView.state()")
    assert state["selected"] == {"kind": "node", "id": 1}
    text = browser.find_element(By.ID, "info-body").text
    tr = pd.read_parquet(run_dir / "trace.parquet")
    at_b = tr[(tr.node == "B") & (tr.layer == "ip") & (tr.time_ns <= int(t * 1e9))]
    forwarded = int((at_b.event == "forward").sum())
    assert forwarded > 0
    assert "B (adhoc)" in text
    assert re.search(rf"packets forwarded\s+{forwarded}\b", text), text
    assert re.search(rf"packets sent\s+{int((at_b.event == 'tx').sum())}\b", text), text
    browser.execute_script("window.sctpsimView.select(null)")


def test_space_plays_and_pauses(browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import WebDriverWait

    browser.execute_script("window.sctpsimView.seek(1)")
    ActionChains(browser).send_keys(" ").perform()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return window.sctpsimView.state().t") > 1.0)
    ActionChains(browser).send_keys(" ").perform()
    state = browser.execute_script("return window.sctpsimView.state()")
    assert state["playing"] is False and state["t"] > 1.0
    t = state["t"]
    ActionChains(browser).send_keys("]").perform()  # speed up: 1x -> 2x
    assert browser.execute_script("return window.sctpsimView.state()")["speed"] == 2
    assert browser.execute_script("return window.sctpsimView.state().t") == t  # paused stays put
    ActionChains(browser).send_keys("[").perform()  # back to 1x: the screenshots draw frames for 1x
    assert browser.execute_script("return window.sctpsimView.state()")["speed"] == 1


@pytest.mark.parametrize("t", [3.0, 7.45, 11.0])
def test_screenshots_match_references(browser: Any, t: float, tmp_path: Path) -> None:
    from PIL import Image

    browser.execute_script("window.sctpsimView.seek(arguments[0])", t)
    shot = tmp_path / "shot.png"
    browser.save_screenshot(str(shot))
    ref = DATA / f"screen-{t:g}s.png"
    if os.environ.get("SCTPSIM_UPDATE_SNAPSHOTS") == "1" or not ref.exists():
        if os.environ.get("SCTPSIM_UPDATE_SNAPSHOTS") != "1":
            pytest.fail(f"{ref} missing; run with SCTPSIM_UPDATE_SNAPSHOTS=1 to write it")
        ref.write_bytes(shot.read_bytes())
        return
    a = np.asarray(Image.open(shot).convert("RGB"), dtype=np.int16)
    b = np.asarray(Image.open(ref).convert("RGB"), dtype=np.int16)
    assert a.shape == b.shape, f"screenshot {a.shape} vs reference {b.shape}"
    differing = float(np.mean(np.any(np.abs(a - b) > PIXEL_TOLERANCE, axis=2)))
    assert differing <= MAX_DIFFERING_FRACTION, f"{differing:.3%} of pixels differ from {ref.name}"


# ------------------------------------------------------------------ browser: other pages


@contextlib.contextmanager
def page(browser: Any, html: Path, address: str = "") -> Iterator[Any]:
    """``html`` opened in the test browser (with ``address``: ``#...`` or ``?...``), then the
    module's page again, as the tests above left it."""
    first = browser.current_url.split("#")[0]
    try:
        _open(browser, html.as_uri() + address)
        yield browser
    finally:
        _open(browser, first)


def _open(browser: Any, url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get("about:blank")
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        "return !!window.sctpsimView && (window.sctpsimView.ready || !!window.sctpsimView.error)"))
    assert browser.execute_script("return window.sctpsimView.error") is None


def _red_pixels_near_middle(browser: Any, a: str, b: str) -> int:
    """Red pixels (the colour of a link that is down) within 12 px of the middle of link a-b."""
    return int(browser.execute_script("""
        const v = window.sctpsimView, map = document.getElementById('map'), r = map.getBoundingClientRect();
        const [ax, ay] = v.nodeScreenPosition(arguments[0]), [bx, by] = v.nodeScreenPosition(arguments[1]);
        const mx = Math.round((ax + bx) / 2 - r.left), my = Math.round((ay + by) / 2 - r.top);
        const px = map.getContext('2d').getImageData(mx - 12, my - 12, 25, 25).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] > 190 && px[i + 1] < 90 && px[i + 2] < 90) n++;
        return n;""", a, b))


def test_a_failed_link_is_drawn_down(browser: Any, failover_dir: Path) -> None:
    with page(browser, failover_dir / "view.html"):
        browser.execute_script("window.sctpsimView.setShow('frames', false); window.sctpsimView.setShow('routes', false)")
        browser.execute_script("window.sctpsimView.seek(5)")
        assert _red_pixels_near_middle(browser, "R1", "B") == 0
        assert _red_pixels_near_middle(browser, "A", "R1") == 0
        browser.execute_script("window.sctpsimView.seek(12)")
        assert _red_pixels_near_middle(browser, "R1", "B") > 20
        assert _red_pixels_near_middle(browser, "A", "R1") == 0
        assert any(lb["text"] == "down" for lb in browser.execute_script("return window.sctpsimView.labels()"))


def test_wired_nodes_show_no_position_nor_radio_losses(browser: Any, failover_dir: Path) -> None:
    from selenium.webdriver.common.by import By

    t = 13.0
    with page(browser, failover_dir / "view.html", f"#t={t}s&sel=node:R1"):
        text = browser.find_element(By.ID, "info-body").text
        assert "R1 (wired)" in text
        assert "position" not in text and "collision" not in text and "weak signal" not in text, text
        tr = pd.read_parquet(failover_dir / "trace.parquet")
        lost = tr[(tr.node == "R1") & (tr.layer == "link") & (tr.event == "drop") & (tr.time_ns <= int(t * 1e9))]
        assert len(lost) > 0
        assert re.search(rf"lost on its links\s+{len(lost)}\b", text), text
    # A wireless node keeps both.
    browser.execute_script("window.sctpsimView.seek(6); window.sctpsimView.select('node', 1)")
    text = browser.find_element(By.ID, "info-body").text
    assert "position" in text and "frames lost: collision" in text
    browser.execute_script("window.sctpsimView.select(null)")


def test_labels_stay_inside_the_visible_map(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "edge"
    r = sctpsim("run", str(DATA / "edge-labels.toml"), "--out", str(out), "--view", "--quiet")
    assert r.returncode == 0, r.stderr
    with page(browser, out / "view.html"):
        browser.execute_script("window.sctpsimView.seek(0.5)")
        area = browser.execute_script("return window.sctpsimView.visibleArea()")
        labels = browser.execute_script("return window.sctpsimView.labels()")
        names = {lb["text"] for lb in labels}
        assert {"westernmost-station-with-a-long-name", "southern-station-under-the-legend"} <= names
        for lb in labels:
            assert area["x0"] <= lb["x0"] and lb["x1"] <= area["x1"], lb
            assert area["y0"] <= lb["y0"] and lb["y1"] <= area["y1"], (lb, area)


def test_the_address_opens_a_time_and_a_selection(browser: Any, run_dir: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    html = run_dir / "view.html"
    with page(browser, html, "#t=7.45s&sel=node:B"):
        state = browser.execute_script("return window.sctpsimView.state()")
        assert state["t"] == pytest.approx(7.45) and state["selected"] == {"kind": "node", "id": 1}
        # The address follows the page, so that it can be copied.
        browser.execute_script("window.sctpsimView.seek(3); window.sctpsimView.select('flow', 0)")
        WebDriverWait(browser, 5).until(lambda d: "sel=flow:0" in d.execute_script("return location.hash"))
        assert browser.execute_script("return location.hash") == "#t=3s&sel=flow:0"
    with page(browser, html, "?t=11&sel=flow:0"):
        state = browser.execute_script("return window.sctpsimView.state()")
        assert state["t"] == pytest.approx(11) and state["selected"] == {"kind": "flow", "id": 0}
    with page(browser, html, "#t=5&sel=node:2"):  # a node by its index
        assert browser.execute_script("return window.sctpsimView.state().selected") == {"kind": "node", "id": 2}
    with page(browser, html, "#t=soon&sel=node:Z"):
        from selenium.webdriver.common.by import By

        status = browser.find_element(By.ID, "status").text
        assert "t=soon" in status and "sel=node:Z" in status
        assert browser.execute_script("return window.sctpsimView.state().t") == 0
