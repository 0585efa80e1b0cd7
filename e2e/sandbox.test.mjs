// End-to-end: the sandbox on one screen, and its settings in drawers. At
// 1280×800 the request's Send, the stage and the timeline's newest row are in
// view at once and the page does not scroll, however many rows there are, in
// English and Persian. Each settings panel is a drawer (a disclosure button),
// "Show all settings" and `?settings=open` open them all, and each part of the
// stage opens the drawer of the settings that change it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite, skipToIdle, withSettings } from './harness.mjs';

const suite = labSuite();
const SCREEN = { width: 1280, height: 800 };
const DRAWERS = ['world', 'storage', 'callers', 'queue', 'share'];

/** Where the parts stand on the screen now, and whether the page scrolls (once
 * the timeline has brought its newest row into view, a moment after it changed). */
const measure = async (page) => {
  await page.waitForTimeout(250);
  return page.evaluate(() => {
    const box = (e) => {
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const rows = document.querySelectorAll('[data-testid="timeline-row"]');
    const newest = rows[rows.length - 1];
    // The newest row in view means in the window and in its own scrolling box.
    const scroller = newest?.closest('.table-scroll');
    return {
      height: innerHeight,
      width: innerWidth,
      scrollHeight: document.scrollingElement.scrollHeight,
      send: box(document.querySelector('.request .buttons button.primary')),
      stage: box(document.querySelector('[data-testid="stage"]')),
      newest: box(newest),
      newestId: newest?.dataset.attempt,
      scroller: box(scroller),
      // What a row says first: its outcome and the balance after it.
      outcome: box(newest?.querySelector('td.store .badge')),
      balance: box(newest?.querySelector('td.balance bdi')),
      header: box(scroller?.querySelector('thead')),
    };
  });
};

const within = (b, outer) => b && b.top >= outer.top - 1 && b.bottom <= outer.bottom + 1 && b.left >= outer.left - 1 && b.right <= outer.right + 1;
const screen = (m) => ({ top: 0, bottom: m.height, left: 0, right: m.width });

/**
 * The page does not scroll, Send and the stage are in view, and the newest row
 * is whole in its box's view below its header when it fits, else its top
 * (outcome and balance) is; or, where rows are cards taller than a small
 * frame's box (`wholeRow: false`), its box is pinned to it: its foot in view.
 */
function assertOneScreen(m, where, { wholeRow = true } = {}) {
  assert.ok(m.scrollHeight <= m.height + 1, `${where}: the page does not scroll (${m.scrollHeight} > ${m.height})`);
  assert.ok(within(m.send, screen(m)), `${where}: Send is in view ${JSON.stringify(m.send)}`);
  assert.ok(within(m.stage, screen(m)), `${where}: the stage is in view ${JSON.stringify(m.stage)}`);
  if (m.newest && !wholeRow) {
    // A card keeps its foot (its balance) in view; a table row taller than the
    // box its top (its outcome and balance), just below the header.
    const foot = m.newest.bottom <= m.scroller.bottom + 1 && m.newest.bottom >= m.scroller.bottom - 20;
    const headerBottom = m.header && m.header.top <= m.scroller.top + 1 ? Math.max(m.header.bottom, m.scroller.top) : m.scroller.top;
    const top = m.header && m.header.bottom > m.header.top && m.newest.top >= headerBottom - 1 && m.newest.top <= headerBottom + 20 && within(m.outcome, { ...m.scroller, top: headerBottom });
    assert.ok(foot || top, `${where}: the box shows the newest row's foot, or a tall row's top ${JSON.stringify(m.newest)} ${JSON.stringify(m.scroller)} ${JSON.stringify(m.header)}`);
  } else if (m.newest) {
    // A row shorter than the room is whole; a taller one shows its top, where
    // its outcome and balance are, never under the sticky header.
    const room = { ...m.scroller, top: Math.max(m.scroller.top, m.header && m.header.top <= m.scroller.top + 1 ? m.header.bottom : m.scroller.top) };
    for (const [part, b] of [['outcome', m.outcome], ['balance', m.balance]]) {
      assert.ok(within(b, screen(m)), `${where}: the newest row's ${part} is in the window ${JSON.stringify(b)}`);
      assert.ok(within(b, room), `${where}: the newest row's ${part} is in its box's view, below its header ${JSON.stringify(b)} ${JSON.stringify(room)}`);
    }
    if (m.newest.bottom - m.newest.top <= room.bottom - room.top) {
      assert.ok(within(m.newest, room), `${where}: the newest row, shorter than the room, is whole ${JSON.stringify(m.newest)} ${JSON.stringify(room)}`);
    }
  }
}

for (const lang of ['en', 'fa']) {
  test(`at 1280×800 in ${lang}, Send, the stage and the newest timeline row are in view at once`, () =>
    suite.withLab({ query: `?lang=${lang}`, viewport: SCREEN, settings: 'closed' }, async (page) => {
      assertOneScreen(await measure(page), 'empty');
      const send = page.locator('.request .buttons button.primary');
      for (let i = 0; i < 3; i += 1) await send.click();
      await skipToIdle(page);
      let m = await measure(page);
      assert.equal(m.newestId, '3');
      assertOneScreen(m, 'after three sends');
      // Twenty more at once: the box keeps its newest row in view as rows arrive.
      await page.locator('.request .buttons button').filter({ hasText: /20|۲۰/ }).click();
      await skipToIdle(page);
      m = await measure(page);
      assert.equal(m.newestId, '23');
      assertOneScreen(m, 'after a burst of twenty');
    }));
}

test('each settings panel is a drawer: a disclosure button that shows and hides its controls', () =>
  suite.withLab({ query: '?lang=en', viewport: SCREEN, settings: 'closed' }, async (page) => {
    for (const code of DRAWERS) {
      const toggle = page.locator(`[data-drawer="${code}"] .drawer-toggle`);
      const controls = await toggle.getAttribute('aria-controls');
      const body = page.locator(`#${controls}`);
      assert.equal(await body.count(), 1, `${code}: aria-controls names its body`);
      // Time and process starts open: the clock and its speed are used all the time.
      const startsOpen = code === 'world';
      assert.equal(await toggle.getAttribute('aria-expanded'), String(startsOpen), code);
      assert.equal(await body.isVisible(), startsOpen, code);
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), String(!startsOpen), code);
      assert.equal(await body.isVisible(), !startsOpen, code);
    }
    // Opened, a drawer's controls are reached by their labels; the keyboard closes it again.
    await page.getByRole('switch', { name: 'Pause consumer', exact: true }).check();
    const queue = page.getByRole('button', { name: 'Worker queue', exact: true });
    await queue.focus();
    await page.keyboard.press('Enter');
    assert.equal(await queue.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('switch', { name: 'Pause consumer', exact: true }).isVisible(), false);
    // Closing hides, never resets: the setting made inside stays.
    await page.keyboard.press('Space');
    assert.equal(await page.getByRole('switch', { name: 'Pause consumer', exact: true }).isChecked(), true);
  }));

test('"Show all settings" opens every drawer and says so in the address; ?settings=open starts so', () =>
  suite.withLab({ query: '?lang=en', viewport: SCREEN, settings: 'closed' }, async (page) => {
    const all = page.getByRole('switch', { name: 'Show all settings', exact: true });
    const expanded = () => page.locator('.drawer-toggle').evaluateAll((ts) => ts.map((t) => t.getAttribute('aria-expanded')));
    assert.equal(await all.isChecked(), false);
    await all.check();
    assert.deepEqual(await expanded(), DRAWERS.map(() => 'true'));
    assert.match(page.url(), /[?&]settings=open/);
    assert.match(page.url(), /lang=en/, 'the rest of the address stays');
    // Every control the README names is reachable by its label.
    for (const label of ['Store', 'Crash point', 'Duplicate in flight gets', 'Caller timeout (ms)']) {
      assert.equal(await page.getByLabel(label, { exact: true }).isVisible(), true, label);
    }
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.deepEqual(await expanded(), DRAWERS.map(() => 'true'), 'a reload keeps them open');
    assert.equal(await all.isChecked(), true);
    await all.uncheck();
    assert.deepEqual(await expanded(), DRAWERS.map(() => 'false'));
    assert.doesNotMatch(page.url(), /settings=/);
    // Opening each by hand turns the switch on too: it says whether all are open.
    for (const code of DRAWERS) await page.locator(`[data-drawer="${code}"] .drawer-toggle`).click();
    assert.equal(await all.isChecked(), true);
  }));

test('a part of the stage opens the drawer of its settings and takes the keyboard there', () =>
  suite.withLab({ query: '?lang=fa', viewport: SCREEN, settings: 'closed' }, async (page) => {
    const parts = page.getByTestId('stage-settings');
    const drawers = await parts.evaluateAll((ps) => ps.map((p) => p.dataset.drawer));
    for (const code of ['callers', 'world', 'queue', 'storage']) assert.ok(drawers.includes(code), `${code} in ${drawers}`);
    for (const code of ['queue', 'storage', 'callers']) {
      const button = page.locator(`[data-testid="stage-settings"][data-drawer="${code}"]`).first();
      const name = await button.getAttribute('aria-label');
      assert.match(name, /تنظیمات/, 'named in the page language');
      await button.focus();
      await page.keyboard.press('Enter');
      const toggle = page.locator(`[data-drawer="${code}"] .drawer-toggle`);
      await page.waitForFunction((c) => document.activeElement?.id === `${c}-drawer-button`, code);
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.ok(name.includes((await toggle.textContent()).trim()), `${name} names its drawer`);
      const box = await toggle.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= SCREEN.height, `${code}'s drawer is brought into view`);
    }
  }));

test('withSettings adds settings=open before the fragment, once', () => {
  assert.equal(withSettings(''), '?settings=open');
  assert.equal(withSettings('?lang=fa#state=x'), '?lang=fa&settings=open#state=x');
  assert.equal(withSettings('?settings=open'), '?settings=open');
  assert.equal(withSettings('?lang=en', 'closed'), '?lang=en');
});

test('the stage shows the three promises; a broken one leads to the attempt that broke it', () =>
  suite.withLab({ query: '?lang=en', viewport: SCREEN, settings: 'closed' }, async (page) => {
    const promise = (code) => page.locator(`[data-testid="stage-promise"][data-invariant="${code}"]`);
    for (const code of ['at-most-once', 'granted-has-receipt', 'receipt-has-grant']) {
      assert.equal(await promise(code).getAttribute('data-holds'), 'true', code);
      assert.equal(await promise(code).locator('button').count(), 0, `${code}: a promise kept is no button`);
    }
    // The in-memory store forgets on a restart: the retry grants again.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.getByRole('button', { name: 'Restart process', exact: true }).click();
    await page.getByRole('button', { name: 'Retry (same key)', exact: true }).click();
    await skipToIdle(page);
    assert.equal(await promise('at-most-once').getAttribute('data-holds'), 'false');
    const way = promise('at-most-once').getByRole('button');
    assert.equal((await way.textContent()).trim(), '✕Every operation is granted at most once: Broken');
    const broke = await page.getByTestId('invariant-at-most-once').getByTestId('broken-by').getAttribute('data-attempt');
    await way.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((a) => document.activeElement?.dataset.attempt === a && document.activeElement?.dataset.testid === 'timeline-row', broke);
    const m = await measure(page);
    const row = await page.locator(`[data-testid="timeline-row"][data-attempt="${broke}"]`).boundingBox();
    // As much of it in its box's view as fits (a row may be taller than the box).
    const shown = Math.min(row.y + row.height, m.scroller.bottom) - Math.max(row.y, m.scroller.top);
    const room = Math.min(row.height, m.scroller.bottom - m.scroller.top);
    assert.ok(shown >= room - 2, `the row is in its box: ${JSON.stringify(row)} ${JSON.stringify(m.scroller)}`);
  }));

for (const lang of ['en', 'fa']) {
  test(`embedded in a 756×640 frame in ${lang}: no page scroll, with Send, the stage and the newest row in view; none at 480 px tall either`, () =>
    suite.withLab({ query: `?embed=1&lang=${lang}`, viewport: { width: 756, height: 640 }, settings: 'closed' }, async (page) => {
      assertOneScreen(await measure(page), 'empty');
      const send = page.locator('.request .buttons button.primary');
      for (let i = 0; i < 3; i += 1) await send.click();
      await skipToIdle(page);
      const m = await measure(page);
      assert.equal(m.newestId, '3');
      assertOneScreen(m, 'after three sends', { wholeRow: false });
      // Every drawer open: the settings' column scrolls by itself, the page does not.
      await page.getByTestId('show-all-settings').check();
      await page.setViewportSize({ width: 756, height: 480 });
      const short = await measure(page);
      assert.ok(short.scrollHeight <= short.height + 1, `480 px tall: the page does not scroll (${short.scrollHeight})`);
      assert.ok(within(short.stage, screen(short)) || short.stage.top < short.height, 'the stage starts in view');
    }));
}

test('the time slider takes the picture back to any moment and forward again, by keyboard', () =>
  suite.withLab({ query: '?lang=en', viewport: SCREEN, settings: 'closed' }, async (page) => {
    const slider = page.getByRole('slider', { name: 'History', exact: true });
    const now = async () => Number(await page.getByTestId('clock').getAttribute('data-now'));
    assert.equal(await slider.isDisabled(), true, 'nothing has happened yet');
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await send.click();
    await skipToIdle(page);
    await send.click();
    await skipToIdle(page);
    const end = await now();
    assert.ok(end > 0);
    assert.equal(await slider.getAttribute('max'), String(end));
    assert.equal(await page.getByTestId('history-end').count(), 0, 'at the end: nothing to go forward to');
    const rowsAtEnd = await page.locator('[data-testid="timeline-row"]').count();

    // Home: the first moment. The first request is on its way; the second not yet sent.
    await slider.focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').dataset.now === '0');
    assert.equal(await page.locator('[data-testid="timeline-row"]').count(), 1);
    assert.equal(await page.locator('[data-testid="stage-caller"][data-state="waiting"]').count(), 1);
    assert.equal(await page.locator('[data-testid="stage-token"][data-kind="request"]').count(), 1);
    assert.match(await slider.getAttribute('aria-valuetext'), /^0(\.0)? s of /);
    assert.match(await page.getByTestId('notice').textContent(), /clock is stopped at this earlier moment/);

    // End: the present again, the same rows.
    await page.keyboard.press('End');
    await page.waitForFunction((e) => document.querySelector('[data-testid="clock"]').dataset.now === String(e), end);
    assert.equal(await page.locator('[data-testid="timeline-row"]').count(), rowsAtEnd);
    assert.equal(await page.getByTestId('history-end').count(), 0);

    // Back, then something new: the rest of that history is gone, as after an undo.
    await page.keyboard.press('Home');
    await page.getByTestId('history-end').waitFor();
    await send.click();
    assert.equal(await page.getByRole('button', { name: 'Redo', exact: true }).getAttribute('aria-disabled'), 'true');
    assert.equal(await page.getByTestId('history-end').count(), 0);
  }));

test('a timeline row pointed at or focused marks its parts of the stage', () =>
  suite.withLab({ query: '?lang=en', viewport: SCREEN, settings: 'closed' }, async (page) => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.getByRole('button', { name: 'Retry (fresh key)', exact: true }).click();
    await skipToIdle(page);
    // The attempts whose parts are marked (its caller, and its tokens still on their way).
    const marked = () =>
      page.locator('[data-testid="stage"] [data-highlighted="true"][data-attempt]').evaluateAll((es) => [...new Set(es.map((e) => e.dataset.attempt))]);
    // The receipts marked: the operation's receipt, whichever attempt wrote it.
    const receiptsMarked = () =>
      page.locator('[data-testid="stage-receipt"][data-highlighted="true"]').evaluateAll((es) => es.map((e) => e.dataset.key));
    const keyOf = (n) => page.locator(`[data-testid="timeline-row"][data-attempt="${n}"] .key`).textContent();
    const callerMarked = (n) => page.locator(`[data-testid="stage-caller"][data-attempt="${n}"][data-highlighted="true"]`).count();
    assert.deepEqual(await marked(), []);
    assert.deepEqual(await receiptsMarked(), []);
    await page.locator('[data-testid="timeline-row"][data-attempt="2"]').hover();
    assert.deepEqual(await marked(), ['2']);
    assert.equal(await callerMarked(2), 1);
    assert.deepEqual(await receiptsMarked(), [await keyOf(2)]);
    await page.locator('[data-testid="timeline-row"][data-attempt="1"]').hover();
    assert.deepEqual(await marked(), ['1']);
    assert.equal(await callerMarked(1), 1);
    assert.deepEqual(await receiptsMarked(), [await keyOf(1)]);
    assert.notEqual(await keyOf(1), await keyOf(2));
    await page.mouse.move(5, 5);
    assert.deepEqual(await marked(), []);
    assert.deepEqual(await receiptsMarked(), []);
    // The way back: a caller brings its row into view and focus, and stays marked.
    await page.locator('[data-testid="stage-caller"][data-attempt="2"]').click();
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'timeline-row');
    await page.mouse.move(5, 5);
    assert.deepEqual(await marked(), ['2']);
  }));

test("a challenge's banner keeps the sandbox on one screen, nothing covers Send, and its Done is in view", () =>
  suite.withLab({ query: '?lang=en&scenario=s10&step=9', viewport: SCREEN, settings: 'closed' }, async (page) => {
    await page.getByRole('button', { name: 'Start the challenge', exact: true }).click();
    const banner = page.getByTestId('challenge');
    await banner.waitFor();
    // No floating message over the request: the banner says the challenge began.
    assert.equal(await page.getByTestId('notice').count(), 0);
    await page.getByRole('button', { name: 'Show me', exact: true }).click();
    await page.getByRole('button', { name: 'Retry (same key)', exact: true }).click();
    await skipToIdle(page);
    await page.locator('[data-testid="challenge"][data-met="true"]').waitFor();
    // A crashed process, a durable store and two broken promises fill the
    // stage: the timeline's box keeps its newest row's foot in view.
    const m = await measure(page);
    assertOneScreen(m, 'in a challenge', { wholeRow: false });
    const uncovered = await page.evaluate(() => {
      const send = document.querySelector('.request .buttons button.primary');
      const r = send.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === send;
    });
    assert.ok(uncovered, 'Send is not covered');
    const status = await banner.locator('.walk-status').boundingBox();
    assert.ok(status.y >= 0 && status.y + status.height <= SCREEN.height, `Done is in view ${JSON.stringify(status)}`);
    assert.match(await banner.locator('.walk-status').innerText(), /Done/);
  }));
