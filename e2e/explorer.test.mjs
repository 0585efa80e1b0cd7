// End-to-end: "Try to break it" (issue 29). The explorer searches histories
// from the sandbox's settings, stops at the first that breaks a promise,
// shrinks it, and lists it step by step; the history replays in the sandbox,
// a step at a time, or the sandbox takes it over, or a link carries it. The
// safety table runs the explorer over every combination of the settings that
// matter. The explorer's code arrives in a chunk of its own when first used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, rows, ROOT } from './harness.mjs';

const suite = labSuite();

const EXPLORER_CHUNK = /\/split_explorer-[0-9a-f]{16}\.wasm$/;

/** A session's token for `#state=`, as the lab writes it (compact JSON, base64url). */
const token = (session) => Buffer.from(JSON.stringify(session)).toString('base64url');

/** A session that only sets these settings. */
const settingsSession = (settings) => ({
  format: 'idempotency-lab/session',
  version: 3,
  actions: settings.map((set) => ({ set })),
});

/** The article's recommendations, as a session's settings. */
const RECOMMENDED = [
  { store: 'one-transaction' },
  { 'in-flight': 'wait' },
  { acknowledge: 'after-work' },
  { 'ledger-check': true },
  { email: true },
  { 'email-via': 'outbox' },
];

const explorer = (page) => page.getByTestId('explorer');

/** Presses "Try to break it" and waits until the search is over. */
async function search(page, { timeout = 60_000 } = {}) {
  await explorer(page).click();
  await page.waitForSelector('[data-testid="explorer"]:not([data-state="running"])', { timeout });
}

test('the explorer breaks the in-memory store, shows the shortest history, and replays it step by step', () =>
  suite.withLab({}, async (page) => {
    const chunks = [];
    page.on('request', (r) => EXPLORER_CHUNK.test(r.url()) && chunks.push(r.url()));
    assert.equal(await explorer(page).getAttribute('data-state'), 'idle');
    assert.equal(chunks.length, 0, 'the explorer is not fetched before it is used');
    await search(page);
    assert.equal(chunks.length, 1, 'the explorer arrives when first used');
    assert.equal(await explorer(page).getAttribute('data-state'), 'broken');
    assert.equal(await explorer(page).getAttribute('data-broken'), 'at-most-once');
    const tried = Number(await explorer(page).getAttribute('data-histories'));
    assert.ok(tried >= 1 && tried <= 300, `found after ${tried} histories`);
    assert.match(await page.getByTestId('explorer-said').textContent(), /^Broken: “Every operation is granted at most once”, by history \d+, cut down to \d steps?:$/);
    const steps = page.locator('[data-testid="explorer-history"] > li');
    const count = await steps.count();
    assert.ok(count >= 2 && count <= 4, `${count} steps`);
    assert.match(await steps.first().locator('.explorer-step').textContent(), /^Send 100 points to .*alice.* under key .*order-1/);
    // The end says which promise broke.
    assert.match(await page.locator('.explorer-end .explorer-did').textContent(), /this breaks “Every operation is granted at most once”/);

    // The replay: the sandbox starts from the settings, a step at a time.
    await page.getByTestId('explorer-replay').click();
    await page.getByTestId('explorer-replay-at').waitFor();
    assert.equal(await page.getByTestId('explorer-replay-at').textContent(), `0 of ${count + 1} done in the sandbox`);
    assert.equal(await page.getByTestId('explorer-replay-said').textContent(), 'The sandbox holds the history’s settings; nothing is done yet.');
    assert.equal(await rows(page).count(), 0, 'the replay starts from an empty sandbox');
    for (let n = 1; n <= count + 1; n += 1) {
      await page.getByTestId('explorer-next').click();
      assert.equal(await page.getByTestId('explorer-replay-at').textContent(), `${n} of ${count + 1} done in the sandbox`);
      if (n <= count) assert.equal(await steps.nth(n - 1).getAttribute('aria-current'), 'step');
    }
    await page.locator('[data-testid="clock"][data-idle="true"]').waitFor();
    assert.equal(await page.getByTestId('invariant-at-most-once').getAttribute('data-holds'), 'false');
    assert.equal(await page.getByTestId('explorer-next').getAttribute('aria-disabled'), 'true');
    assert.match(await page.getByTestId('explorer-replay-said').textContent(),
      new RegExp(`^${count + 1} of ${count + 1} done in the sandbox\\. Then the consumer is released and time runs until everything is done\\. Then .*this breaks “Every operation is granted at most once”\\.$`));
    // A step back: every step done, the end not yet run, so the promise holds.
    await page.getByTestId('explorer-back').click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="true"]').waitFor();
    assert.equal(await page.getByTestId('explorer-replay-at').textContent(), `${count} of ${count + 1} done in the sandbox`);
    assert.equal(await steps.nth(count - 1).getAttribute('aria-current'), 'step');
    await page.getByTestId('explorer-next').click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="false"]').waitFor();
    // Anything the person does in the sandbox ends the replay: its narration
    // would be of another world.
    await page.getByTestId('explorer-replay').click();
    await page.getByTestId('explorer-next').click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('explorer-next').click();
    await page.getByTestId('explorer-next').waitFor({ state: 'detached' });
  }));

test('"Try it yourself" hands the history to the sandbox, and its link opens it elsewhere', () =>
  suite.withLab({}, async (page, lab) => {
    // Something of the person's own first: the explorer's history replaces it,
    // and it can come back.
    await page.getByTestId('do-step-1').click();
    await rows(page).first().waitFor();
    await search(page);
    const href = await page.getByTestId('explorer-link').getAttribute('href');
    assert.match(href, /#state=[A-Za-z0-9_-]+$/);
    await page.getByTestId('explorer-try').click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="false"]').waitFor();
    assert.ok((await rows(page).count()) >= 2, 'the history is in the timeline');
    assert.equal(await page.getByTestId('notice').textContent().then((t) => t.includes('The explorer’s history is in the sandbox in place of the session you had.')), true);
    await page.getByTestId('bring-back').click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="true"]').waitFor();
    assert.equal(await rows(page).count(), 1, 'the person\'s own session is back');
    await page.getByTestId('explorer-try').click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="false"]').waitFor();
    const other = await lab.context.newPage();
    await other.goto(href);
    await other.waitForSelector('body[data-settled="true"]');
    await other.locator('[data-testid="invariant-at-most-once"][data-holds="false"]').waitFor();
    await other.close();
  }));

test('in Persian the explorer speaks Persian, with Persian digits, and finds the same history', () =>
  suite.withLab({ query: '?lang=fa' }, async (page) => {
    await search(page);
    assert.equal(await explorer(page).getAttribute('data-broken'), 'at-most-once');
    assert.equal(await explorer(page).textContent(), 'سعی کنید خرابش کنید');
    const said = await page.getByTestId('explorer-said').textContent();
    assert.match(said, /^شکست: «امتیاز هر عملیات حداکثر یک بار افزوده می‌شود»/);
    assert.match(said, /[۰-۹]/);
    assert.doesNotMatch(said, /[0-9]/);
    const step = await page.locator('[data-testid="explorer-history"] > li .explorer-step').first().textContent();
    assert.match(step, /^ارسال ۱۰۰ امتیاز به/);
  }));

test('under the article\'s recommendations no promise breaks; a search can be cancelled; bad input runs nothing', () =>
  suite.withLab({ query: `#state=${token(settingsSession(RECOMMENDED))}` }, async (page) => {
    const histories = page.getByTestId('explorer-histories');
    await histories.fill('0');
    await explorer(page).click();
    assert.equal(await explorer(page).getAttribute('data-state'), 'idle');
    assert.match(await page.getByTestId('explorer-error').textContent(), /1 to 1,000,000 histories, not 0/);
    assert.equal(await histories.getAttribute('aria-invalid'), 'true');
    await histories.fill('many');
    await explorer(page).click();
    assert.equal(await explorer(page).getAttribute('data-state'), 'idle');
    assert.notEqual(await page.getByTestId('explorer-error').textContent(), '');

    await histories.fill('2000');
    await search(page);
    assert.equal(await explorer(page).getAttribute('data-state'), 'held');
    assert.equal(await explorer(page).getAttribute('data-histories'), '2000');
    assert.equal(await page.getByTestId('explorer-said').textContent(),
      'No promise broken in 2,000 histories of up to 12 steps (seed 1). Not a proof, but a strong hint.');

    await histories.fill('1000000');
    await explorer(page).click();
    await page.getByTestId('explorer-progress').waitFor();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="explorer"]').dataset.histories) > 0);
    await page.getByTestId('explorer-cancel').click();
    assert.equal(await explorer(page).getAttribute('data-state'), 'idle');
    const stopped = await explorer(page).getAttribute('data-histories');
    assert.match(await page.getByTestId('explorer-said').textContent(), /^Stopped after [\d,]+ histories; none had broken a promise\.$/);
    await page.waitForTimeout(300);
    assert.equal(await explorer(page).getAttribute('data-histories'), stopped, 'a cancelled search stops');
  }));

test('a failing property test\'s link opens its shrunk history in the page', () =>
  suite.withLab({}, async (page, lab) => {
    // What tests/explorer.rs prints when a search breaks a promise: the
    // fragment of the search's replay (this fixture is one such replay).
    const fixture = JSON.parse(await readFile(join(ROOT, 'tests/fixtures/explorer/balance-first-two-processes-seed-11.json'), 'utf8'));
    const other = await lab.context.newPage();
    await other.goto(`${page.url().split('#')[0].split('?')[0]}#state=${token(fixture.session)}`);
    await other.waitForSelector('body[data-settled="true"]');
    await other.locator(`[data-testid="invariant-${fixture.promise}"][data-holds="false"]`).waitFor();
    assert.equal(await rows(other).count(), 2);
    await other.close();
  }));

test('the safety table: every combination and promise, the recommendations keep them all, a broken cell shows its history', () =>
  suite.withLab({}, async (page) => {
    await page.getByTestId('safety-open').click();
    const dialog = page.getByTestId('safety');
    await dialog.waitFor();
    await page.getByTestId('safety-start').click();
    await page.locator('[data-testid="safety-start"][data-state="done"]').waitFor({ timeout: 120_000 });
    const cells = page.locator('[data-testid="safety-cell"]');
    assert.equal(await cells.count(), 4 * 2 * 3 * 2 * 2 * 2 * 5);
    const held = await page.$$eval('[data-testid="safety-cell"]', (tds) => tds.map((td) => ({ ...td.dataset })));
    for (const cell of held) {
      for (const name of ['store', 'processes', 'inFlight', 'ack', 'retention', 'email', 'promise', 'histories', 'holds']) {
        assert.ok(cell[name] !== undefined && cell[name] !== '', `${name} on ${JSON.stringify(cell)}`);
      }
      if (cell.holds === 'true') assert.equal(cell.histories, '1000', 'a cell that holds says 1,000 histories');
    }
    // Only the article's recommendations keep every promise (whatever the
    // in-flight policy, the acknowledgement and the process count).
    const rowsKeeping = new Map();
    for (const cell of held) {
      const row = [cell.store, cell.processes, cell.inFlight, cell.ack, cell.retention, cell.email].join(' ');
      rowsKeeping.set(row, (rowsKeeping.get(row) ?? true) && cell.holds === 'true');
    }
    const keepers = [...rowsKeeping].filter(([, keeps]) => keeps).map(([row]) => row);
    assert.equal(keepers.length, 12);
    for (const row of keepers) assert.match(row, /^one-transaction \d \S+ \S+ ledger outbox$/);
    assert.ok(keepers.includes('one-transaction 1 wait after-work ledger outbox'));
    assert.ok(held.every((cell) => cell.promise !== 'own-account' || cell.holds === 'true'), 'nobody is served another\'s account');
    assert.match(await page.getByTestId('safety-said').textContent(), /^Done: 192,000 histories in [\d.]+ s\. 12 of 192 rows keep every promise\.$/);

    // A broken cell: the dialog closes and the explorer shows its history.
    const broken = page.locator('[data-testid="safety-cell"][data-store="balance-first"][data-promise="granted-has-receipt"][data-holds="false"] button').first();
    await broken.click();
    await dialog.waitFor({ state: 'hidden' });
    const found = page.getByTestId('explorer-found');
    await found.waitFor();
    assert.equal(await found.getAttribute('data-promise'), 'granted-has-receipt');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'explorer-found-title');
    await page.getByTestId('explorer-try').click();
    await page.locator('[data-testid="invariant-granted-has-receipt"][data-holds="false"]').waitFor();
  }));
