// End-to-end: the picture moves in the world's own order. With a network time
// set, a request is on its arrow exactly while the world says it travels, and
// what it causes is drawn when it arrives; a lost answer drops half way, marked.
// Driven by the history slider, not by real time, so nothing here races a clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite, setSetting, setSpeed, skipToIdle } from './harness.mjs';

const suite = labSuite();
const SCREEN = { width: 1280, height: 720 };

const now = async (page) => Number(await page.getByTestId('clock').getAttribute('data-now'));

/** Takes the picture to virtual moment `at` by the history slider, as a person does. */
async function travel(page, at) {
  await page.getByTestId('history').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, at);
  await page.waitForFunction((v) => document.querySelector('[data-testid="clock"]').dataset.now === String(v), at);
}

/** Where attempt 1 is in the picture now, and what the store shows. */
function where(page) {
  return page.evaluate(() => {
    const stage = document.querySelector('[data-testid="stage"]');
    const q = (sel) => stage.querySelector(sel);
    const token = q('[data-testid="stage-token"][data-attempt="1"]');
    const balance = q('[data-testid="stage-store"] [data-account="account-7"][data-balance]:not([data-unheld])');
    const state = token
      ? token.dataset.hop === 'out'
        ? Number(token.dataset.progress) === 0 ? 'caller' : 'wire'
        : token.dataset.hop === 'back' ? 'back' : token.dataset.hop
      : q('[data-testid="stage-queue-slot"][data-attempt="1"]') ? 'queue'
        : q('[data-testid="stage-consumer"][data-attempt="1"]') ? 'consumer'
          : 'none';
    return {
      state,
      progress: token ? Number(token.dataset.progress) : null,
      balance: balance ? Number(balance.dataset.balance) : null,
      caller: q('[data-testid="stage-caller"][data-attempt="1"]')?.dataset.state ?? null,
    };
  });
}

for (const lang of ['en', 'fa']) {
  test(`${lang}: the slider finds the request at the caller, on the wire, in the queue, at the consumer, then the answer back and lost, in that order`, () =>
    suite.withLab({ query: `?lang=${lang}`, viewport: SCREEN, locale: lang === 'fa' ? 'fa-IR' : 'en-US' }, async (page) => {
      const t = lang === 'fa'
        ? { transit: 'زمان شبکه در هر جهت (میلی‌ثانیه)', pause: 'توقف مصرف‌کننده', lose: 'گم‌شدن تأیید', send: 'ارسال', stopped: 'ساعت ایستاده', quarter: '0.25x', one: '1x', lost: /تأیید گم شد/ }
        : { transit: 'Network time each way (ms)', pause: 'Pause consumer', lose: 'Lose acknowledgement', send: 'Send', stopped: 'Clock stopped', quarter: '0.25x', one: '1x', lost: /answer lost/ };
      await setSpeed(page, t.stopped, { control: lang === 'fa' ? 'سرعت' : 'Speed' });
      await setSetting(page, t.transit, 400);
      await page.getByRole('switch', { name: t.pause, exact: true }).check();
      await page.getByLabel(t.lose, { exact: true }).check();
      const sent = await now(page);
      await page.getByRole('button', { name: t.send, exact: true }).click();
      // The request arrives and waits in the paused queue; one step lets the
      // consumer take it, long before its caller's deadline.
      await setSpeed(page, t.quarter, { control: lang === 'fa' ? 'سرعت' : 'Speed' });
      await page.locator('[data-testid="stage-queue-slot"][data-attempt="1"]').waitFor();
      await page.getByTestId('step').click();
      await skipToIdle(page);
      const end = await now(page);
      assert.ok(end >= sent + 3000, 'the caller waited out its deadline');

      const seen = [];
      for (let at = sent; at <= end && !seen.some((s) => s.state === 'dropped'); at += 20) {
        await travel(page, at);
        seen.push({ at, ...(await where(page)) });
      }
      // The mark stays a while where the answer dropped, then the arrow is clear.
      const droppedAt = seen.at(-1).at;
      for (const at of [droppedAt + 1000, droppedAt + 2020].filter((a) => a <= end)) {
        await travel(page, at);
        seen.push({ at, ...(await where(page)) });
      }
      const order = seen.map((s) => s.state).filter((s, i, all) => i === 0 || s !== all[i - 1]);
      const expected = ['caller', 'wire', 'queue', 'consumer', 'back', 'dropped', 'none'];
      assert.deepEqual(order, expected.slice(0, order.length), JSON.stringify(order));
      assert.ok(order.length >= 6, JSON.stringify(order));

      // The balance is drawn only once the request has reached the store, and
      // the answer leaves from there.
      const firstBack = seen.findIndex((s) => s.state === 'back');
      assert.ok(seen.slice(0, firstBack).every((s) => s.balance === null), 'no balance before the store');
      assert.ok(seen.slice(firstBack).every((s) => s.balance === 100), 'the balance from the store on');
      // The request really travels, in the page's direction: far enough to see.
      const wire = seen.filter((s) => s.state === 'wire');
      // (Measured once it has settled: between ticks it glides for 50 ms.)
      const xAt = async (at) => {
        await travel(page, at);
        await page.waitForTimeout(150);
        return page.locator('[data-testid="stage-token"][data-attempt="1"]').evaluate((e) => e.getBoundingClientRect().x);
      };
      const moved = Math.abs((await xAt(wire.at(-1).at)) - (await xAt(wire[0].at)));
      assert.ok(moved >= 40, `the request moved ${moved} px along its arrow`);
      assert.ok(wire.every((s, i) => i === 0 || s.progress > wire[i - 1].progress), 'always forward');
      // The answer drops half way and stays there, marked, while its caller waits on.
      const back = seen.filter((s) => s.state === 'back');
      assert.ok(back.every((s) => s.progress <= 0.5), JSON.stringify(back));
      const dropped = seen.find((s) => s.state === 'dropped');
      assert.equal(dropped.progress, 0.5);
      assert.equal(dropped.caller, 'waiting');
      await travel(page, seen.find((s) => s.state === 'dropped').at);
      const mark = page.locator('[data-testid="stage-token"][data-hop="dropped"]');
      assert.match(await mark.innerText(), t.lost);
      // The row says the store did the work and the answer was lost.
      await travel(page, end);
      assert.equal(await page.locator('[data-testid="stage-caller"][data-attempt="1"]').getAttribute('data-mark'), 'lost-ack');
      await setSpeed(page, t.one, { control: lang === 'fa' ? 'سرعت' : 'Speed' });
    }));
}

test('reduced motion: a token is placed where the world puts it, not animated', () =>
  suite.withLab({ viewport: SCREEN, reducedMotion: 'reduce' }, async (page) => {
    await setSpeed(page, 'Clock stopped');
    await setSetting(page, 'Network time each way (ms)', 400);
    const sent = await now(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await skipToIdle(page);
    await travel(page, sent + 200);
    const token = page.locator('[data-testid="stage-token"][data-attempt="1"]');
    assert.equal(await token.getAttribute('data-hop'), 'out');
    assert.equal(await token.getAttribute('data-progress'), '0.50');
    assert.equal(await token.evaluate((e) => getComputedStyle(e).animationName), 'none');
    // It stands still while it travels: the same place a moment later.
    const x = await token.evaluate((e) => e.getBoundingClientRect().x);
    await travel(page, sent + 300);
    assert.equal(await token.getAttribute('data-progress'), '0.75');
    assert.equal(await token.evaluate((e) => e.getBoundingClientRect().x), x);
  }));

for (const lang of ['en', 'fa']) {
  test(`${lang}: an answer on its way is lost by a click (and by Enter); Undo brings it back`, () =>
    suite.withLab({ query: `?lang=${lang}`, viewport: SCREEN, locale: lang === 'fa' ? 'fa-IR' : 'en-US' }, async (page) => {
      const fa = lang === 'fa';
      const speed = { control: fa ? 'سرعت' : 'Speed' };
      const t = fa
        ? { transit: 'زمان شبکه در هر جهت (میلی‌ثانیه)', send: 'ارسال', stopped: 'ساعت ایستاده', lose: 'گم کردن پاسخ تلاش ۱ همین‌جا، در راه بازگشت', undo: 'واگرد', tag: 'تأیید گم شد' }
        : { transit: 'Network time each way (ms)', send: 'Send', stopped: 'Clock stopped', lose: 'Lose the answer to attempt 1 here, on its way back', undo: 'Undo', tag: 'ack lost' };
      await setSpeed(page, t.stopped, speed);
      await setSetting(page, t.transit, 400);
      const sent = await now(page);
      await page.getByRole('button', { name: t.send, exact: true }).click();
      await skipToIdle(page);
      const caller = page.locator('[data-testid="stage-caller"][data-attempt="1"]');
      assert.equal(await caller.getAttribute('data-state'), 'answered');
      // Back to the moment the answer is half way home, and lose it there.
      await travel(page, sent + 700);
      const answer = page.getByRole('button', { name: t.lose, exact: true });
      assert.equal(await answer.getAttribute('data-hop'), 'back');
      await answer.click();
      const dropped = page.locator('[data-testid="stage-token"][data-attempt="1"][data-hop="dropped"]');
      await dropped.waitFor();
      assert.equal(await dropped.getAttribute('data-progress'), '0.50');
      await skipToIdle(page);
      assert.equal(await caller.getAttribute('data-state'), 'timed-out');
      assert.equal(await caller.getAttribute('data-mark'), 'lost-ack');
      const row = page.locator('[data-testid="timeline-row"]').first();
      assert.equal(await row.getAttribute('data-outcome'), 'timeout-applied');
      assert.match(await row.innerText(), new RegExp(t.tag));
      // Undo: the answer is on its way again, and arrives.
      await page.getByRole('button', { name: t.undo, exact: true }).click();
      await skipToIdle(page);
      assert.equal(await caller.getAttribute('data-state'), 'answered');
      assert.equal(await row.getAttribute('data-outcome'), 'applied');
      // By keyboard: focus the answer and press Enter.
      await travel(page, sent + 700);
      await answer.focus();
      await page.keyboard.press('Enter');
      await dropped.waitFor();
    }));
}

for (const lang of ['en', 'fa']) {
  test(`${lang}: the crash button beside a consumer crashes its process; Undo brings it back`, () =>
    suite.withLab({ query: `?lang=${lang}`, viewport: SCREEN, locale: lang === 'fa' ? 'fa-IR' : 'en-US' }, async (page) => {
      const fa = lang === 'fa';
      const t = fa
        ? { pause: 'توقف مصرف‌کننده', send: 'ارسال', crash: 'خرابی فرایند ۱ همین حالا: حافظه و صفش از دست می‌رود و فرایندی تازه جایش را می‌گیرد', undo: 'واگرد' }
        : { pause: 'Pause consumer', send: 'Send', crash: 'Crash process 1 now: its memory and queue are lost, and a new process takes its place', undo: 'Undo' };
      await page.getByRole('switch', { name: t.pause, exact: true }).check();
      await page.getByRole('button', { name: t.send, exact: true }).click();
      const slot = page.locator('[data-testid="stage-queue-slot"][data-attempt="1"]');
      await slot.waitFor();
      await page.getByRole('button', { name: t.crash, exact: true }).click();
      // The process is drawn ended; a new, empty one runs in its place.
      await page.locator('[data-testid="stage-process"][data-process="2"][data-state="running"]').waitFor();
      assert.notEqual(await page.locator('[data-testid="stage-process"][data-process="1"]').getAttribute('data-state'), 'running');
      assert.equal(await slot.count(), 0, 'its queue went with it');
      await page.locator('[data-testid="stage-caller"][data-attempt="1"][data-mark="process-ended"]').waitFor();
      // Undo: process 1 again, the request queued in it.
      await page.getByRole('button', { name: t.undo, exact: true }).click();
      await slot.waitFor();
      assert.equal(await page.locator('[data-testid="stage-process"][data-process="1"]').getAttribute('data-state'), 'running');
    }));
}
