// End-to-end: the promises panel and the timeline's marker rows. The three
// promises start kept; a crash between the writes of a balance-first store and a
// retry break two of them, named by attempt and announced once; the timeline says
// in words what the crash left and that a new process took over; two processes
// racing in one transaction show a commit conflict while "at most once" holds;
// retention and a clock move show as rows too. Each lab is set up through a
// session link (its list of actions), so no setting's control is needed, then
// driven with the request buttons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, openLab, rows, balanceOf, skipToIdle, ARTIFACTS } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;
const require = createRequire(import.meta.url);

/** The fragment of a link that opens a session of these actions (src/lab/session.rs). */
const link = (actions) =>
  `#state=${Buffer.from(JSON.stringify({ format: 'idempotency-lab/session', version: 2, actions })).toString('base64url')}`;
const send = (key) => ({ send: { grant: { key, account_id: 'account-7', points: 100 }, lose_acknowledgement: false } });
const retry = { 'retry-same': { lose_acknowledgement: false } };
const wait = (ms) => ({ wait: { ms } });

/** A balance-first durable store, a crash armed between its writes, and one send that crashed there. */
const CRASHED = [
  { 'set-store': { kind: 'balance-first' } },
  { 'set-crash-point': { point: 'between-writes' } },
  send('order-1042'),
  wait(100),
];
/** Two processes over one durable store writing in one transaction, each delivery taking 1 s. */
const RACE = [{ 'set-store': { kind: 'one-transaction' } }, { 'set-processes': { count: 2 } }, { 'set-processing-time': { ms: 1000 } }];

const CODES = ['at-most-once', 'granted-has-receipt', 'receipt-has-grant'];
const promise = (page, code) => page.getByTestId(`invariant-${code}`);
async function holds(page) {
  const found = {};
  for (const code of CODES) found[code] = await promise(page, code).getAttribute('data-holds');
  return found;
}
const kept = (overrides = {}) => ({ 'at-most-once': 'true', 'granted-has-receipt': 'true', 'receipt-has-grant': 'true', ...overrides });
/** What an element says, spaces folded and the isolates around data (U+2068, U+2069) left out. */
const text = (locator) => locator.evaluate((e) => e.textContent.replace(/[\u2066\u2068\u2069]/g, '').replace(/\s+/g, ' ').trim());
const button = (page, name) => page.getByRole('button', { name, exact: true });
const markers = (page) => page.locator('[data-testid="timeline-marker"]');
const marker = (page, event) => page.locator(`[data-testid="timeline-marker"][data-event="${event}"]`);
const announcement = (page) => page.getByTestId('invariant-announcement');
/** The timeline's body in order: markers by their event, attempt rows by their number. */
const order = (page) =>
  page.locator('section.timeline tbody > tr').evaluateAll((trs) => trs.map((tr) => (tr.dataset.event ? `marker:${tr.dataset.event}` : `#${tr.dataset.attempt}`)));

test('the panel starts with every promise kept, in words, and an ordinary retry keeps them', () =>
  withLab({}, async (page) => {
    assert.equal(await page.getByRole('heading', { name: 'Promises (invariants)', exact: true }).count(), 1);
    assert.deepEqual(await holds(page), kept());
    assert.match(await text(promise(page, 'at-most-once')), /^Every operation is granted at most once: ✓ ?Holds$/);
    assert.match(await text(promise(page, 'granted-has-receipt')), /^Every granted operation has a receipt: ✓ ?Holds$/);
    assert.match(await text(promise(page, 'receipt-has-grant')), /^Every receipt matches a grant: ✓ ?Holds$/);
    assert.equal(await announcement(page).getAttribute('role'), 'status', 'a polite live region, there from the start');
    assert.equal(await text(announcement(page)), '');
    assert.equal(await page.getByTestId('receipts-expired').count(), 0, 'nothing expired, nothing said');

    await page.getByLabel('Lose acknowledgement').check();
    await button(page, 'Send').click();
    await skipToIdle(page);
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    assert.deepEqual(await holds(page), kept(), 'a lost acknowledgement and a retry with the same key break nothing');
    assert.equal(await markers(page).count(), 0, 'no marker without a crash, restart, conflict, expiry or clock move');
    assert.equal(await text(announcement(page)), '');
  }));

test('a balance-first crash between the writes, then a retry: two promises break, named by attempt and announced once', () =>
  withLab({ query: `?lang=en${link(CRASHED)}` }, async (page) => {
    await skipToIdle(page);
    // The crash left the points without a receipt.
    assert.deepEqual(await holds(page), kept({ 'granted-has-receipt': 'false' }));
    assert.match(await text(promise(page, 'granted-has-receipt')), /: ✕ ?Broken ?Broken by attempt #1 at 0\.1 s ?Show attempt #1 in the timeline$/);
    assert.equal(await text(announcement(page)), '', 'a session that opens broken is shown, not announced');

    // The timeline, in time order: attempt 1 as it was sent, then what the crash left,
    // labelled by write order, then the new process.
    assert.deepEqual(await order(page), ['#1', 'marker:crash', 'marker:restart']);
    assert.match(
      await text(marker(page, 'crash')),
      /^↯ ?Process 1 crashed between the two writes while handling attempt #1: the points were added, the receipt was not\. Balance first leaves points with no receipt: a retry finds no receipt and adds them again \(unless the ledger check recognises the operation\)\. at 0\.1 s$/,
    );
    assert.match(await text(marker(page, 'restart')), /Process 1 ended; process 2 took its place: memory, queue and work in hand are gone\./);
    const first = rows(page).first();
    assert.equal(await first.getAttribute('data-crashed'), 'between-writes');
    assert.equal(await first.getAttribute('data-broke'), 'granted-has-receipt');
    assert.match(await text(first.locator('td.store')), /crashed between the two writes/);
    assert.match(await text(first.locator('td.request')), /process 1/);

    // The retry finds no receipt and adds the points again.
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    assert.deepEqual(await holds(page), kept({ 'at-most-once': 'false', 'granted-has-receipt': 'false' }));
    assert.match(await text(promise(page, 'at-most-once')), /Broken by attempt #2 at 0\.2 s/);
    assert.equal(await promise(page, 'at-most-once').getByTestId('broken-by').getAttribute('data-attempt'), '2');
    assert.equal(
      await text(announcement(page)),
      'Promise broken: “Every operation is granted at most once”, by attempt #2 at 0.2 s. Promise broken: “Each purchase is paid once”, by attempt #2 at 0.2 s.',
      'only the promises that broke in this step: the same key granted twice paid one purchase twice',
    );
    assert.equal(await balanceOf(page, 'account-7'), '200');
    assert.equal(await rows(page).count(), 2, 'marker rows are not attempt rows');
    const second = rows(page).nth(1);
    assert.equal(await second.getAttribute('data-process'), '2');
    assert.equal(await second.getAttribute('data-broke'), 'at-most-once paid-once');
    assert.match(await text(second.locator('td.store')), /granted again: attempt #1 added these points, then process 1 crashed before writing its receipt/);
    assert.match(await text(second.locator('td.store')), /broke “at most once”/);

    // The way to the row, by keyboard: the focus lands on it.
    await button(page, 'Show attempt #2 in the timeline').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.dataset?.attempt === '2');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'timeline-row');
    await button(page, 'Show attempt #1 in the timeline').click();
    await page.waitForFunction(() => document.activeElement?.dataset?.attempt === '1');

    // A send that breaks nothing new says nothing new.
    await page.getByLabel('Key').fill('order-1043');
    await button(page, 'Send').click();
    await skipToIdle(page);
    assert.equal(await text(announcement(page)), 'Promise broken: “Every operation is granted at most once”, by attempt #2 at 0.2 s. Promise broken: “Each purchase is paid once”, by attempt #2 at 0.2 s.');
    await page.screenshot({ path: join(ARTIFACTS, 'invariants-broken-en.png'), fullPage: true });
  }));

test('the same crash in Persian: the promises, their states and the crash row in Persian words', () =>
  withLab({ query: `?lang=fa${link([...CRASHED, retry, wait(100)])}`, locale: 'fa-IR' }, async (page) => {
    await skipToIdle(page);
    assert.deepEqual(await holds(page), kept({ 'at-most-once': 'false', 'granted-has-receipt': 'false' }));
    assert.match(await text(promise(page, 'at-most-once')), /امتیاز هر عملیات حداکثر یک بار افزوده می‌شود: ✕ ?شکسته شد/);
    assert.match(await text(promise(page, 'at-most-once')), /شکسته با تلاش #۲ در ۰٫۲ ثانیه/);
    assert.match(await text(promise(page, 'receipt-has-grant')), /برقرار است/);
    assert.match(await text(marker(page, 'crash')), /فرایند ۱ میان دو نوشتن هنگام رسیدگی به تلاش #۱ ناگهان متوقف شد: امتیاز اضافه شد، رسید نه\./);
    assert.match(await text(marker(page, 'restart')), /فرایند ۱ پایان یافت و فرایند ۲ جایش را گرفت/);
    await page.screenshot({ path: join(ARTIFACTS, 'invariants-broken-fa.png'), fullPage: true });
  }));

test('two processes race in one transaction: the loser’s commit conflicts, it returns the committed receipt, and at most once holds', () =>
  withLab({ query: `?lang=en${link(RACE)}` }, async (page) => {
    assert.deepEqual(await order(page), ['marker:process-started']);
    assert.match(await text(marker(page, 'process-started')), /Process 2 started as a second process, with its own queue and consumer\./);
    // Send, then retry at once: both are in flight on different processes.
    await button(page, 'Send').click();
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    // Both sent, then the loser's commit conflicts.
    assert.deepEqual(await order(page), ['marker:process-started', '#1', '#2', 'marker:commit-conflict']);
    assert.match(
      await text(marker(page, 'commit-conflict')),
      /Attempt #2 \(process 2\) lost the race: another attempt of the operation committed first; its transaction rolled back and it returned the committed receipt\./,
    );
    const loser = rows(page).nth(1);
    assert.equal(await loser.getAttribute('data-process'), '2');
    assert.equal(await loser.getAttribute('data-conflict'), 'true');
    assert.equal(await loser.getAttribute('data-outcome'), 'replayed');
    assert.match(await text(loser.locator('td.store')), /lost the race: returned the committed receipt/);
    assert.deepEqual(await holds(page), kept());
    assert.equal(await balanceOf(page, 'account-7'), '100');
    assert.equal(await text(announcement(page)), '');
  }));

test('receipts that expire and a clock moved forward are rows too; expiry is context, not a broken promise', () =>
  withLab({ query: `?lang=en${link([{ 'set-store': { kind: 'one-transaction' } }, send('order-1042'), send('order-1043'), wait(200), { 'move-clock': { ms: 90_000_000 } }])}` }, async (page) => {
    await skipToIdle(page);
    // Two sweeps at two moments, between the same rows: one row for both.
    assert.deepEqual(await order(page), ['#1', '#2', 'marker:expired', 'marker:clock']);
    assert.match(await text(marker(page, 'expired')), /^⌫ ?2 receipts expired \(retention 24 h\), the first for account-7 · order-1042\./);
    assert.match(await text(marker(page, 'clock')), /^» ?Clock moved forward by 1 day 1 hour\./);
    assert.deepEqual(await holds(page), kept());
    const expired = page.getByTestId('receipts-expired');
    assert.equal(await expired.getAttribute('data-expired'), '2');
    assert.match(await text(expired), /^2 receipts expired after the retention \(now 24 hours\)\. Not a broken promise/);
    // A retry after that looks new: granted again.
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    assert.deepEqual(await holds(page), kept({ 'at-most-once': 'false' }));
    assert.match(await text(announcement(page)), /by attempt #3/);
    // Now the note says why the promise broke, not that none did.
    assert.match(await text(expired), /^2 receipts expired after the retention \(now 24 hours\), as the store said it would\. A retry that came after that found no receipt, looked new and was granted again: that is why “at most once” broke\.$/);
  }));

test('axe: no WCAG A or AA violation with broken promises and marker rows, in both languages, light and dark, at three widths', async () => {
  const session = link([
    ...CRASHED,
    retry,
    wait(100),
    ...RACE,
    send('order-1043'),
    retry,
    wait(1000),
    { 'move-clock': { ms: 90_000_000 } },
  ]);
  const found = [];
  for (const lang of ['en', 'fa']) {
    const lab = await openLab(suite.browser, suite.server, {
      query: `?lang=${lang}${session}`,
      locale: lang === 'fa' ? 'fa-IR' : 'en-US',
      initScript: { path: require.resolve('axe-core/axe.min.js') },
    });
    try {
      const { page } = lab;
      await skipToIdle(page);
      assert.equal(await markers(page).count(), 6, 'crash, restart, process started, conflict, two expiries in one row, clock');
      assert.equal(await promise(page, 'at-most-once').getAttribute('data-holds'), 'false');
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const viewport of [{ width: 1400, height: 1000 }, { width: 1024, height: 768 }, { width: 390, height: 844 }]) {
          await page.setViewportSize(viewport);
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          await page.waitForTimeout(200);
          const violations = await page.evaluate(async () => {
            const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
            const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
            return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
          });
          for (const v of violations) found.push({ where: `${lang}, ${scheme}, ${viewport.width}px`, ...v });
        }
      }
      assert.deepEqual(lab.problems(), []);
    } finally {
      await lab.context.close();
    }
  }
  await writeFile(join(ARTIFACTS, 'a11y-invariants.json'), JSON.stringify(found, null, 2));
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
});
