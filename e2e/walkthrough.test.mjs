// End-to-end: the classroom walkthrough. Every scenario opened by deep link in both
// languages, stepped to its end by keyboard only and back to step 1 with the same
// lab; questions answered right and wrong; a link to what does not exist refused;
// "Try it yourself", a challenge checked by the lab, presenter mode, embedding,
// shortcuts that can be turned off, and progress kept across a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labSuite, skipToIdle, rows, lastRow, withSettings, ARTIFACTS } from './harness.mjs';

const suite = labSuite();
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const scripts = JSON.parse(await readFile(join(ROOT, 'walkthrough', 'scenarios.json'), 'utf8'));
const words = {
  en: JSON.parse(await readFile(join(ROOT, 'walkthrough', 'en.json'), 'utf8')),
  fa: JSON.parse(await readFile(join(ROOT, 'walkthrough', 'fa.json'), 'utf8')),
};

const T = {
  en: { next: 'Next step', previous: 'Previous step', restart: 'Restart scenario', tryIt: 'Try it yourself', presenter: 'Presenter mode', close: 'Back to the sandbox', forward: 'ArrowRight', backward: 'ArrowLeft' },
  fa: { next: 'گام بعد', previous: 'گام قبل', restart: 'شروع دوباره‌ی سناریو', tryIt: 'خودتان امتحان کنید', presenter: 'حالت ارائه', close: 'بازگشت به محیط آزمایشی', forward: 'ArrowLeft', backward: 'ArrowRight' },
};

const counter = (page) => page.getByTestId('step-counter');
const narration = (page) => page.getByTestId('narration');
/**
 * Everything the lab shows a learner: narration, step, and every panel of the lab,
 * less the screen reader's announcements of what just changed (which say how the
 * page got here, not what it shows).
 */
const seen = (page) =>
  page.evaluate(() => {
    let lab = document.querySelector('.columns').innerText;
    for (const live of document.querySelectorAll('.columns [aria-live], .columns [role="status"], .columns [role="alert"]')) {
      if (live.innerText) lab = lab.replace(live.innerText, '');
    }
    return [
      document.querySelector('[data-testid="narration"]').innerText,
      document.querySelector('[data-testid="step-counter"]').innerText,
      lab.replace(/\n\s*\n/g, '\n'),
    ].join('\n----\n');
  });
/** Moves the focus off any control, so keys go to the page. */
const focusPage = (page) => page.evaluate(() => { document.activeElement?.blur(); document.body.focus(); });

/** Waits until the page is at step n of `of`, its time played to the end. */
async function waitForStep(page, n, of) {
  await page.locator(`[data-testid="step-counter"][data-step="${n}"][data-steps="${of}"]`).waitFor();
  await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
}

for (const lang of ['en', 'fa']) {
  test(`every scenario opens by deep link in ${lang}, steps to its end by keyboard and back to the same step 1`, async () => {
    await suite.withLab({ query: `?lang=${lang}` }, async (page) => {
      for (const [index, scenario] of scripts.scenarios.entries()) {
        const n = scenario.steps.length;
        await page.goto(`${suite.server.url}?scenario=${scenario.id}&step=1&lang=${lang}`);
        await page.waitForSelector('body[data-settled="true"]');
        await waitForStep(page, 1, n);
        assert.equal(await page.locator('html').getAttribute('lang'), lang);
        // The counter reads in the page's digits.
        const digits = (k) => (lang === 'fa' ? String(k).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d]) : String(k));
        assert.equal(await counter(page).innerText(), `${digits(1)} / ${digits(n)}`);
        const title = words[lang].scenarios[scenario.id].title;
        assert.match(await page.getByTestId('scenario-select').locator('option:checked').innerText(), new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        const first = await seen(page);
        const texts = [await narration(page).innerText()];
        await focusPage(page);
        for (let step = 2; step <= n; step++) {
          await page.keyboard.press(T[lang].forward);
          await waitForStep(page, step, n);
          texts.push(await narration(page).innerText());
        }
        assert.equal(new Set(texts).size, n, `${scenario.id}: every step says something of its own`);
        for (const text of texts) assert.doesNotMatch(text, /[{}]|^\(/, `${scenario.id}: filled in`);
        const last = await seen(page);
        // At the end, forward opens the next section's first step (a clicker
        // goes on), and backward comes back to this one's last; after the last
        // section forward stays.
        await page.keyboard.press(T[lang].forward);
        const following = scripts.scenarios[index + 1];
        if (following) {
          await waitForStep(page, 1, following.steps.length);
          assert.equal(await page.getByTestId('scenario-select').inputValue(), String(index + 1));
          await page.keyboard.press(T[lang].backward);
        }
        await waitForStep(page, n, n);
        assert.equal(await page.getByTestId('scenario-select').inputValue(), String(index));
        assert.equal(await seen(page), last, `${scenario.id}: back from the next section is the same last step`);
        for (let step = n - 1; step >= 1; step--) {
          await page.keyboard.press(T[lang].backward);
          await waitForStep(page, step, n);
        }
        assert.equal(await seen(page), first, `${scenario.id}: step 1 again is the same lab`);
        // The address follows the step, so a reload lands on the same one.
        assert.match(page.url(), new RegExp(`scenario=${scenario.id}&step=1`));
        // A deep link to the last step shows what stepping there showed.
        await page.goto(`${suite.server.url}?scenario=${scenario.id}&step=${n}&lang=${lang}`);
        await page.waitForSelector('body[data-settled="true"]');
        await waitForStep(page, n, n);
        const linked = await seen(page);
        if (linked !== last) {
          await writeFile(join(ARTIFACTS, `walkthrough-${scenario.id}-stepped.txt`), last);
          await writeFile(join(ARTIFACTS, `walkthrough-${scenario.id}-linked.txt`), linked);
        }
        assert.equal(linked, last, `${scenario.id}: the link to step ${n} lands on the same lab`);
      }
    });
  });
}

test('a question answered wrong, then right, in any digits; a choice; feedback points at the proving row', async () => {
  await suite.withLab({ query: '?scenario=s1&step=2&lang=en' }, async (page) => {
    await waitForStep(page, 2, 3);
    const question = page.getByTestId('question');
    await question.waitFor();
    const answer = page.getByLabel('Answer', { exact: true });
    await answer.fill('lots');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByTestId('question').getByText('That is not a whole number.').waitFor();
    assert.equal(await page.getByTestId('feedback').count(), 0, 'not judged');
    await answer.fill('100');
    await answer.press('Enter');
    assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'false');
    // The naive worker grants twice: 200, typed in Persian digits.
    await answer.fill('۲۰۰');
    await answer.press('Enter');
    assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'true');
    assert.match(await page.getByTestId('feedback').innerText(), /200 for one purchase/);
    // Answering never moves the lab on: the learner steps when ready.
    await waitForStep(page, 2, 3);
  });
  await suite.withLab({ query: '?scenario=s4&step=2&lang=en' }, async (page) => {
    await waitForStep(page, 2, 5);
    await page.getByRole('button', { name: 'Applied: points added again' }).click();
    assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'false');
    await page.getByRole('button', { name: 'Refused; nothing changes' }).click();
    assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'true');
    await page.getByRole('button', { name: 'Show the row that proves it' }).click();
    await waitForStep(page, 3, 5);
    assert.equal(await lastRow(page).getAttribute('data-outcome'), 'rejected');
    // Once the step has played, the proving row has the focus (and is in view).
    await page.waitForFunction(() => document.activeElement?.closest('[data-testid="timeline-row"]')?.dataset.outcome === 'rejected');
  });
  await suite.withLab({ query: '?scenario=s7&step=1&lang=fa' }, async (page) => {
    await waitForStep(page, 1, 3);
    const choice = page.getByTestId('question').locator('[data-choice="timeout-applied"]');
    await choice.click();
    assert.equal(await page.getByTestId('feedback').getAttribute('data-correct'), 'true');
    assert.equal(await choice.getAttribute('aria-pressed'), 'true');
  });
});

test('a link to a scenario or step that does not exist is refused, and the sandbox is as it was', async () => {
  await suite.withLab({ query: '?lang=en' }, async (page) => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    const before = await page.locator('.columns').innerText();
    for (const [query, message] of [
      ['?scenario=s99&lang=en', /no scenario “s99”.*s1 to s11/],
      ['?scenario=s3&step=9&lang=en', /s3 has no step “9”: it has steps 1 to 3/],
      ['?scenario=s3&step=two&lang=en', /s3 has no step “two”/],
    ]) {
      await page.goto(suite.server.url + withSettings(query));
      await page.waitForSelector('body[data-settled="true"]');
      await page.getByTestId('notice').filter({ hasText: message }).waitFor();
      assert.equal(await page.getByTestId('walkthrough').count(), 0);
      assert.equal(await page.locator('.columns').innerText(), before);
      assert.doesNotMatch(page.url(), /scenario=/);
    }
  });
});

test('Try it yourself hands the step over to the sandbox, and Back to the sandbox keeps the person\'s own lab', async () => {
  await suite.withLab({ query: '?lang=en' }, async (page) => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    const own = await page.locator('.columns').innerText();
    await page.getByRole('button', { name: 'Walkthrough' }).click();
    await waitForStep(page, 1, 3);
    assert.equal(await page.locator('.columns > .column').first().getAttribute('inert'), '');
    assert.equal(await page.locator('.columns > .column.wide').getAttribute('inert'), null, 'the timeline stays readable');
    await page.getByRole('button', { name: 'Next step' }).click();
    await waitForStep(page, 2, 3);
    await page.getByRole('button', { name: 'Back to the sandbox' }).click();
    assert.equal(await page.getByTestId('walkthrough').count(), 0);
    assert.equal(await page.locator('.columns').innerText(), own);
    // A reload keeps the person's lab, not the walkthrough's.
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(await rows(page).count(), 1);
    await page.getByRole('button', { name: 'Walkthrough' }).click();
    await waitForStep(page, 1, 3);
    await page.getByRole('button', { name: 'Next step' }).click();
    await waitForStep(page, 2, 3);
    await page.getByRole('button', { name: 'Try it yourself' }).click();
    assert.equal(await page.getByTestId('walkthrough').count(), 0);
    assert.equal(await rows(page).count(), 1);
    assert.equal(await lastRow(page).getAttribute('data-outcome'), 'timeout-applied');
    // The lab replaced can come back, from the notice that says what happened.
    await page.getByTestId('notice').filter({ hasText: 'walkthrough' }).waitFor();
    assert.equal(await page.getByTestId('bring-back').count(), 1);
    // The sandbox is the person's now: the retry the walkthrough asked about.
    await page.getByRole('button', { name: 'Retry (same key)' }).click();
    await skipToIdle(page);
    assert.equal(await lastRow(page).getAttribute('data-outcome'), 'replayed');
  });
});

test('a challenge is checked by the lab; Show me performs it; the scenario is then marked done, and stays so after a reload', async () => {
  await suite.withLab({ query: '?scenario=s7&step=1&lang=en' }, async (page) => {
    await page.getByTestId('question').locator('[data-choice="timeout-applied"]').click();
    await focusPage(page);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 3, 3);
    await page.getByRole('button', { name: 'Hint' }).click();
    await page.getByText('Lose the acknowledgement on a grant.').waitFor();
    await page.getByRole('button', { name: 'Start the challenge' }).click();
    const banner = page.getByTestId('challenge');
    await banner.waitFor();
    assert.equal(await banner.getAttribute('data-met'), 'false');
    assert.equal(await rows(page).count(), 0, 'a new sandbox');
    // Doing it by hand: a grant that loses its acknowledgement.
    await page.getByLabel('Lose acknowledgement', { exact: true }).check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.locator('[data-testid="challenge"][data-met="true"]').waitFor();
    await page.getByRole('button', { name: 'Walkthrough' }).click();
    const option = page.getByTestId('scenario-select').locator('option[value="6"]');
    assert.match(await option.innerText(), /✓ done/);
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    await page.getByTestId('walkthrough').waitFor();
    assert.match(await page.getByTestId('scenario-select').locator('option[value="6"]').innerText(), /✓ done/);
  });
  await suite.withLab({ query: '?scenario=s10&step=9&lang=en' }, async (page) => {
    await page.getByRole('button', { name: 'Start the challenge' }).click();
    const banner = page.getByTestId('challenge');
    assert.equal(await banner.getAttribute('data-met'), 'false');
    // Show me sets the stage and leaves the last move to the learner, with the hint.
    await page.getByRole('button', { name: 'Show me' }).click();
    await page.getByText(/then retry it/).waitFor();
    assert.equal(await banner.getAttribute('data-met'), 'false');
    await page.getByRole('button', { name: 'Retry (same key)' }).click();
    await skipToIdle(page);
    await page.locator('[data-testid="challenge"][data-met="true"]').waitFor();
    assert.equal(await page.getByTestId('invariant-at-most-once').getAttribute('data-holds'), 'false');
  });
});

test('presenter mode and the embedded walkthrough, in both languages, looked at', async () => {
  for (const lang of ['en', 'fa']) {
    await suite.withLab({ query: `?scenario=s4&step=2&lang=${lang}`, viewport: { width: 1024, height: 768 } }, async (page) => {
      await waitForStep(page, 2, 5);
      const presenter = page.getByRole('button', { name: T[lang].presenter });
      await presenter.click();
      assert.equal(await presenter.getAttribute('aria-pressed'), 'true');
      assert.match(await page.locator('html').getAttribute('class'), /presenter/);
      assert.equal(await page.locator('header.top').isVisible(), false, 'no page chrome');
      assert.ok(await page.getByRole('button', { name: T[lang].next }).isVisible(), 'Next on the first screen');
      await page.screenshot({ path: join(ARTIFACTS, `walkthrough-presenter-${lang}.png`) });
      await focusPage(page);
      await page.keyboard.press('Escape');
      assert.doesNotMatch((await page.locator('html').getAttribute('class')) ?? '', /presenter/);
    });
    await suite.withLab({ query: `?embed=1&scenario=s3&step=2&lang=${lang}`, viewport: { width: 800, height: 600 } }, async (page) => {
      await waitForStep(page, 2, 3);
      assert.match(await page.locator('html').getAttribute('class'), /embed/);
      await page.screenshot({ path: join(ARTIFACTS, `walkthrough-embed-${lang}.png`) });
    });
  }
});

test('keys: ? lists them, Space plays and stops at a question, and single-key shortcuts can be turned off', async () => {
  await suite.withLab({ query: '?scenario=s2&step=1&lang=en' }, async (page) => {
    await waitForStep(page, 1, 4);
    assert.equal(await narration(page).locator('xpath=..').getAttribute('aria-live'), 'polite');
    await focusPage(page);
    await page.keyboard.press('?');
    const help = page.getByTestId('keys-help');
    await help.waitFor();
    assert.match(await help.innerText(), /Next step/);
    // The arrows inside the list do not step: the list is open.
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 1, 4);
    await page.keyboard.press('Escape');
    assert.equal(await help.count(), 0);
    // Fast pace, then Space: it plays step 2, which asks a question, and stops there.
    await page.getByLabel('Pace').selectOption({ label: 'Fast' });
    await focusPage(page);
    await page.keyboard.press(' ');
    assert.equal(await page.getByRole('button', { name: 'Pause' }).getAttribute('aria-pressed'), 'true');
    await waitForStep(page, 2, 4);
    await page.getByRole('button', { name: 'Play' }).waitFor();
    await page.waitForTimeout(4000);
    await waitForStep(page, 2, 4);
    // Shortcuts off: arrows do nothing; the buttons still work.
    await page.getByRole('switch', { name: 'Single-key shortcuts' }).uncheck();
    await focusPage(page);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(200);
    await waitForStep(page, 2, 4);
    await page.getByRole('button', { name: 'Next step' }).click();
    await waitForStep(page, 3, 4);
    await page.getByRole('button', { name: 'Restart scenario' }).click();
    await waitForStep(page, 1, 4);
  });
});

test('a permalink pasted while the walkthrough is open goes to the sandbox, which the walkthrough leaves first', async () => {
  await suite.withLab({ query: '?lang=en' }, async (page) => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    const link = await page.getByTestId('permalink').inputValue();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 2);
    await page.getByRole('button', { name: 'Walkthrough' }).click();
    await waitForStep(page, 1, 3);
    await page.evaluate((hash) => { window.location.hash = hash; }, new URL(link).hash);
    await page.getByTestId('notice').waitFor();
    assert.equal(await page.getByTestId('walkthrough').count(), 0);
    assert.equal(await rows(page).count(), 1, "the link's lab");
    // The person's own lab, set aside by the walkthrough, can come back.
    await page.getByTestId('bring-back').click();
    assert.equal(await rows(page).count(), 2);
  });
});

test("a step's time plays at the pace, the narration already says where it ends, and skipping lands there", async () => {
  await suite.withLab({ query: '?scenario=s2&step=1&lang=en' }, async (page) => {
    await waitForStep(page, 1, 4);
    await page.getByRole('button', { name: 'Next step' }).click();
    const walk = page.getByTestId('walkthrough');
    assert.equal(await walk.getAttribute('data-animating'), 'true');
    assert.match(await narration(page).innerText(), /Right now Alice's balance is 0/);
    // The caller's deadline is 3 s away: the clock is on its way there.
    await page.waitForTimeout(600);
    const now = Number(await page.getByTestId('clock').getAttribute('data-now'));
    assert.ok(now > 0 && now < 3100, `the clock plays (${now} ms)`);
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)),
      ['pending'],
      'nobody has timed out yet',
    );
    await page.getByRole('button', { name: "Skip to the step's end" }).click();
    await waitForStep(page, 2, 4);
    assert.equal(await page.getByTestId('clock').getAttribute('data-now'), '3100');
    assert.equal(await lastRow(page).getAttribute('data-outcome'), 'timeout');
  });
  // Asked for less motion, a step lands at once.
  await suite.withLab({ query: '?scenario=s2&step=1&lang=en', reducedMotion: 'reduce' }, async (page) => {
    await page.getByRole('button', { name: 'Next step' }).click();
    assert.equal(await page.getByTestId('walkthrough').getAttribute('data-animating'), 'false');
    assert.equal(await page.getByTestId('clock').getAttribute('data-now'), '3100');
  });
});

test('progress is exported as a file and imported elsewhere; a file that is not progress is refused whole', async () => {
  let exported;
  await suite.withLab({ query: '?scenario=s7&step=1&lang=en' }, async (page) => {
    await page.getByTestId('question').locator('[data-choice="timeout-applied"]').click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export progress' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'idempotency-lab-progress.json');
    exported = JSON.parse(await readFile(await file.path(), 'utf8'));
    assert.equal(exported.format, 'idempotency-lab/progress');
    assert.deepEqual(exported.scenarios.s7.answered, [1]);
  });
  // Another browser: a bad file changes nothing; the good one is added to what it has.
  await suite.withLab({ query: '?scenario=s7&step=3&lang=en' }, async (page) => {
    const input = page.getByTestId('import-progress');
    await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"idempotency-lab/session"}') });
    await page.getByTestId('notice').filter({ hasText: 'not a walkthrough progress file' }).waitFor();
    const s99 = { ...exported, scenarios: { s99: { furthest: 1 } } };
    await input.setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(s99)) });
    await page.getByTestId('notice').filter({ hasText: 'does not have (s99)' }).waitFor();
    assert.doesNotMatch(await page.getByTestId('scenario-select').locator('option[value="6"]').innerText(), /✓/);
    await input.setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await page.getByTestId('notice').filter({ hasText: 'Progress imported' }).waitFor();
    // Here the last step is reached, the question answered (imported): the challenge makes it done.
    await page.getByRole('button', { name: 'Start the challenge' }).click();
    await page.getByLabel('Lose acknowledgement', { exact: true }).check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.locator('[data-testid="challenge"][data-met="true"]').waitFor();
    await page.getByRole('button', { name: 'Walkthrough' }).click();
    assert.match(await page.getByTestId('scenario-select').locator('option[value="6"]').innerText(), /✓ done/);
  });
});

test('embedded, "Open the full lab" opens the walkthrough at the same step, not a copy of its lab', async () => {
  await suite.withLab({ query: '?embed=1&scenario=s3&step=1&lang=en' }, async (page) => {
    await waitForStep(page, 1, 3);
    await page.getByRole('button', { name: 'Next step' }).click();
    await waitForStep(page, 2, 3);
    const href = await page.getByRole('link', { name: /Open the full lab/ }).getAttribute('href');
    const url = new URL(href);
    assert.equal(url.searchParams.get('scenario'), 's3');
    assert.equal(url.searchParams.get('step'), '2');
    assert.equal(url.searchParams.get('embed'), null);
    assert.equal(url.hash, '');
  });
});

test("the lab's own code behind a step: marked lines, scrolled by the arrows, kept open from step to step", async () => {
  const S6_STEPS = scripts.scenarios.find((s) => s.id === 's6').steps.length;
  await suite.withLab({ query: '?scenario=s6&step=3&lang=en', viewport: { width: 600, height: 800 } }, async (page) => {
    await waitForStep(page, 3, S6_STEPS);
    const code = page.getByTestId('code');
    await code.locator('summary').click();
    assert.equal(await code.getAttribute('open'), '');
    assert.match(await code.locator('mark').first().innerText(), /self\.lock\(\)/);
    assert.ok((await code.locator('mark').count()) >= 3);
    await code.locator('pre').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(200);
    await waitForStep(page, 3, S6_STEPS);
    await page.getByRole('button', { name: 'Next step' }).click();
    await waitForStep(page, 4, S6_STEPS);
    assert.equal(await page.getByTestId('code').getAttribute('open'), '', 'the same excerpt stays open');
  });
});

test('a step marks what proves its point and shows only the panels it needs; "Show everything" brings back the rest', () =>
  suite.withLab({ query: '?lang=en&scenario=s10&step=4', viewport: { width: 1024, height: 768 } }, async (page) => {
    await waitForStep(page, 4, 9);
    const marked = (selector) => page.locator(`${selector}[data-marked="true"]`);
    // The torn write: the durable store, Dave's retry, and the promise it breaks.
    await marked('[data-testid="stage-store"][data-kind="durable"]').waitFor();
    assert.equal(await marked('[data-testid="stage-caller"][data-attempt="4"]').count(), 1);
    assert.equal(await marked('[data-testid="timeline-row"][data-attempt="4"]').count(), 1);
    const promise = marked('[data-testid="invariant-receipt-has-grant"]');
    assert.equal(await promise.count(), 1);
    // In view: the promise on the stage (drawn there with a size while the
    // step marks it), and the marked row in the panels beside the stage,
    // which scroll by themselves.
    await page.waitForFunction(() => {
      const stage = document.querySelector('[data-testid="stage-promise"][data-invariant="receipt-has-grant"][data-marked="true"]').getBoundingClientRect();
      const row = document.querySelector('[data-testid="timeline-row"][data-marked="true"] td.store').getBoundingClientRect();
      const region = document.querySelector('.columns').getBoundingClientRect();
      return stage.height > 0 && stage.top >= 0 && stage.bottom <= innerHeight + 1
        && row.top >= region.top - 1 && row.bottom <= Math.min(region.bottom, innerHeight) + 1;
    });
    const panel = (name) => page.locator(`[data-panel="${name}"]`);
    assert.equal(await panel('promises').isHidden(), false);
    assert.equal(await panel('timeline').isHidden(), false);
    assert.equal(await panel('chart').isHidden(), true, 'the chart is out of the way');
    const everything = page.getByRole('switch', { name: 'Show everything' });
    await everything.check();
    assert.equal(await panel('chart').isHidden(), false);
    await everything.uncheck();
    assert.equal(await panel('chart').isHidden(), true);

    // A step that needs no panel leaves the stage alone, and marks the full queue.
    await page.goto(`${suite.server.url}?lang=en&scenario=s5&step=2`);
    await waitForStep(page, 2, 3);
    assert.equal(await page.locator('.columns').isHidden(), true);
    await marked('[data-testid="stage"] .stage-queue').waitFor();
    assert.equal(await marked('[data-testid="stage-waiting"]').count(), 1);

    // Back in the sandbox nothing is marked and every panel is there.
    await page.getByRole('button', { name: 'Back to the sandbox', exact: true }).click();
    await page.locator('[data-testid="walkthrough"]').waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-marked="true"]').count(), 0);
    for (const name of ['promises', 'chart', 'timeline']) assert.equal(await panel(name).isHidden(), false, name);
  }));

test("a clicker's Page Down and Page Up step; after the keys list, Space plays; a section's end leads to the next", () =>
  suite.withLab({ query: '?scenario=s1&step=1&lang=fa' }, async (page) => {
    await waitForStep(page, 1, 3);
    await focusPage(page);
    // Page Down is forward in either language (a clicker knows no direction).
    await page.keyboard.press('PageDown');
    await waitForStep(page, 2, 3);
    await page.keyboard.press('PageUp');
    await waitForStep(page, 1, 3);
    // The list opened by ? and closed by Esc gives the keys back to the page.
    await page.keyboard.press('?');
    await page.getByTestId('keys-help').waitFor();
    assert.match(await page.getByTestId('keys-help').innerText(), /Page Down/);
    await page.keyboard.press('Escape');
    assert.equal(await page.getByTestId('keys-help').count(), 0);
    await page.keyboard.press(' ');
    assert.equal(await page.getByTestId('keys-help').count(), 0, 'Space did not open the list again');
    assert.equal(await page.getByRole('button', { name: 'مکث' }).getAttribute('aria-pressed'), 'true');
    await page.getByRole('button', { name: 'مکث' }).click();
    // At the last step, the way on is the next section, and the keyboard stays on the way forward.
    await page.goto(`${suite.server.url}?scenario=s1&step=3&lang=en`);
    await waitForStep(page, 3, 3);
    const nextSection = page.getByRole('button', { name: 'Next section', exact: true });
    await nextSection.click();
    await waitForStep(page, 1, 4);
    assert.match(await page.getByTestId('scenario-select').inputValue(), /1/);
    assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), 'Next step');
    assert.equal(await nextSection.count(), 0);
    assert.match(page.url(), /scenario=s2&step=1/);
    // The last section has no next one.
    await page.goto(`${suite.server.url}?scenario=s11&step=7&lang=en`);
    await waitForStep(page, 7, 7);
    assert.equal(await nextSection.count(), 0);
  }));

test('presenter mode is in the address while it is on, and a reload or a link opens it again', () =>
  suite.withLab({ query: '?scenario=s4&step=2&lang=en&presenter=1', viewport: { width: 1024, height: 768 } }, async (page) => {
    await waitForStep(page, 2, 5);
    const presenter = page.getByRole('button', { name: 'Presenter mode' });
    assert.equal(await presenter.getAttribute('aria-pressed'), 'true');
    assert.match(await page.locator('html').getAttribute('class'), /presenter/);
    assert.match(page.url(), /presenter=1/);
    await page.reload();
    await waitForStep(page, 2, 5);
    assert.equal(await presenter.getAttribute('aria-pressed'), 'true', 'kept on reload');
    await focusPage(page);
    await page.keyboard.press('Escape');
    assert.equal(await presenter.getAttribute('aria-pressed'), 'false');
    await page.waitForFunction(() => !location.search.includes('presenter'));
    await presenter.click();
    await page.waitForFunction(() => location.search.includes('presenter=1'));
    // Back in the sandbox the address no longer asks for it.
    await page.getByRole('button', { name: 'Back to the sandbox', exact: true }).click();
    await page.waitForFunction(() => !location.search.includes('presenter'));
    assert.doesNotMatch((await page.locator('html').getAttribute('class')) ?? '', /presenter/);
  }));

test("the chart follows the scenario's account, a burst's included, not the request form's", () =>
  suite.withLab({ query: '?scenario=s5&step=3&lang=en' }, async (page) => {
    await waitForStep(page, 3, 3);
    await page.getByRole('switch', { name: 'Show everything' }).check();
    const title = page.locator('#chart-title');
    assert.match(await title.innerText(), /alice/);
    assert.doesNotMatch(await title.innerText(), /account-7/);
  }));

test('a wrong answer gets a hint written for its question, and the answer can be revealed to the room', () =>
  suite.withLab({ query: '?scenario=s4&step=1&lang=en' }, async (page) => {
    await waitForStep(page, 1, 5);
    await page.getByLabel('Answer', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    const feedback = page.getByTestId('feedback');
    assert.equal(await feedback.getAttribute('data-correct'), 'false');
    assert.match(await feedback.getByTestId('hint').innerText(), /new key/);
    assert.doesNotMatch(await feedback.innerText(), /200/, 'the hint leads to the answer, it does not give it');
    await page.getByRole('button', { name: 'Reveal the answer', exact: true }).click();
    const revealed = page.getByTestId('revealed-answer');
    assert.match(await revealed.innerText(), /^The answer: 200 With a new key/);
    assert.equal(await page.getByTestId('reveal-answer').count(), 0);
    // The next question asks afresh; a choice is revealed by its label.
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await waitForStep(page, 2, 5);
    assert.equal(await page.getByTestId('revealed-answer').count(), 0);
    await page.getByTestId('reveal-answer').click();
    assert.match(await page.getByTestId('revealed-answer').innerText(), /^The answer: /);
    const label = await page.locator('[data-choice="rejected"]').innerText();
    assert.ok((await page.getByTestId('revealed-answer').innerText()).includes(label), label);
  }));

test('the section list says which sections were walked through and which are done', () =>
  suite.withLab({ query: '?scenario=s1&step=1&lang=en' }, async (page) => {
    await waitForStep(page, 1, 3);
    const option = (i) => page.locator(`[data-testid="scenario-select"] option`).nth(i).innerText();
    assert.doesNotMatch(await option(0), /walked through|done/);
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await waitForStep(page, 3, 3);
    await page.waitForFunction(() => document.querySelector('[data-testid="scenario-select"] option').textContent.includes('walked through'));
    assert.doesNotMatch(await option(1), /walked through/);
  }));

test('the overview of all sections says where the learner stands in each, opens one, and shows imported progress at once', async () => {
  for (const lang of ['en', 'fa']) {
    const t = lang === 'en'
      ? { all: 'All sections', count: (w, d) => `${w} of ${scripts.scenarios.length} walked through, ${d} done`, atStep: 'as far as step 2 of 3', notStarted: 'not started', done: '✓ done' }
      : { all: 'همه‌ی بخش‌ها', count: (w, d) => `${'۰۱۲۳۴۵۶۷۸۹'[w]} از ۱۱ بخش تا پایان دیده شد، ${'۰۱۲۳۴۵۶۷۸۹'[d]} بخش تمام`, atStep: 'تا گام ۲ از ۳', notStarted: 'آغاز نشده', done: '✓ تمام' };
    await suite.withLab({ query: `?scenario=s1&step=2&lang=${lang}` }, async (page) => {
      const overview = page.getByTestId('sections-overview');
      const summary = overview.locator('summary');
      assert.equal((await summary.textContent()).trim(), `${t.all} — ${t.count(0, 0)}`);
      await summary.click();
      const sections = overview.getByTestId('overview-section');
      await sections.first().waitFor();
      assert.equal(await sections.count(), scripts.scenarios.length);
      const s1 = overview.locator('[data-scenario="s1"]');
      assert.equal(await s1.getAttribute('data-standing'), 'at-step');
      assert.match(await s1.textContent(), new RegExp(t.atStep));
      assert.equal(await s1.getByRole('button').getAttribute('aria-current'), 'true', 'the section on screen is named');
      assert.match(await overview.locator('[data-scenario="s2"]').textContent(), new RegExp(t.notStarted));
      // A section's button opens it at its first step, and the list closes.
      await overview.locator('[data-scenario="s3"]').getByRole('button').click();
      await page.locator('[data-testid="step-counter"][data-step="1"]').waitFor();
      assert.equal(await page.getByTestId('scenario-select').inputValue(), '2');
      assert.equal(await overview.evaluate((d) => d.open), false);
      // Progress imported from elsewhere shows in the overview at once.
      const s1Done = { format: 'idempotency-lab/progress', version: 1, scenarios: { s1: { furthest: 3, answered: [2], challenge: true } } };
      await page.getByTestId('import-progress').setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(s1Done)) });
      await page.getByTestId('notice').waitFor();
      assert.equal((await summary.textContent()).trim(), `${t.all} — ${t.count(1, 1)}`);
      await summary.click();
      await s1.waitFor();
      assert.equal(await s1.getAttribute('data-standing'), 'done');
      assert.match(await s1.textContent(), new RegExp(t.done));
    });
  }
});
