// End-to-end: click through the release build in Chromium and check what a person sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { labSuite, rows, lastRow, answeredRows, balanceOf, skipToIdle, setSetting, setSpeed, virtualNow, ARTIFACTS } from './harness.mjs';

/** One server and browser for the file; each test gets a fresh, checked lab. */
const suite = labSuite();
const { withLab } = suite;

/** "Skip to idle" in Persian. */
const SKIP_FA = 'پرش تا بیکاری';

async function expectLast(page, outcome, { receipt, current }) {
  const row = lastRow(page);
  await assert.doesNotReject(row.waitFor());
  assert.equal(await row.getAttribute('data-outcome'), outcome);
  assert.equal(await row.getAttribute('data-receipt-balance'), receipt);
  assert.equal(await row.getAttribute('data-current-balance'), current);
}

test('the article walk: lost ack, retry, changed payload, fresh key', () =>
  withLab({}, async (page) => {
    await page.getByLabel('Lose acknowledgement').check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    assert.equal(await page.getByLabel('Lose acknowledgement', { exact: true }).isChecked(), false, 'armed for one delivery');
    // The caller hears nothing until its deadline (3 s of virtual time).
    await skipToIdle(page);
    await expectLast(page, 'timeout-applied', { receipt: null, current: '100' });
    assert.equal(await lastRow(page).getAttribute('data-truth'), 'applied-before-timeout');
    assert.equal(await balanceOf(page, 'account-7'), '100');

    await page.getByRole('button', { name: 'Retry (same key)' }).click();
    await skipToIdle(page);
    await expectLast(page, 'replayed', { receipt: '100', current: '100' });
    assert.equal(await balanceOf(page, 'account-7'), '100');

    await page.getByLabel('Points').fill('200');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await expectLast(page, 'rejected', { receipt: null, current: '100' });
    assert.match(await lastRow(page).textContent(), /already used for 100 points/);
    assert.match(await lastRow(page).locator('td.store').getAttribute('title'), /a request for 200 points under the same key is rejected/);
    assert.equal(await balanceOf(page, 'account-7'), '100');

    // Beside the buttons: the key a fresh retry will use, and what it is to the store.
    assert.equal(await page.getByTestId('fresh-target').textContent(), 'Retry (fresh key) sends it under \u2068order-1042-fresh-1\u2069: to the store, a new operation.');
    await page.getByRole('button', { name: 'Retry (fresh key)' }).click();
    await skipToIdle(page);
    await expectLast(page, 'applied', { receipt: '200', current: '200' });
    assert.match(await page.getByTestId('fresh-target').textContent(), /order-1042-fresh-2/);
    assert.equal(await balanceOf(page, 'account-7'), '200');
    assert.equal(await rows(page).count(), 4);
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => [e.dataset.outcome, e.dataset.truth ?? null, e.dataset.process])),
      [['timeout-applied', 'applied-before-timeout', '1'], ['replayed', null, '1'], ['rejected', null, '1'], ['applied', null, '1']],
    );
    assert.match(await page.getByTestId('retry-target').textContent(), /Retries resend: account-7 · order-1042-fresh-1 · \+100/);
    assert.equal(await page.getByTestId('receipt-row').count(), 2);
  }));

test('the four numbered steps reach the article numbers, 125 included, in four clicks', async () => {
  for (const [lang, doStep, bringBack] of [['en', 'Do step', 'Bring back the previous session'], ['fa', 'انجام گام', null]]) {
    await withLab({ query: `?lang=${lang}` }, async (page) => {
      // Something done already: step 1 starts afresh, and says so.
      await page.getByRole('button', { name: lang === 'en' ? 'Send' : 'ارسال', exact: true }).click();
      await skipToIdle(page);
      const facts = () => rows(page).evaluateAll((els) => els.map((e) => [e.dataset.outcome, e.dataset.receiptBalance ?? null, e.dataset.currentBalance])) ;
      for (let step = 1; step <= 4; step += 1) {
        const button = page.getByTestId(`do-step-${step}`);
        assert.match(await button.textContent(), new RegExp(`^${doStep} `));
        await button.click();
        // Step 1 started afresh, and says the earlier work can come back.
        if (step === 1) assert.equal(await page.getByTestId('bring-back').count(), 1);
        await skipToIdle(page);
      }
      assert.deepEqual(await facts(), [
        ['timeout-applied', null, '100'],
        ['replayed', '100', '100'],
        ['rejected', null, '100'],
        ['applied', '125', '125'],
        ['replayed', '100', '125'],
      ], `${lang}: the article's numbers`);
      assert.equal(await balanceOf(page, 'account-7'), lang === 'fa' ? '۱۲۵' : '125', 'in the page\'s digits');
      if (bringBack) {
        // Step 1 again: afresh, and the story so far can come back.
        await page.getByTestId('do-step-1').click();
        await skipToIdle(page);
        assert.deepEqual(await facts(), [['timeout-applied', null, '100']]);
        assert.equal(await page.getByTestId('bring-back').textContent(), bringBack, 'the earlier work can come back');
        await page.getByTestId('bring-back').click();
        assert.equal((await facts()).length, 5, 'the story so far is back');
      }
    });
  }
});

test('a row appears when a request is sent and says what is known while its caller waits', () =>
  withLab({}, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await page.getByLabel('Lose acknowledgement').check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // Sent, not yet handled: a waiting row with no balance; nobody has heard.
    const row = lastRow(page);
    await assert.doesNotReject(row.waitFor());
    assert.equal(await row.getAttribute('data-outcome'), 'pending');
    assert.equal(await row.getAttribute('data-attempt'), '1');
    assert.equal(await row.getAttribute('data-current-balance'), null);
    assert.match(await row.locator('td.caller').textContent(), /no answer yet/);
    // Slowly on: the store applies it at 100 ms, its caller waits until 3,000 ms
    // (12 s at this speed). The row says what the store did, the chart draws it.
    await setSpeed(page, '0.25x');
    await page.locator('[data-testid=timeline-row][data-current-balance="100"]').waitFor();
    assert.equal(await rows(page).count(), 1);
    assert.equal(await row.getAttribute('data-outcome'), 'pending');
    assert.ok((await virtualNow(page)) < 3_000, 'its caller still waits');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    assert.equal(await page.getByTestId('balance-chart').count(), 1, 'the chart is not empty');
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 1, 'the same row, answered');
    await expectLast(page, 'timeout-applied', { receipt: null, current: '100' });
  }));

test('a receipt is not the current balance: later 25, then retry the first', () =>
  withLab({}, async (page) => {
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await send.click();
    await skipToIdle(page);
    await page.getByLabel('Key').fill('order-1043');
    await page.getByLabel('Points').fill('25');
    await send.click();
    await skipToIdle(page);
    await expectLast(page, 'applied', { receipt: '125', current: '125' });
    await page.getByLabel('Key').fill('order-1042');
    await page.getByLabel('Points').fill('100');
    await send.click();
    await skipToIdle(page);
    await expectLast(page, 'replayed', { receipt: '100', current: '125' });
    assert.equal(await balanceOf(page, 'account-7'), '125');

    await page.getByRole('button', { name: 'Check balance' }).click();
    const read = page.getByTestId('balance-read');
    assert.equal(await read.getAttribute('data-balance'), '125');
    assert.match(await read.textContent(), /Balance of account-7: 125/);
    assert.equal(await page.locator('.receipt-mark').getAttribute('data-count'), '3', 'three receipts drawn on the chart');
    assert.equal(await page.locator('.receipt-mark').getAttribute('data-balances'), '100 125 100');
    assert.equal(await page.locator('.unseen-mark').getAttribute('data-count'), '0');
  }));

test('every invalid field gets its own message and nothing is sent', () =>
  withLab({}, async (page) => {
    const send = page.getByRole('button', { name: 'Send', exact: true });
    const cases = [
      ['Account', '', /Required/],
      ['Account', '   ', /Required/],
      ['Account', 'a'.repeat(81), /Too long/],
      ['Key', '', /Required/],
      ['Key', ' \t ', /Required/],
      ['Points', '', /Required/],
      ['Points', 'abc', /Not a whole number/],
      ['Points', '1.5', /Not a whole number/],
      ['Points', '0', /1 or more/],
      ['Points', '-3', /1 or more/],
      ['Points', '2147483648', /Too large/],
    ];
    const good = { Account: 'account-7', Key: 'order-1042', Points: '100' };
    for (const [label, value, message] of cases) {
      const input = page.getByLabel(label, { exact: true });
      await input.fill(value);
      assert.equal(await input.getAttribute('aria-invalid'), 'true', `${label}=${JSON.stringify(value)}`);
      const error = page.locator(`#${await input.getAttribute('aria-describedby')}`);
      assert.match(await error.textContent(), message);
      await send.click();
      assert.equal(await rows(page).count(), 0, `nothing sent for ${label}=${JSON.stringify(value)}`);
      assert.match(await page.getByTestId('notice').textContent(), /fix the highlighted fields/);
      await input.fill(good[label]);
      assert.equal(await input.getAttribute('aria-invalid'), 'false');
    }
    assert.equal(await page.getByTestId('balance-account-7').count(), 0, 'no balance was created');
    assert.equal(await page.getByTestId('clock').getAttribute('data-idle'), 'true', 'nothing is on its way');
    await send.click();
    await skipToIdle(page);
    await expectLast(page, 'applied', { receipt: '100', current: '100' });
  }));

test('a burst larger than the queue makes producers wait, then all complete', () =>
  withLab({}, async (page) => {
    // Callers' clocks run on while the consumer is paused: a long deadline keeps
    // every caller waiting however long this takes, so the outcome is exact.
    await setSetting(page, 'Caller timeout (ms)', 600_000);
    assert.equal(await page.getByLabel('Caller timeout (ms)').inputValue(), '600000');
    await page.getByLabel('Pause consumer').check();
    await page.getByLabel('Points').fill('5');
    await page.getByRole('button', { name: /Burst: 20 grants at once/ }).click();
    // Once the requests have crossed the network: sixteen queued, four waiting for room.
    await page.locator('[data-testid="queue-count"][data-queued="16"]').waitFor();
    await page.locator('[data-testid="waiting"][data-waiting="4"]').waitFor();
    assert.equal(await page.getByTestId('waiting').getAttribute('data-waiting'), '4');
    assert.match(await page.getByTestId('waiting').textContent(), /4 producers waiting/);
    assert.equal(await page.locator('[data-testid="queue-slot"].filled').count(), 16);
    assert.deepEqual(
      await rows(page).evaluateAll((els) => [...new Set(els.map((e) => e.dataset.outcome))]),
      ['pending'],
      'nothing answered while paused',
    );
    assert.equal(await rows(page).count(), 20, 'each has its row from the moment it was sent');

    assert.equal(await page.locator('[data-testid="consumer"].busy').count(), 0, 'a paused consumer takes nothing');

    await page.getByLabel('Pause consumer').uncheck();
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 20);
    assert.equal(await page.locator('[data-outcome="applied"]').count(), 20, 'none lost, none doubled');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '0');
    assert.equal(await page.getByTestId('waiting').getAttribute('data-waiting'), '0');
  }));

test('a processing time shows the consumer holding a delivery, in real time at 1x', () =>
  withLab({}, async (page) => {
    const input = await setSetting(page, 'Processing time (ms)', 2000);
    assert.equal(await input.inputValue(), '2000');
    const started = Date.now();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('[data-testid="consumer"].busy').waitFor();
    // The delivery in hand is named by its attempt, then the whole request.
    assert.match(await page.getByTestId('consumer').textContent(), /Consumer is applying: attempt 1 account-7 · order-1042 · \+100/);
    assert.equal(await lastRow(page).getAttribute('data-outcome'), 'pending');
    await answeredRows(page).last().waitFor({ timeout: 10_000 });
    // At 1x virtual time never runs ahead of the wall clock.
    assert.ok(Date.now() - started >= 1900, `answered after ${Date.now() - started} ms of real time`);
    await expectLast(page, 'applied', { receipt: '100', current: '100' });
    assert.equal(await page.locator('[data-testid="consumer"].busy').count(), 0, 'the consumer is idle again');
    // The request's 0.4 s on the network, then 2 s of work.
    assert.match(await lastRow(page).locator('td.store').textContent(), /points added: \+100\s*at 2\.4 s/);
  }));

test('Reset empties the lab', () =>
  withLab({}, async (page) => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await lastRow(page).waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    assert.equal(await rows(page).count(), 0);
    assert.equal(await page.getByTestId('balance-account-7').count(), 0);
    await page.getByRole('button', { name: 'Retry (same key)' }).click();
    assert.match(await page.getByTestId('notice').textContent(), /Nothing to retry/);
    await page.getByLabel('Lose acknowledgement', { exact: true }).check();
    await page.getByRole('button', { name: 'Retry (same key)' }).click();
    assert.equal(await page.getByLabel('Lose acknowledgement', { exact: true }).isChecked(), true, 'a refused retry leaves the fault armed');
  }));

test('Persian: right to left, chosen by ?lang=fa or by the browser', async () => {
  await withLab({ query: '?lang=fa' }, async (page) => {
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await page.locator('html').getAttribute('lang'), 'fa');
    await page.getByLabel('گم‌شدن تأیید').check();
    await page.getByRole('button', { name: 'ارسال', exact: true }).click();
    await skipToIdle(page, { name: SKIP_FA });
    await page.getByRole('button', { name: 'تلاش مجدد (همان کلید)' }).click();
    await skipToIdle(page, { name: SKIP_FA });
    await expectLast(page, 'replayed', { receipt: '100', current: '100' });
    assert.equal(await balanceOf(page, 'account-7'), '۱۰۰', 'balances in the page\'s digits');
    assert.equal(await lastRow(page).locator('td.balance').textContent(), '۱۰۰');
    const keyCell = lastRow(page).locator('bdi').first();
    assert.equal(await keyCell.getAttribute('dir'), 'ltr', 'keys stay left to right');
    await page.screenshot({ path: join(ARTIFACTS, 'lab-fa.png'), fullPage: true });

    await page.getByRole('button', { name: 'English' }).click();
    // Only the language in use comes with the page: English is fetched now.
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.equal(await page.locator('html').getAttribute('dir'), 'ltr');
    assert.match(page.url(), /lang=en/);
    assert.ok(await page.getByRole('button', { name: 'Retry (same key)' }).isVisible());
  });
  await withLab({ locale: 'fa-IR' }, async (page) => {
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
  });
  await withLab({ locale: 'fa-IR', query: '?lang=en' }, async (page) => {
    assert.equal(await page.locator('html').getAttribute('dir'), 'ltr', '?lang wins over the browser');
  });
});

test('English screenshot after the article walk, and a phone-width page that fits', async () => {
  await withLab({}, async (page) => {
    const act = async (name) => {
      await page.getByRole('button', { name, exact: true }).click();
      await skipToIdle(page);
    };
    await page.getByLabel('Lose acknowledgement').check();
    await act('Send');
    await act('Retry (same key)');
    await page.getByLabel('Key').fill('order-1043');
    await page.getByLabel('Points').fill('25');
    await act('Send');
    await act('Retry (same key)');
    await page.getByLabel('Key').fill('order-1042');
    await page.getByLabel('Points').fill('200');
    await act('Send');
    await act('Check balance');
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)),
      ['timeout-applied', 'replayed', 'applied', 'replayed', 'rejected'],
    );
    assert.equal(await page.getByTestId('balance-read').getAttribute('data-balance'), '125');
    await page.screenshot({ path: join(ARTIFACTS, 'lab-en.png'), fullPage: true });
  });
  await withLab({ colorScheme: 'dark', query: '?lang=fa' }, async (page) => {
    await page.getByLabel('گم‌شدن تأیید').check();
    await page.getByRole('button', { name: 'ارسال', exact: true }).click();
    await skipToIdle(page, { name: SKIP_FA });
    await page.getByRole('button', { name: 'تلاش مجدد (همان کلید)' }).click();
    await skipToIdle(page, { name: SKIP_FA });
    await expectLast(page, 'replayed', { receipt: '100', current: '100' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(17, 19, 24)', 'the dark theme follows the system');
    await page.screenshot({ path: join(ARTIFACTS, 'lab-fa-dark.png'), fullPage: true });
  });
  await withLab({ viewport: { width: 390, height: 844 } }, async (page) => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await expectLast(page, 'applied', { receipt: '100', current: '100' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than a phone`);
    await page.screenshot({ path: join(ARTIFACTS, 'lab-phone.png'), fullPage: true });
  });
});
