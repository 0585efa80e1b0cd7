// A monkey: random clicks and typing for MONKEY_SECONDS (30 by default), with a fixed
// seed so a failure can be replayed. The page must never raise an error or panic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launchBrowser, openLab } from './harness.mjs';

const SECONDS = Number(process.env.MONKEY_SECONDS ?? 30);
const SEED = Number(process.env.MONKEY_SEED ?? Date.now() % 1_000_000);

/** A small seeded generator (mulberry32), so a run is reproducible from its seed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Clicks unless the element turned off, went away or came to rest between listing and
 * clicking (a running clock can idle the world and turn Skip to idle off). Returns whether the click happened;
 * any other failure still fails the run.
 */
async function clickIfStillThere(locator) {
  try {
    await locator.click({ timeout: 2000 });
    return true;
  } catch (error) {
    // The locator is "the nth usable button", so asking it again would find another one:
    // Playwright's own log says what it last saw of this element.
    if (/element is not enabled|element is not attached|element was detached/.test(String(error.message))) {
      return false;
    }
    // Or it went before the click could find it: fewer buttons now than when it
    // was picked (a "To the end" or a broken promise's button comes and goes).
    if (/Timeout \d+ms exceeded/.test(String(error.message)) && !/locator resolved to/.test(String(error.message))) {
      return false;
    }
    // Or it came to rest: the walkthrough opened (its files arrive a moment after
    // the click) and made the lab's controls inert.
    if (/element is inert|element is not visible/.test(String(error.message))) return false;
    throw error;
  }
}

/**
 * Runs a move on the lab's fields, unless they came to rest under the walkthrough
 * (which opens a moment after its button is clicked, once its files arrive), or
 * their settings drawer was closed by an earlier click.
 */
async function unlessResting(move) {
  try {
    await move();
    return true;
  } catch (error) {
    if (/element is inert|element is not visible/.test(String(error.message))) return false;
    throw error;
  }
}

/** One of the elements `selector` finds that is not resting (inside something inert). */
async function pickUsable(page, selector, pick) {
  const all = page.locator(selector);
  // Not inert, and shown (presenter mode hides the page's header).
  // Under a modal dialog, only what is in it.
  const usable = await all.evaluateAll((found) => {
    const modal = document.querySelector('dialog:modal');
    return found.flatMap((el, i) => (el.closest('[inert]') || !el.checkVisibility() || (modal && !modal.contains(el)) ? [] : [i]));
  });
  return all.nth(pick(usable));
}

const walkthroughOpen = async (page) => (await page.getByTestId('walkthrough').count()) > 0;

/** What a number field may hold: in range, out of range, negative, fractional, empty. */
const MILLIS = ['', '0', '1', '50', '100', '3000', '600000', '600001', '-1', '1.5', '1e3', '99999999999999999999999'];
const SPEEDS = ['0', '0.25x', '0.5x', '1x', '2x', '4x'];

const TEXTS = ['', ' ', '100', '25', '0', '-1', '2147483647', '2147483648', '1e9', '۱۲۳', 'abc',
  '<img src=x onerror=alert(1)>', 'order-1042', 'account-7', 'x'.repeat(200), '💥', '\u202e', '1.5'];

test(`monkey: ${SECONDS}s of random input (seed ${SEED}) raises no error`, { timeout: (SECONDS + 60) * 1000 }, async () => {
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const lab = await openLab(browser, server);
    const { page } = lab;
    page.on('dialog', (d) => {
      lab.problems().push(`a dialog opened: ${d.message()}`);
      return d.dismiss();
    });
    const next = random(SEED);
    const pick = (list) => list[Math.floor(next() * list.length)];
    const end = Date.now() + SECONDS * 1000;
    let moves = 0;
    let skipped = 0;
    while (Date.now() < end) {
      const choice = next();
      if (await page.locator('dialog:modal').count()) {
        // A modal dialog ("Embed on a page") leaves the page inert: act in it, or close it.
        if (choice < 0.5) {
          const inside = 'dialog:modal button, dialog:modal input[type="checkbox"], dialog:modal input[type="radio"]';
          if (!(await clickIfStillThere(await pickUsable(page, inside, pick)))) skipped += 1;
        } else if (choice < 0.8) {
          const field = page.locator('dialog:modal input[type="text"]:visible').first();
          if (!(await unlessResting(() => field.fill(pick(TEXTS), { timeout: 2000 })))) skipped += 1;
        } else {
          await page.keyboard.press('Escape');
        }
        moves += 1;
        continue;
      }
      if (choice < 0.55) {
        // Buttons that are off say so with aria-disabled (they keep the keyboard focus).
        // Controls resting while the walkthrough shows its script are `inert`.
        if (!(await clickIfStillThere(await pickUsable(page, 'button:enabled:not([aria-disabled="true"])', pick)))) skipped += 1;
      } else if (await walkthroughOpen(page)) {
        // The lab's fields and settings rest while the walkthrough is open.
        skipped += 1;
      } else if (choice < 0.8) {
        const field = page.locator('.field input').nth(Math.floor(next() * 3));
        if (!(await unlessResting(() => field.fill(pick(TEXTS), { timeout: 2000 })))) skipped += 1;
      } else if (choice < 0.92) {
        if (!(await clickIfStillThere(await pickUsable(page, 'input[type="checkbox"]', pick)))) skipped += 1;
      } else if (choice < 0.97) {
        // The world's settings: caller timeout and processing time, committed with Enter.
        const setting = page.locator('input.ms').nth(Math.floor(next() * 2));
        const value = pick(MILLIS);
        const done = await unlessResting(async () => {
          await setting.fill(value, { timeout: 2000 });
          await setting.press('Enter', { timeout: 2000 });
        });
        if (!done) skipped += 1;
      } else {
        const speed = page.getByTestId('speed');
        if (!(await unlessResting(() => speed.selectOption(pick(SPEEDS), { timeout: 2000 })))) skipped += 1;
      }
      moves += 1;
    }
    // The page must still work after the storm.
    if (await page.locator('dialog:modal').count()) await page.keyboard.press('Escape');
    if (await walkthroughOpen(page)) await page.getByTestId('walkthrough').locator('.walk-tools button').last().click();
    await page.locator('html.presenter').waitFor({ state: 'detached' });
    await page.locator('button.reset').click();
    assert.equal(await page.locator('[data-testid="timeline-row"]').count(), 0);
    console.log(`# monkey made ${moves} moves with seed ${SEED} (${skipped} clicks found their target turned off)`);
    assert.deepEqual(lab.problems(), [], `seed ${SEED}`);
    assert.ok(moves - skipped > 50, `only ${moves - skipped} moves landed`);
  } finally {
    await browser.close();
    server.close();
  }
});
