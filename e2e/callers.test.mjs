// End-to-end: callers and the queue. A duplicate sent while the first attempt is
// still at work meets the in-progress record and either waits for the first or
// is told to retry later; with no record, it queues behind and the store answers.
// Clicked through with the labels an outside suite may rely on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite, rows, balanceOf, skipToIdle, setSpeed, setSetting } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const button = (page, name) => page.getByRole('button', { name, exact: true });
const field = (page, label) => page.getByLabel(label, { exact: true });
const row = (page, n) => rows(page).nth(n - 1);
const attemptRow = (page, n) => page.locator(`[data-testid="timeline-row"][data-attempt="${n}"]`);
const choose = (page, label, option) => field(page, label).selectOption({ label: option });
const optionTexts = (locator) => locator.locator('option').evaluateAll((os) => os.map((o) => o.textContent.trim()));
const text = async (locator) => (await locator.textContent()).replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();

/** Slow work and a stopped clock, then Send and at once Retry (same key). */
async function duplicateInFlight(page, policy) {
  await setSpeed(page, 'Clock stopped');
  await setSetting(page, 'Processing time (ms)', 2000);
  if (policy) await choose(page, 'Duplicate in flight gets', policy);
  await button(page, 'Send').click();
  await button(page, 'Retry (same key)').click();
}

test('the duplicate-in-flight select: its options, default and hint', () =>
  withLab({}, async (page) => {
    assert.equal(await page.getByRole('heading', { name: 'Callers and queue', exact: true }).count(), 1);
    const select = field(page, 'Duplicate in flight gets');
    assert.equal(await select.evaluate((e) => e.tagName), 'SELECT');
    assert.deepEqual(await optionTexts(select), ['No in-progress record: the store decides', 'Wait for the first', 'In progress, retry later']);
    assert.equal(await select.inputValue(), 'no-record');
    assert.match(await text(page.locator('#in-flight-hint')), /goes on to the store/);
    // Keyboard: focus the select and step to the next option with the arrow key.
    await select.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await select.inputValue(), 'wait');
    assert.match(await text(page.locator('#in-flight-hint')), /waits until the first is done/);
    assert.match(await text(page.getByTestId('in-progress-none')), /None now/);
  }));

test('in progress, retry later: the duplicate is answered at once with 409 and never reaches the store', () =>
  withLab({}, async (page) => {
    await duplicateInFlight(page, 'In progress, retry later');
    // The record is shown while the first is at work.
    const record = page.getByTestId('in-progress-record');
    assert.equal(await record.count(), 1);
    assert.equal(await record.getAttribute('data-attempt'), '1');
    assert.match(await text(record), /order-1042.*held by attempt #1 since 0\.0 s, in process 1's memory/);
    // Told at once, before the first is done: its row is the only one so far.
    assert.equal(await rows(page).count(), 1);
    const told = row(page, 1);
    assert.equal(await told.getAttribute('data-attempt'), '2');
    assert.equal(await told.getAttribute('data-outcome'), 'in-progress');
    assert.equal(await told.getAttribute('data-met-in-progress'), '1');
    assert.match(await text(told), /found attempt #1 in progress: told to retry later/);
    assert.match(await text(told), /in progress: retry later/);
    await skipToIdle(page);
    assert.equal(await page.getByTestId('in-progress-record').count(), 0);
    assert.equal(await row(page, 2).getAttribute('data-outcome'), 'applied');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    // Retried later, as told: the stored receipt.
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    assert.equal(await row(page, 3).getAttribute('data-outcome'), 'replayed');
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('wait for the first: the duplicate waits, then gets the same receipt', () =>
  withLab({}, async (page) => {
    await duplicateInFlight(page, 'Wait for the first');
    assert.equal(await rows(page).count(), 0, 'nobody has heard back yet');
    assert.equal(await page.getByTestId('in-progress-record').count(), 1);
    await skipToIdle(page);
    assert.equal(await attemptRow(page, 1).getAttribute('data-outcome'), 'applied');
    const waited = attemptRow(page, 2);
    assert.equal(await waited.getAttribute('data-outcome'), 'replayed');
    assert.equal(await waited.getAttribute('data-met-in-progress'), '1');
    assert.equal(await waited.getAttribute('data-receipt-balance'), await attemptRow(page, 1).getAttribute('data-receipt-balance'));
    assert.match(await text(waited), /found attempt #1 in progress and waited for it/);
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('in Persian: the select, the record and the row say it in Persian', () =>
  withLab({ query: '?lang=fa', locale: 'fa-IR' }, async (page) => {
    await setSpeed(page, 'ساعت ایستاده', { control: 'سرعت' });
    await setSetting(page, 'زمان پردازش (میلی‌ثانیه)', '۲۰۰۰');
    await field(page, 'تکراریِ در جریان چه می‌گیرد').selectOption('retry-later');
    await button(page, 'ارسال').click();
    await button(page, 'تلاش دوباره (همان کلید)').click();
    assert.match(await text(page.getByTestId('in-progress-record')), /در دست تلاش/);
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'in-progress');
    assert.match(await text(row(page, 1)), /در جریان/);
  }));

test('idempotent by nature: Set language to English twice changes nothing the second time, with no key', () =>
  withLab({}, async (page) => {
    const setEnglish = button(page, 'Set language to English');
    await setEnglish.click();
    await setEnglish.click();
    const markers = page.locator('[data-testid="timeline-marker"][data-event="language-set"]');
    assert.equal(await markers.count(), 2);
    assert.equal(await markers.nth(0).getAttribute('data-changed'), 'true');
    assert.equal(await markers.nth(1).getAttribute('data-changed'), 'false');
    assert.match(await text(markers.nth(1)), /account-7's preferred language set to English again: it already was, so nothing changed/);
    assert.match(await text(markers.nth(1)), /adding 100 points twice adds 200/);
    // No attempt, no key, no points.
    assert.equal(await rows(page).count(), 0);
    assert.equal(await page.locator('[data-testid^="balance-account-7"]').count(), 0);
    // By keyboard, and to another language: that one changes it.
    await button(page, 'Set language to Persian').focus();
    await page.keyboard.press('Enter');
    assert.equal(await markers.count(), 3);
    assert.equal(await markers.nth(2).getAttribute('data-changed'), 'true');
    assert.match(await text(markers.nth(2)), /set to Persian \(it was English\)/);
    // Without an account there is nothing to set: a message, and no new row.
    await field(page, 'Account').fill(' ');
    await setEnglish.click();
    assert.match(await text(page.getByTestId('notice')), /./);
    assert.equal(await markers.count(), 3);
  }));
