// End-to-end: a lecturer's hour. The whole course walked with a clicker alone
// (Page Down from section 1's first step to the last section's last), in both
// languages with presenter mode on; every question, its input, the reveal
// button and the revealed explanation on the screen (presenter mode on and off)
// at the sizes a room projects; an answer typed and sent with Enter gives the
// keys back to the clicker; Esc in the field leaves the field, not presenter
// mode. Reduced motion, so steps land at once: walking is the subject here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, ROOT } from './harness.mjs';

const suite = labSuite();
const scripts = JSON.parse(await readFile(join(ROOT, 'walkthrough', 'scenarios.json'), 'utf8'));
const sections = scripts.scenarios.map((s) => s.steps.length);

/** Waits until the page shows section `index` (from 0) at step `n` (from 1). */
async function at(page, index, n) {
  await page.locator(`[data-testid="step-counter"][data-step="${n}"][data-steps="${sections[index]}"]`).waitFor();
  await page.waitForFunction((i) => document.querySelector('[data-testid="scenario-select"]')?.value === String(i), index);
  await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
}

const focusPage = (page) => page.evaluate(() => { document.activeElement?.blur(); });
const presenterOn = (page) => page.evaluate(() => document.documentElement.classList.contains('presenter'));

/**
 * Whether the element is whole on the screen: inside the viewport and inside
 * every box between it and the page that clips what overflows it.
 */
function onScreen(page, selector) {
  return page.evaluate(whole, selector);
}

/** In the page: true when the element is whole on the screen, else why not. */
function whole(selector) {
  {
    const element = document.querySelector(selector);
    if (!element) return `${selector}: not on the page`;
    const rect = element.getBoundingClientRect();
    if (rect.height === 0) return `${selector}: no size`;
    let [top, bottom] = [0, window.innerHeight];
    for (let box = element.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (/(auto|scroll|hidden)/.test(style.overflowY)) {
        const clip = box.getBoundingClientRect();
        top = Math.max(top, clip.top);
        bottom = Math.min(bottom, clip.bottom);
      }
    }
    return rect.top >= top - 1 && rect.bottom <= bottom + 1
      ? true
      : `${selector}: ${Math.round(rect.top)}–${Math.round(rect.bottom)} outside ${Math.round(top)}–${Math.round(bottom)}`;
  }
}

/** A step's marked timeline row shows what the store did: the proof, on the screen. */
async function markedOutcomeOnScreen(page, where) {
  let selector = '[data-testid="timeline-row"][data-marked="true"] td.store .badge';
  if ((await page.locator(selector).count()) === 0) return;
  // Where the stage needs the whole column (two processes), the panels under
  // it have no room: the stage's own card for that attempt says its outcome.
  if ((await page.evaluate(() => document.querySelector('.columns').clientHeight)) < 64) {
    const attempt = await page.locator('[data-testid="timeline-row"][data-marked="true"]').first().getAttribute('data-attempt');
    selector = `[data-testid="stage-caller"][data-attempt="${attempt}"] .caller-state`;
  }
  // Once the step has brought it into view (it looks for a while after landing).
  let seen;
  for (let i = 0; i < 30; i++) {
    seen = await onScreen(page, selector);
    if (seen === true) break;
    await page.waitForTimeout(100);
  }
  if (seen !== true) seen += ` (the panels' region scrolled to ${await page.evaluate(() => document.querySelector('.columns').scrollTop)})`;
  assert.equal(seen, true, `${where}: the marked row's outcome`);
}

/** The question's parts a room must see before it answers. */
async function questionOnScreen(page, where) {
  for (const part of ['[data-testid="question"] h3', '#walk-question', '[data-testid="question"] input, [data-testid="question"] .walk-choices button:first-child', '[data-testid="question"] .walk-answer button:last-child, [data-testid="question"] .walk-choices button:last-child', '[data-testid="reveal-answer"]']) {
    assert.equal(await onScreen(page, part), true, where);
  }
}

/**
 * At a question: its parts on the screen with presenter mode off and on; then
 * revealed, the whole explanation on the screen, in both modes. Leaves
 * presenter mode on and the keys with the page.
 */
async function checkQuestion(page, where) {
  for (const presenter of [false, true]) {
    if ((await presenterOn(page)) !== presenter) await page.keyboard.press('p');
    await page.waitForFunction((on) => document.documentElement.classList.contains('presenter') === on, presenter);
    await questionOnScreen(page, `${where}, presenter ${presenter}`);
  }
  await page.getByTestId('reveal-answer').click();
  await page.getByTestId('revealed-answer').waitFor();
  await focusPage(page);
  for (const presenter of [true, false, true]) {
    if ((await presenterOn(page)) !== presenter) await page.keyboard.press('p');
    await page.waitForFunction((on) => document.documentElement.classList.contains('presenter') === on, presenter);
    await page.waitForTimeout(50);
    for (const part of ['#walk-question', '[data-testid="revealed-answer"]']) {
      assert.equal(await onScreen(page, part), true, `${where}, revealed, presenter ${presenter}`);
    }
  }
}

const WALKS = [
  { lang: 'en', viewport: { width: 1024, height: 768 }, scale: 1 },
  { lang: 'fa', viewport: { width: 1280, height: 720 }, scale: 1 },
  // A 1280×720 projector at 150 %.
  { lang: 'fa', viewport: { width: 853, height: 480 }, scale: 1.5 },
  { lang: 'en', viewport: { width: 853, height: 480 }, scale: 1.5 },
  { lang: 'fa', viewport: { width: 1024, height: 768 }, scale: 1 },
];

for (const { lang, viewport, scale } of WALKS) {
  test(`Page Down alone walks the whole course in ${lang} at ${viewport.width}×${viewport.height}×${scale}, every question on the screen`, () =>
    suite.withLab({ query: `?scenario=s1&step=1&lang=${lang}&presenter=1`, viewport, deviceScaleFactor: scale, reducedMotion: 'reduce' }, async (page) => {
      await at(page, 0, 1);
      assert.equal(await presenterOn(page), true);
      await focusPage(page);
      // Before the first step there is nothing: Page Up stays.
      await page.keyboard.press('PageUp');
      await at(page, 0, 1);
      for (const [index, script] of scripts.scenarios.entries()) {
        for (let n = 1; n <= script.steps.length; n++) {
          await at(page, index, n);
          await markedOutcomeOnScreen(page, `${script.id} step ${n}`);
          if (script.steps[n - 1].question) await checkQuestion(page, `${script.id} step ${n}`);
          assert.equal(await presenterOn(page), true, `${script.id} step ${n}: presenter mode stays on`);
          if (index === 1 && n === 1) {
            // Back over a section's start lands on the previous section's end.
            await page.keyboard.press('PageUp');
            await at(page, 0, sections[0]);
            await page.keyboard.press('PageDown');
            await at(page, 1, 1);
          }
          await page.keyboard.press('PageDown');
        }
      }
      // The course's end says so, and the clicker stays there.
      const last = sections.length - 1;
      await at(page, last, sections[last]);
      await page.getByTestId('course-done').waitFor();
      await page.keyboard.press('PageDown');
      await at(page, last, sections[last]);
      assert.match(page.url(), new RegExp(`scenario=${scripts.scenarios[last].id}&step=${sections[last]}`));
    }));
}

test('an answer sent with Enter gives the keys back to the clicker; Esc in the field leaves the field, not presenter mode', () =>
  suite.withLab({ query: '?scenario=s1&step=2&lang=fa&presenter=1', viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' }, async (page) => {
    await at(page, 0, 2);
    const answer = page.locator('#walk-answer');
    // Esc in the field: the field is left, presenter mode stays, and so does the address.
    await answer.click();
    await page.keyboard.press('Escape');
    assert.equal(await presenterOn(page), true, 'Esc in the field keeps presenter mode');
    assert.match(page.url(), /presenter=1/);
    assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'walk-answer', 'the field was left');
    // Typed and sent with Enter: judged, and the next Page Down steps on.
    await answer.fill('۲۰۰');
    await answer.press('Enter');
    assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'true');
    assert.equal(await onScreen(page, '[data-testid="feedback"]'), true);
    await page.keyboard.press('PageDown');
    await at(page, 0, 3);
    assert.equal(await presenterOn(page), true);
    // A number the lab cannot read keeps the field, to type again.
    await page.goto(`${suite.server.url}?scenario=s1&step=2&lang=en&presenter=1`);
    await at(page, 0, 2);
    await answer.fill('lots');
    await answer.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'walk-answer');
    // Esc away from any field leaves presenter mode, as the keys list says.
    await focusPage(page);
    await page.keyboard.press('Escape');
    assert.equal(await presenterOn(page), false);
    // A clicker's start button (F5) turns it on again, without reloading the lesson.
    await page.evaluate(() => { window.sameLesson = true; });
    await page.keyboard.press('F5');
    await page.waitForFunction(() => document.documentElement.classList.contains('presenter'));
    assert.equal(await page.evaluate(() => window.sameLesson), true, 'not reloaded');
    await page.keyboard.press('F5');
    assert.equal(await presenterOn(page), true, 'F5 again keeps it on');
    await at(page, 0, 2);
    // The clicker reaches through the answer field: the field is left, the step moves.
    await answer.click();
    await page.keyboard.press('PageDown');
    await at(page, 0, 3);
    assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'walk-answer');
  }));

test("Show me leads to the end of every section's challenge: it says the move it left, and pressed again makes it", () =>
  suite.withLab({ query: '?lang=en', reducedMotion: 'reduce' }, async (page) => {
    for (const [index, script] of scripts.scenarios.entries()) {
      await page.goto(`${suite.server.url}?scenario=${script.id}&step=${sections[index]}&lang=en`);
      await page.waitForSelector('body[data-settled="true"]');
      await at(page, index, sections[index]);
      await page.getByRole('button', { name: 'Start the challenge' }).click();
      const banner = page.getByTestId('challenge');
      await banner.waitFor();
      assert.equal(await banner.getAttribute('data-met'), 'false', script.id);
      await page.getByRole('button', { name: 'Show me' }).click();
      // The move left is said on the screen, until it is made.
      await page.locator('[data-testid="move-left"]:not(:empty)').waitFor();
      assert.match(await page.getByTestId('move-left').innerText(), /^Left for you: .+\. Make that move yourself, or press Show me again\.$/, script.id);
      assert.equal(await banner.getAttribute('data-met'), 'false', `${script.id}: not met before the last move`);
      await page.getByRole('button', { name: 'Show me' }).click();
      await page.locator('[data-testid="challenge"][data-met="true"]').waitFor();
      assert.equal(await page.getByTestId('move-left').innerText(), '', `${script.id}: nothing left once made`);
    }
  }));

test('one truth at a time: a promise an earlier step broke is told by its step, a marked promise is drawn on the stage, and the retention note says why it broke', () =>
  suite.withLab({ query: '?scenario=s10&step=9&lang=en', viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' }, async (page) => {
    const panel = page.getByTestId('invariant-at-most-once');
    const stage = page.locator('[data-testid="stage-promise"][data-invariant="at-most-once"]');
    const sized = async (locator) => {
      const box = await locator.boundingBox();
      return box !== null && box.width > 0 && box.height > 0;
    };
    await at(page, 9, 9);
    // The fold's judgement stands (broken), told as broken at step 6, not now.
    assert.equal(await panel.getAttribute('data-holds'), 'false');
    assert.equal(await panel.getAttribute('data-broken-step'), '6');
    assert.match(await panel.innerText(), /Broken at step 6, not since/);
    assert.equal(await stage.getAttribute('data-marked'), 'true');
    assert.ok(await sized(stage), 'the marked promise is drawn on the stage');
    assert.match(await stage.innerText(), /Broken at step 6, not since/);
    // At the step that breaks it, it is broken now.
    await page.goto(`${suite.server.url}?scenario=s10&step=6&lang=en`);
    await at(page, 9, 6);
    assert.equal(await panel.getAttribute('data-broken-step'), null);
    assert.match(await panel.innerText(), /Broken$/m);
    assert.ok(await sized(stage));
    // s11: the receipt was swept before the retry came: the note says so.
    await page.goto(`${suite.server.url}?scenario=s11&step=2&lang=en`);
    await at(page, 10, 2);
    assert.match(await page.getByTestId('receipts-expired').innerText(), /that is why “at most once” broke/);
    assert.ok(await sized(page.locator('[data-testid="stage-promise"][data-invariant="at-most-once"]')));
  }));

/** In the page: the smallest rendered font size (zoom included) of the stage's visible text under each selector. */
function smallestFont(selectors) {
  const out = {};
  for (const selector of selectors) {
    let least = Infinity;
    for (const element of document.querySelectorAll(`.panel.stage ${selector}`)) {
      const rect = element.getBoundingClientRect();
      if (!rect.width || !rect.height || !element.textContent.trim()) continue;
      least = Math.min(least, parseFloat(getComputedStyle(element).fontSize) * (element.currentCSSZoom ?? 1));
    }
    out[selector] = least;
  }
  return out;
}

// The busiest pictures of the course: a crowd waiting, two processes with their
// memories, a durable store beside two processes, receipts swept.
for (const lang of ['fa', 'en']) {
  test(`presenter mode at 1280×720 draws the stage for the back row (${lang}): labels of 20 px, the rest of 16, on one screen`, () =>
    suite.withLab({ query: `?scenario=s5&step=2&lang=${lang}&presenter=1`, viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' }, async (page) => {
      const labels = ['.caller-head', '.stage-part-title', '.table-name', '.stage-balance', '.stage-receipt', '.stage-consumer', '.stage-waiting'];
      const secondary = ['.caller-state', '.mark', '.stage-queue-count', '.stage-sub-title', '.stage-promise', '.stage-deadline', '.lane-more'];
      for (const [id, step] of [['s5', 2], ['s6', 6], ['s10', 6], ['s10', 9], ['s11', 7]]) {
        const index = scripts.scenarios.findIndex((s) => s.id === id);
        await page.goto(`${suite.server.url}?scenario=${id}&step=${step}&lang=${lang}&presenter=1`);
        await at(page, index, step);
        const sizes = await page.evaluate(smallestFont, [...labels, ...secondary]);
        for (const selector of labels) assert.ok(sizes[selector] >= 20, `${id} step ${step}: ${selector} at ${sizes[selector]} px`);
        for (const selector of secondary) assert.ok(sizes[selector] >= 16, `${id} step ${step}: ${selector} at ${sizes[selector]} px`);
        const stage = await page.locator('.panel.stage').boundingBox();
        assert.ok(stage.y >= 0 && stage.y + stage.height <= 720, `${id} step ${step}: the stage spans ${stage.y}–${stage.y + stage.height}`);
      }
    }));
}

test('a section is named whole where the list stands, and the list still opens from it', () =>
  suite.withLab({ query: '?scenario=s10&step=1&lang=en&presenter=1', viewport: { width: 1024, height: 768 }, reducedMotion: 'reduce' }, async (page) => {
    await at(page, 9, 1);
    const shown = page.getByTestId('section-title');
    const select = page.getByTestId('scenario-select');
    const chosen = await select.evaluate((s) => s.selectedOptions[0].textContent);
    assert.equal((await shown.innerText()).trim(), chosen.trim());
    // Nothing of it cut: no ellipsis, no overflow, every line inside the viewport.
    assert.ok(await shown.evaluate((e) => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1), 'the title fits its box');
    assert.equal(await onScreen(page, '[data-testid="section-title"]'), true);
    // The list lies over the title: a click on the title is the list's.
    const box = await shown.boundingBox();
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.id, [box.x + box.width / 2, box.y + box.height / 2]);
    assert.equal(hit, 'walk-scenario');
    await select.selectOption('1');
    await at(page, 1, 1);
    assert.match(await shown.innerText(), /^2\. A timeout says nothing about the outcome/);
    // Focus on the unseen list shows its ring on the title.
    await select.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.notEqual(await shown.evaluate((e) => getComputedStyle(e).outlineStyle), 'none');
  }));

test('the picture names people as the Persian narration does, and the request keeps the account id beside', () =>
  suite.withLab({ query: '?scenario=s6&step=6&lang=fa', viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' }, async (page) => {
    await at(page, 5, 6);
    assert.match(await page.locator('.walk-narration').innerText(), /آلیس/);
    const who = await page.locator('[data-testid="stage-caller"] .caller-who').allInnerTexts();
    assert.ok(who.length > 0 && who.every((name) => name === 'آلیس'), who.join(', '));
    assert.match(await page.locator('.stage-balance').first().innerText(), /آلیس/);
    assert.doesNotMatch(await page.locator('.panel.stage').innerText(), /\balice\b/);
    const request = page.locator('[data-testid="timeline-row"] td.request').first();
    assert.match(await request.innerText(), /آلیس alice/);
  }));

test('the picture draws what the narration says: a paused consumer is drawn paused, in both languages', () =>
  suite.withLab({ query: '?scenario=s5&step=1&lang=en', viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' }, async (page) => {
    await at(page, 4, 1);
    assert.match(await page.locator('.walk-narration').innerText(), /consumer is paused/);
    const consumer = page.getByTestId('stage-consumer');
    assert.equal(await consumer.getAttribute('data-paused'), 'true');
    assert.match(await consumer.innerText(), /Consumer paused/);
    assert.match(await consumer.getAttribute('aria-label'), /paused/);
    await page.goto(`${suite.server.url}?scenario=s5&step=1&lang=fa`);
    await at(page, 4, 1);
    assert.match(await page.locator('.walk-narration').innerText(), /مصرف‌کننده متوقف است/);
    assert.match(await consumer.innerText(), /مصرف‌کننده متوقف/);
    // Released at step 3, it works again and is drawn so.
    await page.goto(`${suite.server.url}?scenario=s5&step=3&lang=en`);
    await at(page, 4, 3);
    assert.equal(await consumer.getAttribute('data-paused'), null);
  }));
