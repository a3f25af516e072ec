// sctpsim view: replays one run from the data embedded in this page (docs/view.md).
// Everything is drawn on a 2D canvas; the data is a gzip'd buffer (a JSON header, then typed
// arrays) that the browser's own DecompressionStream unpacks. No network, no libraries.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100];
  // Reception kinds, as python/sctpsim/view/data.py writes them.
  const RX_OK = 0, RX_COLLISION = 1, RX_LINK_LOST = 4, RX_WEAK_SIGNAL = 5;
  const RX_COLOR = ["#2e9d57", "#e0312b", "#f08c00", "#8e44ad", "#e0312b", "#a0785a"];
  // Node counter kinds.
  const EV_SENT = 0, EV_RECEIVED = 1, EV_FORWARDED = 2, EV_DROPPED = 3;
  const FLOW_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#393b79", "#ad494a"];
  // Wall-clock seconds a frame stays drawn after it ends, so frames of microseconds are visible.
  const FRAME_PERSIST_WALL_S = 0.08;
  // A path with no delivered packet for this long (simulated seconds) is drawn as stale.
  const STALE_PATH_S = 3;

  const S = {
    t: 0, playing: false, speed: 1, sel: null, // sel: {kind: "node"|"flow", id}
    show: { ranges: false, frames: true, routes: true, labels: true, weak: false },
    ready: false, error: null, framesDrawn: 0, labels: [],
  };
  let D = null; // the decoded data
  let view = null; // world → screen transform

  function flowColor(id) { return FLOW_COLORS[((id % FLOW_COLORS.length) + FLOW_COLORS.length) % FLOW_COLORS.length]; }

  // ---------------------------------------------------------------- loading
  async function load() {
    const text = $("sctpsim-data").textContent.trim();
    const bin = atob(text);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    const buf = await new Response(stream).arrayBuffer();
    const head = new Uint8Array(buf, 0, 8);
    if (String.fromCharCode(head[0], head[1], head[2], head[3]) !== "SCV1") throw new Error("not sctpsim view data");
    const jlen = new DataView(buf).getUint32(4, true);
    const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 8, jlen)));
    const base = Math.ceil((8 + jlen) / 8) * 8;
    const A = {};
    const ctor = { f64: Float64Array, f32: Float32Array, u32: Uint32Array, i32: Int32Array, u16: Uint16Array, i16: Int16Array, u8: Uint8Array };
    for (const [name, [kind, off, len]] of Object.entries(meta.arrays)) A[name] = new ctor[kind](buf, base + off, len);
    return prepare(meta, A);
  }

  function cumsumSeconds(dt) {
    const out = new Float64Array(dt.length);
    let acc = 0;
    for (let i = 0; i < dt.length; i++) { acc += dt[i]; out[i] = acc / 1e6; }
    return out;
  }

  function prepare(meta, A) {
    const d = { meta, A, n: meta.nodes.length, nameIndex: new Map() };
    meta.nodes.forEach((n, i) => d.nameIndex.set(n.name, i));
    d.posT = A.pos_t || new Float64Array(0);
    d.frT = A.fr_dt ? cumsumSeconds(A.fr_dt) : new Float64Array(0);
    d.evT = A.ev_dt ? cumsumSeconds(A.ev_dt) : new Float64Array(0);
    const nf = d.frT.length;
    d.rxStart = new Uint32Array(nf + 1);
    for (let i = 0; i < nf; i++) d.rxStart[i + 1] = d.rxStart[i] + A.fr_nrx[i];
    let maxDur = 0;
    for (let i = 0; i < nf; i++) if (A.fr_dur[i] > maxDur) maxDur = A.fr_dur[i];
    d.maxFrameDur = Math.min(maxDur / 1e6, 1.0);
    for (const f of meta.flows) {
      for (const list of Object.values(f.series)) for (const s of list) { s.t = A[s.a + "_t"]; s.v = A[s.a + "_v"]; }
    }
    d.linked = new Set(meta.links.flat());
    d.assoc = new Map(Object.entries(meta.assoc || {}).map(([k, v]) => [Number(k), v]));
    d.attach = new Map(Object.entries(meta.attach || {}).map(([k, v]) => [Number(k), v]));
    d.duration = meta.duration_s || (d.posT.length ? d.posT[d.posT.length - 1] : 0) ||
      (nf ? d.frT[nf - 1] : 1);
    // World bounds over every recorded and static position.
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const grow = (x, y) => { if (Number.isFinite(x) && Number.isFinite(y)) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); } };
    for (let i = 0; i < A.pos_x.length; i++) grow(A.pos_x[i], A.pos_y[i]);
    for (let i = 0; i < d.n; i++) grow(A.static_x[i], A.static_y[i]);
    if (!Number.isFinite(x0)) { x0 = 0; y0 = 0; x1 = 100; y1 = 100; }
    d.bounds = { x0, y0, x1, y1 };
    return d;
  }

  // ---------------------------------------------------------------- data at a time
  function upperBound(arr, t) { // first index with arr[i] > t
    let lo = 0, hi = arr.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] <= t) lo = m + 1; else hi = m; }
    return lo;
  }

  // Position of node i at time t: linear between recorded samples (the mobility models are
  // piecewise linear, so this is exact when the sample interval divides the legs).
  function nodePos(i, t) {
    const A = D.A, T = D.posT, n = D.n;
    if (T.length && A.moving[i]) {
      let k = upperBound(T, t);
      if (k <= 0) return [A.pos_x[i], A.pos_y[i]];
      if (k >= T.length) { const j = (T.length - 1) * n + i; return [A.pos_x[j], A.pos_y[j]]; }
      const a = (k - 1) * n + i, b = k * n + i;
      const xa = A.pos_x[a], ya = A.pos_y[a], xb = A.pos_x[b], yb = A.pos_y[b];
      if (Number.isNaN(xa)) return [xb, yb];
      if (Number.isNaN(xb)) return [xa, ya];
      const f = (t - T[k - 1]) / (T[k] - T[k - 1]);
      return [xa + (xb - xa) * f, ya + (yb - ya) * f];
    }
    return [A.static_x[i], A.static_y[i]];
  }

  function seriesAt(s, t) { // last value at or before t, or null
    if (!s) return null;
    const k = upperBound(s.t, t);
    return k > 0 ? s.v[k - 1] : null;
  }

  function assocAt(i, t, table) {
    const list = (table || D.assoc).get(i);
    if (!list) return null;
    let ap = null;
    for (const [tt, v] of list) { if (tt <= t) ap = v; else break; }
    return ap;
  }

  // The path of flow f at t: {seg, broken, stale} or null.
  function pathAt(f, t) {
    const segs = f.paths;
    if (!segs.length) return null;
    let lo = 0, hi = segs.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (segs[m][0] <= t) lo = m + 1; else hi = m; }
    if (lo === 0) return null;
    const seg = segs[lo - 1];
    const nextStart = lo < segs.length ? segs[lo][0] : Infinity;
    let broken = null;
    for (const b of f.breaks) if (b > seg[1] && b <= t && b < nextStart) { broken = b; break; }
    return { seg, broken, stale: !broken && t - seg[1] > STALE_PATH_S };
  }

  function nodeCounters(i, t) {
    const A = D.A, c = { sent: 0, received: 0, forwarded: 0, dropped: 0, framesSent: 0, rxOk: 0, rxCollision: 0, rxWeak: 0,
      rxFailed: 0, linkLost: 0 };
    const ne = upperBound(D.evT, t);
    for (let k = 0; k < ne; k++) if (A.ev_node[k] === i) {
      const kind = A.ev_kind[k];
      if (kind === EV_SENT) c.sent++; else if (kind === EV_RECEIVED) c.received++;
      else if (kind === EV_FORWARDED) c.forwarded++; else if (kind === EV_DROPPED) c.dropped++;
    }
    const nf = upperBound(D.frT, t);
    for (let k = 0; k < nf; k++) {
      const mine = A.fr_node[k] === i;
      if (mine) c.framesSent++;
      for (let r = D.rxStart[k]; r < D.rxStart[k + 1]; r++) {
        const kind = A.rx_kind[r];
        // A link's loss counts against the sender's link, not at the end it never reached.
        if (kind === RX_LINK_LOST) { if (mine) c.linkLost++; continue; }
        if (A.rx_node[r] !== i) continue;
        if (kind === RX_OK) c.rxOk++; else if (kind === RX_COLLISION) c.rxCollision++;
        else if (kind === RX_WEAK_SIGNAL) c.rxWeak++; else c.rxFailed++;
      }
    }
    return c;
  }

  function flowCounters(f, t) {
    const A = D.A, c = { sent: 0, delivered: 0, forwarded: 0, dropped: 0 };
    const ne = upperBound(D.evT, t);
    for (let k = 0; k < ne; k++) if (A.ev_flow[k] === f.id) {
      const kind = A.ev_kind[k], node = A.ev_node[k];
      if (kind === EV_SENT && node === f.src) c.sent++;
      else if (kind === EV_RECEIVED && node === f.dst) c.delivered++;
      else if (kind === EV_FORWARDED) c.forwarded++;
      else if (kind === EV_DROPPED) c.dropped++;
    }
    return c;
  }

  // ---------------------------------------------------------------- drawing the map
  const map = $("map");
  const ctx = map.getContext("2d");

  function resize() {
    const r = map.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    map.width = Math.max(1, Math.round(r.width * dpr));
    map.height = Math.max(1, Math.round(r.height * dpr));
    const tl = $("tl"), tr = tl.getBoundingClientRect();
    tl.width = Math.max(1, Math.round(tr.width * dpr));
    tl.height = Math.max(1, Math.round(tr.height * dpr));
    if (D) { fit(); renderSparks(); draw(); }
  }

  function fit() {
    const dpr = window.devicePixelRatio || 1, b = D.bounds;
    const w = map.width / dpr, pad = 46;
    // Nodes are placed above the legend, which lies over the bottom of the map.
    const h = visibleAreaHeight(), bw = Math.max(b.x1 - b.x0, 1), bh = Math.max(b.y1 - b.y0, 1);
    const scale = Math.min((w - 2 * pad) / bw, (h - 2 * pad) / bh);
    const ox = (w - bw * scale) / 2, oy = (h - bh * scale) / 2;
    // The page draws y up, as the scenario's coordinates are meant.
    view = { scale, dpr, sx: (x) => ox + (x - b.x0) * scale, sy: (y) => h - oy - (y - b.y0) * scale };
  }

  function visibleAreaHeight() {
    const h = map.height / (window.devicePixelRatio || 1), lg = $("legend");
    return lg && lg.offsetHeight ? Math.min(h, lg.offsetTop) : h;
  }

  function screen(i, t) { const [x, y] = nodePos(i, t); return [view.sx(x), view.sy(y)]; }

  function draw() {
    if (!D) return;
    const dpr = view.dpr, t = S.t, n = D.n, meta = D.meta;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, map.width / dpr, map.height / dpr);
    S.labels = [];
    drawGrid();
    const P = new Array(n);
    for (let i = 0; i < n; i++) P[i] = screen(i, t);
    drawLinks(P, t);
    // ranges
    const rg = meta.ranges;
    if (S.show.ranges && rg) {
      const targets = S.sel && S.sel.kind === "node" ? [S.sel.id] : [...Array(n).keys()].filter((i) => meta.nodes[i].wireless);
      for (const i of targets) {
        if (!meta.nodes[i].wireless) continue;
        ctx.setLineDash([6, 4]); ctx.lineWidth = 1.2;
        ctx.strokeStyle = "rgba(120,120,140,.55)"; ctx.fillStyle = "rgba(120,120,140,.035)";
        ctx.beginPath(); ctx.arc(...P[i], rg.carrier_sense_range_m * view.scale, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
        ctx.strokeStyle = "rgba(31,119,180,.8)"; ctx.fillStyle = "rgba(31,119,180,.05)";
        ctx.beginPath(); ctx.arc(...P[i], rg.reception_range_m * view.scale, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    // associations
    ctx.setLineDash([2, 4]); ctx.lineWidth = 1.5; ctx.strokeStyle = "#3867d6";
    for (const [i] of D.assoc) {
      const ap = assocAt(i, t);
      if (ap !== null && ap >= 0 && ap < n) { ctx.beginPath(); ctx.moveTo(...P[i]); ctx.lineTo(...P[ap]); ctx.stroke(); }
    }
    ctx.setLineDash([10, 4, 2, 4]); // a Mobile IP mobile to its current agent
    for (const [i] of D.attach) {
      const ag = assocAt(i, t, D.attach);
      if (ag !== null && ag >= 0 && ag < n) { ctx.beginPath(); ctx.moveTo(...P[i]); ctx.lineTo(...P[ag]); ctx.stroke(); }
    }
    ctx.setLineDash([]);
    if (S.show.routes) drawRoutes(P, t);
    if (S.show.frames) drawFrames(P, t); else S.framesDrawn = 0;
    drawNodes(P, t);
    drawTimeline();
    $("clock").textContent = t.toFixed(3) + " s";
    $("scrub").value = String(Math.round((t / D.duration) * 1e6));
  }

  // The directions of link k that are down at t (`[[link.outages]]`): null when it is up,
  // else {both} or {from: the node whose outgoing direction failed}.
  function linkDownAt(k, t) {
    let down = null;
    for (const [link, start, end, from] of D.meta.link_outages || []) {
      if (link !== k || t < start || t >= end) continue;
      if (from < 0 || (down && down.from !== from)) return { both: true };
      down = { from };
    }
    return down;
  }

  // Wired links: grey when up; a link down is drawn red and dashed with "down" at its middle,
  // only the half leaving `from` when one direction failed.
  function drawLinks(P, t) {
    D.meta.links.forEach(([a, b], k) => {
      const down = linkDownAt(k, t);
      ctx.lineWidth = 3; ctx.strokeStyle = "#b9c0cc"; ctx.setLineDash([]);
      ctx.beginPath(); ctx.moveTo(...P[a]); ctx.lineTo(...P[b]); ctx.stroke();
      if (!down) return;
      const mx = (P[a][0] + P[b][0]) / 2, my = (P[a][1] + P[b][1]) / 2;
      const from = down.both ? null : down.from === a ? P[a] : P[b];
      ctx.strokeStyle = "#e0312b"; ctx.setLineDash([8, 5]);
      ctx.beginPath();
      if (from) { ctx.moveTo(...from); ctx.lineTo(mx, my); } else { ctx.moveTo(...P[a]); ctx.lineTo(...P[b]); }
      ctx.stroke(); ctx.setLineDash([]);
      const what = down.both ? "down" : `down from ${nodeName(down.from)}`;
      halo(what, mx, my - 8, "#e0312b", "bold 11px system-ui, sans-serif", "center");
    });
  }

  function drawGrid() {
    if (!D.meta.geographic) return; // a laid-out wired graph: no metres to show
    const b = D.bounds, w = map.width / view.dpr, h = map.height / view.dpr;
    // A grid step of 1, 2 or 5 × 10^k metres, about 80 px apart.
    const raw = 80 / view.scale, p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = raw / p < 2 ? p : raw / p < 5 ? 2 * p : 5 * p;
    ctx.strokeStyle = "#eef0f4"; ctx.lineWidth = 1;
    for (let x = Math.floor(b.x0 / step) * step; x <= b.x1 + step; x += step) {
      const X = view.sx(x); if (X < 0 || X > w) continue; ctx.beginPath(); ctx.moveTo(X, 0); ctx.lineTo(X, h); ctx.stroke();
    }
    for (let y = Math.floor(b.y0 / step) * step; y <= b.y1 + step; y += step) {
      const Y = view.sy(y); if (Y < 0 || Y > h) continue; ctx.beginPath(); ctx.moveTo(0, Y); ctx.lineTo(w, Y); ctx.stroke();
    }
    // scale bar
    const len = step * view.scale, x = w - len - 16, y = 18;
    ctx.strokeStyle = "#5b6475"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + len, y); ctx.moveTo(x, y - 4); ctx.lineTo(x, y + 4);
    ctx.moveTo(x + len, y - 4); ctx.lineTo(x + len, y + 4); ctx.stroke();
    ctx.fillStyle = "#5b6475"; ctx.font = "11px system-ui, sans-serif"; ctx.textAlign = "center";
    ctx.fillText(`${step} m`, x + len / 2, y + 14);
  }

  function drawRoutes(P, t) {
    D.meta.flows.forEach((f, k) => {
      const p = pathAt(f, t);
      const sel = S.sel && S.sel.kind === "flow" && S.sel.id === f.id;
      const col = flowColor(f.id);
      const off = ((k % 5) - 2) * 1.6; // parallel routes side by side
      if (!p) {
        if (f.src < 0 || f.dst < 0 || f.paths.length) return;
        ctx.setLineDash([3, 5]); ctx.strokeStyle = col; ctx.globalAlpha = 0.35; ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(...P[f.src]); ctx.lineTo(...P[f.dst]); ctx.stroke();
        ctx.setLineDash([]); ctx.globalAlpha = 1; return;
      }
      const hops = p.seg[2];
      ctx.lineWidth = sel ? 5 : 3;
      ctx.globalAlpha = p.stale ? 0.35 : 0.9;
      ctx.strokeStyle = p.broken ? "#e0312b" : col;
      ctx.setLineDash(p.broken ? [8, 5] : p.stale ? [4, 4] : []);
      ctx.beginPath();
      hops.forEach((h, j) => { const [x, y] = P[h]; j ? ctx.lineTo(x + off, y + off) : ctx.moveTo(x + off, y + off); });
      ctx.stroke(); ctx.setLineDash([]); ctx.globalAlpha = 1;
      if (p.broken) {
        // Mark the break at the source: a cross and the time it was reported.
        const [x, y] = P[hops[0]];
        ctx.strokeStyle = "#e0312b"; ctx.lineWidth = 3;
        ctx.beginPath(); ctx.moveTo(x - 9, y - 20); ctx.lineTo(x + 1, y - 10); ctx.moveTo(x + 1, y - 20); ctx.lineTo(x - 9, y - 10); ctx.stroke();
        halo(`flow ${f.id}: route broken at ${p.broken.toFixed(2)} s`, x + 6, y - 24, "#e0312b", "bold 12px system-ui, sans-serif", "left");
      }
    });
  }

  // Text with a white outline, legible over lines, moved inside the visible part of the map
  // (the canvas less the legend along its bottom) so that a label at the edge is not clipped.
  // Each label's box is recorded in S.labels for the browser tests.
  function halo(text, x, y, color, font, align) {
    ctx.font = font; ctx.lineJoin = "round"; ctx.textAlign = "left";
    const m = ctx.measureText(text), w = m.width;
    const ascent = m.actualBoundingBoxAscent || 9, descent = m.actualBoundingBoxDescent || 3;
    const area = visibleArea(), margin = 3;
    let left = align === "center" ? x - w / 2 : align === "right" ? x - w : x;
    left = Math.max(area.x0 + margin, Math.min(left, area.x1 - margin - w));
    y = Math.max(area.y0 + margin + ascent, Math.min(y, area.y1 - margin - descent));
    ctx.strokeStyle = "rgba(255,255,255,.92)"; ctx.lineWidth = 4; ctx.strokeText(text, left, y);
    ctx.fillStyle = color; ctx.fillText(text, left, y);
    S.labels.push({ text, x0: left, y0: y - ascent, x1: left + w, y1: y + descent });
  }

  // The map's area not covered by the legend, in CSS pixels of the canvas.
  function visibleArea() {
    const w = map.width / view.dpr, h = map.height / view.dpr, lg = $("legend");
    const top = lg && lg.offsetHeight ? lg.offsetTop : h;
    return { x0: 0, y0: 0, x1: w, y1: Math.min(h, top) };
  }

  function drawFrames(P, t) {
    const A = D.A, frT = D.frT;
    if (!frT.length) { S.framesDrawn = 0; return; }
    const persist = FRAME_PERSIST_WALL_S * S.speed;
    const from = upperBound(frT, t - persist - D.maxFrameDur);
    const to = upperBound(frT, t);
    let drawn = 0;
    for (let k = Math.max(from, to - 4000); k < to; k++) {
      const t0 = frT[k], dur = A.fr_dur[k] / 1e6, age = t - t0;
      if (age > dur + persist) continue;
      const alpha = age <= dur ? 1 : Math.max(0.08, 1 - (age - dur) / persist);
      const s = A.fr_node[k];
      if (s < 0) continue;
      const flow = A.fr_flow[k], col = flow >= 0 ? flowColor(flow) : "#7a8294";
      drawn++;
      if (A.fr_wired[k]) {
        // a packet travelling along its wire
        for (let r = D.rxStart[k]; r < D.rxStart[k + 1]; r++) {
          const v = A.rx_node[r]; if (v < 0) continue;
          const f = Math.min(1, dur > 0 ? age / dur : 1);
          const x = P[s][0] + (P[v][0] - P[s][0]) * f, y = P[s][1] + (P[v][1] - P[s][1]) * f;
          ctx.globalAlpha = alpha; ctx.fillStyle = A.rx_kind[r] === RX_OK ? col : RX_COLOR[A.rx_kind[r]];
          ctx.beginPath(); ctx.arc(x, y, 4, 0, 2 * Math.PI); ctx.fill();
        }
        continue;
      }
      ctx.globalAlpha = alpha * 0.7;
      ctx.strokeStyle = col; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(...P[s], 11, 0, 2 * Math.PI); ctx.stroke();
      for (let r = D.rxStart[k]; r < D.rxStart[k + 1]; r++) {
        const v = A.rx_node[r]; if (v < 0) continue;
        const kind = A.rx_kind[r];
        // Frames locked on to beyond the reception range (ns-2: between CSThresh and RXThresh)
        // are many and say little; drawn on demand.
        if (kind === RX_WEAK_SIGNAL && !S.show.weak) continue;
        ctx.globalAlpha = alpha * (kind === RX_OK ? 0.4 : 0.9);
        ctx.strokeStyle = RX_COLOR[kind]; ctx.lineWidth = kind === RX_OK ? 1.3 : 2;
        ctx.setLineDash(kind === RX_OK ? [] : [3, 3]);
        ctx.beginPath(); ctx.moveTo(...P[s]); ctx.lineTo(...P[v]); ctx.stroke();
        if (kind !== RX_OK) { // a failed reception: a mark at the receiver
          const [x, y] = P[v]; ctx.setLineDash([]); ctx.lineWidth = 2.5;
          ctx.beginPath(); ctx.moveTo(x - 5, y - 5); ctx.lineTo(x + 5, y + 5); ctx.moveTo(x + 5, y - 5); ctx.lineTo(x - 5, y + 5); ctx.stroke();
        }
      }
      ctx.setLineDash([]);
    }
    ctx.globalAlpha = 1;
    S.framesDrawn = drawn;
  }

  function drawNodes(P, t) {
    const meta = D.meta;
    const endpoints = new Set();
    for (const f of meta.flows) { endpoints.add(f.src); endpoints.add(f.dst); }
    ctx.font = "11px system-ui, sans-serif"; ctx.textAlign = "center";
    for (let i = 0; i < D.n; i++) {
      const [x, y] = P[i], nd = meta.nodes[i];
      const sel = S.sel && S.sel.kind === "node" && S.sel.id === i;
      ctx.lineWidth = sel ? 3 : 1.5;
      ctx.strokeStyle = sel ? "#1d2330" : "#3a4252";
      if (nd.role === "ap" || nd.role === "home-agent" || nd.role === "foreign-agent") {
        ctx.fillStyle = "#3867d6";
        ctx.beginPath(); ctx.moveTo(x, y - 10); ctx.lineTo(x + 9, y + 7); ctx.lineTo(x - 9, y + 7); ctx.closePath(); ctx.fill(); ctx.stroke();
      } else if (!nd.wireless) {
        ctx.fillStyle = "#6c7689"; ctx.fillRect(x - 8, y - 8, 16, 16); ctx.strokeRect(x - 8, y - 8, 16, 16);
      } else {
        ctx.fillStyle = endpoints.has(i) ? "#ffd479" : "#ffffff";
        ctx.beginPath(); ctx.arc(x, y, 7, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      }
      if (sel) { ctx.strokeStyle = "#1d2330"; ctx.lineWidth = 1.5; ctx.beginPath(); ctx.arc(x, y, 14, 0, 2 * Math.PI); ctx.stroke(); }
      if (S.show.labels || sel) halo(nd.name, x, y + 21, "#1d2330", "11px system-ui, sans-serif", "center");
    }
  }

  // ---------------------------------------------------------------- time line
  const EVENT_COLORS = { break: "#e0312b", assoc: "#3867d6", handoff: "#3867d6", switch: "#8e44ad" };
  function drawTimeline() {
    const c = $("tl"), g = c.getContext("2d"), dpr = window.devicePixelRatio || 1;
    const w = c.width / dpr, h = c.height / dpr;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    g.fillStyle = "#d5d9e0"; g.fillRect(0, h / 2 - 3, w, 6);
    const X = (t) => (t / D.duration) * w;
    for (const [t, kind] of D.meta.events) {
      g.fillStyle = EVENT_COLORS[kind] || "#5b6475";
      g.fillRect(X(t) - 0.75, kind === "break" ? 2 : h / 2, 1.5, h / 2 - 2);
    }
    g.fillStyle = "#1d2330"; g.fillRect(0, h / 2 - 3, X(S.t), 6);
    g.beginPath(); g.arc(X(S.t), h / 2, 7, 0, 2 * Math.PI); g.fill();
  }

  // ---------------------------------------------------------------- side panel
  function fmt(v, unit) {
    if (v === null || v === undefined || Number.isNaN(v)) return "–";
    const a = Math.abs(v);
    if (unit === "bit/s") return a >= 1e6 ? (v / 1e6).toFixed(2) + " Mbit/s" : a >= 1e3 ? (v / 1e3).toFixed(1) + " kbit/s" : v.toFixed(0) + " bit/s";
    if (unit === "bytes") return a >= 1e6 ? (v / 1e6).toFixed(2) + " MB" : a >= 1e3 ? (v / 1e3).toFixed(1) + " kB" : v.toFixed(0) + " B";
    const txt = Number.isInteger(v) ? String(v) : a < 10 ? String(Number(v.toPrecision(3))) : v.toFixed(1);
    return txt + (unit ? " " + unit : "");
  }

  const SPARKS = [["goodput_bps", "goodput", "bit/s"], ["bytes_delivered", "delivered", "bytes"], ["cwnd_bytes", "cwnd", "bytes"], ["tsn", "TSN", ""], ["seq", "snd_nxt", "bytes"]];
  const sparkCanvases = [];

  function buildFlowList() {
    const box = $("flow-list");
    box.textContent = "";
    if (!D.meta.flows.length) { box.textContent = "No flows."; return; }
    for (const f of D.meta.flows) {
      const el = document.createElement("div");
      el.className = "flow"; el.style.borderLeftColor = flowColor(f.id); el.dataset.flow = String(f.id);
      const head = document.createElement("div"); head.className = "fh";
      const a = document.createElement("span");
      a.textContent = `flow ${f.id}: ${nodeName(f.src)} → ${nodeName(f.dst)}`;
      const b = document.createElement("span"); b.textContent = `${f.transport} ${f.app}`;
      head.append(a, b); el.append(head);
      for (const [key, label, unit] of SPARKS) {
        const list = f.series[key];
        if (!list || !list.length) continue;
        const row = document.createElement("div"); row.className = "spark";
        const l = document.createElement("span"); l.textContent = label;
        const cv = document.createElement("canvas");
        const v = document.createElement("span"); v.className = "v";
        row.append(l, cv, v); el.append(row);
        sparkCanvases.push({ cv, list, unit, out: v, f });
      }
      el.addEventListener("click", () => select({ kind: "flow", id: f.id }));
      box.append(el);
    }
  }

  function renderSparks() {
    const dpr = window.devicePixelRatio || 1;
    for (const s of sparkCanvases) {
      const r = s.cv.getBoundingClientRect();
      s.cv.width = Math.max(1, Math.round(r.width * dpr)); s.cv.height = Math.max(1, Math.round(r.height * dpr));
      let vmax = 0;
      for (const ser of s.list) for (let i = 0; i < ser.v.length; i++) if (ser.v[i] > vmax) vmax = ser.v[i];
      s.vmax = vmax || 1;
      const off = document.createElement("canvas"); off.width = s.cv.width; off.height = s.cv.height;
      const g = off.getContext("2d"), w = off.width, h = off.height;
      s.list.forEach((ser, j) => {
        g.strokeStyle = j ? "#9aa3b4" : flowColor(s.f.id); g.lineWidth = 1.2 * dpr; g.beginPath();
        for (let i = 0; i < ser.t.length; i++) {
          const x = (ser.t[i] / D.duration) * w, y = h - 1 - (ser.v[i] / s.vmax) * (h - 3);
          i ? g.lineTo(x, y) : g.moveTo(x, y);
        }
        g.stroke();
      });
      s.img = off;
    }
  }

  function drawSparkCursors() {
    for (const s of sparkCanvases) {
      const g = s.cv.getContext("2d");
      g.clearRect(0, 0, s.cv.width, s.cv.height);
      if (s.img) g.drawImage(s.img, 0, 0);
      const x = (S.t / D.duration) * s.cv.width;
      g.fillStyle = "#1d2330"; g.fillRect(x - 0.5, 0, 1.5, s.cv.height);
      s.out.textContent = fmt(seriesAt(s.list[0], S.t), s.unit);
    }
  }

  function nodeName(i) { return i >= 0 && i < D.n ? D.meta.nodes[i].name : "?"; }

  function rows(pairs) {
    const tb = document.createElement("table");
    for (const [k, v] of pairs) {
      const tr = document.createElement("tr"), a = document.createElement("td"), b = document.createElement("td");
      a.textContent = k; b.textContent = v; tr.append(a, b); tb.append(tr);
    }
    return tb;
  }

  function updateInfo() {
    const box = $("info-body");
    box.textContent = "";
    const t = S.t;
    if (!S.sel) { box.textContent = "Click a node or a flow."; return; }
    const head = document.createElement("div"); head.className = "head";
    if (S.sel.kind === "node") {
      const i = S.sel.id, nd = D.meta.nodes[i], [x, y] = nodePos(i, t), c = nodeCounters(i, t);
      head.textContent = `${nd.name} (${nd.role})`;
      const pairs = [["at", t.toFixed(3) + " s"]];
      // A wired node laid out by the page has no position in metres to show.
      if (nd.placed) pairs.push(["position", `${x.toFixed(1)} m, ${y.toFixed(1)} m`]);
      const ap = assocAt(i, t);
      if (D.assoc.has(i)) pairs.push(["associated with", ap !== null && ap >= 0 ? nodeName(ap) : "none"]);
      if (D.attach.has(i)) {
        const ag = assocAt(i, t, D.attach);
        pairs.push(["Mobile IP agent", ag !== null && ag >= 0 ? nodeName(ag) : "home (before the first handover)"]);
      }
      if (D.frT.length || D.evT.length) {
        pairs.push(["packets sent", String(c.sent)], ["packets received", String(c.received)],
          ["packets forwarded", String(c.forwarded)], ["packets dropped", String(c.dropped)],
          ["frames sent", String(c.framesSent)], ["frames received", String(c.rxOk)]);
        // Radio losses only where there is a radio; link losses only where there is a link.
        if (nd.wireless) pairs.push(["frames lost: collision", String(c.rxCollision)],
          ["frames lost: weak signal", String(c.rxWeak)], ["frames lost: other", String(c.rxFailed)]);
        if (D.linked.has(i)) pairs.push(["lost on its links", String(c.linkLost)]);
      } else pairs.push(["counters", "no trace (run with --trace)"]);
      box.append(head, rows(pairs));
    } else {
      const f = D.meta.flows.find((g) => g.id === S.sel.id);
      if (!f) return;
      head.textContent = `flow ${f.id}: ${nodeName(f.src)} → ${nodeName(f.dst)}`;
      const c = flowCounters(f, t), p = pathAt(f, t);
      const s = (k) => (f.series[k] || [])[0];
      const pairs = [["at", t.toFixed(3) + " s"], ["transport", `${f.transport} ${f.app}`],
        ["bytes delivered", fmt(seriesAt(s("bytes_delivered"), t), "bytes")],
        ["goodput", fmt(seriesAt(s("goodput_bps"), t), "bit/s")]];
      if (f.series.cwnd_bytes) pairs.push(["cwnd", fmt(seriesAt(s("cwnd_bytes"), t), "bytes")]);
      if (f.series.tsn) pairs.push(["TSN sent", fmt(seriesAt(s("tsn"), t), "")]);
      if (D.evT.length) pairs.push(["packets sent", String(c.sent)], ["packets delivered", String(c.delivered)],
        ["forwarded (hops)", String(c.forwarded)], ["dropped", String(c.dropped)]);
      pairs.push(["route breaks so far", String(f.breaks.filter((b) => b <= t).length)]);
      if (p) pairs.push(["route", p.seg[2].map(nodeName).join(" → ") + (p.broken ? " (broken)" : p.stale ? " (stale)" : "")]);
      box.append(head, rows(pairs));
    }
  }

  function select(sel) {
    S.sel = sel;
    updateInfo(); // first: the panel's new height decides where the flow list can scroll
    for (const el of document.querySelectorAll(".flow")) {
      const on = !!sel && sel.kind === "flow" && el.dataset.flow === String(sel.id);
      el.classList.toggle("sel", on);
      if (on) el.scrollIntoView({ block: "nearest" });
    }
    draw(); updateAddress();
  }

  // ---------------------------------------------------------------- interaction
  function hit(px, py) {
    let best = -1, bd = 15 * 15;
    for (let i = 0; i < D.n; i++) {
      const [x, y] = screen(i, S.t), d = (x - px) ** 2 + (y - py) ** 2;
      if (d < bd) { bd = d; best = i; }
    }
    if (best >= 0) return { kind: "node", id: best };
    if (!S.show.routes) return null;
    for (const f of D.meta.flows) {
      const p = pathAt(f, S.t); if (!p) continue;
      const hops = p.seg[2].map((h) => screen(h, S.t));
      for (let j = 1; j < hops.length; j++) if (segDist(px, py, hops[j - 1], hops[j]) < 6) return { kind: "flow", id: f.id };
    }
    return null;
  }

  function segDist(px, py, [ax, ay], [bx, by]) {
    const dx = bx - ax, dy = by - ay, L = dx * dx + dy * dy;
    const u = L ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / L)) : 0;
    return Math.hypot(px - ax - u * dx, py - ay - u * dy);
  }

  function seek(t) {
    S.t = Math.max(0, Math.min(D.duration, Number(t) || 0));
    draw(); drawSparkCursors(); updateInfo(); updateAddress();
  }

  let lastFrame = null, lastInfo = 0;
  function tick(now) {
    if (S.playing) {
      if (lastFrame !== null) {
        S.t = Math.min(D.duration, S.t + ((now - lastFrame) / 1000) * S.speed);
        if (S.t >= D.duration) setPlaying(false);
      }
      lastFrame = now;
      draw(); drawSparkCursors();
      if (now - lastInfo > 250) { updateInfo(); lastInfo = now; }
      requestAnimationFrame(tick);
    } else lastFrame = null;
  }

  function setPlaying(on) {
    S.playing = on;
    $("play").textContent = on ? "❚❚" : "▶";
    updateAddress();
    if (on) { if (S.t >= D.duration) S.t = 0; requestAnimationFrame(tick); }
  }

  function setSpeed(k) {
    const i = Math.max(0, Math.min(SPEEDS.length - 1, k));
    S.speed = SPEEDS[i]; $("speed").value = String(i);
  }

  function wire() {
    const sp = $("speed");
    SPEEDS.forEach((v, i) => { const o = document.createElement("option"); o.value = String(i); o.textContent = v + "×"; sp.append(o); });
    setSpeed(SPEEDS.indexOf(D.duration > 120 ? 10 : 1));
    sp.addEventListener("change", () => setSpeed(Number(sp.value)));
    // Controls give the focus back, so that the keyboard shortcuts below act once.
    $("play").addEventListener("click", (e) => { setPlaying(!S.playing); e.currentTarget.blur(); });
    $("scrub").addEventListener("input", (e) => seek((Number(e.target.value) / 1e6) * D.duration));
    // Hovering the time line names the events under the pointer (route breaks, handoffs, ...).
    $("scrub").addEventListener("mousemove", (e) => {
      const r = e.target.getBoundingClientRect(), px = e.clientX - r.left, dt = (4 / r.width) * D.duration;
      const t = (px / r.width) * D.duration;
      const near = D.meta.events.filter(([te]) => Math.abs(te - t) <= dt).slice(0, 6);
      e.target.title = (near.length ? near.map(([te, , , text]) => `${te.toFixed(2)} s  ${text}`).join("\n") + "\n" : "") +
        `${t.toFixed(2)} s`;
    });
    for (const k of Object.keys(S.show)) {
      const el = $("t-" + k); el.checked = S.show[k];
      el.addEventListener("change", () => { S.show[k] = el.checked; el.blur(); draw(); });
    }
    map.addEventListener("click", (e) => {
      const r = map.getBoundingClientRect();
      select(hit(e.clientX - r.left, e.clientY - r.top));
    });
    window.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      // The scrubber moves itself with the arrow keys, Home and End.
      if (e.target === $("scrub") && ["ArrowRight", "ArrowLeft", "Home", "End"].includes(e.key)) return;
      const step = e.shiftKey ? D.duration / 20 : Math.max(D.duration / 1000, 0.001);
      const keys = { r: "ranges", f: "frames", p: "routes", l: "labels", w: "weak" };
      if (e.key === " ") { setPlaying(!S.playing); e.preventDefault(); }
      else if (e.key === "ArrowRight") seek(S.t + step);
      else if (e.key === "ArrowLeft") seek(S.t - step);
      else if (e.key === "Home") seek(0);
      else if (e.key === "End") seek(D.duration);
      else if (e.key === "]") setSpeed(SPEEDS.indexOf(S.speed) + 1);
      else if (e.key === "[") setSpeed(SPEEDS.indexOf(S.speed) - 1);
      else if (e.key === "Escape") select(null);
      else if (keys[e.key]) { const k = keys[e.key]; S.show[k] = !S.show[k]; $("t-" + k).checked = S.show[k]; draw(); }
    });
    window.addEventListener("resize", resize);
  }

  function header() {
    const m = D.meta;
    $("title").textContent = m.name;
    const bits = [`${D.n} nodes`, `${m.flows.length} flows`, `${fmt(m.duration_s, "s")}`];
    if (m.seed !== null && m.seed !== undefined) bits.push(`seed ${m.seed}`);
    if (m.position_interval_s) bits.push(`positions every ${fmt(m.position_interval_s, "s")}`);
    bits.push(`${D.frT.length} frames`);
    $("sub").textContent = bits.join(" · ");
    const rg = m.ranges;
    let lg = "<i style=\"background:#2e9d57\"></i>received<i style=\"background:#e0312b\"></i>collision / route broken" +
      "<i style=\"background:#f08c00\"></i>frame error<i style=\"background:#a0785a\"></i>weak signal<i class=\"dot\" style=\"background:#3867d6\"></i>access point / agent";
    if ((m.link_outages || []).length) lg += "<i style=\"background:#e0312b\"></i>link down";
    if (rg) lg += ` · ranges: reception ${rg.reception_range_m.toFixed(0)} m, carrier sense ${rg.carrier_sense_range_m.toFixed(0)} m`;
    $("legend").innerHTML = lg;
    $("notes").textContent = m.notes.length ? "Data selection: " + m.notes.join("; ") : "";
  }

  // ---------------------------------------------------------------- the address
  // The page opens at a time and a selection given in its address, `view.html#t=12.5s&sel=node:B`
  // (or `?t=...&sel=...`; the fragment wins): t in seconds with or without "s"; sel one of
  // node:NAME, node:INDEX (the node's position in the scenario, from 0), flow:ID. The address
  // follows the page when it is paused, seeked or a selection changes, so it can be copied.
  function parseAddress() {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of new URLSearchParams(location.hash.replace(/^#/, ""))) p.set(k, v);
    const out = { problems: [] };
    if (p.has("t")) {
      const m = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*s?\s*$/.exec(p.get("t"));
      if (m) out.t = Number(m[1]); else out.problems.push(`t=${p.get("t")}: not a time in seconds`);
    }
    if (p.has("sel")) {
      const sel = selectionNamed(p.get("sel"));
      if (sel) out.sel = sel; else out.problems.push(`sel=${p.get("sel")}: no such node or flow`);
    }
    return out;
  }

  function selectionNamed(text) {
    const m = /^(node|flow):(.+)$/.exec(text.trim());
    if (!m) return null;
    if (m[1] === "flow") {
      const id = Number(m[2]);
      return D.meta.flows.some((f) => f.id === id) ? { kind: "flow", id } : null;
    }
    if (D.nameIndex.has(m[2])) return { kind: "node", id: D.nameIndex.get(m[2]) };
    const i = Number(m[2]);
    return Number.isInteger(i) && i >= 0 && i < D.n ? { kind: "node", id: i } : null;
  }

  function applyAddress() {
    const a = parseAddress();
    if (a.sel) select(a.sel);
    if (a.t !== undefined) seek(a.t);
    $("status").textContent = a.problems.length ? "address: " + a.problems.join("; ") : "";
  }

  function addressOf() {
    const parts = [`t=${Number(S.t.toFixed(6))}s`];
    if (S.sel) parts.push(`sel=${S.sel.kind}:${S.sel.kind === "node" ? encodeURIComponent(D.meta.nodes[S.sel.id].name) : S.sel.id}`);
    return "#" + parts.join("&");
  }

  // Rewritten a quarter of a second after the last change: dragging the scrubber would
  // otherwise rewrite it hundreds of times, which browsers throttle.
  let addressTimer = null;
  function updateAddress() {
    if (!S.ready || S.playing) return;
    clearTimeout(addressTimer);
    addressTimer = setTimeout(() => {
      try { history.replaceState(null, "", addressOf()); } catch (e) { /* an address the browser will not rewrite */ }
    }, 250);
  }

  // The hook the browser tests drive (tests/python/test_view.py).
  window.sctpsimView = {
    get ready() { return S.ready; },
    get error() { return S.error; },
    seek(t) { seek(t); return S.t; },
    nodePosition(name) { const i = D.nameIndex.get(name); return i === undefined ? null : nodePos(i, S.t).map(Number); },
    // CSS pixels in the page (what a mouse click at the node uses).
    nodeScreenPosition(name) {
      const i = D.nameIndex.get(name); if (i === undefined) return null;
      const r = map.getBoundingClientRect(), [x, y] = screen(i, S.t); return [r.left + x, r.top + y];
    },
    state() {
      return { t: S.t, playing: S.playing, speed: S.speed, selected: S.sel, show: { ...S.show }, nodes: D.n,
        frames: D.frT.length, framesDrawn: S.framesDrawn, loadMs: S.loadMs, duration: D.duration, info: $("info-body").innerText };
    },
    select(kind, id) { select(kind ? { kind, id } : null); },
    labels() { return S.labels.map((b) => ({ ...b })); },
    visibleArea() { return visibleArea(); },
    setShow(k, v) { S.show[k] = !!v; $("t-" + k).checked = !!v; draw(); },
  };

  load().then((d) => {
    D = d;
    header(); buildFlowList(); wire(); resize();
    seek(0);
    $("status").textContent = "";
    applyAddress();
    window.addEventListener("hashchange", applyAddress);
    S.loadMs = performance.now();
    S.ready = true;
  }).catch((e) => {
    S.error = String(e && e.message ? e.message : e);
    $("status").textContent = "could not load the data: " + S.error;
    console.error(e);
  });
})();
