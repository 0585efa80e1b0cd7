// End-to-end: the lab embedded as a docs author expects. Its colours follow
// `?theme=light|dark|auto` from the first paint, and the host page can switch
// them live by message; a message from anywhere but the parent is ignored.
import assert from 'node:assert/strict';
import { test, before, after } from 'node:test';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACTS, DIST, PREFIX, labSuite, serveSites, skipToIdle } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const LIGHT = 'rgb(246, 247, 249)';
const DARK = 'rgb(17, 19, 24)';
const background = (target) => target.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('?theme= fixes the colours from the first paint, whatever the system says; auto or nothing follows it', async () => {
  for (const [theme, colorScheme, expected] of [
    ['dark', 'light', DARK],
    ['light', 'dark', LIGHT],
    ['auto', 'dark', DARK],
    [null, 'light', LIGHT],
    ['sepia', 'dark', DARK],
  ]) {
    const query = `?embed=1${theme ? `&theme=${theme}` : ''}`;
    await withLab({ query, colorScheme }, async (page) => {
      assert.equal(await background(page), expected, `${query} on a ${colorScheme} system`);
    });
  }
  // Before the Wasm arrives: the boot frame is painted in the theme too.
  await withLab({ query: '?embed=1&theme=dark', colorScheme: 'light' }, async (page, lab) => {
    const fresh = await lab.context.newPage();
    await fresh.route(/\.wasm$/, () => {});
    await fresh.goto(`${suite.server.url}?embed=1&theme=dark`, { waitUntil: 'domcontentloaded' });
    assert.equal(await fresh.locator('html.theme-dark [data-boot="en"]').count(), 1, 'the boot frame is there, dark');
    assert.equal(await background(fresh), DARK);
  });
});

test('the host page switches the theme live by message; nobody else can', () =>
  withLab({ query: '?embed=1', colorScheme: 'light' }, async (page, lab) => {
    const docs = await lab.context.newPage();
    await docs.setContent(`<h1>Docs</h1><iframe title="lab" src="${suite.server.url}?embed=1&lang=en" width="700" height="600"></iframe>`);
    const frame = docs.frames().find((f) => f !== docs.mainFrame());
    await frame.waitForSelector('body[data-settled="true"]');
    assert.equal(await background(frame), LIGHT);
    const post = (message) => docs.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), message);
    const settled = () => frame.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));

    await post({ type: 'idempotency-lab:theme', theme: 'dark' });
    await frame.waitForFunction((dark) => getComputedStyle(document.body).backgroundColor === dark, DARK);
    // A theme the lab does not have, another type, or a message the frame
    // sends itself: nothing changes.
    await post({ type: 'idempotency-lab:theme', theme: 'sepia' });
    await post({ type: 'other', theme: 'light' });
    await post('idempotency-lab:theme light');
    await frame.evaluate(() => window.postMessage({ type: 'idempotency-lab:theme', theme: 'light' }, '*'));
    await settled();
    await frame.waitForTimeout(200);
    assert.equal(await background(frame), DARK);
    // Back to the system's colours.
    await post({ type: 'idempotency-lab:theme', theme: 'auto' });
    await frame.waitForFunction((light) => getComputedStyle(document.body).backgroundColor === light, LIGHT);
    assert.equal(await frame.locator('html.theme-dark, html.theme-light').count(), 0);
  }));

test('in a sandboxed frame without allow-forms, Send, Enter in a field and a question\'s Check all work', () =>
  withLab({ query: '?embed=1' }, async (page, lab) => {
    const docs = await lab.context.newPage();
    const frameAt = async (query) => {
      await docs.setContent(`<iframe title="lab" sandbox="allow-scripts allow-same-origin" src="${suite.server.url}${query}" width="900" height="700"></iframe>`);
      const frame = docs.frames().find((f) => f !== docs.mainFrame());
      await frame.waitForSelector('body[data-settled="true"]');
      return frame;
    };
    const lab1 = await frameAt('?embed=1&lang=en');
    await lab1.getByRole('button', { name: 'Send', exact: true }).click();
    await lab1.locator('[data-testid="timeline"][data-total="1"]').waitFor();
    await lab1.getByLabel('Key', { exact: true }).fill('order-1043');
    await lab1.getByLabel('Key', { exact: true }).press('Enter');
    await lab1.locator('[data-testid="timeline"][data-total="2"]').waitFor();
    assert.deepEqual(
      await lab1.locator('[data-testid="timeline-row"] .key').allTextContents(),
      ['order-1042', 'order-1043'],
    );
    // A number question: Enter in its field, and its Check button.
    const lab2 = await frameAt('?embed=1&lang=en&scenario=s1&step=2');
    const answer = lab2.getByLabel('Answer', { exact: true });
    await answer.fill('1');
    await answer.press('Enter');
    await lab2.locator('[data-testid="feedback"][data-correct="false"]').waitFor();
    await answer.fill('200');
    await lab2.getByRole('button', { name: 'Check', exact: true }).click();
    await lab2.locator('[data-testid="feedback"][data-correct="true"]').waitFor();
  }));

// A docs site on another origin (another port): what a site on its own domain sees.
const docsRoot = await mkdtemp(join(tmpdir(), 'lab-docs-'));
let docsSite;
// It serves the lab too, so a docs page there has frames of its own origin and of another.
before(async () => { docsSite = await serveSites([{ root: docsRoot, prefix: '/guide/' }, { root: DIST, prefix: PREFIX }]); });
after(() => docsSite?.close());

const README = await readFile(new URL('../README.md', import.meta.url), 'utf8');

/** The host script's tag for each lab origin, as the dialog writes it (README, "Embedding"). */
function hostScript(...origins) {
  const block = README.split('```html').slice(1).map((b) => b.split('```')[0]).find((b) => b.includes('embed.js'));
  assert.match(block ?? '', /^<script src="https:\/\/lab\.example\.org\/embed\.js" async><\/script>$/m, "the README's tag");
  return origins.map((origin) => `<script src="${origin}${PREFIX}embed.js" async></script>`).join('\n');
}

/**
 * A docs page at `at` (same origin as the lab, or another) with `frames`
 * (`{ query, width, height, attrs }`), the README's host script, and a log of
 * every message from the lab's origin (`window.events`, with the frame's index).
 */
async function openDocs(lab, { at, frames, tall = false, crossOrigin = false }) {
  const origin = suite.server.origin;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retries</title></head>
<body style="margin: 0; padding: 8px; font: 16px sans-serif">
<h1>Retries, by example</h1>
${frames.map(({ query, width, height = 480, attrs = '' }, i) => `<p>Frame ${i}</p>
<iframe title="Idempotency Lab ${i}" src="${suite.server.url}${query}" width="${width}" height="${height}" style="border: 0; display: block" ${attrs}></iframe>`).join('\n')}
${tall ? '<div style="height: 2000px">The rest of the guide.</div>' : ''}
<script>
window.events = [];
addEventListener('message', (event) => {
  if (event.origin !== '${origin}') return;
  const frame = [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === event.source);
  events.push({ frame, ...event.data });
});
</script>
${hostScript(origin)}
</body></html>`;
  const docs = await lab.context.newPage();
  await docs.setViewportSize({ width: 1100, height: 800 });
  if (crossOrigin) {
    await writeFile(join(docsRoot, at), html);
    await docs.goto(`${docsSite.origin}/guide/${at}`);
  } else {
    await docs.route(at, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await docs.goto(at);
  }
  const labFrames = async () => {
    const found = [];
    for (let i = 0; i < frames.length; i += 1) {
      const handle = await docs.locator('iframe').nth(i).elementHandle();
      const frame = await handle.contentFrame();
      await frame.waitForSelector('body[data-settled="true"]');
      found.push(frame);
    }
    return found;
  };
  return { docs, frames: await labFrames(), labFrames };
}

const eventsOf = (docs, type) => docs.evaluate((t) => events.filter((e) => e.type === `idempotency-lab:${t}`), type);

/** Waits until the frames' resize messages stop and each frame has the last one's height. */
async function settled(docs) {
  let last = null;
  for (let i = 0; i < 60; i += 1) {
    await docs.waitForTimeout(120);
    const now = await docs.evaluate(() => JSON.stringify([events.length, [...document.querySelectorAll('iframe')].map((f) => f.height)]));
    if (now === last) return;
    last = now;
  }
  assert.fail('the frames kept resizing');
}

/**
 * What scrolls inside the frame (or is clipped by its page), described; empty when nothing does.
 * A sandbox's request column and its timeline's rows scroll in boxes of their own by design
 * (README, "A frame as tall as its content"): the frame asks for one screen.
 */
const innerScroll = (frame) => frame.evaluate(() => {
  const over = [];
  const own = document.documentElement.matches('.embed:not(.walking)') ? '.column:not(.wide), .timeline .table-scroll' : null;
  const root = document.scrollingElement;
  if (root.scrollHeight > root.clientHeight + 1) over.push(`the page: ${root.scrollHeight} in ${root.clientHeight}`);
  if (document.body.scrollHeight > document.body.clientHeight + 1) over.push(`the body: ${document.body.scrollHeight} in ${document.body.clientHeight}`);
  for (const el of document.querySelectorAll('body *')) {
    const { overflowY } = getComputedStyle(el);
    if ((overflowY === 'auto' || overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1 && !(own && el.matches(own))) {
      over.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.scrollHeight} in ${el.clientHeight}`);
    }
  }
  return over;
});

async function frameHeight(docs, i) {
  return Number(await docs.locator('iframe').nth(i).getAttribute('height'));
}

test('embed.js gives each frame the height it asks for: its page never scrolls, a wide sandbox is one screen after every action, at any width', () =>
  suite.withLab({ query: '?embed=1' }, async (page, lab) => {
    const { docs, frames } = await openDocs(lab, {
      at: `${suite.server.origin}/site/guide.html`,
      frames: [
        { query: '?embed=1&lang=en', width: 900 },
        { query: '?embed=1&lang=fa&id=narrow', width: 420 },
        { query: '?embed=1&lang=en&scenario=s4&step=2', width: 900 },
      ],
    });
    await settled(docs);
    const first = [];
    for (let i = 0; i < frames.length; i += 1) {
      first.push(await frameHeight(docs, i));
      assert.notEqual(first[i], 480, `frame ${i} was given a height`);
      assert.deepEqual(await innerScroll(frames[i]), [], `frame ${i} at ${first[i]} px`);
      assert.equal(await frames[i].evaluate(() => innerHeight), first[i]);
    }
    // Its height follows what it holds: grants add rows, Reset takes them away.
    for (const [i, send] of [[0, 'Send'], [1, 'ارسال']]) {
      for (let n = 1; n <= 4; n += 1) {
        await frames[i].getByRole('button', { name: send, exact: true }).click();
        await skipToIdle(frames[i]);
        await settled(docs);
        assert.deepEqual(await innerScroll(frames[i]), [], `frame ${i} after ${n} sends`);
      }
      // One screen, whatever the session holds: the rows scroll in the timeline's box.
      // (The narrow frame is one column, as tall as its panels.)
      if (i === 0) {
        assert.equal(await frameHeight(docs, i), first[i], `frame ${i} kept its height after four grants`);
        assert.ok(first[i] <= 1100, `frame ${i} asks for about one screen: ${first[i]} px`);
      }
      await frames[i].locator('button.reset').click();
      await settled(docs);
      assert.equal(await frameHeight(docs, i), first[i], `frame ${i} back to its first height after Reset`);
      assert.deepEqual(await innerScroll(frames[i]), []);
    }
    // The scenario's steps: each one's height, with nothing scrolling inside.
    await frames[2].getByRole('button', { name: 'Next step', exact: true }).click();
    await settled(docs);
    assert.deepEqual(await innerScroll(frames[2]), [], 'the scenario frame at its next step');
    // A narrower docs column: the frame's layout changes, and so does its height.
    await docs.evaluate(() => { document.querySelectorAll('iframe')[0].width = '520'; });
    await settled(docs);
    assert.deepEqual(await innerScroll(frames[0]), [], 'the first frame at 520 px wide');
    await docs.screenshot({ path: `${ARTIFACTS}/embed-auto-height.png`, fullPage: true });
  }));

test('with the pointer over a frame of its own height, the wheel scrolls the docs page', () =>
  suite.withLab({ query: '?embed=1' }, async (page, lab) => {
    const { docs } = await openDocs(lab, {
      at: `${suite.server.origin}/site/wheel.html`,
      frames: [{ query: '?embed=1&lang=en', width: 900 }],
      tall: true,
    });
    await settled(docs);
    const box = await docs.locator('iframe').boundingBox();
    await docs.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height, 700) / 2);
    for (let i = 0; i < 9; i += 1) await docs.mouse.wheel(0, 100);
    await docs.waitForFunction(() => scrollY > 500);
  }));

test('events reach the host with the frame id: ready, step, answered and challenge-met; the host can set the language and the step', () =>
  suite.withLab({ query: '?embed=1' }, async (page, lab) => {
    const { docs, frames: [frame] } = await openDocs(lab, {
      at: 'retries.html',
      crossOrigin: true,
      frames: [{ query: '?embed=1&lang=en&scenario=s1&step=1&id=intro', width: 900 }],
    });
    await settled(docs);
    const ready = await eventsOf(docs, 'ready');
    assert.deepEqual(ready, [{ frame: 0, type: 'idempotency-lab:ready', id: 'intro' }]);
    // No height before the lab is ready: the frame keeps the author's while it starts.
    const types = await docs.evaluate(() => events.map((e) => e.type));
    assert.ok(types.indexOf('idempotency-lab:resize') > types.indexOf('idempotency-lab:ready'), types.join(' '));
    assert.ok((await eventsOf(docs, 'resize')).every((e) => e.id === 'intro' && Number.isInteger(e.height) && e.height > 0));
    assert.deepEqual((await eventsOf(docs, 'step')).map(({ scenario, step }) => [scenario, step]), [['s1', 1]]);
    await frame.getByRole('button', { name: 'Next step', exact: true }).click();
    await docs.waitForFunction(() => events.some((e) => e.type === 'idempotency-lab:step' && e.step === 2));
    // A wrong answer, a word where a number is asked (not an answer), a right one.
    const answer = frame.getByLabel('Answer', { exact: true });
    for (const [given, said] of [['1', '[data-testid="feedback"][data-correct="false"]'], ['many', '.walk-feedback.error'], ['200', '[data-testid="feedback"][data-correct="true"]']]) {
      await answer.fill(given);
      await frame.getByRole('button', { name: 'Check', exact: true }).click();
      await frame.locator(said).waitFor();
    }
    await docs.waitForFunction(() => events.filter((e) => e.type === 'idempotency-lab:answered').length === 2);
    assert.deepEqual(
      (await eventsOf(docs, 'answered')).map(({ scenario, step, correct, id }) => ({ scenario, step, correct, id })),
      [{ scenario: 's1', step: 2, correct: false, id: 'intro' }, { scenario: 's1', step: 2, correct: true, id: 'intro' }],
    );
    // The host moves the lesson on, and switches its language.
    const post = (message) => docs.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), message);
    await post({ type: 'idempotency-lab:go-to-step', step: 3 });
    await docs.waitForFunction(() => events.some((e) => e.type === 'idempotency-lab:step' && e.step === 3));
    await post({ type: 'idempotency-lab:lang', lang: 'fa' });
    await frame.waitForSelector('html[lang="fa"][dir="rtl"]');
    // A step the scenario lacks is said in the frame, and moves nothing.
    await post({ type: 'idempotency-lab:go-to-step', step: 9 });
    await frame.getByTestId('notice').waitFor();
    await post({ type: 'idempotency-lab:lang', lang: 'en' });
    await frame.waitForSelector('html[lang="en"]');
    assert.equal((await eventsOf(docs, 'step')).at(-1).step, 3);
    // The challenge: Show me leaves the last move, which meets it.
    await frame.getByRole('button', { name: 'Start the challenge' }).click();
    await frame.getByRole('button', { name: 'Show me' }).click();
    assert.deepEqual(await eventsOf(docs, 'challenge-met'), []);
    await frame.getByRole('button', { name: 'Retry (same key)' }).click();
    await skipToIdle(frame);
    await docs.waitForFunction(() => events.some((e) => e.type === 'idempotency-lab:challenge-met'));
    assert.deepEqual(
      (await eventsOf(docs, 'challenge-met')).map(({ frame: f, scenario, id }) => ({ f, scenario, id })),
      [{ f: 0, scenario: 's1', id: 'intro' }],
    );
    // The frame's address is the host's still: nothing rewrote it.
    assert.equal(await frame.evaluate(() => location.search), '?embed=1&lang=en&scenario=s1&step=1&id=intro');
  }));

test('each frame keeps its own session across reloads of the docs page, and none tells of another tab', () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    // A shared state, made in the full lab.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    const link = await page.getByTestId('permalink').inputValue();
    const state = link.slice(link.indexOf('#state='));
    const setup = {
      at: `${suite.server.origin}/site/sessions.html`,
      frames: [
        { query: '?embed=1&lang=en', width: 700 },
        { query: '?embed=1&lang=en&id=second', width: 700 },
        { query: `?embed=1&lang=en${state}`, width: 700 },
        { query: '?embed=1&lang=en&scenario=s4&step=2', width: 700 },
      ],
    };
    const { docs, frames, labFrames } = await openDocs(lab, setup);
    const count = (frame) => frame.locator('[data-testid="timeline-row"]').count();
    const send = async (frame, times) => {
      for (let i = 0; i < times; i += 1) await frame.getByRole('button', { name: 'Send', exact: true }).click();
      await skipToIdle(frame);
    };
    assert.equal(await count(frames[2]), 2, 'the shared state, opened');
    assert.equal(await frames[2].getByTestId('notice').count(), 0, 'nothing was replaced, so nothing is said');
    await send(frames[0], 1);
    await send(frames[1], 3);
    await send(frames[2], 1);
    await docs.waitForTimeout(300);
    for (const frame of frames) assert.equal(await frame.getByTestId('notice').count(), 0, 'no other-tab notice between frames');
    // The full page keeps its own too.
    assert.equal(await count(page), 2);
    await docs.reload();
    const again = await labFrames();
    assert.equal(await count(again[0]), 1);
    assert.equal(await count(again[1]), 3);
    // The shared state starts from the link again; the reader's work is offered back.
    assert.equal(await count(again[2]), 2);
    // The frame is taller than the docs window: its message stands in the
    // part the reader sees, wherever the page is scrolled.
    const frameBox = docs.locator('iframe').nth(2);
    for (const at of ['start', 'center']) {
      await frameBox.evaluate((el, block) => el.scrollIntoView({ block }), at);
      await docs.waitForFunction(async () => {
        const frame = document.querySelectorAll('iframe')[2].getBoundingClientRect();
        return frame.top < innerHeight && frame.bottom > innerHeight;
      });
      await docs.waitForTimeout(200);
      const box = await frameBox.boundingBox();
      const notice = await again[2].getByTestId('notice').boundingBox();
      assert.ok(notice.y >= 0 && notice.y + notice.height <= 800, `the notice in the docs window (scrolled to the frame's ${at}): ${JSON.stringify({ box, notice })}`);
    }
    await again[2].getByTestId('bring-back').click();
    assert.equal(await count(again[2]), 3);
    // The scenario frame shows its step still.
    await again[3].getByTestId('walkthrough').waitFor();
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(await count(page), 2);
  }));

test('a scenario embed is a lesson: its steps alone; the full lab, Try it yourself and the next section open in a new tab', () =>
  suite.withLab({ query: '?embed=1' }, async (page, lab) => {
    const { docs, frames: [frame] } = await openDocs(lab, {
      at: `${suite.server.origin}/site/lesson.html`,
      frames: [{ query: '?embed=1&lang=en&scenario=s4&step=2', width: 900, attrs: 'sandbox="allow-scripts allow-same-origin allow-popups"' }],
    });
    await frame.getByTestId('walkthrough').waitFor();
    assert.equal(await frame.getByTestId('lesson-title').innerText(), 'One key per operation');
    for (const gone of [
      frame.getByTestId('scenario-select'),
      frame.getByTestId('sections-overview'),
      frame.getByTestId('import-progress'),
      frame.getByRole('button', { name: 'Back to the sandbox' }),
      frame.getByRole('button', { name: 'Presenter mode' }),
      frame.getByRole('button', { name: 'Export progress' }),
    ]) assert.equal(await gone.count(), 0, `${gone} is not in a lesson`);
    // The last step: the way on is the next section, in the full lab.
    const next = frame.getByRole('button', { name: 'Next step', exact: true });
    while ((await next.getAttribute('aria-disabled')) !== 'true') {
      await next.click();
      await frame.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
    }
    assert.equal(await frame.getByTestId('next-section').count(), 0);
    const opened = async (click) => {
      const [tab] = await Promise.all([lab.context.waitForEvent('page'), click()]);
      await tab.waitForSelector('body[data-settled="true"]');
      const url = new URL(tab.url());
      assert.equal(url.searchParams.get('embed'), null, 'the full lab, not an embed');
      assert.equal(await tab.locator('html.embed').count(), 0);
      return { tab, url };
    };
    const onward = await opened(() => frame.getByTestId('continue-full').click());
    assert.equal(onward.url.searchParams.get('scenario'), 's5');
    assert.equal(onward.url.searchParams.get('step'), '1');
    assert.equal(onward.url.searchParams.get('lang'), 'en');
    await onward.tab.getByTestId('scenario-select').waitFor();
    await onward.tab.close();
    // Open the full lab: at this step.
    const full = await opened(() => frame.getByRole('link', { name: /Open the full lab/ }).click());
    assert.equal(full.url.searchParams.get('scenario'), 's4');
    assert.equal(full.url.searchParams.get('step'), '5');
    await full.tab.close();
    // Try it yourself: the step's lab, in the full lab's sandbox.
    const rowsHere = await frame.locator('[data-testid="timeline-row"]').count();
    assert.ok(rowsHere > 0);
    const tryLink = frame.getByRole('link', { name: /Try it yourself/ });
    assert.match(new URL(await tryLink.getAttribute('href')).hash, /^#state=/);
    const tried = await opened(() => tryLink.click());
    await tried.tab.locator(`[data-testid="timeline"][data-total="${rowsHere}"]`).waitFor();
    await tried.tab.close();
    // The lesson's challenge ends back in the lesson, not in a free sandbox.
    await frame.getByRole('button', { name: 'Start the challenge' }).click();
    await frame.getByTestId('challenge').waitFor();
    await frame.getByRole('button', { name: 'Back to the lesson' }).click();
    await frame.getByTestId('lesson-title').waitFor();
    assert.equal(await frame.locator('[data-testid="step-counter"]').getAttribute('data-step'), '5');
    // The frame's address is the host's still.
    assert.equal(await frame.evaluate(() => location.search), '?embed=1&lang=en&scenario=s4&step=2');
    void docs;
  }));

test('a frame sandboxed without allow-popups says what a new tab needs, instead of doing nothing', () =>
  suite.withLab({ query: '?embed=1' }, async (page, lab) => {
    const { frames: [frame] } = await openDocs(lab, {
      at: `${suite.server.origin}/site/popups.html`,
      frames: [{ query: '?embed=1&lang=en&scenario=s1&step=1', width: 900, attrs: 'sandbox="allow-scripts allow-same-origin"' }],
    });
    let tabs = 0;
    lab.context.on('page', () => { tabs += 1; });
    for (const link of [frame.getByRole('link', { name: /Try it yourself/ }), frame.getByRole('link', { name: /Open the full lab/ })]) {
      await link.click();
      const notice = frame.getByTestId('notice');
      await notice.waitFor();
      assert.match(await notice.innerText(), /allow-popups/);
      await frame.getByTestId('dismiss').click();
    }
    assert.equal(tabs, 0);
  }));

test('the full lab writes the embed code for what it shows; pasted into a page, the code opens that view', () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    await lab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.origin });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    const opener = page.getByRole('button', { name: 'Embed on a page' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Embed this lab on a page' });
    await dialog.waitFor();
    const snippet = page.getByTestId('embed-snippet');
    const code = () => snippet.inputValue();
    // This lab as it is: its state, the column's width, sized to its content.
    assert.ok(await dialog.getByLabel('This lab as it is now').isChecked());
    let text = await code();
    assert.match(text, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/docs\/idempotency\/\?embed=1&amp;lang=en&amp;id=lab-[a-z0-9]{4}#state=[^"]+" title="Idempotency Lab"/);
    assert.match(text, /width="100%" height="\d+"/);
    assert.doesNotMatch(text, /style=/);
    assert.ok(text.endsWith(`\n<script src="${suite.server.url}embed.js" async></script>`), text);
    // A new sandbox, in Persian, dark.
    await dialog.getByLabel('A new sandbox').check();
    await dialog.getByLabel('Language').selectOption('fa');
    await dialog.getByLabel('Colours').selectOption('dark');
    // The frame's title waits for the Persian texts to arrive.
    await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]').value.includes('lang=fa'));
    text = await code();
    assert.match(text, /\?embed=1&amp;lang=fa&amp;id=lab-[a-z0-9]{4}&amp;theme=dark" title="آزمایشگاه/);
    assert.doesNotMatch(text, /#state=/);
    // A fixed width; a size out of range is said, and changes nothing.
    assert.equal(await dialog.getByLabel('Width in pixels').isVisible(), false, 'no width to give while the frame fills the column');
    await dialog.getByLabel("As wide as the page's column").uncheck();
    assert.match(await code(), /width="720"/);
    const width = dialog.getByLabel('Width in pixels');
    await width.fill('100');
    assert.equal(await width.getAttribute('aria-invalid'), 'true');
    assert.match(await dialog.locator('#embed-width-error').innerText(), /from 320 to 2,400/);
    assert.match(await code(), /width="720"/);
    await width.fill('800');
    assert.equal(await width.getAttribute('aria-invalid'), 'false');
    const height = dialog.getByLabel('Height in pixels');
    await height.fill('tall');
    assert.notEqual(await dialog.locator('#embed-height-error').innerText(), '');
    await height.fill('900');
    assert.match(await code(), /width="800" height="900"/);
    // A height typed while the dialog measured stands, and the field is not left busy.
    await page.locator('#embed-height:not([data-measuring])').waitFor();
    assert.match(await code(), /width="800" height="900" allow=/, 'no measured heights beside a typed one');
    // Without the script, the frame alone.
    await dialog.getByLabel(/Grow the frame/).uncheck();
    assert.doesNotMatch(await code(), /<script/);
    await dialog.getByRole('button', { name: 'Copy the code' }).click();
    await page.locator('[data-testid="embed-copied"][data-copied="true"]').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await code());
    // Escape closes it, and the keyboard is back on the opener.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await opener.evaluate((el) => el === document.activeElement), true);

    // Pasted into a docs page: this lab as it is, with the script.
    await opener.click();
    await dialog.getByLabel('This lab as it is now').check();
    await dialog.getByLabel('Language').selectOption('en');
    await dialog.getByLabel(/Grow the frame/).check();
    const stateCode = await code();
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The walkthrough's step: a lesson, by default.
    await page.goto(`${suite.server.url}?lang=en&scenario=s4&step=2`);
    await page.waitForSelector('body[data-settled="true"]');
    await page.getByTestId('walkthrough').waitFor();
    await opener.click();
    assert.ok(await dialog.getByLabel('This section as a lesson, from this step').isChecked());
    const lessonCode = await code();
    assert.match(lessonCode, /&amp;scenario=s4&amp;step=2"/);
    const docs = await lab.context.newPage();
    await docs.setViewportSize({ width: 1100, height: 800 });
    await docs.route(`${suite.server.origin}/site/pasted.html`, (route) => route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pasted</title></head><body>${stateCode}\n${lessonCode}</body></html>`,
    }));
    await docs.goto(`${suite.server.origin}/site/pasted.html`);
    const frames = [];
    for (let i = 0; i < 2; i += 1) {
      const frame = await (await docs.locator('iframe').nth(i).elementHandle()).contentFrame();
      await frame.waitForSelector('body[data-settled="true"]');
      frames.push(frame);
    }
    await frames[0].locator('[data-testid="timeline"][data-total="1"]').waitFor();
    await frames[1].getByTestId('lesson-title').waitFor();
    // Sized to its content by the pasted script.
    await docs.waitForFunction(() => document.querySelectorAll('iframe')[0].height !== '640');
  }));

test('in a frame that may not write to the clipboard, Copy link says the permission it needs, and shows the link', () =>
  suite.withLab({ query: '?embed=1' }, async (page, lab) => {
    const { frames: [frame] } = await openDocs(lab, {
      at: 'clipboard.html',
      crossOrigin: true,
      frames: [{ query: '?embed=1&lang=en&settings=open', width: 900 }],
    });
    await frame.getByRole('button', { name: 'Copy link to this state' }).click();
    const said = frame.locator('[data-testid="link-copied"][data-copied="false"]');
    await said.waitFor();
    assert.match(await said.innerText(), /allow="clipboard-write"/);
    assert.match(await frame.getByTestId('permalink').inputValue(), /#state=/);
  }));

test('held to: a docs page with three frames of its own origin and one of another, each its height, its session and its theme', () =>
  suite.withLab({ query: '?lang=en' }, async (page, lab) => {
    // A shared state, made in the full lab on the docs site's origin.
    const labThere = `${docsSite.origin}${PREFIX}`;
    const maker = await lab.context.newPage();
    await maker.goto(`${labThere}?lang=en&settings=open`);
    await maker.waitForSelector('body[data-settled="true"]');
    await maker.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(maker);
    await maker.getByRole('button', { name: 'Copy link to this state' }).click();
    const link = await maker.getByTestId('permalink').inputValue();
    await maker.close();
    const state = link.slice(link.indexOf('#state='));
    const frames = [
      { src: `${labThere}?embed=1&lang=en`, width: 900 },
      { src: `${labThere}?embed=1&lang=en&scenario=s4&step=2`, width: 900 },
      { src: `${labThere}?embed=1&lang=fa${state}`, width: 700 },
      // Another origin, sandboxed without allow-forms, dark.
      { src: `${suite.server.url}?embed=1&lang=en&theme=dark`, width: 700, attrs: 'sandbox="allow-scripts allow-same-origin"' },
    ];
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Held to</title></head><body style="margin: 0; padding: 8px">
${frames.map(({ src, width, attrs = '' }, i) => `<iframe title="Idempotency Lab ${i}" src="${src}" width="${width}" height="480" style="border: 0; display: block" ${attrs}></iframe>`).join('\n')}
<script>window.events = []; addEventListener('message', (e) => events.push({ origin: e.origin, frame: [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source), ...e.data }));</script>
${hostScript(docsSite.origin, suite.server.origin)}
</body></html>`;
    await writeFile(join(docsRoot, 'held.html'), html);
    const docs = await lab.context.newPage();
    await docs.setViewportSize({ width: 1100, height: 800 });
    await docs.goto(`${docsSite.origin}/guide/held.html`);
    const labFrames = async () => {
      const found = [];
      for (let i = 0; i < frames.length; i += 1) {
        const frame = await (await docs.locator('iframe').nth(i).elementHandle()).contentFrame();
        await frame.waitForSelector('body[data-settled="true"]');
        found.push(frame);
      }
      return found;
    };
    let [sandbox, lesson, shared, other] = await labFrames();
    const noInnerScroll = async (what) => {
      await settled(docs);
      for (const [i, frame] of [sandbox, lesson, shared, other].entries()) {
        assert.deepEqual(await innerScroll(frame), [], `frame ${i} ${what}`);
        assert.equal(await frame.evaluate(() => innerHeight), await frameHeight(docs, i), `frame ${i} has the height it told`);
      }
    };
    await noInnerScroll('on load');
    // The scenario embed is a lesson: no section select.
    assert.equal(await lesson.getByTestId('scenario-select').count(), 0);
    await lesson.getByTestId('lesson-title').waitFor();
    // Actions in each; the sandboxed one sends without allow-forms.
    await sandbox.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(sandbox);
    await lesson.getByRole('button', { name: 'Next step', exact: true }).click();
    await shared.getByRole('button', { name: 'ارسال', exact: true }).click();
    await skipToIdle(shared);
    for (let n = 0; n < 2; n += 1) await other.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(other);
    await noInnerScroll('after an action in each');
    // theme=dark, then the host's live switch.
    assert.equal(await background(other), DARK);
    await docs.evaluate(() => document.querySelectorAll('iframe')[3].contentWindow.postMessage({ type: 'idempotency-lab:theme', theme: 'light' }, '*'));
    await other.waitForFunction((light) => getComputedStyle(document.body).backgroundColor === light, LIGHT);
    // Reloads keep each frame's own session.
    await docs.reload();
    [sandbox, lesson, shared, other] = await labFrames();
    const total = (frame) => frame.getByTestId('timeline').getAttribute('data-total');
    assert.equal(await total(sandbox), '1');
    assert.equal(await total(other), '2');
    assert.equal(await total(shared), '1', 'the shared state, from its link again');
    await docs.locator('iframe').nth(2).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await docs.waitForTimeout(300);
    await shared.getByTestId('bring-back').click();
    assert.equal(await total(shared), '2', "and the reader's work, brought back");
    await noInnerScroll('after the reload');
    await docs.screenshot({ path: `${ARTIFACTS}/embed-held-to.png`, fullPage: true });
  }));
