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
    assert.deepEqual(await optionTexts(select), ['No record: the store decides', 'Wait for the first', 'In progress, retry later']);
    assert.equal(await select.inputValue(), 'no-record');
    assert.match(await text(page.locator('#in-flight-hint')), /goes on to the store/);
    // Keyboard: focus the select and step to the next option with the arrow key.
    await select.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await select.inputValue(), 'wait');
    assert.match(await text(page.locator('#in-flight-hint')), /waits until the first is done/);
    assert.match(await text(page.getByTestId('in-progress-none')), /None now/);
  }));

// The duplicate meets the first at the door: with messages arriving at once, the
// moments are the store's own (the network's time is the motion tests' subject).
test('in progress, retry later: the duplicate is answered at once with 409 and never reaches the store', () =>
  withLab({ instant: true }, async (page) => {
    await duplicateInFlight(page, 'In progress, retry later');
    // The record is shown while the first is at work.
    const record = page.getByTestId('in-progress-record');
    assert.equal(await record.count(), 1);
    assert.equal(await record.getAttribute('data-attempt'), '1');
    assert.match(await text(record), /order-1042.*held by attempt #1 since 0\.0 s, in process 1's memory/);
    // Told at once, before the first is done: the first's row still waits.
    assert.equal(await rows(page).count(), 2);
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'pending');
    const told = row(page, 2);
    assert.equal(await told.getAttribute('data-attempt'), '2');
    assert.equal(await told.getAttribute('data-outcome'), 'in-progress');
    assert.equal(await told.getAttribute('data-met-in-progress'), '1');
    assert.match(await text(told), /found attempt #1 in progress: told to retry later/);
    assert.match(await text(told), /in progress: retry later/);
    await skipToIdle(page);
    assert.equal(await page.getByTestId('in-progress-record').count(), 0);
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'applied');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    // Retried later, as told: the stored receipt.
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    assert.equal(await row(page, 3).getAttribute('data-outcome'), 'replayed');
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('wait for the first: the duplicate waits, then gets the same receipt', () =>
  withLab({ instant: true }, async (page) => {
    await duplicateInFlight(page, 'Wait for the first');
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)),
      ['pending', 'pending'],
      'nobody has heard back yet',
    );
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
  withLab({ query: '?lang=fa', locale: 'fa-IR', instant: true }, async (page) => {
    await setSpeed(page, 'ساعت ایستاده', { control: 'سرعت' });
    await setSetting(page, 'زمان پردازش (میلی‌ثانیه)', '۲۰۰۰');
    await field(page, 'تکراریِ در جریان چه می‌گیرد').selectOption('retry-later');
    await button(page, 'ارسال').click();
    await button(page, 'تلاش مجدد (همان کلید)').click();
    assert.match(await text(page.getByTestId("in-progress-record")), /در اختیار تلاش/);
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'pending');
    assert.match(await text(row(page, 1)), /در انتظار پاسخ/);
    assert.equal(await row(page, 2).getAttribute('data-outcome'), 'in-progress');
    assert.match(await text(row(page, 2)), /در جریان/);
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

test('redelivery: the queue delivers the next message twice; the receipt here, a second grant beside', () =>
  withLab({}, async (page) => {
    await page.getByRole('switch', { name: 'Naive worker beside', exact: true }).check();
    const redeliver = page.getByRole('switch', { name: 'Redeliver the next message', exact: true });
    assert.equal(await redeliver.isChecked(), false);
    await redeliver.check();
    await button(page, 'Send').click();
    await skipToIdle(page);
    assert.equal(await redeliver.isChecked(), false, 'armed for one message');
    const copy = attemptRow(page, 2);
    assert.equal(await copy.getAttribute('data-outcome'), 'redelivered');
    assert.equal(await copy.getAttribute('data-redelivery-of'), '1');
    assert.match(await text(copy), /the queue delivered #1 again/);
    assert.match(await text(copy), /returned the stored receipt/);
    assert.match(await text(copy), /nobody: the queue took the answer as its acknowledgement/);
    assert.equal(await balanceOf(page, 'account-7'), '100');
    assert.equal((await page.getByTestId('naive-balance-account-7').textContent()).trim(), '200');
  }));

test('acknowledge before the work loses the message on a crash; after the work, it is delivered again', () =>
  withLab({}, async (page) => {
    const ack = field(page, 'Acknowledge');
    assert.deepEqual(await optionTexts(ack), ['Before the work', 'After the work']);
    assert.equal(await ack.inputValue(), 'before-work');
    await choose(page, 'Store', 'Durable: one transaction');
    await choose(page, 'Crash point', 'Before anything is written');
    await button(page, 'Send').click();
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 1, 'no copy');
    assert.equal(await attemptRow(page, 1).getAttribute('data-outcome'), 'process-ended');
    assert.equal(await page.getByTestId('balance-account-7').count(), 0, 'the work is lost: no points');
    // After the work: the queue still has the message when the process crashes.
    await choose(page, 'Acknowledge', 'After the work');
    assert.match(await text(page.locator('#acknowledge-hint')), /delivered again to the process that takes over/);
    await choose(page, 'Crash point', 'Before anything is written');
    await field(page, 'Key').fill('order-1043');
    await button(page, 'Send').click();
    await skipToIdle(page);
    const copy = attemptRow(page, 3);
    assert.equal(await copy.getAttribute('data-outcome'), 'redelivered');
    assert.equal(await copy.getAttribute('data-redelivery-of'), '2');
    assert.match(await text(copy), /points added/);
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('a key is not a credential: signed in as account-8, account-7’s key reads nothing and changes nothing', () =>
  withLab({}, async (page) => {
    const signedIn = field(page, 'Signed in as');
    assert.deepEqual(await optionTexts(signedIn), ['Nobody signed in', 'account-7', 'account-8']);
    await button(page, 'Send').click();
    await skipToIdle(page);
    assert.equal(await balanceOf(page, 'account-7'), '100');
    await signedIn.selectOption({ label: 'account-8' });
    assert.match(await text(page.locator('#signed-in-hint')), /A key is not a credential/);
    await button(page, 'Send').click();
    // Refused where it arrives, and told so when the refusal comes back.
    const refused = attemptRow(page, 2);
    await page.locator('[data-testid="timeline-row"][data-attempt="2"][data-outcome="forbidden"]').waitFor();
    assert.equal(await refused.getAttribute('data-receipt-balance'), null, 'no receipt read');
    assert.match(await text(refused), /Forbidden/);
    assert.match(await text(refused), /never reached the store/);
    assert.match(await text(refused.getByTestId('would-leak')), /a store that trusted the request would have handed over account-7's receipt: \+100, balance 100/);
    assert.equal(await balanceOf(page, 'account-7'), '100');
    // The signed-in account's own request goes through.
    await field(page, 'Account').fill('account-8');
    await button(page, 'Send').click();
    await skipToIdle(page);
    assert.equal(await attemptRow(page, 3).getAttribute('data-outcome'), 'applied');
    assert.equal(await balanceOf(page, 'account-8'), '100');
  }));

/** Emails on, through `via`; Send with a lost acknowledgement, then Retry (same key). */
async function emailAfterLostAck(page, via) {
  await page.getByRole('switch', { name: 'Send confirmation email', exact: true }).check();
  await choose(page, 'Email through', via);
  await page.getByRole('switch', { name: 'Lose acknowledgement', exact: true }).check();
  await button(page, 'Send').click();
  await skipToIdle(page);
  await button(page, 'Retry (same key)').click();
  await skipToIdle(page);
}

test('confirmation email sent inline: the retry sends it again, two emails in the inbox', () =>
  withLab({}, async (page) => {
    const via = field(page, 'Email through');
    assert.deepEqual(await optionTexts(via), ['Inline call', 'Outbox']);
    assert.equal(await page.getByTestId('inbox').getAttribute('data-count'), '0');
    await emailAfterLostAck(page, 'Inline call');
    const emails = page.getByTestId('inbox').getByTestId('email');
    assert.equal(await emails.count(), 2);
    assert.match(await text(emails.nth(1)), /To account-7: 100 points added \(order-1042\)/);
    assert.equal(await balanceOf(page, 'account-7'), '100', 'points granted once, email sent twice');
  }));

test('confirmation email through the outbox: relayed twice, de-duplicated, one email', () =>
  withLab({}, async (page) => {
    await emailAfterLostAck(page, 'Outbox');
    assert.match(await text(page.locator('#email-via-hint')), /keeps one email per operation/);
    assert.equal(await page.getByTestId('inbox').getByTestId('email').count(), 1);
    assert.match(await text(page.getByTestId('inbox-dropped')), /dropped 1 copy/);
    const said = page.locator('[data-testid="timeline-marker"][data-event="email"]');
    assert.equal(await said.count(), 2);
    assert.match(await text(said.nth(1)), /already had this operation id and dropped the copy/);
  }));

// Each attempt gives up after 100 ms: with messages arriving at once, each
// reaches the store before its caller gives up.
test('automatic retries: bounded attempts with backoff, then the caller gives up and looks the operation up', () =>
  withLab({ instant: true }, async (page) => {
    const auto = page.getByRole('switch', { name: 'Automatic retries', exact: true });
    const max = field(page, 'Max attempts');
    assert.equal(await max.inputValue(), '3');
    // Bad input gets a message and changes nothing.
    await max.fill('11');
    await max.press('Enter');
    assert.match(await text(page.locator('#max-attempts-error')), /must be 1 to 10, not 11/);
    await max.fill('3');
    await max.press('Enter');
    assert.equal(await page.locator('#max-attempts-error').textContent(), '');
    await auto.check();
    // The schedule: two retries after the first attempt, each range doubling.
    const bars = page.getByTestId('backoff-chart').locator('li');
    assert.equal(await bars.count(), 2);
    assert.equal(await bars.nth(0).getAttribute('data-high'), '200');
    assert.equal(await bars.nth(1).getAttribute('data-high'), '400');
    // Every attempt times out: the work takes longer than the caller waits.
    await setSetting(page, 'Caller timeout (ms)', 100);
    await setSetting(page, 'Processing time (ms)', 2000);
    await button(page, 'Send').click();
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 3);
    assert.equal(await page.locator('[data-testid="timeline-marker"][data-event="backoff"]').count(), 2);
    const last = attemptRow(page, 3);
    assert.equal(await last.getAttribute('data-outcome'), 'gave-up-looked-up');
    assert.match(await text(last), /automatic retry after #2/);
    assert.equal(await last.getByTestId('looked-up').getAttribute('data-found'), 'false');
    assert.match(await text(last.getByTestId('looked-up')), /out of attempts; looked it up: not found/);
    // The chart marks what the caller waited.
    assert.notEqual(await bars.nth(0).getAttribute('data-waited'), null);
    assert.equal(await balanceOf(page, 'account-7'), '100', 'the first attempt applied in the end, once');
  }));
