// End-to-end: a newcomer's first clicks, at the sizes they come with. After each
// click the answer is where the eye is: the newest row's outcome and balance in
// view on a laptop, a one-line result under the button on a phone; a fresh key's
// second grant for one purchase never reads as success.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite, lastRow, skipToIdle } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

/** Whether the element's box lies inside the window and inside every box that clips it. */
async function inView(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.height === 0 || r.top < 0 || r.bottom > innerHeight) return false;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/(auto|scroll|hidden)/.test(s.overflowY)) {
        const b = a.getBoundingClientRect();
        if (r.top < b.top - 1 || r.bottom > b.bottom + 1) return false;
      }
    }
    // Not under the timeline's sticky header.
    const head = el.closest('.timeline')?.querySelector('thead');
    if (head && getComputedStyle(head).display !== 'none') {
      const h = head.getBoundingClientRect();
      if (r.top < h.bottom - 1) return false;
    }
    return true;
  });
}

async function newestOutcomeAndBalanceInView(page, what) {
  const row = lastRow(page);
  // The row's answer arrives, then the page settles it into view.
  await page.waitForTimeout(700);
  const badge = row.locator('td.store .badge');
  assert.ok(await inView(badge), `${what}: the newest row's outcome is in view`);
  assert.ok(await inView(row.locator('td.balance bdi')), `${what}: the newest row's balance is in view`);
}

for (const viewport of [{ width: 1366, height: 768 }, { width: 1280, height: 720 }]) {
  test(`a newcomer's four clicks at ${viewport.width}×${viewport.height}: each answer in view`, () =>
    withLab({ viewport, settings: 'closed' }, async (page) => {
      await page.getByLabel('Lose acknowledgement').check();
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await skipToIdle(page);
      await newestOutcomeAndBalanceInView(page, 'lose-ack send');

      // Each retry shows the key it will send, its name unchanged.
      const sameKey = page.getByRole('button', { name: 'Retry (same key)' }).locator('.button-key');
      const freshKey = page.getByRole('button', { name: 'Retry (fresh key)' }).locator('.button-key');
      assert.equal(await sameKey.textContent(), 'order-1042');
      assert.equal(await freshKey.textContent(), 'order-1042-fresh-1');
      await page.getByRole('button', { name: 'Retry (fresh key)' }).click();
      await skipToIdle(page);
      await newestOutcomeAndBalanceInView(page, 'fresh retry');
      assert.equal(await sameKey.textContent(), 'order-1042-fresh-1', 'the same key is the last attempt\'s');
      assert.match(await page.getByTestId('newest-result').textContent(), /A bug, not a success: one purchase, paid twice. Attempt #1 had paid it/);
      // A second grant for one purchase: named on the row, the line and the promises.
      const row = lastRow(page);
      assert.equal(await row.getAttribute('data-regranted'), 'true');
      assert.match(await row.locator('.badge').textContent(), /Applied again/);
      assert.match(await row.getAttribute('data-broke'), /paid-once/);
      assert.match(await page.getByTestId('newest-result').textContent(), /Applied again; balance now 200/);
      assert.equal(await page.getByTestId('invariant-paid-once').getAttribute('data-holds'), 'false');
      assert.equal(await page.getByTestId('invariant-at-most-once').getAttribute('data-holds'), 'true');
      const stagePromise = page.locator('[data-testid=stage-promise][data-invariant=paid-once]');
      assert.equal(await stagePromise.getAttribute('data-holds'), 'false');
      assert.match(await page.getByTestId('paid-once-why').textContent(), /caller’s job/);

      await page.getByRole('button', { name: 'Retry (same key)' }).click();
      await skipToIdle(page);
      await newestOutcomeAndBalanceInView(page, 'same-key retry');
      assert.equal(await lastRow(page).getAttribute('data-outcome'), 'replayed');

      await page.getByLabel('Points').fill('200');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await skipToIdle(page);
      await newestOutcomeAndBalanceInView(page, 'send 200 under the used key');
      assert.equal(await lastRow(page).getAttribute('data-outcome'), 'rejected');
      assert.match(await page.getByTestId('newest-result').textContent(), /Rejected: .*100 points/, 'a refusal says why');
    }));
}

test('with the same key the purchase is paid once', () =>
  withLab({}, async (page) => {
    await page.getByLabel('Lose acknowledgement').check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await page.getByRole('button', { name: 'Retry (same key)' }).click();
    await skipToIdle(page);
    assert.equal(await page.getByTestId('invariant-paid-once').getAttribute('data-holds'), 'true');
    assert.equal(await page.getByTestId('paid-once-why').count(), 0);
    assert.doesNotMatch(await page.getByTestId('newest-result').textContent(), /again/);
  }));

for (const lang of ['en', 'fa']) {
  test(`on a phone (${lang}) the answer to Send is a line under the button, with a way to the picture`, () =>
    withLab({ viewport: { width: 390, height: 844 }, query: `?lang=${lang}` }, async (page) => {
      const send = page.locator('.request-form .buttons button.primary');
      await send.scrollIntoViewIfNeeded();
      await send.click();
      const line = page.getByTestId('newest-result');
      await assert.doesNotReject(line.locator('button').waitFor());
      assert.ok(await inView(line), 'the result line is in view after Send');
      assert.equal(await line.getAttribute('aria-live'), 'polite');
      assert.match(await line.textContent(), lang === 'en' ? /Attempt #1 \(\u2068?order-1042\u2069?\)/ : /تلاش/);
      await line.locator('button').click();
      await page.waitForTimeout(300);
      const stageTop = await page.locator('.panel.stage').evaluate((el) => el.getBoundingClientRect().top);
      assert.ok(Math.abs(stageTop) < 4, `the picture comes to the top (at ${stageTop})`);
    }));
}
