// End-to-end: the walkthrough fits one screen. At a projector's 1024×768 and
// 1280×720, and 1280×720 zoomed to 150 % (853×480 at 1.5 device pixels),
// presenter mode on and off, in English and Persian, light and dark, at every
// step of every scenario: the page does not scroll, the narration (whole), the
// step buttons and the stage are in view (zoomed, the stage's top: a taller
// stage scrolls inside its column), the stage beside the narration. On a
// phone the narration and the stage come first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, DIST } from './harness.mjs';

const suite = labSuite();
const scripts = JSON.parse(await readFile(join(DIST, 'walkthrough', 'scenarios.json'), 'utf8'));

/** What a projected screen shows now: the page's overflow and where the parts stand. */
const measure = (page) =>
  page.evaluate(() => {
    const box = (selector) => {
      const e = document.querySelector(selector);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const narration = document.querySelector('[data-testid="narration"]');
    return {
      height: innerHeight,
      width: innerWidth,
      scrollHeight: document.scrollingElement.scrollHeight,
      narration: box('[data-testid="narration"]'),
      narrationCut: narration.scrollHeight > narration.clientHeight + 1,
      stage: box('[data-testid="stage"]'),
      next: box('.walk-controls button.primary'),
      counter: document.querySelector('[data-testid="step-counter"]').textContent,
    };
  });

const inView = (b, m) => b && b.top >= -1 && b.bottom <= m.height + 1 && b.left >= -1 && b.right <= m.width + 1;

/** Steps through every step of every scenario, calling `check` at each. */
async function everyStep(page, lang, check) {
  for (const [index, scenario] of scripts.scenarios.entries()) {
    await page.getByTestId('scenario-select').selectOption(String(index));
    for (let step = 1; step <= scenario.steps.length; step++) {
      if (step > 1) await page.locator('.walk-controls button.primary').click();
      await page.locator(`[data-testid="step-counter"][data-step="${step}"][data-steps="${scenario.steps.length}"]`).waitFor();
      // Its time played to the end: the picture as the step leaves it.
      // Read and pressed in one go: the step may end between a read and a click.
      await page.locator('.walk-controls button').nth(2).evaluate((b) => b.getAttribute('aria-disabled') === 'false' && b.click());
      await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
      await check(await measure(page), `${lang} ${scenario.id} step ${step}`);
    }
  }
}

/** Side by side: the stage stands to one side of the narration, not under it. */
const beside = (m) => m.stage.left >= m.narration.right - 1 || m.stage.right <= m.narration.left + 1;

for (const lang of ['en', 'fa']) {
  for (const [width, height, zoom] of [[1024, 768, 1], [1280, 720, 1], [853, 480, 1.5]]) {
    for (const presenter of [false, true]) {
      // Presenter mode is checked dark, the rest light: the layout is the same in both.
      const colorScheme = presenter ? 'dark' : 'light';
      const screen = zoom === 1 ? `${width}×${height}` : `${width}×${height} (1280×720 at 150 %)`;
      test(`one screen at ${screen}, presenter ${presenter ? 'on' : 'off'} (${colorScheme}), in ${lang}: every step`, () =>
        suite.withLab({ query: `?scenario=s1&step=1&lang=${lang}`, viewport: { width, height }, deviceScaleFactor: zoom, colorScheme }, async (page) => {
          await page.getByTestId('narration').waitFor();
          if (presenter) {
            await page.locator('.walk-tools button[aria-pressed]').click();
            await page.waitForSelector('html.presenter');
          }
          const problems = [];
          await everyStep(page, lang, (m, where) => {
            if (m.scrollHeight > m.height + 1) problems.push(`${where}: the page scrolls (${m.scrollHeight} in ${m.height})`);
            if (!inView(m.narration, m) || m.narrationCut) problems.push(`${where}: the narration is not whole in view ${JSON.stringify(m.narration)}`);
            // Zoomed, a stage taller than the screen scrolls inside its column.
            const stageSeen = zoom === 1 ? inView(m.stage, m) : m.stage && m.stage.top >= -1 && m.stage.top < m.height / 2;
            if (!stageSeen) problems.push(`${where}: the stage is not ${zoom === 1 ? 'whole ' : ''}in view ${JSON.stringify(m.stage)}`);
            if (!inView(m.next, m)) problems.push(`${where}: Next step is out of view`);
            if (m.stage && m.narration && !beside(m)) problems.push(`${where}: the stage is not beside the narration ${JSON.stringify([m.narration, m.stage])}`);
          });
          assert.deepEqual(problems, []);
        }));
    }
  }
  test(`on a phone, in ${lang}: the narration and the stage are at the top at every step`, () =>
    suite.withLab({ query: `?scenario=s1&step=1&lang=${lang}`, viewport: { width: 390, height: 844 } }, async (page) => {
      await page.getByTestId('narration').waitFor();
      const problems = [];
      await everyStep(page, lang, async (m, where) => {
        const top = await page.evaluate(() => scrollY);
        const at = (b) => b && { ...b, top: b.top + top, bottom: b.bottom + top };
        const page0 = { ...m, height: m.height };
        if (!inView(at(m.narration), page0)) problems.push(`${where}: the narration is not in the first screen ${JSON.stringify(at(m.narration))}`);
        if (!inView(at(m.stage), page0)) problems.push(`${where}: the stage is not in the first screen ${JSON.stringify(at(m.stage))}`);
      });
      assert.deepEqual(problems, []);
    }));
}
