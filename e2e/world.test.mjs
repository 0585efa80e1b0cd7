// End-to-end: the simulated world on the page. Its virtual clock, the caller's
// deadline and what really became of a timed-out attempt, restarting the process,
// the naive worker beside the idempotent one, undo and redo, and the speed control.
// A test that counts the world's moments to the millisecond opens with messages
// arriving at once (`instant`), so its moments are the store's own (the
// network's time is motion.test.mjs's subject).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  labSuite,
  rows,
  lastRow,
  answeredRows,
  balanceOf,
  naiveBalanceOf,
  clock,
  virtualNow,
  skipToIdle,
  setSetting,
  setSpeed,
  speedControl,
  ARTIFACTS,
} from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const button = (page, name) => page.getByRole('button', { name, exact: true });
const send = (page) => button(page, 'Send').click();
const retrySame = (page) => button(page, 'Retry (same key)').click();
const loseAck = (page) => page.getByLabel('Lose acknowledgement', { exact: true }).check();
const pauseConsumer = (page, paused = true) => page.getByLabel('Pause consumer', { exact: true }).setChecked(paused);
const row = (page, n) => rows(page).nth(n - 1);
const data = (locator) => locator.evaluate((e) => ({ ...e.dataset }));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a timeline row says: its contract attributes, and the words of its store and caller cells. */
async function rowFacts(locator) {
  return locator.evaluate((e) => ({
    outcome: e.dataset.outcome,
    truth: e.dataset.truth ?? null,
    process: e.dataset.process,
    regranted: e.dataset.regranted ?? null,
    receipt: e.dataset.receiptBalance ?? null,
    current: e.dataset.currentBalance,
    store: e.querySelector('td.store').textContent,
    caller: e.querySelector('td.caller').textContent,
  }));
}

test('the time and process panel: its controls and their defaults', () =>
  withLab({}, async (page) => {
    assert.equal(await page.getByRole('heading', { name: 'Time and process' }).count(), 1);
    assert.deepEqual(await data(clock(page)), { testid: 'clock', now: '0', process: '1', idle: 'true' });
    assert.match(await clock(page).textContent(), /Virtual time 0\.0 s · process 1/);
    const speed = speedControl(page);
    assert.deepEqual(
      await speed.locator('option').evaluateAll((os) => os.map((o) => o.textContent)),
      ['Clock stopped', '0.25x', '0.5x', '1x', '2x', '4x'],
    );
    assert.equal(await speed.inputValue(), '1x', '1x by default');
    assert.equal(await page.getByLabel('Caller timeout (ms)', { exact: true }).inputValue(), '3000');
    assert.equal(await page.getByLabel('Processing time (ms)', { exact: true }).inputValue(), '100');
    assert.equal(await page.getByLabel('Network time each way (ms)', { exact: true }).inputValue(), '400');
    assert.equal(await button(page, 'Skip to idle').isDisabled(), true, 'nothing to skip while idle');
    assert.equal(await button(page, 'Undo').isDisabled(), true);
    assert.equal(await button(page, 'Redo').isDisabled(), true);
    assert.equal(await button(page, 'Restart process').isEnabled(), true);
    assert.equal(await page.getByRole('switch', { name: 'Naive worker beside' }).isChecked(), false);
    assert.equal(await page.getByTestId('naive-balances').count(), 0, 'no naive side until it is switched on');

    // A normal send is answered after its way there, the processing time and its
    // way back, in real time at 1x (virtual time never runs ahead of the wall
    // clock there), and no sooner.
    const started = Date.now();
    await send(page);
    await answeredRows(page).first().waitFor();
    assert.ok(Date.now() - started >= 895, `answered after ${Date.now() - started} ms`);
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'applied');
    await page.locator('[data-testid="clock"][data-idle="true"]').waitFor();
    assert.equal(await button(page, 'Skip to idle').isDisabled(), true);
    assert.equal(await button(page, 'Undo').isEnabled(), true);
  }));

test('a lost acknowledgement: the caller times out, though the store applied it before', () =>
  withLab({ instant: true }, async (page) => {
    await loseAck(page);
    await send(page);
    assert.equal(await answeredRows(page).count(), 0, 'the caller hears nothing before its deadline');
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'pending');
    await skipToIdle(page);
    assert.equal(await virtualNow(page), 3000, 'the caller gave up at its deadline, 3 s');
    const facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'timeout-applied');
    assert.equal(facts.truth, 'applied-before-timeout');
    assert.equal(facts.process, '1');
    assert.equal(facts.receipt, null);
    assert.equal(facts.current, '100');
    assert.match(facts.store, /points added: \+100\s*at 0\.1 s/);
    assert.match(facts.caller, /timeout: outcome unknown/);
    assert.match(facts.caller, /at 3\.0 s/);
    assert.match(facts.caller, /In truth: the store had already applied it; only the answer was lost\./);
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('applied after the timeout: a paused consumer, a retry sent while the first is still queued', () =>
  withLab({ instant: true }, async (page) => {
    // Only "Skip to idle" moves the clock here, so every time below is exact.
    await setSpeed(page, 'Clock stopped');
    await pauseConsumer(page);
    await send(page);
    await skipToIdle(page);
    // The deadline passed with the attempt still queued: nobody knows yet.
    assert.equal(await virtualNow(page), 3000);
    let facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'timeout');
    assert.equal(facts.truth, 'pending');
    assert.match(facts.store, /not handled yet/);
    assert.match(facts.caller, /In truth: still queued or running; not known yet\./);
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '1', 'still queued');

    // The caller retries with the same key while the first attempt waits in the queue.
    await retrySame(page);
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '2');
    await pauseConsumer(page, false);
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 2);
    facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'timeout-applied', 'the row was updated when the store handled it');
    assert.equal(facts.truth, 'applied-after-timeout');
    assert.match(facts.store, /points added: \+100\s*at 3\.1 s/);
    assert.match(facts.caller, /at 3\.0 s/);
    assert.match(facts.caller, /In truth: still queued or running at the timeout, applied later\./);
    facts = await rowFacts(row(page, 2));
    assert.equal(facts.outcome, 'replayed', 'the retry is recognised');
    assert.equal(facts.truth, null, 'no truth on an answered attempt');
    assert.equal(facts.receipt, '100');
    assert.equal(facts.current, '100');
    assert.match(facts.store, /returned the stored receipt\s*at 3\.2 s/);
    assert.equal(await balanceOf(page, 'account-7'), '100', 'granted once');
  }));

test('a paused consumer holds the work but not the callers\' clocks: a burst times out, its truth comes later', () =>
  withLab({ instant: true }, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await pauseConsumer(page);
    await page.getByLabel('Points').fill('5');
    await page.getByRole('button', { name: /Burst: 20 grants at once/ }).click();
    await skipToIdle(page);
    assert.equal(await virtualNow(page), 3000, 'every caller gave up at its deadline');
    const truths = () => rows(page).evaluateAll((els) => els.map((e) => `${e.dataset.outcome}/${e.dataset.truth}`));
    const count = (list) => list.reduce((n, x) => ({ ...n, [x]: (n[x] ?? 0) + 1 }), {});
    assert.deepEqual(count(await truths()), { 'timeout/pending': 16, 'timeout/never-applied': 4 },
      'the 16 queued may still be applied; the 4 waiting for room gave up and were never queued');
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '16');
    assert.equal(await page.getByTestId('waiting').getAttribute('data-waiting'), '0');

    await pauseConsumer(page, false);
    await skipToIdle(page);
    assert.equal(await virtualNow(page), 3000 + 16 * 100, 'the consumer worked off the queue at 100 ms each');
    assert.deepEqual(count(await truths()), { 'timeout-applied/applied-after-timeout': 16, 'timeout/never-applied': 4 });
    assert.equal(await balanceOf(page, 'account-7'), String(16 * 5));
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '0');
  }));

test('applied after the timeout: processing takes longer than the caller waits', () =>
  withLab({ instant: true }, async (page) => {
    await setSetting(page, 'Processing time (ms)', 5000);
    await send(page);
    await skipToIdle(page);
    assert.equal(await virtualNow(page), 5000);
    const facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'timeout-applied');
    assert.equal(facts.truth, 'applied-after-timeout');
    // Nothing was granted when the caller gave up at 3 s; the row says the
    // balance right after the store's late work, as the chart's line does.
    assert.equal(facts.current, '100', 'the balance after the store applied it at 5 s');
    assert.match(facts.store, /points added: \+100\s*at 5\.0 s/);
    assert.match(facts.caller, /timeout: outcome unknown/);
    assert.match(facts.caller, /at 3\.0 s/);
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('never applied: the process restarted while the timed-out attempt was queued', () =>
  withLab({}, async (page) => {
    await pauseConsumer(page);
    await send(page);
    await skipToIdle(page);
    assert.equal(await row(page, 1).getAttribute('data-truth'), 'pending');

    await button(page, 'Restart process').click();
    assert.equal(await clock(page).getAttribute('data-process'), '2');
    assert.match(await clock(page).textContent(), /process 2/);
    const facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'timeout');
    assert.equal(facts.truth, 'never-applied', 'the restart dropped the queued attempt');
    assert.equal(facts.process, '1', 'sent to the first process');
    assert.match(facts.store, /never reached the store/);
    assert.match(facts.caller, /In truth: never applied\./);
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '0', 'the queue went with its process');
    assert.equal(await page.getByTestId('balance-account-7').count(), 0, 'nothing was ever granted');
    assert.equal(await rows(page).count(), 1);
  }));

test('never applied: a timed-out attempt the store later refuses', () =>
  withLab({}, async (page) => {
    await send(page);
    await skipToIdle(page);
    await pauseConsumer(page);
    await page.getByLabel('Points').fill('200');
    await send(page);
    await skipToIdle(page);
    assert.equal(await row(page, 2).getAttribute('data-truth'), 'pending');
    await pauseConsumer(page, false);
    await skipToIdle(page);
    const facts = await rowFacts(row(page, 2));
    assert.equal(facts.outcome, 'timeout');
    assert.equal(facts.truth, 'never-applied', 'refused: the key was used for 100 points');
    assert.match(facts.store, /rejected: key already used for 100 points/);
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('a restart turns away the callers still waiting: they hear that the process ended', () =>
  withLab({ instant: true }, async (page) => {
    await pauseConsumer(page);
    await send(page);
    assert.equal(await page.getByTestId('queue-count').getAttribute('data-queued'), '1');
    await button(page, 'Restart process').click();
    const facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'process-ended');
    assert.equal(facts.truth, null, 'not a timeout: the caller was told');
    assert.equal(facts.process, '1');
    assert.match(facts.caller, /error: the process ended before answering/);
    assert.match(facts.store, /never reached the store/);
    assert.equal(await clock(page).getAttribute('data-process'), '2');
    await skipToIdle(page);
    assert.equal(await rows(page).count(), 1);
  }));

test('a retry after a restart is not recognised and grants again, and the timeline says so', () =>
  withLab({}, async (page) => {
    await send(page);
    await skipToIdle(page);
    assert.equal(await balanceOf(page, 'account-7'), '100');
    await button(page, 'Restart process').click();
    assert.equal(await clock(page).getAttribute('data-process'), '2');
    assert.equal(await page.getByTestId('balance-account-7').count(), 0, 'the in-memory store is gone');
    assert.equal(await rows(page).count(), 1, 'an idle process ends without a row');

    await retrySame(page);
    await skipToIdle(page);
    const first = await rowFacts(row(page, 1));
    assert.equal(first.outcome, 'applied');
    assert.equal(first.process, '1');
    assert.equal(first.regranted, null);
    const second = await rowFacts(row(page, 2));
    assert.equal(second.outcome, 'applied', 'the same key granted again');
    assert.equal(second.process, '2');
    assert.equal(second.regranted, 'true');
    assert.equal(second.receipt, '100');
    assert.match(second.store, /granted again: process 1 had applied this operation, and the restart forgot its receipt/);
    assert.match(await row(page, 2).locator('.attempt').textContent(), /retry #1.*process 2/);
    assert.equal(await balanceOf(page, 'account-7'), '100', 'the new process counts from zero');

    // Within the new process the key is known again.
    await retrySame(page);
    await skipToIdle(page);
    const third = await rowFacts(row(page, 3));
    assert.equal(third.outcome, 'replayed');
    assert.equal(third.regranted, null);
    assert.equal(await balanceOf(page, 'account-7'), '100');
  }));

test('the naive worker beside: one lost acknowledgement and one retry make 200 there, 100 here', () =>
  withLab({}, async (page) => {
    const naive = page.getByRole('switch', { name: 'Naive worker beside' });
    await naive.check();
    assert.equal(await naive.isChecked(), true);
    await loseAck(page);
    await send(page);
    await skipToIdle(page);
    assert.equal(await naiveBalanceOf(page, 'account-7'), '100');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    await retrySame(page);
    await skipToIdle(page);
    assert.equal(await naiveBalanceOf(page, 'account-7'), '200', 'the naive worker granted the retry as new');
    assert.equal(await balanceOf(page, 'account-7'), '100', 'the idempotent worker replayed it');
    assert.deepEqual(await rows(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)), ['timeout-applied', 'replayed']);
    assert.equal(await page.getByRole('heading', { name: "Naive worker's balances" }).count(), 1);

    // Switched off, later requests go to the idempotent worker only.
    await naive.uncheck();
    await page.getByLabel('Key').fill('order-1043');
    await send(page);
    await skipToIdle(page);
    assert.equal(await naiveBalanceOf(page, 'account-7'), '200');
    assert.equal(await balanceOf(page, 'account-7'), '200');
  }));

/** Everything the lab shows of its state, to compare one moment with another. */
async function labState(page) {
  return page.evaluate(() => {
    // Leptos leaves empty comments as markers; they are not part of what is shown.
    const html = (selector) => document.querySelector(selector).outerHTML.replace(/<!---->/g, '');
    return {
      clock: { ...document.querySelector('[data-testid="clock"]').dataset },
      timeline: html('[data-testid="timeline"]'),
      store: html('[data-testid="store"]'),
      queue: html('section.queue'),
      chart: html('section.chart'),
      retry: document.querySelector('[data-testid="retry-target"]').textContent,
      settings: [...document.querySelectorAll('input.ms')].map((i) => i.value),
    };
  });
}

test('undo steps back to exactly the earlier state, and redo restores what was undone', () =>
  withLab({}, async (page) => {
    const empty = await labState(page);
    await loseAck(page);
    await send(page);
    await skipToIdle(page);
    const afterSend = await labState(page);
    await retrySame(page);
    await skipToIdle(page);
    await button(page, 'Restart process').click();
    await retrySame(page);
    await skipToIdle(page);
    const afterRestart = await labState(page);
    assert.equal(afterRestart.clock.process, '2');
    assert.equal(await rows(page).count(), 3);

    // Back over the retry in process 2, then the restart, then the first retry.
    await button(page, 'Undo').click();
    assert.equal(await rows(page).count(), 2);
    assert.equal(await clock(page).getAttribute('data-process'), '2', 'just after the restart');
    await button(page, 'Undo').click();
    assert.equal(await clock(page).getAttribute('data-process'), '1');
    await button(page, 'Undo').click();
    assert.deepEqual(await labState(page), afterSend, 'the state after the first send, exactly');
    assert.equal(await balanceOf(page, 'account-7'), '100');
    assert.equal(await button(page, 'Redo').isEnabled(), true);
    await button(page, 'Undo').click();
    assert.deepEqual(await labState(page), empty, 'before anything was sent');
    assert.equal(await button(page, 'Undo').isDisabled(), true);

    for (let i = 0; i < 4; i += 1) await button(page, 'Redo').click();
    assert.deepEqual(await labState(page), afterRestart, 'redo brings back every step as it was');
    assert.equal(await button(page, 'Redo').isDisabled(), true);
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => [e.dataset.outcome, e.dataset.process, e.dataset.regranted ?? null])),
      [['timeout-applied', '1', null], ['replayed', '1', null], ['applied', '2', 'true']],
    );

    // Something new after an undo makes the undone steps unreachable.
    await button(page, 'Undo').click();
    await page.getByRole('button', { name: 'Check balance' }).click();
    assert.equal(await button(page, 'Redo').isDisabled(), true);
  }));

test('undo and redo of a setting; undo to a moment when a caller still waits stops the clock there', () =>
  withLab({}, async (page) => {
    await setSetting(page, 'Caller timeout (ms)', 1500);
    assert.equal(await page.getByLabel('Caller timeout (ms)').inputValue(), '1500');
    await button(page, 'Undo').click();
    assert.equal(await page.getByLabel('Caller timeout (ms)').inputValue(), '3000');
    await button(page, 'Redo').click();
    assert.equal(await page.getByLabel('Caller timeout (ms)').inputValue(), '1500');

    await setSpeed(page, 'Clock stopped');
    await loseAck(page);
    await send(page);
    await page.getByRole('button', { name: 'Check balance' }).click();
    assert.equal(await virtualNow(page), 0);
    await setSpeed(page, '1x');
    // Let the world run until the grant is applied, but not as far as the deadline.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="clock"]').dataset.now) >= 200);
    await button(page, 'Undo').click();
    // Back to just after the send: the caller still waits, so the clock is stopped,
    // and the page says so and why.
    assert.equal(await speedControl(page).inputValue(), '0', 'the speed control shows Paused');
    assert.match(await page.getByTestId('notice').textContent(), /The clock is stopped at this earlier moment/);
    assert.match(await page.getByTestId('world-state').innerText(), /^Clock stopped: work is due/);
    assert.equal(await virtualNow(page), 0, 'the time that passed after the undone action went with it');
    assert.equal(await clock(page).getAttribute('data-idle'), 'false');
    await sleep(300);
    assert.equal(await virtualNow(page), 0, 'and it stays there');
    assert.deepEqual(
      await rows(page).evaluateAll((els) => els.map((e) => [e.dataset.attempt, e.dataset.outcome, e.dataset.currentBalance ?? null])),
      [['1', 'pending', null]],
      'sent, not yet handled',
    );
    await skipToIdle(page);
    assert.equal(await page.getByTestId('notice').count(), 0, 'running on, the notice is done');
    assert.match(await page.getByTestId('world-state').innerText(), /^Idle/);
    assert.equal(await virtualNow(page), 1500, 'the caller timeout in force was the redone 1500 ms');
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'timeout-applied');
  }));

test('the time bar holds still: a change of state or of history moves none of its controls', () =>
  withLab({}, async (page) => {
    // Where each of the time bar's controls stands (the history's "to the end" once it shows).
    const places = () =>
      page.evaluate(() =>
        ['skip-to-idle', 'speed', 'history'].map((id) => {
          const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
          return `${id} ${Math.round(r.x)},${Math.round(r.y + scrollY)}`;
        }),
      );
    const still = async (when) => {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.deepEqual(await places(), start, `nothing moved ${when}`);
    };
    const start = await places();
    await setSpeed(page, 'Clock stopped');
    await loseAck(page);
    await send(page);
    assert.match(await page.getByTestId('world-state').innerText(), /^Clock stopped/);
    await still('when the clock stopped with work due');
    await skipToIdle(page);
    assert.match(await page.getByTestId('world-state').innerText(), /^Idle/);
    await still('when the world went idle');
    await button(page, 'Undo').click();
    await page.getByTestId('history-end').waitFor();
    await still('after an undo, with "to the end" shown');
    await page.getByTestId('history-end').click();
    await still('back at the end');
  }));

test('undo then redo while a caller waits: the clock stays stopped where the redo lands, and the page says so', () =>
  withLab({}, async (page) => {
    await loseAck(page);
    await send(page);
    await page.getByRole('button', { name: 'Check balance' }).click();
    // Within the caller's 3 s: back over the read, then forward again.
    await button(page, 'Undo').click();
    assert.equal(await speedControl(page).inputValue(), '0');
    assert.match(await page.getByTestId('notice').textContent(), /The clock is stopped/);
    await button(page, 'Redo').click();
    assert.equal(await speedControl(page).inputValue(), '0');
    assert.match(await page.getByTestId('notice').textContent(), /The clock is stopped/, 'still said after the redo');
    assert.match(await page.getByTestId('world-state').innerText(), /^Clock stopped/);
    const stoppedAt = await virtualNow(page);
    assert.ok(stoppedAt < 3_000, 'the caller still waits');
    // Running on ends the notice, and its caller gives up at its deadline as it would have.
    await setSpeed(page, '4x');
    assert.equal(await page.getByTestId('notice').count(), 0, 'choosing a speed ends the notice');
    await page.locator('[data-testid=timeline-row][data-attempt="1"][data-outcome="timeout-applied"]').waitFor({ timeout: 10_000 });
    assert.match(await page.getByTestId('world-state').innerText(), /^Idle/);
  }));

test('the speed control: Paused stops the clock, 4x reaches the deadline sooner than 1x', () =>
  withLab({ instant: true }, async (page) => {
    await setSpeed(page, 'Clock stopped');
    assert.equal(await speedControl(page).inputValue(), '0');
    await loseAck(page);
    await send(page);
    await page.locator('[data-testid="consumer"].busy').waitFor();
    assert.equal(await virtualNow(page), 0);
    await sleep(500);
    assert.equal(await virtualNow(page), 0, 'paused: no virtual time passes while the caller waits');
    assert.equal(await clock(page).getAttribute('data-idle'), 'false');
    assert.equal(await answeredRows(page).count(), 0);

    // 4x: 3 s of virtual time take at least 750 ms of real time, and well under 3 s.
    let started = Date.now();
    await setSpeed(page, '4x');
    await answeredRows(page).first().waitFor({ timeout: 10_000 });
    const quadruple = Date.now() - started;
    assert.equal(await row(page, 1).getAttribute('data-outcome'), 'timeout-applied');
    // The clock moves in ticks, so it may stop a little past the deadline; the
    // timeout itself happened exactly at it.
    assert.ok((await virtualNow(page)) >= 3000);
    assert.match(await row(page, 1).locator('td.caller').textContent(), /at 3\.0 s/);

    // 1x: the next lost acknowledgement takes the whole 3 s of real time.
    await setSpeed(page, '1x');
    await page.getByLabel('Key').fill('order-1043');
    await loseAck(page);
    started = Date.now();
    await send(page);
    await answeredRows(page).nth(1).waitFor({ timeout: 10_000 });
    const normal = Date.now() - started;
    assert.equal(await row(page, 2).getAttribute('data-outcome'), 'timeout-applied');
    assert.ok(quadruple >= 700, `4x never runs more than four times the wall clock (${quadruple} ms)`);
    assert.ok(normal >= 2900, `1x never runs ahead of the wall clock (${normal} ms)`);
    assert.ok(quadruple < normal, `4x took ${quadruple} ms, 1x took ${normal} ms`);
    assert.ok(quadruple < 2500, `4x took ${quadruple} ms for 3 s of virtual time`);
  }));

test('the settings refuse bad input with a message, and keep the value in force', () =>
  withLab({}, async (page) => {
    const timeout = page.getByLabel('Caller timeout (ms)', { exact: true });
    const processing = page.getByLabel('Processing time (ms)', { exact: true });
    const notice = page.getByTestId('notice');
    const refused = [
      [timeout, '0', /^Caller timeout \(ms\): must be 1 to 600,000, not 0\. Nothing changed\.$/],
      [timeout, '600001', /^Caller timeout \(ms\): must be 1 to 600,000, not 600,001\. Nothing changed\.$/],
      [timeout, '-5', /Caller timeout \(ms\): Must be 0 or more/],
      [timeout, '1.5', /Caller timeout \(ms\): Not a whole number/],
      [timeout, '', /Caller timeout \(ms\): Required/],
      [processing, '600001', /^Processing time \(ms\): must be 0 to 600,000, not 600,001\. Nothing changed\.$/],
      [processing, '-1', /Processing time \(ms\): Must be 0 or more/],
    ];
    for (const [input, value, message] of refused) {
      const before = await input.inputValue();
      await input.fill(value);
      await input.press('Enter');
      // The message's own words, without its Dismiss button's.
      assert.match(await notice.locator('p').textContent(), message, `${value} is refused`);
      assert.equal(await notice.getAttribute('role'), 'alert');
      assert.equal(await input.inputValue(), before, `the field shows the setting in force again after ${value}`);
    }
    assert.equal(await timeout.inputValue(), '3000');
    assert.equal(await processing.inputValue(), '100');
    assert.equal(await button(page, 'Undo').isDisabled(), true, 'a refused setting is not recorded');

    // A good value is taken on leaving the field too, and clears the message.
    await timeout.fill('500');
    await timeout.blur();
    assert.equal(await notice.count(), 0);
    await processing.fill('0');
    await processing.press('Enter');
    assert.equal(await processing.inputValue(), '0', 'no processing time is allowed');
    await setSpeed(page, 'Clock stopped');
    await loseAck(page);
    await send(page);
    await skipToIdle(page);
    // The request arrives at 0.4 s and is applied at once; its answer drops half
    // way home at 0.6 s, after the caller gave up at the new 500 ms.
    assert.equal(await virtualNow(page), 600, 'idle once the lost answer dropped');
    const facts = await rowFacts(row(page, 1));
    assert.equal(facts.outcome, 'timeout-applied');
    assert.match(facts.store, /at 0\.4 s/);
    assert.match(facts.caller, /at 0\.5 s/, 'the caller waited the new 500 ms');
  }));

test('Persian: the time and process panel, right to left, refusing bad settings in Persian', () =>
  withLab({ query: '?lang=fa' }, async (page) => {
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await page.getByRole('heading', { name: 'زمان و فرایند' }).count(), 1);
    assert.match(await clock(page).textContent(), /زمان مجازی ۰٫۰ ثانیه، فرایند ۱/);
    const timeout = page.getByLabel('timeout فراخواننده (میلی‌ثانیه)', { exact: true });
    const processing = page.getByLabel('زمان پردازش (میلی‌ثانیه)', { exact: true });
    assert.equal(await timeout.inputValue(), '3000');
    assert.equal(await timeout.getAttribute('dir'), 'ltr', 'numbers stay left to right');
    assert.equal(await processing.inputValue(), '100');
    for (const name of ['پرش تا بیکاری', 'راه‌اندازی مجدد فرایند', 'واگرد', 'انجام دوباره']) {
      assert.equal(await button(page, name).count(), 1, `a button named ${name}`);
    }
    assert.equal(await page.getByRole('switch', { name: 'worker ساده‌لوح در کنار' }).count(), 1);
    const speed = speedControl(page, 'سرعت');
    assert.equal(await speed.inputValue(), '1x');
    assert.equal(await speed.locator('option').first().textContent(), 'ساعت ایستاده');

    await timeout.fill('0');
    await timeout.press('Enter');
    const notice = page.getByTestId('notice');
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.match(await notice.textContent(), /timeout فراخواننده باید از ۱ تا .* میلی‌ثانیه باشد، نه ۰/);
    assert.equal(await timeout.inputValue(), '3000', 'unchanged');
    await processing.fill('-1');
    await processing.press('Enter');
    assert.match(await notice.textContent(), /^زمان پردازش \(میلی‌ثانیه\): /);
    assert.equal(await processing.inputValue(), '100', 'unchanged');
    // Persian digits are read as the numbers they are.
    await timeout.fill('۵۰۰۰');
    await timeout.press('Enter');
    assert.equal(await notice.count(), 0, 'an accepted setting clears the message');
    assert.equal(await timeout.inputValue(), '5000');

    // The walk's first step, then a restart, in Persian.
    await page.getByLabel('گم‌شدن تأیید').check();
    await button(page, 'ارسال').click();
    await skipToIdle(page, { name: 'پرش تا بیکاری' });
    assert.equal(await row(page, 1).getAttribute('data-truth'), 'applied-before-timeout');
    assert.match(await row(page, 1).locator('[data-testid="truth"]').textContent(), /در واقع: مخزن پیش‌تر اعمالش کرده بود/);
    await button(page, 'راه‌اندازی مجدد فرایند').click();
    assert.equal(await clock(page).getAttribute('data-process'), '2');
    assert.match(await clock(page).textContent(), /فرایند ۲/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the window`);
  }));

/** The article's walk, plus the lesson of this page: restart, then the naive worker beside. */
async function walkAndWorld(page, t) {
  const act = async (name) => {
    await button(page, name).click();
    await skipToIdle(page, { name: t.skip });
  };
  await page.getByRole('switch', { name: t.naive }).check();
  await page.getByLabel(t.loseAck).check();
  await act(t.send);
  await act(t.retrySame);
  await page.getByLabel(t.points).fill('200');
  await act(t.send);
  await act(t.retryFresh);
  assert.deepEqual(
    await rows(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)),
    ['timeout-applied', 'replayed', 'rejected', 'applied'],
  );
  // Balances in the page's digits.
  const digits = (n) => (t.persianDigits ? String(n).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d]) : String(n));
  assert.equal(await balanceOf(page, 'account-7'), digits(200));
  assert.equal(await naiveBalanceOf(page, 'account-7'), digits(500), 'the naive side granted all four deliveries');
}

test('screenshots after the walk with the world panel in use, English and Persian', async () => {
  const en = {
    skip: 'Skip to idle', naive: 'Naive worker beside', loseAck: 'Lose acknowledgement', send: 'Send',
    retrySame: 'Retry (same key)', retryFresh: 'Retry (fresh key)', points: 'Points', restart: 'Restart process',
    pause: 'Pause consumer',
  };
  const fa = {
    skip: 'پرش تا بیکاری', naive: 'worker ساده‌لوح در کنار', loseAck: 'گم‌شدن تأیید', send: 'ارسال',
    retrySame: 'تلاش مجدد (همان کلید)', retryFresh: 'تلاش مجدد (کلید تازه)', points: 'امتیاز',
    restart: 'راه‌اندازی مجدد فرایند', pause: 'توقف مصرف‌کننده', persianDigits: true,
  };
  for (const [lang, t] of [['en', en], ['fa', fa]]) {
    await withLab({ query: `?lang=${lang}` }, async (page) => {
      await walkAndWorld(page, t);
      // A restart, a retry the new process grants again, and a caller left waiting.
      await button(page, t.restart).click();
      await button(page, t.retrySame).click();
      await skipToIdle(page, { name: t.skip });
      assert.equal(await lastRow(page).getAttribute('data-regranted'), 'true');
      await page.getByLabel(t.pause, { exact: true }).check();
      await page.getByLabel(t.points).fill('7');
      await button(page, t.send).click();
      await skipToIdle(page, { name: t.skip });
      assert.equal(await lastRow(page).getAttribute('data-truth'), 'pending');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the window`);
      await page.screenshot({ path: join(ARTIFACTS, `lab-world-${lang}.png`), fullPage: true });
    });
  }
});
