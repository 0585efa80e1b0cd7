// End-to-end: the first paint. index.html paints the header and the how-to steps
// before the Wasm arrives, in the language the address or the browser asks for;
// the app then draws the very same boxes in their place (nothing moves: no layout
// shift, and the largest paint stays the first one), and mounts the panels after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite } from './harness.mjs';

const suite = labSuite();

/** What a person sees of the header and steps: each element's text and box. */
const BOXES = () =>
  [...document.querySelectorAll('h1, .tagline, .top-actions button, .how-to li')]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => {
      const r = e.getBoundingClientRect();
      return { text: e.textContent.trim(), box: [r.x, r.y, r.width, r.height].map((n) => Math.round(n * 2) / 2) };
    });

/** Layout shifts and largest paints from the start of the page. */
function recordPaints() {
  window.__shifts = [];
  window.__largest = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__largest.push({ frame: Boolean(e.element?.closest('.boot')), size: e.size });
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

async function page(options, { wasm = true, slowWasm = false } = {}) {
  const context = await suite.browser.newContext(options.context);
  await context.addInitScript(recordPaints);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (!wasm) await page.route('**/*.wasm', (route) => route.abort());
  // The Wasm after the first paint, as on a slow connection.
  if (slowWasm) await page.route('**/*.wasm', async (route) => setTimeout(() => route.continue(), 800));
  await page.goto(suite.server.url + (options.query ?? ''));
  return { page, context, errors };
}

const CASES = [
  { name: 'English by default', query: '', context: { locale: 'en-US' }, lang: 'en', dir: 'ltr', title: 'Idempotency Lab' },
  { name: 'Persian from the browser', query: '', context: { locale: 'fa-IR' }, lang: 'fa', dir: 'rtl', title: 'آزمایشگاه ایدمپوتنسی' },
  { name: 'English asked for over a Persian browser', query: '?lang=en-GB', context: { locale: 'fa-IR' }, lang: 'en', dir: 'ltr', title: 'Idempotency Lab' },
  { name: 'Persian asked for, on a phone', query: '?lang=fa', context: { locale: 'en-US', viewport: { width: 390, height: 844 } }, lang: 'fa', dir: 'rtl', title: 'آزمایشگاه ایدمپوتنسی' },
];

for (const c of CASES) {
  test(`before the Wasm, the page shows its header and steps in the right language: ${c.name}`, async () => {
    const { page: before, context, errors } = await page(c, { wasm: false });
    try {
      await before.waitForLoadState('load');
      assert.deepEqual(
        await before.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
        [c.lang, c.dir],
      );
      assert.equal(await before.locator('h1:visible').count(), 1, "only the chosen language's frame is shown");
      assert.equal((await before.locator('h1:visible').textContent()).trim(), c.title);
      assert.equal(await before.locator('.how-to li:visible').count(), 4);
      // It waits for the app: its buttons do nothing yet, and say so.
      for (const button of await before.locator('.top-actions button:visible').all()) assert.equal(await button.isDisabled(), true);
      const frame = await before.evaluate(BOXES);
      assert.ok(frame.length >= 9, JSON.stringify(frame));
      assert.ok(errors.some((e) => /wasm|fetch|WebAssembly/i.test(e)) || errors.length === 0);

      // The app draws exactly these boxes with exactly these words.
      const { page: after, context: context2 } = await page(c, { slowWasm: true });
      try {
        await after.waitForSelector('body[data-settled="true"]');
        assert.equal(await after.locator('.boot').count(), 0, 'the frame is gone');
        const app = await after.evaluate(BOXES);
        assert.deepEqual(app, frame);
        const { shifts, largest } = await after.evaluate(() => ({ shifts: window.__shifts, largest: window.__largest }));
        assert.deepEqual(shifts, [], 'nothing moved');
        assert.ok(largest.length > 0);
        assert.ok(largest.every((p) => p.frame), `the largest paint is the first one: ${JSON.stringify(largest)}`);
        // The panels came after: the lab works.
        await after.getByTestId('timeline').waitFor();
      } finally {
        await context2.close();
      }
    } finally {
      await context.close();
    }
  });
}

test('embedded, the frame is the compact one and the app keeps it so', async () => {
  const c = { query: '?embed=1', context: { locale: 'en-US', viewport: { width: 700, height: 500 } } };
  const { page: p, context } = await page(c, { slowWasm: true });
  try {
    await p.waitForLoadState('domcontentloaded');
    assert.equal(await p.evaluate(() => document.documentElement.classList.contains('embed')), true);
    assert.equal(await p.locator('.tagline:visible, .how-to:visible').count(), 0);
    await p.waitForSelector('body[data-settled="true"]');
    assert.equal(await p.locator('.tagline, .how-to').count(), 0);
    assert.deepEqual(await p.evaluate(() => window.__shifts), []);
  } finally {
    await context.close();
  }
});

test('embedded, before the Wasm: the lab\'s name, its header as the app draws it, and a box that says it is loading', async () => {
  for (const [lang, loading] of [['en', /The lab is loading/], ['fa', /آزمایشگاه در حال بارگیری است/]]) {
    const c = { query: `?embed=1&lang=${lang}`, context: { viewport: { width: 700, height: 500 } } };
    const header = () => [...document.querySelectorAll('h1, .top-actions > *')]
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent.trim(), box: [r.x, r.y, r.width, r.height].map((n) => Math.round(n)) };
      });
    const { page: before, context } = await page(c, { wasm: false });
    let frame;
    try {
      await before.waitForLoadState('load');
      const note = before.locator('.boot-loading:visible');
      assert.equal(await note.count(), 1);
      assert.match(await note.innerText(), loading);
      frame = await before.evaluate(header);
      assert.match(frame[1].text, /↗$/, `the header's first action is the full lab's link: ${JSON.stringify(frame)}`);
    } finally {
      await context.close();
    }
    const { page: after, context: context2 } = await page(c, { slowWasm: true });
    try {
      await after.waitForSelector('body[data-settled="true"]');
      assert.deepEqual(await after.evaluate(header), frame, 'the app draws the same header');
      assert.deepEqual(await after.evaluate(() => window.__shifts), []);
    } finally {
      await context2.close();
    }
  }
  // The full page shows neither.
  const { page: full, context } = await page({ query: '?lang=en', context: {} }, { wasm: false });
  try {
    await full.waitForLoadState('load');
    assert.equal(await full.locator('.boot-loading:visible, .boot .open-full:visible').count(), 0);
  } finally {
    await context.close();
  }
});

/** Records, on the page's own thread, how WebAssembly was compiled and started. */
function recordWasmCalls() {
  window.__wasmCalls = [];
  for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (source, ...rest) {
      // What started the lab (a split build's chunks come once it is ready).
      if (document.body?.dataset.ready !== 'true') window.__wasmCalls.push(`${name}(${source instanceof WebAssembly.Module ? 'Module' : source?.constructor?.name})`);
      return original.call(this, source, ...rest);
    };
  }
}

/** The page started with `route` set up; what it did with the Wasm, and how often it was downloaded. */
async function startWith(route) {
  const context = await suite.browser.newContext({ locale: 'en-US' });
  await context.addInitScript(recordWasmCalls);
  try {
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    // The main module's downloads (a split build's chunks come after).
    let downloads = 0;
    p.on('request', (r) => { if (/\/idempotency-lab-[0-9a-f]+_bg\.wasm$/.test(r.url())) downloads += 1; });
    await route(p);
    await p.goto(suite.server.url);
    await p.waitForSelector('body[data-settled="true"]');
    // The lab works.
    await p.getByRole('button', { name: 'Send', exact: true }).click();
    await p.locator('[data-testid="timeline"] [data-testid="timeline-row"]').first().waitFor();
    return { calls: await p.evaluate(() => window.__wasmCalls), downloads, errors };
  } finally {
    await context.close();
  }
}

test('the Wasm is compiled on a worker, downloaded once, whatever type the host serves it as', async () => {
  for (const [name, route] of [
    ['as served', async () => {}],
    ['served as application/octet-stream', (p) => p.route('**/*.wasm', async (r) => {
      const response = await r.fetch();
      await r.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
    })],
  ]) {
    const { calls, downloads, errors } = await startWith(route);
    assert.deepEqual(calls, ['instantiate(Module)'], `${name}: the page only instantiated the worker's module`);
    assert.equal(downloads, 1, `${name}: one download`);
    assert.deepEqual(errors, [], name);
  }
});

test('where the worker cannot run, the page compiles the same download itself', async () => {
  const { calls, downloads, errors } = await startWith((p) => p.route('**/compile-wasm.js', (r) => r.abort()));
  assert.deepEqual(calls, ['instantiateStreaming(Response)'], 'the page compiled it');
  assert.equal(downloads, 1, 'one download');
  assert.deepEqual(errors, []);
});

test('where the worker fails after taking the download, the page compiles the same download itself', async () => {
  // A worker that reads a little of the download, then gives up.
  const failing = "onmessage = async ({ data }) => { await data.getReader().read(); postMessage('failed'); };";
  const { calls, downloads, errors } = await startWith((p) =>
    p.route('**/compile-wasm.js', (r) => r.fulfill({ contentType: 'text/javascript', body: failing })));
  assert.deepEqual(calls, ['instantiateStreaming(Response)'], 'the page compiled it');
  assert.equal(downloads, 1, 'one download, not a second after the worker failed');
  assert.deepEqual(errors, []);
});

/** Each panel's place on the page in every frame while the page starts: a panel that moves after it was first painted is recorded. */
function recordPanelMoves() {
  window.__firstTop = {};
  window.__moved = [];
  const frame = () => {
    for (const panel of document.querySelectorAll('section.panel')) {
      const name = panel.getAttribute('aria-labelledby') ?? panel.className;
      const top = Math.round(panel.getBoundingClientRect().top + scrollY);
      if (!(name in window.__firstTop)) window.__firstTop[name] = top;
      else if (Math.abs(window.__firstTop[name] - top) > 1 && !window.__moved.some((m) => m.startsWith(`${name}:`))) {
        window.__moved.push(`${name}: ${window.__firstTop[name]} -> ${top}`);
      }
    }
    // One frame more once settled (a split build's later panels are here
    // too), in which the last panel is painted.
    if (document.body?.dataset.settled === 'true') window.__recorded = true;
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** The page's panels, by the id of their heading. */
const PANELS = ['callers', 'chart', 'explorer', 'invariants', 'queue', 'request', 'share', 'stage', 'storage', 'store', 'teacher', 'timeline', 'world'].map((p) => `${p}-title`);

for (const [name, viewport, query] of [
  ['on a phone, in English', { width: 390, height: 844 }, ''],
  ['on a phone, in Persian', { width: 390, height: 844 }, '?lang=fa'],
  ['at 1024 px', { width: 1024, height: 768 }, ''],
]) {
  test(`the panels arrive in the order they stand, so none moves once painted: ${name}`, async () => {
    const context = await suite.browser.newContext({ viewport });
    await context.addInitScript(recordPanelMoves);
    try {
      const p = await context.newPage();
      await p.goto(suite.server.url + query);
      await p.waitForFunction(() => window.__recorded === true);
      const { seen, moved } = await p.evaluate(() => ({ seen: Object.keys(window.__firstTop).sort(), moved: window.__moved }));
      assert.deepEqual(seen, PANELS, 'every panel was seen arriving');
      assert.deepEqual(moved, []);
    } finally {
      await context.close();
    }
  });
}

/** A tab opened in the background: hidden, and every timer the page sets is counted. */
function hiddenTab() {
  Object.defineProperty(Document.prototype, 'hidden', { get: () => true });
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden' });
  window.__timers = [];
  const setTimeoutFirst = window.setTimeout;
  window.setTimeout = function (callback, delay, ...rest) {
    if (document.body?.dataset.ready !== 'true') window.__timers.push(delay ?? 0);
    return setTimeoutFirst.call(this, callback, delay, ...rest);
  };
}

test('a tab opened in the background starts straight through: no timer is waited on until it is ready', async () => {
  // A background tab's timers are held back (to one a second in Chromium), so
  // a start-up that waited on them would still be starting when the tab is shown.
  const context = await suite.browser.newContext();
  await context.addInitScript(hiddenTab);
  try {
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(suite.server.url);
    await p.waitForSelector('body[data-ready="true"]');
    assert.deepEqual(await p.evaluate(() => window.__timers), [], 'no timer set before ready');
    await p.waitForSelector('body[data-settled="true"]');
    assert.equal(await p.locator('#timeline-title').count(), 1);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
