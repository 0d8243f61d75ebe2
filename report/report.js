// The script of fiohist's report page: reads the run's data (the JSON element
// #fiohist-data, written by fiohist report) and draws it with Apache ECharts. Everything
// it needs is inlined in the page, so the page works offline.
//
// Zoom rule: a point drawn is always the statistics of its own window. Zooming out never
// takes maxima or means of percentiles: the page switches to a coarser resolution that
// fiohist computed from the summed histograms (ResolutionSink), the finest one whose
// windows fit the chart's width.
//
// Drawing is lazy: a chart is drawn when it comes near the viewport (IntersectionObserver),
// so opening the page costs the charts on its first screen, not all of them. --png (#only=)
// draws its chart at once; tests and benchmarks call fiohistReport.drawAll().
(function () {
  'use strict';
  // Where the time goes, read by tests and bench/report_bench.sh (ms since navigation start).
  const timing = { script: performance.now(), setup: {}, drawn: {} };
  const DATA = JSON.parse(document.getElementById('fiohist-data').textContent);
  timing.data = performance.now();
  const MAIN = DATA.main;
  const BASE = DATA.baseline || null;
  // The placements of the run's I/Os (docs/stalls.md): MAIN is the one the page opens on
  // (--place), `other_placement` holds what differs in the other one, or why there is none.
  const OTHER = DATA.other_placement || null;
  const OPEN = MAIN.placement || 'completion';
  const DIR_ORDER = ['read', 'write', 'trim', 'all'];
  const COLORS = ['#1f77b4', '#2ca02c', '#ff7f0e', '#d62728', '#9467bd', '#8c564b', '#e377c2',
    '#7f7f7f', '#bcbd22', '#17becf'];
  const DIR_COLOR = { read: '#1f77b4', write: '#d62728', trim: '#9467bd', all: '#444' };
  const params = new URLSearchParams(location.hash.slice(1));
  const only = params.get('only');  // one chart alone (fiohist report --png)
  // The page's state, read by tests and by --png: charts by id (once drawn), `rendered` once
  // every chart of the first screen has drawn, `allDrawn` once every chart has.
  const state = { charts: {}, resolution: {}, rendered: false, allDrawn: false, maxPoints: null,
    total: 0, drawnCount: 0, timing, scriptStartMs: timing.script };
  window.fiohistReport = state;

  // ---- formatting -------------------------------------------------------------------
  function fmtNs(ns) {
    if (ns === null || ns === undefined || !isFinite(ns)) return '';
    const a = Math.abs(ns);
    const [d, u] = a >= 1e9 ? [1e9, 's'] : a >= 1e6 ? [1e6, 'ms'] : a >= 1e3 ? [1e3, '\u00b5s'] : [1, 'ns'];
    const v = ns / d;
    return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + ' ' + u;
  }
  function fmtCount(n) {
    if (n >= 1e6) return (n / 1e6).toFixed(2) + ' M';
    if (n >= 1e4) return (n / 1e3).toFixed(1) + ' k';
    return n >= 100 ? n.toFixed(0) : n.toFixed(1);
  }
  function iso(ms) { return new Date(ms).toISOString().replace('.000Z', 'Z'); }
  function fmtWhen(run, ms) {
    return run.absolute ? iso(ms) : ((ms - run.first_quantum_ms) / 1000).toFixed(1) + ' s';
  }
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  function table(head, rows, leftCols) {
    const left = new Set(leftCols || [0]);
    const t = el('table');
    t.append(el('tr', {}, ...head.map((h, i) => el('th', left.has(i) ? { class: 'l' } : {}, h))));
    for (const r of rows) {
      t.append(el('tr', {}, ...r.map((c, i) => el('td', left.has(i) ? { class: 'l' } : {}, c))));
    }
    return t;
  }
  const root = document.getElementById('report');
  function section(id, title, sub) {
    const s = el('section', { class: 'section', id: 'section-' + id }, el('h2', {}, title));
    if (sub) s.append(el('p', { class: 'sub' }, sub));
    if (only === id) s.classList.add('shown');
    root.append(s);
    return s;
  }

  // ---- data access --------------------------------------------------------------------
  function index(run) {
    run.byKey = {};
    for (const s of run.series) run.byKey[s.host + '|' + s.dir + '|' + s.res] = s;
    run.heatByKey = {};
    for (const h of run.heat) run.heatByKey[h.dir + '|' + h.res] = h;
    // Only the resolutions with windows: one whose window would repeat the whole run held by
    // the one below it is not written (a short run has no x3600 windows).
    const held = new Set(run.series.map((x) => x.res));
    run.resList = run.resolutions.filter((r) => held.has(r)).sort((a, b) => a - b);
    if (run.resList.length === 0) run.resList = [1];
  }
  index(MAIN);
  if (BASE) index(BASE);
  const VIEWS = { [OPEN]: MAIN };
  if (OTHER && !OTHER.refused) {
    VIEWS[OTHER.placement] = Object.assign({}, MAIN, OTHER);
    index(VIEWS[OTHER.placement]);
  }
  // The placement the time charts, heatmaps, hosts and whole-run table draw (the toggle).
  let VIEW = MAIN;
  state.placement = OPEN;
  function series(run, host, dir, res) { return run.byKey[host + '|' + dir + '|' + res]; }
  // x of a window: its middle, absolute ms on a time axis, else seconds since the first quantum.
  function xOf(run, t, res, elapsed) {
    const mid = t + res * run.quantum_ms / 2;
    return run.absolute && !elapsed ? mid : (mid - run.first_quantum_ms) / 1000;
  }
  function spanMs(run) {
    const s = series(run, '', 'all', 1) || run.series.find((x) => x.res === 1 && x.host === '');
    if (!s || s.t.length === 0) return run.quantum_ms;
    return s.t[s.t.length - 1] - s.t[0] + run.quantum_ms;
  }
  // The finest resolution whose windows over `ms` of time fit in `width` pixels (2 px each).
  function pickRes(run, ms, width) {
    const budget = state.maxPoints || Math.max(40, Math.floor(width / 2));
    for (const r of run.resList) if (ms / (r * run.quantum_ms) <= budget) return r;
    return run.resList[run.resList.length - 1];
  }
  // Consecutive partial windows of a series as [x0, x1] ranges, for shading.
  function partialRanges(run, s, elapsed) {
    const out = [];
    const w = s.res * run.quantum_ms;
    for (const i of s.partial) {
      const a = xOf(run, s.t[i] - w / 2, s.res, elapsed) , b = xOf(run, s.t[i] + w / 2, s.res, elapsed);
      const last = out[out.length - 1];
      if (last && Math.abs(last[1] - a) < 1e-9) last[1] = b; else out.push([a, b]);
    }
    return out.map(([a, b]) => [{ xAxis: a }, { xAxis: b }]);
  }

  // The run's stalls of the cluster (no I/O completed anywhere; docs/stalls.md), as shaded
  // ranges named with their numbers: start, end, the I/Os stuck and their latency. Idle gaps
  // the jobs asked for are shaded lighter and named idle.
  function stallRanges(run, res, elapsed) {
    const half = res * run.quantum_ms / 2;
    return (run.stalls || []).filter((st) => st.host === '').map((st) => {
      const a = xOf(run, st.start_ms - half, res, elapsed), b = xOf(run, st.end_ms - half, res, elapsed);
      const name = st.idle
        ? 'idle ' + ((st.end_ms - st.start_ms) / 1000).toFixed(1) + ' s'
        : 'stall ' + ((st.end_ms - st.start_ms) / 1000).toFixed(1) + ' s: ' + Math.round(st.stuck_ios) +
          ' I/Os stuck, slowest ' + fmtNs(st.stuck_max_ns);
      return [{ xAxis: a, name, itemStyle: { color: st.idle ? 'rgba(90,120,180,0.10)' : 'rgba(179,38,30,0.14)' },
        label: { show: true, position: 'insideTop', color: '#b3261e', fontSize: 11 } }, { xAxis: b }];
    });
  }

  // ---- drawing charts when they come into view -------------------------------------------
  const waiting = new Map();  // chart div -> { id, draw }: not drawn yet
  const drawnBy = new Map();  // chart id -> { div, draw }: every chart, to draw it again
  let firstScreen = -1;  // charts of the first screen not yet finished; -1 before they are known
  function chartFinished(id) {
    timing.drawn[id] = performance.now();
    if (++state.drawnCount === state.total) {
      state.allDrawn = true;
      timing.allDrawn = timing.drawn[id];
      document.body.setAttribute('data-all-drawn', '1');
    }
    if (firstScreen > 0 && --firstScreen === 0) firstScreenDrawn();
  }
  function firstScreenDrawn() {
    state.rendered = true;
    state.renderMs = timing.firstScreen = performance.now();
    document.body.setAttribute('data-rendered', '1');
  }
  function drawChart(div) {
    const w = waiting.get(div);
    if (!w) return;
    waiting.delete(div);
    if (observer) observer.unobserve(div);
    const t0 = performance.now();
    const chart = echarts.init(div, null, { renderer: 'canvas' });
    state.charts[w.id] = chart;
    let first = true;
    chart.on('finished', () => { if (first) { first = false; chartFinished(w.id); } });
    w.draw(chart);
    timing.setup[w.id] = performance.now() - t0;
    window.addEventListener('resize', () => state.charts[w.id].resize());
  }
  // Charts come into view 300 px early, so scrolling rarely shows an empty frame.
  const observer = !only && 'IntersectionObserver' in window
    ? new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) drawChart(e.target);
    }, { rootMargin: '300px 0px' })
    : null;
  // A chart's place on the page; `draw(chart)` sets its options when it is drawn.
  function makeChart(id, container, cls, draw) {
    const div = el('div', { class: 'chart' + (cls ? ' ' + cls : ''), id: 'chart-' + id });
    container.append(div);
    waiting.set(div, { id, draw });
    drawnBy.set(id, { div, draw });
    state.total++;
  }
  // Draws the charts of the first screen now and the rest when they come into view.
  function startDrawing() {
    const inView = [];
    for (const div of waiting.keys()) {
      const r = div.getBoundingClientRect();
      if (!observer || (r.top < innerHeight && r.bottom > 0)) inView.push(div);
    }
    firstScreen = inView.length;
    timing.firstScreenCharts = inView.map((div) => waiting.get(div).id);
    if (firstScreen === 0) firstScreenDrawn();
    for (const div of inView) drawChart(div);
    if (observer) for (const div of waiting.keys()) observer.observe(div);
    timing.setupEnd = performance.now();
  }
  /// Draws every chart not drawn yet (tests, benchmarks, printing); `allDrawn` says when done.
  state.drawAll = () => { for (const div of Array.from(waiting.keys())) drawChart(div); };
  window.addEventListener('beforeprint', state.drawAll);
  function timeAxis(run, elapsed) {
    const abs = run.absolute && !elapsed;
    return {
      type: abs ? 'time' : 'value', name: abs ? 'time (UTC)' : 'elapsed (s)', nameLocation: 'middle',
      nameGap: 26, scale: true,
      axisLabel: abs ? { formatter: (v) => new Date(v).toISOString().slice(11, 19), hideOverlap: true } : {},
    };
  }
  function latencyAxis(name) {
    return { type: 'log', name: name || 'latency', nameLocation: 'middle', nameGap: 62,
      axisLabel: { formatter: fmtNs }, minorSplitLine: { show: false } };
  }
  const zoom = [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' },
    { type: 'slider', xAxisIndex: 0, height: 16, bottom: 4, filterMode: 'none' }];
  // A time chart whose data depends on the resolution: build(res) returns its series;
  // zooming switches resolution when another one fits the visible span better.
  // A chart drawn late starts at the zoom of the charts it is connected with.
  const groupZoom = {};
  // The zoom window (percent) a datazoom event sets, without copying the chart's options.
  function zoomOf(chart, e) {
    const b = e && e.batch ? e.batch[0] : e;
    if (b && typeof b.start === 'number' && typeof b.end === 'number') return { start: b.start, end: b.end };
    const z = chart.getOption().dataZoom[0];
    return { start: z.start, end: z.end };
  }
  function resolutionChart(id, chart, run, base, build, elapsed) {
    const group = elapsed ? 'elapsed' : 'time';
    const full = spanMs(run);
    const fit = (z) => pickRes(run, full * Math.max(z.end - z.start, 0.01) / 100, chart.getWidth());
    const z0 = groupZoom[group] || { start: 0, end: 100 };
    let res = fit(z0);
    base.series = build(res);
    base.dataZoom = base.dataZoom.map((d) => Object.assign({}, d, z0));
    chart.setOption(base);
    state.resolution[id] = res;
    chart.on('datazoom', (e) => {
      const z = zoomOf(chart, e);
      groupZoom[group] = z;
      const next = fit(z);
      if (next !== res) {
        res = next;
        state.resolution[id] = res;
        chart.setOption({ series: build(res) });
      }
    });
    // Time charts zoom together (echarts.connect at the end).
    chart.group = group;
  }
  function tooltipLatency(run, elapsed) {
    return {
      trigger: 'axis',
      valueFormatter: (v) => (typeof v === 'number' && v > 1e-3 && v < 1e12 ? fmtNs(v) : v),
    };
  }

  function latencyChart(c, container) {
    makeChart(c.id, container, '', (chart) => drawLatency(c, chart));
  }
  function drawLatency(c, chart) {
    const run = VIEW;
    const names = run.percentiles;
    const slas = run.sla.filter((t) => t.dir === c.dir);
    const fewPercentiles = names.map((n, k) => k).filter((k) => run.series.some(
      (s) => s.host === '' && s.dir === c.dir && s.few && s.few.some(([, j]) => j === k)));
    const build = (res) => {
      const s = series(run, '', c.dir, res);
      const out = names.map((name, k) => ({
        id: 'p' + k, name, type: 'line', showSymbol: false, sampling: undefined,
        data: s.t.map((t, i) => [xOf(run, t, res), s.n[i] > 0 ? s.p[k][i] : null]),
        lineStyle: { width: 1.4 }, color: COLORS[k % COLORS.length],
      }));
      out[0].markArea = { silent: true, itemStyle: { color: 'rgba(120,120,120,0.16)' },
        data: partialRanges(run, s).concat(stallRanges(run, res)) };
      if (slas.length) {
        out[slas[0].p].markLine = { symbol: 'none', lineStyle: { type: 'dashed', color: '#b3261e' },
          label: { formatter: (p) => 'SLA ' + p.name, position: 'insideEndTop', color: '#b3261e' }, data: slas.map((t) => ({ name: t.text, yAxis: t.limit_ns })) };
      }
      if (s.lo) {
        // Each line's confidence band, toggled with it in the legend (same name): a
        // transparent line at the low bound and the band's height stacked on it. Where too
        // few I/Os leave no upper bound, the band stops at the value and an open triangle
        // says so.
        const few = names.map(() => new Set());
        for (const [i, k] of s.few || []) few[k].add(i);
        names.forEach((name, k) => {
          const lo = s.t.map((t, i) => (s.n[i] > 0 && s.lo[k][i] > 0 ? s.lo[k][i] : null));
          const style = { name, type: 'line', stack: 'band' + k, showSymbol: false, silent: true,
            lineStyle: { opacity: 0 }, color: COLORS[k % COLORS.length], z: 1 };
          out.push(Object.assign({ id: 'lo' + k, data: s.t.map((t, i) => [xOf(run, t, res), lo[i]]) }, style));
          out.push(Object.assign({ id: 'band' + k, areaStyle: { opacity: 0.13 },
            data: s.t.map((t, i) => [xOf(run, t, res), lo[i] === null ? null
              : Math.max(0, (few[k].has(i) ? s.p[k][i] : s.hi[k][i]) - lo[i])]) }, style));
        });
        // Marker series only for the percentiles flagged at some resolution (series ids must
        // stay the same when zooming switches resolution).
        fewPercentiles.forEach((k) => out.push({ id: 'few' + k, name: names[k], type: 'scatter', symbol: 'triangle',
          symbolSize: 6, silent: true, itemStyle: { color: '#fff', borderColor: COLORS[k % COLORS.length], borderWidth: 1.2 },
          data: Array.from(few[k]).sort((x, y) => x - y).map((i) => [xOf(run, s.t[i], res), s.p[k][i]]) }));
      }
      const clamped = s.clamped.map(([i, k]) => [xOf(run, s.t[i], res), s.p[k][i]]);
      if (c.clamped) {
        out.push({ id: 'clamped', name: 'clamped (lower bound)', type: 'scatter', symbol: 'triangle',
          symbolSize: 8, color: '#000', data: clamped });
      }
      return out;
    };
    // The tooltip: each percentile with its interval, at the resolution drawn.
    const tooltip = { trigger: 'axis', formatter: (ps) => {
      const s = series(run, '', c.dir, state.resolution[c.id]);
      const i = ps.length ? ps[0].dataIndex : -1;
      if (!s || !(i >= 0 && i < s.t.length)) return '';
      const clamped = new Set(s.clamped.filter(([j]) => j === i).map(([, k]) => k));
      const few = new Set((s.few || []).filter(([j]) => j === i).map(([, k]) => k));
      const cto = (s.cto || []).find(([j]) => j === i);
      const rows = [fmtWhen(run, s.t[i]) + ', ' + fmtCount(s.n[i]) + ' I/Os' + (cto ? ' (partial: complete to ' + (cto[1] > 0 ? fmtNs(cto[1] * 1e6) : '0 ms') + ')'
        : s.partial.includes(i) ? ' (partial)' : '')];
      for (const p of ps) {
        const k = /^p(\d+)$/.exec(p.seriesId);
        if (!k || s.n[i] <= 0) continue;
        const j = Number(k[1]);
        let line = p.marker + names[j] + ': ' + (clamped.has(j) ? '\u2265 ' : '') + fmtNs(s.p[j][i]);
        if (s.lo) line += few.has(j) ? ' (\u2265 ' + fmtNs(s.lo[j][i]) + ', no upper bound: too few I/Os)'
          : ' (' + fmtNs(s.lo[j][i]) + ' \u2013 ' + fmtNs(s.hi[j][i]) + ')';
        rows.push(line);
      }
      return rows.join('<br>');
    } };
    resolutionChart(c.id, chart, run, {
      animation: false, color: COLORS,
      title: { text: c.dir + ': cluster latency percentiles', left: 8, textStyle: { fontSize: 13 } },
      legend: { top: 2, right: 10 }, grid: { left: 80, right: 24, top: 36, bottom: 56 },
      tooltip, xAxis: timeAxis(run), yAxis: latencyAxis(), dataZoom: zoom,
    }, build);
  }

  // --accuracy: the cluster's windows sized to the targets, each drawn flat over its span
  // with its confidence band (a step line: a window's value holds from its start to its end).
  function accuracyChart(c, container) {
    makeChart(c.id, container, '', (chart) => drawAccuracy(c, chart));
  }
  function drawAccuracy(c, chart) {
    const run = MAIN;
    const names = run.percentiles;
    const w = (run.windows || []).find((x) => x.dir === c.dir);
    const x = (ms) => (run.absolute ? ms : (ms - run.first_quantum_ms) / 1000);
    const steps = (v) => w.t.flatMap((t, i) => (w.n[i] > 0 && v[i] > 0
      ? [[x(t), v[i]], [x(w.e[i]), v[i]]] : [[x(t), null], [x(w.e[i]), null]]));
    const out = [];
    names.forEach((name, k) => {
      const color = COLORS[k % COLORS.length];
      out.push({ id: 'p' + k, name, type: 'line', showSymbol: false, data: steps(w.p[k]),
        lineStyle: { width: 1.4 }, color });
      if (!w.lo) return;
      const style = { name, type: 'line', stack: 'band' + k, showSymbol: false, silent: true,
        lineStyle: { opacity: 0 }, color, z: 1 };
      out.push(Object.assign({ id: 'lo' + k, data: steps(w.lo[k]) }, style));
      out.push(Object.assign({ id: 'band' + k, areaStyle: { opacity: 0.13 },
        data: steps(w.hi[k].map((h, i) => Math.max(0, h - w.lo[k][i]))) }, style));
    });
    chart.setOption({
      animation: false, color: COLORS,
      title: { text: c.dir + ': cluster percentiles in windows sized to ' + run.accuracy.join(', '), left: 8, textStyle: { fontSize: 13 } },
      legend: { top: 2, right: 10 }, grid: { left: 80, right: 24, top: 36, bottom: 56 },
      tooltip: tooltipLatency(run), xAxis: timeAxis(run), yAxis: latencyAxis(), dataZoom: zoom,
      series: out,
    });
  }

  function iopsChart(c, container) {
    makeChart(c.id, container, 'short', (chart) => drawIops(c, chart));
  }
  function drawIops(c, chart) {
    const run = VIEW;
    const build = (res) => c.dirs.map((d) => {
      const s = series(run, '', d, res);
      const sec = res * run.quantum_ms / 1000;
      return { id: d, name: d, type: 'line', showSymbol: false, color: DIR_COLOR[d],
        data: s.t.map((t, i) => [xOf(run, t, res), s.n[i] / sec]),
        markArea: d === c.dirs[0] ? { silent: true, itemStyle: { color: 'rgba(120,120,120,0.16)' },
          data: partialRanges(run, s).concat(stallRanges(run, res)) } : undefined };
    });
    resolutionChart(c.id, chart, run, {
      animation: false,
      title: { text: 'cluster IOPS (I/Os ' + (state.placement === 'issue' ? 'issued' : 'completed') + ' per second)', left: 8, textStyle: { fontSize: 13 } },
      legend: { top: 2, right: 10 }, grid: { left: 80, right: 24, top: 36, bottom: 56 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => fmtCount(v) + ' IOPS' },
      xAxis: timeAxis(run), dataZoom: zoom,
      yAxis: { type: 'value', name: 'IOPS', nameLocation: 'middle', nameGap: 62, axisLabel: { formatter: fmtCount } },
    }, build);
  }

  function heatChart(c, container) {
    makeChart(c.id, container, 'tall', (chart) => drawHeat(c, chart));
  }
  function drawHeat(c, chart) {
    const run = VIEW;
    const rows = run.heat_rows_ns;
    // Rows from the lowest to the highest holding any I/O, over every resolution.
    let lo = Infinity, hi = -1;
    for (const h of run.heat) {
      if (h.dir !== c.dir) continue;
      h.c.forEach((col, i) => { if (col.length) { lo = Math.min(lo, h.first[i]); hi = Math.max(hi, h.first[i] + col.length - 1); } });
    }
    if (hi < 0) { lo = 0; hi = 0; }
    const yCats = [];
    for (let r = lo; r <= hi; r++) yCats.push(fmtNs(rows[r]) + ' \u2013 ' + fmtNs(rows[r + 1]));
    const full = spanMs(run);
    let res = pickRes(run, full, chart.getWidth() / 2);
    const build = (r) => {
      const h = run.heatByKey[c.dir + '|' + r];
      const data = [];
      h.c.forEach((col, i) => {
        let total = 0;
        for (const v of col) total += v;
        col.forEach((v, j) => { if (v > 0) data.push([i, h.first[i] + j - lo, Math.log10(v / total), v]); });
      });
      return { x: h.t.map((t) => (run.absolute ? iso(t).slice(11, 19) : fmtWhen(run, t))), data };
    };
    const draw = (r) => {
      const b = build(r);
      return { xAxis: { data: b.x }, series: [{ id: 'heat', data: b.data }] };
    };
    const first = draw(res);
    chart.setOption({
      animation: false,
      title: { text: c.dir + ': latency heatmap (share of each window\u2019s I/Os per fio bucket group, log colour scale)',
        left: 8, textStyle: { fontSize: 13 } },
      grid: { left: 150, right: 90, top: 36, bottom: 56 },
      tooltip: { formatter: (p) => p.name + '<br>' + yCats[p.value[1]] + ': ' +
        (100 * Math.pow(10, p.value[2])).toPrecision(3) + ' % (' + fmtCount(p.value[3]) + ' I/Os)' },
      xAxis: { type: 'category', data: first.xAxis.data, name: run.absolute ? 'time (UTC)' : 'elapsed',
        nameLocation: 'middle', nameGap: 26, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'category', data: yCats, axisLabel: { interval: 3, fontSize: 11 } },
      visualMap: { type: 'continuous', dimension: 2, min: -4, max: 0, calculable: false, orient: 'vertical',
        right: 6, top: 40, itemHeight: 200, text: ['100 %', '0.01 %'], precision: 1,
        inRange: { color: ['#f7fbff', '#c6dbef', '#6baed6', '#2171b5', '#08306b', '#e6550d', '#a50f15'] } },
      dataZoom: [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, height: 16, bottom: 4 }],
      // Zoomed in, a heatmap may hold tens of thousands of cells: drawn 5000 per frame, so
      // the page stays responsive ('finished' still comes once all are drawn).
      series: [{ id: 'heat', type: 'heatmap', data: first.series[0].data, progressive: 5000,
        progressiveThreshold: 10000 }],
    });
    state.resolution[c.id] = res;
    chart.on('datazoom', (e) => {
      const z = zoomOf(chart, e);
      const next = pickRes(run, full * Math.max(z.end - z.start, 0.01) / 100, chart.getWidth() / 2);
      if (next !== res) {
        res = next;
        state.resolution[c.id] = res;
        chart.setOption(draw(res));
      }
    });
  }

  function hostCharts(c, container) {
    const grid = el('div', { class: 'multiples' });
    container.append(grid);
    const k = MAIN.host_percentile;
    const pname = MAIN.percentiles[k];
    // One latency range for every small multiple, so they compare at a glance.
    function hostRange(run) {
      let lo = Infinity, hi = 0;
      for (const s of run.series) {
        if (s.res !== 1 || s.dir !== 'all') continue;
        const v = s.host === '' ? s.p[k] : s.p[0];
        v.forEach((x, i) => { if (s.n[i] > 0 && x > 0) { lo = Math.min(lo, x); hi = Math.max(hi, x); } });
      }
      return hi > 0 ? { min: Math.pow(10, Math.floor(Math.log10(lo))), max: Math.pow(10, Math.ceil(Math.log10(hi))) } : {};
    }
    for (const h of MAIN.hosts) makeChart('host-' + h.name, grid, '', (chart) => drawHost(h, chart));
    function drawHost(hMain, chart) {
      const run = VIEW;
      const h = run.hosts.find((x) => x.name === hMain.name) || hMain;
      const yRange = hostRange(run);
      const ratio = Math.pow(2, h.mean_log2);
      const build = (res) => {
        const cl = series(run, '', 'all', res), hs = series(run, h.name, 'all', res);
        const out = [{ id: 'cluster', name: 'cluster ' + pname, type: 'line', showSymbol: false, color: '#aaa',
          lineStyle: { width: 1 }, data: cl.t.map((t, i) => [xOf(run, t, res), cl.n[i] > 0 ? cl.p[k][i] : null]) }];
        if (hs) {
          out.push({ id: 'host', name: h.name + ' ' + pname, type: 'line', showSymbol: false, color: '#d62728',
            lineStyle: { width: 1.2 }, data: hs.t.map((t, i) => [xOf(run, t, res), hs.n[i] > 0 ? hs.p[0][i] : null]) });
        }
        return out;
      };
      resolutionChart('host-' + h.name, chart, run, {
        animation: false,
        title: { text: h.name + ': ' + pname + ' \u00d7' + ratio.toFixed(2) + ' of the hosts\u2019 median',
          subtext: h.missing_quanta ? 'no I/O in ' + h.missing_quanta + ' quanta' : '', itemGap: 8,
          left: 4, textStyle: { fontSize: 12 }, subtextStyle: { fontSize: 11, color: '#b3261e' } },
        grid: { left: 64, right: 10, top: h.missing_quanta ? 50 : 36, bottom: 24 }, tooltip: tooltipLatency(run),
        xAxis: timeAxis(run), yAxis: Object.assign(latencyAxis(pname), yRange), dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }],
      }, build);
    }
  }

  function overlayChart(c, container) {
    makeChart(c.id, container, '', (chart) => drawOverlay(c, chart));
  }
  function drawOverlay(c, chart) {
    const ks = c.percentiles;  // indices into the percentiles both runs share
    const runs = [[MAIN, 'solid'], [BASE, 'dashed']];
    const build = (res) => {
      const out = [];
      for (const [run, type] of runs) {
        // A shorter run may lack the other's resolution: its coarsest below it holds its
        // whole span in as few windows.
        const r = run.resList.includes(res) ? res
          : Math.max(...run.resList.filter((x) => x <= res), run.resList[0]);
        const s = series(run, '', c.dir, r);
        if (!s) continue;
        ks.forEach(([km, kb], j) => {
          const k = run === MAIN ? km : kb;
          out.push({ id: run.run + '/' + k + '/' + type, name: (run === MAIN ? 'run ' : 'baseline ') + run.percentiles[k],
            type: 'line', showSymbol: false, color: COLORS[j], lineStyle: { type, width: 1.3 },
            data: s.t.map((t, i) => [xOf(run, t, r, true), s.n[i] > 0 ? s.p[k][i] : null]) });
        });
      }
      return out;
    };
    resolutionChart(c.id, chart, MAIN, {
      animation: false,
      title: { text: c.dir + ': ' + MAIN.run + ' (solid) vs baseline ' + BASE.run + ' (dashed), on elapsed time',
        left: 8, textStyle: { fontSize: 13 } },
      legend: { top: 22, right: 10 }, grid: { left: 80, right: 24, top: 52, bottom: 56 },
      tooltip: tooltipLatency(MAIN), xAxis: timeAxis(MAIN, true), yAxis: latencyAxis(), dataZoom: zoom,
    }, build, true);
  }

  // ---- placement: where I/Os completed, or where they were issued ------------------------
  const PLACE_TEXT = { completion: 'where I/Os completed', issue: 'where they were issued' };
  // What the shown placement means, and its partial last quanta (issue: the I/Os issued there
  // that completed after the logs end are missing; complete up to the latency given).
  function placementText(p) {
    const run = VIEWS[p];
    let text = 'Shown: each I/O in the quantum ' + (p === 'issue'
      ? 'where it was issued (completion \u2212 latency): a stall shows from its first second.'
      : 'where it completed: a stall shows as quanta without I/O, its stuck I/Os where it ended.');
    const s = series(run, '', 'all', 1);
    const cto = (s && s.cto) || [];
    if (p === 'issue' && cto.length) {
      text += ' The last ' + cto.length + ' quanta are partial (shaded), from ' + fmtWhen(run, s.t[cto[0][0]]) +
        ': complete only up to ' + cto.map(([i, ms]) => (ms > 0 ? fmtNs(ms * 1e6) : '0 ms') + ' at ' + fmtWhen(run, s.t[i])).join(', ') +
        ' (I/Os issued there that completed after the logs end are not in them).';
    }
    return text;
  }
  function placementBar() {
    const bar = el('div', { class: 'placement', id: 'placement' }, el('b', {}, 'Placement: '));
    if (MAIN.source.kind === 'elasticsearch') {
      bar.append(PLACE_TEXT[OPEN] + ', as the run was pushed (its run document). ', el('span', { id: 'placement-text' }, placementText(OPEN)));
      root.append(bar);
      return;
    }
    for (const p of ['completion', 'issue']) {
      const attrs = { type: 'radio', name: 'placement', value: p, id: 'placement-' + p };
      if (p === OPEN) attrs.checked = '';
      if (!VIEWS[p]) attrs.disabled = '';
      const input = el('input', attrs);
      input.addEventListener('change', () => { if (input.checked) showPlacement(p); });
      bar.append(el('label', { for: 'placement-' + p }, input, ' ' + PLACE_TEXT[p] + ' '));
    }
    bar.append(el('br'), el('span', { id: 'placement-text' }, placementText(OPEN)));
    if (OTHER && OTHER.refused) {
      bar.append(el('br'), el('span', { class: 'bad', id: 'placement-refused' },
        'No view ' + PLACE_TEXT[OTHER.placement] + ': ' + OTHER.refused + '.'));
    }
    root.append(bar);
  }
  /// Switches the charts and the whole-run table to placement `p` ('completion' or 'issue'):
  /// the charts drawn so far are drawn again, the others draw it when they come into view.
  function showPlacement(p) {
    if (!VIEWS[p] || VIEW === VIEWS[p]) return;
    VIEW = VIEWS[p];
    state.placement = p;
    document.getElementById('placement-text').textContent = placementText(p);
    const old = document.getElementById('whole-table');
    if (old) old.replaceWith(wholeTable(VIEW));
    for (const id of Object.keys(state.charts)) {
      const { div, draw } = drawnBy.get(id);
      state.charts[id].dispose();
      const chart = echarts.init(div, null, { renderer: 'canvas' });
      state.charts[id] = chart;
      draw(chart);
    }
    document.body.setAttribute('data-placement', p);
  }
  state.showPlacement = showPlacement;

  // ---- sections -----------------------------------------------------------------------
  const title = MAIN.run + (BASE ? ' vs ' + BASE.run : '');
  const head = el('header', {}, el('h1', {}, 'fiohist report: ' + title));
  const first = MAIN.first_quantum_ms, end = MAIN.end_ms;
  head.append(el('p', { class: 'sub' }, (MAIN.absolute ? iso(first) + ' \u2013 ' + iso(end) : 'relative time') +
    ', ' + ((end - first) / 1000).toFixed(0) + ' s, ' + MAIN.hosts.length + ' host(s), ' + MAIN.source.logs.length +
    ' log(s), quantum ' + MAIN.quantum_ms / 1000 + ' s. Shaded: partial quanta (not every log covered all of the quantum).'));
  root.append(head);

  // What is missing or doubtful, first.
  const notes = [];
  const partialCount = (series(MAIN, '', 'all', 1) || { partial: [] }).partial.length;
  if (MAIN.missing_quanta) notes.push(MAIN.missing_quanta + ' quanta inside the run have no data from any log.');
  if (partialCount) notes.push(partialCount + ' cluster quanta are partial: some log did not cover all of them (start, end, or fio\u2019s unlogged last interval).');
  for (const h of MAIN.hosts) if (h.missing_quanta) notes.push('host ' + h.name + ': no I/O in ' + h.missing_quanta + ' quanta in which the cluster had I/O.');
  let clampedCount = 0;
  for (const s of MAIN.series) if (s.res === 1 && s.host === '') clampedCount += s.clamped.length;
  // Percentiles without an upper bound (too few I/Os), per percentile over the directions.
  const fewCount = MAIN.percentiles.map(() => 0);
  for (const s of MAIN.series) {
    if (s.res === 1 && s.host === '' && s.dir !== 'all' && s.few) for (const [, k] of s.few) fewCount[k]++;
  }
  const fewText = fewCount.map((n, k) => (n ? MAIN.percentiles[k] + ' in ' + n : '')).filter((x) => x);
  if (fewText.length) notes.push('Too few I/Os for an upper bound at ' + Math.round(100 * MAIN.confidence) + ' % confidence (cluster quanta, read and write and trim counted apart): ' + fewText.join(', ') + '. There the band stops at the value (open triangles): thin samples.');
  if (clampedCount) notes.push(clampedCount + ' cluster percentile values fell into fio\u2019s last (clamped) bucket: they are only lower bounds (black triangles).');
  for (const sh of MAIN.io_shares) if (sh.share < 0.95) notes.push('host ' + sh.host + (sh.job ? ' job ' + sh.job : '') + ': the logs hold ' + (100 * sh.share).toFixed(1) + ' % of the I/Os fio counted.');
  if (MAIN.incomplete) notes.push('Some input was skipped (bad lines): the numbers do not hold every I/O.');
  for (const w of MAIN.warnings) notes.push(w);
  if (MAIN.breaches.length) notes.push(MAIN.breaches.length + ' SLA breaches (quanta above a threshold): see the SLA section.');
  else if (MAIN.sla.length) notes.push('SLA held in every quantum: ' + MAIN.sla.map((t) => t.text).join(', ') + '.');
  const box = el('div', { class: notes.length ? 'notes' : 'notes ok', id: 'notes' });
  if (notes.length) box.append(el('ul', {}, ...notes.map((n) => el('li', {}, n))));
  else box.append('All quanta complete, no clamped values, no warnings' + (MAIN.sla.length ? ', SLA held.' : '.'));
  root.append(box);
  placementBar();

  const sum = section('summary', 'Whole run (cluster)');
  function wholeTable(run) {
    const wholeRows = DIR_ORDER.map((d) => run.whole.find((w) => w.dir === d)).filter((w) => w && w.n > 0).map((w) => [
      w.dir, fmtCount(w.n), fmtCount(w.n / Math.max(w.seconds, 1e-3)), fmtNs(w.min), fmtNs(w.mean),
      ...w.p.map((v, k) => fmtNs(v) + (w.clamped.includes(k) ? ' \u2265' : '')), fmtNs(w.max) + (w.max_clamped ? ' \u2265' : '')]);
    const t = table(['direction', 'I/Os', 'mean IOPS', 'min', 'mean', ...MAIN.percentiles, 'max'], wholeRows);
    t.id = 'whole-table';
    return t;
  }
  sum.append(wholeTable(MAIN));

  if (DATA.verdicts) {
    const V = DATA.verdicts;
    const v = section('verdicts', 'Verdicts against the baseline' + (V.overall ? ': ' + V.overall : ''),
      'fiohist compare\u2019s verdicts: the change of each metric over the full quanta with an interval that holds ' +
      'the noise inside each run (block bootstrap of the hosts\u2019 histograms) and the spread between runs; ' +
      'a regression needs the interval above 0 and at least the minimum effect.');
    if (V.error) v.append(el('p', { class: 'bad' }, 'Not compared: ' + V.error));
    else {
      const t = table(V.head, V.rows, [0, 1, 7, 8]);
      for (const tr of t.querySelectorAll('tr')) {
        const cell = tr.children[7];
        if (cell && cell.tagName === 'TD') cell.className += cell.textContent === 'regression' ? ' bad' : cell.textContent === 'pass' || cell.textContent === 'improvement' ? ' good' : '';
      }
      v.append(t);
      if (V.notes.length) v.append(el('ul', {}, ...V.notes.map((n) => el('li', {}, n))));
    }
  }

  const drawers = { latency: latencyChart, accuracy: accuracyChart, iops: iopsChart, heat: heatChart, hosts: hostCharts, overlay: overlayChart };
  const titles = {
    latency: (c) => ['Latency percentiles, ' + c.dir, 'Cluster percentiles per quantum (histograms of all hosts added, never percentiles averaged); log scale; each line\u2019s band is its ' + Math.round(100 * MAIN.confidence) + ' % confidence interval (an open triangle: too few I/Os for an upper bound; click a legend entry to hide a line and its band). Drag or scroll to zoom: coarser windows are exact percentiles of their own span.'],
    accuracy: (c) => ['Windows sized to an accuracy, ' + c.dir, 'Consecutive quanta merged, greedily from the start, into the shortest windows whose ' + MAIN.accuracy.join(', ') + ' hold: both bounds of the percentile\u2019s ' + Math.round(100 * MAIN.confidence) + ' % confidence interval (the band) within that distance of the value. Each window is drawn flat over its span.'],
    iops: () => ['IOPS', 'I/Os completed per second of each window, per direction.'],
    heat: (c) => ['Latency heatmap, ' + c.dir, 'Each column is a window, each row a group of fio\u2019s buckets (4 per doubling of latency); the colour is the share of the window\u2019s I/Os in it.'],
    hosts: () => ['Hosts: ' + MAIN.percentiles[MAIN.host_percentile] + ' per host against the cluster', 'Grey: the cluster. Ordered by how far a host strays from the hosts\u2019 median (mean |log\u2082 host/median| over the quanta; the title gives the mean ratio): a flaky client host shows as one whose I/Os all suffer (Cronburg and England, 2016).'],
    overlay: (c) => ['Run vs baseline, ' + c.dir, 'Both runs on elapsed time since their first quantum.'],
  };
  for (const c of DATA.charts) {
    if (only && c.id !== only) continue;
    const [t, sub] = titles[c.kind](c);
    const s = section(c.id, t, sub);
    drawers[c.kind](c, s);
  }

  if (MAIN.sla.length) {
    const s = section('sla', 'SLA');
    s.append(table(['threshold', 'breaching quanta'], MAIN.sla.map((t, i) => [t.text, String(MAIN.breaches.filter((b) => b[1] === i).length)])));
    if (MAIN.breaches.length) {
      s.append(table(['quantum', 'threshold', 'value'], MAIN.breaches.slice(0, 100).map((b) => [fmtWhen(MAIN, b[0]), MAIN.sla[b[1]].text, fmtNs(b[2])])));
      if (MAIN.breaches.length > 100) s.append(el('p', {}, '\u2026 and ' + (MAIN.breaches.length - 100) + ' more.'));
    }
  }

  for (const run of BASE ? [MAIN, BASE] : [MAIN]) {
    const s = section('source-' + (run === MAIN ? 'run' : 'baseline'), 'Where the data came from' + (BASE ? ': ' + run.run : ''));
    const src = run.source;
    const facts = [
      ['source', src.kind === 'elasticsearch' ? 'Elasticsearch ' + src.es_url + ' (' + src.documents + ' bucket documents)' : 'fio histogram logs'],
      ['time anchor', src.anchor + (run.absolute ? ' (absolute time)' : ' (relative: seconds since the jobs started)')],
      ['grid', 'quantum ' + run.quantum_ms + ' ms, first quantum ' + fmtWhen(run, run.first_quantum_ms) + ', ' + run.quanta + ' quanta; zoom resolutions \u00d7' + run.resList.join(', \u00d7')],
      ['bucket layout', run.layout + (run.log_hist_msec ? ', log_hist_msec ' + run.log_hist_msec + (run.log_hist_msec_inferred ? ' (inferred)' : '') : '')],
    ];
    if (run.placement === 'issue') {
      facts.push(['placement', 'each I/O in the quantum where it was issued (--place issue); the last quanta ' +
        'lack I/Os that completed after the logs end (partial, shaded)']);
    }
    // Coverage: how many quanta every log covered in full (the cluster's quanta of all
    // directions), and the partial ones with the lowest share of the quantum covered.
    const cs = series(run, '', 'all', 1) || run.series.find((x) => x.res === 1 && x.host === '');
    if (cs) {
      const part = cs.partial;
      let low = -1;
      for (const i of part) if (low < 0 || cs.cov[i] < cs.cov[low]) low = i;
      facts.push(['coverage', (cs.t.length - part.length) + ' of ' + cs.t.length +
        ' quanta with I/O complete (every log covered all of the quantum)' + (part.length
        ? '; ' + part.length + ' partial (shaded), the lowest ' + (100 * cs.cov[low]).toFixed(0) +
          ' % covered, at ' + fmtWhen(run, cs.t[low]) : '')]);
    }
    if (src.fio_versions.length) facts.push(['fio', src.fio_versions.join(', ')]);
    for (const n of src.fio_json) facts.push(['fio JSON', n]);
    s.append(table(['', ''], facts, [0, 1]));
    if (src.logs.length) {
      s.append(el('details', {}, el('summary', {}, src.logs.length + ' logs'),
        table(['log', 'host', 'job', 'records', 'I/Os', 'skipped lines'], src.logs.map((l) => [l.path, l.host, l.job, String(l.records), fmtCount(l.ios || 0), String(l.skipped_lines || 0)]), [0, 1, 2])));
    }
  }
  echarts.connect('time');
  echarts.connect('elapsed');
  if (only) document.body.classList.add('only');
  document.body.setAttribute('data-placement', OPEN);
  startDrawing();
})();
