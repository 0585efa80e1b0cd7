// End-to-end: storage and processes. The store behind the workers (the process's
// memory, or a durable store in three write orders), a crash armed at a named
// moment, two processes side by side, receipts that expire when the clock moves a
// day, and the ledger that still recognises an operation whose receipt is gone.
// Every scenario is clicked through with the labels an outside suite may rely on,
// and every new control is driven by the keyboard too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { labSuite, rows, balanceOf, clock, virtualNow, skipToIdle, setSpeed, ARTIFACTS } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const button = (page, name) => page.getByRole('button', { name, exact: true });
const field = (page, label) => page.getByLabel(label, { exact: true });
const send = (page) => button(page, 'Send').click();
const retrySame = (page) => button(page, 'Retry (same key)').click();
const row = (page, n) => rows(page).nth(n - 1);
const choose = (page, label, option) => field(page, label).selectOption({ label: option });
const ledgerSwitch = (page) => page.getByRole('switch', { name: 'Recognise by ledger row', exact: true });
const optionTexts = (locator) => locator.locator('option').evaluateAll((os) => os.map((o) => o.textContent.trim()));
const text = async (locator) => (await locator.textContent()).replace(/\s+/g, ' ').trim();

/** A timeline row's contract attributes. */
const rowFacts = (locator) =>
  locator.evaluate((e) => ({
    outcome: e.dataset.outcome,
    process: e.dataset.process,
    regranted: e.dataset.regranted ?? null,
    receipt: e.dataset.receiptBalance ?? null,
  }));

/** The current balance a separate read sees ("Check balance"): 0 for an account with no points. */
async function readBalance(page) {
  await button(page, 'Check balance').click();
  return page.getByTestId('balance-read').getAttribute('data-balance');
}

test('the storage and processes panel: its controls, their options and defaults', () =>
  withLab({}, async (page) => {
    assert.equal(await page.getByRole('heading', { name: 'Storage and processes', exact: true }).count(), 1);
    const store = field(page, 'Store');
    assert.equal(await store.evaluate((e) => e.tagName), 'SELECT');
    assert.deepEqual(await optionTexts(store), ['In memory', 'Durable: receipt first', 'Durable: balance first', 'Durable: one transaction']);
    assert.deepEqual(await store.locator('option').evaluateAll((os) => os.map((o) => o.value)), [
      'in-memory',
      'receipt-first',
      'balance-first',
      'one-transaction',
    ]);
    assert.equal(await store.inputValue(), 'in-memory');
    const crash = field(page, 'Crash point');
    assert.deepEqual(await optionTexts(crash), ['None', 'Before anything is written', 'Between the two writes', 'After commit, before acknowledgement']);
    assert.equal(await crash.inputValue(), 'none');
    assert.match(await text(page.locator('#crash-point-hint')), /next handling that reaches this moment, once/);
    const processes = field(page, 'Processes');
    assert.deepEqual(await optionTexts(processes), ['1', '2']);
    assert.equal(await processes.inputValue(), '1');
    const routing = field(page, 'Routing');
    assert.deepEqual(await optionTexts(routing), ['Round robin', 'By hash of the key', 'Always process 1', 'Always process 2']);
    assert.equal(await routing.isEnabled(), true, 'never a silently dead control');
    assert.match(await text(page.getByTestId('routing-hint')), /Only one process runs now.*routing matters once 2 run/);
    assert.equal(await field(page, 'Retention (hours)').inputValue(), '24');
    assert.equal(await ledgerSwitch(page).isChecked(), false);
    assert.match(await text(page.locator('#ledger-hint')), /ledger row.*never deletes it/);
    assert.match(await text(page.locator('#ledger-hint')), /Applies to the durable store only\./);
    // Each select is named by its label alone, and says what the choice does.
    for (const [label, hint] of [['Store', /each process keeps balances and receipts in its own memory/], ['Crash point', /Crashes/], ['Processes', /side by side/], ['Routing', /Calls take turns/]]) {
      const control = field(page, label);
      const described = await control.evaluate((e) => e.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' '));
      assert.match(described, hint, `${label}: its hint`);
    }
    // The store panel says which store it shows.
    assert.equal(await page.getByRole('heading', { name: "Store: process 1's memory", exact: true }).count(), 1);
    assert.match(await text(page.getByTestId('store-shows')), /in-memory store, inside process 1/);
    await choose(page, 'Store', 'Durable: one transaction');
    assert.equal(await page.getByRole('heading', { name: 'Durable store', exact: true }).count(), 1);
    assert.match(await text(page.getByTestId('store-shows')), /Receipts are deleted 24 hours after they were written/);
    assert.match(await text(page.locator('#store-kind-hint')), /one transaction, both or neither/);
    assert.doesNotMatch(await text(page.locator('#ledger-hint')), /durable store only/);
  }));

test('a restart with the in-memory store, then a retry: the new process grants again, and the row says so', () =>
  withLab({}, async (page) => {
    await send(page);
    await skipToIdle(page);
    assert.equal(await balanceOf(page, 'account-7'), '100');
    await button(page, 'Restart process').click();
    assert.equal(await clock(page).getAttribute('data-process'), '2');
    assert.equal(await page.getByRole('heading', { name: "Store: process 2's memory", exact: true }).count(), 1);
    assert.equal(await page.getByTestId('receipt-row').count(), 0, 'the receipt went with process 1');
    await retrySame(page);
    await skipToIdle(page);
    const retry = await rowFacts(row(page, 2));
    assert.deepEqual(retry, { outcome: 'applied', process: '2', regranted: 'true', receipt: '100' });
    assert.match(await text(row(page, 2).locator('td.store')), /granted again: process 1 had applied this operation, and the restart forgot its receipt/);
    // 100 in process 1, gone with it, and 100 again in process 2: granted twice in all.
    assert.equal(await balanceOf(page, 'account-7'), '100', 'process 2 counts from zero');
  }));

test('Durable: balance first, crashed between the two writes: the points stay without a receipt, and a retry adds them again', () =>
  withLab({}, async (page) => {
    await choose(page, 'Store', 'Durable: balance first');
    await choose(page, 'Crash point', 'Between the two writes');
    assert.equal(await field(page, 'Crash point').inputValue(), 'between-writes', 'armed');
    await send(page);
    await skipToIdle(page);
    assert.equal(await field(page, 'Crash point').inputValue(), 'none', 'it fired once, and is disarmed');
    assert.equal(await clock(page).getAttribute('data-process'), '2', 'a new process took over');
    assert.equal((await rowFacts(row(page, 1))).outcome, 'process-ended');
    assert.equal(await balanceOf(page, 'account-7'), '100', 'the balance write held');
    assert.equal(await page.getByTestId('receipt-row').count(), 0, 'no receipt was written');
    await retrySame(page);
    await skipToIdle(page);
    assert.equal((await rowFacts(row(page, 2))).outcome, 'applied', 'the retry is not recognised');
    assert.equal(await balanceOf(page, 'account-7'), '200', 'granted twice');
  }));

test('Durable: receipt first, crashed between the two writes: the retry gets a receipt for points never added', () =>
  withLab({}, async (page) => {
    await choose(page, 'Store', 'Durable: receipt first');
    await choose(page, 'Crash point', 'Between the two writes');
    await send(page);
    await skipToIdle(page);
    assert.equal(await page.getByTestId('receipt-row').count(), 1, 'the receipt was written');
    await retrySame(page);
    await skipToIdle(page);
    const retry = await rowFacts(row(page, 2));
    assert.equal(retry.outcome, 'replayed', 'the receipt is found');
    assert.equal(retry.receipt, '100', 'and promises a balance of 100');
    assert.equal(await page.getByTestId('balance-account-7').count(), 0, 'no account has points');
    assert.equal(await readBalance(page), '0', 'the balance is 0');
  }));

test('Durable: one transaction, crashed between the two writes: nothing is half done, and the retry applies once', () =>
  withLab({}, async (page) => {
    await choose(page, 'Store', 'Durable: one transaction');
    await choose(page, 'Crash point', 'Between the two writes');
    await send(page);
    await skipToIdle(page);
    assert.equal(await page.getByTestId('receipt-row').count(), 0, 'the transaction was rolled back');
    assert.equal(await readBalance(page), '0');
    await retrySame(page);
    await skipToIdle(page);
    assert.equal((await rowFacts(row(page, 2))).outcome, 'applied');
    assert.equal(await balanceOf(page, 'account-7'), '100', 'applied once');
    assert.equal(await page.getByTestId('receipt-row').count(), 1);
  }));

test('two processes, each with its memory: a quick retry goes to the other process, and both apply', () =>
  withLab({ instant: true }, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await choose(page, 'Processes', '2');
    assert.equal(await clock(page).getAttribute('data-processes'), '1 2');
    assert.match(await text(clock(page)), /processes 1 and 2/);
    assert.doesNotMatch(await text(page.getByTestId('routing-hint')), /Only one process/);
    const processing = field(page, 'Processing time (ms)');
    await processing.fill('1000');
    await processing.press('Enter');
    await send(page);
    await retrySame(page);
    // Each queue under its process: process 1 works on the send, process 2 on the retry.
    assert.deepEqual(await page.locator('section.queue .line-title').allTextContents(), ['Process 1', 'Process 2']);
    await page.locator('[data-testid="consumer"].busy').waitFor();
    await page.locator('[data-testid="consumer-2"].busy').waitFor();
    assert.match(await text(page.getByTestId('consumer')), /^Consumer is applying: attempt 1 /);
    assert.match(await text(page.getByTestId('consumer-2')), /^Consumer is applying: attempt 2 /);
    await skipToIdle(page);
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => [e.dataset.outcome, e.dataset.process])),
      [['applied', '1'], ['applied', '2']],
      'each process applied it',
    );
    assert.equal(await page.getByRole('heading', { name: "Stores: each process's memory", exact: true }).count(), 1);
    assert.equal(await balanceOf(page, 'account-7'), '100', "process 1's memory");
    assert.equal(await text(page.getByTestId('balance-2-account-7')), '100', "process 2's memory");
    assert.equal(await page.getByTestId('receipt-row-2').count(), 1);

    // Back to one process: the second line and memory go.
    await choose(page, 'Processes', '1');
    assert.equal(await page.locator('section.queue .line-title').count(), 0, 'one process looks as it always did');
    assert.equal(await page.getByTestId('memory-2').count(), 0);
  }));

test('a day later with 24 hours of retention the receipt is gone, and a retry grants again; the ledger row recognises it', async () => {
  for (const ledger of [false, true]) {
    // Messages arrive at once: the day is counted from the store's own moment.
    await withLab({ instant: true }, async (page) => {
      await choose(page, 'Store', 'Durable: one transaction');
      const retention = field(page, 'Retention (hours)');
      await retention.fill('24');
      await retention.press('Enter');
      if (ledger) await ledgerSwitch(page).check();
      await send(page);
      await skipToIdle(page);
      assert.equal(await page.getByTestId('receipt-row').count(), 1);
      const before = await virtualNow(page);
      await button(page, '+1 day').click();
      assert.equal(await virtualNow(page), before + 86_400_000);
      assert.match(await text(clock(page)), /^Virtual time 1 d 00:00:00\.1 · process 1$/);
      assert.equal(await page.getByTestId('receipt-row').count(), 0, 'the receipt expired');
      assert.match(await text(page.getByTestId('store')), /No receipt stored yet\./);
      await retrySame(page);
      await skipToIdle(page);
      const retry = await rowFacts(row(page, 2));
      if (ledger) {
        assert.equal(retry.outcome, 'replayed', 'recognised by its ledger row');
        assert.equal(await balanceOf(page, 'account-7'), '100', 'the balance stays');
      } else {
        assert.equal(retry.outcome, 'applied', 'the old key looks new');
        assert.equal(await balanceOf(page, 'account-7'), '200', 'granted again');
      }
    });
  }
});

test('moving the clock: an hour, to a time; a bad time or retention says why and changes nothing', () =>
  withLab({}, async (page) => {
    await button(page, '+1 hour').click();
    assert.equal(await virtualNow(page), 3_600_000);
    assert.match(await text(clock(page)), /^Virtual time 01:00:00\.0 · process 1$/);
    const to = field(page, 'Move clock to (h:mm)');
    const error = page.getByTestId('move-to-error');
    for (const [typed, message] of [
      ['0:30', /^That time is not after now \(01:00:00\.0\): the clock only moves forward\. Nothing changed\.$/],
      ['1:00', /not after now/],
      ['2:75', /^Minutes run from 00 to 59\. Nothing changed\.$/],
      ['soon', /^Write the time as hours:minutes/],
      ['', /^Write the time as hours:minutes/],
      ['9999:00', /^The clock moves forward 1 ms to a year .* Nothing changed\.$/],
    ]) {
      await to.fill(typed);
      await button(page, 'Move').click();
      assert.match(await text(error), message, `«${typed}»`);
      assert.equal(await to.getAttribute('aria-invalid'), 'true');
      assert.equal(await virtualNow(page), 3_600_000, `«${typed}» changed nothing`);
      assert.equal(await page.getByTestId('notice').count(), 0, 'said under the field, not twice');
    }
    await to.fill('25:30');
    await to.press('Enter');
    assert.equal(await virtualNow(page), 25.5 * 3_600_000);
    assert.equal(await text(error), '', 'the message went');
    assert.equal(await to.getAttribute('aria-invalid'), 'false');
    assert.match(await text(clock(page)), /^Virtual time 1 d 01:30:00\.0 · process 1$/);

    // Retention: not a number, or out of range, is said under the field.
    const retention = field(page, 'Retention (hours)');
    const retentionError = page.getByTestId('retention-error');
    await button(page, 'Undo').click();
    await button(page, 'Undo').click();
    assert.equal(await button(page, 'Undo').isDisabled(), true, 'back to the start');
    for (const [typed, message] of [
      ['abc', /^Not a whole number\. Nothing changed: receipts are still kept 24 hours\.$/],
      ['0', /^Retention \(hours\): must be 1 to 8,760, not 0\. Nothing changed\.$/],
      ['9000', /must be 1 to 8,760, not 9,000/],
      // Too large for the setting's type: still named as typed, not as its largest value.
      ['4294967296', /must be 1 to 8,760, not 4,294,967,296\. Nothing changed\.$/],
    ]) {
      await retention.fill(typed);
      await retention.press('Enter');
      assert.match(await text(retentionError), message, `«${typed}»`);
      assert.equal(await retention.getAttribute('aria-invalid'), 'true');
      assert.equal(await button(page, 'Undo').isDisabled(), true, `«${typed}» changed nothing`);
    }
    await retention.fill('48');
    await retention.press('Enter');
    assert.equal(await text(retentionError), '');
    assert.equal(await retention.inputValue(), '48');
    await choose(page, 'Store', 'Durable: receipt first');
    assert.match(await text(page.getByTestId('store-shows')), /deleted 48 hours after/);
  }));

test('keyboard: every new control is reached with Tab and works without a mouse', () =>
  withLab({}, async (page) => {
    const wanted = ['move-hour', 'move-day', 'move-to-time', 'move-to', 'store-kind', 'crash-point', 'processes', 'routing', 'retention', 'ledger-check'];
    // Tab from the top of the page until every new control has had the focus.
    const reached = new Set();
    await page.locator('body').focus();
    for (let i = 0; i < 80 && reached.size < wanted.length; i += 1) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => document.activeElement?.dataset?.testid ?? null);
      if (wanted.includes(id)) reached.add(id);
    }
    assert.deepEqual([...reached].sort(), [...wanted].sort(), 'each is in the tab order');

    await setSpeed(page, 'Clock stopped');
    // Buttons with Enter and Space.
    await page.getByTestId('move-hour').focus();
    await page.keyboard.press('Enter');
    assert.equal(await virtualNow(page), 3_600_000);
    await page.getByTestId('move-day').focus();
    await page.keyboard.press('Space');
    assert.equal(await virtualNow(page), 25 * 3_600_000);
    // A time typed, then Enter.
    await page.getByTestId('move-to-time').focus();
    await page.keyboard.type('30:00');
    await page.keyboard.press('Enter');
    assert.equal(await virtualNow(page), 30 * 3_600_000);
    // Selects with the arrow keys.
    for (const [id, label, want] of [
      ['store-kind', 'Store', 'receipt-first'],
      ['crash-point', 'Crash point', 'before-writes'],
      ['processes', 'Processes', '2'],
      ['routing', 'Routing', 'key-hash'],
    ]) {
      await page.getByTestId(id).focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await field(page, label).inputValue(), want, `${label} by keyboard`);
    }
    assert.equal(await clock(page).getAttribute('data-processes'), '1 2', 'two processes run');
    // The retention field: type, then Enter.
    await page.getByTestId('retention').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    assert.equal(await field(page, 'Retention (hours)').inputValue(), '12');
    assert.match(await text(page.getByTestId('store-shows')), /deleted 12 hours after/);
    // The switch with Space.
    await page.getByTestId('ledger-check').focus();
    await page.keyboard.press('Space');
    assert.equal(await ledgerSwitch(page).isChecked(), true);
    // Each had a visible focus ring.
    for (const id of wanted) {
      const ring = await page.getByTestId(id).evaluate((e) => {
        e.blur();
        e.focus({ focusVisible: true });
        const s = getComputedStyle(e);
        return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
      });
      assert.ok(ring.style !== 'none' && ring.width >= 2, `${id}: a focus ring (${JSON.stringify(ring)})`);
    }
  }));

test('in Persian: the panel, the options and a clock past a day, in Persian words and digits', () =>
  withLab({ query: '?lang=fa' }, async (page) => {
    assert.equal(await page.getByRole('heading', { name: 'ذخیره‌سازی و فرایندها', exact: true }).count(), 1);
    assert.deepEqual(await optionTexts(field(page, 'مخزن')), ['در حافظه', 'ماندگار: اول رسید', 'ماندگار: اول موجودی', 'ماندگار: یک تراکنش']);
    assert.deepEqual(await optionTexts(field(page, 'نقطه‌ی توقف ناگهانی')), ['هیچ', 'پیش از هر نوشتنی', 'میان دو نوشتن', 'پس از commit، پیش از تأیید']);
    assert.deepEqual(await optionTexts(field(page, 'فرایندها')), ['۱', '۲']);
    assert.deepEqual(await optionTexts(field(page, 'مسیریابی')), ['نوبتی', 'بر اساس درهم‌سازی کلید', 'همیشه فرایند ۱', 'همیشه فرایند ۲']);
    assert.equal(await page.getByRole('switch', { name: 'شناختن از روی ردیف دفتر', exact: true }).count(), 1);
    await button(page, 'یک روز جلو').click();
    await button(page, 'یک ساعت جلو').click();
    assert.equal(await virtualNow(page), 25 * 3_600_000);
    assert.equal(await text(clock(page)), 'زمان مجازی ۱ روز \u2068۰۱:۰۰:۰۰٫۰\u2069، فرایند ۱');
    const retention = field(page, 'زمان نگه‌داری رسید (ساعت)');
    await retention.fill('۰');
    await retention.press('Enter');
    assert.match(await text(page.getByTestId('retention-error')), /^نگه‌داری رسیدها باید از ۱ تا ۸٬۷۶۰ ساعت باشد، نه ۰\. چیزی تغییر نکرد\.$/);
    await retention.fill('۴۸');
    await retention.press('Enter');
    await choose(page, 'مخزن', 'ماندگار: یک تراکنش');
    assert.match(await text(page.getByTestId('store-shows')), /رسیدها ۴۸ ساعت پس از نوشته‌شدن پاک می‌شوند/);
    await choose(page, 'فرایندها', '۲');
    assert.match(await text(clock(page)), /، فرایندهای ۱ و ۲$/);
  }));

/**
 * Two processes with work done and work queued, an armed crash, a day on the
 * clock and two refused inputs: the panels at their fullest. In any language.
 */
async function fullest(page) {
  await page.getByTestId('processes').selectOption('2');
  const sendButton = page.locator('section.request .buttons button').nth(0);
  const retryButton = page.locator('section.request .buttons button').nth(1);
  const pause = page.locator('section.queue .pacing input[role="switch"]');
  await sendButton.click();
  await retryButton.click();
  await skipToIdle(page);
  await pause.check();
  for (let i = 0; i < 3; i += 1) await sendButton.click();
  await page.getByTestId('move-day').click();
  await page.getByTestId('crash-point').selectOption('after-commit');
  await page.getByTestId('retention').fill('x');
  await page.getByTestId('retention').press('Enter');
  await page.getByTestId('move-to-time').fill('1:00');
  await page.getByTestId('move-to').click();
}

/** Sideways overflow of the page, and of each new panel's parts, in px. */
const overflow = (page) =>
  page.evaluate(() => {
    const found = [];
    if (document.documentElement.scrollWidth > innerWidth + 1) found.push(`page: ${document.documentElement.scrollWidth} > ${innerWidth}`);
    for (const panel of document.querySelectorAll('section.storage, section.world, section.queue, section.store')) {
      const box = panel.getBoundingClientRect();
      for (const e of panel.querySelectorAll('select, input, button, label, p, h2, h3, li')) {
        const r = e.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.left < box.left - 1 || r.right > box.right + 1) found.push(`${panel.className}: ${e.tagName.toLowerCase()}#${e.id || e.dataset.testid || ''} «${e.textContent.trim().slice(0, 30)}» ${r.left.toFixed(0)}..${r.right.toFixed(0)} outside ${box.left.toFixed(0)}..${box.right.toFixed(0)}`);
      }
    }
    return found;
  });

test('screenshots: 1024 px, phone and 200% zoom, English and Persian; nothing runs out of its panel', async () => {
  const views = {
    '1024': { viewport: { width: 1024, height: 768 } },
    phone: { viewport: { width: 390, height: 844 } },
    // 200% zoom of a 1280 x 800 window: the same layout as 640 x 400 CSS pixels.
    zoom200: { viewport: { width: 640, height: 400 } },
  };
  const problems = [];
  for (const lang of ['en', 'fa']) {
    for (const [name, options] of Object.entries(views)) {
      await withLab({ query: `?lang=${lang}`, ...options }, async (page) => {
        await fullest(page);
        for (const o of await overflow(page)) problems.push(`${lang} ${name}: ${o}`);
        for (const section of ['world', 'storage', 'queue', 'store']) {
          await page.locator(`section.${section}`).screenshot({ path: join(ARTIFACTS, `storage-${section}-${name}-${lang}.png`) });
        }
        // The durable store, with its receipts.
        await page.getByTestId('store-kind').selectOption('one-transaction');
        await page.locator('section.queue .pacing input[role="switch"]').uncheck();
        await skipToIdle(page);
        for (const o of await overflow(page)) problems.push(`${lang} ${name} durable: ${o}`);
        await page.locator('section.store').screenshot({ path: join(ARTIFACTS, `storage-store-durable-${name}-${lang}.png`) });
      });
    }
  }
  assert.deepEqual(problems, []);
});

/** axe-core, loaded before the page's scripts (as e2e/a11y.test.mjs does, within the page's CSP). */
const AXE = { path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') };

test('axe: the new panels at their fullest, English and Persian, light and dark, 1024 px and phone', async () => {
  const found = [];
  for (const lang of ['en', 'fa']) {
    await withLab({ query: `?lang=${lang}`, initScript: AXE, viewport: { width: 1024, height: 768 } }, async (page) => {
      await fullest(page);
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const viewport of [{ width: 1024, height: 768 }, { width: 390, height: 844 }]) {
          await page.setViewportSize(viewport);
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          const violations = await page.evaluate(async () => {
            const result = await window.axe.run(document, {
              runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
              resultTypes: ['violations'],
            });
            return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          });
          for (const v of violations) found.push(`${lang} ${scheme} ${viewport.width}: ${v}`);
        }
      }
    });
  }
  assert.deepEqual(found, []);
});
