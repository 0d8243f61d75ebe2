// Loads a fiohist report page in Debian's headless Chromium (driven by playwright-core),
// waits for the page to say it has drawn the charts of its first screen, scrolls through
// the page until every chart has been drawn (the page draws a chart when it comes into
// view), and prints as JSON what a test checks: console errors, each chart's series and
// points as ECharts holds them, which charts the first screen drew, the page's timing
// marks and Chromium's CPU time, and a screenshot's size and pixels.
//
// Usage: node browser_check.js REPORT.html SCREENSHOT.png [--zoom CHART_ID] [--clip HEIGHT]
//                              [--timing]
//   --zoom: also zooms that chart into its first 5 % and reports the resolution then.
//   --clip: the screenshot holds only the top HEIGHT pixels of the page (else all of it).
//   --toggle: after every chart is drawn, also clicks the other placement of the page's
//             toggle (where I/Os completed / were issued) and reports each drawn chart's
//             first series (y values) before and after, and the placement text.
//   --timing: draw the charts not in view by the page's drawAll() instead of scrolling
//             (what a benchmark times: the page's own work, no scrolling), no screenshot.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

async function main() {
  const [html, shot, ...rest] = process.argv.slice(2);
  const opt = (name) => (rest.indexOf(name) >= 0 ? rest[rest.indexOf(name) + 1] : null);
  const zoomId = opt('--zoom');
  const clip = opt('--clip');
  const timingOnly = rest.includes('--timing');
  const toggle = rest.includes('--toggle');
  const executablePath = process.env.FIOHIST_CHROMIUM || '/usr/bin/chromium';
  const browser = await chromium.launch({
    executablePath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // CPU seconds of all of Chromium's processes (browser, renderers, GPU, utilities), and of
  // the renderers that draw pages (new headless Chromium also runs a renderer of its own
  // user interface, --top-chrome-webui, which works while the page loads).
  const cdp = await browser.newBrowserCDPSession();
  const isUi = (pid) => {
    try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('--top-chrome-webui'); } catch (e) { return false; }
  };
  const cpu = async () => {
    const ps = (await cdp.send('SystemInfo.getProcessInfo')).processInfo;
    const pages = ps.filter((p) => p.type === 'renderer' && !isUi(p.id));
    return { all: ps.reduce((a, p) => a + p.cpuTime, 0), pages: pages.reduce((a, p) => a + p.cpuTime, 0) };
  };
  const out = { console_errors: [], requests: [] };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') out.console_errors.push(m.type() + ': ' + m.text()); });
    page.on('pageerror', (e) => out.console_errors.push('pageerror: ' + e.message));
    // The page must need nothing from the network: note every request but its own file.
    page.on('request', (r) => { if (!r.url().startsWith('file:')) out.requests.push(r.url()); });
    // Each wait polls every 50 ms: polling on every frame would compete with the page.
    const wait = (f) => page.waitForFunction(f, null, { timeout: 300000, polling: 50 });
    const cpu0 = await cpu(), wall0 = Date.now();
    await page.goto('file://' + path.resolve(html));
    await wait(() => window.fiohistReport && window.fiohistReport.rendered);
    const cpu1 = await cpu(), wall1 = Date.now();
    // A page of fiohist before lazy drawing (no drawAll) drew every chart before `rendered`.
    out.first_screen = await page.evaluate(() => {
      const r = window.fiohistReport;
      return r.drawAll ? r.timing.firstScreenCharts : Object.keys(r.charts);
    });
    if (timingOnly) {
      await page.evaluate(() => window.fiohistReport.drawAll && window.fiohistReport.drawAll());
    } else {
      // Scroll down half a screen at a time, letting the page see each position (two
      // frames), until every chart has come into view and been drawn.
      await page.evaluate(async () => {
        const r = window.fiohistReport;
        for (let y = 0; !r.allDrawn && y <= document.body.scrollHeight; y += innerHeight / 2) {
          window.scrollTo(0, y);
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        }
        window.scrollTo(0, 0);
      });
    }
    await wait(() => window.fiohistReport.allDrawn || !window.fiohistReport.drawAll);
    const cpu2 = await cpu(), wall2 = Date.now();
    out.chromium = { first_screen_wall_ms: wall1 - wall0, first_screen_cpu_s: cpu1.all - cpu0.all,
      first_screen_page_cpu_s: cpu1.pages - cpu0.pages, all_wall_ms: wall2 - wall0,
      all_cpu_s: cpu2.all - cpu0.all, all_page_cpu_s: cpu2.pages - cpu0.pages };
    Object.assign(out, await page.evaluate(() => {
      const r = window.fiohistReport;
      const charts = {};
      for (const [id, chart] of Object.entries(r.charts)) {
        const opt = chart.getOption();
        charts[id] = {
          series: opt.series.map((s) => ({ name: s.name, type: s.type, points: (s.data || []).length,
            drawn: (s.data || []).filter((d) => Array.isArray(d) ? d[1] !== null : d !== null).length })),
          resolution: r.resolution[id],
        };
      }
      const nav = performance.getEntriesByType('navigation')[0];
      const timing = r.timing || { script: r.scriptStartMs, data: r.scriptStartMs, setup: {}, allDrawn: r.renderMs };
      return { charts, render_ms: r.renderMs, all_drawn_ms: timing.allDrawn, timing,
        script_start_ms: r.scriptStartMs, dom_content_loaded_ms: nav ? nav.domContentLoadedEventEnd : null,
        sections: Array.from(document.querySelectorAll('section h2')).map((h) => h.textContent),
        notes: document.getElementById('notes').innerText,
        source: (document.getElementById('section-source-run') || { innerText: '' }).innerText };
    }));
    if (toggle) {
      // Each chart's first series' y values (and how many series it has) as drawn now.
      const ys = () => page.evaluate(() => {
        const out = {};
        for (const [id, chart] of Object.entries(window.fiohistReport.charts)) {
          const opt = chart.getOption();
          out[id] = { series: opt.series.length, y: (opt.series[0].data || []).map((d) => (Array.isArray(d) ? d[1] : d)) };
        }
        return { placement: window.fiohistReport.placement, text: document.getElementById('placement-text').innerText,
          whole: (document.getElementById('whole-table') || { innerText: '' }).innerText, charts: out };
      });
      const before = await ys();
      const other = before.placement === 'issue' ? 'completion' : 'issue';
      await page.click('#placement-' + other);
      await page.waitForFunction((p) => document.body.getAttribute('data-placement') === p, other,
        { timeout: 300000, polling: 50 });
      // Every chart drawn again: wait for two frames, then read them.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      out.toggle = { before, after: await ys() };
    }
    if (zoomId) {
      out.zoom = await page.evaluate((id) => new Promise((resolve) => {
        const chart = window.fiohistReport.charts[id];
        chart.on('finished', function done() {
          chart.off('finished', done);
          const s = chart.getOption().series[0];
          resolve({ resolution: window.fiohistReport.resolution[id], points: s.data.length });
        });
        chart.dispatchAction({ type: 'dataZoom', start: 0, end: 5 });
      }), zoomId);
    }
    if (!timingOnly) {
      await page.screenshot(clip ? { path: shot, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Number(clip) } }
        : { path: shot, fullPage: true });
      // The screenshot's pixels, decoded by the browser: how many differ from white.
      const b64 = fs.readFileSync(shot).toString('base64');
      out.screenshot = await page.evaluate((src) => new Promise((resolve) => {
        const img = new Image();
        img.onload = () => {
          const c = document.createElement('canvas');
          c.width = img.width; c.height = img.height;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          let ink = 0;
          const colours = new Set();
          for (let i = 0; i < d.length; i += 4) {
            if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) ink++;
            if (colours.size < 5000) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
          }
          resolve({ width: c.width, height: c.height, ink_pixels: ink, colours: colours.size });
        };
        img.src = 'data:image/png;base64,' + src;
      }), b64);
      out.screenshot.bytes = fs.statSync(shot).size;
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

main().catch((e) => { console.error('browser_check.js: ' + e.stack); process.exit(1); });
