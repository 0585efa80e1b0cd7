// End-to-end: the stage, the world drawn as one picture. Its contract (the
// README's test ids and data attributes), tokens that travel at the clock's
// pace and stand still when it stops or under reduced motion, a click that
// leads to the timeline, and Persian's mirrored flow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite, skipToIdle, setSpeed } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const button = (page, name) => page.getByRole('button', { name, exact: true });
const stage = (page) => page.getByTestId('stage');
const part = (page, id, attrs = '') => stage(page).locator(`[data-testid="${id}"]${attrs}`);

test('a lost acknowledgement: the request travels, the answer is lost, the caller times out', () =>
  withLab({}, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await page.getByLabel('Lose acknowledgement', { exact: true }).check();
    await button(page, 'Send').click();
    // The clock is stopped: the request has left its caller and waits on the arrow.
    const request = part(page, 'stage-token', '[data-kind="request"][data-attempt="1"]');
    await request.waitFor();
    assert.equal(await request.getAttribute('data-progress'), '0.00');
    assert.equal(await request.evaluate((e) => getComputedStyle(e).animationPlayState), 'paused');
    const caller = part(page, 'stage-caller', '[data-attempt="1"]');
    assert.equal(await caller.getAttribute('data-state'), 'waiting');
    // Running again, the store does the work and the answer is lost on its way back.
    await setSpeed(page, '1x');
    await part(page, 'stage-token', '[data-kind="lost-ack"][data-attempt="1"]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=stage-caller][data-attempt="1"]')?.dataset.mark === 'lost-ack');
    await skipToIdle(page);
    assert.equal(await caller.getAttribute('data-state'), 'timed-out');
    assert.equal(await caller.getAttribute('data-mark'), 'lost-ack');
    assert.match((await caller.innerText()).replace(/\s+/g, ' '), /#1 account-7 \+100 order-1042 · timed out answer lost/);
    // The store's memory holds the grant the caller never heard of.
    const memory = part(page, 'stage-store', '[data-kind="memory"][data-process="1"]');
    assert.match(await memory.innerText(), /account-7\s*100/);
  }));

test('every part is drawn with the ids the README names, and the description follows the world', () =>
  withLab({}, async (page) => {
    assert.equal(await part(page, 'stage-queue-slot', '[data-process="1"]').count(), 16);
    assert.equal(await part(page, 'stage-consumer', '[data-process="1"]').count(), 1);
    const process = part(page, 'stage-process', '[data-process="1"]');
    assert.equal(await process.getAttribute('data-state'), 'running');
    assert.equal(await part(page, 'stage-store', '[data-kind="memory"]').count(), 1);
    const description = part(page, 'stage-description');
    assert.match(await description.textContent(), /Process 1 running: 0 of 16 queued, 0 waiting for room; the consumer is idle\. No caller yet/);
    await page.getByRole('switch', { name: 'Pause consumer' }).check();
    await button(page, 'Burst: 20 grants at once').click();
    // Once the requests have crossed the network.
    await page.locator('[data-testid="stage-queue-slot"][data-attempt="16"]').waitFor();
    await page.locator('[data-testid="stage-waiting"]').filter({ hasText: /4 wait for room/ }).waitFor();
    assert.equal(await part(page, 'stage-queue-slot', '[data-attempt]').count(), 16);
    assert.match(await description.textContent(), /16 of 16 queued, 4 waiting for room/);
    assert.match(await part(page, 'stage-waiting').textContent(), /4 wait for room/);
    assert.equal(await part(page, 'stage-caller').count(), 4);
    // The queue panel's own ids still count the same queue.
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '16');
    // Restart: the old process is drawn ended beside the new, empty one.
    await page.getByRole('switch', { name: 'Pause consumer' }).uncheck();
    await skipToIdle(page);
    await button(page, 'Restart process').click();
    assert.equal(await part(page, 'stage-process', '[data-process="1"]').getAttribute('data-state'), 'ended');
    assert.equal(await part(page, 'stage-process', '[data-process="2"]').getAttribute('data-state'), 'running');
    assert.match(await description.textContent(), /Process 1 has ended; its queue and memory are gone/);
  }));

test('a durable store is drawn with its tables, and the legend names every mark', () =>
  withLab({}, async (page) => {
    await page.getByLabel('Store', { exact: true }).selectOption('one-transaction');
    await button(page, 'Send').click();
    await skipToIdle(page);
    const durable = part(page, 'stage-store', '[data-kind="durable"]');
    await durable.waitFor();
    assert.equal(await part(page, 'stage-store', '[data-kind="memory"]').count(), 0);
    assert.equal(await durable.locator('[data-testid="stage-receipts"]').getAttribute('data-count'), '1');
    const legend = part(page, 'stage-legend');
    await legend.locator('summary').click();
    const kinds = await legend.locator('li[data-kind]').evaluateAll((ls) => ls.map((l) => l.dataset.kind));
    assert.deepEqual(kinds, ['request', 'ack', 'lost-ack', 'redelivery', 'email']);
    const marks = await legend.locator('li[data-mark]').evaluateAll((ls) => ls.map((l) => l.dataset.mark));
    for (const mark of ['lost-ack', 'told-in-progress', 'refused', 'timed-out', 'crashed', 'torn-write', 'conflict', 'expired', 'second-email']) {
      assert.ok(marks.includes(mark), `${mark} is named in the legend`);
    }
  }));

test('a caller, by keyboard, leads to its row of the timeline', () =>
  withLab({}, async (page) => {
    await button(page, 'Send').click();
    await skipToIdle(page);
    const caller = part(page, 'stage-caller', '[data-attempt="1"]');
    await caller.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'timeline-row');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.attempt), '1');
  }));

test('a receipt leads to the row that wrote it, not to the retry it answered', () =>
  withLab({}, async (page) => {
    await button(page, 'Send').click();
    await skipToIdle(page);
    await button(page, 'Retry (same key)').click();
    await skipToIdle(page);
    const memory = part(page, 'stage-store', '[data-kind="memory"][data-process="1"]');
    const receipt = memory.locator('[data-testid="stage-receipt"]');
    assert.equal(await receipt.count(), 1);
    const lead = receipt.getByRole('button', { name: 'Receipt account-7 · order-1042 · +100: show the row that wrote it' });
    await lead.click();
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'timeline-row');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.attempt), '1');
    assert.equal(await receipt.getAttribute('data-highlighted'), 'true');
    // By keyboard too, from the retry's row back to the same receipt.
    await page.locator('[data-testid="timeline-row"][data-attempt="2"]').focus();
    await lead.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.dataset.attempt === '1');
  }));

test('a request whose caller gave up is marked in its queue slot, and the legend says so', () =>
  withLab({}, async (page) => {
    await page.getByRole('switch', { name: 'Pause consumer' }).check();
    await button(page, 'Send').click();
    const slot = part(page, 'stage-queue-slot', '[data-attempt="1"]');
    await slot.waitFor();
    assert.equal(await slot.getAttribute('data-timed-out'), null);
    await skipToIdle(page);
    assert.equal(await part(page, 'stage-caller', '[data-attempt="1"]').getAttribute('data-state'), 'timed-out');
    assert.equal(await slot.getAttribute('data-timed-out'), 'true');
    assert.match(await slot.textContent(), /deadline passed/);
    const legend = part(page, 'stage-legend');
    await legend.locator('summary').click();
    assert.match(await legend.locator('li[data-mark="late-work"]').innerText(), /caller who stopped waiting/);
    // Let it go: the consumer does the work for nobody, and the slot is empty again.
    await page.getByRole('switch', { name: 'Pause consumer' }).uncheck();
    await skipToIdle(page);
    assert.equal(await part(page, 'stage-queue-slot', '[data-timed-out]').count(), 0);
  }));

test('each part of the picture takes the keyboard focus and says what it is', () =>
  withLab({}, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await button(page, 'Send').click();
    await skipToIdle(page);
    const named = [
      page.getByRole('group', { name: 'Process 1: running', exact: true }),
      page.getByRole('img', { name: 'the consumer is idle', exact: true }),
      stage(page).getByRole('group', { name: 'Memory', exact: true }),
      part(page, 'stage-caller', '[data-attempt="1"]'),
      stage(page).locator('.stage-queue'),
    ];
    for (const element of named) {
      await element.focus();
      assert.ok(await element.evaluate((e) => e === document.activeElement), await element.evaluate((e) => e.outerHTML.slice(0, 80)));
    }
    assert.equal(await stage(page).locator('.stage-queue').getAttribute('aria-label'), '0 of 16 slots taken');
    // The keyboard walks the picture in its order: the caller, then the process's parts.
    await part(page, 'stage-caller', '[data-attempt="1"]').focus();
    const order = [];
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? document.activeElement.textContent.trim()));
    }
    assert.equal(order[0], 'Process 1: running');
    // Reached by keyboard, each shows where the focus is.
    await part(page, 'stage-caller', '[data-attempt="1"]').focus();
    await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => document.activeElement.matches(':focus-visible') && getComputedStyle(document.activeElement).outlineStyle !== 'none'));
    const at = (name) => order.indexOf(name);
    assert.ok(at('0 of 16 slots taken') > 0 && at('the consumer is idle') > at('0 of 16 slots taken'), JSON.stringify(order));
  }));

// A message without network time: drawn for a moment after its event (the
// motion tests cover one that travels in the world).
test('under reduced motion a token is placed where it goes, not moved', () =>
  withLab({ reducedMotion: 'reduce', instant: true }, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await button(page, 'Send').click();
    const token = part(page, 'stage-token', '[data-kind="request"]');
    await token.waitFor();
    assert.equal(await token.evaluate((e) => getComputedStyle(e).animationName), 'none');
    // At the end of its lane: beside the process, not beside the caller.
    const lane = await token.evaluate((e) => e.parentElement.getBoundingClientRect().right);
    const right = await token.evaluate((e) => e.getBoundingClientRect().right);
    assert.ok(Math.abs(lane - right) < 2, `${right} ends at the lane's end ${lane}`);
  }));

test('in Persian the flow runs right to left: callers on the right, the process on the left', () =>
  withLab({ query: '?lang=fa' }, async (page) => {
    await page.waitForSelector('html[lang="fa"]');
    await page.getByRole('button', { name: 'ارسال', exact: true }).click();
    await skipToIdle(page);
    const caller = await part(page, 'stage-caller').first().boundingBox();
    const process = await part(page, 'stage-process').first().boundingBox();
    assert.ok(caller.x > process.x + process.width, `caller at ${caller.x}, process ends at ${process.x + process.width}`);
    assert.match(await part(page, 'stage-description').textContent(), /فرایند ۱ در حال اجرا/);
  }));
