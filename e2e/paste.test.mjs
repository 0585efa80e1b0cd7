// End-to-end: a docs author's paste. The "Embed on a page" dialog's snippets,
// copied unchanged, pasted into a page of another site that is served with a
// strict Content-Security-Policy: nothing is blocked, every frame takes its
// content's height, each keeps its own session, and a narrow page never
// scrolls sideways. Also: frames with one address and no id keep apart.
import assert from 'node:assert/strict';
import { test, before, after } from 'node:test';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACTS, labSuite, serveSites, skipToIdle, withSettings } from './harness.mjs';

const suite = labSuite();

// The docs site: another origin than the lab's (another port), serving its
// pages with the strict policy a docs author has. As `localhost` it is also
// another site, to which this browser gives a framed lab no storage.
const docsRoot = await mkdtemp(join(tmpdir(), 'lab-paste-'));
let docsSite;
const strictPolicy = () => `default-src 'self'; frame-src ${suite.server.origin}; script-src ${suite.server.origin}`;
before(async () => {
  docsSite = await serveSites([{ root: docsRoot, prefix: '/guide/', headers: { 'content-security-policy': strictPolicy() } }]);
});
after(() => docsSite?.close());
const docsOrigin = (site = 'same') => (site === 'other' ? docsSite.origin.replace('127.0.0.1', 'localhost') : docsSite.origin);

/** Opens the full lab's dialog at `query` and returns its code for `shows`, with `edit` applied. */
async function dialogCode(page, query, shows, edit = async () => {}) {
  await page.goto(`${suite.server.url}${withSettings(query)}`);
  await page.waitForSelector('body[data-settled="true"]');
  await page.getByRole('button', { name: 'Embed on a page' }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed this lab on a page' });
  await dialog.waitFor();
  await dialog.getByLabel(shows).check();
  await edit(dialog);
  // The height the frame will ask for, measured for the view.
  await page.waitForTimeout(300);
  await page.locator('#embed-height:not([data-measuring])').waitFor();
  const code = await page.getByTestId('embed-snippet').inputValue();
  const csp = await page.getByTestId('embed-csp').innerText();
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { code, csp };
}

/** The host's strict policy, as the dialog states it, with the page's own origin. */
function policyFrom(csp) {
  const lines = csp.split('\n').map((l) => l.trim()).filter((l) => /^(frame|script)-src /.test(l));
  assert.deepEqual(lines, [`frame-src ${suite.server.origin}`, `script-src ${suite.server.origin}`], csp);
  return `default-src 'self'; ${lines.join('; ')}`;
}

/** Serves `body` at the docs site's `<name>`, and logs every CSP violation and layout shift there. */
async function openHost(context, name, body, { width = 1100, site = 'same' } = {}) {
  const docs = await context.newPage();
  await docs.setViewportSize({ width, height: 800 });
  // A docs column, in the site's own style sheet (its policy refuses a style attribute).
  await writeFile(join(docsRoot, 'docs.css'), 'main { max-width: 756px; margin: 0 auto; }\n');
  await writeFile(join(docsRoot, name), `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Docs</title>
<link rel="stylesheet" href="docs.css"></head>
<body><main><h1>Retries, by example</h1><p>Read this, then try it.</p>${body}<p id="end">The end of the guide.</p></main></body></html>`);
  // Outside the page's policy (a test's own probe): violations and the host's layout shifts.
  await docs.addInitScript((docsOrigin) => {
    if (location.origin !== docsOrigin) return;
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.resizes = 0;
    addEventListener('message', (e) => { if (e.data?.type === 'idempotency-lab:resize') window.resizes += 1; });
    window.shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  }, docsOrigin(site));
  // In each lesson frame: whether the sandbox's request panel was ever on show.
  await docs.addInitScript(() => {
    if (window === top || !new URLSearchParams(location.search).get('scenario')) return;
    window.sawSandbox = false;
    const look = () => {
      const request = document.querySelector('.panel.request');
      if (request && request.getClientRects().length > 0) window.sawSandbox = true;
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const refused = [];
  // A policy's refusals, and a message posted to a frame not (yet) the lab's.
  docs.on('console', (m) => { if (/Refused to|Content Security Policy|Failed to execute 'postMessage'/i.test(m.text())) refused.push(m.text()); });
  await docs.goto(`${docsOrigin(site)}/guide/${name}`);
  return { docs, refused };
}

async function labFrames(docs, count) {
  const found = [];
  for (let i = 0; i < count; i += 1) {
    // A reader scrolls to it: a lazy frame far below the first screen loads then.
    await docs.locator('iframe').nth(i).scrollIntoViewIfNeeded();
    const frame = await (await docs.locator('iframe').nth(i).elementHandle()).contentFrame();
    await frame.waitForSelector('body[data-settled="true"]');
    found.push(frame);
  }
  return found;
}

/** Waits until the frames' heights stop changing. */
async function settled(docs) {
  let last = null;
  for (let i = 0; i < 60; i += 1) {
    await docs.waitForTimeout(150);
    const now = await docs.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => f.height).join());
    if (now === last) return;
    last = now;
  }
  assert.fail('the frames kept resizing');
}

/** The frame's page scrolls (its content is taller than the frame), described; empty when not. */
const pageScroll = (frame) => frame.evaluate(() => {
  const root = document.scrollingElement;
  return root.scrollHeight > root.clientHeight + 1 ? [`${root.scrollHeight} in ${root.clientHeight}`] : [];
});

const rowCount = (frame) => frame.locator('[data-testid="timeline-row"]').count();

test("the dialog's snippets, pasted unchanged on another site under a strict policy: no violation, each frame its height and its session, no sideways scroll at 390 px", () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    const sandbox = await dialogCode(page, '?lang=en', 'A new sandbox', async (dialog) => {
      // A width in pixels, wider than a phone's column.
      await dialog.getByLabel("As wide as the page's column").uncheck();
      await dialog.getByLabel('Width in pixels').fill('640');
    });
    const s2 = await dialogCode(page, '?lang=en&scenario=s2&step=1', 'This section as a lesson, from this step');
    const s4 = await dialogCode(page, '?lang=en&scenario=s4&step=2', 'This section as a lesson, from this step');
    const codes = [sandbox.code, s2.code, s4.code];
    for (const code of codes) {
      assert.match(code, new RegExp(`<script src="${suite.server.url}embed.js" async></script>$`));
      assert.doesNotMatch(code, /<script>/, 'no inline script');
    }
    const ids = codes.map((code) => code.match(/&amp;id=([\w-]+)/)?.[1]);
    assert.equal(new Set(ids).size, 3, `each snippet names its frame: ${ids}`);
    const titles = codes.map((code) => code.match(/title="([^"]+)"/)?.[1]);
    assert.notEqual(titles[1], titles[2], `the lessons are named apart: ${titles}`);
    assert.equal(policyFrom(s4.csp), strictPolicy(), "the dialog's directives are the docs site's");
    const body = codes.map((code, i) => `${code}\n<p id="after-${i}">After frame ${i}.</p>`).join('\n');

    for (const width of [1100, 390]) {
      // Each width a reader of its own (a phone's browser keeps nothing of the desktop's).
      const context = width === 1100 ? lab.context : await suite.browser.newContext();
      const { docs, refused } = await openHost(context, `guide-${width}.html`, body, { width });
      const frames = await labFrames(docs, 3);
      await settled(docs);
      assert.deepEqual(await docs.evaluate(() => violations), [], 'no CSP violation on the host');
      assert.deepEqual(refused, [], 'nothing refused by a policy, no message posted to a frame not the lab');
      for (let i = 0; i < frames.length; i += 1) {
        const height = Number(await docs.locator('iframe').nth(i).getAttribute('height'));
        assert.notEqual(height, 640, `frame ${i} took its content's height`);
        assert.equal(await frames[i].evaluate(() => innerHeight), height);
        assert.deepEqual(await pageScroll(frames[i]), [], `frame ${i}'s page at ${width} px`);
      }
      const sideways = await docs.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);
      assert.ok(sideways <= 0, `no sideways scroll at ${width} px (${sideways} px over)`);
      const { frameWidth, column } = await docs.evaluate(() => ({
        frameWidth: document.querySelector('iframe').getBoundingClientRect().width,
        column: document.querySelector('main').getBoundingClientRect().width,
      }));
      assert.ok(frameWidth <= column, `the 640 px frame fits its ${column} px column: ${frameWidth}`);
      // The height reserved for the frame's width (a phone's, measured apart) was the one it took.
      for (let i = 0; i < frames.length; i += 1) {
        const { reserved, took, width: w } = await docs.locator('iframe').nth(i).evaluate((f) => {
          const pairs = f.dataset.labHeights.split(' ').map((p) => p.split(':').map(Number));
          const nearest = pairs.reduce((a, b) => (Math.abs(b[0] - f.clientWidth) < Math.abs(a[0] - f.clientWidth) ? b : a));
          return { reserved: nearest[1], took: Number(f.height), width: f.clientWidth };
        });
        assert.ok(Math.abs(reserved - took) <= took * 0.1, `frame ${i} at ${w} px: reserved ${reserved}, took ${took}`);
      }
      const shift = await docs.evaluate(() => shift);
      console.log(`host layout shift at ${width} px: ${shift.toFixed(3)}`);
      assert.ok(shift <= 0.05, `the host page's layout shift: ${shift}`);
      for (const i of [1, 2]) assert.equal(await frames[i].evaluate(() => window.sawSandbox), false, `lesson frame ${i} never showed the sandbox`);

      if (width === 1100) {
        // In a lesson, PageDown, PageUp and Space are the docs page's; the arrows step it.
        const counter = frames[2].getByTestId('step-counter');
        const step = () => counter.getAttribute('data-step');
        assert.equal(await step(), '2');
        await frames[2].locator('[data-testid="lesson-title"]').click();
        for (const key of ['PageDown', 'Space', 'PageUp']) {
          await frames[2].page().keyboard.press(key);
          await docs.waitForTimeout(150);
          assert.equal(await step(), '2', `${key} leaves the lesson at its step`);
        }
        await frames[2].page().keyboard.press('ArrowRight');
        await frames[2].locator('[data-testid="step-counter"][data-step="3"]').waitFor();
        // Its list of keys names only the keys it takes.
        await frames[2].page().keyboard.press('Shift+Slash');
        const keys = await frames[2].getByTestId('keys-help').innerText();
        assert.match(keys, /→/);
        assert.doesNotMatch(keys, /Page Down|Space|Presenter/, keys);
        await frames[2].page().keyboard.press('Escape');
      }
      // Each keeps its own session across a reload of the docs page.
      const rowsBefore = await rowCount(frames[0]);
      await frames[0].getByRole('button', { name: 'Send', exact: true }).click();
      await frames[0].getByRole('button', { name: 'Send', exact: true }).click();
      await skipToIdle(frames[0]);
      assert.equal(await rowCount(frames[0]), rowsBefore + 2);
      await docs.screenshot({ path: `${ARTIFACTS}/paste-${width}.png`, fullPage: true });
      await docs.reload();
      const again = await labFrames(docs, 3);
      assert.equal(await rowCount(again[0]), rowsBefore + 2, 'the sandbox frame kept its rows');
      await again[1].getByTestId('lesson-title').waitFor();
      await again[2].getByTestId('lesson-title').waitFor();
      // A lesson is back at the reader's step, not the address's.
      assert.equal(await again[1].getByTestId('step-counter').getAttribute('data-step'), '1');
      const readerAt = width === 1100 ? '3' : '2';
      assert.equal(await again[2].getByTestId('step-counter').getAttribute('data-step'), readerAt, "the s4 lesson at the reader's step");
      for (const frame of again) assert.equal(await frame.getByTestId('notice').count(), 0, 'no other-tab notice');
      await docs.close();
      if (context !== lab.context) await context.close();
    }
  }));

test('two frames with one address and no id keep apart by their place on the page, across a reload', () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    const frame = `<iframe src="${suite.server.url}?embed=1&lang=en" title="Idempotency Lab" width="100%" height="640"></iframe>`;
    const body = `${frame}\n<p>Between.</p>\n${frame}\n<script src="${suite.server.url}embed.js" async></script>`;
    const { docs } = await openHost(lab.context, 'twins.html', body);
    let frames = await labFrames(docs, 2);
    const send = async (f, times) => {
      for (let i = 0; i < times; i += 1) await f.getByRole('button', { name: 'Send', exact: true }).click();
      await skipToIdle(f);
    };
    await send(frames[0], 2);
    await send(frames[1], 1);
    await docs.waitForTimeout(300);
    for (const f of frames) assert.deepEqual(await f.getByTestId('notice').allInnerTexts(), [], 'neither tells of another tab');
    await docs.reload();
    frames = await labFrames(docs, 2);
    assert.equal(await rowCount(frames[0]), 2, 'the first frame, its own two rows');
    assert.equal(await rowCount(frames[1]), 1, "the second frame, its own row, not the first's");
  }));

test('embed.js included twice listens once, and asks a frame that told its height before it came', () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    const frame = `<iframe src="${suite.server.url}?embed=1&lang=en&id=late" title="Idempotency Lab" width="700" height="500"></iframe>`;
    const { docs } = await openHost(lab.context, 'late.html', frame);
    const [lab0] = await labFrames(docs, 1);
    await docs.waitForTimeout(300);
    assert.equal(await docs.locator('iframe').getAttribute('height'), '500', 'no script yet: the height as written');
    // The script arrives late, twice.
    await docs.evaluate((src) => {
      for (let i = 0; i < 2; i += 1) {
        const script = document.createElement('script');
        script.src = src;
        document.body.append(script);
      }
    }, `${suite.server.url}embed.js`);
    await docs.waitForFunction(() => document.querySelector('iframe').height !== '500');
    assert.equal(Number(await docs.locator('iframe').getAttribute('height')), await lab0.evaluate(() => innerHeight));
    // One listener: each resize message sets the frame's height once.
    const { sets, told } = await docs.evaluate(async () => {
      const f = document.querySelector('iframe');
      const before = window.resizes;
      let count = 0;
      new MutationObserver((records) => { count += records.length; }).observe(f, { attributes: true, attributeFilter: ['height'] });
      f.width = '420';
      await new Promise((r) => setTimeout(r, 1500));
      return { sets: count, told: window.resizes - before };
    });
    assert.ok(told >= 1, 'the narrower frame told its new height');
    assert.equal(sets, told, 'the height set once for each message');
    assert.deepEqual(await pageScroll(lab0), []);
  }));

test('a frame sandboxed with allow-scripts alone says in its language, within 5 s, that it needs allow-same-origin', () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    const body = ['en', 'fa'].map((lang) =>
      `<iframe src="${suite.server.url}?embed=1&lang=${lang}&id=boxed-${lang}" sandbox="allow-scripts" title="Lab ${lang}" width="600" height="400"></iframe>`).join('\n');
    const { docs, refused } = await openHost(lab.context, 'boxed.html', `${body}\n<script src="${suite.server.url}embed.js" async></script>`);
    const said = [];
    for (let i = 0; i < 2; i += 1) {
      const frame = await (await docs.locator('iframe').nth(i).elementHandle()).contentFrame();
      const message = frame.locator('.boot-sandboxed');
      await message.waitFor({ state: 'visible', timeout: 5000 });
      said.push(await message.innerText());
      assert.equal(await frame.locator('.boot-loading').count(), 0, 'no "loading" that never ends');
      assert.equal(await frame.locator('.boot').count(), 1, "the frame's language alone");
    }
    assert.deepEqual(refused.filter((m) => /postMessage/.test(m)), [], 'embed.js asks no sandboxed frame');
    assert.match(said[0], /allow-same-origin/);
    assert.match(said[0], /^This frame cannot start the lab/);
    assert.match(said[1], /allow-same-origin/);
    assert.match(said[1], /قاب/);
    await docs.screenshot({ path: `${ARTIFACTS}/paste-sandboxed.png` });
  }));

test("a frame the browser gives no storage, on another site's page, says its work lasts the visit (and not that storage is off or full)", () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    const body = `<iframe src="${suite.server.url}?embed=1&lang=en&id=denied" title="Idempotency Lab" width="800" height="700"></iframe>`;
    // This browser gives a site's frame no storage inside another site's page.
    const { docs } = await openHost(lab.context, 'denied.html', body, { site: 'other' });
    const [frame] = await labFrames(docs, 1);
    await frame.getByRole('button', { name: 'Send', exact: true }).click();
    const notice = frame.getByTestId('notice');
    await notice.waitFor();
    const text = await notice.innerText();
    assert.match(text, /inside another site’s page/);
    assert.doesNotMatch(text, /off or full/);
  }));
