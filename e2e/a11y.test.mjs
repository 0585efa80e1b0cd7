// End-to-end: accessibility. axe-core (from npm, pinned in package.json) scans the page
// for WCAG 2.0/2.1/2.2 A and AA failures in English and Persian, light and dark, at
// desktop, projector and phone widths, embedded, and after enough activity to fill the
// timeline, the queue and the receipts. Any violation fails, with its rule, the elements
// and axe's summary, and where it was seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, openLab, skipToIdle, setSetting, ARTIFACTS } from './harness.mjs';

const suite = labSuite();
const require = createRequire(import.meta.url);

/**
 * axe is loaded as an init script (through the DevTools protocol, before the page's own
 * scripts), not with page.addScriptTag: an inline <script> tag would be refused by the
 * page's Content-Security-Policy, and this way the scans run on the page exactly as
 * served, policy included, with no `bypassCSP`.
 */
const AXE = { path: require.resolve('axe-core/axe.min.js') };
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const VIEWPORTS = {
  desktop: { width: 1400, height: 1000 },
  projector: { width: 1024, height: 768 },
  phone: { width: 390, height: 844 },
};

/** Every violation axe finds on the page now, each node with its selector and axe's summary. */
async function scan(page) {
  // Let layout and any transition settle: colour contrast is measured on what is painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForTimeout(300);
  return page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  }, TAGS);
}

/** Scans the page in each of `viewports` and colour `schemes`, adding what it finds to `found`. */
async function scanAll(page, where, found, { viewports = Object.keys(VIEWPORTS), schemes = ['light', 'dark'] } = {}) {
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const name of viewports) {
      await page.setViewportSize(VIEWPORTS[name]);
      for (const v of await scan(page)) found.push({ where: `${where}, ${scheme}, ${name} ${VIEWPORTS[name].width}x${VIEWPORTS[name].height}`, ...v });
    }
  }
}

/** A readable list: one line per rule and place, then each element and axe's summary. */
function report(found) {
  return found
    .map((v) =>
      [`${v.id} (${v.impact}) — ${v.help} — ${v.where}`, ...v.nodes.map((n) => `    ${n.target}\n      ${n.summary.replace(/\n/g, '\n      ')}`)].join('\n'),
    )
    .join('\n');
}

async function assertNoViolations(found, name) {
  await writeFile(join(ARTIFACTS, `a11y-${name}.json`), JSON.stringify(found, null, 2));
  assert.equal(found.length, 0, `axe found ${found.length} violation(s):\n${report(found)}`);
}

/** Opens a checked lab with axe loaded, runs `body`, and checks the page logged no error. */
async function withAxe(options, body) {
  const lab = await openLab(suite.browser, suite.server, { ...options, initScript: AXE });
  try {
    assert.equal(await lab.page.evaluate(() => typeof window.axe?.run), 'function', 'axe-core is loaded');
    await body(lab.page);
    assert.deepEqual(lab.problems(), [], 'no page error, console error or foreign request');
  } finally {
    await lab.context.close();
  }
}

const TEXTS = {
  en: {
    send: 'Send', retrySame: 'Retry (same key)', retryFresh: 'Retry (fresh key)', loseAck: 'Lose acknowledgement',
    key: 'Key', points: 'Points', burst: /^Burst: 20 grants at once/, checkBalance: 'Check balance', skip: 'Skip to idle',
    pause: 'Pause consumer', restart: 'Restart process', naive: 'Naive worker beside', copyLink: 'Copy link to this state',
    timeout: 'Caller timeout (ms)',
  },
  fa: {
    send: 'ارسال', retrySame: 'تلاش مجدد (همان کلید)', retryFresh: 'تلاش مجدد (کلید تازه)', loseAck: 'گم‌شدن تأیید',
    key: 'کلید', points: 'امتیاز', burst: /^هجوم: /, checkBalance: 'دیدن موجودی', skip: 'پرش تا بیکاری',
    pause: 'توقف مصرف‌کننده', restart: 'راه‌اندازی مجدد فرایند', naive: 'worker ساده‌لوح در کنار',
    copyLink: 'رونوشت پیوند به همین وضعیت', timeout: 'timeout فراخواننده (میلی‌ثانیه)',
  },
};

/**
 * Fills every part of the page: grants applied, replayed, rejected and timed out, a
 * restart, the naive worker's balances, a balance read, a permalink, a full queue with
 * producers waiting, a field with an error message and a notice.
 */
async function activity(page, lang) {
  const t = TEXTS[lang];
  const button = (name) => page.getByRole('button', { name, exact: typeof name === 'string' });
  const skip = () => skipToIdle(page, { name: t.skip });
  await page.getByRole('switch', { name: t.naive, exact: true }).check();
  await page.getByLabel(t.loseAck, { exact: true }).check();
  await button(t.send).click();
  await skip();
  await button(t.retrySame).click();
  await skip();
  await page.getByLabel(t.points, { exact: true }).fill('200');
  await button(t.send).click();
  await skip();
  await button(t.retryFresh).click();
  await skip();
  await page.getByLabel(t.key, { exact: true }).fill('order-2001');
  await page.getByLabel(t.points, { exact: true }).fill('25');
  await button(t.send).click();
  await skip();
  await button(t.restart).click();
  await button(t.retrySame).click();
  await skip();
  await button(t.burst).click();
  await skip();
  await button(t.checkBalance).click();
  await button(t.copyLink).click();
  // Work left in hand: a long caller timeout, a paused consumer, a full queue and producers waiting.
  await setSetting(page, t.timeout, 600_000);
  await page.getByLabel(t.pause, { exact: true }).check();
  await button(t.burst).click();
  await page.locator('[data-testid="waiting"]:not([data-waiting="0"])').waitFor();
  // A field with its error message, and the notice a refused send shows.
  await page.getByLabel(t.points, { exact: true }).fill('abc');
  assert.equal(await page.getByLabel(t.points, { exact: true }).getAttribute('aria-invalid'), 'true');
  await button(t.send).click();
  await page.getByTestId('notice').waitFor();
  assert.ok((await page.locator('[data-testid="timeline-row"]').count()) >= 20);
  assert.ok((await page.locator('[data-testid="receipt-row"]').count()) >= 3);
  assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '16');
}

for (const lang of ['en', 'fa']) {
  const language = lang === 'en' ? 'English' : 'Persian';

  // As a new visitor sees it: the settings drawers closed but the first. (The
  // other scans open them all, as `openLab` does unless told otherwise.)
  test(`axe: the empty lab in ${language}, light and dark, desktop, projector and phone`, async () => {
    const found = [];
    await withAxe({ query: `?lang=${lang}`, settings: 'closed' }, (page) => scanAll(page, `${language}, empty lab`, found));
    await assertNoViolations(found, `empty-${lang}`);
  });

  test(`axe: the lab after activity in ${language}, light and dark, desktop, projector and phone`, async () => {
    const found = [];
    await withAxe({ query: `?lang=${lang}` }, async (page) => {
      await activity(page, lang);
      await scanAll(page, `${language}, after activity`, found);
    });
    await assertNoViolations(found, `activity-${lang}`);
  });

  test(`axe: embedded (?embed=1) in ${language}, light and dark, projector and phone`, async () => {
    const found = [];
    await withAxe({ query: `?embed=1&lang=${lang}` }, async (page) => {
      await scanAll(page, `${language}, embedded, empty`, found, { viewports: ['projector', 'phone'] });
      await activity(page, lang);
      await scanAll(page, `${language}, embedded, after activity`, found, { viewports: ['projector', 'phone'] });
    });
    await assertNoViolations(found, `embed-${lang}`);
  });
}

for (const lang of ['en', 'fa']) {
  const language = lang === 'en' ? 'English' : 'Persian';

  test(`axe: "Try to break it" with a found history mid-replay, and the safety table's dialog, in ${language}`, async () => {
    const found = [];
    await withAxe({ query: `?lang=${lang}` }, async (page) => {
      await page.getByTestId('explorer').click();
      await page.locator('[data-testid="explorer"][data-state="broken"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('explorer-panel').scrollIntoViewIfNeeded();
      await scanAll(page, `${language}, explorer found`, found, { viewports: ['desktop', 'phone'] });
      // Its replay in the walkthrough's player, a step in.
      await page.getByTestId('explorer-replay').click();
      await page.getByTestId('walk-guest').waitFor();
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="step-counter"][data-step="2"]').waitFor();
      await page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
      await scanAll(page, `${language}, found history in the player`, found, { viewports: ['desktop', 'phone'] });
      await page.locator('.walk-tools button').last().click();
      await page.getByTestId('walk-guest').waitFor({ state: 'detached' });
      // A field with its error.
      await page.getByTestId('explorer-histories').fill('0');
      await page.getByTestId('explorer').click();
      await page.getByTestId('explorer-error').filter({ hasText: /./ }).waitFor();
      // The table's dialog, with a few rows in.
      await page.getByTestId('safety-open').click();
      await page.getByTestId('safety-start').click();
      await page.locator('[data-testid="safety-cell"]').nth(30).waitFor({ timeout: 60_000 });
      await page.getByTestId('safety-cancel').click();
      await scanAll(page, `${language}, safety table`, found, { viewports: ['desktop', 'phone'] });
    });
    await assertNoViolations(found, `explorer-${lang}`);
  });
}

for (const lang of ['en', 'fa']) {
  const language = lang === 'en' ? 'English' : 'Persian';

  test(`axe: the recorder with a question and a refusal, the list, and a teacher's scenario in the player, in ${language}`, async () => {
    const found = [];
    await withAxe({ query: `?lang=${lang}` }, async (page) => {
      const panel = page.getByTestId('teacher-panel');
      await panel.getByTestId('record-scenario').click();
      await page.locator('form.request-form button.primary').click();
      await panel.getByTestId('rec-ask').check();
      await panel.getByTestId('mark-step').click();
      await panel.getByTestId('teacher-said').waitFor();
      await panel.scrollIntoViewIfNeeded();
      await scanAll(page, `${language}, recorder`, found, { viewports: ['desktop', 'phone'] });
      await panel.getByTestId('rec-ask').uncheck();
      await panel.getByTestId('rec-narration-en').fill('Sent: {rows}.');
      await panel.getByTestId('rec-narration-fa').fill('فرستاده شد: {rows}.');
      await panel.getByTestId('mark-step').click();
      await page.locator('[data-testid="recording-status"][data-steps="1"]').waitFor();
      await panel.getByTestId('rec-title-en').fill('One grant');
      await panel.getByTestId('rec-title-fa').fill('یک افزودن');
      await panel.getByTestId('finish-recording').click();
      await panel.getByTestId('teacher-share').waitFor();
      await scanAll(page, `${language}, the list and its link`, found, { viewports: ['desktop', 'phone'] });
      await panel.getByTestId('play-scenario').click();
      await page.getByTestId('walk-guest').waitFor();
      await scanAll(page, `${language}, teacher's scenario in the player`, found, { viewports: ['desktop', 'phone'] });
    });
    await assertNoViolations(found, `teacher-${lang}`);
  });
}

const SCRIPTS = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('../walkthrough/scenarios.json', import.meta.url), 'utf8'));

for (const lang of ['en', 'fa']) {
  const language = lang === 'en' ? 'English' : 'Persian';

  test(`axe: the walkthrough's first and last step of every scenario in ${language}`, async () => {
    const found = [];
    await withAxe({ query: `?lang=${lang}` }, async (page) => {
      for (const scenario of SCRIPTS.scenarios) {
        for (const step of [1, scenario.steps.length]) {
          await page.goto(`${suite.server.url}?scenario=${scenario.id}&step=${step}&lang=${lang}`);
          await page.waitForSelector('body[data-settled="true"]');
          await page.locator(`[data-testid="step-counter"][data-step="${step}"][data-steps="${scenario.steps.length}"]`).waitFor();
          for (const v of await scan(page)) found.push({ where: `${language}, ${scenario.id} step ${step}`, ...v });
        }
      }
    });
    await assertNoViolations(found, `walkthrough-${lang}`);
  });

  test(`axe: presenter mode with an answered question and the keys list, and a challenge in the sandbox, in ${language}`, async () => {
    const found = [];
    await withAxe({ query: `?scenario=s4&step=2&lang=${lang}` }, async (page) => {
      await page.getByTestId('question').waitFor();
      await page.getByTestId('question').locator('[data-choice="applied"]').click();
      await page.getByTestId('feedback').waitFor();
      await page.getByTestId('walkthrough').locator('.walk-tools button[aria-pressed]').click();
      assert.match(await page.locator('html').getAttribute('class'), /presenter/);
      await scanAll(page, `${language}, presenter mode`, found, { viewports: ['projector', 'phone'] });
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('?');
      await page.getByTestId('keys-help').waitFor();
      await scanAll(page, `${language}, keys list`, found, { viewports: ['projector'], schemes: ['light'] });
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      // The lab's own code behind a step, opened, at projector and phone widths.
      await page.goto(`${suite.server.url}?scenario=s6&step=3&lang=${lang}`);
      await page.waitForSelector('body[data-settled="true"]');
      await page.locator('[data-testid="code"] summary').click();
      await scanAll(page, `${language}, code behind a step`, found, { viewports: ['projector', 'phone'] });
      // The overview of all sections, opened.
      await page.getByTestId('sections-overview').locator('summary').click();
      await page.getByTestId('overview-section').first().waitFor();
      await scanAll(page, `${language}, the overview of sections`, found, { viewports: ['projector', 'phone'] });
      await page.goto(`${suite.server.url}?scenario=s7&step=3&lang=${lang}`);
      await page.waitForSelector('body[data-settled="true"]');
      await page.getByTestId('walkthrough').locator('.walk-challenge button.primary').click();
      await page.getByTestId('challenge').waitFor();
      await scanAll(page, `${language}, a challenge in the sandbox`, found, { viewports: ['desktop', 'phone'] });
      // Show me, and the move it leaves.
      await page.getByTestId('challenge').getByRole('button', { name: lang === 'en' ? 'Show me' : 'نشانم دهید' }).click();
      await page.locator('[data-testid="move-left"]:not(:empty)').waitFor();
      await scanAll(page, `${language}, the move Show me left`, found, { viewports: ['desktop', 'phone'] });
      // In presenter mode: a promise broken at an earlier step, the course's end, a revealed answer.
      for (const [query, reveal] of [['s10&step=9', false], ['s11&step=7', false], ['s1&step=2', true]]) {
        await page.goto(`${suite.server.url}?scenario=${query}&lang=${lang}&presenter=1`);
        await page.waitForSelector('body[data-settled="true"]');
        if (reveal) {
          await page.getByTestId('reveal-answer').click();
          await page.getByTestId('revealed-answer').waitFor();
        }
        await scanAll(page, `${language}, presenter mode at ${query}`, found, { viewports: ['projector'] });
      }
    });
    await assertNoViolations(found, `walkthrough-presenter-${lang}`);
  });
}

for (const lang of ['en', 'fa']) {
  const language = lang === 'en' ? 'English' : 'Persian';

  test(`axe: a lesson embed (?embed=1&scenario=) and the embed dialog, in ${language}`, async () => {
    const found = [];
    await withAxe({ query: `?embed=1&scenario=s4&step=2&lang=${lang}` }, async (page) => {
      await page.getByTestId('lesson-title').waitFor();
      await scanAll(page, `${language}, a lesson embed`, found, { viewports: ['projector', 'phone'] });
      const steps = SCRIPTS.scenarios.find((s) => s.id === 's4').steps.length;
      await page.goto(`${suite.server.url}?embed=1&scenario=s4&step=${steps}&lang=${lang}`);
      await page.waitForSelector('body[data-settled="true"]');
      await page.getByTestId('continue-full').waitFor();
      await scanAll(page, `${language}, a lesson embed's last step`, found, { viewports: ['projector'] });
      // The full lab's dialog, with a field refused.
      await page.goto(`${suite.server.url}?lang=${lang}&settings=open`);
      await page.waitForSelector('body[data-settled="true"]');
      await page.getByTestId('embed-open').click();
      await page.getByTestId('embed-dialog').waitFor();
      await page.locator('#embed-height').fill('12');
      await scanAll(page, `${language}, the embed dialog`, found, { viewports: ['desktop', 'phone'] });
    });
    await assertNoViolations(found, `embed-lesson-${lang}`);
  });
}

for (const lang of ['en', 'fa']) {
  test(`axe: the parts whose chunk did not arrive (a split build's panels blocked), in ${lang === 'fa' ? 'Persian' : 'English'}`, async () => {
    const context = await suite.browser.newContext();
    await context.addInitScript(AXE);
    try {
      const page = await context.newPage();
      await page.route(/\/split_panels-[0-9a-f]+\.wasm$/, (route) => route.abort('internetdisconnected'));
      await page.goto(`${suite.server.url}?lang=${lang}&settings=open`);
      await page.waitForSelector('body[data-settled="true"]');
      assert.ok((await page.getByTestId('part-failed').count()) > 0, 'the parts say they did not arrive');
      const found = [];
      await scanAll(page, `parts not arrived, ${lang}`, found);
      await assertNoViolations(found, `parts-not-arrived-${lang}`);
    } finally {
      await context.close();
    }
  });
}
