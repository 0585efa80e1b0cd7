// End-to-end: the lesson tells the truth on screen. At a projector's 1024×768
// and 1280×720, and at 150 % zoom, in presenter mode, in English and Persian,
// at every step of every scenario:
// every number the narration names is visible, in the page's digits or not,
// inside a part of the picture the step marks as its proof (not scrolled
// away, not under something else); so is every number of a question's
// revealed answer once the next step shows its proof; and the chart, when it
// is shown, names the same balance as the store for its account. A marked
// timeline row in view has its timeline's heading in view too, where both fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, DIST } from './harness.mjs';

const suite = labSuite();
const scripts = JSON.parse(await readFile(join(DIST, 'walkthrough', 'scenarios.json'), 'utf8'));

/** The numbers in `text` that no marked part shows where the room can see them. */
const unproved = (page, text) =>
  page.evaluate((text) => {
    // Persian and Arabic-Indic digits read as ASCII; one character each, so
    // offsets in the read text are offsets in the page's.
    const ascii = (s) =>
      s.replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x6f0)).replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660));
    const numbers = [...new Set([...ascii(text).matchAll(/\d+/g)].map((m) => m[0]))];
    // A box the room sees: inside the window and every box that clips it,
    // and the topmost thing at its middle is the text's own element.
    const seen = (rect, element) => {
      // Text for screen readers only is a pixel wide: no one in the room reads it.
      if (rect.width < 3 || rect.height < 6) return false;
      const within = (outer) => rect.top >= outer.top - 1 && rect.bottom <= outer.bottom + 1 && rect.left >= outer.left - 1 && rect.right <= outer.right + 1;
      if (!within({ top: 0, left: 0, bottom: innerHeight, right: innerWidth })) return false;
      // Its own box too: text a screen reader gets is clipped to a pixel by its own element.
      for (let a = element; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if ((style.overflowX !== 'visible' || style.overflowY !== 'visible') && !within(a.getBoundingClientRect())) return false;
      }
      const hit = document.elementFromPoint((rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2);
      return !!hit && (hit === element || element.contains(hit) || hit.contains(element));
    };
    const marked = [...document.querySelectorAll('[data-marked="true"]')];
    const shown = (n) =>
      marked.some((part) => {
        const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of ascii(node.data).matchAll(/\d+/g)) {
            if (m[0] !== n) continue;
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + n.length);
            if ([...range.getClientRects()].some((r) => seen(r, node.parentElement))) return true;
          }
        }
        return false;
      });
    return numbers.filter((n) => !shown(n));
  }, text);

/** The chart's account and newest balance, when it is in view, against the store's. */
const chartAgainstStore = (page) =>
  page.evaluate(() => {
    const chart = document.querySelector('[data-testid="chart"]');
    if (!chart || chart.getClientRects().length === 0 || !chart.dataset.lastBalance) return null;
    const account = chart.dataset.account;
    const balance = [...document.querySelectorAll('[data-testid="stage-store"] .stage-balance')].find((b) => b.dataset.account === account);
    if (!balance) return `the chart names ${account}, which no store shows`;
    return balance.dataset.balance === chart.dataset.lastBalance
      ? null
      : `the chart ends ${account} at ${chart.dataset.lastBalance}, the store shows ${balance.dataset.balance}`;
  });

/**
 * A marked timeline row brought into view with the timeline's heading (its
 * title and count) scrolled away, where the two fit the region together.
 */
const rowWithoutHeading = (page) =>
  page.evaluate(() => {
    const row = document.querySelector('[data-testid="timeline-row"][data-marked="true"]');
    const region = row?.closest('.columns');
    const heading = document.getElementById('timeline-title');
    if (!row || !region || !heading) return null;
    const [area, r, h] = [region, row, heading].map((e) => e.getBoundingClientRect());
    const seen = (b) => b.top >= area.top - 1 && b.bottom <= area.bottom + 1;
    if (!seen(r) || seen(h)) return null;
    // Together with the 8 px the page leaves above what it scrolls to.
    return r.bottom - h.top + 8 <= area.height ? `the marked row ${row.dataset.attempt} is in view, its timeline's heading is not` : null;
  });

// A projector's two common sizes, and 1280×720 zoomed to 150 % (853×480 CSS
// pixels at 1.5 device pixels each).
const SCREENS = [[1024, 768, 1], [1280, 720, 1], [853, 480, 1.5]];

for (const lang of ['en', 'fa']) for (const [width, height, zoom] of SCREENS) {
  const screen = zoom === 1 ? `${width}×${height}` : `${width}×${height} (1280×720 at 150 %)`;
  test(`every number the lesson names is in view in the step's proof, presenter mode at ${screen}, in ${lang}`, () =>
    suite.withLab({ query: `?scenario=s1&step=1&lang=${lang}&presenter=1`, viewport: { width, height }, deviceScaleFactor: zoom }, async (page) => {
      await page.waitForSelector('html.presenter');
      const problems = [];
      let named = 0;
      for (const [index, scenario] of scripts.scenarios.entries()) {
        await page.getByTestId('scenario-select').selectOption(String(index));
        // The revealed answer of the step before, proved by this one.
        let answered = null;
        for (let step = 1; step <= scenario.steps.length; step++) {
          const where = `${lang} ${scenario.id} step ${step}`;
          if (step > 1) await page.locator('.walk-controls button.primary').click();
          await page.locator(`[data-testid="step-counter"][data-step="${step}"][data-steps="${scenario.steps.length}"]`).waitFor();
          // Its time played to the end: the picture as the step leaves it.
          await page.locator('.walk-controls button').nth(2).evaluate((b) => b.getAttribute('aria-disabled') === 'false' && b.click());
          await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
          // The first mark among the panels is brought into view once drawn.
          await page.waitForTimeout(150);
          const narration = await page.getByTestId('narration').textContent();
          named += (narration.match(/[0-9\u06F0-\u06F9]+/g) ?? []).length;
          for (const n of await unproved(page, narration)) problems.push(`${where}: ${n} is named, and no marked part shows it in view`);
          if (answered) {
            for (const n of await unproved(page, answered)) problems.push(`${where}: ${n} of the answer revealed before is not in view in this step's proof`);
          }
          const chart = await chartAgainstStore(page);
          if (chart) problems.push(`${where}: ${chart}`);
          const heading = await rowWithoutHeading(page);
          if (heading) problems.push(`${where}: ${heading}`);
          answered = null;
          const reveal = page.getByTestId('reveal-answer');
          if (await reveal.count()) {
            await reveal.click();
            answered = await page.getByTestId('revealed-answer').textContent();
          }
        }
      }
      assert.ok(named > 40, `only ${named} numbers named`);
      assert.deepEqual(problems, []);
    }));
}

test('a number no marked part shows in view is found', () =>
  suite.withLab({ query: '?scenario=s1&step=2&lang=en&presenter=1', viewport: { width: 1024, height: 768 } }, async (page) => {
    await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
    await page.waitForSelector('.stage-balance[data-marked="true"]');
    const balance = await page.locator('[data-testid="stage-store"] .stage-balance[data-account="alice"]').getAttribute('data-balance');
    assert.deepEqual(await unproved(page, `alice has ${balance}`), []);
    // A number nothing shows, and one shown only outside the marks.
    assert.deepEqual(await unproved(page, 'alice has 4321'), ['4321']);
    assert.deepEqual(await unproved(page, 'the queue holds 16'), ['16']);
    // Covered by something else, it is not seen.
    await page.evaluate(() => {
      const cover = document.createElement('div');
      Object.assign(cover.style, { position: 'fixed', inset: '0', background: 'black', zIndex: 99 });
      document.body.append(cover);
    });
    assert.deepEqual(await unproved(page, `alice has ${balance}`), [balance]);
  }));

test('text only a screen reader gets is no proof: a full queue names its attempts that way', () =>
  suite.withLab({ query: '?scenario=s5&step=2&lang=en&presenter=1', viewport: { width: 1024, height: 768 } }, async (page) => {
    await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
    await page.waitForSelector('.stage-queue-count[data-marked="true"]');
    assert.match(await page.locator('[data-testid="stage-queue-slot"][data-attempt="7"] .visually-hidden').textContent(), /7/);
    assert.deepEqual(await unproved(page, 'the queue holds 16, attempt 7 among them'), ['7']);
  }));
