// End-to-end: "Try to break it" (issue 29). The explorer searches histories
// from the sandbox's settings, stops at the first that breaks a promise,
// shrinks it, and lists it step by step; the history replays in the
// walkthrough's player, a step at a time, or the sandbox takes it over, or a
// link carries it. The
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

/** The walkthrough's scripts, as shipped. */
const scripts = async () => JSON.parse(await readFile(join(ROOT, 'walkthrough', 'scenarios.json'), 'utf8'));

/** Presses "Try to break it" and waits until the search is over. */
async function search(page, { timeout = 60_000 } = {}) {
  await explorer(page).click();
  await page.waitForSelector('[data-testid="explorer"]:not([data-state="running"])', { timeout });
}

test('the explorer breaks the in-memory store, shows the shortest history, and replays it step by step in the walkthrough player', () =>
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

    // The replay, in the walkthrough's player: the settings first, then a
    // step at a time, on the stage, told from what each step did.
    const stepTexts = await steps.locator('.explorer-step').allTextContents();
    await page.getByTestId('explorer-replay').click();
    const player = page.getByTestId('walkthrough');
    await player.waitFor();
    const counter = page.getByTestId('step-counter');
    const narration = page.getByTestId('narration');
    const next = page.getByRole('button', { name: 'Next step', exact: true });
    assert.equal(await page.getByTestId('walk-guest').textContent(), 'The shortest history that breaks it: Every operation is granted at most once');
    assert.equal(await counter.getAttribute('data-step'), '1');
    assert.equal(await counter.getAttribute('data-steps'), String(count + 2));
    assert.match(await narration.textContent(), /^The lab with the settings the search ran under; nothing has happened yet\. .*“Every operation is granted at most once”/);
    assert.equal(await rows(page).count(), 0, 'the replay starts from a new lab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Next step', 'the keyboard is on the way forward');
    assert.equal(new URL(page.url()).searchParams.get('scenario'), null, 'a found history is no place in the course');
    const settled = () => page.locator('[data-testid="walkthrough"][data-animating="false"]').waitFor();
    // The step that breaks the promise says so, and the stage marks it.
    let broke = 0;
    const breakMarked = async () => {
      if (!(await narration.textContent()).includes('this breaks “Every operation is granted at most once”')) return;
      broke += 1;
      // In the player the promises panel stands beside the stage.
      const mark = page.getByTestId('invariant-at-most-once');
      assert.equal(await mark.getAttribute('data-marked'), 'true');
      assert.equal(await mark.getAttribute('data-holds'), 'false');
      assert.ok(await mark.isVisible(), 'the marked promise is on screen');
    };
    for (let n = 1; n <= count; n += 1) {
      await next.click();
      await page.locator(`[data-testid="step-counter"][data-step="${n + 1}"]`).waitFor();
      await settled();
      assert.ok((await narration.textContent()).startsWith(`${stepTexts[n - 1]}. Then `), `step ${n}: ${await narration.textContent()}`);
      await breakMarked();
    }
    await next.click();
    await page.locator(`[data-testid="step-counter"][data-step="${count + 2}"]`).waitFor();
    await settled();
    await page.locator('[data-testid="clock"][data-idle="true"]').waitFor();
    assert.match(await narration.textContent(), /^Then the consumer is released and time runs until everything is done: /);
    await breakMarked();
    assert.equal(broke, 1, 'one step breaks the promise, and says so');
    assert.equal(await page.getByTestId('invariant-at-most-once').getAttribute('data-holds'), 'false');
    assert.equal(await next.getAttribute('aria-disabled'), 'true');
    // A true step back: every step done, the end not yet run, so the promise holds.
    await page.getByRole('button', { name: 'Previous step', exact: true }).click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="true"]').waitFor();
    assert.equal(await counter.getAttribute('data-step'), String(count + 1));
    await next.click();
    await page.locator('[data-testid="invariant-at-most-once"][data-holds="false"]').waitFor();
    // Back to the sandbox: the person's own (empty) lab, the keyboard on Replay.
    await page.getByRole('button', { name: 'Back to the sandbox' }).click();
    await player.waitFor({ state: 'detached' });
    assert.equal(await rows(page).count(), 0, 'the sandbox is as it was');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'explorer-replay');
    // The course's walkthrough opens where it was, not at the found history.
    await page.getByRole('button', { name: 'Walkthrough' }).click();
    await page.locator(`[data-testid="step-counter"][data-steps="${(await scripts()).scenarios[0].steps.length}"]`).waitFor();
    assert.equal(await page.getByTestId('walk-guest').count(), 0);
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
    // At a glance: the rows that keep every promise first and marked, a legend,
    // and every verdict column in the dialog's width at 1366 px.
    const keepsInOrder = await page.$$eval('[data-testid="safety-row"]', (rows) => rows.map((r) => r.dataset.keeps === 'true'));
    assert.deepEqual(keepsInOrder.slice(0, 13), [...Array(12).fill(true), false]);
    assert.equal(await page.getByTestId('safety-keeps').count(), 12);
    assert.match(await page.getByTestId('safety-legend').textContent(), /✓ 1,000: no history of 1,000 broke the promise/);
    assert.match(await page.locator('[data-testid="safety-cell"]').first().textContent(), /^✓ 1,000/);
    await page.setViewportSize({ width: 1366, height: 768 });
    const scroll = await page.locator('.safety-scroll').evaluate((el) => [el.scrollWidth, el.clientWidth]);
    assert.ok(scroll[0] <= scroll[1], `no sideways scrolling at 1366 px (${scroll})`);

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
