// End-to-end: a teacher's own scenario (issue 30). Recorded in the page from
// the sandbox (two steps, a fact, a question), shared by link and as a file,
// opened in a fresh browser, played in the walkthrough's player to its end
// with the question judged from the world; a hostile file refused with its
// reason and the lab unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, ARTIFACTS, skipToIdle, balanceOf, openLab } from './harness.mjs';

const suite = labSuite();

/** Records the two-step scenario of the tests, and returns its link. */
async function record(page) {
  const panel = page.getByTestId('teacher-panel');
  await panel.getByTestId('record-scenario').click();
  await page.getByLabel('Lose acknowledgement').check();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await skipToIdle(page);
  // A fact is picked, with its value, and goes into the narration.
  const fact = panel.getByTestId('rec-fact');
  assert.match(await fact.locator('option[value="balance:account-7"]').textContent(), /balance:account-7 = 100/);
  await panel.getByTestId('rec-narration-en').fill('The grant was applied but its answer was lost: the balance is');
  await fact.selectOption('balance:account-7');
  await panel.getByTestId('insert-fact').click();
  assert.equal(
    await panel.getByTestId('rec-narration-en').inputValue(),
    'The grant was applied but its answer was lost: the balance is {balance:account-7}',
  );
  await panel.getByTestId('rec-narration-fa').fill('پاسخ گم شد؛ مانده {balance:account-7} است.');
  await panel.getByTestId('rec-ask').check();
  await panel.getByTestId('rec-question-fact').selectOption('balance:account-7');
  await panel.getByTestId('rec-question-en').fill('The job retries with the same key. What will the balance be?');
  await panel.getByTestId('rec-question-fa').fill('کار با همان کلید دوباره می‌فرستد. مانده چه خواهد شد؟');
  await panel.getByTestId('rec-explain-en').fill('Still {balance:account-7}: the store knew the key.');
  await panel.getByTestId('mark-step').click();
  await page.locator('[data-testid="recording-status"][data-steps="1"]').waitFor();
  assert.equal(await panel.getByTestId('rec-narration-en').inputValue(), '', 'the fields are ready for the next step');
  // A step whose narration types a number is refused, and says why.
  await page.getByRole('button', { name: 'Retry (same key)' }).click();
  await skipToIdle(page);
  await panel.getByTestId('rec-narration-en').fill('The retry got 100 points.');
  await panel.getByTestId('rec-narration-fa').fill('همان رسید.');
  await panel.getByTestId('mark-step').click();
  assert.match(await panel.getByTestId('teacher-said').textContent(), /^English narration: the digit “1” is typed; insert a fact instead/);
  assert.equal(await page.getByTestId('recording-status').getAttribute('data-steps'), '1', 'nothing marked');
  await panel.getByTestId('rec-narration-en').fill('The retry got the first receipt back: {balance:account-7}.');
  await panel.getByTestId('mark-step').click();
  await page.locator('[data-testid="recording-status"][data-steps="2"]').waitFor();
  await panel.getByTestId('rec-title-en').fill('A lost answer, retried');
  await panel.getByTestId('rec-title-fa').fill('پاسخ گم‌شده، دوباره');
  await panel.getByTestId('finish-recording').click();
  await panel.getByTestId('teacher-said').waitFor();
  assert.equal(await panel.getByTestId('teacher-said').textContent(), 'Saved to your scenarios.');
  assert.match(await panel.getByTestId('link-size').textContent(), /A link holds up to 12,000 characters; this one has [\d,]+\./);
  assert.equal(await panel.getByTestId('my-scenario').count(), 1);
  return panel.getByTestId('teacher-link').inputValue();
}

/** Plays the opened scenario to its end, answering its question. */
async function playThrough(page, { lang = 'en' } = {}) {
  const title = page.getByTestId('walk-guest');
  await title.waitFor();
  assert.match(await title.textContent(), lang === 'en' ? /Teacher's scenario: A lost answer, retried/ : /سناریوی معلم: پاسخ گم‌شده، دوباره/);
  const counter = page.getByTestId('step-counter');
  assert.equal(await counter.getAttribute('data-steps'), '2');
  assert.match(await page.getByTestId('narration').textContent(), lang === 'en' ? /the balance is 100$/ : /مانده ۱۰۰ است/);
  // The question is judged from the world after the next step.
  const question = page.getByTestId('question');
  const input = question.getByRole('textbox');
  await input.fill('200');
  await question.getByRole('button').first().click();
  assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'false');
  await input.fill(lang === 'en' ? '100' : '۱۰۰');
  await question.getByRole('button').first().click();
  assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'true');
  if (lang === 'en') assert.match(await page.getByTestId('explain').textContent(), /Still 100: the store knew the key\./);
  await page.getByRole('button', { name: lang === 'en' ? 'Next step' : 'گام بعد', exact: true }).click();
  await page.locator('[data-testid="step-counter"][data-step="2"]').waitFor();
  assert.match(await page.getByTestId('narration').textContent(), lang === 'en' ? /first receipt back: 100\./ : /همان رسید\./);
}

test('a scenario recorded in the page, shared by link, plays in a fresh browser with its question judged', () =>
  suite.withLab({}, async (page) => {
    const link = await record(page);
    assert.match(link, /#teach=[A-Za-z0-9_-]+$/);
    assert.ok(link.startsWith(suite.server.origin), 'the full lab, on this origin');
    await page.screenshot({ path: join(ARTIFACTS, 'teacher-recorded-en.png'), fullPage: true });
    // A fresh browser: nothing kept, the link alone.
    const stubPrint = () => {
      window.print = () => { window.printed = (window.printed ?? 0) + 1; };
    };
    const fresh = await openLab(suite.browser, suite.server, { query: link.slice(suite.server.url.length), initScript: stubPrint });
    try {
      await playThrough(fresh.page);
      await fresh.page.screenshot({ path: join(ARTIFACTS, 'teacher-player-en.png') });
      // Its handout: the teacher's copy, with the answer read from the world.
      await fresh.page.getByTestId('print-teacher').click();
      await fresh.page.waitForFunction(() => window.printed === 1);
      const sheet = fresh.page.getByTestId('handout');
      assert.equal(await sheet.getAttribute('data-scenario'), 'teacher');
      assert.match(await sheet.locator('h1').textContent(), /A lost answer, retried/);
      assert.match(await fresh.page.getByTestId('handout-key').textContent(), /Question 1: 100 Still 100: the store knew the key\./);
      // The sandbox is untouched, and the scenario is kept in this browser too.
      await fresh.page.getByRole('button', { name: 'Back to the sandbox' }).click();
      assert.equal(await fresh.page.getByTestId('timeline-row').count(), 0);
      const kept = fresh.page.getByTestId('teacher-panel').getByTestId('my-scenario');
      await kept.waitFor();
      assert.match(await kept.textContent(), /A lost answer, retried/);
      assert.doesNotMatch(fresh.page.url(), /#teach=/, 'a reload opens the sandbox');
      assert.deepEqual(fresh.problems(), []);
    } finally {
      await fresh.context.close();
    }
  }));

test('the same scenario as a file, opened in Persian; a hostile file is refused whole and changes nothing', () =>
  suite.withLab({}, async (page) => {
    await record(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('teacher-share').getByTestId('download-scenario').click(),
    ]);
    assert.match(download.suggestedFilename(), /^a-lost-answer-retried\.idempotency-lab\.json$/);
    const path = join(ARTIFACTS, 'teacher-scenario.json');
    await download.saveAs(path);
    const file = JSON.parse(await readFile(path, 'utf8'));
    assert.equal(file.format, 'idempotency-lab-scenario');
    assert.equal(file.version, 2);
    assert.deepEqual(Object.keys(file.languages), ['en', 'fa']);
    assert.equal(file.scripts.scenarios[0].steps.length, 2);
    // Hostile: markup in a narration. Refused with the reason; the list and lab stay.
    const hostile = structuredClone(file);
    hostile.languages.en.scenarios.teacher.steps[0].narration = '<img src=x onerror="window.pwned=1">';
    const hostilePath = join(ARTIFACTS, 'teacher-hostile.json');
    await writeFile(hostilePath, JSON.stringify(hostile));
    const fresh = await openLab(suite.browser, suite.server, { query: '?lang=fa' });
    try {
      const p = fresh.page;
      const panel = p.getByTestId('teacher-panel');
      await p.getByLabel('ارسال', { exact: true }).count();
      const before = await p.getByTestId('timeline-row').count();
      await panel.getByTestId('open-scenario-file').setInputFiles(hostilePath);
      const said = panel.getByTestId('teacher-said');
      await said.waitFor();
      assert.equal(await said.getAttribute('data-error'), 'true');
      assert.match(await said.textContent(), /این سناریو باز نشد.*گام ۱ نشانه‌گذاری \(markup\) دارد/);
      assert.equal(await panel.getByTestId('my-scenario').count(), 0);
      assert.equal(await p.evaluate(() => window.pwned), undefined);
      assert.equal(await p.getByTestId('timeline-row').count(), before);
      assert.equal(await p.getByTestId('walk-guest').count(), 0, 'nothing plays');
      // The good file opens in the player, in Persian.
      await panel.getByTestId('open-scenario-file').setInputFiles(path);
      await playThrough(p, { lang: 'fa' });
      await p.screenshot({ path: join(ARTIFACTS, 'teacher-player-fa.png') });
      assert.deepEqual(fresh.problems(), []);
    } finally {
      await fresh.context.close();
    }
  }));

test('a kept scenario opens again in the recorder with its lab; the list exports and reads back whole; 10 MB is refused unread', () =>
  suite.withLab({}, async (page) => {
    await record(page);
    const panel = page.getByTestId('teacher-panel');
    // Edit: the recorder again, its two steps marked, its last step's lab in the sandbox.
    await page.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await page.getByTestId('timeline-row').count(), 0);
    await panel.getByTestId('edit-scenario').click();
    await page.locator('[data-testid="recording-status"][data-steps="2"]').waitFor();
    assert.equal(await page.getByTestId('timeline-row').count(), 2, 'the scenario\'s lab');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    assert.equal(await panel.getByTestId('rec-title-en').inputValue(), 'A lost answer, retried');
    // A third step, and Finish puts the scenario back in its place.
    await page.getByRole('button', { name: 'Retry (fresh key)' }).click();
    await skipToIdle(page);
    await panel.getByTestId('rec-narration-en').fill('A fresh key is a new operation: {balance:account-7}.');
    await panel.getByTestId('rec-narration-fa').fill('کلید تازه عملیاتی تازه است: {balance:account-7}.');
    await panel.getByTestId('mark-step').click();
    await page.locator('[data-testid="recording-status"][data-steps="3"]').waitFor();
    await panel.getByTestId('finish-recording').click();
    await panel.getByTestId('teacher-share').waitFor();
    assert.equal(await panel.getByTestId('my-scenario').count(), 1, 'edited in its place');
    assert.match(await panel.getByTestId('my-scenario').textContent(), /3 steps/);
    // Export all, then read back into a fresh browser: the same list.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export all' }).click(),
    ]);
    const path = join(ARTIFACTS, 'teacher-scenarios.json');
    await download.saveAs(path);
    const fresh = await openLab(suite.browser, suite.server, {});
    try {
      const other = fresh.page.getByTestId('teacher-panel');
      // Too large to be a scenario or a list: refused before it is read.
      await other.getByTestId('open-scenario-file').setInputFiles({
        name: 'huge.json',
        mimeType: 'application/json',
        buffer: Buffer.alloc(10 << 20, 0x20),
      });
      await other.getByTestId('teacher-said').waitFor();
      assert.match(await other.getByTestId('teacher-said').textContent(), /not opened, and nothing changed: the file is 10,485,760 bytes; a scenario may be at most 3,276,800 bytes\./);
      assert.equal(await other.getByTestId('my-scenario').count(), 0);
      await other.getByTestId('open-scenario-file').setInputFiles(path);
      await fresh.page.getByTestId('walk-guest').waitFor();
      assert.equal(await fresh.page.getByTestId('step-counter').getAttribute('data-steps'), '3');
      await fresh.page.getByRole('button', { name: 'Back to the sandbox' }).click();
      assert.equal(await other.getByTestId('my-scenario').count(), 1);
      assert.deepEqual(fresh.problems(), []);
    } finally {
      await fresh.context.close();
    }
  }));
