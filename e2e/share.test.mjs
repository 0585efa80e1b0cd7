// End-to-end: sharing, saving, importing and embedding a session, and the stress run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labSuite, rows, lastRow, balanceOf, skipToIdle, ARTIFACTS } from './harness.mjs';

/** One server and browser for the file; each test gets a fresh, checked lab. */
const suite = labSuite();
const { withLab } = suite;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const send = (page) => page.getByRole('button', { name: 'Send', exact: true }).click();
const outcomes = (page) => rows(page).evaluateAll((els) => els.map((e) => e.dataset.outcome));

/** The article's walk, each step run until the world is idle (its caller has heard back). */
async function articleWalk(page) {
  await page.getByLabel('Lose acknowledgement').check();
  await send(page);
  await skipToIdle(page);
  await page.getByRole('button', { name: 'Retry (same key)' }).click();
  await skipToIdle(page);
  await page.getByLabel('Points').fill('200');
  await send(page);
  await skipToIdle(page);
  await page.getByRole('button', { name: 'Retry (fresh key)' }).click();
  await skipToIdle(page);
  assert.deepEqual(await outcomes(page), WALK);
}

const WALK = ['timeout-applied', 'replayed', 'rejected', 'applied'];

/** Stress run 1 of a fresh lab: its SplitMix64 chooser, seeded with 1, makes 6,923 of the 10,000 grants distinct. */
const STRESS_DISTINCT = 6923;

test('Copy link says whether the link reached the clipboard', async () => {
  // Granted: copied, and the clipboard holds the link shown.
  await withLab({}, async (page, lab) => {
    await lab.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await send(page);
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    const said = page.locator('[data-testid="link-copied"][data-copied="true"]');
    await said.waitFor();
    assert.equal((await said.textContent()).trim(), 'Copied to the clipboard.');
    const link = await page.getByTestId('permalink').inputValue();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  });
  // Refused by the browser, or no clipboard at all: shown, and said not copied.
  for (const initScript of [
    'navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"));',
    'Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });',
  ]) {
    await withLab({ initScript }, async (page) => {
      await page.getByRole('button', { name: 'Copy link to this state' }).click();
      const said = page.locator('[data-testid="link-copied"][data-copied="false"]');
      await said.waitFor();
      assert.match(await said.textContent(), /^Not copied: /);
      assert.match(await page.getByTestId('permalink').inputValue(), /#state=/, 'the link is still there to copy');
    });
  }
});

test('a permalink opens the same state in a fresh browser', async () => {
  let link;
  await withLab({}, async (page) => {
    await articleWalk(page);
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    link = await page.getByTestId('permalink').inputValue();
  });
  // The page's language goes with it, so the link opens as the sharer saw it.
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/docs\/idempotency\/\?lang=en#state=[A-Za-z0-9_-]+$/);
  const context = await suite.browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(link);
    await page.waitForSelector('body[data-settled="true"]');
    assert.deepEqual(await outcomes(page), WALK);
    assert.equal(await balanceOf(page, 'account-7'), '200');
    assert.doesNotMatch(page.url(), /#state=/, 'the link is read once, then the session is saved');
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.deepEqual(await outcomes(page), WALK, 'and survives a reload');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a link made before the lab had a clock (session version 1) still opens, run to the same outcome', async () => {
  // Saved by the build before the simulated world: tests/fixtures/sessions-v1/.
  const token = (await readFile(join(ROOT, 'tests', 'fixtures', 'sessions-v1', 'article-walk.link'), 'utf8')).trim();
  await withLab({ query: `#state=${token}` }, async (page) => {
    await skipToIdle(page);
    assert.deepEqual(await outcomes(page), WALK);
    assert.equal(await balanceOf(page, 'account-7'), '200');
    assert.match(await page.getByTestId('retry-target').textContent(), /account-7 · order-1042-fresh-1 · \+100/);
    assert.equal(await page.getByTestId('notice').count(), 0, 'opened without a complaint');
  });
});

test('the session survives a reload until Reset', () =>
  withLab({}, async (page) => {
    await send(page);
    await skipToIdle(page);
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.deepEqual(await outcomes(page), ['applied']);
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(await rows(page).count(), 0);
  }));

test('a link to an empty lab, loaded or pasted into the tab, replaces the saved session', () =>
  withLab({}, async (page) => {
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    const emptyLink = await page.getByTestId('permalink').inputValue();
    assert.match(emptyLink, /#state=/);
    await send(page);
    await page.locator('[data-testid="timeline"][data-answered="1"]').waitFor();
    // Opened as a new page load...
    await page.goto('about:blank');
    await page.goto(emptyLink);
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(await rows(page).count(), 0, 'the link opened its own, empty, session');
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(await rows(page).count(), 0, 'and it replaced the one saved before');
    // ...and pasted into the tab that shows the lab: only the fragment changes.
    await send(page);
    await page.locator('[data-testid="timeline"][data-answered="1"]').waitFor();
    await page.goto(emptyLink);
    await page.locator('[data-testid="timeline"][data-answered="0"]').waitFor();
    assert.doesNotMatch(page.url(), /#state=/, 'read once, then taken off the address');
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(await rows(page).count(), 0);
  }));

test('a browser that will not keep the session says so once, and the lab works on', () =>
  withLab(
    {
      initScript: () => {
        Storage.prototype.setItem = () => {
          throw new DOMException('full', 'QuotaExceededError');
        };
      },
    },
    async (page) => {
      await send(page);
      await assert.doesNotReject(
        page.getByTestId('notice').filter({ hasText: 'not keeping the session' }).waitFor(),
      );
      await page.locator('[data-testid="timeline"][data-answered="1"]').waitFor();
      assert.deepEqual(await outcomes(page), ['applied'], 'the grant itself went through');
      await page.getByLabel('Key').fill('order-2');
      await send(page);
      await page.locator('[data-testid="timeline"][data-answered="2"]').waitFor();
      assert.equal(await page.getByTestId('notice').count(), 0, 'told once, not after every action');
    },
  ));

test('a damaged link is reported and changes nothing', () =>
  withLab({ query: '#state=not%%base64' }, async (page) => {
    assert.match(await page.getByTestId('notice').textContent(), /link's session could not be opened.*damaged/);
    assert.equal(await rows(page).count(), 0);
  }));

test('export, then import the file back; hostile files are refused whole', () =>
  withLab({}, async (page) => {
    await articleWalk(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'idempotency-lab-session.json');
    const exported = await readFile(await download.path(), 'utf8');
    const parsed = JSON.parse(exported);
    assert.equal(parsed.format, 'idempotency-lab/session');
    assert.equal(parsed.version, 4);
    assert.ok(parsed.actions.length >= 4);

    await page.getByRole('button', { name: 'Reset' }).click();
    await send(page);
    await skipToIdle(page);
    const importFile = (name, text) =>
      page.getByTestId('import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

    const hostile = [
      ['garbage.json', 'this is not json', /not a lab session file/],
      ['other.json', '{"format":"something-else","version":1,"actions":[]}', /not a lab session/],
      ['future.json', '{"format":"idempotency-lab/session","version":7,"actions":[]}', /version 7/],
      ['retry.json', '{"format":"idempotency-lab/session","version":1,"actions":[{"retry-same":{}}]}', /action 1 cannot be replayed/],
      ['huge.json', ' '.repeat(4 * 1024 * 1024 + 1), /at most 4,194,304/],
      ['long.json', JSON.stringify({ format: 'idempotency-lab/session', version: 1, actions: [{ 'check-balance': { account_id: 'x'.repeat(500) } }] }), /over 80 characters/],
    ];
    for (const [name, text, message] of hostile) {
      await importFile(name, text);
      await page.getByTestId('notice').filter({ hasText: message }).waitFor({ timeout: 5000 });
      assert.deepEqual(await outcomes(page), ['applied'], `${name} left the lab as it was`);
    }

    await importFile('good.json', exported);
    await page.getByTestId('notice').filter({ hasText: /Session imported/ }).waitFor();
    assert.deepEqual(await outcomes(page), WALK);
    assert.equal(await balanceOf(page, 'account-7'), '200');
  }));

test('a key that looks like markup is shown as text', () =>
  withLab({}, async (page) => {
    const key = '<img src=x onerror="window.__pwned=1">';
    await page.getByLabel('Key').fill(key);
    await send(page);
    await lastRow(page).waitFor();
    assert.equal(await lastRow(page).locator('.key').textContent(), key);
    assert.equal(await page.locator('.lab img').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  }));

test('embedded in an iframe: compact, opens a shared state, fits its frame', async () => {
  let token;
  await withLab({}, async (page) => {
    await articleWalk(page);
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    token = (await page.getByTestId('permalink').inputValue()).split('#state=')[1];
  });
  const context = await suite.browser.newContext({ viewport: { width: 900, height: 800 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.setContent(
      `<h1>Docs page</h1><iframe title="lab" src="${suite.server.url}?embed=1&lang=en#state=${token}" style="width:640px;height:600px;border:1px solid #999"></iframe>`,
    );
    const frame = page.frameLocator('iframe');
    await frame.locator('body[data-settled="true"]').waitFor();
    assert.equal(await frame.locator('html.embed').count(), 1);
    assert.equal(await frame.locator('.how-to').count(), 0, 'no page chrome');
    assert.equal(await frame.locator('[data-testid="timeline-row"]').count(), 4);
    const open = frame.getByRole('link', { name: /Open the full lab/ });
    assert.match(await open.getAttribute('href'), /\/docs\/idempotency\/\?lang=en#state=/);
    const overflow = await frame.locator('html').evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the lab is ${overflow}px wider than its frame`);
    await page.screenshot({ path: join(ARTIFACTS, 'embed.png') });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('stress: 10,000 grants with 30% duplicates end with the right balance and a bounded DOM', () =>
  withLab({}, async (page) => {
    const before = await page.evaluate(() => document.getElementsByTagName('*').length);
    await page.getByTestId('stress').click();
    // A patient batch job, worked off at the processing time: once it is under
    // way (the page draws a big batch a moment later), skip to its end.
    await page.locator('[data-testid="stress"][aria-disabled="true"]').waitFor();
    await skipToIdle(page, { timeout: 60_000 });
    await page.locator('[data-testid="timeline"][data-answered="10000"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="queue-count"][data-queued="0"]').waitFor();
    const receipts = Number(await page.getByTestId('store').getAttribute('data-receipts'));
    assert.equal(receipts, STRESS_DISTINCT, 'the run is seeded: always the same duplicates');
    assert.equal(Number(await balanceOf(page, 'account-7')), receipts * 100);
    assert.equal(await page.locator('[data-outcome="applied"]').count() + await page.locator('[data-outcome="replayed"]').count(), 25);
    assert.equal(await page.locator('[data-testid="timeline-row"][data-outcome^="timeout"]').count(), 0, 'a patient caller never times out');
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    assert.ok(nodes < before + 2500, `DOM grew from ${before} to ${nodes} elements`);
    assert.equal(await rows(page).count(), 25, 'only one page of rows is rendered');
    await page.getByRole('button', { name: 'Older' }).click();
    assert.match(await page.getByTestId('pager').textContent(), /Attempts 9951–9975 of 10000/);
  }));

test('stress: the button says how far its run has got, and a second press starts nothing but says why', () =>
  withLab({}, async (page) => {
    const stress = page.getByTestId('stress');
    const progress = page.getByTestId('stress-progress');
    assert.equal((await progress.textContent()).trim(), '');
    assert.equal(await stress.getAttribute('aria-disabled'), 'false');
    await stress.click();
    await page.waitForFunction(() => /Stress run under way: [1-9][0-9,]* of 10,000 answered/.test(document.querySelector('[data-testid="stress-progress"]').textContent));
    assert.equal(await stress.getAttribute('aria-disabled'), 'true');
    // Still focusable and pressable (aria-disabled), so it can say why.
    await stress.click({ force: true });
    assert.match(await page.getByTestId('notice').textContent(), /^No new stress run: the last one is still under way \([0-9,]+ of 10,000 answered\)/);
    await skipToIdle(page, { timeout: 60_000 });
    await page.locator('[data-testid="timeline"][data-answered="10000"]').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('waiting').getAttribute('data-waiting'), '0', 'no second run queued');
    assert.equal((await progress.textContent()).trim(), '', 'done: nothing to report');
    assert.equal(await stress.getAttribute('aria-disabled'), 'false');
  }));

test('while a run is skipped to its end the timeline holds still, then shows the newest rows', () =>
  withLab({}, async (page) => {
    // A slower processor, so the skip lasts long enough to be watched.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const timeline = page.getByTestId('timeline');
    const shown = () => rows(page).evaluateAll((all) => all.map((row) => row.dataset.attempt).join(','));
    await page.getByTestId('stress').click();
    await rows(page).first().waitFor({ timeout: 30_000 });
    await page.getByTestId('skip-to-idle').click();
    await page.locator('[data-testid="timeline"][aria-busy="true"]').waitFor();
    const held = await shown();
    assert.notEqual(held, '');
    const total = Number(await timeline.getAttribute('data-total'));
    // The run goes on (the count says so) while the rows stay as they were.
    await page.waitForFunction(
      (before) => Number(document.querySelector('[data-testid="timeline"]').dataset.total) > before + 100,
      total,
    );
    assert.equal(await timeline.getAttribute('aria-busy'), 'true', 'still skipping');
    assert.equal(await shown(), held);
    await page.locator('[data-testid="timeline"][aria-busy="false"]').waitFor({ timeout: 60_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.locator('[data-testid="timeline"][data-answered="10000"]').waitFor();
    assert.match(await page.getByTestId('pager').textContent(), /Attempts 9976–10000 of 10000/);
    assert.notEqual(await shown(), held);
  }));
